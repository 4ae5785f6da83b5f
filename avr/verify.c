/* SPDX-License-Identifier: MIT */
/*
 * VERIFY (docs/SPEC.md section 7.2): P(sigma) from the public key in flash
 * (section 5.4: a block of m coefficients a monomial, the quadratic
 * w_i w_j for i <= j by i then j, then the linear w_i), read in order with
 * LPM, compared with h. Everything here is public: zero factors are
 * skipped by branches.
 */
#include "avr.h"

/* out ^= t * (the m coefficients at pk) */
static void block(uint8_t *out, const uint8_t *pk, uint8_t t)
{
    if (!t)
        return;
    uint8_t lt = gf_log(t);
    for (uint8_t k = 0; k < TTS_M; k++) {
        uint8_t a = pgm_read_byte(pk + k);
        if (a)
            out[k] ^= gf_exp((uint16_t)gf_log(a) + lt);
    }
}

uint8_t avr_verify(const uint8_t sig[TTS_N], const uint8_t h[TTS_M])
{
    uint8_t out[TTS_M] = {0}, d = 0;
    const uint8_t *pk = avr_pk;
    for (uint8_t i = 0; i < TTS_N; i++)
        for (uint8_t j = i; j < TTS_N; j++, pk += TTS_M)
            block(out, pk, gf_mul(sig[i], sig[j]));
    for (uint8_t i = 0; i < TTS_N; i++, pk += TTS_M)
        block(out, pk, sig[i]);
    for (uint8_t k = 0; k < TTS_M; k++)
        d |= out[k] ^ h[k];
    return d ? AVR_EBADSIG : AVR_OK;
}
