/*
 * The card's command logic (8051/apdu.c, built for the host with
 * -DCARD_HOST for TTS(20,28)) on a stream of arbitrary commands: CLA INS
 * P1 P2 Lc data[Lc], repeated. The key operations are stubs that record
 * their calls (their own tests run in the simulator). Invariants: the
 * status word is one of section 7.2's; 6E00 exactly when CLA is not 80; an
 * error changes no byte of XDATA (so the key survives every malformed
 * command) and returns no data; PUT KEY writes exactly its bytes into the
 * staging area and their bits into the written map, nothing else; every
 * response length is that command's.
 */
#include <string.h>

#include "fuzz.h"
#include "../8051/card.h"
#include "../8051/protocol.h"

uint8_t card_xram[65536];
__idata uint8_t IA[IA_SIZE];
__xdata uint32_t prof_chacha;
static uint8_t snap[65536];
static int calls;

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
uint8_t pk_segment(uint16_t seg) { calls++; return seg + 1 == NSEG ? (PK_MONO - seg * SEG_K) * M : SEG_K * M; }
uint16_t sign(void) { calls++; return XB(X_CMD) == 0xFF ? CARD_SW_DATA : 0; }

static int known_sw(uint16_t sw)
{
    return sw == CARD_SW_OK || sw == CARD_SW_CLA || sw == CARD_SW_INS ||
           sw == CARD_SW_P1P2 || sw == CARD_SW_LENGTH || sw == CARD_SW_STATE ||
           sw == CARD_SW_DATA;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    memset(card_xram, 0, sizeof card_xram);
    while (size >= 5) {
        uint8_t lc = data[4];
        if (size < 5u + lc)
            break;
        apdu_cla = data[0], apdu_ins = data[1], apdu_p1 = data[2], apdu_p2 = data[3];
        apdu_lc = lc;
        memcpy(XP(X_CMD), data + 5, lc);
        memcpy(snap, card_xram, sizeof snap);
        uint16_t off = (uint16_t)(data[2] << 8 | data[3]);
        calls = 0;
        uint16_t sw = apdu_run();
        FUZZ_CHECK(known_sw(sw));
        FUZZ_CHECK((sw == CARD_SW_CLA) == (data[0] != CARD_CLA));
        if (sw != 0x9000 && !(data[1] == 0x24 && sw == 0x6A80) &&
            !(data[1] == 0x40 && sw == 0x6A80)) {
            FUZZ_CHECK(memcmp(snap, card_xram, sizeof snap) == 0);
            FUZZ_CHECK(apdu_la == 0 && calls == 0);
        }
        if (sw == 0x9000) {
            static const uint8_t la[256] = {[0x10] = 7, [0x12] = 4, [0x14] = 8,
                                            [0x40] = N};
            if (data[1] == 0x30)
                FUZZ_CHECK(off < NSEG && apdu_la > 0 && apdu_la <= SEG_K * M);
            else
                FUZZ_CHECK(apdu_la == la[data[1]]);
        }
        if (data[1] == 0x22 && sw == 0x9000) {
            FUZZ_CHECK(lc > 0 && off + lc <= SK_BYTES);
            /* XDATA in order: ..., map bytes touched, ..., staged bytes,
             * ...: only the two touched ranges may differ */
            size_t m0 = X_WMAP + off / 8, m1 = X_WMAP + (off + lc - 1) / 8 + 1;
            size_t s0 = X_STAGE + off, s1 = s0 + lc;
            FUZZ_CHECK(m1 <= X_WMAP + WMAP_BYTES && X_WMAP + WMAP_BYTES <= X_STAGE);
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
