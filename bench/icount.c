/*
 * One operation run N times after one key generation and one signature,
 * for dynamic instruction counts under qemu-user (docs/PERFORMANCE.md):
 *   icount SET verify|sign|keygen N BACKEND
 * The count of N = 10 minus that of N = 0, divided by 10, is the cost of
 * one operation. Not built by make: compiled by hand against libtts.a.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tts.h"
static int rng(void *ctx, uint8_t *out, size_t len) { uint64_t *s = ctx; for (size_t i = 0; i < len; i++) { *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17; out[i] = (uint8_t)*s; } return 0; }
int main(int argc, char **argv)
{
    if (argc != 5 || !tts_params_get(argv[1]))
        return 2;
    const tts_params *p = tts_params_get(argv[1]);
    const char *op = argv[2];
    int n = atoi(argv[3]);
    static uint8_t pk[60000], sk[20000], sig[64], dg[64], seed[32];
    uint64_t st = 88172645463325252ull;
    if (tts_set_backend(argv[4]) != 0) return 2;
    tts_keypair_from_seed(p, pk, sk, seed);
    memset(dg, 7, sizeof dg);
    tts_sign_digest(p, sig, dg, sk, rng, &st);
    int rc = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(op, "verify")) rc |= tts_verify_digest(p, sig, dg, pk);
        else if (!strcmp(op, "sign")) rc |= tts_sign_digest(p, sig, dg, sk, rng, &st);
        else rc |= tts_keypair_from_seed(p, pk, sk, seed);
    }
    return rc != 0;
}
