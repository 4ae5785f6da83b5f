/* SPDX-License-Identifier: MIT */
/*
 * cardsim: talk to a libtts 8051 card image in the ucsim simulator (s51).
 *
 * A session is a batch: the commands are written to one request file
 * (ending with HALT), s51 runs the image once over it, and the responses
 * are parsed from the response file (docs/CARD.md, Protocol). The
 * transport is the simulator interface at XDATA 0xFFFF, or the simulated
 * UART for images built with CARD_UART.
 */
#ifndef TTS_CARDSIM_H
#define TTS_CARDSIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "protocol.h" /* 8051/protocol.h: CLA, INS, status words */

typedef struct {
    uint8_t cla, ins, p1, p2, lc;
    uint8_t data[255];
    int raw_len;          /* >= 0: send raw[0..raw_len) instead (tests) */
    uint8_t raw[300];
} card_apdu;

/* The XDATA the card keeps across sessions: everything below the
 * linker's globals and the simulator interface (0xFF00..0xFFFF). */
#define CARD_XRAM_BYTES 0xFF00

typedef struct {
    uint16_t sw;          /* 0 if the card gave no response */
    uint8_t len;
    uint8_t data[255];
} card_resp;

typedef struct {
    const char *s51;      /* simulator binary ("s51" if NULL) */
    const char *image;    /* .ihx */
    const char *cpu;      /* "8032", "DS320", "8051" */
    double mhz;
    int uart;             /* 1: simulated UART instead of the interface */
    int verbose;
    card_apdu *cmd;
    size_t ncmd, cap;
    card_resp *resp;      /* ncmd entries after card_run */
    size_t nresp;
    const uint8_t *xram_in;   /* CARD_XRAM_BYTES of XDATA to start from, or
                               * NULL: a fresh card (erased EEPROM, 0xFF) */
    uint8_t *xram_out;        /* CARD_XRAM_BYTES: XDATA after the run, or NULL */
    unsigned long long cut;   /* > 0: a power cut after this many instructions
                               * (the answers are not required) */
    unsigned watch;           /* > 0: stop at the first watch_hits writes to XDATA
                               * address watch - 1 and note when (tests) */
    int watch_hits;
    int watch_read;           /* 1: reads of that address instead of writes */
    unsigned long long watch_at[8]; /* instructions executed at each such write */
    unsigned long long insts; /* instructions executed in the last run */
    unsigned long long ticks; /* "Simulated N ticks" of the last run */
    long timeout;         /* CPU seconds of the simulator for one run; 0: card_timeout() */
} card_batch;

void card_init(card_batch *b, const char *image, const char *cpu, double mhz);
void card_free(card_batch *b);
/* Append a command; returns its index. */
size_t card_add(card_batch *b, uint8_t ins, uint8_t p1, uint8_t p2,
                const uint8_t *data, uint8_t lc);
size_t card_add_raw(card_batch *b, const uint8_t *bytes, int len);
/* Run s51 on the batch (a HALT is appended unless the last command is one);
 * 0 on success (every command answered), -1 on a simulator/IO failure. */
int card_run(card_batch *b);
/* Run only the first k commands (+ HALT) and return the ticks, for the
 * tick-difference timing of 4T cores; (unsigned long long)-1 on failure. */
unsigned long long card_ticks_prefix(card_batch *b, size_t k);
/* The simulator time allowed for the first k commands of b: 10 s, plus a
 * budget per command (key generation minutes, a signature a minute, the
 * rest seconds); $TTS_CARD_TIMEOUT (seconds, 0: none) overrides it. */
long card_timeout(const card_batch *b, size_t k);
/* The data length a successful answer to a (non-raw) command must have,
 * or -1 if it depends on the command's P1/P2 (GET PK SEGMENT: the caller
 * checks). m and n are the set's dimensions. */
int card_answer_len(const card_apdu *a, unsigned m, unsigned n);
/* Check that buf (len bytes) is an Intel HEX image: every record well
 * formed with its checksum, data present, one end-of-file record last.
 * 0, or -1 with the reason (line number) in err. */
int card_check_ihex(const uint8_t *buf, size_t len, char *err, size_t errlen);
/* Clocks per machine cycle of a ucsim CPU type: 12 (8032/8051), 4 (DS320). */
int card_clocks_per_cycle(const char *cpu);
/* tts-card's --watch ADDR:K[:r] (into watch = ADDR + 1, hits, read) and
 * --cut N (digits only, N >= 1): 0, or -1 if malformed. */
int card_parse_watch(const char *arg, unsigned *watch, int *hits, int *read);
int card_parse_cut(const char *arg, unsigned long long *cut);

/* The device-host library's messages on standard error begin with the
 * program's name: "tts-card" unless set (tts-bench's passport sets its
 * own); card_warn prints "NAME: " and the formatted text. */
void card_set_prog(const char *name);
void card_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* n bytes as upper-case hex. */
void card_print_hex(FILE *f, const uint8_t *b, size_t n);

/* tts-card's lines for --watch (the instruction count at each access) and
 * --cut (the count reached), after a run. */
void card_print_watch(FILE *rep, const card_batch *b);

/* The answers of commands first .. first + count of a run batch (and of
 * prof, the GET PROFILE after them, unless (size_t)-1): 0, or 1 with the
 * first fault said (name: the subcommand): a status other than 9000
 * (unless any_sw) or an answer of the wrong length. */
int card_check_answers(const card_batch *b, size_t first, size_t count, size_t prof,
                       unsigned m, unsigned n, const char *name, int any_sw);
/* The public key (pkb bytes) from the GET PK SEGMENT answers among the
 * commands first .. first + count (segments of segk monomials): 0, or 1
 * with the fault said. */
int card_assemble_pk(const card_batch *b, size_t first, size_t count, unsigned m,
                     unsigned segk, size_t pkb, uint8_t *pk);
const char *card_sw_name(uint16_t sw);

#endif
