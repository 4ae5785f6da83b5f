/* SPDX-License-Identifier: MIT */
/*
 * Host helper of the card tests (tests/test_card*.sh).
 *
 *   card_helper kat RSP INDEX SEED PK SK
 *       entry INDEX of a KAT file: the 32 bytes its DRBG gives
 *       crypto_sign_keypair (the card's seed), and the KAT's pk and sk
 *   card_helper keygen PARAMS SEED SK PK     tts_keypair_from_seed
 *   card_helper pk PARAMS SK PK     the public key of SK (tts_pk_from_sk)
 *   card_helper corrupt PARAMS SKIN SKOUT singular1|singular3|s1|s3|S1|sparse|affine0|coef
 *       a malformed key: S1 or S3 made singular (row 1 = row 0), or s1 or
 *       s3 changed; or S1, a well-formed key of another public key: S1[0][0]
 *       changed by the first delta that keeps S1 invertible (S1 is free in
 *       a TTS key: tts_sk_check accepts it); or sparse, a well-formed key full of zeros: s3 = 0 (so
 *       c3 = 0 and s1 = F(0) = 0), s1 = 0, and about a third of the entries
 *       of S1, S3 and the central coefficients zero (a fixed pseudo-random
 *       pattern, the first of eight that leaves S1 and S3 invertible);
 *       or affine0: s3 = 0 and s1 = 0 (c3 = 0, s1 = F(0) = 0: a
 *       well-formed key); or coef: the first central coefficient changed
 *       (a well-formed key of another public key where c3 = 0, as in an
 *       affine0 key)
 *   card_helper points PARAMS SK XHEX [FLIP]
 *       COMMIT KEY's data for SK (host/cardbind.h) with the x values
 *       from XHEX (2n bytes: as many as the points take, the rest
 *       unused), in hex; FLIP: byte FLIP of it changed (a wrong point)
 *   card_helper sign PARAMS SK DIGESTHEX COUNTER
 *       the host's tts_sign_digest with the card's ChaCha20 randomness
 *       (tts_card_stream_key for that counter): prints the signature in
 *       hex and the number of attempts
 *   card_helper verify PARAMS PK DIGESTHEX SIGHEX
 *       tts_verify_digest: exit 0 if the signature verifies, 1 if not
 *   card_helper signwith PARAMS SK DIGESTHEX KEYHEX
 *       the same with the stream key given (a terminal that chose the
 *       card's randomness, as SIGN once let it: the negative control of the
 *       hostile-terminal test)
 *   card_helper rank N FILE
 *       the rank over GF(256) (0x11B) of the differences sigma_i - sigma_0
 *       of the n-byte hex signatures in FILE, one a line
 *   card_helper keycheck SEEDHEX COUNT
 *       tts_card_stream_key against this file's own reading of
 *       docs/SPEC.md (libsodium's ChaCha20), COUNT random keys, digests and
 *       counters per set (inputs from the seed): exit 0 if all agree
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>
#include <tts.h>

#include "cardbind.h"
#include "drbg.h"

static int fail(const char *m)
{
    fprintf(stderr, "card_helper: %s\n", m);
    return 2;
}

/* Hex up to the end of s (a trailing line break ignored): the byte count,
 * or -1. */
static long unhex(const char *s, uint8_t *out, size_t max)
{
    size_t n = 0, l = strcspn(s, "\r\n");
    const char *end;
    if (sodium_hex2bin(out, max, s, l, NULL, &n, &end) != 0 || end != s + l)
        return -1;
    return (long)n;
}

/* Every file this helper writes may hold a secret key: mode 0600, as
 * tts-card requires of a key file. */
static int put(const char *path, const uint8_t *b, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!f) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (fwrite(b, 1, n, f) != n) {
        fclose(f);
        return -1;
    }
    return fclose(f) ? -1 : 0;
}

static long get(const char *path, uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    long r = (long)fread(b, 1, n + 1, f);
    fclose(f);
    return r;
}

static int kat(int argc, char **argv)
{
    if (argc != 7)
        return fail("kat RSP INDEX SEED PK SK");
    FILE *f = fopen(argv[2], "r");
    if (!f)
        return fail("cannot read the KAT file");
    static char line[1 << 17];
    int want = atoi(argv[3]), cur = -1;
    uint8_t seed48[48], seed[32];
    static uint8_t pk[TTS_MAX_PK_BYTES], sk[TTS_MAX_SK_BYTES];
    long pkl = -1, skl = -1, sl = -1;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!strncmp(line, "count = ", 8))
            cur = atoi(line + 8);
        if (cur != want)
            continue;
        if (!strncmp(line, "seed = ", 7))
            sl = unhex(line + 7, seed48, 48);
        else if (!strncmp(line, "pk = ", 5))
            pkl = unhex(line + 5, pk, sizeof pk);
        else if (!strncmp(line, "sk = ", 5))
            skl = unhex(line + 5, sk, sizeof sk);
    }
    fclose(f);
    if (sl != 48 || pkl <= 0 || skl <= 0)
        return fail("entry not found");
    tts_drbg d;
    if (tts_drbg_init(&d, seed48, NULL) || tts_drbg_randombytes(&d, seed, 32))
        return fail("DRBG failed");
    if (put(argv[4], seed, 32) || put(argv[5], pk, (size_t)pkl) || put(argv[6], sk, (size_t)skl))
        return fail("cannot write");
    return 0;
}

/* The card's stream key as docs/SPEC.md words it, written apart from the
 * library's: the 64-byte ChaCha20 blocks of RFC 8439, of which the first
 * 32 bytes are kept. */
static void spec_block(uint8_t out[64], const uint8_t key[32], uint32_t ctr,
                       const uint8_t nonce[12])
{
    uint8_t zero[64] = {0};
    crypto_stream_chacha20_ietf_xor_ic(out, zero, 64, nonce, ctr, key);
}

static void spec_stream_key(uint8_t key[32], const uint8_t *sk, size_t skb, uint32_t ctr,
                            const uint8_t *h, size_t m)
{
    uint8_t chain[32] = {0}, kin[32], blk[64], nonce[12];
    memcpy(nonce, "tts-card-prf", 12);
    size_t pieces = (skb + 31) / 32;
    for (size_t i = 0; i < pieces; i++) {
        uint8_t piece[32] = {0};
        memcpy(piece, sk + 32 * i, skb - 32 * i < 32 ? skb - 32 * i : 32);
        for (int j = 0; j < 32; j++)
            kin[j] = chain[j] ^ piece[j];
        spec_block(blk, kin, 0, nonce);
        memcpy(chain, blk, 32);
    }
    spec_block(blk, chain, ctr, h);
    uint8_t tail[32] = {0};
    memcpy(tail, h + 12, m - 12);
    for (int j = 0; j < 32; j++)
        key[j] = blk[j] ^ tail[j];
}

/* GF(256) mod 0x11B, written out again (not the library's) */
static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    while (b) {
        if (b & 1)
            r ^= a;
        a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1B : 0));
        b >>= 1;
    }
    return r;
}

static int rank(int argc, char **argv)
{
    if (argc != 4)
        return fail("rank N FILE");
    int n = atoi(argv[2]), rows = 0, r = 0;
    static uint8_t mat[1024][TTS_MAX_N], first[TTS_MAX_N];
    char line[1024];
    FILE *f = fopen(argv[3], "r");
    if (!f || n <= 0 || n > TTS_MAX_N)
        return fail("rank N FILE");
    for (int k = 0; fgets(line, sizeof line, f) && rows < 1024; k++) {
        uint8_t sig[TTS_MAX_N];
        line[strcspn(line, "\r\n")] = 0;
        if (unhex(line, sig, TTS_MAX_N) != n) {
            fclose(f);
            return fail("rank: a line that is not n bytes of hex");
        }
        if (!k) {
            memcpy(first, sig, n);
            continue;
        }
        for (int j = 0; j < n; j++)
            mat[rows][j] = sig[j] ^ first[j];
        rows++;
    }
    fclose(f);
    for (int c = 0; c < n && r < rows; c++) {
        int piv = -1;
        for (int i = r; i < rows && piv < 0; i++)
            if (mat[i][c])
                piv = i;
        if (piv < 0)
            continue;
        uint8_t t[TTS_MAX_N], inv = 1;
        memcpy(t, mat[piv], n);
        memcpy(mat[piv], mat[r], n);
        memcpy(mat[r], t, n);
        while (gmul(inv, mat[r][c]) != 1)
            inv++;
        for (int i = 0; i < rows; i++)
            if (i != r && mat[i][c]) {
                uint8_t f2 = gmul(mat[i][c], inv);
                for (int j = 0; j < n; j++)
                    mat[i][j] ^= gmul(f2, mat[r][j]);
            }
        r++;
    }
    printf("%d\n", r);
    return 0;
}

static int keycheck(int argc, char **argv)
{
    uint8_t seed[32] = {0};
    if (argc != 4 || unhex(argv[2], seed, 32) <= 0)
        return fail("keycheck SEEDHEX COUNT");
    long count = atol(argv[3]), agree = 0, total = 0;
    static uint8_t sk[TTS_MAX_SK_BYTES];
    uint8_t h[TTS_MAX_M], a[32], b[32], nonce[12] = {0};
    uint64_t pos = 0;
    for (size_t s = 0; s < tts_params_count(); s++) {
        const tts_params *p = tts_params_at(s);
        size_t skb = tts_sk_bytes(p), m = tts_digest_bytes(p);
        for (long i = 0; i < count; i++, total++) {
            uint32_t ctr;
            /* inputs: the seed's ChaCha20 stream (any bytes will do) */
            crypto_stream_chacha20_ietf_xor_ic(sk, memset(sk, 0, skb), skb, nonce, pos, seed);
            pos += (skb + 63) / 64;
            uint8_t x[64] = {0};
            spec_block(x, seed, (uint32_t)pos++, nonce);
            memcpy(h, x, m);
            memcpy(&ctr, x + 40, 4);
            if (i == 0)
                ctr = 0;
            else if (i == 1)
                ctr = 0xFFFFFFFEu;
            if (tts_card_stream_key(p, a, sk, ctr, h) != TTS_OK)
                return fail("tts_card_stream_key failed");
            spec_stream_key(b, sk, skb, ctr, h, m);
            agree += memcmp(a, b, 32) == 0;
        }
    }
    printf("%ld of %ld stream keys agree\n", agree, total);
    return agree == total && total > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (sodium_init() < 0)
        return fail("libsodium");
    if (argc < 2)
        return fail("usage: kat|keygen|pk|corrupt|points|sign|signwith|verify|rank|keycheck ...");
    if (!strcmp(argv[1], "kat"))
        return kat(argc, argv);
    if (!strcmp(argv[1], "keycheck"))
        return keycheck(argc, argv);
    if (!strcmp(argv[1], "rank"))
        return rank(argc, argv);
    if (argc < 3)
        return fail("missing PARAMS");
    const tts_params *p = tts_params_get(argv[2]);
    if (!p)
        return fail("unknown parameter set");
    size_t skb = tts_sk_bytes(p), pkb = tts_pk_bytes(p);
    unsigned m = tts_params_m(p), n = tts_params_n(p);
    static uint8_t pk[TTS_MAX_PK_BYTES], sk[TTS_MAX_SK_BYTES];
    if (!strcmp(argv[1], "keygen") && argc == 6) {
        uint8_t seed[32];
        if (get(argv[3], seed, 32) != 32)
            return fail("seed: need 32 bytes");
        if (tts_keypair_from_seed(p, pk, sk, seed) || put(argv[4], sk, skb) || put(argv[5], pk, pkb))
            return fail("keygen failed");
        return 0;
    }
    if (!strcmp(argv[1], "pk") && argc == 5) {
        if (get(argv[3], sk, skb) != (long)skb || tts_pk_from_sk(p, pk, sk) != TTS_OK ||
            put(argv[4], pk, pkb))
            return fail("pk PARAMS SK PK: the library refuses the key");
        return 0;
    }
    if (!strcmp(argv[1], "corrupt") && argc == 6) {
        if (get(argv[3], sk, skb) != (long)skb)
            return fail("bad secret key file");
        if (!strcmp(argv[5], "singular1"))
            memcpy(sk + m, sk, m);                         /* S1 row 1 = row 0 */
        else if (!strcmp(argv[5], "singular3"))
            memcpy(sk + m * (m + 1) + n, sk + m * (m + 1), n); /* S3 row 1 = row 0 */
        else if (!strcmp(argv[5], "s1"))
            sk[m * m] ^= 1;
        else if (!strcmp(argv[5], "s3"))
            sk[(size_t)m * (m + 1) + (size_t)n * n] ^= 1;
        else if (!strcmp(argv[5], "S1")) {
            unsigned d = 1;
            for (sk[0] ^= 1; tts_sk_check(p, sk) != TTS_OK && d < 255; d++)
                sk[0] ^= (uint8_t)(d ^ (d + 1)); /* S1[0][0] ^ (d + 1) */
            if (tts_sk_check(p, sk) != TTS_OK)
                return fail("corrupt: no change of S1[0][0] keeps the key valid");
        }
        else if (!strcmp(argv[5], "sparse")) {
            static uint8_t in[TTS_MAX_SK_BYTES];
            size_t s3 = (size_t)m * (m + 1) + (size_t)n * n; /* s3's offset */
            unsigned t = 0;
            memcpy(in, sk, skb);
            for (; t < 8; t++) {
                uint32_t st = 12345 + t; /* an LCG: a pattern no row length repeats */
                memcpy(sk, in, skb);
                for (size_t i = 0; i < skb; i++) {
                    st = st * 1103515245u + 12345u;
                    if ((st >> 16) % 3 == 0)
                        sk[i] = 0;
                }
                memset(sk + (size_t)m * m, 0, m);          /* s1 */
                memset(sk + s3, 0, n);                     /* s3 */
                if (tts_sk_check(p, sk) == TTS_OK)
                    break;
            }
            if (t == 8)
                return fail("corrupt: no sparse pattern leaves S1 and S3 invertible");
        } else if (!strcmp(argv[5], "affine0")) {
            memset(sk + (size_t)m * m, 0, m);                              /* s1 */
            memset(sk + (size_t)m * (m + 1) + (size_t)n * n, 0, n);        /* s3 */
        } else if (!strcmp(argv[5], "coef"))
            sk[(size_t)m * (m + 1) + (size_t)n * (n + 1)] ^= 1;
        else
            return fail("corrupt: singular1|singular3|s1|s3|S1|sparse|affine0|coef");
        return put(argv[4], sk, skb) ? fail("cannot write") : 0;
    }
    if ((!strcmp(argv[1], "sign") || !strcmp(argv[1], "signwith")) && argc == 6) {
        /* sign: the card's stream key for COUNTER; signwith: KEYHEX */
        uint8_t dg[TTS_MAX_M], sig[TTS_MAX_N], key[32];
        char *end = argv[5];
        unsigned long ctr = 0;
        tts_stream r;
        int with = !strcmp(argv[1], "signwith");
        if (!with)
            ctr = strtoul(argv[5], &end, 0);
        if (get(argv[3], sk, skb) != (long)skb || unhex(argv[4], dg, m) != (long)m ||
            (with ? unhex(argv[5], key, 32) != 32 : *end || ctr > 0xFFFFFFFFul))
            return fail("sign PARAMS SK DIGESTHEX COUNTER | signwith PARAMS SK DIGESTHEX KEYHEX");
        if (!with && tts_card_stream_key(p, key, sk, (uint32_t)ctr, dg) != TTS_OK)
            return fail("tts_card_stream_key failed");
        tts_stream_init(&r, key); /* the card's randomness (ref/stream.c) */
        sodium_memzero(key, sizeof key);
        if (tts_sign_digest(p, sig, dg, sk, tts_stream_rng, &r) != TTS_OK)
            return fail("signing failed");
        for (unsigned i = 0; i < n; i++)
            printf("%02X", sig[i]);
        printf(" %u\n", r.calls);
        tts_stream_wipe(&r);
        return 0;
    }
    if (!strcmp(argv[1], "points") && (argc == 5 || argc == 6)) {
        uint8_t xs[2 * TTS_MAX_N], data[255];
        size_t nb = card_check_bytes(p), nx = card_check_points(p) * n;
        unsigned long flip = argc == 6 ? strtoul(argv[5], NULL, 0) : 0;
        if (get(argv[3], sk, skb) != (long)skb || unhex(argv[4], xs, sizeof xs) < (long)nx ||
            flip >= nb)
            return fail("points PARAMS SK XHEX [FLIP]");
        if (tts_pk_from_sk(p, pk, sk) != TTS_OK || card_check_data(p, data, sk, pk, xs) != TTS_OK)
            return fail("points: the library refuses the key");
        if (argc == 6)
            data[flip] ^= 1;
        for (size_t i = 0; i < nb; i++)
            printf("%02X", data[i]);
        printf("\n");
        return 0;
    }
    if (!strcmp(argv[1], "verify") && argc == 6) {
        uint8_t dg[TTS_MAX_M], sig[TTS_MAX_N];
        if (get(argv[3], pk, pkb) != (long)pkb || unhex(argv[4], dg, m) != (long)m ||
            unhex(argv[5], sig, n) != (long)n)
            return fail("verify PARAMS PK DIGESTHEX SIGHEX");
        return tts_verify_digest(p, sig, dg, pk) == TTS_OK ? 0 : 1;
    }
    return fail("usage: kat|keygen|pk|corrupt|points|sign|signwith|verify|rank|keycheck ...");
}
