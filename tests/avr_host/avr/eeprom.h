/* SPDX-License-Identifier: MIT */
/*
 * avr-libc's EEPROM calls, for avr/nvm.c compiled on the host by
 * tests/test_avr_nvm.c: the test defines them over a model of the
 * ATmega328P's EEPROM (erase then write, a power cut at any byte).
 */
#ifndef TTS_TESTS_AVR_HOST_EEPROM_H
#define TTS_TESTS_AVR_HOST_EEPROM_H

#include <stddef.h>
#include <stdint.h>

uint8_t eeprom_read_byte(const uint8_t *a);
void eeprom_read_block(void *d, const void *a, size_t n);
void eeprom_update_byte(uint8_t *a, uint8_t v);
void eeprom_update_block(const void *s, void *a, size_t n);
/* the model's writes are programmed when the call returns */
#define eeprom_busy_wait() ((void)0)

#endif
