/* SPDX-License-Identifier: MIT */
/* Constant-time helpers. Every flag is 0 or 1; every mask is 0x00 or 0xFF. */
#ifndef TTS_CT_H
#define TTS_CT_H

#include <stddef.h>
#include <stdint.h>

/* 1 if x == 0, else 0; no branch. */
static inline uint8_t ct_is_zero(uint8_t x)
{
    return (uint8_t)(((uint32_t)x - 1u) >> 31);
}

/* 0xFF if flag (0 or 1) is 1, else 0x00. */
static inline uint8_t ct_mask(uint8_t flag)
{
    return (uint8_t)(0u - (uint32_t)flag);
}

/* 1 if a[0..len-1] == b[0..len-1]; reads every byte. */
static inline uint8_t ct_eq(const uint8_t *a, const uint8_t *b, size_t len)
{
    uint8_t d = 0;
    for (size_t i = 0; i < len; i++)
        d |= (uint8_t)(a[i] ^ b[i]);
    return ct_is_zero(d);
}

#endif
