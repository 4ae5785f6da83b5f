/* SPDX-License-Identifier: MIT */
/* The key-only forger of SFLASH v2 (sflash_break.h; docs/SECURITY.md). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "challenge.h"
#include "gf128la.h"
#include "gfla.h"
#include "sflash_break.h"

#define N  CHAL_SFLASH_N
#define NN (N * N)
#define NQ CHAL_SFLASH_QUAD

const char *const chal_sflash_step_names[CHAL_SFLASH_STEPS] = {
    "multiplication", "missing equations", "translation", "relations", "test forgery"};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the key's layout ---- */

/* Index of x_i x_k (i <= k) among the 703 quadratic coefficients, and of
 * the same monomial and of x_i among the key's 741. */
static unsigned qidx(unsigned i, unsigned k)
{
    return i * N - i * (i - 1) / 2 + (k - i);
}

static unsigned kpos_lin(unsigned i)
{
    return 1 + qidx(i, i) + i;
}

static unsigned kpos_quad(unsigned i, unsigned k)
{
    return kpos_lin(i) + 1 + (k - i);
}

void chal_sflash_pack(uint8_t *out, const uint8_t *v, size_t count)
{
    memset(out, 0, (7 * count + 7) / 8);
    for (size_t b = 0; b < 7 * count; b++)
        if ((v[b / 7] >> (6 - b % 7)) & 1)
            out[b / 8] |= (uint8_t)(0x80u >> (b % 8));
}

int chal_sflash_unpack(uint8_t *v, const uint8_t *in, size_t count)
{
    size_t bits = 7 * count, bytes = (bits + 7) / 8;
    for (size_t i = 0; i < count; i++) {
        uint8_t e = 0;
        for (size_t b = 7 * i; b < 7 * i + 7; b++)
            e = (uint8_t)(e << 1 | ((in[b / 8] >> (7 - b % 8)) & 1));
        v[i] = e;
    }
    return bits % 8 && (in[bytes - 1] & (0xFFu >> (bits % 8))) ? -1 : 0;
}

int chal_sflash_pk_decode(chal_cstar_map *P, const uint8_t *pk, size_t len, char *err,
                          size_t errlen)
{
    if (len != CHAL_SFLASH_PK_BYTES)
        return chal_fail(err, errlen, "an SFLASH(26,37) public key has %d bytes, not %zu",
                         CHAL_SFLASH_PK_BYTES, len);
    memset(P, 0, sizeof *P);
    P->m = CHAL_SFLASH_M;
    if (chal_sflash_unpack(&P->coef[0][0], pk, (size_t)CHAL_SFLASH_M * CHAL_SFLASH_MONOMIALS))
        return chal_fail(err, errlen, "SFLASH public key: the pad bits are not zero");
    return CHAL_OK;
}

/* the 703 products x_i x_k */
static void products(uint8_t *pr, const uint8_t *x)
{
    for (unsigned i = 0, t = 0; i < N; i++)
        for (unsigned k = i; k < N; k++)
            pr[t++] = g128mul(x[i], x[k]);
}

void chal_cstar_eval(const chal_cstar_map *P, const uint8_t x[N], uint8_t *y)
{
    uint8_t pr[NQ];
    gf128la_init();
    products(pr, x);
    for (unsigned e = 0; e < P->m; e++) {
        const uint8_t *c = P->coef[e];
        uint8_t acc = c[0];
        for (unsigned i = 0; i < N; i++) {
            acc ^= g128mul(c[kpos_lin(i)], x[i]);
            for (unsigned k = i; k < N; k++)
                acc ^= g128mul(c[kpos_quad(i, k)], pr[qidx(i, k)]);
        }
        y[e] = acc;
    }
}

/* the homogeneous quadratic forms q[0..count) at x */
static void quad_eval(uint8_t *y, const uint8_t (*q)[NQ], unsigned count, const uint8_t *x)
{
    uint8_t pr[NQ];
    products(pr, x);
    for (unsigned j = 0; j < count; j++) {
        uint8_t acc = 0;
        for (unsigned t = 0; t < NQ; t++)
            acc ^= g128mul(q[j][t], pr[t]);
        y[j] = acc;
    }
}

/* The polar (alternating) matrix of a quadratic form: D(a, x) = a^T M x. */
static void polar(uint8_t M[NN], const uint8_t *q)
{
    memset(M, 0, NN);
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = i + 1; k < N; k++)
            M[i * N + k] = M[k * N + i] = q[qidx(i, k)];
}

/* ---- the attack ---- */

typedef struct {
    const chal_sflash_opts *opt;
    tts_stream rng;
    uint8_t pol[N][NN]; /* polar matrices of the public forms */
} brk_ctx;

static void draw(brk_ctx *c, uint8_t *out, size_t len)
{
    tts_stream_rng(&c->rng, out, len);
    for (size_t i = 0; i < len; i++)
        out[i] &= 0x7F;
}

static void progress(const brk_ctx *c, int step, double done)
{
    if (c->opt && c->opt->progress)
        c->opt->progress(c->opt->progress_ctx, chal_sflash_step_names[step], done);
}

/* Step 1. Unknowns: N (37 x 37, column 37 a + b for N_ab) and lam (the
 * span coefficients, 1369 + m p + l). Equations: for each probe p and
 * pair j < k, (N^T M_p + M_p N)_jk + sum_l lam_pl (M_l)_jk = 0; the
 * diagonal is zero on both sides (alternating matrices). The kernel's N
 * parts: the conjugates S^-1 M_xi S for xi in a space of dimension
 * 37 - 3 r, the scalars among them. basis: room for max kernel vectors. */
static size_t step1(brk_ctx *c, unsigned m, uint8_t *basis, size_t max, chal_sflash_report *rep,
                    int *nomem)
{
    const size_t cols = NN + (size_t)CHAL_SFLASH_PROBES * m;
    const size_t rows = (size_t)CHAL_SFLASH_PROBES * (N * (N - 1) / 2);
    uint8_t *A = calloc(rows * cols, 1);
    if (!A) {
        *nomem = 1;
        return 0;
    }
    size_t r = 0;
    for (unsigned p = 0; p < CHAL_SFLASH_PROBES; p++) {
        const uint8_t *Mp = c->pol[p];
        for (unsigned j = 0; j < N; j++)
            for (unsigned k = j + 1; k < N; k++, r++) {
                uint8_t *row = A + r * cols;
                for (unsigned a = 0; a < N; a++) {
                    row[a * N + j] ^= Mp[a * N + k]; /* (N^T M)_jk: N_aj M_ak */
                    row[a * N + k] ^= Mp[j * N + a]; /* (M N)_jk: M_ja N_ak */
                }
                for (unsigned l = 0; l < m; l++)
                    row[NN + (size_t)p * m + l] = c->pol[l][j * N + k];
            }
    }
    rep->unknowns = cols;
    rep->equations = rows;
    size_t *piv = malloc((cols + 1) * sizeof *piv);
    if (!piv) {
        free(A);
        *nomem = 1;
        return 0;
    }
    size_t rank = gf128la_rref(A, rows, cols, piv);
    size_t dim = gfla_kernel_read(A, rank, cols, piv, basis, max);
    free(piv);
    free(A);
    if (dim == (size_t)-1) {
        *nomem = 1;
        return 0;
    }
    rep->rank1 = (unsigned)rank;
    rep->kernel_dim = (unsigned)dim;
    return dim;
}

static int is_scalar(const uint8_t *M)
{
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = 0; k < N; k++)
            if (M[i * N + k] != (i == k ? M[0] : 0))
                return 0;
    return 1;
}

/* The homogeneous quadratic part of Q o N: x^T N^T A N x with A the
 * upper-triangular matrix of q. */
static void compose(uint8_t *out, const uint8_t *q, const uint8_t *Nm)
{
    uint8_t A[NN] = {0}, AN[NN], B[NN];
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = i; k < N; k++)
            A[i * N + k] = q[qidx(i, k)];
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = 0; k < N; k++) {
            uint8_t s = 0;
            for (unsigned t = i; t < N; t++)
                s ^= g128mul(A[i * N + t], Nm[t * N + k]);
            AN[i * N + k] = s;
        }
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = 0; k < N; k++) {
            uint8_t s = 0;
            for (unsigned t = 0; t < N; t++)
                s ^= g128mul(Nm[t * N + i], AN[t * N + k]);
            B[i * N + k] = s;
        }
    for (unsigned i = 0; i < N; i++)
        for (unsigned k = i; k < N; k++)
            out[qidx(i, k)] = i == k ? B[i * N + i] : (uint8_t)(B[i * N + k] ^ B[k * N + i]);
}

/* Rank of the first count forms of q. */
static unsigned quad_rank(const uint8_t (*q)[NQ], unsigned count, int *ok)
{
    return (unsigned)gf128la_rank(&q[0][0], count, NQ, ok);
}

/* Step 2: from the non-scalar Nm, the forms completing the m public ones
 * to 37 independent ones. Returns the dimension reached. */
static unsigned step2(chal_sflash_key *k, const uint8_t *Nm, int *ok)
{
    unsigned m = k->pub.m, dim = m;
    uint8_t cand[NQ];
    for (unsigned i = 0; i < m && dim < N; i++) {
        compose(cand, k->quad[i], Nm);
        memcpy(k->quad[dim], cand, NQ);
        if (quad_rank((const uint8_t(*)[NQ])k->quad, dim + 1, ok) == dim + 1)
            dim++;
    }
    return dim;
}

/* Step 3: the linear part of P_i is M_i c. The rank of the system, c
 * into k->c; -1 if the system has no solution. */
static int step3(brk_ctx *c, chal_sflash_key *k, unsigned *rank, int *ok)
{
    unsigned m = k->pub.m;
    size_t rows = (size_t)m * N, cols = N + 1;
    uint8_t *A = malloc(rows * cols);
    size_t piv[N + 1];
    if (!A) {
        *ok = 0;
        return -1;
    }
    for (unsigned i = 0; i < m; i++)
        for (unsigned a = 0; a < N; a++) {
            uint8_t *row = A + ((size_t)i * N + a) * cols;
            memcpy(row, c->pol[i] + a * N, N);
            row[N] = k->pub.coef[i][kpos_lin(a)];
        }
    size_t r = gf128la_rref(A, rows, cols, piv);
    int bad = r > 0 && piv[r - 1] == N; /* 0 = 1: inconsistent */
    *rank = (unsigned)(bad ? r - 1 : r);
    if (!bad && r == N)
        for (unsigned i = 0; i < N; i++)
            k->c[piv[i]] = A[i * cols + N];
    free(A);
    return bad || r != N ? -1 : 0;
}

/* Step 4: the bilinear forms vanishing on (x', Q(x')) for random x'. */
static unsigned step4(brk_ctx *c, chal_sflash_key *k, chal_sflash_report *rep, int *ok)
{
    const size_t rows = CHAL_SFLASH_SAMPLES, cols = NN;
    uint8_t *A = malloc(rows * cols), *basis = malloc((size_t)(N + 1) * cols);
    uint8_t x[N], y[N];
    if (!A || !basis) {
        free(A);
        free(basis);
        *ok = 0;
        return 0;
    }
    for (size_t s = 0; s < rows; s++) {
        draw(c, x, N);
        quad_eval(y, (const uint8_t(*)[NQ])k->quad, N, x);
        uint8_t *row = A + s * cols;
        for (unsigned a = 0; a < N; a++)
            for (unsigned l = 0; l < N; l++)
                row[a * N + l] = g128mul(x[a], y[l]);
    }
    size_t *piv = malloc((cols + 1) * sizeof *piv);
    size_t dim = 0;
    if (!piv)
        *ok = 0;
    else {
        size_t r = gf128la_rref(A, rows, cols, piv);
        rep->rel_rank = (unsigned)r;
        dim = gfla_kernel_read(A, r, cols, piv, basis, N + 1);
        if (dim == (size_t)-1) {
            *ok = 0;
            dim = 0;
        } else if (dim == N)
            memcpy(k->rel, basis, (size_t)N * cols);
    }
    rep->samples = (unsigned)rows;
    free(piv);
    free(A);
    free(basis);
    return (unsigned)dim;
}

static int no_structure(char *err, size_t errlen, const char *why)
{
    chal_fail(err, errlen, "no C*- structure: %s", why);
    return CHAL_NO_STRUCTURE;
}

int chal_sflash_break(const chal_cstar_map *P, const chal_sflash_opts *opt,
                      chal_sflash_key *key, chal_sflash_report *rep, char *err,
                      size_t errlen)
{
    chal_sflash_report dummy;
    if (!rep)
        rep = &dummy;
    memset(rep, 0, sizeof *rep);
    if (!P || !key)
        return chal_fail(err, errlen, "no public map");
    if (P->m < CHAL_SFLASH_PROBES || P->m > N)
        return chal_fail(err, errlen, "a C*- map of 37 variables has %d to 37 equations, not %u",
                         CHAL_SFLASH_PROBES, P->m);
    if (sodium_init() < 0)
        return chal_fail(err, errlen, "break: libsodium failed to start");
    gf128la_init();
    brk_ctx *c = malloc(sizeof *c);
    if (!c)
        return chal_fail(err, errlen, "no memory");
    c->opt = opt;
    if (opt && opt->seed)
        memcpy(rep->seed, opt->seed, 32);
    else
        randombytes_buf(rep->seed, 32);
    tts_stream_init(&c->rng, rep->seed);
    const unsigned m = P->m;
    rep->m = m;
    memset(key, 0, sizeof *key);
    key->pub = *P;
    for (unsigned i = 0; i < m; i++) {
        for (unsigned a = 0; a < N; a++)
            for (unsigned b = a; b < N; b++)
                key->quad[i][qidx(a, b)] = P->coef[i][kpos_quad(a, b)];
        polar(c->pol[i], key->quad[i]);
    }
    int rc = CHAL_OK, ok = 1, nomem = 0;
    double t0 = now(), ts = t0;
    uint8_t *basis = NULL;
    const size_t cols1 = NN + (size_t)CHAL_SFLASH_PROBES * m;

    /* 1 */
    progress(c, 0, 0.0);
    size_t maxk = N + 1;
    basis = malloc(maxk * cols1);
    size_t dim = basis ? step1(c, m, basis, maxk, rep, &nomem) : (nomem = 1, 0);
    rep->seconds[0] = now() - ts;
    progress(c, 0, 1.0);
    if (nomem) {
        rc = chal_fail(err, errlen, "no memory");
        goto out;
    }
    if (quad_rank((const uint8_t(*)[NQ])key->quad, m, &ok) != m) {
        rc = ok ? no_structure(err, errlen, "the public equations' quadratic parts are "
                                            "linearly dependent")
                : chal_fail(err, errlen, "no memory");
        goto out;
    }
    if (dim < 2) {
        char why[160];
        snprintf(why, sizeof why, "the multiplications of step 1 are the scalars only "
                                  "(kernel of dimension %zu; C*- gives 37 - 3 r)", dim);
        rc = no_structure(err, errlen, why);
        goto out;
    }

    /* 2: each kernel vector in turn until one completes the span */
    ts = now();
    progress(c, 1, 0.0);
    unsigned span = m;
    for (size_t b = 0; b < dim && b < maxk && span < N && ok; b++) {
        const uint8_t *Nm = basis + b * cols1;
        if (is_scalar(Nm))
            continue;
        rep->n_tries++;
        memcpy(key->mul, Nm, NN);
        span = step2(key, Nm, &ok);
    }
    rep->span_dim = span;
    rep->seconds[1] = now() - ts;
    progress(c, 1, 1.0);
    if (!ok) {
        rc = chal_fail(err, errlen, "no memory");
        goto out;
    }
    if (span != N) {
        char why[160];
        snprintf(why, sizeof why, "the quadratic parts of P o N span %u forms, not 37", span);
        rc = no_structure(err, errlen, why);
        goto out;
    }

    /* 3 */
    ts = now();
    progress(c, 2, 0.0);
    int r3 = step3(c, key, &rep->trans_rank, &ok);
    rep->seconds[2] = now() - ts;
    progress(c, 2, 1.0);
    if (!ok) {
        rc = chal_fail(err, errlen, "no memory");
        goto out;
    }
    if (r3) {
        rc = no_structure(err, errlen, "the linear parts are not those of a translation");
        goto out;
    }
    chal_cstar_eval(&key->pub, key->c, key->e);

    /* 4 */
    ts = now();
    progress(c, 3, 0.0);
    rep->rel_dim = step4(c, key, rep, &ok);
    rep->seconds[3] = now() - ts;
    progress(c, 3, 1.0);
    if (!ok) {
        rc = chal_fail(err, errlen, "no memory");
        goto out;
    }
    if (rep->rel_dim != N) {
        char why[160];
        snprintf(why, sizeof why, "%u bilinear relations between input and output, not 37",
                 rep->rel_dim);
        rc = no_structure(err, errlen, why);
        goto out;
    }

    /* 5: a forgery of a random target, checked by the public map */
    ts = now();
    progress(c, 4, 0.0);
    uint8_t v[N], x[N], y[N];
    draw(c, v, m);
    if (chal_sflash_forge(key, x, v, tts_stream_rng, &c->rng, err, errlen) != CHAL_OK) {
        rc = no_structure(err, errlen, "the recovered key does not sign");
    } else {
        chal_cstar_eval(&key->pub, x, y);
        if (memcmp(y, v, m) != 0)
            rc = no_structure(err, errlen, "the test forgery does not verify");
        else
            rep->sign_checks = 1;
    }
    rep->seconds[4] = now() - ts;
    progress(c, 4, 1.0);
out:
    rep->total_seconds = now() - t0;
    free(basis);
    tts_stream_wipe(&c->rng);
    free(c);
    return rc;
}

/* ---- signing ---- */

static int sysrng(void *ctx, uint8_t *out, size_t len)
{
    (void)ctx;
    randombytes_buf(out, len);
    return TTS_OK;
}

int chal_sflash_forge(const chal_sflash_key *k, uint8_t x[N], const uint8_t *v,
                      tts_rng_fn rng, void *ctx, char *err, size_t errlen)
{
    const unsigned m = k->pub.m;
    gf128la_init();
    if (!rng && sodium_init() < 0)
        return chal_fail(err, errlen, "forge: libsodium failed to start");
    if (!rng)
        rng = sysrng;
    for (unsigned tries = 0; tries < 64; tries++) {
        uint8_t y[N], A[NN], w[N], z[N];
        if (rng(ctx, y, N) != TTS_OK)
            return chal_fail(err, errlen, "the random generator failed");
        for (unsigned j = 0; j < N; j++)
            y[j] = j < m ? v[j] ^ k->e[j] : y[j] & 0x7F;
        /* the relations at y: 37 linear equations in x' */
        for (unsigned j = 0; j < N; j++)
            for (unsigned a = 0; a < N; a++) {
                const uint8_t *g = k->rel[j] + a * N;
                uint8_t s = 0;
                for (unsigned l = 0; l < N; l++)
                    s ^= g128mul(g[l], y[l]);
                A[j * N + a] = s;
            }
        if (gf128la_kernel(A, N, N, w, 1) != 1)
            continue;
        /* x' = lam w with Q(lam w) = lam^2 Q(w) = y */
        quad_eval(z, (const uint8_t(*)[NQ])k->quad, N, w);
        unsigned j = 0;
        while (j < N && !(y[j] && z[j]))
            j++;
        if (j == N)
            continue;
        uint8_t lam = gf128la_sqrt(g128mul(y[j], gf128la_inv[z[j]])), l2 = g128mul(lam, lam);
        int good = 1;
        for (unsigned i = 0; i < N; i++)
            good &= g128mul(l2, z[i]) == y[i];
        if (!good)
            continue;
        for (unsigned i = 0; i < N; i++)
            x[i] = g128mul(lam, w[i]) ^ k->c[i];
        return CHAL_OK;
    }
    return chal_fail(err, errlen, "no signature in 64 draws: not the key of a C* map");
}

int chal_sflash_forge_sig(const chal_sflash_key *k, uint8_t sig[CHAL_SFLASH_SIG_BYTES],
                          const uint8_t digest[CHAL_SFLASH_DIGEST_BYTES], tts_rng_fn rng,
                          void *ctx, char *err, size_t errlen)
{
    uint8_t v[CHAL_SFLASH_M], x[N], y[N];
    if (k->pub.m != CHAL_SFLASH_M)
        return chal_fail(err, errlen, "not an SFLASH(26,37) key");
    if (chal_sflash_unpack(v, digest, CHAL_SFLASH_M))
        return chal_fail(err, errlen, "an SFLASH digest has 182 bits: its last 2 bits are zero");
    if (chal_sflash_forge(k, x, v, rng, ctx, err, errlen) != CHAL_OK)
        return CHAL_ERROR;
    chal_cstar_eval(&k->pub, x, y);
    if (memcmp(y, v, CHAL_SFLASH_M) != 0)
        return chal_fail(err, errlen, "the forgery does not satisfy the public map");
    chal_sflash_pack(sig, x, N);
    return CHAL_OK;
}
