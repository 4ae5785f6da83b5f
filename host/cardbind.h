/* SPDX-License-Identifier: MIT */
/*
 * COMMIT KEY's check points (8051/protocol.h; docs/CARD.md, "A faulty
 * key"): what binds the key a card installs to the public key its user
 * holds, and the host's checks of a card's signatures. The inputs of an
 * install as the command line reads them: tools/card_cli.h.
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

#endif
