/* SPDX-License-Identifier: MIT */
/*
 * CPU time of the SFLASH forger (challenge/sflash_break.h) on one public
 * key, for docs/SFLASH.md's figures and bench/sflash/forger_compare.sh:
 *
 *   sflash-forger-time PK [FORGERIES]
 *
 * PK is an SFLASH(26,37) public key file (16,858 bytes). The key recovery
 * (chal_sflash_break, a fixed seed) is timed once; then FORGERIES
 * (default 2000) messages, each an 8-byte counter, are hashed
 * (sflash_hash_v), forged and checked against the public map
 * (chal_sflash_forge_sig) under one clock. Afterwards, untimed, every
 * forgery must pass sflash_verify. Output, one line:
 *
 *   recovery_s=R forge_us=F
 *
 * R the key recovery's CPU seconds, F the mean CPU microseconds of one
 * forgery (CLOCK_PROCESS_CPUTIME_ID: the process is single-threaded, so
 * this is its own time, whatever the machine's load). Exit 0; 1 if the
 * key is not broken or a forgery does not verify; 2 on bad input.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "challenge.h"
#include "sflash_break.h"
#include "sflash_internal.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void counter_msg(uint8_t msg[8], unsigned long i)
{
    for (unsigned b = 0; b < 8; b++)
        msg[b] = (uint8_t)(i >> (8 * b));
}

int main(int argc, char **argv)
{
    static uint8_t pk[SFLASH_PK_BYTES + 1];
    static chal_cstar_map P;
    static chal_sflash_key key;
    uint8_t seed[32] = {0x5F}, rseed[32] = {0x3C};
    char err[512];
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: sflash-forger-time PK [FORGERIES]\n");
        return 2;
    }
    unsigned long count = argc == 3 ? strtoul(argv[2], NULL, 10) : 2000;
    if (count == 0 || count > 1000000) {
        fprintf(stderr, "sflash-forger-time: FORGERIES is 1 to 1000000\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    size_t len = f ? fread(pk, 1, sizeof pk, f) : 0;
    if (f)
        fclose(f);
    if (sodium_init() < 0 ||
        chal_sflash_pk_decode(&P, pk, len, err, sizeof err) != CHAL_OK) {
        fprintf(stderr, "sflash-forger-time: %s: %s\n", argv[1],
                f ? err : "cannot read the file");
        return 2;
    }
    chal_sflash_opts o = {.seed = seed};
    double t0 = cpu_now();
    int r = chal_sflash_break(&P, &o, &key, NULL, err, sizeof err);
    double recovery = cpu_now() - t0;
    if (r != CHAL_OK) {
        fprintf(stderr, "sflash-forger-time: %s: %s\n", argv[1], err);
        return 1;
    }
    uint8_t(*sig)[SFLASH_SIG_BYTES] = malloc(count * SFLASH_SIG_BYTES);
    if (!sig) {
        fprintf(stderr, "sflash-forger-time: no memory\n");
        return 2;
    }
    tts_stream rng;
    tts_stream_init(&rng, rseed);
    t0 = cpu_now();
    for (unsigned long i = 0; i < count; i++) {
        uint8_t msg[8], d[CHAL_SFLASH_DIGEST_BYTES];
        counter_msg(msg, i);
        if (sflash_hash_v(d, msg, sizeof msg) != 0 ||
            chal_sflash_forge_sig(&key, sig[i], d, tts_stream_rng, &rng, err, sizeof err) !=
                CHAL_OK) {
            fprintf(stderr, "sflash-forger-time: forgery %lu: %s\n", i, err);
            free(sig);
            return 1;
        }
    }
    double forge = (cpu_now() - t0) / (double)count;
    for (unsigned long i = 0; i < count; i++) {
        uint8_t msg[8];
        counter_msg(msg, i);
        if (sflash_verify(sig[i], msg, sizeof msg, pk) != 0) {
            fprintf(stderr, "sflash-forger-time: forgery %lu does not verify\n", i);
            free(sig);
            return 1;
        }
    }
    free(sig);
    printf("recovery_s=%.6f forge_us=%.3f\n", recovery, 1e6 * forge);
    return 0;
}
