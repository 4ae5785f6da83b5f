/* SPDX-License-Identifier: MIT */
/*
 * The wipe check of tests/test_card_wipe.sh and tests/test_avr_wipe.sh,
 * loaded into tts-card or tts-avr with LD_PRELOAD: every heap block the
 * tool frees, or hands to realloc (which
 * may free it unwiped), is searched for the bytes TTS_WIPE_PATTERN gives
 * in hex (a piece of the secret key the test installs); each find appends
 * a line to the file TTS_WIPE_LOG. Only a program whose name holds
 * "tts-card" or "tts-avr" is watched (not the simulator tts-card runs). glibc only: it calls
 * __libc_free and __libc_realloc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void __libc_free(void *);
extern void *__libc_realloc(void *, size_t);

static unsigned char pat[64];
static size_t plen;
static int state; /* 0 not read yet, 1 watching, 2 not */

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static void setup(void)
{
    const char *h = getenv("TTS_WIPE_PATTERN");
    state = 2;
    if (!h || (!strstr(program_invocation_short_name, "tts-card") &&
               !strstr(program_invocation_short_name, "tts-avr")))
        return;
    for (plen = 0; plen < sizeof pat && hexval(h[2 * plen]) >= 0 && hexval(h[2 * plen + 1]) >= 0;
         plen++)
        pat[plen] = (unsigned char)(hexval(h[2 * plen]) << 4 | hexval(h[2 * plen + 1]));
    state = plen >= 8 ? 1 : 2;
}

static void check(void *p, const char *how)
{
    int e = errno;
    if (!state)
        setup();
    if (p && state == 1 && memmem(p, malloc_usable_size(p), pat, plen)) {
        const char *log = getenv("TTS_WIPE_LOG");
        int fd = log ? open(log, O_WRONLY | O_APPEND | O_CREAT, 0600) : 2;
        if (fd >= 0) {
            (void)!write(fd, how, strlen(how));
            (void)!write(fd, ": a block holding the key, not wiped\n", 37);
            if (fd != 2)
                close(fd);
        }
    }
    errno = e;
}

void free(void *p)
{
    check(p, "free");
    __libc_free(p);
}

void *realloc(void *p, size_t n)
{
    check(p, "realloc");
    return __libc_realloc(p, n);
}
