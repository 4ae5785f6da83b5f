/* SPDX-License-Identifier: MIT */
/*
 * Differential tests: every backend built in and supported by this CPU
 * against ref, on random kernel inputs (every kernel, odd lengths, all
 * eight sets' layer solvers) and on random keys and messages (same public
 * and secret key, same signature from the same randomness, same verdict on
 * valid, flipped and random signatures). Backends the CPU lacks are skipped
 * and named on stdout.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <pthread.h>
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gf256.h"
#include "internal.h"
#include "oracle.h"

static uint64_t rs = 0x243F6A8885A308D3ull;
static uint8_t rnd8(void)
{
    rs ^= rs >> 12;
    rs ^= rs << 25;
    rs ^= rs >> 27;
    return (uint8_t)((rs * 0x2545F4914F6CDD1Dull) >> 56);
}
static void rnd(uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        p[i] = rnd8();
}
/* Random bytes with a good share of zeros and ones (edge values). */
static void rnd_edgy(uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        uint8_t c = rnd8();
        p[i] = c < 32 ? 0 : c < 48 ? 1 : c < 56 ? 0xFF : rnd8();
    }
}

static int rng_xs(void *ctx, uint8_t *out, size_t len)
{
    uint64_t *s = ctx;
    for (size_t i = 0; i < len; i++) {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        out[i] = (uint8_t)*s;
    }
    return 0;
}

/* The backends under test: filled by main. */
static const tts_kernels *be[8];
static size_t nbe;
/* $TTS_TEST_QUICK (the CI's run under valgrind memcheck, which looks for
 * memory errors and leaks and needs each path once): a tenth of the
 * random kernel cases (the layer systems all, for their singular ones),
 * the inversions of 14 sizes of the 50, and in the whole-scheme test the
 * smallest and the largest set, one key each and two messages a key. The
 * plain and sanitizer runs take them all. */
static int quick;

static int reps(int n)
{
    return quick ? (n + 9) / 10 : n;
}

static const tts_kernels *R(void) { return &tts_kernels_ref; }

START_TEST(t_field_kernels)
{
    const tts_kernels *k = be[_i];
    uint8_t a[300], b[300], c1[340], c2[340];
    for (int iter = 0; iter < reps(200); iter++) {
        size_t len = 1 + rnd8() % 260;
        uint8_t s = iter < 4 ? (uint8_t)(iter == 0 ? 0 : iter == 1 ? 1 : 0xFF) : rnd8();
        rnd_edgy(a, sizeof a);
        rnd_edgy(b, sizeof b);
        rnd(c1, sizeof c1);
        memcpy(c2, c1, sizeof c1);
        R()->madd(c1, a, s, len);
        k->madd(c2, a, s, len);
        ck_assert_msg(memcmp(c1, c2, sizeof c1) == 0, "%s madd len %zu", k->name, len);
        R()->vmul(c1, a, b, len);
        k->vmul(c2, a, b, len);
        ck_assert_msg(memcmp(c1, c2, sizeof c1) == 0, "%s vmul len %zu", k->name, len);
    }
    /* vmul against the field definition on all 65536 pairs. */
    static uint8_t A[65536], B[65536], P[65536];
    for (unsigned i = 0; i < 65536; i++) {
        A[i] = (uint8_t)i;
        B[i] = (uint8_t)(i >> 8);
    }
    k->vmul(P, A, B, sizeof P);
    for (unsigned i = 0; i < 65536; i++)
        ck_assert_uint_eq(P[i], gf256_mul(A[i], B[i]));
}
END_TEST

/* Inversion in gauss on every field element: diagonal systems [D | I]
 * (32 rows, so a vector backend inverts a whole register of pivots) whose
 * diagonals together run through all 255 nonzero bytes; the right block
 * must become D^-1 by the field definition. A zero on the diagonal must
 * make the system singular. */
START_TEST(t_gauss_inverse)
{
    const tts_kernels *k = be[_i];
    enum { N = 32 };
    uint8_t M[N * 2 * N];
    for (unsigned base = 1; base < 256; base += N) {
        memset(M, 0, sizeof M);
        for (unsigned r = 0; r < N; r++) {
            M[r * 2 * N + r] = (uint8_t)(base + r > 255 ? base + r - 255 : base + r);
            M[r * 2 * N + N + r] = 1;
        }
        ck_assert_uint_eq(k->gauss(M, N, 2 * N), 1);
        for (unsigned r = 0; r < N; r++) {
            const uint8_t d = (uint8_t)(base + r > 255 ? base + r - 255 : base + r);
            ck_assert_msg(gf256_mul(M[r * 2 * N + N + r], d) == 1, "%s 1/%u", k->name, d);
        }
    }
    memset(M, 0, sizeof M);
    for (unsigned r = 0; r < N; r++)
        M[r * 2 * N + r] = M[r * 2 * N + N + r] = (uint8_t)(r == 17 ? 0 : r + 1);
    ck_assert_uint_eq(k->gauss(M, N, 2 * N), 0);
}
END_TEST

/* invert against ref and against the definition (M inv = I), on random
 * matrices of every size up to 50, matrices whose pivots are zero (first
 * columns zero in leading rows, so the repair swaps rows, sometimes
 * several times) and singular ones (a repeated row, a zero column). */
START_TEST(t_invert)
{
    const tts_kernels *k = be[_i];
    static uint8_t M[TTS_MAX_N * TTS_MAX_N], I1[TTS_MAX_N * TTS_MAX_N], I2[TTS_MAX_N * TTS_MAX_N],
        P[TTS_MAX_N * TTS_MAX_N];
    unsigned inverted = 0, singular = 0;
    for (unsigned dim = 1; dim <= TTS_MAX_N; dim++) {
        if (quick && dim > 8 && dim % 7 != 1 && dim != TTS_MAX_N)
            continue; /* quick: 1..8, then every 7th and the largest */
        for (int kind = 0; kind < 6; kind++) {
            rnd(M, (size_t)dim * dim);
            if (kind == 1 || kind == 2) /* zero pivots: leading rows zero in early columns */
                for (unsigned r = 0; r < dim / 2 + 1 && r < dim; r++)
                    for (unsigned c = 0; c < (kind == 1 ? 1u : dim / 3 + 1) && c < dim; c++)
                        M[r * dim + c] = 0;
            if (kind == 3) /* zero column in the middle */
                for (unsigned r = 0; r < dim; r++)
                    M[r * dim + dim / 2] = 0;
            if (kind == 4 && dim > 1) /* a repeated row */
                memcpy(M + (dim - 1) * dim, M, dim);
            if (kind == 5) /* sparse: mostly zeros, edgy values */
                for (unsigned q = 0; q < dim * dim; q++)
                    M[q] = (rnd8() & 3) ? 0 : M[q];
            uint8_t a = tts_invert_generic(R(), I1, M, dim);
            uint8_t b = k->invert(k, I2, M, dim);
            ck_assert_msg(a == b, "%s invert dim %u kind %d verdict", k->name, dim, kind);
            if (!a) {
                singular++;
                continue;
            }
            inverted++;
            ck_assert_msg(memcmp(I1, I2, (size_t)dim * dim) == 0, "%s invert dim %u kind %d",
                          k->name, dim, kind);
            R()->matmul(P, M, I2, dim, dim, dim);
            for (unsigned r = 0; r < dim; r++)
                for (unsigned c = 0; c < dim; c++)
                    ck_assert_uint_eq(P[r * dim + c], r == c);
        }
    }
    ck_assert(inverted > (quick ? 10u : 100u) && singular > (quick ? 10u : 100u));
}
END_TEST

/* blocksum (the break's structured operator): ref against the oracle's
 * products, every backend against ref, on random shapes and offsets. */
static void blocksum_oracle(uint8_t *y, const uint8_t *M, const uint32_t *mo,
                            const uint8_t *x, const uint32_t *xo, size_t rows,
                            unsigned per, unsigned cols)
{
    for (size_t r = 0; r < rows; r++)
        for (unsigned j = 0; j < 64; j++) {
            uint8_t s = 0;
            for (unsigned t = 0; t < per; t++)
                for (unsigned i = 0; i < cols; i++)
                    s ^= or_mul(x[xo[r * per + t] + i], M[mo[r * per + t] + 64 * i + j]);
            y[64 * r + j] = s;
        }
}

START_TEST(t_blocksum)
{
    const tts_kernels *k = be[_i];
    for (int iter = 0; iter < reps(60); iter++) {
        unsigned cols = 1 + rnd8() % 16, per = 1 + rnd8() % 20, nm = 1 + rnd8() % 8;
        size_t rows = 1 + rnd8() % 40, nx = 1 + rnd8() % 100;
        uint8_t *M = malloc((size_t)nm * cols * 64), *x = malloc(nx + cols);
        uint32_t *mo = malloc(rows * per * sizeof *mo), *xo = malloc(rows * per * sizeof *xo);
        uint8_t *y0 = malloc(64 * rows), *y1 = malloc(64 * rows), *y2 = malloc(64 * rows);
        rnd_edgy(M, (size_t)nm * cols * 64);
        rnd_edgy(x, nx + cols);
        for (size_t t = 0; t < rows * per; t++) {
            mo[t] = (uint32_t)((rnd8() % nm) * cols * 64);
            xo[t] = (uint32_t)(((size_t)rnd8() << 8 | rnd8()) % (nx + 1));
        }
        blocksum_oracle(y0, M, mo, x, xo, rows, per, cols);
        R()->blocksum(y1, M, mo, x, xo, rows, per, cols);
        k->blocksum(y2, M, mo, x, xo, rows, per, cols);
        ck_assert_msg(memcmp(y0, y1, 64 * rows) == 0, "ref blocksum against the oracle");
        ck_assert_msg(memcmp(y1, y2, 64 * rows) == 0, "%s blocksum %zu x %u x %u", k->name,
                      rows, per, cols);
        free(M), free(x), free(mo), free(xo), free(y0), free(y1), free(y2);
    }
}
END_TEST

START_TEST(t_matrix_kernels)
{
    const tts_kernels *k = be[_i];
    /* Exact-size heap buffers, so reading past the end is caught by ASan /
     * valgrind runs as well. */
    for (int iter = 0; iter < reps(300); iter++) {
        unsigned rows = 1 + rnd8() % 50, cols = 1 + rnd8() % 64, inner = 1 + rnd8() % 40;
        uint8_t *M = malloc((size_t)rows * cols), *x = malloc(cols);
        uint8_t y1[64], y2[64];
        rnd_edgy(M, (size_t)rows * cols);
        rnd_edgy(x, cols);
        R()->matvec(y1, M, x, rows, cols);
        k->matvec(y2, M, x, rows, cols);
        ck_assert_msg(memcmp(y1, y2, rows) == 0, "%s matvec %ux%u", k->name, rows, cols);
        unsigned wide = cols * (1 + rnd8() % 12);
        uint8_t *A = malloc((size_t)rows * inner), *B = malloc((size_t)inner * wide);
        uint8_t *C1 = malloc((size_t)rows * wide), *C2 = malloc((size_t)rows * wide);
        rnd_edgy(A, (size_t)rows * inner);
        rnd_edgy(B, (size_t)inner * wide);
        R()->matmul(C1, A, B, rows, inner, wide);
        k->matmul(C2, A, B, rows, inner, wide);
        ck_assert_msg(memcmp(C1, C2, (size_t)rows * wide) == 0, "%s matmul %ux%ux%u",
                      k->name, rows, inner, wide);
        uint8_t *T1 = malloc((size_t)rows * wide), *T2 = malloc((size_t)rows * wide);
        R()->transpose(T1, C1, rows, wide);
        k->transpose(T2, C1, rows, wide);
        ck_assert_msg(memcmp(T1, T2, (size_t)rows * wide) == 0, "%s transpose %ux%u",
                      k->name, rows, wide);
        free(T1), free(T2);
        free(M), free(x), free(A), free(B), free(C1), free(C2);
    }
    /* Elimination: random, singular (dependent rows) and zero-pivot cases. */
    for (int iter = 0; iter < reps(300); iter++) {
        unsigned dim = 1 + rnd8() % 50, cols = dim + 1 + rnd8() % 51;
        uint8_t *G1 = malloc((size_t)dim * cols), *G2 = malloc((size_t)dim * cols);
        rnd_edgy(G1, (size_t)dim * cols);
        if (iter % 3 == 1 && dim > 1) /* row 0 = row dim-1: singular */
            memcpy(G1, G1 + (size_t)(dim - 1) * cols, cols);
        if (iter % 3 == 2) /* zero top-left entries force the repair */
            for (unsigned r = 0; r < dim; r++)
                G1[(size_t)r * cols] = r == dim - 1 ? G1[(size_t)r * cols] : 0;
        memcpy(G2, G1, (size_t)dim * cols);
        uint8_t o1 = R()->gauss(G1, dim, cols), o2 = k->gauss(G2, dim, cols);
        ck_assert_msg(o1 == o2, "%s gauss verdict dim %u", k->name, dim);
        if (o1)
            ck_assert_msg(memcmp(G1, G2, (size_t)dim * cols) == 0, "%s gauss dim %u",
                          k->name, dim);
        free(G1), free(G2);
    }
}
END_TEST

/* pk_eval on random (not key-shaped) public maps of every set. */
START_TEST(t_pk_eval)
{
    const tts_kernels *k = be[_i];
    for (size_t s = 0; s < tts_params_count(); s++) {
        const tts_params *p = tts_params_at(s);
        uint8_t *pk = malloc(pk_bytes(p)), w[TTS_MAX_N], o1[TTS_MAX_M], o2[TTS_MAX_M];
        for (int iter = 0; iter < reps(20); iter++) {
            rnd(pk, pk_bytes(p));
            rnd_edgy(w, p->n);
            R()->pk_eval(o1, pk, w, p->m, p->n);
            k->pk_eval(o2, pk, w, p->m, p->n);
            ck_assert_msg(memcmp(o1, o2, p->m) == 0, "%s pk_eval %s", k->name, p->name);
        }
        free(pk);
    }
    /* Other shapes than the sets' (every m the interface allows, n around
     * the groups of 4 and 8 rows the vector kernels take at a time); the
     * key in a buffer of exactly its size, so that the sanitizer build
     * catches a read past it. */
    static const unsigned ns[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 23, 33, 49, 50};
    for (unsigned m = 16; m <= 36; m += 4)
        for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
            const unsigned n = ns[t];
            const size_t len = (size_t)m * n * (n + 3) / 2;
            uint8_t *pk = malloc(len), w[TTS_MAX_N], o1[TTS_MAX_M], o2[TTS_MAX_M];
            ck_assert_ptr_nonnull(pk);
            rnd(pk, len);
            rnd_edgy(w, n);
            R()->pk_eval(o1, pk, w, m, n);
            k->pk_eval(o2, pk, w, m, n);
            ck_assert_msg(memcmp(o1, o2, m) == 0, "%s pk_eval m=%u n=%u", k->name, m, n);
            free(pk);
        }
}
END_TEST

/* Every layer of every set, random coefficients (with zeros, so that
 * singular systems occur) and random known variables. */
START_TEST(t_solve_layer)
{
    const tts_kernels *k = be[_i];
    /* The generator state of a forked test, also when CK_FORK=no (as under
     * valgrind): the singular count below is then the same in both modes. */
    rs = 0x243F6A8885A308D3ull;
    for (size_t s = 0; s < tts_params_count(); s++) {
        const tts_params *p = tts_params_at(s);
        uint8_t coef[TTS_MAX_SK_BYTES], target[TTS_MAX_M];
        uint8_t x1[TTS_MAX_N], x2[TTS_MAX_N];
        unsigned singular = 0;
        for (int iter = 0; iter < 300; iter++) {
            if (iter % 2)
                rnd_edgy(coef, p->coeffs);
            else
                rnd(coef, p->coeffs);
            rnd(target, p->m);
            rnd(x1, p->n);
            memcpy(x2, x1, p->n);
            for (unsigned L = 0; L < TTS_LAYERS; L++) {
                uint8_t a = R()->solve_layer(p, R(), L, x1, target, coef);
                uint8_t b = k->solve_layer(p, k, L, x2, target, coef);
                ck_assert_msg(a == b, "%s %s layer %u verdict", k->name, p->name, L);
                if (!a) {
                    singular++;
                    break;
                }
                ck_assert_msg(memcmp(x1, x2, p->n) == 0, "%s %s layer %u", k->name,
                              p->name, L);
            }
        }
        ck_assert_msg(singular > 0, "%s: no singular system met", p->name);
    }
}
END_TEST

/* Whole scheme: keys, signatures and verdicts equal to ref's. */
START_TEST(t_scheme)
{
    const tts_kernels *k = be[_i];
    static uint8_t pk1[TTS_MAX_PK_BYTES], pk2[TTS_MAX_PK_BYTES];
    uint8_t sk1[TTS_MAX_SK_BYTES], sk2[TTS_MAX_SK_BYTES], seed[32];
    uint8_t dg[TTS_MAX_M], s1[TTS_MAX_N], s2[TTS_MAX_N];
    for (size_t s = 0; s < tts_params_count(); s++) {
        const tts_params *p = tts_params_at(s);
        if (quick && s != 0 && s + 1 != tts_params_count())
            continue; /* quick: the smallest and the largest set */
        for (int key = 0; key < (quick ? 1 : 3); key++) {
            rnd(seed, sizeof seed);
            ck_assert_int_eq(tts_set_backend("ref"), TTS_OK);
            ck_assert_int_eq(tts_keypair_from_seed(p, pk1, sk1, seed), TTS_OK);
            ck_assert_int_eq(tts_set_backend(k->name), TTS_OK);
            ck_assert_int_eq(tts_keypair_from_seed(p, pk2, sk2, seed), TTS_OK);
            ck_assert_msg(memcmp(pk1, pk2, pk_bytes(p)) == 0, "%s %s pk", k->name, p->name);
            ck_assert_msg(memcmp(sk1, sk2, sk_bytes(p)) == 0, "%s %s sk", k->name, p->name);
            uint8_t pk3[TTS_MAX_PK_BYTES];
            ck_assert_int_eq(tts_pk_from_sk(p, pk3, sk1), TTS_OK);
            ck_assert(memcmp(pk1, pk3, pk_bytes(p)) == 0);
            /* a caller's workspace (exactly the stated size, between
             * guards) gives the same keys, is wiped after, and one byte
             * less is refused */
            const size_t wl = tts_keypair_workspace_bytes(p);
            uint8_t *ws = malloc(wl + 64);
            memset(ws, 0xA5, wl + 64);
            memset(pk3, 0, sizeof pk3);
            ck_assert_int_eq(tts_pk_from_sk_ws(p, pk3, sk1, ws + 32, wl), TTS_OK);
            ck_assert_msg(memcmp(pk1, pk3, pk_bytes(p)) == 0, "%s %s pk_from_sk_ws", k->name,
                          p->name);
            uint8_t sk3[TTS_MAX_SK_BYTES];
            memset(pk3, 0, sizeof pk3);
            ck_assert_int_eq(tts_keypair_from_seed_ws(p, pk3, sk3, seed, ws + 32, wl), TTS_OK);
            ck_assert(memcmp(pk1, pk3, pk_bytes(p)) == 0);
            ck_assert(memcmp(sk1, sk3, sk_bytes(p)) == 0);
            for (size_t b = 0; b < wl + 64; b++)
                ck_assert_msg(ws[b] == (b < 32 || b >= wl + 32 ? 0xA5 : 0),
                              "%s %s workspace byte %zu", k->name, p->name, b);
            ck_assert_int_eq(tts_keypair_from_seed_ws(p, pk3, sk3, seed, ws, wl - 1), TTS_EINVAL);
            ck_assert_int_eq(tts_pk_from_sk_ws(p, pk3, sk1, ws, wl - 1), TTS_EINVAL);
            free(ws);
            ck_assert_int_eq(tts_sk_check(p, sk1), TTS_OK);
            for (int msg = 0; msg < (quick ? 2 : 8); msg++) {
                rnd(dg, p->m);
                uint64_t st1 = 1 + rnd8(), st2 = st1;
                ck_assert_int_eq(tts_set_backend("ref"), TTS_OK);
                int r1 = tts_sign_digest(p, s1, dg, sk1, rng_xs, &st1);
                ck_assert_int_eq(tts_set_backend(k->name), TTS_OK);
                int r2 = tts_sign_digest(p, s2, dg, sk1, rng_xs, &st2);
                ck_assert_int_eq(r1, r2);
                ck_assert_msg(memcmp(s1, s2, p->n) == 0, "%s %s sig", k->name, p->name);
                ck_assert_int_eq(tts_verify_digest(p, s2, dg, pk1), TTS_OK);
                s2[rnd8() % p->n] ^= (uint8_t)(1 + rnd8() % 255);
                int v1, v2 = tts_verify_digest(p, s2, dg, pk1);
                ck_assert_int_eq(tts_set_backend("ref"), TTS_OK);
                v1 = tts_verify_digest(p, s2, dg, pk1);
                ck_assert_int_eq(v1, v2);
                ck_assert_int_eq(v1, TTS_EBADSIG);
                uint8_t o1[TTS_MAX_M], o2[TTS_MAX_M];
                rnd(s2, p->n);
                tts_pk_eval(p, o1, s2, pk1);
                ck_assert_int_eq(tts_set_backend(k->name), TTS_OK);
                tts_pk_eval(p, o2, s2, pk1);
                ck_assert(memcmp(o1, o2, p->m) == 0);
            }
        }
    }
    ck_assert_int_eq(tts_set_backend("ref"), TTS_OK);
}
END_TEST

START_TEST(t_selection)
{
    ck_assert_int_eq(tts_set_backend(NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_set_backend("nonesuch"), TTS_EBACKEND);
    for (size_t i = 0; tts_backend_at(i); i++) {
        const tts_kernels *k = tts_kernels_find(tts_backend_at(i));
        int rc = tts_set_backend(tts_backend_at(i));
        ck_assert_int_eq(rc, k ? TTS_OK : TTS_EBACKEND);
        if (k)
            ck_assert_str_eq(tts_backend(), tts_backend_at(i));
    }
    ck_assert_int_eq(tts_set_backend("ref"), TTS_OK);
    ck_assert_str_eq(tts_backend(), "ref");
}
END_TEST

#ifdef TTS_TEST_GFNI_EMU
#include "../opt/cpu.h"
extern const tts_kernels tts_kernels_gfni_emu;
#endif

/* Key generation's stack, measured: on a thread whose stack is a block of
 * ours filled with a pattern, the deepest byte written, less the same
 * figure for a thread that does nothing (glibc keeps the thread's control
 * block and TLS in that block). The largest set, every backend this CPU
 * runs; tts.h promises under 16 KB. */
#define STACK_BLOCK (256 * 1024)
#define STACK_PROMISE 16384
#if !defined(__SANITIZE_ADDRESS__) /* ASan moves frames off the stack */

static void *stack_job_run(void *arg)
{
    const tts_params *p = arg;
    static uint8_t pk[TTS_MAX_PK_BYTES], pk2[TTS_MAX_PK_BYTES], sk[TTS_MAX_SK_BYTES];
    static const uint8_t seed[32] = {7};
    if (!p)
        return NULL;
    int rc = tts_keypair_from_seed(p, pk, sk, seed);
    if (rc == TTS_OK)
        rc = tts_pk_from_sk(p, pk2, sk);
    if (rc == TTS_OK)
        rc = tts_sk_check(p, sk);
    if (rc == TTS_OK && memcmp(pk, pk2, tts_pk_bytes(p)) != 0)
        rc = TTS_EKEY;
    return rc == TTS_OK ? (void *)pk : NULL;
}

/* Bytes of stack a thread running stack_job_run(p) wrote; *ok = its verdict. */
static size_t stack_used(const tts_params *p, int *ok)
{
    uint8_t *blk = malloc(STACK_BLOCK);
    pthread_attr_t at;
    pthread_t th;
    void *res;
    ck_assert_ptr_nonnull(blk);
    memset(blk, 0x5A, STACK_BLOCK);
    ck_assert_int_eq(pthread_attr_init(&at), 0);
    ck_assert_int_eq(pthread_attr_setstack(&at, blk, STACK_BLOCK), 0);
    ck_assert_int_eq(pthread_create(&th, &at, stack_job_run, (void *)p), 0);
    ck_assert_int_eq(pthread_join(th, &res), 0);
    pthread_attr_destroy(&at);
    *ok = res != NULL;
#ifdef VALGRIND_MAKE_MEM_DEFINED
    /* memcheck marks a stack undefined as it shrinks; the bytes are real */
    VALGRIND_MAKE_MEM_DEFINED(blk, STACK_BLOCK);
#endif
    size_t low = 0; /* stacks grow down: the first byte changed */
    while (low < STACK_BLOCK && blk[low] == 0x5A)
        low++;
    free(blk);
    return STACK_BLOCK - low;
}

#endif

START_TEST(t_keygen_stack)
{
#if defined(__SANITIZE_ADDRESS__)
    printf("# keygen stack: not measured under AddressSanitizer\n");
#else
    const tts_params *p = tts_params_at(tts_params_count() - 1);
    int ok;
    const size_t base = stack_used(NULL, &ok);
    for (size_t b = 0; b < tts_backend_count(); b++) {
        const char *name = tts_backend_at(b);
        if (tts_set_backend(name) != TTS_OK)
            continue;
        size_t used = stack_used(p, &ok) - base;
        ck_assert_msg(ok, "%s: key generation failed", name);
        printf("# keygen stack, %s, %s: %zu bytes\n", tts_params_name(p), name, used);
        ck_assert_msg(used < STACK_PROMISE, "%s: %zu bytes of stack", name, used);
    }
    ck_assert_int_eq(tts_set_backend("ref"), TTS_OK);
#endif
}
END_TEST

int main(void)
{
    /* The automatic choice must be the best available (unless overridden). */
    const char *env = getenv("TTS_BACKEND"), *q = getenv("TTS_TEST_QUICK");
    quick = q && *q;
    if (quick)
        printf("# TTS_TEST_QUICK: a tenth of the random cases\n");
    const char *first = tts_backend();
    for (size_t i = 0; tts_backend_at(i); i++) {
        const tts_kernels *k = tts_kernels_find(tts_backend_at(i));
        if (!k) {
            printf("# backend %s: built, but this CPU lacks it: skipped\n",
                   tts_backend_at(i));
            continue;
        }
        if (strcmp(k->name, "ref") != 0)
            be[nbe++] = k;
        printf("# backend %s: tested against ref\n", k->name);
    }
#ifdef TTS_TEST_GFNI_EMU
    /* gfni's kernels, GFNI emulated: whole-scheme tests need a selectable
     * backend, so this one runs the kernel tests only. */
    size_t nkern = nbe;
    if (tts_cpu_features() & TTS_CPU_AVX2) {
        be[nbe++] = &tts_kernels_gfni_emu;
        printf("# backend gfni (GFNI emulated in AVX2): kernels tested against ref\n");
    }
#else
    size_t nkern = nbe;
#endif
    if (!env || !*env) {
        const char *best = nkern ? be[0]->name : "ref";
        if (strcmp(first, best) != 0) {
            printf("automatic backend %s, expected %s\n", first, best);
            return 1;
        }
    }
    Suite *s = suite_create("backends");
    TCase *tc = tcase_create("differential");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, t_selection);
    if (nbe) {
        tcase_add_loop_test(tc, t_field_kernels, 0, (int)nbe);
        tcase_add_loop_test(tc, t_matrix_kernels, 0, (int)nbe);
        tcase_add_loop_test(tc, t_blocksum, 0, (int)nbe);
        tcase_add_loop_test(tc, t_pk_eval, 0, (int)nbe);
        tcase_add_loop_test(tc, t_gauss_inverse, 0, (int)nbe);
        tcase_add_loop_test(tc, t_invert, 0, (int)nbe);
        tcase_add_loop_test(tc, t_solve_layer, 0, (int)nbe);
        tcase_add_loop_test(tc, t_scheme, 0, (int)nkern);
    }
    suite_add_tcase(s, tc);
    TCase *ts = tcase_create("stack"); /* CK_RUN_CASE=stack runs it alone */
    tcase_set_timeout(ts, 600);
    tcase_add_test(ts, t_keygen_stack);
    suite_add_tcase(s, ts);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
