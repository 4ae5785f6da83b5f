/* SPDX-License-Identifier: MIT */
/*
 * The Cortex-M3 build of the AVR firmware's SIGN and VERIFY
 * (cortexm/tts-20-28.elf) under qemu-system-arm (lm3s6965evb), against the
 * host library: for the first three keys of the TTS(20,28) KAT file (sk
 * and pk as the file has them), loaded into the image's flash, the three
 * signatures it prints (digests h_j = 7 j + 31 k + 1, counters k = 0, 1, 2:
 * cortexm/main.c) equal tts_sign_digest's driven by tts_card_stream_key's
 * stream, VERIFY accepts each and refuses it with its first byte flipped,
 * as tts_verify_digest does. QEMU counts no cycles: correctness only.
 *
 * Exit 77 (skip) without the image or QEMU (configure's QEMU_SYSTEM_ARM).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tts.h>

#include "device_test.h"

#include "avrsim.h"

#ifndef QEMU_SYSTEM_ARM
#define QEMU_SYSTEM_ARM "qemu-system-arm"
#endif

#define CM_SK_ADDR 0x30000 /* cortexm/cm.ld */
#define CM_PK_ADDR 0x32000

static int put(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(b, 1, n, f) == n;
    return (f && fclose(f) == 0 && ok) ? 0 : -1;
}

int main(void)
{
    const char *src = getenv("srcdir"), *image = "cortexm/tts-20-28.elf";
    const tts_params *p = tts_params_get("TTS(20,28)");
    size_t skb = tts_sk_bytes(p), pkb = tts_pk_bytes(p), m = 20, n = 28;
    char kat[4096], tmpl[] = "/tmp/tts-cortexm.XXXXXX", cmd[8192], skf[64], pkf[64];
    struct stat st;
    if (stat(image, &st) != 0) {
        printf("SKIP: no Cortex-M image (Debian packages gcc-arm-none-eabi)\n");
        return 77;
    }
    if (system(QEMU_SYSTEM_ARM " -version >/dev/null 2>&1") != 0) {
        printf("SKIP: no %s (Debian package qemu-system-arm)\n", QEMU_SYSTEM_ARM);
        return 77;
    }
    snprintf(kat, sizeof kat, "%s/kat/PQCsignKAT_tts-20-28.rsp", src ? src : ".");
    uint8_t *sk = malloc(skb), *pk = malloc(pkb), *pl = malloc(pkb);
    if (!sk || !pk || !pl || !mkdtemp(tmpl))
        return 99;
    snprintf(skf, sizeof skf, "%s/sk", tmpl);
    snprintf(pkf, sizeof pkf, "%s/pk", tmpl);
    for (int key = 0; key < 3; key++) {
        if (kat_key(kat, key, pk, pkb, sk, skb) != 0) {
            CHECK(0, "%s: no key %d", kat, key);
            break;
        }
        for (size_t i = 0; i < pkb; i++)
            pl[i] = avrsim_pk_form(pk[i]);
        CHECK(put(skf, sk, skb) == 0 && put(pkf, pl, pkb) == 0, "cannot write %s", tmpl);
        /* (the guard only stops a hung QEMU; a run takes well under a second) */
        snprintf(cmd, sizeof cmd,
                 "timeout 120 " QEMU_SYSTEM_ARM " -M lm3s6965evb -nographic -monitor none "
                 "-serial none -semihosting-config enable=on,target=native -kernel %s "
                 "-device loader,file=%s,addr=0x%x -device loader,file=%s,addr=0x%x 2>&1",
                 image, skf, CM_SK_ADDR, pkf, CM_PK_ADDR);
        FILE *q = popen(cmd, "r");
        char line[256];
        int seen = 0;
        while (q && fgets(line, sizeof line, q)) {
            char tag;
            unsigned k, rc;
            if (sscanf(line, "%c %u %2x", &tag, &k, &rc) != 3 || k > 2)
                continue;
            uint8_t h[TTS_MAX_M], sig[TTS_MAX_N], want[TTS_MAX_N], skey[32];
            for (size_t j = 0; j < m; j++)
                h[j] = (uint8_t)(7 * j + 31 * k + 1);
            tts_stream s;
            CHECK(tts_card_stream_key(p, skey, sk, k, h) == TTS_OK, "stream key");
            tts_stream_init(&s, skey);
            CHECK(tts_sign_digest(p, want, h, sk, tts_stream_rng, &s) == TTS_OK, "host sign");
            if (tag == 'S') {
                CHECK(rc == 0 && strlen(line) >= 7 + 2 * n &&
                          unhex(line + 7, sig, n) == (int)n && !memcmp(sig, want, n),
                      "key %d digest %u: the Cortex-M signature differs from the host's", key, k);
                seen++;
            } else if (tag == 'V') {
                CHECK(rc == 0, "key %d digest %u: VERIFY refused a good signature", key, k);
                seen++;
            } else if (tag == 'F') {
                want[0] ^= 1;
                CHECK(rc == 1 && tts_verify_digest(p, want, h, pk) != TTS_OK,
                      "key %d digest %u: a flipped byte: device %u", key, k, rc);
                seen++;
            }
        }
        CHECK(q && pclose(q) == 0, "key %d: QEMU failed", key);
        CHECK(seen == 9, "key %d: %d answers of 9", key, seen);
    }
    unlink(skf);
    unlink(pkf);
    rmdir(tmpl);
    free(sk);
    free(pk);
    free(pl);
    printf("Cortex-M3 (qemu lm3s6965evb): %s\n", failures ? "FAILED" : "the signatures are the host's");
    return failures ? 1 : 0;
}
