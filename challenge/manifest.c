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
#include "sflash_break.h"

#define CHALLENGE_NAME   "libtts TTS Challenge"
#define COMMITMENT_LABEL "libtts challenge commitment"
#define STATUS           "broken"
#define SFLASH_PRIZE     "none: SFLASH was never part of the TTS challenge"

#define say chal_fail

/* ---- writing ------------------------------------------------------------- */

/* old: the layout of TTS manifests before "status" (no "status",
 * "prize_usd" for "historical_prize_usd"). */
static char *render(int set, int old, const uint8_t pk_sha256[32],
                    const char *date, const char *commitment, unsigned k,
                    const uint8_t *digests, size_t *len)
{
    const tts_params *p = chal_set_params(set);
    const chal_entry *e = chal_entry_of(p);
    size_t db = chal_set_digest_bytes(set);
    char pkhex[65], dhex[2 * TTS_MAX_M + 1], *buf = NULL;
    FILE *f;

    if ((!e && set != chal_set_sflash()) || (old && !e) ||
        (f = open_memstream(&buf, len)) == NULL)
        return NULL;
    sodium_bin2hex(pkhex, sizeof pkhex, pk_sha256, 32);
    fprintf(f, "{\n  \"challenge\": \"" CHALLENGE_NAME "\",\n"
               "  \"set\": \"%s\",\n", chal_set_name(set));
    if (!old)
        fprintf(f, "  \"status\": \"" STATUS "\",\n");
    if (p)
        fprintf(f, "  \"m\": %u,\n  \"n\": %u,\n"
                   "  \"v\": %u,\n  \"a\": %u,\n  \"b\": %u,\n",
                tts_params_m(p), tts_params_n(p), tts_params_v(p),
                tts_params_a(p), tts_params_b(p));
    else
        fprintf(f, "  \"prize\": \"" SFLASH_PRIZE "\",\n"
                   "  \"m\": %d,\n  \"n\": %d,\n", CHAL_SFLASH_M, CHAL_SFLASH_N);
    fprintf(f, "  \"pk_bytes\": %zu,\n  \"sig_bytes\": %zu,\n"
               "  \"digest_bytes\": %zu,\n"
               "  \"pk_sha256\": \"%s\",\n",
            chal_set_pk_bytes(set), chal_set_sig_bytes(set), db, pkhex);
    if (p)
        fprintf(f, "  \"%s\": %u,\n  \"claimed_bits\": %u,\n",
                old ? "prize_usd" : "historical_prize_usd", e->prize, e->bits);
    fprintf(f, "  \"issued\": ");
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

char *chal_manifest_render(int set, const uint8_t pk_sha256[32],
                           const char *date, const char *commitment,
                           unsigned k, const uint8_t *digests, size_t *len)
{
    return render(set, 0, pk_sha256, date, commitment, k, digests, len);
}

char *chal_manifest_render_old(const chal_manifest *m, size_t *len)
{
    size_t db = chal_set_digest_bytes(m->set);
    uint8_t *dg = malloc((size_t)m->nmessages * db);
    char *text = NULL;

    if (!dg)
        return NULL;
    for (unsigned i = 0; i < m->nmessages; i++)
        memcpy(dg + (size_t)i * db, m->messages[i].digest, db);
    text = render(m->set, 1, m->pk_sha256, m->issued, m->commitment,
                  m->nmessages, dg, len);
    free(dg);
    return text;
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
    for (int i = 0; i < chal_set_count(); i++)
        if (mask & (1u << i)) {
            fprintf(f, "%s\"%s\"", first ? "" : ", ", chal_set_name(i));
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
 * types and the kinds of manifest that have them; in each kind every one
 * is required and no other allowed. */
enum {
    KIND_TTS = 1,     /* a TTS manifest */
    KIND_TTS_OLD = 2, /* one issued before "status" (with "prize_usd") */
    KIND_SFLASH = 4,
    KIND_ALL = 7
};
static const struct {
    const char *key;
    json_type type;
    unsigned kinds;
} manifest_fields[] = {
    {"challenge", JSON_STRING, KIND_ALL},
    {"set", JSON_STRING, KIND_ALL},
    {"status", JSON_STRING, KIND_TTS | KIND_SFLASH},
    {"prize", JSON_STRING, KIND_SFLASH},
    {"m", JSON_NUMBER, KIND_ALL},
    {"n", JSON_NUMBER, KIND_ALL},
    {"v", JSON_NUMBER, KIND_TTS | KIND_TTS_OLD},
    {"a", JSON_NUMBER, KIND_TTS | KIND_TTS_OLD},
    {"b", JSON_NUMBER, KIND_TTS | KIND_TTS_OLD},
    {"pk_bytes", JSON_NUMBER, KIND_ALL},
    {"sig_bytes", JSON_NUMBER, KIND_ALL},
    {"digest_bytes", JSON_NUMBER, KIND_ALL},
    {"pk_sha256", JSON_STRING, KIND_ALL},
    {"historical_prize_usd", JSON_NUMBER, KIND_TTS},
    {"prize_usd", JSON_NUMBER, KIND_TTS_OLD},
    {"claimed_bits", JSON_NUMBER, KIND_TTS | KIND_TTS_OLD},
    {"issued", JSON_STRING, KIND_ALL},
    {"commitment_label", JSON_STRING, KIND_ALL},
    {"commitment", JSON_STRING, KIND_ALL},
    {"messages", JSON_ARRAY, KIND_ALL},
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
    m->set = -1;
    if (json_parse(text, len, &root, why, sizeof why) != 0)
        return say(err, errlen, "manifest: %s", why);
    /* the kind: SFLASH by its set, a TTS manifest before "status" by its
     * "prize_usd"; the fields are then checked against that kind's list */
    const json_node *sn = root && root->type == JSON_OBJECT
                              ? json_get(root, "set") : NULL;
    int set = sn && sn->type == JSON_STRING ? chal_set_find(sn->str) : -1;
    unsigned kind = set >= 0 && set == chal_set_sflash() ? KIND_SFLASH
                    : sn && json_get(root, "prize_usd") ? KIND_TTS_OLD
                                                        : KIND_TTS;
    size_t nf = 0;
    for (size_t i = 0; i < NFIELDS; i++)
        if (manifest_fields[i].kinds & kind) {
            keys[nf] = manifest_fields[i].key;
            types[nf++] = manifest_fields[i].type;
        }
    if (check_fields(root, "manifest", keys, types, nf, err, errlen))
        goto out;
    if (strcmp(json_get(root, "challenge")->str, CHALLENGE_NAME) != 0 ||
        strcmp(json_get(root, "commitment_label")->str, COMMITMENT_LABEL)) {
        say(err, errlen, "manifest: not a libtts challenge manifest");
        goto out;
    }
    if (set < 0 || strcmp(chal_set_name(set), sn->str) != 0) {
        say(err, errlen, "manifest: unknown set \"%.40s\"", sn->str);
        goto out;
    }
    if (kind != KIND_TTS_OLD &&
        strcmp(json_get(root, "status")->str, STATUS) != 0) {
        say(err, errlen, "manifest: \"status\" is not \"" STATUS "\"");
        goto out;
    }
    if (kind == KIND_SFLASH &&
        strcmp(json_get(root, "prize")->str, SFLASH_PRIZE) != 0) {
        say(err, errlen, "manifest: \"prize\" is not \"" SFLASH_PRIZE "\"");
        goto out;
    }
    const tts_params *p = chal_set_params(set);
    const chal_entry *e = chal_entry_of(p);
    if (number_is(root, "pk_bytes", chal_set_pk_bytes(set), err, errlen) ||
        number_is(root, "sig_bytes", chal_set_sig_bytes(set), err, errlen) ||
        number_is(root, "digest_bytes", chal_set_digest_bytes(set), err,
                  errlen))
        goto out;
    if (!p ? number_is(root, "m", CHAL_SFLASH_M, err, errlen) ||
                 number_is(root, "n", CHAL_SFLASH_N, err, errlen)
           : number_is(root, "m", tts_params_m(p), err, errlen) ||
                 number_is(root, "n", tts_params_n(p), err, errlen) ||
                 number_is(root, "v", tts_params_v(p), err, errlen) ||
                 number_is(root, "a", tts_params_a(p), err, errlen) ||
                 number_is(root, "b", tts_params_b(p), err, errlen) ||
                 number_is(root, kind == KIND_TTS_OLD ? "prize_usd"
                                                      : "historical_prize_usd",
                           e->prize, err, errlen) ||
                 number_is(root, "claimed_bits", e->bits, err, errlen))
        goto out;
    m->set = set;
    m->p = p;
    m->old_prize = kind == KIND_TTS_OLD;
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
                      chal_set_digest_bytes(set)) != 0) {
            say(err, errlen, "manifest: message %u: digest is not %zu "
                "lowercase hex digits", i + 1, 2 * chal_set_digest_bytes(set));
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
        int j = c->type == JSON_STRING ? chal_set_find(c->str) : -1;
        if (j < 0 || strcmp(chal_set_name(j), c->str) != 0) {
            say(err, errlen, CHAL_INDEX_NAME ": unknown set in \"sets\"");
            goto out;
        }
        if (*mask & (1u << j)) {
            say(err, errlen, CHAL_INDEX_NAME ": %s listed twice",
                chal_set_name(j));
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
