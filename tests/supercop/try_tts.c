/* SPDX-License-Identifier: MIT */
/*
 * This project's own harness for SUPERCOP's crypto_sign checksums: the
 * sequence of calls of SUPERCOP 20160716's crypto_sign/try.c (LOOPS rounds
 * of keypair, sign and open of a message of random length, with canaries
 * around every buffer, the overlapping open calls, and three changed
 * bytes refused or harmless), the inputs drawn from its three Salsa20
 * streams (randombytes, test vectors, canaries: each call a new 8-byte
 * nonce, the counter of the stream from 0), and its checksum of the key
 * pair, the signed message and the opened message, a Salsa20 core chained
 * over 16-byte pieces. -DSMALL gives checksumsmall (8 rounds, messages up
 * to 128 bytes), else checksumbig (64 rounds, up to 4,096 bytes). Prints
 * the 64 hex digits; exits 111 with the reason on any failure, as try.c.
 *
 * Built with a package's files (its crypto_sign.h, made by the test as
 * SUPERCOP's do makes it) or, with -DLIBRARY, against libtts's NIST API
 * for set SET. The Salsa20 core follows Bernstein's specification
 * ("Salsa20 specification", 2005); tests/test_supercop.sh anchors the
 * whole on checksums of SUPERCOP's own try.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randombytes.h"
#ifdef LIBRARY
#include <tts.h>
static int rb(void *ctx, uint8_t *out, size_t len)
{
    (void)ctx;
    randombytes(out, len);
    return 0;
}
#define P tts_params_get(SET)
#define PKB tts_pk_bytes(P)
#define SKB tts_sk_bytes(P)
#define SIGB tts_sig_bytes(P)
#define KEYPAIR(pk, sk) tts_crypto_sign_keypair(P, pk, sk, rb, NULL)
#define SIGN(sm, smlen, m, mlen, sk) tts_crypto_sign(P, sm, smlen, m, mlen, sk, rb, NULL)
#define OPEN(m, mlen, sm, smlen, pk) tts_crypto_sign_open(P, m, mlen, sm, smlen, pk)
#else
#include "crypto_sign.h"
#define PKB crypto_sign_PUBLICKEYBYTES
#define SKB crypto_sign_SECRETKEYBYTES
#define SIGB crypto_sign_BYTES
#define KEYPAIR crypto_sign_keypair
#define SIGN crypto_sign
#define OPEN crypto_sign_open
#endif

#ifdef SMALL
#define MAXTEST 128
#define LOOPS 8
#else
#define MAXTEST 4096
#define LOOPS 64
#endif

typedef unsigned long long u64;

static uint32_t rotl(uint32_t x, unsigned r) { return (x << r) | (x >> (32 - r)); }

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* out[0..64) = Salsa20(k, in): the 4x4 word matrix of the constants on the
 * diagonal, the key around them, the 16 input bytes in words 6..9; ten
 * double rounds (columns, then rows); the input matrix added. out may
 * overlap k. */
static void salsa20_core(uint8_t out[64], const uint8_t in[16], const uint8_t k[32])
{
    static const uint8_t sigma[16] = "expand 32-byte k";
    uint32_t x[16], z[16];
    for (int i = 0; i < 4; i++) {
        z[5 * i] = le32(sigma + 4 * i);
        z[1 + i] = le32(k + 4 * i);
        z[6 + i] = le32(in + 4 * i);
        z[11 + i] = le32(k + 16 + 4 * i);
    }
    memcpy(x, z, sizeof x);
    for (int r = 0; r < 10; r++) {
        /* the quarter-round on (a, b, c, d): b ^= (a+d)<<<7, c ^= (b+a)<<<9,
         * d ^= (c+b)<<<13, a ^= (d+c)<<<18; columns start at the diagonal */
        for (int pass = 0; pass < 2; pass++)
            for (int j = 0; j < 4; j++) {
                int a = 5 * j, b, c, d;
                if (pass == 0) { /* column j: rows j, j+1, j+2, j+3 */
                    b = (a + 4) % 16, c = (a + 8) % 16, d = (a + 12) % 16;
                } else { /* row j: columns j, j+1, j+2, j+3 */
                    b = 4 * j + (j + 1) % 4, c = 4 * j + (j + 2) % 4, d = 4 * j + (j + 3) % 4;
                }
                x[b] ^= rotl(x[a] + x[d], 7);
                x[c] ^= rotl(x[b] + x[a], 9);
                x[d] ^= rotl(x[c] + x[b], 13);
                x[a] ^= rotl(x[d] + x[c], 18);
            }
    }
    for (int i = 0; i < 16; i++) {
        uint32_t v = x[i] + z[i];
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(v >> 8 * j);
    }
}

/* One of try.c's generators: the Salsa20 stream of a fixed 32-byte key and
 * an 8-byte nonce, counter from 0; every call takes the next nonce (a
 * little-endian counter). */
typedef struct {
    const char *key;
    uint8_t nonce[8];
} gen;

static void draw(gen *g, uint8_t *out, u64 len)
{
    uint8_t in[16] = {0}, block[64];
    memcpy(in, g->nonce, 8);
    while (len) {
        salsa20_core(block, in, (const uint8_t *)g->key);
        u64 take = len < 64 ? len : 64;
        memcpy(out, block, take);
        out += take;
        len -= take;
        for (int i = 8; i < 16 && ++in[i] == 0; i++)
            ;
    }
    for (int i = 0; i < 8 && ++g->nonce[i] == 0; i++)
        ;
}

static gen g_random = {"answer randombytes from crypto_*", {0}};
static gen g_vector = {"generate inputs for test vectors", {0}};
static gen g_canary = {"generate pad to catch overwrites", {0}};

void randombytes(unsigned char *x, unsigned long long len) { draw(&g_random, x, len); }

static u64 myrandom(void)
{
    uint8_t b[8];
    u64 r = 0;
    draw(&g_vector, b, 8);
    for (int i = 7; i >= 0; i--)
        r = r << 8 | b[i];
    return r;
}

static void fail(const char *why)
{
    printf("%s\n", why);
    exit(111);
}

/* The checksum: a 64-byte state; each 16-byte piece of the data replaces
 * it by Salsa20(key = its first 32 bytes, input = the piece); the last
 * piece (0..15 bytes) is padded with 1 and zeros, and the state's first
 * byte flipped in its lowest bit before it. */
static uint8_t state[64];

static void checksum(const uint8_t *x, u64 len)
{
    uint8_t last[16] = {0};
    for (; len >= 16; x += 16, len -= 16)
        salsa20_core(state, x, state);
    memcpy(last, x, len);
    last[len] = 1;
    state[0] ^= 1;
    salsa20_core(state, last, state);
}

/* Buffers with 16 bytes of room either side for the canaries (64 before:
 * main frees them from there). */
static uint8_t *buffer(u64 len)
{
    uint8_t *b = calloc(1, len + 128);
    if (!b)
        fail("out of memory");
    return b + 64;
}

static void canaries(uint8_t *x2, uint8_t *x, u64 len)
{
    draw(&g_canary, x - 16, 16);
    draw(&g_canary, x + len, 16);
    memcpy(x2 - 16, x - 16, 16);
    memcpy(x2 + len, x + len, 16);
}

/* x2 = x, and both with the same new canaries (try.c: memcpy, then
 * double_canary) */
static void copy_canaries(uint8_t *x2, uint8_t *x, u64 len)
{
    memcpy(x2, x, len);
    canaries(x2, x, len);
}

static void in_prepare(uint8_t *x2, uint8_t *x, u64 len)
{
    draw(&g_vector, x, len);
    draw(&g_canary, x - 16, 16);
    draw(&g_canary, x + len, 16);
    memcpy(x2 - 16, x - 16, len + 32);
}

static void in_compare(const uint8_t *x2, const uint8_t *x, u64 len, const char *fn)
{
    if (memcmp(x2 - 16, x - 16, len + 32)) {
        printf("%s overwrites input\n", fn);
        exit(111);
    }
}

static void out_prepare(uint8_t *x2, uint8_t *x, u64 len)
{
    draw(&g_canary, x - 16, len + 32);
    memcpy(x2 - 16, x - 16, len + 32);
}

static void out_compare(const uint8_t *x2, const uint8_t *x, u64 len, const char *fn)
{
    if (memcmp(x2 - 16, x - 16, 16) || memcmp(x2 + len, x + len, 16)) {
        printf("%s writes outside its output\n", fn);
        exit(111);
    }
}

int main(void)
{
    const u64 plen = PKB, slen = SKB, sigb = SIGB;
    u64 n = MAXTEST + sigb;
    if (n < plen)
        n = plen;
    if (n < slen)
        n = slen;
    uint8_t *p = buffer(n), *s = buffer(n), *m = buffer(n), *c = buffer(n), *t = buffer(n);
    uint8_t *p2 = buffer(n), *s2 = buffer(n), *m2 = buffer(n), *c2 = buffer(n), *t2 = buffer(n);
    u64 mlen, clen, tlen;

    for (int loop = 0; loop < LOOPS; loop++) {
        mlen = myrandom() % (MAXTEST + 1);

        out_prepare(p2, p, plen);
        out_prepare(s2, s, slen);
        if (KEYPAIR(p, s) != 0)
            fail("crypto_sign_keypair returns nonzero");
        checksum(p, plen);
        checksum(s, slen);
        out_compare(p2, p, plen, "crypto_sign_keypair");
        out_compare(s2, s, slen, "crypto_sign_keypair");

        clen = mlen + sigb;
        out_prepare(c2, c, clen);
        in_prepare(m2, m, mlen);
        copy_canaries(s2, s, slen);
        if (SIGN(c, &clen, m, mlen, s) != 0)
            fail("crypto_sign returns nonzero");
        if (clen < mlen || clen > mlen + sigb)
            fail("crypto_sign returns a wrong length");
        checksum(c, clen);
        out_compare(c2, c, clen, "crypto_sign");
        in_compare(m2, m, mlen, "crypto_sign");
        in_compare(s2, s, slen, "crypto_sign");

        tlen = clen;
        out_prepare(t2, t, tlen);
        copy_canaries(c2, c, clen);
        copy_canaries(p2, p, plen);
        if (OPEN(t, &tlen, c, clen, p) != 0)
            fail("crypto_sign_open returns nonzero");
        if (tlen != mlen || memcmp(t, m, mlen) != 0)
            fail("crypto_sign_open does not give m back");
        checksum(t, tlen);
        out_compare(t2, t, clen, "crypto_sign_open");
        in_compare(c2, c, clen, "crypto_sign_open");
        in_compare(p2, p, plen, "crypto_sign_open");

        canaries(t2, t, tlen);
        canaries(c2, c, clen);
        canaries(p2, p, plen);
        if (OPEN(t2, &tlen, c2, clen, p2) != 0 || memcmp(t2, t, tlen) != 0)
            fail("crypto_sign_open is nondeterministic");

        canaries(t2, t, tlen);
        canaries(c2, c, clen);
        canaries(p2, p, plen);
        if (OPEN(c2, &tlen, c2, clen, p) != 0 || memcmp(c2, t, tlen) != 0)
            fail("crypto_sign_open does not handle c=t overlap");
        memcpy(c2, c, clen);
        if (OPEN(p2, &tlen, c, clen, p2) != 0 || memcmp(p2, t, tlen) != 0)
            fail("crypto_sign_open does not handle p=t overlap");
        memcpy(p2, p, plen);

        for (int k = 0; k < 3; k++) {
            u64 at = myrandom() % clen;
            c[at] += (uint8_t)(1 + myrandom() % 255);
            if (OPEN(t, &tlen, c, clen, p) == 0 && (tlen != mlen || memcmp(t, m, mlen) != 0))
                fail("crypto_sign_open allows trivial forgeries");
        }
    }
    for (int i = 0; i < 32; i++)
        printf("%02x", state[i]);
    printf("\n");
    uint8_t *all[] = {p, s, m, c, t, p2, s2, m2, c2, t2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i] - 64);
    return 0;
}
