/* SPDX-License-Identifier: MIT */
/*
 * The card's command loop (docs/CARD.md): APDU framing over the
 * transport and the Timer 0 cycle counter behind GET CYCLES; apdu.c
 * decides each command's status word.
 *
 * Command: CLA INS P1 P2 Lc data[Lc] Le. Response: La data[La] SW1 SW2.
 */
#include <8052.h>
#include "card.h"
#include "protocol.h"

/* Timer 0, mode 1, clock/12; overflows counted by the interrupt. */
__data volatile uint16_t t0_ovf;

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

/* First thing in main: fill the internal RAM above the stack pointer (up
 * to IRAM_TOP) with 0xA5, so that the build can read the peak stack use
 * back from the simulator (8051/build-image.sh). */
static void fill_stack(void) __naked
{
    __asm
        mov  r0, sp
    es_fill:
        inc  r0
        mov  @r0, #0xA5
        cjne r0, #IRAM_TOP, es_fill
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

void main(void)
{
    static __xdata uint16_t sw;
    uint8_t i;
    __xdata uint8_t *cmd = XP(X_CMD), *resp = XP(X_RESP);

#ifdef IA_END
    /* the stack above the arena placed at IA_ABS (card.h); main never
     * returns, so its own return address may stay below */
    __asm
        mov  sp, #(IA_END - 1)
    __endasm;
#endif
    fill_stack();
    pin_ok = 0;
    if (XB(X_JRNL) == NV_MAGIC) /* a key install was cut: finish it */
        key_install();
    /* a key install takes its PIN and every byte of its key from the
     * session that commits it (docs/CARD.md, Threat model) */
    wmap_clear();
    XB(X_PINST) = 0xFF;
    TMOD = (TMOD & 0xF0) | 0x01;
    ET0 = 1;
    EA = 1;
    io_init();
    for (;;) {
        apdu_cla = getb();
        apdu_ins = getb();
        apdu_p1 = getb();
        apdu_p2 = getb();
        apdu_lc = getb();
        for (i = 0; i < apdu_lc; i++)
            cmd[i] = getb();
        (void)getb(); /* Le: ignored, each response length is fixed */
        timer_start();
        sw = apdu_run();
        last_chacha = prof_chacha;
        putb(apdu_la);
        for (i = 0; i < apdu_la; i++)
            putb(resp[i]);
        putb((uint8_t)(sw >> 8));
        putb((uint8_t)sw);
        last_cycles = timer_stop();
        if (apdu_ins == CARD_HALT && sw == CARD_SW_OK && apdu_cla == CARD_CLA)
            sim_stop();
    }
}
