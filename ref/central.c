/* SPDX-License-Identifier: MIT */
/* The central map F and its layer-by-layer inversion, driven by the term
 * table of central_tables.h (one code path for all eight sets). */
#include <sodium.h>
#include <string.h>

#include "gf256.h"
#include "internal.h"

/* y[k] = y_{v+k} = x_{v+k} + sum of the terms of row v+k (k < m), the
 * products by the kernels: val[t] = coef[t] x[u] x[w] for all terms at
 * once, then added by row. x and coef may be secret: the indices are the
 * table's, and the scratch is wiped. */
void tts_central_eval(const tts_params *p, const tts_kernels *k, uint8_t *y,
                      const uint8_t *x, const uint8_t *coef)
{
    uint8_t xu[TTS_MAX_COEFFS], xw[TTS_MAX_COEFFS];
    for (unsigned t = 0; t < p->coeffs; t++) {
        xu[t] = x[p->terms[t].u];
        xw[t] = x[p->terms[t].w];
    }
    k->vmul(xu, xu, xw, p->coeffs);
    k->vmul(xu, xu, coef, p->coeffs);
    memcpy(y, x + p->v, p->m);
    for (unsigned t = 0; t < p->coeffs; t++)
        y[p->terms[t].row - p->v] ^= xu[t];
    sodium_memzero(xu, sizeof xu);
    sodium_memzero(xw, sizeof xw);
}

/* The backend's layer solver (vector backends build the system in
 * registers); every one satisfies the contract above. */
uint8_t tts_central_solve_layer(const tts_params *p, const tts_kernels *k,
                                unsigned layer, uint8_t *x,
                                const uint8_t *target, const uint8_t *coef)
{
    return k->solve_layer(p, k, layer, x, target, coef);
}
