/*
 * tts-bench: TTS next to the signatures people know, on this machine, and
 * the published 2004 figures (tables B and C of REFERENCE-FIGURES.md) next
 * to today's measurement.
 *
 * usage: tts-bench primitives [--quick] [-n RUNS] [--json FILE] [--csv FILE]
 *        tts-bench table [-n RUNS]
 *        tts-bench --help
 *
 * primitives: key generation, signing and verification of a 32-byte
 * message for the eight TTS sets on every backend available here (ref,
 * swar, avx2, gfni), ECDSA on sect163k1, sect163r2 and P-256 and RSA-PSS
 * 1024/2048/3072 (OpenSSL EVP, SHA-256, salt length = hash length) and
 * Ed25519 (libsodium). Full API calls are timed: tts_keypair / tts_sign /
 * tts_verify (SHA-512 and the system generator included),
 * EVP_PKEY_keygen / EVP_DigestSign / EVP_DigestVerify (context set-up
 * included), crypto_sign_keypair / crypto_sign_detached /
 * crypto_sign_verify_detached. All schemes run interleaved round-robin
 * (round r times every scheme's operations once) after one warm-up call of
 * each operation, so a frequency change affects all schemes alike. Per
 * operation: median, min, max and mean in TSC cycles (rdtsc, reference
 * cycles; 0 on CPUs without it) and in ns (CLOCK_MONOTONIC). RSA key
 * generation takes seconds: it gets few runs.
 *
 * Sizes: TTS and Ed25519 as their raw encodings; ECDSA pk the uncompressed
 * point, RSA pk the PKCS#1 RSAPublicKey DER; sk the DER private key; the
 * ECDSA signature is the DER length of one signature (it varies by a few
 * bytes).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/opensslv.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <sodium.h>

#include "tts.h"

#include "clock.h"

#if defined(__clang__)
#define COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER "unknown"
#endif

enum { OP_KEYGEN, OP_SIGN, OP_VERIFY, N_OPS };
static const char *const op_names[N_OPS] = {"keygen", "sign", "verify"};
enum { FAM_TTS, FAM_ECDSA, FAM_RSA, FAM_ED25519 };
static const char *const fam_names[] = {"TTS", "ECDSA", "RSA-PSS", "Ed25519"};

static const uint8_t msg[32] = "tts-bench: a 32-byte message...";

typedef struct {
    uint64_t *cyc, *ns;
    size_t runs, done;
} series;

typedef struct {
    double med, min, max, mean;
} stats;

typedef struct scheme {
    char name[32];
    char backend[16]; /* TTS: the backend; others: the library */
    int family;
    int ok;
    const tts_params *p; /* TTS */
    int bits;            /* RSA modulus bits */
    const char *curve;   /* ECDSA curve name */
    size_t pk_bytes, sk_bytes, sig_bytes;
    /* keys and buffers */
    uint8_t *pk, *sk, *pk2, *sk2;
    uint8_t sig[512], sig2[512];
    size_t siglen;
    EVP_PKEY *pkey;
    EVP_PKEY_CTX *kctx;
    EVP_MD_CTX *md;
    series s[N_OPS];
    stats st_cyc[N_OPS], st_ns[N_OPS];
} scheme;

/* ---- one operation ------------------------------------------------------ */

static int evp_sign_init(scheme *sc, int verify)
{
    EVP_PKEY_CTX *pctx = NULL;
    int r = verify ? EVP_DigestVerifyInit(sc->md, &pctx, EVP_sha256(), NULL, sc->pkey)
                   : EVP_DigestSignInit(sc->md, &pctx, EVP_sha256(), NULL, sc->pkey);
    if (r != 1)
        return -1;
    if (sc->family == FAM_RSA &&
        (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) != 1 ||
         EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) != 1))
        return -1;
    return 0;
}

/* Runs one operation; *junk receives an object to free after timing. */
static int do_op(scheme *sc, int op, EVP_PKEY **junk)
{
    size_t len;
    switch (sc->family) {
    case FAM_TTS:
        if (op == OP_KEYGEN)
            return tts_keypair(sc->p, sc->pk2, sc->sk2) == TTS_OK ? 0 : -1;
        if (op == OP_SIGN)
            return tts_sign(sc->p, sc->sig2, msg, sizeof msg, sc->sk) == TTS_OK ? 0 : -1;
        return tts_verify(sc->p, sc->sig, msg, sizeof msg, sc->pk) == TTS_OK ? 0 : -1;
    case FAM_ED25519:
        if (op == OP_KEYGEN)
            return crypto_sign_keypair(sc->pk2, sc->sk2);
        if (op == OP_SIGN)
            return crypto_sign_detached(sc->sig2, NULL, msg, sizeof msg, sc->sk);
        return crypto_sign_verify_detached(sc->sig, msg, sizeof msg, sc->pk);
    default:
        if (op == OP_KEYGEN)
            return EVP_PKEY_keygen(sc->kctx, junk) == 1 ? 0 : -1;
        if (op == OP_SIGN) {
            len = sizeof sc->sig2;
            if (evp_sign_init(sc, 0) || EVP_DigestSign(sc->md, sc->sig2, &len, msg, sizeof msg) != 1)
                return -1;
            return 0;
        }
        if (evp_sign_init(sc, 1) ||
            EVP_DigestVerify(sc->md, sc->sig, sc->siglen, msg, sizeof msg) != 1)
            return -1;
        return 0;
    }
}

static int timed(scheme *sc, int op, uint64_t *cyc, uint64_t *ns)
{
    EVP_PKEY *junk = NULL;
    if (sc->family == FAM_TTS && tts_set_backend(sc->backend) != TTS_OK)
        return -1;
    uint64_t t0 = now_ns(), c0 = cycles();
    int rc = do_op(sc, op, &junk);
    uint64_t c1 = cycles(), t1 = now_ns();
    EVP_PKEY_free(junk);
    if (cyc) {
        *cyc = c1 - c0;
        *ns = t1 - t0;
    }
    return rc;
}

/* ---- set-up ------------------------------------------------------------- */

static int setup_tts(scheme *sc)
{
    uint8_t seed[TTS_SEED_BYTES] = {42};
    sc->pk_bytes = tts_pk_bytes(sc->p);
    sc->sk_bytes = tts_sk_bytes(sc->p);
    sc->sig_bytes = tts_sig_bytes(sc->p);
    sc->pk = malloc(sc->pk_bytes);
    sc->sk = malloc(sc->sk_bytes);
    sc->pk2 = malloc(sc->pk_bytes);
    sc->sk2 = malloc(sc->sk_bytes);
    if (!sc->pk || !sc->sk || !sc->pk2 || !sc->sk2 || tts_set_backend(sc->backend) != TTS_OK)
        return -1;
    if (tts_keypair_from_seed(sc->p, sc->pk, sc->sk, seed) != TTS_OK ||
        tts_sign(sc->p, sc->sig, msg, sizeof msg, sc->sk) != TTS_OK)
        return -1;
    return 0;
}

static int setup_ed25519(scheme *sc)
{
    sc->pk_bytes = crypto_sign_PUBLICKEYBYTES;
    sc->sk_bytes = crypto_sign_SECRETKEYBYTES;
    sc->sig_bytes = crypto_sign_BYTES;
    sc->pk = malloc(sc->pk_bytes);
    sc->sk = malloc(sc->sk_bytes);
    sc->pk2 = malloc(sc->pk_bytes);
    sc->sk2 = malloc(sc->sk_bytes);
    if (!sc->pk || !sc->sk || !sc->pk2 || !sc->sk2)
        return -1;
    crypto_sign_keypair(sc->pk, sc->sk);
    return crypto_sign_detached(sc->sig, NULL, msg, sizeof msg, sc->sk);
}

static int setup_evp(scheme *sc)
{
    if (sc->family == FAM_RSA) {
        sc->kctx = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL);
        if (!sc->kctx || EVP_PKEY_keygen_init(sc->kctx) != 1 ||
            EVP_PKEY_CTX_set_rsa_keygen_bits(sc->kctx, sc->bits) != 1)
            return -1;
    } else {
        int nid = OBJ_txt2nid(sc->curve);
        if (nid == NID_undef)
            nid = EC_curve_nist2nid(sc->curve);
        sc->kctx = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, NULL);
        if (nid == NID_undef || !sc->kctx || EVP_PKEY_keygen_init(sc->kctx) != 1 ||
            EVP_PKEY_CTX_set_ec_paramgen_curve_nid(sc->kctx, nid) != 1)
            return -1;
    }
    if (EVP_PKEY_keygen(sc->kctx, &sc->pkey) != 1)
        return -1;
    sc->md = EVP_MD_CTX_new();
    size_t len = sizeof sc->sig;
    if (!sc->md || evp_sign_init(sc, 0) ||
        EVP_DigestSign(sc->md, sc->sig, &len, msg, sizeof msg) != 1)
        return -1;
    sc->siglen = sc->sig_bytes = len;
    int pkl = i2d_PublicKey(sc->pkey, NULL), skl = i2d_PrivateKey(sc->pkey, NULL);
    if (pkl <= 0 || skl <= 0)
        return -1;
    sc->pk_bytes = (size_t)pkl;
    sc->sk_bytes = (size_t)skl;
    return 0;
}

static void free_scheme(scheme *sc)
{
    free(sc->pk);
    free(sc->sk);
    free(sc->pk2);
    free(sc->sk2);
    EVP_PKEY_free(sc->pkey);
    EVP_PKEY_CTX_free(sc->kctx);
    EVP_MD_CTX_free(sc->md);
    for (int op = 0; op < N_OPS; op++) {
        free(sc->s[op].cyc);
        free(sc->s[op].ns);
    }
}

/* ---- the scheme list ---------------------------------------------------- */

typedef struct {
    scheme *v;
    size_t n, cap;
    char skipped[16][96];
    size_t nskipped;
} scheme_list;

static scheme *add(scheme_list *l, int family)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        scheme *nv = realloc(l->v, l->cap * sizeof *nv);
        if (!nv)
            return NULL;
        l->v = nv;
    }
    scheme *sc = &l->v[l->n++];
    memset(sc, 0, sizeof *sc);
    sc->family = family;
    return sc;
}

static void skip(scheme_list *l, const char *name, const char *why)
{
    fprintf(stderr, "tts-bench: %s: %s: skipped\n", name, why);
    if (l->nskipped < sizeof l->skipped / sizeof l->skipped[0])
        snprintf(l->skipped[l->nskipped++], sizeof l->skipped[0], "%s: %s", name, why);
}

/* Finishes the set-up of the last scheme added, or drops it. */
static void settle(scheme_list *l, int rc, const char *why)
{
    scheme *sc = &l->v[l->n - 1];
    if (rc == 0) {
        sc->ok = 1;
        return;
    }
    skip(l, sc->name, why);
    free_scheme(sc);
    l->n--;
}

static const char *const backends[] = {"ref", "swar", "avx2", "gfni"};

/* what: bit 0 every TTS backend (else the automatic one only), bit 1 the
 * modern schemes (P-256, RSA-2048/3072, Ed25519). */
static void build_list(scheme_list *l, const char *autob, int all_backends, int modern)
{
    for (size_t b = 0; b < sizeof backends / sizeof backends[0]; b++) {
        const char *bn = all_backends ? backends[b] : autob;
        if (tts_set_backend(bn) != TTS_OK) {
            skip(l, bn, "TTS backend not built or not supported by this CPU");
            continue;
        }
        for (size_t i = 0; i < tts_params_count(); i++) {
            scheme *sc = add(l, FAM_TTS);
            if (!sc)
                return;
            sc->p = tts_params_at(i);
            snprintf(sc->name, sizeof sc->name, "%s", tts_params_name(sc->p));
            snprintf(sc->backend, sizeof sc->backend, "%s", bn);
            settle(l, setup_tts(sc), "set-up failed");
        }
        if (!all_backends)
            break;
    }
    static const char *const curves[] = {"sect163k1", "sect163r2", "P-256"};
    for (size_t i = 0; i < 3; i++) {
        if (!modern && i == 2)
            break;
        scheme *sc = add(l, FAM_ECDSA);
        if (!sc)
            return;
        sc->curve = curves[i];
        snprintf(sc->name, sizeof sc->name, "ECDSA-%s", curves[i]);
        snprintf(sc->backend, sizeof sc->backend, "openssl");
        settle(l, setup_evp(sc), "curve not available in this OpenSSL (EVP failed)");
    }
    static const int bits[] = {1024, 2048, 3072};
    for (size_t i = 0; i < 3; i++) {
        if (!modern && i > 0)
            break;
        scheme *sc = add(l, FAM_RSA);
        if (!sc)
            return;
        sc->bits = bits[i];
        snprintf(sc->name, sizeof sc->name, "RSA-PSS-%d", bits[i]);
        snprintf(sc->backend, sizeof sc->backend, "openssl");
        settle(l, setup_evp(sc), "RSA not available in this OpenSSL (EVP failed)");
    }
    if (modern) {
        scheme *sc = add(l, FAM_ED25519);
        if (!sc)
            return;
        snprintf(sc->name, sizeof sc->name, "Ed25519");
        snprintf(sc->backend, sizeof sc->backend, "libsodium");
        settle(l, setup_ed25519(sc), "set-up failed");
    }
}

/* ---- measurement -------------------------------------------------------- */

static size_t keygen_runs(const scheme *sc, size_t runs, int quick)
{
    size_t k = runs < 50 ? runs : 50;
    if (sc->family == FAM_RSA) {
        if (quick)
            k = sc->bits <= 1024 ? 3 : 1;
        else
            k = sc->bits <= 1024 ? 10 : sc->bits <= 2048 ? 5 : 3;
    }
    return k ? k : 1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static stats summarize(uint64_t *v, size_t n)
{
    stats s = {0, 0, 0, 0};
    if (!n)
        return s;
    qsort(v, n, sizeof *v, cmp_u64);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (double)v[i];
    s.min = (double)v[0];
    s.max = (double)v[n - 1];
    s.med = n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
    s.mean = sum / (double)n;
    return s;
}

static int measure(scheme_list *l, size_t runs, int quick)
{
    size_t rounds = 0;
    for (size_t i = 0; i < l->n; i++) {
        scheme *sc = &l->v[i];
        for (int op = 0; op < N_OPS; op++) {
            series *s = &sc->s[op];
            s->runs = op == OP_KEYGEN ? keygen_runs(sc, runs, quick) : runs;
            s->cyc = calloc(s->runs, sizeof *s->cyc);
            s->ns = calloc(s->runs, sizeof *s->ns);
            if (!s->cyc || !s->ns)
                return -1;
            if (s->runs > rounds)
                rounds = s->runs;
            /* warm-up (the set-up key generation warms RSA keygen) */
            if (!(op == OP_KEYGEN && sc->family == FAM_RSA) && timed(sc, op, NULL, NULL)) {
                fprintf(stderr, "tts-bench: %s %s failed\n", sc->name, op_names[op]);
                return -1;
            }
        }
    }
    uint64_t start = now_ns(), last = start;
    for (size_t r = 0; r < rounds; r++) {
        for (size_t i = 0; i < l->n; i++) {
            scheme *sc = &l->v[i];
            for (int op = 0; op < N_OPS; op++) {
                series *s = &sc->s[op];
                if (r >= s->runs)
                    continue;
                if (timed(sc, op, &s->cyc[r], &s->ns[r])) {
                    fprintf(stderr, "tts-bench: %s %s failed\n", sc->name, op_names[op]);
                    return -1;
                }
                s->done++;
            }
        }
        uint64_t t = now_ns();
        if (t - last > 1000000000u && isatty(2)) {
            fprintf(stderr, "\rtts-bench: round %zu/%zu (%.0f s)", r + 1, rounds,
                    (double)(t - start) / 1e9);
            last = t;
        }
    }
    if (isatty(2) && now_ns() - start > 1000000000u)
        fprintf(stderr, "\n");
    for (size_t i = 0; i < l->n; i++)
        for (int op = 0; op < N_OPS; op++) {
            scheme *sc = &l->v[i];
            sc->st_cyc[op] = summarize(sc->s[op].cyc, sc->s[op].done);
            sc->st_ns[op] = summarize(sc->s[op].ns, sc->s[op].done);
        }
    return 0;
}

/* ---- environment -------------------------------------------------------- */

/* The CPU flags that matter to the backends and to OpenSSL/libsodium. */
static void cpu_flags(char *buf, size_t len)
{
    static const char *const want[] = {"sse2", "ssse3", "sse4_1", "avx", "avx2", "bmi2",
                                       "adx", "aes", "pclmulqdq", "sha_ni", "gfni",
                                       "avx512f", "avx512bw", "vpclmulqdq"};
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    buf[0] = '\0';
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0) {
            for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
                char pat[32];
                snprintf(pat, sizeof pat, " %s", want[i]);
                char *h = strstr(line, pat);
                size_t k = strlen(pat);
                if (h && (h[k] == ' ' || h[k] == '\n' || h[k] == '\0')) {
                    size_t used = strlen(buf);
                    snprintf(buf + used, len - used, "%s%s", used ? " " : "", want[i]);
                }
            }
            break;
        }
    if (f)
        fclose(f);
}

typedef struct {
    char cpu[128];
    char flags[256];
    long cores;
    char date[32];
    const char *autob;
} env;

static void get_env(env *e, const char *autob)
{
    cpu_model(e->cpu, sizeof e->cpu);
    cpu_flags(e->flags, sizeof e->flags);
    e->cores = sysconf(_SC_NPROCESSORS_ONLN);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(e->date, sizeof e->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    e->autob = autob;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void json_stats(FILE *f, const char *name, const stats *s)
{
    fprintf(f, "\"%s\": {\"median\": %.1f, \"min\": %.1f, \"max\": %.1f, \"mean\": %.1f}", name,
            s->med, s->min, s->max, s->mean);
}

static int write_json(const char *path, const scheme_list *l, const env *e, size_t runs,
                      int quick)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "{\n  \"tool\": \"tts-bench\",\n  \"version\": \"%s\",\n", TTS_VERSION_STRING);
    fprintf(f, "  \"mode\": \"primitives\",\n  \"quick\": %s,\n  \"runs\": %zu,\n",
            quick ? "true" : "false", runs);
    fprintf(f, "  \"environment\": {\n    \"cpu\": ");
    json_str(f, e->cpu);
    fprintf(f, ",\n    \"cpu_flags\": ");
    json_str(f, e->flags);
    fprintf(f, ",\n    \"cores\": %ld,\n    \"compiler\": ", e->cores);
    json_str(f, COMPILER);
    fprintf(f, ",\n    \"openssl\": ");
    json_str(f, OpenSSL_version(OPENSSL_VERSION));
    fprintf(f, ",\n    \"libsodium\": ");
    json_str(f, sodium_version_string());
    fprintf(f, ",\n    \"libtts\": \"%s\",\n    \"default_backend\": \"%s\",\n", TTS_VERSION_STRING,
            e->autob);
    fprintf(f, "    \"cycle_source\": \"%s\",\n    \"date\": \"%s\"\n  },\n", CYCLE_SOURCE,
            e->date);
    fprintf(f, "  \"skipped\": [");
    for (size_t i = 0; i < l->nskipped; i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_str(f, l->skipped[i]);
    }
    fprintf(f, "],\n  \"results\": [\n");
    for (size_t i = 0; i < l->n; i++) {
        const scheme *sc = &l->v[i];
        fprintf(f, "    {\"scheme\": \"%s\", \"family\": \"%s\", \"backend\": \"%s\", ", sc->name,
                fam_names[sc->family], sc->backend);
        fprintf(f, "\"pk_bytes\": %zu, \"sk_bytes\": %zu, \"sig_bytes\": %zu,\n     \"ops\": {",
                sc->pk_bytes, sc->sk_bytes, sc->sig_bytes);
        for (int op = 0; op < N_OPS; op++) {
            fprintf(f, "%s\n      \"%s\": {\"runs\": %zu, ", op ? "," : "", op_names[op],
                    sc->s[op].done);
            json_stats(f, "cycles", &sc->st_cyc[op]);
            fprintf(f, ", ");
            json_stats(f, "ns", &sc->st_ns[op]);
            fprintf(f, "}");
        }
        fprintf(f, "}}%s\n", i + 1 < l->n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}

/* CSV: "# key: value" metadata lines, a header, one row per operation. */
static int write_csv(const char *path, const scheme_list *l, const env *e, size_t runs,
                     int quick)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "# tool: tts-bench %s\n# mode: primitives%s\n# runs: %zu\n", TTS_VERSION_STRING,
            quick ? " --quick" : "", runs);
    fprintf(f, "# cpu: %s\n# cpu_flags: %s\n# cores: %ld\n# compiler: %s\n", e->cpu, e->flags,
            e->cores, COMPILER);
    fprintf(f, "# openssl: %s\n# libsodium: %s\n# default_backend: %s\n",
            OpenSSL_version(OPENSSL_VERSION), sodium_version_string(), e->autob);
    fprintf(f, "# cycle_source: %s\n# date: %s\n", CYCLE_SOURCE, e->date);
    for (size_t i = 0; i < l->nskipped; i++)
        fprintf(f, "# skipped: %s\n", l->skipped[i]);
    fprintf(f, "scheme,family,backend,op,runs,median_cycles,min_cycles,max_cycles,mean_cycles,"
               "median_ns,min_ns,max_ns,mean_ns,pk_bytes,sk_bytes,sig_bytes\n");
    for (size_t i = 0; i < l->n; i++) {
        const scheme *sc = &l->v[i];
        for (int op = 0; op < N_OPS; op++) {
            const stats *c = &sc->st_cyc[op], *n = &sc->st_ns[op];
            fprintf(f, "\"%s\",%s,%s,%s,%zu,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%zu,%zu,%zu\n",
                    sc->name, fam_names[sc->family], sc->backend, op_names[op], sc->s[op].done,
                    c->med, c->min, c->max, c->mean, n->med, n->min, n->max, n->mean,
                    sc->pk_bytes, sc->sk_bytes, sc->sig_bytes);
        }
    }
    return fclose(f) == 0 ? 0 : -1;
}

static void print_env(const env *e, size_t runs)
{
    printf("# cpu: %s (%ld cores); compiler: %s\n", e->cpu, e->cores, COMPILER);
    printf("# cpu flags: %s\n", e->flags);
    printf("# %s; libsodium %s; libtts %s, automatic backend %s\n",
           OpenSSL_version(OPENSSL_VERSION), sodium_version_string(), TTS_VERSION_STRING, e->autob);
    printf("# cycles: %s; runs: %zu per operation (key generation: fewer); %s\n", CYCLE_SOURCE,
           runs, e->date);
}

/* ---- commands ----------------------------------------------------------- */

static int cmd_primitives(size_t runs, int quick, const char *json, const char *csv,
                          const char *autob)
{
    scheme_list l = {0};
    env e;
    get_env(&e, autob);
    build_list(&l, autob, 1, 1);
    int rc = measure(&l, runs, quick);
    if (rc == 0) {
        print_env(&e, runs);
        for (size_t i = 0; i < l.nskipped; i++)
            printf("# skipped: %s\n", l.skipped[i]);
        printf("%-18s %-9s %-6s %5s %12s %12s %12s %12s %11s %11s %11s %11s\n", "scheme",
               "backend", "op", "runs", "med_cyc", "min_cyc", "max_cyc", "mean_cyc", "med_us",
               "min_us", "max_us", "mean_us");
        for (size_t i = 0; i < l.n; i++) {
            const scheme *sc = &l.v[i];
            for (int op = 0; op < N_OPS; op++) {
                const stats *c = &sc->st_cyc[op], *n = &sc->st_ns[op];
                printf("%-18s %-9s %-6s %5zu %12.0f %12.0f %12.0f %12.0f %11.2f %11.2f %11.2f "
                       "%11.2f\n",
                       sc->name, sc->backend, op_names[op], sc->s[op].done, c->med, c->min,
                       c->max, c->mean, n->med / 1e3, n->min / 1e3, n->max / 1e3, n->mean / 1e3);
            }
        }
        printf("\n%-18s %-9s %8s %8s %8s\n", "scheme", "backend", "pk_B", "sk_B", "sig_B");
        for (size_t i = 0; i < l.n; i++)
            printf("%-18s %-9s %8zu %8zu %8zu\n", l.v[i].name, l.v[i].backend, l.v[i].pk_bytes,
                   l.v[i].sk_bytes, l.v[i].sig_bytes);
        if (json)
            rc |= write_json(json, &l, &e, runs, quick);
        if (csv)
            rc |= write_csv(csv, &l, &e, runs, quick);
    }
    for (size_t i = 0; i < l.n; i++)
        free_scheme(&l.v[i]);
    free(l.v);
    return rc ? 1 : 0;
}

/* Published figures, REFERENCE-FIGURES.md tables B and C (ms). */
static const struct {
    const char *name, *match;
    double kg, sg, vf;
    const char *sig, *pk, *sk;
} table_b[] = {
    {"ECDSA-163", "ECDSA-sect163k1", 1.6, 1.9, 5.1, "326 bits", "48 B", "24 B"},
    {"RSA-PSS-1024", "RSA-PSS-1024", 2700, 84, 2.0, "1024 bits", "128 B", "320 B"},
    {"SFLASH(26,37)", NULL, 1500, 2.8, 0.39, "259 bits", "15.4 KB", "2.4 KB"},
    {"TTS(20,28)", "TTS(20,28)", 15.8, 0.045, 0.25, "224 bits", "8.6 KB", "1.4 KB"},
};

static const struct {
    const char *name;
    double p1[3], p2[3];
} table_c[] = {
    {"TTS(16,22)", {6.2, 0.028, 0.13}, {0.9, 0.004, 0.01}},
    {"TTS(20,26)", {11.8, 0.037, 0.22}, {1.8, 0.006, 0.02}},
    {"TTS(20,28)", {15.8, 0.045, 0.25}, {2.2, 0.007, 0.02}},
    {"TTS(24,32)", {24.0, 0.057, 0.38}, {3.7, 0.009, 0.03}},
    {"TTS(24,34)", {32.8, 0.068, 0.42}, {4.4, 0.011, 0.03}},
    {"TTS(28,38)", {48.0, 0.087, 0.63}, {7.5, 0.012, 0.05}},
    {"TTS(32,44)", {89.0, 0.110, 0.94}, {13.2, 0.017, 0.07}},
    {"TTS(36,50)", {132, 0.152, 1.32}, {21.6, 0.022, 0.10}},
};

static const scheme *find(const scheme_list *l, const char *name)
{
    for (size_t i = 0; name && i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0)
            return &l->v[i];
    return NULL;
}

/* today's median, ms */
static double ms(const scheme *sc, int op) { return sc ? sc->st_ns[op].med / 1e6 : 0; }

static void fmt_ms(char *buf, size_t len, double v)
{
    if (v <= 0)
        snprintf(buf, len, "-");
    else if (v >= 100)
        snprintf(buf, len, "%.0f", v);
    else if (v >= 1)
        snprintf(buf, len, "%.2f", v);
    else
        snprintf(buf, len, "%.4f", v);
}

static void ratio_line(const scheme_list *l, const char *what, const char *slow, int sop,
                       double pub_slow, const char *fast, int fop, double pub_fast)
{
    const scheme *a = find(l, slow), *b = find(l, fast);
    double pub = pub_slow / pub_fast;
    printf("  %-44s %9.*fx", what, pub < 10 ? 2 : 1, pub);
    if (a && b && ms(b, fop) > 0) {
        double now = ms(a, sop) / ms(b, fop);
        printf(" %11.*fx\n", now < 10 ? 2 : 1, now);
    } else {
        printf(" %12s\n", "not measured");
    }
}

static int cmd_table(size_t runs, const char *autob)
{
    scheme_list l = {0};
    env e;
    get_env(&e, autob);
    build_list(&l, autob, 0, 0);
    int rc = measure(&l, runs, 1);
    if (rc) {
        for (size_t i = 0; i < l.n; i++)
            free_scheme(&l.v[i]);
        free(l.v);
        return 1;
    }
    print_env(&e, runs);
    printf("# published: P1 = Pentium III 500 MHz, P2 = Pentium 4 2.4 GHz (2004);"
           " today: medians of a quick run, ms\n");
    printf("# ECDSA-163 today is sect163k1 (sect163r2 below); sizes today:"
           " raw TTS, DER/octet EC and RSA\n\n");
    printf("Table B: performance comparison (published on P1 vs today)\n");
    printf("%-15s %9s %9s  %9s %9s  %9s %9s  %10s %9s %9s  %s\n", "scheme", "keygen", "today",
           "sign", "today", "verify", "today", "sig", "pk", "sk", "sizes today (sig/pk/sk B)");
    for (size_t i = 0; i < sizeof table_b / sizeof table_b[0]; i++) {
        const scheme *sc = find(&l, table_b[i].match);
        char k[16], s[16], v[16], tk[16], ts[16], tv[16], sz[48];
        fmt_ms(k, sizeof k, table_b[i].kg);
        fmt_ms(s, sizeof s, table_b[i].sg);
        fmt_ms(v, sizeof v, table_b[i].vf);
        if (sc) {
            fmt_ms(tk, sizeof tk, ms(sc, OP_KEYGEN));
            fmt_ms(ts, sizeof ts, ms(sc, OP_SIGN));
            fmt_ms(tv, sizeof tv, ms(sc, OP_VERIFY));
            snprintf(sz, sizeof sz, "%zu/%zu/%zu", sc->sig_bytes, sc->pk_bytes, sc->sk_bytes);
        } else {
            snprintf(tk, sizeof tk, "-");
            snprintf(ts, sizeof ts, "-");
            snprintf(tv, sizeof tv, "-");
            snprintf(sz, sizeof sz, table_b[i].match ? "skipped (not available here)"
                                                     : "not measured (not implemented)");
        }
        printf("%-15s %9s %9s  %9s %9s  %9s %9s  %10s %9s %9s  %s\n", table_b[i].name, k, tk, s,
               ts, v, tv, table_b[i].sig, table_b[i].pk, table_b[i].sk, sz);
    }
    const scheme *r2 = find(&l, "ECDSA-sect163r2");
    if (r2) {
        char tk[16], ts[16], tv[16];
        fmt_ms(tk, sizeof tk, ms(r2, OP_KEYGEN));
        fmt_ms(ts, sizeof ts, ms(r2, OP_SIGN));
        fmt_ms(tv, sizeof tv, ms(r2, OP_VERIFY));
        printf("%-15s %9s %9s  %9s %9s  %9s %9s  %10s %9s %9s  %zu/%zu/%zu\n", "(sect163r2)", "",
               tk, "", ts, "", tv, "", "", "", r2->sig_bytes, r2->pk_bytes, r2->sk_bytes);
    }

    printf("\nClaimed ratios (published P1 vs today; >1 means TTS is faster)\n");
    printf("  %-44s %10s %12s\n", "", "published", "today");
    ratio_line(&l, "RSA-PSS-1024 sign / TTS(20,28) sign", "RSA-PSS-1024", OP_SIGN, 84,
               "TTS(20,28)", OP_SIGN, 0.045);
    ratio_line(&l, "ECDSA-163 sign / TTS(20,28) sign", "ECDSA-sect163k1", OP_SIGN, 1.9,
               "TTS(20,28)", OP_SIGN, 0.045);
    ratio_line(&l, "ECDSA-163 verify / TTS(20,28) verify", "ECDSA-sect163k1", OP_VERIFY, 5.1,
               "TTS(20,28)", OP_VERIFY, 0.25);
    ratio_line(&l, "RSA-PSS-1024 verify / TTS(20,28) verify", "RSA-PSS-1024", OP_VERIFY, 2.0,
               "TTS(20,28)", OP_VERIFY, 0.25);
    ratio_line(&l, "RSA-PSS-1024 keygen / TTS(20,28) keygen", "RSA-PSS-1024", OP_KEYGEN, 2700,
               "TTS(20,28)", OP_KEYGEN, 15.8);
    ratio_line(&l, "ECDSA-163 keygen / TTS(20,28) keygen", "ECDSA-sect163k1", OP_KEYGEN, 1.6,
               "TTS(20,28)", OP_KEYGEN, 15.8);
    printf("  %-44s %10s %12s\n", "SFLASH(26,37) (any ratio)", "-", "not measured (not implemented)");

    printf("\nTable C: TTS performance report, ms (P1, P2 published; today backend %s)\n", autob);
    printf("%-11s | %8s %8s %8s | %8s %8s %8s | %8s %8s %8s | %7s %7s\n", "set", "P1 setup",
           "sign", "verify", "P2 setup", "sign", "verify", "today kg", "sign", "verify", "P2/now",
           "P2/now");
    printf("%-11s | %8s %8s %8s | %8s %8s %8s | %8s %8s %8s | %7s %7s\n", "", "", "", "", "", "",
           "", "", "", "", "sign", "verify");
    for (size_t i = 0; i < sizeof table_c / sizeof table_c[0]; i++) {
        const scheme *sc = find(&l, table_c[i].name);
        char t[3][16];
        for (int op = 0; op < N_OPS; op++)
            fmt_ms(t[op], sizeof t[op], ms(sc, op));
        printf("%-11s | %8.1f %8.3f %8.2f | %8.1f %8.3f %8.2f | %8s %8s %8s |", table_c[i].name,
               table_c[i].p1[0], table_c[i].p1[1], table_c[i].p1[2], table_c[i].p2[0],
               table_c[i].p2[1], table_c[i].p2[2], t[0], t[1], t[2]);
        if (sc && ms(sc, OP_SIGN) > 0 && ms(sc, OP_VERIFY) > 0)
            printf(" %6.1fx %6.1fx\n", table_c[i].p2[1] / ms(sc, OP_SIGN),
                   table_c[i].p2[2] / ms(sc, OP_VERIFY));
        else
            printf(" %7s %7s\n", "-", "-");
    }
    for (size_t i = 0; i < l.nskipped; i++)
        printf("# skipped: %s\n", l.skipped[i]);
    for (size_t i = 0; i < l.n; i++)
        free_scheme(&l.v[i]);
    free(l.v);
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: tts-bench primitives [--quick] [-n RUNS] [--json FILE] [--csv FILE]\n"
               "       tts-bench table [-n RUNS]\n"
               "       tts-bench --help\n"
               "primitives: keygen/sign/verify of TTS (every backend), ECDSA (sect163k1,\n"
               "  sect163r2, P-256), RSA-PSS (1024, 2048, 3072) and Ed25519, interleaved;\n"
               "  median/min/max/mean in cycles and ns, key and signature sizes.\n"
               "table: the published tables B and C (2004) next to a quick measurement.\n"
               "  -n RUNS  runs per sign/verify (default 200, --quick and table 15)\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    const char *cmd = argv[1], *json = NULL, *csv = NULL;
    int quick = 0;
    size_t runs = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v < 1 || v > 1000000) {
                fprintf(stderr, "tts-bench: -n wants 1..1000000\n");
                return 2;
            }
            runs = v;
        } else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            json = argv[++i];
        } else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            csv = argv[++i];
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "tts-bench: libsodium initialisation failed\n");
        return 1;
    }
    static char autob[16];
    snprintf(autob, sizeof autob, "%s", tts_backend());
    if (strcmp(cmd, "primitives") == 0)
        return cmd_primitives(runs ? runs : quick ? 15 : 200, quick, json, csv, autob);
    if (strcmp(cmd, "table") == 0 && !json && !csv && !quick)
        return cmd_table(runs ? runs : 15, autob);
    usage(stderr);
    return 2;
}
