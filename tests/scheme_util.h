/* SPDX-License-Identifier: MIT */
/*
 * What the scheme's test programs share (tests/test_scheme.c, the scheme;
 * tests/test_api.c, the API's bad inputs and hostile buffers): the sets by
 * index, the oracle's shape of a set, key pairs from derived seeds, and a
 * controllable randomness source.
 */
#ifndef TTS_SCHEME_UTIL_H
#define TTS_SCHEME_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "oracle.h"

#define MAXPK TTS_MAX_PK_BYTES
#define MAXSK TTS_MAX_SK_BYTES

/* Set i (0..7) of the table; fails the test if there is none. */
const tts_params *set(int i);
/* The oracle's own shape for the library's set (v, a, b from the oracle's
 * copy of SPEC section 3; test_params checks the library's agree). */
or_shape shape(const tts_params *p);
/* A key pair from a seed derived from (set, k). */
void make_key(const tts_params *p, uint8_t *pk, uint8_t *sk, unsigned k);

/* A randomness source: the oracle's PRNG, with a failing call, patched
 * bytes and a log of what it gave. */
typedef struct {
    or_prng prng;
    unsigned calls;       /* number of calls so far */
    unsigned bad_len;     /* calls whose len was not `expect` */
    size_t expect;        /* expected len (0: do not check) */
    unsigned fail_at;     /* fail on this call (1-based); 0 never */
    unsigned fixed_calls; /* the first fixed_calls calls are patched */
    uint8_t fixed_mask[64], fixed[64]; /* bytes with mask 1 take fixed[] */
    uint8_t log[8][64];   /* output of the first 8 calls */
    uint8_t last[64];     /* output of the last call */
    size_t last_len;
} trng;

void trng_init(trng *r, uint64_t seed, size_t expect);
/* The tts_rng of a trng (ctx); -1 on the call fail_at. */
int trng_fn(void *ctx, uint8_t *out, size_t len);
/* A tts_rng that always fails, counting its calls in *(unsigned *)ctx. */
int rng_fail(void *ctx, uint8_t *out, size_t len);

/* The NIST API of each set, in the table's order. */
typedef int (*kp_fn)(unsigned char *, unsigned char *);
typedef int (*sign_fn)(unsigned char *, unsigned long long *, const unsigned char *,
                       unsigned long long, const unsigned char *);
typedef int (*open_fn)(unsigned char *, unsigned long long *, const unsigned char *,
                       unsigned long long, const unsigned char *);
typedef struct {
    kp_fn keypair;
    sign_fn sign;
    open_fn open;
    unsigned bytes;
} nist_api;
extern const nist_api nist[8];

#endif
