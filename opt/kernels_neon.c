/* SPDX-License-Identifier: MIT */
/*
 * NEON backend (AArch64 Advanced SIMD, 16 bytes per register).
 *
 * Product of two vectors (vmul, matvec, the scalar tables): PMUL gives the
 * low 8 bits of the 16 carry-less 8 x 8-bit products, PMULL/PMULL2 the
 * full 15-bit products of which SHRN/SHRN2 keep the high 7 bits h; with
 * t^8 = 0x1B mod 0x11B, the high part folds back as (h ^ h>>4 ^ h>>5) *
 * 0x1B (one more PMUL: h * 0x1B has degree <= 10, and its bits 8..10 are
 * h>>4 ^ h>>5, whose product by 0x1B fits in 8 bits). Eleven instructions
 * for 16 products, no table.
 *
 * Product by one scalar s (madd, scale, matmul, pk_eval): the nibble
 * tables s*j and s*16j (j < 16) are computed in registers by the product
 * above (from the vectors 0..15 and 0,16..240), then each 16 bytes cost
 * AND, USHR, two TBL and an EOR. TBL indexes a register, not memory.
 *
 * Constant time by construction: secret bytes meet only register
 * operations (PMUL, PMULL, TBL on a register table, SHRN/UZP2, USHR, EOR,
 * AND; data-processing instructions that FEAT_DIT lists as data-
 * independent when PSTATE.DIT is set); no load or store address and no
 * branch depends on a secret byte: loops and the stack copies of partial
 * vectors depend on the lengths only.
 * Valgrind cannot run under qemu-user, so this is checked by reading the
 * code (docs/PERFORMANCE.md) and by the differential tests against ref.
 */
#include <arm_neon.h>
#include <sodium.h>
#include <string.h>

#include "gf256.h"
#include "internal.h"

typedef uint8x16_t vec;

static inline vec vld(const uint8_t *p) { return vld1q_u8(p); }
static inline void vst(uint8_t *p, vec v) { vst1q_u8(p, v); }

/* len bytes (len <= 16) from p, zero-extended; stores only len bytes. */
static inline vec vld_part(const uint8_t *p, size_t len)
{
    uint8_t b[16] = {0};
    memcpy(b, p, len);
    return vld(b);
}
static inline void vst_part(uint8_t *p, vec v, size_t len)
{
    uint8_t b[16];
    vst(b, v);
    memcpy(p, b, len);
}

/* a * b bytewise in GF(2^8) mod 0x11B. */
static inline vec gf_mul(vec a, vec b)
{
    const poly8x16_t pa = vreinterpretq_p8_u8(a), pb = vreinterpretq_p8_u8(b);
    const vec lo = vreinterpretq_u8_p8(vmulq_p8(pa, pb));
    const uint16x8_t p0 = vreinterpretq_u16_p16(vmull_p8(vget_low_p8(pa), vget_low_p8(pb)));
    const uint16x8_t p1 = vreinterpretq_u16_p16(vmull_high_p8(pa, pb));
    const vec h = vshrn_high_n_u16(vshrn_n_u16(p0, 8), p1, 8);
    const vec f = veorq_u8(h, veorq_u8(vshrq_n_u8(h, 4), vshrq_n_u8(h, 5)));
    return veorq_u8(lo, vreinterpretq_u8_p8(vmulq_p8(vreinterpretq_p8_u8(f), vdupq_n_p8(0x1B))));
}

/* Scalar context: tl[j] = s*j, th[j] = s*16j. */
typedef struct {
    vec tl, th;
} sc_t;

static inline sc_t sc_make(uint8_t s)
{
    static const uint8_t iota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const vec i = vld(iota), sv = vdupq_n_u8(s);
    sc_t c = {gf_mul(i, sv), gf_mul(vshlq_n_u8(i, 4), sv)};
    return c;
}

static inline vec sc_mul(sc_t c, vec v)
{
    return veorq_u8(vqtbl1q_u8(c.tl, vandq_u8(v, vdupq_n_u8(0x0F))),
                    vqtbl1q_u8(c.th, vshrq_n_u8(v, 4)));
}

static void madd_neon(uint8_t *acc, const uint8_t *x, uint8_t s, size_t len)
{
    sc_t c = sc_make(s);
    size_t i = 0;
    for (; i + 16 <= len; i += 16)
        vst(acc + i, veorq_u8(vld(acc + i), sc_mul(c, vld(x + i))));
    if (i < len)
        vst_part(acc + i, veorq_u8(vld_part(acc + i, len - i), sc_mul(c, vld_part(x + i, len - i))),
                 len - i);
    sodium_memzero(&c, sizeof c);
}

static void scale_neon(uint8_t *row, uint8_t s, size_t len)
{
    sc_t c = sc_make(s);
    size_t i = 0;
    for (; i + 16 <= len; i += 16)
        vst(row + i, sc_mul(c, vld(row + i)));
    if (i < len)
        vst_part(row + i, sc_mul(c, vld_part(row + i, len - i)), len - i);
    sodium_memzero(&c, sizeof c);
}

static void vmul_neon(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t len)
{
    size_t i = 0;
    for (; i + 16 <= len; i += 16)
        vst(out + i, gf_mul(vld(a + i), vld(b + i)));
    if (i < len)
        vst_part(out + i, gf_mul(vld_part(a + i, len - i), vld_part(b + i, len - i)), len - i);
}

/* p[0..3] as a 32-bit lane whose bytes, in a little-endian register, are
 * p[0..3] in memory order (this backend is built for little-endian only). */
static inline uint32_t ld32(const uint8_t *p)
{
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
}

/* XOR of the 16 bytes of v (byte order plays no part). */
static inline uint8_t hxor(vec v)
{
    uint8x8_t x = veor_u8(vget_low_u8(v), vget_high_u8(v));
    uint64_t w = vget_lane_u64(vreinterpret_u64_u8(x), 0);
    w ^= w >> 32;
    w ^= w >> 16;
    w ^= w >> 8;
    return (uint8_t)w;
}

/* y = M x: y_r = XOR of the bytes of M_r * x (x zero-padded, so bytes of
 * the next row read into the last vector vanish). cols <= 64; the last
 * rows, whose vectors would run past M, go through a copy. */
#define MV_MAXC 64
static void matvec_neon(uint8_t *y, const uint8_t *M, const uint8_t *x,
                        unsigned rows, unsigned cols)
{
    if (cols > MV_MAXC) {
        for (unsigned r = 0; r < rows; r++) {
            uint8_t acc = 0;
            for (unsigned c = 0; c < cols; c++)
                acc ^= gf256_mul(M[(size_t)r * cols + c], x[c]);
            y[r] = acc;
        }
        return;
    }
    uint8_t xb[MV_MAXC] = {0}, tail[MV_MAXC];
    memcpy(xb, x, cols);
    const unsigned nv = (cols + 15) / 16;
    const size_t total = (size_t)rows * cols;
    vec X[MV_MAXC / 16];
    for (unsigned q = 0; q < nv; q++)
        X[q] = vld(xb + 16 * q);
    for (unsigned r = 0; r < rows; r++) {
        const uint8_t *row = M + (size_t)r * cols;
        if ((size_t)r * cols + 16 * nv > total) { /* public: near the end */
            memset(tail, 0, sizeof tail);
            memcpy(tail, row, cols);
            row = tail;
        }
        vec acc = gf_mul(vld(row), X[0]);
        for (unsigned q = 1; q < nv; q++)
            acc = veorq_u8(acc, gf_mul(vld(row + 16 * q), X[q]));
        y[r] = hxor(acc);
    }
    sodium_memzero(xb, sizeof xb);
    sodium_memzero(tail, sizeof tail);
    sodium_memzero(X, sizeof X);
}

#define GAUSS_FN gauss_neon
#define GAUSS_MADD madd_neon
#define GAUSS_SCALE scale_neon
#include "gauss_impl.h"

/* C = A B: the scalar tables of row i of A made once, then each block of
 * four output vectors accumulated in registers over k; the last, partial
 * vectors of B go through a copy. */
#define MM_MAXIN 64
static void matmul_neon(uint8_t *C, const uint8_t *A, const uint8_t *B,
                        unsigned rows, unsigned inner, unsigned cols)
{
    if (inner > MM_MAXIN) {
        for (unsigned i = 0; i < rows; i++) {
            memset(C + (size_t)i * cols, 0, cols);
            for (unsigned k = 0; k < inner; k++)
                madd_neon(C + (size_t)i * cols, B + (size_t)k * cols, A[(size_t)i * inner + k],
                          cols);
        }
        return;
    }
    sc_t tab[MM_MAXIN];
    const size_t btotal = (size_t)inner * cols;
    const unsigned full = cols / 64 * 64;
    for (unsigned i = 0; i < rows; i++) {
        for (unsigned k = 0; k < inner; k++)
            tab[k] = sc_make(A[(size_t)i * inner + k]);
        uint8_t *c = C + (size_t)i * cols;
        for (unsigned c0 = 0; c0 < full; c0 += 64) {
            vec a0 = vdupq_n_u8(0), a1 = a0, a2 = a0, a3 = a0;
            const uint8_t *b = B + c0;
            for (unsigned k = 0; k < inner; k++, b += cols) {
                a0 = veorq_u8(a0, sc_mul(tab[k], vld(b)));
                a1 = veorq_u8(a1, sc_mul(tab[k], vld(b + 16)));
                a2 = veorq_u8(a2, sc_mul(tab[k], vld(b + 32)));
                a3 = veorq_u8(a3, sc_mul(tab[k], vld(b + 48)));
            }
            vst(c + c0, a0);
            vst(c + c0 + 16, a1);
            vst(c + c0 + 32, a2);
            vst(c + c0 + 48, a3);
        }
        for (unsigned c0 = full; c0 < cols; c0 += 16) {
            const unsigned w = cols - c0 < 16 ? cols - c0 : 16;
            vec a0 = vdupq_n_u8(0);
            for (unsigned k = 0; k < inner; k++) {
                const size_t off = (size_t)k * cols + c0;
                const vec b = off + 16 <= btotal ? vld(B + off) : vld_part(B + off, btotal - off);
                a0 = veorq_u8(a0, sc_mul(tab[k], b));
            }
            if (w == 16)
                vst(c + c0, a0);
            else
                vst_part(c + c0, a0, w);
        }
    }
    sodium_memzero(tab, sizeof(sc_t) * inner);
}

/* P(w) = sum_i w_i (sum_{j>=i} w_j B_ij + L_i), on public data: one scalar
 * context per w_j, each m-byte block read as NV vectors (the bytes of the
 * next block in the last one are dropped at the end: products act on each
 * byte by itself); blocks whose vectors would run past the key go through
 * a copy. */
static inline __attribute__((always_inline)) void pk_eval_nv(uint8_t *out, const uint8_t *pk,
                                                             const uint8_t *w, unsigned m,
                                                             unsigned n, const unsigned NV)
{
    sc_t sc[TTS_MAX_N];
    const size_t len = (size_t)m * ((size_t)n * (n + 3) / 2);
    const size_t safe = len >= 16 * NV ? len - 16 * NV : 0; /* offsets <= safe load directly */
    const uint8_t *lin = pk + (size_t)m * n * (n + 1) / 2;
    uint8_t tail[48];
    vec o[3] = {vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0)};
    for (unsigned j = 0; j < n; j++)
        sc[j] = sc_make(w[j]);
    const uint8_t *blk = pk;
    unsigned i = 0;
    vec ot = vdupq_n_u8(0); /* m % 16 == 4: four rows' 4-byte tail sums */
    if (NV >= 2 && m % 16 == 4) {
        /* m = 20, 36: four rows at a time. The first NF = NV - 1 vectors of
         * each block as below; the 4-byte tails of the four blocks (i+q, j)
         * of one column j put into one register by four lane loads, so that
         * one product by w_j serves four tails where a fourth-full register
         * per block cost one product each. Block (i+q, j) lies at row(i) +
         * (j-i) m + off[q], off[q] constant per group. Lane q of the tail
         * sum is multiplied by w_{i+q} once per group. Nothing is read past
         * a block. */
        const unsigned NF = NV - 1;
        const vec z = vdupq_n_u8(0);
        for (; i + 3 < n; i += 4) {
            size_t off[4], o4 = 0;
            uint8_t wq[16];
            for (unsigned q = 0; q < 4; q++) {
                off[q] = o4 - (size_t)q * m;
                o4 += (size_t)(n - i - q) * m;
                memset(wq + 4 * q, w[i + q], 4);
            }
            /* row q's sums in aq0 (bytes 0..15) and aq1 (16..31, NF = 2);
             * named registers, not arrays, so that they stay in registers */
            vec a00 = z, a01 = z, a10 = z, a11 = z, a20 = z, a21 = z, a30 = z, a31 = z, T = z;
#define PK_ACC(x0, x1, p)                                              \
    do {                                                               \
        x0 = veorq_u8(x0, sc_mul(t, vld(p)));                          \
        if (NF > 1)                                                    \
            x1 = veorq_u8(x1, sc_mul(t, vld((p) + 16)));               \
    } while (0)
            const size_t f1 = off[1], f2 = off[2], f3 = off[3], tb = 16 * NF;
            const uint8_t *b = blk;
            unsigned j = i;
            /* the head: columns i .. i+2, where rows q > j - i have no block */
            for (unsigned d = 0; d < 3; d++, j++, b += m) {
                const sc_t t = sc[j];
                uint32x4_t tl = vsetq_lane_u32(ld32(b + tb), vdupq_n_u32(0), 0);
                PK_ACC(a00, a01, b);
                if (d >= 1) {
                    tl = vsetq_lane_u32(ld32(b + f1 + tb), tl, 1);
                    PK_ACC(a10, a11, b + f1);
                }
                if (d >= 2) {
                    tl = vsetq_lane_u32(ld32(b + f2 + tb), tl, 2);
                    PK_ACC(a20, a21, b + f2);
                }
                T = veorq_u8(T, sc_mul(t, vreinterpretq_u8_u32(tl)));
            }
            for (; j < n; j++, b += m) {
                const sc_t t = sc[j];
                uint32x4_t tl = vsetq_lane_u32(ld32(b + tb), vdupq_n_u32(0), 0);
                tl = vsetq_lane_u32(ld32(b + f1 + tb), tl, 1);
                tl = vsetq_lane_u32(ld32(b + f2 + tb), tl, 2);
                tl = vsetq_lane_u32(ld32(b + f3 + tb), tl, 3);
                PK_ACC(a00, a01, b);
                PK_ACC(a10, a11, b + f1);
                PK_ACC(a20, a21, b + f2);
                PK_ACC(a30, a31, b + f3);
                T = veorq_u8(T, sc_mul(t, vreinterpretq_u8_u32(tl)));
            }
#undef PK_ACC
            blk += o4; /* row i + 4 */
            const uint8_t *L = lin + (size_t)i * m;
            uint32x4_t tl = vsetq_lane_u32(ld32(L + tb), vdupq_n_u32(0), 0);
            tl = vsetq_lane_u32(ld32(L + m + tb), tl, 1);
            tl = vsetq_lane_u32(ld32(L + 2 * m + tb), tl, 2);
            tl = vsetq_lane_u32(ld32(L + 3 * m + tb), tl, 3);
            T = veorq_u8(T, vreinterpretq_u8_u32(tl));
            o[0] = veorq_u8(o[0], veorq_u8(sc_mul(sc[i], veorq_u8(a00, vld(L))),
                                           sc_mul(sc[i + 1], veorq_u8(a10, vld(L + m)))));
            o[0] = veorq_u8(o[0], veorq_u8(sc_mul(sc[i + 2], veorq_u8(a20, vld(L + 2 * m))),
                                           sc_mul(sc[i + 3], veorq_u8(a30, vld(L + 3 * m)))));
            if (NF > 1) {
                o[1] = veorq_u8(o[1], veorq_u8(sc_mul(sc[i], veorq_u8(a01, vld(L + 16))),
                                               sc_mul(sc[i + 1], veorq_u8(a11, vld(L + m + 16)))));
                o[1] = veorq_u8(o[1], veorq_u8(sc_mul(sc[i + 2], veorq_u8(a21, vld(L + 2 * m + 16))),
                                               sc_mul(sc[i + 3], veorq_u8(a31, vld(L + 3 * m + 16)))));
            }
            ot = veorq_u8(ot, gf_mul(T, vld(wq)));
        }
    }
    for (; i < n; i++) {
        vec a[3] = {vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0)};
        for (unsigned j = i; j < n; j++, blk += m) {
            const sc_t t = sc[j];
            for (unsigned q = 0; q < NV; q++)
                a[q] = veorq_u8(a[q], sc_mul(t, vld(blk + 16 * q)));
        }
        const uint8_t *L = lin + (size_t)i * m;
        if ((size_t)(L - pk) > safe) { /* public: the last blocks of the key */
            memset(tail, 0, sizeof tail);
            memcpy(tail, L, m);
            L = tail;
        }
        for (unsigned q = 0; q < NV; q++)
            o[q] = veorq_u8(o[q], sc_mul(sc[i], veorq_u8(a[q], vld(L + 16 * q))));
    }
    uint8_t res[48], tb[16];
    for (unsigned q = 0; q < NV; q++)
        vst(res + 16 * q, o[q]);
    vst(tb, ot); /* the four lanes of the tail sums: bytes m-4 .. m-1 */
    if (NV >= 2 && m % 16 == 4)
        for (unsigned c = 0; c < 4; c++)
            res[m - 4 + c] ^= (uint8_t)(tb[c] ^ tb[4 + c] ^ tb[8 + c] ^ tb[12 + c]);
    memcpy(out, res, m);
}

static void pk_eval_neon(uint8_t *out, const uint8_t *pk, const uint8_t *w, unsigned m,
                         unsigned n)
{
    /* The quadratic blocks never run past the key: the n linear blocks of
     * m >= 16 bytes follow them, and a block's vectors reach at most 16 *
     * NV - m < 16 bytes beyond it. */
    if (m <= 16)
        pk_eval_nv(out, pk, w, m, n, 1);
    else if (m <= 32)
        pk_eval_nv(out, pk, w, m, n, 2);
    else if (m <= 48)
        pk_eval_nv(out, pk, w, m, n, 3);
    else {
        uint8_t r[256] = {0};
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = i; j < n; j++, pk += m)
                madd_neon(r, pk, gf256_mul(w[i], w[j]), m);
        for (unsigned i = 0; i < n; i++, pk += m)
            madd_neon(r, pk, w[i], m);
        memcpy(out, r, m);
    }
}

TTS_BLOCKSUM_FROM_MADD(blocksum_neon, madd_neon)

const tts_kernels tts_kernels_neon = {
    .name = "neon",
    .madd = madd_neon,
    .matvec = matvec_neon,
    .gauss = gauss_neon,
    .pk_eval = pk_eval_neon,
    .matmul = matmul_neon,
    .vmul = vmul_neon,
    .transpose = tts_transpose_ref,
    .solve_layer = tts_solve_layer_generic,
    .invert = tts_invert_generic,
    .blocksum = blocksum_neon,
};
