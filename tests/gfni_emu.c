/* SPDX-License-Identifier: MIT */
/*
 * The gfni backend's source compiled with its two GFNI instructions
 * emulated in AVX2, so that its kernels (everything but the instructions
 * themselves) are differential-tested on CPUs without GFNI (this project's
 * development machine and valgrind among them). Test-only; built with
 * -mavx2 and used only when the CPU has AVX2.
 */
#include <immintrin.h>
#include <stdint.h>

/* a * b bytewise in GF(2^8) mod 0x11B: shift-and-add over the bits of b. */
static inline __m256i emu_gf2p8mul(__m256i a, __m256i b)
{
    const __m256i z = _mm256_setzero_si256(), red = _mm256_set1_epi8(0x1B);
    __m256i r = z;
    for (int k = 0; k < 8; k++) {
        __m256i bit = _mm256_slli_epi16(b, 7 - k); /* bit k of b to the sign */
        r = _mm256_xor_si256(r, _mm256_blendv_epi8(z, a, bit));
        a = _mm256_xor_si256(_mm256_add_epi8(a, a), _mm256_and_si256(_mm256_cmpgt_epi8(z, a), red));
    }
    return r;
}

/* Only the form the backend uses: identity matrix, no constant, i.e. x^-1
 * (0 -> 0), as x^254. */
static inline __m256i emu_gf2p8affineinv(__m256i x, __m256i A, int c)
{
    (void)A;
    (void)c;
    __m256i x2 = emu_gf2p8mul(x, x), x3 = emu_gf2p8mul(x2, x);
    __m256i x12 = emu_gf2p8mul(emu_gf2p8mul(x3, x3), emu_gf2p8mul(x3, x3));
    __m256i x15 = emu_gf2p8mul(x12, x3), t = x15;
    for (int i = 0; i < 4; i++)
        t = emu_gf2p8mul(t, t);
    return emu_gf2p8mul(emu_gf2p8mul(t, x12), x2);
}

#define _mm256_gf2p8mul_epi8(a, b) emu_gf2p8mul((a), (b))
#define _mm256_gf2p8affineinv_epi64_epi8(x, A, c) emu_gf2p8affineinv((x), (A), (c))
#define tts_kernels_gfni tts_kernels_gfni_emu
#include "../opt/kernels_gfni.c"
