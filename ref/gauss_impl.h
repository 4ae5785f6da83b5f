/* SPDX-License-Identifier: MIT */
/*
 * Constant-time Gauss-Jordan elimination, shared by every backend. The
 * including file defines, before #include:
 *   GAUSS_FN                    the function name to define
 *   GAUSS_MADD(dst, src, s, n)  dst[i] ^= s * src[i], i < n
 *   GAUSS_SCALE(row, s, n)      row[i] = s * row[i], i < n
 * so that only the row operations differ between backends.
 *
 * For pivot column k, every later row is added to row k multiplied by
 * "pivot is zero" (0 or 1), which repairs a zero pivot without a branch;
 * ok accumulates "every pivot nonzero". The pivot is inverted by Fermat
 * (a^254) and column k is cleared from every other row. The sequence of
 * operations depends only on rows and cols, never on the entries.
 */
#include "ct.h"
#include "gf256.h"

static uint8_t GAUSS_FN(uint8_t *M, unsigned rows, unsigned cols)
{
    uint8_t ok = 1;
    for (unsigned k = 0; k < rows; k++) {
        uint8_t *pk = M + (size_t)k * cols;
        for (unsigned i = k + 1; i < rows; i++)
            GAUSS_MADD(pk + k, M + (size_t)i * cols + k, ct_is_zero(pk[k]), cols - k);
        ok &= (uint8_t)(1 ^ ct_is_zero(pk[k]));
        GAUSS_SCALE(pk + k, gf256_inv(pk[k]), cols - k);
        for (unsigned i = 0; i < rows; i++) {
            if (i == k) /* public index */
                continue;
            uint8_t *pi = M + (size_t)i * cols;
            GAUSS_MADD(pi + k, pk + k, pi[k], cols - k);
        }
    }
    return ok;
}
