/* SPDX-License-Identifier: MIT */
/* Run-time CPU feature detection (CPUID + XGETBV), compiled without any
 * ISA flags so that it is safe to call on every x86-64 CPU. */
#ifndef TTS_CPU_H
#define TTS_CPU_H

#define TTS_CPU_AVX2 1u  /* AVX2, with the OS saving YMM state */
#define TTS_CPU_GFNI 2u  /* GFNI, VEX-encoded (AVX): vgf2p8mulb on ymm */
#define TTS_CPU_AVX512 4u /* AVX-512 F+BW+VL with ZMM/opmask state saved */

/* The TTS_CPU_* bits this CPU and OS support (0 off x86). CPUID runs once
 * per process and the answer is cached: on a virtual machine CPUID traps
 * to the hypervisor (some 10^4 cycles, with the TLB and L1 refilled after),
 * which a probe at every tts_set_backend would put into the next call. */
unsigned tts_cpu_features(void);

/* The probes of the ISA backends (opt/cpu.c): NULL when the build or the
 * CPU lacks the feature. */
struct tts_kernels;
const struct tts_kernels *tts_probe_swar(void);
const struct tts_kernels *tts_probe_avx2(void);
const struct tts_kernels *tts_probe_gfni(void);
const struct tts_kernels *tts_probe_neon(void);

#endif
