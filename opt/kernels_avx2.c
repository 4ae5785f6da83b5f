/* SPDX-License-Identifier: MIT */
/* AVX2 backend: GF(256) products by vpshufb on nibble tables derived in
 * registers from the scalar (never loaded from memory at a secret index),
 * and products of two vectors by shift-and-add with blend masks. */
#include <immintrin.h>
#include <stdint.h>

#include "avx2_tables.h"

/* a * t in every byte: shift, and reduce by 0x1B where the top bit was set. */
static inline __m256i xt(__m256i a)
{
    __m256i top = _mm256_cmpgt_epi8(_mm256_setzero_si256(), a);
    return _mm256_xor_si256(_mm256_add_epi8(a, a),
                            _mm256_and_si256(top, _mm256_set1_epi8(0x1B)));
}

/* g[k] = a with its bit 7 - k at the sign (where vpblendvb looks), k =
 * 0..7: shifts by 2, 4 and 6 and a doubling (vpaddb) after each, so that
 * three of the seven moves, not seven, need Zen 2's single shift pipe. */
static inline void sg_make_fwd(__m256i *g, __m256i a)
{
    g[0] = a;
    g[1] = _mm256_add_epi8(a, a);
    g[2] = _mm256_slli_epi16(a, 2);
    g[3] = _mm256_add_epi8(g[2], g[2]);
    g[4] = _mm256_slli_epi16(a, 4);
    g[5] = _mm256_add_epi8(g[4], g[4]);
    g[6] = _mm256_slli_epi16(a, 6);
    g[7] = _mm256_add_epi8(g[6], g[6]);
}

/* Scalar context: lo[j] = s*j, hi[j] = s*16j (j < 16) in both lanes. The
 * tables are GF(2)-linear in s: the XOR, over the bits b of s, of the
 * constant tables of t^b, each selected by a blend on bit b moved to the
 * sign position (no memory access depends on s). */
typedef struct {
    __m256i lo, hi;
} sc_t;

static inline sc_t sc_make(__m256i s)
{
    const __m256i *K = (const __m256i *)tts_avx2_kbit;
    const __m256i z = _mm256_setzero_si256();
    __m256i g[8];
    sg_make_fwd(g, s); /* g[k]: bit 7 - k of s at the sign */
    __m256i t0 = _mm256_xor_si256(_mm256_blendv_epi8(z, _mm256_loadu_si256(K + 7), g[0]),
                                  _mm256_blendv_epi8(z, _mm256_loadu_si256(K + 6), g[1]));
    __m256i t1 = _mm256_xor_si256(_mm256_blendv_epi8(z, _mm256_loadu_si256(K + 5), g[2]),
                                  _mm256_blendv_epi8(z, _mm256_loadu_si256(K + 4), g[3]));
    __m256i t2 = _mm256_xor_si256(_mm256_blendv_epi8(z, _mm256_loadu_si256(K + 3), g[4]),
                                  _mm256_blendv_epi8(z, _mm256_loadu_si256(K + 2), g[5]));
    __m256i t3 = _mm256_xor_si256(_mm256_blendv_epi8(z, _mm256_loadu_si256(K + 1), g[6]),
                                  _mm256_blendv_epi8(z, _mm256_loadu_si256(K + 0), g[7]));
    __m256i t = _mm256_xor_si256(_mm256_xor_si256(t0, t1), _mm256_xor_si256(t2, t3));
    sc_t c = {_mm256_permute2x128_si256(t, t, 0x00), _mm256_permute2x128_si256(t, t, 0x11)};
    return c;
}

/* A public scalar (pk_eval: signature bytes; the constants t^k): its
 * tables from memory, at an address that depends only on public data. */
static inline sc_t sc_pub(uint8_t s)
{
    const __m128i *T = (const __m128i *)tts_avx2_pub[s];
    sc_t c = {_mm256_broadcastsi128_si256(_mm_loadu_si128(T)),
              _mm256_broadcastsi128_si256(_mm_loadu_si128(T + 1))};
    return c;
}

static inline __m256i sc_mul(sc_t c, __m256i v)
{
    const __m256i mask = _mm256_set1_epi8(0x0F);
    __m256i l = _mm256_and_si256(v, mask);
    __m256i h = _mm256_and_si256(_mm256_srli_epi16(v, 4), mask);
    return _mm256_xor_si256(_mm256_shuffle_epi8(c.lo, l), _mm256_shuffle_epi8(c.hi, h));
}

/* A vector split into nibbles once, for several products by scalars. */
typedef struct {
    __m256i l, h;
} sp_t;

static inline sp_t sp_make(__m256i v)
{
    const __m256i mask = _mm256_set1_epi8(0x0F);
    sp_t r = {_mm256_and_si256(v, mask), _mm256_and_si256(_mm256_srli_epi16(v, 4), mask)};
    return r;
}

static inline __m256i sc_mul_sp(sc_t c, sp_t v)
{
    return _mm256_xor_si256(_mm256_shuffle_epi8(c.lo, v.l), _mm256_shuffle_epi8(c.hi, v.h));
}

/* x^2, bytewise: squaring is GF(2)-linear, two in-register lookups. */
static inline __m256i v_sqr(__m256i x)
{
    const __m128i *T = (const __m128i *)tts_avx2_sq[0];
    sc_t c = {_mm256_broadcastsi128_si256(_mm_loadu_si128(T)),
              _mm256_broadcastsi128_si256(_mm_loadu_si128(T + 1))};
    return sc_mul(c, x);
}

/* Fixed vector b: b * t^k for k < 8; a * b = XOR over the bits k of a of
 * b * t^k, each selected by a blend on the bit moved to the sign. */
typedef struct {
    __m256i p[8];
} fx_t;

/* b * t^k for k = 1..7 straight from b's nibbles by the constant tables of
 * t^k (multiplication by a constant is GF(2)-linear): independent lookups,
 * so the latency is that of one product, not of a chain of seven xtimes. */
static inline void fx_make(fx_t *f, __m256i b)
{
    const __m256i mask = _mm256_set1_epi8(0x0F);
    const __m256i l = _mm256_and_si256(b, mask);
    const __m256i h = _mm256_and_si256(_mm256_srli_epi16(b, 4), mask);
    f->p[0] = b;
    for (int k = 1; k < 8; k++) {
        const __m128i *T = (const __m128i *)tts_avx2_pub[1u << k];
        f->p[k] = _mm256_xor_si256(
            _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128(T)), l),
            _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128(T + 1)), h));
    }
}


static inline __m256i fx_mul(const fx_t *f, __m256i a)
{
    const __m256i z = _mm256_setzero_si256();
    __m256i g[8];
    sg_make_fwd(g, a);
    __m256i r0 = _mm256_xor_si256(_mm256_blendv_epi8(z, f->p[7], g[0]), _mm256_blendv_epi8(z, f->p[6], g[1]));
    __m256i r1 = _mm256_xor_si256(_mm256_blendv_epi8(z, f->p[5], g[2]), _mm256_blendv_epi8(z, f->p[4], g[3]));
    __m256i r2 = _mm256_xor_si256(_mm256_blendv_epi8(z, f->p[3], g[4]), _mm256_blendv_epi8(z, f->p[2], g[5]));
    __m256i r3 = _mm256_xor_si256(_mm256_blendv_epi8(z, f->p[1], g[6]), _mm256_blendv_epi8(z, f->p[0], g[7]));
    return _mm256_xor_si256(_mm256_xor_si256(r0, r1), _mm256_xor_si256(r2, r3));
}

static inline __attribute__((always_inline)) __m256i v_mul(__m256i a, __m256i b)
{
    fx_t f;
    fx_make(&f, b);
    return fx_mul(&f, a);
}

/* x^-1 (0 -> 0) from the 256-byte table: all 16 rows are looked up with
 * x's low nibble and each kept where x's high nibble names it, so no
 * address depends on x. 16 lookups, independent of one another: shorter
 * and about 4x fewer operations than the x^254 chain of products. */
static inline __m256i v_inv(__m256i x)
{
    const __m256i mask = _mm256_set1_epi8(0x0F), one = _mm256_set1_epi8(1);
    const __m256i l = _mm256_and_si256(x, mask);
    __m256i h = _mm256_and_si256(_mm256_srli_epi16(x, 4), mask), r = _mm256_setzero_si256();
    for (int c = 0; c < 16; c++) {
        const __m256i t = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)tts_avx2_inv[c]));
        r = _mm256_xor_si256(r, _mm256_and_si256(_mm256_shuffle_epi8(t, l),
                                                 _mm256_cmpeq_epi8(h, _mm256_setzero_si256())));
        h = _mm256_sub_epi8(h, one);
    }
    return r;
}

#define SIMD_NAME "avx2"
#define SIMD_FN(x) x##_avx2
#include "simd_impl.h"
