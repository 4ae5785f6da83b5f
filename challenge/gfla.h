/* SPDX-License-Identifier: MIT */
/*
 * Dense linear algebra over GF(256) on public data, for the break and its
 * equivalent keys: table arithmetic, row reduction with the library's
 * kernels (row operations by the backend's madd), kernels and spans.
 * Not constant time: nothing here ever sees a secret.
 */
#ifndef TTS_CHALLENGE_GFLA_H
#define TTS_CHALLENGE_GFLA_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

extern uint8_t gfla_mul[256][256];
extern uint8_t gfla_inv[256];
/* Fill the tables (thread-safe, once). */
void gfla_init(void);

static inline uint8_t gmul(uint8_t a, uint8_t b) { return gfla_mul[a][b]; }

/* Row reduction's pivot search, the same in every field: the first row
 * p >= r with M[p][c] != 0 swapped into row r (columns c.. only: the
 * earlier ones are zero in both). 0 if there is none. */
int gfla_pivot(uint8_t *M, size_t rows, size_t cols, size_t r, size_t c);

/* Reduced row echelon form of M (rows x cols, row-major, in place): the
 * rank; piv[r] (if piv) the pivot column of row r. */
size_t gfla_rref(const tts_kernels *k, uint8_t *M, size_t rows, size_t cols,
                 size_t *piv);

/* The right kernel of M (rows x cols, destroyed): its dimension; up to max
 * basis vectors (cols bytes each) into basis. */
size_t gfla_kernel(const tts_kernels *k, uint8_t *M, size_t rows, size_t cols,
                   uint8_t *basis, size_t max);

/* The right kernel read off a reduced row echelon form M (r nonzero rows,
 * pivot columns piv): one basis vector per free column. In characteristic
 * 2 the reading is the same in every field (-x = x), so gf128la.c shares
 * it. Its dimension, or (size_t)-1 if no memory. */
size_t gfla_kernel_read(const uint8_t *M, size_t r, size_t cols, const size_t *piv,
                        uint8_t *basis, size_t max);

/* Rank of M (rows x cols, kept). 0 and *ok = 0 if no memory. */
size_t gfla_rank(const tts_kernels *k, const uint8_t *M, size_t rows, size_t cols,
                 int *ok);

/* y = M x, M rows x cols row-major. */
void gfla_matvec(uint8_t *y, const uint8_t *M, const uint8_t *x, size_t rows,
                 size_t cols);

/* An echelon basis grown vector by vector: vectors of len <= 64 bytes. */
#define GFLA_SPAN_MAX 64
typedef struct {
    unsigned dim, len;
    unsigned piv[GFLA_SPAN_MAX];
    uint8_t row[GFLA_SPAN_MAX][GFLA_SPAN_MAX]; /* echelon, pivots 1 */
    uint8_t orig[GFLA_SPAN_MAX][GFLA_SPAN_MAX]; /* the vectors as added */
} gfla_span;

void gfla_span_init(gfla_span *s, unsigned len);
/* Add x if it is outside the span: 1 if added, 0 if not (or full). */
int gfla_span_add(gfla_span *s, const uint8_t *x);
/* 1 if x lies in the span. */
int gfla_span_has(const gfla_span *s, const uint8_t *x);

#endif
