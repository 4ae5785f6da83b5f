/* SPDX-License-Identifier: MIT */
/*
 * One layer's linear system (docs/SPEC.md 4.6), built from the x values
 * solved so far (layer_build) and solved into IX (layer_solve): in
 * assembly, with the terms as straight code generated per set
 * (card_tables.h), and the C twins (-DCARD_C_KERNELS), which build it in
 * Gauss-Jordan's layout and solve it with gauss (k_gauss.c). The same
 * verdicts and, for an invertible system, the same solution;
 * tests/test_card.sh checks that both give the same signatures.
 */
#include "kernels.h"

#ifdef CARD_ROM
#error "the ROM family's kernels are in kernels_rom.c"
#endif

#ifndef CARD_C_KERNELS

/*
 * The linear system of one layer (docs/SPEC.md 4.6) in the work at page
 * k_Whi, column c at c * SST (card.h): identity, right-hand side =
 * u[lo-v ..], then every term t of the layer: p_t x[u] goes to entry
 * [row-lo][w-lo] if w >= lo (public index), else p_t x[u] x[w] to the
 * right-hand side. First the x values become scalars, IA[2u] = log x[u],
 * IA[2u+1] = DPH (zero page for 0), for from <= u < lo (k_ql = from; the
 * ones below are still there, see sign.c), so a product is one MOVC with
 * the coefficient's log and one AND with its mask. The terms are straight
 * code, generated per set and layer by gen_card.c (card_tables.h, read
 * here inside the __asm blocks of lt_0 .. lt_3 with CARD_TERM_ASM set):
 * every address is a constant, 16 machine cycles a matrix term, and the x
 * scalar is loaded once per u. k_lo, k_dim.
 */
static void layer_asm(void) __naked
{
    __asm
        ; ---- x scalars for from <= u < lo: IA[2u] = log x[u], IA[2u+1] = DPH
        ; (those below from are still there: sign.c)
        mov  a, _k_ql
        add  a, #(_IA + IX_OFF)
        mov  r0, a
        mov  a, _k_ql
        rl   a
        add  a, #(_IA + XS_OFF)
        mov  r1, a
        mov  a, _k_lo
        clr  c
        subb a, _k_ql
        mov  r7, a
        mov  dptr, #GFT_LOGA
    ly_xs:
        mov  a, @r0
        inc  r0
        mov  r5, a
        movc a, @a+dptr           ; log x
        mov  @r1, a
        inc  r1
        mov  a, r5
        dec  dph                  ; GFT_HIA = GFT_LOGA - 0x100
        movc a, @a+dptr           ; 2 iff x == 0
        inc  dph
        add  a, #GFT_PAGE
        mov  @r1, a
        inc  r1
        djnz r7, ly_xs
        ; ---- identity: column c at r2:r3
        mov  r2, #0
        mov  r3, _k_Whi
        mov  r7, #0
    ly_icol:
        mov  P2, r3
        mov  a, r2
        mov  r1, a
        clr  a
        .rept LDMAX               ; rows dim .. LDMAX-1 are unused
        movx @r1, a
        inc  r1
        .endm
        mov  a, r2
        add  a, r7
        mov  r1, a
        mov  a, #1
        movx @r1, a               ; public: the diagonal
        mov  a, r2
        add  a, #SST
        mov  r2, a
        clr  a
        addc a, r3
        mov  r3, a
        inc  r7
        mov  a, r7
        cjne a, _k_dim, ly_icol
        ; right-hand side column (c = dim, at r2:r3): u[lo - V + r]
        mov  P2, r3
        mov  a, r2
        mov  r1, a
        mov  a, _k_lo
        add  a, #((X_U - V) & 0xFF)
        mov  dpl, a
        clr  a
        addc a, #((X_U - V) >> 8)
        mov  dph, a
        mov  r6, _k_dim
    ly_rhs0:
        movx a, @dptr
        movx @r1, a
        inc  dptr
        inc  r1
        djnz r6, ly_rhs0
        ret
    __endasm;
}

/*
 * The generated term statements' macros. Coefficient t's L1 byte is at
 * X_KCO + t, entry [r][c] at
 * X_SL + c * SST + r (layer_asm has written the identity there). LTP leaves
 * p_t x[u] in A (P2 the coefficient's page); LTM, LTD and LTA then set P2
 * to the entry's and write it, write it plus 1, or add to it. LTC's product
 * with x[w] is lt_rhs (the zero page handles x[w] = 0, the mask cu = 0).
 */
static void lt_macros(void) __naked
{
    __asm
    .macro LTX u
        mov  r1, #(_IA + XS_OFF + 2 * u)
        mov  a, @r1
        mov  dpl, a
        inc  r1
        mov  a, @r1
        mov  dph, a               ; DPTR = scalar x[u]
    .endm
    .macro LTP t
        mov  P2, #((X_KCO + t) >> 8)
        mov  r0, #((X_KCO + t) & 0xFF)
        movx a, @r0               ; L1 p_t
        add  a, #0xFF             ; log p_t, C = (p_t != 0)
        movc a, @a+dptr
        mov  r5, a
        subb a, 0xe0              ; 0xFF iff p_t != 0
        anl  a, r5                ; cu = p_t x[u]
    .endm
    .macro LTE c, r
        mov  P2, #((X_SL + c * SST + r) >> 8)
        mov  r1, #((X_SL + c * SST + r) & 0xFF)
    .endm
    .macro LTM t, c, r
        LTP  t
        LTE  c, r
        movx @r1, a
    .endm
    .macro LTD t, c, r
        LTP  t
        LTE  c, r
        xrl  a, #1
        movx @r1, a
    .endm
    .macro LTA t, c, r
        LTP  t
        LTE  c, r
        mov  r5, a
        movx a, @r1
        xrl  a, r5
        movx @r1, a
    .endm
    .macro LTC t, w, c, r
        LTP  t
        mov  r5, a
        mov  r1, #(_IA + XS_OFF + 2 * w)
        mov  r2, #((X_SL + c * SST + r) >> 8)
        mov  r3, #((X_SL + c * SST + r) & 0xFF)
        lcall lt_rhs
    .endm
        ret
    lt_rhs:
        ; entry r2:r3 ^= cu x[w]: cu in A and R5, @r1 the scalar of x[w]
        mov  dptr, #GFT_LOGA
        movc a, @a+dptr           ; log cu
        mov  b, a
        mov  a, @r1
        mov  dpl, a
        inc  r1
        mov  a, @r1
        mov  dph, a               ; DPTR = scalar x[w]
        mov  a, b
        movc a, @a+dptr           ; cu x[w] if cu != 0
        mov  b, a
        mov  a, r5
        add  a, #0xFF
        clr  a
        subb a, #0                ; 0xFF iff cu != 0
        anl  a, b
        mov  r5, a
        mov  P2, r2
        mov  a, r3
        mov  r1, a
        movx a, @r1
        xrl  a, r5
        movx @r1, a
        ret
    __endasm;
}

static void lt_0(void) __naked
{
    __asm
#define CARD_TERM_ASM 0
#include "card_tables.h"
#undef CARD_TERM_ASM
        ret
    __endasm;
}

static void lt_1(void) __naked
{
    __asm
#define CARD_TERM_ASM 1
#include "card_tables.h"
#undef CARD_TERM_ASM
        ret
    __endasm;
}

static void lt_2(void) __naked
{
    __asm
#define CARD_TERM_ASM 2
#include "card_tables.h"
#undef CARD_TERM_ASM
        ret
    __endasm;
}

static void lt_3(void) __naked
{
    __asm
#define CARD_TERM_ASM 3
#include "card_tables.h"
#undef CARD_TERM_ASM
        ret
    __endasm;
}

/* t0 and nt (the C twin's) are implied by lo here: the generated code. */
void layer_build(uint8_t lo, uint8_t dim, uint16_t t0, uint16_t nt,
                 uint8_t from)
{
    (void)t0; (void)nt;
    k_ql = from;
    k_Whi = (uint8_t)(X_SL >> 8);
    k_lo = lo;
    k_dim = dim;
    layer_asm();
    /* public: the layer (k_lo, not lo: the naked layer_asm uses every
     * register, which SDCC does not know) */
    if (k_lo == V)
        lt_0();
    else if (k_lo == V + A)
        lt_1();
    else if (k_lo == V + A + 1)
        lt_2();
    else
        lt_3();
}

/*
 * Solve one layer's system (layer_asm's layout: column j at X_SL + j*SST,
 * rows 0 .. n-1, right-hand side in column n) into IX[lo .. lo + n):
 * Gaussian elimination with the same pivot repair as gauss_asm, then back
 * substitution. Per pivot k: (1) repair masks FIX[i] = (pivot == 0) for
 * i > k, accumulating the pivot p; (2) ok &= p != 0; (3) lo/mask pairs
 * F[i] of W[i][k], i > k; (4) per column j > k: r = W[k][j] + the masked
 * rows, q = r / p as a scalar (log r + 255 - log p with end-around carry,
 * masked to the zero page when r == 0), its LM form kept at SUOFF + 2k of
 * column j (or q itself to IX[lo + k] for the right-hand side), and
 * W[i][j] ^= F[i] q for i > k. Back substitution: for j = n-1 .. 1,
 * IX[lo + i] ^= U[i][j] x[lo + j] for i < j (the matvec loop). Scratch
 * at the top of the scratch area, fb = IX_OFF - 3n: F at IA[fb + 2i], FIX
 * at IA[fb + 2n + i], below it the x scalars of layer_asm survive.
 * Every loop bound and branch depends on n, k, j only; a zero pivot
 * (singular system, ok = 0) gives garbage from in-bounds reads.
 */
#define _k_inv _k_acc
#define _k_u2k _k_x
#define _k_f1  _k_st
#define _k_xk  _k_Klo
#define _k_k1  _k_Khi
#define _k_fb  _k_rows

#ifndef SV_GEN
static uint8_t solve_asm(void) __naked
{
    __asm
        mov  _k_ok, #1
        mov  _k_k, #0
        mov  _k_ckl, #0
        mov  _k_ckp, _k_Whi
        mov  a, #(_IA + IX_OFF)
        add  a, _k_lo
        mov  _k_xk, a             ; &IX[lo + k]
        mov  _k_u2k, #SUOFF
        mov  a, _k_dim
        mov  b, #3
        mul  ab
        mov  b, a
        mov  a, #(_IA + IX_OFF)
        clr  c
        subb a, b
        mov  _k_fb, a             ; scratch: F at fb + 2i, FIX at fb + 2n + i
    sv_piv:
        ; ---- (1) repair masks and pivot
        mov  P2, _k_ckp
        mov  a, _k_k
        inc  a
        mov  _k_k1, a
        add  a, _k_ckl
        mov  r1, a                ; &W[k+1][k]
        dec  a
        mov  r0, a
        movx a, @r0
        mov  r6, a                ; pivot
        mov  a, _k_dim
        clr  c
        subb a, _k_k1
        mov  _k_cnt, a            ; n - k - 1
        mov  r7, a
        mov  a, _k_dim
        rl   a
        add  a, _k_fb
        add  a, _k_k1
        mov  r0, a
        mov  _k_t1, a             ; &FIX[k+1]
        mov  a, r7
        jz   sv_fixed
    sv_fix:
        mov  a, r6
        add  a, #0xFF             ; C = pivot != 0
        cpl  c
        clr  a
        subb a, #0                ; 0xFF iff pivot == 0
        mov  @r0, a
        inc  r0
        mov  r5, a
        movx a, @r1
        inc  r1
        anl  a, r5
        xrl  ar6, a
        djnz r7, sv_fix
    sv_fixed:
        ; ---- (2) ok, 255 - log p
        mov  a, r6
        add  a, #0xFF
        clr  a
        rlc  a
        anl  _k_ok, a
        mov  a, r6
        mov  dptr, #GFT_LOGA
        movc a, @a+dptr
        cpl  a
        mov  _k_inv, a
        mov  r2, _k_ckl
        mov  r3, _k_ckp
        mov  a, _k_cnt
        jnz  sv_fac0
        ljmp sv_last              ; public: the last pivot
    sv_fac0:
        ; ---- (3) F[i] = log, mask of W[i][k], i > k
        mov  r7, a
        mov  a, _k_k1
        rl   a
        add  a, _k_fb
        mov  r0, a
        mov  _k_f1, a             ; &F[k+1]
        mov  a, _k_ckl
        add  a, _k_k1
        mov  r1, a
    sv_fac:
        movx a, @r1
        inc  r1
        mov  r5, a
        movc a, @a+dptr
        mov  @r0, a
        inc  r0
        mov  a, r5
        add  a, #0xFF
        clr  a
        subb a, #0                ; 0xFF iff W[i][k] != 0
        mov  @r0, a
        inc  r0
        djnz r7, sv_fac
        ; ---- (4) columns j = k+1 .. n (n is the right-hand side)
        mov  a, _k_dim
        clr  c
        subb a, _k_k
        mov  _k_j, a              ; n - k columns
    sv_col:
        mov  a, r2
        add  a, #SST
        mov  r2, a
        clr  a
        addc a, r3
        mov  r3, a
        mov  P2, a
        mov  a, r2
        add  a, _k_k
        mov  r1, a
        movx a, @r1               ; W[k][j]
        inc  r1
        mov  r6, a
        mov  r7, _k_cnt
        mov  r0, _k_t1
    sv_rep:
        movx a, @r1
        inc  r1
        anl  a, @r0
        inc  r0
        xrl  ar6, a
        djnz r7, sv_rep
        mov  a, r6
        ; q = r / p: DPL = (log r - log p) & mask r, DPH = page + 2 (r == 0)
        mov  dptr, #GFT_LOGA
        movc a, @a+dptr
        add  a, _k_inv
        addc a, #0                ; mod 255 (255 stands for 0)
        mov  r5, a
        mov  a, r6
        dec  dph                  ; GFT_HIA
        movc a, @a+dptr           ; 2 iff r == 0
        mov  r4, a
        add  a, #GFT_PAGE
        mov  dph, a
        mov  a, r4
        rr   a
        dec  a
        mov  b, a                 ; 0xFF iff r != 0
        anl  a, r5
        mov  dpl, a
        mov  a, _k_j
        cjne a, #1, sv_keep       ; public: the right-hand side column
        clr  a
        movc a, @a+dptr           ; q
        mov  r0, _k_xk
        mov  @r0, a
        sjmp sv_elim
    sv_keep:
        mov  a, r2
        add  a, _k_u2k
        mov  r1, a
        mov  a, dpl
        movx @r1, a
        inc  r1
        mov  a, b
        movx @r1, a
    sv_elim:
        mov  r7, _k_cnt
        mov  a, r2
        add  a, _k_k1
        mov  r1, a
        mov  r0, _k_f1
    sv_elm:
        mov  a, @r0
        inc  r0
        movc a, @a+dptr
        anl  a, @r0
        inc  r0
        mov  r5, a
        movx a, @r1
        xrl  a, r5
        movx @r1, a
        inc  r1
        djnz r7, sv_elm
        djnz _k_j, sv_col
        ; next pivot
        mov  a, _k_ckl
        add  a, #SST
        mov  _k_ckl, a
        clr  a
        addc a, _k_ckp
        mov  _k_ckp, a
        inc  _k_xk
        inc  _k_u2k
        inc  _k_u2k
        inc  _k_k
        ljmp sv_piv
    sv_last:
        ; k = n - 1: x[lo + k] = W[k][n] / p (zero if W[k][n] == 0)
        mov  a, r2
        add  a, #SST
        mov  r1, a
        clr  a
        addc a, r3
        mov  P2, a                ; column n
        mov  a, r1
        add  a, _k_k
        mov  r1, a
        movx a, @r1
        mov  r6, a
        movc a, @a+dptr           ; DPTR = GFT_LOGA
        add  a, _k_inv
        addc a, #0
        mov  dpl, a
        mov  dph, #GFT_PAGE
        clr  a
        movc a, @a+dptr
        mov  r5, a
        mov  a, r6
        add  a, #0xFF
        clr  a
        subb a, #0                ; 0xFF iff W[k][n] != 0
        anl  a, r5
        mov  r0, _k_xk
        mov  @r0, a
        ; ---- back substitution, j = n-1 .. 1
        mov  r4, _k_k
    sb_col:
        mov  a, r4
        jz   sb_done
        mov  b, #SST
        mul  ab
        add  a, #SUOFF
        mov  r1, a                ; U[0][j]
        mov  a, b
        add  a, _k_Whi
        mov  P2, a
        mov  a, #(_IA + IX_OFF)
        add  a, _k_lo
        mov  r3, a                ; &IX[lo]
        add  a, r4
        mov  r0, a
        mov  a, @r0               ; x[lo + j]
        mov  r5, a
        mov  dptr, #GFT_HIA
        movc a, @a+dptr
        add  a, #GFT_PAGE
        xch  a, r5
        inc  dph
        movc a, @a+dptr
        mov  dpl, a
        mov  dph, r5
        mov  a, r3
        mov  r0, a
        mov  a, r4
        mov  r7, a
    sb_row:
        movx a, @r1
        inc  r1
        movc a, @a+dptr
        mov  r5, a
        movx a, @r1
        inc  r1
        anl  a, r5
        xrl  a, @r0
        mov  @r0, a
        inc  r0
        djnz r7, sb_row
        dec  r4
        sjmp sb_col
    sb_done:
        mov  dpl, _k_ok
        ret
    __endasm;
}
#endif

/*
 * The solver written out per size (gen_card.c: solve_asm_gen, the same
 * algebra as solve_asm): sv_1 for the one-unknown layers of every set, and
 * with SV_GEN (card.h) sv_a, sv_b for the set's a and b. Arguments: k_Klo
 * = &IX[lo]; scratch at SVF (card.h: XS_OFF).
 */
#define SVW(r, c) (X_SL + (c) * SST + (r))
#if XS_OFF
#define SVF(d) 0
#else
#define SVF(d) (IX_OFF - 3 * (d))
#endif
#define SVFL(i) (_IA + SVF(SVD) + 2 * (i))
#define SVFM(i) (_IA + SVF(SVD) + 2 * (i) + 1)
#define SVFX(i) (_IA + SVF(SVD) + 2 * SVD + (i))

static uint8_t sv_1(void) __naked
{
    __asm
#define SVD 1
#define CARD_SOLVE_ASM 1
#include "card_tables.h"
#undef CARD_SOLVE_ASM
#undef SVD
        ret
    __endasm;
}

#ifdef SV_GEN
static uint8_t sv_a(void) __naked
{
    __asm
#define SVD A
#define CARD_SOLVE_ASM A
#include "card_tables.h"
#undef CARD_SOLVE_ASM
#undef SVD
        ret
    __endasm;
}

#if B != A
static uint8_t sv_b(void) __naked
{
    __asm
#define SVD B
#define CARD_SOLVE_ASM B
#include "card_tables.h"
#undef CARD_SOLVE_ASM
#undef SVD
        ret
    __endasm;
}
#else
#define sv_b sv_a
#endif
#endif

uint8_t layer_solve(uint8_t lo, uint8_t dim)
{
    k_Klo = (uint8_t)(uint16_t)(IX + lo);
    if (dim == 1) /* public: the layer */
        return sv_1();
#ifdef SV_GEN
    if (dim == A)
        return sv_a();
    return sv_b();
#else
    k_Whi = (uint8_t)(X_SL >> 8);
    k_lo = lo;
    k_dim = dim;
    return solve_asm();
#endif
}

#else

#define WCOL(c) XP(X_SL + (uint16_t)(c) * GST)

/* C twin of layer_build: Gauss-Jordan's layout (GST), every term */
void layer_build(uint8_t lo, uint8_t dim, uint16_t t0, uint16_t nt,
                 uint8_t from)
{
    uint8_t r, c;
    uint16_t t;
    __xdata uint8_t *rhs = WCOL(dim);
    (void)from; /* (the assembly's: which x scalars are still there) */
    for (c = 0; c < dim; c++) {
        __xdata uint8_t *col = WCOL(c);
        for (r = 0; r < dim; r++)
            col[r] = 0;
        col[c] = 1;
    }
    for (r = 0; r < dim; r++)
        rhs[r] = XU[lo + r - V];
    for (t = t0; t < t0 + nt; t++) {
        uint8_t row = TROW(t) - lo, w = TW(t), xu = IX[TU(t)], cu;
        uint8_t p = XB(X_KCO + t);          /* L1 */
        cu = GFT[(uint16_t)LOGLO(xu) + (uint8_t)(p - 1)] & NZ(xu) & L1MASK(p);
        if (w >= lo) /* public: a matrix entry or a constant */
            WCOL(w - lo)[row] ^= cu;
        else
            rhs[row] ^= gmul(cu, IX[w]);
    }
}

/* C twin of layer_solve: Gauss-Jordan on the GST layout of
 * the twin layer_build; the same pivots (so the same verdict) and, for an
 * invertible system, the same (unique) solution. */
uint8_t layer_solve(uint8_t lo, uint8_t dim)
{
    uint8_t c = gauss(X_SL, dim, dim + 1);
    xcopy_i(X_SL + (uint16_t)dim * GST, (arena_t)(uint16_t)(IX + lo), dim);
    return c;
}

#endif
