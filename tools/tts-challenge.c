/*
 * tts-challenge: issue, check and assess a TTS Challenge.
 *
 *   estimate      security estimates per dimension (GMP exact integers)
 *   generate      challenge folders from a master seed
 *   verify        check a claimed forgery of one challenge message
 *   reveal-check  recompute every instance from a revealed master seed
 *
 * Models and derivations: docs/SECURITY.md. Exit status: 0 success / valid,
 * 1 invalid or mismatch, 2 usage or input error.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <gmp.h>
#include <sodium.h>

#include "manifest.h"
#include "tts.h"
#include "ttsfile.h"

#define ST_OK      0
#define ST_INVALID 1
#define ST_ERROR   2

#define MASTER_BYTES     32
#define MAX_INSTANCES    1000
#define LABEL_INSTANCE   "libtts challenge instance"
#define LABEL_COMMITMENT "libtts challenge commitment"
#define SECRET_NAME      "master-seed.secret"

/* TTS Challenge table (REFERENCE-FIGURES.md, table A). */
static const struct {
    unsigned m, n, bits, prize;
} challenge_table[] = {
    {16, 22, 56, 1000},  {20, 26, 64, 2000},   {20, 28, 72, 4000},
    {24, 32, 80, 8000},  {24, 34, 88, 12000},  {28, 38, 96, 16000},
    {32, 44, 112, 24000}, {36, 50, 128, 36000},
};
#define NSETS (sizeof challenge_table / sizeof challenge_table[0])

static const char usage_text[] =
    "usage: tts-challenge COMMAND [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  estimate [--params LIST|all] [--json]\n"
    "        claimed vs estimated security bits per dimension\n"
    "  generate [--params LIST|all] [--instances K] [--master-seed FILE]\n"
    "           --date YYYY-MM-DD [--discard-secret] --out DIR\n"
    "        write one challenge folder per dimension under DIR\n"
    "  verify DIR SOLUTION --message I\n"
    "        check a signature (raw or armored) of challenge message I;\n"
    "        the signature's header names the dimension\n"
    "  reveal-check DIR SEEDFILE\n"
    "        recompute every instance of DIR from the revealed master seed\n"
    "  dreg M NV\n"
    "        degree of regularity of M semi-regular quadratic equations in\n"
    "        NV <= M variables\n"
    "  help  show this text\n"
    "\n"
    "LIST: comma-separated set names, e.g. tts-16-22,tts-20-28 or\n"
    "  16,22,20,28, or all (default); --params may be repeated.\n"
    "K defaults to 4. --master-seed reads exactly 32 bytes; without it the\n"
    "seed comes from the system generator. The date is never taken from\n"
    "the clock.\n"
    "\n"
    "exit status: 0 success or VALID, 1 INVALID or mismatch, 2 usage or\n"
    "input error.\n";

static int fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int fail(const char *fmt, ...)
{
    va_list ap;

    fputs("tts-challenge: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return ST_ERROR;
}

static int table_index(const tts_params *p)
{
    for (size_t i = 0; i < NSETS; i++)
        if (challenge_table[i].m == tts_params_m(p) &&
            challenge_table[i].n == tts_params_n(p))
            return (int)i;
    return -1;
}

static int add_one(unsigned *mask, const char *name)
{
    if (strcmp(name, "all") == 0) {
        *mask |= (1u << tts_params_count()) - 1;
        return 1;
    }
    const tts_params *p = tts_params_get(name);
    if (!p)
        return 0;
    for (size_t i = 0; i < tts_params_count(); i++)
        if (tts_params_at(i) == p)
            *mask |= 1u << i;
    return 1;
}

/* Selected sets as a bit mask over tts_params_at indices. arg is a comma-
 * separated list of names (tts-16-22, TTS(16,22), 16,22) or "all". */
static int add_params(unsigned *mask, const char *arg)
{
    char buf[256], two[512];
    char *tok[64];
    size_t nt = 0;

    if (strlen(arg) >= sizeof buf)
        return fail("--params: list too long");
    strcpy(buf, arg);
    if (add_one(mask, buf))
        return ST_OK;
    for (char *s = buf; nt < 64;) {
        tok[nt++] = s;
        char *c = strchr(s, ',');
        if (!c)
            break;
        *c = 0;
        s = c + 1;
    }
    for (size_t i = 0; i < nt; i++) {
        if (add_one(mask, tok[i]))
            continue;
        if (i + 1 < nt) {
            snprintf(two, sizeof two, "%s,%s", tok[i], tok[i + 1]);
            if (add_one(mask, two)) {
                i++;
                continue;
            }
        }
        return fail("unknown parameter set '%s' in '%s'", tok[i], arg);
    }
    return ST_OK;
}

static void folder_name(char *out, size_t len, const tts_params *p)
{
    snprintf(out, len, "tts-%u-%u", tts_params_m(p), tts_params_n(p));
}

/* ---- estimates ------------------------------------------------------- */

static double log2_mpz(const mpz_t x)
{
    signed long e;
    double d = mpz_get_d_2exp(&e, x);
    return log2(d) + (double)e;
}

/* D_reg of m quadratic equations in nv variables (semi-regular): index of
 * the first non-positive coefficient of (1-z^2)^m / (1-z)^nv. Coefficient
 * d is sum_i (-1)^i C(m,i) C(nv-1+d-2i, d-2i). Returns 0 if none below
 * limit (cannot happen for nv <= m). */
static unsigned dreg(unsigned m, unsigned nv)
{
    mpz_t c, t, u;
    unsigned d, found = 0;

    mpz_inits(c, t, u, NULL);
    for (d = 0; d <= 4 * m + 4 && !found; d++) {
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
        if (mpz_sgn(c) <= 0)
            found = d;
    }
    mpz_clears(c, t, u, NULL);
    return found;
}

struct hybrid {
    unsigned k, nv, dreg;
    double bits;
};

/* Hybrid XL/F4 cost of eqs quadratic equations in vars unknowns over
 * GF(256) (docs/SECURITY.md section 2): if vars > eqs, fix vars - eqs of
 * them; then minimise 2^(8k) * C(nv+D, D)^omega over k = 0..nv-1, with
 * nv the unknowns left after guessing k and D = D_reg(eqs, nv). omega 2
 * is computed exactly, omega 2.81 as 8k + 2.81 log2 C. */
static void mq_hybrid(unsigned eqs, unsigned vars, struct hybrid *w2,
                      struct hybrid *w281)
{
    mpz_t b, cost;
    unsigned nv0 = vars < eqs ? vars : eqs;

    mpz_inits(b, cost, NULL);
    *w2 = *w281 = (struct hybrid){0, 0, 0, INFINITY};
    for (unsigned k = 0; k < nv0; k++) {
        unsigned nv = nv0 - k, D = dreg(eqs, nv);
        mpz_bin_uiui(b, nv + D, D);
        mpz_mul(cost, b, b);
        mpz_mul_2exp(cost, cost, 8 * k);
        double l2 = log2_mpz(cost);
        double l281 = 8.0 * k + 2.81 * log2_mpz(b);
        if (l2 < w2->bits)
            *w2 = (struct hybrid){k, nv, D, l2};
        if (l281 < w281->bits)
            *w281 = (struct hybrid){k, nv, D, l281};
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

struct structural {
    unsigned e_mr, e_hr, e_uov;   /* exponents of q = 2^8 */
    double minrank, highrank, uov;
    struct hybrid uovr2, uovr281, rbs2, rbs281;
};

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

static void structural_attacks(const tts_params *p, struct structural *s)
{
    unsigned m = tts_params_m(p), n = tts_params_n(p);
    unsigned v = tts_params_v(p), a = tts_params_a(p), b = tts_params_b(p);
    struct prefix g[4];
    unsigned ng = tts_prefixes(v, a, b, g);

    /* MinRank: a combination of the first groups' forms has rank <= support;
     * a random vector is in the kernel of one of the `oil`-dimensional
     * family with probability q^-(support - oil + 1). */
    s->e_mr = UINT32_MAX;
    for (unsigned i = 0; i < ng; i++) {
        unsigned e = g[i].support - g[i].oil + 1;
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
    mq_hybrid(m, n - b, &s->uovr2, &s->uovr281);
    mq_hybrid(n + m - 1, n, &s->rbs2, &s->rbs281);
}

static void json_hybrid(const char *key, const struct hybrid *h)
{
    printf("\"%s\": {\"bits\": %.1f, \"k\": %u, \"nvars\": %u, "
           "\"dreg\": %u}", key, h->bits, h->k, h->nv, h->dreg);
}

static int cmd_estimate(int argc, char **argv)
{
    unsigned mask = 0;
    int json = 0;

    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--params") == 0 && i + 1 < argc) {
            if (add_params(&mask, argv[++i]) != ST_OK)
                return ST_ERROR;
        } else
            return fail("estimate: unexpected argument '%s'", argv[i]);
    }
    if (!mask)
        add_params(&mask, "all");

    if (json)
        printf("{\n  \"model\": \"docs/SECURITY.md\",\n"
               "  \"unit\": \"log2 of GF(256) operations\",\n  \"sets\": [");
    else {
        printf("# log2 of GF(256) operations; direct attack: hybrid XL/F4 "
               "(k guessed, n' left, D_reg);\n# UOV-R and RBS: hybrid "
               "XL/F4 with omega = 2; models and sources: docs/SECURITY.md\n");
        printf("%-11s %7s %6s %7s %18s %18s %7s %8s %6s %6s %6s  %s\n",
               "set", "claimed", "prize", "exhaust", "direct w=2 (k,n',D)",
               "w=2.81 (k,n',D)", "MinRank", "HighRank", "UOV", "UOV-R",
               "RBS", "best");
    }
    int first = 1;
    for (size_t i = 0; i < tts_params_count(); i++) {
        if (!(mask & (1u << i)))
            continue;
        const tts_params *p = tts_params_at(i);
        int t = table_index(p);
        if (t < 0)
            return fail("%s is not in the challenge table",
                        tts_params_name(p));
        unsigned m = tts_params_m(p), n = tts_params_n(p);
        mpz_t ex;
        mpz_init(ex);
        mpz_ui_pow_ui(ex, 2, 8 * m); /* 2^(8m) evaluations of P */
        double exbits = log2_mpz(ex);
        mpz_clear(ex);
        struct hybrid a, b;
        mq_hybrid(m, n, &a, &b);
        struct structural s;
        structural_attacks(p, &s);
        const struct {
            const char *name;
            double bits;
        } all[] = {
            {"exhaustive", exbits},  {"direct", a.bits},
            {"MinRank", s.minrank},  {"HighRank", s.highrank},
            {"UOV", s.uov},          {"UOV-R", s.uovr2.bits},
            {"RBS", s.rbs2.bits},
        };
        size_t best = 0;
        for (size_t j = 1; j < sizeof all / sizeof all[0]; j++)
            if (all[j].bits < all[best].bits)
                best = j;
        if (json) {
            printf("%s\n    {\"set\": \"%s\", \"m\": %u, \"n\": %u, "
                   "\"v\": %u, \"a\": %u, \"b\": %u, "
                   "\"claimed_bits\": %u, \"prize_usd\": %u,\n"
                   "     \"exhaustive_bits\": %.1f,\n     ",
                   first ? "" : ",", tts_params_name(p), m, n,
                   tts_params_v(p), tts_params_a(p), tts_params_b(p),
                   challenge_table[t].bits, challenge_table[t].prize,
                   exbits);
            json_hybrid("hybrid_omega2", &a);
            printf(",\n     ");
            json_hybrid("hybrid_omega2.81", &b);
            printf(",\n     \"minrank\": {\"bits\": %.1f, \"q_exponent\": %u},"
                   "\n     \"highrank\": {\"bits\": %.1f, \"q_exponent\": %u},"
                   "\n     \"uov\": {\"bits\": %.1f, \"q_exponent\": %u},"
                   "\n     \"uov_reconciliation\": {\"equations\": %u, "
                   "\"unknowns\": %u, ",
                   s.minrank, s.e_mr, s.highrank, s.e_hr, s.uov, s.e_uov, m,
                   n - tts_params_b(p));
            json_hybrid("omega2", &s.uovr2);
            printf(", ");
            json_hybrid("omega2.81", &s.uovr281);
            printf("},\n     \"band_separation\": {\"equations\": %u, "
                   "\"unknowns\": %u, ", n + m - 1, n);
            json_hybrid("omega2", &s.rbs2);
            printf(", ");
            json_hybrid("omega2.81", &s.rbs281);
            printf("},\n     \"best\": {\"bits\": %.1f, \"attack\": \"%s\"}}",
                   all[best].bits, all[best].name);
        } else {
            char s2[40], s3[40];
            snprintf(s2, sizeof s2, "%.1f (%u,%u,%u)", a.bits, a.k, a.nv,
                     a.dreg);
            snprintf(s3, sizeof s3, "%.1f (%u,%u,%u)", b.bits, b.k, b.nv,
                     b.dreg);
            printf("%-11s %7u %6u %7.1f %18s %18s %7.1f %8.1f %6.1f %6.1f "
                   "%6.1f  %.1f %s\n",
                   tts_params_name(p), challenge_table[t].bits,
                   challenge_table[t].prize, exbits, s2, s3, s.minrank,
                   s.highrank, s.uov, s.uovr2.bits, s.rbs2.bits,
                   all[best].bits, all[best].name);
        }
        first = 0;
    }
    if (json)
        printf("\n  ]\n}\n");
    return ST_OK;
}

/* ---- instances ------------------------------------------------------- */

/* instance seed = SHA-512(LABEL_INSTANCE || master || set name)[0..31] */
static void instance_seed(uint8_t seed[TTS_SEED_BYTES],
                          const uint8_t master[MASTER_BYTES],
                          const tts_params *p)
{
    crypto_hash_sha512_state st;
    uint8_t h[64];
    const char *name = tts_params_name(p);

    crypto_hash_sha512_init(&st);
    crypto_hash_sha512_update(&st, (const uint8_t *)LABEL_INSTANCE,
                              strlen(LABEL_INSTANCE));
    crypto_hash_sha512_update(&st, master, MASTER_BYTES);
    crypto_hash_sha512_update(&st, (const uint8_t *)name, strlen(name));
    crypto_hash_sha512_final(&st, h);
    memcpy(seed, h, TTS_SEED_BYTES);
    sodium_memzero(h, sizeof h);
}

/* commitment = SHA-512(LABEL_COMMITMENT || instance seed), hex */
static void commitment_hex(char out[129], const uint8_t seed[TTS_SEED_BYTES])
{
    crypto_hash_sha512_state st;
    uint8_t h[64];

    crypto_hash_sha512_init(&st);
    crypto_hash_sha512_update(&st, (const uint8_t *)LABEL_COMMITMENT,
                              strlen(LABEL_COMMITMENT));
    crypto_hash_sha512_update(&st, seed, TTS_SEED_BYTES);
    crypto_hash_sha512_final(&st, h);
    sodium_bin2hex(out, 129, h, sizeof h);
}

static int message_text(char *out, size_t len, const tts_params *p,
                        unsigned idx, unsigned k, const char *date)
{
    int r = snprintf(out, len,
                     "libtts TTS Challenge\n"
                     "dimension: %s\n"
                     "message: %u of %u\n"
                     "issued: %s\n"
                     "Forge a signature of this text under the public key "
                     "of this folder.\n",
                     tts_params_name(p), idx, k, date);
    return r > 0 && (size_t)r < len ? r : -1;
}

static int write_new(const char *path, const void *buf, size_t len,
                     mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
    if (fd < 0)
        return fail("%s: %s", path, strerror(errno));
    if (fchmod(fd, mode) != 0) {
        close(fd);
        unlink(path);
        return fail("%s: %s", path, strerror(errno));
    }
    const uint8_t *b = buf;
    while (len) {
        ssize_t w = write(fd, b, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = errno;
            close(fd);
            unlink(path);
            return fail("%s: %s", path, strerror(e));
        }
        b += w;
        len -= (size_t)w;
    }
    if (close(fd) != 0) {
        unlink(path);
        return fail("%s: close failed", path);
    }
    return ST_OK;
}

static int read_master(const char *path, uint8_t master[MASTER_BYTES])
{
    uint8_t *buf;
    size_t len;
    char err[256];

    if (ttsfile_read_raw(path, MASTER_BYTES + 1, 0, &buf, &len, err,
                         sizeof err) != TTSFILE_OK)
        return fail("%s", err);
    if (len != MASTER_BYTES) {
        ttsfile_free(buf, len);
        return fail("%s: master seed holds %s bytes, expected exactly %d",
                    path, len > MASTER_BYTES ? "more than 32" : "fewer",
                    MASTER_BYTES);
    }
    memcpy(master, buf, MASTER_BYTES);
    ttsfile_free(buf, len);
    return ST_OK;
}

static int valid_date(const char *d)
{
    if (strlen(d) != 10 || d[4] != '-' || d[7] != '-')
        return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (d[i] < '0' || d[i] > '9'))
            return 0;
    int mo = (d[5] - '0') * 10 + (d[6] - '0');
    int dy = (d[8] - '0') * 10 + (d[9] - '0');
    return mo >= 1 && mo <= 12 && dy >= 1 && dy <= 31;
}

static int gen_one(const char *dir, const tts_params *p,
                   const uint8_t master[MASTER_BYTES], unsigned k,
                   const char *date)
{
    char sub[4096], path[4200], fname[32], err[256];
    uint8_t seed[TTS_SEED_BYTES], *pk = NULL, *sk = NULL;
    size_t pklen = tts_pk_bytes(p), sklen = tts_sk_bytes(p);
    int t = table_index(p), rc = ST_ERROR;
    FILE *mf = NULL;
    char *mbuf = NULL;
    size_t mlen = 0;

    if (t < 0)
        return fail("%s is not in the challenge table", tts_params_name(p));
    folder_name(fname, sizeof fname, p);
    snprintf(sub, sizeof sub, "%s/%s", dir, fname);
    if (mkdir(sub, 0755) != 0)
        return fail("%s: %s", sub, strerror(errno));
    pk = malloc(pklen);
    sk = malloc(sklen);
    if (!pk || !sk) {
        fail("out of memory");
        goto out;
    }
    instance_seed(seed, master, p);
    if (tts_keypair_from_seed(p, pk, sk, seed) != TTS_OK) {
        fail("%s: key generation failed", tts_params_name(p));
        goto out;
    }
    snprintf(path, sizeof path, "%s/pk.tts", sub);
    if (ttsfile_write(path, TTSFILE_PUBLIC_KEY, p, pk, 0, err, sizeof err)
        != TTSFILE_OK) {
        fail("%s", err);
        goto out;
    }
    snprintf(path, sizeof path, "%s/pk.asc", sub);
    if (ttsfile_write(path, TTSFILE_PUBLIC_KEY, p, pk, TTSFILE_ARMOR, err,
                      sizeof err) != TTSFILE_OK) {
        fail("%s", err);
        goto out;
    }
    uint8_t pkh[32];
    char pkhex[65], com[129];
    crypto_hash_sha256(pkh, pk, pklen);
    sodium_bin2hex(pkhex, sizeof pkhex, pkh, sizeof pkh);
    commitment_hex(com, seed);

    mf = open_memstream(&mbuf, &mlen);
    if (!mf) {
        fail("out of memory");
        goto out;
    }
    fprintf(mf,
            "{\n  \"challenge\": \"libtts TTS Challenge\",\n"
            "  \"set\": \"%s\",\n  \"m\": %u,\n  \"n\": %u,\n"
            "  \"v\": %u,\n  \"a\": %u,\n  \"b\": %u,\n"
            "  \"pk_bytes\": %zu,\n  \"sig_bytes\": %zu,\n"
            "  \"digest_bytes\": %zu,\n"
            "  \"pk_sha256\": \"%s\",\n"
            "  \"prize_usd\": %u,\n  \"claimed_bits\": %u,\n"
            "  \"issued\": \"%s\",\n"
            "  \"commitment_label\": \"%s\",\n"
            "  \"commitment\": \"%s\",\n"
            "  \"messages\": [",
            tts_params_name(p), tts_params_m(p), tts_params_n(p),
            tts_params_v(p), tts_params_a(p), tts_params_b(p), pklen,
            tts_sig_bytes(p), tts_digest_bytes(p), pkhex,
            challenge_table[t].prize, challenge_table[t].bits, date,
            LABEL_COMMITMENT, com);
    for (unsigned i = 1; i <= k; i++) {
        char msg[512], dhex[2 * TTS_MAX_M + 1];
        uint8_t dg[TTS_MAX_M];
        int ml = message_text(msg, sizeof msg, p, i, k, date);
        if (ml < 0 || tts_digest(p, dg, (const uint8_t *)msg, (size_t)ml)
                          != TTS_OK) {
            fail("message %u: internal error", i);
            goto out;
        }
        sodium_bin2hex(dhex, sizeof dhex, dg, tts_digest_bytes(p));
        snprintf(path, sizeof path, "%s/msg-%u.txt", sub, i);
        if (write_new(path, msg, (size_t)ml, 0644) != ST_OK)
            goto out;
        snprintf(path, sizeof path, "%s/msg-%u.digest", sub, i);
        if (write_new(path, dg, tts_digest_bytes(p), 0644) != ST_OK)
            goto out;
        fprintf(mf, "%s\n    {\"index\": %u, \"file\": \"msg-%u.txt\", "
                    "\"digest\": \"%s\"}",
                i == 1 ? "" : ",", i, i, dhex);
    }
    fprintf(mf, "\n  ]\n}\n");
    if (fclose(mf) != 0) {
        mf = NULL;
        fail("out of memory");
        goto out;
    }
    mf = NULL;
    snprintf(path, sizeof path, "%s/manifest.json", sub);
    if (write_new(path, mbuf, mlen, 0644) != ST_OK)
        goto out;
    rc = ST_OK;
out:
    if (mf)
        fclose(mf);
    free(mbuf);
    sodium_memzero(seed, sizeof seed);
    if (sk)
        sodium_memzero(sk, sklen);
    free(sk);
    free(pk);
    return rc;
}

static int cmd_generate(int argc, char **argv)
{
    unsigned mask = 0, k = 4;
    const char *seedpath = NULL, *date = NULL, *out = NULL;
    int discard = 0;
    uint8_t master[MASTER_BYTES];

    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (strcmp(a, "--params") == 0 && has) {
            if (add_params(&mask, argv[++i]) != ST_OK)
                return ST_ERROR;
        } else if (strcmp(a, "--instances") == 0 && has) {
            char *end;
            errno = 0;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (errno || *end || v < 1 || v > MAX_INSTANCES ||
                argv[i][0] == '-')
                return fail("--instances: expected 1..%d", MAX_INSTANCES);
            k = (unsigned)v;
        } else if (strcmp(a, "--master-seed") == 0 && has)
            seedpath = argv[++i];
        else if (strcmp(a, "--date") == 0 && has)
            date = argv[++i];
        else if (strcmp(a, "--out") == 0 && has)
            out = argv[++i];
        else if (strcmp(a, "--discard-secret") == 0)
            discard = 1;
        else
            return fail("generate: unexpected or incomplete argument '%s'",
                        a);
    }
    if (!out)
        return fail("generate: --out DIR is required");
    if (!date)
        return fail("generate: --date YYYY-MM-DD is required (the date is "
                    "never taken from the clock)");
    if (!valid_date(date))
        return fail("generate: bad date '%s', expected YYYY-MM-DD", date);
    if (!mask)
        add_params(&mask, "all");
    if (seedpath) {
        if (read_master(seedpath, master) != ST_OK)
            return ST_ERROR;
    } else
        randombytes_buf(master, sizeof master);

    if (mkdir(out, 0755) != 0 && errno != EEXIST)
        return fail("%s: %s", out, strerror(errno));
    int rc = ST_OK;
    if (!discard) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", out, SECRET_NAME);
        rc = write_new(path, master, sizeof master, 0600);
    }
    for (size_t i = 0; rc == ST_OK && i < tts_params_count(); i++)
        if (mask & (1u << i))
            rc = gen_one(out, tts_params_at(i), master, k, date);
    sodium_memzero(master, sizeof master);
    if (rc == ST_OK)
        printf("challenge written to %s%s\n", out,
               discard ? " (master seed discarded)" : "");
    return rc;
}

/* ---- verify and reveal-check ----------------------------------------- */

/* The string value of "key" in a manifest written by gen_one. */
static int read_text(const char *path, char **text)
{
    uint8_t *buf;
    size_t len;
    char err[256];

    if (ttsfile_read_raw(path, TTSFILE_MAX_BYTES, 0, &buf, &len, err,
                         sizeof err) != TTSFILE_OK)
        return fail("%s", err);
    if (memchr(buf, 0, len)) {
        ttsfile_free(buf, len);
        return fail("%s: contains a NUL byte (not a manifest)", path);
    }
    *text = malloc(len + 1);
    if (!*text) {
        ttsfile_free(buf, len);
        return fail("out of memory");
    }
    memcpy(*text, buf, len);
    (*text)[len] = 0;
    ttsfile_free(buf, len);
    return ST_OK;
}

static int cmd_verify(int argc, char **argv)
{
    const char *dir = NULL, *solpath = NULL, *msgarg = NULL;
    char err[256], sub[32], path[4200];
    int rc = ST_ERROR;

    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--message") == 0 && i + 1 < argc)
            msgarg = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1])
            return fail("verify: unexpected argument '%s'", argv[i]);
        else if (!dir)
            dir = argv[i];
        else if (!solpath)
            solpath = argv[i];
        else
            return fail("verify: too many arguments");
    }
    if (!dir || !solpath || !msgarg)
        return fail("verify: usage: verify DIR SOLUTION --message I");
    char *end;
    errno = 0;
    unsigned long idx = strtoul(msgarg, &end, 10);
    if (errno || *end || idx < 1 || idx > MAX_INSTANCES || msgarg[0] == '-')
        return fail("verify: --message: expected a message number 1..%d",
                    MAX_INSTANCES);

    const tts_params *ps, *pp;
    uint8_t *sig = NULL, *pk = NULL, *msg = NULL;
    size_t siglen = 0, pklen = 0, msglen = 0;
    if (ttsfile_read(solpath, TTSFILE_SIGNATURE, &ps, &sig, &siglen, err,
                     sizeof err) != TTSFILE_OK) {
        fail("solution refused: %s", err);
        goto out;
    }
    folder_name(sub, sizeof sub, ps);
    snprintf(path, sizeof path, "%s/%s/pk.tts", dir, sub);
    if (ttsfile_read(path, TTSFILE_PUBLIC_KEY, &pp, &pk, &pklen, err,
                     sizeof err) != TTSFILE_OK) {
        fail("no challenge for the solution's set %s: %s",
             tts_params_name(ps), err);
        goto out;
    }
    if (pp != ps) {
        fail("%s holds a key of %s, the solution is for %s", path,
             tts_params_name(pp), tts_params_name(ps));
        goto out;
    }
    snprintf(path, sizeof path, "%s/%s/msg-%lu.txt", dir, sub, idx);
    if (ttsfile_read_raw(path, TTSFILE_MAX_BYTES, 0, &msg, &msglen, err,
                         sizeof err) != TTSFILE_OK) {
        fail("challenge message %lu of %s: %s", idx, tts_params_name(ps),
             err);
        goto out;
    }
    if (tts_verify(ps, sig, msg, msglen, pk) == TTS_OK) {
        printf("VALID: signature of %s challenge message %lu verifies under "
               "%s/%s/pk.tts\n", tts_params_name(ps), idx, dir, sub);
        rc = ST_OK;
    } else {
        printf("INVALID: P(signature) differs from the digest of %s "
               "challenge message %lu\n", tts_params_name(ps), idx);
        rc = ST_INVALID;
    }
out:
    ttsfile_free(sig, siglen);
    ttsfile_free(pk, pklen);
    ttsfile_free(msg, msglen);
    return rc;
}

static int cmd_reveal_check(int argc, char **argv)
{
    if (argc != 2)
        return fail("reveal-check: usage: reveal-check DIR SEEDFILE");
    const char *dir = argv[0];
    uint8_t master[MASTER_BYTES];
    if (read_master(argv[1], master) != ST_OK)
        return ST_ERROR;

    int found = 0, bad = 0, rc = ST_OK;
    for (size_t i = 0; i < tts_params_count() && rc == ST_OK; i++) {
        const tts_params *p = tts_params_at(i);
        char sub[32], path[4200], err[256], want[129], got[129];
        struct stat sb;
        folder_name(sub, sizeof sub, p);
        snprintf(path, sizeof path, "%s/%s", dir, sub);
        if (stat(path, &sb) != 0)
            continue;
        found++;

        char *man = NULL;
        snprintf(path, sizeof path, "%s/%s/manifest.json", dir, sub);
        if (read_text(path, &man) != ST_OK) {
            rc = ST_ERROR;
            break;
        }
        int okf = manifest_commitment(man, want);
        free(man);
        if (okf != 0) {
            rc = fail("%s: no well-formed commitment field (128 hex digits)",
                      path);
            break;
        }

        const tts_params *pp;
        uint8_t *pkf = NULL;
        size_t pkflen = 0;
        snprintf(path, sizeof path, "%s/%s/pk.tts", dir, sub);
        if (ttsfile_read(path, TTSFILE_PUBLIC_KEY, &pp, &pkf, &pkflen, err,
                         sizeof err) != TTSFILE_OK) {
            rc = fail("%s", err);
            break;
        }
        uint8_t seed[TTS_SEED_BYTES];
        size_t pklen = tts_pk_bytes(p), sklen = tts_sk_bytes(p);
        uint8_t *pk = malloc(pklen), *sk = malloc(sklen);
        int keyok = 0;
        instance_seed(seed, master, p);
        commitment_hex(got, seed);
        if (pk && sk && pp == p &&
            tts_keypair_from_seed(p, pk, sk, seed) == TTS_OK)
            keyok = pkflen == pklen && memcmp(pk, pkf, pklen) == 0;
        if (!pk || !sk)
            rc = fail("out of memory");
        int comok = strcmp(got, want) == 0;
        printf("%-11s commitment %s, public key %s\n", tts_params_name(p),
               comok ? "ok" : "MISMATCH", keyok ? "ok" : "MISMATCH");
        bad += !comok || !keyok;
        sodium_memzero(seed, sizeof seed);
        if (sk)
            sodium_memzero(sk, sklen);
        free(sk);
        free(pk);
        ttsfile_free(pkf, pkflen);
    }
    sodium_memzero(master, sizeof master);
    if (rc != ST_OK)
        return rc;
    if (!found)
        return fail("%s: no challenge folders found", dir);
    printf("%s: %d of %d instances %s\n", bad ? "MISMATCH" : "OK",
           found - bad, found, bad ? "match" : "match the revealed seed");
    return bad ? ST_INVALID : ST_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_text, stderr);
        return ST_ERROR;
    }
    const char *c = argv[1];
    if (strcmp(c, "help") == 0 || strcmp(c, "--help") == 0 ||
        strcmp(c, "-h") == 0) {
        fputs(usage_text, stdout);
        return ST_OK;
    }
    if (sodium_init() < 0)
        return fail("libsodium failed to initialise");
    if (strcmp(c, "estimate") == 0)
        return cmd_estimate(argc - 2, argv + 2);
    if (strcmp(c, "generate") == 0)
        return cmd_generate(argc - 2, argv + 2);
    if (strcmp(c, "verify") == 0)
        return cmd_verify(argc - 2, argv + 2);
    if (strcmp(c, "dreg") == 0 && argc == 4) {
        /* D_reg of M quadratic equations in NV variables (for tests). */
        unsigned long m = strtoul(argv[2], NULL, 10);
        unsigned long nv = strtoul(argv[3], NULL, 10);
        if (m < 1 || m > 1000 || nv < 1 || nv > m)
            return fail("dreg: expected 1 <= NV <= M <= 1000");
        printf("%u\n", dreg((unsigned)m, (unsigned)nv));
        return ST_OK;
    }
    if (strcmp(c, "reveal-check") == 0)
        return cmd_reveal_check(argc - 2, argv + 2);
    fail("unknown command '%s'", c);
    fputs(usage_text, stderr);
    return ST_ERROR;
}
