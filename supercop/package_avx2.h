/* SPDX-License-Identifier: MIT */
/* The avx2 implementation: libtts's avx2 kernels (opt/kernels_avx2.c)
 * chosen by opt/dispatch.c, the portable ones its fallback. Every source
 * includes this header: the whole implementation is compiled for AVX2. */
#ifndef TTS_PACKAGE_H
#define TTS_PACKAGE_H
#ifndef __AVX2__
#error "this implementation needs AVX2 (gcc -march=native on an AVX2 CPU, or -mavx2)"
#endif
#define TTS_HAVE_AVX2 1
#endif
