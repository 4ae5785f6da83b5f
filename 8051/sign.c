/* SPDX-License-Identifier: MIT */
/*
 * Signing (docs/SPEC.md section 7): u = S1 h + s1; per attempt v ChaCha20
 * bytes as vinegar, the four layers solved in turn (all four are always
 * solved, so the time depends only on the number of attempts), then
 * sigma = S3 x + s3. Digest at X_CMD, signature to X_RESP. The work
 * (layer system, u) is in the scratch at X_WS, beside the public-key cache.
 * The stream's key is the card's own (docs/SPEC.md section 7.4; chacha.c:
 * stream_init_card): one ChaCha20 block keyed by the stream secret K_card
 * of the installed key, block counter = the signature counter c, nonce =
 * h[0..12), whose first 32 bytes XOR h[12..m) are the key.
 */
#include "kernels.h"
#include "protocol.h"

__xdata uint8_t sig_ctr[4];

/* The signature counter: slot (X_CSEL & 1) holds ~c; ~(c + 1) = ~c - 1 goes
 * to the other slot, then X_CSEL flips (one byte, written last). A cut
 * leaves c or c + 1 stored, and the signature of c is computed only after
 * c + 1 is. The same cycles for every c (borrow by arithmetic). */
uint8_t ctr_advance(void)
{
    uint8_t s = XB(X_CSEL) & 1, i, b, z = 0, borrow = 1;
    uint16_t from = X_CTR + 4 * s, to = X_CTR + 4 * (s ^ 1), t;
    for (i = 0; i < 4; i++)
        z |= XB(from + i);
    if (!z) /* public: c = 2^32 - 1 was the last one */
        return 0;
    for (i = 0; i < 4; i++) {
        b = XB(from + i);
        sig_ctr[i] = (uint8_t)~b;
        t = (uint16_t)b - borrow;
        XB(to + i) = (uint8_t)t;
        borrow = (uint8_t)(t >> 8) & 1;
    }
    XB(X_CSEL) = s ^ 1;
    return 1;
}

/* The four layers: first variable, size, first term, number of terms. */
#define L0 V, A, TTS_LAYER0, TTS_LAYER1 - TTS_LAYER0
#define L1 V + A, 1, TTS_LAYER1, TTS_LAYER2 - TTS_LAYER1
#define L2 V + A + 1, 1, TTS_LAYER2, TTS_LAYER3 - TTS_LAYER2
#define L3 V + A + 2, B, TTS_LAYER3, TTS_LAYER4 - TTS_LAYER3

/* The assembly layer_build keeps x scalars at IA[XS_OFF .. XS_OFF + 2 lo)
 * and layer_solve its scratch at IA[IX_OFF - 3 dim .. IX_OFF) (or below
 * XS_OFF, card.h): when they never meet, each layer converts only the x values the previous one solved
 * (from = the previous layer's first variable). */
#if !defined(CARD_C_KERNELS) && (XS_OFF >= 3 * LDMAX || \
    (2 * (V + A) + 3 * A <= IX_OFF && 2 * (V + A + 2) + 3 <= IX_OFF))
#define XS_INC 1
#else
#define XS_INC 0
#endif

#define SOLVE_(lo, dim, t0, nt, from) \
    (layer_build(lo, dim, t0, nt, from), layer_solve(lo, dim))
#define solve_layer(layer, from) SOLVE_(layer, from)

#ifdef CARD_128_ASM
/*
 * The 128-byte family's assembly signing keeps its arena IA at the top of
 * the 128 bytes (card.h: IA_ABS), over the spill bytes of the key set-up
 * code and the command stack, which key set-up needs and signing does not;
 * so SIGN runs on a stack of its own, from sign_sp (the last data byte of
 * the signing modules: build-image.sh links them first and checks the
 * room up to IA) over those set-up spill bytes, and the command stack's
 * first SG_FRAMES bytes (main's and apdu_run's return addresses, the
 * stack being 4 deep when SIGN starts) wait in XDATA meanwhile.
 */
#define SG_FRAMES 8
__data uint8_t sign_sp;
__xdata uint8_t sign_frames[SG_FRAMES];
uint16_t sign_run(void);

uint16_t sign(void) __naked
{
    __asm
        mov  _sign_sp, sp
        mov  r0, #__start__stack
        mov  r7, #SG_FRAMES
        mov  dptr, #_sign_frames
    sg_save:
        mov  a, @r0
        movx @dptr, a
        inc  r0
        inc  dptr
        djnz r7, sg_save
        mov  sp, #_sign_sp
        lcall _sign_run
        mov  r2, dpl
        mov  r3, dph
        mov  r0, #__start__stack
        mov  r7, #SG_FRAMES
        mov  dptr, #_sign_frames
    sg_back:
        movx a, @dptr
        mov  @r0, a
        inc  r0
        inc  dptr
        djnz r7, sg_back
        mov  dpl, r2
        mov  dph, r3
        mov  sp, _sign_sp
        ret
    __endasm;
}

uint16_t sign_run(void)
#else
uint16_t sign(void)
#endif
{
    uint8_t ok;
    uint16_t attempt;
    pk_cur = 0xFF;              /* the layers overwrite the pk scalars (X_WS) */
    stream_init_card();
    xcopy_i(X_CMD, (arena_t)(uint16_t)IX, M);
    matvec_sign((uint16_t)K1_RUNS, X_Ks1, X_U, M, M);
    for (attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        stream_take((arena_t)(uint16_t)IX, V);
        /* all four, always (&, not &&) */
        ok = solve_layer(L0, 0);
        ok &= solve_layer(L1, XS_INC ? V : 0);
        ok &= solve_layer(L2, XS_INC ? V + A : 0);
        ok &= solve_layer(L3, XS_INC ? V + A + 1 : 0);
        if (ok) { /* declassified: the attempt succeeded */
            matvec_sign((uint16_t)K3_RUNS, X_Ks3, X_RESP, N, N);
            stream_wipe();
            return 0;
        }
    }
    stream_wipe();
    return CARD_SW_DATA;
}
