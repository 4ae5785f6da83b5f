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

/* The backend's layer solver (vector backends build the system in
 * registers); every one satisfies the contract above. */
uint8_t tts_central_solve_layer(const tts_params *p, const tts_kernels *k,
                                unsigned layer, uint8_t *x,
                                const uint8_t *target, const uint8_t *coef)
{
    return k->solve_layer(p, k, layer, x, target, coef);
}
