/*
 * Key set-up: on-card generation from a 32-byte seed (docs/SPEC.md section
 * 6, the host's expansion byte for byte), validation of a personalised key
 * (COMMIT KEY), and installation of the active key in internal form.
 * Both paths first build the raw secret key in X_STAGE and the inverses in
 * X_WG (A3) and X_WG2 (A1); the active key is written only once everything
 * has been checked, so a refused key never disturbs the previous one.
 */
#include "card.h"

#define STAGE XP(X_STAGE)
#define WG    XP(X_WG)
#define WG2   XP(X_WG2)
#define C3    XP(X_C3)

/* [S | I] into the column-major Gauss work W, S row-major dim x dim. */
static void load_aug(uint16_t W, __xdata uint8_t *S, uint8_t dim) __reentrant
{
    uint8_t r, c;
    for (c = 0; c < dim; c++) {
        __xdata uint8_t *col = XP(W + (uint16_t)c * GST);
        __xdata uint8_t *idc = XP(W + (uint16_t)(dim + c) * GST);
        for (r = 0; r < dim; r++) {
            col[r] = S[(uint16_t)r * dim + c];
            idc[r] = 0;
        }
        idc[c] = 1;
    }
}

/* y[k] = x[V+k] + sum_t p_t x[u_t] x[w_t], p raw at coef. */
void central_eval(__xdata uint8_t *y, __xdata uint8_t *x, uint16_t coef) __reentrant
{
    uint16_t t;
    uint8_t k;
    for (k = 0; k < M; k++)
        y[k] = x[V + k];
    for (t = 0; t < C; t++)
        y[TROW(t) - V] ^= gmul(XB(coef + t), gmul(x[TU(t)], x[TW(t)]));
}

/* c3 = A3 s3, A3 in the right half of X_WG. */
static void make_c3(void) __reentrant
{
    uint8_t r, c;
    __xdata uint8_t *s3 = STAGE + SK_s3;
    for (r = 0; r < N; r++) {
        uint8_t acc = 0;
        for (c = 0; c < N; c++)
            acc ^= gmul(XB(X_WG + (uint16_t)(N + c) * GST + r), s3[c]);
        C3[r] = acc;
    }
}

/* raw row-major S (dim x dim) -> LM column-major at K (stride st) */
static void lm_from_rows(uint16_t K, __xdata uint8_t *S, uint8_t dim, uint8_t st) __reentrant
{
    uint8_t r, c;
    for (c = 0; c < dim; c++) {
        __xdata uint8_t *col = XP(K + (uint16_t)c * st);
        for (r = 0; r < dim; r++) {
            uint8_t e = S[(uint16_t)r * dim + c];
            col[2 * r] = LOGLO(e);
            col[2 * r + 1] = NZ(e);
        }
    }
}

/* inverse in the right half of Gauss work W -> LM column-major at K */
static void lm_from_inverse(uint16_t K, uint16_t W, uint8_t dim, uint8_t st) __reentrant
{
    uint8_t r, c;
    for (c = 0; c < dim; c++) {
        __xdata uint8_t *col = XP(K + (uint16_t)c * st);
        __xdata uint8_t *src = XP(W + (uint16_t)(dim + c) * GST);
        for (r = 0; r < dim; r++) {
            uint8_t e = src[r];
            col[2 * r] = LOGLO(e);
            col[2 * r + 1] = NZ(e);
        }
    }
}

static void wmap_clear(void) __reentrant
{
    uint16_t i;
    for (i = 0; i < WMAP_BYTES; i++)
        XB(X_WMAP + i) = 0;
}

/* STAGE + WG + WG2 + C3 -> the active key. */
static void install(void) __reentrant
{
    uint16_t t;
    uint8_t i;
    __xdata uint8_t *coef = STAGE + SK_COEF;
    XB(X_MISC) = 0;                         /* inactive while writing */
    pk_cur = 0xFF;
    lm_from_rows(X_KS1, STAGE + SK_S1, M, STM);
    lm_from_rows(X_KS3, STAGE + SK_S3, N, STN);
    lm_from_inverse(X_KA1, X_WG2, M, STM);
    lm_from_inverse(X_KA3, X_WG, N, STN);
    for (t = 0; t < C; t++) {
        uint8_t p = coef[t];
        XB(X_KCO + 2 * t) = LOGLO(p);
        XB(X_KCO + 2 * t + 1) = NZ(p);
        XB(X_KPC + t) = gmul(p, C3[TW(t)]);
        XB(X_KQC + t) = gmul(p, C3[TU(t)]);
    }
    for (i = 0; i < M; i++)
        XB(X_Ks1 + i) = STAGE[SK_s1 + i];
    for (i = 0; i < N; i++)
        XB(X_Ks3 + i) = STAGE[SK_s3 + i];
    XB(X_MISC) = 0xA5;                      /* active */
}

/* GENERATE KEY: seed at X_CMD. */
void key_generate(void) __reentrant
{
    uint16_t i;
    uint8_t b;
    stream_init(XP(X_CMD));
    do { /* declassified: "this S3 was singular" */
        for (i = 0; i < (uint16_t)N * N; i++)
            STAGE[SK_S3 + i] = stream_byte();
        load_aug(X_WG, STAGE + SK_S3, N);
    } while (!gauss(X_WG, N, 2 * N));
    for (i = 0; i < N; i++)
        STAGE[SK_s3 + i] = stream_byte();
    do {
        for (i = 0; i < (uint16_t)M * M; i++)
            STAGE[SK_S1 + i] = stream_byte();
        load_aug(X_WG2, STAGE + SK_S1, M);
    } while (!gauss(X_WG2, M, 2 * M));
    for (i = 0; i < C; i++) {
        do /* declassified: "this discarded byte was zero" */
            b = stream_byte();
        while (!b);
        STAGE[SK_COEF + i] = b;
    }
    make_c3();
    central_eval(STAGE + SK_s1, C3, X_STAGE + SK_COEF);
    install();
    wmap_clear();
}

/* COMMIT KEY: validate X_STAGE (every byte written: checked by the caller). */
uint16_t key_commit(void) __reentrant
{
    uint8_t ok, d = 0, k;
    __xdata uint8_t *y = XP(X_RESP);
    load_aug(X_WG, STAGE + SK_S3, N);
    ok = gauss(X_WG, N, 2 * N);
    load_aug(X_WG2, STAGE + SK_S1, M);
    ok &= gauss(X_WG2, M, 2 * M);
    make_c3();
    central_eval(y, C3, X_STAGE + SK_COEF);
    for (k = 0; k < M; k++)
        d |= y[k] ^ STAGE[SK_s1 + k];
    ok &= (uint8_t)(NZ(d) + 1);             /* 1 iff d == 0 */
    wmap_clear();
    if (!ok)
        return 0x6A80;
    install();
    return 0;
}
