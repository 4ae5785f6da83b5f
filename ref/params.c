/* SPDX-License-Identifier: MIT */
/* The parameter table: the one source of truth for the eight sets. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "central_tables.h"

#define SET(M, N, V, A, B)                                                    \
    { "TTS(" #M "," #N ")", "tts-" #M "-" #N, M, N, V, A, B,                  \
      (A + 2) * (V - 1) + B * (B + 1), tts_terms_##M##_##N, tts_layers_##M##_##N }

static const tts_params table[] = {
#define TTS_SET(M, N, V, A, B, BITS, PRIZE) SET(M, N, V, A, B),
#include "tts_sets.def"
};

#define NSETS (sizeof table / sizeof table[0])

size_t tts_params_count(void) { return NSETS; }

/* A handle is one of the table's entries, by address: anything else (a
 * copy, a zeroed block, a pointer into an entry) would give sizes the
 * caller's buffers do not have, or a verification comparing 0 bytes. */
int tts_params_ok(const tts_params *p)
{
    uintptr_t a = (uintptr_t)p, t = (uintptr_t)table;
    return a >= t && a - t < sizeof table && (a - t) % sizeof table[0] == 0;
}

const tts_params *tts_params_at(size_t i)
{
    return i < NSETS ? &table[i] : NULL;
}

/* Parse "M<sep>N" with optional "TTS" / "TTS(" prefix and ")" suffix. */
static int parse_mn(const char *s, unsigned *m, unsigned *n)
{
    char buf[32];
    size_t k = 0;
    for (; *s; s++) {
        if (isspace((unsigned char)*s))
            continue;
        if (k + 1 >= sizeof buf)
            return -1;
        buf[k++] = (char)tolower((unsigned char)*s);
    }
    buf[k] = '\0';
    const char *q = buf;
    int paren = 0;
    if (strncmp(q, "tts", 3) == 0) {
        q += 3;
        paren = *q == '(';
        if (*q == '(' || *q == '-' || *q == '_')
            q++;
    }
    unsigned val[2] = {0, 0};
    for (int f = 0; f < 2; f++) {
        int digits = 0;
        while (*q >= '0' && *q <= '9' && digits < 3) {
            val[f] = val[f] * 10 + (unsigned)(*q++ - '0');
            digits++;
        }
        if (!digits)
            return -1;
        if (f == 0) {
            if (*q != ',' && *q != '-' && *q != '_')
                return -1;
            q++;
        }
    }
    /* "TTS(m,n)" needs both parentheses; other forms take none. */
    if (paren && *q++ != ')')
        return -1;
    if (*q)
        return -1;
    *m = val[0];
    *n = val[1];
    return 0;
}

const tts_params *tts_params_get(const char *name)
{
    unsigned m, n;
    if (!name || parse_mn(name, &m, &n))
        return NULL;
    for (size_t i = 0; i < NSETS; i++)
        if (table[i].m == m && table[i].n == n)
            return &table[i];
    return NULL;
}

const char *tts_params_name(const tts_params *p) { return tts_params_ok(p) ? p->name : NULL; }
const char *tts_params_id(const tts_params *p) { return tts_params_ok(p) ? p->id : NULL; }
size_t tts_pk_bytes(const tts_params *p) { return tts_params_ok(p) ? pk_bytes(p) : 0; }
size_t tts_sk_bytes(const tts_params *p) { return tts_params_ok(p) ? sk_bytes(p) : 0; }
size_t tts_sig_bytes(const tts_params *p) { return tts_params_ok(p) ? p->n : 0; }
size_t tts_digest_bytes(const tts_params *p) { return tts_params_ok(p) ? p->m : 0; }
unsigned tts_params_m(const tts_params *p) { return tts_params_ok(p) ? p->m : 0; }
unsigned tts_params_n(const tts_params *p) { return tts_params_ok(p) ? p->n : 0; }
unsigned tts_params_v(const tts_params *p) { return tts_params_ok(p) ? p->v : 0; }
unsigned tts_params_a(const tts_params *p) { return tts_params_ok(p) ? p->a : 0; }
unsigned tts_params_b(const tts_params *p) { return tts_params_ok(p) ? p->b : 0; }
unsigned tts_params_coeffs(const tts_params *p) { return tts_params_ok(p) ? p->coeffs : 0; }

const char *tts_version(void) { return TTS_VERSION_STRING; }

const char *tts_broken_note(void) { return TTS_BROKEN_NOTE; }

const char *tts_strerror(int code)
{
    switch (code) {
    case TTS_OK:       return "success";
    case TTS_EINVAL:   return "invalid argument";
    case TTS_EBADSIG:  return "signature verification failed";
    case TTS_EKEY:     return "malformed key";
    case TTS_ERETRY:   return "no signature found within the attempt limit";
    case TTS_EBACKEND: return "backend unknown or not available on this CPU";
    case TTS_ERNG:     return "randomness source failed";
    case TTS_ENOMEM:   return "out of memory";
    case TTS_EFORMAT:  return "malformed key or signature file";
    default:           return "unknown error";
    }
}
