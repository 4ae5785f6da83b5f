; SPDX-License-Identifier: MIT
;
; A ChaCha20 block (RFC 8439 section 2.3) whole, the 16-word state in
; SRAM: chacha20_block below. The C twin is chacha20_block in chacha.c,
; its rounds the loop over chacha_qr_c (built with -DAVR_C_KERNELS); the
; tests check both images' signatures against the host's.
;
; Each quarter-round is written out with its four word offsets: it loads
; its words with LDD from Y, computes in registers and stores them back
; with STD. The rotations by 8 and 16 bits cost nothing: the later steps
; name the word's registers in the rotated order, and the stores put the
; bytes back in it. Every instruction here takes the same cycles whatever
; the data (no branch but the round counter's). 122 cycles a quarter-round.
;
; registers: a r2..r5, b r6..r9, c r10..r13, d r14..r17 (least significant
; byte first before the rotations), r24 the double-round counter, Y the
; state, r1 zero (avr-gcc's convention).

#include <avr/io.h>

.macro LDW r0, r1_, r2_, r3_, off
    ldd \r0, Y + \off
    ldd \r1_, Y + \off + 1
    ldd \r2_, Y + \off + 2
    ldd \r3_, Y + \off + 3
.endm

.macro STW r0, r1_, r2_, r3_, off
    std Y + \off, \r0
    std Y + \off + 1, \r1_
    std Y + \off + 2, \r2_
    std Y + \off + 3, \r3_
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
    LDW r2, r3, r4, r5, \oa
    LDW r6, r7, r8, r9, \ob
    LDW r10, r11, r12, r13, \oc
    LDW r14, r15, r16, r17, \od
    ; a += b; d ^= a; d <<<= 16: d is (r16, r17, r14, r15)
    ADDW r2, r3, r4, r5, r6, r7, r8, r9
    XORW r14, r15, r16, r17, r2, r3, r4, r5
    ; c += d; b ^= c; b <<<= 12: 8, b is (r9, r6, r7, r8), then 4 times 1
    ADDW r10, r11, r12, r13, r16, r17, r14, r15
    XORW r6, r7, r8, r9, r10, r11, r12, r13
    ROL1 r9, r6, r7, r8
    ROL1 r9, r6, r7, r8
    ROL1 r9, r6, r7, r8
    ROL1 r9, r6, r7, r8
    ; a += b; d ^= a; d <<<= 8: d is (r15, r16, r17, r14)
    ADDW r2, r3, r4, r5, r9, r6, r7, r8
    XORW r16, r17, r14, r15, r2, r3, r4, r5
    ; c += d; b ^= c; b <<<= 7: 8, b is (r8, r9, r6, r7), then back 1
    ADDW r10, r11, r12, r13, r15, r16, r17, r14
    XORW r9, r6, r7, r8, r10, r11, r12, r13
    ROR1 r8, r9, r6, r7
    STW r2, r3, r4, r5, \oa
    STW r8, r9, r6, r7, \ob
    STW r10, r11, r12, r13, \oc
    STW r15, r16, r17, r14, \od
.endm

; the feed-forward: X's words += the words read from Z by op (lpm or ld)
.macro FEED words, op
    .rept \words
    ld r2, X
    \op r0, Z+
    add r2, r0
    st X+, r2
    .rept 3
    ld r2, X
    \op r0, Z+
    adc r2, r0
    st X+, r2
    .endr
    .endr
.endm

#ifndef AVR_C_KERNELS
    .section .text.chacha20_block, "ax", @progbits
; void chacha20_block(uint8_t out[64], const uint8_t key[32],
;                     const uint8_t nonce[12], uint32_t counter)
; (avr/avr.h: nonce NULL for 12 zero bytes). The state is worked on in
; out itself: the AVR is little-endian, so the sixteen words in SRAM are
; the output's bytes; the input is added back from its sources (out must
; not overlap key or nonce; the counter is kept on the stack).
    .global chacha20_block
    .type chacha20_block, @function
chacha20_block:
    .irp r, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r28, r29
    push \r
    .endr
    .irp r, r16, r17, r18, r19, r20, r21, r22, r23
    push \r
    .endr
    movw r28, r24
    movw r26, r24
    ldi r30, lo8(sigma)
    ldi r31, hi8(sigma)
    .rept 16
    lpm r0, Z+
    st X+, r0
    .endr
    movw r30, r22
    .rept 32
    ld r0, Z+
    st X+, r0
    .endr
    st X+, r16
    st X+, r17
    st X+, r18
    st X+, r19
    movw r30, r20
    .rept 12
    ld r0, Z+
    st X+, r0
    .endr
    cp r20, r1
    cpc r21, r1
    brne 1f                     ; NULL: zeros (a public choice)
    sbiw r26, 12
    .rept 12
    st X+, r1
    .endr
1:
    rcall rounds
    .irp r, r23, r22, r21, r20, r19, r18, r17, r16
    pop \r
    .endr
    movw r26, r28
    ldi r30, lo8(sigma)
    ldi r31, hi8(sigma)
    FEED 4, lpm                 ; the constant words
    movw r30, r22
    FEED 8, ld                  ; the key's words
    .irp r, r16, r17, r18, r19
    ld r2, X
    .ifc \r, r16
    add r2, \r
    .else
    adc r2, \r
    .endif
    st X+, r2
    .endr
    cp r20, r1
    cpc r21, r1
    breq 2f
    movw r30, r20
    FEED 3, ld                  ; the nonce's words
2:
    clr r0
    .irp r, r29, r28, r17, r16, r15, r14, r13, r12, r11, r10, r9, r8, r7, r6, r5, r4, r3, r2
    pop \r
    .endr
    ret
    .size chacha20_block, . - chacha20_block

; the 20 rounds on the state at Y (r2..r17 and r24 clobbered)
rounds:
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
    ret

    .section .progmem.data.chacha_sigma, "a", @progbits
sigma:
    .ascii "expand 32-byte k"
#endif
