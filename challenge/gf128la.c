/* SPDX-License-Identifier: MIT */
/*
 * Dense GF(128) linear algebra on public data (gf128la.h).
 *
 * Row reduction is the break's whole cost (systems of about 1,400 x 1,369),
 * so a pivot row is not multiplied entry by entry through the table:
 * multiplication by f is GF(2)-linear, f R = (f mod x^4) R + (f div x^4)
 * x^4 R, and the 16 + 8 multiples of R by the polynomials of degree < 4
 * (and by x^4 times those of degree < 3) are made once per pivot. A row
 * with coefficient f then takes two of them in one pass of 16-byte XORs
 * (GCC's vector extension: SSE2 on x86-64, NEON on AArch64; 8-byte words
 * elsewhere). A multiple by x is a shift of every byte with the reduction
 * x^7 = x + 1, eight or sixteen elements at a time.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gf128la.h"

#if defined(__GNUC__)
typedef uint64_t vec __attribute__((vector_size(16), may_alias));
#else
typedef uint64_t vec;
#endif
#define VB sizeof(vec) /* bytes of a vec; divides 16 */

uint8_t gf128la_mul[128][128];
uint8_t gf128la_inv[128];

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* x times a, modulo x^7 + x + 1 */
static uint8_t xtime(uint8_t a)
{
    return (uint8_t)(((a << 1) & 0x7F) ^ ((a >> 6) ? 0x03 : 0));
}

/* x times every byte of a (elements below 128): bit 6 of each byte comes
 * back as x + 1 */
static inline vec vxtime(vec a)
{
    vec h = (a >> 6) & 0x0101010101010101ULL;
    return ((a << 1) & 0x7E7E7E7E7E7E7E7EULL) ^ h ^ (h << 1);
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

/* tab[f] = f R for f < 16 and tab[16 + f] = f x^4 R for f < 8, each nv
 * vecs: every entry is the sum of a smaller one and one power-of-x
 * multiple. */
static void multiples(vec *tab, const vec *R, size_t nv)
{
    static const unsigned at[7] = {1, 2, 4, 8, 17, 18, 20}; /* x^i R */
    const vec zero = {0};
    for (size_t j = 0; j < nv; j++) {
        tab[j] = tab[16 * nv + j] = zero;
        tab[nv + j] = R[j];
    }
    for (unsigned i = 1; i < 7; i++) {
        vec *d = tab + at[i] * nv;
        const vec *s = tab + at[i - 1] * nv;
        for (size_t j = 0; j < nv; j++)
            d[j] = vxtime(s[j]);
    }
    for (unsigned f = 3; f < 24; f++) {
        unsigned g = f < 16 ? f : f - 16, t = g & (g - 1); /* g without its lowest bit */
        if (!t)
            continue;
        unsigned base = f < 16 ? 0 : 16;
        vec *d = tab + f * nv;
        const vec *a = tab + (base + t) * nv, *b = tab + (base + (g ^ t)) * nv;
        for (size_t j = 0; j < nv; j++)
            d[j] = a[j] ^ b[j];
    }
}

/* X ^= f R, from R's multiples (two vecs a turn: the loop is the break's
 * inner loop) */
static inline void madd(vec *X, const vec *tab, uint8_t f, size_t nv)
{
    const vec *a = tab + (f & 15) * nv, *b = tab + (16 + (f >> 4)) * nv;
    size_t j = 0;
    for (; j + 2 <= nv; j += 2) {
        X[j] ^= a[j] ^ b[j];
        X[j + 1] ^= a[j + 1] ^ b[j + 1];
    }
    if (j < nv)
        X[j] ^= a[j] ^ b[j];
}

size_t gf128la_echelon(uint8_t **row, size_t rows, size_t cols, size_t *piv, uint8_t *work)
{
    const size_t stride = gf128la_stride(cols);
    vec *tab = (vec *)(void *)work;
    size_t r = 0;
    for (size_t c = 0; c < cols && r < rows; c++) {
        size_t p = r;
        while (p < rows && !row[p][c])
            p++;
        if (p == rows)
            continue;
        uint8_t *R = row[p];
        row[p] = row[r];
        row[r] = R;
        /* rows from r on are zero before column c: start at the vec */
        const size_t c0 = c & ~(size_t)(VB - 1), nv = (stride - c0) / VB;
        vec *Rv = (vec *)(void *)(R + c0);
        const uint8_t iv = gf128la_inv[R[c]];
        int built = 0;
        if (iv != 1) { /* the table holds R as it was; rows use f / R[c] */
            multiples(tab, Rv, nv);
            built = 1;
            memset(Rv, 0, nv * VB);
            madd(Rv, tab, iv, nv);
        }
        const uint8_t *ivrow = gf128la_mul[iv];
        for (size_t i = r + 1; i < rows; i++) {
            uint8_t f = row[i][c];
            if (!f)
                continue;
            if (!built) {
                multiples(tab, Rv, nv);
                built = 1;
            }
            madd((vec *)(void *)(row[i] + c0), tab, ivrow[f], nv);
        }
        piv[r++] = c;
    }
    return r;
}

size_t gf128la_echelon_kernel(uint8_t *const *row, size_t rank, size_t cols, const size_t *piv,
                              uint8_t *basis, size_t max, void *work)
{
    const size_t d = cols - rank, dv = (d + VB - 1) / VB;
    if (d == 0)
        return 0;
    size_t *fc = work; /* the free columns */
    vec *F = (vec *)(void *)((uint8_t *)work + gf128la_stride(cols * sizeof(size_t)));
    /* dv vecs of VB bytes hold d elements: within GF128LA_KERNEL_WORK */
    vec *tab = F + rank * dv;
    for (size_t j = 0, r = 0, nf = 0; j < cols; j++) {
        if (r < rank && piv[r] == j)
            r++;
        else
            fc[nf++] = j;
    }
    /* F[r]: row r at the free columns; then, from the last pivot up, F[r]
     * becomes x_piv[r] for each free column set to 1: row r says
     * x_piv[r] = sum over later columns j of row[r][j] x_j (-x = x) */
    for (size_t r = 0; r < rank; r++) {
        uint8_t *Fr = (uint8_t *)(F + r * dv);
        memset(Fr, 0, dv * VB);
        for (size_t s = 0; s < d; s++)
            Fr[s] = row[r][fc[s]];
    }
    for (size_t q = rank; q-- > 0;) {
        const size_t pc = piv[q];
        int built = 0;
        for (size_t i = 0; i < q; i++) {
            uint8_t f = row[i][pc];
            if (!f)
                continue;
            if (!built) {
                multiples(tab, F + q * dv, dv);
                built = 1;
            }
            madd(F + i * dv, tab, f, dv);
        }
    }
    for (size_t s = 0; s < d && s < max; s++) {
        uint8_t *b = basis + s * cols;
        memset(b, 0, cols);
        b[fc[s]] = 1;
        for (size_t r = 0; r < rank; r++)
            b[piv[r]] = ((const uint8_t *)(F + r * dv))[s];
    }
    return d;
}

size_t gf128la_rank(const uint8_t *M, size_t rows, size_t cols, int *ok)
{
    const size_t stride = gf128la_stride(cols);
    uint8_t *buf = aligned_alloc(16, rows * stride + GF128LA_ECHELON_WORK(cols));
    uint8_t **row = malloc((rows + 1) * sizeof *row);
    size_t *piv = malloc((rows + 1) * sizeof *piv);
    size_t r = 0;
    if (!buf || !row || !piv) {
        *ok = 0;
    } else {
        for (size_t i = 0; i < rows; i++) {
            row[i] = buf + i * stride;
            memcpy(row[i], M + i * cols, cols);
            memset(row[i] + cols, 0, stride - cols);
        }
        r = gf128la_echelon(row, rows, cols, piv, buf + rows * stride);
    }
    free(buf);
    free(row);
    free(piv);
    return r;
}

void gf128la_lincomb(uint8_t *out, const uint8_t *const *v, const uint8_t *coef, size_t count,
                     size_t bytes)
{
    vec *o = (vec *)(void *)out;
    const size_t nv = bytes / VB;
    memset(out, 0, bytes);
    for (unsigned b = 7; b-- > 0;) { /* Horner's rule in x on the bits */
        if (b < 6)
            for (size_t j = 0; j < nv; j++)
                o[j] = vxtime(o[j]);
        for (size_t l = 0; l < count; l++)
            if ((coef[l] >> b) & 1) {
                const vec *s = (const vec *)(const void *)v[l];
                for (size_t j = 0; j < nv; j++)
                    o[j] ^= s[j];
            }
    }
}

/* the XOR of a vec's bytes */
static uint8_t fold(vec a)
{
    uint64_t u;
#if defined(__GNUC__)
    u = a[0] ^ a[1];
#else
    u = a;
#endif
    u ^= u >> 32;
    u ^= u >> 16;
    u ^= u >> 8;
    return (uint8_t)u;
}

void gf128la_matvec(uint8_t *y, const uint8_t *M, size_t rows, size_t cols, size_t stride,
                    const uint8_t *v)
{
    enum { CHUNK = 256 }; /* columns a pass: the masks on the stack */
    _Alignas(16) uint8_t mask[7][CHUNK];
    memset(y, 0, rows);
    for (size_t c0 = 0; c0 < cols; c0 += CHUNK) {
        const size_t len = cols - c0 < CHUNK ? cols - c0 : CHUNK, nv = (len + VB - 1) / VB;
        /* mask[b][t] = 0xFF where bit b of v[c0 + t] is set: eight at a
         * time, (w >> b) & 0x01.. times 0xFF carries into no other byte */
        memset(mask, 0, sizeof mask);
        for (size_t t = 0; t < len; t += 8) {
            uint64_t w = 0;
            if (len - t >= 8)
                memcpy(&w, v + c0 + t, 8);
            else
                memcpy(&w, v + c0 + t, len - t);
            for (unsigned b = 0; b < 7; b++) {
                uint64_t m = ((w >> b) & 0x0101010101010101ULL) * 0xFF;
                memcpy(mask[b] + t, &m, 8);
            }
        }
        const vec *mk[7];
        for (unsigned b = 0; b < 7; b++)
            mk[b] = (const vec *)(const void *)mask[b];
        for (size_t i = 0; i < rows; i++) {
            const uint8_t *row = M + i * stride + c0;
            /* seven accumulators by name: they stay in registers */
            vec a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, a4 = {0}, a5 = {0}, a6 = {0};
            for (size_t j = 0; j < nv; j++) {
                vec c = {0};
                if (j * VB + VB <= len)
                    memcpy(&c, row + j * VB, VB);
                else
                    memcpy(&c, row + j * VB, len - j * VB);
                a0 ^= c & mk[0][j];
                a1 ^= c & mk[1][j];
                a2 ^= c & mk[2][j];
                a3 ^= c & mk[3][j];
                a4 ^= c & mk[4][j];
                a5 ^= c & mk[5][j];
                a6 ^= c & mk[6][j];
            }
            const vec acc[7] = {a0, a1, a2, a3, a4, a5, a6};
            uint8_t h = 0; /* sum over b of x^b (the XOR of the bit-b selection) */
            for (unsigned b = 7; b-- > 0;)
                h = (uint8_t)(xtime(h) ^ fold(acc[b]));
            y[i] ^= h;
        }
    }
}
