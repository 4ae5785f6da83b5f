/* SPDX-License-Identifier: MIT */
/*
 * What the source files of tts-challenge share: tools/tts-challenge.c
 * (issue, verify), tools/challenge_estimate.c (estimate),
 * tools/challenge_lab.c (export, toy, calibrate), tools/challenge_break.c
 * and tools/challenge_sflash.c (break, forge).
 */
#ifndef TTS_CHALLENGE_CLI_H
#define TTS_CHALLENGE_CLI_H

#include <stdint.h>

#include "challenge.h"
#include "cli.h"

/* The set of the only instance folder in dir, or -1 (none, or several). */
int only_set_index(const char *dir);
/* Its TTS set, or NULL (none, several, or an SFLASH folder). */
const tts_params *only_set(const char *dir);

/* Exactly 32 bytes of path: the master seed. */
int read_master(const char *path, uint8_t master[CHAL_MASTER_BYTES]);

/* arg as a decimal in lo..hi for option name; ST_OK or ST_ERROR. */
int parse_unsigned(const char *arg, unsigned long lo, unsigned long hi,
                   const char *name, unsigned *out);

/* Gives the challenge library the tools' file rules (tools/challenge_io.c). */
void challenge_io_init(void);

/* The progress line of a long step (tools/challenge_break.c): a
 * chal_progress_fn for a terminal. */
void challenge_progress(void *ctx, const char *stage, double done);

/* tools/challenge_sflash.c: break --pk on an SFLASH(26,37) public key. */
typedef struct {
    const char *cmd; /* "break" or "forge", for messages */
    const char *pk;  /* the public key (break) or the forger's key (forge) */
    const char *digest, *msgfile, *out, *keyout, *seed, *json;
    int force, quiet;
} sflash_cli;
/* 1 if break --pk path (with --set, if given) names an SFLASH key: the set
 * SFLASH(26,37), or no set and a file of exactly the key's 16,858 bytes. */
int sflash_pk_file(const char *path, const char *set);
int sflash_break_pk(const sflash_cli *a, const uint8_t *pin);
/* The error of a --pk file that is no TTS public key file (tts_err, the
 * TTS reader's): a file within 64 bytes of an SFLASH key's size is named
 * as neither. ST_ERROR. */
int sflash_not_tts(const char *path, const char *tts_err);
/* break DIR on the SFLASH instance: the key from DIR's public key, the
 * forgeries of messages msgs into a->out (a folder, checked before). */
int sflash_break_dir(const sflash_cli *a, const char *dir, const unsigned *msgs,
                     unsigned nmsg, const uint8_t *pin);
/* OUTDIR/FOLDER-msg-I.sig, where break DIR writes message I's forgery. */
void challenge_sig_path(char *path, size_t len, const char *outdir, int set, unsigned msg);
/* Gives the challenge library bench/sflash's key generation and hash
 * (a build with OpenSSL), so that SFLASH instances can be issued. */
void challenge_sflash_init(void);
/* 1 if buf holds an SFLASH forger's key (its "TTSCSK01" header). */
int sflash_key_bytes(const uint8_t *buf, size_t len);
/* forge --key on such a key, read into buf (pin: the public key's SHA-256,
 * or NULL): the digest or message into a->out. */
int sflash_forge_key(const sflash_cli *a, const uint8_t *buf, size_t len, const uint8_t *pin);
/* buf (len bytes, heap) written to path with mode 0600 by the file rules,
 * then wiped and freed: ST_OK or ST_ERROR. */
int challenge_write_secret(const char *path, uint8_t *buf, size_t len, int force);
/* --key-out - is refused on a terminal: the key is a binary secret. */
int challenge_check_key_out(const char *cmd, const char *path);

/* --params LIST into the mask of chal_set indexes: a comma-separated list
 * of names (tts-16-22, TTS(16,22), 16,22, SFLASH(26,37), sflash-26-37) or
 * "all" (the eight TTS sets). ST_OK or ST_ERROR. */
int add_params(unsigned *mask, const char *arg);

/* tools/challenge_estimate.c */
int cmd_estimate(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_toy(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_break(int argc, char **argv);
int cmd_forge(int argc, char **argv);

#endif
