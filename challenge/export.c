/* SPDX-License-Identifier: MIT */
/*
 * A challenge system written for real solvers: Singular, Magma, Sage and
 * the Fukuoka MQ Challenge layout (challenge/challenge.h; the encoding in
 * docs/SPEC.md section 13). Every format is over GF(2)[a]/(0x11D) through
 * the isomorphism t -> a^25, and lists the monomials in the same order:
 * w_i w_j (i <= j) by j then i, then w_0 .. w_{N-1}, then 1, the graded
 * reverse lexicographic order with w_0 > w_1 > ... .
 */
#include <stdio.h>
#include <string.h>

#include "challenge.h"

static const struct {
    const char *name, *comment;
} formats[] = {
    [CHAL_FMT_SINGULAR] = {"singular", "//"},
    [CHAL_FMT_MAGMA] = {"magma", "//"},
    [CHAL_FMT_SAGE] = {"sage", "#"},
    [CHAL_FMT_MQ] = {"mq", "#"},
};

int chal_format_parse(const char *name)
{
    for (unsigned f = 0; f < sizeof formats / sizeof formats[0]; f++)
        if (strcmp(name, formats[f].name) == 0)
            return (int)f;
    return -1;
}

const char *chal_format_name(chal_format f)
{
    return formats[f].name;
}

/* ---- the header comment, the same facts in every format ------------------ */

static void header(FILE *o, const chal_system *s, chal_format f,
                   const chal_export_info *in)
{
    const char *c = formats[f].comment;
    const chal_target *t = in->t;
    unsigned m = tts_params_m(t->p), n = tts_params_n(t->p);

    fprintf(o, "%s TTS Challenge system, written by tts-challenge export "
               "(libtts %s)\n", c, tts_version());
    fprintf(o, "%s set %s, message %u, public key SHA-256 %s\n", c,
            tts_params_name(t->p), t->message, t->pk_sha256_hex);
    fprintf(o, "%s digest h = ", c);
    for (unsigned k = 0; k < m; k++)
        fprintf(o, "%02x", t->digest[k]);
    fprintf(o, " (libtts bytes)\n");
    fprintf(o, "%s equations P_k(w) + h_k = 0 (characteristic 2) for k =", c);
    for (unsigned e = 0; e < s->neq; e++)
        fprintf(o, "%s%u", e ? "," : " ", s->eq[e]);
    fprintf(o, " (%u of %u)\n", s->neq, m);
    fprintf(o, "%s unknowns: %u of the %u signature bytes w_0..w_%u, w<i> "
               "standing for w_i\n", c, s->nvar, n, n - 1);
    if (in->fix) {
        unsigned k = 0;
        for (unsigned i = 0; i < n; i++) {
            if (in->fix[i] < 0)
                continue;
            fprintf(o, "%s%sw%u=%02x", k % 8 ? " " : c, k % 8 ? "" : " fixed "
                    "(libtts bytes): ", i, (unsigned)in->fix[i]);
            if (++k % 8 == 0)
                fputc('\n', o);
        }
        if (k % 8)
            fputc('\n', o);
        if (in->fix_origin)
            fprintf(o, "%s fixed values: %s\n", c, in->fix_origin);
    }
    fprintf(o, "%s field: libtts computes in GF(2)[t]/(t^8+t^4+t^3+t+1) "
               "(0x11B), byte bit i = t^i;\n", c);
    fprintf(o, "%s this file is over GF(2)[a]/(a^8+a^4+a^3+a^2+1) (0x11D, "
               "Singular's and the MQ Challenge's),\n", c);
    fprintf(o, "%s through the isomorphism t -> a^%u: libtts byte b = sum "
               "b_i t^i is sum b_i a^(%u i) here.\n", c, CHAL_PHI_T, CHAL_PHI_T);
    fprintf(o, "%s back: the libtts byte of the 0x11D byte y is entry y "
               "(row y/16) of this table:\n", c);
    for (unsigned r = 0; r < 16; r++) {
        fprintf(o, "%s  ", c);
        for (unsigned y = 16 * r; y < 16 * r + 16; y++)
            fprintf(o, " %02x", chal_phi_inv((uint8_t)y));
        fputc('\n', o);
    }
    if (s->nvar == n && s->neq == m)
        fprintf(o, "%s a solution, mapped back to bytes w_0..w_%u, is a "
                   "signature of the message\n", c, n - 1);
}

/* ---- polynomials in the text of a computer-algebra system ----------------- */

/* One coefficient c (libtts byte, nonzero) times a monomial. */
static void term(FILE *o, chal_format f, int *first, unsigned *col, uint8_t c,
                 const char *mono)
{
    int e = chal_phi_log(c);
    const char *pw = f == CHAL_FMT_SAGE ? "**" : "^";

    if (!*first)
        fputc('+', o);
    if (*col >= 8) {
        fputs("\n    ", o);
        *col = 0;
    }
    if (e == 0)
        fputs(*mono ? mono : "1", o);
    else if (e == 1)
        fprintf(o, "a%s%s", *mono ? "*" : "", mono);
    else
        fprintf(o, "a%s%d%s%s", pw, e, *mono ? "*" : "", mono);
    *first = 0;
    (*col)++;
}

static void var_name(char *out, size_t len, const chal_system *s,
                     chal_format f, unsigned i)
{
    (void)f;
    snprintf(out, len, "w%u", s->var[i]);
}

static void poly(FILE *o, const chal_system *s, chal_format f, unsigned e)
{
    size_t nq = (size_t)s->nvar * (s->nvar + 1) / 2;
    const uint8_t *q = s->quad + e * nq, *l = s->lin + (size_t)e * s->nvar;
    const char *pw = f == CHAL_FMT_SAGE ? "**2" : "^2";
    int first = 1;
    unsigned col = 0;
    char mono[48], vi[16], vj[16];

    fputs("  ", o);
    for (unsigned j = 0; j < s->nvar; j++)
        for (unsigned i = 0; i <= j; i++) {
            uint8_t c = q[chal_quad_index(s->nvar, i, j)];
            if (!c)
                continue;
            var_name(vi, sizeof vi, s, f, i);
            var_name(vj, sizeof vj, s, f, j);
            if (i == j)
                snprintf(mono, sizeof mono, "%s%s", vi, pw);
            else
                snprintf(mono, sizeof mono, "%s*%s", vi, vj);
            term(o, f, &first, &col, c, mono);
        }
    for (unsigned i = 0; i < s->nvar; i++)
        if (l[i]) {
            var_name(vi, sizeof vi, s, f, i);
            term(o, f, &first, &col, l[i], vi);
        }
    if (s->cst[e])
        term(o, f, &first, &col, s->cst[e], "");
    if (first)
        fputc('0', o);
}

static void var_list(FILE *o, const chal_system *s, chal_format f)
{
    char v[16];
    for (unsigned i = 0; i < s->nvar; i++) {
        var_name(v, sizeof v, s, f, i);
        fprintf(o, "%s%s", i ? "," : "", v);
    }
}

static void polys(FILE *o, const chal_system *s, chal_format f)
{
    for (unsigned e = 0; e < s->neq; e++) {
        poly(o, s, f, e);
        fputs(e + 1 < s->neq ? ",\n" : "\n", o);
    }
}

/* The computer-algebra formats, one template each: $V the unknowns, $Q
 * the same quoted, $N their number, $T a trailing comma for one unknown
 * (Python's one-tuple), $P the polynomials, one a line. */
static const char *const cas_template[] = {
    [CHAL_FMT_SINGULAR] = "ring r = (2^8,a),($V),dp;\nideal I =\n$P;\n"
                          "// to solve: option(redSB); ideal G = std(I); G;\n",
    [CHAL_FMT_MAGMA] = "P2<z> := PolynomialRing(GF(2));\n"
                       "F<a> := ext<GF(2) | z^8+z^4+z^3+z^2+1>;\n"
                       "R<$V> := PolynomialRing(F, $N, \"grevlex\");\n"
                       "I := ideal<R |\n$P>;\n"
                       "// to solve: Variety(I); (or GroebnerBasis(I);)\n",
    [CHAL_FMT_SAGE] = "# load with load(\"FILE\") in Sage, or exec() it after "
                      "from sage.all import *\n"
                      "F = GF(2**8, 'a', modulus=PolynomialRing(GF(2), 'z')"
                      "([1,0,1,1,1,0,0,0,1]))\n"
                      "a = F.gen()\n"
                      "R = PolynomialRing(F, [$Q], order='degrevlex')\n"
                      "($V$T) = R.gens()\nI = R.ideal([\n$P])\n"
                      "# to solve: I.variety()  (or I.groebner_basis())\n",
};

static void write_cas(FILE *o, const chal_system *s, chal_format f)
{
    char v[16];
    for (const char *c = cas_template[f]; *c; c++) {
        if (*c != '$') {
            fputc(*c, o);
            continue;
        }
        switch (*++c) {
        case 'V':
            var_list(o, s, f);
            break;
        case 'Q':
            for (unsigned i = 0; i < s->nvar; i++) {
                var_name(v, sizeof v, s, f, i);
                fprintf(o, "%s'%s'", i ? "," : "", v);
            }
            break;
        case 'N':
            fprintf(o, "%u", s->nvar);
            break;
        case 'T':
            if (s->nvar == 1)
                fputc(',', o);
            break;
        case 'P':
            polys(o, s, f);
            break;
        }
    }
}

/* The Fukuoka MQ Challenge layout: coefficients as 0x11D bytes in hex. */
static void write_mq(FILE *o, const chal_system *s)
{
    size_t nq = (size_t)s->nvar * (s->nvar + 1) / 2;

    fprintf(o, "Galois Field : GF(2)[x] / x^8 + x^4 + x^3 + x^2 + 1\n"
               "Number of variables (n) : %u\n"
               "Number of equations (m) : %u\n"
               "Seed : 0\n"
               "Order : graded reverse lex order\n\n"
               "*********************\n", s->nvar, s->neq);
    for (unsigned e = 0; e < s->neq; e++) {
        const uint8_t *q = s->quad + e * nq, *l = s->lin + (size_t)e * s->nvar;
        for (unsigned j = 0; j < s->nvar; j++)
            for (unsigned i = 0; i <= j; i++)
                fprintf(o, "%02x ", chal_phi(q[chal_quad_index(s->nvar, i, j)]));
        for (unsigned i = 0; i < s->nvar; i++)
            fprintf(o, "%02x ", chal_phi(l[i]));
        fprintf(o, "%02x ;\n", chal_phi(s->cst[e]));
    }
}

int chal_export_write(FILE *o, const chal_system *s, chal_format f,
                      const chal_export_info *in)
{
    if (in->t)
        header(o, s, f, in);
    if (f == CHAL_FMT_MQ)
        write_mq(o, s);
    else
        write_cas(o, s, f);
    return ferror(o) ? CHAL_ERROR : CHAL_OK;
}
