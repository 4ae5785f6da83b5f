/* SPDX-License-Identifier: MIT */
/*
 * The card's memory map (card.h includes this after card_field.h): the
 * signing layer's layout, XDATA (buffers, the active key, the work, the
 * non-volatile state and the journal) and the internal-RAM arena.
 */
#ifndef CARD_MAP_H
#define CARD_MAP_H

/* raw columns of the Gauss work */
#if N <= 32
#define GST 32
#else
#define GST 64
#endif

/* The signing layers (k_layer.c, assembly build): column j of a layer's
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
#if GST >= 3 * LDMAX && N + MAX2(N, 3 * LDMAX) <= 56 && !defined(CARD_ROM_4K)
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
/* LOGLO[0 .. 255] (log_3 x, LOGLO[0] = 0), written by rom.c at reset from
 * the exp table in code (card_field.h: this family's GFT is exp alone);
 * the assembly reads its page, so no ?: here */
#define X_LOGT   PG(X_WEND)
/* The term records of the layer build (kernels_rom.c): per central term,
 * in secret-key coefficient order, {&x[u], the column's byte or 0x80 |
 * &x[w], p_t in L1 form}, 85 to a page (none crosses one); the first two
 * bytes written at reset from the terms' formulas (rk_tgen), the third
 * from the active key at reset and after each install (rk_tfill) */
#define X_TERMS  (X_LOGT + 256)
#define TREC_PP  85
#define X_TERMS_BYTES (256 * ((C + TREC_PP - 1) / TREC_PP))
#define X_TOP    (X_TERMS + X_TERMS_BYTES)
#if X_WEND < X_U + M
#error "card_map.h: X_LOGT must lie above the signing layer and u"
#endif
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
 * the layer builds (k_layer.c) if that is more; in CARD_128_ASM just
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
 * <= 28, k_matvec.c: MV_DIRECT; the solver's scratch IA[0 .. XS_OFF)),
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
 * set-up. Signing layers (k_layer.c): layer_build's x scalars at
 * IA[XS_OFF .. XS_OFF + 2 lo), layer_solve's scratch at IA[IX_OFF - 3 dim
 * .. IX_OFF) (or IA[0 .. 3 dim) if XS_OFF),
 * matvec_sign's accumulator at IA[0 .. N). */
/* The arena of key set-up and the public key: IA (SSCR the Gauss /
 * matvec scratch, SF the public key's m-vector). In CARD_128_ASM the
 * set-up kernels run on IA inside ka_call (kernels.c), which parks
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

#ifdef CARD_HOST
/* Host build of the command logic (fuzz/fuzz_apdu.c): XDATA is an array. */
extern uint8_t card_xram[65536];
#define XB(a) (card_xram[(uint16_t)(a)])
#define XP(a) (card_xram + (uint16_t)(a))
#else
#define XB(a) (*(__xdata uint8_t *)(a))
#define XP(a) ((__xdata uint8_t *)(a))
#endif

/* the public-key cache's A3, column c (LM) */
#define A3COL(c) LMCOL(X_A3L, N, c)

#ifdef CARD_ROM
/* The first two bytes of a term record (X_TERMS, kernels_rom.c): TX(u) =
 * &x[u] (IX), then TC(w - lo) (a matrix entry: its column's byte of the
 * row buffer IA[0 .. dim]) or TW(w) = 0x80 | &x[w] (a right-hand-side
 * product). rk_tgen writes them from the formulas; gen_card.c's T_UW_INIT
 * lists the same bytes from ref's term tables (the build puts them in the
 * image's .sizes, which the tests compare with the card's). */
#define TX(u) (IA_ABS + IX_OFF + (u))
#define TC(c) (IA_ABS + (c))
#define TW(w) (0x80 | (IA_ABS + IX_OFF + (w)))
#endif

#endif
