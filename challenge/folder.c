/* Reading a challenge folder that an attacker may have prepared
 * (challenge/challenge.h): below the folder given, no symbolic link is
 * followed, only regular files are read, every read is bounded, and no
 * open can block (a FIFO is refused, not waited on). */
#define _GNU_SOURCE /* O_NOFOLLOW, O_DIRECTORY, O_CLOEXEC */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "challenge.h"
#include "fileio.h"

int chal_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err && errlen) {
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return CHAL_ERROR;
}

#define say chal_fail

int chal_plain_name(const char *name)
{
    if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return 0;
    for (const char *c = name; *c; c++)
        if (*c == '/' || *c < 0x21 || *c > 0x7e)
            return 0;
    return 1;
}

int chal_dir_open(chal_dir *d, const char *path, char *err, size_t errlen)
{
    struct stat st;

    d->fd = -1;
    fileio_shown(d->path, sizeof d->path, path); /* for messages only */
    if (stat(path, &st) != 0)
        return say(err, errlen, "%s: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return say(err, errlen, "%s: not a folder", path);
    if ((d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        return say(err, errlen, "%s: %s", path, strerror(errno));
    return CHAL_OK;
}

int chal_dir_sub(chal_dir *sub, const chal_dir *top, const char *name,
                 char *err, size_t errlen)
{
    struct stat st;

    sub->fd = -1;
    int pl = snprintf(sub->path, sizeof sub->path, "%s/%s", top->path, name);
    if (pl < 0 || (size_t)pl >= sizeof sub->path)
        return say(err, errlen, "%s: path too long", top->path);
    char nm[256];
    if (!chal_plain_name(name))
        return say(err, errlen, "'%s' is not a plain folder name",
                   fileio_shown(nm, sizeof nm, name));
    if (fstatat(top->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return say(err, errlen, "%s: %s", sub->path,
                   errno == ENOENT ? "missing" : strerror(errno));
    if (S_ISLNK(st.st_mode))
        return say(err, errlen, "%s: is a symbolic link; a challenge folder "
                   "must hold its instances itself", sub->path);
    if (!S_ISDIR(st.st_mode))
        return say(err, errlen, "%s: not a folder", sub->path);
    sub->fd = openat(top->fd, name,
                     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub->fd < 0)
        return say(err, errlen, "%s: %s", sub->path, strerror(errno));
    return CHAL_OK;
}

void chal_dir_close(chal_dir *d)
{
    if (d->fd >= 0)
        (void)close(d->fd);
    d->fd = -1;
}

int chal_dir_read(const chal_dir *d, const char *name, size_t cap,
                  uint8_t **buf, size_t *len, char *err, size_t errlen)
{
    struct stat st;
    uint8_t *b;
    size_t got = 0;
    int fd;

    *buf = NULL;
    *len = 0;
    char nm[256];
    if (!chal_plain_name(name))
        return say(err, errlen, "%s: '%.60s' is not a plain file name inside "
                   "the folder", d->path, fileio_shown(nm, sizeof nm, name));
    if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return say(err, errlen, "%s/%s: %s", d->path, name,
                   errno == ENOENT ? "missing" : strerror(errno));
    if (S_ISLNK(st.st_mode))
        return say(err, errlen, "%s/%s: is a symbolic link; only regular "
                   "files inside the folder are read", d->path, name);
    if (!S_ISREG(st.st_mode))
        return say(err, errlen, "%s/%s: not a regular file", d->path, name);
    fd = openat(d->fd, name,
                O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return say(err, errlen, "%s/%s: %s", d->path, name, strerror(errno));
    /* checked again on the descriptor: the name may have changed */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        (void)close(fd);
        return say(err, errlen, "%s/%s: not a regular file", d->path, name);
    }
    char shown[4096];
    snprintf(shown, sizeof shown, "%.2000s/%.255s", d->path, name);
    fileio_note_input_fd(fd, shown);
    if ((unsigned long long)st.st_size > cap) {
        (void)close(fd);
        return say(err, errlen, "%s/%s: too large (%lld bytes, at most %zu)",
                   d->path, name, (long long)st.st_size, cap);
    }
    if ((b = malloc(cap + 1)) == NULL) {
        (void)close(fd);
        return say(err, errlen, "out of memory");
    }
    for (;;) {
        ssize_t r = read(fd, b + got, cap + 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            (void)close(fd);
            free(b);
            return say(err, errlen, "%s/%s: %s", d->path, name, strerror(e));
        }
        if (r == 0)
            break;
        got += (size_t)r;
        if (got > cap) {
            (void)close(fd);
            free(b);
            return say(err, errlen, "%s/%s: too large (over %zu bytes)",
                       d->path, name, cap);
        }
    }
    (void)close(fd);
    *buf = b;
    *len = got;
    return CHAL_OK;
}
