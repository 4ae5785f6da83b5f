/*
 * Host helper of the card tests (tests/test_card*.sh).
 *
 *   card_helper kat RSP INDEX SEED PK SK
 *       entry INDEX of a KAT file: the 32 bytes its DRBG gives
 *       crypto_sign_keypair (the card's seed), and the KAT's pk and sk
 *   card_helper keygen PARAMS SEED SK PK     tts_keypair_from_seed
 *   card_helper corrupt PARAMS SKIN SKOUT singular1|singular3|s1
 *       a malformed key: S1 or S3 made singular (row 1 = row 0), or s1 changed
 *   card_helper sign PARAMS SK DIGESTHEX RANDHEX
 *       the host's tts_sign_digest with the card's ChaCha20 randomness:
 *       prints the signature in hex and the number of attempts
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>
#include <tts.h>

#include "drbg.h"

static int fail(const char *m)
{
    fprintf(stderr, "card_helper: %s\n", m);
    return 2;
}

static long unhex(const char *s, uint8_t *out, size_t max)
{
    size_t n = 0, l = strlen(s);
    if (l % 2)
        return -1;
    for (size_t i = 0; i < l; i += 2) {
        unsigned v;
        if (n == max || sscanf(s + i, "%2x", &v) != 1)
            return -1;
        out[n++] = (uint8_t)v;
    }
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

int main(int argc, char **argv)
{
    if (sodium_init() < 0)
        return fail("libsodium");
    if (argc < 2)
        return fail("usage: kat|keygen|corrupt|sign ...");
    if (!strcmp(argv[1], "kat"))
        return kat(argc, argv);
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
    if (!strcmp(argv[1], "corrupt") && argc == 6) {
        if (get(argv[3], sk, skb) != (long)skb)
            return fail("bad secret key file");
        if (!strcmp(argv[5], "singular1"))
            memcpy(sk + m, sk, m);                         /* S1 row 1 = row 0 */
        else if (!strcmp(argv[5], "singular3"))
            memcpy(sk + m * (m + 1) + n, sk + m * (m + 1), n); /* S3 row 1 = row 0 */
        else if (!strcmp(argv[5], "s1"))
            sk[m * m] ^= 1;
        else
            return fail("corrupt: singular1|singular3|s1");
        return put(argv[4], sk, skb) ? fail("cannot write") : 0;
    }
    if (!strcmp(argv[1], "sign") && argc == 6) {
        uint8_t dg[TTS_MAX_M], sig[TTS_MAX_N];
        uint8_t key[32];
        tts_stream r;
        if (get(argv[3], sk, skb) != (long)skb || unhex(argv[4], dg, m) != (long)m ||
            unhex(argv[5], key, 32) != 32)
            return fail("sign PARAMS SK DIGESTHEX RANDHEX");
        tts_stream_init(&r, key); /* the card's randomness (ref/stream.c) */
        if (tts_sign_digest(p, sig, dg, sk, tts_stream_rng, &r) != TTS_OK)
            return fail("signing failed");
        for (unsigned i = 0; i < n; i++)
            printf("%02X", sig[i]);
        printf(" %u\n", r.calls);
        return 0;
    }
    return fail("usage: kat|keygen|corrupt|sign ...");
}
