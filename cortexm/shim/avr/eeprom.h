/* SPDX-License-Identifier: MIT */
/* The Cortex-M build of avr/: the EEPROM is a RAM array, erased at reset
 * (cortexm/main.c): the counter restarts at 0 on every boot, so signatures
 * under the same counter recur. A test build, not a device. */
#ifndef TTS_CM_EEPROM_H
#define TTS_CM_EEPROM_H
#include <stdint.h>
#include <string.h>
extern uint8_t cm_eeprom[1024];
#define CM_EE(a) (cm_eeprom + (uintptr_t)(a))
static inline uint8_t eeprom_read_byte(const uint8_t *a) { return *CM_EE(a); }
static inline void eeprom_update_byte(uint8_t *a, uint8_t v) { *CM_EE(a) = v; }
static inline void eeprom_read_block(void *d, const void *a, size_t n) { memcpy(d, CM_EE(a), n); }
static inline void eeprom_update_block(const void *s, void *a, size_t n) { memcpy(CM_EE(a), s, n); }
#define eeprom_busy_wait() ((void)0)
#endif
