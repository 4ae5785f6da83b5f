/* SPDX-License-Identifier: MIT */
/*
 * The Cortex-M3 build of the AVR firmware's SIGN and VERIFY (avr/sign.c,
 * avr/verify.c, avr/chacha.c with their C twins), run under QEMU's
 * lm3s6965evb: a check of the same code on a 32-bit core, not a
 * measurement (QEMU does not count cycles).
 *
 * The test (tests/test_cortexm.c) loads a secret key and its public key
 * (in avr/verify.c's log form) at CM_SK_ADDR and CM_PK_ADDR; the
 * firmware then runs INSTALL, and for k = 0, 1, 2 signs the digest
 * h_j = 7 j + 31 k + 1 (j < m) under the counter k and prints
 * "S k status signature", then "V k status" for VERIFY of that signature
 * and "F k status" for VERIFY of it with its first byte flipped, on the
 * semihosting console, and exits.
 */
#include <stdint.h>
#include <string.h>

#define AVR_TABLES_DEFINE /* the GF(256) tables live here */
#include "avr.h"

/* avr_sk and avr_pk: addresses in flash that cm.ld gives, no bytes of
 * the image (QEMU refuses a key loaded over the image's own) */
uint8_t cm_eeprom[1024];

/* ARM semihosting: r0 the operation, r1 its argument */
static int semihost(int op, const void *arg)
{
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static void say(const char *s) { semihost(0x04, s); } /* SYS_WRITE0 */

static void line(char tag, uint8_t k, uint8_t rc, const uint8_t *b, uint8_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    char t[8 + 2 * 64];
    uint8_t p = 0;
    t[p++] = tag;
    t[p++] = ' ';
    t[p++] = (char)('0' + k);
    t[p++] = ' ';
    t[p++] = hex[rc >> 4];
    t[p++] = hex[rc & 15];
    if (n)
        t[p++] = ' ';
    for (uint8_t i = 0; i < n; i++) {
        t[p++] = hex[b[i] >> 4];
        t[p++] = hex[b[i] & 15];
    }
    t[p++] = '\n';
    t[p] = 0;
    say(t);
}

int main(void)
{
    uint8_t h[TTS_M], sig[TTS_N];
    memset(cm_eeprom, 0xFF, sizeof cm_eeprom);
    if (avr_install() != AVR_OK)
        say("INSTALL failed\n");
    for (uint8_t k = 0; k < 3; k++) {
        for (uint8_t j = 0; j < TTS_M; j++)
            h[j] = (uint8_t)(7 * j + 31 * k + 1);
        uint8_t rc = avr_sign(sig, h);
        line('S', k, rc, sig, rc == AVR_OK ? TTS_N : 0);
        line('V', k, avr_verify(sig, h), NULL, 0);
        sig[0] ^= 1;
        line('F', k, avr_verify(sig, h), NULL, 0);
    }
    semihost(0x18, (const void *)0x20026); /* SYS_EXIT, application exit */
    for (;;)
        ;
}

/* ---- start-up: the vector table, .data and .bss, and what gcc calls ---- */
extern uint32_t _etext, _sdata, _edata, _sbss, _ebss, _stack_top;

void cm_reset(void);
void cm_reset(void)
{
    const uint32_t *src = &_etext;
    for (uint32_t *d = &_sdata; d < &_edata;)
        *d++ = *src++;
    for (uint32_t *d = &_sbss; d < &_ebss;)
        *d++ = 0;
    main();
}

__attribute__((section(".vectors"), used)) static const uintptr_t vectors[2] = {
    (uintptr_t)&_stack_top, (uintptr_t)cm_reset};

void *memcpy(void *d, const void *s, size_t n)
{
    uint8_t *a = d;
    const uint8_t *b = s;
    while (n--)
        *a++ = *b++;
    return d;
}

void *memset(void *d, int c, size_t n)
{
    uint8_t *a = d;
    while (n--)
        *a++ = (uint8_t)c;
    return d;
}
