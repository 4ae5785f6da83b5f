/* Key generation from a 32-byte seed, public-key synthesis, key checks. */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "ct.h"
#include "gf256.h"
#include "internal.h"

/* The key-generation stream (ref/stream.c): the seed's ChaCha20 keystream,
 * consumed byte by byte in order. */
typedef tts_stream stream;

static void stream_read(stream *s, uint8_t *out, size_t len)
{
    (void)tts_stream_rng(s, out, len); /* cannot fail on a valid stream */
}

/* inv = M^-1 (dim x dim, row-major). Returns 1 if M is invertible (inv is
 * then valid), 0 if singular; constant time in the entries of M. */
int tts_invert(const tts_kernels *k, uint8_t *inv, const uint8_t *M, unsigned dim)
{
    return k->invert(k, inv, M, dim);
}

/*
 * pk = coefficients of A1 (F(A3 w + c3) + s1) with s1 = F(c3); a_i is row i
 * of A3. Central row k is x_k + sum_t p_t x_u x_w, so with x = A3 w + c3:
 *   quadratic  Q_k = sum_t p_t a_u (x) a_w  (Q_k[l][l'] multiplies w_l w_l'),
 *   linear     a_k + sum_t (p_t c3_w) a_u + (p_t c3_u) a_w
 * (constants cancel against s1). Monomial w_l w_l' (l < l') takes
 * Q_k[l][l'] + Q_k[l'][l], and w_l^2 takes Q_k[l][l].
 *
 * As matrix products, for a group of K outputs at once:
 *   S[r] = sum over the group's terms of p_t a_w (if u = r) and p_t a_u (if
 *          w = r), output kk in columns kk*n .. kk*n + n-1;
 *   C = [A3^T; c3^T] S, so C[l][kk*n + l'] = Q_k[l][l'] + Q_k[l'][l] and
 *          row n is c3^T S_k = sum_t (p_t c3_u) a_w + (p_t c3_w) a_u, the
 *          linear part less a_k;
 *   diag_k = sum_t p_t (a_u * a_w) elementwise, with p_t a_w made once for
 *          S and the diagonal.
 * The central coefficients of output k are written to row k of PKT, then
 * pk = (A1 PKT)^T. PKT lives in pk itself, cut into column chunks of W
 * monomials (W = TTS_PKT_W, or all of them when the heap buffers can take
 * the mixing): chunk j (width wj) holds PKT[k][j*W + c] at
 * j*W*m + k*wj + c, which is exactly the span of pk its monomials occupy,
 * so each chunk is mixed by A1 and transposed in place.
 */
#define TTS_PKT_W 256
#define TTS_SYN_BUF 16384 /* bytes of S (n K n) and of C ((n + 1) K n) */

static void pkt_put(uint8_t *pk, unsigned m, size_t nmono, size_t W, unsigned k,
                    size_t mono, const uint8_t *src, size_t len)
{
    while (len) {
        size_t j = mono / W, c = mono % W;
        size_t wj = nmono - j * W < W ? nmono - j * W : W;
        size_t take = wj - c < len ? wj - c : len;
        memcpy(pk + j * W * m + (size_t)k * wj + c, src, take);
        mono += take;
        src += take;
        len -= take;
    }
}

int tts_synth_no_heap;

/* dst ^= src, len a multiple of 8, by 64-bit words. */
static void xor_words(uint8_t *dst, const uint8_t *src, size_t len)
{
    for (size_t j = 0; j < len; j += 8) {
        uint64_t a, b;
        memcpy(&a, dst + j, 8);
        memcpy(&b, src + j, 8);
        a ^= b;
        memcpy(dst + j, &a, 8);
    }
}

int tts_pk_synthesize(const tts_params *p, const tts_kernels *k, uint8_t *pk,
                      const uint8_t *A1, const uint8_t *A3, const uint8_t *c3,
                      const uint8_t *coef)
{
    const unsigned m = p->m, n = p->n, v = p->v;
    /* Rows of A3 padded with zeros to NP bytes: kernels then run on whole
     * vectors, and the extra bytes they touch in S, row and e are XORed
     * with zero products, i.e. left unchanged. */
    const unsigned NP = (n + 31) / 32 * 32;
    const size_t nq = pk_quad_monomials(p), nmono = pk_monomials(p);
    /* A3T: A3^T with c3 as an extra row n, so that the product by S also
     * gives the linear parts c3^T S_k. */
    uint8_t A3T[(TTS_MAX_N + 1) * TTS_MAX_N], A3P[TTS_MAX_N * 64];
    uint8_t Sbuf[TTS_SYN_BUF + 64], Cbuf[TTS_SYN_BUF + 64];
    /* All m outputs in one group if the heap gives room (the products by
     * A3T then share their scalar tables); else groups that fit the stack
     * buffers. Either way the same bytes. C has 64 bytes of slack for the
     * fixed-size copies out of it. */
    const size_t s_all = (size_t)n * m * n, c_all = (size_t)(n + 1) * m * n;
    uint8_t *heap = tts_synth_no_heap ? NULL : malloc(s_all + c_all + 128);
    uint8_t *S = heap ? heap : Sbuf, *C = heap ? heap + s_all + 64 : Cbuf;
    const size_t sbytes = heap ? s_all + 64 : sizeof Sbuf;
    const unsigned K = heap ? m : (TTS_SYN_BUF / ((n + 1) * n) < m ? TTS_SYN_BUF / ((n + 1) * n) : m);
    /* The mixing by A1 in one chunk when the heap buffers (n^2 m >= m nmono
     * bytes each) can take it: the kernel then makes A1's m^2 scalar tables
     * once, not once per chunk. */
    const size_t W = heap ? nmono : TTS_PKT_W;
    uint8_t P[64], d[64], diag[TTS_MAX_M * 64];
    uint8_t prow[TTS_MAX_PK_BYTES / TTS_MAX_M + 64];
    uint8_t blk[TTS_MAX_M * TTS_PKT_W], mix[TTS_MAX_M * TTS_PKT_W];

    memset(A3P, 0, sizeof A3P);
    for (unsigned r = 0; r < n; r++)
        memcpy(A3P + r * NP, A3 + r * n, n);
    k->transpose(A3T, A3, n, n);
    memcpy(A3T + (size_t)n * n, c3, n);

    for (unsigned k0 = 0; k0 < m; k0 += K) {
        const unsigned kc = m - k0 < K ? m - k0 : K, cols = kc * n;
        memset(S, 0, sbytes);
        memset(diag, 0, (size_t)kc * NP);
        /* Per term: P = p_t a_w goes to S[u] and, times a_u, to the
         * diagonal; p_t a_u goes to S[w]. */
        for (unsigned t = 0; t < p->coeffs; t++) {
            const tts_term *T = &p->terms[t];
            unsigned kk = T->row - v - k0;
            if (T->row < v + k0 || kk >= kc) /* public structure */
                continue;
            const uint8_t *au = A3P + (size_t)T->u * NP, *aw = A3P + (size_t)T->w * NP;
            uint8_t *su = S + (size_t)T->u * cols + kk * n, *dg = diag + (size_t)kk * NP;
            memset(P, 0, NP);
            k->madd(P, aw, coef[t], NP);
            k->vmul(d, au, P, NP);
            xor_words(su, P, NP);
            xor_words(dg, d, NP);
            k->madd(S + (size_t)T->w * cols + kk * n, au, coef[t], NP);
        }
        k->matmul(C, A3T, S, n + 1, n, cols);
        for (unsigned kk = 0; kk < kc; kk++) {
            const unsigned o = k0 + kk;
            const uint8_t *dg = diag + (size_t)kk * NP, *lin = C + (size_t)n * cols + kk * n;
            /* Row l's monomials w_l w_l' (l' > l) in order; each copy takes
             * a fixed 64 bytes (n < 64) and the next row's copy overwrites
             * what it took too many. */
            for (unsigned l = 0; l < n; l++) {
                size_t q = pk_mono_index(n, l, l);
                prow[q] = dg[l];
                memcpy(prow + q + 1, C + (size_t)l * cols + kk * n + l + 1, 64);
            }
            /* linear part: a_k + c3^T S_k */
            const uint8_t *ak = A3P + (size_t)(v + o) * NP;
            for (unsigned j = 0; j < n; j++)
                prow[nq + j] = ak[j] ^ lin[j];
            pkt_put(pk, m, nmono, W, o, 0, prow, nmono);
        }
    }
    /* pk chunk by chunk: (A1 PKT_chunk)^T. */
    uint8_t *mb = heap ? S : blk, *mm = heap ? C : mix;
    for (size_t c0 = 0; c0 < nmono; c0 += W) {
        const unsigned wj = (unsigned)(nmono - c0 < W ? nmono - c0 : W);
        uint8_t *dst = pk + c0 * m;
        memcpy(mb, dst, (size_t)m * wj);
        k->matmul(mm, A1, mb, m, m, wj);
        k->transpose(dst, mm, m, wj);
    }
    sodium_memzero(A3T, sizeof A3T);
    sodium_memzero(A3P, sizeof A3P);
    if (heap) {
        sodium_memzero(heap, s_all + c_all + 128);
        free(heap);
    } else {
        sodium_memzero(Sbuf, sizeof Sbuf);
        sodium_memzero(Cbuf, sizeof Cbuf);
    }
    sodium_memzero(P, sizeof P);
    sodium_memzero(d, sizeof d);
    sodium_memzero(diag, sizeof diag);
    sodium_memzero(prow, sizeof prow);
    sodium_memzero(blk, sizeof blk);
    sodium_memzero(mix, sizeof mix);
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

/* y = F(x) as tts_central_eval, with the products done by the kernels:
 * val[t] = coef[t] x[u] x[w] for all terms at once, then added by row. */
static void central_eval_k(const tts_params *p, const tts_kernels *k, uint8_t *y,
                           const uint8_t *x, const uint8_t *coef)
{
    uint8_t xu[TTS_MAX_COEFFS], xw[TTS_MAX_COEFFS];
    for (unsigned t = 0; t < p->coeffs; t++) { /* public indices */
        xu[t] = x[p->terms[t].u];
        xw[t] = x[p->terms[t].w];
    }
    k->vmul(xu, xu, xw, p->coeffs);
    k->vmul(xu, xu, coef, p->coeffs);
    memcpy(y, x + p->v, p->m);
    for (unsigned t = 0; t < p->coeffs; t++)
        y[p->terms[t].row - p->v] ^= xu[t];
    sodium_memzero(xu, sizeof xu);
    sodium_memzero(xw, sizeof xw);
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

    tts_stream_init(&s, seed);
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
    central_eval_k(p, k, s1, c3, coef);
    int rc = tts_pk_synthesize(p, k, pk, A1, A3, c3, coef);

    sodium_memzero(A1, sizeof A1);
    sodium_memzero(A3, sizeof A3);
    sodium_memzero(c3, sizeof c3);
    tts_stream_wipe(&s);
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
    central_eval_k(p, k, y, c3, coef);
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
