/* SPDX-License-Identifier: MIT */
/*
 * ref/ linked alone: the scheme sources of ref/ with ref/dispatch_ref.c
 * (the one-entry backend list) and nothing of opt/. The link is the test
 * that ref names no opt/ symbol; the run checks that it works: one backend,
 * "ref", and for every set a key from a seed whose signature verifies and
 * whose public key tts_pk_from_sk recomputes, and a flipped signature
 * refused. Exit 0 when all hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tts.h"

int main(void)
{
    static const uint8_t msg[] = "ref alone";
    int bad = 0;

    if (tts_backend_count() != 1 || strcmp(tts_backend_at(0), "ref") != 0 ||
        tts_backend_at(1) != NULL || strcmp(tts_backend(), "ref") != 0 ||
        tts_set_backend("swar") != TTS_EBACKEND) {
        printf("not ok 1 - the backend list of a ref-only build is {ref}\n");
        return 1;
    }
    printf("ok 1 - the backend list of a ref-only build is {ref}\n");
    for (size_t i = 0; i < tts_params_count(); i++) {
        const tts_params *p = tts_params_at(i);
        uint8_t seed[TTS_SEED_BYTES] = {(uint8_t)i}, sig[TTS_MAX_SIG_BYTES];
        uint8_t *pk = malloc(tts_pk_bytes(p)), *pk2 = malloc(tts_pk_bytes(p));
        uint8_t *sk = malloc(tts_sk_bytes(p));
        int ok = pk && pk2 && sk &&
                 tts_keypair_from_seed(p, pk, sk, seed) == TTS_OK &&
                 tts_sign(p, sig, msg, sizeof msg, sk) == TTS_OK &&
                 tts_verify(p, sig, msg, sizeof msg, pk) == TTS_OK &&
                 tts_pk_from_sk(p, pk2, sk) == TTS_OK &&
                 memcmp(pk, pk2, tts_pk_bytes(p)) == 0;
        if (ok) {
            sig[0] ^= 1;
            ok = tts_verify(p, sig, msg, sizeof msg, pk) == TTS_EBADSIG;
        }
        printf("%s %zu - %s: keygen, sign, verify, pk_from_sk on ref alone\n",
               ok ? "ok" : "not ok", i + 2, tts_params_name(p));
        bad |= !ok;
        free(pk);
        free(pk2);
        free(sk);
    }
    printf("1..%zu\n", tts_params_count() + 1);
    return bad;
}
