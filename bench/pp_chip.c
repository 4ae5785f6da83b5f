/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The chip's side of the ePassport experiment (passport_int.h): PACE and
 * Chip Authentication (both halves, each timed to its actor), Active
 * Authentication's signature, Terminal Authentication's checks, and Active
 * Authentication on the card (--card). */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "passport_int.h"

/* The time since *t added to *acc; *t moved to now. */
static void lap(uint64_t *t, uint64_t *acc)
{
    uint64_t n = now_ns();
    *acc += n - *t;
    *t = n;
}

/* ICAO's KDF shape: SHA-256(K || counter, 32-bit big-endian). */
static void kdf(uint8_t out[32], const uint8_t *k, size_t klen, uint32_t c)
{
    crypto_hash_sha256_state h;
    const uint8_t cb[4] = {(uint8_t)(c >> 24), (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c};
    crypto_hash_sha256_init(&h);
    crypto_hash_sha256_update(&h, k, klen);
    crypto_hash_sha256_update(&h, cb, 4);
    crypto_hash_sha256_final(&h, out);
}

static void x25519_pair(uint8_t pk[32], uint8_t sk[32])
{
    randombytes_buf(sk, 32);
    crypto_scalarmult_base(pk, sk);
}

/* Chip Authentication (the chip's static key of DG14 against the
 * terminal's ephemeral one): both sides derive K_mac; the chip's token,
 * HMAC-SHA-256(K_mac, the terminal's key), is checked. */
int pp_chip_auth(const pp_run *r, uint64_t *chip, uint64_t *terminal)
{
    uint64_t t = now_ns();
    size_t klen;
    const uint8_t *cpk = pp_dg_key(r->dg[DG14], r->dglen[DG14], &klen);
    uint8_t tpk[32], tsk[32], k1[32], k2[32], mac1[32], mac2[32], tok[32];
    if (!cpk || klen != 32)
        return -1;
    x25519_pair(tpk, tsk);
    lap(&t, terminal);
    int rc = crypto_scalarmult(k1, r->ca_sk, tpk);
    kdf(mac1, k1, 32, 2);
    crypto_auth_hmacsha256(tok, tpk, 32, mac1);
    lap(&t, chip);
    rc |= crypto_scalarmult(k2, tsk, cpk);
    kdf(mac2, k2, 32, 2);
    rc |= crypto_auth_hmacsha256_verify(tok, tpk, 32, mac2);
    lap(&t, terminal);
    sodium_memzero(tsk, sizeof tsk), sodium_memzero(k1, sizeof k1);
    sodium_memzero(k2, sizeof k2), sodium_memzero(mac1, sizeof mac1);
    sodium_memzero(mac2, sizeof mac2);
    return rc ? -1 : 0;
}

/* PACE's password: the MRZ information (document number, date of birth,
 * date of expiry, each with its check digit) of the DG1 characters. */
static void mrz_info(const uint8_t *mrz, size_t n, uint8_t info[24])
{
    if (n == 90) { /* TD1: line 1 from 6, line 2 from 1 and 9 */
        memcpy(info, mrz + 5, 10);
        memcpy(info + 10, mrz + 30, 7);
        memcpy(info + 17, mrz + 38, 7);
    } else { /* TD2, TD3: line 2 from 1, 14 and 22 */
        const uint8_t *l2 = mrz + n / 2;
        memcpy(info, l2, 10);
        memcpy(info + 10, l2 + 13, 7);
        memcpy(info + 17, l2 + 21, 7);
    }
}

/* Simplified PACE: K_pi = KDF(MRZ information, 3); the chip's 16-byte
 * nonce s travels encrypted under K_pi (ChaCha20); both sides run an
 * ephemeral X25519, derive K_mac = KDF(K || s, 2) and check each other's
 * token (HMAC-SHA-256 of the other's ephemeral key). No generator
 * mapping: X25519 exposes none, so s enters the key derivation instead. */
int pp_pace(const pp_run *r, uint64_t *chip, uint64_t *terminal)
{
    static const uint8_t n0[crypto_stream_chacha20_NONCEBYTES];
    uint64_t t = now_ns();
    size_t vl, ml;
    const uint8_t *v = pp_tlv_value(r->dg[DG1], r->dglen[DG1], &vl);
    const uint8_t *mrz = v ? pp_tlv_value(v, vl, &ml) : NULL;
    if (!mrz || (ml != 90 && ml != 72 && ml != 88))
        return -1;
    uint8_t info[24], kpi_c[32], kpi_t[32], s[16], z[16], s2[16];
    uint8_t cpk[32], csk[32], tpk[32], tsk[32], kc[32], kt[32], mc[32], mt[32];
    uint8_t tc[32], tt[32], ks[48];
    mrz_info(mrz, ml, info);
    kdf(kpi_c, info, sizeof info, 3); /* chip (its K_pi stored at issuance) */
    randombytes_buf(s, sizeof s);
    crypto_stream_chacha20_xor(z, s, sizeof s, n0, kpi_c);
    x25519_pair(cpk, csk);
    lap(&t, chip);
    kdf(kpi_t, info, sizeof info, 3); /* terminal (it read the MRZ) */
    crypto_stream_chacha20_xor(s2, z, sizeof z, n0, kpi_t);
    x25519_pair(tpk, tsk);
    lap(&t, terminal);
    int rc = crypto_scalarmult(kc, csk, tpk);
    memcpy(ks, kc, 32), memcpy(ks + 32, s, 16);
    kdf(mc, ks, 48, 2);
    crypto_auth_hmacsha256(tc, tpk, 32, mc); /* the chip's token */
    lap(&t, chip);
    rc |= crypto_scalarmult(kt, tsk, cpk);
    memcpy(ks, kt, 32), memcpy(ks + 32, s2, 16);
    kdf(mt, ks, 48, 2);
    crypto_auth_hmacsha256(tt, cpk, 32, mt); /* the terminal's */
    rc |= crypto_auth_hmacsha256_verify(tc, tpk, 32, mt);
    lap(&t, terminal);
    rc |= crypto_auth_hmacsha256_verify(tt, cpk, 32, mc);
    lap(&t, chip);
    sodium_memzero(kpi_c, sizeof kpi_c), sodium_memzero(kpi_t, sizeof kpi_t);
    sodium_memzero(csk, sizeof csk), sodium_memzero(tsk, sizeof tsk);
    sodium_memzero(kc, sizeof kc), sodium_memzero(kt, sizeof kt), sodium_memzero(ks, sizeof ks);
    sodium_memzero(mc, sizeof mc), sodium_memzero(mt, sizeof mt);
    return rc ? -1 : 0;
}

/* Active Authentication: the chip signs the terminal's 8-byte challenge
 * with its AA key. */
int pp_aa_sign(const pp_result *res, const pp_run *r, const uint8_t ch[8], uint8_t *sig,
               size_t *siglen)
{
    return pp_sign(res->s, res->p, &r->aa, ch, 8, sig, siglen);
}

/* One link of the chain: certificate c (magic "PCVC") verified under the
 * issuer's decoded key; its subject's key decoded into *subject. */
static int cvc_link(const pp_result *res, const pp_pub *issuer, const uint8_t *c, size_t len,
                    pp_pub *subject)
{
    const uint8_t *pk, *sig;
    size_t pklen, tbs, siglen;
    if (pp_cert_parse(res, "PCVC", c, len, &pk, &pklen, &tbs, &sig, &siglen) ||
        pp_verify(res->s, res->p, issuer, c, tbs, sig, siglen))
        return -1;
    return pp_pub_read(res->s, pk, pklen, subject);
}

/* Terminal Authentication (BSI TR-03110), the chip's side: the CVCA's key
 * is the chip's trust anchor (stored at issuance, decoded here); the DV's
 * certificate under it, the inspection system's under the DV's, then the
 * terminal's signature of the chip's challenge under the IS key. Only
 * then would the chip release DG3. */
int pp_ta_chip(const pp_result *res, const pp_run *r, const uint8_t *msg, size_t len,
               const uint8_t *sig, size_t siglen)
{
    pp_pub cvca, dv, is;
    memset(&dv, 0, sizeof dv), memset(&is, 0, sizeof is);
    int rc = pp_pub_read(res->s, r->cvca.pk, r->cvca.pklen, &cvca);
    if (rc)
        return -1;
    rc = cvc_link(res, &cvca, r->dv_cert, r->dv_certlen, &dv) ||
         cvc_link(res, &dv, r->is_cert, r->is_certlen, &is) ||
         pp_verify(res->s, res->p, &is, msg, len, sig, siglen);
    pp_pub_free(&cvca), pp_pub_free(&dv), pp_pub_free(&is);
    return rc ? -1 : 0;
}

/* Active Authentication with the chip on the card: the terminal's part is
 * timed on the host, the card's SIGN in machine cycles. */
int pp_card_aa(pp_result *res, const pp_run *r, const passport_card *card, size_t run)
{
    uint8_t ch[8], dg[TTS_MAX_M], sig[TTS_MAX_N];
    char err[512];
    size_t klen;
    uint64_t t0 = now_ns();
    randombytes_buf(ch, sizeof ch);
    if (tts_digest(res->p, dg, ch, sizeof ch) != TTS_OK)
        return -1;
    uint64_t t1 = now_ns();
    if (card->sign(card->ctx, res->p, r->aa.sk, dg, sig, &res->cycles[run], err, sizeof err)) {
        fprintf(stderr, "tts-bench: passport: %s: the card: %s\n", res->s->name, err);
        return -1;
    }
    uint64_t t2 = now_ns();
    const uint8_t *pk = pp_dg_key(r->dg[DG15], r->dglen[DG15], &klen);
    pp_pub pub;
    int rc = !pk || pp_pub_read(res->s, pk, klen, &pub)
                 ? -1
                 : pp_verify(res->s, res->p, &pub, ch, sizeof ch, sig, tts_sig_bytes(res->p));
    uint64_t t3 = now_ns();
    if (rc)
        return pp_fail(res, "the card's Active Authentication signature does not verify");
    res->ns[PS_CARD_TERMINAL][run] = (t1 - t0) + (t3 - t2);
    res->ns[PS_CARD_CHIP][run] =
        (uint64_t)((double)res->cycles[run] * card->clocks * 1000.0 / card->mhz + 0.5);
    return 0;
}

