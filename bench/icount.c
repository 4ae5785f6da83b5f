/* SPDX-License-Identifier: MIT */
/*
 * One operation run N times after one key generation and one signature,
 * for dynamic instruction counts under qemu-user (docs/PERFORMANCE.md):
 *
 *   icount SET verify|sign|keygen N BACKEND
 *
 * The count of N = 10 minus that of N = 0, divided by 10, is the cost of
 * one operation. Exit 0 when every operation succeeded, 1 if one failed,
 * 2 for bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tts.h"

/* A fixed xorshift stream: the same signing randomness on every run. */
static int rng(void *ctx, uint8_t *out, size_t len)
{
    uint64_t *s = ctx;
    for (size_t i = 0; i < len; i++) {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        out[i] = (uint8_t)*s;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static uint8_t pk[TTS_MAX_PK_BYTES], sk[TTS_MAX_SK_BYTES],
        sig[TTS_MAX_SIG_BYTES], dg[TTS_MAX_M], seed[TTS_SEED_BYTES];
    const tts_params *p = argc == 5 ? tts_params_get(argv[1]) : NULL;
    uint64_t st = 88172645463325252ull;
    char *end;
    long n = argc == 5 ? strtol(argv[3], &end, 10) : -1;
    const char *op = argc == 5 ? argv[2] : "";
    int rc = 0;

    if (!p || n < 0 || *end || (strcmp(op, "verify") && strcmp(op, "sign") &&
                                strcmp(op, "keygen"))) {
        fputs("usage: icount SET verify|sign|keygen N BACKEND\n", stderr);
        return 2;
    }
    if (tts_set_backend(argv[4]) != TTS_OK) {
        fprintf(stderr, "icount: backend %s: %s\n", argv[4],
                tts_strerror(TTS_EBACKEND));
        return 2;
    }
    memset(dg, 7, sizeof dg);
    if (tts_keypair_from_seed(p, pk, sk, seed) != TTS_OK ||
        tts_sign_digest(p, sig, dg, sk, rng, &st) != TTS_OK)
        return 1;
    for (long i = 0; i < n; i++) {
        if (!strcmp(op, "verify"))
            rc |= tts_verify_digest(p, sig, dg, pk);
        else if (!strcmp(op, "sign"))
            rc |= tts_sign_digest(p, sig, dg, sk, rng, &st);
        else
            rc |= tts_keypair_from_seed(p, pk, sk, seed);
    }
    return rc != 0;
}
