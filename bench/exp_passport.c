/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The ePassport experiment (exp_passport.h; docs/BENCH.md; its parts by
 * role: passport_int.h): per signature suite and run, the issuing state
 * sets up its PKI, the issuer makes one document (the chip's keys, the
 * data groups and their hashes, the security object), and an inspection
 * system reads it in one passage with the chip (PACE, Passive, Chip,
 * Terminal and Active Authentication). Every step is timed to its actor;
 * every signature is verified; a tampered data group and a tampered
 * security object must fail, every run. This file: the suites chosen, the
 * runs and their statistics. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "passport_int.h"

/* The statistics of every experiment (summarize(): quartiles by linear
 * interpolation between order statistics). */
#define QUARTILES(v, n, st) summarize(v, n, &(st))

int cmd_passport(const passport_opts *po, FILE *out, outputs *o, const char *autob)
{
    pp_result res[PP_MAX_SUITES];
    size_t n = 0;
    skiplist absent = {.n = 0};
    memset(res, 0, sizeof res);
    for (size_t i = 0; i < PP_MAX_SUITES; i++) {
        int want = po->nsuites == 0;
        for (size_t j = 0; j < po->nsuites; j++)
            want |= strcasecmp(po->suite[j], pp_suites[i].name) == 0;
        if (!want)
            continue;
        if (!pp_suite_available(&pp_suites[i])) {
            skip(&absent, pp_suites[i].name,
                 "built without PQClean (build-aux/pqclean.sh fetch, then configure)");
            continue;
        }
        pp_result *r = &res[n++];
        r->s = &pp_suites[i];
        r->id = (int)i + 1;
        if (r->s->kind == K_TTS) {
            r->p = tts_params_get(r->s->name);
            snprintf(r->backend, sizeof r->backend, "%s", autob);
            r->image = po->card ? po->card->image(po->card->ctx, r->p) : NULL;
            r->on_card = r->image != NULL;
        } else {
            snprintf(r->backend, sizeof r->backend, "%s", r->s->lib);
        }
    }
    env e;
    get_env(&e, autob);
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++)
        for (int s = 0; s < PS_N && !rc; s++) {
            if (s >= PS_CARD_CHIP && !res[k].on_card)
                continue;
            rc = !(res[k].ns[s] = calloc(po->runs, sizeof(uint64_t)));
            if (!rc && s == PS_CARD_CHIP)
                rc = !(res[k].cycles = calloc(po->runs, sizeof(uint64_t)));
        }
    pp_run r;
    memset(&r, 0, sizeof r);
    progress pr;
    progress_start(&pr);
    /* runs outer, suites round-robin within a run: no suite is always the
     * first to touch the inputs */
    for (size_t run = 0; run < po->runs && !rc; run++) {
        for (size_t k = 0; k < n && !rc; k++) {
            rc = pp_one_run(&res[k], &r, po, run) != 0;
            pp_run_clear(&r);
        }
        char text[64];
        snprintf(text, sizeof text, "passport: run %zu/%zu", run + 1, po->runs);
        progress_show(&pr, text);
    }
    progress_end(&pr);
    size_t inbytes[PP_NINPUTS];
    for (int i = 0; i < PP_NINPUTS; i++) {
        inbytes[i] = r.inlen[i];
        free(r.in[i]);
    }
    for (size_t k = 0; k < n && !rc; k++) {
        for (int s = 0; s < PS_N && !rc; s++)
            rc = res[k].ns[s] && QUARTILES(res[k].ns[s], res[k].done, res[k].st[s]);
        if (!rc && res[k].cycles)
            rc = QUARTILES(res[k].cycles, res[k].done, res[k].stc);
    }
    if (rc) {
        outputs_discard(o);
    } else {
        pp_print_text(out, res, n, po, &e, inbytes, &absent);
        fflush(out);
        if (o->jf) {
            json_head(o->jf, "passport", 0, po->runs, &e, &absent, NULL);
            pp_json_report(o->jf, res, n, po, inbytes);
            rc |= json_end(o->jf, o->json);
        }
        if (o->cf) {
            csv_head(o->cf, "passport", 0, po->runs, &e, &absent, NULL);
            pp_csv_report(o->cf, res, n);
            rc |= csv_end(o->cf, o->csv);
        }
        if (o->plot)
            rc |= pp_plot_report(o->plot, res, n, po, &e);
    }
    for (size_t k = 0; k < n; k++) {
        for (int s = 0; s < PS_N; s++)
            free(res[k].ns[s]);
        free(res[k].cycles);
    }
    return rc ? 1 : 0;
}
