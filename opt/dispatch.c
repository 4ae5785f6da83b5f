/* SPDX-License-Identifier: MIT */
/* The one list of backends, best first: the selection in ref/backend.c
 * walks it, and tts_backend_count / tts_backend_at show it to tests, tools
 * and fuzzers. A new ISA adds its probe here (opt/cpu.c: CPUID, once) and
 * nowhere else. ref/dispatch_ref.c is the list of a ref-only build. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include "cpu.h"
#include "internal.h"

static const tts_kernels *probe_ref(void) { return &tts_kernels_ref; }

const tts_backend_entry tts_backend_table[] = {
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

const size_t tts_backend_table_len =
    sizeof tts_backend_table / sizeof tts_backend_table[0];
