/* SPDX-License-Identifier: MIT */
/*
 * Constant-time check, run under valgrind memcheck (tests/test_ct.sh).
 * The seed, the secret key and every byte the signing rng returns are
 * marked undefined; memcheck then reports any branch or memory index that
 * depends on them. The library (built with -DTTS_CTGRIND) declassifies only
 * the documented decisions: "matrix singular, draw again" and "stream byte
 * is zero, skip it" in key generation, "system singular, retry" in signing.
 * Outputs (public key, signature) are declassified here before use.
 *
 * The backend is the one TTS_BACKEND names ("test_ct backend" prints it).
 * "test_ct leak" runs a deliberately secret-dependent branch, so the harness
 * can show that memcheck does catch one (test_ct.sh expects it to fail).
 * "test_ct SET..." runs the sets named ("TTS(20,28)"), no name all eight.
 */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "tts.h"

#define SECRET(p, len) VALGRIND_MAKE_MEM_UNDEFINED((p), (len))
#define PUBLIC(p, len) VALGRIND_MAKE_MEM_DEFINED((p), (len))

typedef struct {
    uint8_t state;
    unsigned calls;
} secret_rng;

/* Deterministic bytes, returned as secret (undefined). */
static int rng_secret(void *ctx, uint8_t *out, size_t len)
{
    secret_rng *r = ctx;
    for (size_t i = 0; i < len; i++) {
        r->state = (uint8_t)(r->state * 73u + 41u);
        out[i] = r->state;
    }
    SECRET(out, len);
    r->calls++;
    return 0;
}

static int leak_control(void)
{
    uint8_t s[1] = {1};
    SECRET(s, 1);
    volatile int x = 0;
    if (s[0] & 1) /* a secret-dependent branch: memcheck must report it */
        x = 1;
    return x;
}

int main(int argc, char **argv)
{
    static uint8_t pk[TTS_MAX_PK_BYTES], sk[TTS_MAX_SK_BYTES];
    uint8_t seed[TTS_SEED_BYTES], sig[TTS_MAX_SIG_BYTES], digest[TTS_MAX_M];
    int failures = 0;

    if (argc > 1 && strcmp(argv[1], "leak") == 0)
        return leak_control();
    if (argc > 1 && strcmp(argv[1], "backend") == 0) { /* TTS_BACKEND's effect */
        printf("%s\n", tts_backend());
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "backends") == 0) { /* the ones built in */
        for (size_t b = 0; tts_backend_at(b); b++)
            printf("%s\n", tts_backend_at(b));
        return 0;
    }
    printf("# backend %s\n", tts_backend());
    for (int a = 1; a < argc; a++)
        if (!tts_params_get(argv[a])) {
            printf("not ok - unknown set %s\n", argv[a]);
            return 1;
        }
    for (size_t i = 0; i < tts_params_count(); i++) {
        const tts_params *p = tts_params_at(i);
        int run = argc == 1;
        for (int a = 1; a < argc; a++)
            run |= tts_params_get(argv[a]) == p;
        if (!run)
            continue;
        for (size_t k = 0; k < sizeof seed; k++)
            seed[k] = (uint8_t)(17 * i + 3 * k + 1);
        SECRET(seed, sizeof seed);
        int rc = tts_keypair_from_seed(p, pk, sk, seed);
        PUBLIC(pk, tts_pk_bytes(p));
        SECRET(sk, tts_sk_bytes(p));

        for (int msg = 0; msg < 4; msg++) {
            secret_rng r = {(uint8_t)(msg + 5 * i), 0};
            memset(digest, 0x5A ^ msg, sizeof digest);
            int rs = tts_sign_digest(p, sig, digest, sk, rng_secret, &r);
            PUBLIC(sig, tts_sig_bytes(p));
            PUBLIC(&rs, sizeof rs);
            if (rc != TTS_OK || rs != TTS_OK
                || tts_verify_digest(p, sig, digest, pk) != TTS_OK) {
                printf("not ok - %s: keygen %d, sign %d, or verify failed\n",
                       tts_params_name(p), rc, rs);
                failures++;
            }
        }
        PUBLIC(sk, tts_sk_bytes(p));
        printf("ok - %s: keygen and 4 signatures under memcheck\n", tts_params_name(p));
    }
    return failures ? 1 : 0;
}
