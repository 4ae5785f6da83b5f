/* SPDX-License-Identifier: MIT */
/* The issuer's side of the challenge: challenge/challenge.h. */
#define _GNU_SOURCE /* mkdtemp, realpath */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "challenge.h"

#define LABEL_INSTANCE   "libtts challenge instance"
#define LABEL_COMMITMENT "libtts challenge commitment"

/* TTS Challenge table (docs/SPEC.md, section 12, table A). */
static const chal_entry table[] = {
#define TTS_SET(M, N, V, A, B, BITS, PRIZE) {M, N, BITS, PRIZE},
#include "tts_sets.def"
};

#define say chal_fail

const chal_entry *chal_entry_of(const tts_params *p)
{
    for (size_t i = 0; p && i < sizeof table / sizeof table[0]; i++)
        if (table[i].m == tts_params_m(p) && table[i].n == tts_params_n(p))
            return &table[i];
    return NULL;
}

void chal_folder_name(char *out, size_t len, const tts_params *p)
{
    chal_set_folder(out, len, chal_set_of(p));
}

const tts_params *chal_set_of_folder(const char *name)
{
    return chal_set_params(chal_set_of_folder_name(name));
}

int chal_valid_date(const char *d)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30,
                                 31, 31, 30, 31, 30, 31};

    if (strlen(d) != 10 || d[4] != '-' || d[7] != '-')
        return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (d[i] < '0' || d[i] > '9'))
            return 0;
    int y = atoi(d), mo = (d[5] - '0') * 10 + (d[6] - '0');
    int dy = (d[8] - '0') * 10 + (d[9] - '0');
    if (mo < 1 || mo > 12 || dy < 1)
        return 0;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return dy <= days[mo - 1] + (mo == 2 && leap);
}

void chal_instance_seed(uint8_t seed[TTS_SEED_BYTES],
                        const uint8_t master[CHAL_MASTER_BYTES], int set)
{
    crypto_hash_sha512_state st;
    uint8_t h[64];
    const char *name = chal_set_name(set);

    crypto_hash_sha512_init(&st);
    crypto_hash_sha512_update(&st, (const uint8_t *)LABEL_INSTANCE,
                              strlen(LABEL_INSTANCE));
    crypto_hash_sha512_update(&st, master, CHAL_MASTER_BYTES);
    crypto_hash_sha512_update(&st, (const uint8_t *)name, strlen(name));
    crypto_hash_sha512_final(&st, h);
    memcpy(seed, h, TTS_SEED_BYTES);
    sodium_memzero(h, sizeof h);
    sodium_memzero(&st, sizeof st);
}

void chal_commitment_hex(char out[129], const uint8_t seed[TTS_SEED_BYTES])
{
    crypto_hash_sha512_state st;
    uint8_t h[64];

    crypto_hash_sha512_init(&st);
    crypto_hash_sha512_update(&st, (const uint8_t *)LABEL_COMMITMENT,
                              strlen(LABEL_COMMITMENT));
    crypto_hash_sha512_update(&st, seed, TTS_SEED_BYTES);
    crypto_hash_sha512_final(&st, h);
    sodium_bin2hex(out, 129, h, sizeof h);
    sodium_memzero(&st, sizeof st);
}

int chal_message_text(char *out, size_t len, int set, unsigned idx,
                      unsigned k, const char *date)
{
    int r = snprintf(out, len,
                     "libtts TTS Challenge\n"
                     "dimension: %s\n"
                     "message: %u of %u\n"
                     "issued: %s\n"
                     "Forge a signature of this text under the public key "
                     "of this folder.\n",
                     chal_set_name(set), idx, k, date);
    return r > 0 && (size_t)r < len ? r : -1;
}

/* Append a file to inst, taking ownership of data. */
static int add_file(chal_instance *inst, const char *name, uint8_t *data,
                    size_t len)
{
    chal_file *f = &inst->files[inst->nfiles++];

    snprintf(f->name, sizeof f->name, "%s", name);
    f->data = data;
    f->len = len;
    return data ? CHAL_OK : CHAL_ERROR;
}

int chal_instance_keypair(const tts_params *p, const uint8_t master[CHAL_MASTER_BYTES],
                          uint8_t *pk, uint8_t **sk, uint8_t seed[TTS_SEED_BYTES],
                          char *err, size_t errlen)
{
    uint8_t s[TTS_SEED_BYTES];
    uint8_t *k = malloc(tts_sk_bytes(p));
    int rc = CHAL_ERROR;

    if (sk)
        *sk = NULL;
    if (!k) {
        say(err, errlen, "out of memory");
        return CHAL_ERROR;
    }
    chal_instance_seed(s, master, chal_set_of(p));
    if (tts_keypair_from_seed(p, pk, k, s) != TTS_OK) {
        say(err, errlen, "%s: key generation failed", tts_params_name(p));
    } else {
        rc = CHAL_OK;
        if (seed)
            memcpy(seed, s, sizeof s);
        if (sk)
            *sk = k, k = NULL;
    }
    sodium_memzero(s, sizeof s);
    chal_secret_free(p, k);
    return rc;
}

void chal_secret_free(const tts_params *p, uint8_t *sk)
{
    if (sk)
        sodium_memzero(sk, tts_sk_bytes(p));
    free(sk);
}

static uint8_t *copy(const void *src, size_t len)
{
    uint8_t *d = malloc(len ? len : 1);
    if (d)
        memcpy(d, src, len);
    return d;
}

int chal_instance_build(chal_instance *inst, int set,
                        const uint8_t master[CHAL_MASTER_BYTES], unsigned k,
                        const char *date, char *err, size_t errlen)
{
    size_t pkb, db;
    uint8_t seed[TTS_SEED_BYTES], pkh[32], *pk = NULL, *dg = NULL;
    const char *pkname[CHAL_MAX_PK_FILES];
    size_t mlen;
    char com[129], name[32], msg[512];
    int rc = CHAL_ERROR;

    memset(inst, 0, sizeof *inst);
    inst->set = set;
    inst->p = chal_set_params(set);
    if (chal_set_usable(set, err, errlen) != CHAL_OK)
        return CHAL_ERROR;
    if (k < 1 || k > CHAL_MAX_INSTANCES || !chal_valid_date(date))
        return say(err, errlen, "bad instance count or date");
    pkb = chal_set_pk_bytes(set);
    db = chal_set_digest_bytes(set);
    inst->files = calloc(1 + CHAL_MAX_PK_FILES + 2 * (size_t)k, sizeof *inst->files);
    pk = malloc(pkb);
    dg = malloc((size_t)k * db);
    if (!inst->files || !pk || !dg) {
        say(err, errlen, "out of memory");
        goto out;
    }
    /* the secret key is not kept: only pk and the commitment to the seed */
    chal_instance_seed(seed, master, set);
    if (chal_set_public_key(set, pk, seed, err, errlen) != CHAL_OK)
        goto out;
    for (size_t f = 0, nf = chal_set_pk_files(set, pkname); f < nf; f++) {
        size_t imglen;
        uint8_t *img = chal_set_pk_encode(set, f, pk, &imglen);
        if (add_file(inst, pkname[f], img, imglen) != CHAL_OK)
            goto oom;
    }
    for (unsigned i = 1; i <= k; i++) {
        int ml = chal_message_text(msg, sizeof msg, set, i, k, date);
        uint8_t *d = dg + (size_t)(i - 1) * db;
        if (ml < 0 || chal_set_digest(set, d, (const uint8_t *)msg, (size_t)ml, err,
                                      errlen) != CHAL_OK) {
            if (ml < 0)
                say(err, errlen, "message %u: internal error", i);
            goto out;
        }
        snprintf(name, sizeof name, "msg-%u.txt", i);
        if (add_file(inst, name, copy(msg, (size_t)ml), (size_t)ml) != 0)
            goto oom;
        snprintf(name, sizeof name, "msg-%u.digest", i);
        if (add_file(inst, name, copy(d, db), db) != 0)
            goto oom;
    }
    crypto_hash_sha256(pkh, pk, pkb);
    chal_commitment_hex(com, seed);
    char *man = chal_manifest_render(set, pkh, date, com, k, dg, &mlen);
    if (add_file(inst, "manifest.json", (uint8_t *)man, mlen) != CHAL_OK)
        goto oom;
    rc = CHAL_OK;
    goto out;
oom:
    say(err, errlen, "out of memory");
out:
    sodium_memzero(seed, sizeof seed);
    free(pk);
    free(dg);
    if (rc != CHAL_OK)
        chal_instance_free(inst);
    return rc;
}

void chal_instance_free(chal_instance *inst)
{
    for (size_t i = 0; inst->files && i < inst->nfiles; i++)
        free(inst->files[i].data);
    free(inst->files);
    inst->files = NULL;
    inst->nfiles = 0;
}

/* ---- generate ------------------------------------------------------------ */

/* The canonical form of a path that may not exist yet: realpath of its
 * longest existing prefix, then the rest with "." and ".." resolved. */
static int canonical(const char *path, char out[PATH_MAX + 256])
{
    char buf[PATH_MAX + 256], real[PATH_MAX];
    size_t cut;

    if (snprintf(buf, sizeof buf, "%s%s", path[0] == '/' ? "" : "./", path) >=
        (int)sizeof buf)
        return -1;
    /* the longest prefix (at a '/') that resolves */
    for (cut = strlen(buf);; ) {
        char save = buf[cut];
        buf[cut] = 0;
        int ok = realpath(cut ? buf : "/", real) != NULL;
        buf[cut] = save;
        if (ok)
            break;
        while (cut > 0 && buf[cut - 1] != '/')
            cut--;
        if (cut == 0)
            return -1;
        cut--; /* before the '/' */
    }
    snprintf(out, PATH_MAX + 256, "%s", real);
    for (char *c = buf + cut; *c;) {
        while (*c == '/')
            c++;
        char *e = c;
        while (*e && *e != '/')
            e++;
        size_t l = (size_t)(e - c);
        if (l == 0 || (l == 1 && c[0] == '.')) {
            /* nothing */
        } else if (l == 2 && c[0] == '.' && c[1] == '.') {
            char *slash = strrchr(out, '/');
            if (slash && slash != out)
                *slash = 0;
            else
                snprintf(out, PATH_MAX + 256, "/");
        } else {
            size_t ol = strlen(out);
            if (ol + l + 2 > PATH_MAX + 256)
                return -1;
            if (ol > 1 || out[0] != '/')
                out[ol++] = '/';
            memcpy(out + ol, c, l);
            out[ol + l] = 0;
        }
        c = e;
    }
    return 0;
}

/* Remove a folder tree this module made (two levels: top/set/file): the
 * files of each instance folder of the mask, its folder, the index. */
static void remove_tree(const char *top, unsigned mask)
{
    char path[PATH_MAX + 200], sub[32];

    for (int i = 0; i < chal_set_count(); i++) {
        if (!(mask & (1u << i)))
            continue;
        chal_set_folder(sub, sizeof sub, i);
        snprintf(path, sizeof path, "%s/%s", top, sub);
        int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        DIR *dp = fd >= 0 ? fdopendir(fd) : NULL;
        if (dp) {
            for (struct dirent *e; (e = readdir(dp)) != NULL;)
                if (chal_plain_name(e->d_name))
                    (void)unlinkat(fd, e->d_name, 0);
            closedir(dp);
        } else if (fd >= 0) {
            (void)close(fd);
        }
        (void)rmdir(path);
    }
    snprintf(path, sizeof path, "%s/%s", top, CHAL_INDEX_NAME);
    (void)unlink(path);
    (void)rmdir(top);
}

static int write_instance(const char *top, const chal_instance *inst,
                          char *err, size_t errlen)
{
    char sub[32], path[PATH_MAX + 200];

    chal_set_folder(sub, sizeof sub, inst->set);
    snprintf(path, sizeof path, "%s/%s", top, sub);
    if (mkdir(path, 0755) != 0)
        return say(err, errlen, "%s: %s", path, strerror(errno));
    for (size_t i = 0; i < inst->nfiles; i++) {
        snprintf(path, sizeof path, "%s/%s/%s", top, sub, inst->files[i].name);
        if (chal_io_get()->write(path, inst->files[i].data,
                                 inst->files[i].len, 0, err, errlen) != CHAL_OK)
            return CHAL_ERROR;
    }
    return CHAL_OK;
}

int chal_generate(const char *out, unsigned mask, unsigned k,
                  const char *date, const uint8_t master[CHAL_MASTER_BYTES],
                  const char *secret_out, char *err, size_t errlen)
{
    const chal_io *io = chal_io_get();
    char cout[PATH_MAX + 256], csec[PATH_MAX + 256], tmp[PATH_MAX + 64];
    struct stat st;
    int rc = CHAL_ERROR, secret_written = 0;

    if (!*out)
        return say(err, errlen, "--out: empty folder name");
    if (!mask || mask >> chal_set_count())
        return say(err, errlen, "no set, or an unknown set, to generate");
    for (int i = 0; i < chal_set_count(); i++)
        if ((mask & (1u << i)) && chal_set_usable(i, err, errlen) != CHAL_OK)
            return CHAL_ERROR;
    if (lstat(out, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return say(err, errlen, "%s: exists and is not a folder", out);
        if (rmdir(out) != 0) /* only an empty folder may be replaced */
            return say(err, errlen, "%s: exists and is not empty; refusing "
                       "to write into it", out);
        if (mkdir(out, st.st_mode & 07777) != 0)
            return say(err, errlen, "%s: %s", out, strerror(errno));
    }
    if (canonical(out, cout) != 0)
        return say(err, errlen, "%s: %s", out, strerror(errno));
    if (secret_out) {
        size_t l = strlen(cout);
        if (canonical(secret_out, csec) != 0)
            return say(err, errlen, "%s: %s", secret_out, strerror(errno));
        if (strcmp(csec, cout) == 0 ||
            (strncmp(csec, cout, l) == 0 && csec[l] == '/'))
            return say(err, errlen, "--secret-out %s lies inside the folder "
                       "%s, which is published: keep the master seed "
                       "elsewhere", secret_out, out);
        if (io->check_output(secret_out, err, errlen) != CHAL_OK)
            return CHAL_ERROR;
    }
    /* build beside out, then one rename: the folder appears whole */
    int tl = snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", cout);
    if (tl < 0 || (size_t)tl >= sizeof tmp - 64)
        return say(err, errlen, "%s: path too long", out);
    /* listed for the host's signal handler at once: an interrupted run
     * leaves no partial folder */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    if (!mkdtemp(tmp)) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        return say(err, errlen, "%s: cannot create a folder beside it: %s",
                   out, strerror(errno));
    }
    int listed = io->temp_add(tmp, 0) == CHAL_OK;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (!listed) {
        (void)rmdir(tmp);
        return say(err, errlen, "internal error: too many temporaries");
    }
    mode_t um = umask(022);
    umask(um);
    (void)chmod(tmp, 0777 & ~um); /* mkdtemp made it 0700 */
    for (int i = 0; i < chal_set_count(); i++) {
        chal_instance inst;
        if (!(mask & (1u << i)))
            continue;
        if (chal_instance_build(&inst, i, master, k, date, err, errlen) !=
            CHAL_OK)
            goto out;
        rc = write_instance(tmp, &inst, err, errlen);
        chal_instance_free(&inst);
        if (rc != CHAL_OK)
            goto out;
        rc = CHAL_ERROR;
    }
    size_t ilen;
    char *index = chal_index_render(mask, k, date, &ilen), path[PATH_MAX + 200];
    if (snprintf(path, sizeof path, "%s/%s", tmp, CHAL_INDEX_NAME) < 0 ||
        !index) {
        say(err, errlen, "out of memory");
        goto out;
    }
    int w = io->write(path, index, ilen, 0, err, errlen);
    free(index);
    if (w != CHAL_OK)
        goto out;
    if (secret_out) {
        /* until the folder is in place, a signal removes the seed too */
        (void)io->temp_add(secret_out, 1);
        if (io->write(secret_out, master, CHAL_MASTER_BYTES, 1, err,
                      errlen) != CHAL_OK) {
            io->temp_done(secret_out, 0);
            goto out;
        }
        secret_written = 1;
    }
    /* the folder in place and both taken off the list at once: a signal
     * now waits, and leaves the published folder and its seed whole */
    sigprocmask(SIG_BLOCK, &all, &old);
    if (rename(tmp, cout) != 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        say(err, errlen, "%s: %s", out, strerror(errno));
        goto out;
    }
    io->temp_done(tmp, 0);
    if (secret_written)
        io->temp_done(secret_out, 0);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return CHAL_OK;
out:
    remove_tree(tmp, mask);
    io->temp_done(tmp, 0);
    if (secret_written) {
        io->temp_done(secret_out, 0);
        (void)unlink(secret_out);
    }
    return CHAL_ERROR;
}
