/* SPDX-License-Identifier: MIT */
/*
 * What the ROM family's signing modules share: kernels_rom.c (the
 * kernels) and rom_sign.c (the term records and SIGN's flow).
 */
#ifndef TTS_CARD_KERNELS_ROM_H
#define TTS_CARD_KERNELS_ROM_H

#include "kernels.h"

#ifndef CARD_ROM
#error "kernels_rom.c and rom_sign.c are the ROM family's (-DCARD_ROM)"
#endif

/* the layer's index (a data byte of its own where Gauss-Jordan solves the
 * layers, else k_cols) and the layer solver: ROM_LAYER_GE (card.h):
 * rs_solve; else Gauss-Jordan through rk_solve, the solution in the last
 * column */
#ifdef ROM_LAYER_GE
#define _rk_lay _k_cols
#define RK_SOLVE _rs_solve
#else
#define RK_SOLVE _rk_solve
#endif

#endif
