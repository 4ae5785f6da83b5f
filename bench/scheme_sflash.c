/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The SFLASH v2 adapter (bench/sflash/, docs/SFLASH.md): the historical
 * fourth column of the 2004 table. */
#include "harness.h"
#include "sflash.h"

/* SFLASH v2 (sflash/, docs/SFLASH.md): the historical fourth column. */
static int setup_sflash(scheme *sc)
{
    uint8_t seed[SFLASH_SEED_BYTES] = {42};
    if (alloc_keys(sc, SFLASH_PK_BYTES, SFLASH_SK_BYTES, SFLASH_SIG_BYTES))
        return -1;
    if (sflash_keypair(sc->pk, sc->sk, seed) || sflash_sign(sc->sig, bench_msg, sizeof bench_msg, sc->sk))
        return -1;
    return sflash_verify(sc->sig, bench_msg, sizeof bench_msg, sc->pk);
}

static int run_sflash(scheme *sc, int op, void **junk)
{
    (void)junk;
    if (op == OP_KEYGEN) {
        uint8_t seed[SFLASH_SEED_BYTES];
        randombytes_buf(seed, sizeof seed);
        return sflash_keypair(sc->pk2, sc->sk2, seed);
    }
    if (op == OP_SIGN)
        return sflash_sign(sc->sig2, bench_msg, sizeof bench_msg, sc->sk);
    return sflash_verify(sc->sig, bench_msg, sizeof bench_msg, sc->pk);
}

const bench_adapter bench_sflash = {setup_sflash, run_sflash, NULL, NULL};
