/* SPDX-License-Identifier: MIT */
/*
 * The argument and scratch bytes of the assembly kernels (their calling
 * convention: card_if.h), defined in kernels.c, the public key's few in
 * k_pk.c, the ROM family's in kernels_rom.c. Direct-addressed data bytes,
 * so that the kernels reach them with MOV direct.
 */
#ifndef CARD_KERNELS_H
#define CARD_KERNELS_H

#include "card.h"

#ifndef CARD_C_KERNELS
extern __data uint8_t k_rows, k_cols, k_Whi, k_k, k_j, k_ok, k_ckp, k_ckl, k_cnt, k_t1;
extern __data uint8_t k_acc, k_x, k_st, k_Klo, k_Khi, k_ql;
extern __data uint8_t k_lo, k_dim;
#endif
#ifdef CARD_128_ASM
/* run the kernel at its address on the arena (kernels.c); its DPL */
uint8_t ka_call(uint16_t kernel);
#endif

#endif
