; SPDX-License-Identifier: MIT
;
; VERIFY's multiply-accumulate, over the public key in log form in flash:
;
;   void gf_mac_pk_asm(uint8_t *out, const uint8_t *pkl, const uint8_t *ex, uint8_t m)
;
; for k < m (m a multiple of 4): out[k] ^= ex[pkl[k]] unless pkl[k] is
; 0xFF, with pkl[k] = log_3 of the coefficient (0xFF for 0, read with LPM)
; and ex = a copy of GF_EXP in SRAM advanced by log t (t != 0): the
; product t * coefficient. Public data only (the zero test is a branch).
; The C twin is gf_mac_pk_c in verify.c (built with -DAVR_C_KERNELS).
;
; 15 cycles a coefficient and 3 a loop pass of four: Z walks the key, Y
; the output, X the table; r18 the passes, r19 and r0 scratch, r1 zero.

.macro MAC1
    ld r0, Y
    lpm r19, Z+
    cpi r19, 0xFF
    breq 1f
    movw r26, r20
    add r26, r19
    adc r27, r1
    ld r19, X
    eor r0, r19
1:
    st Y+, r0
.endm

    .section .text.gf_mac_pk_asm, "ax", @progbits
    .global gf_mac_pk_asm
    .type gf_mac_pk_asm, @function
gf_mac_pk_asm:
    push r28
    push r29
    movw r28, r24
    movw r30, r22
    lsr r18
    lsr r18
2:
    MAC1
    MAC1
    MAC1
    MAC1
    dec r18
    brne 2b
    pop r29
    pop r28
    ret
    .size gf_mac_pk_asm, . - gf_mac_pk_asm

#if TTS_M <= 20
; A row of the public map with the m sums in registers (m <= 20):
;
;   void gf_pk_row_asm(void)   (arguments in avr_vrow: verify.c)
;
; for j < cnt: unless lw[j] = 0xFF (w_j = 0), out ^= w_i w_j * (the m
; coefficients at pkl), t = w_i w_j by its log (lwi + lw[j]) mod 255; pkl
; advances by m a block either way. 11 cycles a coefficient: the sums
; stay in r2.. for the whole row.
;
; registers: r2..r(m+1) the sums, Z the key, Y lw, X the table, r24:r25
; ex + log t, r22 and r23 scratch, r1 zero.

#if TTS_M == 16
#define SUMS r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17
#elif TTS_M == 20
#define SUMS r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, \
    r18, r19, r20, r21
#else
#error "gf_pk_row_asm: no register list for this m"
#endif

    .section .text.gf_pk_row_asm, "ax", @progbits
    .global gf_pk_row_asm
    .type gf_pk_row_asm, @function
gf_pk_row_asm:
    .irp r, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r28, r29
    push \r
    .endr
    lds r26, avr_vrow + 0       ; out
    lds r27, avr_vrow + 1
    .irp r, SUMS
    ld \r, X+
    .endr
    lds r30, avr_vrow + 2       ; pkl
    lds r31, avr_vrow + 3
    lds r28, avr_vrow + 6       ; lw
    lds r29, avr_vrow + 7
1:
    ld r22, Y+
    cpi r22, 0xFF
    brne 8f
    rjmp 5f
8:
    lds r23, avr_vrow + 8       ; lwi
    add r22, r23
    brcs 2f
    cpi r22, 0xFF
    brne 3f
    clr r22
    rjmp 3f
2:
    inc r22
3:
    lds r24, avr_vrow + 4       ; ex
    lds r25, avr_vrow + 5
    add r24, r22
    adc r25, r1
    .irp r, SUMS
    lpm r22, Z+
    cpi r22, 0xFF
    breq 4f
    movw r26, r24
    add r26, r22
    adc r27, r1
    ld r22, X
    eor \r, r22
4:
    .endr
    rjmp 6f
5:
    adiw r30, TTS_M
6:
    lds r23, avr_vrow + 9       ; cnt
    dec r23
    sts avr_vrow + 9, r23
    breq 7f
    rjmp 1b
7:
    lds r26, avr_vrow + 0
    lds r27, avr_vrow + 1
    .irp r, SUMS
    st X+, \r
    .endr
    .irp r, r29, r28, r17, r16, r15, r14, r13, r12, r11, r10, r9, r8, r7, r6, r5, r4, r3, r2
    pop \r
    .endr
    ret
    .size gf_pk_row_asm, . - gf_pk_row_asm
#endif
