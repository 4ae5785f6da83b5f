/* SPDX-License-Identifier: MIT */
/*
 * The NIST (SUPERCOP-style) API of libtts: crypto_sign_keypair,
 * crypto_sign (sm = message || signature) and crypto_sign_open, here in
 * the generic form that takes the set as its first argument; every set has
 * namespaced instances as well (tts_20_28_crypto_sign_keypair, ...).
 * nist_api [SET]: a round trip, and a signed message with one bit flipped
 * refused. Exit 0 when both hold.
 *
 * Build: cc nist_api.c $(pkg-config --cflags --libs tts) -o nist_api
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tts.h>

/* Overwrite a secret before it is freed (a volatile store the compiler
 * keeps). */
static void wipe(void *b, size_t n)
{
    volatile unsigned char *v = b;
    while (n--)
        *v++ = 0;
}

int main(int argc, char **argv)
{
    const tts_params *p = tts_params_get(argc > 1 ? argv[1] : "TTS(20,28)");
    if (!p) {
        fprintf(stderr, "nist_api: unknown parameter set\n");
        return 2;
    }
    static const unsigned char msg[] = "the NIST signature API";
    const size_t mlen = sizeof msg - 1, smax = mlen + tts_sig_bytes(p);
    unsigned char *pk = malloc(tts_pk_bytes(p)), *sk = malloc(tts_sk_bytes(p));
    unsigned char *sm = malloc(smax), *m2 = malloc(smax);
    unsigned long long smlen = 0, m2len = 0;
    int rc = 1;
    if (pk && sk && sm && m2 && tts_crypto_sign_keypair(p, pk, sk, NULL, NULL) == 0 &&
        tts_crypto_sign(p, sm, &smlen, msg, mlen, sk, NULL, NULL) == 0 && smlen == smax &&
        tts_crypto_sign_open(p, m2, &m2len, sm, smlen, pk) == 0 && m2len == mlen &&
        memcmp(m2, msg, mlen) == 0) {
        sm[smlen - 1] ^= 1; /* one bit of the signature */
        if (tts_crypto_sign_open(p, m2, &m2len, sm, smlen, pk) == -1) {
            printf("%s: crypto_sign round trip of %llu bytes, a flipped bit refused\n",
                   tts_params_name(p), smlen);
            rc = 0;
        }
    }
    if (rc)
        fprintf(stderr, "nist_api: %s: the round trip failed\n", tts_params_name(p));
    if (sk)
        wipe(sk, tts_sk_bytes(p));
    free(sk);
    free(pk);
    free(sm);
    free(m2);
    return rc;
}
