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
 * Which image runs which kernels (build-image.sh links the modules; the
 * C twins are what -DCARD_C_KERNELS builds, for n > 32 in the 128-byte
 * family and for the cross-test, tests/test_card.sh):
 *
 *   kernel            256-byte          128-byte, n <= 32      C twin    ROM family
 *   signing matvec    kernels_sign.c    kernels_sign.c         sign.c    kernels_rom.c
 *   layer build       kernels_sign.c    kernels_sign.c         sign.c    kernels_rom.c (term table)
 *                     (generated code)  (generated code)
 *   layer solver      kernels_sign.c    kernels_sign.c         sign.c    kernels_rom.c, or
 *                     (written out for a, b <= 9)                        Gauss-Jordan for n = 32
 *   Gauss-Jordan      kernels_setup.c   kernels_setup.c        gf.c      kernels_setup.c (COMMIT)
 *                                       (on the arena: ka_call)
 *   public-key terms  kernels_setup.c   kernels_setup.c        pk.c      (none: no GET PK SEGMENT)
 *   LM matvec         kernels_setup.c   kernels_setup.c        gf.c      (none)
 *   ChaCha20 block    chacha.c (assembly; its C twin with -DCARD_C_KERNELS alone)
 *   command layer     main.c, apdu.c, key.c, sign.c, pk.c (C)            rom.c (assembly)
 *
 * -DCARD_C_KERNELS builds any image with every kernel's C twin (gf.c,
 * sign.c, pk.c, key.c) instead; tests/test_card.sh checks both give the
 * same signatures.
 */
#ifndef CARD_H
#define CARD_H

#include <stdint.h>

#include "card_config.h"
#include "card_field.h"
#include "card_map.h"
#include "card_if.h"

#endif
