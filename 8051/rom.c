/* SPDX-License-Identifier: MIT */
/*
 * The ROM family's card (tts-M-N-rom.ihx, -DCARD_ROM, and the 4 KB image
 * tts-M-N-rom4k.ihx, -DCARD_ROM_4K as well; docs/CARD-IMAGES.md, "The ROM
 * family"): a signing card personalised by PUT KEY + COMMIT KEY, in
 * assembly to bring the image to an 8051AH's 4 KB of ROM. The protocol
 * and the non-volatile state are the other images' (docs/CARD.md, card.h):
 * the same status words in the same order, the PIN, the signature counter,
 * the card's stream key K_card and the journal; GENERATE KEY and GET PK
 * SEGMENT are not here (6D00). COMMIT KEY checks the key as the other
 * images do: S3 and S1 invertible and s1 = F(S3^-1 s3) (Gauss-Jordan of
 * k_gauss.c, central_eval_rom of kernels_rom.c), else 6A80 and the
 * old key stays (-DCARD_ROM_NO_CHECK leaves that check out: a build that
 * measures its size, docs/CARD-IMAGES.md; -DCARD_ROM_NO_PROFILE leaves out GET
 * PROFILE, as the 4 KB image does). The signing kernels are
 * in kernels_rom.c, ChaCha20 in chacha.c, COMMIT KEY's check, K_card and
 * the install in rom_key.c.
 *
 * Conventions: a command's handler is entered with the status word 9000
 * and no response data; it sets rm_sw and rm_la (the rm_sw_* tails set
 * the status word and return). The byte I/O is the simulator interface
 * at XDATA 0xFFFF (docs/CARD.md, Protocol).
 */
#include "rom.h"

__data uint8_t rm_hdr[5];       /* CLA INS P1 P2 Lc */
#define R_CLA _rm_hdr
#define R_INS (_rm_hdr + 1)
#define R_P1  (_rm_hdr + 2)
#define R_P2  (_rm_hdr + 3)
#define R_LC  (_rm_hdr + 4)
__data uint8_t rm_la, rm_sw[2], rm_pin; /* rm_pin: VERIFY succeeded since the reset */
__data volatile uint16_t t0_ovf;
__xdata uint8_t sig_ctr[4];
#ifdef CARD_ROM_NO_PROFILE /* (no GET PROFILE) */
__xdata uint8_t rm_last[4];     /* GET CYCLES: the last command's cycles (big endian) */
#else
__xdata uint8_t rm_last[8];     /* GET PROFILE: cycles, ChaCha20 cycles (big endian) */
#endif

/*
 * The bottom of the code space (area RVEC, placed at 0 by build-image.sh;
 * no C start-up is linked): the reset vector, rm_get in the 8 bytes up to
 * the Timer 0 vector, and Timer 0's interrupt (mode 1, clock/12:
 * overflows counted) at its vector.
 */
void rm_vec(void) __naked
{
    __asm
#ifndef CARD_ROM_FILL_GAP
        .area CONST (CODE)        ; (named before RVEC and RGAP: the link
                                  ; places the constants after CSEG; with
#endif                            ; -DCARD_ROM_FILL_GAP, after RGAP)
        .area RVEC (CODE)
    rv_base:
        ljmp _rm_main
        ; byte I/O: the simulator interface
    rm_get:
        mov  a, #0x72             ; r (read)
        mov  dptr, #0xFFFF
        movx @dptr, a
        movx a, @dptr
        ret
        .if . - rv_base - 0x0B
        .error 1                  ; Timer 0's vector is at 0x000B
        .endif
        inc  _t0_ovf              ; (INC and MOV change no flag but P,
        push acc                  ; which follows A)
        mov  a, _t0_ovf
        jnz  rv_t0
        inc  (_t0_ovf + 1)
    rv_t0:
        pop  acc
        reti
        .if . - rv_base - 0x18
        .error 1                  ; build-image.sh may place RGAP at 0x0018
        .endif
        .area SSEG
    __start__stack::              ; the stack's start (the C start-up's)
        .ds  1
        .area CSEG (CODE)
    __endasm;
}

/* The constants: GET INFO's answer, the K_card nonce (key.c's). */
__code const uint8_t rm_info[7] = {M, N, V, A, B, 1, SEG_K};
__code const uint8_t rm_nonce[12] = {
    't', 't', 's', '-', 'c', 'a', 'r', 'd', '-', 'p', 'r', 'f'
};

/* The commands: INS, Lc min, Lc max, then the jump to the handler (AJMP:
 * the handlers start below 0x0800, the link checks it). */
void rm_tab(void) __naked
{
    __asm
        .db  CARD_SIGN, M, M      ; (first: the quickest to find)
        ajmp rh_sign
        .db  CARD_GET_INFO, 0, 0
        ajmp rh_info
        .db  CARD_GET_CYCLES, 0, 0
        ajmp rh_cyc
#ifndef CARD_ROM_NO_PROFILE
        .db  CARD_GET_PROFILE, 0, 0
        ajmp rh_prof
#endif
        .db  CARD_GET_COUNTER, 0, 0
        ajmp rh_ctr
        .db  CARD_PUT_KEY, 0, 255
        ajmp rh_put
        .db  CARD_COMMIT_KEY, CHK_BYTES, CHK_BYTES
        ajmp rh_commit
        .db  CARD_SET_PIN, PIN_MIN, PIN_MAX
        ajmp rh_setpin
        .db  CARD_HALT, 0, 0
        ajmp rh_halt
        .db  0
    rm_vtab:
        .db  CARD_VERIFY, 0, PIN_MAX
        ajmp rh_verify
    __endasm;
}

void rm_main(void) __naked
{
    __asm
        ; (no C start-up: internal RAM cleared here, XDATA as it was, no
        ; XDATA variable here being read before this firmware writes it)
        mov  sp, #(__start__stack - 1)
        ; internal RAM: 0 up to the stack pointer, 0xA5 above it (the free
        ; RAM: 8051/probe-iram.sh reads the peak back)
        mov  r0, #IRAM_TOP
    rm_fill:
        mov  @r0, #0xA5
        djnz r0, rm_fill
        mov  r0, sp
        clr  a
    rm_clr:
        mov  @r0, a
        djnz r0, rm_clr
        ; LOGLO into XDATA (card_map.h; this family's GFT is exp alone):
        ; LOGLO[3^i] = i for i < 255, LOGLO[0] = 0; before the journal's
        ; install, which converts the key with it
        mov  P2, #(X_LOGT >> 8)
        mov  dptr, #_GFT
        mov  r1, a
        movx @r1, a
        mov  r7, a
    rm_log:
        mov  a, r7
        movc a, @a+dptr
        mov  r1, a
        mov  a, r7
        movx @r1, a
        inc  r7
        cjne r7, #255, rm_log
        mov  dptr, #_sigma        ; ChaCha20's constant, once (chacha.c)
        mov  P2, #(X_STR >> 8)
        mov  r1, #(X_STR & 0xFF)
        mov  r7, #16
        acall rm_ccopy
        lcall _rk_tgen            ; the term records (kernels_rom.c)
        mov  dptr, #X_JRNL
        movx a, @dptr
        cjne a, #NV_MAGIC, rm_nojr ; a key install was cut: finish it
        NCALL _rm_install
    rm_nojr:
        acall rm_unstage          ; (after the journal, which reads X_PINST)
        lcall _rk_tfill           ; the active key's coefficients in them
        mov  TMOD, #0x01
        mov  IE, #0x82            ; EA, ET0
    rm_loop:
        mov  r0, #_rm_hdr
        mov  r7, #5
    rm_head:
        acall rm_get
        mov  @r0, a
        inc  r0
        djnz r7, rm_head
        mov  P2, #(X_CMD >> 8)
        mov  r1, #(X_CMD & 0xFF)
        mov  a, R_LC
        jz   rm_le
        mov  r7, a
    rm_data:
        acall rm_get
        movx @r1, a
        inc  r1
        djnz r7, rm_data
    rm_le:
        acall rm_get              ; Le: ignored
        clr  a                    ; (TR0 and TF0: 0 since the reset or the
        mov  TH0, a               ; last command's end)
        mov  TL0, a
        mov  _t0_ovf, a
        mov  (_t0_ovf + 1), a
#ifndef CARD_ROM_NO_PROFILE
        mov  dptr, #_prof_chacha
        mov  r7, #4
    rm_pz:
        movx @dptr, a
        inc  dptr
        djnz r7, rm_pz
#endif
        setb TR0
        acall rm_cmd
#ifndef CARD_ROM_NO_PROFILE
        ; the ChaCha20 cycles, big endian
        mov  dptr, #_prof_chacha
        mov  P2, #((_rm_last + 7) >> 8)
        mov  r1, #(_rm_last + 7)
        mov  r7, #4
    rm_pc:
        movx a, @dptr
        inc  dptr
        movx @r1, a
        dec  r1
        djnz r7, rm_pc
#endif
        ; the response
        mov  a, _rm_la
        mov  r7, a
        acall rm_put              ; (keeps A; DPTR = 0xFFFF)
        acall rm_rsp              ; (keeps A: P2:R1 = X_RESP)
        jz   rm_sws
    rm_resp:                      ; rm_put written out: w (write), the byte
        mov  a, #0x77
        movx @dptr, a
        movx a, @r1
        movx @dptr, a
        inc  r1
        djnz r7, rm_resp
    rm_sws:
        mov  a, _rm_sw
        acall rm_put
        mov  a, (_rm_sw + 1)
        acall rm_put
        ; the cycles of the command, big endian
        clr  TR0
        jnb  TF0, rm_nof
        clr  TF0
        inc  _t0_ovf
        mov  a, _t0_ovf
        jnz  rm_nof
        inc  (_t0_ovf + 1)
    rm_nof:
        mov  dptr, #_rm_last
        mov  a, (_t0_ovf + 1)
        movx @dptr, a
        inc  dptr
        mov  a, _t0_ovf
        movx @dptr, a
        inc  dptr
        mov  a, TH0
        movx @dptr, a
        inc  dptr
        mov  a, TL0
        movx @dptr, a
        ; HALT (its handler ran: F1): stop the simulator
        jnb  0xD1, rm_next        ; F1 (PSW.1)
        mov  a, #0x73             ; s (stop)
        acall rm_io
    rm_next:
        ajmp rm_loop

        ; byte I/O: the simulator interface (and rm_get: rm_vec)
        .area RGAP (CODE)         ; (the gap below GFT: kernels_rom.c)
    rm_put:
        push acc
        mov  a, #0x77             ; w (write)
        acall rm_io
        pop  acc
    rm_io:
        mov  dptr, #0xFFFF
        movx @dptr, a
        ret
        ; A = 0 iff a key is installed
    rm_active:
        mov  dptr, #X_ACTIVE
        movx a, @dptr
        xrl  a, #NV_MAGIC
        ret
        ; R0 = the counter slot in use, P2 = its page
    rm_ctrp:
        mov  P2, #(X_MISC >> 8)
        mov  r0, #(X_CSEL & 0xFF)
        movx a, @r0
        anl  a, #1
        rl   a
        rl   a
        add  a, #(X_CTR & 0xFF)
        mov  r0, a
        ret
        .area CSEG (CODE)

        ; ---- one command: the status words in the order CLA, INS, P1P2,
        ; Lc, then those of the handler (state, data)
    rm_cmd:
        clr  a
        mov  _rm_la, a
        mov  (_rm_sw + 1), a      ; (CARD_SW_OK & 0xFF: rom.h)
        mov  _rm_sw, #(CARD_SW_OK >> 8)
        mov  a, R_CLA
        jnz  rc_80
        mov  dptr, #rm_vtab
        mov  a, R_INS
        cjne a, #CARD_VERIFY, rm_sw_6e00
        sjmp rc_check
    rc_80:
        cjne a, #CARD_CLA, rm_sw_6e00
        mov  dptr, #(_rm_tab - 5)
    rc_next:
        inc  dptr
        inc  dptr
        inc  dptr
        inc  dptr
        inc  dptr
        clr  a
        movc a, @a+dptr
        jz   rm_sw_6d00
        cjne a, R_INS, rc_next
    rc_check:
        xrl  a, #CARD_PUT_KEY     ; PUT KEY: P1P2 is the offset
        jz   rc_lc
        mov  a, R_P1
        orl  a, R_P2
        jnz  rm_sw_6a86
    rc_lc:
        mov  a, #1
        movc a, @a+dptr           ; Lc min
        setb c
        subb a, R_LC              ; C = (Lc >= min)
        jnc  rm_sw_6700
        mov  a, #2
        movc a, @a+dptr           ; Lc max
        clr  c
        subb a, R_LC              ; C = (Lc > max)
        jc   rm_sw_6700
        mov  a, #3
        jmp  @a+dptr

        ; the status-word tails: the low byte, then the high byte in A
        ; (rm_sw_a00; the low byte 00 is rm_cmd's). A byte 0x90 (MOV
        ; DPTR,#data16: DPTR is free here) skips the two-byte load after it.
    rm_sw_6982:
        mov  a, #(CARD_SW_SECURITY & 0xFF)
        .db  0x90
    rm_sw_6983:
        mov  a, #(CARD_SW_BLOCKED & 0xFF)
        .db  0x90
    rm_sw_6985:
        mov  a, #(CARD_SW_STATE & 0xFF)
        mov  (_rm_sw + 1), a
        mov  a, #(CARD_SW_STATE >> 8)
        sjmp rm_sw_a00
    rm_sw_6a86:
        mov  a, #(CARD_SW_P1P2 & 0xFF)
        .db  0x90
    _rm_sw_6a80::
    rm_sw_6a80:
        mov  a, #(CARD_SW_DATA & 0xFF)
        mov  (_rm_sw + 1), a
        mov  a, #(CARD_SW_DATA >> 8)
        .db  0x90
    rm_sw_6e00:
        mov  a, #(CARD_SW_CLA >> 8)
        .db  0x90
    rm_sw_6d00:
        mov  a, #(CARD_SW_INS >> 8)
        .db  0x90
    rm_sw_6700:
        mov  a, #(CARD_SW_LENGTH >> 8)
    rm_sw_a00:
        mov  _rm_sw, a
    rh_ret:
        ret

        ; ---- HALT: F1 (PSW.1, no other use) stops the simulator once the
        ; response is out
#ifdef CARD_ROM_NEAR
        .area RGAP (CODE)
#endif
    rh_halt:
        setb 0xD1                 ; F1 (PSW.1)
        ret
#ifdef CARD_ROM_NEAR
        .area CSEG (CODE)
#endif

        ; ---- VERIFY: the try counted before the comparison, which reads
        ; every byte whatever the PIN and the data
    rh_verify:
        mov  a, R_LC
        jz   rv_lc
        add  a, #(0x100 - PIN_MIN)
        jnc  rm_sw_6700           ; 0 < Lc < PIN_MIN
    rv_lc:
        acall rm_active           ; (DPTR = X_ACTIVE)
        jnz  rm_sw_6985
        inc  dptr
        inc  dptr                 ; X_TRIES
        movx a, @dptr
        mov  r4, a
        add  a, #(0x100 - (PIN_TRIES + 1))
        jnc  rv_t                 ; tries <= PIN_TRIES
        mov  r4, #0
    rv_t:
        mov  a, R_LC
        jnz  rv_try
        mov  a, _rm_pin           ; Lc = 0 asks
        jnz  rh_ret
    rv_try:                       ; (Lc = 0: rm_pin is 0 already)
        mov  _rm_pin, #0
        mov  a, r4
        jz   rm_sw_6983
        mov  a, R_LC
        jz   rv_left
        dec  r4
        mov  a, r4
        movx @dptr, a             ; the try, counted
        mov  dptr, #X_PIN
        movx a, @dptr
        xrl  a, R_LC
        mov  r3, a
        mov  r1, #0
    rv_cmp:
        acall rm_pinb
        mov  r2, a
        inc  dptr
        movx a, @dptr
        xrl  a, r2
        orl  0x03, a       ; R3 (bank 0)
        cjne r1, #PIN_MAX, rv_cmp
        mov  a, r3
        jnz  rv_left
        inc  _rm_pin              ; (0: above)
        ; the PIN's tries back to PIN_TRIES
    rm_tries::
        mov  dptr, #X_TRIES
        mov  a, #PIN_TRIES
        movx @dptr, a
        ret
    rv_left:
        mov  a, r4
        orl  a, #(CARD_SW_PIN_WRONG & 0xFF)
        mov  (_rm_sw + 1), a
        mov  a, #(CARD_SW_PIN_WRONG >> 8)
        sjmp rm_sw_a00

        ; ---- GET INFO
    rh_info:
        mov  dptr, #_rm_info
        mov  r7, #7
        acall rm_rsp
    _rm_ccopy::                   ; CODE DPTR -> XDATA P2:R1, R7 bytes
    rm_ccopy::
        clr  a
        movc a, @a+dptr
        movx @r1, a
        inc  dptr
        inc  r1
        djnz r7, rm_ccopy
        ret

        ; ---- GET CYCLES, GET PROFILE
    rh_cyc:
        mov  r7, #4
#ifndef CARD_ROM_NO_PROFILE
        sjmp rh_cy
    rh_prof:
        mov  r7, #8
#endif
    rh_cy:
        mov  dptr, #_rm_last
        acall rm_rsp
        ljmp cc_xmv               ; (chacha.c)
        ; a response of R7 bytes (rm_la) at P2:R1
#ifdef CARD_ROM_NEAR
        .area RGAP (CODE)
#endif
    rm_rsp:
        mov  _rm_la, r7
        mov  P2, #(X_RESP >> 8)
        mov  r1, #(X_RESP & 0xFF)
        ret
#ifdef CARD_ROM_NEAR
        .area CSEG (CODE)
#endif

        ; ---- GET COUNTER: ~slot, byte-reversed
    rh_ctr:
        mov  _rm_la, #4
        acall rm_ctrp
        inc  r0
        inc  r0
        inc  r0
        mov  dptr, #X_RESP
        mov  r7, #4
    rh_ctr1:
        movx a, @r0
        cpl  a
        movx @dptr, a
        inc  dptr
        dec  r0
        djnz r7, rh_ctr1
        ret

        ; ---- SET PIN: the record of PUT bytes cleared (with the staged
        ; PIN: rm_unstage), then the PIN staged for the next COMMIT KEY;
        ; the length byte, written last, makes it valid
    rh_setpin:
        acall rm_unstage
        mov  dptr, #X_PINST
        mov  r1, #0
    rh_sp1:
        acall rm_pinb
        inc  dptr
        movx @dptr, a
        cjne r1, #PIN_MAX, rh_sp1
        mov  dptr, #X_PINST
        mov  a, R_LC
        movx @dptr, a
        ret
        ; C = a PIN is staged (its length PIN_MIN .. PIN_MAX), DPTR = X_PINST
#ifdef CARD_ROM_NEAR
        .area RGAP (CODE)         ; (with rm_unstage: the gap's room)
#endif
    rm_pinst::
        mov  dptr, #X_PINST
        movx a, @dptr
        add  a, #(0x100 - PIN_MIN)
        clr  c
        subb a, #(PIN_MAX - PIN_MIN + 1)
        ret
#ifdef CARD_ROM_NEAR
        .area CSEG (CODE)
#endif
        ; A = the PIN byte R1, 0-padded past Lc (R1 + 1)
    rm_pinb:
        mov  P2, #(X_CMD >> 8)
        movx a, @r1
        mov  r5, a
        mov  a, r1
        clr  c
        subb a, R_LC              ; C = R1 < Lc (public: the length sent)
        subb a, 0xe0              ; 0xFF iff C
        anl  a, r5
        inc  r1
        ret


        ; ---- SIGN: no key 6985, the PIN 6982 / 6983, the counter 6985
    rh_sign:
        acall rm_active
        jnz  rs_6985
        mov  a, _rm_pin
        jnz  rs_pin
        inc  dptr
        inc  dptr                 ; X_TRIES
        movx a, @dptr
        jz   rs_6983
        ajmp rm_sw_6982
    rs_pin:
        acall rm_ctr
        jz   rs_6985
        ljmp _sign_rom            ; (it sets rm_la, or 6A80)
    rs_6985:
        ajmp rm_sw_6985
    rs_6983:
        ajmp rm_sw_6983
#ifndef CARD_ROM_NO_CHECK
    rs_6a80:                      ; (the check put the staged key's
        lcall _rk_tfill           ; coefficients in the term records)
        ajmp rm_sw_6a80
#endif

        ; ---- COMMIT KEY: every byte PUT and a PIN staged (6985), then the
        ; record of PUT bytes cleared, the check (6A80: the old key kept),
        ; then the install through the journal
    rh_commit:
        mov  dptr, #X_WMAP
        mov  r7, #(SK_BYTES / 8)
        mov  r3, #0xFF
    rk_wm:
        movx a, @dptr
        anl  0x03, a       ; R3 (bank 0)
        inc  dptr
        djnz r7, rk_wm
#if SK_BYTES % 8
        movx a, @dptr
        orl  a, #((0xFF << (SK_BYTES % 8)) & 0xFF)
        anl  0x03, a       ; R3 (bank 0)
#endif
        cjne r3, #0xFF, rs_6985
        acall rm_pinst
        jnc  rs_6985
        acall rm_wclr             ; the record, cleared before the check
#ifndef CARD_ROM_NO_CHECK
        NCALL _rm_points          ; (A = 0: the key passes)
        jnz  rs_6a80
#ifndef CARD_ROM_POINT_ONLY
        lcall _rm_check
        jz   rs_6a80
#endif
#endif
        NCALL _rm_kcard
        mov  dptr, #X_JRNL
        mov  a, #NV_MAGIC
        movx @dptr, a
        NJMP _rm_install

        ; A key install takes its PIN and every byte of its key from the
        ; session that commits it (docs/CARD.md, Threat model): at reset
        ; the staged PIN is used up and the record of PUT bytes cleared;
        ; SET PIN and COMMIT KEY (before its check) clear the record
#ifdef CARD_ROM_NEAR
        .area RGAP (CODE)
#endif
    rm_unstage::
        mov  dptr, #X_PINST
        mov  a, #0xFF
        movx @dptr, a
    rm_wclr:
        mov  dptr, #X_WMAP
        mov  r7, #WMAP_BYTES
        clr  a
    rk_wc:
        movx @dptr, a
        inc  dptr
        djnz r7, rk_wc
        ret
#ifdef CARD_ROM_NEAR
        .area CSEG (CODE)
#endif

        ; the signature counter (ctr_advance of sign.c): sig_ctr = c and
        ; ~(c + 1) to the other slot (the slot not in use), then A = 0 if
        ; c = 2^32 - 1 was the last one (the borrow out of ~c - 1: the
        ; switch stays), else the switch and A = 1
    rm_ctr:
        acall rm_ctrp
        mov  a, r0
        xrl  a, #((X_CTR & 0xFF) ^ ((X_CTR + 4) & 0xFF))
        mov  r1, a
        mov  dptr, #_sig_ctr
        mov  r7, #4
        setb c
    rc_b:
        movx a, @r0
        mov  r5, a
        cpl  a
        movx @dptr, a
        inc  dptr
        mov  a, r5
        subb a, #0
        movx @r1, a
        inc  r0
        inc  r1
        djnz r7, rc_b
        clr  a
        jc   rc_ret               ; public: the counter exhausted
        mov  r1, #(X_CSEL & 0xFF)
        movx a, @r1
        cpl  a
        anl  a, #1
        movx @r1, a
        mov  a, #1
    rc_ret:
        ret

        ; ---- PUT KEY: the staging copy and its map (a byte, then its bit)
    rh_put:
        clr  c                    ; sk - offset
        mov  a, #(SK_BYTES & 0xFF)
        subb a, R_P2
        mov  r2, a
        mov  a, #(SK_BYTES >> 8)
        subb a, R_P1
        jc   rp_6a86              ; offset > sk
        jnz  rp_lc                ; sk - offset > 255
        mov  a, r2
        jz   rp_6a86              ; offset = sk
        clr  c
        subb a, R_LC
        jc   rp_6a86              ; offset + Lc > sk
    rp_lc:
        mov  a, R_LC
        jz   rp_6700
        mov  r7, a
        mov  dpl, R_P2            ; DPTR: the staging copy's byte
        mov  a, R_P1              ; (X_STAGE: a page, card_map.h)
        add  a, #(X_STAGE >> 8)
        mov  dph, a
        mov  a, R_P2              ; R3: the map's bit, 1 << (offset & 7)
        anl  a, #7
        mov  r4, a
        inc  r4
        mov  a, #0x80
    rp_bit:
        rl   a
        djnz r4, rp_bit
        mov  r3, a
        mov  a, R_P2              ; R0: the map's byte, offset >> 3 (P1 < 8)
        anl  a, #0xF8
        orl  a, R_P1
        rr   a
        rr   a
        rr   a
        add  a, #(X_WMAP & 0xFF)
        mov  r0, a
        mov  r1, #(X_CMD & 0xFF)
    rp_byte:
        mov  P2, #(X_CMD >> 8)
        movx a, @r1
        inc  r1
        movx @dptr, a
        inc  dptr
        mov  P2, #(X_WMAP >> 8)
        movx a, @r0
        orl  a, r3
        movx @r0, a
        mov  a, r3
        rl   a
        mov  r3, a
        jnb  acc.0, rp_next       ; public: the offset
        inc  r0
    rp_next:
        djnz r7, rp_byte
        ret
    rp_6a86:                      ; (past 0x0800: LJMP, or AJMP where the
                                  ; link allows it: NJMP)
        NJMP rm_sw_6a86
    rp_6700:
        NJMP rm_sw_6700
    __endasm;
}
