/* SPDX-License-Identifier: MIT */
/*
 * The test image of the assembly kernels (avr/tts-M-N-kernels.elf, built
 * for the tests only): each kernel of avr.h, and ChaCha20's block and the
 * wipe, run on pseudo-random inputs against a model written here from its
 * contract alone: GF(256) products by shift and reduce (docs/SPEC.md
 * section 2, polynomial 0x11B), no table of the firmware's, and RFC 8439's
 * block in portable C. tests/test_avr_kernels drives it in simavr.
 *
 * Commands (avr_protocol.h's transport): INFO as the firmware answers it
 * (the keys' room, where the host writes pseudo-random "keys" for the
 * kernels to read in flash), and
 *
 *   'T' seed (4 bytes)   AVR_OK, then for each kernel (mv1, mv3, solve,
 *                        pmul, verify (pass and zeros), chacha, wipe) the
 *                        cases run and those the model disagrees with,
 *                        two bytes each, little-endian; then the
 *                        address of the kernels' tables (gf_tab)
 */
#include <string.h>

#define AVR_TABLES_DEFINE /* the GF(256) tables live here */

#include "avr.h"

const uint8_t avr_sk[SK_BYTES] PROGMEM __attribute__((used)) = {0};
const uint8_t avr_pin[AVR_PIN_BYTES] PROGMEM __attribute__((used)) = {0};

#define KT_KERNELS 7

static uint32_t rng;

static uint8_t rnd(void) /* xorshift32 */
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return (uint8_t)(rng >> 11);
}

/* a field element, zero one time in eight (the kernels' zero paths) */
static uint8_t relt(void)
{
    return (rnd() & 7) ? rnd() : 0;
}

static uint16_t rbelow(uint16_t n)
{
    return (uint16_t)(((uint32_t)rnd() << 8 | rnd()) % n);
}

/* ---- the model: GF(256) by its definition ---- */

static uint8_t mul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    while (b) {
        if (b & 1)
            p ^= a;
        a = (uint8_t)(a << 1) ^ (a & 0x80 ? 0x1B : 0);
        b >>= 1;
    }
    return p;
}

static uint8_t e3[255]; /* 3^e by mul, made once */

static uint8_t pow3(uint8_t e) /* 3^e, e < 255 */
{
    return e3[e];
}

static uint8_t inv(uint8_t a)
{
    uint8_t r = 1;
    for (uint8_t i = 0; i < 254; i++)
        r = mul(r, a);
    return r;
}

/* ---- one case of each kernel: 1 if the model disagrees ---- */

/* out[i] ^= SUM_j M[i][j] v_j over h rows of width w in flash; lvr as
 * sign.c gives it (the log of v_j, and 0xFF for v_j = 0 else 0) */
static uint8_t case_mv(uint8_t h, uint8_t w, uint8_t three)
{
    uint8_t v[TTS_N], lvr[2 * TTS_N], out[TTS_N], want[TTS_N], bad = 0;
    const uint8_t *M = avr_sk + rbelow((uint16_t)(SK_BYTES - (uint16_t)h * w + 1));
    for (uint8_t j = 0; j < w; j++) {
        v[j] = relt();
        lvr[2 * j] = GF_TLOG[v[j]];
        lvr[2 * j + 1] = v[j] ? 0 : 0xFF;
    }
    for (uint8_t i = 0; i < h; i++) {
        out[i] = want[i] = rnd();
        for (uint8_t j = 0; j < w; j++)
            want[i] ^= mul(pgm_read_byte(M + (uint16_t)i * w + j), v[j]);
    }
    if (three)
        gf_mv3_asm(out, M, lvr);
    else
        gf_mv1_asm(out, M, lvr);
    for (uint8_t i = 0; i < h; i++)
        bad |= out[i] ^ want[i];
    return bad != 0;
}

/* a k x (k + 1) system, LMAX + 1 bytes a row: regular or not as the
 * model's elimination finds, and then the same solution */
static uint8_t case_solve(uint8_t k)
{
    static uint8_t S[LMAX][LMAX + 1], T[LMAX][LMAX + 1];
    for (uint8_t r = 0; r < k; r++)
        for (uint8_t c = 0; c <= k; c++)
            S[r][c] = relt();
    if ((rnd() & 3) == 0) { /* one system in four singular: a row copied */
        uint8_t a = (uint8_t)rbelow(k), b = (uint8_t)rbelow(k);
        if (a != b)
            memcpy(S[a], S[b], k);
    }
    memcpy(T, S, sizeof S);
    uint8_t regular = 1;
    for (uint8_t c = 0; c < k && regular; c++) {
        uint8_t p = c;
        while (p < k && !T[p][c])
            p++;
        if (p == k) {
            regular = 0;
            break;
        }
        for (uint8_t j = 0; j <= k; j++) {
            uint8_t t = T[c][j];
            T[c][j] = T[p][j];
            T[p][j] = t;
        }
        uint8_t iv = inv(T[c][c]);
        for (uint8_t j = 0; j <= k; j++)
            T[c][j] = mul(T[c][j], iv);
        for (uint8_t r = 0; r < k; r++)
            if (r != c && T[r][c]) {
                uint8_t f = T[r][c];
                for (uint8_t j = 0; j <= k; j++)
                    T[r][j] ^= mul(f, T[c][j]);
            }
    }
    uint8_t ok = gf_solve_asm(&S[0][0], k);
    if (ok != (regular ? 0xFF : 0))
        return 1;
    if (regular)
        for (uint8_t r = 0; r < k; r++)
            if (S[r][k] != T[r][k])
                return 1;
    return 0;
}

/* b[j] = P[j] * 3^b[j], b[j] = 0xFF standing for 0, P in flash */
static uint8_t case_pmul(void)
{
    uint8_t b[LMAX + 2], want[LMAX + 2], cnt = (uint8_t)(1 + rbelow(LMAX + 2)), bad = 0;
    const uint8_t *P = avr_sk + rbelow(SK_BYTES - cnt + 1);
    for (uint8_t j = 0; j < cnt; j++) {
        b[j] = (rnd() & 7) ? (uint8_t)rbelow(255) : 0xFF;
        want[j] = b[j] == 0xFF ? 0 : mul(pgm_read_byte(P + j), pow3(b[j]));
    }
    gf_pmul_asm(b, P, cnt);
    for (uint8_t j = 0; j < cnt; j++)
        bad |= b[j] ^ want[j];
    return bad != 0;
}

/* the public map at w over the public key in flash (its log form, 0xFF
 * for 0: avr_pk.h), by the passes and the zero list as verify.c runs
 * them, against its monomials summed here */
static uint8_t case_verify(void)
{
    uint8_t w[TTS_N], lw[TTS_N + 1], out[TTS_M], want[TTS_M] = {0};
    const uint8_t *pk = avr_pk;
    for (uint8_t i = 0; i < TTS_N; i++) {
        w[i] = relt();
        lw[i] = GF_TLOG[w[i]];
    }
    lw[TTS_N] = 0;
    for (uint8_t i = 0; i <= TTS_N; i++)       /* i = n: the linear blocks */
        for (uint8_t j = i == TTS_N ? 0 : i; j < TTS_N; j++) {
            uint8_t t = i == TTS_N ? w[j] : mul(w[i], w[j]);
            for (uint8_t k = 0; k < TTS_M; k++, pk++) {
                uint8_t l = pgm_read_byte(pk);
                if (t && l != 0xFF)
                    want[k] ^= mul(t, pow3(l));
            }
        }
    for (uint8_t q = 0; q < TTS_M; q += PASS_Q)
        gf_pk_pass_asm(out + q, avr_pk + q, lw);
    gf_pk_zeros_asm(out, avr_pk + PK_BYTES, lw);
    return memcmp(out, want, TTS_M) != 0;
}

/* RFC 8439 section 2.3, in portable C */
#define ROTL(x, r) ((uint32_t)((x) << (r)) | ((x) >> (32 - (r))))
#define QR(a, b, c, d)                                                                   \
    (a += b, d ^= a, d = ROTL(d, 16), c += d, b ^= c, b = ROTL(b, 12), a += b, d ^= a,   \
     d = ROTL(d, 8), c += d, b ^= c, b = ROTL(b, 7))

static uint8_t case_chacha(void)
{
    static uint8_t key[32], nonce[12], out[64], want[64];
    uint32_t x[16], in[16], ctr = (uint32_t)rnd() << 24 | (uint32_t)rnd() << 8 | rnd();
    uint8_t zero_nonce = (rnd() & 3) == 0;
    for (uint8_t i = 0; i < 32; i++)
        key[i] = rnd();
    for (uint8_t i = 0; i < 12; i++)
        nonce[i] = zero_nonce ? 0 : rnd();
    in[0] = 0x61707865, in[1] = 0x3320646e, in[2] = 0x79622d32, in[3] = 0x6b206574;
    for (uint8_t i = 0; i < 8; i++)
        memcpy(&in[4 + i], key + 4 * i, 4);
    in[12] = ctr;
    for (uint8_t i = 0; i < 3; i++)
        memcpy(&in[13 + i], nonce + 4 * i, 4);
    memcpy(x, in, sizeof x);
    for (uint8_t r = 0; r < 10; r++) {
        QR(x[0], x[4], x[8], x[12]), QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]), QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]), QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]), QR(x[3], x[4], x[9], x[14]);
    }
    for (uint8_t i = 0; i < 16; i++) {
        x[i] += in[i];
        memcpy(want + 4 * i, &x[i], 4); /* (the AVR is little-endian) */
    }
    chacha20_block(out, key, zero_nonce ? NULL : nonce, ctr);
    return memcmp(out, want, 64) != 0;
}

/* exactly n bytes zeroed, none beside them */
static uint8_t case_wipe(void)
{
    static uint8_t buf[80];
    uint8_t at = (uint8_t)(1 + rbelow(8)), n = (uint8_t)rbelow(64), bad = 0;
    memset(buf, 0xA5, sizeof buf);
    avr_wipe(buf + at, n);
    for (uint8_t i = 0; i < sizeof buf; i++)
        bad |= buf[i] ^ (i >= at && i < at + n ? 0 : 0xA5);
    return bad != 0;
}

int main(void)
{
    for (;;) {
        uint8_t cmd = io_get();
        if (cmd == AVR_CMD_INFO) {
            avr_put_info(AVR_F_PIN);
        } else if (cmd == 'T') {
            uint16_t runs[KT_KERNELS] = {0}, bad[KT_KERNELS] = {0};
            rng = 0;
            for (uint8_t i = 0; i < 4; i++)
                rng = rng << 8 | io_get();
            rng |= 1; /* xorshift's state is never 0 */
            e3[0] = 1;
            for (uint8_t e = 1; e < 255; e++)
                e3[e] = mul(e3[e - 1], 3);
            for (uint8_t t = 0; t < 24; t++) {
                bad[0] += case_mv(H1, TTS_M, 0), runs[0]++;
                bad[1] += case_mv(H3, TTS_N, 1), runs[1]++;
                bad[2] += case_solve((t & 1) ? TTS_B : TTS_A), runs[2]++;
                bad[3] += case_pmul(), runs[3]++;
                if (t < 2)
                    bad[4] += case_verify(), runs[4]++;
                bad[5] += case_chacha(), runs[5]++;
                bad[6] += case_wipe(), runs[6]++;
            }
            io_put(AVR_OK);
            for (uint8_t k = 0; k < KT_KERNELS; k++) {
                io_put16(runs[k]);
                io_put16(bad[k]);
            }
            io_put16((uint16_t)gf_tab);
        } else {
            io_put(AVR_ECMD);
        }
    }
}
