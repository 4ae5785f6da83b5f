/* SPDX-License-Identifier: MIT */
/*
 * The SUPERCOP packages' SHA-512 and ChaCha20 (supercop/tts_prims.c)
 * against libsodium's: SHA-512 of every length 0..1100 (one, two and
 * several blocks, every padding boundary) and of FIPS 180-2's "abc"
 * (C.1, an expected value from outside both libraries); IETF ChaCha20 of
 * lengths 0..700 at block counters 0, 1, 1000 and 2^32 - 2 (the counter
 * wrapping within the call is not compared: libsodium refuses it), in
 * place and not; and the wipe. Prints one line per mismatch; exit 0 when
 * none.
 */
#include <sodium.h>
#include <stdio.h>
#include <string.h>

void tts_prims_sha512(uint8_t out[64], const uint8_t *in, unsigned long long len);
void tts_prims_chacha20_ietf_xor_ic(uint8_t *c, const uint8_t *m, unsigned long long len,
                                    const uint8_t n[12], uint32_t ic, const uint8_t k[32]);
void tts_prims_wipe(void *p, size_t len);

/* The packages' randombytes, unused here but referenced by the header. */
void randombytes(unsigned char *x, unsigned long long len);
void randombytes(unsigned char *x, unsigned long long len) { randombytes_buf(x, len); }

int main(void)
{
    static uint8_t in[1200], a[1200], b[1200];
    uint8_t k[32], n[12], h1[64], h2[64];
    int bad = 0;
    if (sodium_init() < 0)
        return 2;
    randombytes_buf(in, sizeof in);

    static const char abc_hex[] =
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f";
    char hex[129];
    tts_prims_sha512(h1, (const uint8_t *)"abc", 3);
    sodium_bin2hex(hex, sizeof hex, h1, 64);
    if (strcmp(hex, abc_hex) != 0) {
        printf("SHA-512(\"abc\") = %s\n", hex);
        bad = 1;
    }
    for (unsigned len = 0; len <= 1100; len++) {
        crypto_hash_sha512(h1, in, len);
        tts_prims_sha512(h2, in, len);
        if (memcmp(h1, h2, 64) != 0) {
            printf("SHA-512 of %u bytes differs\n", len);
            bad = 1;
        }
    }
    static const uint32_t ics[] = {0, 1, 1000, 0xfffffffe};
    for (unsigned i = 0; i < sizeof ics / sizeof ics[0]; i++)
        for (unsigned len = 0; len <= 700; len++) {
            if (ics[i] == 0xfffffffe && len > 128)
                break;
            randombytes_buf(k, sizeof k);
            randombytes_buf(n, sizeof n);
            crypto_stream_chacha20_ietf_xor_ic(a, in, len, n, ics[i], k);
            tts_prims_chacha20_ietf_xor_ic(b, in, len, n, ics[i], k);
            int diff = memcmp(a, b, len) != 0;
            memcpy(b, in, len); /* in place */
            tts_prims_chacha20_ietf_xor_ic(b, b, len, n, ics[i], k);
            if (diff || memcmp(a, b, len) != 0) {
                printf("ChaCha20 of %u bytes at block %u differs\n", len, (unsigned)ics[i]);
                bad = 1;
            }
        }
    memset(a, 0xA5, 100);
    tts_prims_wipe(a + 10, 80);
    for (unsigned i = 0; i < 100; i++)
        if (a[i] != (i >= 10 && i < 90 ? 0 : 0xA5)) {
            printf("the wipe is wrong at byte %u\n", i);
            bad = 1;
            break;
        }
    return bad;
}
