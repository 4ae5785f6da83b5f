/* SPDX-License-Identifier: MIT */
/*
 * The card's command logic (8051/apdu.c, built for the host with
 * -DCARD_HOST for TTS(20,28)) on a stream of arbitrary commands: CLA INS
 * P1 P2 Lc data[Lc], repeated. The key operations are stubs that record
 * their calls (their own tests run in the simulator). Invariants: the
 * status word is one of section 7.2's; 6E00 exactly when CLA is not 80
 * (but for VERIFY, 00 20); an error changes no byte of XDATA but the PIN
 * tries a wrong PIN counts (so the key survives every malformed command)
 * and returns no data; PUT KEY writes exactly its bytes into the
 * staging area and their bits into the written map, nothing else; every
 * response length is that command's.
 *
 * The harness sees only 8051/protocol.h and the few names below; the card's
 * own header (8051/card.h, with its one-letter set macros M N V A B C) is
 * included once, at the end, where the stubs and the card's geometry are
 * defined.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "../8051/protocol.h"

/* The card's command logic (8051/apdu.c built with -DCARD_HOST). */
extern uint8_t card_xram[65536];
extern uint8_t apdu_cla, apdu_ins, apdu_p1, apdu_p2, apdu_lc, apdu_la;
uint16_t apdu_run(void);
/* The card's geometry, from 8051/card.h (defined at the end). */
struct card_geom {
    uint16_t x_cmd, x_wmap, wmap_bytes, x_stage, sk_bytes, nseg, seg_bytes, sig_bytes, x_tries;
};
extern const struct card_geom card_geom;
static int calls;
static uint8_t snap[65536];

static int known_sw(uint16_t sw)
{
    return sw == CARD_SW_OK || sw == CARD_SW_CLA || sw == CARD_SW_INS ||
           sw == CARD_SW_P1P2 || sw == CARD_SW_LENGTH || sw == CARD_SW_STATE ||
           sw == CARD_SW_DATA || sw == CARD_SW_SECURITY || sw == CARD_SW_BLOCKED ||
           (sw & 0xFFF0) == CARD_SW_PIN_WRONG;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct card_geom *g = &card_geom;
    memset(card_xram, 0, sizeof card_xram);
    while (size >= 5) {
        uint8_t lc = data[4];
        if (size < 5u + lc)
            break;
        apdu_cla = data[0], apdu_ins = data[1], apdu_p1 = data[2], apdu_p2 = data[3];
        apdu_lc = lc;
        memcpy(card_xram + g->x_cmd, data + 5, lc);
        memcpy(snap, card_xram, sizeof snap);
        uint16_t off = (uint16_t)(data[2] << 8 | data[3]);
        calls = 0;
        uint16_t sw = apdu_run();
        FUZZ_CHECK(known_sw(sw));
        int verify = data[0] == CARD_CLA_ISO && data[1] == CARD_VERIFY;
        FUZZ_CHECK((sw == CARD_SW_CLA) == (data[0] != CARD_CLA && !verify));
        /* a wrong PIN is counted (X_TRIES); the rest of XDATA stays */
        if (verify && (sw & 0xFFF0) == CARD_SW_PIN_WRONG && data[4])
            snap[g->x_tries] = card_xram[g->x_tries];
        if (sw != CARD_SW_OK && !(data[1] == CARD_COMMIT_KEY && sw == CARD_SW_DATA) &&
            !(data[1] == CARD_SIGN && sw == CARD_SW_DATA)) {
            FUZZ_CHECK(memcmp(snap, card_xram, sizeof snap) == 0);
            FUZZ_CHECK(apdu_la == 0 && calls == 0);
        }
        if (sw == CARD_SW_OK) {
            static const uint8_t la[256] = {[CARD_GET_INFO] = 7, [CARD_GET_CYCLES] = 4,
                                            [CARD_GET_PROFILE] = 8, [CARD_GET_COUNTER] = 4};
            if (data[1] == CARD_GET_PK_SEGMENT)
                FUZZ_CHECK(off < g->nseg && apdu_la > 0 && apdu_la <= g->seg_bytes);
            else if (data[1] == CARD_SIGN)
                FUZZ_CHECK(apdu_la == g->sig_bytes);
            else
                FUZZ_CHECK(apdu_la == la[data[1]]);
        }
        if (data[1] == CARD_PUT_KEY && sw == CARD_SW_OK) {
            FUZZ_CHECK(lc > 0 && off + lc <= g->sk_bytes);
            /* XDATA in order: ..., map bytes touched, ..., staged bytes,
             * ...: only the two touched ranges may differ */
            size_t m0 = g->x_wmap + off / 8, m1 = g->x_wmap + (off + lc - 1) / 8 + 1;
            size_t s0 = g->x_stage + off, s1 = s0 + lc;
            FUZZ_CHECK(m1 <= g->x_wmap + g->wmap_bytes && g->x_wmap + g->wmap_bytes <= g->x_stage);
            FUZZ_CHECK(memcmp(card_xram, snap, m0) == 0);
            for (size_t a = m0; a < m1; a++)
                FUZZ_CHECK((card_xram[a] & snap[a]) == snap[a]);
            FUZZ_CHECK(memcmp(card_xram + m1, snap + m1, s0 - m1) == 0);
            FUZZ_CHECK(memcmp(card_xram + s0, data + 5, lc) == 0);
            FUZZ_CHECK(memcmp(card_xram + s1, snap + s1, sizeof snap - s1) == 0);
        }
        data += 5u + lc, size -= 5u + lc;
    }
    return 0;
}

/* ---- the card side: 8051/card.h from here on only ---- */
#include "../8051/card.h"

uint8_t card_xram[65536];
__idata uint8_t IA[IA_SIZE];
__xdata uint32_t prof_chacha;
const struct card_geom card_geom = {X_CMD, X_WMAP, WMAP_BYTES, X_STAGE, SK_BYTES,
                                    NSEG, SEG_K * M, N, X_TRIES};

/* The key operations are stubs that record their calls. */
void key_generate(void) { XB(X_MISC) = 0xA5; calls++; }
/* Refuse a key whose first staged byte is odd, like a singular matrix. */
uint16_t key_commit(void)
{
    calls++;
    if (XB(X_STAGE) & 1)
        return CARD_SW_DATA;
    XB(X_MISC) = 0xA5;
    return 0;
}
uint8_t pk_segment(uint16_t seg)
{
    calls++;
    return seg + 1 == NSEG ? (PK_MONO - seg * SEG_K) * M : SEG_K * M;
}
uint16_t sign(void) { calls++; return XB(X_CMD) == 0xFF ? CARD_SW_DATA : 0; }
uint8_t ctr_advance(void) { return 1; }
