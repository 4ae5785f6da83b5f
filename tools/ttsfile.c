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

static const char *display(const char *path)
{
    return strcmp(path, "-") == 0 ? "standard input" : path;
}

void ttsfile_free(uint8_t *buf, size_t len)
{
    if (!buf)
        return;
    sodium_memzero(buf, len);
    free(buf);
}

/* ---- encoding ------------------------------------------------------------ */

static int encode_binary(ttsfile_kind kind, const tts_params *p,
                         const uint8_t *payload, uint8_t **out,
                         size_t *outlen)
{
    size_t plen = ttsfile_payload_bytes(p, kind);
    uint8_t *b;

    if (!plen || !payload || (b = malloc(TTSFILE_HEADER_BYTES + plen)) == NULL)
        return TTSFILE_ERROR;
    memcpy(b, MAGIC, 3);
    b[3] = (uint8_t)kind;
    b[4] = TTSFILE_VERSION;
    b[5] = (uint8_t)tts_params_m(p);
    b[6] = (uint8_t)tts_params_n(p);
    b[7] = 0;
    memcpy(b + TTSFILE_HEADER_BYTES, payload, plen);
    *out = b;
    *outlen = TTSFILE_HEADER_BYTES + plen;
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
    size_t need, have;
    int k;

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
    if (in[4] != TTSFILE_VERSION) {
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
    need = ttsfile_payload_bytes(p, expected);
    have = inlen - TTSFILE_HEADER_BYTES;
    if (have != need) {
        say(err, errlen, "%s: %s %s payload is %zu bytes, expected %zu",
            have < need ? "truncated" : "too long", tts_params_name(p),
            want, have, need);
        return TTSFILE_ERROR;
    }
    if ((*payload = malloc(need)) == NULL) {
        say(err, errlen, "out of memory");
        return TTSFILE_ERROR;
    }
    memcpy(*payload, in + TTSFILE_HEADER_BYTES, need);
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

/* Grow *buf from *cap to at least want bytes, wiping the old copy (a
 * realloc could leave secret bytes behind in freed memory). */
static int grow(uint8_t **buf, size_t *cap, size_t used, size_t want)
{
    size_t ncap = *cap ? *cap : 4096;
    uint8_t *nbuf;

    while (ncap < want)
        ncap *= 2;
    if ((nbuf = malloc(ncap)) == NULL)
        return TTSFILE_ERROR;
    if (*buf) {
        memcpy(nbuf, *buf, used);
        ttsfile_free(*buf, *cap);
    }
    *buf = nbuf;
    *cap = ncap;
    return TTSFILE_OK;
}

/* Read fd to its end, failing once more than cap bytes arrive. */
static int read_capped(int fd, size_t cap, size_t hint, uint8_t **buf,
                       size_t *len, size_t *bufcap)
{
    size_t used = 0;
    ssize_t r;

    *buf = NULL;
    *bufcap = 0;
    for (;;) {
        if (used == *bufcap &&
            grow(buf, bufcap, used, hint > used ? hint : used + 1) != 0)
            return ENOMEM;
        r = read(fd, *buf + used, *bufcap - used);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        if (r == 0)
            break;
        used += (size_t)r;
        if (used > cap)
            return EFBIG;
    }
    *len = used;
    return 0;
}

int ttsfile_read_raw(const char *path, size_t cap, unsigned flags,
                     uint8_t **buf, size_t *len, char *err, size_t errlen)
{
    const char *name;
    struct stat st;
    size_t bufcap = 0, hint;
    int fd, e;

    if (!path || !buf || !len) {
        say(err, errlen, "invalid argument");
        return TTSFILE_ERROR;
    }
    name = display(path);
    fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) {
        say(err, errlen, "%s: %s", name, strerror(errno));
        return TTSFILE_ERROR;
    }
    if (fstat(fd, &st) != 0) {
        e = errno;
        goto fail;
    }
    if (S_ISDIR(st.st_mode)) {
        e = EISDIR;
        goto fail;
    }
    if ((flags & TTSFILE_PRIVATE) && (st.st_mode & 077)) {
        say(err, errlen, "%s: permissions %04o let others access this "
            "secret file; run: chmod 600 %s", name,
            (unsigned)(st.st_mode & 07777), path);
        e = 0;
        goto fail;
    }
    /* Size the buffer from st_size where it means something, so a regular
     * file is read without copies; never beyond the cap. */
    hint = S_ISREG(st.st_mode) && st.st_size >= 0 &&
           (unsigned long long)st.st_size < cap ? (size_t)st.st_size + 1
                                                : 0;
    e = read_capped(fd, cap, hint, buf, len, &bufcap);
    if (e) {
        ttsfile_free(*buf, bufcap);
        *buf = NULL;
        goto fail;
    }
    if (fd != STDIN_FILENO && close(fd) != 0) {
        say(err, errlen, "%s: %s", name, strerror(errno));
        ttsfile_free(*buf, bufcap);
        *buf = NULL;
        return TTSFILE_ERROR;
    }
    /* Hand back a buffer whose size the caller knows, for ttsfile_free. */
    if (bufcap != *len) {
        uint8_t *exact = malloc(*len ? *len : 1);
        if (!exact) {
            ttsfile_free(*buf, bufcap);
            *buf = NULL;
            say(err, errlen, "%s: out of memory", name);
            return TTSFILE_ERROR;
        }
        memcpy(exact, *buf, *len);
        ttsfile_free(*buf, bufcap);
        *buf = exact;
    }
    return TTSFILE_OK;

fail:
    if (e == EFBIG)
        say(err, errlen, "%s: too large (over %zu bytes)", name, cap);
    else if (e)
        say(err, errlen, "%s: %s", name, strerror(e));
    if (fd != STDIN_FILENO)
        (void)close(fd); /* the first error is the one to report */
    return TTSFILE_ERROR;
}

int ttsfile_read(const char *path, ttsfile_kind expected,
                 const tts_params **p, uint8_t **payload, size_t *len,
                 char *err, size_t errlen)
{
    unsigned flags = expected == TTSFILE_SECRET_KEY ? TTSFILE_PRIVATE : 0;
    char why[256];
    uint8_t *raw;
    size_t rawlen;
    int rc;

    if (ttsfile_read_raw(path, TTSFILE_MAX_BYTES, flags, &raw, &rawlen, err,
                         errlen) != TTSFILE_OK)
        return TTSFILE_ERROR;
    rc = ttsfile_decode(raw, rawlen, expected, p, payload, len, why,
                        sizeof why);
    ttsfile_free(raw, rawlen);
    if (rc != TTSFILE_OK)
        say(err, errlen, "%s: %s", display(path), why);
    return rc;
}

static int write_all(int fd, const uint8_t *buf, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

static int write_stdout(const uint8_t *img, size_t len, char *err,
                        size_t errlen)
{
    if (write_all(STDOUT_FILENO, img, len) != 0) {
        say(err, errlen, "standard output: %s", strerror(errno));
        return TTSFILE_ERROR;
    }
    return TTSFILE_OK;
}

static int write_file(const char *path, int secret, const uint8_t *img,
                      size_t len, unsigned flags, char *err, size_t errlen)
{
    int oflags = O_WRONLY | O_CREAT |
                 (flags & TTSFILE_FORCE ? O_TRUNC : O_EXCL);
    int fd = open(path, oflags, secret ? 0600 : 0666);
    int e;

    if (fd < 0) {
        e = errno;
        say(err, errlen, "%s: %s", path,
            e == EEXIST ? "already exists" : strerror(e));
        return e == EEXIST ? TTSFILE_EXISTS : TTSFILE_ERROR;
    }
    /* open's mode applies only to new files: an existing one replaced
     * under TTSFILE_FORCE keeps its mode unless it is reset here. */
    if ((secret && fchmod(fd, 0600) != 0) || write_all(fd, img, len) != 0) {
        e = errno;
        (void)close(fd); /* the first error is the one to report */
        goto fail;
    }
    if (close(fd) != 0) {
        e = errno;
        goto fail;
    }
    return TTSFILE_OK;

fail:
    (void)unlink(path); /* incomplete, or with the wrong mode; best effort */
    say(err, errlen, "%s: %s", path, strerror(e));
    return TTSFILE_ERROR;
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
    if (strcmp(path, "-") == 0)
        rc = write_stdout(img, len, err, errlen);
    else
        rc = write_file(path, kind == TTSFILE_SECRET_KEY, img, len, flags,
                        err, errlen);
    ttsfile_free(img, len);
    return rc;
}
