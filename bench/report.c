/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* getloadavg */
/* The environment of a run, the JSON (docs/bench-schema.json) and CSV
 * reports, and the gnuplot charts of the harness (bench/harness.h). Every
 * file is collected in memory and written whole by the host (bench_io). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/opensslv.h>

#include "clock.h"
#include "harness.h"

/* The CPU flags that matter to the backends and to OpenSSL/libsodium. */
static void cpu_flags(char *buf, size_t len)
{
    static const char *const want[] = {"sse2", "ssse3", "sse4_1", "avx", "avx2", "bmi2",
                                       "adx", "aes", "pclmulqdq", "sha_ni", "gfni",
                                       "avx512f", "avx512bw", "vpclmulqdq"};
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    buf[0] = '\0';
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0) {
            for (size_t i = 0; i < COUNT(want); i++) {
                char pat[32];
                snprintf(pat, sizeof pat, " %s", want[i]);
                char *h = strstr(line, pat);
                size_t k = strlen(pat);
                if (h && (h[k] == ' ' || h[k] == '\n' || h[k] == '\0')) {
                    size_t used = strlen(buf);
                    snprintf(buf + used, len - used, "%s%s", used ? " " : "", want[i]);
                }
            }
            break;
        }
    if (f)
        fclose(f);
}

/* The first number after "key" in /proc/cpuinfo, or -1. */
static double cpuinfo_num(const char *key)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    double v = -1;
    size_t k = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, k) == 0 && (line[k] == ' ' || line[k] == '\t')) {
            const char *c = strchr(line, ':');
            if (c)
                v = atof(c + 1);
            break;
        }
    if (f)
        fclose(f);
    return v;
}

/* The first line of a /sys file as a number, or -1. */
static double sys_num(const char *path)
{
    FILE *f = fopen(path, "r");
    double v = -1;
    if (f) {
        if (fscanf(f, "%lf", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

static void on_off(char *out, size_t len, double v, int inverted)
{
    snprintf(out, len, "%s", v < 0 ? "unknown" : (v > 0) != inverted ? "on" : "off");
}

/* The clock as a reader needs it to compare figures: nominal, reported,
 * the cycle counter's measured rate, SMT and turbo. */
static void cpu_clock(env *e)
{
    e->family = (int)cpuinfo_num("cpu family");
    e->model = (int)cpuinfo_num("model");
    e->stepping = (int)cpuinfo_num("stepping");
    e->mhz_reported = cpuinfo_num("cpu MHz");
    double khz = sys_num("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency");
    if (khz < 0)
        khz = sys_num("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    e->mhz_nominal = khz > 0 ? khz / 1000.0 : -1;
    const char *at = strstr(e->cpu, "@ ");
    if (e->mhz_nominal < 0 && at)
        e->mhz_nominal = atof(at + 2) * (strstr(at, "GHz") ? 1000.0 : 1.0);
    uint64_t t0 = now_ns(), c0 = cycles(), t1;
    while ((t1 = now_ns()) - t0 < 50000000u)
        ;
    uint64_t c1 = cycles();
    e->mhz_tsc = c1 > c0 ? (double)(c1 - c0) * 1000.0 / (double)(t1 - t0) : -1;
    on_off(e->smt, sizeof e->smt, sys_num("/sys/devices/system/cpu/smt/active"), 0);
    double nt = sys_num("/sys/devices/system/cpu/intel_pstate/no_turbo");
    if (nt >= 0)
        on_off(e->turbo, sizeof e->turbo, nt, 1);
    else
        on_off(e->turbo, sizeof e->turbo, sys_num("/sys/devices/system/cpu/cpufreq/boost"), 0);
}

/* "family F model M stepping S; clock: nominal N MHz, reported R MHz,
 * counter T MHz; SMT s; turbo t" (unknowns said so). */
void env_clock_text(const env *e, char *out, size_t len)
{
    char nom[32], rep[32], tsc[32];
    snprintf(nom, sizeof nom, e->mhz_nominal > 0 ? "%.0f MHz" : "unknown", e->mhz_nominal);
    snprintf(rep, sizeof rep, e->mhz_reported > 0 ? "%.0f MHz" : "unknown", e->mhz_reported);
    snprintf(tsc, sizeof tsc, e->mhz_tsc > 0 ? "%.0f MHz" : "none", e->mhz_tsc);
    snprintf(out, len, "family %d model %d stepping %d; clock: nominal %s, reported %s, "
             "cycle counter %s; SMT %s; turbo %s", e->family, e->model, e->stepping, nom, rep,
             tsc, e->smt, e->turbo);
}

void get_env(env *e, const char *autob)
{
    struct utsname u;
    cpu_model(e->cpu, sizeof e->cpu);
    cpu_flags(e->flags, sizeof e->flags);
    cpu_clock(e);
    if (uname(&u) == 0)
        snprintf(e->os, sizeof e->os, "%.60s %.60s %.60s", u.sysname, u.release, u.machine);
    else
        snprintf(e->os, sizeof e->os, "unknown");
    e->cores = sysconf(_SC_NPROCESSORS_ONLN);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(e->date, sizeof e->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    e->autob = autob;
    double l[1];
    e->load = getloadavg(l, 1) == 1 ? l[0] : -1;
    int w = snprintf(e->where, sizeof e->where, "%s, %ld cores", e->cpu, e->cores);
    if (e->load >= 0 && w > 0 && (size_t)w < sizeof e->where)
        snprintf(e->where + w, sizeof e->where - (size_t)w, ", load %.1f", e->load);
}

void print_env(const env *e, size_t runs, const char *per)
{
    printf("# cpu: %s (%ld cores); compiler: %s; CFLAGS: %s\n", e->cpu, e->cores, COMPILER,
           TTS_BENCH_CFLAGS);
    char clk[256];
    env_clock_text(e, clk, sizeof clk);
    printf("# cpu flags: %s; %s\n# cpu id: %s\n", e->flags, e->os, clk);
    const char *pin = getenv("TTS_BACKEND");
    int pinned = pin && e->autob && strcmp(pin, e->autob) == 0;
    printf("# %s; libsodium %s; libtts %s, %s backend %s%s\n", OpenSSL_version(OPENSSL_VERSION),
           sodium_version_string(), TTS_VERSION_STRING, pinned ? "pinned" : "automatic", e->autob,
           pinned ? " (TTS_BACKEND)" : "");
    printf("# cycles: %s; runs: %zu per %s; %s", CYCLE_SOURCE, runs, per, e->date);
    if (e->load >= 0)
        printf("; load average %.2f at the start", e->load);
    printf("\n# status: %s\n", TTS_BROKEN_NOTE);
}

const char *broken_mark(const char *name)
{
    return strstr(name, "TTS(") || strstr(name, "SFLASH") ? " (broken)" : "";
}

/* ---- JSON ---- */

static void json_stats(FILE *f, const stats *s)
{
    fprintf(f, "{\"median\": %.1f, \"q1\": %.1f, \"q3\": %.1f, \"min\": %.1f, \"max\": %.1f, "
            "\"mean\": %.1f}", s->med, s->q1, s->q3, s->min, s->max, s->mean);
}

static void json_u64s(FILE *f, const uint64_t *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)v[i]);
    fputc(']', f);
}

/* A number, or null when there is none (ratios and today's figures of a
 * scheme not measured). */
void json_num(FILE *f, double v, int have)
{
    if (have)
        fprintf(f, "%.6g", v);
    else
        fprintf(f, "null");
}

/* The members every report starts with; the caller adds its own and
 * closes the object. */
void json_head(FILE *f, const char *mode, int quick, size_t runs, const env *e,
               const skiplist *sk, const char *timing)
{
    fprintf(f, "{\n  \"tool\": \"tts-bench\",\n  \"version\": \"%s\",\n", TTS_VERSION_STRING);
    fprintf(f, "  \"status\": \"%s\",\n", TTS_BROKEN_NOTE);
    fprintf(f, "  \"mode\": \"%s\",\n  \"quick\": %s,\n  \"runs\": %zu,\n", mode,
            quick ? "true" : "false", runs);
    if (timing)
        fprintf(f, "  \"timing\": \"%s\",\n", timing);
    fprintf(f, "  \"environment\": {\n    \"cpu\": ");
    json_write_str(f, e->cpu);
    fprintf(f, ",\n    \"cpu_flags\": ");
    json_write_str(f, e->flags);
    fprintf(f, ",\n    \"cores\": %ld,\n", e->cores);
    fprintf(f, "    \"cpu_family\": %d,\n    \"cpu_model\": %d,\n    \"cpu_stepping\": %d,\n",
            e->family, e->model, e->stepping);
    fprintf(f, "    \"mhz_nominal\": ");
    json_num(f, e->mhz_nominal, e->mhz_nominal > 0);
    fprintf(f, ",\n    \"mhz_reported\": ");
    json_num(f, e->mhz_reported, e->mhz_reported > 0);
    fprintf(f, ",\n    \"mhz_cycle_counter\": ");
    json_num(f, e->mhz_tsc, e->mhz_tsc > 0);
    fprintf(f, ",\n    \"smt\": \"%s\",\n    \"turbo\": \"%s\",\n", e->smt, e->turbo);
    if (e->load >= 0)
        fprintf(f, "    \"load_average\": %.2f,\n", e->load);
    fprintf(f, "    \"os\": ");
    json_write_str(f, e->os);
    fprintf(f, ",\n    \"compiler\": ");
    json_write_str(f, COMPILER);
    fprintf(f, ",\n    \"cflags\": ");
    json_write_str(f, TTS_BENCH_CFLAGS);
    fprintf(f, ",\n    \"openssl\": ");
    json_write_str(f, OpenSSL_version(OPENSSL_VERSION));
    fprintf(f, ",\n    \"libsodium\": ");
    json_write_str(f, sodium_version_string());
    fprintf(f, ",\n    \"libtts\": \"%s\",\n    \"default_backend\": \"%s\",\n", TTS_VERSION_STRING,
            e->autob);
    fprintf(f, "    \"cycle_source\": \"%s\",\n    \"date\": \"%s\"\n  },\n", CYCLE_SOURCE,
            e->date);
    fprintf(f, "  \"skipped\": [");
    for (size_t i = 0; i < sk->n; i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_write_str(f, sk->v[i]);
    }
    fprintf(f, "]");
}

void json_prim_results(FILE *f, const scheme_list *l)
{
    fprintf(f, ",\n  \"results\": [\n");
    for (size_t i = 0; i < l->n; i++) {
        const scheme *sc = &l->v[i];
        fprintf(f, "    {\"scheme\": \"%s\", \"family\": \"%s\", \"backend\": \"%s\", ", sc->name,
                fam_names[sc->family], sc->backend);
        fprintf(f, "\"pk_bytes\": %zu, \"sk_bytes\": %zu, \"sig_bytes\": %zu,\n     \"ops\": {",
                sc->pk_bytes, sc->sk_bytes, sc->sig_bytes);
        for (int op = 0; op < N_OPS; op++) {
            const series *s = &sc->s[op];
            fprintf(f, "%s\n      \"%s\": {\"runs\": %zu, \"cycles\": ", op ? "," : "",
                    op_names[op], s->done);
            json_stats(f, &sc->st_cyc[op]);
            fprintf(f, ", \"ns\": ");
            json_stats(f, &sc->st_ns[op]);
            fprintf(f, ",\n        \"cycles_per_run\": ");
            json_u64s(f, s->cyc, s->done);
            fprintf(f, ",\n        \"ns_per_run\": ");
            json_u64s(f, s->ns, s->done);
            fprintf(f, "}");
        }
        fprintf(f, "}}%s\n", i + 1 < l->n ? "," : "");
    }
    fprintf(f, "  ]");
}

void json_files_results(FILE *f, const file_list *fl)
{
    fprintf(f, ",\n  \"size_unit\": \"KB = 1024 B, MB = 1048576 B\",\n  \"input\": ");
    json_write_str(f, "ChaCha20 keystream (crypto_stream_chacha20), zero key, nonce = size in bytes "
                "(64-bit little-endian)");
    fprintf(f, ",\n  \"results\": [\n");
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        fprintf(f, "    {\"scheme\": \"%s\", \"family\": \"%s\", \"backend\": \"%s\", ",
                fs->k->name, fs->k->family, fs->backend);
        fprintf(f, "\"sig_bytes\": %zu,\n     \"hash_step\": ", fs->siglen);
        if (fs->k->hash_step)
            json_write_str(f, fs->k->hash_step);
        else
            fprintf(f, "null");
        fprintf(f, ",\n     \"sign_step\": ");
        json_write_str(f, fs->k->sign_step);
        fprintf(f, ",\n     \"sizes\": [");
        for (size_t i = 0; i < fl->nsizes; i++) {
            const fseries *r = &fs->res[i];
            char lab[24];
            size_label(lab, sizeof lab, r->bytes);
            fprintf(f, "%s\n      {\"bytes\": %zu, \"label\": \"%s\", \"runs\": %zu, "
                       "\"verified\": true, \"steps\": {",
                    i ? "," : "", r->bytes, lab, r->done);
            for (int st = 0; st < N_STEPS; st++) {
                fprintf(f, "%s\n        \"%s\": ", st ? "," : "", step_names[st]);
                if (!r->ns[st]) {
                    fprintf(f, "null");
                    continue;
                }
                fprintf(f, "{\"ns\": ");
                json_stats(f, &r->st[st]);
                fprintf(f, ", \"ns_per_run\": ");
                json_u64s(f, r->ns[st], r->done);
                fprintf(f, "}");
            }
            fprintf(f, "}}");
        }
        fprintf(f, "]}%s\n", k + 1 < fl->n ? "," : "");
    }
    fprintf(f, "  ]");
}

/* The host's functions (bench_set_io); without them nothing is written. */
static const bench_io *host_io;

void bench_set_io(const bench_io *io)
{
    host_io = io;
}

const bench_io *bench_io_get(void)
{
    return host_io;
}

/* Reports and charts are collected in memory and written whole at the
 * end by the host. */
static int out_force; /* --force */

static int report_close(FILE *f, const char *path)
{
    char err[512];
    (void)path;
    if (host_io->close(f, out_force, 0, err, sizeof err) != 0) {
        fprintf(stderr, "tts-bench: writing %s\n", err);
        return -1;
    }
    return 0;
}

int json_end(FILE *f, const char *path)
{
    fprintf(f, "\n}\n");
    return report_close(f, path);
}

/* ---- CSV ---- */

/* "# key: value" metadata lines, then one table in long form: a `row`
 * column holds min, median, max and mean (the aggregates) and then 1..N
 * (the runs, in order). */
void csv_head(FILE *f, const char *mode, int quick, size_t runs, const env *e,
              const skiplist *sk, const char *timing)
{
    fprintf(f, "# tool: tts-bench %s\n# status: %s\n# mode: %s\n# quick: %s\n# runs: %zu\n",
            TTS_VERSION_STRING, TTS_BROKEN_NOTE, mode, quick ? "true" : "false", runs);
    if (timing)
        fprintf(f, "# timing: %s\n", timing);
    fprintf(f, "# cpu: %s\n# cpu_flags: %s\n# cores: %ld\n# os: %s\n# compiler: %s\n", e->cpu,
            e->flags, e->cores, e->os, COMPILER);
    if (e->load >= 0)
        fprintf(f, "# load_average: %.2f\n", e->load);
    char clk[256];
    env_clock_text(e, clk, sizeof clk);
    fprintf(f, "# cpu_id: %s\n", clk);
    fprintf(f, "# cflags: %s\n# openssl: %s\n# libsodium: %s\n# libtts: %s\n", TTS_BENCH_CFLAGS,
            OpenSSL_version(OPENSSL_VERSION), sodium_version_string(), TTS_VERSION_STRING);
    fprintf(f, "# default_backend: %s\n# cycle_source: %s\n# date: %s\n", e->autob, CYCLE_SOURCE,
            e->date);
    for (size_t i = 0; i < sk->n; i++)
        fprintf(f, "# skipped: %s\n", sk->v[i]);
}

static const char *const agg_names[4] = {"min", "median", "max", "mean"};

static double agg(const stats *s, int a)
{
    return a == 0 ? s->min : a == 1 ? s->med : a == 2 ? s->max : s->mean;
}

void csv_prim(FILE *f, const scheme_list *l)
{
    fprintf(f, "scheme,family,backend,op,row,cycles,ns,pk_bytes,sk_bytes,sig_bytes\n");
    for (size_t i = 0; i < l->n; i++) {
        const scheme *sc = &l->v[i];
        for (int op = 0; op < N_OPS; op++) {
            const series *s = &sc->s[op];
            for (size_t row = 0; row < 4 + s->done; row++) {
                fprintf(f, "\"%s\",%s,%s,%s,", sc->name, fam_names[sc->family], sc->backend,
                        op_names[op]);
                if (row < 4)
                    fprintf(f, "%s,%.1f,%.1f", agg_names[row], agg(&sc->st_cyc[op], (int)row),
                            agg(&sc->st_ns[op], (int)row));
                else
                    fprintf(f, "%zu,%llu,%llu", row - 3, (unsigned long long)s->cyc[row - 4],
                            (unsigned long long)s->ns[row - 4]);
                fprintf(f, ",%zu,%zu,%zu\n", sc->pk_bytes, sc->sk_bytes, sc->sig_bytes);
            }
        }
    }
}

void csv_files(FILE *f, const file_list *fl)
{
    fprintf(f, "scheme,family,backend,bytes,row,read_ns,hash_ns,sign_ns,total_ns\n");
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        for (size_t i = 0; i < fl->nsizes; i++) {
            const fseries *r = &fs->res[i];
            for (size_t row = 0; row < 4 + r->done; row++) {
                fprintf(f, "\"%s\",%s,%s,%zu,", fs->k->name, fs->k->family, fs->backend,
                        r->bytes);
                if (row < 4)
                    fprintf(f, "%s", agg_names[row]);
                else
                    fprintf(f, "%zu", row - 3);
                for (int st = 0; st < N_STEPS; st++) {
                    if (!r->ns[st])
                        fprintf(f, ",");
                    else if (row < 4)
                        fprintf(f, ",%.1f", agg(&r->st[st], (int)row));
                    else
                        fprintf(f, ",%llu", (unsigned long long)r->ns[st][row - 4]);
                }
                fprintf(f, "\n");
            }
        }
    }
}

/* ---- charts (gnuplot) ---- */

static void gp_text(FILE *f, const char *s)
{
    for (; *s; s++)
        if (*s != '"' && *s != '\\')
            fputc(*s, f);
}

/* A file-name part: "TTS(20,28)" -> "tts-20-28". */
static void slug(char *out, size_t len, const char *s)
{
    size_t o = 0;
    for (; *s && o + 1 < len; s++) {
        char c = *s;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out[o++] = c;
        else if (o && out[o - 1] != '-')
            out[o++] = '-';
    }
    while (o && out[o - 1] == '-')
        o--;
    out[o] = '\0';
}

/* Every chart is drawn by a loop over the terminals: SVG, PNG through
 * pngcairo where this gnuplot has it (the libgd png terminal otherwise),
 * and PDF (for a paper: about 10 inches wide at 7 points) where it has
 * pdfcairo. */
static void gp_loop_open(FILE *f, int w, int h)
{
    fprintf(f, "fmts = \"svg png\" . (strstrt(GPVAL_TERMINALS, \"pdfcairo\") > 0 ? \" pdf\" : \"\")\n"
               "do for [fmt in fmts] {\n"
               "  if (fmt eq \"svg\") {\n"
               "    set terminal svg size %d,%d noenhanced background \"white\"\n"
               "  } else {\n"
               "    if (fmt eq \"pdf\") {\n"
               "      set terminal pdfcairo size %g in,%g in noenhanced font \",7\"\n"
               "    } else {\n"
               "      if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
               "        set terminal pngcairo size %d,%d noenhanced\n"
               "      } else {\n"
               "        set terminal png size %d,%d noenhanced\n"
               "      }\n"
               "    }\n"
               "  }\n",
            w, h, w / 140.0, h / 140.0, w, h, w, h);
}

static FILE *plot_open(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = host_io->open(path);
    if (!f)
        fprintf(stderr, "tts-bench: %s: out of memory\n", path);
    return f;
}

static int plot_close(FILE *f, const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return report_close(f, path);
}

/* Runs `gnuplot script` on the script and its data (already written to
 * dir) in a temporary folder; the charts it makes are written to dir by
 * the host's file rules (bench_io). A missing gnuplot is not fatal to the
 * measurement (stdout and the reports are complete), but the charts asked
 * for are missing, so the caller exits 1. */
static int run_gnuplot(const char *dir, const char *script, const char *data)
{
    char err[1024];
    int rc = host_io->run_gnuplot(dir, script, data, out_force, err, sizeof err);
    if (rc == 0)
        return 0;
    if (rc == BENCH_IO_NOPROG)
        fprintf(stderr,
                "tts-bench: gnuplot not found on PATH: no charts. %s/%s and its data are "
                "written; install gnuplot (Debian: gnuplot-nox) and run `gnuplot %s` in %s\n",
                dir, script, script, dir);
    else
        fprintf(stderr, "tts-bench: charts of %s/%s: %s\n", dir, script, err);
    return -1;
}

/* For an experiment that draws its own chart (exp_passport.c): the data
 * and script streams, the two terminals, and gnuplot, under the same file
 * rules as the charts below. */
FILE *plot_stream(const char *dir, const char *name) { return plot_open(dir, name); }
int plot_stream_close(FILE *f, const char *dir, const char *name)
{
    return plot_close(f, dir, name);
}
void plot_terminals(FILE *f, int w, int h) { gp_loop_open(f, w, h); }
int plot_render(const char *dir, const char *script, const char *data)
{
    return run_gnuplot(dir, script, data);
}

/* One bar chart of the schemes of l that keep(sc) selects: median sign
 * and verify time, quartiles as error bars, on a log axis (RSA-3072
 * signing and TTS verification are three orders of magnitude apart). */
static int plot_bar_panel(const char *dir, const char *name, const char *what,
                          const scheme_list *l, const env *e,
                          int (*keep)(const scheme *sc, const env *e))
{
    char dat[64], gp[64];
    snprintf(dat, sizeof dat, "%s.dat", name);
    snprintf(gp, sizeof gp, "%s.gp", name);
    FILE *f = plot_open(dir, dat);
    if (!f)
        return -1;
    fprintf(f, "# tts-bench %s: scheme, sign median q1 q3, verify median q1 q3 (us)\n", name);
    int rows = 0;
    for (size_t i = 0; i < l->n; i++) {
        const scheme *sc = &l->v[i];
        const stats *s = &sc->st_ns[OP_SIGN], *v = &sc->st_ns[OP_VERIFY];
        if (!keep(sc, e))
            continue;
        rows++;
        fprintf(f, "\"%s %s%s\" %.4f %.4f %.4f %.4f %.4f %.4f\n", sc->name, sc->backend,
                broken_mark(sc->name),
                s->med / 1e3, s->q1 / 1e3, s->q3 / 1e3, v->med / 1e3, v->q1 / 1e3, v->q3 / 1e3);
    }
    if (plot_close(f, dir, dat) || !(f = plot_open(dir, gp)))
        return -1;
    fprintf(f, "# tts-bench %s: median sign and verify time per scheme, quartiles as\n"
               "# error bars. Data in %s; charts %s.svg and %s.png. Re-run: gnuplot %s\n",
            name, dat, name, name, gp);
    fprintf(f, "set title \"tts-bench %s: %s, median and quartiles of each operation, ", name, what);
    gp_text(f, e->where);
    fprintf(f, ", %s\"\n"
               "set style data histograms\n"
               "set style histogram errorbars gap 1 lw 1\n"
               "set style fill solid 0.85 border -1\n"
               "set logscale y\n"
               "set format y \"%%g\"\n"
               "set ylabel \"time, microseconds (log scale)\"\n"
               "set xtics rotate by -45 scale 0 nomirror\n"
               "set grid ytics\n"
               "set key top left\n"
               "set bmargin 11\n"
               "set rmargin 8\n",
            e->date);
    /* 60 pixels a scheme at least: the labels must not overlap */
    gp_loop_open(f, rows * 60 > 1400 ? rows * 60 : 1400, 700);
    fprintf(f, "  set output \"%s.\" . fmt\n"
               "  plot \"%s\" using 2:3:4:xtic(1) title \"sign\", \"\" using 5:6:7 title \"verify\"\n"
               "  set output\n}\n",
            name, dat);
    if (plot_close(f, dir, gp))
        return -1;
    return run_gnuplot(dir, gp, dat);
}

static int is_tts(const scheme *sc)
{
    return strncmp(sc->name, "TTS(", 4) == 0;
}

/* every scheme, TTS on the backend chosen automatically and, beside
 * PQClean's portable C, on the portable ref backend (each bar names its
 * backend) */
static int keep_schemes(const scheme *sc, const env *e)
{
    return !is_tts(sc) || !e->autob || strcmp(sc->backend, e->autob) == 0 ||
           strcmp(sc->backend, "ref") == 0;
}

static int keep_tts(const scheme *sc, const env *e)
{
    (void)e;
    return is_tts(sc);
}

/* Two panels: NAME (the schemes, TTS on the automatic and the ref
 * backend) and NAME-tts (every TTS set on every backend). */
int plot_bars(const char *dir, const char *name, const scheme_list *l, const env *e)
{
    char tts[64];
    snprintf(tts, sizeof tts, "%s-tts", name);
    int rc = plot_bar_panel(dir, name, "the schemes (TTS on its default and on the portable ref backend)", l, e,
                            keep_schemes);
    return rc | plot_bar_panel(dir, tts, "TTS on every backend", l, e, keep_tts);
}

/* Time against file size, log-log: per scheme hash, private-key
 * operation and total, and the totals of all schemes in one chart. The
 * charts show medians: with the default 10 runs one slow first run moves
 * the mean (which the text and the reports also give) by a tenth. */
int plot_files(const char *dir, const file_list *fl, const env *e)
{
    FILE *f = plot_open(dir, "files.dat");
    if (!f)
        return -1;
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        fprintf(f, "%s# index %zu: %s; bytes, then median q1 q3 in ms of hash, sign, total"
                   " (? = not split)\n",
                k ? "\n\n" : "", k, fs->k->name);
        for (size_t i = 0; i < fl->nsizes; i++) {
            const fseries *r = &fs->res[i];
            fprintf(f, "%zu", r->bytes);
            for (int st = ST_HASH; st <= ST_TOTAL; st++)
                if (r->ns[st])
                    fprintf(f, " %.6f %.6f %.6f", r->st[st].med / 1e6, r->st[st].q1 / 1e6,
                            r->st[st].q3 / 1e6);
                else
                    fprintf(f, " ? ? ?");
            fprintf(f, "\n");
        }
    }
    if (plot_close(f, dir, "files.dat") || !(f = plot_open(dir, "files.gp")))
        return -1;
    fprintf(f, "# tts-bench files: signing time against file size, log-log.\n"
               "# Data in files.dat (one index per scheme). Re-run: gnuplot files.gp\n"
               "set datafile missing \"?\"\n"
               "set logscale xy\n"
               "set xlabel \"file size (log scale; KB = 1024 B)\"\n"
               "set ylabel \"median time of %zu runs, quartiles as error bars, ms (log scale)\"\n"
               "set grid\n"
               "set key top left\n"
               "set style data yerrorlines\n"
               "set bmargin 5\n",
            fl->runs);
    fprintf(f, "set xrange [%zu:%zu]\nset xtics (", fl->sizes[0] / 2,
            2 * fl->sizes[fl->nsizes - 1]);
    for (size_t i = 0; i < fl->nsizes; i++) {
        char lab[24];
        size_label(lab, sizeof lab, fl->sizes[i]);
        fprintf(f, "%s\"%s\" %zu", i ? ", " : "", lab, fl->sizes[i]);
    }
    fprintf(f, ") rotate by -35\n");
    gp_loop_open(f, 900, 600);
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        char sl[48];
        slug(sl, sizeof sl, fs->k->name);
        fprintf(f, "  set output \"files-%s.\" . fmt\n  set title \"%s (%s)%s: signing a file, ",
                sl, fs->k->name, fs->backend, broken_mark(fs->k->name));
        gp_text(f, e->where);
        fprintf(f, "\"\n");
        if (fs->k->hash)
            fprintf(f, "  plot \"files.dat\" index %zu using 1:2:3:4 title \"hash\", "
                       "\"\" index %zu using 1:5:6:7 title \"private-key operation\", "
                       "\"\" index %zu using 1:8:9:10 title \"total\"\n",
                    k, k, k);
        else
            fprintf(f, "  plot \"files.dat\" index %zu using 1:8:9:10 title \"total (not split)\"\n",
                    k);
    }
    fprintf(f, "  set output \"files-total.\" . fmt\n"
               "  set title \"signing a file, hash + private-key operation, ");
    gp_text(f, e->where);
    fprintf(f, "\"\n  plot ");
    for (size_t k = 0; k < fl->n; k++)
        fprintf(f, "%s\"files.dat\" index %zu using 1:8:9:10 title \"%s%s\"", k ? ", \\\n    " : "",
                k, fl->v[k].k->name, broken_mark(fl->v[k].k->name));
    fprintf(f, "\n  set output\n}\n");
    if (plot_close(f, dir, "files.gp"))
        return -1;
    return run_gnuplot(dir, "files.gp", "files.dat");
}

/* --plot DIR: made before the run, so a bad DIR fails in a second, not
 * after a minute. */
static int make_plot_dir(const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
        return 0;
    fprintf(stderr, "tts-bench: --plot %s: %s\n", dir,
            errno == EEXIST ? "exists and is not a directory" : strerror(errno));
    return -1;
}

/* Opens the report files and makes the chart folder before measuring. */
int outputs_open(outputs *o)
{
    /* the paths are checked now, the files written at the end */
    char err[512];
    out_force = o->force;
    int rc = 0;
    if (!host_io) {
        fprintf(stderr, "tts-bench: no file access (bench_set_io not called)\n");
        return -1;
    }
    if ((o->json && (rc = host_io->claim(o->json, out_force, err, sizeof err))) ||
        (o->csv && (rc = host_io->claim(o->csv, out_force, err, sizeof err)))) {
        fprintf(stderr, "tts-bench: %s%s\n", err, rc == BENCH_IO_EXISTS ? "; use --force to "
                "replace it" : "");
        return -1;
    }
    if ((o->json && !(o->jf = host_io->open(o->json))) ||
        (o->csv && !(o->cf = host_io->open(o->csv)))) {
        fprintf(stderr, "tts-bench: out of memory\n");
        return -1;
    }
    return o->plot ? make_plot_dir(o->plot) : 0;
}

/* Drops a report that is not to be written. */
static void discard(FILE *f, const char *path)
{
    (void)path;
    (void)host_io->close(f, 0, 1, NULL, 0);
}

/* After a failed run: no empty report is left behind. */
void outputs_discard(outputs *o)
{
    if (o->jf)
        discard(o->jf, o->json);
    if (o->cf)
        discard(o->cf, o->csv);
    o->jf = o->cf = NULL;
}

int csv_end(FILE *f, const char *path)
{
    return report_close(f, path);
}

