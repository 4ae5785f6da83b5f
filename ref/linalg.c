/* SPDX-License-Identifier: MIT */
/* The generic kernels: the layer solver and the matrix inversion that any
 * backend gets from its own madd and gauss (tts_kernels in internal.h);
 * vector backends may replace them (opt/simd_impl.h does). Both are
 * constant time in the data: the control flow and the addresses depend on
 * the dimensions and the public term table only. */
#include <sodium.h>
#include <string.h>

#include "gf256.h"
#include "internal.h"

/*
 * Solve layer L for its variables x[lo..hi-1] given every x below lo, so
 * that y_i = target[i - v] for the rows i of the layer. Every term pairs a
 * known x[u] with either a layer variable x[w] (lo <= w < hi: a matrix
 * entry) or a known x[w] (a constant moved to the right-hand side). The
 * identity comes from the x_i term of each y_i; entries are accumulated,
 * never overwritten. Returns 1 if the system was nonsingular.
 */
uint8_t tts_solve_layer_generic(const tts_params *p, const tts_kernels *k,
                                unsigned layer, uint8_t *x,
                                const uint8_t *target, const uint8_t *coef)
{
    unsigned var[TTS_LAYERS + 1];
    layer_vars(p, var);
    unsigned lo = var[layer], dim = var[layer + 1] - lo, cols = dim + 1;
    uint8_t M[TTS_MAX_N * (TTS_MAX_N + 1)];

    memset(M, 0, (size_t)dim * cols);
    for (unsigned r = 0; r < dim; r++) {
        M[r * cols + r] = 1;
        M[r * cols + dim] = target[lo + r - p->v];
    }
    for (unsigned t = p->layer[layer]; t < p->layer[layer + 1]; t++) {
        const tts_term *T = &p->terms[t];
        uint8_t *row = M + (T->row - lo) * cols;
        uint8_t cu = gf256_mul(coef[t], x[T->u]);
        if (T->w >= lo) /* public index: which column, not a secret */
            row[T->w - lo] ^= cu;
        else
            row[dim] ^= gf256_mul(cu, x[T->w]);
    }
    uint8_t ok = k->gauss(M, dim, cols);
    for (unsigned r = 0; r < dim; r++)
        x[lo + r] = M[r * cols + dim];
    sodium_memzero(M, (size_t)dim * cols);
    return ok;
}

/* inv = [M | I] reduced by gauss: the right half. */
uint8_t tts_invert_generic(const tts_kernels *k, uint8_t *inv, const uint8_t *M,
                           unsigned dim)
{
    unsigned cols = 2 * dim;
    uint8_t W[TTS_MAX_N * 2 * TTS_MAX_N];
    for (unsigned r = 0; r < dim; r++) {
        memcpy(W + r * cols, M + r * dim, dim);
        memset(W + r * cols + dim, 0, dim);
        W[r * cols + dim + r] = 1;
    }
    uint8_t ok = k->gauss(W, dim, cols);
    for (unsigned r = 0; r < dim; r++)
        memcpy(inv + r * dim, W + r * cols + dim, dim);
    sodium_memzero(W, (size_t)dim * cols);
    return ok;
}
