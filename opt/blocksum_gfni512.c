/* SPDX-License-Identifier: MIT */
/* The gfni backend's blocksum on zmm registers (AVX-512 F + BW + GFNI):
 * each 64-byte block is one register, each term one broadcast, one
 * vgf2p8mulb with its memory operand and one xor. Called by kernels_gfni.c
 * only when tts_cpu_features() reports AVX-512; same contract as the kernel
 * (ref/internal.h). Public data only. The column counts of the break's
 * systems (v - 1 for the eight sets: 5, 7, 9, 11, 13) get straight-line
 * bodies, one function each. */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

void tts_blocksum_gfni512(uint8_t *y, const uint8_t *M, const uint32_t *mo,
                          const uint8_t *x, const uint32_t *xo, size_t rows,
                          unsigned per, unsigned cols);

#define PROD(i)                                                                \
    _mm512_gf2p8mul_epi8(_mm512_set1_epi8((char)xt[i]), _mm512_loadu_si512(Mt + 64 * (i)))
#define TERM(acc, i) acc = _mm512_xor_si512(acc, PROD(i))
/* acc ^= two products, in one three-way xor (vpternlogq 0x96) */
#define TERM2(acc, i) acc = _mm512_ternarylogic_epi64(acc, PROD(i), PROD((i) + 1), 0x96)

/* one function per column count C; two accumulators (the xor chain is the
 * latency bound) */
#define ROWS(C)                                                                \
    static void rows_##C(uint8_t *y, const uint8_t *M, const uint32_t *mo,    \
                         const uint8_t *x, const uint32_t *xo, size_t rows,    \
                         unsigned per)                                         \
    {                                                                          \
        for (size_t r = 0; r < rows; r++) {                                    \
            __m512i a0 = _mm512_setzero_si512(), a1 = _mm512_setzero_si512();  \
            for (unsigned t = 0; t < per; t++) {                               \
                const uint8_t *Mt = M + mo[r * per + t];                       \
                const uint8_t *xt = x + xo[r * per + t];                       \
                _Pragma("GCC unroll 16") for (unsigned i = 0; i + 3 < (C);     \
                                               i += 4) {                        \
                    TERM2(a0, i);                                              \
                    TERM2(a1, i + 2);                                          \
                }                                                              \
                if ((C) & 2)                                                   \
                    TERM2(a0, (C) & ~3u);                                      \
                if ((C) & 1)                                                   \
                    TERM(a0, (C) - 1);                                         \
            }                                                                  \
            _mm512_storeu_si512(y + 64 * r, _mm512_xor_si512(a0, a1));         \
        }                                                                      \
    }
ROWS(5)
ROWS(7)
ROWS(9)
ROWS(11)
ROWS(13)

static void rows_any(uint8_t *y, const uint8_t *M, const uint32_t *mo, const uint8_t *x,
                     const uint32_t *xo, size_t rows, unsigned per, unsigned cols)
{
    for (size_t r = 0; r < rows; r++) {
        __m512i a0 = _mm512_setzero_si512();
        for (unsigned t = 0; t < per; t++) {
            const uint8_t *Mt = M + mo[r * per + t];
            const uint8_t *xt = x + xo[r * per + t];
            for (unsigned i = 0; i < cols; i++)
                TERM(a0, i);
        }
        _mm512_storeu_si512(y + 64 * r, a0);
    }
}

void tts_blocksum_gfni512(uint8_t *y, const uint8_t *M, const uint32_t *mo,
                          const uint8_t *x, const uint32_t *xo, size_t rows,
                          unsigned per, unsigned cols)
{
    switch (cols) {
    case 5: rows_5(y, M, mo, x, xo, rows, per); break;
    case 7: rows_7(y, M, mo, x, xo, rows, per); break;
    case 9: rows_9(y, M, mo, x, xo, rows, per); break;
    case 11: rows_11(y, M, mo, x, xo, rows, per); break;
    case 13: rows_13(y, M, mo, x, xo, rows, per); break;
    default: rows_any(y, M, mo, x, xo, rows, per, cols); break;
    }
}
