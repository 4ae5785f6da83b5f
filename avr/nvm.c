/* SPDX-License-Identifier: MIT */
/*
 * The EEPROM records (avr_nvm.h). On the ATmega328P a byte write erases
 * the byte (0xFF) and then programs it, 3.4 ms in all; a power cut inside
 * leaves the byte erased, half programmed or as it was. Each record is
 * laid out so that such a byte never takes a step back:
 *
 *  - the counter: two 4-byte slots, each the complement of a count (an
 *    erased slot counts 0). The counter is the larger of the two; SIGN
 *    stores c + 1 into the other slot. A cut tears only the slot being
 *    written, while the other still holds c: the counter reads back c or
 *    more, whatever the torn bytes hold. SIGN answers only once the store
 *    is programmed, so no counter value is answered twice.
 *  - the tries: one byte whose zero bits among the low three count them
 *    (0xF8 three, 0xFC two, 0xFE one; erased or any other value: none). A
 *    byte cut on its way to a value holds that value's zero bits or fewer:
 *    never more tries than the value written. The try is spent and
 *    programmed before the PIN is compared, and given back only on
 *    success (ISO 7816-4 VERIFY's rule, as on the card).
 */
#include <avr/eeprom.h>

#include "avr_nvm.h"

static uint32_t slot_read(uint8_t s)
{
    uint8_t t[4];
    eeprom_read_block(t, (const void *)(uintptr_t)(s ? AVR_EE_CTR1 : AVR_EE_CTR), 4);
    return ~((uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 |
             (uint32_t)t[3] << 24);
}

uint32_t avr_counter_read(uint8_t *slot)
{
    uint32_t a = slot_read(0), b = slot_read(1);
    /* a < b without a branch: the borrow of a - b, corrected where the
     * top bits differ */
    uint32_t lt = (a ^ ((a ^ b) | ((a - b) ^ b))) >> 31;
    *slot = (uint8_t)lt;
    return a ^ ((a ^ b) & (uint32_t)-lt);
}

void avr_counter_store(uint8_t slot, uint32_t c)
{
    uint8_t t[4];
    uint32_t v = ~c;
    for (uint8_t i = 0; i < 4; i++)
        t[i] = (uint8_t)(v >> (8 * i));
    /* the address of the other slot, chosen by a mask (slot is 0 or 1) */
    uint8_t other = (uint8_t)(AVR_EE_CTR1 ^ ((AVR_EE_CTR ^ AVR_EE_CTR1) & -slot));
    /* the low byte first: a cut between two bytes of a carry leaves the
     * new low bytes under the old high ones, at most c (written high byte
     * first it would jump forward, wasting up to 2^24 values) */
    for (uint8_t i = 0; i < 4; i++)
        eeprom_update_byte((uint8_t *)(uintptr_t)(other + i), t[i]);
}

static const uint8_t tries_byte[AVR_PIN_TRIES + 1] = {0xFF, 0xFE, 0xFC, 0xF8};

uint8_t avr_pin_tries(void)
{
    uint8_t s = eeprom_read_byte((const uint8_t *)AVR_EE_TRIES), z = (uint8_t)(~s & 7);
    if ((s | 7) != 0xFF)
        return 0;
    return (uint8_t)((z & 1) + (z >> 1 & 1) + (z >> 2));
}

uint8_t avr_pin_verify(const uint8_t *got, const uint8_t *want)
{
    uint8_t t = avr_pin_tries(), d = 0;
    if (!t)
        return AVR_EBLOCKED;
    eeprom_update_byte((uint8_t *)AVR_EE_TRIES, tries_byte[t - 1]);
    eeprom_busy_wait(); /* the try is spent before the comparison */
    for (uint8_t i = 0; i < AVR_PIN_BYTES; i++)
        d |= (uint8_t)(got[i] ^ want[i]);
    if (d)
        return AVR_EPIN;
    eeprom_update_byte((uint8_t *)AVR_EE_TRIES, tries_byte[AVR_PIN_TRIES]);
    eeprom_busy_wait();
    return AVR_OK;
}
