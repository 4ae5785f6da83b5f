/* SPDX-License-Identifier: MIT */
/*
 * tts-bench micro: what a signature costs on the microcontroller of the
 * lightweight-TLS study, an Arduino UNO's ATmega328P at 16 MHz (TTS(32,44)
 * and TTS(36,50): an Arduino Mega's ATmega2560, whose flash holds their
 * keys). TTS's rows
 * are measured here, cycle-exact, by the AVR firmware (avr/) in simavr
 * (host/avrsim.h: SIGN and VERIFY of a key from the seed 00..1F, the
 * signature checked against the host library's); the others are published
 * figures, each with its source: the signatures (Ed25519, BLISS) beside
 * TTS, and apart from them the study's RSA and ECC operations and X25519,
 * which it measured for the key exchange.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <tts.h>

#include "avr_pk.h"
#include "avrsim.h"
#include "exp_micro.h"
#include "harness.h"
#include "json.h"

/* A row of the table. ms < 0: no figure. */
typedef struct {
    char name[32];
    const char *platform;
    double code, ram;          /* bytes (flash of code and tables; SRAM at peak) */
    double pub_ms, priv_ms;    /* verify / sign (the study: public / private op) */
    double pub_cyc, priv_cyc;  /* cycles, < 0: not published */
    const char *source;
    /* measured rows: the image's flash and static SRAM, the stack peaks */
    double flash, sram_static, sign_stack, verify_stack;
    int kex; /* a key-exchange operation's row (the study's), not a signature's */
} micro_row;

/* (the study names no author or venue beyond its series title) */
#define STUDY                                                                                   \
    "the lightweight-TLS study, uTLS ('defining lightweight security for IoT', part 6): "     \
    "its Arduino UNO table, figures as it gives them"

/* The published rows: signatures on 8-bit AVR, then the study's two
 * key-exchange operations and X25519. */
static const micro_row published[] = {
    {"Ed25519", "8-bit AVR ATmega (cycles)", -1, -1, 32634713 / 16000.0, 23216241 / 16000.0,
     32634713, 23216241,
     "Hutter, Schwabe: NaCl on 8-bit AVR Microcontrollers, AFRICACRYPT 2013: sign "
     "23,216,241 cycles, verify 32,634,713 (ms here at 16 MHz)", -1, -1, -1, -1, 0},
    {"BLISS", "ATxmega128 (ms as published)", -1, -1, 88, 329, -1, -1,
     "Poeppelmann, Oder, Gueneysu: High-Performance Ideal Lattice-Based Cryptography on "
     "8-bit ATxmega Microcontrollers, LATINCRYPT 2015: sign 329 ms, verify 88 ms", -1, -1, -1,
     -1, 0},
    {"RSA-1024", "ATmega328P 16 MHz", 2048, 1340, 8504, 727955, -1, -1, STUDY, -1, -1, -1, -1,
     1},
    {"ECC-163", "ATmega328P 16 MHz", 7168, 934, 42011, 20686, -1, -1, STUDY, -1, -1, -1, -1, 1},
    /* one X25519 shared secret (a variable-base scalar multiplication: about
     * the cost of one Ed25519 signature's or half a verification's core) */
    {"X25519", "8-bit AVR ATmega (cycles)", -1, -1, 13900397 / 16000.0, 13900397 / 16000.0,
     13900397, 13900397,
     "Duell, Haase, Hinterwaelder, Hutter, Paar, Sanchez, Schwabe: High-speed Curve25519 on "
     "8-bit, 16-bit, and 32-bit microcontrollers, Des. Codes Cryptogr. 77 (2015), "
     "doi:10.1007/s10623-015-0087-1: 13,900,397 cycles (ms here at 16 MHz)", -1, -1, -1, -1,
     1},
};
#define NPUB (sizeof published / sizeof published[0])

void micro_usage(FILE *f, const char *dir)
{
    fprintf(f, "usage: tts-bench micro [--image-dir DIR] [--json FILE] [--csv FILE] [--plot DIR] "
          "[--force]\n"
          "  TTS's SIGN and VERIFY on a simulated ATmega328P (ATmega2560 for the two\n"
          "  largest sets) at 16 MHz (the AVR images of\n"
          "  DIR, default $TTS_AVR_DIR or %s), beside the lightweight-TLS\n"
          "  study's RSA-1024 and ECC-163 on the UNO and published AVR figures\n", dir);
}

/* a count, exact (json_num keeps six digits: 23,216,241 cycles would not
 * survive), or null */
static void json_opt(FILE *f, const char *key, double v)
{
    fprintf(f, "\"%s\": ", key);
    if (v >= 0)
        fprintf(f, "%.10g", v);
    else
        json_num(f, v, 0);
}

static int plot_micro(const char *dir, const micro_row *r, size_t n, const env *e)
{
    FILE *f = plot_stream(dir, "micro.dat");
    if (!f)
        return -1;
    fprintf(f, "# tts-bench micro: scheme, private op (sign) ms, public op (verify) ms\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "\"%s%s\" %.3f %.3f\n", r[i].name, broken_mark(r[i].name), r[i].priv_ms,
                r[i].pub_ms);
    if (plot_stream_close(f, dir, "micro.dat") || !(f = plot_stream(dir, "micro.gp")))
        return -1;
    fprintf(f, "# tts-bench micro: sign and verify on 8-bit AVR.\n"
               "# Data in micro.dat; charts micro.svg and micro.png. Re-run: gnuplot micro.gp\n"
               "set title \"tts-bench micro: 8-bit AVR (TTS measured in simavr at 16 MHz; "
               "others published), %s\"\n"
               "set style data histograms\n"
               "set style histogram clustered gap 2\n"
               "set style fill solid 0.85 border -1\n"
               "set logscale y\n"
               "set ylabel \"time, ms (log scale)\"\n"
               "set xtics rotate by -45 scale 0 nomirror\n"
               "set grid ytics\n"
               "set key outside right top\n"
               "set bmargin 8\n",
            e->date);
    plot_terminals(f, 1200, 600);
    fprintf(f, "  set output \"micro.\" . fmt\n"
               "  plot \"micro.dat\" using 2:xtic(1) title \"sign (private op)\", \\\n"
               "    \"micro.dat\" using 3 title \"verify (public op)\"\n"
               "  set output\n}\n");
    if (plot_stream_close(f, dir, "micro.gp"))
        return -1;
    return plot_render(dir, "micro.gp", "micro.dat");
}

int cmd_micro(const char *dir, outputs *op)
{
    outputs o = *op;
    if (!avrsim_available()) {
        fprintf(stderr, "tts-bench: micro: this build has no AVR simulator (libsimavr)\n");
        return 2;
    }
    if (outputs_open(&o)) {
        outputs_discard(&o);
        return 2;
    }
    micro_row rows[8 + NPUB];
    avrsim_measure_t meas[8];
    size_t n = 0, nt = 0;
    skiplist sk = {0};
    uint8_t seed[32], h[TTS_MAX_M];
    for (int i = 0; i < 32; i++)
        seed[i] = (uint8_t)i;
    for (size_t k = 0; k < tts_params_count() && nt < 8; k++) {
        const tts_params *p = tts_params_at(k);
        char path[4096], err[512];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s.elf", dir, tts_params_id(p));
        if (stat(path, &st) != 0) {
            skip(&sk, tts_params_name(p), "no image");
            continue;
        }
        tts_digest(p, h, (const uint8_t *)"abc", 3);
        avrsim_measure_t *r = &meas[nt];
        if (avrsim_measure(path, seed, h, r, err, sizeof err) != AVRSIM_OK) {
            fprintf(stderr, "tts-bench: micro: %s\n", err);
            outputs_discard(&o);
            return 2; /* the image is the input */
        }
        micro_row *w = &rows[n++];
        memset(w, 0, sizeof *w);
        snprintf(w->name, sizeof w->name, "%s", tts_params_name(p));
        /* the part avr/build-image.sh chose: the keys in 32 KB or not */
        w->platform = tts_pk_bytes(p) > AVRSIM_FLASH ? "ATmega2560 16 MHz (simavr)"
                                                     : "ATmega328P 16 MHz (simavr)";
        w->code = (double)(r->flash - tts_sk_bytes(p) - tts_pk_bytes(p) -
                            AVR_PK_ZROOM(tts_pk_bytes(p)));
        w->ram = r->sram_static +
                 (r->sign.stack_peak > r->verify.stack_peak ? r->sign.stack_peak
                                                            : r->verify.stack_peak);
        w->flash = r->flash;
        w->sram_static = r->sram_static;
        w->sign_stack = r->sign.stack_peak;
        w->verify_stack = r->verify.stack_peak;
        w->priv_cyc = (double)r->sign.cycles;
        w->pub_cyc = (double)r->verify.cycles;
        w->priv_ms = w->priv_cyc / (AVRSIM_MHZ * 1000.0);
        w->pub_ms = w->pub_cyc / (AVRSIM_MHZ * 1000.0);
        w->source = "measured: tts-bench micro (avr/ in simavr, cycles of the SIGN and VERIFY "
                    "commands)";
        nt++;
    }
    if (!nt) {
        fprintf(stderr, "tts-bench: micro: no AVR image in %s\n", dir);
        outputs_discard(&o);
        return 2;
    }
    for (size_t i = 0; i < NPUB; i++)
        rows[n++] = published[i];

    printf("tts-bench micro: a signature on an 8-bit AVR (%s)\n%s\n\n", "Arduino UNO class",
           TTS_BROKEN_NOTE);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || rows[i].kex != rows[i - 1].kex)
            printf("%s| scheme | platform | code B | RAM B | public op (verify) ms | private op "
                   "(sign) ms |\n|---|---|---|---|---|---|\n",
                   !rows[i].kex ? "Signatures:\n\n"
                                : "\nKey exchange (the study's operations, X25519's shared "
                                  "secret in both columns):\n\n");
        char code[32] = "-", ram[32] = "-";
        if (rows[i].code >= 0)
            snprintf(code, sizeof code, "%s%.0f", i >= nt ? "~" : "", rows[i].code);
        if (rows[i].ram >= 0)
            snprintf(ram, sizeof ram, "%.0f", rows[i].ram);
        printf("| %s%s | %s | %s | %s | %.2f | %.2f |\n", rows[i].name,
               broken_mark(rows[i].name), rows[i].platform, code, ram, rows[i].pub_ms,
               rows[i].priv_ms);
    }
    printf("\nTTS: flash code (and its GF(256) tables) without the keys' room; RAM = static SRAM + "
           "the stack's peak (painted); SIGN includes the EEPROM counter and both ChaCha20 "
           "blocks.\nsources:\n");
    for (size_t i = nt; i < n; i++)
        if (i == nt || rows[i].source != rows[i - 1].source)
            printf("  %s: %s\n", rows[i].name, rows[i].source);
    for (size_t i = 0; i < sk.n; i++)
        printf("skipped: %s\n", sk.v[i]);

    int rc = 0;
    env e;
    get_env(&e, tts_backend());
    if (o.jf) {
        json_head(o.jf, "micro", 0, 1, &e, &sk, NULL);
        fprintf(o.jf, ",\n  \"mhz\": %.0f,\n  \"rows\": [", AVRSIM_MHZ);
        for (size_t i = 0; i < n; i++) {
            fprintf(o.jf, "%s\n    {\"scheme\": ", i ? "," : "");
            json_write_str(o.jf, rows[i].name);
            fprintf(o.jf, ", \"measured\": %s, \"kind\": \"%s\", \"platform\": ",
                    i < nt ? "true" : "false", rows[i].kex ? "key exchange" : "signature");
            json_write_str(o.jf, rows[i].platform);
            fprintf(o.jf, ", ");
            json_opt(o.jf, "code_bytes", rows[i].code);
            fprintf(o.jf, ", ");
            json_opt(o.jf, "ram_bytes", rows[i].ram);
            fprintf(o.jf, ", ");
            json_opt(o.jf, "sign_cycles", rows[i].priv_cyc);
            fprintf(o.jf, ", ");
            json_opt(o.jf, "verify_cycles", rows[i].pub_cyc);
            fprintf(o.jf, ", ");
            json_opt(o.jf, "flash_bytes", rows[i].flash);
            fprintf(o.jf, ", ");
            json_opt(o.jf, "sram_static_bytes", rows[i].sram_static);
            fprintf(o.jf, ", ");
            json_opt(o.jf, "sign_stack_bytes", rows[i].sign_stack);
            fprintf(o.jf, ", ");
            json_opt(o.jf, "verify_stack_bytes", rows[i].verify_stack);
            fprintf(o.jf, ", \"sign_ms\": %.3f, \"verify_ms\": %.3f, \"source\": ", rows[i].priv_ms,
                    rows[i].pub_ms);
            json_write_str(o.jf, rows[i].source);
            fprintf(o.jf, "}");
        }
        fprintf(o.jf, "\n  ]");
        rc |= json_end(o.jf, o.json);
    }
    if (o.cf) {
        csv_head(o.cf, "micro", 0, 1, &e, &sk, NULL);
        fprintf(o.cf, "scheme,measured,platform,code_bytes,ram_bytes,sign_cycles,verify_cycles,"
                      "sign_ms,verify_ms\n");
        for (size_t i = 0; i < n; i++)
            fprintf(o.cf, "%s,%d,\"%s\",%.0f,%.0f,%.0f,%.0f,%.3f,%.3f\n", rows[i].name, i < nt,
                    rows[i].platform, rows[i].code, rows[i].ram, rows[i].priv_cyc,
                    rows[i].pub_cyc, rows[i].priv_ms, rows[i].pub_ms);
        rc |= csv_end(o.cf, o.csv);
    }
    if (o.plot)
        rc |= plot_micro(o.plot, rows, n, &e) ? 1 : 0;
    return rc ? 1 : 0;
}
