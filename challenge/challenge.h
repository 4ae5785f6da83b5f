/*
 * The TTS Challenge as a library (tools/tts-challenge.1 is its manual):
 *
 *   instance.c  the issuer's side: instance seeds and commitments, the
 *               messages, every file of a challenge folder, in memory
 *   manifest.c  manifest.json and index.json: written, and read back by a
 *               strict parser that trusts nothing
 *   folder.c    reading a challenge folder an attacker may have prepared:
 *               regular files inside the folder only, bounded sizes
 *   verify.c    checking a claimed solution; reveal-check
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
 * name)[0..31]; commitment = hex SHA-512("libtts challenge commitment" ||
 * instance seed). */
void chal_instance_seed(uint8_t seed[TTS_SEED_BYTES],
                        const uint8_t master[CHAL_MASTER_BYTES],
                        const tts_params *p);
void chal_commitment_hex(char out[129], const uint8_t seed[TTS_SEED_BYTES]);

/* Message idx (1..k) of set p, issued on date: its length, or -1. */
int chal_message_text(char *out, size_t len, const tts_params *p,
                      unsigned idx, unsigned k, const char *date);

typedef struct {
    char name[32];
    uint8_t *data;
    size_t len;
} chal_file;

/* Every file of one instance folder, exactly as generate writes it:
 * pk.tts, pk.asc, msg-I.txt and msg-I.digest for I = 1..k, manifest.json. */
typedef struct {
    const tts_params *p;
    size_t nfiles;
    chal_file *files;
} chal_instance;

int chal_instance_build(chal_instance *inst, const tts_params *p,
                        const uint8_t master[CHAL_MASTER_BYTES], unsigned k,
                        const char *date, char *err, size_t errlen);
void chal_instance_free(chal_instance *inst);

/* The challenge's index.json: date, instances per set, the sets (bit i:
 * tts_params_at(i)). Heap text of *len bytes (free()). */
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
    const tts_params *p;     /* from "set", checked against m, n, v, a, b */
    uint8_t pk_sha256[32];
    char issued[11];
    char commitment[129];
    unsigned nmessages;      /* messages 1..nmessages, in order */
    chal_message *messages;
} chal_manifest;

/* manifest.json of an instance: the text, heap, *len bytes (free()). */
char *chal_manifest_render(const tts_params *p, const uint8_t pk_sha256[32],
                           const char *date, const char *commitment,
                           unsigned k, const uint8_t *digests, size_t *len);

/* Parse a manifest strictly: every field present once with its type, no
 * other field, the sizes those of the set, messages numbered 1..K in
 * order, file names plain (no '/', not "." or ".."), hex of the right
 * length. */
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
    const tts_params *p;
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

/* Recompute the whole challenge in dir from master and compare every file
 * (and the index) byte for byte; each difference is a line on report.
 * CHAL_OK when all match, CHAL_INVALID otherwise, CHAL_ERROR when dir
 * cannot be read as a challenge at all. */
int chal_reveal_check(const char *dir, const uint8_t master[CHAL_MASTER_BYTES],
                      FILE *report, char *err, size_t errlen);

/* ---- estimate.c ---- */

/* D_reg of m semi-regular quadratic equations in nv <= m variables. */
unsigned chal_dreg(unsigned m, unsigned nv);

/* The highest degree an F4-style solver reaches there: D_reg when the
 * Hilbert-series coefficient at D_reg is negative, D_reg + 1 when it is
 * exactly zero. */
unsigned chal_solver_degree(unsigned m, unsigned nv);

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

/* log2 of q^m, the exhaustive search. */
double chal_exhaustive_bits(const tts_params *p);

/* ---- structure.c: ranks measured on keys; the toy key and its attack ---- */

/* Ranks of the polar forms (docs/SECURITY.md section 3) on the key of set
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
} chal_toy_result;

/* The kernel-guessing MinRank attack on the toy key's public forms: up to
 * max_tries tries, stopping once the a + 2 dimensional span is recovered
 * unless measure. */
int chal_toy_attack(const chal_toy_key *k, const uint8_t seed[32],
                    unsigned long long max_tries, int measure,
                    chal_toy_result *r);
/* The checks against the secret: U (du rows of m) spans the secret layer
 * 1 + middle space; K (dk rows of n) is the secret kernel. */
int chal_toy_check_span(const chal_toy_key *k, const uint8_t *U, unsigned du);
int chal_toy_check_kernel(const chal_toy_key *k, const uint8_t *K, unsigned dk);

#endif /* TTS_CHALLENGE_H */
