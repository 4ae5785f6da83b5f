/* SPDX-License-Identifier: MIT */
/*
 * INSTALL and SIGN: docs/SPEC.md sections 7.1 and 7.4, the secret key
 * (section 5.2) in flash. No branch and no SRAM address depends on a
 * secret; the flash tables and the key are read with LPM at secret-free
 * or secret addresses alike (avr.h: no cache on this core). Declassified,
 * as on the host: the "singular, retry" bit of each attempt.
 */
#include <string.h>
#include <avr/eeprom.h>

#include "avr.h"


static uint8_t sk_byte(uint16_t off) { return pgm_read_byte(&avr_sk[off]); }

#ifdef AVR_C_KERNELS
/* The C twins of the assembly kernels (gf_matvec.S, gf_solve.S). */

/* out = M v + s for the r x c matrix M at sk offset mo, s at so; lv (2c
 * bytes) takes each v_j's log and nonzero mask. */
static void matvec(uint8_t *out, uint16_t mo, uint16_t so, const uint8_t *v, uint8_t r,
                   uint8_t c, uint8_t *lv)
{
    const uint8_t *M = avr_sk + mo;
    for (uint8_t j = 0; j < c; j++) {
        lv[2 * j] = gf_log(v[j]);
        lv[2 * j + 1] = gf_nz(v[j]);
    }
    for (uint8_t i = 0; i < r; i++) {
        uint8_t acc = pgm_read_byte(avr_sk + so + i);
        for (uint8_t j = 0; j < c; j++) {
            uint8_t a = pgm_read_byte(M++);
            acc ^= gf_exp((uint16_t)gf_log(a) + lv[2 * j]) & gf_nz(a) & lv[2 * j + 1];
        }
        out[i] = acc;
    }
}

/* dst[j] ^= f * row[j] for j < cnt, lm[2j] = log row[j], lm[2j+1] its
 * nonzero mask, lf = log f, nf = f's mask */
static void gf_rowop(uint8_t *dst, const uint8_t *lm, uint8_t lf, uint8_t nf, uint8_t cnt)
{
    for (uint8_t j = 0; j < cnt; j++)
        dst[j] ^= gf_exp((uint16_t)lm[2 * j] + lf) & lm[2 * j + 1] & nf;
}

/* Masked Gauss-Jordan on the k x (k+1) system S (docs/SPEC.md section 8):
 * 0xFF if it was regular (the solution is then column k), else 0. */
static uint8_t solve(uint8_t S[LMAX][LMAX + 1], uint8_t k)
{
    uint8_t ok = 0xFF, lm[2 * (LMAX + 1)];
    for (uint8_t c = 0; c < k; c++) {
        for (uint8_t r = c + 1; r < k; r++) {
            uint8_t z = (uint8_t)~gf_nz(S[c][c]);
            for (uint8_t j = c; j <= k; j++)
                S[c][j] ^= S[r][j] & z;
        }
        ok &= gf_nz(S[c][c]);
        uint8_t li = gf_log(gf_inv(S[c][c])), ni = gf_nz(S[c][c]);
        for (uint8_t j = c; j <= k; j++) {
            uint8_t a = S[c][j];
            S[c][j] = gf_exp((uint16_t)gf_log(a) + li) & gf_nz(a) & ni;
            lm[2 * j] = gf_log(S[c][j]);
            lm[2 * j + 1] = gf_nz(S[c][j]);
        }
        for (uint8_t r = 0; r < k; r++) {
            uint8_t f = S[r][c];
            /* row c itself: its pivot is now 1 (or 0 if singular), f
             * times row c would clear it; kept by a mask, not a branch
             * (r == c compares public indices) */
            uint8_t keep = (uint8_t)(r == c ? 0 : 0xFF);
            gf_rowop(&S[r][c], &lm[2 * c], gf_log(f), gf_nz(f) & keep, (uint8_t)(k + 1 - c));
        }
    }
    avr_wipe(lm, sizeof lm);
    return ok;
}
#else
/* gf_matvec.S (H1 or H3 rows a call), gf_solve.S, gf_pmul.S: avr.h */
#define solve(S, k) gf_solve_asm(&(S)[0][0], k)

/* out = M v + s for the r x c matrix M at sk offset mo, s at so (r = c
 * = m: S1, or n: S3); lvr (2c bytes) takes each v_j's log and zero mask */
static void matvec(uint8_t *out, uint16_t mo, uint16_t so, const uint8_t *v, uint8_t r,
                   uint8_t c, uint8_t *lvr)
{
    memcpy_P(out, avr_sk + so, r);
    for (uint8_t j = 0; j < c; j++) {
        lvr[2 * j] = GF_TLOG[v[j]];
        lvr[2 * j + 1] = (uint8_t)~gf_nz(v[j]);
    }
    if (r == TTS_M)
        for (uint8_t i = 0; i < r; i += H1)
            gf_mv1_asm(out + i, avr_sk + mo + (uint16_t)i * c, lvr);
    else
        for (uint8_t i = 0; i < r; i += H3)
            gf_mv3_asm(out + i, avr_sk + mo + (uint16_t)i * c, lvr);
}
#endif

/* The signing state: the target u, the unknowns x, a layer's system, the
 * vinegar stream (its key, block and position), the logs of a vector. */
static struct {
    uint8_t u[TTS_M], x[TTS_N];
    union {  /* the products' logs before and after the layers */
        uint8_t S[LMAX][LMAX + 1];
        uint8_t lv[2 * TTS_N];
    };
    uint8_t lx[TTS_N], b[LMAX + 2]; /* the logs of x; pmul's products */
    uint8_t key[32], block[64], pos;
    uint32_t ctr;
} st;
_Static_assert(sizeof st.S >= 2 * TTS_N, "lv shares S's room");

static void stream_take(uint8_t *out, uint8_t len)
{
    for (uint8_t i = 0; i < len; i++) {
        if (st.pos == 64) {  /* public: where the stream is */
            chacha20_block(st.block, st.key, NULL, st.ctr++);
            st.pos = 0;
        }
        out[i] = st.block[st.pos++];
    }
}

/* The central map's products (gf_pmul.S, or its C twin): b[j] = P[j] *
 * 3^b[j] for j < cnt, P in flash, b[j] = 0xFF standing for 0. */
#ifdef AVR_C_KERNELS
static void pmul(uint8_t *b, const uint8_t *P, uint8_t cnt)
{
    for (uint8_t j = 0; j < cnt; j++) {
        uint8_t a = pgm_read_byte(P + j);
        b[j] = gf_exp((uint16_t)gf_log(a) + b[j]) & gf_nz(a) & gf_nz((uint8_t)(b[j] + 1));
    }
}

/* log_3 x, 0xFF for x = 0 */
static uint8_t lg(uint8_t x) { return gf_log(x) | (uint8_t)~gf_nz(x); }
#else
#define pmul gf_pmul_asm
static uint8_t lg(uint8_t x) { return GF_TLOG[x]; }
#endif

/* the log of the product of the two logs la and lb, 0xFF standing for 0:
 * their sum mod 255, made 0xFF if either is 0xFF (no branch) */
static uint8_t lmul(uint8_t la, uint8_t lb)
{
    uint16_t s = (uint16_t)la + lb;
    uint8_t l = (uint8_t)((uint8_t)s + (uint8_t)((s + 1) >> 8));
    return l | (uint8_t)~(gf_nz((uint8_t)(la + 1)) & gf_nz((uint8_t)(lb + 1)));
}

static const uint8_t *coef(uint16_t off) { return avr_sk + SK_COEF + off; }

/* Layer 1 (section 4.6): for i = v+r, the identity, and p_{i,j} x_j at
 * column (i+j) mod a; right side u_r. */
static uint8_t layer1(void)
{
    for (uint8_t j = 0; j < TTS_V; j++)
        st.lx[j] = lg(st.x[j]);
    for (uint8_t r = 0; r < TTS_A; r++) {
        uint8_t col = (uint8_t)(TTS_V + r + 1);  /* mod a, public */
        while (col >= TTS_A)
            col -= TTS_A;
        /* the products at columns col.. and then from 0 (public sizes) */
        uint8_t n1 = TTS_A - col < TTS_V - 1 ? TTS_A - col : TTS_V - 1;
        memcpy(st.b, st.lx + 1, TTS_V - 1);
        pmul(st.b, coef((uint16_t)r * (TTS_V - 1)), TTS_V - 1);
        memset(st.S[r], 0, TTS_A);
        memcpy(&st.S[r][col], st.b, n1);
        memcpy(&st.S[r][0], st.b + n1, TTS_V - 1 - n1);
        st.S[r][r] ^= 1;
        st.S[r][TTS_A] = st.u[r];
    }
    uint8_t ok = solve(st.S, TTS_A);
    for (uint8_t s = 0; s < TTS_A; s++) {
        st.x[TTS_V + s] = st.S[s][TTS_A];
        st.lx[TTS_V + s] = lg(st.S[s][TTS_A]);
    }
    return ok;
}

/* x_mu1 then x_mu2 (section 4.2), explicit. */
static void middle(void)
{
    const uint8_t h = (TTS_V - 2) / 2;
    for (uint8_t e = 0; e < 2; e++) {
        uint8_t y = st.u[TTS_A + e];
        for (uint8_t k = 1; k <= h; k++)
            st.b[k - 1] = lmul(st.lx[k + e], st.lx[TTS_V - 1 - k + e]);
        for (uint8_t k = 0; k < TTS_V / 2; k++)
            st.b[h + k] = lmul(st.lx[TTS_A + k + e], st.lx[TTS_V + TTS_A - 1 - k + e]);
        pmul(st.b, coef((uint16_t)(TTS_A + e) * (TTS_V - 1)), h + TTS_V / 2);
        for (uint8_t k = 0; k < h + TTS_V / 2; k++)
            y ^= st.b[k];
        st.x[TTS_MU1 + e] = y;
        st.lx[TTS_MU1 + e] = lg(y);
    }
}

/* Layer 3 (section 4.3): unknowns x_c .. x_{n-1}. */
static uint8_t layer3(void)
{
    for (uint8_t r = 0; r < TTS_B; r++) {
        uint8_t i = TTS_L3 + r, *d = st.S[r];
        const uint8_t *o = coef((uint16_t)(TTS_A + 2) * (TTS_V - 1) + (uint16_t)r * (TTS_B + 1));
        /* the factor of column j: x_{2(i-j)-(i&1)} for j < i, x_0, then
         * x_{i+c-j} (public indices, stepped) */
        for (uint8_t q = (uint8_t)(2 * r - (i & 1)); d < &st.S[r][r]; q -= 2)
            *d++ = st.lx[q];
        *d++ = st.lx[0];
        for (uint8_t q = TTS_L3 - 1; d < &st.S[r][TTS_B]; q--)
            *d++ = st.lx[q];
        *d = lmul(st.lx[r + TTS_V], st.lx[r + TTS_V + 2]);
        pmul(st.S[r], o + 1, TTS_B);
        pmul(d, o, 1);
        st.S[r][r] ^= 1;
        *d ^= st.u[i - TTS_V];
    }
    uint8_t ok = solve(st.S, TTS_B);
    for (uint8_t s = 0; s < TTS_B; s++)
        st.x[TTS_L3 + s] = st.S[s][TTS_B];
    return ok;
}

static const uint8_t prf_nonce[12] PROGMEM = {'t', 't', 's', '-', 'c', 'a', 'r', 'd',
                                              '-', 'p', 'r', 'f'};

/* K_card (section 7.4, step 1) from the key in flash, into EEPROM; the
 * flag last. */
uint8_t avr_install(void)
{
    uint8_t k[32], in[32], nonce[12];
    memcpy_P(nonce, prf_nonce, 12);
    memset(k, 0, 32);
    for (uint16_t o = 0; o < SK_BYTES; o += 32) {
        for (uint8_t j = 0; j < 32; j++)
            in[j] = k[j] ^ (o + j < SK_BYTES ? sk_byte(o + j) : 0);
        chacha20_block(st.block, in, nonce, 0);
        memcpy(k, st.block, 32);
    }
    eeprom_update_byte((uint8_t *)AVR_EE_FLAG, 0xFF);
    eeprom_update_block(k, (uint8_t *)AVR_EE_KCARD, 32);
    eeprom_update_byte((uint8_t *)AVR_EE_FLAG, AVR_EE_INSTALLED);
    avr_wipe(k, 32);
    avr_wipe(in, 32);
    avr_wipe(&st, sizeof st);
    return AVR_OK;
}

uint8_t avr_sign(uint8_t sig[TTS_N], const uint8_t h[TTS_M])
{
    uint32_t c;
    uint8_t rc = AVR_ERETRY, slot;
    if (eeprom_read_byte((const uint8_t *)AVR_EE_FLAG) != AVR_EE_INSTALLED)
        return AVR_ENOKEY;
    c = avr_counter_read(&slot); /* two slots: avr/nvm.c */
    if (c == 0xFFFFFFFFul)
        return AVR_ECOUNTER;
    /* K_card read first: the EEPROM is not touched again until the
     * counter's write below has been programmed */
    eeprom_read_block(st.key, (const uint8_t *)AVR_EE_KCARD, 32);
    /* c + 1 stored before anything is computed from c. Only the bytes
     * that change are written (one, 254 times in 256: avr/nvm.c): on the part each
     * takes 3.4 ms of EEPROM programming, which runs while SIGN computes;
     * SIGN waits for it before it answers (eeprom_busy_wait below). The
     * counter is public: the cycles it changes leak nothing. */
    avr_counter_store(slot, c + 1);

    /* the stream key: ChaCha20(K_card, h[0..12), c)[0..32) ^ (h[12..m) || 0) */
    chacha20_block(st.block, st.key, h, c);
    memcpy(st.key, st.block, 32);
    for (uint8_t j = 0; j + 12 < TTS_M; j++)
        st.key[j] ^= h[12 + j];
    st.pos = 64;
    st.ctr = 0;

    matvec(st.u, SK_S1, SK_s1, h, TTS_M, TTS_M, st.lv);
    for (uint16_t attempt = 0; attempt < 1000; attempt++) {
        stream_take(st.x, TTS_V);
        uint8_t ok = layer1();
        if (ok) {  /* declassified: singular, retry */
            middle();
            ok = layer3();
        }
        if (ok) {
            matvec(sig, SK_S3, SK_s3, st.x, TTS_N, TTS_N, st.lv);
            rc = AVR_OK;
            break;
        }
    }
    avr_wipe(&st, sizeof st);
#ifdef AVR_SIGN_CHECK
    /* The signature checked before it leaves: a fault during SIGN (a
     * glitch, a flipped bit of the key) gives a signature that the public
     * key refuses, and one such signature gives away a column of the
     * secret A1 (docs/AVR.md). Withheld, with its own status. */
    if (rc == AVR_OK && avr_verify(sig, h) != AVR_OK) {
        avr_wipe(sig, TTS_N);
        rc = AVR_EFAULT;
    }
#endif
    eeprom_busy_wait(); /* the counter programmed before any answer */
    return rc;
}
