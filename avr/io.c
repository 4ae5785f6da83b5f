/* SPDX-License-Identifier: MIT */
/* The transport: the simulator's three registers (protocol.h). */
#include <avr/io.h>

#include "avr.h"

uint8_t io_get(void)
{
    while (!_SFR_MEM8(AVR_IO_AVAIL))
        ;
    return _SFR_MEM8(AVR_IO_IN);
}

void io_put(uint8_t b)
{
    _SFR_MEM8(AVR_IO_OUT) = b;
}
