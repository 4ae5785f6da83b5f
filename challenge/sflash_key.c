/* SPDX-License-Identifier: MIT */
/*
 * The SFLASH forger's key file (docs/SFLASH.md, "The forger's key file"):
 * what chal_sflash_break recovers, enough to sign for the public map,
 * as secret as a secret key. Layout (elements one byte each, 0..127):
 *
 *   "TTSCSK01", m (1 byte), the public map (m x 741), the 37 quadratic
 *   forms (37 x 703), c (37), e (m), the relations (37 x 1369), then the
 *   SHA-256 of everything before it.
 */
#include <string.h>

#include <sodium.h>

#include "challenge.h"
#include "sflash_break.h"

#define N  CHAL_SFLASH_N
#define NN (N * N)
#define MAGIC "TTSCSK01"

size_t chal_sflash_key_bytes(unsigned m)
{
    return 8 + 1 + (size_t)m * CHAL_SFLASH_MONOMIALS + (size_t)N * CHAL_SFLASH_QUAD + N + m +
           (size_t)N * NN + 32;
}

/* The fields in file order: pointer into the key, length. */
static size_t fields(const chal_sflash_key *k, unsigned m, uint8_t *ptr[5], size_t len[5])
{
    chal_sflash_key *w = (chal_sflash_key *)k;
    ptr[0] = &w->pub.coef[0][0], len[0] = (size_t)m * CHAL_SFLASH_MONOMIALS;
    ptr[1] = &w->quad[0][0], len[1] = (size_t)N * CHAL_SFLASH_QUAD;
    ptr[2] = w->c, len[2] = N;
    ptr[3] = w->e, len[3] = m;
    ptr[4] = &w->rel[0][0], len[4] = (size_t)N * NN;
    return 5;
}

void chal_sflash_key_encode(uint8_t *out, const chal_sflash_key *k)
{
    uint8_t *ptr[5];
    size_t len[5], o = 9;
    memcpy(out, MAGIC, 8);
    out[8] = (uint8_t)k->pub.m;
    for (size_t f = 0, nf = fields(k, k->pub.m, ptr, len); f < nf; f++) {
        memcpy(out + o, ptr[f], len[f]);
        o += len[f];
    }
    crypto_hash_sha256(out + o, out, o);
}

int chal_sflash_key_decode(chal_sflash_key *k, const uint8_t *in, size_t len, char *err,
                           size_t errlen)
{
    if (!k || !in)
        return chal_fail(err, errlen, "SFLASH key: missing argument");
    if (len < 9 || memcmp(in, MAGIC, 8) != 0)
        return chal_fail(err, errlen, "not an SFLASH forger's key file (no %s header)", MAGIC);
    unsigned m = in[8];
    if (m < CHAL_SFLASH_PROBES || m > N)
        return chal_fail(err, errlen, "SFLASH key: %u equations (3 to 37)", m);
    if (len != chal_sflash_key_bytes(m))
        return chal_fail(err, errlen, "SFLASH key of %u equations: %zu bytes, expected %zu", m,
                         len, chal_sflash_key_bytes(m));
    uint8_t h[32];
    crypto_hash_sha256(h, in, len - 32);
    if (sodium_memcmp(h, in + len - 32, 32) != 0)
        return chal_fail(err, errlen, "SFLASH key: checksum mismatch (corrupted)");
    for (size_t i = 9; i < len - 32; i++)
        if (in[i] > 127)
            return chal_fail(err, errlen, "SFLASH key: byte %zu is not an element of GF(128)", i);
    memset(k, 0, sizeof *k);
    k->pub.m = m;
    uint8_t *ptr[5];
    size_t fl[5], o = 9;
    for (size_t f = 0, nf = fields(k, m, ptr, fl); f < nf; f++) {
        memcpy(ptr[f], in + o, fl[f]);
        o += fl[f];
    }
    chal_sflash_key_prepare(k);
    /* a test forgery of a digest drawn from the checksum, against the map */
    uint8_t v[N], x[N], y[N];
    tts_stream s;
    tts_stream_init(&s, h);
    tts_stream_rng(&s, v, m);
    for (unsigned i = 0; i < m; i++)
        v[i] &= 0x7F;
    int r = chal_sflash_forge(k, x, v, tts_stream_rng, &s, NULL, 0);
    tts_stream_wipe(&s);
    if (r == CHAL_OK)
        chal_cstar_eval(&k->pub, x, y);
    if (r != CHAL_OK || memcmp(y, v, m) != 0) {
        sodium_memzero(k, sizeof *k);
        return chal_fail(err, errlen, "SFLASH key: it does not sign for its public map");
    }
    return CHAL_OK;
}
