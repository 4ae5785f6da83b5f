/* SPDX-License-Identifier: MIT */
/* The scheme tests' shared helpers: tests/scheme_util.h. */
#include <check.h>
#include <string.h>

#include "scheme_util.h"

const tts_params *set(int i)
{
    const tts_params *p = tts_params_at((size_t)i);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* The oracle's own shape for the library's set (v, a, b from the oracle's
 * copy of SPEC section 3; test_params checks the library's agree). */
or_shape shape(const tts_params *p)
{
    or_shape s;
    ck_assert(or_shape_of(&s, tts_params_m(p), tts_params_n(p)));
    return s;
}

/* A key pair from a seed derived from (set, k). */
void make_key(const tts_params *p, uint8_t *pk, uint8_t *sk, unsigned k)
{
    uint8_t seed[TTS_SEED_BYTES];
    for (unsigned i = 0; i < TTS_SEED_BYTES; i++)
        seed[i] = (uint8_t)(i * 7 + k * 131 + tts_params_n(p));
    ck_assert_int_eq(tts_keypair_from_seed(p, pk, sk, seed), TTS_OK);
}

/* ---- a controllable randomness source -------------------------------------- */

void trng_init(trng *r, uint64_t seed, size_t expect)
{
    memset(r, 0, sizeof *r);
    or_prng_seed(&r->prng, seed);
    r->expect = expect;
}

int trng_fn(void *ctx, uint8_t *out, size_t len)
{
    trng *r = ctx;
    r->calls++;
    if (r->expect && len != r->expect)
        r->bad_len++;
    if (r->fail_at && r->calls == r->fail_at)
        return -1;
    or_prng_bytes(&r->prng, out, len);
    if (r->calls <= r->fixed_calls)
        for (size_t i = 0; i < len && i < 64; i++)
            if (r->fixed_mask[i])
                out[i] = r->fixed[i];
    if (r->calls <= 8 && len <= 64)
        memcpy(r->log[r->calls - 1], out, len);
    if (len <= 64) {
        memcpy(r->last, out, len);
        r->last_len = len;
    }
    return 0;
}

int rng_fail(void *ctx, uint8_t *out, size_t len)
{
    (void)out;
    (void)len;
    if (ctx)
        (*(unsigned *)ctx)++;
    return -1;
}

#define NIST(M, N)                                                                       \
    {tts_##M##_##N##_crypto_sign_keypair, tts_##M##_##N##_crypto_sign,                   \
     tts_##M##_##N##_crypto_sign_open, TTS_##M##_##N##_CRYPTO_BYTES}
const nist_api nist[8] = {NIST(16, 22), NIST(20, 26), NIST(20, 28), NIST(24, 32),
                          NIST(24, 34), NIST(28, 38), NIST(32, 44), NIST(36, 50)};
