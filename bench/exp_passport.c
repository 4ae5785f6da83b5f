/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The ePassport-issuance experiment (exp_passport.h; docs/BENCH.md): per
 * signature suite and run, the issuer loads the holder's data, makes the
 * chip's keys, builds and hashes the data groups, sets up its PKI and
 * signs the security object; a terminal then runs Passive, Active and
 * Chip Authentication and a simplified PACE with the chip. Every step is
 * timed; every signature is verified; a tampered data group and a tampered
 * security object must fail, every run. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "clock.h"
#include "exp_passport.h"
#include "sflash.h"

/* ---- the suites ---- */

enum { K_EC, K_RSA, K_ED, K_TTS, K_SFLASH };
enum { H_SHA1, H_SHA256, H_SHA512 };

typedef struct {
    const char *name, *family;
    int kind, hash;
    const char *hash_name, *lib;
} pp_suite;

/* The suite id of the certificate and the security object is the index
 * plus one. The hash is the one each suite's signature uses itself. */
static const pp_suite suites[PP_MAX_SUITES] = {
    {"ECDSA-P-256", "ECDSA", K_EC, H_SHA256, "SHA-256", "openssl"},
    {"RSA-PSS-2048", "RSA-PSS", K_RSA, H_SHA256, "SHA-256", "openssl"},
    {"Ed25519", "Ed25519", K_ED, H_SHA512, "SHA-512", "libsodium"},
    {"TTS(20,28)", "TTS", K_TTS, H_SHA512, "SHA-512", NULL},
    {"TTS(36,50)", "TTS", K_TTS, H_SHA512, "SHA-512", NULL},
    {"SFLASH(26,37)", "SFLASH", K_SFLASH, H_SHA1, "SHA-1", "sflash-ref"},
};

static const pp_suite *suite_get(const char *name)
{
    for (size_t i = 0; i < PP_MAX_SUITES; i++)
        if (strcasecmp(name, suites[i].name) == 0)
            return &suites[i];
    return NULL;
}

int passport_suite_known(const char *name) { return suite_get(name) != NULL; }

const char *passport_suite_list(void)
{
    return "ECDSA-P-256, RSA-PSS-2048, Ed25519, TTS(20,28), TTS(36,50), SFLASH(26,37)";
}

int passport_suite_tts(const char *name, const tts_params **p)
{
    const pp_suite *s = suite_get(name);
    if (!s || s->kind != K_TTS)
        return 0;
    *p = tts_params_get(s->name);
    return *p != NULL;
}

/* A key pair: the OpenSSL key, or raw bytes; pk is the encoding a
 * certificate or DG15 carries (SubjectPublicKeyInfo DER for OpenSSL). */
typedef struct {
    EVP_PKEY *pkey;
    uint8_t *pk, *sk;
    size_t pklen, sklen;
} pp_key;

static void key_free(pp_key *k)
{
    EVP_PKEY_free(k->pkey);
    free(k->pk);
    if (k->sk)
        sodium_memzero(k->sk, k->sklen);
    free(k->sk);
    memset(k, 0, sizeof *k);
}

static int key_alloc(pp_key *k, size_t pk, size_t sk)
{
    k->pklen = pk;
    k->sklen = sk;
    k->pk = malloc(pk);
    k->sk = malloc(sk);
    return k->pk && k->sk ? 0 : -1;
}

static int keygen(const pp_suite *s, const tts_params *p, pp_key *k)
{
    memset(k, 0, sizeof *k);
    if (s->kind == K_EC || s->kind == K_RSA) {
        k->pkey = s->kind == K_EC ? EVP_EC_gen("P-256") : EVP_RSA_gen(2048);
        int len = k->pkey ? i2d_PUBKEY(k->pkey, NULL) : -1;
        if (len <= 0 || !(k->pk = malloc((size_t)len)))
            return -1;
        uint8_t *q = k->pk;
        k->pklen = (size_t)i2d_PUBKEY(k->pkey, &q);
        return 0;
    }
    if (s->kind == K_ED)
        return key_alloc(k, crypto_sign_PUBLICKEYBYTES, crypto_sign_SECRETKEYBYTES) ? -1
               : crypto_sign_keypair(k->pk, k->sk);
    if (s->kind == K_TTS)
        return key_alloc(k, tts_pk_bytes(p), tts_sk_bytes(p)) ||
                       tts_keypair(p, k->pk, k->sk) != TTS_OK
                   ? -1
                   : 0;
    uint8_t seed[SFLASH_SEED_BYTES];
    randombytes_buf(seed, sizeof seed);
    int rc = key_alloc(k, SFLASH_PK_BYTES, SFLASH_SK_BYTES) ? -1
             : sflash_keypair(k->pk, k->sk, seed);
    sodium_memzero(seed, sizeof seed);
    return rc;
}

/* The OpenSSL suites sign and verify through EVP_DigestSign/Verify with
 * SHA-256; RSA-PSS with MGF1-SHA-256 and a salt as long as the hash. */
static int evp_init(EVP_MD_CTX *md, EVP_PKEY *k, int rsa, int verify)
{
    EVP_PKEY_CTX *pc = NULL;
    if ((verify ? EVP_DigestVerifyInit(md, &pc, EVP_sha256(), NULL, k)
                : EVP_DigestSignInit(md, &pc, EVP_sha256(), NULL, k)) != 1)
        return -1;
    if (rsa && (EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) != 1 ||
                EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) != 1))
        return -1;
    return 0;
}

#define PP_SIG_MAX 512

static int sign(const pp_suite *s, const tts_params *p, const pp_key *k, const uint8_t *m,
                size_t len, uint8_t *sig, size_t *siglen)
{
    if (s->kind == K_EC || s->kind == K_RSA) {
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        *siglen = PP_SIG_MAX;
        int ok = md && evp_init(md, k->pkey, s->kind == K_RSA, 0) == 0 &&
                 EVP_DigestSign(md, sig, siglen, m, len) == 1;
        EVP_MD_CTX_free(md);
        return ok ? 0 : -1;
    }
    if (s->kind == K_ED) {
        unsigned long long l = 0;
        int rc = crypto_sign_detached(sig, &l, m, len, k->sk);
        *siglen = (size_t)l;
        return rc;
    }
    if (s->kind == K_TTS) {
        *siglen = tts_sig_bytes(p);
        return tts_sign(p, sig, m, len, k->sk) == TTS_OK ? 0 : -1;
    }
    *siglen = SFLASH_SIG_BYTES;
    return sflash_sign(sig, m, len, k->sk);
}

/* A public key as a terminal holds it once read from a certificate or a
 * data group: its encoding and, for OpenSSL, the key decoded from it
 * (d2i_PUBKEY: in OpenSSL 3 a decoder run that costs more than an ECDSA
 * verification, so it is timed where the key is read, not in verify). */
typedef struct {
    const uint8_t *pk;
    size_t len;
    EVP_PKEY *k;
} pp_pub;

static int pub_read(const pp_suite *s, const uint8_t *pk, size_t len, pp_pub *out)
{
    out->pk = pk, out->len = len, out->k = NULL;
    if (s->kind != K_EC && s->kind != K_RSA)
        return 0;
    const uint8_t *q = pk;
    out->k = len < 0x7FFFFFFF ? d2i_PUBKEY(NULL, &q, (long)len) : NULL;
    if (out->k && q == pk + len &&
        EVP_PKEY_get_base_id(out->k) == (s->kind == K_EC ? EVP_PKEY_EC : EVP_PKEY_RSA))
        return 0;
    EVP_PKEY_free(out->k);
    out->k = NULL;
    return -1;
}

static void pub_free(pp_pub *pub)
{
    EVP_PKEY_free(pub->k);
    memset(pub, 0, sizeof *pub);
}

static int verify(const pp_suite *s, const tts_params *p, const pp_pub *pub, const uint8_t *m,
                  size_t len, const uint8_t *sig, size_t siglen)
{
    const uint8_t *pk = pub->pk;
    size_t pklen = pub->len;
    if (s->kind == K_EC || s->kind == K_RSA) {
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        int ok = pub->k && md && evp_init(md, pub->k, s->kind == K_RSA, 1) == 0 &&
                 EVP_DigestVerify(md, sig, siglen, m, len) == 1;
        EVP_MD_CTX_free(md);
        return ok ? 0 : -1;
    }
    if (s->kind == K_ED)
        return pklen == crypto_sign_PUBLICKEYBYTES && siglen == crypto_sign_BYTES
                   ? crypto_sign_verify_detached(sig, m, len, pk)
                   : -1;
    if (s->kind == K_TTS)
        return pklen == tts_pk_bytes(p) && siglen == tts_sig_bytes(p) &&
                       tts_verify(p, sig, m, len, pk) == TTS_OK
                   ? 0
                   : -1;
    return pklen == SFLASH_PK_BYTES && siglen == SFLASH_SIG_BYTES
               ? sflash_verify(sig, m, len, pk)
               : -1;
}

/* The suite's hash (OpenSSL's SHA-1 and SHA-256, libsodium's SHA-512, as
 * each suite's own signature computes them); its length, 0 on failure. */
static size_t hash(const pp_suite *s, const uint8_t *m, size_t len, uint8_t out[64])
{
    if (s->hash == H_SHA512)
        return crypto_hash_sha512(out, m, len) == 0 ? 64 : 0;
    unsigned int l = 0;
    return EVP_Digest(m, len, out, &l, s->hash == H_SHA1 ? EVP_sha1() : EVP_sha256(), NULL) == 1
               ? l
               : 0;
}

/* ---- inputs ---- */

const char *const pp_input_names[PP_NINPUTS] = {"mrz", "portrait", "finger1", "finger2",
                                                "signature"};
/* Typical sizes: the MRZ of a passport (TD3, two lines of 44 characters
 * and their newlines), a JPEG portrait of 20 KB, two compressed finger
 * images of 12 KB (DG3 stores images), a displayed signature of 6 KB. */
const size_t pp_input_bytes[PP_NINPUTS] = {90, 20 << 10, 12 << 10, 12 << 10, 6 << 10};

/* The specimen MRZ of ICAO Doc 9303 part 4 (a fictitious holder). */
static const char specimen_mrz[] = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\n"
                                   "L898902C36UTO7408122F1204159ZE184226B<<<<<10\n";

void pp_synthetic(int which, uint8_t *buf)
{
    static const uint8_t key[crypto_stream_chacha20_KEYBYTES];
    uint8_t nonce[crypto_stream_chacha20_NONCEBYTES] = {(uint8_t)which};
    if (which == PP_MRZ)
        memcpy(buf, specimen_mrz, pp_input_bytes[PP_MRZ]);
    else
        crypto_stream_chacha20(buf, pp_input_bytes[which], nonce, key);
}

/* The whole regular file into *buf (grown as needed, *cap its size); -1
 * with the reason in err. (A FIFO or a device is refused before it is
 * opened: every run reads the inputs again.) */
static int load(const char *path, uint8_t **buf, size_t *cap, size_t *len, char *err,
                size_t errlen)
{
    struct stat st;
    FILE *f = NULL;
    /* a non-blocking open, then the check on what was opened: a file
     * swapped for a FIFO after the tool's check cannot hang the run */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    const char *why = fd < 0                               ? strerror(errno)
                      : fstat(fd, &st) != 0                 ? strerror(errno)
                      : !S_ISREG(st.st_mode)                ? "not a regular file"
                      : !(f = fdopen(fd, "rb"))             ? strerror(errno)
                                                            : NULL;
    if (why && fd >= 0 && !f)
        close(fd);
    if (why) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    *len = 0;
    for (;;) {
        if (*len == *cap) {
            size_t nc = *cap ? 2 * *cap : 1 << 16;
            uint8_t *nb = nc <= 2 * PP_INPUT_MAX ? realloc(*buf, nc) : NULL;
            if (!nb) {
                fclose(f);
                snprintf(err, errlen, "%s: larger than %zu MB", path, PP_INPUT_MAX >> 20);
                return -1;
            }
            *buf = nb;
            *cap = nc;
        }
        size_t r = fread(*buf + *len, 1, *cap - *len, f);
        *len += r;
        if (r == 0)
            break;
    }
    int bad = ferror(f) ? errno : 0;
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s: %s", path, strerror(bad));
        return -1;
    }
    return 0;
}

/* The MRZ's characters without line ends: TD1 (3 x 30), TD2 (2 x 36) or
 * TD3 (2 x 44) of A-Z, 0-9 and '<'. Its length, or 0 if it is none. */
static size_t mrz_chars(const uint8_t *in, size_t len, uint8_t out[96])
{
    size_t n = 0, line = 0, lines = 0, width = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = in[i];
        if (c == '\r' || c == '\n') {
            if (line) {
                if (width && line != width)
                    return 0;
                width = line;
                lines++;
            }
            line = 0;
            continue;
        }
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '<') || n == 96)
            return 0;
        out[n++] = c;
        line++;
    }
    if (line) {
        if (width && line != width)
            return 0;
        width = line;
        lines++;
    }
    return (lines == 3 && width == 30) || (lines == 2 && (width == 36 || width == 44)) ? n : 0;
}

int passport_check_inputs(const passport_opts *po, char *err, size_t errlen)
{
    uint8_t *buf = NULL, mrz[96];
    size_t cap = 0, len = 0;
    int rc = 0;
    for (int i = 0; i < PP_NINPUTS && !rc; i++) {
        char why[512];
        if (load(po->input[i], &buf, &cap, &len, why, sizeof why)) {
            snprintf(err, errlen, "%s: %s", pp_input_names[i], why);
            rc = -1;
        } else if (len > PP_INPUT_MAX || len == 0) {
            snprintf(err, errlen, "%s: %s: %s", pp_input_names[i], po->input[i],
                     len ? "larger than 16 MB" : "empty");
            rc = -1;
        } else if (i == PP_MRZ && !mrz_chars(buf, len, mrz)) {
            snprintf(err, errlen,
                     "mrz: %s: not a machine readable zone (3 lines of 30, 2 of 36 or 2 of "
                     "44 characters A-Z 0-9 <)",
                     po->input[i]);
            rc = -1;
        }
    }
    free(buf);
    return rc;
}

/* ---- data groups, certificate, security object ---- */

/* The data groups: a simplified LDS (ICAO Doc 9303 part 10): the DG's tag
 * around one data object per item, BER lengths. */
enum { DG1, DG2, DG3, DG7, DG14, DG15, PP_NDG };
static const uint8_t dg_number[PP_NDG] = {1, 2, 3, 7, 14, 15};
static const uint8_t dg_tag[PP_NDG] = {0x61, 0x75, 0x63, 0x67, 0x6E, 0x6F};

static size_t ber_len(uint8_t *o, size_t len)
{
    size_t n = len < 0x80 ? 1 : len < 0x100 ? 2 : len < 0x10000 ? 3 : len < 0x1000000 ? 4 : 5;
    if (o) {
        if (n == 1) {
            o[0] = (uint8_t)len;
        } else {
            o[0] = (uint8_t)(0x80 + n - 1);
            for (size_t i = 1; i < n; i++)
                o[i] = (uint8_t)(len >> (8 * (n - 1 - i)));
        }
    }
    return n;
}

/* tag (one byte, or two if above 0xFF), length, value: its size; o NULL:
 * only the size. */
static size_t tlv(uint8_t *o, unsigned tag, const uint8_t *v, size_t len)
{
    size_t t = tag > 0xFF ? 2 : 1;
    if (o) {
        if (t == 2)
            *o++ = (uint8_t)(tag >> 8);
        *o++ = (uint8_t)tag;
    }
    size_t l = ber_len(o, len);
    if (o && len)
        memcpy(o + l, v, len);
    return t + l + len;
}

/* The value of the TLV at b (len bytes), or NULL if it overruns. */
static const uint8_t *tlv_value(const uint8_t *b, size_t len, size_t *vlen)
{
    size_t i = (len && (b[0] & 0x1F) == 0x1F) ? 2 : 1;
    if (i >= len)
        return NULL;
    size_t l = b[i++];
    if (l > 0x80) {
        size_t k = l - 0x80;
        if (k > 4 || i + k > len)
            return NULL;
        for (l = 0; k--;)
            l = l << 8 | b[i++];
    } else if (l == 0x80) {
        return NULL;
    }
    if (l > len - i)
        return NULL;
    *vlen = l;
    return b + i;
}

/* DG = tag { inner tag, value } for each item. */
static uint8_t *dg_make(unsigned outer, const unsigned *tag, const uint8_t *const *v,
                        const size_t *len, size_t items, size_t *dglen)
{
    size_t inner = 0;
    for (size_t i = 0; i < items; i++)
        inner += tlv(NULL, tag[i], NULL, len[i]);
    size_t total = 1 + ber_len(NULL, inner) + inner;
    uint8_t *d = malloc(total);
    if (!d)
        return NULL;
    d[0] = (uint8_t)outer;
    size_t o = 1 + ber_len(d + 1, inner);
    for (size_t i = 0; i < items; i++)
        o += tlv(d + o, tag[i], v[i], len[i]);
    *dglen = total;
    return d;
}

/* The public key a DG14 or DG15 carries (its first data object). */
static const uint8_t *dg_key(const uint8_t *dg, size_t len, size_t *klen)
{
    size_t vl;
    const uint8_t *v = tlv_value(dg, len, &vl);
    return v ? tlv_value(v, vl, klen) : NULL;
}

static void put32(uint8_t *o, uint32_t v)
{
    o[0] = (uint8_t)(v >> 24), o[1] = (uint8_t)(v >> 16), o[2] = (uint8_t)(v >> 8),
    o[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* The document-signer certificate (docs/BENCH.md has it byte for byte):
 *   0  "PDSC"   4  version 1   5  suite id   6  serial (4, big-endian)
 *  10  issuer key id: the first 8 bytes of the suite hash of the CSCA's
 *      public key   18  valid from "YYYYMMDD"   26  valid to "YYYYMMDD"
 *  34  public-key length L (4)   38  the DS public key (L)
 *  38+L  signature length S (2)   40+L  the CSCA's signature (S) of bytes
 *      0 .. 38+L-1. */
#define CERT_HEAD 38
static const char cert_from[8] = {'2', '0', '2', '6', '0', '1', '0', '1'};
static const char cert_to[8] = {'2', '0', '3', '6', '1', '2', '3', '1'};

/* The security object ("SOD", simplified: not the CMS of Doc 9303):
 *   0  "PSOD"   4  version 1   5  suite id   6  hash id (1 SHA-1,
 *   2 SHA-256, 3 SHA-512)   7  count k   8  k x (DG number, hash)
 *   then the signature length S (2) and the DS's signature (S) of the
 *   payload before it. */
#define SOD_HEAD 8

/* ---- the runs ---- */

enum {
    PS_LOAD, PS_CHIP_KEYS, PS_BUILD, PS_HASH, PS_PKI, PS_SIGN, PS_PA, PS_VERIFY, PS_AA,
    PS_CA, PS_PACE, PS_TOTAL, PS_CARD_CHIP, PS_CARD_TERMINAL, PS_N
};
#define PS_FLOW PS_TOTAL /* steps 0 .. PS_FLOW-1 make the total */
static const char *const ps_name[PS_N] = {
    "load", "chip_keys", "build", "hash", "pki", "sign", "pa", "verify", "aa", "ca", "pace",
    "total", "aa_card_chip", "aa_card_terminal"};
static const char *const ps_what[PS_N] = {
    "read the five input files",
    "the chip's keys: its AA key pair (the suite) and CA key pair (X25519)",
    "build DG1, DG2, DG3, DG7, DG14 (CA key) and DG15 (AA key)",
    "hash the six data groups (the suite's hash)",
    "CSCA key pair, DS key pair, the DS certificate signed by the CSCA",
    "the DS signs the security object (SOD)",
    "PA: the certificate under the CSCA key, the DS key read from it, the DGs re-hashed",
    "PA: the SOD's signature under that DS key",
    "AA: 8-byte challenge, the chip signs it, the terminal verifies (DG15's key)",
    "CA: X25519 with DG14's key, session keys, the chip's token checked",
    "PACE (simplified): MRZ key, encrypted nonce, X25519, both tokens checked",
    "the sum of the steps above",
    "AA on the card: the card's SIGN (GET CYCLES), simulated time",
    "AA on the card: the terminal's part (challenge, digest, verification)"};
static const char *const ps_role[PS_N] = {
    "issuer", "issuer", "issuer", "issuer", "issuer", "issuer", "terminal", "terminal",
    "chip + terminal", "chip + terminal", "chip + terminal", "all", "chip", "terminal"};

typedef struct {
    double med, q1, q3, min, max, mean;
} qstats;

/* Quartiles by linear interpolation between order statistics (the
 * "type 7" of Hyndman and Fan, numpy's default): the median agrees with
 * summarize()'s. */
static int quartiles(const uint64_t *v, size_t n, qstats *q)
{
    memset(q, 0, sizeof *q);
    if (!n)
        return 0;
    uint64_t *w = sorted_copy(v, n);
    if (!w)
        return -1;
    double at[3], sum = 0;
    for (int k = 0; k < 3; k++) {
        double h = (double)(n - 1) * (k + 1) / 4;
        size_t lo = (size_t)h;
        at[k] = (double)w[lo] + (lo + 1 < n ? (h - (double)lo) * ((double)w[lo + 1] - (double)w[lo]) : 0);
    }
    for (size_t i = 0; i < n; i++)
        sum += (double)w[i];
    q->q1 = at[0], q->med = at[1], q->q3 = at[2];
    q->min = (double)w[0], q->max = (double)w[n - 1], q->mean = sum / (double)n;
    free(w);
    return 0;
}

typedef struct {
    const pp_suite *s;
    const tts_params *p; /* TTS */
    int id;              /* suite id */
    char backend[16];
    int on_card;         /* AA also on the card */
    const char *image;
    uint64_t *ns[PS_N], *cycles; /* per run; the card's steps NULL without it */
    qstats st[PS_N], stc;
    size_t done;
    size_t pk_bytes[3], sig_bytes, cert_bytes, sod_bytes, dg_bytes[PP_NDG];
} pp_result;

/* What one run holds. */
typedef struct {
    uint8_t *in[PP_NINPUTS];
    size_t inlen[PP_NINPUTS], incap[PP_NINPUTS];
    uint8_t *dg[PP_NDG];
    size_t dglen[PP_NDG];
    uint8_t dgh[PP_NDG][64];
    size_t hlen;
    pp_key aa, csca, ds;
    uint8_t ca_pk[32], ca_sk[32];
    uint8_t *cert, *sod;
    size_t certlen, sodlen;
    pp_pub ds_pub; /* the DS key as PA read it from the certificate */
} pp_run;

static void run_clear(pp_run *r)
{
    for (int i = 0; i < PP_NDG; i++) {
        free(r->dg[i]);
        r->dg[i] = NULL;
    }
    key_free(&r->aa);
    key_free(&r->csca);
    key_free(&r->ds);
    pub_free(&r->ds_pub);
    sodium_memzero(r->ca_sk, sizeof r->ca_sk);
    free(r->cert);
    free(r->sod);
    r->cert = r->sod = NULL;
}

static int fail(const pp_result *res, const char *what)
{
    fprintf(stderr, "tts-bench: passport: %s: %s\n", res->s->name, what);
    return -1;
}

/* ICAO's KDF shape: SHA-256(K || counter, 32-bit big-endian). */
static void kdf(uint8_t out[32], const uint8_t *k, size_t klen, uint32_t c)
{
    crypto_hash_sha256_state h;
    uint8_t cb[4];
    put32(cb, c);
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
static int chip_auth(const pp_run *r)
{
    size_t klen;
    const uint8_t *cpk = dg_key(r->dg[DG14], r->dglen[DG14], &klen);
    uint8_t tpk[32], tsk[32], k1[32], k2[32], mac1[32], mac2[32], tok[32];
    if (!cpk || klen != 32)
        return -1;
    x25519_pair(tpk, tsk);
    int rc = crypto_scalarmult(k1, r->ca_sk, tpk); /* chip */
    kdf(mac1, k1, 32, 2);
    crypto_auth_hmacsha256(tok, tpk, 32, mac1);
    rc |= crypto_scalarmult(k2, tsk, cpk); /* terminal */
    kdf(mac2, k2, 32, 2);
    rc |= crypto_auth_hmacsha256_verify(tok, tpk, 32, mac2);
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
static int pace(const pp_run *r)
{
    static const uint8_t n0[crypto_stream_chacha20_NONCEBYTES];
    size_t vl, ml;
    const uint8_t *v = tlv_value(r->dg[DG1], r->dglen[DG1], &vl);
    const uint8_t *mrz = v ? tlv_value(v, vl, &ml) : NULL;
    if (!mrz || (ml != 90 && ml != 72 && ml != 88))
        return -1;
    uint8_t info[24], kpi_c[32], kpi_t[32], s[16], z[16], s2[16];
    uint8_t cpk[32], csk[32], tpk[32], tsk[32], kc[32], kt[32], mc[32], mt[32];
    uint8_t tc[32], tt[32], ks[48];
    mrz_info(mrz, ml, info);
    kdf(kpi_c, info, sizeof info, 3); /* chip (stored at issuance) */
    randombytes_buf(s, sizeof s);
    crypto_stream_chacha20_xor(z, s, sizeof s, n0, kpi_c);
    kdf(kpi_t, info, sizeof info, 3); /* terminal (read the MRZ) */
    crypto_stream_chacha20_xor(s2, z, sizeof z, n0, kpi_t);
    x25519_pair(cpk, csk);
    x25519_pair(tpk, tsk);
    int rc = crypto_scalarmult(kc, csk, tpk);
    memcpy(ks, kc, 32), memcpy(ks + 32, s, 16);
    kdf(mc, ks, 48, 2);
    rc |= crypto_scalarmult(kt, tsk, cpk);
    memcpy(ks, kt, 32), memcpy(ks + 32, s2, 16);
    kdf(mt, ks, 48, 2);
    crypto_auth_hmacsha256(tc, tpk, 32, mc); /* the chip's token */
    crypto_auth_hmacsha256(tt, cpk, 32, mt); /* the terminal's */
    rc |= crypto_auth_hmacsha256_verify(tc, tpk, 32, mt);
    rc |= crypto_auth_hmacsha256_verify(tt, cpk, 32, mc);
    sodium_memzero(kpi_c, sizeof kpi_c), sodium_memzero(kpi_t, sizeof kpi_t);
    sodium_memzero(csk, sizeof csk), sodium_memzero(tsk, sizeof tsk);
    sodium_memzero(kc, sizeof kc), sodium_memzero(kt, sizeof kt), sodium_memzero(ks, sizeof ks);
    sodium_memzero(mc, sizeof mc), sodium_memzero(mt, sizeof mt);
    return rc ? -1 : 0;
}

static int build_dgs(pp_run *r)
{
    uint8_t mrz[96];
    size_t n = mrz_chars(r->in[PP_MRZ], r->inlen[PP_MRZ], mrz);
    const uint8_t *v[2];
    size_t l[2];
    unsigned t[2];
    if (!n)
        return -1;
    v[0] = mrz, l[0] = n, t[0] = 0x5F1F;
    r->dg[DG1] = dg_make(dg_tag[DG1], t, v, l, 1, &r->dglen[DG1]);
    v[0] = r->in[PP_PORTRAIT], l[0] = r->inlen[PP_PORTRAIT], t[0] = 0x5F2E;
    r->dg[DG2] = dg_make(dg_tag[DG2], t, v, l, 1, &r->dglen[DG2]);
    v[0] = r->in[PP_FINGER1], l[0] = r->inlen[PP_FINGER1], t[0] = 0x5F2E;
    v[1] = r->in[PP_FINGER2], l[1] = r->inlen[PP_FINGER2], t[1] = 0x5F2E;
    r->dg[DG3] = dg_make(dg_tag[DG3], t, v, l, 2, &r->dglen[DG3]);
    v[0] = r->in[PP_SIGNATURE], l[0] = r->inlen[PP_SIGNATURE], t[0] = 0x5F43;
    r->dg[DG7] = dg_make(dg_tag[DG7], t, v, l, 1, &r->dglen[DG7]);
    v[0] = r->ca_pk, l[0] = 32, t[0] = 0x04;
    r->dg[DG14] = dg_make(dg_tag[DG14], t, v, l, 1, &r->dglen[DG14]);
    v[0] = r->aa.pk, l[0] = r->aa.pklen, t[0] = 0x04;
    r->dg[DG15] = dg_make(dg_tag[DG15], t, v, l, 1, &r->dglen[DG15]);
    for (int i = 0; i < PP_NDG; i++)
        if (!r->dg[i])
            return -1;
    return 0;
}

static int pki(const pp_result *res, pp_run *r, uint32_t serial)
{
    uint8_t id[64], sig[PP_SIG_MAX];
    size_t siglen;
    if (keygen(res->s, res->p, &r->csca) || keygen(res->s, res->p, &r->ds) ||
        !hash(res->s, r->csca.pk, r->csca.pklen, id))
        return -1;
    size_t tbs = CERT_HEAD + r->ds.pklen;
    if (!(r->cert = malloc(tbs + 2 + PP_SIG_MAX)))
        return -1;
    uint8_t *c = r->cert;
    memcpy(c, "PDSC", 4);
    c[4] = 1, c[5] = (uint8_t)res->id;
    put32(c + 6, serial);
    memcpy(c + 10, id, 8);
    memcpy(c + 18, cert_from, 8);
    memcpy(c + 26, cert_to, 8);
    put32(c + 34, (uint32_t)r->ds.pklen);
    memcpy(c + CERT_HEAD, r->ds.pk, r->ds.pklen);
    if (sign(res->s, res->p, &r->csca, c, tbs, sig, &siglen))
        return -1;
    c[tbs] = (uint8_t)(siglen >> 8), c[tbs + 1] = (uint8_t)siglen;
    memcpy(c + tbs + 2, sig, siglen);
    r->certlen = tbs + 2 + siglen;
    return 0;
}

/* The DS key and its certificate's parts; -1 if malformed. */
static int cert_parse(const pp_result *res, const uint8_t *c, size_t len, const uint8_t **pk,
                      size_t *pklen, size_t *tbs, const uint8_t **sig, size_t *siglen)
{
    if (len < CERT_HEAD + 2 || memcmp(c, "PDSC", 4) || c[4] != 1 || c[5] != res->id)
        return -1;
    size_t l = get32(c + 34);
    if (l > len - CERT_HEAD - 2)
        return -1;
    *pk = c + CERT_HEAD, *pklen = l, *tbs = CERT_HEAD + l;
    *siglen = (size_t)c[*tbs] << 8 | c[*tbs + 1];
    *sig = c + *tbs + 2;
    return *tbs + 2 + *siglen == len ? 0 : -1;
}

static int sod_sign(const pp_result *res, pp_run *r)
{
    size_t pay = SOD_HEAD + PP_NDG * (1 + r->hlen), siglen;
    if (!(r->sod = malloc(pay + 2 + PP_SIG_MAX)))
        return -1;
    uint8_t *o = r->sod;
    memcpy(o, "PSOD", 4);
    o[4] = 1, o[5] = (uint8_t)res->id;
    o[6] = (uint8_t)(res->s->hash + 1), o[7] = PP_NDG;
    for (int i = 0; i < PP_NDG; i++) {
        o[SOD_HEAD + i * (1 + r->hlen)] = dg_number[i];
        memcpy(o + SOD_HEAD + i * (1 + r->hlen) + 1, r->dgh[i], r->hlen);
    }
    if (sign(res->s, res->p, &r->ds, o, pay, o + pay + 2, &siglen))
        return -1;
    o[pay] = (uint8_t)(siglen >> 8), o[pay + 1] = (uint8_t)siglen;
    r->sodlen = pay + 2 + siglen;
    return 0;
}

/* Passive Authentication's signature: the SOD under the DS key read from
 * the certificate (pa_check). */
static int sod_verify(const pp_result *res, const pp_run *r, const uint8_t *sod, size_t sodlen)
{
    if (sodlen < SOD_HEAD + 2 || memcmp(sod, "PSOD", 4) || sod[4] != 1 || sod[5] != res->id ||
        sod[7] != PP_NDG)
        return -1;
    size_t pay = SOD_HEAD + (size_t)sod[7] * (1 + r->hlen);
    if (pay + 2 > sodlen)
        return -1;
    size_t siglen = (size_t)sod[pay] << 8 | sod[pay + 1];
    if (pay + 2 + siglen != sodlen)
        return -1;
    return verify(res->s, res->p, &r->ds_pub, sod, pay, sod + pay + 2, siglen);
}

/* Passive Authentication but for the SOD's signature: the certificate
 * under the CSCA key (the terminal's trust anchor, read from its
 * encoding) with the issuer's key id, the DS key read from it into
 * r->ds_pub (NULL: not kept), and the data groups dg[] re-hashed against
 * the SOD's. Returns 0, -1 on a bad certificate, 1 on a data group that
 * does not match. */
static int pa_check(const pp_result *res, pp_run *r, uint8_t *const *dg, const size_t *dglen,
                    int skip_dg, pp_pub *ds_pub)
{
    const uint8_t *pk, *sig;
    size_t pklen, tbs, siglen;
    uint8_t id[64], h[64];
    pp_pub anchor, ds;
    if (cert_parse(res, r->cert, r->certlen, &pk, &pklen, &tbs, &sig, &siglen) ||
        !hash(res->s, r->csca.pk, r->csca.pklen, id) || memcmp(id, r->cert + 10, 8) ||
        pub_read(res->s, r->csca.pk, r->csca.pklen, &anchor))
        return -1;
    int rc = verify(res->s, res->p, &anchor, r->cert, tbs, sig, siglen);
    pub_free(&anchor);
    if (rc || pub_read(res->s, pk, pklen, &ds))
        return -1;
    if (ds_pub)
        *ds_pub = ds;
    else
        pub_free(&ds);
    int bad = 0;
    for (int i = 0; i < PP_NDG; i++) {
        const uint8_t *e = r->sod + SOD_HEAD + i * (1 + r->hlen);
        if (hash(res->s, dg[i], dglen[i], h) != r->hlen)
            return -1;
        if (!skip_dg && (e[0] != dg_number[i] || sodium_memcmp(h, e + 1, r->hlen) != 0))
            bad = 1;
    }
    return bad;
}

/* Active Authentication with the chip on the host. */
static int active_auth(const pp_result *res, const pp_run *r)
{
    uint8_t ch[8], sig[PP_SIG_MAX];
    size_t siglen, klen;
    randombytes_buf(ch, sizeof ch);
    if (sign(res->s, res->p, &r->aa, ch, sizeof ch, sig, &siglen))
        return -1;
    const uint8_t *pk = dg_key(r->dg[DG15], r->dglen[DG15], &klen);
    pp_pub pub;
    if (!pk || pub_read(res->s, pk, klen, &pub))
        return -1;
    int rc = verify(res->s, res->p, &pub, ch, sizeof ch, sig, siglen);
    pub_free(&pub);
    return rc;
}

/* Active Authentication with the chip on the card: the terminal's part is
 * timed on the host, the card's SIGN in machine cycles. */
static int card_aa(pp_result *res, const pp_run *r, const passport_card *card, size_t run)
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
    const uint8_t *pk = dg_key(r->dg[DG15], r->dglen[DG15], &klen);
    pp_pub pub;
    int rc = !pk || pub_read(res->s, pk, klen, &pub)
                 ? -1
                 : verify(res->s, res->p, &pub, ch, sizeof ch, sig, tts_sig_bytes(res->p));
    uint64_t t3 = now_ns();
    if (rc)
        return fail(res, "the card's Active Authentication signature does not verify");
    res->ns[PS_CARD_TERMINAL][run] = (t1 - t0) + (t3 - t2);
    res->ns[PS_CARD_CHIP][run] =
        (uint64_t)((double)res->cycles[run] * card->clocks * 1000.0 / card->mhz + 0.5);
    return 0;
}

static int one_run(pp_result *res, pp_run *r, const passport_opts *po, size_t run)
{
    uint64_t t[PS_FLOW + 1];
    char err[600];
    t[PS_LOAD] = now_ns();
    for (int i = 0; i < PP_NINPUTS; i++)
        if (load(po->input[i], &r->in[i], &r->incap[i], &r->inlen[i], err, sizeof err))
            return fail(res, err);
    t[PS_CHIP_KEYS] = now_ns();
    if (keygen(res->s, res->p, &r->aa))
        return fail(res, "the chip's AA key generation failed");
    x25519_pair(r->ca_pk, r->ca_sk);
    t[PS_BUILD] = now_ns();
    if (build_dgs(r))
        return fail(res, "building the data groups failed (the MRZ is not one)");
    t[PS_HASH] = now_ns();
    for (int i = 0; i < PP_NDG; i++)
        if (!(r->hlen = hash(res->s, r->dg[i], r->dglen[i], r->dgh[i])))
            return fail(res, "hashing failed");
    t[PS_PKI] = now_ns();
    if (pki(res, r, (uint32_t)run + 1))
        return fail(res, "the PKI set-up (keys, certificate) failed");
    t[PS_SIGN] = now_ns();
    if (sod_sign(res, r))
        return fail(res, "signing the security object failed");
    t[PS_PA] = now_ns();
    if (pa_check(res, r, r->dg, r->dglen, po->skip_dg_check, &r->ds_pub))
        return fail(res, "Passive Authentication failed (certificate or data groups)");
    t[PS_VERIFY] = now_ns();
    if (sod_verify(res, r, r->sod, r->sodlen))
        return fail(res, "the security object's signature does not verify");
    t[PS_AA] = now_ns();
    if (active_auth(res, r))
        return fail(res, "the Active Authentication signature does not verify");
    t[PS_CA] = now_ns();
    if (chip_auth(r))
        return fail(res, "Chip Authentication failed");
    t[PS_PACE] = now_ns();
    if (pace(r))
        return fail(res, "PACE failed");
    t[PS_FLOW] = now_ns();
    for (int s = 0; s < PS_FLOW; s++)
        res->ns[s][run] = t[s + 1] - t[s];
    res->ns[PS_TOTAL][run] = t[PS_FLOW] - t[PS_LOAD];

    /* The tamper checks (untimed): one byte of the portrait changed must
     * fail the data-group comparison, one byte of a hash in the SOD its
     * signature. */
    uint8_t *dg2 = malloc(r->dglen[DG2]), *sod = malloc(r->sodlen), *dgs[PP_NDG];
    if (!dg2 || !sod) {
        free(dg2), free(sod);
        return fail(res, "out of memory");
    }
    memcpy(dg2, r->dg[DG2], r->dglen[DG2]);
    dg2[r->dglen[DG2] / 2] ^= 0x01;
    memcpy(dgs, r->dg, sizeof dgs);
    dgs[DG2] = dg2;
    memcpy(sod, r->sod, r->sodlen);
    sod[SOD_HEAD + 1 + 1 * (1 + r->hlen)] ^= 0x80; /* DG2's hash */
    int dg_rc = pa_check(res, r, dgs, r->dglen, po->skip_dg_check, NULL);
    int sod_rc = sod_verify(res, r, sod, r->sodlen);
    free(dg2), free(sod);
    if (dg_rc != 1)
        return fail(res, dg_rc == 0 ? "a tampered DG2 passed Passive Authentication"
                                    : "the tamper check failed to run");
    if (sod_rc == 0)
        return fail(res, "a tampered security object passed its signature check");

    if (res->on_card && card_aa(res, r, po->card, run))
        return -1;
    res->pk_bytes[0] = r->csca.pklen, res->pk_bytes[1] = r->ds.pklen;
    res->pk_bytes[2] = r->aa.pklen;
    res->sig_bytes = r->sodlen - (SOD_HEAD + PP_NDG * (1 + r->hlen)) - 2;
    res->cert_bytes = r->certlen, res->sod_bytes = r->sodlen;
    for (int i = 0; i < PP_NDG; i++)
        res->dg_bytes[i] = r->dglen[i];
    res->done = run + 1;
    return 0;
}

/* ---- reports ---- */

static double ms(double ns) { return ns / 1e6; }

static const pp_result *find(const pp_result *v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].s->name, name) == 0)
            return &v[i];
    return NULL;
}

/* The study's figures (docs/SPEC.md section 12.5), ms. */
static const struct {
    const char *suite, *here;
    double sign, verify, pipeline;
} published[] = {
    {"ECDSA", "ECDSA-P-256", 0.12, 0.08, 1.6},
    {"ML-DSA-44", NULL, 0.19, 0.07, 3.8},
    {"SLH-DSA", NULL, 19, 1.2, 89},
};
static const char caveat[] =
    "the study's stack is Python over liboqs (Open Quantum Safe) on an Intel x86-64 laptop, "
    "with its own inputs and step boundaries; here C over OpenSSL, libsodium and libtts. "
    "Compare orders of magnitude and ratios within one run, not absolute figures.";

static void print_text(FILE *f, const pp_result *v, size_t n, const passport_opts *po,
                       const env *e, const size_t *inbytes)
{
    char clk[256];
    env_clock_text(e, clk, sizeof clk);
    fprintf(f, "# cpu: %s (%ld cores); compiler: %s; %s\n# cpu id: %s\n", e->cpu, e->cores,
            COMPILER, e->os, clk);
    fprintf(f, "# %s; libsodium %s; libtts %s, backend %s; %s\n",
            OpenSSL_version(OPENSSL_VERSION), sodium_version_string(), TTS_VERSION_STRING,
            e->autob, e->date);
    fprintf(f, "# status: %s\n", TTS_BROKEN_NOTE);
    fprintf(f, "# a TTS suite's DS and AA keys come out of the DS certificate and DG15 with "
               "`tts-challenge break --pk` (TTS(20,28): under 0.1 s; TTS(36,50): minutes; "
               "docs/SECURITY.md)\n");
    fprintf(f, "# inputs:");
    for (int i = 0; i < PP_NINPUTS; i++)
        fprintf(f, " %s %zu B (%s)%s", pp_input_names[i], inbytes[i],
                po->given[i] ? po->input[i] : "synthetic", i + 1 < PP_NINPUTS ? "," : "\n");
    fprintf(f, "# every signature verified; in every run a tampered DG2 failed Passive "
               "Authentication and a tampered SOD its signature check\n");
    fprintf(f, "# CA and PACE: X25519 (libsodium) for every suite\n");
    fprintf(f, "# steps (who; what):\n");
    for (int s = 0; s < PS_N; s++)
        if (s < PS_CARD_CHIP || po->card)
            fprintf(f, "#   %-17s %-16s %s\n", ps_name[s], ps_role[s], ps_what[s]);
    fprintf(f, "\ntimes in ms: median, quartiles and extremes of %zu runs\n", po->runs);
    for (size_t k = 0; k < n; k++) {
        const pp_result *r = &v[k];
        fprintf(f, "\n%s (%s; hash %s): public keys %zu B, signature %zu B, certificate "
                   "%zu B, SOD %zu B, DG15 %zu B\n",
                r->s->name, r->backend, r->s->hash_name, r->pk_bytes[1], r->sig_bytes,
                r->cert_bytes, r->sod_bytes, r->dg_bytes[DG15]);
        fprintf(f, "  %-17s %-5s %11s %11s %11s %11s %11s\n", "step", "where", "median", "q1",
                "q3", "min", "max");
        for (int s = 0; s < PS_N; s++) {
            if (!r->ns[s])
                continue;
            const qstats *q = &r->st[s];
            fprintf(f, "  %-17s %-5s %11.4f %11.4f %11.4f %11.4f %11.4f\n", ps_name[s],
                    s == PS_CARD_CHIP ? "card" : "host", ms(q->med), ms(q->q1), ms(q->q3),
                    ms(q->min), ms(q->max));
        }
    }
    fprintf(f, "\nsummary, medians in ms (sign = the SOD's signature, verify = its "
               "verification, total = the whole flow)\n");
    fprintf(f, "%-14s %10s %10s %10s %10s %10s %10s %11s\n", "suite", "pki", "sign", "verify",
            "aa", "ca+pace", "total", "total/ECDSA");
    const pp_result *ec = find(v, n, "ECDSA-P-256");
    for (size_t k = 0; k < n; k++) {
        const pp_result *r = &v[k];
        fprintf(f, "%-14s %10.4f %10.4f %10.4f %10.4f %10.4f %10.4f", r->s->name,
                ms(r->st[PS_PKI].med), ms(r->st[PS_SIGN].med), ms(r->st[PS_VERIFY].med),
                ms(r->st[PS_AA].med), ms(r->st[PS_CA].med + r->st[PS_PACE].med),
                ms(r->st[PS_TOTAL].med));
        if (ec)
            fprintf(f, " %10.2fx\n", r->st[PS_TOTAL].med / ec->st[PS_TOTAL].med);
        else
            fprintf(f, " %11s\n", "-");
    }
    if (po->card) {
        fprintf(f, "\nActive Authentication on the card (%s core, %g MHz, %dT, in the "
                   "simulator) beside the host, medians:\n",
                po->card->cpu, po->card->mhz, po->card->clocks);
        fprintf(f, "%-14s %-22s %12s %12s %14s %12s %12s\n", "suite", "image", "SIGN cycles",
                "card ms", "terminal ms", "card AA ms", "host AA ms");
        for (size_t k = 0; k < n; k++) {
            const pp_result *r = &v[k];
            if (!r->on_card) {
                fprintf(f, "%-14s %-22s %12s %12s %14s %12s %12.4f\n", r->s->name,
                        "(host only)", "-", "-", "-", "-", ms(r->st[PS_AA].med));
                continue;
            }
            fprintf(f, "%-14s %-22s %12.0f %12.2f %14.4f %12.2f %12.4f\n", r->s->name,
                    r->image, r->stc.med, ms(r->st[PS_CARD_CHIP].med),
                    ms(r->st[PS_CARD_TERMINAL].med),
                    ms(r->st[PS_CARD_CHIP].med + r->st[PS_CARD_TERMINAL].med),
                    ms(r->st[PS_AA].med));
        }
        fprintf(f, "where: the chip's signature on the card (simulated time = SIGN's machine "
                   "cycles x %d / %g MHz); the terminal's part and every other step on the "
                   "host\n",
                po->card->clocks, po->card->mhz);
    }
    if (po->published) {
        fprintf(f, "\npublished (the ePassport-issuance study) beside this run, ms\n");
        fprintf(f, "%-10s %8s %8s %9s | %-14s %8s %8s %9s\n", "suite", "sign", "verify",
                "pipeline", "here", "sign", "verify", "total");
        for (size_t i = 0; i < COUNT(published); i++) {
            const pp_result *r = published[i].here ? find(v, n, published[i].here) : NULL;
            fprintf(f, "%-10s %8.2f %8.2f %9.1f | ", published[i].suite, published[i].sign,
                    published[i].verify, published[i].pipeline);
            if (r)
                fprintf(f, "%-14s %8.4f %8.4f %9.4f\n", r->s->name, ms(r->st[PS_SIGN].med),
                        ms(r->st[PS_VERIFY].med), ms(r->st[PS_TOTAL].med));
            else
                fprintf(f, "%s\n", published[i].here ? "(not run)" : "not implemented here");
        }
        fprintf(f, "caveat: %s\n", caveat);
    }
}

static void json_q(FILE *f, const qstats *q)
{
    fprintf(f, "{\"median\": %.1f, \"q1\": %.1f, \"q3\": %.1f, \"min\": %.1f, \"max\": %.1f, "
               "\"mean\": %.1f}",
            q->med, q->q1, q->q3, q->min, q->max, q->mean);
}

static void json_u64(FILE *f, const uint64_t *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)v[i]);
    fputc(']', f);
}

static void json_report(FILE *f, const pp_result *v, size_t n, const passport_opts *po,
                        const size_t *inbytes)
{
    fprintf(f, ",\n  \"quartiles\": \"linear interpolation between order statistics (type 7)\"");
    fprintf(f, ",\n  \"inputs\": [");
    for (int i = 0; i < PP_NINPUTS; i++) {
        fprintf(f, "%s\n    {\"name\": \"%s\", \"bytes\": %zu, \"file\": ", i ? "," : "",
                pp_input_names[i], inbytes[i]);
        if (po->given[i])
            json_write_str(f, po->input[i]);
        else
            fprintf(f, "null");
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"steps\": [");
    for (int s = 0; s < PS_N; s++) {
        fprintf(f, "%s\n    {\"step\": \"%s\", \"role\": \"%s\", \"what\": ", s ? "," : "",
                ps_name[s], ps_role[s]);
        json_write_str(f, ps_what[s]);
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"card\": ");
    if (po->card)
        fprintf(f, "{\"cpu\": \"%s\", \"mhz\": %g, \"clocks_per_cycle\": %d}", po->card->cpu,
                po->card->mhz, po->card->clocks);
    else
        fprintf(f, "null");
    fprintf(f, ",\n  \"results\": [");
    for (size_t k = 0; k < n; k++) {
        const pp_result *r = &v[k];
        fprintf(f, "%s\n    {\"suite\": \"%s\", \"family\": \"%s\", \"backend\": \"%s\", "
                   "\"hash\": \"%s\", \"runs\": %zu,\n",
                k ? "," : "", r->s->name, r->s->family, r->backend, r->s->hash_name, r->done);
        fprintf(f, "     \"bytes\": {\"csca_pk\": %zu, \"ds_pk\": %zu, \"aa_pk\": %zu, "
                   "\"signature\": %zu, \"certificate\": %zu, \"sod\": %zu, \"dg\": [",
                r->pk_bytes[0], r->pk_bytes[1], r->pk_bytes[2], r->sig_bytes, r->cert_bytes,
                r->sod_bytes);
        for (int i = 0; i < PP_NDG; i++)
            fprintf(f, "%s%zu", i ? ", " : "", r->dg_bytes[i]);
        fprintf(f, "]},\n     \"verified\": true, \"tamper_rejected\": true,\n     \"card\": ");
        if (r->on_card) {
            fprintf(f, "{\"image\": ");
            json_write_str(f, r->image);
            fprintf(f, ", \"sign_cycles\": ");
            json_q(f, &r->stc);
            fprintf(f, ", \"sign_cycles_per_run\": ");
            json_u64(f, r->cycles, r->done);
            fprintf(f, "}");
        } else {
            fprintf(f, "null");
        }
        fprintf(f, ",\n     \"steps\": {");
        int first = 1;
        for (int s = 0; s < PS_N; s++) {
            if (!r->ns[s])
                continue;
            fprintf(f, "%s\n       \"%s\": {\"where\": \"%s\", \"ns\": ", first ? "" : ",",
                    ps_name[s], s == PS_CARD_CHIP ? "card" : "host");
            json_q(f, &r->st[s]);
            fprintf(f, ", \"ns_per_run\": ");
            json_u64(f, r->ns[s], r->done);
            fprintf(f, "}");
            first = 0;
        }
        fprintf(f, "}}");
    }
    fprintf(f, "\n  ]");
    if (po->published) {
        fprintf(f, ",\n  \"published\": {\"caveat\": ");
        json_write_str(f, caveat);
        fprintf(f, ", \"rows\": [");
        for (size_t i = 0; i < COUNT(published); i++) {
            const pp_result *r = published[i].here ? find(v, n, published[i].here) : NULL;
            fprintf(f, "%s\n    {\"suite\": \"%s\", \"measured_as\": ", i ? "," : "",
                    published[i].suite);
            if (published[i].here)
                json_write_str(f, published[i].here);
            else
                fprintf(f, "null");
            fprintf(f, ", \"sign_ms\": %.6g, \"verify_ms\": %.6g, \"pipeline_ms\": %.6g, "
                       "\"today_ms\": ",
                    published[i].sign, published[i].verify, published[i].pipeline);
            if (r)
                fprintf(f, "{\"sign\": %.6g, \"verify\": %.6g, \"total\": %.6g}",
                        ms(r->st[PS_SIGN].med), ms(r->st[PS_VERIFY].med),
                        ms(r->st[PS_TOTAL].med));
            else
                fprintf(f, "null");
            fprintf(f, "}");
        }
        fprintf(f, "\n  ]}");
    }
}

/* Long form: suite, family, backend, step, where, row (min, q1, median,
 * q3, max, mean, then the runs 1..N), ns, and cycles on the card's rows. */
static void csv_report(FILE *f, const pp_result *v, size_t n)
{
    static const char *const agg[6] = {"min", "q1", "median", "q3", "max", "mean"};
    fprintf(f, "suite,family,backend,step,where,row,ns,cycles\n");
    for (size_t k = 0; k < n; k++) {
        const pp_result *r = &v[k];
        for (int s = 0; s < PS_N; s++) {
            if (!r->ns[s])
                continue;
            const qstats *q = &r->st[s];
            const double a[6] = {q->min, q->q1, q->med, q->q3, q->max, q->mean};
            const double c[6] = {r->stc.min, r->stc.q1, r->stc.med, r->stc.q3, r->stc.max,
                                 r->stc.mean};
            for (size_t row = 0; row < 6 + r->done; row++) {
                fprintf(f, "\"%s\",%s,%s,%s,%s,", r->s->name, r->s->family, r->backend,
                        ps_name[s], s == PS_CARD_CHIP ? "card" : "host");
                if (row < 6)
                    fprintf(f, "%s,%.1f,", agg[row], a[row]);
                else
                    fprintf(f, "%zu,%llu,", row - 5, (unsigned long long)r->ns[s][row - 6]);
                if (s == PS_CARD_CHIP && row < 6)
                    fprintf(f, "%.1f", c[row]);
                else if (s == PS_CARD_CHIP)
                    fprintf(f, "%llu", (unsigned long long)r->cycles[row - 6]);
                fprintf(f, "\n");
            }
        }
    }
}

/* Grouped bars: a group per step, a bar per suite, the median with the
 * quartiles as error bars, on a log axis (a TTS verification and an RSA
 * key generation are five orders of magnitude apart). */
static int plot_report(const char *dir, const pp_result *v, size_t n, const env *e)
{
    FILE *f = plot_stream(dir, "passport.dat");
    if (!f)
        return -1;
    fprintf(f, "# tts-bench passport: step, then per suite median, q1, q3 in ms (? = none)\n");
    fprintf(f, "# step");
    for (size_t k = 0; k < n; k++)
        fprintf(f, " \"%s\" q1 q3", v[k].s->name);
    fprintf(f, "\n");
    for (int s = 0; s < PS_N; s++) {
        int any = 0;
        for (size_t k = 0; k < n; k++)
            any |= v[k].ns[s] != NULL;
        if (!any)
            continue;
        fprintf(f, "%s", ps_name[s]);
        for (size_t k = 0; k < n; k++)
            if (v[k].ns[s])
                fprintf(f, " %.6f %.6f %.6f", ms(v[k].st[s].med), ms(v[k].st[s].q1),
                        ms(v[k].st[s].q3));
            else
                fprintf(f, " ? ? ?");
        fprintf(f, "\n");
    }
    if (plot_stream_close(f, dir, "passport.dat") || !(f = plot_stream(dir, "passport.gp")))
        return -1;
    fprintf(f, "# tts-bench passport: per-step cost of the issuance flow per suite.\n"
               "# Data in passport.dat; charts passport.svg and passport.png. Re-run: "
               "gnuplot passport.gp\n"
               "set datafile missing \"?\"\n"
               "set title \"tts-bench passport: median per step, quartiles as error bars, ");
    for (const char *c = e->where; *c; c++)
        if (*c != '"' && *c != '\\')
            fputc(*c, f);
    fprintf(f, ", %s\"\n"
               "set style data histograms\n"
               "set style histogram errorbars gap 2 lw 1\n"
               "set style fill solid 0.85 border -1\n"
               "set logscale y\n"
               "set ylabel \"time, ms (log scale)\"\n"
               "set xtics rotate by -45 scale 0 nomirror\n"
               "set grid ytics\n"
               "set key outside right top\n"
               "set bmargin 8\n",
            e->date);
    plot_terminals(f, 1400, 700);
    fprintf(f, "  set output \"passport.\" . fmt\n  plot ");
    for (size_t k = 0; k < n; k++)
        fprintf(f, "%s\"passport.dat\" using %zu:%zu:%zu%s title \"%s%s\"", k ? ", \\\n    " : "",
                2 + 3 * k, 3 + 3 * k, 4 + 3 * k, k ? "" : ":xtic(1)", v[k].s->name,
                broken_mark(v[k].s->name));
    fprintf(f, "\n  set output\n}\n");
    if (plot_stream_close(f, dir, "passport.gp"))
        return -1;
    return plot_render(dir, "passport.gp", "passport.dat");
}

int cmd_passport(const passport_opts *po, FILE *out, outputs *o, const char *autob)
{
    pp_result res[PP_MAX_SUITES];
    size_t n = 0;
    memset(res, 0, sizeof res);
    for (size_t i = 0; i < PP_MAX_SUITES; i++) {
        int want = po->nsuites == 0;
        for (size_t j = 0; j < po->nsuites; j++)
            want |= strcasecmp(po->suite[j], suites[i].name) == 0;
        if (!want)
            continue;
        pp_result *r = &res[n++];
        r->s = &suites[i];
        r->id = (int)i + 1;
        if (r->s->kind == K_TTS) {
            r->p = tts_params_get(r->s->name);
            snprintf(r->backend, sizeof r->backend, "%s", autob);
            r->image = po->card ? po->card->image(po->card->ctx, r->p) : NULL;
            r->on_card = r->image != NULL;
        } else {
            snprintf(r->backend, sizeof r->backend, "%s", r->s->lib);
        }
    }
    env e;
    get_env(&e, autob);
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++)
        for (int s = 0; s < PS_N && !rc; s++) {
            if (s >= PS_CARD_CHIP && !res[k].on_card)
                continue;
            rc = !(res[k].ns[s] = calloc(po->runs, sizeof(uint64_t)));
            if (!rc && s == PS_CARD_CHIP)
                rc = !(res[k].cycles = calloc(po->runs, sizeof(uint64_t)));
        }
    pp_run r;
    memset(&r, 0, sizeof r);
    progress pr;
    progress_start(&pr);
    /* runs outer, suites round-robin within a run: no suite is always the
     * first to touch the inputs */
    for (size_t run = 0; run < po->runs && !rc; run++) {
        for (size_t k = 0; k < n && !rc; k++) {
            rc = one_run(&res[k], &r, po, run) != 0;
            run_clear(&r);
        }
        char text[64];
        snprintf(text, sizeof text, "passport: run %zu/%zu", run + 1, po->runs);
        progress_show(&pr, text);
    }
    progress_end(&pr);
    size_t inbytes[PP_NINPUTS];
    for (int i = 0; i < PP_NINPUTS; i++) {
        inbytes[i] = r.inlen[i];
        free(r.in[i]);
    }
    for (size_t k = 0; k < n && !rc; k++) {
        for (int s = 0; s < PS_N && !rc; s++)
            rc = res[k].ns[s] && quartiles(res[k].ns[s], res[k].done, &res[k].st[s]);
        if (!rc && res[k].cycles)
            rc = quartiles(res[k].cycles, res[k].done, &res[k].stc);
    }
    if (rc) {
        outputs_discard(o);
    } else {
        print_text(out, res, n, po, &e, inbytes);
        fflush(out);
        skiplist none = {.n = 0};
        if (o->jf) {
            json_head(o->jf, "passport", 0, po->runs, &e, &none, NULL);
            json_report(o->jf, res, n, po, inbytes);
            rc |= json_end(o->jf, o->json);
        }
        if (o->cf) {
            csv_head(o->cf, "passport", 0, po->runs, &e, &none, NULL);
            csv_report(o->cf, res, n);
            rc |= csv_end(o->cf, o->csv);
        }
        if (o->plot)
            rc |= plot_report(o->plot, res, n, &e);
    }
    for (size_t k = 0; k < n; k++) {
        for (int s = 0; s < PS_N; s++)
            free(res[k].ns[s]);
        free(res[k].cycles);
    }
    return rc ? 1 : 0;
}
