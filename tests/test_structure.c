/* SPDX-License-Identifier: MIT */
/*
 * challenge/structure.c: the ranks of the polar forms measured on real keys
 * of the eight sets (against docs/SECURITY.md section 4 and the MinRank
 * exponent of the estimator), the toy key generator's central map against
 * the library's tables, and the toy MinRank attack, whose result is checked
 * against the toy key's secret (and must be refused against another key).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "challenge.h"

START_TEST(toy_terms_are_the_tables)
{
    for (size_t i = 0; i < tts_params_count(); i++)
        ck_assert_msg(chal_toy_terms_match(tts_params_at(i)), "%s",
                      tts_params_name(tts_params_at(i)));
    ck_assert(!chal_toy_shape_ok(5, 6, 3)); /* v odd */
    ck_assert(!chal_toy_shape_ok(4, 4, 3)); /* a <= v */
    ck_assert(!chal_toy_shape_ok(4, 8, 3)); /* a > 2v - 1 */
    ck_assert(!chal_toy_shape_ok(4, 5, 6)); /* b > a */
    ck_assert(chal_toy_shape_ok(4, 5, 3));
}
END_TEST

START_TEST(ranks_on_real_keys)
{
    static const char *gname[4] = {"layer 1", "+mu1", "+mu2", "all"};
    for (size_t i = 0; i < tts_params_count(); i++) {
        const tts_params *p = tts_params_at(i);
        unsigned m = tts_params_m(p), n = tts_params_n(p), v = tts_params_v(p);
        unsigned a = tts_params_a(p);
        uint8_t seed[TTS_SEED_BYTES];
        memset(seed, (int)(0x40 + i), sizeof seed);
        chal_rank_report r;
        ck_assert_int_eq(chal_key_ranks(p, seed, 12, &r), CHAL_OK);
        printf("# %s: exponent %u;", tts_params_name(p), r.exponent);
        for (unsigned g = 0; g < 4; g++)
            printf(" %s (%u eq, support %u): forms %u..%u, members %u..%u, "
                   "public %u..%u;", gname[g], r.oil[g], r.support[g],
                   r.form_min[g], r.form_max[g], r.comb_min[g], r.comb_max[g],
                   r.pub_min[g], r.pub_max[g]);
        printf(" random public %u..%u\n", r.random_min, r.random_max);
        unsigned want_support[4] = {v - 1 + a, v - 1 + a, v + a, n};
        for (unsigned g = 0; g < 4; g++) {
            ck_assert_uint_eq(r.support[g], want_support[g]);
            /* alternating: even ranks, at most the support rounded down */
            ck_assert_uint_eq(r.form_max[g] % 2, 0);
            ck_assert_uint_eq(r.form_min[g] % 2, 0);
            ck_assert_uint_eq(r.comb_min[g] % 2, 0);
            ck_assert_uint_eq(r.comb_max[g] % 2, 0);
            ck_assert_uint_le(r.comb_max[g], r.support[g] / 2 * 2);
        }
        /* Layer 1 and the middle forms: each 2(v - 1) (bipartite, resp. a
         * matching on 2v - 2 variables); the layer-1 members, bipartite
         * between v - 1 and a variables, stay at 2(v - 1). */
        ck_assert_uint_eq(r.form_min[0], 2 * (v - 1));
        ck_assert_uint_eq(r.form_max[0], 2 * (v - 1));
        ck_assert_uint_eq(r.form_min[1], 2 * (v - 1));
        ck_assert_uint_eq(r.form_min[2], 2 * (v - 1));
        ck_assert_uint_eq(r.comb_max[0], 2 * (v - 1));
        /* The +mu2 members reach the even part of their odd support
         * v + a... */
        ck_assert_uint_eq(r.comb_max[2], (v + a) / 2 * 2);
        ck_assert_uint_eq(r.comb_max[1], (v - 1 + a) / 2 * 2);
        ck_assert_uint_eq(r.comb_max[3], n);
        ck_assert_uint_eq(r.random_max, n);
        /* ...and the public key hides them with the same ranks. */
        ck_assert_uint_eq(r.pub_mismatch, 0);
        /* The estimator's MinRank exponent is the measured one. */
        chal_structural s;
        chal_structural_attacks(p, &s);
        ck_assert_uint_eq(r.exponent, s.e_mr);
        ck_assert_uint_eq(r.exponent, v - 2);
        (void)m;
    }
}
END_TEST

START_TEST(toy_attack_recovers_the_secret)
{
    uint8_t seed[32], seed2[32];
    memset(seed, 0x5A, sizeof seed);
    memset(seed2, 0xA5, sizeof seed2);
    chal_toy_key *k = malloc(sizeof *k), *k2 = malloc(sizeof *k2);
    chal_minrank_result *r = malloc(sizeof *r);
    char err[200];
    ck_assert_ptr_nonnull(k);
    ck_assert_ptr_nonnull(k2);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(chal_toy_keygen(k, 4, 5, 3, seed, err, sizeof err), CHAL_OK);
    ck_assert_int_eq(chal_toy_keygen(k2, 4, 5, 3, seed2, err, sizeof err), CHAL_OK);
    ck_assert_int_ne(chal_toy_keygen(k2, 4, 4, 3, seed2, err, sizeof err), CHAL_OK);
    ck_assert_int_eq(chal_toy_keygen(k2, 4, 5, 3, seed2, err, sizeof err), CHAL_OK);
    ck_assert_int_eq(chal_toy_attack(k, seed, 1ull << 23, 0, r), CHAL_OK);
    printf("# toy (4,5,3): %llu tries, %.2f s, %llu hits (layer 1 %llu, +mu1 "
           "%llu, +mu2 %llu, other %llu), span %u, kernel %u\n", r->tries,
           r->seconds, r->hits, r->by_group[0], r->by_group[1], r->by_group[2],
           r->by_group[3], r->du, r->dk);
    ck_assert_uint_eq(r->du, 7);
    ck_assert_uint_eq(r->dk, 14 - 9);
    ck_assert(r->span_ok);
    ck_assert(r->kernel_ok);
    ck_assert_uint_eq(r->by_group[3], 0);
    /* The checks can fail: another key's secret refuses the result... */
    ck_assert(!chal_toy_check_span(k2, r->U, r->du));
    ck_assert(!chal_toy_check_kernel(k2, r->K, r->dk));
    /* ...and so does a span or kernel with one vector changed. */
    r->U[3 * k->m + 2] ^= 1;
    ck_assert(!chal_toy_check_span(k, r->U, r->du));
    r->U[3 * k->m + 2] ^= 1;
    ck_assert(chal_toy_check_span(k, r->U, r->du));
    ck_assert(!chal_toy_check_span(k, r->U, r->du - 1));
    r->K[k->n + 1] ^= 7;
    ck_assert(!chal_toy_check_kernel(k, r->K, r->dk));
    free(k), free(k2), free(r);
}
END_TEST

int main(void)
{
    if (sodium_init() < 0)
        return 99;
    Suite *s = suite_create("structure");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, toy_terms_are_the_tables);
    tcase_add_test(tc, ranks_on_real_keys);
    tcase_add_test(tc, toy_attack_recovers_the_secret);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
