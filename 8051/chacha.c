/*
 * ChaCha20 keystream (RFC 8439 block function; key = 32 bytes, nonce zero,
 * block counter from 0), consumed byte by byte. The 16-word working state
 * lives in ISCR; key, counter and the current block in XDATA at X_STR.
 * The block function is the C twin of chacha_asm.asm (-DCARD_C_KERNELS).
 */
#include "card.h"

#define SKEY   XP(X_STR)
#define SCTR   (*(__xdata uint32_t *)(X_STR + 32))
#define SBLK   XP(X_STR + 64)

__data uint8_t st_pos;
__xdata uint32_t prof_chacha;

void stream_init(__xdata uint8_t *key)
{
    uint8_t i;
    for (i = 0; i < 32; i++)
        SKEY[i] = key[i];
    SCTR = 0;
    st_pos = 64;
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

#define X ((__idata uint32_t *)ISCR)

static __code const uint32_t sigma[4] = {
    0x61707865UL, 0x3320646eUL, 0x79622d32UL, 0x6b206574UL
};

#ifdef CARD_C_KERNELS
#define rotl(v, s) (((v) << (s)) | ((v) >> (32 - (s))))

static void qr(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
    X[a] += X[b]; X[d] = rotl(X[d] ^ X[a], 16);
    X[c] += X[d]; X[b] = rotl(X[b] ^ X[c], 12);
    X[a] += X[b]; X[d] = rotl(X[d] ^ X[a], 8);
    X[c] += X[d]; X[b] = rotl(X[b] ^ X[c], 7);
}

static void rounds(void)
{
    uint8_t i;
    for (i = 0; i < 10; i++) {
        qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
        qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
    }
}
#else
/* The quarter rounds of one double round: byte addresses of a, b, c, d. */
static __code const uint8_t qidx[32] = {
    0, 16, 32, 48,  4, 20, 36, 52,  8, 24, 40, 56, 12, 28, 44, 60,
    0, 20, 40, 60,  4, 24, 44, 48,  8, 28, 32, 52, 12, 16, 36, 56
};

/*
 * Twenty rounds on the little-endian words at ISCR. qr: r2..r5 = idata
 * addresses of a, b, c, d. Rotations by 8 and 16 move bytes; by 12 = 8 + 4
 * (nibble swap with XCHD), by 7 = 8 - 1 (RRC through the word).
 */
static void rounds(void) __naked
{
    __asm
        mov  r7, #10
    cr_dbl:
        mov  r6, #0
    cr_q:
        mov  dptr, #_qidx
        mov  a, r6
        movc a, @a+dptr
        add  a, #_IA
        mov  r2, a
        inc  r6
        mov  a, r6
        movc a, @a+dptr
        add  a, #_IA
        mov  r3, a
        inc  r6
        mov  a, r6
        movc a, @a+dptr
        add  a, #_IA
        mov  r4, a
        inc  r6
        mov  a, r6
        movc a, @a+dptr
        add  a, #_IA
        mov  r5, a
        inc  r6
        lcall cr_qr
        cjne r6, #32, cr_q
        djnz r7, cr_dbl
        ret

    ; @r0 += @r1 (32 bit); r0, r1 advanced by 3
    cr_add:
        mov  a, @r0
        add  a, @r1
        mov  @r0, a
        inc  r0
        inc  r1
        mov  a, @r0
        addc a, @r1
        mov  @r0, a
        inc  r0
        inc  r1
        mov  a, @r0
        addc a, @r1
        mov  @r0, a
        inc  r0
        inc  r1
        mov  a, @r0
        addc a, @r1
        mov  @r0, a
        ret
    ; @r0 ^= @r1 (32 bit), then r0 back at the word
    cr_xor:
        mov  a, @r0
        xrl  a, @r1
        mov  @r0, a
        inc  r0
        inc  r1
        mov  a, @r0
        xrl  a, @r1
        mov  @r0, a
        inc  r0
        inc  r1
        mov  a, @r0
        xrl  a, @r1
        mov  @r0, a
        inc  r0
        inc  r1
        mov  a, @r0
        xrl  a, @r1
        mov  @r0, a
        dec  r0
        dec  r0
        dec  r0
        ret
    ; rotate the word at r0 left by 8
    cr_rot8:
        mov  a, r0
        add  a, #3
        mov  r1, a
        mov  a, @r1
        xch  a, @r0
        inc  r0
        xch  a, @r0
        inc  r0
        xch  a, @r0
        inc  r0
        mov  @r0, a
        dec  r0
        dec  r0
        dec  r0
        ret
    ; rotate the word at r0 left by 4 (after rot8: by 12)
    cr_rot4:
        mov  a, @r0
        swap a
        mov  @r0, a
        inc  r0
        mov  a, @r0
        swap a
        mov  @r0, a
        inc  r0
        mov  a, @r0
        swap a
        mov  @r0, a
        inc  r0
        mov  a, @r0
        swap a
        mov  @r0, a
        dec  r0
        dec  r0
        dec  r0
        xchd a, @r0
        inc  r0
        xchd a, @r0
        inc  r0
        xchd a, @r0
        inc  r0
        xchd a, @r0
        ret
    ; rotate the word at r0 right by 1 (after rot8: left by 7)
    cr_rotr1:
        mov  a, @r0
        rrc  a
        inc  r0
        inc  r0
        inc  r0
        mov  a, @r0
        rrc  a
        mov  @r0, a
        dec  r0
        mov  a, @r0
        rrc  a
        mov  @r0, a
        dec  r0
        mov  a, @r0
        rrc  a
        mov  @r0, a
        dec  r0
        mov  a, @r0
        rrc  a
        mov  @r0, a
        ret

    cr_qr:
        ; a += b; d ^= a; d <<<= 16
        mov  a, r2
        mov  r0, a
        mov  a, r3
        mov  r1, a
        lcall cr_add
        mov  a, r5
        mov  r0, a
        mov  a, r2
        mov  r1, a
        lcall cr_xor
        mov  a, r0
        add  a, #2
        mov  r1, a
        mov  a, @r0
        xch  a, @r1
        mov  @r0, a
        inc  r0
        inc  r1
        mov  a, @r0
        xch  a, @r1
        mov  @r0, a
        ; c += d; b ^= c; b <<<= 12
        mov  a, r4
        mov  r0, a
        mov  a, r5
        mov  r1, a
        lcall cr_add
        mov  a, r3
        mov  r0, a
        mov  a, r4
        mov  r1, a
        lcall cr_xor
        lcall cr_rot8
        lcall cr_rot4
        ; a += b; d ^= a; d <<<= 8
        mov  a, r2
        mov  r0, a
        mov  a, r3
        mov  r1, a
        lcall cr_add
        mov  a, r5
        mov  r0, a
        mov  a, r2
        mov  r1, a
        lcall cr_xor
        lcall cr_rot8
        ; c += d; b ^= c; b <<<= 7
        mov  a, r4
        mov  r0, a
        mov  a, r5
        mov  r1, a
        lcall cr_add
        mov  a, r3
        mov  r0, a
        mov  a, r4
        mov  r1, a
        lcall cr_xor
        lcall cr_rot8
        lcall cr_rotr1
        ret
    __endasm;
}
#endif

static uint32_t input(uint8_t i) __reentrant
{
    if (i < 4)
        return sigma[i];
    if (i < 12)
        return ((__xdata uint32_t *)X_STR)[i - 4];
    return i == 12 ? SCTR : 0;
}

void chacha_block(void) __reentrant
{
    uint8_t i;
    __xdata uint32_t *out = (__xdata uint32_t *)(X_STR + 64);
    for (i = 0; i < 16; i++)
        X[i] = input(i);
    rounds();
    for (i = 0; i < 16; i++)
        out[i] = X[i] + input(i);
    SCTR++;
}
