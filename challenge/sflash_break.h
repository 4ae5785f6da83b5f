/* SPDX-License-Identifier: MIT */
/*
 * The key-only forger of SFLASH v2 (docs/SECURITY.md, section "SFLASH"):
 * Dubois, Fouque, Shamir and Stern, "Practical cryptanalysis of SFLASH"
 * (CRYPTO 2007). From the 26 public equations of a C*- key over
 * K = GF(128) in 37 variables, a key that signs any message:
 *
 *   1. a linear map N = S^-1 M_xi S (M_xi: multiplication by xi in
 *      L = GF(128^37)), found as a kernel: since the differential of
 *      F(X) = X^(128^11 + 1) satisfies DF(xi a, x) + DF(a, xi x) =
 *      (xi + xi^(128^11)) DF(a, x), every DP_i(N a, x) + DP_i(a, N x) of
 *      three public equations lies in the span of the public differentials;
 *   2. the 11 removed equations, from the quadratic parts of P o N;
 *   3. the translation c of P(x) = Q(x + c) + e, from the linear parts;
 *   4. Patarin's 37 bilinear relations X Y^(q^11) = X^(q^22) Y between
 *      input and output, from evaluations;
 *   5. signing: the missing outputs drawn at random, the relations give
 *      the input's line, scaled onto the target.
 *
 * Everything here works on public data (branches and tables on it).
 * The public map is given by its coefficients in the key's order
 * (docs/SFLASH.md): per equation the constant, then for i = 0..36 the
 * coefficient of x_i followed by those of x_i x_j, j = i..36.
 */
#ifndef TTS_CHALLENGE_SFLASH_BREAK_H
#define TTS_CHALLENGE_SFLASH_BREAK_H

#include <stddef.h>
#include <stdint.h>

#include "break.h"

#define CHAL_SFLASH_NAME        "SFLASH(26,37)"
#define CHAL_SFLASH_N           37    /* variables; degree of L over K */
#define CHAL_SFLASH_M           26    /* public equations of SFLASH v2 */
#define CHAL_SFLASH_THETA       11    /* F(X) = X^(128^11 + 1) */
#define CHAL_SFLASH_MONOMIALS   741   /* 1 + 37 + 37*38/2 */
#define CHAL_SFLASH_QUAD        703   /* 37*38/2 */
#define CHAL_SFLASH_PK_BYTES    16858 /* 26 * 741 elements, 7 bits each */
#define CHAL_SFLASH_SIG_BYTES   33    /* 37 elements, then 5 zero bits */
#define CHAL_SFLASH_DIGEST_BYTES 23   /* V: 26 elements, then 2 zero bits */
#define CHAL_SFLASH_PROBES      3     /* public equations of step 1 */
#define CHAL_SFLASH_SAMPLES     1401  /* evaluations of step 4: 37^2 + 32 */
#define CHAL_SFLASH_RS          48    /* 37 elements padded to 16 bytes */

/* A C*- public map: m equations (1..37) of the 741 coefficients. */
typedef struct {
    unsigned m;
    uint8_t coef[CHAL_SFLASH_N][CHAL_SFLASH_MONOMIALS];
} chal_cstar_map;

/* The SFLASH public key's m = 26 equations from its packed bytes (7 bits
 * an element, most significant first; the 2 pad bits zero). */
int chal_sflash_pk_decode(chal_cstar_map *P, const uint8_t *pk, size_t len, char *err,
                          size_t errlen);

/* y = P(x): m outputs (elements 0..127), by the coefficients alone. */
void chal_cstar_eval(const chal_cstar_map *P, const uint8_t x[CHAL_SFLASH_N], uint8_t *y);

/* 7-bit packing, most significant bit first, pad bits zero. */
void chal_sflash_pack(uint8_t *out, const uint8_t *v, size_t count);
/* The inverse; -1 if a pad bit of the (7 count + 7) / 8 bytes is set. */
int chal_sflash_unpack(uint8_t *v, const uint8_t *in, size_t count);

/* What the attack recovers: enough to sign for P. */
typedef struct {
    chal_cstar_map pub;
    /* step 1: a non-scalar N of the kernel, row-major */
    uint8_t mul[CHAL_SFLASH_N * CHAL_SFLASH_N];
    /* step 2: the 37 homogeneous quadratic forms Q_j (coefficient of
     * x_i x_k, i <= k, in the key's order): the public ones, then 37 - m
     * recovered */
    uint8_t quad[CHAL_SFLASH_N][CHAL_SFLASH_QUAD];
    /* step 3: P(x) = Q(x + c) + e on the public outputs (e: m used) */
    uint8_t c[CHAL_SFLASH_N], e[CHAL_SFLASH_N];
    /* step 4: relation j is sum_{k,l} rel[j][37 k + l] x'_k y_l = 0 for
     * y = Q(x') */
    uint8_t rel[CHAL_SFLASH_N][CHAL_SFLASH_N * CHAL_SFLASH_N];
    /* derived from rel by chal_sflash_key_prepare (not in the key file):
     * relt[l][RS j + a] = rel[j][37 a + l], so that the relations at y
     * are the 37 x 37 matrix sum_l y_l relt[l] (rows padded to RS bytes) */
    _Alignas(16) uint8_t relt[CHAL_SFLASH_N][CHAL_SFLASH_N * CHAL_SFLASH_RS];
} chal_sflash_key;

typedef struct {
    const uint8_t *seed;        /* 32 bytes: a reproducible run; NULL: random */
    chal_progress_fn progress;  /* per step: 0 at its start, 1 at its end */
    void *progress_ctx;
    /* tests: the first batches of step 1's equations (0: 1,369 + 32) and
     * of step 4's samples (0: CHAL_SFLASH_SAMPLES); the steps add more
     * when a batch leaves the kernel too large */
    unsigned first_equations, first_samples;
} chal_sflash_opts;

#define CHAL_SFLASH_STEPS 5
extern const char *const chal_sflash_step_names[CHAL_SFLASH_STEPS];

typedef struct {
    unsigned m;                       /* public equations */
    size_t unknowns, equations;       /* step 1's system */
    unsigned rank1, kernel_dim;       /* its rank and kernel (37 - 3 r) */
    unsigned n_tries;                 /* kernel elements tried as N */
    unsigned span_dim;                /* step 2: the quadratic span (37) */
    unsigned trans_rank;              /* step 3: rank of the linear system */
    unsigned samples, rel_rank, rel_dim; /* step 4 */
    unsigned sign_checks;             /* test forgeries that verified */
    double seconds[CHAL_SFLASH_STEPS];
    double total_seconds;
    uint8_t seed[32];
} chal_sflash_report;

/* The attack on P: the steps of chal_sflash_step_names in turn. CHAL_OK;
 * CHAL_NO_STRUCTURE with err ("no C*- structure: ...") when P has none
 * the attack can use (a random quadratic map, too many equations
 * removed); CHAL_ERROR on bad input, or with err "no memory (step S,
 * NAME)". rep (if not NULL) is filled in every case. */
int chal_sflash_break(const chal_cstar_map *P, const chal_sflash_opts *opt,
                      chal_sflash_key *key, chal_sflash_report *rep, char *err,
                      size_t errlen);

/* Fill k->relt from k->rel (after chal_sflash_break does; decode does). */
void chal_sflash_key_prepare(chal_sflash_key *k);

/* A signature x (37 elements) with P(x) = v (m elements), by the recovered
 * key, checked against the public map before it is returned; rng draws
 * the missing outputs (NULL: the system generator). CHAL_OK, or
 * CHAL_ERROR with err (no solution in 64 draws: not a key of a C* map). */
int chal_sflash_forge(const chal_sflash_key *k, uint8_t x[CHAL_SFLASH_N], const uint8_t *v,
                      tts_rng_fn rng, void *ctx, char *err, size_t errlen);

/* SFLASH bytes: a signature (33 bytes) of the digest V (23 bytes, as
 * SFLASH hashes a message: SHA-1(M) || the first 22 bits of
 * SHA-1(SHA-1(M))), checked against the public map before it is returned. */
int chal_sflash_forge_sig(const chal_sflash_key *k, uint8_t sig[CHAL_SFLASH_SIG_BYTES],
                          const uint8_t digest[CHAL_SFLASH_DIGEST_BYTES], tts_rng_fn rng,
                          void *ctx, char *err, size_t errlen);

/* The key file (docs/SFLASH.md, "The forger's key file"): "TTSCSK01", m,
 * the public map, the quadratic forms, c, e, the relations, SHA-256. */
size_t chal_sflash_key_bytes(unsigned m);
void chal_sflash_key_encode(uint8_t *out, const chal_sflash_key *k);
/* Decode and check (size, checksum, elements, a test forgery that
 * satisfies the public map): CHAL_OK or CHAL_ERROR. */
int chal_sflash_key_decode(chal_sflash_key *k, const uint8_t *in, size_t len, char *err,
                           size_t errlen);

#endif
