/* SPDX-License-Identifier: MIT */
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

/* ---- the host's functions ---- */

static const char *no_shown(char *out, size_t len, const char *name)
{
    size_t o = 0;
    for (; len && name[o] && o + 1 < len; o++)
        out[o] = name[o] > 0x20 && name[o] < 0x7f ? name[o] : '?';
    if (len)
        out[o] = 0;
    return out;
}

static int no_read_at(int dirfd, const char *dirpath, const char *name,
                      size_t cap, uint8_t **buf, size_t *len, char *err,
                      size_t errlen)
{
    (void)dirfd, (void)name, (void)cap, (void)buf, (void)len;
    return say(err, errlen, "%s: no file access (chal_set_io not called)",
               dirpath);
}

static int no_check_output(const char *path, char *err, size_t errlen)
{
    return say(err, errlen, "%s: no file access (chal_set_io not called)",
               path);
}

static int no_write(const char *path, const void *data, size_t len,
                    int secret, char *err, size_t errlen)
{
    (void)data, (void)len, (void)secret;
    return no_check_output(path, err, errlen);
}

static int no_temp_dir(char *out, size_t len, const char *prefix, char *err,
                       size_t errlen)
{
    (void)out, (void)len;
    return no_check_output(prefix, err, errlen);
}

static int no_temp_add(const char *path, int secret)
{
    (void)path, (void)secret;
    return CHAL_OK;
}

static void no_temp_done(const char *path, int remove)
{
    (void)path, (void)remove;
}

static void no_child(pid_t pgid)
{
    (void)pgid;
}

static const chal_io no_io = {no_shown, no_read_at, no_check_output, no_write,
                              no_temp_dir, no_temp_add, no_temp_done,
                              no_child, no_child};
static const chal_io *host_io = &no_io;

void chal_set_io(const chal_io *io)
{
    host_io = io ? io : &no_io;
}

const chal_io *chal_io_get(void)
{
    return host_io;
}

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
    host_io->shown(d->path, sizeof d->path, path); /* for messages only */
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
                   host_io->shown(nm, sizeof nm, name));
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
    char nm[256];

    *buf = NULL;
    *len = 0;
    if (!chal_plain_name(name))
        return say(err, errlen, "%s: '%.60s' is not a plain file name inside "
                   "the folder", d->path, host_io->shown(nm, sizeof nm, name));
    return host_io->read_at(d->fd, d->path, name, cap, buf, len, err, errlen)
               == CHAL_OK ? CHAL_OK : CHAL_ERROR;
}
