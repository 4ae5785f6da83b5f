; SPDX-License-Identifier: MIT
;
; SIGN's matrix-vector product over the secret key in flash (u = S1 h + s1,
; sigma = S3 x + s3), constant time:
;
;   void gf_matvec_asm(uint8_t *out, const uint8_t *M, const uint8_t *s,
;                      const uint8_t *lv, uint8_t r, uint8_t c)
;
; out[i] = s[i] + SUM_j M[i][j] v_j for the r x c matrix M and the r bytes s
; in flash (row-major), with lv[2j] = log_3 v_j and lv[2j+1] = 0xFF if
; v_j != 0, else 0 (SRAM). A product is GF_EXP[GF_LOG[a] + log v_j] masked
; by both operands' nonzero masks, the mask of a made by a borrow (cp, sbc):
; no branch but the loop counters', the tables and the key read with LPM
; (three cycles at any address: avr/avr.h). The C twin is matvec in
; sign.c (built with -DAVR_C_KERNELS). 31 cycles a product.
;
; registers: X out, Y lv, r22:r23 M, r20:r21 s, r24:r25 GF_LOG, r18:r19
; GF_EXP, r12:r13 lv, r16 rows, r14 columns, r15 the column count, r17 the
; sum, r0 a, r10 and r11 scratch, r1 zero.

    .section .text.gf_matvec_asm, "ax", @progbits
    .global gf_matvec_asm
    .type gf_matvec_asm, @function
gf_matvec_asm:
    push r10
    push r11
    push r12
    push r13
    push r14
    push r15
    push r16
    push r17
    push r28
    push r29
    movw r26, r24
    movw r12, r18
    ldi r24, lo8(GF_LOG)
    ldi r25, hi8(GF_LOG)
    ldi r18, lo8(GF_EXP)
    ldi r19, hi8(GF_EXP)
1:
    movw r30, r20
    lpm r17, Z+
    movw r20, r30
    movw r28, r12
    mov r15, r14
2:
    movw r30, r22
    lpm r0, Z+
    movw r22, r30
    movw r30, r24
    add r30, r0
    adc r31, r1
    lpm r11, Z
    ld r10, Y+
    movw r30, r18
    add r30, r11
    adc r31, r1
    add r30, r10
    adc r31, r1
    lpm r11, Z
    ld r10, Y+
    and r11, r10
    cp r1, r0
    sbc r10, r10
    and r11, r10
    eor r17, r11
    dec r15
    brne 2b
    st X+, r17
    dec r16
    brne 1b
    clr r0
    pop r29
    pop r28
    pop r17
    pop r16
    pop r15
    pop r14
    pop r13
    pop r12
    pop r11
    pop r10
    ret
    .size gf_matvec_asm, . - gf_matvec_asm
