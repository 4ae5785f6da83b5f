/* SPDX-License-Identifier: MIT */
/*
 * The AVR firmware (avr/) on a simulated ATmega328P (tools/avrsim.h),
 * against the host library:
 *
 *  - SIGN: for every image, the first keys of the set's KAT file (their sk
 *    and pk as the file has them, pinned by kat/SHA256SUMS) programmed into
 *    flash; signatures of several digests under the counters 0, 1, 2, ...
 *    equal to tts_sign_digest's driven by tts_card_stream_key's stream (the
 *    host's code, not the firmware's); the counter in EEPROM advanced.
 *  - VERIFY: the device's verdict equals tts_verify_digest's for the
 *    signature, every signature byte with one bit flipped, flipped digest
 *    bits, and a public key with a flipped coefficient in flash.
 *  - constant time: SIGN's cycles equal over keys, digests and counters
 *    (every signature whose first attempt succeeded, as the host counts).
 *  - the counter's rules: SIGN before INSTALL refused, an exhausted counter
 *    refused with the EEPROM untouched.
 *  - the assembly kernels (avr/chacha_rounds.S) and their C twins: the
 *    test-only image avr/tts-20-28-c.elf signs as the host does too.
 *
 * The work is bounded in simulated cycles: the whole test must stay under
 * 30 s of the UNO's 16 MHz (it prints its total). Exit 77 (skip) without
 * libsimavr or without the images.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <tts.h>

#include "device_test.h"

#include "avr_pk.h"
#include "avr_protocol.h"
#include "avrsim.h"

#define KEYS 3    /* KAT keys a set */
#define DIGESTS 3 /* digests a key */
#define BUDGET (30ull * 16000000ull)

static uint64_t total; /* simulated cycles */

static size_t cmd(avrsim *s, const uint8_t *c, size_t len, uint8_t *a, size_t cap,
                  avrsim_stats *st)
{
    avrsim_stats local;
    size_t alen = 0;
    char err[256];
    if (!st)
        st = &local;
    int rc = avrsim_cmd(s, c, len, a, cap, &alen, st, err, sizeof err);
    CHECK(rc == AVRSIM_OK, "command %c: %s", c[0], err);
    total += st->total;
    return rc == AVRSIM_OK ? alen : 0;
}

static uint8_t verify(avrsim *s, const uint8_t *sig, const uint8_t *h, unsigned m, unsigned n)
{
    uint8_t c[1 + TTS_MAX_N + TTS_MAX_M], a[4];
    c[0] = AVR_CMD_VERIFY;
    memcpy(c + 1, sig, n);
    memcpy(c + 1 + n, h, m);
    return cmd(s, c, 1 + n + m, a, sizeof a, NULL) == 1 ? a[0] : 0xFF;
}

/* The public key into the image's flash in its form (avrsim_pk_form) with
 * its zero list (avr/avr_pk.h). */
static int flash_pk(avrsim *s, const avrsim_info *in, const uint8_t *pk, size_t pkb, char *err,
                    size_t errlen)
{
    uint8_t *pl = malloc(pkb + AVR_PK_ZROOM);
    int rc = AVRSIM_ERROR;
    if (pl) {
        for (size_t i = 0; i < pkb; i++)
            pl[i] = avrsim_pk_form(pk[i]);
        if (avr_pk_zeros(pk, in->m, in->n, pl + pkb) >= 0)
            rc = avrsim_flash(s, in->pk_addr, pl, pkb + AVR_PK_ZROOM, err, errlen);
        free(pl);
    }
    return rc;
}

/* The set's image: SIGN and VERIFY against the host; SIGN's cycles of
 * first-attempt signatures into ct[] (*nct of them). */
static void test_set(const tts_params *p, const char *image, const char *katdir,
                     uint64_t *ct, int *nct, int deep)
{
    unsigned m = tts_params_m(p), n = tts_params_n(p);
    size_t skb = tts_sk_bytes(p), pkb = tts_pk_bytes(p);
    uint8_t *sk = malloc(skb), *pk = malloc(pkb);
    char kat[8192], err[256];
    snprintf(kat, sizeof kat, "%s/PQCsignKAT_%s.rsp", katdir, tts_params_id(p));
    for (int k = 0; k < KEYS && sk && pk; k++) {
        avrsim *s;
        avrsim_info in;
        if (kat_key(kat, k, pk, pkb, sk, skb) != 0) {
            CHECK(0, "%s: no key %d", kat, k);
            break;
        }
        if (avrsim_open(&s, image, NULL, &in, err, sizeof err) != AVRSIM_OK) {
            CHECK(0, "%s", err);
            break;
        }
        CHECK(in.m == m && in.n == n, "%s: INFO says %u,%u", image, in.m, in.n);
        uint8_t c[1 + TTS_MAX_M], a[1 + TTS_MAX_N + 8], h[TTS_MAX_M], sig[TTS_MAX_N], key[32];
        /* no key yet: SIGN refused */
        c[0] = AVR_CMD_SIGN;
        memset(c + 1, 0, m);
        CHECK(cmd(s, c, 1 + m, a, sizeof a, NULL) == 1 && a[0] == AVR_ENOKEY,
              "SIGN before INSTALL answered %02X", a[0]);
        CHECK(avrsim_program(s, sk, skb, pk, pkb, err, sizeof err) == AVRSIM_OK, "%s", err);
        for (uint32_t ctr = 0; ctr < DIGESTS; ctr++) {
            avrsim_stats st;
            char msg[32];
            snprintf(msg, sizeof msg, "key %d digest %u", k, (unsigned)ctr);
            tts_digest(p, h, (const uint8_t *)msg, strlen(msg));
            c[0] = AVR_CMD_SIGN;
            memcpy(c + 1, h, m);
            size_t alen = cmd(s, c, 1 + m, a, sizeof a, &st);
            /* the host's signature with the card's stream for this counter */
            tts_stream str;
            CHECK(tts_card_stream_key(p, key, sk, ctr, h) == TTS_OK, "stream key");
            tts_stream_init(&str, key);
            CHECK(tts_sign_digest(p, sig, h, sk, tts_stream_rng, &str) == TTS_OK, "host sign");
            CHECK(alen == 1 + n && a[0] == AVR_OK && !memcmp(a + 1, sig, n),
                  "%s %s: the AVR's signature differs from the host's", tts_params_name(p), msg);
            CHECK(tts_verify_digest(p, a + 1, h, pk) == TTS_OK, "host refuses the AVR's signature");
            if (str.calls == 1 && *nct < 64)
                ct[(*nct)++] = st.cycles;
            CHECK(verify(s, sig, h, m, n) == AVR_OK, "%s: VERIFY refused a good signature",
                  tts_params_name(p));
            tts_stream_wipe(&str);
        }
        c[0] = AVR_CMD_COUNTER;
        CHECK(cmd(s, c, 1, a, sizeof a, NULL) == 5 && a[0] == AVR_OK && a[1] == DIGESTS &&
                  !a[2] && !a[3] && !a[4], "COUNTER after %d signatures: %u", DIGESTS, a[1]);
        if (deep && k == 0) {
            /* every signature byte with one bit flipped, the digest's bits */
            for (unsigned b = 0; b < n; b++) {
                uint8_t f[TTS_MAX_N];
                memcpy(f, sig, n);
                f[b] ^= (uint8_t)(1u << (b % 8));
                int host = tts_verify_digest(p, f, h, pk);
                uint8_t dev = verify(s, f, h, m, n);
                CHECK((host == TTS_OK) == (dev == AVR_OK) && (dev == AVR_OK || dev == AVR_EBADSIG),
                      "signature bit %u: host %d, device %02X", b, host, dev);
            }
            for (unsigned b = 0; b < m; b += 3) {
                uint8_t g[TTS_MAX_M];
                memcpy(g, h, m);
                g[b] ^= (uint8_t)(0x80u >> (b % 8));
                CHECK(verify(s, sig, g, m, n) == AVR_EBADSIG &&
                          tts_verify_digest(p, sig, g, pk) != TTS_OK,
                      "digest bit %u accepted", b);
            }
            /* a coefficient of the public key in flash flipped (the key
             * and its zero list written again, as a programmer would):
             * the verdict is the host's on the same flipped key; the
             * last coefficient of the first key is 1, flipped to 0 */
            const size_t at[3] = {0, pkb / 2, pkb - 1};
            for (int j = 0; j < 3; j++) {
                pk[at[j]] ^= 0x01;
                CHECK(flash_pk(s, &in, pk, pkb, err, sizeof err) == AVRSIM_OK, "%s", err);
                int host = tts_verify_digest(p, sig, h, pk);
                uint8_t dev = verify(s, sig, h, m, n);
                CHECK((host == TTS_OK) == (dev == AVR_OK),
                      "pk byte %zu flipped: host %d, device %02X", at[j], host, dev);
                pk[at[j]] ^= 0x01;
                CHECK(flash_pk(s, &in, pk, pkb, err, sizeof err) == AVRSIM_OK, "%s", err);
            }
            /* the exhausted counter: refused, the EEPROM unchanged */
            uint8_t ee[AVRSIM_EEPROM], ee2[AVRSIM_EEPROM];
            avrsim *s2;
            CHECK(avrsim_eeprom(s, ee) == AVRSIM_OK, "EEPROM");
            memset(ee + AVR_EE_CTR, 0, 4); /* ~c: c = 2^32 - 1 */
            if (avrsim_open(&s2, image, ee, NULL, err, sizeof err) == AVRSIM_OK) {
                c[0] = AVR_CMD_SIGN;
                memcpy(c + 1, h, m);
                CHECK(avrsim_flash(s2, in.sk_addr, sk, skb, err, sizeof err) == AVRSIM_OK, "%s", err);
                CHECK(cmd(s2, c, 1 + m, a, sizeof a, NULL) == 1 && a[0] == AVR_ECOUNTER,
                      "SIGN with the counter at 2^32 - 1 answered %02X", a[0]);
                CHECK(avrsim_eeprom(s2, ee2) == AVRSIM_OK && !memcmp(ee, ee2, sizeof ee),
                      "the refused SIGN changed the EEPROM");
                avrsim_close(s2);
            } else {
                CHECK(0, "%s", err);
            }
        }
        avrsim_close(s);
    }
    free(sk);
    free(pk);
}

int main(void)
{
    const char *dir = getenv("AVR_IMAGE_DIR"), *src = getenv("srcdir");
    char katdir[4096], image[4096];
    struct stat st;
    if (!dir)
        dir = "avr";
    snprintf(katdir, sizeof katdir, "%s/kat", src ? src : ".");
    if (!avrsim_available()) {
        printf("SKIP: built without libsimavr (Debian packages simavr libsimavr-dev)\n");
        return 77;
    }
    snprintf(image, sizeof image, "%s/tts-20-28.elf", dir);
    if (stat(image, &st) != 0) {
        printf("SKIP: no AVR images in %s (Debian packages gcc-avr avr-libc)\n", dir);
        return 77;
    }
    uint64_t ct[64];
    int nct = 0, sets = 0;
    for (size_t i = 0; i < tts_params_count(); i++) {
        const tts_params *p = tts_params_at(i);
        int deep = !strcmp(tts_params_id(p), "tts-20-28");
        snprintf(image, sizeof image, "%s/%s.elf", dir, tts_params_id(p));
        if (stat(image, &st) != 0) {
            /* only the sets whose public key is larger than the flash */
            CHECK(tts_pk_bytes(p) > AVRSIM_FLASH, "%s: no image", tts_params_name(p));
            continue;
        }
        int before = nct;
        test_set(p, image, katdir, ct, &nct, deep);
        /* constant time within the set */
        for (int j = before + 1; j < nct; j++)
            CHECK(ct[j] == ct[before], "%s: SIGN took %llu cycles, and %llu another time",
                  tts_params_name(p), (unsigned long long)ct[j], (unsigned long long)ct[before]);
        CHECK(nct - before >= KEYS, "%s: only %d first-attempt signatures", tts_params_name(p),
              nct - before);
        printf("%s: %d first-attempt SIGNs, %llu cycles each\n", tts_params_name(p),
               nct - before, nct > before ? (unsigned long long)ct[before] : 0ull);
        sets++;
    }
    CHECK(sets == 6, "%d images", sets);

    /* the image of the C twins (avr/tts-20-28-c.elf): its signatures too */
    snprintf(image, sizeof image, "%s/tts-20-28-c.elf", dir);
    if (stat(image, &st) == 0) {
        int before = nct;
        test_set(tts_params_get("TTS(20,28)"), image, katdir, ct, &nct, 0);
        printf("TTS(20,28), C twins: %d first-attempt SIGNs, %llu cycles each\n", nct - before,
               nct > before ? (unsigned long long)ct[before] : 0ull);
    } else {
        CHECK(0, "no %s (make check builds it)", image);
    }

    printf("simulated: %llu cycles (%.1f s at 16 MHz; budget 30 s)\n",
           (unsigned long long)total, (double)total / 16e6);
    CHECK(total < BUDGET, "over the simulated budget");
    printf("%d failed\n", failures);
    return failures ? 1 : 0;
}
