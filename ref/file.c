/* SPDX-License-Identifier: MIT */
/* The key and signature file codec: include/tts_file.h, docs/SPEC.md
 * section 11. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "tts_file.h"

#define MAGIC        "TTS"
#define BEGIN_PREFIX "-----BEGIN TTS "
#define END_PREFIX   "-----END TTS "
#define DASHES       "-----"
#define PARAMS_TAG   "Params: "
#define B64_LINE     64
#define B64_VARIANT  sodium_base64_VARIANT_ORIGINAL

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

static const struct {
    int kind;
    const char *name;  /* in messages */
    const char *label; /* in armor lines */
} kinds[] = {
    {TTS_FILE_PUBLIC_KEY, "public key", "PUBLIC KEY"},
    {TTS_FILE_SECRET_KEY, "secret key", "SECRET KEY"},
    {TTS_FILE_SIGNATURE, "signature", "SIGNATURE"},
};

#define NKINDS (sizeof kinds / sizeof kinds[0])

static void PRINTF_LIKE(3, 4)
say(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static int kind_index(int byte)
{
    for (size_t i = 0; i < NKINDS; i++)
        if ((int)kinds[i].kind == byte)
            return (int)i;
    return -1;
}

const char *tts_file_kind_name(int kind)
{
    int i = kind_index((int)kind);
    return i < 0 ? "unknown object" : kinds[i].name;
}

size_t tts_file_payload_bytes(const tts_params *p, int kind)
{
    switch (kind) {
    case TTS_FILE_PUBLIC_KEY: return tts_pk_bytes(p);
    case TTS_FILE_SECRET_KEY: return tts_sk_bytes(p);
    case TTS_FILE_SIGNATURE:  return tts_sig_bytes(p);
    }
    return 0;
}

static const tts_params *set_of(unsigned m, unsigned n)
{
    for (size_t i = 0; i < tts_params_count(); i++) {
        const tts_params *p = tts_params_at(i);
        if (tts_params_m(p) == m && tts_params_n(p) == n)
            return p;
    }
    return NULL;
}

void tts_file_free(uint8_t *buf, size_t len)
{
    if (!buf)
        return;
    sodium_memzero(buf, len);
    free(buf);
}

/* ---- encoding ------------------------------------------------------------ */

/* SHA-256 of the public key of sk: the binding a version-2 secret-key
 * file carries. */
static int pk_binding(const tts_params *p, const uint8_t *sk,
                      uint8_t h[TTS_FILE_BINDING_BYTES])
{
    size_t pkb = tts_pk_bytes(p);
    uint8_t *pk = malloc(pkb);
    int rc;

    if (!pk)
        return TTS_ENOMEM;
    if ((rc = tts_pk_from_sk(p, pk, sk)) == TTS_OK)
        crypto_hash_sha256(h, pk, pkb);
    free(pk);
    return rc;
}

static int encode_binary(int kind, const tts_params *p,
                         const uint8_t *payload, uint8_t **out,
                         size_t *outlen)
{
    size_t plen = tts_file_payload_bytes(p, kind);
    size_t head = TTS_FILE_HEADER_BYTES +
                  (kind == TTS_FILE_SECRET_KEY ? TTS_FILE_BINDING_BYTES : 0);
    uint8_t *b;
    int rc;

    if (!plen || !payload)
        return TTS_EINVAL;
    if ((b = malloc(head + plen)) == NULL)
        return TTS_ENOMEM;
    memcpy(b, MAGIC, 3);
    b[3] = (uint8_t)kind;
    b[4] = kind == TTS_FILE_SECRET_KEY ? TTS_FILE_VERSION_BOUND
                                      : TTS_FILE_VERSION;
    b[5] = (uint8_t)tts_params_m(p);
    b[6] = (uint8_t)tts_params_n(p);
    b[7] = 0;
    if (kind == TTS_FILE_SECRET_KEY &&
        (rc = pk_binding(p, payload, b + TTS_FILE_HEADER_BYTES)) != TTS_OK) {
        free(b);
        return rc;
    }
    memcpy(b + head, payload, plen);
    *out = b;
    *outlen = head + plen;
    return TTS_OK;
}

/* Appends to a buffer sized in advance; overflow is a bug caught as an
 * error rather than a write past the end. */
struct sink {
    uint8_t *buf;
    size_t len, cap;
    int overflow;
};

static void put(struct sink *s, const void *data, size_t n)
{
    if (s->overflow || n > s->cap - s->len) {
        s->overflow = 1;
        return;
    }
    memcpy(s->buf + s->len, data, n);
    s->len += n;
}

static void put_str(struct sink *s, const char *str)
{
    put(s, str, strlen(str));
}

static int encode_armor(int kind, const tts_params *p,
                        const uint8_t *bin, size_t binlen, uint8_t **out,
                        size_t *outlen)
{
    const char *label = kinds[kind_index((int)kind)].label;
    size_t b64size = sodium_base64_ENCODED_LEN(binlen, B64_VARIANT);
    size_t chars = b64size - 1; /* without the NUL */
    char *b64 = malloc(b64size);
    struct sink s = {NULL, 0, 0, 0};
    int rc = TTS_ENOMEM;

    if (!b64)
        return TTS_ENOMEM;
    sodium_bin2base64(b64, b64size, bin, binlen, B64_VARIANT);
    /* The BEGIN and END lines (BEGIN_PREFIX is the longer prefix), the
     * Params and blank lines, the text and one newline per line of it. */
    s.cap = 2 * (strlen(BEGIN_PREFIX) + strlen(label) + strlen(DASHES) + 1) +
            strlen(PARAMS_TAG) + strlen(tts_params_name(p)) + 2 +
            chars + chars / B64_LINE + 1;
    if ((s.buf = malloc(s.cap)) != NULL) {
        put_str(&s, BEGIN_PREFIX);
        put_str(&s, label);
        put_str(&s, DASHES "\n" PARAMS_TAG);
        put_str(&s, tts_params_name(p));
        put_str(&s, "\n\n");
        for (size_t i = 0; i < chars; i += B64_LINE) {
            put(&s, b64 + i, chars - i < B64_LINE ? chars - i : B64_LINE);
            put_str(&s, "\n");
        }
        put_str(&s, END_PREFIX);
        put_str(&s, label);
        put_str(&s, DASHES "\n");
        if (!s.overflow) {
            *out = s.buf;
            *outlen = s.len;
            rc = TTS_OK;
        } else {
            tts_file_free(s.buf, s.cap);
            rc = TTS_EINVAL; /* a sizing bug, caught */
        }
    }
    sodium_memzero(b64, b64size);
    free(b64);
    return rc;
}

int tts_file_encode(int kind, const tts_params *p,
                   const uint8_t *payload, unsigned flags,
                   uint8_t **out, size_t *outlen)
{
    uint8_t *bin;
    size_t binlen;
    int rc;

    if (!out || !outlen || !p || kind_index(kind) < 0 ||
        (flags & ~TTS_FILE_ARMOR))
        return TTS_EINVAL;
    if ((rc = encode_binary(kind, p, payload, &bin, &binlen)) != TTS_OK)
        return rc;
    if (!(flags & TTS_FILE_ARMOR)) {
        *out = bin;
        *outlen = binlen;
        return TTS_OK;
    }
    rc = encode_armor(kind, p, bin, binlen, out, outlen);
    tts_file_free(bin, binlen);
    return rc;
}

/* ---- decoding ------------------------------------------------------------ */

static int decode_binary(const uint8_t *in, size_t inlen,
                         int expected, unsigned flags, const tts_params **p_out,
                         uint8_t **payload, size_t *len,
                         char *err, size_t errlen)
{
    const char *want = tts_file_kind_name(expected);
    const tts_params *p;
    size_t need, have, head;
    int k, bound;

    if (inlen == 0) {
        say(err, errlen, "empty file");
        return TTS_EFORMAT;
    }
    if (inlen < TTS_FILE_HEADER_BYTES) {
        say(err, errlen, "truncated: %zu bytes, shorter than the %d-byte "
            "header", inlen, TTS_FILE_HEADER_BYTES);
        return TTS_EFORMAT;
    }
    if (memcmp(in, MAGIC, 3) != 0) {
        say(err, errlen, "not a TTS file (the header does not start with "
            "\"TTS\")");
        return TTS_EFORMAT;
    }
    if ((k = kind_index(in[3])) < 0) {
        say(err, errlen, "unknown kind byte 0x%02x in the header", in[3]);
        return TTS_EFORMAT;
    }
    if (kinds[k].kind != expected) {
        say(err, errlen, "holds a %s, expected a %s", kinds[k].name, want);
        return TTS_EFORMAT;
    }
    bound = expected == TTS_FILE_SECRET_KEY && in[4] == TTS_FILE_VERSION_BOUND;
    if (expected == TTS_FILE_SECRET_KEY && in[4] == TTS_FILE_VERSION &&
        !(flags & TTS_FILE_UNBOUND)) {
        /* the consistency check cannot see every change of S1: a flipped
         * bit could sign with a key that is no longer the published one */
        say(err, errlen, "a format-1 secret key (no public-key binding, so "
            "corruption can go unnoticed); bind it to its public key with: "
            "tts upgrade-key -k KEY.sec -p KEY.pub -o NEW.sec");
        return TTS_EFORMAT;
    }
    if (in[4] != TTS_FILE_VERSION && !bound) {
        if (expected == TTS_FILE_SECRET_KEY)
            say(err, errlen, "unsupported format version %u (expected %d, "
                "or %d without a public-key binding)", in[4],
                TTS_FILE_VERSION_BOUND, TTS_FILE_VERSION);
        else
            say(err, errlen, "unsupported format version %u (expected %d)",
                in[4], TTS_FILE_VERSION);
        return TTS_EFORMAT;
    }
    if (in[7] != 0) {
        say(err, errlen, "reserved header byte 7 is 0x%02x, must be 0",
            in[7]);
        return TTS_EFORMAT;
    }
    if ((p = set_of(in[5], in[6])) == NULL) {
        say(err, errlen, "unknown parameter set m=%u, n=%u", in[5], in[6]);
        return TTS_EFORMAT;
    }
    head = TTS_FILE_HEADER_BYTES + (bound ? TTS_FILE_BINDING_BYTES : 0);
    need = tts_file_payload_bytes(p, expected);
    have = inlen < head ? 0 : inlen - head;
    if (inlen < head || have != need) {
        say(err, errlen, "%s: %s %s payload is %zu bytes, expected %zu",
            have < need ? "truncated" : "too long", tts_params_name(p),
            want, have, need);
        return TTS_EFORMAT;
    }
    if ((*payload = malloc(need)) == NULL) {
        say(err, errlen, "out of memory");
        return TTS_ENOMEM;
    }
    memcpy(*payload, in + head, need);
    if (expected == TTS_FILE_SECRET_KEY) {
        /* tts_sign trusts its key: a file may hold anything */
        uint8_t h[TTS_FILE_BINDING_BYTES];
        const char *why = NULL;
        if (tts_sk_check(p, *payload) != TTS_OK)
            why = "malformed secret key (s1 differs from F(A3 s3), or a "
                  "singular matrix)";
        else if (bound && (pk_binding(p, *payload, h) != TTS_OK ||
                           sodium_memcmp(h, in + TTS_FILE_HEADER_BYTES,
                                         sizeof h) != 0))
            why = "corrupted: the secret key does not match the public key "
                  "it is bound to";
        sodium_memzero(h, sizeof h);
        if (why) {
            say(err, errlen, "%s", why);
            tts_file_free(*payload, need);
            *payload = NULL;
            return TTS_EFORMAT;
        }
    }
    *len = need;
    *p_out = p;
    return TTS_OK;
}

struct cursor {
    const char *buf;
    size_t len, pos;
};

/* The next line without its "\n" or "\r\n"; 0 at the end of the input. */
static int next_line(struct cursor *c, const char **line, size_t *linelen)
{
    const char *nl;
    size_t n;

    if (c->pos >= c->len)
        return 0;
    *line = c->buf + c->pos;
    nl = memchr(*line, '\n', c->len - c->pos);
    if (nl) {
        n = (size_t)(nl - *line);
        c->pos += n + 1;
        if (n > 0 && (*line)[n - 1] == '\r')
            n--;
    } else {
        n = c->len - c->pos;
        c->pos = c->len;
    }
    *linelen = n;
    return 1;
}

/* Index into kinds[] of a line "<prefix><label>-----", or -1. */
static int marker_kind(const char *line, size_t len, const char *prefix)
{
    size_t pl = strlen(prefix), dl = strlen(DASHES);

    if (len < pl + dl || memcmp(line, prefix, pl) != 0 ||
        memcmp(line + len - dl, DASHES, dl) != 0)
        return -1;
    for (size_t i = 0; i < NKINDS; i++) {
        size_t ll = strlen(kinds[i].label);
        if (ll == len - pl - dl && memcmp(line + pl, kinds[i].label, ll) == 0)
            return (int)i;
    }
    return -1;
}

/* *bin has *bincap bytes, of which *binlen decoded. */
static int decode_base64(const char *text, size_t textlen, uint8_t **bin,
                         size_t *bincap, size_t *binlen)
{
    /* only the alphabet, padding and line breaks (LF, or CR LF): a decoder
     * may take other bytes (libsodium 1.0.18 reads 0x80..0xFF as '/'), and
     * one object must have one encoding */
    for (size_t i = 0; i < textlen; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
              (ch >= '0' && ch <= '9') || ch == '+' || ch == '/' ||
              ch == '=' || ch == '\n' ||
              (ch == '\r' && i + 1 < textlen && text[i + 1] == '\n')))
            return TTS_EFORMAT; /* (CR only as the first half of CR LF) */
    }
    *bin = NULL;
    *bincap = textlen / 4 * 3 + 3;
    if ((*bin = malloc(*bincap)) == NULL)
        return TTS_ENOMEM;
    /* b64_end NULL: anything but base64, padding and line breaks fails. */
    if (sodium_base642bin(*bin, *bincap, text, textlen, "\r\n", binlen,
                          NULL, B64_VARIANT) != 0) {
        tts_file_free(*bin, *bincap);
        *bin = NULL;
        return TTS_EFORMAT;
    }
    return TTS_OK;
}

static int decode_armor(const uint8_t *in, size_t inlen,
                        int expected, unsigned flags, const tts_params **p,
                        uint8_t **payload, size_t *len,
                        char *err, size_t errlen)
{
    struct cursor c = {(const char *)in, inlen, 0};
    const char *line, *params, *text;
    size_t linelen, paramslen, textlen, textend, bincap, binlen;
    const uint8_t *nul;
    uint8_t *bin;
    int k, rc;

    if ((nul = memchr(in, 0, inlen)) != NULL) {
        say(err, errlen, "armor: NUL byte at offset %zu",
            (size_t)(nul - in));
        return TTS_EFORMAT;
    }
    next_line(&c, &line, &linelen);
    if ((k = marker_kind(line, linelen, BEGIN_PREFIX)) < 0) {
        say(err, errlen, "armor: unrecognised BEGIN line (expected "
            "\"" BEGIN_PREFIX "%s" DASHES "\")",
            kinds[kind_index((int)expected)].label);
        return TTS_EFORMAT;
    }
    if (kinds[k].kind != expected) {
        say(err, errlen, "holds a %s, expected a %s", kinds[k].name,
            tts_file_kind_name(expected));
        return TTS_EFORMAT;
    }
    if (!next_line(&c, &params, &paramslen) || paramslen < strlen(PARAMS_TAG) ||
        memcmp(params, PARAMS_TAG, strlen(PARAMS_TAG)) != 0) {
        say(err, errlen, "armor: second line must be \"" PARAMS_TAG
            "TTS(m,n)\"");
        return TTS_EFORMAT;
    }
    params += strlen(PARAMS_TAG);
    paramslen -= strlen(PARAMS_TAG);
    if (!next_line(&c, &line, &linelen) || linelen != 0) {
        say(err, errlen, "armor: expected a blank line after the Params line");
        return TTS_EFORMAT;
    }
    text = c.buf + c.pos;
    do {
        textend = c.pos;
        if (!next_line(&c, &line, &linelen)) {
            say(err, errlen, "armor: no END line");
            return TTS_EFORMAT;
        }
    } while (linelen < strlen(DASHES) ||
             memcmp(line, DASHES, strlen(DASHES)) != 0);
    textlen = (size_t)(c.buf + textend - text);
    if (marker_kind(line, linelen, END_PREFIX) != k) {
        say(err, errlen, "armor: END line does not match the BEGIN line "
            "(expected \"" END_PREFIX "%s" DASHES "\")", kinds[k].label);
        return TTS_EFORMAT;
    }
    if (c.pos != c.len) {
        say(err, errlen, "armor: unexpected data after the END line");
        return TTS_EFORMAT;
    }
    if ((rc = decode_base64(text, textlen, &bin, &bincap, &binlen)) != TTS_OK) {
        say(err, errlen, rc == TTS_ENOMEM ? "out of memory"
                                          : "armor: invalid base64");
        return rc;
    }
    if (binlen == 0) {
        tts_file_free(bin, bincap);
        say(err, errlen, "armor: no base64 text between the Params line "
            "and the END line");
        return TTS_EFORMAT;
    }
    rc = decode_binary(bin, binlen, expected, flags, p, payload, len, err,
                       errlen);
    tts_file_free(bin, bincap);
    if (rc == TTS_OK && (strlen(tts_params_name(*p)) != paramslen ||
                             memcmp(params, tts_params_name(*p),
                                    paramslen) != 0)) {
        say(err, errlen, "armor: Params line does not match the %s %s inside",
            tts_params_name(*p), tts_file_kind_name(expected));
        tts_file_free(*payload, *len);
        *payload = NULL;
        rc = TTS_EFORMAT;
    }
    return rc;
}

int tts_file_decode(const uint8_t *in, size_t inlen, int expected,
                    unsigned flags, const tts_params **p, uint8_t **payload,
                    size_t *len, char *err, size_t errlen)
{
    size_t bl = strlen("-----BEGIN ");

    if ((!in && inlen) || !p || !payload || !len || kind_index(expected) < 0 ||
        (flags & ~TTS_FILE_UNBOUND)) {
        say(err, errlen, "invalid argument");
        return TTS_EINVAL;
    }
    *payload = NULL;
    if (inlen >= bl && memcmp(in, "-----BEGIN ", bl) == 0)
        return decode_armor(in, inlen, expected, flags, p, payload, len, err,
                            errlen);
    return decode_binary(in, inlen, expected, flags, p, payload, len, err,
                         errlen);
}

