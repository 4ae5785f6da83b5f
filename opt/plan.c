/* SPDX-License-Identifier: MIT */
/* Layer plans for the vector solve_layer kernels: for every set and layer,
 * where each central term of the layer lands in the linear system (public
 * structure, derived from the term table). Built once, at first use, for
 * all sets; a racing thread waits for the builder (the state goes 0 -> 1
 * -> 2 and is published with release/acquire). */
#include <stdatomic.h>
#include <string.h>

#include "plan.h"

#define NSETS_MAX 8

static tts_layer_plan plans[NSETS_MAX][TTS_LAYERS];
static atomic_int state;

static void build(const tts_params *p, unsigned layer, tts_layer_plan *P)
{
    unsigned var[TTS_LAYERS + 1];
    layer_vars(p, var);
    memset(P, 0, sizeof *P);
    P->lo = (uint8_t)var[layer];
    P->dim = (uint8_t)(var[layer + 1] - var[layer]);
    P->t0 = p->layer[layer];
    P->nterms = (uint16_t)(p->layer[layer + 1] - p->layer[layer]);
    memset(P->ctl, 0x80, sizeof P->ctl);
    memset(P->u, 0xFF, sizeof P->u); /* gathers of padding yield 0 */
    memset(P->w, 0xFF, sizeof P->w);
    uint8_t have[TTS_PLAN_MAXD] = {0};
    for (unsigned t = 0; t < P->nterms; t++) {
        const tts_term *T = &p->terms[P->t0 + t];
        unsigned r = T->row - P->lo;
        P->u[t] = T->u;
        if (T->w >= P->lo) { /* matrix entry: column T->w - lo */
            P->w[t] = TTS_PLAN_ONE;
            if (!have[r]) {
                P->seg[r] = (uint16_t)t;
                have[r] = 1;
            }
            unsigned off = t - P->seg[r], col = T->w - P->lo;
            P->ctl[r][off >> 4][col] = (uint8_t)(off & 15);
        } else {
            P->w[t] = T->w;
            P->rhs_t[P->nrhs] = (uint16_t)t;
            P->rhs_r[P->nrhs++] = (uint8_t)r;
        }
    }
}

const tts_layer_plan *tts_layer_plan_get(const tts_params *p, unsigned layer)
{
    int s = atomic_load_explicit(&state, memory_order_acquire);
    if (s != 2) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&state, &expected, 1)) {
            for (size_t i = 0; i < tts_params_count() && i < NSETS_MAX; i++)
                for (unsigned L = 0; L < TTS_LAYERS; L++)
                    build(tts_params_at(i), L, &plans[i][L]);
            atomic_store_explicit(&state, 2, memory_order_release);
        } else {
            while (atomic_load_explicit(&state, memory_order_acquire) != 2)
                ;
        }
    }
    size_t i = (size_t)(p - tts_params_at(0)); /* p points into that table */
    return i < NSETS_MAX && i < tts_params_count() && layer < TTS_LAYERS ? &plans[i][layer]
                                                                      : NULL;
}
