/* SPDX-License-Identifier: MIT */
/*
 * tts-challenge break and forge: the key-only attack (challenge/break.h)
 * on a challenge folder or a plain public key, and signing with the
 * equivalent key it recovers.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "break.h"
#include "challenge.h"
#include "challenge_cli.h"
#include "fileio.h"
#include "json.h"
#include "tts.h"
#include "ttsfile.h"

#define MAX_MSG 64

typedef struct {
    const char *dir, *set, *pk, *digest, *msgfile, *out, *keyout, *key, *seed,
        *json, *checkpoint, *pin;
    const char *msgarg[MAX_MSG];
    unsigned msgs[MAX_MSG], nmsg, nmsgarg, threads;
    int solver, force, quiet;
} brk_args;

static int parse(const char *cmd, int argc, char **argv, brk_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name, field)                                                       \
    if (strcmp(o, name) == 0) {                                                \
        if (!v)                                                                \
            return cli_fail("%s: %s needs a value", cmd, name);                   \
        if (a->field)                                                          \
            return cli_fail("%s: %s given twice", cmd, name);                     \
        a->field = v;                                                          \
        i++;                                                                   \
        continue;                                                              \
    }
        OPT("--set", set)
        OPT("--pk", pk)
        OPT("--digest", digest)
        OPT("-o", out)
        OPT("--key-out", keyout)
        OPT("--key", key)
        OPT("--seed", seed)
        OPT("--json", json)
        OPT("--checkpoint", checkpoint)
        OPT("--pk-sha256", pin)
#undef OPT
        if (strcmp(o, "--message") == 0) {
            if (!v)
                return cli_fail("%s: --message needs a value", cmd);
            if (a->nmsgarg == MAX_MSG)
                return cli_fail("%s: more than %d messages", cmd, MAX_MSG);
            a->msgarg[a->nmsgarg++] = v;
            i++;
        } else if (strcmp(o, "--threads") == 0) {
            if (!v || parse_unsigned(v, 1, 64, "--threads", &a->threads) != ST_OK)
                return v ? ST_ERROR : cli_fail("%s: --threads needs a value", cmd);
            i++;
        } else if (strcmp(o, "--solver") == 0) {
            if (!v)
                return cli_fail("%s: --solver needs a value", cmd);
            i++;
            if (strcmp(v, "auto") == 0)
                a->solver = CHAL_SOLVER_AUTO;
            else if (strcmp(v, "dense") == 0)
                a->solver = CHAL_SOLVER_DENSE;
            else if (strcmp(v, "wiedemann") == 0)
                a->solver = CHAL_SOLVER_WIEDEMANN;
            else
                return cli_fail("%s: --solver: auto, dense or wiedemann, not '%s'", cmd, v);
        } else if (strcmp(o, "--force") == 0)
            a->force = 1;
        else if (strcmp(o, "--quiet") == 0)
            a->quiet = 1;
        else if (o[0] == '-' && o[1])
            return cli_fail("%s: unexpected argument '%s'", cmd, o);
        else if (!a->dir)
            a->dir = o;
        else
            return cli_fail("%s: too many arguments", cmd);
    }
    return ST_OK;
}

/* --message as a file (plain mode: one) or as challenge message numbers. */
static int messages(const char *cmd, brk_args *a, int plain)
{
    if (plain) {
        if (a->nmsgarg > 1)
            return cli_fail("%s: one --message FILE", cmd);
        a->msgfile = a->nmsgarg ? a->msgarg[0] : NULL;
        return ST_OK;
    }
    for (unsigned i = 0; i < a->nmsgarg; i++) {
        if (parse_unsigned(a->msgarg[i], 1, CHAL_MAX_INSTANCES, "--message",
                           &a->msgs[a->nmsg]) != ST_OK)
            return ST_ERROR;
        /* each forgery is one file: a message named twice would be
         * written twice, the second refused as an existing output */
        for (unsigned j = 0; j < a->nmsg; j++)
            if (a->msgs[j] == a->msgs[a->nmsg])
                return cli_fail("%s: --message %u given twice", cmd, a->msgs[j]);
        a->nmsg++;
    }
    return ST_OK;
}

static int read_digest(const char *cmd, const brk_args *a, const tts_params *p,
                       uint8_t *digest)
{
    size_t m = tts_digest_bytes(p), got;
    char err[512];
    if (a->digest && a->msgfile)
        return cli_fail("%s: give --digest or --message, not both", cmd);
    if (a->digest) {
        if (strlen(a->digest) != 2 * m ||
            sodium_hex2bin(digest, m, a->digest, 2 * m, NULL, &got, NULL) != 0 || got != m)
            return cli_fail("%s: --digest: expected %zu hex digits (the %s digest)", cmd, 2 * m,
                        tts_params_name(p));
        return ST_OK;
    }
    if (!a->msgfile)
        return cli_fail("%s: give the message (--message FILE) or its digest (--digest HEX)",
                    cmd);
    uint8_t *buf;
    size_t len;
    if (fileio_read(a->msgfile, (size_t)1 << 30, FILEIO_STDIN, &buf, &len, NULL, err,
                    sizeof err) != FILEIO_OK)
        return cli_fail("%s: %s", cmd, err);
    int r = tts_digest(p, digest, buf, len);
    fileio_free(buf, len);
    return r == TTS_OK ? ST_OK : cli_fail("%s: cannot hash the message", cmd);
}

/* ---- the equivalent-key file ---- */

/* The equivalent key is a binary secret: never on a terminal. */
int challenge_check_key_out(const char *cmd, const char *path)
{
    if (path && strcmp(path, "-") == 0 && isatty(STDOUT_FILENO))
        return cli_fail("%s: refusing to write the secret equivalent key to a terminal; "
                        "use --key-out FILE", cmd);
    return ST_OK;
}

int challenge_write_secret(const char *path, uint8_t *buf, size_t len, int force)
{
    char err[512];
    int r = fileio_write(path, buf, len, FILEIO_SECRET | (force ? FILEIO_FORCE : 0), err,
                         sizeof err);
    sodium_memzero(buf, len);
    free(buf);
    return r == FILEIO_OK ? ST_OK : cli_fail("%s", err);
}

static int write_key(const char *path, const chal_eqkey *k, int force)
{
    size_t len = chal_eqkey_bytes(k->p);
    uint8_t *buf = malloc(len);
    if (!buf)
        return cli_fail("no memory");
    chal_eqkey_encode(buf, k);
    return challenge_write_secret(path, buf, len, force);
}

/* ---- output ---- */

static int write_sig(const char *path, const tts_params *p, const uint8_t *sig, int force)
{
    char err[512];
    int r = ttsfile_write(path, TTS_FILE_SIGNATURE, p, sig, force ? TTSFILE_FORCE : 0, err,
                          sizeof err);
    return r == TTSFILE_OK ? ST_OK : cli_fail("%s", err);
}

/* The progress line of a long step, with the time left at its rate so
 * far; cleared (not left behind) when the step ends. */
void challenge_progress(void *ctx, const char *stage, double done)
{
    static struct timespec t0;
    static const char *st;
    struct timespec now;
    (void)ctx;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (stage != st || done <= 0.0) {
        st = stage;
        t0 = now;
    }
    double el = (double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec);
    if (done >= 1.0) {
        fprintf(stderr, "\r\033[K");
    } else if (done > 0.01 && el > 1.0) {
        double left = el * (1.0 - done) / done;
        fprintf(stderr, "\r\033[K  %s: %5.1f %%, about %.0f s left", stage, 100.0 * done, left);
    } else {
        fprintf(stderr, "\r\033[K  %s: %5.1f %%", stage, 100.0 * done);
    }
    fflush(stderr);
}

static const char *solver_name(int s)
{
    return s == CHAL_SOLVER_DENSE ? "dense" : s == CHAL_SOLVER_WIEDEMANN ? "wiedemann" : "auto";
}

static void report_json(FILE *o, const tts_params *p, const uint8_t *pk,
                        const uint8_t seed[32], const chal_break_report *r, int status,
                        const char *why)
{
    uint8_t h[32];
    char hx[65], sx[65];
    crypto_hash_sha256(h, pk, tts_pk_bytes(p));
    sodium_bin2hex(hx, sizeof hx, h, 32);
    sodium_bin2hex(sx, sizeof sx, seed, 32);
    fprintf(o, "{\n  \"set\": \"%s\",\n  \"pk_sha256\": \"%s\",\n  \"seed\": \"%s\",\n",
            tts_params_name(p), hx, sx);
    fprintf(o, "  \"result\": \"%s\",\n", status == CHAL_OK ? "key recovered" : "no TTS structure");
    if (status != CHAL_OK) {
        fputs("  \"reason\": ", o);
        json_write_str(o, why);
        fputs(",\n", o);
    }
    fprintf(o, "  \"backend\": \"%s\",\n  \"threads\": %u,\n  \"attempts\": %u,\n",
            tts_backend(), r->threads, r->attempts);
    fprintf(o, "  \"system\": {\"forms\": %u, \"rank\": %u, \"slice\": %u, "
               "\"unknowns\": %zu, \"equations\": %zu, \"nonzeros\": %zu, "
               "\"solver\": \"%s\", \"matvecs\": %zu, \"resumed\": %s},\n",
            r->sm_forms, r->sm_rank, r->sm_slice, r->unknowns, r->equations, r->nonzeros,
            solver_name(r->solver), r->matvecs, r->resumed ? "true" : "false");
    fprintf(o, "  \"dimensions\": {\"U_y\": %u, \"rank_u\": %u, \"Lambda\": %u, "
               "\"K\": %u, \"O3\": %u, \"Lambda1\": %u, \"O_prime\": %u},\n",
            r->dim_uy, r->rank_u, r->dim_lambda, r->dim_k, r->dim_o3, r->dim_lambda1,
            r->dim_oprime);
    fprintf(o, "  \"line_points\": %u,\n  \"sign_checks\": %u,\n  \"steps\": [",
            r->line_points, r->sign_checks);
    for (int i = 0; i < CHAL_BREAK_STEPS; i++)
        fprintf(o, "%s\n    {\"step\": %d, \"name\": \"%s\", \"seconds\": %.6f}",
                i ? "," : "", i + 1, chal_break_step_names[i], r->seconds[i]);
    fprintf(o, "\n  ],\n  \"total_seconds\": %.6f\n}\n", r->total_seconds);
}

/* The attack on pk; the key into k. ST_OK, ST_INVALID (no structure). */
static int run_break(const brk_args *a, const tts_params *p, const uint8_t *pk,
                     chal_eqkey *k)
{
    uint8_t seed[32];
    char err[512];
    if (a->seed && read_master(a->seed, seed) != ST_OK)
        return ST_ERROR;
    int tty = !a->quiet && isatty(STDERR_FILENO);
    chal_break_opts o = {.seed = a->seed ? seed : NULL,
                         .threads = a->threads,
                         .progress = tty ? challenge_progress : NULL,
                         .checkpoint = a->checkpoint,
                         .solver = a->solver};
    chal_break_report rep;
    if (!a->quiet)
        fprintf(stderr, "tts-challenge: breaking %s from its public key\n", tts_params_name(p));
    int r = chal_break(p, pk, &o, k, &rep, err, sizeof err);
    if (r == CHAL_ERROR)
        return cli_fail("break: %s", err);
    if (a->json) {
        char e2[512];
        FILE *f = fileio_stream_open(a->json);
        if (!f)
            return cli_fail("break: cannot open the report %s", a->json);
        report_json(f, p, pk, rep.seed, &rep, r, err);
        if (fileio_stream_close(f, a->force ? FILEIO_FORCE : 0, 0, e2, sizeof e2) != FILEIO_OK)
            return cli_fail("%s", e2);
    }
    if (r != CHAL_OK) {
        fprintf(stderr, "tts-challenge: %s: %s\n", tts_params_name(p), err);
        return ST_INVALID;
    }
    /* the checkpoint this run wrote or resumed from, and nothing else: at
     * the start anything at that path but a checkpoint of pk was refused */
    if (a->checkpoint && (rep.resumed || rep.checkpoint_saved) &&
        chal_checkpoint_check(p, pk, a->checkpoint, NULL, 0) == 1)
        unlink(a->checkpoint);
    if (!a->quiet)
        fprintf(stderr, "tts-challenge: %s: equivalent key recovered in %.2f s "
                        "(%zu unknowns, %s, %u thread%s)\n",
                tts_params_name(p), rep.total_seconds, rep.unknowns,
                solver_name(rep.solver), rep.threads, rep.threads == 1 ? "" : "s");
    if (a->keyout && write_key(a->keyout, k, a->force) != ST_OK)
        return ST_ERROR;
    return ST_OK;
}

/* No output may be an input or another output (links followed); the
 * checkpoint, written and removed by the run, is neither an input nor
 * another output. */
static int distinct(const char *cmd, const brk_args *a)
{
    const char *in[] = {a->pk, a->msgfile, a->seed, a->key, a->checkpoint, a->dir};
    const char *out[] = {a->out, a->keyout, a->json};
    const char *cin[] = {a->pk, a->msgfile, a->seed, a->key, a->dir};
    for (size_t j = 0; a->checkpoint && j < sizeof cin / sizeof cin[0]; j++) {
        const char *x = cin[j];
        if (x && (fileio_same_file(a->checkpoint, x) || strcmp(a->checkpoint, x) == 0))
            return cli_fail("%s: the checkpoint %s is an input of the run; name another file",
                            cmd, a->checkpoint);
    }
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
        if (!out[i])
            continue;
        for (size_t j = 0; j < sizeof in / sizeof in[0]; j++)
            if (in[j] && (fileio_same_file(out[i], in[j]) || strcmp(out[i], in[j]) == 0))
                return cli_fail("%s: the output %s is an input", cmd, out[i]);
        for (size_t j = i + 1; j < sizeof out / sizeof out[0]; j++)
            if (out[j] && (fileio_same_file(out[i], out[j]) || strcmp(out[i], out[j]) == 0))
                return cli_fail("%s: %s is named for two outputs", cmd, out[i]);
    }
    return ST_OK;
}

/* Outputs checked before the work: nothing is lost to a refusal at the end. */
static int check_out(const char *path, int force)
{
    char err[512];
    int r = fileio_check_output(path, force ? FILEIO_FORCE : 0, err, sizeof err);
    return r == FILEIO_OK ? ST_OK : cli_fail("%s", err);
}

void challenge_sig_path(char *path, size_t len, const char *outdir, int set, unsigned msg)
{
    char name[64];
    chal_set_folder(name, sizeof name, set);
    snprintf(path, len, "%s/%s-msg-%u.sig", outdir, name, msg);
}

/* Before the attack: every message exists in the folder (and its key is
 * the pinned one), and OUTDIR can take the signatures (a folder, or a new
 * name in one; no signature there unless --force). */
static int plan_messages(const char *cmd, const brk_args *a, int set, const uint8_t *pin)
{
    char err[512], path[4096];
    struct stat st;
    for (unsigned i = 0; i < a->nmsg; i++) {
        chal_target t;
        if (chal_target_load_set(&t, a->dir, set, a->msgs[i], pin, err, sizeof err) != CHAL_OK)
            return cli_fail("%s", err);
        chal_target_free(&t);
    }
    if (stat(a->out, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return cli_fail("%s: -o %s: not a folder (the forgeries are written into one)", cmd,
                            a->out);
        for (unsigned i = 0; i < a->nmsg; i++) {
            challenge_sig_path(path, sizeof path, a->out, set, a->msgs[i]);
            if (check_out(path, a->force) != ST_OK)
                return ST_ERROR;
        }
    } else {
        char parent[4096];
        snprintf(parent, sizeof parent, "%s", a->out);
        char *sl = strrchr(parent, '/');
        if (sl == parent)
            sl[1] = 0;
        else if (sl)
            *sl = 0;
        else
            snprintf(parent, sizeof parent, ".");
        if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
            return cli_fail("%s: -o %s: its folder %s does not exist", cmd, a->out, parent);
    }
    return ST_OK;
}

/* The forgeries of the folder's messages by k, each checked against the
 * instance's public key before it is written: a key made from another
 * public key is refused (exit 2), not turned into INVALID signatures. */
static int sign_messages(const brk_args *a, const chal_eqkey *k, const tts_params *p,
                         const char *dir, const uint8_t *pin)
{
    char err[512], path[4096];
    if (mkdir(a->out, 0755) != 0 && errno != EEXIST)
        return cli_fail("cannot create %s: %s", a->out, strerror(errno));
    for (unsigned i = 0; i < a->nmsg; i++) {
        chal_target t;
        uint8_t sig[TTS_MAX_SIG_BYTES];
        if (chal_target_load(&t, dir, p, a->msgs[i], pin, err, sizeof err) != CHAL_OK)
            return cli_fail("%s", err);
        if (memcmp(k->pk, t.pk, tts_pk_bytes(p)) != 0) {
            chal_target_free(&t);
            return cli_fail("the key was recovered from another public key than %s's "
                            "(%s): no forgery written", dir, tts_params_name(p));
        }
        int r = chal_eqkey_sign(k, sig, t.digest, NULL, NULL, err, sizeof err);
        int ok = r == CHAL_OK && tts_verify_digest(p, sig, t.digest, t.pk) == TTS_OK;
        chal_target_free(&t);
        if (r != CHAL_OK)
            return cli_fail("%s", err);
        if (!ok)
            return cli_fail("the forgery of message %u does not verify under %s's public "
                            "key: not written", a->msgs[i], dir);
        challenge_sig_path(path, sizeof path, a->out, chal_set_of(p), a->msgs[i]);
        if (write_sig(path, p, sig, a->force) != ST_OK)
            return ST_ERROR;
        printf("%s\n", path);
    }
    return ST_OK;
}

/* A forgery of digest under k's own public key, verified before it is
 * written. */
static int forge_one(const brk_args *a, const chal_eqkey *k, const uint8_t *digest)
{
    uint8_t sig[TTS_MAX_SIG_BYTES];
    char err[512];
    if (chal_eqkey_sign(k, sig, digest, NULL, NULL, err, sizeof err) != CHAL_OK)
        return cli_fail("%s", err);
    if (tts_verify_digest(k->p, sig, digest, k->pk) != TTS_OK)
        return cli_fail("the forgery does not verify under the key's public key: not written");
    return write_sig(a->out, k->p, sig, a->force);
}

static int parse_pin(const char *cmd, const char *arg, uint8_t pin[32])
{
    size_t got;
    if (strlen(arg) != 64 || sodium_hex2bin(pin, 32, arg, 64, NULL, &got, NULL) != 0 || got != 32)
        return cli_fail("%s: --pk-sha256: expected 64 hex digits", cmd);
    return ST_OK;
}

/* break --pk FILE --pk-sha256 HEX, before the attack: HEX is the SHA-256
 * of FILE's bytes, or (TTS) of the public key the file holds, the
 * pk_sha256 of a manifest and of the --json report. */
static int pin_file(const char *path, const uint8_t pin[32], const uint8_t *pk, size_t pklen)
{
    uint8_t h[32], *buf;
    size_t len;
    char err[512];
    if (pk) {
        crypto_hash_sha256(h, pk, pklen);
        if (sodium_memcmp(h, pin, 32) == 0)
            return ST_OK;
    }
    if (strcmp(path, "-") != 0 &&
        fileio_read(path, TTSFILE_MAX_BYTES, 0, &buf, &len, NULL, err, sizeof err) == FILEIO_OK) {
        crypto_hash_sha256(h, buf, len);
        fileio_free(buf, len);
        if (sodium_memcmp(h, pin, 32) == 0)
            return ST_OK;
    }
    return cli_fail("break: the SHA-256 of %s (and of the public key it holds) is not "
                    "--pk-sha256: no attack run", path);
}

int cmd_break(int argc, char **argv)
{
    brk_args a;
    if (parse("break", argc, argv, &a) != ST_OK || messages("break", &a, a.pk != NULL) != ST_OK ||
        distinct("break", &a) != ST_OK)
        return ST_ERROR;
    chal_eqkey *k = malloc(sizeof *k);
    if (!k)
        return cli_fail("no memory");
    int rc = ST_ERROR;
    uint8_t pkpin[32];
    if (a.pk && a.pin && parse_pin("break", a.pin, pkpin) != ST_OK)
        rc = ST_ERROR;
    else if (a.pk && (a.dir || a.nmsg))
        rc = cli_fail("break: --pk takes no challenge folder");
    else if (a.pk && cli_binary_out(a.out, NULL) != ST_OK)
        rc = ST_ERROR;
    else if (a.pk && sflash_pk_file(a.pk, a.set)) {
        sflash_cli sa = {"break", a.pk, a.digest, a.msgfile, a.out, a.keyout, a.seed, a.json,
                         a.force, a.quiet};
        rc = sflash_break_pk(&sa, a.pin ? pkpin : NULL);
    } else if (a.pk) {
        /* a plain public key */
        if (!a.out)
            rc = cli_fail("break: --pk needs -o SIG");
        else if (check_out(a.out, a.force) == ST_OK &&
                 challenge_check_key_out("break", a.keyout) == ST_OK &&
                 (!a.keyout || check_out(a.keyout, a.force) == ST_OK) &&
                 (!a.json || check_out(a.json, a.force) == ST_OK)) {
            const tts_params *p;
            uint8_t *pk, digest[TTS_MAX_M];
            size_t len;
            char err[512];
            if (ttsfile_read(a.pk, TTS_FILE_PUBLIC_KEY, &p, &pk, &len, err, sizeof err) !=
                TTSFILE_OK)
                rc = sflash_not_tts(a.pk, err);
            else {
                if ((!a.pin || pin_file(a.pk, pkpin, pk, len) == ST_OK) &&
                    read_digest("break", &a, p, digest) == ST_OK &&
                    (rc = run_break(&a, p, pk, k)) == ST_OK) {
                    rc = forge_one(&a, k, digest);
                } else if (rc != ST_INVALID)
                    rc = ST_ERROR;
                fileio_free(pk, len);
            }
        }
    } else {
        /* a challenge folder */
        int set = a.set ? chal_set_find(a.set) : (a.dir ? only_set_index(a.dir) : -1);
        const tts_params *p = chal_set_params(set);
        uint8_t pin[32];
        if (!a.dir)
            rc = cli_fail("break: usage: break DIR --set NAME [--message I]... -o OUTDIR, "
                      "or break --pk FILE (--digest HEX | --message FILE) -o SIG");
        else if (a.set && set < 0)
            rc = cli_fail("break: --set: unknown parameter set '%s'", a.set);
        else if (set < 0)
            rc = cli_fail("break: name the set with --set (%s holds no single folder)", a.dir);
        else if (!p) {
            /* the SFLASH instance: the forger of challenge/sflash_break.h */
            sflash_cli sa = {"break", NULL, NULL, NULL, a.out, a.keyout, a.seed, a.json,
                             a.force, a.quiet};
            if (!a.nmsg || !a.out)
                rc = cli_fail("break: an SFLASH folder needs --message I and -o OUTDIR");
            else if (a.digest || a.msgfile)
                rc = cli_fail("break: --digest is for --pk; in a folder use --message I");
            else if (a.pin && parse_pin("break", a.pin, pin) != ST_OK)
                rc = ST_ERROR;
            else if (plan_messages("break", &a, set, a.pin ? pin : NULL) == ST_OK)
                rc = sflash_break_dir(&sa, a.dir, a.msgs, a.nmsg, a.pin ? pin : NULL);
        }
        else if (a.nmsg && !a.out)
            rc = cli_fail("break: --message needs -o OUTDIR");
        else if (!a.nmsg && !a.keyout)
            rc = cli_fail("break: nothing to write: give --message I with -o OUTDIR, or --key-out");
        else if (a.digest || a.msgfile)
            rc = cli_fail("break: --digest is for --pk; in a folder use --message I");
        else if (a.pin && parse_pin("break", a.pin, pin) != ST_OK)
            rc = ST_ERROR;
        else if (challenge_check_key_out("break", a.keyout) == ST_OK &&
                 (!a.keyout || check_out(a.keyout, a.force) == ST_OK) &&
                 (!a.json || check_out(a.json, a.force) == ST_OK) &&
                 (!a.nmsg || plan_messages("break", &a, set, a.pin ? pin : NULL) == ST_OK)) {
            chal_target t;
            char err[512];
            /* the key as verify reads it (and pinned, with --pk-sha256) */
            if (chal_target_load(&t, a.dir, p, a.nmsg ? a.msgs[0] : 1, a.pin ? pin : NULL,
                                 err, sizeof err) != CHAL_OK)
                rc = cli_fail("%s", err);
            else {
                rc = run_break(&a, p, t.pk, k);
                chal_target_free(&t);
                if (rc == ST_OK && a.nmsg)
                    rc = sign_messages(&a, k, p, a.dir, a.pin ? pin : NULL);
            }
        }
    }
    sodium_memzero(k, sizeof *k);
    free(k);
    return rc;
}

int cmd_forge(int argc, char **argv)
{
    brk_args a;
    if (parse("forge", argc, argv, &a) != ST_OK || messages("forge", &a, a.dir == NULL) != ST_OK ||
        distinct("forge", &a) != ST_OK)
        return ST_ERROR;
    if (!a.key)
        return cli_fail("forge: usage: forge --key FILE (--message FILE | --digest HEX) -o SIG, "
                    "or forge --key FILE DIR --message I -o OUTDIR");
    if (!a.out)
        return cli_fail("forge: -o is required");
    uint8_t pin[32];
    if (a.pin && parse_pin("forge", a.pin, pin) != ST_OK)
        return ST_ERROR;
    if (!a.dir && cli_binary_out(a.out, NULL) != ST_OK)
        return ST_ERROR;
    /* the key read once (standard input too), then told by its header */
    uint8_t *kb;
    size_t kl;
    char err[512];
    if (ttsfile_read_raw(a.key, TTSFILE_MAX_BYTES, TTSFILE_PRIVATE, &kb, &kl, err,
                         sizeof err) != TTSFILE_OK)
        return cli_fail("%s", err);
    if (sflash_key_bytes(kb, kl)) {
        sflash_cli sa = {"forge", a.key, a.digest, a.msgfile, a.out, NULL, NULL, NULL,
                         a.force, a.quiet};
        int r = a.dir ? cli_fail("forge: an SFLASH key signs a message or a digest, not a "
                                 "challenge folder")
                      : sflash_forge_key(&sa, kb, kl, a.pin ? pin : NULL);
        fileio_free(kb, kl);
        return r;
    }
    chal_eqkey *k = malloc(sizeof *k);
    int rc = ST_ERROR;
    if (!k)
        rc = cli_fail("no memory");
    else if (chal_eqkey_decode(k, kb, kl, err, sizeof err) != CHAL_OK)
        rc = cli_fail("%s: %s", a.key, err);
    else if (a.dir) {
        if (!a.nmsg)
            rc = cli_fail("forge: with DIR, give --message I");
        else if (plan_messages("forge", &a, chal_set_of(k->p), a.pin ? pin : NULL) == ST_OK)
            rc = sign_messages(&a, k, k->p, a.dir, a.pin ? pin : NULL);
    } else if (check_out(a.out, a.force) == ST_OK) {
        uint8_t digest[TTS_MAX_M], h[32];
        crypto_hash_sha256(h, k->pk, tts_pk_bytes(k->p));
        if (a.pin && memcmp(h, pin, 32) != 0)
            rc = cli_fail("forge: the key was recovered from a public key whose SHA-256 is "
                          "not --pk-sha256");
        else if (read_digest("forge", &a, k->p, digest) == ST_OK)
            rc = forge_one(&a, k, digest);
    }
    if (k)
        sodium_memzero(k, sizeof *k);
    free(k);
    fileio_free(kb, kl);
    return rc;
}
