/* SPDX-License-Identifier: MIT */
/* The AVR firmware's host driver over libsimavr (avrsim.h). */
#define _POSIX_C_SOURCE 200809L

#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sodium.h>
#include <tts.h>

#include "avrsim.h"
#include "fileio.h"
#include "avr_protocol.h"
#include "avr_pk.h"

#ifndef HAVE_SIMAVR

int avrsim_available(void) { return 0; }

int avrsim_open(avrsim **out, const char *elf, const uint8_t *ee, avrsim_info *info,
                char *err, size_t errlen)
{
    (void)ee; (void)info;
    *out = NULL;
    fileio_say(err, errlen, "%s: this build has no AVR simulator (libsimavr)", elf);
    return AVRSIM_NOSIM;
}

void avrsim_close(avrsim *s) { (void)s; }

int avrsim_get_info(const avrsim *s, avrsim_info *info) { (void)s; (void)info; return AVRSIM_NOSIM; }

int avrsim_cmd(avrsim *s, const uint8_t *cmd, size_t len, uint8_t *ans, size_t cap,
               size_t *alen, avrsim_stats *st, char *err, size_t errlen)
{
    (void)s; (void)cmd; (void)len; (void)ans; (void)cap; (void)alen; (void)st;
    fileio_say(err, errlen, "this build has no AVR simulator (libsimavr)");
    return AVRSIM_NOSIM;
}

int avrsim_flash(avrsim *s, uint16_t addr, const uint8_t *b, size_t n, char *err,
                 size_t errlen)
{
    (void)s; (void)addr; (void)b; (void)n;
    fileio_say(err, errlen, "this build has no AVR simulator (libsimavr)");
    return AVRSIM_NOSIM;
}

int avrsim_eeprom(avrsim *s, uint8_t *ee) { (void)s; (void)ee; return AVRSIM_NOSIM; }

int avrsim_fault(avrsim *s, uint64_t after, int flash, uint16_t addr, uint8_t mask, char *err,
                 size_t errlen)
{
    (void)s; (void)after; (void)flash; (void)addr; (void)mask;
    fileio_say(err, errlen, "this build has no AVR simulator (libsimavr)");
    return AVRSIM_NOSIM;
}

int avrsim_sizes(const char *elf, unsigned *flash, unsigned *sram, char *err, size_t errlen)
{
    (void)flash; (void)sram;
    fileio_say(err, errlen, "%s: this build has no AVR simulator (libsimavr)", elf);
    return AVRSIM_NOSIM;
}

#else

#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <simavr/sim_io.h>
#include <simavr/sim_cycle_timers.h>
#include <simavr/avr_eeprom.h>

struct avrsim {
    avr_t *avr;
    elf_firmware_t fw;
    const uint8_t *in;  /* the command being fed */
    size_t in_len, in_pos;
    uint8_t *out;       /* its answer */
    size_t out_cap, out_len, out_over;
    int idle;           /* the firmware polled with no input left */
    uint64_t t_in, t_out;
    avrsim_info info;
    int fault_flash;    /* avrsim_fault's */
    uint16_t fault_addr;
    uint8_t fault_mask;
};

int avrsim_available(void) { return 1; }

/* simavr 1.6 keeps some of its own allocations past avr_terminate (its
 * IRQ tables): not this driver's. LeakSanitizer (the sanitizer build)
 * takes its suppressions from this hook of the program. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libsimavr\n";
}

/* the ELF's symbol table, which elf_read_firmware allocates */
static void free_firmware(elf_firmware_t *fw)
{
#if ELF_SYMBOLS
    for (uint32_t i = 0; fw->symbol && i < fw->symbolcount; i++)
        free(fw->symbol[i]);
    free(fw->symbol);
    fw->symbol = NULL;
#endif
    free(fw->flash);
    free(fw->eeprom);
    fw->flash = fw->eeprom = NULL;
}

/* simavr's messages: only errors, on standard error */
static void quiet_logger(avr_t *avr, const int level, const char *fmt, va_list ap)
{
    (void)avr;
    if (level == LOG_ERROR) {
        fputs("simavr: ", stderr);
        vfprintf(stderr, fmt, ap);
    }
}

static uint8_t io_avail(avr_t *avr, avr_io_addr_t addr, void *param)
{
    avrsim *s = param;
    (void)avr; (void)addr;
    if (s->in_pos < s->in_len)
        return 1;
    s->idle = 1;
    return 0;
}

static uint8_t io_in(avr_t *avr, avr_io_addr_t addr, void *param)
{
    avrsim *s = param;
    (void)addr;
    s->t_in = avr->cycle;
    return s->in_pos < s->in_len ? s->in[s->in_pos++] : 0;
}

static void io_out(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
    avrsim *s = param;
    (void)addr;
    if (s->out_len + s->out_over == 0)
        s->t_out = avr->cycle;
    if (s->out_len < s->out_cap)
        s->out[s->out_len++] = v;
    else
        s->out_over++;
}

/* Run until the firmware waits for input with none left, at most limit
 * cycles. */
static int run(avrsim *s, uint64_t limit, char *err, size_t errlen)
{
    uint64_t end = s->avr->cycle + limit;
    s->idle = 0;
    while (!s->idle) {
        int st = avr_run(s->avr);
        if (st == cpu_Done || st == cpu_Crashed) {
            fileio_say(err, errlen, "the AVR stopped (%s) at pc 0x%04X",
                       st == cpu_Done ? "done" : "crashed", (unsigned)s->avr->pc);
            return AVRSIM_ERROR;
        }
        if (s->avr->cycle >= end) {
            fileio_say(err, errlen, "no answer within %llu cycles", (unsigned long long)limit);
            return AVRSIM_ETIME;
        }
    }
    return AVRSIM_OK;
}

/* A regular file whose ELF header names the AVR (e_machine 83), before
 * simavr sees it (it takes other files as an empty flash); *mcu the part
 * its architecture (e_flags) stands for: avr6, the ATmega2560 of the sets
 * whose keys pass 32 KB (avr/build-image.sh), else the ATmega328P. */
static int elf_is_avr(const char *elf, const char **mcu, char *err, size_t errlen)
{
    unsigned char h[40];
    struct stat st;
    FILE *f = fopen(elf, "rb");
    int ok = f && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
             fread(h, 1, sizeof h, f) == sizeof h && !memcmp(h, "\177ELF", 4) &&
             h[4] == 1 && h[5] == 1 && (h[18] | h[19] << 8) == 83;
    if (f)
        fclose(f);
    if (!ok)
        fileio_say(err, errlen, "%s: not an AVR ELF image", elf);
    *mcu = ok && (h[36] & 0x7F) == 6 ? "atmega2560" : "atmega328p";
    return ok;
}

static uint16_t sp(const avrsim *s)
{
    return (uint16_t)(s->avr->data[R_SPL] | s->avr->data[R_SPH] << 8);
}

int avrsim_open(avrsim **out, const char *elf, const uint8_t *ee, avrsim_info *info,
                char *err, size_t errlen)
{
    avrsim *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s) {
        fileio_say(err, errlen, "out of memory");
        return AVRSIM_ERROR;
    }
    avr_global_logger_set(quiet_logger);
    const char *mcu;
    if (!elf_is_avr(elf, &mcu, err, errlen)) {
        free(s);
        return AVRSIM_ERROR;
    }
    if (elf_read_firmware(elf, &s->fw) != 0) {
        fileio_say(err, errlen, "%s: not an AVR ELF image", elf);
        free(s);
        return AVRSIM_ERROR;
    }
    s->avr = avr_make_mcu_by_name(mcu);
    if (!s->avr || avr_init(s->avr) != 0) {
        fileio_say(err, errlen, "simavr has no %s", mcu);
        avrsim_close(s);
        return AVRSIM_ERROR;
    }
    s->fw.frequency = 16000000;
    avr_load_firmware(s->avr, &s->fw);
    if (ee) {
        avr_eeprom_desc_t d = {.ee = (uint8_t *)ee, .offset = 0, .size = AVRSIM_EEPROM};
        avr_ioctl(s->avr, AVR_IOCTL_EEPROM_SET, &d);
    }
    avr_register_io_read(s->avr, AVR_IO_AVAIL, io_avail, s);
    avr_register_io_read(s->avr, AVR_IO_IN, io_in, s);
    avr_register_io_write(s->avr, AVR_IO_OUT, io_out, s);
    uint8_t a[1 + AVR_INFO_BYTES];
    size_t alen;
    int rc = run(s, AVRSIM_CMD_CYCLES, err, errlen);
    if (rc == AVRSIM_OK)
        rc = avrsim_cmd(s, (const uint8_t[]){AVR_CMD_INFO}, 1, a, sizeof a, &alen, NULL, err,
                        errlen);
    if (rc == AVRSIM_OK && (alen != sizeof a || a[0] != AVR_OK)) {
        fileio_say(err, errlen, "%s: not a libtts AVR image (INFO answered %zu bytes)", elf,
                   alen);
        rc = AVRSIM_ERROR;
    }
    if (rc != AVRSIM_OK) {
        avrsim_close(s);
        return rc;
    }
    s->info.m = a[1];
    s->info.n = a[2];
    s->info.sk_addr = (uint16_t)(a[3] | a[4] << 8);
    s->info.pk_addr = (uint16_t)(a[5] | a[6] << 8);
    s->info.heap = (uint16_t)(a[7] | a[8] << 8);
    s->info.flags = a[9];
    if (info)
        *info = s->info;
    *out = s;
    return AVRSIM_OK;
}

int avrsim_get_info(const avrsim *s, avrsim_info *info)
{
    *info = s->info;
    return AVRSIM_OK;
}

void avrsim_close(avrsim *s)
{
    if (!s)
        return;
    if (s->avr) {
        avr_terminate(s->avr);
        free(s->avr);
    }
    free_firmware(&s->fw);
    free(s);
}

int avrsim_cmd(avrsim *s, const uint8_t *cmd, size_t len, uint8_t *ans, size_t cap,
               size_t *alen, avrsim_stats *st, char *err, size_t errlen)
{
    uint16_t top = sp(s), lo = s->info.heap ? s->info.heap : top;
    for (uint16_t a = lo; a < top; a++)
        s->avr->data[a] = AVRSIM_PAINT;
    s->in = cmd;
    s->in_len = len;
    s->in_pos = 0;
    s->out = ans;
    s->out_cap = cap;
    s->out_len = s->out_over = 0;
    s->t_in = s->t_out = s->avr->cycle;
    uint64_t t0 = s->avr->cycle;
    int rc = run(s, AVRSIM_CMD_CYCLES, err, errlen);
    *alen = s->out_len;
    if (rc != AVRSIM_OK)
        return rc;
    if (s->in_pos != len) {
        fileio_say(err, errlen, "the AVR took %zu of the command's %zu bytes", s->in_pos, len);
        return AVRSIM_ERROR;
    }
    if (s->out_over) {
        fileio_say(err, errlen, "the AVR answered more than %zu bytes", cap);
        return AVRSIM_ERROR;
    }
    if (st) {
        uint16_t a = lo;
        while (a < top && s->avr->data[a] == AVRSIM_PAINT)
            a++;
        st->cycles = s->t_out - s->t_in;
        st->stack_peak = (unsigned)(s->avr->ramend + 1 - a);
        st->total = s->avr->cycle - t0;
    }
    return AVRSIM_OK;
}

int avrsim_flash(avrsim *s, uint16_t addr, const uint8_t *b, size_t n, char *err,
                 size_t errlen)
{
    if ((size_t)addr + n > (size_t)s->avr->flashend + 1) {
        fileio_say(err, errlen, "flash write past the end (0x%04X + %zu)", addr, n);
        return AVRSIM_ERROR;
    }
    memcpy(s->avr->flash + addr, b, n);
    return AVRSIM_OK;
}

int avrsim_eeprom(avrsim *s, uint8_t *ee)
{
    /* (simavr 1.6 answers -1 to EEPROM_GET and EEPROM_SET even when it
     * has copied: its answer says nothing) */
    avr_eeprom_desc_t d = {.ee = ee, .offset = 0, .size = AVRSIM_EEPROM};
    avr_ioctl(s->avr, AVR_IOCTL_EEPROM_GET, &d);
    return AVRSIM_OK;
}

static avr_cycle_count_t fault_fire(avr_t *avr, avr_cycle_count_t when, void *param)
{
    avrsim *s = param;
    (void)when;
    (s->fault_flash ? avr->flash : avr->data)[s->fault_addr] ^= s->fault_mask;
    return 0;
}

int avrsim_fault(avrsim *s, uint64_t after, int flash, uint16_t addr, uint8_t mask, char *err,
                 size_t errlen)
{
    if (addr > (flash ? s->avr->flashend : s->avr->ramend)) {
        fileio_say(err, errlen, "fault address 0x%04X past the end", addr);
        return AVRSIM_ERROR;
    }
    s->fault_flash = flash;
    s->fault_addr = addr;
    s->fault_mask = mask;
    avr_cycle_timer_register(s->avr, after, fault_fire, s);
    return AVRSIM_OK;
}

int avrsim_sizes(const char *elf, unsigned *flash, unsigned *sram, char *err, size_t errlen)
{
    elf_firmware_t fw;
    const char *mcu;
    memset(&fw, 0, sizeof fw);
    avr_global_logger_set(quiet_logger);
    if (!elf_is_avr(elf, &mcu, err, errlen))
        return AVRSIM_ERROR;
    if (elf_read_firmware(elf, &fw) != 0) {
        fileio_say(err, errlen, "%s: not an AVR ELF image", elf);
        return AVRSIM_ERROR;
    }
    *flash = fw.flashsize;
    *sram = fw.datasize + fw.bsssize;
    free_firmware(&fw);
    return AVRSIM_OK;
}

#endif

uint8_t avrsim_pk_form(uint8_t c)
{
    /* the powers of 3 until c: x * 3 = x * 2 + x, reduced by 0x11B */
    unsigned x = 1;
    for (unsigned i = 0; i < 255; i++) {
        if (x == c)
            return (uint8_t)i;
        x ^= ((x << 1) ^ (x & 0x80 ? 0x11B : 0)) & 0xFF;
    }
    return 0xFF; /* c = 0 */
}

int avrsim_program(avrsim *s, const uint8_t *sk, size_t skb, const uint8_t *pk, size_t pkb,
                   char *err, size_t errlen)
{
    uint8_t a[4], form[256], *pl = malloc(pkb + AVR_PK_ZROOM(pkb));
    size_t alen;
    avrsim_info in;
    int rc = avrsim_get_info(s, &in);
    if (!pl) {
        fileio_say(err, errlen, "out of memory");
        return AVRSIM_ERROR;
    }
    for (unsigned c = 0; c < 256; c++)
        form[c] = avrsim_pk_form((uint8_t)c);
    for (size_t i = 0; i < pkb; i++)
        pl[i] = form[pk[i]];
    /* the zero list after the key (avr/avr_pk.h) */
    if (rc == AVRSIM_OK && avr_pk_zeros(pk, in.m, in.n, pl + pkb) < 0) {
        fileio_say(err, errlen, "the public key has more than %d zero coefficients: no room "
                   "in the image's flash", AVR_PK_ZMAX(pkb));
        rc = AVRSIM_ERROR;
    }
    if (rc == AVRSIM_OK)
        rc = avrsim_flash(s, in.sk_addr, sk, skb, err, errlen);
    if (rc == AVRSIM_OK)
        rc = avrsim_flash(s, in.pk_addr, pl, pkb + AVR_PK_ZROOM(pkb), err, errlen);
    free(pl);
    if (rc == AVRSIM_OK)
        rc = avrsim_cmd(s, (const uint8_t[]){AVR_CMD_INSTALL}, 1, a, sizeof a, &alen, NULL,
                        err, errlen);
    if (rc == AVRSIM_OK && (alen != 1 || a[0] != AVR_OK)) {
        fileio_say(err, errlen, "INSTALL answered %02X", alen ? a[0] : 0xFFu);
        rc = AVRSIM_ERROR;
    }
    return rc;
}

int avrsim_measure(const char *elf, const uint8_t seed[32], const uint8_t *digest,
                   avrsim_measure_t *r, char *err, size_t errlen)
{
    avrsim *s = NULL;
    avrsim_info in;
    uint8_t *pk = NULL, *sk = NULL, cmd[1 + 2 * TTS_MAX_N + TTS_MAX_M], a[1 + TTS_MAX_N],
            sig[TTS_MAX_N], key[32];
    size_t alen;
    tts_stream st;
    memset(&st, 0, sizeof st);
    memset(r, 0, sizeof *r);
    int rc = avrsim_sizes(elf, &r->flash, &r->sram_static, err, errlen);
    if (rc == AVRSIM_OK)
        rc = avrsim_open(&s, elf, NULL, &in, err, errlen);
    if (rc != AVRSIM_OK)
        return rc;
    char name[32];
    snprintf(name, sizeof name, "TTS(%u,%u)", in.m, in.n);
    const tts_params *p = tts_params_get(name);
    size_t skb = tts_sk_bytes(p), pkb = tts_pk_bytes(p), m = in.m, n = in.n;
    r->m = in.m;
    r->n = in.n;
    rc = AVRSIM_ERROR;
    if (!p || !(pk = malloc(pkb)) || !(sk = malloc(skb))) {
        fileio_say(err, errlen, "%s: no memory for the %s keys", elf, name);
        goto done;
    }
    if (tts_keypair_from_seed(p, pk, sk, seed) != TTS_OK) {
        fileio_say(err, errlen, "key generation failed");
        goto done;
    }
    if ((rc = avrsim_program(s, sk, skb, pk, pkb, err, errlen)) != AVRSIM_OK)
        goto done;
    /* INSTALL again, measured */
    rc = avrsim_cmd(s, (const uint8_t[]){AVR_CMD_INSTALL}, 1, a, sizeof a, &alen, &r->install,
                    err, errlen);
    cmd[0] = AVR_CMD_SIGN;
    memcpy(cmd + 1, digest, m);
    if (rc == AVRSIM_OK)
        rc = avrsim_cmd(s, cmd, 1 + m, a, sizeof a, &alen, &r->sign, err, errlen);
    if (rc == AVRSIM_OK && (alen != 1 + n || a[0] != AVR_OK)) {
        fileio_say(err, errlen, "SIGN answered %02X", alen ? a[0] : 0xFFu);
        rc = AVRSIM_ERROR;
    }
    if (rc != AVRSIM_OK)
        goto done;
    /* the host's signature under the same stream (counter 0) */
    rc = AVRSIM_ERROR;
    if (tts_card_stream_key(p, key, sk, 0, digest) != TTS_OK)
        goto done;
    tts_stream_init(&st, key);
    if (tts_sign_digest(p, sig, digest, sk, tts_stream_rng, &st) != TTS_OK ||
        memcmp(sig, a + 1, n) != 0) {
        fileio_say(err, errlen, "%s: the AVR's signature differs from the host's", elf);
        goto done;
    }
    r->attempts = st.calls;
    cmd[0] = AVR_CMD_VERIFY;
    memcpy(cmd + 1, sig, n);
    memcpy(cmd + 1 + n, digest, m);
    rc = avrsim_cmd(s, cmd, 1 + n + m, a, sizeof a, &alen, &r->verify, err, errlen);
    if (rc == AVRSIM_OK && (alen != 1 || a[0] != AVR_OK)) {
        fileio_say(err, errlen, "%s: VERIFY refused the signature", elf);
        rc = AVRSIM_ERROR;
    }
done:
    tts_stream_wipe(&st);
    sodium_memzero(key, sizeof key);
    sodium_memzero(sig, sizeof sig);
    if (sk) {
        sodium_memzero(sk, skb);
        free(sk);
    }
    free(pk);
    avrsim_close(s);
    return rc;
}
