/*
 * Key and signature files, binary and armored (tools/ttsfile.c): any input
 * is decoded as each of the three kinds. Invariants: a refusal always says
 * why; an accepted file has exactly the payload size of its set, and
 * encoding the payload again (both forms) decodes to the same bytes; an
 * accepted secret key either passes tts_sk_check and yields a public key,
 * or is refused by both tts_sk_check and tts_pk_from_sk.
 */
#include <string.h>

#include "fuzz.h"
#include "ttsfile.h"

static void roundtrip(ttsfile_kind kind, const tts_params *p,
                      const uint8_t *pay, size_t len, unsigned flags)
{
    uint8_t *img, *pay2;
    size_t imglen, len2;
    const tts_params *p2;
    char err[256];
    FUZZ_CHECK(ttsfile_encode(kind, p, pay, flags, &img, &imglen) == TTSFILE_OK);
    FUZZ_CHECK(ttsfile_decode(img, imglen, kind, &p2, &pay2, &len2, err,
                              sizeof err) == TTSFILE_OK);
    FUZZ_CHECK(p2 == p && len2 == len && memcmp(pay, pay2, len) == 0);
    ttsfile_free(img, imglen);
    ttsfile_free(pay2, len2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const ttsfile_kind kinds[] = {TTSFILE_PUBLIC_KEY, TTSFILE_SECRET_KEY,
                                         TTSFILE_SIGNATURE};
    for (size_t k = 0; k < 3; k++) {
        const tts_params *p = NULL;
        uint8_t *pay = NULL;
        size_t len = 0;
        char err[256] = "";
        if (ttsfile_decode(data, size, kinds[k], &p, &pay, &len, err,
                           sizeof err) != TTSFILE_OK) {
            FUZZ_CHECK(err[0] != 0 && memchr(err, 0, sizeof err));
            continue;
        }
        FUZZ_CHECK(p && len == ttsfile_payload_bytes(p, kinds[k]));
        roundtrip(kinds[k], p, pay, len, 0);
        roundtrip(kinds[k], p, pay, len, TTSFILE_ARMOR);
        if (kinds[k] == TTSFILE_SECRET_KEY) {
            uint8_t *pk = malloc(tts_pk_bytes(p));
            FUZZ_CHECK(pk);
            int ok = tts_sk_check(p, pay) == TTS_OK;
            FUZZ_CHECK((tts_pk_from_sk(p, pk, pay) == TTS_OK) == ok);
            free(pk);
        }
        ttsfile_free(pay, len);
    }
    return 0;
}
