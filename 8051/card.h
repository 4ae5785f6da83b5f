/* SPDX-License-Identifier: MIT */
/*
 * libtts smart-card firmware (SDCC -mmcs51): one header for every module,
 * in four parts:
 *   card_config.h  the set, the image family, the sizes
 *   card_field.h   the GF(256) forms (L1, LM, scalar) and the table GFT
 *   card_map.h     the signing layer's layout, the XDATA map with the
 *                  non-volatile state and the journal, the internal arena
 *   card_if.h      the interfaces between the modules
 * and the protocol (class, instructions, status words) in protocol.h.
 *
 * Which image runs which kernels. One file per kernel, its assembly and
 * its C twin side by side (-DCARD_C_KERNELS builds the twins: for n > 32
 * in the 128-byte family, and for the cross-test, tests/test_card.sh,
 * which checks that both give the same signatures); the calling
 * convention and the k_* bytes: card_if.h, kernels.h, kernels.c.
 *
 *   kernel            file         256-byte   128-byte, n <= 32    ROM family
 *   signing matvec    k_matvec.c   assembly   assembly             kernels_rom.c (four rows
 *                                                                  a pass in rom4k-nocheck)
 *   layer build       k_layer.c    generated  generated            kernels_rom.c (term records)
 *   layer solver      k_layer.c    assembly (written out for a, b <= 9)   kernels_rom.c, or
 *                                                                  Gauss-Jordan for n = 32
 *                                                                  and in rom4k
 *   Gauss-Jordan      k_gauss.c    assembly   assembly on the      k_gauss.c (COMMIT; none
 *                                             arena (ka_call)      in rom4k-nocheck)
 *   public-key terms  k_pk.c       assembly   pk_block on the      (no GET PK SEGMENT)
 *                                             arena (ka_call)
 *   per-i pk scalars  k_pk.c       C          assembly             (none)
 *   LM matvec         k_lm.c       assembly   assembly (pk_block)  (none)
 *   ChaCha20 block    chacha.c     assembly, its rounds written out (rolled in rom4k, the
 *                                  4 KB ROM family; its C twin with -DCARD_C_KERNELS alone)
 *   command layer     main.c, apdu.c, key.c, sign.c, pk.c (C)      rom.c (assembly)
 */
#ifndef CARD_H
#define CARD_H

#include <stdint.h>

#include "card_config.h"
#include "card_field.h"
#include "card_map.h"
#include "card_if.h"

#endif
