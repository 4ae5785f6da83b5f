/* SPDX-License-Identifier: MIT */
/*
 * Host generator of the card firmware's tables (SDCC): 8051/card_tables.h
 * and one header per parameter set, card_tables_M_N.h.
 *
 * From the library's own term tables (ref/central_tables.h, written by
 * ref/gen_central.c), each set's header holds its shape, the layer offsets,
 * the stored key's layout, the central terms {row, u, w} as __code bytes in
 * secret-key coefficient order, the ROM family's term table (the reference
 * for the term records its card makes at reset), and the
 * signing layers' term code and written-out solver as assembly statements.
 * card_tables.h, which the firmware includes, includes the header of the
 * set chosen at build time by -DTTS_M=.. -DTTS_N=.., and holds what every
 * set shares, among it GFT, the single 1023-byte GF(256) table the firmware
 * multiplies with (layout in docs/CARD.md):
 *
 *   GFT[0..510]    exp: GFT[i] = 3^(i mod 255)   (sums of two logs <= 508,
 *                  a log minus a log <= 509)
 *   GFT[511]       2 = LOGHI[0]
 *   GFT[512..766]  0 = LOGHI[1..255]; also every product with a zero scalar
 *                  (a scalar x enters as DPTR = GFT + log x + 512*(x == 0))
 *   GFT[767..1022] LOGLO[0..255]: log_3 x, and LOGLO[0] = 0, which is also
 *                  GFT[255 - 0 + 512], the inverse of zero
 *
 * The ROM family's GFT (GFT_ROM_INIT, 511 bytes) is the exp part alone:
 * its kernels mask every product with a zero factor instead of reading a
 * zero page, and read LOGLO from XDATA (X_LOGT), where rom.c writes it
 * from the exp part at reset (docs/CARD.md, The ROM family).
 *
 * usage: gen_card DIR   (writes DIR/card_tables.h and DIR/card_tables_M_N.h)
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "central_tables.h"

struct set {
    int m, n, v, a, b;
    const tts_term *terms;
    const uint16_t *layer;
};

#define S(M, N, V, A, B) {M, N, V, A, B, tts_terms_##M##_##N, tts_layers_##M##_##N}
static const struct set sets[] = {
#define TTS_SET(M, N, V, A, B, BITS, PRIZE) S(M, N, V, A, B),
#include "tts_sets.def"
};

/* the largest layer written out straight (k_layer.c: SV_UNROLL_MAX) */
#define SV_UNROLL_MAX 9

static unsigned xt(unsigned a) { return ((a << 1) ^ ((a & 0x80) ? 0x11B : 0)) & 0xFF; }

static void bytes(const char *name, const unsigned char *b, int len)
{
    printf("__code const uint8_t %s[%d] = {", name, len);
    for (int i = 0; i < len; i++)
        printf("%s%3u%s", i % 16 ? " " : "\n    ", b[i], i + 1 < len ? "," : "");
    printf("\n};\n");
}

/*
 * The terms of each signing layer as assembly statements, for the
 * assembly layer build (k_layer.c includes this file again inside an
 * __asm block with CARD_TERM_ASM = the layer, 0..3): the macros LTX u
 * (DPTR := the scalar of x[u]); LTM t, c, r (entry [r][c] of the layer's
 * system := p_t x[u], its first term off the diagonal), LTD (the same on
 * the diagonal: 1 + p_t x[u]), LTA (a later term: entry ^= p_t x[u]); LTC
 * t, w, c, r (right-hand side, column c = dim, row r ^= p_t x[u] x[w]). The
 * terms are grouped by u, so that the x scalar is loaded once per group.
 * Outside the include guard on purpose.
 */
static void terms_asm(const struct set *P)
{
    printf("/* The signing layers' terms as assembly (see gen_card.c). */\n"
           "#ifdef CARD_TERM_ASM\n");
    {
        int lo[4] = {P->v, P->v + P->a, P->v + P->a + 1, P->v + P->a + 2};
        int dim[4] = {P->a, 1, 1, P->b};
        for (int L = 0; L < 4; L++) {
            printf("%s CARD_TERM_ASM == %d\n", L ? "#elif" : "#if", L);
            unsigned char hit[TTS_MAX_N][TTS_MAX_N] = {{0}};
            for (int u = 0; u < lo[L]; u++) {
                int grp = 0;
                for (int t = P->layer[L]; t < (int)P->layer[L + 1]; t++) {
                    const tts_term *T = &P->terms[t];
                    int c = T->w - lo[L], r = T->row - lo[L];
                    if (T->u != u || T->w < lo[L])
                        continue;
                    if (!grp++)
                        printf("    LTX %d\n", u);
                    /* the first term of an entry writes it (over the
                     * identity's 0, or 1 on the diagonal), later ones add */
                    printf("    %s %d, %d, %d\n", hit[r][c]++ ? "LTA" : r == c ? "LTD" : "LTM",
                           t, c, r);
                }
                for (int t = P->layer[L]; t < (int)P->layer[L + 1]; t++) {
                    const tts_term *T = &P->terms[t];
                    if (T->u == u && T->w < lo[L])
                        printf("    LTX %d\n    LTC %d, %d, %d, %d\n", u, t, T->w, dim[L],
                               T->row - lo[L]);
                }
            }
        }
        printf("#endif\n");
    }
    printf("#endif\n");
}

/*
 * The stored key's layout (card.h): the columns of S3 (n bytes each) and S1
 * (m bytes) in L1 form, packed into 256-byte pages so that no column crosses
 * a page (the kernels read a column with MOVX @Ri, P2 the page) and little
 * is left over: each page takes the mix of S3 and S1 columns that fills it
 * best (the most S3 columns among equals), until the columns left fit in
 * one page; those go to the next page, S3's first, and the coefficients,
 * s1 and s3 follow them, unpadded (read at their own addresses). Emitted
 * as runs KR(page, offset, columns) of consecutive columns within a page,
 * pages counted from the key's first, and KL_TAIL, the offset of the
 * coefficients. For TTS(20,28), 7 S3 and 3 S1 columns fill a page exactly:
 * the key takes sk = 1,399 bytes.
 */
static void key_layout(const struct set *P)
{
    int r3 = P->n, r1 = P->m, page = 0, n3 = 0, n1 = 0;
    char runs3[512] = "", runs1[512] = "";
    while (r3 * P->n + r1 * P->m > 256) {
        int ba = 0, bb = 0, best = -1;
        for (int a = 0; a <= r3 && a * P->n <= 256; a++) {
            int b = (256 - a * P->n) / P->m;
            if (b > r1)
                b = r1;
            if (a * P->n + b * P->m >= best) {
                best = a * P->n + b * P->m;
                ba = a;
                bb = b;
            }
        }
        if (ba)
            n3 += snprintf(runs3 + n3, sizeof runs3 - n3, "%sKR(%d, 0, %d)", n3 ? ", " : "", page, ba);
        if (bb)
            n1 += snprintf(runs1 + n1, sizeof runs1 - n1, "%sKR(%d, %d, %d)", n1 ? ", " : "", page,
                           ba * P->n, bb);
        r3 -= ba;
        r1 -= bb;
        page++;
    }
    if (r3)
        n3 += snprintf(runs3 + n3, sizeof runs3 - n3, "%sKR(%d, 0, %d)", n3 ? ", " : "", page, r3);
    if (r1)
        n1 += snprintf(runs1 + n1, sizeof runs1 - n1, "%sKR(%d, %d, %d)", n1 ? ", " : "", page,
                       r3 * P->n, r1);
    printf("#define KL_RUNS3 %s\n#define KL_RUNS1 %s\n#define KL_TAIL %d\n", runs3, runs1,
           page * 256 + r3 * P->n + r1 * P->m);
}


/*
 * The layer solver written out for one size d (k_layer.c includes
 * this file inside an __asm block with CARD_SOLVE_ASM = d): the algebra of
 * solve_asm there (Gaussian elimination with the masked pivot repair, U in
 * LM form at SUOFF, back substitution), every loop unrolled and every
 * address a constant: entry [r][c] at SVW(r, c), the repair masks at
 * direct SVFX(i), the factors' log and mask at direct SVFL(i), SVFM(i),
 * x[lo + i] at @(k_Klo + i). 16 machine cycles an entry of the
 * elimination (23 in the loop). Outside the include guard on purpose.
 */
static int sv_page = -1;
static void sv_p2(int c)
{
    if (sv_page != c / 4) /* SST = 64: four columns a page */
        printf("        mov  P2, #(SVW(0, %d) >> 8)\n", c);
    sv_page = c / 4;
}

static void sv_x(int k)
{
    printf("        mov  r5, a\n        mov  a, _k_Klo\n        add  a, #%d\n"
           "        mov  r1, a\n        mov  a, r5\n        mov  @r1, a\n", k);
}

static void solve_asm_gen(int d)
{
    sv_page = -1;
    printf("#if CARD_SOLVE_ASM == %d\n        mov  _k_ok, #1\n", d);
    for (int k = 0; k < d; k++) {
        printf("        ; pivot %d\n", k);
        sv_p2(k);
        printf("        mov  r0, #(SVW(%d, %d) & 0xFF)\n        movx a, @r0\n        mov  r6, a\n", k, k);
        for (int i = k + 1; i < d; i++)
            printf("        mov  a, r6\n        add  a, #0xFF\n        cpl  c\n        subb a, 0xe0\n"
                   "        mov  SVFX(%d), a\n        mov  r5, a\n        inc  r0\n"
                   "        movx a, @r0\n        anl  a, r5\n        xrl  ar6, a\n", i);
        printf("        mov  a, r6\n        add  a, #0xFF\n        clr  a\n        rlc  a\n"
               "        anl  _k_ok, a\n        mov  a, r6\n        mov  dptr, #GFT_LOGA\n"
               "        movc a, @a+dptr\n        cpl  a\n        mov  _k_acc, a\n");
        if (k == d - 1) {
            sv_p2(d);
            printf("        mov  r0, #(SVW(%d, %d) & 0xFF)\n        movx a, @r0\n        mov  r6, a\n"
                   "        movc a, @a+dptr\n        add  a, _k_acc\n        addc a, #0\n"
                   "        mov  dpl, a\n        mov  dph, #GFT_PAGE\n        clr  a\n"
                   "        movc a, @a+dptr\n        mov  r5, a\n        mov  a, r6\n"
                   "        add  a, #0xFF\n        subb a, 0xe0\n        anl  a, r5\n", k, d);
            sv_x(k);
            break;
        }
        printf("        mov  r0, #(SVW(%d, %d) & 0xFF)\n", k + 1, k);
        for (int i = k + 1; i < d; i++)
            printf("        movx a, @r0\n        inc  r0\n        mov  r5, a\n        movc a, @a+dptr\n"
                   "        mov  SVFL(%d), a\n        mov  a, r5\n        add  a, #0xFF\n"
                   "        subb a, 0xe0\n        mov  SVFM(%d), a\n", i, i);
        for (int j = k + 1; j <= d; j++) {
            sv_p2(j);
            printf("        mov  r0, #(SVW(%d, %d) & 0xFF)\n        movx a, @r0\n        mov  r6, a\n", k, j);
            for (int i = k + 1; i < d; i++)
                printf("        inc  r0\n        movx a, @r0\n        anl  a, SVFX(%d)\n        xrl  ar6, a\n", i);
            printf("        mov  a, r6\n        mov  dptr, #GFT_LOGA\n        movc a, @a+dptr\n"
                   "        add  a, _k_acc\n        addc a, #0\n        mov  r5, a\n        mov  a, r6\n"
                   "        dec  dph\n        movc a, @a+dptr\n        mov  r4, a\n"
                   "        add  a, #GFT_PAGE\n        mov  dph, a\n        mov  a, r4\n        rr   a\n"
                   "        dec  a\n        mov  b, a\n        anl  a, r5\n        mov  dpl, a\n");
            if (j < d)
                printf("        mov  r0, #(SVW(SUOFF + %d, %d) & 0xFF)\n        movx @r0, a\n"
                       "        inc  r0\n        mov  a, b\n        movx @r0, a\n", 2 * k, j);
            else {
                printf("        clr  a\n        movc a, @a+dptr\n");
                sv_x(k);
            }
            printf("        mov  r0, #(SVW(%d, %d) & 0xFF)\n", k + 1, j);
            for (int i = k + 1; i < d; i++)
                printf("        mov  a, SVFL(%d)\n        movc a, @a+dptr\n        anl  a, SVFM(%d)\n"
                       "        mov  r5, a\n        movx a, @r0\n        xrl  a, r5\n        movx @r0, a\n%s",
                       i, i, i + 1 < d ? "        inc  r0\n" : "");
        }
    }
    for (int j = d - 1; j >= 1; j--) {
        printf("        ; back substitution, column %d\n        mov  a, _k_Klo\n        add  a, #%d\n"
               "        mov  r0, a\n        mov  a, @r0\n        mov  r5, a\n        mov  dptr, #GFT_HIA\n"
               "        movc a, @a+dptr\n        add  a, #GFT_PAGE\n        xch  a, r5\n"
               "        inc  dph\n        movc a, @a+dptr\n        mov  dpl, a\n        mov  dph, r5\n", j, j);
        sv_p2(j);
        printf("        mov  r0, #(SVW(SUOFF, %d) & 0xFF)\n        mov  r1, _k_Klo\n", j);
        for (int i = 0; i < j; i++)
            printf("        movx a, @r0\n        inc  r0\n        movc a, @a+dptr\n        mov  r5, a\n"
                   "        movx a, @r0\n        inc  r0\n        anl  a, r5\n        xrl  a, @r1\n"
                   "        mov  @r1, a\n        inc  r1\n");
    }
    printf("        mov  dpl, _k_ok\n#endif\n");
}

/* the sizes the set's layers need: 1, and a and b when both are small
 * (card_map.h: SV_GEN) */
static void solve_gen(const struct set *P)
{
    printf("/* The layer solver written out for the small sizes (see gen_card.c). */\n"
           "#ifdef CARD_SOLVE_ASM\n");
    solve_asm_gen(1);
    if (P->a <= SV_UNROLL_MAX && P->b <= SV_UNROLL_MAX) {
        solve_asm_gen(P->a);
        if (P->b != P->a)
            solve_asm_gen(P->b);
    }
    printf("#endif\n");
}

/* a set the ROM family's term table cannot hold: the message, exit 1 */
static int fail(const struct set *P, const char *why)
{
    fprintf(stderr, "gen_card: TTS(%d,%d): %s\n", P->m, P->n, why);
    return 1;
}

/* stdout to DIR/NAME.tmp (renamed when complete: done) */
static char tmp_path[4200], out_path[4096];
static void out_open(const char *dir, const char *name)
{
    snprintf(out_path, sizeof out_path, "%s/%s", dir, name);
    snprintf(tmp_path, sizeof tmp_path, "%s.tmp", out_path);
    if (!freopen(tmp_path, "w", stdout)) {
        perror(tmp_path);
        exit(1);
    }
}

static void out_done(void)
{
    if (fflush(stdout) != 0 || ferror(stdout) || rename(tmp_path, out_path) != 0) {
        perror(out_path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    unsigned char gft[1023] = {0}, ex[255];
    unsigned x = 1;
    for (int i = 0; i < 255; i++) {      /* powers of the generator 0x03 */
        ex[i] = (unsigned char)x;
        gft[767 + x] = (unsigned char)i;
        x ^= xt(x);                      /* x *= 3 */
    }
    if (x != 1)
        return 1;
    for (int i = 0; i <= 510; i++)
        gft[i] = ex[i % 255];
    gft[511] = 2;
    gft[767] = 0;

    if (argc != 2) {
        fprintf(stderr, "usage: gen_card DIR\n");
        return 2;
    }
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        const struct set *P = &sets[s];
        int C = P->layer[4];
        char name[64];
        snprintf(name, sizeof name, "card_tables_%d_%d.h", P->m, P->n);
        out_open(argv[1], name);
        printf("/* SPDX-License-Identifier: MIT */\n"
               "/* Generated by 8051/gen_card.c from ref/central_tables.h; do not edit.\n"
               " * TTS(%d,%d): included by card_tables.h. */\n"
               "#ifndef CARD_TABLES_SET_H\n#define CARD_TABLES_SET_H\n", P->m, P->n);
        printf("#define TTS_V %d\n#define TTS_A %d\n#define TTS_B %d\n#define TTS_C %d\n",
               P->v, P->a, P->b, C);
        for (int L = 0; L <= 4; L++)
            printf("#define TTS_LAYER%d %u\n", L, P->layer[L]);
        key_layout(P);
        /* the ROM family's term table: per layer the same number of terms
         * in every row (TTS_TPRL), and per term two bytes, TX(u) and
         * TC(w - lo) for a matrix entry or TW(w) for a right-hand-side
         * product (macros of card_map.h); the one-unknown layers have no
         * matrix entry. The card makes these bytes itself at reset from
         * the formulas (kernels_rom.c, rk_tgen); this table, from ref's
         * term tables, is the build's and the tests' reference (the
         * image's .sizes, t_uw) */
        printf("#define T_UW_INIT {");
        for (int L = 0; L < 4; L++) {
            int lo = L == 0 ? P->v : L == 1 ? P->v + P->a : L == 2 ? P->v + P->a + 1 : P->v + P->a + 2;
            int dim = L == 0 ? P->a : L == 3 ? P->b : 1;
            int nt = (int)(P->layer[L + 1] - P->layer[L]);
            if (nt % dim)
                return 1;
            for (int t = P->layer[L]; t < (int)P->layer[L + 1]; t++) {
                const tts_term *T = &P->terms[t];
                if (T->row != lo + (t - (int)P->layer[L]) / (nt / dim))
                    return fail(P, "the rows of a layer have different numbers of terms");
                if (dim == 1 && T->w >= lo)
                    return fail(P, "a one-unknown layer has a matrix term (the kernels "
                                   "solve it as [1 | r])");
                printf("%s TX(%d), %s(%d)%s", (t - P->layer[0]) % 6 ? "" : " \\\n   ", T->u,
                       T->w >= lo ? "TC" : "TW", T->w >= lo ? T->w - lo : T->w, t + 1 < C ? "," : "");
            }
        }
        printf(" }\n");
        for (int L = 0; L < 4; L++) {
            int dim = L == 0 ? P->a : L == 3 ? P->b : 1;
            printf("#define TTS_TPR%d %d\n", L, (int)(P->layer[L + 1] - P->layer[L]) / dim);
        }
        printf("#ifdef CARD_WANT_TERMS\n");
        unsigned char r[TTS_MAX_N * TTS_MAX_N], u[sizeof r], w[sizeof r];
        for (int t = 0; t < C; t++) {
            r[t] = P->terms[t].row;
            u[t] = P->terms[t].u;
            w[t] = P->terms[t].w;
        }
        unsigned char ruw[3 * sizeof r];
        for (int t = 0; t < C; t++) {
            ruw[3 * t] = r[t];
            ruw[3 * t + 1] = u[t];
            ruw[3 * t + 2] = w[t];
        }
        bytes("T_RUW", ruw, 3 * C);
        printf("#endif\n#endif\n\n");
        /* outside the include guard: included again with a mode macro */
        terms_asm(P);
        solve_gen(P);
        out_done();
    }
    out_open(argv[1], "card_tables.h");
    printf("/* SPDX-License-Identifier: MIT */\n"
           "/* Generated by 8051/gen_card.c from ref/central_tables.h; do not edit.\n"
           " * One parameter set per image: compile with -DTTS_M=m -DTTS_N=n, which\n"
           " * selects the set's header (its term code and solver are included again,\n"
           " * with a mode macro, by k_layer.c). */\n");
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++)
        printf("%s TTS_M == %d && TTS_N == %d\n#include \"card_tables_%d_%d.h\"\n",
               s ? "#elif" : "#if", sets[s].m, sets[s].n, sets[s].m, sets[s].n);
    printf("#else\n#error \"TTS_M/TTS_N: not one of the eight sets\"\n#endif\n\n");
    printf("#ifndef CARD_TABLES_H\n#define CARD_TABLES_H\n\n");
    printf("/* layers of at most this many unknowns: the solver written out */\n"
           "#define CARD_SV_UNROLL_MAX %d\n\n", SV_UNROLL_MAX);
    printf("/* term t: p_t x[u] x[w] added to y[row], interleaved {row, u, w} */\n"
           "extern __code const uint8_t T_RUW[3 * TTS_C];\n"
           "#define TROW(t) (T_RUW[3 * (t)])\n#define TU(t) (T_RUW[3 * (t) + 1])\n"
           "#define TW(t) (T_RUW[3 * (t) + 2])\n\n");
    printf("#ifdef CARD_WANT_GFT\n");
    printf("#define GFT_INIT {");
    for (int i = 0; i < 1023; i++)
        printf("%s%u%s", i % 24 ? "" : " \\\n    ", gft[i], i + 1 < 1023 ? "," : "");
    /* the ROM family's GFT: exp alone (no zero page: zeros are masked;
     * LOGLO: made in XDATA at reset, rom.c) */
    printf(" }\n#define GFT_ROM_INIT {");
    for (int i = 0; i < 511; i++)
        printf("%s%u%s", i % 24 ? "" : " \\\n    ", gft[i], i + 1 < 511 ? "," : "");
    printf(" }\n#endif\n\n#endif\n");
    out_done();
    return 0;
}
