/* SPDX-License-Identifier: MIT */
/* Dense GF(256) linear algebra on public data (gfla.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gf256.h"
#include "gfla.h"

uint8_t gfla_mul[256][256];
uint8_t gfla_inv[256];

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void fill(void)
{
    for (unsigned x = 0; x < 256; x++) {
        for (unsigned y = 0; y < 256; y++)
            gfla_mul[x][y] = gf256_mul((uint8_t)x, (uint8_t)y);
        gfla_inv[x] = gf256_inv((uint8_t)x);
    }
}

void gfla_init(void)
{
    pthread_once(&once, fill);
}

int gfla_pivot(uint8_t *M, size_t rows, size_t cols, size_t r, size_t c)
{
    size_t p = r;
    while (p < rows && !M[p * cols + c])
        p++;
    if (p == rows)
        return 0;
    if (p != r) {
        uint8_t *R = M + r * cols, *P = M + p * cols;
        for (size_t j = c; j < cols; j++) {
            uint8_t t = P[j];
            P[j] = R[j];
            R[j] = t;
        }
    }
    return 1;
}

size_t gfla_rref(const tts_kernels *k, uint8_t *M, size_t rows, size_t cols,
                 size_t *piv)
{
    size_t r = 0;
    for (size_t c = 0; c < cols && r < rows; c++) {
        if (!gfla_pivot(M, rows, cols, r, c))
            continue;
        uint8_t *R = M + r * cols;
        const uint8_t *iv = gfla_mul[gfla_inv[R[c]]];
        for (size_t j = c; j < cols; j++)
            R[j] = iv[R[j]];
        for (size_t i = 0; i < rows; i++) {
            uint8_t *X = M + i * cols, f = X[c];
            if (i != r && f)
                k->madd(X + c, R + c, f, cols - c);
        }
        if (piv)
            piv[r] = c;
        r++;
    }
    return r;
}

size_t gfla_kernel_read(const uint8_t *M, size_t r, size_t cols, const size_t *piv,
                       uint8_t *basis, size_t max)
{
    uint8_t *isp = calloc(cols + 1, 1);
    if (!isp)
        return (size_t)-1;
    size_t dim = 0;
    for (size_t i = 0; i < r; i++)
        isp[piv[i]] = 1;
    for (size_t f = 0; f < cols; f++) {
        if (isp[f])
            continue;
        if (dim < max) {
            uint8_t *b = basis + dim * cols;
            memset(b, 0, cols);
            b[f] = 1;
            for (size_t i = 0; i < r; i++)
                b[piv[i]] = M[i * cols + f]; /* -x = x */
        }
        dim++;
    }
    free(isp);
    return dim;
}

size_t gfla_kernel(const tts_kernels *k, uint8_t *M, size_t rows, size_t cols,
                   uint8_t *basis, size_t max)
{
    size_t *piv = malloc((cols + 1) * sizeof *piv);
    if (!piv)
        return 0;
    size_t r = gfla_rref(k, M, rows, cols, piv);
    size_t dim = gfla_kernel_read(M, r, cols, piv, basis, max);
    free(piv);
    return dim == (size_t)-1 ? 0 : dim;
}

size_t gfla_rank(const tts_kernels *k, const uint8_t *M, size_t rows, size_t cols,
                 int *ok)
{
    uint8_t *T = malloc(rows * cols + 1);
    if (!T) {
        *ok = 0;
        return 0;
    }
    memcpy(T, M, rows * cols);
    size_t r = gfla_rref(k, T, rows, cols, NULL);
    free(T);
    return r;
}

void gfla_matvec(uint8_t *y, const uint8_t *M, const uint8_t *x, size_t rows,
                 size_t cols)
{
    for (size_t i = 0; i < rows; i++) {
        uint8_t s = 0;
        for (size_t j = 0; j < cols; j++)
            s ^= gfla_mul[M[i * cols + j]][x[j]];
        y[i] = s;
    }
}

void gfla_span_init(gfla_span *s, unsigned len)
{
    memset(s, 0, sizeof *s);
    s->len = len;
}

static void reduce(const gfla_span *s, uint8_t *t)
{
    for (unsigned r = 0; r < s->dim; r++) {
        uint8_t f = t[s->piv[r]];
        if (f)
            for (unsigned j = 0; j < s->len; j++)
                t[j] ^= gfla_mul[f][s->row[r][j]];
    }
}

int gfla_span_add(gfla_span *s, const uint8_t *x)
{
    uint8_t t[GFLA_SPAN_MAX];
    if (s->dim >= GFLA_SPAN_MAX)
        return 0;
    memcpy(t, x, s->len);
    reduce(s, t);
    unsigned p = 0;
    while (p < s->len && !t[p])
        p++;
    if (p == s->len)
        return 0;
    const uint8_t *iv = gfla_mul[gfla_inv[t[p]]];
    for (unsigned j = 0; j < s->len; j++)
        s->row[s->dim][j] = iv[t[j]];
    memcpy(s->orig[s->dim], x, s->len);
    s->piv[s->dim++] = p;
    return 1;
}

int gfla_span_has(const gfla_span *s, const uint8_t *x)
{
    uint8_t t[GFLA_SPAN_MAX];
    memcpy(t, x, s->len);
    reduce(s, t);
    for (unsigned j = 0; j < s->len; j++)
        if (t[j])
            return 0;
    return 1;
}
