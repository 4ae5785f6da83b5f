/* The clocks every libtts benchmark reads: TSC cycles (rdtsc, reference
 * cycles; 0 where there is no TSC) and CLOCK_MONOTONIC nanoseconds.
 * Needs _POSIX_C_SOURCE >= 199309L before the first #include. */
#ifndef TTS_BENCH_CLOCK_H
#define TTS_BENCH_CLOCK_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t cycles(void) { return __rdtsc(); }
#define CYCLE_SOURCE "rdtsc"
#else
static inline uint64_t cycles(void) { return 0; }
#define CYCLE_SOURCE "none"
#endif

static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
