/* SPDX-License-Identifier: MIT */
/*
 * The card session's state: what the host knows of the card (its active
 * key, the PUT KEY staging, for the cross-checks), tracked command by
 * command, and the --eeprom file that keeps it with the card's XDATA
 * between sessions.
 *
 * The file: "TTSCARD3", m, n, then the host's view (active, pending,
 * sk[skb], written[skb], stage[skb], cand[skb]), then the card's XDATA
 * (CARD_XRAM_BYTES, its non-volatile memory as the simulator left it).
 * ("TTSCARD2" files, without pending and cand, are read too.) It holds the card's
 * secret key: written 0600, refused when others may access it. An empty
 * file is a fresh card (an erased EEPROM).
 *
 * A session holds the file from load to save: card_store_open takes an
 * exclusive lock (flock) on it, waiting with a message while another
 * session holds it, and loads it; card_store_save writes the new state to
 * a fresh temporary in the same folder, flushes it and renames it into
 * place, and only then may the session release an answer. A file whose
 * host view is malformed (flags out of range, an active key the library
 * refuses) is a corrupted state file, refused.
 */
#ifndef TTS_CARDSTATE_H
#define TTS_CARDSTATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <tts.h>

#include "cardsim.h"

typedef struct {
    const tts_params *p;
    size_t skb, pkb;
    int active;           /* the card holds a key */
    uint8_t *sk;          /* active key (raw), valid if active */
    uint8_t *stage;       /* PUT KEY bytes since the last GENERATE/COMMIT */
    uint8_t *written;     /* 1 per staged byte written */
    /* A GENERATE KEY or COMMIT KEY cut before its answer: the card holds
     * the old key or cand, which the next session settles
     * (card_state_settle) */
    int pending;
    uint8_t *cand;
} card_state;

/* 0, or -1 (out of memory). */
int card_state_init(card_state *s, const tts_params *p);
void card_state_free(card_state *s);
/* dst (initialised for the same set) = src. */
void card_state_copy(card_state *dst, const card_state *src);
/* Update from one command and its answer (the card's rules, docs/SPEC.md
 * section 7.2). r NULL: the command was not answered. */
void card_state_track(card_state *s, const card_apdu *a, const card_resp *r);

/* The command a --cut stopped before its answer: a GENERATE KEY, or a
 * COMMIT KEY of a whole staged key, makes the install pending. */
void card_state_cut(card_state *s, const card_apdu *a);

/* Settle a pending install from a session's answers (b, run from s):
 * probe, the index of a GET PK SEGMENT 0 sent for it (or (size_t)-1),
 * else the first signature answered before any install (raw or not),
 * verified under the old key's public key and the candidate's. Returns
 * 0 if nothing was pending, 1 the old key stays, 2 the candidate took,
 * 3 unknown still (s unchanged), -1 neither key's (s: no key known). */
int card_state_settle(card_state *s, const card_batch *b, size_t probe);
/* Apply a verdict of card_state_settle (1, 2 or -1) to another view. */
void card_state_resolve(card_state *s, int verdict);
/* The line that says a verdict of card_state_settle (none for 0): on rep,
 * or on standard error for -1. */
void card_state_say_settle(FILE *rep, int verdict);

typedef struct {
    const char *path;
    int fd;               /* the locked file, or -1 */
    int created;          /* this session made it (empty: a fresh card) */
    int saved;
} card_store;

/* Lock path (made empty if it does not exist) and load it into s and
 * xram (CARD_XRAM_BYTES). *restored: 1 if it held a card, 0 for a fresh
 * one. who names the program in the message said while another session
 * holds the lock ("tts-card"). 0, or -1 with the reason in err. */
int card_store_open(card_store *st, const char *path, const char *who, card_state *s,
                    uint8_t *xram, int *restored, char *err, size_t errlen);

/* Store s and xram (0, or -1 with the reason in err: the session has
 * failed and must release nothing). */
int card_store_save(card_store *st, const card_state *s, const uint8_t *xram, char *err,
                    size_t errlen);

/* The lock alone (tts-avr's state file too): path opened (made empty,
 * *created = 1, if it does not exist; never through a symbolic link),
 * a regular file, locked exclusively (waiting, with a message on
 * standard error that starts with who, the program's name, while another
 * session of it holds it), and still the file at path once locked. The
 * locked descriptor, or -1 with the reason in err. */
int card_lock_path(const char *path, const char *who, int *created, char *err, size_t errlen);

/* Release the lock; a file this session made and never saved is removed. */
void card_store_close(card_store *st);

#endif
