/*
 * The file rules of every libtts tool (tts, tts-card, tts-challenge,
 * tts-bench), in one place:
 *
 * Reading. A named input must be a regular file: directories, FIFOs,
 * devices and sockets are refused before a byte is read (the open is
 * non-blocking, so a FIFO without a writer cannot hang the tool). "-" is
 * standard input where the caller allows it: a stream, read to its end,
 * capped like a file.
 *
 * Writing. Output goes to a temporary file in the destination's directory,
 * is flushed with fsync, then renamed into place: a reader sees the old
 * file or the new one, never a part. Without FILEIO_FORCE an existing
 * destination is kept (the rename is a link, which fails if the name
 * exists). A symbolic link at the destination is never followed: it is
 * replaced (with FILEIO_FORCE) like any file, and what it pointed to is
 * untouched; a link to a directory, a device or a FIFO (/dev/stdout) is
 * refused, not replaced. Destinations that are directories, devices or FIFOs are
 * refused. A failed write deletes only the tool's own temporary file.
 * Several files written with fileio_commit appear together or not at all:
 * files they replace are kept aside until the last rename succeeds, and
 * put back otherwise. Secret outputs are created 0600; others get 0666
 * less the umask.
 *
 * Functions returning int give FILEIO_OK or a negative code and leave an
 * English reason, starting with the path, in err.
 */
#ifndef TTS_FILEIO_H
#define TTS_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FILEIO_OK      0
#define FILEIO_ERROR  (-1)
#define FILEIO_EXISTS (-2) /* output exists and FILEIO_FORCE not given */

/* read flags */
#define FILEIO_STDIN   1u /* "-" names standard input */
/* write flags */
#define FILEIO_FORCE   2u /* replace an existing destination */
#define FILEIO_SECRET  4u /* mode 0600 */

/* "standard input" / "standard output" for "-", else path. */
const char *fileio_display(const char *path);

/* Open path for reading under the rules above; *fd is the descriptor
 * (STDIN_FILENO for "-", which the caller must not close) and *mode the
 * file's mode (0 for a stream). */
int fileio_open_input(const char *path, unsigned flags, int *fd, mode_t *mode,
                      char *err, size_t errlen);

/* The whole of path, at most cap bytes, as a heap copy of exactly *len
 * bytes (free with fileio_free). *mode as for fileio_open_input; NULL is
 * allowed. */
int fileio_read(const char *path, size_t cap, unsigned flags, uint8_t **buf,
                size_t *len, mode_t *mode, char *err, size_t errlen);

/* Wipe then free a buffer of len bytes; NULL is allowed. */
void fileio_free(uint8_t *buf, size_t len);

/* The checks a write makes before it creates anything, to be run before
 * expensive work: FILEIO_EXISTS if path exists and flags lacks
 * FILEIO_FORCE, FILEIO_ERROR for a directory, a device, a FIFO, an empty
 * name or a name ending in "/". "-" always passes. */
int fileio_check_output(const char *path, unsigned flags, char *err,
                        size_t errlen);

/* 1 if output exists and is the same file (device and inode, links
 * followed) as input, else 0. "-" never matches. */
int fileio_same_file(const char *output, const char *input);

/* One destination of fileio_commit. */
typedef struct {
    const char *path;
    const void *data;
    size_t len;
    unsigned flags; /* FILEIO_FORCE, FILEIO_SECRET */
} fileio_out;

/* Write every file of outs under the rules above, all or none. "-" writes
 * to standard output (only as the last of outs). */
int fileio_commit(const fileio_out *outs, size_t n, char *err, size_t errlen);

/* fileio_commit of one file. */
int fileio_write(const char *path, const void *data, size_t len,
                 unsigned flags, char *err, size_t errlen);

/* Reports written as they are computed: fileio_stream_open gives a FILE
 * that collects the text in memory; fileio_stream_close writes it to its
 * path with fileio_write ("-": standard output) and frees it, or, with
 * discard, only frees it. NULL / FILEIO_ERROR on failure (err). */
#include <stdio.h>
FILE *fileio_stream_open(const char *path);
int fileio_stream_close(FILE *f, unsigned flags, int discard, char *err,
                        size_t errlen);

#endif /* TTS_FILEIO_H */
