/* The gfni backend's blocksum on zmm registers (AVX-512 F + BW + GFNI):
 * each 64-byte block is one register, each term one broadcast, one load,
 * one vgf2p8mulb and one xor. Called by kernels_gfni.c only when
 * tts_cpu_features() reports AVX-512; same contract as the kernel
 * (ref/internal.h). Public data only. */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

void tts_blocksum_gfni512(uint8_t *y, const uint8_t *M, const uint32_t *mo,
                          const uint8_t *x, const uint32_t *xo, size_t rows,
                          unsigned per, unsigned cols);

void tts_blocksum_gfni512(uint8_t *y, const uint8_t *M, const uint32_t *mo,
                          const uint8_t *x, const uint32_t *xo, size_t rows,
                          unsigned per, unsigned cols)
{
    for (size_t r = 0; r < rows; r++) {
        __m512i a0 = _mm512_setzero_si512(), a1 = _mm512_setzero_si512();
        for (unsigned t = 0; t < per; t++) {
            const uint8_t *Mt = M + mo[r * per + t];
            const uint8_t *xt = x + xo[r * per + t];
            unsigned i = 0;
            /* two accumulators: the xor chain is the latency bound */
            for (; i + 2 <= cols; i += 2) {
                __m512i s0 = _mm512_set1_epi8((char)xt[i]);
                __m512i s1 = _mm512_set1_epi8((char)xt[i + 1]);
                a0 = _mm512_xor_si512(a0, _mm512_gf2p8mul_epi8(
                                              s0, _mm512_loadu_si512(Mt + 64 * (size_t)i)));
                a1 = _mm512_xor_si512(a1, _mm512_gf2p8mul_epi8(
                                              s1, _mm512_loadu_si512(Mt + 64 * (size_t)i + 64)));
            }
            if (i < cols)
                a0 = _mm512_xor_si512(a0, _mm512_gf2p8mul_epi8(
                                              _mm512_set1_epi8((char)xt[i]),
                                              _mm512_loadu_si512(Mt + 64 * (size_t)i)));
        }
        _mm512_storeu_si512(y + 64 * r, _mm512_xor_si512(a0, a1));
    }
}
