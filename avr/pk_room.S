; SPDX-License-Identifier: MIT
;
; The public key's room in flash (avr/avr_pk.h: the key in log form, then
; its zero list), zeros in the image: the programmer writes it. Here in
; assembly because a C object is at most 32,767 bytes for avr-gcc, and
; TTS(36,50)'s room is 48,901 (avr/avr.h declares it).

#include "avr_pk.h"

#define PK_BYTES (TTS_M * TTS_N * (TTS_N + 3) / 2)
#if PK_BYTES > AVR_PK_LARGE /* AVR_PK_ZMAX's choice, for the assembler */
#define ZMAX AVR_PK_ZMAX_LARGE
#else
#define ZMAX AVR_PK_ZMAX_SMALL
#endif

    .section .progmem.data.avr_pk, "a", @progbits
    .global avr_pk
    .type avr_pk, @object
avr_pk:
    .space PK_BYTES + 3 * ZMAX + 1
    .size avr_pk, . - avr_pk
