/* SPDX-License-Identifier: MIT */
/*
 * tts-challenge export, toy and calibrate: the attack lab's command line
 * over challenge/ (export.c, lab.c). Manual: tools/tts-challenge.1.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sodium.h>

#include "challenge_cli.h"
#include "fileio.h"

/* The options the three commands share. */
typedef struct {
    const char *dir, *set, *json, *csv, *out, *seed, *plot, *pin;
    const char *format, *fix_seed, *solver;
    unsigned message, equations, vars, fix, max_tries, attempt;
    double timeout, max_seconds;
    int force, has_fix, full_signature;
} lab_args;

static int parse_seconds(const char *arg, const char *name, double *out)
{
    char *end;

    errno = 0;
    double v = strtod(arg, &end);
    if (errno || *end || !(v > 0) || v > 1e7)
        return cli_fail("%s: expected seconds, more than 0, not '%s'", name, arg);
    *out = v;
    return ST_OK;
}

static int parse_hex32(const char *arg, const char *name, uint8_t out[32])
{
    size_t got;

    if (strlen(arg) != 64 ||
        sodium_hex2bin(out, 32, arg, 64, NULL, &got, NULL) != 0 || got != 32)
        return cli_fail("%s: expected 64 hex digits", name);
    return ST_OK;
}

/* Options of cmd (allowed: a string of option letters' names) into a. */
static int parse_args(const char *cmd, int argc, char **argv, lab_args *a,
                      const char *allowed)
{
    memset(a, 0, sizeof *a);
    a->max_tries = 32;
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int st = ST_OK, used = 1;
        if (o[0] != '-' || !o[1]) {
            if (a->dir || !strstr(allowed, " DIR "))
                return cli_fail("%s: unexpected argument '%s'", cmd, o);
            a->dir = o;
            continue;
        }
        char key[40];
        snprintf(key, sizeof key, " %s ", o);
        if (!strstr(allowed, key))
            return cli_fail("%s: unknown option '%s'", cmd, o);
        if (strcmp(o, "--force") == 0) {
            a->force = 1;
            continue;
        }
        if (strcmp(o, "--full-signature") == 0) {
            a->full_signature = 1;
            continue;
        }
        if (!v)
            return cli_fail("%s: %s needs a value", cmd, o);
        if (strcmp(o, "--set") == 0)
            a->set = v;
        else if (strcmp(o, "--json") == 0)
            a->json = v;
        else if (strcmp(o, "--csv") == 0)
            a->csv = v;
        else if (strcmp(o, "-o") == 0)
            a->out = v;
        else if (strcmp(o, "--seed") == 0)
            a->seed = v;
        else if (strcmp(o, "--plot") == 0)
            a->plot = v;
        else if (strcmp(o, "--pk-sha256") == 0)
            a->pin = v;
        else if (strcmp(o, "--format") == 0)
            a->format = v;
        else if (strcmp(o, "--fix-seed") == 0)
            a->fix_seed = v;
        else if (strcmp(o, "--solver") == 0)
            a->solver = v;
        else if (strcmp(o, "--message") == 0)
            st = parse_unsigned(v, 1, CHAL_MAX_INSTANCES, o, &a->message);
        else if (strcmp(o, "--equations") == 0)
            st = parse_unsigned(v, 1, TTS_MAX_M, o, &a->equations);
        else if (strcmp(o, "--vars") == 0)
            st = parse_unsigned(v, 1, TTS_MAX_N, o, &a->vars);
        else if (strcmp(o, "--try") == 0)
            st = parse_unsigned(v, 1, 100000, o, &a->attempt);
        else if (strcmp(o, "--fix") == 0) {
            st = parse_unsigned(v, 0, TTS_MAX_N, o, &a->fix);
            a->has_fix = 1;
        } else if (strcmp(o, "--max-tries") == 0)
            st = parse_unsigned(v, 1, 100000, o, &a->max_tries);
        else if (strcmp(o, "--timeout") == 0)
            st = parse_seconds(v, o, &a->timeout);
        else if (strcmp(o, "--max-seconds") == 0)
            st = parse_seconds(v, o, &a->max_seconds);
        else
            used = 0;
        if (!used)
            return cli_fail("%s: unknown option '%s'", cmd, o);
        if (st != ST_OK)
            return ST_ERROR;
        i++;
    }
    return ST_OK;
}

/* The set from --set, or the only folder of dir. */
static const tts_params *pick_set(const char *cmd, const lab_args *a)
{
    const tts_params *p;
    int set = a->set ? chal_set_find(a->set) : only_set_index(a->dir);

    if (set >= 0 && set == chal_set_sflash()) {
        cli_fail("%s: %s is not a TTS set: the lab's systems are TTS's "
                 "(SFLASH falls to break)", cmd, chal_set_name(set));
        return NULL;
    }
    if (a->set) {
        if (!(p = chal_set_params(set)))
            cli_fail("%s: --set: unknown parameter set '%s'", cmd, a->set);
        return p;
    }
    if (!(p = chal_set_params(set)))
        cli_fail("%s: name the dimension with --set (%s does not hold exactly "
             "one challenge folder)", cmd, a->dir);
    return p;
}

static int load_target(const char *cmd, const lab_args *a, chal_target *t)
{
    uint8_t pin[32];
    char err[1024];

    if (!a->dir)
        return cli_fail("%s: the challenge folder DIR is required", cmd);
    if (!a->message)
        return cli_fail("%s: --message I is required", cmd);
    const tts_params *p = pick_set(cmd, a);
    if (!p)
        return ST_ERROR;
    if (a->pin && parse_hex32(a->pin, "--pk-sha256", pin) != ST_OK)
        return ST_ERROR;
    if (chal_target_load(t, a->dir, p, a->message, a->pin ? pin : NULL, err,
                         sizeof err) != CHAL_OK)
        return cli_fail("%s", err);
    return ST_OK;
}

static void hex(FILE *o, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(o, "%02x", b[i]);
}

/* A report file: the text of o written to path with the file rules
 * (flags: FILEIO_FORCE, FILEIO_SECRET). */
static int finish(FILE *o, unsigned flags, int discard)
{
    char err[1024];

    if (fileio_stream_close(o, flags, discard, err, sizeof err) != FILEIO_OK)
        return cli_fail("%s", err);
    return ST_OK;
}

/* Before any work: the secret input named as an input, and every output
 * of a claimed under the file rules (an input, or one file named twice, is
 * refused at once, not after the solver's budget). */
static int claim(const char *cmd, const lab_args *a)
{
    const char *outs[] = {a->out, a->json, a->csv};
    unsigned fl = a->force ? FILEIO_FORCE : 0;
    char err[1024], path[4200];
    struct stat st;

    fileio_note_input(a->seed);
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        if (!outs[i])
            continue;
        int rc = fileio_claim_output(outs[i], fl, err, sizeof err);
        if (rc != FILEIO_OK)
            return cli_fail("%s: %s%s", cmd, err, rc == FILEIO_EXISTS
                        ? " (--force replaces it)" : "");
    }
    for (size_t i = 0; a->plot && i < 3 && stat(a->plot, &st) == 0; i++) {
        static const char *const chart[] = {"dat", "gp", "svg"};
        snprintf(path, sizeof path, "%s/calibration.%s", a->plot, chart[i]);
        int rc = fileio_claim_output(path, fl, err, sizeof err);
        if (rc != FILEIO_OK)
            return cli_fail("%s: --plot: %s%s", cmd, err, rc == FILEIO_EXISTS
                        ? " (--force replaces it)" : "");
    }
    return ST_OK;
}

static FILE *start(const char *path, int force)
{
    char err[1024];

    if (fileio_check_output(path, force ? FILEIO_FORCE : 0, err,
                            sizeof err) != FILEIO_OK) {
        cli_fail("%s%s", err, force ? "" : " (--force replaces it)");
        return NULL;
    }
    FILE *o = fileio_stream_open(path);
    if (!o)
        cli_fail("%s: out of memory", path);
    return o;
}

/* The issuer's signature of t's message from the master seed in path
 * (the genuine branch of toy and export). */
static int genuine(const char *cmd, const char *path, const chal_target *t,
                   uint8_t *sig)
{
    uint8_t master[CHAL_MASTER_BYTES];
    char err[1024];

    if (read_master(path, master) != ST_OK)
        return ST_ERROR;
    int rc = chal_genuine_signature(sig, t, master, err, sizeof err);
    sodium_memzero(master, sizeof master);
    if (rc != CHAL_OK)
        return cli_fail("%s: %s: %s", cmd, path, err);
    return ST_OK;
}

/* ---- export ------------------------------------------------------------- */

int cmd_export(int argc, char **argv)
{
    lab_args a;
    chal_target t;
    chal_system full, sub;
    int fix[TTS_MAX_N];
    unsigned keep[TTS_MAX_M];
    uint8_t seed[32], vals[TTS_MAX_N];
    uint8_t sig[TTS_MAX_SIG_BYTES];
    char origin[256], seedhex[65];
    int st = ST_ERROR;

    if (parse_args("export", argc, argv, &a, " DIR --set --message --format "
                   "-o --fix --vars --equations --fix-seed --try --seed "
                   "--pk-sha256 --force ") != ST_OK ||
        claim("export", &a) != ST_OK)
        return ST_ERROR;
    if (!a.format || !a.out)
        return cli_fail("export: usage: export DIR --message I --format "
                    "singular|magma|sage|mq -o FILE [--set NAME] [--equations E] "
                    "[--fix K | --vars V] [--fix-seed HEX [--try T] | --seed FILE]");
    int f = chal_format_parse(a.format);
    if (f < 0)
        return cli_fail("export: --format: '%s' is not singular, magma, sage or "
                    "mq", a.format);
    if (a.seed && (a.fix_seed || a.attempt))
        return cli_fail("export: --seed (the genuine signature's values) and "
                    "--fix-seed/--try (random values) exclude each other");
    if ((a.fix_seed || a.attempt || a.seed) && !a.has_fix && !a.vars)
        return cli_fail("export: %s gives the fixed bytes' values: it needs --fix K "
                    "or --vars V", a.seed ? "--seed" : a.fix_seed ? "--fix-seed" : "--try");
    if (a.fix_seed && parse_hex32(a.fix_seed, "--fix-seed", seed) != ST_OK)
        return ST_ERROR;
    if (load_target("export", &a, &t) != ST_OK)
        return ST_ERROR;
    unsigned n = tts_params_n(t.p), m = tts_params_m(t.p);
    unsigned neq = a.equations ? a.equations : m;
    FILE *o = NULL;
    if (a.vars) {
        if (a.vars > n || (a.has_fix && a.fix != n - a.vars)) {
            cli_fail("export: --vars %u: %s has %u unknowns%s", a.vars,
                     tts_params_name(t.p), n, a.has_fix ? ", and --fix says otherwise" : "");
            goto out;
        }
        a.fix = n - a.vars;
    }
    if (a.fix >= n) {
        cli_fail("export: --fix: %s has %u unknowns; fix at most %u",
                 tts_params_name(t.p), n, n - 1);
        goto out;
    }
    if (neq > m) {
        cli_fail("export: --equations: %s has %u equations", tts_params_name(t.p), m);
        goto out;
    }
    if (a.seed) {
        if (genuine("export", a.seed, &t, sig) != ST_OK)
            goto out;
        fprintf(stderr, "export: warning: the fixed bytes are the issuer's signature "
                "of %s message %u; %s%s\n", tts_params_name(t.p), t.message,
                strcmp(a.out, "-") ? a.out : "the system goes to standard output: keep it secret",
                strcmp(a.out, "-") ? " is written as a secret file (mode 0600)" : "");
    }
    if (!(o = start(a.out, a.force)))
        goto out;
    if (chal_system_from_pk(&full, t.p, t.pk, t.digest) != CHAL_OK) {
        cli_fail("out of memory");
        goto out;
    }
    chal_export_info info = {&t, NULL, NULL};
    for (unsigned i = 0; i < n; i++)
        fix[i] = -1;
    if (a.fix) {
        unsigned first = n - a.fix;
        if (a.seed) {
            memcpy(vals, sig + first, a.fix);
            snprintf(origin, sizeof origin, "the issuer's signature of this message "
                     "(the genuine branch of toy --seed)");
        } else {
            if (!a.fix_seed)
                randombytes_buf(seed, sizeof seed);
            unsigned try_ = a.attempt ? a.attempt : 1;
            chal_fix_values(vals, a.fix, seed, try_ - 1);
            sodium_bin2hex(seedhex, sizeof seedhex, seed, sizeof seed);
            snprintf(origin, sizeof origin, "bytes %u..%u of the ChaCha20 stream of "
                     "--fix-seed %s (toy's try %u)", (try_ - 1) * a.fix,
                     try_ * a.fix - 1, seedhex, try_);
        }
        for (unsigned i = first; i < n; i++)
            fix[i] = vals[i - first];
        info.fix = fix;
        info.fix_origin = origin;
    }
    for (unsigned e = 0; e < neq; e++)
        keep[e] = e;
    const chal_system *s = &full;
    int reduced = a.fix || neq < m;
    if (reduced) {
        if (chal_system_reduce(&sub, &full, keep, neq, fix) != CHAL_OK) {
            chal_system_free(&full);
            cli_fail("out of memory");
            goto out;
        }
        s = &sub;
    }
    int rc = chal_export_write(o, s, (chal_format)f, &info);
    if (reduced)
        chal_system_free(&sub);
    chal_system_free(&full);
    FILE *oo = o;
    o = NULL;
    if (finish(oo, (a.force ? FILEIO_FORCE : 0) | (a.seed ? FILEIO_SECRET : 0),
               rc != CHAL_OK) != ST_OK)
        goto out;
    st = rc == CHAL_OK ? ST_OK : cli_fail("export: write error");
out:
    if (o)
        finish(o, 0, 1);
    sodium_memzero(sig, sizeof sig);
    sodium_memzero(vals, sizeof vals);
    chal_target_free(&t);
    return st;
}

/* ---- toy ------------------------------------------------------------------ */

static const char *status_name(int st)
{
    return st == CHAL_SOLVE_FOUND ? "solved" :
           st == CHAL_SOLVE_NONE ? "no-solution" : "timeout";
}

static int need_singular(const char *cmd, const char *solver)
{
    if (solver && strcmp(solver, "singular") != 0)
        return cli_fail("%s: --solver: only 'singular' is supported, not '%s'",
                    cmd, solver);
    if (!chal_singular_path())
        return cli_fail("%s: Singular not found: install it (Debian: apt-get "
                    "install singular) and re-run configure, or set "
                    "TTS_SINGULAR to its path", cmd);
    return ST_OK;
}

int cmd_toy(int argc, char **argv)
{
    lab_args a;
    chal_target t;
    chal_toy_opts o = {0};
    chal_toy_result r;
    uint8_t sig[TTS_MAX_SIG_BYTES];
    char err[1024];

    if (parse_args("toy", argc, argv, &a, " DIR --set --message --equations "
                   "--vars --solver --seed --fix-seed --max-tries --timeout "
                   "--json --pk-sha256 --force --full-signature ") != ST_OK ||
        claim("toy", &a) != ST_OK)
        return ST_ERROR;
    if (!a.equations || !a.vars || !a.json)
        return cli_fail("toy: usage: toy DIR --message I --equations E --vars V "
                    "--json FILE [--seed FILE | --fix-seed HEX] [--timeout S]");
    if (a.seed && a.fix_seed)
        return cli_fail("toy: --seed (the genuine signature's values) and "
                    "--fix-seed (random values) exclude each other");
    if (need_singular("toy", a.solver) != ST_OK)
        return ST_ERROR;
    if (a.fix_seed && parse_hex32(a.fix_seed, "--fix-seed", o.fix_seed) !=
                          ST_OK)
        return ST_ERROR;
    if (!a.fix_seed)
        randombytes_buf(o.fix_seed, sizeof o.fix_seed);
    if (load_target("toy", &a, &t) != ST_OK)
        return ST_ERROR;
    unsigned m = tts_params_m(t.p), n = tts_params_n(t.p);
    int st = ST_ERROR;
    FILE *js = NULL;
    if (a.equations > m || a.vars > a.equations) {
        cli_fail("toy: %s: need V <= E <= %u (got E = %u, V = %u): with fewer "
             "equations than unknowns the solutions are not isolated points",
             tts_params_name(t.p), m, a.equations, a.vars);
        goto out;
    }
    if (a.seed) {
        if (genuine("toy", a.seed, &t, sig) != ST_OK)
            goto out;
        o.genuine = sig;
    }
    if (a.full_signature && !o.genuine) {
        cli_fail("toy: --full-signature goes with --seed (the genuine branch)");
        goto out;
    }
    if (!(js = start(a.json, a.force)))
        goto out;
    /* The genuine branch's w_V..w_{n-1} are the issuer's real signature of
     * a live message: its report is a secret (0600), and names only the V
     * solved unknowns unless --full-signature asks for all n. */
    unsigned shown = o.genuine && !a.full_signature ? a.vars : n;
    if (o.genuine)
        fprintf(stderr, "toy: warning: the genuine branch uses the issuer's "
                "signature of %s message %u; %s%s%s\n", tts_params_name(t.p), t.message,
                strcmp(a.json, "-") ? a.json : "the report goes to standard output: keep it secret",
                strcmp(a.json, "-") ? " is written as a secret file (mode 0600)" : "",
                a.full_signature ? " (it holds the whole signature)" : "");
    o.t = &t;
    o.equations = a.equations;
    o.vars = a.vars;
    o.max_tries = a.max_tries;
    o.timeout = a.timeout;
    fprintf(stderr, "toy: %s message %u: %u equations in w_0..w_%u, "
            "w_%u..w_%u fixed (%s)\n", tts_params_name(t.p), t.message,
            a.equations, a.vars - 1, a.vars, n - 1,
            o.genuine ? "genuine signature" : "random values");
    if (!o.genuine && a.equations > a.vars) {
        /* random values for the fixed unknowns: a system of E equations in
         * V < E unknowns has a solution with probability about 2^-8(E-V) */
        unsigned bits = 8 * (a.equations - a.vars);
        fprintf(stderr, "toy: random branch: a solution is about a 2^-%u event per "
                "try, about 2^%u tries expected%s\n", bits, bits,
                bits >= 32 || (1ull << bits) > a.max_tries
                    ? "; --max-tries allows far fewer, so expect none: use --seed "
                      "(the genuine branch) or at most as many equations as unknowns"
                    : "");
    }
    if (chal_toy_run(&o, &r, stderr, err, sizeof err) != CHAL_OK) {
        cli_fail("toy: %s", err);
        fclose(js);
        js = NULL;
        goto out;
    }
    fprintf(js, "{\n  \"set\": \"%s\",\n  \"message\": %u,\n"
            "  \"pk_sha256\": \"%s\",\n  \"digest\": \"",
            tts_params_name(t.p), t.message, t.pk_sha256_hex);
    hex(js, t.digest, m);
    fprintf(js, "\",\n  \"equations\": [");
    for (unsigned e = 0; e < a.equations; e++)
        fprintf(js, "%s%u", e ? ", " : "", e);
    fprintf(js, "],\n  \"unknowns\": [");
    for (unsigned i = 0; i < a.vars; i++)
        fprintf(js, "%s%u", i ? ", " : "", i);
    fprintf(js, "],\n  \"branch\": \"%s\",\n",
            o.genuine ? "genuine-signature" : "random");
    if (!o.genuine) {
        fprintf(js, "  \"fix_seed\": \"");
        hex(js, o.fix_seed, 32);
        fprintf(js, "\",\n");
    }
    fprintf(js, "  \"status\": \"%s\",\n  \"satisfied\": %s,\n",
            status_name(r.status), r.satisfied ? "true" : "false");
    /* a Groebner basis time only where the solver finished one */
    char gbs[32] = "null";
    if (r.status != CHAL_SOLVE_TIMEOUT)
        snprintf(gbs, sizeof gbs, "%.3f", r.gb_seconds);
    if (r.status == CHAL_SOLVE_FOUND) {
        fprintf(js, "  \"w\": \"");
        hex(js, r.w, shown);
        fprintf(js, "\",\n");
    }
    if (r.solver_version)
        fprintf(js, "  \"solver\": \"Singular %u.%u.%u\",\n",
                r.solver_version / 1000, r.solver_version / 100 % 10,
                r.solver_version / 10 % 10);
    else /* stopped before it said */
        fprintf(js, "  \"solver\": \"Singular (version not reported)\",\n");
    fprintf(js, "  \"algorithm\": "
            "\"slimgb, degree reverse lexicographic\",\n"
            "  \"seconds\": %.3f,\n  \"groebner_seconds\": %s,\n"
            "  \"tries\": %u,\n  \"max_degree\": %u,\n"
            "  \"predicted_dreg\": %u,\n  \"predicted_solver_degree\": %u\n}\n",
            r.seconds, gbs, r.tries, r.max_degree, r.predicted_dreg,
            r.predicted_degree);
    if (finish(js, (a.force ? FILEIO_FORCE : 0) |
                       (o.genuine ? FILEIO_SECRET : 0), 0) != ST_OK) {
        js = NULL;
        goto out;
    }
    js = NULL;
    if (r.satisfied) {
        printf("solved: %u equations of %s in %u unknowns, %.2f s, %u "
               "tries, degree %u (D_reg %u); w%s = ", a.equations,
               tts_params_name(t.p), a.vars, r.seconds, r.tries, r.max_degree,
               r.predicted_dreg, shown < n ? "_0..w_V-1" : "");
        hex(stdout, r.w, shown);
        printf("\n");
        st = ST_OK;
    } else {
        printf("not solved: %s after %u tries, %.2f s\n",
               r.status == CHAL_SOLVE_FOUND ? "the solver's answer fails "
               "the equations" : status_name(r.status), r.tries, r.seconds);
        st = ST_INVALID;
    }
out:
    if (js)
        finish(js, a.force ? FILEIO_FORCE : 0, 1);
    chal_target_free(&t);
    return st;
}

/* ---- calibrate -------------------------------------------------------------- */

static void calib_json(FILE *o, const chal_calibration *c)
{
    fprintf(o, "{\n  \"set\": \"%s\",\n  \"pk_sha256\": \"%s\",\n"
            "  \"model\": \"log2 C(V + D_reg, D_reg)^2 (docs/SECURITY.md)\",\n"
            "  \"budget_seconds\": %.0f,\n  \"elapsed_seconds\": %.1f,\n"
            "  \"stopped\": \"%s\",\n  \"grid\": %u,\n  \"run\": %u,\n"
            "  \"fit\": {\"points\": %u, \"min_seconds\": %.2f, ",
            tts_params_name(c->p), c->pk_sha256_hex, c->budget, c->elapsed,
            c->stopped, c->ngrid, c->npoints, c->nfit, CHAL_CALIB_MIN_SECONDS);
    if (c->nfit >= 3)
        fprintf(o, "\"slope\": %.4f, \"intercept\": %.4f, \"r2\": %.4f, "
                "\"offset_slope1\": %.4f},\n", c->slope, c->intercept, c->r2,
                c->offset);
    else
        fprintf(o, "\"slope\": null, \"intercept\": null, \"r2\": null, "
                "\"offset_slope1\": null},\n");
    fprintf(o, "  \"points\": [");
    for (unsigned i = 0; i < c->npoints; i++) {
        const chal_calib_point *q = &c->points[i];
        fprintf(o, "%s\n    {\"equations\": %u, \"vars\": %u, \"dreg\": %u, "
                "\"predicted_solver_degree\": %u, \"max_degree\": %u, "
                "\"status\": \"%s\", \"seconds\": %.3f, "
                "\"groebner_seconds\": %.3f, \"model_bits\": %.2f, "
                "\"fitted\": %s", i ? "," : "", q->equations, q->vars,
                q->dreg, q->predicted_degree, q->max_degree,
                status_name(q->status), q->seconds, q->gb_seconds,
                q->model_bits, q->fitted ? "true" : "false");
        if (c->nfit >= 3 && q->fitted) /* residuals of the fit's own points */
            fprintf(o, ", \"residual\": %.3f", q->residual);
        fprintf(o, "}");
    }
    fprintf(o, "\n  ]\n}\n");
}

static void calib_csv(FILE *o, const chal_calibration *c)
{
    fprintf(o, "equations,vars,dreg,predicted_solver_degree,max_degree,"
            "status,seconds,groebner_seconds,model_bits,fitted,residual\n");
    for (unsigned i = 0; i < c->npoints; i++) {
        const chal_calib_point *q = &c->points[i];
        fprintf(o, "%u,%u,%u,%u,%u,%s,%.3f,%.3f,%.2f,%d,", q->equations,
                q->vars, q->dreg, q->predicted_degree, q->max_degree,
                status_name(q->status), q->seconds, q->gb_seconds,
                q->model_bits, q->fitted);
        if (c->nfit >= 3 && q->fitted) /* residuals of the fit's own points */
            fprintf(o, "%.3f", q->residual);
        fputc('\n', o);
    }
}

/* DIR/calibration.dat and DIR/calibration.gp; gnuplot, if on PATH, turns
 * them into DIR/calibration.svg, made in a temporary folder and committed
 * by the file rules like the other outputs. */
static int calib_plot(const char *dir, const chal_calibration *c, int force)
{
    char *text[2] = {NULL, NULL}, path[4200], err[1024];
    size_t len[2] = {0, 0};
    static const char *const name[2] = {"calibration.dat", "calibration.gp"};
    unsigned fl = force ? FILEIO_FORCE : 0;
    FILE *o;
    int st = ST_ERROR;

    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return cli_fail("--plot: %s: %s", dir, strerror(errno));
    if (!(o = open_memstream(&text[0], &len[0])))
        return cli_fail("out of memory");
    fprintf(o, "# model_bits log2_groebner_seconds equations vars fitted\n");
    for (unsigned i = 0; i < c->npoints; i++) {
        const chal_calib_point *q = &c->points[i];
        if (q->status == CHAL_SOLVE_FOUND && q->gb_seconds > 0)
            fprintf(o, "%.3f %.4f %u %u %d\n", q->model_bits,
                    log2(q->gb_seconds), q->equations, q->vars, q->fitted);
    }
    if (fclose(o) != 0 || !(o = open_memstream(&text[1], &len[1]))) {
        free(text[0]);
        return cli_fail("out of memory");
    }
    fprintf(o, "set terminal svg size 720,480 font 'sans,12' noenhanced\n"
            "set output 'calibration.svg'\n"
            "set title \"%s: Singular slimgb time against the model\"\n"
            "set xlabel 'model: log2 C(V+D_reg, D_reg)^2'\n"
            "set ylabel 'log2 seconds (Groebner basis)'\n"
            "set key left top\nset grid\n", tts_params_name(c->p));
    if (c->nfit >= 3)
        fprintf(o, "f(x) = %.4f + %.4f * x\n"
                "plot 'calibration.dat' using 1:($5 == 1 ? $2 : 1/0) "
                "with points pt 7 title 'fitted', \\\n"
                "     'calibration.dat' using 1:($5 == 0 ? $2 : 1/0) "
                "with points pt 6 title 'below %.2f s', \\\n"
                "     f(x) with lines title sprintf('fit: slope %.3f', "
                "%.4f)\n", c->intercept, c->slope, CHAL_CALIB_MIN_SECONDS,
                c->slope, c->slope);
    else
        fprintf(o, "plot 'calibration.dat' using 1:2 with points pt 7 "
                "title 'measured'\n");
    if (fclose(o) != 0) {
        free(text[0]);
        free(text[1]);
        return cli_fail("out of memory");
    }
    fileio_out in[2] = {{name[0], text[0], len[0], 0},
                        {name[1], text[1], len[1], 0}};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, name[i]);
        if (fileio_write(path, text[i], len[i], fl, err, sizeof err) !=
            FILEIO_OK) {
            cli_fail("calibrate: --plot: %s", err);
            goto out;
        }
    }
    char *argv[] = {"gnuplot", "calibration.gp", NULL};
    int rc = fileio_run_in(argv, in, 2, dir, fl, err, sizeof err);
    if (rc == FILEIO_NOPROG) {
        fprintf(stderr, "calibrate: gnuplot not found on PATH: %s/%s and "
                "%s/%s written; run gnuplot calibration.gp in %s for the "
                "plot (Debian: gnuplot-nox)\n", dir, name[0], dir, name[1],
                dir);
        st = ST_OK;
    } else if (rc != FILEIO_OK) {
        cli_fail("calibrate: --plot: %s", err);
    } else {
        fprintf(stderr, "calibrate: plot in %s/calibration.svg\n", dir);
        st = ST_OK;
    }
out:
    free(text[0]);
    free(text[1]);
    return st;
}

int cmd_calibrate(int argc, char **argv)
{
    lab_args a;
    uint8_t master[CHAL_MASTER_BYTES] = {0};
    char err[1024];
    static chal_calibration c;

    if (parse_args("calibrate", argc, argv, &a, " --set --seed --max-seconds "
                   "--json --csv --plot --solver --force ") != ST_OK ||
        claim("calibrate", &a) != ST_OK)
        return ST_ERROR;
    if (!a.json || !a.csv)
        return cli_fail("calibrate: usage: calibrate --json FILE --csv FILE "
                    "[--max-seconds S] [--set NAME] [--seed FILE] "
                    "[--plot DIR]");
    const tts_params *p = tts_params_get(a.set ? a.set : "TTS(16,22)");
    if (!p || !chal_entry_of(p))
        return cli_fail("calibrate: --set: unknown challenge set '%s'", a.set);
    if (need_singular("calibrate", a.solver) != ST_OK)
        return ST_ERROR;
    if (a.seed && read_master(a.seed, master) != ST_OK)
        return ST_ERROR;
    FILE *js = start(a.json, a.force), *cs = js ? start(a.csv, a.force) : NULL;
    if (!cs) {
        if (js)
            finish(js, a.force ? FILEIO_FORCE : 0, 1);
        return ST_ERROR;
    }
    double budget = a.max_seconds > 0 ? a.max_seconds : 300;
    fprintf(stderr, "calibrate: %s, message 1 of the instance of master "
            "seed %s, budget %.0f s\n", tts_params_name(p),
            a.seed ? a.seed : "0^32", budget);
    int rc = chal_calibrate(&c, p, master, budget, stderr, err, sizeof err);
    sodium_memzero(master, sizeof master);
    if (rc != CHAL_OK) {
        finish(js, a.force ? FILEIO_FORCE : 0, 1);
        finish(cs, a.force ? FILEIO_FORCE : 0, 1);
        return cli_fail("calibrate: %s", err);
    }
    calib_json(js, &c);
    calib_csv(cs, &c);
    if (finish(js, a.force ? FILEIO_FORCE : 0, 0) != ST_OK ||
        finish(cs, a.force ? FILEIO_FORCE : 0, 0) != ST_OK)
        return ST_ERROR;
    fprintf(stderr, "calibrate: %u sizes in %.0f s (%s); ", c.npoints,
            c.elapsed, c.stopped);
    if (c.nfit >= 3)
        fprintf(stderr, "log2 s = %.3f + %.3f * model bits over %u points "
                "(R^2 %.3f)\n", c.intercept, c.slope, c.nfit, c.r2);
    else
        fprintf(stderr, "too few sizes above %.2f s for a fit\n",
                CHAL_CALIB_MIN_SECONDS);
    if (a.plot && calib_plot(a.plot, &c, a.force) != ST_OK)
        return ST_ERROR;
    return ST_OK;
}
