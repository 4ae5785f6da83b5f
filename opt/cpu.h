/* Run-time CPU feature detection (CPUID + XGETBV), compiled without any
 * ISA flags so that it is safe to call on every x86-64 CPU. */
#ifndef TTS_CPU_H
#define TTS_CPU_H

#define TTS_CPU_AVX2 1u  /* AVX2, with the OS saving YMM state */
#define TTS_CPU_GFNI 2u  /* GFNI, VEX-encoded (AVX): vgf2p8mulb on ymm */
#define TTS_CPU_AVX512 4u /* AVX-512 F+BW+VL with ZMM/opmask state saved */

/* The TTS_CPU_* bits this CPU and OS support (0 off x86). */
unsigned tts_cpu_features(void);

#endif
