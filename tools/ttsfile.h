/*
 * Key and signature files of the tts tool (format: tools/tts.1, FILES).
 *
 * Binary form: an 8-byte header then the raw byte string of docs/SPEC.md.
 *   byte 0-2  "TTS"
 *   byte 3    kind: 'P' public key, 'S' secret key, 'G' signature
 *   byte 4    format version, 1
 *   byte 5    m
 *   byte 6    n
 *   byte 7    reserved, 0
 *   byte 8-   payload: exactly tts_pk_bytes / tts_sk_bytes / tts_sig_bytes
 * Secret keys are written in format version 2: bytes 8-39 are the SHA-256
 * of the key's public key (the binding), the payload follows from byte 40.
 * Reading a secret key checks it (tts_sk_check) and, in version 2, that
 * tts_pk_from_sk gives the bound public key: a key corrupted anywhere is
 * refused. Version 1 secret keys (no binding) are still read.
 * Armored form: the binary form in base64 between BEGIN/END lines, with a
 * Params line; recognised on read by a leading "-----BEGIN ".
 *
 * Functions returning int give TTSFILE_OK or a negative code and, on error,
 * leave an English reason in err (if err is not NULL). Reasons never quote
 * payload bytes. Payloads and raw buffers are heap copies the caller
 * releases with ttsfile_free, which wipes them first.
 */
#ifndef TTSFILE_H
#define TTSFILE_H

#include <stddef.h>
#include <stdint.h>

#include "tts.h"

#define TTSFILE_HEADER_BYTES 8
#define TTSFILE_VERSION      1
#define TTSFILE_VERSION_BOUND 2  /* secret keys with the public-key hash */
#define TTSFILE_BINDING_BYTES 32
#define TTSFILE_MAX_BYTES    ((size_t)1 << 20) /* cap on any file read */

typedef enum {
    TTSFILE_PUBLIC_KEY = 'P',
    TTSFILE_SECRET_KEY = 'S',
    TTSFILE_SIGNATURE  = 'G'
} ttsfile_kind;

#define TTSFILE_OK      0
#define TTSFILE_ERROR  (-1) /* see err */
#define TTSFILE_EXISTS (-2) /* output exists and TTSFILE_FORCE not given */

#define TTSFILE_ARMOR   1u /* encode/write: armored text, not binary */
#define TTSFILE_FORCE   2u /* write: replace an existing file */
#define TTSFILE_PRIVATE 4u /* read_raw: refuse files others may access */

/* "public key", "secret key", "signature". */
const char *ttsfile_kind_name(ttsfile_kind kind);

/* Payload size of kind for set p; 0 for an unknown kind or NULL p. */
size_t ttsfile_payload_bytes(const tts_params *p, ttsfile_kind kind);

/* The file image (binary, or armored with TTSFILE_ARMOR) of payload, which
 * holds ttsfile_payload_bytes(p, kind) bytes. Fails only for bad arguments
 * or lack of memory. */
int ttsfile_encode(ttsfile_kind kind, const tts_params *p,
                   const uint8_t *payload, unsigned flags,
                   uint8_t **out, size_t *outlen);

/* Parse a file image (either form) that must hold an object of kind
 * expected; on success *p names its set and *payload (*len bytes) is a
 * copy of the payload. */
int ttsfile_decode(const uint8_t *in, size_t inlen, ttsfile_kind expected,
                   const tts_params **p, uint8_t **payload, size_t *len,
                   char *err, size_t errlen);

/* At most cap bytes of path ("-": standard input), refusing anything but
 * regular files (fileio.h), larger inputs and, with TTSFILE_PRIVATE, files
 * whose mode grants any access to group or others. */
int ttsfile_read_raw(const char *path, size_t cap, unsigned flags,
                     uint8_t **buf, size_t *len, char *err, size_t errlen);

/* ttsfile_read_raw (cap TTSFILE_MAX_BYTES, TTSFILE_PRIVATE for secret
 * keys) then ttsfile_decode; reasons start with the path. */
int ttsfile_read(const char *path, ttsfile_kind expected,
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
int ttsfile_write(const char *path, ttsfile_kind kind, const tts_params *p,
                  const uint8_t *payload, unsigned flags,
                  char *err, size_t errlen);

/* A key pair: both files appear, or neither (and files they replace with
 * TTSFILE_FORCE survive any failure). */
int ttsfile_write_pair(const char *pubpath, const char *secpath,
                       const tts_params *p, const uint8_t *pk,
                       const uint8_t *sk, unsigned flags, char *err,
                       size_t errlen);

/* Wipe and free a buffer from this module; NULL is allowed. */
void ttsfile_free(uint8_t *buf, size_t len);

#endif /* TTSFILE_H */
