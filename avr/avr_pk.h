/* SPDX-License-Identifier: MIT */
/*
 * The public key's room in the AVR image's flash, shared by the firmware
 * (avr/verify.c) and its programmer (host/avrsim.c):
 *
 *   PK bytes     each coefficient c of docs/SPEC.md 5.4, in its order, as
 *                log_3 c, and 0xFF for c = 0
 *   the zero list  one entry (i, j, k) of three bytes for each coefficient
 *                that is 0: row k of the block of w_i w_j (j = n for the
 *                linear w_i), in the key's order; then AVR_PK_ZEND
 *
 * VERIFY's kernel (avr/gf_verify.S) reads every coefficient without a
 * test, which counts a 0xFF as the coefficient 1; the list undoes those.
 * A key with more zero coefficients than the room holds does not fit, and
 * the programmer refuses it. The room: 200 entries on the ATmega328P (a
 * uniform key of TTS(24,34), the largest there, has 59 zero coefficients
 * on average), 400 on the ATmega2560, whose sets have public keys over
 * AVR_PK_LARGE bytes (TTS(36,50): 186 on average, deviation 13.6: 400 is
 * 15.7 above). TTS(28,38) (21,812 bytes) is the ATmega2560's too: with
 * the PIN and the counter's two slots its image passes the ATmega328P's
 * 32 KB by 480 bytes.
 */
#ifndef TTS_AVR_PK_H
#define TTS_AVR_PK_H

/* the public-key size from which a set's image is the ATmega2560's
 * (avr/build-image.sh chooses the part by the same bound) */
#define AVR_PK_LARGE      20000
#define AVR_PK_ZMAX_SMALL 200
#define AVR_PK_ZMAX_LARGE 400
/* for a public key of pkb bytes */
#define AVR_PK_ZMAX(pkb)  ((pkb) > AVR_PK_LARGE ? AVR_PK_ZMAX_LARGE : AVR_PK_ZMAX_SMALL)
#define AVR_PK_ZEND       0xFF
#define AVR_PK_ZROOM(pkb) (3 * AVR_PK_ZMAX(pkb) + 1)

#ifndef __AVR__
#include <stddef.h>
#include <stdint.h>

/* The zero list of the public key pk (pkb = m n(n+3)/2 bytes of
 * docs/SPEC.md 5.4) into room (AVR_PK_ZROOM(pkb) bytes): the count of zero
 * coefficients, or -1 if there are more than AVR_PK_ZMAX(pkb). */
static inline int avr_pk_zeros(const uint8_t *pk, unsigned m, unsigned n, uint8_t *room)
{
    size_t at = 0;
    int count = 0;
    for (unsigned b = 0, i = 0, j = 0; b < n * (n + 3) / 2; b++) {
        /* block b: w_i w_j for i <= j (b < n(n+1)/2), then w_i alone */
        for (unsigned k = 0; k < m; k++) {
            if (pk[(size_t)b * m + k])
                continue;
            if (count++ == AVR_PK_ZMAX((size_t)m * n * (n + 3) / 2))
                return -1;
            room[at++] = (uint8_t)i;
            room[at++] = (uint8_t)j;
            room[at++] = (uint8_t)k;
        }
        if (b + 1 < n * (n + 1) / 2) {
            if (++j == n)
                j = ++i;
        } else if (b + 1 == n * (n + 1) / 2) {
            i = 0;
            j = n;
        } else {
            i++;
        }
    }
    room[at] = AVR_PK_ZEND;
    return count;
}
#endif

#endif
