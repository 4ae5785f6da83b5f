/* The ChaCha20 stream of docs/SPEC.md section 4: IETF ChaCha20 (RFC 8439),
 * the 32-byte key, a zero nonce, block counter from 0, bytes consumed in
 * order across calls. Key generation reads it from the seed; signing's
 * default generator is the same stream keyed from the system; the card
 * driver, the tests and the fuzzers use it as the card's randomness. */
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
