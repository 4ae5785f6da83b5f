/* SPDX-License-Identifier: MIT */
/* The challenge library's file and process functions (chal_io in
 * challenge/challenge.h), under the file rules of common/fileio.h. */
#include "challenge.h"
#include "challenge_cli.h"
#include "fileio.h"

static int rc_of(int rc)
{
    return rc == FILEIO_OK ? CHAL_OK : CHAL_ERROR;
}

static int read_at(int dirfd, const char *dirpath, const char *name,
                   size_t cap, uint8_t **buf, size_t *len, char *err,
                   size_t errlen)
{
    return rc_of(fileio_read_at(dirfd, dirpath, name, cap, buf, len, err,
                                errlen));
}

static int check_output(const char *path, char *err, size_t errlen)
{
    return rc_of(fileio_check_output(path, 0, err, errlen));
}

static int write_file(const char *path, const void *data, size_t len,
                      int secret, char *err, size_t errlen)
{
    return rc_of(fileio_write(path, data, len, secret ? FILEIO_SECRET : 0,
                              err, errlen));
}

static int temp_dir(char *out, size_t len, const char *prefix, char *err,
                    size_t errlen)
{
    return rc_of(fileio_temp_dir(out, len, prefix, 0, err, errlen));
}

static int temp_add(const char *path, int secret)
{
    return rc_of(fileio_temp_add(path, secret ? FILEIO_SECRET : 0));
}

static const chal_io tool_io = {
    fileio_shown, read_at, check_output, write_file, temp_dir, temp_add,
    fileio_temp_done, fileio_child_add, fileio_child_done,
};

void challenge_io_init(void)
{
    chal_set_io(&tool_io);
}
