/* SPDX-License-Identifier: MIT */
/* COMMIT KEY's check points and the host's checks of a card's answers:
 * host/cardbind.h. */
#define _POSIX_C_SOURCE 200809L
#include "cardbind.h"

#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "gf256.h"
#include "protocol.h"

size_t card_check_points(const tts_params *p)
{
    return CARD_CHECK_POINTS(tts_params_m(p), tts_params_n(p));
}

size_t card_check_bytes(const tts_params *p)
{
    return CARD_CHECK_BYTES(tts_params_m(p), tts_params_n(p));
}

int card_check_data(const tts_params *p, uint8_t *out, const uint8_t *sk, const uint8_t *pk,
                    const uint8_t *xs)
{
    size_t m = tts_params_m(p), n = tts_params_n(p);
    /* docs/SPEC.md section 5.2: S3 row-major at m(m+1), s3 after it */
    const uint8_t *S3 = sk + m * (m + 1), *s3 = S3 + n * n;
    for (size_t k = 0; k < card_check_points(p); k++, out += 2 * n + m, xs += n) {
        uint8_t *x = out, *w = out + n, *y = out + 2 * n;
        for (size_t r = 0; r < n; r++)
            x[r] = xs[r];
        for (size_t r = 0; r < n; r++) {
            uint8_t acc = s3[r];
            for (size_t c = 0; c < n; c++)
                acc ^= gf256_mul(S3[r * n + c], x[c]);
            w[r] = acc;
        }
        int rc = tts_pk_eval(p, y, w, pk);
        if (rc != TTS_OK)
            return rc;
    }
    return TTS_OK;
}

int card_points_degenerate(const uint8_t *xs, size_t np, size_t n)
{
    int bad = 0;
    for (size_t k = 0; k < np; k++) {
        uint8_t or = 0;
        for (size_t r = 0; r < n; r++)
            or |= xs[k * n + r];
        bad |= or == 0;
    }
    if (np == 2)
        bad |= memcmp(xs, xs + n, n) == 0;
    return bad;
}

size_t card_add_commit_pk(card_batch *b, const tts_params *p, const uint8_t *sk,
                          const uint8_t *pk)
{
    size_t n = tts_params_n(p), idx = (size_t)-1;
    uint8_t xs[2 * TTS_MAX_N], data[255];
    size_t np = card_check_points(p);
    /* x = 0 or two equal points tell nothing of S3 (the card refuses
     * them): drawn again (with probability 2^-8n, for completeness) */
    do
        randombytes_buf(xs, np * n);
    while (card_points_degenerate(xs, np, n));
    if (card_check_data(p, data, sk, pk, xs) == TTS_OK)
        idx = card_add(b, CARD_COMMIT_KEY, 0, 0, data, (uint8_t)card_check_bytes(p));
    sodium_memzero(xs, sizeof xs);
    sodium_memzero(data, sizeof data);
    return idx;
}

size_t card_add_commit(card_batch *b, const tts_params *p, const uint8_t *sk)
{
    size_t idx = (size_t)-1;
    uint8_t *pk = malloc(tts_pk_bytes(p));
    if (pk && tts_pk_from_sk(p, pk, sk) == TTS_OK)
        idx = card_add_commit_pk(b, p, sk, pk);
    free(pk);
    return idx;
}

void card_check_sig(const tts_params *p, const uint8_t *hsk, const uint8_t *hpk, uint32_t ctr,
                    const uint8_t *digest, const card_resp *r, int *ok, int *same,
                    unsigned *calls)
{
    size_t n = tts_params_n(p);
    uint8_t hsig[TTS_MAX_N], key[32];
    tts_stream rng;
    tts_card_stream_key(p, key, hsk, ctr, digest);
    tts_stream_init(&rng, key);
    sodium_memzero(key, sizeof key);
    int rc = tts_sign_digest(p, hsig, digest, hsk, tts_stream_rng, &rng);
    *same = rc == TTS_OK && r->len == n && memcmp(hsig, r->data, n) == 0;
    *calls = rng.calls; /* before the wipe */
    tts_stream_wipe(&rng);
    *ok = r->len == n && tts_verify_digest(p, r->data, digest, hpk) == TTS_OK;
}

int card_host_pk(const tts_params *p, const uint8_t *sk, uint8_t *pk)
{
    return tts_sk_check(p, sk) == TTS_OK && tts_pk_from_sk(p, pk, sk) == TTS_OK;
}

const char *card_apdu_sign_verdict(const tts_params *p, const card_apdu *a, const card_resp *r,
                                   const uint8_t *hpk)
{
    if (a->raw_len != 6 + (int)tts_params_m(p) || a->raw[0] != CARD_CLA ||
        a->raw[1] != CARD_SIGN || r->sw != CARD_SW_OK || r->len != tts_params_n(p))
        return NULL;
    if (!hpk)
        return "unverified (the host knows no valid key of this card)";
    return tts_verify_digest(p, r->data, a->raw + 5, hpk) == TTS_OK
               ? "verifies under the host's key of this card"
               : "DOES NOT VERIFY under the host's key of this card";
}
