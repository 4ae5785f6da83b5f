/* SPDX-License-Identifier: MIT */
/*
 * The system P(w) = h of a challenge message as plain polynomial data, and
 * the field map into the solvers' GF(2^8) (challenge/challenge.h,
 * docs/SPEC.md section 13). Public data only: nothing here is secret.
 */
#include <stdlib.h>
#include <string.h>

#include "challenge.h"
#include "gf256.h"

/* ---- the two encodings of GF(2^8) ---------------------------------------- */

/* The tables of the map, made once (they are constants of the field). */
static struct {
    int ready;
    uint8_t to[256], from[256]; /* phi and its inverse, as 0x11D bytes */
    uint8_t exp[255];           /* a^e as a 0x11D byte */
    uint8_t log[256];           /* e with a^e = byte (byte != 0) */
} fm;

static void field_map_init(void)
{
    if (fm.ready)
        return;
    uint8_t x = 1;
    for (unsigned e = 0; e < 255; e++) {
        fm.exp[e] = x;
        fm.log[x] = (uint8_t)e;
        /* times a = 0x02, which generates GF(2)[a]/0x11D */
        x = (uint8_t)((x << 1) ^ (x & 0x80 ? 0x1D : 0));
    }
    /* phi(t^i) = (a^CHAL_PHI_T)^i; phi is GF(2)-linear in the bits */
    uint8_t basis[8];
    for (unsigned i = 0; i < 8; i++)
        basis[i] = fm.exp[(CHAL_PHI_T * i) % 255];
    for (unsigned b = 0; b < 256; b++) {
        uint8_t y = 0;
        for (unsigned i = 0; i < 8; i++)
            if (b >> i & 1)
                y ^= basis[i];
        fm.to[b] = y;
        fm.from[y] = (uint8_t)b;
    }
    fm.ready = 1;
}

uint8_t chal_phi(uint8_t b)
{
    field_map_init();
    return fm.to[b];
}

uint8_t chal_phi_inv(uint8_t y)
{
    field_map_init();
    return fm.from[y];
}

int chal_phi_log(uint8_t b)
{
    field_map_init();
    return b ? fm.log[fm.to[b]] : -1;
}

int chal_phi_from_log(unsigned e)
{
    field_map_init();
    return e < 255 ? fm.from[fm.exp[e]] : -1;
}

/* ---- systems ---------------------------------------------------------------- */

static size_t nquad(unsigned nvar)
{
    return (size_t)nvar * (nvar + 1) / 2;
}

size_t chal_quad_index(unsigned nvar, unsigned i, unsigned j)
{
    return (size_t)i * nvar - (size_t)i * (i - 1) / 2 + (j - i);
}

int chal_system_alloc(chal_system *s, unsigned neq, unsigned nvar)
{
    memset(s, 0, sizeof *s);
    s->neq = neq;
    s->nvar = nvar;
    s->quad = calloc((size_t)neq * nquad(nvar) + 1, 1);
    s->lin = calloc((size_t)neq * nvar + 1, 1);
    s->cst = calloc((size_t)neq + 1, 1);
    s->eq = calloc((size_t)neq + 1, sizeof *s->eq);
    s->var = calloc((size_t)nvar + 1, sizeof *s->var);
    if (!s->quad || !s->lin || !s->cst || !s->eq || !s->var) {
        chal_system_free(s);
        return CHAL_ERROR;
    }
    for (unsigned k = 0; k < neq; k++)
        s->eq[k] = k;
    for (unsigned i = 0; i < nvar; i++)
        s->var[i] = i;
    return CHAL_OK;
}

void chal_system_free(chal_system *s)
{
    free(s->quad);
    free(s->lin);
    free(s->cst);
    free(s->eq);
    free(s->var);
    memset(s, 0, sizeof *s);
}

int chal_system_from_pk(chal_system *s, const tts_params *p, const uint8_t *pk,
                        const uint8_t *digest)
{
    unsigned m = tts_params_m(p), n = tts_params_n(p);
    size_t nq = nquad(n);

    if (chal_system_alloc(s, m, n) != CHAL_OK)
        return CHAL_ERROR;
    s->norig = n;
    /* pk: blocks of m bytes, quadratic monomials then linear (SPEC 5.4) */
    for (unsigned k = 0; k < m; k++) {
        for (size_t q = 0; q < nq; q++)
            s->quad[k * nq + q] = pk[q * m + k];
        for (unsigned i = 0; i < n; i++)
            s->lin[(size_t)k * n + i] = pk[(nq + i) * m + k];
        s->cst[k] = digest[k]; /* P_k(w) + h_k = 0 */
    }
    return CHAL_OK;
}

void chal_system_eval(const chal_system *s, uint8_t *out, const uint8_t *w)
{
    size_t nq = nquad(s->nvar);

    for (unsigned k = 0; k < s->neq; k++) {
        const uint8_t *q = s->quad + k * nq;
        uint8_t acc = s->cst[k];
        for (unsigned i = 0; i < s->nvar; i++) {
            uint8_t row = s->lin[(size_t)k * s->nvar + i];
            for (unsigned j = i; j < s->nvar; j++)
                row ^= gf256_mul(*q++, w[j]);
            acc ^= gf256_mul(row, w[i]);
        }
        out[k] = acc;
    }
}

int chal_system_reduce(chal_system *out, const chal_system *s,
                       const unsigned *keep, unsigned nkeep,
                       const int *fix)
{
    unsigned nfree = 0;
    unsigned *newidx = calloc((size_t)s->nvar + 1, sizeof *newidx);

    if (!newidx)
        return CHAL_ERROR;
    for (unsigned i = 0; i < s->nvar; i++) {
        if (fix && (fix[i] < -1 || fix[i] > 255)) {
            free(newidx);
            return CHAL_ERROR;
        }
        newidx[i] = (!fix || fix[i] < 0) ? nfree++ : UINT32_MAX;
    }
    if (chal_system_alloc(out, nkeep, nfree) != CHAL_OK) {
        free(newidx);
        return CHAL_ERROR;
    }
    out->norig = s->norig;
    for (unsigned i = 0; i < s->nvar; i++)
        if (newidx[i] != UINT32_MAX)
            out->var[newidx[i]] = s->var[i];

    size_t nq = nquad(s->nvar), nq2 = nquad(nfree);
    for (unsigned e = 0; e < nkeep; e++) {
        unsigned k = keep ? keep[e] : e;
        if (k >= s->neq) {
            chal_system_free(out);
            free(newidx);
            return CHAL_ERROR;
        }
        out->eq[e] = s->eq[k];
        const uint8_t *q = s->quad + k * nq;
        uint8_t *q2 = out->quad + e * nq2, *l2 = out->lin + (size_t)e * nfree;
        uint8_t c = s->cst[k];
        for (unsigned i = 0; i < s->nvar; i++) {
            uint8_t li = s->lin[(size_t)k * s->nvar + i];
            unsigned ni = newidx[i];
            if (ni != UINT32_MAX)
                l2[ni] ^= li;
            else
                c ^= gf256_mul(li, (uint8_t)fix[i]);
            for (unsigned j = i; j < s->nvar; j++) {
                uint8_t cij = *q++;
                unsigned nj = newidx[j];
                if (ni != UINT32_MAX && nj != UINT32_MAX)
                    q2[chal_quad_index(nfree, ni, nj)] ^= cij;
                else if (ni != UINT32_MAX)
                    l2[ni] ^= gf256_mul(cij, (uint8_t)fix[j]);
                else if (nj != UINT32_MAX)
                    l2[nj] ^= gf256_mul(cij, (uint8_t)fix[i]);
                else
                    c ^= gf256_mul(gf256_mul(cij, (uint8_t)fix[i]),
                                     (uint8_t)fix[j]);
            }
        }
        out->cst[e] = c;
    }
    free(newidx);
    return CHAL_OK;
}
