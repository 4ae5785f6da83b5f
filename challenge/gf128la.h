/* SPDX-License-Identifier: MIT */
/*
 * Dense linear algebra over GF(128) = GF(2)[x]/(x^7 + x + 1) on public
 * data, for the SFLASH break (challenge/sflash_break.h): the API of
 * gfla.h, the field SFLASH's. Elements are bytes 0..127 (bit i the
 * coefficient of x^i). Not constant time: nothing here sees a secret.
 */
#ifndef TTS_CHALLENGE_GF128LA_H
#define TTS_CHALLENGE_GF128LA_H

#include <stddef.h>
#include <stdint.h>

extern uint8_t gf128la_mul[128][128];
extern uint8_t gf128la_inv[128];
/* Fill the tables (thread-safe, once). */
void gf128la_init(void);

static inline uint8_t g128mul(uint8_t a, uint8_t b) { return gf128la_mul[a][b]; }

/* a^(1/2) = a^64: squaring is a bijection of GF(2^7). */
uint8_t gf128la_sqrt(uint8_t a);

/* Reduced row echelon form of M (rows x cols, row-major, in place): the
 * rank; piv[r] (if piv) the pivot column of row r. */
size_t gf128la_rref(uint8_t *M, size_t rows, size_t cols, size_t *piv);

/* The right kernel of M (rows x cols, destroyed): its dimension; up to max
 * basis vectors (cols bytes each) into basis. (size_t)-1 if no memory. */
size_t gf128la_kernel(uint8_t *M, size_t rows, size_t cols, uint8_t *basis, size_t max);

/* Rank of M (rows x cols, kept). 0 and *ok = 0 if no memory. */
size_t gf128la_rank(const uint8_t *M, size_t rows, size_t cols, int *ok);

/* y = M x, M rows x cols row-major. */
void gf128la_matvec(uint8_t *y, const uint8_t *M, const uint8_t *x, size_t rows,
                    size_t cols);

#endif
