/* SPDX-License-Identifier: MIT */
/* What the device tests (tests/test_avr.c, tests/test_cortexm.c) share: a
 * failure counter with its CHECK, and the key pair of one entry of a KAT
 * file (kat/). */
#ifndef TTS_TESTS_DEVICE_TEST_H
#define TTS_TESTS_DEVICE_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(c, ...)                                                                 \
    do {                                                                              \
        if (!(c)) {                                                                   \
            failures++;                                                               \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                      \
            fprintf(stderr, __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                      \
        }                                                                             \
    } while (0)

static inline int unhex(const char *s, uint8_t *out, size_t max)
{
    size_t n = 0;
    for (; s[0] && s[1] && s[0] != '\n' && n < max; s += 2) {
        unsigned v;
        if (sscanf(s, "%2x", &v) != 1)
            return -1;
        out[n++] = (uint8_t)v;
    }
    return (int)n;
}

/* the pk and sk of entry idx of the KAT file */
static inline int kat_key(const char *path, int idx, uint8_t *pk, size_t pkb, uint8_t *sk, size_t skb)
{
    FILE *f = fopen(path, "r");
    static char line[200000];
    int count = -1, got = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f) && got < 2) {
        if (!strncmp(line, "count = ", 8))
            count = atoi(line + 8);
        else if (count == idx && !strncmp(line, "pk = ", 5))
            got += unhex(line + 5, pk, pkb) == (int)pkb;
        else if (count == idx && !strncmp(line, "sk = ", 5))
            got += unhex(line + 5, sk, skb) == (int)skb;
    }
    fclose(f);
    return got == 2 ? 0 : -1;
}

#endif
