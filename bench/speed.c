/* SPDX-License-Identifier: MIT */
/*
 * Timing loop for the core operations of every set: key generation (from a
 * seed), tts_sign_digest (randomness from a fast buffered generator) and
 * tts_verify_digest; then, apart, the costs they leave out: SHA-512 of a
 * 33-byte message, one system-generator call of v bytes (libsodium
 * randombytes_buf), and the full tts_sign (default generator: one system
 * call per signature) and tts_verify of that message. Each operation is run
 * RUNS times after a warm-up; the median, quartiles and minimum of the
 * per-call TSC cycle counts (rdtsc, reference cycles) and the median
 * wall-clock microseconds are printed, with the machine and compiler.
 *
 * Usage: tts-speed --help (bench/tts-speed.1).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "tts.h"

#include "clock.h"

/* 1 if this program seems to run in a user-mode emulator (qemu-user): a
 * non-x86 build that reads the /proc/cpuinfo of an x86 machine (qemu-user
 * 7.2 passes the host's through for aarch64 and s390x guests). Its figures
 * are then the emulator's, not the CPU's. */
static int emulated(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return 0;
#else
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    int x86 = 0;
    while (f && !x86 && fgets(line, sizeof line, f))
        x86 = strstr(line, "GenuineIntel") || strstr(line, "AuthenticAMD") ||
              strstr(line, "HygonGenuine");
    if (f)
        fclose(f);
    return x86;
#endif
}

/* xorshift64*: fast, deterministic, good enough for timing. */
static int fast_rng(void *ctx, uint8_t *out, size_t len)
{
    uint64_t *s = ctx;
    for (size_t i = 0; i < len; i++) {
        *s ^= *s >> 12;
        *s ^= *s << 25;
        *s ^= *s >> 27;
        out[i] = (uint8_t)((*s * 0x2545F4914F6CDD1Dull) >> 56);
    }
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

typedef struct {
    uint64_t *cyc, *ns;
} samples;

static void report(const char *set, const char *op, samples *s, size_t runs)
{
    qsort(s->cyc, runs, sizeof *s->cyc, cmp_u64);
    qsort(s->ns, runs, sizeof *s->ns, cmp_u64);
    printf("%-6s %-11s %-13s %10llu %10llu %10llu %10llu %11.2f\n", tts_backend(), set, op,
           (unsigned long long)s->cyc[runs / 2], (unsigned long long)s->cyc[runs / 4],
           (unsigned long long)s->cyc[3 * runs / 4], (unsigned long long)s->cyc[0],
           s->ns[runs / 2] / 1000.0);
}

static int bench(const tts_params *p, size_t runs, samples *s)
{
    static uint8_t pk[TTS_MAX_PK_BYTES], sk[TTS_MAX_SK_BYTES];
    uint8_t seed[TTS_SEED_BYTES] = {0}, sig[TTS_MAX_SIG_BYTES], dg[TTS_MAX_M] = {0};
    uint64_t st = 0x9E3779B97F4A7C15ull;
    const char *name = tts_params_name(p);
    size_t kruns = runs < 100 ? runs : 100; /* keygen is ms-scale */

    for (size_t i = 0; i < kruns + 2; i++) {
        seed[0] = (uint8_t)i;
        uint64_t t0 = now_ns(), c0 = cycles();
        if (tts_keypair_from_seed(p, pk, sk, seed) != TTS_OK)
            return -1;
        uint64_t c1 = cycles(), t1 = now_ns();
        if (i >= 2) {
            s->cyc[i - 2] = c1 - c0;
            s->ns[i - 2] = t1 - t0;
        }
    }
    report(name, "keygen", s, kruns);
    for (size_t i = 0; i < runs + runs / 10; i++) {
        dg[0] = (uint8_t)i;
        dg[1] = (uint8_t)(i >> 8);
        uint64_t t0 = now_ns(), c0 = cycles();
        if (tts_sign_digest(p, sig, dg, sk, fast_rng, &st) != TTS_OK)
            return -1;
        uint64_t c1 = cycles(), t1 = now_ns();
        if (i >= runs / 10) {
            s->cyc[i - runs / 10] = c1 - c0;
            s->ns[i - runs / 10] = t1 - t0;
        }
    }
    report(name, "sign", s, runs);
    for (size_t i = 0; i < runs + runs / 10; i++) {
        uint64_t t0 = now_ns(), c0 = cycles();
        int rc = tts_verify_digest(p, sig, dg, pk);
        uint64_t c1 = cycles(), t1 = now_ns();
        if (rc != TTS_OK)
            return -1;
        if (i >= runs / 10) {
            s->cyc[i - runs / 10] = c1 - c0;
            s->ns[i - runs / 10] = t1 - t0;
        }
    }
    report(name, "verify", s, runs);

    /* The costs the core operations leave out, and the full operations. */
    const uint8_t msg[33] = "The quick brown fox jumps over t";
    uint8_t h[crypto_hash_sha512_BYTES], r[TTS_MAX_N];
    const size_t v = tts_params_v(p);
#define TIME(op, stmt)                                                        \
    for (size_t i = 0; i < runs + runs / 10; i++) {                          \
        uint64_t t0 = now_ns(), c0 = cycles();                                \
        stmt;                                                                 \
        uint64_t c1 = cycles(), t1 = now_ns();                                \
        if (i >= runs / 10) {                                                 \
            s->cyc[i - runs / 10] = c1 - c0;                                  \
            s->ns[i - runs / 10] = t1 - t0;                                   \
        }                                                                     \
    }                                                                         \
    report(name, op, s, runs)
    int bad = 0;
    TIME("sha512(33B)", crypto_hash_sha512(h, msg, sizeof msg));
    TIME("randombytes(v)", randombytes_buf(r, v));
    TIME("tts_sign", bad |= tts_sign(p, sig, msg, sizeof msg, sk));
    TIME("tts_verify", bad |= tts_verify(p, sig, msg, sizeof msg, pk));
#undef TIME
    return bad ? -1 : 0;
}

static int run_sets(int first, int argc, char **argv, size_t runs, samples *s)
{
    int rc = 0;
    for (int i = first; i < argc; i++)
        rc |= bench(tts_params_get(argv[i]), runs, s);
    for (size_t i = 0; first == argc && i < tts_params_count(); i++)
        rc |= bench(tts_params_at(i), runs, s);
    return rc;
}

static const char usage_text[] =
    "usage: tts-speed [-r RUNS] [-b BACKEND | -a] [SET ...]\n"
    "       tts-speed --help | --version\n"
    "\n"
    "Times key generation, signing and verification of each SET (default:\n"
    "all eight): median, quartiles and minimum of the per-call TSC cycles and\n"
    "the median nanoseconds over RUNS calls after a warm-up, with the machine,\n"
    "the compiler and the backend printed. Apart: SHA-512 of the message and\n"
    "the system generator, which the core figures leave out.\n"
    "\n"
    "  -r RUNS     calls per operation, 10..1000000 (default 1000; key\n"
    "              generation fewer)\n"
    "  -b BACKEND  that backend (ref, swar, avx2, gfni, neon where built)\n"
    "  -a          every backend this CPU runs, best first\n"
    "Default backend: the automatic choice (TTS_BACKEND overrides). Compare\n"
    "figures of one run, on one pinned backend: absolute times on a shared\n"
    "machine are noisy.\n"
    "exit status: 0, or 2 for a usage error.\n";

int main(int argc, char **argv)
{
    const char *pin = getenv("TTS_BACKEND"); /* a mistyped one is said, not silent */
    if (pin && *pin && strcmp(pin, tts_backend()) != 0)
        fprintf(stderr, "tts-speed: warning: TTS_BACKEND=%s is not a backend of this build "
                "that this CPU runs; using %s\n", pin, tts_backend());
    size_t runs = 1000;
    int first = 1, all = 0;
    const char *backend = NULL;
    char model[128];
    while (first < argc && argv[first][0] == '-') {
        if (strcmp(argv[first], "-r") == 0 && first + 1 < argc) {
            runs = strtoul(argv[first + 1], NULL, 10);
            first += 2;
            if (runs < 10 || runs > 1000000) {
                fprintf(stderr, "tts-speed: -r wants 10..1000000\n");
                return 2;
            }
        } else if (strcmp(argv[first], "-b") == 0 && first + 1 < argc) {
            backend = argv[first + 1];
            first += 2;
        } else if (strcmp(argv[first], "-a") == 0) {
            all = 1;
            first++;
        } else if (strcmp(argv[first], "-h") == 0 || strcmp(argv[first], "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(argv[first], "--version") == 0) {
            printf("tts-speed (libtts) %s\n%s\n", tts_version(), TTS_BROKEN_NOTE);
            return 0;
        } else {
            fprintf(stderr, "tts-speed: unknown option '%s' (or a missing value)\n"
                            "tts-speed: see 'tts-speed --help'\n", argv[first]);
            return 2;
        }
    }
    for (int i = first; i < argc; i++)
        if (!tts_params_get(argv[i])) {
            fprintf(stderr, "tts-speed: unknown parameter set '%s'\n", argv[i]);
            return 2;
        }
    if (backend && tts_set_backend(backend) != TTS_OK) {
        fprintf(stderr, "tts-speed: backend '%s' not available here\n", backend);
        return 2;
    }
    if (sodium_init() < 0)
        return 2;
    samples s = {malloc(runs * sizeof(uint64_t)), malloc(runs * sizeof(uint64_t))};
    if (!s.cyc || !s.ns)
        return 2;
    cpu_model(model, sizeof model);
    printf("# machine: %s; compiler: %s; cycles: %s; runs: %zu (keygen: %zu)\n", model,
           __VERSION__, CYCLE_SOURCE, runs, runs < 100 ? runs : (size_t)100);
    printf("# status: %s\n", TTS_BROKEN_NOTE);
    if (emulated())
        printf("# emulated: an x86 /proc/cpuinfo under a non-x86 build (qemu-user?): "
               "these are emulator times, not timings of this CPU\n");
    printf("%-6s %-11s %-13s %10s %10s %10s %10s %11s\n", "backend", "set", "op", "median",
           "q1", "q3", "min", "median us");
    int rc = 0;
    if (all) {
        for (size_t b = 0; tts_backend_at(b); b++) {
            if (tts_set_backend(tts_backend_at(b)) != TTS_OK) {
                printf("# backend %s: not supported by this CPU: skipped\n",
                       tts_backend_at(b));
                continue;
            }
            rc |= run_sets(first, argc, argv, runs, &s);
        }
    } else {
        rc = run_sets(first, argc, argv, runs, &s);
    }
    free(s.cyc);
    free(s.ns);
    if (rc)
        fprintf(stderr, "tts-speed: an operation failed\n");
    return rc ? 1 : 0;
}
