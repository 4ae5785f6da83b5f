/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* Timing of one call, statistics, progress and skip lists of the harness
 * (bench/harness.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "harness.h"

const char *const op_names[N_OPS] = {"keygen", "sign", "verify"};
const char *const fam_names[] = {"TTS",    "ECDSA",  "RSA-PSS", "Ed25519",
                                 "SFLASH", "ML-DSA", "Falcon",  "SPHINCS+"};
const uint8_t bench_msg[32] = "tts-bench: a 32-byte message...";

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A sorted copy of v (the experiments with statistics of their own). */
uint64_t *sorted_copy(const uint64_t *v, size_t n)
{
    uint64_t *w = malloc(n * sizeof *w);
    if (w) {
        memcpy(w, v, n * sizeof *w);
        qsort(w, n, sizeof *w, cmp_u64);
    }
    return w;
}

/* Median, quartiles, min, max and mean of v[0..n-1], from a sorted copy:
 * the reports keep the samples in run order (first-run effects stay
 * visible). The quartiles (and the median) interpolate linearly between
 * order statistics, at (n - 1) k / 4: the "type 7" of Hyndman and Fan,
 * numpy's default; every experiment's statistics are these. */
int summarize(const uint64_t *v, size_t n, stats *s)
{
    memset(s, 0, sizeof *s);
    if (!n)
        return 0;
    uint64_t *w = sorted_copy(v, n);
    if (!w)
        return -1;
    double at[3], sum = 0;
    for (int k = 0; k < 3; k++) {
        double h = (double)(n - 1) * (k + 1) / 4;
        size_t lo = (size_t)h;
        at[k] = (double)w[lo] +
                (lo + 1 < n ? (h - (double)lo) * ((double)w[lo + 1] - (double)w[lo]) : 0);
    }
    for (size_t i = 0; i < n; i++)
        sum += (double)w[i];
    s->q1 = at[0], s->med = at[1], s->q3 = at[2];
    s->min = (double)w[0];
    s->max = (double)w[n - 1];
    s->mean = sum / (double)n;
    free(w);
    return 0;
}

void skip(skiplist *l, const char *name, const char *why)
{
    fprintf(stderr, "tts-bench: %s: %s: skipped\n", name, why);
    if (l->n < COUNT(l->v))
        snprintf(l->v[l->n++], sizeof l->v[0], "%s: %s", name, why);
}

void progress_start(progress *pr) { pr->start = pr->last = now_ns(); }

void progress_show(progress *pr, const char *text)
{
    uint64_t t = now_ns();
    if (t - pr->last < 1000000000u || !isatty(2))
        return;
    fprintf(stderr, "\rtts-bench: %s (%.0f s)  ", text, (double)(t - pr->start) / 1e9);
    pr->last = t;
}

void progress_end(const progress *pr)
{
    if (pr->last != pr->start)
        fprintf(stderr, "\n");
}

int bench_select(const scheme *sc)
{
    return sc->family == FAM_TTS && tts_set_backend(sc->backend) != TTS_OK ? -1 : 0;
}

/* The clock reads bracket the call alone: the backend is selected by the
 * caller (bench_select), outside the span. */
int timed(scheme *sc, int op, uint64_t *cyc, uint64_t *ns)
{
    void *junk = NULL;
    uint64_t t0 = now_ns(), c0 = cycles();
    int rc = sc->ad->run(sc, op, &junk);
    uint64_t c1 = cycles(), t1 = now_ns();
    if (junk && sc->ad->release_junk)
        sc->ad->release_junk(junk);
    if (rc == 0 && sc->ad->check && sc->ad->check(sc, op)) {
        fprintf(stderr, "tts-bench: %s: a signature made in a timed run did not verify\n", sc->name);
        rc = -1;
    }
    if (cyc) {
        *cyc = c1 - c0;
        *ns = t1 - t0;
    }
    return rc;
}

void size_label(char *buf, size_t len, size_t bytes)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        snprintf(buf, len, "%zu MB", bytes >> 20);
    else if (bytes >= (1u << 10) && bytes % (1u << 10) == 0)
        snprintf(buf, len, "%zu KB", bytes >> 10);
    else
        snprintf(buf, len, "%zu B", bytes);
}
