/* SPDX-License-Identifier: MIT */
/*
 * The key-only break (docs/SECURITY.md section 1).
 *
 * Central map, secret basis: the a + 2 equations of layer 1, mu1 and mu2
 * never use x_0, and use x_mu2 only linearly; the layer-3 variables appear
 * only in layer 3. So the polar forms of those a + 2 equations share a
 * radical K of dimension b + 2 (x_0, x_mu2 and layer 3's b variables),
 * which only the b layer-3 equations see: the missing cross-terms. In
 * public coordinates, with P'(u, y) the polar form of the public map:
 *
 *  1. for a random y, U_y = {u : P'(u, y) = 0} (dimension v) meets K in a
 *     plane: only layer 3's b forms constrain the b + 2 dimensions of K;
 *  2. on a random (v - 1)-dimensional slice of U_y, u in K is the u with
 *     rank [M_1 u ... M_m u] <= b (M_k the forms' matrices): MinRank in
 *     v - 1 unknowns, one linear system by Support Minors (sm.c);
 *  3. the forms that vanish on u span Lambda (layer 1, mu1, mu2); their
 *     common radical is K;
 *  4. restricted to K the forms are bilinear between (x_0, x_mu2) and the
 *     layer-3 variables: the span of their kernels there is layer 3's oil
 *     space O;
 *  5. on a line of Lambda one point (of 257) lies in Lambda' = layer 1 +
 *     mu1, whose forms also share the direction x_mu1;
 *  6. on a line of Lambda' one point has rank 2(v - 1): a layer-1 form.
 *     Its radical isolates Lambda_1 (the forms of Lambda' for which that
 *     radical is isotropic), and their radicals span O' (all but the
 *     vinegar x_1 .. x_{v-1});
 *  7. the equivalent key: input blocks V, L, mu1, C, O and equation groups
 *     layer 1, mu1, mu2, layer 3 (break.h), checked by signing.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "break.h"
#include "challenge.h"
#include "gfla.h"
#include "internal.h"
#include "sm.h"

const char *const chal_break_step_names[CHAL_BREAK_STEPS] = {
    "slice U_y", "MinRank (Support Minors)", "Lambda and K", "layer-3 oil space",
    "mu1 (line search)", "layer 1 and O'", "equivalent key"};

#define MAXN TTS_MAX_N
#define MAXM TTS_MAX_M

typedef struct {
    const tts_params *p;
    const tts_kernels *k;
    unsigned m, n, v, a, b;
    uint8_t *M;  /* m polar matrices, n x n */
    uint8_t *sq; /* sq[k n + i]: coefficient of w_i^2 in output k */
    tts_stream rng;
    uint8_t pk_id[32];      /* SHA-256 of the public key (checkpoints) */
    unsigned krylov_misses; /* Wiedemann attempts that saw no kernel */
} brk;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void rnd(brk *c, uint8_t *out, size_t len)
{
    tts_stream_rng(&c->rng, out, len);
}

static void rnd_nonzero(brk *c, uint8_t *out, size_t len)
{
    uint8_t any = 0;
    while (len && !any) {
        rnd(c, out, len);
        for (size_t i = 0; i < len; i++)
            any |= out[i];
    }
}

/* out (n x n) = sum_k lam[k] M_k */
static void form(const brk *c, uint8_t *out, const uint8_t *lam)
{
    size_t nn = (size_t)c->n * c->n;
    memset(out, 0, nn);
    for (unsigned k = 0; k < c->m; k++)
        if (lam[k])
            c->k->madd(out, c->M + k * nn, lam[k], nn);
}

/* out = sum_s coef[s] vecs[s], vectors of len bytes */
static void combine(uint8_t *out, const uint8_t *vecs, const uint8_t *coef, unsigned cnt,
                    unsigned len)
{
    memset(out, 0, len);
    for (unsigned s = 0; s < cnt; s++)
        for (unsigned j = 0; j < len; j++)
            out[j] ^= gmul(coef[s], vecs[(size_t)s * len + j]);
}

/* x^T M y */
static uint8_t bil(const brk *c, const uint8_t *M, const uint8_t *x, const uint8_t *y)
{
    uint8_t My[MAXN];
    gfla_matvec(My, M, y, c->n, c->n);
    uint8_t s = 0;
    for (unsigned i = 0; i < c->n; i++)
        s ^= gmul(x[i], My[i]);
    return s;
}

/* The quadratic part of output k at x. */
static uint8_t quad(const brk *c, unsigned k, const uint8_t *x)
{
    const uint8_t *Mk = c->M + (size_t)k * c->n * c->n;
    uint8_t s = 0;
    for (unsigned i = 0; i < c->n; i++) {
        uint8_t xi = x[i];
        if (!xi)
            continue;
        s ^= gmul(c->sq[(size_t)k * c->n + i], gmul(xi, xi));
        for (unsigned j = i + 1; j < c->n; j++)
            s ^= gmul(Mk[(size_t)i * c->n + j], gmul(xi, x[j]));
    }
    return s;
}

/* The radical (kernel) of the form with matrix F: its dimension, basis in
 * out (n vectors of n bytes at most). */
static unsigned radical(const brk *c, const uint8_t *F, uint8_t *out)
{
    uint8_t T[MAXN * MAXN];
    memcpy(T, F, (size_t)c->n * c->n);
    return (unsigned)gfla_kernel(c->k, T, c->n, c->n, out, c->n);
}

/* F = the form at point pt (0..256) of the line through c1 and c2 in the
 * span of cnt forms (n x n each): c1 + pt c2 for pt < 256, c2 for 256. */
static void line_form(const brk *c, uint8_t *F, const uint8_t *forms, unsigned cnt,
                      const uint8_t *c1, const uint8_t *c2, unsigned pt)
{
    const size_t nn = (size_t)c->n * c->n;
    memset(F, 0, nn);
    for (unsigned s = 0; s < cnt; s++) {
        uint8_t co = pt < 256 ? c1[s] ^ gmul((uint8_t)pt, c2[s]) : c2[s];
        if (co)
            c->k->madd(F, forms + s * nn, co, nn);
    }
}

/* attempt(): no structure, and no other attempt can find one */
#define NO_STRUCTURE_FINAL 2

static int fail_step(char *err, size_t errlen, const char *what)
{
    chal_fail(err, errlen, "no TTS structure found: %s", what);
    return CHAL_NO_STRUCTURE;
}

void chal_break_shape(const tts_params *p, unsigned *forms, unsigned *rank,
                      unsigned *slice, size_t *unknowns, size_t *equations)
{
    unsigned n = p->n, v = p->v, b = p->b, d = 1;
    /* the fewest forms with at least as many independent equations (n - 1
     * per block: P'(y, u) = 0 for every u of the slice) as unknowns */
    while ((n - 1) * sm_binom(b + d, d - 1) + 1 < (v - 1) * sm_binom(b + d, d))
        d++;
    *forms = b + d;
    *rank = b;
    *slice = v - 1;
    *unknowns = (size_t)(v - 1) * sm_binom(b + d, d);
    *equations = (size_t)n * sm_binom(b + d, d - 1);
}

/* From the radical R1 (d1 vectors) of a candidate layer-1 form: Lambda_1
 * (into L1: a rows of a + 1 coefficients on PF's forms), the forms of
 * Lambda' (PF, a + 1 of them) for which R1 is isotropic, and
 * O', the span of K, x_mu1 and their radicals. 1 if both have their
 * dimensions and O' is isotropic for Lambda_1; 0 if not; -1: no memory. */
static int layer1(brk *c, const uint8_t *PF, const uint8_t *R1, unsigned d1,
                  const gfla_span *Ks, const uint8_t *zmu, uint8_t *L1, gfla_span *Op,
                  unsigned *kmu, chal_break_report *rep)
{
    const unsigned n = c->n, v = c->v, a = c->a;
    const size_t nn = (size_t)n * n;
    uint8_t kb[MAXM * MAXM];
    size_t pairs = (size_t)d1 * (d1 - 1) / 2, row = 0;
    uint8_t *Iso = malloc(pairs * (a + 1) + 1);
    if (!Iso)
        return -1;
    for (unsigned s = 0; s < d1; s++)
        for (unsigned q = s + 1; q < d1; q++, row++)
            for (unsigned f = 0; f < a + 1; f++)
                Iso[row * (a + 1) + f] =
                    bil(c, PF + f * nn, R1 + (size_t)s * n, R1 + (size_t)q * n);
    unsigned dd = (unsigned)gfla_kernel(c->k, Iso, pairs, a + 1, kb, a + 1);
    free(Iso);
    rep->dim_lambda1 = dd;
    if (dd != a)
        return 0;
    uint8_t F1[MAXM * MAXM];
    for (unsigned s = 0; s < a; s++)
        memcpy(F1 + (size_t)s * (a + 1), kb + (size_t)s * (a + 1), a + 1);
    *Op = *Ks;
    gfla_span_add(Op, zmu);
    *kmu = Op->dim;
    for (unsigned tries = 0; tries < 4 * a && Op->dim < n - v + 1; tries++) {
        uint8_t co[MAXM], F[MAXN * MAXN], Rb[MAXN * MAXN];
        if (tries < a)
            memcpy(co, F1 + (size_t)tries * (a + 1), a + 1);
        else {
            uint8_t r[MAXM];
            rnd(c, r, a);
            combine(co, F1, r, a, a + 1);
        }
        memset(F, 0, nn);
        for (unsigned f = 0; f < a + 1; f++)
            if (co[f])
                c->k->madd(F, PF + f * nn, co[f], nn);
        unsigned dr = radical(c, F, Rb);
        for (unsigned s = 0; s < dr; s++)
            gfla_span_add(Op, Rb + (size_t)s * n);
    }
    rep->dim_oprime = Op->dim;
    if (Op->dim != n - v + 1)
        return 0;
    for (unsigned s = 0; s < a; s++) {
        uint8_t F[MAXN * MAXN];
        memset(F, 0, nn);
        for (unsigned f = 0; f < a + 1; f++)
            if (F1[s * (a + 1) + f])
                c->k->madd(F, PF + f * nn, F1[s * (a + 1) + f], nn);
        for (unsigned i = 0; i < Op->dim; i++)
            for (unsigned q = i + 1; q < Op->dim; q++)
                if (bil(c, F, Op->orig[i], Op->orig[q]))
                    return 0;
    }
    memcpy(L1, F1, (size_t)a * (a + 1));
    return 1;
}

/* What an attempt has found so far, step by step. */
typedef struct {
    const chal_break_opts *opt;
    const uint8_t *run_id;
    chal_eqkey *key;
    uint8_t W[MAXN * MAXN];      /* 1: the slice, v - 1 vectors */
    uint8_t u[MAXN];             /* 2: a vector of K */
    uint8_t Lam[MAXM * MAXM];    /* 3: Lambda, a + 2 combinations */
    uint8_t *LF;                 /*    their forms, then Lambda''s (heap) */
    uint8_t Kb[MAXN * MAXN];     /*    K, b + 2 vectors */
    gfla_span Ks;                /*    the same as a span */
    gfla_span O3;                /* 4: layer 3's oil space */
    uint8_t zmu[MAXN];           /* 5: the x_mu1 direction */
    uint8_t Lp[MAXM * MAXM];     /*    Lambda', a + 1 combinations */
    uint8_t L1[MAXM * MAXM];     /* 6: Lambda_1, a combinations */
    gfla_span Op;                /*    O', K + x_mu1 first (kmu vectors) */
    unsigned kmu;
} state;

typedef int step_fn(brk *c, state *s, chal_break_report *rep, char *err, size_t errlen);

/* 1. U_y for a random y, and a random (v - 1)-dimensional slice of it. */
static int step_slice(brk *c, state *s, chal_break_report *rep, char *err, size_t errlen)
{
    const unsigned m = c->m, n = c->n, v = c->v;
    uint8_t y[MAXN], Y[MAXM * MAXN], U[MAXN * MAXN];
    rnd_nonzero(c, y, n);
    for (unsigned k = 0; k < m; k++)
        gfla_matvec(Y + (size_t)k * n, c->M + k * (size_t)n * n, y, n, n);
    rep->dim_uy = (unsigned)gfla_kernel(c->k, Y, m, n, U, n);
    if (rep->dim_uy != v)
        return fail_step(err, errlen, "U_y has an unexpected dimension");
    gfla_span sl;
    gfla_span_init(&sl, n);
    while (sl.dim < v - 1) {
        uint8_t co[MAXN], w[MAXN];
        rnd(c, co, v);
        combine(w, U, co, v, n);
        gfla_span_add(&sl, w);
    }
    for (unsigned i = 0; i < v - 1; i++)
        memcpy(s->W + (size_t)i * n, sl.orig[i], n);
    return CHAL_OK;
}

/* 2. u in K on the slice: MinRank by Support Minors (sm.c). */
static int step_minrank(brk *c, state *s, chal_break_report *rep, char *err, size_t errlen)
{
    const unsigned m = c->m, n = c->n, b = c->b;
    const size_t nn = (size_t)n * n;
    const chal_break_opts *opt = s->opt;
    unsigned mf, rk, cols;
    size_t unk, eqs;
    chal_break_shape(c->p, &mf, &rk, &cols, &unk, &eqs);
    rep->sm_forms = mf;
    rep->sm_rank = rk;
    rep->sm_slice = cols;
    /* A_l[j][i] = (G_l W_i)_j, G_l = sum_k R[l][k] M_k for a random R */
    uint8_t *A = malloc((size_t)mf * n * cols), *MW = malloc((size_t)m * cols * n);
    uint8_t R[64 * MAXM], x[64];
    if (!A || !MW) {
        free(A);
        free(MW);
        return chal_fail(err, errlen, "break: no memory");
    }
    for (unsigned k = 0; k < m; k++)
        for (unsigned i = 0; i < cols; i++)
            gfla_matvec(MW + ((size_t)k * cols + i) * n, c->M + k * nn, s->W + (size_t)i * n,
                        n, n);
    rnd(c, R, (size_t)mf * m);
    for (unsigned l = 0; l < mf; l++)
        for (unsigned j = 0; j < n; j++)
            for (unsigned i = 0; i < cols; i++) {
                uint8_t acc = 0;
                for (unsigned k = 0; k < m; k++)
                    acc ^= gmul(R[l * m + k], MW[((size_t)k * cols + i) * n + j]);
                A[((size_t)l * n + j) * cols + i] = acc;
            }
    free(MW);
    sm_system sys = {.n = n, .mf = mf, .d = mf - b, .cols = cols, .A = A};
    unsigned hw = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    sm_env env = {.k = c->k,
                  .solver = opt ? opt->solver : CHAL_SOLVER_AUTO,
                  .threads = opt && opt->threads ? opt->threads : (hw ? hw : 1),
                  .rng = &c->rng,
                  .progress = opt ? opt->progress : NULL,
                  .progress_ctx = opt ? opt->progress_ctx : NULL,
                  .checkpoint = opt ? opt->checkpoint : NULL,
                  .checkpoint_seconds = opt ? opt->checkpoint_seconds : 0,
                  .run_id = s->run_id,
                  .seed = rep->seed,
                  .pk_id = c->pk_id,
                  .stop_after = opt ? opt->stop_after : 0};
    sm_stats st;
    int r = sm_solve(&sys, &env, x, &st, err, errlen);
    free(A);
    rep->unknowns = st.unknowns;
    rep->equations = st.equations;
    rep->nonzeros = st.nonzeros;
    rep->solver = st.solver;
    rep->threads = st.threads;
    rep->matvecs += st.matvecs;
    rep->resumed |= st.resumed;
    rep->checkpoint_saved |= st.checkpoint_saved;
    if (r < 0)
        return CHAL_ERROR;
    if (r == 0 && st.no_kernel) {
        /* every slice of a TTS key meets K: no other attempt can do better */
        fail_step(err, errlen, "the MinRank system has no solution");
        return NO_STRUCTURE_FINAL;
    }
    /* Wiedemann: a minimal polynomial with a nonzero constant term means
     * that the random start v and projection w saw no kernel. For a TTS
     * key (a kernel exists) that happens only if v has no component in the
     * generalised kernel or w misses it: probability at most 2/256 an
     * attempt. Two such attempts in a row are final (a TTS key refused
     * with probability at most 1/16384), so that a key without the
     * structure is refused in about the time of two sequences, not three. */
    if (r == 0 && st.krylov_no_kernel && ++c->krylov_misses >= 2) {
        fail_step(err, errlen, "the MinRank system has no solution (two Wiedemann "
                               "sequences saw no kernel)");
        return NO_STRUCTURE_FINAL;
    }
    if (r == 0)
        return fail_step(err, errlen, "the MinRank system has no rank-one solution");
    combine(s->u, s->W, x, cols, n);
    return CHAL_OK;
}

/* 3. Lambda, the combinations whose forms send u to 0, and K, the common
 * radical of their forms. */
static int step_lambda_k(brk *c, state *s, chal_break_report *rep, char *err,
                         size_t errlen)
{
    const unsigned m = c->m, n = c->n, a = c->a, b = c->b;
    const size_t nn = (size_t)n * n;
    uint8_t Nu[MAXN * MAXM], NuT[MAXM * MAXN];
    int ok = 1;
    for (unsigned k = 0; k < m; k++)
        gfla_matvec(Nu + (size_t)k * n, c->M + k * nn, s->u, n, n);
    rep->rank_u = (unsigned)gfla_rank(c->k, Nu, m, n, &ok);
    if (!ok)
        return chal_fail(err, errlen, "break: no memory");
    if (rep->rank_u != b)
        return fail_step(err, errlen, "the MinRank solution has the wrong rank");
    for (unsigned k = 0; k < m; k++)
        for (unsigned j = 0; j < n; j++)
            NuT[(size_t)j * m + k] = Nu[(size_t)k * n + j];
    rep->dim_lambda = (unsigned)gfla_kernel(c->k, NuT, n, m, s->Lam, m);
    if (rep->dim_lambda != a + 2)
        return fail_step(err, errlen, "Lambda has the wrong dimension");
    s->LF = malloc(2 * (size_t)(a + 2) * nn);
    uint8_t *stack = malloc((size_t)(a + 2) * nn);
    if (!s->LF || !stack) {
        free(stack);
        return chal_fail(err, errlen, "break: no memory");
    }
    for (unsigned i = 0; i < a + 2; i++)
        form(c, s->LF + i * nn, s->Lam + (size_t)i * m);
    memcpy(stack, s->LF, (size_t)(a + 2) * nn);
    rep->dim_k = (unsigned)gfla_kernel(c->k, stack, (size_t)(a + 2) * n, n, s->Kb, n);
    free(stack);
    if (rep->dim_k != b + 2)
        return fail_step(err, errlen, "the common radical K has the wrong dimension");
    gfla_span_init(&s->Ks, n);
    for (unsigned i = 0; i < b + 2; i++)
        gfla_span_add(&s->Ks, s->Kb + (size_t)i * n);
    return CHAL_OK;
}

/* 4. Layer 3's oil space: restricted to K every form is bilinear between
 * (x_0, x_mu2) and the layer-3 variables, so the kernels of random forms
 * there lie in O and a few of them span it. */
static int step_oil3(brk *c, state *s, chal_break_report *rep, char *err, size_t errlen)
{
    const unsigned m = c->m, n = c->n, b = c->b, kd = b + 2;
    const size_t nn = (size_t)n * n;
    gfla_span_init(&s->O3, n);
    for (unsigned tries = 0; tries < 16 && s->O3.dim < b; tries++) {
        uint8_t lam[MAXM], F[MAXN * MAXN], FK[MAXN], Rk[MAXN * MAXN], kb[MAXN * MAXN];
        rnd(c, lam, m);
        form(c, F, lam);
        for (unsigned i = 0; i < kd; i++) {
            gfla_matvec(FK, F, s->Kb + (size_t)i * n, n, n);
            for (unsigned q = 0; q < kd; q++) {
                uint8_t acc = 0;
                for (unsigned j = 0; j < n; j++)
                    acc ^= gmul(s->Kb[(size_t)q * n + j], FK[j]);
                Rk[q * kd + i] = acc;
            }
        }
        unsigned dd = (unsigned)gfla_kernel(c->k, Rk, kd, kd, kb, kd);
        for (unsigned e = 0; e < dd && e < kd; e++) {
            uint8_t o[MAXN];
            combine(o, s->Kb, kb + (size_t)e * kd, kd, n);
            gfla_span_add(&s->O3, o);
        }
    }
    rep->dim_o3 = s->O3.dim;
    if (s->O3.dim != b)
        return fail_step(err, errlen, "no layer-3 oil space in K");
    /* O is isotropic for every form, squares included */
    for (unsigned k = 0; k < m; k++)
        for (unsigned i = 0; i < b; i++) {
            int bad = quad(c, k, s->O3.orig[i]) != 0;
            for (unsigned q = i + 1; q < b && !bad; q++)
                bad = bil(c, c->M + k * nn, s->O3.orig[i], s->O3.orig[q]) != 0;
            if (bad)
                return fail_step(err, errlen, "the layer-3 oil space is not isotropic");
        }
    return CHAL_OK;
}

/* z is x_mu1's direction if the forms of Lambda sending z to 0 make a
 * hyperplane (Lambda'); then Lambda' into Lp. */
static int is_mu1(brk *c, state *s, const uint8_t *z)
{
    const unsigned m = c->m, n = c->n, a = c->a;
    uint8_t Z[MAXN * MAXM], kb[MAXM * MAXM];
    for (unsigned i = 0; i < a + 2; i++) {
        uint8_t Fz[MAXN];
        gfla_matvec(Fz, s->LF + i * (size_t)n * n, z, n, n);
        for (unsigned j = 0; j < n; j++)
            Z[(size_t)j * (a + 2) + i] = Fz[j];
    }
    if (gfla_kernel(c->k, Z, n, a + 2, kb, a + 2) != a + 1)
        return 0;
    memcpy(s->zmu, z, n);
    for (unsigned i = 0; i < a + 1; i++)
        combine(s->Lp + (size_t)i * m, s->Lam, kb + (size_t)i * (a + 2), a + 2, m);
    return 1;
}

/* 5. x_mu1 and Lambda' = layer 1 + mu1: a line of Lambda meets Lambda'
 * once, at the form whose radical holds x_mu1 beyond K (one vector, or,
 * when that form's rank drops by two, a plane to search). */
static int step_mu1(brk *c, state *s, chal_break_report *rep, char *err, size_t errlen)
{
    const unsigned n = c->n, a = c->a;
    uint8_t c1[MAXM], c2[MAXM];
    rnd(c, c1, a + 2);
    rnd(c, c2, a + 2);
    for (unsigned pt = 0; pt < 257; pt++) {
        uint8_t F[MAXN * MAXN], Rb[MAXN * MAXN], ex[2][MAXN];
        line_form(c, F, s->LF, a + 2, c1, c2, pt);
        rep->line_points++;
        unsigned dr = radical(c, F, Rb), ne = 0;
        gfla_span ext = s->Ks;
        for (unsigned i = 0; i < dr && ne < 3; i++)
            if (gfla_span_add(&ext, Rb + (size_t)i * n)) {
                if (ne < 2)
                    memcpy(ex[ne], Rb + (size_t)i * n, n);
                ne++;
            }
        if (ne < 1 || ne > 2)
            continue;
        for (unsigned q = 0; q < (ne == 1 ? 1u : 257u); q++) {
            uint8_t z[MAXN];
            for (unsigned i = 0; i < n; i++)
                z[i] = ne == 1 ? ex[0][i]
                               : (q < 256 ? ex[0][i] ^ gmul((uint8_t)q, ex[1][i]) : ex[1][i]);
            if (is_mu1(c, s, z))
                return CHAL_OK;
        }
    }
    return fail_step(err, errlen, "no mu1 direction on the line of Lambda");
}

/* 6. Lambda_1 and O': a line of Lambda' meets Lambda_1 once, but other
 * points of rank 2(v - 1) can lie on it too (the Pfaffian has other
 * roots): each candidate is kept only if it leads to an O' of the right
 * dimension, isotropic for the Lambda_1 it gives. */
static int step_layer1(brk *c, state *s, chal_break_report *rep, char *err,
                       size_t errlen)
{
    const unsigned m = c->m, n = c->n, v = c->v, a = c->a;
    const size_t nn = (size_t)n * n;
    uint8_t *PF = s->LF + (size_t)(a + 2) * nn; /* forms of Lambda' */
    uint8_t c1[MAXM], c2[MAXM], R1[MAXN * MAXN], L1c[MAXM * MAXM];
    for (unsigned i = 0; i < a + 1; i++)
        form(c, PF + i * nn, s->Lp + (size_t)i * m);
    rnd(c, c1, a + 1);
    rnd(c, c2, a + 1);
    for (unsigned pt = 0; pt < 257; pt++) {
        uint8_t F[MAXN * MAXN];
        line_form(c, F, PF, a + 1, c1, c2, pt);
        rep->line_points++;
        unsigned d1 = radical(c, F, R1);
        if (d1 < n - 2 * (v - 1) || d1 >= n)
            continue;
        int r = layer1(c, PF, R1, d1, &s->Ks, s->zmu, L1c, &s->Op, &s->kmu, rep);
        if (r < 0)
            return chal_fail(err, errlen, "break: no memory");
        if (r == 1) {
            for (unsigned i = 0; i < a; i++)
                combine(s->L1 + (size_t)i * m, s->Lp, L1c + (size_t)i * (a + 1), a + 1, m);
            return CHAL_OK;
        }
    }
    return fail_step(err, errlen, "no layer-1 form on the line of Lambda'");
}

/* Append to rows (count *nr, len bytes each) the vectors of cand that are
 * outside span, growing span: complements, block by block. */
static void extend(gfla_span *span, uint8_t *rows, unsigned *nr, const uint8_t *cand,
                   unsigned ncand, unsigned len, unsigned want)
{
    for (unsigned i = 0; i < ncand && *nr < want; i++)
        if (gfla_span_add(span, cand + (size_t)i * len))
            memcpy(rows + (size_t)(*nr)++ * len, cand + (size_t)i * len, len);
}

/* 7. The equivalent key, checked by signing eight random digests. */
static int step_key(brk *c, state *s, chal_break_report *rep, char *err, size_t errlen)
{
    const unsigned m = c->m, n = c->n, v = c->v, a = c->a, b = c->b;
    uint8_t cols[MAXN * MAXN], O[MAXN * MAXN], Op[MAXN * MAXN];
    uint8_t unitn[MAXN * MAXN] = {0}, unitm[MAXM * MAXM] = {0};
    unsigned nc = 0;
    for (unsigned i = 0; i < n; i++)
        unitn[(size_t)i * n + i] = 1;
    for (unsigned i = 0; i < m; i++)
        unitm[(size_t)i * m + i] = 1;
    for (unsigned i = 0; i < s->Op.dim; i++)
        memcpy(Op + (size_t)i * n, s->Op.orig[i], n);
    for (unsigned i = 0; i < b; i++)
        memcpy(O + (size_t)i * n, s->O3.orig[i], n);
    /* input blocks V, L, mu1, C, O: each a complement in the next space */
    gfla_span sp = s->Op;
    extend(&sp, cols, &nc, unitn, n, n, v - 1);                    /* V */
    sp = s->Ks;
    gfla_span_add(&sp, s->zmu);
    extend(&sp, cols, &nc, Op + (size_t)s->kmu * n, s->Op.dim - s->kmu, n, v - 1 + a); /* L */
    memcpy(cols + (size_t)nc++ * n, s->zmu, n);                    /* mu1 */
    sp = s->O3;
    extend(&sp, cols, &nc, s->Kb, b + 2, n, v + a + 2);            /* C */
    memcpy(cols + (size_t)nc * n, O, (size_t)b * n);               /* O */
    nc += b;
    if (nc != n)
        return fail_step(err, errlen, "the input blocks do not make a basis");
    chal_eqkey *key = s->key;
    key->p = c->p;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            key->B[(size_t)i * n + j] = cols[(size_t)j * n + i];
    /* equation groups: Lambda_1, Lambda' / Lambda_1, Lambda / Lambda', rest */
    unsigned nr = 0;
    gfla_span es;
    gfla_span_init(&es, m);
    extend(&es, key->T, &nr, s->L1, a, m, a);
    extend(&es, key->T, &nr, s->Lp, a + 1, m, a + 1);
    extend(&es, key->T, &nr, s->Lam, a + 2, m, a + 2);
    extend(&es, key->T, &nr, unitm, m, m, m);
    if (nr != m)
        return fail_step(err, errlen, "the equation groups do not make a basis");
    for (unsigned i = 0; i < 8; i++) {
        uint8_t h[MAXM], sig[MAXN];
        rnd(c, h, m);
        if (chal_eqkey_sign(key, sig, h, tts_stream_rng, &c->rng, NULL, 0) != CHAL_OK ||
            tts_verify_digest(c->p, sig, h, key->pk) != TTS_OK)
            return fail_step(err, errlen, "the recovered key does not sign");
        rep->sign_checks++;
    }
    return CHAL_OK;
}

static step_fn *const steps[CHAL_BREAK_STEPS] = {
    step_slice, step_minrank, step_lambda_k, step_oil3, step_mu1, step_layer1, step_key};

/* One attempt: every step in order; CHAL_OK, CHAL_NO_STRUCTURE (this
 * attempt found none) or CHAL_ERROR. */
static int attempt(brk *c, const chal_break_opts *opt, const uint8_t run_id[32],
                   chal_eqkey *key, chal_break_report *rep, char *err, size_t errlen)
{
    state *s = calloc(1, sizeof *s);
    if (!s)
        return chal_fail(err, errlen, "break: no memory");
    s->opt = opt;
    s->run_id = run_id;
    s->key = key;
    int r = CHAL_OK;
    for (unsigned i = 0; i < CHAL_BREAK_STEPS && r == CHAL_OK; i++) {
        double t = now();
        r = steps[i](c, s, rep, err, errlen);
        rep->seconds[i] += now() - t;
    }
    free(s->LF);
    free(s);
    return r;
}

int chal_checkpoint_check(const tts_params *p, const uint8_t *pk, const char *path,
                          char *err, size_t errlen)
{
    uint8_t id[32];
    if (!p || !pk || !path)
        return chal_fail(err, errlen, "break: missing argument");
    crypto_hash_sha256(id, pk, pk_bytes(p));
    return sm_checkpoint_check(path, id, err, errlen);
}

int chal_break(const tts_params *p, const uint8_t *pk, const chal_break_opts *opt,
               chal_eqkey *key, chal_break_report *rep, char *err, size_t errlen)
{
    chal_break_report local;
    if (!rep)
        rep = &local;
    memset(rep, 0, sizeof *rep);
    if (err && errlen)
        err[0] = 0;
    if (!p || !pk || !key)
        return chal_fail(err, errlen, "break: missing argument");
    if (sodium_init() < 0)
        return chal_fail(err, errlen, "break: libsodium failed to start");
    gfla_init();
    brk c = {.p = p, .k = tts_kernels_get(), .m = p->m, .n = p->n, .v = p->v,
             .a = p->a, .b = p->b};
    size_t nn = (size_t)c.n * c.n;
    c.M = calloc((size_t)c.m * nn, 1);
    c.sq = calloc((size_t)c.m * c.n, 1);
    if (!c.M || !c.sq) {
        free(c.M);
        free(c.sq);
        return chal_fail(err, errlen, "break: no memory");
    }
    for (unsigned i = 0; i < c.n; i++)
        for (unsigned j = i; j < c.n; j++) {
            const uint8_t *blk = pk + pk_mono_index(c.n, i, j) * c.m;
            for (unsigned k = 0; k < c.m; k++) {
                if (i == j)
                    c.sq[(size_t)k * c.n + i] = blk[k];
                else
                    c.M[k * nn + (size_t)i * c.n + j] = c.M[k * nn + (size_t)j * c.n + i] =
                        blk[k];
            }
        }
    memset(key, 0, sizeof *key);
    memcpy(key->pk, pk, pk_bytes(p));
    crypto_hash_sha256(c.pk_id, pk, pk_bytes(p));
    if (opt && opt->checkpoint &&
        sm_checkpoint_check(opt->checkpoint, c.pk_id, err, errlen) == CHAL_ERROR) {
        free(c.M);
        free(c.sq);
        return CHAL_ERROR;
    }
    uint8_t seed[32];
    if (opt && opt->seed)
        memcpy(seed, opt->seed, 32);
    else if (!(opt && opt->checkpoint && sm_checkpoint_seed(opt->checkpoint, seed)))
        randombytes_buf(seed, 32);
    memcpy(rep->seed, seed, 32);
    double t0 = now();
    int ret = CHAL_NO_STRUCTURE;
    for (unsigned att = 0; att < 3; att++) {
        uint8_t run[32], msg[33];
        memcpy(msg, seed, 32);
        msg[32] = (uint8_t)att;
        crypto_hash_sha256(run, msg, sizeof msg);
        tts_stream_init(&c.rng, run);
        rep->attempts = att + 1;
        ret = attempt(&c, opt, run, key, rep, err, errlen);
        tts_stream_wipe(&c.rng);
        if (ret == NO_STRUCTURE_FINAL)
            ret = CHAL_NO_STRUCTURE;
        else if (ret == CHAL_NO_STRUCTURE)
            continue;
        break;
    }
    if (ret == CHAL_OK && err && errlen)
        err[0] = 0; /* an earlier attempt's reason */
    rep->total_seconds = now() - t0;
    free(c.M);
    free(c.sq);
    return ret;
}
