/*
 * The fields tts-challenge reads back from a challenge manifest.json it
 * wrote (tools/tts-challenge.1, FILES). Not a general JSON parser: a field
 * is the first `"KEY": "VALUE"` pair of the text, VALUE free of quotes and
 * backslashes.
 */
#ifndef TTS_MANIFEST_H
#define TTS_MANIFEST_H

#include <stddef.h>

/* Copy the value of KEY (at most len - 1 characters, NUL-terminated) into
 * out; 0 on success, -1 if absent, unterminated, escaped or too long. text
 * is NUL-terminated. */
int manifest_field(const char *text, const char *key, char *out, size_t len);

/* The 128 lowercase hex digits of a SHA-512 commitment: 0 or -1. */
int manifest_commitment(const char *text, char out[129]);

#endif
