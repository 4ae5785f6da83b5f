/* SPDX-License-Identifier: MIT */
/* tts-card's command line beside its main file: the usage text, the
 * inputs and outputs of a session (keys, PIN, digests, public keys and
 * signatures to files): tools/card_cli.h. */
#define _POSIX_C_SOURCE 200809L
#include "card_cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <sodium.h>

#include "cli.h"
#include "fileio.h"
#include "ttsfile.h"

#ifndef CARD_IMAGE_DIR
#define CARD_IMAGE_DIR "8051"
#endif

/* tts-card --help */
void card_usage(FILE *f)
{
    fputs(
"usage: tts-card [options] SUBCOMMAND [args] [SUBCOMMAND [args] ...]\n"
"       tts-card [options] report\n"
"options:\n"
"  --params NAME     parameter set (default TTS(20,28)); selects the image\n"
"  --image FILE      card image (default DIR/tts-M-N.ihx)\n"
"  --image-dir DIR   directory of the images (default $TTS_CARD_DIR or\n"
"                    " CARD_IMAGE_DIR ")\n"
"  --cpu CPU         8032 (default, 12T), DS320 (4T), 8051 (12T, 128 B RAM:\n"
"                    the tts-M-N-128.ihx images)\n"
"  --mhz F           crystal in MHz (default 3.57)\n"
"  --uart            use the simulated UART (images built with CARD_UART)\n"
"  --report          print machine cycles and ms for every subcommand\n"
"  --eeprom FILE     the card's non-volatile memory (key, PIN, signature\n"
"                    counter): locked and loaded at start, saved before any\n"
"                    answer is released (a failed save fails the session)\n"
"  --force           replace existing output files (never an input; links are\n"
"                    replaced, not followed)\n"
"  --armor           write keys and signatures as armored tts files (base64)\n"
"  --raw             write them as bare bytes (default: binary tts files, as\n"
"                    `tts keygen` and `tts sign` write them)\n"
"  --pin FILE        the PIN (4..16 bytes; FILE private, or - to type it):\n"
"                    genkey and put-key set it, sign and verify send it\n"
"  --cut N           cut the power after N instructions (tests: the state is\n"
"                    saved with --eeprom, the answers are not checked)\n"
"  --watch ADDR:K[:r]  print the instructions executed at the first K writes\n"
"                    (:r reads) of XDATA ADDR, and in all (tests: where to cut)\n"
"  -v                show the simulator's output\n"
"  -h, --help        this text; --version: the version\n"
"files: an output is never an input, never followed through a link, never\n"
"  replaces a file without --force, and a signal leaves nothing behind (the\n"
"  simulator killed, SIGKILL too; its request, which may hold the key and\n"
"  the PIN, is in no named file)\n"
"subcommands:\n"
"  info                          GET INFO\n"
"  genkey --seed FILE            SET PIN + GENERATE KEY from a 32-byte seed\n"
"  export-pk -o FILE             all GET PK SEGMENTs, assembled: the public key\n"
"                                (-o -: to standard output, the report to\n"
"                                standard error)\n"
"  put-key [--pk PUB] FILE       SET PIN + PUT KEY (whole secret key) + COMMIT KEY\n"
"                                with check points made from the public key meant:\n"
"                                PUB's (a key whose own differs is refused), or the\n"
"                                one a tts key file is bound to; a raw or hex key\n"
"                                only with --pk\n"
"  verify                        VERIFY the PIN\n"
"  sign [--digest HEX | --digest-file FILE | --message FILE] [-o FILE]\n"
"                                VERIFY (with --pin), GET COUNTER, SIGN an\n"
"                                m-byte digest (--digest: always hex;\n"
"                                default: digest of the message, or of the\n"
"                                empty message); the signature is verified\n"
"                                before it is shown or written\n"
"  counter                       GET COUNTER (the next signature's counter)\n"
"  cycles                        GET CYCLES (cycles of the previous command)\n"
"  apdu HEX                      send raw bytes, print La data SW\n"
"  report                        the card tables for all sets and the image families,\n"
"                                and the memory budget of every image (--params\n"
"                                and --cpu narrow it; each image checked first)\n", f);
    fprintf(f, "\n%s\n", TTS_BROKEN_NOTE);
}

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
                 "to the device: %s", keyfile);
    /* raw bytes carry no binding: a changed byte of S1 passes the check */
    else if (!bound && !pkfile)
        cli_fail("a raw or hex secret key is bound to no public key (a changed byte of S1 "
                 "goes unnoticed): give the public key it must have with --pk FILE; nothing "
                 "sent to the device: %s", keyfile);
    else if (tts_pk_from_sk(p, own, key) != TTS_OK)
        cli_fail("the library cannot compute the key's public key: %s", keyfile);
    else if (pkfile && card_read_key(pkfile, p, TTS_FILE_PUBLIC_KEY, meant, &bound) != 0)
        ;
    else if (pkfile && memcmp(own, meant, pkb) != 0)
        cli_fail("the secret key's public key differs from --pk's (a corrupted or another "
                 "key): nothing sent to the device: %s", keyfile);
    else
        rc = 0;
    free(meant);
    return rc;
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
