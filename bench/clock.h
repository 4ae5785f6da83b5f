/* SPDX-License-Identifier: MIT */
/* What every libtts benchmark reads: TSC cycles (rdtsc, reference cycles;
 * 0 where there is no TSC), CLOCK_MONOTONIC nanoseconds, the CPU model.
 * Needs _POSIX_C_SOURCE >= 199309L before the first #include. */
#ifndef TTS_BENCH_CLOCK_H
#define TTS_BENCH_CLOCK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
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

/* The "model name" of /proc/cpuinfo, or "unknown". */
static inline void cpu_model(char *buf, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    snprintf(buf, len, "unknown");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                snprintf(buf, len, "%s", c + 2);
                buf[strcspn(buf, "\n")] = '\0';
            }
            break;
        }
    if (f)
        fclose(f);
}

#endif
