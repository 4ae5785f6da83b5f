/*
 * Assembly kernels of key set-up and the public key (not on the signing
 * path): gauss (Gauss-Jordan, GENERATE and COMMIT KEY), matvec_lm (the
 * public key's product by A1) and pk_terms_asm (a public-key monomial's
 * central terms); in the 128-byte family (CARD_128_ASM) gauss and
 * pk_block (one monomial's block: its central terms and their product by
 * A1), each run on the arena by ka_call, and pk_prep (the public key's
 * per-i scalars, XDATA only). Same conventions as
 * kernels_sign.c, whose k_* argument bytes (kernels.h) they share; their
 * C twins are in gf.c and pk.c.
 */
#include "kernels.h"

#ifndef CARD_C_SETUP

#ifndef CARD_ROM /* (the ROM family links Gauss-Jordan alone) */
__data uint16_t k_tp, k_nt;
__data uint8_t k_cp, k_cl, k_qp, k_sq;
#ifdef CARD_128_ASM
__data uint16_t k_out;          /* XDATA: pk_block's block, pk_prep's coefficients */
__data uint8_t ka_sp;           /* ka_call: the command code's SP */

/*
 * Run the kernel at DPTR on the arena IA, which holds the command code's
 * spill bytes and stack up to SP (card.h): IA's live bytes IA_ABS .. SP
 * are parked in SA, the kernel runs on a stack of its own, the top
 * KS_STACK bytes of IA, and the parked bytes go back; the kernel's scratch
 * above SP is left behind, as in the 256-byte family's arena. The
 * interrupts stay on: Timer 0 pushes above SP, and every byte above SP is
 * free at each step (SP moves to the kernel's stack only once the live
 * bytes are parked, and back before they return). The kernel's result in
 * DPL is kept. 8 cycles a live byte each way; the count depends on the
 * call depth alone. build-image.sh checks that the kernels' data bytes lie
 * below IA.
 */
static uint8_t ka_call(uint16_t kernel) __naked
{
    (void)kernel;
    __asm
        mov  r6, dpl
        mov  r7, dph
        mov  _ka_sp, sp
        mov  a, sp
        clr  c
        subb a, #IA_ABS
        jnc  ka_n1
        clr  a                   ; SP below IA: one byte, harmless
    ka_n1:
        inc  a
        mov  r5, a               ; live bytes: IA_ABS .. SP
        mov  r0, #IA_ABS
        mov  dptr, #_SA
    ka_park:
        mov  a, @r0
        movx @dptr, a
        inc  r0
        inc  dptr
        djnz r5, ka_park
        mov  sp, #(0x7F - KS_STACK)
        mov  dpl, r6
        mov  dph, r7
        lcall ka_go
        mov  sp, _ka_sp
        mov  r6, dpl             ; the result (gauss)
        mov  a, sp
        clr  c
        subb a, #IA_ABS
        jnc  ka_n2
        clr  a
    ka_n2:
        inc  a
        mov  r5, a
        mov  r0, #IA_ABS
        mov  dptr, #_SA
    ka_back:
        movx a, @dptr
        mov  @r0, a
        inc  r0
        inc  dptr
        djnz r5, ka_back
        mov  dpl, r6
        ret
    ka_go:
        clr  a
        jmp  @a+dptr
    __endasm;
}
#endif /* CARD_128_ASM */
#endif /* !CARD_ROM */

/*
 * Gauss-Jordan on the column-major matrix at page k_Whi (element [r][c] at
 * c*GST + r), k_rows x k_cols; returns 1 in DPL iff invertible. Per pivot
 * k: (1) repair masks t[i] = (pivot == 0) for i > k, accumulating the
 * pivot; (2) the same masked row additions in the other columns; (3) ok;
 * (4) row k times the pivot's inverse (scalar 255 - log p, zero page when
 * p = 0); (5) lo/mask pairs of column k, row k masked off; (6) every column
 * j > k: W[.][j] ^= W[k][j] * column k.
 */
uint8_t gauss_k(void) __naked
{
    __asm
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
        mov  dptr, #GFT_LOGA
        movc a, @a+dptr
        cpl  a
        mov  r4, a               ; 255 - log p
        mov  a, r6
        mov  dptr, #GFT_HIA
        movc a, @a+dptr
        add  a, #GFT_PAGE
        mov  r3, a
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
        mov  dptr, #GFT_LOGA
        movc a, @a+dptr
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
        mov  dptr, #GFT_LOGA
    gk_tmp:
        movx a, @r1
        inc  r1
        mov  r5, a
        movc a, @a+dptr
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
        mov  r0, #_IA
        mov  r7, _k_rows
    gk_elm_row:
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

#ifndef CARD_ROM

/*
 * acc[r] ^= sum_c K[r][c] x[c]: column c is rows (lo, mask) pairs at
 * LMCOL (stride st, 256 / st columns a page); x[c] enters as the scalar
 * DPTR = GFT + log x + 512*(x == 0). 15 machine cycles per entry.
 */
static void matvec_asm(void) __naked
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
    matvec_asm();
}
#endif

/*
 * F[row - V] ^= PT[t] * A3[w][j] (+ QT[t] * A3[u][j] unless sq) for every
 * term: PT, QT in scalar form (lo, hi) at X_PT, X_QT; the LM column j of
 * A3 at col (never crosses a page). About 75 cycles per term. F is
 * IA[PK_F .. PK_F + M): pk.c's SF, or in CARD_128_ASM above pk_block's
 * accumulator.
 */
#ifdef CARD_128_ASM
#define PK_F M
#else
#define PK_F IX_OFF
#endif

static void pk_asm(void) __naked
{
    __asm
        mov  r6, _k_tp
        mov  r7, (_k_tp + 1)
    pt_term:
        mov  dpl, r6
        mov  dph, r7
        clr  a
        movc a, @a+dptr           ; row
        add  a, #(_IA + PK_F - V)
        mov  r2, a                ; &F[row - V]
        mov  a, #1
        movc a, @a+dptr           ; u
        rl   a
        add  a, _k_Klo
        mov  r3, a                ; &A3[u][j]
        mov  a, #2
        movc a, @a+dptr           ; w
        rl   a
        add  a, _k_Klo
        mov  r4, a                ; &A3[w][j]
        mov  a, r6
        add  a, #3
        mov  r6, a
        clr  a
        addc a, r7
        mov  r7, a
        ; PT[t] * A3[w][j]
        mov  P2, _k_cp
        mov  r0, _k_cl
        movx a, @r0
        mov  dpl, a
        inc  r0
        movx a, @r0
        add  a, #GFT_PAGE
        mov  dph, a
        inc  r0
        cjne r0, #0, pt_p1
        inc  _k_cp
    pt_p1:
        mov  _k_cl, r0
        mov  P2, _k_Khi
        mov  a, r4
        mov  r1, a
        movx a, @r1
        movc a, @a+dptr
        mov  r5, a
        inc  r1
        movx a, @r1
        anl  a, r5
        mov  r5, a
        ; QT[t] * A3[u][j]
        mov  P2, _k_qp
        mov  r0, _k_ql
        movx a, @r0
        mov  dpl, a
        inc  r0
        movx a, @r0
        add  a, #GFT_PAGE
        mov  dph, a
        inc  r0
        cjne r0, #0, pt_p2
        inc  _k_qp
    pt_p2:
        mov  _k_ql, r0
        mov  a, _k_sq
        jnz  pt_acc               ; public: the square w_i^2
        mov  P2, _k_Khi
        mov  a, r3
        mov  r1, a
        movx a, @r1
        movc a, @a+dptr
        mov  b, a
        inc  r1
        movx a, @r1
        anl  a, b
        xrl  a, r5
        mov  r5, a
    pt_acc:
        mov  a, r2
        mov  r1, a
        mov  a, @r1
        xrl  a, r5
        mov  @r1, a
        mov  a, _k_nt
        jnz  pt_dec
        dec  (_k_nt + 1)
    pt_dec:
        dec  _k_nt
        mov  a, _k_nt
        orl  a, (_k_nt + 1)
        jz   pt_done
        ljmp pt_term
    pt_done:
        ret
    __endasm;
}

#define PK_ARGS(col, sq) do { \
        k_Klo = (uint8_t)(col); \
        k_Khi = (uint8_t)((col) >> 8); \
        k_sq = (sq); \
        k_tp = (uint16_t)T_RUW; \
        k_nt = C; \
        k_cp = (uint8_t)(X_PT >> 8); \
        k_cl = (uint8_t)X_PT; \
        k_qp = (uint8_t)(X_QT >> 8); \
        k_ql = (uint8_t)X_QT; \
    } while (0)

#ifdef CARD_128_ASM
/*
 * One monomial's block of the public key: F := 0, or for mode 2 (w_l)
 * the central rows of A3's column l (F[o] = A3[V + o][l]), then
 * pk_asm's terms into F; the accumulator IA[0 .. M) := 0, += A1 F
 * (matvec_asm); out := the accumulator. The mode is public.
 */
static void pk_block_asm(void) __naked
{
    __asm
        mov  r0, #(_IA + PK_F)
        mov  r7, #M
        mov  a, _k_sq
        cjne a, #2, pb_zero
        mov  _k_sq, #0
        mov  P2, _k_Khi
        mov  a, _k_Klo
        add  a, #(2 * V)
        mov  r1, a               ; &A3[V][l] (the column: one page)
        mov  dptr, #GFT_ADDR
    pb_lin:
        movx a, @r1
        inc  r1
        movc a, @a+dptr
        mov  r5, a
        movx a, @r1
        inc  r1
        anl  a, r5
        mov  @r0, a
        inc  r0
        djnz r7, pb_lin
        sjmp pb_terms
    pb_zero:
        mov  @r0, #0
        inc  r0
        djnz r7, pb_zero
    pb_terms:
        lcall _pk_asm
        mov  r0, #_IA
        mov  r7, #M
    pb_clr:
        mov  @r0, #0
        inc  r0
        djnz r7, pb_clr
        mov  _k_acc, #_IA
        mov  _k_x, #(_IA + PK_F)
        mov  _k_Klo, #(X_A1L & 0xFF)
        mov  _k_Khi, #(X_A1L >> 8)
        mov  _k_rows, #M
        mov  _k_cols, #M
        mov  _k_st, #(2 * M)
        lcall _matvec_asm
        mov  dpl, _k_out
        mov  dph, (_k_out + 1)
        mov  r0, #_IA
        mov  r7, #M
    pb_out:
        mov  a, @r0
        movx @dptr, a
        inc  r0
        inc  dptr
        djnz r7, pb_out
        ret
    __endasm;
}

void pk_block(uint16_t col, uint8_t mode, uint16_t out)
{
    PK_ARGS(col, mode);
    k_out = out;
    (void)ka_call((uint16_t)pk_block_asm);
}

/*
 * The per-i scalars of pk.c's prep_quad: PT[t] = p_t A3[u_t][i] and QT[t]
 * = p_t A3[w_t][i] in scalar form (LOGLO, LOGHI) at X_PT, X_QT, for every
 * term t; p_t the stored key's L1 coefficient (the XDATA address in
 * k_out, the L1 byte's ADD A,#0FFh gives log p and the mask of p != 0),
 * the LM column i of A3 at k_Klo:k_Khi. XDATA and registers only (no
 * arena). About 130 cycles a term, against some 390 for the large
 * model's C.
 */
#if C > 255
#error "prep_asm counts the terms in one byte"
#endif
static void prep_asm(void) __naked
{
    __asm
        mov  r6, _k_tp
        mov  r7, (_k_tp + 1)
    pp_term:
        mov  P2, (_k_out + 1)
        mov  r0, _k_out
        movx a, @r0              ; L1 form of p
        add  a, #0xFF            ; log p, C = (p != 0)
        mov  r5, a
        subb a, acc
        mov  r4, a               ; 0xFF iff p != 0
        inc  r0
        cjne r0, #0, pp_c1
        inc  (_k_out + 1)
    pp_c1:
        mov  _k_out, r0
        mov  dpl, r6
        mov  dph, r7
        mov  a, #1
        movc a, @a+dptr          ; u
        rl   a
        add  a, _k_Klo
        mov  r2, a               ; &A3[u][i]
        mov  a, #2
        movc a, @a+dptr          ; w
        rl   a
        add  a, _k_Klo
        mov  r3, a               ; &A3[w][i]
        mov  a, r6
        add  a, #3
        mov  r6, a
        clr  a
        addc a, r7
        mov  r7, a
        ; PT[t] = p A3[u][i]
        mov  a, r2
        lcall pp_prod
        mov  P2, _k_cp
        mov  r0, _k_cl
        xch  a, b
        movx @r0, a
        inc  r0
        mov  a, b
        movx @r0, a
        inc  r0
        cjne r0, #0, pp_p1
        inc  _k_cp
    pp_p1:
        mov  _k_cl, r0
        ; QT[t] = p A3[w][i]
        mov  a, r3
        lcall pp_prod
        mov  P2, _k_qp
        mov  r0, _k_ql
        xch  a, b
        movx @r0, a
        inc  r0
        mov  a, b
        movx @r0, a
        inc  r0
        cjne r0, #0, pp_q1
        inc  _k_qp
    pp_q1:
        mov  _k_ql, r0
        djnz _k_nt, pp_next
        ret
    pp_next:
        ljmp pp_term
        ; B = LOGLO, A = LOGHI of p a, a the LM entry at P2:A (r5 = log
        ; p, r4 its mask)
    pp_prod:
        mov  P2, _k_Khi
        mov  r1, a
        movx a, @r1              ; log a
        add  a, r5
        mov  dpl, a
        clr  a
        addc a, #GFT_PAGE
        mov  dph, a
        clr  a
        movc a, @a+dptr          ; GFT[log p + log a]
        anl  a, r4
        mov  b, a
        inc  r1
        movx a, @r1              ; mask of a
        anl  a, b
        mov  b, a
        mov  dptr, #GFT_LOGA
        movc a, @a+dptr
        xch  a, b
        mov  dptr, #GFT_HIA
        movc a, @a+dptr
        ret
    __endasm;
}

void pk_prep(uint16_t col)
{
    PK_ARGS(col, 0);
    k_out = X_KCO;
    prep_asm();
}
#else
void pk_terms_asm(uint16_t col, uint8_t sq)
{
    PK_ARGS(col, sq);
    pk_asm();
}
#endif
#endif /* !CARD_ROM */

#endif /* !CARD_C_SETUP */
