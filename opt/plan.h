/* SPDX-License-Identifier: MIT */
/* The layer plans of the vector solve_layer kernels (opt/plan.c). */
#ifndef TTS_OPT_PLAN_H
#define TTS_OPT_PLAN_H

#include <stdint.h>

#include "internal.h"

/* Public description of one layer's linear system, derived once from the
 * term table (opt/plan.c) for the vector solve_layer kernels. Term t of the
 * layer (t0 <= t < t0 + nterms) contributes coef[t] * x[u[t]] * x[w[t]] to
 * row[t]: to column col[t] of the matrix, or (col[t] == dim) to the
 * right-hand side, where x[w[t]] is replaced by the constant 1 slot
 * TTS_PLAN_ONE if the term is a matrix entry. */
#define TTS_PLAN_ONE 63
#define TTS_PLAN_MAXT 272 /* b(b+1) and a(v-1) for TTS(36,50) */
#define TTS_PLAN_MAXD 18
typedef struct {
    uint16_t t0, nterms;
    uint8_t lo, dim;
    uint8_t u[TTS_PLAN_MAXT + 32], w[TTS_PLAN_MAXT + 32]; /* x indices, w may be
                                                         * ONE; 0xFF padding */
    /* Row r is XOR of pshufb(broadcast128(val + seg[r]), ctl[r][0]) and
     * pshufb(broadcast128(val + seg[r] + 16), ctl[r][1]) (0x80: none). */
    uint16_t seg[TTS_PLAN_MAXD];
    uint8_t ctl[TTS_PLAN_MAXD][2][32];
    /* Right-hand-side terms: nrhs pairs (term offset, row). */
    uint16_t nrhs;
    uint16_t rhs_t[TTS_PLAN_MAXT];
    uint8_t rhs_r[TTS_PLAN_MAXT];
} tts_layer_plan;
const tts_layer_plan *tts_layer_plan_get(const tts_params *p, unsigned layer);

#endif
