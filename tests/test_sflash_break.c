/* SPDX-License-Identifier: MIT */
/*
 * The SFLASH forger (challenge/sflash_break.h) on SFLASH(26,37) keys of
 * bench/sflash: forgeries of random messages from the public key alone,
 * accepted by sflash_verify and by this file's own evaluator of the packed
 * public key (its own bit reader, the branch-free product sflash_kmul, pad
 * bits checked); with test-only access to the secret (sflash_secret_affine)
 * every recovered object against the true one; refusals; determinism.
 * Five seeds here; make check-full (TTS_CHECK_FULL) runs ten.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <sodium.h>

#include "challenge.h"
#include "gf128la.h"
#include "sflash_break.h"
#include "sflash_internal.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TTS_HAS_ASAN 1
#endif
#endif
#ifndef TTS_HAS_ASAN
#define TTS_HAS_ASAN 0
#endif

#define N  SFLASH_N
#define NQ CHAL_SFLASH_QUAD
#define MESSAGES 20

/* ---- independent arithmetic: sflash_kmul, a Fermat inverse ---- */

static uint8_t kinv(uint8_t a)
{
    uint8_t r = 1;
    for (unsigned i = 0; i < 126; i++)
        r = sflash_kmul(r, a);
    return r;
}

/* rank of rows x cols (copied), by plain Gaussian elimination */
static unsigned rank_of(const uint8_t *M0, unsigned rows, unsigned cols)
{
    uint8_t *M = malloc((size_t)rows * cols);
    memcpy(M, M0, (size_t)rows * cols);
    unsigned r = 0;
    for (unsigned c = 0; c < cols && r < rows; c++) {
        unsigned p = r;
        while (p < rows && !M[(size_t)p * cols + c])
            p++;
        if (p == rows)
            continue;
        for (unsigned j = 0; j < cols; j++) {
            uint8_t t = M[(size_t)p * cols + j];
            M[(size_t)p * cols + j] = M[(size_t)r * cols + j];
            M[(size_t)r * cols + j] = t;
        }
        uint8_t iv = kinv(M[(size_t)r * cols + c]);
        for (unsigned i = r + 1; i < rows; i++) {
            uint8_t f = sflash_kmul(M[(size_t)i * cols + c], iv);
            for (unsigned j = c; f && j < cols; j++)
                M[(size_t)i * cols + j] ^= sflash_kmul(f, M[(size_t)r * cols + j]);
        }
        r++;
    }
    free(M);
    return r;
}

/* the packed public key's 26 x 741 coefficients, bit by bit */
static void read_pk(uint8_t coef[SFLASH_M][SFLASH_MONOMIALS], const uint8_t *pk)
{
    size_t b = 0;
    for (unsigned e = 0; e < SFLASH_M; e++)
        for (unsigned t = 0; t < SFLASH_MONOMIALS; t++) {
            uint8_t v = 0;
            for (unsigned i = 0; i < 7; i++, b++)
                v = (uint8_t)(v << 1 | ((pk[b / 8] >> (7 - b % 8)) & 1));
            coef[e][t] = v;
        }
}

/* The public key at x (monomials in the key's order), against the hash V
 * of msg; the signature's 5 pad bits must be zero. */
static int independent_verify(const uint8_t coef[SFLASH_M][SFLASH_MONOMIALS],
                              const uint8_t *sig, const uint8_t *msg, size_t len)
{
    uint8_t x[N], vb[23], v[SFLASH_M];
    if (sig[32] & 0x1F)
        return 0;
    size_t b = 0;
    for (unsigned i = 0; i < N; i++) {
        x[i] = 0;
        for (unsigned j = 0; j < 7; j++, b++)
            x[i] = (uint8_t)(x[i] << 1 | ((sig[b / 8] >> (7 - b % 8)) & 1));
    }
    ck_assert_int_eq(sflash_hash_v(vb, msg, len), 0);
    b = 0;
    for (unsigned i = 0; i < SFLASH_M; i++) {
        v[i] = 0;
        for (unsigned j = 0; j < 7; j++, b++)
            v[i] = (uint8_t)(v[i] << 1 | ((vb[b / 8] >> (7 - b % 8)) & 1));
    }
    for (unsigned e = 0; e < SFLASH_M; e++) {
        const uint8_t *c = coef[e];
        uint8_t acc = c[0];
        unsigned t = 1;
        for (unsigned i = 0; i < N; i++) {
            acc ^= sflash_kmul(c[t++], x[i]);
            for (unsigned k = i; k < N; k++)
                acc ^= sflash_kmul(c[t++], sflash_kmul(x[i], x[k]));
        }
        if (acc != v[e])
            return 0;
    }
    return 1;
}

/* ---- the truth, from the secret ---- */

typedef struct {
    sflash_elt sm[N][N], sc[N], tm[N][N], tc[N];
} truth;

static void nmul(uint8_t *y, const uint8_t *M, const uint8_t *x);

static void matvec(uint8_t *y, const sflash_elt M[N][N], const uint8_t *x)
{
    nmul(y, &M[0][0], x);
}

/* y = M x, M row-major (the recovered N) */
static void nmul(uint8_t *y, const uint8_t *M, const uint8_t *x)
{
    for (unsigned i = 0; i < N; i++) {
        uint8_t s = 0;
        for (unsigned j = 0; j < N; j++)
            s ^= sflash_kmul(M[i * N + j], x[j]);
        y[i] = s;
    }
}

/* the homogeneous C* map x -> tm F(sm x) */
static void cstar0(uint8_t *y, const truth *t, const uint8_t *x)
{
    sflash_l a, b;
    matvec(a.c, t->sm, x);
    sflash_F(&b, &a);
    matvec(y, t->tm, b.c);
}

/* Its 37 quadratic forms, coefficients of x_i x_k (i <= k) in order. */
static void true_forms(uint8_t (*q)[NQ], const truth *t)
{
    uint8_t x[N] = {0}, g[N][N], y[N];
    for (unsigned i = 0; i < N; i++) {
        x[i] = 1;
        cstar0(g[i], t, x);
        x[i] = 0;
    }
    unsigned idx = 0;
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = i; k < N; k++, idx++) {
            if (k == i) {
                for (unsigned j = 0; j < N; j++)
                    q[j][idx] = g[i][j];
                continue;
            }
            x[i] = x[k] = 1;
            cstar0(y, t, x);
            x[i] = x[k] = 0;
            for (unsigned j = 0; j < N; j++)
                q[j][idx] = y[j] ^ g[i][j] ^ g[k][j];
        }
}

/* The full public map of a seed's key, all 37 outputs of t(F(s(x))), by
 * interpolation of sflash_secret_map (as a key generator would): the first
 * m rows make a C*- map with 37 - m equations removed. */
static void full_map(chal_cstar_map *P, unsigned m, const uint8_t seed[32])
{
    uint8_t x[N] = {0}, g0[N], g1[N][N], g2[N][N], y[N];
    uint8_t inv6 = kinv(6);
    memset(P, 0, sizeof *P);
    P->m = m;
    sflash_secret_map(g0, x, seed);
    for (unsigned i = 0; i < N; i++) {
        x[i] = 1;
        sflash_secret_map(g1[i], x, seed);
        x[i] = 2;
        sflash_secret_map(g2[i], x, seed);
        x[i] = 0;
    }
    for (unsigned e = 0; e < m; e++)
        P->coef[e][0] = g0[e];
    unsigned t = 1;
    for (unsigned i = 0; i < N; i++) {
        unsigned lin = t++;
        for (unsigned e = 0; e < m; e++) {
            uint8_t u1 = g1[i][e] ^ g0[e], u2 = g2[i][e] ^ g0[e];
            uint8_t q = sflash_kmul(u2 ^ sflash_kmul(2, u1), inv6);
            P->coef[e][t] = q;
            P->coef[e][lin] = u1 ^ q;
        }
        t++;
        for (unsigned k = i + 1; k < N; k++, t++) {
            x[i] = x[k] = 1;
            sflash_secret_map(y, x, seed);
            x[i] = x[k] = 0;
            for (unsigned e = 0; e < m; e++)
                P->coef[e][t] = y[e] ^ g1[i][e] ^ g1[k][e] ^ g0[e];
        }
    }
}

static void seed_of(uint8_t seed[32], unsigned i, uint8_t tag)
{
    memset(seed, 0, 32);
    seed[0] = tag;
    seed[1] = (uint8_t)i;
}

static chal_sflash_key *key_alloc(void)
{
    chal_sflash_key *k = malloc(sizeof *k);
    ck_assert_ptr_nonnull(k);
    return k;
}

/* The recovered objects against the secret. */
static void check_truth(const chal_sflash_key *k, const truth *t)
{
    /* 1: N = S^-1 M_xi S, xi not in K: (S N z1)(S z2) = (S N z2)(S z1) */
    sflash_l a1, a2, b1, b2, p1, p2;
    uint8_t z1[N], z2[N], nz[N];
    int scalar = 1;
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++)
            scalar &= k->mul[i * N + j] == (i == j ? k->mul[0] : 0);
    ck_assert_msg(!scalar, "the recovered multiplication is a scalar");
    for (unsigned rep = 0; rep < 4; rep++) {
        randombytes_buf(z1, N);
        randombytes_buf(z2, N);
        for (unsigned i = 0; i < N; i++)
            z1[i] &= 0x7F, z2[i] &= 0x7F;
        nmul(nz, k->mul, z1);
        matvec(a1.c, t->sm, nz);
        matvec(b2.c, t->sm, z2);
        nmul(nz, k->mul, z2);
        matvec(a2.c, t->sm, nz);
        matvec(b1.c, t->sm, z1);
        sflash_lmul(&p1, &a1, &b2);
        sflash_lmul(&p2, &a2, &b1);
        ck_assert_msg(memcmp(p1.c, p2.c, N) == 0,
                      "the recovered N is not conjugate to a multiplication of L");
    }
    /* 2: the 37 forms span the true C* quadratic span */
    uint8_t (*tq)[NQ] = malloc(2 * N * sizeof *tq);
    ck_assert_ptr_nonnull(tq);
    true_forms(tq, t);
    memcpy(tq + N, k->quad, N * sizeof *tq);
    ck_assert_uint_eq(rank_of(&tq[0][0], N, NQ), N);
    ck_assert_uint_eq(rank_of(&tq[N][0], N, NQ), N);
    ck_assert_uint_eq(rank_of(&tq[0][0], 2 * N, NQ), N);
    free(tq);
    /* 3: s(x) = sm (x + c): sm c = sc */
    uint8_t smc[N];
    matvec(smc, t->sm, k->c);
    ck_assert_msg(memcmp(smc, t->sc, N) == 0, "the translation is not the secret one");
}

static void break_seed(unsigned i)
{
    uint8_t seed[32], rseed[32], pk[SFLASH_PK_BYTES], sk[SFLASH_SK_BYTES];
    char err[256];
    static uint8_t coef[SFLASH_M][SFLASH_MONOMIALS];
    seed_of(seed, i, 0xA5);
    ck_assert_int_eq(sflash_keypair(pk, sk, seed), 0);
    chal_cstar_map P;
    ck_assert_int_eq(chal_sflash_pk_decode(&P, pk, sizeof pk, err, sizeof err), CHAL_OK);
    chal_sflash_key *k = key_alloc();
    chal_sflash_report rep;
    seed_of(rseed, i, 0x5A);
    chal_sflash_opts o = {.seed = rseed};
    int r = chal_sflash_break(&P, &o, k, &rep, err, sizeof err);
    ck_assert_msg(r == CHAL_OK, "seed %u: %s", i, err);
    ck_assert_uint_eq(rep.kernel_dim, 4); /* 37 - 3 * 11 */
    ck_assert_uint_eq(rep.span_dim, N);
    ck_assert_uint_eq(rep.rel_dim, N);
    truth t;
    sflash_secret_affine(t.sm, t.sc, t.tm, t.tc, seed);
    check_truth(k, &t);
    read_pk(coef, pk);
    for (unsigned j = 0; j < MESSAGES; j++) {
        uint8_t msg[41], d[CHAL_SFLASH_DIGEST_BYTES], sig[SFLASH_SIG_BYTES];
        size_t len = 1 + (size_t)(randombytes_uniform(sizeof msg - 1));
        randombytes_buf(msg, len);
        ck_assert_int_eq(sflash_hash_v(d, msg, len), 0);
        ck_assert_int_eq(chal_sflash_forge_sig(k, sig, d, NULL, NULL, err, sizeof err), CHAL_OK);
        ck_assert_msg(sflash_verify(sig, msg, len, pk) == 0, "seed %u: sflash_verify refuses", i);
        ck_assert_msg(independent_verify(coef, sig, msg, len), "seed %u: the evaluator refuses", i);
        /* the checks can fail: the forgery of msg is no signature of msg || 0 */
        msg[len] = 0;
        ck_assert(sflash_verify(sig, msg, len + 1, pk) != 0);
        ck_assert(!independent_verify(coef, sig, msg, len + 1));
    }
    sodium_memzero(sk, sizeof sk);
    free(k);
}

START_TEST(forgeries)
{
    break_seed((unsigned)_i);
}
END_TEST

/* The secret's full map: its first 26 rows are the public key, read back. */
START_TEST(full_map_is_pk)
{
    uint8_t seed[32], pk[SFLASH_PK_BYTES], sk[SFLASH_SK_BYTES];
    static uint8_t coef[SFLASH_M][SFLASH_MONOMIALS];
    static chal_cstar_map P;
    seed_of(seed, 0, 0xA5);
    ck_assert_int_eq(sflash_keypair(pk, sk, seed), 0);
    read_pk(coef, pk);
    full_map(&P, N, seed);
    ck_assert(memcmp(P.coef, coef, sizeof coef) == 0);
}
END_TEST

START_TEST(refuse_random)
{
    static chal_cstar_map P;
    chal_sflash_key *k = key_alloc();
    chal_sflash_report rep;
    char err[256];
    uint8_t seed[32];
    seed_of(seed, 0, 0x77);
    P.m = SFLASH_M;
    tts_stream s;
    tts_stream_init(&s, seed);
    tts_stream_rng(&s, &P.coef[0][0], sizeof P.coef);
    for (size_t i = 0; i < sizeof P.coef; i++)
        (&P.coef[0][0])[i] &= 0x7F;
    int r = chal_sflash_break(&P, NULL, k, &rep, err, sizeof err);
    ck_assert_int_eq(r, CHAL_NO_STRUCTURE);
    ck_assert_msg(strstr(err, "no C*- structure") != NULL, "%s", err);
    ck_assert_uint_eq(rep.kernel_dim, 1); /* the scalars */
    free(k);
}
END_TEST

/* r = 13 removed: 3 r = 39 > 37 conditions leave only the scalars. The
 * same key with r = 11 (its first 26 outputs) is broken. */
START_TEST(refuse_overtruncated)
{
    static chal_cstar_map P;
    chal_sflash_key *k = key_alloc();
    chal_sflash_report rep;
    char err[256];
    uint8_t seed[32];
    seed_of(seed, 1, 0xA5);
    full_map(&P, 24, seed);
    ck_assert_int_eq(chal_sflash_break(&P, NULL, k, &rep, err, sizeof err), CHAL_NO_STRUCTURE);
    ck_assert_msg(strstr(err, "no C*- structure") != NULL, "%s", err);
    ck_assert_uint_eq(rep.kernel_dim, 1);
    free(k);
}
END_TEST

/* r = 9: kernel of dimension 37 - 27 = 10, broken; a forgery of a random
 * target satisfies all 28 equations. */
START_TEST(less_truncated)
{
    static chal_cstar_map P;
    chal_sflash_key *k = key_alloc();
    chal_sflash_report rep;
    char err[256];
    uint8_t seed[32], v[N], x[N], y[N];
    seed_of(seed, 2, 0xA5);
    full_map(&P, 28, seed);
    ck_assert_msg(chal_sflash_break(&P, NULL, k, &rep, err, sizeof err) == CHAL_OK, "%s", err);
    ck_assert_uint_eq(rep.kernel_dim, 10);
    randombytes_buf(v, N);
    for (unsigned i = 0; i < N; i++)
        v[i] &= 0x7F;
    ck_assert_int_eq(chal_sflash_forge(k, x, v, NULL, NULL, err, sizeof err), CHAL_OK);
    chal_cstar_eval(&P, x, y);
    ck_assert(memcmp(y, v, 28) == 0);
    free(k);
}
END_TEST

/* The same seed gives the same key, byte for byte, and the same forgery
 * from the same generator. */
START_TEST(deterministic)
{
    uint8_t seed[32], rseed[32], pk[SFLASH_PK_BYTES], sk[SFLASH_SK_BYTES];
    uint8_t d[CHAL_SFLASH_DIGEST_BYTES] = {0x42}, s1[SFLASH_SIG_BYTES], s2[SFLASH_SIG_BYTES];
    char err[256];
    static chal_cstar_map P;
    seed_of(seed, 3, 0xA5);
    ck_assert_int_eq(sflash_keypair(pk, sk, seed), 0);
    ck_assert_int_eq(chal_sflash_pk_decode(&P, pk, sizeof pk, err, sizeof err), CHAL_OK);
    chal_sflash_key *k1 = key_alloc(), *k2 = key_alloc();
    chal_sflash_report r1, r2;
    seed_of(rseed, 9, 0x11);
    chal_sflash_opts o = {.seed = rseed};
    ck_assert_int_eq(chal_sflash_break(&P, &o, k1, &r1, err, sizeof err), CHAL_OK);
    ck_assert_int_eq(chal_sflash_break(&P, &o, k2, &r2, err, sizeof err), CHAL_OK);
    ck_assert(memcmp(k1, k2, sizeof *k1) == 0);
    ck_assert(memcmp(r1.seed, rseed, 32) == 0);
    tts_stream a, b;
    tts_stream_init(&a, rseed);
    tts_stream_init(&b, rseed);
    ck_assert_int_eq(chal_sflash_forge_sig(k1, s1, d, tts_stream_rng, &a, err, sizeof err), CHAL_OK);
    ck_assert_int_eq(chal_sflash_forge_sig(k2, s2, d, tts_stream_rng, &b, err, sizeof err), CHAL_OK);
    ck_assert(memcmp(s1, s2, sizeof s1) == 0);
    free(k1);
    free(k2);
}
END_TEST

/* The key file: encoded, decoded to the same key; a flipped byte, an
 * element above 127 and relations that do not sign are refused, the last
 * two under a recomputed checksum. */
START_TEST(key_file)
{
    uint8_t seed[32], pk[SFLASH_PK_BYTES], sk[SFLASH_SK_BYTES];
    char err[256];
    static chal_cstar_map P;
    seed_of(seed, 4, 0xA5);
    ck_assert_int_eq(sflash_keypair(pk, sk, seed), 0);
    ck_assert_int_eq(chal_sflash_pk_decode(&P, pk, sizeof pk, err, sizeof err), CHAL_OK);
    chal_sflash_key *k = key_alloc(), *k2 = key_alloc();
    ck_assert_int_eq(chal_sflash_break(&P, NULL, k, NULL, err, sizeof err), CHAL_OK);
    size_t len = chal_sflash_key_bytes(SFLASH_M);
    ck_assert_uint_eq(len, 8 + 1 + 26 * 741 + 37 * 703 + 37 + 26 + 37 * 1369 + 32);
    uint8_t *buf = malloc(len);
    chal_sflash_key_encode(buf, k);
    ck_assert_int_eq(chal_sflash_key_decode(k2, buf, len, err, sizeof err), CHAL_OK);
    ck_assert(memcmp(k2->pub.coef, k->pub.coef, sizeof k->pub.coef) == 0);
    ck_assert(memcmp(k2->quad, k->quad, sizeof k->quad) == 0);
    ck_assert(memcmp(k2->rel, k->rel, sizeof k->rel) == 0);
    ck_assert(memcmp(k2->c, k->c, N) == 0 && memcmp(k2->e, k->e, SFLASH_M) == 0);
    ck_assert_int_eq(chal_sflash_key_decode(k2, buf, len - 1, err, sizeof err), CHAL_ERROR);
    buf[100] ^= 1;
    ck_assert_int_eq(chal_sflash_key_decode(k2, buf, len, err, sizeof err), CHAL_ERROR);
    ck_assert_msg(strstr(err, "checksum") != NULL, "%s", err);
    buf[100] ^= 1;
    buf[100] |= 0x80; /* not an element */
    crypto_hash_sha256(buf + len - 32, buf, len - 32);
    ck_assert_int_eq(chal_sflash_key_decode(k2, buf, len, err, sizeof err), CHAL_ERROR);
    chal_sflash_key_encode(buf, k);
    memset(buf + len - 32 - (size_t)N * N * N, 0, (size_t)N * N * N); /* no relations */
    crypto_hash_sha256(buf + len - 32, buf, len - 32);
    ck_assert_int_eq(chal_sflash_key_decode(k2, buf, len, err, sizeof err), CHAL_ERROR);
    ck_assert_msg(strstr(err, "does not sign") != NULL, "%s", err);
    free(buf);
    free(k);
    free(k2);
}
END_TEST

/* Step 1 and step 4 from small first batches (1,000 equations, 1,000
 * samples: kernels of at least 369 and 369 + 37): the steps add equations
 * and samples until the kernels are the attack's, and the key signs. */
START_TEST(small_batches)
{
    uint8_t seed[32], rseed[32], pk[SFLASH_PK_BYTES], sk[SFLASH_SK_BYTES];
    char err[256];
    static chal_cstar_map P;
    seed_of(seed, 5, 0xA5);
    seed_of(rseed, 5, 0x5A);
    ck_assert_int_eq(sflash_keypair(pk, sk, seed), 0);
    ck_assert_int_eq(chal_sflash_pk_decode(&P, pk, sizeof pk, err, sizeof err), CHAL_OK);
    chal_sflash_key *k = key_alloc();
    chal_sflash_report rep;
    chal_sflash_opts o = {.seed = rseed, .first_equations = 1000, .first_samples = 1000};
    ck_assert_msg(chal_sflash_break(&P, &o, k, &rep, err, sizeof err) == CHAL_OK, "%s", err);
    ck_assert_uint_eq(rep.kernel_dim, 4);
    ck_assert_uint_eq(rep.equations, 3 * (666 - 26)); /* all of them */
    ck_assert_uint_eq(rep.rel_dim, N);
    ck_assert_uint_ge(rep.samples, 1000 + 332);
    truth t;
    sflash_secret_affine(t.sm, t.sc, t.tm, t.tc, seed);
    check_truth(k, &t);
    uint8_t d[CHAL_SFLASH_DIGEST_BYTES], sig[SFLASH_SIG_BYTES], msg[3] = {1, 2, 3};
    ck_assert_int_eq(sflash_hash_v(d, msg, sizeof msg), 0);
    ck_assert_int_eq(chal_sflash_forge_sig(k, sig, d, NULL, NULL, err, sizeof err), CHAL_OK);
    ck_assert(sflash_verify(sig, msg, sizeof msg, pk) == 0);
    sodium_memzero(sk, sizeof sk);
    free(k);
}
END_TEST

/* ---- the GF(128) layer against the test's own arithmetic ---- */

static void random_elements(uint8_t *v, size_t len)
{
    randombytes_buf(v, len);
    for (size_t i = 0; i < len; i++)
        v[i] &= 0x7F;
}

/* M (rows x cols) = B C with B rows x k, C k x cols: rank at most k */
static void low_rank(uint8_t *M, unsigned rows, unsigned cols, unsigned k)
{
    uint8_t *B = malloc((size_t)rows * k), *C = malloc((size_t)k * cols);
    random_elements(B, (size_t)rows * k);
    random_elements(C, (size_t)k * cols);
    for (unsigned i = 0; i < rows; i++)
        for (unsigned j = 0; j < cols; j++) {
            uint8_t s = 0;
            for (unsigned t = 0; t < k; t++)
                s ^= sflash_kmul(B[i * k + t], C[t * cols + j]);
            M[(size_t)i * cols + j] = s;
        }
    free(B);
    free(C);
}

/* Echelon form and kernel of M, eliminated in two parts (the first split
 * rows, then all): the rank the test's own elimination finds, and
 * cols - rank independent vectors v with M v = 0. */
static void check_kernel(const uint8_t *M, unsigned rows, unsigned cols, unsigned split)
{
    const size_t stride = gf128la_stride(cols);
    uint8_t *buf = aligned_alloc(16, rows * stride + GF128LA_ECHELON_WORK(cols));
    uint8_t **row = malloc(rows * sizeof *row), *work = buf + rows * stride;
    size_t *piv = malloc(cols * sizeof *piv);
    for (unsigned i = 0; i < rows; i++) {
        row[i] = buf + i * stride;
        memset(row[i], 0, stride);
        memcpy(row[i], M + (size_t)i * cols, cols);
    }
    gf128la_echelon(row, split, cols, piv, work);
    size_t r = gf128la_echelon(row, rows, cols, piv, work);
    ck_assert_uint_eq(r, rank_of(M, rows, cols));
    for (size_t i = 1; i < r; i++)
        ck_assert_uint_gt(piv[i], piv[i - 1]);
    size_t d = cols - r;
    uint8_t *ker = malloc(d * cols + 1), *kw = aligned_alloc(16, GF128LA_KERNEL_WORK(r, cols));
    ck_assert_uint_eq(gf128la_echelon_kernel(row, r, cols, piv, ker, d, kw), d);
    for (size_t b = 0; b < d; b++)
        for (unsigned i = 0; i < rows; i++) {
            uint8_t s = 0;
            for (unsigned j = 0; j < cols; j++)
                s ^= sflash_kmul(M[(size_t)i * cols + j], ker[b * cols + j]);
            ck_assert_msg(s == 0, "kernel vector %zu: row %u gives %u", b, i, s);
        }
    ck_assert_uint_eq(rank_of(ker, (unsigned)d, cols), d);
    free(ker);
    free(kw);
    free(buf);
    free(row);
    free(piv);
}

START_TEST(gf128_echelon_kernel)
{
    static const unsigned shape[][4] = {/* rows, cols, rank at most, split */
                                        {37, 37, 36, 20}, {37, 37, 37, 37}, {60, 90, 50, 10},
                                        {120, 100, 95, 100}, {30, 200, 30, 0}, {5, 40, 3, 2}};
    gf128la_init();
    for (size_t s = 0; s < sizeof shape / sizeof shape[0]; s++) {
        unsigned rows = shape[s][0], cols = shape[s][1];
        uint8_t *M = malloc((size_t)rows * cols);
        low_rank(M, rows, cols, shape[s][2]);
        check_kernel(M, rows, cols, shape[s][3]);
        free(M);
    }
}
END_TEST

START_TEST(gf128_lincomb)
{
    _Alignas(16) uint8_t v[N][48], out[48];
    const uint8_t *vp[N];
    uint8_t coef[N];
    random_elements(&v[0][0], sizeof v);
    random_elements(coef, N);
    coef[0] = 0;
    coef[1] = 1;
    coef[2] = 127;
    for (unsigned l = 0; l < N; l++)
        vp[l] = v[l];
    gf128la_init();
    gf128la_lincomb(out, vp, coef, N, sizeof out);
    for (unsigned j = 0; j < 48; j++) {
        uint8_t s = 0;
        for (unsigned l = 0; l < N; l++)
            s ^= sflash_kmul(coef[l], v[l][j]);
        ck_assert_uint_eq(out[j], s);
    }
}
END_TEST

/* y = M v by the bits of v, across its 256-column passes, with rows at
 * an odd stride (unaligned), against sums of sflash_kmul products */
START_TEST(gf128_matvec)
{
    static const unsigned shape[][3] = {{26, 741, 741}, {3, 703, 705}, {1, 20, 20}, {4, 256, 259}};
    gf128la_init();
    for (size_t s = 0; s < sizeof shape / sizeof shape[0]; s++) {
        unsigned rows = shape[s][0], cols = shape[s][1], stride = shape[s][2];
        uint8_t *M = malloc((size_t)rows * stride), *v = malloc(cols), y[32];
        random_elements(M, (size_t)rows * stride);
        random_elements(v, cols);
        v[0] = 0;
        v[cols - 1] = 127;
        gf128la_matvec(y, M, rows, cols, stride, v);
        for (unsigned i = 0; i < rows; i++) {
            uint8_t e = 0;
            for (unsigned j = 0; j < cols; j++)
                e ^= sflash_kmul(M[(size_t)i * stride + j], v[j]);
            ck_assert_msg(y[i] == e, "shape %zu row %u: %u, expected %u", s, i, y[i], e);
        }
        free(M);
        free(v);
    }
}
END_TEST

/* Without memory for step 1's system (the address space limited to 1 MB
 * above what the test uses, in the test's own forked process): CHAL_ERROR,
 * the step named in the reason. */
START_TEST(no_memory)
{
    uint8_t seed[32], pk[SFLASH_PK_BYTES], sk[SFLASH_SK_BYTES];
    char err[256];
    static chal_cstar_map P;
    const char *fork = getenv("CK_FORK");
    if (fork && strcmp(fork, "no") == 0)
        return; /* the limit would stay on the other tests */
#if defined(__SANITIZE_ADDRESS__) || TTS_HAS_ASAN
    return; /* AddressSanitizer's shadow takes the address space: its allocator
             * dies on the limit (and its report can hang), it does not return NULL */
#endif
    seed_of(seed, 6, 0xA5);
    ck_assert_int_eq(sflash_keypair(pk, sk, seed), 0);
    ck_assert_int_eq(chal_sflash_pk_decode(&P, pk, sizeof pk, err, sizeof err), CHAL_OK);
    chal_sflash_key *k = key_alloc();
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return; /* no /proc: not Linux */
    ck_assert_int_eq(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    rlim_t cap = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 20);
    struct rlimit rl = {cap, cap};
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &rl), 0);
    ck_assert_int_eq(chal_sflash_break(&P, NULL, k, NULL, err, sizeof err), CHAL_ERROR);
    ck_assert_msg(strstr(err, "no memory (step 1, multiplication)") != NULL, "%s", err);
    free(k);
}
END_TEST

START_TEST(bad_input)
{
    uint8_t pk[SFLASH_PK_BYTES] = {0};
    char err[256];
    static chal_cstar_map P;
    ck_assert_int_eq(chal_sflash_pk_decode(&P, pk, sizeof pk - 1, err, sizeof err), CHAL_ERROR);
    pk[sizeof pk - 1] = 1; /* a pad bit */
    ck_assert_int_eq(chal_sflash_pk_decode(&P, pk, sizeof pk, err, sizeof err), CHAL_ERROR);
    uint8_t d[CHAL_SFLASH_DIGEST_BYTES] = {0}, sig[SFLASH_SIG_BYTES];
    d[22] = 1; /* a pad bit of the digest */
    chal_sflash_key *k = key_alloc();
    memset(k, 0, sizeof *k);
    k->pub.m = SFLASH_M;
    ck_assert_int_eq(chal_sflash_forge_sig(k, sig, d, NULL, NULL, err, sizeof err), CHAL_ERROR);
    P.m = 2;
    ck_assert_int_eq(chal_sflash_break(&P, NULL, k, NULL, err, sizeof err), CHAL_ERROR);
    free(k);
}
END_TEST

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    int seeds = getenv("TTS_CHECK_FULL") ? 10 : 5;
    Suite *s = suite_create("sflash_break");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, full_map_is_pk);
    tcase_add_test(tc, bad_input);
    tcase_add_loop_test(tc, forgeries, 0, seeds);
    tcase_add_test(tc, refuse_random);
    tcase_add_test(tc, refuse_overtruncated);
    tcase_add_test(tc, less_truncated);
    tcase_add_test(tc, deterministic);
    tcase_add_test(tc, key_file);
    tcase_add_test(tc, small_batches);
    tcase_add_test(tc, gf128_echelon_kernel);
    tcase_add_test(tc, gf128_lincomb);
    tcase_add_test(tc, gf128_matvec);
    tcase_add_test(tc, no_memory);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
