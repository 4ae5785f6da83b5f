/* SPDX-License-Identifier: MIT */
/* COMMIT KEY's check points and the inputs of an install: tools/cardbind.h. */
#define _POSIX_C_SOURCE 200809L
#include "cardbind.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <sodium.h>

#include "cli.h"
#include "fileio.h"
#include "gf256.h"
#include "protocol.h"
#include "ttsfile.h"

size_t card_check_points(const tts_params *p)
{
    return CARD_CHECK_POINTS(tts_params_m(p), tts_params_n(p));
}

size_t card_check_bytes(const tts_params *p)
{
    return CARD_CHECK_BYTES(tts_params_m(p), tts_params_n(p));
}

int card_check_data(const tts_params *p, uint8_t *out, const uint8_t *sk, const uint8_t *pk,
                    const uint8_t *xs)
{
    size_t m = tts_params_m(p), n = tts_params_n(p);
    /* docs/SPEC.md section 5.2: S3 row-major at m(m+1), s3 after it */
    const uint8_t *S3 = sk + m * (m + 1), *s3 = S3 + n * n;
    for (size_t k = 0; k < card_check_points(p); k++, out += 2 * n + m, xs += n) {
        uint8_t *x = out, *w = out + n, *y = out + 2 * n;
        for (size_t r = 0; r < n; r++)
            x[r] = xs[r];
        for (size_t r = 0; r < n; r++) {
            uint8_t acc = s3[r];
            for (size_t c = 0; c < n; c++)
                acc ^= gf256_mul(S3[r * n + c], x[c]);
            w[r] = acc;
        }
        int rc = tts_pk_eval(p, y, w, pk);
        if (rc != TTS_OK)
            return rc;
    }
    return TTS_OK;
}

int card_points_degenerate(const uint8_t *xs, size_t np, size_t n)
{
    int bad = 0;
    for (size_t k = 0; k < np; k++) {
        uint8_t or = 0;
        for (size_t r = 0; r < n; r++)
            or |= xs[k * n + r];
        bad |= or == 0;
    }
    if (np == 2)
        bad |= memcmp(xs, xs + n, n) == 0;
    return bad;
}

size_t card_add_commit_pk(card_batch *b, const tts_params *p, const uint8_t *sk,
                          const uint8_t *pk)
{
    size_t n = tts_params_n(p), idx = (size_t)-1;
    uint8_t xs[2 * TTS_MAX_N], data[255];
    size_t np = card_check_points(p);
    /* x = 0 or two equal points tell nothing of S3 (the card refuses
     * them): drawn again (with probability 2^-8n, for completeness) */
    do
        randombytes_buf(xs, np * n);
    while (card_points_degenerate(xs, np, n));
    if (card_check_data(p, data, sk, pk, xs) == TTS_OK)
        idx = card_add(b, CARD_COMMIT_KEY, 0, 0, data, (uint8_t)card_check_bytes(p));
    sodium_memzero(xs, sizeof xs);
    sodium_memzero(data, sizeof data);
    return idx;
}

size_t card_add_commit(card_batch *b, const tts_params *p, const uint8_t *sk)
{
    size_t idx = (size_t)-1;
    uint8_t *pk = malloc(tts_pk_bytes(p));
    if (pk && tts_pk_from_sk(p, pk, sk) == TTS_OK)
        idx = card_add_commit_pk(b, p, sk, pk);
    free(pk);
    return idx;
}

/* ---- the inputs */

int card_read_file(const char *path, size_t cap, unsigned flags, uint8_t **buf, size_t *len)
{
    char err[512];
    *buf = NULL;
    if (ttsfile_read_raw(path, cap, flags, buf, len, err, sizeof err) != TTSFILE_OK)
        return cli_fail("%s", err);
    return 0;
}

int card_read_exact(const char *path, uint8_t *out, size_t want, const char *what,
                    unsigned flags)
{
    size_t len;
    uint8_t *b;
    if (card_read_file(path, TTSFILE_MAX_BYTES, flags, &b, &len))
        return ST_ERROR;
    int ok = len == want;
    if (ok)
        memcpy(out, b, want);
    else
        ok = cli_hex((const char *)b, len, out, want) == (long)want;
    tts_file_free(b, len);
    return ok ? 0 : cli_fail("%s: need %zu bytes (raw or hex) for %s", path, want, what);
}

int card_read_key(const char *path, const tts_params *p, int kind, uint8_t *out, int *bound)
{
    int secret = kind == TTS_FILE_SECRET_KEY, rc = 0;
    size_t len, plen, want = tts_file_payload_bytes(p, kind);
    unsigned flags = secret ? TTSFILE_PRIVATE : 0;
    const tts_params *fp;
    uint8_t *b, *pay;
    char err[256];
    *bound = 0;
    if (card_read_file(path, TTSFILE_MAX_BYTES, flags, &b, &len))
        return ST_ERROR;
    /* a raw key has exactly want bytes (a tts file has a header more) */
    if (len == want || len <= 3 ||
        (memcmp(b, "TTS", 3) != 0 && memcmp(b, "-----BEGIN ", len < 11 ? len : 11) != 0)) {
        tts_file_free(b, len);
        return card_read_exact(path, out, want, secret ? "a secret key" : "a public key", flags);
    }
    rc = tts_file_decode(b, len, kind, 0, &fp, &pay, &plen, err, sizeof err);
    tts_file_free(b, len);
    if (rc != TTS_OK)
        return cli_fail("%s: %s", path, err);
    if (fp == p)
        memcpy(out, pay, want);
    else
        rc = cli_fail("%s: a %s key, but the card is %s", path, tts_params_name(fp),
                      tts_params_name(p));
    tts_file_free(pay, plen);
    *bound = rc == 0;
    return rc;
}

/* The terminal's settings while the PIN prompt has turned echo off: a
 * signal there restores them before the tool dies of it. */
static struct termios pin_tty;
static volatile sig_atomic_t pin_echo_off;
static struct sigaction pin_old[3];
static const int pin_sigs[3] = {SIGINT, SIGTERM, SIGHUP};

static void pin_signal(int sig)
{
    if (pin_echo_off)
        tcsetattr(0, TCSAFLUSH, &pin_tty);
    /* the handler that was there before (the tools' clean-up, or death) */
    for (int k = 0; k < 3; k++)
        if (pin_sigs[k] == sig)
            sigaction(sig, &pin_old[k], NULL);
    raise(sig);
}

/* A line typed without echo on the terminal (or read from a pipe), at most
 * cap bytes without its line end (more: cap + 1); NUL bytes are kept (and
 * refused where the PIN is set: no terminal can type one). */
static size_t read_pin_line(char *line, size_t cap)
{
    struct termios t1;
    int tty = isatty(0) && tcgetattr(0, &pin_tty) == 0;
    if (tty) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = pin_signal;
        sigemptyset(&sa.sa_mask);
        /* a signal the caller ignores (nohup, a background job) stays
         * ignored: the prompt then waits for its line */
        for (int k = 0; k < 3; k++)
            if (sigaction(pin_sigs[k], NULL, &pin_old[k]) == 0 &&
                pin_old[k].sa_handler != SIG_IGN)
                sigaction(pin_sigs[k], &sa, NULL);
        fputs("PIN: ", stderr);
        t1 = pin_tty;
        t1.c_lflag &= ~(tcflag_t)ECHO;
        pin_echo_off = 1;
        tcsetattr(0, TCSAFLUSH, &t1);
    }
    size_t len = 0;
    int c;
    while ((c = getchar()) != EOF && c != '\n')
        if (len < cap)
            line[len++] = (char)c;
        else
            len = cap + 1; /* too long: refused by the caller */
    if (len && len <= cap && line[len - 1] == '\r')
        len--;
    if (tty) {
        tcsetattr(0, TCSAFLUSH, &pin_tty);
        pin_echo_off = 0;
        for (int k = 0; k < 3; k++)
            sigaction(pin_sigs[k], &pin_old[k], NULL);
        fputs("\n", stderr);
    }
    return len;
}

int card_read_pin(const char *path, uint8_t pin[16], size_t *plen)
{
    char line[64];
    size_t len = 0;
    if (!strcmp(path, "-")) {
        len = read_pin_line(line, 16);
    } else {
        size_t flen;
        uint8_t *b;
        if (card_read_file(path, TTSFILE_MAX_BYTES, TTSFILE_PRIVATE, &b, &flen))
            return ST_ERROR;
        len = flen;
        if (len && b[len - 1] == '\n')
            len--;
        if (len && b[len - 1] == '\r')
            len--;
        if (len <= 16)
            memcpy(line, b, len);
        tts_file_free(b, flen);
    }
    if (len >= 4 && len <= 16)
        memcpy(pin, line, len);
    sodium_memzero(line, sizeof line);
    *plen = len >= 4 && len <= 16 ? len : 0;
    return *plen ? 0 : cli_fail("the PIN must have 4 to 16 bytes: %s", path);
}

int card_new_pin_ok(const uint8_t *pin, size_t len)
{
    if (memchr(pin, 0, len))
        return cli_fail("the PIN holds a NUL byte, which no terminal can type: refused as a "
                        "new PIN");
    return 0;
}

int card_install_key(const char *keyfile, const char *pkfile, const tts_params *p,
                     uint8_t *key, uint8_t *own)
{
    int bound, rc = ST_ERROR;
    size_t pkb = tts_pk_bytes(p);
    uint8_t *meant = malloc(pkb);
    if (!meant)
        cli_fail("out of memory");
    else if (card_read_key(keyfile, p, TTS_FILE_SECRET_KEY, key, &bound) != 0)
        ;
    /* as tts sign does: a key the library refuses never reaches a card */
    else if (tts_sk_check(p, key) != TTS_OK)
        cli_fail("not a valid secret key (the library's key check refuses it); nothing sent "
                 "to the card: %s", keyfile);
    /* raw bytes carry no binding: a changed byte of S1 passes the check */
    else if (!bound && !pkfile)
        cli_fail("a raw or hex secret key is bound to no public key (a changed byte of S1 "
                 "goes unnoticed): give the public key it must have with --pk FILE; nothing "
                 "sent to the card: %s", keyfile);
    else if (tts_pk_from_sk(p, own, key) != TTS_OK)
        cli_fail("the library cannot compute the key's public key: %s", keyfile);
    else if (pkfile && card_read_key(pkfile, p, TTS_FILE_PUBLIC_KEY, meant, &bound) != 0)
        ;
    else if (pkfile && memcmp(own, meant, pkb) != 0)
        cli_fail("the secret key's public key differs from --pk's (a corrupted or another "
                 "key): nothing sent to the card: %s", keyfile);
    else
        rc = 0;
    free(meant);
    return rc;
}

void card_check_sig(const tts_params *p, const uint8_t *hsk, const uint8_t *hpk, uint32_t ctr,
                    const uint8_t *digest, const card_resp *r, int *ok, int *same,
                    unsigned *calls)
{
    size_t n = tts_params_n(p);
    uint8_t hsig[TTS_MAX_N], key[32];
    tts_stream rng;
    tts_card_stream_key(p, key, hsk, ctr, digest);
    tts_stream_init(&rng, key);
    sodium_memzero(key, sizeof key);
    int rc = tts_sign_digest(p, hsig, digest, hsk, tts_stream_rng, &rng);
    *same = rc == TTS_OK && r->len == n && memcmp(hsig, r->data, n) == 0;
    *calls = rng.calls; /* before the wipe */
    tts_stream_wipe(&rng);
    *ok = r->len == n && tts_verify_digest(p, r->data, digest, hpk) == TTS_OK;
}

int card_write_object(const char *path, int kind, const tts_params *p, const uint8_t *obj,
                      int raw, unsigned flags)
{
    char err[512];
    int rc = raw ? fileio_write(path, obj, tts_file_payload_bytes(p, kind),
                                flags & TTSFILE_FORCE ? FILEIO_FORCE : 0, err, sizeof err)
                 : ttsfile_write(path, kind, p, obj, flags, err, sizeof err);
    return rc == 0 ? 0 : cli_fail("cannot write %s", err);
}

int card_host_pk(const tts_params *p, const uint8_t *sk, uint8_t *pk)
{
    return tts_sk_check(p, sk) == TTS_OK && tts_pk_from_sk(p, pk, sk) == TTS_OK;
}

const char *card_apdu_sign_verdict(const tts_params *p, const card_apdu *a, const card_resp *r,
                                   const uint8_t *hpk)
{
    if (a->raw_len != 6 + (int)tts_params_m(p) || a->raw[0] != CARD_CLA ||
        a->raw[1] != CARD_SIGN || r->sw != CARD_SW_OK || r->len != tts_params_n(p))
        return NULL;
    if (!hpk)
        return "unverified (the host knows no valid key of this card)";
    return tts_verify_digest(p, r->data, a->raw + 5, hpk) == TTS_OK
               ? "verifies under the host's key of this card"
               : "DOES NOT VERIFY under the host's key of this card";
}

int card_digest_of(const tts_params *p, const char *hex, const char *file, const char *msgfile,
                   int given, uint8_t *digest)
{
    unsigned m = tts_params_m(p);
    if (given > 1)
        return cli_fail("sign: give one --digest, --digest-file or --message");
    if (file)
        return card_read_exact(file, digest, m, "a digest", 0);
    if (hex && cli_hex(hex, strlen(hex), digest, m) != (long)m) /* never a file name */
        return cli_fail("--digest needs %u bytes of hex (%u digits); a digest in a file: "
                        "--digest-file FILE", m, 2 * m);
    if (hex)
        return 0;
    size_t ml = 0;
    uint8_t *msg = NULL;
    if (msgfile && card_read_file(msgfile, (size_t)1 << 30, 0, &msg, &ml)) /* 1 GiB at most */
        return ST_ERROR;
    tts_digest(p, digest, msg ? msg : (const uint8_t *)"", ml);
    tts_file_free(msg, ml);
    return 0;
}
