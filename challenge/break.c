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

/* One attempt; CHAL_OK, CHAL_NO_STRUCTURE (this attempt found none), or
 * CHAL_ERROR. */
static int attempt(brk *c, const chal_break_opts *opt, const uint8_t run_id[32],
                   chal_eqkey *key, chal_break_report *rep, char *err, size_t errlen)
{
    const unsigned m = c->m, n = c->n, v = c->v, a = c->a, b = c->b;
    const size_t nn = (size_t)n * n;
    uint8_t y[MAXN], U[MAXN * MAXN], W[MAXN * MAXN], T[MAXN * MAXN * 2];
    uint8_t x[64], u[MAXN];
    double t = now();
    int ret = CHAL_NO_STRUCTURE;
    uint8_t *LF = NULL, *A = NULL;

    /* 1. the slice */
    rnd_nonzero(c, y, n);
    for (unsigned k = 0; k < m; k++)
        gfla_matvec(T + (size_t)k * n, c->M + k * nn, y, n, n);
    unsigned du = (unsigned)gfla_kernel(c->k, T, m, n, U, n);
    rep->dim_uy = du;
    if (du != v)
        return fail_step(err, errlen, "U_y has an unexpected dimension");
    {
        gfla_span s;
        gfla_span_init(&s, n);
        while (s.dim < v - 1) {
            uint8_t co[MAXN], w[MAXN];
            rnd(c, co, v);
            combine(w, U, co, v, n);
            gfla_span_add(&s, w);
        }
        for (unsigned i = 0; i < v - 1; i++)
            memcpy(W + (size_t)i * n, s.orig[i], n);
    }
    rep->seconds[0] += now() - t;
    t = now();

    /* 2. MinRank by Support Minors */
    unsigned mf, rk, cols;
    size_t unk, eqs;
    chal_break_shape(c->p, &mf, &rk, &cols, &unk, &eqs);
    rep->sm_forms = mf;
    rep->sm_rank = rk;
    rep->sm_slice = cols;
    A = malloc((size_t)mf * n * cols);
    uint8_t *MW = malloc((size_t)m * cols * n), R[64 * MAXM];
    if (!A || !MW) {
        free(A);
        free(MW);
        return chal_fail(err, errlen, "break: no memory");
    }
    for (unsigned k = 0; k < m; k++)
        for (unsigned i = 0; i < cols; i++)
            gfla_matvec(MW + ((size_t)k * cols + i) * n, c->M + k * nn, W + (size_t)i * n, n, n);
    rnd(c, R, (size_t)mf * m);
    for (unsigned l = 0; l < mf; l++)
        for (unsigned j = 0; j < n; j++)
            for (unsigned i = 0; i < cols; i++) {
                uint8_t s = 0;
                for (unsigned k = 0; k < m; k++)
                    s ^= gmul(R[l * m + k], MW[((size_t)k * cols + i) * n + j]);
                A[((size_t)l * n + j) * cols + i] = s;
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
                  .run_id = run_id,
                  .seed = rep->seed,
                  .stop_after = opt ? opt->stop_after : 0};
    sm_stats st;
    int r = sm_solve(&sys, &env, x, &st, err, errlen);
    free(A);
    A = NULL;
    rep->unknowns = st.unknowns;
    rep->equations = st.equations;
    rep->nonzeros = st.nonzeros;
    rep->solver = st.solver;
    rep->threads = st.threads;
    rep->matvecs += st.matvecs;
    rep->resumed |= st.resumed;
    rep->seconds[1] += now() - t;
    t = now();
    if (r < 0)
        return CHAL_ERROR;
    if (r == 0)
        return fail_step(err, errlen, "the MinRank system has no rank-one solution");
    combine(u, W, x, cols, n);

    /* 3. Lambda and K */
    uint8_t Nu[MAXN * MAXM], NuT[MAXM * MAXN];
    for (unsigned k = 0; k < m; k++)
        gfla_matvec(Nu + (size_t)k * n, c->M + k * nn, u, n, n);
    int ok = 1;
    rep->rank_u = (unsigned)gfla_rank(c->k, Nu, m, n, &ok);
    if (rep->rank_u != b)
        return fail_step(err, errlen, "the MinRank solution has the wrong rank");
    for (unsigned k = 0; k < m; k++)
        for (unsigned j = 0; j < n; j++)
            NuT[(size_t)j * m + k] = Nu[(size_t)k * n + j];
    uint8_t Lam[MAXM * MAXM];
    unsigned dl = (unsigned)gfla_kernel(c->k, NuT, n, m, Lam, m);
    rep->dim_lambda = dl;
    if (dl != a + 2)
        return fail_step(err, errlen, "Lambda has the wrong dimension");
    LF = malloc((size_t)(a + 2) * nn + (size_t)(a + 2) * nn + 1);
    uint8_t *stack = malloc((size_t)(a + 2) * nn + 1);
    if (!LF || !stack) {
        free(LF);
        free(stack);
        return chal_fail(err, errlen, "break: no memory");
    }
    for (unsigned s = 0; s < a + 2; s++)
        form(c, LF + s * nn, Lam + (size_t)s * m);
    memcpy(stack, LF, (size_t)(a + 2) * nn);
    uint8_t Kb[MAXN * MAXN];
    unsigned dk = (unsigned)gfla_kernel(c->k, stack, (size_t)(a + 2) * n, n, Kb, n);
    free(stack);
    rep->dim_k = dk;
    if (dk != b + 2) {
        ret = fail_step(err, errlen, "the common radical K has the wrong dimension");
        goto out;
    }
    rep->seconds[2] += now() - t;
    t = now();

    /* 4. layer 3's oil space O inside K */
    gfla_span O3;
    gfla_span_init(&O3, n);
    for (unsigned tries = 0; tries < 16 && O3.dim < b; tries++) {
        uint8_t lam[MAXM], F[MAXN * MAXN], FK[MAXN], Rk[MAXN * MAXN], kb[MAXN * MAXN];
        unsigned kd = b + 2;
        rnd(c, lam, m);
        form(c, F, lam);
        for (unsigned s = 0; s < kd; s++) {
            gfla_matvec(FK, F, Kb + (size_t)s * n, n, n);
            for (unsigned q = 0; q < kd; q++) {
                uint8_t acc = 0;
                for (unsigned i = 0; i < n; i++)
                    acc ^= gmul(Kb[(size_t)q * n + i], FK[i]);
                Rk[q * kd + s] = acc;
            }
        }
        unsigned dd = (unsigned)gfla_kernel(c->k, Rk, kd, kd, kb, kd);
        for (unsigned e = 0; e < dd && e < kd; e++) {
            uint8_t o[MAXN];
            combine(o, Kb, kb + (size_t)e * kd, kd, n);
            gfla_span_add(&O3, o);
        }
    }
    rep->dim_o3 = O3.dim;
    if (O3.dim != b) {
        ret = fail_step(err, errlen, "no layer-3 oil space in K");
        goto out;
    }
    for (unsigned k = 0; k < m; k++)
        for (unsigned s = 0; s < b; s++) {
            if (quad(c, k, O3.orig[s])) {
                ret = fail_step(err, errlen, "the layer-3 oil space is not isotropic");
                goto out;
            }
            for (unsigned q = s + 1; q < b; q++)
                if (bil(c, c->M + k * nn, O3.orig[s], O3.orig[q])) {
                    ret = fail_step(err, errlen, "the layer-3 oil space is not isotropic");
                    goto out;
                }
        }
    rep->seconds[3] += now() - t;
    t = now();

    /* 5. Lambda' and x_mu1: a line of Lambda meets Lambda' once */
    gfla_span Ks;
    gfla_span_init(&Ks, n);
    for (unsigned s = 0; s < b + 2; s++)
        gfla_span_add(&Ks, Kb + (size_t)s * n);
    uint8_t zmu[MAXN], Lp[MAXM * MAXM];
    unsigned found = 0;
    {
        uint8_t c1[MAXM], c2[MAXM];
        rnd(c, c1, a + 2);
        rnd(c, c2, a + 2);
        for (unsigned pt = 0; pt < 257 && !found; pt++) {
            uint8_t F[MAXN * MAXN], Rb[MAXN * MAXN];
            line_form(c, F, LF, a + 2, c1, c2, pt);
            rep->line_points++;
            unsigned dr = radical(c, F, Rb);
            gfla_span ext = Ks;
            uint8_t ex[2][MAXN];
            unsigned ne = 0;
            for (unsigned s = 0; s < dr && ne < 3; s++)
                if (gfla_span_add(&ext, Rb + (size_t)s * n)) {
                    if (ne < 2)
                        memcpy(ex[ne], Rb + (size_t)s * n, n);
                    ne++;
                }
            if (ne < 1 || ne > 2)
                continue;
            for (unsigned q = 0; q < (ne == 1 ? 1u : 257u) && !found; q++) {
                uint8_t z[MAXN], Z[MAXN * MAXM];
                for (unsigned i = 0; i < n; i++)
                    z[i] = ne == 1 ? ex[0][i]
                                   : (q < 256 ? ex[0][i] ^ gmul((uint8_t)q, ex[1][i]) : ex[1][i]);
                for (unsigned s = 0; s < a + 2; s++) {
                    uint8_t Fz[MAXN];
                    gfla_matvec(Fz, LF + s * nn, z, n, n);
                    for (unsigned j = 0; j < n; j++)
                        Z[(size_t)j * (a + 2) + s] = Fz[j];
                }
                uint8_t kb[MAXM * MAXM];
                unsigned dd = (unsigned)gfla_kernel(c->k, Z, n, a + 2, kb, a + 2);
                if (dd != a + 1)
                    continue;
                memcpy(zmu, z, n);
                for (unsigned s = 0; s < a + 1; s++)
                    combine(Lp + (size_t)s * m, Lam, kb + (size_t)s * (a + 2), a + 2, m);
                found = 1;
            }
        }
    }
    if (!found) {
        ret = fail_step(err, errlen, "no mu1 direction on the line of Lambda");
        goto out;
    }
    rep->seconds[4] += now() - t;
    t = now();

    /* 6. Lambda_1 and O': a line of Lambda' meets Lambda_1 once, but other
     * points of rank 2(v - 1) can lie on it too (the Pfaffian has other
     * roots): each candidate is kept only if it leads to an O' of the
     * right dimension, isotropic for the Lambda_1 it gives */
    uint8_t *PF = LF + (size_t)(a + 2) * nn; /* forms of Lambda' */
    for (unsigned s = 0; s < a + 1; s++)
        form(c, PF + s * nn, Lp + (size_t)s * m);
    uint8_t L1[MAXM * MAXM], L1c[MAXM * MAXM];
    gfla_span Op;
    unsigned kmu = 0;
    found = 0;
    {
        uint8_t c1[MAXM], c2[MAXM], R1[MAXN * MAXN];
        rnd(c, c1, a + 1);
        rnd(c, c2, a + 1);
        for (unsigned pt = 0; pt < 257 && !found; pt++) {
            uint8_t F[MAXN * MAXN];
            line_form(c, F, PF, a + 1, c1, c2, pt);
            rep->line_points++;
            unsigned d1 = radical(c, F, R1);
            if (d1 < n - 2 * (v - 1) || d1 >= n)
                continue;
            int r6 = layer1(c, PF, R1, d1, &Ks, zmu, L1c, &Op, &kmu, rep);
            if (r6 < 0) {
                ret = chal_fail(err, errlen, "break: no memory");
                goto out;
            }
            found = r6 == 1;
        }
    }
    if (!found) {
        ret = fail_step(err, errlen, "no layer-1 form on the line of Lambda'");
        goto out;
    }
    for (unsigned s = 0; s < a; s++)
        combine(L1 + (size_t)s * m, Lp, L1c + (size_t)s * (a + 1), a + 1, m);
    rep->seconds[5] += now() - t;
    t = now();

    /* 7. the equivalent key: input blocks V, L, mu1, C, O as columns of B */
    {
        uint8_t cols_[MAXN][MAXN];
        unsigned nc = 0;
        gfla_span all = Op;
        for (unsigned i = 0; i < n && nc < v - 1; i++) {
            uint8_t e[MAXN] = {0};
            e[i] = 1;
            if (gfla_span_add(&all, e))
                memcpy(cols_[nc++], e, n);
        }
        gfla_span km = Ks;
        gfla_span_add(&km, zmu);
        for (unsigned i = kmu; i < Op.dim; i++)
            if (gfla_span_add(&km, Op.orig[i]))
                memcpy(cols_[nc++], Op.orig[i], n);
        memcpy(cols_[nc++], zmu, n);
        gfla_span oc = O3;
        for (unsigned s = 0; s < b + 2; s++)
            if (gfla_span_add(&oc, Kb + (size_t)s * n))
                memcpy(cols_[nc++], Kb + (size_t)s * n, n);
        for (unsigned s = 0; s < b; s++)
            memcpy(cols_[nc++], O3.orig[s], n);
        if (nc != n) {
            ret = fail_step(err, errlen, "the input blocks do not make a basis");
            goto out;
        }
        key->p = c->p;
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = 0; j < n; j++)
                key->B[(size_t)i * n + j] = cols_[j][i];
        /* equation groups: Lambda_1, Lambda' \ Lambda_1, Lambda \ Lambda', rest */
        unsigned nr = 0;
        gfla_span es;
        gfla_span_init(&es, m);
        for (unsigned s = 0; s < a; s++)
            if (gfla_span_add(&es, L1 + (size_t)s * m))
                memcpy(key->T + (size_t)nr++ * m, L1 + (size_t)s * m, m);
        for (unsigned s = 0; s < a + 1 && nr < a + 1; s++)
            if (gfla_span_add(&es, Lp + (size_t)s * m))
                memcpy(key->T + (size_t)nr++ * m, Lp + (size_t)s * m, m);
        for (unsigned s = 0; s < a + 2 && nr < a + 2; s++)
            if (gfla_span_add(&es, Lam + (size_t)s * m))
                memcpy(key->T + (size_t)nr++ * m, Lam + (size_t)s * m, m);
        for (unsigned i = 0; i < m && nr < m; i++) {
            uint8_t e[MAXM] = {0};
            e[i] = 1;
            if (gfla_span_add(&es, e))
                memcpy(key->T + (size_t)nr++ * m, e, m);
        }
        if (nr != m) {
            ret = fail_step(err, errlen, "the equation groups do not make a basis");
            goto out;
        }
    }
    /* checked by signing */
    for (unsigned s = 0; s < 8; s++) {
        uint8_t h[MAXM], sig[MAXN];
        char e2[128];
        rnd(c, h, m);
        if (chal_eqkey_sign(key, sig, h, tts_stream_rng, &c->rng, e2, sizeof e2) != CHAL_OK ||
            tts_verify_digest(c->p, sig, h, key->pk) != TTS_OK) {
            ret = fail_step(err, errlen, "the recovered key does not sign");
            goto out;
        }
        rep->sign_checks++;
    }
    rep->seconds[6] += now() - t;
    ret = CHAL_OK;
out:
    free(LF);
    return ret;
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
        if (ret != CHAL_NO_STRUCTURE)
            break;
    }
    rep->total_seconds = now() - t0;
    free(c.M);
    free(c.sq);
    return ret;
}
