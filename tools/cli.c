/* SPDX-License-Identifier: MIT */
/* The tools' command-line helpers: tools/cli.h. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "cli.h"

#include <tts.h>

const char *cli_prog = "tts";

static void vsay(const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: ", cli_prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cli_fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
    return ST_ERROR;
}

int cli_binary_out(const char *path, const char *hint)
{
    if (path && strcmp(path, "-") == 0 && isatty(STDOUT_FILENO))
        return cli_fail("refusing to write binary data to a terminal; use -o FILE%s%s",
                        hint ? " " : "", hint ? hint : "");
    return ST_OK;
}

int cli_usage(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: see '%s --help'\n", cli_prog, cli_prog);
    return ST_ERROR;
}

static const cli_opt *find_long(const cli_opt *o, const char *s, size_t len)
{
    for (; o->name; o++)
        if (strlen(o->name) == len && memcmp(o->name, s, len) == 0)
            return o;
    return NULL;
}

static const cli_opt *find_short(const cli_opt *o, char c)
{
    for (; o->name; o++)
        if (o->letter && o->letter == c)
            return o;
    return NULL;
}

/* The option argv[*i] (it starts with '-' and is neither "-" nor "--"),
 * with its value; *i moves past what it used. cmd prefixes the messages
 * (NULL: none). 0, or -1 after a usage message. */
static int take(int argc, char **argv, int *i, const cli_opt *opts, const char *cmd)
{
    const char *a = argv[*i], *val = NULL, *pre = cmd ? cmd : "", *sep = cmd ? ": " : "";
    const cli_opt *o;

    if (a[1] == '-') {
        const char *eq = strchr(a + 2, '=');
        size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
        if ((o = find_long(opts, a + 2, len)) == NULL)
            return cli_usage("%s%sunknown option '%.*s'", pre, sep, (int)(len + 2), a), -1;
        if (eq && !o->value)
            return cli_usage("%s%soption --%s takes no value", pre, sep, o->name), -1;
        val = eq ? eq + 1 : NULL;
    } else {
        if ((o = find_short(opts, a[1])) == NULL)
            return cli_usage("%s%sunknown option '-%c'", pre, sep, a[1]), -1;
        if (a[2] && !o->value)
            return cli_usage("%s%soption -%c takes no value", pre, sep, a[1]), -1;
        val = a[2] ? a + 2 : NULL;
    }
    if (!o->value) {
        *o->flag = 1;
        return 0;
    }
    if (!val) {
        if (*i + 1 >= argc && a[1] == '-')
            return cli_usage("%s%soption --%s needs a value", pre, sep, o->name), -1;
        if (*i + 1 >= argc)
            return cli_usage("%s%soption -%c needs a value", pre, sep, a[1]), -1;
        val = argv[++*i];
    }
    *o->value = val;
    return 0;
}

int cli_parse(int argc, char **argv, const cli_opt *opts)
{
    int nops = 0, only_operands = 0;

    for (int i = 1; i < argc; i++) {
        char *a = argv[i];

        if (only_operands || a[0] != '-' || a[1] == '\0') {
            argv[1 + nops++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_operands = 1;
            continue;
        }
        if (take(argc, argv, &i, opts, argv[0]) != 0)
            return -1;
    }
    return nops;
}

int cli_parse_head(int argc, char **argv, const cli_opt *opts)
{
    int i = 1;

    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (strcmp(argv[i], "--") == 0)
            return i + 1;
        if (take(argc, argv, &i, opts, NULL) != 0)
            return -1;
    }
    return i;
}

long cli_hex(const char *text, size_t len, uint8_t *out, size_t max)
{
    static const char sep[] = " \t\r\n:";
    size_t got = 0;
    const char *end = NULL;

    if (sodium_hex2bin(out, max, text, len, sep, &got, &end) != 0)
        return -1;
    /* only separators may follow (not an odd digit, not another byte) */
    for (; end < text + len; end++)
        if (!*end || !strchr(sep, *end))
            return -1;
    return (long)got;
}

void cli_backend_check(void)
{
    const char *e = getenv("TTS_BACKEND");
    if (e && *e && strcmp(e, tts_backend()) != 0)
        fprintf(stderr, "%s: warning: TTS_BACKEND=%s is not a backend of this build that "
                "this CPU runs; using %s\n", cli_prog, e, tts_backend());
}
