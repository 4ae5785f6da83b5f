/* SPDX-License-Identifier: MIT */
/*
 * JSON: the string writer of every report (challenge, lab, break, bench),
 * and a strict reader for the small documents of the challenge (its
 * manifests and index): RFC 8259 objects, arrays, strings, non-negative
 * integers, true, false and null, with these refusals on top: duplicate
 * keys, anything after the top-level value, string escapes other than
 * \" \\ \/ and control characters, numbers that are not plain unsigned
 * integers below 2^53, nesting deeper than JSON_MAX_DEPTH, more than
 * JSON_MAX_NODES values. Errors name the byte offset.
 */
#ifndef TTS_CHALLENGE_JSON_H
#define TTS_CHALLENGE_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 8
#define JSON_MAX_NODES 20000

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY,
               JSON_OBJECT } json_type;

typedef struct json_node json_node;
struct json_node {
    json_type type;
    const char *key;        /* member name inside an object, else NULL */
    char *str;              /* JSON_STRING: NUL-terminated, no NUL inside */
    uint64_t num;           /* JSON_NUMBER, JSON_BOOL */
    json_node *child, *next; /* arrays and objects: first child; siblings */
    size_t count;           /* arrays and objects: number of children */
};

/* Parse text[0..len); *root is freed with json_free. 0 or -1 (err). */
int json_parse(const char *text, size_t len, json_node **root, char *err,
               size_t errlen);
void json_free(json_node *root);

/* The member of object obj named key, or NULL. */
const json_node *json_get(const json_node *obj, const char *key);

/* The writer every JSON report of the project uses for its strings: s
 * quoted, with '"', '\\' and the control characters escaped (what the
 * reader above accepts back). */
void json_write_str(FILE *f, const char *s);

#endif
