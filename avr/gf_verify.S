; SPDX-License-Identifier: MIT
;
; VERIFY's public map over the public key in flash (avr/avr_pk.h), one
; pass of Q of its m sums:
;
;   void gf_pk_pass_asm(uint8_t out[Q], const uint8_t *pkl, const uint8_t lw[n])
;
; out[k] = SUM over the blocks of w_i w_j (i <= j, by i then j) and of w_i
; of t * c_k, for the Q coefficients c_k at pkl in each block (pkl advances
; by m a block), with lw[i] = log_3 w_i, 0xFF for w_i = 0 (a row or block
; of a zero factor is skipped: public data only). A coefficient is its log
; in flash (0xFF for 0, which this loop counts as 1: verify.c undoes it by
; the zero list), and a product five instructions, 8 cycles:
;
;   lpm r26, Z+     ; log c (XL: the table's index; XH the powers' page)
;   add r26, r24    ; + log t
;   adc r26, r1     ; mod 255 (255 stands for 0: the table has 1 there)
;   ld r0, X        ; 3^(log c + log t)
;   eor s, r0       ; into the sum, a register for the whole call
;
; Q = m for m <= 20; the larger sets take two passes of m/2 (pkl advanced
; by the pass's first row; each block skips the other half). The C twin is
; the loop of verify.c built with -DAVR_C_KERNELS.
;
; registers: the sums r2..r(Q+1); Z the key, Y lw, X the table, r22 log
; w_i, r23 the blocks left in a row, r24 log t, r25 the rows left, r1 zero.

#if TTS_M <= 20
#define Q TTS_M
#else
#define Q (TTS_M / 2)
#endif
#define SKIP (TTS_M - Q)

#if TTS_M == 16
#define SUMS r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17
#elif TTS_M == 20
#define SUMS r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, \
    r18, r19, r20, r21
#elif TTS_M == 24
#define SUMS r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13
#elif TTS_M == 28
#define SUMS r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15
#elif TTS_M == 32
#define SUMS r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17
#elif TTS_M == 36
#define SUMS r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, \
    r18, r19
#else
#error "gf_verify.S: no register list for this m"
#endif

    .section .text.gf_pk_pass_asm, "ax", @progbits
    .global gf_pk_pass_asm
    .type gf_pk_pass_asm, @function
gf_pk_pass_asm:
    .irp r, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r28, r29
    push \r
    .endr
    push r24
    push r25
    movw r30, r22
    movw r28, r20
    adiw r28, TTS_N             ; Y = lw + n, where every row ends
    .irp r, SUMS
    clr \r
    .endr
    ldi r27, hi8(gf_tab + 256)
    ldi r25, TTS_N
1:                              ; the row of w_i: n - i blocks
    sub r28, r25
    sbc r29, r1                 ; Y = lw + i
    ld r22, Y
    mov r23, r25
    cpi r22, 0xFF
    breq 2f
    rcall row
    rjmp 4f
2:                              ; w_i = 0: its blocks skipped
    add r28, r25
    adc r29, r1
3:
    adiw r30, TTS_M
    dec r23
    brne 3b
4:
    dec r25
    brne 1b
    sbiw r28, TTS_N             ; the linear blocks: w_j, j < n
    clr r22
    ldi r23, TTS_N
    rcall row
    pop r27
    pop r26
    .irp r, SUMS
    st X+, \r
    .endr
    .irp r, r29, r28, r17, r16, r15, r14, r13, r12, r11, r10, r9, r8, r7, r6, r5, r4, r3, r2
    pop \r
    .endr
    ret

; r23 blocks of t = w_i w_j (log r22 + lw[j]) from Y
6:                              ; w_j = 0: the block skipped
    adiw r30, TTS_M
    dec r23
    brne row
    ret
row:
    ld r24, Y+
    cpi r24, 0xFF
    breq 6b
    add r24, r22
    adc r24, r1
    .irp s, SUMS
    lpm r26, Z+
    add r26, r24
    adc r26, r1
    ld r0, X
    eor \s, r0
    .endr
#if SKIP
    adiw r30, SKIP
#endif
    dec r23
    breq 7f
    rjmp row
7:
    ret
    .size gf_pk_pass_asm, . - gf_pk_pass_asm

; The zero list's products (avr/avr_pk.h):
;
;   void gf_pk_zeros_asm(uint8_t *out, const uint8_t *zl, const uint8_t lw[n + 1])
;
; for each entry (i, j, k) of the list at zl (flash) up to AVR_PK_ZEND:
; out[k] ^= w_i w_j, the product gf_pk_pass_asm counted for the zero
; coefficient, unless w_i or w_j is 0 (lw[n] = 0: the linear blocks' 1).
; Public data only; about 42 cycles an entry.

    .section .text.gf_pk_zeros_asm, "ax", @progbits
    .global gf_pk_zeros_asm
    .type gf_pk_zeros_asm, @function
gf_pk_zeros_asm:
    push r28
    push r29
    movw r30, r22
    movw r28, r20
    movw r18, r24
1:
    lpm r20, Z+                 ; i
    cpi r20, 0xFF               ; AVR_PK_ZEND
    breq 2f
    lpm r21, Z+                 ; j
    lpm r22, Z+                 ; k
    movw r26, r28
    add r26, r20
    adc r27, r1
    ld r20, X                   ; log w_i
    movw r26, r28
    add r26, r21
    adc r27, r1
    ld r21, X                   ; log w_j
    cpi r20, 0xFF
    breq 1b
    cpi r21, 0xFF
    breq 1b
    add r20, r21
    adc r20, r1
    mov r26, r20
    ldi r27, hi8(gf_tab + 256)
    ld r0, X
    movw r26, r18
    add r26, r22
    adc r27, r1
    ld r20, X
    eor r20, r0
    st X, r20
    rjmp 1b
2:
    clr r0
    pop r29
    pop r28
    ret
    .size gf_pk_zeros_asm, . - gf_pk_zeros_asm
