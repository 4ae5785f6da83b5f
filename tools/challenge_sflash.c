/* SPDX-License-Identifier: MIT */
/*
 * tts-challenge break --pk on an SFLASH(26,37) public key: the key-only
 * forger of challenge/sflash_break.h, with the break's file rules (outputs
 * checked before the work, written by fileio_write: a fresh temporary,
 * fsync, rename; never over a file without --force).
 *
 * The key file is the 16,858 bytes of bench/sflash's public key
 * (docs/SFLASH.md); a signature file the 33 bytes of a signature. A
 * message is hashed as SFLASH hashes it (SHA-1, through bench/sflash, so
 * only in a build with OpenSSL); --digest takes V itself, 46 hex digits.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "challenge_cli.h"
#include "fileio.h"
#include "json.h"
#include "sflash_break.h"
#include "ttsfile.h"
#ifdef TTS_HAVE_SFLASH
#include "sflash_internal.h"
#endif

int sflash_pk_file(const char *path, const char *set)
{
    if (set)
        return strcmp(set, CHAL_SFLASH_NAME) == 0;
    uint8_t *buf;
    size_t len;
    if (fileio_read(path, (size_t)CHAL_SFLASH_PK_BYTES + 1, 0, &buf, &len, NULL, NULL, 0) !=
        FILEIO_OK)
        return 0;
    fileio_free(buf, len);
    return len == CHAL_SFLASH_PK_BYTES;
}

static int read_v(const sflash_cli *a, uint8_t d[CHAL_SFLASH_DIGEST_BYTES])
{
    const size_t m = CHAL_SFLASH_DIGEST_BYTES;
    size_t got;
    char err[512];
    if (a->digest && a->msgfile)
        return cli_fail("%s: give --digest or --message, not both", a->cmd);
    if (a->digest) {
        if (strlen(a->digest) != 2 * m ||
            sodium_hex2bin(d, m, a->digest, 2 * m, NULL, &got, NULL) != 0 || got != m ||
            (d[m - 1] & 3))
            return cli_fail("%s: --digest: expected %zu hex digits, the last 2 bits zero "
                            "(the 182-bit SFLASH digest V)", a->cmd, 2 * m);
        return ST_OK;
    }
    if (!a->msgfile)
        return cli_fail("%s: give the message (--message FILE) or its digest (--digest HEX)",
                        a->cmd);
#ifdef TTS_HAVE_SFLASH
    uint8_t *buf;
    size_t len;
    if (fileio_read(a->msgfile, (size_t)1 << 30, FILEIO_STDIN, &buf, &len, NULL, err,
                    sizeof err) != FILEIO_OK)
        return cli_fail("%s: %s", a->cmd, err);
    int r = sflash_hash_v(d, buf, len);
    fileio_free(buf, len);
    return r == 0 ? ST_OK : cli_fail("%s: cannot hash the message (SHA-1)", a->cmd);
#else
    (void)err;
    return cli_fail("%s: this build has no SHA-1 (built without OpenSSL): give the SFLASH "
                    "digest with --digest HEX", a->cmd);
#endif
}

static void report_json(FILE *o, const uint8_t *pk, const chal_sflash_report *r, int status,
                        const char *why)
{
    uint8_t h[32];
    char hx[65], sx[65];
    crypto_hash_sha256(h, pk, CHAL_SFLASH_PK_BYTES);
    sodium_bin2hex(hx, sizeof hx, h, 32);
    sodium_bin2hex(sx, sizeof sx, r->seed, 32);
    fprintf(o, "{\n  \"set\": \"%s\",\n  \"pk_sha256\": \"%s\",\n  \"seed\": \"%s\",\n",
            CHAL_SFLASH_NAME, hx, sx);
    fprintf(o, "  \"result\": \"%s\",\n",
            status == CHAL_OK ? "key recovered" : "no C*- structure");
    if (status != CHAL_OK) {
        fputs("  \"reason\": ", o);
        json_write_str(o, why);
        fputs(",\n", o);
    }
    fprintf(o, "  \"equations\": %u,\n", r->m);
    fprintf(o, "  \"multiplication\": {\"probes\": %d, \"unknowns\": %zu, \"equations\": %zu, "
               "\"rank\": %u, \"kernel_dim\": %u, \"tried\": %u},\n",
            CHAL_SFLASH_PROBES, r->unknowns, r->equations, r->rank1, r->kernel_dim, r->n_tries);
    fprintf(o, "  \"span_dim\": %u,\n  \"translation_rank\": %u,\n", r->span_dim,
            r->trans_rank);
    fprintf(o, "  \"relations\": {\"samples\": %u, \"rank\": %u, \"dim\": %u},\n", r->samples,
            r->rel_rank, r->rel_dim);
    fprintf(o, "  \"sign_checks\": %u,\n  \"steps\": [", r->sign_checks);
    for (int i = 0; i < CHAL_SFLASH_STEPS; i++)
        fprintf(o, "%s\n    {\"step\": %d, \"name\": \"%s\", \"seconds\": %.6f}", i ? "," : "",
                i + 1, chal_sflash_step_names[i], r->seconds[i]);
    fprintf(o, "\n  ],\n  \"total_seconds\": %.6f\n}\n", r->total_seconds);
}

static int check_out(const char *path, int force)
{
    char err[512];
    int r = fileio_check_output(path, force ? FILEIO_FORCE : 0, err, sizeof err);
    return r == FILEIO_OK ? ST_OK : cli_fail("%s", err);
}

/* The forger's key is a binary secret: mode 0600, the file rules. */
static int write_key(const char *path, const chal_sflash_key *k, int force)
{
    size_t len = chal_sflash_key_bytes(k->pub.m);
    uint8_t *buf = malloc(len);
    if (!buf)
        return cli_fail("no memory");
    chal_sflash_key_encode(buf, k);
    return challenge_write_secret(path, buf, len, force);
}

/* The signature of digest d by k, checked against the public map by
 * forge_sig before it is written. */
static int forge_one(const sflash_cli *a, const chal_sflash_key *k,
                     const uint8_t d[CHAL_SFLASH_DIGEST_BYTES])
{
    uint8_t sig[CHAL_SFLASH_SIG_BYTES];
    char err[512];
    if (chal_sflash_forge_sig(k, sig, d, NULL, NULL, err, sizeof err) != CHAL_OK)
        return cli_fail("%s", err);
    return fileio_write(a->out, sig, sizeof sig, a->force ? FILEIO_FORCE : 0, err, sizeof err) ==
                   FILEIO_OK
               ? ST_OK
               : cli_fail("%s", err);
}

int sflash_key_bytes(const uint8_t *buf, size_t len)
{
    return len >= 8 && memcmp(buf, "TTSCSK01", 8) == 0;
}

int sflash_not_tts(const char *path, const char *tts_err)
{
    uint8_t *buf;
    size_t len;
    /* a file of about an SFLASH key's size that is no TTS file: say both */
    if (strcmp(path, "-") != 0 &&
        fileio_read(path, (size_t)CHAL_SFLASH_PK_BYTES + 1, 0, &buf, &len, NULL, NULL, 0) ==
            FILEIO_OK) {
        int near = len + 64 >= CHAL_SFLASH_PK_BYTES && len != CHAL_SFLASH_PK_BYTES &&
                   (len < 5 || memcmp(buf, "TTS", 3) != 0);
        fileio_free(buf, len);
        if (near)
            return cli_fail("break: %s: %zu bytes, neither a TTS public key file nor an %s "
                            "public key (%u bytes): truncated or padded?",
                            path, len, CHAL_SFLASH_NAME, (unsigned)CHAL_SFLASH_PK_BYTES);
    }
    return cli_fail("%s", tts_err);
}

int sflash_forge_key(const sflash_cli *a, const uint8_t *buf, size_t len, const uint8_t *pin)
{
    uint8_t d[CHAL_SFLASH_DIGEST_BYTES];
    char err[512];
    if (check_out(a->out, a->force) != ST_OK)
        return ST_ERROR;
    chal_sflash_key *k = malloc(sizeof *k);
    int rc = ST_ERROR;
    if (!k)
        rc = cli_fail("no memory");
    else if (chal_sflash_key_decode(k, buf, len, err, sizeof err) != CHAL_OK)
        rc = cli_fail("%s: %s", a->pk, err);
    else if (k->pub.m != CHAL_SFLASH_M)
        rc = cli_fail("forge: %s is the key of a C* map of %u equations, not of an SFLASH(26,37) "
                      "public key", a->pk, k->pub.m);
    else {
        uint8_t pk[CHAL_SFLASH_PK_BYTES], h[32];
        chal_sflash_pack(pk, &k->pub.coef[0][0], (size_t)CHAL_SFLASH_M * CHAL_SFLASH_MONOMIALS);
        crypto_hash_sha256(h, pk, sizeof pk);
        if (pin && memcmp(h, pin, 32) != 0)
            rc = cli_fail("forge: the key was recovered from a public key whose SHA-256 is "
                          "not --pk-sha256");
        else if (read_v(a, d) == ST_OK)
            rc = forge_one(a, k, d);
    }
    if (k)
        sodium_memzero(k, sizeof *k);
    free(k);
    return rc;
}

/* The attack on the key pk (len bytes): its report (--json), the key
 * (--key-out). ST_OK with k; ST_INVALID: no C*- structure. */
static int recover(const sflash_cli *a, const uint8_t *pk, size_t len, chal_sflash_key *k)
{
    uint8_t seed[32];
    char err[512];
    if (a->seed && read_master(a->seed, seed) != ST_OK)
        return ST_ERROR;
    chal_cstar_map *P = malloc(sizeof *P);
    int rc = ST_ERROR;
    if (!P)
        return cli_fail("no memory");
    if (chal_sflash_pk_decode(P, pk, len, err, sizeof err) != CHAL_OK) {
        rc = cli_fail("break: %s: %s", a->pk ? a->pk : "the public key", err);
        goto out;
    }
    chal_sflash_opts o = {.seed = a->seed ? seed : NULL,
                          .progress = !a->quiet && isatty(STDERR_FILENO) ? challenge_progress
                                                                          : NULL};
    chal_sflash_report rep;
    if (!a->quiet)
        fprintf(stderr, "tts-challenge: breaking %s from its public key\n", CHAL_SFLASH_NAME);
    int r = chal_sflash_break(P, &o, k, &rep, err, sizeof err);
    if (r == CHAL_ERROR) {
        rc = cli_fail("break: %s", err);
        goto out;
    }
    if (a->json) {
        char e2[512];
        FILE *f = fileio_stream_open(a->json);
        if (!f) {
            rc = cli_fail("break: cannot open the report %s", a->json);
            goto out;
        }
        report_json(f, pk, &rep, r, err);
        if (fileio_stream_close(f, a->force ? FILEIO_FORCE : 0, 0, e2, sizeof e2) != FILEIO_OK) {
            rc = cli_fail("%s", e2);
            goto out;
        }
    }
    if (r != CHAL_OK) {
        fprintf(stderr, "tts-challenge: %s: %s\n", CHAL_SFLASH_NAME, err);
        rc = ST_INVALID;
        goto out;
    }
    if (!a->quiet)
        fprintf(stderr, "tts-challenge: %s: C* key recovered in %.2f s (kernel of dimension "
                        "%u, %u relations)\n",
                CHAL_SFLASH_NAME, rep.total_seconds, rep.kernel_dim, rep.rel_dim);
    rc = a->keyout ? write_key(a->keyout, k, a->force) : ST_OK;
out:
    free(P);
    return rc;
}

static int check_outputs(const sflash_cli *a)
{
    return (a->json && check_out(a->json, a->force) != ST_OK) ||
                   challenge_check_key_out("break", a->keyout) != ST_OK ||
                   (a->keyout && check_out(a->keyout, a->force) != ST_OK)
               ? ST_ERROR : ST_OK;
}

int sflash_break_pk(const sflash_cli *a, const uint8_t *pin)
{
    uint8_t d[CHAL_SFLASH_DIGEST_BYTES];
    char err[512];
    if (!a->out)
        return cli_fail("break: --pk needs -o SIG");
    if (check_out(a->out, a->force) != ST_OK || check_outputs(a) != ST_OK)
        return ST_ERROR;
    if (read_v(a, d) != ST_OK)
        return ST_ERROR;
    uint8_t *pk;
    size_t len;
    if (fileio_read(a->pk, (size_t)CHAL_SFLASH_PK_BYTES + 1, 0, &pk, &len, NULL, err,
                    sizeof err) != FILEIO_OK)
        return cli_fail("break: %s", err);
    uint8_t h[32];
    crypto_hash_sha256(h, pk, len);
    if (pin && sodium_memcmp(h, pin, 32) != 0) {
        fileio_free(pk, len);
        return cli_fail("break: the SHA-256 of %s is not --pk-sha256: no attack run", a->pk);
    }
    chal_sflash_key *k = malloc(sizeof *k);
    int rc = k ? recover(a, pk, len, k) : cli_fail("no memory");
    if (rc == ST_OK)
        rc = forge_one(a, k, d);
    if (k)
        sodium_memzero(k, sizeof *k);
    free(k);
    fileio_free(pk, len);
    return rc;
}

int sflash_break_dir(const sflash_cli *a, const char *dir, const unsigned *msgs,
                     unsigned nmsg, const uint8_t *pin)
{
    const int set = chal_set_sflash();
    char err[512], path[4096];
    chal_target t;
    if (check_outputs(a) != ST_OK)
        return ST_ERROR;
    /* the key as verify reads it (and pinned, with --pk-sha256) */
    if (chal_target_load_set(&t, dir, set, msgs[0], pin, err, sizeof err) != CHAL_OK)
        return cli_fail("%s", err);
    chal_sflash_key *k = malloc(sizeof *k);
    int rc = k ? recover(a, t.pk, t.pklen, k) : cli_fail("no memory");
    chal_target_free(&t);
    if (rc == ST_OK && mkdir(a->out, 0755) != 0 && errno != EEXIST)
        rc = cli_fail("cannot create %s: %s", a->out, strerror(errno));
    for (unsigned i = 0; rc == ST_OK && i < nmsg; i++) {
        uint8_t sig[CHAL_SFLASH_SIG_BYTES];
        if (chal_target_load_set(&t, dir, set, msgs[i], pin, err, sizeof err) != CHAL_OK) {
            rc = cli_fail("%s", err);
            break;
        }
        /* forge_sig checks the forgery against the map it was recovered
         * from; the folder's own key and verdict are checked here */
        uint8_t pk[CHAL_SFLASH_PK_BYTES];
        chal_sflash_pack(pk, &k->pub.coef[0][0], (size_t)CHAL_SFLASH_M * CHAL_SFLASH_MONOMIALS);
        int same = t.pklen == sizeof pk && memcmp(pk, t.pk, sizeof pk) == 0;
        int r = same ? chal_sflash_forge_sig(k, sig, t.digest, NULL, NULL, err, sizeof err)
                     : CHAL_ERROR;
        int ok = r == CHAL_OK && chal_set_verify(set, sig, t.digest, t.pk) == CHAL_VALID;
        chal_target_free(&t);
        if (!same)
            rc = cli_fail("the public key of %s changed during the run: no forgery written", dir);
        else if (r != CHAL_OK)
            rc = cli_fail("%s", err);
        else if (!ok)
            rc = cli_fail("the forgery of message %u does not verify under %s's public key: "
                          "not written", msgs[i], dir);
        else {
            challenge_sig_path(path, sizeof path, a->out, set, msgs[i]);
            if (fileio_write(path, sig, sizeof sig, a->force ? FILEIO_FORCE : 0, err,
                             sizeof err) != FILEIO_OK)
                rc = cli_fail("%s", err);
            else
                printf("%s\n", path);
        }
    }
    if (k)
        sodium_memzero(k, sizeof *k);
    free(k);
    return rc;
}

#ifdef TTS_HAVE_SFLASH
static const chal_sflash_ops sflash_ops = {sflash_keypair, SFLASH_SK_BYTES, sflash_hash_v};
#endif

void challenge_sflash_init(void)
{
#ifdef TTS_HAVE_SFLASH
    chal_set_sflash_ops(&sflash_ops);
#endif
}
