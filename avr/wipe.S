; SPDX-License-Identifier: MIT
;
; void avr_wipe(void *p, uint16_t n): n bytes of SRAM zeroed, four a loop
; pass (3 cycles a byte; a call the compiler cannot drop). The C twin is
; in chacha.c (-DAVR_C_KERNELS).

#ifndef AVR_C_KERNELS
    .section .text.avr_wipe, "ax", @progbits
    .global avr_wipe
    .type avr_wipe, @function
avr_wipe:
    movw r26, r24
    mov r18, r22
    andi r18, 3
    lsr r23
    ror r22
    lsr r23
    ror r22
    rjmp 2f
1:
    st X+, r1
    st X+, r1
    st X+, r1
    st X+, r1
2:
    subi r22, 1
    sbci r23, 0
    brcc 1b
    rjmp 4f
3:
    st X+, r1
4:
    subi r18, 1
    brcc 3b
    ret
    .size avr_wipe, . - avr_wipe
#endif
