/* SPDX-License-Identifier: MIT */
/* The JSON string writer and the strict reader of common/json.h. */
#include "json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
    const char *s;
    size_t len, pos, nodes;
    char *err;
    size_t errlen;
    int failed;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void bad(struct parser *p, const char *fmt, ...)
{
    va_list ap;
    char why[160];

    if (p->failed)
        return;
    p->failed = 1;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (p->err && p->errlen)
        snprintf(p->err, p->errlen, "JSON at byte %zu: %s", p->pos, why);
}

static void skip_ws(struct parser *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                               p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static int peek(struct parser *p)
{
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static json_node *node(struct parser *p, json_type t)
{
    json_node *n;

    if (++p->nodes > JSON_MAX_NODES) {
        bad(p, "more than %d values", JSON_MAX_NODES);
        return NULL;
    }
    if ((n = calloc(1, sizeof *n)) == NULL)
        bad(p, "out of memory");
    else
        n->type = t;
    return n;
}

static char *string(struct parser *p)
{
    size_t start, n = 0;
    char *out;

    if (peek(p) != '"') {
        bad(p, "expected a string");
        return NULL;
    }
    start = ++p->pos;
    /* first pass: the length and the checks */
    for (;;) {
        int c = peek(p);
        if (c < 0) {
            bad(p, "unterminated string");
            return NULL;
        }
        if (c == '"')
            break;
        if (c < 0x20) {
            bad(p, "control character in a string");
            return NULL;
        }
        if (c == '\\') {
            p->pos++;
            c = peek(p);
            if (c != '"' && c != '\\' && c != '/') {
                bad(p, "unsupported escape in a string");
                return NULL;
            }
        }
        p->pos++;
        n++;
    }
    if ((out = malloc(n + 1)) == NULL) {
        bad(p, "out of memory");
        return NULL;
    }
    for (size_t i = start, j = 0; j < n; i++) {
        if (p->s[i] == '\\')
            i++;
        out[j++] = p->s[i];
    }
    out[n] = 0;
    p->pos++; /* the closing quote */
    return out;
}

static json_node *value(struct parser *p, int depth);

static json_node *container(struct parser *p, int depth, int object)
{
    json_node *n = node(p, object ? JSON_OBJECT : JSON_ARRAY), **tail;
    char close = object ? '}' : ']';

    if (!n)
        return NULL;
    if (depth >= JSON_MAX_DEPTH) {
        bad(p, "nested deeper than %d", JSON_MAX_DEPTH);
        return n;
    }
    tail = &n->child;
    p->pos++;
    skip_ws(p);
    if (peek(p) == close) {
        p->pos++;
        return n;
    }
    for (;;) {
        char *key = NULL;
        json_node *v;
        skip_ws(p);
        if (object) {
            if ((key = string(p)) == NULL)
                return n;
            for (json_node *c = n->child; c; c = c->next)
                if (strcmp(c->key, key) == 0) {
                    bad(p, "duplicate key \"%.40s\"", key);
                    free(key);
                    return n;
                }
            skip_ws(p);
            if (peek(p) != ':') {
                free(key);
                bad(p, "expected ':'");
                return n;
            }
            p->pos++;
        }
        v = value(p, depth + 1);
        if (!v) {
            free(key);
            return n;
        }
        v->key = key;
        *tail = v;
        tail = &v->next;
        n->count++;
        if (p->failed)
            return n;
        skip_ws(p);
        if (peek(p) == ',') {
            p->pos++;
            continue;
        }
        if (peek(p) == close) {
            p->pos++;
            return n;
        }
        bad(p, "expected ',' or '%c'", close);
        return n;
    }
}

static json_node *number(struct parser *p)
{
    json_node *n;
    uint64_t v = 0;
    size_t start = p->pos;

    while (peek(p) >= '0' && peek(p) <= '9') {
        v = v * 10 + (uint64_t)(peek(p) - '0');
        if (v >= (uint64_t)1 << 53) {
            bad(p, "number too large");
            return NULL;
        }
        p->pos++;
    }
    if (p->pos - start > 1 && p->s[start] == '0') {
        bad(p, "leading zero in a number");
        return NULL;
    }
    if (peek(p) == '.' || peek(p) == 'e' || peek(p) == 'E') {
        bad(p, "only unsigned integers are expected");
        return NULL;
    }
    if ((n = node(p, JSON_NUMBER)) != NULL)
        n->num = v;
    return n;
}

static json_node *literal(struct parser *p, const char *word, json_type t,
                          uint64_t v)
{
    size_t l = strlen(word);
    json_node *n;

    if (p->len - p->pos < l || memcmp(p->s + p->pos, word, l) != 0) {
        bad(p, "unexpected character");
        return NULL;
    }
    p->pos += l;
    if ((n = node(p, t)) != NULL)
        n->num = v;
    return n;
}

static json_node *value(struct parser *p, int depth)
{
    json_node *n;
    int c;

    skip_ws(p);
    c = peek(p);
    if (c == '{' || c == '[')
        return container(p, depth, c == '{');
    if (c == '"') {
        char *s = string(p);
        if (!s)
            return NULL;
        if ((n = node(p, JSON_STRING)) == NULL) {
            free(s);
            return NULL;
        }
        n->str = s;
        return n;
    }
    if (c >= '0' && c <= '9')
        return number(p);
    if (c == 't')
        return literal(p, "true", JSON_BOOL, 1);
    if (c == 'f')
        return literal(p, "false", JSON_BOOL, 0);
    if (c == 'n')
        return literal(p, "null", JSON_NULL, 0);
    bad(p, c < 0 ? "unexpected end of text" : "unexpected character");
    return NULL;
}

int json_parse(const char *text, size_t len, json_node **root, char *err,
               size_t errlen)
{
    struct parser p = {text, len, 0, 0, err, errlen, 0};
    json_node *r;

    *root = NULL;
    if (memchr(text, 0, len)) {
        p.pos = (size_t)((const char *)memchr(text, 0, len) - text);
        bad(&p, "NUL byte");
        return -1;
    }
    r = value(&p, 0);
    if (!p.failed) {
        skip_ws(&p);
        if (p.pos != p.len)
            bad(&p, "unexpected data after the document");
    }
    if (p.failed) {
        json_free(r);
        return -1;
    }
    *root = r;
    return 0;
}

void json_free(json_node *n)
{
    while (n) {
        json_node *next = n->next;
        json_free(n->child);
        free((char *)n->key);
        free(n->str);
        free(n);
        n = next;
    }
}

const json_node *json_get(const json_node *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT)
        return NULL;
    for (const json_node *c = obj->child; c; c = c->next)
        if (strcmp(c->key, key) == 0)
            return c;
    return NULL;
}

void json_write_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}
