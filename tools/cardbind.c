/* SPDX-License-Identifier: MIT */
/* COMMIT KEY's check points: tools/cardbind.h. */
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
