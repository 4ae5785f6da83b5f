/*
 * GF(256) for the card: the table, the general multiply, and the C twins of
 * the assembly kernels (matvec_lm, gauss). Every loop bound and every branch
 * here depends on public sizes only; zero operands are handled by masks and
 * by the zero page of GFT, never by a branch.
 */
#define CARD_WANT_GFT
#define CARD_WANT_TERMS
#include "card.h"

/* Page-aligned: the kernels add a 16-bit scalar offset to its address. */
__code __at(GFT_ADDR) const uint8_t GFT[1023] = GFT_INIT;

#ifdef IA_ABS
__idata __at(IA_ABS) uint8_t IA[IA_SIZE];
#else
ARENA uint8_t IA[IA_SIZE];
#endif
#ifdef CARD_128_ASM
__xdata uint8_t SA[SA_SIZE];
#endif

/* The stored key's matrices (card.h, gen_card.c: key_layout) */
__code const uint8_t K3_RUNS[] = {KL_RUNS3, 0, 0, 0};
__code const uint8_t K1_RUNS[] = {KL_RUNS1, 0, 0, 0};

uint16_t kcol(__code const uint8_t *runs, uint8_t c)
{
    uint8_t st = runs == K3_RUNS ? N : M;
    while (c >= runs[2]) { /* public: the layout */
        c -= runs[2];
        runs += 3;
    }
    return ((uint16_t)runs[0] << 8) + runs[1] + (uint16_t)c * st;
}

uint8_t gmul(uint8_t a, uint8_t b)
{
    return GFT[(uint16_t)LOGLO(a) + LOGLO(b)] & NZ(a) & NZ(b);
}

#ifdef CARD_C_SETUP
#define matvec_c matvec_lm
#define gauss_c gauss

/* Column c: DPTR-style scalar x[c] (zero page when x[c] = 0) against the
 * LM entries of column c, at LMCOL (st = 2 rows, 256 / st columns a page). */
void matvec_c(SARENA uint8_t *acc, uint16_t K, SARENA uint8_t *x,
              uint8_t rows, uint8_t cols, uint8_t st)
{
    uint8_t c, r, cpp = (uint8_t)(256 / st), left = cpp;
    for (c = 0; c < cols; c++) {
        uint8_t s = x[c];
        __code const uint8_t *base = GFT + LOGLO(s) + ((uint16_t)LOGHI(s) << 8);
        __xdata uint8_t *p = XP(K);
        SARENA uint8_t *y = acc;
        for (r = 0; r < rows; r++) {
            *y++ ^= base[p[0]] & p[1];
            p += 2;
        }
        K += st;
        if (!--left) { /* public: the next page (LMCOL) */
            K = (K + 255) & 0xFF00;
            left = cpp;
        }
    }
}

/*
 * Constant-time Gauss-Jordan on a column-major matrix (element [r][c] at
 * W + c*GST + r), the same algebra as the host's kernel: a zero pivot is
 * repaired by adding every later row under a mask, the pivot row is scaled
 * by the pivot's inverse, and every other row is cleared in the pivot
 * column, column by column (the pivot column itself is dead afterwards).
 * Scratch: IA[0 .. 2*rows) (fix masks, then lo/mask pairs). A zero pivot
 * (singular matrix) leaves garbage in-bounds reads; the result is then
 * discarded by every caller.
 */
uint8_t gauss_c(uint16_t W, uint8_t rows, uint8_t cols)
{
    uint8_t ok = 0xFF, k, i, j;
    SARENA uint8_t *t = SA;
    for (k = 0; k < rows; k++) {
        __xdata uint8_t *ck = XP(W + (uint16_t)k * GST);
        uint8_t piv = ck[k], lo, hi;
        /* pivot repair masks, column k */
        for (i = k + 1; i < rows; i++) {
            uint8_t fm = (uint8_t)~NZ(piv);
            t[i] = fm;
            piv ^= fm & ck[i];
        }
        ck[k] = piv;
        for (j = k + 1; j < cols; j++) {
            __xdata uint8_t *cj = XP(W + (uint16_t)j * GST);
            uint8_t acc = cj[k];
            for (i = k + 1; i < rows; i++)
                acc ^= t[i] & cj[i];
            cj[k] = acc;
        }
        ok &= NZ(piv);
        /* row k times piv^-1: index (255 - log piv) + log e + 512*(piv==0) */
        lo = (uint8_t)~LOGLO(piv);
        hi = LOGHI(piv);
        for (j = k + 1; j < cols; j++) {
            __xdata uint8_t *cj = XP(W + (uint16_t)j * GST);
            uint8_t e = cj[k];
            cj[k] = GFT[((uint16_t)hi << 8) + lo + LOGLO(e)] & NZ(e);
        }
        /* elimination factors: lo/mask of column k, row k excluded */
        for (i = 0; i < rows; i++) {
            uint8_t f = ck[i];
            t[2 * i] = LOGLO(f);
            t[2 * i + 1] = NZ(f);
        }
        t[2 * k + 1] = 0;
        for (j = k + 1; j < cols; j++) {
            __xdata uint8_t *cj = XP(W + (uint16_t)j * GST);
            uint8_t e = cj[k];
            __code const uint8_t *base = GFT + LOGLO(e) + ((uint16_t)LOGHI(e) << 8);
            SARENA uint8_t *q = t;
            for (i = 0; i < rows; i++) {
                cj[i] ^= base[q[0]] & q[1];
                q += 2;
            }
        }
    }
    return ok & 1;
}
#endif /* CARD_C_SETUP */
