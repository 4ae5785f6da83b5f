/* SPDX-License-Identifier: MIT */
/*
 * The key and signature file codec (include/tts_file.h, docs/SPEC.md
 * section 11), in process: the binary layout rebuilt here byte by byte
 * (header, SHA-256 binding computed with libsodium), round trips of every
 * kind and set in both forms, every one-bit flip of a secret-key file
 * refused, and each malformed case with the reason it must give.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "tts.h"
#include "tts_file.h"

static const int kinds[] = {TTS_FILE_PUBLIC_KEY, TTS_FILE_SECRET_KEY,
                            TTS_FILE_SIGNATURE};

/* A key pair and a signature of p, from a fixed seed. */
struct obj {
    const tts_params *p;
    uint8_t *pk, *sk, sig[TTS_MAX_SIG_BYTES];
};

static void obj_make(struct obj *o, const tts_params *p)
{
    uint8_t seed[TTS_SEED_BYTES], msg[3] = {'a', 'b', 'c'};
    memset(seed, 0x5a, sizeof seed);
    o->p = p;
    o->pk = malloc(tts_pk_bytes(p));
    o->sk = malloc(tts_sk_bytes(p));
    ck_assert(o->pk && o->sk);
    ck_assert_int_eq(tts_keypair_from_seed(p, o->pk, o->sk, seed), TTS_OK);
    ck_assert_int_eq(tts_sign(p, o->sig, msg, sizeof msg, o->sk), TTS_OK);
}

static void obj_free(struct obj *o)
{
    free(o->pk);
    free(o->sk);
}

static const uint8_t *obj_payload(const struct obj *o, int kind)
{
    return kind == TTS_FILE_PUBLIC_KEY ? o->pk
           : kind == TTS_FILE_SECRET_KEY ? o->sk : o->sig;
}

/* The binary image as the spec lays it out, built without the codec. */
static uint8_t *spec_image(const struct obj *o, int kind, size_t *len)
{
    const tts_params *p = o->p;
    size_t plen = kind == TTS_FILE_PUBLIC_KEY ? tts_pk_bytes(p)
                  : kind == TTS_FILE_SECRET_KEY ? tts_sk_bytes(p)
                                                : tts_sig_bytes(p);
    size_t head = 8 + (kind == TTS_FILE_SECRET_KEY ? 32 : 0);
    uint8_t *b = malloc(head + plen);
    ck_assert_ptr_nonnull(b);
    b[0] = 'T', b[1] = 'T', b[2] = 'S', b[3] = (uint8_t)kind;
    b[4] = kind == TTS_FILE_SECRET_KEY ? 2 : 1;
    b[5] = (uint8_t)tts_params_m(p);
    b[6] = (uint8_t)tts_params_n(p);
    b[7] = 0;
    if (kind == TTS_FILE_SECRET_KEY)
        crypto_hash_sha256(b + 8, o->pk, tts_pk_bytes(p));
    memcpy(b + head, obj_payload(o, kind), plen);
    *len = head + plen;
    return b;
}

/* Decode must fail with TTS_EFORMAT and a reason containing want. */
static void refused(const uint8_t *in, size_t len, int kind, unsigned flags,
                    const char *want)
{
    const tts_params *p = NULL;
    uint8_t *pay = (uint8_t *)1;
    size_t plen = 0;
    char err[256] = "";
    int rc = tts_file_decode(in, len, kind, flags, &p, &pay, &plen, err,
                             sizeof err);
    ck_assert_msg(rc == TTS_EFORMAT, "accepted (rc %d), expected \"%s\"", rc,
                  want);
    ck_assert_ptr_null(pay);
    ck_assert_msg(strstr(err, want) != NULL, "reason \"%s\", expected \"%s\"",
                  err, want);
}

static void accepted(const uint8_t *in, size_t len, int kind, unsigned flags,
                     const struct obj *o)
{
    const tts_params *p = NULL;
    uint8_t *pay = NULL;
    size_t plen = 0;
    char err[256] = "";
    int rc = tts_file_decode(in, len, kind, flags, &p, &pay, &plen, err,
                             sizeof err);
    ck_assert_msg(rc == TTS_OK, "refused: %s", err);
    ck_assert_ptr_eq(p, o->p);
    ck_assert_uint_eq(plen, tts_file_payload_bytes(o->p, kind));
    ck_assert_mem_eq(pay, obj_payload(o, kind), plen);
    tts_file_free(pay, plen);
}

START_TEST(t_layout_and_round_trip)
{
    /* every set and kind: the binary image is the spec's, byte for byte;
     * both forms decode to the object; the armor's lines are as specified */
    struct obj o;
    obj_make(&o, tts_params_at((size_t)_i));
    for (size_t k = 0; k < 3; k++) {
        int kind = kinds[k];
        size_t want_len, len, alen;
        uint8_t *want = spec_image(&o, kind, &want_len), *img, *arm;
        ck_assert_int_eq(tts_file_encode(kind, o.p, obj_payload(&o, kind), 0,
                                         &img, &len), TTS_OK);
        ck_assert_uint_eq(len, want_len);
        ck_assert_mem_eq(img, want, len);
        accepted(img, len, kind, 0, &o);
        ck_assert_int_eq(tts_file_encode(kind, o.p, obj_payload(&o, kind),
                                         TTS_FILE_ARMOR, &arm, &alen), TTS_OK);
        {
            /* "-----BEGIN TTS <LABEL>-----\nParams: TTS(m,n)\n\n" then
             * base64 in 64-column lines, then the END line */
            const char *label = kind == TTS_FILE_PUBLIC_KEY ? "PUBLIC KEY"
                                : kind == TTS_FILE_SECRET_KEY ? "SECRET KEY"
                                                              : "SIGNATURE";
            char head[128], tail[64], *text = malloc(alen + 1), *b64;
            size_t b64len = sodium_base64_ENCODED_LEN(len,
                                sodium_base64_VARIANT_ORIGINAL);
            ck_assert(text != NULL && (b64 = malloc(b64len)) != NULL);
            memcpy(text, arm, alen);
            text[alen] = 0;
            snprintf(head, sizeof head, "-----BEGIN TTS %s-----\nParams: %s\n\n",
                     label, tts_params_name(o.p));
            snprintf(tail, sizeof tail, "-----END TTS %s-----\n", label);
            ck_assert(strncmp(text, head, strlen(head)) == 0);
            ck_assert(alen > strlen(tail) &&
                      strcmp(text + alen - strlen(tail), tail) == 0);
            sodium_bin2base64(b64, b64len, img, len,
                              sodium_base64_VARIANT_ORIGINAL);
            /* the text between, line breaks removed, is the base64 */
            {
                size_t j = 0;
                const char *q = text + strlen(head);
                size_t col = 0;
                for (; q < text + alen - strlen(tail); q++) {
                    if (*q == '\n') {
                        ck_assert(col == 64 || q + 1 == text + alen - strlen(tail));
                        col = 0;
                        continue;
                    }
                    ck_assert_int_eq(*q, b64[j]);
                    j++, col++;
                }
                ck_assert_uint_eq(j, strlen(b64));
            }
            free(b64);
            free(text);
        }
        accepted(arm, alen, kind, 0, &o);
        /* a CRLF copy of the armor reads too */
        {
            uint8_t *crlf = malloc(2 * alen);
            size_t n = 0;
            ck_assert_ptr_nonnull(crlf);
            for (size_t i = 0; i < alen; i++) {
                if (arm[i] == '\n')
                    crlf[n++] = '\r';
                crlf[n++] = arm[i];
            }
            accepted(crlf, n, kind, 0, &o);
            free(crlf);
        }
        /* a bare CR inside the base64 (not before a line feed) is refused:
         * one object, one encoding */
        {
            uint8_t *cr = malloc(alen + 1);
            const uint8_t *body = memchr(arm, '\n', alen);
            ck_assert_ptr_nonnull(cr);
            for (int l = 0; l < 2; l++)
                body = memchr(body + 1, '\n', alen - (size_t)(body + 1 - arm));
            size_t at = (size_t)(body - arm) + 3; /* inside the first base64 line */
            memcpy(cr, arm, at);
            cr[at] = '\r';
            memcpy(cr + at + 1, arm + at, alen - at);
            refused(cr, alen + 1, kind, 0, "base64");
            free(cr);
        }
        /* the other kinds are refused by name */
        for (size_t k2 = 0; k2 < 3; k2++)
            if (k2 != k) {
                refused(img, len, kinds[k2], 0, "expected a");
                refused(arm, alen, kinds[k2], 0, "expected a");
            }
        tts_file_free(img, len);
        tts_file_free(arm, alen);
        free(want);
    }
    obj_free(&o);
}
END_TEST

START_TEST(t_secret_key_flips)
{
    /* every one-bit flip of every byte of a secret-key file (header,
     * binding, key) is refused: none can sign with another key */
    struct obj o;
    size_t len;
    uint8_t *img;
    obj_make(&o, tts_params_at((size_t)_i));
    img = spec_image(&o, TTS_FILE_SECRET_KEY, &len);
    for (size_t i = 0; i < len; i++) {
        const tts_params *p;
        uint8_t *pay = NULL;
        size_t plen;
        img[i] ^= (uint8_t)(1u << (i % 8));
        ck_assert_msg(tts_file_decode(img, len, TTS_FILE_SECRET_KEY, 0, &p,
                                      &pay, &plen, NULL, 0) == TTS_EFORMAT,
                      "%s: flip of byte %zu accepted", tts_params_name(o.p), i);
        ck_assert_ptr_null(pay);
        img[i] ^= (uint8_t)(1u << (i % 8));
    }
    accepted(img, len, TTS_FILE_SECRET_KEY, 0, &o);
    free(img);
    obj_free(&o);
}
END_TEST

START_TEST(t_malformed_binary)
{
    struct obj o;
    size_t len;
    uint8_t *img, *big;
    obj_make(&o, tts_params_get("TTS(20,28)"));
    img = spec_image(&o, TTS_FILE_PUBLIC_KEY, &len);

    refused(img, 0, TTS_FILE_PUBLIC_KEY, 0, "empty file");
    refused(img, 7, TTS_FILE_PUBLIC_KEY, 0, "shorter than the 8-byte header");
    refused(img, len - 1, TTS_FILE_PUBLIC_KEY, 0, "truncated");
    big = malloc(len + 1);
    ck_assert_ptr_nonnull(big);
    memcpy(big, img, len);
    big[len] = 0;
    refused(big, len + 1, TTS_FILE_PUBLIC_KEY, 0, "too long");
    free(big);
    img[0] = 'X';
    refused(img, len, TTS_FILE_PUBLIC_KEY, 0, "not a TTS file");
    img[0] = 'T';
    img[3] = 'Q';
    refused(img, len, TTS_FILE_PUBLIC_KEY, 0, "unknown kind byte 0x51");
    img[3] = 'P';
    img[4] = 2;
    refused(img, len, TTS_FILE_PUBLIC_KEY, 0, "unsupported format version 2");
    img[4] = 1;
    img[7] = 1;
    refused(img, len, TTS_FILE_PUBLIC_KEY, 0, "reserved header byte 7");
    img[7] = 0;
    img[5] = 21;
    refused(img, len, TTS_FILE_PUBLIC_KEY, 0, "unknown parameter set m=21, n=28");
    img[5] = 20;
    img[6] = 26; /* a real set of another size */
    refused(img, len, TTS_FILE_PUBLIC_KEY, 0, "too long: TTS(20,26) public key");
    img[6] = 28;
    accepted(img, len, TTS_FILE_PUBLIC_KEY, 0, &o);
    free(img);

    /* secret keys: version 1 only on request, then unbound */
    img = spec_image(&o, TTS_FILE_SECRET_KEY, &len);
    {
        size_t v1len = len - 32;
        uint8_t *v1 = malloc(v1len);
        ck_assert_ptr_nonnull(v1);
        memcpy(v1, img, 8);
        v1[4] = 1;
        memcpy(v1 + 8, img + 40, v1len - 8);
        refused(v1, v1len, TTS_FILE_SECRET_KEY, 0, "tts upgrade-key");
        accepted(v1, v1len, TTS_FILE_SECRET_KEY, TTS_FILE_UNBOUND, &o);
        /* a bound key read with the flag is still checked */
        img[8] ^= 1;
        refused(img, len, TTS_FILE_SECRET_KEY, TTS_FILE_UNBOUND,
                "does not match the public key");
        img[8] ^= 1;
        img[4] = 3;
        refused(img, len, TTS_FILE_SECRET_KEY, 0,
                "unsupported format version 3 (expected 2, or 1");
        free(v1);
    }
    free(img);
    obj_free(&o);
}
END_TEST

/* The armored image of the TTS(20,28) signature, as text. */
static char *armor_of(const struct obj *o, size_t *len)
{
    uint8_t *arm;
    char *t;
    ck_assert_int_eq(tts_file_encode(TTS_FILE_SIGNATURE, o->p, o->sig,
                                     TTS_FILE_ARMOR, &arm, len), TTS_OK);
    t = malloc(*len + 1);
    ck_assert_ptr_nonnull(t);
    memcpy(t, arm, *len);
    t[*len] = 0;
    tts_file_free(arm, *len);
    return t;
}

/* Replace the first occurrence of from by to in a copy of s. */
static char *edit(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    size_t n = strlen(s) - strlen(from) + strlen(to) + 1;
    char *r = malloc(n);
    ck_assert(at != NULL && r != NULL);
    snprintf(r, n, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
    return r;
}

static void refused_text(const char *t, const char *want)
{
    refused((const uint8_t *)t, strlen(t), TTS_FILE_SIGNATURE, 0, want);
}

START_TEST(t_malformed_armor)
{
    struct obj o;
    size_t len;
    char *a, *e;
    obj_make(&o, tts_params_get("TTS(20,28)"));
    a = armor_of(&o, &len);
    accepted((const uint8_t *)a, len, TTS_FILE_SIGNATURE, 0, &o);

    e = edit(a, "BEGIN TTS SIGNATURE", "BEGIN TTS SIGNATUR");
    refused_text(e, "unrecognised BEGIN line"), free(e);
    e = edit(a, "Params: TTS(20,28)", "Params: TTS(20,26)");
    refused_text(e, "Params line does not match"), free(e);
    e = edit(a, "Params: ", "Param: ");
    refused_text(e, "second line must be"), free(e);
    e = edit(a, "TTS(20,28)\n\n", "TTS(20,28)\n");
    refused_text(e, "expected a blank line"), free(e);
    e = edit(a, "-----END TTS SIGNATURE-----\n", "");
    refused_text(e, "no END line"), free(e);
    e = edit(a, "END TTS SIGNATURE", "END TTS PUBLIC KEY");
    refused_text(e, "END line does not match"), free(e);
    {
        size_t n = len + 2;
        char *x = malloc(n + 1);
        ck_assert_ptr_nonnull(x);
        snprintf(x, n + 1, "%sx\n", a);
        refused_text(x, "unexpected data after the END line");
        free(x);
    }
    e = edit(a, "\n\n", "\n\n!");
    refused_text(e, "invalid base64"), free(e);
    /* a byte 0xFF, which some decoders read as '/' */
    {
        char *f = strdup(a);
        char *q = strstr(f, "\n\n") + 2;
        ck_assert_ptr_nonnull(f);
        *q = (char)0xff;
        refused_text(f, "invalid base64");
        free(f);
    }
    {
        char *f = strdup(a);
        char *q = strstr(f, "\n\n") + 2;
        const tts_params *p;
        uint8_t *pay = NULL;
        size_t plen;
        char err[128];
        ck_assert_ptr_nonnull(f);
        *q = 0;
        ck_assert_int_eq(tts_file_decode((uint8_t *)f, len, TTS_FILE_SIGNATURE,
                                         0, &p, &pay, &plen, err, sizeof err),
                         TTS_EFORMAT);
        ck_assert_ptr_nonnull(strstr(err, "NUL byte at offset"));
        free(f);
    }
    {
        /* nothing between the blank line and the END line */
        const char *h = strstr(a, "\n\n") + 2, *t = strstr(a, "-----END");
        size_t n = (size_t)(h - a) + strlen(t) + 1;
        char *x = malloc(n);
        ck_assert_ptr_nonnull(x);
        snprintf(x, n, "%.*s%s", (int)(h - a), a, t);
        refused_text(x, "no base64 text");
        free(x);
    }
    free(a);
    obj_free(&o);
}
END_TEST

START_TEST(t_arguments)
{
    struct obj o;
    const tts_params *p;
    uint8_t *out = NULL, *pay = NULL, img[8] = {'T', 'T', 'S', 'G', 1, 20, 28, 0};
    size_t len = 0;
    char err[64];
    obj_make(&o, tts_params_get("TTS(20,28)"));
    ck_assert_int_eq(tts_file_encode('X', o.p, o.pk, 0, &out, &len), TTS_EINVAL);
    ck_assert_int_eq(tts_file_encode(TTS_FILE_PUBLIC_KEY, NULL, o.pk, 0, &out,
                                     &len), TTS_EINVAL);
    ck_assert_int_eq(tts_file_encode(TTS_FILE_PUBLIC_KEY, o.p, NULL, 0, &out,
                                     &len), TTS_EINVAL);
    ck_assert_int_eq(tts_file_encode(TTS_FILE_PUBLIC_KEY, o.p, o.pk, 0x80, &out,
                                     &len), TTS_EINVAL);
    ck_assert_int_eq(tts_file_encode(TTS_FILE_PUBLIC_KEY, o.p, o.pk, 0, NULL,
                                     &len), TTS_EINVAL);
    ck_assert_ptr_null(out);
    ck_assert_int_eq(tts_file_decode(img, sizeof img, 'X', 0, &p, &pay, &len,
                                     err, sizeof err), TTS_EINVAL);
    ck_assert_int_eq(tts_file_decode(NULL, 8, TTS_FILE_SIGNATURE, 0, &p, &pay,
                                     &len, err, sizeof err), TTS_EINVAL);
    ck_assert_int_eq(tts_file_decode(img, sizeof img, TTS_FILE_SIGNATURE, 0x80,
                                     &p, &pay, &len, err, sizeof err), TTS_EINVAL);
    ck_assert_uint_eq(tts_file_payload_bytes(o.p, 'X'), 0);
    ck_assert_uint_eq(tts_file_payload_bytes(NULL, TTS_FILE_SIGNATURE), 0);
    ck_assert_str_eq(tts_file_kind_name(TTS_FILE_SECRET_KEY), "secret key");
    ck_assert_str_eq(tts_file_kind_name('X'), "unknown object");
    tts_file_free(NULL, 0);
    obj_free(&o);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("file");
    TCase *tc = tcase_create("codec");
    SRunner *sr;
    int nf;
    int sets = (int)tts_params_count();

    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, t_layout_and_round_trip, 0, sets);
    tcase_add_loop_test(tc, t_secret_key_flips, 0, sets);
    tcase_add_test(tc, t_malformed_binary);
    tcase_add_test(tc, t_malformed_armor);
    tcase_add_test(tc, t_arguments);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
