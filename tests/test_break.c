/* SPDX-License-Identifier: MIT */
/*
 * The break (challenge/break.h) on fresh keys: every recovered subspace and
 * equation group against the true one read from the secret key (test-only
 * access to its layout, docs/SPEC.md section 5), forgeries checked by
 * libtts, both solvers, every backend giving the same key byte for byte,
 * keys with no TTS structure refused, and the equivalent-key file format.
 * TTS_BREAK_SETS="TTS(24,34) ..." adds sets; TTS_CHECK_FULL (make check-full)
 * adds the larger sets but TTS(36,50).
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "break.h"
#include "challenge.h"
#include "internal.h"
#include "oracle.h"

/* rank of the rows of A (r x len) by the oracle's elimination */
static unsigned rank_rows(const uint8_t *A, unsigned r, unsigned len)
{
    return r ? or_rank(A, r, len) : 0;
}

/* 1 if the rows of A (ra x len) and of B (rb x len) span the same space */
static int same_span(const uint8_t *A, unsigned ra, const uint8_t *B, unsigned rb,
                     unsigned len)
{
    uint8_t *AB = malloc((size_t)(ra + rb) * len + 1);
    memcpy(AB, A, (size_t)ra * len);
    memcpy(AB + (size_t)ra * len, B, (size_t)rb * len);
    unsigned x = rank_rows(A, ra, len), y = rank_rows(B, rb, len),
             z = rank_rows(AB, ra + rb, len);
    free(AB);
    return x == ra && y == rb && x == y && y == z;
}

/* rows = columns cols[0..k) of the n x n row-major M */
static void columns(uint8_t *rows, const uint8_t *M, unsigned n, const unsigned *cols,
                    unsigned k)
{
    for (unsigned t = 0; t < k; t++)
        for (unsigned i = 0; i < n; i++)
            rows[(size_t)t * n + i] = M[(size_t)i * n + cols[t]];
}

/* The recovered blocks of k against the secret key sk. */
static void check_truth(const tts_params *p, const chal_eqkey *k, const uint8_t *sk)
{
    const unsigned m = p->m, n = p->n, v = p->v, a = p->a, b = p->b;
    const unsigned c = v + a + 2, mu1 = v + a, mu2 = v + a + 1;
    const uint8_t *S1 = sk + sk_off_S1(p), *S3 = sk + sk_off_S3(p);
    unsigned idx[TTS_MAX_N], cnt;
    uint8_t got[TTS_MAX_N * TTS_MAX_N], want[TTS_MAX_N * TTS_MAX_N];
    /* recovered input blocks, from the end: O (b), C (2), mu1, L (a) */
    for (unsigned t = 0; t < n; t++)
        idx[t] = t;
    const unsigned start[4] = {n - b, n - b - 2, n - b - 3, n - b - 3 - a};
    /* true subspaces, central variables seen through S3's columns */
    unsigned tcols[4][TTS_MAX_N], tn[4] = {0, 0, 0, 0};
    for (unsigned i = c; i < n; i++)
        tcols[0][tn[0]++] = i;                 /* O = layer-3 oil */
    tcols[1][tn[1]++] = 0;
    tcols[1][tn[1]++] = mu2;
    for (unsigned i = c; i < n; i++)
        tcols[1][tn[1]++] = i;                 /* K */
    memcpy(tcols[2], tcols[1], sizeof tcols[1]);
    tn[2] = tn[1];
    tcols[2][tn[2]++] = mu1;                   /* K + x_mu1 */
    tcols[3][tn[3]++] = 0;
    for (unsigned i = v; i < n; i++)
        tcols[3][tn[3]++] = i;                 /* O': all but x_1 .. x_{v-1} */
    for (unsigned s = 0; s < 4; s++) {
        cnt = n - start[s];
        columns(got, k->B, n, idx + start[s], cnt);
        columns(want, S3, n, tcols[s], tn[s]);
        ck_assert_msg(cnt == tn[s], "%s block %u size", p->name, s);
        ck_assert_msg(same_span(got, cnt, want, tn[s], n), "%s: input block %u differs "
                      "from the secret key's", p->name, s);
    }
    /* negative control: O against a wrong space of its dimension */
    for (unsigned t = 0; t < b; t++)
        tcols[0][t] = c - 1 + t;
    columns(got, k->B, n, idx + start[0], b);
    columns(want, S3, n, tcols[0], b);
    ck_assert(!same_span(got, b, want, b, n));
    /* equation groups: rows of T against rows of S1 */
    const unsigned rows_[3] = {a, a + 1, a + 2};
    for (unsigned s = 0; s < 3; s++)
        ck_assert_msg(same_span(k->T, rows_[s], S1, rows_[s], m),
                      "%s: equation group %u differs from the secret key's", p->name, s);
    ck_assert(!same_span(k->T, a, S1 + m, a, m)); /* negative control */
}

static void forge_some(const tts_params *p, const chal_eqkey *k, const uint8_t *pk,
                       unsigned count)
{
    for (unsigned i = 0; i < count; i++) {
        uint8_t d[TTS_MAX_M], sig[TTS_MAX_N];
        char err[256];
        randombytes_buf(d, p->m);
        ck_assert_int_eq(chal_eqkey_sign(k, sig, d, NULL, NULL, err, sizeof err), CHAL_OK);
        ck_assert_msg(tts_verify_digest(p, sig, d, pk) == TTS_OK, "%s forgery %u", p->name, i);
        d[0] ^= 1;
        ck_assert(tts_verify_digest(p, sig, d, pk) != TTS_OK);
    }
}

static void break_one(const tts_params *p, int solver, unsigned seedbyte)
{
    uint8_t *pk = malloc(tts_pk_bytes(p)), *sk = malloc(tts_sk_bytes(p));
    uint8_t kseed[32] = {seedbyte, 0x5a}, rseed[32] = {seedbyte, 0xa5};
    chal_eqkey *k = malloc(sizeof *k);
    chal_break_report rep;
    char err[256];
    ck_assert_int_eq(tts_keypair_from_seed(p, pk, sk, kseed), TTS_OK);
    chal_break_opts o = {.seed = rseed, .threads = 2, .solver = solver};
    int r = chal_break(p, pk, &o, k, &rep, err, sizeof err);
    ck_assert_msg(r == CHAL_OK, "%s: %s", p->name, err);
    ck_assert_int_eq(rep.dim_k, p->b + 2);
    ck_assert_int_eq(rep.dim_lambda, p->a + 2);
    printf("# %s: %zu unknowns, %s, %.3f s, %u attempt(s)\n", p->name, rep.unknowns,
           rep.solver == CHAL_SOLVER_DENSE ? "dense" : "Wiedemann", rep.total_seconds,
           rep.attempts);
    check_truth(p, k, sk);
    forge_some(p, k, pk, 20);
    free(pk), free(sk), free(k);
}

static const char *const sets[] = {"TTS(16,22)", "TTS(20,26)", "TTS(20,28)", "TTS(24,32)"};

START_TEST(t_break_sets)
{
    break_one(tts_params_get(sets[_i]), CHAL_SOLVER_AUTO, (unsigned)_i + 1);
}
END_TEST

START_TEST(t_break_wiedemann)
{
    /* the structured solver on the small sets too */
    break_one(tts_params_get(_i ? "TTS(20,28)" : "TTS(16,22)"), CHAL_SOLVER_WIEDEMANN, 40);
}
END_TEST

START_TEST(t_break_extra)
{
    /* TTS_BREAK_SETS: sets to add; make check-full (TTS_CHECK_FULL) adds
     * the larger sets but TTS(36,50) */
    const char *env = getenv("TTS_BREAK_SETS");
    char buf[256], *save;
    if ((!env || !*env) && getenv("TTS_CHECK_FULL"))
        env = "TTS(24,34) TTS(28,38) TTS(32,44)";
    if (!env || !*env)
        return;
    snprintf(buf, sizeof buf, "%s", env);
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        const tts_params *p = tts_params_get(t);
        ck_assert_msg(p != NULL, "TTS_BREAK_SETS: unknown set %s", t);
        break_one(p, CHAL_SOLVER_AUTO, 77);
    }
}
END_TEST

START_TEST(t_checkpoint)
{
    /* a run stopped after 1,000 operator applications resumes from its
     * checkpoint (seed included) and ends with the uninterrupted run's key */
    const tts_params *p = tts_params_get("TTS(20,28)");
    uint8_t *pk = malloc(tts_pk_bytes(p)), *sk = malloc(tts_sk_bytes(p));
    uint8_t kseed[32] = {21}, rseed[32] = {22};
    size_t len = chal_eqkey_bytes(p);
    uint8_t *ka = malloc(len), *kc = malloc(len);
    chal_eqkey *k = malloc(sizeof *k);
    chal_break_report rep;
    char err[256], path[] = "/tmp/tts-break-ckpt-XXXXXX";
    struct stat stt;
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    unlink(path);
    ck_assert_int_eq(tts_keypair_from_seed(p, pk, sk, kseed), TTS_OK);
    chal_break_opts o = {.seed = rseed, .solver = CHAL_SOLVER_WIEDEMANN, .threads = 1};
    ck_assert_int_eq(chal_break(p, pk, &o, k, &rep, err, sizeof err), CHAL_OK);
    chal_eqkey_encode(ka, k);
    size_t full = rep.matvecs;
    o.checkpoint = path;
    o.stop_after = 1000;
    ck_assert_int_eq(chal_break(p, pk, &o, k, &rep, err, sizeof err), CHAL_ERROR);
    ck_assert_msg(strstr(err, "stopped") != NULL, "%s", err);
    ck_assert_int_eq(stat(path, &stt), 0);
    ck_assert_int_eq(stt.st_mode & 0777, 0600);
    /* a save writes a fresh file and renames it: a file hard-linked to
     * PATH.tmp keeps its bytes, an opened-up mode is not kept */
    char tmpname[64], victim[64];
    snprintf(tmpname, sizeof tmpname, "%s.tmp", path);
    snprintf(victim, sizeof victim, "%s.victim", path);
    FILE *vf = fopen(victim, "w");
    ck_assert(vf != NULL);
    fputs("someone's data\n", vf);
    fclose(vf);
    ck_assert_int_eq(link(victim, tmpname), 0);
    ck_assert_int_eq(chmod(path, 0644), 0);
    o.stop_after = 500;
    ck_assert_int_eq(chal_break(p, pk, &o, k, &rep, err, sizeof err), CHAL_ERROR);
    ck_assert(rep.resumed && rep.checkpoint_saved);
    ck_assert_int_eq(stat(victim, &stt), 0);
    ck_assert_int_eq(stt.st_size, 15);
    ck_assert_int_eq(stat(path, &stt), 0);
    ck_assert_int_eq(stt.st_mode & 0777, 0600);
    unlink(tmpname);
    /* what is not a checkpoint of this key is refused before any work,
     * and kept: a file of other bytes, a FIFO (no blocking open), a link */
    chal_break_opts ov = {.checkpoint = victim, .solver = CHAL_SOLVER_WIEDEMANN};
    ck_assert_int_eq(chal_break(p, pk, &ov, k, &rep, err, sizeof err), CHAL_ERROR);
    ck_assert_msg(strstr(err, "not a checkpoint") != NULL, "%s", err);
    ck_assert_int_eq(stat(victim, &stt), 0);
    ck_assert_int_eq(stt.st_size, 15);
    ck_assert_int_eq(chal_checkpoint_check(p, pk, path, err, sizeof err), 1);
    ck_assert_int_eq(chal_checkpoint_check(p, pk, tmpname, err, sizeof err), 0);
    ck_assert_int_eq(mkfifo(tmpname, 0600), 0);
    ov.checkpoint = tmpname;
    ck_assert_int_eq(chal_break(p, pk, &ov, k, &rep, err, sizeof err), CHAL_ERROR);
    ck_assert_msg(strstr(err, "not a regular file") != NULL, "%s", err);
    unlink(tmpname);
    ck_assert_int_eq(symlink(path, tmpname), 0);
    ck_assert_int_eq(chal_break(p, pk, &ov, k, &rep, err, sizeof err), CHAL_ERROR);
    ck_assert_msg(strstr(err, "symbolic link") != NULL, "%s", err);
    unlink(tmpname);
    unlink(victim);
    chal_break_opts o2 = {.checkpoint = path, .solver = CHAL_SOLVER_WIEDEMANN, .threads = 2};
    ck_assert_int_eq(chal_break(p, pk, &o2, k, &rep, err, sizeof err), CHAL_OK);
    ck_assert(rep.resumed);
    ck_assert(memcmp(rep.seed, rseed, 32) == 0);
    ck_assert_uint_eq(rep.matvecs, full - 1500);
    chal_eqkey_encode(kc, k);
    ck_assert(memcmp(ka, kc, len) == 0);
    /* another key's run refuses that checkpoint */
    chal_break_opts o3 = {.checkpoint = path, .solver = CHAL_SOLVER_WIEDEMANN, .stop_after = 10};
    o.stop_after = 1000;
    ck_assert_int_eq(chal_break(p, pk, &o, k, &rep, err, sizeof err), CHAL_ERROR);
    pk[pk_mono_index(p->n, 0, 1) * p->m + 3] ^= 1; /* a cross term: another system */
    ck_assert_int_eq(chal_break(p, pk, &o3, k, &rep, err, sizeof err), CHAL_ERROR);
    ck_assert_msg(strstr(err, "another public key") != NULL, "%s", err);
    ck_assert(!rep.resumed);
    unlink(path);
    free(pk), free(sk), free(ka), free(kc), free(k);
}
END_TEST

START_TEST(t_backends_agree)
{
    const tts_params *p = tts_params_get("TTS(20,28)");
    uint8_t *pk = malloc(tts_pk_bytes(p)), *sk = malloc(tts_sk_bytes(p));
    uint8_t kseed[32] = {9}, rseed[32] = {10};
    size_t len = chal_eqkey_bytes(p);
    uint8_t *first[3] = {NULL, malloc(len), malloc(len)}, *cur = malloc(len);
    chal_eqkey *k = malloc(sizeof *k);
    char err[256];
    const char *orig = tts_backend();
    ck_assert_int_eq(tts_keypair_from_seed(p, pk, sk, kseed), TTS_OK);
    for (size_t b = 0; b < tts_backend_count(); b++) {
        for (int solver = CHAL_SOLVER_DENSE; solver <= CHAL_SOLVER_WIEDEMANN; solver++) {
            ck_assert_int_eq(tts_set_backend(tts_backend_at(b)), TTS_OK);
            chal_break_opts o = {.seed = rseed, .threads = 2, .solver = solver};
            ck_assert_int_eq(chal_break(p, pk, &o, k, NULL, err, sizeof err), CHAL_OK);
            /* the same random choices give the same key (each solver draws
             * its own, so each has its key) */
            chal_eqkey_encode(b ? cur : first[solver], k);
            if (b)
                ck_assert_msg(memcmp(first[solver], cur, len) == 0, "backend %s, solver %d: "
                              "another key than backend %s's", tts_backend_at(b), solver,
                              tts_backend_at(0));
        }
    }
    ck_assert_int_eq(tts_set_backend(orig), TTS_OK);
    free(pk), free(sk), free(first[1]), free(first[2]), free(cur), free(k);
}
END_TEST

START_TEST(t_no_structure)
{
    const tts_params *p = tts_params_get(_i ? "TTS(20,28)" : "TTS(16,22)");
    uint8_t *pk = malloc(tts_pk_bytes(p)), *sk = malloc(tts_sk_bytes(p)), seed[32] = {3};
    chal_eqkey *k = malloc(sizeof *k);
    chal_break_opts o = {.seed = seed};
    char err[256];
    chal_break_report rep;
    /* a random quadratic map of the same size: the system has no kernel,
     * which no other slice would change (one attempt) */
    randombytes_buf(pk, tts_pk_bytes(p));
    ck_assert_int_eq(chal_break(p, pk, &o, k, &rep, err, sizeof err), CHAL_NO_STRUCTURE);
    ck_assert_msg(strstr(err, "no TTS structure") != NULL, "%s", err);
    ck_assert_uint_eq(rep.attempts, 1);
    /* a real key with one coefficient changed */
    ck_assert_int_eq(tts_keypair_from_seed(p, pk, sk, seed), TTS_OK);
    pk[pk_mono_index(p->n, 1, 2) * p->m] ^= 0x40;
    ck_assert_int_eq(chal_break(p, pk, &o, k, NULL, err, sizeof err), CHAL_NO_STRUCTURE);
    free(pk), free(sk), free(k);
}
END_TEST

START_TEST(t_key_file)
{
    const tts_params *p = tts_params_get("TTS(16,22)");
    uint8_t *pk = malloc(tts_pk_bytes(p)), *sk = malloc(tts_sk_bytes(p)), seed[32] = {4};
    chal_eqkey *k = malloc(sizeof *k), *k2 = malloc(sizeof *k2);
    size_t len = chal_eqkey_bytes(p);
    uint8_t *buf = malloc(len), *buf2 = malloc(len);
    char err[256];
    ck_assert_int_eq(tts_keypair_from_seed(p, pk, sk, seed), TTS_OK);
    chal_break_opts o = {.seed = seed};
    ck_assert_int_eq(chal_break(p, pk, &o, k, NULL, err, sizeof err), CHAL_OK);
    ck_assert_uint_eq(len, 8 + 2 + 22 * 22 + 16 * 16 + 4400 + 32);
    chal_eqkey_encode(buf, k);
    ck_assert(memcmp(buf, "TTSEQK01", 8) == 0 && buf[8] == 16 && buf[9] == 22);
    /* the checksum: SHA-256 of everything before it, recomputed here */
    uint8_t h[32];
    crypto_hash_sha256(h, buf, len - 32);
    ck_assert(memcmp(h, buf + len - 32, 32) == 0);
    ck_assert_int_eq(chal_eqkey_decode(k2, buf, len, err, sizeof err), CHAL_OK);
    chal_eqkey_encode(buf2, k2);
    ck_assert(memcmp(buf, buf2, len) == 0);
    forge_some(p, k2, pk, 5);
    /* every single-byte change is refused */
    for (size_t i = 0; i < len; i += 97) {
        memcpy(buf2, buf, len);
        buf2[i] ^= 0x01;
        ck_assert_msg(chal_eqkey_decode(k2, buf2, len, err, sizeof err) == CHAL_ERROR,
                      "byte %zu changed, accepted", i);
    }
    ck_assert_int_eq(chal_eqkey_decode(k2, buf, len - 1, err, sizeof err), CHAL_ERROR);
    /* well-formed but not an equivalent key: B the identity, checksum fixed */
    memcpy(buf2, buf, len);
    memset(buf2 + 10, 0, 22 * 22);
    for (unsigned i = 0; i < 22; i++)
        buf2[10 + i * 22 + i] = 1;
    crypto_hash_sha256(buf2 + len - 32, buf2, len - 32);
    ck_assert_int_eq(chal_eqkey_decode(k2, buf2, len, err, sizeof err), CHAL_ERROR);
    ck_assert_msg(strstr(err, "does not sign") != NULL, "%s", err);
    free(pk), free(sk), free(k), free(k2), free(buf), free(buf2);
}
END_TEST

START_TEST(t_shape)
{
    /* the system sizes of docs/SECURITY.md, from the formula written out */
    static const struct {
        const char *set;
        unsigned forms;
        size_t unknowns;
    } want[] = {{"TTS(16,22)", 9, 180},      {"TTS(20,26)", 10, 225},
                {"TTS(20,28)", 12, 1540},    {"TTS(24,32)", 13, 2002},
                {"TTS(24,34)", 15, 12285},   {"TTS(28,38)", 16, 16380},
                {"TTS(32,44)", 18, 33660},   {"TTS(36,50)", 21, 264537}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        unsigned f, r, s;
        size_t u, e;
        chal_break_shape(tts_params_get(want[i].set), &f, &r, &s, &u, &e);
        ck_assert_msg(f == want[i].forms && u == want[i].unknowns, "%s: %u forms, %zu",
                      want[i].set, f, u);
    }
}
END_TEST

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    Suite *s = suite_create("break");
    TCase *tc = tcase_create("break");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, t_shape);
    tcase_add_loop_test(tc, t_break_sets, 0, (int)(sizeof sets / sizeof sets[0]));
    tcase_add_loop_test(tc, t_break_wiedemann, 0, 2);
    tcase_add_test(tc, t_backends_agree);
    tcase_add_test(tc, t_checkpoint);
    tcase_add_loop_test(tc, t_no_structure, 0, 2);
    tcase_add_test(tc, t_key_file);
    tcase_add_test(tc, t_break_extra);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
