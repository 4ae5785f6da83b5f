/*
 * tts-bench: TTS next to the signatures people know, on this machine, and
 * the published 2004 figures (tables B and C of REFERENCE-FIGURES.md) next
 * to today's measurement.
 *
 * usage: tts-bench primitives|table|files [--quick] [-n RUNS] [--json FILE]
 *                  [--csv FILE] [--plot DIR]
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
 * files: the file-signing experiment of section E (the national-eID
 * study): files of 1 KB ... 10 MB are written to a temporary folder, read
 * back for every run and signed, with the time split into hashing (grows
 * with the size) and the private-key operation (constant). Every signature
 * is verified, untimed, through the full-message API, so that a broken
 * split cannot report a speed.
 *
 * Sizes: TTS and Ed25519 as their raw encodings; ECDSA pk the uncompressed
 * point, RSA pk the PKCS#1 RSAPublicKey DER; sk the DER private key; the
 * ECDSA signature is the DER length of one signature (it varies by a few
 * bytes).
 *
 * Reports (--json, --csv) and charts (--plot) are described, field by
 * field, in tts-bench(1) and docs/bench-schema.json.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
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

#include "sflash.h"
#include "tts.h"

#include "clock.h"

#if defined(__clang__)
#define COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER "unknown"
#endif

/* The CFLAGS of the build (libtts too; its SIMD kernels add -mavx2 or
 * -mgfni), passed by Makefile.am. */
#ifndef TTS_BENCH_CFLAGS
#define TTS_BENCH_CFLAGS "unknown"
#endif

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum { OP_KEYGEN, OP_SIGN, OP_VERIFY, N_OPS };
static const char *const op_names[N_OPS] = {"keygen", "sign", "verify"};
enum { FAM_TTS, FAM_ECDSA, FAM_RSA, FAM_ED25519, FAM_SFLASH };
static const char *const fam_names[] = {"TTS", "ECDSA", "RSA-PSS", "Ed25519", "SFLASH"};

static const uint8_t msg[32] = "tts-bench: a 32-byte message...";

/* ---- statistics --------------------------------------------------------- */

typedef struct {
    double med, min, max, mean;
} stats;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Median, min, max and mean of v[0..n-1], from a sorted copy: the
 * reports keep the samples in run order (first-run effects stay
 * visible). */
static int summarize(const uint64_t *v, size_t n, stats *s)
{
    memset(s, 0, sizeof *s);
    if (!n)
        return 0;
    uint64_t *w = malloc(n * sizeof *w);
    if (!w)
        return -1;
    memcpy(w, v, n * sizeof *w);
    qsort(w, n, sizeof *w, cmp_u64);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (double)w[i];
    s->min = (double)w[0];
    s->max = (double)w[n - 1];
    s->med = n % 2 ? (double)w[n / 2] : ((double)w[n / 2 - 1] + (double)w[n / 2]) / 2;
    s->mean = sum / (double)n;
    free(w);
    return 0;
}

/* ---- skipped schemes ---------------------------------------------------- */

typedef struct {
    char v[16][96];
    size_t n;
} skiplist;

static void skip(skiplist *l, const char *name, const char *why)
{
    fprintf(stderr, "tts-bench: %s: %s: skipped\n", name, why);
    if (l->n < COUNT(l->v))
        snprintf(l->v[l->n++], sizeof l->v[0], "%s: %s", name, why);
}

/* ---- OpenSSL helpers (primitives and files) ------------------------------ */

/* A key-generation context for RSA of `bits` bits (curve NULL) or ECDSA on
 * `curve` (an OpenSSL short name such as sect163k1, or a NIST name). */
static EVP_PKEY_CTX *evp_keygen_ctx(int bits, const char *curve)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(curve ? EVP_PKEY_EC : EVP_PKEY_RSA, NULL);
    if (!c || EVP_PKEY_keygen_init(c) != 1)
        goto fail;
    if (!curve) {
        if (EVP_PKEY_CTX_set_rsa_keygen_bits(c, bits) != 1)
            goto fail;
        return c;
    }
    int nid = OBJ_txt2nid(curve);
    if (nid == NID_undef)
        nid = EC_curve_nist2nid(curve);
    if (nid == NID_undef || EVP_PKEY_CTX_set_ec_paramgen_curve_nid(c, nid) != 1)
        goto fail;
    return c;
fail:
    EVP_PKEY_CTX_free(c);
    return NULL;
}

/* RSA-PSS as the issue fixes it: SHA-256, MGF1-SHA-256 (OpenSSL's default
 * MGF1 hash is the signature hash), salt length = hash length. */
static int rsa_pss_params(EVP_PKEY_CTX *pctx)
{
    return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1 &&
                   EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1
               ? 0
               : -1;
}

/* EVP_DigestSignInit / EVP_DigestVerifyInit with SHA-256 (and PSS for RSA). */
static int evp_digest_init(EVP_MD_CTX *md, EVP_PKEY *pkey, int rsa, int verify)
{
    EVP_PKEY_CTX *pctx = NULL;
    int r = verify ? EVP_DigestVerifyInit(md, &pctx, EVP_sha256(), NULL, pkey)
                   : EVP_DigestSignInit(md, &pctx, EVP_sha256(), NULL, pkey);
    if (r != 1)
        return -1;
    return rsa ? rsa_pss_params(pctx) : 0;
}

/* ---- primitives: one operation ------------------------------------------ */

typedef struct {
    uint64_t *cyc, *ns; /* in run order */
    size_t runs, done;
} series;

typedef struct scheme {
    char name[32];
    char backend[16]; /* TTS: the backend; others: the library */
    int family;
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

/* Runs one operation; *junk receives an object to free after timing. */
static int do_op(scheme *sc, int op, EVP_PKEY **junk)
{
    size_t len;
    int rsa = sc->family == FAM_RSA;
    switch (sc->family) {
    case FAM_TTS:
        if (op == OP_KEYGEN)
            return tts_keypair(sc->p, sc->pk2, sc->sk2) == TTS_OK ? 0 : -1;
        if (op == OP_SIGN)
            return tts_sign(sc->p, sc->sig2, msg, sizeof msg, sc->sk) == TTS_OK ? 0 : -1;
        return tts_verify(sc->p, sc->sig, msg, sizeof msg, sc->pk) == TTS_OK ? 0 : -1;
    case FAM_SFLASH: {
        if (op == OP_KEYGEN) {
            uint8_t seed[SFLASH_SEED_BYTES];
            randombytes_buf(seed, sizeof seed);
            return sflash_keypair(sc->pk2, sc->sk2, seed);
        }
        if (op == OP_SIGN)
            return sflash_sign(sc->sig2, msg, sizeof msg, sc->sk);
        return sflash_verify(sc->sig, msg, sizeof msg, sc->pk);
    }
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
            if (evp_digest_init(sc->md, sc->pkey, rsa, 0) ||
                EVP_DigestSign(sc->md, sc->sig2, &len, msg, sizeof msg) != 1)
                return -1;
            return 0;
        }
        if (evp_digest_init(sc->md, sc->pkey, rsa, 1) ||
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

/* ---- primitives: set-up ------------------------------------------------- */

/* Sizes and key buffers (two pairs: the set-up's and key generation's). */
static int alloc_keys(scheme *sc, size_t pk, size_t sk, size_t sig)
{
    sc->pk_bytes = pk;
    sc->sk_bytes = sk;
    sc->sig_bytes = sig;
    sc->pk = malloc(pk);
    sc->sk = malloc(sk);
    sc->pk2 = malloc(pk);
    sc->sk2 = malloc(sk);
    return sc->pk && sc->sk && sc->pk2 && sc->sk2 ? 0 : -1;
}

static int setup_tts(scheme *sc)
{
    uint8_t seed[TTS_SEED_BYTES] = {42};
    if (alloc_keys(sc, tts_pk_bytes(sc->p), tts_sk_bytes(sc->p), tts_sig_bytes(sc->p)) ||
        tts_set_backend(sc->backend) != TTS_OK)
        return -1;
    if (tts_keypair_from_seed(sc->p, sc->pk, sc->sk, seed) != TTS_OK ||
        tts_sign(sc->p, sc->sig, msg, sizeof msg, sc->sk) != TTS_OK)
        return -1;
    return 0;
}

static int setup_ed25519(scheme *sc)
{
    if (alloc_keys(sc, crypto_sign_PUBLICKEYBYTES, crypto_sign_SECRETKEYBYTES, crypto_sign_BYTES))
        return -1;
    crypto_sign_keypair(sc->pk, sc->sk);
    return crypto_sign_detached(sc->sig, NULL, msg, sizeof msg, sc->sk);
}

/* SFLASH v2 (sflash/, docs/SFLASH.md): the historical fourth column. */
static int setup_sflash(scheme *sc)
{
    uint8_t seed[SFLASH_SEED_BYTES] = {42};
    if (alloc_keys(sc, SFLASH_PK_BYTES, SFLASH_SK_BYTES, SFLASH_SIG_BYTES))
        return -1;
    if (sflash_keypair(sc->pk, sc->sk, seed) || sflash_sign(sc->sig, msg, sizeof msg, sc->sk))
        return -1;
    return sflash_verify(sc->sig, msg, sizeof msg, sc->pk);
}

static int setup_evp(scheme *sc)
{
    sc->kctx = evp_keygen_ctx(sc->bits, sc->curve);
    if (!sc->kctx || EVP_PKEY_keygen(sc->kctx, &sc->pkey) != 1)
        return -1;
    sc->md = EVP_MD_CTX_new();
    size_t len = sizeof sc->sig;
    if (!sc->md || evp_digest_init(sc->md, sc->pkey, sc->family == FAM_RSA, 0) ||
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

/* ---- primitives: the scheme list ---------------------------------------- */

typedef struct {
    scheme *v;
    size_t n, cap;
    skiplist skipped;
} scheme_list;

static scheme *add(scheme_list *l, int family)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        scheme *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return NULL;
        l->v = nv;
        l->cap = cap;
    }
    scheme *sc = &l->v[l->n++];
    memset(sc, 0, sizeof *sc);
    sc->family = family;
    return sc;
}

/* Finishes the set-up of the last scheme added, or drops it. */
static void settle(scheme_list *l, int rc, const char *why)
{
    scheme *sc = &l->v[l->n - 1];
    if (rc == 0)
        return;
    skip(&l->skipped, sc->name, why);
    free_scheme(sc);
    l->n--;
}

static void free_list(scheme_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free_scheme(&l->v[i]);
    free(l->v);
}

static const char *const backends[] = {"ref", "swar", "avx2", "gfni", "neon"};

/* A scheme with one configuration (SFLASH, Ed25519); -1 only if out of
 * memory (a failed set-up is listed as skipped). */
static int add_single(scheme_list *l, int family, const char *name, const char *lib,
                      int (*setup)(scheme *))
{
    scheme *sc = add(l, family);
    if (!sc)
        return -1;
    snprintf(sc->name, sizeof sc->name, "%s", name);
    snprintf(sc->backend, sizeof sc->backend, "%s", lib);
    settle(l, setup(sc), "set-up failed");
    return 0;
}

/* all_backends: every TTS backend (else the automatic one only); modern:
 * also P-256, RSA-2048/3072 and Ed25519 (table measures only what the
 * 2004 tables name). */
static int build_list(scheme_list *l, const char *autob, int all_backends, int modern)
{
    for (size_t b = 0; b < COUNT(backends); b++) {
        const char *bn = all_backends ? backends[b] : autob;
        if (tts_set_backend(bn) != TTS_OK) {
            skip(&l->skipped, bn, "TTS backend not built or not supported by this CPU");
            continue;
        }
        for (size_t i = 0; i < tts_params_count(); i++) {
            scheme *sc = add(l, FAM_TTS);
            if (!sc)
                return -1;
            sc->p = tts_params_at(i);
            snprintf(sc->name, sizeof sc->name, "%s", tts_params_name(sc->p));
            snprintf(sc->backend, sizeof sc->backend, "%s", bn);
            settle(l, setup_tts(sc), "set-up failed");
        }
        if (!all_backends)
            break;
    }
    static const char *const curves[] = {"sect163k1", "sect163r2", "P-256"};
    for (size_t i = 0; i < COUNT(curves) && (modern || i < 2); i++) {
        scheme *sc = add(l, FAM_ECDSA);
        if (!sc)
            return -1;
        sc->curve = curves[i];
        snprintf(sc->name, sizeof sc->name, "ECDSA-%s", curves[i]);
        snprintf(sc->backend, sizeof sc->backend, "openssl");
        settle(l, setup_evp(sc), "curve not available in this OpenSSL (EVP failed)");
    }
    static const int bits[] = {1024, 2048, 3072};
    for (size_t i = 0; i < COUNT(bits) && (modern || i < 1); i++) {
        scheme *sc = add(l, FAM_RSA);
        if (!sc)
            return -1;
        sc->bits = bits[i];
        snprintf(sc->name, sizeof sc->name, "RSA-PSS-%d", bits[i]);
        snprintf(sc->backend, sizeof sc->backend, "openssl");
        settle(l, setup_evp(sc), "RSA not available in this OpenSSL (EVP failed)");
    }
    if (add_single(l, FAM_SFLASH, "SFLASH(26,37)", "sflash-ref", setup_sflash) ||
        (modern && add_single(l, FAM_ED25519, "Ed25519", "libsodium", setup_ed25519)))
        return -1;
    return 0;
}

/* ---- primitives: measurement -------------------------------------------- */

static size_t keygen_runs(const scheme *sc, size_t runs, int quick)
{
    size_t k = runs < 50 ? runs : 50;
    if (sc->family == FAM_RSA) {
        if (quick)
            k = sc->bits <= 1024 ? 3 : 1;
        else
            k = sc->bits <= 1024 ? 10 : sc->bits <= 2048 ? 5 : 3;
    }
    if (sc->family == FAM_SFLASH) /* tens of ms each */
        k = quick ? 3 : 10;
    return k ? k : 1;
}

/* "\r" progress on a terminal, at most once a second. */
typedef struct {
    uint64_t start, last;
} progress;

static void progress_start(progress *pr) { pr->start = pr->last = now_ns(); }

static void progress_show(progress *pr, const char *text)
{
    uint64_t t = now_ns();
    if (t - pr->last < 1000000000u || !isatty(2))
        return;
    fprintf(stderr, "\rtts-bench: %s (%.0f s)  ", text, (double)(t - pr->start) / 1e9);
    pr->last = t;
}

static void progress_end(const progress *pr)
{
    if (pr->last != pr->start)
        fprintf(stderr, "\n");
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
    progress pr;
    progress_start(&pr);
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
        char text[64];
        snprintf(text, sizeof text, "round %zu/%zu", r + 1, rounds);
        progress_show(&pr, text);
    }
    progress_end(&pr);
    for (size_t i = 0; i < l->n; i++)
        for (int op = 0; op < N_OPS; op++) {
            scheme *sc = &l->v[i];
            if (summarize(sc->s[op].cyc, sc->s[op].done, &sc->st_cyc[op]) ||
                summarize(sc->s[op].ns, sc->s[op].done, &sc->st_ns[op]))
                return -1;
        }
    return 0;
}

/* ---- files: the file-signing experiment of section E -------------------- */

/* The input sizes of the national-eID study. It does not say whether a KB
 * is 1000 or 1024 bytes; we take the binary reading usual for file sizes:
 * KB = 1024 B, MB = 1024 KB. --quick keeps three of them and 3 runs. */
static const size_t file_sizes[] = {1u << 10,  10u << 10, 50u << 10, 100u << 10,
                                    1u << 20,  2u << 20,  5u << 20,  10u << 20};
static const size_t quick_sizes[] = {1u << 10, 100u << 10, 1u << 20};
#define MAX_FILES COUNT(file_sizes)
#define QUICK_FILE_RUNS 3
#define FILE_RUNS 10

static void size_label(char *buf, size_t len, size_t bytes)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        snprintf(buf, len, "%zu MB", bytes >> 20);
    else if (bytes >= (1u << 10) && bytes % (1u << 10) == 0)
        snprintf(buf, len, "%zu KB", bytes >> 10);
    else
        snprintf(buf, len, "%zu B", bytes);
}

/* Steps of one run: reading the file back (reported, not part of the
 * signature cost), hashing, the private-key operation, and their total
 * hash + sign, measured as one span so that total = hash + sign exactly. */
enum { ST_READ, ST_HASH, ST_SIGN, ST_TOTAL, N_STEPS };
static const char *const step_names[N_STEPS] = {"read", "hash", "sign", "total"};

typedef struct {
    size_t bytes, done;
    uint64_t *ns[N_STEPS]; /* in run order; hash and sign NULL if unsplit */
    stats st[N_STEPS];
} fseries;

typedef struct fscheme fscheme;

/* One file-signing scheme. hash() leaves the digest in fs->dg; sign()
 * makes fs->sig from it (an unsplit scheme has no hash() and its sign()
 * takes the whole message). verify() checks fs->sig against the whole
 * message through the ordinary API, independently of the split. Adding a
 * scheme means one more entry in file_kinds[]. */
typedef struct {
    const char *name, *family;
    const char *hash_step, *sign_step; /* what each step times, for the reports */
    int (*setup)(fscheme *);
    int (*hash)(fscheme *, const uint8_t *m, size_t len);
    int (*sign)(fscheme *, const uint8_t *m, size_t len);
    int (*verify)(fscheme *, const uint8_t *m, size_t len);
} file_kind;

struct fscheme {
    const file_kind *k;
    char backend[16];
    const tts_params *p;
    uint8_t *pk, *sk;
    size_t sklen; /* wiped at the end */
    EVP_PKEY *pkey;
    EVP_PKEY_CTX *sctx;    /* EVP_PKEY_sign on the digest, prepared once */
    EVP_MD_CTX *md, *vmd;  /* hashing; verification */
    crypto_sign_ed25519ph_state ph;
    uint8_t dg[64];
    size_t dglen;
    uint8_t sig[512];
    size_t siglen;
    fseries res[MAX_FILES];
};

static int tts_file_setup(fscheme *fs)
{
    static const uint8_t seed[TTS_SEED_BYTES] = {42};
    fs->p = tts_params_get(fs->k->name); /* any TTS set can be listed */
    if (!fs->p)
        return -1;
    fs->pk = malloc(tts_pk_bytes(fs->p));
    fs->sk = malloc(tts_sk_bytes(fs->p));
    fs->sklen = tts_sk_bytes(fs->p);
    fs->dglen = tts_digest_bytes(fs->p);
    fs->siglen = tts_sig_bytes(fs->p);
    snprintf(fs->backend, sizeof fs->backend, "%s", tts_backend());
    return fs->pk && fs->sk && tts_keypair_from_seed(fs->p, fs->pk, fs->sk, seed) == TTS_OK
               ? 0
               : -1;
}

static int tts_file_hash(fscheme *fs, const uint8_t *m, size_t len)
{
    return tts_digest(fs->p, fs->dg, m, len) == TTS_OK ? 0 : -1;
}

static int tts_file_sign(fscheme *fs, const uint8_t *m, size_t len)
{
    (void)m, (void)len;
    return tts_sign_digest(fs->p, fs->sig, fs->dg, fs->sk, NULL, NULL) == TTS_OK ? 0 : -1;
}

static int tts_file_verify(fscheme *fs, const uint8_t *m, size_t len)
{
    return tts_verify(fs->p, fs->sig, m, len, fs->pk) == TTS_OK ? 0 : -1;
}

/* RSA-PSS-2048 and ECDSA P-256 share the EVP code: the key differs. */
static int evp_file_setup(fscheme *fs, int bits, const char *curve)
{
    EVP_PKEY_CTX *kc = evp_keygen_ctx(bits, curve);
    int ok = kc && EVP_PKEY_keygen(kc, &fs->pkey) == 1;
    EVP_PKEY_CTX_free(kc);
    snprintf(fs->backend, sizeof fs->backend, "openssl");
    fs->md = EVP_MD_CTX_new();
    fs->vmd = EVP_MD_CTX_new();
    fs->sctx = ok ? EVP_PKEY_CTX_new(fs->pkey, NULL) : NULL;
    if (!fs->md || !fs->vmd || !fs->sctx || EVP_PKEY_sign_init(fs->sctx) != 1 ||
        EVP_PKEY_CTX_set_signature_md(fs->sctx, EVP_sha256()) != 1)
        return -1;
    return curve ? 0 : rsa_pss_params(fs->sctx);
}

static int rsa_file_setup(fscheme *fs) { return evp_file_setup(fs, 2048, NULL); }
static int ecdsa_file_setup(fscheme *fs) { return evp_file_setup(fs, 0, "P-256"); }

static int evp_file_hash(fscheme *fs, const uint8_t *m, size_t len)
{
    unsigned int l = 0;
    if (EVP_DigestInit_ex(fs->md, EVP_sha256(), NULL) != 1 ||
        EVP_DigestUpdate(fs->md, m, len) != 1 || EVP_DigestFinal_ex(fs->md, fs->dg, &l) != 1)
        return -1;
    fs->dglen = l;
    return 0;
}

static int evp_file_sign(fscheme *fs, const uint8_t *m, size_t len)
{
    (void)m, (void)len;
    fs->siglen = sizeof fs->sig;
    return EVP_PKEY_sign(fs->sctx, fs->sig, &fs->siglen, fs->dg, fs->dglen) == 1 ? 0 : -1;
}

static int evp_file_verify(fscheme *fs, const uint8_t *m, size_t len)
{
    int rsa = EVP_PKEY_get_base_id(fs->pkey) == EVP_PKEY_RSA;
    return evp_digest_init(fs->vmd, fs->pkey, rsa, 1) == 0 &&
                   EVP_DigestVerify(fs->vmd, fs->sig, fs->siglen, m, len) == 1
               ? 0
               : -1;
}

static int ed_file_setup(fscheme *fs)
{
    static const uint8_t seed[crypto_sign_SEEDBYTES] = {42};
    fs->pk = malloc(crypto_sign_PUBLICKEYBYTES);
    fs->sk = malloc(crypto_sign_SECRETKEYBYTES);
    fs->sklen = crypto_sign_SECRETKEYBYTES;
    fs->siglen = crypto_sign_BYTES;
    snprintf(fs->backend, sizeof fs->backend, "libsodium");
    return fs->pk && fs->sk ? crypto_sign_seed_keypair(fs->pk, fs->sk, seed) : -1;
}

/* Ed25519ph (RFC 8032 section 5.1): the message is hashed once with
 * SHA-512 (init + update here, the finalisation in final_create), then
 * Ed25519 signs the 64-byte prehash, which hashes two short inputs holding
 * it (nonce and challenge). So the "private-key operation" includes one
 * SHA-512 finalisation and two fixed-size SHA-512 runs: constant in the
 * file size, as the split requires. */
static int edph_file_hash(fscheme *fs, const uint8_t *m, size_t len)
{
    return crypto_sign_ed25519ph_init(&fs->ph) || crypto_sign_ed25519ph_update(&fs->ph, m, len);
}

static int edph_file_sign(fscheme *fs, const uint8_t *m, size_t len)
{
    (void)m, (void)len;
    return crypto_sign_ed25519ph_final_create(&fs->ph, fs->sig, NULL, fs->sk);
}

static int edph_file_verify(fscheme *fs, const uint8_t *m, size_t len)
{
    crypto_sign_ed25519ph_state v;
    return crypto_sign_ed25519ph_init(&v) || crypto_sign_ed25519ph_update(&v, m, len) ||
           crypto_sign_ed25519ph_final_verify(&v, fs->sig, fs->pk);
}

/* Pure Ed25519 hashes the message together with the key (twice: nonce and
 * challenge), so no step is the private-key operation alone: unsplit. */
static int ed_file_sign(fscheme *fs, const uint8_t *m, size_t len)
{
    return crypto_sign_detached(fs->sig, NULL, m, len, fs->sk);
}

static int ed_file_verify(fscheme *fs, const uint8_t *m, size_t len)
{
    return crypto_sign_verify_detached(fs->sig, m, len, fs->pk);
}

static const file_kind file_kinds[] = {
    {"TTS(20,28)", "TTS", "tts_digest: the first m bytes of SHA-512",
     "tts_sign_digest (randomness from the system generator included)", tts_file_setup,
     tts_file_hash, tts_file_sign, tts_file_verify},
    {"RSA-PSS-2048", "RSA-PSS", "SHA-256 (EVP_Digest*)",
     "EVP_PKEY_sign on the digest (PSS, MGF1-SHA-256, salt 32 B)", rsa_file_setup, evp_file_hash,
     evp_file_sign, evp_file_verify},
    {"ECDSA-P-256", "ECDSA", "SHA-256 (EVP_Digest*)", "EVP_PKEY_sign on the digest",
     ecdsa_file_setup, evp_file_hash, evp_file_sign, evp_file_verify},
    {"Ed25519ph", "Ed25519", "crypto_sign_ed25519ph_init + update (SHA-512 of the file)",
     "crypto_sign_ed25519ph_final_create (SHA-512 finalisation, then Ed25519 on the 64-byte "
     "prehash: two more short SHA-512)",
     ed_file_setup, edph_file_hash, edph_file_sign, edph_file_verify},
    {"Ed25519", "Ed25519", NULL, "crypto_sign_detached over the whole file (unsplit)",
     ed_file_setup, NULL, ed_file_sign, ed_file_verify},
};

static void free_fscheme(fscheme *fs)
{
    free(fs->pk);
    if (fs->sk)
        sodium_memzero(fs->sk, fs->sklen);
    free(fs->sk);
    EVP_PKEY_free(fs->pkey);
    EVP_PKEY_CTX_free(fs->sctx);
    EVP_MD_CTX_free(fs->md);
    EVP_MD_CTX_free(fs->vmd);
    for (size_t i = 0; i < MAX_FILES; i++)
        for (int st = 0; st < N_STEPS; st++)
            free(fs->res[i].ns[st]);
}

typedef struct {
    fscheme v[COUNT(file_kinds)];
    size_t n;
    const size_t *sizes;
    size_t nsizes, runs;
    skiplist skipped;
} file_list;

/* The temporary input folder. It is removed on every exit path, also on
 * SIGINT, SIGTERM and SIGHUP: the handler calls only unlink and rmdir
 * (async-signal-safe) on paths written before the count that exposes them
 * to it is raised. */
static char tmp_dir[4096];
static char tmp_file[MAX_FILES][4096 + 32];
static volatile sig_atomic_t tmp_nfiles;

static void tmp_remove(void)
{
    for (sig_atomic_t i = 0; i < tmp_nfiles; i++)
        unlink(tmp_file[i]);
    tmp_nfiles = 0;
    if (tmp_dir[0])
        rmdir(tmp_dir);
    tmp_dir[0] = '\0';
}

static void on_signal(int sig)
{
    tmp_remove();
    raise(sig); /* SA_RESETHAND: now the default action */
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* The inputs: file i is the ChaCha20 keystream (libsodium
 * crypto_stream_chacha20, original 64-bit-nonce variant) under the all-zero
 * key with the size, little-endian, as nonce: deterministic and
 * incompressible, so anyone can recreate it. */
static int make_inputs(const file_list *fl, uint8_t *buf)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    if ((size_t)snprintf(tmp_dir, sizeof tmp_dir, "%s/tts-bench-XXXXXX", base) >= sizeof tmp_dir) {
        tmp_dir[0] = '\0';
        fprintf(stderr, "tts-bench: TMPDIR too long\n");
        return -1;
    }
    if (!mkdtemp(tmp_dir)) {
        fprintf(stderr, "tts-bench: mkdtemp %s: %s\n", tmp_dir, strerror(errno));
        tmp_dir[0] = '\0';
        return -1;
    }
    static const uint8_t key[crypto_stream_chacha20_KEYBYTES];
    for (size_t i = 0; i < fl->nsizes; i++) {
        uint8_t nonce[crypto_stream_chacha20_NONCEBYTES] = {0};
        for (size_t b = 0; b < sizeof nonce && b < sizeof(size_t); b++)
            nonce[b] = (uint8_t)(fl->sizes[i] >> (8 * b));
        snprintf(tmp_file[i], sizeof tmp_file[i], "%s/input-%zu", tmp_dir, fl->sizes[i]);
        tmp_nfiles = (sig_atomic_t)(i + 1);
        crypto_stream_chacha20(buf, fl->sizes[i], nonce, key);
        FILE *f = fopen(tmp_file[i], "wb");
        if (!f || fwrite(buf, 1, fl->sizes[i], f) != fl->sizes[i] || fclose(f) != 0) {
            fprintf(stderr, "tts-bench: writing %s: %s\n", tmp_file[i], strerror(errno));
            return -1;
        }
    }
    return 0;
}

static int read_input(const char *path, uint8_t *buf, size_t want)
{
    int fd = open(path, O_RDONLY);
    size_t got = 0;
    if (fd < 0) {
        fprintf(stderr, "tts-bench: %s: %s\n", path, strerror(errno));
        return -1;
    }
    while (got < want) {
        ssize_t r = read(fd, buf + got, want - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (got != want) {
        fprintf(stderr, "tts-bench: %s: read %zu of %zu bytes\n", path, got, want);
        return -1;
    }
    return 0;
}

/* Sizes outer, runs inner, schemes round-robin within a run: each scheme
 * reads the file back itself, and no scheme is always the first to touch
 * a fresh size. No warm-up: as in the eID study, run 1 is reported as is,
 * so first-run effects show in the per-run times and in "worst". */
static int run_files(file_list *fl, uint8_t *buf)
{
    progress pr;
    progress_start(&pr);
    for (size_t i = 0; i < fl->nsizes; i++) {
        size_t len = fl->sizes[i];
        for (size_t k = 0; k < fl->n; k++) {
            fseries *r = &fl->v[k].res[i];
            r->bytes = len;
            for (int st = 0; st < N_STEPS; st++) {
                if ((st == ST_HASH || st == ST_SIGN) && !fl->v[k].k->hash)
                    continue;
                r->ns[st] = calloc(fl->runs, sizeof *r->ns[st]);
                if (!r->ns[st])
                    return -1;
            }
        }
        for (size_t run = 0; run < fl->runs; run++) {
            for (size_t k = 0; k < fl->n; k++) {
                fscheme *fs = &fl->v[k];
                fseries *r = &fs->res[i];
                uint64_t t0 = now_ns();
                if (read_input(tmp_file[i], buf, len))
                    return -1;
                uint64_t t1 = now_ns();
                if (fs->k->hash && fs->k->hash(fs, buf, len)) {
                    fprintf(stderr, "tts-bench: %s: hashing failed\n", fs->k->name);
                    return -1;
                }
                uint64_t t2 = now_ns();
                if (fs->k->sign(fs, buf, len)) {
                    fprintf(stderr, "tts-bench: %s: signing failed\n", fs->k->name);
                    return -1;
                }
                uint64_t t3 = now_ns();
                if (fs->k->verify(fs, buf, len)) {
                    fprintf(stderr,
                            "tts-bench: %s: the signature of the %zu-byte file does not "
                            "verify: no timing reported\n",
                            fs->k->name, len);
                    return -1;
                }
                r->ns[ST_READ][run] = t1 - t0;
                r->ns[ST_TOTAL][run] = t3 - t1;
                if (fs->k->hash) {
                    r->ns[ST_HASH][run] = t2 - t1;
                    r->ns[ST_SIGN][run] = t3 - t2;
                }
                r->done++;
            }
            char text[128], sz[24];
            size_label(sz, sizeof sz, len);
            snprintf(text, sizeof text, "files: %s (size %zu/%zu), run %zu/%zu", sz, i + 1,
                     fl->nsizes, run + 1, fl->runs);
            progress_show(&pr, text);
        }
        for (size_t k = 0; k < fl->n; k++) {
            fseries *r = &fl->v[k].res[i];
            for (int st = 0; st < N_STEPS; st++)
                if (r->ns[st] && summarize(r->ns[st], r->done, &r->st[st]))
                    return -1;
        }
    }
    progress_end(&pr);
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
            for (size_t i = 0; i < COUNT(want); i++) {
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
    char os[192];
    long cores;
    char date[32];
    const char *autob;
} env;

static void get_env(env *e, const char *autob)
{
    struct utsname u;
    cpu_model(e->cpu, sizeof e->cpu);
    cpu_flags(e->flags, sizeof e->flags);
    if (uname(&u) == 0)
        snprintf(e->os, sizeof e->os, "%.60s %.60s %.60s", u.sysname, u.release, u.machine);
    else
        snprintf(e->os, sizeof e->os, "unknown");
    e->cores = sysconf(_SC_NPROCESSORS_ONLN);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(e->date, sizeof e->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    e->autob = autob;
}

static void print_env(const env *e, size_t runs, const char *per)
{
    printf("# cpu: %s (%ld cores); compiler: %s; CFLAGS: %s\n", e->cpu, e->cores, COMPILER,
           TTS_BENCH_CFLAGS);
    printf("# cpu flags: %s; %s\n", e->flags, e->os);
    printf("# %s; libsodium %s; libtts %s, automatic backend %s\n",
           OpenSSL_version(OPENSSL_VERSION), sodium_version_string(), TTS_VERSION_STRING, e->autob);
    printf("# cycles: %s; runs: %zu per %s; %s\n", CYCLE_SOURCE, runs, per, e->date);
}

/* ---- reports: JSON (docs/bench-schema.json) ------------------------------ */

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

static void json_stats(FILE *f, const stats *s)
{
    fprintf(f, "{\"median\": %.1f, \"min\": %.1f, \"max\": %.1f, \"mean\": %.1f}", s->med,
            s->min, s->max, s->mean);
}

static void json_u64s(FILE *f, const uint64_t *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)v[i]);
    fputc(']', f);
}

/* A number, or null when there is none (ratios and today's figures of a
 * scheme not measured). */
static void json_num(FILE *f, double v, int have)
{
    if (have)
        fprintf(f, "%.6g", v);
    else
        fprintf(f, "null");
}

/* The members every report starts with; the caller adds its own and
 * closes the object. */
static void json_head(FILE *f, const char *mode, int quick, size_t runs, const env *e,
                      const skiplist *sk)
{
    fprintf(f, "{\n  \"tool\": \"tts-bench\",\n  \"version\": \"%s\",\n", TTS_VERSION_STRING);
    fprintf(f, "  \"mode\": \"%s\",\n  \"quick\": %s,\n  \"runs\": %zu,\n", mode,
            quick ? "true" : "false", runs);
    fprintf(f, "  \"environment\": {\n    \"cpu\": ");
    json_str(f, e->cpu);
    fprintf(f, ",\n    \"cpu_flags\": ");
    json_str(f, e->flags);
    fprintf(f, ",\n    \"cores\": %ld,\n    \"os\": ", e->cores);
    json_str(f, e->os);
    fprintf(f, ",\n    \"compiler\": ");
    json_str(f, COMPILER);
    fprintf(f, ",\n    \"cflags\": ");
    json_str(f, TTS_BENCH_CFLAGS);
    fprintf(f, ",\n    \"openssl\": ");
    json_str(f, OpenSSL_version(OPENSSL_VERSION));
    fprintf(f, ",\n    \"libsodium\": ");
    json_str(f, sodium_version_string());
    fprintf(f, ",\n    \"libtts\": \"%s\",\n    \"default_backend\": \"%s\",\n", TTS_VERSION_STRING,
            e->autob);
    fprintf(f, "    \"cycle_source\": \"%s\",\n    \"date\": \"%s\"\n  },\n", CYCLE_SOURCE,
            e->date);
    fprintf(f, "  \"skipped\": [");
    for (size_t i = 0; i < sk->n; i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_str(f, sk->v[i]);
    }
    fprintf(f, "]");
}

static void json_prim_results(FILE *f, const scheme_list *l)
{
    fprintf(f, ",\n  \"results\": [\n");
    for (size_t i = 0; i < l->n; i++) {
        const scheme *sc = &l->v[i];
        fprintf(f, "    {\"scheme\": \"%s\", \"family\": \"%s\", \"backend\": \"%s\", ", sc->name,
                fam_names[sc->family], sc->backend);
        fprintf(f, "\"pk_bytes\": %zu, \"sk_bytes\": %zu, \"sig_bytes\": %zu,\n     \"ops\": {",
                sc->pk_bytes, sc->sk_bytes, sc->sig_bytes);
        for (int op = 0; op < N_OPS; op++) {
            const series *s = &sc->s[op];
            fprintf(f, "%s\n      \"%s\": {\"runs\": %zu, \"cycles\": ", op ? "," : "",
                    op_names[op], s->done);
            json_stats(f, &sc->st_cyc[op]);
            fprintf(f, ", \"ns\": ");
            json_stats(f, &sc->st_ns[op]);
            fprintf(f, ",\n        \"cycles_per_run\": ");
            json_u64s(f, s->cyc, s->done);
            fprintf(f, ",\n        \"ns_per_run\": ");
            json_u64s(f, s->ns, s->done);
            fprintf(f, "}");
        }
        fprintf(f, "}}%s\n", i + 1 < l->n ? "," : "");
    }
    fprintf(f, "  ]");
}

static void json_files_results(FILE *f, const file_list *fl)
{
    fprintf(f, ",\n  \"size_unit\": \"KB = 1024 B, MB = 1048576 B\",\n  \"input\": ");
    json_str(f, "ChaCha20 keystream (crypto_stream_chacha20), zero key, nonce = size in bytes "
                "(64-bit little-endian)");
    fprintf(f, ",\n  \"results\": [\n");
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        fprintf(f, "    {\"scheme\": \"%s\", \"family\": \"%s\", \"backend\": \"%s\", ",
                fs->k->name, fs->k->family, fs->backend);
        fprintf(f, "\"sig_bytes\": %zu,\n     \"hash_step\": ", fs->siglen);
        if (fs->k->hash_step)
            json_str(f, fs->k->hash_step);
        else
            fprintf(f, "null");
        fprintf(f, ",\n     \"sign_step\": ");
        json_str(f, fs->k->sign_step);
        fprintf(f, ",\n     \"sizes\": [");
        for (size_t i = 0; i < fl->nsizes; i++) {
            const fseries *r = &fs->res[i];
            char lab[24];
            size_label(lab, sizeof lab, r->bytes);
            fprintf(f, "%s\n      {\"bytes\": %zu, \"label\": \"%s\", \"runs\": %zu, "
                       "\"verified\": true, \"steps\": {",
                    i ? "," : "", r->bytes, lab, r->done);
            for (int st = 0; st < N_STEPS; st++) {
                fprintf(f, "%s\n        \"%s\": ", st ? "," : "", step_names[st]);
                if (!r->ns[st]) {
                    fprintf(f, "null");
                    continue;
                }
                fprintf(f, "{\"ns\": ");
                json_stats(f, &r->st[st]);
                fprintf(f, ", \"ns_per_run\": ");
                json_u64s(f, r->ns[st], r->done);
                fprintf(f, "}");
            }
            fprintf(f, "}}");
        }
        fprintf(f, "]}%s\n", k + 1 < fl->n ? "," : "");
    }
    fprintf(f, "  ]");
}

static int json_end(FILE *f, const char *path)
{
    fprintf(f, "\n}\n");
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "tts-bench: writing %s failed\n", path);
        return -1;
    }
    return 0;
}

/* ---- reports: CSV --------------------------------------------------------- */

/* "# key: value" metadata lines, then one table in long form: a `row`
 * column holds min, median, max and mean (the aggregates) and then 1..N
 * (the runs, in order). */
static void csv_head(FILE *f, const char *mode, int quick, size_t runs, const env *e,
                     const skiplist *sk)
{
    fprintf(f, "# tool: tts-bench %s\n# mode: %s%s\n# runs: %zu\n", TTS_VERSION_STRING, mode,
            quick ? " --quick" : "", runs);
    fprintf(f, "# cpu: %s\n# cpu_flags: %s\n# cores: %ld\n# os: %s\n# compiler: %s\n", e->cpu,
            e->flags, e->cores, e->os, COMPILER);
    fprintf(f, "# cflags: %s\n# openssl: %s\n# libsodium: %s\n# libtts: %s\n", TTS_BENCH_CFLAGS,
            OpenSSL_version(OPENSSL_VERSION), sodium_version_string(), TTS_VERSION_STRING);
    fprintf(f, "# default_backend: %s\n# cycle_source: %s\n# date: %s\n", e->autob, CYCLE_SOURCE,
            e->date);
    for (size_t i = 0; i < sk->n; i++)
        fprintf(f, "# skipped: %s\n", sk->v[i]);
}

static const char *const agg_names[4] = {"min", "median", "max", "mean"};

static double agg(const stats *s, int a)
{
    return a == 0 ? s->min : a == 1 ? s->med : a == 2 ? s->max : s->mean;
}

static void csv_prim(FILE *f, const scheme_list *l)
{
    fprintf(f, "scheme,family,backend,op,row,cycles,ns,pk_bytes,sk_bytes,sig_bytes\n");
    for (size_t i = 0; i < l->n; i++) {
        const scheme *sc = &l->v[i];
        for (int op = 0; op < N_OPS; op++) {
            const series *s = &sc->s[op];
            for (size_t row = 0; row < 4 + s->done; row++) {
                fprintf(f, "\"%s\",%s,%s,%s,", sc->name, fam_names[sc->family], sc->backend,
                        op_names[op]);
                if (row < 4)
                    fprintf(f, "%s,%.1f,%.1f", agg_names[row], agg(&sc->st_cyc[op], (int)row),
                            agg(&sc->st_ns[op], (int)row));
                else
                    fprintf(f, "%zu,%llu,%llu", row - 3, (unsigned long long)s->cyc[row - 4],
                            (unsigned long long)s->ns[row - 4]);
                fprintf(f, ",%zu,%zu,%zu\n", sc->pk_bytes, sc->sk_bytes, sc->sig_bytes);
            }
        }
    }
}

static void csv_files(FILE *f, const file_list *fl)
{
    fprintf(f, "scheme,family,backend,bytes,row,read_ns,hash_ns,sign_ns,total_ns\n");
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        for (size_t i = 0; i < fl->nsizes; i++) {
            const fseries *r = &fs->res[i];
            for (size_t row = 0; row < 4 + r->done; row++) {
                fprintf(f, "\"%s\",%s,%s,%zu,", fs->k->name, fs->k->family, fs->backend,
                        r->bytes);
                if (row < 4)
                    fprintf(f, "%s", agg_names[row]);
                else
                    fprintf(f, "%zu", row - 3);
                for (int st = 0; st < N_STEPS; st++) {
                    if (!r->ns[st])
                        fprintf(f, ",");
                    else if (row < 4)
                        fprintf(f, ",%.1f", agg(&r->st[st], (int)row));
                    else
                        fprintf(f, ",%llu", (unsigned long long)r->ns[st][row - 4]);
                }
                fprintf(f, "\n");
            }
        }
    }
}

/* ---- charts (gnuplot) ------------------------------------------------------ */

/* Text for a gnuplot double-quoted string: no quotes or backslashes. */
static void gp_text(FILE *f, const char *s)
{
    for (; *s; s++)
        if (*s != '"' && *s != '\\')
            fputc(*s, f);
}

/* A file-name part: "TTS(20,28)" -> "tts-20-28". */
static void slug(char *out, size_t len, const char *s)
{
    size_t o = 0;
    for (; *s && o + 1 < len; s++) {
        char c = *s;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out[o++] = c;
        else if (o && out[o - 1] != '-')
            out[o++] = '-';
    }
    while (o && out[o - 1] == '-')
        o--;
    out[o] = '\0';
}

/* Every chart is drawn twice, by a loop over the two terminals: SVG, and
 * PNG through pngcairo where this gnuplot has it (the libgd png terminal
 * otherwise). */
static void gp_loop_open(FILE *f, int w, int h)
{
    fprintf(f, "do for [fmt in \"svg png\"] {\n"
               "  if (fmt eq \"svg\") {\n"
               "    set terminal svg size %d,%d noenhanced background \"white\"\n"
               "  } else {\n"
               "    if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
               "      set terminal pngcairo size %d,%d noenhanced\n"
               "    } else {\n"
               "      set terminal png size %d,%d noenhanced\n"
               "    }\n"
               "  }\n",
            w, h, w, h, w, h);
}

static FILE *plot_open(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "tts-bench: %s: %s\n", path, strerror(errno));
    return f;
}

static int plot_close(FILE *f, const char *dir, const char *name)
{
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "tts-bench: writing %s/%s failed\n", dir, name);
        return -1;
    }
    return 0;
}

/* Runs `gnuplot script` in dir. A missing gnuplot is not fatal to the
 * measurement (stdout and the reports are complete), but the charts asked
 * for are missing, so the caller exits 1. */
static int run_gnuplot(const char *dir, const char *script)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("tts-bench: fork");
        return -1;
    }
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(errno == ENOENT ? 127 : 126);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        fprintf(stderr,
                "tts-bench: gnuplot not found on PATH: no charts. %s/%s and its data are "
                "written; install gnuplot (Debian: gnuplot-nox) and run `gnuplot %s` in %s\n",
                dir, script, script, dir);
    else
        fprintf(stderr, "tts-bench: gnuplot failed on %s/%s: no charts\n", dir, script);
    return -1;
}

/* Bars: median sign and verify time of every scheme measured (primitives
 * and table), on a log axis: RSA-3072 signing and TTS verification are
 * three orders of magnitude apart. */
static int plot_bars(const char *dir, const char *name, const scheme_list *l, const env *e)
{
    char dat[64], gp[64];
    snprintf(dat, sizeof dat, "%s.dat", name);
    snprintf(gp, sizeof gp, "%s.gp", name);
    FILE *f = plot_open(dir, dat);
    if (!f)
        return -1;
    fprintf(f, "# tts-bench %s: scheme, median sign us, median verify us\n", name);
    for (size_t i = 0; i < l->n; i++) {
        const scheme *sc = &l->v[i];
        fprintf(f, "\"%s %s\" %.3f %.3f\n", sc->name, sc->backend, sc->st_ns[OP_SIGN].med / 1e3,
                sc->st_ns[OP_VERIFY].med / 1e3);
    }
    if (plot_close(f, dir, dat) || !(f = plot_open(dir, gp)))
        return -1;
    fprintf(f, "# tts-bench %s: median sign and verify time per scheme.\n"
               "# Data in %s; charts %s.svg and %s.png. Re-run: gnuplot %s\n",
            name, dat, name, name, gp);
    fprintf(f, "set title \"tts-bench %s: median of each operation, ", name);
    gp_text(f, e->cpu);
    fprintf(f, ", %s\"\n"
               "set style data histograms\n"
               "set style histogram clustered gap 1\n"
               "set style fill solid 0.85 border -1\n"
               "set logscale y\n"
               "set ylabel \"median time, microseconds (log scale)\"\n"
               "set xtics rotate by -60 scale 0 nomirror\n"
               "set grid ytics\n"
               "set key top left\n"
               "set bmargin 12\n"
               "set rmargin 8\n",
            e->date);
    gp_loop_open(f, 1400, 700);
    fprintf(f, "  set output \"%s.\" . fmt\n"
               "  plot \"%s\" using 2:xtic(1) title \"sign\", \"\" using 3 title \"verify\"\n"
               "  set output\n}\n",
            name, dat);
    if (plot_close(f, dir, gp))
        return -1;
    return run_gnuplot(dir, gp);
}

/* Time against file size, log-log: per scheme hash, private-key
 * operation and total, and the totals of all schemes in one chart. The
 * charts show medians: with the default 10 runs one slow first run moves
 * the mean (which the text and the reports also give) by a tenth. */
static int plot_files(const char *dir, const file_list *fl, const env *e)
{
    FILE *f = plot_open(dir, "files.dat");
    if (!f)
        return -1;
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        fprintf(f, "%s# index %zu: %s; bytes, median hash ms, median sign ms, median total ms"
                   " (? = not split)\n",
                k ? "\n\n" : "", k, fs->k->name);
        for (size_t i = 0; i < fl->nsizes; i++) {
            const fseries *r = &fs->res[i];
            fprintf(f, "%zu", r->bytes);
            for (int st = ST_HASH; st <= ST_TOTAL; st++)
                if (r->ns[st])
                    fprintf(f, " %.6f", r->st[st].med / 1e6);
                else
                    fprintf(f, " ?");
            fprintf(f, "\n");
        }
    }
    if (plot_close(f, dir, "files.dat") || !(f = plot_open(dir, "files.gp")))
        return -1;
    fprintf(f, "# tts-bench files: signing time against file size, log-log.\n"
               "# Data in files.dat (one index per scheme). Re-run: gnuplot files.gp\n"
               "set datafile missing \"?\"\n"
               "set logscale xy\n"
               "set xlabel \"file size (log scale; KB = 1024 B)\"\n"
               "set ylabel \"median time of %zu runs, ms (log scale)\"\n"
               "set grid\n"
               "set key top left\n"
               "set style data linespoints\n",
            fl->runs);
    fprintf(f, "set xrange [%zu:%zu]\nset xtics (", fl->sizes[0] / 2,
            2 * fl->sizes[fl->nsizes - 1]);
    for (size_t i = 0; i < fl->nsizes; i++) {
        char lab[24];
        size_label(lab, sizeof lab, fl->sizes[i]);
        fprintf(f, "%s\"%s\" %zu", i ? ", " : "", lab, fl->sizes[i]);
    }
    fprintf(f, ")\n");
    gp_loop_open(f, 900, 600);
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        char sl[48];
        slug(sl, sizeof sl, fs->k->name);
        fprintf(f, "  set output \"files-%s.\" . fmt\n  set title \"%s (%s): signing a file, ",
                sl, fs->k->name, fs->backend);
        gp_text(f, e->cpu);
        fprintf(f, "\"\n");
        if (fs->k->hash)
            fprintf(f, "  plot \"files.dat\" index %zu using 1:2 title \"hash\", "
                       "\"\" index %zu using 1:3 title \"private-key operation\", "
                       "\"\" index %zu using 1:4 title \"total\"\n",
                    k, k, k);
        else
            fprintf(f, "  plot \"files.dat\" index %zu using 1:4 title \"total (not split)\"\n",
                    k);
    }
    fprintf(f, "  set output \"files-total.\" . fmt\n"
               "  set title \"signing a file, hash + private-key operation, ");
    gp_text(f, e->cpu);
    fprintf(f, "\"\n  plot ");
    for (size_t k = 0; k < fl->n; k++)
        fprintf(f, "%s\"files.dat\" index %zu using 1:4 title \"%s\"", k ? ", \\\n    " : "",
                k, fl->v[k].k->name);
    fprintf(f, "\n  set output\n}\n");
    if (plot_close(f, dir, "files.gp"))
        return -1;
    return run_gnuplot(dir, "files.gp");
}

/* --plot DIR: made before the run, so a bad DIR fails in a second, not
 * after a minute. */
static int make_plot_dir(const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
        return 0;
    fprintf(stderr, "tts-bench: --plot %s: %s\n", dir,
            errno == EEXIST ? "exists and is not a directory" : strerror(errno));
    return -1;
}

/* ---- report files of one run ----------------------------------------------- */

typedef struct {
    const char *json, *csv, *plot; /* NULL: not asked for */
    FILE *jf, *cf;
} outputs;

/* Opens the report files and makes the chart folder before measuring. */
static int outputs_open(outputs *o)
{
    if (o->json && !(o->jf = fopen(o->json, "w"))) {
        fprintf(stderr, "tts-bench: --json %s: %s\n", o->json, strerror(errno));
        return -1;
    }
    if (o->csv && !(o->cf = fopen(o->csv, "w"))) {
        fprintf(stderr, "tts-bench: --csv %s: %s\n", o->csv, strerror(errno));
        return -1;
    }
    return o->plot ? make_plot_dir(o->plot) : 0;
}

/* Closes f and, if it is a regular file (not /dev/stdout or a pipe),
 * removes it. */
static void discard(FILE *f, const char *path)
{
    struct stat st;
    int regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    fclose(f);
    if (regular)
        remove(path);
}

/* After a failed run: no empty report is left behind. */
static void outputs_discard(outputs *o)
{
    if (o->jf)
        discard(o->jf, o->json);
    if (o->cf)
        discard(o->cf, o->csv);
    o->jf = o->cf = NULL;
}

static int csv_end(FILE *f, const char *path)
{
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "tts-bench: writing %s failed\n", path);
        return -1;
    }
    return 0;
}

/* ---- primitives ------------------------------------------------------------ */

static int cmd_primitives(size_t runs, int quick, outputs *o, const char *autob)
{
    scheme_list l = {0};
    env e;
    get_env(&e, autob);
    int rc = build_list(&l, autob, 1, 1) || measure(&l, runs, quick);
    if (rc) {
        outputs_discard(o);
        free_list(&l);
        return 1;
    }
    print_env(&e, runs, "operation (key generation: fewer)");
    for (size_t i = 0; i < l.skipped.n; i++)
        printf("# skipped: %s\n", l.skipped.v[i]);
    printf("%-18s %-9s %-6s %5s %12s %12s %12s %12s %11s %11s %11s %11s\n", "scheme", "backend",
           "op", "runs", "med_cyc", "min_cyc", "max_cyc", "mean_cyc", "med_us", "min_us",
           "max_us", "mean_us");
    for (size_t i = 0; i < l.n; i++) {
        const scheme *sc = &l.v[i];
        for (int op = 0; op < N_OPS; op++) {
            const stats *c = &sc->st_cyc[op], *n = &sc->st_ns[op];
            printf("%-18s %-9s %-6s %5zu %12.0f %12.0f %12.0f %12.0f %11.2f %11.2f %11.2f "
                   "%11.2f\n",
                   sc->name, sc->backend, op_names[op], sc->s[op].done, c->med, c->min, c->max,
                   c->mean, n->med / 1e3, n->min / 1e3, n->max / 1e3, n->mean / 1e3);
        }
    }
    printf("\n%-18s %-9s %8s %8s %8s\n", "scheme", "backend", "pk_B", "sk_B", "sig_B");
    for (size_t i = 0; i < l.n; i++)
        printf("%-18s %-9s %8zu %8zu %8zu\n", l.v[i].name, l.v[i].backend, l.v[i].pk_bytes,
               l.v[i].sk_bytes, l.v[i].sig_bytes);
    fflush(stdout);
    if (o->jf) {
        json_head(o->jf, "primitives", quick, runs, &e, &l.skipped);
        json_prim_results(o->jf, &l);
        rc |= json_end(o->jf, o->json);
    }
    if (o->cf) {
        csv_head(o->cf, "primitives", quick, runs, &e, &l.skipped);
        csv_prim(o->cf, &l);
        rc |= csv_end(o->cf, o->csv);
    }
    if (o->plot)
        rc |= plot_bars(o->plot, "primitives", &l, &e);
    free_list(&l);
    return rc ? 1 : 0;
}

/* ---- files ----------------------------------------------------------------- */

static void print_files(const file_list *fl, const env *e)
{
    print_env(e, fl->runs, "file size and scheme");
    printf("# files: ChaCha20 stream (zero key, nonce = size) in $TMPDIR, read back for every "
           "run; KB = 1024 B, MB = 1024 KB\n");
    printf("# every signature verified (untimed) over the whole file: tts_verify,"
           " EVP_DigestVerify, crypto_sign_ed25519ph_final_verify, crypto_sign_verify_detached\n");
    for (size_t i = 0; i < fl->skipped.n; i++)
        printf("# skipped: %s\n", fl->skipped.v[i]);
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        printf("# %s (%s): hash = %s; private-key op = %s\n", fs->k->name, fs->backend,
               fs->k->hash_step ? fs->k->hash_step : "(not split)", fs->k->sign_step);
    }
    printf("\ntimes in ms: best / average / worst of %zu runs (run 1 included, no warm-up)\n",
           fl->runs);
    printf("%-13s %6s | %9s %9s %9s | %9s %9s %9s | %9s %9s %9s | %9s %8s\n", "scheme", "size",
           "hash", "", "", "key op", "", "", "total", "", "", "run 1", "read");
    printf("%-13s %6s | %9s %9s %9s | %9s %9s %9s | %9s %9s %9s | %9s %8s\n", "", "", "best",
           "avg", "worst", "best", "avg", "worst", "best", "avg", "worst", "total", "avg");
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        for (size_t i = 0; i < fl->nsizes; i++) {
            const fseries *r = &fs->res[i];
            char lab[24];
            size_label(lab, sizeof lab, r->bytes);
            printf("%-13s %6s |", fs->k->name, lab);
            for (int st = ST_HASH; st <= ST_TOTAL; st++) {
                if (r->ns[st])
                    printf(" %9.4f %9.4f %9.4f |", r->st[st].min / 1e6, r->st[st].mean / 1e6,
                           r->st[st].max / 1e6);
                else
                    printf(" %9s %9s %9s |", "-", "-", "-");
            }
            printf(" %9.4f %8.4f\n", (double)r->ns[ST_TOTAL][0] / 1e6, r->st[ST_READ].mean / 1e6);
        }
    }
    /* The eID study writes every run out; wide for many runs, so then only
     * the reports carry them. */
    if (fl->runs > 12) {
        printf("\nper-run times: in the --json and --csv reports\n");
        return;
    }
    printf("\nper-run total (hash + private-key op), ms, run 1 first\n");
    for (size_t k = 0; k < fl->n; k++)
        for (size_t i = 0; i < fl->nsizes; i++) {
            const fseries *r = &fl->v[k].res[i];
            char lab[24];
            size_label(lab, sizeof lab, r->bytes);
            printf("%-13s %6s |", fl->v[k].k->name, lab);
            for (size_t run = 0; run < r->done; run++)
                printf(" %8.4f", (double)r->ns[ST_TOTAL][run] / 1e6);
            printf("\n");
        }
}

static int cmd_files(size_t runs, int quick, outputs *o, const char *autob)
{
    file_list fl;
    memset(&fl, 0, sizeof fl);
    fl.sizes = quick ? quick_sizes : file_sizes;
    fl.nsizes = quick ? COUNT(quick_sizes) : COUNT(file_sizes);
    fl.runs = runs;
    env e;
    get_env(&e, autob);
    for (size_t k = 0; k < COUNT(file_kinds); k++) {
        fscheme *fs = &fl.v[fl.n++];
        fs->k = &file_kinds[k];
        if (fs->k->setup(fs)) {
            skip(&fl.skipped, fs->k->name, "set-up failed");
            free_fscheme(fs);
            memset(fs, 0, sizeof *fs);
            fl.n--;
        }
    }
    size_t maxlen = 0;
    for (size_t i = 0; i < fl.nsizes; i++)
        maxlen = fl.sizes[i] > maxlen ? fl.sizes[i] : maxlen;
    uint8_t *buf = malloc(maxlen);
    catch_signals();
    int rc = !buf || make_inputs(&fl, buf) || run_files(&fl, buf);
    tmp_remove();
    free(buf);
    if (rc) {
        outputs_discard(o);
    } else {
        print_files(&fl, &e);
        fflush(stdout);
        if (o->jf) {
            json_head(o->jf, "files", quick, runs, &e, &fl.skipped);
            json_files_results(o->jf, &fl);
            rc |= json_end(o->jf, o->json);
        }
        if (o->cf) {
            csv_head(o->cf, "files", quick, runs, &e, &fl.skipped);
            csv_files(o->cf, &fl);
            rc |= csv_end(o->cf, o->csv);
        }
        if (o->plot)
            rc |= plot_files(o->plot, &fl, &e);
    }
    for (size_t k = 0; k < fl.n; k++)
        free_fscheme(&fl.v[k]);
    return rc ? 1 : 0;
}

/* ---- table ----------------------------------------------------------------- */

/* Published figures, REFERENCE-FIGURES.md tables B and C (ms). `match`
 * names the scheme measured for a row; NULL: not implemented here. */
enum { TB_ECDSA, TB_RSA, TB_SFLASH, TB_TTS };
static const struct {
    const char *name, *match;
    double ms[N_OPS];
    const char *sig, *pk, *sk;
} table_b[] = {
    [TB_ECDSA] = {"ECDSA-163", "ECDSA-sect163k1", {1.6, 1.9, 5.1}, "326 bits", "48 B", "24 B"},
    [TB_RSA] = {"RSA-PSS-1024", "RSA-PSS-1024", {2700, 84, 2.0}, "1024 bits", "128 B", "320 B"},
    [TB_SFLASH] = {"SFLASH(26,37)", "SFLASH(26,37)", {1500, 2.8, 0.39}, "259 bits", "15.4 KB", "2.4 KB"},
    [TB_TTS] = {"TTS(20,28)", "TTS(20,28)", {15.8, 0.045, 0.25}, "224 bits", "8.6 KB", "1.4 KB"},
};

/* The claims the papers draw from table B: row `slow` over row `fast` for
 * one operation, published and today. */
static const struct {
    int slow, fast, op;
} claims[] = {
    {TB_RSA, TB_TTS, OP_SIGN},     {TB_ECDSA, TB_TTS, OP_SIGN},  {TB_ECDSA, TB_TTS, OP_VERIFY},
    {TB_RSA, TB_TTS, OP_VERIFY},   {TB_RSA, TB_TTS, OP_KEYGEN},  {TB_ECDSA, TB_TTS, OP_KEYGEN},
    {TB_SFLASH, TB_TTS, OP_SIGN},  {TB_SFLASH, TB_TTS, OP_VERIFY}, {TB_SFLASH, TB_TTS, OP_KEYGEN},
};

static const struct {
    const char *name;
    double p1[N_OPS], p2[N_OPS];
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

static void claim_label(char *buf, size_t len, size_t i)
{
    snprintf(buf, len, "%s %s / %s %s", table_b[claims[i].slow].name, op_names[claims[i].op],
             table_b[claims[i].fast].name, op_names[claims[i].op]);
}

/* Claim i: the published ratio, and today's (returns 0 if not measured). */
static int claim(const scheme_list *l, size_t i, double *pub, double *now)
{
    int op = claims[i].op;
    const scheme *a = find(l, table_b[claims[i].slow].match);
    const scheme *b = find(l, table_b[claims[i].fast].match);
    *pub = table_b[claims[i].slow].ms[op] / table_b[claims[i].fast].ms[op];
    if (!a || !b || ms(b, op) <= 0)
        return 0;
    *now = ms(a, op) / ms(b, op);
    return 1;
}

static void print_table(const scheme_list *l, const env *e, size_t runs)
{
    print_env(e, runs, "operation (key generation: fewer)");
    printf("# published: P1 = Pentium III 500 MHz, P2 = Pentium 4 2.4 GHz (2004);"
           " today: medians of a quick run, ms\n");
    printf("# ECDSA-163 today is sect163k1 (sect163r2 below); sizes today:"
           " raw TTS, DER/octet EC and RSA\n\n");
    printf("Table B: performance comparison (published on P1 vs today)\n");
    printf("%-15s %9s %9s  %9s %9s  %9s %9s  %10s %9s %9s  %s\n", "scheme", "keygen", "today",
           "sign", "today", "verify", "today", "sig", "pk", "sk", "sizes today (sig/pk/sk B)");
    for (size_t i = 0; i < COUNT(table_b); i++) {
        const scheme *sc = find(l, table_b[i].match);
        char pub[N_OPS][16], now[N_OPS][16], sz[48];
        for (int op = 0; op < N_OPS; op++) {
            fmt_ms(pub[op], sizeof pub[op], table_b[i].ms[op]);
            fmt_ms(now[op], sizeof now[op], ms(sc, op));
        }
        if (sc)
            snprintf(sz, sizeof sz, "%zu/%zu/%zu", sc->sig_bytes, sc->pk_bytes, sc->sk_bytes);
        else
            snprintf(sz, sizeof sz, table_b[i].match ? "skipped (not available here)"
                                                     : "not measured (not implemented)");
        printf("%-15s %9s %9s  %9s %9s  %9s %9s  %10s %9s %9s  %s\n", table_b[i].name,
               pub[OP_KEYGEN], now[OP_KEYGEN], pub[OP_SIGN], now[OP_SIGN], pub[OP_VERIFY],
               now[OP_VERIFY], table_b[i].sig, table_b[i].pk, table_b[i].sk, sz);
    }
    const scheme *r2 = find(l, "ECDSA-sect163r2");
    if (r2) {
        char t[N_OPS][16];
        for (int op = 0; op < N_OPS; op++)
            fmt_ms(t[op], sizeof t[op], ms(r2, op));
        printf("%-15s %9s %9s  %9s %9s  %9s %9s  %10s %9s %9s  %zu/%zu/%zu\n", "(sect163r2)", "",
               t[OP_KEYGEN], "", t[OP_SIGN], "", t[OP_VERIFY], "", "", "", r2->sig_bytes,
               r2->pk_bytes, r2->sk_bytes);
    }

    printf("\nClaimed ratios (published P1 vs today; >1 means TTS is faster)\n");
    printf("  %-44s %10s %12s\n", "", "published", "today");
    for (size_t i = 0; i < COUNT(claims); i++) {
        char what[64];
        double pub = 0, now = 0;
        int have = claim(l, i, &pub, &now);
        claim_label(what, sizeof what, i);
        printf("  %-44s %9.*fx", what, pub < 10 ? 2 : 1, pub);
        if (have)
            printf(" %11.*fx\n", now < 10 ? 2 : 1, now);
        else
            printf(" %12s\n", "not measured");
    }
    for (size_t i = 0; i < COUNT(table_b); i++)
        if (!table_b[i].match) {
            char what[64];
            snprintf(what, sizeof what, "%s (any ratio)", table_b[i].name);
            printf("  %-44s %10s %12s\n", what, "-", "not measured (not implemented)");
        }

    printf("\nTable C: TTS performance report, ms (P1, P2 published; today backend %s)\n",
           e->autob);
    printf("%-11s | %8s %8s %8s | %8s %8s %8s | %8s %8s %8s | %7s %7s\n", "set", "P1 setup",
           "sign", "verify", "P2 setup", "sign", "verify", "today kg", "sign", "verify", "P2/now",
           "P2/now");
    printf("%-11s | %8s %8s %8s | %8s %8s %8s | %8s %8s %8s | %7s %7s\n", "", "", "", "", "", "",
           "", "", "", "", "sign", "verify");
    for (size_t i = 0; i < COUNT(table_c); i++) {
        const scheme *sc = find(l, table_c[i].name);
        char t[N_OPS][16];
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
    for (size_t i = 0; i < l->skipped.n; i++)
        printf("# skipped: %s\n", l->skipped.v[i]);
}

/* {"keygen": x, "sign": y, "verify": z} from published figures, or
 * today's medians of sc (null if sc was not measured). */
static void json_ms3(FILE *f, const double *pub, const scheme *sc)
{
    if (!pub && !sc) {
        fprintf(f, "null");
        return;
    }
    fprintf(f, "{");
    for (int op = 0; op < N_OPS; op++)
        fprintf(f, "%s\"%s\": %.6g", op ? ", " : "", op_names[op], pub ? pub[op] : ms(sc, op));
    fprintf(f, "}");
}

static void json_table(FILE *f, const scheme_list *l)
{
    fprintf(f, ",\n  \"table_b\": [");
    for (size_t i = 0; i < COUNT(table_b); i++) {
        const scheme *sc = find(l, table_b[i].match);
        fprintf(f, "%s\n    {\"scheme\": \"%s\", \"measured_as\": ", i ? "," : "",
                table_b[i].name);
        if (table_b[i].match)
            json_str(f, table_b[i].match);
        else
            fprintf(f, "null");
        fprintf(f, ", \"published_ms\": ");
        json_ms3(f, table_b[i].ms, NULL);
        fprintf(f, ", \"published_sizes\": {\"sig\": \"%s\", \"pk\": \"%s\", \"sk\": \"%s\"}",
                table_b[i].sig, table_b[i].pk, table_b[i].sk);
        fprintf(f, ",\n     \"today_ms\": ");
        json_ms3(f, NULL, sc);
        if (sc)
            fprintf(f, ", \"today_bytes\": {\"sig\": %zu, \"pk\": %zu, \"sk\": %zu}}",
                    sc->sig_bytes, sc->pk_bytes, sc->sk_bytes);
        else
            fprintf(f, ", \"today_bytes\": null}");
    }
    fprintf(f, "\n  ],\n  \"ratios\": [");
    for (size_t i = 0; i < COUNT(claims); i++) {
        char what[64];
        double pub = 0, now = 0;
        int have = claim(l, i, &pub, &now);
        claim_label(what, sizeof what, i);
        fprintf(f, "%s\n    {\"ratio\": \"%s\", \"published\": ", i ? "," : "", what);
        json_num(f, pub, 1);
        fprintf(f, ", \"today\": ");
        json_num(f, now, have);
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"table_c\": [");
    for (size_t i = 0; i < COUNT(table_c); i++) {
        fprintf(f, "%s\n    {\"set\": \"%s\", \"p1_ms\": ", i ? "," : "", table_c[i].name);
        json_ms3(f, table_c[i].p1, NULL);
        fprintf(f, ", \"p2_ms\": ");
        json_ms3(f, table_c[i].p2, NULL);
        fprintf(f, ", \"today_ms\": ");
        json_ms3(f, NULL, find(l, table_c[i].name));
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]");
}

/* One row per published figure and claim: section, name, measured_as,
 * quantity, published_p1, published_p2, today (ms or a ratio; empty when
 * there is none). */
static void csv_table(FILE *f, const scheme_list *l)
{
    fprintf(f, "section,name,measured_as,quantity,published_p1,published_p2,today\n");
    for (size_t i = 0; i < COUNT(table_b); i++) {
        const scheme *sc = find(l, table_b[i].match);
        for (int op = 0; op < N_OPS; op++) {
            fprintf(f, "B,\"%s\",\"%s\",%s_ms,%.6g,,", table_b[i].name,
                    table_b[i].match ? table_b[i].match : "", op_names[op], table_b[i].ms[op]);
            if (sc)
                fprintf(f, "%.6g", ms(sc, op));
            fprintf(f, "\n");
        }
    }
    for (size_t i = 0; i < COUNT(claims); i++) {
        char what[64];
        double pub = 0, now = 0;
        int have = claim(l, i, &pub, &now);
        claim_label(what, sizeof what, i);
        fprintf(f, "ratio,\"%s\",,ratio,%.6g,,", what, pub);
        if (have)
            fprintf(f, "%.6g", now);
        fprintf(f, "\n");
    }
    for (size_t i = 0; i < COUNT(table_c); i++) {
        const scheme *sc = find(l, table_c[i].name);
        for (int op = 0; op < N_OPS; op++) {
            fprintf(f, "C,\"%s\",\"%s\",%s_ms,%.6g,%.6g,", table_c[i].name,
                    sc ? table_c[i].name : "", op_names[op], table_c[i].p1[op],
                    table_c[i].p2[op]);
            if (sc)
                fprintf(f, "%.6g", ms(sc, op));
            fprintf(f, "\n");
        }
    }
}

static int cmd_table(size_t runs, outputs *o, const char *autob)
{
    scheme_list l = {0};
    env e;
    get_env(&e, autob);
    int rc = build_list(&l, autob, 0, 0) || measure(&l, runs, 1);
    if (rc) {
        outputs_discard(o);
        free_list(&l);
        return 1;
    }
    print_table(&l, &e, runs);
    fflush(stdout);
    if (o->jf) {
        json_head(o->jf, "table", 1, runs, &e, &l.skipped);
        json_prim_results(o->jf, &l);
        json_table(o->jf, &l);
        rc |= json_end(o->jf, o->json);
    }
    if (o->cf) {
        csv_head(o->cf, "table", 1, runs, &e, &l.skipped);
        csv_table(o->cf, &l);
        rc |= csv_end(o->cf, o->csv);
    }
    if (o->plot)
        rc |= plot_bars(o->plot, "table", &l, &e);
    free_list(&l);
    return rc ? 1 : 0;
}

/* ---- command line ---------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: tts-bench primitives [--quick] [-n RUNS] [REPORTS]\n"
            "       tts-bench files      [--quick] [-n RUNS] [REPORTS]\n"
            "       tts-bench table      [-n RUNS] [REPORTS]\n"
            "       tts-bench --help\n"
            "REPORTS: [--json FILE] [--csv FILE] [--plot DIR]\n"
            "primitives: keygen/sign/verify of TTS (every backend), ECDSA (sect163k1,\n"
            "  sect163r2, P-256), RSA-PSS (1024, 2048, 3072) and Ed25519, interleaved;\n"
            "  median/min/max/mean in cycles and ns, key and signature sizes.\n"
            "  -n: runs per sign/verify (default 200, --quick 15; keygen fewer).\n"
            "files: sign files of 1 KB, 10 KB, 50 KB, 100 KB, 1 MB, 2 MB, 5 MB, 10 MB\n"
            "  (KB = 1024 B, MB = 1024 KB) written to $TMPDIR and read back each run;\n"
            "  time split into hashing and the private-key operation, best/average/worst\n"
            "  and per run, for TTS(20,28), RSA-PSS-2048, ECDSA-P-256, Ed25519ph (its\n"
            "  key op includes the SHA-512 finalisation and two short SHA-512 over the\n"
            "  64-byte prehash) and pure Ed25519 (unsplit); every signature verified.\n"
            "  -n: runs per size (default 10); --quick: 1 KB, 100 KB and 1 MB, 3 runs.\n"
            "table: the published tables B and C (2004) next to a quick measurement\n"
            "  (-n default 15; always quick).\n"
            "--json FILE, --csv FILE: reports with the environment, aggregates and\n"
            "  per-run samples (schema: docs/bench-schema.json, installed with the docs).\n"
            "--plot DIR: gnuplot script, data and SVG + PNG charts in DIR (made if\n"
            "  missing); needs gnuplot on PATH, else the script and data are written\n"
            "  and the exit status is 1.\n"
            "exit status: 0 ok, 1 a failed operation, report or chart, 2 usage error.\n");
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
    const char *cmd = argv[1];
    outputs o = {0};
    int quick = 0;
    size_t runs = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = strcmp(a, "-n") == 0 || strcmp(a, "--json") == 0 ||
                    strcmp(a, "--csv") == 0 || strcmp(a, "--plot") == 0;
        if (takes && (!val || !*val)) {
            fprintf(stderr, "tts-bench: %s needs a value\n", a);
            return 2;
        }
        if (strcmp(a, "--quick") == 0) {
            quick = 1;
        } else if (strcmp(a, "-n") == 0) {
            char *end;
            errno = 0;
            unsigned long v = strtoul(val, &end, 10);
            if (*end || errno || val[0] == '-' || v < 1 || v > 1000000) {
                fprintf(stderr, "tts-bench: -n wants 1..1000000, not \"%s\"\n", val);
                return 2;
            }
            runs = v;
        } else if (strcmp(a, "--json") == 0) {
            o.json = val;
        } else if (strcmp(a, "--csv") == 0) {
            o.csv = val;
        } else if (strcmp(a, "--plot") == 0) {
            o.plot = val;
        } else {
            fprintf(stderr, "tts-bench: unknown option \"%s\"\n", a);
            usage(stderr);
            return 2;
        }
        i += takes;
    }
    int is_prim = strcmp(cmd, "primitives") == 0, is_files = strcmp(cmd, "files") == 0,
        is_table = strcmp(cmd, "table") == 0;
    if (!is_prim && !is_files && !is_table) {
        fprintf(stderr, "tts-bench: unknown command \"%s\"\n", cmd);
        usage(stderr);
        return 2;
    }
    if (is_table && quick) {
        fprintf(stderr, "tts-bench: table is always a quick run: no --quick\n");
        return 2;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "tts-bench: libsodium initialisation failed\n");
        return 1;
    }
    if (outputs_open(&o)) { /* an output path that cannot be written */
        outputs_discard(&o);
        return 2;
    }
    static char autob[16];
    snprintf(autob, sizeof autob, "%s", tts_backend());
    if (is_prim)
        return cmd_primitives(runs ? runs : quick ? 15 : 200, quick, &o, autob);
    if (is_files)
        return cmd_files(runs ? runs : quick ? QUICK_FILE_RUNS : FILE_RUNS, quick, &o, autob);
    return cmd_table(runs ? runs : 15, &o, autob);
}
