; SPDX-License-Identifier: MIT
;
; SIGN's masked elimination (docs/SPEC.md section 8) on a layer's system,
; constant time:
;
;   uint8_t gf_solve_asm(uint8_t *S, uint8_t k)
;
; S: k rows of k + 1 bytes (the right side last), W = LMAX + 1 bytes
; apart. Returns 0xFF if the system was regular, its solution then in
; column k, else 0 (the only bit SIGN declassifies: singular, retry). A
; regular system has one solution, so the column is the one Gauss-Jordan
; of the C twin gives (solve in sign.c, -DAVR_C_KERNELS); this is Gauss
; with back substitution, three quarters of its products. For each pivot
; column c:
;
;   A. for r = c+1..k-1: row c ^= row r if S[c][c] = 0 (a mask, not a
;      branch), columns c..k;
;   B. p = S[c][c], ok &= (p != 0), lis[c] = -log p; the logs of row c's
;      columns c+1..k into lm (0xFF for 0);
;   C. for r = c+1..k-1: row r ^= f * row c / p with f = S[r][c], columns
;      c+1..k: 3^(lm[j] + log f - log p) masked by lm[j] < lim, lim = 0xFF
;      if f != 0 and p != 0, else 0;
;
; then for c = k-1 down to 0: x_c = (S[c][k] + SUM_{j>c} S[c][j] x_j) / p
; into S[c][k], its log into lxs. A product is a table read at a secret
; index, which this core does in constant time (avr/avr.h); no branch
; depends on a secret (a zero p gives garbage, and ok = 0).
;
; registers: r14:r15 S, r16:r17 row c, r18 c, r19 k, r20 ok, r21 -log p,
; r22 p's mask, r23 k - c, r24 and r25 counters, X the tables (r27 the
; page), Y and Z the rows, lm and lxs, r2:r3 &S[c][c], r4:r5 &S[r][c],
; r6 a sum, r7 lim, r8 log f - log p, r9 to r11 scratch, r1 zero.

#include "avr_tables.h"

#if TTS_A > TTS_B
#define LMAX TTS_A
#else
#define LMAX TTS_B
#endif
#define W (LMAX + 1)
#define PAGE_LOG hi8(gf_tab)
#define PAGE_EXP hi8(gf_tab + 256)

    .lcomm lm, 3 * LMAX         ; lm, then lis, then lxs
#define lis (lm + LMAX)
#define lxs (lm + 2 * LMAX)

    .section .text.gf_solve_asm, "ax", @progbits
    .global gf_solve_asm
    .type gf_solve_asm, @function
gf_solve_asm:
    .irp r, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r14, r15, r16, r17, r28, r29
    push \r
    .endr
    movw r14, r24
    movw r16, r24
    mov r19, r22
    ldi r20, 0xFF
    clr r18
pivot:
    movw r28, r16
    add r28, r18
    adc r29, r1
    movw r2, r28                ; &S[c][c]
    mov r23, r19
    sub r23, r18                ; k - c: columns c+1..k
    ; A
    mov r25, r23
    dec r25                     ; rows c+1..k-1
    breq stepb
    movw r30, r2
1:
    adiw r30, W                 ; &S[r][c]
    movw r4, r30
    movw r28, r2
    ld r9, Y
    cp r1, r9
    sbc r10, r10
    com r10                     ; 0xFF if S[c][c] = 0
    mov r24, r23
    inc r24
2:
    ld r0, Z+
    and r0, r10
    ld r11, Y
    eor r11, r0
    st Y+, r11
    dec r24
    brne 2b
    movw r30, r4
    dec r25
    brne 1b
stepb:
    ; B
    movw r28, r2
    ld r9, Y+                   ; p; Y = &S[c][c+1]
    ldi r27, PAGE_LOG
    mov r26, r9
    ld r21, X
    com r21                     ; 255 - log p (p = 0: masked below)
    cp r1, r9
    sbc r22, r22                ; 0xFF if p != 0
    and r20, r22
    ldi r30, lo8(lis)
    ldi r31, hi8(lis)
    add r30, r18
    adc r31, r1
    st Z, r21
    ldi r30, lo8(lm)
    ldi r31, hi8(lm)
    mov r24, r23
3:
    ld r26, Y+
    ld r26, X                   ; log S[c][j], 0xFF for 0
    st Z+, r26
    dec r24
    brne 3b
    ; C: the rows below c
    mov r25, r23
    dec r25
    breq 6f
    movw r30, r2
4:
    adiw r30, W
    movw r4, r30
    ld r9, Z+                   ; f
    ldi r27, PAGE_LOG
    mov r26, r9
    ld r8, X
    add r8, r21
    adc r8, r1                  ; log f - log p
    cp r1, r9
    sbc r7, r7
    and r7, r22                 ; lim
    ldi r27, PAGE_EXP
    ldi r28, lo8(lm)
    ldi r29, hi8(lm)
    mov r24, r23
5:
    ld r26, Y+
    cp r26, r7
    sbc r11, r11
    add r26, r8
    adc r26, r1
    ld r0, X
    and r0, r11
    ld r10, Z
    eor r10, r0
    st Z+, r10
    dec r24
    brne 5b
    movw r30, r4
    dec r25
    brne 4b
6:
    subi r16, lo8(-W)
    sbci r17, hi8(-W)
    inc r18
    cp r18, r19
    breq back
    rjmp pivot
back:
    ; x_c for c = k-1 down to 0; r16:r17 is row k
7:
    subi r16, lo8(W)
    sbci r17, hi8(W)
    dec r18                     ; c
    movw r28, r16
    add r28, r19
    adc r29, r1
    ld r6, Y                    ; S[c][k]
    sub r28, r19
    sbc r29, r1
    add r28, r18
    adc r29, r1
    adiw r28, 1                 ; &S[c][c+1]
    ldi r30, lo8(lxs + 1)
    ldi r31, hi8(lxs + 1)
    add r30, r18
    adc r31, r1                 ; &lxs[c+1]
    mov r24, r19
    sub r24, r18
    dec r24                     ; j = c+1..k-1
    breq 9f
8:
    ld r26, Y+                  ; a = S[c][j]
    ldi r27, PAGE_LOG
    cp r1, r26
    sbc r7, r7                  ; 0xFF if a != 0
    ld r26, X                   ; log a
    ld r9, Z+                   ; log x_j, 0xFF for 0
    cp r9, r7
    sbc r7, r7                  ; the product's mask
    add r26, r9
    adc r26, r1
    inc r27
    ld r0, X
    and r0, r7
    eor r6, r0
    dec r24
    brne 8b
9:
    ldi r27, PAGE_LOG
    mov r26, r6
    cp r1, r6
    sbc r7, r7
    ld r26, X                   ; log of the sum
    ldi r30, lo8(lis)
    ldi r31, hi8(lis)
    add r30, r18
    adc r31, r1
    ld r9, Z
    add r26, r9
    adc r26, r1                 ; - log p
    inc r27
    ld r0, X
    and r0, r7                  ; x_c
    movw r28, r16
    add r28, r19
    adc r29, r1
    st Y, r0
    dec r27
    mov r26, r0
    ld r9, X
    ldi r30, lo8(lxs)
    ldi r31, hi8(lxs)
    add r30, r18
    adc r31, r1
    st Z, r9
    tst r18
    breq 10f
    rjmp 7b
10:
    ldi r30, lo8(lm)            ; lm, lis, lxs wiped
    ldi r31, hi8(lm)
    ldi r24, 3 * LMAX
11:
    st Z+, r1
    dec r24
    brne 11b
    clr r0
    mov r24, r20
    .irp r, r29, r28, r17, r16, r15, r14, r11, r10, r9, r8, r7, r6, r5, r4, r3, r2
    pop \r
    .endr
    ret
    .size gf_solve_asm, . - gf_solve_asm
