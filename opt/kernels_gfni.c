/* SPDX-License-Identifier: MIT */
/* GFNI backend: vgf2p8mulb multiplies 32 bytes in GF(2^8) mod 0x11B (the
 * field of docs/SPEC.md) in one instruction, VEX-encoded on ymm registers
 * (needs AVX2 + GFNI). No tables, no data-dependent branches. */
#include <immintrin.h>
#include <stdint.h>

typedef __m256i sc_t;
static inline sc_t sc_make(__m256i s) { return s; }
static inline sc_t sc_pub(uint8_t s) { return _mm256_set1_epi8((char)s); }
static inline __m256i sc_mul(sc_t s, __m256i v) { return _mm256_gf2p8mul_epi8(s, v); }

typedef __m256i sp_t;
static inline sp_t sp_make(__m256i v) { return v; }
static inline __m256i sc_mul_sp(sc_t s, sp_t v) { return _mm256_gf2p8mul_epi8(s, v); }

typedef struct {
    __m256i b;
} fx_t;
static inline void fx_make(fx_t *f, __m256i b) { f->b = b; }
static inline __m256i fx_mul(const fx_t *f, __m256i a) { return _mm256_gf2p8mul_epi8(a, f->b); }

static inline __m256i v_mul(__m256i a, __m256i b) { return _mm256_gf2p8mul_epi8(a, b); }

/* x^-1 (0 -> 0): vgf2p8affineinvqb inverts in the AES field, then applies
 * the affine map given, here the identity matrix with no constant. */
static inline __m256i v_inv(__m256i x)
{
    return _mm256_gf2p8affineinv_epi64_epi8(x, _mm256_set1_epi64x(0x0102040810204080ll), 0);
}

/* Where the CPU also has AVX-512 (F, BW), blocksum runs on zmm registers:
 * one 64-byte block a register (opt/blocksum_gfni512.c). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#if defined(TTS_HAVE_GFNI512) && !defined(tts_kernels_gfni)
#include "cpu.h"
void tts_blocksum_gfni512(uint8_t *y, const uint8_t *M, const uint32_t *mo,
                          const uint8_t *x, const uint32_t *xo, size_t rows,
                          unsigned per, unsigned cols);
#define SIMD_BLOCKSUM_WIDE(...)                                                \
    ((tts_cpu_features() & TTS_CPU_AVX512) ? (tts_blocksum_gfni512(__VA_ARGS__), 1) : 0)
#endif

#define SIMD_NAME "gfni"
#define SIMD_FN(x) x##_gfni
#include "simd_impl.h"
