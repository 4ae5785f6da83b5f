/* SPDX-License-Identifier: MIT */
/*
 * The inputs tts-challenge reads from a challenge folder: a claimed
 * solution (a signature file, binary or armored), manifest.json and
 * index.json, through challenge/'s strict parsers. Invariants: a parsed
 * manifest names a set whose sizes it states, its messages are numbered
 * 1..K with plain file names; a manifest that parses re-renders (from the
 * parsed fields) to a text that parses to the same fields; a parsed index
 * names known sets and a calendar date.
 */
#include <string.h>

#include "challenge.h"
#include "fuzz.h"
#include "tts_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const tts_params *p;
    uint8_t *sig;
    size_t siglen;
    char err[256];
    if (tts_file_decode(data, size, TTS_FILE_SIGNATURE, 0, &p, &sig, &siglen, err,
                       sizeof err) == TTS_OK) {
        FUZZ_CHECK(siglen == tts_sig_bytes(p));
        tts_file_free(sig, siglen);
    }

    chal_manifest m;
    if (chal_manifest_parse((const char *)data, size, &m, err, sizeof err) ==
        CHAL_OK) {
        FUZZ_CHECK(m.set >= 0 && m.set < chal_set_count() &&
                   (m.set == chal_set_sflash() || chal_entry_of(m.p)));
        FUZZ_CHECK(m.nmessages >= 1 && m.nmessages <= CHAL_MAX_INSTANCES);
        FUZZ_CHECK(strlen(m.commitment) == 128 && chal_valid_date(m.issued));
        size_t db = chal_set_digest_bytes(m.set);
        uint8_t *dg = malloc((size_t)m.nmessages * db);
        FUZZ_CHECK(dg);
        for (unsigned i = 0; i < m.nmessages; i++) {
            FUZZ_CHECK(m.messages[i].index == i + 1);
            FUZZ_CHECK(chal_plain_name(m.messages[i].file));
            memcpy(dg + (size_t)i * db, m.messages[i].digest, db);
        }
        size_t len;
        char *again = chal_manifest_render(m.set, m.pk_sha256, m.issued,
                                           m.commitment, m.nmessages, dg,
                                           &len);
        chal_manifest m2;
        FUZZ_CHECK(again && chal_manifest_parse(again, len, &m2, err,
                                                sizeof err) == CHAL_OK);
        FUZZ_CHECK(m2.set == m.set && m2.nmessages == m.nmessages &&
                   memcmp(m2.pk_sha256, m.pk_sha256, 32) == 0);
        for (unsigned i = 0; i < m.nmessages; i++)
            FUZZ_CHECK(memcmp(m2.messages[i].digest, m.messages[i].digest,
                              db) == 0);
        chal_manifest_free(&m2);
        free(again);
        free(dg);
        chal_manifest_free(&m);
    }

    unsigned mask, k;
    char date[11];
    if (chal_index_parse((const char *)data, size, &mask, &k, date, err,
                         sizeof err) == CHAL_OK) {
        FUZZ_CHECK(mask && mask < (1u << chal_set_count()));
        FUZZ_CHECK(k >= 1 && k <= CHAL_MAX_INSTANCES && chal_valid_date(date));
    }
    return 0;
}
