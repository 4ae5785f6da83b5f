/* SPDX-License-Identifier: MIT */
/*
 * The firmware's EEPROM records (layout: avr_protocol.h), avr/nvm.c: the
 * signature counter in two slots and the PIN's tries. Free of flash and
 * of the set, so that tests/test_avr_nvm.c compiles the same file on the
 * host over a model of the part's EEPROM (its erase-then-write, cut at
 * every byte).
 */
#ifndef TTS_AVR_NVM_H
#define TTS_AVR_NVM_H

#include <stdint.h>

#include "avr_protocol.h"

/* The next signature's counter c (0xFFFFFFFF: exhausted) and, in *slot,
 * the slot that holds it (0 or 1). No branch on the slots' contents: the
 * cycles are the same for every counter whose stores change one byte. */
uint32_t avr_counter_read(uint8_t *slot);
/* Store c into the slot other than slot (the one avr_counter_read gave):
 * only its changed bytes written, the last one still programming when
 * this returns (eeprom_busy_wait before the answer). */
void avr_counter_store(uint8_t slot, uint32_t c);

/* The PIN's tries left (0 to AVR_PIN_TRIES; an erased byte: 0). */
uint8_t avr_pin_tries(void);
/* VERIFY PIN: got and want are AVR_PIN_BYTES (length, then the PIN padded
 * with zeros). AVR_EBLOCKED with no try left; else one try spent and
 * programmed before the comparison; AVR_EPIN if they differ; AVR_OK and
 * the tries back to AVR_PIN_TRIES (programmed) if they are equal. */
uint8_t avr_pin_verify(const uint8_t *got, const uint8_t *want);

#endif
