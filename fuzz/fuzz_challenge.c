/* SPDX-License-Identifier: MIT */
/*
 * The challenge folder as a whole, as an attacker prepares it: the input
 * is cut at the bytes "\n@@\n" into manifest.json, pk.tts, msg-1.txt,
 * msg-1.digest and the solution (raw or a signature file), written into
 * one TTS(16,22) instance folder, then verified. Invariant: a VALID
 * verdict is re-derived independently of chal_verify (the solution
 * verifies under the key in pk.tts over the bytes of msg-1.txt, the
 * key's SHA-256 is the manifest's pk_sha256, and the message's digest is
 * the manifest's and the .digest file's). reveal-check runs on the same
 * folder (with a fixed seed it can only report differences).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "challenge.h"
#include "challenge_cli.h"
#include "fuzz.h"
#include "tts_file.h"

static char top[64] = "";

static void put(const char *name, const uint8_t *b, size_t len)
{
    char path[160];
    snprintf(path, sizeof path, "%s/tts-16-22/%s", top, name);
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f);
    if (len)
        FUZZ_CHECK(fwrite(b, 1, len, f) == len);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *names[] = {"manifest.json", "pk.tts", "msg-1.txt",
                                  "msg-1.digest"};
    const uint8_t *part[5] = {0};
    size_t plen[5] = {0}, np = 0, start = 0;
    const tts_params *p = tts_params_get("TTS(16,22)");
    char err[512], sub[160];

    if (!top[0]) {
        snprintf(top, sizeof top, "/tmp/fuzz-challenge.XXXXXX");
        FUZZ_CHECK(mkdtemp(top));
        snprintf(sub, sizeof sub, "%s/tts-16-22", top);
        FUZZ_CHECK(mkdir(sub, 0755) == 0);
        FUZZ_CHECK(sodium_init() >= 0);
        challenge_io_init(); /* the tools' file rules */
    }
    for (size_t i = 0; i + 4 <= size && np < 4; i++)
        if (memcmp(data + i, "\n@@\n", 4) == 0) {
            part[np] = data + start;
            plen[np++] = i - start;
            start = i + 4;
            i += 3;
        }
    part[np] = data + start;
    plen[np++] = size - start;
    for (size_t i = 0; i < 4; i++)
        put(names[i], part[i], i < np ? plen[i] : 0);

    /* the solution: a signature file, or exactly 22 raw bytes */
    uint8_t sig[TTS_MAX_SIG_BYTES], *pay;
    size_t paylen;
    const tts_params *ps;
    if (np < 5)
        return 0;
    if (tts_file_decode(part[4], plen[4], TTS_FILE_SIGNATURE, 0, &ps, &pay, &paylen,
                       err, sizeof err) == TTS_OK) {
        memcpy(sig, pay, paylen);
        tts_file_free(pay, paylen);
        if (ps != p)
            return 0;
    } else if (plen[4] == tts_sig_bytes(p)) {
        memcpy(sig, part[4], plen[4]);
    } else {
        return 0;
    }
    chal_verdict v;
    int rc = chal_verify(top, p, sig, 1, NULL, &v, err, sizeof err);
    FUZZ_CHECK(rc == CHAL_VALID || rc == CHAL_INVALID || rc == CHAL_ERROR);
    if (rc == CHAL_VALID) {
        const tts_params *pp;
        uint8_t *pk, h[32], d[TTS_MAX_M];
        size_t pklen;
        chal_manifest m;
        FUZZ_CHECK(tts_file_decode(part[1], plen[1], TTS_FILE_PUBLIC_KEY, 0, &pp,
                                  &pk, &pklen, err, sizeof err) == TTS_OK);
        FUZZ_CHECK(pp == p);
        FUZZ_CHECK(tts_verify(p, sig, part[2], plen[2], pk) == TTS_OK);
        FUZZ_CHECK(chal_manifest_parse((const char *)part[0], plen[0], &m,
                                       err, sizeof err) == CHAL_OK);
        crypto_hash_sha256(h, pk, pklen);
        FUZZ_CHECK(memcmp(h, m.pk_sha256, 32) == 0);
        tts_digest(p, d, part[2], plen[2]);
        FUZZ_CHECK(memcmp(d, m.messages[0].digest, 16) == 0);
        FUZZ_CHECK(plen[3] == 16 && memcmp(d, part[3], 16) == 0);
        chal_manifest_free(&m);
        free(pk);
    }
    static const uint8_t master[CHAL_MASTER_BYTES];
    FILE *devnull = fopen("/dev/null", "w");
    FUZZ_CHECK(devnull);
    (void)chal_reveal_check(top, master, devnull, err, sizeof err);
    fclose(devnull);
    return 0;
}
