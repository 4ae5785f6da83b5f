/* SPDX-License-Identifier: MIT */
/*
 * Dense linear algebra over GF(128) = GF(2)[x]/(x^7 + x + 1) on public
 * data, for the SFLASH break (challenge/sflash_break.h). Elements are
 * bytes 0..127 (bit i the coefficient of x^i). Not constant time: nothing
 * here sees a secret.
 *
 * Rows are given by pointers, each 16-byte aligned and zero-padded to
 * gf128la_stride(cols) bytes: forward elimination to an echelon form, the
 * kernel read from it by back-substitution (the break's systems and the
 * forger's 37 x 37 one), and linear combinations of such rows.
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

/* Rank of M (rows x cols, row-major, kept). 0 and *ok = 0 if no memory. */
size_t gf128la_rank(const uint8_t *M, size_t rows, size_t cols, int *ok);

/* y = M v: M rows x cols, row i at M + i * stride (any alignment), by
 * the bits of v: masks of v's bits, then seven masked XOR passes over
 * each row, no products. */
void gf128la_matvec(uint8_t *y, const uint8_t *M, size_t rows, size_t cols, size_t stride,
                    const uint8_t *v);

/* ---- rows by pointer ---- */

/* Bytes of a row of cols elements: a multiple of 16. Bytes past cols are
 * zero and stay zero. */
static inline size_t gf128la_stride(size_t cols) { return (cols + 15) & ~(size_t)15; }

/* Workspace of gf128la_echelon: the 24 multiples of a pivot row. */
#define GF128LA_ECHELON_WORK(cols) (24 * (((size_t)(cols) + 15) & ~(size_t)15))

/* Row echelon form by forward elimination: the rank r. The pointers row[]
 * are permuted (rows are swapped, not copied); afterwards row[i], i < r,
 * has its leading 1 in column piv[i] (increasing) and the rows from r on
 * are zero. Only rows below a pivot are reduced. Rows already in echelon
 * form with leading 1s cost little more than their pivot search, so rows
 * can be appended to an echelon form and the elimination run again. work:
 * GF128LA_ECHELON_WORK(cols) bytes, 16-byte aligned. */
size_t gf128la_echelon(uint8_t **row, size_t rows, size_t cols, size_t *piv, uint8_t *work);

/* Workspace of gf128la_echelon_kernel: the free columns, then the
 * solution at every pivot and the multiples of one, 16 bytes a 16
 * elements. */
#define GF128LA_KERNEL_WORK(rank, cols)                                     \
    (((((size_t)(cols) * sizeof(size_t)) + 15) & ~(size_t)15) +             \
     ((size_t)(rank) + 24) * (((size_t)(cols) - (size_t)(rank) + 15) / 16) * 16)

/* The right kernel of an echelon form (rank rows, pivots piv, as
 * gf128la_echelon leaves them), by back-substitution: its dimension
 * cols - rank; the first max basis vectors (cols bytes each) into basis,
 * one per free column f, 1 at f and 0 at the other free columns (the
 * vectors gfla_kernel_read gives from the reduced form). work:
 * GF128LA_KERNEL_WORK(rank, cols) bytes, 16-byte aligned. */
size_t gf128la_echelon_kernel(uint8_t *const *row, size_t rank, size_t cols, const size_t *piv,
                              uint8_t *basis, size_t max, void *work);

/* out = sum over l < count of coef[l] v[l]: bytes (a multiple of 16) of
 * 16-byte aligned vectors, by Horner's rule on the coefficients' bits
 * (seven passes of XORs and multiplications by x, no products). */
void gf128la_lincomb(uint8_t *out, const uint8_t *const *v, const uint8_t *coef, size_t count,
                     size_t bytes);

#endif
