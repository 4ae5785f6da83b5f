/* SPDX-License-Identifier: MIT */
/*
 * The ChaCha20 block function (RFC 8439) of the card images, in its
 * variants: the C twin (-DCARD_C_KERNELS without CARD_ASM_CHACHA, on
 * ISCR), the assembly block with its rounds written out, and the 4 KB ROM
 * image's rolled rounds (-DCARD_ROM_4K). The keystream around it (the
 * input block, the stream key, the bytes taken): chacha.c.
 */
#include "chacha.h"

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
#ifdef CARD_ROM
        djnz r6, cc_more            ; (the jump back after the block's end)
#else
        djnz r6, cc_more
        sjmp cc_fin
    cc_more:
        ljmp cc_rnd
#endif
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
#if defined(CARD_ROM) && !defined(CARD_ROM_4K)
    cc_more:
        ljmp cc_rnd
#endif
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
