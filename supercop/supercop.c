/* SPDX-License-Identifier: MIT */
/* SUPERCOP's crypto_sign API over libtts's NIST API, for the set api.h
 * names (CRYPTO_ALGNAME, "TTS(m,n)"); randomness from SUPERCOP's
 * randombytes. The sizes api.h gives SUPERCOP are checked against the
 * library's own at every call: a mismatch fails (-1), never overruns. */
#include "api.h"
#include "crypto_sign.h"
#include "randombytes.h"
#include "tts.h"

static int rb(void *ctx, uint8_t *out, size_t len)
{
    (void)ctx;
    randombytes(out, (unsigned long long)len);
    return 0;
}

static const tts_params *set(void)
{
    const tts_params *p = tts_params_get(CRYPTO_ALGNAME);
    if (tts_pk_bytes(p) != CRYPTO_PUBLICKEYBYTES || tts_sk_bytes(p) != CRYPTO_SECRETKEYBYTES ||
        tts_sig_bytes(p) != CRYPTO_BYTES)
        return NULL;
    return p;
}

int crypto_sign_keypair(unsigned char *pk, unsigned char *sk)
{
    const tts_params *p = set();
    return p ? tts_crypto_sign_keypair(p, pk, sk, rb, NULL) : -1;
}

int crypto_sign(unsigned char *sm, unsigned long long *smlen, const unsigned char *m,
                unsigned long long mlen, const unsigned char *sk)
{
    const tts_params *p = set();
    return p ? tts_crypto_sign(p, sm, smlen, m, mlen, sk, rb, NULL) : -1;
}

int crypto_sign_open(unsigned char *m, unsigned long long *mlen, const unsigned char *sm,
                     unsigned long long smlen, const unsigned char *pk)
{
    const tts_params *p = set();
    return p ? tts_crypto_sign_open(p, m, mlen, sm, smlen, pk) : -1;
}
