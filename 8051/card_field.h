/* SPDX-License-Identifier: MIT */
/*
 * The card's GF(256) forms and table (card.h includes this after
 * card_config.h; docs/CARD.md, Field arithmetic):
 *   L1 form of a byte x (the stored key): one byte, log_3 x + 1 for x != 0
 *   and 0 for x = 0. ADD A,#0FFh gives log x and the carry C = (x != 0) at
 *   once, SUBB A,ACC turns C into the mask: no branch on zero.
 *   LM form of a byte x (the public-key cache): two bytes (lo, mask) =
 *   (log_3 x, 0xFF) for x != 0 and (0, 0x00) for x = 0. A product of an LM
 *   value with anything is a table read ANDed with the mask.
 *   Scalar form: DPTR = GFT + lo + 512 * (x == 0): reads at DPTR + log y
 *   give x * y, and land in the zero page of GFT when x = 0. (The ROM
 *   family: DPTR = GFT + log x and x's mask in a register, added in
 *   place of 0xFF to an L1 operand or ANDed in: kernels_rom.c, RK_SCAL.)
 */
#ifndef CARD_FIELD_H
#define CARD_FIELD_H

/* L1 matrices (the stored key's S3 and S1, column-major, 1 byte an
 * entry): their columns are packed into pages by gen_card.c (key_layout)
 * so that none crosses a page and the key is unpadded; a matrix is named by
 * its run table K3_RUNS / K1_RUNS (gf.c): triples (page, offset, columns)
 * of consecutive columns in a page, then a 0 triple. */
#define KR(p, o, c) (uint8_t)((X_KS3 >> 8) + (p)), (o), (c)
extern __code const uint8_t K3_RUNS[], K1_RUNS[];
#define L1MASK(l) ((uint8_t)(0 - (uint8_t)(((uint16_t)(l) + 255) >> 8))) /* 0xFF iff l != 0 */
#define L1VAL(l)  (GFT[(uint8_t)((l) - 1)] & L1MASK(l))                 /* the field value */
uint16_t kcol(__code const uint8_t *runs, uint8_t c); /* column c's address (gf.c) */

/* LM matrices (dim x dim, column-major, 2 bytes an entry: the derived A1,
 * A3 of the public-key cache): columns of 2 dim bytes, LMCPP(dim) of them
 * packed in a 256-byte page so that none crosses a page (MOVX @Ri with P2
 * as the page); a matrix starts on a page. The kernels step through the
 * columns with the stride 2 dim and move to the next page after LMCPP. */
#define LMCPP(d) (256 / (2 * (d)))
#define LMSZ(d)  (((d) / LMCPP(d)) * 256 + ((d) % LMCPP(d)) * 2 * (d))
#define LMCOL(K, d, c) ((K) + ((uint16_t)((c) / LMCPP(d)) << 8) + ((c) % LMCPP(d)) * 2 * (d))

/* GF(256) table (gf.c; the ROM family's in kernels_rom.c); see gen_card.c
 * for its layouts. The ROM family's is the exp part alone: no zero page
 * (its kernels take x's zero test from the carry of x + 0xFF) and no LOGLO
 * (read from XDATA at X_LOGT, card_map.h, which rom.c fills at reset). */
#define GFT_ADDR 0x0100
#define GFT_PAGE 0x01
#ifdef CARD_ROM
#define GFT_BYTES 511
#else
#define GFT_BYTES 1023
#define GFT_LOG  767
#define GFT_HI   511
#define GFT_LOGA 0x03FF      /* GFT_ADDR + 767: LOGLO */
#define GFT_HIA  0x02FF      /* GFT_ADDR + 511: LOGHI */
#endif
extern __code __at(GFT_ADDR) const uint8_t GFT[GFT_BYTES];
#ifndef CARD_ROM /* (the ROM family reads its logs from XDATA) */
#define LOGLO(x) (GFT[GFT_LOG + (x)])
#define LOGHI(x) (GFT[GFT_HI + (x)])
#define NZ(x)    ((uint8_t)((LOGHI(x) >> 1) - 1))   /* 0xFF iff x != 0 */
#define L1OF(x)  ((uint8_t)((LOGLO(x) + 1) & NZ(x))) /* L1 form of x */
#endif

uint8_t gmul(uint8_t a, uint8_t b);

#endif
