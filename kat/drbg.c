/* SPDX-License-Identifier: MIT */
/* NIST PQC AES-256 CTR DRBG (rng.c of the submission package), with
 * OpenSSL's AES. Behaviour follows NIST's code exactly: the counter V is a
 * 128-bit big-endian integer incremented before each block; after every
 * request the state is updated with no provided data. */
#include <openssl/evp.h>
#include <string.h>

#include "drbg.h"

static int aes256_ecb(const uint8_t key[32], const uint8_t in[16], uint8_t out[16])
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int len = 0, ok = ctx != NULL
        && EVP_EncryptInit_ex(ctx, EVP_aes_256_ecb(), NULL, key, NULL) == 1
        && EVP_CIPHER_CTX_set_padding(ctx, 0) == 1
        && EVP_EncryptUpdate(ctx, out, &len, in, 16) == 1 && len == 16;
    EVP_CIPHER_CTX_free(ctx);
    return ok ? 0 : -1;
}

static void increment(uint8_t v[16])
{
    for (int j = 15; j >= 0; j--)
        if (++v[j] != 0)
            break;
}

static int update(const uint8_t *provided, uint8_t key[32], uint8_t v[16])
{
    uint8_t temp[48];
    for (int i = 0; i < 3; i++) {
        increment(v);
        if (aes256_ecb(key, v, temp + 16 * i))
            return -1;
    }
    if (provided)
        for (int i = 0; i < 48; i++)
            temp[i] ^= provided[i];
    memcpy(key, temp, 32);
    memcpy(v, temp + 32, 16);
    return 0;
}

int tts_drbg_init(tts_drbg *d, const uint8_t entropy[48],
                  const uint8_t *personalization)
{
    uint8_t seed[48];
    memcpy(seed, entropy, 48);
    if (personalization)
        for (int i = 0; i < 48; i++)
            seed[i] ^= personalization[i];
    memset(d->key, 0, 32);
    memset(d->v, 0, 16);
    d->reseed_counter = 1;
    return update(seed, d->key, d->v);
}

int tts_drbg_randombytes(void *drbg, uint8_t *out, size_t len)
{
    tts_drbg *d = drbg;
    uint8_t block[16];
    while (len) {
        increment(d->v);
        if (aes256_ecb(d->key, d->v, block))
            return -1;
        size_t take = len < 16 ? len : 16;
        memcpy(out, block, take);
        out += take;
        len -= take;
    }
    if (update(NULL, d->key, d->v))
        return -1;
    d->reseed_counter++;
    return 0;
}
