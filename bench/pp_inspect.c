/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The inspection system's side of the ePassport experiment
 * (passport_int.h): Passive Authentication step by step, its halves of
 * the protocols, the contactless transfer model, and one run of the whole
 * flow, every step timed to its actor. */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "passport_int.h"

const char *const ps_name[PS_N] = {
    "pki_keys", "ds_cert", "ta_pki",  "load",  "chip_keys", "build", "hash",
    "sign",     "pace_t",  "decode",  "pa_cert", "pa_sod",  "pa_dg", "ca_t",
    "ta_t",     "aa_t",    "pace_c",  "ca_c",  "ta_c",      "aa_c",  "total_once",
    "total_issuer", "total_terminal", "total_chip", "aa_card_chip", "aa_card_terminal"};
const char *const ps_what[PS_N] = {
    "CSCA and DS key pairs",
    "the DS certificate, signed by the CSCA",
    "Terminal Authentication's PKI: CVCA, DV and IS key pairs, the DV and IS certificates",
    "read the five input files",
    "the chip's keys: its AA key pair (the suite) and CA key pair (X25519)",
    "build DG1, DG2, DG3, DG7, DG14 (CA key) and DG15 (AA key)",
    "hash the six data groups (the document hash)",
    "the DS signs the security object (SOD)",
    "PACE, the terminal's half: K_pi from the MRZ, the nonce decrypted, X25519, tokens",
    "decode the public keys: the CSCA anchor, the DS key from its certificate, DG15's AA key",
    "PA: the DS certificate verified under the CSCA key (and its key id)",
    "PA: the SOD's signature verified under the DS key",
    "PA: the six data groups re-hashed and compared with the SOD",
    "CA, the terminal's half: ephemeral X25519, K_mac, the chip's token checked",
    "TA, the terminal's half: it signs the chip's challenge with its IS key",
    "AA, the terminal's half: the 8-byte challenge, the chip's signature verified",
    "PACE, the chip's half: the nonce encrypted, X25519, tokens",
    "CA, the chip's half: X25519 with its static key, K_mac, its token",
    "TA, the chip's half: the DV and IS certificates and the terminal's signature verified "
    "(CVCA key stored at issuance)",
    "AA, the chip's half: it signs the challenge with its AA key",
    "the sum of the once-only steps",
    "the sum of the issuer's steps per document",
    "the sum of the inspection system's steps per passage",
    "the sum of the chip's steps per passage",
    "AA on the card: the card's SIGN (GET CYCLES), simulated time",
    "AA on the card: the terminal's part (challenge, digest, verification)"};
const int ps_role[PS_N] = {
    R_ONCE,     R_ONCE,     R_ONCE,     R_ISSUER,   R_ISSUER, R_ISSUER, R_ISSUER,
    R_ISSUER,   R_TERMINAL, R_TERMINAL, R_TERMINAL, R_TERMINAL, R_TERMINAL, R_TERMINAL,
    R_TERMINAL, R_TERMINAL, R_CHIP,     R_CHIP,     R_CHIP,   R_CHIP,   R_TOTAL,
    R_TOTAL,    R_TOTAL,    R_TOTAL,    R_CARD,     R_CARD};
const char *const role_name[R_N] = {"once", "issuer", "terminal", "chip", "total", "card"};
const char *const role_what[R_N] = {
    "the issuing state's PKI, once (and the TA PKI)", "the issuer, per document",
    "the inspection system, per passage", "the chip, per passage", "per actor", "the card"};

/* ISO/IEC 14443 Type A: every byte 9 bits on the wire (8 and parity).
 * The files are read with READ BINARY in 223-byte chunks (what fits one
 * 256-byte frame under secure messaging); each command costs 5 + 16 bytes
 * (header, Le and the SM objects) and each answer 16 + 2 bytes besides the
 * data (SM padding and MAC, the status word), and every frame 3 bytes of
 * ISO 14443-4 framing (PCB, CRC-16). Wire time only: no card processing,
 * no frame delay. */
const double pp_rates[3] = {106, 424, 848};
#define CHUNK 223
double pp_transfer_ms(size_t n, double kbps)
{
    size_t chunks = (n + CHUNK - 1) / CHUNK;
    double bytes = (double)n + (double)chunks * ((5 + 16 + 3) + (16 + 2 + 3));
    return bytes * 9 / kbps; /* bits / (kbit/s) = ms */
}

/* The inspection system's decoding of the keys it holds as bytes: the
 * CSCA anchor, the DS key from the certificate, DG15's AA key. */
static int decode(const pp_result *res, pp_run *r)
{
    const uint8_t *pk;
    size_t pklen, klen;
    const uint8_t *aa = pp_dg_key(r->dg[DG15], r->dglen[DG15], &klen);
    if (pp_cert_parse(res, "PDSC", r->cert, r->certlen, &pk, &pklen, &r->cert_tbs, &r->cert_sig,
                      &r->cert_siglen) ||
        !aa)
        return -1;
    return pp_pub_read(res->s, r->csca.pk, r->csca.pklen, &r->anchor) ||
                   pp_pub_read(res->s, pk, pklen, &r->ds_pub) ||
                   pp_pub_read(res->s, aa, klen, &r->aa_pub)
               ? -1
               : 0;
}

static int pa_cert(const pp_result *res, const pp_run *r)
{
    uint8_t id[64];
    if (!pp_hash(r->hash, r->csca.pk, r->csca.pklen, id) || memcmp(id, r->cert + 10, 8))
        return -1;
    return pp_verify(res->s, res->p, &r->anchor, r->cert, r->cert_tbs, r->cert_sig,
                     r->cert_siglen);
}

static int pa_sod(const pp_result *res, const pp_run *r, const uint8_t *sod, size_t sodlen)
{
    size_t pay, siglen;
    const uint8_t *sig;
    return pp_sod_parse(res, r, sod, sodlen, &pay, &sig, &siglen)
               ? -1
               : pp_verify(res->s, res->p, &r->ds_pub, sod, pay, sig, siglen);
}

/* The data groups dg[] re-hashed against the SOD's: 0, 1 if one does not
 * match, -1 on failure. skip_dg (tests): the comparison left out. */
static int pa_dg(const pp_run *r, uint8_t *const *dg, const size_t *dglen, int skip_dg)
{
    uint8_t h[64];
    int bad = 0;
    for (int i = 0; i < PP_NDG; i++) {
        const uint8_t *e = r->sod + SOD_HEAD + i * (1 + r->hlen);
        if (pp_hash(r->hash, dg[i], dglen[i], h) != r->hlen)
            return -1;
        if (!skip_dg && (e[0] != dg_number[i] || sodium_memcmp(h, e + 1, r->hlen) != 0))
            bad = 1;
    }
    return bad;
}

/* The tamper checks (untimed): one byte of the portrait changed must fail
 * the data-group comparison, one bit of a hash in the SOD its signature. */
static int tamper(const pp_result *res, const pp_run *r, const passport_opts *po)
{
    uint8_t *dg2 = malloc(r->dglen[DG2]), *sod = malloc(r->sodlen), *dgs[PP_NDG];
    if (!dg2 || !sod) {
        free(dg2), free(sod);
        return pp_fail(res, "out of memory");
    }
    memcpy(dg2, r->dg[DG2], r->dglen[DG2]);
    dg2[r->dglen[DG2] / 2] ^= 0x01;
    memcpy(dgs, r->dg, sizeof dgs);
    dgs[DG2] = dg2;
    memcpy(sod, r->sod, r->sodlen);
    sod[SOD_HEAD + 1 + 1 * (1 + r->hlen)] ^= 0x80; /* DG2's hash */
    int dg_rc = pa_dg(r, dgs, r->dglen, po->skip_dg_check);
    int sod_rc = pa_sod(res, r, sod, r->sodlen);
    free(dg2), free(sod);
    if (dg_rc != 1)
        return pp_fail(res, dg_rc == 0 ? "a tampered DG2 passed Passive Authentication"
                                       : "the tamper check failed to run");
    if (sod_rc == 0)
        return pp_fail(res, "a tampered security object passed its signature check");
    return 0;
}

/* Terminal Authentication and Active Authentication, each side timed to
 * its actor. */
static int ta_aa(const pp_result *res, pp_run *r, uint64_t *ns)
{
    uint8_t ch[8], msg[8 + 32], *sig = malloc(PP_SIG_MAX);
    size_t siglen;
    int rc = -1;
    if (!sig)
        return pp_fail(res, "out of memory");
    uint64_t t0 = now_ns();
    randombytes_buf(msg, 8); /* the chip's challenge, and its CA key */
    memcpy(msg + 8, r->ca_pk, 32);
    uint64_t t1 = now_ns();
    if (pp_sign(res->s, res->p, &r->is, msg, sizeof msg, sig, &siglen)) {
        pp_fail(res, "the terminal's TA signature failed");
        goto out;
    }
    uint64_t t2 = now_ns();
    if (pp_ta_chip(res, r, msg, sizeof msg, sig, siglen)) {
        pp_fail(res, "Terminal Authentication failed on the chip (certificates or signature)");
        goto out;
    }
    r->ta_bytes = r->dv_certlen + r->is_certlen + siglen;
    uint64_t t3 = now_ns();
    randombytes_buf(ch, sizeof ch);
    uint64_t t4 = now_ns();
    if (pp_aa_sign(res, r, ch, sig, &siglen)) {
        pp_fail(res, "the chip's AA signature failed");
        goto out;
    }
    uint64_t t5 = now_ns();
    if (pp_verify(res->s, res->p, &r->aa_pub, ch, sizeof ch, sig, siglen)) {
        pp_fail(res, "the Active Authentication signature does not verify");
        goto out;
    }
    uint64_t t6 = now_ns();
    ns[PS_TA_C] = (t1 - t0) + (t3 - t2), ns[PS_TA_T] = t2 - t1;
    ns[PS_AA_T] = (t4 - t3) + (t6 - t5), ns[PS_AA_C] = t5 - t4;
    rc = 0;
out:
    free(sig);
    return rc;
}

/* The issuing state's PKI, once: CSCA and DS (and the DS certificate),
 * and Terminal Authentication's CVCA, DV and IS with their certificates. */
static int pki(const pp_result *res, pp_run *r, uint32_t serial, uint64_t *ns)
{
    uint64_t t0 = now_ns();
    if (pp_keygen(res->s, res->p, &r->csca) || pp_keygen(res->s, res->p, &r->ds))
        return pp_fail(res, "the CSCA or DS key generation failed");
    uint64_t t1 = now_ns();
    if (pp_cert_make(res, r->hash, "PDSC", &r->csca, &r->ds, serial, &r->cert, &r->certlen))
        return pp_fail(res, "the DS certificate failed");
    uint64_t t2 = now_ns();
    if (pp_keygen(res->s, res->p, &r->cvca) || pp_keygen(res->s, res->p, &r->dv) ||
        pp_keygen(res->s, res->p, &r->is) ||
        pp_cert_make(res, r->hash, "PCVC", &r->cvca, &r->dv, serial, &r->dv_cert,
                     &r->dv_certlen) ||
        pp_cert_make(res, r->hash, "PCVC", &r->dv, &r->is, serial, &r->is_cert, &r->is_certlen))
        return pp_fail(res, "Terminal Authentication's PKI failed");
    uint64_t t3 = now_ns();
    ns[PS_PKI_KEYS] = t1 - t0, ns[PS_CERT] = t2 - t1, ns[PS_TA_PKI] = t3 - t2;
    return 0;
}

int pp_one_run(pp_result *res, pp_run *r, const passport_opts *po, size_t run)
{
    uint64_t ns[PS_N] = {0}, t[7];
    char err[600];
    r->hash = po->hash;
    if (pki(res, r, (uint32_t)run + 1, ns))
        return -1;
    /* the issuer, per document */
    t[0] = now_ns();
    for (int i = 0; i < PP_NINPUTS; i++)
        if (pp_load(po->input[i], &r->in[i], &r->incap[i], &r->inlen[i], err, sizeof err))
            return pp_fail(res, err);
    t[1] = now_ns();
    if (pp_keygen(res->s, res->p, &r->aa))
        return pp_fail(res, "the chip's AA key generation failed");
    randombytes_buf(r->ca_sk, 32);
    crypto_scalarmult_base(r->ca_pk, r->ca_sk);
    t[2] = now_ns();
    if (pp_build_dgs(r))
        return pp_fail(res, "building the data groups failed (the MRZ is not one)");
    t[3] = now_ns();
    for (int i = 0; i < PP_NDG; i++)
        if (!(r->hlen = pp_hash(r->hash, r->dg[i], r->dglen[i], r->dgh[i])))
            return pp_fail(res, "hashing failed");
    t[4] = now_ns();
    if (pp_sod_sign(res, r))
        return pp_fail(res, "signing the security object failed");
    t[5] = now_ns();
    for (int s = PS_LOAD; s <= PS_SIGN; s++)
        ns[s] = t[s - PS_LOAD + 1] - t[s - PS_LOAD];

    /* a passage: PACE, then Passive Authentication, CA, TA and AA */
    if (pp_pace(r, &ns[PS_PACE_C], &ns[PS_PACE_T]))
        return pp_fail(res, "PACE failed");
    t[0] = now_ns();
    if (decode(res, r))
        return pp_fail(res, "decoding a public key failed");
    t[1] = now_ns();
    if (pa_cert(res, r))
        return pp_fail(res, "Passive Authentication: the DS certificate does not verify");
    t[2] = now_ns();
    if (pa_sod(res, r, r->sod, r->sodlen))
        return pp_fail(res, "the security object's signature does not verify");
    t[3] = now_ns();
    if (pa_dg(r, r->dg, r->dglen, po->skip_dg_check))
        return pp_fail(res, "Passive Authentication: a data group does not match the SOD");
    t[4] = now_ns();
    ns[PS_DECODE] = t[1] - t[0], ns[PS_PA_CERT] = t[2] - t[1];
    ns[PS_PA_SOD] = t[3] - t[2], ns[PS_PA_DG] = t[4] - t[3];
    if (pp_chip_auth(r, &ns[PS_CA_C], &ns[PS_CA_T]))
        return pp_fail(res, "Chip Authentication failed");
    if (ta_aa(res, r, ns) || tamper(res, r, po))
        return -1;
    for (int s = 0; s < PS_TOT_ONCE; s++)
        ns[PS_TOTAL_OF(ps_role[s])] += ns[s];
    for (int s = 0; s < PS_CARD_CHIP; s++)
        res->ns[s][run] = ns[s];
    if (res->on_card && pp_card_aa(res, r, po->card, run))
        return -1;
    res->pk_bytes[0] = r->csca.pklen, res->pk_bytes[1] = r->ds.pklen;
    res->pk_bytes[2] = r->aa.pklen;
    res->sig_bytes = r->sodlen - (SOD_HEAD + PP_NDG * (1 + r->hlen)) - 2;
    res->cert_bytes = r->certlen, res->sod_bytes = r->sodlen, res->ta_bytes = r->ta_bytes;
    for (int i = 0; i < PP_NDG; i++)
        res->dg_bytes[i] = r->dglen[i];
    res->done = run + 1;
    return 0;
}
