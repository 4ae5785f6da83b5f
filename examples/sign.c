/* SPDX-License-Identifier: MIT */
/*
 * A key pair and a signature with libtts: sign SET MESSAGE PUBFILE SIGFILE
 * makes a fresh key pair of SET (e.g. "TTS(20,28)"), signs the file
 * MESSAGE, and writes the public key and the signature as tts files
 * (docs/SPEC.md section 11), which examples/verify.c and `tts verify`
 * check. The secret key never leaves memory and is wiped.
 *
 * Build: cc sign.c $(pkg-config --cflags --libs tts) -o sign
 *
 * TTS is broken (TTS_BROKEN_NOTE in tts.h): this shows the API, it protects
 * nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tts.h>
#include <tts_file.h>

/* Overwrite a secret before it is freed (a volatile store the compiler
 * keeps). */
static void wipe(void *b, size_t n)
{
    volatile unsigned char *v = b;
    while (n--)
        *v++ = 0;
}

static int fail(const char *what, int rc)
{
    fprintf(stderr, "sign: %s: %s\n", what, tts_strerror(rc));
    return 1;
}

/* The whole of path into a heap buffer; NULL on failure. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    size_t cap = 0;
    *len = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (*len == cap) {
            unsigned char *nb = realloc(b, cap = cap ? 2 * cap : 4096);
            if (!nb)
                break;
            b = nb;
        }
        size_t r = fread(b + *len, 1, cap - *len, f);
        *len += r;
        if (r == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        return NULL;
    }
    return b ? b : malloc(1);
}

/* kind's tts file of payload into path. */
static int save(const char *path, int kind, const tts_params *p, const uint8_t *payload)
{
    uint8_t *out;
    size_t len;
    int rc = tts_file_encode(kind, p, payload, 0, &out, &len);
    if (rc != TTS_OK)
        return fail("encoding", rc);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(out, 1, len, f) == len;
    ok = f && fclose(f) == 0 && ok;
    tts_file_free(out, len);
    if (!ok)
        perror(path);
    return !ok;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: sign SET MESSAGE PUBFILE SIGFILE\n");
        return 2;
    }
    const tts_params *p = tts_params_get(argv[1]);
    if (!p) {
        fprintf(stderr, "sign: unknown parameter set %s\n", argv[1]);
        return 2;
    }
    size_t mlen;
    unsigned char *msg = slurp(argv[2], &mlen);
    if (!msg) {
        perror(argv[2]);
        return 2;
    }
    uint8_t *pk = malloc(tts_pk_bytes(p)), *sk = malloc(tts_sk_bytes(p));
    uint8_t sig[TTS_MAX_SIG_BYTES];
    int rc = 1;
    if (!pk || !sk) {
        fprintf(stderr, "sign: out of memory\n");
    } else {
        int r = tts_keypair(p, pk, sk); /* the seed from the system generator */
        if (r != TTS_OK)
            rc = fail("key generation", r);
        else if ((r = tts_sign(p, sig, msg, mlen, sk)) != TTS_OK)
            rc = fail("signing", r);
        else
            rc = save(argv[3], TTS_FILE_PUBLIC_KEY, p, pk) ||
                 save(argv[4], TTS_FILE_SIGNATURE, p, sig);
    }
    if (sk) /* the wiping rule: a secret key is wiped before it is freed */
        wipe(sk, tts_sk_bytes(p));
    wipe(sig, sizeof sig);
    free(sk);
    free(pk);
    free(msg);
    if (rc == 0)
        printf("%s: key pair made, %zu-byte signature of %s written to %s\n",
               tts_params_name(p), tts_sig_bytes(p), argv[2], argv[4]);
    return rc;
}
