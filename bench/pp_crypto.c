/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The ePassport experiment's suites (passport_int.h): key pairs,
 * signatures, public-key decoding and the document's hash. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "passport_int.h"
#include "sflash.h"

/* The suite id of a certificate and of the security object is the index
 * plus one. */
const pp_suite pp_suites[PP_MAX_SUITES] = {
    {"ECDSA-P-256", "ECDSA", K_EC, "openssl"},
    {"RSA-PSS-2048", "RSA-PSS", K_RSA, "openssl"},
    {"Ed25519", "Ed25519", K_ED, "libsodium"},
    {"TTS(20,28)", "TTS", K_TTS, NULL},
    {"TTS(36,50)", "TTS", K_TTS, NULL},
    {"SFLASH(26,37)", "SFLASH", K_SFLASH, "sflash-ref"},
    {"ML-DSA-44", "ML-DSA", K_PQ, "pqclean"},
    {"ML-DSA-65", "ML-DSA", K_PQ, "pqclean"},
    {"Falcon-512", "Falcon", K_PQ, "pqclean"},
    {"SPHINCS+-SHA2-128s", "SPHINCS+", K_PQ, "pqclean"},
    {"SPHINCS+-SHA2-128f", "SPHINCS+", K_PQ, "pqclean"},
};

const pp_suite *pp_suite_get(const char *name)
{
    for (size_t i = 0; i < PP_MAX_SUITES; i++)
        if (strcasecmp(name, pp_suites[i].name) == 0)
            return &pp_suites[i];
    return NULL;
}

int pp_suite_available(const pp_suite *s)
{
    return s->kind != K_PQ || bench_pq_peer(s->name) != NULL;
}

int passport_suite_known(const char *name) { return pp_suite_get(name) != NULL; }

int passport_suite_available(const char *name)
{
    const pp_suite *s = pp_suite_get(name);
    return s && pp_suite_available(s);
}

int passport_hash_id(const char *name)
{
    static const char *const ids[3] = {"sha1", "sha256", "sha512"};
    for (int h = 0; h < 3; h++)
        if (strcasecmp(name, ids[h]) == 0 || strcasecmp(name, pp_hash_names[h]) == 0)
            return h;
    return -1;
}

const char *passport_suite_list(void)
{
    return "ECDSA-P-256, RSA-PSS-2048, Ed25519, TTS(20,28), TTS(36,50), SFLASH(26,37), "
           "ML-DSA-44, ML-DSA-65, Falcon-512, SPHINCS+-SHA2-128s, SPHINCS+-SHA2-128f";
}

int passport_suite_tts(const char *name, const tts_params **p)
{
    const pp_suite *s = pp_suite_get(name);
    if (!s || s->kind != K_TTS)
        return 0;
    *p = tts_params_get(s->name);
    return *p != NULL;
}

void pp_key_free(pp_key *k)
{
    EVP_PKEY_free(k->pkey);
    free(k->pk);
    if (k->sk)
        sodium_memzero(k->sk, k->sklen);
    free(k->sk);
    memset(k, 0, sizeof *k);
}

static int key_alloc(pp_key *k, size_t pk, size_t sk)
{
    k->pklen = pk;
    k->sklen = sk;
    k->pk = malloc(pk);
    k->sk = malloc(sk);
    return k->pk && k->sk ? 0 : -1;
}

int pp_keygen(const pp_suite *s, const tts_params *p, pp_key *k)
{
    memset(k, 0, sizeof *k);
    if (s->kind == K_EC || s->kind == K_RSA) {
        k->pkey = s->kind == K_EC ? EVP_EC_gen("P-256") : EVP_RSA_gen(2048);
        int len = k->pkey ? i2d_PUBKEY(k->pkey, NULL) : -1;
        if (len <= 0 || !(k->pk = malloc((size_t)len)))
            return -1;
        uint8_t *q = k->pk;
        k->pklen = (size_t)i2d_PUBKEY(k->pkey, &q);
        return 0;
    }
    if (s->kind == K_ED)
        return key_alloc(k, crypto_sign_PUBLICKEYBYTES, crypto_sign_SECRETKEYBYTES) ? -1
               : crypto_sign_keypair(k->pk, k->sk);
    if (s->kind == K_TTS)
        return key_alloc(k, tts_pk_bytes(p), tts_sk_bytes(p)) ||
                       tts_keypair(p, k->pk, k->sk) != TTS_OK
                   ? -1
                   : 0;
    if (s->kind == K_PQ) {
        const pq_peer *q = bench_pq_peer(s->name);
        return !q || key_alloc(k, q->pk, q->sk) ? -1 : q->keypair(k->pk, k->sk);
    }
    uint8_t seed[SFLASH_SEED_BYTES];
    randombytes_buf(seed, sizeof seed);
    int rc = key_alloc(k, SFLASH_PK_BYTES, SFLASH_SK_BYTES) ? -1
             : sflash_keypair(k->pk, k->sk, seed);
    sodium_memzero(seed, sizeof seed);
    return rc;
}

/* The OpenSSL suites sign and verify through EVP_DigestSign/Verify with
 * SHA-256; RSA-PSS with MGF1-SHA-256 and a salt as long as the hash. */
static int evp_init(EVP_MD_CTX *md, EVP_PKEY *k, int rsa, int verify)
{
    EVP_PKEY_CTX *pc = NULL;
    if ((verify ? EVP_DigestVerifyInit(md, &pc, EVP_sha256(), NULL, k)
                : EVP_DigestSignInit(md, &pc, EVP_sha256(), NULL, k)) != 1)
        return -1;
    if (rsa && (EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) != 1 ||
                EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) != 1))
        return -1;
    return 0;
}

int pp_sign(const pp_suite *s, const tts_params *p, const pp_key *k, const uint8_t *m, size_t len,
            uint8_t *sig, size_t *siglen)
{
    if (s->kind == K_EC || s->kind == K_RSA) {
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        *siglen = PP_SIG_MAX;
        int ok = md && evp_init(md, k->pkey, s->kind == K_RSA, 0) == 0 &&
                 EVP_DigestSign(md, sig, siglen, m, len) == 1;
        EVP_MD_CTX_free(md);
        return ok ? 0 : -1;
    }
    if (s->kind == K_ED) {
        unsigned long long l = 0;
        int rc = crypto_sign_detached(sig, &l, m, len, k->sk);
        *siglen = (size_t)l;
        return rc;
    }
    if (s->kind == K_TTS) {
        *siglen = tts_sig_bytes(p);
        return tts_sign(p, sig, m, len, k->sk) == TTS_OK ? 0 : -1;
    }
    if (s->kind == K_PQ) {
        const pq_peer *q = bench_pq_peer(s->name);
        return q && q->sig <= PP_SIG_MAX ? q->sign(sig, siglen, m, len, k->sk) : -1;
    }
    *siglen = SFLASH_SIG_BYTES;
    return sflash_sign(sig, m, len, k->sk);
}

int pp_pub_read(const pp_suite *s, const uint8_t *pk, size_t len, pp_pub *out)
{
    out->pk = pk, out->len = len, out->k = NULL;
    if (s->kind != K_EC && s->kind != K_RSA)
        return 0;
    const uint8_t *q = pk;
    out->k = len < 0x7FFFFFFF ? d2i_PUBKEY(NULL, &q, (long)len) : NULL;
    if (out->k && q == pk + len &&
        EVP_PKEY_get_base_id(out->k) == (s->kind == K_EC ? EVP_PKEY_EC : EVP_PKEY_RSA))
        return 0;
    EVP_PKEY_free(out->k);
    out->k = NULL;
    return -1;
}

void pp_pub_free(pp_pub *pub)
{
    EVP_PKEY_free(pub->k);
    memset(pub, 0, sizeof *pub);
}

int pp_verify(const pp_suite *s, const tts_params *p, const pp_pub *pub, const uint8_t *m,
              size_t len, const uint8_t *sig, size_t siglen)
{
    const uint8_t *pk = pub->pk;
    size_t pklen = pub->len;
    if (s->kind == K_EC || s->kind == K_RSA) {
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        int ok = pub->k && md && evp_init(md, pub->k, s->kind == K_RSA, 1) == 0 &&
                 EVP_DigestVerify(md, sig, siglen, m, len) == 1;
        EVP_MD_CTX_free(md);
        return ok ? 0 : -1;
    }
    if (s->kind == K_ED)
        return pklen == crypto_sign_PUBLICKEYBYTES && siglen == crypto_sign_BYTES
                   ? crypto_sign_verify_detached(sig, m, len, pk)
                   : -1;
    if (s->kind == K_TTS)
        return pklen == tts_pk_bytes(p) && siglen == tts_sig_bytes(p) &&
                       tts_verify(p, sig, m, len, pk) == TTS_OK
                   ? 0
                   : -1;
    if (s->kind == K_PQ) {
        const pq_peer *q = bench_pq_peer(s->name);
        return q && pklen == q->pk && siglen <= q->sig && q->verify(sig, siglen, m, len, pk) == 0
                   ? 0
                   : -1;
    }
    return pklen == SFLASH_PK_BYTES && siglen == SFLASH_SIG_BYTES
               ? sflash_verify(sig, m, len, pk)
               : -1;
}

const char *const pp_hash_names[3] = {"SHA-1", "SHA-256", "SHA-512"};

/* OpenSSL's SHA-1 and SHA-256, libsodium's SHA-512; the length, 0 on
 * failure. */
size_t pp_hash(int h, const uint8_t *m, size_t len, uint8_t out[64])
{
    if (h == H_SHA512)
        return crypto_hash_sha512(out, m, len) == 0 ? 64 : 0;
    unsigned int l = 0;
    return EVP_Digest(m, len, out, &l, h == H_SHA1 ? EVP_sha1() : EVP_sha256(), NULL) == 1 ? l
                                                                                           : 0;
}
