/* SPDX-License-Identifier: MIT */
/*
 * The AVR firmware's wire format and its simulator transport, shared by
 * the firmware (avr/) and its host driver (tools/avrsim.c).
 *
 * Transport: three general-purpose I/O registers of the ATmega328P, which
 * the host driver (simavr) serves. The firmware polls AVR_IO_AVAIL until
 * it reads 1, then reads one command byte from AVR_IO_IN; it writes its
 * answer bytes to AVR_IO_OUT. A board would put a UART behind the same
 * three calls (avr/io.h); the commands and the cycles they take do not
 * change.
 *
 * A command is its code byte and its arguments; an answer is a status
 * byte (AVR_OK or an error below) and, on AVR_OK, the data listed:
 *
 *   'I' INFO                       m, n, sk address (2, little-endian),
 *                                  pk address (2), first free SRAM byte (2),
 *                                  image flags (1: AVR_F_*)
 *   'K' INSTALL                    -  (K_card from the secret key in flash
 *                                  into EEPROM: docs/SPEC.md 7.4, step 1)
 *   'S' SIGN   h (m bytes)         sigma (n bytes); with -DAVR_SIGN_CHECK
 *                                  only after VERIFY accepted it
 *   'V' VERIFY sigma (n), h (m)    -  (AVR_OK: accepted; AVR_EBADSIG)
 *   'C' COUNTER                    c (4 bytes, little-endian): the next
 *                                  signature's counter
 *
 * EEPROM layout (an erased byte reads 0xFF): bytes 0..3 the complement of
 * the counter c, little-endian (an erased part counts from 0); byte 4
 * AVR_EE_INSTALLED once K_card is in bytes 5..36 (written last).
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

#define AVR_OK       0x00
#define AVR_EBADSIG  0x01 /* VERIFY: the signature is not accepted */
#define AVR_ENOKEY   0x02 /* SIGN before INSTALL */
#define AVR_ECOUNTER 0x03 /* SIGN: the counter is exhausted (2^32 - 1) */
#define AVR_ERETRY   0x04 /* SIGN: 1000 attempts failed */
#define AVR_ECMD     0x05 /* unknown command */
#define AVR_EFAULT   0x06 /* SIGN: its signature failed its own VERIFY (images
                           * built with -DAVR_SIGN_CHECK): withheld */

#define AVR_F_SIGN   0x01 /* the image signs */
#define AVR_F_VERIFY 0x02 /* the image verifies */

#define AVR_EE_CTR       0
#define AVR_EE_FLAG      4
#define AVR_EE_KCARD     5
#define AVR_EE_INSTALLED 0x00

#define AVR_INFO_BYTES 9 /* INFO's data */

#endif
