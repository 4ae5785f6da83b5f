/* SPDX-License-Identifier: MIT */
/* The AVR firmware's host driver over libsimavr (avrsim.h). */
#define _POSIX_C_SOURCE 200809L

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

int avrsim_set_eeprom(avrsim *s, const uint8_t *ee) { (void)s; (void)ee; return AVRSIM_NOSIM; }

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
    size_t data_len; /* bytes of avr->data (widened: AVRSIM_DATA_SPACE) */
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

static void free_firmware(elf_firmware_t *fw)
{
    free(fw->flash);
    fw->flash = NULL;
}

/* simavr's messages: only errors, on standard error, and few of them (an
 * image gone wrong can make one an instruction) */
static unsigned logged;
static void quiet_logger(avr_t *avr, const int level, const char *fmt, va_list ap)
{
    (void)avr;
    if (level != LOG_ERROR || logged > AVRSIM_LOG_MAX)
        return;
    if (logged++ == AVRSIM_LOG_MAX) {
        fputs("simavr: (its further messages left out)\n", stderr);
        return;
    }
    fputs("simavr: ", stderr);
    vfprintf(stderr, fmt, ap);
}

/* a sleeping core waits for nothing here (simavr's default sleeps in
 * real time) */
static void no_sleep(avr_t *avr, avr_cycle_count_t how_long)
{
    (void)avr; (void)how_long;
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

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Run until the firmware waits for input with none left: at most limit
 * cycles, limit instructions (each takes a cycle or more) and
 * AVRSIM_WALL_SECONDS of wall time. */
static int run(avrsim *s, uint64_t limit, char *err, size_t errlen)
{
    uint64_t end = s->avr->cycle + limit, steps = 0;
    double t0 = seconds();
    s->idle = 0;
    while (!s->idle) {
        int st = avr_run(s->avr);
        if (st == cpu_Done || st == cpu_Crashed) {
            fileio_say(err, errlen, "the AVR stopped (%s) at pc 0x%04X",
                       st == cpu_Done ? "done" : "crashed", (unsigned)s->avr->pc);
            return AVRSIM_ERROR;
        }
        if (s->avr->cycle >= end || ++steps >= limit) {
            fileio_say(err, errlen, "no answer within %llu cycles", (unsigned long long)limit);
            return AVRSIM_ETIME;
        }
        if (!(steps & 0xFFFF) && seconds() - t0 > AVRSIM_WALL_SECONDS) {
            fileio_say(err, errlen, "no answer within %d s of simulation", AVRSIM_WALL_SECONDS);
            return AVRSIM_ETIME;
        }
    }
    return AVRSIM_OK;
}

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The image whole from a regular file: opened without blocking and
 * refused unless regular (a FIFO or a device never blocks the tool). */
static uint8_t *read_image(const char *path, size_t *len, char *err, size_t errlen)
{
    struct stat st;
    uint8_t *b = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        fileio_say(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fileio_say(err, errlen, "%s: not an AVR ELF image (not a regular file)", path);
    } else if (st.st_size < 52 || st.st_size > AVRSIM_ELF_MAX) {
        fileio_say(err, errlen, "%s: not an AVR ELF image (%lld bytes)", path,
                   (long long)st.st_size);
    } else if ((b = malloc((size_t)st.st_size))) {
        size_t got = 0;
        ssize_t r = 1;
        while (got < (size_t)st.st_size && (r = read(fd, b + got, (size_t)st.st_size - got)) > 0)
            got += (size_t)r;
        if (got != (size_t)st.st_size) {
            fileio_say(err, errlen, "%s: cannot read it whole", path);
            free(b);
            b = NULL;
        }
        *len = got;
    } else {
        fileio_say(err, errlen, "out of memory");
    }
    close(fd);
    return b;
}

/* The parts an image may be built for (avr/build-image.sh): the
 * ATmega328P, and the ATmega2560 for the sets whose keys pass its 32 KB of
 * flash, told apart by the ELF's architecture (e_flags: avr5, avr6). */
typedef struct {
    const char *mcu;
    uint32_t flash, sram_start, sram;
} avr_part;
static const avr_part part_328p = {"atmega328p", AVRSIM_FLASH, AVRSIM_SRAM_START, AVRSIM_SRAM};
static const avr_part part_2560 = {"atmega2560", 262144, 0x200, 8192};

/* The ELF read by this driver, never by simavr's reader (which a damaged
 * file crashes): a 32-bit little-endian AVR executable whose every
 * loadable segment lies inside the file and inside its part, code in its
 * flash and data in its SRAM (0x800100 to 0x8008FF on the ATmega328P).
 * fw gets the part, the flash image (the segments at their load
 * addresses), its size, and the data and bss sizes. */
static int parse_elf(const char *path, elf_firmware_t *fw, char *err, size_t errlen)
{
    size_t len = 0;
    uint8_t *b = read_image(path, &len, err, errlen);
    const char *why = NULL;
    if (!b)
        return AVRSIM_ERROR;
    memset(fw, 0, sizeof *fw);
    uint64_t phoff = le32(b + 28), phnum = b[44] | b[45] << 8, flash = 0;
    const avr_part *pt = (b[36] & 0x7F) == 6 ? &part_2560 : &part_328p;
    if (memcmp(b, "\177ELF", 4) || b[4] != 1 || b[5] != 1 || (b[18] | b[19] << 8) != 83)
        why = "no ELF header naming the AVR";
    else if ((b[42] | b[43] << 8) != 32 || phnum == 0 || phnum > 64 || phoff + 32 * phnum > len)
        why = "its program headers are outside the file";
    for (uint64_t k = 0; !why && k < phnum; k++) {
        const uint8_t *ph = b + phoff + 32 * k;
        uint64_t off = le32(ph + 4), va = le32(ph + 8), pa = le32(ph + 12), fsz = le32(ph + 16),
                 msz = le32(ph + 20);
        if (le32(ph) != 1) /* PT_LOAD only */
            continue;
        if (off + fsz > len || fsz > msz)
            why = "a segment lies outside the file";
        else if (va >= 0x800000 && (va < 0x800000 + pt->sram_start ||
                                     va + msz > 0x800000 + pt->sram_start + pt->sram))
            why = "a data segment lies outside the part's SRAM";
        else if (va < 0x800000 && (va != pa || va + msz > pt->flash))
            why = "a code segment lies outside the part's flash";
        else if (fsz && pa + fsz > pt->flash)
            why = "a segment's bytes lie outside the part's flash";
        else if (fsz && pa + fsz > flash)
            flash = pa + fsz;
        if (!why && va >= 0x800000) {
            fw->datasize += (uint32_t)fsz;
            fw->bsssize += (uint32_t)(msz - fsz);
        }
    }
    if (!why && !flash)
        why = "no code";
    if (!why && !(fw->flash = calloc(1, (size_t)flash)))
        why = "out of memory";
    for (uint64_t k = 0; !why && k < phnum; k++) {
        const uint8_t *ph = b + phoff + 32 * k;
        if (le32(ph) == 1 && le32(ph + 16))
            memcpy(fw->flash + le32(ph + 12), b + le32(ph + 4), le32(ph + 16));
    }
    free(b);
    if (why) {
        free_firmware(fw);
        fileio_say(err, errlen, "%s: not an AVR ELF image (%s)", path, why);
        return AVRSIM_ERROR;
    }
    fw->flashsize = (uint32_t)flash;
    snprintf(fw->mmcu, sizeof fw->mmcu, "%s", pt->mcu);
    fw->frequency = 16000000;
    return AVRSIM_OK;
}

static int cmd_within(avrsim *s, const uint8_t *cmd, size_t len, uint8_t *ans, size_t cap,
                      size_t *alen, avrsim_stats *st, uint64_t limit, char *err, size_t errlen);

/* simavr's SRAM and flash arrays grown to every address an instruction
 * can form (a 16-bit data address plus a displacement; a 24-bit byte
 * address of code, as ELPM and EIJMP form them from RAMPZ and EIND, which
 * simavr decodes on this part too): simavr reports a wild access as a
 * crash, or not at all, and performs it past the end of its arrays.
 * Grown, the access lands in bytes no program sees (zero pages the system
 * maps only when touched), and the run ends in the crash or the bound. */
#define AVRSIM_DATA_SPACE (0x10000 + 0x100)
#define AVRSIM_CODE_SPACE (0x1000000 + 0x100)
static int widen(uint8_t **a, size_t have, size_t want)
{
    uint8_t *b = calloc(1, want);
    if (!b)
        return -1;
    memcpy(b, *a, have);
    free(*a);
    *a = b;
    return 0;
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
    if (parse_elf(elf, &s->fw, err, errlen) != AVRSIM_OK) {
        free(s);
        return AVRSIM_ERROR;
    }
    s->avr = avr_make_mcu_by_name(s->fw.mmcu);
    if (!s->avr || avr_init(s->avr) != 0) {
        fileio_say(err, errlen, "simavr has no %s", s->fw.mmcu);
        avrsim_close(s);
        return AVRSIM_ERROR;
    }
    s->avr->sleep = no_sleep;
    s->data_len = (size_t)s->avr->ramend + 1;
    if (widen(&s->avr->data, s->data_len, AVRSIM_DATA_SPACE) == 0)
        s->data_len = AVRSIM_DATA_SPACE;
    if (s->data_len != AVRSIM_DATA_SPACE ||
        widen(&s->avr->flash, (size_t)s->avr->flashend + 1, AVRSIM_CODE_SPACE) != 0) {
        fileio_say(err, errlen, "out of memory");
        avrsim_close(s);
        return AVRSIM_ERROR;
    }
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
    /* the start-up and INFO: a few thousand cycles in a libtts image */
    int rc = run(s, AVRSIM_BOOT_CYCLES, err, errlen);
    if (rc == AVRSIM_OK)
        rc = cmd_within(s, (const uint8_t[]){AVR_CMD_INFO}, 1, a, sizeof a, &alen, NULL,
                        AVRSIM_BOOT_CYCLES, err, errlen);
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
    s->info.pin_addr = (uint16_t)(a[10] | a[11] << 8);
    const uint32_t fl = (uint32_t)s->avr->flashend + 1; /* the part's flash */
    if (s->info.sk_addr >= fl || s->info.pk_addr >= fl ||
        s->info.pin_addr > fl - AVR_PIN_BYTES || !(s->info.flags & AVR_F_PIN)) {
        fileio_say(err, errlen, "%s: not a libtts AVR image of this version (INFO)", elf);
        avrsim_close(s);
        return AVRSIM_ERROR;
    }
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
        /* the device's memories hold the key (flash), K_card (EEPROM) and
         * what SIGN left in SRAM: wiped before simavr frees them */
        uint8_t zero[AVRSIM_EEPROM] = {0};
        avr_eeprom_desc_t d = {.ee = zero, .offset = 0, .size = AVRSIM_EEPROM};
        avr_ioctl(s->avr, AVR_IOCTL_EEPROM_SET, &d);
        if (s->avr->flash)
            sodium_memzero(s->avr->flash, (size_t)s->avr->flashend + 1);
        if (s->avr->data)
            sodium_memzero(s->avr->data, s->data_len);
        avr_terminate(s->avr);
        free(s->avr);
    }
    free_firmware(&s->fw);
    free(s);
}

static int cmd_within(avrsim *s, const uint8_t *cmd, size_t len, uint8_t *ans, size_t cap,
                      size_t *alen, avrsim_stats *st, uint64_t limit, char *err, size_t errlen)
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
    int rc = run(s, limit, err, errlen);
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

int avrsim_cmd(avrsim *s, const uint8_t *cmd, size_t len, uint8_t *ans, size_t cap,
               size_t *alen, avrsim_stats *st, char *err, size_t errlen)
{
    return cmd_within(s, cmd, len, ans, cap, alen, st, AVRSIM_CMD_CYCLES, err, errlen);
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

int avrsim_set_eeprom(avrsim *s, const uint8_t *ee)
{
    avr_eeprom_desc_t d = {.ee = (uint8_t *)ee, .offset = 0, .size = AVRSIM_EEPROM};
    avr_ioctl(s->avr, AVR_IOCTL_EEPROM_SET, &d);
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
    if (parse_elf(elf, &fw, err, errlen) != AVRSIM_OK)
        return AVRSIM_ERROR;
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

int avrsim_pin(avrsim *s, const uint8_t *pin, size_t pinlen, uint8_t *status, uint8_t *tries,
               char *err, size_t errlen)
{
    uint8_t c[1 + AVR_PIN_BYTES] = {AVR_CMD_PIN}, a[4];
    size_t alen;
    if (pinlen > AVR_PIN_MAX) {
        fileio_say(err, errlen, "a PIN has at most %d bytes", AVR_PIN_MAX);
        return AVRSIM_ERROR;
    }
    c[1] = (uint8_t)pinlen;
    memcpy(c + 2, pin, pinlen);
    int rc = avrsim_cmd(s, c, sizeof c, a, sizeof a, &alen, NULL, err, errlen);
    sodium_memzero(c, sizeof c);
    if (rc == AVRSIM_OK && (alen < 1 || alen != 1u + (a[0] == AVR_EPIN))) {
        fileio_say(err, errlen, "VERIFY PIN: a malformed answer");
        rc = AVRSIM_ERROR;
    }
    if (rc == AVRSIM_OK) {
        *status = a[0];
        *tries = a[0] == AVR_EPIN ? a[1] : 0;
    }
    return rc;
}

int avrsim_flash_keys(avrsim *s, const uint8_t *sk, size_t skb, const uint8_t *pk, size_t pkb,
                      const uint8_t *pinrec, char *err, size_t errlen)
{
    uint8_t form[256], *pl = malloc(pkb + AVR_PK_ZROOM(pkb));
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
    if (rc == AVRSIM_OK)
        rc = avrsim_flash(s, in.pin_addr, pinrec, AVR_PIN_BYTES, err, errlen);
    free(pl);
    return rc;
}

int avrsim_program(avrsim *s, const uint8_t *sk, size_t skb, const uint8_t *pk, size_t pkb,
                   const uint8_t *pin, size_t pinlen, char *err, size_t errlen)
{
    uint8_t a[4], prec[AVR_PIN_BYTES] = {0}, ee[AVRSIM_EEPROM];
    size_t alen;
    if (pinlen < AVR_PIN_MIN || pinlen > AVR_PIN_MAX) {
        fileio_say(err, errlen, "the PIN must have %d to %d bytes", AVR_PIN_MIN, AVR_PIN_MAX);
        return AVRSIM_ERROR;
    }
    prec[0] = (uint8_t)pinlen;
    memcpy(prec + 1, pin, pinlen);
    int rc = avrsim_flash_keys(s, sk, skb, pk, pkb, prec, err, errlen);
    sodium_memzero(prec, sizeof prec);
    /* the programmer's EEPROM write: three tries */
    if (rc == AVRSIM_OK && (rc = avrsim_eeprom(s, ee)) == AVRSIM_OK) {
        ee[AVR_EE_TRIES] = AVR_TRIES_FULL;
        rc = avrsim_set_eeprom(s, ee);
        sodium_memzero(ee, sizeof ee);
    }
    if (rc == AVRSIM_OK)
        rc = avrsim_cmd(s, (const uint8_t[]){AVR_CMD_INSTALL}, 1, a, sizeof a, &alen, NULL,
                        err, errlen);
    if (rc == AVRSIM_OK && (alen != 1 || a[0] != AVR_OK)) {
        fileio_say(err, errlen, "INSTALL answered %02X", alen ? a[0] : 0xFFu);
        rc = AVRSIM_ERROR;
    }
    return rc;
}

int avrsim_host_sign(const tts_params *p, const uint8_t *sk, uint32_t ctr, const uint8_t *h,
                     uint8_t *sig, unsigned *attempts)
{
    uint8_t key[32];
    tts_stream st;
    int rc = tts_card_stream_key(p, key, sk, ctr, h);
    tts_stream_init(&st, key);
    if (rc == TTS_OK)
        rc = tts_sign_digest(p, sig, h, sk, tts_stream_rng, &st);
    if (attempts)
        *attempts = st.calls;
    tts_stream_wipe(&st);
    sodium_memzero(key, sizeof key);
    return rc;
}

int avrsim_measure(const char *elf, const uint8_t seed[32], const uint8_t *digest,
                   avrsim_measure_t *r, char *err, size_t errlen)
{
    avrsim *s = NULL;
    avrsim_info in;
    uint8_t *pk = NULL, *sk = NULL, cmd[1 + 2 * TTS_MAX_N + TTS_MAX_M], a[1 + TTS_MAX_N],
            sig[TTS_MAX_N];
    size_t alen;
    memset(r, 0, sizeof *r);
    int rc = avrsim_sizes(elf, &r->flash, &r->sram_static, err, errlen);
    if (rc == AVRSIM_OK)
        rc = avrsim_open(&s, elf, NULL, &in, err, errlen);
    if (rc != AVRSIM_OK)
        return rc;
    char name[32];
    snprintf(name, sizeof name, "TTS(%u,%u)", in.m, in.n);
    const tts_params *p = tts_params_get(name);
    size_t skb = p ? tts_sk_bytes(p) : 0, pkb = p ? tts_pk_bytes(p) : 0, m = in.m, n = in.n;
    r->m = in.m;
    r->n = in.n;
    rc = AVRSIM_ERROR;
    if (!p || m > TTS_MAX_M || n > TTS_MAX_N) {
        fileio_say(err, errlen, "%s: INFO names %s, no set of this library", elf, name);
        goto done;
    }
    if (!(pk = malloc(pkb)) || !(sk = malloc(skb))) {
        fileio_say(err, errlen, "%s: no memory for the %s keys", elf, name);
        goto done;
    }
    if (tts_keypair_from_seed(p, pk, sk, seed) != TTS_OK) {
        fileio_say(err, errlen, "key generation failed");
        goto done;
    }
    uint8_t pst, tries;
    const size_t pinlen = sizeof AVRSIM_MEASURE_PIN - 1;
    if ((rc = avrsim_program(s, sk, skb, pk, pkb, (const uint8_t *)AVRSIM_MEASURE_PIN, pinlen,
                             err, errlen)) != AVRSIM_OK ||
        (rc = avrsim_pin(s, (const uint8_t *)AVRSIM_MEASURE_PIN, pinlen, &pst, &tries, err,
                         errlen)) != AVRSIM_OK)
        goto done;
    if (pst != AVR_OK) {
        fileio_say(err, errlen, "%s: VERIFY PIN answered %02X", elf, pst);
        rc = AVRSIM_ERROR;
        goto done;
    }
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
    if (avrsim_host_sign(p, sk, 0, digest, sig, &r->attempts) != TTS_OK ||
        memcmp(sig, a + 1, n) != 0) {
        fileio_say(err, errlen, "%s: the AVR's signature differs from the host's", elf);
        goto done;
    }
    cmd[0] = AVR_CMD_VERIFY;
    memcpy(cmd + 1, sig, n);
    memcpy(cmd + 1 + n, digest, m);
    rc = avrsim_cmd(s, cmd, 1 + n + m, a, sizeof a, &alen, &r->verify, err, errlen);
    if (rc == AVRSIM_OK && (alen != 1 || a[0] != AVR_OK)) {
        fileio_say(err, errlen, "%s: VERIFY refused the signature", elf);
        rc = AVRSIM_ERROR;
    }
done:
    sodium_memzero(sig, sizeof sig);
    if (sk) {
        sodium_memzero(sk, skb);
        free(sk);
    }
    free(pk);
    avrsim_close(s);
    return rc;
}
