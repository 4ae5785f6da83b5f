/* SPDX-License-Identifier: MIT */
/* SHA-512 (FIPS 180-4), IETF ChaCha20 (RFC 8439) and a wipe, for the
 * SUPERCOP packages (supercop/tts_prims.h), in portable C: the packages
 * hash messages (public) and draw a few stream blocks (the key stream and
 * its key are wiped). tests/test_supercop.sh checks both against
 * libsodium. */
#include <string.h>

#include "tts_prims.h"

static uint64_t load64_be(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++)
        x = (x << 8) | p[i];
    return x;
}

static void store64_be(uint8_t *p, uint64_t x)
{
    for (int i = 7; i >= 0; i--, x >>= 8)
        p[i] = (uint8_t)x;
}

static uint64_t ror64(uint64_t x, unsigned r) { return (x >> r) | (x << (64 - r)); }

/* FIPS 180-4 section 4.2.3: the first 64 bits of the fractional parts of
 * the cube roots of the first 80 primes. */
static const uint64_t K512[80] = {
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
    0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
    0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
    0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
    0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
};

/* One 128-byte block into the state (section 6.4.2): the eight working
 * variables renamed from round to round instead of moved, the message
 * schedule kept in a ring of 16 words. The data hashed is the message,
 * public: nothing here is wiped. */
#define S0(x) (ror64(x, 28) ^ ror64(x, 34) ^ ror64(x, 39))
#define S1(x) (ror64(x, 14) ^ ror64(x, 18) ^ ror64(x, 41))
#define s0(x) (ror64(x, 1) ^ ror64(x, 8) ^ ((x) >> 7))
#define s1(x) (ror64(x, 19) ^ ror64(x, 61) ^ ((x) >> 6))
#define ROUND(a, b, c, d, e, f, g, h, t)                                       \
    do {                                                                       \
        uint64_t T1 = h + S1(e) + ((e & f) ^ (~e & g)) + K512[t] + W[(t) & 15];\
        d += T1;                                                               \
        h = T1 + S0(a) + ((a & b) ^ (a & c) ^ (b & c));                        \
    } while (0)

static void sha512_block(uint64_t H[8], const uint8_t *blk)
{
    uint64_t W[16];
    uint64_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    for (int t = 0; t < 16; t++)
        W[t] = load64_be(blk + 8 * t);
    for (int t = 0; t < 80; t += 8) {
        if (t >= 16)
            for (int i = 0; i < 8; i++) {
                int j = t + i;
                W[j & 15] += s1(W[(j - 2) & 15]) + W[(j - 7) & 15] + s0(W[(j - 15) & 15]);
            }
        ROUND(a, b, c, d, e, f, g, h, t);
        ROUND(h, a, b, c, d, e, f, g, t + 1);
        ROUND(g, h, a, b, c, d, e, f, t + 2);
        ROUND(f, g, h, a, b, c, d, e, t + 3);
        ROUND(e, f, g, h, a, b, c, d, t + 4);
        ROUND(d, e, f, g, h, a, b, c, t + 5);
        ROUND(c, d, e, f, g, h, a, b, t + 6);
        ROUND(b, c, d, e, f, g, h, a, t + 7);
    }
    H[0] += a, H[1] += b, H[2] += c, H[3] += d, H[4] += e, H[5] += f, H[6] += g, H[7] += h;
}

void tts_prims_sha512(uint8_t out[64], const uint8_t *in, unsigned long long len)
{
    /* section 5.3.5 */
    uint64_t H[8] = {
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
    };
    uint8_t last[256] = {0};
    const unsigned long long bits_hi = len >> 61, bits_lo = len << 3;
    unsigned long long full = len / 128;
    for (unsigned long long i = 0; i < full; i++)
        sha512_block(H, in + 128 * i);
    /* section 5.1.2: the rest, 0x80, zeros, the 128-bit bit length; one
     * block when the rest leaves 17 bytes for the tail, else two */
    size_t rest = (size_t)(len % 128), blocks = rest < 112 ? 1 : 2;
    if (rest)
        memcpy(last, in + 128 * full, rest);
    last[rest] = 0x80;
    store64_be(last + 128 * blocks - 16, bits_hi);
    store64_be(last + 128 * blocks - 8, bits_lo);
    for (size_t b = 0; b < blocks; b++)
        sha512_block(H, last + 128 * b);
    for (int i = 0; i < 8; i++)
        store64_be(out + 8 * i, H[i]);
}

static uint32_t load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t rol32(uint32_t x, unsigned r) { return (x << r) | (x >> (32 - r)); }

#define QR(a, b, c, d)                                                         \
    do {                                                                       \
        x[a] += x[b]; x[d] = rol32(x[d] ^ x[a], 16);                           \
        x[c] += x[d]; x[b] = rol32(x[b] ^ x[c], 12);                           \
        x[a] += x[b]; x[d] = rol32(x[d] ^ x[a], 8);                            \
        x[c] += x[d]; x[b] = rol32(x[b] ^ x[c], 7);                            \
    } while (0)

/* RFC 8439 section 2.3: one 64-byte block of the key stream. */
static void chacha20_block(uint8_t out[64], const uint32_t in[16])
{
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (int r = 0; r < 10; r++) {
        QR(0, 4, 8, 12);
        QR(1, 5, 9, 13);
        QR(2, 6, 10, 14);
        QR(3, 7, 11, 15);
        QR(0, 5, 10, 15);
        QR(1, 6, 11, 12);
        QR(2, 7, 8, 13);
        QR(3, 4, 9, 14);
    }
    for (int i = 0; i < 16; i++) {
        uint32_t v = x[i] + in[i];
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(v >> 8 * j);
    }
    tts_prims_wipe(x, sizeof x);
}

void tts_prims_chacha20_ietf_xor_ic(uint8_t *c, const uint8_t *m, unsigned long long len,
                                    const uint8_t n[12], uint32_t ic, const uint8_t k[32])
{
    uint32_t s[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}; /* "expand 32-byte k" */
    uint8_t ks[64];
    for (int i = 0; i < 8; i++)
        s[4 + i] = load32_le(k + 4 * i);
    s[12] = ic;
    for (int i = 0; i < 3; i++)
        s[13 + i] = load32_le(n + 4 * i);
    while (len) {
        chacha20_block(ks, s);
        s[12]++;
        size_t take = len < 64 ? (size_t)len : 64;
        for (size_t i = 0; i < take; i++)
            c[i] = m[i] ^ ks[i];
        c += take;
        m += take;
        len -= take;
    }
    tts_prims_wipe(ks, sizeof ks);
    tts_prims_wipe(s, sizeof s);
}

static void *(*const volatile wipe_memset)(void *, int, size_t) = memset;

void tts_prims_wipe(void *p, size_t len)
{
    if (len)
        wipe_memset(p, 0, len);
}
