/* Key generation from a 32-byte seed, public-key synthesis, key checks. */
#include <sodium.h>
#include <string.h>

#include "ct.h"
#include "gf256.h"
#include "internal.h"

/* ChaCha20 (IETF, RFC 8439) keystream, key = seed, zero nonce, block
 * counter from 0, consumed byte by byte in order. */
typedef struct {
    uint8_t key[32];
    uint8_t block[64];
    uint32_t counter;
    unsigned pos;
} stream;

static void stream_init(stream *s, const uint8_t seed[32])
{
    memcpy(s->key, seed, 32);
    s->counter = 0;
    s->pos = 64;
}

static void stream_read(stream *s, uint8_t *out, size_t len)
{
    static const uint8_t zero64[64];
    static const uint8_t nonce[crypto_stream_chacha20_ietf_NONCEBYTES];
    while (len) {
        if (s->pos == 64) {
            crypto_stream_chacha20_ietf_xor_ic(s->block, zero64, 64, nonce,
                                               s->counter++, s->key);
            s->pos = 0;
        }
        size_t take = 64 - s->pos < len ? 64 - s->pos : len;
        memcpy(out, s->block + s->pos, take);
        s->pos += (unsigned)take;
        out += take;
        len -= take;
    }
}

/* inv = M^-1 (dim x dim, row-major). Returns 1 if M is invertible (inv is
 * then valid), 0 if singular; constant time in the entries of M. */
int tts_invert(const tts_kernels *k, uint8_t *inv, const uint8_t *M, unsigned dim)
{
    unsigned cols = 2 * dim;
    uint8_t W[TTS_MAX_N * 2 * TTS_MAX_N];
    for (unsigned r = 0; r < dim; r++) {
        memcpy(W + r * cols, M + r * dim, dim);
        memset(W + r * cols + dim, 0, dim);
        W[r * cols + dim + r] = 1;
    }
    uint8_t ok = k->gauss(W, dim, cols);
    for (unsigned r = 0; r < dim; r++)
        memcpy(inv + r * dim, W + r * cols + dim, dim);
    sodium_memzero(W, (size_t)dim * cols);
    return ok;
}

/*
 * pk = coefficients of A1 (F(A3 w + c3) + s1) with s1 = F(c3).
 * Row r of F is x_r + sum_t p_t x_u x_w. With x = A3 w + c3 and a_i the
 * i-th row of A3:
 *   x_r       -> linear a_r
 *   x_u x_w   -> quadratic (p a_u) (x) a_w, linear p (c3_w a_u + c3_u a_w)
 * (constants cancel against s1). The quadratic part of one output is
 * accumulated as a full n x n matrix Q[l][l'] (coefficient of w_l w_l'),
 * then folded: w_l w_l' gets Q[l][l'] + Q[l'][l] for l < l', Q[l][l] for
 * l = l'. Finally every m-byte monomial block is multiplied by A1.
 */
int tts_pk_synthesize(const tts_params *p, const tts_kernels *k, uint8_t *pk,
                      const uint8_t *A1, const uint8_t *A3, const uint8_t *c3,
                      const uint8_t *coef)
{
    const unsigned m = p->m, n = p->n;
    const size_t nq = pk_quad_monomials(p);
    uint8_t Q[TTS_MAX_N * TTS_MAX_N];
    uint8_t alpha[TTS_MAX_N], lin[TTS_MAX_N], blk[TTS_MAX_M];

    for (unsigned o = 0; o < m; o++) {
        const unsigned row = p->v + o;
        memset(Q, 0, (size_t)n * n);
        memcpy(lin, A3 + (size_t)row * n, n);
        for (unsigned t = 0; t < p->coeffs; t++) {
            const tts_term *T = &p->terms[t];
            if (T->row != row) /* public structure */
                continue;
            const uint8_t *au = A3 + (size_t)T->u * n, *aw = A3 + (size_t)T->w * n;
            memset(alpha, 0, n);
            k->madd(alpha, au, coef[t], n);
            for (unsigned l = 0; l < n; l++)
                k->madd(Q + (size_t)l * n, aw, alpha[l], n);
            k->madd(lin, alpha, c3[T->w], n);
            k->madd(lin, aw, gf256_mul(coef[t], c3[T->u]), n);
        }
        size_t idx = 0;
        for (unsigned l = 0; l < n; l++) {
            pk[idx++ * m + o] = Q[(size_t)l * n + l];
            for (unsigned l2 = l + 1; l2 < n; l2++)
                pk[idx++ * m + o] = Q[(size_t)l * n + l2] ^ Q[(size_t)l2 * n + l];
        }
        for (unsigned l = 0; l < n; l++)
            pk[(nq + l) * m + o] = lin[l];
    }
    for (size_t mono = 0; mono < nq + n; mono++) {
        memcpy(blk, pk + mono * m, m);
        k->matvec(pk + mono * m, A1, blk, m, m);
    }
    sodium_memzero(Q, (size_t)n * n);
    sodium_memzero(alpha, sizeof alpha);
    sodium_memzero(lin, sizeof lin);
    sodium_memzero(blk, sizeof blk);
    return TTS_OK;
}

/* Draw a dim x dim matrix from the stream until it is invertible; only the
 * "singular, draw again" bit is declassified. */
static void draw_invertible(const tts_kernels *k, stream *s, uint8_t *M,
                            uint8_t *inv, unsigned dim)
{
    for (;;) {
        stream_read(s, M, (size_t)dim * dim);
        uint8_t ok = (uint8_t)tts_invert(k, inv, M, dim);
        TTS_DECLASSIFY(&ok, 1);
        if (ok)
            return;
    }
}

int tts_keypair_from_seed(const tts_params *p, uint8_t *pk, uint8_t *sk,
                          const uint8_t seed[TTS_SEED_BYTES])
{
    if (!p || !pk || !sk || !seed)
        return TTS_EINVAL;
    if (sodium_init() < 0)
        return TTS_ERNG;
    const tts_kernels *k = tts_kernels_get();
    const unsigned m = p->m, n = p->n;
    uint8_t A1[TTS_MAX_M * TTS_MAX_M], A3[TTS_MAX_N * TTS_MAX_N];
    uint8_t c3[TTS_MAX_N];
    uint8_t *S1 = sk + sk_off_S1(p), *s1 = sk + sk_off_s1(p);
    uint8_t *S3 = sk + sk_off_S3(p), *s3 = sk + sk_off_s3(p);
    uint8_t *coef = sk + sk_off_coef(p);
    stream s;

    stream_init(&s, seed);
    draw_invertible(k, &s, S3, A3, n);
    stream_read(&s, s3, n);
    draw_invertible(k, &s, S1, A1, m);
    for (unsigned t = 0; t < p->coeffs; t++) {
        /* Zero bytes are skipped: the "is zero" bit concerns only a
         * discarded byte and is declassified. */
        for (;;) {
            stream_read(&s, &coef[t], 1);
            uint8_t z = ct_is_zero(coef[t]);
            TTS_DECLASSIFY(&z, 1);
            if (!z)
                break;
        }
    }
    k->matvec(c3, A3, s3, n, n);
    tts_central_eval(p, s1, c3, coef);
    int rc = tts_pk_synthesize(p, k, pk, A1, A3, c3, coef);

    sodium_memzero(A1, sizeof A1);
    sodium_memzero(A3, sizeof A3);
    sodium_memzero(c3, sizeof c3);
    sodium_memzero(&s, sizeof s);
    return rc;
}

int tts_rng_system(void *ctx, uint8_t *out, size_t len)
{
    (void)ctx;
    if (sodium_init() < 0)
        return -1;
    randombytes_buf(out, len);
    return 0;
}

int tts_keypair_rng(const tts_params *p, uint8_t *pk, uint8_t *sk,
                    tts_rng_fn rng, void *ctx)
{
    uint8_t seed[TTS_SEED_BYTES];
    if (!p || !pk || !sk)
        return TTS_EINVAL;
    if (!rng)
        rng = tts_rng_system;
    if (rng(ctx, seed, sizeof seed) != 0) {
        sodium_memzero(seed, sizeof seed);
        return TTS_ERNG;
    }
    int rc = tts_keypair_from_seed(p, pk, sk, seed);
    sodium_memzero(seed, sizeof seed);
    return rc;
}

int tts_keypair(const tts_params *p, uint8_t *pk, uint8_t *sk)
{
    return tts_keypair_rng(p, pk, sk, NULL, NULL);
}

/* Shared by tts_sk_check and tts_pk_from_sk: A1 = S1^-1, A3 = S3^-1,
 * c3 = A3 s3, and s1 == F(c3). */
static int sk_expand(const tts_params *p, const tts_kernels *k, const uint8_t *sk,
                     uint8_t *A1, uint8_t *A3, uint8_t *c3)
{
    uint8_t y[TTS_MAX_M];
    const uint8_t *coef = sk + sk_off_coef(p);
    uint8_t ok = (uint8_t)tts_invert(k, A1, sk + sk_off_S1(p), p->m);
    ok &= (uint8_t)tts_invert(k, A3, sk + sk_off_S3(p), p->n);
    k->matvec(c3, A3, sk + sk_off_s3(p), p->n, p->n);
    tts_central_eval(p, y, c3, coef);
    ok &= ct_eq(y, sk + sk_off_s1(p), p->m);
    sodium_memzero(y, sizeof y);
    return ok ? TTS_OK : TTS_EKEY;
}

int tts_sk_check(const tts_params *p, const uint8_t *sk)
{
    uint8_t A1[TTS_MAX_M * TTS_MAX_M], A3[TTS_MAX_N * TTS_MAX_N], c3[TTS_MAX_N];
    if (!p || !sk)
        return TTS_EINVAL;
    int rc = sk_expand(p, tts_kernels_get(), sk, A1, A3, c3);
    sodium_memzero(A1, sizeof A1);
    sodium_memzero(A3, sizeof A3);
    sodium_memzero(c3, sizeof c3);
    return rc;
}

int tts_pk_from_sk(const tts_params *p, uint8_t *pk, const uint8_t *sk)
{
    uint8_t A1[TTS_MAX_M * TTS_MAX_M], A3[TTS_MAX_N * TTS_MAX_N], c3[TTS_MAX_N];
    if (!p || !pk || !sk)
        return TTS_EINVAL;
    const tts_kernels *k = tts_kernels_get();
    int rc = sk_expand(p, k, sk, A1, A3, c3);
    if (rc == TTS_OK)
        rc = tts_pk_synthesize(p, k, pk, A1, A3, c3, sk + sk_off_coef(p));
    sodium_memzero(A1, sizeof A1);
    sodium_memzero(A3, sizeof A3);
    sodium_memzero(c3, sizeof c3);
    return rc;
}
