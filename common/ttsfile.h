/* SPDX-License-Identifier: MIT */
/*
 * Key and signature files on disk, for the tools: libtts's codec
 * (include/tts_file.h, docs/SPEC.md section 11) under the file rules of
 * fileio.h.
 *
 * Functions returning int give TTSFILE_OK or a negative code and, on error,
 * leave an English reason in err (if err is not NULL), starting with the
 * path. Payloads and raw buffers are heap copies the caller releases with
 * tts_file_free, which wipes them first.
 */
#ifndef TTSFILE_H
#define TTSFILE_H

#include <stddef.h>
#include <stdint.h>

#include "tts.h"
#include "tts_file.h"

#define TTSFILE_MAX_BYTES ((size_t)1 << 20) /* cap on any file read */

#define TTSFILE_OK      0
#define TTSFILE_ERROR  (-1) /* see err */
#define TTSFILE_EXISTS (-2) /* output exists and TTSFILE_FORCE not given */

/* Flags: TTS_FILE_ARMOR (include/tts_file.h) for writes, and */
#define TTSFILE_FORCE   0x100u /* write: replace an existing file */
#define TTSFILE_PRIVATE 0x200u /* read_raw: refuse files others may access */

/* At most cap bytes of path ("-": standard input), refusing anything but
 * regular files (fileio.h), larger inputs and, with TTSFILE_PRIVATE, files
 * whose mode grants any access to group or others. */
int ttsfile_read_raw(const char *path, size_t cap, unsigned flags,
                     uint8_t **buf, size_t *len, char *err, size_t errlen);

/* ttsfile_read_raw (cap TTSFILE_MAX_BYTES, TTSFILE_PRIVATE for secret
 * keys) then tts_file_decode; reasons start with the path. */
int ttsfile_read(const char *path, int expected,
                 const tts_params **p, uint8_t **payload, size_t *len,
                 char *err, size_t errlen);

/* ttsfile_read of a secret key that also takes format 1 (no public-key
 * binding, refused everywhere else): for tts upgrade-key only, which binds
 * it to the public key the user supplies. */
int ttsfile_read_unbound(const char *path, const tts_params **p,
                         uint8_t **sk, size_t *len, char *err, size_t errlen);

/* Write the file image to path ("-": standard output) under the rules of
 * fileio.h (atomic, no symbolic link followed, nothing deleted that the
 * tool did not create). Existing files are kept (TTSFILE_EXISTS) unless
 * flags has TTSFILE_FORCE. Secret keys get mode 0600. */
int ttsfile_write(const char *path, int kind, const tts_params *p,
                  const uint8_t *payload, unsigned flags,
                  char *err, size_t errlen);

/* A key pair: both files appear, or neither (and files they replace with
 * TTSFILE_FORCE survive any failure). */
int ttsfile_write_pair(const char *pubpath, const char *secpath,
                       const tts_params *p, const uint8_t *pk,
                       const uint8_t *sk, unsigned flags, char *err,
                       size_t errlen);

#endif /* TTSFILE_H */
