/* SPDX-License-Identifier: MIT */
/*
 * libtts: Tame Transformation Signatures (TTS) over GF(256).
 *
 * The eight TTS Challenge dimensions TTS(16,22) ... TTS(36,50), selected at
 * run time through an opaque parameter handle. The byte layouts of keys and
 * signatures are those of docs/SPEC.md. No function aborts, prints or exits;
 * every function that can fail returns one of the TTS_E* codes below.
 *
 * Buffers have the sizes the tts_*_bytes() functions give; as in NIST's API
 * the callee cannot check them. Pointers may be unaligned and need not be
 * distinct unless stated.
 *
 * TTS_BROKEN_NOTE below: every published TTS set is broken (docs/SECURITY.md);
 * these parameters must not protect anything.
 */
#ifndef TTS_H
#define TTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The one version source: configure.ac reads it from this line. */
#define TTS_VERSION_STRING "0.2.0"

/* The one sentence every tool, report and document of libtts says about
 * the schemes it implements and measures. */
#define TTS_BROKEN_NOTE                                                        \
    "TTS and SFLASH are broken: tts-challenge break recovers an equivalent "  \
    "TTS key from the public key alone by linear algebra in seconds to "      \
    "minutes (TTS(36,50): minutes on two cores), and forges SFLASH "          \
    "signatures from the public key alone in under a second (the "            \
    "Dubois-Fouque-Shamir-Stern attack, CRYPTO 2007); neither may protect "   \
    "anything."

/* Exported from the shared library (built with hidden visibility, so that
 * only what this header declares is visible); results that must not be
 * ignored. */
#if defined(__GNUC__) || defined(__clang__)
#define TTS_API __attribute__((visibility("default")))
#define TTS_WUR __attribute__((warn_unused_result))
#else
#define TTS_API
#define TTS_WUR
#endif

/* Return codes. */
#define TTS_OK        0
#define TTS_EINVAL   (-1) /* NULL pointer, foreign handle, bad length */
#define TTS_EBADSIG  (-2) /* verification failed */
#define TTS_EKEY     (-3) /* malformed key */
#define TTS_ERETRY   (-4) /* no signature after TTS_MAX_ATTEMPTS attempts */
#define TTS_EBACKEND (-5) /* backend unknown or unavailable on this CPU */
#define TTS_ERNG     (-6) /* the randomness source failed */
#define TTS_ENOMEM   (-7) /* out of memory (key workspace, file codec) */
#define TTS_EFORMAT  (-8) /* malformed key or signature file (tts_file.h) */

#define TTS_SEED_BYTES    32   /* key-generation seed */
#define TTS_MAX_ATTEMPTS  1000 /* signing attempts before TTS_ERETRY */

/* Largest sizes over all sets, for stack buffers in callers. */
#define TTS_MAX_M         36
#define TTS_MAX_N         50
#define TTS_MAX_PK_BYTES  47700
#define TTS_MAX_SK_BYTES  4414
#define TTS_MAX_SIG_BYTES 50

/* Opaque; lives in a static table. A handle is only ever one that
 * tts_params_at or tts_params_get returned: every function checks it
 * against the table, and any other pointer (a copy, a zeroed block) is
 * refused like NULL (TTS_EINVAL, -1 in the NIST API, 0 or NULL from the
 * size and name functions), so verification never passes by misuse. */
typedef struct tts_params tts_params;

/* The parameter table: tts_params_at(i) for i < tts_params_count(), in the
 * order of docs/SPEC.md section 2; NULL past the end. */
TTS_API size_t tts_params_count(void);
TTS_API const tts_params *tts_params_at(size_t i);
/* Accepts "TTS(20,28)", "tts-20-28", "20,28" (case-insensitive, spaces
 * ignored); NULL if no set has that name. */
TTS_API const tts_params *tts_params_get(const char *name);
TTS_API const char *tts_params_name(const tts_params *p); /* "TTS(20,28)" */
TTS_API const char *tts_params_id(const tts_params *p);   /* "tts-20-28": files */

TTS_API size_t tts_pk_bytes(const tts_params *p);
TTS_API size_t tts_sk_bytes(const tts_params *p);
TTS_API size_t tts_sig_bytes(const tts_params *p);
TTS_API size_t tts_digest_bytes(const tts_params *p); /* m */

/* Shape of the central map: m, n, v, a, b and C (central coefficients).
 * Returns 0 for a NULL or foreign p. */
TTS_API unsigned tts_params_m(const tts_params *p);
TTS_API unsigned tts_params_n(const tts_params *p);
TTS_API unsigned tts_params_v(const tts_params *p);
TTS_API unsigned tts_params_a(const tts_params *p);
TTS_API unsigned tts_params_b(const tts_params *p);
TTS_API unsigned tts_params_coeffs(const tts_params *p);

/* Randomness callback: fill out[0..len-1]; return 0 on success. */
typedef int (*tts_rng_fn)(void *ctx, uint8_t *out, size_t len);

/* Key generation. tts_keypair draws the 32-byte seed from rng (NULL: the
 * system generator) with a single call, then proceeds as
 * tts_keypair_from_seed, which is deterministic.
 *
 * Workspace: key generation and tts_pk_from_sk work in one block of
 * tts_keypair_workspace_bytes(p) bytes, about (2n + 1) n m + 8 KB (35 KB
 * for TTS(20,28), 191 KB for TTS(36,50); `tts params` lists all eight),
 * and under 16 KB of stack (10 KB measured; tests/test_backends checks it).
 * The _ws forms take the block from the caller (a ws_len below the figure
 * gives TTS_EINVAL); the others allocate it with malloc and give
 * TTS_ENOMEM if that fails. Either way it is wiped before return (it held
 * A1 = S1^-1 and A3 = S3^-1). There is one algorithm: the bytes do not
 * depend on where the workspace lives. Signing and verification allocate
 * nothing. */
TTS_API size_t tts_keypair_workspace_bytes(const tts_params *p); /* 0 for NULL */
TTS_API int tts_keypair(const tts_params *p, uint8_t *pk, uint8_t *sk);
TTS_API int tts_keypair_rng(const tts_params *p, uint8_t *pk, uint8_t *sk,
                    tts_rng_fn rng, void *ctx);
TTS_API int tts_keypair_from_seed(const tts_params *p, uint8_t *pk, uint8_t *sk,
                          const uint8_t seed[TTS_SEED_BYTES]);
TTS_API int tts_keypair_from_seed_ws(const tts_params *p, uint8_t *pk, uint8_t *sk,
                             const uint8_t seed[TTS_SEED_BYTES], void *ws,
                             size_t ws_len);

/* Signing: digest = first m bytes of SHA-512(msg). Each attempt draws v
 * bytes with exactly one rng call (NULL: a ChaCha20 stream keyed by one
 * 32-byte call of the system generator per signature). The secret
 * key is trusted (run tts_sk_check on keys from untrusted storage). */
TTS_API int tts_sign(const tts_params *p, uint8_t *sig,
             const uint8_t *msg, size_t msglen, const uint8_t *sk);
TTS_API int tts_sign_rng(const tts_params *p, uint8_t *sig,
                 const uint8_t *msg, size_t msglen, const uint8_t *sk,
                 tts_rng_fn rng, void *ctx);
TTS_API int tts_sign_digest(const tts_params *p, uint8_t *sig, const uint8_t *digest,
                    const uint8_t *sk, tts_rng_fn rng, void *ctx);

/* Verification: TTS_OK if P(sig) equals the digest, else TTS_EBADSIG. */
TTS_API TTS_WUR int tts_verify(const tts_params *p, const uint8_t *sig,
               const uint8_t *msg, size_t msglen, const uint8_t *pk);
TTS_API TTS_WUR int tts_verify_digest(const tts_params *p, const uint8_t *sig,
                      const uint8_t *digest, const uint8_t *pk);

/* Evaluate the public map at w (n bytes) into out (m bytes). */
TTS_API int tts_pk_eval(const tts_params *p, uint8_t *out, const uint8_t *w,
                const uint8_t *pk);

/* Message digest as signing uses it: first m bytes of SHA-512(msg). */
TTS_API int tts_digest(const tts_params *p, uint8_t *digest,
               const uint8_t *msg, size_t msglen);

/* TTS_OK if sk is well formed: S1 and S3 invertible and s1 = F(S3^-1 s3).
 * Otherwise TTS_EKEY. */
TTS_API TTS_WUR int tts_sk_check(const tts_params *p, const uint8_t *sk);

/* Recompute the public key of a (checked) secret key; TTS_EKEY if S1 or S3
 * is singular or s1 != F(S3^-1 s3). Workspace as key generation's. */
TTS_API int tts_pk_from_sk(const tts_params *p, uint8_t *pk, const uint8_t *sk);
TTS_API int tts_pk_from_sk_ws(const tts_params *p, uint8_t *pk, const uint8_t *sk,
                      void *ws, size_t ws_len);

/* Backends: "ref" always; others when built and supported by the CPU.
 * The environment variable TTS_BACKEND overrides the first automatic pick.
 * tts_set_backend gives TTS_EBACKEND for a name not built or not run by
 * this CPU. */
TTS_API const char *tts_backend(void);
TTS_API int tts_set_backend(const char *name);

/* The backends compiled in, best first (the last is "ref"): index i of
 * tts_backend_count(), NULL beyond. Loop over them and skip, visibly,
 * those tts_set_backend refuses on this CPU. */
TTS_API size_t tts_backend_count(void);
TTS_API const char *tts_backend_at(size_t i);

/* The ChaCha20 stream of docs/SPEC.md section 4 (IETF ChaCha20, 32-byte
 * key, zero nonce, block counter from 0, bytes consumed in order across
 * calls): key generation's stream of its seed, and the card's randomness.
 * tts_stream_rng is a tts_rng_fn whose ctx is a tts_stream; calls counts
 * its calls (one per signing attempt). Wipe a keyed stream after use. */
typedef struct {
    uint8_t key[32], block[64];
    uint32_t counter;
    unsigned pos, calls;
} tts_stream;
TTS_API void tts_stream_init(tts_stream *s, const uint8_t key[32]);
TTS_API int tts_stream_rng(void *ctx, uint8_t *out, size_t len);
TTS_API void tts_stream_wipe(tts_stream *s);

/* The key of the card's signing stream (docs/SPEC.md, card section): the
 * 8051 card keys the stream above with a value it derives itself from its
 * secret key sk (through a 32-byte stream secret), the signature counter
 * (the number of SIGN commands the card started before this one) and the
 * m-byte digest; with it the host predicts the card's signature:
 * tts_stream_init(&s, key), then tts_sign_digest(p, sig, digest, sk,
 * tts_stream_rng, &s). key is a secret: wipe it after use. TTS_OK, or
 * TTS_EINVAL for a NULL argument. */
TTS_API int tts_card_stream_key(const tts_params *p, uint8_t key[32], const uint8_t *sk,
                                uint32_t counter, const uint8_t *digest);

/* The library's version, TTS_VERSION_STRING of the build (a program can
 * compare it with the header it was compiled against). */
TTS_API const char *tts_version(void);

/* TTS_BROKEN_NOTE as the library was built with it: the one sentence every
 * tool, report and binding prints about the schemes (bindings take it
 * from here rather than copying it). */
TTS_API const char *tts_broken_note(void);

/* A static English description of a TTS_E* code. */
TTS_API const char *tts_strerror(int code);

/*
 * NIST API (SUPERCOP / PQC style), one namespaced instance per set, e.g.
 * tts_20_28_crypto_sign_keypair. sm = msg || sig. crypto_sign_open returns
 * -1 on failure. The _rng variants of the generic form take the randomness
 * source explicitly (the KAT generator passes NIST's DRBG).
 */
TTS_API int tts_crypto_sign_keypair(const tts_params *p, unsigned char *pk,
                            unsigned char *sk, tts_rng_fn rng, void *ctx);
TTS_API int tts_crypto_sign(const tts_params *p, unsigned char *sm,
                    unsigned long long *smlen, const unsigned char *m,
                    unsigned long long mlen, const unsigned char *sk,
                    tts_rng_fn rng, void *ctx);
TTS_API TTS_WUR int tts_crypto_sign_open(const tts_params *p, unsigned char *m,
                         unsigned long long *mlen, const unsigned char *sm,
                         unsigned long long smlen, const unsigned char *pk);

#define TTS_NIST_DECLARE(M, N, V, A, B)                                       \
    enum {                                                                    \
        TTS_##M##_##N##_CRYPTO_SECRETKEYBYTES =                               \
            M * (M + 1) + N * (N + 1) + (A + 2) * (V - 1) + B * (B + 1),      \
        TTS_##M##_##N##_CRYPTO_PUBLICKEYBYTES = M * N * (N + 3) / 2,          \
        TTS_##M##_##N##_CRYPTO_BYTES = N                                      \
    };                                                                        \
    TTS_API int tts_##M##_##N##_crypto_sign_keypair(unsigned char *pk,                \
                                            unsigned char *sk);               \
    TTS_API int tts_##M##_##N##_crypto_sign(unsigned char *sm,                        \
                                    unsigned long long *smlen,                \
                                    const unsigned char *m,                   \
                                    unsigned long long mlen,                  \
                                    const unsigned char *sk);                 \
    TTS_API TTS_WUR int tts_##M##_##N##_crypto_sign_open(unsigned char *m,                    \
                                         unsigned long long *mlen,            \
                                         const unsigned char *sm,             \
                                         unsigned long long smlen,            \
                                         const unsigned char *pk);

#define TTS_SET(M, N, V, A, B, BITS, PRIZE) TTS_NIST_DECLARE(M, N, V, A, B)
#include "tts_sets.def"

#ifdef __cplusplus
}
#endif

#endif /* TTS_H */
