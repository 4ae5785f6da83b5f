/* SPDX-License-Identifier: MIT */
/*
 * GF(256) for the card: the table, the arena, the key's run tables, the
 * general multiply. Every loop bound and every branch
 * here depends on public sizes only; zero operands are handled by masks and
 * by the zero page of GFT, never by a branch.
 */
#define CARD_WANT_GFT
#define CARD_WANT_TERMS
#include "card.h"

/* Page-aligned: the kernels add a 16-bit scalar offset to its address. */
__code __at(GFT_ADDR) const uint8_t GFT[GFT_BYTES] = GFT_INIT;

#ifdef IA_ABS
__idata __at(IA_ABS) uint8_t IA[IA_SIZE];
#else
ARENA uint8_t IA[IA_SIZE];
#endif
#ifdef CARD_128_ASM
__xdata uint8_t SA[SA_SIZE];
#endif

/* The stored key's matrices (card.h, gen_card.c: key_layout) */
__code const uint8_t K3_RUNS[] = {KL_RUNS3, 0, 0, 0};
__code const uint8_t K1_RUNS[] = {KL_RUNS1, 0, 0, 0};

uint16_t kcol(__code const uint8_t *runs, uint8_t c)
{
    uint8_t st = runs == K3_RUNS ? N : M;
    while (c >= runs[2]) { /* public: the layout */
        c -= runs[2];
        runs += 3;
    }
    return ((uint16_t)runs[0] << 8) + runs[1] + (uint16_t)c * st;
}

uint8_t gmul(uint8_t a, uint8_t b)
{
    return GFT[(uint16_t)LOGLO(a) + LOGLO(b)] & NZ(a) & NZ(b);
}
