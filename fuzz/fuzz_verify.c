/* SPDX-License-Identifier: MIT */
/*
 * Verification with an arbitrary public key, signature and message:
 * byte 0 picks the set, then pk (pk bytes), sig (n bytes), the rest is the
 * message. Invariants: tts_verify, tts_verify_digest on tts_digest of the
 * message, and tts_crypto_sign_open on message || signature give one
 * verdict, and sign_open returns the message only when it accepts (and
 * leaves *mlen alone otherwise).
 */
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const tts_params *p = fuzz_params(data[0]);
    size_t pkb = tts_pk_bytes(p), n = tts_params_n(p);
    data++, size--;
    if (size < pkb + n)
        return 0;
    const uint8_t *pk = data, *sig = data + pkb, *msg = data + pkb + n;
    size_t msglen = size - pkb - n;

    int v1 = tts_verify(p, sig, msg, msglen, pk) == TTS_OK;
    uint8_t dg[TTS_MAX_M];
    FUZZ_CHECK(tts_digest(p, dg, msg, msglen) == TTS_OK);
    int v2 = tts_verify_digest(p, sig, dg, pk) == TTS_OK;
    FUZZ_CHECK(v1 == v2);

    uint8_t *sm = malloc(msglen + n), *out = malloc(msglen + n);
    FUZZ_CHECK(sm && out);
    memcpy(sm, msg, msglen);
    memcpy(sm + msglen, sig, n);
    unsigned long long olen = 12345;
    int v3 = tts_crypto_sign_open(p, out, &olen, sm, msglen + n, pk) == 0;
    FUZZ_CHECK(v3 == v1);
    FUZZ_CHECK(v3 ? olen == msglen && memcmp(out, msg, msglen) == 0 : olen == 12345);
    /* an input shorter than a signature is refused, never read past */
    FUZZ_CHECK(tts_crypto_sign_open(p, out, &olen, sm, n - 1, pk) != 0);
    free(sm);
    free(out);
    return 0;
}
