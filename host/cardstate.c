/* SPDX-License-Identifier: MIT */
/* The card session's state and its --eeprom file: host/cardstate.h. */
#define _GNU_SOURCE /* O_CLOEXEC, O_NOFOLLOW */
#include "cardstate.h"
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#define MAGIC "TTSCARD3"
#define MAGIC2 "TTSCARD2" /* no pending install: HEAD2, three key areas */
#define HEAD 12  /* magic, m, n, active, pending */
#define HEAD2 11

int card_state_init(card_state *s, const tts_params *p)
{
    s->p = p;
    s->skb = tts_sk_bytes(p);
    s->pkb = tts_pk_bytes(p);
    s->active = 0;
    s->sk = calloc(1, s->skb);
    s->stage = calloc(1, s->skb);
    s->written = calloc(1, s->skb);
    s->cand = calloc(1, s->skb);
    s->pending = 0;
    if (!s->sk || !s->stage || !s->written || !s->cand) {
        card_state_free(s);
        return -1;
    }
    return 0;
}

void card_state_free(card_state *s)
{
    fileio_free(s->sk, s->skb);
    fileio_free(s->stage, s->skb);
    fileio_free(s->written, s->skb);
    fileio_free(s->cand, s->skb);
    s->sk = s->stage = s->written = s->cand = NULL;
}

void card_state_copy(card_state *dst, const card_state *src)
{
    dst->active = src->active;
    memcpy(dst->sk, src->sk, src->skb);
    memcpy(dst->stage, src->stage, src->skb);
    memcpy(dst->written, src->written, src->skb);
    dst->pending = src->pending;
    memcpy(dst->cand, src->cand, src->skb);
}

void card_state_track(card_state *s, const card_apdu *a, const card_resp *r)
{
    if (!r || (r->sw != CARD_SW_OK && !(a->ins == CARD_COMMIT_KEY && r->sw == CARD_SW_DATA)))
        return;
    const uint8_t *data = a->raw_len >= 0 ? a->raw + 5 : a->data;
    uint8_t lc = a->raw_len >= 0 ? (a->raw_len > 4 ? a->raw[4] : 0) : a->lc;
    uint8_t p1 = a->raw_len >= 0 ? a->raw[2] : a->p1, p2 = a->raw_len >= 0 ? a->raw[3] : a->p2;
    if (a->cla != CARD_CLA)
        return;
    if (a->ins == CARD_GENERATE_KEY) {
        uint8_t *pk = malloc(s->pkb);
        if (pk && tts_keypair_from_seed(s->p, pk, s->sk, data) == TTS_OK)
            s->active = 1;
        free(pk);
        memset(s->written, 0, s->skb);
        s->pending = 0;
    } else if (a->ins == CARD_PUT_KEY) {
        size_t off = (size_t)p1 << 8 | p2;
        for (size_t i = 0; i < lc && off + i < s->skb; i++) {
            s->stage[off + i] = data[i];
            s->written[off + i] = 1;
        }
    } else if (a->ins == CARD_COMMIT_KEY) {
        if (r->sw == CARD_SW_OK) {
            memcpy(s->sk, s->stage, s->skb);
            s->active = 1;
            s->pending = 0;
        }
        memset(s->written, 0, s->skb);
    }
}

void card_state_cut(card_state *s, const card_apdu *a)
{
    const uint8_t *data = a->raw_len >= 0 ? a->raw + 5 : a->data;
    uint8_t cla = a->raw_len >= 0 ? a->raw[0] : a->cla, ins = a->raw_len >= 0 ? a->raw[1] : a->ins;
    size_t lc = a->raw_len >= 0 ? (size_t)a->raw_len - 6 : a->lc;
    if (cla != CARD_CLA)
        return;
    if (ins == CARD_GENERATE_KEY && lc == 32) {
        uint8_t *pk = malloc(s->pkb);
        if (pk && tts_keypair_from_seed(s->p, pk, s->cand, data) == TTS_OK)
            s->pending = 1;
        free(pk);
    } else if (ins == CARD_COMMIT_KEY) {
        int whole = 1;
        for (size_t i = 0; i < s->skb; i++)
            whole &= s->written[i];
        /* (a key the library refuses is no key the host can check) */
        if (whole && tts_sk_check(s->p, s->stage) == TTS_OK) {
            memcpy(s->cand, s->stage, s->skb);
            s->pending = 1;
        }
    } else {
        return;
    }
    memset(s->written, 0, s->skb); /* the card clears its record at both */
}

void card_state_resolve(card_state *s, int verdict)
{
    if (!s->pending)
        return;
    if (verdict == 2) {
        memcpy(s->sk, s->cand, s->skb);
        s->active = 1;
    } else if (verdict == -1) {
        s->active = 0;
    }
    if (verdict == 1 || verdict == 2 || verdict == -1)
        s->pending = 0;
}

/* Which key's public key pk (of a key s knows) the answer r to a GET PK
 * SEGMENT 0 or the SIGN a (digest) agrees with: 1 the old, 2 the
 * candidate, -1 neither. */
static int which_key(const card_state *s, const card_apdu *a, const card_resp *r, int seg)
{
    int verdict = -1;
    uint8_t *pk = malloc(s->pkb);
    const uint8_t *keys[2] = {s->active ? s->sk : NULL, s->cand};
    unsigned m = tts_params_m(s->p);
    for (int k = 0; k < 2 && pk && verdict < 0; k++) {
        if (!keys[k] || tts_pk_from_sk(s->p, pk, keys[k]) != TTS_OK)
            continue;
        if (seg ? r->len > 0 && memcmp(r->data, pk, r->len) == 0
                : tts_verify_digest(s->p, r->data, a->raw_len >= 0 ? a->raw + 5 : a->data,
                                    pk) == TTS_OK && (a->raw_len >= 0 ? a->raw[4] : a->lc) == m)
            verdict = k + 1;
    }
    free(pk);
    return verdict;
}

int card_state_settle(card_state *s, const card_batch *b, size_t probe)
{
    if (!s->pending)
        return 0;
    int verdict = 3;
    if (probe < b->nresp && b->resp[probe].sw == CARD_SW_OK)
        verdict = which_key(s, &b->cmd[probe], &b->resp[probe], 1);
    for (size_t k = 0; verdict == 3 && k < b->nresp; k++) {
        const card_apdu *a = &b->cmd[k];
        uint8_t cla = a->raw_len >= 0 ? a->raw[0] : a->cla;
        uint8_t ins = a->raw_len >= 0 ? a->raw[1] : a->ins;
        if (cla != CARD_CLA || b->resp[k].sw != CARD_SW_OK)
            continue;
        if (ins == CARD_GENERATE_KEY || ins == CARD_COMMIT_KEY)
            break; /* a new key: the old question is moot */
        if (ins == CARD_SIGN && b->resp[k].len == tts_params_n(s->p))
            verdict = which_key(s, a, &b->resp[k], 0);
    }
    card_state_resolve(s, verdict);
    return verdict;
}

void card_state_say_settle(FILE *rep, int verdict)
{
    if (verdict == -1)
        card_warn("settle: the key install cut before its answer in a past session matches "
                  "neither key: the host knows no key of this card\n");
    else if (verdict)
        fprintf(rep, "settle: the key install cut before its answer in a past session %s\n",
                verdict == 1   ? "did not take: the card holds its old key"
                : verdict == 2 ? "took: the card holds the new key"
                : verdict == 3 ? "is not settled yet: no public key read, no signature (the "
                                 "next segment or signature settles it)"
                               : "matches neither key: the host knows no key of this card");
}

static size_t file_bytes(const card_state *s)
{
    return HEAD + 4 * s->skb + CARD_XRAM_BYTES;
}

/* The file's bytes into s and xram: 0, or -1 (a corrupted state file). */
static int decode(card_state *s, uint8_t *xram, const uint8_t *b, size_t len,
                  const char *path, char *err, size_t errlen)
{
    int v2 = len == HEAD2 + 3 * s->skb + CARD_XRAM_BYTES && !memcmp(b, MAGIC2, 8);
    if ((!v2 && (len != file_bytes(s) || memcmp(b, MAGIC, 8))) || b[8] != tts_params_m(s->p) ||
        b[9] != tts_params_n(s->p)) {
        fileio_say(err, errlen, "%s: not an EEPROM file of %s", path, tts_params_name(s->p));
        return -1;
    }
    const uint8_t *sk = b + (v2 ? HEAD2 : HEAD), *written = sk + s->skb, *stage = written + s->skb;
    const uint8_t *cand = stage + s->skb;
    int pending = v2 ? 0 : b[11];
    int bad = b[10] > 1 || pending > 1;
    for (size_t i = 0; i < s->skb; i++)
        bad |= written[i] > 1;
    if (!bad && ((b[10] && tts_sk_check(s->p, sk) != TTS_OK) ||
                 (pending && tts_sk_check(s->p, cand) != TTS_OK)))
        bad = 2;
    if (bad) {
        fileio_say(err, errlen, "%s: a corrupted EEPROM file: %s", path,
                   bad == 2 ? "the host's copy of the card's key is not a valid secret key"
                            : "its flags are out of range");
        return -1;
    }
    s->active = b[10];
    memcpy(s->sk, sk, s->skb);
    memcpy(s->written, written, s->skb);
    memcpy(s->stage, stage, s->skb);
    s->pending = pending;
    if (pending)
        memcpy(s->cand, cand, s->skb);
    memcpy(xram, stage + s->skb * (v2 ? 1 : 2), CARD_XRAM_BYTES);
    return 0;
}

/* The whole of fd, at most cap bytes: 0, or -1 with errno. */
static int read_fd(int fd, uint8_t *b, size_t cap, size_t *len)
{
    *len = 0;
    for (;;) {
        ssize_t r = read(fd, b + *len, cap - *len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            return 0;
        *len += (size_t)r;
        if (*len == cap) { /* one byte more means too long */
            uint8_t x;
            r = read(fd, &x, 1);
            if (r > 0)
                *len = cap + 1;
            return r < 0 ? -1 : 0;
        }
    }
}

/* path open, locked, and still the file at path: the descriptor, or -1
 * (err). *created: this call made it (empty). */
int card_lock_path(const char *path, const char *who, int *created, char *err, size_t errlen)
{
    int said = 0;
    for (int tries = 0; tries < 100; tries++) {
        *created = 0;
        int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT) {
            fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            if (fd < 0 && errno == EEXIST)
                continue;
            *created = fd >= 0;
        }
        if (fd < 0) {
            fileio_say(err, errlen, "%s: %s", path,
                       errno == ELOOP ? "a symbolic link (name the state file itself)"
                                      : strerror(errno));
            return -1;
        }
        struct stat a, b;
        if (fstat(fd, &a) != 0 || !S_ISREG(a.st_mode)) {
            close(fd);
            fileio_say(err, errlen, "%s is %s, not a regular file", path,
                       S_ISDIR(a.st_mode)                         ? "a directory"
                       : S_ISFIFO(a.st_mode)                      ? "a FIFO"
                       : S_ISCHR(a.st_mode) || S_ISBLK(a.st_mode) ? "a device"
                                                                  : "something else");
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK) {
                fileio_say(err, errlen, "%s: cannot lock: %s", path, strerror(errno));
                close(fd);
                return -1;
            }
            if (!said++)
                fprintf(stderr, "%s: %s is in use by another %s session; "
                        "waiting for it to end\n", who, path, who);
            while (flock(fd, LOCK_EX) != 0)
                if (errno != EINTR) {
                    fileio_say(err, errlen, "%s: cannot lock: %s", path, strerror(errno));
                    close(fd);
                    return -1;
                }
        }
        /* the session before may have replaced the file: lock the new one */
        if (lstat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
            return fd;
        close(fd);
    }
    fileio_say(err, errlen, "%s: could not lock it (replaced again and again)", path);
    return -1;
}

int card_store_open(card_store *st, const char *path, const char *who, card_state *s,
                    uint8_t *xram, int *restored, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    st->path = path;
    st->fd = card_lock_path(path, who, &st->created, err, errlen);
    *restored = 0;
    if (st->fd < 0)
        return -1;
    struct stat sb;
    int bad = fstat(st->fd, &sb) != 0;
    if (bad)
        fileio_say(err, errlen, "%s: %s", path, strerror(errno));
    else
        bad = fileio_check_private(path, sb.st_mode, err, errlen) != FILEIO_OK;
    if (bad) {
        card_store_close(st);
        return -1;
    }
    fileio_note_input_fd(st->fd, path);
    size_t cap = file_bytes(s), len;
    uint8_t *b = malloc(cap + 1);
    if (!b) {
        fileio_say(err, errlen, "out of memory");
        card_store_close(st);
        return -1;
    }
    int rc = read_fd(st->fd, b, cap, &len);
    if (rc != 0)
        fileio_say(err, errlen, "%s: %s", path, strerror(errno));
    else if (len > 0 && decode(s, xram, b, len, path, err, errlen) != 0)
        rc = -1;
    fileio_free(b, cap + 1);
    if (rc != 0) {
        card_store_close(st);
        return -1;
    }
    *restored = len > 0; /* an empty file: a fresh card */
    return 0;
}

int card_store_save(card_store *st, const card_state *s, const uint8_t *xram, char *err,
                    size_t errlen)
{
    size_t len = file_bytes(s);
    uint8_t *b = malloc(len);
    if (!b) {
        fileio_say(err, errlen, "out of memory");
        return -1;
    }
    memcpy(b, MAGIC, 8);
    b[8] = (uint8_t)tts_params_m(s->p);
    b[9] = (uint8_t)tts_params_n(s->p);
    b[10] = (uint8_t)s->active;
    b[11] = (uint8_t)s->pending;
    memcpy(b + HEAD, s->sk, s->skb);
    memcpy(b + HEAD + s->skb, s->written, s->skb);
    memcpy(b + HEAD + 2 * s->skb, s->stage, s->skb);
    memcpy(b + HEAD + 3 * s->skb, s->cand, s->skb);
    memcpy(b + HEAD + 4 * s->skb, xram, CARD_XRAM_BYTES);
    /* a fresh temporary beside it, fsync, rename (common/fileio.h) */
    int rc = fileio_write(st->path, b, len, FILEIO_FORCE | FILEIO_SECRET | FILEIO_INPLACE, err,
                          errlen);
    fileio_free(b, len);
    if (rc != FILEIO_OK)
        return -1;
    st->saved = 1;
    return 0;
}

void card_store_close(card_store *st)
{
    if (st->fd < 0)
        return;
    struct stat a, b;
    /* the empty file this session made, never saved: gone, while locked */
    if (st->created && !st->saved && fstat(st->fd, &a) == 0 && a.st_size == 0 &&
        lstat(st->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
        unlink(st->path);
    close(st->fd); /* the lock with it */
    st->fd = -1;
}
