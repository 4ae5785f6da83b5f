/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The post-quantum peers: PQClean's portable C ("clean") implementations of
 * ML-DSA-44 and ML-DSA-65 (FIPS 204), Falcon-512 (round 3) and SPHINCS+
 * round 3.1 SHA-2 128s and 128f, "simple" (what FIPS 205 standardised as
 * SLH-DSA-SHA2-128s/f, with changes to the message encoding and to the
 * order of the digest's bits: same sizes and costs, not the same
 * signatures), built from the npm package pqclean (build-aux/pqclean.sh).
 * Signing is PQClean's detached signature of the 32-byte message (ML-DSA:
 * the empty context); every signature a timed run makes is verified after
 * the clocks stop (check()). Without PQClean in the build, each peer is
 * listed as skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#ifdef BENCH_PQCLEAN
#include "crypto_sign/falcon-512/clean/api.h"
#include "crypto_sign/ml-dsa-44/clean/api.h"
#include "crypto_sign/ml-dsa-65/clean/api.h"
#include "crypto_sign/sphincs-sha2-128f-simple/clean/api.h"
#include "crypto_sign/sphincs-sha2-128s-simple/clean/api.h"
#define HAVE_PEERS 1
#define PEER(name, fam, P, kg, sg)                                                               \
    {name,                                                                                       \
     fam,                                                                                        \
     P##_CRYPTO_PUBLICKEYBYTES,                                                                  \
     P##_CRYPTO_SECRETKEYBYTES,                                                                  \
     P##_CRYPTO_BYTES,                                                                           \
     P##_crypto_sign_keypair,                                                                    \
     P##_crypto_sign_signature,                                                                  \
     P##_crypto_sign_verify,                                                                     \
     kg,                                                                                         \
     sg}
#else
#define HAVE_PEERS 0
#define PEER(name, fam, P, kg, sg) {name, fam, 0, 0, 0, NULL, NULL, NULL, 0, 0}
#endif

static const pq_peer peers[BENCH_PQ_PEERS] = {
    PEER("ML-DSA-44", FAM_MLDSA, PQCLEAN_MLDSA44_CLEAN, 0, 0),
    PEER("ML-DSA-65", FAM_MLDSA, PQCLEAN_MLDSA65_CLEAN, 0, 0),
    /* key generation: about 10 ms */
    PEER("Falcon-512", FAM_FALCON, PQCLEAN_FALCON512_CLEAN, 20, 0),
    /* signing 128s: about half a second; 128f: tens of ms */
    PEER("SPHINCS+-SHA2-128s", FAM_SPHINCS, PQCLEAN_SPHINCSSHA2128SSIMPLE_CLEAN, 10, 10),
    PEER("SPHINCS+-SHA2-128f", FAM_SPHINCS, PQCLEAN_SPHINCSSHA2128FSIMPLE_CLEAN, 20, 50),
};

int bench_have_pqclean(void) { return HAVE_PEERS; }

const pq_peer *bench_pq_peer(const char *name)
{
    for (size_t i = 0; HAVE_PEERS && i < COUNT(peers); i++)
        if (strcmp(peers[i].name, name) == 0)
            return &peers[i];
    return NULL;
}

static const pq_peer *peer_of(const scheme *sc) { return sc->impl; }

static int setup_pq(scheme *sc)
{
    const pq_peer *q = peer_of(sc);
    if (!q || alloc_keys(sc, q->pk, q->sk, q->sig))
        return -1;
    sc->max_runs[OP_KEYGEN] = q->max_keygen;
    sc->max_runs[OP_SIGN] = q->max_sign;
    size_t len = 0;
    if (q->keypair(sc->pk, sc->sk) || q->sign(sc->sig, &len, bench_msg, sizeof bench_msg, sc->sk) ||
        len > q->sig)
        return -1;
    sc->siglen = len;
    return q->verify(sc->sig, sc->siglen, bench_msg, sizeof bench_msg, sc->pk) ? -1 : 0;
}

static int run_pq(scheme *sc, int op, void **junk)
{
    const pq_peer *q = peer_of(sc);
    size_t len = 0;
    (void)junk;
    if (op == OP_KEYGEN)
        return q->keypair(sc->pk2, sc->sk2);
    if (op == OP_SIGN) {
        if (q->sign(sc->sig2, &len, bench_msg, sizeof bench_msg, sc->sk) || len == 0 ||
            len > q->sig)
            return -1;
        sc->siglen2 = len;
        return 0;
    }
    return q->verify(sc->sig, sc->siglen, bench_msg, sizeof bench_msg, sc->pk) ? -1 : 0;
}

/* After a timed signing: the signature it made verifies, and a copy with
 * one bit flipped does not. */
static int check_pq(scheme *sc, int op)
{
    const pq_peer *q = peer_of(sc);
    if (op != OP_SIGN)
        return 0;
    if (q->verify(sc->sig2, sc->siglen2, bench_msg, sizeof bench_msg, sc->pk))
        return -1;
    sc->sig2[sc->siglen2 / 2] ^= 0x10;
    int forged = q->verify(sc->sig2, sc->siglen2, bench_msg, sizeof bench_msg, sc->pk) == 0;
    sc->sig2[sc->siglen2 / 2] ^= 0x10;
    return forged ? -1 : 0;
}

const bench_adapter bench_pqclean = {setup_pq, run_pq, NULL, check_pq};

int add_pqclean(scheme_list *l)
{
    for (size_t i = 0; i < COUNT(peers); i++) {
        if (!HAVE_PEERS) {
            skip(&l->skipped, peers[i].name,
                 "built without PQClean (build-aux/pqclean.sh fetch, then configure)");
            continue;
        }
        scheme *sc = add_scheme(l, peers[i].family);
        if (!sc)
            return -1;
        sc->ad = &bench_pqclean;
        sc->impl = &peers[i];
        snprintf(sc->name, sizeof sc->name, "%s", peers[i].name);
        snprintf(sc->backend, sizeof sc->backend, "pqclean");
        settle_scheme(l, bench_pqclean.setup(sc), "set-up failed");
    }
    return 0;
}

/* Files: every peer hashes the message with its key inside the signature
 * (ML-DSA's mu, Falcon's hash-to-point of the nonce and message,
 * SPHINCS+'s H_msg of R and the public key), so none splits: the whole
 * file is signed in one call, as pure Ed25519. */
static int pq_file_setup(fscheme *fs)
{
    const pq_peer *q = fs->k->impl;
    if (!HAVE_PEERS || q->sig > sizeof fs->sig)
        return -1;
    fs->pk = malloc(q->pk);
    fs->sk = malloc(q->sk);
    fs->sklen = q->sk;
    snprintf(fs->backend, sizeof fs->backend, "pqclean");
    return fs->pk && fs->sk ? q->keypair(fs->pk, fs->sk) : -1;
}

static int pq_file_sign(fscheme *fs, const uint8_t *m, size_t len)
{
    const pq_peer *q = fs->k->impl;
    return q->sign(fs->sig, &fs->siglen, m, len, fs->sk);
}

static int pq_file_verify(fscheme *fs, const uint8_t *m, size_t len)
{
    const pq_peer *q = fs->k->impl;
    return q->verify(fs->sig, fs->siglen, m, len, fs->pk);
}

#define PQ_FILE(i, runs)                                                                         \
    {peers[i].name,                                                                              \
     fam_names_pq[i],                                                                            \
     NULL,                                                                                       \
     "PQClean crypto_sign_signature over the whole file (unsplit)",                              \
     pq_file_setup,                                                                              \
     NULL,                                                                                       \
     pq_file_sign,                                                                               \
     pq_file_verify,                                                                             \
     runs,                                                                                       \
     &peers[i]}
static const char *const fam_names_pq[] = {"ML-DSA", "ML-DSA", "Falcon", "SPHINCS+", "SPHINCS+"};
/* (SPHINCS+-128s signs in about a second: its first 3 runs) */
const file_kind pq_file_kinds[BENCH_PQ_PEERS] = {PQ_FILE(0, 0), PQ_FILE(1, 0), PQ_FILE(2, 0),
                                                 PQ_FILE(3, 3), PQ_FILE(4, 0)};
