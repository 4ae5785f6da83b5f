/* SPDX-License-Identifier: MIT */
/*
 * The tools' file rules (common/fileio.h) in process, in a private folder:
 * what a read refuses (directory, FIFO without blocking, kernel files,
 * oversize, links inside a folder, names that are not plain), what a write
 * keeps (existing files without FILEIO_FORCE, link targets, the inputs of
 * the run), the modes it gives, and that nothing but the outputs is left.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "%s/fileio-test.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char *at(const char *name)
{
    static char path[2][512];
    static int k;
    k ^= 1;
    snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
    return path[k];
}

static void put(const char *name, const char *text, mode_t mode)
{
    int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, mode);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    chmod(at(name), mode);
}

/* The first bytes of name, read without fileio (which would make it an
 * input of the run). */
static const char *slurp(const char *name)
{
    static char buf[64];
    int fd = open(at(name), O_RDONLY);
    ssize_t n;
    ck_assert_int_ge(fd, 0);
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = 0;
    return buf;
}

static int entries(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* fileio_read must fail with a reason containing want. */
static void read_refused(const char *path, size_t cap, unsigned flags,
                         const char *want)
{
    uint8_t *b = (uint8_t *)1;
    size_t len = 9;
    char err[512] = "";
    ck_assert_int_eq(fileio_read(path, cap, flags, &b, &len, NULL, err,
                                 sizeof err), FILEIO_ERROR);
    ck_assert_ptr_null(b);
    ck_assert_msg(strstr(err, want), "reason \"%s\", expected \"%s\"", err, want);
}

START_TEST(t_read)
{
    uint8_t *b;
    size_t len;
    mode_t mode;
    char err[512];
    put("a", "hello", 0644);
    ck_assert_int_eq(fileio_read(at("a"), 5, 0, &b, &len, &mode, err, sizeof err),
                     FILEIO_OK);
    ck_assert_uint_eq(len, 5);
    ck_assert_mem_eq(b, "hello", 5);
    ck_assert_uint_eq(mode & 0777, 0644);
    fileio_free(b, len);
    read_refused(at("a"), 4, 0, "too large");
    read_refused(dir, 100, 0, "is a directory");
    ck_assert_int_eq(mkfifo(at("fifo"), 0600), 0);
    read_refused(at("fifo"), 100, 0, "FIFO"); /* no writer: must not block */
    read_refused("/proc/self/status", 100000, 0, "kernel interface");
    read_refused(at("missing"), 100, 0, "No such file");
    /* a secret input others may read is refused, with the chmod */
    read_refused(at("a"), 100, FILEIO_SECRET, "chmod");
    chmod(at("a"), 0600);
    ck_assert_int_eq(fileio_read(at("a"), 100, FILEIO_SECRET, &b, &len, NULL,
                                 err, sizeof err), FILEIO_OK);
    fileio_free(b, len);
}
END_TEST

START_TEST(t_read_at)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    uint8_t *b = NULL;
    size_t len;
    char err[512];
    ck_assert_int_ge(dfd, 0);
    put("f", "data", 0644);
    ck_assert_int_eq(symlink(at("f"), at("link")), 0);
    ck_assert_int_eq(mkdir(at("sub"), 0755), 0);
    ck_assert_int_eq(fileio_read_at(dfd, "D", "f", 4, &b, &len, err, sizeof err),
                     FILEIO_OK);
    ck_assert_mem_eq(b, "data", 4);
    fileio_free(b, len);
    ck_assert_int_eq(fileio_read_at(dfd, "D", "f", 3, &b, &len, err, sizeof err),
                     FILEIO_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "D/f: too large"));
    ck_assert_int_eq(fileio_read_at(dfd, "D", "link", 9, &b, &len, err, sizeof err),
                     FILEIO_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "symbolic link"));
    ck_assert_int_eq(fileio_read_at(dfd, "D", "sub", 9, &b, &len, err, sizeof err),
                     FILEIO_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "not a regular file"));
    ck_assert_int_eq(fileio_read_at(dfd, "D", "../f", 9, &b, &len, err, sizeof err),
                     FILEIO_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "not a plain file name"));
    ck_assert_int_eq(fileio_read_at(dfd, "D", "nope", 9, &b, &len, err, sizeof err),
                     FILEIO_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "D/nope: missing"));
    close(dfd);
}
END_TEST

START_TEST(t_write)
{
    uint8_t *b;
    size_t len;
    char err[512];
    struct stat st;
    mode_t um = umask(022);
    ck_assert_int_eq(fileio_write(at("out"), "one", 3, 0, err, sizeof err),
                     FILEIO_OK);
    ck_assert_int_eq(stat(at("out"), &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0644);
    /* kept without FILEIO_FORCE, replaced with it */
    ck_assert_int_eq(fileio_write(at("out"), "two", 3, 0, err, sizeof err),
                     FILEIO_EXISTS);
    ck_assert_str_eq(slurp("out"), "one");
    ck_assert_int_eq(fileio_write(at("out"), "two", 3, FILEIO_FORCE, err,
                                  sizeof err), FILEIO_OK);
    ck_assert_str_eq(slurp("out"), "two");
    /* secret outputs are 0600 */
    ck_assert_int_eq(fileio_write(at("key"), "k", 1, FILEIO_SECRET, err,
                                  sizeof err), FILEIO_OK);
    ck_assert_int_eq(stat(at("key"), &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0600);
    /* a link at the destination is replaced, its target untouched */
    put("target", "precious", 0644);
    ck_assert_int_eq(symlink(at("target"), at("ln")), 0);
    ck_assert_int_eq(fileio_write(at("ln"), "new", 3, FILEIO_FORCE, err,
                                  sizeof err), FILEIO_OK);
    ck_assert_int_eq(lstat(at("ln"), &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert_str_eq(slurp("target"), "precious");
    ck_assert_str_eq(slurp("ln"), "new");
    /* an input of the run is never an output, --force or not */
    put("in", "input", 0644);
    ck_assert_int_eq(fileio_read(at("in"), 99, 0, &b, &len, NULL, err, sizeof err),
                     FILEIO_OK);
    fileio_free(b, len);
    ck_assert_int_eq(fileio_write(at("in"), "x", 1, FILEIO_FORCE, err, sizeof err),
                     FILEIO_ERROR);
    ck_assert_int_eq(link(at("in"), at("hard")), 0);
    ck_assert_int_eq(fileio_write(at("hard"), "x", 1, FILEIO_FORCE, err, sizeof err),
                     FILEIO_ERROR);
    /* a directory is not replaced */
    ck_assert_int_eq(mkdir(at("d"), 0755), 0);
    ck_assert_int_eq(fileio_write(at("d"), "x", 1, FILEIO_FORCE, err, sizeof err),
                     FILEIO_ERROR);
    /* out, key, target, ln, in, hard, d: no temporary file left */
    ck_assert_int_eq(entries(), 7);
    umask(um);
}
END_TEST

START_TEST(t_commit_pair)
{
    char err[512];
    fileio_out two[2] = {{at("p1"), "a", 1, 0}, {at("p2"), "b", 1, 0}};
    put("p2", "old", 0644);
    /* the second exists: neither is written */
    ck_assert_int_eq(fileio_commit(two, 2, err, sizeof err), FILEIO_EXISTS);
    ck_assert_int_eq(access(at("p1"), F_OK), -1);
    two[1].flags = FILEIO_FORCE;
    ck_assert_int_eq(fileio_commit(two, 2, err, sizeof err), FILEIO_OK);
    ck_assert_int_eq(access(at("p1"), F_OK), 0);
    ck_assert_int_eq(entries(), 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fileio");
    TCase *tc = tcase_create("rules");
    SRunner *sr;
    int nf;

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, t_read);
    tcase_add_test(tc, t_read_at);
    tcase_add_test(tc, t_write);
    tcase_add_test(tc, t_commit_pair);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    /* fork mode: each test has the fresh list of inputs of a new run */
    srunner_run_all(sr, CK_NORMAL);
    nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
