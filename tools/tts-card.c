/* SPDX-License-Identifier: MIT */
/*
 * tts-card: drive a libtts 8051 card image in the ucsim simulator.
 *
 *   tts-card [options] SUBCOMMAND [args] [SUBCOMMAND [args] ...]
 *   tts-card [options] report
 *
 * All subcommands of one invocation run in order on one card session (one
 * s51 run over one request file ending with HALT). Exit status: 0 success,
 * 1 the card answered a status word other than 9000 (or a cross-check with
 * the host library failed), 2 usage or input error (or no simulator).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <sodium.h>
#include <tts.h>

#include "card_report.h"
#include "cardbind.h"
#include "cardsim.h"
#include "cardstate.h"
#include "cli.h"
#include "fileio.h"
#include "ttsfile.h"

/* Messages to sign may be larger than key files. */
#define MESSAGE_MAX_BYTES ((size_t)1 << 30)

#ifndef CARD_IMAGE_DIR
#define CARD_IMAGE_DIR "8051"
#endif

static void usage(FILE *f)
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

static void die_input(const char *msg, const char *arg)
{
    fprintf(stderr, "tts-card: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    exit(2);
}

/* The whole of path (at most cap bytes; TTSFILE_PRIVATE: refuse files
 * group or others may access); exits 2 with the reason on failure. */
static uint8_t *read_file(const char *path, size_t cap, unsigned flags, size_t *len)
{
    uint8_t *b = NULL;
    char err[512];
    if (ttsfile_read_raw(path, cap, flags, &b, len, err, sizeof err) != TTSFILE_OK)
        die_input(err, NULL);
    return b;
}

/* Exactly want bytes from FILE: raw bytes of that length, or hex text.
 * Secret inputs (flags TTSFILE_PRIVATE) must not be readable by others;
 * the buffer read is wiped. */
static void read_exact(const char *path, uint8_t *out, size_t want, const char *what,
                       unsigned flags)
{
    size_t len;
    uint8_t *b = read_file(path, TTSFILE_MAX_BYTES, flags, &len);
    if (len == want) {
        memcpy(out, b, want);
    } else {
        long n = cli_hex((const char *)b, len, out, want);
        if (n != (long)want) {
            tts_file_free(b, len);
            fprintf(stderr, "tts-card: %s: need %zu bytes (raw or hex) for %s\n",
                    path, want, what);
            exit(2);
        }
    }
    tts_file_free(b, len);
}

/* A key of kind TTS_FILE_SECRET_KEY or TTS_FILE_PUBLIC_KEY for set p: a
 * tts file (binary or armored, as `tts keygen` writes it; returns 1: a
 * secret key's file binds it to its public key), or the raw key bytes, or
 * their hex (returns 0: nothing binds them). Secret keys: private files. */
static int read_key(const char *path, const tts_params *p, int kind, uint8_t *out)
{
    int secret = kind == TTS_FILE_SECRET_KEY;
    size_t len, plen, want = tts_file_payload_bytes(p, kind);
    unsigned flags = secret ? TTSFILE_PRIVATE : 0;
    const tts_params *fp;
    uint8_t *b = read_file(path, TTSFILE_MAX_BYTES, flags, &len), *pay;
    char err[256];
    /* a raw key has exactly want bytes (a tts file has a header more) */
    if (len != want && len > 3 &&
        (memcmp(b, "TTS", 3) == 0 || memcmp(b, "-----BEGIN ", len < 11 ? len : 11) == 0)) {
        int rc = tts_file_decode(b, len, kind, 0, &fp, &pay, &plen, err, sizeof err);
        tts_file_free(b, len);
        if (rc != TTS_OK) {
            fprintf(stderr, "tts-card: %s: %s\n", path, err);
            exit(2);
        }
        if (fp != p) {
            tts_file_free(pay, plen);
            fprintf(stderr, "tts-card: %s: a %s key, but the card is %s\n", path,
                    tts_params_name(fp), tts_params_name(p));
            exit(2);
        }
        memcpy(out, pay, want);
        tts_file_free(pay, plen);
        return 1;
    }
    tts_file_free(b, len);
    read_exact(path, out, want, secret ? "a secret key" : "a public key", flags);
    return 0;
}

/* --force: an existing output may be replaced (never an input). */
static unsigned out_force;

/* Write path whole under the tools' file rules (tools/fileio.h: a
 * temporary beside it, then a rename; a symbolic link is replaced, never
 * followed; an existing file only with --force); fileio flags in secret
 * (the EEPROM file: FILEIO_SECRET, replaced in place). Exits 2 with the
 * reason on failure. */
static void write_file_mode(const char *path, const uint8_t *b, size_t len, unsigned secret)
{
    char err[512];
    if (fileio_write(path, b, len, out_force | secret, err, sizeof err) != FILEIO_OK) {
        fprintf(stderr, "tts-card: cannot write %s\n", err);
        exit(2);
    }
}

/* --armor / --raw: the form of the key and signature outputs. */
static unsigned out_armor;
static int out_raw;

/* A public key or signature (kind TTS_FILE_*) of set p to path: a tts file
 * (docs/SPEC.md section 11), armored with --armor, or the bare bytes with
 * --raw. Exits 2 with the reason on failure. */
static void write_object(const char *path, int kind, const tts_params *p, const uint8_t *b)
{
    char err[512];
    if (out_raw) {
        write_file_mode(path, b, tts_file_payload_bytes(p, kind), 0);
        return;
    }
    if (ttsfile_write(path, kind, p, b, out_armor | (out_force ? TTSFILE_FORCE : 0), err,
                      sizeof err) != TTSFILE_OK) {
        fprintf(stderr, "tts-card: cannot write %s\n", err);
        exit(2);
    }
}

/* An output that names one of the inputs would destroy it; one that
 * exists is replaced only with --force. Checked again, once every input is
 * read, before the card runs (claim_outputs). */
static void check_output(const char *out, const char *image, const char *eeprom)
{
    char err[512];
    int rc = fileio_check_output(out, out_force, err, sizeof err);
    if (rc == FILEIO_EXISTS)
        die_input(err, "use --force to overwrite");
    if (rc != FILEIO_OK)
        die_input(err, NULL);
    if (fileio_same_file(out, image) || (eeprom && fileio_same_file(out, eeprom)))
        die_input("the output is one of the inputs (the image or the EEPROM file)", out);
}

/* card_image_ok or exit 2; returns whether the image has GET PROFILE */
static int check_image(const char *image, const char *cpu, double mhz, int uart,
                       const tts_params *p)
{
    char why[1024];
    int prof = 0;
    if (!card_image_ok(image, cpu, mhz, uart, p, why, sizeof why, &prof)) {
        fprintf(stderr, "tts-card: %s\n", why);
        exit(2);
    }
    return prof;
}

static void print_hex(FILE *f, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02X", b[i]);
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
 * cap bytes without its line end; NUL bytes are kept (and refused later
 * where the PIN is set: no terminal can type one). */
static size_t read_pin_line(char *line, size_t cap)
{
    struct termios t1;
    int tty = isatty(0) && tcgetattr(0, &pin_tty) == 0;
    if (tty) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = pin_signal;
        sigemptyset(&sa.sa_mask);
        for (int k = 0; k < 3; k++)
            sigaction(pin_sigs[k], &sa, &pin_old[k]);
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

/* The PIN: the bytes of a private file (a final newline dropped), or with
 * "-" a line typed on the terminal without echo (or read from a pipe). */
static size_t read_pin(const char *path, uint8_t pin[16])
{
    char line[64];
    size_t len = 0;
    if (!strcmp(path, "-")) {
        len = read_pin_line(line, 16);
    } else {
        size_t flen;
        uint8_t *b = read_file(path, TTSFILE_MAX_BYTES, TTSFILE_PRIVATE, &flen);
        len = flen;
        if (len && b[len - 1] == '\n')
            len--;
        if (len && b[len - 1] == '\r')
            len--;
        if (len <= 16)
            memcpy(line, b, len);
        tts_file_free(b, flen);
    }
    if (len < 4 || len > 16) {
        sodium_memzero(line, sizeof line);
        die_input("the PIN must have 4 to 16 bytes", path);
    }
    memcpy(pin, line, len);
    sodium_memzero(line, sizeof line);
    return len;
}

/* A PIN to be set on the card: one a terminal can type (no NUL byte), so
 * that `--pin -` can give it later. */
static void check_new_pin(const uint8_t *pin, size_t len)
{
    if (memchr(pin, 0, len))
        die_input("the PIN holds a NUL byte, which no terminal can type: refused as a new PIN",
                  NULL);
}

/* The --eeprom file, held by this session (released at exit, whatever the
 * path to it), and where the report goes (standard error when an object
 * is written to standard output). */
static card_store store = {.fd = -1};
static FILE *rep;

static void release_store(void)
{
    card_store_close(&store);
}

/* The public key of the key the host knows the card holds, if the library
 * accepts that key (a key it refuses has no public key to check against:
 * the card's signatures under it are withheld). */
static int host_key(const tts_params *p, const uint8_t *sk, uint8_t *pk)
{
    return tts_sk_check(p, sk) == TTS_OK && tts_pk_from_sk(p, pk, sk) == TTS_OK;
}

/* ---- subcommands ---- */
enum { SC_INFO, SC_GENKEY, SC_EXPORT, SC_PUT, SC_SIGN, SC_CYCLES, SC_APDU, SC_VERIFY, SC_COUNTER };
typedef struct {
    int kind;
    const char *name;
    size_t first, count;  /* commands in the batch */
    size_t prof;          /* index of the first GET PROFILE (report), or -1 */
    const char *out;      /* -o */
    uint8_t seed[32];
    uint8_t digest[TTS_MAX_M];
    size_t ctr_at;        /* sign: the GET COUNTER before SIGN */
    uint8_t *key;         /* put-key */
} subcmd;

/* The subcommand list (cap entries, nsc used): put-key's copies of the
 * secret key wiped, then the list. */
static void subcmds_free(subcmd *sc, size_t nsc, size_t cap, size_t skb)
{
    for (size_t k = 0; k < nsc; k++)
        if (sc[k].key)
            tts_file_free(sc[k].key, skb);
    sodium_memzero(sc, cap * sizeof *sc);
    free(sc);
}

int main(int argc, char **argv)
{
    const char *params = "TTS(20,28)", *image = NULL, *cpu = "8032", *eeprom = NULL;
    const char *dir = getenv("TTS_CARD_DIR"), *pinfile = NULL;
    double mhz = 3.57;
    int report = 0, uart = 0, verbose = 0, i = 1, params_given = 0, cpu_given = 0;
    int to_stdout = 0; /* objects written to standard output (-o -) */
    unsigned long long cut = 0;
    unsigned watch = 0;
    int watch_hits = 0, watch_read = 0;
    uint8_t pin[16];
    size_t pinlen = 0;
    if (!dir)
        dir = CARD_IMAGE_DIR;

    const char *o_params = NULL, *o_cpu = NULL, *o_watch = NULL, *o_cut = NULL, *o_mhz = NULL;
    int o_help = 0, o_version = 0, o_force = 0, o_armor = 0;
    const cli_opt opts[] = {
        {"help", 'h', NULL, &o_help},     {"version", 0, NULL, &o_version},
        {"report", 0, NULL, &report},     {"uart", 0, NULL, &uart},
        {"verbose", 'v', NULL, &verbose}, {"force", 0, NULL, &o_force},
        {"armor", 0, NULL, &o_armor},     {"raw", 0, NULL, &out_raw},
        {"params", 0, &o_params, NULL},   {"image", 0, &image, NULL},
        {"image-dir", 0, &dir, NULL},     {"cpu", 0, &o_cpu, NULL},
        {"eeprom", 0, &eeprom, NULL},     {"pin", 0, &pinfile, NULL},
        {"watch", 0, &o_watch, NULL},     {"cut", 0, &o_cut, NULL},
        {"mhz", 0, &o_mhz, NULL},         CLI_OPT_END};
    cli_prog = "tts-card";
    atexit(release_store);
    if ((i = cli_parse_head(argc, argv, opts)) < 0)
        return 2;
    if (o_help) { usage(stdout); return 0; }
    if (o_version) { printf("tts-card (libtts) %s\n%s\n", tts_version(), TTS_BROKEN_NOTE); return 0; }
    out_force = o_force ? FILEIO_FORCE : 0;
    out_armor = o_armor ? TTS_FILE_ARMOR : 0;
    if (o_params) { params = o_params; params_given = 1; }
    if (o_cpu) { cpu = o_cpu; cpu_given = 1; }
    if (o_watch) {
        char *e;
        unsigned long a = strtoul(o_watch, &e, 0), k = *e == ':' ? strtoul(e + 1, &e, 10) : 0;
        watch_read = !strcmp(e, ":r");
        if ((*e && !watch_read) || a >= CARD_XRAM_BYTES || k < 1 || k > 8)
            die_input("bad --watch", o_watch);
        watch = (unsigned)a + 1;
        watch_hits = (int)k;
    }
    if (o_cut) {
        char *e;
        errno = 0;
        cut = strtoull(o_cut, &e, 10);
        /* (strtoull takes "-5" as a huge count: digits only) */
        if (*e || !cut || o_cut[0] < '0' || o_cut[0] > '9' || errno == ERANGE)
            die_input("bad --cut (a count of instructions, 1 or more)", o_cut);
    }
    if (o_mhz) {
        char *e;
        mhz = strtod(o_mhz, &e);
        if (*e || !(mhz > 0.001 && mhz < 1000)) die_input("bad --mhz", o_mhz);
    }
    if (i >= argc) {
        fprintf(stderr, "tts-card: no subcommand given\ntts-card: see 'tts-card --help'\n");
        return 2;
    }
    if (out_armor && out_raw)
        die_input("--armor and --raw exclude each other", NULL);
    if (eeprom && !strcmp(eeprom, "-"))
        die_input("--eeprom needs a file: the card's state is secret and is read back "
                  "next time, not a stream", eeprom);
    if (strcmp(cpu, "8032") && strcmp(cpu, "DS320") && strcmp(cpu, "8051"))
        die_input("--cpu must be 8032, DS320 or 8051", cpu);
    if (sodium_init() < 0)
        die_input("libsodium failed to initialise", NULL);
    if (!strcmp(argv[i], "report")) {
        if (i + 1 != argc) {
            fprintf(stderr, "tts-card: report takes no arguments (give --params and --cpu "
                            "before it): '%s'\ntts-card: see 'tts-card --help'\n", argv[i + 1]);
            return 2;
        }
        const tts_params *only = NULL;
        if (params_given && !(only = tts_params_get(params)))
            die_input("unknown parameter set", params);
        return card_report_all(dir, mhz, verbose, only, cpu_given ? cpu : NULL);
    }
    const tts_params *p = tts_params_get(params);
    if (!p)
        die_input("unknown parameter set", params);
    const unsigned m = tts_params_m(p), n = tts_params_n(p);
    const size_t skb = tts_sk_bytes(p), pkb = tts_pk_bytes(p);
    const unsigned segk = 255 / m;
    const size_t nmono = pkb / m, nseg = (nmono + segk - 1) / segk;
    char ibuf[4096];
    const int o_image = image != NULL;
    if (!image) {
        image = card_image_path(dir, p, ibuf, sizeof ibuf);
        if (!strcmp(cpu, "8051")) /* the 128-byte family */
            snprintf(ibuf, sizeof ibuf, "%s/%s-128.ihx", dir, tts_params_id(p));
    }
    struct stat st;
    if (stat(image, &st) != 0)
    {
        /* run from the build tree, the images are in 8051/, not installed */
        if (!o_image && !getenv("TTS_CARD_DIR") && strcmp(dir, "8051") != 0 &&
            stat("8051/tts-20-28.ihx", &st) == 0)
            fprintf(stderr, "tts-card: no card image %s; in the build tree, pass "
                    "--image-dir 8051\n", image);
        else
            fprintf(stderr, "tts-card: no card image: %s\n", image);
        exit(2);
    }
    /* the documented refusal first: a larger image would only time out */
    if (!strcmp(cpu, "8051")) {
        long iram = card_image_iram(image, NULL, NULL);
        if (iram < 0 || iram > 128)
            die_input("--cpu 8051 needs an image whose internal RAM fits 128 bytes", image);
    }
    const int prof_ok = check_image(image, cpu, mhz, uart, p);

    if (pinfile)
        pinlen = read_pin(pinfile, pin);
    card_state cs;
    uint8_t *xram = malloc(CARD_XRAM_BYTES);
    card_state hs; /* the state before the subcommands, for the cross-checks */
    if (!xram || card_state_init(&cs, p) != 0 || card_state_init(&hs, p) != 0)
        die_input("out of memory", NULL);
    /* the state file: locked from here until the new state is stored */
    int restored = 0;
    if (eeprom) {
        char err[512] = "";
        if (card_store_open(&store, eeprom, &cs, xram, &restored, err, sizeof err) != 0)
            die_input(err, NULL);
        card_state_copy(&hs, &cs);
    }
    card_batch b;
    card_init(&b, image, cpu, mhz);
    b.uart = uart;
    b.verbose = verbose;
    b.cut = cut;
    b.watch = watch;
    b.watch_hits = watch_hits;
    b.watch_read = watch_read;
    b.xram_in = restored ? xram : NULL;
    b.xram_out = eeprom ? xram : NULL;
    /* a key install cut before its answer in a past session: its public
     * key's first segment tells which key the card holds (the ROM images
     * answer 6D00: their first signature tells) */
    size_t probe = cs.pending ? card_add(&b, CARD_GET_PK_SEGMENT, 0, 0, NULL, 0) : (size_t)-1;

    /* parse the subcommands into the batch */
    subcmd *sc = calloc((size_t)argc, sizeof *sc);
    size_t nsc = 0;
    if (!sc)
        die_input("out of memory", NULL);
    while (i < argc) {
        subcmd *s = &sc[nsc];
        s->name = argv[i];
        s->prof = (size_t)-1;
        const char *w = argv[i++];
        s->first = b.ncmd;
        if (!strcmp(w, "info")) {
            s->kind = SC_INFO;
            card_add(&b, CARD_GET_INFO, 0, 0, NULL, 0);
        } else if (!strcmp(w, "genkey")) {
            s->kind = SC_GENKEY;
            if (i + 1 >= argc || strcmp(argv[i], "--seed")) die_input("genkey needs --seed FILE", NULL);
            read_exact(argv[i + 1], s->seed, 32, "a seed", TTSFILE_PRIVATE);
            i += 2;
            if (!pinlen) die_input("genkey needs --pin (the PIN of the new key)", NULL);
            check_new_pin(pin, pinlen);
            card_add(&b, CARD_SET_PIN, 0, 0, pin, (uint8_t)pinlen);
            card_add(&b, CARD_GENERATE_KEY, 0, 0, s->seed, 32);
        } else if (!strcmp(w, "export-pk")) {
            s->kind = SC_EXPORT;
            if (i + 1 >= argc || strcmp(argv[i], "-o")) die_input("export-pk needs -o FILE", NULL);
            s->out = argv[i + 1];
            check_output(s->out, image, eeprom);
            to_stdout += !strcmp(s->out, "-");
            i += 2;
            for (size_t g = 0; g < nseg; g++) {
                card_add(&b, CARD_GET_PK_SEGMENT, (uint8_t)(g >> 8), (uint8_t)g, NULL, 0);
                if (report)
                    card_add(&b, CARD_GET_CYCLES, 0, 0, NULL, 0);
            }
        } else if (!strcmp(w, "put-key")) {
            s->kind = SC_PUT;
            const char *keyfile = NULL, *pkfile = NULL;
            for (int k = 0; k < 2 && i < argc; k++) {
                if (!strcmp(argv[i], "--pk")) {
                    if (i + 1 >= argc || pkfile) die_input("put-key takes one --pk FILE", NULL);
                    pkfile = argv[i + 1];
                    i += 2;
                } else if (!keyfile) {
                    keyfile = argv[i++];
                }
            }
            if (!keyfile) die_input("put-key needs FILE", NULL);
            s->key = malloc(skb);
            uint8_t *own = malloc(pkb), *meant = pkfile ? malloc(pkb) : NULL;
            if (!s->key || !own || (pkfile && !meant))
                die_input("out of memory", NULL);
            int bound = read_key(keyfile, p, TTS_FILE_SECRET_KEY, s->key);
            /* as tts sign does: a key the library refuses never reaches a
             * card (the ROM image without COMMIT's check would take it) */
            if (tts_sk_check(p, s->key) != TTS_OK)
                die_input("not a valid secret key (the library's key check refuses it); "
                          "nothing sent to the card", keyfile);
            /* the check points bind the install to the public key meant:
             * --pk's, or the one a tts key file is bound to; raw bytes
             * carry no binding (a changed S1 passes the key check) */
            if (!bound && !pkfile)
                die_input("a raw or hex secret key is bound to no public key (a changed byte "
                          "of S1 goes unnoticed): give the public key it must have with --pk "
                          "FILE; nothing sent to the card", keyfile);
            if (tts_pk_from_sk(p, own, s->key) != TTS_OK)
                die_input("the library cannot compute the key's public key", keyfile);
            if (pkfile) {
                read_key(pkfile, p, TTS_FILE_PUBLIC_KEY, meant);
                if (memcmp(own, meant, pkb) != 0)
                    die_input("the secret key's public key differs from --pk's (a corrupted "
                              "or another key): nothing sent to the card", keyfile);
            }
            free(meant);
            if (!pinlen) die_input("put-key needs --pin (the PIN of the new key)", NULL);
            check_new_pin(pin, pinlen);
            card_add(&b, CARD_SET_PIN, 0, 0, pin, (uint8_t)pinlen);
            for (size_t off = 0; off < skb; off += 255) {
                size_t len = skb - off < 255 ? skb - off : 255;
                card_add(&b, CARD_PUT_KEY, (uint8_t)(off >> 8), (uint8_t)off, s->key + off, (uint8_t)len);
                if (report)
                    card_add(&b, CARD_GET_CYCLES, 0, 0, NULL, 0);
            }
            /* the check points bind the install to the public key meant */
            size_t ci = card_add_commit_pk(&b, p, s->key, own);
            free(own);
            if (ci == (size_t)-1)
                die_input("the library cannot make the key's check points", keyfile);
        } else if (!strcmp(w, "sign")) {
            s->kind = SC_SIGN;
            int have_digest = 0;
            const char *msgfile = NULL;
            while (i + 1 < argc && (!strcmp(argv[i], "--digest") || !strcmp(argv[i], "--digest-file") ||
                                    !strcmp(argv[i], "--message") || !strcmp(argv[i], "-o"))) {
                const char *o = argv[i], *val = argv[i + 1];
                i += 2;
                if (!strcmp(o, "-o")) {
                    s->out = val;
                    check_output(val, image, eeprom);
                    to_stdout += !strcmp(val, "-");
                } else if (!strcmp(o, "--message")) {
                    msgfile = val;
                } else if (have_digest++) {
                    die_input("sign takes one --digest or --digest-file", val);
                } else if (!strcmp(o, "--digest-file")) {
                    read_exact(val, s->digest, m, "a digest", 0);
                } else if (cli_hex(val, strlen(val), s->digest, m) != (long)m) {
                    /* always hex: a file of that name is never read */
                    fprintf(stderr, "tts-card: --digest needs %u bytes of hex (%u digits); "
                            "a digest in a file: --digest-file FILE\n", m, 2 * m);
                    exit(2);
                }
            }
            if (have_digest && msgfile)
                die_input("sign: give --digest, --digest-file or --message, not two", msgfile);
            if (!have_digest) {
                size_t ml = 0;
                uint8_t *msg = msgfile ? read_file(msgfile, MESSAGE_MAX_BYTES, 0, &ml) : NULL;
                tts_digest(p, s->digest, msg ? msg : (const uint8_t *)"", ml);
                tts_file_free(msg, ml);
            }
            if (pinlen)
                card_add_verify(&b, pin, pinlen);
            s->ctr_at = card_add(&b, CARD_GET_COUNTER, 0, 0, NULL, 0);
            card_add(&b, CARD_SIGN, 0, 0, s->digest, (uint8_t)m);
        } else if (!strcmp(w, "verify")) {
            s->kind = SC_VERIFY;
            if (!pinlen) die_input("verify needs --pin", NULL);
            card_add_verify(&b, pin, pinlen);
        } else if (!strcmp(w, "counter")) {
            s->kind = SC_COUNTER;
            card_add(&b, CARD_GET_COUNTER, 0, 0, NULL, 0);
        } else if (!strcmp(w, "cycles")) {
            s->kind = SC_CYCLES;
            card_add(&b, CARD_GET_CYCLES, 0, 0, NULL, 0);
        } else if (!strcmp(w, "apdu")) {
            s->kind = SC_APDU;
            if (i >= argc) die_input("apdu needs HEX", NULL);
            uint8_t raw[300];
            long len = cli_hex(argv[i], strlen(argv[i]), raw, sizeof raw);
            if (len < 6 || len != 6 + raw[4])
                die_input("apdu: need CLA INS P1 P2 Lc data[Lc] Le (6 + Lc bytes of hex)", argv[i]);
            i++;
            card_add_raw(&b, raw, (int)len);
        } else {
            fprintf(stderr, "tts-card: unknown subcommand %s\n", w);
            usage(stderr);
            exit(2);
        }
        s->count = b.ncmd - s->first;
        if (report && s->kind != SC_CYCLES) {
            s->prof = b.ncmd;
            card_add(&b, prof_ok ? CARD_GET_PROFILE : CARD_GET_CYCLES, 0, 0, NULL, 0);
        }
        nsc++;
    }

    /* every input is read: no output may be one, nor be named twice (the
     * EEPROM file is the card's state, an output of its own) */
    fileio_note_input(image);
    for (size_t k = 0; k <= nsc; k++) {
        const char *out = k < nsc ? sc[k].out : eeprom;
        char err[512];
        if (out && fileio_claim_output(out, k < nsc ? out_force : FILEIO_FORCE | FILEIO_INPLACE,
                                       err, sizeof err) != FILEIO_OK)
            die_input(err, NULL);
    }
    /* an object on standard output: the report goes to standard error,
     * and binary never to a terminal */
    if (to_stdout > 1)
        die_input("one output at most may be standard output (-o -)", NULL);
    if (to_stdout && !out_armor && isatty(STDOUT_FILENO))
        die_input("refusing to write binary data to a terminal; use -o FILE or --armor", NULL);
    rep = to_stdout ? stderr : stdout;
    if (card_run(&b) != 0)
        exit(2); /* card_run said why */
    const int settled = card_state_settle(&cs, &b, probe);
    card_state_resolve(&hs, settled);
    for (size_t k = 0; k < b.ncmd && k < b.nresp; k++)
        card_state_track(&cs, &b.cmd[k], &b.resp[k]);
    if (cut && b.nresp < b.ncmd) /* the command the cut stopped */
        card_state_cut(&cs, &b.cmd[b.nresp]);
    /* nothing leaves the session (no answer printed, no file, no exit 0)
     * before the card's new state is stored: a failed save is a failed
     * session, or a wrong PIN would be answered again and a counter reused */
    if (eeprom) {
        char err[512] = "";
        if (card_store_save(&store, &cs, xram, err, sizeof err) != 0) {
            fprintf(stderr, "tts-card: cannot store the card's state, the session failed and "
                            "its answers are withheld: %s\n", err);
            exit(2);
        }
        card_store_close(&store);
    }
    int status = settled == -1;
    if (settled)
        fprintf(settled == -1 ? stderr : rep, "%ssettle: the key install cut before its answer "
                "in a past session %s\n", settled == -1 ? "tts-card: " : "",
                settled == 1   ? "did not take: the card holds its old key"
                : settled == 2 ? "took: the card holds the new key"
                : settled == 3 ? "is not settled yet: no public key read, no signature (the "
                                 "next segment or signature settles it)"
                               : "matches neither key: the host knows no key of this card");
    for (int h = 0; h < watch_hits; h++)
        fprintf(rep, "watch: %s %d %s 0x%04X after %llu instructions\n",
                watch_read ? "read" : "write", h + 1, watch_read ? "of" : "to", watch - 1,
                b.watch_at[h]);
    if (watch || cut)
        fprintf(rep, "instructions: %llu\n", b.insts);
    if (cut) { /* a power cut: the state as it was left, no answer checked */
        fprintf(rep, "cut: after %llu instructions, %zu of %zu commands answered\n", cut,
                b.nresp, b.ncmd);
        if (eeprom && cs.pending)
            fprintf(rep, "cut: a key install before its answer: whether its key took is "
                    "settled at the next session on this state file\n");
        sodium_memzero(pin, sizeof pin);
        tts_file_free(xram, CARD_XRAM_BYTES);
        subcmds_free(sc, nsc, (size_t)argc, skb);
        card_state_free(&hs);
        card_state_free(&cs);
        card_free(&b);
        return 0;
    }

    /* host view of the active key, for the cross-checks */
    uint8_t *hsk = malloc(skb), *hpk = malloc(pkb);
    int hkey = 0;
    if (!hsk || !hpk)
        die_input("out of memory", NULL);
    size_t k0 = 0;
    if (hs.active) {
        memcpy(hsk, hs.sk, skb);
        hkey = host_key(p, hsk, hpk);
    }
    int cpc = card_clocks_per_cycle(cpu);
    for (size_t s = 0; s < nsc; s++) {
        subcmd *c = &sc[s];
        /* the host's key view advances command by command */
        card_resp *r = &b.resp[c->kind == SC_SIGN ? c->first + c->count - 1 : c->first];
        int bad = 0;
        for (size_t k = c->first; k < c->first + c->count; k++)
            if (b.resp[k].sw != CARD_SW_OK && c->kind != SC_APDU) {
                if (!bad)
                    fprintf(stderr, "tts-card: %s: card status %04X (%s)\n", c->name,
                            b.resp[k].sw, card_sw_name(b.resp[k].sw));
                bad = 1;
            }
        /* an answer of the wrong length is refused, whatever its status */
        for (size_t k = c->first; !bad && k <= c->first + c->count; k++) {
            size_t kk = k < c->first + c->count ? k : c->prof;
            if (kk == (size_t)-1 || b.cmd[kk].raw_len >= 0 || b.resp[kk].sw != CARD_SW_OK)
                continue;
            int want = card_answer_len(&b.cmd[kk], m, n);
            if (want >= 0 && b.resp[kk].len != want) {
                fprintf(stderr, "tts-card: %s: the card answered %u bytes to INS %02X, "
                        "expected %d\n", c->name, b.resp[kk].len, b.cmd[kk].ins, want);
                bad = 1;
            }
        }
        for (size_t k = k0; k < c->first + c->count; k++)
            card_state_track(&hs, &b.cmd[k], &b.resp[k]);
        k0 = c->first + c->count;
        if (hs.active && memcmp(hs.sk, hsk, skb) != 0 ? 1 : (hs.active && !hkey)) {
            memcpy(hsk, hs.sk, skb);
            hkey = host_key(p, hsk, hpk);
        }
        if (bad) {
            status = 1;
        } else if (c->kind == SC_INFO) {
            fprintf(rep, "info: %s m=%u n=%u v=%u a=%u b=%u format=%u segment=%u\n",
                   tts_params_name(p), r->data[0], r->data[1], r->data[2],
                   r->data[3], r->data[4], r->data[5], r->data[6]);
            if (r->len != 7 || r->data[0] != m || r->data[1] != n) {
                fprintf(stderr, "tts-card: the image is not %s\n", tts_params_name(p));
                status = 1;
            }
        } else if (c->kind == SC_GENKEY) {
            fprintf(rep, "genkey: ok\n");
        } else if (c->kind == SC_EXPORT) {
            uint8_t *pk = malloc(pkb);
            size_t got = 0;
            if (!pk)
                die_input("out of memory", NULL);
            for (size_t k = c->first; k < c->first + c->count; k++) {
                if (b.cmd[k].ins != CARD_GET_PK_SEGMENT)
                    continue;
                size_t want = pkb - got < (size_t)segk * m ? pkb - got : (size_t)segk * m;
                if (b.resp[k].len != want) {
                    fprintf(stderr, "tts-card: segment %zu: %u bytes, expected %zu\n",
                            (k - c->first), b.resp[k].len, want);
                    status = 1;
                    break;
                }
                memcpy(pk + got, b.resp[k].data, want);
                got += want;
            }
            if (got == pkb) {
                /* a key that differs from the host's is reported, not written */
                int same = !hkey || memcmp(pk, hpk, pkb) == 0;
                if (same)
                    write_object(c->out, TTS_FILE_PUBLIC_KEY, p, pk);
                fprintf(rep, "export-pk: %zu bytes %s %s%s\n", pkb, same ? "to" : "NOT written to",
                        fileio_display(c->out),
                        !hkey ? "" : same ? " (equals the host's public key)"
                                          : " (DIFFERS FROM the host's public key)");
                if (!same)
                    status = 1;
            }
            free(pk);
        } else if (c->kind == SC_PUT) {
            fprintf(rep, "put-key: committed\n");
        } else if (c->kind == SC_SIGN) {
            /* every signature the card returns is verified under the public
             * key of the key the host knows it holds, before it is shown or
             * written: a faulty key's signatures leak that key */
            uint32_t ctr = card_be32(b.resp[c->ctr_at].data);
            fprintf(rep, "counter: %u\n", ctr);
            if (!hkey) {
                fprintf(stderr, "tts-card: sign: the host knows no valid key of this card to "
                        "verify its signature with: withheld\n");
                status = 1;
            } else {
                uint8_t hsig[TTS_MAX_N], key[32];
                tts_stream rng;
                tts_card_stream_key(p, key, hsk, ctr, c->digest);
                tts_stream_init(&rng, key);
                sodium_memzero(key, sizeof key);
                int rc = tts_sign_digest(p, hsig, c->digest, hsk, tts_stream_rng, &rng);
                int same = rc == TTS_OK && r->len == n && memcmp(hsig, r->data, n) == 0;
                unsigned calls = rng.calls; /* before the wipe */
                tts_stream_wipe(&rng);
                int ok = r->len == n && tts_verify_digest(p, r->data, c->digest, hpk) == TTS_OK;
                if (ok) {
                    fprintf(rep, "sig: ");
                    print_hex(rep, r->data, r->len);
                    fprintf(rep, "\n");
                    if (c->out)
                        write_object(c->out, TTS_FILE_SIGNATURE, p, r->data);
                } else {
                    fprintf(stderr, "tts-card: sign: the card's signature does not verify "
                            "under its key's public key: withheld%s\n",
                            c->out ? ", nothing written" : "");
                }
                fprintf(rep, "sign: %s the host's signature (%u attempt%s), %s\n",
                        same ? "equals" : "DIFFERS FROM", calls, calls == 1 ? "" : "s",
                        ok ? "verifies" : "DOES NOT VERIFY");
                if (!same || !ok)
                    status = 1;
            }
        } else if (c->kind == SC_CYCLES) {
            uint32_t cy = card_be32(r->data);
            fprintf(rep, "cycles: %u (%.2f ms at %g MHz, %s)\n", cy, card_ms_of(cy, 12, mhz), mhz,
                   cpc == 12 ? "12T" : "timer count; 4T cores: use --report");
        } else if (c->kind == SC_VERIFY) {
            fprintf(rep, "verify: ok\n");
        } else if (c->kind == SC_COUNTER) {
            fprintf(rep, "counter: %u\n", card_be32(r->data));
        } else if (c->kind == SC_APDU) {
            fprintf(rep, "apdu: %02X ", r->len);
            print_hex(rep, r->data, r->len);
            fprintf(rep, "%s%04X\n", r->len ? " " : "", r->sw);
            if (r->sw != CARD_SW_OK)
                status = 1;
            /* the raw channel prints what the card answered; a SIGN's
             * answer is then checked, and the verdict said */
            const card_apdu *a = &b.cmd[c->first];
            if (a->raw_len == 6 + (int)m && a->raw[0] == CARD_CLA && a->raw[1] == CARD_SIGN &&
                r->sw == CARD_SW_OK && r->len == n)
                fprintf(rep, "apdu-sign: %s\n", !hkey ? "unverified (the host knows no valid "
                        "key of this card)" : tts_verify_digest(p, r->data, a->raw + 5, hpk) ==
                        TTS_OK ? "verifies under the host's key of this card"
                               : "DOES NOT VERIFY under the host's key of this card");
        }
        if (c->prof != (size_t)-1 && !bad) {
            /* cycles: the GET CYCLES after each segment/PUT plus the final
             * GET PROFILE; on 4T cores the tick difference instead */
            unsigned long long cy = 0, ch = 0;
            for (size_t k = c->first; k < c->first + c->count; k++)
                if (b.cmd[k].ins == CARD_GET_CYCLES && b.cmd[k].raw_len < 0 && c->kind != SC_CYCLES)
                    cy += card_be32(b.resp[k].data);
            cy += card_be32(b.resp[c->prof].data);
            ch = prof_ok ? card_be32(b.resp[c->prof].data + 4) : 0;
            if (cpc == 12) {
                fprintf(rep, "report: %-9s %10llu cycles %10.2f ms", c->name, cy, card_ms_of(cy, 12, mhz));
                if (c->kind == SC_SIGN && prof_ok)
                    fprintf(rep, "  (ChaCha20 %llu cycles %.2f ms, core %llu cycles %.2f ms)", ch,
                           card_ms_of(ch, 12, mhz), cy - ch, card_ms_of(cy - ch, 12, mhz));
                else if (c->kind == SC_SIGN)
                    fprintf(rep, "  (ChaCha20 not counted apart: the image has no GET PROFILE)");
                fprintf(rep, "  [%s, %g MHz]\n", cpu, mhz);
            } else {
                unsigned long long t1 = card_ticks_prefix(&b, c->first + c->count);
                /* (sign: SIGN alone, not the VERIFY and GET COUNTER before it) */
                unsigned long long t0 = card_ticks_prefix(&b, c->first + c->count -
                                                              (c->kind == SC_SIGN ? 1 : c->count));
                unsigned long long d = t1 > t0 ? t1 - t0 : 0;
                fprintf(rep, "report: %-9s %10llu cycles %10.2f ms  [%s, %g MHz, from %llu simulated ticks]\n",
                       c->name, d / cpc, d / (mhz * 1000.0), cpu, mhz, d);
            }
        }
    }
    /* secrets: the key copies, put-key buffers, the PIN, the card's memory */
    sodium_memzero(pin, sizeof pin);
    tts_file_free(xram, CARD_XRAM_BYTES);
    subcmds_free(sc, nsc, (size_t)argc, skb);
    tts_file_free(hsk, skb);
    free(hpk);
    card_state_free(&hs);
    card_state_free(&cs);
    card_free(&b);
    return status;
}
