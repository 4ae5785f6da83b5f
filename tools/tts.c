/* SPDX-License-Identifier: MIT */
/* tts: key generation, signing and verification from the command line.
 * Manual: tools/tts.1. Exit status: 0 success, 1 invalid signature, 2 any
 * usage or input error. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "cli.h"
#include "fileio.h"
#include "tts.h"
#include "tts_cli.h"
#include "ttsfile.h"

#define DEFAULT_SET "TTS(20,28)"
#define ERRLEN      512

static const char usage_text[] =
    "usage: tts COMMAND [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  params       list the parameter sets, their sizes and key generation's\n"
    "               workspace in bytes\n"
    "  keygen [--params SET] [--seed FILE] [--armor] [--force] -o NAME\n"
    "               write a key pair to NAME.pub and NAME.sec\n"
    "  sign -k KEY.sec [-o SIG] [--armor] [--force] [--no-verify]\n"
    "       [--max-bytes N] [FILE|-]\n"
    "               sign FILE (default: standard input)\n"
    "  verify -p KEY.pub -s SIG [--max-bytes N] [FILE|-]\n"
    "               check a signature of FILE (default: standard input)\n"
    "  pubkey -k KEY.sec [-o KEY.pub] [--armor] [--force]\n"
    "               recompute the public key of a secret key\n"
    "  upgrade-key -k OLD.sec -p KEY.pub -o NEW.sec [--armor] [--force]\n"
    "               bind a format-1 secret key to its public key (format 2)\n"
    "  convert [--params SET] [--kind pk|sk|sig] [--raw | --armor] [--force]\n"
    "          -o OUT [IN|-]\n"
    "               a key or signature between the tts file format and raw\n"
    "               bytes (tts-card --raw output): a tts file in\n"
    "               gives raw bytes (--raw) or a file again; raw bytes in\n"
    "               need --params (the kind follows from the length)\n"
    "  help         show this text (also --help, -h)\n"
    "  version      show the version (also --version)\n"
    "\n"
    "options:\n"
    "  --params SET     TTS(20,28) (default), tts-20-28 or 20,28; see params\n"
    "  --seed FILE      derive the key pair from the 32 bytes of FILE\n"
    "  -o, --output F   output: NAME prefix (keygen), file (sign, pubkey;\n"
    "                   default standard output)\n"
    "  -k, --key F      secret key file\n"
    "  -p, --pubkey F   public key file\n"
    "  -s, --sig F      signature file\n"
    "  -a, --armor      write base64 text instead of binary\n"
    "  -f, --force      replace existing output files\n"
    "  --no-verify      sign: skip the check of the signature before it is\n"
    "                   written\n"
    "  --max-bytes N    refuse a message longer than N bytes (streams)\n"
    "  -h, --help       show this text\n"
    "\n"
    "exit status: 0 success, 1 invalid signature, 2 usage or input error.\n"
    "TTS is broken by modern attacks: use it for research, never to protect\n"
    "real data.\n";

static int help(void)
{
    fputs(usage_text, stdout);
    return ST_OK;
}

/* ---- commands ------------------------------------------------------------ */

static int cmd_params(int argc, char **argv)
{
    int want_help = 0;
    const cli_opt opts[] = {{"help", 'h', NULL, &want_help}, CLI_OPT_END};
    int n = cli_parse(argc, argv, opts);

    if (n < 0)
        return ST_ERROR;
    if (want_help)
        return help();
    if (n > 0)
        return cli_usage("params: unexpected argument '%s'", argv[1]);
    printf("%-11s %3s %3s %3s %3s %3s %4s %9s %9s %10s %13s\n", "name", "m", "n",
           "v", "a", "b", "C", "sk bytes", "pk bytes", "sig bytes", "keygen work");
    for (size_t i = 0; i < tts_params_count(); i++) {
        const tts_params *p = tts_params_at(i);
        printf("%-11s %3u %3u %3u %3u %3u %4u %9zu %9zu %10zu %13zu\n",
               tts_params_name(p), tts_params_m(p), tts_params_n(p),
               tts_params_v(p), tts_params_a(p), tts_params_b(p),
               tts_params_coeffs(p), tts_sk_bytes(p), tts_pk_bytes(p),
               tts_sig_bytes(p), tts_keypair_workspace_bytes(p));
    }
    return ST_OK;
}

static char *with_suffix(const char *name, const char *suffix)
{
    size_t a = strlen(name), b = strlen(suffix);
    char *s = malloc(a + b + 1);

    if (s) {
        memcpy(s, name, a);
        memcpy(s + a, suffix, b + 1);
    }
    return s;
}

static int read_seed(const char *path, uint8_t seed[TTS_SEED_BYTES])
{
    char err[ERRLEN];
    uint8_t *buf;
    size_t len;

    /* a seed is as secret as a key: the same permission rule */
    if (ttsfile_read_raw(path, TTS_SEED_BYTES, TTSFILE_PRIVATE, &buf, &len,
                         err, sizeof err) != TTSFILE_OK)
        return strstr(err, "too large")
                   ? cli_fail("%s; a seed file holds exactly %d bytes", err,
                          TTS_SEED_BYTES)
                   : cli_fail("%s", err);
    if (len != TTS_SEED_BYTES) {
        tts_file_free(buf, len);
        return cli_fail("%s: seed file holds %zu bytes, expected exactly %d",
                    path, len, TTS_SEED_BYTES);
    }
    memcpy(seed, buf, TTS_SEED_BYTES);
    tts_file_free(buf, len);
    return ST_OK;
}

static int cmd_keygen(int argc, char **argv)
{
    const char *set = DEFAULT_SET, *seedpath = NULL, *name = NULL;
    int armor = 0, force = 0, want_help = 0;
    const cli_opt opts[] = {
        {"params", 0, &set, NULL},        {"seed", 0, &seedpath, NULL},
        {"output", 'o', &name, NULL},     {"armor", 'a', NULL, &armor},
        {"force", 'f', NULL, &force},     {"help", 'h', NULL, &want_help},
        CLI_OPT_END};
    int n = cli_parse(argc, argv, opts), st = ST_ERROR, rc;
    uint8_t seed[TTS_SEED_BYTES];
    uint8_t *pk = NULL, *sk = NULL;
    char *pubpath = NULL, *secpath = NULL;
    const tts_params *p;

    if (n < 0)
        return ST_ERROR;
    if (want_help)
        return help();
    if (n > 0)
        return cli_usage("keygen: unexpected argument '%s'", argv[1]);
    if (!name || !*name)
        return cli_usage("keygen: -o NAME is required");
    struct stat nst;
    if (name[strlen(name) - 1] == '/' ||
        (stat(name, &nst) == 0 && S_ISDIR(nst.st_mode)))
        return cli_fail("%s: is a directory; -o takes a file name prefix (NAME "
                    "gives NAME.pub and NAME.sec)", name);
    if ((p = tts_params_get(set)) == NULL)
        return cli_fail("unknown parameter set '%s' (see 'tts params')", set);
    if (seedpath && read_seed(seedpath, seed) != ST_OK)
        return ST_ERROR;

    pubpath = with_suffix(name, ".pub");
    secpath = with_suffix(name, ".sec");
    pk = malloc(tts_pk_bytes(p));
    sk = malloc(tts_sk_bytes(p));
    if (!pubpath || !secpath || !pk || !sk) {
        cli_fail("out of memory");
        goto out;
    }
    const char *seedin[1] = {seedpath};
    if (tts_cli_check_output(secpath, 1, force, seedin, 1) != ST_OK ||
        tts_cli_check_output(pubpath, 1, force, seedin, 1) != ST_OK)
        goto out;
    rc = seedpath ? tts_keypair_from_seed(p, pk, sk, seed)
                  : tts_keypair(p, pk, sk);
    if (rc != TTS_OK) {
        cli_fail("key generation failed: %s", tts_strerror(rc));
        goto out;
    }
    char err[ERRLEN];
    rc = ttsfile_write_pair(pubpath, secpath, p, pk, sk,
                            (armor ? TTS_FILE_ARMOR : 0) |
                                (force ? TTSFILE_FORCE : 0),
                            err, sizeof err);
    if (rc == TTSFILE_EXISTS)
        cli_fail("%s; use --force to overwrite", err);
    else if (rc != TTSFILE_OK)
        cli_fail("%s", err);
    else
        st = ST_OK;
out:
    sodium_memzero(seed, sizeof seed);
    if (sk)
        tts_file_free(sk, tts_sk_bytes(p));
    free(pk);
    free(pubpath);
    free(secpath);
    return st;
}

static int cmd_sign(int argc, char **argv)
{
    const char *keypath = NULL, *out = "-", *input = "-", *maxarg = NULL;
    int armor = 0, force = 0, noverify = 0, want_help = 0;
    const cli_opt opts[] = {
        {"key", 'k', &keypath, NULL},     {"output", 'o', &out, NULL},
        {"armor", 'a', NULL, &armor},     {"force", 'f', NULL, &force},
        {"no-verify", 0, NULL, &noverify}, {"max-bytes", 0, &maxarg, NULL},
        {"help", 'h', NULL, &want_help},  CLI_OPT_END};
    int n = cli_parse(argc, argv, opts), rc;
    uint8_t h[crypto_hash_sha512_BYTES], sig[TTS_MAX_SIG_BYTES];
    unsigned long long max;
    const tts_params *p;
    uint8_t *sk, *pk;
    size_t sklen;

    if (n < 0)
        return ST_ERROR;
    if (want_help)
        return help();
    if (n > 1)
        return cli_usage("sign: more than one input file");
    if (n == 1)
        input = argv[1];
    if (!keypath)
        return cli_usage("sign: -k KEY.sec is required");
    if (tts_cli_parse_max(maxarg, &max) != ST_OK)
        return ST_ERROR;
    if (tts_cli_same_stdin(keypath, input))
        return cli_fail("the key and the message cannot both be standard input");
    const char *inputs[2] = {keypath, input};
    if (tts_cli_check_output(out, armor, force, inputs, 2) != ST_OK ||
        tts_cli_load_secret(keypath, &p, &sk, &sklen, &pk) != ST_OK)
        return ST_ERROR;
    if (tts_cli_hash_input(input, max, h) != ST_OK) {
        tts_file_free(sk, sklen);
        free(pk);
        return ST_ERROR;
    }
    rc = tts_sign_digest(p, sig, h, sk, NULL, NULL);
    tts_file_free(sk, sklen);
    /* A fault (or a key corrupted where the checks on reading cannot see
     * it) must not give a signature that fails: check before writing. */
    if (rc == TTS_OK && !noverify &&
        tts_verify_digest(p, sig, h, pk) != TTS_OK)
        rc = TTS_EBADSIG;
    free(pk);
    if (rc == TTS_EBADSIG)
        return cli_fail("%s: the signature made does not verify under the key's "
                    "public key (a fault, or a corrupted key); nothing "
                    "written", keypath);
    if (rc != TTS_OK)
        return cli_fail("signing failed: %s", tts_strerror(rc));
    return tts_cli_save(out, TTS_FILE_SIGNATURE, p, sig,
                        (armor ? TTS_FILE_ARMOR : 0) | (force ? TTSFILE_FORCE : 0));
}

static int verdict(int rc)
{
    if (rc != TTS_OK && rc != TTS_EBADSIG)
        return cli_fail("verification failed: %s", tts_strerror(rc));
    fputs(rc == TTS_OK ? "valid\n" : "INVALID signature\n", stdout);
    return rc == TTS_OK ? ST_OK : ST_INVALID; /* main flushes stdout */
}

static int cmd_verify(int argc, char **argv)
{
    const char *pubpath = NULL, *sigpath = NULL, *input = "-", *maxarg = NULL;
    int want_help = 0;
    const cli_opt opts[] = {
        {"pubkey", 'p', &pubpath, NULL},  {"sig", 's', &sigpath, NULL},
        {"max-bytes", 0, &maxarg, NULL},
        {"help", 'h', NULL, &want_help},  CLI_OPT_END};
    unsigned long long max;
    int n = cli_parse(argc, argv, opts), st = ST_ERROR;
    uint8_t h[crypto_hash_sha512_BYTES];
    const tts_params *pp, *ps;
    uint8_t *pk = NULL, *sig = NULL;
    size_t pklen, siglen;

    if (n < 0)
        return ST_ERROR;
    if (want_help)
        return help();
    if (n > 1)
        return cli_usage("verify: more than one input file");
    if (n == 1)
        input = argv[1];
    if (!pubpath || !sigpath)
        return cli_usage("verify: -p KEY.pub and -s SIG are required");
    if (tts_cli_parse_max(maxarg, &max) != ST_OK)
        return ST_ERROR;
    if (tts_cli_same_stdin(pubpath, sigpath) || tts_cli_same_stdin(pubpath, input) ||
        tts_cli_same_stdin(sigpath, input))
        return cli_fail("only one of the key, the signature and the message "
                    "can be standard input");
    if (tts_cli_load(pubpath, TTS_FILE_PUBLIC_KEY, &pp, &pk, &pklen) != ST_OK ||
        tts_cli_load(sigpath, TTS_FILE_SIGNATURE, &ps, &sig, &siglen) != ST_OK)
        goto out;
    if (pp != ps) {
        cli_fail("%s: key is for %s, signature %s is for %s", pubpath,
             tts_params_name(pp), sigpath, tts_params_name(ps));
        goto out;
    }
    if (tts_cli_hash_input(input, max, h) == ST_OK)
        st = verdict(tts_verify_digest(pp, sig, h, pk));
out:
    free(pk);
    free(sig);
    return st;
}

static int cmd_pubkey(int argc, char **argv)
{
    const char *keypath = NULL, *out = "-";
    int armor = 0, force = 0, want_help = 0;
    const cli_opt opts[] = {
        {"key", 'k', &keypath, NULL},     {"output", 'o', &out, NULL},
        {"armor", 'a', NULL, &armor},     {"force", 'f', NULL, &force},
        {"help", 'h', NULL, &want_help},  CLI_OPT_END};
    int n = cli_parse(argc, argv, opts), rc;
    const tts_params *p;
    uint8_t *sk, *pk;
    size_t sklen;

    if (n < 0)
        return ST_ERROR;
    if (want_help)
        return help();
    if (n > 0)
        return cli_usage("pubkey: unexpected argument '%s'", argv[1]);
    if (!keypath)
        return cli_usage("pubkey: -k KEY.sec is required");
    const char *inputs[1] = {keypath};
    if (tts_cli_check_output(out, armor, force, inputs, 1) != ST_OK ||
        tts_cli_load_secret(keypath, &p, &sk, &sklen, &pk) != ST_OK)
        return ST_ERROR;
    tts_file_free(sk, sklen);
    rc = tts_cli_save(out, TTS_FILE_PUBLIC_KEY, p, pk,
                      (armor ? TTS_FILE_ARMOR : 0) | (force ? TTSFILE_FORCE : 0));
    free(pk);
    return rc;
}

/* A format-1 secret key (no binding) rewritten as format 2, bound to the
 * public key the user supplies: only if the key gives exactly that public
 * key, so a corrupted key is refused, never bound. */
/* The kind named on the command line, or 0. */
static int kind_of(const char *name)
{
    return !strcmp(name, "pk") ? TTS_FILE_PUBLIC_KEY
           : !strcmp(name, "sk") ? TTS_FILE_SECRET_KEY
           : !strcmp(name, "sig") ? TTS_FILE_SIGNATURE : 0;
}

/* A key or signature between the file format and raw bytes. The input is
 * a tts file (binary or armored, every check of docs/SPEC.md section 11)
 * or, failing that, raw bytes of the set --params gives, their kind told
 * by --kind or their length; a raw secret key must pass tts_sk_check. */
static int cmd_convert(int argc, char **argv)
{
    static const int kinds[] = {TTS_FILE_PUBLIC_KEY, TTS_FILE_SECRET_KEY,
                                TTS_FILE_SIGNATURE};
    const char *set = NULL, *kindname = NULL, *out = NULL, *in = "-";
    int raw = 0, armor = 0, force = 0, want_help = 0, kind = 0, st;
    const cli_opt opts[] = {
        {"params", 0, &set, NULL},     {"kind", 0, &kindname, NULL},
        {"output", 'o', &out, NULL},   {"raw", 0, NULL, &raw},
        {"armor", 'a', NULL, &armor},  {"force", 'f', NULL, &force},
        {"help", 'h', NULL, &want_help}, CLI_OPT_END};
    int n = cli_parse(argc, argv, opts);
    const tts_params *p = NULL, *want = NULL;
    uint8_t *buf = NULL, *obj = NULL;
    size_t len = 0, olen = 0;
    mode_t mode = 0;
    char err[ERRLEN];

    if (n < 0)
        return ST_ERROR;
    if (want_help)
        return help();
    if (n > 1)
        return cli_usage("convert: unexpected argument '%s'", argv[2]);
    if (n == 1)
        in = argv[1];
    if (!out)
        return cli_usage("convert: -o OUT is required");
    if (raw && armor)
        return cli_usage("convert: --raw and --armor exclude each other");
    if (kindname && !(kind = kind_of(kindname)))
        return cli_usage("convert: --kind wants pk, sk or sig, not '%s'",
                         kindname);
    if (set && !(want = tts_params_get(set)))
        return cli_usage("convert: unknown parameter set '%s'", set);
    const char *inputs[1] = {in};
    if (tts_cli_check_output(out, armor, force, inputs, 1) != ST_OK)
        return ST_ERROR;
    if (fileio_read(in, TTSFILE_MAX_BYTES, FILEIO_STDIN, &buf, &len, &mode,
                    err, sizeof err) != FILEIO_OK)
        return cli_fail("%s", err);
    /* a tts file of the kind asked for (or any kind; the reason kept is
     * one about the file, not "holds a ..., expected a ...") ... */
    char why[ERRLEN] = "";
    for (size_t k = 0; k < 3 && !obj; k++) {
        if (kind && kinds[k] != kind)
            continue;
        if (tts_file_decode(buf, len, kinds[k], 0, &p, &obj, &olen, err,
                            sizeof err) == TTS_OK)
            kind = kinds[k];
        else if (!why[0] || strstr(why, "expected a "))
            snprintf(why, sizeof why, "%s", err);
    }
    /* ... else raw bytes of the set given */
    if (!obj) {
        int lenkind = 0;
        if (!want) {
            fileio_free(buf, len);
            return cli_fail("%s: %s; raw bytes need --params SET",
                            fileio_display(in), why);
        }
        for (size_t k = 0; k < 3; k++)
            if (tts_file_payload_bytes(want, kinds[k]) == len)
                lenkind = kinds[k];
        if (!lenkind || (kind && kind != lenkind)) {
            fileio_free(buf, len);
            return cli_fail("%s: %zu bytes are no %s of %s (%zu, %zu or %zu "
                            "bytes)", fileio_display(in), len,
                            kind ? tts_file_kind_name(kind) : "key or signature",
                            tts_params_name(want),
                            tts_pk_bytes(want), tts_sk_bytes(want),
                            tts_sig_bytes(want));
        }
        kind = lenkind;
        p = want;
        obj = buf, olen = len, buf = NULL, len = 0;
        if (kind == TTS_FILE_SECRET_KEY && tts_sk_check(p, obj) != TTS_OK) {
            fileio_free(obj, olen);
            return cli_fail("%s: malformed secret key (s1 differs from F(A3 "
                            "s3), or a singular matrix)", fileio_display(in));
        }
    }
    fileio_free(buf, len);
    if (want && p != want) {
        fileio_free(obj, olen);
        return cli_fail("%s: holds a %s %s, not %s", fileio_display(in),
                        tts_params_name(p), tts_file_kind_name(kind),
                        tts_params_name(want));
    }
    if (kind == TTS_FILE_SECRET_KEY &&
        fileio_check_private(in, mode, err, sizeof err) != FILEIO_OK) {
        fileio_free(obj, olen);
        return cli_fail("%s", err);
    }
    if (raw) {
        unsigned fl = (force ? FILEIO_FORCE : 0) |
                      (kind == TTS_FILE_SECRET_KEY ? FILEIO_SECRET : 0);
        st = fileio_write(out, obj, olen, fl, err, sizeof err);
        st = st == FILEIO_OK ? ST_OK
             : cli_fail("%s%s", err, st == FILEIO_EXISTS
                                         ? "; use --force to overwrite" : "");
    } else {
        st = tts_cli_save(out, kind, p, obj,
                          (armor ? TTS_FILE_ARMOR : 0) | (force ? TTSFILE_FORCE : 0));
    }
    fileio_free(obj, olen);
    return st;
}

static int cmd_upgrade_key(int argc, char **argv)
{
    const char *keypath = NULL, *pubpath = NULL, *out = NULL;
    int armor = 0, force = 0, want_help = 0;
    const cli_opt opts[] = {
        {"key", 'k', &keypath, NULL},     {"pubkey", 'p', &pubpath, NULL},
        {"output", 'o', &out, NULL},      {"armor", 'a', NULL, &armor},
        {"force", 'f', NULL, &force},     {"help", 'h', NULL, &want_help},
        CLI_OPT_END};
    int n = cli_parse(argc, argv, opts), st = ST_ERROR;
    const tts_params *p, *pp;
    uint8_t *sk = NULL, *pub = NULL, *pk = NULL;
    size_t sklen = 0, publen = 0;
    char err[ERRLEN];

    if (n < 0)
        return ST_ERROR;
    if (want_help)
        return help();
    if (n > 0)
        return cli_usage("upgrade-key: unexpected argument '%s'", argv[1]);
    if (!keypath || !pubpath || !out)
        return cli_usage("upgrade-key: -k OLD.sec, -p KEY.pub and -o "
                          "NEW.sec are required");
    const char *inputs[2] = {keypath, pubpath};
    if (tts_cli_check_output(out, 1, force, inputs, 2) != ST_OK)
        return ST_ERROR;
    if (ttsfile_read_unbound(keypath, &p, &sk, &sklen, err, sizeof err) !=
        TTSFILE_OK)
        return cli_fail("%s", err);
    if (tts_cli_load(pubpath, TTS_FILE_PUBLIC_KEY, &pp, &pub, &publen) != ST_OK)
        goto out;
    if (pp != p) {
        cli_fail("%s is a %s key, %s a %s key", keypath, tts_params_name(p),
             pubpath, tts_params_name(pp));
        goto out;
    }
    if ((pk = malloc(tts_pk_bytes(p))) == NULL ||
        tts_pk_from_sk(p, pk, sk) != TTS_OK ||
        sodium_memcmp(pk, pub, tts_pk_bytes(p)) != 0) {
        cli_fail("%s: does not give the public key %s (corrupted, or another "
             "key's): refusing to bind it", keypath, pubpath);
        goto out;
    }
    st = tts_cli_save(out, TTS_FILE_SECRET_KEY, p, sk,
                      (armor ? TTS_FILE_ARMOR : 0) | (force ? TTSFILE_FORCE : 0));
out:
    tts_file_free(sk, sklen);
    free(pub);
    free(pk);
    return st;
}

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"params", cmd_params}, {"keygen", cmd_keygen}, {"sign", cmd_sign},
    {"verify", cmd_verify}, {"pubkey", cmd_pubkey},
    {"upgrade-key", cmd_upgrade_key}, {"convert", cmd_convert},
};

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;
    cli_prog = "tts";
    cli_backend_check();
    int st = -1;

    if (!cmd)
        return cli_usage("no command given");
    int bare = !strcmp(cmd, "help") || !strcmp(cmd, "--help") ||
               !strcmp(cmd, "-h") || !strcmp(cmd, "version") ||
               !strcmp(cmd, "--version");
    if (bare && argc > 2)
        return cli_usage("%s: unexpected argument '%s'", cmd, argv[2]);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
        st = help();
    else if (!strcmp(cmd, "version") || !strcmp(cmd, "--version"))
        st = printf("tts (libtts) %s, backend %s\n%s\n", tts_version(), tts_backend(),
                    TTS_BROKEN_NOTE) < 0 ? ST_ERROR : ST_OK;
    else if (sodium_init() < 0)
        return cli_fail("cannot initialise libsodium");
    for (size_t i = 0; st < 0 && i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            st = commands[i].run(argc - 1, argv + 1);
    if (st < 0)
        return cli_usage(cmd[0] == '-' ? "unknown option '%s'"
                                        : "unknown command '%s'", cmd);
    /* Text output is buffered: a full disk or closed pipe shows up here. */
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_fail("standard output: write error");
    return st;
}
