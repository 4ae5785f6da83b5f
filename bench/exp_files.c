/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* The file-signing experiment of section E (the national-eID study):
 * files of 1 KB ... 10 MB written to a temporary folder, read back for
 * every run and signed, the time split into hashing and the private-key
 * operation; every signature verified, untimed. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "harness.h"

const size_t file_sizes[8] = {1u << 10, 10u << 10, 50u << 10, 100u << 10,
                              1u << 20, 2u << 20,  5u << 20,  10u << 20};
const size_t quick_sizes[3] = {1u << 10, 100u << 10, 1u << 20};

/* The temporary input folder of the host (bench_io): removed on every exit
 * path, also on SIGINT, SIGTERM and SIGHUP. */
static char tmp_dir[4096];
static char tmp_file[MAX_FILES][4096 + 32];

static void tmp_remove(void)
{
    if (tmp_dir[0])
        bench_io_get()->temp_done(tmp_dir, 1);
    tmp_dir[0] = '\0';
}

/* The inputs: file i is the ChaCha20 keystream (libsodium
 * crypto_stream_chacha20, original 64-bit-nonce variant) under the all-zero
 * key with the size, little-endian, as nonce: deterministic and
 * incompressible, so anyone can recreate it. */
static int make_inputs(const file_list *fl, uint8_t *buf)
{
    char err[512];
    if (bench_io_get()->temp_dir(tmp_dir, sizeof tmp_dir, "tts-bench", err, sizeof err) != 0) {
        tmp_dir[0] = '\0';
        fprintf(stderr, "tts-bench: %s\n", err);
        return -1;
    }
    static const uint8_t key[crypto_stream_chacha20_KEYBYTES];
    for (size_t i = 0; i < fl->nsizes; i++) {
        uint8_t nonce[crypto_stream_chacha20_NONCEBYTES] = {0};
        for (size_t b = 0; b < sizeof nonce && b < sizeof(size_t); b++)
            nonce[b] = (uint8_t)(fl->sizes[i] >> (8 * b));
        snprintf(tmp_file[i], sizeof tmp_file[i], "%s/input-%zu", tmp_dir, fl->sizes[i]);
        crypto_stream_chacha20(buf, fl->sizes[i], nonce, key);
        FILE *f = fopen(tmp_file[i], "wb");
        if (!f || fwrite(buf, 1, fl->sizes[i], f) != fl->sizes[i] || fclose(f) != 0) {
            fprintf(stderr, "tts-bench: writing %s: %s\n", tmp_file[i], strerror(errno));
            return -1;
        }
    }
    return 0;
}

static int read_input(const char *path, uint8_t *buf, size_t want)
{
    int fd = open(path, O_RDONLY);
    size_t got = 0;
    if (fd < 0) {
        fprintf(stderr, "tts-bench: %s: %s\n", path, strerror(errno));
        return -1;
    }
    while (got < want) {
        ssize_t r = read(fd, buf + got, want - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (got != want) {
        fprintf(stderr, "tts-bench: %s: read %zu of %zu bytes\n", path, got, want);
        return -1;
    }
    return 0;
}

/* Sizes outer, runs inner, schemes round-robin within a run: each scheme
 * reads the file back itself, and no scheme is always the first to touch
 * a fresh size. No warm-up: as in the eID study, run 1 is reported as is,
 * so first-run effects show in the per-run times and in "worst". */
static int run_files(file_list *fl, uint8_t *buf)
{
    progress pr;
    progress_start(&pr);
    for (size_t i = 0; i < fl->nsizes; i++) {
        size_t len = fl->sizes[i];
        for (size_t k = 0; k < fl->n; k++) {
            fseries *r = &fl->v[k].res[i];
            r->bytes = len;
            for (int st = 0; st < N_STEPS; st++) {
                if ((st == ST_HASH || st == ST_SIGN) && !fl->v[k].k->hash)
                    continue;
                r->ns[st] = calloc(fl->runs, sizeof *r->ns[st]);
                if (!r->ns[st])
                    return -1;
            }
        }
        for (size_t run = 0; run < fl->runs; run++) {
            for (size_t k = 0; k < fl->n; k++) {
                fscheme *fs = &fl->v[k];
                fseries *r = &fs->res[i];
                if (fs->k->max_runs && run >= fs->k->max_runs)
                    continue;
                uint64_t t0 = now_ns();
                if (read_input(tmp_file[i], buf, len))
                    return -1;
                uint64_t t1 = now_ns();
                if (fs->k->hash && fs->k->hash(fs, buf, len)) {
                    fprintf(stderr, "tts-bench: %s: hashing failed\n", fs->k->name);
                    return -1;
                }
                uint64_t t2 = now_ns();
                if (fs->k->sign(fs, buf, len)) {
                    fprintf(stderr, "tts-bench: %s: signing failed\n", fs->k->name);
                    return -1;
                }
                uint64_t t3 = now_ns();
                if (fs->k->verify(fs, buf, len)) {
                    fprintf(stderr,
                            "tts-bench: %s: the signature of the %zu-byte file does not "
                            "verify: no timing reported\n",
                            fs->k->name, len);
                    return -1;
                }
                r->ns[ST_READ][run] = t1 - t0;
                r->ns[ST_TOTAL][run] = t3 - t1;
                if (fs->k->hash) {
                    r->ns[ST_HASH][run] = t2 - t1;
                    r->ns[ST_SIGN][run] = t3 - t2;
                }
                r->done++;
            }
            char text[128], sz[24];
            size_label(sz, sizeof sz, len);
            snprintf(text, sizeof text, "files: %s (size %zu/%zu), run %zu/%zu", sz, i + 1,
                     fl->nsizes, run + 1, fl->runs);
            progress_show(&pr, text);
        }
        for (size_t k = 0; k < fl->n; k++) {
            fseries *r = &fl->v[k].res[i];
            for (int st = 0; st < N_STEPS; st++)
                if (r->ns[st] && summarize(r->ns[st], r->done, &r->st[st]))
                    return -1;
        }
    }
    progress_end(&pr);
    return 0;
}

static void print_files(const file_list *fl, const env *e)
{
    print_env(e, fl->runs, "file size and scheme");
    printf("# files: ChaCha20 stream (zero key, nonce = size) in $TMPDIR, read back for every "
           "run; KB = 1024 B, MB = 1024 KB\n");
    printf("# every signature verified (untimed) over the whole file: tts_verify,"
           " EVP_DigestVerify, crypto_sign_ed25519ph_final_verify, crypto_sign_verify_detached,"
           " PQClean's crypto_sign_verify\n");
    for (size_t i = 0; i < fl->skipped.n; i++)
        printf("# skipped: %s\n", fl->skipped.v[i]);
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        printf("# %s (%s): hash = %s; private-key op = %s", fs->k->name, fs->backend,
               fs->k->hash_step ? fs->k->hash_step : "(not split)", fs->k->sign_step);
        if (fs->k->max_runs && fs->k->max_runs < fl->runs)
            printf("; the first %zu runs only", fs->k->max_runs);
        printf("\n");
    }
    printf("\ntimes in ms: best / average / worst of %zu runs (run 1 included, no warm-up;"
           " fewer where a row says so)\n",
           fl->runs);
    printf("%-18s %6s | %9s %9s %9s | %9s %9s %9s | %9s %9s %9s | %9s %8s\n", "scheme", "size",
           "hash", "", "", "key op", "", "", "total", "", "", "run 1", "read");
    printf("%-18s %6s | %9s %9s %9s | %9s %9s %9s | %9s %9s %9s | %9s %8s\n", "", "", "best",
           "avg", "worst", "best", "avg", "worst", "best", "avg", "worst", "total", "avg");
    for (size_t k = 0; k < fl->n; k++) {
        const fscheme *fs = &fl->v[k];
        for (size_t i = 0; i < fl->nsizes; i++) {
            const fseries *r = &fs->res[i];
            char lab[24];
            size_label(lab, sizeof lab, r->bytes);
            printf("%-18s %6s |", fs->k->name, lab);
            for (int st = ST_HASH; st <= ST_TOTAL; st++) {
                if (r->ns[st])
                    printf(" %9.4f %9.4f %9.4f |", r->st[st].min / 1e6, r->st[st].mean / 1e6,
                           r->st[st].max / 1e6);
                else
                    printf(" %9s %9s %9s |", "-", "-", "-");
            }
            printf(" %9.4f %8.4f\n", (double)r->ns[ST_TOTAL][0] / 1e6, r->st[ST_READ].mean / 1e6);
        }
    }
    /* The eID study writes every run out; wide for many runs, so then only
     * the reports carry them. */
    if (fl->runs > 12) {
        printf("\nper-run times: in the --json and --csv reports\n");
        return;
    }
    printf("\nper-run total (hash + private-key op), ms, run 1 first\n");
    for (size_t k = 0; k < fl->n; k++)
        for (size_t i = 0; i < fl->nsizes; i++) {
            const fseries *r = &fl->v[k].res[i];
            char lab[24];
            size_label(lab, sizeof lab, r->bytes);
            printf("%-18s %6s |", fl->v[k].k->name, lab);
            for (size_t run = 0; run < r->done; run++)
                printf(" %8.4f", (double)r->ns[ST_TOTAL][run] / 1e6);
            printf("\n");
        }
}

int cmd_files(size_t runs, int quick, outputs *o, const char *autob)
{
    file_list fl;
    memset(&fl, 0, sizeof fl);
    fl.sizes = quick ? quick_sizes : file_sizes;
    fl.nsizes = quick ? COUNT(quick_sizes) : COUNT(file_sizes);
    fl.runs = runs;
    env e;
    get_env(&e, autob);
    for (size_t k = 0; k < COUNT(fl.v); k++) {
        fscheme *fs = &fl.v[fl.n++];
        fs->k = k < COUNT(file_kinds) ? &file_kinds[k] : &pq_file_kinds[k - COUNT(file_kinds)];
        if (fs->k->setup(fs)) {
            skip(&fl.skipped, fs->k->name,
                 fs->k->impl && !bench_have_pqclean()
                     ? "built without PQClean (build-aux/pqclean.sh fetch, then configure)"
                     : "set-up failed");
            free_fscheme(fs);
            memset(fs, 0, sizeof *fs);
            fl.n--;
        }
    }
    size_t maxlen = 0;
    for (size_t i = 0; i < fl.nsizes; i++)
        maxlen = fl.sizes[i] > maxlen ? fl.sizes[i] : maxlen;
    uint8_t *buf = malloc(maxlen);
    int rc = !buf || make_inputs(&fl, buf) || run_files(&fl, buf);
    tmp_remove();
    free(buf);
    if (rc) {
        outputs_discard(o);
    } else {
        print_files(&fl, &e);
        fflush(stdout);
        if (o->jf) {
            json_head(o->jf, "files", quick, runs, &e, &fl.skipped, NULL);
            json_files_results(o->jf, &fl);
            rc |= json_end(o->jf, o->json);
        }
        if (o->cf) {
            csv_head(o->cf, "files", quick, runs, &e, &fl.skipped, NULL);
            csv_files(o->cf, &fl);
            rc |= csv_end(o->cf, o->csv);
        }
        if (o->plot)
            rc |= plot_files(o->plot, &fl, &e);
    }
    for (size_t k = 0; k < fl.n; k++)
        free_fscheme(&fl.v[k]);
    return rc ? 1 : 0;
}
