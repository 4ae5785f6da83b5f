/* SPDX-License-Identifier: MIT */
/*
 * Differential: every backend this CPU runs against ref. The input gives
 * the set (byte 0), a key seed (32 bytes), the signing randomness key (32
 * bytes), a byte position and mask to corrupt the signature with, and the
 * message (the rest). Invariants, on every backend: the same key pair, the
 * same signature (ChaCha20 randomness from the same key), the same verify
 * verdict on the signature (valid) and on the corrupted one, the same
 * public-map value of the corrupted signature. The set is byte 0 modulo
 * the number of sets.
 */
#include <string.h>

#include <sodium.h>

#include "fuzz.h"

struct result {
    uint8_t pk[TTS_MAX_PK_BYTES], sk[TTS_MAX_SK_BYTES], sig[TTS_MAX_N];
    uint8_t y[TTS_MAX_M];
    int rc, ok, bad;
};

static void run(const tts_params *p, const uint8_t *seed, const uint8_t *rkey,
                size_t pos, uint8_t mask, const uint8_t *msg, size_t len,
                int keygen, struct result *r)
{
    tts_stream s;
    tts_stream_init(&s, rkey);
    if (keygen)
        FUZZ_CHECK(tts_keypair_from_seed(p, r->pk, r->sk, seed) == TTS_OK);
    r->rc = tts_sign_rng(p, r->sig, msg, len, r->sk, tts_stream_rng, &s);
    r->ok = r->rc == TTS_OK && tts_verify(p, r->sig, msg, len, r->pk) == TTS_OK;
    uint8_t bad[TTS_MAX_N];
    memcpy(bad, r->sig, tts_params_n(p));
    bad[pos % tts_params_n(p)] ^= mask ? mask : 1;
    r->bad = tts_verify(p, bad, msg, len, r->pk) == TTS_OK;
    FUZZ_CHECK(tts_pk_eval(p, r->y, bad, r->pk) == TTS_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct result ref, alt;
    if (size < 67 || sodium_init() < 0)
        return 0;
    const tts_params *p = fuzz_params(data[0]);
    const uint8_t *seed = data + 1, *rkey = data + 33, *msg = data + 67;
    size_t pos = data[65], len = size - 67;
    uint8_t mask = data[66];
    /* ref's key generation (tens of millions of cycles for the big sets,
     * many times that under the sanitizers) is compared for the sets up to
     * m = 20 on inputs with the top bit of byte 0 set; otherwise the key
     * pair comes from the automatic backend and every backend, ref
     * included, signs and verifies with it. */
    int keygen = (data[0] >> 7) && tts_params_m(p) <= 20;

    if (!keygen) {
        if (tts_set_backend("gfni") != TTS_OK && tts_set_backend("avx2") != TTS_OK)
            FUZZ_CHECK(tts_set_backend("swar") == TTS_OK);
        FUZZ_CHECK(tts_keypair_from_seed(p, ref.pk, ref.sk, seed) == TTS_OK);
    }
    FUZZ_CHECK(tts_set_backend("ref") == TTS_OK);
    run(p, seed, rkey, pos, mask, msg, len, keygen, &ref);
    FUZZ_CHECK(ref.rc == TTS_OK && ref.ok);
    for (size_t b = 0; tts_backend_at(b); b++) {
        if (strcmp(tts_backend_at(b), "ref") == 0 ||
            tts_set_backend(tts_backend_at(b)) != TTS_OK)
            continue; /* ref itself, or not on this CPU */
        if (!keygen) {
            memcpy(alt.pk, ref.pk, tts_pk_bytes(p));
            memcpy(alt.sk, ref.sk, tts_sk_bytes(p));
        }
        run(p, seed, rkey, pos, mask, msg, len, keygen, &alt);
        FUZZ_CHECK(alt.rc == ref.rc && alt.ok == ref.ok && alt.bad == ref.bad);
        FUZZ_CHECK(memcmp(alt.pk, ref.pk, tts_pk_bytes(p)) == 0);
        FUZZ_CHECK(memcmp(alt.sk, ref.sk, tts_sk_bytes(p)) == 0);
        FUZZ_CHECK(memcmp(alt.sig, ref.sig, tts_params_n(p)) == 0);
        FUZZ_CHECK(memcmp(alt.y, ref.y, tts_params_m(p)) == 0);
    }
    return 0;
}
