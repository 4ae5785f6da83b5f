/* SPDX-License-Identifier: MIT */
/* tts-challenge estimate: the security estimator's figures per set, as a
 * table or JSON (challenge/estimate.c computes them; tools/challenge_cli.h). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "challenge.h"
#include "sflash_break.h"
#include "tts.h"

#include "challenge_cli.h"

static void json_hybrid(const char *key, const chal_hybrid *h)
{
    printf("\"%s\": {\"bits\": %.1f, \"k\": %u, \"nvars\": %u, "
           "\"dreg\": %u}", key, h->bits, h->k, h->nv, h->dreg);
}

static void json_linear(const char *key, const chal_linear_attack *l)
{
    printf("\"%s\": {\"bits\": %.1f, \"forms\": %u, \"rank\": %u, "
           "\"slice\": %u, \"rows\": %u, \"unknowns\": %llu, \"row_weight\": %u}",
           key, l->bits, l->forms, l->rank, l->slice, l->rows, l->unknowns,
           l->row_weight);
}

/* SFLASH(26,37): no model, the attack itself (challenge/sflash_break.h)
 * run on the instance key of a fixed master seed (all zero), timed on
 * this machine, with its linear algebra's sizes. */
static int estimate_sflash(int json, int first)
{
    static const uint8_t master[CHAL_MASTER_BYTES];
    const int set = chal_set_sflash();
    uint8_t seed[TTS_SEED_BYTES], pk[CHAL_SFLASH_PK_BYTES];
    char err[512];
    chal_instance_seed(seed, master, set);
    if (chal_set_public_key(set, pk, seed, err, sizeof err) != CHAL_OK)
        return cli_fail("estimate: %s", err);
    chal_cstar_map *P = malloc(sizeof *P);
    chal_sflash_key *k = malloc(sizeof *k);
    chal_sflash_report r;
    int rc = P && k && chal_sflash_pk_decode(P, pk, sizeof pk, err, sizeof err) == CHAL_OK
                 ? chal_sflash_break(P, &(chal_sflash_opts){.seed = seed}, k, &r, err,
                                     sizeof err)
                 : CHAL_ERROR;
    if (k)
        sodium_memzero(k, sizeof *k);
    free(P);
    free(k);
    if (rc != CHAL_OK)
        return cli_fail("estimate: %s: the attack failed on its own key: %s",
                        CHAL_SFLASH_NAME, err);
    if (json)
        printf("%s\n    {\"set\": \"%s\", \"status\": \"broken\", \"m\": %d, \"n\": %d, "
               "\"field\": \"GF(128)\",\n     \"key_only_break\": {\"attack\": "
               "\"Dubois-Fouque-Shamir-Stern 2007\", \"measured_seconds\": %.3f, "
               "\"unknowns\": %zu, \"equations\": %zu, \"rank\": %u, \"kernel_dim\": %u, "
               "\"relations\": %u}}",
               first ? "" : ",", CHAL_SFLASH_NAME, CHAL_SFLASH_M, CHAL_SFLASH_N,
               r.total_seconds, r.unknowns, r.equations, r.rank1, r.kernel_dim, r.rel_dim);
    else
        printf("%-13s broken: no model, the attack run here: the key-only forger "
               "(Dubois-Fouque-Shamir-Stern 2007) recovered an equivalent key in "
               "%.2f s on one core (step 1: %zu equations in %zu unknowns over "
               "GF(128), rank %u, kernel %u)\n",
               CHAL_SFLASH_NAME, r.total_seconds, r.equations, r.unknowns, r.rank1,
               r.kernel_dim);
    return ST_OK;
}

int cmd_estimate(int argc, char **argv)
{
    unsigned mask = 0;
    int json = 0;

    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--params") == 0 && i + 1 < argc) {
            if (add_params(&mask, argv[++i]) != ST_OK)
                return ST_ERROR;
        } else
            return cli_fail("estimate: unexpected argument '%s'", argv[i]);
    }
    if (!mask)
        add_params(&mask, "all");

    if (json)
        printf("{\n  \"model\": \"docs/SECURITY.md\",\n"
               "  \"unit\": \"log2 of GF(256) operations\",\n  \"sets\": [");
    else if (mask & chal_set_mask_tts()) {
        printf("# log2 of GF(256) operations. break: the key-only attack that "
               "recovers an\n# equivalent key by linear algebra in seconds to minutes (measured:\n# "
               "docs/SECURITY.md section 1);\n# rectMR: Beullens' rectangular "
               "MinRank without the slice; direct: hybrid\n# XL/F4 (k guessed, "
               "n' left, D_reg); UOV-R, RBS: hybrid XL/F4, omega = 2;\n# "
               "MinRank, HighRank, UOV: the generic structural attacks. "
               "Models: docs/SECURITY.md\n");
        printf("%-11s %7s %6s %7s %6s %6s %18s %18s %7s %8s %6s %6s %6s  %s\n",
               "set", "claimed", "prize", "exhaust", "break", "rectMR",
               "direct w=2 (k,n',D)", "w=2.81 (k,n',D)", "MinRank", "HighRank",
               "UOV", "UOV-R", "RBS", "best");
    }
    int first = 1;
    for (size_t i = 0; i < tts_params_count(); i++) {
        if (!(mask & (1u << i)))
            continue;
        const tts_params *p = tts_params_at(i);
        const chal_entry *t = chal_entry_of(p);
        if (!t)
            return cli_fail("%s is not in the challenge table",
                        tts_params_name(p));
        unsigned m = tts_params_m(p), n = tts_params_n(p);
        double exbits = chal_exhaustive_bits(p);
        chal_hybrid a, b;
        chal_mq_hybrid(m, n, &a, &b);
        chal_structural s;
        chal_structural_attacks(p, &s);
        chal_linear_attack brk, rect;
        chal_break_estimates(p, &brk, &rect);
        const struct {
            const char *name;
            double bits;
        } all[] = {
            {"break", brk.bits},     {"rectMR", rect.bits},
            {"exhaustive", exbits},  {"direct", a.bits},
            {"MinRank", s.minrank},  {"HighRank", s.highrank},
            {"UOV", s.uov},          {"UOV-R", s.uovr2.bits},
            {"RBS", s.rbs2.bits},
        };
        size_t best = 0;
        for (size_t j = 1; j < sizeof all / sizeof all[0]; j++)
            if (all[j].bits < all[best].bits)
                best = j;
        if (json) {
            printf("%s\n    {\"set\": \"%s\", \"m\": %u, \"n\": %u, "
                   "\"v\": %u, \"a\": %u, \"b\": %u, "
                   "\"claimed_bits\": %u, \"prize_usd\": %u,\n"
                   "     \"exhaustive_bits\": %.1f,\n     ",
                   first ? "" : ",", tts_params_name(p), m, n,
                   tts_params_v(p), tts_params_a(p), tts_params_b(p),
                   t->bits, t->prize,
                   exbits);
            json_linear("key_only_break", &brk);
            printf(",\n     ");
            json_linear("rectangular_minrank", &rect);
            printf(",\n     ");
            json_hybrid("hybrid_omega2", &a);
            printf(",\n     ");
            json_hybrid("hybrid_omega2.81", &b);
            printf(",\n     \"minrank\": {\"bits\": %.1f, \"q_exponent\": %u},"
                   "\n     \"highrank\": {\"bits\": %.1f, \"q_exponent\": %u},"
                   "\n     \"uov\": {\"bits\": %.1f, \"q_exponent\": %u},"
                   "\n     \"uov_reconciliation\": {\"equations\": %u, "
                   "\"unknowns\": %u, ",
                   s.minrank, s.e_mr, s.highrank, s.e_hr, s.uov, s.e_uov, m,
                   n - tts_params_b(p));
            json_hybrid("omega2", &s.uovr2);
            printf(", ");
            json_hybrid("omega2.81", &s.uovr281);
            printf("},\n     \"band_separation\": {\"equations\": %u, "
                   "\"unknowns\": %u, ", n + m - 1, n);
            json_hybrid("omega2", &s.rbs2);
            printf(", ");
            json_hybrid("omega2.81", &s.rbs281);
            printf("},\n     \"best\": {\"bits\": %.1f, \"attack\": \"%s\"}}",
                   all[best].bits, all[best].name);
        } else {
            char s2[40], s3[40];
            snprintf(s2, sizeof s2, "%.1f (%u,%u,%u)", a.bits, a.k, a.nv,
                     a.dreg);
            snprintf(s3, sizeof s3, "%.1f (%u,%u,%u)", b.bits, b.k, b.nv,
                     b.dreg);
            printf("%-11s %7u %6u %7.1f %6.1f %6.1f %18s %18s %7.1f %8.1f %6.1f %6.1f "
                   "%6.1f  %.1f %s\n",
                   tts_params_name(p), t->bits,
                   t->prize, exbits, brk.bits, rect.bits, s2, s3, s.minrank,
                   s.highrank, s.uov, s.uovr2.bits, s.rbs2.bits,
                   all[best].bits, all[best].name);
        }
        first = 0;
    }
    if ((mask >> chal_set_sflash()) & 1 &&
        estimate_sflash(json, first) != ST_OK)
        return ST_ERROR;
    if (json)
        printf("\n  ]\n}\n");
    return ST_OK;
}
