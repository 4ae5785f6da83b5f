; SPDX-License-Identifier: MIT
;
; SIGN's products of the central map's coefficients (layers 1 and 3, the
; middle variables) by the unknowns, constant time:
;
;   void gf_pmul_asm(uint8_t *b, const uint8_t *P, uint8_t cnt)
;
; b[j] = P[j] * 3^b[j] for j < cnt, with P in flash (the secret key's
; coefficients) and b[j] a log, 0xFF standing for 0. The product's mask
; is made by two borrows (a != 0 into a limit, then log < limit); no
; branch but the counter's, the tables read with LD (constant time on
; this core: avr/avr.h). 23 cycles a product. The C twin is pmul in
; sign.c (-DAVR_C_KERNELS).
;
; registers: Z the coefficients, Y b, X the tables (r27 the page), r18
; the mask, r19 the log, r20 the count, r1 zero.

#define PAGE_LOG hi8(gf_tab)

    .section .text.gf_pmul_asm, "ax", @progbits
    .global gf_pmul_asm
    .type gf_pmul_asm, @function
gf_pmul_asm:
    push r28
    push r29
    movw r28, r24
    movw r30, r22
    ldi r27, PAGE_LOG
1:
    lpm r26, Z+
    cp r1, r26
    sbc r18, r18                ; 0xFF if a != 0
    ld r19, Y
    cp r19, r18
    sbc r18, r18                ; 0xFF if a != 0 and b[j] != 0
    ld r26, X
    add r26, r19
    adc r26, r1
    inc r27
    ld r0, X
    dec r27
    and r0, r18
    st Y+, r0
    dec r20
    brne 1b
    clr r0
    pop r29
    pop r28
    ret
    .size gf_pmul_asm, . - gf_pmul_asm
