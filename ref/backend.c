/* Backend selection. Only "ref" exists in this build; opt/ adds entries to
 * the candidate list, each with a probe that returns NULL when the CPU lacks
 * the feature. */
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
    {"ref", probe_ref},
};

#define NCAND (sizeof candidates / sizeof candidates[0])

static const tts_kernels *current;

static const tts_kernels *find(const char *name)
{
    for (size_t i = 0; i < NCAND; i++)
        if (strcmp(candidates[i].name, name) == 0)
            return candidates[i].probe();
    return NULL;
}

const tts_kernels *tts_kernels_get(void)
{
    if (!current) {
        const char *env = getenv("TTS_BACKEND");
        const tts_kernels *k = env && *env ? find(env) : NULL;
        for (size_t i = 0; !k && i < NCAND; i++)
            k = candidates[i].probe();
        current = k;
    }
    return current;
}

const char *tts_backend(void) { return tts_kernels_get()->name; }

int tts_set_backend(const char *name)
{
    if (!name)
        return TTS_EINVAL;
    const tts_kernels *k = find(name);
    if (!k)
        return TTS_EBACKEND;
    current = k;
    return TTS_OK;
}
