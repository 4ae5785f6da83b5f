/* SPDX-License-Identifier: MIT */
/*
 * Structure of the central map, measured (docs/SECURITY.md section 4):
 *
 *   chal_key_ranks      ranks of the polar forms of a published set's
 *                       central polynomials and of the public-key
 *                       combinations that hide them, on a real key
 *   chal_toy_*          a TTS-like toy key of this file's own (small v,
 *                       the central map of docs/SPEC.md section 4 for any
 *                       v, a, b, never a key of the library) and the
 *                       kernel-guessing MinRank attack that recovers its
 *                       hidden structure
 *
 * Everything here works on study keys: the arithmetic uses tables and
 * branches on the data (not constant time), which the scheme's code never
 * does. A polar form of a quadratic form Q is the symmetric matrix M with
 * Q(x + y) - Q(x) - Q(y) = x^T M y; in characteristic 2 its diagonal is
 * zero (alternating), so its rank is even.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "challenge.h"
#include "gfla.h"
#include "internal.h"

/* Field arithmetic and elimination: gfla.h (public data only). The ranks
 * taken here are of at most 2 CHAL_TOY_MAX_M + 1 rows (stacked subspaces of
 * F^m) or CHAL_TOY_MAX_N rows (polar forms, kernels) of at most
 * CHAL_TOY_MAX_N bytes, so a copy fits on the stack. */
#define RANK_BYTES ((2 * CHAL_TOY_MAX_M + 1) * CHAL_TOY_MAX_N)
_Static_assert(CHAL_TOY_MAX_M <= CHAL_TOY_MAX_N && TTS_MAX_N <= CHAL_TOY_MAX_N &&
               TTS_MAX_M <= CHAL_TOY_MAX_M, "rank scratch too small");

static unsigned gf_rank(const uint8_t *M, unsigned rows, unsigned cols)
{
    uint8_t T[RANK_BYTES];
    memcpy(T, M, (size_t)rows * cols);
    return (unsigned)gfla_rref(tts_kernels_get(), T, rows, cols, NULL);
}

static unsigned gf_kernel(uint8_t *M, unsigned rows, unsigned cols,
                          uint8_t *basis, unsigned max)
{
    return (unsigned)gfla_kernel(tts_kernels_get(), M, rows, cols, basis, max);
}

/* D = sum_k c[k] * S[k] for nmat n x n matrices. */
static void combine(uint8_t *D, const uint8_t *S, const uint8_t *c,
                    unsigned nmat, unsigned n)
{
    memset(D, 0, (size_t)n * n);
    for (unsigned k = 0; k < nmat; k++) {
        if (!c[k])
            continue;
        const uint8_t *mk = gfla_mul[c[k]], *Sk = S + (size_t)k * n * n;
        for (size_t j = 0; j < (size_t)n * n; j++)
            D[j] ^= mk[Sk[j]];
    }
}

/* The polar forms (m matrices n x n) of the central polynomials. */
static void central_polar(uint8_t *M, const tts_term *T, unsigned nt,
                          unsigned v, unsigned m, unsigned n,
                          const uint8_t *coef)
{
    memset(M, 0, (size_t)m * n * n);
    for (unsigned t = 0; t < nt; t++) {
        uint8_t *R = M + (size_t)(T[t].row - v) * n * n;
        R[T[t].u * n + T[t].w] ^= coef[t];
        R[T[t].w * n + T[t].u] ^= coef[t];
    }
}

/* The groups of docs/SECURITY.md section 4: layer 1, + mu1, + mu2, all;
 * equations (first rows) of each. */
static void group_oil(unsigned a, unsigned m, unsigned oil[4])
{
    oil[0] = a;
    oil[1] = a + 1;
    oil[2] = a + 2;
    oil[3] = m;
}

/* Variables touched by the polar forms of the first rows central rows. */
static unsigned support_of(const uint8_t *M, unsigned rows, unsigned n,
                           uint8_t *in)
{
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++) {
        in[i] = 0;
        for (unsigned l = 0; l < rows && !in[i]; l++)
            for (unsigned j = 0; j < n && !in[i]; j++)
                in[i] = M[(size_t)l * n * n + i * n + j] != 0;
        s += in[i];
    }
    return s;
}

/* ChaCha20 stream of a 32-byte key (study randomness, not the scheme's). */
typedef struct {
    uint8_t key[32], buf[4096];
    uint64_t block;
    size_t pos;
} toy_rng;

static void rng_init(toy_rng *g, const char *label, const uint8_t seed[32])
{
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, 32);
    crypto_generichash_update(&st, (const uint8_t *)label, strlen(label));
    crypto_generichash_update(&st, seed, 32);
    crypto_generichash_final(&st, g->key, 32);
    g->block = 0;
    g->pos = sizeof g->buf;
}

static void rng_read(toy_rng *g, uint8_t *out, size_t len)
{
    while (len--) {
        if (g->pos == sizeof g->buf) {
            uint8_t nonce[8];
            for (int i = 0; i < 8; i++)
                nonce[i] = (uint8_t)(g->block >> (8 * i));
            crypto_stream_chacha20(g->buf, sizeof g->buf, nonce, g->key);
            g->block++;
            g->pos = 0;
        }
        *out++ = g->buf[g->pos++];
    }
}

static uint8_t rng_nonzero(toy_rng *g)
{
    uint8_t b;
    do
        rng_read(g, &b, 1);
    while (!b);
    return b;
}

/* ---- the published sets' keys ------------------------------------------ */

int chal_key_ranks(const tts_params *p, const uint8_t seed[TTS_SEED_BYTES],
                   unsigned trials, chal_rank_report *r)
{
    const unsigned m = p->m, n = p->n, v = p->v, a = p->a;
    uint8_t *pk = malloc(tts_pk_bytes(p)), *sk = malloc(tts_sk_bytes(p));
    uint8_t *C = malloc((size_t)m * n * n), *P = malloc((size_t)m * n * n);
    uint8_t D[TTS_MAX_N * TTS_MAX_N], E[TTS_MAX_N * TTS_MAX_N];
    uint8_t lam[TTS_MAX_M], mu[TTS_MAX_M], in[TTS_MAX_N];
    toy_rng g;

    if (!pk || !sk || !C || !P || tts_keypair_from_seed(p, pk, sk, seed) != TTS_OK) {
        free(pk), free(sk), free(C), free(P);
        return CHAL_ERROR;
    }
    gfla_init();
    memset(r, 0, sizeof *r);
    central_polar(C, p->terms, p->coeffs, v, m, n, sk + sk_off_coef(p));
    /* The public polar forms: P_k[i][j] = coefficient of w_i w_j (i < j). */
    memset(P, 0, (size_t)m * n * n);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i + 1; j < n; j++)
            for (unsigned k = 0; k < m; k++) {
                uint8_t c = pk[pk_mono_index(n, i, j) * m + k];
                P[(size_t)k * n * n + i * n + j] = c;
                P[(size_t)k * n * n + j * n + i] = c;
            }
    const uint8_t *S1 = sk + sk_off_S1(p);
    rng_init(&g, "libtts rank measurement", seed);
    group_oil(a, m, r->oil);
    r->exponent = UINT32_MAX;
    for (unsigned gi = 0; gi < 4; gi++) {
        unsigned lo = gi == 0 ? 0 : r->oil[gi - 1], hi = r->oil[gi];
        r->support[gi] = support_of(C, hi, n, in);
        unsigned e = r->support[gi] - r->oil[gi];
        if (e < r->exponent)
            r->exponent = e;
        r->form_min[gi] = r->comb_min[gi] = r->pub_min[gi] = UINT32_MAX;
        for (unsigned l = lo; l < hi; l++) {
            unsigned rk = gf_rank(C + (size_t)l * n * n, n, n);
            if (rk < r->form_min[gi])
                r->form_min[gi] = rk;
            if (rk > r->form_max[gi])
                r->form_max[gi] = rk;
        }
        for (unsigned t = 0; t < trials; t++) {
            /* A member of the group not in the group before it. */
            memset(lam, 0, m);
            rng_read(&g, lam, hi);
            lam[hi - 1] = rng_nonzero(&g);
            combine(D, C, lam, m, n);
            unsigned rc = gf_rank(D, n, n);
            /* The same member from the public key: lambda S1 . P. */
            memset(mu, 0, m);
            for (unsigned l = 0; l < m; l++)
                for (unsigned k = 0; k < m; k++)
                    mu[k] ^= gfla_mul[lam[l]][S1[l * m + k]];
            combine(E, P, mu, m, n);
            unsigned rp = gf_rank(E, n, n);
            r->pub_mismatch += rc != rp;
            if (rc < r->comb_min[gi])
                r->comb_min[gi] = rc;
            if (rc > r->comb_max[gi])
                r->comb_max[gi] = rc;
            if (rp < r->pub_min[gi])
                r->pub_min[gi] = rp;
            if (rp > r->pub_max[gi])
                r->pub_max[gi] = rp;
        }
    }
    r->random_min = UINT32_MAX;
    for (unsigned t = 0; t < trials; t++) {
        rng_read(&g, mu, m);
        combine(E, P, mu, m, n);
        unsigned rp = gf_rank(E, n, n);
        if (rp < r->random_min)
            r->random_min = rp;
        if (rp > r->random_max)
            r->random_max = rp;
    }
    sodium_memzero(sk, tts_sk_bytes(p));
    free(pk), free(sk), free(C), free(P);
    return CHAL_OK;
}

/* ---- the toy key ---------------------------------------------------------- */

/* The central terms of docs/SPEC.md section 4 for any v, a, b (the
 * formulas of ref/gen_central.c): the count; layer[5] the group starts. */
static unsigned toy_terms(unsigned v, unsigned a, unsigned b, tts_term *T,
                          unsigned layer[5])
{
    unsigned n = v + a + 2 + b, mu1 = v + a, mu2 = v + a + 1, c = v + a + 2;
    unsigned h = (v - 2) / 2, k = 0;
#define TERM(R, U, W) (T[k++] = (tts_term){(uint8_t)(R), (uint8_t)(U), (uint8_t)(W)})
    layer[0] = k;
    for (unsigned i = v; i < v + a; i++)
        for (unsigned j = 1; j <= v - 1; j++)
            TERM(i, j, v + ((i + j) % a));
    layer[1] = k;
    for (unsigned q = 1; q <= h; q++)
        TERM(mu1, q, v - 1 - q);
    for (unsigned q = 0; q <= v / 2 - 1; q++)
        TERM(mu1, a + q, v + a - 1 - q);
    layer[2] = k;
    for (unsigned q = 1; q <= h; q++)
        TERM(mu2, q + 1, v - q);
    for (unsigned q = 0; q <= v / 2 - 1; q++)
        TERM(mu2, a + 1 + q, v + a - q);
    layer[3] = k;
    for (unsigned i = c; i < n; i++) {
        TERM(i, i - c + v, i - c + v + 2);
        for (unsigned j = c; j < i; j++)
            TERM(i, 2 * (i - j) - (i % 2), j);
        TERM(i, 0, i);
        for (unsigned j = i + 1; j < n; j++)
            TERM(i, i + c - j, j);
    }
    layer[4] = k;
#undef TERM
    return k;
}

int chal_toy_shape_ok(unsigned v, unsigned a, unsigned b)
{
    return v >= 4 && v % 2 == 0 && a > v && a <= 2 * v - 1 && b >= 1 &&
           b <= a && a + 2 + b <= CHAL_TOY_MAX_M &&
           v + a + 2 + b <= CHAL_TOY_MAX_N;
}

int chal_toy_terms_match(const tts_params *p)
{
    tts_term T[TTS_MAX_COEFFS];
    unsigned layer[5];
    if (!chal_toy_shape_ok(p->v, p->a, p->b))
        return 0;
    unsigned nt = toy_terms(p->v, p->a, p->b, T, layer);
    if (nt != p->coeffs)
        return 0;
    for (unsigned i = 0; i < 5; i++)
        if (layer[i] != p->layer[i])
            return 0;
    for (unsigned t = 0; t < nt; t++)
        if (T[t].row != p->terms[t].row || T[t].u != p->terms[t].u ||
            T[t].w != p->terms[t].w)
            return 0;
    return 1;
}

/* An invertible dim x dim matrix M from g, and its inverse. */
static void draw_invertible(toy_rng *g, uint8_t *M, uint8_t *inv, unsigned dim)
{
    uint8_t W[CHAL_TOY_MAX_N * 2 * CHAL_TOY_MAX_N];
    size_t piv[2 * CHAL_TOY_MAX_N];
    for (;;) {
        rng_read(g, M, (size_t)dim * dim);
        for (unsigned i = 0; i < dim; i++) {
            memcpy(W + (size_t)i * 2 * dim, M + (size_t)i * dim, dim);
            memset(W + (size_t)i * 2 * dim + dim, 0, dim);
            W[(size_t)i * 2 * dim + dim + i] = 1;
        }
        /* [M | I] reduced: M invertible iff every pivot lies in M. */
        if (gfla_rref(tts_kernels_get(), W, dim, 2 * dim, piv) == dim &&
            piv[dim - 1] == dim - 1) {
            for (unsigned i = 0; i < dim; i++)
                memcpy(inv + (size_t)i * dim, W + (size_t)i * 2 * dim + dim, dim);
            return;
        }
    }
}

int chal_toy_keygen(chal_toy_key *k, unsigned v, unsigned a, unsigned b,
                    const uint8_t seed[32], char *err, size_t errlen)
{
    if (!chal_toy_shape_ok(v, a, b))
        return chal_fail(err, errlen, "toy shape v=%u a=%u b=%u: need v even, "
                         "4 <= v < a <= 2v-1, 1 <= b <= a, m <= %d, n <= %d",
                         v, a, b, CHAL_TOY_MAX_M, CHAL_TOY_MAX_N);
    gfla_init();
    memset(k, 0, sizeof *k);
    k->v = v, k->a = a, k->b = b, k->m = a + 2 + b, k->n = v + k->m;
    const unsigned m = k->m, n = k->n;
    tts_term T[TTS_MAX_COEFFS];
    unsigned layer[5];
    unsigned nt = toy_terms(v, a, b, T, layer);
    uint8_t coef[TTS_MAX_COEFFS], in[CHAL_TOY_MAX_N];
    uint8_t *C = malloc((size_t)m * n * n), *G = malloc((size_t)m * n * n);
    uint8_t X[CHAL_TOY_MAX_N * CHAL_TOY_MAX_N];
    toy_rng g;
    if (!C || !G) {
        free(C), free(G);
        return chal_fail(err, errlen, "out of memory");
    }
    rng_init(&g, "libtts toy structure key", seed);
    draw_invertible(&g, k->S3, k->A3, n);
    draw_invertible(&g, k->S1, k->A1, m);
    for (unsigned t = 0; t < nt; t++)
        coef[t] = rng_nonzero(&g);
    central_polar(C, T, nt, v, m, n, coef);
    k->support = support_of(C, a + 2, n, in);
    memcpy(k->in_support, in, n);
    /* G_l = A3^T C_l A3: the central forms in the public variables w
     * (x = A3 w + c3; the shift c3 leaves the quadratic part alone). */
    for (unsigned l = 0; l < m; l++) {
        const uint8_t *Cl = C + (size_t)l * n * n;
        uint8_t *Gl = G + (size_t)l * n * n;
        memset(X, 0, sizeof X); /* X = C_l A3 */
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = 0; j < n; j++)
                if (Cl[i * n + j])
                    for (unsigned q = 0; q < n; q++)
                        X[i * n + q] ^= gfla_mul[Cl[i * n + j]][k->A3[j * n + q]];
        memset(Gl, 0, (size_t)n * n);
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = 0; j < n; j++)
                if (k->A3[i * n + j])
                    for (unsigned q = 0; q < n; q++)
                        Gl[j * n + q] ^= gfla_mul[k->A3[i * n + j]][X[i * n + q]];
    }
    /* Public P_k = sum_l A1[k][l] G_l. */
    for (unsigned q = 0; q < m; q++)
        combine(k->pub + (size_t)q * n * n, G, k->A1 + (size_t)q * m, m, n);
    sodium_memzero(coef, sizeof coef);
    free(C), free(G);
    return CHAL_OK;
}

/* 1 iff the du rows of U (m entries) span exactly the secret span of S1's
 * rows 0..a+1: the public combinations that are members of layer 1 + the
 * two middle equations. */
int chal_toy_check_span(const chal_toy_key *k, const uint8_t *U, unsigned du)
{
    const unsigned m = k->m, o = k->a + 2;
    uint8_t W[(CHAL_TOY_MAX_M * 2) * CHAL_TOY_MAX_M];
    if (du > m)
        return 0;
    memcpy(W, k->S1, (size_t)o * m);
    memcpy(W + (size_t)o * m, U, (size_t)du * m);
    if (gf_rank(U, du, m) != o)
        return 0;
    return gf_rank(W, o + du, m) == o;
}

/* 1 iff the dk rows of K (n entries) span exactly the secret kernel
 * {w : (A3 w)_j = 0 for every variable j of the support}. */
int chal_toy_check_kernel(const chal_toy_key *k, const uint8_t *K, unsigned dk)
{
    const unsigned n = k->n;
    if (dk != n - k->support || gf_rank(K, dk, n) != dk)
        return 0;
    for (unsigned d = 0; d < dk; d++)
        for (unsigned j = 0; j < n; j++) {
            if (!k->in_support[j])
                continue;
            uint8_t s = 0;
            for (unsigned q = 0; q < n; q++)
                s ^= gfla_mul[k->A3[j * n + q]][K[(size_t)d * n + q]];
            if (s)
                return 0;
        }
    return 1;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Kernel guessing: draw x, solve sum_k mu_k P_k x = 0 for mu. A nonzero mu
 * whose member mu . P has rank <= v + a (the support of layer 1 and the
 * middle equations, a public bound) is a hit; the hits span the secret
 * (a+2)-dimensional space, and the common kernel of their forms is the
 * image of the variables outside the support. */
int chal_toy_attack(const chal_toy_key *k, const uint8_t seed[32],
                    unsigned long long max_tries, int measure,
                    chal_minrank_result *r)
{
    const unsigned m = k->m, n = k->n, o = k->a + 2, bound = k->v + k->a;
    uint8_t *PT = malloc((size_t)n * n * m);
    uint8_t Cm[CHAL_TOY_MAX_N * CHAL_TOY_MAX_M], kb[CHAL_TOY_MAX_M * CHAL_TOY_MAX_M];
    uint8_t x[CHAL_TOY_MAX_N], D[CHAL_TOY_MAX_N * CHAL_TOY_MAX_N];
    uint8_t E[CHAL_TOY_MAX_M * CHAL_TOY_MAX_M * 2];
    uint8_t *Kst = malloc((size_t)CHAL_TOY_MAX_M * n * n);
    toy_rng g;

    if (!PT || !Kst) {
        free(PT), free(Kst);
        return CHAL_ERROR;
    }
    gfla_init();
    memset(r, 0, sizeof *r);
    r->min_rank = UINT32_MAX;
    /* PT[j][i m + q] = P_q[i][j]: column j of every form, for x_j. */
    for (unsigned q = 0; q < m; q++)
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = 0; j < n; j++)
                PT[(size_t)j * n * m + i * m + q] = k->pub[(size_t)q * n * n + i * n + j];
    rng_init(&g, "libtts toy structure attack", seed);
    double t0 = now_seconds();
    while (r->tries < max_tries && (measure || r->du < o)) {
        rng_read(&g, x, n);
        r->tries++;
        memset(Cm, 0, (size_t)n * m);
        for (unsigned j = 0; j < n; j++) {
            if (!x[j])
                continue;
            const uint8_t *mx = gfla_mul[x[j]], *col = PT + (size_t)j * n * m;
            for (unsigned i = 0; i < n * m; i++)
                Cm[i] ^= mx[col[i]];
        }
        unsigned kd = gf_kernel(Cm, n, m, kb, m);
        if (!kd)
            continue;
        r->solutions++;
        for (unsigned s = 0; s < kd && s < m; s++) {
            const uint8_t *mu = kb + (size_t)s * m;
            combine(D, k->pub, mu, m, n);
            unsigned rk = gf_rank(D, n, n);
            if (rk < r->min_rank)
                r->min_rank = rk;
            if (rk > bound) {
                r->rejected++;
                continue;
            }
            r->hits++;
            /* Which secret group the hit lies in (the secret, for the
             * report only): the last central row of lambda = mu A1. */
            int top = -1;
            for (unsigned l = 0; l < m; l++) {
                uint8_t c = 0;
                for (unsigned q = 0; q < m; q++)
                    c ^= gfla_mul[mu[q]][k->A1[q * m + l]];
                if (c)
                    top = (int)l;
            }
            r->by_group[top < (int)k->a ? 0 : top == (int)k->a ? 1 :
                        top == (int)k->a + 1 ? 2 : 3]++;
            /* Into the span if independent. */
            if (r->du < m) {
                memcpy(E, r->U, (size_t)r->du * m);
                memcpy(E + (size_t)r->du * m, mu, m);
                if (gf_rank(E, r->du + 1, m) == r->du + 1) {
                    memcpy(r->U + (size_t)r->du * m, mu, m);
                    r->du++;
                    if (r->du == o && !r->tries_to_span)
                        r->tries_to_span = r->tries;
                }
            }
        }
    }
    /* The common kernel of the forms of the recovered span. */
    for (unsigned d = 0; d < r->du; d++)
        combine(Kst + (size_t)d * n * n, k->pub, r->U + (size_t)d * m, m, n);
    r->dk = r->du ? gf_kernel(Kst, r->du * n, n, r->K, n) : 0;
    r->seconds = now_seconds() - t0;
    unsigned long long mid = r->by_group[1] + r->by_group[2];
    r->log2_middle_rate = mid ? log2((double)mid / 2.0 / (double)r->tries) : -INFINITY;
    r->span_ok = chal_toy_check_span(k, r->U, r->du);
    r->kernel_ok = r->du && chal_toy_check_kernel(k, r->K, r->dk);
    free(PT), free(Kst);
    return CHAL_OK;
}
