/*
 * libtts smart-card firmware (SDCC -mmcs51): configuration, memory map and
 * the interfaces between the modules. One parameter set per image, chosen
 * with -DTTS_M=m -DTTS_N=n; the transport with -DCARD_UART (UART) or not
 * (simulator interface at XDATA 0xFFFF). -DCARD_C_KERNELS replaces the
 * assembly kernels by their C twins (same results, for the cross-test).
 *
 * Internal field forms (docs/CARD.md):
 *   L1 form of a byte x (the stored key): one byte, log_3 x + 1 for x != 0
 *   and 0 for x = 0. ADD A,#0FFh gives log x and the carry C = (x != 0) at
 *   once, SUBB A,ACC turns C into the mask: no branch on zero.
 *   LM form of a byte x (the public-key cache): two bytes (lo, mask) =
 *   (log_3 x, 0xFF) for x != 0 and (0, 0x00) for x = 0. A product of an LM
 *   value with anything is a table read ANDed with the mask.
 *   Scalar form: DPTR = GFT + lo + 512 * (x == 0): reads at DPTR + log y
 *   give x * y, and land in the zero page of GFT when x = 0.
 */
#ifndef CARD_H
#define CARD_H

#include <stdint.h>

#ifdef CARD_HOST /* SDCC's memory-space keywords mean nothing on the host */
#define __xdata
#define __idata
#define __data
#define __code
#define __at(x)
#define __reentrant
#endif

#ifndef TTS_M
#define TTS_M 20
#define TTS_N 28
#endif

/* -DCARD_128: the 128-byte internal-RAM family (tts-M-N-128.ihx, an
 * 8051 / 80C51 / smart-card core), SDCC's large model. For n <= 32
 * (TTS(16,22) .. TTS(24,32), whose signing arena of n + max(n, 2(v + a +
 * 2), 3 max(a, b)) <= 76 bytes leaves room for the data bytes and the
 * SIGN stack below it; build-image.sh checks that room; CARD_128_ASM)
 * every kernel is the assembly one, on an internal arena placed at the top
 * of the 128 bytes (IA_ABS) over the spill bytes and the stack of the
 * command code: signing runs on a stack of its own below it (sign.c), and
 * each key set-up and public-key kernel parks the arena's live bytes in
 * XDATA while it runs (kernels_setup.c: ka_call); for the larger sets the
 * arena IA itself lives in XDATA and every kernel is the C twin (which
 * address it through ARENA pointers). ChaCha20 keeps its assembly block in
 * both (its state in 0x40..0x7F with the interrupts held off, see
 * chacha.c). */
#ifdef CARD_128
#if TTS_N <= 32 && !defined(CARD_C_KERNELS)
#define CARD_128_ASM
#define ARENA __idata
typedef uint8_t arena_t;
#else
#ifndef CARD_C_KERNELS
#define CARD_C_KERNELS
#define CARD_ASM_CHACHA
#endif
#define ARENA __xdata
typedef uint16_t arena_t;   /* an address in the arena */
#endif
#define IRAM_TOP 0x7F       /* last internal RAM byte */
#elif defined(CARD_ROM)
/* -DCARD_ROM: the ROM-sized signing family (tts-M-N-rom.ihx: 128 B of
 * internal RAM, SDCC's small model, personalised by PUT KEY; rom.c and
 * the kernels of kernels_rom.c, Gauss-Jordan of kernels_setup.c) */
#define ARENA __idata
typedef uint8_t arena_t;
#define IRAM_TOP 0x7F
#else
#define ARENA __idata
typedef uint8_t arena_t;
#define IRAM_TOP 0xFF
#endif
#ifdef CARD_C_KERNELS
#define CARD_C_SETUP        /* the set-up kernels' C twins as well */
#endif

#include "card_tables.h"

#define M TTS_M
#define N TTS_N
#define V TTS_V
#define A TTS_A
#define B TTS_B
#define C TTS_C

#define SK_BYTES   (M * (M + 1) + N * (N + 1) + C)
#define SK_S1      0
#define SK_s1      (M * M)
#define SK_S3      (M * (M + 1))
#define SK_s3      (M * (M + 1) + N * N)
#define SK_COEF    (M * (M + 1) + N * (N + 1))
#define PK_QUAD    (N * (N + 1) / 2)
#define PK_MONO    (PK_QUAD + N)
#define SEG_K      (255 / M)
#define NSEG       ((PK_MONO + SEG_K - 1) / SEG_K)
#define MAX_ATTEMPTS 1000

/* L1 matrices (the stored key's S3 and S1, column-major, 1 byte an
 * entry): their columns are packed into pages by gen_card.c (key_layout)
 * so that none crosses a page and the key is unpadded; a matrix is named by
 * its run table K3_RUNS / K1_RUNS (gf.c): triples (page, offset, columns)
 * of consecutive columns in a page, then a 0 triple. */
#define KR(p, o, c) (uint8_t)((X_KS3 >> 8) + (p)), (o), (c)
extern __code const uint8_t K3_RUNS[], K1_RUNS[];
#define L1MASK(l) ((uint8_t)(0 - (uint8_t)(((uint16_t)(l) + 255) >> 8))) /* 0xFF iff l != 0 */
#define L1VAL(l)  (GFT[(uint8_t)((l) - 1)] & L1MASK(l))                 /* the field value */
#define L1OF(x)   ((uint8_t)((LOGLO(x) + 1) & NZ(x)))                  /* L1 form of x */
uint16_t kcol(__code const uint8_t *runs, uint8_t c); /* column c's address (gf.c) */

/* LM matrices (dim x dim, column-major, 2 bytes an entry: the derived A1,
 * A3 of the public-key cache): columns of 2 dim bytes, LMCPP(dim) of them
 * packed in a 256-byte page so that none crosses a page (MOVX @Ri with P2
 * as the page); a matrix starts on a page. The kernels step through the
 * columns with the stride 2 dim and move to the next page after LMCPP. */
#define LMCPP(d) (256 / (2 * (d)))
#define LMSZ(d)  (((d) / LMCPP(d)) * 256 + ((d) % LMCPP(d)) * 2 * (d))
#define LMCOL(K, d, c) ((K) + ((uint16_t)((c) / LMCPP(d)) << 8) + ((c) % LMCPP(d)) * 2 * (d))
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
/* raw columns of the Gauss work */
#if N <= 32
#define GST 32
#else
#define GST 64
#endif

/* The signing layers (kernels_sign.c, assembly build): column j of a layer's
 * system at X_SL + j * SST, rows 0 .. dim-1 at offsets 0 .. dim-1, and the
 * solver's LM form of the eliminated row entries (row i: 2 bytes) at
 * offset SUOFF + 2i of the same column, so no column crosses a page. */
#if A > B
#define LDMAX A
#else
#define LDMAX B
#endif
#ifdef CARD_ROM /* Gauss-Jordan's layout: COMMIT KEY solves there too */
#define SST   GST
/* the layers solved by kernels_rom.c's rs_solve when its U rows fit the
 * GST columns and its scratch (3 max(a, b)) the arena with x beside the n
 * x n Gauss-Jordan's 2n (56 B: internal RAM); else (TTS(24,32)) by
 * Gauss-Jordan */
#if GST >= 3 * LDMAX && N + MAX2(N, 3 * LDMAX) <= 56
#define ROM_LAYER_GE
#endif
#else
#define SST   64
#endif
#define SUOFF (SST - 2 * LDMAX)
/* XDATA a signing layer's system takes at X_SL (the memory budget) */
#if defined(CARD_C_KERNELS) || defined(CARD_ROM)
#define SIGN_LAYER_BYTES ((LDMAX + 1) * GST)
#else
#define SIGN_LAYER_BYTES ((LDMAX + 1) * SST)
#endif
#if SUOFF < LDMAX && (!defined(CARD_ROM) || defined(ROM_LAYER_GE))
#error "layer too large for the solver's column layout"
#endif

/* ---- XDATA map (the simulator's 64 KB; 0xFFFF is the interface) ---- */
#define PG(x) (((x) + 255) & 0xFF00)
#define X_CMD    0x0000          /* command data, 255 bytes */
#define X_RESP   0x0100          /* response data, 255 bytes */
#define X_STR    0x0200          /* ChaCha20: input block 64 (constant, key, counter, nonce), output block 64 */
#define X_MISC   0x0300          /* non-volatile state besides the key (below) */
#define X_WMAP   0x0400          /* PUT KEY written-bytes bitmap */
#define WMAP_BYTES ((SK_BYTES + 7) / 8)
#define X_STAGE  PG(X_WMAP + WMAP_BYTES)   /* raw secret key (PUT / keygen) */
/* The active key, in internal form ("EEPROM"): S3 and S1 in L1 form
 * (columns packed into pages, K3_RUNS / K1_RUNS), the coefficients in L1
 * form, s1 and s3 raw; sk bytes for TTS(20,28). */
#define X_KS3    PG(X_STAGE + SK_BYTES)    /* S3 and S1, L1, column-major */
#define X_KCO    (X_KS3 + KL_TAIL)         /* coefficients, L1 */
#define X_Ks1    (X_KCO + C)               /* s1, raw */
#define X_Ks3    (X_Ks1 + M)               /* s3, raw */
#define X_KEND   (X_Ks3 + N)
#ifdef CARD_ROM
/* Volatile work of the ROM family (no public-key cache): the signing
 * layer's system (columns of GST, kernels_rom.c) and u; COMMIT KEY's
 * [S3 | s3] (the solution, c3, left in its last column) and [S1] for
 * Gauss-Jordan. X_A3L: the work's start, for the memory budget. */
#define X_WS     PG(X_KEND)
#define X_A3L    X_WS
#define X_SL     X_WS
#define X_U      (X_SL + SIGN_LAYER_BYTES)
#define X_G3     X_WS
#define X_G1     PG(X_G3 + (N + 1) * GST)
#define X_WEND   (X_G1 + M * GST)
#define X_TOP    MAX2(X_WEND, X_U + M)
#else
/* Volatile work. The public-key cache, derived from the key by GENERATE
 * and COMMIT KEY, or by the first GET PK SEGMENT after a reset or a refused
 * COMMIT (pk_ready): */
#define X_A3L    PG(X_KEND)                /* A3 = S3^-1, LM, column-major */
#define X_A1L    PG(X_A3L + LMSZ(N))       /* A1 = S1^-1, LM, column-major */
#define X_KPC    (X_A1L + LMSZ(M))         /* p_t c3_w, raw (pk linear part) */
#define X_KQC    (X_KPC + C)               /* p_t c3_u, raw */
/* then a scratch page run, shared by the public key's per-i scalars and
 * the signing layer (SIGN invalidates the scalars: pk_cur) */
#define X_WS     PG(X_KQC + C)
#define X_PT     X_WS                      /* pk: p_t * A3[u_t][i], scalar form */
#define X_QT     (X_PT + 2 * C)            /* pk: p_t * A3[w_t][i] */
#define X_SL     X_WS                      /* signing layer system */
#define X_U      (X_SL + SIGN_LAYER_BYTES) /* u = S1 h + s1 while signing */
/* The Gauss work of the derivation over the cache's second part: [S3 | I]
 * (2N columns of GST) from X_A1L; then [S1 | I] (2M columns) placed so
 * that its right half, A1, lies above the LM A1 written from it (and the
 * p_t c3 terms are written after that). */
#define X_G3     X_A1L
#define X_G1     PG(X_A1L + MAX2(LMSZ(M), M * GST) - M * GST)
/* c3: written once [S3 | I] is dead (key.c: c3_out), read until the p_t
 * c3 terms are */
#define X_C3     MAX2(X_G1 + 2 * M * GST, X_KQC + C)
#define X_WEND   MAX2(MAX2(X_G3 + 2 * N * GST, X_C3 + N), X_QT + 2 * C) /* end of the set-up and export work */
#define X_TOP    MAX2(X_WEND, X_U + M)
#endif
#if X_TOP > 0xFF00
#error "XDATA map too large"
#endif

/* The X_MISC page ("EEPROM" like the key; docs/CARD.md, Non-volatile
 * state). Erased EEPROM reads 0xFF: every flag is a value that erased or
 * half-written bytes cannot take by accident (0xA5), the counter is kept
 * complemented (erased = 0 signatures), a PIN length outside 4..16 means
 * no PIN. Each of these is one byte, written last, so that a write torn at
 * any byte leaves the old state or the new one (the journal, below). */
#define X_ACTIVE X_MISC          /* 0xA5: a key is installed */
#define X_JRNL   (X_MISC + 1)    /* 0xA5: the staged key is being installed */
#define X_TRIES  (X_MISC + 2)    /* PIN tries left, 0..PIN_TRIES (other: 0) */
#define X_CSEL   (X_MISC + 3)    /* bit 0: the counter slot in use */
#define X_CTR    (X_MISC + 4)    /* two slots of 4 bytes: ~counter, little endian */
#define X_PIN    (X_MISC + 0x10) /* PIN length, then PIN_MAX bytes (0-padded) */
#define X_PINST  (X_MISC + 0x28) /* the staged PIN, the same form */
#define X_KCARD  (X_MISC + 0x40) /* the card's stream secret (docs/SPEC.md) */
#define X_KCST   (X_MISC + 0x60) /* the staged one */
#define PIN_MIN   4
#define PIN_MAX   16
#define PIN_TRIES 3
#define NV_MAGIC  0xA5
/* the bytes of this state: 4 flags, the counter's two slots, two PINs, two
 * stream secrets (the memory budget) */
#define NV_STATE_BYTES (4 + 8 + 2 * (1 + PIN_MAX) + 2 * 32)
/* Journal: GENERATE and COMMIT KEY build and check the raw key in X_STAGE
 * with its stream secret in X_KCST (the old key untouched), then set
 * X_JRNL, write the active key, PIN and secret from the staging copies
 * (install), and clear X_JRNL. A reset with X_JRNL set writes them again
 * (main.c), so a power cut leaves the old key or the new one whole. */

/* ---- internal RAM: one arena, carved per command ---- */
/* The scratch part: 64 bytes, or XS_OFF + 2 (n - b) for the x scalars of
 * the layer builds (kernels_sign.c) if that is more; in CARD_128_ASM just
 * what signing needs: the matvec accumulator (n), the last layer's x
 * scalars (2 (v + a + 2)) and the solver's scratch (3 max(a, b)), which
 * may overlap (sign.c then converts every scalar per layer: XS_INC 0). */
/* SV_GEN: the layer solver written out (gen_card.c) for layers of at most
 * CARD_SV_UNROLL_MAX unknowns, its repair masks and factors (3 max(a, b)
 * bytes) at directly addressed bytes of the arena: IA[IX_OFF - 3 dim ..
 * IX_OFF) in CARD_128_ASM, else IA[0 .. 3 max(a, b)) with the x scalars
 * moved above them (XS_OFF; build-image.sh checks IA + XS_OFF <= 0x80). */
#if !defined(CARD_C_KERNELS) && !defined(CARD_ROM) && LDMAX <= CARD_SV_UNROLL_MAX
#define SV_GEN
#endif
#if defined(SV_GEN) && !defined(CARD_128)
#define XS_OFF (3 * LDMAX)
#else
#define XS_OFF 0
#endif
#ifdef CARD_ROM /* IA[0 .. N): the matvec accumulator, Gauss-Jordan's
 * scratch (2 rows: all of IA for COMMIT's n x n), the layer solver's (3
 * max(a, b)), central_eval's y; x above */
#if N >= 3 * LDMAX || !defined(ROM_LAYER_GE)
#define IX_OFF N
#else
#define IX_OFF (3 * LDMAX)
#endif
#elif defined(CARD_128_ASM) /* a plain number: the kernels use it in assembly */
#if N >= 2 * (V + A + 2) && N >= 3 * LDMAX
#define IX_OFF N
#elif 2 * (V + A + 2) >= 3 * LDMAX
#define IX_OFF (2 * (V + A + 2))
#else
#define IX_OFF (3 * LDMAX)
#endif
#elif XS_OFF + 2 * (N - B) > 64 && !defined(CARD_C_KERNELS) /* (the C twins use no x scalars) */
#define IX_OFF (XS_OFF + 2 * (N - B))
#else
#define IX_OFF 64
#endif
#define IA_SIZE (N + IX_OFF)
/* The arena's place, fixed here (gf.c: __at): in CARD_128_ASM the top of
 * the 128 bytes; in the 256-byte family, when the kernels address its
 * first bytes directly (the signing matvec's accumulator IA[0 .. N) for N
 * <= 28, kernels_sign.c: MV_DIRECT; the solver's scratch IA[0 .. XS_OFF)),
 * so that those end at 0x80, the rest in the upper (indirect) 128 bytes
 * and the stack above it (build-image.sh links with --stack-loc IA_END and
 * checks that the data bytes end below IA_ABS). */
#if defined(CARD_128_ASM) || defined(CARD_ROM)
#define IA_ABS (0x80 - IA_SIZE)
#elif !defined(CARD_C_KERNELS) && (N <= 28 || XS_OFF)
#if N <= 28 && N >= XS_OFF     /* plain numbers: main.c uses IA_END in assembly */
#define IA_ABS (0x80 - N)
#else
#define IA_ABS (0x80 - XS_OFF)
#endif
#define IA_END (IA_ABS + IA_SIZE)
#endif
#ifdef IA_ABS
extern __idata __at(IA_ABS) uint8_t IA[IA_SIZE];
#else
extern ARENA uint8_t IA[IA_SIZE];
#endif
#define ISCR (IA)            /* ChaCha state / Gauss / matvec / x scalars */
#define XU   XP(X_U)
#define IX   (IA + IX_OFF)   /* x[N] while signing */
/* gauss() uses IA[0 .. 2*rows): all of IA for the n x n inversions of key
 * set-up. Signing layers (kernels_sign.c): layer_build's x scalars at
 * IA[XS_OFF .. XS_OFF + 2 lo), layer_solve's scratch at IA[IX_OFF - 3 dim
 * .. IX_OFF) (or IA[0 .. 3 dim) if XS_OFF),
 * matvec_sign's accumulator at IA[0 .. N). */
/* The arena of key set-up and the public key: IA (SSCR the Gauss /
 * matvec scratch, SF the public key's m-vector). In CARD_128_ASM the
 * set-up kernels run on IA inside ka_call (kernels_setup.c), which parks
 * the arena's live bytes in the XDATA copy SA meanwhile; between kernels
 * the C code, whose stack is in IA, uses SA as its scratch (SSCR, key.c).
 * A kernel's stack is then the top KS_STACK bytes of IA: its call (2), a
 * call it makes (2) and Timer 0's interrupt (4); the kernels' scratch
 * stays below: Gauss-Jordan IA[0 .. 2 n), the public key's block (the
 * product's accumulator, the m-vector) IA[0 .. 2 m). */
#ifdef CARD_128_ASM
#define SA_SIZE IA_SIZE
extern __xdata uint8_t SA[SA_SIZE];
#define SSCR (SA)
#define KS_STACK 8
#if 2 * N + KS_STACK > IA_SIZE
#error "the set-up kernels' scratch and stack do not fit the arena"
#endif
#else
#define SARENA ARENA
#define SA   IA
#define SSCR ISCR
#define SF   IX
#endif

/* GF(256) table (gf.c); see gen_card.c for its layout. */
#define GFT_ADDR 0x0100
#define GFT_PAGE 0x01
#define GFT_LOGA 0x03FF      /* GFT_ADDR + 767: LOGLO */
#define GFT_HIA  0x02FF      /* GFT_ADDR + 511: LOGHI */
extern __code __at(GFT_ADDR) const uint8_t GFT[1023];
#define GFT_LOG 767
#define GFT_HI  511
#define LOGLO(x) (GFT[GFT_LOG + (x)])
#define LOGHI(x) (GFT[GFT_HI + (x)])
#define NZ(x)    ((uint8_t)((LOGHI(x) >> 1) - 1))   /* 0xFF iff x != 0 */

uint8_t gmul(uint8_t a, uint8_t b);
#ifdef CARD_128_ASM
/* out[0 .. m) = the public key's block of the monomial whose A3 column
 * (LM) is at col: A1 F, F = the monomial's central terms (mode 0: w_i w_j,
 * i < j; 1: w_i^2; 2: w_l, with the column's linear part), the per-i
 * scalars at X_PT, X_QT (kernels_setup.c) */
void pk_block(uint16_t col, uint8_t mode, uint16_t out);
/* pk.c's per-i scalars X_PT, X_QT of the A3 column (LM) at col */
void pk_prep(uint16_t col);
#else
/* acc[r] ^= sum_c K[r][c] x[c], K in LM column-major form (the cache's
 * A3, A1): columns of st bytes, 256 / st of them to a page (LMCOL) */
void matvec_lm(SARENA uint8_t *acc, uint16_t K, SARENA uint8_t *x,
               uint8_t rows, uint8_t cols, uint8_t st);
#endif
/* Gauss-Jordan, column-major raw bytes at W (stride GST); 1 if the left
 * rows x rows block was invertible. Constant time. */
uint8_t gauss(uint16_t W, uint8_t rows, uint8_t cols);
/* Solve the layer system built by layer_build (assembly layout, SST)
 * into IX[lo .. lo + dim); 1 iff invertible. Constant time. */
uint8_t layer_solve(uint8_t lo, uint8_t dim);
/* arena dst[0 .. n) = XDATA src[0 .. n), n > 0 */
void xcopy_i(uint16_t src, arena_t dst, uint8_t n);
/* out[r] = s[r] ^ sum_c K[r][c] IX[c] (XDATA s, out; signing), K the
 * L1 matrix of the run table at K (rows bytes a column) */
void matvec_sign(uint16_t K, uint16_t s, uint16_t out, uint8_t rows,
                 uint8_t cols);

/* ChaCha20 keystream (chacha.c): key = 32 bytes at XDATA src. */
void stream_init(__xdata uint8_t *key);
uint8_t stream_byte(void);
void stream_take(arena_t dst, uint8_t n);
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

#ifdef CARD_HOST
/* Host build of the command logic (fuzz/fuzz_apdu.c): XDATA is an array. */
extern uint8_t card_xram[65536];
#define XB(a) (card_xram[(uint16_t)(a)])
#define XP(a) (card_xram + (uint16_t)(a))
#else
#define XB(a) (*(__xdata uint8_t *)(a))
#define XP(a) ((__xdata uint8_t *)(a))
#endif

#endif
