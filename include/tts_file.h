/* SPDX-License-Identifier: MIT */
/*
 * libtts: the key and signature file codec (docs/SPEC.md section 11).
 *
 * A file holds one object: a public key, a secret key or a signature of one
 * parameter set, in binary form or armored (base64 between BEGIN and END
 * lines). The codec works in memory; reading and writing files is the
 * caller's (the tts tools add the file rules of their man pages).
 *
 * Binary form: an 8-byte header, then the object's byte string.
 *   byte 0-2  "TTS"
 *   byte 3    kind: 'P' public key, 'S' secret key, 'G' signature
 *   byte 4    format version: 1; secret keys 2 (1 is read on request)
 *   byte 5    m
 *   byte 6    n
 *   byte 7    0
 *   byte 8-   the object (tts_pk_bytes / tts_sk_bytes / tts_sig_bytes)
 * A version-2 secret key carries the SHA-256 of its public key in bytes
 * 8-39 and the key from byte 40; decoding checks the key (tts_sk_check) and
 * that its public key has that hash, so a key corrupted anywhere is refused.
 *
 * Outputs are heap buffers the caller releases with tts_file_free, which
 * wipes them. Error reasons (err, errlen > 0) are English sentences that
 * never quote payload bytes.
 */
#ifndef TTS_FILE_H
#define TTS_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "tts.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TTS_FILE_HEADER_BYTES  8
#define TTS_FILE_BINDING_BYTES 32 /* SHA-256 of the public key */
#define TTS_FILE_VERSION       1
#define TTS_FILE_VERSION_BOUND 2  /* secret keys bound to their public key */

/* The kind byte of the header. */
#define TTS_FILE_PUBLIC_KEY 'P'
#define TTS_FILE_SECRET_KEY 'S'
#define TTS_FILE_SIGNATURE  'G'

#define TTS_FILE_ARMOR   1u /* encode: armored text instead of binary */
#define TTS_FILE_UNBOUND 2u /* decode: also take a version-1 secret key */

/* "public key", "secret key", "signature"; "unknown object" otherwise. */
TTS_API const char *tts_file_kind_name(int kind);

/* Object size of kind in set p; 0 for an unknown kind or a NULL p. */
TTS_API size_t tts_file_payload_bytes(const tts_params *p, int kind);

/* The file image of payload (tts_file_payload_bytes(p, kind) bytes):
 * binary, or armored with TTS_FILE_ARMOR. Secret keys are written in
 * version 2 (the binding is computed). TTS_EINVAL for bad arguments,
 * TTS_ENOMEM. */
TTS_API int tts_file_encode(int kind, const tts_params *p,
                            const uint8_t *payload, unsigned flags,
                            uint8_t **out, size_t *outlen);

/* Parse a file image of either form that must hold an object of kind
 * expected. On success *p is its set and *payload a copy of the object
 * (*len bytes). TTS_EFORMAT with the reason in err for anything else
 * (wrong kind, unknown set, bad length or version, malformed armor, a
 * secret key that fails its checks), TTS_EINVAL, TTS_ENOMEM. */
TTS_API int tts_file_decode(const uint8_t *in, size_t inlen, int expected,
                            unsigned flags, const tts_params **p,
                            uint8_t **payload, size_t *len, char *err,
                            size_t errlen);

/* Wipe and free a buffer from this codec; NULL is allowed. */
TTS_API void tts_file_free(uint8_t *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* TTS_FILE_H */
