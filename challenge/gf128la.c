/* SPDX-License-Identifier: MIT */
/*
 * Dense GF(128) linear algebra on public data (gf128la.h).
 *
 * Row reduction is the break's whole cost (systems of about 2,000 x 1,450),
 * so a pivot row is not multiplied entry by entry through the table:
 * multiplication by f is GF(2)-linear, f R = (f mod x^4) R + (f div x^4)
 * x^4 R, and the 16 + 8 multiples of R by the polynomials of degree < 4
 * (and by x^4 times those of degree < 3) are made once per pivot. A row
 * with coefficient f then takes two of them in one word-wise XOR pass.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gf128la.h"
#include "gfla.h"

uint8_t gf128la_mul[128][128];
uint8_t gf128la_inv[128];

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* x times a, modulo x^7 + x + 1 */
static uint8_t xtime(uint8_t a)
{
    return (uint8_t)(((a << 1) & 0x7F) ^ ((a >> 6) ? 0x03 : 0));
}

static void fill(void)
{
    for (unsigned a = 0; a < 128; a++) {
        uint8_t p = (uint8_t)a;
        for (unsigned b = 0; b < 128; b++)
            gf128la_mul[a][b] = 0;
        for (unsigned i = 0; i < 7; i++, p = xtime(p)) /* p = a x^i */
            for (unsigned b = 0; b < 128; b++)
                if ((b >> i) & 1)
                    gf128la_mul[a][b] ^= p;
    }
    gf128la_inv[0] = 0;
    for (unsigned a = 1; a < 128; a++)
        for (unsigned b = 1; b < 128; b++)
            if (gf128la_mul[a][b] == 1)
                gf128la_inv[a] = (uint8_t)b;
}

void gf128la_init(void)
{
    pthread_once(&once, fill);
}

uint8_t gf128la_sqrt(uint8_t a)
{
    for (unsigned i = 0; i < 6; i++) /* a^(2^6) */
        a = gf128la_mul[a][a];
    return a;
}

/* d ^= a ^ b over len bytes, eight at a time */
static void xor2(uint8_t *d, const uint8_t *a, const uint8_t *b, size_t len)
{
    size_t j = 0;
    for (; j + 8 <= len; j += 8) {
        uint64_t x, y, z;
        memcpy(&x, d + j, 8);
        memcpy(&y, a + j, 8);
        memcpy(&z, b + j, 8);
        x ^= y ^ z;
        memcpy(d + j, &x, 8);
    }
    for (; j < len; j++)
        d[j] ^= a[j] ^ b[j];
}

/* lo[f] = f R for f < 16, hi[f] = f x^4 R for f < 8 (len bytes each);
 * every entry is the sum of a smaller one and one power-of-x multiple. */
static void multiples(uint8_t *lo, uint8_t *hi, const uint8_t *R, size_t len)
{
    memset(lo, 0, len);
    memset(hi, 0, len);
    memcpy(lo + len, R, len); /* lo[1] = R; then x^i R into lo[2^i], hi[2^(i-4)] */
    for (unsigned i = 1; i < 7; i++) {
        uint8_t *dst = i < 4 ? lo + ((size_t)1 << i) * len : hi + ((size_t)1 << (i - 4)) * len;
        const uint8_t *src = i == 4 ? lo + 8 * len : i < 4 ? lo + ((size_t)1 << (i - 1)) * len
                                                         : hi + ((size_t)1 << (i - 5)) * len;
        for (size_t j = 0; j < len; j++)
            dst[j] = xtime(src[j]);
    }
    for (unsigned f = 3; f < 16; f++)
        if (f & (f - 1)) {
            unsigned t = f & (f - 1); /* f without its lowest bit */
            uint8_t *d = lo + f * len;
            const uint8_t *a = lo + t * len, *b = lo + (f ^ t) * len;
            for (size_t j = 0; j < len; j++)
                d[j] = a[j] ^ b[j];
        }
    for (unsigned f = 3; f < 8; f++)
        if (f & (f - 1)) {
            unsigned t = f & (f - 1);
            uint8_t *d = hi + f * len;
            const uint8_t *a = hi + t * len, *b = hi + (f ^ t) * len;
            for (size_t j = 0; j < len; j++)
                d[j] = a[j] ^ b[j];
        }
}

size_t gf128la_rref(uint8_t *M, size_t rows, size_t cols, size_t *piv)
{
    /* the multiples of the pivot row; without memory for them (the rank
     * has no error value) rows are reduced through the product table */
    uint8_t *tab = malloc(24 * cols + 1);
    size_t r = 0;
    for (size_t c = 0; c < cols && r < rows; c++) {
        if (!gfla_pivot(M, rows, cols, r, c))
            continue;
        uint8_t *R = M + r * cols;
        const uint8_t *iv = gf128la_mul[gf128la_inv[R[c]]];
        for (size_t j = c; j < cols; j++)
            R[j] = iv[R[j]];
        size_t len = cols - c;
        if (tab)
            multiples(tab, tab + 16 * len, R + c, len);
        for (size_t i = 0; i < rows; i++) {
            uint8_t *X = M + i * cols + c, f = X[0];
            if (i == r || !f)
                continue;
            if (tab) {
                xor2(X, tab + (f & 15) * len, tab + 16 * len + (size_t)(f >> 4) * len, len);
            } else {
                const uint8_t *fm = gf128la_mul[f];
                for (size_t j = 0; j < len; j++)
                    X[j] ^= fm[R[c + j]];
            }
        }
        if (piv)
            piv[r] = c;
        r++;
    }
    free(tab);
    return r;
}

size_t gf128la_kernel(uint8_t *M, size_t rows, size_t cols, uint8_t *basis, size_t max)
{
    size_t *piv = malloc((cols + 1) * sizeof *piv);
    if (!piv)
        return (size_t)-1;
    size_t r = gf128la_rref(M, rows, cols, piv);
    size_t dim = gfla_kernel_read(M, r, cols, piv, basis, max);
    free(piv);
    return dim;
}

size_t gf128la_rank(const uint8_t *M, size_t rows, size_t cols, int *ok)
{
    uint8_t *T = malloc(rows * cols + 1);
    if (!T) {
        *ok = 0;
        return 0;
    }
    memcpy(T, M, rows * cols);
    size_t r = gf128la_rref(T, rows, cols, NULL);
    free(T);
    return r;
}

void gf128la_matvec(uint8_t *y, const uint8_t *M, const uint8_t *x, size_t rows,
                    size_t cols)
{
    for (size_t i = 0; i < rows; i++) {
        uint8_t s = 0;
        for (size_t j = 0; j < cols; j++)
            s ^= gf128la_mul[M[i * cols + j]][x[j]];
        y[i] = s;
    }
}
