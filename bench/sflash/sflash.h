/* SPDX-License-Identifier: MIT */
/*
 * SFLASH v2 (Courtois, Goubin, Patarin; NESSIE), the C*-- signature the
 * 2004 TTS comparison put beside TTS(20,28). Here only to complete that
 * historical comparison (docs/SFLASH.md): SFLASH v2 was broken in 2007
 * (Dubois, Fouque, Shamir, Stern, CRYPTO 2007). Not part of the libtts API.
 *
 * K = GF(2^7), n = 37 variables, 26 public equations (r = 11 removed),
 * F(A) = A^(128^11 + 1) over L = K[X]/(X^37 + X^12 + X^10 + X^2 + 1).
 * Functions return 0 on success, -1 on failure (a bad signature or key).
 */
#ifndef SFLASH_H
#define SFLASH_H

#include <stddef.h>
#include <stdint.h>

#define SFLASH_N          37   /* variables, elements of K in a signature */
#define SFLASH_M          26   /* public equations */
#define SFLASH_R          11   /* equations removed */
#define SFLASH_MONOMIALS  741  /* 37*38/2 quadratic + 37 linear + 1 */
#define SFLASH_SIG_BITS   259
#define SFLASH_SIG_BYTES  33   /* 259 bits, then 5 zero bits */
#define SFLASH_PK_BYTES   16858 /* 26 * 741 elements of 7 bits, packed */
#define SFLASH_SK_BYTES   2471 /* s^-1, t^-1 (37x37 + 37 each) packed, Delta */
#define SFLASH_SEED_BYTES 32

/* Key pair from a seed (ChaCha20 stream, docs/SFLASH.md section 4). */
int sflash_keypair(uint8_t pk[SFLASH_PK_BYTES], uint8_t sk[SFLASH_SK_BYTES],
                   const uint8_t seed[SFLASH_SEED_BYTES]);
int sflash_sign(uint8_t sig[SFLASH_SIG_BYTES], const uint8_t *msg, size_t len,
                const uint8_t sk[SFLASH_SK_BYTES]);
int sflash_verify(const uint8_t sig[SFLASH_SIG_BYTES], const uint8_t *msg,
                  size_t len, const uint8_t pk[SFLASH_PK_BYTES]);

#endif
