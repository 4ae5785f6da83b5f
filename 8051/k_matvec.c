/* SPDX-License-Identifier: MIT */
/*
 * The signing path's copy into the arena and its matvecs (u = S1 h + s1,
 * sigma = S3 x + s3 over the stored L1 key): in assembly, xcopy_k and
 * matvec_k (the calling convention: card_if.h), and their C twins,
 * xcopy_i and matvec_sign (-DCARD_C_KERNELS); tests/test_card.sh checks
 * that both give the same signatures. P2 is the XDATA page for MOVX @Ri
 * (left changed); GFT is page-aligned at GFT_ADDR; every loop bound is a
 * public size and no branch depends on a field value.
 */
#include "kernels.h"

#ifdef CARD_ROM
#error "the ROM family's kernels are in kernels_rom.c"
#endif

#ifndef CARD_C_KERNELS

/* k_x[0 .. k_cnt) = src[0 .. k_cnt): XDATA to internal RAM, 8 cycles a
 * byte. */
void xcopy_k(uint16_t src) __naked
{
    (void)src;
    __asm
        mov  r0, _k_x
        mov  r7, _k_cnt
    xc_loop:
        movx a, @dptr
        inc  dptr
        mov  @r0, a
        inc  r0
        djnz r7, xc_loop
        ret
    __endasm;
}


/*
 * The signing matvecs: out = s + K x (x = IX[0 .. cols), s and out in
 * XDATA, rows = M or N, both even). K is the stored key's L1 matrix,
 * walked through its run table (card.h: triples page, offset, columns of
 * rows bytes each; read with MOVC at each new run). Column c: x[c] as the
 * scalar DPTR against the L1 entries of column c: ADD A,#0FFh gives the
 * log and C = (entry != 0), SUBB A,ACC the mask. With MV_DIRECT (N <= 28
 * and the accumulator IA[N - rows .. N) below 0x80: build-image.sh links
 * without it otherwise) the row loop is unrolled with direct addressing,
 * 10 machine cycles per entry, and M rows enter the body at row N - M;
 * else the loop is unrolled by four when 4 divides M and N, else by two:
 * 12.5 or 13 cycles per entry. Arguments: the run table in DPTR, s in
 * k_acc:k_x, out in k_ok:k_ckp, k_rows, k_cols; k_Klo:k_Khi then walk the
 * table.
 */
#if N <= 28 && !defined(CARD_MV_LOOP)
#define MV_DIRECT
#endif
void matvec_k(uint16_t K) __naked
{
    (void)K;
    __asm
        mov  _k_Klo, dpl
        mov  _k_Khi, dph
#ifdef MV_DIRECT
        mov  a, #(_IA + N)
        clr  c
        subb a, _k_rows
        mov  r2, a               ; accumulator IA[N - rows .. N)
#else
        mov  r2, #_IA            ; accumulator IA[0 .. rows)
        mov  a, _k_rows
#if M % 4 == 0 && N % 4 == 0
        rr   a
#endif
        rr   a
        anl  a, #0x7F
        mov  _k_cnt, a           ; rows / unroll
#endif
        mov  a, r2
        mov  r1, a
        mov  dpl, _k_acc
        mov  dph, _k_x
        mov  r4, _k_rows
    mvs_init:
        movx a, @dptr
        inc  dptr
        mov  @r1, a
        inc  r1
        djnz r4, mvs_init
        mov  r4, _k_cols
        mov  r3, #(_IA + IX_OFF)
        mov  _k_j, #1
    mvs_col:
        djnz _k_j, mvs_same      ; public: the column index in its run
        mov  dpl, _k_Klo         ; the next run: page, offset, columns
        mov  dph, _k_Khi
        clr  a
        movc a, @a+dptr
        mov  r7, a
        inc  dptr
        clr  a
        movc a, @a+dptr
        mov  r6, a
        inc  dptr
        clr  a
        movc a, @a+dptr
        mov  _k_j, a
        inc  dptr
        mov  _k_Klo, dpl
        mov  _k_Khi, dph
    mvs_same:
        mov  a, r3
        mov  r0, a
        mov  a, @r0              ; s = x[c]
        inc  r3
        mov  r5, a
        mov  dptr, #GFT_HIA
        movc a, @a+dptr          ; 2 if s == 0
        add  a, #GFT_PAGE
        xch  a, r5
        inc  dph                 ; GFT_LOGA
        movc a, @a+dptr          ; log s
        mov  dpl, a
        mov  dph, r5
        mov  P2, r7
        mov  a, r6
        mov  r0, a
        add  a, _k_rows
        mov  r6, a               ; the next column of the run
#ifdef MV_DIRECT
        mov  a, _k_rows
        cjne a, #N, mvs_m        ; public: M rows enter at row N - M
        mvsr = 0
        .rept (N - M)
        movx a, @r0              ; L1 K[r][c]
        inc  r0
        add  a, #0xFF            ; log K[r][c], C = (K[r][c] != 0)
        movc a, @a+dptr
        mov  r5, a
        subb a, 0xe0             ; 0xFF iff K[r][c] != 0
        anl  a, r5
        xrl  (_IA + mvsr), a
        mvsr = mvsr + 1
        .endm
    mvs_m:
        .rept M
        movx a, @r0
        inc  r0
        add  a, #0xFF
        movc a, @a+dptr
        mov  r5, a
        subb a, 0xe0
        anl  a, r5
        xrl  (_IA + mvsr), a
        mvsr = mvsr + 1
        .endm
#else
        mov  a, r2
        mov  r1, a
        mov  b, _k_cnt
    mvs_row:
#if M % 4 == 0 && N % 4 == 0
        .rept 4                  ; rows an iteration (the count above)
#else
        .rept 2
#endif
        movx a, @r0              ; L1 K[r][c]
        inc  r0
        add  a, #0xFF
        movc a, @a+dptr
        mov  r5, a
        subb a, 0xe0
        anl  a, r5
        xrl  a, @r1
        mov  @r1, a
        inc  r1
        .endm
        djnz b, mvs_row
#endif
#ifdef MV_DIRECT
        djnz r4, mvs_more
        sjmp mvs_fin
    mvs_more:
        ljmp mvs_col
    mvs_fin:
#else
        djnz r4, mvs_col
#endif
        mov  a, r2
        mov  r1, a
        mov  dpl, _k_ok
        mov  dph, _k_ckp
        mov  r7, _k_rows
    mvs_out:
        mov  a, @r1
        movx @dptr, a
        inc  dptr
        inc  r1
        djnz r7, mvs_out
        ret
    __endasm;
}

#else

/* C twin of xcopy_k */
void xcopy_i(uint16_t src, arena_t dst, uint8_t n)
{
    ARENA uint8_t *d = (ARENA uint8_t *)dst;
    do
        *d++ = XB(src++);
    while (--n);
}

/* C twin of matvec_k: the run table at K */
void matvec_sign(uint16_t K, uint16_t s, uint16_t out, uint8_t rows,
                 uint8_t cols)
{
    /* (in the large model's data bytes: the linker's 255 XDATA bytes at
     * 0xFF00 are full in the largest set's 128-byte image) */
    __data uint8_t i, c, left = 0;
    __code const uint8_t *run = (__code const uint8_t *)K;
    __xdata uint8_t *p = 0;
    for (i = 0; i < rows; i++)
        ISCR[i] = XB(s + i);
    for (c = 0; c < cols; c++) {
        uint8_t x = IX[c];
        __code const uint8_t *base = GFT + LOGLO(x) + ((uint16_t)LOGHI(x) << 8);
        if (!left) { /* public: the next run */
            p = XP(((uint16_t)run[0] << 8) + run[1]);
            left = run[2];
            run += 3;
        }
        ARENA uint8_t *y = ISCR;
        for (i = 0; i < rows; i++) {
            uint8_t l = *p++;
            *y++ ^= base[(uint8_t)(l - 1)] & L1MASK(l);
        }
        left--;
    }
    for (i = 0; i < rows; i++)
        XB(out + i) = ISCR[i];
}
#endif
