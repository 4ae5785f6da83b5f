/* SPDX-License-Identifier: MIT */
/*
 * The public key's product by A1 and the key set-up's LM matvec:
 * acc ^= K x over an LM matrix (the cache's A3, A1). matvec_lm_k in
 * assembly (its arguments in the k_* bytes: card_if.h; in the 128-byte
 * family called by k_pk.c's pk_block alone), matvec_lm its wrapper, and
 * the C twin (-DCARD_C_KERNELS).
 */
#include "kernels.h"

#ifdef CARD_ROM
#error "the ROM family has no LM matvec"
#endif

#ifndef CARD_C_SETUP

/*
 * acc[r] ^= sum_c K[r][c] x[c]: column c is rows (lo, mask) pairs at
 * LMCOL (stride st, 256 / st columns a page); x[c] enters as the scalar
 * DPTR = GFT + log x + 512*(x == 0). 15 machine cycles per entry.
 */
void matvec_lm_k(void) __naked
{
    __asm
        mov  r6, _k_Klo
        mov  r7, _k_Khi
        mov  r4, _k_cols
        mov  r3, _k_x
        clr  a
        clr  c
        subb a, _k_st
        mov  b, _k_st
        div  ab
        inc  a
        mov  _k_t1, a            ; columns a page: 256 / st
        mov  _k_j, a
    mv_col:
        mov  a, r3
        mov  r0, a
        mov  a, @r0              ; s = x[c]
        inc  r3
        mov  r5, a
        mov  dptr, #GFT_HIA
        movc a, @a+dptr          ; 2 if s == 0
        add  a, #GFT_PAGE
        xch  a, r5               ; r5 = DPH, a = s
        mov  dptr, #GFT_LOGA
        movc a, @a+dptr          ; log s
        mov  dpl, a
        mov  dph, r5
        mov  P2, r7
        mov  a, r6
        mov  r0, a
        mov  r1, _k_acc
        mov  b, _k_rows
    mv_row:
        movx a, @r0              ; log K[r][c]
        inc  r0
        movc a, @a+dptr          ; s * K[r][c] (K != 0)
        mov  r5, a
        movx a, @r0              ; mask K[r][c]
        inc  r0
        anl  a, r5
        xrl  a, @r1
        mov  @r1, a
        inc  r1
        djnz b, mv_row
        mov  a, r6
        add  a, _k_st
        mov  r6, a
        djnz _k_j, mv_same       ; public: the column index in its page
        mov  _k_j, _k_t1
        mov  r6, #0
        inc  r7
    mv_same:
        djnz r4, mv_col
        ret
    __endasm;
}

#ifndef CARD_128_ASM
void matvec_lm(__idata uint8_t *acc, uint16_t K, __idata uint8_t *x,
               uint8_t rows, uint8_t cols, uint8_t st)
{
    k_acc = (uint8_t)(uint16_t)acc;
    k_x = (uint8_t)(uint16_t)x;
    k_Klo = (uint8_t)K;
    k_Khi = (uint8_t)(K >> 8);
    k_rows = rows;
    k_cols = cols;
    k_st = st;
    matvec_lm_k();
}
#endif

#else

/* Column c: DPTR-style scalar x[c] (zero page when x[c] = 0) against the
 * LM entries of column c, at LMCOL (st = 2 rows, 256 / st columns a page). */
void matvec_lm(SARENA uint8_t *acc, uint16_t K, SARENA uint8_t *x,
               uint8_t rows, uint8_t cols, uint8_t st)
{
    uint8_t c, r, cpp = (uint8_t)(256 / st), left = cpp;
    for (c = 0; c < cols; c++) {
        uint8_t s = x[c];
        __code const uint8_t *base = GFT + LOGLO(s) + ((uint16_t)LOGHI(s) << 8);
        __xdata uint8_t *p = XP(K);
        SARENA uint8_t *y = acc;
        for (r = 0; r < rows; r++) {
            *y++ ^= base[p[0]] & p[1];
            p += 2;
        }
        K += st;
        if (!--left) { /* public: the next page (LMCOL) */
            K = (K + 255) & 0xFF00;
            left = cpp;
        }
    }
}

#endif
