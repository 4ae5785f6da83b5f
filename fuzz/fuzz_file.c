/* SPDX-License-Identifier: MIT */
/*
 * Key and signature files, binary and armored (the libtts codec, include/tts_file.h): any input
 * is decoded as each of the three kinds. Invariants: a refusal always says
 * why; an accepted file has exactly the payload size of its set, and
 * encoding the payload again (both forms) decodes to the same bytes; an
 * accepted secret key either passes tts_sk_check and yields a public key,
 * or is refused by both tts_sk_check and tts_pk_from_sk.
 */
#include <string.h>

#include "fuzz.h"
#include "tts_file.h"

static void roundtrip(int kind, const tts_params *p,
                      const uint8_t *pay, size_t len, unsigned flags)
{
    uint8_t *img, *pay2;
    size_t imglen, len2;
    const tts_params *p2;
    char err[256];
    FUZZ_CHECK(tts_file_encode(kind, p, pay, flags, &img, &imglen) == TTS_OK);
    FUZZ_CHECK(tts_file_decode(img, imglen, kind, 0, &p2, &pay2, &len2, err,
                              sizeof err) == TTS_OK);
    FUZZ_CHECK(p2 == p && len2 == len && memcmp(pay, pay2, len) == 0);
    tts_file_free(img, imglen);
    tts_file_free(pay2, len2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int kinds[] = {TTS_FILE_PUBLIC_KEY, TTS_FILE_SECRET_KEY,
                                         TTS_FILE_SIGNATURE};
    for (size_t k = 0; k < 3; k++) {
        const tts_params *p = NULL;
        uint8_t *pay = NULL;
        size_t len = 0;
        char err[256] = "";
        if (tts_file_decode(data, size, kinds[k], 0, &p, &pay, &len, err,
                           sizeof err) != TTS_OK) {
            FUZZ_CHECK(err[0] != 0 && memchr(err, 0, sizeof err));
            continue;
        }
        FUZZ_CHECK(p && len == tts_file_payload_bytes(p, kinds[k]));
        roundtrip(kinds[k], p, pay, len, 0);
        roundtrip(kinds[k], p, pay, len, TTS_FILE_ARMOR);
        if (kinds[k] == TTS_FILE_SECRET_KEY) {
            uint8_t *pk = malloc(tts_pk_bytes(p));
            FUZZ_CHECK(pk);
            int ok = tts_sk_check(p, pay) == TTS_OK;
            FUZZ_CHECK((tts_pk_from_sk(p, pk, pay) == TTS_OK) == ok);
            free(pk);
        }
        tts_file_free(pay, len);
    }
    return 0;
}
