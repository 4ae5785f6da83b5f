/* SPDX-License-Identifier: MIT */
/*
 * One command of the card (docs/CARD.md): the status words in the order
 * CLA, INS, P1P2, Lc, state, data, and the writes of PUT KEY. The commands
 * are one table (cmds below): what each accepts in P1P2 and Lc and whether
 * it needs an active key, checked in that order by apdu_run, then its
 * handler, which checks the rest of the state and the data. The transport
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

/* The record of the bytes PUT KEY has staged (X_WMAP): cleared at every
 * reset (main.c), on SET PIN, at the start of GENERATE KEY and before
 * COMMIT KEY's check, so that COMMIT KEY installs only a key every byte
 * of which was PUT in this session after its SET PIN (docs/CARD.md,
 * Threat model: a torn install). */
void wmap_clear(void) __reentrant
{
    uint16_t i;
    for (i = 0; i < WMAP_BYTES; i++)
        XB(X_WMAP + i) = 0;
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

/* the command's P1P2 as an offset (PUT KEY) or segment (GET PK SEGMENT) */
static __xdata uint16_t off;

static void put32(__xdata uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* ---- the handlers: entered with P1P2, Lc and the key checked (cmds);
 * each returns the status word, its response at X_RESP (apdu_la bytes) */

static uint16_t h_info(void)
{
    __xdata uint8_t *resp = XP(X_RESP);
    resp[0] = M; resp[1] = N; resp[2] = V; resp[3] = A;
    resp[4] = B; resp[5] = 1; resp[6] = SEG_K;
    apdu_la = 7;
    return CARD_SW_OK;
}

/* GET CYCLES (4 bytes) and GET PROFILE (8: then those in ChaCha20) */
static uint16_t h_cycles(void)
{
    put32(XP(X_RESP), last_cycles);
    apdu_la = 4;
    if (apdu_ins == CARD_GET_PROFILE) {
        put32(XP(X_RESP + 4), last_chacha);
        apdu_la = 8;
    }
    return CARD_SW_OK;
}

static uint16_t h_counter(void)
{
    static __xdata uint8_t i;
    off = X_CTR + 4 * (XB(X_CSEL) & 1);
    for (i = 0; i < 4; i++)
        XB(X_RESP + i) = (uint8_t)~XB(off + 3 - i);
    apdu_la = 4;
    return CARD_SW_OK;
}

static uint16_t h_set_pin(void)
{
    pin_stage();
    wmap_clear();
    return CARD_SW_OK;
}

static uint16_t h_generate(void)
{
    if (!PIN_STAGED)
        return CARD_SW_STATE;
    wmap_clear();
    key_generate();
    return CARD_SW_OK;
}

static uint16_t h_put(void)
{
    static __xdata uint8_t i;
    for (i = 0; i < apdu_lc; i++, off++) {
        XB(X_STAGE + off) = XB(X_CMD + i);
        XB(X_WMAP + (off >> 3)) |= (uint8_t)(1 << (off & 7));
    }
    return CARD_SW_OK;
}

static uint16_t h_commit(void)
{
    if (!wmap_full() || !PIN_STAGED)
        return CARD_SW_STATE;
    wmap_clear();
    return key_commit() ? CARD_SW_DATA : CARD_SW_OK;
}

static uint16_t h_segment(void)
{
    apdu_la = pk_segment(off);
    return CARD_SW_OK;
}

static uint16_t h_sign(void)
{
    if (!pin_ok)
        return XB(X_TRIES) ? CARD_SW_SECURITY : CARD_SW_BLOCKED;
    if (!ctr_advance())
        return CARD_SW_STATE;
    if (sign())
        return CARD_SW_DATA;
    apdu_la = N;
    return CARD_SW_OK;
}

static uint16_t h_none(void)
{
    return CARD_SW_OK;
}

/* ---- the command table ---- */
enum {
    P_ZERO, /* P1P2 = 0 */
    P_SEG,  /* a segment index, < NSEG */
    P_PUT   /* an offset into the key, the data within it */
};
#define LC_ZERO 0x01 /* Lc = 0 accepted beside lc_min .. lc_max (VERIFY) */
#define KEYED   0x02 /* 6985 without an active key */
typedef uint16_t (*cmd_fn)(void);
typedef struct {
    uint8_t cla, ins, p1p2, lc_min, lc_max, flags;
    cmd_fn run;
} card_cmd;

/* SIGN first: the lookup is a linear scan, and SIGN the command timed */
static __code const card_cmd cmds[] = {
    {CARD_CLA, CARD_SIGN,              P_ZERO, M, M, KEYED, h_sign},
    {CARD_CLA_ISO, CARD_VERIFY,        P_ZERO, PIN_MIN, PIN_MAX, LC_ZERO | KEYED, pin_verify},
    {CARD_CLA, CARD_GET_INFO,          P_ZERO, 0, 0, 0, h_info},
    {CARD_CLA, CARD_GET_CYCLES,        P_ZERO, 0, 0, 0, h_cycles},
    {CARD_CLA, CARD_GET_PROFILE,       P_ZERO, 0, 0, 0, h_cycles},
    {CARD_CLA, CARD_GET_COUNTER,       P_ZERO, 0, 0, 0, h_counter},
    {CARD_CLA, CARD_SET_PIN,           P_ZERO, PIN_MIN, PIN_MAX, 0, h_set_pin},
    {CARD_CLA, CARD_GENERATE_KEY,      P_ZERO, 32, 32, 0, h_generate},
    {CARD_CLA, CARD_PUT_KEY,           P_PUT, 1, 255, 0, h_put},
    {CARD_CLA, CARD_COMMIT_KEY,        P_ZERO, CARD_CHECK_BYTES(M, N), CARD_CHECK_BYTES(M, N), 0, h_commit},
    {CARD_CLA, CARD_GET_PK_SEGMENT,    P_SEG, 0, 0, KEYED, h_segment},
    {CARD_CLA, CARD_HALT,              P_ZERO, 0, 0, 0, h_none},
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

uint16_t apdu_run(void)
{
    /* xdata, not locals: internal RAM is the scarce resource */
    static __xdata uint8_t bad;
    static __code const card_cmd *__xdata c;

    off = ((uint16_t)apdu_p1 << 8) | apdu_p2;
    apdu_la = 0;
    /* CLA: ours, or the ISO class of VERIFY (which has no other INS) */
    if (apdu_cla != CARD_CLA && !(apdu_cla == CARD_CLA_ISO && apdu_ins == CARD_VERIFY))
        return CARD_SW_CLA;
    for (c = cmds; c->ins != apdu_ins || c->cla != apdu_cla; )
        if (++c == cmds + NCMDS)
            return CARD_SW_INS;
    switch (c->p1p2) {
    case P_SEG: bad = off >= NSEG; break;
    case P_PUT: bad = off >= SK_BYTES || (uint16_t)apdu_lc > SK_BYTES - off; break;
    default: bad = off != 0; break;
    }
    if (bad)
        return CARD_SW_P1P2;
    if ((apdu_lc < c->lc_min || apdu_lc > c->lc_max) && !(apdu_lc == 0 && (c->flags & LC_ZERO)))
        return CARD_SW_LENGTH;
    if ((c->flags & KEYED) && !ACTIVE)
        return CARD_SW_STATE;
    return c->run();
}
