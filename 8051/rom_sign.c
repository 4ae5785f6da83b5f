/* SPDX-License-Identifier: MIT */
/*
 * The ROM family's term records and SIGN's flow (docs/CARD-IMAGES.md, "The ROM
 * family"), over the kernels of kernels_rom.c: rk_tgen and rk_tfill write
 * the records the layer build loops over (at reset, and rk_tfill after
 * each install), sign runs one SIGN after the counter (rom.c).
 */
#include "kernels_rom.h"

/*
 * The term records (X_TERMS; card_map.h). rk_tgen writes their first two
 * bytes at reset from the formulas of docs/SPEC.md section 3, in
 * secret-key coefficient order:
 *   layer 1, i = v .. v+a-1, j = 1 .. v-1: TX(j), TC((i + j) mod a);
 *   mu1: TX(k), TW(v-1-k) for k = 1 .. h (h = (v-2)/2), then TX(a+k),
 *   TW(v+a-1-k) for k = 0 .. v/2-1; mu2: the same runs from (2, v-1) and
 *   (a+1, v+a);
 *   layer 3, i = c .. n-1, r = i - c: TX(r+v), TW(r+v+2), then per column
 *   q = 0 .. b-1 (the unknown x[c+q]) TX(u), TC(q) with u = 2(r-q) - (i mod
 *   2) for q < r, 0 for q = r, c + r - q for q > r.
 * rk_tfill writes their third bytes, the active key's coefficients (L1,
 * X_KCO): at reset and after each install (rk_tfilld: the C bytes at
 * DPTR, for COMMIT KEY's check). Both loops run on public counts.
 */
#define TG_C (V + A + 2)           /* layer 3's first variable */
#define TG_H ((V - 2) / 2)
void rk_terms(void) __naked
{
    __asm
    _rk_tgen::
        mov  P2, #(X_TERMS >> 8)
        mov  r0, #0
        ; layer 1: R6 = i, R7 = j; (i + j) mod a by DIV
        mov  r6, #V
    tg_l1r:
        mov  r7, #1
    tg_l1t:
        mov  a, r6
        add  a, r7
        mov  b, #A
        div  ab
        mov  a, #TC(0)
        add  a, b
        mov  b, a
        mov  a, r7
        acall tg_put
        inc  r7
        cjne r7, #V, tg_l1t
        inc  r6
        cjne r6, #(V + A), tg_l1r
        ; mu1, mu2: four runs of TX(u), TW(w), u up and w down (tg_mu: u,
        ; TW(w), the count)
        mov  dptr, #tg_mu
        mov  r6, #4
    tg_mr:
        clr  a
        movc a, @a+dptr
        mov  r4, a
        inc  dptr
        clr  a
        movc a, @a+dptr
        mov  r5, a
        inc  dptr
        clr  a
        movc a, @a+dptr
        mov  r7, a
        inc  dptr
    tg_mt:
        mov  b, r5
        mov  a, r4
        acall tg_put
        inc  r4
        dec  r5
        djnz r7, tg_mt
        djnz r6, tg_mr
        ; layer 3: R5 = r, R4 = q, R6 = i mod 2
        mov  r5, #0
    tg_l3r:
        mov  a, r5
        add  a, #TW(V + 2)
        mov  b, a
        mov  a, r5
        add  a, #V
        acall tg_put
        mov  a, r5
        add  a, #TG_C
        anl  a, #1
        mov  r6, a
        mov  r4, #0
    tg_l3t:
        mov  a, r4
        add  a, #TC(0)
        mov  b, a
        mov  a, r5
        clr  c
        subb a, r4                ; r - q
        jz   tg_l3u               ; q = r: u = 0
        jnc  tg_l3lo
        add  a, #TG_C             ; q > r: c + r - q
        sjmp tg_l3u
    tg_l3lo:
        rl   a                    ; q < r: 2 (r - q) - (i mod 2)
        clr  c
        subb a, r6
    tg_l3u:
        acall tg_put
        inc  r4
        cjne r4, #B, tg_l3t
        inc  r5
        cjne r5, #B, tg_l3r
        ret
        ; one record at P2:R0: A = u, B = the second byte
    tg_put:
        add  a, #TX(0)
        movx @r0, a
        inc  r0
        mov  a, b
        movx @r0, a
        inc  r0
        inc  r0
        cjne r0, #(3 * TREC_PP), tg_p1 ; the page's last record
        mov  r0, #0
        inc  P2
    tg_p1:
        ret
    tg_mu:                        ; (u, TW(w), count) of the four runs
        .db  1, TW(V - 2), TG_H, A, TW(V + A - 1), V / 2
        .db  2, TW(V - 1), TG_H, A + 1, TW(V + A), V / 2

    _rk_tfill::
        mov  dptr, #X_KCO
    _rk_tfilld::                  ; (from DPTR: COMMIT KEY's check)
        mov  P2, #(X_TERMS >> 8)
        mov  r0, #2
        mov  r7, #C
    tf_t:
        movx a, @dptr
        inc  dptr
        movx @r0, a
        mov  a, r0
        add  a, #3
        mov  r0, a
        jnc  tf_s                 ; the page's last record
        mov  r0, #2
        inc  P2
    tf_s:
        djnz r7, tf_t
        ret
    __endasm;
}

/*
 * SIGN after the counter (rom.c): the card's stream (chacha.c), x = h,
 * u = S1 h + s1, then per attempt v stream bytes and the four layers (all
 * four, always), sigma = S3 x + s3 to X_RESP. Ends the command (rom.c
 * jumps here): the response length rm_la = n, or 6A80 when MAX_ATTEMPTS
 * attempts failed (the attempts left counted down in rk_p1, which the
 * matvecs alone use, low byte first: SR_ATTL + 256 (SR_ATTH - 1) of
 * them). F0 tells the matvec S1 from S3 where it writes its rows out
 * (kernels_rom.c).
 */
#define SR_ATTL (MAX_ATTEMPTS % 256)
#define SR_ATTH (MAX_ATTEMPTS / 256 + 1)
#if SR_ATTL == 0 || SR_ATTH > 255
#error "rom_sign.c: the attempt count"
#endif

void sign_rom(void) __naked
{
    __asm
        NCALL _stream_init_card
        mov  P2, #(X_CMD >> 8)
        mov  r1, #(X_CMD & 0xFF)
        mov  r0, #(_IA + IX_OFF)  ; x = h, in L1 form
        mov  r7, #M
        NCALL _rk_l1in
        mov  dptr, #X_Ks1
        mov  _rk_p1, #(X_U & 0xFF)
        mov  (_rk_p1 + 1), #(X_U >> 8)
        mov  _k_rows, #M
#ifndef CARD_ROM_MV_ROLL
        setb F0
#endif
        mov  r2, #_K1_RUNS
        mov  r3, #(_K1_RUNS >> 8)
        lcall _matvec_rom
        mov  _rk_p1, #SR_ATTL
        mov  (_rk_p1 + 1), #SR_ATTH
    sr_att:
        mov  r0, #(_IA + IX_OFF)  ; the vinegar, in L1 form
        mov  _k_cnt, #V
        NCALL _stream_take_k
        mov  _rk_ok, #1
        mov  _rk_p0, #(X_TERMS & 0xFF)
        mov  (_rk_p0 + 1), #(X_TERMS >> 8)
        mov  _rk_lay, #0
    sr_lay:
        lcall _rk_build
        mov  a, _k_dim
        dec  a
        jz   sr_one               ; public: rk_build solved a one-unknown layer
        NCALL RK_SOLVE
    sr_one:
        mov  a, _rk_lay
        add  a, #3
        mov  _rk_lay, a
        cjne a, #12, sr_lay
        mov  a, _rk_ok
        jnz  sr_ok                ; declassified: the attempt succeeded
        djnz _rk_p1, sr_att
        djnz (_rk_p1 + 1), sr_att
        lcall _stream_wipe
        ljmp _rm_sw_6a80
    sr_ok:
        mov  dptr, #X_Ks3
        mov  _rk_p1, #(X_RESP & 0xFF)
        mov  (_rk_p1 + 1), #(X_RESP >> 8)
        mov  _k_rows, #N
#ifndef CARD_ROM_MV_ROLL
        clr  F0
#endif
        mov  r2, #_K3_RUNS
        mov  r3, #(_K3_RUNS >> 8)
        lcall _matvec_rom
        mov  _rm_la, #N
        ljmp _stream_wipe
    __endasm;
}
