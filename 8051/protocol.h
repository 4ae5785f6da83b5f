/* SPDX-License-Identifier: MIT */
/*
 * The card protocol (docs/SPEC.md section 7.2, docs/CARD.md): class,
 * instructions and status words, shared by the firmware (8051/apdu.c), the
 * host driver (host/cardsim.c, tools/tts-card.c) and the APDU fuzzer. Plain
 * #defines, so that SDCC and the host compilers read the same file.
 */
#ifndef TTS_CARD_PROTOCOL_H
#define TTS_CARD_PROTOCOL_H

#define CARD_CLA            0x80

#define CARD_GET_INFO       0x10 /* 7 bytes: m n v a b format segment-size */
#define CARD_GET_CYCLES     0x12 /* 4 bytes: cycles of the previous command */
#define CARD_GET_PROFILE    0x14 /* 8 bytes: cycles, then those in ChaCha20 */
#define CARD_GENERATE_KEY   0x20 /* data: the 32-byte seed */
#define CARD_PUT_KEY        0x22 /* P1P2: offset; data: secret-key bytes */
#define CARD_COMMIT_KEY     0x24 /* data: the check points (below) */
#define CARD_GET_PK_SEGMENT 0x30 /* P1P2: segment index */
#define CARD_GET_COUNTER    0x16 /* 4 bytes: the signature counter SIGN uses next */
#define CARD_SET_PIN        0x26 /* data: the PIN (4..16 bytes) the next key install sets */
#define CARD_SIGN           0x40 /* data: the m-byte digest */
#define CARD_CLA_ISO        0x00 /* VERIFY only */
#define CARD_VERIFY         0x20 /* under CARD_CLA_ISO: data: the PIN */
#define CARD_HALT           0xFE

/* COMMIT KEY's data, the check points that bind the staged key to the
 * public key P it is meant to have (docs/CARD.md, "A faulty key"): per
 * point x (n bytes, random), w = S3 x + s3 (n) and y = P(w) (m); the
 * card refuses (6A80) unless S3 x + s3 = w and S1 y + s1 = F(x) for every
 * point. Two points where both fit one command (2 (2n + m) <= 255), else
 * one (TTS(36,50)). */
#define CARD_CHECK_POINTS(m, n) (2 * (2 * (n) + (m)) <= 255 ? 2 : 1)
#define CARD_CHECK_BYTES(m, n)  (CARD_CHECK_POINTS(m, n) * (2 * (n) + (m)))

#define CARD_SW_OK          0x9000
#define CARD_SW_LENGTH      0x6700 /* wrong Lc */
#define CARD_SW_P1P2        0x6A86 /* bad P1/P2 */
#define CARD_SW_STATE       0x6985 /* conditions not satisfied */
#define CARD_SW_DATA        0x6A80 /* bad data */
#define CARD_SW_SECURITY    0x6982 /* security status not satisfied (no VERIFY) */
#define CARD_SW_BLOCKED     0x6983 /* PIN blocked */
#define CARD_SW_PIN_WRONG   0x63C0 /* | tries left: wrong PIN */
#define CARD_SW_INS         0x6D00 /* unknown INS */
#define CARD_SW_CLA         0x6E00 /* unknown CLA */

#endif
