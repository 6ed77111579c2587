/* SPDX-License-Identifier: Apache-2.0
 * Reading raw change records: the binlog rowsets of one tablet whose TSO lies in a window, in
 * commit order, each file in LSN order, columns mapped to the current schema by unique id (a
 * column added later is "missing": its default; a dropped one is not read). Only rowsets in
 * the window are opened (I3). README.md §"Reading". */
#include "binlog/bl_int.h"

#include <string.h>

#include "common/mem.h"

struct bl_scan {
    bl_log *L;
    const stor_schema *sc;
    uint64_t tablet_id;
    arena *ma; /* rowset list and column maps */
    bl_rowset *rs;
    size_t nrs, cur;
    uint32_t seg;           /* file of rowset cur being read */
    uint64_t seg_base;      /* rows of the rowset's files before it */
    stor_segment_reader *r; /* the current file, or NULL */
    char *path;             /* its path (pool key) */
    uint64_t pos, rows;     /* next row and rows of the current file */
    int32_t op_col;
    int32_t *after_col, *before_col; /* per schema column: file column or -1 */
    uint64_t records;
};

bl_scan *
bl_scan_open(bl_log *L, const stor_schema *sc, uint64_t tablet_id, uint64_t tso_lo, uint64_t tso_hi,
             db_error *err)
{
    (void)err;
    bl_scan *s = mem_calloc(1, sizeof *s);
    s->L = L;
    s->sc = sc;
    s->tablet_id = tablet_id;
    s->ma = arena_new(0);
    s->nrs = bl_log_rowsets(L, tablet_id, tso_lo, tso_hi, s->ma, &s->rs);
    s->after_col = arena_alloc(s->ma, (sc->ncols + 1) * sizeof *s->after_col);
    s->before_col = arena_alloc(s->ma, (sc->ncols + 1) * sizeof *s->before_col);
    return s;
}

static void
close_file(bl_scan *s)
{
    if (s->r != NULL) {
        stor_rcache_release(stor_engine_rcache(s->L->e), s->path, s->r);
        s->r = NULL;
    }
    mem_free(s->path);
    s->path = NULL;
}

/* Whether rowset file_id of the scan's tablet is still indexed (not purged meanwhile). */
static bool
still_indexed(bl_scan *s, const bl_rowset *r)
{
    arena *a = arena_new(0);
    bl_rowset *rs;
    size_t n = bl_log_rowsets(s->L, s->tablet_id, r->tso, r->tso, a, &rs);
    bool found = false;
    for (size_t i = 0; i < n && !found; i++) {
        found = rs[i].file_id == r->file_id;
    }
    arena_free(a);
    return found;
}

/* Open file s->seg of rowset s->cur; *skipped (no error) when the rowset was purged
 * meanwhile. */
static int
open_file(bl_scan *s, bool *skipped, db_error *err)
{
    const bl_rowset *r = &s->rs[s->cur];
    *skipped = false;
    arena *tmp = arena_new(0);
    s->path = mem_strdup(bl__rowset_path(s->L, s->tablet_id, r->file_id, s->seg, tmp));
    arena_free(tmp);
    s->r = stor_rcache_acquire(stor_engine_rcache(s->L->e), s->path, stor_engine_cache(s->L->e),
                               err);
    if (s->r == NULL) {
        if (!still_indexed(s, r)) {
            db_error_clear(err);
            *skipped = true;
            mem_free(s->path);
            s->path = NULL;
            return DB_OK;
        }
        mem_free(s->path);
        s->path = NULL;
        return DB_ERR;
    }
    s->rows = stor_segment_reader_rows(s->r);
    s->pos = 0;
    s->op_col = stor_segment_reader_find_uid(s->r, BL_UID_OP); /* -1: DUP, every row inserts */
    if (s->seg_base + s->rows > r->rows) {
        db_error_set(err, ER_STOR_CORRUPT, s->path, 0ULL, "more rows than its commit recorded");
        close_file(s);
        return DB_ERR;
    }
    for (uint32_t c = 0; c < s->sc->ncols; c++) {
        uint32_t uid = s->sc->cols[c].uid;
        s->after_col[c] = stor_segment_reader_find_uid(s->r, uid);
        s->before_col[c] = r->has_before && !s->sc->cols[c].is_key
                                   ? stor_segment_reader_find_uid(s->r, BL_BEFORE_UID(uid))
                                   : -1;
    }
    return DB_OK;
}

/* An all-NULL vector of n rows of kind (arena a). */
static void
null_vec(arena *a, stor_vec_kind kind, uint32_t n, stor_vec *out)
{
    const stor_vec **src = arena_calloc(a, (size_t)n + 1, sizeof *src);
    uint32_t *rows = arena_calloc(a, (size_t)n + 1, sizeof *rows);
    stor_vec_select(a, kind, n, src, rows, out);
}

int
bl_scan_next(bl_scan *s, arena *a, uint32_t max_rows, bl_batch *out, bool *eof, db_error *err)
{
    memset(out, 0, sizeof *out);
    *eof = false;
    while (s->r == NULL || s->pos >= s->rows) {
        if (s->r != NULL) {
            close_file(s);
            s->seg_base += s->rows;
            if (++s->seg >= s->rs[s->cur].nseg) {
                s->cur++;
                s->seg = 0;
                s->seg_base = 0;
            }
        }
        if (s->cur >= s->nrs) {
            *eof = true;
            return DB_OK;
        }
        bool skipped;
        if (open_file(s, &skipped, err) != DB_OK) {
            return DB_ERR;
        }
        if (skipped) {
            s->cur++;
            s->seg = 0;
            s->seg_base = 0;
        }
    }
    const bl_rowset *r = &s->rs[s->cur];
    const stor_schema *sc = s->sc;
    uint64_t from = s->pos;
    uint64_t to = s->rows - from > max_rows ? from + max_rows : s->rows;
    uint32_t n = (uint32_t)(to - from);
    stor_vec opv;
    if (s->op_col < 0) {
        opv.i64 = arena_calloc(a, (size_t)n + 1, sizeof *opv.i64); /* all BL_OP_INSERT */
    } else if (stor_segment_read_rows(s->r, (uint32_t)s->op_col, from, to, a, &opv, err) != DB_OK) {
        return DB_ERR;
    }
    out->n = n;
    out->op = opv.i64;
    out->tso = r->tso;
    out->lsn = r->lsn + s->seg_base + from;
    out->has_before = r->has_before;
    out->after = arena_calloc(a, sc->ncols + 1, sizeof *out->after);
    out->before = arena_calloc(a, sc->ncols + 1, sizeof *out->before);
    out->after_missing = arena_calloc(a, sc->ncols + 1, sizeof *out->after_missing);
    out->before_missing = arena_calloc(a, sc->ncols + 1, sizeof *out->before_missing);
    for (uint32_t c = 0; c < sc->ncols; c++) {
        stor_vec_kind kind = stor_vec_kind_of(&sc->cols[c].type);
        if (s->after_col[c] < 0) {
            out->after_missing[c] = true;
            null_vec(a, kind, n, &out->after[c]);
        } else if (stor_segment_read_rows(s->r, (uint32_t)s->after_col[c], from, to, a,
                                          &out->after[c], err) != DB_OK) {
            return DB_ERR;
        }
        if (s->before_col[c] < 0) {
            /* a key column (no before image), or a column added after this file */
            out->before_missing[c] = r->has_before && !sc->cols[c].is_key;
            null_vec(a, kind, n, &out->before[c]);
        } else if (stor_segment_read_rows(s->r, (uint32_t)s->before_col[c], from, to, a,
                                          &out->before[c], err) != DB_OK) {
            return DB_ERR;
        }
    }
    s->pos = to;
    s->records += n;
    return DB_OK;
}

void
bl_scan_close(bl_scan *s)
{
    if (s == NULL) {
        return;
    }
    close_file(s);
    arena_free(s->ma);
    mem_free(s);
}

uint64_t
bl_scan_records(const bl_scan *s)
{
    return s->records;
}
