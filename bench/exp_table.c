/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The published tables B and C (2004; docs/SPEC.md section 12) next to a
 * quick measurement of the same schemes, and table D: today's classical
 * and post-quantum schemes beside TTS. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

/* Published figures, docs/SPEC.md section 12, tables B and C (ms). `match`
 * names the scheme measured for a row; NULL: not implemented here. */
enum { TB_ECDSA, TB_RSA, TB_SFLASH, TB_TTS };
static const struct {
    const char *name, *match;
    double ms[N_OPS];
    const char *sig, *pk, *sk;
} table_b[] = {
    [TB_ECDSA] = {"ECDSA-163", "ECDSA-sect163k1", {1.6, 1.9, 5.1}, "326 bits", "48 B", "24 B"},
    [TB_RSA] = {"RSA-PSS-1024", "RSA-PSS-1024", {2700, 84, 2.0}, "1024 bits", "128 B", "320 B"},
    [TB_SFLASH] = {"SFLASH(26,37)", "SFLASH(26,37)", {1500, 2.8, 0.39}, "259 bits", "15.4 KB", "2.4 KB"},
    [TB_TTS] = {"TTS(20,28)", "TTS(20,28)", {15.8, 0.045, 0.25}, "224 bits", "8.6 KB", "1.4 KB"},
};

/* The claims the papers draw from table B: row `slow` over row `fast` for
 * one operation, published and today. */
static const struct {
    int slow, fast, op;
} claims[] = {
    {TB_RSA, TB_TTS, OP_SIGN},     {TB_ECDSA, TB_TTS, OP_SIGN},  {TB_ECDSA, TB_TTS, OP_VERIFY},
    {TB_RSA, TB_TTS, OP_VERIFY},   {TB_RSA, TB_TTS, OP_KEYGEN},  {TB_ECDSA, TB_TTS, OP_KEYGEN},
    {TB_SFLASH, TB_TTS, OP_SIGN},  {TB_SFLASH, TB_TTS, OP_VERIFY}, {TB_SFLASH, TB_TTS, OP_KEYGEN},
};

static const struct {
    const char *name;
    double p1[N_OPS], p2[N_OPS];
} table_c[] = {
    {"TTS(16,22)", {6.2, 0.028, 0.13}, {0.9, 0.004, 0.01}},
    {"TTS(20,26)", {11.8, 0.037, 0.22}, {1.8, 0.006, 0.02}},
    {"TTS(20,28)", {15.8, 0.045, 0.25}, {2.2, 0.007, 0.02}},
    {"TTS(24,32)", {24.0, 0.057, 0.38}, {3.7, 0.009, 0.03}},
    {"TTS(24,34)", {32.8, 0.068, 0.42}, {4.4, 0.011, 0.03}},
    {"TTS(28,38)", {48.0, 0.087, 0.63}, {7.5, 0.012, 0.05}},
    {"TTS(32,44)", {89.0, 0.110, 0.94}, {13.2, 0.017, 0.07}},
    {"TTS(36,50)", {132, 0.152, 1.32}, {21.6, 0.022, 0.10}},
};

/* Table D, the post-quantum row of today: TTS (broken) in its portable
 * backend, the fair pair of PQClean's portable C, and in its best one,
 * beside the classical schemes and the post-quantum standards. backend
 * "ref" names the portable one, NULL the automatic one. */
static const struct {
    const char *name, *backend, *status;
} table_d[] = {
    {"TTS(20,28)", "ref", "broken"},        {"TTS(20,28)", NULL, "broken"},
    {"TTS(36,50)", "ref", "broken"},        {"TTS(36,50)", NULL, "broken"},
    {"SFLASH(26,37)", NULL, "broken"},      {"ECDSA-P-256", NULL, "classical"},
    {"RSA-PSS-2048", NULL, "classical"},    {"Ed25519", NULL, "classical"},
    {"ML-DSA-44", NULL, "FIPS 204"},        {"ML-DSA-65", NULL, "FIPS 204"},
    {"Falcon-512", NULL, "round 3 (FN-DSA draft)"},
    {"SPHINCS+-SHA2-128s", NULL, "round 3.1 (SLH-DSA, FIPS 205)"},
    {"SPHINCS+-SHA2-128f", NULL, "round 3.1 (SLH-DSA, FIPS 205)"},
};

static const scheme *find_in(const scheme_list *l, const char *name, const char *backend)
{
    for (size_t i = 0; name && i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0 &&
            (!backend || strcmp(l->v[i].backend, backend) == 0))
            return &l->v[i];
    return NULL;
}

/* The automatic backend's row of a TTS set (the list has it first), or the
 * one row of another scheme. */
static const scheme *find(const scheme_list *l, const char *name)
{
    return find_in(l, name, NULL);
}

/* today's median, ms */
static double ms(const scheme *sc, int op) { return sc ? sc->st_ns[op].med / 1e6 : 0; }

static void fmt_ms(char *buf, size_t len, double v)
{
    if (v <= 0)
        snprintf(buf, len, "-");
    else if (v >= 100)
        snprintf(buf, len, "%.0f", v);
    else if (v >= 1)
        snprintf(buf, len, "%.2f", v);
    else
        snprintf(buf, len, "%.4f", v);
}

/* The chart of table B: for each scheme and operation the published
 * Pentium III figure beside today's median, whose quartiles are the error
 * bar; log axis (from microseconds to seconds). */
static int plot_table(const char *dir, const scheme_list *l, const env *e)
{
    FILE *f = plot_stream(dir, "table.dat");
    if (!f)
        return -1;
    fprintf(f, "# tts-bench table: row, published ms (Pentium III 500 MHz, 2004), "
               "today median ms, today q1, today q3\n");
    for (size_t i = 0; i < COUNT(table_b); i++) {
        const scheme *sc = find(l, table_b[i].match);
        for (int op = 0; op < N_OPS; op++) {
            const stats *s = sc ? &sc->st_ns[op] : NULL;
            fprintf(f, "\"%s%s %s\" %g ", table_b[i].name, broken_mark(table_b[i].name),
                    op_names[op], table_b[i].ms[op]);
            if (s && s->med > 0)
                fprintf(f, "%g %g %g\n", s->med / 1e6, s->q1 / 1e6, s->q3 / 1e6);
            else
                fprintf(f, "NaN NaN NaN\n");
        }
    }
    if (plot_stream_close(f, dir, "table.dat") || !(f = plot_stream(dir, "table.gp")))
        return -1;
    fprintf(f, "# tts-bench table: table B published (2004) and today.\n"
               "# Data in table.dat; charts table.svg and table.png. Re-run: gnuplot table.gp\n"
               "set title \"tts-bench table: table B published (Pentium III 500 MHz, 2004) and today "
               "(median, quartiles as error bars; %s, %s)\\nTTS and SFLASH are broken: "
               "tts-challenge break forges both from the public key alone\"\n"
               "set style data histograms\n"
               "set style histogram errorbars gap 1 lw 1\n"
               "set style fill solid 0.85 border -1\n"
               "set logscale y\n"
               "set format y \"%%g\"\n"
               "set ylabel \"time, ms (log scale)\"\n"
               "set xtics rotate by -45 scale 0 nomirror\n"
               "set grid ytics\n"
               "set key top right\n"
               "set bmargin 10\n",
            e->where, e->date);
    plot_terminals(f, 1400, 700);
    fprintf(f, "  set output \"table.\" . fmt\n"
               "  plot \"table.dat\" using 2:2:2:xtic(1) title \"published (2004)\", "
               "\"\" using 3:4:5 title \"today\"\n"
               "  set output\n}\n");
    if (plot_stream_close(f, dir, "table.gp"))
        return -1;
    return plot_render(dir, "table.gp", "table.dat");
}

static void claim_label(char *buf, size_t len, size_t i)
{
    snprintf(buf, len, "%s %s / %s %s", table_b[claims[i].slow].name, op_names[claims[i].op],
             table_b[claims[i].fast].name, op_names[claims[i].op]);
}

/* Claim i: the published ratio, and today's (returns 0 if not measured). */
static int claim(const scheme_list *l, size_t i, double *pub, double *now)
{
    int op = claims[i].op;
    const scheme *a = find(l, table_b[claims[i].slow].match);
    const scheme *b = find(l, table_b[claims[i].fast].match);
    *pub = table_b[claims[i].slow].ms[op] / table_b[claims[i].fast].ms[op];
    if (!a || !b || ms(b, op) <= 0)
        return 0;
    *now = ms(a, op) / ms(b, op);
    return 1;
}

static const scheme *row_d(const scheme_list *l, size_t i)
{
    return find_in(l, table_d[i].name, table_d[i].backend);
}

static void print_table_d(const scheme_list *l, const env *e)
{
    printf("\nTable D: the post-quantum row of today, ms (medians of this run; TTS in the"
           " portable\nbackend ref, the fair pair of PQClean's portable C, and in the automatic"
           " one, %s)\n",
           e->autob);
    printf("%-19s %-10s %10s %10s %10s %7s %7s %6s  %s\n", "scheme", "backend", "keygen", "sign",
           "verify", "sig_B", "pk_B", "sk_B", "status");
    for (size_t i = 0; i < COUNT(table_d); i++) {
        const scheme *sc = row_d(l, i);
        if (!sc) {
            printf("%-19s %-10s %s\n", table_d[i].name, table_d[i].backend ? table_d[i].backend : "",
                   "not measured (skipped: see below)");
            continue;
        }
        char t[N_OPS][16];
        for (int op = 0; op < N_OPS; op++)
            fmt_ms(t[op], sizeof t[op], ms(sc, op));
        printf("%-19s %-10s %10s %10s %10s %7zu %7zu %6zu  %s\n", sc->name, sc->backend,
               t[OP_KEYGEN], t[OP_SIGN], t[OP_VERIFY], sc->sig_bytes, sc->pk_bytes, sc->sk_bytes,
               table_d[i].status);
    }
}

static void print_table(const scheme_list *l, const env *e, size_t runs)
{
    print_env(e, runs, "operation (key generation: fewer)");
    printf("# published: P1 = Pentium III 500 MHz, P2 = Pentium 4 2.4 GHz (2004);"
           " today: medians of a quick run, ms\n");
    printf("# ECDSA-163 today is sect163k1 (sect163r2 below); sizes today:"
           " raw TTS, DER/octet EC and RSA\n\n");
    printf("Table B: performance comparison (published on P1 vs today)\n");
    printf("%-15s %9s %9s  %9s %9s  %9s %9s  %10s %9s %9s  %s\n", "scheme", "keygen", "today",
           "sign", "today", "verify", "today", "sig", "pk", "sk", "sizes today (sig/pk/sk B)");
    for (size_t i = 0; i < COUNT(table_b); i++) {
        const scheme *sc = find(l, table_b[i].match);
        char pub[N_OPS][16], now[N_OPS][16], sz[48];
        for (int op = 0; op < N_OPS; op++) {
            fmt_ms(pub[op], sizeof pub[op], table_b[i].ms[op]);
            fmt_ms(now[op], sizeof now[op], ms(sc, op));
        }
        if (sc)
            snprintf(sz, sizeof sz, "%zu/%zu/%zu", sc->sig_bytes, sc->pk_bytes, sc->sk_bytes);
        else
            snprintf(sz, sizeof sz, table_b[i].match ? "skipped (not available here)"
                                                     : "not measured (not implemented)");
        printf("%-15s %9s %9s  %9s %9s  %9s %9s  %10s %9s %9s  %s\n", table_b[i].name,
               pub[OP_KEYGEN], now[OP_KEYGEN], pub[OP_SIGN], now[OP_SIGN], pub[OP_VERIFY],
               now[OP_VERIFY], table_b[i].sig, table_b[i].pk, table_b[i].sk, sz);
    }
    const scheme *r2 = find(l, "ECDSA-sect163r2");
    if (r2) {
        char t[N_OPS][16];
        for (int op = 0; op < N_OPS; op++)
            fmt_ms(t[op], sizeof t[op], ms(r2, op));
        printf("%-15s %9s %9s  %9s %9s  %9s %9s  %10s %9s %9s  %zu/%zu/%zu\n", "(sect163r2)", "",
               t[OP_KEYGEN], "", t[OP_SIGN], "", t[OP_VERIFY], "", "", "", r2->sig_bytes,
               r2->pk_bytes, r2->sk_bytes);
    }

    printf("\nClaimed ratios (published P1 vs today; >1 means TTS is faster)\n");
    printf("  %-44s %10s %12s\n", "", "published", "today");
    for (size_t i = 0; i < COUNT(claims); i++) {
        char what[64];
        double pub = 0, now = 0;
        int have = claim(l, i, &pub, &now);
        claim_label(what, sizeof what, i);
        printf("  %-44s %9.*fx", what, pub < 10 ? 2 : 1, pub);
        if (have)
            printf(" %11.*fx\n", now < 10 ? 2 : 1, now);
        else
            printf(" %12s\n", "not measured");
    }
    for (size_t i = 0; i < COUNT(table_b); i++)
        if (!table_b[i].match) {
            char what[64];
            snprintf(what, sizeof what, "%s (any ratio)", table_b[i].name);
            printf("  %-44s %10s %12s\n", what, "-", "not measured (not implemented)");
        }

    printf("\nTable C: TTS performance report, ms (P1, P2 published; today backend %s)\n",
           e->autob);
    printf("%-11s | %8s %8s %8s | %8s %8s %8s | %8s %8s %8s | %7s %7s\n", "set", "P1 setup",
           "sign", "verify", "P2 setup", "sign", "verify", "today kg", "sign", "verify", "P2/now",
           "P2/now");
    printf("%-11s | %8s %8s %8s | %8s %8s %8s | %8s %8s %8s | %7s %7s\n", "", "", "", "", "", "",
           "", "", "", "", "sign", "verify");
    for (size_t i = 0; i < COUNT(table_c); i++) {
        const scheme *sc = find(l, table_c[i].name);
        char t[N_OPS][16];
        for (int op = 0; op < N_OPS; op++)
            fmt_ms(t[op], sizeof t[op], ms(sc, op));
        printf("%-11s | %8.1f %8.3f %8.2f | %8.1f %8.3f %8.2f | %8s %8s %8s |", table_c[i].name,
               table_c[i].p1[0], table_c[i].p1[1], table_c[i].p1[2], table_c[i].p2[0],
               table_c[i].p2[1], table_c[i].p2[2], t[0], t[1], t[2]);
        if (sc && ms(sc, OP_SIGN) > 0 && ms(sc, OP_VERIFY) > 0)
            printf(" %6.1fx %6.1fx\n", table_c[i].p2[1] / ms(sc, OP_SIGN),
                   table_c[i].p2[2] / ms(sc, OP_VERIFY));
        else
            printf(" %7s %7s\n", "-", "-");
    }
    print_table_d(l, e);
    for (size_t i = 0; i < l->skipped.n; i++)
        printf("# skipped: %s\n", l->skipped.v[i]);
}

/* {"keygen": x, "sign": y, "verify": z} from published figures, or
 * today's medians of sc (null if sc was not measured). */
static void json_ms3(FILE *f, const double *pub, const scheme *sc)
{
    if (!pub && !sc) {
        fprintf(f, "null");
        return;
    }
    fprintf(f, "{");
    for (int op = 0; op < N_OPS; op++)
        fprintf(f, "%s\"%s\": %.6g", op ? ", " : "", op_names[op], pub ? pub[op] : ms(sc, op));
    fprintf(f, "}");
}

/* "today_ms": ..., "today_bytes": ...} of a row (null: not measured). */
static void json_today(FILE *f, const scheme *sc)
{
    fprintf(f, "\"today_ms\": ");
    json_ms3(f, NULL, sc);
    if (sc)
        fprintf(f, ", \"today_bytes\": {\"sig\": %zu, \"pk\": %zu, \"sk\": %zu}}",
                sc->sig_bytes, sc->pk_bytes, sc->sk_bytes);
    else
        fprintf(f, ", \"today_bytes\": null}");
}

static void json_table(FILE *f, const scheme_list *l)
{
    fprintf(f, ",\n  \"table_b\": [");
    for (size_t i = 0; i < COUNT(table_b); i++) {
        const scheme *sc = find(l, table_b[i].match);
        fprintf(f, "%s\n    {\"scheme\": \"%s\", \"measured_as\": ", i ? "," : "",
                table_b[i].name);
        if (table_b[i].match)
            json_write_str(f, table_b[i].match);
        else
            fprintf(f, "null");
        fprintf(f, ", \"published_ms\": ");
        json_ms3(f, table_b[i].ms, NULL);
        fprintf(f, ", \"published_sizes\": {\"sig\": \"%s\", \"pk\": \"%s\", \"sk\": \"%s\"}",
                table_b[i].sig, table_b[i].pk, table_b[i].sk);
        fprintf(f, ",\n     ");
        json_today(f, sc);
    }
    fprintf(f, "\n  ],\n  \"ratios\": [");
    for (size_t i = 0; i < COUNT(claims); i++) {
        char what[64];
        double pub = 0, now = 0;
        int have = claim(l, i, &pub, &now);
        claim_label(what, sizeof what, i);
        fprintf(f, "%s\n    {\"ratio\": \"%s\", \"published\": ", i ? "," : "", what);
        json_num(f, pub, 1);
        fprintf(f, ", \"today\": ");
        json_num(f, now, have);
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"table_c\": [");
    for (size_t i = 0; i < COUNT(table_c); i++) {
        fprintf(f, "%s\n    {\"set\": \"%s\", \"p1_ms\": ", i ? "," : "", table_c[i].name);
        json_ms3(f, table_c[i].p1, NULL);
        fprintf(f, ", \"p2_ms\": ");
        json_ms3(f, table_c[i].p2, NULL);
        fprintf(f, ", \"today_ms\": ");
        json_ms3(f, NULL, find(l, table_c[i].name));
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"table_d\": [");
    for (size_t i = 0; i < COUNT(table_d); i++) {
        const scheme *sc = row_d(l, i);
        fprintf(f, "%s\n    {\"scheme\": \"%s\", \"backend\": ", i ? "," : "", table_d[i].name);
        if (sc)
            json_write_str(f, sc->backend);
        else
            fprintf(f, "null");
        fprintf(f, ", \"status\": \"%s\", ", table_d[i].status);
        json_today(f, sc);
    }
    fprintf(f, "\n  ]");
}

/* One row per published figure and claim: section, name, measured_as,
 * quantity, published_p1, published_p2, today (ms or a ratio; empty when
 * there is none). */
static void csv_table(FILE *f, const scheme_list *l)
{
    fprintf(f, "section,name,measured_as,quantity,published_p1,published_p2,today\n");
    for (size_t i = 0; i < COUNT(table_b); i++) {
        const scheme *sc = find(l, table_b[i].match);
        for (int op = 0; op < N_OPS; op++) {
            fprintf(f, "B,\"%s\",\"%s\",%s_ms,%.6g,,", table_b[i].name,
                    table_b[i].match ? table_b[i].match : "", op_names[op], table_b[i].ms[op]);
            if (sc)
                fprintf(f, "%.6g", ms(sc, op));
            fprintf(f, "\n");
        }
    }
    for (size_t i = 0; i < COUNT(claims); i++) {
        char what[64];
        double pub = 0, now = 0;
        int have = claim(l, i, &pub, &now);
        claim_label(what, sizeof what, i);
        fprintf(f, "ratio,\"%s\",,ratio,%.6g,,", what, pub);
        if (have)
            fprintf(f, "%.6g", now);
        fprintf(f, "\n");
    }
    for (size_t i = 0; i < COUNT(table_d); i++) {
        const scheme *sc = row_d(l, i);
        for (int op = 0; op < N_OPS; op++) {
            fprintf(f, "D,\"%s\",\"%s\",%s_ms,,,", table_d[i].name, sc ? sc->backend : "",
                    op_names[op]);
            if (sc)
                fprintf(f, "%.6g", ms(sc, op));
            fprintf(f, "\n");
        }
    }
    for (size_t i = 0; i < COUNT(table_c); i++) {
        const scheme *sc = find(l, table_c[i].name);
        for (int op = 0; op < N_OPS; op++) {
            fprintf(f, "C,\"%s\",\"%s\",%s_ms,%.6g,%.6g,", table_c[i].name,
                    sc ? table_c[i].name : "", op_names[op], table_c[i].p1[op],
                    table_c[i].p2[op]);
            if (sc)
                fprintf(f, "%.6g", ms(sc, op));
            fprintf(f, "\n");
        }
    }
}

int cmd_table(size_t runs, int cold, outputs *o, const char *autob)
{
    scheme_list l = {0};
    env e;
    get_env(&e, autob);
    int rc = build_list(&l, autob, BK_AUTO_REF, 1) || measure(&l, runs, 1, cold);
    if (rc) {
        outputs_discard(o);
        free_list(&l);
        return 1;
    }
    print_table(&l, &e, runs);
    fflush(stdout);
    if (o->jf) {
        json_head(o->jf, "table", 1, runs, &e, &l.skipped, cold ? "cold" : "warm");
        json_prim_results(o->jf, &l);
        json_table(o->jf, &l);
        rc |= json_end(o->jf, o->json);
    }
    if (o->cf) {
        csv_head(o->cf, "table", 1, runs, &e, &l.skipped, cold ? "cold" : "warm");
        csv_table(o->cf, &l);
        rc |= csv_end(o->cf, o->csv);
    }
    if (o->plot)
        rc |= plot_table(o->plot, &l, &e);
    free_list(&l);
    return rc ? 1 : 0;
}

