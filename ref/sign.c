/* SPDX-License-Identifier: MIT */
/* Signing, verification and the NIST API. */
#include <sodium.h>
#include <string.h>

#include "ct.h"
#include "internal.h"

int tts_digest(const tts_params *p, uint8_t *digest, const uint8_t *msg,
               size_t msglen)
{
    uint8_t h[crypto_hash_sha512_BYTES];
    if (!tts_params_ok(p) || !digest || (!msg && msglen))
        return TTS_EINVAL;
    if (sodium_init() < 0)
        return TTS_ERNG;
    crypto_hash_sha512(h, msg, msglen);
    memcpy(digest, h, p->m);
    return TTS_OK;
}

/* The default randomness of signing: the ChaCha20 stream (ref/stream.c)
 * keyed with 32 bytes of one system-generator call, so that an attempt
 * costs a few hundred cycles instead of a system call. Each attempt still
 * draws its v bytes with one call of this generator. */

/*
 * u = S1 h + s1 is the target of y_v .. y_{n-1}. Each attempt fixes the
 * vinegar x_0..x_{v-1} with one rng call of v bytes, then solves layer 1,
 * mu1, mu2 and layer 3 in turn; sigma = S3 x + s3. Only the "singular,
 * retry" bit of each attempt is declassified.
 */
int tts_sign_digest(const tts_params *p, uint8_t *sig, const uint8_t *digest,
                    const uint8_t *sk, tts_rng_fn rng, void *ctx)
{
    if (!tts_params_ok(p) || !sig || !digest || !sk)
        return TTS_EINVAL;
    tts_stream br;
    uint8_t key[32];
    tts_stream_init(&br, (const uint8_t[32]){0});
    if (!rng) {
        if (tts_rng_system(NULL, key, sizeof key) != 0)
            return TTS_ERNG;
        tts_stream_init(&br, key);
        sodium_memzero(key, sizeof key);
        rng = tts_stream_rng;
        ctx = &br;
    }
    const tts_kernels *k = tts_kernels_get();
    const uint8_t *coef = sk + sk_off_coef(p);
    uint8_t u[TTS_MAX_M], x[TTS_MAX_N];
    int rc = TTS_ERETRY;

    k->matvec(u, sk + sk_off_S1(p), digest, p->m, p->m);
    for (unsigned i = 0; i < p->m; i++)
        u[i] ^= sk[sk_off_s1(p) + i];

    for (unsigned attempt = 0; attempt < TTS_MAX_ATTEMPTS; attempt++) {
        if (rng(ctx, x, p->v) != 0) {
            rc = TTS_ERNG;
            break;
        }
        uint8_t ok = 1;
        for (unsigned L = 0; L < TTS_LAYERS && ok; L++) {
            ok &= tts_central_solve_layer(p, k, L, x, u, coef);
            TTS_DECLASSIFY(&ok, 1);
        }
        if (ok) {
            k->matvec(sig, sk + sk_off_S3(p), x, p->n, p->n);
            for (unsigned i = 0; i < p->n; i++)
                sig[i] ^= sk[sk_off_s3(p) + i];
            rc = TTS_OK;
            break;
        }
    }
    sodium_memzero(u, sizeof u);
    sodium_memzero(x, sizeof x);
    tts_stream_wipe(&br);
    return rc;
}

int tts_sign_rng(const tts_params *p, uint8_t *sig, const uint8_t *msg,
                 size_t msglen, const uint8_t *sk, tts_rng_fn rng, void *ctx)
{
    uint8_t h[TTS_MAX_M];
    int rc = tts_digest(p, h, msg, msglen);
    if (rc == TTS_OK)
        rc = sk ? tts_sign_digest(p, sig, h, sk, rng, ctx) : TTS_EINVAL;
    return rc;
}

int tts_sign(const tts_params *p, uint8_t *sig, const uint8_t *msg,
             size_t msglen, const uint8_t *sk)
{
    return tts_sign_rng(p, sig, msg, msglen, sk, NULL, NULL);
}

int tts_pk_eval(const tts_params *p, uint8_t *out, const uint8_t *w,
                const uint8_t *pk)
{
    uint8_t y[TTS_MAX_M]; /* out may alias w */
    if (!tts_params_ok(p) || !out || !w || !pk)
        return TTS_EINVAL;
    tts_kernels_get()->pk_eval(y, pk, w, p->m, p->n);
    memcpy(out, y, p->m);
    return TTS_OK;
}

int tts_verify_digest(const tts_params *p, const uint8_t *sig,
                      const uint8_t *digest, const uint8_t *pk)
{
    uint8_t y[TTS_MAX_M];
    if (!tts_params_ok(p) || !sig || !digest || !pk)
        return TTS_EINVAL;
    tts_kernels_get()->pk_eval(y, pk, sig, p->m, p->n);
    return ct_eq(y, digest, p->m) ? TTS_OK : TTS_EBADSIG;
}

int tts_verify(const tts_params *p, const uint8_t *sig, const uint8_t *msg,
               size_t msglen, const uint8_t *pk)
{
    uint8_t h[TTS_MAX_M];
    int rc = tts_digest(p, h, msg, msglen);
    if (rc == TTS_OK)
        rc = tts_verify_digest(p, sig, h, pk);
    return rc;
}

/* NIST API. */

int tts_crypto_sign_keypair(const tts_params *p, unsigned char *pk,
                            unsigned char *sk, tts_rng_fn rng, void *ctx)
{
    return tts_keypair_rng(p, pk, sk, rng, ctx) == TTS_OK ? 0 : -1;
}

int tts_crypto_sign(const tts_params *p, unsigned char *sm,
                    unsigned long long *smlen, const unsigned char *m,
                    unsigned long long mlen, const unsigned char *sk,
                    tts_rng_fn rng, void *ctx)
{
    if (!tts_params_ok(p) || !sm || !smlen || !sk || (!m && mlen) || mlen > SIZE_MAX - p->n)
        return -1;
    /* Sign before moving the message: sm may alias m. */
    uint8_t sig[TTS_MAX_N];
    if (tts_sign_rng(p, sig, m, (size_t)mlen, sk, rng, ctx) != TTS_OK)
        return -1;
    if (mlen) /* m may be NULL when mlen is 0 */
        memmove(sm, m, (size_t)mlen);
    memcpy(sm + mlen, sig, p->n);
    *smlen = mlen + p->n;
    return 0;
}

int tts_crypto_sign_open(const tts_params *p, unsigned char *m,
                         unsigned long long *mlen, const unsigned char *sm,
                         unsigned long long smlen, const unsigned char *pk)
{
    if (!tts_params_ok(p) || !m || !mlen || !sm || !pk || smlen < p->n)
        return -1;
    unsigned long long len = smlen - p->n;
    if (tts_verify(p, sm + len, sm, (size_t)len, pk) != TTS_OK)
        return -1;
    memmove(m, sm, (size_t)len);
    *mlen = len;
    return 0;
}

#define TTS_NIST_DEFINE(M, N)                                                 \
    int tts_##M##_##N##_crypto_sign_keypair(unsigned char *pk,                \
                                            unsigned char *sk)                \
    {                                                                         \
        return tts_crypto_sign_keypair(tts_params_get(#M "," #N), pk, sk,     \
                                       NULL, NULL);                           \
    }                                                                         \
    int tts_##M##_##N##_crypto_sign(unsigned char *sm,                        \
                                    unsigned long long *smlen,                \
                                    const unsigned char *m,                   \
                                    unsigned long long mlen,                  \
                                    const unsigned char *sk)                  \
    {                                                                         \
        return tts_crypto_sign(tts_params_get(#M "," #N), sm, smlen, m, mlen, \
                               sk, NULL, NULL);                               \
    }                                                                         \
    int tts_##M##_##N##_crypto_sign_open(unsigned char *m,                    \
                                         unsigned long long *mlen,            \
                                         const unsigned char *sm,             \
                                         unsigned long long smlen,            \
                                         const unsigned char *pk)             \
    {                                                                         \
        return tts_crypto_sign_open(tts_params_get(#M "," #N), m, mlen, sm,   \
                                    smlen, pk);                               \
    }

#define TTS_SET(M, N, V, A, B, BITS, PRIZE) TTS_NIST_DEFINE(M, N)
#include "tts_sets.def"
