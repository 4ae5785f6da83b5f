/* SPDX-License-Identifier: MIT */
/*
 * tts's files beside its main file (tools/tts.c): keys and signatures
 * read and written under the file rules (common/fileio.h,
 * common/ttsfile.h), an output checked before any work, a message hashed
 * as a stream. Each returns ST_OK, or ST_ERROR with the reason said on
 * standard error (tools/cli.h).
 */
#ifndef TTS_TTS_CLI_H
#define TTS_TTS_CLI_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#include "tts.h"

/* A tts file of kind (TTS_FILE_*) into *buf (*len bytes; free it with
 * tts_file_free) and its set *p. */
int tts_cli_load(const char *path, int kind, const tts_params **p, uint8_t **buf, size_t *len);

/* The checks of an output made before any work (a refusal must not come
 * after hashing a large input): --force, not one of the ninputs inputs,
 * no binary on a terminal unless armor. */
int tts_cli_check_output(const char *path, int armor, int force, const char *const *inputs,
                         size_t ninputs);

/* A key or signature of kind to path (flags: TTS_FILE_ARMOR, TTSFILE_FORCE). */
int tts_cli_save(const char *path, int kind, const tts_params *p, const uint8_t *payload,
                 unsigned flags);

/* A secret key file, checked on reading (tts_sk_check and the public-key
 * binding), into *sk (*len bytes), and its public key into *pk (heap). */
int tts_cli_load_secret(const char *path, const tts_params **p, uint8_t **sk, size_t *len,
                        uint8_t **pk);

/* --max-bytes N into *max: 0 (no limit) when arg is NULL. */
int tts_cli_parse_max(const char *arg, unsigned long long *max);

/* SHA-512 of the whole of path ("-": standard input), at most max bytes
 * (0: no limit); its first m bytes are the digest of docs/SPEC.md,
 * section 7.1. */
int tts_cli_hash_input(const char *path, unsigned long long max,
                       uint8_t h[crypto_hash_sha512_BYTES]);

/* Whether both a and b are "-" (standard input given twice). */
int tts_cli_same_stdin(const char *a, const char *b);

#endif
