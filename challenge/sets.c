/* SPDX-License-Identifier: MIT */
/*
 * The challenge's sets (challenge/challenge.h): the TTS sets of the
 * parameter table, then SFLASH(26,37). Everything that differs between
 * the two kinds (sizes, names, the public-key files, the digest, the
 * verdict) is answered here, so that the issuer, the manifest and the
 * checks loop over one list.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "challenge.h"
#include "sflash_break.h"
#include "tts_file.h"

#define say chal_fail

#define SFLASH_FOLDER "sflash-26-37"
#define SFLASH_PK_FILE "pk.sflash"

static const chal_sflash_ops *sflash_ops;

void chal_set_sflash_ops(const chal_sflash_ops *ops)
{
    sflash_ops = ops;
}

int chal_set_count(void)
{
    return (int)tts_params_count() + 1;
}

int chal_set_sflash(void)
{
    return (int)tts_params_count();
}

unsigned chal_set_mask_tts(void)
{
    return (1u << tts_params_count()) - 1;
}

static int valid(int set)
{
    return set >= 0 && set < chal_set_count();
}

const tts_params *chal_set_params(int set)
{
    return set >= 0 && (size_t)set < tts_params_count() ? tts_params_at((size_t)set) : NULL;
}

int chal_set_of(const tts_params *p)
{
    for (size_t i = 0; p && i < tts_params_count(); i++)
        if (tts_params_at(i) == p)
            return (int)i;
    return -1;
}

int chal_set_find(const char *name)
{
    if (strcmp(name, CHAL_SFLASH_NAME) == 0 || strcmp(name, SFLASH_FOLDER) == 0)
        return chal_set_sflash();
    return chal_set_of(tts_params_get(name));
}

const char *chal_set_name(int set)
{
    if (set == chal_set_sflash())
        return CHAL_SFLASH_NAME;
    return valid(set) ? tts_params_name(chal_set_params(set)) : "?";
}

size_t chal_set_pk_bytes(int set)
{
    return set == chal_set_sflash() ? CHAL_SFLASH_PK_BYTES : tts_pk_bytes(chal_set_params(set));
}

size_t chal_set_sig_bytes(int set)
{
    return set == chal_set_sflash() ? CHAL_SFLASH_SIG_BYTES
                                    : tts_sig_bytes(chal_set_params(set));
}

size_t chal_set_digest_bytes(int set)
{
    return set == chal_set_sflash() ? CHAL_SFLASH_DIGEST_BYTES
                                    : tts_digest_bytes(chal_set_params(set));
}

void chal_set_folder(char *out, size_t len, int set)
{
    snprintf(out, len, "%s",
             set == chal_set_sflash() ? SFLASH_FOLDER
             : valid(set)             ? tts_params_id(chal_set_params(set))
                                      : "?");
}

int chal_set_of_folder_name(const char *name)
{
    char want[32];
    for (int i = 0; i < chal_set_count(); i++) {
        chal_set_folder(want, sizeof want, i);
        if (strcmp(want, name) == 0)
            return i;
    }
    return -1;
}

int chal_set_usable(int set, char *err, size_t errlen)
{
    if (!valid(set))
        return say(err, errlen, "not a set of the challenge");
    if (set == chal_set_sflash() && !sflash_ops)
        return say(err, errlen, "%s: this build has no SFLASH (bench/sflash needs OpenSSL, "
                   "absent at configure time); its instances cannot be made or checked here",
                   CHAL_SFLASH_NAME);
    return CHAL_OK;
}

int chal_set_digest(int set, uint8_t *digest, const uint8_t *msg, size_t len, char *err,
                    size_t errlen)
{
    if (chal_set_usable(set, err, errlen) != CHAL_OK)
        return CHAL_ERROR;
    if (set == chal_set_sflash())
        return sflash_ops->hash(digest, msg, len) == 0
                   ? CHAL_OK : say(err, errlen, "%s: cannot hash the message", CHAL_SFLASH_NAME);
    return tts_digest(chal_set_params(set), digest, msg, len) == TTS_OK
               ? CHAL_OK : say(err, errlen, "internal error: digest");
}

/* SFLASH: P(x) = V, x the signature's 37 elements (pad bits zero), V the
 * digest's 26 (pad bits zero), P by its coefficients. */
static int sflash_verify_map(const uint8_t *sig, const uint8_t *digest, const uint8_t *pk)
{
    uint8_t x[CHAL_SFLASH_N], v[CHAL_SFLASH_M], y[CHAL_SFLASH_N];
    chal_cstar_map *P = malloc(sizeof *P);
    int ok = P && chal_sflash_pk_decode(P, pk, CHAL_SFLASH_PK_BYTES, NULL, 0) == CHAL_OK &&
             chal_sflash_unpack(x, sig, CHAL_SFLASH_N) == 0 &&
             chal_sflash_unpack(v, digest, CHAL_SFLASH_M) == 0;
    if (ok) {
        chal_cstar_eval(P, x, y);
        ok = memcmp(y, v, CHAL_SFLASH_M) == 0;
    }
    free(P);
    return ok ? CHAL_VALID : CHAL_INVALID;
}

int chal_set_verify(int set, const uint8_t *sig, const uint8_t *digest, const uint8_t *pk)
{
    if (set == chal_set_sflash())
        return sflash_verify_map(sig, digest, pk);
    const tts_params *p = chal_set_params(set);
    return p && tts_verify_digest(p, sig, digest, pk) == TTS_OK ? CHAL_VALID : CHAL_INVALID;
}

int chal_set_public_key(int set, uint8_t *pk, const uint8_t seed[32], char *err,
                        size_t errlen)
{
    if (chal_set_usable(set, err, errlen) != CHAL_OK)
        return CHAL_ERROR;
    const tts_params *p = chal_set_params(set);
    size_t skb = p ? tts_sk_bytes(p) : sflash_ops->sk_bytes;
    uint8_t *sk = malloc(skb);
    if (!sk)
        return say(err, errlen, "out of memory");
    int ok = p ? tts_keypair_from_seed(p, pk, sk, seed) == TTS_OK
               : sflash_ops->keypair(pk, sk, seed) == 0;
    sodium_memzero(sk, skb);
    free(sk);
    return ok ? CHAL_OK : say(err, errlen, "%s: key generation failed", chal_set_name(set));
}

size_t chal_set_pk_files(int set, const char *name[CHAL_MAX_PK_FILES])
{
    if (set == chal_set_sflash()) {
        name[0] = SFLASH_PK_FILE;
        return 1;
    }
    name[0] = "pk.tts";
    name[1] = "pk.asc";
    return 2;
}

uint8_t *chal_set_pk_encode(int set, size_t i, const uint8_t *pk, size_t *len)
{
    uint8_t *img = NULL;
    if (set == chal_set_sflash()) {
        *len = CHAL_SFLASH_PK_BYTES;
        if ((img = malloc(*len)) != NULL)
            memcpy(img, pk, *len);
        return img;
    }
    if (tts_file_encode(TTS_FILE_PUBLIC_KEY, chal_set_params(set), pk,
                        i ? TTS_FILE_ARMOR : 0, &img, len) != 0)
        return NULL;
    return img;
}

int chal_set_pk_decode(int set, const uint8_t *raw, size_t len, uint8_t **pk, size_t *pklen,
                       char *err, size_t errlen)
{
    *pk = NULL;
    *pklen = 0;
    if (set == chal_set_sflash()) {
        chal_cstar_map *P = malloc(sizeof *P);
        int rc = P ? chal_sflash_pk_decode(P, raw, len, err, errlen)
                   : say(err, errlen, "out of memory");
        free(P);
        if (rc != CHAL_OK)
            return CHAL_ERROR;
        if ((*pk = malloc(len)) == NULL)
            return say(err, errlen, "out of memory");
        memcpy(*pk, raw, len);
        *pklen = len;
        return CHAL_OK;
    }
    const tts_params *p = chal_set_params(set), *pp;
    if (tts_file_decode(raw, len, TTS_FILE_PUBLIC_KEY, 0, &pp, pk, pklen, err, errlen) != TTS_OK)
        return CHAL_ERROR;
    if (pp != p) {
        free(*pk);
        *pk = NULL;
        return say(err, errlen, "holds a key of %s, the folder is %s", tts_params_name(pp),
                   tts_params_name(p));
    }
    return CHAL_OK;
}
