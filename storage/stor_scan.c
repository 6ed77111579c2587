/* SPDX-License-Identifier: Apache-2.0
 * Tablet scans: read the rowsets of one stor_snapshot (ascending version), segment by segment,
 * only the requested columns (matched to segment columns by uid; a column the segment does not
 * have is reported missing, all NULL), skipping what the ranges exclude (whole segments by the
 * column zone maps, row ranges by the page zone maps of the range columns and by the short-key
 * index for a range on the first key column, then to the exact rows by binary search of that
 * sorted column) and removing rows deleted as of the snapshot's version. Segment readers are opened
 * lazily, one at a time; no tablet lock is held while reading files (the delete bitmap is copied
 * under the tablet's shared lock by stor_tablet_deleted). See README.md §"Tables: schema, keys,
 * buckets, scans". */
#include "storage/stor_int.h"

#include <roaring/roaring.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/mem.h"

/* A half-open row interval [from, to) of the current segment. */
typedef struct row_span {
    uint64_t from, to;
} row_span;

struct stor_scan {
    stor_engine *eng;
    const stor_schema *sc;
    const stor_snapshot *snap;
    stor_tablet *tablet; /* NULL when the snapshot is empty and the tablet does not exist */
    uint32_t *cols;      /* ncols schema indexes (copy) */
    uint32_t ncols;
    stor_range *ranges; /* nranges (copy; string bounds copied into strs) */
    uint32_t nranges;
    uint8_t *strs;

    /* position: next segment to open is (rs, seg) when rd == NULL */
    size_t rs;
    uint32_t seg;
    /* current segment */
    stor_segment_reader *rd;
    char *path;
    roaring_bitmap_t *del; /* rows deleted as of snap->version; NULL = none */
    int32_t *segcol;       /* ncols: segment column of each requested column, -1 = missing */
    uint32_t *readcols;    /* present segment columns, in request order */
    uint32_t nread;
    row_span *spans; /* rows that survive pruning, ascending, disjoint */
    size_t nspans, spans_cap;
    size_t span;  /* current span */
    uint64_t pos; /* next row to read within spans[span] */

    stor_scan_stats stats;
};

/* ---- zone maps vs ranges ---- */

static int
cmp_i128(stor_i128 a, stor_i128 b)
{
    return a < b ? -1 : a > b;
}

/* True when no value described by zone z can lie in range rg (kind k). NULLs never satisfy a
 * range, so an all-NULL zone is excluded. */
static bool
zone_excludes(const stor_zone *z, const stor_range *rg, stor_vec_kind k)
{
    if (z->nrows == 0) {
        return true;
    }
    if (!z->has_minmax) {
        /* all NULL: excluded; otherwise (NaN doubles only) keep, NaN is not ordered */
        return z->null_count == z->nrows;
    }
    switch (k) {
    case STOR_VEC_I64:
        return (rg->has_lo && z->max_i64 < rg->lo.i64) || (rg->has_hi && z->min_i64 > rg->hi.i64);
    case STOR_VEC_F64:
        return (rg->has_lo && z->max_f64 < rg->lo.f64) || (rg->has_hi && z->min_f64 > rg->hi.f64);
    case STOR_VEC_I128:
        return (rg->has_lo && cmp_i128(z->max_i128, rg->lo.i128) < 0) ||
               (rg->has_hi && cmp_i128(z->min_i128, rg->hi.i128) > 0);
    case STOR_VEC_BYTES: {
        /* a truncated min is still a lower bound; a truncated max bounds only the max_len-byte
         * prefixes of the values, so compare it with lo cut to that length, strictly */
        if (rg->has_hi && stor__bytes_cmp(z->min_str, z->min_len, rg->hi.str, rg->hi.len) > 0) {
            return true;
        }
        if (rg->has_lo) {
            size_t lolen = rg->lo.len;
            if (z->max_truncated && lolen > z->max_len) {
                lolen = z->max_len;
            }
            if (stor__bytes_cmp(z->max_str, z->max_len, rg->lo.str, lolen) < 0) {
                return true;
            }
        }
        return false;
    }
    }
    return false;
}

/* ---- spans ---- */

static void
spans_push(stor_scan *s, uint64_t from, uint64_t to)
{
    if (from >= to) {
        return;
    }
    if (s->nspans > 0 && s->spans[s->nspans - 1].to == from) {
        s->spans[s->nspans - 1].to = to;
        return;
    }
    if (s->nspans == s->spans_cap) {
        s->spans_cap = s->spans_cap == 0 ? 8 : 2 * s->spans_cap;
        s->spans = mem_realloc(s->spans, s->spans_cap * sizeof *s->spans);
    }
    s->spans[s->nspans++] = (row_span){from, to};
}

/* Keep only the rows of the current spans that lie in a page of segment column col not excluded
 * by rg: intersect the span list with the kept pages (both ascending). */
static void
spans_restrict(stor_scan *s, uint32_t col, const stor_range *rg, stor_vec_kind k)
{
    size_t n = s->nspans;
    row_span *old = mem_alloc((n == 0 ? 1 : n) * sizeof *old);
    memcpy(old, s->spans, n * sizeof *old);
    s->nspans = 0;
    uint32_t np = stor_segment_reader_npages(s->rd, col);
    size_t i = 0;
    for (uint32_t p = 0; p < np && i < n; p++) {
        const stor_page_info *pi = stor_segment_reader_page(s->rd, col, p);
        if (zone_excludes(&pi->zone, rg, k)) {
            continue;
        }
        uint64_t pf = pi->first_row, pt = pi->first_row + pi->nrows;
        while (i < n && old[i].to <= pf) {
            i++;
        }
        for (size_t j = i; j < n && old[j].from < pt; j++) {
            spans_push(s, old[j].from > pf ? old[j].from : pf, old[j].to < pt ? old[j].to : pt);
        }
    }
    mem_free(old);
}

/* True when the segment's first key column seg_key0 (schema column 0) may be binary-searched:
 * its rows ascend by the encoded key (the writer sorts every key table's rows, compaction
 * merges in key order), which is the order of the stored values except for DATE / DATETIME
 * values outside 0000-01-01 .. 9999-12-31, which the key encoding clamps (they cannot come from
 * the planner; a segment holding one is not narrowed). */
static bool
key_sorted_ok(const stor_scan *s, uint32_t seg_key0)
{
    const stor_column_desc *d = stor_segment_reader_column(s->rd, seg_key0);
    if (d->uid != s->sc->cols[0].uid || !s->sc->cols[0].is_key ||
        stor_vec_kind_of(&d->type) != stor_vec_kind_of(&s->sc->cols[0].type)) {
        return false;
    }
    if (d->type.id != CAT_T_DATE && d->type.id != CAT_T_DATETIME) {
        return true;
    }
    int64_t unit = d->type.id == CAT_T_DATE ? 1 : 86400000000LL;
    stor_zone z = stor_segment_reader_zone(s->rd, seg_key0);
    return !z.has_minmax || (z.min_i64 >= -719528 * unit && z.max_i64 < 2932897 * unit);
}

/* Narrow every span to the rows whose first key column (segment column seg_key0, sorted) lies
 * in each range on schema column 0, by binary search of that column's boundary pages. */
static int
spans_narrow(stor_scan *s, uint32_t seg_key0, db_error *err)
{
    for (uint32_t k = 0; k < s->nranges && s->nspans > 0; k++) {
        const stor_range *rg = &s->ranges[k];
        if (rg->col != 0) {
            continue;
        }
        size_t n = s->nspans;
        row_span *old = mem_alloc(n * sizeof *old);
        memcpy(old, s->spans, n * sizeof *old);
        s->nspans = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t f, t;
            if (stor__segment_narrow(s->rd, seg_key0, old[i].from, old[i].to,
                                     rg->has_lo ? &rg->lo : NULL, rg->has_hi ? &rg->hi : NULL, &f,
                                     &t, err) != DB_OK) {
                mem_free(old);
                return DB_ERR;
            }
            spans_push(s, f, t);
        }
        mem_free(old);
    }
    return DB_OK;
}

/* Pages of the requested columns: all of them count in pages_total; those holding no row of
 * the spans are never read and count in pages_pruned. */
static void
count_pages(stor_scan *s)
{
    for (uint32_t c = 0; c < s->nread; c++) {
        uint32_t col = s->readcols[c];
        uint32_t np = stor_segment_reader_npages(s->rd, col);
        size_t i = 0;
        for (uint32_t p = 0; p < np; p++) {
            const stor_page_info *pi = stor_segment_reader_page(s->rd, col, p);
            uint64_t pf = pi->first_row, pt = pi->first_row + pi->nrows;
            while (i < s->nspans && s->spans[i].to <= pf) {
                i++;
            }
            s->stats.pages_total++;
            if (i == s->nspans || s->spans[i].from >= pt) {
                s->stats.pages_pruned++;
            }
        }
    }
}

/* ---- segments ---- */

static void
segment_close(stor_scan *s)
{
    if (s->rd != NULL) {
        stor_rcache_release(stor_engine_rcache(s->eng), s->path, s->rd); /* back to the pool */
    }
    s->rd = NULL;
    mem_free(s->path);
    s->path = NULL;
    if (s->del != NULL) {
        roaring_bitmap_free(s->del);
        s->del = NULL;
    }
    s->nspans = 0;
    s->span = 0;
    s->pos = 0;
}

/* Open segment (s->rs, s->seg), map columns, prune. On DB_OK s->rd is set and s->spans holds
 * the rows to read (possibly none). */
static int
segment_open(stor_scan *s, db_error *err)
{
    const stor_rowset_meta *m = &s->snap->rowsets[s->rs];
    size_t dl = strlen(stor_tablet_dir(s->tablet)), nl = strlen(m->segments[s->seg]);
    s->path = mem_alloc(dl + nl + 2);
    memcpy(s->path, stor_tablet_dir(s->tablet), dl);
    s->path[dl] = '/';
    memcpy(s->path + dl + 1, m->segments[s->seg], nl + 1);
    s->rd = stor_rcache_acquire(stor_engine_rcache(s->eng), s->path, stor_engine_cache(s->eng),
                                err);
    if (s->rd == NULL) {
        mem_free(s->path);
        s->path = NULL;
        return DB_ERR;
    }
    s->stats.segments_total++;
    s->nread = 0;
    for (uint32_t i = 0; i < s->ncols; i++) {
        s->segcol[i] = stor_segment_reader_find_uid(s->rd, s->sc->cols[s->cols[i]].uid);
        if (s->segcol[i] >= 0) {
            s->readcols[s->nread++] = (uint32_t)s->segcol[i];
        }
    }
    uint64_t nrows = stor_segment_reader_rows(s->rd);
    uint64_t from = 0, to = nrows;
    s->nspans = 0;
    bool pruned = false;
    /* short-key index: a range on the schema's first key column, when it is also the segment's
     * first key column */
    int32_t seg_key0 = -1;
    for (uint32_t c = 0; c < stor_segment_reader_ncols(s->rd); c++) {
        if (stor_segment_reader_column(s->rd, c)->is_key) {
            seg_key0 = (int32_t)c;
            break;
        }
    }
    for (uint32_t k = 0; k < s->nranges && !pruned; k++) {
        const stor_range *rg = &s->ranges[k];
        const stor_column_desc *d = &s->sc->cols[rg->col];
        int sc_col = stor_segment_reader_find_uid(s->rd, d->uid);
        stor_vec_kind kind = stor_vec_kind_of(&d->type);
        /* an absent column gets its default from the caller, which may satisfy the range; a
         * column whose stored kind differs cannot be compared */
        if (sc_col < 0 ||
            stor_vec_kind_of(&stor_segment_reader_column(s->rd, (uint32_t)sc_col)->type) != kind) {
            continue;
        }
        stor_zone z = stor_segment_reader_zone(s->rd, (uint32_t)sc_col);
        if (zone_excludes(&z, rg, kind)) {
            pruned = true;
            break;
        }
        if (sc_col == seg_key0 && s->sc->nkeys > 0 && rg->col == 0) {
            uint64_t kf, kt;
            stor_segment_key_range(s->rd, rg->has_lo ? &rg->lo : NULL, rg->has_hi ? &rg->hi : NULL,
                                   &kf, &kt);
            from = kf > from ? kf : from;
            to = kt < to ? kt : to;
        }
    }
    if (!pruned) {
        spans_push(s, from, to);
        for (uint32_t k = 0; k < s->nranges && s->nspans > 0; k++) {
            const stor_range *rg = &s->ranges[k];
            const stor_column_desc *d = &s->sc->cols[rg->col];
            int sc_col = stor_segment_reader_find_uid(s->rd, d->uid);
            stor_vec_kind kind = stor_vec_kind_of(&d->type);
            if (sc_col < 0 ||
                stor_vec_kind_of(&stor_segment_reader_column(s->rd, (uint32_t)sc_col)->type) !=
                        kind) {
                continue;
            }
            spans_restrict(s, (uint32_t)sc_col, rg, kind);
        }
    }
    if (!pruned && s->nspans > 0 && seg_key0 >= 0 && s->sc->nkeys > 0 &&
        key_sorted_ok(s, (uint32_t)seg_key0)) {
        if (spans_narrow(s, (uint32_t)seg_key0, err) != DB_OK) {
            stor_segment_reader_close(s->rd); /* not back to the pool after a failed read */
            s->rd = NULL;
            segment_close(s);
            return DB_ERR;
        }
    }
    s->stats.segments_pruned += (pruned || s->nspans == 0) && nrows > 0;
    count_pages(s);
    uint64_t span_rows = 0;
    for (size_t i = 0; i < s->nspans; i++) {
        span_rows += s->spans[i].to - s->spans[i].from;
    }
    if (s->nspans > 0 && span_rows <= 64) {
        /* A few rows (a point lookup): ask per row instead of merging the segment's whole
         * delete bitmap, which upserts make large. */
        roaring_bitmap_t *del = roaring_bitmap_create();
        for (size_t i = 0; i < s->nspans; i++) {
            for (uint64_t r = s->spans[i].from; r < s->spans[i].to; r++) {
                if (stor_tablet_row_deleted(s->tablet, m->rowset_id, s->seg, (uint32_t)r,
                                            s->snap->version)) {
                    roaring_bitmap_add(del, (uint32_t)r);
                }
            }
        }
        if (roaring_bitmap_is_empty(del)) {
            roaring_bitmap_free(del);
        } else {
            s->del = del;
        }
    } else if (s->nspans > 0) {
        roaring_bitmap_t *del =
                stor_tablet_deleted(s->tablet, m->rowset_id, s->seg, s->snap->version);
        if (roaring_bitmap_is_empty(del)) {
            roaring_bitmap_free(del);
        } else {
            s->del = del;
        }
    }
    s->span = 0;
    s->pos = s->nspans > 0 ? s->spans[0].from : 0;
    return DB_OK;
}

/* ---- vectors ---- */

/* Keep rows keep[0..n) (ascending) of v, in place. */
static void
vec_compact(stor_vec *v, const uint32_t *keep, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = keep[k];
        switch (v->kind) {
        case STOR_VEC_I64:
            v->i64[k] = v->i64[r];
            break;
        case STOR_VEC_F64:
            v->f64[k] = v->f64[r];
            break;
        case STOR_VEC_I128:
            v->i128[k] = v->i128[r];
            break;
        case STOR_VEC_BYTES: {
            /* offs[k] is already final (written by the previous step or 0); move row r's bytes
             * down to it; the destination never passes the source */
            uint64_t start = v->offs[r], len = v->offs[r + 1] - start;
            if (len > 0) {
                memmove(v->data + v->offs[k], v->data + start, len);
            }
            /* overwriting offs[k + 1] is safe: a later step reads offs[k + 1] only when it
             * keeps row k + 1, and then every row up to k + 1 was kept, so the value written
             * here equals the original */
            v->offs[k + 1] = v->offs[k] + len;
            break;
        }
        }
        if (v->nulls != NULL) {
            bool isnull = (v->nulls[r >> 3] >> (r & 7)) & 1;
            if (isnull) {
                v->nulls[k >> 3] |= (uint8_t)(1u << (k & 7));
            } else {
                v->nulls[k >> 3] &= (uint8_t) ~(1u << (k & 7));
            }
        }
    }
    v->n = n;
}

/* An all-NULL vector of n rows of kind k, arrays in a. */
static void
vec_all_null(stor_vec *v, stor_vec_kind k, uint32_t n, arena *a)
{
    memset(v, 0, sizeof *v);
    v->kind = k;
    v->n = n;
    v->nulls = arena_alloc(a, (n + 7) / 8 + 1);
    memset(v->nulls, 0xFF, (n + 7) / 8 + 1);
    switch (k) {
    case STOR_VEC_I64:
        v->i64 = arena_calloc(a, n + 1, sizeof *v->i64);
        break;
    case STOR_VEC_F64:
        v->f64 = arena_calloc(a, n + 1, sizeof *v->f64);
        break;
    case STOR_VEC_I128:
        v->i128 = arena_calloc(a, n + 1, sizeof *v->i128);
        break;
    case STOR_VEC_BYTES:
        v->offs = arena_calloc(a, n + 1, sizeof *v->offs);
        v->data = arena_alloc(a, 1);
        break;
    }
}

/* ---- public API ---- */

stor_scan *
stor_scan_open(stor_engine *e, const stor_schema *sc, const stor_snapshot *snap,
               const uint32_t *cols, uint32_t ncols, const stor_range *ranges, uint32_t nranges,
               db_error *err)
{
    stor_tablet *t = stor_engine_tablet(e, snap->tablet_id, false);
    if (t == NULL && snap->nrowsets > 0) {
        char id[32];
        snprintf(id, sizeof id, "tablet %llu", (unsigned long long)snap->tablet_id);
        db_error_set(err, ER_IO_ERROR, id, "no such tablet");
        return NULL;
    }
    stor_scan *s = mem_calloc(1, sizeof *s);
    s->eng = e;
    s->sc = sc;
    s->snap = snap;
    s->tablet = t;
    s->ncols = ncols;
    s->cols = mem_alloc((ncols + 1) * sizeof *s->cols);
    s->segcol = mem_alloc((ncols + 1) * sizeof *s->segcol);
    s->readcols = mem_alloc((ncols + 1) * sizeof *s->readcols);
    for (uint32_t i = 0; i < ncols; i++) {
        DB_ASSERT(cols[i] < sc->ncols);
        s->cols[i] = cols[i];
    }
    s->nranges = nranges;
    s->ranges = mem_alloc((nranges + 1) * sizeof *s->ranges);
    size_t strbytes = 0;
    for (uint32_t k = 0; k < nranges; k++) {
        DB_ASSERT(ranges[k].col < sc->ncols);
        strbytes += ranges[k].lo.len + ranges[k].hi.len;
    }
    s->strs = mem_alloc(strbytes + 1);
    size_t off = 0;
    for (uint32_t k = 0; k < nranges; k++) {
        s->ranges[k] = ranges[k];
        s->ranges[k].lo.str = s->ranges[k].hi.str = s->strs; /* never NULL, even when empty */
        bool bytes = stor_vec_kind_of(&sc->cols[ranges[k].col].type) == STOR_VEC_BYTES;
        if (bytes && ranges[k].has_lo && ranges[k].lo.len > 0) {
            memcpy(s->strs + off, ranges[k].lo.str, ranges[k].lo.len);
            s->ranges[k].lo.str = s->strs + off;
            off += ranges[k].lo.len;
        }
        if (bytes && ranges[k].has_hi && ranges[k].hi.len > 0) {
            memcpy(s->strs + off, ranges[k].hi.str, ranges[k].hi.len);
            s->ranges[k].hi.str = s->strs + off;
            off += ranges[k].hi.len;
        }
    }
    return s;
}

int
stor_scan_next(stor_scan *s, arena *a, uint32_t max_rows, stor_scan_batch *out, bool *eof,
               db_error *err)
{
    DB_ASSERT(max_rows > 0);
    memset(out, 0, sizeof *out);
    *eof = false;
    for (;;) {
        if (s->rd == NULL) {
            if (s->rs >= s->snap->nrowsets) {
                *eof = true;
                return DB_OK;
            }
            if (s->seg >= s->snap->rowsets[s->rs].nsegments) {
                s->rs++;
                s->seg = 0;
                continue;
            }
            if (segment_open(s, err) != DB_OK) {
                return DB_ERR;
            }
        }
        if (s->span >= s->nspans) {
            segment_close(s);
            s->seg++;
            continue;
        }
        row_span *sp = &s->spans[s->span];
        uint64_t from = s->pos;
        uint64_t to = sp->to - from > max_rows ? from + max_rows : sp->to;
        if (to == sp->to) {
            s->span++;
            s->pos = s->span < s->nspans ? s->spans[s->span].from : 0;
        } else {
            s->pos = to;
        }
        uint32_t n = (uint32_t)(to - from);
        s->stats.rows_read += n;
        uint32_t *rows = arena_alloc(a, (n + 1) * sizeof *rows);
        uint32_t kept = 0;
        for (uint64_t r = from; r < to; r++) {
            if (s->del == NULL || !roaring_bitmap_contains(s->del, (uint32_t)r)) {
                rows[kept++] = (uint32_t)r;
            }
        }
        s->stats.rows_deleted += n - kept;
        if (kept == 0) {
            continue;
        }
        stor_vec *got = arena_calloc(a, s->nread + 1, sizeof *got);
        if (s->nread > 0 && stor_segment_read_columns(s->rd, s->readcols, s->nread, from, to, a,
                                                      got, err) != DB_OK) {
            return DB_ERR;
        }
        if (kept < n) {
            uint32_t *keep = arena_alloc(a, kept * sizeof *keep);
            for (uint32_t k = 0; k < kept; k++) {
                keep[k] = rows[k] - (uint32_t)from;
            }
            for (uint32_t c = 0; c < s->nread; c++) {
                vec_compact(&got[c], keep, kept);
            }
        }
        const stor_rowset_meta *m = &s->snap->rowsets[s->rs];
        out->n = kept;
        out->cols = arena_calloc(a, s->ncols + 1, sizeof *out->cols);
        out->missing = arena_calloc(a, s->ncols + 1, sizeof *out->missing);
        out->rows = rows;
        out->tablet_id = s->snap->tablet_id;
        out->rowset_id = m->rowset_id;
        out->segment_id = s->seg;
        out->commit_tso = m->commit_tso;
        uint32_t c = 0;
        for (uint32_t i = 0; i < s->ncols; i++) {
            if (s->segcol[i] >= 0) {
                out->cols[i] = got[c++];
            } else {
                out->missing[i] = true;
                vec_all_null(&out->cols[i], stor_vec_kind_of(&s->sc->cols[s->cols[i]].type), kept,
                             a);
            }
        }
        return DB_OK;
    }
}

void
stor_scan_close(stor_scan *s)
{
    if (s == NULL) {
        return;
    }
    segment_close(s);
    mem_free(s->spans);
    mem_free(s->cols);
    mem_free(s->segcol);
    mem_free(s->readcols);
    mem_free(s->ranges);
    mem_free(s->strs);
    mem_free(s);
}

stor_scan_stats
stor_scan_get_stats(const stor_scan *s)
{
    return s->stats;
}
