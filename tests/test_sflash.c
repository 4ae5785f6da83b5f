/* SPDX-License-Identifier: MIT */
/*
 * SFLASH v2 (sflash/): no published test vectors were found (docs/SFLASH.md),
 * so every expected value here has an origin independent of the module:
 * K products by repeated doubling, L products by long division, the
 * defining polynomial's irreducibility, the inverse exponent by base-128
 * arithmetic, SHA-1 against OpenSSL, the public key against the secret
 * map, and round trips with every signature bit flipped.
 */
/* SHA1_Transform (deprecated in OpenSSL 3, still exported) gives the raw
 * compression function for the independent check of bit-length padding. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>
#include <sodium.h>

#include "sflash_internal.h"

#define N SFLASH_N

static uint64_t rs = 0x9E3779B97F4A7C15ull;
static uint8_t rnd8(void)
{
    rs ^= rs >> 12;
    rs ^= rs << 25;
    rs ^= rs >> 27;
    return (uint8_t)((rs * 0x2545F4914F6CDD1Dull) >> 56);
}
static void rnd_l(sflash_l *a)
{
    for (unsigned i = 0; i < N; i++)
        a->c[i] = rnd8() & 0x7F;
}

/* K product by doubling: x^7 = x + 1. */
static uint8_t kmul_ref(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (unsigned i = 0; i < 7; i++) {
        if ((b >> i) & 1)
            r ^= a;
        a = (uint8_t)(((a << 1) & 0x7F) ^ ((a >> 6) ? 0x03 : 0));
    }
    return r;
}

START_TEST(t_kmul)
{
    for (unsigned a = 0; a < 128; a++)
        for (unsigned b = 0; b < 128; b++)
        {
            ck_assert_uint_eq(sflash_kmul((uint8_t)a, (uint8_t)b), kmul_ref((uint8_t)a, (uint8_t)b));
            ck_assert_uint_eq(sflash_kmul_pub((uint8_t)a, (uint8_t)b), kmul_ref((uint8_t)a, (uint8_t)b));
        }
    /* x^7 + x + 1 is irreducible: every nonzero element has an inverse */
    for (unsigned a = 1; a < 128; a++) {
        unsigned found = 0;
        for (unsigned b = 1; b < 128; b++)
            found += kmul_ref((uint8_t)a, (uint8_t)b) == 1;
        ck_assert_uint_eq(found, 1);
    }
}
END_TEST

/* L product by schoolbook multiplication and long division by
 * f = X^37 + X^12 + X^10 + X^2 + 1 (coefficient list, not shifts). */
static void lmul_ref(sflash_l *r, const sflash_l *a, const sflash_l *b)
{
    uint8_t p[2 * N - 1] = {0};
    static const unsigned low[] = {0, 2, 10, 12};
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++)
            p[i + j] ^= kmul_ref(a->c[i], b->c[j]);
    for (int d = 2 * N - 2; d >= N; d--) {
        uint8_t q = p[d];
        p[d] = 0;
        for (unsigned t = 0; t < 4; t++)
            p[d - N + low[t]] ^= q;
    }
    memcpy(r->c, p, N);
}

START_TEST(t_lmul)
{
    for (int it = 0; it < 300; it++) {
        sflash_l a, b, r1, r2;
        rnd_l(&a);
        rnd_l(&b);
        sflash_lmul(&r1, &a, &b);
        lmul_ref(&r2, &a, &b);
        ck_assert_mem_eq(r1.c, r2.c, N);
    }
}
END_TEST

/* X^(2^37) = X mod f, and f(0) = f(1) = 1: as 37 is prime, f is
 * irreducible over GF(2), hence over K (gcd(37, 7) = 1). */
START_TEST(t_irreducible)
{
    const uint64_t f = (1ull << 37) | (1ull << 12) | (1ull << 10) | (1ull << 2) | 1;
    uint64_t x = 2;
    for (int k = 0; k < 37; k++) { /* square: bit-serial product mod f */
        uint64_t r = 0, a = x;
        for (int i = 0; i < 37; i++) {
            if ((x >> i) & 1)
                r ^= a;
            a <<= 1;
            if (a >> 37)
                a ^= f;
        }
        x = r;
    }
    ck_assert_uint_eq(x, 2);
    ck_assert_uint_eq(__builtin_popcountll(f) % 2, 1); /* f(1) = 1 */
}
END_TEST

START_TEST(t_frobenius)
{
    for (int it = 0; it < 50; it++) {
        sflash_l a, p, f1, f11, t;
        rnd_l(&a);
        p = a;
        for (int k = 0; k < 7; k++) /* a^128 by squaring */
            lmul_ref(&p, &p, &p);
        sflash_frob(&f1, &a, 1);
        ck_assert_mem_eq(f1.c, p.c, N);
        t = a;
        for (int k = 0; k < 11; k++)
            sflash_frob(&t, &t, 1);
        sflash_frob(&f11, &a, 11);
        ck_assert_mem_eq(f11.c, t.c, N);
        /* F(a) = a * a^(128^11) */
        sflash_F(&p, &a);
        lmul_ref(&t, &a, &f11);
        ck_assert_mem_eq(p.c, t.c, N);
    }
}
END_TEST

/* (128^11 + 1) h' = 1 mod (128^37 - 1), in base-128 digits. */
START_TEST(t_inverse_exponent)
{
    unsigned d[64] = {0};
    for (unsigned i = 0; i < N; i++) {
        d[i] += sflash_hinv_digits[i];
        d[i + 11] += sflash_hinv_digits[i];
    }
    for (int pass = 0; pass < 4; pass++) {
        for (unsigned i = 0; i + 1 < 64; i++) { /* carries */
            d[i + 1] += d[i] / 128;
            d[i] %= 128;
        }
        for (unsigned i = N; i < 64; i++) { /* 128^37 = 1 */
            d[i - N] += d[i];
            d[i] = 0;
        }
    }
    ck_assert_uint_eq(d[0], 1);
    for (unsigned i = 1; i < 64; i++)
        ck_assert_uint_eq(d[i], 0);
    for (int it = 0; it < 30; it++) {
        sflash_l a, b, c;
        rnd_l(&a);
        sflash_F(&b, &a);
        sflash_Finv(&c, &b);
        ck_assert_mem_eq(c.c, a.c, N);
        sflash_Finv(&b, &a);
        sflash_F(&c, &b);
        ck_assert_mem_eq(c.c, a.c, N);
    }
}
END_TEST

START_TEST(t_sha1)
{
    uint8_t msg[300], a[20], b[20], c[20];
    for (size_t len = 0; len < sizeof msg; len += 1 + len / 8) {
        for (size_t i = 0; i < len; i++)
            msg[i] = rnd8();
        sflash_sha1_bits(a, msg, 8 * len);
        SHA1(msg, len, b);
        ck_assert_mem_eq(a, b, 20);
    }
    /* bit lengths: the bits past the length do not matter, and each
     * length gives another digest */
    for (size_t nbits = 1; nbits < 600; nbits += 7) {
        for (size_t i = 0; i < 80; i++)
            msg[i] = rnd8();
        sflash_sha1_bits(a, msg, nbits);
        msg[nbits / 8] ^= (uint8_t)(0xFFu >> (nbits % 8));
        sflash_sha1_bits(b, msg, nbits);
        ck_assert_mem_eq(a, b, 20);
        sflash_sha1_bits(c, msg, nbits + 1);
        ck_assert(memcmp(a, c, 20) != 0);
    }
    /* lengths that are not whole bytes (262 is V || Delta) against OpenSSL's
     * compression function on a block padded by hand (FIPS 180-4 5.1.1):
     * the nbits bits, a 1 bit, zeros, the 64-bit length */
    static const size_t lens[] = {1, 7, 9, 100, 181, 182, 261, 262, 263, 300, 446, 447};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t nbits = lens[li];
        uint8_t blk[64] = {0};
        SHA_CTX ctx;
        for (size_t i = 0; i < 56; i++)
            msg[i] = rnd8();
        for (size_t i = 0; i < nbits; i++)
            blk[i / 8] |= (uint8_t)(((msg[i / 8] >> (7 - i % 8)) & 1) << (7 - i % 8));
        blk[nbits / 8] |= (uint8_t)(0x80u >> (nbits % 8));
        for (unsigned i = 0; i < 8; i++)
            blk[56 + i] = (uint8_t)((uint64_t)nbits >> (56 - 8 * i));
        SHA1_Init(&ctx);
        SHA1_Transform(&ctx, blk);
        const uint32_t hv[5] = {ctx.h0, ctx.h1, ctx.h2, ctx.h3, ctx.h4};
        for (unsigned i = 0; i < 20; i++)
            b[i] = (uint8_t)(hv[i / 4] >> (24 - 8 * (i % 4)));
        sflash_sha1_bits(a, msg, nbits);
        ck_assert_mem_eq(a, b, 20); /* 447: the last length in one block */
    }
}
END_TEST

/* Packing against a bit-by-bit reference, for every count 0..40. */
START_TEST(t_pack)
{
    sflash_elt v[40] = {0}, w[40];
    uint8_t b[40];
    for (size_t count = 0; count <= 40; count++) {
        for (size_t i = 0; i < count; i++)
            v[i] = rnd8() & 0x7F;
        sflash_pack(b, v, count);
        for (size_t i = 0; i < 7 * count; i++)
            ck_assert_uint_eq((b[i / 8] >> (7 - i % 8)) & 1, (v[i / 7] >> (6 - i % 7)) & 1);
        sflash_unpack(w, b, count);
        ck_assert_mem_eq(w, v, count);
    }
}
END_TEST

START_TEST(t_sizes)
{
    ck_assert_uint_eq(SFLASH_SIG_BITS, 7 * N);
    ck_assert_uint_eq(SFLASH_SIG_BYTES, (7 * N + 7) / 8);
    ck_assert_uint_eq(SFLASH_MONOMIALS, N * (N + 1) / 2 + N + 1);
    ck_assert_uint_eq(SFLASH_PK_BYTES, (7 * SFLASH_M * SFLASH_MONOMIALS + 7) / 8);
    ck_assert_uint_eq(SFLASH_SK_BYTES, (7 * 2 * (N * N + N) + 7) / 8 + 10);
    ck_assert_uint_eq(SFLASH_M + SFLASH_R, N);
}
END_TEST

static uint8_t pk[SFLASH_PK_BYTES], sk[SFLASH_SK_BYTES], pk2[SFLASH_PK_BYTES],
    sk2[SFLASH_SK_BYTES];

/* The public polynomials, evaluated from the packed key independently of
 * sflash_verify, equal the first 26 coordinates of t(F(s(x))). */
START_TEST(t_public_key)
{
    uint8_t seed[32];
    static sflash_elt coef[SFLASH_MONOMIALS * SFLASH_M];
    memset(seed, _i, sizeof seed);
    ck_assert_int_eq(sflash_keypair(pk, sk, seed), 0);
    ck_assert_int_eq(sflash_keypair(pk2, sk2, seed), 0);
    ck_assert_mem_eq(pk, pk2, SFLASH_PK_BYTES);
    ck_assert_mem_eq(sk, sk2, SFLASH_SK_BYTES);
    sflash_unpack(coef, pk, SFLASH_MONOMIALS * SFLASH_M);
    for (int it = 0; it < 20; it++) {
        sflash_elt x[N], y[N], g[SFLASH_M];
        for (unsigned i = 0; i < N; i++)
            x[i] = rnd8() & 0x7F;
        if (it == 0)
            memset(x, 0, N);
        sflash_secret_map(y, x, seed);
        /* equation e: constant; then per i, x_i and x_i x_j (j >= i) */
        for (unsigned e = 0; e < SFLASH_M; e++) {
            const sflash_elt *c = coef + (size_t)e * SFLASH_MONOMIALS;
            size_t k = 0;
            sflash_elt acc = c[k++];
            for (unsigned i = 0; i < N; i++) {
                acc ^= kmul_ref(c[k++], x[i]);
                for (unsigned j = i; j < N; j++)
                    acc ^= kmul_ref(c[k++], kmul_ref(x[i], x[j]));
            }
            ck_assert_uint_eq(k, SFLASH_MONOMIALS);
            g[e] = acc;
        }
        ck_assert_mem_eq(g, y, SFLASH_M);
    }
    seed[0] ^= 1;
    ck_assert_int_eq(sflash_keypair(pk2, sk2, seed), 0);
    ck_assert(memcmp(pk, pk2, SFLASH_PK_BYTES) != 0);
}
END_TEST

START_TEST(t_sign_verify)
{
    uint8_t seed[32], sig[SFLASH_SIG_BYTES], sig2[SFLASH_SIG_BYTES], msg[100];
    for (size_t i = 0; i < 32; i++)
        seed[i] = (uint8_t)(i * 7 + _i);
    ck_assert_int_eq(sflash_keypair(pk, sk, seed), 0);
    seed[5] ^= 0x40;
    ck_assert_int_eq(sflash_keypair(pk2, sk2, seed), 0);
    for (size_t len = 0; len < sizeof msg; len += 33) {
        for (size_t i = 0; i < len; i++)
            msg[i] = rnd8();
        ck_assert_int_eq(sflash_sign(sig, msg, len, sk), 0);
        ck_assert_int_eq(sflash_sign(sig2, msg, len, sk), 0);
        ck_assert_mem_eq(sig, sig2, SFLASH_SIG_BYTES); /* deterministic */
        ck_assert_uint_eq(sig[SFLASH_SIG_BYTES - 1] & 0x1F, 0);
        ck_assert_int_eq(sflash_verify(sig, msg, len, pk), 0);
        ck_assert_int_ne(sflash_verify(sig, msg, len, pk2), 0); /* another key */
        if (len) {
            msg[len / 2] ^= 0x10;
            ck_assert_int_ne(sflash_verify(sig, msg, len, pk), 0);
            msg[len / 2] ^= 0x10;
            ck_assert_int_ne(sflash_verify(sig, msg, len - 1, pk), 0);
        }
    }
    /* every one of the 259 signature bits, and each pad bit */
    ck_assert_int_eq(sflash_sign(sig, msg, 40, sk), 0);
    for (unsigned bit = 0; bit < 8 * SFLASH_SIG_BYTES; bit++) {
        memcpy(sig2, sig, sizeof sig);
        sig2[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
        ck_assert_int_ne(sflash_verify(sig2, msg, 40, pk), 0);
    }
}
END_TEST

/* V = SHA-1(M) (160 bits) || the first 22 bits of SHA-1(SHA-1(M)), and
 * bits 182.. of Y = t(F(s(X))) are the first 77 bits of SHA-1(V || Delta)
 * (262 bits): the whole of Y, read from the signature through the secret
 * map, against a bit-by-bit assembly from OpenSSL's SHA-1. */
static unsigned bit_at(const uint8_t *b, size_t i) { return (b[i / 8] >> (7 - i % 8)) & 1; }

START_TEST(t_message_encoding)
{
    uint8_t seed[32], sig[SFLASH_SIG_BYTES], msg[50], m1[20], m2[20], v[23];
    for (size_t i = 0; i < 32; i++)
        seed[i] = (uint8_t)(3 * i + 1);
    ck_assert_int_eq(sflash_keypair(pk, sk, seed), 0);
    for (size_t len = 0; len < sizeof msg; len += 7) {
        for (size_t i = 0; i < len; i++)
            msg[i] = rnd8();
        SHA1(msg, len, m1);
        SHA1(m1, 20, m2);
        uint8_t bits[262], vd[33] = {0}, w[20];
        for (size_t i = 0; i < 160; i++)
            bits[i] = (uint8_t)bit_at(m1, i);
        for (size_t i = 0; i < 22; i++)
            bits[160 + i] = (uint8_t)bit_at(m2, i);
        for (size_t i = 0; i < 80; i++) /* Delta: the last 10 bytes of sk */
            bits[182 + i] = (uint8_t)bit_at(sk + SFLASH_SK_BYTES - 10, i);
        for (size_t i = 0; i < 262; i++)
            vd[i / 8] |= (uint8_t)(bits[i] << (7 - i % 8));
        ck_assert_int_eq(sflash_hash_v(v, msg, len), 0);
        ck_assert_mem_eq(v, vd, 22);
        ck_assert_uint_eq(v[22], vd[22] & 0xFC);
        sflash_sha1_bits(w, vd, 262);

        sflash_elt x[N], y[N];
        ck_assert_int_eq(sflash_sign(sig, msg, len, sk), 0);
        sflash_unpack(x, sig, N);
        sflash_secret_map(y, x, seed);
        for (size_t i = 0; i < 7 * N; i++) {
            unsigned want = i < 182 ? bits[i] : bit_at(w, i - 182);
            ck_assert_uint_eq((y[i / 7] >> (6 - i % 7)) & 1, want);
        }
    }
}
END_TEST

START_TEST(t_bad_args)
{
    uint8_t sig[SFLASH_SIG_BYTES] = {0}, seed[32] = {0};
    ck_assert_int_ne(sflash_keypair(NULL, sk, seed), 0);
    ck_assert_int_ne(sflash_sign(NULL, (const uint8_t *)"", 0, sk), 0);
    ck_assert_int_ne(sflash_sign(sig, NULL, 5, sk), 0);
    ck_assert_int_ne(sflash_verify(sig, NULL, 5, pk), 0);
    ck_assert_int_eq(sflash_sign(sig, NULL, 0, sk), 0);
    memcpy(pk2, pk, sizeof pk);
    pk2[SFLASH_PK_BYTES - 1] |= 1; /* a pad bit of the public key */
    ck_assert_int_ne(sflash_verify(sig, NULL, 0, pk2), 0);
}
END_TEST

int main(void)
{
    if (sodium_init() < 0)
        return EXIT_FAILURE;
    Suite *s = suite_create("sflash");
    TCase *tc = tcase_create("field");
    tcase_add_test(tc, t_kmul);
    tcase_add_test(tc, t_lmul);
    tcase_add_test(tc, t_irreducible);
    tcase_add_test(tc, t_frobenius);
    tcase_add_test(tc, t_inverse_exponent);
    tcase_add_test(tc, t_sha1);
    tcase_add_test(tc, t_pack);
    tcase_add_test(tc, t_sizes);
    suite_add_tcase(s, tc);
    tc = tcase_create("scheme");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, t_public_key, 0, 2);
    tcase_add_loop_test(tc, t_sign_verify, 0, 3);
    tcase_add_test(tc, t_message_encoding);
    tcase_add_test(tc, t_bad_args);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
