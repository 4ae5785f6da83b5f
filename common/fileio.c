/* SPDX-License-Identifier: MIT */
/* The tools' file rules: see fileio.h. */
#define _GNU_SOURCE /* mkostemp, O_CLOEXEC, O_NOFOLLOW */

#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sodium.h>

#define MAX_OUTS 8

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void fileio_say(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

const char *fileio_shown(char *out, size_t len, const char *name)
{
    size_t o = 0;

    if (!len)
        return out;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        char e[5];
        int el = *c < 0x20 || *c >= 0x7f || *c == '\\'
                     ? snprintf(e, sizeof e, "\\x%02x", *c)
                     : (e[0] = (char)*c, 1);
        if (o + (size_t)el + 1 > len)
            break;
        memcpy(out + o, e, (size_t)el);
        o += (size_t)el;
    }
    out[o] = '\0';
    return out;
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

/* ---- the inputs of this run --------------------------------------------- */

#define MAX_INPUTS 64

static struct {
    dev_t dev;
    ino_t ino;
    char name[256];
} inputs[MAX_INPUTS];
static size_t ninputs;

static void note(const struct stat *st, const char *path)
{
    for (size_t i = 0; i < ninputs; i++)
        if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
            return;
    if (ninputs == MAX_INPUTS)
        return;
    inputs[ninputs].dev = st->st_dev;
    inputs[ninputs].ino = st->st_ino;
    snprintf(inputs[ninputs].name, sizeof inputs[0].name, "%s", path);
    ninputs++;
}

void fileio_note_input(const char *path)
{
    struct stat st;

    if (path && strcmp(path, "-") != 0 && stat(path, &st) == 0)
        note(&st, path);
}

void fileio_note_input_fd(int fd, const char *path)
{
    struct stat st;

    if (fstat(fd, &st) == 0)
        note(&st, path);
}

/* The input that st is, or NULL. */
static const char *input_of(const struct stat *st)
{
    for (size_t i = 0; i < ninputs; i++)
        if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
            return inputs[i].name;
    return NULL;
}

int fileio_check_private(const char *path, mode_t mode, char *err,
                         size_t errlen)
{
    if (!(mode & 077))
        return FILEIO_OK;
    if (strcmp(path, "-") == 0)
        fileio_say(err, errlen, "standard input: permissions %04o let others "
            "access this secret file", (unsigned)(mode & 07777));
    else
        fileio_say(err, errlen, "%s: permissions %04o let others access this "
            "secret file; run: chmod 600 %s", path,
            (unsigned)(mode & 07777), path);
    return FILEIO_ERROR;
}

/* ---- reading ------------------------------------------------------------- */

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif
#ifndef SYSFS_MAGIC
#define SYSFS_MAGIC 0x62656572
#endif

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
            fileio_say(err, errlen, "%s: %s", path, strerror(errno));
            return FILEIO_ERROR;
        }
    }
    if (fstat(f, &st) != 0) {
        fileio_say(err, errlen, "%s: %s", fileio_display(path), strerror(errno));
        goto fail;
    }
    if (S_ISDIR(st.st_mode) || (!stream && !S_ISREG(st.st_mode))) {
        fileio_say(err, errlen, "%s %s", fileio_display(path),
            not_regular(st.st_mode));
        goto fail;
    }
    struct statfs fs;
    if (!stream && fstatfs(f, &fs) == 0 &&
        (fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC)) {
        /* their "regular" files may block a read forever (/proc/kmsg) */
        fileio_say(err, errlen, "%s is a kernel interface file (/proc, /sys), not "
            "a regular file", path);
        goto fail;
    }
    if ((flags & FILEIO_SECRET) &&
        fileio_check_private(path, S_ISREG(st.st_mode) ? st.st_mode : 0,
                             err, errlen) != FILEIO_OK)
        goto fail;
    if (!stream)
        note(&st, path);
    if (!stream) {
        int fl = fcntl(f, F_GETFL);
        if (fl < 0 || fcntl(f, F_SETFL, fl & ~O_NONBLOCK) != 0) {
            fileio_say(err, errlen, "%s: %s", path, strerror(errno));
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

/* All of fd (closed here, unless standard input) as exactly *len bytes,
 * refusing more than cap; name is for messages. */
static int read_fd(int fd, const char *name, size_t cap, uint8_t **buf,
                   size_t *len, char *err, size_t errlen)
{
    uint8_t *b = NULL, *nb;
    size_t used = 0, bcap = 0;
    struct stat st;
    int e = 0;

    if (fd != STDIN_FILENO && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        (unsigned long long)st.st_size > cap) {
        fileio_say(err, errlen, "%s: too large (%lld bytes, at most %zu)", name,
            (long long)st.st_size, cap);
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
            fileio_say(err, errlen, "%s: too large (over %zu bytes)", name, cap);
        else
            fileio_say(err, errlen, "%s: %s", name, strerror(e));
        return FILEIO_ERROR;
    }
    /* exactly len bytes, so that fileio_free(buf, len) wipes all of it */
    if ((nb = malloc(used ? used : 1)) == NULL) {
        fileio_free(b, bcap);
        fileio_say(err, errlen, "%s: out of memory", name);
        return FILEIO_ERROR;
    }
    memcpy(nb, b, used);
    fileio_free(b, bcap);
    *buf = nb;
    *len = used;
    return FILEIO_OK;
}

int fileio_read(const char *path, size_t cap, unsigned flags, uint8_t **buf,
                size_t *len, mode_t *mode, char *err, size_t errlen)
{
    mode_t md;
    int fd;

    *buf = NULL;
    *len = 0;
    if (fileio_open_input(path, flags, &fd, &md, err, errlen) != FILEIO_OK ||
        read_fd(fd, fileio_display(path), cap, buf, len, err, errlen) !=
            FILEIO_OK)
        return FILEIO_ERROR;
    if (mode)
        *mode = md;
    return FILEIO_OK;
}

int fileio_read_at(int dirfd, const char *dirpath, const char *name,
                   size_t cap, uint8_t **buf, size_t *len, char *err,
                   size_t errlen)
{
    char shown[4096], nm[256];
    struct stat st;
    int fd;

    *buf = NULL;
    *len = 0;
    if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 ||
        strcmp(name, "..") == 0) {
        fileio_say(err, errlen, "%s: '%.60s' is not a plain file name inside the "
            "folder", dirpath, fileio_shown(nm, sizeof nm, name));
        return FILEIO_ERROR;
    }
    snprintf(shown, sizeof shown, "%.2000s/%.255s", dirpath,
             fileio_shown(nm, sizeof nm, name));
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        fileio_say(err, errlen, "%s: %s", shown,
            errno == ENOENT ? "missing" : strerror(errno));
        return FILEIO_ERROR;
    }
    if (S_ISLNK(st.st_mode)) {
        fileio_say(err, errlen, "%s: is a symbolic link; only regular files inside "
            "the folder are read", shown);
        return FILEIO_ERROR;
    }
    if (!S_ISREG(st.st_mode)) {
        fileio_say(err, errlen, "%s: not a regular file", shown);
        return FILEIO_ERROR;
    }
    fd = openat(dirfd, name,
                O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        fileio_say(err, errlen, "%s: %s", shown, strerror(errno));
        return FILEIO_ERROR;
    }
    /* checked again on the descriptor: the name may have changed */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        (void)close(fd);
        fileio_say(err, errlen, "%s: not a regular file", shown);
        return FILEIO_ERROR;
    }
    note(&st, shown);
    return read_fd(fd, shown, cap, buf, len, err, errlen);
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
        fileio_say(err, errlen, "'%s': names a directory, not a file", path);
        return FILEIO_ERROR;
    }
    if (system_folder(path) || link_to_system(path)) {
        fileio_say(err, errlen, "%s: a system file or a link to a standard stream; "
            "refusing to replace it (use - for standard output)", path);
        return FILEIO_ERROR;
    }
    if (lstat(path, &st) != 0) {
        char dir[4096];
        const char *slash = strrchr(path, '/');
        if (errno != ENOENT) {
            fileio_say(err, errlen, "%s: %s", path, strerror(errno));
            return FILEIO_ERROR;
        }
        /* a new file: its folder must exist and take it */
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1,
                 slash ? path : ".");
        if (access(dir, W_OK | X_OK) != 0) {
            fileio_say(err, errlen, "%s: cannot create it: %s", path,
                strerror(errno));
            return FILEIO_ERROR;
        }
        return FILEIO_OK;
    }
    if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
        fileio_say(err, errlen, "%s %s; refusing to replace it", path,
            not_regular(st.st_mode));
        return FILEIO_ERROR;
    }
    struct stat target;
    const char *in = input_of(&st);
    if (!in && stat(path, &target) == 0)
        in = input_of(&target);
    if (in && !(flags & FILEIO_INPLACE)) {
        fileio_say(err, errlen, "%s: the output is the input %s; refusing to "
            "overwrite it", path, in);
        return FILEIO_ERROR;
    }
    if (S_ISLNK(st.st_mode) && stat(path, &target) == 0 &&
        !S_ISREG(target.st_mode)) {
        fileio_say(err, errlen, "%s: a symbolic link to %s; refusing to "
            "replace it (use - for standard output)", path,
            not_regular(target.st_mode) + 3);
        return FILEIO_ERROR;
    }
    if (!(flags & FILEIO_FORCE)) {
        fileio_say(err, errlen, "%s: already exists", path);
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

/* ---- the outputs of this run ------------------------------------------- */

#define MAX_CLAIMS 16

static char claims[MAX_CLAIMS][4096];
static size_t nclaims;

/* path with its folder resolved ("a/../b" and "./b" are one name). */
static void canonical(char *out, size_t len, const char *path)
{
    char dir[4096], real[4096];
    const char *slash = strrchr(path, '/');

    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1,
             slash ? path : ".");
    int r = realpath(dir, real)
                ? snprintf(out, len, "%s/%s", real, slash ? slash + 1 : path)
                : -1;
    if (r < 0 || (size_t)r >= len)
        snprintf(out, len, "%s", path);
}

int fileio_claim_output(const char *path, unsigned flags, char *err,
                        size_t errlen)
{
    char c[4096];
    struct stat a, b;
    int rc = fileio_check_output(path, flags, err, errlen);

    if (rc != FILEIO_OK || strcmp(path, "-") == 0)
        return rc;
    canonical(c, sizeof c, path);
    for (size_t i = 0; i < nclaims; i++)
        if (strcmp(claims[i], c) == 0 ||
            (lstat(claims[i], &a) == 0 && lstat(c, &b) == 0 &&
             a.st_dev == b.st_dev && a.st_ino == b.st_ino)) {
            fileio_say(err, errlen, "%s: named twice as an output", path);
            return FILEIO_ERROR;
        }
    if (nclaims < MAX_CLAIMS)
        snprintf(claims[nclaims++], sizeof claims[0], "%s", c);
    return FILEIO_OK;
}

/* One file on its way: the temporary it is staged in and, once committed,
 * the hard link that keeps the file it replaced. */
struct stage {
    char tmp[4096], keep[4096];
    int staged, committed, kept, moved;
};

/* "DIR/.tts-WHAT-XXXXXX" beside path: a short name (15 bytes), so that
 * every name a folder takes can be written. */
static int sibling(char *out, size_t len, const char *path, const char *what)
{
    const char *slash = strrchr(path, '/');
    int dl = slash ? (int)(slash - path + 1) : 0;
    int r = snprintf(out, len, "%.*s.tts-%s-XXXXXX", dl, path, what);
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

int fileio_write_all(int fd, const uint8_t *b, size_t len)
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
        fileio_say(err, errlen, "%s: name too long", o->path);
        return FILEIO_ERROR;
    }
    if ((fd = mkostemp(s->tmp, O_CLOEXEC)) < 0) {
        fileio_say(err, errlen, "%s: cannot create a file beside it: %s", o->path,
            strerror(errno));
        return FILEIO_ERROR;
    }
    s->staged = 1;
    e = fchmod(fd, o->flags & FILEIO_SECRET ? 0600 : 0666 & ~um) ? errno : 0;
    if (!e)
        e = fileio_write_all(fd, o->data, o->len);
    if (!e && fsync(fd) != 0)
        e = errno;
    if (close(fd) != 0 && !e)
        e = errno;
    if (e) {
        fileio_say(err, errlen, "%s: %s", o->path, strerror(e));
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
        fileio_say(err, errlen, "%s: already exists", o->path);
        return FILEIO_EXISTS;
    }
    if (exists) {
        /* link() does not follow a symbolic link: the link itself is kept */
        int fd;
        if (sibling(s->keep, sizeof s->keep, o->path, "old") != 0 ||
            (fd = mkostemp(s->keep, O_CLOEXEC)) < 0) {
            fileio_say(err, errlen, "%s: cannot keep the old file aside: %s",
                o->path, strerror(errno));
            return FILEIO_ERROR;
        }
        (void)close(fd);
        (void)unlink(s->keep); /* the name is reserved; the link takes it */
        if (link(o->path, s->keep) != 0) {
            /* a file system without hard links: the old file is moved
             * aside (and put back on failure); the name is briefly absent */
            if (rename(o->path, s->keep) != 0) {
                fileio_say(err, errlen, "%s: cannot keep the old file aside: %s",
                    o->path, strerror(errno));
                return FILEIO_ERROR;
            }
            s->moved = 1;
        }
        s->kept = 1;
        if (rename(s->tmp, o->path) != 0) {
            fileio_say(err, errlen, "%s: %s", o->path, strerror(errno));
            return FILEIO_ERROR;
        }
    } else if (link(s->tmp, o->path) == 0) {
        (void)unlink(s->tmp);
    } else if (errno == EEXIST) {
        fileio_say(err, errlen, "%s: already exists", o->path);
        return FILEIO_EXISTS;
    } else if (rename(s->tmp, o->path) != 0) {
        fileio_say(err, errlen, "%s: %s", o->path, strerror(errno));
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
    int e = fileio_write_all(STDOUT_FILENO, data, len);
    if (e) {
        fileio_say(err, errlen, "standard output: %s", strerror(e));
        return FILEIO_ERROR;
    }
    return FILEIO_OK;
}

/* An exclusive lock (flock) on each folder of outs, taken in the order of
 * their inode numbers: two runs committing to one folder take turns, so
 * that a set of files (a key pair) is never mixed from both. Best effort
 * on a file system without flock. The number of descriptors in fds. */
static size_t lock_folders(const fileio_out *outs, size_t n, int *fds)
{
    struct stat st[MAX_OUTS];
    size_t k = 0;

    for (size_t i = 0; i < n; i++) {
        char dir[4096];
        const char *slash = strrchr(outs[i].path, '/');
        snprintf(dir, sizeof dir, "%.*s",
                 slash ? (int)(slash - outs[i].path) + 1 : 1,
                 slash ? outs[i].path : ".");
        int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
            continue;
        struct stat t;
        size_t j = 0;
        if (fstat(fd, &t) != 0)
            j = k;
        else
            while (j < k && !(st[j].st_dev == t.st_dev &&
                              st[j].st_ino == t.st_ino))
                j++;
        if (j < k || fstat(fd, &t) != 0) {
            (void)close(fd);
            continue;
        }
        /* insertion by (device, inode) */
        for (j = k; j > 0 && (st[j - 1].st_dev > t.st_dev ||
                              (st[j - 1].st_dev == t.st_dev &&
                               st[j - 1].st_ino > t.st_ino)); j--) {
            st[j] = st[j - 1];
            fds[j] = fds[j - 1];
        }
        st[j] = t;
        fds[j] = fd;
        k++;
    }
    for (size_t i = 0; i < k; i++)
        while (flock(fds[i], LOCK_EX) != 0 && errno == EINTR)
            ;
    return k;
}

int fileio_commit(const fileio_out *outs, size_t n, char *err, size_t errlen)
{
    struct stage s[MAX_OUTS];
    sigset_t block, old;
    int rc = FILEIO_OK;

    if (n == 1 && strcmp(outs[0].path, "-") == 0)
        return write_stdout(outs[0].data, outs[0].len, err, errlen);
    if (n == 0 || n > MAX_OUTS) {
        fileio_say(err, errlen, "internal error: %zu outputs", n);
        return FILEIO_ERROR;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(outs[i].path, "-") == 0) {
            fileio_say(err, errlen, "standard output cannot be one of several "
                "outputs");
            return FILEIO_ERROR;
        }
        if ((rc = fileio_check_output(outs[i].path, outs[i].flags, err,
                                      errlen)) != FILEIO_OK)
            return rc;
        for (size_t j = 0; j < i; j++)
            if (strcmp(outs[i].path, outs[j].path) == 0) {
                fileio_say(err, errlen, "%s: named twice as an output",
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
    /* the lock first: a run waiting for it can still be interrupted */
    int locks[MAX_OUTS];
    size_t nlocks = lock_folders(outs, n, locks);
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
    for (size_t i = 0; i < nlocks; i++)
        (void)close(locks[i]); /* releases the lock */
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
            fileio_say(err, errlen, "%s: out of memory", streams[i].path);
            rc = FILEIO_ERROR;
        } else if (!discard) {
            rc = fileio_write(streams[i].path, streams[i].buf, streams[i].len,
                              flags, err, errlen);
        }
        free(streams[i].buf);
        streams[i].buf = NULL;
        return rc;
    }
    fileio_say(err, errlen, "internal error: not a stream");
    return FILEIO_ERROR;
}
