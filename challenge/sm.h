/* SPDX-License-Identifier: MIT */
/*
 * The Support Minors system of the break's MinRank step (sm.c).
 *
 * Given forms' matrices restricted to a slice, A_l (n x cols) for l < mf,
 * find x != 0 with rank [A_0 x ... A_{mf-1} x] <= mf - d. With c_S the
 * maximal minors of a basis of the row space, indexed by the complements
 * S (|S| = d), every row j and every I (|I| = d - 1) give one equation
 *     sum_{l not in I} sum_i A_l[j][i] z[I + l][i] = 0       (char. 2)
 * in the unknowns z[S][i] = c_S x_i: a linear system whose kernel is
 * spanned by x (tensor) c. Unknowns cols C(mf, d), equations n C(mf, d-1).
 */
#ifndef TTS_CHALLENGE_SM_H
#define TTS_CHALLENGE_SM_H

#include <stddef.h>
#include <stdint.h>

#include "break.h"
#include "internal.h"

typedef struct {
    unsigned n, mf, d, cols;
    const uint8_t *A; /* A[(l n + j) cols + i] */
} sm_system;

typedef struct {
    const tts_kernels *k;
    int solver;               /* CHAL_SOLVER_* */
    unsigned threads;
    tts_stream *rng;          /* the run's random choices */
    chal_progress_fn progress;
    void *progress_ctx;
    const char *checkpoint;
    unsigned checkpoint_seconds;
    const uint8_t *run_id;    /* 32 bytes naming the run (checkpoints) */
    const uint8_t *seed;      /* the run's seed, kept in checkpoints */
    const uint8_t *pk_id;     /* SHA-256 of the public key (checkpoints) */
    size_t stop_after;        /* chal_break_opts */
} sm_env;

typedef struct {
    size_t unknowns, equations, nonzeros, matvecs;
    int no_kernel;       /* dense: the system has none (no other slice can) */
    int solver;
    unsigned threads;
    int resumed;
    int checkpoint_saved;
    int krylov_no_kernel; /* Wiedemann: the sequence's minimal polynomial
                           * has a nonzero constant term (no kernel seen) */
} sm_stats;

/* Solve s: 1 and x (cols bytes) if a kernel of the rank-one shape was
 * found, 0 if the system has none, -1 on error (err set). */
int sm_solve(const sm_system *s, const sm_env *env, uint8_t *x, sm_stats *st,
             char *err, size_t errlen);

/* The seed kept in the checkpoint at path: 1, or 0 if there is none. */
int sm_checkpoint_seed(const char *path, uint8_t seed[32]);

/* What is at path, before a run uses it as its checkpoint: 0 nothing, 1 a
 * checkpoint of the public key whose SHA-256 is pk_id, CHAL_ERROR (err)
 * anything else: a symbolic link, a FIFO or other non-regular file, a file
 * that is not a checkpoint, another key's checkpoint. */
int sm_checkpoint_check(const char *path, const uint8_t pk_id[32], char *err,
                        size_t errlen);

/* C(n, k) for the small sizes here (0 if k > n). */
size_t sm_binom(unsigned n, unsigned k);

#endif
