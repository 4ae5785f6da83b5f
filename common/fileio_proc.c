/* SPDX-License-Identifier: MIT */
/* The tools' file rules, their second half (see fileio.h): what a signal
 * must not leave behind (temporaries, children) and files made by another
 * program. */
#define _GNU_SOURCE /* mkdtemp, O_CLOEXEC, O_NOFOLLOW */

#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sodium.h>

/* ---- what a signal must not leave behind ---------------------------------- */

#define MAX_TEMPS 8
#define MAX_CHILDREN 4

static struct {
    char path[4096];
    volatile sig_atomic_t used;
    int secret;
} temps[MAX_TEMPS];
static volatile pid_t children[MAX_CHILDREN];

/* Overwrite a file's bytes with zeros (async-signal-safe). */
static void wipe_at(int dfd, const char *name)
{
    static const char zero[4096];
    struct stat st;
    int fd = openat(dfd, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);

    if (fd < 0)
        return;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        for (off_t left = st.st_size; left > 0;) {
            ssize_t w = write(fd, zero, left < (off_t)sizeof zero
                                            ? (size_t)left : sizeof zero);
            if (w <= 0)
                break;
            left -= w;
        }
    (void)fsync(fd);
    (void)close(fd);
}

/* Remove name (a file, or a folder and all below it) relative to dfd,
 * wiping files first if secret. Only async-signal-safe calls: the folder
 * is read with getdents64, not readdir. */
static void remove_at(int dfd, const char *name, int secret, int depth)
{
    int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                   O_CLOEXEC);
    if (fd < 0) {
        if (secret)
            wipe_at(dfd, name);
        (void)unlinkat(dfd, name, 0);
        return;
    }
#ifdef SYS_getdents64
    struct ent {
        uint64_t ino;
        int64_t off;
        unsigned short reclen;
        unsigned char type;
        char name[];
    };
    char buf[4096] __attribute__((aligned(8)));
    /* entries are re-read from the start until the folder is empty:
     * removing while reading may make the kernel skip some */
    for (int pass = 0; depth < 8 && pass < 1000; pass++) {
        long got, seen = 0;
        (void)lseek(fd, 0, SEEK_SET);
        while ((got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
            for (long off = 0; off < got;) {
                struct ent *e = (struct ent *)(buf + off);
                off += e->reclen;
                if (!strcmp(e->name, ".") || !strcmp(e->name, ".."))
                    continue;
                seen++;
                remove_at(fd, e->name, secret, depth + 1);
            }
        if (!seen)
            break;
    }
#endif
    (void)close(fd);
    (void)unlinkat(dfd, name, AT_REMOVEDIR);
}

static void remove_all(void)
{
    for (size_t i = 0; i < MAX_CHILDREN; i++)
        if (children[i] > 0) {
            (void)kill(-children[i], SIGKILL);
            (void)kill(children[i], SIGKILL);
        }
    for (size_t i = 0; i < MAX_TEMPS; i++)
        if (temps[i].used) {
            remove_at(AT_FDCWD, temps[i].path, temps[i].secret, 0);
            temps[i].used = 0;
        }
}

static void on_signal(int sig)
{
    sigset_t set;

    remove_all();
    /* then die of the signal, for the conventional status */
    signal(sig, SIG_DFL);
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

/* Handlers for SIGINT, SIGTERM and SIGHUP (a signal the caller ignores,
 * as nohup does, stays ignored), and the same removal at exit. */
static void guard(void)
{
    static int done;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};

    if (done)
        return;
    done = 1;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa, old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigfillset(&sa.sa_mask);
        (void)sigaction(sigs[i], &sa, NULL);
    }
    atexit(remove_all);
}

/* Signals blocked while the lists change. */
static void hold(sigset_t *old)
{
    sigset_t all;

    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, old);
}

/* path from the root; -1 if too long. */
static int absolute(char *out, size_t len, const char *path)
{
    char cwd[4096];
    int r;

    if (path[0] == '/')
        r = snprintf(out, len, "%s", path);
    else if (getcwd(cwd, sizeof cwd))
        r = snprintf(out, len, "%s/%s", cwd, path);
    else
        r = -1;
    return r < 0 || (size_t)r >= len ? -1 : 0;
}

int fileio_temp_add(const char *path, unsigned flags)
{
    sigset_t old;
    int rc = FILEIO_ERROR;

    guard();
    hold(&old);
    for (size_t i = 0; i < MAX_TEMPS; i++)
        if (!temps[i].used) {
            /* absolute: the handler must not depend on a later chdir */
            if (absolute(temps[i].path, sizeof temps[i].path, path) != 0)
                break;
            temps[i].secret = !!(flags & FILEIO_SECRET);
            temps[i].used = 1;
            rc = FILEIO_OK;
            break;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

void fileio_temp_done(const char *path, int remove)
{
    sigset_t old;
    char abs[4096];

    if (absolute(abs, sizeof abs, path) != 0)
        return;
    hold(&old);
    for (size_t i = 0; i < MAX_TEMPS; i++)
        if (temps[i].used && strcmp(temps[i].path, abs) == 0) {
            if (remove)
                remove_at(AT_FDCWD, temps[i].path, temps[i].secret, 0);
            temps[i].used = 0;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

int fileio_temp_dir(char *out, size_t len, const char *prefix,
                    unsigned flags, char *err, size_t errlen)
{
    const char *t = getenv("TMPDIR");
    char base[4096];

    /* absolute, so that no program it is handed to reads it as an option */
    if (!t || !*t)
        t = "/tmp";
    if (!realpath(t, base)) {
        fileio_say(err, errlen, "TMPDIR %s: %s", t, strerror(errno));
        return FILEIO_ERROR;
    }
    int r = snprintf(out, len, "%s/%s.XXXXXX", base, prefix);
    if (r < 0 || (size_t)r >= len) {
        fileio_say(err, errlen, "TMPDIR %s: name too long", t);
        return FILEIO_ERROR;
    }
    sigset_t old;
    guard();
    hold(&old); /* created and listed at once */
    if (!mkdtemp(out)) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        fileio_say(err, errlen, "%s: cannot create a folder: %s", base,
            strerror(errno));
        return FILEIO_ERROR;
    }
    int rc = fileio_temp_add(out, flags);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (rc != FILEIO_OK) {
        (void)rmdir(out);
        fileio_say(err, errlen, "internal error: too many temporary folders");
    }
    return rc;
}

void fileio_child_add(pid_t pgid)
{
    sigset_t old;

    guard();
    hold(&old);
    for (size_t i = 0; i < MAX_CHILDREN; i++)
        if (children[i] <= 0) {
            children[i] = pgid;
            break;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void fileio_child_done(pid_t pgid)
{
    sigset_t old;

    hold(&old);
    for (size_t i = 0; i < MAX_CHILDREN; i++)
        if (children[i] == pgid)
            children[i] = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- files made by another program ---------------------------------------- */

/* Run argv in folder dir (its own process group, listed for the signal
 * handler); its exit status in *status, or -1 if it could not start. */
static int run_in(char *const argv[], const char *dir, int *status)
{
    sigset_t all, old;
    pid_t pid;

    fflush(NULL);
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    if ((pid = fork()) == 0) {
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        setpgid(0, 0);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (null >= 0)
            dup2(null, STDIN_FILENO);
        if (chdir(dir) != 0)
            _exit(126);
        execvp(argv[0], argv);
        _exit(errno == ENOENT ? 127 : 126);
    }
    if (pid > 0) {
        setpgid(pid, pid);
        fileio_child_add(pid);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (pid < 0)
        return -1;
    while (waitpid(pid, status, 0) < 0)
        if (errno != EINTR) {
            *status = -1;
            break;
        }
    fileio_child_done(pid);
    return 0;
}

int fileio_run_in(char *const argv[], const fileio_out *in, size_t nin,
                  const char *dest, unsigned flags, char *err, size_t errlen)
{
    char tmp[4096], path[8192];
    int rc = FILEIO_OK, st;

    if (fileio_temp_dir(tmp, sizeof tmp, "tts-run", 0, err, errlen) !=
        FILEIO_OK)
        return FILEIO_ERROR;
    for (size_t i = 0; rc == FILEIO_OK && i < nin; i++) {
        snprintf(path, sizeof path, "%s/%s", tmp, in[i].path);
        rc = fileio_write(path, in[i].data, in[i].len, 0, err, errlen);
    }
    if (rc == FILEIO_OK && run_in(argv, tmp, &st) != 0) {
        fileio_say(err, errlen, "%s: cannot start it: %s", argv[0],
            strerror(errno));
        rc = FILEIO_ERROR;
    } else if (rc == FILEIO_OK &&
               !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
        if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
            fileio_say(err, errlen, "%s: not found on PATH", argv[0]);
            rc = FILEIO_NOPROG;
        } else {
            fileio_say(err, errlen, "%s failed (%s %d)", argv[0],
                WIFEXITED(st) ? "exit status" : "signal",
                WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
            rc = FILEIO_ERROR;
        }
    }
    /* every file it made, committed into dest under the file rules */
    DIR *d = rc == FILEIO_OK ? opendir(tmp) : NULL;
    for (struct dirent *e; d && rc == FILEIO_OK && (e = readdir(d));) {
        size_t k = 0;
        while (k < nin && strcmp(in[k].path, e->d_name) != 0)
            k++;
        if (e->d_name[0] == '.' || k < nin)
            continue;
        uint8_t *b;
        size_t len;
        snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
        if ((rc = fileio_read(path, (size_t)1 << 28, 0, &b, &len, NULL, err,
                              errlen)) != FILEIO_OK)
            break;
        snprintf(path, sizeof path, "%s/%s", dest, e->d_name);
        rc = fileio_write(path, b, len, flags, err, errlen);
        fileio_free(b, len);
    }
    if (d)
        closedir(d);
    fileio_temp_done(tmp, 1);
    return rc;
}
