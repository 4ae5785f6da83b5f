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
    /* out (m bytes) = P(w) for the public key pk */
    void (*pk_eval)(uint8_t *out, const uint8_t *pk, const uint8_t *w,
                    unsigned m, unsigned n);
} tts_kernels;

extern const tts_kernels tts_kernels_ref;
const tts_kernels *tts_kernels_get(void);

/* Central map and its inversion (central.c). */
void tts_central_eval(const tts_params *p, uint8_t *y, const uint8_t *x,
                      const uint8_t *coef);
uint8_t tts_central_solve_layer(const tts_params *p, const tts_kernels *k,
                                unsigned layer, uint8_t *x,
                                const uint8_t *target, const uint8_t *coef);

/* Scheme helpers (keygen.c). */
int tts_invert(const tts_kernels *k, uint8_t *inv, const uint8_t *M, unsigned dim);
int tts_pk_synthesize(const tts_params *p, const tts_kernels *k, uint8_t *pk,
                      const uint8_t *A1, const uint8_t *A3, const uint8_t *c3,
                      const uint8_t *coef);

/* The system generator (libsodium randombytes_buf) as a tts_rng_fn. */
int tts_rng_system(void *ctx, uint8_t *out, size_t len);

/* Valgrind hooks for the constant-time test: no-ops unless built with
 * -DTTS_CTGRIND. declassify marks bytes as public (defined). */
#ifdef TTS_CTGRIND
#include <valgrind/memcheck.h>
#define TTS_DECLASSIFY(p, len) VALGRIND_MAKE_MEM_DEFINED((p), (len))
#else
#define TTS_DECLASSIFY(p, len) ((void)(p), (void)(len))
#endif

#endif
