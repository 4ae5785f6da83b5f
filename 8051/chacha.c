/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 keystream (RFC 8439 block function; key = 32 bytes, nonce zero,
 * block counter from 0), consumed byte by byte.
 *
 * XDATA page X_STR (owned by this module):
 *   X_STR + 0 .. 63    the input block: "expand 32-byte k", key (+16),
 *                      block counter (+48, little endian), nonce 0 (+52)
 *   X_STR + 64 .. 127  the current keystream block
 * The block function of the assembly build (chacha_block below) keeps the
 * 16-word working state in the lower internal RAM at 0x40..0x7F,
 * where every byte is direct-addressable; the old contents of those 64
 * bytes are parked in the output block while it runs and put back at the
 * end, so a block changes no internal RAM. Those 64 bytes may hold the
 * stack (always so in the 128-byte images): the block holds the
 * interrupts off (EA = 0) while the state is in place, so nothing is
 * pushed there; a block takes about 10k machine cycles, less than one
 * Timer 0 period, so at most one overflow is pending and the interrupt
 * counts it when IE is restored. The C twin (-DCARD_C_KERNELS without
 * CARD_ASM_CHACHA) works on ISCR; both give the same stream. The block
 * function's variants (the C twin, the written-out rounds, the 4 KB
 * image's rolled ones) are in chacha_block.c.
 */
#include "chacha.h"

__data uint8_t st_pos;
#ifndef CARD_ROM_NO_PROFILE
__xdata uint32_t prof_chacha;
#endif

#ifndef CARD_ROM
static
#endif
__code const uint8_t sigma[16] = {
    'e', 'x', 'p', 'a', 'n', 'd', ' ', '3', '2', '-', 'b', 'y', 't', 'e', ' ', 'k'
};

#if !defined(CARD_C_KERNELS) || defined(CARD_ASM_CHACHA)
/* CC_KEY_TAIL: digest bytes 12 .. m XORed into the stream key at
 * X_STR + 16 (P2 = the X_STR page; DPTR, R1, R2, R7 changed), an assembler
 * macro for both assembly stream_init_card below, defined in this first
 * block (the assembler reads the blocks in order); no code of its own. */
void cc_asm_macros(void) __naked
{
    __asm
    .macro CC_KEY_TAIL
        mov  dptr, #(X_CMD + 12)
        mov  r1, #((X_STR + 16) & 0xff)
        mov  r7, #(M - 12)
    cc_k_tail:
        movx a, @dptr
        mov  r2, a
        movx a, @r1
        xrl  a, r2
        movx @r1, a
        inc  dptr
        inc  r1
        djnz r7, cc_k_tail
    .endm
    __endasm;
}
#endif

#if defined(CARD_C_KERNELS) && !defined(CARD_ASM_CHACHA)
void stream_init(__xdata uint8_t *key)
{
    uint8_t i;
    __xdata uint8_t *in = XP(X_STR);
    for (i = 0; i < 16; i++)
        in[i] = sigma[i];
    for (i = 0; i < 32; i++)
        in[16 + i] = key[i];
    for (i = 48; i < 64; i++)
        in[i] = 0;
    st_pos = 64;
}
#elif !defined(CARD_ROM) /* (the ROM family's: below) */
/* The same in assembly: key in DPTR; the page through P2 and MOVX @R1. */
void stream_init(__xdata uint8_t *key) __naked
{
    key;
    __asm
        push 0xa0
        mov  0xa0, #(X_STR >> 8)
        mov  r2, dpl
        mov  r3, dph
        mov  dptr, #_sigma
        mov  r1, #(X_STR & 0xff)
        mov  r7, #16
    cc_si_sig:
        clr  a
        movc a, @a+dptr
        movx @r1, a
        inc  dptr
        inc  r1
        djnz r7, cc_si_sig
        mov  dpl, r2
        mov  dph, r3
        mov  r7, #32
    cc_si_key:
        movx a, @dptr
        movx @r1, a
        inc  dptr
        inc  r1
        djnz r7, cc_si_key
        clr  a
        mov  r7, #16
    cc_si_zero:
        movx @r1, a
        inc  r1
        djnz r7, cc_si_zero
        mov  _st_pos, #64
        pop  0xa0
        ret
    __endasm;
}
#endif

#if defined(CARD_C_KERNELS) && !defined(CARD_ASM_CHACHA)
void stream_wipe(void)
{
    uint8_t i;
    for (i = 16; i < 48; i++)
        XB(X_STR + i) = 0;
    for (i = 64; i < 128; i++)
        XB(X_STR + i) = 0;
}
#elif !defined(CARD_ROM)
/* The same: 5 cycles a byte (MOVX @R1 with P2 = the page). */
void stream_wipe(void) __naked
{
    __asm
        push 0xa0
        mov  0xa0, #(X_STR >> 8)
        clr  a
        mov  r1, #((X_STR + 16) & 0xff)
        mov  r7, #32
    cc_w_key:
        movx @r1, a
        inc  r1
        djnz r7, cc_w_key
        mov  r1, #((X_STR + 64) & 0xff)
        mov  r7, #64
    cc_w_blk:
        movx @r1, a
        inc  r1
        djnz r7, cc_w_blk
        pop  0xa0
        ret
    __endasm;
}
#endif

/*
 * The stream of a signature (docs/SPEC.md section 7.4): the block of
 * ChaCha20(K_card, counter c = sig_ctr, nonce = h[0..12)), whose first 32
 * bytes XOR (h[12..m) || 0) become the key of the stream (written straight
 * into the input block, counter and nonce 0). The digest is at X_CMD.
 */
#if defined(CARD_C_KERNELS) && !defined(CARD_ASM_CHACHA)
void stream_init_card(void)
{
    uint8_t i;
    __xdata uint8_t *in = XP(X_STR), *out = XP(X_STR + 64), *h = XP(X_CMD);
    stream_init(XP(X_KCARD));
    for (i = 0; i < 4; i++)
        in[48 + i] = sig_ctr[i];
    for (i = 0; i < 12; i++)
        in[52 + i] = h[i];
    chacha_block_prof();
    for (i = 0; i < 32; i++)
        in[16 + i] = out[i] ^ (i < M - 12 ? h[12 + i] : 0);
    for (i = 48; i < 64; i++)
        in[i] = 0;
    st_pos = 64;
}
#elif !defined(CARD_ROM)
/* The same in assembly (P2 = the X_STR page for MOVX @Ri). */
void stream_init_card(void) __naked
{
    __asm
        mov  dptr, #X_KCARD
        lcall _stream_init
        push 0xa0
        mov  0xa0, #(X_STR >> 8)
        mov  dptr, #_sig_ctr
        mov  r1, #((X_STR + 48) & 0xff)
        mov  r7, #4
    cc_k_ctr:
        movx a, @dptr
        inc  dptr
        movx @r1, a
        inc  r1
        djnz r7, cc_k_ctr
        mov  dptr, #X_CMD
        mov  r7, #12
    cc_k_non:
        movx a, @dptr
        inc  dptr
        movx @r1, a
        inc  r1
        djnz r7, cc_k_non
        pop  0xa0
        lcall _chacha_block_prof
        push 0xa0
        mov  0xa0, #(X_STR >> 8)
        mov  r0, #((X_STR + 64) & 0xff)
        mov  r1, #((X_STR + 16) & 0xff)
        mov  r7, #32
    cc_k_key:
        movx a, @r0
        movx @r1, a
        inc  r0
        inc  r1
        djnz r7, cc_k_key
        CC_KEY_TAIL
        clr  a
        mov  r1, #((X_STR + 48) & 0xff)
        mov  r7, #16
    cc_k_zero:
        movx @r1, a
        inc  r1
        djnz r7, cc_k_zero
        mov  _st_pos, #64
        pop  0xa0
        ret
    __endasm;
}
#endif

#ifdef CARD_ROM
/*
 * The ROM family (-DCARD_ROM): chacha_block_prof, stream_take and
 * stream_byte below in assembly (the C ones take twice the code). A block
 * takes less than 65536 cycles, so its time is the 16-bit difference of
 * Timer 0's count (cc_t0: R3:R2, TH0 read again until it held).
 */
#ifdef CARD_ROM_NO_PROFILE /* (no GET PROFILE: the blocks uncounted) */
#define CC_BLOCK _chacha_block
#else
#define CC_BLOCK _chacha_block_prof
void chacha_block_prof(void) __naked
{
    __asm
        NCALL cc_t0
        push 0x02
        push 0x03
        NCALL _chacha_block
        NCALL cc_t0
        pop  b                      ; t0, high
        pop  acc                    ; t0, low
        xch  a, r2
        clr  c
        subb a, r2
        mov  r2, a
        mov  a, r3
        subb a, b
        mov  r3, a
        mov  dptr, #_prof_chacha    ; += the block's cycles (little endian)
        movx a, @dptr
        add  a, r2
        movx @dptr, a
        inc  dptr
        movx a, @dptr
        addc a, r3
        movx @dptr, a
        mov  r7, #2
    cc_pc:
        inc  dptr
        movx a, @dptr
        addc a, #0
        movx @dptr, a
        djnz r7, cc_pc
        ret
    cc_t0:
        mov  a, TH0
        mov  r2, TL0
        cjne a, TH0, cc_t0
        mov  r3, a
        ret
    __endasm;
}
#endif

/*
 * stream_init, stream_wipe and stream_init_card of the ROM family: the
 * same streams; the X_STR page through P2 and MOVX @R1, left in P2. The
 * constant sigma is written once, at reset (rom.c), and stays: nothing
 * else writes X_STR + 0 .. 15. stream_wipe clears the key and the block
 * (X_STR + 16 .. 47, 64 .. 127; the counter and the nonce are public).
 * stream_init_card writes K_card, the counter and h[0 .. 12) straight into
 * the input block (no zeroing first), then moves the stream's key from
 * the block with stream_init's second half.
 */
void stream_init(__xdata uint8_t *key) __naked
{
    key;
    __asm
        mov  P2, #(X_STR >> 8)
        mov  r1, #((X_STR + 16) & 0xff)
        ; the key at DPTR to P2:R1 (X_STR + 16), then counter and nonce 0
    cc_si_k:
        mov  r7, #32
        NCALL cc_xmv
        clr  a
        mov  r7, #16
    cc_si_zero:
        movx @r1, a
        inc  r1
        djnz r7, cc_si_zero
        mov  _st_pos, #64
        ret
        ; XDATA DPTR -> P2:R1, R7 bytes (also rom_key.c's)
    cc_xmv::
        movx a, @dptr
        inc  dptr
        movx @r1, a
        inc  r1
        djnz r7, cc_xmv
        ret
    __endasm;
}

void cc_wipe(void) __naked /* (stream_wipe, placed by CARD_ROM_FILL_GAP) */
{
    __asm
#if defined(CARD_ROM_FILL_GAP) || defined(CARD_ROM_NEAR)
        .area RGAP (CODE)
#endif
    _stream_wipe::
        mov  P2, #(X_STR >> 8)
        mov  r1, #((X_STR + 16) & 0xff)
        clr  a
    cc_w:
        movx @r1, a
        inc  r1
        cjne r1, #((X_STR + 48) & 0xff), cc_w
        mov  r1, #((X_STR + 64) & 0xff)
    cc_wb:
        movx @r1, a
        inc  r1
        cjne r1, #((X_STR + 128) & 0xff), cc_wb
        ret
#if defined(CARD_ROM_FILL_GAP) || defined(CARD_ROM_NEAR)
        .area CSEG (CODE)
#endif
    __endasm;
}

void stream_init_card(void) __naked
{
    __asm
        mov  dptr, #X_KCARD       ; K_card, the counter, h[0 .. 12)
        mov  P2, #(X_STR >> 8)
        mov  r1, #((X_STR + 16) & 0xff)
        mov  r7, #32
        NCALL cc_xmv
        mov  dptr, #_sig_ctr
        mov  r7, #4
        NCALL cc_xmv
        mov  dptr, #X_CMD
        mov  r7, #12
        NCALL cc_xmv
        NCALL CC_BLOCK
        mov  dptr, #(X_STR + 64)    ; (sigma stays)
        NCALL _stream_init
        CC_KEY_TAIL
        ret
    __endasm;
}

/* dst (R0) [0 .. n) = the next n bytes of the stream in L1 form
 * (kernels_rom.c), n (k_cnt) <= 64: a new block first when the current one
 * is used up, then a copy when it holds them, else byte by byte. SIGN
 * takes n = v; where v divides 64 a block holds a whole number of
 * attempts, the copy always applies, and the byte path (with stream_byte)
 * is not assembled. */
void stream_take_k(void) __naked
{
    __asm
        push 0x00                   ; R0 (bank 0): dst
        NCALL cc_fill
        pop  0x00
        mov  r7, _k_cnt
        mov  a, _st_pos
        add  a, r7
        mov  r5, a
#if 64 % V
        clr  c
        subb a, #65
        jnc  cc_tb                  ; public: the position in the stream
#endif
        mov  a, _st_pos
        mov  _st_pos, r5
        add  a, #((X_STR + 64) & 0xff)
        mov  r1, a
        mov  P2, #(X_STR >> 8)
        NJMP _rk_l1in
#if 64 % V
    cc_tb:                          ; byte by byte: n and dst on the stack
        push 0x07
        push 0x00
        NCALL _stream_byte
        pop  0x00
        pop  0x07
        mov  a, dpl
        NCALL _rk_l1of
        mov  @r0, a
        inc  r0
        djnz r7, cc_tb
        ret
#endif
    __endasm;
}

uint8_t stream_byte(void) __naked
{
    __asm
#if 64 % V
        NCALL cc_fill
        mov  a, _st_pos
        inc  _st_pos
        add  a, #((X_STR + 64) & 0xff)
        mov  dpl, a
        clr  a
        addc a, #((X_STR + 64) >> 8)
        mov  dph, a
        movx a, @dptr
        mov  dpl, a
        ret
#endif
    cc_fill:
        mov  a, _st_pos
        cjne a, #64, cc_f1              ; public: the position in the stream
        NCALL CC_BLOCK
        mov  _st_pos, #0
    cc_f1:
        ret
    __endasm;
}
#else
void chacha_block_prof(void)
{
    uint32_t t0 = cycles_now();
    chacha_block();
    prof_chacha += cycles_now() - t0;
}

/* dst[0 .. n) = the next n bytes of the stream (n <= 64): a copy from the
 * current block when it holds them, else byte by byte */
void stream_take(arena_t dst, uint8_t n)
{
    ARENA uint8_t *d = (ARENA uint8_t *)dst;
    if ((uint8_t)(st_pos + n) <= 64) { /* public: the position in the stream */
        xcopy_i(X_STR + 64 + st_pos, dst, n);
        st_pos += n;
    } else
        do
            *d++ = stream_byte();
        while (--n);
}

uint8_t stream_byte(void)
{
    if (st_pos == 64) { /* public: position in the stream */
        uint32_t t0 = cycles_now();
        chacha_block();
        prof_chacha += cycles_now() - t0;
        st_pos = 0;
    }
    return SBLK[st_pos++];
}
#endif /* CARD_ROM */
