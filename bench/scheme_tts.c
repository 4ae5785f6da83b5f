/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The TTS adapter of the harness: tts_keypair / tts_sign / tts_verify (the
 * full API: SHA-512 and the system generator included), and the split
 * file-signing steps tts_digest + tts_sign_digest. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

static int setup_tts(scheme *sc)
{
    uint8_t seed[TTS_SEED_BYTES] = {42};
    if (alloc_keys(sc, tts_pk_bytes(sc->p), tts_sk_bytes(sc->p), tts_sig_bytes(sc->p)) ||
        tts_set_backend(sc->backend) != TTS_OK)
        return -1;
    if (tts_keypair_from_seed(sc->p, sc->pk, sc->sk, seed) != TTS_OK ||
        tts_sign(sc->p, sc->sig, bench_msg, sizeof bench_msg, sc->sk) != TTS_OK)
        return -1;
    return 0;
}

static int run_tts(scheme *sc, int op, void **junk)
{
    (void)junk;
    if (op == OP_KEYGEN)
        return tts_keypair(sc->p, sc->pk2, sc->sk2) == TTS_OK ? 0 : -1;
    if (op == OP_SIGN)
        return tts_sign(sc->p, sc->sig2, bench_msg, sizeof bench_msg, sc->sk) == TTS_OK ? 0 : -1;
    return tts_verify(sc->p, sc->sig, bench_msg, sizeof bench_msg, sc->pk) == TTS_OK ? 0 : -1;
}

const bench_adapter bench_tts = {setup_tts, run_tts, NULL, NULL};

int tts_file_setup(fscheme *fs)
{
    static const uint8_t seed[TTS_SEED_BYTES] = {42};
    fs->p = tts_params_get(fs->k->name); /* any TTS set can be listed */
    if (!fs->p)
        return -1;
    fs->pk = malloc(tts_pk_bytes(fs->p));
    fs->sk = malloc(tts_sk_bytes(fs->p));
    fs->sklen = tts_sk_bytes(fs->p);
    fs->dglen = tts_digest_bytes(fs->p);
    fs->siglen = tts_sig_bytes(fs->p);
    snprintf(fs->backend, sizeof fs->backend, "%s", tts_backend());
    return fs->pk && fs->sk && tts_keypair_from_seed(fs->p, fs->pk, fs->sk, seed) == TTS_OK
               ? 0
               : -1;
}

int tts_file_hash(fscheme *fs, const uint8_t *m, size_t len)
{
    return tts_digest(fs->p, fs->dg, m, len) == TTS_OK ? 0 : -1;
}

int tts_file_sign(fscheme *fs, const uint8_t *m, size_t len)
{
    (void)m, (void)len;
    return tts_sign_digest(fs->p, fs->sig, fs->dg, fs->sk, NULL, NULL) == TTS_OK ? 0 : -1;
}

int tts_file_verify(fscheme *fs, const uint8_t *m, size_t len)
{
    return tts_verify(fs->p, fs->sig, m, len, fs->pk) == TTS_OK ? 0 : -1;
}
