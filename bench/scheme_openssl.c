/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The OpenSSL adapter: ECDSA and RSA-PSS through EVP (SHA-256; PSS with
 * MGF1-SHA-256 and salt length = hash length). Timed calls include the
 * context set-up: EVP_PKEY_keygen, EVP_DigestSign(Init), EVP_DigestVerify
 * (Init). For files, the split SHA-256 + EVP_PKEY_sign on the digest. */
#include <stdio.h>
#include <stdlib.h>

#include <openssl/ec.h>
#include <openssl/objects.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "harness.h"

/* A key-generation context for RSA of `bits` bits (curve NULL) or ECDSA on
 * `curve` (an OpenSSL short name such as sect163k1, or a NIST name). */
static EVP_PKEY_CTX *evp_keygen_ctx(int bits, const char *curve)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(curve ? EVP_PKEY_EC : EVP_PKEY_RSA, NULL);
    if (!c || EVP_PKEY_keygen_init(c) != 1)
        goto fail;
    if (!curve) {
        if (EVP_PKEY_CTX_set_rsa_keygen_bits(c, bits) != 1)
            goto fail;
        return c;
    }
    int nid = OBJ_txt2nid(curve);
    if (nid == NID_undef)
        nid = EC_curve_nist2nid(curve);
    if (nid == NID_undef || EVP_PKEY_CTX_set_ec_paramgen_curve_nid(c, nid) != 1)
        goto fail;
    return c;
fail:
    EVP_PKEY_CTX_free(c);
    return NULL;
}

/* RSA-PSS as the issue fixes it: SHA-256, MGF1-SHA-256 (OpenSSL's default
 * MGF1 hash is the signature hash), salt length = hash length. */
static int rsa_pss_params(EVP_PKEY_CTX *pctx)
{
    return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1 &&
                   EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1
               ? 0
               : -1;
}

/* EVP_DigestSignInit / EVP_DigestVerifyInit with SHA-256 (and PSS for RSA). */
static int evp_digest_init(EVP_MD_CTX *md, EVP_PKEY *pkey, int rsa, int verify)
{
    EVP_PKEY_CTX *pctx = NULL;
    int r = verify ? EVP_DigestVerifyInit(md, &pctx, EVP_sha256(), NULL, pkey)
                   : EVP_DigestSignInit(md, &pctx, EVP_sha256(), NULL, pkey);
    if (r != 1)
        return -1;
    return rsa ? rsa_pss_params(pctx) : 0;
}

static int setup_evp(scheme *sc)
{
    sc->kctx = evp_keygen_ctx(sc->bits, sc->curve);
    if (!sc->kctx || EVP_PKEY_keygen(sc->kctx, &sc->pkey) != 1)
        return -1;
    sc->md = EVP_MD_CTX_new();
    sc->sig_cap = 512; /* RSA-3072: 384 B; DER ECDSA: under 150 B */
    sc->sig = malloc(sc->sig_cap);
    sc->sig2 = malloc(sc->sig_cap);
    if (!sc->sig || !sc->sig2)
        return -1;
    size_t len = sc->sig_cap;
    if (!sc->md || evp_digest_init(sc->md, sc->pkey, sc->family == FAM_RSA, 0) ||
        EVP_DigestSign(sc->md, sc->sig, &len, bench_msg, sizeof bench_msg) != 1)
        return -1;
    sc->siglen = sc->sig_bytes = len;
    int pkl = i2d_PublicKey(sc->pkey, NULL), skl = i2d_PrivateKey(sc->pkey, NULL);
    if (pkl <= 0 || skl <= 0)
        return -1;
    sc->pk_bytes = (size_t)pkl;
    sc->sk_bytes = (size_t)skl;
    return 0;
}

static int run_evp(scheme *sc, int op, void **junk)
{
    size_t len;
    int rsa = sc->family == FAM_RSA;
    if (op == OP_KEYGEN)
        return EVP_PKEY_keygen(sc->kctx, (EVP_PKEY **)junk) == 1 ? 0 : -1;
    if (op == OP_SIGN) {
        len = sc->sig_cap;
        if (evp_digest_init(sc->md, sc->pkey, rsa, 0) ||
            EVP_DigestSign(sc->md, sc->sig2, &len, bench_msg, sizeof bench_msg) != 1)
            return -1;
        return 0;
    }
    if (evp_digest_init(sc->md, sc->pkey, rsa, 1) ||
        EVP_DigestVerify(sc->md, sc->sig, sc->siglen, bench_msg, sizeof bench_msg) != 1)
        return -1;
    return 0;
}

static void free_pkey(void *k) { EVP_PKEY_free(k); }

const bench_adapter bench_evp = {setup_evp, run_evp, free_pkey, NULL};

/* RSA-PSS-2048 and ECDSA P-256 share the EVP code: the key differs. */
static int evp_file_setup(fscheme *fs, int bits, const char *curve)
{
    EVP_PKEY_CTX *kc = evp_keygen_ctx(bits, curve);
    int ok = kc && EVP_PKEY_keygen(kc, &fs->pkey) == 1;
    EVP_PKEY_CTX_free(kc);
    snprintf(fs->backend, sizeof fs->backend, "openssl");
    fs->md = EVP_MD_CTX_new();
    fs->vmd = EVP_MD_CTX_new();
    fs->sctx = ok ? EVP_PKEY_CTX_new(fs->pkey, NULL) : NULL;
    if (!fs->md || !fs->vmd || !fs->sctx || EVP_PKEY_sign_init(fs->sctx) != 1 ||
        EVP_PKEY_CTX_set_signature_md(fs->sctx, EVP_sha256()) != 1)
        return -1;
    return curve ? 0 : rsa_pss_params(fs->sctx);
}

int rsa_file_setup(fscheme *fs) { return evp_file_setup(fs, 2048, NULL); }
int ecdsa_file_setup(fscheme *fs) { return evp_file_setup(fs, 0, "P-256"); }

int evp_file_hash(fscheme *fs, const uint8_t *m, size_t len)
{
    unsigned int l = 0;
    if (EVP_DigestInit_ex(fs->md, EVP_sha256(), NULL) != 1 ||
        EVP_DigestUpdate(fs->md, m, len) != 1 || EVP_DigestFinal_ex(fs->md, fs->dg, &l) != 1)
        return -1;
    fs->dglen = l;
    return 0;
}

int evp_file_sign(fscheme *fs, const uint8_t *m, size_t len)
{
    (void)m, (void)len;
    fs->siglen = BENCH_FILE_SIG_MAX;
    return EVP_PKEY_sign(fs->sctx, fs->sig, &fs->siglen, fs->dg, fs->dglen) == 1 ? 0 : -1;
}

int evp_file_verify(fscheme *fs, const uint8_t *m, size_t len)
{
    int rsa = EVP_PKEY_get_base_id(fs->pkey) == EVP_PKEY_RSA;
    return evp_digest_init(fs->vmd, fs->pkey, rsa, 1) == 0 &&
                   EVP_DigestVerify(fs->vmd, fs->sig, fs->siglen, m, len) == 1
               ? 0
               : -1;
}
