/* SPDX-License-Identifier: MIT */
/*
 * tts-avr: drive a libtts AVR image (avr/) on a simulated ATmega328P
 * (libsimavr, tools/avrsim.h).
 *
 *   tts-avr [options] SUBCOMMAND [args] [SUBCOMMAND [args] ...]
 *   tts-avr [options] report
 *
 * The subcommands of one invocation run in order on one device. Exit
 * status: 0 success, 1 the device refused (a signature it does not
 * accept, a counter run out) or its signature failed the host's check,
 * 2 usage or input error (or no simulator).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>
#include <tts.h>

#include "avrsim.h"
#include "cardstate.h"
#include "cli.h"
#include "fileio.h"
#include "avr_protocol.h"
#include "ttsfile.h"

#ifndef AVR_IMAGE_DIR
#define AVR_IMAGE_DIR "avr"
#endif

/* Messages to sign may be larger than key files. */
#define MESSAGE_MAX_BYTES ((size_t)1 << 30)

/* The state file: magic, m, n, a flag (keys programmed), sk, pk, EEPROM. */
static const char STATE_MAGIC[8] = {'T', 'T', 'S', 'A', 'V', 'R', '0', '1'};

static void usage(FILE *f)
{
    fputs(
"usage: tts-avr [options] SUBCOMMAND [args] [SUBCOMMAND [args] ...]\n"
"       tts-avr [options] report\n"
"options:\n"
"  --params NAME     parameter set (default TTS(20,28)); selects the image\n"
"  --image FILE      AVR image (default DIR/tts-M-N.elf)\n"
"  --image-dir DIR   directory of the images (default $TTS_AVR_DIR or\n"
"                    " AVR_IMAGE_DIR ")\n"
"  --report          print cycles, ms at 16 MHz and the stack's peak for\n"
"                    every subcommand\n"
"  --eeprom FILE     the device's non-volatile memory (the keys in flash,\n"
"                    the EEPROM: K_card and the signature counter): locked\n"
"                    and loaded at start, saved before any answer is released\n"
"  --force           replace existing output files (never an input)\n"
"  --armor           write signatures as armored tts files (base64)\n"
"  --raw             write them as bare bytes (default: binary tts files)\n"
"  -h, --help        this text; --version: the version\n"
"files: an output is never an input, never followed through a link, never\n"
"  replaces a file without --force\n"
"subcommands:\n"
"  info                          INFO: the set, the keys' flash addresses\n"
"  program KEY                   write a secret key (a tts file, as `tts keygen`\n"
"                                writes it) and its public key into flash,\n"
"                                then INSTALL (K_card into EEPROM)\n"
"  sign [--digest HEX | --digest-file FILE | --message FILE] [-o FILE]\n"
"                                SIGN an m-byte digest (default: the digest of\n"
"                                the message, or of the empty message) with the\n"
"                                device's counter; the signature is checked by\n"
"                                the host (verified, and equal to the host's for\n"
"                                the same stream) before it is shown or written\n"
"  verify SIG [--digest HEX | --digest-file FILE | --message FILE]\n"
"                                VERIFY on the device with the public key in\n"
"                                flash: exit 0 accepted, 1 refused\n"
"  counter                       COUNTER: the next signature's counter\n"
"  report                        for every image (or --params): SIGN and VERIFY\n"
"                                cycles and ms at 16 MHz, flash, SRAM (static,\n"
"                                stack peaks), with a key from the seed 00..1F\n",
        f);
    fprintf(f, "\n%s\n", TTS_BROKEN_NOTE);
}

static void die(const char *msg, const char *arg)
{
    fprintf(stderr, "tts-avr: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    exit(2);
}

/* The whole of path (at most cap bytes); exits 2 with the reason. */
static uint8_t *read_all(const char *path, size_t cap, unsigned flags, size_t *len)
{
    uint8_t *b = NULL;
    char err[512];
    if (ttsfile_read_raw(path, cap, flags, &b, len, err, sizeof err) != TTSFILE_OK)
        die(err, NULL);
    return b;
}

/* A tts file of the given kind for set p (payload into out). */
static void read_object(const char *path, int kind, const tts_params *p, uint8_t *out)
{
    const tts_params *fp;
    uint8_t *pay;
    size_t len;
    char err[512];
    if (ttsfile_read(path, kind, &fp, &pay, &len, err, sizeof err) != TTSFILE_OK)
        die(err, NULL);
    if (fp != p) {
        tts_file_free(pay, len);
        fprintf(stderr, "tts-avr: %s: a %s file, but the image is %s\n", path,
                tts_params_name(fp), tts_params_name(p));
        exit(2);
    }
    memcpy(out, pay, len);
    tts_file_free(pay, len);
}

/* The digest of a subcommand: --digest HEX, --digest-file FILE (m raw
 * bytes or their hex), --message FILE; none: the empty message's. Returns
 * the index after the options taken. */
static int read_digest(int argc, char **argv, int i, const tts_params *p, uint8_t *h,
                       const char **out)
{
    size_t m = tts_digest_bytes(p);
    int given = 0;
    tts_digest(p, h, (const uint8_t *)"", 0);
    while (i + 1 < argc && argv[i][0] == '-' && argv[i][1]) {
        const char *o = argv[i], *v = argv[i + 1];
        if (!strcmp(o, "-o") && out) {
            *out = v;
        } else if (!strcmp(o, "--digest") || !strcmp(o, "--digest-file")) {
            size_t len = strlen(v);
            uint8_t *b = NULL;
            if (o[8]) /* --digest-file */
                b = read_all(v, TTSFILE_MAX_BYTES, 0, &len);
            long got = len == m && b ? (memcpy(h, b, m), (long)m)
                                     : cli_hex(b ? (const char *)b : v, len, h, m);
            if (b)
                tts_file_free(b, len);
            if (got != (long)m) {
                fprintf(stderr, "tts-avr: %s: need %zu bytes (hex) for the digest\n", v, m);
                exit(2);
            }
            given++;
        } else if (!strcmp(o, "--message")) {
            size_t len;
            uint8_t *b = read_all(v, MESSAGE_MAX_BYTES, 0, &len);
            tts_digest(p, h, b, len);
            tts_file_free(b, len);
            given++;
        } else {
            break;
        }
        i += 2;
    }
    if (given > 1)
        die("give one of --digest, --digest-file, --message", NULL);
    return i;
}

static void print_hex(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        printf("%02X", b[i]);
    printf("\n");
}

static void show(int report, const char *what, const avrsim_stats *st)
{
    if (report)
        fprintf(stderr, "report: %s %llu cycles, %.2f ms at %.0f MHz, stack peak %u B\n", what,
                (unsigned long long)st->cycles, (double)st->cycles / (AVRSIM_MHZ * 1000.0),
                AVRSIM_MHZ, st->stack_peak);
}

/* ---- the device and its state file ---- */
typedef struct {
    const tts_params *p;
    size_t skb, pkb;
    uint8_t programmed, *sk, *pk, ee[AVRSIM_EEPROM];
    avrsim *s;
    avrsim_info info;
} device;

static size_t state_bytes(const device *d)
{
    return sizeof STATE_MAGIC + 3 + d->skb + d->pkb + AVRSIM_EEPROM;
}

/* The state file, locked by this session from its load to the end (a
 * file it made and never saved is removed at exit). */
static int state_fd = -1, state_created, state_saved;
static const char *state_path;

static void state_release(void)
{
    if (state_fd < 0)
        return;
    if (state_created && !state_saved)
        (void)unlink(state_path);
    close(state_fd);
    state_fd = -1;
}

/* Lock and load the state file (a missing or empty one: a new device). */
static void state_load(device *d, const char *path)
{
    struct stat st;
    char err[512];
    memset(d->ee, 0xFF, sizeof d->ee);
    if (!path)
        return;
    state_path = path;
    if ((state_fd = card_lock_path(path, &state_created, err, sizeof err)) < 0)
        die(err, NULL);
    atexit(state_release);
    if (fstat(state_fd, &st) != 0 || st.st_size == 0)
        return;
    size_t len;
    uint8_t *b = read_all(path, TTSFILE_MAX_BYTES, TTSFILE_PRIVATE, &len), *q = b;
    if (len != state_bytes(d) || memcmp(b, STATE_MAGIC, 8) ||
        b[8] != tts_params_m(d->p) || b[9] != tts_params_n(d->p) || b[10] > 1) {
        tts_file_free(b, len);
        die("not a state file of this set's AVR image", path);
    }
    q += 8 + 2;
    d->programmed = *q++;
    memcpy(d->sk, q, d->skb);
    memcpy(d->pk, q + d->skb, d->pkb);
    memcpy(d->ee, q + d->skb + d->pkb, AVRSIM_EEPROM);
    tts_file_free(b, len);
}

static void state_save(device *d, const char *path)
{
    if (!path)
        return;
    size_t len = state_bytes(d);
    uint8_t *b = malloc(len), *q = b;
    char err[512];
    if (!b)
        die("out of memory", NULL);
    if (avrsim_eeprom(d->s, d->ee) != AVRSIM_OK)
        die("cannot read the simulated EEPROM", NULL);
    memcpy(q, STATE_MAGIC, 8);
    q[8] = (uint8_t)tts_params_m(d->p);
    q[9] = (uint8_t)tts_params_n(d->p);
    q[10] = d->programmed;
    q += 11;
    memcpy(q, d->sk, d->skb);
    memcpy(q + d->skb, d->pk, d->pkb);
    memcpy(q + d->skb + d->pkb, d->ee, AVRSIM_EEPROM);
    int rc = fileio_write(path, b, len, FILEIO_FORCE | FILEIO_SECRET | FILEIO_INPLACE, err,
                          sizeof err);
    sodium_memzero(b, len);
    free(b);
    if (rc != FILEIO_OK) {
        fprintf(stderr, "tts-avr: cannot save the device: %s\n", err);
        exit(2);
    }
    state_saved = 1;
}

/* The signature the host makes with the card's stream for counter ctr
 * and digest h (docs/SPEC.md 7.4) equals sig. */
static int host_predicts(const device *d, uint32_t ctr, const uint8_t *h, const uint8_t *sig)
{
    uint8_t key[32], want[TTS_MAX_N];
    tts_stream s;
    int ok = tts_card_stream_key(d->p, key, d->sk, ctr, h) == TTS_OK;
    tts_stream_init(&s, key);
    ok = ok && tts_sign_digest(d->p, want, h, d->sk, tts_stream_rng, &s) == TTS_OK &&
         memcmp(want, sig, tts_sig_bytes(d->p)) == 0;
    tts_stream_wipe(&s);
    sodium_memzero(key, sizeof key);
    sodium_memzero(want, sizeof want);
    return ok;
}

/* One command; exits 2 if the simulation fails. */
static size_t command(device *d, const uint8_t *cmd, size_t len, uint8_t *ans, size_t cap,
                      avrsim_stats *st)
{
    size_t alen;
    char err[512];
    if (avrsim_cmd(d->s, cmd, len, ans, cap, &alen, st, err, sizeof err) != AVRSIM_OK)
        die(err, NULL);
    if (alen < 1)
        die("the device gave no answer", NULL);
    return alen;
}

static int run_report(const char *dir, const tts_params *only)
{
    uint8_t seed[32], h[TTS_MAX_M];
    int found = 0;
    for (int i = 0; i < 32; i++)
        seed[i] = (uint8_t)i;
    printf("| set | SIGN cycles | SIGN ms | VERIFY cycles | VERIFY ms | INSTALL cycles | "
           "flash B | SRAM static B | SIGN peak B | VERIFY peak B |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < tts_params_count(); k++) {
        const tts_params *p = tts_params_at(k);
        char path[4096], err[512];
        struct stat st;
        avrsim_measure_t r;
        if (only && p != only)
            continue;
        snprintf(path, sizeof path, "%s/%s.elf", dir, tts_params_id(p));
        if (stat(path, &st) != 0) {
            fprintf(stderr, "tts-avr: %s: no image (%s)\n", tts_params_name(p),
                    tts_pk_bytes(p) > AVRSIM_FLASH ? "its public key is larger than the flash"
                                                   : "not built");
            continue;
        }
        tts_digest(p, h, (const uint8_t *)"abc", 3);
        if (avrsim_measure(path, seed, h, &r, err, sizeof err) != AVRSIM_OK) {
            fprintf(stderr, "tts-avr: %s\n", err);
            return 1;
        }
        found++;
        printf("| %s | %llu | %.2f | %llu | %.2f | %llu | %u | %u | %u | %u |\n",
               tts_params_name(p), (unsigned long long)r.sign.cycles,
               (double)r.sign.cycles / (AVRSIM_MHZ * 1000.0),
               (unsigned long long)r.verify.cycles,
               (double)r.verify.cycles / (AVRSIM_MHZ * 1000.0),
               (unsigned long long)r.install.cycles, r.flash, r.sram_static,
               r.sram_static + r.sign.stack_peak, r.sram_static + r.verify.stack_peak);
    }
    if (!found)
        die("no AVR image found", dir);
    return 0;
}

int main(int argc, char **argv)
{
    const char *params = "TTS(20,28)", *image = NULL, *eeprom = NULL;
    const char *dir = getenv("TTS_AVR_DIR");
    int report = 0, o_help = 0, o_version = 0, o_force = 0, o_armor = 0, o_raw = 0;
    const char *o_params = NULL;
    const cli_opt opts[] = {
        {"help", 'h', NULL, &o_help},   {"version", 0, NULL, &o_version},
        {"report", 0, NULL, &report},   {"force", 0, NULL, &o_force},
        {"armor", 0, NULL, &o_armor},   {"raw", 0, NULL, &o_raw},
        {"params", 0, &o_params, NULL}, {"image", 0, &image, NULL},
        {"image-dir", 0, &dir, NULL},   {"eeprom", 0, &eeprom, NULL},
        CLI_OPT_END};
    cli_prog = "tts-avr";
    int i = cli_parse_head(argc, argv, opts);
    if (i < 0)
        return 2;
    if (o_help) { usage(stdout); return 0; }
    if (o_version) { printf("tts-avr (libtts) %s\n%s\n", tts_version(), TTS_BROKEN_NOTE); return 0; }
    if (!dir)
        dir = AVR_IMAGE_DIR;
    if (o_params)
        params = o_params;
    if (o_armor && o_raw)
        die("--armor and --raw exclude each other", NULL);
    if (i >= argc)
        return cli_usage("no subcommand given");
    if (!avrsim_available())
        die("this build has no AVR simulator (configure found no libsimavr)", NULL);
    if (sodium_init() < 0)
        die("libsodium failed to initialise", NULL);
    const tts_params *p = tts_params_get(params);
    if (!p)
        die("unknown parameter set", params);
    if (!strcmp(argv[i], "report")) {
        if (i + 1 != argc)
            return cli_usage("report takes no arguments: '%s'", argv[i + 1]);
        return run_report(dir, o_params ? p : NULL);
    }
    if (eeprom && !strcmp(eeprom, "-"))
        die("--eeprom needs a file: the device's state is read back next time", NULL);

    device d;
    memset(&d, 0, sizeof d);
    d.p = p;
    d.skb = tts_sk_bytes(p);
    d.pkb = tts_pk_bytes(p);
    d.sk = calloc(1, d.skb);
    d.pk = calloc(1, d.pkb);
    if (!d.sk || !d.pk)
        die("out of memory", NULL);
    char ibuf[4096], err[512];
    const int o_image = image != NULL;
    if (!image) {
        snprintf(ibuf, sizeof ibuf, "%s/%s.elf", dir, tts_params_id(p));
        image = ibuf;
    }
    struct stat ist;
    if (stat(image, &ist) != 0) {
        /* run from the build tree, the images are in avr/, not installed */
        if (!o_image && strcmp(dir, "avr") != 0 && stat("avr/tts-20-28.elf", &ist) == 0)
            fprintf(stderr, "tts-avr: no AVR image %s; in the build tree, pass --image-dir avr\n",
                    image);
        else
            fprintf(stderr, "tts-avr: no AVR image: %s\n", image);
        exit(2);
    }
    state_load(&d, eeprom);
    if (avrsim_open(&d.s, image, d.ee, &d.info, err, sizeof err) != AVRSIM_OK)
        die(err, NULL);
    if (d.info.m != tts_params_m(p) || d.info.n != tts_params_n(p))
        die("the image is of another set than --params", image);
    /* the keys as programmed (INSTALL again: K_card is a function of sk) */
    if (d.programmed &&
        avrsim_program(d.s, d.sk, d.skb, d.pk, d.pkb, err, sizeof err) != AVRSIM_OK)
        die(err, NULL);

    int status = 0;
    const size_t m = tts_params_m(p), n = tts_params_n(p);
    uint8_t cmd[1 + 2 * TTS_MAX_N + TTS_MAX_M], ans[1 + TTS_MAX_N + 16], h[TTS_MAX_M];
    avrsim_stats st;
    while (i < argc && !status) {
        const char *w = argv[i++], *out = NULL;
        if (!strcmp(w, "info")) {
            printf("%s: flash sk 0x%04X (%zu B), pk 0x%04X (%zu B), static SRAM to 0x%04X, "
                   "keys %s\n", tts_params_name(p), d.info.sk_addr, d.skb, d.info.pk_addr,
                   d.pkb, d.info.heap, d.programmed ? "programmed" : "not programmed");
        } else if (!strcmp(w, "program")) {
            if (i >= argc)
                die("program needs a secret-key file", NULL);
            read_object(argv[i++], TTS_FILE_SECRET_KEY, p, d.sk);
            if (tts_sk_check(p, d.sk) != TTS_OK || tts_pk_from_sk(p, d.pk, d.sk) != TTS_OK)
                die("the library refuses this secret key", argv[i - 1]);
            if (avrsim_program(d.s, d.sk, d.skb, d.pk, d.pkb, err, sizeof err) != AVRSIM_OK)
                die(err, NULL);
            d.programmed = 1;
            state_save(&d, eeprom);
        } else if (!strcmp(w, "sign")) {
            i = read_digest(argc, argv, i, p, h, &out);
            if (out) {
                int rc = fileio_check_output(out, o_force ? FILEIO_FORCE : 0, err, sizeof err);
                if (rc != FILEIO_OK || (eeprom && fileio_same_file(out, eeprom)) ||
                    fileio_same_file(out, image))
                    die(rc == FILEIO_EXISTS ? "the output exists (use --force)"
                                            : rc != FILEIO_OK ? err : "the output is an input",
                        out);
            }
            /* the counter this SIGN will use, for the host's prediction */
            cmd[0] = AVR_CMD_COUNTER;
            if (command(&d, cmd, 1, ans, sizeof ans, NULL) != 5)
                die("COUNTER: a malformed answer", NULL);
            uint32_t ctr = (uint32_t)ans[1] | (uint32_t)ans[2] << 8 | (uint32_t)ans[3] << 16 |
                           (uint32_t)ans[4] << 24;
            cmd[0] = AVR_CMD_SIGN;
            memcpy(cmd + 1, h, m);
            size_t alen = command(&d, cmd, 1 + m, ans, sizeof ans, &st);
            state_save(&d, eeprom); /* the counter moved: saved before the answer */
            show(report, "SIGN", &st);
            if (ans[0] != AVR_OK || alen != 1 + n) {
                fprintf(stderr, "tts-avr: SIGN refused (status %02X%s)\n", ans[0],
                        ans[0] == AVR_ENOKEY ? ": no key programmed" :
                        ans[0] == AVR_ECOUNTER ? ": the counter is exhausted" :
                        ans[0] == AVR_EFAULT ? ": the signature failed the device's own "
                                               "VERIFY (a fault), withheld" : "");
                status = 1;
            } else if (!d.programmed || tts_verify_digest(p, ans + 1, h, d.pk) != TTS_OK ||
                       !host_predicts(&d, ctr, h, ans + 1)) {
                fputs("tts-avr: the device's signature fails the host's check (tts verify, "
                      "and the host's signature for the same stream): withheld\n", stderr);
                status = 1;
            } else if (!out) {
                print_hex(ans + 1, n);
            } else if (o_raw) {
                if (fileio_write(out, ans + 1, n, o_force ? FILEIO_FORCE : 0, err,
                                 sizeof err) != FILEIO_OK)
                    die(err, NULL);
            } else if (ttsfile_write(out, TTS_FILE_SIGNATURE, p, ans + 1,
                                     (o_armor ? TTS_FILE_ARMOR : 0) |
                                         (o_force ? TTSFILE_FORCE : 0),
                                     err, sizeof err) != TTSFILE_OK) {
                die(err, NULL);
            }
        } else if (!strcmp(w, "verify")) {
            if (i >= argc)
                die("verify needs a signature file", NULL);
            read_object(argv[i++], TTS_FILE_SIGNATURE, p, cmd + 1);
            i = read_digest(argc, argv, i, p, h, NULL);
            cmd[0] = AVR_CMD_VERIFY;
            memcpy(cmd + 1 + n, h, m);
            command(&d, cmd, 1 + n + m, ans, sizeof ans, &st);
            show(report, "VERIFY", &st);
            printf("%s\n", ans[0] == AVR_OK ? "accepted" : "refused");
            status = ans[0] == AVR_OK ? 0 : 1;
        } else if (!strcmp(w, "counter")) {
            cmd[0] = AVR_CMD_COUNTER;
            size_t alen = command(&d, cmd, 1, ans, sizeof ans, &st);
            if (alen != 5)
                die("COUNTER: a malformed answer", NULL);
            printf("%lu\n", (unsigned long)ans[1] | (unsigned long)ans[2] << 8 |
                                (unsigned long)ans[3] << 16 | (unsigned long)ans[4] << 24);
        } else {
            status = cli_usage("unknown subcommand '%s'", w); /* the key wiped below */
        }
    }
    avrsim_close(d.s);
    sodium_memzero(d.sk, d.skb);
    free(d.sk);
    free(d.pk);
    return status;
}
