/* SPDX-License-Identifier: MIT */
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

/* C = A B, row by row: C[i] = sum_k A[i][k] B[k]. */
static void matmul_ref(uint8_t *C, const uint8_t *A, const uint8_t *B,
                       unsigned rows, unsigned inner, unsigned cols)
{
    for (unsigned i = 0; i < rows; i++) {
        uint8_t *c = C + (size_t)i * cols;
        for (unsigned j = 0; j < cols; j++)
            c[j] = 0;
        for (unsigned k = 0; k < inner; k++)
            madd_ref(c, B + (size_t)k * cols, A[(size_t)i * inner + k], cols);
    }
}

static void vmul_ref(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        out[i] = gf256_mul(a[i], b[i]);
}

void tts_transpose_ref(uint8_t *dst, const uint8_t *src, unsigned rows, unsigned cols)
{
    for (unsigned r = 0; r < rows; r++)
        for (unsigned c = 0; c < cols; c++)
            dst[(size_t)c * rows + r] = src[(size_t)r * cols + c];
}

TTS_BLOCKSUM_FROM_MADD(blocksum_ref, madd_ref)

const tts_kernels tts_kernels_ref = {
    .name = "ref",
    .madd = madd_ref,
    .matvec = matvec_ref,
    .gauss = gauss_ref,
    .pk_eval = pk_eval_ref,
    .matmul = matmul_ref,
    .vmul = vmul_ref,
    .transpose = tts_transpose_ref,
    .solve_layer = tts_solve_layer_generic,
    .invert = tts_invert_generic,
    .blocksum = blocksum_ref,
};
