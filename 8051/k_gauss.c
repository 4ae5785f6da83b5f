/* SPDX-License-Identifier: MIT */
/*
 * Gauss-Jordan, constant time (GENERATE and COMMIT KEY's inversions; the
 * C twins' layer solver): gauss_k in assembly (the calling convention:
 * card_if.h), run through gauss (in the 128-byte family on the arena:
 * kernels.c, ka_call; the ROM family calls gauss_k), and its C twin
 * (-DCARD_C_KERNELS). The same verdict and, for an invertible matrix, the
 * same result.
 */
#include "kernels.h"

#ifndef CARD_C_SETUP

/*
 * Gauss-Jordan on the column-major matrix at page k_Whi (element [r][c] at
 * c*GST + r), k_rows x k_cols; returns 1 in DPL iff invertible. Per pivot
 * k: (1) repair masks t[i] = (pivot == 0) for i > k, accumulating the
 * pivot; (2) the same masked row additions in the other columns; (3) ok;
 * (4) row k times the pivot's inverse (scalar 255 - log p, zero page when
 * p = 0); (5) lo/mask pairs of column k, row k masked off; (6) every column
 * j > k: W[.][j] ^= W[k][j] * column k. The ROM family's GFT has no zero
 * page: there (4) reads garbage when p = 0 (ok is 0 then) and (6) ANDs
 * W[k][j]'s mask into every product.
 */
uint8_t gauss_k(void) __naked
{
    __asm
    ; GK_LOG: A = x -> A = log x (DPTR changed); GK_LOGP, then GK_LOGI in a
    ; loop: the same with DPTR set once (the ROM family's LOGLO is in XDATA)
#ifdef CARD_ROM
    .macro GK_LOG
        mov  dpl, a
        mov  dph, #(X_LOGT >> 8)
        movx a, @dptr
    .endm
    .macro GK_LOGP
        mov  dph, #(X_LOGT >> 8)
    .endm
    .macro GK_LOGI
        mov  dpl, a
        movx a, @dptr
    .endm
#else
    .macro GK_LOG
        mov  dptr, #GFT_LOGA
        movc a, @a+dptr
    .endm
    .macro GK_LOGP
        mov  dptr, #GFT_LOGA
    .endm
    .macro GK_LOGI
        movc a, @a+dptr
    .endm
#endif
        mov  _k_ok, #1
        mov  _k_k, #0
    gk_loop:
        ; ---- (1) pivot repair masks, column k
        mov  a, _k_k
        mov  b, #GST
        mul  ab
        mov  _k_ckl, a           ; column k, low byte
        add  a, _k_k
        mov  r1, a               ; &W[k][k]
        mov  a, b
        add  a, _k_Whi
        mov  P2, a
        mov  _k_ckp, a           ; column k, page
        movx a, @r1
        mov  r6, a               ; pivot
        mov  a, _k_rows
        clr  c
        subb a, _k_k
        dec  a
        mov  _k_cnt, a           ; rows - k - 1
        mov  r7, a
        mov  a, #_IA
        add  a, _k_k
        inc  a
        mov  r0, a
        mov  _k_t1, a            ; &t[k+1]
        inc  r1
        mov  a, r7
        jz   gk_fixed
    gk_fix:
        mov  a, r6
        add  a, #0xFF            ; C = pivot != 0
        cpl  c
        clr  a
        subb a, #0               ; 0xFF iff pivot == 0
        mov  @r0, a
        inc  r0
        mov  r5, a
        movx a, @r1
        inc  r1
        anl  a, r5
        xrl  a, r6
        mov  r6, a
        djnz r7, gk_fix
    gk_fixed:
        mov  a, _k_ckl
        add  a, _k_k
        mov  r1, a
        mov  a, r6
        movx @r1, a
        ; ---- (2) W[k][j] ^= sum_{i>k} t[i] & W[i][j], j > k
        mov  a, _k_cnt
        jz   gk_rep_done
        mov  _k_j, _k_k
    gk_rep_col:
        inc  _k_j
        mov  a, _k_j
        cjne a, _k_cols, gk_rep_go
        sjmp gk_rep_done
    gk_rep_go:
        mov  b, #GST
        mul  ab
        add  a, _k_k
        mov  r2, a               ; &W[k][j]
        mov  r1, a
        mov  a, b
        add  a, _k_Whi
        mov  P2, a
        movx a, @r1
        mov  r6, a
        mov  r0, _k_t1
        mov  r7, _k_cnt
        inc  r1
    gk_rep_row:
        movx a, @r1
        inc  r1
        anl  a, @r0
        inc  r0
        xrl  a, r6
        mov  r6, a
        djnz r7, gk_rep_row
        mov  a, r2
        mov  r1, a
        mov  a, r6
        movx @r1, a
        sjmp gk_rep_col
    gk_rep_done:
        ; ---- (3) ok &= pivot != 0
        mov  P2, _k_ckp
        mov  a, _k_ckl
        add  a, _k_k
        mov  r1, a
        movx a, @r1
        mov  r6, a
        add  a, #0xFF
        clr  a
        rlc  a
        anl  _k_ok, a
        ; ---- (4) row k times pivot^-1
        mov  a, r6
        GK_LOG
        cpl  a
        mov  r4, a               ; 255 - log p
#ifdef CARD_ROM
        mov  r3, #GFT_PAGE       ; (no zero page: p = 0 leaves ok = 0)
#else
        mov  a, r6
        mov  dptr, #GFT_HIA
        movc a, @a+dptr
        add  a, #GFT_PAGE
        mov  r3, a
#endif
        mov  _k_j, _k_k
    gk_nrm_col:
        inc  _k_j
        mov  a, _k_j
        cjne a, _k_cols, gk_nrm_go
        sjmp gk_nrm_done
    gk_nrm_go:
        mov  b, #GST
        mul  ab
        add  a, _k_k
        mov  r1, a
        mov  a, b
        add  a, _k_Whi
        mov  P2, a
        movx a, @r1              ; e
        mov  r5, a
        GK_LOG
        mov  dpl, r4
        mov  dph, r3
        movc a, @a+dptr          ; e / p
        xch  a, r5
        add  a, #0xFF
        clr  a
        subb a, #0               ; 0xFF iff e != 0
        anl  a, r5
        movx @r1, a
        sjmp gk_nrm_col
    gk_nrm_done:
        ; ---- (5) t[2i], t[2i+1] = log, mask of W[i][k]; t[2k+1] = 0
        mov  P2, _k_ckp
        mov  r1, _k_ckl
        mov  r0, #_IA
        mov  r7, _k_rows
        GK_LOGP
    gk_tmp:
        movx a, @r1
        inc  r1
        mov  r5, a
        GK_LOGI
        mov  @r0, a
        inc  r0
        mov  a, r5
        add  a, #0xFF
        clr  a
        subb a, #0
        mov  @r0, a
        inc  r0
        djnz r7, gk_tmp
        mov  a, _k_k
        rl   a
        add  a, #(_IA + 1)
        mov  r0, a
        mov  @r0, #0
        ; ---- (6) elimination, column by column
        mov  _k_j, _k_k
    gk_elm_col:
        inc  _k_j
        mov  a, _k_j
        cjne a, _k_cols, gk_elm_go
        sjmp gk_elm_done
    gk_elm_go:
        mov  b, #GST
        mul  ab
        mov  r1, a
        mov  a, b
        add  a, _k_Whi
        mov  P2, a
        mov  a, r1
        add  a, _k_k
        mov  r0, a
        movx a, @r0              ; e = W[k][j]
#ifdef CARD_ROM
        ; (no zero page: e's mask in R3, ANDed into every product)
        mov  r5, a
        add  a, #0xFF
        subb a, 0xe0
        mov  r3, a
        mov  a, r5
        GK_LOG
        mov  dpl, a
        mov  dph, #GFT_PAGE
#else
        mov  r5, a
        mov  dptr, #GFT_HIA
        movc a, @a+dptr
        add  a, #GFT_PAGE
        mov  r3, a
        mov  a, r5
        mov  dptr, #GFT_LOGA
        movc a, @a+dptr
        mov  dpl, a
        mov  dph, r3
#endif
        mov  r0, #_IA
        mov  r7, _k_rows
    gk_elm_row:
        mov  a, @r0
        inc  r0
        movc a, @a+dptr
        anl  a, @r0
#ifdef CARD_ROM
        anl  a, r3
#endif
        inc  r0
        mov  r5, a
        movx a, @r1
        xrl  a, r5
        movx @r1, a
        inc  r1
        djnz r7, gk_elm_row
        sjmp gk_elm_col
    gk_elm_done:
        inc  _k_k
        mov  a, _k_k
        cjne a, _k_rows, gk_next
        mov  dpl, _k_ok
        ret
    gk_next:
        ljmp gk_loop
    __endasm;
}

#ifndef CARD_ROM /* (the ROM family calls gauss_k) */
uint8_t gauss(uint16_t W, uint8_t rows, uint8_t cols)
{
    k_Whi = (uint8_t)(W >> 8);
    k_rows = rows;
    k_cols = cols;
#ifdef CARD_128_ASM
    return ka_call((uint16_t)gauss_k);
#else
    return gauss_k();
#endif
}
#endif

#else

/*
 * Constant-time Gauss-Jordan on a column-major matrix (element [r][c] at
 * W + c*GST + r), the same algebra as the host's kernel: a zero pivot is
 * repaired by adding every later row under a mask, the pivot row is scaled
 * by the pivot's inverse, and every other row is cleared in the pivot
 * column, column by column (the pivot column itself is dead afterwards).
 * Scratch: IA[0 .. 2*rows) (fix masks, then lo/mask pairs). A zero pivot
 * (singular matrix) leaves garbage in-bounds reads; the result is then
 * discarded by every caller.
 */
uint8_t gauss(uint16_t W, uint8_t rows, uint8_t cols)
{
    uint8_t ok = 0xFF, k, i, j;
    SARENA uint8_t *t = SA;
    for (k = 0; k < rows; k++) {
        __xdata uint8_t *ck = XP(W + (uint16_t)k * GST);
        uint8_t piv = ck[k], lo, hi;
        /* pivot repair masks, column k */
        for (i = k + 1; i < rows; i++) {
            uint8_t fm = (uint8_t)~NZ(piv);
            t[i] = fm;
            piv ^= fm & ck[i];
        }
        ck[k] = piv;
        for (j = k + 1; j < cols; j++) {
            __xdata uint8_t *cj = XP(W + (uint16_t)j * GST);
            uint8_t acc = cj[k];
            for (i = k + 1; i < rows; i++)
                acc ^= t[i] & cj[i];
            cj[k] = acc;
        }
        ok &= NZ(piv);
        /* row k times piv^-1: index (255 - log piv) + log e + 512*(piv==0) */
        lo = (uint8_t)~LOGLO(piv);
        hi = LOGHI(piv);
        for (j = k + 1; j < cols; j++) {
            __xdata uint8_t *cj = XP(W + (uint16_t)j * GST);
            uint8_t e = cj[k];
            cj[k] = GFT[((uint16_t)hi << 8) + lo + LOGLO(e)] & NZ(e);
        }
        /* elimination factors: lo/mask of column k, row k excluded */
        for (i = 0; i < rows; i++) {
            uint8_t f = ck[i];
            t[2 * i] = LOGLO(f);
            t[2 * i + 1] = NZ(f);
        }
        t[2 * k + 1] = 0;
        for (j = k + 1; j < cols; j++) {
            __xdata uint8_t *cj = XP(W + (uint16_t)j * GST);
            uint8_t e = cj[k];
            __code const uint8_t *base = GFT + LOGLO(e) + ((uint16_t)LOGHI(e) << 8);
            SARENA uint8_t *q = t;
            for (i = 0; i < rows; i++) {
                cj[i] ^= base[q[0]] & q[1];
                q += 2;
            }
        }
    }
    return ok & 1;
}

#endif
