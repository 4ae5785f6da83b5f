/* SPDX-License-Identifier: MIT */
/* libtts internals shared by ref/ and opt/: parameter records, key offsets,
 * the kernel interface and the scheme entry points. Not installed. */
#ifndef TTS_INTERNAL_H
#define TTS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tts.h"

/* One central term p * x[u] * x[w] added to output y[row]. */
typedef struct {
    uint8_t row, u, w;
} tts_term;

#define TTS_MAX_COEFFS 532 /* C of TTS(36,50) */

/* Layers solved in order: layer 1, mu1, mu2, layer 3. Layer L holds the
 * terms layer[L] .. layer[L+1]-1 and the variables var_lo[L] .. var_lo[L+1]-1
 * (var_lo[4] = n); its rows are the same indices. */
#define TTS_LAYERS 4

struct tts_params {
    const char *name;   /* "TTS(20,28)" */
    const char *id;     /* "tts-20-28" */
    uint8_t m, n, v, a, b;
    uint16_t coeffs;    /* C */
    const tts_term *terms;
    const uint16_t *layer; /* TTS_LAYERS + 1 term offsets */
};

/* Secret-key offsets (docs/SPEC.md section 5). */
static inline size_t sk_off_S1(const tts_params *p) { (void)p; return 0; }
static inline size_t sk_off_s1(const tts_params *p) { return (size_t)p->m * p->m; }
static inline size_t sk_off_S3(const tts_params *p) { return sk_off_s1(p) + p->m; }
static inline size_t sk_off_s3(const tts_params *p) { return sk_off_S3(p) + (size_t)p->n * p->n; }
static inline size_t sk_off_coef(const tts_params *p) { return sk_off_s3(p) + p->n; }
static inline size_t sk_bytes(const tts_params *p) { return sk_off_coef(p) + p->coeffs; }

/* Public key: one m-byte block per monomial; quadratic w_i w_j (i <= j)
 * first, ordered by i then j, then linear w_0 .. w_{n-1}. */
static inline size_t pk_quad_monomials(const tts_params *p) { return (size_t)p->n * (p->n + 1) / 2; }
static inline size_t pk_monomials(const tts_params *p) { return pk_quad_monomials(p) + p->n; }
static inline size_t pk_bytes(const tts_params *p) { return pk_monomials(p) * p->m; }
static inline size_t pk_mono_index(unsigned n, unsigned i, unsigned j)
{
    return (size_t)i * n - (size_t)i * (i - 1) / 2 + (j - i); /* i <= j */
}

/* First variable of each layer; var_lo[TTS_LAYERS] = n. */
static inline void layer_vars(const tts_params *p, unsigned var_lo[TTS_LAYERS + 1])
{
    var_lo[0] = p->v;
    var_lo[1] = p->v + p->a;
    var_lo[2] = p->v + p->a + 1;
    var_lo[3] = p->v + p->a + 2;
    var_lo[4] = p->n;
}

/*
 * Kernels: the only code a backend replaces. All run in time independent of
 * the byte values they process (pk_eval excepted: it sees public data).
 */
typedef struct tts_kernels {
    const char *name;
    /* acc[i] ^= s * x[i], i < len */
    void (*madd)(uint8_t *acc, const uint8_t *x, uint8_t s, size_t len);
    /* y = M x for M rows x cols, row-major */
    void (*matvec)(uint8_t *y, const uint8_t *M, const uint8_t *x,
                   unsigned rows, unsigned cols);
    /* Gauss-Jordan on a rows x cols row-major matrix (cols >= rows): on
     * success the left rows x rows block becomes the identity. Returns 1 if
     * that block was invertible, 0 if not; never branches on the data. */
    uint8_t (*gauss)(uint8_t *M, unsigned rows, unsigned cols);
    /* out (m bytes) = P(w) for the public key pk. Vector backends may
     * assume the shapes of the parameter sets: 16 <= m <= 36, m % 4 == 0. */
    void (*pk_eval)(uint8_t *out, const uint8_t *pk, const uint8_t *w,
                    unsigned m, unsigned n);
    /* C = A B: A rows x inner, B inner x cols, C rows x cols, all
     * row-major; C must not overlap A or B. */
    void (*matmul)(uint8_t *C, const uint8_t *A, const uint8_t *B,
                   unsigned rows, unsigned inner, unsigned cols);
    /* out[i] = a[i] * b[i], i < len (out may alias a or b) */
    void (*vmul)(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t len);
    /* dst (cols x rows) = src^T (src rows x cols); no overlap */
    void (*transpose)(uint8_t *dst, const uint8_t *src, unsigned rows, unsigned cols);
    /* Build and solve one layer of the central map (tts_central_solve_layer
     * semantics); tts_solve_layer_generic does it with madd and gauss. */
    uint8_t (*solve_layer)(const tts_params *p, const struct tts_kernels *k,
                           unsigned layer, uint8_t *x, const uint8_t *target,
                           const uint8_t *coef);
    /* inv = M^-1 for M dim x dim row-major (dim <= TTS_MAX_N; inv must not
     * overlap M); returns 1 if M was invertible, else 0 (inv is then
     * unspecified). Never branches on the data. tts_invert_generic does it
     * with gauss on [M | I]. */
    uint8_t (*invert)(const struct tts_kernels *k, uint8_t *inv, const uint8_t *M,
                      unsigned dim);
    /* Block sums for the structured linear systems of challenge/ (public
     * data only, like pk_eval): for r < rows and j < 64,
     *   y[64 r + j] = XOR_{t < per} XOR_{i < cols}
     *                 x[xo[r per + t] + i] * M[mo[r per + t] + 64 i + j].
     * M holds columns of 64 bytes; y must not overlap M or x. */
    void (*blocksum)(uint8_t *y, const uint8_t *M, const uint32_t *mo,
                     const uint8_t *x, const uint32_t *xo, size_t rows,
                     unsigned per, unsigned cols);
} tts_kernels;

/* blocksum from a backend's madd: the shared fallback. */
#define TTS_BLOCKSUM_FROM_MADD(fn, madd)                                       \
    static void fn(uint8_t *y, const uint8_t *M, const uint32_t *mo,            \
                   const uint8_t *x, const uint32_t *xo, size_t rows,           \
                   unsigned per, unsigned cols)                                 \
    {                                                                           \
        for (size_t r = 0; r < rows; r++) {                                     \
            uint8_t *yr = y + 64 * r;                                           \
            for (unsigned j = 0; j < 64; j++)                                   \
                yr[j] = 0;                                                      \
            for (unsigned t = 0; t < per; t++) {                                \
                const uint8_t *Mt = M + mo[r * per + t];                        \
                const uint8_t *xt = x + xo[r * per + t];                        \
                for (unsigned i = 0; i < cols; i++)                             \
                    madd(yr, Mt + 64 * (size_t)i, xt[i], 64);                   \
            }                                                                   \
        }                                                                       \
    }

extern const tts_kernels tts_kernels_ref;
uint8_t tts_invert_generic(const tts_kernels *k, uint8_t *inv, const uint8_t *M,
                           unsigned dim);

void tts_transpose_ref(uint8_t *dst, const uint8_t *src, unsigned rows, unsigned cols);
const tts_kernels *tts_kernels_get(void);

/* The backends compiled in, best first (opt/dispatch.c; ref/dispatch_ref.c
 * in a ref-only build): each probe returns NULL when the CPU (or the build)
 * lacks the feature. */
typedef struct {
    const char *name;
    const tts_kernels *(*probe)(void);
} tts_backend_entry;
extern const tts_backend_entry tts_backend_table[];
extern const size_t tts_backend_table_len;
/* The backend of that name if built and supported here, else NULL. */
const tts_kernels *tts_kernels_find(const char *name);

/* Central map and its inversion (central.c). */
void tts_central_eval(const tts_params *p, const tts_kernels *k, uint8_t *y,
                      const uint8_t *x, const uint8_t *coef);
uint8_t tts_central_solve_layer(const tts_params *p, const tts_kernels *k,
                                unsigned layer, uint8_t *x,
                                const uint8_t *target, const uint8_t *coef);
uint8_t tts_solve_layer_generic(const tts_params *p, const tts_kernels *k,
                                unsigned layer, uint8_t *x,
                                const uint8_t *target, const uint8_t *coef);

/* Scheme helpers (keygen.c). */
int tts_invert(const tts_kernels *k, uint8_t *inv, const uint8_t *M, unsigned dim);

/* The system generator (libsodium randombytes_buf) as a tts_rng_fn. */
int tts_rng_system(void *ctx, uint8_t *out, size_t len);

/* 1 if p is an entry of the parameter table (ref/params.c), else 0: every
 * exported function taking a handle checks it first. */
int tts_params_ok(const tts_params *p);

/* Valgrind hooks for the constant-time test: no-ops unless built with
 * -DTTS_CTGRIND. declassify marks bytes as public (defined). */
#ifdef TTS_CTGRIND
#include <valgrind/memcheck.h>
#define TTS_DECLASSIFY(p, len) VALGRIND_MAKE_MEM_DEFINED((p), (len))
#else
#define TTS_DECLASSIFY(p, len) ((void)(p), (void)(len))
#endif

#endif
