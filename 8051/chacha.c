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
 * CARD_ASM_CHACHA) works on ISCR; both give the same stream.
 */
#include "kernels.h"

#define SIN    ((__xdata uint32_t *)X_STR)
#define SCTR   (*(__xdata uint32_t *)(X_STR + 48))
#define SBLK   XP(X_STR + 64)

#if (X_STR & 0xFF) != 0
#error "chacha.c: the ChaCha20 page must start on a 256-byte boundary"
#endif

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
        lcall cc_t0
        push 0x02
        push 0x03
        lcall _chacha_block
        lcall cc_t0
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
        lcall cc_xmv
        clr  a
        mov  r7, #16
    cc_si_zero:
        movx @r1, a
        inc  r1
        djnz r7, cc_si_zero
        mov  _st_pos, #64
        ret
        ; XDATA DPTR -> P2:R1, R7 bytes
    cc_xmv:
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
#ifdef CARD_ROM_FILL_GAP
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
#ifdef CARD_ROM_FILL_GAP
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
        lcall cc_xmv
        mov  dptr, #_sig_ctr
        mov  r7, #4
        lcall cc_xmv
        mov  dptr, #X_CMD
        mov  r7, #12
        lcall cc_xmv
        lcall CC_BLOCK
        mov  dptr, #(X_STR + 64)    ; (sigma stays)
        mov  r1, #((X_STR + 16) & 0xff)
        lcall cc_si_k
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
        lcall cc_fill
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
        ljmp _rk_l1in
#if 64 % V
    cc_tb:                          ; byte by byte: n and dst on the stack
        push 0x07
        push 0x00
        lcall _stream_byte
        pop  0x00
        pop  0x07
        mov  a, dpl
        lcall _rk_l1of
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
        lcall cc_fill
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
        lcall CC_BLOCK
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

#if defined(CARD_C_KERNELS) && !defined(CARD_ASM_CHACHA)
#define X ((__idata uint32_t *)ISCR)
#define rotl(v, s) (((v) << (s)) | ((v) >> (32 - (s))))

static void qr(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
    X[a] += X[b]; X[d] = rotl(X[d] ^ X[a], 16);
    X[c] += X[d]; X[b] = rotl(X[b] ^ X[c], 12);
    X[a] += X[b]; X[d] = rotl(X[d] ^ X[a], 8);
    X[c] += X[d]; X[b] = rotl(X[b] ^ X[c], 7);
}

void chacha_block(void) __reentrant
{
    uint8_t i;
    __xdata uint32_t *out = (__xdata uint32_t *)(X_STR + 64);
    for (i = 0; i < 16; i++)
        X[i] = SIN[i];
    for (i = 0; i < 10; i++) {
        qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
        qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
    }
    for (i = 0; i < 16; i++)
        out[i] = X[i] + SIN[i];
    SCTR++;
}
#else
/*
 * The assembly block function. Word w of the state sits at 0x40 + 4 w
 * (little endian); "slot" (r, i) is word 4 r + i (row r = a, b, c, d).
 *
 * One round = four quarter rounds written out with direct addresses, one
 * per slot column i; the same code serves the column and the diagonal
 * rounds. A column round leaves the word of row r processed in column i in
 * slot (r, (r - i) mod 4): each row is permuted by an involution, so after
 * it the columns of slots hold the diagonals (column i = diagonal quarter
 * round -i), and the next pass of the same code puts every word back home.
 * The permutation costs nothing where the word stays (fixed points) or is
 * written by the first quarter round of a swapped pair; the second one
 * writes its last value of that row into the partner's slot and moves the
 * partner's value into its own (the *X macros, 4 cycles more). Six such
 * swaps per round.
 *
 * Rotations: by 16 and 8 through XCH chains as the bytes are produced, by
 * 12 = byte rotation + SWAP + an XCHD chain, by 7 = byte rotation + RRC
 * through the word. 102..115 cycles per quarter round
 * (434 per round, 20 rounds in a loop).
 *
 * The 4 KB ROM image (-DCARD_ROM_4K) rolls the rounds instead (270 B
 * against 874, about 27.5k cycles a block against 10.3k): quarter round i
 * of a round takes the words i of row a and (i + k S / 4) mod 4 of row k
 * = b, c, d (S = 0 in a column round, 4 in a diagonal one: the addresses
 * R2..R5 from i and the round's parity, public), then four steps cc_sa /
 * cc_sc (x += y; z = (z ^ x) <<< 8, the byte rotation folded into the
 * XOR's writes) and the rest of each rotation: cc_r8 (16), cc_r4 (12),
 * cc_rr1 (7 = 8 - 1). The steps address the state through R0, R1 and DPL
 * (DPTR is not kept) and are called with the state in place: the chain
 * into them stays below 0x40 (build-image.sh checks it).
 *
 * Both: no branch on the data, no secret-dependent address.
 *
 * Init: P2 = page of X_STR, so that MOVX @R0 with R0 = 0x40 + k reaches
 * the output byte X_STR + 64 + k (the state base is 64 for that reason): the input block goes in, the old RAM
 * byte is parked there. Final: out = state + input, the parked byte goes
 * back. Then the block counter is incremented.
 */
void chacha_block(void) __reentrant __naked
{
    __asm

    .macro CC_ADD x, y
        mov  a, x
        add  a, y
        mov  x, a
        mov  a, x+1
        addc a, y+1
        mov  x+1, a
        mov  a, x+2
        addc a, y+2
        mov  x+2, a
        mov  a, x+3
        addc a, y+3
        mov  x+3, a
    .endm
    ; x += y, with A = y on entry (after CC_XR16)
    .macro CC_ADDA x, y
        add  a, x
        mov  x, a
        mov  a, x+1
        addc a, y+1
        mov  x+1, a
        mov  a, x+2
        addc a, y+2
        mov  x+2, a
        mov  a, x+3
        addc a, y+3
        mov  x+3, a
    .endm
    ; p := x + y, x := old p
    .macro CC_ADDX x, y, p
        mov  a, x
        add  a, y
        xch  a, p
        mov  x, a
        mov  a, x+1
        addc a, y+1
        xch  a, p+1
        mov  x+1, a
        mov  a, x+2
        addc a, y+2
        xch  a, p+2
        mov  x+2, a
        mov  a, x+3
        addc a, y+3
        xch  a, p+3
        mov  x+3, a
    .endm
    ; The CC_XR* macros expect A = y+3 on entry: the last byte that the
    ; CC_ADD before them wrote (CC_ADDX leaves the old partner byte in A: load
    ; it). CC_XR16 leaves A = x (for CC_ADDA).
    ; x := (x ^ y) <<< 16
    .macro CC_XR16 x, y
        xrl  a, x+3
        xch  a, x+1
        xrl  a, y+1
        mov  x+3, a
        mov  a, x
        xrl  a, y
        xch  a, x+2
        xrl  a, y+2
        mov  x, a
    .endm
    ; x := (x ^ y) <<< 12
    .macro CC_XR12 x, y
        xrl  a, x+3
        swap a
        xch  a, x
        xrl  a, y
        swap a
        xch  a, x+1
        xrl  a, y+1
        swap a
        xch  a, x+2
        xrl  a, y+2
        swap a
        mov  x+3, a
        mov  r0, #x
        xchd a, @r0
        inc  r0
        xchd a, @r0
        inc  r0
        xchd a, @r0
        inc  r0
        xchd a, @r0
    .endm
    ; x := (x ^ y) <<< 8
    .macro CC_XR8 x, y
        xrl  a, x+3
        xch  a, x
        xrl  a, y
        xch  a, x+1
        xrl  a, y+1
        xch  a, x+2
        xrl  a, y+2
        mov  x+3, a
    .endm
    ; p := (x ^ y) <<< 8, x := old p
    .macro CC_XR8X x, y, p
        xrl  a, x+3
        xch  a, p
        xch  a, x
        xrl  a, y
        xch  a, p+1
        xch  a, x+1
        xrl  a, y+1
        xch  a, p+2
        xch  a, x+2
        xrl  a, y+2
        xch  a, p+3
        mov  x+3, a
    .endm
    ; x := (x ^ y) <<< 7
    .macro CC_XR7 x, y
        xrl  a, x+3
        mov  r7, a
        rrc  a
        mov  a, x+2
        xrl  a, y+2
        rrc  a
        mov  x+3, a
        mov  a, x+1
        xrl  a, y+1
        rrc  a
        mov  x+2, a
        mov  a, x
        xrl  a, y
        rrc  a
        mov  x+1, a
        mov  a, r7
        rrc  a
        mov  x, a
    .endm
    ; p := (x ^ y) <<< 7, x := old p
    .macro CC_XR7X x, y, p
        xrl  a, x+3
        mov  r7, a
        rrc  a
        mov  a, x+2
        xrl  a, y+2
        rrc  a
        xch  a, p+3
        mov  x+3, a
        mov  a, x+1
        xrl  a, y+1
        rrc  a
        xch  a, p+2
        mov  x+2, a
        mov  a, x
        xrl  a, y
        rrc  a
        xch  a, p+1
        mov  x+1, a
        mov  a, r7
        rrc  a
        xch  a, p
        mov  x, a
    .endm
    ; the first three steps of a quarter round, in place
    .macro CC_QH x, y, z, w
        CC_ADD  x, y
        CC_XR16 w, x
        CC_ADDA z, w
        CC_XR12 y, z
    .endm
    cc_a0 = 0x40
    cc_a1 = 0x44
    cc_a2 = 0x48
    cc_a3 = 0x4C
    cc_b0 = 0x50
    cc_b1 = 0x54
    cc_b2 = 0x58
    cc_b3 = 0x5C
    cc_c0 = 0x60
    cc_c1 = 0x64
    cc_c2 = 0x68
    cc_c3 = 0x6C
    cc_d0 = 0x70
    cc_d1 = 0x74
    cc_d2 = 0x78
    cc_d3 = 0x7C

        push 0xa0                   ; P2
        push 0xa8                   ; IE
        clr  0xaf                   ; EA = 0: no push while the state is in place
        mov  0xa0, #(X_STR >> 8)
        ; state := input block; old RAM bytes parked in the output block
        mov  r0, #cc_a0
        mov  r1, #(X_STR & 0xff)
#ifdef CARD_ROM
        ; (the ROM family: a byte a pass, and the output below a word a pass)
        mov  r7, #64
    cc_in:
        movx a, @r1
        xch  a, @r0
        movx @r0, a
        inc  r0
        inc  r1
        djnz r7, cc_in
#else
        mov  r7, #16
    cc_in:
        movx a, @r1
        xch  a, @r0
        movx @r0, a
        inc  r0
        inc  r1
        movx a, @r1
        xch  a, @r0
        movx @r0, a
        inc  r0
        inc  r1
        movx a, @r1
        xch  a, @r0
        movx @r0, a
        inc  r0
        inc  r1
        movx a, @r1
        xch  a, @r0
        movx @r0, a
        inc  r0
        inc  r1
        djnz r7, cc_in
#endif

#ifdef CARD_ROM_4K
        ; (the 4 KB ROM image: the rounds rolled, their steps below)
        mov  r6, #20
    cc_rnd:
        mov  a, r6                  ; S = 0 in a column round (R6 even),
        anl  a, #1                  ; 4 in a diagonal one
        rl   a
        rl   a
        mov  b, a
        mov  r7, #0                 ; 4 i, quarter round i
    cc_q:
        mov  a, r7                  ; R2..R5 = the words a, b, c, d: word
        add  a, #cc_a0              ; i of row a, word (i + k S / 4) mod 4
        mov  r2, a                  ; of row k = 1, 2, 3
        mov  a, r7
        add  a, b
        mov  r0, a
        anl  a, #12
        orl  a, #cc_b0
        mov  r3, a
        mov  a, r0
        add  a, b
        mov  r0, a
        anl  a, #12
        orl  a, #cc_c0
        mov  r4, a
        mov  a, r0
        add  a, b
        anl  a, #12
        orl  a, #cc_d0
        mov  r5, a
        lcall cc_sa                 ; a += b; d ^= a; d <<<= 16
        lcall cc_r8
        lcall cc_sc                 ; c += d; b ^= c; b <<<= 12
        lcall cc_r4
        lcall cc_sa                 ; a += b; d ^= a; d <<<= 8
        lcall cc_sc                 ; c += d; b ^= c; b <<<= 7
        lcall cc_rr1
        mov  a, r7
        add  a, #4
        mov  r7, a
        cjne a, #16, cc_q
        djnz r6, cc_rnd
        sjmp cc_fin
#else
        mov  r6, #20
    cc_rnd:
        ; slot column 0 (column 0 / diagonal 0)
        CC_QH   cc_a0, cc_b0, cc_c0, cc_d0
        CC_ADD  cc_a0, cc_b0
        CC_XR8  cc_d0, cc_a0
        CC_ADD  cc_c0, cc_d0
        CC_XR7  cc_b0, cc_c0
        ; slot column 1 (column 1 / diagonal 3)
        CC_QH   cc_a1, cc_b1, cc_c1, cc_d1
        CC_ADD  cc_a1, cc_b1
        CC_XR8  cc_d1, cc_a1
        CC_ADD  cc_c1, cc_d1
        CC_XR7X cc_b1, cc_c1, cc_b0
        ; slot column 2 (column 2 / diagonal 2)
        CC_QH   cc_a2, cc_b2, cc_c2, cc_d2
        CC_ADD  cc_a2, cc_b2
        CC_XR8X cc_d2, cc_a2, cc_d1
        CC_ADDX cc_c2, cc_d1, cc_c0
        mov  a, cc_c0+3
        CC_XR7  cc_b2, cc_c0
        ; slot column 3 (column 3 / diagonal 1)
        CC_QH   cc_a3, cc_b3, cc_c3, cc_d3
        CC_ADDX cc_a3, cc_b3, cc_a1
        mov  a, cc_a1+3
        CC_XR8X cc_d3, cc_a1, cc_d0
        CC_ADD  cc_c3, cc_d0
        CC_XR7X cc_b3, cc_c3, cc_b2
        djnz r6, cc_more
        sjmp cc_fin
    cc_more:
        ljmp cc_rnd
#endif
    cc_fin:
        ; output := state + input block; parked RAM bytes back
        mov  r0, #cc_a0
        mov  r1, #(X_STR & 0xff)
        mov  r7, #16
#ifdef CARD_ROM
    cc_out:
        clr  c
        mov  r6, #4
    cc_ob:
        movx a, @r1
        mov  r2, a
        movx a, @r0
        xch  a, @r0
        addc a, r2
        movx @r0, a
        inc  r0
        inc  r1
        djnz r6, cc_ob
        djnz r7, cc_out
#else
    cc_out:
        movx a, @r1
        mov  r2, a
        movx a, @r0
        xch  a, @r0
        add  a, r2
        movx @r0, a
        inc  r0
        inc  r1
        movx a, @r1
        mov  r2, a
        movx a, @r0
        xch  a, @r0
        addc a, r2
        movx @r0, a
        inc  r0
        inc  r1
        movx a, @r1
        mov  r2, a
        movx a, @r0
        xch  a, @r0
        addc a, r2
        movx @r0, a
        inc  r0
        inc  r1
        movx a, @r1
        mov  r2, a
        movx a, @r0
        xch  a, @r0
        addc a, r2
        movx @r0, a
        inc  r0
        inc  r1
        djnz r7, cc_out
#endif
        ; block counter + 1
        mov  r1, #((X_STR + 48) & 0xff)
        movx a, @r1
        add  a, #1
        movx @r1, a
        inc  r1
        movx a, @r1
        addc a, #0
        movx @r1, a
        inc  r1
        movx a, @r1
        addc a, #0
        movx @r1, a
        inc  r1
        movx a, @r1
        addc a, #0
        movx @r1, a
        pop  0xa8                   ; IE (a pending Timer 0 overflow is taken now)
        pop  0xa0
        ret
#ifdef CARD_ROM_4K
        ; The rolled rounds' steps, on the words at R0, R1 and DPL (the
        ; state's addresses): one return address on the stack, which stays
        ; below the state (the tests measure its peak).
    cc_sa:                          ; x = a, y = b, z = d
        mov  a, r2
        mov  r0, a
        mov  a, r3
        mov  r1, a
        mov  dpl, r5
        sjmp cc_st
    cc_sc:                          ; x = c, y = d, z = b
        mov  a, r4
        mov  r0, a
        mov  a, r5
        mov  r1, a
        mov  dpl, r3
    cc_st:                          ; x += y; z := (z ^ x) <<< 8
        clr  c
        .rept 4
        mov  a, @r1
        addc a, @r0
        mov  @r0, a
        inc  r0
        inc  r1
        .endm
        dec  r0
        mov  a, dpl
        add  a, #3
        mov  r1, a
        mov  a, @r0
        xrl  a, @r1                 ; byte 3, to byte 0
        mov  r1, dpl
        dec  r0
        dec  r0
        dec  r0
        .rept 3
        xch  a, @r1                 ; byte k from below, A = byte k
        xrl  a, @r0
        inc  r0
        inc  r1
        .endm
        xch  a, @r1
        ret
    cc_r8:                          ; z <<<= 8
        mov  r1, dpl
        mov  a, r1
        add  a, #3
        mov  r0, a
        mov  a, @r0
        xch  a, @r1
        inc  r1
        xch  a, @r1
        inc  r1
        xch  a, @r1
        mov  @r0, a
        ret
    cc_r4:                          ; z <<<= 4: each byte's nibbles swapped,
        mov  r0, dpl                ; then its low nibble from the byte below
        .rept 4
        mov  a, @r0
        swap a
        mov  @r0, a
        inc  r0
        .endm
        mov  r0, dpl
        .rept 3
        xchd a, @r0
        inc  r0
        .endm
        xchd a, @r0
        ret
    cc_rr1:                         ; z >>>= 1
        mov  r0, dpl
        mov  a, @r0
        rrc  a                      ; C = bit 0
        inc  r0
        inc  r0
        inc  r0
        .rept 4
        mov  a, @r0
        rrc  a
        mov  @r0, a
        dec  r0
        .endm
        ret
#endif
    __endasm;
}
#endif
