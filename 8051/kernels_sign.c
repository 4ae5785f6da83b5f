/*
 * Assembly kernels of the signing path (inline in C so that the set's
 * macros reach them): xcopy_k, matvec_k, layer_build and layer_solve.
 * build-image.sh counts this object whole in "sign_code"; the key set-up
 * and public-key kernels are in kernels_setup.c. The C twins are in gf.c
 * and sign.c (built with -DCARD_C_KERNELS); tests/test_card.sh checks that
 * both builds give the same signatures.
 *
 * Conventions: the first argument in DPL (DPTR), the others in the k_*
 * data bytes (kernels.h; defined here; card_if.h names them per kernel),
 * P2 is the XDATA page for MOVX @Ri (left changed), GFT is page-aligned at
 * GFT_ADDR, every loop bound is a public size, and no branch depends on a
 * field value: zero operands go through masks or the zero page of GFT.
 */
#include "kernels.h"

#ifdef CARD_ROM
#error "the ROM family's kernels are in kernels_rom.c"
#endif

#ifndef CARD_C_KERNELS

__data uint8_t k_rows, k_cols, k_Whi, k_k, k_j, k_ok, k_ckp, k_ckl, k_cnt, k_t1;
__data uint8_t k_acc, k_x, k_st, k_Klo, k_Khi, k_ql;

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
__data uint8_t k_lo, k_dim;

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

#endif /* !CARD_C_KERNELS */
