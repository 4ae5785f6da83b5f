/* The central map F and its layer-by-layer inversion, driven by the term
 * table of central_tables.h (one code path for all eight sets). */
#include <sodium.h>
#include <string.h>

#include "gf256.h"
#include "internal.h"

/* y[k] = y_{v+k} = x_{v+k} + sum of the terms of row v+k (k < m). */
void tts_central_eval(const tts_params *p, uint8_t *y, const uint8_t *x,
                      const uint8_t *coef)
{
    memcpy(y, x + p->v, p->m);
    for (unsigned t = 0; t < p->coeffs; t++) {
        const tts_term *T = &p->terms[t];
        y[T->row - p->v] ^= gf256_mul(coef[t], gf256_mul(x[T->u], x[T->w]));
    }
}

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

/* The backend's layer solver (vector backends build the system in
 * registers); every one satisfies the contract above. */
uint8_t tts_central_solve_layer(const tts_params *p, const tts_kernels *k,
                                unsigned layer, uint8_t *x,
                                const uint8_t *target, const uint8_t *coef)
{
    return k->solve_layer(p, k, layer, x, target, coef);
}
