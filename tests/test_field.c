/* SPDX-License-Identifier: MIT */
/*
 * GF(256) arithmetic (ref/gf256.h) and the kernels of ref/kernels_ref.c,
 * checked against the naive oracle (tests/oracle.c) and against the test
 * values of docs/SPEC.md section 2.1.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gf256.h"
#include "internal.h"
#include "oracle.h"

/* The kernels under test: the reference table itself and whatever the
 * backend selection picks (the same table in a ref-only build). */
static const tts_kernels *kern(int i)
{
    return i == 0 ? &tts_kernels_ref : tts_kernels_get();
}

/* ---- field ------------------------------------------------------------- */

START_TEST(test_spec_vectors)
{
    /* SPEC 2.1, for the library and for the oracle alike */
    CHECK_EQ(gf256_mul(0x57, 0x83), 0xC1);
    CHECK_EQ(gf256_mul(0x57, 0x13), 0xFE);
    CHECK_EQ(gf256_inv(0x53), 0xCA);
    CHECK_EQ(or_mul(0x57, 0x83), 0xC1);
    CHECK_EQ(or_mul(0x57, 0x13), 0xFE);
    CHECK_EQ(or_inv(0x53), 0xCA);
    /* t^8 = t^4 + t^3 + t + 1 */
    CHECK_EQ(gf256_mul(0x80, 0x02), 0x1B);
    CHECK_EQ(or_mul(0x80, 0x02), 0x1B);
}
END_TEST

START_TEST(test_mul_all)
{
    unsigned bad = 0;
    for (unsigned a = 0; a < 256; a++)
        for (unsigned b = 0; b < 256; b++) {
            uint8_t got = gf256_mul((uint8_t)a, (uint8_t)b);
            uint8_t want = or_mul_naive((uint8_t)a, (uint8_t)b);
            CHECKM(got == want, "gf256_mul(%02x,%02x) = %02x, oracle %02x", a, b, got, want);
            bad += got != want;
        }
    ck_assert_uint_eq(bad, 0);
}
END_TEST

START_TEST(test_sqr_all)
{
    for (unsigned a = 0; a < 256; a++)
        CHECKM(gf256_sqr((uint8_t)a) == or_mul((uint8_t)a, (uint8_t)a),
                      "gf256_sqr(%02x)", a);
}
END_TEST

START_TEST(test_inv_all)
{
    CHECK_EQ(gf256_inv(0), 0);
    for (unsigned a = 1; a < 256; a++) {
        uint8_t i = gf256_inv((uint8_t)a);
        CHECKM(or_mul(i, (uint8_t)a) == 1, "gf256_inv(%02x) = %02x", a, i);
        CHECKM(gf256_mul(i, (uint8_t)a) == 1, "gf256_inv(%02x) = %02x", a, i);
        CHECK_EQ(i, or_inv((uint8_t)a));
        /* a^254 by repeated multiplication */
        CHECK_EQ(i, or_pow((uint8_t)a, 254));
    }
}
END_TEST

START_TEST(test_xtime_all)
{
    CHECK_EQ(gf256_xtime(0x57), 0xAE);
    CHECK_EQ(gf256_xtime(0xAE), 0x47);
    CHECK_EQ(gf256_xtime(0x80), 0x1B);
    CHECK_EQ(gf256_xtime(0x00), 0x00);
    for (unsigned a = 0; a < 256; a++) {
        /* shift left, XOR 0x1B if bit 7 was set (SPEC 2.1) */
        unsigned want = (a << 1) & 0xFF;
        if (a & 0x80)
            want ^= 0x1B;
        CHECKM(gf256_xtime((uint8_t)a) == want, "xtime(%02x)", a);
        CHECK_EQ(gf256_xtime((uint8_t)a), or_mul((uint8_t)a, 2));
    }
}
END_TEST

START_TEST(test_axioms)
{
    static const uint8_t cs[] = {0x00, 0x01, 0x02, 0x03, 0x53, 0x80, 0xCA, 0xFF};
    for (unsigned a = 0; a < 256; a++) {
        CHECK_EQ(gf256_mul((uint8_t)a, 1), a);
        CHECK_EQ(gf256_mul(1, (uint8_t)a), a);
        CHECK_EQ(gf256_mul((uint8_t)a, 0), 0);
        CHECK_EQ(gf256_mul(0, (uint8_t)a), 0);
        for (unsigned b = 0; b < 256; b++) {
            uint8_t ab = gf256_mul((uint8_t)a, (uint8_t)b);
            CHECK_EQ(ab, gf256_mul((uint8_t)b, (uint8_t)a));
            /* squaring is additive (Frobenius) */
            CHECK_EQ(gf256_sqr((uint8_t)(a ^ b)),
                              gf256_sqr((uint8_t)a) ^ gf256_sqr((uint8_t)b));
            for (size_t k = 0; k < sizeof cs; k++) {
                uint8_t c = cs[k];
                CHECK_EQ(gf256_mul(c, (uint8_t)(a ^ b)),
                                  gf256_mul(c, (uint8_t)a) ^ gf256_mul(c, (uint8_t)b));
                CHECK_EQ(gf256_mul(ab, c),
                                  gf256_mul((uint8_t)a, gf256_mul((uint8_t)b, c)));
            }
            /* no zero divisors */
            if (a && b)
                CHECK(ab != 0);
        }
    }
}
END_TEST

START_TEST(test_generator)
{
    /* SPEC 2.1: 0x03 generates the multiplicative group, 0x02 has order 51 */
    unsigned order3 = 0, order2 = 0;
    uint8_t x = 1;
    do {
        x = gf256_mul(x, 0x03);
        order3++;
    } while (x != 1 && order3 < 1000);
    x = 1;
    do {
        x = gf256_mul(x, 0x02);
        order2++;
    } while (x != 1 && order2 < 1000);
    CHECK_EQ(order3, 255);
    CHECK_EQ(order2, 51);
}
END_TEST

/* ---- madd / matvec -------------------------------------------------------- */

START_TEST(test_madd)
{
    const tts_kernels *k = kern(_i);
    or_prng r;
    uint8_t x[160];
    or_prng_seed(&r, 0x6d616464);
    for (unsigned iter = 0; iter < 2000; iter++) {
        size_t len = iter < 130 ? iter : or_prng_below(&r, 130);
        uint8_t s = iter % 7 == 0 ? 0 : iter % 7 == 1 ? 1 : (uint8_t)or_prng_next(&r);
        uint8_t buf[162], orig[162];
        or_prng_bytes(&r, buf, sizeof buf);
        or_prng_bytes(&r, x, sizeof x);
        memcpy(orig, buf, sizeof buf);
        k->madd(buf + 1, x + 1, s, len);
        CHECK_EQ(buf[0], orig[0]);
        for (size_t i = 0; i < len; i++)
            CHECKM(buf[1 + i] == (uint8_t)(orig[1 + i] ^ or_mul(s, x[1 + i])),
                          "madd len %zu s %02x at %zu", len, s, i);
        for (size_t i = len + 1; i < sizeof buf; i++)
            CHECK_EQ(buf[i], orig[i]);
    }
}
END_TEST

START_TEST(test_matvec)
{
    const tts_kernels *k = kern(_i);
    or_prng r;
    uint8_t M[50 * 50 + 1], x[51], y[52], want[50];
    or_prng_seed(&r, 0x6d617476);
    for (unsigned iter = 0; iter < 600; iter++) {
        unsigned rows = 1 + or_prng_below(&r, 50), cols = 1 + or_prng_below(&r, 50);
        if (iter < 50)
            rows = cols = iter + 1;
        or_prng_bytes(&r, M, sizeof M);
        or_prng_bytes(&r, x, sizeof x);
        if (iter % 5 == 0) /* sparse */
            for (size_t i = 0; i < sizeof M; i++)
                if (M[i] & 3)
                    M[i] = 0;
        memset(y, 0xA5, sizeof y);
        or_matvec(want, M + 1, x + 1, rows, cols);
        k->matvec(y + 1, M + 1, x + 1, rows, cols);
        CHECK_EQ(y[0], 0xA5);
        CHECKM(memcmp(y + 1, want, rows) == 0, "matvec %ux%u", rows, cols);
        for (unsigned i = rows + 1; i < sizeof y; i++)
            CHECK_EQ(y[i], 0xA5);
    }
    /* identity and zero matrices */
    memset(M, 0, sizeof M);
    for (unsigned i = 0; i < 50; i++)
        M[i * 50 + i] = 1;
    or_prng_bytes(&r, x, 50);
    k->matvec(y, M, x, 50, 50);
    CHECK_MEM(y, x, 50);
    memset(M, 0, sizeof M);
    k->matvec(y, M, x, 50, 50);
    for (unsigned i = 0; i < 50; i++)
        CHECK_EQ(y[i], 0);
}
END_TEST

/* ---- gauss ------------------------------------------------------------------ */

/* Run the kernel on [M | I] and check verdict and, when invertible, that the
 * left block became I and the right block R satisfies M R = I (naive
 * product) and equals the oracle's inverse. Returns the verdict. */
static int gauss_inverse(const tts_kernels *k, const uint8_t *M, unsigned dim)
{
    unsigned cols = 2 * dim;
    uint8_t W[50 * 100], R[50 * 50], P[50 * 50], want[50 * 50];
    memset(W, 0, sizeof W);
    for (unsigned r = 0; r < dim; r++) {
        memcpy(W + r * cols, M + r * dim, dim);
        W[r * cols + dim + r] = 1;
    }
    uint8_t ok = k->gauss(W, dim, cols);
    CHECKM(ok == 0 || ok == 1, "gauss returned %u", ok);
    int oracle_ok = or_invert(want, M, dim);
    CHECKM(ok == oracle_ok, "gauss verdict %u, oracle %d (dim %u)", ok, oracle_ok, dim);
    if (!ok)
        return 0;
    for (unsigned r = 0; r < dim; r++) {
        for (unsigned c = 0; c < dim; c++)
            CHECKM(W[r * cols + c] == (r == c), "left block not I at %u,%u", r, c);
        memcpy(R + r * dim, W + r * cols + dim, dim);
    }
    or_matmul(P, M, R, dim, dim, dim);
    for (unsigned r = 0; r < dim; r++)
        for (unsigned c = 0; c < dim; c++)
            CHECKM(P[r * dim + c] == (r == c), "M * inv != I at %u,%u (dim %u)", r, c, dim);
    CHECK_MEM(R, want, (size_t)dim * dim);
    return 1;
}

static void random_invertible(or_prng *r, uint8_t *M, unsigned dim)
{
    do
        or_prng_bytes(r, M, (size_t)dim * dim);
    while (or_rank(M, dim, dim) != dim);
}

START_TEST(test_gauss_invertible)
{
    const tts_kernels *k = kern(_i);
    or_prng r;
    uint8_t M[50 * 50];
    or_prng_seed(&r, 0x67617573);
    for (unsigned dim = 1; dim <= 50; dim++)
        for (unsigned rep = 0; rep < (dim <= 10 ? 20u : 3u); rep++) {
            random_invertible(&r, M, dim);
            CHECK_EQ(gauss_inverse(k, M, dim), 1);
        }
}
END_TEST

START_TEST(test_gauss_solve)
{
    /* cols = rows + 1, as signing uses it: the last column becomes z with
     * M z = t; cols = rows: the matrix becomes I */
    const tts_kernels *k = kern(_i);
    or_prng r;
    uint8_t M[50 * 50], W[50 * 51], t[50], z[50], chk[50];
    or_prng_seed(&r, 0x736f6c76);
    for (unsigned dim = 1; dim <= 50; dim++) {
        random_invertible(&r, M, dim);
        or_prng_bytes(&r, t, dim);
        for (unsigned rr = 0; rr < dim; rr++) {
            memcpy(W + rr * (dim + 1), M + rr * dim, dim);
            W[rr * (dim + 1) + dim] = t[rr];
        }
        CHECK_EQ(k->gauss(W, dim, dim + 1), 1);
        for (unsigned rr = 0; rr < dim; rr++)
            z[rr] = W[rr * (dim + 1) + dim];
        or_matvec(chk, M, z, dim, dim);
        CHECK_MEM(chk, t, dim);

        memcpy(W, M, (size_t)dim * dim);
        CHECK_EQ(k->gauss(W, dim, dim), 1);
        for (unsigned rr = 0; rr < dim; rr++)
            for (unsigned c = 0; c < dim; c++)
                CHECK_EQ(W[rr * dim + c], rr == c);
    }
}
END_TEST

START_TEST(test_gauss_singular)
{
    const tts_kernels *k = kern(_i);
    or_prng r;
    uint8_t M[50 * 50], A[50 * 50], B[50 * 50];
    or_prng_seed(&r, 0x73696e67);
    /* 1 x 1 zero */
    M[0] = 0;
    CHECK_EQ(gauss_inverse(k, M, 1), 0);
    for (unsigned dim = 2; dim <= 50; dim++) {
        unsigned i = or_prng_below(&r, dim), j = or_prng_below(&r, dim - 1);
        if (j >= i)
            j++;
        /* two equal rows */
        or_prng_bytes(&r, M, (size_t)dim * dim);
        memcpy(M + j * dim, M + i * dim, dim);
        CHECK_EQ(gauss_inverse(k, M, dim), 0);
        /* a row a multiple of another */
        or_prng_bytes(&r, M, (size_t)dim * dim);
        uint8_t f = or_prng_nonzero(&r);
        for (unsigned c = 0; c < dim; c++)
            M[j * dim + c] = or_mul(f, M[i * dim + c]);
        CHECK_EQ(gauss_inverse(k, M, dim), 0);
        /* a zero column */
        or_prng_bytes(&r, M, (size_t)dim * dim);
        for (unsigned rr = 0; rr < dim; rr++)
            M[rr * dim + i] = 0;
        CHECK_EQ(gauss_inverse(k, M, dim), 0);
        /* a zero row (the last one: no later row can repair it) */
        or_prng_bytes(&r, M, (size_t)dim * dim);
        memset(M + (dim - 1) * dim, 0, dim);
        CHECK_EQ(gauss_inverse(k, M, dim), 0);
        /* rank deficient: (dim x rk)(rk x dim), rk < dim */
        unsigned rk = or_prng_below(&r, dim);
        or_prng_bytes(&r, A, (size_t)dim * rk);
        or_prng_bytes(&r, B, (size_t)rk * dim);
        if (rk == 0)
            memset(M, 0, (size_t)dim * dim);
        else
            or_matmul(M, A, B, dim, rk, dim);
        ck_assert_uint_lt(or_rank(M, dim, dim), dim);
        CHECK_EQ(gauss_inverse(k, M, dim), 0);
        /* last row the sum of two others (dim >= 3) */
        if (dim >= 3) {
            or_prng_bytes(&r, M, (size_t)dim * dim);
            for (unsigned c = 0; c < dim; c++)
                M[(dim - 1) * dim + c] = M[c] ^ M[dim + c];
            CHECK_EQ(gauss_inverse(k, M, dim), 0);
        }
    }
}
END_TEST

START_TEST(test_gauss_zero_pivot)
{
    const tts_kernels *k = kern(_i);
    or_prng r;
    uint8_t M[50 * 50];
    or_prng_seed(&r, 0x7a65726f);
    for (unsigned dim = 2; dim <= 50; dim++) {
        /* first pivot zero, matrix invertible */
        do {
            or_prng_bytes(&r, M, (size_t)dim * dim);
            M[0] = 0;
        } while (or_rank(M, dim, dim) != dim);
        CHECK_EQ(gauss_inverse(k, M, dim), 1);
        /* column 0 nonzero only in the last row */
        do {
            or_prng_bytes(&r, M, (size_t)dim * dim);
            for (unsigned rr = 0; rr + 1 < dim; rr++)
                M[rr * dim] = 0;
            M[(dim - 1) * dim] = or_prng_nonzero(&r);
        } while (or_rank(M, dim, dim) != dim);
        CHECK_EQ(gauss_inverse(k, M, dim), 1);
        /* anti-diagonal permutation with random nonzero entries: every
         * pivot is zero until repaired */
        memset(M, 0, (size_t)dim * dim);
        for (unsigned rr = 0; rr < dim; rr++)
            M[rr * dim + (dim - 1 - rr)] = or_prng_nonzero(&r);
        CHECK_EQ(gauss_inverse(k, M, dim), 1);
        /* a cyclic shift permutation */
        memset(M, 0, (size_t)dim * dim);
        for (unsigned rr = 0; rr < dim; rr++)
            M[rr * dim + (rr + 1) % dim] = 1;
        CHECK_EQ(gauss_inverse(k, M, dim), 1);
    }
}
END_TEST

START_TEST(test_gauss_binary)
{
    /* 0/1 matrices: often singular; the verdict (and the inverse when there
     * is one) must match the oracle either way */
    const tts_kernels *k = kern(_i);
    or_prng r;
    uint8_t M[12 * 12];
    unsigned seen[2] = {0, 0};
    or_prng_seed(&r, 0x62696e61);
    for (unsigned iter = 0; iter < 3000; iter++) {
        unsigned dim = 1 + or_prng_below(&r, 12);
        for (unsigned i = 0; i < dim * dim; i++)
            M[i] = (uint8_t)(or_prng_next(&r) & 1);
        seen[gauss_inverse(k, M, dim)]++;
    }
    ck_assert_uint_gt(seen[0], 100);
    ck_assert_uint_gt(seen[1], 100);
}
END_TEST

/* ---- pk_eval ------------------------------------------------------------------ */

START_TEST(test_pk_eval_kernel)
{
    const tts_kernels *k = kern(_i);
    static uint8_t pk[47700 + 2];
    or_prng r;
    uint8_t w[51], out[38], want[36];
    or_prng_seed(&r, 0x706b6576);
    for (unsigned iter = 0; iter < 40; iter++) {
        or_shape s;
        if (iter < OR_NSETS) {
            or_shape_at(&s, iter);
        } else {
            /* other shapes: any n; m of some set (16, 20, .., 36: vector
             * backends may rely on it), and for the reference kernels,
             * which have no such limit, every other iteration any m */
            s.m = _i == 0 && iter % 2 ? 1 + or_prng_below(&r, 36) : 16 + 4 * or_prng_below(&r, 6);
            s.n = 1 + or_prng_below(&r, 50);
        }
        size_t len = (size_t)s.m * s.n * (s.n + 3) / 2;
        or_prng_bytes(&r, pk, len + 2);
        or_prng_bytes(&r, w, sizeof w);
        if (iter % 3 == 1)
            for (unsigned i = 0; i < s.n; i++)
                if (w[1 + i] & 1)
                    w[1 + i] = 0;
        memset(out, 0x5A, sizeof out);
        or_pk_eval(&s, want, w + 1, pk + 1);
        k->pk_eval(out + 1, pk + 1, w + 1, s.m, s.n);
        CHECK_EQ(out[0], 0x5A);
        CHECKM(memcmp(out + 1, want, s.m) == 0, "pk_eval m=%u n=%u", s.m, s.n);
        for (unsigned i = s.m + 1; i < sizeof out; i++)
            CHECK_EQ(out[i], 0x5A);
    }
    /* the zero vector maps to 0 for any pk */
    memset(w, 0, sizeof w);
    or_prng_bytes(&r, pk, sizeof pk);
    k->pk_eval(out, pk, w, 36, 50);
    for (unsigned i = 0; i < 36; i++)
        CHECK_EQ(out[i], 0);
}
END_TEST

static Suite *field_suite(void)
{
    Suite *s = suite_create("field");
    TCase *tc = tcase_create("gf256");
    tcase_add_test(tc, test_spec_vectors);
    tcase_add_test(tc, test_mul_all);
    tcase_add_test(tc, test_sqr_all);
    tcase_add_test(tc, test_inv_all);
    tcase_add_test(tc, test_xtime_all);
    tcase_add_test(tc, test_axioms);
    tcase_add_test(tc, test_generator);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("kernels");
    tcase_add_loop_test(tc, test_madd, 0, 2);
    tcase_add_loop_test(tc, test_matvec, 0, 2);
    tcase_add_loop_test(tc, test_gauss_invertible, 0, 2);
    tcase_add_loop_test(tc, test_gauss_solve, 0, 2);
    tcase_add_loop_test(tc, test_gauss_singular, 0, 2);
    tcase_add_loop_test(tc, test_gauss_zero_pivot, 0, 2);
    tcase_add_loop_test(tc, test_gauss_binary, 0, 2);
    tcase_add_loop_test(tc, test_pk_eval_kernel, 0, 2);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(field_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
