/* SPDX-License-Identifier: MIT */
/*
 * The interfaces between the card's modules (card.h includes this last).
 */
#ifndef CARD_IF_H
#define CARD_IF_H

/* The public key's kernels (k_pk.c, k_lm.c): pk_prep, the per-i scalars
 * at X_PT, X_QT (A3's column i); in the 128-byte family
 * pk_block, out[0 .. m) = the block of the monomial whose A3 column (LM)
 * is at col: A1 F, F = the monomial's central terms (mode 0: w_i w_j,
 * i < j; 1: w_i^2; 2: w_l, with the column's linear part); else pk_terms
 * (F's terms with A3's column j, sq: w_i^2; F = SF) and matvec_lm: acc[r] ^= sum_c K[r][c] x[c],
 * K in LM column-major form (the cache's A3, A1): columns of st bytes,
 * 256 / st of them to a page (LMCOL) */
void pk_prep(uint8_t i);
#ifdef CARD_128_ASM
void pk_block(uint16_t col, uint8_t mode, uint16_t out);
#else
void pk_terms(uint8_t j, uint8_t sq);
void matvec_lm(SARENA uint8_t *acc, uint16_t K, SARENA uint8_t *x,
               uint8_t rows, uint8_t cols, uint8_t st);
#endif
/*
 * The assembly kernels' calling convention, one for every family: the
 * first argument in DPL (DPL:DPH for 16 bits), the others in the k_* data
 * bytes of kernels.h named beside each kernel (*_k below), the result in
 * DPL. The lower-case names set those bytes and call the kernel; with
 * -DCARD_C_KERNELS they are the C twins, ordinary C functions. C wrappers
 * (gauss, layer_build, layer_solve) fill the same bytes.
 */
/* Gauss-Jordan, column-major raw bytes at W (stride GST); 1 if the left
 * rows x rows block was invertible. Constant time. gauss_k: the page of W
 * in k_Whi, rows in k_rows, cols in k_cols. */
uint8_t gauss(uint16_t W, uint8_t rows, uint8_t cols);
uint8_t gauss_k(void);
/* One layer's system (k_layer.c): the terms t0 .. t0 + nt of the layer
 * of variables lo .. lo + dim (from: the x values below it are still
 * scalars in the arena, assembly only), solved into IX[lo .. lo + dim);
 * layer_solve: 1 iff invertible. Constant time. */
void layer_build(uint8_t lo, uint8_t dim, uint16_t t0, uint16_t nt,
                 uint8_t from);
uint8_t layer_solve(uint8_t lo, uint8_t dim);
/* The signing path's copy and matvec (k_matvec.c): xcopy_i, arena
 * dst[0 .. n) = XDATA src[0 .. n), n > 0; matvec_sign, out[r] = s[r] ^
 * sum_c K[r][c] IX[c] (XDATA s, out), K the L1 matrix of the run table at
 * K (rows bytes a column). */
#ifdef CARD_C_KERNELS
void xcopy_i(uint16_t src, arena_t dst, uint8_t n);
void matvec_sign(uint16_t K, uint16_t s, uint16_t out, uint8_t rows,
                 uint8_t cols);
#else
void xcopy_k(uint16_t src);             /* dst: k_x, n: k_cnt */
#define xcopy_i(src, dst, n) (k_x = (uint8_t)(dst), k_cnt = (n), xcopy_k(src))
void matvec_k(uint16_t K);      /* s: k_acc:k_x, out: k_ok:k_ckp, k_rows, k_cols */
#define matvec_sign(K, s, out, rows, cols)                                   \
    (k_acc = (uint8_t)(s), k_x = (uint8_t)((s) >> 8), k_ok = (uint8_t)(out), \
     k_ckp = (uint8_t)((out) >> 8), k_rows = (rows), k_cols = (cols),        \
     matvec_k(K))
#endif

/* ChaCha20 keystream (chacha.c): key = 32 bytes at XDATA src. */
void stream_init(__xdata uint8_t *key);
uint8_t stream_byte(void);
/* dst[0 .. n) = the next n bytes of the stream (n <= 64); in the ROM
 * family the kernel stream_take_k (dst: R0, n: k_cnt; the bytes in L1
 * form) */
void stream_take(arena_t dst, uint8_t n);
#ifdef CARD_ROM
void stream_take_k(void);
#endif
void stream_wipe(void);     /* the key and the block of X_STR := 0 */
void stream_init_card(void); /* the stream of a SIGN (chacha.c) */
void chacha_block(void) __reentrant;
extern __xdata uint32_t prof_chacha;   /* cycles spent in ChaCha blocks */
uint32_t cycles_now(void);

/* Key operations (key.c). Return 0 or a status word. key_derive fills the
 * public-key cache from the active key. */
void key_generate(void) __reentrant;
uint16_t key_commit(void) __reentrant;
void key_derive(void) __reentrant;
void central_eval(__xdata uint8_t *y, __xdata uint8_t *x, uint16_t coef) __reentrant;

/* Signing (sign.c): digest at X_CMD (m bytes), signature to X_RESP.
 * ctr_advance: the counter the signature uses into sig_ctr, the next
 * value stored first (0 if the counter is exhausted). key_install: the
 * journal's second half (key.c; also at reset). */
uint16_t sign(void);
uint8_t ctr_advance(void);
extern __xdata uint8_t sig_ctr[4];
void key_install(void) __reentrant;
/* ChaCha20 block of the input at X_STR, counted in prof_chacha */
void chacha_block_prof(void);

/* Public-key segment (pk.c) into X_RESP; returns its length. */
uint8_t pk_segment(uint16_t seg);
extern __xdata uint8_t pk_cur, pk_ready;

/* Transport (io.c). */
uint8_t getb(void);
void putb(uint8_t c);
void io_init(void);
void sim_stop(void);

/* Cycle counter (main.c). */
void prof_mark_start(void);
void prof_mark_stop(void);

/* One command (apdu.c): header in, status word out, apdu_la bytes of
 * response at X_RESP. last_* answer GET CYCLES / GET PROFILE. */
extern __xdata uint8_t apdu_cla, apdu_ins, apdu_p1, apdu_p2, apdu_lc, apdu_la;
extern __xdata uint8_t pin_ok;  /* VERIFY succeeded since the reset (volatile) */
extern __xdata uint32_t last_cycles, last_chacha;
uint16_t apdu_run(void);
void wmap_clear(void) __reentrant; /* the record of PUT KEY's bytes := 0 */

#endif
