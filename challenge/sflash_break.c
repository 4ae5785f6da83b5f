/* SPDX-License-Identifier: MIT */
/* The key-only forger of SFLASH v2 (sflash_break.h; docs/SECURITY.md). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "challenge.h"
#include "gf128la.h"
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

/* the key's 741 monomials at x, in the key's order */
static void monomials(uint8_t mon[CHAL_SFLASH_MONOMIALS], const uint8_t *x)
{
    unsigned t = 0;
    mon[t++] = 1;
    for (unsigned i = 0; i < N; i++) {
        const uint8_t *xi = gf128la_mul[x[i]];
        mon[t++] = x[i];
        for (unsigned k = i; k < N; k++)
            mon[t++] = xi[x[k]];
    }
}

/* sum of a[t] b[t], t < len */
static uint8_t dot(const uint8_t *a, const uint8_t *b, size_t len)
{
    uint8_t acc = 0;
    for (size_t t = 0; t < len; t++)
        acc ^= gf128la_mul[a[t]][b[t]];
    return acc;
}

void chal_cstar_eval(const chal_cstar_map *P, const uint8_t x[N], uint8_t *y)
{
    uint8_t mon[CHAL_SFLASH_MONOMIALS];
    gf128la_init();
    monomials(mon, x);
    gf128la_matvec(y, &P->coef[0][0], P->m, CHAL_SFLASH_MONOMIALS, CHAL_SFLASH_MONOMIALS, mon);
}

/* the homogeneous quadratic forms q[0..count) at x */
static void quad_eval(uint8_t *y, const uint8_t (*q)[NQ], unsigned count, const uint8_t *x)
{
    uint8_t pr[NQ];
    products(pr, x);
    gf128la_matvec(y, &q[0][0], count, NQ, NQ, pr);
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

#define NPAIR (N * (N - 1) / 2) /* entries above the diagonal */
#define RS    CHAL_SFLASH_RS
#define NNS   (((size_t)NN + 15) & ~(size_t)15) /* a row of NN elements */

/* What a step returns; the reason of STEP_NO_STRUCTURE is in ctx->why. */
enum { STEP_OK, STEP_NO_STRUCTURE, STEP_ENOMEM };

typedef struct {
    const chal_sflash_opts *opt;
    chal_sflash_key *key;
    chal_sflash_report *rep;
    unsigned m;
    tts_stream rng;
    char why[160];
    uint8_t pol[N][NN]; /* polar matrices: of the public forms, of all 37 after step 2 */
    uint8_t pj[NPAIR], pk[NPAIR]; /* the pairs j < k, in order */
    /* the span of the public polar matrices: its dimension rl, the pairs
     * pc[u] where (as vectors of the NPAIR entries above the diagonal) an
     * echelon basis has its pivots, the other pairs fp[s], and for each
     * fp[s] the combination L_fp[s] = sum_u co[u][s] L_pc[u] that holds
     * for every matrix L of the span */
    unsigned rl, nfree;
    uint16_t pc[N], fp[NPAIR];
    uint8_t co[N][NPAIR];
    size_t dim;            /* step 1's kernel */
    uint8_t basis[N + 1][NN]; /* its first vectors */
} brk_ctx;

static void draw(brk_ctx *c, uint8_t *out, size_t len)
{
    tts_stream_rng(&c->rng, out, len);
    for (size_t i = 0; i < len; i++)
        out[i] &= 0x7F;
}

static int no_structure(brk_ctx *c, const char *why)
{
    snprintf(c->why, sizeof c->why, "%s", why);
    return STEP_NO_STRUCTURE;
}

/* rows of cols elements (16-byte aligned, gf128la_stride(cols) bytes
 * apart), then the echelon's and a kernel's workspaces; 0 if no memory
 * (rows_free frees what was had) */
typedef struct {
    uint8_t *buf, **row, *work, *kwork;
    size_t *piv;
} rows_t;

static int rows_alloc(rows_t *t, size_t rows, size_t cols)
{
    const size_t stride = gf128la_stride(cols);
    size_t kw = 0; /* for any rank */
    for (size_t r = 0; r <= cols; r++)
        if (GF128LA_KERNEL_WORK(r, cols) > kw)
            kw = GF128LA_KERNEL_WORK(r, cols);
    t->buf = aligned_alloc(16, rows * stride + GF128LA_ECHELON_WORK(cols) + kw);
    t->row = malloc((rows + 1) * sizeof *t->row);
    t->piv = malloc((cols + 1) * sizeof *t->piv);
    if (!t->buf || !t->row || !t->piv)
        return 0;
    for (size_t i = 0; i < rows; i++)
        t->row[i] = t->buf + i * stride;
    t->work = t->buf + rows * stride;
    t->kwork = t->work + GF128LA_ECHELON_WORK(cols);
    return 1;
}

static void rows_free(rows_t *t)
{
    free(t->buf);
    free(t->row);
    free(t->piv);
}

/* The span of the public polar matrices (brk_ctx): an echelon form of the
 * m x NPAIR matrix of their entries, whose kernel vectors are the
 * combinations. */
static int public_span(brk_ctx *c)
{
    rows_t t = {0};
    uint8_t *ker = malloc((size_t)NPAIR * NPAIR);
    int rc = STEP_ENOMEM;
    if (!ker || !rows_alloc(&t, c->m, NPAIR))
        goto out;
    for (unsigned l = 0; l < c->m; l++) {
        memset(t.row[l], 0, gf128la_stride(NPAIR));
        for (unsigned q = 0; q < NPAIR; q++)
            t.row[l][q] = c->pol[l][c->pj[q] * N + c->pk[q]];
    }
    size_t r = gf128la_echelon(t.row, c->m, NPAIR, t.piv, t.work);
    size_t nf = gf128la_echelon_kernel(t.row, r, NPAIR, t.piv, ker, NPAIR, t.kwork);
    c->rl = (unsigned)r;
    c->nfree = (unsigned)nf;
    for (size_t u = 0; u < r; u++)
        c->pc[u] = (uint16_t)t.piv[u];
    /* kernel vector s: 1 at the free pair fp[s], co[u][s] at pc[u] */
    for (size_t s = 0, q = 0, u = 0; s < nf; q++) {
        if (u < r && t.piv[u] == q) {
            u++;
            continue;
        }
        c->fp[s] = (uint16_t)q;
        for (size_t v = 0; v < r; v++)
            c->co[v][s] = ker[s * NPAIR + t.piv[v]];
        s++;
    }
    rc = STEP_OK;
out:
    rows_free(&t);
    free(ker);
    return rc;
}

/* row += g (N^T M + M N)_jk for the pair q = (j, k), as a linear form in
 * the entries of N (column 37 a + b for N_ab) */
static void add_pair(uint8_t *row, const uint8_t *M, const brk_ctx *c, unsigned q, uint8_t g)
{
    const unsigned j = c->pj[q], k = c->pk[q];
    const uint8_t *mg = gf128la_mul[g];
    for (unsigned a = 0; a < N; a++) {
        row[a * N + j] ^= mg[M[a * N + k]]; /* (N^T M)_jk: N_aj M_ak */
        row[a * N + k] ^= mg[M[j * N + a]]; /* (M N)_jk: M_ja N_ak */
    }
}

/* Equation e of step 1: probe e % 3, free pair e / 3. N^T M_p + M_p N is
 * alternating; it lies in the public span iff every free pair's entry is
 * the combination co of the pivot pairs' entries. */
static void equation(uint8_t *row, const brk_ctx *c, size_t e)
{
    const uint8_t *M = c->pol[e % CHAL_SFLASH_PROBES];
    const size_t s = e / CHAL_SFLASH_PROBES;
    memset(row, 0, NNS);
    add_pair(row, M, c, c->fp[s], 1);
    for (unsigned u = 0; u < c->rl; u++)
        if (c->co[u][s])
            add_pair(row, M, c, c->pc[u], c->co[u][s]);
}

/* Every equation of step 1 at Nm, whether eliminated or not. */
static int satisfies(const brk_ctx *c, const uint8_t *Nm)
{
    uint8_t A[NN], d[NPAIR];
    for (unsigned p = 0; p < CHAL_SFLASH_PROBES; p++) {
        const uint8_t *M = c->pol[p];
        memset(A, 0, NN); /* A = N^T M */
        for (unsigned a = 0; a < N; a++)
            for (unsigned j = 0; j < N; j++) {
                const uint8_t *f = gf128la_mul[Nm[a * N + j]];
                for (unsigned k = 0; k < N; k++)
                    A[j * N + k] ^= f[M[a * N + k]];
            }
        for (unsigned q = 0; q < NPAIR; q++)
            d[q] = A[c->pj[q] * N + c->pk[q]] ^ A[c->pk[q] * N + c->pj[q]];
        for (unsigned s = 0; s < c->nfree; s++) {
            uint8_t acc = d[c->fp[s]];
            for (unsigned u = 0; u < c->rl; u++)
                acc ^= gf128la_mul[c->co[u][s]][d[c->pc[u]]];
            if (acc)
                return 0;
        }
    }
    return 1;
}

/* Step 1. N (37 x 37) such that for each of three public equations,
 * N^T M_p + M_p N lies in the span of the public polar matrices; the span
 * coefficients are eliminated beforehand (equation()), leaving 3 (666 -
 * m) equations in the 1,369 entries of N. The kernel: the conjugates
 * S^-1 M_xi S for xi in a space of dimension 37 - 3 r, the scalars among
 * them. A first batch of equations (the unknowns and 32) is eliminated;
 * its kernel is the whole system's when every basis vector satisfies all
 * equations, and otherwise the rest are added. */
static int step_multiplication(brk_ctx *c)
{
    int ok = 1;
    if (gf128la_rank(&c->key->quad[0][0], c->m, NQ, &ok) != c->m)
        return ok ? no_structure(c, "the public equations' quadratic parts are linearly "
                                    "dependent")
                  : STEP_ENOMEM;
    if (public_span(c) != STEP_OK)
        return STEP_ENOMEM;
    const size_t total = (size_t)CHAL_SFLASH_PROBES * c->nfree;
    size_t first = c->opt && c->opt->first_equations ? c->opt->first_equations : NN + 32;
    size_t rows = first < total ? first : total, filled = 0, rank;
    rows_t t = {0};
    if (!rows_alloc(&t, total, NN)) {
        rows_free(&t);
        return STEP_ENOMEM;
    }
    for (;;) {
        for (; filled < rows; filled++)
            equation(t.row[filled], c, filled);
        rank = gf128la_echelon(t.row, rows, NN, t.piv, t.work);
        c->dim = gf128la_echelon_kernel(t.row, rank, NN, t.piv, &c->basis[0][0], N + 1, t.kwork);
        size_t b = 0;
        if (rows < total && c->dim <= N + 1)
            while (b < c->dim && satisfies(c, c->basis[b]))
                b++;
        if (rows == total || b == c->dim)
            break;
        rows = total;
    }
    rows_free(&t);
    c->rep->unknowns = NN;
    c->rep->equations = rows;
    c->rep->rank1 = (unsigned)rank;
    c->rep->kernel_dim = (unsigned)c->dim;
    if (c->dim < 2) {
        snprintf(c->why, sizeof c->why, "the multiplications of step 1 are the scalars only "
                                        "(kernel of dimension %zu; C*- gives 37 - 3 r)", c->dim);
        return STEP_NO_STRUCTURE;
    }
    return STEP_OK;
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

/* Step 2: for each non-scalar N of the kernel in turn, the quadratic
 * parts of P o N that complete the m public forms to 37 independent ones;
 * then the polar matrices of all 37 (step 4). */
static int step_missing(brk_ctx *c)
{
    chal_sflash_key *k = c->key;
    unsigned span = c->m;
    int ok = 1;
    for (size_t b = 0; b < c->dim && b <= N && span < N && ok; b++) {
        const uint8_t *Nm = c->basis[b];
        if (is_scalar(Nm))
            continue;
        c->rep->n_tries++;
        memcpy(k->mul, Nm, NN);
        span = c->m;
        for (unsigned i = 0; i < c->m && span < N && ok; i++) {
            compose(k->quad[span], k->quad[i], Nm);
            if (gf128la_rank(&k->quad[0][0], span + 1, NQ, &ok) == span + 1)
                span++;
        }
    }
    c->rep->span_dim = span;
    if (!ok)
        return STEP_ENOMEM;
    if (span != N) {
        snprintf(c->why, sizeof c->why, "the quadratic parts of P o N span %u forms, not 37",
                 span);
        return STEP_NO_STRUCTURE;
    }
    for (unsigned j = c->m; j < N; j++)
        polar(c->pol[j], k->quad[j]);
    return STEP_OK;
}

/* Step 3: the linear part of P_i is M_i c: m x 37 equations M_i c = l_i,
 * as the kernel of [M_i | l_i] at a last entry 1; then e = P(c). */
static int step_translation(brk_ctx *c)
{
    chal_sflash_key *k = c->key;
    const size_t rows = (size_t)c->m * N;
    rows_t t = {0};
    uint8_t sol[N + 1];
    if (!rows_alloc(&t, rows, N + 1)) {
        rows_free(&t);
        return STEP_ENOMEM;
    }
    for (unsigned i = 0; i < c->m; i++)
        for (unsigned a = 0; a < N; a++) {
            uint8_t *row = t.row[(size_t)i * N + a];
            memset(row, 0, RS);
            memcpy(row, c->pol[i] + a * N, N);
            row[N] = k->pub.coef[i][kpos_lin(a)];
        }
    size_t r = gf128la_echelon(t.row, rows, N + 1, t.piv, t.work);
    int bad = r > 0 && t.piv[r - 1] == N; /* 0 = 1: inconsistent */
    c->rep->trans_rank = (unsigned)(bad ? r - 1 : r);
    if (!bad && r == N) {
        gf128la_echelon_kernel(t.row, r, N + 1, t.piv, sol, 1, t.kwork);
        memcpy(k->c, sol, N);
    }
    rows_free(&t);
    if (bad || r != N)
        return no_structure(c, "the linear parts are not those of a translation");
    chal_cstar_eval(&k->pub, k->c, k->e);
    return STEP_OK;
}

/* One sample of step 4: the products x_a y_l. */
static void sample_row(uint8_t *row, const uint8_t *x, const uint8_t *y)
{
    memset(row, 0, NNS);
    for (unsigned a = 0; a < N; a++) {
        const uint8_t *xa = gf128la_mul[x[a]];
        for (unsigned l = 0; l < N; l++)
            row[a * N + l] = xa[y[l]];
    }
}

/* The next point of step 4's walk: x + s e_i, and y = Q(x) with it, from
 * Q(x + s e_i) = Q(x) + s^2 Q(e_i) + s (M x)_i (M the polar matrix): 37
 * products a form instead of 703. */
static void walk(const brk_ctx *c, uint8_t *x, uint8_t *y, const uint8_t step[2])
{
    const unsigned i = step[0] % N;
    const uint8_t s = step[1] & 0x7F ? step[1] & 0x7F : 1, *ms = gf128la_mul[s];
    const uint8_t *ms2 = gf128la_mul[ms[s]];
    for (unsigned j = 0; j < N; j++)
        y[j] ^= ms2[c->key->quad[j][qidx(i, i)]] ^ ms[dot(c->pol[j] + i * N, x, N)];
    x[i] ^= s;
}

/* Step 4: the bilinear forms vanishing on (x', Q(x')), from samples along
 * a random walk; more samples while the kernel is larger than 37. */
static int step_relations(brk_ctx *c)
{
    const size_t first = c->opt && c->opt->first_samples ? c->opt->first_samples
                                                         : CHAL_SFLASH_SAMPLES;
    const size_t cap = first > 2 * NN ? first : 2 * NN, more = 64;
    uint8_t x[N], y[N], *steps = malloc(2 * cap);
    rows_t t = {0};
    if (!steps || !rows_alloc(&t, cap, NN)) {
        free(steps);
        rows_free(&t);
        return STEP_ENOMEM;
    }
    tts_stream_rng(&c->rng, steps, 2 * cap);
    draw(c, x, N);
    quad_eval(y, (const uint8_t(*)[NQ])c->key->quad, N, x);
    size_t rows = first, filled = 0, rank, dim;
    for (;;) {
        for (; filled < rows; filled++) {
            sample_row(t.row[filled], x, y);
            walk(c, x, y, steps + 2 * filled);
        }
        rank = gf128la_echelon(t.row, rows, NN, t.piv, t.work);
        dim = NN - rank;
        if (dim <= N || rows == cap)
            break;
        rows = rows + more < cap ? rows + more : cap;
    }
    c->rep->samples = (unsigned)rows;
    c->rep->rel_rank = (unsigned)rank;
    c->rep->rel_dim = (unsigned)dim;
    if (dim == N)
        gf128la_echelon_kernel(t.row, rank, NN, t.piv, &c->key->rel[0][0], N, t.kwork);
    rows_free(&t);
    free(steps);
    if (dim != N) {
        snprintf(c->why, sizeof c->why,
                 "%zu bilinear relations between input and output, not 37", dim);
        return STEP_NO_STRUCTURE;
    }
    return STEP_OK;
}

/* Step 5: a forgery of a random target, checked by the public map. */
static int step_test(brk_ctx *c)
{
    uint8_t v[N], x[N], y[N];
    chal_sflash_key_prepare(c->key);
    draw(c, v, c->m);
    if (chal_sflash_forge(c->key, x, v, tts_stream_rng, &c->rng, NULL, 0) != CHAL_OK)
        return no_structure(c, "the recovered key does not sign");
    chal_cstar_eval(&c->key->pub, x, y);
    if (memcmp(y, v, c->m) != 0)
        return no_structure(c, "the test forgery does not verify");
    c->rep->sign_checks = 1;
    return STEP_OK;
}

/* The steps in order, each under step(). */
static int (*const steps[CHAL_SFLASH_STEPS])(brk_ctx *) = {
    step_multiplication, step_missing, step_translation, step_relations, step_test};

static int step(brk_ctx *c, int s)
{
    if (c->opt && c->opt->progress)
        c->opt->progress(c->opt->progress_ctx, chal_sflash_step_names[s], 0.0);
    double t0 = now();
    int r = steps[s](c);
    c->rep->seconds[s] = now() - t0;
    if (c->opt && c->opt->progress)
        c->opt->progress(c->opt->progress_ctx, chal_sflash_step_names[s], 1.0);
    return r;
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
    c->key = key;
    c->rep = rep;
    c->m = P->m;
    c->why[0] = 0;
    if (opt && opt->seed)
        memcpy(rep->seed, opt->seed, 32);
    else
        randombytes_buf(rep->seed, 32);
    tts_stream_init(&c->rng, rep->seed);
    rep->m = c->m;
    memset(key, 0, sizeof *key);
    key->pub = *P;
    for (unsigned i = 0; i < c->m; i++) {
        for (unsigned a = 0; a < N; a++)
            for (unsigned b = a; b < N; b++)
                key->quad[i][qidx(a, b)] = P->coef[i][kpos_quad(a, b)];
        polar(c->pol[i], key->quad[i]);
    }
    for (unsigned j = 0, q = 0; j < N; j++)
        for (unsigned k = j + 1; k < N; k++, q++)
            c->pj[q] = (uint8_t)j, c->pk[q] = (uint8_t)k;
    double t0 = now();
    int r = STEP_OK, s = 0;
    for (; s < CHAL_SFLASH_STEPS && r == STEP_OK; s++)
        r = step(c, s);
    rep->total_seconds = now() - t0;
    int rc = CHAL_OK;
    if (r == STEP_NO_STRUCTURE) {
        chal_fail(err, errlen, "no C*- structure: %s", c->why);
        rc = CHAL_NO_STRUCTURE;
    } else if (r == STEP_ENOMEM) {
        rc = chal_fail(err, errlen, "no memory (step %d, %s)", s, chal_sflash_step_names[s - 1]);
    }
    tts_stream_wipe(&c->rng);
    free(c);
    return rc;
}

/* ---- signing ---- */

void chal_sflash_key_prepare(chal_sflash_key *k)
{
    memset(k->relt, 0, sizeof k->relt);
    for (unsigned j = 0; j < N; j++)
        for (unsigned a = 0; a < N; a++)
            for (unsigned l = 0; l < N; l++)
                k->relt[l][j * RS + a] = k->rel[j][a * N + l];
}

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
    _Alignas(16) uint8_t A[N * RS], work[GF128LA_ECHELON_WORK(N)],
        kwork[GF128LA_KERNEL_WORK(N - 1, N)];
    const uint8_t *rel[N];
    uint8_t *row[N];
    size_t piv[N];
    for (unsigned l = 0; l < N; l++)
        rel[l] = k->relt[l];
    for (unsigned tries = 0; tries < 64; tries++) {
        uint8_t y[N], w[N], pr[NQ], z = 0, out[N];
        if (rng(ctx, y, N) != TTS_OK)
            return chal_fail(err, errlen, "the random generator failed");
        for (unsigned j = 0; j < N; j++)
            y[j] = j < m ? v[j] ^ k->e[j] : y[j] & 0x7F;
        /* the relations at y: 37 linear equations in x' */
        gf128la_lincomb(A, rel, y, N, sizeof A);
        for (unsigned j = 0; j < N; j++)
            row[j] = A + j * RS;
        if (gf128la_echelon(row, N, N, piv, work) != N - 1)
            continue;
        gf128la_echelon_kernel(row, N - 1, N, piv, w, 1, kwork);
        /* x' = lam w with Q(lam w) = lam^2 Q(w) = y */
        products(pr, w);
        unsigned j = 0;
        for (; j < N; j++)
            if (y[j] && (gf128la_matvec(&z, k->quad[j], 1, NQ, NQ, pr), z))
                break;
        if (j == N)
            continue;
        uint8_t lam = gf128la_sqrt(g128mul(y[j], gf128la_inv[z])), cand[N];
        for (unsigned i = 0; i < N; i++)
            cand[i] = g128mul(lam, w[i]) ^ k->c[i];
        chal_cstar_eval(&k->pub, cand, out);
        if (memcmp(out, v, m) == 0) {
            memcpy(x, cand, N);
            return CHAL_OK;
        }
    }
    return chal_fail(err, errlen, "no signature in 64 draws: not the key of a C* map");
}

int chal_sflash_forge_sig(const chal_sflash_key *k, uint8_t sig[CHAL_SFLASH_SIG_BYTES],
                          const uint8_t digest[CHAL_SFLASH_DIGEST_BYTES], tts_rng_fn rng,
                          void *ctx, char *err, size_t errlen)
{
    uint8_t v[CHAL_SFLASH_M], x[N];
    if (k->pub.m != CHAL_SFLASH_M)
        return chal_fail(err, errlen, "not an SFLASH(26,37) key");
    if (chal_sflash_unpack(v, digest, CHAL_SFLASH_M))
        return chal_fail(err, errlen, "an SFLASH digest has 182 bits: its last 2 bits are zero");
    if (chal_sflash_forge(k, x, v, rng, ctx, err, errlen) != CHAL_OK)
        return CHAL_ERROR;
    chal_sflash_pack(sig, x, N);
    return CHAL_OK;
}
