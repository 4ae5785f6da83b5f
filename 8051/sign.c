/*
 * Signing (docs/SPEC.md section 7): u = S1 h + s1; per attempt v ChaCha20
 * bytes as vinegar, the four layers solved in turn (all four are always
 * solved, so the time depends only on the number of attempts), then
 * sigma = S3 x + s3. Digest at X_CMD, randomness key at X_CMD + M,
 * signature to X_RESP.
 */
#include "card.h"

static __code const uint8_t LLO[5] = {V, V + A, V + A + 1, V + A + 2, N};
static __code const uint16_t LT[5] = {TTS_LAYER0, TTS_LAYER1, TTS_LAYER2,
                                      TTS_LAYER3, TTS_LAYER4};

#define WCOL(c) XP(X_WG + (uint16_t)(c) * GST)

#ifdef CARD_C_KERNELS
/* C twin of layer_asm (kernels.c) */
static void layer_build(uint8_t lo, uint8_t dim, uint16_t t0, uint16_t nt)
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
        __xdata uint8_t *p = XP(X_KCO + 2 * t);
        cu = GFT[(uint16_t)LOGLO(xu) + p[0]] & NZ(xu) & p[1];
        if (w >= lo) /* public: a matrix entry or a constant */
            WCOL(w - lo)[row] ^= cu;
        else
            rhs[row] ^= gmul(cu, IX[w]);
    }
}
#else
void layer_build(uint8_t lo, uint8_t dim, uint16_t t0, uint16_t nt);
#endif

static uint8_t solve_layer(uint8_t L)
{
    uint8_t lo = LLO[L], dim = LLO[L + 1] - lo, c;
    __xdata uint8_t *rhs = WCOL(dim);
    layer_build(lo, dim, LT[L], LT[L + 1] - LT[L]);
    c = gauss(X_WG, dim, dim + 1);
    for (lo = LLO[L]; dim; dim--, lo++)
        IX[lo] = *rhs++;
    return c;
}

uint16_t sign(void)
{
    uint8_t i, ok;
    uint16_t attempt;
    __xdata uint8_t *out = XP(X_RESP);
    stream_init(XP(X_CMD + M));
    for (i = 0; i < M; i++) {
        IX[i] = XB(X_CMD + i);
        ISCR[i] = 0;
    }
    matvec_lm(ISCR, X_KS1, IX, M, M, STM);
    for (i = 0; i < M; i++)
        XU[i] = ISCR[i] ^ XB(X_Ks1 + i);
    for (attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        for (i = 0; i < V; i++)
            IX[i] = stream_byte();
        ok = 1;
        for (i = 0; i < 4; i++)
            ok &= solve_layer(i);
        if (ok) { /* declassified: the attempt succeeded */
            for (i = 0; i < N; i++)
                ISCR[i] = 0;
            matvec_lm(ISCR, X_KS3, IX, N, N, STN);
            for (i = 0; i < N; i++)
                out[i] = ISCR[i] ^ XB(X_Ks3 + i);
            return 0;
        }
    }
    return 0x6A80;
}
