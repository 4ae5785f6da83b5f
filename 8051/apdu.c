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
#include "protocol.h"

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
    sw = CARD_SW_OK;
    if (apdu_cla != CARD_CLA) {
        sw = CARD_SW_CLA;
    } else if (ins == CARD_GET_INFO) {                      /* GET INFO */
        if (off) sw = CARD_SW_P1P2;
        else if (lc) sw = CARD_SW_LENGTH;
        else {
            resp[0] = M; resp[1] = N; resp[2] = V; resp[3] = A;
            resp[4] = B; resp[5] = 1; resp[6] = SEG_K;
            apdu_la = 7;
        }
    } else if (ins == CARD_GET_CYCLES || ins == CARD_GET_PROFILE) {       /* GET CYCLES, PROFILE */
        if (off) sw = CARD_SW_P1P2;
        else if (lc) sw = CARD_SW_LENGTH;
        else {
            put32(resp, last_cycles);
            apdu_la = 4;
            if (ins == CARD_GET_PROFILE) {
                put32(resp + 4, last_chacha);
                apdu_la = 8;
            }
        }
    } else if (ins == CARD_GENERATE_KEY) {                      /* GENERATE KEY */
        if (off) sw = CARD_SW_P1P2;
        else if (lc != 32) sw = CARD_SW_LENGTH;
        else key_generate();
    } else if (ins == CARD_PUT_KEY) {                      /* PUT KEY */
        if (off >= SK_BYTES || (uint16_t)lc > SK_BYTES - off) sw = CARD_SW_P1P2;
        else if (!lc) sw = CARD_SW_LENGTH;
        else {
            for (i = 0; i < lc; i++, off++) {
                XB(X_STAGE + off) = cmd[i];
                XB(X_WMAP + (off >> 3)) |= (uint8_t)(1 << (off & 7));
            }
        }
    } else if (ins == CARD_COMMIT_KEY) {                      /* COMMIT KEY */
        if (off) sw = CARD_SW_P1P2;
        else if (lc) sw = CARD_SW_LENGTH;
        else if (!wmap_full()) sw = CARD_SW_STATE;
        else if (key_commit()) sw = CARD_SW_DATA;
    } else if (ins == CARD_GET_PK_SEGMENT) {                      /* GET PK SEGMENT */
        if (off >= NSEG) sw = CARD_SW_P1P2;
        else if (lc) sw = CARD_SW_LENGTH;
        else if (!ACTIVE) sw = CARD_SW_STATE;
        else apdu_la = pk_segment(off);
    } else if (ins == CARD_SIGN) {                      /* SIGN */
        if (off) sw = CARD_SW_P1P2;
        else if (lc != M + 32) sw = CARD_SW_LENGTH;
        else if (!ACTIVE) sw = CARD_SW_STATE;
        else if (sign()) sw = CARD_SW_DATA;
        else apdu_la = N;
    } else if (ins == CARD_HALT) {                      /* HALT */
        if (off) sw = CARD_SW_P1P2;
        else if (lc) sw = CARD_SW_LENGTH;
    } else {
        sw = CARD_SW_INS;
    }
    return sw;
#undef lc
#undef ins
#undef cmd
#undef resp
}
