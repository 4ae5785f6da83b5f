/* SPDX-License-Identifier: MIT */
/*
 * The attack lab (challenge/challenge.h, docs/SECURITY.md section 7): toy
 * sub-systems of a challenge instance handed to Singular, the solution
 * mapped back and checked, the highest degree the solver reached read from
 * its own protocol output.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "config.h"
#include "challenge.h"

#define say chal_fail
#define SOLVER_OUTPUT_CAP ((size_t)64 << 20)

/* ---- fixing values --------------------------------------------------------- */

void chal_fix_values(uint8_t *out, size_t k, const uint8_t seed[32],
                     unsigned attempt)
{
    tts_stream st;
    uint8_t skip[256];

    tts_stream_init(&st, seed);
    for (unsigned t = 0; t < attempt; t++)
        for (size_t left = k; left;) {
            size_t c = left < sizeof skip ? left : sizeof skip;
            tts_stream_rng(&st, skip, c);
            left -= c;
        }
    tts_stream_rng(&st, out, k);
    tts_stream_wipe(&st);
}

/* ---- Singular -------------------------------------------------------------- */

const char *chal_singular_path(void)
{
    const char *env = getenv("TTS_SINGULAR");
    const char *path = env && *env ? env :
#ifdef TTS_SINGULAR_PATH
        TTS_SINGULAR_PATH;
#else
        NULL;
#endif
    return path && access(path, X_OK) == 0 ? path : NULL;
}

/*
 * After the system (the export format), the solving part: slimgb under
 * option(prot), whose protocol prints each degree it works in as "dM[...]";
 * then the field equations x^256 = x reduced modulo the basis by eight
 * squarings, which leave exactly the points over GF(256); of several, the
 * first variable's first value (0, a^0, a^1, ...) that keeps a point, then
 * the next variable's.
 */
static const char solve_script[] =
    "system(\"--ticks-per-sec\", 1000);\n"
    "\"tts-lab: version \" + string(system(\"version\"));\n"
    "int tts_t0 = rtimer;\n"
    "option(prot);\n"
    "ideal tts_J = slimgb(I);\n"
    "option(noprot);\n"
    "\"\";\n"
    "\"tts-lab: groebner ms \" + string(rtimer - tts_t0);\n"
    "\"tts-lab: vdim \" + string(vdim(tts_J));\n"
    "int tts_i; int tts_j; int tts_e; poly tts_f; ideal tts_F;\n"
    "if (vdim(tts_J) == 0) { \"tts-lab: none\"; quit; }\n"
    "for (tts_i = 1; tts_i <= nvars(basering); tts_i++) {\n"
    "  tts_f = var(tts_i);\n"
    "  for (tts_j = 1; tts_j <= 8; tts_j++) { tts_f = reduce(tts_f^2, tts_J); }\n"
    "  tts_F[tts_i] = tts_f - var(tts_i);\n"
    "}\n"
    "ideal tts_K = std(tts_J + tts_F);\n"
    "\"tts-lab: points \" + string(vdim(tts_K));\n"
    "if (vdim(tts_K) == 0) { \"tts-lab: none\"; quit; }\n"
    "ideal tts_K2; number tts_c;\n"
    "for (tts_i = 1; tts_i <= nvars(basering); tts_i++) {\n"
    "  for (tts_e = -1; tts_e < 255 && vdim(tts_K) > 1; tts_e++) {\n"
    "    if (tts_e < 0) { tts_c = 0; } else { tts_c = a^tts_e; }\n"
    "    tts_K2 = std(tts_K + ideal(var(tts_i) - tts_c));\n"
    "    if (vdim(tts_K2) > 0) { tts_K = tts_K2; break; }\n"
    "  }\n"
    "}\n"
    "for (tts_i = 1; tts_i <= nvars(basering); tts_i++) {\n"
    "  \"tts-lab: x \" + string(tts_i) + \" \" + string(reduce(var(tts_i), tts_K));\n"
    "}\n"
    "\"tts-lab: end\";\n"
    "quit;\n";

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Run argv with stdout and stderr into *out (at most cap bytes kept),
 * killed after timeout seconds (0: none). 1 if it timed out, 0 if it
 * exited (status in *status), CHAL_ERROR on failure. */
static int run_captured(char *const argv[], double timeout, char **out,
                        size_t *outlen, int *status, char *err, size_t errlen)
{
    int fds[2];
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);

    if (!buf || pipe(fds) != 0) {
        free(buf);
        return say(err, errlen, "cannot start the solver: %s",
                   strerror(errno));
    }
    /* the solver in its own process group, listed for the host's signal
     * handler (chal_io): an interrupted run kills it too */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    pid_t pid = fork();
    if (pid > 0) {
        setpgid(pid, pid);
        chal_io_get()->child_add(pid);
    }
    if (pid != 0)
        sigprocmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        free(buf);
        close(fds[0]);
        close(fds[1]);
        return say(err, errlen, "cannot start the solver: %s",
                   strerror(errno));
    }
    if (pid == 0) {
        setpgid(0, 0);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, STDIN_FILENO);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    double start = now_seconds();
    int timed_out = 0;
    for (;;) {
        int wait_ms = -1;
        if (timeout > 0) {
            double left = timeout - (now_seconds() - start);
            if (left <= 0) {
                timed_out = 1;
                break;
            }
            wait_ms = (int)(left * 1000) + 1;
        }
        struct pollfd pf = {fds[0], POLLIN, 0};
        int r = poll(&pf, 1, wait_ms);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue;
        char chunk[4096];
        ssize_t got = read(fds[0], chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (len + (size_t)got + 1 > cap && cap < SOLVER_OUTPUT_CAP) {
            size_t ncap = cap * 2;
            char *nb = realloc(buf, ncap);
            if (nb) {
                buf = nb;
                cap = ncap;
            }
        }
        size_t keep = (size_t)got;
        if (len + keep + 1 > cap)
            keep = cap - len - 1;
        memcpy(buf + len, chunk, keep);
        len += keep;
    }
    if (timed_out) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    }
    close(fds[0]);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    chal_io_get()->child_done(pid);
    buf[len] = '\0';
    *out = buf;
    *outlen = len;
    return timed_out;
}

/* The libtts byte of a field element as Singular prints it: 0, 1, a, a^e. */
static int parse_element(const char *s, uint8_t *out)
{
    char *end;

    if (strcmp(s, "0") == 0) {
        *out = 0;
        return 0;
    }
    if (strcmp(s, "1") == 0) {
        *out = (uint8_t)chal_phi_from_log(0);
        return 0;
    }
    if (strcmp(s, "a") == 0) {
        *out = (uint8_t)chal_phi_from_log(1);
        return 0;
    }
    if (strncmp(s, "a^", 2) != 0)
        return -1;
    errno = 0;
    unsigned long e = strtoul(s + 2, &end, 10);
    if (errno || *end || e >= 255 || s[2] < '0' || s[2] > '9')
        return -1;
    *out = (uint8_t)chal_phi_from_log((unsigned)e);
    return 0;
}

/* The highest d of the "dM[" marks slimgb's protocol prints. */
static unsigned protocol_degree(const char *text, const char *stop)
{
    unsigned best = 0;

    for (const char *s = text; s + 1 < stop; s++) {
        if (s[1] != 'M' || s[2] != '[' || s[0] < '0' || s[0] > '9')
            continue;
        const char *b = s;
        while (b > text && b[-1] >= '0' && b[-1] <= '9')
            b--;
        unsigned d = (unsigned)strtoul(b, NULL, 10);
        if (d > best)
            best = d;
    }
    return best;
}

static int parse_solver(const char *text, const chal_system *s,
                        chal_solve_result *r, char *err, size_t errlen)
{
    const char *g = strstr(text, "tts-lab: groebner ms ");
    const char *v = strstr(text, "tts-lab: version ");

    if (!g || !v)
        return say(err, errlen, "the solver's output is not understood "
                   "(no Groebner basis reported)");
    r->solver_version = (unsigned)strtoul(v + 17, NULL, 10);
    r->max_degree = protocol_degree(text, g);
    r->gb_seconds = strtod(g + 21, NULL) / 1000.0;
    if (strstr(text, "tts-lab: none")) {
        r->status = CHAL_SOLVE_NONE;
        return CHAL_OK;
    }
    if (!strstr(text, "tts-lab: end"))
        return say(err, errlen, "the solver stopped before giving a "
                   "solution");
    unsigned seen = 0;
    for (const char *x = text; (x = strstr(x, "tts-lab: x ")) != NULL;) {
        x += 11;
        char *end;
        unsigned long i = strtoul(x, &end, 10);
        char elem[16];
        size_t k = 0;
        if (*end == ' ')
            end++;
        while (end[k] && end[k] != '\n' && k < sizeof elem - 1) {
            elem[k] = end[k];
            k++;
        }
        elem[k] = '\0';
        if (i < 1 || i > s->nvar || parse_element(elem, &r->x[i - 1]) != 0)
            return say(err, errlen, "the solver printed a value the lab "
                       "does not read: '%s'", elem);
        seen++;
        x = end;
    }
    if (seen != s->nvar)
        return say(err, errlen, "the solver gave %u of %u values", seen,
                   s->nvar);
    r->status = CHAL_SOLVE_FOUND;
    return CHAL_OK;
}

int chal_solve_singular(const chal_system *s, double timeout,
                        chal_solve_result *r, char *err, size_t errlen)
{
    const char *exe = chal_singular_path();
    char *out = NULL;
    size_t outlen = 0;
    int status = 0, rc = CHAL_ERROR;

    memset(r, 0, sizeof *r);
    if (!exe)
        return say(err, errlen, "Singular not found: install it (Debian: "
                   "apt-get install singular), or name it with "
                   "TTS_SINGULAR=PATH");
    /* the script in a temporary folder of the host (chal_io): under
     * $TMPDIR as an absolute path (a TMPDIR beginning with '-' is not read
     * as an option by the solver), removed on every exit and on a signal */
    char tdir[4096], tpath[4200];
    if (chal_io_get()->temp_dir(tdir, sizeof tdir, "tts-lab", err, errlen) !=
        CHAL_OK)
        return CHAL_ERROR;
    snprintf(tpath, sizeof tpath, "%s/system.sing", tdir);
    int fd = open(tpath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        chal_io_get()->temp_done(tdir, 1);
        return say(err, errlen, "%s: cannot create the solver's script: %s",
                   tpath, strerror(errno));
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        chal_io_get()->temp_done(tdir, 1);
        return say(err, errlen, "cannot write the solver's script");
    }
    chal_export_info none = {0};
    chal_export_write(f, s, CHAL_FMT_SINGULAR, &none);
    fputs(solve_script, f);
    if (fclose(f) != 0) {
        chal_io_get()->temp_done(tdir, 1);
        return say(err, errlen, "%s: write error", tpath);
    }
    char *argv[] = {(char *)exe, "-q", "-t", "--no-rc", "--no-shell",
                    "--cpus=1", "--no-warn", tpath, NULL};
    double t0 = now_seconds();
    int to = run_captured(argv, timeout, &out, &outlen, &status, err,
                          errlen);
    r->seconds = now_seconds() - t0;
    chal_io_get()->temp_done(tdir, 1);
    if (to < 0)
        return CHAL_ERROR;
    if (to == 1) {
        r->status = CHAL_SOLVE_TIMEOUT;
        const char *v = strstr(out, "tts-lab: version ");
        if (v) /* 0 when the solver said nothing before it was stopped */
            r->solver_version = (unsigned)strtoul(v + 17, NULL, 10);
        const char *g = strstr(out, "tts-lab: groebner ms ");
        r->max_degree = protocol_degree(out, g ? g : out + outlen);
        rc = CHAL_OK;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 &&
               outlen == 0)
        say(err, errlen, "%s: cannot run it", exe);
    else
        rc = parse_solver(out, s, r, err, errlen);
    free(out);
    return rc;
}

/* ---- toy attacks ------------------------------------------------------------ */

int chal_toy_run(const chal_toy_opts *o, chal_toy_result *r, FILE *progress,
                 char *err, size_t errlen)
{
    const chal_target *t = o->t;
    unsigned m = tts_params_m(t->p), n = tts_params_n(t->p);
    chal_system full, sub;
    unsigned keep[TTS_MAX_M];
    int fix[TTS_MAX_N];
    uint8_t vals[TTS_MAX_N];

    memset(r, 0, sizeof *r);
    if (o->equations < 1 || o->equations > m || o->vars < 1 ||
        o->vars > o->equations || o->vars > n)
        return say(err, errlen, "%s: need 1 <= vars <= equations <= %u "
                   "(got %u equations, %u vars): with fewer equations than "
                   "unknowns the solutions are not isolated points",
                   tts_params_name(t->p), m, o->equations, o->vars);
    if (chal_system_from_pk(&full, t->p, t->pk, t->digest) != CHAL_OK)
        return say(err, errlen, "out of memory");
    for (unsigned e = 0; e < o->equations; e++)
        keep[e] = e;
    r->equations = o->equations;
    r->vars = o->vars;
    r->predicted_dreg = chal_dreg(o->equations, o->vars);
    r->predicted_degree = chal_solver_degree(o->equations, o->vars);
    unsigned nfix = n - o->vars;
    unsigned tries_max = o->genuine ? 1 : (o->max_tries ? o->max_tries : 1);
    int rc = CHAL_OK;

    for (unsigned attempt = 0; attempt < tries_max; attempt++) {
        if (o->genuine)
            memcpy(vals, o->genuine + o->vars, nfix);
        else
            chal_fix_values(vals, nfix, o->fix_seed, attempt);
        for (unsigned i = 0; i < n; i++)
            fix[i] = i < o->vars ? -1 : vals[i - o->vars];
        if (chal_system_reduce(&sub, &full, keep, o->equations, fix) !=
            CHAL_OK) {
            rc = say(err, errlen, "out of memory");
            break;
        }
        chal_solve_result sr;
        double left = o->timeout > 0 ? o->timeout - r->seconds : 0;
        if (o->timeout > 0 && left <= 0) {
            chal_system_free(&sub);
            r->status = CHAL_SOLVE_TIMEOUT;
            break;
        }
        rc = chal_solve_singular(&sub, left, &sr, err, errlen);
        r->tries = attempt + 1;
        r->seconds += sr.seconds;
        r->gb_seconds = sr.gb_seconds;
        r->solver_version = sr.solver_version;
        if (sr.max_degree > r->max_degree)
            r->max_degree = sr.max_degree;
        r->status = sr.status;
        /* a line only for a try the solver finished or ran out of time
         * on: a failed run is reported by its error alone */
        if (progress && rc == CHAL_OK && sr.status == CHAL_SOLVE_TIMEOUT)
            fprintf(progress, "  try %u: timed out after %.2f s (degree %u "
                    "reached)\n", attempt + 1, sr.seconds, sr.max_degree);
        else if (progress && rc == CHAL_OK)
            fprintf(progress, "  try %u: %s after %.2f s (Groebner basis "
                    "%.2f s, degree %u)\n", attempt + 1,
                    sr.status == CHAL_SOLVE_FOUND ? "solution" : "no solution",
                    sr.seconds, sr.gb_seconds, sr.max_degree);
        if (rc != CHAL_OK || sr.status != CHAL_SOLVE_NONE) {
            if (rc == CHAL_OK && sr.status == CHAL_SOLVE_FOUND) {
                for (unsigned i = 0; i < n; i++)
                    r->w[i] = i < o->vars ? sr.x[i] : vals[i - o->vars];
                /* the check that counts: the kept equations at w */
                uint8_t y[TTS_MAX_M];
                chal_system_eval(&full, y, r->w);
                r->satisfied = 1;
                for (unsigned e = 0; e < o->equations; e++)
                    if (y[e])
                        r->satisfied = 0;
            }
            chal_system_free(&sub);
            break;
        }
        chal_system_free(&sub);
    }
    chal_system_free(&full);
    return rc;
}

/* ---- the issuer's side: genuine signatures -------------------------------- */

int chal_genuine_signature(uint8_t *sig, const chal_target *t,
                           const uint8_t master[CHAL_MASTER_BYTES], char *err,
                           size_t errlen)
{
    const tts_params *p = t->p;
    uint8_t *pk = malloc(tts_pk_bytes(p)), *sk = NULL;
    int rc = CHAL_ERROR;

    if (!pk) {
        say(err, errlen, "out of memory");
        goto out;
    }
    if (chal_instance_keypair(p, master, pk, &sk, NULL, err, errlen) != CHAL_OK)
        goto out;
    if (t->pklen != tts_pk_bytes(p) || memcmp(pk, t->pk, t->pklen) != 0) {
        say(err, errlen, "the master seed is not this challenge's: its %s "
            "key differs from pk.tts", tts_params_name(p));
        goto out;
    }
    /* its randomness is a stream of master, so runs repeat */
    uint8_t key[32];
    tts_stream st;
    crypto_hash_sha256_state h;
    crypto_hash_sha256_init(&h);
    crypto_hash_sha256_update(&h, (const uint8_t *)"libtts lab signature", 20);
    crypto_hash_sha256_update(&h, master, CHAL_MASTER_BYTES);
    crypto_hash_sha256_final(&h, key);
    tts_stream_init(&st, key);
    int sr = tts_sign_digest(p, sig, t->digest, sk, tts_stream_rng, &st);
    tts_stream_wipe(&st);
    sodium_memzero(key, sizeof key);
    sodium_memzero(&h, sizeof h);
    if (sr != TTS_OK) {
        say(err, errlen, "signing failed");
        goto out;
    }
    rc = CHAL_OK;
out:
    chal_secret_free(p, sk);
    free(pk);
    return rc;
}

int chal_target_issue(chal_target *t, const tts_params *p,
                      const uint8_t master[CHAL_MASTER_BYTES], char *err,
                      size_t errlen)
{
    uint8_t h[32];
    char msg[512];
    int rc = CHAL_ERROR;

    memset(t, 0, sizeof *t);
    t->set = chal_set_of(p);
    t->p = p;
    t->message = 1;
    t->pklen = tts_pk_bytes(p);
    t->pk = malloc(t->pklen);
    if (!t->pk) {
        say(err, errlen, "out of memory");
        goto out;
    }
    int ml = chal_message_text(msg, sizeof msg, chal_set_of(p), 1, 1, CHAL_LAB_DATE);
    if (chal_instance_keypair(p, master, t->pk, NULL, NULL, err, errlen) != CHAL_OK)
        goto out;
    if (ml < 0 || tts_digest(p, t->digest, (const uint8_t *)msg, (size_t)ml) != TTS_OK) {
        say(err, errlen, "%s: message digest failed", tts_params_name(p));
        goto out;
    }
    crypto_hash_sha256(h, t->pk, t->pklen);
    sodium_bin2hex(t->pk_sha256_hex, sizeof t->pk_sha256_hex, h, sizeof h);
    rc = CHAL_OK;
out:
    if (rc != CHAL_OK)
        chal_target_free(t);
    return rc;
}

/* ---- calibration -------------------------------------------------------------- */

static int by_model(const void *x, const void *y)
{
    const chal_calib_point *a = x, *b = y;
    if (a->model_bits != b->model_bits)
        return a->model_bits < b->model_bits ? -1 : 1;
    return a->vars != b->vars ? (int)a->vars - (int)b->vars
                              : (int)a->equations - (int)b->equations;
}

/* Least squares y = intercept + slope x over the points that count. */
static void fit(chal_calibration *c)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
    unsigned k = 0;

    for (unsigned i = 0; i < c->npoints; i++) {
        const chal_calib_point *q = &c->points[i];
        if (!q->fitted)
            continue;
        double x = q->model_bits, y = log2(q->gb_seconds);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
        k++;
    }
    c->nfit = k;
    c->slope = c->intercept = c->r2 = c->offset = NAN;
    if (k < 3)
        return;
    double d = k * sxx - sx * sx;
    c->slope = (k * sxy - sx * sy) / d;
    c->intercept = (sy - c->slope * sx) / k;
    c->offset = (sy - sx) / k; /* slope 1: time = 2^(bits + offset) s */
    double ss = syy - sy * sy / k, res = 0;
    for (unsigned i = 0; i < c->npoints; i++) {
        chal_calib_point *q = &c->points[i];
        if (q->status != CHAL_SOLVE_FOUND || q->gb_seconds <= 0)
            continue;
        q->predicted_log2 = c->intercept + c->slope * q->model_bits;
        q->residual = log2(q->gb_seconds) - q->predicted_log2;
        if (q->fitted)
            res += q->residual * q->residual;
    }
    c->r2 = ss > 0 ? 1 - res / ss : NAN;
}

int chal_calibrate(chal_calibration *c, const tts_params *p,
                   const uint8_t master[CHAL_MASTER_BYTES], double budget,
                   FILE *progress, char *err, size_t errlen)
{
    unsigned m = tts_params_m(p), n = tts_params_n(p);
    chal_target t;
    uint8_t sig[TTS_MAX_SIG_BYTES];

    memset(c, 0, sizeof *c);
    c->p = p;
    c->budget = budget;
    if (chal_target_issue(&t, p, master, err, errlen) != CHAL_OK)
        return CHAL_ERROR;
    if (chal_genuine_signature(sig, &t, master, err, errlen) != CHAL_OK) {
        chal_target_free(&t);
        return CHAL_ERROR;
    }
    memcpy(c->pk_sha256_hex, t.pk_sha256_hex, sizeof c->pk_sha256_hex);
    /* the grid: every V <= E <= m from 2 unknowns up, cheapest first */
    for (unsigned v = 2; v <= m && v <= n; v++)
        for (unsigned e = v; e <= m && c->ngrid < CHAL_CALIB_MAX; e++) {
            chal_calib_point *q = &c->points[c->ngrid++];
            q->equations = e;
            q->vars = v;
            q->dreg = chal_dreg(e, v);
            q->predicted_degree = chal_solver_degree(e, v);
            q->model_bits = chal_f4_bits(e, v);
        }
    qsort(c->points, c->ngrid, sizeof c->points[0], by_model);
    double start = now_seconds();
    int rc = CHAL_OK;
    for (unsigned i = 0; i < c->ngrid; i++) {
        chal_calib_point *q = &c->points[i];
        double left = budget - (now_seconds() - start);
        fit(c);
        if (left <= 0 ||
            (c->nfit >= 3 &&
             c->intercept + c->slope * q->model_bits > log2(left))) {
            c->stopped = left <= 0 ? "budget spent" :
                         "the next size's predicted time exceeds the budget "
                         "left";
            break;
        }
        chal_toy_opts o = {&t, q->equations, q->vars, sig, {0}, 1, left};
        chal_toy_result r;
        if (progress)
            fprintf(progress, "[%3.0f s] %u equations in %u unknowns "
                    "(model 2^%.1f, D_reg %u): ", now_seconds() - start,
                    q->equations, q->vars, q->model_bits, q->dreg);
        rc = chal_toy_run(&o, &r, NULL, err, errlen);
        if (rc != CHAL_OK)
            break;
        q->status = r.status;
        q->max_degree = r.max_degree;
        q->seconds = r.seconds;
        q->gb_seconds = r.gb_seconds;
        q->solver_version = r.solver_version;
        if (r.status == CHAL_SOLVE_FOUND && !r.satisfied) {
            rc = say(err, errlen, "%u equations in %u unknowns: the "
                     "solver's solution does not satisfy them", q->equations,
                     q->vars);
            break;
        }
        q->fitted = r.status == CHAL_SOLVE_FOUND &&
                    q->gb_seconds >= CHAL_CALIB_MIN_SECONDS;
        c->npoints = i + 1;
        if (progress && r.status == CHAL_SOLVE_FOUND)
            fprintf(progress, "solved, %.2f s (Groebner basis %.2f s), "
                    "degree %u\n", q->seconds, q->gb_seconds, q->max_degree);
        else if (progress)
            fprintf(progress, "%s after %.2f s, degree %u reached\n",
                    r.status == CHAL_SOLVE_TIMEOUT ? "timed out" :
                    "no solution", q->seconds, q->max_degree);
        if (r.status == CHAL_SOLVE_TIMEOUT) {
            c->stopped = "a size timed out";
            break;
        }
    }
    if (!c->stopped && rc == CHAL_OK)
        c->stopped = "grid done";
    c->elapsed = now_seconds() - start;
    fit(c);
    chal_target_free(&t);
    return rc;
}
