/* SPDX-License-Identifier: MIT */
/*
 * The AVR firmware's command loop (protocol.h): one command at a time,
 * its arguments read whole before it runs, its answer written after.
 */
#include <avr/eeprom.h>

#define AVR_TABLES_DEFINE /* the GF(256) tables live here */

#include "avr.h"

/* The keys' and the PIN's room in flash, written by the programmer (zeros
 * in the image: no PIN, so no SIGN until one is programmed; the public
 * key's room in avr/pk_room.S). */
const uint8_t avr_sk[SK_BYTES] PROGMEM __attribute__((used)) = {0};
const uint8_t avr_pin[AVR_PIN_BYTES] PROGMEM __attribute__((used)) = {0};


static void get(uint8_t *b, uint8_t n)
{
    for (uint8_t i = 0; i < n; i++)
        b[i] = io_get();
}

static void put(const uint8_t *b, uint8_t n)
{
    for (uint8_t i = 0; i < n; i++)
        io_put(b[i]);
}

static uint8_t installed(void)
{
    return eeprom_read_byte((const uint8_t *)AVR_EE_FLAG) == AVR_EE_INSTALLED;
}

/* VERIFY PIN: the PIN sent against the one in flash (a length outside
 * 4..16 there: none programmed) */
static uint8_t verify_pin(const uint8_t *got)
{
    uint8_t want[AVR_PIN_BYTES], rc;
    memcpy_P(want, avr_pin, sizeof want);
    if (!installed() || want[0] < AVR_PIN_MIN || want[0] > AVR_PIN_MAX)
        rc = AVR_ENOKEY;
    else
        rc = avr_pin_verify(got, want);
    avr_wipe(want, sizeof want);
    return rc;
}

int main(void)
{
    static uint8_t h[TTS_M], sig[TTS_N];
    uint8_t verified = 0; /* a good VERIFY PIN since the reset */
    for (;;) {
        uint8_t cmd = io_get(), rc;
        switch (cmd) {
        case AVR_CMD_INFO:
            avr_put_info(AVR_F_SIGN | AVR_F_VERIFY | AVR_F_PIN);
            break;
        case AVR_CMD_PIN:
            get(sig, AVR_PIN_BYTES);
            rc = verify_pin(sig);
            verified = rc == AVR_OK;
            io_put(rc);
            if (rc == AVR_EPIN)
                io_put(avr_pin_tries());
            break;
        case AVR_CMD_INSTALL:
            io_put(avr_install());
            break;
        case AVR_CMD_SIGN:
            get(h, TTS_M);
            rc = !installed() ? AVR_ENOKEY : !verified ? AVR_ENOAUTH : avr_sign(sig, h);
            io_put(rc);
            if (rc == AVR_OK)
                put(sig, TTS_N);
            break;
        case AVR_CMD_VERIFY:
            get(sig, TTS_N);
            get(h, TTS_M);
            io_put(installed() ? avr_verify(sig, h) : AVR_ENOKEY);
            break;
        case AVR_CMD_COUNTER: {
            uint8_t slot;
            uint32_t c = avr_counter_read(&slot);
            io_put(AVR_OK);
            for (uint8_t i = 0; i < 4; i++)
                io_put((uint8_t)(c >> (8 * i)));
            break;
        }
        default:
            io_put(AVR_ECMD);
        }
        avr_wipe(sig, sizeof sig);
    }
}
