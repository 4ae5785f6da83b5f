/* The tools' command-line helpers: tools/cli.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "cli.h"

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

int cli_parse(int argc, char **argv, const cli_opt *opts)
{
    int nops = 0, only_operands = 0;

    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        const cli_opt *o;
        const char *val = NULL;

        if (only_operands || a[0] != '-' || a[1] == '\0') {
            argv[1 + nops++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_operands = 1;
            continue;
        }
        if (a[1] == '-') {
            const char *eq = strchr(a + 2, '=');
            size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
            if ((o = find_long(opts, a + 2, len)) == NULL) {
                cli_usage("%s: unknown option '%.*s'", argv[0],
                          (int)(len + 2), a);
                return -1;
            }
            if (eq && !o->value) {
                cli_usage("%s: option --%s takes no value", argv[0], o->name);
                return -1;
            }
            val = eq ? eq + 1 : NULL;
        } else {
            if ((o = find_short(opts, a[1])) == NULL) {
                cli_usage("%s: unknown option '-%c'", argv[0], a[1]);
                return -1;
            }
            if (a[2] && !o->value) {
                cli_usage("%s: option -%c takes no value", argv[0], a[1]);
                return -1;
            }
            val = a[2] ? a + 2 : NULL;
        }
        if (!o->value) {
            *o->flag = 1;
            continue;
        }
        if (!val) {
            if (i + 1 >= argc) {
                cli_usage("%s: option --%s needs a value", argv[0], o->name);
                return -1;
            }
            val = argv[++i];
        }
        *o->value = val;
    }
    return nops;
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
