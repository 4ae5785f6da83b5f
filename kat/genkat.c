/* SPDX-License-Identifier: MIT */
/*
 * PQCgenKAT_sign for TTS: writes the NIST known-answer file of one or all
 * parameter sets, exactly as NIST's generator does (request entries drawn
 * from an AES-256 CTR DRBG seeded with bytes 0..47; per entry the DRBG is
 * re-seeded with the entry's seed, crypto_sign_keypair draws 32 bytes,
 * crypto_sign draws v bytes per attempt).
 *
 * Usage: tts-genkat --help (kat/tts-genkat.1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "drbg.h"
#include "tts.h"

static void hex(FILE *f, const char *label, const uint8_t *a, size_t len)
{
    fputs(label, f);
    for (size_t i = 0; i < len; i++)
        fprintf(f, "%02X", a[i]);
    if (len == 0)
        fputs("00", f);
    fputc('\n', f);
}

static int genkat(const tts_params *p, unsigned count, const char *dir)
{
    char path[4096];
    const unsigned n = tts_params_n(p);
    const size_t pkb = tts_pk_bytes(p), skb = tts_sk_bytes(p);
    int rc = 1;
    uint8_t entropy[48], seed[48];
    uint8_t *msg = malloc(33 * (size_t)count + 1);
    uint8_t *sm = malloc(33 * (size_t)count + n + 1);
    uint8_t *m1 = malloc(33 * (size_t)count + n + 1);
    uint8_t *pk = malloc(pkb), *sk = malloc(skb);
    tts_drbg master, entry;

    snprintf(path, sizeof path, "%s/PQCsignKAT_%s.rsp", dir, tts_params_id(p));
    FILE *f = fopen(path, "w");
    if (!f || !msg || !sm || !m1 || !pk || !sk) {
        fprintf(stderr, "tts-genkat: %s: %s\n", path, strerror(errno));
        goto out;
    }
    for (int i = 0; i < 48; i++)
        entropy[i] = (uint8_t)i;
    if (tts_drbg_init(&master, entropy, NULL))
        goto fail;
    fprintf(f, "# %s\n\n", tts_params_name(p));
    for (unsigned i = 0; i < count; i++) {
        unsigned long long mlen = 33ull * (i + 1), smlen = 0, mlen1 = 0;
        if (tts_drbg_randombytes(&master, seed, 48)
            || tts_drbg_randombytes(&master, msg, (size_t)mlen))
            goto fail;
        fprintf(f, "count = %u\n", i);
        hex(f, "seed = ", seed, 48);
        fprintf(f, "mlen = %llu\n", mlen);
        hex(f, "msg = ", msg, (size_t)mlen);
        if (tts_drbg_init(&entry, seed, NULL)
            || tts_crypto_sign_keypair(p, pk, sk, tts_drbg_randombytes, &entry)
            || tts_crypto_sign(p, sm, &smlen, msg, mlen, sk, tts_drbg_randombytes,
                               &entry)) {
            fprintf(stderr, "tts-genkat: %s entry %u failed\n", tts_params_name(p), i);
            goto fail;
        }
        hex(f, "pk = ", pk, pkb);
        hex(f, "sk = ", sk, skb);
        fprintf(f, "smlen = %llu\n", smlen);
        hex(f, "sm = ", sm, (size_t)smlen);
        fputc('\n', f);
        /* As NIST's generator does: the signature must open. */
        if (tts_crypto_sign_open(p, m1, &mlen1, sm, smlen, pk) || mlen1 != mlen
            || memcmp(m1, msg, (size_t)mlen)) {
            fprintf(stderr, "tts-genkat: %s entry %u does not verify\n",
                    tts_params_name(p), i);
            goto fail;
        }
    }
    rc = 0;
fail:
    if (fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "tts-genkat: %s: %s\n", path, strerror(errno));
        rc = 1;
    }
    f = NULL;
out:
    if (f)
        fclose(f);
    free(msg);
    free(sm);
    free(m1);
    free(pk);
    free(sk);
    return rc;
}

static const char usage_text[] =
    "usage: tts-genkat [-n COUNT] [-d DIR] [SET ...]\n"
    "       tts-genkat -p | -l | --help | --version\n"
    "\n"
    "Writes PQCsignKAT_tts-M-N.rsp, NIST's known-answer file, for each SET\n"
    "(default: all eight) into DIR, exactly as NIST's PQCgenKAT_sign does.\n"
    "\n"
    "  -n COUNT   entries per file, 1..1000 (default 100)\n"
    "  -d DIR     the folder to write into (default: the current one)\n"
    "  -p         print the backend that would be used and exit (TTS_BACKEND\n"
    "             in the environment chooses another: ref, swar, avx2, gfni)\n"
    "  -l         list the backends built in and exit\n"
    "  SET        TTS(20,28), tts-20-28 or 20,28\n"
    "\n"
    "Check the files against the committed hashes:\n"
    "  tts-genkat -d out && (cd out && sha256sum -c SRCDIR/kat/SHA256SUMS)\n"
    "or simply `make kat`. Every backend writes the same bytes.\n"
    "exit status: 0 written, 1 a file could not be written, 2 usage error.\n"
    "\n" TTS_BROKEN_NOTE "\n";

int main(int argc, char **argv)
{
    const char *pin = getenv("TTS_BACKEND"); /* a mistyped one is said, not silent */
    if (pin && *pin && strcmp(pin, tts_backend()) != 0)
        fprintf(stderr, "tts-genkat: warning: TTS_BACKEND=%s is not a backend of this build "
                "that this CPU runs; using %s\n", pin, tts_backend());
    unsigned count = 100;
    const char *dir = ".";
    int i = 1, rc = 0, any = 0;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            char *end;
            unsigned long c = strtoul(argv[++i], &end, 10);
            if (*end || c == 0 || c > 1000) {
                fprintf(stderr, "tts-genkat: -n wants 1..1000\n");
                return 2;
            }
            count = (unsigned)c;
        } else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc) {
            dir = argv[++i];
            /* made if missing (its parent must exist) */
            struct stat st;
            if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
                fprintf(stderr, "tts-genkat: -d %s: cannot create it: %s\n", dir, strerror(errno));
                return 2;
            }
            if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
                fprintf(stderr, "tts-genkat: -d %s: not a folder\n", dir);
                return 2;
            }
        } else if (strcmp(argv[i], "-p") == 0) { /* the backend in use (TTS_BACKEND) */
            printf("%s\n", tts_backend());
            return 0;
        } else if (strcmp(argv[i], "-l") == 0) { /* the backends built in */
            for (size_t b = 0; tts_backend_at(b); b++)
                printf("%s\n", tts_backend_at(b));
            return 0;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("tts-genkat (libtts) %s\n%s\n", tts_version(), TTS_BROKEN_NOTE);
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "tts-genkat: unknown option '%s' (or a missing value)\n"
                            "tts-genkat: see 'tts-genkat --help'\n", argv[i]);
            return 2;
        } else {
            const tts_params *p = tts_params_get(argv[i]);
            if (!p) {
                fprintf(stderr, "tts-genkat: unknown parameter set '%s'\n", argv[i]);
                return 2;
            }
            rc |= genkat(p, count, dir);
            any = 1;
        }
    }
    for (size_t s = 0; !any && s < tts_params_count(); s++)
        rc |= genkat(tts_params_at(s), count, dir);
    return rc;
}
