/* SPDX-License-Identifier: MIT */
/*
 * GET PK SEGMENT: segment s holds the monomial blocks s*K .. s*K+K-1 of the
 * public key (K = floor(255/m)), computed from the active key on request:
 * for monomial w_i w_j the central rows get
 *     sum_t p_t (A3[u][i] A3[w][j] + A3[u][j] A3[w][i])     (i < j)
 *     sum_t p_t A3[u][i] A3[w][i]                            (i = j)
 * and for w_l: A3[row][l] + sum_t (p_t c3_u A3[w][l] + p_t c3_w A3[u][l]);
 * the block is A1 times that m-vector. Per i, PT[t] = p_t A3[u][i] and
 * QT[t] = p_t A3[w][i] are kept in scalar form (X_PT, X_QT) and stay valid
 * across commands (pk_cur), so exporting the segments in order prepares
 * each i once. A1, A3 and the p_t c3 terms are not part of the stored key:
 * they are the public-key cache in work XRAM (card.h), filled by GENERATE
 * and COMMIT KEY, or here from the active key (key_derive) when it is not
 * valid. Only public indices steer the loops.
 */
#include "card.h"

#define F    SF              /* the m-vector before A1 */

__xdata uint8_t pk_cur = 0xFF;  /* i of X_PT/X_QT; 0xFE: linear; 0xFF: none */
__xdata uint8_t pk_ready = 0;   /* the cache (X_A3L .. X_WS) holds the active key's */

static void set_scalar(__xdata uint8_t *dst, uint8_t v)
{
    dst[0] = LOGLO(v);
    dst[1] = LOGHI(v);
}

static void prep_lin(void)
{
    uint16_t t;
    for (t = 0; t < C; t++) {
        set_scalar(XP(X_PT + 2 * t), XB(X_KQC + t)); /* p c3_u, with A3[w] */
        set_scalar(XP(X_QT + 2 * t), XB(X_KPC + t)); /* p c3_w, with A3[u] */
    }
}

#ifdef CARD_128_ASM
#pragma disable_warning 85 /* pk_segment's o: only the other builds' loops use it */
#endif
uint8_t pk_segment(uint16_t seg)
{
    uint16_t q = seg * SEG_K, rem;
    uint8_t count = SEG_K, k, o, i = 0, j = 0;
    __xdata uint8_t *out = XP(X_RESP);
    if (!pk_ready) /* public: after a reset or a refused COMMIT */
        key_derive();
    if (PK_MONO - q < SEG_K)
        count = (uint8_t)(PK_MONO - q);
    if (q < PK_QUAD) {
        rem = q;
        while (rem >= (uint16_t)(N - i)) {
            rem -= N - i;
            i++;
        }
        j = i + (uint8_t)rem;
    }
    for (k = 0; k < count; k++, q++) {
        if (q < PK_QUAD) {
            if (i != pk_cur) {
                pk_prep(i);
                pk_cur = i;
            }
#ifdef CARD_128_ASM
            pk_block(A3COL(j), i == j, (uint16_t)out);
#else
            for (o = 0; o < M; o++)
                F[o] = 0;
            pk_terms(j, i == j);
#endif
            if (++j == N) {
                i++;
                j = i;
            }
        } else {
            uint8_t l = (uint8_t)(q - PK_QUAD);
            __xdata uint8_t *col = XP(A3COL(l));
            if (pk_cur != 0xFE) {
                prep_lin();
                pk_cur = 0xFE;
            }
#ifdef CARD_128_ASM
            pk_block((uint16_t)col, 2, (uint16_t)out);
#else
            for (o = 0; o < M; o++)
                F[o] = GFT[col[2 * (V + o)]] & col[2 * (V + o) + 1];
            pk_terms(l, 0);
#endif
        }
#ifdef CARD_128_ASM
        out += M;
#else
        for (o = 0; o < M; o++)
            SSCR[o] = 0;
        matvec_lm(SSCR, X_A1L, F, M, M, 2 * M);
        for (o = 0; o < M; o++)
            *out++ = SSCR[o];
#endif
    }
    return count * M;
}
