; SPDX-License-Identifier: MIT
;
; SIGN's matrix-vector products over the secret key in flash, H rows at a
; time (S1 h for the rows of S1, S3 x for those of S3), constant time:
;
;   void gf_mv1_asm(uint8_t out[H1], const uint8_t *M, const uint8_t *lvr)
;   void gf_mv3_asm(uint8_t out[H3], const uint8_t *M, const uint8_t *lvr)
;
; out[i] ^= SUM_j M[i][j] v_j for the H rows of the row-major matrix at M
; (its width m for gf_mv1, n for gf_mv3: sk as docs/SPEC.md 5.2 lays it
; out), with lvr[2j] = log_3 v_j and lvr[2j+1] = 0 if v_j != 0, else 0xFF.
; A column at a time, the H sums in registers, a product in 15 cycles:
;
;   lpm r26, Z         ; a = M[i][j] (XL; XH the page of logs)
;   adiw r30, width    ; the next row
;   cp r23, r26        ; borrow if a > lvr[2j+1]: a != 0 and v_j != 0
;   sbc r24, r24       ; the product's mask
;   ld r28, X          ; log a (YL; YH the page of powers)
;   add r28, r22       ; + log v_j,
;   adc r28, r1        ;   mod 255
;   ld r0, Y           ; 3^(log a + log v_j)
;   and r0, r24
;   eor s, r0
;
; No branch but the column counter's; the key read with LPM and the
; tables with LD (no cache on this core: avr/avr.h). The C twin is
; gf_matvec_c in sign.c (-DAVR_C_KERNELS).
;
; registers: the sums r2..r(H+1), Z the key, X and Y the tables, r22 log
; v_j, r23 its mask, r24 the product's, r25 the columns left, r0 the
; product, r1 zero; lvr's pointer in lvrp between columns.

#define PAGE_LOG hi8(gf_tab)
#define PAGE_EXP hi8(gf_tab + 256)

    .lcomm lvrp, 2

.macro MATVEC name, width, sums:vararg
    .section .text.\name, "ax", @progbits
    .global \name
    .type \name, @function
\name:
    .set h, 0
    .irp s, \sums
    .set h, h + 1
    .endr
    .irp r, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r28, r29
    push \r
    .endr
    push r24
    push r25
    sts lvrp, r20
    sts lvrp + 1, r21
    movw r26, r24
    .irp s, \sums
    ld \s, X+
    .endr
    movw r30, r22
    ldi r29, PAGE_EXP
    ldi r25, \width
1:
    lds r26, lvrp
    lds r27, lvrp + 1
    ld r22, X+
    ld r23, X+
    sts lvrp, r26
    sts lvrp + 1, r27
    ldi r27, PAGE_LOG
    .irp s, \sums
    lpm r26, Z
    adiw r30, \width
    cp r23, r26
    sbc r24, r24
    ld r28, X
    add r28, r22
    adc r28, r1
    ld r0, Y
    and r0, r24
    eor \s, r0
    .endr
    subi r30, lo8(h * \width - 1)
    sbci r31, hi8(h * \width - 1)
    dec r25
    breq 2f
    rjmp 1b
2:
    pop r27
    pop r26
    .irp s, \sums
    st X+, \s
    .endr
    clr r0
    .irp r, r29, r28, r17, r16, r15, r14, r13, r12, r11, r10, r9, r8, r7, r6, r5, r4, r3, r2
    pop \r
    .endr
    ret
    .size \name, . - \name
.endm

#define R11 r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12
#define R16 R11, r13, r14, r15, r16, r17
#if TTS_M == 16
    MATVEC gf_mv1_asm, 16, R16
    MATVEC gf_mv3_asm, 22, R11
#elif TTS_M == 20 && TTS_N == 26
    MATVEC gf_mv1_asm, 20, R16, r18, r19, r20, r21
    MATVEC gf_mv3_asm, 26, R11, r13, r14
#elif TTS_M == 20 && TTS_N == 28
    MATVEC gf_mv1_asm, 20, R16, r18, r19, r20, r21
    MATVEC gf_mv3_asm, 28, R11, r13, r14, r15
#elif TTS_M == 24 && TTS_N == 32
    MATVEC gf_mv1_asm, 24, R11, r13
    MATVEC gf_mv3_asm, 32, R16
#elif TTS_M == 24 && TTS_N == 34
    MATVEC gf_mv1_asm, 24, R11, r13
    MATVEC gf_mv3_asm, 34, R16, r18
#elif TTS_M == 28
    MATVEC gf_mv1_asm, 28, R11, r13, r14, r15
    MATVEC gf_mv3_asm, 38, R16, r18, r19, r20
#elif TTS_M == 32
    MATVEC gf_mv1_asm, 32, R16
    MATVEC gf_mv3_asm, 44, R11
#elif TTS_M == 36
    MATVEC gf_mv1_asm, 36, R16, r18, r19
    MATVEC gf_mv3_asm, 50, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11
#else
#error "gf_matvec.S: no register lists for this set"
#endif
