/* SPDX-License-Identifier: Apache-2.0
 * The binlog rowset index: which binlog segment files exist per tablet, with their commit TSO
 * and first LSN. Changed only by storage commit sections (BL_EXTRA_ROWSET from the writer
 * stage, BL_EXTRA_PURGE from cleanup), applied under the engine's commit mutex live and in log
 * order at replay; checkpointed as image section BL_IMG_ROWSETS. README.md §Formats. */
#include "binlog/bl_int.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/crc32c.h"
#include "common/log.h"
#include "common/mem.h"

#define IMAGE_MAGIC        0x4D494C42u /* "BLIM" */
#define IMAGE_FORMAT       1
#define ROWSET_IMAGE_BYTES 48
#define PURGE_ENTRY_BYTES  16


char *
bl__tablet_dir(const bl_log *L, uint64_t tablet_id, arena *a)
{
    return arena_sprintf(a, "%s/%" PRIu64, L->root, tablet_id);
}

char *
bl__rowset_path(const bl_log *L, uint64_t tablet_id, uint64_t file_id, uint32_t s, arena *a)
{
    return arena_sprintf(a, "%s/%" PRIu64 "/%" PRIu64 "_%u.blg", L->root, tablet_id, file_id, s);
}

/* ---- the index (lock held by the caller) ---- */

static size_t
tablet_pos(const bl_log *L, uint64_t tablet_id)
{
    size_t lo = 0, hi = L->ntablets;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (L->tablets[mid]->tablet_id < tablet_id) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static bl_tablet *
find_tablet(const bl_log *L, uint64_t tablet_id)
{
    size_t i = tablet_pos(L, tablet_id);
    return i < L->ntablets && L->tablets[i]->tablet_id == tablet_id ? L->tablets[i] : NULL;
}

static bl_tablet *
get_tablet(bl_log *L, uint64_t tablet_id)
{
    size_t i = tablet_pos(L, tablet_id);
    if (i < L->ntablets && L->tablets[i]->tablet_id == tablet_id) {
        return L->tablets[i];
    }
    if (L->ntablets == L->cap) {
        L->cap = L->cap ? L->cap * 2 : 16;
        L->tablets = mem_realloc(L->tablets, L->cap * sizeof *L->tablets);
    }
    memmove(&L->tablets[i + 1], &L->tablets[i], (L->ntablets - i) * sizeof *L->tablets);
    bl_tablet *t = mem_calloc(1, sizeof *t);
    t->tablet_id = tablet_id;
    L->tablets[i] = t;
    L->ntablets++;
    return t;
}

static void
tablet_append(bl_tablet *t, const bl_rowset *r)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 8;
        t->rs = mem_realloc(t->rs, t->cap * sizeof *t->rs);
    }
    /* Commits arrive in TSO order; an image load arrives sorted too. Keep it so regardless. */
    size_t i = t->n;
    while (i > 0 && t->rs[i - 1].tso > r->tso) {
        i--;
    }
    memmove(&t->rs[i + 1], &t->rs[i], (t->n - i) * sizeof *t->rs);
    t->rs[i] = *r;
    t->n++;
}

/* Remove rowset file_id of tablet_id; false when absent. */
static bool
tablet_remove(bl_log *L, uint64_t tablet_id, uint64_t file_id)
{
    bl_tablet *t = find_tablet(L, tablet_id);
    for (size_t i = 0; t != NULL && i < t->n; i++) {
        if (t->rs[i].file_id == file_id) {
            memmove(&t->rs[i], &t->rs[i + 1], (t->n - i - 1) * sizeof *t->rs);
            t->n--;
            return true;
        }
    }
    return false;
}

/* ---- commit sections ---- */

void
bl__encode_rowset_section(buf *out, int64_t table_id, uint64_t tablet_id, uint64_t file_id,
                          uint32_t nseg, uint64_t rows, bool has_before)
{
    buf_put_u8(out, 1); /* version */
    buf_put_u8(out, has_before ? 1 : 0);
    buf_put_u16le(out, 0);
    buf_put_u32le(out, nseg);
    buf_put_u64le(out, (uint64_t)table_id);
    buf_put_u64le(out, tablet_id);
    buf_put_u64le(out, file_id);
    buf_put_u64le(out, rows);
}

static int
on_section(void *ctx, uint16_t kind, uint64_t tso, const void *data, size_t len, bool is_replay,
           db_error *err)
{
    (void)is_replay;
    bl_log *L = ctx;
    const uint8_t *p = data;
    if (kind == BL_EXTRA_ROWSET) {
        if (len != BL_ROWSET_SECTION_BYTES || p[0] != 1 || (p[1] & ~1u) != 0 ||
            buf_get_u32le(p + 4) == 0) {
            return db_error_set(err, ER_STOR_COMMIT_CORRUPT, "binlog rowset section");
        }
        bl_rowset r = {
                .nseg = buf_get_u32le(p + 4),
                .table_id = (int64_t)buf_get_u64le(p + 8),
                .tablet_id = buf_get_u64le(p + 16),
                .file_id = buf_get_u64le(p + 24),
                .rows = buf_get_u64le(p + 32),
                .tso = tso,
                .has_before = (p[1] & 1) != 0,
        };
        stor_engine_saw_id(L->e, r.file_id);
        pthread_rwlock_wrlock(&L->lock);
        r.lsn = L->next_lsn;
        L->next_lsn += r.rows;
        tablet_append(get_tablet(L, r.tablet_id), &r);
        pthread_rwlock_unlock(&L->lock);
        return DB_OK;
    }
    /* BL_EXTRA_PURGE: u32 count, u32 0, count x (u64 tablet id, u64 file id). */
    if (len < 8 || (len - 8) % PURGE_ENTRY_BYTES != 0 ||
        buf_get_u32le(p) != (len - 8) / PURGE_ENTRY_BYTES) {
        return db_error_set(err, ER_STOR_COMMIT_CORRUPT, "binlog purge section");
    }
    uint32_t n = buf_get_u32le(p);
    pthread_rwlock_wrlock(&L->lock);
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *q = p + 8 + (size_t)i * PURGE_ENTRY_BYTES;
        (void)tablet_remove(L, buf_get_u64le(q), buf_get_u64le(q + 8));
    }
    pthread_rwlock_unlock(&L->lock);
    return DB_OK;
}

/* ---- image ---- */

static int
image_write(void *ctx, uint64_t seq, buf *out, db_error *err)
{
    (void)seq;
    bl_log *L = ctx;
    /* As the storage image: no commit may sit between its append and its publish. */
    if (!stor_engine_commit_trylock(L->e)) {
        return db_error_set(err, ER_STOR_COMMIT_BAD,
                            "a storage commit is in progress; checkpoint again");
    }
    pthread_rwlock_rdlock(&L->lock);
    size_t start = out->len;
    buf_put_u32le(out, IMAGE_MAGIC);
    buf_put_u16le(out, IMAGE_FORMAT);
    buf_put_u16le(out, 0);
    buf_put_u64le(out, L->next_lsn);
    buf_put_u64le(out, L->ntablets);
    for (size_t i = 0; i < L->ntablets; i++) {
        const bl_tablet *t = L->tablets[i];
        buf_put_u64le(out, t->tablet_id);
        buf_put_u32le(out, (uint32_t)t->n);
        buf_put_u32le(out, 0);
        for (size_t j = 0; j < t->n; j++) {
            const bl_rowset *r = &t->rs[j];
            buf_put_u64le(out, (uint64_t)r->table_id);
            buf_put_u64le(out, r->file_id);
            buf_put_u64le(out, r->rows);
            buf_put_u64le(out, r->tso);
            buf_put_u64le(out, r->lsn);
            buf_put_u8(out, r->has_before ? 1 : 0);
            buf_put_zeros(out, 3);
            buf_put_u32le(out, r->nseg);
        }
    }
    buf_put_u32le(out, crc32c(out->data + start, out->len - start));
    pthread_rwlock_unlock(&L->lock);
    stor_engine_commit_unlock(L->e);
    return DB_OK;
}

static int
image_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err)
{
    (void)seq;
    bl_log *L = ctx;
    const uint8_t *p = data;
    if (len < 28 || buf_get_u32le(p) != IMAGE_MAGIC || (p[4] | p[5] << 8) != IMAGE_FORMAT ||
        crc32c(p, len - 4) != buf_get_u32le(p + len - 4)) {
        return db_error_set(err, ER_STOR_COMMIT_CORRUPT, "binlog image section");
    }
    size_t end = len - 4, off = 8;
    uint64_t next_lsn = buf_get_u64le(p + off);
    uint64_t ntablets = buf_get_u64le(p + off + 8);
    off += 16;
    pthread_rwlock_wrlock(&L->lock);
    L->next_lsn = next_lsn;
    int rc = DB_OK;
    for (uint64_t i = 0; i < ntablets && rc == DB_OK; i++) {
        if (end - off < 16) {
            rc = db_error_set(err, ER_STOR_COMMIT_CORRUPT, "binlog image section (truncated)");
            break;
        }
        uint64_t tablet_id = buf_get_u64le(p + off);
        uint32_t n = buf_get_u32le(p + off + 8);
        off += 16;
        if ((end - off) / ROWSET_IMAGE_BYTES < n) {
            rc = db_error_set(err, ER_STOR_COMMIT_CORRUPT, "binlog image section (truncated)");
            break;
        }
        bl_tablet *t = get_tablet(L, tablet_id);
        for (uint32_t j = 0; j < n; j++, off += ROWSET_IMAGE_BYTES) {
            const uint8_t *q = p + off;
            bl_rowset r = {.tablet_id = tablet_id,
                           .table_id = (int64_t)buf_get_u64le(q),
                           .file_id = buf_get_u64le(q + 8),
                           .rows = buf_get_u64le(q + 16),
                           .tso = buf_get_u64le(q + 24),
                           .lsn = buf_get_u64le(q + 32),
                           .has_before = (q[40] & 1) != 0,
                           .nseg = buf_get_u32le(q + 44)};
            if (r.nseg == 0) {
                rc = db_error_set(err, ER_STOR_COMMIT_CORRUPT, "binlog image section (no files)");
                break;
            }
            stor_engine_saw_id(L->e, r.file_id);
            tablet_append(t, &r);
        }
    }
    if (rc == DB_OK && off != end) {
        rc = db_error_set(err, ER_STOR_COMMIT_CORRUPT, "binlog image section (trailing bytes)");
    }
    pthread_rwlock_unlock(&L->lock);
    return rc;
}

/* ---- life cycle ---- */

bl_log *
bl_log_new(const char *root, stor_engine *e, cat_editlog *log, db_error *err)
{
    if (mkdir(root, 0755) != 0 && errno != EEXIST) {
        db_error_set(err, ER_IO_ERROR, root, strerror(errno));
        return NULL;
    }
    bl_log *L = mem_calloc(1, sizeof *L);
    L->root = mem_strdup(root);
    L->e = e;
    L->next_lsn = 1;
    pthread_rwlock_init(&L->lock, NULL);
    pthread_mutex_init(&L->cleanup_mu, NULL);
    stor_engine_register_extra(e, BL_EXTRA_ROWSET, on_section, L);
    stor_engine_register_extra(e, BL_EXTRA_PURGE, on_section, L);
    cat_editlog_register_section(log, BL_IMG_ROWSETS, "binlog rowsets", image_write, image_load, L);
    stor_stage st = {"binlog", bl__stage_run, bl__stage_wants, L, bl__stage_encoded};
    stor_engine_add_stage(e, &st);
    return L;
}

void
bl_log_free(bl_log *L)
{
    if (L == NULL) {
        return;
    }
    for (size_t i = 0; i < L->ntablets; i++) {
        mem_free(L->tablets[i]->rs);
        mem_free(L->tablets[i]);
    }
    mem_free(L->tablets);
    pthread_rwlock_destroy(&L->lock);
    pthread_mutex_destroy(&L->cleanup_mu);
    mem_free(L->root);
    mem_free(L);
}

/* ---- queries ---- */

size_t
bl_log_rowsets(bl_log *L, uint64_t tablet_id, uint64_t tso_lo, uint64_t tso_hi, arena *a,
               bl_rowset **out)
{
    pthread_rwlock_rdlock(&L->lock);
    const bl_tablet *t = find_tablet(L, tablet_id);
    size_t n = 0;
    *out = arena_alloc(a, ((t ? t->n : 0) + 1) * sizeof **out);
    for (size_t i = 0; t != NULL && i < t->n; i++) {
        if (t->rs[i].tso >= tso_lo && t->rs[i].tso <= tso_hi) {
            (*out)[n++] = t->rs[i];
        }
    }
    pthread_rwlock_unlock(&L->lock);
    return n;
}

uint64_t
bl_log_count(bl_log *L, uint64_t tablet_id, uint64_t tso_lo, uint64_t tso_hi)
{
    pthread_rwlock_rdlock(&L->lock);
    const bl_tablet *t = find_tablet(L, tablet_id);
    uint64_t n = 0;
    for (size_t i = 0; t != NULL && i < t->n; i++) {
        if (t->rs[i].tso >= tso_lo && t->rs[i].tso <= tso_hi) {
            n += t->rs[i].rows;
        }
    }
    pthread_rwlock_unlock(&L->lock);
    return n;
}

bool
bl_log_complete(bl_log *L, const stor_snapshot *snap, uint64_t tso_hi)
{
    size_t nv = snap->version < snap->nvtso ? (size_t)snap->version : snap->nvtso;
    if (snap->version > nv) {
        return false; /* versions whose TSO is unknown */
    }
    pthread_rwlock_rdlock(&L->lock);
    const bl_tablet *t = find_tablet(L, snap->tablet_id);
    /* Both lists ascend by TSO; each version's TSO must be a rowset's. */
    size_t i = 0;
    bool ok = true;
    for (size_t v = 0; ok && v < nv && snap->vtso[v] <= tso_hi; v++) {
        while (t != NULL && i < t->n && t->rs[i].tso < snap->vtso[v]) {
            i++;
        }
        ok = t != NULL && i < t->n && t->rs[i].tso == snap->vtso[v];
    }
    pthread_rwlock_unlock(&L->lock);
    return ok;
}

/* Whether paths a and b name one file. */
static bool
same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

bool
bl_log_rowset_lsns(bl_log *L, const stor_snapshot *snap, size_t r, arena *a, uint64_t **seg_lsn)
{
    const stor_rowset_meta *m = &snap->rowsets[r];
    bl_rowset rs;
    bool found = false;
    pthread_rwlock_rdlock(&L->lock);
    const bl_tablet *t = find_tablet(L, snap->tablet_id);
    for (size_t i = 0; t != NULL && i < t->n && !found; i++) {
        if (t->rs[i].tso == m->commit_tso) {
            rs = t->rs[i];
            found = true;
        }
    }
    pthread_rwlock_unlock(&L->lock);
    stor_tablet *tab = found ? stor_engine_tablet(L->e, snap->tablet_id, false) : NULL;
    if (tab == NULL || rs.nseg != m->nsegments || rs.rows != m->rows) {
        return false; /* no records of that commit, or a compaction output */
    }
    uint64_t *lsn = arena_alloc(a, ((size_t)rs.nseg + 1) * sizeof *lsn);
    uint64_t base = rs.lsn;
    for (uint32_t s = 0; s < rs.nseg; s++) {
        const char *bpath = bl__rowset_path(L, snap->tablet_id, rs.file_id, s, a);
        const char *dpath = arena_sprintf(a, "%s/%s", stor_tablet_dir(tab), m->segments[s]);
        if (!same_file(dpath, bpath)) {
            return false;
        }
        lsn[s] = base;
        if (s + 1 < rs.nseg) { /* the next segment's first LSN: after this one's rows */
            db_error err;
            db_error_clear(&err);
            stor_segment_reader *rd = stor_rcache_acquire(stor_engine_rcache(L->e), bpath,
                                                          stor_engine_cache(L->e), &err);
            if (rd == NULL) {
                return false;
            }
            base += stor_segment_reader_rows(rd);
            stor_rcache_release(stor_engine_rcache(L->e), bpath, rd);
        }
    }
    *seg_lsn = lsn;
    return true;
}

uint64_t
bl_log_first_tso(bl_log *L, uint64_t tablet_id)
{
    pthread_rwlock_rdlock(&L->lock);
    const bl_tablet *t = find_tablet(L, tablet_id);
    uint64_t tso = t != NULL && t->n > 0 ? t->rs[0].tso : 0;
    pthread_rwlock_unlock(&L->lock);
    return tso;
}

void
bl_log_stats(bl_log *L, uint64_t *nrowsets, uint64_t *nrecords)
{
    uint64_t rs = 0, recs = 0;
    pthread_rwlock_rdlock(&L->lock);
    for (size_t i = 0; i < L->ntablets; i++) {
        rs += L->tablets[i]->n;
        for (size_t j = 0; j < L->tablets[i]->n; j++) {
            recs += L->tablets[i]->rs[j].rows;
        }
    }
    pthread_rwlock_unlock(&L->lock);
    *nrowsets = rs;
    *nrecords = recs;
}

/* ---- orphans ---- */

static bool
all_digits(const char *s)
{
    if (*s == '\0') {
        return false;
    }
    for (; *s; s++) {
        if (*s < '0' || *s > '9') {
            return false;
        }
    }
    return true;
}

/* Remove the files of dir no rowset of tablet t (may be NULL) names; rmdir when t is NULL. */
static int
clean_dir(bl_log *L, const char *dir, uint64_t tablet_id, uint64_t *count, db_error *err)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        return db_error_set(err, ER_IO_ERROR, dir, strerror(errno));
    }
    struct dirent *de;
    char path[4096];
    int rc = DB_OK;
    bool any_left = false;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
            continue;
        }
        bool keep = false;
        char *dot = strchr(de->d_name, '.');
        if (dot != NULL && strcmp(dot, ".blg") == 0) {
            char *us = NULL;
            uint64_t fid = strtoull(de->d_name, &us, 10);
            uint32_t seg = us != NULL && *us == '_' ? (uint32_t)strtoul(us + 1, NULL, 10) : 0;
            pthread_rwlock_rdlock(&L->lock);
            const bl_tablet *t = find_tablet(L, tablet_id);
            for (size_t i = 0; t != NULL && i < t->n && !keep; i++) {
                keep = t->rs[i].file_id == fid && seg < t->rs[i].nseg && us != NULL && *us == '_';
            }
            pthread_rwlock_unlock(&L->lock);
        }
        if (keep) {
            any_left = true;
            continue;
        }
        int plen = snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (plen < 0 || (size_t)plen >= sizeof path) {
            continue;
        }
        if (unlink(path) == 0) {
            (*count)++;
        } else if (errno != ENOENT) {
            any_left = true;
            log_warn("cannot remove orphan binlog file %s: %s", path, strerror(errno));
        }
    }
    closedir(d);
    if (!any_left) {
        (void)rmdir(dir);
    }
    return rc;
}

int
bl_log_remove_orphans(bl_log *L, uint64_t *nremoved, db_error *err)
{
    uint64_t count = 0;
    DIR *d = opendir(L->root);
    if (d == NULL) {
        return db_error_set(err, ER_IO_ERROR, L->root, strerror(errno));
    }
    int rc = DB_OK;
    struct dirent *de;
    char path[4096];
    while (rc == DB_OK && (de = readdir(d)) != NULL) {
        if (!all_digits(de->d_name)) {
            continue;
        }
        uint64_t id = strtoull(de->d_name, NULL, 10);
        int plen = snprintf(path, sizeof path, "%s/%s", L->root, de->d_name);
        struct stat st;
        if (plen < 0 || (size_t)plen >= sizeof path || lstat(path, &st) != 0 ||
            !S_ISDIR(st.st_mode)) {
            continue;
        }
        rc = clean_dir(L, path, id, &count, err);
    }
    closedir(d);
    if (nremoved != NULL) {
        *nremoved = count;
    }
    return rc;
}

/* ---- cleanup ---- */

int
bl_log_cleanup(bl_log *L, bl_expire_fn expire, bl_dead_fn dead, void *ctx, size_t *npurged,
               db_error *err)
{
    if (npurged != NULL) {
        *npurged = 0;
    }
    pthread_mutex_lock(&L->cleanup_mu);
    /* Pick under the shared lock (callbacks may take the catalog lock: no lock order issue,
     * the catalog never calls into the binlog). Only this function removes rowsets, and it runs
     * once at a time, so the picks are still there at commit. */
    typedef struct pick {
        uint64_t tablet_id, file_id;
        uint32_t nseg;
        bool dead;
    } pick;
    pick *picks = NULL;
    size_t n = 0, cap = 0;
    pthread_rwlock_rdlock(&L->lock);
    size_t ntablets = L->ntablets;
    uint64_t *ids = mem_alloc((ntablets + 1) * sizeof *ids);
    for (size_t i = 0; i < ntablets; i++) {
        ids[i] = L->tablets[i]->tablet_id;
    }
    pthread_rwlock_unlock(&L->lock);
    for (size_t i = 0; i < ntablets; i++) {
        bool is_dead = dead != NULL && dead(ctx, ids[i]);
        int64_t last_table = INT64_MIN;
        uint64_t horizon = 0;
        pthread_rwlock_rdlock(&L->lock);
        const bl_tablet *t = find_tablet(L, ids[i]);
        size_t tn = t != NULL ? t->n : 0;
        bl_rowset *copy = mem_alloc((tn + 1) * sizeof *copy);
        if (tn > 0) {
            memcpy(copy, t->rs, tn * sizeof *copy);
        }
        pthread_rwlock_unlock(&L->lock);
        for (size_t j = 0; j < tn; j++) {
            if (!is_dead && copy[j].table_id != last_table) {
                last_table = copy[j].table_id;
                horizon = expire(ctx, last_table);
            }
            if (is_dead || (horizon != 0 && copy[j].tso <= horizon)) {
                if (n == cap) {
                    cap = cap ? cap * 2 : 64;
                    picks = mem_realloc(picks, cap * sizeof *picks);
                }
                picks[n++] = (pick){ids[i], copy[j].file_id, copy[j].nseg, is_dead};
            }
        }
        mem_free(copy);
    }
    mem_free(ids);
    int rc = DB_OK;
    if (n > 0) {
        buf sec;
        buf_init(&sec);
        buf_put_u32le(&sec, (uint32_t)n);
        buf_put_u32le(&sec, 0);
        for (size_t i = 0; i < n; i++) {
            buf_put_u64le(&sec, picks[i].tablet_id);
            buf_put_u64le(&sec, picks[i].file_id);
        }
        stor_txn *txn = stor_txn_new(stor_engine_next_id(L->e));
        stor_txn_add_extra(txn, BL_EXTRA_PURGE, sec.data, sec.len);
        uint64_t tso = 0;
        rc = stor_txn_commit(L->e, txn, tso, err);
        stor_txn_free(txn);
        buf_destroy(&sec);
        if (rc == DB_OK) {
            arena *a = arena_new(0);
            for (size_t i = 0; i < n; i++) {
                /* A reader that has the file open keeps reading it; one that opens it later
                 * finds the rowset gone from the index and skips it (bl_scan.c). */
                for (uint32_t sg = 0; sg < picks[i].nseg; sg++) {
                    (void)unlink(bl__rowset_path(L, picks[i].tablet_id, picks[i].file_id, sg, a));
                }
                /* A live tablet's directory stays: a writer may be about to fill it. */
                if (picks[i].dead && (i + 1 == n || picks[i + 1].tablet_id != picks[i].tablet_id)) {
                    (void)rmdir(bl__tablet_dir(L, picks[i].tablet_id, a));
                }
            }
            arena_free(a);
            if (npurged != NULL) {
                *npurged = n;
            }
        }
    }
    mem_free(picks);
    pthread_mutex_unlock(&L->cleanup_mu);
    return rc;
}
