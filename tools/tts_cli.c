/* SPDX-License-Identifier: MIT */
/* tts's files: keys and signatures read and written under the file rules,
 * outputs checked before any work, messages hashed as streams:
 * tools/tts_cli.h. */
#define _POSIX_C_SOURCE 200809L
#include "tts_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fileio.h"
#include "ttsfile.h"

#define ERRLEN 512

int tts_cli_load(const char *path, int kind, const tts_params **p,
                uint8_t **buf, size_t *len)
{
    char err[ERRLEN];

    if (ttsfile_read(path, kind, p, buf, len, err, sizeof err) != TTSFILE_OK)
        return cli_fail("%s", err);
    return ST_OK;
}

/* The checks of an output made before any work (a refusal must not come
 * after hashing a large input), and its refusal to name an input. */
int tts_cli_check_output(const char *path, int armor, int force,
                        const char *const *inputs, size_t ninputs)
{
    char err[ERRLEN];
    int rc = fileio_check_output(path, force ? FILEIO_FORCE : 0, err,
                                 sizeof err);

    if (rc == FILEIO_EXISTS)
        return cli_fail("%s; use --force to overwrite", err);
    if (rc != FILEIO_OK)
        return cli_fail("%s", err);
    for (size_t i = 0; i < ninputs; i++)
        if (inputs[i] && fileio_same_file(path, inputs[i]))
            return cli_fail("%s: the output is the input %s; refusing to "
                        "overwrite it", path, inputs[i]);
    /* Binary bytes on a terminal are unreadable and can upset it. */
    return armor ? ST_OK : cli_binary_out(path, "or --armor");
}

int tts_cli_save(const char *path, int kind, const tts_params *p,
                const uint8_t *payload, unsigned flags)
{
    char err[ERRLEN];
    int rc = ttsfile_write(path, kind, p, payload, flags, err, sizeof err);

    if (rc == TTSFILE_EXISTS)
        return cli_fail("%s; use --force to overwrite", err);
    if (rc != TTSFILE_OK)
        return cli_fail("%s", err);
    return ST_OK;
}

/* A secret key file, checked on reading (ttsfile.h: tts_sk_check and the
 * public-key binding), and its public key. */
int tts_cli_load_secret(const char *path, const tts_params **p, uint8_t **sk,
                       size_t *len, uint8_t **pk)
{
    if (tts_cli_load(path, TTS_FILE_SECRET_KEY, p, sk, len) != ST_OK)
        return ST_ERROR;
    if ((*pk = malloc(tts_pk_bytes(*p))) == NULL ||
        tts_pk_from_sk(*p, *pk, *sk) != TTS_OK) {
        tts_file_free(*sk, *len);
        free(*pk);
        *sk = *pk = NULL;
        return cli_fail("%s: cannot compute the public key", path);
    }
    return ST_OK;
}

/* --max-bytes N: 0 (no limit) when absent. */
int tts_cli_parse_max(const char *arg, unsigned long long *max)
{
    char *end;

    *max = 0;
    if (!arg)
        return ST_OK;
    errno = 0;
    *max = strtoull(arg, &end, 10);
    if (errno || *end || arg[0] == '-' || !arg[0] || *max == 0)
        return cli_usage("--max-bytes: expected a positive byte count, "
                          "not '%s'", arg);
    return ST_OK;
}

/* SHA-512 of the whole of path ("-": standard input, a stream; a named
 * path must be a regular file), read in chunks so that any size works, at
 * most max bytes (0: no limit). The first m bytes are the digest of
 * docs/SPEC.md, section 7.1, as tts_digest computes it. */
int tts_cli_hash_input(const char *path, unsigned long long max,
                      uint8_t h[crypto_hash_sha512_BYTES])
{
    const char *name = fileio_display(path);
    crypto_hash_sha512_state st;
    uint8_t buf[16384];
    unsigned long long total = 0;
    char err[ERRLEN];
    ssize_t r;
    int fd, e = 0;

    if (fileio_open_input(path, FILEIO_STDIN, &fd, NULL, err, sizeof err) !=
        FILEIO_OK)
        return cli_fail("%s%s", err, strcmp(path, "-") != 0 ? " (to read a "
                    "stream, give - and redirect standard input)" : "");
    crypto_hash_sha512_init(&st);
    for (;;) {
        r = read(fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            e = errno;
        if (r <= 0)
            break;
        total += (unsigned long long)r;
        if (max && total > max) {
            e = EFBIG;
            break;
        }
        crypto_hash_sha512_update(&st, buf, (unsigned long long)r);
    }
    if (fd != STDIN_FILENO && close(fd) != 0 && !e)
        e = errno;
    if (e == EFBIG)
        return cli_fail("%s: longer than --max-bytes %llu", name, max);
    if (e)
        return cli_fail("%s: %s", name, strerror(e));
    crypto_hash_sha512_final(&st, h);
    return ST_OK;
}

int tts_cli_same_stdin(const char *a, const char *b)
{
    return strcmp(a, "-") == 0 && strcmp(b, "-") == 0;
}
