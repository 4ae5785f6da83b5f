/* SPDX-License-Identifier: MIT */
/*
 * The parameter table (ref/params.c): names, name parsing, sizes against
 * the formulas and the published figures of docs/SPEC.md section 3, the
 * NIST constants of tts.h, and the central-map term tables against the
 * oracle's own enumeration of the formulas of SPEC section 4.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "oracle.h"

/* SPEC section 3, literally. */
static const struct {
    const char *name;
    unsigned m, n, v, a, b, C;
    size_t sk, pk, sig;
} pub[8] = {
    {"TTS(16,22)", 16, 22, 6, 7, 7, 101, 879, 4400, 22},
    {"TTS(20,26)", 20, 26, 6, 10, 8, 132, 1254, 7540, 26},
    {"TTS(20,28)", 20, 28, 8, 9, 9, 167, 1399, 8680, 28},
    {"TTS(24,32)", 24, 32, 8, 12, 10, 208, 1864, 13440, 32},
    {"TTS(24,34)", 24, 34, 10, 11, 11, 249, 2039, 15096, 34},
    {"TTS(28,38)", 28, 38, 10, 14, 12, 300, 2594, 21812, 38},
    {"TTS(32,44)", 32, 44, 12, 16, 14, 408, 3444, 33088, 44},
    {"TTS(36,50)", 36, 50, 14, 18, 16, 532, 4414, 47700, 50},
};

/* SPEC section 4.6, the index-range table: h, mu1, mu2, c, a-v, the bound
 * of 2(i-j)-(i mod 2), of i-j+c and of the p_{i,0} indices. */
static const struct {
    unsigned h, mu1, mu2, c, amv, lo2, hi2, lo3, hi3, lo0, hi0;
} ranges[8] = {
    {2, 13, 14, 15, 1, 1, 12, 9, 14, 6, 14},
    {2, 16, 17, 18, 4, 1, 14, 11, 17, 6, 15},
    {3, 17, 18, 19, 1, 1, 16, 11, 18, 8, 18},
    {3, 20, 21, 22, 4, 1, 18, 13, 21, 8, 19},
    {4, 21, 22, 23, 1, 1, 20, 13, 22, 10, 22},
    {4, 24, 25, 26, 4, 1, 22, 15, 25, 10, 23},
    {5, 28, 29, 30, 4, 1, 26, 17, 29, 12, 27},
    {6, 32, 33, 34, 4, 1, 30, 19, 33, 14, 31},
};

/* The NIST constants of tts.h. */
static const struct {
    long sk, pk, sig;
} nist[8] = {
    {TTS_16_22_CRYPTO_SECRETKEYBYTES, TTS_16_22_CRYPTO_PUBLICKEYBYTES, TTS_16_22_CRYPTO_BYTES},
    {TTS_20_26_CRYPTO_SECRETKEYBYTES, TTS_20_26_CRYPTO_PUBLICKEYBYTES, TTS_20_26_CRYPTO_BYTES},
    {TTS_20_28_CRYPTO_SECRETKEYBYTES, TTS_20_28_CRYPTO_PUBLICKEYBYTES, TTS_20_28_CRYPTO_BYTES},
    {TTS_24_32_CRYPTO_SECRETKEYBYTES, TTS_24_32_CRYPTO_PUBLICKEYBYTES, TTS_24_32_CRYPTO_BYTES},
    {TTS_24_34_CRYPTO_SECRETKEYBYTES, TTS_24_34_CRYPTO_PUBLICKEYBYTES, TTS_24_34_CRYPTO_BYTES},
    {TTS_28_38_CRYPTO_SECRETKEYBYTES, TTS_28_38_CRYPTO_PUBLICKEYBYTES, TTS_28_38_CRYPTO_BYTES},
    {TTS_32_44_CRYPTO_SECRETKEYBYTES, TTS_32_44_CRYPTO_PUBLICKEYBYTES, TTS_32_44_CRYPTO_BYTES},
    {TTS_36_50_CRYPTO_SECRETKEYBYTES, TTS_36_50_CRYPTO_PUBLICKEYBYTES, TTS_36_50_CRYPTO_BYTES},
};

static const tts_params *set(int i)
{
    const tts_params *p = tts_params_at((size_t)i);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* ---- table and names ------------------------------------------------------ */

START_TEST(test_count)
{
    ck_assert_uint_eq(tts_params_count(), 8);
    ck_assert_ptr_null(tts_params_at(8));
    ck_assert_ptr_null(tts_params_at(1000));
    ck_assert_ptr_null(tts_params_at((size_t)-1));
    for (size_t i = 0; i < 8; i++) {
        ck_assert_ptr_nonnull(tts_params_at(i));
        for (size_t j = 0; j < i; j++)
            ck_assert_ptr_ne(tts_params_at(i), tts_params_at(j));
    }
}
END_TEST

START_TEST(test_names)
{
    const tts_params *p = set(_i);
    char id[32];
    ck_assert_str_eq(tts_params_name(p), pub[_i].name);
    snprintf(id, sizeof id, "tts-%u-%u", pub[_i].m, pub[_i].n);
    ck_assert_str_eq(p->id, id);
    ck_assert_str_eq(tts_params_id(p), id);
    ck_assert_ptr_null(tts_params_name(NULL));
    ck_assert_ptr_null(tts_params_id(NULL));
}
END_TEST

START_TEST(test_get_accepts)
{
    const tts_params *p = set(_i);
    const unsigned m = pub[_i].m, n = pub[_i].n;
    static const char *fmts[] = {
        "TTS(%u,%u)", "tts-%u-%u", "%u,%u", "tts(%u,%u)", "Tts(%u,%u)",
        "TTS-%u-%u", "TtS-%u-%u", " TTS ( %u , %u ) ", "\tTTS(%u,\t%u)\t",
        "  %u ,  %u  ", " t t s - %u - %u ", "T T S(%u,%u)",
        "                                        %u,%u                      ",
    };
    char buf[128];
    ck_assert_ptr_eq(tts_params_get(pub[_i].name), p);
    ck_assert_ptr_eq(tts_params_get(tts_params_name(p)), p);
    ck_assert_ptr_eq(tts_params_get(p->id), p);
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        snprintf(buf, sizeof buf, fmts[f], m, n);
        ck_assert_msg(tts_params_get(buf) == p, "tts_params_get(\"%s\")", buf);
    }
}
END_TEST

/* Malformed or unknown names. The parenthesis is part of the "TTS(m,n)"
 * form: an unbalanced one is malformed. */
static const char *bad_names[] = {
    "", " ", "TTS(20,29)", "TTS(28,20)", "20,29", "tts-20-29", "20,28x",
    "x20,28", "TTS(20,28", "tts(20,28", "TTS(20,28))", "TTS(20,28)x", "(20,28)",
    "20,28)", "tts-20-28)", "tts(20-28", "TTS()", "TTS", "tts", "TTS(",
    "20", "20,", ",28", "20,,28", "20;28", "20.28", "20 28", "2028",
    "TTS(,)", "TTS(20,)", "TTS(,28)", "TTTS(20,28)", "TT(20,28)",
    "TTS(-20,28)", "TTS(20,-28)", "TTS(+20,28)", "TTS(0,0)", "0,0",
    "TTS(16,22)TTS(16,22)", "20,28,", "20,28,30", "TTS((20,28))",
    "tts--20-28", "TTS(20,28)\x01", "20,2 8 0", "TTS)20,28(",
    "TTS(4294967316,28)", "TTS(20,4294967324)",
};
#define NBAD ((int)(sizeof bad_names / sizeof bad_names[0]))

START_TEST(test_get_rejects)
{
    ck_assert_msg(tts_params_get(bad_names[_i]) == NULL,
                  "tts_params_get(\"%s\") accepted", bad_names[_i]);
}
END_TEST

START_TEST(test_get_rejects_other)
{
    char longbuf[2000];
    ck_assert_ptr_null(tts_params_get(NULL));
    /* long inputs are rejected without overrunning anything */
    memset(longbuf, '2', sizeof longbuf - 1);
    longbuf[sizeof longbuf - 1] = '\0';
    ck_assert_ptr_null(tts_params_get(longbuf));
    memset(longbuf, 0, sizeof longbuf);
    for (size_t i = 0; i + 6 < sizeof longbuf; i += 5)
        memcpy(longbuf + i, "20,28", 5);
    ck_assert_ptr_null(tts_params_get(longbuf));
    /* every one of the 8 x 8 cross combinations of m and n that is not a
     * set is unknown */
    for (size_t i = 0; i < 8; i++)
        for (size_t j = 0; j < 8; j++) {
            char buf[32];
            snprintf(buf, sizeof buf, "TTS(%u,%u)", pub[i].m, pub[j].n);
            const tts_params *p = tts_params_get(buf);
            if (pub[j].m == pub[i].m)
                ck_assert_ptr_eq(p, tts_params_at(j));
            else
                ck_assert_msg(p == NULL, "%s accepted", buf);
        }
}
END_TEST

/* ---- sizes and shape -------------------------------------------------------- */

START_TEST(test_sizes)
{
    const tts_params *p = set(_i);
    const unsigned m = tts_params_m(p), n = tts_params_n(p), v = tts_params_v(p);
    const unsigned a = tts_params_a(p), b = tts_params_b(p), C = tts_params_coeffs(p);

    /* shape against the published table */
    ck_assert_uint_eq(m, pub[_i].m);
    ck_assert_uint_eq(n, pub[_i].n);
    ck_assert_uint_eq(v, pub[_i].v);
    ck_assert_uint_eq(a, pub[_i].a);
    ck_assert_uint_eq(b, pub[_i].b);
    ck_assert_uint_eq(C, pub[_i].C);
    /* sizes against the published table */
    ck_assert_uint_eq(tts_sk_bytes(p), pub[_i].sk);
    ck_assert_uint_eq(tts_pk_bytes(p), pub[_i].pk);
    ck_assert_uint_eq(tts_sig_bytes(p), pub[_i].sig);
    ck_assert_uint_eq(tts_digest_bytes(p), m);
    /* and against the formulas */
    ck_assert_uint_eq(C, (a + 2) * (v - 1) + b * (b + 1));
    ck_assert_uint_eq(tts_sk_bytes(p), m * (m + 1) + n * (n + 1) + C);
    ck_assert_uint_eq(tts_pk_bytes(p), m * n * (n + 3) / 2);
    ck_assert_uint_eq(tts_sig_bytes(p), n);
    /* the oracle's formulas agree with the published table too */
    or_shape s;
    ck_assert(or_shape_of(&s, m, n));
    ck_assert_uint_eq(or_coeffs(&s), pub[_i].C);
    ck_assert_uint_eq(or_sk_bytes(&s), pub[_i].sk);
    ck_assert_uint_eq(or_pk_bytes(&s), pub[_i].pk);
    /* secret-key offsets (SPEC 5.2) */
    ck_assert_uint_eq(sk_off_S1(p), 0);
    ck_assert_uint_eq(sk_off_s1(p), m * m);
    ck_assert_uint_eq(sk_off_S3(p), m * (m + 1));
    ck_assert_uint_eq(sk_off_s3(p), m * (m + 1) + n * n);
    ck_assert_uint_eq(sk_off_coef(p), m * (m + 1) + n * (n + 1));
    /* the largest sizes */
    ck_assert_uint_le(m, TTS_MAX_M);
    ck_assert_uint_le(n, TTS_MAX_N);
    ck_assert_uint_le(tts_pk_bytes(p), TTS_MAX_PK_BYTES);
    ck_assert_uint_le(tts_sk_bytes(p), TTS_MAX_SK_BYTES);
    ck_assert_uint_le(tts_sig_bytes(p), TTS_MAX_SIG_BYTES);
}
END_TEST

START_TEST(test_sizes_null)
{
    ck_assert_uint_eq(tts_pk_bytes(NULL), 0);
    ck_assert_uint_eq(tts_sk_bytes(NULL), 0);
    ck_assert_uint_eq(tts_sig_bytes(NULL), 0);
    ck_assert_uint_eq(tts_digest_bytes(NULL), 0);
    ck_assert_uint_eq(tts_params_m(NULL), 0);
    ck_assert_uint_eq(tts_params_n(NULL), 0);
    ck_assert_uint_eq(tts_params_v(NULL), 0);
    ck_assert_uint_eq(tts_params_a(NULL), 0);
    ck_assert_uint_eq(tts_params_b(NULL), 0);
    ck_assert_uint_eq(tts_params_coeffs(NULL), 0);
}
END_TEST

START_TEST(test_max_constants)
{
    /* the TTS_MAX_* constants are the maxima (reached by TTS(36,50)) */
    size_t mm = 0, mn = 0, mpk = 0, msk = 0, msig = 0;
    for (size_t i = 0; i < 8; i++) {
        const tts_params *p = tts_params_at(i);
        mm = tts_params_m(p) > mm ? tts_params_m(p) : mm;
        mn = tts_params_n(p) > mn ? tts_params_n(p) : mn;
        mpk = tts_pk_bytes(p) > mpk ? tts_pk_bytes(p) : mpk;
        msk = tts_sk_bytes(p) > msk ? tts_sk_bytes(p) : msk;
        msig = tts_sig_bytes(p) > msig ? tts_sig_bytes(p) : msig;
    }
    ck_assert_uint_eq(mm, TTS_MAX_M);
    ck_assert_uint_eq(mn, TTS_MAX_N);
    ck_assert_uint_eq(mpk, TTS_MAX_PK_BYTES);
    ck_assert_uint_eq(msk, TTS_MAX_SK_BYTES);
    ck_assert_uint_eq(msig, TTS_MAX_SIG_BYTES);
    ck_assert_uint_eq(TTS_MAX_M, 36);
    ck_assert_uint_eq(TTS_MAX_N, 50);
    ck_assert_uint_eq(TTS_MAX_PK_BYTES, 47700);
    ck_assert_uint_eq(TTS_MAX_SK_BYTES, 4414);
    ck_assert_uint_eq(TTS_MAX_SIG_BYTES, 50);
    ck_assert_uint_eq(TTS_SEED_BYTES, 32);
    ck_assert_uint_eq(TTS_MAX_ATTEMPTS, 1000);
}
END_TEST

START_TEST(test_nist_constants)
{
    ck_assert_int_eq(nist[_i].sk, (long)pub[_i].sk);
    ck_assert_int_eq(nist[_i].pk, (long)pub[_i].pk);
    ck_assert_int_eq(nist[_i].sig, (long)pub[_i].sig);
    ck_assert_int_eq(nist[_i].sk, (long)tts_sk_bytes(set(_i)));
    ck_assert_int_eq(nist[_i].pk, (long)tts_pk_bytes(set(_i)));
    ck_assert_int_eq(nist[_i].sig, (long)tts_sig_bytes(set(_i)));
}
END_TEST

START_TEST(test_shape_relations)
{
    const tts_params *p = set(_i);
    const unsigned m = p->m, n = p->n, v = p->v, a = p->a, b = p->b;
    ck_assert_uint_eq(a + 2 + b, m);
    ck_assert_uint_eq(n - m, v);
    ck_assert_uint_eq(v % 2, 0);
    ck_assert_uint_ge(v, 2);
    /* SPEC 3: b <= a and v < a <= 2v - 1 (sections 4.5 and 4.6 rely on it) */
    ck_assert_uint_le(b, a);
    ck_assert_uint_lt(v, a);
    ck_assert_uint_le(a, 2 * v - 1);
    /* the derived indices of SPEC 4.6 */
    ck_assert_uint_eq((v - 2) / 2, ranges[_i].h);
    ck_assert_uint_eq(v + a, ranges[_i].mu1);
    ck_assert_uint_eq(v + a + 1, ranges[_i].mu2);
    ck_assert_uint_eq(v + a + 2, ranges[_i].c);
    ck_assert_uint_eq(a - v, ranges[_i].amv);
    ck_assert_uint_ge(a - v, 1);
    ck_assert_uint_le(a - v, v - 1);
    /* the layer variables */
    unsigned lo[TTS_LAYERS + 1];
    layer_vars(p, lo);
    ck_assert_uint_eq(lo[0], v);
    ck_assert_uint_eq(lo[1], ranges[_i].mu1);
    ck_assert_uint_eq(lo[2], ranges[_i].mu2);
    ck_assert_uint_eq(lo[3], ranges[_i].c);
    ck_assert_uint_eq(lo[4], n);
}
END_TEST

/* ---- the central-map term table ----------------------------------------------- */

START_TEST(test_terms_counts)
{
    const tts_params *p = set(_i);
    const unsigned v = p->v, a = p->a;
    ck_assert_ptr_nonnull(p->terms);
    ck_assert_ptr_nonnull(p->layer);
    ck_assert_uint_eq(p->layer[0], 0);
    ck_assert_uint_eq(p->layer[1], a * (v - 1));
    ck_assert_uint_eq(p->layer[2], (a + 1) * (v - 1));
    ck_assert_uint_eq(p->layer[3], (a + 2) * (v - 1));
    ck_assert_uint_eq(p->layer[4], p->coeffs);
    ck_assert_uint_eq(p->layer[4], pub[_i].C);
    for (unsigned L = 0; L < TTS_LAYERS; L++)
        ck_assert_uint_lt(p->layer[L], p->layer[L + 1]);
}
END_TEST

START_TEST(test_terms_layering)
{
    /* every index in range; each layer's rows are its variables; every term
     * pairs an already-known x_u with an already-known or own-layer x_w; so
     * no product of two new variables, and each layer is linear in its own
     * variables once the earlier ones are fixed */
    const tts_params *p = set(_i);
    unsigned lo[TTS_LAYERS + 1];
    unsigned per_row[TTS_MAX_N] = {0};
    layer_vars(p, lo);
    for (unsigned L = 0; L < TTS_LAYERS; L++)
        for (unsigned t = p->layer[L]; t < p->layer[L + 1]; t++) {
            const tts_term *T = &p->terms[t];
            ck_assert_msg(T->row >= lo[L] && T->row < lo[L + 1],
                          "term %u: row %u outside layer %u", t, T->row, L);
            ck_assert_msg(T->u < p->n && T->w < p->n, "term %u: index out of range", t);
            ck_assert_msg(T->u < lo[L], "term %u: u = %u not yet known in layer %u", t, T->u, L);
            ck_assert_msg(T->w < lo[L + 1], "term %u: w = %u beyond layer %u", t, T->w, L);
            ck_assert_msg(!(T->u >= lo[L] && T->w >= lo[L]),
                          "term %u: product of two new variables", t);
            per_row[T->row]++;
        }
    /* layers 2 and 3 (mu1, mu2) hold one row each, v-1 terms; layer-1 rows
     * v-1 terms; layer-3 rows b+1 terms */
    for (unsigned r = 0; r < p->n; r++) {
        unsigned want = r < p->v ? 0 : r < lo[3] ? p->v - 1u : p->b + 1u;
        ck_assert_msg(per_row[r] == want, "row %u has %u terms, want %u", r, per_row[r], want);
    }
    /* the mu layers contain no own variable: their matrix is 1 */
    for (unsigned L = 1; L <= 2; L++)
        for (unsigned t = p->layer[L]; t < p->layer[L + 1]; t++)
            ck_assert_uint_lt(p->terms[t].w, lo[L]);
}
END_TEST

START_TEST(test_terms_match_oracle)
{
    const tts_params *p = set(_i);
    or_shape s;
    or_term ot[600];
    unsigned start[5];
    ck_assert(or_shape_of(&s, p->m, p->n));
    unsigned cnt = or_terms(&s, ot, 600, start);
    ck_assert_uint_eq(cnt, p->coeffs);
    for (unsigned L = 0; L <= TTS_LAYERS; L++)
        ck_assert_uint_eq(start[L], p->layer[L]);
    /* the oracle knows, from SPEC 5.2, which coefficient each product uses;
     * the library's term t uses coefficient t */
    unsigned used[600] = {0};
    for (unsigned i = 0; i < cnt; i++) {
        ck_assert_uint_lt(ot[i].coef, cnt);
        used[ot[i].coef]++;
        const tts_term *T = &p->terms[ot[i].coef];
        ck_assert_msg(T->row == ot[i].row && T->u == ot[i].u && T->w == ot[i].w,
                      "coefficient %u: library {%u,%u,%u}, spec {%u,%u,%u}", ot[i].coef,
                      T->row, T->u, T->w, ot[i].row, ot[i].u, ot[i].w);
        ck_assert_uint_ge(ot[i].coef, p->layer[ot[i].layer]);
        ck_assert_uint_lt(ot[i].coef, p->layer[ot[i].layer + 1]);
    }
    for (unsigned i = 0; i < cnt; i++)
        ck_assert_uint_eq(used[i], 1);
}
END_TEST

START_TEST(test_terms_distinct_monomials)
{
    /* within one equation no monomial x_u x_w appears twice (each p is the
     * coefficient of its own product) */
    const tts_params *p = set(_i);
    for (unsigned t = 0; t < p->coeffs; t++)
        for (unsigned t2 = t + 1; t2 < p->coeffs; t2++) {
            const tts_term *A = &p->terms[t], *B = &p->terms[t2];
            if (A->row != B->row)
                continue;
            ck_assert_msg(!((A->u == B->u && A->w == B->w) || (A->u == B->w && A->w == B->u)),
                          "terms %u and %u: the same monomial in row %u", t, t2, A->row);
        }
}
END_TEST

START_TEST(test_terms_diagonals)
{
    /* SPEC 4.5: every layer-1 row i holds p_{i,a-v} x_{a-v} x_i at position
     * (i-v)(v-1) + (a-v-1); every layer-3 row i holds p_{i,i-c+1} x_0 x_i */
    const tts_params *p = set(_i);
    const unsigned v = p->v, a = p->a, b = p->b, c = v + a + 2;
    for (unsigned i = v; i < v + a; i++) {
        const tts_term *T = &p->terms[(i - v) * (v - 1) + (a - v - 1)];
        ck_assert_uint_eq(T->row, i);
        ck_assert_uint_eq(T->u, a - v);
        ck_assert_uint_eq(T->w, i);
        unsigned found = 0;
        for (unsigned t = p->layer[0]; t < p->layer[1]; t++)
            found += p->terms[t].row == i && p->terms[t].w == i;
        ck_assert_uint_eq(found, 1);
    }
    for (unsigned i = c; i < p->n; i++) {
        const tts_term *T = &p->terms[p->layer[3] + (i - c) * (b + 1) + (i - c + 1)];
        ck_assert_uint_eq(T->row, i);
        ck_assert_uint_eq(T->u, 0);
        ck_assert_uint_eq(T->w, i);
    }
    /* SPEC 4.5: mu2 depends on mu1 through x_{a+1} x_mu1 (k = 0 of the
     * second sum, the (h+1)-th coefficient) */
    const tts_term *T = &p->terms[p->layer[2] + (v - 2) / 2];
    ck_assert_uint_eq(T->row, v + a + 1);
    ck_assert_uint_eq(T->u, a + 1);
    ck_assert_uint_eq(T->w, v + a);
    /* and b = a: the last p_{i,0} product is x_{mu1-1} x_mu2 */
    if (a == b) {
        T = &p->terms[p->layer[3] + (b - 1) * (b + 1)];
        ck_assert_uint_eq(T->row, p->n - 1);
        ck_assert_uint_eq(T->u, v + a - 1);
        ck_assert_uint_eq(T->w, v + a + 1);
    }
}
END_TEST

START_TEST(test_terms_index_ranges)
{
    /* the layer-3 index ranges of the SPEC 4.6 table */
    const tts_params *p = set(_i);
    const unsigned b = p->b, c = p->v + p->a + 2;
    unsigned min2 = 99, max2 = 0, min3 = 99, max3 = 0, min0 = 99, max0 = 0;
    for (unsigned t = p->layer[3]; t < p->layer[4]; t++) {
        const tts_term *T = &p->terms[t];
        unsigned k = (t - p->layer[3]) % (b + 1); /* p_{i,k} */
        ck_assert_uint_eq(T->row, c + (t - p->layer[3]) / (b + 1));
        if (k == 0) {
            min0 = T->u < min0 ? T->u : min0;
            max0 = T->w > max0 ? T->w : max0;
            ck_assert_uint_eq(T->w, T->u + 2);
            continue;
        }
        unsigned j = c + k - 1;
        ck_assert_uint_eq(T->w, j);
        if (j < T->row) {
            min2 = T->u < min2 ? T->u : min2;
            max2 = T->u > max2 ? T->u : max2;
        } else if (j > T->row) {
            min3 = T->u < min3 ? T->u : min3;
            max3 = T->u > max3 ? T->u : max3;
        } else {
            ck_assert_uint_eq(T->u, 0);
        }
    }
    /* 2(i-j)-(i mod 2) lies in 1..2b-2 (the table's bound; the parity term
     * can keep the top value from being reached) */
    ck_assert_uint_eq(min2, ranges[_i].lo2);
    ck_assert_uint_le(max2, ranges[_i].hi2);
    ck_assert_uint_ge(max2 + 1, ranges[_i].hi2);
    ck_assert_uint_eq(ranges[_i].hi2, 2 * b - 2);
    ck_assert_uint_lt(ranges[_i].hi2, c);
    ck_assert_uint_eq(min3, ranges[_i].lo3);
    ck_assert_uint_eq(max3, ranges[_i].hi3);
    ck_assert_uint_eq(min0, ranges[_i].lo0);
    ck_assert_uint_eq(max0, ranges[_i].hi0);
    ck_assert_uint_le(max0, ranges[_i].mu2);
}
END_TEST

START_TEST(test_oracle_terms_vs_oracle_central)
{
    /* oracle self-consistency: with only coefficient t set to 1, the
     * oracle's F is x_row + x_u x_w in the row of its term t, identity
     * elsewhere; so the enumeration and the evaluator read SPEC alike */
    or_shape s;
    or_term ot[600];
    unsigned start[5];
    uint8_t coef[600], x[50], y[36];
    or_prng r;
    ck_assert(or_shape_at(&s, (unsigned)_i));
    unsigned cnt = or_terms(&s, ot, 600, start);
    ck_assert_uint_eq(cnt, or_coeffs(&s));
    or_prng_seed(&r, 0x7465726d + (uint64_t)_i);
    for (unsigned i = 0; i < cnt; i++) {
        memset(coef, 0, sizeof coef);
        coef[ot[i].coef] = 1;
        or_prng_bytes(&r, x, s.n);
        or_central(&s, y, x, coef);
        for (unsigned k = 0; k < s.m; k++) {
            uint8_t want = x[s.v + k];
            if (s.v + k == ot[i].row)
                want ^= or_mul(x[ot[i].u], x[ot[i].w]);
            CHECKM(y[k] == want, "term %u output %u", i, k);
        }
    }
}
END_TEST

static Suite *params_suite(void)
{
    Suite *s = suite_create("params");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_count);
    tcase_add_loop_test(tc, test_names, 0, 8);
    tcase_add_loop_test(tc, test_get_accepts, 0, 8);
    tcase_add_loop_test(tc, test_get_rejects, 0, NBAD);
    tcase_add_test(tc, test_get_rejects_other);
    tcase_add_loop_test(tc, test_sizes, 0, 8);
    tcase_add_test(tc, test_sizes_null);
    tcase_add_test(tc, test_max_constants);
    tcase_add_loop_test(tc, test_nist_constants, 0, 8);
    tcase_add_loop_test(tc, test_shape_relations, 0, 8);
    suite_add_tcase(s, tc);

    tc = tcase_create("terms");
    tcase_add_loop_test(tc, test_terms_counts, 0, 8);
    tcase_add_loop_test(tc, test_terms_layering, 0, 8);
    tcase_add_loop_test(tc, test_terms_match_oracle, 0, 8);
    tcase_add_loop_test(tc, test_terms_distinct_monomials, 0, 8);
    tcase_add_loop_test(tc, test_terms_diagonals, 0, 8);
    tcase_add_loop_test(tc, test_terms_index_ranges, 0, 8);
    tcase_add_loop_test(tc, test_oracle_terms_vs_oracle_central, 0, 8);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(params_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
