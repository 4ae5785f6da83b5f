/* SPDX-License-Identifier: MIT */
/*
 * VERIFY (docs/SPEC.md section 7.2): P(sigma) from the public key in flash
 * (section 5.4: a block of m coefficients a monomial, the quadratic
 * w_i w_j for i <= j by i then j, then the linear w_i), read in order with
 * LPM, compared with h. The key is stored in log form (avr_pk.h: each
 * coefficient c as log_3 c, 0xFF for c = 0, then the list of the zero
 * coefficients; the programmer converts it): a product is one LPM, an add
 * mod 255 and one load from the table of powers in SRAM (gf_verify.S,
 * 8 cycles). Everything here is public: zero factors are skipped by
 * branches. The C twins (-DAVR_C_KERNELS, the Cortex-M build) copy GF_EXP
 * to their stack and skip a zero coefficient by a branch, without the
 * list.
 */
#include <string.h>

#include "avr.h"

#ifdef AVR_C_KERNELS
/* out[k] ^= ex[pkl[k]] for k < m unless pkl[k] = 0xFF (the coefficient 0) */
static void gf_mac_pk(uint8_t *out, const uint8_t *pkl, const uint8_t *ex, uint8_t m)
{
    for (uint8_t k = 0; k < m; k++) {
        uint8_t l = pgm_read_byte(pkl + k);
        if (l != 0xFF)
            out[k] ^= ex[l];
    }
}

/* the monomials w_i w_j, j = i..i+cnt-1 (lwi = log w_i; 0 and lw itself
 * for the linear ones) */
static void row(uint8_t *out, const uint8_t *pk, const uint8_t *ex, const uint8_t *lw,
                uint8_t lwi, uint8_t cnt)
{
    for (uint8_t j = 0; j < cnt; j++, pk += TTS_M)
        if (lw[j] != 0xFF) {
            uint16_t l = (uint16_t)lwi + lw[j];
            gf_mac_pk(out, pk, ex + (l >= 255 ? l - 255 : l), TTS_M);
        }
}

uint8_t avr_verify(const uint8_t sig[TTS_N], const uint8_t h[TTS_M])
{
    uint8_t out[TTS_M] = {0}, lw[TTS_N], ex[510], d = 0;
    const uint8_t *pk = avr_pk;
    memcpy_P(ex, GF_EXP, sizeof ex);
    /* log w_i, 0xFF for w_i = 0 (its monomials skipped) */
    for (uint8_t i = 0; i < TTS_N; i++)
        lw[i] = sig[i] ? gf_log(sig[i]) : 0xFF;
    for (uint8_t i = 0; i < TTS_N; i++) {
        if (lw[i] != 0xFF)
            row(out, pk, ex, lw + i, lw[i], TTS_N - i);
        pk += (uint16_t)(TTS_N - i) * TTS_M;
    }
    row(out, pk, ex, lw, 0, TTS_N);
    for (uint8_t k = 0; k < TTS_M; k++)
        d |= out[k] ^ h[k];
    return d ? AVR_EBADSIG : AVR_OK;
}
#else
/* gf_verify.S (avr.h): one pass of PASS_Q of the m sums; the zero
 * list's products */

uint8_t avr_verify(const uint8_t sig[TTS_N], const uint8_t h[TTS_M])
{
    uint8_t out[TTS_M], lw[TTS_N + 1], d = 0;
    for (uint8_t i = 0; i < TTS_N; i++)
        lw[i] = GF_TLOG[sig[i]]; /* 0xFF for 0 */
    lw[TTS_N] = 0;                /* the linear blocks' second factor, 1 */
    for (uint8_t q = 0; q < TTS_M; q += PASS_Q)
        gf_pk_pass_asm(out + q, avr_pk + q, lw);
    /* the zero list: the kernel counted each zero coefficient as 1 */
    gf_pk_zeros_asm(out, avr_pk + PK_BYTES, lw);
    for (uint8_t k = 0; k < TTS_M; k++)
        d |= out[k] ^ h[k];
    return d ? AVR_EBADSIG : AVR_OK;
}
#endif
