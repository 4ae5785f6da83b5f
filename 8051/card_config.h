/* SPDX-License-Identifier: MIT */
/*
 * The card's configuration (card.h includes this first): one parameter set
 * per image (-DTTS_M=m -DTTS_N=n), the image family (-DCARD_128,
 * -DCARD_ROM, or neither: the 256-byte family) and the kernels it runs
 * (-DCARD_C_KERNELS: the C twins), the set's sizes from the generated
 * card_tables.h.
 */
#ifndef CARD_CONFIG_H
#define CARD_CONFIG_H

#include <stdint.h>

#ifdef CARD_HOST /* SDCC's memory-space keywords mean nothing on the host */
#define __xdata
#define __idata
#define __data
#define __code
#define __at(x)
#define __reentrant
#endif

#ifndef TTS_M
#define TTS_M 20
#define TTS_N 28
#endif

/* -DCARD_128: the 128-byte internal-RAM family (tts-M-N-128.ihx, an
 * 8051 / 80C51 / smart-card core), SDCC's large model. For n <= 32
 * (TTS(16,22) .. TTS(24,32), whose signing arena of n + max(n, 2(v + a +
 * 2), 3 max(a, b)) <= 76 bytes leaves room for the data bytes and the
 * SIGN stack below it; build-image.sh checks that room; CARD_128_ASM)
 * every kernel is the assembly one, on an internal arena placed at the top
 * of the 128 bytes (IA_ABS) over the spill bytes and the stack of the
 * command code: signing runs on a stack of its own below it (sign.c), and
 * each key set-up and public-key kernel parks the arena's live bytes in
 * XDATA while it runs (kernels.c: ka_call); for the larger sets the
 * arena IA itself lives in XDATA and every kernel is the C twin (which
 * address it through ARENA pointers). ChaCha20 keeps its assembly block in
 * both (its state in 0x40..0x7F with the interrupts held off, see
 * chacha.c). */
#ifdef CARD_128
#if TTS_N <= 32 && !defined(CARD_C_KERNELS)
#define CARD_128_ASM
#define ARENA __idata
typedef uint8_t arena_t;
#else
#ifndef CARD_C_KERNELS
#define CARD_C_KERNELS
#define CARD_ASM_CHACHA
#endif
#define ARENA __xdata
typedef uint16_t arena_t;   /* an address in the arena */
#endif
#define IRAM_TOP 0x7F       /* last internal RAM byte */
#elif defined(CARD_ROM)
/* -DCARD_ROM: the ROM-sized signing family (tts-M-N-rom.ihx: 128 B of
 * internal RAM, SDCC's small model, personalised by PUT KEY; rom.c and
 * the kernels of kernels_rom.c, Gauss-Jordan of k_gauss.c). With
 * -DCARD_ROM_4K -DCARD_ROM_NO_PROFILE, the 4 KB image of TTS(16,22),
 * TTS(20,26) and TTS(24,32) (tts-M-N-rom4k.ihx): ChaCha20's rounds rolled
 * and the layers by Gauss-Jordan (card_map.h), without GET PROFILE,
 * COMMIT KEY's check by its check points alone; -DCARD_ROM_NO_CHECK
 * leaves out COMMIT KEY's check. TTS(20,28)'s 4 KB image, within 224 ms
 * (-DCARD_ROM_POINT_ONLY -DCARD_ROM_NO_PROFILE -DCARD_ROM_MV_ROLL
 * -DCARD_ROM_WO_LOOP -DCARD_ROM_NEAR; its measurement without the check,
 * tts-20-28-rom4k-nocheck.ihx, -DCARD_ROM_NO_CHECK and -DCARD_ROM_FILL_GAP
 * instead of the first and the last): the matvec four rows a pass, the
 * layer build's rows written out by a loop over the first page's columns,
 * four a pass (kernels_rom.c: a = b), and the area RGAP right after the
 * vectors with more of the command layer in it (build-image.sh). These
 * builds and their measurements: docs/CARD-IMAGES.md. */
#define ARENA __idata
typedef uint8_t arena_t;
#define IRAM_TOP 0x7F
/* -DCARD_ROM_POINT_ONLY: COMMIT KEY's check is its check points alone
 * (protocol.h), without Gauss-Jordan on S3 and S1 and s1 = F(c3): the 4 KB
 * images, whose room it makes (docs/CARD.md, "A faulty key") */
#if defined(CARD_ROM_4K) && !defined(CARD_ROM_POINT_ONLY)
#define CARD_ROM_POINT_ONLY
#endif
#else
#define ARENA __idata
typedef uint8_t arena_t;
#define IRAM_TOP 0xFF
#endif
/* -DCARD_ROM_NEAR (TTS(20,28)'s 4 KB image, tts-20-28-rom4k.ihx): NCALL and NJMP, the ROM family's calls and
 * jumps that the link of that image allows in two bytes (the target in the
 * same 2 KB page: aslink refuses any other), are ACALL and AJMP; else
 * LCALL and LJMP, three bytes. Either takes two machine cycles: the cycles
 * stay. With it the area RGAP starts right after the vectors, with
 * stream_wipe and a few of rom.c's helpers in it (build-image.sh, chacha.c,
 * rom.c). That image takes -DCARD_ROM_WO_LOOP as well. */
#ifdef CARD_ROM_NEAR
#define NCALL acall
#define NJMP ajmp
#else
#define NCALL lcall
#define NJMP ljmp
#endif
#ifdef CARD_C_KERNELS
#define CARD_C_SETUP        /* the set-up kernels' C twins as well */
#endif

#include "card_tables.h"

#define M TTS_M
#define N TTS_N
#define V TTS_V
#define A TTS_A
#define B TTS_B
#define C TTS_C

#define SK_BYTES   (M * (M + 1) + N * (N + 1) + C)
#define SK_S1      0
#define SK_s1      (M * M)
#define SK_S3      (M * (M + 1))
#define SK_s3      (M * (M + 1) + N * N)
#define SK_COEF    (M * (M + 1) + N * (N + 1))
#define PK_QUAD    (N * (N + 1) / 2)
#define PK_MONO    (PK_QUAD + N)
#define SEG_K      (255 / M)
#define NSEG       ((PK_MONO + SEG_K - 1) / SEG_K)
#define MAX_ATTEMPTS 1000

#define MAX2(a, b) ((a) > (b) ? (a) : (b))

#endif
