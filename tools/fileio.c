/* The tools' file rules: see fileio.h. */
#define _GNU_SOURCE /* mkostemp, O_CLOEXEC, O_NOFOLLOW */

#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#define MAX_OUTS 8

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void say(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

const char *fileio_display(const char *path)
{
    return strcmp(path, "-") == 0 ? "standard input" : path;
}

void fileio_free(uint8_t *buf, size_t len)
{
    if (!buf)
        return;
    sodium_memzero(buf, len);
    free(buf);
}

/* What a file of this mode is, for a refusal. */
static const char *not_regular(mode_t m)
{
    if (S_ISDIR(m))
        return "is a directory";
    if (S_ISFIFO(m))
        return "is a FIFO, not a regular file";
    if (S_ISCHR(m) || S_ISBLK(m))
        return "is a device, not a regular file";
    if (S_ISSOCK(m))
        return "is a socket, not a regular file";
    return "is not a regular file";
}

/* ---- reading ------------------------------------------------------------- */

int fileio_open_input(const char *path, unsigned flags, int *fd, mode_t *mode,
                      char *err, size_t errlen)
{
    struct stat st;
    int f, stream = (flags & FILEIO_STDIN) && strcmp(path, "-") == 0;

    if (stream) {
        f = STDIN_FILENO;
    } else {
        /* O_NONBLOCK: opening a FIFO without a writer returns at once (and
         * is then refused below); it is cleared for the reads. */
        f = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (f < 0) {
            say(err, errlen, "%s: %s", path, strerror(errno));
            return FILEIO_ERROR;
        }
    }
    if (fstat(f, &st) != 0) {
        say(err, errlen, "%s: %s", fileio_display(path), strerror(errno));
        goto fail;
    }
    if (S_ISDIR(st.st_mode) || (!stream && !S_ISREG(st.st_mode))) {
        say(err, errlen, "%s %s", fileio_display(path),
            not_regular(st.st_mode));
        goto fail;
    }
    if (!stream) {
        int fl = fcntl(f, F_GETFL);
        if (fl < 0 || fcntl(f, F_SETFL, fl & ~O_NONBLOCK) != 0) {
            say(err, errlen, "%s: %s", path, strerror(errno));
            goto fail;
        }
    }
    *fd = f;
    if (mode)
        *mode = S_ISREG(st.st_mode) ? st.st_mode : 0;
    return FILEIO_OK;

fail:
    if (f != STDIN_FILENO)
        (void)close(f); /* the first error is the one reported */
    return FILEIO_ERROR;
}

int fileio_read(const char *path, size_t cap, unsigned flags, uint8_t **buf,
                size_t *len, mode_t *mode, char *err, size_t errlen)
{
    const char *name = fileio_display(path);
    uint8_t *b = NULL, *nb;
    size_t used = 0, bcap = 0;
    mode_t md;
    struct stat st;
    int fd, e = 0;

    *buf = NULL;
    *len = 0;
    if (fileio_open_input(path, flags, &fd, &md, err, errlen) != FILEIO_OK)
        return FILEIO_ERROR;
    if (md && fstat(fd, &st) == 0 && st.st_size >= 0 &&
        (unsigned long long)st.st_size > cap) {
        say(err, errlen, "%s: too large (%lld bytes, at most %zu)", name,
            (long long)st.st_size, cap);
        if (fd != STDIN_FILENO)
            (void)close(fd);
        return FILEIO_ERROR;
    }
    for (;;) {
        if (used == bcap) {
            /* grow by copying, wiping the old buffer: it may hold secrets */
            size_t ncap = bcap ? 2 * bcap : 4096;
            if (ncap > cap + 1)
                ncap = cap + 1;
            if ((nb = malloc(ncap)) == NULL) {
                e = ENOMEM;
                break;
            }
            if (b)
                memcpy(nb, b, used);
            fileio_free(b, bcap);
            b = nb;
            bcap = ncap;
        }
        ssize_t r = read(fd, b + used, bcap - used);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            e = errno;
            break;
        }
        if (r == 0)
            break;
        used += (size_t)r;
        if (used > cap) {
            e = EFBIG;
            break;
        }
    }
    if (fd != STDIN_FILENO && close(fd) != 0 && !e)
        e = errno;
    if (e) {
        fileio_free(b, bcap);
        if (e == EFBIG)
            say(err, errlen, "%s: too large (over %zu bytes)", name, cap);
        else
            say(err, errlen, "%s: %s", name, strerror(e));
        return FILEIO_ERROR;
    }
    /* exactly len bytes, so that fileio_free(buf, len) wipes all of it */
    if ((nb = malloc(used ? used : 1)) == NULL) {
        fileio_free(b, bcap);
        say(err, errlen, "%s: out of memory", name);
        return FILEIO_ERROR;
    }
    memcpy(nb, b, used);
    fileio_free(b, bcap);
    *buf = nb;
    *len = used;
    if (mode)
        *mode = md;
    return FILEIO_OK;
}

/* ---- writing ------------------------------------------------------------- */

/* 1 if path's folder is /dev, /proc or below (where /dev/stdout and its
 * kind live: a rename there would replace a system link). */
static int system_folder(const char *path)
{
    char dir[4096], real[4096];
    const char *slash = strrchr(path, '/');

    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1,
             slash ? path : ".");
    if (!realpath(dir, real))
        return 0;
    return !strcmp(real, "/dev") || !strncmp(real, "/dev/", 5) ||
           !strcmp(real, "/proc") || !strncmp(real, "/proc/", 6);
}

/* 1 if path is a chain of symbolic links that reaches /dev or /proc. */
static int link_to_system(const char *path)
{
    char cur[8300], next[8300], target[4096];

    snprintf(cur, sizeof cur, "%s", path);
    for (int hop = 0; hop < 16; hop++) {
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0)
            return 0;
        target[n] = 0;
        if (target[0] == '/') {
            snprintf(next, sizeof next, "%s", target);
        } else {
            const char *slash = strrchr(cur, '/');
            snprintf(next, sizeof next, "%.*s%s",
                     slash ? (int)(slash - cur) + 1 : 0, cur, target);
        }
        if (system_folder(next))
            return 1;
        memcpy(cur, next, sizeof cur);
    }
    return 1; /* a loop: not a file to replace either */
}

int fileio_check_output(const char *path, unsigned flags, char *err,
                        size_t errlen)
{
    struct stat st;
    size_t l = strlen(path);
    if (strcmp(path, "-") == 0)
        return FILEIO_OK;
    if (l == 0 || path[l - 1] == '/') {
        say(err, errlen, "'%s': names a directory, not a file", path);
        return FILEIO_ERROR;
    }
    if (system_folder(path) || link_to_system(path)) {
        say(err, errlen, "%s: a system file or a link to a standard stream; "
            "refusing to replace it (use - for standard output)", path);
        return FILEIO_ERROR;
    }
    if (lstat(path, &st) != 0) {
        char dir[4096];
        const char *slash = strrchr(path, '/');
        if (errno != ENOENT) {
            say(err, errlen, "%s: %s", path, strerror(errno));
            return FILEIO_ERROR;
        }
        /* a new file: its folder must exist and take it */
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1,
                 slash ? path : ".");
        if (access(dir, W_OK | X_OK) != 0) {
            say(err, errlen, "%s: cannot create it: %s", path,
                strerror(errno));
            return FILEIO_ERROR;
        }
        return FILEIO_OK;
    }
    if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
        say(err, errlen, "%s %s; refusing to replace it", path,
            not_regular(st.st_mode));
        return FILEIO_ERROR;
    }
    struct stat target;
    if (S_ISLNK(st.st_mode) && stat(path, &target) == 0 &&
        !S_ISREG(target.st_mode)) {
        say(err, errlen, "%s: a symbolic link to %s; refusing to "
            "replace it (use - for standard output)", path,
            not_regular(target.st_mode) + 3);
        return FILEIO_ERROR;
    }
    if (!(flags & FILEIO_FORCE)) {
        say(err, errlen, "%s: already exists", path);
        return FILEIO_EXISTS;
    }
    return FILEIO_OK;
}

int fileio_same_file(const char *output, const char *input)
{
    struct stat a, b;

    if (strcmp(output, "-") == 0 || strcmp(input, "-") == 0)
        return 0;
    if (stat(output, &a) != 0 || stat(input, &b) != 0)
        return 0;
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* One file on its way: the temporary it is staged in and, once committed,
 * the hard link that keeps the file it replaced. */
struct stage {
    char tmp[4096], keep[4096];
    int staged, committed, kept, moved;
};

/* "DIR/.BASE.WHAT-XXXXXX" beside path. */
static int sibling(char *out, size_t len, const char *path, const char *what)
{
    const char *slash = strrchr(path, '/');
    int dl = slash ? (int)(slash - path + 1) : 0;
    int r = snprintf(out, len, "%.*s.%s.%s-XXXXXX", dl, path,
                     slash ? slash + 1 : path, what);
    return r > 0 && (size_t)r < len ? 0 : -1;
}

static void sync_dir(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    int fd;

    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path + 1), path);
    if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
        (void)fsync(fd); /* durability only; the rename already happened */
        (void)close(fd);
    }
}

static int write_all(int fd, const uint8_t *b, size_t len)
{
    while (len) {
        ssize_t w = write(fd, b, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        b += w;
        len -= (size_t)w;
    }
    return 0;
}

static int stage_one(struct stage *s, const fileio_out *o, char *err,
                     size_t errlen)
{
    mode_t um = umask(077);
    int fd, e;

    umask(um);
    if (sibling(s->tmp, sizeof s->tmp, o->path, "tmp") != 0) {
        say(err, errlen, "%s: name too long", o->path);
        return FILEIO_ERROR;
    }
    if ((fd = mkostemp(s->tmp, O_CLOEXEC)) < 0) {
        say(err, errlen, "%s: cannot create a file beside it: %s", o->path,
            strerror(errno));
        return FILEIO_ERROR;
    }
    s->staged = 1;
    e = fchmod(fd, o->flags & FILEIO_SECRET ? 0600 : 0666 & ~um) ? errno : 0;
    if (!e)
        e = write_all(fd, o->data, o->len);
    if (!e && fsync(fd) != 0)
        e = errno;
    if (close(fd) != 0 && !e)
        e = errno;
    if (e) {
        say(err, errlen, "%s: %s", o->path, strerror(e));
        return FILEIO_ERROR;
    }
    return FILEIO_OK;
}

/* Move s's temporary to o->path, keeping (with FILEIO_FORCE) a link to the
 * file it replaces; the rename is atomic for readers. */
static int commit_one(struct stage *s, const fileio_out *o, char *err,
                      size_t errlen)
{
    struct stat st;
    int exists = lstat(o->path, &st) == 0;

    if (exists && !(o->flags & FILEIO_FORCE)) {
        say(err, errlen, "%s: already exists", o->path);
        return FILEIO_EXISTS;
    }
    if (exists) {
        /* link() does not follow a symbolic link: the link itself is kept */
        int fd;
        if (sibling(s->keep, sizeof s->keep, o->path, "old") != 0 ||
            (fd = mkostemp(s->keep, O_CLOEXEC)) < 0) {
            say(err, errlen, "%s: cannot keep the old file aside: %s",
                o->path, strerror(errno));
            return FILEIO_ERROR;
        }
        (void)close(fd);
        (void)unlink(s->keep); /* the name is reserved; the link takes it */
        if (link(o->path, s->keep) != 0) {
            /* a file system without hard links: the old file is moved
             * aside (and put back on failure); the name is briefly absent */
            if (rename(o->path, s->keep) != 0) {
                say(err, errlen, "%s: cannot keep the old file aside: %s",
                    o->path, strerror(errno));
                return FILEIO_ERROR;
            }
            s->moved = 1;
        }
        s->kept = 1;
        if (rename(s->tmp, o->path) != 0) {
            say(err, errlen, "%s: %s", o->path, strerror(errno));
            return FILEIO_ERROR;
        }
    } else if (link(s->tmp, o->path) == 0) {
        (void)unlink(s->tmp);
    } else if (errno == EEXIST) {
        say(err, errlen, "%s: already exists", o->path);
        return FILEIO_EXISTS;
    } else if (rename(s->tmp, o->path) != 0) {
        say(err, errlen, "%s: %s", o->path, strerror(errno));
        return FILEIO_ERROR;
    }
    s->staged = 0;
    s->committed = 1;
    return FILEIO_OK;
}

/* Undo: every committed file removed or its old file put back, every
 * temporary deleted. Only names this module created are unlinked. */
static void roll_back(struct stage *s, const fileio_out *outs, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        if (s[i].kept && (s[i].committed || s[i].moved))
            (void)rename(s[i].keep, outs[i].path); /* the old file back */
        else if (s[i].kept)
            (void)unlink(s[i].keep); /* a second link to the old file */
        else if (s[i].committed)
            (void)unlink(outs[i].path); /* new, and created here */
        if (s[i].staged)
            (void)unlink(s[i].tmp);
    }
}

static int write_stdout(const void *data, size_t len, char *err,
                        size_t errlen)
{
    int e = write_all(STDOUT_FILENO, data, len);
    if (e) {
        say(err, errlen, "standard output: %s", strerror(e));
        return FILEIO_ERROR;
    }
    return FILEIO_OK;
}

int fileio_commit(const fileio_out *outs, size_t n, char *err, size_t errlen)
{
    struct stage s[MAX_OUTS];
    sigset_t block, old;
    int rc = FILEIO_OK;

    if (n == 1 && strcmp(outs[0].path, "-") == 0)
        return write_stdout(outs[0].data, outs[0].len, err, errlen);
    if (n == 0 || n > MAX_OUTS) {
        say(err, errlen, "internal error: %zu outputs", n);
        return FILEIO_ERROR;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(outs[i].path, "-") == 0) {
            say(err, errlen, "standard output cannot be one of several "
                "outputs");
            return FILEIO_ERROR;
        }
        if ((rc = fileio_check_output(outs[i].path, outs[i].flags, err,
                                      errlen)) != FILEIO_OK)
            return rc;
        for (size_t j = 0; j < i; j++)
            if (strcmp(outs[i].path, outs[j].path) == 0) {
                say(err, errlen, "%s: named twice as an output",
                    outs[i].path);
                return FILEIO_ERROR;
            }
    }
    /* An interrupt or termination while files are staged or half
     * committed waits until the set is whole (or rolled back). */
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGQUIT);
    sigaddset(&block, SIGPIPE);
    sigprocmask(SIG_BLOCK, &block, &old);
    memset(s, 0, n * sizeof s[0]);
    for (size_t i = 0; rc == FILEIO_OK && i < n; i++)
        rc = stage_one(&s[i], &outs[i], err, errlen);
    for (size_t i = 0; rc == FILEIO_OK && i < n; i++)
        rc = commit_one(&s[i], &outs[i], err, errlen);
    if (rc != FILEIO_OK) {
        roll_back(s, outs, n);
    } else {
        for (size_t i = 0; i < n; i++) {
            if (s[i].kept)
                (void)unlink(s[i].keep);
            sync_dir(outs[i].path);
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

int fileio_write(const char *path, const void *data, size_t len,
                 unsigned flags, char *err, size_t errlen)
{
    fileio_out o = {path, data, len, flags};
    return fileio_commit(&o, 1, err, errlen);
}

/* ---- streams ------------------------------------------------------------- */

static struct {
    FILE *f;
    char *buf;
    size_t len;
    char path[4096];
} streams[MAX_OUTS];

FILE *fileio_stream_open(const char *path)
{
    for (size_t i = 0; i < MAX_OUTS; i++)
        if (!streams[i].f) {
            snprintf(streams[i].path, sizeof streams[i].path, "%s", path);
            streams[i].f = open_memstream(&streams[i].buf, &streams[i].len);
            return streams[i].f;
        }
    return NULL;
}

int fileio_stream_close(FILE *f, unsigned flags, int discard, char *err,
                        size_t errlen)
{
    for (size_t i = 0; f && i < MAX_OUTS; i++) {
        if (streams[i].f != f)
            continue;
        int bad = ferror(f) | (fclose(f) != 0), rc = FILEIO_OK;
        streams[i].f = NULL;
        if (bad) {
            say(err, errlen, "%s: out of memory", streams[i].path);
            rc = FILEIO_ERROR;
        } else if (!discard) {
            rc = fileio_write(streams[i].path, streams[i].buf, streams[i].len,
                              flags, err, errlen);
        }
        free(streams[i].buf);
        streams[i].buf = NULL;
        return rc;
    }
    say(err, errlen, "internal error: not a stream");
    return FILEIO_ERROR;
}
