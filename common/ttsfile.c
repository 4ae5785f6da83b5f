/* SPDX-License-Identifier: MIT */
/* Key and signature files on disk: see ttsfile.h and tools/tts.1. The
 * codec is libtts's (include/tts_file.h). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <sys/stat.h>

#include "fileio.h"
#include "ttsfile.h"

#define say fileio_say
#define display fileio_display

/* ---- files --------------------------------------------------------------- */

/* The secret-input rule of fileio.h. */
static int check_private(const char *path, mode_t mode, char *err,
                         size_t errlen)
{
    return fileio_check_private(path, mode, err, errlen) == FILEIO_OK
               ? TTSFILE_OK : TTSFILE_ERROR;
}

int ttsfile_read_raw(const char *path, size_t cap, unsigned flags,
                     uint8_t **buf, size_t *len, char *err, size_t errlen)
{
    mode_t mode = 0;

    if (!path || !buf || !len) {
        say(err, errlen, "invalid argument");
        return TTSFILE_ERROR;
    }
    if (fileio_read(path, cap, FILEIO_STDIN, buf, len, &mode, err, errlen) !=
        FILEIO_OK)
        return TTSFILE_ERROR;
    if ((flags & TTSFILE_PRIVATE) &&
        check_private(path, mode, err, errlen) != TTSFILE_OK) {
        tts_file_free(*buf, *len);
        *buf = NULL;
        return TTSFILE_ERROR;
    }
    return TTSFILE_OK;
}

static int read_file(const char *path, int expected, unsigned codec_flags,
                     const tts_params **p, uint8_t **payload, size_t *len,
                     char *err, size_t errlen)
{
    char why[256];
    uint8_t *raw;
    size_t rawlen;
    mode_t mode = 0;
    int rc;

    if (!path) {
        say(err, errlen, "invalid argument");
        return TTSFILE_ERROR;
    }
    if (fileio_read(path, TTSFILE_MAX_BYTES, FILEIO_STDIN, &raw, &rawlen,
                    &mode, err, errlen) != FILEIO_OK)
        return TTSFILE_ERROR;
    /* decoded first, so that a public key given as -k is called one */
    rc = tts_file_decode(raw, rawlen, expected, codec_flags, p, payload, len,
                         why, sizeof why);
    tts_file_free(raw, rawlen);
    if (rc != TTS_OK) {
        say(err, errlen, "%s: %s", display(path), why);
        return TTSFILE_ERROR;
    }
    if (expected == TTS_FILE_SECRET_KEY &&
        check_private(path, mode, err, errlen) != TTSFILE_OK) {
        tts_file_free(*payload, *len);
        *payload = NULL;
        return TTSFILE_ERROR;
    }
    return TTSFILE_OK;
}

int ttsfile_read(const char *path, int expected, const tts_params **p,
                 uint8_t **payload, size_t *len, char *err, size_t errlen)
{
    return read_file(path, expected, 0, p, payload, len, err, errlen);
}

int ttsfile_read_unbound(const char *path, const tts_params **p,
                         uint8_t **sk, size_t *len, char *err, size_t errlen)
{
    return read_file(path, TTS_FILE_SECRET_KEY, TTS_FILE_UNBOUND, p, sk, len,
                     err, errlen);
}

static unsigned fileio_flags(int kind, unsigned flags)
{
    return (flags & TTSFILE_FORCE ? FILEIO_FORCE : 0) |
           (kind == TTS_FILE_SECRET_KEY ? FILEIO_SECRET : 0);
}

int ttsfile_write(const char *path, int kind, const tts_params *p,
                  const uint8_t *payload, unsigned flags,
                  char *err, size_t errlen)
{
    uint8_t *img;
    size_t len;
    int rc;

    if (!path || tts_file_encode(kind, p, payload, flags & TTS_FILE_ARMOR,
                                 &img, &len) != TTS_OK) {
        say(err, errlen, "%s: cannot encode the %s (out of memory?)",
            path ? path : "(null)", tts_file_kind_name(kind));
        return TTSFILE_ERROR;
    }
    rc = fileio_write(path, img, len, fileio_flags(kind, flags), err, errlen);
    tts_file_free(img, len);
    return rc == FILEIO_EXISTS ? TTSFILE_EXISTS
                               : rc == FILEIO_OK ? TTSFILE_OK : TTSFILE_ERROR;
}

int ttsfile_write_pair(const char *pubpath, const char *secpath,
                       const tts_params *p, const uint8_t *pk,
                       const uint8_t *sk, unsigned flags, char *err,
                       size_t errlen)
{
    uint8_t *pimg = NULL, *simg = NULL;
    size_t plen = 0, slen = 0;
    int rc = TTSFILE_ERROR;

    unsigned armor = flags & TTS_FILE_ARMOR;

    if (tts_file_encode(TTS_FILE_SECRET_KEY, p, sk, armor, &simg, &slen) != TTS_OK ||
        tts_file_encode(TTS_FILE_PUBLIC_KEY, p, pk, armor, &pimg, &plen) != TTS_OK) {
        say(err, errlen, "cannot encode the key pair (out of memory?)");
    } else {
        /* Both or neither, whatever fails, and catchable signals wait for
         * the pair (fileio_commit). Only SIGKILL between the two renames
         * can split it: the secret key is then created first and replaced
         * last, so the secret key file present is always whole, with its
         * public key recomputable by tts pubkey. */
        struct stat st;
        int replacing = lstat(secpath, &st) == 0;
        fileio_out sec = {secpath, simg, slen,
                          fileio_flags(TTS_FILE_SECRET_KEY, flags)};
        fileio_out pub = {pubpath, pimg, plen,
                          fileio_flags(TTS_FILE_PUBLIC_KEY, flags)};
        fileio_out outs[2];
        outs[replacing ? 1 : 0] = sec;
        outs[replacing ? 0 : 1] = pub;
        rc = fileio_commit(outs, 2, err, errlen);
        rc = rc == FILEIO_EXISTS ? TTSFILE_EXISTS
                                 : rc == FILEIO_OK ? TTSFILE_OK : TTSFILE_ERROR;
    }
    tts_file_free(simg, slen);
    tts_file_free(pimg, plen);
    return rc;
}
