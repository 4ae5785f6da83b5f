/* SPDX-License-Identifier: MIT */
/*
 * The assembly kernels' GF(256) tables in SRAM: logs, then powers of 3
 * (avr/gen_avr.c, GF_TAB_INIT), one 256-byte page each, copied from flash
 * at reset with the static data. In the input section .data (the C
 * variables go to .data.NAME with -fdata-sections), this module linked
 * first: the tables open the SRAM (0x100 on the ATmega328P, 0x200 on the
 * ATmega2560), page-aligned without padding
 * (avr/build-image.sh checks the address).
 */
#include "avr.h"

uint8_t gf_tab[512] __attribute__((section(".data"), aligned(256))) = GF_TAB_INIT;
