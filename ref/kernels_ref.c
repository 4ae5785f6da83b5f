/* Portable kernels: byte at a time, branch-free, no tables. */
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

static void scale_ref(uint8_t *row, uint8_t s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        row[i] = gf256_mul(row[i], s);
}

#define GAUSS_FN gauss_ref
#define GAUSS_MADD madd_ref
#define GAUSS_SCALE scale_ref
#include "gauss_impl.h"

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
