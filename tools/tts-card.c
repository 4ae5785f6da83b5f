/* SPDX-License-Identifier: MIT */
/*
 * tts-card: drive a libtts 8051 card image in the ucsim simulator.
 *
 *   tts-card [options] SUBCOMMAND [args] [SUBCOMMAND [args] ...]
 *   tts-card [options] report
 *
 * All subcommands of one invocation run in order on one card session (one
 * s51 run over one request file ending with HALT). Exit status: 0 success,
 * 1 a status word other than 9000 (or a failed cross-check with the host
 * library), 2 usage or input error (or no simulator). Each subcommand is
 * two functions of the table below (add its commands to the batch; check
 * and show their answers), each returning a status; main has one exit
 * path, whose clean-up wipes every copy of the key, the PIN and the card's
 * memory.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>
#include <tts.h>

#include "card_report.h"
#include "cardbind.h"
#include "card_cli.h"
#include "cardsim.h"
#include "cardstate.h"
#include "cli.h"
#include "devcli.h"
#include "fileio.h"
#include "ttsfile.h"

#ifndef CARD_IMAGE_DIR
#define CARD_IMAGE_DIR "8051"
#endif

/* --force (FILEIO_FORCE), --armor (TTS_FILE_ARMOR), --raw */
static unsigned out_force, out_armor;
static int out_raw;

/* The --eeprom file, held by this session (released at exit, whatever the path). */
static card_store store = {.fd = -1};

static void release_store(void)
{
    card_store_close(&store);
}

typedef struct session session;

/* One subcommand of the session: its commands in the batch, its output. */
typedef struct subcmd {
    const struct command *cmd;
    const char *name;
    size_t first, count;  /* its commands in the batch */
    size_t prof;          /* the GET PROFILE after them (--report), or -1 */
    const char *out;      /* -o */
    uint8_t seed[32];
    uint8_t digest[TTS_MAX_M];
    size_t ctr_at;        /* sign: the GET COUNTER before SIGN */
    uint8_t *key;         /* put-key */
} subcmd;

/* A subcommand: add parses its arguments (argv[*i] on) into s and the
 * batch, show checks and prints the answers; both return a status. */
typedef struct command {
    const char *name;
    uint8_t ins; /* add_one's command */
    int (*add)(session *, subcmd *, int argc, char **argv, int *i);
    int (*show)(session *, subcmd *, const card_resp *r);
} command;

struct session {
    const tts_params *p;
    unsigned m, n, segk;
    size_t skb, pkb, nseg;
    const char *image, *eeprom, *cpu;
    double mhz;
    int report, prof_ok, to_stdout;
    uint8_t pin[16];
    size_t pinlen;
    card_batch b;
    card_state cs, hs; /* the card's state; the host's view, command by command */
    uint8_t *xram;
    subcmd *sc;
    size_t nsc, nsc_cap;
    FILE *rep;         /* the report: standard error when an object goes to stdout */
    uint8_t *hsk, *hpk; /* the host's view of the active key, for the cross-checks */
    int hkey;
};

/* The one clean-up: every copy of the secret key (put-key's, the host's
 * views, the batch's PUT KEY commands, the card's memory), the PIN. */
static void session_free(session *s)
{
    sodium_memzero(s->pin, sizeof s->pin);
    tts_file_free(s->xram, CARD_XRAM_BYTES);
    for (size_t k = 0; s->sc && k < s->nsc; k++)
        tts_file_free(s->sc[k].key, s->skb);
    if (s->sc) /* (the seeds) */
        sodium_memzero(s->sc, s->nsc_cap * sizeof *s->sc);
    free(s->sc);
    tts_file_free(s->hsk, s->skb);
    free(s->hpk);
    card_state_free(&s->hs);
    card_state_free(&s->cs);
    card_free(&s->b);
    release_store();
}

/* A public key or signature (kind TTS_FILE_*) to path: card_write_object
 * with --force, --armor or --raw. */
static int write_object(const char *path, int kind, const tts_params *p, const uint8_t *b)
{
    return card_write_object(path, kind, p, b, out_raw, out_armor | (out_force ? TTSFILE_FORCE : 0));
}

/* An output that names one of the inputs would destroy it; one that
 * exists is replaced only with --force (claimed again before the run). */
static int check_output(session *s, const char *out)
{
    char err[512];
    int rc = fileio_check_output(out, out_force, err, sizeof err);
    if (rc == FILEIO_EXISTS)
        return cli_fail("%s: use --force to overwrite", err);
    if (rc != FILEIO_OK)
        return cli_fail("%s", err);
    if (fileio_same_file(out, s->image) || (s->eeprom && fileio_same_file(out, s->eeprom)))
        return cli_fail("the output is one of the inputs (the image or the EEPROM file): %s", out);
    s->to_stdout += !strcmp(out, "-");
    return 0;
}

/* ---- the subcommands: adding their commands */

/* info, counter, cycles, verify: one command each (the table's ins) */
static int add_one(session *s, subcmd *c, int argc, char **argv, int *i)
{
    (void)argc, (void)argv, (void)i;
    if (c->cmd->ins != CARD_VERIFY)
        card_add(&s->b, c->cmd->ins, 0, 0, NULL, 0);
    else if (!s->pinlen)
        return cli_fail("verify needs --pin");
    else
        card_add_verify(&s->b, s->pin, s->pinlen);
    return 0;
}

static int add_genkey(session *s, subcmd *c, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc || strcmp(argv[*i], "--seed"))
        return cli_fail("genkey needs --seed FILE");
    if (card_read_exact(argv[*i + 1], c->seed, 32, "a seed", TTSFILE_PRIVATE))
        return ST_ERROR;
    *i += 2;
    if (!s->pinlen)
        return cli_fail("genkey needs --pin (the PIN of the new key)");
    if (card_new_pin_ok(s->pin, s->pinlen))
        return ST_ERROR;
    card_add(&s->b, CARD_SET_PIN, 0, 0, s->pin, (uint8_t)s->pinlen);
    card_add(&s->b, CARD_GENERATE_KEY, 0, 0, c->seed, 32);
    return 0;
}

static int add_export(session *s, subcmd *c, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc || strcmp(argv[*i], "-o"))
        return cli_fail("export-pk needs -o FILE");
    c->out = argv[*i + 1];
    *i += 2;
    if (check_output(s, c->out))
        return ST_ERROR;
    for (size_t g = 0; g < s->nseg; g++) {
        card_add(&s->b, CARD_GET_PK_SEGMENT, (uint8_t)(g >> 8), (uint8_t)g, NULL, 0);
        if (s->report)
            card_add(&s->b, CARD_GET_CYCLES, 0, 0, NULL, 0);
    }
    return 0;
}

/* put-key [--pk PUB] FILE: the key (card_install_key's checks), then SET
 * PIN, PUT KEY and COMMIT KEY with the check points of its public key */
static int add_put(session *s, subcmd *c, int argc, char **argv, int *i)
{
    const char *keyfile = NULL, *pkfile = NULL;
    for (int k = 0; k < 2 && *i < argc; k++) {
        if (!strcmp(argv[*i], "--pk")) {
            if (*i + 1 >= argc || pkfile)
                return cli_fail("put-key takes one --pk FILE");
            pkfile = argv[*i + 1];
            *i += 2;
        } else if (!keyfile) {
            keyfile = argv[(*i)++];
        }
    }
    if (!keyfile)
        return cli_fail("put-key needs FILE");
    uint8_t *own = malloc(s->pkb);
    int rc = !(c->key = malloc(s->skb)) || !own ? cli_fail("out of memory")
             : card_install_key(keyfile, pkfile, s->p, c->key, own);
    if (!rc && !s->pinlen)
        rc = cli_fail("put-key needs --pin (the PIN of the new key)");
    if (!rc && !(rc = card_new_pin_ok(s->pin, s->pinlen))) {
        card_add(&s->b, CARD_SET_PIN, 0, 0, s->pin, (uint8_t)s->pinlen);
        for (size_t off = 0; off < s->skb; off += 255) {
            size_t len = s->skb - off < 255 ? s->skb - off : 255;
            card_add(&s->b, CARD_PUT_KEY, (uint8_t)(off >> 8), (uint8_t)off, c->key + off,
                     (uint8_t)len);
            if (s->report)
                card_add(&s->b, CARD_GET_CYCLES, 0, 0, NULL, 0);
        }
        if (card_add_commit_pk(&s->b, s->p, c->key, own) == (size_t)-1)
            rc = cli_fail("the library cannot make the key's check points: %s", keyfile);
    }
    free(own);
    return rc;
}

/* sign [--digest HEX | --digest-file FILE | --message FILE] [-o FILE] */
static int add_sign(session *s, subcmd *c, int argc, char **argv, int *i)
{
    const char *hex = NULL, *file = NULL, *msg = NULL;
    int n = 0;
    while (*i + 1 < argc && (!strcmp(argv[*i], "--digest") || !strcmp(argv[*i], "--digest-file") ||
                             !strcmp(argv[*i], "--message") || !strcmp(argv[*i], "-o"))) {
        const char *o = argv[*i], *val = argv[*i + 1];
        *i += 2;
        if (!strcmp(o, "-o") && check_output(s, c->out = val))
            return ST_ERROR;
        n += strcmp(o, "-o") != 0;
        if (!strcmp(o, "--message"))
            msg = val;
        else if (!strcmp(o, "--digest-file"))
            file = val;
        else if (!strcmp(o, "--digest"))
            hex = val;
    }
    if (card_digest_of(s->p, hex, file, msg, n, c->digest))
        return ST_ERROR;
    if (s->pinlen)
        card_add_verify(&s->b, s->pin, s->pinlen);
    c->ctr_at = card_add(&s->b, CARD_GET_COUNTER, 0, 0, NULL, 0);
    card_add(&s->b, CARD_SIGN, 0, 0, c->digest, (uint8_t)s->m);
    return 0;
}

static int add_apdu(session *s, subcmd *c, int argc, char **argv, int *i)
{
    (void)c;
    uint8_t raw[300];
    if (*i >= argc)
        return cli_fail("apdu needs HEX");
    long len = cli_hex(argv[*i], strlen(argv[*i]), raw, sizeof raw);
    if (len < 6 || len != 6 + raw[4])
        return cli_fail("apdu: need CLA INS P1 P2 Lc data[Lc] Le (6 + Lc bytes of hex): %s",
                        argv[*i]);
    (*i)++;
    card_add_raw(&s->b, raw, (int)len);
    return 0;
}

/* ---- the subcommands: their answers */

static int show_info(session *s, subcmd *c, const card_resp *r)
{
    (void)c;
    fprintf(s->rep, "info: %s m=%u n=%u v=%u a=%u b=%u format=%u segment=%u\n",
            tts_params_name(s->p), r->data[0], r->data[1], r->data[2], r->data[3],
            r->data[4], r->data[5], r->data[6]);
    if (r->len != 7 || r->data[0] != s->m || r->data[1] != s->n) {
        fprintf(stderr, "tts-card: the image is not %s\n", tts_params_name(s->p));
        return ST_INVALID;
    }
    return 0;
}

static int show_ok(session *s, subcmd *c, const card_resp *r)
{
    (void)r;
    fprintf(s->rep, "%s: %s\n", c->name, !strcmp(c->name, "put-key") ? "committed" : "ok");
    return 0;
}

static int show_export(session *s, subcmd *c, const card_resp *r)
{
    (void)r;
    int rc = ST_INVALID;
    uint8_t *pk = malloc(s->pkb);
    if (!pk)
        return cli_fail("out of memory");
    if (!card_assemble_pk(&s->b, c->first, c->count, s->m, s->segk, s->pkb, pk)) {
        /* a key that differs from the host's is reported, not written */
        int same = !s->hkey || memcmp(pk, s->hpk, s->pkb) == 0;
        rc = same ? write_object(c->out, TTS_FILE_PUBLIC_KEY, s->p, pk) : ST_INVALID;
        fprintf(s->rep, "export-pk: %zu bytes %s %s%s\n", s->pkb, same ? "to" : "NOT written to",
                fileio_display(c->out), !s->hkey ? "" : same ? " (equals the host's public key)"
                                                             : " (DIFFERS FROM the host's public key)");
    }
    free(pk);
    return rc;
}

/* Every signature the card returns is verified under the public key of
 * the key the host knows it holds, before it is shown or written: a
 * faulty key's signatures leak that key. */
static int show_sign(session *s, subcmd *c, const card_resp *r)
{
    uint32_t ctr = card_be32(s->b.resp[c->ctr_at].data);
    int rc = 0, ok, same;
    unsigned calls;
    fprintf(s->rep, "counter: %u\n", ctr);
    if (!s->hkey)
        return cli_fail("sign: the host knows no valid key of this card to verify its "
                        "signature with: withheld"), ST_INVALID;
    card_check_sig(s->p, s->hsk, s->hpk, ctr, c->digest, r, &ok, &same, &calls);
    if (ok) {
        fprintf(s->rep, "sig: ");
        card_print_hex(s->rep, r->data, r->len);
        fprintf(s->rep, "\n");
        if (c->out)
            rc = write_object(c->out, TTS_FILE_SIGNATURE, s->p, r->data);
    } else {
        cli_fail("sign: the card's signature does not verify under its key's public key: "
                 "withheld%s", c->out ? ", nothing written" : "");
    }
    fprintf(s->rep, "sign: %s the host's signature (%u attempt%s), %s\n",
            same ? "equals" : "DIFFERS FROM", calls, calls == 1 ? "" : "s",
            ok ? "verifies" : "DOES NOT VERIFY");
    return rc ? rc : same && ok ? 0 : ST_INVALID;
}

/* counter, cycles: the 4-byte answer */
static int show_word(session *s, subcmd *c, const card_resp *r)
{
    uint32_t w = card_be32(r->data);
    if (c->cmd->ins == CARD_GET_COUNTER)
        return fprintf(s->rep, "counter: %u\n", w), 0;
    fprintf(s->rep, "cycles: %u (%.2f ms at %g MHz, %s)\n", w, card_ms_of(w, 12, s->mhz), s->mhz,
            card_clocks_per_cycle(s->cpu) == 12 ? "12T" : "timer count; 4T cores: use --report");
    return 0;
}

/* The raw channel prints what the card answered; a SIGN's answer is then
 * checked, and the verdict said. */
static int show_apdu(session *s, subcmd *c, const card_resp *r)
{
    const card_apdu *a = &s->b.cmd[c->first];
    fprintf(s->rep, "apdu: %02X ", r->len);
    card_print_hex(s->rep, r->data, r->len);
    fprintf(s->rep, "%s%04X\n", r->len ? " " : "", r->sw);
    const char *v = card_apdu_sign_verdict(s->p, a, r, s->hkey ? s->hpk : NULL);
    if (v)
        fprintf(s->rep, "apdu-sign: %s\n", v);
    return r->sw == CARD_SW_OK ? 0 : ST_INVALID;
}

static const command commands[] = {
    {"info", CARD_GET_INFO, add_one, show_info},      {"genkey", 0, add_genkey, show_ok},
    {"export-pk", 0, add_export, show_export},        {"put-key", 0, add_put, show_ok},
    {"sign", 0, add_sign, show_sign},                 {"verify", CARD_VERIFY, add_one, show_ok},
    {"counter", CARD_GET_COUNTER, add_one, show_word},
    {"cycles", CARD_GET_CYCLES, add_one, show_word}, {"apdu", 0, add_apdu, show_apdu},
};

/* ---- the session */

/* The subcommands argv[i..] into the batch (after the image is checked,
 * the PIN read and the state loaded). */
static int add_all(session *s, int argc, char **argv, int i)
{
    if (!(s->sc = calloc(s->nsc_cap = (size_t)argc, sizeof *s->sc)))
        return cli_fail("out of memory");
    while (i < argc) {
        subcmd *c = &s->sc[s->nsc];
        const command *cmd = NULL;
        for (size_t k = 0; k < sizeof commands / sizeof *commands; k++)
            if (!strcmp(argv[i], commands[k].name))
                cmd = &commands[k];
        if (!cmd)
            return cli_usage("unknown subcommand %s", argv[i]);
        c->cmd = cmd;
        c->name = argv[i++];
        c->prof = (size_t)-1;
        c->first = s->b.ncmd;
        s->nsc++; /* (counted first: put-key's key is wiped on every path) */
        int rc = cmd->add(s, c, argc, argv, &i);
        if (rc)
            return rc;
        c->count = s->b.ncmd - c->first;
        if (s->report && cmd->ins != CARD_GET_CYCLES) {
            c->prof = s->b.ncmd;
            card_add(&s->b, s->prof_ok ? CARD_GET_PROFILE : CARD_GET_CYCLES, 0, 0, NULL, 0);
        }
    }
    return 0;
}

/* The answers of subcommand c: a status other than 9000 or an answer of
 * the wrong length is a failure; then the host's view advances and the
 * subcommand shows its answers. */
static int show_one(session *s, subcmd *c, size_t *k0)
{
    card_batch *b = &s->b;
    int rc = card_check_answers(b, c->first, c->count, c->prof, s->m, s->n, c->name,
                                c->cmd->show == show_apdu);
    for (; *k0 < c->first + c->count; (*k0)++)
        card_state_track(&s->hs, &b->cmd[*k0], &b->resp[*k0]);
    if (s->hs.active && (memcmp(s->hs.sk, s->hsk, s->skb) != 0 || !s->hkey)) {
        memcpy(s->hsk, s->hs.sk, s->skb);
        s->hkey = card_host_pk(s->p, s->hsk, s->hpk);
    }
    if (rc)
        return rc;
    const card_resp *r = &b->resp[c->cmd->show == show_sign ? c->first + c->count - 1 : c->first];
    rc = c->cmd->show(s, c, r);
    if (c->prof != (size_t)-1)
        card_report_line(s->rep, b, c->name, c->cmd->show == show_sign, c->first, c->count,
                         c->prof, s->prof_ok, s->cpu, s->mhz);
    return rc;
}

/* Run the batch; store the card's new state before anything is released
 * (a failed save is a failed session); then every subcommand's answers. */
static int run_session(session *s, unsigned long long cut)
{
    card_batch *b = &s->b;
    size_t probe = s->cs.pending ? 0 : (size_t)-1;
    if (card_run(b) != 0)
        return ST_ERROR; /* card_run said why */
    /* a key install cut before its answer in a past session: settled by
     * the first segment, or the first signature */
    const int settled = card_state_settle(&s->cs, b, probe);
    card_state_resolve(&s->hs, settled);
    for (size_t k = 0; k < b->ncmd && k < b->nresp; k++)
        card_state_track(&s->cs, &b->cmd[k], &b->resp[k]);
    if (cut && b->nresp < b->ncmd) /* the command the cut stopped */
        card_state_cut(&s->cs, &b->cmd[b->nresp]);
    if (s->eeprom) {
        char err[512] = "";
        if (card_store_save(&store, &s->cs, s->xram, err, sizeof err) != 0)
            return cli_fail("cannot store the card's state, the session failed and its answers "
                            "are withheld: %s", err);
        release_store();
    }
    int status = settled == -1 ? ST_INVALID : 0;
    card_state_say_settle(s->rep, settled);
    card_print_watch(s->rep, b);
    if (cut) { /* a power cut: the state as it was left, no answer checked */
        fprintf(s->rep, "cut: after %llu instructions, %zu of %zu commands answered\n", cut,
                b->nresp, b->ncmd);
        if (s->eeprom && s->cs.pending)
            fprintf(s->rep, "cut: a key install before its answer: whether its key took is "
                    "settled at the next session on this state file\n");
        return 0;
    }
    if (!(s->hsk = calloc(1, s->skb)) || !(s->hpk = malloc(s->pkb)))
        return cli_fail("out of memory");
    if (s->hs.active) {
        memcpy(s->hsk, s->hs.sk, s->skb);
        s->hkey = card_host_pk(s->p, s->hsk, s->hpk);
    }
    size_t k0 = 0;
    for (size_t k = 0; k < s->nsc; k++) {
        int rc = show_one(s, &s->sc[k], &k0);
        if (rc > status)
            status = rc;
    }
    return status;
}

/* The options, the image, the PIN and the state, then the session; every
 * return after the first secret is read goes through main's clean-up. */
static int run(session *s, int argc, char **argv)
{
    devcli_opts o = {.dir = getenv("TTS_CARD_DIR")};
    const char *o_cpu = NULL, *o_watch = NULL, *o_cut = NULL, *o_mhz = NULL;
    int uart = 0, verbose = 0, i, watch_hits = 0, watch_read = 0, restored = 0;
    unsigned watch = 0;
    unsigned long long cut = 0;
    char ibuf[4096], err[512] = "";
    const cli_opt opts[] = {{"uart", 0, NULL, &uart}, {"verbose", 'v', NULL, &verbose},
                            {"cpu", 0, &o_cpu, NULL}, {"watch", 0, &o_watch, NULL},
                            {"cut", 0, &o_cut, NULL}, {"mhz", 0, &o_mhz, NULL},
                            CLI_OPT_END};
    s->cpu = "8032";
    s->mhz = 3.57;
    if ((i = devcli_parse(argc, argv, &o, opts)) < 0)
        return ST_ERROR;
    if (o.help)
        return card_usage(stdout), 0;
    if (o.version)
        return printf("tts-card (libtts) %s\n%s\n", tts_version(), TTS_BROKEN_NOTE), 0;
    const char *params = o.params ? o.params : "TTS(20,28)", *image = o.image;
    const char *eeprom = o.eeprom, *pinfile = o.pin, *dir = o.dir ? o.dir : CARD_IMAGE_DIR;
    s->report = o.report, out_raw = o.raw;
    out_force = o.force ? FILEIO_FORCE : 0;
    out_armor = o.armor ? TTS_FILE_ARMOR : 0;
    s->cpu = o_cpu ? o_cpu : s->cpu;
    if (o_watch && card_parse_watch(o_watch, &watch, &watch_hits, &watch_read))
        return cli_fail("bad --watch: %s", o_watch);
    if (o_cut && card_parse_cut(o_cut, &cut))
        return cli_fail("bad --cut (a count of instructions, 1 or more): %s", o_cut);
    if (o_mhz) {
        char *e;
        s->mhz = strtod(o_mhz, &e);
        if (*e || !(s->mhz > 0.001 && s->mhz < 1000))
            return cli_fail("bad --mhz: %s", o_mhz);
    }
    if (i >= argc)
        return cli_usage("no subcommand given");
    if (eeprom && !strcmp(eeprom, "-"))
        return cli_fail("--eeprom needs a file: the card's state is secret and is read back "
                        "next time, not a stream: -");
    if (strcmp(s->cpu, "8032") && strcmp(s->cpu, "DS320") && strcmp(s->cpu, "8051"))
        return cli_fail("--cpu must be 8032, DS320 or 8051: %s", s->cpu);
    if (sodium_init() < 0)
        return cli_fail("libsodium failed to initialise");
    if (!strcmp(argv[i], "report")) {
        const tts_params *only = NULL;
        if (i + 1 != argc)
            return cli_usage("report takes no arguments (give --params and --cpu before it): "
                             "'%s'", argv[i + 1]);
        if (o.params && !(only = tts_params_get(params)))
            return cli_fail("unknown parameter set: %s", params);
        return card_report_all(dir, s->mhz, verbose, only, o_cpu ? s->cpu : NULL);
    }
    if (!(s->p = tts_params_get(params)))
        return cli_fail("unknown parameter set: %s", params);
    s->m = tts_params_m(s->p), s->n = tts_params_n(s->p);
    s->skb = tts_sk_bytes(s->p), s->pkb = tts_pk_bytes(s->p);
    s->segk = 255 / s->m;
    s->nseg = (s->pkb / s->m + s->segk - 1) / s->segk;
    s->eeprom = eeprom;
    if (card_find_image(dir, s->p, s->cpu, image, ibuf, sizeof ibuf, &s->image) ||
        card_check_image(s->image, s->cpu, s->mhz, uart, s->p, &s->prof_ok))
        return ST_ERROR;
    /* secrets from here on: the PIN, the state file's key, put-key's */
    if (pinfile && card_read_pin(pinfile, s->pin, &s->pinlen))
        return ST_ERROR;
    if (!(s->xram = malloc(CARD_XRAM_BYTES)) || card_state_init(&s->cs, s->p) ||
        card_state_init(&s->hs, s->p))
        return cli_fail("out of memory");
    /* the state file: locked from here until the new state is stored */
    if (eeprom &&
        card_store_open(&store, eeprom, cli_prog, &s->cs, s->xram, &restored, err, sizeof err))
        return cli_fail("%s", err);
    card_state_copy(&s->hs, &s->cs);
    card_init(&s->b, s->image, s->cpu, s->mhz);
    s->b.uart = uart, s->b.verbose = verbose, s->b.cut = cut;
    s->b.watch = watch, s->b.watch_hits = watch_hits, s->b.watch_read = watch_read;
    s->b.xram_in = restored ? s->xram : NULL;
    s->b.xram_out = eeprom ? s->xram : NULL;
    /* a key install cut before its answer: which key took (run_session) */
    if (s->cs.pending)
        card_add(&s->b, CARD_GET_PK_SEGMENT, 0, 0, NULL, 0);
    int rc = add_all(s, argc, argv, i);
    if (rc)
        return rc;
    /* every input is read: no output may be one, nor be named twice (the
     * EEPROM file is the card's state, an output of its own) */
    fileio_note_input(s->image);
    for (size_t k = 0; k <= s->nsc; k++) {
        const char *out = k < s->nsc ? s->sc[k].out : eeprom;
        if (out && fileio_claim_output(out, k < s->nsc ? out_force : FILEIO_FORCE | FILEIO_INPLACE,
                                       err, sizeof err) != FILEIO_OK)
            return cli_fail("%s", err);
    }
    /* an object on standard output: the report to standard error, and
     * binary never to a terminal */
    if (s->to_stdout > 1)
        return cli_fail("one output at most may be standard output (-o -)");
    if (s->to_stdout && !out_armor && isatty(STDOUT_FILENO))
        return cli_fail("refusing to write binary data to a terminal; use -o FILE or --armor");
    s->rep = s->to_stdout ? stderr : stdout;
    return run_session(s, cut);
}

int main(int argc, char **argv)
{
    session s;
    memset(&s, 0, sizeof s);
    cli_prog = "tts-card";
    atexit(release_store);
    int status = run(&s, argc, argv);
    session_free(&s);
    return status;
}
