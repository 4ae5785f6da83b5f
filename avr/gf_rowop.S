; SPDX-License-Identifier: MIT
;
; The row operation of SIGN's masked Gauss-Jordan elimination (sign.c,
; solve), constant time:
;
;   void gf_rowop_asm(uint8_t *dst, const uint8_t *lm, uint8_t lf, uint8_t nf,
;                     uint8_t cnt)
;
; for j < cnt: dst[j] ^= GF_EXP[lm[2j] + lf] & lm[2j+1] & nf, that is
; dst += f * row, with lm[2j] the log of row[j] and lm[2j+1] its nonzero
; mask, lf the log of f and nf f's nonzero mask (all secret): no branch
; but the counter's, GF_EXP read with LPM (three cycles at any address:
; avr/avr.h). The C twin is gf_rowop_c in sign.c (built with
; -DAVR_C_KERNELS). 20 cycles an entry.
;
; registers: X dst, Y lm, r24:r25 GF_EXP + lf, r18 nf, r19 the count, r20
; and r21 scratch, r1 zero.

    .section .text.gf_rowop_asm, "ax", @progbits
    .global gf_rowop_asm
    .type gf_rowop_asm, @function
gf_rowop_asm:
    push r28
    push r29
    movw r26, r24
    movw r28, r22
    ldi r24, lo8(GF_EXP)
    ldi r25, hi8(GF_EXP)
    add r24, r20
    adc r25, r1
    mov r19, r16
1:
    ld r20, Y+
    movw r30, r24
    add r30, r20
    adc r31, r1
    lpm r20, Z
    ld r21, Y+
    and r20, r21
    and r20, r18
    ld r21, X
    eor r21, r20
    st X+, r21
    dec r19
    brne 1b
    pop r29
    pop r28
    ret
    .size gf_rowop_asm, . - gf_rowop_asm
