/* SPDX-License-Identifier: MIT */
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
 * As matrix products, all m outputs at once:
 *   S[r] = sum over the terms of p_t a_w (if u = r) and p_t a_u (if w = r),
 *          output k in columns k*n .. k*n + n-1;
 *   C = [A3^T; c3^T] S, so C[l][k*n + l'] = Q_k[l][l'] + Q_k[l'][l] and
 *          row n is c3^T S_k = sum_t (p_t c3_u) a_w + (p_t c3_w) a_u, the
 *          linear part less a_k;
 *   diag_k = sum_t p_t (a_u * a_w) elementwise, with p_t a_w made once for
 *          S and the diagonal.
 * The central coefficients of output k are row k of PKT (m x nmono, built
 * in pk itself), then pk = (A1 PKT)^T, mixed in S and C, which are free by
 * then (n^2 m >= m nmono bytes each).
 */

/* The synthesis workspace, carved from one caller's block (its offsets
 * depend only on the set). Rows of A3 are padded with zeros to NP bytes:
 * kernels then run on whole vectors, and the extra bytes they touch in S,
 * diag and prow are XORed with zero products, i.e. left unchanged. C and
 * prow have 64 bytes of slack for the fixed-size copies out of them. */
typedef struct {
    size_t S, C, A3T, A3P, diag, prow, end;
} synth_layout;

static size_t round64(size_t x)
{
    return (x + 63) / 64 * 64;
}

static unsigned row_pad(const tts_params *p)
{
    return (p->n + 31) / 32 * 32;
}

static synth_layout synth_layout_of(const tts_params *p)
{
    const size_t m = p->m, n = p->n, NP = row_pad(p);
    synth_layout L;
    L.S = 0;
    L.C = L.S + round64(n * m * n + 64);
    L.A3T = L.C + round64((n + 1) * m * n + 64);
    L.A3P = L.A3T + round64((n + 1) * n);
    L.diag = L.A3P + round64(n * NP);
    L.prow = L.diag + round64(m * NP);
    L.end = L.prow + round64(pk_monomials(p) + 64);
    return L;
}

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

/* Writes pk; uses ws[0 .. synth_layout_of(p).end), left dirty (the caller
 * wipes its whole workspace). */
static void pk_synthesize(const tts_params *p, const tts_kernels *k, uint8_t *pk,
                          const uint8_t *A1, const uint8_t *A3, const uint8_t *c3,
                          const uint8_t *coef, uint8_t *ws)
{
    const unsigned m = p->m, n = p->n, v = p->v, NP = row_pad(p);
    const unsigned cols = m * n;
    const size_t nq = pk_quad_monomials(p), nmono = pk_monomials(p);
    const synth_layout L = synth_layout_of(p);
    /* A3T: A3^T with c3 as an extra row n, so that the product by S also
     * gives the linear parts c3^T S_k. */
    uint8_t *S = ws + L.S, *C = ws + L.C, *A3T = ws + L.A3T, *A3P = ws + L.A3P;
    uint8_t *diag = ws + L.diag, *prow = ws + L.prow;
    uint8_t P[64], d[64];

    memset(A3P, 0, (size_t)n * NP);
    for (unsigned r = 0; r < n; r++)
        memcpy(A3P + r * NP, A3 + r * n, n);
    k->transpose(A3T, A3, n, n);
    memcpy(A3T + (size_t)n * n, c3, n);
    memset(S, 0, (size_t)n * cols + 64);
    memset(diag, 0, (size_t)m * NP);
    /* Per term: P = p_t a_w goes to S[u] and, times a_u, to the diagonal;
     * p_t a_u goes to S[w]. */
    for (unsigned t = 0; t < p->coeffs; t++) {
        const tts_term *T = &p->terms[t];
        const unsigned kk = T->row - v; /* public structure */
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
    for (unsigned kk = 0; kk < m; kk++) {
        const uint8_t *dg = diag + (size_t)kk * NP, *lin = C + (size_t)n * cols + kk * n;
        /* Row l's monomials w_l w_l' (l' > l) in order; each copy takes a
         * fixed 64 bytes (n < 64) and the next row's copy overwrites what
         * it took too many. */
        for (unsigned l = 0; l < n; l++) {
            size_t q = pk_mono_index(n, l, l);
            prow[q] = dg[l];
            memcpy(prow + q + 1, C + (size_t)l * cols + kk * n + l + 1, 64);
        }
        /* linear part: a_k + c3^T S_k */
        const uint8_t *ak = A3P + (size_t)(v + kk) * NP;
        for (unsigned j = 0; j < n; j++)
            prow[nq + j] = ak[j] ^ lin[j];
        memcpy(pk + (size_t)kk * nmono, prow, nmono);
    }
    /* pk = (A1 PKT)^T */
    memcpy(S, pk, (size_t)m * nmono);
    k->matmul(C, A1, S, m, m, (unsigned)nmono);
    k->transpose(pk, C, m, (unsigned)nmono);
    sodium_memzero(P, sizeof P);
    sodium_memzero(d, sizeof d);
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

/* The key workspace: A1, A3 and c3, then the synthesis. */
typedef struct {
    size_t A1, A3, c3, synth, end;
} key_layout;

static key_layout key_layout_of(const tts_params *p)
{
    key_layout L;
    L.A1 = 0;
    L.A3 = L.A1 + round64((size_t)p->m * p->m);
    L.c3 = L.A3 + round64((size_t)p->n * p->n);
    L.synth = L.c3 + round64(p->n);
    L.end = L.synth + synth_layout_of(p).end;
    return L;
}

size_t tts_keypair_workspace_bytes(const tts_params *p)
{
    return tts_params_ok(p) ? key_layout_of(p).end : 0;
}

/* Run fn with a workspace: the caller's (checked for size), or one from
 * malloc; wiped after, and freed if it was ours. */
typedef int (*ws_fn)(const tts_params *p, uint8_t *pk, uint8_t *sk,
                     const uint8_t *in, uint8_t *ws);

static int with_workspace(ws_fn fn, const tts_params *p, uint8_t *pk, uint8_t *sk,
                          const uint8_t *in, void *ws, size_t ws_len)
{
    const size_t need = key_layout_of(p).end;
    uint8_t *w = ws;
    if (ws && ws_len < need)
        return TTS_EINVAL;
    if (!ws && !(w = malloc(need)))
        return TTS_ENOMEM;
    int rc = fn(p, pk, sk, in, w);
    sodium_memzero(w, need);
    if (!ws)
        free(w);
    return rc;
}

static int keypair_ws(const tts_params *p, uint8_t *pk, uint8_t *sk,
                      const uint8_t *seed, uint8_t *ws)
{
    const tts_kernels *k = tts_kernels_get();
    const key_layout L = key_layout_of(p);
    uint8_t *A1 = ws + L.A1, *A3 = ws + L.A3, *c3 = ws + L.c3;
    uint8_t *S1 = sk + sk_off_S1(p), *s1 = sk + sk_off_s1(p);
    uint8_t *S3 = sk + sk_off_S3(p), *s3 = sk + sk_off_s3(p);
    uint8_t *coef = sk + sk_off_coef(p);
    const unsigned m = p->m, n = p->n;
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
    tts_stream_wipe(&s);
    k->matvec(c3, A3, s3, n, n);
    tts_central_eval(p, k, s1, c3, coef);
    pk_synthesize(p, k, pk, A1, A3, c3, coef, ws + L.synth);
    return TTS_OK;
}

int tts_keypair_from_seed_ws(const tts_params *p, uint8_t *pk, uint8_t *sk,
                             const uint8_t seed[TTS_SEED_BYTES], void *ws, size_t ws_len)
{
    if (!tts_params_ok(p) || !pk || !sk || !seed)
        return TTS_EINVAL;
    if (sodium_init() < 0)
        return TTS_ERNG;
    return with_workspace(keypair_ws, p, pk, sk, seed, ws, ws_len);
}

int tts_keypair_from_seed(const tts_params *p, uint8_t *pk, uint8_t *sk,
                          const uint8_t seed[TTS_SEED_BYTES])
{
    return tts_keypair_from_seed_ws(p, pk, sk, seed, NULL, 0);
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
    if (!tts_params_ok(p) || !pk || !sk)
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
    tts_central_eval(p, k, y, c3, coef);
    ok &= ct_eq(y, sk + sk_off_s1(p), p->m);
    sodium_memzero(y, sizeof y);
    return ok ? TTS_OK : TTS_EKEY;
}

int tts_sk_check(const tts_params *p, const uint8_t *sk)
{
    uint8_t A1[TTS_MAX_M * TTS_MAX_M], A3[TTS_MAX_N * TTS_MAX_N], c3[TTS_MAX_N];
    if (!tts_params_ok(p) || !sk)
        return TTS_EINVAL;
    int rc = sk_expand(p, tts_kernels_get(), sk, A1, A3, c3);
    sodium_memzero(A1, sizeof A1);
    sodium_memzero(A3, sizeof A3);
    sodium_memzero(c3, sizeof c3);
    return rc;
}

/* (pk, sk) of with_workspace: sk is read only here. */
static int pk_from_sk_ws(const tts_params *p, uint8_t *pk, uint8_t *unused,
                         const uint8_t *sk, uint8_t *ws)
{
    const tts_kernels *k = tts_kernels_get();
    const key_layout L = key_layout_of(p);
    uint8_t *A1 = ws + L.A1, *A3 = ws + L.A3, *c3 = ws + L.c3;
    (void)unused;
    int rc = sk_expand(p, k, sk, A1, A3, c3);
    if (rc == TTS_OK)
        pk_synthesize(p, k, pk, A1, A3, c3, sk + sk_off_coef(p), ws + L.synth);
    return rc;
}

int tts_pk_from_sk_ws(const tts_params *p, uint8_t *pk, const uint8_t *sk, void *ws,
                      size_t ws_len)
{
    if (!tts_params_ok(p) || !pk || !sk)
        return TTS_EINVAL;
    return with_workspace(pk_from_sk_ws, p, pk, NULL, sk, ws, ws_len);
}

int tts_pk_from_sk(const tts_params *p, uint8_t *pk, const uint8_t *sk)
{
    return tts_pk_from_sk_ws(p, pk, sk, NULL, 0);
}
