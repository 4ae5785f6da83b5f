/* SPDX-License-Identifier: MIT */
/*
 * What the assembly kernels share: the data bytes of their calling
 * convention (card_if.h names each kernel's; kernels.h declares them) and,
 * in the 128-byte family, ka_call, which runs a set-up kernel (k_gauss.c,
 * k_pk.c) on the internal arena. One file per kernel, its assembly and its
 * C twin side by side: k_matvec.c, k_layer.c (signing), k_gauss.c, k_lm.c,
 * k_pk.c (key set-up, the public key), chacha.c; the ROM family's own in
 * kernels_rom.c. Which image runs which: card.h.
 */
#include "kernels.h"

#if !defined(CARD_C_KERNELS) && !defined(CARD_ROM)

__data uint8_t k_rows, k_cols, k_Whi, k_k, k_j, k_ok, k_ckp, k_ckl, k_cnt, k_t1;
__data uint8_t k_acc, k_x, k_st, k_Klo, k_Khi, k_ql;
__data uint8_t k_lo, k_dim;

#ifdef CARD_128_ASM
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
uint8_t ka_call(uint16_t kernel) __naked
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

#endif
