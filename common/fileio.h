/* SPDX-License-Identifier: MIT */
/*
 * The file rules of every libtts tool (tts, tts-card, tts-challenge,
 * tts-bench), in one place. In short: an output is never an input, never
 * followed through a link, never replaces a file without --force, and a
 * signal leaves nothing behind.
 *
 * Reading. A named input must be a regular file: directories, FIFOs,
 * devices, sockets and the kernel's files under /proc and /sys (which may
 * block a read forever) are refused before a byte is read (the open is
 * non-blocking, so a FIFO without a writer cannot hang the tool). "-" is
 * standard input where the caller allows it: a stream, read to its end,
 * capped like a file. A secret input (key, seed, master seed, randomness
 * key, card state) that group or others may access is refused, with the
 * chmod that fixes it. Every file read is remembered as an input of the
 * run.
 *
 * Writing. An output is never an input of the run (the same file, through
 * any name or link): it is refused, --force or not, and before any work
 * when the tool names its outputs first (fileio_claim_output, which also
 * refuses one file named as two outputs). Output goes to a temporary file
 * in the destination's directory, under a short name, so that any name
 * the folder takes can be written; it is flushed with fsync, then renamed
 * into place: a reader sees the old file or the new one, never a part.
 * Without FILEIO_FORCE an existing destination is kept (the rename is a
 * link, which fails if the name exists). A symbolic link at the
 * destination is never followed: it is replaced (with FILEIO_FORCE) like
 * any file, and what it pointed to is untouched; a link to a directory, a
 * device or a FIFO (/dev/stdout) is refused, not replaced. Destinations
 * that are directories, devices or FIFOs are refused. A failed write
 * deletes only the tool's own temporary file. Several files written with
 * fileio_commit appear together or not at all: files they replace are
 * kept aside until the last rename succeeds, and put back otherwise; two
 * runs committing into one folder take turns (a lock on the folder), so
 * a pair is never mixed from both. Secret outputs are created 0600; others
 * get 0666 less the umask. Files made by a program the tool runs (a chart
 * by gnuplot) are made in a temporary folder and committed by these rules.
 *
 * Signals. Temporary files and folders (fileio_temp_dir, fileio_temp_add)
 * and the process groups of programs the tool runs (fileio_child_add) are
 * listed: on SIGINT, SIGTERM or SIGHUP the groups are killed and the
 * temporaries removed (secret ones overwritten first), then the tool dies
 * of the signal (exit status 128 + its number); at exit the same removal
 * runs. Temporary folders are made under $TMPDIR, as an absolute path.
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
#define FILEIO_NOPROG (-3) /* fileio_run_in: the program is not on PATH */

/* read flags */
#define FILEIO_STDIN   1u /* "-" names standard input */
/* write flags */
#define FILEIO_FORCE   2u /* replace an existing destination */
#define FILEIO_SECRET  4u /* written 0600; read: refused if others may read
                             it; temporaries: wiped before removal */
#define FILEIO_INPLACE 8u /* an input updated in place (the card's state
                             file): exempt from "never an input" */

/* The English reason fmt into err (nothing if err is NULL or errlen 0). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void fileio_say(char *err, size_t errlen, const char *fmt, ...);

/* Name path as an input of the run before it is read (a file that does
 * not exist yet is ignored). */
void fileio_note_input(const char *path);
/* The same for a file the caller opened itself (fd) and names path. */
void fileio_note_input_fd(int fd, const char *path);

/* FILEIO_OK if mode lets only the owner in, else the refusal with its
 * chmod (for "-": without it). */
int fileio_check_private(const char *path, mode_t mode, char *err,
                         size_t errlen);

/* name as it may be printed: control bytes, bytes from 0x7F up and the
 * backslash as \xHH, so that a file name cannot forge or hide a line on a
 * terminal; cut to fit len. Every name read from a folder is printed
 * through it. Returns out. */
const char *fileio_shown(char *out, size_t len, const char *name);

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

/* name inside the open folder dirfd (dirpath names it in messages), read
 * as fileio_read reads a file: a plain name only (no '/', "." or ".."),
 * never through a symbolic link, a regular file only (checked again on the
 * descriptor), at most cap bytes; remembered as an input of the run. */
int fileio_read_at(int dirfd, const char *dirpath, const char *name,
                   size_t cap, uint8_t **buf, size_t *len, char *err,
                   size_t errlen);

/* Wipe then free a buffer of len bytes; NULL is allowed. */
void fileio_free(uint8_t *buf, size_t len);

/* The checks a write makes before it creates anything, to be run before
 * expensive work: FILEIO_EXISTS if path exists and flags lacks
 * FILEIO_FORCE, FILEIO_ERROR for a directory, a device, a FIFO, an empty
 * name or a name ending in "/". "-" always passes. */
int fileio_check_output(const char *path, unsigned flags, char *err,
                        size_t errlen);

/* fileio_check_output, and path is an output of this run: naming the same
 * file again (another spelling, a hard link) is refused. */
int fileio_claim_output(const char *path, unsigned flags, char *err,
                        size_t errlen);

/* 1 if output exists and is the same file (device and inode, links
 * followed) as input, else 0. "-" never matches. */
int fileio_same_file(const char *output, const char *input);

/* All len bytes of b to fd, through short writes and EINTR: 0, or the
 * errno of the failure (EIO for a write of nothing). */
int fileio_write_all(int fd, const uint8_t *b, size_t len);

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

/* Signals (see above). fileio_temp_dir makes $TMPDIR/PREFIX.XXXXXX (mode
 * 0700; out gets its absolute path) and lists it; fileio_temp_add lists a
 * temporary file or folder the caller made. fileio_temp_done takes path off
 * the list, removing it first if remove (a folder with all it holds).
 * fileio_child_add lists a process group to kill (call it with signals
 * blocked between fork and the call); fileio_child_done when it is reaped. */
int fileio_temp_dir(char *out, size_t len, const char *prefix,
                    unsigned flags, char *err, size_t errlen);
int fileio_temp_add(const char *path, unsigned flags);
void fileio_temp_done(const char *path, int remove);
void fileio_child_add(pid_t pgid);
void fileio_child_done(pid_t pgid);

/* Files made by a program (gnuplot's charts): argv run (on PATH, stdin
 * /dev/null, in its own process group) in a fresh temporary folder that
 * holds the files of in (path: a plain name; data, len), then every other
 * file it made there written to dest/NAME by fileio_write with flags. */
int fileio_run_in(char *const argv[], const fileio_out *in, size_t nin,
                  const char *dest, unsigned flags, char *err, size_t errlen);

#endif /* TTS_FILEIO_H */
