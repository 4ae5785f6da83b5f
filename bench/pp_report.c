/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The ePassport experiment's reports (passport_int.h): text, JSON, CSV and
 * the charts. */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "passport_int.h"

static double ms(double ns) { return ns / 1e6; }

static const pp_result *find(const pp_result *v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].s->name, name) == 0)
            return &v[i];
    return NULL;
}

/* The study's own sample figures (ms), as it publishes them: "ePassport
 * Issuance PQC Benchmark", a Python tool over liboqs (liboqs-python) and
 * Python cryptography, run on an Intel x86-64 laptop; docs/SPEC.md
 * section 12.5. The study names no SLH-DSA parameter set: measured here
 * as SPHINCS+-SHA2-128f, whose signing time is of its order. */
static const struct {
    const char *suite, *here, *source;
} published_src[] = {
    {"ECDSA", "ECDSA-P-256", "the study's classic suite (Python cryptography)"},
    {"ML-DSA-44", "ML-DSA-44", "the study's pqc-dilithium suite (liboqs)"},
    {"SLH-DSA", "SPHINCS+-SHA2-128f", "the study's pqc-sphincs suite (liboqs; set not named)"},
};
static const double published_ms[][3] = {{0.12, 0.08, 1.6}, {0.19, 0.07, 3.8}, {19, 1.2, 89}};
static const char study[] = "ePassport Issuance PQC Benchmark (Python over liboqs and "
                            "Python cryptography, Intel x86-64 laptop; its sample figures)";
static const char caveat[] =
    "the study's stack is Python over liboqs (Open Quantum Safe) on an Intel x86-64 laptop, "
    "with its own inputs and step boundaries; here C over OpenSSL, libsodium, libtts and "
    "PQClean. Compare orders of magnitude and ratios within one run, not absolute figures.";

static const char transfer_model[] =
    "ISO 14443 Type A, 9 bits a byte; READ BINARY in 223-byte chunks, 24 B of command and "
    "21 B of answer overhead per chunk (secure messaging, ISO 14443-4 framing); wire time "
    "only";

static void print_head(FILE *f, const pp_result *v, size_t n, const passport_opts *po,
                       const env *e, const size_t *inbytes, const skiplist *absent)
{
    char clk[256];
    env_clock_text(e, clk, sizeof clk);
    fprintf(f, "# cpu: %s (%ld cores); compiler: %s; %s\n# cpu id: %s\n", e->cpu, e->cores,
            COMPILER, e->os, clk);
    fprintf(f, "# %s; libsodium %s; libtts %s, backend %s; %s%s\n",
            OpenSSL_version(OPENSSL_VERSION), sodium_version_string(), TTS_VERSION_STRING,
            e->autob, bench_have_pqclean() ? "PQClean (pqclean 0.8.1); " : "", e->date);
    fprintf(f, "# status: %s\n", TTS_BROKEN_NOTE);
    fprintf(f, "# a TTS suite's DS and AA keys come out of the DS certificate and DG15 with "
               "`tts-challenge break --pk` (TTS(20,28): under 0.1 s; TTS(36,50): minutes; "
               "docs/SECURITY.md)\n");
    for (size_t i = 0; i < absent->n; i++)
        fprintf(f, "# skipped: %s\n", absent->v[i]);
    fprintf(f, "# inputs:");
    for (int i = 0; i < PP_NINPUTS; i++)
        fprintf(f, " %s %zu B (%s)%s", pp_input_names[i], inbytes[i],
                po->given[i] ? po->input[i] : "synthetic", i + 1 < PP_NINPUTS ? "," : "\n");
    fprintf(f, "# document hash: %s for every suite (--hash): data groups, SOD, key ids; each "
               "signature hashes as its scheme does\n",
            pp_hash_names[po->hash]);
    fprintf(f, "# every signature verified; in every run a tampered DG2 failed Passive "
               "Authentication and a tampered SOD its signature check\n");
    fprintf(f, "# CA and PACE: X25519 (libsodium) for every suite; contactless transfer "
               "model: %s\n",
            transfer_model);
    fprintf(f, "# steps (actor; what):\n");
    for (int s = 0; s < PS_N; s++)
        if (s < PS_CARD_CHIP || po->card)
            fprintf(f, "#   %-17s %-8s %s\n", ps_name[s], role_name[ps_role[s]], ps_what[s]);
    (void)v, (void)n;
}

static void print_card(FILE *f, const pp_result *v, size_t n, const passport_opts *po)
{
    fprintf(f, "\nActive Authentication on the card (%s core, %g MHz, %dT, in the "
               "simulator) beside the host, medians:\n",
            po->card->cpu, po->card->mhz, po->card->clocks);
    fprintf(f, "%-19s %-22s %12s %12s %14s %12s %12s\n", "suite", "image", "SIGN cycles",
            "card ms", "terminal ms", "card AA ms", "host AA ms");
    for (size_t k = 0; k < n; k++) {
        const pp_result *r = &v[k];
        double host = r->st[PS_AA_C].med + r->st[PS_AA_T].med;
        if (!r->on_card) {
            fprintf(f, "%-19s %-22s %12s %12s %14s %12s %12.4f\n", r->s->name, "(host only)",
                    "-", "-", "-", "-", ms(host));
            continue;
        }
        fprintf(f, "%-19s %-22s %12.0f %12.2f %14.4f %12.2f %12.4f\n", r->s->name, r->image,
                r->stc.med, ms(r->st[PS_CARD_CHIP].med), ms(r->st[PS_CARD_TERMINAL].med),
                ms(r->st[PS_CARD_CHIP].med + r->st[PS_CARD_TERMINAL].med), ms(host));
    }
    fprintf(f, "where: the chip's signature on the card (simulated time = SIGN's machine "
               "cycles x %d / %g MHz); the terminal's part and every other step on the host\n",
            po->card->clocks, po->card->mhz);
}

static void print_published(FILE *f, const pp_result *v, size_t n)
{
    fprintf(f, "\npublished beside this run, ms; source: %s\n", study);
    fprintf(f, "%-10s %8s %8s %9s | %-19s %8s %8s %9s  %s\n", "suite", "sign", "verify",
            "pipeline", "here", "sign", "verify", "issuer", "source");
    for (size_t i = 0; i < COUNT(published_src); i++) {
        const pp_result *r = find(v, n, published_src[i].here);
        fprintf(f, "%-10s %8.2f %8.2f %9.1f | ", published_src[i].suite, published_ms[i][0],
                published_ms[i][1], published_ms[i][2]);
        if (r)
            fprintf(f, "%-19s %8.4f %8.4f %9.4f", r->s->name, ms(r->st[PS_SIGN].med),
                    ms(r->st[PS_PA_SOD].med), ms(r->st[PS_TOT_ISSUER].med));
        else
            fprintf(f, "%-19s %8s %8s %9s", published_src[i].here, "-", "-", "(not run)");
        fprintf(f, "  %s\n", published_src[i].source);
    }
    fprintf(f, "here: sign = the SOD's signature, verify = its verification, issuer = the "
               "issuer's steps per document\ncaveat: %s\n",
            caveat);
}

void pp_print_text(FILE *f, const pp_result *v, size_t n, const passport_opts *po, const env *e,
                   const size_t *inbytes, const skiplist *absent)
{
    print_head(f, v, n, po, e, inbytes, absent);
    fprintf(f, "\ntimes in ms: median, quartiles and extremes of %zu runs\n", po->runs);
    for (size_t k = 0; k < n; k++) {
        const pp_result *r = &v[k];
        fprintf(f, "\n%s (%s): DS key %zu B, SOD signature %zu B, DS certificate %zu B, SOD "
                   "%zu B, DG15 %zu B\n",
                r->s->name, r->backend, r->pk_bytes[1], r->sig_bytes, r->cert_bytes,
                r->sod_bytes, r->dg_bytes[DG15]);
        fprintf(f, "  %-17s %-8s %-5s %11s %11s %11s %11s %11s\n", "step", "actor", "where",
                "median", "q1", "q3", "min", "max");
        for (int s = 0; s < PS_N; s++) {
            if (!r->ns[s])
                continue;
            fprintf(f, "  %-17s %-8s %-5s %11.4f %11.4f %11.4f %11.4f %11.4f\n", ps_name[s],
                    role_name[ps_role[s]], s == PS_CARD_CHIP ? "card" : "host", ms(r->st[s].med),
                    ms(r->st[s].q1), ms(r->st[s].q3), ms(r->st[s].min), ms(r->st[s].max));
        }
    }
    fprintf(f, "\ntotals per actor, medians in ms (the issuing state's PKI once; the issuer per "
               "document; the inspection system and the chip per passage, the chip's part on "
               "the host's CPU)\n");
    fprintf(f, "%-19s %12s %12s %12s %12s\n", "suite", "PKI once", "issuer/doc", "terminal",
            "chip");
    for (size_t k = 0; k < n; k++)
        fprintf(f, "%-19s %12.4f %12.4f %12.4f %12.4f\n", v[k].s->name,
                ms(v[k].st[PS_TOT_ONCE].med), ms(v[k].st[PS_TOT_ISSUER].med),
                ms(v[k].st[PS_TOT_TERMINAL].med), ms(v[k].st[PS_TOT_CHIP].med));
    fprintf(f, "\nwhat travels: bytes, and the time to read DG15 and EF.SOD (the SOD with the "
               "DS certificate in it) over the contactless interface, ms\n");
    fprintf(f, "%-19s %7s %7s %9s %8s %8s | %9s %9s %9s\n", "suite", "SOD sig", "DS cert",
            "EF.SOD", "DG15", "TA in", "106 kb/s", "424 kb/s", "848 kb/s");
    for (size_t k = 0; k < n; k++) {
        const pp_result *r = &v[k];
        size_t sent = r->sod_bytes + r->cert_bytes, rd = sent + r->dg_bytes[DG15];
        fprintf(f, "%-19s %7zu %7zu %9zu %8zu %8zu |", r->s->name, r->sig_bytes, r->cert_bytes,
                sent, r->dg_bytes[DG15], r->ta_bytes);
        for (size_t i = 0; i < COUNT(pp_rates); i++)
            fprintf(f, " %9.1f", pp_transfer_ms(rd, pp_rates[i]));
        fprintf(f, "\n");
    }
    fprintf(f, "TA in: what the chip receives in Terminal Authentication (the DV and IS "
               "certificates and the terminal's signature)\n");
    if (po->card)
        print_card(f, v, n, po);
    if (po->published)
        print_published(f, v, n);
}

static void json_q(FILE *f, const double *med, const double *q1, const double *q3,
                   const double *min, const double *max, const double *mean)
{
    fprintf(f, "{\"median\": %.1f, \"q1\": %.1f, \"q3\": %.1f, \"min\": %.1f, \"max\": %.1f, "
               "\"mean\": %.1f}",
            *med, *q1, *q3, *min, *max, *mean);
}
#define JSON_Q(f, st) json_q(f, &(st).med, &(st).q1, &(st).q3, &(st).min, &(st).max, &(st).mean)

static void json_u64(FILE *f, const uint64_t *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)v[i]);
    fputc(']', f);
}

static void json_bytes(FILE *f, const pp_result *r)
{
    size_t sent = r->sod_bytes + r->cert_bytes;
    fprintf(f, "     \"bytes\": {\"csca_pk\": %zu, \"ds_pk\": %zu, \"aa_pk\": %zu, "
               "\"signature\": %zu, \"certificate\": %zu, \"sod\": %zu, \"sod_sent\": %zu, "
               "\"ta_to_chip\": %zu, \"dg\": [",
            r->pk_bytes[0], r->pk_bytes[1], r->pk_bytes[2], r->sig_bytes, r->cert_bytes,
            r->sod_bytes, sent, r->ta_bytes);
    for (int i = 0; i < PP_NDG; i++)
        fprintf(f, "%s%zu", i ? ", " : "", r->dg_bytes[i]);
    fprintf(f, "]},\n     \"read_ms\": {");
    for (size_t i = 0; i < COUNT(pp_rates); i++)
        fprintf(f, "%s\"kbps_%.0f\": %.3f", i ? ", " : "", pp_rates[i],
                pp_transfer_ms(sent + r->dg_bytes[DG15], pp_rates[i]));
    fprintf(f, "},\n");
}

static void json_published(FILE *f, const pp_result *v, size_t n)
{
    fprintf(f, ",\n  \"published\": {\"source\": ");
    json_write_str(f, study);
    fprintf(f, ", \"caveat\": ");
    json_write_str(f, caveat);
    fprintf(f, ", \"rows\": [");
    for (size_t i = 0; i < COUNT(published_src); i++) {
        const pp_result *r = find(v, n, published_src[i].here);
        fprintf(f, "%s\n    {\"suite\": \"%s\", \"measured_as\": \"%s\", \"source\": ", i ? "," : "",
                published_src[i].suite, published_src[i].here);
        json_write_str(f, published_src[i].source);
        fprintf(f, ", \"sign_ms\": %.6g, \"verify_ms\": %.6g, \"pipeline_ms\": %.6g, "
                   "\"today_ms\": ",
                published_ms[i][0], published_ms[i][1], published_ms[i][2]);
        if (r)
            fprintf(f, "{\"sign\": %.6g, \"verify\": %.6g, \"issuer\": %.6g}",
                    ms(r->st[PS_SIGN].med), ms(r->st[PS_PA_SOD].med),
                    ms(r->st[PS_TOT_ISSUER].med));
        else
            fprintf(f, "null");
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]}");
}

void pp_json_report(FILE *f, const pp_result *v, size_t n, const passport_opts *po,
                    const size_t *inbytes)
{
    fprintf(f, ",\n  \"quartiles\": \"linear interpolation between order statistics (type 7)\"");
    fprintf(f, ",\n  \"hash\": \"%s\",\n  \"transfer_model\": ", pp_hash_names[po->hash]);
    json_write_str(f, transfer_model);
    fprintf(f, ",\n  \"inputs\": [");
    for (int i = 0; i < PP_NINPUTS; i++) {
        fprintf(f, "%s\n    {\"name\": \"%s\", \"bytes\": %zu, \"file\": ", i ? "," : "",
                pp_input_names[i], inbytes[i]);
        if (po->given[i])
            json_write_str(f, po->input[i]);
        else
            fprintf(f, "null");
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"steps\": [");
    for (int s = 0; s < PS_N; s++) {
        fprintf(f, "%s\n    {\"step\": \"%s\", \"role\": \"%s\", \"what\": ", s ? "," : "",
                ps_name[s], role_name[ps_role[s]]);
        json_write_str(f, ps_what[s]);
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"card\": ");
    if (po->card)
        fprintf(f, "{\"cpu\": \"%s\", \"mhz\": %g, \"clocks_per_cycle\": %d}", po->card->cpu,
                po->card->mhz, po->card->clocks);
    else
        fprintf(f, "null");
    fprintf(f, ",\n  \"results\": [");
    for (size_t k = 0; k < n; k++) {
        const pp_result *r = &v[k];
        fprintf(f, "%s\n    {\"suite\": \"%s\", \"family\": \"%s\", \"backend\": \"%s\", "
                   "\"hash\": \"%s\", \"runs\": %zu,\n",
                k ? "," : "", r->s->name, r->s->family, r->backend, pp_hash_names[po->hash],
                r->done);
        json_bytes(f, r);
        fprintf(f, "     \"verified\": true, \"tamper_rejected\": true,\n     \"card\": ");
        if (r->on_card) {
            fprintf(f, "{\"image\": ");
            json_write_str(f, r->image);
            fprintf(f, ", \"sign_cycles\": ");
            JSON_Q(f, r->stc);
            fprintf(f, ", \"sign_cycles_per_run\": ");
            json_u64(f, r->cycles, r->done);
            fprintf(f, "}");
        } else {
            fprintf(f, "null");
        }
        fprintf(f, ",\n     \"steps\": {");
        for (int s = 0, first = 1; s < PS_N; s++) {
            if (!r->ns[s])
                continue;
            fprintf(f, "%s\n       \"%s\": {\"where\": \"%s\", \"ns\": ", first ? "" : ",",
                    ps_name[s], s == PS_CARD_CHIP ? "card" : "host");
            JSON_Q(f, r->st[s]);
            fprintf(f, ", \"ns_per_run\": ");
            json_u64(f, r->ns[s], r->done);
            fprintf(f, "}");
            first = 0;
        }
        fprintf(f, "}}");
    }
    fprintf(f, "\n  ]");
    if (po->published)
        json_published(f, v, n);
}

/* Long form: suite, family, backend, step, actor, where, row (min, q1,
 * median, q3, max, mean, then the runs 1..N), ns, and cycles on the
 * card's rows. */
void pp_csv_report(FILE *f, const pp_result *v, size_t n)
{
    static const char *const agg[6] = {"min", "q1", "median", "q3", "max", "mean"};
    fprintf(f, "suite,family,backend,step,actor,where,row,ns,cycles\n");
    for (size_t k = 0; k < n; k++) {
        const pp_result *r = &v[k];
        for (int s = 0; s < PS_N; s++) {
            if (!r->ns[s])
                continue;
            const double a[6] = {r->st[s].min, r->st[s].q1,  r->st[s].med,
                                 r->st[s].q3,  r->st[s].max, r->st[s].mean};
            const double c[6] = {r->stc.min, r->stc.q1,  r->stc.med,
                                 r->stc.q3,  r->stc.max, r->stc.mean};
            for (size_t row = 0; row < 6 + r->done; row++) {
                fprintf(f, "\"%s\",%s,%s,%s,%s,%s,", r->s->name, r->s->family, r->backend,
                        ps_name[s], role_name[ps_role[s]], s == PS_CARD_CHIP ? "card" : "host");
                if (row < 6)
                    fprintf(f, "%s,%.1f,", agg[row], a[row]);
                else
                    fprintf(f, "%zu,%llu,", row - 5, (unsigned long long)r->ns[s][row - 6]);
                if (s == PS_CARD_CHIP && row < 6)
                    fprintf(f, "%.1f", c[row]);
                else if (s == PS_CARD_CHIP)
                    fprintf(f, "%llu", (unsigned long long)r->cycles[row - 6]);
                fprintf(f, "\n");
            }
        }
    }
}

/* One chart: a group per row of steps[], a bar per suite (median, the
 * quartiles as error bars), ms on a log axis; labels[] the groups' names. */
static int plot_chart(const char *dir, const char *name, const char *title, const int *steps,
                      const char *const *labels, size_t nsteps, const pp_result *v, size_t n,
                      const passport_opts *po, const env *e)
{
    char dat[64], gp[64];
    snprintf(dat, sizeof dat, "%s.dat", name);
    snprintf(gp, sizeof gp, "%s.gp", name);
    FILE *f = plot_stream(dir, dat);
    if (!f)
        return -1;
    fprintf(f, "# tts-bench passport: %s; per suite median, q1, q3 in ms (? = none)\n", title);
    for (size_t i = 0; i < nsteps; i++) {
        fprintf(f, "\"%s\"", labels[i]);
        for (size_t k = 0; k < n; k++) {
            const pp_result *r = &v[k];
            if (r->ns[steps[i]])
                fprintf(f, " %.6f %.6f %.6f", ms(r->st[steps[i]].med), ms(r->st[steps[i]].q1),
                        ms(r->st[steps[i]].q3));
            else
                fprintf(f, " ? ? ?");
        }
        fprintf(f, "\n");
    }
    if (plot_stream_close(f, dir, dat) || !(f = plot_stream(dir, gp)))
        return -1;
    fprintf(f, "# tts-bench passport: %s.\n# Data in %s; charts %s.svg, .png and .pdf. "
               "Re-run: gnuplot %s\n"
               "set datafile missing \"?\"\n"
               "set title \"%s\\nmedian of %zu runs, quartiles as error bars; ",
            title, dat, name, gp, title, po->runs);
    for (const char *c = e->where; *c; c++)
        if (*c != '"' && *c != '\\')
            fputc(*c, f);
    fprintf(f, ", %s\"\n"
               "set style data histograms\n"
               "set style histogram errorbars gap 2 lw 1\n"
               "set style fill solid 0.85 border -1\n"
               "set logscale y\n"
               "set ylabel \"time, ms (log scale)\"\n"
               "set xtics rotate by -30 scale 0 nomirror\n"
               "set grid ytics\n"
               "set key outside right top title \"suite\"\n"
               "set bmargin 8\n",
            e->date);
    /* eleven suites: gnuplot's default cycle of eight colours would repeat */
    static const char *const colour[PP_MAX_SUITES] = {
        "#9400d3", "#009e73", "#56b4e9", "#e69f00", "#f0e442", "#0072b2",
        "#e51e10", "#000000", "#a0522d", "#7f7f7f", "#ff69b4"};
    for (size_t k = 0; k < PP_MAX_SUITES; k++)
        fprintf(f, "set linetype %zu lc rgb \"%s\"\n", k + 1, colour[k]);
    plot_terminals(f, 1400, 700);
    fprintf(f, "  set output \"%s.\" . fmt\n  plot ", name);
    for (size_t k = 0; k < n; k++)
        fprintf(f, "%s\"%s\" using %zu:%zu:%zu%s title \"%s%s\"", k ? ", \\\n    " : "", dat,
                2 + 3 * k, 3 + 3 * k, 4 + 3 * k, k ? "" : ":xtic(1)", v[k].s->name,
                broken_mark(v[k].s->name));
    fprintf(f, "\n  set output\n}\n");
    if (plot_stream_close(f, dir, gp))
        return -1;
    return plot_render(dir, gp, dat);
}

/* Three charts, one unit each (ms): the totals per actor, the steps of a
 * passage, and with --card the card's own panel (simulated time beside
 * the host's Active Authentication, never on the host's axis). */
int pp_plot_report(const char *dir, const pp_result *v, size_t n, const passport_opts *po,
                   const env *e)
{
    static const int tot[] = {PS_TOT_ONCE, PS_TOT_ISSUER, PS_TOT_TERMINAL, PS_TOT_CHIP};
    static const char *const tot_l[] = {"issuing state's PKI, once", "issuer, per document",
                                        "inspection system, per passage",
                                        "chip, per passage (host CPU)"};
    static const int pas[] = {PS_SIGN,  PS_DECODE, PS_PA_CERT, PS_PA_SOD,
                              PS_PA_DG, PS_TA_T,   PS_TA_C,    PS_AA_C,
                              PS_AA_T};
    static const char *const pas_l[] = {
        "issuer: SOD signed",     "inspection: keys decoded",
        "inspection: DS cert checked", "inspection: SOD verified",
        "inspection: DGs re-hashed",   "inspection: TA signature",
        "chip: TA chain + signature",  "chip: AA signature",
        "inspection: AA verified"};
    static const int card[] = {PS_CARD_CHIP, PS_CARD_TERMINAL, PS_AA_C};
    static const char *const card_l[] = {"card: SIGN (simulated)", "terminal: AA on the host",
                                         "host: AA signature"};
    int rc = plot_chart(dir, "passport", "tts-bench passport: totals per actor", tot, tot_l,
                        COUNT(tot), v, n, po, e);
    rc |= plot_chart(dir, "passport-steps", "tts-bench passport: the signature steps", pas,
                     pas_l, COUNT(pas), v, n, po, e);
    if (po->card) {
        /* the card's panel: only the suites it ran */
        pp_result on[PP_MAX_SUITES];
        size_t m = 0;
        for (size_t k = 0; k < n; k++)
            if (v[k].on_card)
                on[m++] = v[k];
        rc |= plot_chart(dir, "passport-card",
                         "tts-bench passport: Active Authentication on the card", card, card_l,
                         COUNT(card), on, m, po, e);
    }
    return rc ? -1 : 0;
}
