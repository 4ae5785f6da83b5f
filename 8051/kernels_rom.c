/* SPDX-License-Identifier: MIT */
/*
 * The signing kernels of the ROM family (tts-M-N-rom.ihx, -DCARD_ROM;
 * docs/CARD-IMAGES.md, "The ROM family"): small enough for the signing path to
 * sit beside the command layer (rom.c), with the few inner loops that set
 * the speed written out. The same algebra, forms and constant-time rules
 * as k_matvec.c and k_layer.c: the stored key in L1 form, x values
 * turned into scalars (DPTR = GFT + log x, with x's mask: RK_SCAL), every
 * zero handled by a mask (this family's GFT has no zero page), every loop
 * bound and branch on a public size or index. Here:
 *   - the GF(256) table (its exp part), the arena, the key's run tables,
 *     and the term records in XDATA (rk_tgen, rk_tfill): the layer build
 *     is a loop over them (three bytes a term, the row counted: every row
 *     of a layer has TTS_TPRL terms), not generated code;
 *   - matvec_rom: u = S1 h + s1 and sigma = S3 x + s3 over the L1 key, the
 *     rows written out;
 *   - the layer system in Gauss-Jordan's layout (column c at X_SL + c GST,
 *     card.h: SST), built row by row in internal RAM (rk_build), solved by
 *     rs_solve (elimination and back substitution, the rows below the
 *     pivot written out) where its scratch fits (card.h: ROM_LAYER_GE),
 *     else by Gauss-Jordan (k_gauss.c), which also solves COMMIT
 *     KEY's n x n systems (its scratch fits the arena);
 *   - central_eval_rom: COMMIT KEY's s1 = F(c3) check over the same
 *     records;
 *   - the term records' writers and sign, one SIGN after the counter
 *     (rom.c), are in rom_sign.c.
 * Data bytes: the k_* of kernels.h (Gauss-Jordan's and the layer
 * kernels'), and rk_*.
 */
#define CARD_WANT_GFT
#include "kernels_rom.h"

/* Page-aligned: the kernels add a 16-bit scalar offset to its address. */
__code __at(GFT_ADDR) const uint8_t GFT[GFT_BYTES] = GFT_ROM_INIT;
__idata __at(IA_ABS) uint8_t IA[IA_SIZE];
/* The run tables (card_field.h), K1_RUNS right after K3_RUNS: the install
 * reads the two in that order (rom_key.c); no terminating triple, the
 * matvec and the install count the columns. */
#undef KR
#define KR(p, o, c) ((X_KS3 >> 8) + (p)), (o), (c)
void rk_runs(void) __naked
{
    __asm
        .area CONST (CODE)
    _K3_RUNS::
        .db  KL_RUNS3
    _K1_RUNS::
        .db  KL_RUNS1
        .area CSEG (CODE)
    __endasm;
}

/* the layers: first variable, size, terms a row */
__code const uint8_t T_LAY[12] = {
    V, A, TTS_TPR0, V + A, 1, TTS_TPR1, V + A + 1, 1, TTS_TPR2, V + A + 2, B, TTS_TPR3
};
#if X_SL & 0xFF
#error "kernels_rom.c: the layer system must start on a page"
#endif
#if GST != 32
#error "kernels_rom.c: rk_build writes columns of 32 bytes, 8 a page"
#endif
#define RB_WOB 8    /* bytes of a column of rk_build's write-out */
#define RB_PGB 2    /* of its move to the first page */
/* -DCARD_ROM_WO_LOOP (the 4 KB images within 224 ms): rk_build writes
 * each row out in a loop over columns 0 .. 7, four a pass, then columns 8
 * .. LDMAX written out, all layers it writes out having LDMAX unknowns */
#if defined(CARD_ROM_WO_LOOP) && (A != B || LDMAX < 8 || LDMAX > 15)
#error "kernels_rom.c: CARD_ROM_WO_LOOP writes rows of a = b unknowns, 8 .. 15"
#endif

/* Gauss-Jordan's (k_gauss.c), also the scratch of the matvec, the
 * layer build and rs_solve (which do not run during Gauss-Jordan); k_lo
 * and k_dim the layer (first variable, size); the row being built (k_st,
 * rs_solve's after the build); the layer's offset in T_LAY (with
 * rs_solve: k_cols, Gauss-Jordan's, which does not run in the layer
 * loop); rs_solve's scratch (k_x); two
 * pointers (table, coefficients; the matvec's s and out), the attempt's
 * verdict */
__data uint8_t k_rows, k_cols, k_Whi, k_k, k_j, k_ok, k_ckp, k_ckl, k_cnt, k_t1;
__data uint8_t k_st, k_lo, k_dim, k_x;
#define _rk_row _k_st
#ifdef ROM_LAYER_GE
__data uint8_t k_acc, k_Klo, k_Khi;
#else
__data uint8_t rk_lay;
#endif
__data uint8_t rk_ok;
__data uint8_t rk_p0[2], rk_p1[2];

/* The area of COMMIT KEY's check helpers (rk_xcopy, rk_gmul, rk_ceval) and their calls: the gap below GFT, reached by ACALL; with
 * -DCARD_ROM_FILL_GAP, whose gap is full, CSEG. */
#ifdef CARD_ROM_FILL_GAP
#define CK_AREA CSEG
#define CK_CALL lcall
#else
#define CK_AREA RGAP
#define CK_CALL acall
#endif

/*
 * Helpers (in rk_gap below; each keeps R0..R3 and R6, R7):
 *   rk_l1of:  A = x  ->  A = the L1 form of x (R5, DPTR; B and R4 kept)
 * and, for COMMIT KEY's check alone,
 *   rk_gmul:  A = a, B = b  ->  A = a b (B, R4, DPTR; R5 kept)
 * and rk_l1x, rk_l1in: R7 bytes at @R0 to their L1 form, in place or read
 * from XDATA P2:R1 (R5, DPTR, F0).
 */
/*
 * RK_SCAL rt: with x in A, DPTR := the scalar of x (GFT + log x) and rt
 * (a register) := x's mask (0xFF iff x != 0); 11 machine cycles. RK_SCL1
 * rt: the same from x in L1 form, in 4 cycles (DPH already GFT's page):
 * SIGN keeps the unknowns x in L1 form (IX: h, the vinegar bytes, each
 * layer's solution once solved), so that the matvec and the layer build
 * take them in this form. RK_L1P: A = p x for L1 p at P2:R0 (advanced),
 * x's scalar in DPTR and its mask in R4: ADD A,R4 gives log p (DPTR adds
 * log x) and the carry C = (p != 0 and x != 0) at once, and SUBB A,ACC
 * turns C into the product's mask, so a zero x or p gives 0 (this family's GFT has
 * no zero page). Written out where a loop needs them (matvec, build,
 * solver); defined in rk_xcopy's block, the
 * first of this file (the assembler reads the blocks in order).
 */
/* @R0 .. @(R0 + R7 - 1) = src[0 .. R7) (DPTR): XDATA to internal RAM, for
 * COMMIT KEY's check (in the area RGAP, below) */
void rk_xcopy(void) __naked
{
    __asm
    .macro RK_L1P
        movx a, @r0               ; L1 p, the next byte of P2:R0
        inc  r0
        add  a, r4                ; log, C = (p != 0 and x != 0)
        movc a, @a+dptr
        mov  r5, a
        subb a, 0xe0              ; 0xFF iff p x != 0
        anl  a, r5                ; p x
    .endm
    .macro RK_SCL1 rt
        add  a, #0xFF             ; log x, C = (x != 0)
        mov  dpl, a
        subb a, 0xe0              ; 0xFF iff x != 0
        mov  rt, a
    .endm
    .macro RK_SCAL rt
        mov  dpl, a
        add  a, #0xFF             ; C = (x != 0)
        mov  dph, #(X_LOGT >> 8)
        movx a, @dptr             ; log x
        mov  dpl, a
        subb a, 0xe0              ; 0xFF iff x != 0
        mov  rt, a
        mov  dph, #GFT_PAGE
    .endm
#ifndef CARD_ROM_NO_CHECK
        .area CK_AREA (CODE)
    _xcopy_k::
        movx a, @dptr
        inc  dptr
        mov  @r0, a
        inc  r0
        djnz r7, _xcopy_k
        ret
        .area CSEG (CODE)
#endif
    __endasm;
}

/*
 * out = s + K x: K the stored key's square L1 matrix of the run table at
 * R3:R2 (triples page, offset, columns; each column k_rows bytes: N, or M
 * with F0 set, which only the rows written out read), x = IX[0 .. k_rows)
 * in L1 form, s at DPTR, out at rk_p1 (XDATA). The accumulator is IA[N - k_rows .. N). Column c: x[c] as the
 * scalar DPTR, then per row one L1 product XORed into its accumulator
 * byte, the rows written out at direct addresses (N of them; S1's M rows
 * enter at row N - M): 10 machine cycles an entry; or, with
 * -DCARD_ROM_MV_ROLL (the 4 KB image without COMMIT's check), four rows a
 * pass through @R1 (k_rows a multiple of 4): 12.5 cycles an entry, 234 B
 * less code for TTS(20,28).
 */
#if defined(CARD_ROM_MV_ROLL) && (M % 4 || N % 4)
#error "kernels_rom.c: CARD_ROM_MV_ROLL takes four rows a pass"
#endif
void matvec_rom(void) __naked
{
    __asm
        mov  a, #(_IA + N)
        clr  c
        subb a, _k_rows
        mov  r0, a
        mov  _k_ckl, a            ; the accumulator's first row
        mov  r7, _k_rows
    mr_init:
        movx a, @dptr
        inc  dptr
        mov  @r0, a
        inc  r0
        djnz r7, mr_init
        mov  r6, _k_rows
#ifdef CARD_ROM_MV_ROLL
        mov  a, r6
        rr   a
        rr   a
        mov  _k_ckp, a            ; rows / 4
#endif
        mov  b, #(_IA + IX_OFF)   ; &x[c]
        mov  _k_j, #1
    mr_col:
        djnz _k_j, mr_same        ; public: the column index in its run
        mov  dpl, r2
        mov  dph, r3
        clr  a
        movc a, @a+dptr
        mov  P2, a                ; page
        inc  dptr
        clr  a
        movc a, @a+dptr
        mov  r0, a                ; offset: the run's columns follow it
        inc  dptr
        clr  a
        movc a, @a+dptr
        mov  _k_j, a              ; columns
        inc  dptr
        mov  r2, dpl
        mov  r3, dph
        mov  dph, #GFT_PAGE
    mr_same:
        mov  r1, b
        mov  a, @r1               ; x[c] (L1) as the scalar DPTR, its mask R4
        inc  b
        RK_SCL1 r4
#ifdef CARD_ROM_MV_ROLL
        ; the column into the accumulator, four rows a pass
        mov  r1, _k_ckl
        mov  r7, _k_ckp
    mr_row4:
        .rept 4
        RK_L1P                    ; K[r][c] x[c]
        xrl  a, @r1
        mov  @r1, a
        inc  r1
        .endm
        djnz r7, mr_row4
        djnz r6, mr_col
#else
        jb   F0, mr_rm             ; the column into the accumulator
        mr_k = 0
        .rept N - M
        RK_L1P                    ; K[r][c] x[c]
        xrl  (_IA + mr_k), a
        mr_k = mr_k + 1
        .endm
    mr_rm:
        .rept M
        RK_L1P
        xrl  (_IA + mr_k), a
        mr_k = mr_k + 1
        .endm
        djnz r6, mr_colj
#endif
    mr_done:
        mov  r0, _k_ckl
        mov  dpl, _rk_p1
        mov  dph, (_rk_p1 + 1)
        mov  r7, _k_rows
    mr_out:
        mov  a, @r0
        movx @dptr, a
        inc  dptr
        inc  r0
        djnz r7, mr_out
        ret
#ifndef CARD_ROM_MV_ROLL
    mr_colj:
        NJMP mr_col
#endif
    __endasm;
}

/*
 * rk_layer: the layer of T_LAY at rk_lay (k_lo, k_dim; TTS_TPRL in
 * k_cnt). rk_build: the layer's system (docs/SPEC.md 4.6), row by row in
 * IA[0 .. dim] (the identity's row, the right-hand side u[lo - v + row]),
 * then the row's terms from the term records at rk_p0 (X_TERMS, advanced;
 * P2:R0 while it runs): p_t x[u] to the row's byte of column w - lo (the
 * record holds its address; 39 machine cycles a term), or p_t x[u] x[w]
 * to the right-hand side (the record's flag bit: a public index). Each row
 * then goes to X_SL (column c at X_SL + c GST, written out from column
 * dim down, the buffer cleared on the way), then zero rows up to LDMAX.
 * A one-unknown layer has no matrix term (gen_card.c checks it): its
 * system is [1 | r], and rk_build writes x[lo] = r itself (in L1 form).
 */
void rk_build(void) __naked
{
    __asm
        lcall _rk_layer
        mov  r0, _rk_p0
        mov  P2, (_rk_p0 + 1)     ; the term records, P2:R0
        mov  _rk_row, #0
        mov  a, _k_dim
        add  a, #_IA
        mov  _k_j, a              ; &row[dim]: the right-hand side
        ; the row buffer IA[0 .. dim] cleared (then by each write-out);
        ; the entry of the write-out (rb_wo at column dim), its first column
        mov  r1, #_IA
        mov  r7, _k_dim
        clr  a
    rb_clr:
        mov  @r1, a
        inc  r1
        djnz r7, rb_clr
#ifndef CARD_ROM_WO_LOOP
        mov  a, #LDMAX
        clr  c
        subb a, _k_dim
        mov  b, #RB_WOB
        mul  ab
        mov  r7, a
        mov  a, _k_dim
        mov  b, #GST
        mul  ab
        mov  _k_ckp, a            ; the low byte of dim GST
        mov  a, b
        add  a, #(X_SL >> 8)
        mov  _k_t1, a             ; and its page
#if LDMAX >= 8
        mov  a, b
        jnz  rb_e8                ; public: column dim in the second page
        mov  a, r7
        add  a, #RB_PGB
        mov  r7, a
    rb_e8:
#endif
        mov  _k_ckl, r7
#endif
    rb_row:
        ; the row in IA[0 .. dim]: a row of the identity, then u[lo - v + row]
        mov  a, _k_lo
        add  a, _rk_row
        add  a, #((X_U - V) & 0xFF)
        mov  dpl, a
        clr  a
        addc a, #((X_U - V) >> 8)
        mov  dph, a
        movx a, @dptr
        mov  r1, a
        mov  a, _k_dim
        add  a, #_IA
        xch  a, r1
        mov  @r1, a
        mov  a, _rk_row
        add  a, #_IA
        mov  r1, a
        mov  @r1, #1
        ; the terms of the row: their records at P2:R0
        mov  dph, #GFT_PAGE
        mov  r7, _k_cnt
    rb_term:
        movx a, @r0
        inc  r0
        mov  r1, a                ; &x[u]
        mov  a, @r1               ; x[u] (L1) as the scalar DPTR, its mask R4
        RK_SCL1 r4
        movx a, @r0
        inc  r0
        jb   acc.7, rb_rhs        ; public: the kind of the term
        mov  r1, a                ; &row[w - lo]
        movx a, @r0               ; L1 p_t
        inc  r0
        cjne r0, #(3 * TREC_PP), rb_samep ; public: the page's last record
        mov  r0, #0
        inc  P2
    rb_samep:
        add  a, r4                ; log p_t, C = (p_t != 0 and x[u] != 0)
        movc a, @a+dptr
        mov  r5, a
        subb a, 0xe0              ; 0xFF iff p_t x[u] != 0
        anl  a, r5                ; p_t x[u]
        xrl  a, @r1
        mov  @r1, a
        djnz r7, rb_term
        sjmp rb_rend
    rb_rhs:
        ; p_t x[u] x[w]: A = log p_t + log x[w] (mod 255) added to the
        ; scalar of x[u], R4 the mask of x[u] x[w], then of the product
        anl  a, #0x7F
        mov  r1, a
        mov  a, @r1               ; x[w] (L1)
        add  a, #0xFF             ; log x[w], C = (x[w] != 0)
        mov  r5, a
        subb a, 0xe0
        anl  a, r4
        mov  r4, a                ; 0xFF iff x[u] x[w] != 0
        movx a, @r0               ; L1 p_t
        inc  r0
        cjne r0, #(3 * TREC_PP), rb_samepr ; public: the page's last record
        mov  r0, #0
        inc  P2
    rb_samepr:
        add  a, #0xFF             ; log p_t, C = (p_t != 0)
        mov  r1, a
        subb a, 0xe0
        anl  a, r4
        xch  a, r1                ; R1: 0xFF iff p_t x[u] x[w] != 0
        add  a, r5
        addc a, #0                ; (255 stands for 0)
        movc a, @a+dptr
        anl  a, r1
        mov  r1, _k_j             ; &row[dim]
        xrl  a, @r1
        mov  @r1, a
        djnz r7, rb_term
    rb_rend:
        mov  a, _k_dim
        dec  a
        jnz  rb_out               ; public: a one-unknown layer
        ; (no matrix term: its system is [1 | r], x[lo] = r)
        mov  a, _k_lo
        add  a, #(_IA + IX_OFF)
        mov  r1, a
        mov  a, (_IA + 1)
        lcall _rk_l1of            ; (keeps R0, R1 and P2)
        mov  @r1, a
        NJMP rb_done
    rb_out:
#ifdef CARD_ROM_WO_LOOP
        ; the row to X_SL (column c at X_SL + c GST + row), columns 0 .. 7
        ; (the first page) four a pass, then 8 .. LDMAX (dim: every layer
        ; the write-out takes has LDMAX unknowns), each byte of the buffer
        ; cleared (P2:R0, the records, kept in R3:R6)
        mov  r3, P2
        mov  a, r0
        mov  r6, a
        mov  P2, #(X_SL >> 8)
        mov  r1, _rk_row
        mov  r0, #_IA
        mov  r7, #2
    rb_wo:
        .rept 4
        clr  a
        xch  a, @r0
        inc  r0
        movx @r1, a
        mov  a, r1
        add  a, #GST
        mov  r1, a
        .endm
        djnz r7, rb_wo
        inc  P2                   ; (R1: column 8, the next page)
        rb_c = 8
        .rept LDMAX - 7
        clr  a
        xch  a, (_IA + rb_c)
        movx @r1, a
        .if rb_c - LDMAX
        mov  a, r1
        add  a, #GST
        mov  r1, a
        .endif
        rb_c = rb_c + 1
        .endm
        mov  P2, r3
        mov  a, r6
        mov  r0, a
        inc  _rk_row
        mov  a, _rk_row
        cjne a, _k_dim, rb_next   ; public: the next row
#else
        ; the row to X_SL (column c at X_SL + c GST + row), from column
        ; dim down to 0, each byte of the buffer cleared
        mov  r3, P2
        mov  P2, _k_t1
        mov  a, _k_ckp
        add  a, _rk_row
        mov  r1, a
        mov  dptr, #rb_wo
        mov  a, _k_ckl
        jmp  @a+dptr
    rb_wo:
        rb_c = LDMAX
        .rept LDMAX + 1
        clr  a
        xch  a, (_IA + rb_c)
        movx @r1, a
        mov  a, r1
        add  a, #(0x100 - GST)
        mov  r1, a
        .if rb_c - 8
        .else
        dec  P2                   ; (columns 0 .. 7 in the first page)
        .endif
        rb_c = rb_c - 1
        .endm
        mov  P2, r3
        inc  _rk_row
        mov  a, _rk_row
        clr  c
        subb a, _k_dim
        jc   rb_next              ; public: the next row
        ; rows dim .. LDMAX - 1: zero (the solver reads them)
        mov  a, _rk_row
        cjne a, #LDMAX, rb_zero
#endif
    rb_done:
        mov  _rk_p0, r0
        mov  (_rk_p0 + 1), P2
        ret
    rb_next:                      ; (across the 2 KB page in some links)
        ljmp rb_row
#ifndef CARD_ROM_WO_LOOP
    rb_zero:
        NJMP rb_out
#endif
    __endasm;
}

#ifdef ROM_LAYER_GE
/*
 * The layer solver (the algebra of k_layer.c's solve_asm, so the
 * same solutions and verdicts): the system at X_SL (column j at X_SL + j
 * SST, rows 0 .. n-1, the right-hand side in column n; rows n .. LDMAX-1
 * zero: rk_build writes them), n = k_dim, into IX[lo .. lo + n); rk_ok &=
 * (no zero pivot). Gaussian elimination with the pivot repair of
 * gauss_asm, then back substitution. Per pivot k: (1) repair masks FIX[i]
 * = (pivot == 0) for i > k, accumulating the pivot p, and (3) log/mask
 * pairs F[i] of W[i][k]; (2) rk_ok &= p != 0; (4) per column j > k: r =
 * W[k][j] + the masked rows, q = r / p as a scalar (log r + 255 - log p
 * with end-around carry; r's mask in R3, ANDed into every product), its
 * LM form kept at SUOFF + 2k of column j (or q itself to IX[lo + k] for
 * the right-hand side), and W[i][j] ^= F[i] q for i > k. F[i] and FIX[i] are the
 * triple IA[3i .. 3i + 3) (direct addresses); (1) and (3) are one loop
 * over the rows k+1 .. LDMAX-1, 24 machine cycles a row; the two loops of
 * (4) over the rows below the pivot are written out (rs_rep, rs_elm),
 * entered at row k + 1 (JMP @A+DPTR, or a RET to the address pushed) and
 * run to row LDMAX - 1 (the zero rows change nothing): 5 + 12 cycles an
 * entry; the last pivot takes the same path, with the right-hand side
 * its only column and no row below. Back substitution: for j = n-1 .. 1,
 * IX[lo + i] ^= U[i][j] x[lo + j] for i < j; then x[lo .. lo + n) to L1
 * form (rk_l1x). Every loop bound and branch depends on n, k, j only; a
 * zero pivot (rk_ok = 0) gives garbage from in-bounds reads.
 */
#define RS_FL(i)  (IA_ABS + 3 * (i))
#define RS_FM(i)  (IA_ABS + 3 * (i) + 1)
#define RS_FIX(i) (IA_ABS + 3 * (i) + 2)
#define RS_REPB 6                 /* bytes of a row of rs_rep */
#define RS_ELMB 11                /* of rs_elm */
#if (LDMAX - 1) * RS_REPB > 255
#error "kernels_rom.c: rs_rep is entered by JMP @A+DPTR"
#endif
#define _rs_inv _k_acc
#define _rs_u2k _k_x
#define _rs_xk  _k_Klo
#define _rs_k1  _k_Khi
#define _rs_rep _k_rows           /* RS_REPB k: the entry of rs_rep */
#define _rs_e0  _k_st             /* the entry of rs_elm, low */
#define _rs_e1  _k_t1             /* and high */

void rs_solve(void) __naked
{
    __asm
        clr  a
        mov  _k_k, a
        mov  _k_ckl, a            ; (X_SL: a page)
        mov  _rs_rep, a
        mov  _k_ckp, #(X_SL >> 8)
        mov  a, #(_IA + IX_OFF)
        add  a, _k_lo
        mov  _rs_xk, a            ; &IX[lo + k]
        mov  _rs_u2k, #SUOFF
        mov  _rs_e0, #rs_elm
        mov  _rs_e1, #(rs_elm >> 8)
    rs_piv:
        mov  P2, _k_ckp
        mov  a, _k_k
        inc  a
        mov  _rs_k1, a
        add  a, _k_ckl
        mov  r1, a                ; &W[k+1][k]
        dec  a
        mov  r0, a
        movx a, @r0
        mov  r6, a                ; pivot
        mov  dph, #(X_LOGT >> 8)  ; (logs: DPL = x, MOVX A,@DPTR)
        ; ---- (1), (3) per row i > k: FIX[i] = (pivot == 0), the pivot
        ; accumulated, F[i] = log, mask of W[i][k] (rows k+1 .. LDMAX-1)
        mov  a, #(LDMAX - 1)
        clr  c
        subb a, _k_k
        jz   rs_ffz               ; public: the last row
        mov  r7, a
        mov  a, _rs_k1
        mov  b, #3
        mul  ab
        add  a, #RS_FL(0)
        mov  r0, a                ; &F[k+1]
    rs_ff:
        movx a, @r1
        inc  r1
        mov  r5, a                ; W[i][k]
        mov  dpl, a
        movx a, @dptr
        mov  @r0, a
        inc  r0
        mov  a, r5
        add  a, #0xFF
        subb a, 0xe0
        mov  @r0, a
        inc  r0
        mov  a, r6
        add  a, #0xFF
        subb a, 0xe0
        cpl  a                    ; 0xFF iff pivot == 0
        mov  @r0, a
        inc  r0
        anl  a, r5
        xrl  0x06, a              ; R6 (bank 0)
        djnz r7, rs_ff
    rs_ffz:
        ; ---- (2) ok, 255 - log p
        mov  a, r6
        add  a, #0xFF
        clr  a
        rlc  a
        anl  _rk_ok, a
        mov  dpl, r6
        movx a, @dptr             ; log p
        cpl  a
        mov  _rs_inv, a
        mov  r2, _k_ckl           ; (P2 = the page of column k)
        ; ---- (4) columns j = k+1 .. n (n is the right-hand side; the
        ; last pivot has that column alone)
        mov  a, _k_dim
        clr  c
        subb a, _k_k
        mov  _k_j, a              ; n - k columns
    rs_col:
        mov  a, r2
        add  a, #SST
        mov  r2, a
        jnc  rs_colp              ; public: the column
        inc  P2
    rs_colp:
        add  a, _k_k
        mov  r1, a
        movx a, @r1               ; W[k][j]
        inc  r1
        mov  r6, a
        mov  dptr, #rs_rep
        mov  a, _rs_rep
        jmp  @a+dptr              ; the rows k+1 .. LDMAX-1
    rs_rep:
        rs_i = 1
        .rept LDMAX - 1
        movx a, @r1
        inc  r1
        anl  a, (RS_FIX(0) + 3 * rs_i)
        xrl  0x06, a              ; R6 (bank 0)
        rs_i = rs_i + 1
        .endm
        mov  a, r6
        ; q = r / p: DPTR = GFT + (log r - log p), R3 = the mask of r
        mov  dpl, a
        mov  dph, #(X_LOGT >> 8)
        movx a, @dptr
        add  a, _rs_inv
        addc a, #0                ; mod 255 (255 stands for 0)
        mov  dpl, a
        mov  dph, #GFT_PAGE
        mov  a, r6
        add  a, #0xFF             ; C = (r != 0)
        subb a, 0xe0
        mov  r3, a                ; 0xFF iff r != 0
        mov  a, _k_j
        cjne a, #1, rs_keep       ; public: the right-hand side column
        clr  a
        movc a, @a+dptr
        anl  a, r3                ; q
        mov  r0, _rs_xk
        mov  @r0, a
        sjmp rs_elim
    rs_keep:
        mov  a, r2
        add  a, _rs_u2k
        mov  r1, a
        mov  a, dpl
        movx @r1, a
        inc  r1
        mov  a, r3
        movx @r1, a
    rs_elim:
        mov  a, r2
        add  a, _rs_k1
        mov  r1, a                ; &W[k+1][j]
        push _rs_e0
        push _rs_e1
        ret                       ; to rs_elm + RS_ELMB k
    rs_elm:
        rs_i = 1
        .rept LDMAX - 1
        movx a, @r1
        mov  r5, a
        mov  a, (RS_FL(0) + 3 * rs_i)
        movc a, @a+dptr
        anl  a, (RS_FM(0) + 3 * rs_i)
        anl  a, r3
        xrl  a, r5
        movx @r1, a
        inc  r1
        rs_i = rs_i + 1
        .endm
        djnz _k_j, rs_colj
        ; next pivot
        mov  a, _k_ckl
        add  a, #SST
        mov  _k_ckl, a
        clr  a
        addc a, _k_ckp
        mov  _k_ckp, a
        inc  _rs_xk
        inc  _rs_u2k
        inc  _rs_u2k
        inc  _k_k
        mov  a, _rs_rep
        add  a, #RS_REPB
        mov  _rs_rep, a
        mov  a, _rs_e0
        add  a, #RS_ELMB
        mov  _rs_e0, a
        clr  a
        addc a, _rs_e1
        mov  _rs_e1, a
        mov  a, _k_k
        cjne a, _k_dim, rs_pivj   ; public: the next pivot
        ; ---- back substitution, j = n-1 .. 1
        mov  r4, a
        dec  r4
    rs_bcol:
        mov  a, r4
        jz   rs_bdone
        mov  b, #SST
        mul  ab
        add  a, #((X_SL + SUOFF) & 0xFF)
        mov  r1, a                ; U[0][j]
        mov  a, b
        addc a, #(X_SL >> 8)
        mov  P2, a
        mov  a, #(_IA + IX_OFF)
        add  a, _k_lo
        mov  r3, a                ; &IX[lo]
        add  a, r4
        mov  r0, a
        mov  a, @r0               ; x[lo + j], its mask R6
        RK_SCAL r6
        mov  a, r3
        mov  r0, a
        mov  a, r4
        mov  r7, a
    rs_brow:
        movx a, @r1
        inc  r1
        movc a, @a+dptr
        anl  a, r6
        mov  r5, a
        movx a, @r1
        inc  r1
        anl  a, r5
        xrl  a, @r0
        mov  @r0, a
        inc  r0
        djnz r7, rs_brow
        dec  r4
        sjmp rs_bcol
    rs_pivj:
        NJMP rs_piv
    rs_colj:
        NJMP rs_col
    rs_bdone:
        mov  a, #(_IA + IX_OFF)   ; x[lo .. lo + n) to L1
        add  a, _k_lo
        mov  r0, a
        mov  r7, _k_dim
        NJMP _rk_l1x
    __endasm;
}
#endif

/* Solve the layer built at X_SL into IX[lo .. lo + dim), in L1 form; rk_ok
 * &= the verdict. ROM_LAYER_GE (card.h): rs_solve (RK_SOLVE); else
 * Gauss-Jordan, the solution in the last column. */
#ifndef ROM_LAYER_GE
void rk_solve(void) __naked
{
    __asm
        mov  _k_rows, _k_dim
        mov  a, _k_dim
        inc  a
        mov  _k_cols, a
        mov  _k_Whi, #(X_SL >> 8)
        lcall _gauss_k
        mov  a, dpl
        anl  _rk_ok, a
        mov  a, _k_lo
        add  a, #(_IA + IX_OFF)
        mov  r0, a
        mov  a, _k_dim            ; the solution: column dim, row 0
        mov  b, #GST
        mul  ab
        add  a, #(X_SL & 0xFF)
        mov  dpl, a
        mov  a, b
        addc a, #(X_SL >> 8)
        mov  dph, a
        mov  r7, _k_dim
    rs_x:
        movx a, @dptr
        inc  dptr
        mov  @r0, a
        inc  r0
        djnz r7, rs_x
        mov  a, _k_lo             ; x[lo .. lo + n) to L1
        add  a, #(_IA + IX_OFF)
        mov  r0, a
        mov  r7, _k_dim
        NJMP _rk_l1x
    __endasm;
}
#endif

/*
 * The helpers above in the code area RGAP: the link places it in the gap
 * between the interrupt vectors and GFT (build-image.sh); there, ACALL
 * reaches them. rk_layer, after them, is in CSEG.
 */
void rk_gap(void) __naked
{
    __asm
#ifndef CARD_ROM_NO_CHECK
        .area CK_AREA (CODE)
    _rk_gmul::                    ; GFT[log a + log b], masked
        mov  dpl, a
        add  a, #0xFF             ; C = (a != 0)
        subb a, 0xe0
        mov  r4, a                ; 0xFF iff a != 0
        mov  dph, #(X_LOGT >> 8)
        movx a, @dptr
        xch  a, b                 ; B = log a
        mov  dpl, a
        add  a, #0xFF             ; C = (b != 0)
        subb a, 0xe0
        anl  a, r4
        mov  r4, a                ; 0xFF iff a b != 0
        movx a, @dptr
        mov  dpl, a               ; log b
        mov  dph, #GFT_PAGE
        mov  a, b
        movc a, @a+dptr
        anl  a, r4
        ret
#endif
        .area RGAP (CODE)
    _rk_l1of::
        mov  dpl, a
        add  a, #0xFF             ; C = (x != 0)
        mov  dph, #(X_LOGT >> 8)
        movx a, @dptr
        inc  a                    ; log x + 1
        mov  r5, a
        subb a, 0xe0              ; 0xFF iff x != 0
        anl  a, r5
        ret
        .area CSEG (CODE)
        ; @R0 .. @(R0 + R7 - 1) to their L1 form (R5, DPTR): in place
        ; (rk_l1x), or from XDATA P2:R1 .. (rk_l1in)
    _rk_l1x::
        clr  F0
        sjmp rk_l1l
    _rk_l1in::
        setb F0
    rk_l1l:
        mov  a, @r0
        jnb  F0, rk_l1c
        movx a, @r1
        inc  r1
    rk_l1c:
        mov  dpl, a
        add  a, #0xFF             ; C = (x != 0)
        mov  dph, #(X_LOGT >> 8)
        movx a, @dptr
        inc  a
        mov  r5, a
        subb a, 0xe0
        anl  a, r5
        mov  @r0, a
        inc  r0
        djnz r7, rk_l1l
        ret
#ifdef CARD_ROM_FILL_GAP
        .area RGAP (CODE)
#endif
    _rk_layer::
        mov  dptr, #_T_LAY
        mov  a, _rk_lay
        movc a, @a+dptr
        mov  _k_lo, a
        inc  dptr
        mov  a, _rk_lay
        movc a, @a+dptr
        mov  _k_dim, a
        inc  dptr
        mov  a, _rk_lay
        movc a, @a+dptr
        mov  _k_cnt, a
        ret
#ifdef CARD_ROM_FILL_GAP
        .area CSEG (CODE)
#endif
    __endasm;
}

#ifndef CARD_ROM_NO_CHECK
/*
 * COMMIT KEY's check: y = F(x) of the staged raw key, x at IX (c3, or a
 * check point's x), y at IA[0 .. m): y[k] = x[v + k] + sum_t p_t x[u_t]
 * x[w_t], over the term records with the staged key's coefficients, raw,
 * in them (rk_tfilld; the active key's go back in after the check: rom.c,
 * COMMIT KEY; in the area CK_AREA).
 */
void rk_ceval(void) __naked
{
    __asm
        .area CK_AREA (CODE)
    _central_eval_rom::
        mov  dptr, #(X_STAGE + SK_COEF)
        lcall _rk_tfilld
        mov  r0, #_IA
        mov  r1, #(_IA + IX_OFF + V)
        mov  r7, #M
    ce_y:
        mov  a, @r1
        mov  @r0, a
        inc  r0
        inc  r1
        djnz r7, ce_y
        mov  P2, #(X_TERMS >> 8)  ; the records at P2:R0 (X_TERMS: a page)
        clr  a
        mov  r0, a
        mov  _rk_lay, a
    ce_lay:
        lcall _rk_layer
        mov  a, _k_lo
        add  a, #(_IA - V)
        mov  r6, a                ; &y[lo - v]
    ce_row:
        mov  r7, _k_cnt
    ce_term:
        movx a, @r0
        inc  r0
        mov  r1, a
        mov  b, @r1               ; x[u]
        movx a, @r0
        inc  r0
        jb   acc.7, ce_rhs        ; public
        add  a, _k_lo
        add  a, #(0x80 | IX_OFF)
    ce_rhs:
        anl  a, #0x7F
        mov  r1, a
        mov  a, @r1               ; x[w]
        CK_CALL _rk_gmul          ; x[u] x[w]
        mov  b, a
        movx a, @r0               ; p_t, raw
        inc  r0
        cjne r0, #(3 * TREC_PP), ce_samep ; public: the page's last record
        mov  r0, #0
        inc  P2
    ce_samep:
        CK_CALL _rk_gmul
        mov  r1, 0x06             ; &y[row] (R6, bank 0)
        xrl  a, @r1
        mov  @r1, a
        djnz r7, ce_term
        inc  r6
        djnz _k_dim, ce_row
        mov  a, _rk_lay
        add  a, #3
        mov  _rk_lay, a
        cjne a, #12, ce_lay
        ret
        .area CSEG (CODE)
    __endasm;
}
#endif

