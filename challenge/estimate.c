/* SPDX-License-Identifier: MIT */
/*
 * The security estimator of tts-challenge estimate: models and sources in
 * docs/SECURITY.md. Binomials and powers of q are exact GMP integers;
 * only the final log2 is a double.
 */
#include <math.h>
#include <stdint.h>

#include <gmp.h>

#include "challenge.h"

static double log2_mpz(const mpz_t x)
{
    signed long e;
    double d = mpz_get_d_2exp(&e, x);
    return log2(d) + (double)e;
}

/* c = coefficient of z^d in (1-z^2)^m / (1-z)^nv:
 * sum_i (-1)^i C(m,i) C(nv-1+d-2i, d-2i). */
static void series_coef(mpz_t c, unsigned m, unsigned nv, unsigned d)
{
    mpz_t t, u;

    mpz_inits(t, u, NULL);
    mpz_set_ui(c, 0);
    for (unsigned i = 0; 2 * i <= d && i <= m; i++) {
        unsigned j = d - 2 * i;
        mpz_bin_uiui(t, m, i);
        mpz_bin_uiui(u, nv - 1 + j, j);
        mpz_mul(t, t, u);
        if (i & 1)
            mpz_sub(c, c, t);
        else
            mpz_add(c, c, t);
    }
    mpz_clears(t, u, NULL);
}

/* D_reg of m quadratic equations in nv variables (semi-regular): index of
 * the first non-positive coefficient of (1-z^2)^m / (1-z)^nv. Returns 0 if
 * none below limit (cannot happen for nv <= m). */
unsigned chal_dreg(unsigned m, unsigned nv)
{
    mpz_t c;
    unsigned found = 0;

    mpz_init(c);
    for (unsigned d = 0; d <= 4 * m + 4 && !found; d++) {
        series_coef(c, m, nv, d);
        if (mpz_sgn(c) <= 0)
            found = d;
    }
    mpz_clear(c);
    return found;
}

/* The highest degree an F4-style solver reaches on m semi-regular
 * quadratic equations in nv <= m variables: D_reg if the coefficient of
 * z^D_reg is negative, D_reg + 1 if it is exactly zero (docs/SECURITY.md
 * section 2, measured with Singular's slimgb). 0 if D_reg is 0. */
unsigned chal_solver_degree(unsigned m, unsigned nv)
{
    unsigned d = chal_dreg(m, nv);
    mpz_t c;

    if (d == 0)
        return 0;
    mpz_init(c);
    series_coef(c, m, nv, d);
    unsigned r = mpz_sgn(c) == 0 ? d + 1 : d;
    mpz_clear(c);
    return r;
}

double chal_f4_bits(unsigned m, unsigned nv)
{
    unsigned D = chal_dreg(m, nv);
    mpz_t b;

    mpz_init(b);
    mpz_bin_uiui(b, nv + D, D);
    double bits = 2 * log2_mpz(b);
    mpz_clear(b);
    return bits;
}

/* Hybrid XL/F4 cost of eqs quadratic equations in vars unknowns over
 * GF(256) (docs/SECURITY.md section 3): if vars > eqs, fix vars - eqs of
 * them; then minimise 2^(8k) * C(nv+D, D)^omega over k = 0..nv-1, with
 * nv the unknowns left after guessing k and D = D_reg(eqs, nv). omega 2
 * is computed exactly, omega 2.81 as 8k + 2.81 log2 C. */
void chal_mq_hybrid(unsigned eqs, unsigned vars, chal_hybrid *w2,
                    chal_hybrid *w281)
{
    mpz_t b, cost;
    unsigned nv0 = vars < eqs ? vars : eqs;

    mpz_inits(b, cost, NULL);
    *w2 = *w281 = (chal_hybrid){0, 0, 0, INFINITY};
    for (unsigned k = 0; k < nv0; k++) {
        unsigned nv = nv0 - k, D = chal_dreg(eqs, nv);
        mpz_bin_uiui(b, nv + D, D);
        mpz_mul(cost, b, b);
        mpz_mul_2exp(cost, cost, 8 * k);
        double l2 = log2_mpz(cost);
        double l281 = 8.0 * k + 2.81 * log2_mpz(b);
        if (l2 < w2->bits)
            *w2 = (chal_hybrid){k, nv, D, l2};
        if (l281 < w281->bits)
            *w281 = (chal_hybrid){k, nv, D, l281};
    }
    mpz_clears(b, cost, NULL);
}

/* The TTS central map as a Rainbow-type chain of layers (docs/SECURITY.md
 * section 3): layer 1 (a oil), the middle equations mu1 and mu2 (one oil
 * each) and layer 3 (b oil) over v vinegar variables. For the first g
 * groups, `oil` is the number of equations and `support` the number of
 * variables their quadratic parts involve. */
struct prefix {
    unsigned oil, support;
};

static unsigned tts_prefixes(unsigned v, unsigned a, unsigned b,
                             struct prefix out[4])
{
    /* layer 1: x_1..x_{v-1} times x_v..x_{v+a-1} (x_0 is absent);
     * mu1 stays inside x_1..x_{v+a-1}; mu2 adds x_mu1 = x_{v+a};
     * layer 3 involves all n = v+a+2+b variables. */
    out[0] = (struct prefix){a, v - 1 + a};
    out[1] = (struct prefix){a + 1, v - 1 + a};
    out[2] = (struct prefix){a + 2, v + a};
    out[3] = (struct prefix){a + 2 + b, v + a + 2 + b};
    return 4;
}

/* floor(2^(8e) * num / den) as log2, exactly in GMP. */
static double log2_q_pow_times(unsigned e, unsigned long num,
                               unsigned long den)
{
    mpz_t x;
    mpz_init(x);
    mpz_set_ui(x, num);
    mpz_mul_2exp(x, x, 8 * e);
    mpz_fdiv_q_ui(x, x, den);
    double r = log2_mpz(x);
    mpz_clear(x);
    return r;
}

void chal_structural_attacks(const tts_params *p, chal_structural *s)
{
    unsigned m = tts_params_m(p), n = tts_params_n(p);
    unsigned v = tts_params_v(p), a = tts_params_a(p), b = tts_params_b(p);
    struct prefix g[4];
    unsigned ng = tts_prefixes(v, a, b, g);

    /* MinRank (kernel guessing): a random x lies in the kernel of the
     * polar form of some member of a group's `oil`-dimensional family iff
     * the support x `oil` matrix [M_1 x .. M_oil x] (restricted to the
     * group's `support` variables) has a nonzero kernel. In characteristic
     * 2 every polar form is alternating, x^T M x = 0, so its columns lie in
     * the (support - 1)-dimensional x-perp: probability
     * q^-((support - 1) - oil + 1) = q^-(support - oil). (Odd support: every
     * member has even rank <= support - 1; even support: the singular
     * members, of rank support - 2, form the Pfaffian hypersurface.) */
    s->e_mr = UINT32_MAX;
    for (unsigned i = 0; i < ng; i++) {
        unsigned e = g[i].support - g[i].oil;
        if (e < s->e_mr)
            s->e_mr = e;
    }
    /* q^e * m * (n^2/2 - m^2/6) = q^e * m (3n^2 - m^2) / 6 */
    s->minrank = log2_q_pow_times(s->e_mr, (unsigned long)m * (3ul * n * n - (unsigned long)m * m), 6);
    /* HighRank: the b layer-3 variables appear in the last b equations
     * only: q^b * n^3 / 6. */
    s->e_hr = b;
    s->highrank = log2_q_pow_times(b, (unsigned long)n * n * n, 6);
    /* UOV (Kipnis-Patarin-Goubin) on the last layer, o = b oil in n
     * variables: q^(n - 2b - 1) * b^4. */
    s->e_uov = n - 2 * b - 1;
    s->uov = log2_q_pow_times(s->e_uov, (unsigned long)b * b * b * b, 1);
    /* UOV reconciliation: m equations in n - b unknowns; Rainbow band
     * separation: n + m - 1 equations in n unknowns. */
    chal_mq_hybrid(m, n - b, &s->uovr2, &s->uovr281);
    chal_mq_hybrid(n + m - 1, n, &s->rbs2, &s->rbs281);
}

static void linear_attack(chal_linear_attack *r, unsigned forms_base, unsigned rank,
                          unsigned slice, unsigned rows)
{
    mpz_t lhs, rhs, c;
    mpz_inits(lhs, rhs, c, NULL);
    unsigned d = 1;
    for (;; d++) {
        mpz_bin_uiui(lhs, forms_base + d, d - 1);
        mpz_mul_ui(lhs, lhs, rows);
        mpz_bin_uiui(rhs, forms_base + d, d);
        mpz_mul_ui(rhs, rhs, slice);
        mpz_sub_ui(rhs, rhs, 1);
        if (mpz_cmp(lhs, rhs) >= 0)
            break;
    }
    r->forms = forms_base + d;
    r->rank = rank;
    r->slice = slice;
    r->rows = rows;
    r->d = d;
    r->row_weight = (r->forms - d + 1) * slice;
    mpz_bin_uiui(c, r->forms, d);
    mpz_mul_ui(c, c, slice);
    r->unknowns = mpz_get_ui(c);
    mpz_mul(c, c, c);
    mpz_mul_ui(c, c, 2ul * (r->row_weight + 1));
    r->bits = log2_mpz(c);
    mpz_clears(lhs, rhs, c, NULL);
}

void chal_break_estimates(const tts_params *p, chal_linear_attack *brk,
                          chal_linear_attack *rect)
{
    unsigned n = tts_params_n(p), v = tts_params_v(p), b = tts_params_b(p);
    /* rank b: the layer-3 forms are the only ones that see K */
    linear_attack(brk, b, b, v - 1, n - 1);
    linear_attack(rect, b, b, n - b - 1, n);
}

double chal_exhaustive_bits(const tts_params *p)
{
    mpz_t ex;
    mpz_init(ex);
    mpz_ui_pow_ui(ex, 2, 8 * tts_params_m(p)); /* 2^(8m) evaluations of P */
    double bits = log2_mpz(ex);
    mpz_clear(ex);
    return bits;
}
