/*
 * tts-bench: TTS next to the signatures people know, on this machine, and
 * the published 2004 figures (tables B and C of docs/SPEC.md section 12)
 * next to today's measurement: the command line over the harness in
 * bench/ (bench/harness.h).
 *
 * usage: tts-bench primitives|table|files [--quick] [--cold] [-n RUNS]
 *                  [--json FILE] [--csv FILE] [--plot DIR]
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "harness.h"

/* ---- the harness's files, under the tools' file rules (tools/fileio.h) ---- */

static int io_rc(int rc)
{
    return rc == FILEIO_OK ? 0 : rc == FILEIO_EXISTS ? BENCH_IO_EXISTS
                              : rc == FILEIO_NOPROG ? BENCH_IO_NOPROG
                                                    : BENCH_IO_ERROR;
}

static int io_claim(const char *path, int force, char *err, size_t errlen)
{
    return io_rc(fileio_claim_output(path, force ? FILEIO_FORCE : 0, err, errlen));
}

static int io_close(FILE *f, int force, int discard, char *err, size_t errlen)
{
    return io_rc(fileio_stream_close(f, force ? FILEIO_FORCE : 0, discard, err, errlen));
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
            "       tts-bench --help\n"
            "REPORTS: [--json FILE] [--csv FILE] [--plot DIR] [--force]\n"
            "primitives: keygen/sign/verify of TTS (every backend), ECDSA (sect163k1,\n"
            "  sect163r2, P-256), RSA-PSS (1024, 2048, 3072) and Ed25519; median/min/\n"
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
            "  (-n default 15; always quick).\n"
            "--json FILE, --csv FILE: reports with the environment, aggregates and\n"
            "  per-run samples (schema: docs/bench-schema.json, installed with the docs).\n"
            "--plot DIR: gnuplot script, data and SVG + PNG charts in DIR (made if\n"
            "  missing); needs gnuplot on PATH, else the script and data are written\n"
            "  and the exit status is 1.\n"
            "--force: replace existing reports and charts (never an input; a link is\n"
            "  replaced, not followed).\n"
            "exit status: 0 ok, 1 a failed operation, report or chart, 2 usage error.\n");
}

int main(int argc, char **argv)
{
    bench_set_io(&tool_io);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    const char *cmd = argv[1];
    outputs o = {0};
    int quick = 0, cold = 0;
    size_t runs = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = strcmp(a, "-n") == 0 || strcmp(a, "--json") == 0 ||
                    strcmp(a, "--csv") == 0 || strcmp(a, "--plot") == 0;
        if (takes && (!val || !*val)) {
            fprintf(stderr, "tts-bench: %s needs a value\n", a);
            return 2;
        }
        if (strcmp(a, "--quick") == 0) {
            quick = 1;
        } else if (strcmp(a, "--force") == 0) {
            o.force = 1;
        } else if (strcmp(a, "--cold") == 0) {
            cold = 1;
        } else if (strcmp(a, "-n") == 0) {
            char *end;
            errno = 0;
            unsigned long v = strtoul(val, &end, 10);
            if (*end || errno || val[0] == '-' || v < 1 || v > 1000000) {
                fprintf(stderr, "tts-bench: -n wants 1..1000000, not \"%s\"\n", val);
                return 2;
            }
            runs = v;
        } else if (strcmp(a, "--json") == 0) {
            o.json = val;
        } else if (strcmp(a, "--csv") == 0) {
            o.csv = val;
        } else if (strcmp(a, "--plot") == 0) {
            o.plot = val;
        } else {
            fprintf(stderr, "tts-bench: unknown option \"%s\"\n", a);
            usage(stderr);
            return 2;
        }
        i += takes;
    }
    int is_prim = strcmp(cmd, "primitives") == 0, is_files = strcmp(cmd, "files") == 0,
        is_table = strcmp(cmd, "table") == 0;
    if (!is_prim && !is_files && !is_table) {
        fprintf(stderr, "tts-bench: unknown command \"%s\"\n", cmd);
        usage(stderr);
        return 2;
    }
    if (is_files && cold) {
        fprintf(stderr, "tts-bench: files runs every size cold (run 1 as is): no --cold\n");
        return 2;
    }
    if (is_table && quick) {
        fprintf(stderr, "tts-bench: table is always a quick run: no --quick\n");
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
