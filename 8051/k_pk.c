/* SPDX-License-Identifier: MIT */
/*
 * The public key's kernels (GET PK SEGMENT, pk.c): pk_prep, the per-i
 * scalars PT[t] = p_t A3[u_t][i], QT[t] = p_t A3[w_t][i] (in assembly in
 * the 128-byte family, else in C); pk_terms, a monomial's central terms F
 * (in assembly, and the C twin with -DCARD_C_KERNELS); in the 128-byte
 * family pk_block instead: the terms and their product by A1 in one call
 * on the arena (kernels.c: ka_call). Their arguments in the k_* bytes
 * (card_if.h).
 */
#include "kernels.h"

#ifdef CARD_ROM
#error "the ROM family has no GET PK SEGMENT"
#endif

#ifndef CARD_C_SETUP

__data uint16_t k_tp, k_nt;
__data uint8_t k_cp, k_cl, k_qp, k_sq;
#ifdef CARD_128_ASM
__data uint16_t k_out;          /* XDATA: pk_block's block, pk_prep's coefficients */
#endif

/*
 * F[row - V] ^= PT[t] * A3[w][j] (+ QT[t] * A3[u][j] unless sq) for every
 * term: PT, QT in scalar form (lo, hi) at X_PT, X_QT; the LM column j of
 * A3 at col (never crosses a page). About 75 cycles per term. F is
 * IA[PK_F .. PK_F + M): SF, or in CARD_128_ASM above pk_block's
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
 * (k_lm.c: matvec_lm_k); out := the accumulator. The mode is public.
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
        lcall _matvec_lm_k
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
 * pk_prep, the per-i scalars: PT[t] = p_t A3[u_t][i] and QT[t]
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

void pk_prep(uint8_t i)
{
    uint16_t col = A3COL(i);    /* (a variable: SDCC 4.2 gets the low
                                 * byte of A3COL(i) cast directly wrong) */
    PK_ARGS(col, 0);
    k_out = X_KCO;
    prep_asm();
}
#else
void pk_terms(uint8_t j, uint8_t sq)
{
    uint16_t col = A3COL(j);    /* (as in pk_prep) */
    PK_ARGS(col, sq);
    pk_asm();
}
#endif

#endif /* !CARD_C_SETUP */

#ifndef CARD_128_ASM
/* pk_prep in C (the 256-byte family, the C twins): the stored key's L1
 * coefficients at X_KCO */
void pk_prep(uint8_t i)
{
    uint16_t t;
    __xdata uint8_t *a3 = XP(A3COL(i)), *pt = XP(X_PT), *qt = XP(X_QT);
    __xdata uint8_t *co = XP(X_KCO);
    __code const uint8_t *ruw = T_RUW;
    for (t = 0; t < C; t++, ruw += 3, co++, pt += 2, qt += 2) {
        uint8_t lp = (uint8_t)(co[0] - 1), mp = L1MASK(co[0]); /* L1 */
        __xdata uint8_t *au = a3 + 2 * ruw[1], *aw = a3 + 2 * ruw[2];
        uint8_t p = GFT[(uint16_t)lp + au[0]] & mp & au[1];
        uint8_t q = GFT[(uint16_t)lp + aw[0]] & mp & aw[1];
        pt[0] = LOGLO(p);       /* the scalar forms */
        pt[1] = LOGHI(p);
        qt[0] = LOGLO(q);
        qt[1] = LOGHI(q);
    }
}
#endif

#ifdef CARD_C_SETUP
/* C twin of pk_terms: F[row - V] ^= PT[t] A3[w][j] (+ QT[t] A3[u][j]
 * unless sq) for every t */
void pk_terms(uint8_t j, uint8_t sq)
{
    uint16_t t;
    __xdata uint8_t *a3 = XP(A3COL(j)), *pt = XP(X_PT), *qt = XP(X_QT);
    for (t = 0; t < C; t++, pt += 2, qt += 2) {
        __xdata uint8_t *aw = a3 + 2 * TW(t), *au = a3 + 2 * TU(t);
        uint8_t acc = GFT[((uint16_t)pt[1] << 8) + pt[0] + aw[0]] & aw[1];
        if (!sq) /* public */
            acc ^= GFT[((uint16_t)qt[1] << 8) + qt[0] + au[0]] & au[1];
        SF[TROW(t) - V] ^= acc;
    }
}
#endif
