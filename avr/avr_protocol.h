/* SPDX-License-Identifier: MIT */
/*
 * The AVR firmware's wire format and its simulator transport, shared by
 * the firmware (avr/) and its host driver (host/avrsim.c).
 *
 * Transport: three general-purpose I/O registers of the ATmega328P, which
 * the host driver (simavr) serves. The firmware polls AVR_IO_AVAIL until
 * it reads 1, then reads one command byte from AVR_IO_IN; it writes its
 * answer bytes to AVR_IO_OUT. A board would put a UART behind the same
 * three calls (avr/io.c); the commands and the cycles they take do not
 * change.
 *
 * A command is its code byte and its arguments; an answer is a status
 * byte (AVR_OK or an error below) and, on AVR_OK, the data listed:
 *
 *   'I' INFO                       m, n, sk address (2, little-endian),
 *                                  pk address (2), first free SRAM byte (2),
 *                                  image flags (1: AVR_F_*), PIN address (2)
 *   'K' INSTALL                    -  (K_card from the secret key in flash
 *                                  into EEPROM: docs/SPEC.md 7.4, step 1)
 *   'P' VERIFY PIN  length (1),    -  (AVR_OK: this session may SIGN;
 *        PIN (16, zero-padded)        AVR_EPIN and the tries left (1);
 *                                     AVR_EBLOCKED; AVR_ENOKEY: no PIN)
 *   'S' SIGN   h (m bytes)         sigma (n bytes); refused with AVR_ENOKEY,
 *                                  then AVR_ENOAUTH (no VERIFY PIN since the
 *                                  reset), then AVR_ECOUNTER; with
 *                                  -DAVR_SIGN_CHECK only after VERIFY
 *                                  accepted it (else AVR_EFAULT)
 *   'V' VERIFY sigma (n), h (m)    -  (AVR_OK: accepted; AVR_EBADSIG;
 *                                  AVR_ENOKEY: no key installed)
 *   'C' COUNTER                    c (4 bytes, little-endian): the next
 *                                  signature's counter
 *
 * Flash, written by the programmer: the secret key, the public key and the
 * PIN (AVR_PIN_BYTES: its length, 4..16, then its bytes padded with
 * zeros), at the addresses INFO gives.
 *
 * EEPROM layout (an erased byte reads 0xFF; avr/nvm.c says why a power
 * cut in any write leaves each record whole): bytes 0..3 and 37..40 the
 * counter's two slots, each the complement of a count, little-endian (an
 * erased part counts from 0; the counter is the larger); byte 4
 * AVR_EE_INSTALLED once K_card is in bytes 5..36 (written last); byte 41
 * the PIN's tries (zero bits among the low three; erased: none, so the
 * programmer writes 0xF8 with the PIN).
 */
#ifndef TTS_AVR_PROTOCOL_H
#define TTS_AVR_PROTOCOL_H

/* data-space addresses of GPIOR0, GPIOR1, GPIOR2 */
#define AVR_IO_AVAIL 0x3E
#define AVR_IO_IN    0x4A
#define AVR_IO_OUT   0x4B

#define AVR_CMD_INFO    'I'
#define AVR_CMD_INSTALL 'K'
#define AVR_CMD_SIGN    'S'
#define AVR_CMD_VERIFY  'V'
#define AVR_CMD_COUNTER 'C'
#define AVR_CMD_PIN     'P'

#define AVR_OK       0x00
#define AVR_EBADSIG  0x01 /* VERIFY: the signature is not accepted */
#define AVR_ENOKEY   0x02 /* SIGN before INSTALL */
#define AVR_ECOUNTER 0x03 /* SIGN: the counter is exhausted (2^32 - 1) */
#define AVR_ERETRY   0x04 /* SIGN: 1000 attempts failed */
#define AVR_ECMD     0x05 /* unknown command */
#define AVR_ENOAUTH  0x06 /* SIGN: no VERIFY PIN since the reset */
#define AVR_EPIN     0x07 /* VERIFY PIN: wrong (a try spent) */
#define AVR_EBLOCKED 0x08 /* VERIFY PIN: no try left */
#define AVR_EFAULT   0x09 /* SIGN: its signature failed its own VERIFY (images
                           * built with -DAVR_SIGN_CHECK): withheld */

#define AVR_F_SIGN   0x01 /* the image signs */
#define AVR_F_VERIFY 0x02 /* the image verifies */
#define AVR_F_PIN    0x04 /* SIGN needs VERIFY PIN */

#define AVR_EE_CTR       0
#define AVR_EE_FLAG      4
#define AVR_EE_KCARD     5
#define AVR_EE_INSTALLED 0x00
#define AVR_EE_CTR1      37
#define AVR_EE_TRIES     41
#define AVR_EE_USED      42 /* bytes of EEPROM the records take */

#define AVR_PIN_BYTES  17   /* length + 16 */
#define AVR_PIN_MIN    4
#define AVR_PIN_MAX    16
#define AVR_PIN_TRIES  3
#define AVR_TRIES_FULL 0xF8 /* the tries byte with three tries */

#define AVR_INFO_BYTES 11 /* INFO's data */

#endif
