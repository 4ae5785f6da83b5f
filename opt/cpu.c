/* SPDX-License-Identifier: MIT */
/* CPUID + XGETBV: a feature counts only if the CPU reports it and the OS
 * has enabled the register state it needs (XCR0). Valgrind hides the GFNI
 * and AVX-512 bits from its guests, so under memcheck gfni is unavailable. */
#include "cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <stdatomic.h>
#include <stdint.h>

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static unsigned probe(void)
{
    unsigned a, b, c, d, f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (!osxsave || !avx)
        return 0;
    const uint64_t xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) /* XMM and YMM state */
        return 0;
    if (__get_cpuid_max(0, 0) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    if ((b >> 5) & 1)
        f |= TTS_CPU_AVX2;
    if ((f & TTS_CPU_AVX2) && ((c >> 8) & 1))
        f |= TTS_CPU_GFNI;
    if ((xcr0 & 0xE6) == 0xE6 && ((b >> 16) & 1) && ((b >> 30) & 1) && ((b >> 31) & 1))
        f |= TTS_CPU_AVX512;
    return f;
}

/* Bit 31 marks a computed value; racing first callers compute the same. */
static _Atomic unsigned cached;

unsigned tts_cpu_features(void)
{
    unsigned f = atomic_load_explicit(&cached, memory_order_relaxed);
    if (!(f & 0x80000000u)) {
        f = probe() | 0x80000000u;
        atomic_store_explicit(&cached, f, memory_order_relaxed);
    }
    return f & ~0x80000000u;
}
#else
unsigned tts_cpu_features(void) { return 0; }
#endif

/* Probes of the ISA backends, here because this file is compiled without
 * ISA flags (the backends' own objects may contain AVX2 or GFNI code
 * anywhere, so nothing in them runs before the CPU check). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include "internal.h"

#ifdef TTS_HAVE_AVX2
extern const tts_kernels tts_kernels_avx2;
const tts_kernels *tts_probe_avx2(void)
{
    return (tts_cpu_features() & TTS_CPU_AVX2) ? &tts_kernels_avx2 : NULL;
}
#endif
#ifdef TTS_HAVE_GFNI
extern const tts_kernels tts_kernels_gfni;
const tts_kernels *tts_probe_gfni(void)
{
    const unsigned need = TTS_CPU_AVX2 | TTS_CPU_GFNI;
    return (tts_cpu_features() & need) == need ? &tts_kernels_gfni : NULL;
}
#endif
#ifdef TTS_HAVE_NEON
#include <sys/auxv.h>
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1) /* <asm/hwcap.h> on aarch64 */
#endif
extern const tts_kernels tts_kernels_neon;
/* Advanced SIMD is part of every AArch64 Linux system; the HWCAP bit is
 * checked anyway, as the kernel reports it. */
const tts_kernels *tts_probe_neon(void)
{
    return (getauxval(AT_HWCAP) & HWCAP_ASIMD) ? &tts_kernels_neon : NULL;
}
#endif
