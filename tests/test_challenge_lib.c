/* SPDX-License-Identifier: MIT */
/*
 * challenge/ as a library (tests/test_challenge.sh drives it through the
 * tool): the strict JSON reader, the manifest and index parsers against
 * texts written here by hand, calendar dates, the instance files against
 * an independent recomputation with libsodium, and chal_dreg against the
 * closed form D_reg(m, m) = m + 1.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "challenge.h"
#include "json.h"

static int parses(const char *text)
{
    json_node *r;
    char err[200];
    int ok = json_parse(text, strlen(text), &r, err, sizeof err) == 0;
    json_free(r);
    return ok;
}

START_TEST(json_strict)
{
    ck_assert(parses("{\"a\": [1, 2, {\"b\": \"c\"}], \"d\": true}"));
    ck_assert(parses(" {} \n"));
    ck_assert(parses("\"a\\\"b\\\\c\\/\""));
    ck_assert(!parses("{\"a\": 1, \"a\": 2}"));        /* duplicate key */
    ck_assert(!parses("{\"a\": 1} x"));                /* trailing data */
    ck_assert(!parses("{\"a\": 1}{}"));
    ck_assert(!parses("{\"a\": 1,}"));                 /* trailing comma */
    ck_assert(!parses("{\"a\": 01}"));                 /* leading zero */
    ck_assert(!parses("{\"a\": -1}"));
    ck_assert(!parses("{\"a\": 1.5}"));
    ck_assert(!parses("{\"a\": 9007199254740992}"));   /* 2^53 */
    ck_assert(!parses("{\"a\": \"\\u0041\"}"));        /* escapes refused */
    ck_assert(!parses("{\"a\": \"x\ny\"}"));           /* control character */
    ck_assert(!parses("{\"a\": \"x"));
    ck_assert(!parses("[[[[[[[[[1]]]]]]]]]"));         /* depth 9 */
    ck_assert(parses("[[[[[[[[1]]]]]]]]"));            /* depth 8 */
    ck_assert(!parses(""));
    const char nul[] = "{\"a\": 1}\0";
    json_node *r;
    char err[200];
    ck_assert_int_ne(json_parse(nul, sizeof nul - 1, &r, err, sizeof err), 0);
    ck_assert(strstr(err, "NUL") != NULL);
}
END_TEST

START_TEST(dates)
{
    ck_assert(chal_valid_date("2026-12-02"));
    ck_assert(chal_valid_date("2024-02-29"));
    ck_assert(chal_valid_date("2000-02-29"));
    ck_assert(!chal_valid_date("1900-02-29"));
    ck_assert(!chal_valid_date("2026-02-29"));
    ck_assert(!chal_valid_date("2026-02-31"));
    ck_assert(!chal_valid_date("2026-04-31"));
    ck_assert(!chal_valid_date("2026-13-01"));
    ck_assert(!chal_valid_date("2026-00-01"));
    ck_assert(!chal_valid_date("2026-1-01"));
    ck_assert(!chal_valid_date("2026-01-01x"));
}
END_TEST

/* A manifest written here, field by field, for TTS(16,22) with two
 * messages; edit replaces the first occurrence of from by to. */
static char *manifest_text(const char *from, const char *to)
{
    static const char base[] =
        "{\"challenge\": \"libtts TTS Challenge\", \"set\": \"TTS(16,22)\", "
        "\"m\": 16, \"n\": 22, \"v\": 6, \"a\": 7, \"b\": 7, "
        "\"pk_bytes\": 4400, \"sig_bytes\": 22, \"digest_bytes\": 16, "
        "\"pk_sha256\": \"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\", "
        "\"prize_usd\": 1000, \"claimed_bits\": 56, \"issued\": \"2026-12-02\", "
        "\"commitment_label\": \"libtts challenge commitment\", "
        "\"commitment\": \"" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\", "
        "\"messages\": [{\"index\": 1, \"file\": \"msg-1.txt\", "
        "\"digest\": \"000102030405060708090a0b0c0d0e0f\"}, "
        "{\"index\": 2, \"file\": \"msg-2.txt\", "
        "\"digest\": \"f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff\"}]}";
    char *out = malloc(sizeof base + (to ? strlen(to) : 0) + 8);
    const char *at = from ? strstr(base, from) : NULL;
    ck_assert(out != NULL);
    if (!from) {
        strcpy(out, base);
        return out;
    }
    ck_assert_msg(at != NULL, "%s not in the base manifest", from);
    sprintf(out, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
    return out;
}

static int manifest_ok(const char *from, const char *to, chal_manifest *m)
{
    char *t = manifest_text(from, to), err[256];
    int rc = chal_manifest_parse(t, strlen(t), m, err, sizeof err);
    free(t);
    return rc == CHAL_OK;
}

START_TEST(manifest_fields)
{
    chal_manifest m;
    ck_assert(manifest_ok(NULL, NULL, &m));
    ck_assert_ptr_eq(m.p, tts_params_get("TTS(16,22)"));
    ck_assert_uint_eq(m.nmessages, 2);
    ck_assert_uint_eq(m.messages[1].index, 2);
    ck_assert_str_eq(m.messages[1].file, "msg-2.txt");
    ck_assert_uint_eq(m.messages[1].digest[15], 0xff);
    ck_assert_uint_eq(m.pk_sha256[1], 0x11);
    chal_manifest_free(&m);

    static const struct { const char *from, *to; } bad[] = {
        {"\"m\": 16", "\"m\": 20"},
        {"\"set\": \"TTS(16,22)\"", "\"set\": \"TTS(20,28)\""},
        {"\"set\": \"TTS(16,22)\"", "\"set\": \"16,22\""},
        {"\"m\": 16", "\"m\": \"16\""},
        {"\"prize_usd\": 1000", "\"prize_usd\": 1000000"},
        {"\"sig_bytes\": 22", "\"sig_bytes\": 23"},
        {"\"file\": \"msg-2.txt\"", "\"file\": \"../../k1.pub\""},
        {"\"file\": \"msg-2.txt\"", "\"file\": \"/etc/passwd\""},
        {"\"file\": \"msg-2.txt\"", "\"file\": \"..\""},
        {"\"file\": \"msg-2.txt\"", "\"file\": \"\""},
        {"\"index\": 2", "\"index\": 1"},
        {"\"index\": 2", "\"index\": 3"},
        {"\"digest\": \"f0", "\"digest\": \"F0"},
        {"\"digest\": \"f0", "\"digest\": \"f"},
        {"\"pk_sha256\": \"00", "\"pk_sha256\": \"0"},
        {"\"issued\": \"2026-12-02\"", "\"issued\": \"2026-02-31\""},
        {"\"commitment\": \"0", "\"commitment\": \"X"},
        {"\"challenge\": \"libtts TTS Challenge\"", "\"challenge\": \"other\""},
        {"\"v\": 6, ", ""},
        {"\"v\": 6, ", "\"v\": 6, \"v\": 6, "},
        {"\"v\": 6, ", "\"v\": 6, \"w\": 6, "},
        {"\"messages\": [{", "\"messages\": [], \"x\": [{"},
        {"]}", "]} {}"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!manifest_ok(bad[i].from, bad[i].to, &m),
                      "accepted: %s -> %s", bad[i].from, bad[i].to);
}
END_TEST

/* The two layouts of a TTS manifest: "status" and "historical_prize_usd"
 * (written today), "prize_usd" without "status" (issued before); never a
 * mix of the two. */
START_TEST(manifest_layouts)
{
    static const char *now = "\"status\": \"broken\", \"historical_prize_usd\": 1000";
    chal_manifest m;
    ck_assert(manifest_ok(NULL, NULL, &m));
    ck_assert_int_eq(m.old_prize, 1);
    chal_manifest_free(&m);
    ck_assert(manifest_ok("\"prize_usd\": 1000", now, &m));
    ck_assert_int_eq(m.old_prize, 0);
    ck_assert_int_eq(m.set, chal_set_of(tts_params_get("TTS(16,22)")));
    chal_manifest_free(&m);
    static const char *bad[] = {
        "\"historical_prize_usd\": 1000",                          /* no status */
        "\"status\": \"broken\", \"prize_usd\": 1000",             /* mixed */
        "\"status\": \"secure\", \"historical_prize_usd\": 1000",
        "\"status\": \"broken\", \"historical_prize_usd\": 2000",
        "\"status\": \"broken\", \"historical_prize_usd\": 1000, \"prize_usd\": 1000",
        "\"status\": \"broken\", \"historical_prize_usd\": 1000, \"prize\": \"none\"",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!manifest_ok("\"prize_usd\": 1000", bad[i], &m), "accepted: %s", bad[i]);
}
END_TEST

/* An SFLASH(26,37) manifest, written here: no v, a, b, no prize in
 * dollars, sizes of docs/SFLASH.md (16,858-byte key, 33-byte signature,
 * 23-byte digest). */
static int sflash_manifest_ok(const char *from, const char *to)
{
    static const char base[] =
        "{\"challenge\": \"libtts TTS Challenge\", \"set\": \"SFLASH(26,37)\", "
        "\"status\": \"broken\", "
        "\"prize\": \"none: SFLASH was never part of the TTS challenge\", "
        "\"m\": 26, \"n\": 37, \"pk_bytes\": 16858, \"sig_bytes\": 33, \"digest_bytes\": 23, "
        "\"pk_sha256\": \"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\", "
        "\"issued\": \"2026-12-02\", \"commitment_label\": \"libtts challenge commitment\", "
        "\"commitment\": \"" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\", "
        "\"messages\": [{\"index\": 1, \"file\": \"msg-1.txt\", "
        "\"digest\": \"000102030405060708090a0b0c0d0e0f10111213141514\"}]}";
    char buf[sizeof base + 200], err[256];
    const char *at = from ? strstr(base, from) : NULL;
    ck_assert(!from || at);
    if (from)
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
    else
        snprintf(buf, sizeof buf, "%s", base);
    chal_manifest m;
    int rc = chal_manifest_parse(buf, strlen(buf), &m, err, sizeof err);
    if (rc == CHAL_OK) {
        ck_assert_int_eq(m.set, chal_set_sflash());
        ck_assert_ptr_null(m.p);
        ck_assert_uint_eq(m.messages[0].digest[22], 0x14);
        chal_manifest_free(&m);
    }
    return rc == CHAL_OK;
}

START_TEST(sflash_manifest)
{
    ck_assert(sflash_manifest_ok(NULL, NULL));
    static const struct { const char *from, *to; } bad[] = {
        {"\"m\": 26", "\"m\": 27"},
        {"\"pk_bytes\": 16858", "\"pk_bytes\": 19266"},
        {"\"sig_bytes\": 33", "\"sig_bytes\": 37"},
        {"never part", "part"},
        {"\"status\": \"broken\", ", ""},
        {"\"prize\": \"none: SFLASH was never part of the TTS challenge\", ", ""},
        {"\"m\": 26", "\"prize_usd\": 0, \"m\": 26"},
        {"\"m\": 26", "\"v\": 0, \"m\": 26"},
        {"\"digest\": \"00", "\"digest\": \"0000"},
        {"SFLASH(26,37)", "sflash-26-37"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!sflash_manifest_ok(bad[i].from, bad[i].to), "accepted: %s -> %s",
                      bad[i].from, bad[i].to);
}
END_TEST

/* The set list: the eight TTS sets in the table's order, then SFLASH; its
 * names and folders; without the host's SFLASH functions (a build without
 * OpenSSL) an SFLASH instance is refused with the reason. */
START_TEST(set_list)
{
    ck_assert_int_eq(chal_set_count(), (int)tts_params_count() + 1);
    ck_assert_int_eq(chal_set_sflash(), (int)tts_params_count());
    for (size_t i = 0; i < tts_params_count(); i++) {
        ck_assert_ptr_eq(chal_set_params((int)i), tts_params_at(i));
        ck_assert_int_eq(chal_set_find(tts_params_name(tts_params_at(i))), (int)i);
    }
    int s = chal_set_sflash();
    char name[32], err[256];
    ck_assert_int_eq(chal_set_find("SFLASH(26,37)"), s);
    ck_assert_int_eq(chal_set_find("sflash-26-37"), s);
    ck_assert_int_eq(chal_set_find("SFLASH"), -1);
    chal_set_folder(name, sizeof name, s);
    ck_assert_str_eq(name, "sflash-26-37");
    ck_assert_int_eq(chal_set_of_folder_name("sflash-26-37"), s);
    ck_assert_int_eq(chal_set_of_folder_name("tts-20-28"), 2);
    ck_assert_uint_eq(chal_set_pk_bytes(s), 26 * 741 * 7 / 8 + 1);
    ck_assert_uint_eq(chal_set_sig_bytes(s), (37 * 7 + 7) / 8);
    ck_assert_uint_eq(chal_set_digest_bytes(s), (26 * 7 + 7) / 8);
    ck_assert_uint_eq(chal_set_mask_tts(), 0xffu);
    chal_set_sflash_ops(NULL);
    chal_instance inst;
    uint8_t master[CHAL_MASTER_BYTES] = {0};
    ck_assert_int_eq(chal_instance_build(&inst, s, master, 1, "2026-12-02", err, sizeof err),
                     CHAL_ERROR);
    ck_assert_msg(strstr(err, "OpenSSL") != NULL, "%s", err);
}
END_TEST

START_TEST(index_fields)
{
    unsigned mask, k;
    char date[11], err[256];
    static const char good[] = "{\"challenge\": \"libtts TTS Challenge\", "
        "\"issued\": \"2026-12-02\", \"instances\": 3, "
        "\"sets\": [\"TTS(16,22)\", \"TTS(36,50)\"]}";
    ck_assert_int_eq(chal_index_parse(good, strlen(good), &mask, &k, date,
                                      err, sizeof err), CHAL_OK);
    ck_assert_uint_eq(mask, 1u | 1u << 7);
    ck_assert_uint_eq(k, 3);
    ck_assert_str_eq(date, "2026-12-02");
    static const char with_sflash[] = "{\"challenge\": \"libtts TTS Challenge\", "
        "\"issued\": \"2026-12-02\", \"instances\": 1, "
        "\"sets\": [\"TTS(16,22)\", \"SFLASH(26,37)\"]}";
    ck_assert_int_eq(chal_index_parse(with_sflash, strlen(with_sflash), &mask, &k, date,
                                      err, sizeof err), CHAL_OK);
    ck_assert_uint_eq(mask, 1u | 1u << 8);
    size_t len;
    char *again = chal_index_render(mask, k, date, &len);
    ck_assert_ptr_nonnull(again);
    ck_assert(strstr(again, "\"sets\": [\"TTS(16,22)\", \"SFLASH(26,37)\"]") != NULL);
    free(again);
    static const char *bad[] = {
        "{\"challenge\": \"libtts TTS Challenge\", \"issued\": \"2026-12-02\", "
        "\"instances\": 3, \"sets\": [\"SFLASH(26,37)\", \"sflash-26-37\"]}",
        "{\"challenge\": \"libtts TTS Challenge\", \"issued\": \"2026-12-02\", "
        "\"instances\": 3, \"sets\": [\"SFLASH\"]}",
        "{\"challenge\": \"libtts TTS Challenge\", \"issued\": \"2026-12-02\", "
        "\"instances\": 3, \"sets\": [\"TTS(16,22)\", \"TTS(16,22)\"]}",
        "{\"challenge\": \"libtts TTS Challenge\", \"issued\": \"2026-12-02\", "
        "\"instances\": 0, \"sets\": [\"TTS(16,22)\"]}",
        "{\"challenge\": \"libtts TTS Challenge\", \"issued\": \"2026-12-02\", "
        "\"instances\": 3, \"sets\": []}",
        "{\"challenge\": \"libtts TTS Challenge\", \"issued\": \"2026-12-02\", "
        "\"instances\": 3, \"sets\": [\"TTS(17,22)\"]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_int_ne(chal_index_parse(bad[i], strlen(bad[i]), &mask, &k,
                                          date, err, sizeof err), CHAL_OK);
}
END_TEST

/* The instance files against a recomputation here: the seed and the
 * commitment by libsodium's SHA-512, the key by tts_keypair_from_seed,
 * the digests by tts_digest, and the manifest through the parser. */
START_TEST(instance_files)
{
    const tts_params *p = tts_params_get("TTS(20,26)");
    uint8_t master[CHAL_MASTER_BYTES], seed[64], *pk, *sk, h[32];
    char err[256], hex[129];
    chal_instance inst;
    for (int i = 0; i < CHAL_MASTER_BYTES; i++)
        master[i] = (uint8_t)(3 * i + 1);
    ck_assert_int_eq(chal_instance_build(&inst, chal_set_of(p), master, 3, "2026-12-02",
                                         err, sizeof err), CHAL_OK);
    ck_assert_uint_eq(inst.nfiles, 9);

    crypto_hash_sha512_state st;
    crypto_hash_sha512_init(&st);
    crypto_hash_sha512_update(&st, (const uint8_t *)"libtts challenge instance", 25);
    crypto_hash_sha512_update(&st, master, sizeof master);
    crypto_hash_sha512_update(&st, (const uint8_t *)"TTS(20,26)", 10);
    crypto_hash_sha512_final(&st, seed);
    pk = malloc(tts_pk_bytes(p));
    sk = malloc(tts_sk_bytes(p));
    ck_assert(pk && sk);
    ck_assert_int_eq(tts_keypair_from_seed(p, pk, sk, seed), TTS_OK);
    ck_assert_str_eq(inst.files[0].name, "pk.tts");
    ck_assert_uint_eq(inst.files[0].len, 8 + tts_pk_bytes(p));
    ck_assert(memcmp(inst.files[0].data + 8, pk, tts_pk_bytes(p)) == 0);

    const chal_file *man = &inst.files[inst.nfiles - 1];
    chal_manifest m;
    ck_assert_str_eq(man->name, "manifest.json");
    ck_assert_int_eq(chal_manifest_parse((const char *)man->data, man->len,
                                         &m, err, sizeof err), CHAL_OK);
    crypto_hash_sha256(h, pk, tts_pk_bytes(p));
    ck_assert(memcmp(h, m.pk_sha256, 32) == 0);
    uint8_t c[64];
    crypto_hash_sha512_init(&st);
    crypto_hash_sha512_update(&st, (const uint8_t *)"libtts challenge commitment", 27);
    crypto_hash_sha512_update(&st, seed, 32);
    crypto_hash_sha512_final(&st, c);
    sodium_bin2hex(hex, sizeof hex, c, sizeof c);
    ck_assert_str_eq(m.commitment, hex);
    for (unsigned i = 1; i <= 3; i++) {
        const chal_file *t = &inst.files[2 * i], *d = &inst.files[2 * i + 1];
        uint8_t dg[TTS_MAX_M];
        tts_digest(p, dg, t->data, t->len);
        ck_assert_uint_eq(d->len, tts_digest_bytes(p));
        ck_assert(memcmp(d->data, dg, d->len) == 0);
        ck_assert(memcmp(m.messages[i - 1].digest, dg, d->len) == 0);
        ck_assert_str_eq(m.messages[i - 1].file, t->name);
    }
    chal_manifest_free(&m);
    chal_instance_free(&inst);
    ck_assert_int_ne(chal_instance_build(&inst, chal_set_of(p), master, 3, "2026-02-30",
                                         err, sizeof err), CHAL_OK);
    /* the key pair helper: the same pk, sk and seed as derived here */
    uint8_t *pk2 = malloc(tts_pk_bytes(p)), *sk2 = NULL, seed2[TTS_SEED_BYTES];
    ck_assert_ptr_nonnull(pk2);
    ck_assert_int_eq(chal_instance_keypair(p, master, pk2, &sk2, seed2, err, sizeof err),
                     CHAL_OK);
    ck_assert(memcmp(pk2, pk, tts_pk_bytes(p)) == 0);
    ck_assert(memcmp(sk2, sk, tts_sk_bytes(p)) == 0);
    ck_assert(memcmp(seed2, seed, TTS_SEED_BYTES) == 0);
    chal_secret_free(p, sk2);
    memset(pk2, 0, tts_pk_bytes(p));
    ck_assert_int_eq(chal_instance_keypair(p, master, pk2, NULL, NULL, err, sizeof err),
                     CHAL_OK);
    ck_assert(memcmp(pk2, pk, tts_pk_bytes(p)) == 0);
    free(pk2);
    free(pk);
    free(sk);
}
END_TEST

START_TEST(dreg_closed_form)
{
    for (unsigned m = 1; m <= 60; m++)
        ck_assert_uint_eq(chal_dreg(m, m), m + 1);
}
END_TEST

START_TEST(plain_names)
{
    ck_assert(chal_plain_name("msg-1.txt"));
    ck_assert(!chal_plain_name(""));
    ck_assert(!chal_plain_name("."));
    ck_assert(!chal_plain_name(".."));
    ck_assert(!chal_plain_name("a/b"));
    ck_assert(!chal_plain_name("/etc/passwd"));
    ck_assert(!chal_plain_name("a b"));
    ck_assert(!chal_plain_name("a\x7f"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("challenge");
    TCase *tc = tcase_create("library");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, json_strict);
    tcase_add_test(tc, dates);
    tcase_add_test(tc, manifest_fields);
    tcase_add_test(tc, manifest_layouts);
    tcase_add_test(tc, sflash_manifest);
    tcase_add_test(tc, set_list);
    tcase_add_test(tc, index_fields);
    tcase_add_test(tc, instance_files);
    tcase_add_test(tc, dreg_closed_form);
    tcase_add_test(tc, plain_names);
    suite_add_tcase(s, tc);
    if (sodium_init() < 0)
        return 99;
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
