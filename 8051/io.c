/* SPDX-License-Identifier: MIT */
/*
 * Transport: get byte / put byte, chosen at build time.
 *  default     the ucsim simulator interface at XDATA 0xFFFF (docs/CARD.md, Protocol):
 *              write 'r' then read the byte; write 'w' then the byte;
 *              's' stops the simulation.
 *  CARD_UART   the on-chip UART, 8 data bits, no parity (mode 1), baud
 *              from Timer 1 in auto-reload mode, SMOD = 1, TH1 = 0xFF
 *              (the fastest rate of the crystal: f/192, 18.6 kBd at
 *              3.57 MHz). Timer 0 stays free for the cycle counter.
 */
#include <8052.h>
#include "card.h"

volatile __xdata __at(0xFFFF) uint8_t SIMIF;

#ifdef CARD_UART
void io_init(void)
{
    SCON = 0x50;               /* mode 1, receiver on */
    PCON |= 0x80;              /* SMOD */
    TMOD = (TMOD & 0x0F) | 0x20;
    TH1 = 0xFF;
    TL1 = 0xFF;
    TR1 = 1;
    TI = 0;
    RI = 0;
}

uint8_t getb(void)
{
    while (!RI)
        ;
    RI = 0;
    return SBUF;
}

void putb(uint8_t c)
{
    SBUF = c;
    while (!TI)
        ;
    TI = 0;
}
#else
void io_init(void)
{
}

uint8_t getb(void)
{
    SIMIF = 'r';
    return SIMIF;
}

void putb(uint8_t c)
{
    SIMIF = 'w';
    SIMIF = c;
}
#endif

void sim_stop(void)
{
    SIMIF = 's';
}
