/* SPDX-License-Identifier: MIT */
/*
 * The comparison harness behind tts-bench (tools/tts-bench.c is its
 * command line; tts-bench(1) its manual):
 *
 *   stats.c          timing of one call, statistics, progress, skip lists
 *   schemes.c        the scheme list: every adapter, set up and released
 *   scheme_*.c       one adapter per scheme family (TTS, OpenSSL's ECDSA and
 *                    RSA-PSS, libsodium's Ed25519, SFLASH): set-up and the
 *                    three operations, and their file-signing steps
 *   exp_primitives.c the primitives experiment (warm and cold figures)
 *   exp_files.c      the file-signing experiment
 *   exp_table.c      the published tables B and C next to a measurement
 *   exp_passport.c   the ePassport-issuance experiment (exp_passport.h)
 *   report.c         the environment, the JSON and CSV reports, the charts
 *
 * An adapter is a bench_adapter (primitives) and file_kind entries (files):
 * adding a scheme is one scheme_*.c and one line in schemes.c.
 */
#ifndef TTS_BENCH_HARNESS_H
#define TTS_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/evp.h>
#include <sodium.h>

#include "json.h" /* common/json.h: the string writer */
#include "tts.h"

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
extern const char *const op_names[N_OPS];
enum { FAM_TTS, FAM_ECDSA, FAM_RSA, FAM_ED25519, FAM_SFLASH, FAM_MLDSA, FAM_FALCON, FAM_SPHINCS };
extern const char *const fam_names[];

/* The message every primitive signs. */
extern const uint8_t bench_msg[32];

/* ---- statistics and timing (stats.c) ---- */

typedef struct {
    double med, min, max, mean;
    double q1, q3; /* quartiles (summarize(): linear interpolation, type 7) */
} stats;

int summarize(const uint64_t *v, size_t n, stats *s);
/* A sorted copy of v[0..n-1] (free() it), or NULL. */
uint64_t *sorted_copy(const uint64_t *v, size_t n);

typedef struct {
    char v[16][96];
    size_t n;
} skiplist;

void skip(skiplist *l, const char *name, const char *why);

/* "\r" progress on a terminal, at most once a second. */
typedef struct {
    uint64_t start, last;
} progress;

void progress_start(progress *pr);
void progress_show(progress *pr, const char *text);
void progress_end(const progress *pr);

/* ---- primitives: schemes and adapters ---- */

typedef struct scheme scheme;

/* What a scheme family does (scheme_*.c). setup() makes the keys and a
 * signature to verify; run() does one operation and may leave in *junk an
 * object that release_junk() frees after the timing. */
typedef struct {
    int (*setup)(scheme *sc);
    int (*run)(scheme *sc, int op, void **junk);
    void (*release_junk)(void *junk);
    /* after a timed run, outside the clocks (NULL: none): the signature
     * it made verified */
    int (*check)(scheme *sc, int op);
} bench_adapter;

extern const bench_adapter bench_tts, bench_evp, bench_ed25519, bench_sflash, bench_pqclean;

typedef struct {
    uint64_t *cyc, *ns; /* in run order */
    size_t runs, done;
} series;

struct scheme {
    const bench_adapter *ad;
    char name[32];
    char backend[16]; /* TTS: the backend; others: the library */
    int family;
    const tts_params *p; /* TTS */
    int bits;            /* RSA modulus bits */
    const char *curve;   /* ECDSA curve name */
    size_t pk_bytes, sk_bytes, sig_bytes;
    /* keys and buffers (sig and sig2: sig_cap bytes each) */
    uint8_t *pk, *sk, *pk2, *sk2;
    uint8_t *sig, *sig2;
    size_t siglen, siglen2, sig_cap;
    const void *impl; /* an adapter's own description of the scheme */
    /* at most this many timed runs of an operation (0: as asked): for
     * operations of a second or more (SPHINCS+-128s signing) */
    size_t max_runs[N_OPS];
    EVP_PKEY *pkey;
    EVP_PKEY_CTX *kctx;
    EVP_MD_CTX *md;
    series s[N_OPS];
    stats st_cyc[N_OPS], st_ns[N_OPS];
};


/* Sizes and key buffers (two pairs: the set-up's and key generation's),
 * and two signature buffers of sig bytes. */
int alloc_keys(scheme *sc, size_t pk, size_t sk, size_t sig);

/* Make the scheme's configuration current (TTS: its backend), outside any
 * timed span. */
int bench_select(const scheme *sc);

/* One timed call of operation op (cyc, ns NULL: untimed). */
int timed(scheme *sc, int op, uint64_t *cyc, uint64_t *ns);


typedef struct {
    scheme *v;
    size_t n, cap;
    skiplist skipped;
} scheme_list;

/* Adds the post-quantum peers (scheme_pqclean.c) to l; without PQClean in
 * the build, lists them as skipped. -1 only if out of memory. */
int add_pqclean(scheme_list *l);
/* A new entry of l (zeroed, of family), or NULL if out of memory; its
 * adapter's setup() result then settles it: kept (0) or dropped and listed
 * as skipped with why. */
scheme *add_scheme(scheme_list *l, int family);
void settle_scheme(scheme_list *l, int rc, const char *why);
/* 1 if this build has the post-quantum peers. */
int bench_have_pqclean(void);
/* A post-quantum peer: PQClean's API of one scheme. */
typedef struct {
    const char *name;
    int family;
    size_t pk, sk, sig; /* sig: the largest */
    int (*keypair)(uint8_t *pk, uint8_t *sk);
    int (*sign)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *sk);
    int (*verify)(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
                  const uint8_t *pk);
    size_t max_keygen, max_sign; /* primitives: at most this many runs (0: as asked) */
} pq_peer;
/* The peer of that name, or NULL (unknown, or built without PQClean). */
const pq_peer *bench_pq_peer(const char *name);


/* backends: which TTS backends (BK_AUTO the automatic one, BK_AUTO_REF it
 * and the portable ref, BK_ALL every one); modern: also P-256, RSA-2048/3072,
 * Ed25519 and the post-quantum peers. -1 only if out of memory. */
enum { BK_AUTO, BK_AUTO_REF, BK_ALL };
int build_list(scheme_list *l, const char *autob, int backends, int modern);
void free_list(scheme_list *l);

/* Every scheme of l, warm (each operation's runs back to back) or cold
 * (interleaved round-robin): exp_primitives.c. */
int measure(scheme_list *l, size_t runs, int quick, int cold);

/* ---- files: the file-signing experiment ---- */

/* The input sizes of the national-eID study. It does not say whether a KB
 * is 1000 or 1024 bytes; we take the binary reading usual for file sizes:
 * KB = 1024 B, MB = 1024 KB. --quick keeps three of them and 3 runs. */
extern const size_t file_sizes[8], quick_sizes[3];
#define MAX_FILES COUNT(file_sizes)
#define QUICK_FILE_RUNS 3
#define FILE_RUNS 10

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

/* The largest signature of a file-signing scheme (SPHINCS+-SHA2-128f:
 * 17,088 B). */
#define BENCH_FILE_SIG_MAX 17088

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
    size_t max_runs;  /* 0: every run; else at most this many (the first) */
    const void *impl; /* the adapter's own description */
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
    uint8_t sig[BENCH_FILE_SIG_MAX];
    size_t siglen;
    fseries res[MAX_FILES];
};

#define BENCH_FILE_KINDS 5
extern const file_kind file_kinds[BENCH_FILE_KINDS];
/* The post-quantum peers' (scheme_pqclean.c): their set-up fails without
 * PQClean in the build. */
#define BENCH_PQ_PEERS 5
extern const file_kind pq_file_kinds[BENCH_PQ_PEERS];
void free_fscheme(fscheme *fs);

/* The file-signing steps of each family (scheme_*.c). */
int tts_file_setup(fscheme *fs);
int tts_file_hash(fscheme *fs, const uint8_t *m, size_t len);
int tts_file_sign(fscheme *fs, const uint8_t *m, size_t len);
int tts_file_verify(fscheme *fs, const uint8_t *m, size_t len);
int rsa_file_setup(fscheme *fs);
int ecdsa_file_setup(fscheme *fs);
int evp_file_hash(fscheme *fs, const uint8_t *m, size_t len);
int evp_file_sign(fscheme *fs, const uint8_t *m, size_t len);
int evp_file_verify(fscheme *fs, const uint8_t *m, size_t len);
int ed_file_setup(fscheme *fs);
int edph_file_hash(fscheme *fs, const uint8_t *m, size_t len);
int edph_file_sign(fscheme *fs, const uint8_t *m, size_t len);
int edph_file_verify(fscheme *fs, const uint8_t *m, size_t len);
int ed_file_sign(fscheme *fs, const uint8_t *m, size_t len);
int ed_file_verify(fscheme *fs, const uint8_t *m, size_t len);

typedef struct {
    fscheme v[BENCH_FILE_KINDS + BENCH_PQ_PEERS];
    size_t n;
    const size_t *sizes;
    size_t nsizes, runs;
    skiplist skipped;
} file_list;

/* "1 KB", "10 MB", "300 B" (stats.c). */
void size_label(char *buf, size_t len, size_t bytes);

/* ---- the host's files and processes ----
 * The harness measures and formats; files and the programs it runs go
 * through these functions, which the program supplies (tts-bench: the
 * tools' file rules, common/fileio.h). Returns 0, BENCH_IO_ERROR with the
 * reason in err, or the codes named. */
#define BENCH_IO_ERROR  (-1)
#define BENCH_IO_EXISTS (-2) /* claim: the file exists and force is 0 */
#define BENCH_IO_NOPROG (-3) /* run_gnuplot: gnuplot is not on PATH */
typedef struct {
    /* path will be an output of this run (checked before measuring) */
    int (*claim)(const char *path, int force, char *err, size_t errlen);
    /* a report collected in memory, written whole by close (or dropped
     * with discard) */
    FILE *(*open)(const char *path);
    int (*close)(FILE *f, int force, int discard, char *err, size_t errlen);
    /* `gnuplot script` run on dir/script and dir/data; the charts it makes
     * land in dir */
    int (*run_gnuplot)(const char *dir, const char *script, const char *data,
                       int force, char *err, size_t errlen);
    /* a private temporary folder removed at exit and on a signal, or at
     * once by temp_done */
    int (*temp_dir)(char *out, size_t len, const char *prefix, char *err,
                    size_t errlen);
    void (*temp_done)(const char *path, int remove);
} bench_io;

/* Sets the host's functions before a command runs. */
void bench_set_io(const bench_io *io);
const bench_io *bench_io_get(void);

/* ---- reports (report.c) ---- */

typedef struct {
    char cpu[128];
    char flags[256];
    char os[192];
    long cores;
    char date[32];
    const char *autob;
    double load;     /* 1-minute load average at the start, < 0 if unknown */
    int family, model, stepping; /* /proc/cpuinfo (x86), -1 if unknown */
    double mhz_nominal;  /* cpufreq base or maximum frequency, or the model
                          * name's "@ x.xxGHz"; < 0 if unreadable */
    double mhz_reported; /* "cpu MHz" of /proc/cpuinfo at the start */
    double mhz_tsc;      /* the cycle counter's rate, measured over 50 ms */
    char smt[16], turbo[16]; /* "on", "off" or "unknown" (/sys) */
    char where[256]; /* "cpu, N cores, load L": the charts' captions */
} env;

void get_env(env *e, const char *autob);
void print_env(const env *e, size_t runs, const char *per);
/* The CPU's identity and clock in one line (text reports, CSV, captions). */
void env_clock_text(const env *e, char *out, size_t len);
/* " (broken)" for a TTS or SFLASH scheme or suite name (chart legends and
 * labels), else "". */
const char *broken_mark(const char *name);

typedef struct {
    const char *json, *csv, *plot; /* NULL: not asked for */
    FILE *jf, *cf;
    int force; /* --force: existing reports and charts may be replaced */
} outputs;

int outputs_open(outputs *o);
void outputs_discard(outputs *o);

/* timing: "warm" or "cold" (primitives and table), NULL for files. */
void json_head(FILE *f, const char *mode, int quick, size_t runs, const env *e,
               const skiplist *sk, const char *timing);
void json_num(FILE *f, double v, int have);
void json_prim_results(FILE *f, const scheme_list *l);
void json_files_results(FILE *f, const file_list *fl);
int json_end(FILE *f, const char *path);
void csv_head(FILE *f, const char *mode, int quick, size_t runs, const env *e,
              const skiplist *sk, const char *timing);
void csv_prim(FILE *f, const scheme_list *l);
void csv_files(FILE *f, const file_list *fl);
int csv_end(FILE *f, const char *path);
int plot_bars(const char *dir, const char *name, const scheme_list *l, const env *e);
int plot_files(const char *dir, const file_list *fl, const env *e);

/* An experiment's own chart: plot_stream() opens DIR/NAME (written whole
 * by plot_stream_close), plot_terminals() opens the loop over SVG and PNG
 * (the script closes it with "}"), plot_render() runs gnuplot on them. */
FILE *plot_stream(const char *dir, const char *name);
int plot_stream_close(FILE *f, const char *dir, const char *name);
void plot_terminals(FILE *f, int w, int h);
int plot_render(const char *dir, const char *script, const char *data);

/* ---- the experiments ---- */

int cmd_primitives(size_t runs, int quick, int cold, outputs *o, const char *autob);
int cmd_files(size_t runs, int quick, outputs *o, const char *autob);
int cmd_table(size_t runs, int cold, outputs *o, const char *autob);

#endif /* TTS_BENCH_HARNESS_H */
