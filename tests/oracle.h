/* SPDX-License-Identifier: MIT */
/*
 * Test oracle: an independent, deliberately naive implementation of TTS
 * written from docs/SPEC.md (sections 2-7), sharing no code with ref/ and
 * not reading ref/central_tables.h. It is slow, branchy and not constant
 * time; it exists only to produce expected values for the tests.
 *
 * Also: a small deterministic PRNG for test data (not cryptographic).
 */
#ifndef TTS_TEST_ORACLE_H
#define TTS_TEST_ORACLE_H

#include <stddef.h>
#include <stdint.h>

/* ---- GF(2^8) = GF(2)[t]/(t^8+t^4+t^3+t+1) (SPEC 2.1) ------------------- */

/* Carry-less product of the two bit polynomials, then reduction of bits
 * 14..8 by shifted copies of 0x11B. */
uint8_t or_mul_naive(uint8_t a, uint8_t b);
/* or_mul_naive through a 64 KiB table filled from it on first use. */
uint8_t or_mul(uint8_t a, uint8_t b);
/* a^e by repeated multiplication (e small) */
uint8_t or_pow(uint8_t a, unsigned e);
/* Inverse by exhaustive search for b with a*b = 1; 0 maps to 0. */
uint8_t or_inv(uint8_t a);

/* ---- matrices (row-major, SPEC 2.2) ------------------------------------ */

/* C (r x c) = A (r x k) * B (k x c) */
void or_matmul(uint8_t *C, const uint8_t *A, const uint8_t *B,
               unsigned r, unsigned k, unsigned c);
/* y (rows) = M (rows x cols) x */
void or_matvec(uint8_t *y, const uint8_t *M, const uint8_t *x,
               unsigned rows, unsigned cols);
/* Textbook Gauss-Jordan with row swaps: inv = M^-1. Returns 1 if M is
 * invertible, 0 otherwise (inv then undefined). inv may not alias M. */
int or_invert(uint8_t *inv, const uint8_t *M, unsigned dim);
/* Rank of a rows x cols matrix. */
unsigned or_rank(const uint8_t *M, unsigned rows, unsigned cols);
/* Solve M z = t (dim x dim). Returns 1 if M is invertible. */
int or_solve(uint8_t *z, const uint8_t *M, const uint8_t *t, unsigned dim);

/* ---- parameter sets (SPEC 2.3, 3) -------------------------------------- */

typedef struct {
    unsigned m, n, v, a, b;
} or_shape;

/* The literal (v, a, b) of SPEC section 3 for the set (m, n); 0 if none. */
int or_shape_of(or_shape *s, unsigned m, unsigned n);
/* The shapes in the order of SPEC section 3 (i < 8). */
int or_shape_at(or_shape *s, unsigned i);
#define OR_NSETS 8

size_t or_coeffs(const or_shape *s);   /* C */
size_t or_sk_bytes(const or_shape *s); /* m(m+1) + n(n+1) + C */
size_t or_pk_bytes(const or_shape *s); /* m n (n+3) / 2 */

/* Secret-key field offsets (SPEC 5.2). */
size_t or_off_S1(const or_shape *s);
size_t or_off_s1(const or_shape *s);
size_t or_off_S3(const or_shape *s);
size_t or_off_s3(const or_shape *s);
size_t or_off_coef(const or_shape *s);

/* ---- central map (SPEC 4) ---------------------------------------------- */

/* y[k] = y_{v+k}, k < m, straight from the formulas of 4.1-4.3 with the
 * coefficients read from the layout of 5.2 (coef = the C central bytes). */
void or_central(const or_shape *s, uint8_t *y, const uint8_t *x,
                const uint8_t *coef);

/* The central map as a list of products p * x_u * x_w added to y_row, in
 * the order the formulas of SPEC 4.1-4.3 list them, with for each the
 * position of its coefficient in the central-coefficient block (SPEC 5.2). */
typedef struct {
    unsigned row, u, w;
    unsigned coef; /* index into the C central coefficients */
    unsigned layer; /* 0 layer 1, 1 mu1, 2 mu2, 3 layer 3 */
} or_term;
/* Fills terms (capacity cap) and start[5] = first term of layer 1, mu1,
 * mu2, layer 3, end. Returns the number of terms, or 0 on overflow. */
unsigned or_terms(const or_shape *s, or_term *terms, unsigned cap,
                  unsigned start[5]);

/* ---- keys, public map, signing (SPEC 5-7) ------------------------------- */

typedef struct {
    or_shape s;
    int ok;                    /* S1 and S3 invertible */
    uint8_t S1[36 * 36], s1[36], A1[36 * 36];
    uint8_t S3[50 * 50], s3[50], A3[50 * 50], c3[50];
    uint8_t coef[600];
} or_key;

/* Parse a secret key: A1 = S1^-1, A3 = S3^-1, c3 = A3 s3. Returns k->ok. */
int or_expand(or_key *k, const or_shape *s, const uint8_t *sk);
/* Well formed (SPEC 5.3): S1, S3 invertible and s1 = F(A3 s3). */
int or_sk_valid(const or_shape *s, const uint8_t *sk);
/* Overwrite s1 of sk with F(A3 s3). Returns 0 if S3 is singular. */
int or_fix_s1(const or_shape *s, uint8_t *sk);
/* P(w) = A1 (F(A3 w + c3) + s1), with s1 as stored in the key. */
void or_public(const or_key *k, uint8_t *out, const uint8_t *w);
/* The public key of SPEC 5.4 by interpolation of or_public:
 * P(t e_i) = q_ii t^2 + l_i t at t = 1, 2 and
 * q_ij = P(e_i + e_j) + P(e_i) + P(e_j). */
void or_pk_interpolate(const or_key *k, uint8_t *pk);
/* Evaluate a public key from its layout (SPEC 5.4). */
void or_pk_eval(const or_shape *s, uint8_t *out, const uint8_t *w,
                const uint8_t *pk);
/* Value at w of the monomial of public-key block `block` (SPEC 5.4). */
uint8_t or_monomial(const or_shape *s, size_t block, const uint8_t *w);

/* Key generation of SPEC 6 (ChaCha20 keystream from libsodium's one-shot
 * crypto_stream_chacha20_ietf). Writes sk and, by interpolation, pk. */
void or_keygen(const or_shape *s, uint8_t *pk, uint8_t *sk,
               const uint8_t seed[32]);

/* Digest: first m bytes of SHA-512 (libsodium). */
void or_digest(const or_shape *s, uint8_t *d, const uint8_t *msg, size_t len);

/* Solve layer L (0 layer 1, 1 mu1, 2 mu2, 3 layer 3) of F(x) = target
 * (target[k] is the target of y_{v+k}) for the layer's variables, given
 * x below the layer; variables from the layer on are overwritten. The
 * system is obtained by probing or_central (the layer's rows are affine in
 * its variables, SPEC 4.6). Returns 1 if it was invertible. */
int or_solve_layer(const or_shape *s, const uint8_t *coef, uint8_t *x,
                   const uint8_t *target, unsigned L);

/* One signing attempt of SPEC 7.1 with the given v vinegar bytes, layer by
 * layer with or_solve_layer. Returns 1 and writes sig (n bytes) if both
 * systems were invertible, else 0. */
int or_sign_attempt(const or_key *k, uint8_t *sig, const uint8_t *digest,
                    const uint8_t *vinegar);

/* ---- deterministic test PRNG (splitmix64) ------------------------------ */

typedef struct {
    uint64_t s;
} or_prng;

void or_prng_seed(or_prng *r, uint64_t seed);
uint64_t or_prng_next(or_prng *r);
void or_prng_bytes(or_prng *r, uint8_t *out, size_t len);
uint8_t or_prng_nonzero(or_prng *r);
unsigned or_prng_below(or_prng *r, unsigned bound); /* bound > 0 */

/* ---- cheap assertions for hot loops --------------------------------------
 * Check's ck_assert_* record a checkpoint on every success (a pipe write or
 * getenv per call); inside loops over millions of values these macros test
 * first and only call into Check on failure. Include <check.h> first. */
#ifdef ck_assert_msg
#include <inttypes.h>
#define CHECK(e)                                                              \
    do {                                                                      \
        if (!(e))                                                             \
            ck_assert_msg(0, "failed: %s", #e);                               \
    } while (0)
#define CHECKM(e, ...)                                                        \
    do {                                                                      \
        if (!(e))                                                             \
            ck_assert_msg(0, __VA_ARGS__);                                    \
    } while (0)
#define CHECK_EQ(x, y)                                                        \
    do {                                                                      \
        intmax_t x_ = (intmax_t)(x), y_ = (intmax_t)(y);                      \
        if (x_ != y_)                                                         \
            ck_assert_msg(0, "%s == %s: %" PRIdMAX " != %" PRIdMAX, #x, #y,   \
                          x_, y_);                                            \
    } while (0)
#define CHECK_MEM(x, y, len)                                                  \
    do {                                                                      \
        if (memcmp((x), (y), (len)) != 0)                                     \
            ck_assert_msg(0, "%s and %s differ (%zu bytes)", #x, #y,          \
                          (size_t)(len));                                     \
    } while (0)
#endif

#endif
