/* SPDX-License-Identifier: MIT */
/*
 * A minimal crypto_sign harness, as SUPERCOP drives a package: keypair,
 * sign, open, and a signed message with one bit flipped refused. Built
 * either with a package's files (crypto_sign.h maps the API to the
 * package's namespace) or, with -DLIBRARY, against libtts's generic NIST API
 * for set SET; both print pk, sk and sm in hex, which the test compares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randombytes.h"
#ifdef LIBRARY
#include <tts.h>
static int rb(void *ctx, uint8_t *out, size_t len)
{
    (void)ctx;
    randombytes(out, len);
    return 0;
}
#define P tts_params_get(SET)
#define PKB tts_pk_bytes(P)
#define SKB tts_sk_bytes(P)
#define SIGB tts_sig_bytes(P)
#define KEYPAIR(pk, sk) tts_crypto_sign_keypair(P, pk, sk, rb, NULL)
#define SIGN(sm, smlen, m, mlen, sk) tts_crypto_sign(P, sm, smlen, m, mlen, sk, rb, NULL)
#define OPEN(m, mlen, sm, smlen, pk) tts_crypto_sign_open(P, m, mlen, sm, smlen, pk)
#else
#include "crypto_sign.h"
#define PKB CRYPTO_PUBLICKEYBYTES
#define SKB CRYPTO_SECRETKEYBYTES
#define SIGB CRYPTO_BYTES
#define KEYPAIR crypto_sign_keypair
#define SIGN crypto_sign
#define OPEN crypto_sign_open
#endif

static void hex(const char *name, const unsigned char *b, unsigned long long n)
{
    printf("%s = ", name);
    for (unsigned long long i = 0; i < n; i++)
        printf("%02X", b[i]);
    printf("\n");
}

int main(void)
{
    static const unsigned char msg[] = "SUPERCOP's crypto_sign, one message";
    const unsigned long long mlen = sizeof msg - 1;
    unsigned char *pk = malloc(PKB), *sk = malloc(SKB), *sm = malloc(mlen + SIGB),
                  *m2 = malloc(mlen + SIGB);
    unsigned long long smlen, m2len;
    int rc = 1;
    if (!pk || !sk || !sm || !m2 || KEYPAIR(pk, sk) != 0 ||
        SIGN(sm, &smlen, msg, mlen, sk) != 0 || smlen != mlen + SIGB ||
        OPEN(m2, &m2len, sm, smlen, pk) != 0 || m2len != mlen || memcmp(m2, msg, mlen)) {
        fprintf(stderr, "harness: the round trip failed\n");
    } else {
        hex("pk", pk, PKB);
        hex("sk", sk, SKB);
        hex("sm", sm, smlen);
        sm[mlen] ^= 0x10; /* one bit of the signature */
        if (OPEN(m2, &m2len, sm, smlen, pk) != -1) {
            fprintf(stderr, "harness: a flipped bit was accepted\n");
        } else {
            printf("flipped = refused\n");
            rc = 0;
        }
    }
    free(pk);
    free(sk);
    free(sm);
    free(m2);
    return rc;
}
