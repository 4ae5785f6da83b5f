/* SPDX-License-Identifier: MIT */
/* Checking a claimed solution, and reveal-check (challenge/challenge.h).
 * The folder is the attacker's: nothing in it is taken on trust. */
#define _GNU_SOURCE /* fdopendir */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "challenge.h"

#define say chal_fail

/* The manifest of the instance folder d, parsed strictly, for set p. */
static int read_manifest(const chal_dir *d, int set, chal_manifest *m,
                         char *err, size_t errlen)
{
    uint8_t *text;
    size_t len;
    char why[256];

    if (chal_dir_read(d, "manifest.json", CHAL_MAX_FILE_BYTES, &text, &len,
                      err, errlen) != CHAL_OK)
        return CHAL_ERROR;
    int rc = chal_manifest_parse((const char *)text, len, m, why, sizeof why);
    free(text);
    if (rc != CHAL_OK)
        return say(err, errlen, "%s/manifest.json: %s", d->path, why);
    if (m->set != set) {
        say(err, errlen, "%s/manifest.json: names %s, the folder is %s",
            d->path, chal_set_name(m->set), chal_set_name(set));
        chal_manifest_free(m);
        return CHAL_ERROR;
    }
    return CHAL_OK;
}

void chal_target_free(chal_target *t)
{
    free(t->pk);
    t->pk = NULL;
}

int chal_target_load(chal_target *t, const char *dir, const tts_params *p,
                     unsigned idx, const uint8_t pin[32], char *err,
                     size_t errlen)
{
    int set = chal_set_of(p);
    if (set < 0) {
        memset(t, 0, sizeof *t);
        return say(err, errlen, "not a set of the challenge");
    }
    return chal_target_load_set(t, dir, set, idx, pin, err, errlen);
}

int chal_target_load_set(chal_target *t, const char *dir, int set,
                         unsigned idx, const uint8_t pin[32], char *err,
                         size_t errlen)
{
    chal_dir top, sub = {-1, ""};
    chal_manifest man = {0};
    uint8_t *raw = NULL, *msg = NULL, *dg = NULL;
    size_t rawlen = 0, msglen = 0, dglen = 0;
    uint8_t h[32];
    const char *pkname[CHAL_MAX_PK_FILES];
    char name[32], why[256];
    int rc = CHAL_ERROR;

    memset(t, 0, sizeof *t);
    t->set = set;
    t->p = chal_set_params(set);
    t->message = idx;
    if (chal_set_usable(set, err, errlen) != CHAL_OK)
        return CHAL_ERROR;
    chal_set_folder(name, sizeof name, set);
    (void)chal_set_pk_files(set, pkname);
    if (chal_dir_open(&top, dir, err, errlen) != CHAL_OK)
        return CHAL_ERROR;
    if (chal_dir_sub(&sub, &top, name, why, sizeof why) != CHAL_OK) {
        say(err, errlen, "no challenge for %s: %s", chal_set_name(set), why);
        goto out;
    }
    if (read_manifest(&sub, set, &man, err, errlen) != CHAL_OK)
        goto out;
    if (idx < 1 || idx > man.nmessages) {
        say(err, errlen, "%s has messages 1..%u, not %u", sub.path,
            man.nmessages, idx);
        goto out;
    }
    /* the public key: the manifest's hash, and the published one */
    if (chal_dir_read(&sub, pkname[0], CHAL_MAX_FILE_BYTES, &raw, &rawlen,
                      err, errlen) != CHAL_OK)
        goto out;
    if (chal_set_pk_decode(set, raw, rawlen, &t->pk, &t->pklen, why,
                           sizeof why) != CHAL_OK) {
        say(err, errlen, "%s/%s: %s", sub.path, pkname[0], why);
        goto out;
    }
    crypto_hash_sha256(h, t->pk, t->pklen);
    sodium_bin2hex(t->pk_sha256_hex, sizeof t->pk_sha256_hex, h, sizeof h);
    if (memcmp(h, man.pk_sha256, 32) != 0) {
        say(err, errlen, "%s/%s: SHA-256 of the key is %s, the manifest "
            "says pk_sha256 differs", sub.path, pkname[0], t->pk_sha256_hex);
        goto out;
    }
    if (pin && memcmp(h, pin, 32) != 0) {
        say(err, errlen, "%s/%s: SHA-256 of the key is %s, not the "
            "published value given with --pk-sha256", sub.path, pkname[0],
            t->pk_sha256_hex);
        goto out;
    }
    /* the message: its digest, the manifest's and the .digest file's */
    const chal_message *cm = &man.messages[idx - 1];
    if (chal_dir_read(&sub, cm->file, CHAL_MAX_FILE_BYTES, &msg, &msglen, err,
                      errlen) != CHAL_OK)
        goto out;
    /* the text of message I is fixed by the set, I, K and the date: a
     * folder that puts another message's text (with its digest and
     * manifest entry) in slot I is caught here, not trusted */
    char want[512];
    int wl = chal_message_text(want, sizeof want, set, idx, man.nmessages,
                               man.issued);
    if (wl < 0 || (size_t)wl != msglen || memcmp(want, msg, msglen) != 0) {
        say(err, errlen, "%s/%s: not the text of challenge message %u of %u "
            "issued %s", sub.path, cm->file, idx, man.nmessages, man.issued);
        goto out;
    }
    size_t db = chal_set_digest_bytes(set);
    if (chal_set_digest(set, t->digest, msg, msglen, err, errlen) != CHAL_OK)
        goto out;
    if (memcmp(t->digest, cm->digest, db) != 0) {
        say(err, errlen, "%s/%s: its digest differs from the manifest's "
            "digest of message %u", sub.path, cm->file, idx);
        goto out;
    }
    snprintf(name, sizeof name, "msg-%u.digest", idx);
    if (chal_dir_read(&sub, name, CHAL_MAX_FILE_BYTES, &dg, &dglen, err,
                      errlen) != CHAL_OK)
        goto out;
    if (dglen != db || memcmp(dg, t->digest, db) != 0) {
        say(err, errlen, "%s/%s: differs from the digest of message %u",
            sub.path, name, idx);
        goto out;
    }
    rc = CHAL_OK;
out:
    if (rc != CHAL_OK)
        chal_target_free(t);
    free(raw);
    free(msg);
    free(dg);
    chal_manifest_free(&man);
    chal_dir_close(&sub);
    chal_dir_close(&top);
    return rc;
}

int chal_verify(const char *dir, const tts_params *p, const uint8_t *sig,
                unsigned idx, const uint8_t pin[32], chal_verdict *v,
                char *err, size_t errlen)
{
    int set = chal_set_of(p);
    if (set < 0) {
        memset(v, 0, sizeof *v);
        return say(err, errlen, "not a set of the challenge");
    }
    return chal_verify_set(dir, set, sig, idx, pin, v, err, errlen);
}

int chal_verify_set(const char *dir, int set, const uint8_t *sig,
                    unsigned idx, const uint8_t pin[32], chal_verdict *v,
                    char *err, size_t errlen)
{
    chal_target t;

    memset(v, 0, sizeof *v);
    v->set = set;
    v->p = chal_set_params(set);
    if (chal_target_load_set(&t, dir, set, idx, pin, err, errlen) != CHAL_OK) {
        memcpy(v->pk_sha256_hex, t.pk_sha256_hex, sizeof v->pk_sha256_hex);
        return CHAL_ERROR;
    }
    memcpy(v->pk_sha256_hex, t.pk_sha256_hex, sizeof v->pk_sha256_hex);
    int rc = chal_set_verify(set, sig, t.digest, t.pk);
    chal_target_free(&t);
    return rc;
}

/* ---- reveal-check -------------------------------------------------------- */

/* A folder's manifest.json (b, len) issued before "status": the same
 * instance as the recomputed one (f) in the old layout. */
static int old_manifest_matches(const uint8_t *b, size_t len,
                                const chal_file *f)
{
    chal_manifest got, want;
    size_t ol;
    char *old;
    int same = 0;

    if (chal_manifest_parse((const char *)b, len, &got, NULL, 0) != CHAL_OK)
        return 0;
    if (got.old_prize &&
        chal_manifest_parse((const char *)f->data, f->len, &want, NULL, 0) ==
            CHAL_OK) {
        if ((old = chal_manifest_render_old(&want, &ol)) != NULL) {
            same = ol == len && memcmp(old, b, len) == 0;
            free(old);
        }
        chal_manifest_free(&want);
    }
    chal_manifest_free(&got);
    return same;
}

/* Compare the folder d with inst: each difference one line on report.
 * Returns the number of differences. */
static unsigned compare_instance(const chal_dir *d, const chal_instance *inst,
                                 FILE *report)
{
    unsigned bad = 0;
    char why[512];

    for (size_t i = 0; i < inst->nfiles; i++) {
        const chal_file *f = &inst->files[i];
        uint8_t *b;
        size_t len;
        if (chal_dir_read(d, f->name, CHAL_MAX_FILE_BYTES, &b, &len, why,
                          sizeof why) != CHAL_OK) {
            fprintf(report, "  %s\n", why);
            bad++;
            continue;
        }
        if ((len != f->len || memcmp(b, f->data, len) != 0) &&
            !(strcmp(f->name, "manifest.json") == 0 &&
              old_manifest_matches(b, len, f))) {
            fprintf(report, "  %s/%s: differs from the recomputation\n",
                    d->path, f->name);
            bad++;
        }
        free(b);
    }
    /* and nothing else in the folder */
    int fd = dup(d->fd);
    DIR *dp = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dp) {
        if (fd >= 0)
            (void)close(fd);
        fprintf(report, "  %s: cannot list: %s\n", d->path, strerror(errno));
        return bad + 1;
    }
    rewinddir(dp);
    for (struct dirent *e; (e = readdir(dp)) != NULL;) {
        size_t i = 0;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        while (i < inst->nfiles && strcmp(inst->files[i].name, e->d_name))
            i++;
        if (i == inst->nfiles) {
            char nm[1100];
            fprintf(report, "  %s/%.200s: not part of the challenge\n",
                    d->path, chal_io_get()->shown(nm, sizeof nm, e->d_name));
            bad++;
        }
    }
    closedir(dp);
    return bad;
}

int chal_reveal_check(const char *dir, const uint8_t master[CHAL_MASTER_BYTES],
                      FILE *report, char *err, size_t errlen)
{
    chal_dir top;
    uint8_t *text;
    size_t len;
    unsigned mask, k, bad = 0, found = 0;
    char date[11], why[512];

    if (chal_dir_open(&top, dir, err, errlen) != CHAL_OK)
        return CHAL_ERROR;
    if (chal_dir_read(&top, CHAL_INDEX_NAME, CHAL_MAX_FILE_BYTES, &text, &len,
                      err, errlen) != CHAL_OK) {
        chal_dir_close(&top);
        return CHAL_ERROR;
    }
    int rc = chal_index_parse((const char *)text, len, &mask, &k, date, why,
                              sizeof why);
    free(text);
    if (rc != CHAL_OK) {
        chal_dir_close(&top);
        return say(err, errlen, "%s/%s", top.path, why);
    }
    /* the index itself, recomputed */
    size_t ilen;
    char *index = chal_index_render(mask, k, date, &ilen);
    if (!index) {
        chal_dir_close(&top);
        return say(err, errlen, "out of memory");
    }
    unsigned top_bad = 0;

    for (int i = 0; i < chal_set_count(); i++) {
        const char *setname = chal_set_name(i);
        chal_instance inst;
        chal_dir sub;
        char name[32];
        unsigned b;
        if (!(mask & (1u << i)))
            continue;
        found++;
        chal_set_folder(name, sizeof name, i);
        if (chal_dir_sub(&sub, &top, name, why, sizeof why) != CHAL_OK) {
            fprintf(report, "%-11s MISMATCH\n  %s\n", setname, why);
            bad++;
            continue;
        }
        if (chal_instance_build(&inst, i, master, k, date, why, sizeof why) !=
            CHAL_OK) {
            chal_dir_close(&sub);
            free(index);
            chal_dir_close(&top);
            return say(err, errlen, "%s", why);
        }
        /* the lines are buffered so that the verdict comes first */
        char *lines = NULL;
        size_t llen = 0;
        FILE *mem = open_memstream(&lines, &llen);
        b = mem ? compare_instance(&sub, &inst, mem) : 1;
        if (mem)
            fclose(mem);
        fprintf(report, "%-11s %s (%u files", setname,
                b ? "MISMATCH" : "ok", (unsigned)inst.nfiles);
        if (b)
            fprintf(report, ", %u differences", b);
        fprintf(report, ")\n%s", lines ? lines : "");
        free(lines);
        bad += b != 0;
        chal_instance_free(&inst);
        chal_dir_close(&sub);
    }
    /* the top folder: the index and the instance folders, nothing else */
    {
        uint8_t *b;
        size_t bl;
        if (chal_dir_read(&top, CHAL_INDEX_NAME, CHAL_MAX_FILE_BYTES, &b, &bl,
                          why, sizeof why) == CHAL_OK) {
            if (bl != ilen || memcmp(b, index, ilen) != 0) {
                fprintf(report, "%s/%s: differs from the recomputation\n",
                        top.path, CHAL_INDEX_NAME);
                top_bad++;
            }
            free(b);
        }
        int fd = dup(top.fd);
        DIR *dp = fd >= 0 ? fdopendir(fd) : NULL;
        if (dp) {
            rewinddir(dp);
            for (struct dirent *e; (e = readdir(dp)) != NULL;) {
                int j = chal_set_of_folder_name(e->d_name);
                if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
                    !strcmp(e->d_name, CHAL_INDEX_NAME))
                    continue;
                if (j < 0 || !(mask & (1u << j))) {
                    char nm[1100];
                    fprintf(report, "%s/%.200s: not part of the challenge\n",
                            top.path, chal_io_get()->shown(nm, sizeof nm, e->d_name));
                    top_bad++;
                }
            }
            closedir(dp);
        } else if (fd >= 0) {
            (void)close(fd);
        }
    }
    free(index);
    chal_dir_close(&top);
    fprintf(report, "%s: %u of %u instances match the revealed seed%s\n",
            bad || top_bad ? "MISMATCH" : "OK", found - bad, found,
            top_bad ? "; the top folder differs" : "");
    return bad || top_bad ? CHAL_INVALID : CHAL_OK;
}
