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

#define WCOL(c) XP(X_SL + (uint16_t)(c) * GST)

#ifdef CARD_C_KERNELS
/* C twin of layer_asm (kernels_sign.c) */
static void layer_build(uint8_t lo, uint8_t dim, uint16_t t0, uint16_t nt,
                        uint8_t from)
{
    uint8_t r, c;
    uint16_t t;
    __xdata uint8_t *rhs = WCOL(dim);
    for (c = 0; c < dim; c++) {
        __xdata uint8_t *col = WCOL(c);
        for (r = 0; r < dim; r++)
            col[r] = 0;
        col[c] = 1;
    }
    for (r = 0; r < dim; r++)
        rhs[r] = XU[lo + r - V];
    for (t = t0; t < t0 + nt; t++) {
        uint8_t row = TROW(t) - lo, w = TW(t), xu = IX[TU(t)], cu;
        uint8_t p = XB(X_KCO + t);          /* L1 */
        cu = GFT[(uint16_t)LOGLO(xu) + (uint8_t)(p - 1)] & NZ(xu) & L1MASK(p);
        if (w >= lo) /* public: a matrix entry or a constant */
            WCOL(w - lo)[row] ^= cu;
        else
            rhs[row] ^= gmul(cu, IX[w]);
    }
}
#else
/* from: x scalars below it are still in the scratch (kernels_sign.c) */
void layer_build(uint8_t lo, uint8_t dim, uint16_t t0, uint16_t nt,
                 uint8_t from);
#endif

#ifdef CARD_C_KERNELS
/* C twin of layer_solve (kernels_sign.c): Gauss-Jordan on the GST layout of
 * the twin layer_build; the same pivots (so the same verdict) and, for an
 * invertible system, the same (unique) solution. */
uint8_t layer_solve(uint8_t lo, uint8_t dim)
{
    uint8_t c = gauss(X_SL, dim, dim + 1);
    xcopy_i(X_SL + (uint16_t)dim * GST, (arena_t)(uint16_t)(IX + lo), dim);
    return c;
}

void xcopy_i(uint16_t src, arena_t dst, uint8_t n)
{
    ARENA uint8_t *d = (ARENA uint8_t *)dst;
    do
        *d++ = XB(src++);
    while (--n);
}

/* C twin of matvec_sign (kernels_sign.c): the run table at K */
void matvec_sign(uint16_t K, uint16_t s, uint16_t out, uint8_t rows,
                 uint8_t cols)
{
    /* (in the large model's data bytes: the linker's 255 XDATA bytes at
     * 0xFF00 are full in the largest set's 128-byte image) */
    __data uint8_t i, c, left = 0;
    __code const uint8_t *run = (__code const uint8_t *)K;
    __xdata uint8_t *p = 0;
    for (i = 0; i < rows; i++)
        ISCR[i] = XB(s + i);
    for (c = 0; c < cols; c++) {
        uint8_t x = IX[c];
        __code const uint8_t *base = GFT + LOGLO(x) + ((uint16_t)LOGHI(x) << 8);
        if (!left) { /* public: the next run */
            p = XP(((uint16_t)run[0] << 8) + run[1]);
            left = run[2];
            run += 3;
        }
        ARENA uint8_t *y = ISCR;
        for (i = 0; i < rows; i++) {
            uint8_t l = *p++;
            *y++ ^= base[(uint8_t)(l - 1)] & L1MASK(l);
        }
        left--;
    }
    for (i = 0; i < rows; i++)
        XB(out + i) = ISCR[i];
}
#endif

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
