/* SPDX-License-Identifier: MIT */
/* tts-card's report and the helpers its main file shares with it
 * (host/card_report.c). */
#ifndef TTS_CARD_REPORT_H
#define TTS_CARD_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <tts.h>

#include "cardsim.h"

/* The image: a regular file in Intel HEX with good checksums, and a card
 * of set p that answers GET INFO within seconds. 1, or 0 with the reason
 * in why. *prof (if given): whether it answers GET PROFILE. */
int card_image_ok(const char *image, const char *cpu, double mhz, int uart,
                  const tts_params *p, char *why, size_t whylen, int *prof);

/* VERIFY (ISO class) of the PIN; its index. */
size_t card_add_verify(card_batch *b, const uint8_t *pin, size_t pinlen);
/* PUT KEY of buf[off..off+len) in commands of 255 bytes. */
void card_add_put(card_batch *b, const uint8_t *buf, size_t off, size_t len);

/* Milliseconds of cycles machine cycles of cpc clocks at mhz. */
double card_ms_of(unsigned long long cycles, int cpc, double mhz);

/* tts-card's image: image if given, else DIR/tts-M-N.ihx (with --cpu 8051
 * the 128-byte family's -128.ihx) in buf; it must exist, and on the 8051
 * need at most 128 B of internal RAM, then pass card_image_ok (*prof: it
 * answers GET PROFILE). 0, or 2 with the reason said. */
int card_find_image(const char *dir, const tts_params *p, const char *cpu, const char *image,
                    char *buf, size_t len, const char **out);
int card_check_image(const char *image, const char *cpu, double mhz, int uart,
                     const tts_params *p, int *prof);

/* tts-card --report's line for one subcommand (name; sign: a SIGN whose
 * GET COUNTER and VERIFY come first) of the commands first .. first +
 * count of the run batch b, prof the GET PROFILE (prof_ok) or GET CYCLES
 * after them: its machine cycles (GET CYCLES on 12T cores, ChaCha20 apart
 * with GET PROFILE; the simulated ticks' difference on 4T cores). */
void card_report_line(FILE *rep, card_batch *b, const char *name, int sign, size_t first,
                      size_t count, size_t prof, int prof_ok, const char *cpu, double mhz);
uint32_t card_be32(const uint8_t *p);

/* DIR/tts-M-N.ihx into buf. */
const char *card_image_path(const char *dir, const tts_params *p, char *buf, size_t len);
/* From the image's .sizes file: iram (and code, xdata), or a named
 * figure; -1 where absent. */
long card_image_iram(const char *image, long *code, long *xdata);
long card_image_size(const char *image, const char *want);

/* The tables for every set and image family; only (--params) and cpu
 * (--cpu) narrow them when given. 0, or 1 if an image failed. */
int card_report_all(const char *dir, double mhz, int verbose, const tts_params *only,
                    const char *cpu);

#endif
