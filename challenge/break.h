/* SPDX-License-Identifier: MIT */
/*
 * The key-only break of TTS (docs/SECURITY.md section 1): from a public
 * key alone, an equivalent key that signs any digest.
 *
 *   break.c   the attack: the hidden subspaces and equation groups
 *   sm.c      the Support Minors system of its MinRank step, solved by
 *             dense elimination or by Wiedemann's method on the
 *             structured operator (threads, checkpoints)
 *   eqkey.c   the equivalent key: signing with it, its file format
 *
 * Everything here works on public data (a public key and what an attacker
 * derives from it): the arithmetic uses tables and branches on the data.
 */
#ifndef TTS_CHALLENGE_BREAK_H
#define TTS_CHALLENGE_BREAK_H

#include <stddef.h>
#include <stdint.h>

#include "tts.h"

/* ---- the equivalent key ---- */

/* An equivalent key of a public key pk: with Q(z) = T P(B z), the outputs
 * of Q fall in four groups (a layer-1 equations, one mu1, one mu2, b
 * layer-3) and its inputs in five blocks (v - 1 vinegar V, a layer-1 oil
 * L, one mu1, two C, b layer-3 oil O) such that, the vinegar fixed, each
 * group is affine in the next block: the central map's shape. B (n x n)
 * holds the input basis as columns, T (m x m) the equation groups as rows,
 * both row-major. */
typedef struct {
    const tts_params *p;
    uint8_t B[TTS_MAX_N * TTS_MAX_N];
    uint8_t T[TTS_MAX_M * TTS_MAX_M];
    uint8_t pk[TTS_MAX_PK_BYTES];
} chal_eqkey;

/* Sign an m-byte digest with an equivalent key: n bytes into sig, a
 * signature that tts_verify_digest accepts. rng draws the vinegar (NULL:
 * the system generator). CHAL_OK, or CHAL_ERROR with err set (no
 * signature after TTS_MAX_ATTEMPTS tries: not an equivalent key). */
int chal_eqkey_sign(const chal_eqkey *k, uint8_t *sig, const uint8_t *digest,
                    tts_rng_fn rng, void *ctx, char *err, size_t errlen);

/* The key file (docs/SPEC.md section 14): "TTSEQK01", the set's m and n,
 * B, T, the public key, and the SHA-256 of everything before it. */
size_t chal_eqkey_bytes(const tts_params *p);
void chal_eqkey_encode(uint8_t *out, const chal_eqkey *k);
/* Decode and check (sizes, checksum, the set, B and T invertible, and a
 * test signature that verifies): CHAL_OK or CHAL_ERROR. */
int chal_eqkey_decode(chal_eqkey *k, const uint8_t *in, size_t len,
                      char *err, size_t errlen);

/* ---- the attack ---- */

/* Progress of a long step: stage name and fraction done (0..1). */
typedef void (*chal_progress_fn)(void *ctx, const char *stage, double done);

typedef struct {
    const uint8_t *seed;   /* 32 bytes: a reproducible run; NULL: the
                            * checkpoint's, or random */
    unsigned threads;      /* 0: one per online core */
    chal_progress_fn progress;
    void *progress_ctx;
    const char *checkpoint; /* Wiedemann state saved here and resumed from:
                             * refused (CHAL_ERROR) if a file is there that
                             * is not a checkpoint of pk (chal_checkpoint_check) */
    unsigned checkpoint_seconds; /* between saves (0: 60) */
    int solver;            /* CHAL_SOLVER_AUTO, _DENSE or _WIEDEMANN */
    size_t stop_after;     /* tests: save a checkpoint after this many
                            * operator applications and fail (0: never) */
} chal_break_opts;

#define CHAL_SOLVER_AUTO      0
#define CHAL_SOLVER_DENSE     1
#define CHAL_SOLVER_WIEDEMANN 2

#define CHAL_BREAK_STEPS 7
typedef struct {
    unsigned attempts;         /* tries of steps 1-2 until one succeeded */
    unsigned sm_forms;         /* m': public forms in the MinRank matrix */
    unsigned sm_rank;          /* its target rank b */
    unsigned sm_slice;         /* unknowns of the slice (v - 1) */
    size_t unknowns, equations, nonzeros;
    int solver;                /* the one used */
    unsigned threads;
    size_t matvecs;            /* Wiedemann: operator applications */
    unsigned dim_uy, rank_u, dim_lambda, dim_k, dim_o3, dim_lambda1, dim_oprime;
    unsigned line_points;      /* points tried by the two line searches */
    unsigned sign_checks;      /* test signatures that verified */
    double seconds[CHAL_BREAK_STEPS]; /* per step, wall */
    double total_seconds;
    int resumed;               /* started from a checkpoint */
    int checkpoint_saved;      /* wrote the checkpoint at least once */
    uint8_t seed[32];          /* the seed the run used */
} chal_break_report;

extern const char *const chal_break_step_names[CHAL_BREAK_STEPS];

#define CHAL_NO_STRUCTURE 1 /* the key has no TTS structure */

/* What is at path, the checkpoint of a break of pk (set p): 0 nothing, 1 a
 * checkpoint of pk, CHAL_ERROR (err) anything else (a symbolic link, a FIFO
 * or other non-regular file, a file that is not a checkpoint, the
 * checkpoint of another key). The file is read by a non-blocking open. */
int chal_checkpoint_check(const tts_params *p, const uint8_t *pk, const char *path,
                          char *err, size_t errlen);

/* Recover an equivalent key of pk (set p). CHAL_OK; CHAL_NO_STRUCTURE
 * with err set when the key is not TTS-shaped (a random quadratic map, a
 * corrupted key); CHAL_ERROR on bad input or no memory. rep (if not NULL)
 * is filled in either case. */
int chal_break(const tts_params *p, const uint8_t *pk, const chal_break_opts *opt,
               chal_eqkey *key, chal_break_report *rep, char *err, size_t errlen);

/* The Support Minors system's shape for set p: forms m', rank b, slice
 * v - 1, unknowns (v - 1) C(m', m' - b) and equations n C(m', m' - b - 1). */
void chal_break_shape(const tts_params *p, unsigned *forms, unsigned *rank,
                      unsigned *slice, size_t *unknowns, size_t *equations);

#endif
