/*
 * The inputs of tts-challenge verify and reveal-check: a claimed solution
 * (a signature file, binary or armored) and the manifest fields
 * (tools/manifest.c). Invariants: an extracted field is NUL-terminated,
 * within its buffer, free of quotes, and occurs in the text after its key;
 * a commitment is exactly 128 lowercase hex digits.
 */
#include <string.h>

#include "fuzz.h"
#include "manifest.h"
#include "ttsfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const tts_params *p;
    uint8_t *sig;
    size_t siglen;
    char err[256];
    if (ttsfile_decode(data, size, TTSFILE_SIGNATURE, &p, &sig, &siglen, err,
                       sizeof err) == TTSFILE_OK) {
        FUZZ_CHECK(siglen == tts_sig_bytes(p));
        ttsfile_free(sig, siglen);
    }

    char *text = malloc(size + 1);
    FUZZ_CHECK(text);
    memcpy(text, data, size);
    text[size] = 0; /* read_text refuses NULs; here they just end the text */
    static const char *keys[] = {"commitment", "set", "issue_date", "pk_sha256"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        char out[129];
        memset(out, 'x', sizeof out);
        if (manifest_field(text, keys[k], out, sizeof out) == 0) {
            size_t l = strnlen(out, sizeof out);
            FUZZ_CHECK(l < sizeof out && !strchr(out, '"'));
            FUZZ_CHECK(strstr(text, out) != NULL);
        }
    }
    char c[129];
    if (manifest_commitment(text, c) == 0)
        FUZZ_CHECK(strlen(c) == 128 && strspn(c, "0123456789abcdef") == 128);
    free(text);
    return 0;
}
