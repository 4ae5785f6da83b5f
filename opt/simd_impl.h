/* SPDX-License-Identifier: MIT */
/*
 * 256-bit kernels shared by the avx2 and gfni backends: a template. The
 * including file (opt/kernels_avx2.c, opt/kernels_gfni.c) defines, before
 * #include, the whole of this contract; a new 256-bit ISA defines the same
 * and includes this file, and nothing else of the kernels changes. Every
 * hook is a static inline function (or a macro) with this meaning, where
 * a vector is __m256i holding 32 GF(256) elements (0x11B) and products are
 * bytewise:
 *
 *   SIMD_NAME               backend name string ("avx2", "gfni")
 *   SIMD_FN(x)              symbol prefixing, e.g. x##_avx2
 *   sc_t sc_make(vec s)     a scalar ready for products: s holds the
 *                           scalar in every byte, possibly secret (avx2:
 *                           the two nibble tables s*j and s*16j, derived in
 *                           registers, no memory indexed by s; gfni: s)
 *   sc_t sc_pub(uint8_t s)  the same for a public scalar (pk_eval's
 *                           signature bytes, constants): avx2 may read a
 *                           table at an address given by s
 *   vec sc_mul(sc_t c, vec v)        s * v
 *   sp_t sp_make(vec v)     v prepared once for products by several
 *                           scalars (avx2: split into nibbles; gfni: v)
 *   vec sc_mul_sp(sc_t c, sp_t v)    s * v, from the prepared v
 *   fx_t, fx_make(fx_t *f, vec b), vec fx_mul(const fx_t *f, vec a)
 *                           multiply by a fixed vector b, both possibly
 *                           secret: a[i] * b[i] (avx2: b * t^k for k < 8,
 *                           and a's bits as blend masks; gfni: b)
 *   vec v_mul(vec a, vec b) a[i] * b[i] for a one-off product
 *   vec v_inv(vec x)        x[i]^-1 (0 -> 0), constant time (avx2: a
 *                           256-byte table read whole; gfni:
 *                           vgf2p8affineinvqb)
 *
 * Everything else here (loads, broadcasts, wipes, the kernels themselves)
 * is shared. Every kernel's control flow and memory addresses depend only
 * on the dimensions and public indices, never on the bytes processed
 * (pk_eval sees only public data). Loads never run past the end of a
 * caller's buffer: the last, partial 32 bytes go through a stack copy.
 */
#include <immintrin.h>
#include <sodium.h>
#include <string.h>

#include "ct.h"
#include "gf256.h"
#include "plan.h"
#include "internal.h"

typedef __m256i vec;

/* Wipe that the compiler cannot drop: the asm claims to read the memory. */
static inline void wipe(void *p, size_t len)
{
    memset(p, 0, len);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

static inline vec vload(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void vstore(uint8_t *p, vec v) { _mm256_storeu_si256((__m256i *)p, v); }

/* len bytes (len <= 32) from p, zero-extended; stores only len bytes. */
static inline vec vload_part(const uint8_t *p, size_t len)
{
    uint8_t b[32] = {0};
    memcpy(b, p, len);
    return vload(b);
}
static inline void vstore_part(uint8_t *p, vec v, size_t len)
{
    uint8_t b[32];
    vstore(b, v);
    memcpy(p, b, len);
}

/* Byte k (public) of v in all 32 bytes. */
static inline vec bcast_byte(vec v, unsigned k)
{
    vec t = k < 16 ? _mm256_permute2x128_si256(v, v, 0x00)
                   : _mm256_permute2x128_si256(v, v, 0x11);
    return _mm256_shuffle_epi8(t, _mm256_set1_epi8((char)(k & 15)));
}

/* XOR of the 32 bytes of v. */
static inline uint8_t hxor(vec v)
{
    __m128i x = _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_xor_si128(x, _mm_srli_si128(x, 8));
    x = _mm_xor_si128(x, _mm_srli_si128(x, 4));
    x = _mm_xor_si128(x, _mm_srli_si128(x, 2));
    x = _mm_xor_si128(x, _mm_srli_si128(x, 1));
    return (uint8_t)_mm_cvtsi128_si32(x);
}

/* out[t] = xb[idx[t]] for idx < 64, 0 for idx >= 64: four in-register
 * lookups, one per 16-byte chunk of xb, each kept where idx's high bits
 * name that chunk. The indices are public; xb may be secret. */
static inline vec gather64(const vec xc[4], vec idx)
{
    const vec hi = _mm256_and_si256(idx, _mm256_set1_epi8((char)0xF0));
    vec r = _mm256_setzero_si256();
    for (int c = 0; c < 4; c++)
        r = _mm256_xor_si256(r, _mm256_and_si256(_mm256_shuffle_epi8(xc[c], idx),
                                                 _mm256_cmpeq_epi8(hi, _mm256_set1_epi8((char)(16 * c)))));
    return r;
}

static void SIMD_FN(madd)(uint8_t *acc, const uint8_t *x, uint8_t s, size_t len)
{
    sc_t sc = sc_make(_mm256_set1_epi8((char)s));
    size_t i = 0;
    for (; i + 32 <= len; i += 32)
        vstore(acc + i, _mm256_xor_si256(vload(acc + i), sc_mul(sc, vload(x + i))));
    if (i < len)
        vstore_part(acc + i, _mm256_xor_si256(vload_part(acc + i, len - i),
                                              sc_mul(sc, vload_part(x + i, len - i))),
                    len - i);
}

static void SIMD_FN(scale)(uint8_t *row, uint8_t s, size_t len)
{
    sc_t sc = sc_make(_mm256_set1_epi8((char)s));
    size_t i = 0;
    for (; i + 32 <= len; i += 32)
        vstore(row + i, sc_mul(sc, vload(row + i)));
    if (i < len)
        vstore_part(row + i, sc_mul(sc, vload_part(row + i, len - i)), len - i);
}

static void SIMD_FN(vmul)(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t len)
{
    fx_t fx;
    size_t i = 0;
    for (; i + 32 <= len; i += 32) {
        fx_make(&fx, vload(b + i));
        vstore(out + i, fx_mul(&fx, vload(a + i)));
    }
    if (i < len) {
        fx_make(&fx, vload_part(b + i, len - i));
        vstore_part(out + i, fx_mul(&fx, vload_part(a + i, len - i)), len - i);
    }
}

/* Pairwise fold of two vectors of partial sums at width 8*w bits: a's
 * halves summed into the low half of each 2w-byte unit, b's into the high. */
static inline vec fold16(vec a, vec b, vec hmask)
{
    return _mm256_blendv_epi8(_mm256_xor_si256(a, _mm256_srli_epi16(a, 8)),
                              _mm256_xor_si256(b, _mm256_slli_epi16(b, 8)), hmask);
}
static inline vec fold32(vec a, vec b)
{
    return _mm256_blend_epi16(_mm256_xor_si256(a, _mm256_srli_epi32(a, 16)),
                              _mm256_xor_si256(b, _mm256_slli_epi32(b, 16)), 0xAA);
}
static inline vec fold64(vec a, vec b)
{
    return _mm256_blend_epi32(_mm256_xor_si256(a, _mm256_srli_epi64(a, 32)),
                              _mm256_xor_si256(b, _mm256_slli_epi64(b, 32)), 0xAA);
}

/* y = M x: row r is M_r * x bytewise (x zero-padded, so bytes past the row
 * vanish); eight rows at a time are XOR-folded together by a tree whose
 * last level leaves their eight sums in one 64-bit word. cols <= 64. */
static void SIMD_FN(matvec)(uint8_t *y, const uint8_t *M, const uint8_t *x,
                            unsigned rows, unsigned cols)
{
    uint8_t xb[64] = {0}, tail[64 + 64], out[8];
    memcpy(xb, x, cols);
    const unsigned nv = cols > 32 ? 2 : 1;
    const size_t total = (size_t)rows * cols;
    const vec hmask = _mm256_set1_epi16((short)0xFF00);
    fx_t f0, f1;
    fx_make(&f0, vload(xb));
    fx_make(&f1, vload(xb + 32));
    for (unsigned r0 = 0; r0 < rows; r0 += 8) {
        vec P[8];
        for (unsigned q = 0; q < 8; q++) {
            const unsigned r = r0 + q;
            if (r >= rows) {
                P[q] = _mm256_setzero_si256();
                continue;
            }
            const uint8_t *row = M + (size_t)r * cols;
            if ((size_t)r * cols + 32 * nv > total) { /* public: near the end */
                memset(tail, 0, sizeof tail);
                memcpy(tail, row, cols);
                row = tail;
            }
            P[q] = fx_mul(&f0, vload(row));
            if (nv == 2)
                P[q] = _mm256_xor_si256(P[q], fx_mul(&f1, vload(row + 32)));
        }
        vec a = fold32(fold16(P[0], P[1], hmask), fold16(P[2], P[3], hmask));
        vec b = fold32(fold16(P[4], P[5], hmask), fold16(P[6], P[7], hmask));
        vec c = fold64(a, b);
        __m128i h = _mm_xor_si128(_mm256_castsi256_si128(c), _mm256_extracti128_si256(c, 1));
        h = _mm_xor_si128(h, _mm_unpackhi_epi64(h, h));
        _mm_storel_epi64((__m128i *)out, h);
        memcpy(y + r0, out, rows - r0 < 8 ? rows - r0 : 8);
    }
    wipe(xb, sizeof xb);
    wipe(tail, sizeof tail);
    wipe(out, sizeof out);
}

#define GAUSS_FN SIMD_FN(gauss_rows)
#define GAUSS_MADD SIMD_FN(madd)
#define GAUSS_SCALE SIMD_FN(scale)
#include "gauss_impl.h"

#define GJ_MAXV 4

/*
 * Fraction-free Gauss-Jordan on dim rows of nv vectors (R[i*nv + j]). For
 * pivot k: while R_k[k] is zero, every later row is added to R_k under the
 * mask "pivot is zero" (all later rows are visited regardless); then every
 * other row becomes piv * R_i + R_i[k] * R_k, which clears column k without
 * inverting the pivot. Afterwards R_r[r] = d_r and column r is zero
 * elsewhere; d_r != 0 for all r iff the left block was invertible (a zero
 * pivot zeroes its row for good). Returns the d_r in d[0..dim-1].
 */
static inline __attribute__((always_inline)) void SIMD_FN(gj)(vec *R, unsigned dim,
                                                              unsigned nv, uint8_t *d)
{
    for (unsigned k = 0; k < dim; k++) {
        vec *Rk = R + (size_t)k * nv;
        const unsigned kv = k / 32, kb = k % 32;
        /* pref: the pivot and every row before i are zero in column k; row
         * i is added under it, so the first row with a nonzero entry (and
         * any zero rows before it) repairs a zero pivot. */
        vec pref = _mm256_cmpeq_epi8(bcast_byte(Rk[kv], kb), _mm256_setzero_si256());
        for (unsigned i = k + 1; i < dim; i++) {
            const vec *Ri = R + (size_t)i * nv;
            for (unsigned j = kv; j < nv; j++)
                Rk[j] = _mm256_xor_si256(Rk[j], _mm256_and_si256(Ri[j], pref));
            pref = _mm256_and_si256(
                pref, _mm256_cmpeq_epi8(bcast_byte(Ri[kv], kb), _mm256_setzero_si256()));
        }
        sc_t sp = sc_make(bcast_byte(Rk[kv], kb));
        if (nv == 1) { /* R_i[k] * R_k as a product by the fixed vector R_k */
            fx_t fk;
            fx_make(&fk, Rk[0]);
            for (unsigned i = 0; i < dim; i++) {
                if (i == k) /* public index */
                    continue;
                vec *Ri = R + (size_t)i * nv;
                Ri[0] = _mm256_xor_si256(sc_mul(sp, Ri[0]), fx_mul(&fk, bcast_byte(Ri[0], kb)));
            }
        } else { /* wide rows: R_k split once, a scalar context per row */
            sp_t sk[GJ_MAXV];
            for (unsigned j = 0; j < nv; j++)
                sk[j] = sp_make(Rk[j]);
            for (unsigned i = 0; i < dim; i++) {
                if (i == k) /* public index */
                    continue;
                vec *Ri = R + (size_t)i * nv;
                sc_t sf = sc_make(bcast_byte(Ri[kv], kb));
                for (unsigned j = 0; j < nv; j++)
                    Ri[j] = _mm256_xor_si256(sc_mul(sp, Ri[j]), sc_mul_sp(sf, sk[j]));
            }
        }
    }
    for (unsigned r = 0; r < dim; r++) {
        uint8_t b[32];
        vstore(b, R[(size_t)r * nv + r / 32]);
        d[r] = b[r % 32];
    }
}

/* The same elimination with two rows of at most 16 bytes per register:
 * row r is lane r % 2 of P[r / 2] (dim <= 15). Each row takes the byte k
 * of its own lane as multiplier, so one product serves two rows. */
static inline vec lane_bcast(vec v, unsigned lane)
{
    return lane ? _mm256_permute2x128_si256(v, v, 0x11) : _mm256_permute2x128_si256(v, v, 0x00);
}

static void SIMD_FN(gj2)(vec *P, unsigned dim, uint8_t *d, uint8_t *s, uint8_t *b)
{
    const unsigned np = (dim + 1) / 2;
    const vec z = _mm256_setzero_si256();
    const vec lane1 = _mm256_setr_epi64x(0, 0, -1, -1);
    for (unsigned k = 0; k < dim; k++) {
        const vec kidx = _mm256_set1_epi8((char)k);
        vec RK = lane_bcast(P[k / 2], k & 1);
        vec pref = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(RK, kidx), z);
        for (unsigned i = k + 1; i < dim; i++) {
            vec Ri = lane_bcast(P[i / 2], i & 1);
            RK = _mm256_xor_si256(RK, _mm256_and_si256(Ri, pref));
            pref = _mm256_and_si256(pref, _mm256_cmpeq_epi8(_mm256_shuffle_epi8(Ri, kidx), z));
        }
        P[k / 2] = (k & 1) ? _mm256_blend_epi32(P[k / 2], RK, 0xF0)
                           : _mm256_blend_epi32(P[k / 2], RK, 0x0F);
        sc_t sp = sc_make(_mm256_shuffle_epi8(RK, kidx));
        fx_t fk;
        fx_make(&fk, RK);
        for (unsigned q = 0; q < np; q++) {
            vec F = _mm256_shuffle_epi8(P[q], kidx);
            if (q == k / 2) /* public: row k keeps its own entries */
                F = (k & 1) ? _mm256_andnot_si256(lane1, F) : _mm256_and_si256(lane1, F);
            P[q] = _mm256_xor_si256(sc_mul(sp, P[q]), fx_mul(&fk, F));
        }
    }
    for (unsigned q = 0; q < np; q++)
        vstore(b + 32 * q, P[q]);
    for (unsigned r = 0; r < dim; r++) {
        d[r] = b[16 * r + r];
        s[r] = b[16 * r + dim];
    }
}

/* 1 iff none of d[0..len-1] (len <= 64, buffer of 64) is zero; no branch. */
static inline uint8_t SIMD_FN(all_nonzero)(const uint8_t *d, unsigned len)
{
    const vec z = _mm256_setzero_si256();
    uint64_t m = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(vload(d), z))
               | ((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(vload(d + 32), z)) << 32);
    m &= len >= 64 ? ~0ull : ((1ull << len) - 1);
    return (uint8_t)(1 ^ ((m | (0 - m)) >> 63));
}

#define GJ_MAXR 64
static uint8_t SIMD_FN(gauss)(uint8_t *M, unsigned rows, unsigned cols)
{
    const unsigned nv = (cols + 31) / 32;
    if (rows > GJ_MAXR || nv > GJ_MAXV || rows > cols)
        return SIMD_FN(gauss_rows)(M, rows, cols);
    vec R[TTS_MAX_N * GJ_MAXV];
    if (rows > TTS_MAX_N)
        return SIMD_FN(gauss_rows)(M, rows, cols);
    uint8_t d[64] = {0}, buf[32 * GJ_MAXV];
    for (unsigned r = 0; r < rows; r++) {
        memset(buf, 0, sizeof buf);
        memcpy(buf, M + (size_t)r * cols, cols);
        for (unsigned j = 0; j < nv; j++)
            R[(size_t)r * nv + j] = vload(buf + 32 * j);
    }
    switch (nv) { /* constant nv: the row loops unroll */
    case 1: SIMD_FN(gj)(R, rows, 1, d); break;
    case 2: SIMD_FN(gj)(R, rows, 2, d); break;
    case 3: SIMD_FN(gj)(R, rows, 3, d); break;
    default: SIMD_FN(gj)(R, rows, 4, d); break;
    }
    const uint8_t ok = SIMD_FN(all_nonzero)(d, rows);
    vstore(d, v_inv(vload(d)));
    vstore(d + 32, v_inv(vload(d + 32)));
    for (unsigned r = 0; r < rows; r++) {
        sc_t s = sc_make(_mm256_set1_epi8((char)d[r]));
        for (unsigned j = 0; j < nv; j++)
            vstore(buf + 32 * j, sc_mul(s, R[(size_t)r * nv + j]));
        memcpy(M + (size_t)r * cols, buf, cols);
    }
    sodium_memzero(R, sizeof R);
    sodium_memzero(d, sizeof d);
    sodium_memzero(buf, sizeof buf);
    return ok;
}

/* C = A B: C[i] = sum_k A[i][k] B[k]. The scalar contexts of row i of A
 * are made once, then each block of four output vectors is accumulated in
 * registers over k. The last, partial vectors of B go through a copy. */
#define MM_MAXIN 64
static void SIMD_FN(matmul)(uint8_t *C, const uint8_t *A, const uint8_t *B,
                            unsigned rows, unsigned inner, unsigned cols)
{
    if (inner > MM_MAXIN) {
        for (unsigned i = 0; i < rows; i++) {
            memset(C + (size_t)i * cols, 0, cols);
            for (unsigned k = 0; k < inner; k++)
                SIMD_FN(madd)(C + (size_t)i * cols, B + (size_t)k * cols,
                              A[(size_t)i * inner + k], cols);
        }
        return;
    }
    sc_t tab[MM_MAXIN], tab1[MM_MAXIN];
    const size_t btotal = (size_t)inner * cols;
    const unsigned full = cols / 128 * 128;
    unsigned i = 0;
    /* Two rows of C at a time: each vector of B is split into nibbles once
     * for both rows' tables. */
    for (; i + 1 < rows; i += 2) {
        for (unsigned k = 0; k < inner; k++) {
            tab[k] = sc_make(_mm256_set1_epi8((char)A[(size_t)i * inner + k]));
            tab1[k] = sc_make(_mm256_set1_epi8((char)A[(size_t)(i + 1) * inner + k]));
        }
        uint8_t *c = C + (size_t)i * cols, *c1 = c + cols;
        for (unsigned c0 = 0; c0 < full; c0 += 128) {
            vec a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
            vec d0 = a0, d1 = a0, d2 = a0, d3 = a0;
            const uint8_t *b = B + c0;
            for (unsigned k = 0; k < inner; k++, b += cols) {
                const sp_t b0 = sp_make(vload(b)), b1 = sp_make(vload(b + 32));
                const sp_t b2 = sp_make(vload(b + 64)), b3 = sp_make(vload(b + 96));
                a0 = _mm256_xor_si256(a0, sc_mul_sp(tab[k], b0));
                d0 = _mm256_xor_si256(d0, sc_mul_sp(tab1[k], b0));
                a1 = _mm256_xor_si256(a1, sc_mul_sp(tab[k], b1));
                d1 = _mm256_xor_si256(d1, sc_mul_sp(tab1[k], b1));
                a2 = _mm256_xor_si256(a2, sc_mul_sp(tab[k], b2));
                d2 = _mm256_xor_si256(d2, sc_mul_sp(tab1[k], b2));
                a3 = _mm256_xor_si256(a3, sc_mul_sp(tab[k], b3));
                d3 = _mm256_xor_si256(d3, sc_mul_sp(tab1[k], b3));
            }
            vstore(c + c0, a0);
            vstore(c + c0 + 32, a1);
            vstore(c + c0 + 64, a2);
            vstore(c + c0 + 96, a3);
            vstore(c1 + c0, d0);
            vstore(c1 + c0 + 32, d1);
            vstore(c1 + c0 + 64, d2);
            vstore(c1 + c0 + 96, d3);
        }
        for (unsigned c0 = full; c0 < cols; c0 += 32) {
            const unsigned w = cols - c0 < 32 ? cols - c0 : 32;
            vec a0 = _mm256_setzero_si256(), d0 = a0;
            for (unsigned k = 0; k < inner; k++) {
                const size_t off = (size_t)k * cols + c0;
                const sp_t b = sp_make(off + 32 <= btotal ? vload(B + off)
                                                          : vload_part(B + off, btotal - off));
                a0 = _mm256_xor_si256(a0, sc_mul_sp(tab[k], b));
                d0 = _mm256_xor_si256(d0, sc_mul_sp(tab1[k], b));
            }
            if (w == 32) {
                vstore(c + c0, a0);
                vstore(c1 + c0, d0);
            } else {
                vstore_part(c + c0, a0, w);
                vstore_part(c1 + c0, d0, w);
            }
        }
    }
    for (; i < rows; i++) {
        for (unsigned k = 0; k < inner; k++)
            tab[k] = sc_make(_mm256_set1_epi8((char)A[(size_t)i * inner + k]));
        uint8_t *c = C + (size_t)i * cols;
        for (unsigned c0 = 0; c0 < full; c0 += 128) {
            vec a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
            const uint8_t *b = B + c0;
            for (unsigned k = 0; k < inner; k++, b += cols) {
                a0 = _mm256_xor_si256(a0, sc_mul(tab[k], vload(b)));
                a1 = _mm256_xor_si256(a1, sc_mul(tab[k], vload(b + 32)));
                a2 = _mm256_xor_si256(a2, sc_mul(tab[k], vload(b + 64)));
                a3 = _mm256_xor_si256(a3, sc_mul(tab[k], vload(b + 96)));
            }
            vstore(c + c0, a0);
            vstore(c + c0 + 32, a1);
            vstore(c + c0 + 64, a2);
            vstore(c + c0 + 96, a3);
        }
        for (unsigned c0 = full; c0 < cols; c0 += 32) {
            const unsigned w = cols - c0 < 32 ? cols - c0 : 32;
            vec a0 = _mm256_setzero_si256();
            for (unsigned k = 0; k < inner; k++) {
                const size_t off = (size_t)k * cols + c0;
                vec b = off + 32 <= btotal ? vload(B + off) : vload_part(B + off, btotal - off);
                a0 = _mm256_xor_si256(a0, sc_mul(tab[k], b));
            }
            if (w == 32)
                vstore(c + c0, a0);
            else
                vstore_part(c + c0, a0, w);
        }
    }
    wipe(tab, sizeof(sc_t) * inner); /* the entries used */
    wipe(tab1, sizeof(sc_t) * inner);
}

/* dst = src^T by 16 x 16 byte blocks: four rounds of unpacks, each halving
 * the columns and doubling the rows held per register; edges byte by byte. */
static void SIMD_FN(transpose)(uint8_t *dst, const uint8_t *src, unsigned rows, unsigned cols)
{
    const unsigned R16 = rows / 16 * 16, C16 = cols / 16 * 16;
    for (unsigned r0 = 0; r0 < R16; r0 += 16)
        for (unsigned c0 = 0; c0 < C16; c0 += 16) {
            __m128i a[16], b[16];
            for (unsigned i = 0; i < 16; i++)
                a[i] = _mm_loadu_si128((const __m128i *)(src + (size_t)(r0 + i) * cols + c0));
            for (unsigned i = 0; i < 8; i++) {
                b[i] = _mm_unpacklo_epi8(a[2 * i], a[2 * i + 1]);
                b[8 + i] = _mm_unpackhi_epi8(a[2 * i], a[2 * i + 1]);
            }
            for (unsigned h = 0; h < 2; h++)
                for (unsigned i = 0; i < 4; i++) {
                    a[8 * h + i] = _mm_unpacklo_epi16(b[8 * h + 2 * i], b[8 * h + 2 * i + 1]);
                    a[8 * h + 4 + i] = _mm_unpackhi_epi16(b[8 * h + 2 * i], b[8 * h + 2 * i + 1]);
                }
            for (unsigned q = 0; q < 4; q++)
                for (unsigned i = 0; i < 2; i++) {
                    b[4 * q + i] = _mm_unpacklo_epi32(a[4 * q + 2 * i], a[4 * q + 2 * i + 1]);
                    b[4 * q + 2 + i] = _mm_unpackhi_epi32(a[4 * q + 2 * i], a[4 * q + 2 * i + 1]);
                }
            for (unsigned q = 0; q < 8; q++) {
                a[2 * q] = _mm_unpacklo_epi64(b[2 * q], b[2 * q + 1]);
                a[2 * q + 1] = _mm_unpackhi_epi64(b[2 * q], b[2 * q + 1]);
            }
            /* a[v] now holds column c0 + col(v) of the 16 rows */
            for (unsigned v = 0; v < 16; v++) {
                const unsigned col = 8 * (v >> 3) + 4 * ((v >> 2) & 1) + 2 * ((v >> 1) & 1) + (v & 1);
                _mm_storeu_si128((__m128i *)(dst + (size_t)(c0 + col) * rows + r0), a[v]);
            }
        }
    for (unsigned r = 0; r < rows; r++)
        for (unsigned c = (r < R16 ? C16 : 0); c < cols; c++)
            dst[(size_t)c * rows + r] = src[(size_t)r * cols + c];
}

/* P(w) = sum_i w_i (sum_{j>=i} w_j B_ij + L_i): one scalar context per w_j
 * (public), m-byte blocks read as ceil(m/32) vectors; the last blocks of pk
 * are read through a copy. */
static void SIMD_FN(pk_eval)(uint8_t *out, const uint8_t *pk, const uint8_t *w,
                             unsigned m, unsigned n)
{
    sc_t sc[TTS_MAX_N];
    const unsigned nv = m > 32 ? 2 : 1;
    const size_t len = (size_t)m * ((size_t)n * (n + 3) / 2);
    const size_t safe = len >= 32 * nv ? len - 32 * nv : 0; /* offsets <= safe load directly */
    const uint8_t *lin = pk + (size_t)m * n * (n + 1) / 2;
    vec o0 = _mm256_setzero_si256(), o1 = o0;
    for (unsigned j = 0; j < n; j++)
        sc[j] = sc_pub(w[j]);
    const uint8_t *blk = pk;
    unsigned i = 0;
    if (nv == 1) {
        /* Four rows at a time: blocks (i..i+3, j) share x_j's tables, so
         * four products cost one pair of table loads. */
        for (; i + 3 < n; i += 4) {
            const uint8_t *r0 = blk, *r1 = r0 + (size_t)(n - i) * m;
            const uint8_t *r2 = r1 + (size_t)(n - i - 1) * m, *r3 = r2 + (size_t)(n - i - 2) * m;
            vec a0 = _mm256_xor_si256(_mm256_xor_si256(sc_mul(sc[i], vload(r0)),
                                                       sc_mul(sc[i + 1], vload(r0 + m))),
                                      sc_mul(sc[i + 2], vload(r0 + 2 * m)));
            vec a1 = _mm256_xor_si256(sc_mul(sc[i + 1], vload(r1)), sc_mul(sc[i + 2], vload(r1 + m)));
            vec a2 = sc_mul(sc[i + 2], vload(r2)), a3 = _mm256_setzero_si256();
            r0 += 3 * m;
            r1 += 2 * m;
            r2 += m;
            for (unsigned j = i + 3; j < n; j++, r0 += m, r1 += m, r2 += m, r3 += m) {
                const sc_t t = sc[j];
                a0 = _mm256_xor_si256(a0, sc_mul(t, vload(r0)));
                a1 = _mm256_xor_si256(a1, sc_mul(t, vload(r1)));
                a2 = _mm256_xor_si256(a2, sc_mul(t, vload(r2)));
                a3 = _mm256_xor_si256(a3, sc_mul(t, vload(r3)));
            }
            blk = r3;
            const uint8_t *L = lin + (size_t)i * m;
            if ((size_t)(L + 3 * m - pk) <= safe) {
                a0 = _mm256_xor_si256(a0, vload(L));
                a1 = _mm256_xor_si256(a1, vload(L + m));
                a2 = _mm256_xor_si256(a2, vload(L + 2 * m));
                a3 = _mm256_xor_si256(a3, vload(L + 3 * m));
            } else {
                a0 = _mm256_xor_si256(a0, vload_part(L, m));
                a1 = _mm256_xor_si256(a1, vload_part(L + m, m));
                a2 = _mm256_xor_si256(a2, vload_part(L + 2 * m, m));
                a3 = _mm256_xor_si256(a3, vload_part(L + 3 * m, m));
            }
            o0 = _mm256_xor_si256(o0, _mm256_xor_si256(sc_mul(sc[i], a0), sc_mul(sc[i + 1], a1)));
            o1 = _mm256_xor_si256(o1, _mm256_xor_si256(sc_mul(sc[i + 2], a2), sc_mul(sc[i + 3], a3)));
        }
        o0 = _mm256_xor_si256(o0, o1);
        o1 = _mm256_setzero_si256();
    }
    vec ot = _mm256_setzero_si256(); /* m = 36: eight rows' 4-byte tail sums */
    if (m == 36) {
        /* Eight rows at a time. The first 32 bytes of each block take one
         * register, as for m <= 32; the 4-byte tails of the eight blocks
         * (i+q, j), q < 8, of one column j are gathered into one register,
         * so that one product by x_j serves eight tails, where a second,
         * one-eighth-full register per block cost a second product. Block
         * (i+q, j) starts at row(i) + (j-i) m + off[q], off[q] = row(i+q)
         * - row(i) - q m: a constant per q, so the gather's indices are
         * fixed and its base moves by m per column. Lane q of the tail sum
         * is multiplied by x_{i+q} once per group (one vector product).
         * Addresses depend on the shape only; nothing is read past a block. */
        for (; i + 7 < n; i += 8) {
            uint32_t off[8];
            uint8_t wq[32];
            size_t o = 0;
            for (unsigned q = 0; q < 8; q++) {
                off[q] = (uint32_t)(o - (size_t)q * m);
                o += (size_t)(n - i - q) * m;
                memset(wq + 4 * q, w[i + q], 4);
            }
            const vec gidx = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)off),
                                              _mm256_set1_epi32(32));
            const uint8_t *const r0 = blk;
            vec a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
            vec a4 = a0, a5 = a0, a6 = a0, a7 = a0, T = a0;
            /* the head: columns i .. i+6, where rows q > j - i have no block */
            for (unsigned d = 0; d < 7; d++) {
                const sc_t t = sc[i + d];
                const uint8_t *b = r0 + (size_t)d * m;
                const vec lane = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)d + 1),
                                                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
                T = _mm256_xor_si256(T, sc_mul(t, _mm256_mask_i32gather_epi32(
                                                      _mm256_setzero_si256(), (const int *)b, gidx,
                                                      lane, 1)));
                a0 = _mm256_xor_si256(a0, sc_mul(t, vload(b)));
                if (d >= 1) a1 = _mm256_xor_si256(a1, sc_mul(t, vload(b + off[1])));
                if (d >= 2) a2 = _mm256_xor_si256(a2, sc_mul(t, vload(b + off[2])));
                if (d >= 3) a3 = _mm256_xor_si256(a3, sc_mul(t, vload(b + off[3])));
                if (d >= 4) a4 = _mm256_xor_si256(a4, sc_mul(t, vload(b + off[4])));
                if (d >= 5) a5 = _mm256_xor_si256(a5, sc_mul(t, vload(b + off[5])));
                if (d >= 6) a6 = _mm256_xor_si256(a6, sc_mul(t, vload(b + off[6])));
            }
            const size_t f1 = off[1], f2 = off[2], f3 = off[3], f4 = off[4];
            const size_t f5 = off[5], f6 = off[6], f7 = off[7];
            const uint8_t *b = r0 + (size_t)7 * m;
            for (unsigned j = i + 7; j < n; j++, b += m) {
                const sc_t t = sc[j];
                T = _mm256_xor_si256(T, sc_mul(t, _mm256_i32gather_epi32((const int *)b, gidx, 1)));
                a0 = _mm256_xor_si256(a0, sc_mul(t, vload(b)));
                a1 = _mm256_xor_si256(a1, sc_mul(t, vload(b + f1)));
                a2 = _mm256_xor_si256(a2, sc_mul(t, vload(b + f2)));
                a3 = _mm256_xor_si256(a3, sc_mul(t, vload(b + f3)));
                a4 = _mm256_xor_si256(a4, sc_mul(t, vload(b + f4)));
                a5 = _mm256_xor_si256(a5, sc_mul(t, vload(b + f5)));
                a6 = _mm256_xor_si256(a6, sc_mul(t, vload(b + f6)));
                a7 = _mm256_xor_si256(a7, sc_mul(t, vload(b + f7)));
            }
            blk = r0 + o; /* row i + 8 */
            const uint8_t *L = lin + (size_t)i * m;
            T = _mm256_xor_si256(T, _mm256_i32gather_epi32((const int *)(L + 32),
                                                           _mm256_setr_epi32(0, 36, 72, 108, 144,
                                                                             180, 216, 252),
                                                           1));
            o0 = _mm256_xor_si256(o0, _mm256_xor_si256(sc_mul(sc[i], _mm256_xor_si256(a0, vload(L))),
                                                       sc_mul(sc[i + 1], _mm256_xor_si256(a1, vload(L + m)))));
            o1 = _mm256_xor_si256(o1, _mm256_xor_si256(sc_mul(sc[i + 2], _mm256_xor_si256(a2, vload(L + 2 * m))),
                                                       sc_mul(sc[i + 3], _mm256_xor_si256(a3, vload(L + 3 * m)))));
            o0 = _mm256_xor_si256(o0, _mm256_xor_si256(sc_mul(sc[i + 4], _mm256_xor_si256(a4, vload(L + 4 * m))),
                                                       sc_mul(sc[i + 5], _mm256_xor_si256(a5, vload(L + 5 * m)))));
            o1 = _mm256_xor_si256(o1, _mm256_xor_si256(sc_mul(sc[i + 6], _mm256_xor_si256(a6, vload(L + 6 * m))),
                                                       sc_mul(sc[i + 7], _mm256_xor_si256(a7, vload(L + 7 * m)))));
            ot = _mm256_xor_si256(ot, v_mul(T, vload(wq)));
        }
        /* o0 holds bytes 0..31 of the result; o1 (here) too: fold; the
         * eight 4-byte lanes of ot are bytes 32..35 */
        o0 = _mm256_xor_si256(o0, o1);
        __m128i x = _mm_xor_si128(_mm256_castsi256_si128(ot), _mm256_extracti128_si256(ot, 1));
        x = _mm_xor_si128(x, _mm_srli_si128(x, 8));
        x = _mm_xor_si128(x, _mm_srli_si128(x, 4));
        x = _mm_and_si128(x, _mm_setr_epi32(-1, 0, 0, 0));
        o1 = _mm256_inserti128_si256(_mm256_setzero_si256(), x, 0);
    }
    if (nv == 2) {
        /* Two rows at a time (two vectors each), sharing x_j's tables. */
        for (; i + 1 < n; i += 2) {
            const uint8_t *r0 = blk, *r1 = r0 + (size_t)(n - i) * m;
            vec a0 = sc_mul(sc[i], vload(r0)), a1 = sc_mul(sc[i], vload(r0 + 32));
            vec c0 = _mm256_setzero_si256(), c1 = c0;
            r0 += m;
            for (unsigned j = i + 1; j < n; j++, r0 += m, r1 += m) {
                const sc_t t = sc[j];
                a0 = _mm256_xor_si256(a0, sc_mul(t, vload(r0)));
                a1 = _mm256_xor_si256(a1, sc_mul(t, vload(r0 + 32)));
                c0 = _mm256_xor_si256(c0, sc_mul(t, vload(r1)));
                c1 = _mm256_xor_si256(c1, sc_mul(t, vload(r1 + 32)));
            }
            blk = r1;
            const uint8_t *L = lin + (size_t)i * m;
            if ((size_t)(L + m - pk) <= safe) {
                a0 = _mm256_xor_si256(a0, vload(L));
                a1 = _mm256_xor_si256(a1, vload(L + 32));
                c0 = _mm256_xor_si256(c0, vload(L + m));
                c1 = _mm256_xor_si256(c1, vload(L + m + 32));
            } else {
                a0 = _mm256_xor_si256(a0, vload_part(L, 32));
                a1 = _mm256_xor_si256(a1, vload_part(L + 32, m - 32));
                c0 = _mm256_xor_si256(c0, vload_part(L + m, 32));
                c1 = _mm256_xor_si256(c1, vload_part(L + m + 32, m - 32));
            }
            o0 = _mm256_xor_si256(o0, _mm256_xor_si256(sc_mul(sc[i], a0), sc_mul(sc[i + 1], c0)));
            o1 = _mm256_xor_si256(o1, _mm256_xor_si256(sc_mul(sc[i], a1), sc_mul(sc[i + 1], c1)));
        }
    }
    for (; i < n; i++) {
        vec a0 = _mm256_setzero_si256(), a1 = a0, b0 = a0, b1 = a0;
        unsigned j = i;
        if (nv == 1) {
            for (; j < n; j++, blk += m)
                a0 = _mm256_xor_si256(a0, sc_mul(sc[j], vload(blk)));
        } else {
            for (; j < n; j++, blk += m) {
                a0 = _mm256_xor_si256(a0, sc_mul(sc[j], vload(blk)));
                a1 = _mm256_xor_si256(a1, sc_mul(sc[j], vload(blk + 32)));
            }
        }
        const uint8_t *L = lin + (size_t)i * m;
        vec l0, l1 = _mm256_setzero_si256();
        if ((size_t)(L - pk) <= safe) {
            l0 = vload(L);
            if (nv == 2)
                l1 = vload(L + 32);
        } else {
            l0 = vload_part(L, m < 32 ? m : 32);
            if (nv == 2)
                l1 = vload_part(L + 32, m - 32);
        }
        a0 = _mm256_xor_si256(_mm256_xor_si256(a0, b0), l0);
        a1 = _mm256_xor_si256(_mm256_xor_si256(a1, b1), l1);
        o0 = _mm256_xor_si256(o0, sc_mul(sc[i], a0));
        o1 = _mm256_xor_si256(o1, sc_mul(sc[i], a1));
    }
    vstore_part(out, o0, m < 32 ? m : 32);
    if (nv == 2)
        vstore_part(out + 32, o1, m - 32);
}

/*
 * One layer of the central map, in registers. val[t] = coef[t] x[u] x[w]
 * (x[w] = 1 for matrix entries) for all terms at once; row r of the system
 * [M | rhs] is e_r plus the row's matrix terms placed by two pshufb of the
 * plan, plus rhs_r = target + its right-hand-side terms at column dim.
 * Fraction-free Gauss-Jordan: for pivot k, after the masked repair of a zero
 * pivot, every other row becomes piv * R_i + R_i[k] * R_k (no inversion in
 * the loop); at the end row r reads d_r x_r = s_r with d_r = R_r[r], so
 * x_r = s_r d_r^254, and the system was nonsingular iff every d_r != 0.
 */
static uint8_t SIMD_FN(solve_layer)(const tts_params *p, const tts_kernels *k,
                                    unsigned layer, uint8_t *x,
                                    const uint8_t *target, const uint8_t *coef)
{
    const tts_layer_plan *P = tts_layer_plan_get(p, layer);
    if (!P)
        return tts_solve_layer_generic(p, k, layer, x, target, coef);
    static const uint8_t unit[64] = {[32] = 1};
    const unsigned dim = P->dim, nt = P->nterms, lo = P->lo, nr = P->nrhs;
    const size_t used = (nt + 31) / 32 * 32 + 32; /* bytes of cf, val read */
    struct { /* every secret scratch byte, wiped once at the end */
        vec xc[4], R[TTS_PLAN_MAXD], Pk[8];
        uint8_t xb[64], cf[TTS_PLAN_MAXT + 64], val[TTS_PLAN_MAXT + 64];
        uint8_t rv[64], rw[64], rhs[TTS_PLAN_MAXD + 14]; /* wiped together */
        uint8_t d[64], s[32], buf[32 * TTS_PLAN_MAXD];    /* wiped together */
    } W;
    uint8_t ok;

    memset(W.xb, 0, sizeof W.xb);
    memcpy(W.xb, x, lo);
    W.xb[TTS_PLAN_ONE] = 1;
    memcpy(W.cf, coef + P->t0, nt);
    memset(W.cf + nt, 0, used - nt);
    memset(W.val + used - 32, 0, 32);
    for (int c = 0; c < 4; c++)
        W.xc[c] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(W.xb + 16 * c)));
    if (dim == 1 && nr == nt) { /* a middle equation: explicit */
        vec acc = _mm256_setzero_si256();
        for (unsigned t = 0; t < nt; t += 32)
            acc = _mm256_xor_si256(
                acc, v_mul(v_mul(vload(W.cf + t), gather64(W.xc, vload(P->u + t))),
                           gather64(W.xc, vload(P->w + t))));
        x[lo] = (uint8_t)(target[lo - p->v] ^ hxor(acc));
        wipe(&acc, sizeof acc);
        wipe(W.xc, sizeof W.xc);
        wipe(W.xb, sizeof W.xb);
        wipe(W.cf, used);
        return 1;
    }
    /* val[t] = coef[t] x[u]; right-hand-side terms then take x[w] too. */
    for (unsigned t = 0; t < nt; t += 32)
        vstore(W.val + t, v_mul(vload(W.cf + t), gather64(W.xc, vload(P->u + t))));
    memset(W.rv, 0, 64);
    memset(W.rw, 0, 64);
    for (unsigned q = 0; q < nr; q++) { /* public positions */
        W.rv[q] = W.val[P->rhs_t[q]];
        W.rw[q] = W.xb[P->w[P->rhs_t[q]]];
    }
    for (unsigned q = 0; q < nr; q += 32)
        vstore(W.rv + q, v_mul(vload(W.rv + q), vload(W.rw + q)));
    memset(W.rhs, 0, sizeof W.rhs);
    for (unsigned r = 0; r < dim; r++)
        W.rhs[r] = target[lo + r - p->v];
    for (unsigned q = 0; q < nr; q++)
        W.rhs[P->rhs_r[q]] ^= W.rv[q];

    const vec pick0 = _mm256_sub_epi8(_mm256_setzero_si256(),
                                      vload(unit + 32 - dim)); /* 0xFF at dim */
    for (unsigned r = 0; r < dim; r++) {
        const uint8_t *sg = W.val + P->seg[r];
        vec a = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)sg));
        vec b = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(sg + 16)));
        vec row = _mm256_xor_si256(
            _mm256_shuffle_epi8(a, _mm256_loadu_si256((const __m256i *)P->ctl[r][0])),
            _mm256_shuffle_epi8(b, _mm256_loadu_si256((const __m256i *)P->ctl[r][1])));
        row = _mm256_xor_si256(row, vload(unit + 32 - r));
        W.R[r] = _mm256_xor_si256(row, _mm256_and_si256(pick0, _mm256_set1_epi8((char)W.rhs[r])));
    }

    memset(W.d, 0, sizeof W.d);
    memset(W.s, 0, sizeof W.s);
    if (dim <= 15) {
        for (unsigned q = 0; 2 * q < dim; q++)
            W.Pk[q] = _mm256_permute2x128_si256(
                W.R[2 * q], 2 * q + 1 < dim ? W.R[2 * q + 1] : _mm256_setzero_si256(), 0x20);
        SIMD_FN(gj2)(W.Pk, dim, W.d, W.s, W.buf);
    } else {
        SIMD_FN(gj)(W.R, dim, 1, W.d);
        for (unsigned r = 0; r < dim; r++)
            vstore(W.buf + 32 * r, W.R[r]);
        for (unsigned r = 0; r < dim; r++)
            W.s[r] = W.buf[32 * r + dim];
    }
    ok = SIMD_FN(all_nonzero)(W.d, dim);
    vstore(W.s, v_mul(vload(W.s), v_inv(vload(W.d))));
    memcpy(x + lo, W.s, dim);
    wipe(W.R, sizeof(vec) * dim);
    wipe(W.Pk, sizeof W.Pk);
    wipe(W.d, sizeof W.d + sizeof W.s + 32 * dim);
    wipe(W.xc, sizeof W.xc);
    wipe(W.xb, sizeof W.xb);
    wipe(W.cf, used);
    wipe(W.val, used);
    wipe(W.rv, sizeof W.rv + sizeof W.rw + sizeof W.rhs);
    return ok;
}

/*
 * In-place Gauss-Jordan inversion (rows of one or two vectors): step k
 * normalises row k by the inverse of its pivot, whose byte k becomes that
 * inverse, and every other row i becomes R_i with byte k cleared plus
 * R_i[k] times the new row k; the columns of the inverse fill the places
 * of the eliminated ones, so rows stay n bytes wide instead of 2n. A zero
 * pivot is repaired by a masked swap with the first later row that has a
 * nonzero byte k; the swaps are undone at the end on the columns, in
 * reverse order, as one permutation applied by in-register lookups. The
 * pivots' product is nonzero iff M was invertible. No branch or address
 * depends on the entries.
 */
static uint8_t SIMD_FN(invert)(const tts_kernels *k, uint8_t *inv, const uint8_t *M,
                               unsigned dim)
{
    if (dim == 0 || dim > TTS_MAX_N)
        return tts_invert_generic(k, inv, M, dim);
    const unsigned nv = dim > 32 ? 2 : 1;
    const vec z = _mm256_setzero_si256(), ones = _mm256_set1_epi8(-1);
    const vec iota = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    vec R[TTS_MAX_N][2], S[TTS_MAX_N]; /* S[k]: the row swapped with k, in every byte */
    uint8_t buf[64 + 64];
    vec okv = ones;
    for (unsigned r = 0; r < dim; r++) {
        memset(buf, 0, sizeof buf);
        memcpy(buf, M + (size_t)r * dim, dim);
        R[r][0] = vload(buf);
        R[r][1] = vload(buf + 32);
    }
    for (unsigned kk = 0; kk < dim; kk++) {
        const unsigned kv = kk / 32, kb = kk % 32;
        vec *Rk = R[kk];
        /* repair: swap with the first later row nonzero in column kk */
        vec pref = _mm256_cmpeq_epi8(bcast_byte(Rk[kv], kb), z);
        vec s = _mm256_set1_epi8((char)kk);
        for (unsigned i = kk + 1; i < dim; i++) {
            vec *Ri = R[i];
            const vec zi = _mm256_cmpeq_epi8(bcast_byte(Ri[kv], kb), z);
            const vec sw = _mm256_andnot_si256(zi, pref);
            /* whole rows: the inverse's columns < kk move with them */
            for (unsigned j = 0; j < nv; j++) {
                const vec t = _mm256_and_si256(_mm256_xor_si256(Rk[j], Ri[j]), sw);
                Rk[j] = _mm256_xor_si256(Rk[j], t);
                Ri[j] = _mm256_xor_si256(Ri[j], t);
            }
            s = _mm256_blendv_epi8(s, _mm256_set1_epi8((char)i), sw);
            pref = _mm256_and_si256(pref, zi);
        }
        S[kk] = s;
        const vec piv = bcast_byte(Rk[kv], kb);
        okv = _mm256_andnot_si256(_mm256_cmpeq_epi8(piv, z), okv);
        const vec pinv = v_inv(piv);
        const vec ek = _mm256_cmpeq_epi8(iota, _mm256_set1_epi8((char)kb));
        const sc_t sp = sc_make(pinv);
        fx_t f0, f1;
        for (unsigned j = 0; j < nv; j++) {
            Rk[j] = sc_mul(sp, Rk[j]);
            if (j == kv)
                Rk[j] = _mm256_blendv_epi8(Rk[j], pinv, ek);
        }
        fx_make(&f0, Rk[0]);
        if (nv == 2)
            fx_make(&f1, Rk[1]);
        else
            f1 = f0; /* unused */
        for (unsigned i = 0; i < dim; i++) {
            if (i == kk) /* public index */
                continue;
            vec *Ri = R[i];
            const vec F = bcast_byte(Ri[kv], kb);
            Ri[kv] = _mm256_andnot_si256(ek, Ri[kv]);
            Ri[0] = _mm256_xor_si256(Ri[0], fx_mul(&f0, F));
            if (nv == 2)
                Ri[1] = _mm256_xor_si256(Ri[1], fx_mul(&f1, F));
        }
    }
    /* undo the swaps on the columns, last first: pi = the swaps applied to
     * the identity, then column j of the result is column pi[j] */
    uint8_t pib[64];
    vec pi[2] = {iota, _mm256_add_epi8(iota, _mm256_set1_epi8(32))};
    for (unsigned kk = dim; kk-- > 0;) {
        const unsigned kv = kk / 32, kb = kk % 32;
        const vec a = bcast_byte(pi[kv], kb);
        vec pc[4];
        for (int c = 0; c < 4; c++)
            pc[c] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&pi[c / 2] + (c & 1)));
        const vec b = gather64(pc, S[kk]); /* pi[s_k] */
        const vec sk = S[kk];
        for (unsigned j = 0; j < 2; j++) {
            const vec pos = _mm256_add_epi8(iota, _mm256_set1_epi8((char)(32 * j)));
            pi[j] = _mm256_blendv_epi8(pi[j], b, _mm256_cmpeq_epi8(pos, _mm256_set1_epi8((char)kk)));
            pi[j] = _mm256_blendv_epi8(pi[j], a, _mm256_cmpeq_epi8(pos, sk));
        }
    }
    for (unsigned r = 0; r < dim; r++) {
        vec rc[4];
        for (int c = 0; c < 4; c++)
            rc[c] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&R[r][c / 2] + (c & 1)));
        vstore(buf, gather64(rc, pi[0]));
        vstore(buf + 32, gather64(rc, pi[1]));
        memcpy(inv + (size_t)r * dim, buf, dim);
    }
    vstore(pib, okv);
    const uint8_t ok = (uint8_t)(pib[0] & 1);
    wipe(R, sizeof R);
    wipe(S, sizeof S);
    wipe(buf, sizeof buf);
    wipe(pi, sizeof pi);
    return ok;
}

/* Block sums (challenge/): the scalars x are public, so sc_pub may read
 * its table; each 64-byte block is two vectors kept in registers. */
static void SIMD_FN(blocksum)(uint8_t *y, const uint8_t *M, const uint32_t *mo,
                              const uint8_t *x, const uint32_t *xo, size_t rows,
                              unsigned per, unsigned cols)
{
#ifdef SIMD_BLOCKSUM_WIDE
    if (SIMD_BLOCKSUM_WIDE(y, M, mo, x, xo, rows, per, cols))
        return;
#endif
    for (size_t r = 0; r < rows; r++) {
        vec a0 = _mm256_setzero_si256(), a1 = _mm256_setzero_si256();
        for (unsigned t = 0; t < per; t++) {
            const uint8_t *Mt = M + mo[r * per + t];
            const uint8_t *xt = x + xo[r * per + t];
            for (unsigned i = 0; i < cols; i++) {
                sc_t c = sc_pub(xt[i]);
                a0 = _mm256_xor_si256(a0, sc_mul(c, vload(Mt + 64 * (size_t)i)));
                a1 = _mm256_xor_si256(a1, sc_mul(c, vload(Mt + 64 * (size_t)i + 32)));
            }
        }
        vstore(y + 64 * r, a0);
        vstore(y + 64 * r + 32, a1);
    }
}

const tts_kernels SIMD_FN(tts_kernels) = {
    .name = SIMD_NAME,
    .madd = SIMD_FN(madd),
    .matvec = SIMD_FN(matvec),
    .gauss = SIMD_FN(gauss),
    .pk_eval = SIMD_FN(pk_eval),
    .matmul = SIMD_FN(matmul),
    .vmul = SIMD_FN(vmul),
    .transpose = SIMD_FN(transpose),
    .solve_layer = SIMD_FN(solve_layer),
    .invert = SIMD_FN(invert),
    .blocksum = SIMD_FN(blocksum),
};
