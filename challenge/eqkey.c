/* SPDX-License-Identifier: MIT */
/*
 * Equivalent keys (break.h): signing with one, and their file format.
 *
 * Signing solves the central map's layers on the public map itself. With
 * Q(z) = T P(B z) and the vinegar block V drawn at random, each equation
 * group is affine in the next input block while the later blocks are 0:
 * its matrix is read off evaluations of Q (Q(z + e_i) - Q(z) is column i).
 * Layer 1 is a x a in L; mu1 is one equation in the mu1 coordinate; mu2 is
 * one equation in the two C coordinates (one of them drawn at random: the
 * x_0 of the central map); layer 3 is b x b in O. Every signature is
 * checked against the public key before it is returned.
 */
#include <string.h>

#include <sodium.h>

#include "break.h"
#include "challenge.h"
#include "gfla.h"
#include "internal.h"

#define EQK_MAGIC "TTSEQK01"

static void q_eval(const chal_eqkey *k, uint8_t *out, const uint8_t *z)
{
    const tts_params *p = k->p;
    uint8_t w[TTS_MAX_N], y[TTS_MAX_M];
    gfla_matvec(w, k->B, z, p->n, p->n);
    (void)tts_pk_eval(p, y, w, k->pk);
    gfla_matvec(out, k->T, y, p->m, p->m);
}

/* Solve the rows lo..lo+dim-1 of Q for the block at input col..col+dim-1
 * (the rest of z fixed): z updated; 0 if singular. */
static int solve_block(const chal_eqkey *k, uint8_t *z, const uint8_t *tgt, unsigned lo,
                       unsigned col, unsigned dim)
{
    const tts_kernels *kr = tts_kernels_get();
    uint8_t base[TTS_MAX_M], q[TTS_MAX_M], M[TTS_MAX_M * (TTS_MAX_M + 1)];
    size_t piv[TTS_MAX_M + 1];
    q_eval(k, base, z);
    for (unsigned i = 0; i < dim; i++) {
        z[col + i] ^= 1;
        q_eval(k, q, z);
        z[col + i] ^= 1;
        for (unsigned r = 0; r < dim; r++)
            M[r * (dim + 1) + i] = q[lo + r] ^ base[lo + r];
    }
    for (unsigned r = 0; r < dim; r++)
        M[r * (dim + 1) + dim] = tgt[lo + r] ^ base[lo + r];
    size_t rk = gfla_rref(kr, M, dim, dim + 1, piv);
    if (rk != dim || piv[dim - 1] != dim - 1)
        return 0;
    for (unsigned r = 0; r < dim; r++)
        z[col + r] ^= M[r * (dim + 1) + dim];
    return 1;
}

int chal_eqkey_sign(const chal_eqkey *k, uint8_t *sig, const uint8_t *digest,
                    tts_rng_fn rng, void *ctx, char *err, size_t errlen)
{
    if (!k || !k->p || !sig || !digest)
        return chal_fail(err, errlen, "sign: missing argument");
    gfla_init();
    const tts_params *p = k->p;
    const unsigned m = p->m, n = p->n, v = p->v, a = p->a, b = p->b;
    const unsigned cL = v - 1, cmu = v - 1 + a, cC = v + a, cO = v + a + 2;
    uint8_t tgt[TTS_MAX_M], z[TTS_MAX_N], w[TTS_MAX_N], got[TTS_MAX_M];
    gfla_matvec(tgt, k->T, digest, m, m);
    if (!rng)
        rng = tts_rng_system;
    for (unsigned att = 0; att < TTS_MAX_ATTEMPTS; att++) {
        uint8_t r[TTS_MAX_N];
        memset(z, 0, n);
        if (rng(ctx, r, v) != 0)
            return chal_fail(err, errlen, "sign: the randomness source failed");
        memcpy(z, r, v - 1);
        if (!solve_block(k, z, tgt, 0, cL, a) || !solve_block(k, z, tgt, a, cmu, 1))
            continue;
        /* mu2: one equation in the two C coordinates, one of them free */
        uint8_t base[TTS_MAX_M], q0[TTS_MAX_M], q1[TTS_MAX_M];
        q_eval(k, base, z);
        z[cC] = 1;
        q_eval(k, q0, z);
        z[cC] = 0;
        z[cC + 1] = 1;
        q_eval(k, q1, z);
        z[cC + 1] = 0;
        uint8_t g0 = q0[a + 1] ^ base[a + 1], g1 = q1[a + 1] ^ base[a + 1];
        uint8_t rhs = tgt[a + 1] ^ base[a + 1];
        if (g1) {
            z[cC] = r[v - 1];
            z[cC + 1] = gmul(rhs ^ gmul(g0, z[cC]), gfla_inv[g1]);
        } else if (g0) {
            z[cC + 1] = r[v - 1];
            z[cC] = gmul(rhs, gfla_inv[g0]);
        } else
            continue;
        if (!solve_block(k, z, tgt, a + 2, cO, b))
            continue;
        gfla_matvec(w, k->B, z, n, n);
        (void)tts_pk_eval(p, got, w, k->pk);
        if (sodium_memcmp(got, digest, m) == 0) {
            memcpy(sig, w, n);
            return CHAL_OK;
        }
    }
    return chal_fail(err, errlen, "sign: no signature after %u attempts: not an "
                     "equivalent key of this public key", (unsigned)TTS_MAX_ATTEMPTS);
}

size_t chal_eqkey_bytes(const tts_params *p)
{
    return p ? 8 + 2 + (size_t)p->n * p->n + (size_t)p->m * p->m + pk_bytes(p) + 32 : 0;
}

void chal_eqkey_encode(uint8_t *out, const chal_eqkey *k)
{
    const tts_params *p = k->p;
    size_t o = 0;
    memcpy(out, EQK_MAGIC, 8);
    o = 8;
    out[o++] = p->m;
    out[o++] = p->n;
    memcpy(out + o, k->B, (size_t)p->n * p->n);
    o += (size_t)p->n * p->n;
    memcpy(out + o, k->T, (size_t)p->m * p->m);
    o += (size_t)p->m * p->m;
    memcpy(out + o, k->pk, pk_bytes(p));
    o += pk_bytes(p);
    crypto_hash_sha256(out + o, out, o);
}

int chal_eqkey_decode(chal_eqkey *k, const uint8_t *in, size_t len, char *err,
                      size_t errlen)
{
    gfla_init();
    if (!k || !in)
        return chal_fail(err, errlen, "equivalent key: missing argument");
    if (len < 10 || memcmp(in, EQK_MAGIC, 8) != 0)
        return chal_fail(err, errlen, "not an equivalent key file (no %s header)", EQK_MAGIC);
    const tts_params *p = NULL;
    for (size_t i = 0; tts_params_at(i); i++)
        if (tts_params_at(i)->m == in[8] && tts_params_at(i)->n == in[9])
            p = tts_params_at(i);
    if (!p)
        return chal_fail(err, errlen, "equivalent key: no set has m = %u, n = %u", in[8], in[9]);
    if (len != chal_eqkey_bytes(p))
        return chal_fail(err, errlen, "equivalent key of %s: %zu bytes, expected %zu",
                         p->name, len, chal_eqkey_bytes(p));
    uint8_t h[32];
    crypto_hash_sha256(h, in, len - 32);
    if (sodium_memcmp(h, in + len - 32, 32) != 0)
        return chal_fail(err, errlen, "equivalent key of %s: checksum mismatch (corrupted)",
                         p->name);
    memset(k, 0, sizeof *k);
    k->p = p;
    size_t o = 10;
    memcpy(k->B, in + o, (size_t)p->n * p->n);
    o += (size_t)p->n * p->n;
    memcpy(k->T, in + o, (size_t)p->m * p->m);
    o += (size_t)p->m * p->m;
    memcpy(k->pk, in + o, pk_bytes(p));
    int ok = 1;
    const tts_kernels *kr = tts_kernels_get();
    if (gfla_rank(kr, k->B, p->n, p->n, &ok) != p->n || gfla_rank(kr, k->T, p->m, p->m, &ok) != p->m)
        return chal_fail(err, errlen, "equivalent key of %s: B or T is singular", p->name);
    /* a test signature: the blocks must have the central map's shape */
    uint8_t seed[32] = {0}, d[TTS_MAX_M], sig[TTS_MAX_N];
    tts_stream s;
    memcpy(seed, h, 32);
    tts_stream_init(&s, seed);
    tts_stream_rng(&s, d, p->m);
    int r = chal_eqkey_sign(k, sig, d, tts_stream_rng, &s, NULL, 0);
    tts_stream_wipe(&s);
    if (r != CHAL_OK)
        return chal_fail(err, errlen, "equivalent key of %s: it does not sign for its "
                         "public key", p->name);
    return CHAL_OK;
}
