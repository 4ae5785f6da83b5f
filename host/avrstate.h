/* SPDX-License-Identifier: MIT */
/*
 * tts-avr's state file (--eeprom): what a programmer wrote into the
 * device's flash (the secret key and the PIN record; the public key is
 * derived from the key) and its EEPROM, kept between sessions.
 *
 * The file: "TTSAVR02", m, n, the keys-programmed flag, sk, the PIN record
 * (avr/avr_protocol.h), the EEPROM (AVRSIM_EEPROM bytes), SHA-256 of the
 * public key, then SHA-256 of everything before. It holds the secret key:
 * written 0600, refused when others may access it. At load the trailer is
 * checked, and a programmed key must pass tts_sk_check and give the public
 * key whose hash was stored: a damaged file is refused, never signed with.
 *
 * A session holds the file from load to close (tts-card's lock,
 * host/cardstate.h: sessions take turns); a save writes a temporary
 * beside it, flushes it, locks it and renames it into place, so that the
 * session holds the new file through every save.
 */
#ifndef TTS_AVRSTATE_H
#define TTS_AVRSTATE_H

#include <stddef.h>
#include <stdint.h>

#include <tts.h>

#include "avr_protocol.h"
#include "avrsim.h"

typedef struct {
    const tts_params *p;
    size_t skb, pkb;
    uint8_t programmed;         /* the keys and the PIN are in flash */
    uint8_t *sk, *pk;           /* pk derived from sk */
    uint8_t pin[AVR_PIN_BYTES];
    uint8_t ee[AVRSIM_EEPROM];  /* erased for a new device */
    const char *path;           /* NULL: no file, a device for one session */
    int fd, created, saved;
} avr_state;

/* Lock and load path (NULL: none; missing or empty: a new device); who
 * names the program while it waits for the lock (card_lock_path). 0, or
 * -1 with the reason in err (the state is then to be closed). */
int avr_state_open(avr_state *st, const tts_params *p, const char *path, const char *who,
                   char *err, size_t errlen);
/* Store it (ee as the simulator left it). 0, or -1 with the reason. */
int avr_state_save(avr_state *st, char *err, size_t errlen);
/* Wipe and free the copies, release the lock (a file this session made
 * and never saved is removed). */
void avr_state_close(avr_state *st);

#endif
