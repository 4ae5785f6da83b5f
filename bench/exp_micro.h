/* SPDX-License-Identifier: MIT */
/* tts-bench micro (bench/exp_micro.c): the AVR experiment. The tool
 * (tools/tts-bench.c) parses its command line. */
#ifndef TTS_EXP_MICRO_H
#define TTS_EXP_MICRO_H

#include <stdio.h>

#include "harness.h"

/* micro's usage text (dir: the images' folder by default). */
void micro_usage(FILE *f, const char *dir);

/* TTS's rows measured with the AVR images of dir (DIR/tts-M-N.elf), the
 * published ones beside them, on standard output and into o's reports
 * (opened here): the exit status. */
int cmd_micro(const char *dir, outputs *o);

#endif
