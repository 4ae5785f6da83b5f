/* SPDX-License-Identifier: MIT */
/*
 * The host driver of the AVR firmware (avr/): an ATmega328P in simavr
 * (libsimavr), one command at a time over the transport of
 * avr/avr_protocol.h.
 *
 * Every run is bounded in simulated cycles and instructions: a command
 * that has not answered and gone back to waiting for input within
 * AVRSIM_CMD_CYCLES fails (AVRSIM_ETIME), the start-up and INFO within
 * AVRSIM_BOOT_CYCLES; and, against a simulator gone wrong, in wall time
 * (AVRSIM_WALL_SECONDS, far above any run of a libtts image). The image is
 * read by the driver itself, from a regular file opened without blocking,
 * every loadable segment checked against the part's flash and SRAM before
 * simavr sees it. The driver measures each
 * command: its cycles (from the read of its last argument byte to the
 * write of its first answer byte: the firmware's whole work, the transport
 * excluded) and the peak of the stack, by painting: before the command,
 * the free SRAM between the firmware's static data and the stack pointer
 * is filled with AVRSIM_PAINT; after it, the lowest byte changed is the
 * deepest the stack went.
 *
 * Functions returning int give AVRSIM_OK or a negative code and, on error,
 * an English reason in err.
 */
#ifndef TTS_AVRSIM_H
#define TTS_AVRSIM_H

#include <stddef.h>
#include <stdint.h>

#include <tts.h>

#define AVRSIM_OK     0
#define AVRSIM_ERROR (-1) /* see err */
#define AVRSIM_ETIME (-2) /* the cycle bound ran out */
#define AVRSIM_NOSIM (-3) /* built without libsimavr */

#define AVRSIM_MHZ        16.0         /* the UNO's crystal */
#define AVRSIM_CMD_CYCLES 250000000ull /* 15.6 s at 16 MHz: any command (a SIGN
                                              * of 1000 attempts of TTS(28,38)
                                              * takes about 170M) */
#define AVRSIM_BOOT_CYCLES 2000000ull   /* start-up and INFO */
#define AVRSIM_WALL_SECONDS 300
#define AVRSIM_LOG_MAX    20           /* simavr's error lines shown */
#define AVRSIM_ELF_MAX    (1 << 20)    /* bytes of an image file */
#define AVRSIM_PAINT      0xA5
#define AVRSIM_EEPROM     1024         /* the ATmega328P's EEPROM */
#define AVRSIM_FLASH      32768
#define AVRSIM_SRAM       2048
#define AVRSIM_SRAM_START 0x100

typedef struct avrsim avrsim;

typedef struct {
    unsigned m, n;
    uint16_t sk_addr, pk_addr; /* the keys' room in flash */
    uint16_t heap;             /* first SRAM byte above the static data */
    unsigned flags;            /* AVR_F_* */
    uint16_t pin_addr;         /* the PIN's room in flash */
} avrsim_info;

typedef struct {
    uint64_t cycles;     /* the command's work (see above) */
    unsigned stack_peak; /* bytes of stack at the deepest, painted */
    uint64_t total;      /* every cycle the command's run took */
} avrsim_stats;

/* Nonzero if the driver was built with libsimavr. */
int avrsim_available(void);

/* Load the ELF image into a fresh ATmega328P (flash as the image has it,
 * EEPROM erased or from ee[AVRSIM_EEPROM] if not NULL), run it to its
 * first wait for input and ask INFO. */
int avrsim_open(avrsim **out, const char *elf, const uint8_t *ee, avrsim_info *info,
                char *err, size_t errlen);
void avrsim_close(avrsim *s);
/* INFO as avrsim_open read it. */
int avrsim_get_info(const avrsim *s, avrsim_info *info);

/* Send cmd (its code and arguments), run until the firmware waits for
 * the next command, and return its answer (at most cap bytes, *alen the
 * count). st may be NULL. */
int avrsim_cmd(avrsim *s, const uint8_t *cmd, size_t len, uint8_t *ans, size_t cap,
               size_t *alen, avrsim_stats *st, char *err, size_t errlen);

/* Program flash bytes (the programmer's write: the keys' room). */
int avrsim_flash(avrsim *s, uint16_t addr, const uint8_t *b, size_t n, char *err,
                 size_t errlen);
/* The EEPROM as the firmware left it (AVRSIM_EEPROM bytes). */
int avrsim_eeprom(avrsim *s, uint8_t *ee);
/* Write the whole EEPROM (the programmer's write). */
int avrsim_set_eeprom(avrsim *s, const uint8_t *ee);

/* The form of a public-key coefficient c in the image's flash: log_3 c in
 * the field of docs/SPEC.md 2.1, 0xFF for c = 0 (avr/verify.c). */
uint8_t avrsim_pk_form(uint8_t c);

/* Write the secret key, its public key (converted to the flash form above,
 * its zero list after it: avr/avr_pk.h) and the PIN record (AVR_PIN_BYTES: avr/avr_protocol.h) into their room
 * in flash, nothing else: the programmer's flash as an earlier session
 * left it. */
int avrsim_flash_keys(avrsim *s, const uint8_t *sk, size_t skb, const uint8_t *pk, size_t pkb,
                      const uint8_t *pinrec, char *err, size_t errlen);

/* Program the secret key and its public key (converted to the flash form
 * above, its zero list after it) into the keys' room (their sizes must be the image's set's), the
 * PIN (AVR_PIN_MIN to AVR_PIN_MAX bytes) into its room and its three tries
 * into EEPROM, as a programmer would, and run INSTALL (K_card into
 * EEPROM). The counter is kept. */
int avrsim_program(avrsim *s, const uint8_t *sk, size_t skb, const uint8_t *pk, size_t pkb,
                   const uint8_t *pin, size_t pinlen, char *err, size_t errlen);

/* VERIFY PIN: *status the device's answer (AVR_OK, AVR_EPIN with *tries
 * left, AVR_EBLOCKED, AVR_ENOKEY); AVRSIM_OK or the driver's error. */
int avrsim_pin(avrsim *s, const uint8_t *pin, size_t pinlen, uint8_t *status, uint8_t *tries,
               char *err, size_t errlen);

/* The signature the host makes of digest h with the secret key sk and the
 * device's stream for counter ctr (docs/SPEC.md 7.4: tts_card_stream_key,
 * tts_sign_digest): TTS_OK or the library's error; *attempts (may be NULL)
 * the stream's attempts. */
int avrsim_host_sign(const tts_params *p, const uint8_t *sk, uint32_t ctr, const uint8_t *h,
                     uint8_t *sig, unsigned *attempts);

/* The PIN avrsim_measure programs. */
#define AVRSIM_MEASURE_PIN "0000"

/* One image measured: a key from the 32-byte seed, INSTALL, VERIFY PIN, SIGN of
 * digest (m bytes) under the counter the EEPROM holds (erased: 0), the
 * signature checked against the host library's for the same stream, and
 * VERIFY of it. */
typedef struct {
    unsigned m, n;
    unsigned flash, sram_static; /* bytes of the image (avrsim_sizes) */
    avrsim_stats sign, verify, install;
    unsigned attempts;           /* the host's count for the signature */
} avrsim_measure_t;
int avrsim_measure(const char *elf, const uint8_t seed[32], const uint8_t *digest,
                   avrsim_measure_t *r, char *err, size_t errlen);

/* Static sizes of the image, from its ELF: flash bytes (text + data) and
 * static SRAM (data + bss). */
int avrsim_sizes(const char *elf, unsigned *flash, unsigned *sram, char *err,
                 size_t errlen);

/* A fault for the tests: mask XORed into the byte at addr of flash
 * (flash != 0) or of the data space, once, when the core has run after
 * cycles from now (the next command's). */
int avrsim_fault(avrsim *s, uint64_t after, int flash, uint16_t addr, uint8_t mask, char *err,
                 size_t errlen);

#endif
