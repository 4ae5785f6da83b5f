/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer harnesses (fuzz/README.md). */
#ifndef TTS_FUZZ_H
#define TTS_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tts.h"

/* A broken invariant: report and abort, so libFuzzer keeps the input. */
#define FUZZ_CHECK(cond)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond,     \
                    __FILE__, __LINE__);                                      \
            abort();                                                          \
        }                                                                     \
    } while (0)

/* The parameter set named by one input byte. */
static inline const tts_params *fuzz_params(uint8_t b)
{
    return tts_params_at(b % tts_params_count());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
