/* SPDX-License-Identifier: MIT */
/*
 * The AVR firmware's assembly kernels, each against a model written from
 * its contract (avr/kernel_test.c), on the part in simavr: TTS(20,28) on
 * the ATmega328P and TTS(36,50) on the ATmega2560 (the other shapes of
 * the kernels: two passes of VERIFY, ten rows of S3 a call). The keys'
 * room holds pseudo-random bytes (a zero in eight) for the kernels to read
 * in flash, the public key (a zero in 256, which its list has room for) in
 * its flash form with its zero list (as tts-avr programs it). And the control: a byte of the kernels' power
 * table changed in SRAM, the same run disagrees.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <tts.h>

#include "avrsim.h"
#include "avr_protocol.h"
#include "device_test.h"

#define KERNELS 7
static const char *const names[KERNELS] = {"gf_mv1_asm", "gf_mv3_asm", "gf_solve_asm",
                                           "gf_pmul_asm", "gf_pk_pass_asm + gf_pk_zeros_asm",
                                           "chacha20_block", "avr_wipe"};

static uint32_t state = 0x2545F491u;
static int ntests, skipped;

#define TAP(ok, ...) (ntests++, printf("%s - ", (ok) ? "ok" : "not ok"), printf(__VA_ARGS__), \
                      putchar('\n'))

static uint8_t rnd(void)
{
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return (uint8_t)(state >> 7);
}

/* One 'T' run: the cases of each kernel into runs and the disagreements
 * into bad; 0, or -1 said. */
static int run_t(avrsim *s, uint32_t seed, unsigned *runs, unsigned *bad, unsigned *tab)
{
    uint8_t cmd[5] = {'T', (uint8_t)(seed >> 24), (uint8_t)(seed >> 16), (uint8_t)(seed >> 8),
                      (uint8_t)seed},
            ans[1 + 4 * KERNELS + 2];
    size_t alen = 0;
    char err[512];
    if (avrsim_cmd(s, cmd, sizeof cmd, ans, sizeof ans, &alen, NULL, err, sizeof err) !=
        AVRSIM_OK) {
        CHECK(0, "T: %s", err);
        return -1;
    }
    if (alen != sizeof ans || ans[0] != AVR_OK) {
        CHECK(0, "T: answered %zu bytes, status %u", alen, alen ? ans[0] : 0);
        return -1;
    }
    for (int k = 0; k < KERNELS; k++) {
        runs[k] = ans[1 + 4 * k] | (unsigned)ans[2 + 4 * k] << 8;
        bad[k] = ans[3 + 4 * k] | (unsigned)ans[4 + 4 * k] << 8;
    }
    *tab = ans[1 + 4 * KERNELS] | (unsigned)ans[2 + 4 * KERNELS] << 8;
    return 0;
}

static int one_set(const char *dir, const char *id, size_t skb, size_t pkb)
{
    char image[4096], err[512];
    struct stat st;
    avrsim *s = NULL;
    avrsim_info in;
    unsigned runs[KERNELS], bad[KERNELS], tab = 0;
    snprintf(image, sizeof image, "%s/%s-kernels.elf", dir, id);
    if (stat(image, &st) != 0) {
        ntests++, skipped++;
        printf("ok - # SKIP %s: no kernel test image (gcc-avr, avr-libc)\n", image);
        return 0;
    }
    if (avrsim_open(&s, image, NULL, &in, err, sizeof err) != AVRSIM_OK) {
        CHECK(0, "%s: %s", image, err);
        return -1;
    }
    uint8_t *sk = malloc(skb), *pk = malloc(pkb), pin[AVR_PIN_BYTES] = {4, '0', '0', '0', '0'};
    int rc = -1;
    if (sk && pk) {
        for (size_t i = 0; i < skb; i++)
            sk[i] = (rnd() & 7) ? rnd() : 0;
        for (size_t i = 0; i < pkb; i++) /* (a zero in 256: the room of its list) */
            pk[i] = rnd() ? rnd() : 0;
        if (avrsim_flash_keys(s, sk, skb, pk, pkb, pin, err, sizeof err) != AVRSIM_OK)
            CHECK(0, "%s: %s", image, err);
        else
            rc = 0;
    }
    for (uint32_t seed = 1; rc == 0 && seed <= 2; seed++) {
        if ((rc = run_t(s, seed * 0x9E3779B9u, runs, bad, &tab)) != 0)
            break;
        for (int k = 0; k < KERNELS; k++) {
            int ok = runs[k] > 0 && bad[k] == 0;
            CHECK(ok, "%s %s seed %u: %u of %u cases differ", id, names[k], seed, bad[k],
                  runs[k]);
            TAP(ok, "%s: %s, %u cases (seed %u), %u differ from the model", id, names[k],
                runs[k], seed, bad[k]);
        }
    }
    /* the control: 3^1 in the kernels' power table (its second page,
     * avr/gf_tab.c) made wrong: the kernels with many products disagree */
    if (rc == 0 && avrsim_fault(s, 0, 0, (uint16_t)(tab + 256 + 1), 0x10, err, sizeof err) !=
                       AVRSIM_OK) {
        CHECK(0, "%s: %s", image, err);
        rc = -1;
    }
    if (rc == 0 && run_t(s, 7, runs, bad, &tab) == 0) {
        int ok = bad[0] && bad[1] && bad[2] && bad[4] && !bad[5] && !bad[6];
        CHECK(ok, "%s control: %u %u %u %u %u %u %u differ", id, bad[0], bad[1], bad[2], bad[3],
              bad[4], bad[5], bad[6]);
        TAP(ok, "%s: the control, 3^1 changed in the kernels' table: the products differ "
                "(mv1 %u, mv3 %u, solve %u, pmul %u, verify %u of their cases), ChaCha20 and "
                "the wipe do not", id, bad[0], bad[1], bad[2], bad[3], bad[4]);
    }
    avrsim_close(s);
    free(sk);
    free(pk);
    return rc;
}

int main(void)
{
    const char *dir = getenv("AVR_IMAGE_DIR");
    if (!dir)
        dir = "avr";
    if (!avrsim_available()) {
        printf("SKIP: built without libsimavr (Debian packages simavr libsimavr-dev)\n");
        return 77;
    }
    const tts_params *a = tts_params_get("TTS(20,28)"), *b = tts_params_get("TTS(36,50)");
    one_set(dir, "tts-20-28", tts_sk_bytes(a), tts_pk_bytes(a));
    one_set(dir, "tts-36-50", tts_sk_bytes(b), tts_pk_bytes(b));
    if (failures && !ntests)
        TAP(0, "the kernel test images ran");
    printf("1..%d\n", ntests);
    return failures ? 1 : skipped == 2 ? 77 : 0;
}
