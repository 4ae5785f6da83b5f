/* SPDX-License-Identifier: MIT */
/*
 * COMMIT KEY's check points (8051/protocol.h; docs/CARD.md, "A faulty
 * key"): what binds the key a card installs to the public key its user
 * holds; and the inputs of an install, read under the tools' file rules
 * (the key, the public key meant, the PIN, seeds and digests).
 */
#ifndef TTS_CARDBIND_H
#define TTS_CARDBIND_H

#include <stddef.h>
#include <stdint.h>

#include "cardsim.h"
#include "tts.h"

/* The bytes of COMMIT KEY's data for the set p: CARD_CHECK_BYTES(m, n). */
size_t card_check_bytes(const tts_params *p);
/* The number of check points, CARD_CHECK_POINTS(m, n). */
size_t card_check_points(const tts_params *p);

/* COMMIT KEY's data into out (card_check_bytes(p) bytes) for the secret
 * key sk meant to have the public key pk: per point the n bytes of xs
 * given (random: card_check_points(p) * n bytes), w = S3 x + s3 from sk
 * and y = P(w) from pk (tts_pk_eval). TTS_OK or the library's error. */
int card_check_data(const tts_params *p, uint8_t *out, const uint8_t *sk, const uint8_t *pk,
                    const uint8_t *xs);

/* Whether the np points' x values at xs (n bytes each) are degenerate: one
 * x = 0, or two equal (the card answers 6A80). */
int card_points_degenerate(const uint8_t *xs, size_t np, size_t n);

/* Append COMMIT KEY for the secret key sk (its own public key, x fresh
 * from the system's randomness): the command's index, or (size_t)-1 if
 * the library refuses sk. */
size_t card_add_commit(card_batch *b, const tts_params *p, const uint8_t *sk);
/* The same with the points made from the public key pk the key is meant
 * to have (y = P(w) under pk; a key of another public key fails them). */
size_t card_add_commit_pk(card_batch *b, const tts_params *p, const uint8_t *sk,
                          const uint8_t *pk);

/* ---- the inputs of a session (tts-card): each returns 0, or 2 with the
 * reason said on standard error ("tts-card: ..."). */

/* The whole of path (at most cap bytes; TTSFILE_PRIVATE: refuse files
 * group or others may access) into *buf (heap, *len bytes): free it with
 * tts_file_free. */
int card_read_file(const char *path, size_t cap, unsigned flags, uint8_t **buf, size_t *len);
/* Exactly want bytes from path: raw bytes of that length, or hex text
 * (what: "a seed", ... for the message). */
int card_read_exact(const char *path, uint8_t *out, size_t want, const char *what,
                    unsigned flags);
/* A key of kind TTS_FILE_SECRET_KEY or TTS_FILE_PUBLIC_KEY for set p: a
 * tts file (binary or armored; *bound = 1: a secret key's file binds it
 * to its public key), or the raw key bytes, or their hex (*bound = 0).
 * Secret keys: private files only. */
int card_read_key(const char *path, const tts_params *p, int kind, uint8_t *out, int *bound);
/* The PIN (4..16 bytes): a private file's bytes (a final newline
 * dropped), or with "-" a line typed on the terminal without echo (a
 * signal there restores the terminal before the tool dies of it), or
 * read from a pipe. */
int card_read_pin(const char *path, uint8_t pin[16], size_t *len);
/* A PIN to be set on the card: one a terminal can type (no NUL byte). */
int card_new_pin_ok(const uint8_t *pin, size_t len);

/* A public key or signature (kind TTS_FILE_*) of set p to path under the
 * tools' file rules (tools/fileio.h): a tts file (docs/SPEC.md section 11;
 * flags TTS_FILE_ARMOR, TTSFILE_FORCE), or with raw the bare bytes. */
int card_write_object(const char *path, int kind, const tts_params *p, const uint8_t *obj,
                      int raw, unsigned flags);

/* put-key's key: keyfile read into key (skb bytes), accepted by the
 * library's key check, and its public key (into own) the one meant:
 * pkfile's, or without one the public key its tts file is bound to (a raw
 * or hex key needs pkfile). 0, or 2 said: nothing may reach the card. */
int card_install_key(const char *keyfile, const char *pkfile, const tts_params *p,
                     uint8_t *key, uint8_t *own);

/* The host's check of a SIGN's answer r (the card's signature of digest
 * under counter ctr): *ok, it verifies under hpk; *same, it equals the
 * host's own signature with hsk and the card's stream (*calls: the
 * stream's attempts). */
void card_check_sig(const tts_params *p, const uint8_t *hsk, const uint8_t *hpk, uint32_t ctr,
                    const uint8_t *digest, const card_resp *r, int *ok, int *same,
                    unsigned *calls);

/* 1 if the library accepts sk (the key the host knows the card holds),
 * with its public key in pk; 0: no key to check the card's answers
 * against (its signatures are withheld). */
int card_host_pk(const tts_params *p, const uint8_t *sk, uint8_t *pk);

/* For a raw SIGN (apdu) answered with a signature: whether it verifies
 * under hpk (NULL: the host knows no key), as a phrase; else NULL. */
const char *card_apdu_sign_verdict(const tts_params *p, const card_apdu *a, const card_resp *r,
                                   const uint8_t *hpk);

/* sign's digest: of --digest HEX (always hex), --digest-file FILE (raw or
 * hex) or the message file (the empty message if none); given: how many
 * of them the command line named (more than one is refused). 0, or 2. */
int card_digest_of(const tts_params *p, const char *hex, const char *file, const char *msgfile,
                   int given, uint8_t *digest);

#endif
