/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The issuing state's side of the ePassport experiment (passport_int.h):
 * the holder's inputs, the data groups, the certificates and the security
 * object. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "passport_int.h"

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
int pp_load(const char *path, uint8_t **buf, size_t *cap, size_t *len, char *err,
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
size_t pp_mrz_chars(const uint8_t *in, size_t len, uint8_t out[96])
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
        if (pp_load(po->input[i], &buf, &cap, &len, why, sizeof why)) {
            snprintf(err, errlen, "%s: %s", pp_input_names[i], why);
            rc = -1;
        } else if (len > PP_INPUT_MAX || len == 0) {
            snprintf(err, errlen, "%s: %s: %s", pp_input_names[i], po->input[i],
                     len ? "larger than 16 MB" : "empty");
            rc = -1;
        } else if (i == PP_MRZ && !pp_mrz_chars(buf, len, mrz)) {
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

/* ---- data groups ---- */

/* The data groups: a simplified LDS (ICAO Doc 9303 part 10): the DG's tag
 * around one data object per item, BER lengths. */
const uint8_t dg_number[PP_NDG] = {1, 2, 3, 7, 14, 15};
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
const uint8_t *pp_tlv_value(const uint8_t *b, size_t len, size_t *vlen)
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
const uint8_t *pp_dg_key(const uint8_t *dg, size_t len, size_t *klen)
{
    size_t vl;
    const uint8_t *v = pp_tlv_value(dg, len, &vl);
    return v ? pp_tlv_value(v, vl, klen) : NULL;
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

int pp_build_dgs(pp_run *r)
{
    uint8_t mrz[96];
    size_t n = pp_mrz_chars(r->in[PP_MRZ], r->inlen[PP_MRZ], mrz);
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

/* ---- certificates and the security object ---- */

/* A certificate (docs/BENCH.md has it byte for byte):
 *   0  magic ("PDSC": the document signer's; "PCVC": a Terminal
 *      Authentication certificate)   4  version 1   5  suite id
 *   6  serial (4, big-endian)   10  issuer key id: the first 8 bytes of
 *      the document hash of the issuer's public key   18  valid from
 *      "YYYYMMDD"   26  valid to "YYYYMMDD"   34  public-key length L (4)
 *  38  the subject's public key (L)   38+L  signature length S (2)
 *  40+L  the issuer's signature (S) of bytes 0 .. 38+L-1. */
#define CERT_HEAD 38
static const char cert_from[8] = {'2', '0', '2', '6', '0', '1', '0', '1'};
static const char cert_to[8] = {'2', '0', '3', '6', '1', '2', '3', '1'};

int pp_cert_make(const pp_result *res, int hash, const char magic[4], const pp_key *issuer,
                 const pp_key *subject, uint32_t serial, uint8_t **out, size_t *outlen)
{
    uint8_t id[64];
    size_t siglen, tbs = CERT_HEAD + subject->pklen;
    if (!pp_hash(hash, issuer->pk, issuer->pklen, id) || !(*out = malloc(tbs + 2 + PP_SIG_MAX)))
        return -1;
    uint8_t *c = *out;
    memcpy(c, magic, 4);
    c[4] = 1, c[5] = (uint8_t)res->id;
    put32(c + 6, serial);
    memcpy(c + 10, id, 8);
    memcpy(c + 18, cert_from, 8);
    memcpy(c + 26, cert_to, 8);
    put32(c + 34, (uint32_t)subject->pklen);
    memcpy(c + CERT_HEAD, subject->pk, subject->pklen);
    if (pp_sign(res->s, res->p, issuer, c, tbs, c + tbs + 2, &siglen))
        return -1;
    c[tbs] = (uint8_t)(siglen >> 8), c[tbs + 1] = (uint8_t)siglen;
    *outlen = tbs + 2 + siglen;
    return 0;
}

int pp_cert_parse(const pp_result *res, const char magic[4], const uint8_t *c, size_t len,
                  const uint8_t **pk, size_t *pklen, size_t *tbs, const uint8_t **sig,
                  size_t *siglen)
{
    if (len < CERT_HEAD + 2 || memcmp(c, magic, 4) || c[4] != 1 || c[5] != res->id)
        return -1;
    size_t l = get32(c + 34);
    if (l > len - CERT_HEAD - 2)
        return -1;
    *pk = c + CERT_HEAD, *pklen = l, *tbs = CERT_HEAD + l;
    *siglen = (size_t)c[*tbs] << 8 | c[*tbs + 1];
    *sig = c + *tbs + 2;
    return *tbs + 2 + *siglen == len ? 0 : -1;
}

/* The security object ("SOD", simplified: not the CMS of Doc 9303):
 *   0  "PSOD"   4  version 1   5  suite id   6  hash id (1 SHA-1,
 *   2 SHA-256, 3 SHA-512)   7  count k   8  k x (DG number, hash)
 *   then the signature length S (2) and the DS's signature (S) of the
 *   payload before it. As sent (EF.SOD), the DS certificate follows it. */
int pp_sod_sign(const pp_result *res, pp_run *r)
{
    size_t pay = SOD_HEAD + PP_NDG * (1 + r->hlen), siglen;
    if (!(r->sod = malloc(pay + 2 + PP_SIG_MAX)))
        return -1;
    uint8_t *o = r->sod;
    memcpy(o, "PSOD", 4);
    o[4] = 1, o[5] = (uint8_t)res->id;
    o[6] = (uint8_t)(r->hash + 1), o[7] = PP_NDG;
    for (int i = 0; i < PP_NDG; i++) {
        o[SOD_HEAD + i * (1 + r->hlen)] = dg_number[i];
        memcpy(o + SOD_HEAD + i * (1 + r->hlen) + 1, r->dgh[i], r->hlen);
    }
    if (pp_sign(res->s, res->p, &r->ds, o, pay, o + pay + 2, &siglen))
        return -1;
    o[pay] = (uint8_t)(siglen >> 8), o[pay + 1] = (uint8_t)siglen;
    r->sodlen = pay + 2 + siglen;
    return 0;
}

int pp_sod_parse(const pp_result *res, const pp_run *r, const uint8_t *sod, size_t sodlen,
                 size_t *pay, const uint8_t **sig, size_t *siglen)
{
    if (sodlen < SOD_HEAD + 2 || memcmp(sod, "PSOD", 4) || sod[4] != 1 || sod[5] != res->id ||
        sod[6] != r->hash + 1 || sod[7] != PP_NDG)
        return -1;
    *pay = SOD_HEAD + (size_t)sod[7] * (1 + r->hlen);
    if (*pay + 2 > sodlen)
        return -1;
    *siglen = (size_t)sod[*pay] << 8 | sod[*pay + 1];
    *sig = sod + *pay + 2;
    return *pay + 2 + *siglen == sodlen ? 0 : -1;
}

/* ---- the run's state ---- */

void pp_run_clear(pp_run *r)
{
    for (int i = 0; i < PP_NDG; i++) {
        free(r->dg[i]);
        r->dg[i] = NULL;
    }
    pp_key *keys[] = {&r->aa, &r->csca, &r->ds, &r->cvca, &r->dv, &r->is};
    for (size_t i = 0; i < COUNT(keys); i++)
        pp_key_free(keys[i]);
    pp_pub_free(&r->anchor);
    pp_pub_free(&r->ds_pub);
    pp_pub_free(&r->aa_pub);
    sodium_memzero(r->ca_sk, sizeof r->ca_sk);
    uint8_t **bufs[] = {&r->cert, &r->sod, &r->dv_cert, &r->is_cert};
    for (size_t i = 0; i < COUNT(bufs); i++) {
        free(*bufs[i]);
        *bufs[i] = NULL;
    }
}

int pp_fail(const pp_result *res, const char *what)
{
    fprintf(stderr, "tts-bench: passport: %s: %s\n", res->s->name, what);
    return -1;
}
