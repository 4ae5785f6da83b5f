/* SPDX-License-Identifier: MIT */
/*
 * What a SUPERCOP package of libtts takes in place of libsodium, whose
 * library SUPERCOP does not link (its link line is -lm and -lcrypto): the
 * SHA-512 of FIPS 180-4, IETF ChaCha20 (RFC 8439) and a wipe the compiler
 * keeps, all in supercop/tts_prims.c, portable C. make supercop rewrites
 * the library sources' `#include <sodium.h>` into this header; the names
 * below are the libsodium calls those sources make, mapped onto these
 * functions, and randombytes_buf onto SUPERCOP's randombytes.
 */
#ifndef TTS_PRIMS_H
#define TTS_PRIMS_H

#include <stddef.h>
#include <stdint.h>

/* out = SHA-512(in[0..len)). */
void tts_prims_sha512(uint8_t out[64], const uint8_t *in, unsigned long long len);

/* c = m XOR the ChaCha20 keystream of key k and nonce n from block ic on
 * (the 32-bit block counter wraps, as in RFC 8439); c may equal m. */
void tts_prims_chacha20_ietf_xor_ic(uint8_t *c, const uint8_t *m, unsigned long long len,
                                    const uint8_t n[12], uint32_t ic, const uint8_t k[32]);

/* p[0..len) = 0, through a volatile function pointer the compiler cannot
 * see through, so that a store to memory about to die is not dropped. */
void tts_prims_wipe(void *p, size_t len);

/* SUPERCOP's generator (its randombytes.h declares the same). */
extern void randombytes(unsigned char *, unsigned long long);

#define crypto_hash_sha512_BYTES 64
#define crypto_stream_chacha20_ietf_NONCEBYTES 12
#define crypto_hash_sha512(out, in, len) tts_prims_sha512((out), (in), (len))
#define crypto_stream_chacha20_ietf_xor_ic tts_prims_chacha20_ietf_xor_ic
#define sodium_memzero tts_prims_wipe
#define sodium_init() 0
#define randombytes_buf(out, len) randombytes((unsigned char *)(out), (unsigned long long)(len))

#endif
