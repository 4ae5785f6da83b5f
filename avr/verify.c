/* SPDX-License-Identifier: MIT */
/*
 * VERIFY (docs/SPEC.md section 7.2): P(sigma) from the public key in flash
 * (section 5.4: a block of m coefficients a monomial, the quadratic
 * w_i w_j for i <= j by i then j, then the linear w_i), read in order with
 * LPM, compared with h. The key is stored in log form (avr_pk: each
 * coefficient c as log_3 c, 0xFF for c = 0; the programmer converts it),
 * and GF_EXP is copied to SRAM for the call, so that a product is one
 * LPM, one add and one load. Everything here is public: zero factors are
 * skipped by branches.
 */
#include <string.h>

#include "avr.h"

/* out[k] ^= ex[pkl[k]] for k < m unless pkl[k] = 0xFF (the coefficient 0):
 * the assembly (gf_mac.S), or with -DAVR_C_KERNELS its C twin */
#ifdef AVR_C_KERNELS
static void gf_mac_pk_c(uint8_t *out, const uint8_t *pkl, const uint8_t *ex, uint8_t m)
{
    for (uint8_t k = 0; k < m; k++) {
        uint8_t l = pgm_read_byte(pkl + k);
        if (l != 0xFF)
            out[k] ^= ex[l];
    }
}
#define gf_mac_pk gf_mac_pk_c
#else
void gf_mac_pk_asm(uint8_t *out, const uint8_t *pkl, const uint8_t *ex, uint8_t m);
#define gf_mac_pk gf_mac_pk_asm
#endif

#if TTS_M <= 20 && !defined(AVR_C_KERNELS)
/* gf_pk_row_asm's arguments (gf_mac.S reads them at these offsets) */
struct avr_vrow_t {
    uint8_t *out;       /* 0 */
    const uint8_t *pkl; /* 2 */
    const uint8_t *ex;  /* 4 */
    const uint8_t *lw;  /* 6 */
    uint8_t lwi, cnt;   /* 8, 9 */
};
struct avr_vrow_t avr_vrow;
void gf_pk_row_asm(void);

/* the monomials w_i w_j, j = i..i+cnt-1 (lwi = log w_i; 0 and lw itself
 * for the linear ones) */
static void row(uint8_t *out, const uint8_t *pk, const uint8_t *ex, const uint8_t *lw,
                uint8_t lwi, uint8_t cnt)
{
    avr_vrow = (struct avr_vrow_t){out, pk, ex, lw, lwi, cnt};
    gf_pk_row_asm();
}
#else
static void row(uint8_t *out, const uint8_t *pk, const uint8_t *ex, const uint8_t *lw,
                uint8_t lwi, uint8_t cnt)
{
    for (uint8_t j = 0; j < cnt; j++, pk += TTS_M)
        if (lw[j] != 0xFF) {
            uint16_t l = (uint16_t)lwi + lw[j];
            gf_mac_pk(out, pk, ex + (l >= 255 ? l - 255 : l), TTS_M);
        }
}
#endif

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
