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
#include <termios.h>
#include <unistd.h>

#include <sodium.h>
#include <tts.h>

#include "cardsim.h"
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
"                    counter): loaded at start, saved at end\n"
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
"files: an output is never an input, never followed through a link, never\n"
"  replaces a file without --force, and a signal leaves nothing behind (the\n"
"  simulator killed, SIGKILL too; its request, which may hold the key and\n"
"  the PIN, is in no named file)\n"
"subcommands:\n"
"  info                          GET INFO\n"
"  genkey --seed FILE            SET PIN + GENERATE KEY from a 32-byte seed\n"
"  export-pk -o FILE             all GET PK SEGMENTs, assembled: the public key\n"
"  put-key FILE                  SET PIN + PUT KEY (whole secret key) + COMMIT KEY\n"
"  verify                        VERIFY the PIN\n"
"  sign [--digest HEX|FILE] [--message FILE] [-o FILE]\n"
"                                VERIFY (with --pin), GET COUNTER, SIGN an\n"
"                                m-byte digest (default: digest of the\n"
"                                message, or of the empty message)\n"
"  counter                       GET COUNTER (the next signature's counter)\n"
"  cycles                        GET CYCLES (cycles of the previous command)\n"
"  apdu HEX                      send raw bytes, print La data SW\n"
"  report                        the card tables for all sets and the image families,\n"
"                                and the memory budget of every image (--params\n"
"                                and --cpu narrow it; each image checked first)\n", f);
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

/* A secret key for set p: a tts secret-key file (binary or armored, as
 * `tts keygen` writes it), or the raw key bytes, or their hex. */
static void read_secret_key(const char *path, const tts_params *p, uint8_t *out)
{
    size_t len, plen, skb = tts_sk_bytes(p);
    const tts_params *fp;
    uint8_t *b = read_file(path, TTSFILE_MAX_BYTES, TTSFILE_PRIVATE, &len), *pay;
    char err[256];
    /* a raw key has exactly skb bytes (a tts file has a header more) */
    if (len != skb && len > 3 &&
        (memcmp(b, "TTS", 3) == 0 || memcmp(b, "-----BEGIN ", len < 11 ? len : 11) == 0)) {
        int rc = tts_file_decode(b, len, TTS_FILE_SECRET_KEY, 0, &fp, &pay, &plen, err, sizeof err);
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
        memcpy(out, pay, skb);
        tts_file_free(pay, plen);
        return;
    }
    tts_file_free(b, len);
    read_exact(path, out, skb, "a secret key", TTSFILE_PRIVATE);
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

/* The image: a regular file in Intel HEX with good checksums, and a card
 * of set p that answers GET INFO within seconds (a foreign or broken
 * image is refused before the real session, not after the timeout).
 * *prof (if given): whether it answers GET PROFILE (the 4 KB ROM image
 * does not: 6D00). */
static int image_ok(const char *image, const char *cpu, double mhz, int uart,
                    const tts_params *p, char *why, size_t whylen, int *prof)
{
    size_t len;
    uint8_t *b = NULL;
    char err[512];
    if (ttsfile_read_raw(image, TTSFILE_MAX_BYTES, 0, &b, &len, err, sizeof err) !=
        TTSFILE_OK) {
        snprintf(why, whylen, "%s", err);
        return 0;
    }
    int bad = card_check_ihex(b, len, err, sizeof err) != 0;
    tts_file_free(b, len);
    if (bad) {
        snprintf(why, whylen, "%s: not a card image (Intel HEX): %s", image, err);
        return 0;
    }
    card_batch pb;
    card_init(&pb, image, cpu, mhz);
    pb.uart = uart;
    /* CPU seconds (GET INFO on the UART image: about 8) */
    long limit = getenv("TTS_CARD_TIMEOUT") ? atol(getenv("TTS_CARD_TIMEOUT")) : uart ? 120 : 10;
    pb.timeout = limit = limit > 0 ? limit : 10;
    card_add(&pb, CARD_GET_INFO, 0, 0, NULL, 0);
    card_add(&pb, CARD_GET_PROFILE, 0, 0, NULL, 0);
    int ok = card_run(&pb) == 0 && pb.nresp >= 2 && pb.resp[0].sw == CARD_SW_OK &&
             pb.resp[0].len == 7 && pb.resp[0].data[0] == tts_params_m(p) &&
             pb.resp[0].data[1] == tts_params_n(p);
    if (prof)
        *prof = ok && pb.resp[1].sw == CARD_SW_OK && pb.resp[1].len == 8;
    card_free(&pb);
    if (!ok)
        snprintf(why, whylen, "%s: the image does not answer GET INFO as a %s card "
                 "within %ld s of CPU time", image, tts_params_name(p), limit);
    return ok;
}

/* image_ok or exit 2; returns whether the image has GET PROFILE */
static int check_image(const char *image, const char *cpu, double mhz, int uart,
                       const tts_params *p)
{
    char why[1024];
    int prof = 0;
    if (!image_ok(image, cpu, mhz, uart, p, why, sizeof why, &prof)) {
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

/* The PIN: the bytes of a private file (a final newline dropped), or with
 * "-" a line typed on the terminal without echo (or read from a pipe). */
static size_t read_pin(const char *path, uint8_t pin[16])
{
    char line[64];
    size_t len = 0;
    if (!strcmp(path, "-")) {
        struct termios t0, t1;
        int tty = isatty(0) && tcgetattr(0, &t0) == 0;
        if (tty) {
            fputs("PIN: ", stderr);
            t1 = t0;
            t1.c_lflag &= ~(tcflag_t)ECHO;
            tcsetattr(0, TCSAFLUSH, &t1);
        }
        if (!fgets(line, sizeof line, stdin))
            line[0] = 0;
        if (tty) {
            tcsetattr(0, TCSAFLUSH, &t0);
            fputs("\n", stderr);
        }
        len = strcspn(line, "\r\n");
    } else {
        uint8_t *b = read_file(path, TTSFILE_MAX_BYTES, TTSFILE_PRIVATE, &len);
        if (len && b[len - 1] == '\n')
            len--;
        if (len && b[len - 1] == '\r')
            len--;
        if (len <= 16)
            memcpy(line, b, len);
        tts_file_free(b, len);
    }
    if (len < 4 || len > 16) {
        sodium_memzero(line, sizeof line);
        die_input("the PIN must have 4 to 16 bytes", path);
    }
    memcpy(pin, line, len);
    sodium_memzero(line, sizeof line);
    return len;
}

/* ---- card state as the host sees it (for --eeprom and cross-checks) ---- */
typedef struct {
    const tts_params *p;
    size_t skb, pkb;
    int active;           /* the card holds a key */
    uint8_t *sk;          /* active key (raw), valid if active */
    uint8_t *stage;       /* PUT KEY bytes since the last GENERATE/COMMIT */
    uint8_t *written;     /* 1 per staged byte written */
} card_state;

static void state_init(card_state *s, const tts_params *p)
{
    s->p = p;
    s->skb = tts_sk_bytes(p);
    s->pkb = tts_pk_bytes(p);
    s->active = 0;
    s->sk = calloc(1, s->skb);
    s->stage = calloc(1, s->skb);
    s->written = calloc(1, s->skb);
    if (!s->sk || !s->stage || !s->written)
        die_input("out of memory", NULL);
}

static void state_free(card_state *s)
{
    tts_file_free(s->sk, s->skb);
    tts_file_free(s->stage, s->skb);
    tts_file_free(s->written, s->skb);
    s->sk = s->stage = s->written = NULL;
}

/* Update from one command and its answer (the card's rules of 7.2). */
static void state_track(card_state *s, const card_apdu *a, const card_resp *r)
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
        if (!pk)
            die_input("out of memory", NULL);
        if (tts_keypair_from_seed(s->p, pk, s->sk, data) == TTS_OK)
            s->active = 1;
        free(pk);
        memset(s->written, 0, s->skb);
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
        }
        memset(s->written, 0, s->skb);
    }
}

/* EEPROM file: "TTSCARD2", m, n, then the host's view of the card (active,
 * sk[skb], written[skb], stage[skb], for the cross-checks), then the card's
 * XDATA (CARD_XRAM_BYTES: its non-volatile memory, as the simulator left
 * it). It holds the card's secret key: written with mode 0600, and refused
 * when others may read it. Returns 1 if it read one (xram filled), 0 for a
 * fresh card. */
static int eeprom_load(card_state *s, const char *path, uint8_t *xram)
{
    size_t len;
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT)
        return 0; /* a fresh card */
    uint8_t *b = read_file(path, TTSFILE_MAX_BYTES, TTSFILE_PRIVATE, &len);
    if (len != 11 + 3 * s->skb + CARD_XRAM_BYTES || memcmp(b, "TTSCARD2", 8) ||
        b[8] != tts_params_m(s->p) || b[9] != tts_params_n(s->p) || b[10] > 1) {
        tts_file_free(b, len);
        die_input("not an EEPROM file of this parameter set", path);
    }
    s->active = b[10];
    memcpy(s->sk, b + 11, s->skb);
    memcpy(s->written, b + 11 + s->skb, s->skb);
    memcpy(s->stage, b + 11 + 2 * s->skb, s->skb);
    if (xram)
        memcpy(xram, b + 11 + 3 * s->skb, CARD_XRAM_BYTES);
    tts_file_free(b, len);
    return 1;
}

static void eeprom_save(const card_state *s, const char *path, const uint8_t *xram)
{
    size_t len = 11 + 3 * s->skb + CARD_XRAM_BYTES;
    uint8_t *b = malloc(len);
    if (!b)
        die_input("out of memory", NULL);
    memcpy(b, "TTSCARD2", 8);
    b[8] = (uint8_t)tts_params_m(s->p);
    b[9] = (uint8_t)tts_params_n(s->p);
    b[10] = (uint8_t)s->active;
    memcpy(b + 11, s->sk, s->skb);
    memcpy(b + 11 + s->skb, s->written, s->skb);
    memcpy(b + 11 + 2 * s->skb, s->stage, s->skb);
    memcpy(b + 11 + 3 * s->skb, xram, CARD_XRAM_BYTES);
    write_file_mode(path, b, len, FILEIO_FORCE | FILEIO_SECRET | FILEIO_INPLACE);
    tts_file_free(b, len);
}

static size_t add_verify(card_batch *b, const uint8_t *pin, size_t pinlen)
{
    size_t k = card_add(b, CARD_VERIFY, 0, 0, pin, (uint8_t)pinlen);
    b->cmd[k].cla = CARD_CLA_ISO;
    return k;
}

static void add_put(card_batch *b, const uint8_t *buf, size_t off, size_t len)
{
    while (len) {
        uint8_t lc = len > 255 ? 255 : (uint8_t)len;
        card_add(b, CARD_PUT_KEY, (uint8_t)(off >> 8), (uint8_t)off, buf + off, lc);
        off += lc;
        len -= lc;
    }
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

static double ms_of(unsigned long long cycles, int cpc, double mhz)
{
    return (double)cycles * cpc / (mhz * 1000.0);
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static const char *image_path(const char *dir, const tts_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s.ihx", dir, tts_params_id(p));
    return buf;
}

/* iram from IMAGE minus .ihx plus .sizes ("iram N" line), or -1 */
static long image_iram(const char *image, long *code, long *xdata)
{
    char path[4096];
    size_t l = strlen(image);
    if (l > 4 && strcmp(image + l - 4, ".ihx") == 0)
        l -= 4;
    snprintf(path, sizeof path, "%.*s.sizes", (int)l, image);
    FILE *f = fopen(path, "r");
    long iram = -1, v;
    char key[64];
    if (code) *code = -1;
    if (xdata) *xdata = -1;
    if (!f)
        return -1;
    while (fscanf(f, "%63s %ld", key, &v) == 2) {
        if (!strcmp(key, "iram")) iram = v;
        if (!strcmp(key, "code") && code) *code = v;
        if (!strcmp(key, "xdata") && xdata) *xdata = v;
    }
    fclose(f);
    return iram;
}

/* the value of KEY in IMAGE's .sizes file, or -1 */
static long image_size(const char *image, const char *want)
{
    char path[4096], key[64];
    size_t l = strlen(image);
    long v, r = -1;
    if (l > 4 && strcmp(image + l - 4, ".ihx") == 0)
        l -= 4;
    snprintf(path, sizeof path, "%.*s.sizes", (int)l, image);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fscanf(f, "%63s %li", key, &v) == 2)
        if (!strcmp(key, want))
            r = v;
    fclose(f);
    return r;
}

static int report_all(const char *dir, double mhz, int verbose, const tts_params *only,
                      const char *cpu);

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
    if ((i = cli_parse_head(argc, argv, opts)) < 0)
        return 2;
    if (o_help) { usage(stdout); return 0; }
    if (o_version) { printf("tts-card (libtts) %s\n", tts_version()); return 0; }
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
        cut = strtoull(o_cut, &e, 10);
        if (*e || !cut) die_input("bad --cut", o_cut);
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
        return report_all(dir, mhz, verbose, only, cpu_given ? cpu : NULL);
    }
    const tts_params *p = tts_params_get(params);
    if (!p)
        die_input("unknown parameter set", params);
    const unsigned m = tts_params_m(p), n = tts_params_n(p);
    const size_t skb = tts_sk_bytes(p), pkb = tts_pk_bytes(p);
    const unsigned segk = 255 / m;
    const size_t nmono = pkb / m, nseg = (nmono + segk - 1) / segk;
    char ibuf[4096];
    if (!image) {
        image = image_path(dir, p, ibuf, sizeof ibuf);
        if (!strcmp(cpu, "8051")) /* the 128-byte family */
            snprintf(ibuf, sizeof ibuf, "%s/%s-128.ihx", dir, tts_params_id(p));
    }
    struct stat st;
    if (stat(image, &st) != 0)
        die_input("no card image", image);
    /* the documented refusal first: a larger image would only time out */
    if (!strcmp(cpu, "8051")) {
        long iram = image_iram(image, NULL, NULL);
        if (iram < 0 || iram > 128)
            die_input("--cpu 8051 needs an image whose internal RAM fits 128 bytes", image);
    }
    const int prof_ok = check_image(image, cpu, mhz, uart, p);

    if (pinfile)
        pinlen = read_pin(pinfile, pin);
    card_state cs;
    state_init(&cs, p);
    uint8_t *xram = malloc(CARD_XRAM_BYTES);
    if (!xram)
        die_input("out of memory", NULL);
    int restored = eeprom && eeprom_load(&cs, eeprom, xram);
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
            card_add(&b, CARD_SET_PIN, 0, 0, pin, (uint8_t)pinlen);
            card_add(&b, CARD_GENERATE_KEY, 0, 0, s->seed, 32);
        } else if (!strcmp(w, "export-pk")) {
            s->kind = SC_EXPORT;
            if (i + 1 >= argc || strcmp(argv[i], "-o")) die_input("export-pk needs -o FILE", NULL);
            s->out = argv[i + 1];
            check_output(s->out, image, eeprom);
            i += 2;
            for (size_t g = 0; g < nseg; g++) {
                card_add(&b, CARD_GET_PK_SEGMENT, (uint8_t)(g >> 8), (uint8_t)g, NULL, 0);
                if (report)
                    card_add(&b, CARD_GET_CYCLES, 0, 0, NULL, 0);
            }
        } else if (!strcmp(w, "put-key")) {
            s->kind = SC_PUT;
            if (i >= argc) die_input("put-key needs FILE", NULL);
            s->key = malloc(skb);
            if (!s->key)
                die_input("out of memory", NULL);
            read_secret_key(argv[i++], p, s->key);
            if (!pinlen) die_input("put-key needs --pin (the PIN of the new key)", NULL);
            card_add(&b, CARD_SET_PIN, 0, 0, pin, (uint8_t)pinlen);
            for (size_t off = 0; off < skb; off += 255) {
                size_t len = skb - off < 255 ? skb - off : 255;
                card_add(&b, CARD_PUT_KEY, (uint8_t)(off >> 8), (uint8_t)off, s->key + off, (uint8_t)len);
                if (report)
                    card_add(&b, CARD_GET_CYCLES, 0, 0, NULL, 0);
            }
            card_add(&b, CARD_COMMIT_KEY, 0, 0, NULL, 0);
        } else if (!strcmp(w, "sign")) {
            s->kind = SC_SIGN;
            int have_digest = 0;
            const char *msgfile = NULL;
            while (i + 1 < argc && (!strcmp(argv[i], "--digest") ||
                                    !strcmp(argv[i], "--message") || !strcmp(argv[i], "-o"))) {
                const char *o = argv[i], *val = argv[i + 1];
                i += 2;
                if (!strcmp(o, "-o")) { s->out = val; check_output(val, image, eeprom); }
                else if (!strcmp(o, "--message")) msgfile = val;
                else {
                    have_digest = 1;
                    if (stat(val, &st) == 0) read_exact(val, s->digest, m, "a digest", 0);
                    else if (cli_hex(val, strlen(val), s->digest, m) != (long)m)
                        die_input("--digest needs m bytes of hex or a file", val);
                }
            }
            if (!have_digest) {
                size_t ml = 0;
                uint8_t *msg = msgfile ? read_file(msgfile, MESSAGE_MAX_BYTES, 0, &ml) : NULL;
                tts_digest(p, s->digest, msg ? msg : (const uint8_t *)"", ml);
                tts_file_free(msg, ml);
            }
            if (pinlen)
                add_verify(&b, pin, pinlen);
            s->ctr_at = card_add(&b, CARD_GET_COUNTER, 0, 0, NULL, 0);
            card_add(&b, CARD_SIGN, 0, 0, s->digest, (uint8_t)m);
        } else if (!strcmp(w, "verify")) {
            s->kind = SC_VERIFY;
            if (!pinlen) die_input("verify needs --pin", NULL);
            add_verify(&b, pin, pinlen);
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
    if (card_run(&b) != 0)
        exit(2); /* card_run said why */
    int status = 0;
    for (int h = 0; h < watch_hits; h++)
        printf("watch: %s %d %s 0x%04X after %llu instructions\n", watch_read ? "read" : "write",
               h + 1, watch_read ? "of" : "to", watch - 1, b.watch_at[h]);
    if (watch || cut)
        printf("instructions: %llu\n", b.insts);
    for (size_t k = 0; k < b.ncmd && k < b.nresp; k++)
        state_track(&cs, &b.cmd[k], &b.resp[k]);
    if (cut) { /* a power cut: the state as it was left, no answer checked */
        printf("cut: after %llu instructions, %zu of %zu commands answered\n", cut, b.nresp,
               b.ncmd);
        if (eeprom)
            eeprom_save(&cs, eeprom, xram);
        sodium_memzero(pin, sizeof pin);
        tts_file_free(xram, CARD_XRAM_BYTES);
        subcmds_free(sc, nsc, (size_t)argc, skb);
        state_free(&cs);
        card_free(&b);
        return 0;
    }

    /* host view of the active key, for the cross-checks */
    uint8_t *hsk = malloc(skb), *hpk = malloc(pkb);
    int hkey = 0;
    if (!hsk || !hpk)
        die_input("out of memory", NULL);
    size_t k0 = 0;
    card_state hs; /* the state before the subcommands */
    state_init(&hs, p);
    if (eeprom)
        eeprom_load(&hs, eeprom, NULL);
    if (hs.active) {
        memcpy(hsk, hs.sk, skb);
        hkey = tts_pk_from_sk(p, hpk, hsk) == TTS_OK;
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
            state_track(&hs, &b.cmd[k], &b.resp[k]);
        k0 = c->first + c->count;
        if (hs.active && memcmp(hs.sk, hsk, skb) != 0 ? 1 : (hs.active && !hkey)) {
            memcpy(hsk, hs.sk, skb);
            hkey = tts_pk_from_sk(p, hpk, hsk) == TTS_OK;
        }
        if (bad) {
            status = 1;
        } else if (c->kind == SC_INFO) {
            printf("info: %s m=%u n=%u v=%u a=%u b=%u format=%u segment=%u\n",
                   tts_params_name(p), r->data[0], r->data[1], r->data[2],
                   r->data[3], r->data[4], r->data[5], r->data[6]);
            if (r->len != 7 || r->data[0] != m || r->data[1] != n) {
                fprintf(stderr, "tts-card: the image is not %s\n", tts_params_name(p));
                status = 1;
            }
        } else if (c->kind == SC_GENKEY) {
            printf("genkey: ok\n");
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
                write_object(c->out, TTS_FILE_PUBLIC_KEY, p, pk);
                if (hkey) {
                    int same = memcmp(pk, hpk, pkb) == 0;
                    printf("export-pk: %zu bytes to %s (%s the host's public key)\n",
                           pkb, c->out, same ? "equals" : "DIFFERS FROM");
                    if (!same)
                        status = 1;
                } else {
                    printf("export-pk: %zu bytes to %s\n", pkb, c->out);
                }
            }
            free(pk);
        } else if (c->kind == SC_PUT) {
            printf("put-key: committed\n");
        } else if (c->kind == SC_SIGN) {
            uint32_t ctr = be32(b.resp[c->ctr_at].data);
            printf("counter: %u\n", ctr);
            printf("sig: ");
            print_hex(stdout, r->data, r->len);
            printf("\n");
            if (c->out && r->len == n)
                write_object(c->out, TTS_FILE_SIGNATURE, p, r->data);
            if (hkey) {
                uint8_t hsig[TTS_MAX_N], key[32];
                tts_stream rng;
                tts_card_stream_key(p, key, hsk, ctr, c->digest);
                tts_stream_init(&rng, key);
                sodium_memzero(key, sizeof key);
                int rc = tts_sign_digest(p, hsig, c->digest, hsk, tts_stream_rng, &rng);
                int same = rc == TTS_OK && r->len == n && memcmp(hsig, r->data, n) == 0;
                unsigned calls = rng.calls; /* before the wipe */
                tts_stream_wipe(&rng);
                int ok = tts_verify_digest(p, r->data, c->digest, hpk) == TTS_OK;
                printf("sign: %s the host's signature (%u attempt%s), %s\n",
                       same ? "equals" : "DIFFERS FROM", calls, calls == 1 ? "" : "s",
                       ok ? "verifies" : "DOES NOT VERIFY");
                if (!same || !ok)
                    status = 1;
            }
        } else if (c->kind == SC_CYCLES) {
            uint32_t cy = be32(r->data);
            printf("cycles: %u (%.2f ms at %g MHz, %s)\n", cy, ms_of(cy, 12, mhz), mhz,
                   cpc == 12 ? "12T" : "timer count; 4T cores: use --report");
        } else if (c->kind == SC_VERIFY) {
            printf("verify: ok\n");
        } else if (c->kind == SC_COUNTER) {
            printf("counter: %u\n", be32(r->data));
        } else if (c->kind == SC_APDU) {
            printf("apdu: %02X ", r->len);
            print_hex(stdout, r->data, r->len);
            printf("%s%04X\n", r->len ? " " : "", r->sw);
            if (r->sw != CARD_SW_OK)
                status = 1;
        }
        if (c->prof != (size_t)-1 && !bad) {
            /* cycles: the GET CYCLES after each segment/PUT plus the final
             * GET PROFILE; on 4T cores the tick difference instead */
            unsigned long long cy = 0, ch = 0;
            for (size_t k = c->first; k < c->first + c->count; k++)
                if (b.cmd[k].ins == CARD_GET_CYCLES && b.cmd[k].raw_len < 0 && c->kind != SC_CYCLES)
                    cy += be32(b.resp[k].data);
            cy += be32(b.resp[c->prof].data);
            ch = prof_ok ? be32(b.resp[c->prof].data + 4) : 0;
            if (cpc == 12) {
                printf("report: %-9s %10llu cycles %10.2f ms", c->name, cy, ms_of(cy, 12, mhz));
                if (c->kind == SC_SIGN && prof_ok)
                    printf("  (ChaCha20 %llu cycles %.2f ms, core %llu cycles %.2f ms)", ch,
                           ms_of(ch, 12, mhz), cy - ch, ms_of(cy - ch, 12, mhz));
                else if (c->kind == SC_SIGN)
                    printf("  (ChaCha20 not counted apart: the image has no GET PROFILE)");
                printf("  [%s, %g MHz]\n", cpu, mhz);
            } else {
                unsigned long long t1 = card_ticks_prefix(&b, c->first + c->count);
                /* (sign: SIGN alone, not the VERIFY and GET COUNTER before it) */
                unsigned long long t0 = card_ticks_prefix(&b, c->first + c->count -
                                                              (c->kind == SC_SIGN ? 1 : c->count));
                unsigned long long d = t1 > t0 ? t1 - t0 : 0;
                printf("report: %-9s %10llu cycles %10.2f ms  [%s, %g MHz, from %llu simulated ticks]\n",
                       c->name, d / cpc, d / (mhz * 1000.0), cpu, mhz, d);
            }
        }
    }
    if (eeprom)
        eeprom_save(&cs, eeprom, xram);
    /* secrets: the key copies, put-key buffers, the PIN, the card's memory */
    sodium_memzero(pin, sizeof pin);
    tts_file_free(xram, CARD_XRAM_BYTES);
    subcmds_free(sc, nsc, (size_t)argc, skb);
    tts_file_free(hsk, skb);
    free(hpk);
    state_free(&hs);
    state_free(&cs);
    card_free(&b);
    return status;
}

/* ---- report: the card table for all eight sets beside table D ---- */
static int measure_set(const tts_params *p, const char *image, const char *cpu,
                       double mhz, int verbose, double *sign_ms, double *core_ms,
                       double *chacha_ms, unsigned *attempts, double *keygen_s, int rom,
                       int prof)
{
    const unsigned m = tts_params_m(p);
    const size_t skb = tts_sk_bytes(p), pkb = tts_pk_bytes(p);
    const size_t nseg = (pkb / m + 255 / m - 1) / (255 / m);
    uint8_t seed[32], *pk = malloc(pkb), *sk = malloc(skb), digest[TTS_MAX_M];
    static const uint8_t pin[4] = {'1', '2', '3', '4'};
    int cpc = card_clocks_per_cycle(cpu), rc = 0;
    for (int k = 0; k < 32; k++)
        seed[k] = (uint8_t)k;
    tts_keypair_from_seed(p, pk, sk, seed);
    /* a digest 5A.. that signs in a single attempt (the usual case) with
     * counter 0, the first signature of a fresh card */
    memset(digest, 0x5A, sizeof digest);
    for (int t = 0;; t++) {
        tts_stream r;
        uint8_t sig[TTS_MAX_N], key[32];
        digest[m - 1] = (uint8_t)(0x5A + t);
        tts_card_stream_key(p, key, sk, 0, digest);
        tts_stream_init(&r, key);
        (void)tts_sign_digest(p, sig, digest, sk, tts_stream_rng, &r);
        tts_stream_wipe(&r);
        if (r.calls == 1 || t == 255) {
            *attempts = r.calls;
            break;
        }
    }
    card_batch b;
    card_init(&b, image, cpu, mhz);
    b.verbose = verbose;
    card_add(&b, CARD_SET_PIN, 0, 0, pin, sizeof pin);
    add_put(&b, sk, 0, skb);
    card_add(&b, CARD_COMMIT_KEY, 0, 0, NULL, 0);
    add_verify(&b, pin, sizeof pin);
    size_t isign = card_add(&b, CARD_SIGN, 0, 0, digest, (uint8_t)m);
    card_add(&b, prof ? CARD_GET_PROFILE : CARD_GET_CYCLES, 0, 0, NULL, 0);
    /* (the ROM family has no key generation and no export) */
    size_t igen = b.ncmd;
    if (!rom) {
        card_add(&b, CARD_SET_PIN, 0, 0, pin, sizeof pin);
        igen = card_add(&b, CARD_GENERATE_KEY, 0, 0, seed, 32);
        card_add(&b, CARD_GET_CYCLES, 0, 0, NULL, 0);
        for (size_t g = 0; g < nseg; g++) {
            card_add(&b, CARD_GET_PK_SEGMENT, (uint8_t)(g >> 8), (uint8_t)g, NULL, 0);
            card_add(&b, CARD_GET_CYCLES, 0, 0, NULL, 0);
        }
    }
    if (card_run(&b) != 0) {
        rc = -1;
    } else {
        for (size_t k = 0; k < b.nresp; k++)
            if (b.resp[k].sw != CARD_SW_OK)
                rc = -1;
        uint32_t cy = be32(b.resp[isign + 1].data), ch = prof ? be32(b.resp[isign + 1].data + 4) : 0;
        unsigned long long kg = 0;
        for (size_t k = igen + 1; k < b.ncmd; k += 2)
            kg += be32(b.resp[k].data);
        if (cpc == 12) {
            *sign_ms = ms_of(cy, 12, mhz);
            *core_ms = ms_of(cy - ch, 12, mhz);
            *chacha_ms = ms_of(ch, 12, mhz);
            *keygen_s = ms_of(kg, 12, mhz) / 1000.0;
        } else {
            unsigned long long t0 = card_ticks_prefix(&b, isign);
            unsigned long long t1 = card_ticks_prefix(&b, isign + 1);
            unsigned long long t2 = card_ticks_prefix(&b, igen);
            double f = 1.0 / (mhz * 1000.0);
            *sign_ms = (double)(t1 - t0) * f;
            /* the 12T ChaCha share scaled by the tick ratio */
            *chacha_ms = cy ? *sign_ms * ((double)ch / cy) : 0;
            *core_ms = *sign_ms - *chacha_ms;
            *keygen_s = rom ? 0 : (double)(b.ticks - t2) * f / 1000.0;
        }
        if (!prof) { /* no GET PROFILE: SIGN's total alone */
            *chacha_ms = -1;
            *core_ms = -1;
        }
    }
    card_free(&b);
    free(pk);
    free(sk);
    return rc;
}

/* measure_set after the image check of every other subcommand: a garbage
 * or missing image fails in seconds, not after the measurement's budget. */
static int measure_checked(const tts_params *p, const char *img, const char *cpu, double mhz,
                           int verbose, double *sm, double *cm, double *hm, unsigned *att,
                           double *ks, int rom)
{
    char why[1024];
    int prof = 0;
    if (!image_ok(img, cpu, mhz, 0, p, why, sizeof why, &prof)) {
        fprintf(stderr, "tts-card: report: %s\n", why);
        return -1;
    }
    return measure_set(p, img, cpu, mhz, verbose, sm, cm, hm, att, ks, rom, prof);
}

/* One image of a -t 8051 table (the 128-byte and ROM families): its sizes
 * and measure_checked; a failure prints the set's "(failed)" row and sets
 * *rc. Returns 0 when the row is to be printed. */
static int measure_8051_row(const tts_params *p, const char *img, double mhz, int verbose,
                            int rom, double *sm, double *cm, double *hm, double *ks, long *code,
                            long *xd, long *iram, int *rc)
{
    unsigned att;
    *iram = image_iram(img, code, xd);
    if (measure_checked(p, img, "8051", mhz, verbose, sm, cm, hm, &att, ks, rom)) {
        printf("| %s | (failed) |\n", tts_params_name(p));
        *rc = 1;
        return -1;
    }
    return 0;
}

/* The image families, in the order of the report's tables: the file
 * suffix, whether the family is the ROM one (personalised by PUT KEY,
 * signing alone, n <= 32), and whether it has TTS(20,28)'s image alone
 * (the 4 KB image within 224 ms). */
static const struct card_family {
    const char *suffix;
    int rom, only_20_28;
} card_families[] = {
    {"", 0, 0}, {"-128", 0, 0}, {"-rom", 1, 0}, {"-rom4k", 1, 0}, {"-rom4k-nocheck", 1, 1},
};
#define N_FAMILIES (sizeof card_families / sizeof card_families[0])
#define FAM_ROM 2 /* the first ROM family */

static int family_has(const struct card_family *f, const tts_params *p)
{
    return !(f->rom && tts_params_n(p) > 32) &&
           !(f->only_20_28 && (tts_params_m(p) != 20 || tts_params_n(p) != 28));
}

/* The tables for every set and image family (the ROM family: its sign
 * figures alone, it has no key generation); only (--params) and
 * cpu (--cpu) narrow them when given. */
static int report_all(const char *dir, double mhz, int verbose, const tts_params *only,
                      const char *cpu)
{
    static const char *const cpus[2] = {"8032", "DS320"};
    int main_table = !cpu || strcmp(cpu, "8051"), small_table = !cpu || !strcmp(cpu, "8051");
    printf("libtts card table (measured in ucsim s51 at %g MHz; 12T = -t 8032 GET CYCLES,\n"
           "4T = -t DS320 simulated-tick differences). Signing: one attempt, counter 0, digest\n"
           "5A..5A xx, the stream key derived on card included; \"core\" = SIGN minus the two\n"
           "ChaCha20 blocks it computed (the stream key's and the vinegar's).\n\n", mhz);
    int rc = 0;
    if (main_table) {
        printf("| set | sign 12T ms (core + ChaCha20) | sign 4T ms (core + ChaCha20) | keygen+pk 12T s | keygen+pk 4T s | code B | iram B | xdata B |\n");
        printf("|---|---|---|---|---|---|---|---|\n");
    }
    for (size_t s = 0; main_table && s < tts_params_count(); s++) {
        const tts_params *p = tts_params_at(s);
        if (only && p != only)
            continue;
        char ib[4096];
        const char *img = image_path(dir, p, ib, sizeof ib);
        double sm[2] = {0}, cm[2] = {0}, hm[2] = {0}, ks[2] = {0};
        unsigned att;
        long code, xd, iram = image_iram(img, &code, &xd);
        int bad = 0;
        for (int c = 0; c < 2 && !bad; c++)
            if (!cpu || !strcmp(cpu, cpus[c]))
                bad = measure_checked(p, img, cpus[c], mhz, verbose, &sm[c], &cm[c], &hm[c],
                                      &att, &ks[c], 0) != 0;
        if (bad) {
            printf("| %s | (failed) |\n", tts_params_name(p));
            rc = 1;
            continue;
        }
        printf("| %s | %.1f (%.1f + %.1f) | %.1f (%.1f + %.1f) | %.1f | %.1f | %ld | %ld | %ld |\n",
               tts_params_name(p), sm[0], cm[0], hm[0], sm[1], cm[1], hm[1], ks[0], ks[1],
               code, iram, xd);
        fflush(stdout);
    }
    if (small_table) {
        printf("\n128-byte family (tts-M-N-128.ihx, -t 8051, GET CYCLES):\n\n");
        printf("| set | sign 12T ms (core + ChaCha20) | keygen+pk 12T s | code B | iram B | xdata B |\n");
        printf("|---|---|---|---|---|---|\n");
    }
    for (size_t s = 0; small_table && s < tts_params_count(); s++) {
        const tts_params *p = tts_params_at(s);
        if (only && p != only)
            continue;
        char ib[4096];
        snprintf(ib, sizeof ib, "%s/%s-128.ihx", dir, tts_params_id(p));
        double sm, cm, hm, ks;
        long code, xd, iram;
        if (measure_8051_row(p, ib, mhz, verbose, 0, &sm, &cm, &hm, &ks, &code, &xd, &iram, &rc))
            continue;
        printf("| %s | %.1f (%.1f + %.1f) | %.1f | %ld | %ld | %ld |\n", tts_params_name(p),
               sm, cm, hm, ks, code, iram, xd);
        fflush(stdout);
    }
    /* the ROM family, its 4 KB images, and TTS(20,28)'s 4 KB image within
     * 224 ms (66,640 machine cycles at 3.57 MHz, 12T) */
    for (size_t fi = FAM_ROM; fi < N_FAMILIES && small_table; fi++) {
        const struct card_family *f = &card_families[fi];
        const size_t fam = fi - FAM_ROM;
        if (fam == 0)
            printf("\nROM family (tts-M-N-rom.ihx, n <= 32: personalised by PUT KEY, signing;\n"
                   "-t 8051, GET CYCLES; the 8051AH's ROM holds 4096 B):\n\n");
        else if (fam == 1)
            printf("\n4 KB ROM family (tts-M-N-rom4k.ihx: the ROM family in 4096 B of code, its\n"
                   "ChaCha20 rounds rolled, its layers by Gauss-Jordan, no GET PROFILE; -t 8051,\n"
                   "GET CYCLES):\n\n");
        else
            printf("\n4 KB image within 224 ms (tts-20-28-rom4k-nocheck.ihx: the ROM image without\n"
                   "COMMIT KEY's check of the key and without GET PROFILE, its matvec four rows a\n"
                   "pass; TTS(20,28) alone; -t 8051, GET CYCLES):\n\n");
        printf("| set | sign 12T ms%s | sign cycles%s | code B | last code byte | iram B | key B | xdata B |\n",
               fam ? "" : " (core + ChaCha20)", fam == 2 ? " (224 ms: 66640)" : "");
        printf("|---|---|---|---|---|---|---|---|\n");
        for (size_t s = 0; s < tts_params_count(); s++) {
            const tts_params *p = tts_params_at(s);
            if ((only && p != only) || !family_has(f, p))
                continue;
            char ib[4096], split[64] = "";
            snprintf(ib, sizeof ib, "%s/%s%s.ihx", dir, tts_params_id(p), f->suffix);
            double sm, cm, hm, ks;
            long code, xd, iram;
            if (measure_8051_row(p, ib, mhz, verbose, 1, &sm, &cm, &hm, &ks, &code, &xd, &iram,
                                 &rc))
                continue;
            if (hm >= 0)
                snprintf(split, sizeof split, " (%.1f + %.1f)", cm, hm);
            printf("| %s | %.1f%s | %.0f | %ld | 0x%04lX | %ld | %ld | %ld |\n", tts_params_name(p),
                   sm, split, sm * mhz * 1000.0 / 12.0, code, image_size(ib, "code_end"), iram,
                   image_size(ib, "xdata_key"), xd);
            fflush(stdout);
        }
    }
    printf("\nMemory budget (bytes, from the build's .sizes): non-volatile = the active key\n"
           "(internal form) + the PUT KEY staging copy and bitmap (also the journal's) + the\n"
           "state (flags, PIN tries, signature counter, PIN and stream secret with their staged\n"
           "copies); XRAM work per command beyond them (the 2 x 255 B command/response buffers\n"
           "apart).\n\n");
    printf("| image | iram | NV key | NV staging | NV state | SIGN | GENERATE KEY | COMMIT KEY | GET PK SEGMENT | code | signing path |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t s = 0; s < N_FAMILIES * tts_params_count(); s++) {
        const tts_params *p = tts_params_at(s % tts_params_count());
        const struct card_family *f = &card_families[s / tts_params_count()];
        if ((only && p != only) || !family_has(f, p))
            continue;
        char ib[4096];
        snprintf(ib, sizeof ib, "%s/%s%s.ihx", dir, tts_params_id(p), f->suffix);
        printf("| %s | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld |\n", strrchr(ib, '/') + 1,
               image_size(ib, "iram"), image_size(ib, "xdata_key"), image_size(ib, "xdata_stage"),
               image_size(ib, "xdata_nv_state"), image_size(ib, "work_sign"), image_size(ib, "work_genkey"),
               image_size(ib, "work_commit"), image_size(ib, "work_pk"),
               image_size(ib, "code"), image_size(ib, "sign_code"));
    }
    printf("\nTable D (2004, hand assembly): TTS(20,28) i8032AH 12T 3.57 MHz: sign 198 ms, code 1.5 KB,\n"
           "RAM 128 B, keygen 62 s; W77E58 4T: sign 99 ms, keygen 29 s. TTS(24,32): i8051AH 284 ms,\n"
           "W77E58 112 ms; keygen 170 s (12T), 79 s (4T).\n");
    return rc;
}
