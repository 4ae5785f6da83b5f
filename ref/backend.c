/* SPDX-License-Identifier: MIT */
/* Backend selection over the one list of backends (tts_backend_table:
 * opt/dispatch.c, or ref/dispatch_ref.c in a ref-only build), tried best
 * first; each probe returns NULL when the build or the CPU lacks the
 * feature (opt/cpu.c checks CPUID and XGETBV, once). The choice is one atomic pointer: the first
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

static _Atomic(const tts_kernels *) current;

const tts_kernels *tts_kernels_find(const char *name)
{
    for (size_t i = 0; name && i < tts_backend_table_len; i++)
        if (strcmp(tts_backend_table[i].name, name) == 0)
            return tts_backend_table[i].probe();
    return NULL;
}

const tts_kernels *tts_kernels_get(void)
{
    const tts_kernels *k = atomic_load_explicit(&current, memory_order_acquire);
    if (k)
        return k;
    const char *env = getenv("TTS_BACKEND");
    k = env && *env ? tts_kernels_find(env) : NULL;
    for (size_t i = 0; !k && i < tts_backend_table_len; i++)
        k = tts_backend_table[i].probe();
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

size_t tts_backend_count(void) { return tts_backend_table_len; }

const char *tts_backend_at(size_t i)
{
    return i < tts_backend_table_len ? tts_backend_table[i].name : NULL;
}
