/* SPDX-License-Identifier: MIT */
/* The test's randombytes: a ChaCha20 keystream of a fixed key, served in
 * order, so that a package and the library given the same calls draw the
 * same bytes. */
#include <sodium.h>

#include "randombytes.h"

void randombytes(unsigned char *out, unsigned long long len)
{
    static unsigned char key[crypto_stream_chacha20_KEYBYTES] = {42};
    static unsigned char nonce[crypto_stream_chacha20_NONCEBYTES];
    static unsigned char buf[1 << 16];
    static size_t pos = sizeof buf;
    static uint64_t block;
    while (len--) {
        if (pos == sizeof buf) {
            crypto_stream_chacha20_xor_ic(buf, (const unsigned char[sizeof buf]){0}, sizeof buf,
                                          nonce, block, key);
            block += sizeof buf / 64;
            pos = 0;
        }
        *out++ = buf[pos++];
    }
}
