/* SPDX-License-Identifier: MIT */
/*
 * The ChaCha20 page X_STR (owned by chacha.c, the keystream, and
 * chacha_block.c, the block function's variants): the input block (the
 * counter at +48) and the current keystream block (+64).
 */
#ifndef TTS_CARD_CHACHA_H
#define TTS_CARD_CHACHA_H

#include "kernels.h"

#define SIN    ((__xdata uint32_t *)X_STR)
#define SCTR   (*(__xdata uint32_t *)(X_STR + 48))
#define SBLK   XP(X_STR + 64)

#if (X_STR & 0xFF) != 0
#error "chacha.c: the ChaCha20 page must start on a 256-byte boundary"
#endif

#endif
