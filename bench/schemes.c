/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The harness's scheme lists: which adapter measures what, in one place
 * (bench/harness.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* Sizes and key buffers (two pairs: the set-up's and key generation's). */
int alloc_keys(scheme *sc, size_t pk, size_t sk, size_t sig)
{
    sc->pk_bytes = pk;
    sc->sk_bytes = sk;
    sc->sig_bytes = sig;
    sc->pk = malloc(pk);
    sc->sk = malloc(sk);
    sc->pk2 = malloc(pk);
    sc->sk2 = malloc(sk);
    sc->sig = malloc(sig);
    sc->sig2 = malloc(sig);
    sc->sig_cap = sig;
    return sc->pk && sc->sk && sc->pk2 && sc->sk2 && sc->sig && sc->sig2 ? 0 : -1;
}

static void free_scheme(scheme *sc)
{
    free(sc->pk);
    free(sc->sk);
    free(sc->pk2);
    free(sc->sk2);
    free(sc->sig);
    free(sc->sig2);
    EVP_PKEY_free(sc->pkey);
    EVP_PKEY_CTX_free(sc->kctx);
    EVP_MD_CTX_free(sc->md);
    for (int op = 0; op < N_OPS; op++) {
        free(sc->s[op].cyc);
        free(sc->s[op].ns);
    }
}

scheme *add_scheme(scheme_list *l, int family)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        scheme *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return NULL;
        l->v = nv;
        l->cap = cap;
    }
    scheme *sc = &l->v[l->n++];
    memset(sc, 0, sizeof *sc);
    sc->family = family;
    return sc;
}

/* Finishes the set-up of the last scheme added, or drops it. */
void settle_scheme(scheme_list *l, int rc, const char *why)
{
    scheme *sc = &l->v[l->n - 1];
    if (rc == 0)
        return;
    skip(&l->skipped, sc->name, why);
    free_scheme(sc);
    l->n--;
}

void free_list(scheme_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free_scheme(&l->v[i]);
    free(l->v);
}

/* A scheme with one configuration (SFLASH, Ed25519); -1 only if out of
 * memory (a failed set-up is listed as skipped). */
static int add_single(scheme_list *l, int family, const bench_adapter *ad, const char *name,
                      const char *lib)
{
    scheme *sc = add_scheme(l, family);
    if (!sc)
        return -1;
    sc->ad = ad;
    snprintf(sc->name, sizeof sc->name, "%s", name);
    snprintf(sc->backend, sizeof sc->backend, "%s", lib);
    settle_scheme(l, ad->setup(sc), "set-up failed");
    return 0;
}

int build_list(scheme_list *l, const char *autob, int backends, int modern)
{
    int both = backends == BK_AUTO_REF && strcmp(autob, "ref") != 0;
    size_t nb = backends == BK_ALL ? tts_backend_count() : both ? 2 : 1;
    for (size_t b = 0; b < nb; b++) {
        const char *bn = backends == BK_ALL ? tts_backend_at(nb - 1 - b) : b ? "ref" : autob;
        if (tts_set_backend(bn) != TTS_OK) {
            skip(&l->skipped, bn, "TTS backend not supported by this CPU");
            continue;
        }
        for (size_t i = 0; i < tts_params_count(); i++) {
            scheme *sc = add_scheme(l, FAM_TTS);
            if (!sc)
                return -1;
            sc->ad = &bench_tts;
            sc->p = tts_params_at(i);
            snprintf(sc->name, sizeof sc->name, "%s", tts_params_name(sc->p));
            snprintf(sc->backend, sizeof sc->backend, "%s", bn);
            settle_scheme(l, bench_tts.setup(sc), "set-up failed");
        }
    }
    static const char *const curves[] = {"sect163k1", "sect163r2", "P-256"};
    for (size_t i = 0; i < COUNT(curves) && (modern || i < 2); i++) {
        scheme *sc = add_scheme(l, FAM_ECDSA);
        if (!sc)
            return -1;
        sc->ad = &bench_evp;
        sc->curve = curves[i];
        snprintf(sc->name, sizeof sc->name, "ECDSA-%s", curves[i]);
        snprintf(sc->backend, sizeof sc->backend, "openssl");
        settle_scheme(l, bench_evp.setup(sc), "curve not available in this OpenSSL (EVP failed)");
    }
    static const int bits[] = {1024, 2048, 3072};
    for (size_t i = 0; i < COUNT(bits) && (modern || i < 1); i++) {
        scheme *sc = add_scheme(l, FAM_RSA);
        if (!sc)
            return -1;
        sc->ad = &bench_evp;
        sc->bits = bits[i];
        snprintf(sc->name, sizeof sc->name, "RSA-PSS-%d", bits[i]);
        snprintf(sc->backend, sizeof sc->backend, "openssl");
        settle_scheme(l, bench_evp.setup(sc), "RSA not available in this OpenSSL (EVP failed)");
    }
    if (add_single(l, FAM_SFLASH, &bench_sflash, "SFLASH(26,37)", "sflash-ref") ||
        (modern && add_single(l, FAM_ED25519, &bench_ed25519, "Ed25519", "libsodium")) ||
        (modern && add_pqclean(l)))
        return -1;
    return 0;
}

/* The file-signing schemes: one entry each. */
const file_kind file_kinds[BENCH_FILE_KINDS] = {
    {"TTS(20,28)", "TTS", "tts_digest: the first m bytes of SHA-512",
     "tts_sign_digest (randomness from the system generator included)", tts_file_setup,
     tts_file_hash, tts_file_sign, tts_file_verify, 0, NULL},
    {"RSA-PSS-2048", "RSA-PSS", "SHA-256 (EVP_Digest*)",
     "EVP_PKEY_sign on the digest (PSS, MGF1-SHA-256, salt 32 B)", rsa_file_setup, evp_file_hash,
     evp_file_sign, evp_file_verify, 0, NULL},
    {"ECDSA-P-256", "ECDSA", "SHA-256 (EVP_Digest*)", "EVP_PKEY_sign on the digest",
     ecdsa_file_setup, evp_file_hash, evp_file_sign, evp_file_verify, 0, NULL},
    {"Ed25519ph", "Ed25519", "crypto_sign_ed25519ph_init + update (SHA-512 of the file)",
     "crypto_sign_ed25519ph_final_create (SHA-512 finalisation, then Ed25519 on the 64-byte "
     "prehash: two more short SHA-512)",
     ed_file_setup, edph_file_hash, edph_file_sign, edph_file_verify, 0, NULL},
    {"Ed25519", "Ed25519", NULL, "crypto_sign_detached over the whole file (unsplit)",
     ed_file_setup, NULL, ed_file_sign, ed_file_verify, 0, NULL},
};

void free_fscheme(fscheme *fs)
{
    free(fs->pk);
    if (fs->sk)
        sodium_memzero(fs->sk, fs->sklen);
    free(fs->sk);
    EVP_PKEY_free(fs->pkey);
    EVP_PKEY_CTX_free(fs->sctx);
    EVP_MD_CTX_free(fs->md);
    EVP_MD_CTX_free(fs->vmd);
    for (size_t i = 0; i < MAX_FILES; i++)
        for (int st = 0; st < N_STEPS; st++)
            free(fs->res[i].ns[st]);
}
