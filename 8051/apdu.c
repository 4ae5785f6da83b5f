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

#define ACTIVE (XB(X_ACTIVE) == NV_MAGIC)
#define PIN_STAGED (XB(X_PINST) >= PIN_MIN && XB(X_PINST) <= PIN_MAX)

__xdata uint8_t apdu_cla, apdu_ins, apdu_p1, apdu_p2, apdu_lc, apdu_la;
__xdata uint8_t pin_ok;
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

/* VERIFY (ISO 7816-4; the key is active, Lc is 0 or PIN_MIN..PIN_MAX).
 * The try is counted in non-volatile memory before the comparison, so a
 * cut after it cannot undo it; the comparison reads all PIN_MAX bytes
 * whatever the PIN and the data (the stored PIN is 0-padded, the data
 * padded the same way), and only its result steers. Lc = 0 asks the state
 * without a try. Any VERIFY but a good one leaves the session unverified. */
static uint16_t pin_verify(void)
{
    static __xdata uint8_t t, d, i;
    t = XB(X_TRIES);
    if (t > PIN_TRIES)
        t = 0;
    if (!apdu_lc)
        return pin_ok ? CARD_SW_OK : t ? CARD_SW_PIN_WRONG | t : CARD_SW_BLOCKED;
    pin_ok = 0;
    if (!t)
        return CARD_SW_BLOCKED;
    XB(X_TRIES) = t - 1;
    d = apdu_lc ^ XB(X_PIN);
    for (i = 0; i < PIN_MAX; i++) /* i < lc: public (the length sent) */
        d |= (i < apdu_lc ? XB(X_CMD + i) : 0) ^ XB(X_PIN + 1 + i);
    if (d)
        return CARD_SW_PIN_WRONG | (t - 1);
    XB(X_TRIES) = PIN_TRIES;
    pin_ok = 1;
    return CARD_SW_OK;
}

/* SET PIN: staged for the next GENERATE / COMMIT KEY; the length byte,
 * written last, makes it valid. */
static void pin_stage(void)
{
    static __xdata uint8_t i;
    XB(X_PINST) = 0xFF;
    for (i = 0; i < PIN_MAX; i++)
        XB(X_PINST + 1 + i) = i < apdu_lc ? XB(X_CMD + i) : 0;
    XB(X_PINST) = apdu_lc;
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
    if (apdu_cla == CARD_CLA_ISO && ins == CARD_VERIFY) {          /* VERIFY */
        if (off) sw = CARD_SW_P1P2;
        else if (lc > PIN_MAX || (lc && lc < PIN_MIN)) sw = CARD_SW_LENGTH;
        else if (!ACTIVE) sw = CARD_SW_STATE;
        else sw = pin_verify();
    } else if (apdu_cla != CARD_CLA) {
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
    } else if (ins == CARD_GET_COUNTER) {                  /* GET COUNTER */
        if (off) sw = CARD_SW_P1P2;
        else if (lc) sw = CARD_SW_LENGTH;
        else {
            off = X_CTR + 4 * (XB(X_CSEL) & 1);
            for (i = 0; i < 4; i++)
                resp[i] = (uint8_t)~XB(off + 3 - i);
            apdu_la = 4;
        }
    } else if (ins == CARD_SET_PIN) {                      /* SET PIN */
        if (off) sw = CARD_SW_P1P2;
        else if (lc < PIN_MIN || lc > PIN_MAX) sw = CARD_SW_LENGTH;
        else pin_stage();
    } else if (ins == CARD_GENERATE_KEY) {                      /* GENERATE KEY */
        if (off) sw = CARD_SW_P1P2;
        else if (lc != 32) sw = CARD_SW_LENGTH;
        else if (!PIN_STAGED) sw = CARD_SW_STATE;
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
        else if (!wmap_full() || !PIN_STAGED) sw = CARD_SW_STATE;
        else if (key_commit()) sw = CARD_SW_DATA;
    } else if (ins == CARD_GET_PK_SEGMENT) {                      /* GET PK SEGMENT */
        if (off >= NSEG) sw = CARD_SW_P1P2;
        else if (lc) sw = CARD_SW_LENGTH;
        else if (!ACTIVE) sw = CARD_SW_STATE;
        else apdu_la = pk_segment(off);
    } else if (ins == CARD_SIGN) {                      /* SIGN */
        if (off) sw = CARD_SW_P1P2;
        else if (lc != M) sw = CARD_SW_LENGTH;
        else if (!ACTIVE) sw = CARD_SW_STATE;
        else if (!pin_ok) sw = XB(X_TRIES) ? CARD_SW_SECURITY : CARD_SW_BLOCKED;
        else if (!ctr_advance()) sw = CARD_SW_STATE;
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
