/* Key and signature files: see ttsfile.h and tools/tts.1. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "fileio.h"
#include "ttsfile.h"

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
    ttsfile_kind kind;
    const char *name;  /* in messages */
    const char *label; /* in armor lines */
} kinds[] = {
    {TTSFILE_PUBLIC_KEY, "public key", "PUBLIC KEY"},
    {TTSFILE_SECRET_KEY, "secret key", "SECRET KEY"},
    {TTSFILE_SIGNATURE, "signature", "SIGNATURE"},
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

const char *ttsfile_kind_name(ttsfile_kind kind)
{
    int i = kind_index((int)kind);
    return i < 0 ? "unknown object" : kinds[i].name;
}

size_t ttsfile_payload_bytes(const tts_params *p, ttsfile_kind kind)
{
    switch (kind) {
    case TTSFILE_PUBLIC_KEY: return tts_pk_bytes(p);
    case TTSFILE_SECRET_KEY: return tts_sk_bytes(p);
    case TTSFILE_SIGNATURE:  return tts_sig_bytes(p);
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

#define display fileio_display

void ttsfile_free(uint8_t *buf, size_t len)
{
    if (!buf)
        return;
    sodium_memzero(buf, len);
    free(buf);
}

/* ---- encoding ------------------------------------------------------------ */

/* Set only inside ttsfile_read_unbound: a format-1 secret key is read. */
static int allow_unbound;

/* SHA-256 of the public key of sk: the binding a format-2 secret-key file
 * carries (tools/tts.1, FILES). */
static int pk_binding(const tts_params *p, const uint8_t *sk,
                      uint8_t h[TTSFILE_BINDING_BYTES])
{
    size_t pkb = tts_pk_bytes(p);
    uint8_t *pk = malloc(pkb);
    int rc = TTSFILE_ERROR;

    if (pk && tts_pk_from_sk(p, pk, sk) == TTS_OK) {
        crypto_hash_sha256(h, pk, pkb);
        rc = TTSFILE_OK;
    }
    free(pk);
    return rc;
}

static int encode_binary(ttsfile_kind kind, const tts_params *p,
                         const uint8_t *payload, uint8_t **out,
                         size_t *outlen)
{
    size_t plen = ttsfile_payload_bytes(p, kind);
    size_t head = TTSFILE_HEADER_BYTES +
                  (kind == TTSFILE_SECRET_KEY ? TTSFILE_BINDING_BYTES : 0);
    uint8_t *b;

    if (!plen || !payload || (b = malloc(head + plen)) == NULL)
        return TTSFILE_ERROR;
    memcpy(b, MAGIC, 3);
    b[3] = (uint8_t)kind;
    b[4] = kind == TTSFILE_SECRET_KEY ? TTSFILE_VERSION_BOUND
                                      : TTSFILE_VERSION;
    b[5] = (uint8_t)tts_params_m(p);
    b[6] = (uint8_t)tts_params_n(p);
    b[7] = 0;
    if (kind == TTSFILE_SECRET_KEY &&
        pk_binding(p, payload, b + TTSFILE_HEADER_BYTES) != TTSFILE_OK) {
        free(b);
        return TTSFILE_ERROR;
    }
    memcpy(b + head, payload, plen);
    *out = b;
    *outlen = head + plen;
    return TTSFILE_OK;
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

static int encode_armor(ttsfile_kind kind, const tts_params *p,
                        const uint8_t *bin, size_t binlen, uint8_t **out,
                        size_t *outlen)
{
    const char *label = kinds[kind_index((int)kind)].label;
    size_t b64size = sodium_base64_ENCODED_LEN(binlen, B64_VARIANT);
    size_t chars = b64size - 1; /* without the NUL */
    char *b64 = malloc(b64size);
    struct sink s = {NULL, 0, 0, 0};
    int rc = TTSFILE_ERROR;

    if (!b64)
        return TTSFILE_ERROR;
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
            rc = TTSFILE_OK;
        } else {
            ttsfile_free(s.buf, s.cap);
        }
    }
    sodium_memzero(b64, b64size);
    free(b64);
    return rc;
}

int ttsfile_encode(ttsfile_kind kind, const tts_params *p,
                   const uint8_t *payload, unsigned flags,
                   uint8_t **out, size_t *outlen)
{
    uint8_t *bin;
    size_t binlen;
    int rc;

    if (!out || !outlen || kind_index((int)kind) < 0 ||
        encode_binary(kind, p, payload, &bin, &binlen) != TTSFILE_OK)
        return TTSFILE_ERROR;
    if (!(flags & TTSFILE_ARMOR)) {
        *out = bin;
        *outlen = binlen;
        return TTSFILE_OK;
    }
    rc = encode_armor(kind, p, bin, binlen, out, outlen);
    ttsfile_free(bin, binlen);
    return rc;
}

/* ---- decoding ------------------------------------------------------------ */

static int decode_binary(const uint8_t *in, size_t inlen,
                         ttsfile_kind expected, const tts_params **p_out,
                         uint8_t **payload, size_t *len,
                         char *err, size_t errlen)
{
    const char *want = ttsfile_kind_name(expected);
    const tts_params *p;
    size_t need, have, head;
    int k, bound;

    if (inlen == 0) {
        say(err, errlen, "empty file");
        return TTSFILE_ERROR;
    }
    if (inlen < TTSFILE_HEADER_BYTES) {
        say(err, errlen, "truncated: %zu bytes, shorter than the %d-byte "
            "header", inlen, TTSFILE_HEADER_BYTES);
        return TTSFILE_ERROR;
    }
    if (memcmp(in, MAGIC, 3) != 0) {
        say(err, errlen, "not a TTS file (the header does not start with "
            "\"TTS\")");
        return TTSFILE_ERROR;
    }
    if ((k = kind_index(in[3])) < 0) {
        say(err, errlen, "unknown kind byte 0x%02x in the header", in[3]);
        return TTSFILE_ERROR;
    }
    if (kinds[k].kind != expected) {
        say(err, errlen, "holds a %s, expected a %s", kinds[k].name, want);
        return TTSFILE_ERROR;
    }
    bound = expected == TTSFILE_SECRET_KEY && in[4] == TTSFILE_VERSION_BOUND;
    if (expected == TTSFILE_SECRET_KEY && in[4] == TTSFILE_VERSION &&
        !allow_unbound) {
        /* the consistency check cannot see every change of S1: a flipped
         * bit could sign with a key that is no longer the published one */
        say(err, errlen, "a format-1 secret key (no public-key binding, so "
            "corruption can go unnoticed); bind it to its public key with: "
            "tts upgrade-key -k KEY.sec -p KEY.pub -o NEW.sec");
        return TTSFILE_ERROR;
    }
    if (in[4] != TTSFILE_VERSION && !bound) {
        if (expected == TTSFILE_SECRET_KEY)
            say(err, errlen, "unsupported format version %u (expected %d, "
                "or %d without a public-key binding)", in[4],
                TTSFILE_VERSION_BOUND, TTSFILE_VERSION);
        else
            say(err, errlen, "unsupported format version %u (expected %d)",
                in[4], TTSFILE_VERSION);
        return TTSFILE_ERROR;
    }
    if (in[7] != 0) {
        say(err, errlen, "reserved header byte 7 is 0x%02x, must be 0",
            in[7]);
        return TTSFILE_ERROR;
    }
    if ((p = set_of(in[5], in[6])) == NULL) {
        say(err, errlen, "unknown parameter set m=%u, n=%u", in[5], in[6]);
        return TTSFILE_ERROR;
    }
    head = TTSFILE_HEADER_BYTES + (bound ? TTSFILE_BINDING_BYTES : 0);
    need = ttsfile_payload_bytes(p, expected);
    have = inlen < head ? 0 : inlen - head;
    if (inlen < head || have != need) {
        say(err, errlen, "%s: %s %s payload is %zu bytes, expected %zu",
            have < need ? "truncated" : "too long", tts_params_name(p),
            want, have, need);
        return TTSFILE_ERROR;
    }
    if ((*payload = malloc(need)) == NULL) {
        say(err, errlen, "out of memory");
        return TTSFILE_ERROR;
    }
    memcpy(*payload, in + head, need);
    if (expected == TTSFILE_SECRET_KEY) {
        /* tts_sign trusts its key: a file may hold anything */
        uint8_t h[TTSFILE_BINDING_BYTES];
        const char *why = NULL;
        if (tts_sk_check(p, *payload) != TTS_OK)
            why = "malformed secret key (s1 differs from F(A3 s3), or a "
                  "singular matrix)";
        else if (bound && (pk_binding(p, *payload, h) != TTSFILE_OK ||
                           sodium_memcmp(h, in + TTSFILE_HEADER_BYTES,
                                         sizeof h) != 0))
            why = "corrupted: the secret key does not match the public key "
                  "it is bound to";
        sodium_memzero(h, sizeof h);
        if (why) {
            say(err, errlen, "%s", why);
            ttsfile_free(*payload, need);
            *payload = NULL;
            return TTSFILE_ERROR;
        }
    }
    *len = need;
    *p_out = p;
    return TTSFILE_OK;
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
    /* only the alphabet, padding and line breaks: a decoder may take other
     * bytes (libsodium 1.0.18 reads 0x80..0xFF as '/'), and one object
     * must have one encoding */
    for (size_t i = 0; i < textlen; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
              (ch >= '0' && ch <= '9') || ch == '+' || ch == '/' ||
              ch == '=' || ch == '\r' || ch == '\n'))
            return TTSFILE_ERROR;
    }
    *bin = NULL;
    *bincap = textlen / 4 * 3 + 3;
    if ((*bin = malloc(*bincap)) == NULL)
        return TTSFILE_ERROR;
    /* b64_end NULL: anything but base64, padding and line breaks fails. */
    if (sodium_base642bin(*bin, *bincap, text, textlen, "\r\n", binlen,
                          NULL, B64_VARIANT) != 0) {
        ttsfile_free(*bin, *bincap);
        *bin = NULL;
        return TTSFILE_ERROR;
    }
    return TTSFILE_OK;
}

static int decode_armor(const uint8_t *in, size_t inlen,
                        ttsfile_kind expected, const tts_params **p,
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
        return TTSFILE_ERROR;
    }
    next_line(&c, &line, &linelen);
    if ((k = marker_kind(line, linelen, BEGIN_PREFIX)) < 0) {
        say(err, errlen, "armor: unrecognised BEGIN line (expected "
            "\"" BEGIN_PREFIX "%s" DASHES "\")",
            kinds[kind_index((int)expected)].label);
        return TTSFILE_ERROR;
    }
    if (kinds[k].kind != expected) {
        say(err, errlen, "holds a %s, expected a %s", kinds[k].name,
            ttsfile_kind_name(expected));
        return TTSFILE_ERROR;
    }
    if (!next_line(&c, &params, &paramslen) || paramslen < strlen(PARAMS_TAG) ||
        memcmp(params, PARAMS_TAG, strlen(PARAMS_TAG)) != 0) {
        say(err, errlen, "armor: second line must be \"" PARAMS_TAG
            "TTS(m,n)\"");
        return TTSFILE_ERROR;
    }
    params += strlen(PARAMS_TAG);
    paramslen -= strlen(PARAMS_TAG);
    if (!next_line(&c, &line, &linelen) || linelen != 0) {
        say(err, errlen, "armor: expected a blank line after the Params line");
        return TTSFILE_ERROR;
    }
    text = c.buf + c.pos;
    do {
        textend = c.pos;
        if (!next_line(&c, &line, &linelen)) {
            say(err, errlen, "armor: no END line");
            return TTSFILE_ERROR;
        }
    } while (linelen < strlen(DASHES) ||
             memcmp(line, DASHES, strlen(DASHES)) != 0);
    textlen = (size_t)(c.buf + textend - text);
    if (marker_kind(line, linelen, END_PREFIX) != k) {
        say(err, errlen, "armor: END line does not match the BEGIN line "
            "(expected \"" END_PREFIX "%s" DASHES "\")", kinds[k].label);
        return TTSFILE_ERROR;
    }
    if (c.pos != c.len) {
        say(err, errlen, "armor: unexpected data after the END line");
        return TTSFILE_ERROR;
    }
    if (decode_base64(text, textlen, &bin, &bincap, &binlen) != TTSFILE_OK) {
        say(err, errlen, "armor: invalid base64");
        return TTSFILE_ERROR;
    }
    if (binlen == 0) {
        ttsfile_free(bin, bincap);
        say(err, errlen, "armor: no base64 text between the Params line "
            "and the END line");
        return TTSFILE_ERROR;
    }
    rc = decode_binary(bin, binlen, expected, p, payload, len, err, errlen);
    ttsfile_free(bin, bincap);
    if (rc == TTSFILE_OK && (strlen(tts_params_name(*p)) != paramslen ||
                             memcmp(params, tts_params_name(*p),
                                    paramslen) != 0)) {
        say(err, errlen, "armor: Params line does not match the %s %s inside",
            tts_params_name(*p), ttsfile_kind_name(expected));
        ttsfile_free(*payload, *len);
        *payload = NULL;
        rc = TTSFILE_ERROR;
    }
    return rc;
}

int ttsfile_decode(const uint8_t *in, size_t inlen, ttsfile_kind expected,
                   const tts_params **p, uint8_t **payload, size_t *len,
                   char *err, size_t errlen)
{
    size_t bl = strlen("-----BEGIN ");

    if (!in || !p || !payload || !len || kind_index((int)expected) < 0) {
        say(err, errlen, "invalid argument");
        return TTSFILE_ERROR;
    }
    if (inlen >= bl && memcmp(in, "-----BEGIN ", bl) == 0)
        return decode_armor(in, inlen, expected, p, payload, len, err, errlen);
    return decode_binary(in, inlen, expected, p, payload, len, err, errlen);
}

/* ---- files --------------------------------------------------------------- */

/* The secret-input rule of fileio.h. */
static int check_private(const char *path, mode_t mode, char *err,
                         size_t errlen)
{
    return fileio_check_private(path, mode, err, errlen) == FILEIO_OK
               ? TTSFILE_OK : TTSFILE_ERROR;
}

int ttsfile_read_raw(const char *path, size_t cap, unsigned flags,
                     uint8_t **buf, size_t *len, char *err, size_t errlen)
{
    mode_t mode = 0;

    if (!path || !buf || !len) {
        say(err, errlen, "invalid argument");
        return TTSFILE_ERROR;
    }
    if (fileio_read(path, cap, FILEIO_STDIN, buf, len, &mode, err, errlen) !=
        FILEIO_OK)
        return TTSFILE_ERROR;
    if ((flags & TTSFILE_PRIVATE) &&
        check_private(path, mode, err, errlen) != TTSFILE_OK) {
        ttsfile_free(*buf, *len);
        *buf = NULL;
        return TTSFILE_ERROR;
    }
    return TTSFILE_OK;
}

int ttsfile_read_unbound(const char *path, const tts_params **p,
                         uint8_t **sk, size_t *len, char *err, size_t errlen)
{
    allow_unbound = 1;
    int rc = ttsfile_read(path, TTSFILE_SECRET_KEY, p, sk, len, err, errlen);
    allow_unbound = 0;
    return rc;
}

int ttsfile_read(const char *path, ttsfile_kind expected,
                 const tts_params **p, uint8_t **payload, size_t *len,
                 char *err, size_t errlen)
{
    char why[256];
    uint8_t *raw;
    size_t rawlen;
    mode_t mode = 0;
    int rc;

    if (!path) {
        say(err, errlen, "invalid argument");
        return TTSFILE_ERROR;
    }
    if (fileio_read(path, TTSFILE_MAX_BYTES, FILEIO_STDIN, &raw, &rawlen,
                    &mode, err, errlen) != FILEIO_OK)
        return TTSFILE_ERROR;
    /* decoded first, so that a public key given as -k is called one */
    rc = ttsfile_decode(raw, rawlen, expected, p, payload, len, why,
                        sizeof why);
    ttsfile_free(raw, rawlen);
    if (rc != TTSFILE_OK) {
        say(err, errlen, "%s: %s", display(path), why);
        return rc;
    }
    if (expected == TTSFILE_SECRET_KEY &&
        check_private(path, mode, err, errlen) != TTSFILE_OK) {
        ttsfile_free(*payload, *len);
        *payload = NULL;
        return TTSFILE_ERROR;
    }
    return TTSFILE_OK;
}

static unsigned fileio_flags(ttsfile_kind kind, unsigned flags)
{
    return (flags & TTSFILE_FORCE ? FILEIO_FORCE : 0) |
           (kind == TTSFILE_SECRET_KEY ? FILEIO_SECRET : 0);
}

int ttsfile_write(const char *path, ttsfile_kind kind, const tts_params *p,
                  const uint8_t *payload, unsigned flags,
                  char *err, size_t errlen)
{
    uint8_t *img;
    size_t len;
    int rc;

    if (!path || ttsfile_encode(kind, p, payload, flags, &img, &len) != 0) {
        say(err, errlen, "%s: cannot encode the %s (out of memory?)",
            path ? path : "(null)", ttsfile_kind_name(kind));
        return TTSFILE_ERROR;
    }
    rc = fileio_write(path, img, len, fileio_flags(kind, flags), err, errlen);
    ttsfile_free(img, len);
    return rc == FILEIO_EXISTS ? TTSFILE_EXISTS
                               : rc == FILEIO_OK ? TTSFILE_OK : TTSFILE_ERROR;
}

int ttsfile_write_pair(const char *pubpath, const char *secpath,
                       const tts_params *p, const uint8_t *pk,
                       const uint8_t *sk, unsigned flags, char *err,
                       size_t errlen)
{
    uint8_t *pimg = NULL, *simg = NULL;
    size_t plen = 0, slen = 0;
    int rc = TTSFILE_ERROR;

    if (ttsfile_encode(TTSFILE_SECRET_KEY, p, sk, flags, &simg, &slen) != 0 ||
        ttsfile_encode(TTSFILE_PUBLIC_KEY, p, pk, flags, &pimg, &plen) != 0) {
        say(err, errlen, "cannot encode the key pair (out of memory?)");
    } else {
        /* Both or neither, whatever fails, and catchable signals wait for
         * the pair (fileio_commit). Only SIGKILL between the two renames
         * can split it: the secret key is then created first and replaced
         * last, so the secret key file present is always whole, with its
         * public key recomputable by tts pubkey. */
        struct stat st;
        int replacing = lstat(secpath, &st) == 0;
        fileio_out sec = {secpath, simg, slen,
                          fileio_flags(TTSFILE_SECRET_KEY, flags)};
        fileio_out pub = {pubpath, pimg, plen,
                          fileio_flags(TTSFILE_PUBLIC_KEY, flags)};
        fileio_out outs[2];
        outs[replacing ? 1 : 0] = sec;
        outs[replacing ? 0 : 1] = pub;
        rc = fileio_commit(outs, 2, err, errlen);
        rc = rc == FILEIO_EXISTS ? TTSFILE_EXISTS
                                 : rc == FILEIO_OK ? TTSFILE_OK : TTSFILE_ERROR;
    }
    ttsfile_free(simg, slen);
    ttsfile_free(pimg, plen);
    return rc;
}
