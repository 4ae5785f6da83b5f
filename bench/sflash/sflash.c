/* SPDX-License-Identifier: MIT */
/*
 * SFLASH v2 reference implementation (docs/SFLASH.md: the document
 * followed, section by section, and every decision made where it is
 * silent). Historical comparison only: SFLASH v2 is broken.
 *
 * Arithmetic: K = GF(2)[x]/(x^7 + x + 1), elements as 7-bit integers
 * (bit i = coefficient of x^i); L = K[X]/(X^37 + X^12 + X^10 + X^2 + 1),
 * elements as 37 coefficients of K (c[i] of X^i). K products are
 * branch-free shift-and-add; the exponent of F^-1 is public, so signing
 * performs a fixed sequence of operations.
 */
#include "sflash_internal.h"

#include <string.h>

#include <openssl/evp.h>
#include <sodium.h>

#include "tts.h"

#define N  SFLASH_N
#define NQ (N * (N + 1) / 2)

/* ---- K = GF(2^7) --------------------------------------------------------- */

/* Carry-less 7 x 7 bit product, unreduced (13 bits). */
static uint16_t clmul7(uint8_t a, uint8_t b)
{
    uint16_t r = 0;
    for (unsigned i = 0; i < 7; i++)
        r ^= (uint16_t)((uint16_t)a << i) & (uint16_t)-((b >> i) & 1);
    return r;
}

/* Reduce a 13-bit polynomial modulo x^7 + x + 1. */
static uint8_t kreduce(uint16_t r)
{
    for (unsigned k = 12; k >= 7; k--)
        r ^= (uint16_t)(0x83u << (k - 7)) & (uint16_t)-((r >> k) & 1);
    return (uint8_t)r;
}

sflash_elt sflash_kmul(sflash_elt a, sflash_elt b) { return kreduce(clmul7(a, b)); }

/* exp: 2^i for i = 0..253 (two periods, so that log a + log b needs no
 * reduction); log: discrete logarithm base 2, log[0] unused. Generated
 * from x^7 = x + 1; tests/test_sflash.c checks them against kmul. */
static const uint8_t kexp[254] = {
      1,   2,   4,   8,  16,  32,  64,   3,   6,  12,  24,  48,  96,  67,   5,  10,
     20,  40,  80,  35,  70,  15,  30,  60, 120, 115, 101,  73,  17,  34,  68,  11,
     22,  44,  88,  51, 102,  79,  29,  58, 116, 107,  85,  41,  82,  39,  78,  31,
     62, 124, 123, 117, 105,  81,  33,  66,   7,  14,  28,  56, 112,  99,  69,   9,
     18,  36,  72,  19,  38,  76,  27,  54, 108,  91,  53, 106,  87,  45,  90,  55,
    110,  95,  61, 122, 119, 109,  89,  49,  98,  71,  13,  26,  52, 104,  83,  37,
     74,  23,  46,  92,  59, 118, 111,  93,  57, 114, 103,  77,  25,  50, 100,  75,
     21,  42,  84,  43,  86,  47,  94,  63, 126, 127, 125, 121, 113,  97,  65,   1,
      2,   4,   8,  16,  32,  64,   3,   6,  12,  24,  48,  96,  67,   5,  10,  20,
     40,  80,  35,  70,  15,  30,  60, 120, 115, 101,  73,  17,  34,  68,  11,  22,
     44,  88,  51, 102,  79,  29,  58, 116, 107,  85,  41,  82,  39,  78,  31,  62,
    124, 123, 117, 105,  81,  33,  66,   7,  14,  28,  56, 112,  99,  69,   9,  18,
     36,  72,  19,  38,  76,  27,  54, 108,  91,  53, 106,  87,  45,  90,  55, 110,
     95,  61, 122, 119, 109,  89,  49,  98,  71,  13,  26,  52, 104,  83,  37,  74,
     23,  46,  92,  59, 118, 111,  93,  57, 114, 103,  77,  25,  50, 100,  75,  21,
     42,  84,  43,  86,  47,  94,  63, 126, 127, 125, 121, 113,  97,  65,
};
static const uint8_t klog[128] = {
      0,   0,   1,   7,   2,  14,   8,  56,   3,  63,  15,  31,   9,  90,  57,  21,
      4,  28,  64,  67,  16, 112,  32,  97,  10, 108,  91,  70,  58,  38,  22,  47,
      5,  54,  29,  19,  65,  95,  68,  45,  17,  43, 113, 115,  33,  77,  98, 117,
     11,  87, 109,  35,  92,  74,  71,  79,  59, 104,  39, 100,  23,  82,  48, 119,
      6, 126,  55,  13,  30,  62,  20,  89,  66,  27,  96, 111,  69, 107,  46,  37,
     18,  53,  44,  94, 114,  42, 116,  76,  34,  86,  78,  73,  99, 103, 118,  81,
     12, 125,  88,  61, 110,  26,  36, 106,  93,  52,  75,  41,  72,  85,  80, 102,
     60, 124, 105,  25,  40,  51, 101,  84,  24, 123,  83,  50,  49, 122, 120, 121,
};

/* Table product, for public data only (verification). */
sflash_elt sflash_kmul_pub(sflash_elt a, sflash_elt b)
{
    return a && b ? kexp[klog[a] + klog[b]] : 0;
}

/* a^-1 = a^126 (0 for 0). */
static sflash_elt kinv(sflash_elt a)
{
    sflash_elt r = 1, p = a;
    for (unsigned e = 126; e; e >>= 1) {
        if (e & 1)
            r = sflash_kmul(r, p);
        p = sflash_kmul(p, p);
    }
    return r;
}

/* ---- L = K^37 -------------------------------------------------------------- */

void sflash_lmul(sflash_l *r, const sflash_l *a, const sflash_l *b)
{
    uint16_t acc[2 * N - 1] = {0};
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++)
            acc[i + j] ^= clmul7(a->c[i], b->c[j]);
    /* X^37 = X^12 + X^10 + X^2 + 1, highest degree first (k - 25 may
     * still be >= 37 and is reduced later in the loop). */
    for (unsigned k = 2 * N - 2; k >= N; k--) {
        uint16_t c = acc[k];
        acc[k - 37] ^= c;
        acc[k - 35] ^= c;
        acc[k - 27] ^= c;
        acc[k - 25] ^= c;
    }
    for (unsigned i = 0; i < N; i++)
        r->c[i] = kreduce(acc[i]);
}

/* Binary polynomials of degree < 37 as uint64: product modulo the
 * defining polynomial (public data only). */
static uint64_t gf2_mulmod(uint64_t a, uint64_t b)
{
    const uint64_t f = (1ull << 37) | (1ull << 12) | (1ull << 10) | (1ull << 2) | 1;
    uint64_t r = 0;
    for (int i = 36; i >= 0; i--) {
        r <<= 1;
        if (r >> 37)
            r ^= f;
        if ((b >> i) & 1)
            r ^= a;
    }
    return r;
}

/* Raising to the power 128^e is K-linear and, since the defining
 * polynomial has binary coefficients, column j of its matrix is the
 * binary polynomial X^(j 128^e) mod f. */
typedef struct {
    uint64_t col[N];
} frobmat;

static void frob_matrix(frobmat *m, unsigned e)
{
    uint64_t u = 2; /* X */
    for (unsigned k = 0; k < 7 * e; k++) /* X^(2^(7e)) */
        u = gf2_mulmod(u, u);
    m->col[0] = 1;
    for (unsigned j = 1; j < N; j++)
        m->col[j] = gf2_mulmod(m->col[j - 1], u);
}

static void frob_apply(sflash_l *r, const sflash_l *a, const frobmat *m)
{
    sflash_l t = {{0}};
    for (unsigned j = 0; j < N; j++)
        for (unsigned k = 0; k < N; k++)
            t.c[k] ^= a->c[j] & (uint8_t)-((m->col[j] >> k) & 1);
    *r = t;
}

void sflash_frob(sflash_l *r, const sflash_l *a, unsigned e)
{
    frobmat m;
    frob_matrix(&m, e);
    frob_apply(r, a, &m);
}

static void F_with(sflash_l *r, const sflash_l *a, const frobmat *m11)
{
    sflash_l t;
    frob_apply(&t, a, m11);
    sflash_lmul(r, a, &t);
}

void sflash_F(sflash_l *r, const sflash_l *a)
{
    frobmat m;
    frob_matrix(&m, 11);
    F_with(r, a, &m);
}

/* (128^11 + 1)^-1 mod (128^37 - 1) in base 128, least significant digit
 * first; every digit is 63 or 64 (tests/test_sflash.c recomputes it). */
const uint8_t sflash_hinv_digits[N] = {
    64, 63, 63, 63, 64, 64, 64, 64, 63, 63, 63, 63, 64, 64, 64, 63, 63, 63, 63,
    64, 64, 64, 64, 63, 63, 63, 64, 64, 64, 64, 63, 63, 63, 63, 64, 64, 64,
};

/* a^h' by Horner's rule in base 128: a^63 and a^64 from six squarings and
 * five products, then per digit one Frobenius (a^128) and one product. */
void sflash_Finv(sflash_l *r, const sflash_l *a)
{
    frobmat m1;
    frob_matrix(&m1, 1);
    sflash_l sq = *a, p63 = *a, p64, acc;
    for (unsigned k = 1; k < 6; k++) {
        sflash_lmul(&sq, &sq, &sq);  /* a^(2^k) */
        sflash_lmul(&p63, &p63, &sq); /* a^(2^(k+1) - 1) */
    }
    sflash_lmul(&p64, &sq, &sq);     /* a^64 */
    acc = sflash_hinv_digits[N - 1] == 64 ? p64 : p63;
    for (int i = N - 2; i >= 0; i--) {
        frob_apply(&acc, &acc, &m1);
        sflash_lmul(&acc, &acc, sflash_hinv_digits[i] == 64 ? &p64 : &p63);
    }
    *r = acc;
    sodium_memzero(&sq, sizeof sq);
    sodium_memzero(&p63, sizeof p63);
    sodium_memzero(&p64, sizeof p64);
    sodium_memzero(&acc, sizeof acc);
}

/* ---- SHA-1, bit-oriented (FIPS 180-4 sections 5.1.1, 6.1) ------------------ */

static uint32_t rol(uint32_t x, unsigned s) { return x << s | x >> (32 - s); }

static void sha1_block(uint32_t h[5], const uint8_t b[64])
{
    uint32_t w[80], a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4];
    for (unsigned t = 0; t < 16; t++)
        w[t] = (uint32_t)b[4 * t] << 24 | (uint32_t)b[4 * t + 1] << 16 |
               (uint32_t)b[4 * t + 2] << 8 | b[4 * t + 3];
    for (unsigned t = 16; t < 80; t++)
        w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    for (unsigned t = 0; t < 80; t++) {
        uint32_t f, k;
        if (t < 20)
            f = (bb & c) | (~bb & d), k = 0x5A827999;
        else if (t < 40)
            f = bb ^ c ^ d, k = 0x6ED9EBA1;
        else if (t < 60)
            f = (bb & c) | (bb & d) | (c & d), k = 0x8F1BBCDC;
        else
            f = bb ^ c ^ d, k = 0xCA62C1D6;
        uint32_t tmp = rol(a, 5) + f + e + k + w[t];
        e = d, d = c, c = rol(bb, 30), bb = a, a = tmp;
    }
    h[0] += a, h[1] += bb, h[2] += c, h[3] += d, h[4] += e;
}

void sflash_sha1_bits(uint8_t out[20], const uint8_t *msg, size_t nbits)
{
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    uint8_t blk[64];
    size_t full = nbits / 512;
    for (size_t i = 0; i < full; i++)
        sha1_block(h, msg + 64 * i);
    /* the tail: rem bits, a 1 bit, zeros, the 64-bit length */
    size_t rem = nbits - 512 * full, rb = (rem + 7) / 8;
    memset(blk, 0, sizeof blk);
    if (rb)
        memcpy(blk, msg + 64 * full, rb);
    if (rem % 8)
        blk[rem / 8] &= (uint8_t)(0xFF00u >> (rem % 8));
    blk[rem / 8] |= (uint8_t)(0x80u >> (rem % 8));
    if (rem + 1 > 448) {
        sha1_block(h, blk);
        memset(blk, 0, sizeof blk);
    }
    uint64_t len = (uint64_t)nbits;
    for (unsigned i = 0; i < 8; i++)
        blk[56 + i] = (uint8_t)(len >> (56 - 8 * i));
    sha1_block(h, blk);
    for (unsigned i = 0; i < 5; i++)
        for (unsigned j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(h[i] >> (24 - 8 * j));
}

/* ---- packing: 7 bits per element, most significant bit first -------------- */

static unsigned getbit(const uint8_t *b, size_t i) { return (b[i / 8] >> (7 - i % 8)) & 1; }

void sflash_pack(uint8_t *out, const sflash_elt *v, size_t count)
{
    memset(out, 0, (7 * count + 7) / 8);
    for (size_t i = 0; i < 7 * count; i++)
        if ((v[i / 7] >> (6 - i % 7)) & 1)
            out[i / 8] |= (uint8_t)(0x80u >> (i % 8));
}

void sflash_unpack(sflash_elt *v, const uint8_t *in, size_t count)
{
    size_t k = 0;
    for (; k + 8 <= count; k += 8, in += 7) { /* 8 elements in 7 bytes */
        uint64_t w = 0;
        for (unsigned j = 0; j < 7; j++)
            w = w << 8 | in[j];
        for (unsigned j = 0; j < 8; j++)
            v[k + j] = (sflash_elt)((w >> (49 - 7 * j)) & 0x7F);
    }
    for (size_t base = k; k < count; k++) {
        sflash_elt e = 0;
        for (unsigned j = 0; j < 7; j++)
            e = (sflash_elt)(e << 1 | getbit(in, 7 * (k - base) + j));
        v[k] = e;
    }
}

/* The pad bits after `count` packed elements are zero. */
static int pad_zero(const uint8_t *in, size_t count)
{
    size_t bits = 7 * count, bytes = (bits + 7) / 8;
    return bits % 8 == 0 || (in[bytes - 1] & (0xFFu >> (bits % 8))) == 0;
}

/* ---- affine maps and keys -------------------------------------------------- */

typedef struct {
    sflash_elt m[N][N], c[N];
} affine;

static void affine_apply(sflash_elt y[N], const affine *a, const sflash_elt x[N])
{
    for (unsigned i = 0; i < N; i++) {
        sflash_elt acc = a->c[i];
        for (unsigned j = 0; j < N; j++)
            acc ^= sflash_kmul(a->m[i][j], x[j]);
        y[i] = acc;
    }
}

/* Inverse of y = M x + c: x = M^-1 y + M^-1 c, by constant-time
 * Gauss-Jordan (a zero pivot is repaired by adding every later row under a
 * mask; no branch or index depends on M). Returns -1 if M is singular: the
 * only decision taken on the secret, and it only discards the draw. */
static int affine_invert(affine *inv, const affine *a)
{
    sflash_elt w[N][2 * N];
    uint8_t ok = 1;
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++) {
            w[i][j] = a->m[i][j];
            w[i][N + j] = i == j;
        }
    for (unsigned c = 0; c < N; c++) {
        for (unsigned r = c + 1; r < N; r++) {
            uint8_t zero = (uint8_t)(((unsigned)w[c][c] - 1) >> 8); /* 0xFF iff 0 */
            for (unsigned j = 0; j < 2 * N; j++)
                w[c][j] ^= w[r][j] & zero;
        }
        ok &= (uint8_t)(((unsigned)w[c][c] + 0xFF) >> 8); /* 1 iff nonzero */
        sflash_elt iv = kinv(w[c][c]);
        for (unsigned j = 0; j < 2 * N; j++)
            w[c][j] = sflash_kmul(w[c][j], iv);
        for (unsigned r = 0; r < N; r++) {
            sflash_elt f = w[r][c] & (sflash_elt)-(uint8_t)(r != c);
            for (unsigned j = 0; j < 2 * N; j++)
                w[r][j] ^= sflash_kmul(f, w[c][j]);
        }
    }
    for (unsigned i = 0; i < N; i++)
        memcpy(inv->m[i], w[i] + N, N);
    affine lin = *inv;
    memset(lin.c, 0, N);
    affine_apply(inv->c, &lin, a->c); /* M^-1 c */
    sodium_memzero(w, sizeof w);
    sodium_memzero(&lin, sizeof lin);
    return ok ? 0 : -1;
}

/* The seed's ChaCha20 stream (libtts's tts_stream: IETF, zero nonce),
 * byte by byte. */
typedef tts_stream stream;

static uint8_t stream_byte(stream *s)
{
    uint8_t b;
    (void)tts_stream_rng(s, &b, 1);
    return b;
}

/* Draw an affine bijection: matrix rows then the constant, one element
 * per stream byte (its low 7 bits); a singular matrix is drawn again. */
static void draw_affine(affine *a, affine *inv, stream *s)
{
    do {
        for (unsigned i = 0; i < N; i++)
            for (unsigned j = 0; j < N; j++)
                a->m[i][j] = stream_byte(s) & 0x7F;
        for (unsigned i = 0; i < N; i++)
            a->c[i] = stream_byte(s) & 0x7F;
    } while (affine_invert(inv, a) != 0);
}

typedef struct {
    affine s, t, sinv, tinv;
    uint8_t delta[10];
} secret;

static void expand_seed(secret *k, const uint8_t seed[SFLASH_SEED_BYTES])
{
    stream st;
    tts_stream_init(&st, seed);
    draw_affine(&k->s, &k->sinv, &st);
    draw_affine(&k->t, &k->tinv, &st);
    for (unsigned i = 0; i < 10; i++)
        k->delta[i] = stream_byte(&st);
    sodium_memzero(&st, sizeof st);
}

/* y = t(F(s(x))), all 37 coordinates. */
static void secret_map(sflash_elt y[N], const secret *k, const sflash_elt x[N],
                       const frobmat *m11)
{
    sflash_l a, b;
    affine_apply(a.c, &k->s, x);
    F_with(&b, &a, m11);
    affine_apply(y, &k->t, b.c);
}

int sflash_secret_map(sflash_elt y[N], const sflash_elt x[N],
                      const uint8_t seed[SFLASH_SEED_BYTES])
{
    secret k;
    frobmat m11;
    expand_seed(&k, seed);
    frob_matrix(&m11, 11);
    secret_map(y, &k, x, &m11);
    sodium_memzero(&k, sizeof k);
    return 0;
}

void sflash_secret_affine(sflash_elt sm[SFLASH_N][SFLASH_N], sflash_elt sc[SFLASH_N],
                          sflash_elt tm[SFLASH_N][SFLASH_N], sflash_elt tc[SFLASH_N],
                          const uint8_t seed[SFLASH_SEED_BYTES])
{
    secret k;
    expand_seed(&k, seed);
    memcpy(sm, k.s.m, sizeof k.s.m);
    memcpy(sc, k.s.c, sizeof k.s.c);
    memcpy(tm, k.t.m, sizeof k.t.m);
    memcpy(tc, k.t.c, sizeof k.t.c);
    sodium_memzero(&k, sizeof k);
}

/* Public key: equation by equation (e = 0..25), its coefficients in the
 * order of the designers' reference code: the constant, then for
 * i = 0..36 the coefficient of x_i followed by those of x_i x_j for
 * j = i..36; 741 elements an equation, 7 bits each, packed. The
 * coefficients come from evaluations of the secret map G: G(0) is the
 * constant; G(e_i + e_j) + G(e_i) + G(e_j) + G(0) the x_i x_j term; G(e_i)
 * and G(2 e_i) separate x_i from x_i^2. */
int sflash_keypair(uint8_t pk[SFLASH_PK_BYTES], uint8_t sk[SFLASH_SK_BYTES],
                   const uint8_t seed[SFLASH_SEED_BYTES])
{
    sflash_elt coef[SFLASH_M][SFLASH_MONOMIALS]; /* public */
    sflash_elt g1[N][N], g2[N][N], flat[2 * (N * N + N)];
    secret k;
    frobmat m11;
    sflash_elt x[N], y[N], g0[N];
    if (!pk || !sk || !seed)
        return -1;
    expand_seed(&k, seed);
    frob_matrix(&m11, 11);

    memset(x, 0, N);
    secret_map(g0, &k, x, &m11);
    for (unsigned i = 0; i < N; i++) {
        x[i] = 1;
        secret_map(g1[i], &k, x, &m11);
        x[i] = 2;
        secret_map(g2[i], &k, x, &m11);
        x[i] = 0;
    }
    /* x_i^2 coefficient q and x_i coefficient l from u1 = l + q and
     * u2 = 2l + 4q: q = (u2 + 2 u1) / 6, l = u1 + q. */
    const sflash_elt inv6 = kinv(6);
    for (unsigned e = 0; e < SFLASH_M; e++)
        coef[e][0] = g0[e];
    size_t mono = 1;
    for (unsigned i = 0; i < N; i++) {
        size_t lin = mono++;
        for (unsigned e = 0; e < SFLASH_M; e++) {
            sflash_elt u1 = g1[i][e] ^ g0[e], u2 = g2[i][e] ^ g0[e];
            sflash_elt q = sflash_kmul(u2 ^ sflash_kmul(2, u1), inv6);
            coef[e][mono] = q;
            coef[e][lin] = u1 ^ q;
        }
        mono++;
        for (unsigned j = i + 1; j < N; j++, mono++) {
            x[i] = x[j] = 1;
            secret_map(y, &k, x, &m11);
            x[i] = x[j] = 0;
            for (unsigned e = 0; e < SFLASH_M; e++)
                coef[e][mono] = y[e] ^ g1[i][e] ^ g1[j][e] ^ g0[e];
        }
    }
    sflash_pack(pk, &coef[0][0], (size_t)SFLASH_MONOMIALS * SFLASH_M);

    /* sk: s^-1 (rows, then constant), t^-1, packed; then Delta */
    size_t f = 0;
    const affine *inv[2] = {&k.sinv, &k.tinv};
    for (unsigned w = 0; w < 2; w++) {
        memcpy(flat + f, inv[w]->m, N * N);
        f += N * N;
        memcpy(flat + f, inv[w]->c, N);
        f += N;
    }
    sflash_pack(sk, flat, f);
    memcpy(sk + SFLASH_SK_BYTES - 10, k.delta, 10);
    sodium_memzero(flat, sizeof flat);
    sodium_memzero(g0, sizeof g0);
    sodium_memzero(g1, sizeof g1);
    sodium_memzero(g2, sizeof g2);
    sodium_memzero(y, sizeof y);
    sodium_memzero(&k, sizeof k);
    return 0;
}

/* V, 182 bits (26 elements): the 160 bits of M1 = SHA-1(M) followed by the
 * first 22 bits of M2 = SHA-1(M1). Bytes 20..22 of vbits: M2[0], M2[1] and
 * the top 6 bits of M2[2]; the last 2 bits are zero. */
int sflash_hash_v(uint8_t vbits[23], const uint8_t *msg, size_t len)
{
    uint8_t m1[20], m2[20];
    static const uint8_t empty[1];
    if (EVP_Digest(len ? msg : empty, len, m1, NULL, EVP_sha1(), NULL) != 1 ||
        EVP_Digest(m1, sizeof m1, m2, NULL, EVP_sha1(), NULL) != 1)
        return -1;
    memcpy(vbits, m1, 20);
    vbits[20] = m2[0];
    vbits[21] = m2[1];
    vbits[22] = m2[2] & 0xFC;
    return 0;
}

int sflash_sign(uint8_t sig[SFLASH_SIG_BYTES], const uint8_t *msg, size_t len,
                const uint8_t sk[SFLASH_SK_BYTES])
{
    enum { NE = 2 * (N * N + N) };
    if (!sig || !sk || (!msg && len) || !pad_zero(sk, NE))
        return -1;
    sflash_elt flat[NE];
    affine sinv, tinv;
    /* Y = (V, W): W = the first 77 bits of SHA-1(V || Delta), a 262-bit
     * string (bits 0..181 V, 182..261 Delta). */
    uint8_t vd[33] = {0}, w[20], ybits[33] = {0};
    if (sflash_hash_v(vd, msg, len))
        return -1;
    sflash_unpack(flat, sk, NE);
    memcpy(sinv.m, flat, N * N);
    memcpy(sinv.c, flat + N * N, N);
    memcpy(tinv.m, flat + N * N + N, N * N);
    memcpy(tinv.c, flat + 2 * N * N + N, N);

    memcpy(ybits, vd, 23);
    const uint8_t *delta = sk + SFLASH_SK_BYTES - 10;
    for (unsigned i = 0; i < 80; i++) {
        size_t b = 182 + i;
        vd[b / 8] |= (uint8_t)(getbit(delta, i) << (7 - b % 8));
    }
    sflash_sha1_bits(w, vd, 262);
    for (unsigned i = 0; i < 77; i++) {
        size_t b = 182 + i;
        ybits[b / 8] |= (uint8_t)(getbit(w, i) << (7 - b % 8));
    }
    sflash_elt y[N], x[N];
    sflash_unpack(y, ybits, N);
    sflash_l a, b;
    affine_apply(a.c, &tinv, y);
    sflash_Finv(&b, &a);
    affine_apply(x, &sinv, b.c);
    sflash_pack(sig, x, N);
    sodium_memzero(flat, sizeof flat);
    sodium_memzero(&sinv, sizeof sinv);
    sodium_memzero(&tinv, sizeof tinv);
    sodium_memzero(vd, sizeof vd);
    sodium_memzero(w, sizeof w);
    sodium_memzero(ybits, sizeof ybits);
    sodium_memzero(y, sizeof y);
    sodium_memzero(&a, sizeof a);
    sodium_memzero(&b, sizeof b);
    return 0;
}

int sflash_verify(const uint8_t sig[SFLASH_SIG_BYTES], const uint8_t *msg,
                  size_t len, const uint8_t pk[SFLASH_PK_BYTES])
{
    if (!sig || !pk || (!msg && len))
        return -1;
    if (!pad_zero(sig, N) || !pad_zero(pk, (size_t)SFLASH_MONOMIALS * SFLASH_M))
        return -1;
    sflash_elt x[N], mono[SFLASH_MONOMIALS], g[SFLASH_M], v[SFLASH_M];
    uint8_t vbits[23];
    if (sflash_hash_v(vbits, msg, len))
        return -1;
    sflash_unpack(v, vbits, SFLASH_M);
    sflash_unpack(x, sig, N);
    /* everything here is public: table products. The monomials in the
     * key's order, as discrete logarithms (0xFF for 0). */
    uint8_t lg[SFLASH_MONOMIALS];
    size_t k = 0;
    mono[k++] = 1;
    for (unsigned i = 0; i < N; i++) {
        mono[k++] = x[i];
        for (unsigned j = i; j < N; j++)
            mono[k++] = sflash_kmul_pub(x[i], x[j]);
    }
    for (k = 0; k < SFLASH_MONOMIALS; k++)
        lg[k] = mono[k] ? klog[mono[k]] : 0xFF;
    sflash_elt coef[SFLASH_M][SFLASH_MONOMIALS];
    sflash_unpack(&coef[0][0], pk, (size_t)SFLASH_MONOMIALS * SFLASH_M);
    for (unsigned e = 0; e < SFLASH_M; e++) {
        sflash_elt acc = 0;
        for (k = 0; k < SFLASH_MONOMIALS; k++)
            if (coef[e][k] && lg[k] != 0xFF)
                acc ^= kexp[klog[coef[e][k]] + lg[k]];
        g[e] = acc;
    }
    return memcmp(g, v, SFLASH_M) == 0 ? 0 : -1;
}
