/* SPDX-License-Identifier: MIT */
/* The options tts-card and tts-avr share: tools/devcli.h. */
#include "devcli.h"

#include <stddef.h>

int devcli_parse(int argc, char **argv, devcli_opts *o, const cli_opt *extra)
{
    cli_opt opts[11 + DEVCLI_EXTRA + 1] = {
        {"help", 'h', NULL, &o->help},    {"version", 0, NULL, &o->version},
        {"report", 0, NULL, &o->report},  {"force", 0, NULL, &o->force},
        {"armor", 0, NULL, &o->armor},    {"raw", 0, NULL, &o->raw},
        {"params", 0, &o->params, NULL},  {"image", 0, &o->image, NULL},
        {"image-dir", 0, &o->dir, NULL},  {"eeprom", 0, &o->eeprom, NULL},
        {"pin", 0, &o->pin, NULL}};
    size_t n = 11;
    for (size_t k = 0; extra && extra[k].name; k++) {
        if (k == DEVCLI_EXTRA)
            return cli_fail("internal error: more than %d options of its own", DEVCLI_EXTRA), -1;
        opts[n++] = extra[k];
    }
    opts[n] = (cli_opt)CLI_OPT_END;
    int i = cli_parse_head(argc, argv, opts);
    if (i >= 0 && o->armor && o->raw && !o->help && !o->version) {
        cli_fail("--armor and --raw exclude each other");
        return -1;
    }
    return i;
}
