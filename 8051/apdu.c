/*
 * One command of the card (docs/CARD.md): the status words in the order
 * CLA, INS, P1P2, Lc, state, data, and the writes of PUT KEY. The transport
 * and the cycle counter are in main.c; this file also compiles on the host
 * (-DCARD_HOST) for the APDU fuzzer (fuzz/fuzz_apdu.c).
 *
 * In:  apdu_cla .. apdu_lc, command data at X_CMD.
 * Out: the status word; apdu_la bytes of response data at X_RESP.
 */
#include "card.h"

#define ACTIVE (XB(X_MISC) == 0xA5)

__xdata uint8_t apdu_cla, apdu_ins, apdu_p1, apdu_p2, apdu_lc, apdu_la;
__xdata uint32_t last_cycles, last_chacha;

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

uint16_t apdu_run(void)
{
    /* xdata, not locals: internal RAM is the scarce resource */
    static __xdata uint16_t sw, off;
    static __xdata uint8_t i;
#define lc   apdu_lc
#define ins  apdu_ins
#define cmd  XP(X_CMD)
#define resp XP(X_RESP)

    off = ((uint16_t)apdu_p1 << 8) | apdu_p2;
    apdu_la = 0;
    sw = 0x9000;
    if (apdu_cla != 0x80) {
        sw = 0x6E00;
    } else if (ins == 0x10) {                      /* GET INFO */
        if (off) sw = 0x6A86;
        else if (lc) sw = 0x6700;
        else {
            resp[0] = M; resp[1] = N; resp[2] = V; resp[3] = A;
            resp[4] = B; resp[5] = 1; resp[6] = SEG_K;
            apdu_la = 7;
        }
    } else if (ins == 0x12 || ins == 0x14) {       /* GET CYCLES, PROFILE */
        if (off) sw = 0x6A86;
        else if (lc) sw = 0x6700;
        else {
            put32(resp, last_cycles);
            apdu_la = 4;
            if (ins == 0x14) {
                put32(resp + 4, last_chacha);
                apdu_la = 8;
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
        else apdu_la = pk_segment(off);
    } else if (ins == 0x40) {                      /* SIGN */
        if (off) sw = 0x6A86;
        else if (lc != M + 32) sw = 0x6700;
        else if (!ACTIVE) sw = 0x6985;
        else if (sign()) sw = 0x6A80;
        else apdu_la = N;
    } else if (ins == 0xFE) {                      /* HALT */
        if (off) sw = 0x6A86;
        else if (lc) sw = 0x6700;
    } else {
        sw = 0x6D00;
    }
    return sw;
#undef lc
#undef ins
#undef cmd
#undef resp
}
