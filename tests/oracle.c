/* SPDX-License-Identifier: MIT */
/*
 * Naive TTS oracle, written from docs/SPEC.md only (see oracle.h). Clarity
 * over speed: explicit branches, textbook algorithms, every formula of the
 * specification transcribed with its indices as written.
 */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

/* ---- field -------------------------------------------------------------- */

uint8_t or_mul_naive(uint8_t a, uint8_t b)
{
    unsigned prod = 0;
    for (unsigned i = 0; i < 8; i++)
        if ((b >> i) & 1u)
            prod ^= (unsigned)a << i;
    /* reduce modulo t^8 + t^4 + t^3 + t + 1 from the top bit down */
    for (int k = 14; k >= 8; k--)
        if ((prod >> k) & 1u)
            prod ^= 0x11Bu << (k - 8);
    return (uint8_t)prod;
}

/* The same products, cached: the oracle's matrix code multiplies a lot. */
uint8_t or_mul(uint8_t a, uint8_t b)
{
    static uint8_t table[256][256];
    static int ready;
    if (!ready) {
        for (unsigned x = 0; x < 256; x++)
            for (unsigned y = 0; y < 256; y++)
                table[x][y] = or_mul_naive((uint8_t)x, (uint8_t)y);
        ready = 1;
    }
    return table[a][b];
}

uint8_t or_pow(uint8_t a, unsigned e)
{
    uint8_t r = 1;
    while (e--)
        r = or_mul(r, a);
    return r;
}

uint8_t or_inv(uint8_t a)
{
    static uint8_t table[256];
    static int ready;
    if (!ready) {
        table[0] = 0;
        for (unsigned x = 1; x < 256; x++)
            for (unsigned y = 1; y < 256; y++)
                if (or_mul((uint8_t)x, (uint8_t)y) == 1) {
                    table[x] = (uint8_t)y;
                    break;
                }
        ready = 1;
    }
    return table[a];
}

/* ---- matrices ----------------------------------------------------------- */

void or_matmul(uint8_t *C, const uint8_t *A, const uint8_t *B,
               unsigned r, unsigned k, unsigned c)
{
    for (unsigned i = 0; i < r; i++)
        for (unsigned j = 0; j < c; j++) {
            uint8_t acc = 0;
            for (unsigned l = 0; l < k; l++)
                acc ^= or_mul(A[i * k + l], B[l * c + j]);
            C[i * c + j] = acc;
        }
}

void or_matvec(uint8_t *y, const uint8_t *M, const uint8_t *x,
               unsigned rows, unsigned cols)
{
    for (unsigned i = 0; i < rows; i++) {
        uint8_t acc = 0;
        for (unsigned j = 0; j < cols; j++)
            acc ^= or_mul(M[i * cols + j], x[j]);
        y[i] = acc;
    }
}

/* Reduced row echelon form of a rows x cols matrix in place; returns the
 * rank. Textbook: find a nonzero pivot at or below the current row, swap
 * it up, scale it to 1, clear its column in every other row. */
static unsigned rref(uint8_t *W, unsigned rows, unsigned cols, unsigned pivcols)
{
    unsigned rank = 0;
    for (unsigned col = 0; col < pivcols && rank < rows; col++) {
        unsigned piv = rows;
        for (unsigned r = rank; r < rows; r++)
            if (W[r * cols + col] != 0) {
                piv = r;
                break;
            }
        if (piv == rows)
            continue;
        if (piv != rank)
            for (unsigned j = 0; j < cols; j++) {
                uint8_t t = W[piv * cols + j];
                W[piv * cols + j] = W[rank * cols + j];
                W[rank * cols + j] = t;
            }
        uint8_t inv = or_inv(W[rank * cols + col]);
        for (unsigned j = 0; j < cols; j++)
            W[rank * cols + j] = or_mul(W[rank * cols + j], inv);
        for (unsigned r = 0; r < rows; r++) {
            if (r == rank)
                continue;
            uint8_t f = W[r * cols + col];
            if (f == 0)
                continue;
            for (unsigned j = 0; j < cols; j++)
                W[r * cols + j] ^= or_mul(f, W[rank * cols + j]);
        }
        rank++;
    }
    return rank;
}

int or_invert(uint8_t *inv, const uint8_t *M, unsigned dim)
{
    unsigned cols = 2 * dim;
    uint8_t *W = calloc((size_t)dim * cols + 1, 1);
    if (!W)
        abort();
    for (unsigned r = 0; r < dim; r++) {
        memcpy(W + r * cols, M + r * dim, dim);
        W[r * cols + dim + r] = 1;
    }
    int ok = rref(W, dim, cols, dim) == dim;
    if (ok)
        for (unsigned r = 0; r < dim; r++)
            memcpy(inv + r * dim, W + r * cols + dim, dim);
    free(W);
    return ok;
}

unsigned or_rank(const uint8_t *M, unsigned rows, unsigned cols)
{
    uint8_t *W = malloc((size_t)rows * cols + 1);
    if (!W)
        abort();
    memcpy(W, M, (size_t)rows * cols);
    unsigned rank = rref(W, rows, cols, cols);
    free(W);
    return rank;
}

int or_solve(uint8_t *z, const uint8_t *M, const uint8_t *t, unsigned dim)
{
    unsigned cols = dim + 1;
    uint8_t *W = malloc((size_t)dim * cols + 1);
    if (!W)
        abort();
    for (unsigned r = 0; r < dim; r++) {
        memcpy(W + r * cols, M + r * dim, dim);
        W[r * cols + dim] = t[r];
    }
    int ok = rref(W, dim, cols, dim) == dim;
    if (ok)
        for (unsigned r = 0; r < dim; r++)
            z[r] = W[r * cols + dim];
    free(W);
    return ok;
}

/* ---- parameter sets ------------------------------------------------------ */

/* SPEC section 3, columns m, n, v, a, b. */
static const or_shape shapes[OR_NSETS] = {
    {16, 22, 6, 7, 7},    {20, 26, 6, 10, 8},   {20, 28, 8, 9, 9},
    {24, 32, 8, 12, 10},  {24, 34, 10, 11, 11}, {28, 38, 10, 14, 12},
    {32, 44, 12, 16, 14}, {36, 50, 14, 18, 16},
};

int or_shape_at(or_shape *s, unsigned i)
{
    if (i >= OR_NSETS)
        return 0;
    *s = shapes[i];
    return 1;
}

int or_shape_of(or_shape *s, unsigned m, unsigned n)
{
    for (unsigned i = 0; i < OR_NSETS; i++)
        if (shapes[i].m == m && shapes[i].n == n) {
            *s = shapes[i];
            return 1;
        }
    return 0;
}

size_t or_coeffs(const or_shape *s)
{
    return (size_t)(s->a + 2) * (s->v - 1) + (size_t)s->b * (s->b + 1);
}

size_t or_sk_bytes(const or_shape *s)
{
    return (size_t)s->m * (s->m + 1) + (size_t)s->n * (s->n + 1) + or_coeffs(s);
}

size_t or_pk_bytes(const or_shape *s)
{
    return (size_t)s->m * s->n * (s->n + 3) / 2;
}

size_t or_off_S1(const or_shape *s) { (void)s; return 0; }
size_t or_off_s1(const or_shape *s) { return (size_t)s->m * s->m; }
size_t or_off_S3(const or_shape *s) { return (size_t)s->m * (s->m + 1); }
size_t or_off_s3(const or_shape *s) { return (size_t)s->m * (s->m + 1) + (size_t)s->n * s->n; }
size_t or_off_coef(const or_shape *s) { return (size_t)s->m * (s->m + 1) + (size_t)s->n * (s->n + 1); }

/* ---- central map ---------------------------------------------------------- */

/* Coefficient positions of SPEC 5.2, relative to the coefficient block. */
static unsigned pos_l1(const or_shape *s, int i, int j)
{
    return (unsigned)(i - (int)s->v) * (s->v - 1) + (unsigned)(j - 1);
}
static unsigned pos_mu1(const or_shape *s, int k)
{
    return s->a * (s->v - 1) + (unsigned)(k - 1);
}
static unsigned pos_mu2(const or_shape *s, int k)
{
    return (s->a + 1) * (s->v - 1) + (unsigned)(k - 1);
}
static unsigned pos_l3(const or_shape *s, int i, int k)
{
    int c = (int)(s->v + s->a + 2);
    return (s->a + 2) * (s->v - 1) + (unsigned)(i - c) * (s->b + 1) + (unsigned)k;
}

/* x_i with a range check: an index outside 0..n-1 is a bug in the oracle
 * (or in the specification) and stops the test program. */
static uint8_t X(const or_shape *s, const uint8_t *x, int i)
{
    if (i < 0 || i >= (int)s->n)
        abort();
    return x[i];
}

/* p * x_u * x_w */
static uint8_t prod(const or_shape *s, const uint8_t *x, uint8_t p, int u, int w)
{
    return or_mul(p, or_mul(X(s, x, u), X(s, x, w)));
}

void or_central(const or_shape *s, uint8_t *y, const uint8_t *x,
                const uint8_t *coef)
{
    const int n = (int)s->n, v = (int)s->v, a = (int)s->a;
    const int mu1 = v + a, mu2 = v + a + 1, c = v + a + 2, h = (v - 2) / 2;

    /* 4.1: y_i = x_i + SUM_{j=1}^{v-1} p_{i,j} x_j x_{v+((i+j) mod a)} */
    for (int i = v; i <= v + a - 1; i++) {
        uint8_t acc = X(s, x, i);
        for (int j = 1; j <= v - 1; j++)
            acc ^= prod(s, x, coef[pos_l1(s, i, j)], j, v + ((i + j) % a));
        y[i - v] = acc;
    }

    /* 4.2: y_mu1 = x_mu1 + SUM_{k=1}^{h} p_{mu1,k} x_k x_{v-1-k}
     *              + SUM_{k=0}^{v/2-1} p_{mu1,h+1+k} x_{a+k} x_{v+a-1-k} */
    {
        uint8_t acc = X(s, x, mu1);
        for (int k = 1; k <= h; k++)
            acc ^= prod(s, x, coef[pos_mu1(s, k)], k, v - 1 - k);
        for (int k = 0; k <= v / 2 - 1; k++)
            acc ^= prod(s, x, coef[pos_mu1(s, h + 1 + k)], a + k, v + a - 1 - k);
        y[mu1 - v] = acc;
    }
    /*      y_mu2 = x_mu2 + SUM_{k=1}^{h} p_{mu2,k} x_{k+1} x_{v-k}
     *              + SUM_{k=0}^{v/2-1} p_{mu2,h+1+k} x_{a+1+k} x_{v+a-k} */
    {
        uint8_t acc = X(s, x, mu2);
        for (int k = 1; k <= h; k++)
            acc ^= prod(s, x, coef[pos_mu2(s, k)], k + 1, v - k);
        for (int k = 0; k <= v / 2 - 1; k++)
            acc ^= prod(s, x, coef[pos_mu2(s, h + 1 + k)], a + 1 + k, v + a - k);
        y[mu2 - v] = acc;
    }

    /* 4.3: y_i = x_i + p_{i,0} x_{i-c+v} x_{i-c+v+2}
     *            + SUM_{j=c}^{i-1} p_{i,j-c+1} x_{2(i-j)-(i mod 2)} x_j
     *            + p_{i,i-c+1} x_0 x_i
     *            + SUM_{j=i+1}^{n-1} p_{i,j-c+1} x_{i-j+c} x_j */
    for (int i = c; i <= n - 1; i++) {
        uint8_t acc = X(s, x, i);
        acc ^= prod(s, x, coef[pos_l3(s, i, 0)], i - c + v, i - c + v + 2);
        for (int j = c; j <= i - 1; j++)
            acc ^= prod(s, x, coef[pos_l3(s, i, j - c + 1)], 2 * (i - j) - (i % 2), j);
        acc ^= prod(s, x, coef[pos_l3(s, i, i - c + 1)], 0, i);
        for (int j = i + 1; j <= n - 1; j++)
            acc ^= prod(s, x, coef[pos_l3(s, i, j - c + 1)], i - j + c, j);
        y[i - v] = acc;
    }
}

static int add_term(or_term *t, unsigned cap, unsigned *cnt, int row, int u,
                    int w, unsigned coef, unsigned layer)
{
    if (*cnt >= cap)
        return 0;
    t[*cnt].row = (unsigned)row;
    t[*cnt].u = (unsigned)u;
    t[*cnt].w = (unsigned)w;
    t[*cnt].coef = coef;
    t[*cnt].layer = layer;
    (*cnt)++;
    return 1;
}

unsigned or_terms(const or_shape *s, or_term *t, unsigned cap, unsigned start[5])
{
    const int n = (int)s->n, v = (int)s->v, a = (int)s->a;
    const int mu1 = v + a, mu2 = v + a + 1, c = v + a + 2, h = (v - 2) / 2;
    unsigned cnt = 0;
    int ok = 1;

    start[0] = cnt;
    for (int i = v; i <= v + a - 1; i++)
        for (int j = 1; j <= v - 1; j++)
            ok &= add_term(t, cap, &cnt, i, j, v + ((i + j) % a), pos_l1(s, i, j), 0);
    start[1] = cnt;
    for (int k = 1; k <= h; k++)
        ok &= add_term(t, cap, &cnt, mu1, k, v - 1 - k, pos_mu1(s, k), 1);
    for (int k = 0; k <= v / 2 - 1; k++)
        ok &= add_term(t, cap, &cnt, mu1, a + k, v + a - 1 - k, pos_mu1(s, h + 1 + k), 1);
    start[2] = cnt;
    for (int k = 1; k <= h; k++)
        ok &= add_term(t, cap, &cnt, mu2, k + 1, v - k, pos_mu2(s, k), 2);
    for (int k = 0; k <= v / 2 - 1; k++)
        ok &= add_term(t, cap, &cnt, mu2, a + 1 + k, v + a - k, pos_mu2(s, h + 1 + k), 2);
    start[3] = cnt;
    for (int i = c; i <= n - 1; i++) {
        ok &= add_term(t, cap, &cnt, i, i - c + v, i - c + v + 2, pos_l3(s, i, 0), 3);
        for (int j = c; j <= i - 1; j++)
            ok &= add_term(t, cap, &cnt, i, 2 * (i - j) - (i % 2), j, pos_l3(s, i, j - c + 1), 3);
        ok &= add_term(t, cap, &cnt, i, 0, i, pos_l3(s, i, i - c + 1), 3);
        for (int j = i + 1; j <= n - 1; j++)
            ok &= add_term(t, cap, &cnt, i, i - j + c, j, pos_l3(s, i, j - c + 1), 3);
    }
    start[4] = cnt;
    return ok ? cnt : 0;
}

/* ---- keys and the public map -------------------------------------------- */

int or_expand(or_key *k, const or_shape *s, const uint8_t *sk)
{
    const unsigned m = s->m, n = s->n;
    memset(k, 0, sizeof *k);
    k->s = *s;
    memcpy(k->S1, sk + or_off_S1(s), (size_t)m * m);
    memcpy(k->s1, sk + or_off_s1(s), m);
    memcpy(k->S3, sk + or_off_S3(s), (size_t)n * n);
    memcpy(k->s3, sk + or_off_s3(s), n);
    memcpy(k->coef, sk + or_off_coef(s), or_coeffs(s));
    k->ok = or_invert(k->A1, k->S1, m) && or_invert(k->A3, k->S3, n);
    if (k->ok)
        or_matvec(k->c3, k->A3, k->s3, n, n);
    return k->ok;
}

int or_sk_valid(const or_shape *s, const uint8_t *sk)
{
    or_key k;
    uint8_t y[36];
    if (!or_expand(&k, s, sk))
        return 0;
    or_central(s, y, k.c3, k.coef);
    return memcmp(y, k.s1, s->m) == 0;
}

int or_fix_s1(const or_shape *s, uint8_t *sk)
{
    uint8_t A3[50 * 50], c3[50];
    if (!or_invert(A3, sk + or_off_S3(s), s->n))
        return 0;
    or_matvec(c3, A3, sk + or_off_s3(s), s->n, s->n);
    or_central(s, sk + or_off_s1(s), c3, sk + or_off_coef(s));
    return 1;
}

void or_public(const or_key *k, uint8_t *out, const uint8_t *w)
{
    const or_shape *s = &k->s;
    uint8_t x[50], y[36];
    or_matvec(x, k->A3, w, s->n, s->n);
    for (unsigned i = 0; i < s->n; i++)
        x[i] ^= k->c3[i];
    or_central(s, y, x, k->coef);
    for (unsigned i = 0; i < s->m; i++)
        y[i] ^= k->s1[i];
    or_matvec(out, k->A1, y, s->m, s->m);
}

/* q(i,j) of SPEC 5.4 */
static size_t q_index(unsigned n, unsigned i, unsigned j)
{
    return (size_t)i * n - (size_t)i * (i - 1) / 2 + (j - i);
}

void or_pk_interpolate(const or_key *k, uint8_t *pk)
{
    const or_shape *s = &k->s;
    const unsigned m = s->m, n = s->n;
    const size_t nq = (size_t)n * (n + 1) / 2;
    uint8_t w[50], p1[50][36], p2[36], p12[36];
    const uint8_t inv6 = or_inv(6); /* t^2 + t for t = 2 */

    memset(w, 0, sizeof w);
    for (unsigned i = 0; i < n; i++) {
        w[i] = 1;
        or_public(k, p1[i], w); /* q_ii + l_i */
        w[i] = 2;
        or_public(k, p2, w);    /* 4 q_ii + 2 l_i */
        w[i] = 0;
        for (unsigned o = 0; o < m; o++) {
            /* 4q + 2l + 2(q + l) = 6q */
            uint8_t q = or_mul(inv6, p2[o] ^ or_mul(2, p1[i][o]));
            pk[q_index(n, i, i) * m + o] = q;
            pk[(nq + i) * m + o] = p1[i][o] ^ q;
        }
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i + 1; j < n; j++) {
            w[i] = w[j] = 1;
            or_public(k, p12, w);
            w[i] = w[j] = 0;
            for (unsigned o = 0; o < m; o++)
                pk[q_index(n, i, j) * m + o] = p12[o] ^ p1[i][o] ^ p1[j][o];
        }
}

void or_pk_eval(const or_shape *s, uint8_t *out, const uint8_t *w,
                const uint8_t *pk)
{
    const unsigned m = s->m, n = s->n;
    const size_t nq = (size_t)n * (n + 1) / 2;
    for (unsigned o = 0; o < m; o++) {
        uint8_t acc = 0;
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = i; j < n; j++)
                acc ^= or_mul(pk[q_index(n, i, j) * m + o], or_mul(w[i], w[j]));
        for (unsigned i = 0; i < n; i++)
            acc ^= or_mul(pk[(nq + i) * m + o], w[i]);
        out[o] = acc;
    }
}

uint8_t or_monomial(const or_shape *s, size_t block, const uint8_t *w)
{
    const unsigned n = s->n;
    const size_t nq = (size_t)n * (n + 1) / 2;
    if (block >= nq)
        return w[block - nq];
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i; j < n; j++)
            if (q_index(n, i, j) == block)
                return or_mul(w[i], w[j]);
    abort();
}

/* ---- key generation ------------------------------------------------------ */

typedef struct {
    uint8_t seed[32];
    uint8_t *buf;
    size_t len, pos;
} keystream;

/* The next len bytes of the ChaCha20 keystream; regenerates a longer
 * prefix in one call when needed. */
static const uint8_t *ks_take(keystream *ks, size_t len)
{
    static const uint8_t nonce[12];
    if (ks->pos + len > ks->len) {
        size_t nl = ks->len ? ks->len : 4096;
        while (nl < ks->pos + len)
            nl *= 2;
        free(ks->buf);
        ks->buf = malloc(nl);
        if (!ks->buf || sodium_init() < 0)
            abort();
        crypto_stream_chacha20_ietf(ks->buf, nl, nonce, ks->seed);
        ks->len = nl;
    }
    const uint8_t *p = ks->buf + ks->pos;
    ks->pos += len;
    return p;
}

void or_keygen(const or_shape *s, uint8_t *pk, uint8_t *sk, const uint8_t seed[32])
{
    const unsigned m = s->m, n = s->n;
    const size_t C = or_coeffs(s);
    uint8_t tmp[50 * 50];
    keystream ks = {{0}, NULL, 0, 0};
    or_key k;

    memcpy(ks.seed, seed, 32);
    do /* S3 */
        memcpy(sk + or_off_S3(s), ks_take(&ks, (size_t)n * n), (size_t)n * n);
    while (!or_invert(tmp, sk + or_off_S3(s), n));
    memcpy(sk + or_off_s3(s), ks_take(&ks, n), n);
    do /* S1 */
        memcpy(sk + or_off_S1(s), ks_take(&ks, (size_t)m * m), (size_t)m * m);
    while (!or_invert(tmp, sk + or_off_S1(s), m));
    for (size_t t = 0; t < C; t++) {
        uint8_t byte;
        do
            byte = *ks_take(&ks, 1);
        while (byte == 0);
        sk[or_off_coef(s) + t] = byte;
    }
    free(ks.buf);
    if (!or_fix_s1(s, sk))
        abort();
    if (!or_expand(&k, s, sk))
        abort();
    or_pk_interpolate(&k, pk);
}

void or_digest(const or_shape *s, uint8_t *d, const uint8_t *msg, size_t len)
{
    uint8_t h[64];
    if (sodium_init() < 0)
        abort();
    crypto_hash_sha512(h, msg, len);
    memcpy(d, h, s->m);
}

/* ---- signing ------------------------------------------------------------- */

int or_solve_layer(const or_shape *s, const uint8_t *coef, uint8_t *x,
                   const uint8_t *target, unsigned L)
{
    const unsigned v = s->v, a = s->a;
    /* variable (= row) ranges of layer 1, mu1, mu2, layer 3 */
    const unsigned lo[5] = {v, v + a, v + a + 1, v + a + 2, s->n};
    const unsigned base = lo[L], dim = lo[L + 1] - lo[L];
    uint8_t y0[36], y1[36], M[50 * 50], t[50], z[50];

    /* rows base..base+dim-1 are affine in x_base..x_{base+dim-1} once every
     * earlier variable is known: probe with 0 and with the unit vectors */
    memset(x + base, 0, s->n - base);
    or_central(s, y0, x, coef);
    for (unsigned col = 0; col < dim; col++) {
        x[base + col] = 1;
        or_central(s, y1, x, coef);
        x[base + col] = 0;
        for (unsigned r = 0; r < dim; r++)
            M[r * dim + col] = y1[base - v + r] ^ y0[base - v + r];
    }
    for (unsigned r = 0; r < dim; r++)
        t[r] = target[base - v + r] ^ y0[base - v + r];
    if (!or_solve(z, M, t, dim))
        return 0;
    memcpy(x + base, z, dim);
    return 1;
}

int or_sign_attempt(const or_key *k, uint8_t *sig, const uint8_t *digest,
                    const uint8_t *vinegar)
{
    const or_shape *s = &k->s;
    const unsigned m = s->m, n = s->n;
    uint8_t u[36], x[50];

    /* u = S1 h + s1 */
    or_matvec(u, k->S1, digest, m, m);
    for (unsigned i = 0; i < m; i++)
        u[i] ^= k->s1[i];

    memset(x, 0, sizeof x);
    memcpy(x, vinegar, s->v);
    for (unsigned L = 0; L < 4; L++)
        if (!or_solve_layer(s, k->coef, x, u, L))
            return 0;
    /* sigma = S3 x + s3 */
    or_matvec(sig, k->S3, x, n, n);
    for (unsigned i = 0; i < n; i++)
        sig[i] ^= k->s3[i];
    return 1;
}

/* ---- PRNG ------------------------------------------------------------------ */

void or_prng_seed(or_prng *r, uint64_t seed) { r->s = seed; }

uint64_t or_prng_next(or_prng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void or_prng_bytes(or_prng *r, uint8_t *out, size_t len)
{
    while (len) {
        uint64_t z = or_prng_next(r);
        for (int i = 0; i < 8 && len; i++, len--) {
            *out++ = (uint8_t)z;
            z >>= 8;
        }
    }
}

uint8_t or_prng_nonzero(or_prng *r)
{
    uint8_t b;
    do
        b = (uint8_t)or_prng_next(r);
    while (b == 0);
    return b;
}

unsigned or_prng_below(or_prng *r, unsigned bound)
{
    return (unsigned)(or_prng_next(r) % bound);
}
