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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "challenge_cli.h"
#include "fileio.h"
#include "json.h"
#include "sflash_break.h"
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
        return cli_fail("break: give --digest or --message, not both");
    if (a->digest) {
        if (strlen(a->digest) != 2 * m ||
            sodium_hex2bin(d, m, a->digest, 2 * m, NULL, &got, NULL) != 0 || got != m ||
            (d[m - 1] & 3))
            return cli_fail("break: --digest: expected %zu hex digits, the last 2 bits zero "
                            "(the 182-bit SFLASH digest V)", 2 * m);
        return ST_OK;
    }
    if (!a->msgfile)
        return cli_fail("break: give the message (--message FILE) or its digest (--digest HEX)");
#ifdef TTS_HAVE_SFLASH
    uint8_t *buf;
    size_t len;
    if (fileio_read(a->msgfile, (size_t)1 << 30, FILEIO_STDIN, &buf, &len, NULL, err,
                    sizeof err) != FILEIO_OK)
        return cli_fail("break: %s", err);
    int r = sflash_hash_v(d, buf, len);
    fileio_free(buf, len);
    return r == 0 ? ST_OK : cli_fail("break: cannot hash the message (SHA-1)");
#else
    (void)err;
    return cli_fail("break: this build has no SHA-1 (built without OpenSSL): give the SFLASH "
                    "digest with --digest HEX");
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

int sflash_break_pk(const sflash_cli *a)
{
    uint8_t seed[32], d[CHAL_SFLASH_DIGEST_BYTES], sig[CHAL_SFLASH_SIG_BYTES];
    char err[512];
    if (!a->out)
        return cli_fail("break: --pk needs -o SIG");
    if (a->keyout)
        return cli_fail("break: --key-out: an SFLASH break keeps its key in memory only; "
                        "give every message to sign as its own run");
    if (check_out(a->out, a->force) != ST_OK || (a->json && check_out(a->json, a->force) != ST_OK))
        return ST_ERROR;
    if (a->seed && read_master(a->seed, seed) != ST_OK)
        return ST_ERROR;
    if (read_v(a, d) != ST_OK)
        return ST_ERROR;
    uint8_t *pk;
    size_t len;
    if (fileio_read(a->pk, (size_t)CHAL_SFLASH_PK_BYTES + 1, 0, &pk, &len, NULL, err,
                    sizeof err) != FILEIO_OK)
        return cli_fail("break: %s", err);
    chal_cstar_map *P = malloc(sizeof *P);
    chal_sflash_key *k = malloc(sizeof *k);
    int rc = ST_ERROR;
    if (!P || !k) {
        rc = cli_fail("no memory");
        goto out;
    }
    if (chal_sflash_pk_decode(P, pk, len, err, sizeof err) != CHAL_OK) {
        rc = cli_fail("break: %s: %s", a->pk, err);
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
    /* checked against the public map by forge_sig before it is written */
    if (chal_sflash_forge_sig(k, sig, d, NULL, NULL, err, sizeof err) != CHAL_OK) {
        rc = cli_fail("break: %s", err);
        goto out;
    }
    rc = fileio_write(a->out, sig, sizeof sig, a->force ? FILEIO_FORCE : 0, err, sizeof err) ==
                 FILEIO_OK
             ? ST_OK
             : cli_fail("%s", err);
out:
    if (k)
        sodium_memzero(k, sizeof *k);
    free(k);
    free(P);
    fileio_free(pk, len);
    return rc;
}
