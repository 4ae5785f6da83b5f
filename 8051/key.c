/* SPDX-License-Identifier: MIT */
/*
 * Key set-up: on-card generation from a 32-byte seed (docs/SPEC.md section
 * 6, the host's expansion byte for byte), validation of a personalised key
 * (COMMIT KEY), installation of the active key in internal form, and the
 * public-key cache. The stored key is S1, S3 (LM form), the coefficients
 * (LM), s1 and s3; the inverses A1, A3 and the p_t c3 terms the public key
 * needs are derived into work XRAM (card.h: X_A3L .. X_KQC), by GENERATE
 * and COMMIT from the raw key they check, or by key_derive from the active
 * key. Both key paths build the raw key in X_STAGE and the cache first;
 * the active key is written only once everything has been checked, so a
 * refused key never disturbs the previous one (only the cache, which is
 * then marked invalid and derived again on export), and it is written
 * through the journal of card.h (install, key_install), so that a power
 * cut leaves the old key or the new one whole, with its PIN and its stream
 * secret.
 */
#include "card.h"
#include "protocol.h"

#define STAGE XP(X_STAGE)
#define C3    XP(X_C3)

/* The LM column after the one at col (the LMCOL layout, st = 2 dim). */
static uint16_t lm_next(uint16_t col, uint8_t st) __reentrant
{
    col += st;
    if ((uint8_t)col + (uint16_t)st > 256) /* public: the next page */
        col = (col + 255) & 0xFF00;
    return col;
}

/* [S | I] into the column-major Gauss work W: S raw row-major at XDATA S
 * (nv = 0), or the active key's L1 matrix of the run table S (nv = 1;
 * public flag). */
static void load_aug(uint16_t W, uint16_t S, uint8_t dim, uint8_t nv) __reentrant
{
    uint8_t r, c;
    for (c = 0; c < dim; c++) {
        __xdata uint8_t *col = XP(W + (uint16_t)c * GST);
        uint16_t a = nv ? kcol((__code const uint8_t *)S, c) : S;
        for (r = 0; r < dim; r++)
            col[r] = nv ? L1VAL(XB(a + r)) : XB(a + (uint16_t)r * dim);
        col += (uint16_t)dim * GST;
        for (r = 0; r < dim; r++)
            col[r] = 0;
        col[c] = 1;
        S += !nv;
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

/* inverse in the right half of Gauss work W -> LM column-major at K */
static void lm_from_inverse(uint16_t K, uint16_t W, uint8_t dim) __reentrant
{
    uint8_t r, c;
    __xdata uint8_t *src = XP(W + (uint16_t)dim * GST);
    for (c = 0; c < dim; c++, src += GST) {
        for (r = 0; r < dim; r++) {
            uint8_t e = src[r];
            XB(K + 2 * r) = LOGLO(e);
            XB(K + 2 * r + 1) = NZ(e);
        }
        K = lm_next(K, 2 * dim);
    }
}

/* After S3's inversion at X_G3: c3 = A3 s3, through the arena's scratch
 * (X_C3 may lie in A3's columns). */
static void c3_out(__xdata uint8_t *s3) __reentrant
{
    uint8_t r, c;
    for (r = 0; r < N; r++) {
        uint8_t acc = 0;
        for (c = 0; c < N; c++)
            acc ^= gmul(XB(X_G3 + (uint16_t)(N + c) * GST + r), s3[c]);
        SSCR[r] = acc;
    }
    for (r = 0; r < N; r++)
        C3[r] = SSCR[r];
}

/* The public key's linear part: p_t c3_w, p_t c3_u from c3 and the
 * coefficients, raw at coef (nv = 0) or the active key's LM ones (nv = 1).
 * After A1 has left X_G1 (these overwrite its right half). */
static void pc_out(uint16_t coef, uint8_t nv) __reentrant
{
    uint16_t t;
    for (t = 0; t < C; t++) {
        uint8_t p;
        p = XB(coef + t);
        if (nv) /* public: the stored key's L1 form */
            p = L1VAL(p);
        XB(X_KPC + t) = gmul(p, C3[TW(t)]);
        XB(X_KQC + t) = gmul(p, C3[TU(t)]);
    }
}

/* The cache from the active key (GET PK SEGMENT while pk_ready = 0). */
void key_derive(void) __reentrant
{
    pk_cur = 0xFF;
    load_aug(X_G3, (uint16_t)K3_RUNS, N, 1);
    (void)gauss(X_G3, N, 2 * N);            /* the active key: invertible */
    lm_from_inverse(X_A3L, X_G3, N);
    c3_out(XP(X_Ks3));
    load_aug(X_G1, (uint16_t)K1_RUNS, M, 1);
    (void)gauss(X_G1, M, 2 * M);
    lm_from_inverse(X_A1L, X_G1, M);
    pc_out(X_KCO, 1);
    pk_ready = 1;
}

/* raw row-major S (dim x dim) -> the L1 columns of the run table runs */
static void l1_from_rows(__code const uint8_t *runs, __xdata uint8_t *S, uint8_t dim) __reentrant
{
    uint8_t r, c;
    for (c = 0; c < dim; c++, S++) {
        __xdata uint8_t *K = XP(kcol(runs, c));
        for (r = 0; r < dim; r++)
            K[r] = L1OF(S[(uint16_t)r * dim]);
    }
}

/* The stream secret K_card of the raw key at STAGE, into X_KCST
 * (docs/SPEC.md, card section): K_0 = 0, K_{i+1} = the first 32 bytes of
 * ChaCha20(K_i XOR M_i, block counter 0, nonce "tts-card-prf"), M_i the
 * 32-byte pieces of the secret key (the last one zero-padded). */
static __code const uint8_t kc_nonce[12] = {
    't', 't', 's', '-', 'c', 'a', 'r', 'd', '-', 'p', 'r', 'f'
};

static void kcard_derive(void)
{
    /* XDATA, not the stack: it runs deep in the reentrant key code */
    static __xdata uint16_t o;
    static __xdata uint8_t j;
#define in  XP(X_STR)
#define out XP(X_STR + 64)
    for (j = 0; j < 32; j++)
        out[j] = 0;
    for (o = 0; o < SK_BYTES; o += 32) {
        stream_init(out);
        for (j = 0; j < 32 && o + j < SK_BYTES; j++) /* public bound */
            in[16 + j] ^= STAGE[o + j];
        for (j = 0; j < 12; j++)
            in[52 + j] = kc_nonce[j];
        chacha_block();
    }
    for (j = 0; j < 32; j++)
        XB(X_KCST + j) = out[j];
    stream_wipe();
#undef in
#undef out
}

/* The journal's second half (card.h): STAGE, X_KCST and the staged PIN
 * -> the active key, its stream secret, its PIN with PIN_TRIES tries; then
 * the staged PIN is used up and X_JRNL cleared. Runs again from the start
 * after a cut (at reset, main.c): every step only copies from the staging
 * copies, which stay until X_JRNL is cleared. */
void key_install(void) __reentrant
{
    uint16_t t;
    uint8_t i;
    __xdata uint8_t *coef = STAGE + SK_COEF;
    l1_from_rows(K1_RUNS, STAGE + SK_S1, M);
    l1_from_rows(K3_RUNS, STAGE + SK_S3, N);
    for (t = 0; t < C; t++) {
        uint8_t p = coef[t];
        XB(X_KCO + t) = L1OF(p);
    }
    for (i = 0; i < M; i++)
        XB(X_Ks1 + i) = STAGE[SK_s1 + i];
    for (i = 0; i < N; i++)
        XB(X_Ks3 + i) = STAGE[SK_s3 + i];
    for (i = 0; i < 32; i++)
        XB(X_KCARD + i) = XB(X_KCST + i);
    i = XB(X_PINST);
    if (i >= PIN_MIN && i <= PIN_MAX) /* public: staged or already used */
        for (i = 0; i <= PIN_MAX; i++)
            XB(X_PIN + i) = XB(X_PINST + i);
    XB(X_TRIES) = PIN_TRIES;
    XB(X_ACTIVE) = NV_MAGIC;
    XB(X_PINST) = 0xFF;                     /* the staged PIN is used up */
    XB(X_JRNL) = 0;                         /* done */
    pin_ok = 0;
}

/* The journal's first half: the staged key is checked and complete (a
 * macro: one stack frame less in the reentrant key code). */
#define install() do { \
        kcard_derive(); \
        XB(X_JRNL) = NV_MAGIC; \
        key_install(); \
        pk_ready = 1; \
    } while (0)

/* GENERATE KEY: seed at X_CMD. */
void key_generate(void) __reentrant
{
    uint16_t i;
    uint8_t b;
    pk_ready = 0;
    pk_cur = 0xFF;
    stream_init(XP(X_CMD));
    do { /* declassified: "this S3 was singular" */
        for (i = 0; i < (uint16_t)N * N; i++)
            STAGE[SK_S3 + i] = stream_byte();
        load_aug(X_G3, X_STAGE + SK_S3, N, 0);
    } while (!gauss(X_G3, N, 2 * N));
    for (i = 0; i < N; i++)
        STAGE[SK_s3 + i] = stream_byte();
    lm_from_inverse(X_A3L, X_G3, N);
    c3_out(STAGE + SK_s3);
    do {
        for (i = 0; i < (uint16_t)M * M; i++)
            STAGE[SK_S1 + i] = stream_byte();
        load_aug(X_G1, X_STAGE + SK_S1, M, 0);
    } while (!gauss(X_G1, M, 2 * M));
    lm_from_inverse(X_A1L, X_G1, M);
    for (i = 0; i < C; i++) {
        do /* declassified: "this discarded byte was zero" */
            b = stream_byte();
        while (!b);
        STAGE[SK_COEF + i] = b;
    }
    central_eval(STAGE + SK_s1, C3, X_STAGE + SK_COEF);
    pc_out(X_STAGE + SK_COEF, 0);
    install();
}

/* The OR of every byte of t + s + S v, S the raw row-major dim x dim
 * matrix at XDATA S: 0 iff S v + s = t. No early exit; the loops run on
 * public sizes. */
static uint8_t affine_diff(uint16_t S, __xdata uint8_t *s, __xdata uint8_t *v,
                           __xdata uint8_t *t, uint8_t dim) __reentrant
{
    uint8_t r, c, acc, d = 0;
    for (r = 0; r < dim; r++) {
        acc = t[r] ^ s[r];
        for (c = 0; c < dim; c++)
            acc ^= gmul(XB(S++), v[c]);
        d |= acc;
    }
    return d;
}

/* COMMIT KEY's check points at X_CMD (protocol.h: per point x, w, y with
 * y = P(w) under the intended public key P): 0 iff the staged key gives
 * S3 x + s3 = w and S1 y + s1 = F(x) at every point, that is P'(w) = y
 * for its own public map P' (docs/CARD.md, "A faulty key"). */
static uint8_t points_diff(void) __reentrant
{
    uint8_t d = 0, k;
    __xdata uint8_t *q = XP(X_CMD);
    __xdata uint8_t *y = XP(X_RESP);
    for (k = 0; k < CARD_CHECK_POINTS(M, N); k++, q += 2 * N + M) {
        d |= affine_diff(X_STAGE + SK_S3, STAGE + SK_s3, q, q + N, N);
        central_eval(y, q, X_STAGE + SK_COEF);
        d |= affine_diff(X_STAGE + SK_S1, STAGE + SK_s1, q + 2 * N, y, M);
    }
    return d;
}

/* Points that tell nothing of S3, refused (6A80): x = 0 at a point, or
 * the same x twice. The points are the terminal's data: public, so the
 * early exits leak nothing. */
static uint8_t points_degenerate(void) __reentrant
{
    __xdata uint8_t *q = XP(X_CMD);
    uint8_t k, r, any;
    for (k = 0; k < CARD_CHECK_POINTS(M, N); k++, q += 2 * N + M) {
        any = 0;
        for (r = 0; r < N; r++)
            any |= q[r];
        if (!any)
            return 1;
    }
#if CARD_CHECK_POINTS(M, N) == 2
    q = XP(X_CMD);
    for (r = 0; r < N; r++)
        if (q[r] != q[2 * N + M + r])
            return 0;
    return 1;
#else
    return 0;
#endif
}

/* COMMIT KEY: validate X_STAGE (every byte written: checked by the caller,
 * which has cleared the record of them) against the check points of the
 * command's data. */
uint16_t key_commit(void) __reentrant
{
    uint8_t ok, d, k;
    __xdata uint8_t *y = XP(X_RESP);
    pk_ready = 0;
    pk_cur = 0xFF;
    d = points_diff() | points_degenerate(); /* (before X_RESP is reused) */
    load_aug(X_G3, X_STAGE + SK_S3, N, 0);
    ok = gauss(X_G3, N, 2 * N);
    lm_from_inverse(X_A3L, X_G3, N);
    c3_out(STAGE + SK_s3);
    load_aug(X_G1, X_STAGE + SK_S1, M, 0);
    ok &= gauss(X_G1, M, 2 * M);
    lm_from_inverse(X_A1L, X_G1, M);
    central_eval(y, C3, X_STAGE + SK_COEF);
    for (k = 0; k < M; k++)
        d |= y[k] ^ STAGE[SK_s1 + k];
    ok &= (uint8_t)(NZ(d) + 1);             /* 1 iff d == 0 */
    pc_out(X_STAGE + SK_COEF, 0);
    if (!ok)
        return CARD_SW_DATA;
    install();
    return 0;
}
