/* SPDX-License-Identifier: MIT */
/*
 * The parts of the ePassport experiment (exp_passport.h), by role:
 *
 *   pp_crypto.c   the suites: key pairs, signatures, public-key decoding,
 *                 the data-group hash
 *   pp_issuer.c   the issuing state: inputs, data groups, certificates,
 *                 the security object (SOD)
 *   pp_chip.c     the chip: PACE, Chip Authentication, Active
 *                 Authentication's signature, Terminal Authentication's
 *                 checks, and the card (--card)
 *   pp_inspect.c  the inspection system: Passive Authentication, the
 *                 other sides of the protocols, the contactless transfer
 *                 model, one run of the whole flow
 *   pp_report.c   the text, JSON and CSV reports and the charts
 *   exp_passport.c  the command: suites chosen, runs, statistics
 *
 * Internal to bench/: nothing here is part of an API.
 */
#ifndef TTS_BENCH_PASSPORT_INT_H
#define TTS_BENCH_PASSPORT_INT_H

#include <openssl/evp.h>

#include "exp_passport.h"

/* ---- suites and keys (pp_crypto.c) ---- */

enum { K_EC, K_RSA, K_ED, K_TTS, K_SFLASH, K_PQ };

typedef struct {
    const char *name, *family;
    int kind;
    const char *lib; /* NULL: TTS (its backend) */
} pp_suite;

extern const pp_suite pp_suites[PP_MAX_SUITES];
const pp_suite *pp_suite_get(const char *name);
/* 1 if the suite can run in this build (the post-quantum peers need
 * PQClean). */
int pp_suite_available(const pp_suite *s);

/* The largest signature of a suite (SPHINCS+-SHA2-128f). */
#define PP_SIG_MAX 17088

/* A key pair: the OpenSSL key, or raw bytes; pk is the encoding a
 * certificate or a data group carries (SubjectPublicKeyInfo DER for
 * OpenSSL). */
typedef struct {
    EVP_PKEY *pkey;
    uint8_t *pk, *sk;
    size_t pklen, sklen;
} pp_key;

/* A public key as a relying party holds it once decoded from its encoding
 * (d2i_PUBKEY for OpenSSL: a decoder run that costs more than an ECDSA
 * verification, so it is its own step). */
typedef struct {
    const uint8_t *pk;
    size_t len;
    EVP_PKEY *k;
} pp_pub;

int pp_keygen(const pp_suite *s, const tts_params *p, pp_key *k);
void pp_key_free(pp_key *k);
int pp_sign(const pp_suite *s, const tts_params *p, const pp_key *k, const uint8_t *m, size_t len,
            uint8_t *sig, size_t *siglen);
int pp_pub_read(const pp_suite *s, const uint8_t *pk, size_t len, pp_pub *out);
void pp_pub_free(pp_pub *pub);
int pp_verify(const pp_suite *s, const tts_params *p, const pp_pub *pub, const uint8_t *m,
              size_t len, const uint8_t *sig, size_t siglen);

/* The document's hash (data groups, SOD, key ids): one for every suite,
 * as Doc 9303 lets the issuer choose it apart from the signature. */
enum { H_SHA1, H_SHA256, H_SHA512 };
extern const char *const pp_hash_names[3];
size_t pp_hash(int h, const uint8_t *m, size_t len, uint8_t out[64]);

/* ---- the steps ---- */

enum {
    /* the issuing state's PKI, once */
    PS_PKI_KEYS, PS_CERT, PS_TA_PKI,
    /* the issuer, per document */
    PS_LOAD, PS_CHIP_KEYS, PS_BUILD, PS_HASH, PS_SIGN,
    /* the inspection system, per passage */
    PS_PACE_T, PS_DECODE, PS_PA_CERT, PS_PA_SOD, PS_PA_DG, PS_CA_T, PS_TA_T, PS_AA_T,
    /* the chip, per passage */
    PS_PACE_C, PS_CA_C, PS_TA_C, PS_AA_C,
    /* per actor: the sums of its steps */
    PS_TOT_ONCE, PS_TOT_ISSUER, PS_TOT_TERMINAL, PS_TOT_CHIP,
    /* --card: Active Authentication with the chip on the card */
    PS_CARD_CHIP, PS_CARD_TERMINAL,
    PS_N
};
enum { R_ONCE, R_ISSUER, R_TERMINAL, R_CHIP, R_TOTAL, R_CARD, R_N };
extern const char *const ps_name[PS_N], *const ps_what[PS_N];
extern const int ps_role[PS_N];
extern const char *const role_name[R_N], *const role_what[R_N];
/* the total of each actor's steps: PS_TOT_ONCE + role */
#define PS_TOTAL_OF(role) (PS_TOT_ONCE + (role))

/* ---- the document (pp_issuer.c) ---- */

enum { DG1, DG2, DG3, DG7, DG14, DG15, PP_NDG };
extern const uint8_t dg_number[PP_NDG];

/* What one run holds. */
typedef struct {
    int hash;
    uint8_t *in[PP_NINPUTS];
    size_t inlen[PP_NINPUTS], incap[PP_NINPUTS];
    uint8_t *dg[PP_NDG];
    size_t dglen[PP_NDG];
    uint8_t dgh[PP_NDG][64];
    size_t hlen;
    pp_key aa, csca, ds, cvca, dv, is;
    uint8_t ca_pk[32], ca_sk[32];
    uint8_t *cert, *sod, *dv_cert, *is_cert;
    size_t certlen, sodlen, dv_certlen, is_certlen;
    /* the inspection system's decoded keys */
    pp_pub anchor, ds_pub, aa_pub;
    const uint8_t *cert_sig;
    size_t cert_tbs, cert_siglen;
    size_t ta_bytes; /* what the chip receives in Terminal Authentication */
} pp_run;

typedef struct {
    const pp_suite *s;
    const tts_params *p; /* TTS */
    int id;              /* suite id: its index + 1 */
    char backend[16];
    int on_card; /* AA also on the card */
    const char *image;
    uint64_t *ns[PS_N], *cycles; /* per run; the card's steps NULL without it */
    stats st[PS_N], stc; /* summarize()'s */
    size_t done;
    size_t pk_bytes[3], sig_bytes, cert_bytes, sod_bytes, dg_bytes[PP_NDG], ta_bytes;
} pp_result;

void pp_run_clear(pp_run *r);
int pp_fail(const pp_result *res, const char *what);
int pp_load(const char *path, uint8_t **buf, size_t *cap, size_t *len, char *err, size_t errlen);
size_t pp_mrz_chars(const uint8_t *in, size_t len, uint8_t out[96]);
const uint8_t *pp_tlv_value(const uint8_t *b, size_t len, size_t *vlen);
/* The public key a DG14 or DG15 carries. */
const uint8_t *pp_dg_key(const uint8_t *dg, size_t len, size_t *klen);
int pp_build_dgs(pp_run *r);
/* A certificate (docs/BENCH.md): magic "PDSC" (document signer) or "PCVC"
 * (Terminal Authentication), the issuer's signature over the subject's
 * public key. */
int pp_cert_make(const pp_result *res, int hash, const char magic[4], const pp_key *issuer,
                 const pp_key *subject, uint32_t serial, uint8_t **out, size_t *outlen);
int pp_cert_parse(const pp_result *res, const char magic[4], const uint8_t *c, size_t len,
                  const uint8_t **pk, size_t *pklen, size_t *tbs, const uint8_t **sig,
                  size_t *siglen);
int pp_sod_sign(const pp_result *res, pp_run *r);
/* The SOD's payload length and signature, or -1 if malformed. */
int pp_sod_parse(const pp_result *res, const pp_run *r, const uint8_t *sod, size_t sodlen,
                 size_t *pay, const uint8_t **sig, size_t *siglen);
#define SOD_HEAD 8

/* ---- the chip (pp_chip.c): each protocol function adds the time of its
 * chip and terminal halves to ns[PS_.._C] and ns[PS_.._T] ---- */

int pp_pace(const pp_run *r, uint64_t *chip, uint64_t *terminal);
int pp_chip_auth(const pp_run *r, uint64_t *chip, uint64_t *terminal);
int pp_aa_sign(const pp_result *res, const pp_run *r, const uint8_t ch[8], uint8_t *sig,
               size_t *siglen);
/* The chip's side of Terminal Authentication: the DV and IS certificates
 * checked under the CVCA key it stores, the terminal's signature of
 * msg under the IS key. */
int pp_ta_chip(const pp_result *res, const pp_run *r, const uint8_t *msg, size_t len,
               const uint8_t *sig, size_t siglen);
int pp_card_aa(pp_result *res, const pp_run *r, const passport_card *card, size_t run);

/* ---- the inspection system (pp_inspect.c) ---- */

int pp_one_run(pp_result *res, pp_run *r, const passport_opts *po, size_t run);
/* The modelled contactless transfer of n bytes read at kbit/s (ms). */
double pp_transfer_ms(size_t n, double kbps);
extern const double pp_rates[3];

/* ---- reports (pp_report.c) ---- */

void pp_print_text(FILE *f, const pp_result *v, size_t n, const passport_opts *po, const env *e,
                   const size_t *inbytes, const skiplist *absent);
void pp_json_report(FILE *f, const pp_result *v, size_t n, const passport_opts *po,
                    const size_t *inbytes);
void pp_csv_report(FILE *f, const pp_result *v, size_t n);
int pp_plot_report(const char *dir, const pp_result *v, size_t n, const passport_opts *po,
                   const env *e);

#endif
