/* SPDX-License-Identifier: MIT */
/*
 * The AVR firmware's command loop (protocol.h): one command at a time,
 * its arguments read whole before it runs, its answer written after.
 */
#include <avr/eeprom.h>

#define AVR_TABLES_DEFINE /* the GF(256) tables live here */

#include "avr.h"

/* The keys' room in flash, written by the programmer (zeros in the image;
 * the public key's in avr/pk_room.S). */
const uint8_t avr_sk[SK_BYTES] PROGMEM __attribute__((used)) = {0};

extern uint8_t __heap_start;

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

static void put16(uint16_t v)
{
    io_put((uint8_t)v);
    io_put((uint8_t)(v >> 8));
}

int main(void)
{
    static uint8_t h[TTS_M], sig[TTS_N];
    for (;;) {
        uint8_t cmd = io_get(), rc;
        switch (cmd) {
        case AVR_CMD_INFO:
            io_put(AVR_OK);
            io_put(TTS_M);
            io_put(TTS_N);
            put16((uint16_t)avr_sk);
            put16((uint16_t)avr_pk);
            put16((uint16_t)&__heap_start);
            io_put(AVR_F_SIGN | AVR_F_VERIFY);
            break;
        case AVR_CMD_INSTALL:
            io_put(avr_install());
            break;
        case AVR_CMD_SIGN:
            get(h, TTS_M);
            rc = avr_sign(sig, h);
            io_put(rc);
            if (rc == AVR_OK)
                put(sig, TTS_N);
            break;
        case AVR_CMD_VERIFY:
            get(sig, TTS_N);
            get(h, TTS_M);
            io_put(avr_verify(sig, h));
            break;
        case AVR_CMD_COUNTER: {
            uint8_t t[4];
            eeprom_read_block(t, (const uint8_t *)AVR_EE_CTR, 4);
            io_put(AVR_OK);
            for (uint8_t i = 0; i < 4; i++)
                io_put((uint8_t)~t[i]);
            break;
        }
        default:
            io_put(AVR_ECMD);
        }
        avr_wipe(sig, sizeof sig);
    }
}
