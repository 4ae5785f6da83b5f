/* SPDX-License-Identifier: MIT */
/* The ChaCha20 stream of docs/SPEC.md section 4: IETF ChaCha20 (RFC 8439),
 * the 32-byte key, a zero nonce, block counter from 0, bytes consumed in
 * order across calls. Key generation reads it from the seed; signing's
 * default generator is the same stream keyed from the system; the card
 * driver, the tests and the fuzzers use it as the card's randomness, keyed
 * as the card keys it (tts_card_stream_key, docs/SPEC.md, card section). */
#include <string.h>

#include <sodium.h>

#include "internal.h"

void tts_stream_init(tts_stream *s, const uint8_t key[32])
{
    memcpy(s->key, key, 32);
    s->counter = 0;
    s->pos = 64;
    s->calls = 0;
}

int tts_stream_rng(void *ctx, uint8_t *out, size_t len)
{
    static const uint8_t zero64[64];
    static const uint8_t nonce[crypto_stream_chacha20_ietf_NONCEBYTES];
    tts_stream *s = ctx;

    if (!s || (!out && len))
        return TTS_EINVAL;
    while (len) {
        if (s->pos == 64) {
            crypto_stream_chacha20_ietf_xor_ic(s->block, zero64, 64, nonce,
                                               s->counter++, s->key);
            s->pos = 0;
        }
        size_t take = 64 - s->pos < len ? 64 - s->pos : len;
        memcpy(out, s->block + s->pos, take);
        s->pos += (unsigned)take;
        out += take;
        len -= take;
    }
    s->calls++;
    return TTS_OK;
}

void tts_stream_wipe(tts_stream *s)
{
    sodium_memzero(s, sizeof *s);
}

/* docs/SPEC.md, card section. K_card: K_0 = 0, K_{i+1} = the first 32
 * bytes of ChaCha20(K_i XOR M_i, block counter 0, nonce "tts-card-prf"),
 * M_i the 32-byte pieces of sk (the last zero-padded); then the stream key
 * = the first 32 bytes of ChaCha20(K_card, block counter = counter,
 * nonce = digest[0..12)) XOR (digest[12..m) || 0). */
int tts_card_stream_key(const tts_params *p, uint8_t key[32], const uint8_t *sk,
                        uint32_t counter, const uint8_t *digest)
{
    static const uint8_t dom[crypto_stream_chacha20_ietf_NONCEBYTES] = {
        't', 't', 's', '-', 'c', 'a', 'r', 'd', '-', 'p', 'r', 'f'
    };
    static const uint8_t zero32[32];
    uint8_t k[32] = {0}, in[32];

    if (!p || !key || !sk || !digest)
        return TTS_EINVAL;
    size_t skb = tts_sk_bytes(p), m = tts_digest_bytes(p);
    for (size_t o = 0; o < skb; o += 32) {
        for (size_t j = 0; j < 32; j++)
            in[j] = k[j] ^ (o + j < skb ? sk[o + j] : 0);
        crypto_stream_chacha20_ietf_xor_ic(k, zero32, 32, dom, 0, in);
    }
    crypto_stream_chacha20_ietf_xor_ic(key, zero32, 32, digest, counter, k);
    for (size_t j = 0; j + 12 < m; j++)
        key[j] ^= digest[12 + j];
    sodium_memzero(k, sizeof k);
    sodium_memzero(in, sizeof in);
    return TTS_OK;
}
