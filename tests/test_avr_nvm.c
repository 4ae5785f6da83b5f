/* SPDX-License-Identifier: MIT */
/*
 * The AVR firmware's EEPROM records (avr/nvm.c, compiled here from the
 * same source) over a model of the ATmega328P's EEPROM: a byte write
 * erases the byte, then programs it (3.4 ms); a power cut inside leaves
 * the byte erased (0xFF), half programmed (the new value with some bits
 * still 1) or as it was. Every write of the counter's store and of VERIFY
 * PIN is cut in each of those ways, and the records read back afterwards:
 *
 *  - the counter never reads back below the value the interrupted SIGN
 *    read (nor above it + 1), and in a long run of SIGNs with random cuts
 *    no counter value is answered twice;
 *  - a cut VERIFY PIN never leaves more tries than before it, and an
 *    attacker who cuts at will gets at most three wrong answers.
 *
 * The expected values come from the layout of avr/avr_protocol.h (slots
 * written by the test itself), not from nvm.c.
 */
#include <check.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <avr/eeprom.h>

#include "avr_nvm.h"

/* ---- the EEPROM model ---- */
static uint8_t ee[1024];
static long writes, cut_at = -1; /* the index of the write to cut (-1: none) */
static int cut_mode;             /* 0 erased, 1 half programmed, 2 unchanged */
static jmp_buf power;
static uint32_t rng = 12345;

static uint32_t rnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

uint8_t eeprom_read_byte(const uint8_t *a) { return ee[(uintptr_t)a]; }

void eeprom_read_block(void *d, const void *a, size_t n) { memcpy(d, ee + (uintptr_t)a, n); }

void eeprom_update_byte(uint8_t *a, uint8_t v)
{
    uintptr_t i = (uintptr_t)a;
    if (ee[i] == v) /* avr-libc's update writes only a changed byte */
        return;
    if (writes++ == cut_at) {
        ee[i] = cut_mode == 0 ? 0xFF : cut_mode == 1 ? (uint8_t)(v | rnd()) : ee[i];
        longjmp(power, 1);
    }
    ee[i] = v;
}

void eeprom_update_block(const void *s, void *a, size_t n)
{
    for (size_t k = 0; k < n; k++)
        eeprom_update_byte((uint8_t *)a + k, ((const uint8_t *)s)[k]);
}

/* ---- the records as avr/avr_protocol.h lays them out ---- */
static void put_slot(int s, uint32_t c)
{
    uint32_t v = ~c;
    for (int i = 0; i < 4; i++)
        ee[(s ? AVR_EE_CTR1 : AVR_EE_CTR) + i] = (uint8_t)(v >> (8 * i));
}

/* SIGN's use of the counter (avr/sign.c): read, refuse if exhausted,
 * store c + 1; the answer (c released) only once the store is done. 1 if
 * it got there, 0 if the power was cut (or the counter was exhausted). */
static int sign_model(uint32_t *released)
{
    uint8_t slot;
    if (setjmp(power))
        return 0;
    uint32_t c = avr_counter_read(&slot);
    if (c == 0xFFFFFFFFu)
        return 0;
    avr_counter_store(slot, c + 1);
    *released = c;
    return 1;
}

static uint32_t counter(void)
{
    uint8_t slot;
    return avr_counter_read(&slot);
}

START_TEST(t_counter_layout)
{
    /* erased: 0; the larger slot wins; the slot it is in is given */
    memset(ee, 0xFF, sizeof ee);
    ck_assert_uint_eq(counter(), 0);
    for (int k = 0; k < 20000; k++) {
        uint32_t a = rnd() ^ rnd() << 16, b = k & 1 ? a + (rnd() & 3) : rnd() ^ rnd() << 20;
        uint8_t slot;
        put_slot(0, a);
        put_slot(1, b);
        uint32_t c = avr_counter_read(&slot);
        ck_assert_uint_eq(c, a > b ? a : b);
        ck_assert_uint_eq(slot, b > a);
    }
    put_slot(0, 0xFFFFFFFFu);
    put_slot(1, 7);
    ck_assert_uint_eq(counter(), 0xFFFFFFFFu);
}
END_TEST

START_TEST(t_counter_cut)
{
    static const uint32_t start[] = {0,       1,       2,        253,       254,
                                 255,     256,     257,      65534,     65535,
                                 65536,   65537,   0xFFFFFE, 0xFFFFFF,  0x1000000,
                                 0x1FFFF, 0xFEFFFFFF, 0xFFFFFFFC, 0xFFFFFFFD};
    long cuts = 0;
    for (size_t s = 0; s < sizeof start / sizeof *start; s++)
        for (int where = 0; where < 2; where++)
            for (int mode = 0; mode < 3; mode++)
                for (long k = 0;; k++) {
                    uint32_t c0 = start[s], r = 0;
                    memset(ee, 0xFF, sizeof ee);
                    put_slot(where, c0);
                    if (c0)
                        put_slot(!where, c0 - 1);
                    writes = 0;
                    cut_at = k;
                    cut_mode = mode;
                    int done = sign_model(&r);
                    cut_at = -1;
                    uint32_t c1 = counter();
                    if (done) { /* every write of this store has been cut */
                        ck_assert_uint_eq(r, c0);
                        ck_assert_uint_eq(c1, c0 + 1);
                        ck_assert_int_ge(k, 1);
                        break;
                    }
                    cuts++;
                    ck_assert_msg(c1 == c0 || c1 == c0 + 1,
                                  "counter %u, write %ld cut (mode %d): reads %u", c0, k,
                                  mode, c1);
                    /* the next SIGN, whole, answers the counter read and moves on */
                    ck_assert_int_eq(sign_model(&r), 1);
                    ck_assert_uint_eq(r, c1);
                    ck_assert_uint_eq(counter(), c1 + 1);
                }
    ck_assert_int_ge(cuts, 19 * 2 * 3);
}
END_TEST

START_TEST(t_counter_walk)
{
    /* SIGNs from an erased part, half of them cut at a random write in a
     * random way: the answered counters strictly increase */
    uint32_t last = 0, r;
    int answered = 0;
    memset(ee, 0xFF, sizeof ee);
    for (int k = 0; k < 40000; k++) {
        writes = 0;
        cut_at = rnd() & 1 ? (long)(rnd() % 3) : -1;
        cut_mode = (int)(rnd() % 3);
        if (sign_model(&r)) {
            ck_assert_msg(!answered || r > last, "counter %u answered after %u", r, last);
            last = r;
            answered++;
        }
    }
    cut_at = -1;
    ck_assert_int_ge(answered, 20000);
    ck_assert_uint_ge(counter(), last + 1);
}
END_TEST

START_TEST(t_counter_exhausted)
{
    uint32_t r;
    memset(ee, 0xFF, sizeof ee);
    put_slot(1, 0xFFFFFFFEu);
    ck_assert_int_eq(sign_model(&r), 1);
    ck_assert_uint_eq(r, 0xFFFFFFFEu);
    uint8_t before[sizeof ee];
    memcpy(before, ee, sizeof ee);
    ck_assert_int_eq(sign_model(&r), 0); /* 2^32 - 1: refused, nothing written */
    ck_assert_mem_eq(before, ee, sizeof ee);
}
END_TEST

/* ---- the PIN's tries ---- */
static const uint8_t good[AVR_PIN_BYTES] = {4, '1', '2', '3', '4'};
static const uint8_t bad[AVR_PIN_BYTES] = {4, '1', '2', '3', '5'};
static const uint8_t tries_byte[4] = {0xFF, 0xFE, 0xFC, 0xF8}; /* avr_protocol.h */

/* VERIFY PIN in the model: its status, or -1 if the power was cut */
static int pin_model(const uint8_t *pin)
{
    if (setjmp(power))
        return -1;
    return avr_pin_verify(pin, good);
}

START_TEST(t_tries)
{
    memset(ee, 0xFF, sizeof ee);
    ck_assert_uint_eq(avr_pin_tries(), 0); /* erased: blocked until programmed */
    ck_assert_int_eq(pin_model(good), AVR_EBLOCKED);
    ee[AVR_EE_TRIES] = AVR_TRIES_FULL;
    ck_assert_uint_eq(avr_pin_tries(), 3);
    for (int t = 2; t >= 0; t--) {
        ck_assert_int_eq(pin_model(bad), AVR_EPIN);
        ck_assert_uint_eq(avr_pin_tries(), (unsigned)t);
        ck_assert_uint_eq(ee[AVR_EE_TRIES], tries_byte[t]);
    }
    ck_assert_int_eq(pin_model(good), AVR_EBLOCKED);
    ee[AVR_EE_TRIES] = tries_byte[1];
    ck_assert_int_eq(pin_model(good), AVR_OK);
    ck_assert_uint_eq(ee[AVR_EE_TRIES], AVR_TRIES_FULL);
    ee[AVR_EE_TRIES] = 0x78; /* a bit outside the low three: none */
    ck_assert_uint_eq(avr_pin_tries(), 0);
}
END_TEST

START_TEST(t_tries_cut)
{
    for (int t = 1; t <= 3; t++)
        for (int mode = 0; mode < 3; mode++)
            for (int which = 0; which < 2; which++)
                for (long k = 0;; k++) {
                    memset(ee, 0xFF, sizeof ee);
                    ee[AVR_EE_TRIES] = tries_byte[t];
                    writes = 0;
                    cut_at = k;
                    cut_mode = mode;
                    int rc = pin_model(which ? good : bad);
                    cut_at = -1;
                    if (rc >= 0) {
                    ck_assert_int_eq(rc, which ? AVR_OK : AVR_EPIN);
                    break;
                    }
                    ck_assert_msg(avr_pin_tries() <= (unsigned)t || which,
                              "tries %d, wrong PIN, write %ld cut (mode %d): %u left", t,
                              k, mode, avr_pin_tries());
                    if (k == 0) /* cut before the comparison: never a try more */
                    ck_assert_uint_le(avr_pin_tries(), (unsigned)t);
                }
    /* an attacker with wrong PINs, cutting at will: three answers at most */
    int wrong = 0;
    memset(ee, 0xFF, sizeof ee);
    ee[AVR_EE_TRIES] = AVR_TRIES_FULL;
    for (int k = 0; k < 5000; k++) {
        writes = 0;
        cut_at = rnd() & 1 ? 0 : -1;
        cut_mode = (int)(rnd() % 3);
        int rc = pin_model(bad);
        wrong += rc == AVR_EPIN;
        ck_assert(rc == -1 || rc == AVR_EPIN || rc == AVR_EBLOCKED);
    }
    cut_at = -1;
    ck_assert_int_le(wrong, 3);
    ck_assert_int_eq(pin_model(good), AVR_EBLOCKED);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("avr_nvm");
    TCase *tc = tcase_create("records");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_counter_layout);
    tcase_add_test(tc, t_counter_cut);
    tcase_add_test(tc, t_counter_walk);
    tcase_add_test(tc, t_counter_exhausted);
    tcase_add_test(tc, t_tries);
    tcase_add_test(tc, t_tries_cut);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
