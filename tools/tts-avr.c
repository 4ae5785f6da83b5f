/* SPDX-License-Identifier: MIT */
/*
 * tts-avr: drive a libtts AVR image (avr/) on a simulated ATmega328P
 * (libsimavr, host/avrsim.h).
 *
 *   tts-avr [options] SUBCOMMAND [args] [SUBCOMMAND [args] ...]
 *   tts-avr [options] report
 *
 * The subcommands of one invocation run in order on one device (one power
 * cycle: VERIFY PIN holds until the end). Each is a function of the table
 * below returning a status; main has one exit path, where the key loaded
 * is wiped whatever happened. Exit status: 0 success, 1 the device refused
 * (a signature it does not accept, a wrong PIN, a counter run out) or its
 * signature failed the host's check, 2 usage or input error (or no
 * simulator).
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
#include "avrstate.h"
#include "card_cli.h"
#include "cli.h"
#include "devcli.h"
#include "fileio.h"
#include "avr_protocol.h"
#include "ttsfile.h"

#ifndef AVR_IMAGE_DIR
#define AVR_IMAGE_DIR "avr"
#endif

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
"  --eeprom FILE     the device's non-volatile memory (the keys and the PIN in\n"
"                    flash, the EEPROM: K_card, the counter, the PIN's tries):\n"
"                    locked and loaded at start (a damaged file refused),\n"
"                    saved before any answer is released\n"
"  --pin FILE        the PIN: 4..16 bytes of a file only its owner may read (a\n"
"                    final newline dropped), or - to type it; program sets\n"
"                    it, verify-pin and sign send it\n"
"  --report          each command's cycles, ms at 16 MHz and stack peak\n"
"  --force           replace existing output files (never an input)\n"
"  --armor           write signatures as armored tts files (base64)\n"
"  --raw             write them as bare bytes (default: binary tts files)\n"
"  -h, --help        this text; --version: the version\n"
"files: an output is never an input, never followed through a link, never\n"
"  replaces a file without --force; -o - is standard output (binary never\n"
"  to a terminal: use --armor)\n"
"subcommands:\n"
"  info                          INFO: the set, the keys' flash addresses\n"
"  program KEY [--pk FILE]       with --pin: write a secret key and its public\n"
"                                key into flash, the PIN and its 3 tries, then\n"
"                                INSTALL (K_card into EEPROM). KEY: a tts file\n"
"                                (as `tts keygen` writes it); with --pk (the\n"
"                                public key KEY must have: a tts file, raw or\n"
"                                hex) also the raw key or its hex. A key whose\n"
"                                public key differs is refused, nothing sent\n"
"  verify-pin                    VERIFY PIN (--pin): 3 tries, a good PIN\n"
"                                gives them back (once an invocation)\n"
"  sign [--digest HEX | --digest-file FILE | --message FILE] [-o FILE|-]\n"
"                                VERIFY PIN, then SIGN an m-byte digest\n"
"                                (default: the digest of the message, or of the\n"
"                                empty message) with the device's counter; the\n"
"                                signature is checked by the host (verified, and\n"
"                                the host's for the same stream) before it is out\n"
"  verify SIG [--digest HEX | --digest-file FILE | --message FILE]\n"
"                                VERIFY on the device with the public key in\n"
"                                flash: exit 0 accepted, 1 refused (or no key)\n"
"  counter                       COUNTER: the next signature's counter\n"
"  report                        for every image (or --params): SIGN and VERIFY\n"
"                                cycles and ms at 16 MHz, flash, SRAM (static,\n"
"                                stack peaks), with a key from the seed 00..1F\n",
        f);
    fprintf(f, "\n%s\n", TTS_BROKEN_NOTE);
}

/* ---- the device and its session ---- */
typedef struct {
    const tts_params *p;
    size_t skb, pkb, m, n;
    avr_state st; /* the keys and PIN as programmed, the EEPROM (host/avrstate.h) */
    avrsim *s;
    avrsim_info info;
    /* the invocation */
    const char *state, *image, *pinfile;
    int report, force, armor, raw, verified;
    int argc, i;
    char **argv;
} device;

/* Store the device (EEPROM as the simulator left it) before any answer. */
static int state_save(device *d)
{
    char err[512];
    if (avrsim_eeprom(d->s, d->st.ee) != AVRSIM_OK)
        return cli_fail("cannot read the simulated EEPROM");
    if (avr_state_save(&d->st, err, sizeof err) != 0)
        return cli_fail("cannot save the device: %s", err);
    return ST_OK;
}

/* ---- inputs ---- */

/* A tts file of the given kind for the device's set (payload into out). */
static int read_object(const device *d, const char *path, int kind, uint8_t *out)
{
    const tts_params *fp;
    uint8_t *pay;
    size_t len;
    char err[512];
    if (ttsfile_read(path, kind, &fp, &pay, &len, err, sizeof err) != TTSFILE_OK)
        return cli_fail("%s", err);
    if (fp != d->p) {
        tts_file_free(pay, len);
        return cli_fail("%s: a %s file, but the image is %s", path, tts_params_name(fp),
                        tts_params_name(d->p));
    }
    memcpy(out, pay, len);
    tts_file_free(pay, len);
    return ST_OK;
}

/* --pin FILE (or - : typed) into the flash record (length, then the
 * bytes, 0-padded). */
static int read_pin(device *d, uint8_t rec[AVR_PIN_BYTES])
{
    size_t len;
    _Static_assert(AVR_PIN_MIN == 4 && AVR_PIN_MAX == 16, "card_read_pin's bounds");
    memset(rec, 0, AVR_PIN_BYTES);
    if (!d->pinfile)
        return cli_fail("this needs --pin FILE (the device's PIN)");
    if (card_read_pin(d->pinfile, rec + 1, &len))
        return ST_ERROR;
    rec[0] = (uint8_t)len;
    return ST_OK;
}

/* The digest of a subcommand: --digest HEX, --digest-file FILE (m raw
 * bytes or their hex), --message FILE; none: the empty message's; and
 * -o FILE where out is given. */
static int read_digest(device *d, uint8_t *h, const char **out)
{
    const char *hex = NULL, *file = NULL, *msg = NULL;
    int given = 0;
    while (d->i + 1 < d->argc && d->argv[d->i][0] == '-' && d->argv[d->i][1]) {
        const char *o = d->argv[d->i], *v = d->argv[d->i + 1];
        if (!strcmp(o, "-o") && out)
            *out = v;
        else if (!strcmp(o, "--digest"))
            hex = v, given++;
        else if (!strcmp(o, "--digest-file"))
            file = v, given++;
        else if (!strcmp(o, "--message"))
            msg = v, given++;
        else
            break;
        d->i += 2;
    }
    return card_digest_of(d->p, hex, file, msg, given, h) ? ST_ERROR : ST_OK;
}

/* ---- the device's commands ---- */

static void show(const device *d, const char *what, const avrsim_stats *st)
{
    if (d->report)
        fprintf(stderr, "report: %s %llu cycles, %.2f ms at %.0f MHz, stack peak %u B\n", what,
                (unsigned long long)st->cycles, (double)st->cycles / (AVRSIM_MHZ * 1000.0),
                AVRSIM_MHZ, st->stack_peak);
}

/* One command: its answer's length, or 0 after a message (the simulation
 * failed or the device gave no answer). */
static size_t command(device *d, const uint8_t *cmd, size_t len, uint8_t *ans, size_t cap,
                      avrsim_stats *st)
{
    size_t alen = 0;
    char err[512];
    if (avrsim_cmd(d->s, cmd, len, ans, cap, &alen, st, err, sizeof err) != AVRSIM_OK)
        cli_fail("%s", err);
    else if (alen < 1)
        cli_fail("the device gave no answer");
    else
        return alen;
    return 0;
}

static int counter_of(device *d, uint32_t *c)
{
    uint8_t cmd = AVR_CMD_COUNTER, a[8];
    if (command(d, &cmd, 1, a, sizeof a, NULL) != 5)
        return cli_fail("COUNTER: a malformed answer");
    *c = (uint32_t)a[1] | (uint32_t)a[2] << 8 | (uint32_t)a[3] << 16 | (uint32_t)a[4] << 24;
    return ST_OK;
}

/* VERIFY PIN with --pin, once an invocation; the tries saved before the
 * verdict is told. */
static int verify_pin(device *d)
{
    uint8_t rec[AVR_PIN_BYTES], st = 0, tries = 0;
    char err[512];
    if (d->verified)
        return ST_OK;
    if (read_pin(d, rec) != ST_OK)
        return ST_ERROR;
    int rc = avrsim_pin(d->s, rec + 1, rec[0], &st, &tries, err, sizeof err);
    sodium_memzero(rec, sizeof rec);
    if (rc != AVRSIM_OK)
        return cli_fail("%s", err);
    if (state_save(d) != ST_OK)
        return ST_ERROR;
    d->verified = st == AVR_OK;
    if (st == AVR_EPIN)
        fprintf(stderr, "tts-avr: VERIFY PIN: wrong PIN (%u %s left)\n", tries,
                tries == 1 ? "try" : "tries");
    else if (st != AVR_OK)
        fprintf(stderr, "tts-avr: VERIFY PIN refused: %s\n",
                st == AVR_EBLOCKED ? "the PIN is blocked (three wrong tries)"
                : st == AVR_ENOKEY ? "no key programmed" : "unexpected status");
    return d->verified ? ST_OK : ST_INVALID;
}

static int cmd_info(device *d)
{
    printf("%s: flash sk 0x%04X (%zu B), pk 0x%04X (%zu B), PIN 0x%04X, static SRAM to "
           "0x%04X, keys %s\n", tts_params_name(d->p), d->info.sk_addr, d->skb, d->info.pk_addr,
           d->pkb, d->info.pin_addr, d->info.heap,
           d->st.programmed ? "programmed" : "not programmed");
    return ST_OK;
}

static int cmd_program(device *d)
{
    const char *key = d->i < d->argc ? d->argv[d->i++] : NULL, *pkfile = NULL;
    uint8_t rec[AVR_PIN_BYTES];
    char err[512];
    if (!key)
        return cli_fail("program needs a secret-key file");
    if (d->i + 1 < d->argc && !strcmp(d->argv[d->i], "--pk")) {
        pkfile = d->argv[d->i + 1];
        d->i += 2;
    }
    if (read_pin(d, rec) != ST_OK || card_new_pin_ok(rec + 1, rec[0]))
        return ST_ERROR;
    /* the key into the device's buffers only once it is accepted (as
     * tts-card put-key: the library's key check, and the public key meant) */
    uint8_t *sk = malloc(d->skb), *pk = malloc(d->pkb);
    int rc = !sk || !pk ? cli_fail("out of memory")
                        : card_install_key(key, pkfile, d->p, sk, pk) ? ST_ERROR : ST_OK;
    if (rc == ST_OK && avrsim_program(d->s, sk, d->skb, pk, d->pkb, rec + 1, rec[0], err,
                                      sizeof err) != AVRSIM_OK)
        rc = cli_fail("%s", err);
    if (rc == ST_OK) {
        memcpy(d->st.sk, sk, d->skb);
        memcpy(d->st.pk, pk, d->pkb);
        memcpy(d->st.pin, rec, sizeof rec);
        d->st.programmed = 1;
        d->verified = 0;
        rc = state_save(d);
    }
    if (sk)
        sodium_memzero(sk, d->skb);
    sodium_memzero(rec, sizeof rec);
    free(sk);
    free(pk);
    return rc;
}

/* Where sign's signature goes: checked before the device is asked. */
static int check_output(const device *d, const char *out)
{
    char err[512];
    int rc = fileio_check_output(out, d->force ? FILEIO_FORCE : 0, err, sizeof err);
    if (rc == FILEIO_EXISTS)
        return cli_fail("%s: the output exists (use --force)", out);
    if (rc != FILEIO_OK)
        return cli_fail("%s", err);
    if ((d->state && fileio_same_file(out, d->state)) || fileio_same_file(out, d->image))
        return cli_fail("%s: the output is an input", out);
    if (!strcmp(out, "-") && !d->armor && isatty(STDOUT_FILENO))
        return cli_fail("refusing to write binary data to a terminal; use -o FILE or --armor");
    return ST_OK;
}

static int write_sig(const device *d, const char *out, const uint8_t *sig)
{
    char err[512];
    unsigned force = d->force ? FILEIO_FORCE : 0;
    if (!out) {
        for (size_t i = 0; i < d->n; i++)
            printf("%02X", sig[i]);
        printf("\n");
    } else if (d->raw ? fileio_write(out, sig, d->n, force, err, sizeof err) != FILEIO_OK
                      : ttsfile_write(out, TTS_FILE_SIGNATURE, d->p, sig,
                                      (d->armor ? TTS_FILE_ARMOR : 0) |
                                          (d->force ? TTSFILE_FORCE : 0),
                                      err, sizeof err) != TTSFILE_OK) {
        return cli_fail("%s", err);
    }
    return ST_OK;
}

static int cmd_sign(device *d)
{
    const char *out = NULL;
    uint8_t cmd[1 + TTS_MAX_M], ans[1 + TTS_MAX_N + 16], h[TTS_MAX_M];
    avrsim_stats st;
    uint32_t ctr;
    int rc = read_digest(d, h, &out);
    if (rc == ST_OK && out)
        rc = check_output(d, out);
    if (rc == ST_OK && d->st.programmed)
        rc = verify_pin(d);
    /* the counter this SIGN will use, for the host's prediction */
    if (rc != ST_OK || (rc = counter_of(d, &ctr)) != ST_OK)
        return rc;
    cmd[0] = AVR_CMD_SIGN;
    memcpy(cmd + 1, h, d->m);
    size_t alen = command(d, cmd, 1 + d->m, ans, sizeof ans, &st);
    if (!alen || state_save(d) != ST_OK) /* the counter moved: saved before the answer */
        return ST_ERROR;
    show(d, "SIGN", &st);
    if (ans[0] != AVR_OK || alen != 1 + d->n) {
        fprintf(stderr, "tts-avr: SIGN refused (status %02X%s)\n", ans[0],
                ans[0] == AVR_ENOKEY     ? ": no key programmed"
                : ans[0] == AVR_ENOAUTH  ? ": no VERIFY PIN (--pin FILE)"
                : ans[0] == AVR_ECOUNTER ? ": the counter is exhausted"
                : ans[0] == AVR_EFAULT ? ": the signature failed the device's own VERIFY "
                                         "(a fault), withheld" : "");
        return ST_INVALID;
    }
    uint8_t want[TTS_MAX_N];
    int same = d->st.programmed && avrsim_host_sign(d->p, d->st.sk, ctr, h, want, NULL) ==
                                       TTS_OK && !memcmp(want, ans + 1, d->n);
    sodium_memzero(want, sizeof want);
    if (!same || tts_verify_digest(d->p, ans + 1, h, d->st.pk) != TTS_OK) {
        fputs("tts-avr: the device's signature fails the host's check (tts verify, and the "
              "host's signature for the same stream): withheld\n", stderr);
        return ST_INVALID;
    }
    return write_sig(d, out, ans + 1);
}

static int cmd_verify(device *d)
{
    uint8_t cmd[1 + TTS_MAX_N + TTS_MAX_M], ans[8], h[TTS_MAX_M];
    avrsim_stats st;
    if (d->i >= d->argc)
        return cli_fail("verify needs a signature file");
    const char *sig = d->argv[d->i++];
    int rc = read_object(d, sig, TTS_FILE_SIGNATURE, cmd + 1);
    if (rc != ST_OK || (rc = read_digest(d, h, NULL)) != ST_OK)
        return rc;
    cmd[0] = AVR_CMD_VERIFY;
    memcpy(cmd + 1 + d->n, h, d->m);
    if (!command(d, cmd, 1 + d->n + d->m, ans, sizeof ans, &st))
        return ST_ERROR;
    show(d, "VERIFY", &st);
    printf("%s\n", ans[0] == AVR_OK ? "accepted" : ans[0] == AVR_ENOKEY ? "refused: no key"
                                                                        : "refused");
    return ans[0] == AVR_OK ? ST_OK : ST_INVALID;
}

static int cmd_counter(device *d)
{
    uint32_t c;
    int rc = counter_of(d, &c);
    if (rc == ST_OK)
        printf("%lu\n", (unsigned long)c);
    return rc;
}

static const struct {
    const char *name;
    int (*fn)(device *d);
} subcommands[] = {
    {"info", cmd_info},     {"program", cmd_program}, {"verify-pin", verify_pin},
    {"sign", cmd_sign},     {"verify", cmd_verify},   {"counter", cmd_counter},
};

/* ---- report ---- */

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
            fprintf(stderr, "tts-avr: %s: no image (not built)\n", tts_params_name(p));
            continue;
        }
        tts_digest(p, h, (const uint8_t *)"abc", 3);
        if (avrsim_measure(path, seed, h, &r, err, sizeof err) != AVRSIM_OK)
            return cli_fail("%s", err);
        found++;
        printf("| %s | %llu | %.2f | %llu | %.2f | %llu | %u | %u | %u | %u |\n",
               tts_params_name(p), (unsigned long long)r.sign.cycles,
               (double)r.sign.cycles / (AVRSIM_MHZ * 1000.0),
               (unsigned long long)r.verify.cycles,
               (double)r.verify.cycles / (AVRSIM_MHZ * 1000.0),
               (unsigned long long)r.install.cycles, r.flash, r.sram_static,
               r.sram_static + r.sign.stack_peak, r.sram_static + r.verify.stack_peak);
    }
    return found ? ST_OK : cli_fail("no AVR image found: %s", dir);
}

/* ---- the session ---- */

/* Open the device: its image, its state, its keys as programmed. */
static int device_open(device *d, const char *dir, int o_image)
{
    char err[512];
    struct stat ist;
    if (stat(d->image, &ist) != 0) {
        /* run from the build tree, the images are in avr/, not installed */
        if (!o_image && strcmp(dir, "avr") != 0 && stat("avr/tts-20-28.elf", &ist) == 0)
            return cli_fail("no AVR image %s; in the build tree, pass --image-dir avr",
                            d->image);
        return cli_fail("no AVR image: %s", d->image);
    }
    if (d->state && !strcmp(d->state, "-"))
        return cli_fail("--eeprom needs a file: the device's state is read back next time");
    if (avr_state_open(&d->st, d->p, d->state, cli_prog, err, sizeof err) != 0)
        return cli_fail("%s", err);
    if (avrsim_open(&d->s, d->image, d->st.ee, &d->info, err, sizeof err) != AVRSIM_OK)
        return cli_fail("%s", err);
    if (d->info.m != d->m || d->info.n != d->n)
        return cli_fail("%s: the image is of another set than --params", d->image);
    /* the programmer's flash as it was (the EEPROM came with the state) */
    if (d->st.programmed && avrsim_flash_keys(d->s, d->st.sk, d->skb, d->st.pk, d->pkb,
                                              d->st.pin, err, sizeof err) != AVRSIM_OK)
        return cli_fail("%s", err);
    return ST_OK;
}

static int run_subcommands(device *d)
{
    int status = ST_OK;
    while (d->i < d->argc && status == ST_OK) {
        const char *w = d->argv[d->i++];
        size_t k = 0;
        while (k < sizeof subcommands / sizeof *subcommands && strcmp(w, subcommands[k].name))
            k++;
        if (k == sizeof subcommands / sizeof *subcommands)
            return cli_usage("unknown subcommand '%s'", w);
        status = subcommands[k].fn(d);
    }
    return status;
}

int main(int argc, char **argv)
{
    device d;
    memset(&d, 0, sizeof d);
    d.st.fd = -1;
    devcli_opts o = {.dir = getenv("TTS_AVR_DIR")};
    cli_prog = "tts-avr";
    int i = devcli_parse(argc, argv, &o, NULL);
    if (i < 0)
        return ST_ERROR;
    if (o.help || o.version) {
        if (o.help)
            usage(stdout);
        else
            printf("tts-avr (libtts) %s\n%s\n", tts_version(), TTS_BROKEN_NOTE);
        return ST_OK;
    }
    const char *params = o.params ? o.params : "TTS(20,28)", *image = o.image;
    const char *dir = o.dir ? o.dir : AVR_IMAGE_DIR;
    d.report = o.report, d.force = o.force, d.armor = o.armor, d.raw = o.raw;
    d.state = o.eeprom, d.pinfile = o.pin;
    if (i >= argc)
        return cli_usage("no subcommand given");
    if (!avrsim_available())
        return cli_fail("this build has no AVR simulator (configure found no libsimavr)");
    if (sodium_init() < 0)
        return cli_fail("libsodium failed to initialise");
    if (!(d.p = tts_params_get(params)))
        return cli_fail("unknown parameter set: %s", params);
    if (!strcmp(argv[i], "report")) {
        if (i + 1 != argc)
            return cli_usage("report takes no arguments: '%s'", argv[i + 1]);
        return run_report(dir, o.params ? d.p : NULL);
    }

    char ibuf[4096];
    snprintf(ibuf, sizeof ibuf, "%s/%s.elf", dir, tts_params_id(d.p));
    d.image = image ? image : ibuf;
    d.skb = tts_sk_bytes(d.p);
    d.pkb = tts_pk_bytes(d.p);
    d.m = tts_params_m(d.p);
    d.n = tts_params_n(d.p);
    d.argc = argc;
    d.argv = argv;
    d.i = i;
    int status = device_open(&d, dir, image != NULL);
    if (status == ST_OK)
        status = run_subcommands(&d);
    /* the one exit of a session: the key wiped whatever happened */
    avrsim_close(d.s);
    avr_state_close(&d.st);
    return status;
}
