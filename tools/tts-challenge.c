/* SPDX-License-Identifier: MIT */
/*
 * tts-challenge: issue, check and assess a TTS Challenge; the command line
 * over challenge/ (challenge.h). Manual: tools/tts-challenge.1. Exit
 * status: 0 success / valid, 1 invalid or mismatch, 2 usage or input error.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "challenge.h"
#include "fileio.h"
#include "sflash_break.h"
#include "tts.h"
#include "ttsfile.h"

#include "challenge_cli.h"

#define MAX_ITEMS  64

static const char usage_text[] =
    "usage: tts-challenge COMMAND [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  estimate [--params LIST|all] [--json]\n"
    "        claimed vs estimated security bits per dimension\n"
    "  generate [--params LIST|all] [--instances K] [--master-seed FILE]\n"
    "           --date YYYY-MM-DD (--secret-out FILE | --discard-secret)\n"
    "           --out DIR\n"
    "        write one challenge folder per dimension under DIR (new): its\n"
    "        public key and K messages to forge (--instances, default 4:\n"
    "        msg-1.txt ... msg-K.txt, one key for all), the manifest (\"status\":\n"
    "        \"broken\"; historical_prize_usd is the prize of the 2004 challenge,\n"
    "        nothing is offered: TTS is broken, see break). SFLASH(26,37) in\n"
    "        LIST adds sflash-26-37/: pk.sflash (the raw 16,858-byte key),\n"
    "        messages, 23-byte SFLASH digests, a manifest with no prize (needs\n"
    "        OpenSSL)\n"
    "  verify DIR SOLUTION --message I [--set NAME] [--pk-sha256 HEX]\n"
    "        check a signature of challenge message I: a signature file\n"
    "        (binary or armored; its header names the dimension) or raw\n"
    "        bytes (the dimension from --set, or the only folder in DIR)\n"
    "  reveal-check DIR SEEDFILE\n"
    "        recompute every file of DIR from the revealed master seed\n"
    "  dreg M NV\n"
    "        degree of regularity of M semi-regular quadratic equations in\n"
    "        NV <= M variables, then the highest degree an F4-style solver\n"
    "        reaches (D_reg, or D_reg + 1 if the series is 0 there)\n"
    "  structure [--seed FILE] [--size V,A,B] [--tries N] [--measure]\n"
    "        MinRank attack on a toy TTS-like key (default 4,5,3; not a\n"
    "        challenge key): recover its hidden structure, check the secret\n"
    "  export DIR --message I --format FMT -o FILE [--set NAME]\n"
    "         [--equations E] [--fix K | --vars V]\n"
    "         [--fix-seed HEX [--try T] | --seed FILE] [--pk-sha256 HEX] [--force]\n"
    "        the system P(w) + h = 0 of message I for a solver; FMT is\n"
    "        singular, magma, sage or mq; --fix K (--vars n-K) fixes\n"
    "        w_{n-K}..w_{n-1}: random, toy's try T, or (--seed) the issuer's\n"
    "        signature, as toy fixes them; --equations keeps the first E\n"
    "  toy DIR --message I --equations E --vars V --json FILE [--set NAME]\n"
    "      [--solver singular] [--seed FILE | --fix-seed HEX]\n"
    "      [--max-tries T] [--timeout S] [--force] [--full-signature]\n"
    "        solve E equations in the unknowns w_0..w_{V-1} with Singular,\n"
    "        the other bytes fixed (from the genuine signature with the\n"
    "        master seed FILE, else random, retried up to T times); the\n"
    "        genuine branch's report is a secret (0600) and holds w_0..w_{V-1}\n"
    "        only, unless --full-signature\n"
    "  calibrate --json FILE --csv FILE [--max-seconds S] [--set NAME]\n"
    "            [--seed FILE] [--plot DIR] [--force]\n"
    "        toy attacks over a grid of sizes until S seconds are spent;\n"
    "        measured time and degree against the estimator\n"
    "  break DIR --set NAME [--message I]... -o OUTDIR [--key-out FILE]\n"
    "        (NAME may be SFLASH(26,37): OUTDIR/sflash-26-37-msg-I.sig)\n"
    "  break --pk FILE (--digest HEX | --message FILE) -o SIG [--key-out FILE]\n"
    "        [--seed FILE] [--json FILE] [--threads N] [--checkpoint FILE]\n"
    "        [--solver auto|dense|wiedemann] [--pk-sha256 HEX] [--force] [--quiet]\n"
    "        recover an equivalent key from the public key alone (exit 1:\n"
    "        no TTS structure) and sign challenge messages or a digest;\n"
    "        an SFLASH(26,37) key (its 16,858 bytes, or --set \"SFLASH(26,37)\")\n"
    "        is forged by the Dubois-Fouque-Shamir-Stern attack (exit 1: no C*-\n"
    "        structure); with --pk, --pk-sha256 is the SHA-256 of FILE (or of\n"
    "        the public key it holds), checked before the attack\n"
    "  forge --key FILE (--digest HEX | --message FILE) -o SIG\n"
    "  forge --key FILE DIR --message I... -o OUTDIR\n"
    "        sign with an equivalent key (or an SFLASH forger's key) that\n"
    "        break wrote\n"
    "  help  show this text\n"
    "\n"
    "LIST: comma-separated set names, e.g. tts-16-22,tts-20-28 or\n"
    "  16,22,20,28 or SFLASH(26,37), or all (default: the eight TTS sets);\n"
    "  --params may be repeated. estimate of SFLASH(26,37) runs its break.\n"
    "K defaults to 4. --master-seed reads exactly 32 bytes; without it the\n"
    "seed comes from the system generator and --secret-out FILE (outside\n"
    "DIR: never publish it) keeps it. The date is never taken from the\n"
    "clock.\n"
    "\n"
    "exit status: 0 success or VALID, 1 INVALID or mismatch, 2 usage or\n"
    "input error. --help: this text; --version: the version.\n";

static int add_one(unsigned *mask, const char *name)
{
    if (strcmp(name, "all") == 0) {
        *mask |= chal_set_mask_tts();
        return 1;
    }
    int set = chal_set_find(name);
    if (set < 0)
        return 0;
    *mask |= 1u << set;
    return 1;
}

/* Selected sets as a bit mask over the challenge's sets (chal_set_count).
 * arg is a comma-separated list of names (tts-16-22, TTS(16,22), 16,22,
 * SFLASH(26,37), sflash-26-37) or "all" (the eight TTS sets). */
int add_params(unsigned *mask, const char *arg)
{
    char buf[1024], two[2048];
    char *tok[MAX_ITEMS];
    size_t nt = 0;

    if (strlen(arg) >= sizeof buf)
        return cli_fail("--params: list too long");
    strcpy(buf, arg);
    if (add_one(mask, buf))
        return ST_OK;
    for (char *s = buf;;) {
        if (nt == MAX_ITEMS)
            return cli_fail("--params: more than %d items in '%s'", MAX_ITEMS,
                        arg);
        tok[nt++] = s;
        char *c = strchr(s, ',');
        if (!c)
            break;
        *c = 0;
        s = c + 1;
    }
    for (size_t i = 0; i < nt; i++) {
        if (add_one(mask, tok[i]))
            continue;
        if (i + 1 < nt) {
            snprintf(two, sizeof two, "%s,%s", tok[i], tok[i + 1]);
            if (add_one(mask, two)) {
                i++;
                continue;
            }
        }
        return cli_fail("unknown parameter set '%s' in '%s'", tok[i], arg);
    }
    return ST_OK;
}

/* ---- generate ------------------------------------------------------------ */

int read_master(const char *path, uint8_t master[CHAL_MASTER_BYTES])
{
    uint8_t *buf;
    size_t len;
    char err[256];

    if (fileio_read(path, CHAL_MASTER_BYTES + 1, FILEIO_SECRET, &buf, &len, NULL, err,
                    sizeof err) != FILEIO_OK)
        return cli_fail("%s", err);
    if (len != CHAL_MASTER_BYTES) {
        fileio_free(buf, len);
        return cli_fail("%s: master seed holds %s bytes, expected exactly %d",
                    path, len > CHAL_MASTER_BYTES ? "more than 32" : "fewer",
                    CHAL_MASTER_BYTES);
    }
    memcpy(master, buf, CHAL_MASTER_BYTES);
    fileio_free(buf, len);
    return ST_OK;
}

int parse_unsigned(const char *arg, unsigned long lo, unsigned long hi,
                   const char *name, unsigned *out)
{
    char *end;

    errno = 0;
    unsigned long v = strtoul(arg, &end, 10);
    if (errno || *end || arg[0] < '0' || arg[0] > '9' || v < lo || v > hi)
        return cli_fail("%s: expected a number %lu..%lu, not '%s'", name, lo, hi,
                    arg);
    *out = (unsigned)v;
    return ST_OK;
}

static int cmd_generate(int argc, char **argv)
{
    unsigned mask = 0, k = 4;
    const char *seedpath = NULL, *date = NULL, *out = NULL, *secret = NULL;
    int discard = 0;
    uint8_t master[CHAL_MASTER_BYTES];
    char err[1024];

    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (strcmp(a, "--params") == 0 && has) {
            if (add_params(&mask, argv[++i]) != ST_OK)
                return ST_ERROR;
        } else if (strcmp(a, "--instances") == 0 && has) {
            char *end;
            errno = 0;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (errno || *end || v < 1 || v > CHAL_MAX_INSTANCES ||
                argv[i][0] == '-')
                return cli_fail("--instances: expected 1..%d",
                            CHAL_MAX_INSTANCES);
            k = (unsigned)v;
        } else if (strcmp(a, "--master-seed") == 0 && has)
            seedpath = argv[++i];
        else if (strcmp(a, "--date") == 0 && has)
            date = argv[++i];
        else if (strcmp(a, "--out") == 0 && has)
            out = argv[++i];
        else if (strcmp(a, "--secret-out") == 0 && has)
            secret = argv[++i];
        else if (strcmp(a, "--discard-secret") == 0)
            discard = 1;
        else
            return cli_fail("generate: unexpected or incomplete argument '%s'",
                        a);
    }
    if (!out)
        return cli_fail("generate: --out DIR is required");
    if (!date)
        return cli_fail("generate: --date YYYY-MM-DD is required (the date is "
                    "never taken from the clock)");
    if (!chal_valid_date(date))
        return cli_fail("generate: bad date '%s', expected a calendar date "
                    "YYYY-MM-DD", date);
    if (secret && discard)
        return cli_fail("generate: --secret-out and --discard-secret exclude "
                    "each other");
    if (!secret && !discard && !seedpath)
        return cli_fail("generate: the master seed must be kept outside DIR "
                    "(--secret-out FILE) or thrown away (--discard-secret)");
    if (!mask)
        add_params(&mask, "all");
    if (seedpath) {
        if (read_master(seedpath, master) != ST_OK)
            return ST_ERROR;
    } else
        randombytes_buf(master, sizeof master);
    int rc = chal_generate(out, mask, k, date, master, secret, err,
                           sizeof err);
    sodium_memzero(master, sizeof master);
    if (rc != CHAL_OK)
        return cli_fail("%s", err);
    printf("challenge written to %s%s%s\n", out,
           secret ? "; master seed in " : discard ? " (master seed discarded)"
                                                  : "",
           secret ? secret : "");
    return ST_OK;
}

/* ---- verify and reveal-check --------------------------------------------- */

int only_set_index(const char *dir)
{
    DIR *d = opendir(dir);
    int found = -1, count = 0;

    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        int set = chal_set_of_folder_name(e->d_name);
        if (set >= 0) {
            found = set;
            count++;
        }
    }
    closedir(d);
    return count == 1 ? found : -1;
}

const tts_params *only_set(const char *dir)
{
    return chal_set_params(only_set_index(dir));
}

/* A solution: a TTS signature file (its header names the set) or raw
 * bytes, exactly the signature size of the set from --set or from the only
 * folder (an SFLASH signature: its 33 raw bytes). set: -1 if not given. */
static int read_solution(const char *path, const char *dir, int set, int *out,
                         uint8_t sig[TTS_MAX_SIG_BYTES])
{
    uint8_t *raw, *pay;
    size_t len, plen;
    char err[256], why[256];
    const tts_params *p;

    if (fileio_read(path, TTSFILE_MAX_BYTES, FILEIO_STDIN, &raw, &len, NULL,
                    err, sizeof err) != FILEIO_OK)
        return cli_fail("solution refused: %s", err);
    int framed = (len >= 3 && memcmp(raw, "TTS", 3) == 0) ||
                 (len >= 11 && memcmp(raw, "-----BEGIN ", 11) == 0);
    int rs = set >= 0 ? set : only_set_index(dir);
    if (framed && tts_file_decode(raw, len, TTS_FILE_SIGNATURE, 0, &p, &pay, &plen,
                                 why, sizeof why) == TTS_OK) {
        fileio_free(raw, len);
        if (set >= 0 && chal_set_of(p) != set) {
            fileio_free(pay, plen);
            return cli_fail("solution refused: %s is a signature of %s, not %s",
                        path, tts_params_name(p), chal_set_name(set));
        }
        memcpy(sig, pay, plen);
        fileio_free(pay, plen);
        *out = chal_set_of(p);
        return ST_OK;
    }
    if (rs >= 0 && len == chal_set_sig_bytes(rs)) {
        memcpy(sig, raw, len);
        fileio_free(raw, len);
        *out = rs;
        return ST_OK;
    }
    fileio_free(raw, len);
    if (framed && (rs < 0 || chal_set_params(rs)))
        return cli_fail("solution refused: %s: %s", path, why);
    if (rs < 0)
        return cli_fail("solution refused: %s is not a signature file; for raw "
                    "bytes name the dimension with --set (%s holds %s)",
                    path, dir, set >= 0 ? "it" : "no single challenge folder");
    return cli_fail("solution refused: %s holds %zu bytes; a raw %s signature is "
                "exactly %zu", path, len, chal_set_name(rs),
                chal_set_sig_bytes(rs));
}

static int cmd_verify(int argc, char **argv)
{
    const char *dir = NULL, *solpath = NULL, *msgarg = NULL, *setarg = NULL;
    const char *pinarg = NULL;
    int set = -1, p = -1;
    uint8_t sig[TTS_MAX_SIG_BYTES], pin[32];
    char err[1024];

    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--message") == 0 && i + 1 < argc)
            msgarg = argv[++i];
        else if (strcmp(argv[i], "--set") == 0 && i + 1 < argc)
            setarg = argv[++i];
        else if (strcmp(argv[i], "--pk-sha256") == 0 && i + 1 < argc)
            pinarg = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_fail("verify: unexpected argument '%s'", argv[i]);
        else if (!dir)
            dir = argv[i];
        else if (!solpath)
            solpath = argv[i];
        else
            return cli_fail("verify: too many arguments");
    }
    if (!dir || !solpath || !msgarg)
        return cli_fail("verify: usage: verify DIR SOLUTION --message I "
                    "[--set NAME] [--pk-sha256 HEX]");
    char *end;
    errno = 0;
    unsigned long idx = strtoul(msgarg, &end, 10);
    if (errno || *end || idx < 1 || idx > CHAL_MAX_INSTANCES ||
        msgarg[0] == '-')
        return cli_fail("verify: --message: expected a message number 1..%d",
                    CHAL_MAX_INSTANCES);
    if (setarg && (set = chal_set_find(setarg)) < 0)
        return cli_fail("verify: --set: unknown parameter set '%s'", setarg);
    size_t got;
    if (pinarg && (strlen(pinarg) != 64 ||
                   sodium_hex2bin(pin, sizeof pin, pinarg, 64, NULL, &got,
                                  NULL) != 0 || got != 32))
        return cli_fail("verify: --pk-sha256: expected 64 hex digits");
    if (read_solution(solpath, dir, set, &p, sig) != ST_OK)
        return ST_ERROR;
    chal_verdict v;
    int rc = chal_verify_set(dir, p, sig, (unsigned)idx, pinarg ? pin : NULL,
                             &v, err, sizeof err);
    if (rc == CHAL_ERROR)
        return cli_fail("%s", err);
    if (rc == CHAL_VALID)
        printf("VALID: signature of %s challenge message %lu verifies under "
               "the public key with SHA-256 %s%s\n", chal_set_name(p), idx,
               v.pk_sha256_hex, pinarg ? " (the published value)" :
               " (compare it with the published value)");
    else
        printf("INVALID: P(signature) differs from the digest of %s "
               "challenge message %lu\n", chal_set_name(p), idx);
    return rc == CHAL_VALID ? ST_OK : ST_INVALID;
}

static int cmd_reveal_check(int argc, char **argv)
{
    uint8_t master[CHAL_MASTER_BYTES];
    char err[1024];

    if (argc != 2)
        return cli_fail("reveal-check: usage: reveal-check DIR SEEDFILE");
    if (read_master(argv[1], master) != ST_OK)
        return ST_ERROR;
    int rc = chal_reveal_check(argv[0], master, stdout, err, sizeof err);
    sodium_memzero(master, sizeof master);
    if (rc == CHAL_ERROR)
        return cli_fail("%s", err);
    return rc == CHAL_OK ? ST_OK : ST_INVALID;
}

static int cmd_dreg(int argc, char **argv)
{
    char *e1, *e2;

    if (argc != 2)
        return cli_fail("dreg: usage: dreg M NV (1 <= NV <= M <= 1000)");
    errno = 0;
    unsigned long m = strtoul(argv[0], &e1, 10);
    unsigned long nv = strtoul(argv[1], &e2, 10);
    if (errno || *e1 || *e2 || argv[0][0] == '-' || argv[1][0] == '-' ||
        m < 1 || m > 1000 || nv < 1 || nv > m)
        return cli_fail("dreg: expected 1 <= NV <= M <= 1000");
    printf("%u %u\n", chal_dreg((unsigned)m, (unsigned)nv),
           chal_solver_degree((unsigned)m, (unsigned)nv));
    return ST_OK;
}

/* ---- structure: the toy MinRank attack (docs/SECURITY.md section 4) ---- */

static int cmd_structure(int argc, char **argv)
{
    uint8_t seed[32];
    unsigned v = 4, a = 5, b = 3;
    unsigned long long tries = 1ull << 24;
    int measure = 0, have_seed = 0;
    char err[256] = "", hex[65];

    for (int i = 0; i < argc; i++) {
        const char *o = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        size_t got;
        char *e, c;
        if (strcmp(o, "--measure") == 0) {
            measure = 1;
        } else if (strcmp(o, "--seed") == 0 && val) {
            /* a FILE, as every --seed of the tools: 32 bytes, or their 64
             * hex digits (the "seed" line a run prints) */
            uint8_t *b;
            size_t blen;
            char ferr[512];
            if (fileio_read(val, 200, 0, &b, &blen, NULL, ferr, sizeof ferr) != FILEIO_OK)
                return cli_fail("structure: --seed: %s", ferr);
            got = blen == sizeof seed ? (memcpy(seed, b, sizeof seed), sizeof seed)
                  : (size_t)cli_hex((const char *)b, blen, seed, sizeof seed);
            fileio_free(b, blen);
            if (got != sizeof seed)
                return cli_fail("structure: --seed %s: expected 32 bytes, or their "
                                "64 hex digits", val);
            have_seed = 1, i++;
        } else if (strcmp(o, "--size") == 0 && val) {
            /* digits only: %u would read "-4294967292" as 4 */
            if (strspn(val, "0123456789,") != strlen(val) ||
                sscanf(val, "%u,%u,%u%c", &v, &a, &b, &c) != 3 ||
                strlen(val) > 3 * 3 + 2 || !chal_toy_shape_ok(v, a, b))
                return cli_fail("structure: --size V,A,B: v even, 4 <= v < a <= "
                            "2v-1, 1 <= b <= a, a+2+b <= %d", CHAL_TOY_MAX_M);
            i++;
        } else if (strcmp(o, "--tries") == 0 && val) {
            errno = 0;
            tries = strtoull(val, &e, 10);
            if (errno || *e || val[0] == '-' || !tries)
                return cli_fail("structure: --tries: expected a positive count");
            i++;
        } else
            return cli_fail("structure: unexpected argument '%s'", o);
    }
    if (!have_seed)
        randombytes_buf(seed, sizeof seed);
    sodium_bin2hex(hex, sizeof hex, seed, sizeof seed);
    chal_toy_key *k = malloc(sizeof *k);
    chal_minrank_result *r = malloc(sizeof *r);
    if (!k || !r || chal_toy_keygen(k, v, a, b, seed, err, sizeof err) != CHAL_OK ||
        chal_toy_attack(k, seed, tries, measure, r) != CHAL_OK) {
        free(k), free(r);
        return cli_fail("structure: %s", err[0] ? err : "out of memory");
    }
    unsigned long long mid = r->by_group[1] + r->by_group[2];
    printf("toy TTS-like key (structure.c's own generator, not a challenge "
           "key): v=%u a=%u b=%u, m=%u n=%u\nseed %s\n", v, a, b, k->m, k->n,
           hex);
    snprintf(err, sizeof err, r->solutions ? "%u" : "none", r->min_rank);
    printf("kernel guessing: %llu tries in %.2f s (%.2f us/try), %llu with a "
           "solution mu, %llu hits of rank <= v+a = %u (lowest rank %s), %llu "
           "rejected\n", r->tries, r->seconds,
           1e6 * r->seconds / (double)r->tries, r->solutions, r->hits, v + a,
           err, r->rejected);
    printf("hits by secret group: layer 1 %llu, +mu1 %llu, +mu2 %llu, other "
           "%llu; model q^-(v-2) = 2^-%u per try and middle group",
           r->by_group[0], r->by_group[1], r->by_group[2], r->by_group[3],
           8 * (v - 2));
    if (mid)
        printf(", measured 2^%.1f", r->log2_middle_rate);
    printf("\n");
    if (r->tries_to_span)
        printf("span complete after %llu tries\n", r->tries_to_span);
    printf("recovered: %u-dimensional span of public combinations (layer 1 + "
           "middle: %u expected): %s\n", r->du, a + 2,
           r->span_ok ? "matches the secret" : "does NOT match the secret");
    printf("recovered: %u-dimensional common kernel of their polar forms "
           "(x_0, x_mu2, layer 3: %u expected): %s\n", r->dk, k->n - k->support,
           r->kernel_ok ? "matches the secret" : "does NOT match the secret");
    int ok = r->span_ok && r->kernel_ok;
    free(k), free(r);
    return ok ? ST_OK : ST_INVALID;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } commands[] = {
        {"estimate", cmd_estimate}, {"generate", cmd_generate},
        {"verify", cmd_verify},     {"reveal-check", cmd_reveal_check},
        {"dreg", cmd_dreg},         {"structure", cmd_structure},
        {"export", cmd_export},     {"toy", cmd_toy},
        {"calibrate", cmd_calibrate}, {"break", cmd_break},
        {"forge", cmd_forge},
    };

    cli_prog = "tts-challenge";
    cli_backend_check();
    challenge_io_init();
    challenge_sflash_init();
    if (argc < 2) {
        fputs(usage_text, stderr);
        return ST_ERROR;
    }
    const char *c = argv[1];
    if (strcmp(c, "help") == 0 || strcmp(c, "--help") == 0 ||
        strcmp(c, "-h") == 0) {
        if (argc > 2)
            return cli_fail("help: unexpected argument '%s'", argv[2]);
        fputs(usage_text, stdout);
        return ST_OK;
    }
    if (strcmp(c, "version") == 0 || strcmp(c, "--version") == 0) {
        if (argc > 2)
            return cli_usage("%s: unexpected argument '%s'", c, argv[2]);
        printf("tts-challenge (libtts) %s\n", tts_version());
        return ST_OK;
    }
    if (sodium_init() < 0)
        return cli_fail("libsodium failed to initialise");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(c, commands[i].name) == 0) {
            /* COMMAND --help (-h) before any "--": the usage, exit 0 */
            for (int a = 2; a < argc && strcmp(argv[a], "--") != 0; a++)
                if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
                    fputs(usage_text, stdout);
                    return ST_OK;
                }
            int st = commands[i].run(argc - 2, argv + 2);
            if (fflush(stdout) != 0 || ferror(stdout))
                return st == ST_ERROR ? st : cli_fail("standard output: write "
                                                  "error");
            return st;
        }
    return cli_usage("unknown command '%s'", c);
}
