/* SPDX-License-Identifier: MIT */
/*
 * What the ROM family's two assembly modules share: rom.c (the command
 * loop and the commands) and rom_key.c (COMMIT KEY's check, K_card and
 * the install). Labels one of them jumps to in the other are global
 * (NAME::).
 */
#ifndef TTS_CARD_ROM_H
#define TTS_CARD_ROM_H

#include <8052.h>
#include "card.h"
#include "protocol.h"

#ifndef CARD_ROM
#error "rom.c and rom_key.c are the ROM family's (-DCARD_ROM)"
#endif
/* the status-word tails below share their bytes: */
#if (CARD_SW_CLA | CARD_SW_INS | CARD_SW_LENGTH) & 0xFF
#error "rom.c: rm_sw_a00 sets the low byte 00"
#endif
#if (CARD_SW_P1P2 >> 8) != (CARD_SW_DATA >> 8) || (CARD_SW_SECURITY >> 8) != (CARD_SW_STATE >> 8) || \
    (CARD_SW_BLOCKED >> 8) != (CARD_SW_STATE >> 8)
#error "rom.c: rm_sw_6a and rm_sw_69 set the high byte of several status words"
#endif
#if C > 255 || SK_BYTES / 8 > 255 || N > 32
#error "rom.c: the set is too large for the ROM family's 8-bit counts"
#endif
#if CARD_CHECK_POINTS(M, N) != 2
#error "rom.c: COMMIT KEY takes two check points"
#endif
#define CHK_PT    (2 * N + M)     /* a check point: x, w, y (protocol.h) */
#define CHK_BYTES (2 * CHK_PT)
#if SK_s1 != SK_S1 + M * M || SK_s3 != SK_S3 + N * N
#error "rom.c: rm_points finds s1 and s3 right after S1 and S3"
#endif
#if SK_BYTES > 2048 || (X_WMAP & 0xFF) + WMAP_BYTES > 256
#error "rom.c: PUT KEY takes the map's byte from P1 < 8 and P2, in one page"
#endif

#endif
