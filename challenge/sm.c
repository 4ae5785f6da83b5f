/* SPDX-License-Identifier: MIT */
/*
 * The Support Minors system (sm.h) and its two solvers.
 *
 * Dense: the whole system, row reduced; for the small sets.
 *
 * Wiedemann: the system is never written out. Its rows come in blocks, one
 * per I, each the n x (per cols) matrix [A_l] applied to the unknown blocks
 * z[I + l]; a random E (r x n) compresses every block to r_I rows, r_I
 * chosen so that the operator B is square (N x N, N the unknowns), and
 * then B z is one blocksum kernel call per block over the fixed columns
 * E A_l: dense products in registers, threads over the blocks. The kernel
 * of B holds x (tensor) c. Wiedemann's method: the scalar sequence
 * s_i = w^T B^i v for i < 2N + 16, its minimal polynomial by
 * Berlekamp-Massey, f(X) = X^e g(X); then g(B) B^(e-1) v is in the kernel.
 * Only a few of its coordinates are needed (x is read from one block
 * z[S]), so the sequence of those coordinates of B^i v is kept as it runs
 * and the kernel vector's coordinates are a combination of them: no second
 * pass over the operator.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "challenge.h"
#include "gfla.h"
#include "sm.h"

size_t sm_binom(unsigned n, unsigned k)
{
    if (k > n)
        return 0;
    size_t r = 1;
    for (unsigned i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* Colex rank of the sorted k-subset s. */
static size_t rank_of(const unsigned *s, unsigned k)
{
    size_t r = 0;
    for (unsigned t = 0; t < k; t++)
        r += sm_binom(s[t], t + 1);
    return r;
}

/* The next k-subset of {0..n-1} in colex order; 0 after the last. */
static int next_subset(unsigned *s, unsigned k, unsigned n)
{
    for (unsigned t = 0; t < k; t++) {
        unsigned lim = t + 1 < k ? s[t + 1] : n;
        if (s[t] + 1 < lim) {
            s[t]++;
            for (unsigned u = 0; u < t; u++)
                s[u] = u;
            return 1;
        }
    }
    return 0;
}

/* For every I (colex order) and every l not in I, in increasing l: l and
 * the rank of I + l. per = mf - d + 1 entries an I. */
static int build_index(const sm_system *s, size_t nI, unsigned *lof, uint32_t *sof)
{
    unsigned I[32], S[32], per = s->mf - s->d + 1;
    for (unsigned t = 0; t + 1 < s->d; t++)
        I[t] = t;
    for (size_t ii = 0; ii < nI; ii++) {
        unsigned e = 0;
        for (unsigned l = 0; l < s->mf; l++) {
            unsigned in = 0, q = 0;
            for (unsigned t = 0; t + 1 < s->d; t++)
                in |= I[t] == l;
            if (in)
                continue;
            for (unsigned t = 0; t + 1 < s->d; t++) {
                if (q == t && l < I[t])
                    S[q++] = l;
                S[q++] = I[t];
            }
            if (q < s->d)
                S[q++] = l;
            lof[ii * per + e] = l;
            sof[ii * per + e] = (uint32_t)rank_of(S, s->d);
            e++;
        }
        if (e != per)
            return -1;
        if (s->d > 1)
            next_subset(I, s->d - 1, s->mf);
    }
    return 0;
}

/* x from the blocks z[S] (cols bytes each, nb of them): the first nonzero
 * block, if every block is a multiple of it. */
static int rank_one(const uint8_t *z, size_t nb, unsigned cols, uint8_t *x)
{
    size_t first = nb;
    for (size_t b = 0; b < nb && first == nb; b++)
        for (unsigned i = 0; i < cols; i++)
            if (z[b * cols + i])
                first = b;
    if (first == nb)
        return 0;
    const uint8_t *x0 = z + first * cols;
    unsigned p = 0;
    while (!x0[p])
        p++;
    for (size_t b = 0; b < nb; b++) {
        const uint8_t *zb = z + b * cols;
        uint8_t f = gmul(zb[p], gfla_inv[x0[p]]);
        for (unsigned i = 0; i < cols; i++)
            if (zb[i] != gmul(f, x0[i]))
                return 0;
    }
    memcpy(x, x0, cols);
    return 1;
}

static int solve_dense(const sm_system *s, const sm_env *env, size_t nI, size_t nS,
                       const unsigned *lof, const uint32_t *sof, uint8_t *x,
                       sm_stats *st, char *err, size_t errlen)
{
    unsigned per = s->mf - s->d + 1, cols = s->cols;
    size_t N = nS * cols, rows = (size_t)s->n * nI;
    uint8_t *M = calloc(rows * N + 1, 1), *ker = malloc(2 * N + 1);
    if (!M || !ker) {
        free(M);
        free(ker);
        return chal_fail(err, errlen, "break: no memory for a %zu x %zu system", rows, N);
    }
    for (size_t ii = 0; ii < nI; ii++)
        for (unsigned j = 0; j < s->n; j++) {
            uint8_t *R = M + (ii * s->n + j) * N;
            for (unsigned e = 0; e < per; e++) {
                unsigned l = lof[ii * per + e];
                memcpy(R + (size_t)sof[ii * per + e] * cols,
                       s->A + ((size_t)l * s->n + j) * cols, cols);
            }
        }
    size_t dim = gfla_kernel(env->k, M, rows, N, ker, 2);
    st->no_kernel = dim == 0;
    int r = dim == 1 ? rank_one(ker, nS, cols, x) : 0;
    free(M);
    free(ker);
    return r;
}

/* ---- the structured operator, on threads ---- */

typedef struct {
    const tts_kernels *k;
    unsigned per, cols;
    size_t nI;
    const uint8_t *F;      /* (l cols + i) 64 + row: E A_l, column-major */
    uint32_t *mo, *xo;     /* blocksum offsets, per entries an I */
    size_t *off;           /* output offset of block I */
    uint8_t *rows;         /* r_I */
    /* the pool */
    unsigned nth;
    pthread_t tid[64];
    const uint8_t *in;
    uint8_t *out;
    const uint8_t *w;      /* the projection: each thread dots its part */
    uint8_t partial[64];
    /* a round: the main thread bumps gen (under mu, broadcasting go); each
     * worker applies its part and counts itself into done (under mu,
     * signalling fin when the last). Waiters spin briefly first. */
    pthread_mutex_t mu;
    pthread_cond_t go, fin;
    atomic_uint gen, done;
    atomic_int quit;
} op_t;

#define SPINS 20000

/* w . x over len bytes, by the backend's vmul into tmp. */
static uint8_t dot(const tts_kernels *k, const uint8_t *w, const uint8_t *x, size_t len,
                   uint8_t *tmp)
{
    k->vmul(tmp, w, x, len);
    uint64_t acc = 0;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t t;
        memcpy(&t, tmp + i, 8);
        acc ^= t;
    }
    uint8_t r = 0;
    for (; i < len; i++)
        r ^= tmp[i];
    for (unsigned b = 0; b < 8; b++)
        r ^= (uint8_t)(acc >> (8 * b));
    return r;
}


#define CHUNK 32

/* Blocks lo..hi-1 of out = B in, and w . (those bytes of out) into
 * partial[id]. */
static void apply_range(op_t *op, unsigned id, size_t lo, size_t hi)
{
    uint8_t tmp[CHUNK * 64], pr[CHUNK * 64], s = 0;
    for (size_t i = lo; i < hi; i += CHUNK) {
        size_t cnt = hi - i < CHUNK ? hi - i : CHUNK;
        op->k->blocksum(tmp, op->F, op->mo + i * op->per, op->in, op->xo + i * op->per,
                        cnt, op->per, op->cols);
        for (size_t t = 0; t < cnt; t++)
            memcpy(op->out + op->off[i + t], tmp + 64 * t, op->rows[i + t]);
        size_t from = op->off[i], to = op->off[i + cnt - 1] + op->rows[i + cnt - 1];
        s ^= dot(op->k, op->w + from, op->out + from, to - from, pr);
    }
    op->partial[id] = s;
}

static void part(op_t *op, unsigned id, size_t *lo, size_t *hi)
{
    *lo = op->nI * id / op->nth;
    *hi = op->nI * (id + 1) / op->nth;
}

typedef struct {
    op_t *op;
    unsigned id;
} warg;

static void *work(void *arg)
{
    warg *w = arg;
    op_t *op = w->op;
    unsigned seen = 0;
    for (;;) {
        unsigned spins = 0;
        while (atomic_load_explicit(&op->gen, memory_order_acquire) == seen &&
               !atomic_load(&op->quit) && ++spins < SPINS)
            ;
        pthread_mutex_lock(&op->mu);
        while (atomic_load(&op->gen) == seen && !atomic_load(&op->quit))
            pthread_cond_wait(&op->go, &op->mu);
        pthread_mutex_unlock(&op->mu);
        if (atomic_load(&op->quit))
            return NULL;
        seen = atomic_load(&op->gen);
        size_t lo, hi;
        part(op, w->id, &lo, &hi);
        apply_range(op, w->id, lo, hi);
        pthread_mutex_lock(&op->mu);
        if (atomic_fetch_add(&op->done, 1) + 1 == op->nth - 1)
            pthread_cond_signal(&op->fin);
        pthread_mutex_unlock(&op->mu);
    }
}

/* out = B in; returns w . out */
static uint8_t apply(op_t *op, uint8_t *out, const uint8_t *in)
{
    op->in = in;
    op->out = out;
    if (op->nth == 1) {
        apply_range(op, 0, 0, op->nI);
        return op->partial[0];
    }
    pthread_mutex_lock(&op->mu);
    atomic_store(&op->done, 0);
    atomic_fetch_add(&op->gen, 1);
    pthread_cond_broadcast(&op->go);
    pthread_mutex_unlock(&op->mu);
    size_t lo, hi;
    part(op, 0, &lo, &hi);
    apply_range(op, 0, lo, hi);
    unsigned spins = 0;
    while (atomic_load_explicit(&op->done, memory_order_acquire) != op->nth - 1 &&
           ++spins < SPINS)
        ;
    pthread_mutex_lock(&op->mu);
    while (atomic_load(&op->done) != op->nth - 1)
        pthread_cond_wait(&op->fin, &op->mu);
    pthread_mutex_unlock(&op->mu);
    uint8_t s = 0;
    for (unsigned t = 0; t < op->nth; t++)
        s ^= op->partial[t];
    return s;
}

static void pool_stop(op_t *op)
{
    pthread_mutex_lock(&op->mu);
    atomic_store(&op->quit, 1);
    pthread_cond_broadcast(&op->go);
    pthread_mutex_unlock(&op->mu);
    for (unsigned t = 1; t < op->nth; t++)
        pthread_join(op->tid[t], NULL);
}

/* Berlekamp-Massey on s[0..len): the connection polynomial C (C[0] = 1,
 * degree <= L) with sum_i C[i] s[t - i] = 0 for L <= t < len; returns L.
 * C, Bp, T and tmp hold len + 1 bytes; rs is s reversed. */
static size_t berlekamp_massey(const tts_kernels *k, const uint8_t *rs, size_t len,
                               uint8_t **Cp, uint8_t *Bp, uint8_t *T, uint8_t *tmp,
                               const sm_env *env)
{
    uint8_t *C = *Cp;
    memset(C, 0, len + 1);
    memset(Bp, 0, len + 1);
    C[0] = Bp[0] = 1;
    size_t L = 0, Lb = 0, shift = 1;
    uint8_t b = 1;
    for (size_t t = 0; t < len; t++) {
        uint8_t d = dot(k, C, rs + (len - 1 - t), L + 1, tmp);
        if (env->progress && (t & 0xFFFF) == 0)
            env->progress(env->progress_ctx, "Berlekamp-Massey", (double)t / (double)len);
        if (!d) {
            shift++;
            continue;
        }
        uint8_t coef = gmul(d, gfla_inv[b]);
        if (2 * L <= t) {
            memcpy(T, C, L + 1);
            k->madd(C + shift, Bp, coef, Lb + 1);
            uint8_t *old = Bp;
            Bp = T;
            T = old;
            Lb = L;
            L = t + 1 - L;
            b = d;
            shift = 1;
        } else {
            k->madd(C + shift, Bp, coef, Lb + 1);
            shift++;
        }
    }
    return L;
}

/* ---- checkpoints ----
 * The file: "TTSWDM02", the head (the run's seed, the run's id, the
 * SHA-256 of the public key, the sizes), then the Krylov state, the
 * sequence so far and the recorded projections. Read by a non-blocking
 * open of a regular file that is not a symbolic link; written to a fresh
 * temporary in the same folder (mode 0600), flushed, renamed into place. */

#define CK_MAGIC "TTSWDM02"

typedef struct {
    uint8_t seed[32]; /* the run's seed, so that a resumed run redraws it */
    uint8_t id[32];
    uint8_t pk_id[32]; /* SHA-256 of the public key under attack */
    uint64_t N, done, nproj;
} ck_head;

/* path opened for reading if it is a regular file (not a link, not a
 * FIFO: the open does not block); -1 with errno (ENOENT: none there). */
static int ck_open(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    return fd;
}

static int ck_read_head(int fd, ck_head *h)
{
    char mg[8];
    return read(fd, mg, 8) == 8 && !memcmp(mg, CK_MAGIC, 8) &&
           read(fd, h, sizeof *h) == (ssize_t)sizeof *h;
}

int sm_checkpoint_seed(const char *path, uint8_t seed[32])
{
    int fd = ck_open(path);
    if (fd < 0)
        return 0;
    ck_head h;
    int ok = ck_read_head(fd, &h);
    close(fd);
    if (ok)
        memcpy(seed, h.seed, 32);
    return ok;
}

int sm_checkpoint_check(const char *path, const uint8_t pk_id[32], char *err,
                        size_t errlen)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0
                               : chal_fail(err, errlen, "break: the checkpoint %s: %s", path,
                                           strerror(errno));
    if (S_ISLNK(st.st_mode))
        return chal_fail(err, errlen, "break: the checkpoint %s is a symbolic link: "
                         "refused (name the file itself)", path);
    if (!S_ISREG(st.st_mode))
        return chal_fail(err, errlen, "break: the checkpoint %s is not a regular file", path);
    int fd = ck_open(path);
    if (fd < 0)
        return chal_fail(err, errlen, "break: the checkpoint %s: %s", path, strerror(errno));
    ck_head h;
    int ok = ck_read_head(fd, &h);
    close(fd);
    if (!ok)
        return chal_fail(err, errlen, "break: %s exists and is not a checkpoint of the break: "
                         "refused (remove it or name another file)", path);
    if (memcmp(h.pk_id, pk_id, 32))
        return chal_fail(err, errlen, "break: %s is a checkpoint of another public key: "
                         "refused (remove it or name another file)", path);
    return 1;
}

static int write_all(int fd, const void *b, size_t len)
{
    const uint8_t *p = b;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

static int ck_save(const char *path, const ck_head *h, const uint8_t *cur,
                   const uint8_t *seq, const uint8_t *proj, size_t pc)
{
    char tmp[4096], dir[4096];
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    if (dl + 20 >= sizeof tmp)
        return -1;
    memcpy(tmp, path, dl);
    memcpy(tmp + dl, ".tts-ckpt-XXXXXX", 17);
    snprintf(dir, sizeof dir, "%.*s", dl ? (int)dl : 1, dl ? path : ".");
    int fd = mkstemp(tmp); /* a fresh file, mode 0600 */
    if (fd < 0)
        return -1;
    int ok = write_all(fd, CK_MAGIC, 8) == 0 && write_all(fd, h, sizeof *h) == 0 &&
             write_all(fd, cur, h->N) == 0 && write_all(fd, seq, h->done) == 0 &&
             write_all(fd, proj, pc * h->nproj) == 0;
    ok = (fsync(fd) == 0) & ok;
    ok = (close(fd) == 0) & ok;
    int e = errno;
    if (!ok || rename(tmp, path) != 0) {
        e = errno;
        unlink(tmp);
        errno = e;
        return -1;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return 0;
}

/* 1 resumed, 0 nothing to resume (no file, or another run's). */
static int ck_load(const char *path, const ck_head *want, ck_head *h, uint8_t *cur,
                   uint8_t *seq, uint8_t *proj, size_t pc, size_t seqcap, size_t projcap)
{
    int fd = ck_open(path);
    if (fd < 0)
        return 0;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return 0;
    }
    char mg[8];
    int ok = fread(mg, 1, 8, f) == 8 && !memcmp(mg, CK_MAGIC, 8) &&
             fread(h, sizeof *h, 1, f) == 1 && !memcmp(h->id, want->id, 32) &&
             !memcmp(h->pk_id, want->pk_id, 32) &&
             h->N == want->N && h->done <= seqcap && h->nproj <= projcap &&
             fread(cur, 1, h->N, f) == h->N && fread(seq, 1, h->done, f) == h->done &&
             fread(proj, pc, h->nproj, f) == h->nproj;
    fclose(f);
    return ok;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define NREC 4 /* blocks z[S] whose coordinates are recorded */

static int solve_wiedemann(const sm_system *s, const sm_env *env, size_t nI, size_t nS,
                           const unsigned *lof, const uint32_t *sof, uint8_t *x,
                           sm_stats *st, char *err, size_t errlen)
{
    const tts_kernels *k = env->k;
    unsigned per = s->mf - s->d + 1, cols = s->cols, n = s->n;
    size_t N = nS * cols, q = N / nI, rem = N % nI;
    unsigned rmax = (unsigned)(q + (rem != 0));
    if (rmax > 64 || rmax + 1 > n)
        return chal_fail(err, errlen, "break: %zu unknowns need %u rows a block, more "
                         "than the %u independent ones", N, rmax, n - 1);
    size_t L = 2 * N + 16, P = N + 2, pc = (size_t)NREC * cols;
    op_t *op = calloc(1, sizeof *op);
    uint8_t *E = malloc((size_t)rmax * n), *F = calloc((size_t)s->mf * cols * 64, 1);
    uint8_t *cur = malloc(N + 64), *nxt = malloc(N + 64), *w = malloc(N + 64);
    uint8_t *tmp = malloc(L + 64), *seq = malloc(L + 64), *proj = malloc(P * pc + 1);
    uint8_t *C = malloc(L + 64), *Bp = malloc(L + 64), *T = malloc(L + 64);
    uint32_t *mo = malloc(nI * per * sizeof *mo), *xo = malloc(nI * per * sizeof *xo);
    size_t *off = malloc(nI * sizeof *off);
    uint8_t *rows = malloc(nI);
    int ret = -1;
    if (!op || !E || !F || !cur || !nxt || !w || !tmp || !seq || !proj || !C || !Bp || !T ||
        !mo || !xo || !off || !rows) {
        chal_fail(err, errlen, "break: no memory for the Wiedemann solver (N = %zu)", N);
        goto out;
    }
    /* E, F = E A_l, the blocks */
    tts_stream_rng(env->rng, E, (size_t)rmax * n);
    for (unsigned l = 0; l < s->mf; l++)
        for (unsigned i = 0; i < cols; i++)
            for (unsigned r = 0; r < rmax; r++) {
                uint8_t acc = 0;
                for (unsigned j = 0; j < n; j++)
                    acc ^= gmul(E[(size_t)r * n + j], s->A[((size_t)l * n + j) * cols + i]);
                F[((size_t)l * cols + i) * 64 + r] = acc;
            }
    size_t o = 0;
    for (size_t ii = 0; ii < nI; ii++) {
        rows[ii] = (uint8_t)(q + (ii < rem));
        off[ii] = o;
        o += rows[ii];
        for (unsigned e = 0; e < per; e++) {
            mo[ii * per + e] = (uint32_t)((size_t)lof[ii * per + e] * cols * 64);
            xo[ii * per + e] = (uint32_t)((size_t)sof[ii * per + e] * cols);
        }
    }
    st->nonzeros = nI * (size_t)per * cols * (q + 1);
    /* the projections: v, w and the recorded blocks */
    uint8_t *v0 = nxt;
    tts_stream_rng(env->rng, v0, N);
    tts_stream_rng(env->rng, w, N);
    size_t rec[NREC];
    for (unsigned b = 0; b < NREC; b++) {
        uint8_t r8[8];
        tts_stream_rng(env->rng, r8, 8);
        uint64_t r = 0;
        for (unsigned t = 0; t < 8; t++)
            r = r << 8 | r8[t];
        rec[b] = (size_t)(r % nS);
    }
    /* the thread pool */
    op->k = k;
    op->per = per;
    op->cols = cols;
    op->nI = nI;
    op->F = F;
    op->mo = mo;
    op->xo = xo;
    op->off = off;
    op->rows = rows;
    op->nth = env->threads ? env->threads : 1;
    if (op->nth > 64)
        op->nth = 64;
    if (op->nth > nI)
        op->nth = (unsigned)nI;
    warg wa[64];
    unsigned started = 1;
    pthread_mutex_init(&op->mu, NULL);
    pthread_cond_init(&op->go, NULL);
    pthread_cond_init(&op->fin, NULL);
    for (unsigned t = 1; t < op->nth; t++) {
        wa[t].op = op;
        wa[t].id = t;
        if (pthread_create(&op->tid[t], NULL, work, &wa[t]) != 0)
            break;
        started++;
    }
    op->nth = started;
    st->threads = op->nth;
    /* the sequence, resumed from a checkpoint if one of this run exists */
    ck_head want = {.N = N}, h;
    memcpy(want.seed, env->seed, 32);
    memcpy(want.pk_id, env->pk_id, 32);
    {
        crypto_hash_sha256_state hs;
        crypto_hash_sha256_init(&hs);
        crypto_hash_sha256_update(&hs, env->run_id, 32);
        crypto_hash_sha256_update(&hs, s->A, (size_t)s->mf * n * cols);
        crypto_hash_sha256_final(&hs, want.id);
    }
    size_t t0 = 0;
    memcpy(cur, v0, N);
    if (env->checkpoint &&
        ck_load(env->checkpoint, &want, &h, cur, seq, proj, pc, L, P)) {
        t0 = h.done;
        st->resumed = 1;
    }
    double last = now();
    unsigned every = env->checkpoint_seconds ? env->checkpoint_seconds : 60;
    op->w = w;
    uint8_t s_next = dot(k, w, cur, N, tmp);
    for (size_t t = t0; t < L; t++) {
        seq[t] = s_next;
        if (t < P)
            for (unsigned b = 0; b < NREC; b++)
                memcpy(proj + t * pc + (size_t)b * cols, cur + rec[b] * cols, cols);
        if (t + 1 == L)
            break;
        s_next = apply(op, nxt, cur);
        st->matvecs++;
        uint8_t *sw = cur;
        cur = nxt;
        nxt = sw;
        int stop = env->stop_after && st->matvecs == env->stop_after;
        if ((t & 0x3FF) == 0 || stop) {
            double tn = now();
            if (env->progress)
                env->progress(env->progress_ctx, "Wiedemann sequence", (double)t / (double)L);
            if (env->checkpoint && (tn - last >= every || stop)) {
                ck_head hh = want;
                hh.done = t + 1;
                hh.nproj = t + 1 < P ? t + 1 : P;
                /* the state after step t: cur = B^(t+1) v */
                if (ck_save(env->checkpoint, &hh, cur, seq, proj, pc) != 0) {
                    chal_fail(err, errlen, "break: cannot write the checkpoint %s: %s",
                              env->checkpoint, strerror(errno));
                    goto stop;
                }
                last = tn;
                st->checkpoint_saved = 1;
            }
            if (stop) {
                chal_fail(err, errlen, "break: stopped after %zu operator applications",
                          st->matvecs);
                goto stop;
            }
        }
    }
    if (env->progress)
        env->progress(env->progress_ctx, "Wiedemann sequence", 1.0);
    /* the minimal polynomial */
    for (size_t t = 0; t < L; t++)
        tmp[t] = seq[L - 1 - t];
    memcpy(seq, tmp, L); /* seq now reversed */
    uint8_t *Cc = C;
    size_t deg = berlekamp_massey(k, seq, L, &Cc, Bp, T, tmp, env);
    /* f_t = C[deg - t]; e = lowest t with f_t != 0 */
    size_t e = 0;
    while (e <= deg && !Cc[deg - e])
        e++;
    ret = 0;
    if (e == 0 || e > deg || deg > N) {
        st->krylov_no_kernel = 1;
        goto stop; /* B is invertible on the Krylov space: no kernel */
    }
    uint8_t zp[NREC * 64];
    memset(zp, 0, sizeof zp);
    for (size_t t = e; t <= deg; t++) {
        uint8_t f = Cc[deg - t];
        if (f)
            k->madd(zp, proj + (t - 1) * pc, f, pc);
    }
    ret = rank_one(zp, NREC, cols, x);
stop:
    pool_stop(op);
    if (ret < 0 && !err[0])
        chal_fail(err, errlen, "break: the Wiedemann solver failed");
out:
    if (op && op->nth) {
        pthread_mutex_destroy(&op->mu);
        pthread_cond_destroy(&op->go);
        pthread_cond_destroy(&op->fin);
    }
    free(op);
    free(E);
    free(F);
    free(cur);
    free(nxt);
    free(w);
    free(tmp);
    free(seq);
    free(proj);
    free(C);
    free(Bp);
    free(T);
    free(mo);
    free(xo);
    free(off);
    free(rows);
    return ret;
}

int sm_solve(const sm_system *s, const sm_env *env, uint8_t *x, sm_stats *st,
             char *err, size_t errlen)
{
    gfla_init();
    memset(st, 0, sizeof *st);
    if (s->d < 1 || s->d > 16 || s->mf > 30 || s->cols > 64 || s->n > 64)
        return chal_fail(err, errlen, "break: no Support Minors system of that shape");
    size_t nS = sm_binom(s->mf, s->d), nI = sm_binom(s->mf, s->d - 1);
    unsigned per = s->mf - s->d + 1;
    st->unknowns = nS * s->cols;
    st->equations = nI * s->n;
    st->nonzeros = st->equations * per * s->cols;
    unsigned *lof = malloc(nI * per * sizeof *lof);
    uint32_t *sof = malloc(nI * per * sizeof *sof);
    if (!lof || !sof || build_index(s, nI, lof, sof) != 0) {
        free(lof);
        free(sof);
        return chal_fail(err, errlen, "break: no memory for the system's index");
    }
    int solver = env->solver;
    if (solver == CHAL_SOLVER_AUTO)
        solver = st->unknowns <= 2600 ? CHAL_SOLVER_DENSE : CHAL_SOLVER_WIEDEMANN;
    st->solver = solver;
    st->threads = 1;
    int r = solver == CHAL_SOLVER_DENSE
                ? solve_dense(s, env, nI, nS, lof, sof, x, st, err, errlen)
                : solve_wiedemann(s, env, nI, nS, lof, sof, x, st, err, errlen);
    free(lof);
    free(sof);
    return r;
}
