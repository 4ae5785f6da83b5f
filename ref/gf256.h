/* SPDX-License-Identifier: MIT */
/* GF(2^8) = GF(2)[t]/(t^8 + t^4 + t^3 + t + 1), the AES field (0x11B).
 * Branch-free and table-free: safe on secret operands. */
#ifndef TTS_GF256_H
#define TTS_GF256_H

#include <stdint.h>

/* a * t mod 0x11B */
static inline uint8_t gf256_xtime(uint8_t a)
{
    return (uint8_t)((a << 1) ^ (0x1B & (0u - (uint32_t)(a >> 7))));
}

/* Shift-and-add: eight masked additions, no secret-dependent branch. */
static inline uint8_t gf256_mul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++) {
        r ^= (uint8_t)(0u - (uint32_t)((b >> i) & 1)) & a;
        a = gf256_xtime(a);
    }
    return r;
}

static inline uint8_t gf256_sqr(uint8_t a)
{
    return gf256_mul(a, a);
}

/* a^254 = a^-1 for a != 0, and 0 for a = 0 (Fermat; fixed chain). */
static inline uint8_t gf256_inv(uint8_t a)
{
    uint8_t a2 = gf256_sqr(a);            /* a^2 */
    uint8_t a3 = gf256_mul(a2, a);        /* a^3 */
    uint8_t a12 = gf256_sqr(gf256_sqr(a3)); /* a^12 */
    uint8_t a15 = gf256_mul(a12, a3);     /* a^15 */
    uint8_t a240 = gf256_sqr(gf256_sqr(gf256_sqr(gf256_sqr(a15)))); /* a^240 */
    uint8_t a252 = gf256_mul(a240, a12);  /* a^252 */
    return gf256_mul(a252, a2);           /* a^254 */
}

#endif
