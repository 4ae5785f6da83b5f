/* SPDX-License-Identifier: MIT */
/* The probes of a SUPERCOP vector implementation, in place of opt/cpu.c:
 * the whole implementation is compiled for its ISA (package.h refuses
 * anything else), so its kernels are there whenever the code runs at all,
 * and CPUID has nothing to add. (Nor could it be asked through the
 * compiler's <cpuid.h>: SUPERCOP's include folder, searched first, has a
 * cpuid.h of its own, the CPU's name.) */
#include "cpu.h"
#include "internal.h"

#ifdef TTS_HAVE_AVX2
extern const tts_kernels tts_kernels_avx2;
const tts_kernels *tts_probe_avx2(void) { return &tts_kernels_avx2; }
#endif
#ifdef TTS_HAVE_GFNI
extern const tts_kernels tts_kernels_gfni;
const tts_kernels *tts_probe_gfni(void) { return &tts_kernels_gfni; }
#endif
