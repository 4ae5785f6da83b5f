/* SPDX-License-Identifier: MIT */
/*
 * The AVR firmware (avr/) on a simulated ATmega328P, and ATmega2560 for
 * TTS(32,44) and TTS(36,50) (host/avrsim.h), against the host library:
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
 *    refused with the EEPROM untouched; the counter in its two slots
 *    (avr/avr_protocol.h) after each SIGN.
 *  - the PIN: VERIFY and VERIFY PIN on a device with no key refused
 *    (AVR_ENOKEY); SIGN refused until VERIFY PIN in each session; a wrong
 *    PIN spends a try and the right one gives it back; three wrong PINs
 *    block it, the right one included.
 *  - the assembly kernels (avr/gf_*.S, chacha_rounds.S, wipe.S) and their
 *    C twins: the test-only image avr/tts-20-28-c.elf signs as the host
 *    does too.
 *  - the budget of TTS(20,28) (docs/AVR.md): SIGN and VERIFY at most
 *    80,000 cycles each, the SRAM peaks at most 1 KB, the code (the flash
 *    without the keys' room) at most 8 KB.
 *  - the signature checked before it leaves (avr/tts-20-28-check.elf,
 *    -DAVR_SIGN_CHECK): the host's signatures, SIGN's cycles less its own
 *    VERIFY's constant, SIGN within 160,000 cycles; a bit of the secret
 *    key (or of the public key) flipped in the simulator's flash during
 *    SIGN gives AVR_EFAULT and no signature, where the plain image
 *    answers the faulty signature.
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

/* TTS(20,28)'s budget on the ATmega328P (docs/AVR.md): simavr's cycle
 * counts are exact, so these are tests, not benchmarks */
#define BUDGET_SIGN    80000u  /* 5 ms at 16 MHz */
#define BUDGET_VERIFY  80000u
#define BUDGET_CHECKED 160000u /* SIGN and its own VERIFY (-DAVR_SIGN_CHECK) */
#define BUDGET_SRAM    1024u   /* static SRAM and the stack's deepest */
#define BUDGET_CODE    8192u   /* flash without the keys' room */

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

#define PIN "1234"

/* VERIFY PIN: the status (and the tries left of AVR_EPIN) */
static uint8_t pin(avrsim *s, const char *p, uint8_t *tries)
{
    uint8_t st = 0xFF, t = 0;
    char err[256];
    CHECK(avrsim_pin(s, (const uint8_t *)p, strlen(p), &st, &t, err, sizeof err) == AVRSIM_OK,
          "VERIFY PIN: %s", err);
    if (tries)
        *tries = t;
    return st;
}

static uint8_t verify_st(avrsim *s, const uint8_t *sig, const uint8_t *h, unsigned m,
                         unsigned n, avrsim_stats *st)
{
    uint8_t c[1 + TTS_MAX_N + TTS_MAX_M], a[4];
    c[0] = AVR_CMD_VERIFY;
    memcpy(c + 1, sig, n);
    memcpy(c + 1 + n, h, m);
    return cmd(s, c, 1 + n + m, a, sizeof a, st) == 1 ? a[0] : 0xFF;
}

static uint8_t verify(avrsim *s, const uint8_t *sig, const uint8_t *h, unsigned m, unsigned n)
{
    return verify_st(s, sig, h, m, n, NULL);
}

/* the host's signature of h under the card's stream for the counter ctr
 * (tts_card_stream_key: the host's code, not the firmware's); the stream's
 * calls (1: the first attempt succeeded) */
static unsigned host_sign(const tts_params *p, uint8_t *sig, const uint8_t *h,
                          const uint8_t *sk, uint32_t ctr)
{
    uint8_t key[32];
    tts_stream str;
    CHECK(tts_card_stream_key(p, key, sk, ctr, h) == TTS_OK, "stream key");
    tts_stream_init(&str, key);
    CHECK(tts_sign_digest(p, sig, h, sk, tts_stream_rng, &str) == TTS_OK, "host sign");
    unsigned calls = str.calls;
    tts_stream_wipe(&str);
    memset(key, 0, sizeof key);
    return calls;
}

/* What test_set measured of an image. ct: SIGN's cycles of each signature
 * whose first attempt succeeded (for an image that checks its signatures,
 * SIGN's minus those of the device's VERIFY of the same signature: the
 * check depends on the public signature and key only); their largest and
 * VERIFY's; the stack's deepest in each. */
typedef struct {
    uint64_t ct[64], sign_max, verify_max;
    int nct;
    unsigned sign_stack, verify_stack;
} meas_t;

/* The public key into the image's flash in its form (avrsim_pk_form) with
 * its zero list (avr/avr_pk.h). */
static int flash_pk(avrsim *s, const avrsim_info *in, const uint8_t *pk, size_t pkb, char *err,
                    size_t errlen)
{
    uint8_t *pl = malloc(pkb + AVR_PK_ZROOM(pkb));
    int rc = AVRSIM_ERROR;
    if (pl) {
        for (size_t i = 0; i < pkb; i++)
            pl[i] = avrsim_pk_form(pk[i]);
        if (avr_pk_zeros(pk, in->m, in->n, pl + pkb) >= 0)
            rc = avrsim_flash(s, in->pk_addr, pl, pkb + AVR_PK_ZROOM(pkb), err, errlen);
        free(pl);
    }
    return rc;
}

/* The set's image: SIGN and VERIFY against the host; SIGN's cycles of
 * first-attempt signatures into ct[] (*nct of them). */
static void test_set(const tts_params *p, const char *image, const char *katdir, meas_t *ms,
                     int deep, int checked)
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
        uint8_t c[1 + TTS_MAX_M], a[1 + TTS_MAX_N + 8], h[TTS_MAX_M], sig[TTS_MAX_N];
        /* no key yet: SIGN refused */
        c[0] = AVR_CMD_SIGN;
        memset(c + 1, 0, m);
        CHECK(cmd(s, c, 1 + m, a, sizeof a, NULL) == 1 && a[0] == AVR_ENOKEY,
              "SIGN before INSTALL answered %02X", a[0]);
        /* no key: the all-zero signature of the all-zero digest is not
         * "accepted" (the empty flash's map sends 0 to 0) */
        memset(sig, 0, sizeof sig);
        CHECK(verify(s, sig, c + 1, m, n) == AVR_ENOKEY, "VERIFY without a key: not ENOKEY");
        CHECK(pin(s, PIN, NULL) == AVR_ENOKEY, "VERIFY PIN without a key: not ENOKEY");
        CHECK(avrsim_program(s, sk, skb, pk, pkb, (const uint8_t *)PIN, 4, err, sizeof err) ==
                  AVRSIM_OK, "%s", err);
        /* SIGN only after VERIFY PIN; a wrong PIN spends a try, the right
         * one gives it back */
        CHECK(cmd(s, c, 1 + m, a, sizeof a, NULL) == 1 && a[0] == AVR_ENOAUTH,
              "SIGN before VERIFY PIN answered %02X", a[0]);
        uint8_t tries = 9;
        CHECK(pin(s, "1243", &tries) == AVR_EPIN && tries == 2, "a wrong PIN: %u tries", tries);
        CHECK(cmd(s, c, 1 + m, a, sizeof a, NULL) == 1 && a[0] == AVR_ENOAUTH,
              "SIGN after a wrong PIN answered %02X", a[0]);
        CHECK(pin(s, PIN, NULL) == AVR_OK, "the right PIN refused");
        CHECK(pin(s, "1243", &tries) == AVR_EPIN && tries == 2,
              "the right PIN did not give the try back (%u left)", tries);
        CHECK(pin(s, PIN, NULL) == AVR_OK, "the right PIN refused");
        for (uint32_t ctr = 0; ctr < DIGESTS; ctr++) {
            avrsim_stats st;
            char msg[32];
            snprintf(msg, sizeof msg, "key %d digest %u", k, (unsigned)ctr);
            tts_digest(p, h, (const uint8_t *)msg, strlen(msg));
            c[0] = AVR_CMD_SIGN;
            memcpy(c + 1, h, m);
            size_t alen = cmd(s, c, 1 + m, a, sizeof a, &st);
            unsigned calls = host_sign(p, sig, h, sk, ctr);
            CHECK(alen == 1 + n && a[0] == AVR_OK && !memcmp(a + 1, sig, n),
                  "%s %s: the AVR's signature differs from the host's", tts_params_name(p), msg);
            CHECK(tts_verify_digest(p, a + 1, h, pk) == TTS_OK, "host refuses the AVR's signature");
            avrsim_stats vst;
            CHECK(verify_st(s, sig, h, m, n, &vst) == AVR_OK, "%s: VERIFY refused a good signature",
                  tts_params_name(p));
            if (calls == 1 && ms->nct < 64) {
                ms->ct[ms->nct++] = st.cycles - (checked ? vst.cycles : 0);
                ms->sign_max = st.cycles > ms->sign_max ? st.cycles : ms->sign_max;
            }
            ms->verify_max = vst.cycles > ms->verify_max ? vst.cycles : ms->verify_max;
            ms->sign_stack = st.stack_peak > ms->sign_stack ? st.stack_peak : ms->sign_stack;
            ms->verify_stack =
                vst.stack_peak > ms->verify_stack ? vst.stack_peak : ms->verify_stack;
        }
        c[0] = AVR_CMD_COUNTER;
        CHECK(cmd(s, c, 1, a, sizeof a, NULL) == 5 && a[0] == AVR_OK && a[1] == DIGESTS &&
                  !a[2] && !a[3] && !a[4], "COUNTER after %d signatures: %u", DIGESTS, a[1]);
        /* the EEPROM's two slots (complements, little-endian) hold the
         * last two counters: the new one was written beside the old */
        uint8_t e[AVRSIM_EEPROM];
        CHECK(avrsim_eeprom(s, e) == AVRSIM_OK, "EEPROM");
        uint32_t s0 = ~((uint32_t)e[AVR_EE_CTR] | (uint32_t)e[AVR_EE_CTR + 1] << 8 |
                        (uint32_t)e[AVR_EE_CTR + 2] << 16 | (uint32_t)e[AVR_EE_CTR + 3] << 24),
                 s1 = ~((uint32_t)e[AVR_EE_CTR1] | (uint32_t)e[AVR_EE_CTR1 + 1] << 8 |
                        (uint32_t)e[AVR_EE_CTR1 + 2] << 16 | (uint32_t)e[AVR_EE_CTR1 + 3] << 24);
        CHECK((s0 == DIGESTS && s1 == DIGESTS - 1) || (s1 == DIGESTS && s0 == DIGESTS - 1),
              "the counter's slots hold %u and %u after %d signatures", (unsigned)s0,
              (unsigned)s1, DIGESTS);
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
            /* a new session (the device reset): SIGN refused until VERIFY
             * PIN; three wrong PINs block it, the right one then too */
            uint8_t ee[AVRSIM_EEPROM], ee2[AVRSIM_EEPROM];
            avrsim *s2;
            CHECK(avrsim_eeprom(s, ee) == AVRSIM_OK, "EEPROM");
            if (avrsim_open(&s2, image, ee, NULL, err, sizeof err) == AVRSIM_OK) {
                uint8_t t = 9;
                c[0] = AVR_CMD_SIGN;
                memcpy(c + 1, h, m);
                CHECK(avrsim_flash(s2, in.sk_addr, sk, skb, err, sizeof err) == AVRSIM_OK &&
                          avrsim_flash(s2, in.pin_addr, (const uint8_t *)"\004" PIN, 5, err,
                                       sizeof err) == AVRSIM_OK, "%s", err);
                CHECK(cmd(s2, c, 1 + m, a, sizeof a, NULL) == 1 && a[0] == AVR_ENOAUTH,
                      "SIGN in a new session before VERIFY PIN answered %02X", a[0]);
                for (unsigned left = 2; left + 1 > 0; left--)
                    CHECK(pin(s2, "0000", &t) == AVR_EPIN && t == left,
                          "wrong PIN: %u tries left, not %u", t, left);
                CHECK(pin(s2, "0000", NULL) == AVR_EBLOCKED, "a fourth wrong PIN not blocked");
                CHECK(pin(s2, PIN, NULL) == AVR_EBLOCKED, "the right PIN after three wrong");
                CHECK(cmd(s2, c, 1 + m, a, sizeof a, NULL) == 1 && a[0] == AVR_ENOAUTH,
                      "SIGN with the PIN blocked answered %02X", a[0]);
                avrsim_close(s2);
            } else {
                CHECK(0, "%s", err);
            }
            /* the exhausted counter: refused, the EEPROM unchanged */
            memset(ee + AVR_EE_CTR1, 0, 4); /* ~c: c = 2^32 - 1 in one slot */
            if (avrsim_open(&s2, image, ee, NULL, err, sizeof err) == AVRSIM_OK) {
                c[0] = AVR_CMD_SIGN;
                memcpy(c + 1, h, m);
                CHECK(avrsim_flash(s2, in.sk_addr, sk, skb, err, sizeof err) == AVRSIM_OK &&
                          avrsim_flash(s2, in.pin_addr, (const uint8_t *)"\004" PIN, 5, err,
                                       sizeof err) == AVRSIM_OK, "%s", err);
                CHECK(pin(s2, PIN, NULL) == AVR_OK, "the right PIN refused");
                CHECK(avrsim_eeprom(s2, ee) == AVRSIM_OK, "EEPROM");
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

/* SIGN's cycles equal over keys, digests and counters */
static void constant(const tts_params *p, const char *what, const meas_t *ms)
{
    for (int j = 1; j < ms->nct; j++)
        CHECK(ms->ct[j] == ms->ct[0], "%s%s: SIGN took %llu cycles, and %llu another time",
              tts_params_name(p), what, (unsigned long long)ms->ct[j],
              (unsigned long long)ms->ct[0]);
    CHECK(ms->nct >= KEYS, "%s%s: only %d first-attempt signatures", tts_params_name(p), what,
          ms->nct);
    printf("%s%s: %d first-attempt SIGNs, %llu cycles each\n", tts_params_name(p), what,
           ms->nct, ms->nct ? (unsigned long long)ms->ct[0] : 0ull);
}

/* the figures under their budgets */
static void budget(const tts_params *p, const char *image, const meas_t *ms)
{
    unsigned flash = 0, sram = 0;
    char err[256];
    CHECK(avrsim_sizes(image, &flash, &sram, err, sizeof err) == AVRSIM_OK, "%s", err);
    unsigned code = flash - (unsigned)tts_sk_bytes(p) - (unsigned)tts_pk_bytes(p) -
                    AVR_PK_ZROOM(tts_pk_bytes(p));
    printf("%s budget: SIGN %llu (%u), VERIFY %llu (%u), SRAM peaks %u and %u (%u), "
           "code %u B (%u)\n", tts_params_name(p), (unsigned long long)ms->sign_max,
           BUDGET_SIGN, (unsigned long long)ms->verify_max, BUDGET_VERIFY,
           sram + ms->sign_stack, sram + ms->verify_stack, BUDGET_SRAM, code, BUDGET_CODE);
    CHECK(ms->sign_max <= BUDGET_SIGN, "SIGN over its budget");
    CHECK(ms->verify_max <= BUDGET_VERIFY, "VERIFY over its budget");
    CHECK(sram + ms->sign_stack <= BUDGET_SRAM && sram + ms->verify_stack <= BUDGET_SRAM,
          "SRAM over its budget");
    CHECK(code <= BUDGET_CODE, "code over its budget");
}

/* Faults in the simulator's memory during SIGN (the first KAT key): a bit
 * of S3 in flash 30,000 cycles in (before S3 x); for the checked image
 * also a bit of the public key in flash 100,000 cycles in (during the
 * check, in the linear block of a nonzero signature byte). checked: no
 * signature, AVR_EFAULT; the plain image answers a signature the host
 * refuses. Then the key restored: the host's signature again. */
static void faults(const tts_params *p, const char *image, const char *katdir, int checked)
{
    unsigned m = tts_params_m(p), n = tts_params_n(p);
    size_t skb = tts_sk_bytes(p), pkb = tts_pk_bytes(p);
    uint8_t *sk = malloc(skb), *pk = malloc(pkb), c[1 + TTS_MAX_M], a[1 + TTS_MAX_N];
    uint8_t h[TTS_MAX_M], sig[TTS_MAX_N];
    char kat[8192], err[256];
    avrsim *s = NULL;
    avrsim_info in;
    snprintf(kat, sizeof kat, "%s/PQCsignKAT_%s.rsp", katdir, tts_params_id(p));
    if (!sk || !pk || kat_key(kat, 0, pk, pkb, sk, skb) != 0 ||
        avrsim_open(&s, image, NULL, &in, err, sizeof err) != AVRSIM_OK) {
        CHECK(0, "%s: no key or image", image);
        goto done;
    }
    CHECK(avrsim_program(s, sk, skb, pk, pkb, (const uint8_t *)PIN, strlen(PIN), err,
                         sizeof err) == AVRSIM_OK, "%s", err);
    CHECK(pin(s, PIN, NULL) == AVR_OK, "%s: the right PIN refused", image);
    tts_digest(p, h, (const uint8_t *)"a fault", 7);
    c[0] = AVR_CMD_SIGN;
    memcpy(c + 1, h, m);
    uint16_t s3 = (uint16_t)(in.sk_addr + m * (m + 1)); /* S3[0][0] */
    CHECK(avrsim_fault(s, 30000, 1, s3, 0x01, err, sizeof err) == AVRSIM_OK, "%s", err);
    size_t alen = cmd(s, c, 1 + m, a, sizeof a, NULL);
    if (checked)
        CHECK(alen == 1 && a[0] == AVR_EFAULT, "a fault in S3: answered %02X and %zu bytes",
              a[0], alen);
    else
        CHECK(alen == 1 + n && a[0] == AVR_OK && tts_verify_digest(p, a + 1, h, pk) != TTS_OK,
              "a fault in S3: the plain image's signature should be faulty");
    uint8_t v = sk[m * (m + 1)];
    CHECK(avrsim_flash(s, s3, &v, 1, err, sizeof err) == AVRSIM_OK, "%s", err);
    if (checked) {
        host_sign(p, sig, h, sk, 1);
        unsigned i = 0;
        while (i + 1 < n && !sig[i])
            i++;
        uint16_t at = (uint16_t)(in.pk_addr + (n * (n + 1) / 2 + i) * m); /* w_i's block */
        CHECK(avrsim_fault(s, 100000, 1, at, 0x01, err, sizeof err) == AVRSIM_OK, "%s", err);
        alen = cmd(s, c, 1 + m, a, sizeof a, NULL);
        CHECK(alen == 1 && a[0] == AVR_EFAULT, "a fault in pk: answered %02X and %zu bytes",
              a[0], alen);
        v = avrsim_pk_form(pk[at - in.pk_addr]);
        CHECK(avrsim_flash(s, at, &v, 1, err, sizeof err) == AVRSIM_OK, "%s", err);
    }
    /* the key restored: the host's signature for the next counter */
    uint32_t ctr = checked ? 2 : 1;
    host_sign(p, sig, h, sk, ctr);
    alen = cmd(s, c, 1 + m, a, sizeof a, NULL);
    CHECK(alen == 1 + n && a[0] == AVR_OK && !memcmp(a + 1, sig, n),
          "after the faults: not the host's signature (counter %u)", (unsigned)ctr);
    printf("%s: faults during SIGN (%s)\n", image,
           checked ? "expected: AVR_EFAULT, no signature" : "expected: a faulty signature");
done:
    if (sk)
        memset(sk, 0, skb);
    free(sk);
    free(pk);
    avrsim_close(s);
}

/* A public key with more zero coefficients than the room holds (all of
 * them 0): avr_pk_zeros says so, and the programmer refuses it with the
 * reason, writing nothing. */
static void zero_room(const tts_params *p, const char *image)
{
    size_t skb = tts_sk_bytes(p), pkb = tts_pk_bytes(p);
    uint8_t *sk = calloc(1, skb), *pk = calloc(1, pkb), *room = malloc(AVR_PK_ZROOM(pkb));
    char err[256] = "";
    avrsim *s = NULL;
    if (sk && pk && room && avrsim_open(&s, image, NULL, NULL, err, sizeof err) == AVRSIM_OK) {
        CHECK(avr_pk_zeros(pk, tts_params_m(p), tts_params_n(p), room) == -1,
              "an all-zero key's list fits the room");
        CHECK(avrsim_program(s, sk, skb, pk, pkb, (const uint8_t *)PIN, strlen(PIN), err,
                             sizeof err) != AVRSIM_OK &&
                  strstr(err, "zero coefficients"),
              "an all-zero public key programmed (%s)", err);
    } else {
        CHECK(0, "%s", err);
    }
    avrsim_close(s);
    free(sk);
    free(pk);
    free(room);
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
    int sets = 0;
    for (size_t i = 0; i < tts_params_count(); i++) {
        const tts_params *p = tts_params_at(i);
        int deep = !strcmp(tts_params_id(p), "tts-20-28");
        meas_t ms = {.nct = 0};
        snprintf(image, sizeof image, "%s/%s.elf", dir, tts_params_id(p));
        if (stat(image, &st) != 0) {
            CHECK(0, "%s: no image", tts_params_name(p));
            continue;
        }
        test_set(p, image, katdir, &ms, deep, 0);
        constant(p, "", &ms);
        if (deep)
            budget(p, image, &ms);
        sets++;
    }
    CHECK(sets == 8, "%d images", sets);

    /* the image of the C twins (avr/tts-20-28-c.elf): its signatures too */
    const tts_params *p = tts_params_get("TTS(20,28)");
    snprintf(image, sizeof image, "%s/tts-20-28-c.elf", dir);
    if (stat(image, &st) == 0) {
        meas_t ms = {.nct = 0};
        test_set(p, image, katdir, &ms, 0, 0);
        constant(p, ", C twins", &ms);
    } else {
        CHECK(0, "no %s (make check builds it)", image);
    }

    /* the image that checks its signatures (avr/tts-20-28-check.elf): the
     * same signatures, SIGN and the check within their budget, and no
     * signature when a fault hits the key during SIGN; the plain image
     * answers the faulty signature */
    snprintf(image, sizeof image, "%s/tts-20-28-check.elf", dir);
    if (stat(image, &st) == 0) {
        meas_t ms = {.nct = 0};
        test_set(p, image, katdir, &ms, 0, 1);
        constant(p, ", checked (SIGN's minus its VERIFY's)", &ms);
        printf("TTS(20,28), checked: SIGN at most %llu cycles (budget %u)\n",
               (unsigned long long)ms.sign_max, BUDGET_CHECKED);
        CHECK(ms.sign_max <= BUDGET_CHECKED, "checked SIGN over its budget");
        faults(p, image, katdir, 1);
    } else {
        CHECK(0, "no %s (make check builds it)", image);
    }
    snprintf(image, sizeof image, "%s/tts-20-28.elf", dir);
    faults(p, image, katdir, 0);
    zero_room(p, image);

    printf("simulated: %llu cycles (%.1f s at 16 MHz; budget 30 s)\n",
           (unsigned long long)total, (double)total / 16e6);
    CHECK(total < BUDGET, "over the simulated budget");
    printf("%d failed\n", failures);
    return failures ? 1 : 0;
}
