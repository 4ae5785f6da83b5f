/* SPDX-License-Identifier: MIT */
/* tts-card's report and the helpers its main file shares with it
 * (tools/card_report.c). */
#ifndef TTS_CARD_REPORT_H
#define TTS_CARD_REPORT_H

#include <stddef.h>
#include <stdint.h>

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
