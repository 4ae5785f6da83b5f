/* SPDX-License-Identifier: MIT */
/*
 * The scheme: key generation, the public map, the central map and its
 * inversion, signing, verification, the NIST API and key checks, for all
 * eight sets (the API's bad inputs and hostile buffers: tests/test_api.c).
 * Expected values come from the naive oracle (tests/oracle.c, written from
 * docs/SPEC.md), from libsodium's SHA-512 and ChaCha20, or from published
 * test vectors.
 */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheme_util.h"

/* ---- key generation ------------------------------------------------------------- */

START_TEST(test_keygen_deterministic)
{
    const tts_params *p = set(_i);
    static uint8_t pk1[MAXPK], pk2[MAXPK], pk3[MAXPK], pk4[MAXPK];
    uint8_t sk1[MAXSK], sk2[MAXSK], sk3[MAXSK];
    uint8_t seed[TTS_SEED_BYTES];
    const size_t pkb = tts_pk_bytes(p), skb = tts_sk_bytes(p);

    memset(seed, 0x42, sizeof seed);
    ck_assert_int_eq(tts_keypair_from_seed(p, pk1, sk1, seed), TTS_OK);
    ck_assert_int_eq(tts_keypair_from_seed(p, pk2, sk2, seed), TTS_OK);
    ck_assert_mem_eq(pk1, pk2, pkb);
    ck_assert_mem_eq(sk1, sk2, skb);
    /* one bit of seed changes everything */
    seed[31] ^= 0x80;
    ck_assert_int_eq(tts_keypair_from_seed(p, pk3, sk3, seed), TTS_OK);
    ck_assert(memcmp(pk1, pk3, pkb) != 0);
    ck_assert(memcmp(sk1, sk3, skb) != 0);
    ck_assert(memcmp(sk1, sk3, (size_t)tts_params_m(p) * tts_params_m(p)) != 0);
    /* well formed, and the public key is a function of the secret key */
    ck_assert_int_eq(tts_sk_check(p, sk1), TTS_OK);
    ck_assert_int_eq(tts_sk_check(p, sk3), TTS_OK);
    ck_assert_int_eq(tts_pk_from_sk(p, pk4, sk1), TTS_OK);
    ck_assert_mem_eq(pk4, pk1, pkb);
    ck_assert_int_eq(tts_pk_from_sk(p, pk4, sk3), TTS_OK);
    ck_assert_mem_eq(pk4, pk3, pkb);
}
END_TEST

START_TEST(test_keygen_oracle)
{
    /* the whole key pair against the oracle's key generation (SPEC 6) and
     * the oracle's interpolation of P (SPEC 5.4): every byte */
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    static uint8_t pk[MAXPK], opk[MAXPK];
    uint8_t sk[MAXSK], osk[MAXSK], seed[TTS_SEED_BYTES];
    or_prng r;
    or_prng_seed(&r, 0x6b657967 + (uint64_t)_i);
    for (unsigned rep = 0; rep < 2; rep++) {
        or_prng_bytes(&r, seed, sizeof seed);
        if (rep == 1)
            memset(seed, 0, sizeof seed);
        ck_assert_int_eq(tts_keypair_from_seed(p, pk, sk, seed), TTS_OK);
        or_keygen(&s, opk, osk, seed);
        ck_assert_mem_eq(sk, osk, or_sk_bytes(&s));
        ck_assert_mem_eq(pk, opk, or_pk_bytes(&s));
    }
}
END_TEST

START_TEST(test_keygen_fields)
{
    /* SPEC 6: coefficients are never zero; S1, S3, s3 keep zero bytes */
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK];
    size_t zeros_S = 0;
    for (unsigned k = 0; k < 16; k++) {
        make_key(p, pk, sk, k);
        const uint8_t *coef = sk + or_off_coef(&s);
        for (size_t t = 0; t < or_coeffs(&s); t++)
            ck_assert_msg(coef[t] != 0, "key %u: coefficient %zu is zero", k, t);
        for (size_t i = 0; i < or_off_coef(&s); i++)
            zeros_S += sk[i] == 0;
        ck_assert(or_sk_valid(&s, sk));
    }
    /* 16 keys hold 16 (m^2 + n^2 + n) >= 12000 stream bytes: ~1/256 zero */
    ck_assert_uint_gt(zeros_S, 10);
}
END_TEST

START_TEST(test_keypair_rng)
{
    /* tts_keypair_rng draws the seed with exactly one 32-byte call and is
     * then tts_keypair_from_seed; a failing source gives TTS_ERNG */
    const tts_params *p = set(_i);
    static uint8_t pk1[MAXPK], pk2[MAXPK];
    uint8_t sk1[MAXSK], sk2[MAXSK];
    trng r;
    unsigned fails = 0;
    trng_init(&r, 0x7365656400 + (uint64_t)_i, TTS_SEED_BYTES);
    ck_assert_int_eq(tts_keypair_rng(p, pk1, sk1, trng_fn, &r), TTS_OK);
    ck_assert_uint_eq(r.calls, 1);
    ck_assert_uint_eq(r.bad_len, 0);
    ck_assert_int_eq(tts_keypair_from_seed(p, pk2, sk2, r.log[0]), TTS_OK);
    ck_assert_mem_eq(pk1, pk2, tts_pk_bytes(p));
    ck_assert_mem_eq(sk1, sk2, tts_sk_bytes(p));
    /* NIST form with an explicit source */
    trng_init(&r, 0x7365656400 + (uint64_t)_i, TTS_SEED_BYTES);
    ck_assert_int_eq(tts_crypto_sign_keypair(p, pk2, sk2, trng_fn, &r), 0);
    ck_assert_uint_eq(r.calls, 1);
    ck_assert_mem_eq(pk1, pk2, tts_pk_bytes(p));
    ck_assert_mem_eq(sk1, sk2, tts_sk_bytes(p));
    /* failing source */
    ck_assert_int_eq(tts_keypair_rng(p, pk1, sk1, rng_fail, &fails), TTS_ERNG);
    ck_assert_uint_eq(fails, 1);
    ck_assert_int_eq(tts_crypto_sign_keypair(p, pk1, sk1, rng_fail, &fails), -1);
    ck_assert_uint_eq(fails, 2);
    /* the system source: two different, well-formed keys */
    ck_assert_int_eq(tts_keypair(p, pk1, sk1), TTS_OK);
    ck_assert_int_eq(tts_keypair_rng(p, pk2, sk2, NULL, NULL), TTS_OK);
    ck_assert(memcmp(sk1, sk2, tts_sk_bytes(p)) != 0);
    ck_assert_int_eq(tts_sk_check(p, sk1), TTS_OK);
    ck_assert_int_eq(tts_sk_check(p, sk2), TTS_OK);
}
END_TEST

/* ---- the public map ---------------------------------------------------------------- */

START_TEST(test_public_map)
{
    /* tts_pk_eval(pk, w) = A1 (F(A3 w + c3) + s1), computed by the oracle
     * from the secret key alone; P(0) = 0; s1 = F(A3 s3) */
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], w[50], got[36], want[36], alt[36], y[36];
    or_key k;
    or_prng r;
    make_key(p, pk, sk, 1);
    ck_assert(or_expand(&k, &s, sk));
    or_central(&s, y, k.c3, k.coef);
    ck_assert_mem_eq(y, sk + or_off_s1(&s), s.m);

    memset(w, 0, sizeof w);
    ck_assert_int_eq(tts_pk_eval(p, got, w, pk), TTS_OK);
    for (unsigned i = 0; i < s.m; i++)
        ck_assert_uint_eq(got[i], 0);
    or_public(&k, want, w);
    for (unsigned i = 0; i < s.m; i++)
        ck_assert_uint_eq(want[i], 0);

    or_prng_seed(&r, 0x7075626c + (uint64_t)_i);
    for (unsigned it = 0; it < 100; it++) {
        or_prng_bytes(&r, w, s.n);
        if (it % 4 == 1) /* sparse inputs */
            for (unsigned i = 0; i < s.n; i++)
                if (w[i] & 3)
                    w[i] = 0;
        ck_assert_int_eq(tts_pk_eval(p, got, w, pk), TTS_OK);
        or_public(&k, want, w);
        or_pk_eval(&s, alt, w, pk);
        ck_assert_mem_eq(got, want, s.m);
        ck_assert_mem_eq(alt, want, s.m);
    }
}
END_TEST

START_TEST(test_pk_eval_alias)
{
    /* tts.h: pointers need not be distinct unless stated; tts_pk_eval
     * states nothing, so out may overlap w (in-place evaluation) */
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], w[50], buf[50], want[36];
    or_key k;
    or_prng r;
    make_key(p, pk, sk, 1);
    ck_assert(or_expand(&k, &s, sk));
    or_prng_seed(&r, 0x616c6961 + (uint64_t)_i);
    or_prng_bytes(&r, w, s.n);
    or_public(&k, want, w);
    memcpy(buf, w, s.n);
    ck_assert_int_eq(tts_pk_eval(p, buf, buf, pk), TTS_OK);
    ck_assert_msg(memcmp(buf, want, s.m) == 0, "tts_pk_eval(out = w) gives a wrong result");
}
END_TEST

/* ---- central map and layer solving (internal) --------------------------------------- */

START_TEST(test_central_eval)
{
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    uint8_t x[50], coef[600], got[36], want[36];
    or_prng r;
    or_prng_seed(&r, 0x63656e74 + (uint64_t)_i);
    for (unsigned it = 0; it < 300; it++) {
        or_prng_bytes(&r, x, s.n);
        or_prng_bytes(&r, coef, or_coeffs(&s));
        if (it % 3 == 1)
            for (size_t t = 0; t < or_coeffs(&s); t++)
                if (coef[t] & 1)
                    coef[t] = 0;
        if (it == 0)
            memset(coef, 0, sizeof coef);
        or_central(&s, want, x, coef);
        for (size_t b = 0; b < tts_backend_count(); b++) {
            const tts_kernels *k = tts_kernels_find(tts_backend_at(b));
            if (!k)
                continue;
            tts_central_eval(p, k, got, x, coef);
            CHECK_MEM(got, want, s.m);
        }
    }
}
END_TEST

START_TEST(test_solve_layers)
{
    /* tts_central_solve_layer against the oracle: the same verdict, and on
     * success the solved rows of F hit their targets. Binary data makes
     * singular systems frequent, so both outcomes are exercised. */
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    unsigned lo[TTS_LAYERS + 1];
    uint8_t x[50], ox[50], coef[600], target[36], y[36];
    unsigned seen[2][TTS_LAYERS] = {{0}};
    or_prng r;
    layer_vars(p, lo);
    or_prng_seed(&r, 0x736f6c76 + (uint64_t)_i);
    const unsigned l3 = (s.a + 2) * (s.v - 1), c = s.v + s.a + 2;
    for (unsigned it = 0; it < 400; it++) {
        or_prng_bytes(&r, coef, or_coeffs(&s));
        or_prng_bytes(&r, x, s.n);
        or_prng_bytes(&r, target, s.m);
        if (it % 3 == 1) { /* binary coefficients and vinegar */
            for (size_t t = 0; t < or_coeffs(&s); t++)
                coef[t] &= 1;
            for (unsigned i = 0; i < s.v; i++)
                x[i] &= 1;
        } else if (it % 3 == 2) {
            /* layer-3 row c reduced to its diagonal 1 + p_{c,1} x_0, with
             * x_0 = 1/p_{c,1} half of the time: a zero row */
            memset(coef + l3, 0, s.b + 1);
            coef[l3 + 1] = or_prng_nonzero(&r);
            x[0] = it % 2 ? or_inv(coef[l3 + 1]) : or_prng_nonzero(&r);
            (void)c;
        }
        for (unsigned L = 0; L < TTS_LAYERS; L++) {
            memcpy(ox, x, sizeof x);
            uint8_t ok = tts_central_solve_layer(p, tts_kernels_get(), L, x, target, coef);
            int ook = or_solve_layer(&s, coef, ox, target, L);
            CHECKM(ok == ook, "it %u layer %u: verdict %u, oracle %d", it, L, ok, ook);
            seen[ok][L]++;
            if (!ok)
                break;
            CHECK_MEM(x, ox, lo[L + 1]);
            or_central(&s, y, x, coef);
            CHECK_MEM(y + (lo[L] - s.v), target + (lo[L] - s.v), lo[L + 1] - lo[L]);
        }
    }
    /* both outcomes of layers 1 and 3 occurred; mu layers never fail */
    ck_assert_uint_gt(seen[1][0], 0);
    ck_assert_uint_gt(seen[0][0], 0);
    ck_assert_uint_gt(seen[1][3], 0);
    ck_assert_uint_gt(seen[0][3], 0);
    ck_assert_uint_eq(seen[0][1], 0);
    ck_assert_uint_eq(seen[0][2], 0);
}
END_TEST

/* ---- signing ------------------------------------------------------------------------ */

START_TEST(test_digest)
{
    /* SHA-512 test vectors (FIPS 180-2): "abc" and the empty string */
    static const uint8_t abc[64] = {
        0xdd, 0xaf, 0x35, 0xa1, 0x93, 0x61, 0x7a, 0xba, 0xcc, 0x41, 0x73, 0x49, 0xae,
        0x20, 0x41, 0x31, 0x12, 0xe6, 0xfa, 0x4e, 0x89, 0xa9, 0x7e, 0xa2, 0x0a, 0x9e,
        0xee, 0xe6, 0x4b, 0x55, 0xd3, 0x9a, 0x21, 0x92, 0x99, 0x2a, 0x27, 0x4f, 0xc1,
        0xa8, 0x36, 0xba, 0x3c, 0x23, 0xa3, 0xfe, 0xeb, 0xbd, 0x45, 0x4d, 0x44, 0x23,
        0x64, 0x3c, 0xe8, 0x0e, 0x2a, 0x9a, 0xc9, 0x4f, 0xa5, 0x4c, 0xa4, 0x9f};
    static const uint8_t empty[64] = {
        0xcf, 0x83, 0xe1, 0x35, 0x7e, 0xef, 0xb8, 0xbd, 0xf1, 0x54, 0x28, 0x50, 0xd6,
        0x6d, 0x80, 0x07, 0xd6, 0x20, 0xe4, 0x05, 0x0b, 0x57, 0x15, 0xdc, 0x83, 0xf4,
        0xa9, 0x21, 0xd3, 0x6c, 0xe9, 0xce, 0x47, 0xd0, 0xd1, 0x3c, 0x5d, 0x85, 0xf2,
        0xb0, 0xff, 0x83, 0x18, 0xd2, 0x87, 0x7e, 0xec, 0x2f, 0x63, 0xb9, 0x31, 0xbd,
        0x47, 0x41, 0x7a, 0x81, 0xa5, 0x38, 0x32, 0x7a, 0xf9, 0x27, 0xda, 0x3e};
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    uint8_t d[40], od[36], msg[300];
    or_prng r;
    memset(d, 0xEE, sizeof d);
    ck_assert_int_eq(tts_digest(p, d, (const uint8_t *)"abc", 3), TTS_OK);
    ck_assert_mem_eq(d, abc, s.m);
    ck_assert_uint_eq(d[s.m], 0xEE); /* exactly m bytes */
    ck_assert_int_eq(tts_digest(p, d, (const uint8_t *)"", 0), TTS_OK);
    ck_assert_mem_eq(d, empty, s.m);
    ck_assert_int_eq(tts_digest(p, d, NULL, 0), TTS_OK);
    ck_assert_mem_eq(d, empty, s.m);
    or_prng_seed(&r, 0x64696765 + (uint64_t)_i);
    for (size_t len = 0; len < sizeof msg; len += 7) {
        or_prng_bytes(&r, msg, len);
        ck_assert_int_eq(tts_digest(p, d, msg, len), TTS_OK);
        or_digest(&s, od, msg, len);
        ck_assert_mem_eq(d, od, s.m);
    }
}
END_TEST

/* messages per set for the round trips: cheaper sets get more */
static const unsigned roundtrips[8] = {600, 500, 450, 350, 300, 250, 200, 150};

START_TEST(test_roundtrip)
{
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], sig[50], msg[257], d[36], y[36];
    or_key k;
    or_prng r;
    make_key(p, pk, sk, 2);
    ck_assert(or_expand(&k, &s, sk));
    or_prng_seed(&r, 0x726f756e + (uint64_t)_i);
    for (unsigned it = 0; it < roundtrips[_i]; it++) {
        size_t len = or_prng_below(&r, 257);
        or_prng_bytes(&r, msg, len);
        CHECK_EQ(tts_sign(p, sig, msg, len, sk), TTS_OK);
        CHECK_EQ(tts_verify(p, sig, msg, len, pk), TTS_OK);
        if (it % 8 == 0) {
            /* the oracle's public map, from the secret key, agrees */
            or_digest(&s, d, msg, len);
            or_public(&k, y, sig);
            CHECK_MEM(y, d, s.m);
            /* another message does not verify */
            msg[len] = (uint8_t)it;
            CHECK_EQ(tts_verify(p, sig, msg, len + 1, pk), TTS_EBADSIG);
        }
    }
}
END_TEST

START_TEST(test_sign_digest_rng)
{
    /* detached signing with a caller rng: every call asks for v bytes, the
     * signature equals the oracle's for the vinegar of the last call, and
     * every earlier attempt was one the oracle cannot complete either */
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], sig[50], osig[50], d[36];
    unsigned total_calls = 0, sigs = 0;
    or_key k;
    trng r;
    make_key(p, pk, sk, 3);
    ck_assert(or_expand(&k, &s, sk));
    trng_init(&r, 0x64657472 + (uint64_t)_i, s.v);
    for (unsigned it = 0; it < 60; it++) {
        unsigned before = r.calls;
        or_prng_bytes(&r.prng, d, s.m);
        CHECK_EQ(tts_sign_digest(p, sig, d, sk, trng_fn, &r), TTS_OK);
        unsigned calls = r.calls - before;
        CHECK(calls >= 1);
        CHECK_EQ(r.last_len, s.v);
        CHECKM(or_sign_attempt(&k, osig, d, r.last), "oracle cannot sign with the vinegar used");
        CHECK_MEM(sig, osig, s.n);
        CHECK_EQ(tts_verify_digest(p, sig, d, pk), TTS_OK);
        total_calls += calls;
        sigs++;
    }
    ck_assert_uint_eq(r.bad_len, 0);
    /* an attempt fails with probability ~2^-7: retries are rare */
    ck_assert_uint_le(total_calls, sigs + sigs / 4 + 2);

    /* message signing with a caller rng = digest signing of SHA-512 */
    {
        trng r1, r2;
        uint8_t sig2[50];
        const uint8_t msg[] = "message signed twice";
        trng_init(&r1, 77, s.v);
        trng_init(&r2, 77, s.v);
        ck_assert_int_eq(tts_sign_rng(p, sig, msg, sizeof msg, sk, trng_fn, &r1), TTS_OK);
        or_digest(&s, d, msg, sizeof msg);
        ck_assert_int_eq(tts_sign_digest(p, sig2, d, sk, trng_fn, &r2), TTS_OK);
        ck_assert_mem_eq(sig, sig2, s.n);
        ck_assert_uint_eq(r1.calls, r2.calls);
        ck_assert_int_eq(tts_verify(p, sig, msg, sizeof msg, pk), TTS_OK);
        /* the same randomness gives the same signature; other randomness a
         * different one that verifies too */
        trng_init(&r1, 78, s.v);
        ck_assert_int_eq(tts_sign_rng(p, sig2, msg, sizeof msg, sk, trng_fn, &r1), TTS_OK);
        ck_assert(memcmp(sig, sig2, s.n) != 0);
        ck_assert_int_eq(tts_verify(p, sig2, msg, sizeof msg, pk), TTS_OK);
    }
}
END_TEST

/* The vinegar x_j = 0 (1 <= j <= v-1, j != a-v), x_{a-v} = 1 / p_{v,a-v}
 * zeroes row 0 of the layer-1 system: every entry p_{v,j} x_j vanishes and
 * the diagonal is 1 + p_{v,a-v} x_{a-v} = 0 (SPEC 4.5). x_0 stays random. */
static void degenerate_layer1(trng *r, const or_shape *s, const uint8_t *sk, unsigned calls)
{
    r->fixed_calls = calls;
    memset(r->fixed_mask, 0, sizeof r->fixed_mask);
    memset(r->fixed_mask + 1, 1, s->v - 1);
    memset(r->fixed, 0, sizeof r->fixed);
    r->fixed[s->a - s->v] = or_inv(sk[or_off_coef(s) + (s->a - s->v - 1)]);
}

START_TEST(test_sign_rng_fails)
{
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], sig[50], sm[100], d[36] = {1, 2, 3};
    unsigned fails = 0;
    trng r;
    make_key(p, pk, sk, 4);
    ck_assert_int_eq(tts_sign_digest(p, sig, d, sk, rng_fail, &fails), TTS_ERNG);
    ck_assert_uint_eq(fails, 1);
    ck_assert_int_eq(tts_sign_rng(p, sig, d, 3, sk, rng_fail, &fails), TTS_ERNG);
    ck_assert_uint_eq(fails, 2);
    ck_assert_int_eq(tts_crypto_sign(p, sm, &(unsigned long long){0}, d, 3, sk, rng_fail,
                                     &fails), -1);
    ck_assert_uint_eq(fails, 3);
    /* failure on a retry: the first vinegar makes layer 1 singular (see
     * test_sign_retry_layer1), the second call fails */
    trng_init(&r, 5, s.v);
    degenerate_layer1(&r, &s, sk, 1);
    r.fail_at = 2;
    ck_assert_int_eq(tts_sign_digest(p, sig, d, sk, trng_fn, &r), TTS_ERNG);
    ck_assert_uint_eq(r.calls, 2);
}
END_TEST

START_TEST(test_sign_retry_layer1)
{
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], sig[50], osig[50], d[36];
    or_key k;
    trng r;
    make_key(p, pk, sk, 5);
    ck_assert(or_expand(&k, &s, sk));
    memset(d, 0x33, sizeof d);

    /* always degenerate: TTS_ERETRY after exactly TTS_MAX_ATTEMPTS calls */
    trng_init(&r, 0x72657472 + (uint64_t)_i, s.v);
    degenerate_layer1(&r, &s, sk, UINT_MAX);
    memset(sig, 0xC5, sizeof sig);
    ck_assert_int_eq(tts_sign_digest(p, sig, d, sk, trng_fn, &r), TTS_ERETRY);
    ck_assert_uint_eq(r.calls, TTS_MAX_ATTEMPTS);
    ck_assert_uint_eq(r.bad_len, 0);
    ck_assert(!or_sign_attempt(&k, osig, d, r.log[0]));
    ck_assert(!or_sign_attempt(&k, osig, d, r.last));

    /* degenerate for the first 5 attempts only: the 6th signs, and the
     * signature is the oracle's for the 6th vinegar */
    trng_init(&r, 0x72657473 + (uint64_t)_i, s.v);
    degenerate_layer1(&r, &s, sk, 5);
    ck_assert_int_eq(tts_sign_digest(p, sig, d, sk, trng_fn, &r), TTS_OK);
    ck_assert_uint_eq(r.calls, 6);
    ck_assert(or_sign_attempt(&k, osig, d, r.log[5]));
    ck_assert_mem_eq(sig, osig, s.n);
    ck_assert_int_eq(tts_verify_digest(p, sig, d, pk), TTS_OK);
}
END_TEST

START_TEST(test_sign_retry_layer3)
{
    /* an imported key whose layer-3 coefficients are zero except the
     * diagonal p_{i,i-c+1}; s1 recomputed, so the key is well formed. The
     * layer-3 matrix is then diag(1 + p_{i,i-c+1} x_0), singular when
     * x_0 = 1 / p_{c,1}: with that x_0 every attempt fails. */
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    const unsigned c = s.v + s.a + 2, l3 = (s.a + 2) * (s.v - 1);
    static uint8_t pk[MAXPK], pk2[MAXPK], opk[MAXPK];
    uint8_t sk[MAXSK], sig[50], osig[50], d[36];
    uint8_t *coef = sk + or_off_coef(&s);
    or_key k;
    trng r;
    make_key(p, pk, sk, 6);
    for (unsigned i = c; i < s.n; i++)
        for (unsigned kk = 0; kk <= s.b; kk++)
            if (kk != i - c + 1)
                coef[l3 + (i - c) * (s.b + 1) + kk] = 0;
    ck_assert(or_fix_s1(&s, sk));
    ck_assert_int_eq(tts_sk_check(p, sk), TTS_OK);
    ck_assert_int_eq(tts_pk_from_sk(p, pk2, sk), TTS_OK);
    ck_assert(or_expand(&k, &s, sk));
    or_pk_interpolate(&k, opk);
    ck_assert_mem_eq(pk2, opk, or_pk_bytes(&s));
    memset(d, 0x5C, sizeof d);

    trng_init(&r, 0x6c337233 + (uint64_t)_i, s.v);
    r.fixed_calls = UINT_MAX;
    r.fixed_mask[0] = 1;
    r.fixed[0] = or_inv(coef[l3 + 1]); /* p_{c,1} */
    ck_assert_int_eq(tts_sign_digest(p, sig, d, sk, trng_fn, &r), TTS_ERETRY);
    ck_assert_uint_eq(r.calls, TTS_MAX_ATTEMPTS);
    ck_assert(!or_sign_attempt(&k, osig, d, r.log[0]));
    ck_assert(!or_sign_attempt(&k, osig, d, r.last));

    /* with free vinegar the key signs */
    trng_init(&r, 0x6c337234 + (uint64_t)_i, s.v);
    ck_assert_int_eq(tts_sign_digest(p, sig, d, sk, trng_fn, &r), TTS_OK);
    ck_assert(or_sign_attempt(&k, osig, d, r.last));
    ck_assert_mem_eq(sig, osig, s.n);
    ck_assert_int_eq(tts_verify_digest(p, sig, d, pk2), TTS_OK);
}
END_TEST

START_TEST(test_zero_coefficient_key)
{
    /* SPEC 5.3: zero central coefficients are accepted in imported keys;
     * with all of them zero F is x -> (x_v .. x_{n-1}) and signing never
     * fails */
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    static uint8_t pk[MAXPK], opk[MAXPK];
    uint8_t sk[MAXSK], sig[50], msg[40];
    or_key k;
    or_prng r;
    make_key(p, pk, sk, 7);
    memset(sk + or_off_coef(&s), 0, or_coeffs(&s));
    ck_assert_int_eq(tts_sk_check(p, sk), TTS_EKEY); /* s1 not yet fixed */
    ck_assert(or_fix_s1(&s, sk));
    ck_assert_int_eq(tts_sk_check(p, sk), TTS_OK);
    ck_assert_int_eq(tts_pk_from_sk(p, pk, sk), TTS_OK);
    ck_assert(or_expand(&k, &s, sk));
    or_pk_interpolate(&k, opk);
    ck_assert_mem_eq(pk, opk, or_pk_bytes(&s));
    or_prng_seed(&r, 0x7a65726f + (uint64_t)_i);
    for (unsigned it = 0; it < 30; it++) {
        or_prng_bytes(&r, msg, sizeof msg);
        ck_assert_int_eq(tts_sign(p, sig, msg, sizeof msg, sk), TTS_OK);
        ck_assert_int_eq(tts_verify(p, sig, msg, sizeof msg, pk), TTS_OK);
    }
}
END_TEST

/* ---- NIST API --------------------------------------------------------------------------- */

START_TEST(test_nist_api)
{
    const tts_params *p = set(_i);
    const unsigned n = tts_params_n(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], msg[200], sm[300], m2[300], buf[300];
    unsigned long long smlen, mlen;
    or_prng r;
    ck_assert_uint_eq(nist[_i].bytes, n);
    ck_assert_int_eq(nist[_i].keypair(pk, sk), 0);
    ck_assert_int_eq(tts_sk_check(p, sk), TTS_OK);
    or_prng_seed(&r, 0x6e697374 + (uint64_t)_i);
    for (unsigned it = 0; it < 20; it++) {
        unsigned long long len = it == 0 ? 0 : or_prng_below(&r, sizeof msg);
        or_prng_bytes(&r, msg, sizeof msg);
        smlen = 0;
        ck_assert_int_eq(nist[_i].sign(sm, &smlen, msg, len, sk), 0);
        ck_assert_uint_eq(smlen, len + n);
        ck_assert_mem_eq(sm, msg, (size_t)len); /* sm = m || sig */
        ck_assert_int_eq(tts_verify(p, sm + len, msg, (size_t)len, pk), TTS_OK);
        mlen = 12345;
        memset(m2, 0xAB, sizeof m2);
        ck_assert_int_eq(nist[_i].open(m2, &mlen, sm, smlen, pk), 0);
        ck_assert_uint_eq(mlen, len);
        ck_assert_mem_eq(m2, msg, (size_t)len);
        /* the generic open agrees */
        ck_assert_int_eq(tts_crypto_sign_open(p, m2, &mlen, sm, smlen, pk), 0);
        ck_assert_uint_eq(mlen, len);

        /* sm aliasing m: sign in place */
        memcpy(buf, msg, (size_t)len);
        ck_assert_int_eq(nist[_i].sign(buf, &smlen, buf, len, sk), 0);
        ck_assert_uint_eq(smlen, len + n);
        ck_assert_mem_eq(buf, msg, (size_t)len);
        ck_assert_int_eq(tts_verify(p, buf + len, msg, (size_t)len, pk), TTS_OK);
        /* open in place */
        ck_assert_int_eq(nist[_i].open(buf, &mlen, buf, smlen, pk), 0);
        ck_assert_uint_eq(mlen, len);
        ck_assert_mem_eq(buf, msg, (size_t)len);

        /* a tampered sm fails with -1: message byte, signature byte */
        if (len) {
            sm[or_prng_below(&r, (unsigned)len)] ^= or_prng_nonzero(&r);
            ck_assert_int_eq(nist[_i].open(m2, &mlen, sm, smlen, pk), -1);
            memcpy(sm, msg, (size_t)len);
        }
        sm[len + or_prng_below(&r, n)] ^= or_prng_nonzero(&r);
        ck_assert_int_eq(nist[_i].open(m2, &mlen, sm, smlen, pk), -1);
        ck_assert_int_eq(tts_crypto_sign_open(p, m2, &mlen, sm, smlen, pk), -1);
    }
    /* smlen < n fails; a truncated sm fails */
    ck_assert_int_eq(nist[_i].sign(sm, &smlen, msg, 10, sk), 0);
    for (unsigned long long l = 0; l < n; l++)
        ck_assert_int_eq(nist[_i].open(m2, &mlen, sm, l, pk), -1);
    ck_assert_int_eq(nist[_i].open(m2, &mlen, sm, smlen - 1, pk), -1);
    ck_assert_int_eq(tts_crypto_sign_open(p, m2, &mlen, sm, n - 1, pk), -1);
    ck_assert_int_eq(tts_crypto_sign_open(p, m2, &mlen, sm, 0, pk), -1);
    ck_assert_int_eq(nist[_i].open(m2, &mlen, sm, smlen, pk), 0);
}
END_TEST

START_TEST(test_nist_generic_rng)
{
    /* generic tts_crypto_sign with a caller rng = message || tts_sign_rng */
    const tts_params *p = set(_i);
    const unsigned n = tts_params_n(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], sig[50], sm[100];
    const uint8_t msg[] = "nist generic";
    unsigned long long smlen = 0;
    trng r1, r2;
    make_key(p, pk, sk, 8);
    trng_init(&r1, 99, tts_params_v(p));
    trng_init(&r2, 99, tts_params_v(p));
    ck_assert_int_eq(tts_crypto_sign(p, sm, &smlen, msg, sizeof msg, sk, trng_fn, &r1), 0);
    ck_assert_int_eq(tts_sign_rng(p, sig, msg, sizeof msg, sk, trng_fn, &r2), TTS_OK);
    ck_assert_uint_eq(smlen, sizeof msg + n);
    ck_assert_mem_eq(sm, msg, sizeof msg);
    ck_assert_mem_eq(sm + sizeof msg, sig, n);
    ck_assert_uint_eq(r1.bad_len, 0);
}
END_TEST

/* ---- tampering ------------------------------------------------------------------------------ */

START_TEST(test_tamper_signature)
{
    const tts_params *p = set(_i);
    const unsigned n = tts_params_n(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], sig[50], msg[64];
    or_prng r;
    make_key(p, pk, sk, 9);
    or_prng_seed(&r, 0x74616d70 + (uint64_t)_i);
    or_prng_bytes(&r, msg, sizeof msg);
    ck_assert_int_eq(tts_sign(p, sig, msg, sizeof msg, sk), TTS_OK);
    ck_assert_int_eq(tts_verify(p, sig, msg, sizeof msg, pk), TTS_OK);
    for (unsigned i = 0; i < n; i++) {
        for (unsigned rep = 0; rep < 4; rep++) {
            uint8_t delta = or_prng_nonzero(&r);
            sig[i] ^= delta;
            CHECKM(tts_verify(p, sig, msg, sizeof msg, pk) == TTS_EBADSIG,
                   "signature byte %u ^ %02x accepted", i, delta);
            sig[i] ^= delta;
        }
        for (unsigned bit = 0; bit < 8; bit++) {
            sig[i] ^= (uint8_t)(1u << bit);
            CHECKM(tts_verify(p, sig, msg, sizeof msg, pk) == TTS_EBADSIG,
                   "signature byte %u bit %u flipped accepted", i, bit);
            sig[i] ^= (uint8_t)(1u << bit);
        }
    }
    ck_assert_int_eq(tts_verify(p, sig, msg, sizeof msg, pk), TTS_OK);
    /* the all-zero signature verifies only the all-zero digest (P(0) = 0) */
    memset(sig, 0, sizeof sig);
    ck_assert_int_eq(tts_verify(p, sig, msg, sizeof msg, pk), TTS_EBADSIG);
    uint8_t zero[36] = {0};
    ck_assert_int_eq(tts_verify_digest(p, sig, zero, pk), TTS_OK);
}
END_TEST

START_TEST(test_tamper_message)
{
    const tts_params *p = set(_i);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], sig[50], msg[65];
    or_prng r;
    make_key(p, pk, sk, 10);
    or_prng_seed(&r, 0x6d736774 + (uint64_t)_i);
    or_prng_bytes(&r, msg, sizeof msg);
    ck_assert_int_eq(tts_sign(p, sig, msg, 64, sk), TTS_OK);
    ck_assert_int_eq(tts_verify(p, sig, msg, 64, pk), TTS_OK);
    for (unsigned i = 0; i < 64; i++) {
        uint8_t delta = or_prng_nonzero(&r);
        msg[i] ^= delta;
        CHECKM(tts_verify(p, sig, msg, 64, pk) == TTS_EBADSIG, "message byte %u changed accepted", i);
        msg[i] ^= delta;
        for (unsigned bit = 0; bit < 8; bit++) {
            msg[i] ^= (uint8_t)(1u << bit);
            CHECKM(tts_verify(p, sig, msg, 64, pk) == TTS_EBADSIG, "message bit %u.%u accepted", i, bit);
            msg[i] ^= (uint8_t)(1u << bit);
        }
    }
    /* truncated and extended messages */
    for (size_t len = 0; len < 64; len++)
        CHECK_EQ(tts_verify(p, sig, msg, len, pk), TTS_EBADSIG);
    ck_assert_int_eq(tts_verify(p, sig, msg, 65, pk), TTS_EBADSIG);
    ck_assert_int_eq(tts_verify(p, sig, msg, 64, pk), TTS_OK);
}
END_TEST

/* Public-key bytes above which test_tamper_public_key samples output
 * positions instead of trying all of them: every verification costs a full
 * evaluation of P, so the exhaustive test is quadratic in the key size
 * (with the ref kernels about 10 s for the six smaller sets together, but
 * about 30 s for TTS(32,44) and TTS(36,50)). */
#define TAMPER_EXHAUSTIVE_PK 22000

START_TEST(test_tamper_public_key)
{
    /* changing pk byte (block, k) by delta changes output k of P(sig) by
     * delta * monomial(sig): verification must fail iff the monomial is
     * nonzero. A signature with a zero coordinate is used, so both cases
     * occur. Up to TAMPER_EXHAUSTIVE_PK every byte of the key is changed;
     * above it, every monomial block is changed at 3 of its m positions
     * (one rotating, two random), and blocks whose monomial vanishes, the
     * first and the last quadratic and linear blocks at all positions. */
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    const size_t pkb = tts_pk_bytes(p), nblocks = pkb / s.m;
    const size_t nq = (size_t)s.n * (s.n + 1) / 2;
    const int exhaustive = pkb <= TAMPER_EXHAUSTIVE_PK;
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], sig[50], msg[32];
    size_t fails = 0, passes = 0, tried = 0, zero_bytes = 0, zero_blocks = 0;
    or_prng r;
    unsigned tries = 0;
    int haszero = 0;
    make_key(p, pk, sk, 11);
    or_prng_seed(&r, 0x706b7461 + (uint64_t)_i);
    /* sign until some coordinate of the signature is zero (~8-18% each) */
    do {
        or_prng_bytes(&r, msg, sizeof msg);
        ck_assert_int_eq(tts_sign(p, sig, msg, sizeof msg, sk), TTS_OK);
        haszero = memchr(sig, 0, s.n) != NULL;
    } while (!haszero && ++tries < 2000);
    ck_assert(haszero);
    ck_assert_int_eq(tts_verify(p, sig, msg, sizeof msg, pk), TTS_OK);
    for (size_t blk = 0; blk < nblocks; blk++) {
        uint8_t mono = or_monomial(&s, blk, sig);
        int all = exhaustive || mono == 0 || blk == 0 || blk == nq - 1 || blk == nq ||
                  blk == nblocks - 1;
        unsigned pick[3] = {(unsigned)(blk % s.m), or_prng_below(&r, s.m),
                            or_prng_below(&r, s.m)};
        zero_blocks += mono == 0;
        for (unsigned j = 0; j < (all ? s.m : 3u); j++) {
            unsigned k = all ? j : pick[j];
            uint8_t delta = or_prng_nonzero(&r);
            size_t at = blk * s.m + k;
            pk[at] ^= delta;
            int rc = tts_verify(p, sig, msg, sizeof msg, pk);
            pk[at] ^= delta;
            CHECKM(rc == (mono ? TTS_EBADSIG : TTS_OK),
                   "pk byte %zu (block %zu, monomial value %02x) ^ %02x: rc %d", at, blk,
                   mono, delta, rc);
            fails += rc == TTS_EBADSIG;
            passes += rc == TTS_OK;
            zero_bytes += mono == 0;
            tried++;
        }
    }
    ck_assert_uint_gt(zero_blocks, 0);
    ck_assert_uint_eq(passes, zero_bytes);
    ck_assert_uint_eq(zero_bytes, zero_blocks * s.m);
    ck_assert_uint_eq(fails + passes, tried);
    if (exhaustive)
        ck_assert_uint_eq(tried, pkb);
    ck_assert_int_eq(tts_verify(p, sig, msg, sizeof msg, pk), TTS_OK);
}
END_TEST

/* ---- secret-key checks ------------------------------------------------------------------------ */

START_TEST(test_sk_check)
{
    const tts_params *p = set(_i);
    const or_shape s = shape(p);
    const unsigned m = s.m, n = s.n;
    static uint8_t pk[MAXPK], pk2[MAXPK];
    uint8_t sk[MAXSK], bad[MAXSK];
    const size_t skb = tts_sk_bytes(p);
    or_prng r;
    make_key(p, pk, sk, 12);
    ck_assert_int_eq(tts_sk_check(p, sk), TTS_OK);
    or_prng_seed(&r, 0x736b6368 + (uint64_t)_i);

    /* every byte of s1 changed: TTS_EKEY */
    for (unsigned i = 0; i < m; i++) {
        memcpy(bad, sk, skb);
        bad[or_off_s1(&s) + i] ^= or_prng_nonzero(&r);
        ck_assert_int_eq(tts_sk_check(p, bad), TTS_EKEY);
        ck_assert_int_eq(tts_pk_from_sk(p, pk2, bad), TTS_EKEY);
    }
    /* S1 singular (row 1 = row 0); s1 still consistent: only singularity
     * is wrong */
    memcpy(bad, sk, skb);
    memcpy(bad + or_off_S1(&s) + m, bad + or_off_S1(&s), m);
    ck_assert(!or_sk_valid(&s, bad));
    ck_assert_int_eq(tts_sk_check(p, bad), TTS_EKEY);
    ck_assert_int_eq(tts_pk_from_sk(p, pk2, bad), TTS_EKEY);
    /* S1 = 0 */
    memcpy(bad, sk, skb);
    memset(bad + or_off_S1(&s), 0, (size_t)m * m);
    ck_assert_int_eq(tts_sk_check(p, bad), TTS_EKEY);
    /* S3 singular: a zero column, then two equal rows */
    memcpy(bad, sk, skb);
    for (unsigned rr = 0; rr < n; rr++)
        bad[or_off_S3(&s) + rr * n + n - 1] = 0;
    ck_assert_int_eq(tts_sk_check(p, bad), TTS_EKEY);
    memcpy(bad, sk, skb);
    memcpy(bad + or_off_S3(&s) + (n - 1) * n, bad + or_off_S3(&s), n);
    ck_assert_int_eq(tts_sk_check(p, bad), TTS_EKEY);

    /* zero central coefficients, s1 recomputed by the oracle: TTS_OK */
    memcpy(bad, sk, skb);
    memset(bad + or_off_coef(&s), 0, or_coeffs(&s));
    ck_assert(or_fix_s1(&s, bad));
    ck_assert_int_eq(tts_sk_check(p, bad), TTS_OK);
    /* any coefficients and s3, s1 recomputed: TTS_OK */
    for (unsigned it = 0; it < 10; it++) {
        memcpy(bad, sk, skb);
        or_prng_bytes(&r, bad + or_off_coef(&s), or_coeffs(&s));
        or_prng_bytes(&r, bad + or_off_s3(&s), n);
        ck_assert(or_fix_s1(&s, bad));
        ck_assert_int_eq(tts_sk_check(p, bad), TTS_OK);
    }
    /* random single-byte changes anywhere: the verdict is the oracle's
     * (a coefficient change keeps the key valid iff its product vanishes
     * at c3; an S1 change keeps it valid iff S1 stays invertible) */
    unsigned valid = 0, invalid = 0;
    for (unsigned it = 0; it < 100; it++) {
        memcpy(bad, sk, skb);
        size_t at = or_prng_below(&r, (unsigned)skb);
        bad[at] ^= or_prng_nonzero(&r);
        int want = or_sk_valid(&s, bad) ? TTS_OK : TTS_EKEY;
        CHECKM(tts_sk_check(p, bad) == want, "sk byte %zu changed: want %d", at, want);
        valid += want == TTS_OK;
        invalid += want == TTS_EKEY;
    }
    ck_assert_uint_gt(valid, 0);   /* S1 changes, mostly */
    ck_assert_uint_gt(invalid, 0);
}
END_TEST

static Suite *scheme_suite(void)
{
    Suite *s = suite_create("scheme");
    TCase *tc;

    tc = tcase_create("keygen");
    tcase_add_loop_test(tc, test_keygen_deterministic, 0, 8);
    tcase_add_loop_test(tc, test_keygen_oracle, 0, 8);
    tcase_add_loop_test(tc, test_keygen_fields, 0, 8);
    tcase_add_loop_test(tc, test_keypair_rng, 0, 8);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("publicmap");
    tcase_add_loop_test(tc, test_public_map, 0, 8);
    tcase_add_loop_test(tc, test_pk_eval_alias, 0, 8);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("central");
    tcase_add_loop_test(tc, test_central_eval, 0, 8);
    tcase_add_loop_test(tc, test_solve_layers, 0, 8);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("sign");
    tcase_add_loop_test(tc, test_digest, 0, 8);
    tcase_add_loop_test(tc, test_roundtrip, 0, 8);
    tcase_add_loop_test(tc, test_sign_digest_rng, 0, 8);
    tcase_add_loop_test(tc, test_sign_rng_fails, 0, 8);
    tcase_add_loop_test(tc, test_sign_retry_layer1, 0, 8);
    tcase_add_loop_test(tc, test_sign_retry_layer3, 0, 8);
    tcase_add_loop_test(tc, test_zero_coefficient_key, 0, 8);
    tcase_add_loop_test(tc, test_nist_api, 0, 8);
    tcase_add_loop_test(tc, test_nist_generic_rng, 0, 8);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("tamper");
    tcase_add_loop_test(tc, test_tamper_signature, 0, 8);
    tcase_add_loop_test(tc, test_tamper_message, 0, 8);
    tcase_add_loop_test(tc, test_tamper_public_key, 0, 8);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);

    tc = tcase_create("keys");
    tcase_add_loop_test(tc, test_sk_check, 0, 8);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(scheme_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
