; SPDX-License-Identifier: MIT
;
; ChaCha20's 20 rounds (RFC 8439 section 2.3) on the 16-word state in SRAM,
; in place: void chacha_rounds_asm(uint32_t x[16]). The C twin is the loop
; over chacha_qr_c in chacha.c (built with -DAVR_C_KERNELS); the tests
; check both images' signatures against the host's.
;
; One quarter-round, qr, loads its four words (byte offsets in r20..r23
; from Y), computes in registers and stores them back: every instruction
; here takes the same cycles whatever the data (no branch but the round
; counter's).
;
; registers: a r2..r5, b r6..r9, c r10..r13, d r14..r17 (least significant
; byte first), r18:r19 scratch, r24 the double-round counter, X the word
; pointer, Y the state, r1 zero (avr-gcc's convention).

#include <avr/io.h>

.macro LOADW r0, r1_, r2_, r3_, off
    movw r26, r28
    add r26, \off
    adc r27, r1
    ld \r0, X+
    ld \r1_, X+
    ld \r2_, X+
    ld \r3_, X
.endm

.macro STOREW r0, r1_, r2_, r3_, off
    movw r26, r28
    add r26, \off
    adc r27, r1
    st X+, \r0
    st X+, \r1_
    st X+, \r2_
    st X, \r3_
.endm

; x += y (32 bits)
.macro ADDW x0, x1, x2, x3, y0, y1, y2, y3
    add \x0, \y0
    adc \x1, \y1
    adc \x2, \y2
    adc \x3, \y3
.endm

; x ^= y
.macro XORW x0, x1, x2, x3, y0, y1, y2, y3
    eor \x0, \y0
    eor \x1, \y1
    eor \x2, \y2
    eor \x3, \y3
.endm

; x <<<= 8
.macro ROL8 x0, x1, x2, x3
    mov r18, \x3
    mov \x3, \x2
    mov \x2, \x1
    mov \x1, \x0
    mov \x0, r18
.endm

; x <<<= 1
.macro ROL1 x0, x1, x2, x3
    lsl \x0
    rol \x1
    rol \x2
    rol \x3
    adc \x0, r1
.endm

; x >>>= 1
.macro ROR1 x0, x1, x2, x3
    bst \x0, 0
    lsr \x3
    ror \x2
    ror \x1
    ror \x0
    bld \x3, 7
.endm

.macro QR oa, ob, oc, od
    ldi r20, \oa
    ldi r21, \ob
    ldi r22, \oc
    ldi r23, \od
    rcall qr
.endm

    .section .text.chacha_rounds_asm, "ax", @progbits
qr:
    LOADW r2, r3, r4, r5, r20
    LOADW r6, r7, r8, r9, r21
    LOADW r10, r11, r12, r13, r22
    LOADW r14, r15, r16, r17, r23
    ; a += b; d ^= a; d <<<= 16
    ADDW r2, r3, r4, r5, r6, r7, r8, r9
    XORW r14, r15, r16, r17, r2, r3, r4, r5
    movw r18, r14
    movw r14, r16
    movw r16, r18
    ; c += d; b ^= c; b <<<= 12 (8, then 4 times 1)
    ADDW r10, r11, r12, r13, r14, r15, r16, r17
    XORW r6, r7, r8, r9, r10, r11, r12, r13
    ROL8 r6, r7, r8, r9
    ROL1 r6, r7, r8, r9
    ROL1 r6, r7, r8, r9
    ROL1 r6, r7, r8, r9
    ROL1 r6, r7, r8, r9
    ; a += b; d ^= a; d <<<= 8
    ADDW r2, r3, r4, r5, r6, r7, r8, r9
    XORW r14, r15, r16, r17, r2, r3, r4, r5
    ROL8 r14, r15, r16, r17
    ; c += d; b ^= c; b <<<= 7 (8, then back 1)
    ADDW r10, r11, r12, r13, r14, r15, r16, r17
    XORW r6, r7, r8, r9, r10, r11, r12, r13
    ROL8 r6, r7, r8, r9
    ROR1 r6, r7, r8, r9
    STOREW r2, r3, r4, r5, r20
    STOREW r6, r7, r8, r9, r21
    STOREW r10, r11, r12, r13, r22
    STOREW r14, r15, r16, r17, r23
    ret

    .global chacha_rounds_asm
    .type chacha_rounds_asm, @function
chacha_rounds_asm:
    push r2
    push r3
    push r4
    push r5
    push r6
    push r7
    push r8
    push r9
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
    movw r28, r24
    ldi r24, 10
1:
    ; columns: words (0,4,8,12) (1,5,9,13) (2,6,10,14) (3,7,11,15)
    QR 0, 16, 32, 48
    QR 4, 20, 36, 52
    QR 8, 24, 40, 56
    QR 12, 28, 44, 60
    ; diagonals: (0,5,10,15) (1,6,11,12) (2,7,8,13) (3,4,9,14)
    QR 0, 20, 40, 60
    QR 4, 24, 44, 48
    QR 8, 28, 32, 52
    QR 12, 16, 36, 56
    dec r24
    breq 2f
    rjmp 1b
2:
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
    pop r9
    pop r8
    pop r7
    pop r6
    pop r5
    pop r4
    pop r3
    pop r2
    ret
    .size chacha_rounds_asm, . - chacha_rounds_asm
