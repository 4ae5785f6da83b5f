/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 (RFC 8439, IETF: 32-byte key, 12-byte nonce, 32-bit block
 * counter): one block. The rounds use no branch and no table; their
 * cycles depend on nothing but the code. The rounds in assembly
 * (chacha_rounds.S), the quarter-round in C its twin; avr_wipe in
 * assembly too (wipe.S), its C twin here.
 */
#include <string.h>

#include "avr.h"

/* rotations by constants, written out by the compiler */
#define ROTL(x, r) (((x) << (r)) | ((x) >> (32 - (r))))
#define QR(a, b, c, d)                                                        \
    do {                                                                      \
        a += b; d ^= a; d = ROTL(d, 16);                                      \
        c += d; b ^= c; b = ROTL(b, 12);                                      \
        a += b; d ^= a; d = ROTL(d, 8);                                       \
        c += d; b ^= c; b = ROTL(b, 7);                                       \
    } while (0)

void chacha_qr_c(uint32_t *s, uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
    uint32_t xa = s[a], xb = s[b], xc = s[c], xd = s[d];
    QR(xa, xb, xc, xd);
    s[a] = xa; s[b] = xb; s[c] = xc; s[d] = xd;
}

#ifdef AVR_C_KERNELS
static uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* the constant words, "expand 32-byte k" */
static const uint8_t sigma[16] PROGMEM = {'e', 'x', 'p', 'a', 'n', 'd', ' ', '3',
                                          '2', '-', 'b', 'y', 't', 'e', ' ', 'k'};

static uint32_t SIGMA(uint8_t i)
{
    uint8_t w[4];
    memcpy_P(w, sigma + 4 * i, 4);
    return load32(w);
}

/* the 20 rounds of the C twin */
static void chacha_rounds(uint32_t x[16])
{
    for (uint8_t r = 0; r < 10; r++) {
        for (uint8_t i = 0; i < 4; i++)  /* columns */
            chacha_qr_c(x, i, 4 + i, 8 + i, 12 + i);
        for (uint8_t i = 0; i < 4; i++)  /* diagonals */
            chacha_qr_c(x, i, 4 + ((i + 1) & 3), 8 + ((i + 2) & 3), 12 + ((i + 3) & 3));
    }
}

void chacha20_block(uint8_t out[64], const uint8_t key[32], const uint8_t nonce[12],
                    uint32_t counter)
{
    uint32_t x[16], in[16];
    for (uint8_t i = 0; i < 4; i++)
        in[i] = SIGMA(i);
    for (uint8_t i = 0; i < 8; i++)
        in[4 + i] = load32(key + 4 * i);
    in[12] = counter;
    for (uint8_t i = 0; i < 3; i++)
        in[13 + i] = nonce ? load32(nonce + 4 * i) : 0;
    memcpy(x, in, sizeof x);
    chacha_rounds(x);
    for (uint8_t i = 0; i < 16; i++)
        store32(out + 4 * i, x[i] + in[i]);
    avr_wipe(x, sizeof x);
    avr_wipe(in, sizeof in);
}

void avr_wipe(void *p, uint16_t n)
{
    volatile uint8_t *v = p;
    while (n--)
        *v++ = 0;
}
#endif
