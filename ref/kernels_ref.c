/* Portable kernels: byte at a time, branch-free, no tables. */
#include "ct.h"
#include "gf256.h"
#include "internal.h"

static void madd_ref(uint8_t *acc, const uint8_t *x, uint8_t s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        acc[i] ^= gf256_mul(x[i], s);
}

static void matvec_ref(uint8_t *y, const uint8_t *M, const uint8_t *x,
                       unsigned rows, unsigned cols)
{
    for (unsigned r = 0; r < rows; r++) {
        uint8_t acc = 0;
        for (unsigned c = 0; c < cols; c++)
            acc ^= gf256_mul(M[(size_t)r * cols + c], x[c]);
        y[r] = acc;
    }
}

/*
 * Constant-time Gauss-Jordan. For pivot column k, every later row is added
 * to row k under a mask that is set while the pivot is still zero, so a zero
 * pivot is repaired without a branch; ok accumulates "every pivot nonzero".
 * The pivot is inverted by Fermat (gf256_inv) and every other row is cleared
 * in column k. The loop structure depends only on rows and cols.
 */
static uint8_t gauss_ref(uint8_t *M, unsigned rows, unsigned cols)
{
    uint8_t ok = 1;
    for (unsigned k = 0; k < rows; k++) {
        uint8_t *pk = M + (size_t)k * cols;
        for (unsigned i = k + 1; i < rows; i++) {
            const uint8_t *pi = M + (size_t)i * cols;
            uint8_t mask = ct_mask(ct_is_zero(pk[k]));
            for (unsigned j = k; j < cols; j++)
                pk[j] ^= mask & pi[j];
        }
        ok &= (uint8_t)(1 ^ ct_is_zero(pk[k]));
        uint8_t inv = gf256_inv(pk[k]);
        for (unsigned j = k; j < cols; j++)
            pk[j] = gf256_mul(pk[j], inv);
        for (unsigned i = 0; i < rows; i++) {
            if (i == k)
                continue;
            uint8_t *pi = M + (size_t)i * cols;
            uint8_t f = pi[k];
            for (unsigned j = k; j < cols; j++)
                pi[j] ^= gf256_mul(pk[j], f);
        }
    }
    return ok;
}

/* P(w): every quadratic monomial w_i w_j (i <= j) then every w_i, each
 * scaling its m-byte block of the public key. */
static void pk_eval_ref(uint8_t *out, const uint8_t *pk, const uint8_t *w,
                        unsigned m, unsigned n)
{
    for (unsigned k = 0; k < m; k++)
        out[k] = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i; j < n; j++, pk += m)
            madd_ref(out, pk, gf256_mul(w[i], w[j]), m);
    for (unsigned i = 0; i < n; i++, pk += m)
        madd_ref(out, pk, w[i], m);
}

const tts_kernels tts_kernels_ref = {
    "ref", madd_ref, matvec_ref, gauss_ref, pk_eval_ref,
};
