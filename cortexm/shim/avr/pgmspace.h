/* SPDX-License-Identifier: MIT */
/* The Cortex-M build of avr/: flash is in the address space, read directly. */
#ifndef TTS_CM_PGMSPACE_H
#define TTS_CM_PGMSPACE_H
#include <stdint.h>
#include <string.h>
#define PROGMEM
#define pgm_read_byte(p) (*(const volatile uint8_t *)(p))
#define memcpy_P memcpy
#endif
