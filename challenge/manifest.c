/* SPDX-License-Identifier: MIT */
/* manifest.json and index.json: written, and read back strictly
 * (challenge/challenge.h, tools/tts-challenge.1 FILES). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "challenge.h"
#include "json.h"

#define CHALLENGE_NAME   "libtts TTS Challenge"
#define COMMITMENT_LABEL "libtts challenge commitment"

#define say chal_fail

/* ---- writing ------------------------------------------------------------- */

char *chal_manifest_render(const tts_params *p, const uint8_t pk_sha256[32],
                           const char *date, const char *commitment,
                           unsigned k, const uint8_t *digests, size_t *len)
{
    const chal_entry *e = chal_entry_of(p);
    size_t db = tts_digest_bytes(p);
    char pkhex[65], dhex[2 * TTS_MAX_M + 1], *buf = NULL;
    FILE *f;

    if (!e || (f = open_memstream(&buf, len)) == NULL)
        return NULL;
    sodium_bin2hex(pkhex, sizeof pkhex, pk_sha256, 32);
    fprintf(f,
            "{\n  \"challenge\": \"" CHALLENGE_NAME "\",\n"
            "  \"set\": \"%s\",\n  \"m\": %u,\n  \"n\": %u,\n"
            "  \"v\": %u,\n  \"a\": %u,\n  \"b\": %u,\n"
            "  \"pk_bytes\": %zu,\n  \"sig_bytes\": %zu,\n"
            "  \"digest_bytes\": %zu,\n"
            "  \"pk_sha256\": \"%s\",\n"
            "  \"prize_usd\": %u,\n  \"claimed_bits\": %u,\n"
            "  \"issued\": ",
            tts_params_name(p), tts_params_m(p), tts_params_n(p),
            tts_params_v(p), tts_params_a(p), tts_params_b(p),
            tts_pk_bytes(p), tts_sig_bytes(p), db, pkhex, e->prize, e->bits);
    json_write_str(f, date);
    fprintf(f, ",\n"
               "  \"commitment_label\": \"" COMMITMENT_LABEL "\",\n"
               "  \"commitment\": \"%s\",\n"
               "  \"messages\": [",
            commitment);
    for (unsigned i = 1; i <= k; i++) {
        sodium_bin2hex(dhex, sizeof dhex, digests + (size_t)(i - 1) * db, db);
        fprintf(f, "%s\n    {\"index\": %u, \"file\": \"msg-%u.txt\", "
                   "\"digest\": \"%s\"}",
                i == 1 ? "" : ",", i, i, dhex);
    }
    fprintf(f, "\n  ]\n}\n");
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

char *chal_index_render(unsigned mask, unsigned k, const char *date,
                        size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    int first = 1;

    if (!f)
        return NULL;
    fprintf(f, "{\n  \"challenge\": \"" CHALLENGE_NAME "\",\n  \"issued\": ");
    json_write_str(f, date);
    fprintf(f, ",\n  \"instances\": %u,\n  \"sets\": [", k);
    for (size_t i = 0; i < tts_params_count(); i++)
        if (mask & (1u << i)) {
            fprintf(f, "%s\"%s\"", first ? "" : ", ",
                    tts_params_name(tts_params_at(i)));
            first = 0;
        }
    fprintf(f, "]\n}\n");
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- reading ------------------------------------------------------------- */

/* The fields of a manifest, in the order generate writes them, with their
 * types; every one required, no other allowed. */
static const struct {
    const char *key;
    json_type type;
} manifest_fields[] = {
    {"challenge", JSON_STRING},   {"set", JSON_STRING},
    {"m", JSON_NUMBER},           {"n", JSON_NUMBER},
    {"v", JSON_NUMBER},           {"a", JSON_NUMBER},
    {"b", JSON_NUMBER},           {"pk_bytes", JSON_NUMBER},
    {"sig_bytes", JSON_NUMBER},   {"digest_bytes", JSON_NUMBER},
    {"pk_sha256", JSON_STRING},   {"prize_usd", JSON_NUMBER},
    {"claimed_bits", JSON_NUMBER}, {"issued", JSON_STRING},
    {"commitment_label", JSON_STRING}, {"commitment", JSON_STRING},
    {"messages", JSON_ARRAY},
};
#define NFIELDS (sizeof manifest_fields / sizeof manifest_fields[0])

static const char *type_name(json_type t)
{
    static const char *names[] = {"null", "a boolean", "a number",
                                  "a string", "an array", "an object"};
    return names[t];
}

/* obj has exactly the n fields of want (types checked). */
static int check_fields(const json_node *obj, const char *what,
                        const char *const *keys, const json_type *types,
                        size_t n, char *err, size_t errlen)
{
    if (!obj || obj->type != JSON_OBJECT)
        return say(err, errlen, "%s is not a JSON object", what);
    for (const json_node *c = obj->child; c; c = c->next) {
        size_t i = 0;
        while (i < n && strcmp(keys[i], c->key) != 0)
            i++;
        if (i == n)
            return say(err, errlen, "%s: unexpected field \"%.40s\"", what,
                       c->key);
        if (c->type != types[i])
            return say(err, errlen, "%s: field \"%s\" is %s, expected %s",
                       what, keys[i], type_name(c->type), type_name(types[i]));
    }
    for (size_t i = 0; i < n; i++)
        if (!json_get(obj, keys[i]))
            return say(err, errlen, "%s: field \"%s\" is missing", what,
                       keys[i]);
    return CHAL_OK;
}

/* Lowercase hex of exactly len bytes into out. */
static int hex_field(const json_node *n, uint8_t *out, size_t len)
{
    size_t got;

    if (strlen(n->str) != 2 * len ||
        strspn(n->str, "0123456789abcdef") != 2 * len)
        return -1;
    return sodium_hex2bin(out, len, n->str, 2 * len, NULL, &got, NULL) == 0 &&
                   got == len ? 0 : -1;
}

static int number_is(const json_node *obj, const char *key, size_t want,
                     char *err, size_t errlen)
{
    const json_node *n = json_get(obj, key);
    if (n->num != want)
        return say(err, errlen, "manifest: \"%s\" is %llu, the set has %zu",
                   key, (unsigned long long)n->num, want);
    return CHAL_OK;
}

int chal_manifest_parse(const char *text, size_t len, chal_manifest *m,
                        char *err, size_t errlen)
{
    const char *keys[NFIELDS];
    json_type types[NFIELDS];
    json_node *root;
    char why[200];
    int rc = CHAL_ERROR;

    memset(m, 0, sizeof *m);
    if (json_parse(text, len, &root, why, sizeof why) != 0)
        return say(err, errlen, "manifest: %s", why);
    for (size_t i = 0; i < NFIELDS; i++) {
        keys[i] = manifest_fields[i].key;
        types[i] = manifest_fields[i].type;
    }
    if (check_fields(root, "manifest", keys, types, NFIELDS, err, errlen))
        goto out;
    if (strcmp(json_get(root, "challenge")->str, CHALLENGE_NAME) != 0 ||
        strcmp(json_get(root, "commitment_label")->str, COMMITMENT_LABEL)) {
        say(err, errlen, "manifest: not a libtts challenge manifest");
        goto out;
    }
    const tts_params *p = tts_params_get(json_get(root, "set")->str);
    if (!p || strcmp(tts_params_name(p), json_get(root, "set")->str) != 0) {
        say(err, errlen, "manifest: unknown set \"%.40s\"",
            json_get(root, "set")->str);
        goto out;
    }
    const chal_entry *e = chal_entry_of(p);
    if (number_is(root, "m", tts_params_m(p), err, errlen) ||
        number_is(root, "n", tts_params_n(p), err, errlen) ||
        number_is(root, "v", tts_params_v(p), err, errlen) ||
        number_is(root, "a", tts_params_a(p), err, errlen) ||
        number_is(root, "b", tts_params_b(p), err, errlen) ||
        number_is(root, "pk_bytes", tts_pk_bytes(p), err, errlen) ||
        number_is(root, "sig_bytes", tts_sig_bytes(p), err, errlen) ||
        number_is(root, "digest_bytes", tts_digest_bytes(p), err, errlen) ||
        number_is(root, "prize_usd", e->prize, err, errlen) ||
        number_is(root, "claimed_bits", e->bits, err, errlen))
        goto out;
    m->p = p;
    if (hex_field(json_get(root, "pk_sha256"), m->pk_sha256, 32) != 0) {
        say(err, errlen, "manifest: \"pk_sha256\" is not 64 lowercase hex "
            "digits");
        goto out;
    }
    const char *issued = json_get(root, "issued")->str;
    if (!chal_valid_date(issued)) {
        say(err, errlen, "manifest: \"issued\" is not a date YYYY-MM-DD");
        goto out;
    }
    memcpy(m->issued, issued, 11);
    const char *com = json_get(root, "commitment")->str;
    if (strlen(com) != 128 || strspn(com, "0123456789abcdef") != 128) {
        say(err, errlen, "manifest: \"commitment\" is not 128 lowercase hex "
            "digits");
        goto out;
    }
    memcpy(m->commitment, com, 129);

    const json_node *msgs = json_get(root, "messages");
    if (msgs->count < 1 || msgs->count > CHAL_MAX_INSTANCES) {
        say(err, errlen, "manifest: %zu messages, expected 1..%d",
            msgs->count, CHAL_MAX_INSTANCES);
        goto out;
    }
    if ((m->messages = calloc(msgs->count, sizeof *m->messages)) == NULL) {
        say(err, errlen, "out of memory");
        goto out;
    }
    static const char *mkeys[] = {"index", "file", "digest"};
    static const json_type mtypes[] = {JSON_NUMBER, JSON_STRING, JSON_STRING};
    unsigned i = 0;
    for (const json_node *c = msgs->child; c; c = c->next, i++) {
        chal_message *mm = &m->messages[i];
        const char *file;
        snprintf(why, sizeof why, "manifest: message %u", i + 1);
        if (check_fields(c, why, mkeys, mtypes, 3, err, errlen))
            goto out;
        if (json_get(c, "index")->num != i + 1) {
            say(err, errlen, "manifest: message %u has index %llu (messages "
                "are numbered 1..K in order, once each)", i + 1,
                (unsigned long long)json_get(c, "index")->num);
            goto out;
        }
        mm->index = i + 1;
        file = json_get(c, "file")->str;
        if (!chal_plain_name(file) || strlen(file) >= sizeof mm->file) {
            char nm[256];
            say(err, errlen, "manifest: message %u: file \"%.60s\" is not a "
                "plain file name inside the folder", i + 1,
                chal_io_get()->shown(nm, sizeof nm, file));
            goto out;
        }
        memcpy(mm->file, file, strlen(file) + 1);
        if (hex_field(json_get(c, "digest"), mm->digest,
                      tts_digest_bytes(p)) != 0) {
            say(err, errlen, "manifest: message %u: digest is not %zu "
                "lowercase hex digits", i + 1, 2 * tts_digest_bytes(p));
            goto out;
        }
    }
    m->nmessages = i;
    rc = CHAL_OK;
out:
    json_free(root);
    if (rc != CHAL_OK)
        chal_manifest_free(m);
    return rc;
}

void chal_manifest_free(chal_manifest *m)
{
    free(m->messages);
    m->messages = NULL;
    m->nmessages = 0;
}

int chal_index_parse(const char *text, size_t len, unsigned *mask,
                     unsigned *k, char date[11], char *err, size_t errlen)
{
    static const char *keys[] = {"challenge", "issued", "instances", "sets"};
    static const json_type types[] = {JSON_STRING, JSON_STRING, JSON_NUMBER,
                                      JSON_ARRAY};
    json_node *root;
    char why[200];
    int rc = CHAL_ERROR;

    if (json_parse(text, len, &root, why, sizeof why) != 0)
        return say(err, errlen, CHAL_INDEX_NAME ": %s", why);
    if (check_fields(root, CHAL_INDEX_NAME, keys, types, 4, err, errlen))
        goto out;
    if (strcmp(json_get(root, "challenge")->str, CHALLENGE_NAME) != 0 ||
        !chal_valid_date(json_get(root, "issued")->str) ||
        json_get(root, "instances")->num < 1 ||
        json_get(root, "instances")->num > CHAL_MAX_INSTANCES) {
        say(err, errlen, CHAL_INDEX_NAME ": not a libtts challenge index");
        goto out;
    }
    *mask = 0;
    for (const json_node *c = json_get(root, "sets")->child; c; c = c->next) {
        const tts_params *p = c->type == JSON_STRING ? tts_params_get(c->str)
                                                     : NULL;
        size_t j = 0;
        if (!p || strcmp(tts_params_name(p), c->str) != 0 ||
            !chal_entry_of(p)) {
            say(err, errlen, CHAL_INDEX_NAME ": unknown set in \"sets\"");
            goto out;
        }
        while (tts_params_at(j) != p)
            j++;
        if (*mask & (1u << j)) {
            say(err, errlen, CHAL_INDEX_NAME ": %s listed twice",
                tts_params_name(p));
            goto out;
        }
        *mask |= 1u << j;
    }
    if (!*mask) {
        say(err, errlen, CHAL_INDEX_NAME ": no sets");
        goto out;
    }
    *k = (unsigned)json_get(root, "instances")->num;
    memcpy(date, json_get(root, "issued")->str, 11);
    rc = CHAL_OK;
out:
    json_free(root);
    return rc;
}
