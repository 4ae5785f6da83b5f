/* SPDX-License-Identifier: MIT */
/*
 * The API under bad input, for all eight sets: NULL arguments, another
 * set's parameters, the backend report, error strings, hostile buffers
 * (canaries, odd addresses, exact-size copies, output tails untouched) and
 * aliased arguments.
 */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheme_util.h"

/* ---- bad inputs ---------------------------------------------------------------------------------- */

START_TEST(test_null_arguments)
{
    const tts_params *p = set(_i);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], sig[50], d[36] = {0}, out[36], seed[32] = {0}, msg[8] = {0}, sm[100];
    unsigned long long len = 0;
    make_key(p, pk, sk, 13);
    ck_assert_int_eq(tts_sign(p, sig, msg, 8, sk), TTS_OK);

    ck_assert_int_eq(tts_keypair(NULL, pk, sk), TTS_EINVAL);
    ck_assert_int_eq(tts_keypair(p, NULL, sk), TTS_EINVAL);
    ck_assert_int_eq(tts_keypair(p, pk, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_keypair_rng(NULL, pk, sk, NULL, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_keypair_rng(p, NULL, sk, NULL, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_keypair_rng(p, pk, NULL, NULL, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_keypair_from_seed(NULL, pk, sk, seed), TTS_EINVAL);
    ck_assert_int_eq(tts_keypair_from_seed(p, NULL, sk, seed), TTS_EINVAL);
    ck_assert_int_eq(tts_keypair_from_seed(p, pk, NULL, seed), TTS_EINVAL);
    ck_assert_int_eq(tts_keypair_from_seed(p, pk, sk, NULL), TTS_EINVAL);

    ck_assert_int_eq(tts_sign(NULL, sig, msg, 8, sk), TTS_EINVAL);
    ck_assert_int_eq(tts_sign(p, NULL, msg, 8, sk), TTS_EINVAL);
    ck_assert_int_eq(tts_sign(p, sig, NULL, 8, sk), TTS_EINVAL);
    ck_assert_int_eq(tts_sign(p, sig, msg, 8, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_sign_rng(NULL, sig, msg, 8, sk, NULL, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_sign_rng(p, NULL, msg, 8, sk, NULL, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_sign_rng(p, sig, NULL, 8, sk, NULL, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_sign_rng(p, sig, msg, 8, NULL, NULL, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_sign_digest(NULL, sig, d, sk, NULL, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_sign_digest(p, NULL, d, sk, NULL, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_sign_digest(p, sig, NULL, sk, NULL, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_sign_digest(p, sig, d, NULL, NULL, NULL), TTS_EINVAL);

    ck_assert_int_eq(tts_verify(NULL, sig, msg, 8, pk), TTS_EINVAL);
    ck_assert_int_eq(tts_verify(p, NULL, msg, 8, pk), TTS_EINVAL);
    ck_assert_int_eq(tts_verify(p, sig, NULL, 8, pk), TTS_EINVAL);
    ck_assert_int_eq(tts_verify(p, sig, msg, 8, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_verify_digest(NULL, sig, d, pk), TTS_EINVAL);
    ck_assert_int_eq(tts_verify_digest(p, NULL, d, pk), TTS_EINVAL);
    ck_assert_int_eq(tts_verify_digest(p, sig, NULL, pk), TTS_EINVAL);
    ck_assert_int_eq(tts_verify_digest(p, sig, d, NULL), TTS_EINVAL);

    ck_assert_int_eq(tts_pk_eval(NULL, out, sig, pk), TTS_EINVAL);
    ck_assert_int_eq(tts_pk_eval(p, NULL, sig, pk), TTS_EINVAL);
    ck_assert_int_eq(tts_pk_eval(p, out, NULL, pk), TTS_EINVAL);
    ck_assert_int_eq(tts_pk_eval(p, out, sig, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_digest(NULL, out, msg, 8), TTS_EINVAL);
    ck_assert_int_eq(tts_digest(p, NULL, msg, 8), TTS_EINVAL);
    ck_assert_int_eq(tts_digest(p, out, NULL, 8), TTS_EINVAL);
    ck_assert_int_eq(tts_sk_check(NULL, sk), TTS_EINVAL);
    ck_assert_int_eq(tts_sk_check(p, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_pk_from_sk(NULL, pk, sk), TTS_EINVAL);
    ck_assert_int_eq(tts_pk_from_sk(p, NULL, sk), TTS_EINVAL);
    ck_assert_int_eq(tts_pk_from_sk(p, pk, NULL), TTS_EINVAL);
    ck_assert_int_eq(tts_set_backend(NULL), TTS_EINVAL);

    /* NIST API: -1 */
    ck_assert_int_eq(tts_crypto_sign_keypair(NULL, pk, sk, NULL, NULL), -1);
    ck_assert_int_eq(tts_crypto_sign_keypair(p, NULL, sk, NULL, NULL), -1);
    ck_assert_int_eq(tts_crypto_sign_keypair(p, pk, NULL, NULL, NULL), -1);
    ck_assert_int_eq(tts_crypto_sign(NULL, sm, &len, msg, 8, sk, NULL, NULL), -1);
    ck_assert_int_eq(tts_crypto_sign(p, NULL, &len, msg, 8, sk, NULL, NULL), -1);
    ck_assert_int_eq(tts_crypto_sign(p, sm, NULL, msg, 8, sk, NULL, NULL), -1);
    ck_assert_int_eq(tts_crypto_sign(p, sm, &len, NULL, 8, sk, NULL, NULL), -1);
    ck_assert_int_eq(tts_crypto_sign(p, sm, &len, msg, 8, NULL, NULL, NULL), -1);
    ck_assert_int_eq(tts_crypto_sign(p, sm, &len, msg, 8, sk, NULL, NULL), 0);
    ck_assert_int_eq(tts_crypto_sign_open(NULL, out, &len, sm, len, pk), -1);
    ck_assert_int_eq(tts_crypto_sign_open(p, out, NULL, sm, len, pk), -1);
    ck_assert_int_eq(tts_crypto_sign_open(p, out, &len, NULL, len, pk), -1);
    ck_assert_int_eq(tts_crypto_sign_open(p, out, &len, sm, len, NULL), -1);
    ck_assert_int_eq(tts_crypto_sign_open(p, NULL, &len, sm, len, pk), -1);
    ck_assert_int_eq(nist[_i].keypair(NULL, sk), -1);
    ck_assert_int_eq(nist[_i].keypair(pk, NULL), -1);
    ck_assert_int_eq(nist[_i].sign(NULL, &len, msg, 8, sk), -1);
    ck_assert_int_eq(nist[_i].sign(sm, NULL, msg, 8, sk), -1);
    ck_assert_int_eq(nist[_i].sign(sm, &len, NULL, 8, sk), -1);
    ck_assert_int_eq(nist[_i].sign(sm, &len, msg, 8, NULL), -1);
    ck_assert_int_eq(nist[_i].sign(sm, &len, msg, 8, sk), 0);
    ck_assert_int_eq(nist[_i].open(out, &len, NULL, len, pk), -1);
    ck_assert_int_eq(nist[_i].open(out, &len, sm, len, NULL), -1);
    ck_assert_int_eq(nist[_i].open(NULL, &len, sm, len, pk), -1);
    ck_assert_int_eq(nist[_i].open(out, NULL, sm, len, pk), -1);

    /* NULL with length 0 is an empty message, not an error */
    ck_assert_int_eq(tts_digest(p, out, NULL, 0), TTS_OK);
    ck_assert_int_eq(tts_sign(p, sig, NULL, 0, sk), TTS_OK);
    ck_assert_int_eq(tts_verify(p, sig, NULL, 0, pk), TTS_OK);
    ck_assert_int_eq(tts_verify(p, sig, (const uint8_t *)"", 0, pk), TTS_OK);
    ck_assert_int_eq(tts_crypto_sign(p, sm, &len, NULL, 0, sk, NULL, NULL), 0);
    ck_assert_uint_eq(len, tts_params_n(p));
    ck_assert_int_eq(tts_crypto_sign_open(p, out, &len, sm, len, pk), 0);
    ck_assert_uint_eq(len, 0);
}
END_TEST

/* A handle not from the table (a zeroed block, a pointer into the middle of
 * an entry) is refused by every entry point: never a crash, and never a
 * verification that compares nothing. */
START_TEST(test_foreign_params)
{
    const tts_params *p = set(_i);
    static uint8_t pk[MAXPK], pk2[MAXPK];
    static _Alignas(64) uint8_t zero[4096];
    uint8_t sk[MAXSK], sig[50], d[36] = {0}, out[36], seed[32] = {0}, msg[8] = {0}, sm[100];
    unsigned long long len = 0;
    make_key(p, pk, sk, 13);
    ck_assert_int_eq(tts_sign(p, sig, msg, 8, sk), TTS_OK);
    ck_assert_int_eq(tts_crypto_sign(p, sm, &len, msg, 8, sk, NULL, NULL), 0);
    const tts_params *bad[] = {
        (const tts_params *)zero,
        (const tts_params *)((const char *)p + 8),
        (const tts_params *)((const char *)p + 1),
    };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        const tts_params *f = bad[b];
        ck_assert_ptr_null(tts_params_name(f));
        ck_assert_uint_eq(tts_pk_bytes(f), 0);
        ck_assert_uint_eq(tts_sk_bytes(f), 0);
        ck_assert_uint_eq(tts_sig_bytes(f), 0);
        ck_assert_uint_eq(tts_digest_bytes(f), 0);
        ck_assert_uint_eq(tts_params_m(f), 0);
        ck_assert_uint_eq(tts_params_n(f), 0);
        ck_assert_uint_eq(tts_params_v(f), 0);
        ck_assert_uint_eq(tts_params_a(f), 0);
        ck_assert_uint_eq(tts_params_b(f), 0);
        ck_assert_uint_eq(tts_params_coeffs(f), 0);
        ck_assert_uint_eq(tts_keypair_workspace_bytes(f), 0);
        ck_assert_int_eq(tts_verify(f, sig, msg, 8, pk), TTS_EINVAL);
        ck_assert_int_eq(tts_verify_digest(f, sig, d, pk), TTS_EINVAL);
        ck_assert_int_eq(tts_crypto_sign_open(f, out, &len, sm, len, pk), -1);
        ck_assert_int_eq(tts_sign(f, sig, msg, 8, sk), TTS_EINVAL);
        ck_assert_int_eq(tts_sign_rng(f, sig, msg, 8, sk, NULL, NULL), TTS_EINVAL);
        ck_assert_int_eq(tts_sign_digest(f, sig, d, sk, NULL, NULL), TTS_EINVAL);
        ck_assert_int_eq(tts_crypto_sign(f, sm, &len, msg, 8, sk, NULL, NULL), -1);
        ck_assert_int_eq(tts_pk_eval(f, out, sig, pk), TTS_EINVAL);
        ck_assert_int_eq(tts_digest(f, out, msg, 8), TTS_EINVAL);
        ck_assert_int_eq(tts_sk_check(f, sk), TTS_EINVAL);
        ck_assert_int_eq(tts_pk_from_sk(f, pk2, sk), TTS_EINVAL);
        ck_assert_int_eq(tts_pk_from_sk_ws(f, pk2, sk, pk2, sizeof pk2), TTS_EINVAL);
        ck_assert_int_eq(tts_keypair(f, pk2, sk), TTS_EINVAL);
        ck_assert_int_eq(tts_keypair_rng(f, pk2, sk, NULL, NULL), TTS_EINVAL);
        ck_assert_int_eq(tts_keypair_from_seed(f, pk2, sk, seed), TTS_EINVAL);
        ck_assert_int_eq(tts_keypair_from_seed_ws(f, pk2, sk, seed, pk2, sizeof pk2),
                         TTS_EINVAL);
        ck_assert_int_eq(tts_crypto_sign_keypair(f, pk2, sk, NULL, NULL), -1);
    }
    /* the real handle still works, and the key was not touched */
    ck_assert_int_eq(tts_verify(p, sig, msg, 8, pk), TTS_OK);
}
END_TEST

START_TEST(test_backend)
{
    const char *before = tts_backend();
    ck_assert_ptr_nonnull(before);
    ck_assert_int_eq(tts_set_backend("nope"), TTS_EBACKEND);
    ck_assert_int_eq(tts_set_backend(""), TTS_EBACKEND);
    ck_assert_int_eq(tts_set_backend("ref "), TTS_EBACKEND);
    ck_assert_int_eq(tts_set_backend(NULL), TTS_EINVAL);
    ck_assert_str_eq(tts_backend(), before); /* unchanged by the failures */
    ck_assert_int_eq(tts_set_backend("ref"), TTS_OK);
    ck_assert_str_eq(tts_backend(), "ref");
    ck_assert_ptr_eq(tts_kernels_get(), &tts_kernels_ref);
    ck_assert_str_eq(tts_kernels_get()->name, "ref");
}
END_TEST

START_TEST(test_strerror)
{
    static const int codes[] = {TTS_OK, TTS_EINVAL, TTS_EBADSIG, TTS_EKEY,
                                TTS_ERETRY, TTS_EBACKEND, TTS_ERNG, TTS_ENOMEM,
                                TTS_EFORMAT};
    static const int unknown[] = {1, -9, 42, -1000, INT_MIN, INT_MAX};
    const size_t nc = sizeof codes / sizeof codes[0];
    /* the values of SPEC 10 */
    ck_assert_int_eq(TTS_OK, 0);
    ck_assert_int_eq(TTS_EINVAL, -1);
    ck_assert_int_eq(TTS_EBADSIG, -2);
    ck_assert_int_eq(TTS_EKEY, -3);
    ck_assert_int_eq(TTS_ERETRY, -4);
    ck_assert_int_eq(TTS_EBACKEND, -5);
    ck_assert_int_eq(TTS_ERNG, -6);
    ck_assert_int_eq(TTS_ENOMEM, -7);
    ck_assert_int_eq(TTS_EFORMAT, -8);
    for (size_t i = 0; i < nc; i++) {
        const char *si = tts_strerror(codes[i]);
        ck_assert_ptr_nonnull(si);
        ck_assert_uint_gt(strlen(si), 0);
        for (size_t j = 0; j < i; j++)
            ck_assert_str_ne(si, tts_strerror(codes[j]));
        for (size_t u = 0; u < sizeof unknown / sizeof unknown[0]; u++)
            ck_assert_str_ne(si, tts_strerror(unknown[u]));
    }
    for (size_t u = 0; u < sizeof unknown / sizeof unknown[0]; u++) {
        ck_assert_ptr_nonnull(tts_strerror(unknown[u]));
        ck_assert_uint_gt(strlen(tts_strerror(unknown[u])), 0);
    }
}
END_TEST

/* ---- hostile buffers -------------------------------------------------------------------------- */

#define GUARD 64

/* len bytes at an odd address, between GUARD canary bytes on each side */
static uint8_t *guarded(size_t len)
{
    uint8_t *base = malloc(len + 2 * GUARD + 1);
    ck_assert_ptr_nonnull(base);
    for (size_t i = 0; i < len + 2 * GUARD + 1; i++)
        base[i] = (uint8_t)(0xA5 ^ i);
    return base + GUARD + 1;
}

static void guard_check(uint8_t *p, size_t len, const char *what)
{
    uint8_t *base = p - GUARD - 1;
    for (size_t i = 0; i < GUARD + 1; i++)
        ck_assert_msg(base[i] == (uint8_t)(0xA5 ^ i), "%s: canary before the buffer hit", what);
    for (size_t i = GUARD + 1 + len; i < len + 2 * GUARD + 1; i++)
        ck_assert_msg(base[i] == (uint8_t)(0xA5 ^ i), "%s: canary after the buffer hit", what);
    free(base);
}

/* an exact-size heap copy: memcheck reports any read past either end */
static uint8_t *exact(const uint8_t *src, size_t len)
{
    uint8_t *p = malloc(len ? len : 1);
    ck_assert_ptr_nonnull(p);
    memcpy(p, src, len);
    return p;
}

START_TEST(test_hostile_buffers)
{
    const tts_params *p = set(_i);
    const size_t pkb = tts_pk_bytes(p), skb = tts_sk_bytes(p);
    const unsigned m = tts_params_m(p), n = tts_params_n(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], seed[32], msgbuf[100];
    unsigned long long smlen = 0, mlen = 0;
    trng r;
    for (unsigned i = 0; i < 32; i++)
        seed[i] = (uint8_t)(3 * i + 1);
    for (unsigned i = 0; i < sizeof msgbuf; i++)
        msgbuf[i] = (uint8_t)i;
    ck_assert_int_eq(tts_keypair_from_seed(p, pk, sk, seed), TTS_OK);

    /* key generation into unaligned guarded buffers */
    uint8_t *gpk = guarded(pkb), *gsk = guarded(skb), *gseed = exact(seed, 32);
    ck_assert_int_eq(tts_keypair_from_seed(p, gpk, gsk, gseed), TTS_OK);
    ck_assert_mem_eq(gpk, pk, pkb);
    ck_assert_mem_eq(gsk, sk, skb);
    guard_check(gpk, pkb, "keypair_from_seed pk");
    guard_check(gsk, skb, "keypair_from_seed sk");
    free(gseed);
    gpk = guarded(pkb);
    gsk = guarded(skb);
    trng_init(&r, 1, 32);
    ck_assert_int_eq(tts_keypair_rng(p, gpk, gsk, trng_fn, &r), TTS_OK);
    guard_check(gpk, pkb, "keypair_rng pk");
    guard_check(gsk, skb, "keypair_rng sk");

    /* pk_from_sk */
    uint8_t *xsk = exact(sk, skb);
    gpk = guarded(pkb);
    ck_assert_int_eq(tts_pk_from_sk(p, gpk, xsk), TTS_OK);
    ck_assert_mem_eq(gpk, pk, pkb);
    guard_check(gpk, pkb, "pk_from_sk");

    /* signing from exact-size inputs into guarded outputs */
    uint8_t *xmsg = exact(msgbuf, 33), *gsig = guarded(n);
    trng_init(&r, 2, tts_params_v(p));
    ck_assert_int_eq(tts_sign_rng(p, gsig, xmsg, 33, xsk, trng_fn, &r), TTS_OK);
    uint8_t *xpk = exact(pk, pkb), *xsig = exact(gsig, n);
    guard_check(gsig, n, "sign sig");
    ck_assert_int_eq(tts_verify(p, xsig, xmsg, 33, xpk), TTS_OK);
    free(xsig);

    uint8_t d[36];
    ck_assert_int_eq(tts_digest(p, d, msgbuf, 33), TTS_OK);
    uint8_t *xd = exact(d, m);
    gsig = guarded(n);
    ck_assert_int_eq(tts_sign_digest(p, gsig, xd, xsk, NULL, NULL), TTS_OK);
    ck_assert_int_eq(tts_verify_digest(p, gsig, xd, xpk), TTS_OK);
    guard_check(gsig, n, "sign_digest sig");

    /* digest and pk_eval outputs */
    uint8_t *gd = guarded(m);
    ck_assert_int_eq(tts_digest(p, gd, xmsg, 33), TTS_OK);
    ck_assert_mem_eq(gd, d, m);
    guard_check(gd, m, "digest");
    uint8_t *xw = exact(msgbuf, n);
    gd = guarded(m);
    ck_assert_int_eq(tts_pk_eval(p, gd, xw, xpk), TTS_OK);
    guard_check(gd, m, "pk_eval");
    free(xw);

    /* crypto_sign: sm exactly mlen + n bytes; then open into a guarded m */
    uint8_t *gsm = guarded(33 + n);
    ck_assert_int_eq(nist[_i].sign(gsm, &smlen, xmsg, 33, xsk), 0);
    ck_assert_uint_eq(smlen, 33 + n);
    uint8_t *xsm = exact(gsm, 33 + n);
    guard_check(gsm, 33 + n, "crypto_sign sm");
    uint8_t *gm = guarded(33);
    ck_assert_int_eq(nist[_i].open(gm, &mlen, xsm, smlen, xpk), 0);
    ck_assert_uint_eq(mlen, 33);
    ck_assert_mem_eq(gm, msgbuf, 33);
    guard_check(gm, 33, "crypto_sign_open m");
    /* generic form, empty message: sm is exactly n bytes */
    gsm = guarded(n);
    trng_init(&r, 3, tts_params_v(p));
    ck_assert_int_eq(tts_crypto_sign(p, gsm, &smlen, xmsg, 0, xsk, trng_fn, &r), 0);
    ck_assert_uint_eq(smlen, n);
    guard_check(gsm, n, "crypto_sign sm (empty message)");

    free(xsm);
    free(xd);
    free(xmsg);
    free(xsk);
    free(xpk);
}
END_TEST

START_TEST(test_aliasing)
{
    /* in-place uses that the API allows: signature over the digest buffer
     * (sig and digest share memory), digest in place over the message */
    const tts_params *p = set(_i);
    const unsigned m = tts_params_m(p), n = tts_params_n(p);
    static uint8_t pk[MAXPK];
    uint8_t sk[MAXSK], buf[64], d[36], msg[64];
    trng r1, r2;
    uint8_t sig[50];
    make_key(p, pk, sk, 14);
    for (unsigned i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 5);
    ck_assert_int_eq(tts_digest(p, d, msg, sizeof msg), TTS_OK);
    memcpy(buf, msg, sizeof msg);
    ck_assert_int_eq(tts_digest(p, buf, buf, sizeof msg), TTS_OK);
    ck_assert_mem_eq(buf, d, m);
    /* sig written over its own digest */
    trng_init(&r1, 5, tts_params_v(p));
    trng_init(&r2, 5, tts_params_v(p));
    ck_assert_int_eq(tts_sign_digest(p, sig, d, sk, trng_fn, &r1), TTS_OK);
    memcpy(buf, d, m);
    ck_assert_int_eq(tts_sign_digest(p, buf, buf, sk, trng_fn, &r2), TTS_OK);
    ck_assert_mem_eq(buf, sig, n);
    ck_assert_int_eq(tts_verify_digest(p, buf, d, pk), TTS_OK);
}
END_TEST

static Suite *api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc;

    tc = tcase_create("api");
    tcase_add_loop_test(tc, test_null_arguments, 0, 8);
    tcase_add_loop_test(tc, test_foreign_params, 0, 8);
    tcase_add_test(tc, test_backend);
    tcase_add_test(tc, test_strerror);
    tcase_add_loop_test(tc, test_hostile_buffers, 0, 8);
    tcase_add_loop_test(tc, test_aliasing, 0, 8);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(api_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
