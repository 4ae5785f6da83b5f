/*
 * The argument and scratch bytes of the assembly kernels, shared by
 * kernels_sign.c (the signing path, which defines them) and
 * kernels_setup.c (key set-up and the public key, which has a few of its
 * own). Direct-addressed data bytes, so that the kernels reach them with
 * MOV direct.
 */
#ifndef CARD_KERNELS_H
#define CARD_KERNELS_H

#include "card.h"

#ifndef CARD_C_KERNELS
extern __data uint8_t k_rows, k_cols, k_Whi, k_k, k_j, k_ok, k_ckp, k_ckl, k_cnt, k_t1;
extern __data uint8_t k_acc, k_x, k_st, k_Klo, k_Khi, k_ql;
extern __data uint8_t k_lo, k_dim;
#endif

#endif
