/* SPDX-License-Identifier: MIT */
/* tts-avr's state file (avrstate.h). */
#define _DEFAULT_SOURCE /* flock */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "avrstate.h"
#include "cardstate.h"
#include "fileio.h"
#include "ttsfile.h"

static const char MAGIC[8] = {'T', 'T', 'S', 'A', 'V', 'R', '0', '2'};

static size_t file_bytes(const avr_state *st)
{
    return 8 + 3 + st->skb + AVR_PIN_BYTES + AVRSIM_EEPROM + 32 + 32;
}

static int damaged(const avr_state *st, const char *why, char *err, size_t errlen)
{
    fileio_say(err, errlen, "%s: a damaged state file (%s): refused; keep it for inspection "
               "and program the key into a new one", st->path, why);
    return -1;
}

/* The file's bytes b (len) into st, checked. */
static int decode(avr_state *st, const uint8_t *b, size_t len, char *err, size_t errlen)
{
    uint8_t h[32];
    const uint8_t *q = b + 11;
    if (len >= 8 && !memcmp(b, "TTSAVR01", 8)) {
        fileio_say(err, errlen, "%s: a state file of an older tts-avr (no PIN): program the "
                   "key again into a new file", st->path);
        return -1;
    }
    if (len != file_bytes(st) || memcmp(b, MAGIC, 8) || b[8] != tts_params_m(st->p) ||
        b[9] != tts_params_n(st->p)) {
        fileio_say(err, errlen, "%s: not a state file of this set's AVR image", st->path);
        return -1;
    }
    crypto_hash_sha256(h, b, len - 32);
    if (sodium_memcmp(h, b + len - 32, 32) != 0 || b[10] > 1)
        return damaged(st, "its checksum differs", err, errlen);
    st->programmed = b[10];
    memcpy(st->sk, q, st->skb);
    memcpy(st->pin, q + st->skb, AVR_PIN_BYTES);
    memcpy(st->ee, q + st->skb + AVR_PIN_BYTES, AVRSIM_EEPROM);
    if (!st->programmed)
        return 0;
    if (tts_sk_check(st->p, st->sk) != TTS_OK || tts_pk_from_sk(st->p, st->pk, st->sk) != TTS_OK)
        return damaged(st, "the library refuses its secret key", err, errlen);
    crypto_hash_sha256(h, st->pk, st->pkb);
    if (sodium_memcmp(h, b + len - 64, 32) != 0)
        return damaged(st, "its secret key's public key is not the one programmed", err, errlen);
    if (st->pin[0] < AVR_PIN_MIN || st->pin[0] > AVR_PIN_MAX)
        return damaged(st, "no PIN", err, errlen);
    return 0;
}

int avr_state_open(avr_state *st, const tts_params *p, const char *path, const char *who,
                   char *err, size_t errlen)
{
    struct stat sb;
    memset(st, 0, sizeof *st);
    st->p = p;
    st->skb = tts_sk_bytes(p);
    st->pkb = tts_pk_bytes(p);
    st->path = path;
    st->fd = -1;
    memset(st->ee, 0xFF, sizeof st->ee);
    if (!(st->sk = calloc(1, st->skb)) || !(st->pk = calloc(1, st->pkb))) {
        fileio_say(err, errlen, "out of memory");
        return -1;
    }
    if (!path)
        return 0;
    if ((st->fd = card_lock_path(path, who, &st->created, err, errlen)) < 0)
        return -1;
    if (fstat(st->fd, &sb) != 0 || sb.st_size == 0)
        return 0;
    uint8_t *b = NULL;
    size_t len;
    if (ttsfile_read_raw(path, TTSFILE_MAX_BYTES, TTSFILE_PRIVATE, &b, &len, err, errlen) !=
        TTSFILE_OK)
        return -1;
    int rc = decode(st, b, len, err, errlen);
    tts_file_free(b, len);
    return rc;
}

/* The file replaced by b (len): a temporary beside it, written, flushed and
 * locked before it is renamed into place, so that the lock held passes to
 * the new file at once (a session waiting on the old one then finds it
 * replaced and waits on the new one: cardstate.h's lock). */
static int replace_locked(avr_state *st, const uint8_t *b, size_t len, char *err,
                          size_t errlen)
{
    size_t pl = strlen(st->path);
    char *tmp = malloc(pl + 16), *slash;
    if (!tmp) {
        fileio_say(err, errlen, "out of memory");
        return -1;
    }
    memcpy(tmp, st->path, pl);
    memcpy(tmp + pl, ".tmp-XXXXXX", 12);
    /* listed: a signal or an exit before the rename removes it, wiped */
    int fd = mkstemp(tmp), ok = fd >= 0 && fileio_temp_add(tmp, FILEIO_SECRET) == FILEIO_OK;
    ok = ok && fileio_write_all(fd, b, len) == 0 && fsync(fd) == 0 &&
         flock(fd, LOCK_EX | LOCK_NB) == 0 && rename(tmp, st->path) == 0;
    if (fd >= 0)
        fileio_temp_done(tmp, !ok);
    if (!ok) {
        fileio_say(err, errlen, "%s: %s", st->path, strerror(errno));
        if (fd >= 0) {
            (void)unlink(tmp);
            close(fd);
        }
        free(tmp);
        return -1;
    }
    /* the rename made durable: the folder flushed */
    slash = strrchr(tmp, '/');
    if (slash)
        slash[1] = '\0';
    int dfd = open(slash ? tmp : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(tmp);
    close(st->fd);
    st->fd = fd;
    return 0;
}

int avr_state_save(avr_state *st, char *err, size_t errlen)
{
    if (!st->path)
        return 0;
    size_t len = file_bytes(st);
    uint8_t *b = malloc(len), *q;
    if (!b) {
        fileio_say(err, errlen, "out of memory");
        return -1;
    }
    memcpy(b, MAGIC, 8);
    b[8] = (uint8_t)tts_params_m(st->p);
    b[9] = (uint8_t)tts_params_n(st->p);
    b[10] = st->programmed;
    q = b + 11;
    memcpy(q, st->sk, st->skb);
    memcpy(q + st->skb, st->pin, AVR_PIN_BYTES);
    memcpy(q + st->skb + AVR_PIN_BYTES, st->ee, AVRSIM_EEPROM);
    crypto_hash_sha256(b + len - 64, st->pk, st->pkb);
    crypto_hash_sha256(b + len - 32, b, len - 32);
    int rc = replace_locked(st, b, len, err, errlen);
    sodium_memzero(b, len);
    free(b);
    if (rc != 0)
        return -1;
    st->saved = 1;
    return 0;
}

void avr_state_close(avr_state *st)
{
    if (st->sk)
        sodium_memzero(st->sk, st->skb);
    sodium_memzero(st->pin, sizeof st->pin);
    sodium_memzero(st->ee, sizeof st->ee);
    free(st->sk);
    free(st->pk);
    st->sk = st->pk = NULL;
    if (st->fd >= 0) {
        if (st->created && !st->saved)
            (void)unlink(st->path);
        close(st->fd);
        st->fd = -1;
    }
}
