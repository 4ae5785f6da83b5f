/* SPDX-License-Identifier: MIT */
/* The gfni implementation: libtts's gfni kernels (opt/kernels_gfni.c,
 * vgf2p8mulb on ymm registers) chosen by opt/dispatch.c, the portable ones
 * its fallback. Every source includes this header: the whole
 * implementation is compiled for AVX2 and GFNI. */
#ifndef TTS_PACKAGE_H
#define TTS_PACKAGE_H
#if !defined(__AVX2__) || !defined(__GFNI__)
#error "this implementation needs AVX2 and GFNI (gcc -march=native on a GFNI CPU, or -mavx2 -mgfni)"
#endif
#define TTS_HAVE_GFNI 1
#endif
