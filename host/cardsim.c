/* SPDX-License-Identifier: MIT */
/* cardsim: batches of APDUs run through s51 (see cardsim.h). */
#define _GNU_SOURCE /* O_TMPFILE, mkostemp, wait4 */
#include "cardsim.h"
#include "fileio.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <poll.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

static const char *card_prog = "tts-card";

void card_set_prog(const char *name)
{
    card_prog = name;
}

void card_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", card_prog);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

/* The console script holds the card's XDATA (its key): wiped before free. */
static void wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}

void card_init(card_batch *b, const char *image, const char *cpu, double mhz)
{
    memset(b, 0, sizeof *b);
    b->image = image;
    b->cpu = cpu ? cpu : "8032";
    b->mhz = mhz > 0 ? mhz : 3.57;
    b->s51 = getenv("TTS_S51");
}

void card_free(card_batch *b)
{
    /* the commands hold the PIN and PUT KEY's bytes of the secret key */
    if (b->cmd)
        wipe(b->cmd, b->cap * sizeof *b->cmd);
    if (b->resp)
        wipe(b->resp, b->nresp * sizeof *b->resp);
    free(b->cmd);
    free(b->resp);
    b->cmd = NULL;
    b->resp = NULL;
    b->ncmd = b->cap = b->nresp = 0;
}

static card_apdu *grow(card_batch *b)
{
    if (b->ncmd == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        /* (no realloc: the old block, which may hold key bytes, is wiped) */
        card_apdu *c = malloc(cap * sizeof *c);
        if (!c) {
            card_warn("out of memory\n");
            exit(2);
        }
        if (b->cmd) {
            memcpy(c, b->cmd, b->cap * sizeof *c);
            wipe(b->cmd, b->cap * sizeof *c);
            free(b->cmd);
        }
        b->cmd = c;
        b->cap = cap;
    }
    card_apdu *a = &b->cmd[b->ncmd];
    memset(a, 0, sizeof *a);
    a->raw_len = -1;
    return a;
}

size_t card_add(card_batch *b, uint8_t ins, uint8_t p1, uint8_t p2,
                const uint8_t *data, uint8_t lc)
{
    card_apdu *a = grow(b);
    a->cla = CARD_CLA;
    a->ins = ins;
    a->p1 = p1;
    a->p2 = p2;
    a->lc = lc;
    if (lc && data)
        memcpy(a->data, data, lc);
    return b->ncmd++;
}

size_t card_add_raw(card_batch *b, const uint8_t *bytes, int len)
{
    card_apdu *a = grow(b);
    if (len > (int)sizeof a->raw)
        len = (int)sizeof a->raw;
    memcpy(a->raw, bytes, (size_t)len);
    a->raw_len = len;
    a->ins = len > 1 ? bytes[1] : 0;
    a->cla = len > 0 ? bytes[0] : 0;
    return b->ncmd++;
}

int card_clocks_per_cycle(const char *cpu)
{
    return (cpu && (strcmp(cpu, "DS320") == 0 || strcmp(cpu, "ds320") == 0)) ? 4 : 12;
}

const char *card_sw_name(uint16_t sw)
{
    switch (sw) {
    case CARD_SW_OK: return "success";
    case CARD_SW_LENGTH: return "wrong length (Lc)";
    case CARD_SW_P1P2: return "bad P1/P2";
    case CARD_SW_STATE: return "conditions not satisfied";
    case CARD_SW_DATA: return "bad data";
    case CARD_SW_SECURITY: return "security status not satisfied (VERIFY first)";
    case CARD_SW_BLOCKED: return "PIN blocked";
    case CARD_SW_INS: return "unknown INS";
    case CARD_SW_CLA: return "unknown CLA";
    case 0: return "no response";
    default: return (sw & 0xFFF0) == CARD_SW_PIN_WRONG ? "wrong PIN" : "unknown status";
    }
}

/* A file with no name under $TMPDIR (O_TMPFILE, or a name unlinked at
 * once): the simulator's request (it may hold a raw secret key and the
 * PIN), its answers and its log (the card's XDATA) never outlive the
 * processes that hold them, whatever kills them. */
static int anon_file(void)
{
    const char *t = getenv("TMPDIR");
    if (!t || !*t)
        t = "/tmp";
    int fd = -1;
#ifdef O_TMPFILE
    fd = open(t, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
#endif
    char path[4096];
    if (snprintf(path, sizeof path, "%s/tts-card.XXXXXX", t) >= (int)sizeof path)
        return -1;
    fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0)
        unlink(path);
    return fd;
}

/* The first k commands and HALT into fd (rewound). */
static int write_request(card_batch *b, size_t k, int fd)
{
    size_t cap = k * 262 + 8, len = 0;
    uint8_t *r = malloc(cap);
    if (!r)
        return -1;
    for (size_t i = 0; i < k; i++) {
        const card_apdu *a = &b->cmd[i];
        if (a->raw_len >= 0) {
            memcpy(r + len, a->raw, (size_t)a->raw_len);
            len += (size_t)a->raw_len;
            continue;
        }
        uint8_t h[5] = {a->cla, a->ins, a->p1, a->p2, a->lc};
        memcpy(r + len, h, 5);
        memcpy(r + len + 5, a->data, a->lc);
        len += 5 + (size_t)a->lc;
        r[len++] = 0; /* Le */
    }
    /* HALT, always last (a HALT inside the batch stops the card earlier) */
    static const uint8_t halt[6] = {CARD_CLA, CARD_HALT, 0, 0, 0, 0};
    memcpy(r + len, halt, sizeof halt);
    len += sizeof halt;
    int rc = fileio_write_all(fd, r, len) == 0 && lseek(fd, 0, SEEK_SET) == 0 ? 0 : -1;
    wipe(r, cap);
    free(r);
    return rc;
}

/* Overwrite the first len bytes of fd with zeros (the request's secrets),
 * then close it. */
static void wipe_close(int fd)
{
    static const uint8_t zero[4096];
    off_t end = lseek(fd, 0, SEEK_END);
    for (off_t at = 0; end > 0 && at < end; at += (off_t)sizeof zero)
        if (pwrite(fd, zero, sizeof zero, at) < 0)
            break;
    close(fd);
}

/* The console of a run with a cut (simulate): s51's output copied to the
 * log as it comes, read line by line for the instruction count of each
 * "state" ("Inst= N") and its end (a line "Simulation: ..."). */
typedef struct {
    int to, from;             /* s51's stdin, its stdout and stderr */
    FILE *log;
    char line[256];
    size_t n;
    int states;               /* "state" outputs read in full */
    unsigned long long inst;  /* the last one's instruction count */
} console;

/* write(2) to the simulator's input without dying of SIGPIPE if it has
 * gone (a missing binary, a crash): the signal is held while writing and
 * one it raised is taken back, so the caller sees EPIPE and says so. */
static ssize_t pipe_write(int fd, const void *buf, size_t len)
{
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    ssize_t w = write(fd, buf, len);
    int e = errno;
    if (w < 0 && e == EPIPE && !was_pending) {
        const struct timespec zero = {0, 0};
        sigtimedwait(&pipe_set, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return w;
}

/* Write len bytes of s to the console, reading its output meanwhile (so
 * that neither side blocks), then read on until want state outputs have
 * come in all. 0, or -1 if the simulator has gone. */
static int console_io(console *c, const char *s, size_t len, int want)
{
    size_t done = 0;
    while (done < len || c->states < want) {
        struct pollfd p[2] = {{c->from, POLLIN, 0}, {c->to, done < len ? POLLOUT : 0, 0}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (p[0].revents) {
            char buf[4096];
            ssize_t r = read(c->from, buf, sizeof buf);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                return -1;
            fwrite(buf, 1, (size_t)r, c->log);
            for (ssize_t i = 0; i < r; i++) {
                if (buf[i] != '\n') {
                    if (c->n < sizeof c->line - 1)
                        c->line[c->n++] = buf[i];
                    continue;
                }
                c->line[c->n] = 0;
                c->n = 0;
                const char *ins = strstr(c->line, "Inst= ");
                unsigned long long t;
                if (ins && sscanf(ins, "Inst= %llu", &t) == 1)
                    c->inst = t;
                if (!strncmp(c->line, "Simulation: ", 12))
                    c->states++;
            }
        }
        if (done < len && (p[1].revents & POLLOUT)) {
            size_t k = len - done < 4096 ? len - done : 4096; /* <= PIPE_BUF: no block */
            ssize_t w = pipe_write(c->to, s + done, k);
            if (w < 0 && errno != EINTR && errno != EAGAIN)
                return -1;
            if (w > 0)
                done += (size_t)w;
        } else if (done < len && (p[1].revents & (POLLERR | POLLHUP))) {
            return -1;
        }
    }
    return 0;
}

/* A power cut after exactly b->cut instructions (counted from the reset,
 * as s51's "Inst=" counts them). s51's "step K" executes K instructions
 * and counts one more for each interrupt it takes on the way (Timer 0's:
 * at most one per 16,384 instructions), so one "step" of the whole count
 * stops late; this steps in parts short enough not to pass the cut
 * whatever interrupts come, reading the count after each (each exchange
 * with the console costs about 0.1 s of waiting, hence the few long
 * parts). The count passes the cut, by one, only where the cut falls on
 * an interrupt's entry (b->insts says so). 0, or -1 if the simulator has
 * gone. */
static int console_cut(console *c, unsigned long long cut)
{
    char cmd[64];
    while (c->inst < cut) {
        unsigned long long r = cut - c->inst, k = r > r / 1024 + 2 ? r - r / 1024 - 2 : 1,
                           before = c->inst;
        size_t len = (size_t)snprintf(cmd, sizeof cmd, "step %llu\nstate\n", k);
        if (console_io(c, cmd, len, c->states + 1) != 0)
            return -1;
        if (c->inst < before + k) /* the card stopped the simulator itself */
            break;
    }
    return 0;
}

/* s51 with the console script on its stdin, the request on its fd 3, the
 * answers on fd 4 (files without a name: anon_file) and its output on the
 * log file logfd, parsed for the tick count and the XDATA dump. */
static int simulate(card_batch *b, int reqfd, int respfd, int logfd,
                    unsigned long long *ticks)
{
    char xtal[32];
    const char *ifopt = "if=xram[0xffff],in=/dev/fd/3,out=/dev/fd/4",
               *sopt = "in=/dev/fd/3,out=/dev/fd/4";
    snprintf(xtal, sizeof xtal, "%gM", b->mhz);
    /* with a cut, the parent reads the console's output as it comes (out)
     * and copies it to the log; else the simulator writes the log */
    int in[2], out[2] = {-1, -1};
    if (pipe2(in, O_CLOEXEC))
        return -1;
    if (b->cut && pipe2(out, O_CLOEXEC)) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    pid_t parent = getpid();
    /* the simulator in its own process group, listed for the signal
     * handler of common/fileio.h (a signal kills it, not only us) */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    pid_t pid = fork();
    if (pid > 0) {
        setpgid(pid, pid);
        fileio_child_add(pid);
    }
    if (pid != 0)
        sigprocmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        close(in[0]);
        close(in[1]);
        if (b->cut) {
            close(out[0]);
            close(out[1]);
        }
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
#if defined(__linux__)
        /* a tool killed by SIGKILL takes its simulator with it */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
#else
        (void)parent;
#endif
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        /* fds 0..4 in place, whatever numbers the pipes and files got */
        int fds[4] = {fcntl(in[0], F_DUPFD_CLOEXEC, 10),
                      fcntl(b->cut ? out[1] : logfd, F_DUPFD_CLOEXEC, 10),
                      fcntl(reqfd, F_DUPFD_CLOEXEC, 10), fcntl(respfd, F_DUPFD_CLOEXEC, 10)};
        if (fds[0] < 0 || fds[1] < 0 || fds[2] < 0 || fds[3] < 0 || dup2(fds[0], 0) < 0 ||
            dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0 || dup2(fds[2], 3) < 0 ||
            dup2(fds[3], 4) < 0)
            _exit(127);
        if (b->timeout > 0) { /* a CPU-time budget: the machine's load does not count */
            struct rlimit rl = {(rlim_t)b->timeout, (rlim_t)b->timeout + 1};
            setrlimit(RLIMIT_CPU, &rl);
        }
        const char *s51 = b->s51 ? b->s51 : "s51";
        if (b->uart) {
            char sif[1100];
            snprintf(sif, sizeof sif, "if=xram[0xffff],in=/dev/null,out=/dev/null");
            execlp(s51, s51, "-t", b->cpu, "-X", xtal, "-S", sopt, "-I", sif,
                   "-b", b->image, (char *)NULL);
        } else {
            execlp(s51, s51, "-t", b->cpu, "-X", xtal, "-I", ifopt, "-b",
                   b->image, (char *)NULL);
        }
        _exit(127);
    }
    close(in[0]);
    console con = {in[1], out[0], NULL, {0}, 0, 0, 0};
    if (b->cut) {
        close(out[1]);
        int lf = dup(logfd);
        con.log = lf >= 0 ? fdopen(lf, "w") : NULL;
        if (!con.log && lf >= 0)
            close(lf);
    }
    /* On the 8051 (128 B of internal RAM) the simulator's RAM above 0x7F,
     * which the part does not have, is filled with 0xA5 before the run
     * and read back after it: ucsim does not fault on an access there.
     * (ucsim 0.6.4's -t 8051 drops indirect writes above 0x7F, so the
     * check sees them only when a 128-byte image runs on -t 8032 with
     * TTS_CARD_IRAM128 set, as the tests do.) */
    const int hi_check = strcmp(b->cpu, "8051") == 0 || getenv("TTS_CARD_IRAM128");
    /* The console script: XDATA as the card left it (set memory, 16 bytes
     * a line) or erased; run (or step to the cut); XDATA back as Intel
     * HEX; the check above 0x7F. */
    size_t cap = 512 + (b->xram_in ? (size_t)CARD_XRAM_BYTES / 16 * 90 : 0), len = 0;
    char *sc = malloc(cap);
    if (!sc) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return -1;
    }
    if (b->xram_in) { /* runs of 16 or more equal bytes by fill (s51 parses numbers slowly) */
        const uint8_t *x = b->xram_in;
        for (unsigned a = 0; a < CARD_XRAM_BYTES;) {
            unsigned r = 1, k = 0;
            while (a + r < CARD_XRAM_BYTES && x[a + r] == x[a])
                r++;
            if (r >= 16) {
                len += (size_t)snprintf(sc + len, cap - len, "fill xram 0x%04x 0x%04x %u\n", a,
                                        a + r - 1, x[a]);
                a += r;
                continue;
            }
            len += (size_t)snprintf(sc + len, cap - len, "set memory xram 0x%04x", a);
            for (; k < 16 && a < CARD_XRAM_BYTES; k++, a++)
                len += (size_t)snprintf(sc + len, cap - len, " %u", x[a]);
            sc[len++] = '\n';
        }
    } else {
        len += (size_t)snprintf(sc + len, cap - len, "fill xram 0 0x%x 0xff\n", CARD_XRAM_BYTES - 1);
    }
    if (hi_check)
        len += (size_t)snprintf(sc + len, cap - len, "fill iram_chip 0x80 0xff 0xa5\n");
    if (b->watch) {
        len += (size_t)snprintf(sc + len, cap - len, "break xram %c 0x%04x\n",
                                b->watch_read ? 'r' : 'w', b->watch - 1);
        for (int h = 0; h < b->watch_hits && h < 8; h++)
            len += (size_t)snprintf(sc + len, cap - len, "run\nstate\n");
        len += (size_t)snprintf(sc + len, cap - len, "delete\n");
    }
    size_t pre = len; /* the script before the run (or the cut) */
    int cut_ok = 0;
    if (!b->cut)
        len += (size_t)snprintf(sc + len, cap - len, "run\n");
    len += (size_t)snprintf(sc + len, cap - len, "state\n");
    if (b->xram_out)
        len += (size_t)snprintf(sc + len, cap - len, "dump /i xram 0 0x%x\n", CARD_XRAM_BYTES - 1);
    if (hi_check)
        len += (size_t)snprintf(sc + len, cap - len, "dump iram_chip 0x80 0xff\n");
    len += (size_t)snprintf(sc + len, cap - len, "quit\n");
    if (b->cut) { /* the script up to the cut, the steps to it, the rest */
        int watched = b->watch ? (b->watch_hits < 8 ? b->watch_hits : 8) : 0;
        cut_ok = con.log && console_io(&con, sc, pre, watched) == 0 &&
                 console_cut(&con, b->cut) == 0 && console_io(&con, sc + pre, len - pre, 0) == 0;
    } else {
        for (size_t done = 0; done < len;) {
            ssize_t w = pipe_write(in[1], sc + done, len - done);
            if (w <= 0)
                break;
            done += (size_t)w;
        }
    }
    wipe(sc, cap);
    free(sc);
    close(in[1]);
    if (b->cut) { /* the rest of the output, up to the simulator's end */
        char buf[4096];
        ssize_t r;
        while ((r = read(out[0], buf, sizeof buf)) != 0) {
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                break;
            if (con.log)
                fwrite(buf, 1, (size_t)r, con.log);
        }
        close(out[0]);
        if (con.log)
            fclose(con.log);
    }
    /* a card that never stops (a broken or foreign image) is stopped by
     * the kernel when the simulator has used b->timeout s of CPU time
     * (RLIMIT_CPU, set in the child above: SIGXCPU, then SIGKILL) */
    int st;
    struct rusage ru;
    for (;;) {
        pid_t w = wait4(pid, &st, 0, &ru);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            fileio_child_done(pid);
            return -1;
        }
    }
    fileio_child_done(pid);
    FILE *o = lseek(logfd, 0, SEEK_SET) == 0 ? fdopen(dup(logfd), "r") : NULL;
    *ticks = 0;
    /* the dump of 0x80..0xFF, 8 bytes a line, but s51 ends a line early at a
     * code address it has run: a line holds the bytes up to the next
     * line's address (hi[]: -1 where none was read) */
    int hi[128], hi_v[8], hi_n = 0, hi_bad = 0;
    unsigned hi_at = 0;
    for (int i = 0; i < 128; i++)
        hi[i] = -1;
    size_t xram_got = 0;
    int nhit = 0, hit = 0; /* the watch events seen */
    b->insts = 0;
    if (o) {
        char line[512];
        while (fgets(line, sizeof line, o)) {
            unsigned long long t;
            unsigned a, v[8], cnt, typ;
            if (b->xram_out && sscanf(line, ":%2x%4x%2x", &cnt, &a, &typ) == 3 && typ == 0 &&
                strlen(line) >= 11 + 2 * (size_t)cnt && a + cnt <= CARD_XRAM_BYTES) {
                for (unsigned k = 0; k < cnt; k++) {
                    unsigned byte;
                    if (sscanf(line + 9 + 2 * k, "%2x", &byte) != 1)
                        break;
                    b->xram_out[a + k] = (uint8_t)byte;
                    xram_got++;
                }
                continue;
            }
            if (sscanf(line, "Simulated %llu ticks", &t) == 1)
                *ticks = t;
            /* a stop at the watched address ("Event `write' at xram[...]"),
             * and not at the card's own end, is a hit */
            if (strncmp(line, "Event `", 7) == 0)
                hit = 1;
            const char *ins = strstr(line, "Inst= ");
            if (ins && sscanf(ins, "Inst= %llu", &t) == 1) {
                if (hit && nhit < b->watch_hits && nhit < 8)
                    b->watch_at[nhit++] = t;
                hit = 0;
                b->insts = t;
            }
            /* (internal RAM lines have 2-digit addresses and a run of
             * blanks; the echo of set memory xram, 4; the echo of the dump
             * command, one blank) */
            int k;
            if (hi_check && line[4] == ' ' && line[5] == ' ' &&
                (k = sscanf(line, "0x%x %x %x %x %x %x %x %x %x", &a, &v[0], &v[1], &v[2],
                            &v[3], &v[4], &v[5], &v[6], &v[7])) >= 2 &&
                a >= 0x80 && a <= 0xff && a > hi_at) {
                for (unsigned i = 0; hi_at && i < a - hi_at && (int)i < hi_n; i++)
                    hi[hi_at - 0x80 + i] = hi_v[i];
                hi_at = a;
                hi_n = k - 1;
                for (int i = 0; i < hi_n; i++)
                    hi_v[i] = (int)v[i];
            }
            if (b->verbose)
                fputs(line, stderr);
        }
        fclose(o);
    }
    if (WIFSIGNALED(st)) {
        double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
                     1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
        int sig = WTERMSIG(st);
        int budget = sig == SIGXCPU || (sig == SIGKILL && b->timeout > 0 &&
                                         cpu >= (double)b->timeout);
        if (budget && b->watch && nhit < b->watch_hits) {
            card_warn("--watch: the card did not %s XDATA 0x%04X %d time%s "
                      "before it stopped (the simulator then ran on until its CPU budget, "
                      "%ld s); it saw %d:", b->watch_read ? "read" : "write", b->watch - 1,
                      b->watch_hits, b->watch_hits == 1 ? "" : "s", b->timeout, nhit);
            for (int h = 0; h < nhit; h++)
                fprintf(stderr, "%s %s %d after %llu instructions", h ? ";" : "",
                        b->watch_read ? "read" : "write", h + 1, b->watch_at[h]);
            fprintf(stderr, "%s\n", nhit ? "" : " no access");
        } else if (budget)
            card_warn("the simulator used more than %ld s of CPU time; "
                      "stopped\n", b->timeout);
        else
            card_warn("the simulator was killed by signal %d (%s) after %.1f s "
                      "of CPU time\n", sig, strsignal(sig), cpu);
        return -1;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) == 127) {
        card_warn("could not run %s\n", b->s51 ? b->s51 : "s51");
        return -1;
    }
    if (b->cut && !cut_ok) {
        card_warn("could not step the simulator to the cut\n");
        return -1;
    }
    if (b->xram_out && xram_got != CARD_XRAM_BYTES) {
        card_warn("could not read the card's XDATA back (%zu bytes)\n", xram_got);
        return -1;
    }
    for (unsigned i = 0; hi_at && i < 0x100 - hi_at && (int)i < hi_n; i++)
        hi[hi_at - 0x80 + i] = hi_v[i];
    for (int i = 0; hi_check && i < 128 && !hi_bad; i++)
        if (hi[i] >= 0 && hi[i] != 0xa5) {
            card_warn("the card wrote internal RAM 0x%02X, above the 8051's "
                      "128 bytes\n", 0x80 + i);
            hi_bad = 1;
        }
    int hi_miss = 0;
    for (int i = 0; i < 128; i++)
        hi_miss |= hi[i] < 0;
    if (hi_check && (hi_bad || hi_miss)) {
        if (!hi_bad)
            card_warn("could not read internal RAM 0x80..0xFF back\n");
        return -1;
    }
    return 0;
}

static int run_k(card_batch *b, size_t k, int parse)
{
    /* the request, the answers and the log in files without a name */
    int reqfd = anon_file(), respfd = anon_file(), logfd = anon_file();
    if (reqfd < 0 || respfd < 0 || logfd < 0) {
        card_warn("cannot make a temporary file under %s: %s\n",
                  getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
                  strerror(errno));
        if (reqfd >= 0)
            close(reqfd);
        if (respfd >= 0)
            close(respfd);
        if (logfd >= 0)
            close(logfd);
        return -1;
    }
    int rc = write_request(b, k, reqfd);
    long saved = b->timeout;
    if (!b->timeout)
        b->timeout = card_timeout(b, k);
    if (rc == 0)
        rc = simulate(b, reqfd, respfd, logfd, &b->ticks);
    b->timeout = saved;
    FILE *f = NULL;
    if (rc == 0 && parse) {
        if (b->resp)
            wipe(b->resp, b->nresp * sizeof *b->resp);
        free(b->resp);
        b->resp = calloc(k + 1, sizeof *b->resp);
        b->nresp = 0;
        f = lseek(respfd, 0, SEEK_SET) == 0 ? fdopen(dup(respfd), "rb") : NULL;
        if (!b->resp || !f)
            rc = -1;
        for (size_t i = 0; rc == 0 && i <= k; i++) {
            int la = fgetc(f);
            if (la == EOF)
                break;
            card_resp *r = &b->resp[i];
            r->len = (uint8_t)la;
            if (fread(r->data, 1, r->len, f) != r->len)
                break;
            int s1 = fgetc(f), s2 = fgetc(f);
            if (s1 == EOF || s2 == EOF)
                break;
            r->sw = (uint16_t)(s1 << 8 | s2);
            b->nresp = i + 1;
        }
        if (f)
            fclose(f);
        if (rc == 0 && b->nresp < k && !b->cut) {
            card_warn("the card answered %zu of %zu commands\n",
                      b->nresp, k);
            rc = -1;
        }
    }
    wipe_close(reqfd);
    wipe_close(logfd);
    close(respfd);
    return rc;
}

int card_run(card_batch *b)
{
    return run_k(b, b->ncmd, 1);
}

unsigned long long card_ticks_prefix(card_batch *b, size_t k)
{
    if (k > b->ncmd)
        k = b->ncmd;
    unsigned long long save = b->ticks, t;
    t = run_k(b, k, 0) == 0 ? b->ticks : (unsigned long long)-1;
    b->ticks = save;
    return t;
}

long card_timeout(const card_batch *b, size_t k)
{
    const char *to = getenv("TTS_CARD_TIMEOUT");
    long t = 10;

    if (to)
        return atol(to);
    for (size_t i = 0; i < k && i < b->ncmd; i++)
        switch (b->cmd[i].raw_len >= 0 || b->cmd[i].cla != CARD_CLA ? 0 : b->cmd[i].ins) {
        case CARD_GENERATE_KEY: t += 900; break; /* TTS(36,50): minutes */
        case CARD_SIGN: t += 60; break;
        case CARD_GET_PK_SEGMENT: t += 20; break;
        default: t += 5; break;
        }
    return t;
}

int card_answer_len(const card_apdu *a, unsigned m, unsigned n)
{
    switch (a->ins) {
    case CARD_GET_INFO: return 7;
    case CARD_GET_CYCLES: case CARD_GET_COUNTER: return 4;
    case CARD_GET_PROFILE: return 8;
    case CARD_GENERATE_KEY: case CARD_PUT_KEY: case CARD_COMMIT_KEY: case CARD_SET_PIN:
    case CARD_HALT: return 0;
    case CARD_SIGN: return (int)n;
    default: (void)m; return -1;
    }
}

static int hexbyte(const uint8_t *s)
{
    int v = 0;
    for (int i = 0; i < 2; i++) {
        int c = s[i], d = c >= '0' && c <= '9' ? c - '0'
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return -1;
        v = v << 4 | d;
    }
    return v;
}

int card_check_ihex(const uint8_t *buf, size_t len, char *err, size_t errlen)
{
    size_t pos = 0, line = 0, data = 0;
    int eof = 0;

    while (pos < len) {
        size_t end = pos;
        while (end < len && buf[end] != '\n')
            end++;
        size_t l = end - pos;
        line++;
        if (l && buf[pos + l - 1] == '\r')
            l--;
        if (l == 0) { /* blank lines: tolerated, not after EOF data */
            pos = end + 1;
            continue;
        }
        if (eof) {
            snprintf(err, errlen, "line %zu: data after the end-of-file "
                     "record", line);
            return -1;
        }
        const uint8_t *r = buf + pos;
        if (r[0] != ':' || l < 11 || (l - 1) % 2) {
            snprintf(err, errlen, "line %zu: not an Intel HEX record", line);
            return -1;
        }
        int count = hexbyte(r + 1), sum = 0;
        if (count < 0 || l != 11 + 2 * (size_t)count) {
            snprintf(err, errlen, "line %zu: record length does not match its "
                     "byte count", line);
            return -1;
        }
        for (size_t i = 1; i < l; i += 2) {
            int v = hexbyte(r + i);
            if (v < 0) {
                snprintf(err, errlen, "line %zu: not hex digits", line);
                return -1;
            }
            sum += v;
        }
        if (sum & 0xFF) {
            snprintf(err, errlen, "line %zu: checksum mismatch", line);
            return -1;
        }
        int type = hexbyte(r + 7);
        if (type == 0)
            data += (size_t)count;
        else if (type == 1)
            eof = 1;
        else if (type > 5) {
            snprintf(err, errlen, "line %zu: unknown record type %02X", line,
                     type);
            return -1;
        }
        pos = end + 1;
    }
    if (!data || !eof) {
        snprintf(err, errlen, "%s", !data ? "no data records (an empty image)"
                                          : "no end-of-file record");
        return -1;
    }
    return 0;
}

int card_parse_watch(const char *arg, unsigned *watch, int *hits, int *read)
{
    char *e;
    unsigned long a = strtoul(arg, &e, 0), k = *e == ':' ? strtoul(e + 1, &e, 10) : 0;
    *read = !strcmp(e, ":r");
    if ((*e && !*read) || a >= CARD_XRAM_BYTES || k < 1 || k > 8)
        return -1;
    *watch = (unsigned)a + 1;
    *hits = (int)k;
    return 0;
}

int card_parse_cut(const char *arg, unsigned long long *cut)
{
    char *e;
    errno = 0;
    *cut = strtoull(arg, &e, 10);
    /* (strtoull takes "-5" as a huge count: digits only) */
    return *e || !*cut || arg[0] < '0' || arg[0] > '9' || errno == ERANGE ? -1 : 0;
}

int card_check_answers(const card_batch *b, size_t first, size_t count, size_t prof,
                       unsigned m, unsigned n, const char *name, int any_sw)
{
    for (size_t k = first; k < first + count && !any_sw; k++)
        if (b->resp[k].sw != CARD_SW_OK) {
            card_warn("%s: card status %04X (%s)\n", name, b->resp[k].sw,
                      card_sw_name(b->resp[k].sw));
            return 1;
        }
    /* an answer of the wrong length is refused, whatever its status */
    for (size_t k = first; k <= first + count; k++) {
        size_t kk = k < first + count ? k : prof;
        if (kk == (size_t)-1 || b->cmd[kk].raw_len >= 0 || b->resp[kk].sw != CARD_SW_OK)
            continue;
        int want = card_answer_len(&b->cmd[kk], m, n);
        if (want >= 0 && b->resp[kk].len != want) {
            card_warn("%s: the card answered %u bytes to INS %02X, expected "
                      "%d\n", name, b->resp[kk].len, b->cmd[kk].ins, want);
            return 1;
        }
    }
    return 0;
}

int card_assemble_pk(const card_batch *b, size_t first, size_t count, unsigned m,
                     unsigned segk, size_t pkb, uint8_t *pk)
{
    size_t got = 0;
    for (size_t k = first; k < first + count && got < pkb; k++) {
        if (b->cmd[k].ins != CARD_GET_PK_SEGMENT)
            continue;
        size_t want = pkb - got < (size_t)segk * m ? pkb - got : (size_t)segk * m;
        if (b->resp[k].len != want) {
            card_warn("segment %zu: %u bytes, expected %zu\n", k - first,
                      b->resp[k].len, want);
            return 1;
        }
        memcpy(pk + got, b->resp[k].data, want);
        got += want;
    }
    return got == pkb ? 0 : 1;
}

void card_print_watch(FILE *rep, const card_batch *b)
{
    for (int h = 0; b->watch && h < b->watch_hits; h++)
        fprintf(rep, "watch: %s %d %s 0x%04X after %llu instructions\n",
                b->watch_read ? "read" : "write", h + 1, b->watch_read ? "of" : "to",
                b->watch - 1, b->watch_at[h]);
    if (b->watch || b->cut)
        fprintf(rep, "instructions: %llu\n", b->insts);
}

void card_print_hex(FILE *f, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02X", b[i]);
}
