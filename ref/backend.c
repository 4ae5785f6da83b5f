/* Backend selection. The candidates are tried best first; each probe
 * returns NULL when the build or the CPU lacks the feature (opt/cpu.c
 * checks CPUID and XGETBV). The choice is one atomic pointer: the first
 * caller picks (TTS_BACKEND, else the best available), a racing caller may
 * pick the same value again, and tts_set_backend replaces it. Every backend
 * produces the same bytes, so a thread that still sees the old choice gets
 * the same results. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef const tts_kernels *(*tts_probe_fn)(void);

static const tts_kernels *probe_ref(void) { return &tts_kernels_ref; }

/* Best first. */
static const struct {
    const char *name;
    tts_probe_fn probe;
} candidates[] = {
#ifdef TTS_HAVE_GFNI
    {"gfni", tts_probe_gfni},
#endif
#ifdef TTS_HAVE_AVX2
    {"avx2", tts_probe_avx2},
#endif
#ifdef TTS_HAVE_NEON
    {"neon", tts_probe_neon},
#endif
    {"swar", tts_probe_swar},
    {"ref", probe_ref},
};

#define NCAND (sizeof candidates / sizeof candidates[0])

const char *const tts_backend_names[] = {
#ifdef TTS_HAVE_GFNI
    "gfni",
#endif
#ifdef TTS_HAVE_AVX2
    "avx2",
#endif
#ifdef TTS_HAVE_NEON
    "neon",
#endif
    "swar", "ref", NULL,
};

static _Atomic(const tts_kernels *) current;

const tts_kernels *tts_kernels_find(const char *name)
{
    for (size_t i = 0; name && i < NCAND; i++)
        if (strcmp(candidates[i].name, name) == 0)
            return candidates[i].probe();
    return NULL;
}

const tts_kernels *tts_kernels_get(void)
{
    const tts_kernels *k = atomic_load_explicit(&current, memory_order_acquire);
    if (k)
        return k;
    const char *env = getenv("TTS_BACKEND");
    k = env && *env ? tts_kernels_find(env) : NULL;
    for (size_t i = 0; !k && i < NCAND; i++)
        k = candidates[i].probe();
    const tts_kernels *expected = NULL;
    if (!atomic_compare_exchange_strong_explicit(&current, &expected, k,
                                                 memory_order_acq_rel,
                                                 memory_order_acquire))
        k = expected; /* another thread chose first */
    return k;
}

const char *tts_backend(void) { return tts_kernels_get()->name; }

int tts_set_backend(const char *name)
{
    if (!name)
        return TTS_EINVAL;
    const tts_kernels *k = tts_kernels_find(name);
    if (!k)
        return TTS_EBACKEND;
    atomic_store_explicit(&current, k, memory_order_release);
    return TTS_OK;
}
