/* SPDX-License-Identifier: MIT */
/*
 * The TTS Challenge as a library (tools/tts-challenge.1 is its manual):
 *
 *   sets.c      the sets of the challenge: the TTS table, then
 *               SFLASH(26,37); what differs between them
 *   instance.c  the issuer's side: instance seeds and commitments, the
 *               messages, every file of a challenge folder, in memory
 *   manifest.c  manifest.json and index.json: written, and read back by a
 *               strict parser that trusts nothing
 *   folder.c    reading a challenge folder an attacker may have prepared:
 *               regular files inside the folder only, bounded sizes
 *   verify.c    checking a claimed solution; reveal-check
 *   system.c    a message's system P(w) + h = 0 as polynomial data, and the
 *               field map into the solvers' GF(2^8)
 *   export.c    the system in Singular, Magma, Sage and MQ Challenge form
 *   lab.c       toy attacks: sub-systems solved by Singular
 *   estimate.c  the security estimator (docs/SECURITY.md), exact in GMP
 *   structure.c polar-form ranks measured on keys; a toy TTS-like key and
 *               the MinRank attack that recovers its structure
 *
 * Functions returning int give CHAL_OK (0) or a negative code, with an
 * English reason in err; verdicts are CHAL_VALID / CHAL_INVALID.
 */
#ifndef TTS_CHALLENGE_H
#define TTS_CHALLENGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "tts.h"

#define CHAL_OK       0
#define CHAL_VALID    0
#define CHAL_INVALID  1   /* a solution that fails, or a folder that differs */
#define CHAL_ERROR   (-1) /* bad input: see err */

#define CHAL_MASTER_BYTES 32
#define CHAL_MAX_INSTANCES 1000
#define CHAL_MAX_FILE_BYTES ((size_t)1 << 20)
#define CHAL_INDEX_NAME "index.json"

/* The English reason fmt into err (if not NULL); returns CHAL_ERROR. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int chal_fail(char *err, size_t errlen, const char *fmt, ...);

/* ---- the host's files and processes ----
 * The library computes in memory; what touches the disk or other processes
 * goes through these functions, which the program supplies (the tools':
 * common/fileio.h, whose rules they follow). Returns are CHAL_OK or
 * CHAL_ERROR with the reason in err. */
typedef struct {
    /* name escaped for a message (control bytes, non-ASCII, backslash) */
    const char *(*shown)(char *out, size_t len, const char *name);
    /* name inside the open folder dirfd (dirpath in messages): a plain name,
     * never through a symbolic link, a regular file of at most cap bytes;
     * *buf is released with free after a wipe */
    int (*read_at)(int dirfd, const char *dirpath, const char *name,
                   size_t cap, uint8_t **buf, size_t *len, char *err,
                   size_t errlen);
    /* path may become an output (refused before any work otherwise) */
    int (*check_output)(const char *path, char *err, size_t errlen);
    /* path replaced atomically by data; secret: mode 0600 */
    int (*write)(const char *path, const void *data, size_t len, int secret,
                 char *err, size_t errlen);
    /* a fresh private folder; temporaries listed are removed (secret ones
     * wiped) on a signal or at exit, unless done before */
    int (*temp_dir)(char *out, size_t len, const char *prefix, char *err,
                    size_t errlen);
    int (*temp_add)(const char *path, int secret);
    void (*temp_done)(const char *path, int remove);
    /* a process group to kill on a signal, until done */
    void (*child_add)(pid_t pgid);
    void (*child_done)(pid_t pgid);
} chal_io;

/* Sets the host's functions (before any call that reads or writes files);
 * without them such calls fail with a reason. */
void chal_set_io(const chal_io *io);
const chal_io *chal_io_get(void);

/* ---- the challenge's sets (sets.c) ----
 * One list, numbered 0..chal_set_count()-1: the TTS sets of the parameter
 * table (set i is tts_params_at(i)), then SFLASH(26,37), the broken 2004
 * rival (docs/SFLASH.md), which was never part of the TTS challenge. A
 * mask of sets has bit i for set i. An SFLASH instance needs the host's
 * SFLASH functions (chal_set_sflash_ops): without them (a build without
 * OpenSSL) it is refused with a reason. */
int chal_set_count(void);
int chal_set_sflash(void);                 /* the index of SFLASH(26,37) */
unsigned chal_set_mask_tts(void);          /* the TTS sets: "all" */
/* The set named name ("TTS(20,28)", "tts-20-28", "20,28", "SFLASH(26,37)",
 * "sflash-26-37"), or -1. */
int chal_set_find(const char *name);
int chal_set_of(const tts_params *p);      /* p's index, or -1 */
const tts_params *chal_set_params(int set); /* NULL for SFLASH */
const char *chal_set_name(int set);        /* "TTS(20,28)", "SFLASH(26,37)" */
size_t chal_set_pk_bytes(int set);
size_t chal_set_sig_bytes(int set);
size_t chal_set_digest_bytes(int set);
/* "tts-M-N" or "sflash-26-37", the folder of the set. */
void chal_set_folder(char *out, size_t len, int set);
/* The set whose folder name is name, or -1. */
int chal_set_of_folder_name(const char *name);

/* What SFLASH needs from the host (bench/sflash, which needs OpenSSL):
 * the key pair of a 32-byte seed, and V, the 23-byte digest of a message
 * as SFLASH hashes it. Both return 0 on success. */
typedef struct {
    int (*keypair)(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]);
    size_t sk_bytes;
    int (*hash)(uint8_t v[23], const uint8_t *msg, size_t len);
} chal_sflash_ops;
void chal_set_sflash_ops(const chal_sflash_ops *ops);
/* CHAL_OK if instances of set can be made and checked here. */
int chal_set_usable(int set, char *err, size_t errlen);

/* The digest of msg under set (tts_digest, or SFLASH's V). */
int chal_set_digest(int set, uint8_t *digest, const uint8_t *msg, size_t len,
                    char *err, size_t errlen);
/* CHAL_VALID if sig (chal_set_sig_bytes) satisfies the public map pk
 * (chal_set_pk_bytes) at digest; CHAL_INVALID otherwise. SFLASH: the 37
 * elements of the signature (pad bits zero) through the public map by its
 * coefficients (chal_cstar_eval), against V's 26 elements. */
int chal_set_verify(int set, const uint8_t *sig, const uint8_t *digest,
                    const uint8_t *pk);
/* The public key of the instance seed: pk (chal_set_pk_bytes); the secret
 * key is wiped and dropped. */
int chal_set_public_key(int set, uint8_t *pk, const uint8_t seed[32],
                        char *err, size_t errlen);
/* The public-key files of an instance folder: TTS "pk.tts" and "pk.asc"
 * (tts_file.h), SFLASH "pk.sflash" (the raw 16,858 bytes of
 * docs/SFLASH.md, decision 4). name[0] is the one verify reads. */
#define CHAL_MAX_PK_FILES 2
size_t chal_set_pk_files(int set, const char *name[CHAL_MAX_PK_FILES]);
/* File i of those, encoded: heap (free()), *len bytes. */
uint8_t *chal_set_pk_encode(int set, size_t i, const uint8_t *pk, size_t *len);
/* The key of name[0]'s bytes: heap *pk (free()), *pklen; CHAL_ERROR with a
 * reason if it is not a key of set. */
int chal_set_pk_decode(int set, const uint8_t *raw, size_t len, uint8_t **pk,
                       size_t *pklen, char *err, size_t errlen);

/* ---- the challenge table (docs/SPEC.md, section 12, table A) ---- */
typedef struct {
    unsigned m, n, bits, prize;
} chal_entry;

/* The entry of set p, or NULL. */
const chal_entry *chal_entry_of(const tts_params *p);

/* "tts-M-N", the folder of set p. */
void chal_folder_name(char *out, size_t len, const tts_params *p);

/* The set whose folder name is name, or NULL. */
const tts_params *chal_set_of_folder(const char *name);

/* A calendar date YYYY-MM-DD (Gregorian, leap years included): 1 or 0. */
int chal_valid_date(const char *d);

/* ---- instance.c ---- */

/* instance seed = SHA-512("libtts challenge instance" || master || set
 * name)[0..31] (chal_set_name); commitment = hex SHA-512("libtts
 * challenge commitment" || instance seed). */
void chal_instance_seed(uint8_t seed[TTS_SEED_BYTES],
                        const uint8_t master[CHAL_MASTER_BYTES], int set);
void chal_commitment_hex(char out[129], const uint8_t seed[TTS_SEED_BYTES]);

/* The instance key pair of set p under master (tts_keypair_from_seed of
 * the instance seed): pk into the caller's tts_pk_bytes(p) bytes; the
 * secret key into a new block *sk unless sk is NULL (free it with
 * chal_secret_free, which wipes it); the instance seed into seed unless
 * NULL. CHAL_OK, or CHAL_ERROR with err set and nothing kept. */
int chal_instance_keypair(const tts_params *p, const uint8_t master[CHAL_MASTER_BYTES],
                          uint8_t *pk, uint8_t **sk, uint8_t seed[TTS_SEED_BYTES],
                          char *err, size_t errlen);
void chal_secret_free(const tts_params *p, uint8_t *sk);

/* Message idx (1..k) of the set, issued on date: its length, or -1. */
int chal_message_text(char *out, size_t len, int set, unsigned idx,
                      unsigned k, const char *date);

typedef struct {
    char name[32];
    uint8_t *data;
    size_t len;
} chal_file;

/* Every file of one instance folder, exactly as generate writes it: the
 * public-key files (chal_set_pk_files), msg-I.txt and msg-I.digest for
 * I = 1..k, manifest.json. */
typedef struct {
    int set;
    const tts_params *p;     /* NULL for SFLASH */
    size_t nfiles;
    chal_file *files;
} chal_instance;

int chal_instance_build(chal_instance *inst, int set,
                        const uint8_t master[CHAL_MASTER_BYTES], unsigned k,
                        const char *date, char *err, size_t errlen);
void chal_instance_free(chal_instance *inst);

/* The challenge's index.json: date, instances per set, the sets (bit i:
 * set i). Heap text of *len bytes (free()). */
char *chal_index_render(unsigned mask, unsigned k, const char *date,
                        size_t *len);

/* Write the folders of the sets in mask under a new directory out, with
 * the index, all at once (built in a temporary beside out, renamed into
 * place; out must not exist or be an empty directory). With secret_out,
 * the master seed goes there (mode 0600) and must lie outside out. */
int chal_generate(const char *out, unsigned mask, unsigned k,
                  const char *date, const uint8_t master[CHAL_MASTER_BYTES],
                  const char *secret_out, char *err, size_t errlen);

/* ---- manifest.c ---- */

typedef struct {
    unsigned index;
    char file[64];
    uint8_t digest[TTS_MAX_M];
} chal_message;

typedef struct {
    int set;                 /* from "set", checked against the sizes */
    const tts_params *p;     /* the TTS set (m, n, v, a, b checked), or NULL */
    int old_prize;           /* the field of manifests before "status":
                              * "prize_usd" for "historical_prize_usd" */
    uint8_t pk_sha256[32];
    char issued[11];
    char commitment[129];
    unsigned nmessages;      /* messages 1..nmessages, in order */
    chal_message *messages;
} chal_manifest;

/* manifest.json of an instance: the text, heap, *len bytes (free()).
 * Every manifest says "status": "broken". A TTS manifest gives the 2004
 * challenge's prize as "historical_prize_usd" (nothing is offered); an
 * SFLASH manifest says in "prize" that it has none. */
char *chal_manifest_render(int set, const uint8_t pk_sha256[32],
                           const char *date, const char *commitment,
                           unsigned k, const uint8_t *digests, size_t *len);

/* m (parsed) in the layout of TTS manifests issued before "status"
 * (reveal-check of such a folder); NULL for SFLASH. */
char *chal_manifest_render_old(const chal_manifest *m, size_t *len);

/* Parse a manifest strictly: every field present once with its type, no
 * other field, the sizes those of the set, messages numbered 1..K in
 * order, file names plain (no '/', not "." or ".."), hex of the right
 * length. A TTS manifest issued before "status" (with "prize_usd" where
 * now "historical_prize_usd" stands) is read too. */
int chal_manifest_parse(const char *text, size_t len, chal_manifest *m,
                        char *err, size_t errlen);
void chal_manifest_free(chal_manifest *m);

/* Parse index.json strictly: *mask, *k, date[11]. */
int chal_index_parse(const char *text, size_t len, unsigned *mask,
                     unsigned *k, char date[11], char *err, size_t errlen);

/* ---- folder.c ---- */

/* An open challenge directory: the top folder as given (its own path may
 * hold symbolic links), everything below it opened without following any. */
typedef struct {
    int fd;
    char path[4096];
} chal_dir;

int chal_dir_open(chal_dir *d, const char *path, char *err, size_t errlen);
/* The instance folder name inside top (a real directory, not a link). */
int chal_dir_sub(chal_dir *sub, const chal_dir *top, const char *name,
                 char *err, size_t errlen);
void chal_dir_close(chal_dir *d);

/* File name inside d: a plain name, a regular file, at most cap bytes. A
 * missing file gives CHAL_ERROR with errno-style text "missing". */
int chal_dir_read(const chal_dir *d, const char *name, size_t cap,
                  uint8_t **buf, size_t *len, char *err, size_t errlen);

/* 1 if name is a plain file name: not empty, no '/', not "." or "..",
 * printable ASCII. */
int chal_plain_name(const char *name);

/* ---- verify.c ---- */

typedef struct {
    int set;
    const tts_params *p;     /* NULL for SFLASH */
    char pk_sha256_hex[65];
} chal_verdict;

/* Check sig (tts_sig_bytes(p) bytes) as a solution of message idx of the
 * instance of set p in dir. The folder is read as hostile: the manifest
 * strictly, pk.tts's SHA-256 against the manifest (and against pin, the
 * published value, if not NULL), the message's digest against the
 * manifest and against msg-I.digest. CHAL_VALID, CHAL_INVALID, or
 * CHAL_ERROR with the first mismatch named in err. */
int chal_verify(const char *dir, const tts_params *p, const uint8_t *sig,
                unsigned idx, const uint8_t pin[32], chal_verdict *v,
                char *err, size_t errlen);
/* The same for any set of the challenge (sig: chal_set_sig_bytes). */
int chal_verify_set(const char *dir, int set, const uint8_t *sig,
                    unsigned idx, const uint8_t pin[32], chal_verdict *v,
                    char *err, size_t errlen);

/* Recompute the whole challenge in dir from master and compare every file
 * (and the index) byte for byte; each difference is a line on report.
 * CHAL_OK when all match, CHAL_INVALID otherwise, CHAL_ERROR when dir
 * cannot be read as a challenge at all. */
int chal_reveal_check(const char *dir, const uint8_t master[CHAL_MASTER_BYTES],
                      FILE *report, char *err, size_t errlen);

/* ---- the instance a solver attacks ---- */

/* Message idx of the instance of set p in dir, read as chal_verify reads
 * it (hostile folder, every hash checked): the public key (heap, free())
 * and the digest. */
typedef struct {
    int set;
    const tts_params *p;     /* NULL for SFLASH */
    unsigned message;
    uint8_t *pk;
    size_t pklen;
    uint8_t digest[TTS_MAX_M];
    char pk_sha256_hex[65];
} chal_target;

int chal_target_load(chal_target *t, const char *dir, const tts_params *p,
                     unsigned idx, const uint8_t pin[32], char *err,
                     size_t errlen);
/* The same for any set of the challenge. */
int chal_target_load_set(chal_target *t, const char *dir, int set,
                         unsigned idx, const uint8_t pin[32], char *err,
                         size_t errlen);
void chal_target_free(chal_target *t);

/* ---- system.c: P(w) + h = 0 as polynomial data ---- */

/* The solvers' field is GF(2)[a]/(a^8+a^4+a^3+a^2+1) (0x11D); libtts's t
 * goes to a^CHAL_PHI_T (docs/SPEC.md section 13). chal_phi maps a libtts
 * byte to a 0x11D byte, chal_phi_inv back; chal_phi_log(b) is the e with
 * phi(b) = a^e (-1 for 0); chal_phi_from_log(e) the libtts byte of a^e. */
#define CHAL_PHI_T 25
uint8_t chal_phi(uint8_t b);
uint8_t chal_phi_inv(uint8_t y);
int chal_phi_log(uint8_t b);
int chal_phi_from_log(unsigned e);

/* neq quadratic equations in nvar unknowns: equation k is
 *   SUM_{i<=j} quad[k][q(i,j)] x_i x_j + SUM_i lin[k][i] x_i + cst[k] = 0,
 * q(i,j) = chal_quad_index(nvar, i, j) as in the public key (SPEC 5.4).
 * eq[k] is the public-key equation it came from, var[i] the signature byte
 * unknown i stands for, norig the signature length. */
typedef struct {
    unsigned neq, nvar, norig;
    uint8_t *quad, *lin, *cst;
    unsigned *eq, *var;
} chal_system;

size_t chal_quad_index(unsigned nvar, unsigned i, unsigned j);
int chal_system_alloc(chal_system *s, unsigned neq, unsigned nvar);
void chal_system_free(chal_system *s);
/* The m equations P_k(w) + digest_k = 0 of public key pk. */
int chal_system_from_pk(chal_system *s, const tts_params *p,
                        const uint8_t *pk, const uint8_t *digest);
/* out[k] = equation k at x (0 for every k: x is a solution). */
void chal_system_eval(const chal_system *s, uint8_t *out, const uint8_t *x);
/* The equations keep[0..nkeep-1] of s (all, in order, if keep is NULL)
 * with unknown i replaced by fix[i] where fix[i] >= 0 (fix NULL: none),
 * the remaining unknowns renumbered in order. */
int chal_system_reduce(chal_system *out, const chal_system *s,
                       const unsigned *keep, unsigned nkeep, const int *fix);

/* ---- export.c: the formats real solvers read ---- */

typedef enum {
    CHAL_FMT_SINGULAR,
    CHAL_FMT_MAGMA,
    CHAL_FMT_SAGE,
    CHAL_FMT_MQ,
    CHAL_FMT_COUNT
} chal_format;

/* The format called name, or -1. */
int chal_format_parse(const char *name);
const char *chal_format_name(chal_format f);

/* What the header comment says: the instance, and the fixed values
 * (fix[i] >= 0 for signature byte i, NULL if none), with a line telling
 * where they came from. */
typedef struct {
    const chal_target *t;
    const int *fix;
    const char *fix_origin;
} chal_export_info;

/* s in format f, after the header comment (none if in->t is NULL). */
int chal_export_write(FILE *o, const chal_system *s, chal_format f,
                      const chal_export_info *in);

/* ---- lab.c: toy attacks with a real solver ---- */

/* The k values of fixing attempt number attempt (0, 1, ...): bytes
 * [attempt k, (attempt + 1) k) of the ChaCha20 stream of seed
 * (tts_stream, docs/SPEC.md section 6). */
void chal_fix_values(uint8_t *out, size_t k, const uint8_t seed[32],
                     unsigned attempt);

/* Singular's path: $TTS_SINGULAR, else the one configure found; NULL if
 * neither is an executable. */
const char *chal_singular_path(void);

enum { CHAL_SOLVE_FOUND, CHAL_SOLVE_NONE, CHAL_SOLVE_TIMEOUT };

typedef struct {
    int status;             /* CHAL_SOLVE_* */
    uint8_t x[TTS_MAX_N];   /* a solution over GF(256), libtts bytes */
    unsigned max_degree;    /* the highest degree slimgb reached */
    unsigned solver_version; /* Singular's, e.g. 4310 */
    double seconds;         /* wall time of the solver process */
    double gb_seconds;      /* the Groebner basis alone, Singular's clock */
} chal_solve_result;

/* Solve s with Singular (slimgb, then its GF(256) points), killed after
 * timeout seconds (0: no limit). CHAL_OK with r->status, or CHAL_ERROR
 * (no Singular, unreadable output). */
int chal_solve_singular(const chal_system *s, double timeout,
                        chal_solve_result *r, char *err, size_t errlen);

/* A toy attack: the first `equations` equations of the instance, the
 * signature bytes w_vars..w_{n-1} fixed, w_0..w_{vars-1} solved for. The
 * fixed values are those of genuine (a signature of the message, the
 * issuer's right-guess branch) or chal_fix_values of fix_seed, attempt
 * after attempt while a fixing has no solution, up to max_tries. */
typedef struct {
    const chal_target *t;
    unsigned equations, vars;
    const uint8_t *genuine;  /* n bytes, or NULL */
    uint8_t fix_seed[32];
    unsigned max_tries;
    double timeout;          /* seconds for all tries; 0: no limit */
} chal_toy_opts;

typedef struct {
    int status;              /* of the last try: CHAL_SOLVE_* */
    int satisfied;           /* w satisfies the kept equations */
    unsigned equations, vars, tries, max_degree, solver_version;
    unsigned predicted_dreg, predicted_degree;
    uint8_t w[TTS_MAX_N];
    double seconds, gb_seconds;
} chal_toy_result;

int chal_toy_run(const chal_toy_opts *o, chal_toy_result *r, FILE *progress,
                 char *err, size_t errlen);

/* The issuer's signature of t's message: the instance key from master
 * (checked against t's public key) signs t's digest. */
int chal_genuine_signature(uint8_t *sig, const chal_target *t,
                           const uint8_t master[CHAL_MASTER_BYTES], char *err,
                           size_t errlen);

/* Message 1 of a one-message instance of set p issued from master on
 * CHAL_LAB_DATE, without writing a folder (calibration's target). */
#define CHAL_LAB_DATE "2000-01-01"
int chal_target_issue(chal_target *t, const tts_params *p,
                      const uint8_t master[CHAL_MASTER_BYTES], char *err,
                      size_t errlen);

/* Calibration: toy attacks on every E equations in V unknowns (2 <= V <=
 * E <= m) of set p, cheapest model first, fixings from the genuine
 * signature, until budget seconds are spent or the next size's predicted
 * time exceeds what is left; log2 of the Groebner-basis time fitted
 * against the model (points of at least CHAL_CALIB_MIN_SECONDS). */
#define CHAL_CALIB_MAX 1024 /* 630 for m = 36 */
#define CHAL_CALIB_MIN_SECONDS 0.05
typedef struct {
    unsigned equations, vars, dreg, predicted_degree, max_degree;
    unsigned solver_version;
    int status, fitted;
    double model_bits, seconds, gb_seconds, predicted_log2, residual;
} chal_calib_point;

typedef struct {
    const tts_params *p;
    char pk_sha256_hex[65];
    double budget, elapsed;
    const char *stopped;          /* why the run ended */
    unsigned ngrid, npoints, nfit; /* grid size, points run, points fitted */
    chal_calib_point points[CHAL_CALIB_MAX];
    double slope, intercept, r2;  /* log2 s = intercept + slope * bits */
    double offset;                /* the fit with slope 1 */
} chal_calibration;

int chal_calibrate(chal_calibration *c, const tts_params *p,
                   const uint8_t master[CHAL_MASTER_BYTES], double budget,
                   FILE *progress, char *err, size_t errlen);

/* ---- estimate.c ---- */

/* D_reg of m semi-regular quadratic equations in nv <= m variables. */
unsigned chal_dreg(unsigned m, unsigned nv);

/* The highest degree an F4-style solver reaches there: D_reg when the
 * Hilbert-series coefficient at D_reg is negative, D_reg + 1 when it is
 * exactly zero. */
unsigned chal_solver_degree(unsigned m, unsigned nv);

/* log2 of C(nv + D, D)^2, D = D_reg(m, nv): the model's cost of m
 * equations in nv unknowns without guessing (omega 2). */
double chal_f4_bits(unsigned m, unsigned nv);

typedef struct {
    unsigned k, nv, dreg;
    double bits;
} chal_hybrid;

/* Hybrid XL/F4 over GF(256): omega 2 (exact) and 2.81. */
void chal_mq_hybrid(unsigned eqs, unsigned vars, chal_hybrid *w2,
                    chal_hybrid *w281);

typedef struct {
    unsigned e_mr, e_hr, e_uov; /* exponents of q = 2^8 */
    double minrank, highrank, uov;
    chal_hybrid uovr2, uovr281, rbs2, rbs281;
} chal_structural;

void chal_structural_attacks(const tts_params *p, chal_structural *s);

/* A MinRank problem linearised by Support Minors and solved by Wiedemann's
 * method (docs/SECURITY.md section 1): u is sought in a slice of `slice`
 * dimensions with rank [M_1 u .. M_forms u] <= rank, every one of `rows`
 * independent rows giving C(forms, d - 1) equations; d = forms - rank is
 * the least with rows C(forms, d - 1) >= slice C(forms, d) - 1. The
 * operator is N x N (N = unknowns = slice C(forms, d)) with row_weight =
 * (forms - d + 1) slice nonzeros a row; cost 2N applications of N
 * row_weight multiply-adds plus Berlekamp-Massey's 2N^2:
 * 2 N^2 (row_weight + 1). */
typedef struct {
    unsigned forms, rank, slice, rows, d, row_weight;
    unsigned long long unknowns;
    double bits;
} chal_linear_attack;

/* The key-only break (slice v - 1 of U_y, rows n - 1) and Beullens'
 * rectangular MinRank without the slice (slice n - b - 1, rows n). */
void chal_break_estimates(const tts_params *p, chal_linear_attack *brk,
                          chal_linear_attack *rect);

/* log2 of q^m, the exhaustive search. */
double chal_exhaustive_bits(const tts_params *p);

/* ---- structure.c: ranks measured on keys; the toy key and its attack ---- */

/* Ranks of the polar forms (docs/SECURITY.md section 4) on the key of set
 * p made by tts_keypair_from_seed(seed). Groups g = 0..3: layer 1, + mu1,
 * + mu2, all m; oil[g] central equations, support[g] variables their polar
 * forms touch (counted on the key). form_*: each central form of the
 * group's own rows; comb_*: trials random members of the group with the
 * coefficient of its last row nonzero, in the central basis; pub_*: the
 * same members taken from the public key, (lambda S1) . P. */
typedef struct {
    unsigned oil[4], support[4];
    unsigned form_min[4], form_max[4];
    unsigned comb_min[4], comb_max[4];
    unsigned pub_min[4], pub_max[4];
    unsigned pub_mismatch;           /* members whose two ranks differ */
    unsigned random_min, random_max; /* random combinations of all m */
    unsigned exponent;               /* min over g of support - oil */
} chal_rank_report;

int chal_key_ranks(const tts_params *p, const uint8_t seed[TTS_SEED_BYTES],
                   unsigned trials, chal_rank_report *r);

/* A TTS-like toy key of structure.c's own (never a key of the library):
 * the central map of docs/SPEC.md section 4 for v, a, b (v even,
 * 4 <= v < a <= 2v - 1, 1 <= b <= a), random invertible A1, A3 and nonzero
 * coefficients from a seed; the public side is the m polar forms. */
#define CHAL_TOY_MAX_M 36
#define CHAL_TOY_MAX_N 50
typedef struct {
    unsigned v, a, b, m, n;
    uint8_t A1[CHAL_TOY_MAX_M * CHAL_TOY_MAX_M], S1[CHAL_TOY_MAX_M * CHAL_TOY_MAX_M];
    uint8_t A3[CHAL_TOY_MAX_N * CHAL_TOY_MAX_N], S3[CHAL_TOY_MAX_N * CHAL_TOY_MAX_N];
    unsigned support;                   /* variables of layer 1 + middle */
    uint8_t in_support[CHAL_TOY_MAX_N];
    uint8_t pub[CHAL_TOY_MAX_M * CHAL_TOY_MAX_N * CHAL_TOY_MAX_N];
} chal_toy_key;

int chal_toy_shape_ok(unsigned v, unsigned a, unsigned b);
/* 1 if the toy generator's terms for p's v, a, b are p's table. */
int chal_toy_terms_match(const tts_params *p);
int chal_toy_keygen(chal_toy_key *k, unsigned v, unsigned a, unsigned b,
                    const uint8_t seed[32], char *err, size_t errlen);

typedef struct {
    unsigned long long tries, solutions, hits, rejected, tries_to_span;
    unsigned long long by_group[4]; /* layer 1, + mu1, + mu2, other */
    unsigned min_rank;
    unsigned du, dk;                /* recovered span and kernel */
    uint8_t U[CHAL_TOY_MAX_M * CHAL_TOY_MAX_M];
    uint8_t K[CHAL_TOY_MAX_N * CHAL_TOY_MAX_N];
    int span_ok, kernel_ok;         /* checked against the secret */
    double seconds;
    double log2_middle_rate;        /* log2 of hits per try and middle group */
} chal_minrank_result;

/* The kernel-guessing MinRank attack on the toy key's public forms: up to
 * max_tries tries, stopping once the a + 2 dimensional span is recovered
 * unless measure. */
int chal_toy_attack(const chal_toy_key *k, const uint8_t seed[32],
                    unsigned long long max_tries, int measure,
                    chal_minrank_result *r);
/* The checks against the secret: U (du rows of m) spans the secret layer
 * 1 + middle space; K (dk rows of n) is the secret kernel. */
int chal_toy_check_span(const chal_toy_key *k, const uint8_t *U, unsigned du);
int chal_toy_check_kernel(const chal_toy_key *k, const uint8_t *K, unsigned dk);

#endif /* TTS_CHALLENGE_H */
