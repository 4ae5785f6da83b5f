/* SPDX-License-Identifier: MIT */
/*
 * What the four tools share on the command line: exit statuses, error
 * messages, option parsing, hex input.
 *
 * Messages start with the tool's name (cli_prog, set by main) and speak
 * one line; a usage error names the problem, then points to --help.
 */
#ifndef TTS_CLI_H
#define TTS_CLI_H

#include <stddef.h>
#include <stdint.h>

#define ST_OK      0 /* success */
#define ST_INVALID 1 /* a signature or solution that fails, a card error */
#define ST_ERROR   2 /* usage or input error */

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

extern const char *cli_prog; /* "tts", "tts-card", ... */

/* "PROG: message" on stderr; returns ST_ERROR. */
int cli_fail(const char *fmt, ...) CLI_PRINTF(1, 2);

/* "PROG: message" and "PROG: see 'PROG --help'" on stderr; ST_ERROR. */
int cli_usage(const char *fmt, ...) CLI_PRINTF(1, 2);

/* An option: long name (without "--"), short letter or 0, and either a
 * value pointer (the option takes a value) or a flag set to 1. A table
 * ends with CLI_OPT_END. */
typedef struct {
    const char *name;
    char letter;
    const char **value;
    int *flag;
} cli_opt;

#define CLI_OPT_END {NULL, 0, NULL, NULL}

/* Parse argv[1..] of a command (argv[0] names it in messages) against
 * opts: options and operands may mix, "--name=value" and "-xVALUE" work,
 * "--" ends the options and "-" is an operand. Operands are moved to
 * argv[1..]; returns their count, or -1 after a usage message. */
int cli_parse(int argc, char **argv, const cli_opt *opts);

/* The options before the first operand (a tool's global options, before
 * a subcommand that has its own): the index of that operand (argc if
 * none; "--" ends the options), or -1 after a usage message. */
int cli_parse_head(int argc, char **argv, const cli_opt *opts);

/* A binary output named "-" is refused when standard output is a
 * terminal (unreadable bytes that can upset it): ST_OK, or ST_ERROR after
 * the message ("use -o FILE", and the hint, if any). */
int cli_binary_out(const char *path, const char *hint);

/* Warn on stderr when $TTS_BACKEND names no backend this build runs on
 * this CPU (the library then picks the best one itself). */
void cli_backend_check(void);

/* Hex text (spaces, tabs, line breaks and ':' between byte pairs are
 * ignored) into at most max bytes: the byte count, or -1 for anything but
 * whole hex pairs that fit. */
long cli_hex(const char *text, size_t len, uint8_t *out, size_t max);

#endif
