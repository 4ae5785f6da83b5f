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

uint8_t avr_verify(const uint8_t sig[TTS_N], const uint8_t h[TTS_M])
{
    uint8_t out[TTS_M] = {0}, lw[TTS_N], ex[510], d = 0;
    const uint8_t *pk = avr_pk;
    memcpy_P(ex, GF_EXP, sizeof ex);
    for (uint8_t i = 0; i < TTS_N; i++)
        lw[i] = gf_log(sig[i]);
    /* w_i w_j: log w_i + log w_j (mod 255), skipped if either is 0 */
    for (uint8_t i = 0; i < TTS_N; i++)
        for (uint8_t j = i; j < TTS_N; j++, pk += TTS_M)
            if (sig[i] && sig[j]) {
                uint16_t l = (uint16_t)lw[i] + lw[j];
                gf_mac_pk(out, pk, ex + (l >= 255 ? l - 255 : l), TTS_M);
            }
    for (uint8_t i = 0; i < TTS_N; i++, pk += TTS_M)
        if (sig[i])
            gf_mac_pk(out, pk, ex + lw[i], TTS_M);
    for (uint8_t k = 0; k < TTS_M; k++)
        d |= out[k] ^ h[k];
    return d ? AVR_EBADSIG : AVR_OK;
}
