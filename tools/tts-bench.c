/* SPDX-License-Identifier: MIT */
/*
 * tts-bench: TTS next to the signatures people know, on this machine, and
 * the published 2004 figures (tables B and C of docs/SPEC.md section 12)
 * next to today's measurement: the command line over the harness in
 * bench/ (bench/harness.h).
 *
 * usage: tts-bench primitives|table|files [--quick] [--cold] [-n RUNS]
 *                  [--json FILE] [--csv FILE] [--plot DIR]
 *        tts-bench passport [--suite NAME ...] [--runs N] [--hash H] [INPUTS] [--card]
 *                  [--published] [--json FILE] [--csv FILE] [--plot DIR]
 *        tts-bench --help
 *
 * primitives: key generation, signing and verification of a 32-byte
 * message for the eight TTS sets on every backend available here (ref,
 * swar, avx2, gfni), ECDSA on sect163k1, sect163r2 and P-256 and RSA-PSS
 * 1024/2048/3072 (OpenSSL EVP, SHA-256, salt length = hash length) and
 * Ed25519 (libsodium). Full API calls are timed: tts_keypair / tts_sign /
 * tts_verify (SHA-512 and the system generator included),
 * EVP_PKEY_keygen / EVP_DigestSign / EVP_DigestVerify (context set-up
 * included), crypto_sign_keypair / crypto_sign_detached /
 * crypto_sign_verify_detached. By default every operation is timed warm:
 * its runs back to back after three untimed calls (the figures tts-speed
 * and SUPERCOP-style reports give); with --cold all schemes run
 * interleaved round-robin (round r times every scheme's operations once),
 * each call after the others have refilled caches and predictors. Per
 * operation: median, min, max and mean in TSC cycles (rdtsc, reference
 * cycles; 0 on CPUs without it) and in ns (CLOCK_MONOTONIC). RSA key
 * generation takes seconds: it gets few runs.
 *
 * files: the file-signing experiment of section E (the national-eID
 * study): files of 1 KB ... 10 MB are written to a temporary folder, read
 * back for every run and signed, with the time split into hashing (grows
 * with the size) and the private-key operation (constant). Every signature
 * is verified, untimed, through the full-message API, so that a broken
 * split cannot report a speed.
 *
 * Sizes: TTS and Ed25519 as their raw encodings; ECDSA pk the uncompressed
 * point, RSA pk the PKCS#1 RSAPublicKey DER; sk the DER private key; the
 * ECDSA signature is the DER length of one signature (it varies by a few
 * bytes).
 *
 * Reports (--json, --csv) and charts (--plot) are described, field by
 * field, in tts-bench(1) and docs/bench-schema.json.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "harness.h"
#include "exp_micro.h"
#include "exp_passport.h"
#include "cardbind.h"
#include "cardsim.h"
#include "cli.h"

#ifndef CARD_IMAGE_DIR
#define CARD_IMAGE_DIR "8051"
#endif
#ifndef AVR_IMAGE_DIR
#define AVR_IMAGE_DIR "avr"
#endif

/* ---- the harness's files, under the tools' file rules (common/fileio.h) ---- */

static int io_rc(int rc)
{
    return rc == FILEIO_OK ? 0 : rc == FILEIO_EXISTS ? BENCH_IO_EXISTS
                              : rc == FILEIO_NOPROG ? BENCH_IO_NOPROG
                                                    : BENCH_IO_ERROR;
}

/* A report on standard output ("-") has it to itself: the text report
 * goes to standard error from the claim on (standard output's descriptor
 * kept in report_fd, put back only while a report is written), and a
 * second report on "-" is refused. */
static int report_fd = -1;

static int io_claim(const char *path, int force, char *err, size_t errlen)
{
    if (strcmp(path, "-") == 0) {
        if (report_fd >= 0) {
            snprintf(err, errlen, "one report on standard output: --json - and --csv - "
                                  "both name it");
            return BENCH_IO_ERROR;
        }
        fflush(stdout);
        if ((report_fd = dup(STDOUT_FILENO)) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
            snprintf(err, errlen, "cannot move the text report to standard error: %s",
                     strerror(errno));
            return BENCH_IO_ERROR;
        }
    }
    return io_rc(fileio_claim_output(path, force ? FILEIO_FORCE : 0, err, errlen));
}

static int io_close(FILE *f, int force, int discard, char *err, size_t errlen)
{
    if (report_fd >= 0) {
        fflush(stdout);
        dup2(report_fd, STDOUT_FILENO);
    }
    int rc = io_rc(fileio_stream_close(f, force ? FILEIO_FORCE : 0, discard, err, errlen));
    if (report_fd >= 0)
        dup2(STDERR_FILENO, STDOUT_FILENO);
    return rc;
}

/* gnuplot runs in a temporary folder on copies of the script and data;
 * the charts it makes are committed into dir by the file rules. */
static int io_gnuplot(const char *dir, const char *script, const char *data, int force,
                      char *err, size_t errlen)
{
    const char *name[2] = {script, data};
    uint8_t *b[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    char path[4200];
    int rc = FILEIO_OK;
    for (int i = 0; i < 2 && rc == FILEIO_OK; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, name[i]);
        rc = fileio_read(path, (size_t)1 << 26, 0, &b[i], &len[i], NULL, err, errlen);
    }
    if (rc == FILEIO_OK) {
        fileio_out in[2] = {{script, b[0], len[0], 0}, {data, b[1], len[1], 0}};
        char *argv[] = {"gnuplot", (char *)script, NULL};
        rc = fileio_run_in(argv, in, 2, dir, force ? FILEIO_FORCE : 0, err, errlen);
    }
    fileio_free(b[0], len[0]);
    fileio_free(b[1], len[1]);
    return io_rc(rc);
}

static int io_temp_dir(char *out, size_t len, const char *prefix, char *err, size_t errlen)
{
    return io_rc(fileio_temp_dir(out, len, prefix, 0, err, errlen));
}

static const bench_io tool_io = {io_claim, fileio_stream_open, io_close, io_gnuplot,
                                 io_temp_dir, fileio_temp_done};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tts-bench primitives [--quick] [--cold] [-n RUNS] [REPORTS]\n"
            "       tts-bench files      [--quick] [-n RUNS] [REPORTS]\n"
            "       tts-bench table      [--cold] [-n RUNS] [REPORTS]\n"
            "       tts-bench passport   [--suite NAME ...] [--runs N] [--hash H] [INPUTS]\n"
            "                            [--card]\n"
            "                            [--card-dir DIR] [--published] [REPORTS]\n"
            "       tts-bench micro      [--image-dir DIR] [REPORTS]: the AVR (bench/exp_micro.c)\n"
            "       tts-bench --help | --version\n"
            "REPORTS: [--json FILE] [--csv FILE] [--plot DIR] [--force]\n"
            "primitives: keygen/sign/verify of TTS (every backend), ECDSA (sect163k1,\n"
            "  sect163r2, P-256), RSA-PSS (1024, 2048, 3072), Ed25519 and SFLASH (the\n"
            "  historical 2004 column, docs/SFLASH.md); median/min/\n"
            "  max/mean in cycles and ns, key and signature sizes. Warm figures by\n"
            "  default (each operation's runs back to back after 3 untimed calls, as\n"
            "  tts-speed times them); --cold: all schemes interleaved round-robin.\n"
            "  -n: runs per sign/verify (default 200, --quick 15; keygen fewer).\n"
            "files: sign files of 1 KB, 10 KB, 50 KB, 100 KB, 1 MB, 2 MB, 5 MB, 10 MB\n"
            "  (KB = 1024 B, MB = 1024 KB) written to $TMPDIR and read back each run;\n"
            "  time split into hashing and the private-key operation, best/average/worst\n"
            "  and per run, for TTS(20,28), RSA-PSS-2048, ECDSA-P-256, Ed25519ph (its\n"
            "  key op includes the SHA-512 finalisation and two short SHA-512 over the\n"
            "  64-byte prehash) and pure Ed25519 (unsplit); every signature verified.\n"
            "  -n: runs per size (default 10); --quick: 1 KB, 100 KB and 1 MB, 3 runs.\n"
            "table: the published tables B and C (2004) next to a quick measurement\n"
            "  (-n default 15; always quick, --quick is accepted).\n"
            "passport: the ePassport flow per actor: the issuing state's PKI once (CSCA,\n"
            "  DS, TA's CVCA/DV/IS), the issuer per document (inputs, chip keys, data\n"
            "  groups, hashes, SOD), a passage of the inspection system and the chip\n"
            "  (PACE, Passive, Chip, Terminal and Active Authentication), the bytes read\n"
            "  over 106/424/848 kbit/s; per --suite NAME (repeatable; default all):\n"
            "    %s\n"
            "  median and quartiles of --runs N runs (default 5). INPUTS: --mrz-file F\n"
            "  --portrait F --finger1 F --finger2 F --signature F (default: synthetic\n"
            "  files of 90 B, 20 KB, 12 KB, 12 KB, 6 KB). --card: Active Authentication\n"
            "  of the TTS suites also on the 8051 card image in s51 (from --card-dir DIR,\n"
            "  else $TTS_CARD_DIR, else %s).\n"
            "  --hash sha1|sha256|sha512: the document hash (default sha256).\n"
            "  --published: the study's figures beside this run, with their source.\n"
            "--json FILE, --csv FILE: reports with the environment, aggregates and\n"
            "  per-run samples (schema: docs/bench-schema.json, installed with the docs).\n"
            "--plot DIR: gnuplot script, data and SVG + PNG charts in DIR (made if\n"
            "  missing); needs gnuplot on PATH, else the script and data are written\n"
            "  and the exit status is 1.\n"
            "--force: replace existing reports and charts (never an input; a link is\n"
            "  replaced, not followed).\n"
            "exit status: 0 ok, 1 a failed operation, report or chart, 2 usage error.\n",
            passport_suite_list(), CARD_IMAGE_DIR);
}

/* --json, --csv, --plot FILE: 1 if a is one of them (val recorded). */
static int report_option(outputs *o, const char *a, const char *val)
{
    if (strcmp(a, "--json") == 0)
        o->json = val;
    else if (strcmp(a, "--csv") == 0)
        o->csv = val;
    else if (strcmp(a, "--plot") == 0)
        o->plot = val;
    else
        return 0;
    return 1;
}

/* A run count 1..max for option opt: 0, or -1 with the message. */
static int parse_count(const char *who, const char *opt, const char *val, unsigned long max,
                       size_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(val, &end, 10);
    if (*end || errno || val[0] == '-' || v < 1 || v > max) {
        fprintf(stderr, "tts-bench: %s%s wants 1..%lu, not \"%s\"\n", who, opt, max, val);
        return -1;
    }
    *out = v;
    return 0;
}

/* ---- passport: the command line, its inputs and the card ---- */

/* The card of --card: images DIR/tts-M-N.ihx (the 8032 family, 12T) in
 * s51 at 3.57 MHz, driven through host/cardsim.h. */
typedef struct {
    const char *dir;
    char path[2][4200];
    unsigned m[2];
} card_ctx;

static const char *card_image(void *ctx, const tts_params *p)
{
    card_ctx *c = ctx;
    struct stat st;
    for (int i = 0; i < 2; i++) {
        if (c->m[i] == 0 || c->m[i] == tts_params_m(p)) {
            c->m[i] = tts_params_m(p);
            snprintf(c->path[i], sizeof c->path[i], "%s/tts-%u-%u.ihx", c->dir, tts_params_m(p),
                     tts_params_n(p));
            return stat(c->path[i], &st) == 0 && S_ISREG(st.st_mode) ? c->path[i] : NULL;
        }
    }
    return NULL;
}

/* One card session: SET PIN, PUT KEY (the whole key), COMMIT KEY (with the
 * key's check points), VERIFY,
 * SIGN the digest, GET CYCLES (SIGN's machine cycles). The batch held the
 * key: wiped before it is freed. */
static int card_sign(void *ctx, const tts_params *p, const uint8_t *sk, const uint8_t *digest,
                     uint8_t *sig, uint64_t *cycles, char *err, size_t errlen)
{
    static const uint8_t pin[4] = {'2', '5', '8', '0'};
    const char *image = card_image(ctx, p);
    const size_t skb = tts_sk_bytes(p);
    const unsigned m = tts_params_m(p), n = tts_params_n(p);
    if (!image) {
        snprintf(err, errlen, "no card image of %s", tts_params_name(p));
        return -1;
    }
    card_batch b;
    card_init(&b, image, "8032", 3.57);
    card_add(&b, CARD_SET_PIN, 0, 0, pin, sizeof pin);
    for (size_t off = 0; off < skb; off += 255)
        card_add(&b, CARD_PUT_KEY, (uint8_t)(off >> 8), (uint8_t)off, sk + off,
                 (uint8_t)(skb - off < 255 ? skb - off : 255));
    if (card_add_commit(&b, p, sk) == (size_t)-1) {
        sodium_memzero(b.cmd, b.cap * sizeof *b.cmd);
        card_free(&b);
        snprintf(err, errlen, "the library refuses the key of %s", tts_params_name(p));
        return -1;
    }
    size_t v = card_add(&b, CARD_VERIFY, 0, 0, pin, sizeof pin);
    b.cmd[v].cla = CARD_CLA_ISO;
    size_t s = card_add(&b, CARD_SIGN, 0, 0, digest, (uint8_t)m);
    size_t c = card_add(&b, CARD_GET_CYCLES, 0, 0, NULL, 0);
    int rc = card_run(&b) == 0 && b.nresp >= b.ncmd ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "the simulator failed (%s)", image);
    for (size_t k = 0; !rc && k < b.nresp; k++)
        if (b.resp[k].sw != CARD_SW_OK) {
            snprintf(err, errlen, "INS %02X answered %04X (%s)", b.cmd[k].ins, b.resp[k].sw,
                     card_sw_name(b.resp[k].sw));
            rc = -1;
        }
    if (!rc && (b.resp[s].len != n || b.resp[c].len != 4)) {
        snprintf(err, errlen, "SIGN answered %u bytes, GET CYCLES %u", b.resp[s].len,
                 b.resp[c].len);
        rc = -1;
    }
    if (!rc) {
        memcpy(sig, b.resp[s].data, n);
        const uint8_t *d = b.resp[c].data;
        *cycles = (uint64_t)d[0] << 24 | (uint64_t)d[1] << 16 | (uint64_t)d[2] << 8 | d[3];
    }
    sodium_memzero(b.cmd, b.cap * sizeof *b.cmd);
    card_free(&b);
    return rc;
}

/* The image answers GET INFO as a card of set p within 10 s. */
static int card_probe(const char *image, const tts_params *p)
{
    card_batch b;
    card_init(&b, image, "8032", 3.57);
    b.timeout = 10;
    card_add(&b, CARD_GET_INFO, 0, 0, NULL, 0);
    int ok = card_run(&b) == 0 && b.nresp >= 1 && b.resp[0].sw == CARD_SW_OK &&
             b.resp[0].len == 7 && b.resp[0].data[0] == tts_params_m(p) &&
             b.resp[0].data[1] == tts_params_n(p);
    card_free(&b);
    return ok;
}

/* The synthetic inputs, written to a temporary folder (removed at the
 * end, and on SIGINT, SIGTERM, SIGHUP: common/fileio.h). */
static char pp_tmp[4096];
static char pp_file[PP_NINPUTS][4200];

static int pp_write_inputs(passport_opts *po)
{
    char err[512];
    uint8_t *buf = NULL;
    if (fileio_temp_dir(pp_tmp, sizeof pp_tmp, "tts-bench", 0, err, sizeof err) != FILEIO_OK) {
        pp_tmp[0] = '\0';
        fprintf(stderr, "tts-bench: passport: %s\n", err);
        return -1;
    }
    for (int i = 0; i < PP_NINPUTS; i++) {
        if (po->given[i])
            continue;
        snprintf(pp_file[i], sizeof pp_file[i], "%s/%s", pp_tmp, pp_input_names[i]);
        uint8_t *nb = realloc(buf, pp_input_bytes[i]);
        FILE *f = nb ? fopen(pp_file[i], "wb") : NULL;
        buf = nb ? nb : buf;
        if (f)
            pp_synthetic(i, buf);
        if (!f || fwrite(buf, 1, pp_input_bytes[i], f) != pp_input_bytes[i] || fclose(f) != 0) {
            fprintf(stderr, "tts-bench: passport: writing %s: %s\n", pp_file[i],
                    strerror(errno));
            free(buf);
            return -1;
        }
        po->input[i] = pp_file[i];
    }
    free(buf);
    return 0;
}

static int passport_cli(int argc, char **argv)
{
    static const char *const in_opt[PP_NINPUTS] = {"--mrz-file", "--portrait", "--finger1",
                                                   "--finger2", "--signature"};
    passport_opts po;
    outputs o = {0};
    int card = 0;
    const char *card_dir = getenv("TTS_CARD_DIR");
    memset(&po, 0, sizeof po);
    po.runs = 5;
    po.hash = 1; /* SHA-256 */
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int in = -1;
        for (int k = 0; k < PP_NINPUTS; k++)
            if (strcmp(a, in_opt[k]) == 0)
                in = k;
        int takes = in >= 0 || strcmp(a, "--suite") == 0 || strcmp(a, "--runs") == 0 ||
                    strcmp(a, "-n") == 0 || strcmp(a, "--json") == 0 ||
                    strcmp(a, "--csv") == 0 || strcmp(a, "--plot") == 0 ||
                    strcmp(a, "--card-dir") == 0 || strcmp(a, "--hash") == 0;
        if (takes && (!val || !*val)) {
            fprintf(stderr, "tts-bench: passport: %s needs a value\n", a);
            return 2;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (in >= 0) {
            po.input[in] = val;
            po.given[in] = 1;
        } else if (strcmp(a, "--suite") == 0) {
            if (!passport_suite_known(val)) {
                fprintf(stderr, "tts-bench: passport: unknown suite \"%s\" (known: %s)\n", val,
                        passport_suite_list());
                return 2;
            }
            if (!passport_suite_available(val)) {
                fprintf(stderr,
                        "tts-bench: passport: %s needs PQClean, which this build lacks "
                        "(build-aux/pqclean.sh fetch, then configure)\n",
                        val);
                return 2;
            }
            if (po.nsuites == PP_MAX_SUITES) {
                fprintf(stderr, "tts-bench: passport: at most %d --suite\n", PP_MAX_SUITES);
                return 2;
            }
            po.suite[po.nsuites++] = val;
        } else if (strcmp(a, "--runs") == 0 || strcmp(a, "-n") == 0) {
            if (parse_count("passport: ", a, val, 100000, &po.runs))
                return 2;
        } else if (strcmp(a, "--hash") == 0) {
            if ((po.hash = passport_hash_id(val)) < 0) {
                fprintf(stderr, "tts-bench: passport: unknown --hash \"%s\" (sha1, sha256 or "
                                "sha512)\n",
                        val);
                return 2;
            }
        } else if (strcmp(a, "--card-dir") == 0) {
            card_dir = val;
        } else if (strcmp(a, "--card") == 0) {
            card = 1;
        } else if (strcmp(a, "--published") == 0) {
            po.published = 1;
        } else if (strcmp(a, "--force") == 0) {
            o.force = 1;
        } else if (!report_option(&o, a, val)) {
            fprintf(stderr, "tts-bench: passport: unknown option \"%s\"\n", a);
            return 2;
        }
        i += takes;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "tts-bench: libsodium initialisation failed\n");
        return 1;
    }
    static card_ctx cc;
    static passport_card pc;
    if (card) {
        cc.dir = card_dir ? card_dir : CARD_IMAGE_DIR;
        int any = 0;
        for (size_t k = 0; k < (po.nsuites ? po.nsuites : PP_MAX_SUITES); k++) {
            static const char *const tts_suites[2] = {"TTS(20,28)", "TTS(36,50)"};
            const tts_params *p;
            const char *name = po.nsuites ? po.suite[k] : k < 2 ? tts_suites[k] : "";
            if (!passport_suite_tts(name, &p))
                continue;
            const char *img = card_image(&cc, p);
            if (!img) {
                fprintf(stderr, "tts-bench: passport: --card: no card image %s/tts-%u-%u.ihx "
                        "(build the images with SDCC, or name their folder with --card-dir)\n",
                        cc.dir, tts_params_m(p), tts_params_n(p));
                return 2;
            }
            if (!card_probe(img, p)) {
                fprintf(stderr, "tts-bench: passport: --card: %s does not answer GET INFO as a "
                        "%s card within 10 s (is s51 on PATH?)\n", img, tts_params_name(p));
                return 2;
            }
            any = 1;
        }
        if (!any) {
            fprintf(stderr, "tts-bench: passport: --card needs a TTS suite (the card images "
                            "are TTS)\n");
            return 2;
        }
        pc = (passport_card){&cc, card_sign, card_image, "8032", 3.57, 12};
        po.card = &pc;
    }
    char err[1024] = "";
    /* each given input read once by the tools' reader first: a regular
     * file of bounded size, opened without blocking (a FIFO, a device or a
     * kernel file under /proc or /sys is refused, never waited on) */
    for (int i = 0; i < PP_NINPUTS; i++)
        if (po.given[i]) {
            uint8_t *b;
            size_t len;
            if (fileio_read(po.input[i], PP_INPUT_MAX, 0, &b, &len, NULL, err, sizeof err) !=
                FILEIO_OK) {
                fprintf(stderr, "tts-bench: passport: %s: %s\n", in_opt[i], err);
                return 2;
            }
            fileio_free(b, len);
        }
    if (pp_write_inputs(&po) || passport_check_inputs(&po, err, sizeof err)) {
        if (pp_tmp[0])
            fileio_temp_done(pp_tmp, 1);
        if (err[0])
            fprintf(stderr, "tts-bench: passport: %s\n", err);
        return 2;
    }
    if (outputs_open(&o)) {
        outputs_discard(&o);
        fileio_temp_done(pp_tmp, 1);
        return 2;
    }
    static char autob[16];
    snprintf(autob, sizeof autob, "%s", tts_backend());
    po.skip_dg_check = getenv("TTS_BENCH_PASSPORT_SKIP_DG_CHECK") != NULL;
    int rc = cmd_passport(&po, stdout, &o, autob);
    fileio_temp_done(pp_tmp, 1);
    return rc;
}

/* micro's options; the experiment is bench/exp_micro.c's */
static int micro_cli(int argc, char **argv)
{
    outputs o = {0};
    const char *dir = getenv("TTS_AVR_DIR");
    int help = 0;
    const cli_opt opts[] = {{"help", 'h', NULL, &help},   {"force", 0, NULL, &o.force},
                            {"json", 0, &o.json, NULL},   {"csv", 0, &o.csv, NULL},
                            {"plot", 0, &o.plot, NULL},   {"image-dir", 0, &dir, NULL},
                            CLI_OPT_END};
    int nops = cli_parse(argc - 1, argv + 1, opts);
    if (nops < 0)
        return 2;
    if (help) {
        micro_usage(stdout, AVR_IMAGE_DIR);
        return 0;
    }
    if (nops > 0)
        return cli_usage("micro: unexpected argument '%s'", argv[2]);
    return cmd_micro(dir ? dir : AVR_IMAGE_DIR, &o);
}

int main(int argc, char **argv)
{
    cli_prog = "tts-bench";
    card_set_prog(cli_prog); /* the card session's messages (passport --card) */
    cli_backend_check();
    bench_set_io(&tool_io);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("tts-bench (libtts) %s\n", tts_version());
        return 0;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "passport") == 0)
        return passport_cli(argc, argv);
    if (strcmp(cmd, "micro") == 0)
        return micro_cli(argc, argv);
    outputs o = {0};
    int quick = 0, cold = 0, help = 0;
    size_t runs = 0;
    const char *n_arg = NULL;
    const cli_opt opts[] = {{"quick", 0, NULL, &quick}, {"cold", 0, NULL, &cold},
                            {"force", 0, NULL, &o.force}, {"help", 'h', NULL, &help},
                            {"runs", 'n', &n_arg, NULL}, {"json", 0, &o.json, NULL},
                            {"csv", 0, &o.csv, NULL},     {"plot", 0, &o.plot, NULL},
                            CLI_OPT_END};
    int nops = cli_parse(argc - 1, argv + 1, opts);
    if (nops < 0)
        return 2;
    if (help) {
        usage(stdout);
        return 0;
    }
    if (nops > 0)
        return cli_usage("%s: unexpected argument '%s'", cmd, argv[2]);
    if (n_arg) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(n_arg, &end, 10);
        if (!*n_arg || *end || errno || n_arg[0] == '-' || v < 1 || v > 1000000)
            return cli_usage("%s: -n wants 1..1000000, not \"%s\"", cmd, n_arg);
        runs = v;
    }
    int is_prim = strcmp(cmd, "primitives") == 0, is_files = strcmp(cmd, "files") == 0,
        is_table = strcmp(cmd, "table") == 0;
    if (!is_prim && !is_files && !is_table) {
        fprintf(stderr, "tts-bench: unknown command \"%s\"\n"
                        "tts-bench: see 'tts-bench --help'\n", cmd);
        return 2;
    }
    if (is_files && cold) {
        fprintf(stderr, "tts-bench: files runs every size cold (run 1 as is): no --cold\n");
        return 2;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "tts-bench: libsodium initialisation failed\n");
        return 1;
    }
    if (outputs_open(&o)) { /* an output path that cannot be written */
        outputs_discard(&o);
        return 2;
    }
    static char autob[16];
    snprintf(autob, sizeof autob, "%s", tts_backend());
    if (is_prim)
        return cmd_primitives(runs ? runs : quick ? 15 : 200, quick, cold, &o, autob);
    if (is_files)
        return cmd_files(runs ? runs : quick ? QUICK_FILE_RUNS : FILE_RUNS, quick, &o, autob);
    return cmd_table(runs ? runs : 15, cold, &o, autob);
}
