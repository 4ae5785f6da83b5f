/* SPDX-License-Identifier: MIT */
/*
 * COMMIT KEY's check points (8051/protocol.h; docs/CARD.md, "A faulty
 * key"): what binds the key a card installs to the public key its user
 * holds.
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

#endif
