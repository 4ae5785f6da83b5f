/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The Ed25519 adapter (libsodium): crypto_sign_keypair / _detached /
 * _verify_detached, and for files Ed25519ph (split) and pure Ed25519. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

static int setup_ed25519(scheme *sc)
{
    if (alloc_keys(sc, crypto_sign_PUBLICKEYBYTES, crypto_sign_SECRETKEYBYTES, crypto_sign_BYTES))
        return -1;
    crypto_sign_keypair(sc->pk, sc->sk);
    return crypto_sign_detached(sc->sig, NULL, bench_msg, sizeof bench_msg, sc->sk);
}

static int run_ed25519(scheme *sc, int op, void **junk)
{
    (void)junk;
    if (op == OP_KEYGEN)
        return crypto_sign_keypair(sc->pk2, sc->sk2);
    if (op == OP_SIGN)
        return crypto_sign_detached(sc->sig2, NULL, bench_msg, sizeof bench_msg, sc->sk);
    return crypto_sign_verify_detached(sc->sig, bench_msg, sizeof bench_msg, sc->pk);
}

const bench_adapter bench_ed25519 = {setup_ed25519, run_ed25519, NULL, NULL};

int ed_file_setup(fscheme *fs)
{
    static const uint8_t seed[crypto_sign_SEEDBYTES] = {42};
    fs->pk = malloc(crypto_sign_PUBLICKEYBYTES);
    fs->sk = malloc(crypto_sign_SECRETKEYBYTES);
    fs->sklen = crypto_sign_SECRETKEYBYTES;
    fs->siglen = crypto_sign_BYTES;
    snprintf(fs->backend, sizeof fs->backend, "libsodium");
    return fs->pk && fs->sk ? crypto_sign_seed_keypair(fs->pk, fs->sk, seed) : -1;
}

/* Ed25519ph (RFC 8032 section 5.1): the message is hashed once with
 * SHA-512 (init + update here, the finalisation in final_create), then
 * Ed25519 signs the 64-byte prehash, which hashes two short inputs holding
 * it (nonce and challenge). So the "private-key operation" includes one
 * SHA-512 finalisation and two fixed-size SHA-512 runs: constant in the
 * file size, as the split requires. */
int edph_file_hash(fscheme *fs, const uint8_t *m, size_t len)
{
    return crypto_sign_ed25519ph_init(&fs->ph) || crypto_sign_ed25519ph_update(&fs->ph, m, len);
}

int edph_file_sign(fscheme *fs, const uint8_t *m, size_t len)
{
    (void)m, (void)len;
    return crypto_sign_ed25519ph_final_create(&fs->ph, fs->sig, NULL, fs->sk);
}

int edph_file_verify(fscheme *fs, const uint8_t *m, size_t len)
{
    crypto_sign_ed25519ph_state v;
    return crypto_sign_ed25519ph_init(&v) || crypto_sign_ed25519ph_update(&v, m, len) ||
           crypto_sign_ed25519ph_final_verify(&v, fs->sig, fs->pk);
}

/* Pure Ed25519 hashes the message together with the key (twice: nonce and
 * challenge), so no step is the private-key operation alone: unsplit. */
int ed_file_sign(fscheme *fs, const uint8_t *m, size_t len)
{
    return crypto_sign_detached(fs->sig, NULL, m, len, fs->sk);
}

int ed_file_verify(fscheme *fs, const uint8_t *m, size_t len)
{
    return crypto_sign_verify_detached(fs->sig, m, len, fs->pk);
}
