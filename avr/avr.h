/* SPDX-License-Identifier: MIT */
/*
 * The AVR firmware's one header: the set (chosen at build time with
 * -DTTS_M=.. -DTTS_N=..; its shape from avr_tables.h, generated from
 * include/tts_sets.def), the sizes and offsets of docs/SPEC.md section 5,
 * the keys in flash, the field and the modules' interfaces.
 *
 * Constant time on this core: the ATmega328P (and ATmega2560) has no
 * cache and no prediction; an instruction's cycles depend on its opcode
 * alone, except a taken branch or a skip. So the signing path has no
 * branch on a secret, and reads its key in flash with LPM (three cycles at
 * any address) and its tables in SRAM with LD (two; the C twins' in flash
 * with LPM): a table read at a secret address leaks nothing here, which is
 * what the products rely on (they would not on a core with a cache).
 */
#ifndef TTS_AVR_H
#define TTS_AVR_H

#include <stdint.h>
#include <avr/pgmspace.h>

#include "avr_tables.h"
#include "avr_protocol.h"
#include "avr_nvm.h"
#include "avr_pk.h"

/* The ATmega328P (32 KB of flash) takes the sets up to TTS(24,34); the
 * ATmega2560 (256 KB) the three larger ones, their keys in the low 64 KB
 * that LPM reads (avr/build-image.sh chooses the part by the set). */
#if defined(__AVR_ATmega328P__) && TTS_M * TTS_N * (TTS_N + 3) / 2 > AVR_PK_LARGE
#error "this set's public key does not fit the ATmega328P's 32 KB of flash"
#endif

#define TTS_C   ((TTS_A + 2) * (TTS_V - 1) + TTS_B * (TTS_B + 1))
#define SK_BYTES (TTS_M * (TTS_M + 1) + TTS_N * (TTS_N + 1) + TTS_C)
#define PK_BYTES ((uint16_t)((uint32_t)TTS_M * TTS_N * (TTS_N + 3) / 2))
#define SK_S1   0
#define SK_s1   (TTS_M * TTS_M)
#define SK_S3   (TTS_M * (TTS_M + 1))
#define SK_s3   (SK_S3 + TTS_N * TTS_N)
#define SK_COEF (TTS_M * (TTS_M + 1) + TTS_N * (TTS_N + 1))
#define TTS_MU1 (TTS_V + TTS_A)
#define TTS_L3  (TTS_V + TTS_A + 2) /* c: first index of layer 3 */
#define PK_FLASH (PK_BYTES + AVR_PK_ZROOM(PK_BYTES)) /* the public key's room (avr_pk.h) */

/* The kernels' shapes: the largest layer (its system k rows of k + 1, the
 * right side last, LMAX + 1 bytes a row: gf_solve.S), the rows of S1 h
 * (S3 x) one call of gf_matvec.S sums in registers, and the sums of one
 * pass of gf_verify.S. */
#define LMAX   (TTS_A > TTS_B ? TTS_A : TTS_B)
#define H1     (TTS_M <= 20 ? TTS_M : TTS_M / 2)
#define H3     (TTS_N <= 38 ? TTS_N / 2 : TTS_N == 44 ? 11 : 10)
#define PASS_Q (TTS_M <= 20 ? TTS_M : TTS_M / 2)

/* The keys, in flash: the programmer writes them (the host driver writes
 * the simulator's flash at the addresses INFO gives): sk as docs/SPEC.md
 * 5.2 lays it out, pk in log form and its zero list (avr_pk.h;
 * host/avrsim.c converts it). */
extern const uint8_t avr_sk[SK_BYTES] PROGMEM;
extern const uint8_t avr_pk[] PROGMEM; /* PK_FLASH bytes (avr/pk_room.S) */
/* The PIN, beside the keys (avr_protocol.h: its length, then its bytes). */
extern const uint8_t avr_pin[AVR_PIN_BYTES] PROGMEM;

/* The assembly kernels' GF(256) tables in SRAM (avr/gf_tab.c; gen_avr.c
 * says what they hold): page-aligned, logs then powers of 3. */
extern uint8_t gf_tab[512];
#define GF_TLOG gf_tab
#define GF_TEXP (gf_tab + 256)

/* ---- GF(256) ---- */

/* 0xFF if x != 0, else 0, without a branch (the borrow of x - 1). */
static inline uint8_t gf_nz(uint8_t x)
{
    return (uint8_t)~(uint8_t)(((uint16_t)x - 1) >> 8);
}

#ifdef AVR_C_KERNELS
/* The C twins' products: the tables in flash (avr_tables.h). */
static inline uint8_t gf_log(uint8_t x) { return pgm_read_byte(&GF_LOG[x]); }

/* exp of a sum of two logs (<= 508) */
static inline uint8_t gf_exp(uint16_t i) { return pgm_read_byte(&GF_EXP[i]); }

/* a^-1 = a^254; 0 maps to 0 */
static inline uint8_t gf_inv(uint8_t a)
{
    return gf_exp(255 - gf_log(a)) & gf_nz(a);
}
#endif

/* ---- modules ---- */
/* io.c: the transport (avr_protocol.h) */
uint8_t io_get(void);
void io_put(uint8_t b);

/* chacha.c: one IETF ChaCha20 block (RFC 8439) of key, nonce (NULL: 12
 * zero bytes), counter. */
void chacha20_block(uint8_t out[64], const uint8_t key[32], const uint8_t nonce[12],
                    uint32_t counter);
/* The quarter-round on s[a], s[b], s[c], s[d] of the 16-word state: the
 * C twin of the assembly rounds (chacha_rounds.S), which images built
 * with -DAVR_C_KERNELS run instead. */
void chacha_qr_c(uint32_t *s, uint8_t a, uint8_t b, uint8_t c, uint8_t d);

/* A little-endian 16-bit word of an answer. */
static inline void io_put16(uint16_t v)
{
    io_put((uint8_t)v);
    io_put((uint8_t)(v >> 8));
}

#ifdef __AVR__
/* INFO's answer (avr_protocol.h): AVR_OK, the set, the keys' rooms, the
 * first free SRAM byte, the image's flags and the PIN's room (16-bit
 * addresses: the AVR's). */
static inline void avr_put_info(uint8_t flags)
{
    extern uint8_t __heap_start;
    io_put(AVR_OK);
    io_put(TTS_M);
    io_put(TTS_N);
    io_put16((uint16_t)avr_sk);
    io_put16((uint16_t)avr_pk);
    io_put16((uint16_t)&__heap_start);
    io_put(flags);
    io_put16((uint16_t)avr_pin);
}
#endif

/* Wipe n bytes (volatile stores: the compiler keeps them). */
void avr_wipe(void *p, uint16_t n);

/* The assembly kernels (their contracts and cycles in their files; the C
 * twins of the -DAVR_C_KERNELS images are in sign.c and verify.c, and
 * tests/test_avr_kernels runs each against an independent model on the
 * part: avr/kernel_test.c). */
void gf_mv1_asm(uint8_t *out, const uint8_t *M, const uint8_t *lvr); /* H1 rows of S1 h */
void gf_mv3_asm(uint8_t *out, const uint8_t *M, const uint8_t *lvr); /* H3 rows of S3 x */
uint8_t gf_solve_asm(uint8_t *S, uint8_t k);                        /* a layer's system */
void gf_pmul_asm(uint8_t *b, const uint8_t *P, uint8_t cnt);         /* central products */
void gf_pk_pass_asm(uint8_t *out, const uint8_t *pkl, const uint8_t *lw); /* VERIFY */
void gf_pk_zeros_asm(uint8_t *out, const uint8_t *zl, const uint8_t *lw);

/* sign.c */
uint8_t avr_install(void);
uint8_t avr_sign(uint8_t sig[TTS_N], const uint8_t h[TTS_M]);
/* verify.c: AVR_OK or AVR_EBADSIG */
uint8_t avr_verify(const uint8_t sig[TTS_N], const uint8_t h[TTS_M]);

#endif
