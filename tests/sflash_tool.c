/* SPDX-License-Identifier: MIT */
/*
 * The SFLASH(26,37) side of tests/test_sflash_cli.sh: bench/sflash's key
 * generation and verification on files.
 *   sflash_tool keygen SEED-BYTE PK        the public key of seed (B, 0...)
 *   sflash_tool cstar  SEED-BYTE R PK      the same key's C* map with r
 *                                          outputs removed, r >= 11, in the
 *                                          file form (26 equations: its
 *                                          first 37 - r, then random ones)
 *   sflash_tool random SEED-BYTE PK        a random quadratic map, same form
 *   sflash_tool verify PK MSG SIG          exit 0 iff sflash_verify accepts
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "sflash_internal.h"
#include "tts.h"

static long slurp(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return (long)n;
}

static int spill(const char *path, const uint8_t *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len)
        return 1;
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    static uint8_t pk[SFLASH_PK_BYTES], sk[SFLASH_SK_BYTES], msg[1 << 16];
    static sflash_elt coef[SFLASH_M][SFLASH_MONOMIALS];
    uint8_t seed[SFLASH_SEED_BYTES] = {0}, sig[SFLASH_SIG_BYTES + 1];
    if (sodium_init() < 0 || argc < 4)
        return 2;
    if (strcmp(argv[1], "verify") == 0 && argc == 5) {
        long ml = slurp(argv[3], msg, sizeof msg);
        if (slurp(argv[2], pk, sizeof pk) != SFLASH_PK_BYTES || ml < 0 ||
            slurp(argv[4], sig, sizeof sig) != SFLASH_SIG_BYTES)
            return 2;
        return sflash_verify(sig, msg, (size_t)ml, pk) == 0 ? 0 : 1;
    }
    seed[0] = (uint8_t)atoi(argv[2]);
    if (strcmp(argv[1], "keygen") == 0 && argc == 4) {
        sflash_keypair(pk, sk, seed);
        sodium_memzero(sk, sizeof sk);
        return spill(argv[3], pk, sizeof pk);
    }
    if (strcmp(argv[1], "random") == 0 && argc == 4) {
        tts_stream s;
        tts_stream_init(&s, seed);
        tts_stream_rng(&s, &coef[0][0], sizeof coef);
        for (size_t i = 0; i < sizeof coef; i++)
            (&coef[0][0])[i] &= 0x7F;
        sflash_pack(pk, &coef[0][0], sizeof coef);
        return spill(argv[3], pk, sizeof pk);
    }
    if (strcmp(argv[1], "cstar") == 0 && argc == 5) {
        /* keep the first 37 - r equations of the real key's 26, draw the
         * others at random: a C* map with r outputs removed */
        unsigned r = (unsigned)atoi(argv[3]), keep = SFLASH_N - r;
        if (r < SFLASH_R || keep > SFLASH_M)
            return 2;
        sflash_keypair(pk, sk, seed);
        sodium_memzero(sk, sizeof sk);
        sflash_unpack(&coef[0][0], pk, sizeof coef);
        tts_stream s;
        seed[1] = 1;
        tts_stream_init(&s, seed);
        tts_stream_rng(&s, coef[keep], (SFLASH_M - keep) * SFLASH_MONOMIALS);
        for (unsigned e = keep; e < SFLASH_M; e++)
            for (unsigned t = 0; t < SFLASH_MONOMIALS; t++)
                coef[e][t] &= 0x7F;
        sflash_pack(pk, &coef[0][0], sizeof coef);
        return spill(argv[4], pk, sizeof pk);
    }
    return 2;
}
