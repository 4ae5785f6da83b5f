/* SPDX-License-Identifier: MIT */
/*
 * The options tts-card and tts-avr share, in one table: what a device
 * session takes before its subcommands (--params, --image, --image-dir,
 * --eeprom, --pin, --report, --force, --armor, --raw, --help, --version).
 */
#ifndef TTS_DEVCLI_H
#define TTS_DEVCLI_H

#include "cli.h"

typedef struct {
    const char *params;  /* --params SET (NULL: not given) */
    const char *image;   /* --image FILE */
    const char *dir;     /* --image-dir DIR (set the environment's default before) */
    const char *eeprom;  /* --eeprom FILE: the device's state */
    const char *pin;     /* --pin FILE */
    int help, version, report, force, armor, raw;
} devcli_opts;

/* The options before the first operand (the first subcommand): the
 * shared ones into o, the tool's own in extra (ending with CLI_OPT_END, at
 * most DEVCLI_EXTRA of them). --armor with --raw is refused. The index of
 * the subcommand (argc if none), or -1 after a message (exit 2). */
#define DEVCLI_EXTRA 16
int devcli_parse(int argc, char **argv, devcli_opts *o, const cli_opt *extra);

#endif
