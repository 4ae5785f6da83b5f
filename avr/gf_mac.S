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
