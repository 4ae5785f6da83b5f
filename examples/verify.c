/* SPDX-License-Identifier: MIT */
/*
 * Verifying a signature with libtts: verify PUBFILE SIGFILE MESSAGE reads
 * a tts public-key file and a tts signature file (binary or armored,
 * docs/SPEC.md section 11; the set comes from the files) and checks the
 * signature of the file MESSAGE. Exit 0 valid, 1 invalid, 2 bad input.
 *
 * Build: cc verify.c $(pkg-config --cflags --libs tts) -o verify
 */
#include <stdio.h>
#include <stdlib.h>

#include <tts.h>
#include <tts_file.h>

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

/* The payload of the tts file at path, of kind; *p its set. */
static uint8_t *load(const char *path, int kind, const tts_params **p, size_t *plen)
{
    size_t len;
    unsigned char *b = slurp(path, &len);
    uint8_t *pay = NULL;
    char err[256];
    if (!b) {
        perror(path);
        return NULL;
    }
    if (tts_file_decode(b, len, kind, 0, p, &pay, plen, err, sizeof err) != TTS_OK)
        fprintf(stderr, "verify: %s: %s\n", path, err);
    free(b);
    return pay;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: verify PUBFILE SIGFILE MESSAGE\n");
        return 2;
    }
    const tts_params *pp, *sp;
    size_t pklen, siglen, mlen;
    uint8_t *pk = load(argv[1], TTS_FILE_PUBLIC_KEY, &pp, &pklen);
    uint8_t *sig = load(argv[2], TTS_FILE_SIGNATURE, &sp, &siglen);
    unsigned char *msg = slurp(argv[3], &mlen);
    int rc = 2;
    if (!msg)
        perror(argv[3]);
    if (pk && sig && msg) {
        if (pp != sp) {
            fprintf(stderr, "verify: a %s key and a %s signature\n", tts_params_name(pp),
                    tts_params_name(sp));
        } else {
            rc = tts_verify(pp, sig, msg, mlen, pk) == TTS_OK ? 0 : 1;
            printf("%s: %s\n", tts_params_name(pp), rc ? "INVALID signature" : "valid signature");
        }
    }
    tts_file_free(pk, pklen);
    tts_file_free(sig, siglen);
    free(msg);
    return rc;
}
