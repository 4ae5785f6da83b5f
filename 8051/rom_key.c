/* SPDX-License-Identifier: MIT */
/*
 * The ROM family's key install (docs/CARD-IMAGES.md, "The ROM family"): COMMIT
 * KEY's check of the staged raw key (its check points, rm_points, and
 * Gauss-Jordan's check, rm_check), the copy loops, K_card of the staged
 * key and the install through the journal, in assembly. rom.c's command
 * loop calls them; rom.h holds what the two share.
 */
#include "rom.h"

/*
 * COMMIT KEY's check of the staged raw key: A = 1 iff S3 and S1 are
 * invertible and s1 = F(c3), c3 = S3^-1 s3 (Gauss-Jordan on [S3 | s3]
 * leaves c3 in its last column), as key.c's key_commit. Every branch on
 * public sizes.
 */
#define _rm_ok _rk_ok /* (kernels_rom.c: the verdict byte, free outside SIGN) */

#if !defined(CARD_ROM_NO_CHECK) && !defined(CARD_ROM_POINT_ONLY)
void rm_check(void) __naked
{
    __asm
        mov  dptr, #(X_STAGE + SK_S3)
        mov  r2, #N
        mov  r3, #(X_G3 >> 8)
        lcall rm_lcols
        mov  dptr, #(X_STAGE + SK_s3)
        mov  P2, #((X_G3 + N * GST) >> 8)
        mov  r1, #((X_G3 + N * GST) & 0xFF)
        mov  r7, #N
        lcall rm_xmove
        mov  dptr, #(X_STAGE + SK_S1)
        mov  r2, #M
        mov  r3, #(X_G1 >> 8)
        lcall rm_lcols
        mov  _k_rows, #N
        mov  _k_cols, #(N + 1)
        mov  _k_Whi, #(X_G3 >> 8)
        lcall _gauss_k
        mov  _rm_ok, dpl
        mov  _k_rows, #M
        mov  _k_cols, #M
        mov  _k_Whi, #(X_G1 >> 8)
        lcall _gauss_k
        mov  a, dpl
        anl  _rm_ok, a
        mov  dptr, #(X_G3 + N * GST)
        mov  r0, #(_IA + IX_OFF)
        mov  r7, #N
        lcall _xcopy_k
        lcall _central_eval_rom
        mov  dptr, #(X_STAGE + SK_s1)
        mov  r0, #_IA
        mov  r7, #M
        mov  r3, #0
    ck_d:
        movx a, @dptr
        inc  dptr
        xrl  a, @r0
        inc  r0
        orl  0x03, a       ; R3 (bank 0)
        djnz r7, ck_d
        mov  a, r3
        add  a, #0xFF             ; C = (d != 0)
        clr  a
        rlc  a
        xrl  a, #1
        anl  a, _rm_ok
        ret

        ; [S] into the Gauss work at page R3: S raw row-major at DPTR,
        ; R2 x R2; column c at c GST
    rm_lcols:
        mov  r6, #0
    lc_col:
        mov  a, r6
        mov  b, #GST
        mul  ab
        mov  r1, a
        mov  a, b
        add  a, r3
        mov  P2, a
        push dpl
        push dph
        mov  a, r2
        mov  r7, a
    lc_row:
        movx a, @dptr
        movx @r1, a
        inc  r1
        mov  a, dpl
        add  a, r2
        mov  dpl, a
        clr  a
        addc a, dph
        mov  dph, a
        djnz r7, lc_row
        pop  dph
        pop  dpl
        inc  dptr
        inc  r6
        mov  a, r6
        cjne a, 0x02, lc_col ; R2 (bank 0)
        ret
    __endasm;
}
#endif

/*
 * COMMIT KEY's check points (its data at X_CMD, protocol.h: per point x,
 * w = S3 x + s3 and y = P(w) under the intended public key P): A = 0 iff
 * the staged raw key gives S3 x + s3 = w and S1 y + s1 = F(x) at both,
 * P'(w) = y for its own public map P' (key.c's points_diff; docs/CARD.md,
 * "A faulty key"). k_t1 collects every byte of the differences, with no
 * early exit; only the verdict steers. Per point: x to IX and w to IA[0 ..
 * n); pt_aff; F(x) to IA[0 .. m) (central_eval_rom); y to IX; pt_aff.
 */
#ifndef CARD_ROM_NO_CHECK
void rm_points(void) __naked
{
    __asm
        ; degenerate points, public (the terminal's data): x = 0 at a
        ; point or the same x twice tell nothing of S3; k_t1 = 1 refuses
        ; them (key.c's points_degenerate). R3, R4: the ORs of x1 and x2,
        ; R5: of x1 + x2
        mov  P2, #(X_CMD >> 8)
        mov  r0, #(X_CMD & 0xFF)
        mov  r1, #((X_CMD & 0xFF) + CHK_PT)
        mov  r7, #N
        clr  a
        mov  r3, a
        mov  r4, a
        mov  r5, a
    dg_b:
        movx a, @r1
        mov  r6, a
        orl  0x04, a       ; R4 (bank 0)
        movx a, @r0
        orl  0x03, a       ; R3 (bank 0)
        xrl  a, r6
        orl  0x05, a       ; R5 (bank 0)
        inc  r0
        inc  r1
        djnz r7, dg_b
        mov  a, r3                ; A = 0 iff one of the three is 0
        jz   dg_end
        mov  a, r4
        jz   dg_end
        mov  a, r5
    dg_end:
        cjne a, #1, dg_k          ; C = (A = 0)
    dg_k:
        clr  a
        rlc  a
        mov  _k_t1, a
        mov  dpl, #(X_CMD & 0xFF)
    pt_pt:                        ; (DPL: the point, in X_CMD)
        mov  a, #N
        acall pt_ix               ; x (DPTR: then w)
        mov  r0, #_IA
        mov  r7, #N
        NCALL _xcopy_k            ; w (DPTR: then y)
        push dpl
        mov  dptr, #(X_STAGE + SK_S3)
        mov  r2, #N
        acall pt_aff
        NCALL _central_eval_rom
        pop  dpl
        mov  a, #M
        acall pt_ix               ; y (DPTR: then the next point)
        push dpl
        mov  dptr, #(X_STAGE + SK_S1)
        mov  r2, #M
        acall pt_aff
        pop  dpl
        mov  a, dpl
        cjne a, #((X_CMD & 0xFF) + CHK_BYTES), pt_pt ; public: the count
        mov  a, _k_t1             ; (0: the key passes)
        ret

        ; IX[0 .. A) = X_CMD[DPL ..] (DPTR after them)
    pt_ix:
        mov  dph, #(X_CMD >> 8)
        mov  r0, #(_IA + IX_OFF)
        mov  r7, a
        NJMP _xcopy_k

        ; k_t1 |= every byte of t + s + S v: S the raw row-major R2 x R2
        ; matrix at DPTR, s right after it (the key's layout: S1 s1, S3
        ; s3), t = IA[0 .. R2), v = IX; t += S v row by row, then s
    pt_aff:
        mov  r0, #_IA
        mov  a, r2
        mov  r3, a                ; the rows (rk_gmul keeps R3)
    pa_row:
        mov  a, @r0
        mov  r6, a                ; t
        mov  r1, #(_IA + IX_OFF)
        mov  a, r2
        mov  r7, a
    pa_col:
        movx a, @dptr
        inc  dptr
        push dpl
        push dph
        mov  b, @r1
        inc  r1
        NCALL _rk_gmul
        pop  dph
        pop  dpl
        xrl  a, r6
        mov  r6, a
        djnz r7, pa_col
        mov  @r0, a
        inc  r0
        djnz r3, pa_row
        mov  r0, #_IA             ; (DPTR = s)
        mov  a, r2
        mov  r7, a
    pa_s:
        movx a, @dptr
        inc  dptr
        xrl  a, @r0
        orl  _k_t1, a
        inc  r0
        djnz r7, pa_s
        ret
    __endasm;
}
#endif

/* XDATA DPTR -> XDATA P2:R1 on (across pages), R7 bytes (rm_l1move: each
 * byte in L1 form) */
void rm_moves(void) __naked
{
    __asm
#ifdef CARD_ROM_FILL_GAP
        .area RGAP (CODE)
#endif
    rm_l1move:
        setb F0
        sjmp xm_go
    rm_xmove::
        clr  F0
    xm_go:
        movx a, @dptr
        inc  dptr
        jnb  F0, xm_raw
        push dpl
        push dph
        NCALL _rk_l1of            ; (keeps P2 and R1)
        pop  dph
        pop  dpl
    xm_raw:
        movx @r1, a
        inc  r1
        cjne r1, #0, xm_pg        ; public: the page's end
        inc  P2
    xm_pg:
        djnz r7, xm_go
        ret
#ifdef CARD_ROM_FILL_GAP
        .area CSEG (CODE)
#endif
    __endasm;
}

/*
 * K_card of the staged raw key into X_KCST (kcard_derive of key.c): K_0 =
 * 0, K_{i+1} = the first 32 bytes of ChaCha20(K_i XOR M_i, block 0, nonce
 * "tts-card-prf"), M_i the 32-byte pieces of the key (the last one
 * zero-padded).
 */
void rm_kcard(void) __naked
{
    __asm
        NCALL _stream_wipe        ; K_0 = 0 (the block; P2: the X_STR page)
        mov  dptr, #X_STAGE
        mov  _rm_ok, #((SK_BYTES + 31) / 32)
    kc_blk:                       ; K_i XOR M_i, in the block
        mov  r1, #((X_STR + 64) & 0xFF)
        mov  r7, #32
        mov  a, _rm_ok            ; public: the last piece (zero-padded)
        cjne a, #1, kc_x
        mov  r7, #((SK_BYTES - 1) % 32 + 1)
    kc_x:
        movx a, @dptr
        inc  dptr
        mov  r5, a
        movx a, @r1
        xrl  a, r5
        movx @r1, a
        inc  r1
        djnz r7, kc_x
        push dpl
        push dph
        mov  dptr, #(X_STR + 64)
        lcall _stream_init        ; (it as the key)
        mov  dptr, #_rm_nonce
        mov  r1, #((X_STR + 52) & 0xFF)
        mov  r7, #12
        NCALL rm_ccopy
        lcall _chacha_block
        pop  dph
        pop  dpl
        djnz _rm_ok, kc_blk
        mov  dptr, #(X_STR + 64)
        mov  P2, #(X_KCST >> 8)
        mov  r1, #(X_KCST & 0xFF)
        mov  r7, #32
        lcall cc_xmv
        NJMP _stream_wipe
    __endasm;
}

/*
 * The journal's second half (key_install of key.c): the staged raw key ->
 * the active key in internal form (S1, S3 in L1 columns of the run
 * tables, the coefficients in L1 form, s1, s3), K_card, the staged PIN
 * with PIN_TRIES tries; then the staged PIN used up and X_JRNL cleared.
 * Runs again from the start after a cut (at reset): it only copies from
 * the staging copies.
 */
void rm_install(void) __naked
{
    __asm
        mov  r3, #_K3_RUNS
        mov  r4, #(_K3_RUNS >> 8)
        mov  dptr, #(X_STAGE + SK_S3)
        mov  r2, #N
        NCALL in_cols             ; (R4:R3: then K1_RUNS, kernels_rom.c)
        mov  dptr, #(X_STAGE + SK_S1)
        mov  r2, #M
        NCALL in_cols
        mov  dptr, #(X_STAGE + SK_COEF)
        mov  P2, #(X_KCO >> 8)
        mov  r1, #(X_KCO & 0xFF)
        mov  r7, #C
        NCALL rm_l1move           ; then X_Ks1 (P2:R1 = X_KCO + C)
        mov  dptr, #(X_STAGE + SK_s1)
        mov  r7, #M
        NCALL rm_xmove            ; then X_Ks3
        mov  dptr, #(X_STAGE + SK_s3)
        mov  r7, #N
        NCALL rm_xmove
        mov  dptr, #X_KCST        ; (X_MISC's page: P2)
        mov  P2, #(X_KCARD >> 8)
        mov  r1, #(X_KCARD & 0xFF)
        mov  r7, #32
        lcall cc_xmv
        NCALL rm_pinst            ; public: staged, or already used up
        jnc  in_nopin
        mov  r1, #(X_PIN & 0xFF)
        mov  r7, #(PIN_MAX + 1)
        lcall cc_xmv              ; (DPTR = X_PINST)
    in_nopin:
        NCALL rm_tries
        mov  dptr, #X_ACTIVE
        mov  a, #NV_MAGIC
        movx @dptr, a
        NCALL rm_unstage          ; the staged PIN is used up (and the
                                  ; record of PUT bytes, cleared already)
        mov  dptr, #X_JRNL        ; done (A = 0: rm_unstage)
        movx @dptr, a
        mov  _rm_pin, a
        ljmp _rk_tfill            ; the term records' coefficients

        ; S raw row-major at DPTR (R2 x R2) -> the L1 columns of the run
        ; table at R4:R3 (each run's columns at P2:R1 on; R0 the columns
        ; left, R6 those of the run)
    in_cols:
        mov  a, r2
        mov  r0, a
        mov  r6, #1
    ic_col:
        djnz r6, ic_same          ; public: the column in its run
        push dpl
        push dph
        mov  dpl, r3
        mov  dph, r4
        clr  a
        movc a, @a+dptr
        mov  P2, a
        inc  dptr
        clr  a
        movc a, @a+dptr
        mov  r1, a
        inc  dptr
        clr  a
        movc a, @a+dptr
        mov  r6, a
        inc  dptr
        mov  r3, dpl
        mov  r4, dph
        pop  dph
        pop  dpl
    ic_same:
        push dpl
        push dph
        mov  a, r2
        mov  r7, a
    ic_row:
        movx a, @dptr
        push dpl
        push dph
        NCALL _rk_l1of            ; (keeps P2, R1 .. R4)
        movx @r1, a
        inc  r1
        pop  dph
        pop  dpl
        mov  a, dpl
        add  a, r2
        mov  dpl, a
        clr  a
        addc a, dph
        mov  dph, a
        djnz r7, ic_row
        pop  dph
        pop  dpl
        inc  dptr
        djnz r0, ic_col
        ret
    __endasm;
}
