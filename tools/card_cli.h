/* SPDX-License-Identifier: MIT */
/*
 * tts-card's command line beside its main file: its usage text, and the
 * inputs of a device session as tts-card and tts-avr read them under the
 * file rules (common/fileio.h): the key, the public key meant, the PIN,
 * seeds and digests; and the public keys and signatures they write. Those
 * return 0, or 2 with the reason said on standard error ("tts-card: ...",
 * "tts-avr: ...").
 */
#ifndef TTS_CARD_CLI_H
#define TTS_CARD_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tts.h"

/* tts-card's usage text (--help; on a usage error, to standard error). */
void card_usage(FILE *f);

/* The whole of path (at most cap bytes; TTSFILE_PRIVATE: refuse files
 * group or others may access) into *buf (heap, *len bytes): free it with
 * tts_file_free. */
int card_read_file(const char *path, size_t cap, unsigned flags, uint8_t **buf, size_t *len);
/* Exactly want bytes from path: raw bytes of that length, or hex text
 * (what: "a seed", ... for the message). */
int card_read_exact(const char *path, uint8_t *out, size_t want, const char *what,
                    unsigned flags);
/* A key of kind TTS_FILE_SECRET_KEY or TTS_FILE_PUBLIC_KEY for set p: a
 * tts file (binary or armored; *bound = 1: a secret key's file binds it
 * to its public key), or the raw key bytes, or their hex (*bound = 0).
 * Secret keys: private files only. */
int card_read_key(const char *path, const tts_params *p, int kind, uint8_t *out, int *bound);
/* The PIN (4..16 bytes): a private file's bytes (a final newline
 * dropped), or with "-" a line typed on the terminal without echo (a
 * signal there restores the terminal before the tool dies of it), or
 * read from a pipe. */
int card_read_pin(const char *path, uint8_t pin[16], size_t *len);
/* A PIN to be set on the card: one a terminal can type (no NUL byte). */
int card_new_pin_ok(const uint8_t *pin, size_t len);

/* A public key or signature (kind TTS_FILE_*) of set p to path under the
 * tools' file rules (common/fileio.h): a tts file (docs/SPEC.md section 11;
 * flags TTS_FILE_ARMOR, TTSFILE_FORCE), or with raw the bare bytes. */
int card_write_object(const char *path, int kind, const tts_params *p, const uint8_t *obj,
                      int raw, unsigned flags);

/* put-key's key: keyfile read into key (skb bytes), accepted by the
 * library's key check, and its public key (into own) the one meant:
 * pkfile's, or without one the public key its tts file is bound to (a raw
 * or hex key needs pkfile). 0, or 2 said: nothing may reach the card. */
int card_install_key(const char *keyfile, const char *pkfile, const tts_params *p,
                     uint8_t *key, uint8_t *own);

/* sign's digest: of --digest HEX (always hex), --digest-file FILE (raw or
 * hex) or the message file (the empty message if none); given: how many
 * of them the command line named (more than one is refused). 0, or 2. */
int card_digest_of(const tts_params *p, const char *hex, const char *file, const char *msgfile,
                   int given, uint8_t *digest);

#endif
