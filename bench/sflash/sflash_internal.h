/* SPDX-License-Identifier: MIT */
/* SFLASH internals, exposed for tests/test_sflash.c. */
#ifndef SFLASH_INTERNAL_H
#define SFLASH_INTERNAL_H

#include "sflash.h"

typedef uint8_t sflash_elt;                  /* element of K, 0..127 */
typedef struct { sflash_elt c[SFLASH_N]; } sflash_l; /* element of L */

sflash_elt sflash_kmul(sflash_elt a, sflash_elt b);     /* branch-free */
sflash_elt sflash_kmul_pub(sflash_elt a, sflash_elt b); /* tables: public data */
void sflash_lmul(sflash_l *r, const sflash_l *a, const sflash_l *b);
void sflash_frob(sflash_l *r, const sflash_l *a, unsigned e); /* a^(128^e) */
void sflash_F(sflash_l *r, const sflash_l *a);       /* a^(128^11 + 1) */
void sflash_Finv(sflash_l *r, const sflash_l *a);    /* its inverse map */
/* The base-128 digits of (128^11 + 1)^-1 mod (128^37 - 1), least first. */
extern const uint8_t sflash_hinv_digits[SFLASH_N];
/* V (182 bits, then 2 zero bits): SHA-1(M) || the first 22 bits of
 * SHA-1(SHA-1(M)), by OpenSSL. -1 if OpenSSL fails. */
int sflash_hash_v(uint8_t vbits[23], const uint8_t *msg, size_t len);
/* SHA-1 of the first nbits bits of msg (FIPS 180-4, bit-oriented). */
void sflash_sha1_bits(uint8_t out[20], const uint8_t *msg, size_t nbits);
/* The secret map y = t(F(s(x))) on all 37 coordinates, from the
 * generating seed (for the test of the public key). */
int sflash_secret_map(sflash_elt y[SFLASH_N], const sflash_elt x[SFLASH_N],
                      const uint8_t seed[SFLASH_SEED_BYTES]);
/* The secret affine maps of a seed's key: s(x) = sm x + sc, t(y) = tm y
 * + tc (for the test of the break, which checks what it recovers). */
void sflash_secret_affine(sflash_elt sm[SFLASH_N][SFLASH_N], sflash_elt sc[SFLASH_N],
                          sflash_elt tm[SFLASH_N][SFLASH_N], sflash_elt tc[SFLASH_N],
                          const uint8_t seed[SFLASH_SEED_BYTES]);
/* 7-bit packing, most significant bit first. */
void sflash_pack(uint8_t *out, const sflash_elt *v, size_t count);
void sflash_unpack(sflash_elt *v, const uint8_t *in, size_t count);

#endif
