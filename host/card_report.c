/* SPDX-License-Identifier: MIT */
/* tts-card's report (the card tables of every set and image family, the
 * memory budget) and what the tool's main file shares with it: the image
 * check, the image's .sizes figures, batch helpers (tools/tts-card.c). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include <tts.h>

#include "card_report.h"
#include "cardbind.h"
#include "ttsfile.h"
/* The image: a regular file in Intel HEX with good checksums, and a card
 * of set p that answers GET INFO within seconds (a foreign or broken
 * image is refused before the real session, not after the timeout).
 * *prof (if given): whether it answers GET PROFILE (the 4 KB ROM image
 * does not: 6D00). */
int card_image_ok(const char *image, const char *cpu, double mhz, int uart,
                    const tts_params *p, char *why, size_t whylen, int *prof)
{
    size_t len;
    uint8_t *b = NULL;
    char err[512];
    if (ttsfile_read_raw(image, TTSFILE_MAX_BYTES, 0, &b, &len, err, sizeof err) !=
        TTSFILE_OK) {
        snprintf(why, whylen, "%s", err);
        return 0;
    }
    int bad = card_check_ihex(b, len, err, sizeof err) != 0;
    tts_file_free(b, len);
    if (bad) {
        snprintf(why, whylen, "%s: not a card image (Intel HEX): %s", image, err);
        return 0;
    }
    card_batch pb;
    card_init(&pb, image, cpu, mhz);
    pb.uart = uart;
    /* CPU seconds (GET INFO on the UART image: about 8) */
    long limit = getenv("TTS_CARD_TIMEOUT") ? atol(getenv("TTS_CARD_TIMEOUT")) : uart ? 120 : 10;
    pb.timeout = limit = limit > 0 ? limit : 10;
    card_add(&pb, CARD_GET_INFO, 0, 0, NULL, 0);
    card_add(&pb, CARD_GET_PROFILE, 0, 0, NULL, 0);
    int ok = card_run(&pb) == 0 && pb.nresp >= 2 && pb.resp[0].sw == CARD_SW_OK &&
             pb.resp[0].len == 7 && pb.resp[0].data[0] == tts_params_m(p) &&
             pb.resp[0].data[1] == tts_params_n(p);
    if (prof)
        *prof = ok && pb.resp[1].sw == CARD_SW_OK && pb.resp[1].len == 8;
    card_free(&pb);
    if (!ok)
        snprintf(why, whylen, "%s: the image does not answer GET INFO as a %s card "
                 "within %ld s of CPU time", image, tts_params_name(p), limit);
    return ok;
}

size_t card_add_verify(card_batch *b, const uint8_t *pin, size_t pinlen)
{
    size_t k = card_add(b, CARD_VERIFY, 0, 0, pin, (uint8_t)pinlen);
    b->cmd[k].cla = CARD_CLA_ISO;
    return k;
}

void card_add_put(card_batch *b, const uint8_t *buf, size_t off, size_t len)
{
    while (len) {
        uint8_t lc = len > 255 ? 255 : (uint8_t)len;
        card_add(b, CARD_PUT_KEY, (uint8_t)(off >> 8), (uint8_t)off, buf + off, lc);
        off += lc;
        len -= lc;
    }
}

double card_ms_of(unsigned long long cycles, int cpc, double mhz)
{
    return (double)cycles * cpc / (mhz * 1000.0);
}

uint32_t card_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

const char *card_image_path(const char *dir, const tts_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s.ihx", dir, tts_params_id(p));
    return buf;
}

/* iram from IMAGE minus .ihx plus .sizes ("iram N" line), or -1 */
long card_image_iram(const char *image, long *code, long *xdata)
{
    char path[4096];
    size_t l = strlen(image);
    if (l > 4 && strcmp(image + l - 4, ".ihx") == 0)
        l -= 4;
    snprintf(path, sizeof path, "%.*s.sizes", (int)l, image);
    FILE *f = fopen(path, "r");
    long iram = -1, v;
    char key[64];
    if (code) *code = -1;
    if (xdata) *xdata = -1;
    if (!f)
        return -1;
    while (fscanf(f, "%63s %ld", key, &v) == 2) {
        if (!strcmp(key, "iram")) iram = v;
        if (!strcmp(key, "code") && code) *code = v;
        if (!strcmp(key, "xdata") && xdata) *xdata = v;
    }
    fclose(f);
    return iram;
}

/* the value of KEY in IMAGE's .sizes file, or -1 */
long card_image_size(const char *image, const char *want)
{
    char path[4096], key[64];
    size_t l = strlen(image);
    long v, r = -1;
    if (l > 4 && strcmp(image + l - 4, ".ihx") == 0)
        l -= 4;
    snprintf(path, sizeof path, "%.*s.sizes", (int)l, image);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fscanf(f, "%63s %li", key, &v) == 2)
        if (!strcmp(key, want))
            r = v;
    fclose(f);
    return r;
}

/* ---- report: the card table for all eight sets beside table D ---- */
static int measure_set(const tts_params *p, const char *image, const char *cpu,
                       double mhz, int verbose, double *sign_ms, double *core_ms,
                       double *chacha_ms, unsigned *attempts, double *keygen_s, int rom,
                       int prof)
{
    const unsigned m = tts_params_m(p);
    const size_t skb = tts_sk_bytes(p), pkb = tts_pk_bytes(p);
    const size_t nseg = (pkb / m + 255 / m - 1) / (255 / m);
    uint8_t seed[32], *pk = malloc(pkb), *sk = malloc(skb), digest[TTS_MAX_M];
    static const uint8_t pin[4] = {'1', '2', '3', '4'};
    int cpc = card_clocks_per_cycle(cpu), rc = 0;
    for (int k = 0; k < 32; k++)
        seed[k] = (uint8_t)k;
    tts_keypair_from_seed(p, pk, sk, seed);
    /* a digest 5A.. that signs in a single attempt (the usual case) with
     * counter 0, the first signature of a fresh card */
    memset(digest, 0x5A, sizeof digest);
    for (int t = 0;; t++) {
        tts_stream r;
        uint8_t sig[TTS_MAX_N], key[32];
        digest[m - 1] = (uint8_t)(0x5A + t);
        tts_card_stream_key(p, key, sk, 0, digest);
        tts_stream_init(&r, key);
        (void)tts_sign_digest(p, sig, digest, sk, tts_stream_rng, &r);
        tts_stream_wipe(&r);
        if (r.calls == 1 || t == 255) {
            *attempts = r.calls;
            break;
        }
    }
    card_batch b;
    card_init(&b, image, cpu, mhz);
    b.verbose = verbose;
    card_add(&b, CARD_SET_PIN, 0, 0, pin, sizeof pin);
    card_add_put(&b, sk, 0, skb);
    if (card_add_commit(&b, p, sk) == (size_t)-1)
        rc = -1;
    card_add_verify(&b, pin, sizeof pin);
    size_t isign = card_add(&b, CARD_SIGN, 0, 0, digest, (uint8_t)m);
    card_add(&b, prof ? CARD_GET_PROFILE : CARD_GET_CYCLES, 0, 0, NULL, 0);
    /* (the ROM family has no key generation and no export) */
    size_t igen = b.ncmd;
    if (!rom) {
        card_add(&b, CARD_SET_PIN, 0, 0, pin, sizeof pin);
        igen = card_add(&b, CARD_GENERATE_KEY, 0, 0, seed, 32);
        card_add(&b, CARD_GET_CYCLES, 0, 0, NULL, 0);
        for (size_t g = 0; g < nseg; g++) {
            card_add(&b, CARD_GET_PK_SEGMENT, (uint8_t)(g >> 8), (uint8_t)g, NULL, 0);
            card_add(&b, CARD_GET_CYCLES, 0, 0, NULL, 0);
        }
    }
    if (card_run(&b) != 0) {
        rc = -1;
    } else {
        for (size_t k = 0; k < b.nresp; k++)
            if (b.resp[k].sw != CARD_SW_OK)
                rc = -1;
        uint32_t cy = card_be32(b.resp[isign + 1].data), ch = prof ? card_be32(b.resp[isign + 1].data + 4) : 0;
        unsigned long long kg = 0;
        for (size_t k = igen + 1; k < b.ncmd; k += 2)
            kg += card_be32(b.resp[k].data);
        if (cpc == 12) {
            *sign_ms = card_ms_of(cy, 12, mhz);
            *core_ms = card_ms_of(cy - ch, 12, mhz);
            *chacha_ms = card_ms_of(ch, 12, mhz);
            *keygen_s = card_ms_of(kg, 12, mhz) / 1000.0;
        } else {
            unsigned long long t0 = card_ticks_prefix(&b, isign);
            unsigned long long t1 = card_ticks_prefix(&b, isign + 1);
            unsigned long long t2 = card_ticks_prefix(&b, igen);
            double f = 1.0 / (mhz * 1000.0);
            *sign_ms = (double)(t1 - t0) * f;
            /* the 12T ChaCha share scaled by the tick ratio */
            *chacha_ms = cy ? *sign_ms * ((double)ch / cy) : 0;
            *core_ms = *sign_ms - *chacha_ms;
            *keygen_s = rom ? 0 : (double)(b.ticks - t2) * f / 1000.0;
        }
        if (!prof) { /* no GET PROFILE: SIGN's total alone */
            *chacha_ms = -1;
            *core_ms = -1;
        }
    }
    card_free(&b);
    free(pk);
    free(sk);
    return rc;
}

/* measure_set after the image check of every other subcommand: a garbage
 * or missing image fails in seconds, not after the measurement's budget. */
static int measure_checked(const tts_params *p, const char *img, const char *cpu, double mhz,
                           int verbose, double *sm, double *cm, double *hm, unsigned *att,
                           double *ks, int rom)
{
    char why[1024];
    int prof = 0;
    if (!card_image_ok(img, cpu, mhz, 0, p, why, sizeof why, &prof)) {
        card_warn("report: %s\n", why);
        return -1;
    }
    return measure_set(p, img, cpu, mhz, verbose, sm, cm, hm, att, ks, rom, prof);
}

/* One image of a -t 8051 table (the 128-byte and ROM families): its sizes
 * and measure_checked; a failure prints the set's "(failed)" row and sets
 * *rc. Returns 0 when the row is to be printed. */
static int measure_8051_row(const tts_params *p, const char *img, double mhz, int verbose,
                            int rom, double *sm, double *cm, double *hm, double *ks, long *code,
                            long *xd, long *iram, int *rc)
{
    unsigned att;
    *iram = card_image_iram(img, code, xd);
    if (measure_checked(p, img, "8051", mhz, verbose, sm, cm, hm, &att, ks, rom)) {
        printf("| %s | (failed) |\n", tts_params_name(p));
        *rc = 1;
        return -1;
    }
    return 0;
}

/* The image families that make builds and installs, in the order of the
 * report's tables: the file suffix, and whether the family is the ROM one
 * (personalised by PUT KEY, signing alone, n <= 32). (The measurement
 * builds of make check, such as the 4 KB image without COMMIT KEY's
 * check, are not reported: docs/CARD.md gives their figures.) */
static const struct card_family {
    const char *suffix;
    int rom;
} card_families[] = {
    {"", 0}, {"-128", 0}, {"-rom", 1}, {"-rom4k", 1},
};
#define N_FAMILIES (sizeof card_families / sizeof card_families[0])
#define FAM_ROM 2 /* the first ROM family */

static int family_has(const struct card_family *f, const tts_params *p)
{
    return !(f->rom && tts_params_n(p) > 32);
}

/* The tables for every set and image family (the ROM family: its sign
 * figures alone, it has no key generation); only (--params) and
 * cpu (--cpu) narrow them when given. */
int card_report_all(const char *dir, double mhz, int verbose, const tts_params *only,
                      const char *cpu)
{
    static const char *const cpus[2] = {"8032", "DS320"};
    int main_table = !cpu || strcmp(cpu, "8051"), small_table = !cpu || !strcmp(cpu, "8051");
    printf("%s\n\n", TTS_BROKEN_NOTE);
    printf("libtts card table (measured in ucsim s51 at %g MHz; 12T = -t 8032 GET CYCLES,\n"
           "4T = -t DS320 simulated-tick differences). Signing: one attempt, counter 0, digest\n"
           "5A..5A xx, the stream key derived on card included; \"core\" = SIGN minus the two\n"
           "ChaCha20 blocks it computed (the stream key's and the vinegar's).\n\n", mhz);
    int rc = 0;
    if (main_table) {
        printf("| set | sign 12T ms (core + ChaCha20) | sign 4T ms (core + ChaCha20) | keygen+pk 12T s | keygen+pk 4T s | code B | iram B | xdata B |\n");
        printf("|---|---|---|---|---|---|---|---|\n");
    }
    for (size_t s = 0; main_table && s < tts_params_count(); s++) {
        const tts_params *p = tts_params_at(s);
        if (only && p != only)
            continue;
        char ib[4096];
        const char *img = card_image_path(dir, p, ib, sizeof ib);
        double sm[2] = {0}, cm[2] = {0}, hm[2] = {0}, ks[2] = {0};
        unsigned att;
        long code, xd, iram = card_image_iram(img, &code, &xd);
        int bad = 0;
        for (int c = 0; c < 2 && !bad; c++)
            if (!cpu || !strcmp(cpu, cpus[c]))
                bad = measure_checked(p, img, cpus[c], mhz, verbose, &sm[c], &cm[c], &hm[c],
                                      &att, &ks[c], 0) != 0;
        if (bad) {
            printf("| %s | (failed) |\n", tts_params_name(p));
            rc = 1;
            continue;
        }
        printf("| %s | %.1f (%.1f + %.1f) | %.1f (%.1f + %.1f) | %.1f | %.1f | %ld | %ld | %ld |\n",
               tts_params_name(p), sm[0], cm[0], hm[0], sm[1], cm[1], hm[1], ks[0], ks[1],
               code, iram, xd);
        fflush(stdout);
    }
    if (small_table) {
        printf("\n128-byte family (tts-M-N-128.ihx, -t 8051, GET CYCLES):\n\n");
        printf("| set | sign 12T ms (core + ChaCha20) | keygen+pk 12T s | code B | iram B | xdata B |\n");
        printf("|---|---|---|---|---|---|\n");
    }
    for (size_t s = 0; small_table && s < tts_params_count(); s++) {
        const tts_params *p = tts_params_at(s);
        if (only && p != only)
            continue;
        char ib[4096];
        snprintf(ib, sizeof ib, "%s/%s-128.ihx", dir, tts_params_id(p));
        double sm, cm, hm, ks;
        long code, xd, iram;
        if (measure_8051_row(p, ib, mhz, verbose, 0, &sm, &cm, &hm, &ks, &code, &xd, &iram, &rc))
            continue;
        printf("| %s | %.1f (%.1f + %.1f) | %.1f | %ld | %ld | %ld |\n", tts_params_name(p),
               sm, cm, hm, ks, code, iram, xd);
        fflush(stdout);
    }
    /* the ROM family and its 4 KB images */
    for (size_t fi = FAM_ROM; fi < N_FAMILIES && small_table; fi++) {
        const struct card_family *f = &card_families[fi];
        const size_t fam = fi - FAM_ROM;
        if (fam == 0)
            printf("\nROM family (tts-M-N-rom.ihx, n <= 32: personalised by PUT KEY, signing;\n"
                   "-t 8051, GET CYCLES; the 8051AH's ROM holds 4096 B):\n\n");
        else
            printf("\n4 KB ROM family (tts-M-N-rom4k.ihx: the ROM family in 4096 B of code, no GET\n"
                   "PROFILE; TTS(20,28)'s within 224 ms, the others' ChaCha20 rounds rolled and\n"
                   "their layers by Gauss-Jordan; -t 8051, GET CYCLES):\n\n");
        printf("| set | sign 12T ms%s | sign cycles | code B | last code byte | iram B | key B | xdata B |\n",
               fam ? "" : " (core + ChaCha20)");
        printf("|---|---|---|---|---|---|---|---|\n");
        for (size_t s = 0; s < tts_params_count(); s++) {
            const tts_params *p = tts_params_at(s);
            if ((only && p != only) || !family_has(f, p))
                continue;
            char ib[4096], split[64] = "";
            snprintf(ib, sizeof ib, "%s/%s%s.ihx", dir, tts_params_id(p), f->suffix);
            double sm, cm, hm, ks;
            long code, xd, iram;
            if (measure_8051_row(p, ib, mhz, verbose, 1, &sm, &cm, &hm, &ks, &code, &xd, &iram,
                                 &rc))
                continue;
            if (hm >= 0)
                snprintf(split, sizeof split, " (%.1f + %.1f)", cm, hm);
            printf("| %s | %.1f%s | %.0f | %ld | 0x%04lX | %ld | %ld | %ld |\n", tts_params_name(p),
                   sm, split, sm * mhz * 1000.0 / 12.0, code, card_image_size(ib, "code_end"), iram,
                   card_image_size(ib, "xdata_key"), xd);
            fflush(stdout);
        }
    }
    printf("\nMemory budget (bytes, from the build's .sizes): non-volatile = the active key\n"
           "(internal form) + the PUT KEY staging copy and bitmap (also the journal's) + the\n"
           "state (flags, PIN tries, signature counter, PIN and stream secret with their staged\n"
           "copies); XRAM work per command beyond them (the 2 x 255 B command/response buffers\n"
           "apart).\n\n");
    printf("| image | iram | NV key | NV staging | NV state | SIGN | GENERATE KEY | COMMIT KEY | GET PK SEGMENT | code | signing path |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t s = 0; s < N_FAMILIES * tts_params_count(); s++) {
        const tts_params *p = tts_params_at(s % tts_params_count());
        const struct card_family *f = &card_families[s / tts_params_count()];
        if ((only && p != only) || !family_has(f, p))
            continue;
        char ib[4096];
        snprintf(ib, sizeof ib, "%s/%s%s.ihx", dir, tts_params_id(p), f->suffix);
        printf("| %s | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld |\n", strrchr(ib, '/') + 1,
               card_image_size(ib, "iram"), card_image_size(ib, "xdata_key"), card_image_size(ib, "xdata_stage"),
               card_image_size(ib, "xdata_nv_state"), card_image_size(ib, "work_sign"), card_image_size(ib, "work_genkey"),
               card_image_size(ib, "work_commit"), card_image_size(ib, "work_pk"),
               card_image_size(ib, "code"), card_image_size(ib, "sign_code"));
    }
    printf("\nTable D (2004, hand assembly): TTS(20,28) i8032AH 12T 3.57 MHz: sign 198 ms, code 1.5 KB,\n"
           "RAM 128 B, keygen 62 s; W77E58 4T: sign 99 ms, keygen 29 s. TTS(24,32): i8051AH 284 ms,\n"
           "W77E58 112 ms; keygen 170 s (12T), 79 s (4T).\n");
    return rc;
}

void card_report_line(FILE *rep, card_batch *b, const char *name, int sign, size_t first,
                      size_t count, size_t prof, int prof_ok, const char *cpu, double mhz)
{
    int cpc = card_clocks_per_cycle(cpu);
    if (cpc != 12) {
        unsigned long long t1 = card_ticks_prefix(b, first + count);
        /* (sign: SIGN alone, not the VERIFY and GET COUNTER before it) */
        unsigned long long t0 = card_ticks_prefix(b, first + count - (sign ? 1 : count));
        unsigned long long d = t1 > t0 ? t1 - t0 : 0;
        fprintf(rep, "report: %-9s %10llu cycles %10.2f ms  [%s, %g MHz, from %llu simulated "
                "ticks]\n", name, d / cpc, d / (mhz * 1000.0), cpu, mhz, d);
        return;
    }
    /* the GET CYCLES after each segment or PUT, and the final GET PROFILE
     * (its second word: the ChaCha20 blocks' cycles) */
    unsigned long long cy = 0, ch;
    for (size_t k = first; k < first + count; k++)
        if (b->cmd[k].ins == CARD_GET_CYCLES && b->cmd[k].raw_len < 0)
            cy += card_be32(b->resp[k].data);
    cy += card_be32(b->resp[prof].data);
    ch = prof_ok ? card_be32(b->resp[prof].data + 4) : 0;
    fprintf(rep, "report: %-9s %10llu cycles %10.2f ms", name, cy, card_ms_of(cy, 12, mhz));
    if (sign && prof_ok)
        fprintf(rep, "  (ChaCha20 %llu cycles %.2f ms, core %llu cycles %.2f ms)", ch,
                card_ms_of(ch, 12, mhz), cy - ch, card_ms_of(cy - ch, 12, mhz));
    else if (sign)
        fprintf(rep, "  (ChaCha20 not counted apart: the image has no GET PROFILE)");
    fprintf(rep, "  [%s, %g MHz]\n", cpu, mhz);
}

int card_find_image(const char *dir, const tts_params *p, const char *cpu, const char *image,
                    char *buf, size_t len, const char **out)
{
    struct stat st;
    if (!image) {
        image = card_image_path(dir, p, buf, len);
        if (!strcmp(cpu, "8051")) /* the 128-byte family */
            snprintf(buf, len, "%s/%s-128.ihx", dir, tts_params_id(p));
    }
    *out = image;
    if (stat(image, &st) != 0) {
        /* run from the build tree, the images are in 8051/, not installed */
        if (image == buf && !getenv("TTS_CARD_DIR") && strcmp(dir, "8051") != 0 &&
            stat("8051/tts-20-28.ihx", &st) == 0)
            card_warn("no card image %s; in the build tree, pass --image-dir "
                      "8051\n", image);
        else
            card_warn("no card image: %s\n", image);
        return 2;
    }
    /* the documented refusal first: a larger image would only time out */
    if (!strcmp(cpu, "8051")) {
        long iram = card_image_iram(image, NULL, NULL);
        if (iram < 0 || iram > 128) {
            card_warn("--cpu 8051 needs an image whose internal RAM fits 128 "
                      "bytes: %s\n", image);
            return 2;
        }
    }
    return 0;
}

int card_check_image(const char *image, const char *cpu, double mhz, int uart,
                     const tts_params *p, int *prof)
{
    char why[1024];
    if (card_image_ok(image, cpu, mhz, uart, p, why, sizeof why, prof))
        return 0;
    card_warn("%s\n", why);
    return 2;
}

