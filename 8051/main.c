/*
 * The card's command loop (docs/CARD.md): APDU framing, status
 * words in the order CLA, INS, P1P2, Lc, state, data, and the Timer 0
 * cycle counter behind GET CYCLES.
 *
 * Command: CLA INS P1 P2 Lc data[Lc] Le. Response: La data[La] SW1 SW2.
 */
#include <8052.h>
#include "card.h"

#define ACTIVE (XB(X_MISC) == 0xA5)

/* Timer 0, mode 1, clock/12; overflows counted by the interrupt. */
__data volatile uint16_t t0_ovf;
__xdata uint32_t last_cycles, last_chacha;

void t0_isr(void) __interrupt(1) __naked
{
    __asm
        push acc
        push psw
        mov  a, _t0_ovf
        add  a, #1
        mov  _t0_ovf, a
        mov  a, (_t0_ovf + 1)
        addc a, #0
        mov  (_t0_ovf + 1), a
        pop  psw
        pop  acc
        reti
    __endasm;
}

/* First thing in main: fill the internal RAM above the stack pointer with
 * 0xA5, so that the build can read the peak stack use back from the
 * simulator (8051/build-image.sh). */
static void fill_stack(void) __naked
{
    __asm
        mov  r0, sp
    es_fill:
        inc  r0
        mov  @r0, #0xA5
        cjne r0, #0xFF, es_fill
        ret
    __endasm;
}

/* For the ChaCha profile: the counter while it runs. */
uint32_t cycles_now(void)
{
    uint8_t h, l;
    uint16_t o;
    do {
        o = t0_ovf;
        h = TH0;
        l = TL0;
    } while (o != t0_ovf || h != TH0);
    return ((uint32_t)o << 16) | ((uint16_t)h << 8) | l;
}

static void timer_start(void)
{
    TR0 = 0;
    TH0 = 0;
    TL0 = 0;
    TF0 = 0;
    t0_ovf = 0;
    prof_chacha = 0;
    TR0 = 1;
}

static uint32_t timer_stop(void)
{
    TR0 = 0;
    if (TF0) { /* an overflow the interrupt has not seen yet */
        TF0 = 0;
        t0_ovf++;
    }
    return ((uint32_t)t0_ovf << 16) | ((uint16_t)TH0 << 8) | TL0;
}

static uint8_t wmap_full(void) __reentrant
{
    uint16_t i;
    uint8_t a = 0xFF;
    for (i = 0; i < SK_BYTES / 8; i++)
        a &= XB(X_WMAP + i);
#if SK_BYTES % 8
    a &= XB(X_WMAP + SK_BYTES / 8) | (uint8_t)(0xFF << (SK_BYTES % 8));
#endif
    return a == 0xFF;
}

static void put32(__xdata uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

void main(void)
{
    static __xdata uint8_t cla, ins, p1, p2, lc, la;
    static __xdata uint16_t sw, off;
    uint8_t i;
    __xdata uint8_t *cmd = XP(X_CMD), *resp = XP(X_RESP);

    fill_stack();
    TMOD = (TMOD & 0xF0) | 0x01;
    ET0 = 1;
    EA = 1;
    io_init();
    for (;;) {
        cla = getb();
        ins = getb();
        p1 = getb();
        p2 = getb();
        lc = getb();
        for (i = 0; i < lc; i++)
            cmd[i] = getb();
        (void)getb(); /* Le: ignored, each response length is fixed */
        timer_start();
        off = ((uint16_t)p1 << 8) | p2;
        la = 0;
        sw = 0x9000;
        if (cla != 0x80) {
            sw = 0x6E00;
        } else if (ins == 0x10) {                      /* GET INFO */
            if (off) sw = 0x6A86;
            else if (lc) sw = 0x6700;
            else {
                resp[0] = M; resp[1] = N; resp[2] = V; resp[3] = A;
                resp[4] = B; resp[5] = 1; resp[6] = SEG_K;
                la = 7;
            }
        } else if (ins == 0x12 || ins == 0x14) {       /* GET CYCLES, PROFILE */
            if (off) sw = 0x6A86;
            else if (lc) sw = 0x6700;
            else {
                put32(resp, last_cycles);
                la = 4;
                if (ins == 0x14) {
                    put32(resp + 4, last_chacha);
                    la = 8;
                }
            }
        } else if (ins == 0x20) {                      /* GENERATE KEY */
            if (off) sw = 0x6A86;
            else if (lc != 32) sw = 0x6700;
            else key_generate();
        } else if (ins == 0x22) {                      /* PUT KEY */
            if (off >= SK_BYTES || (uint16_t)lc > SK_BYTES - off) sw = 0x6A86;
            else if (!lc) sw = 0x6700;
            else {
                for (i = 0; i < lc; i++, off++) {
                    XB(X_STAGE + off) = cmd[i];
                    XB(X_WMAP + (off >> 3)) |= (uint8_t)(1 << (off & 7));
                }
            }
        } else if (ins == 0x24) {                      /* COMMIT KEY */
            if (off) sw = 0x6A86;
            else if (lc) sw = 0x6700;
            else if (!wmap_full()) sw = 0x6985;
            else if (key_commit()) sw = 0x6A80;
        } else if (ins == 0x30) {                      /* GET PK SEGMENT */
            if (off >= NSEG) sw = 0x6A86;
            else if (lc) sw = 0x6700;
            else if (!ACTIVE) sw = 0x6985;
            else la = pk_segment(off);
        } else if (ins == 0x40) {                      /* SIGN */
            if (off) sw = 0x6A86;
            else if (lc != M + 32) sw = 0x6700;
            else if (!ACTIVE) sw = 0x6985;
            else if (sign()) sw = 0x6A80;
            else la = N;
        } else if (ins == 0xFE) {                      /* HALT */
            if (off) sw = 0x6A86;
            else if (lc) sw = 0x6700;
        } else {
            sw = 0x6D00;
        }
        last_chacha = prof_chacha;
        putb(la);
        for (i = 0; i < la; i++)
            putb(resp[i]);
        putb((uint8_t)(sw >> 8));
        putb((uint8_t)sw);
        last_cycles = timer_stop();
        if (ins == 0xFE && sw == 0x9000 && cla == 0x80)
            sim_stop();
    }
}
