/* SPDX-License-Identifier: MIT */
/*
 * The ePassport-issuance experiment (docs/BENCH.md, "The ePassport-issuance
 * experiment"): the whole issuance flow per signature suite, step by step,
 * over a number of runs. The tool (tools/tts-bench.c) parses the command
 * line, provides the input files and, with --card, the card: this part
 * reads no environment and includes nothing of tools/.
 */
#ifndef TTS_BENCH_EXP_PASSPORT_H
#define TTS_BENCH_EXP_PASSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

/* The five inputs, in the order of the command line and the reports. */
enum { PP_MRZ, PP_PORTRAIT, PP_FINGER1, PP_FINGER2, PP_SIGNATURE, PP_NINPUTS };
extern const char *const pp_input_names[PP_NINPUTS];
/* The synthetic inputs' sizes, and their contents: the ICAO specimen MRZ
 * (two lines of 44 characters, each ending in a newline) and ChaCha20
 * streams (zero key, nonce = the input's index) for the binary ones. */
extern const size_t pp_input_bytes[PP_NINPUTS];
void pp_synthetic(int which, uint8_t *buf);
/* An input larger than this is refused. */
#define PP_INPUT_MAX ((size_t)16 << 20)

/* The chip's side of Active Authentication on a card, supplied by the
 * tool with --card. One sign() is one card session: the chip's key put on
 * the card (personalisation, not timed), then the card signs the m-byte
 * digest with randomness of its own. Returns 0 with the n-byte signature
 * and the machine cycles SIGN took (GET CYCLES), or -1 with the reason in
 * err. image() names the image of set p (NULL: none). */
typedef struct {
    void *ctx;
    int (*sign)(void *ctx, const tts_params *p, const uint8_t *sk, const uint8_t *digest,
                uint8_t *sig, uint64_t *cycles, char *err, size_t errlen);
    const char *(*image)(void *ctx, const tts_params *p);
    const char *cpu; /* the simulated core, e.g. "8032" */
    double mhz;      /* its clock */
    int clocks;      /* clocks per machine cycle (12 on a 12T core) */
} passport_card;

#define PP_MAX_SUITES 11

typedef struct {
    const char *suite[PP_MAX_SUITES]; /* names (passport_suite_known); none: all */
    size_t nsuites;
    size_t runs;
    const char *input[PP_NINPUTS];    /* the files read in the load step */
    int given[PP_NINPUTS];            /* 1: the user's file; 0: synthetic */
    int published;                    /* --published: the study's figures beside */
    int hash;                         /* the document hash: 0 SHA-1, 1 SHA-256
                                       * (the default), 2 SHA-512 */
    const passport_card *card;        /* --card, or NULL */
    int skip_dg_check;                /* tests only: PA ignores the DG hashes, so
                                       * the tamper check must catch it (exit 1) */
} passport_opts;

/* 1 if name is a suite of the experiment. */
int passport_suite_known(const char *name);
/* 1 if the suite can run in this build (the post-quantum peers need
 * PQClean). */
int passport_suite_available(const char *name);
/* The document hash of a --hash value (sha1, sha256, sha512), or -1. */
int passport_hash_id(const char *name);
/* The suites' names, comma-separated. */
const char *passport_suite_list(void);
/* 1 if the suite is TTS (its Active Authentication can run on a card);
 * *p its set. */
int passport_suite_tts(const char *name, const tts_params **p);
/* Reads every input once and checks it (size, the MRZ's format): 0, or -1
 * with a one-line reason in err. */
int passport_check_inputs(const passport_opts *po, char *err, size_t errlen);
/* The experiment: the text report to out, the JSON and CSV reports and the
 * chart as o asks. 0 ok, 1 a failed step, check or report. */
int cmd_passport(const passport_opts *po, FILE *out, outputs *o, const char *autob);

#endif
