/* SPDX-License-Identifier: MIT */
/* NIST's AES-256 CTR DRBG as in the PQC rng.c (no derivation function,
 * no reseed), under tts_drbg_* names so it cannot clash with libsodium's
 * randombytes. */
#ifndef TTS_DRBG_H
#define TTS_DRBG_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint8_t key[32];
    uint8_t v[16];
    unsigned reseed_counter;
} tts_drbg;

/* entropy: 48 bytes; personalization: 48 bytes or NULL. 0 on success. */
int tts_drbg_init(tts_drbg *d, const uint8_t entropy[48],
                  const uint8_t *personalization);
/* 0 on success; a tts_rng_fn when cast. */
int tts_drbg_randombytes(void *drbg, uint8_t *out, size_t len);

#endif
