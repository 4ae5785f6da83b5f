/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The primitives experiment: key generation, signing and verification of a
 * 32-byte message for every scheme of the list (bench/harness.h). */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "harness.h"

static size_t keygen_runs(const scheme *sc, size_t runs, int quick)
{
    size_t k = runs < 50 ? runs : 50;
    if (sc->family == FAM_RSA) {
        if (quick)
            k = sc->bits <= 1024 ? 3 : 1;
        else
            k = sc->bits <= 1024 ? 10 : sc->bits <= 2048 ? 5 : 3;
    }
    if (sc->family == FAM_SFLASH) /* tens of ms each */
        k = quick ? 3 : 10;
    return k ? k : 1;
}

/* Warm (the default): per scheme and operation, its configuration made
 * current once, three untimed calls, then its runs back to back, as
 * tts-speed and SUPERCOP-style reports time them. Cold: all schemes
 * interleaved round-robin (round r times every scheme's operations once),
 * each call after the others' have refilled the caches and predictors,
 * and after its configuration is made current again (for TTS a backend
 * switch, whose CPUID probe the library caches). Neither times the
 * selection: the clock reads bracket the call alone. */
static int alloc_series(scheme_list *l, size_t runs, int quick, size_t *rounds)
{
    *rounds = 0;
    for (size_t i = 0; i < l->n; i++) {
        scheme *sc = &l->v[i];
        for (int op = 0; op < N_OPS; op++) {
            series *s = &sc->s[op];
            s->runs = op == OP_KEYGEN ? keygen_runs(sc, runs, quick) : runs;
            if (sc->max_runs[op] && s->runs > sc->max_runs[op])
                s->runs = quick && sc->max_runs[op] > 3 ? 3 : sc->max_runs[op];
            s->cyc = calloc(s->runs, sizeof *s->cyc);
            s->ns = calloc(s->runs, sizeof *s->ns);
            if (!s->cyc || !s->ns)
                return -1;
            if (s->runs > *rounds)
                *rounds = s->runs;
        }
    }
    return 0;
}

static int warm_up(scheme *sc, int op, int times)
{
    /* the set-up key generation warms RSA keygen (seconds a call) */
    if (op == OP_KEYGEN && sc->family == FAM_RSA)
        return 0;
    for (int i = 0; i < times; i++)
        if (bench_select(sc) || timed(sc, op, NULL, NULL)) {
            fprintf(stderr, "tts-bench: %s %s failed\n", sc->name, op_names[op]);
            return -1;
        }
    return 0;
}

static int measure_warm(scheme_list *l)
{
    progress pr;
    progress_start(&pr);
    for (size_t i = 0; i < l->n; i++) {
        scheme *sc = &l->v[i];
        for (int op = 0; op < N_OPS; op++) {
            series *s = &sc->s[op];
            if (warm_up(sc, op, sc->max_runs[op] ? 1 : 3) || bench_select(sc))
                return -1;
            for (size_t r = 0; r < s->runs; r++, s->done++)
                if (timed(sc, op, &s->cyc[r], &s->ns[r])) {
                    fprintf(stderr, "tts-bench: %s %s failed\n", sc->name, op_names[op]);
                    return -1;
                }
        }
        char text[96];
        snprintf(text, sizeof text, "warm: scheme %zu/%zu", i + 1, l->n);
        progress_show(&pr, text);
    }
    progress_end(&pr);
    return 0;
}

static int measure_cold(scheme_list *l, size_t rounds)
{
    for (size_t i = 0; i < l->n; i++)
        for (int op = 0; op < N_OPS; op++)
            if (warm_up(&l->v[i], op, 1))
                return -1;
    progress pr;
    progress_start(&pr);
    for (size_t r = 0; r < rounds; r++) {
        for (size_t i = 0; i < l->n; i++) {
            scheme *sc = &l->v[i];
            for (int op = 0; op < N_OPS; op++) {
                series *s = &sc->s[op];
                if (r >= s->runs)
                    continue;
                if (bench_select(sc) || timed(sc, op, &s->cyc[r], &s->ns[r])) {
                    fprintf(stderr, "tts-bench: %s %s failed\n", sc->name, op_names[op]);
                    return -1;
                }
                s->done++;
            }
        }
        char text[64];
        snprintf(text, sizeof text, "cold: round %zu/%zu", r + 1, rounds);
        progress_show(&pr, text);
    }
    progress_end(&pr);
    return 0;
}

int measure(scheme_list *l, size_t runs, int quick, int cold)
{
    size_t rounds;
    if (alloc_series(l, runs, quick, &rounds) ||
        (cold ? measure_cold(l, rounds) : measure_warm(l)))
        return -1;
    for (size_t i = 0; i < l->n; i++)
        for (int op = 0; op < N_OPS; op++) {
            scheme *sc = &l->v[i];
            if (summarize(sc->s[op].cyc, sc->s[op].done, &sc->st_cyc[op]) ||
                summarize(sc->s[op].ns, sc->s[op].done, &sc->st_ns[op]))
                return -1;
        }
    return 0;
}
int cmd_primitives(size_t runs, int quick, int cold, outputs *o, const char *autob)
{
    scheme_list l = {0};
    env e;
    get_env(&e, autob);
    int rc = build_list(&l, autob, BK_ALL, 1) || measure(&l, runs, quick, cold);
    if (rc) {
        outputs_discard(o);
        free_list(&l);
        return 1;
    }
    print_env(&e, runs, "operation (key generation: fewer)");
    printf("# timing: %s\n", cold ? "cold (all schemes interleaved, round-robin)"
                                   : "warm (each operation's runs back to back, after 3 untimed calls)");
    for (size_t i = 0; i < l.skipped.n; i++)
        printf("# skipped: %s\n", l.skipped.v[i]);
    printf("# statistics: median, quartiles (linear interpolation between order statistics, "
           "as passport's), min, max, mean\n");
    printf("%-18s %-9s %-6s %5s %11s %11s %11s %11s %11s %11s %10s %10s %10s %10s %10s %10s\n",
           "scheme", "backend", "op", "runs", "med_cyc", "q1_cyc", "q3_cyc", "min_cyc", "max_cyc",
           "mean_cyc", "med_us", "q1_us", "q3_us", "min_us", "max_us", "mean_us");
    for (size_t i = 0; i < l.n; i++) {
        const scheme *sc = &l.v[i];
        for (int op = 0; op < N_OPS; op++) {
            const stats *c = &sc->st_cyc[op], *n = &sc->st_ns[op];
            printf("%-18s %-9s %-6s %5zu %11.0f %11.0f %11.0f %11.0f %11.0f %11.0f %10.2f %10.2f "
                   "%10.2f %10.2f %10.2f %10.2f\n",
                   sc->name, sc->backend, op_names[op], sc->s[op].done, c->med, c->q1, c->q3,
                   c->min, c->max, c->mean, n->med / 1e3, n->q1 / 1e3, n->q3 / 1e3,
                   n->min / 1e3, n->max / 1e3, n->mean / 1e3);
        }
    }
    printf("\n%-18s %-9s %8s %8s %8s\n", "scheme", "backend", "pk_B", "sk_B", "sig_B");
    for (size_t i = 0; i < l.n; i++)
        printf("%-18s %-9s %8zu %8zu %8zu\n", l.v[i].name, l.v[i].backend, l.v[i].pk_bytes,
               l.v[i].sk_bytes, l.v[i].sig_bytes);
    fflush(stdout);
    if (o->jf) {
        json_head(o->jf, "primitives", quick, runs, &e, &l.skipped, cold ? "cold" : "warm");
        json_prim_results(o->jf, &l);
        rc |= json_end(o->jf, o->json);
    }
    if (o->cf) {
        csv_head(o->cf, "primitives", quick, runs, &e, &l.skipped, cold ? "cold" : "warm");
        csv_prim(o->cf, &l);
        rc |= csv_end(o->cf, o->csv);
    }
    if (o->plot)
        rc |= plot_bars(o->plot, "primitives", &l, &e);
    free_list(&l);
    return rc ? 1 : 0;
}
