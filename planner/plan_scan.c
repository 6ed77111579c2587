/* SPDX-License-Identifier: Apache-2.0
 * plan_scan.c: the table scan operator. At open it takes one snapshot of every tablet of the
 * table (every partition, every bucket) — the statement's consistent view, later commits do not
 * change it — optionally restricted to a TSO (time travel). next() reads storage batches
 * (stor_scan) and converts them into planner batches: DATE days become microseconds, FLOAT
 * values their shortest decimal form, columns added after a segment was written take their
 * default, __DORIS_COMMIT_TSO_COL__ is the commit TSO of the row's rowset and rows carrying the
 * delete sign are dropped. See README.md §"Tables and DML". */
#include "planner/plan_dml_int.h"

#include <strings.h>


#include <math.h>
#include <roaring/roaring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct op_tscan {
    plan_op base;
    const plan_tbl *tbl;
    uint64_t as_of; /* 0 = current */
    bool with_loc, keep_deleted;
    stor_snapshot *snaps; /* one per tablet that exists */
    size_t nsnaps, cur;
    const bool *need; /* per table column: read it (plan__tscan_need); NULL = every column */
    uint32_t *cols;   /* the schema columns read, ascending (ncols_read of them) */
    uint32_t ncols_read;
    int32_t *read_at; /* per table column: its index in cols, -1 = not read (stays NULL) */
    /* Metadata mode: no column is read (COUNT(*), SELECT 1 FROM t) and no merge: each tablet's
     * live rows are its rowsets' rows minus the rows deleted at the snapshot version, emitted
     * as batches of NULLs without opening a segment. meta_left: rows of the current tablet
     * still to emit; UINT64_MAX = not counted yet. */
    bool meta;
    uint64_t meta_left;
    stor_scan *scan;
    plan_batch *out;
    void **own; /* per out column: its own value array; convert may point the column at the
                   storage batch's values instead (no copy) until the next batch */
    arena *sa;  /* storage batch arena, reset per batch */
    plan_value *defaults; /* per column: value for segments without it */
    stor_range *ranges;   /* pruning ranges from the WHERE clause (plan__tscan_prune) */
    uint32_t nranges;
    bool *part_skip;      /* per partition: no row can match; NULL = none skipped */
    stor_vec *point_vecs; /* equality values of every HASH column: only their bucket is read */
    /* Merge on read (AGGREGATE KEY and merge-on-read UNIQUE tables): each tablet's rows are
     * materialized in marena, sorted by key (stable: older rowsets first) and folded to one row
     * per key in mrows; next() then emits them. */
    bool merge;
    arena *marena;
    plan_value *mrows; /* nm rows of tbl->ncols values */
    size_t nm, mpos;
    /* EXPLAIN ANALYZE: this operator's storage counters (the session's SHOW STATUS ones too) */
    uint64_t rows_read, tablets_read, segments_pruned, pages_pruned, meta_rows;
} op_tscan;

static int tscan_open(plan_op *op, db_error *err);
static int tscan_next(plan_op *op, plan_batch **out, db_error *err);
static void tscan_close(plan_op *op);

/* Add a finished tablet scan's counters to the operator's (EXPLAIN ANALYZE) and the
 * session's (SHOW STATUS). */
static void
scan_account(op_tscan *t, const stor_scan *scan)
{
    plan_session *s = t->base.cx->s;
    stor_scan_stats st = stor_scan_get_stats(scan);
    t->rows_read += st.rows_read;
    t->tablets_read++;
    t->segments_pruned += st.segments_pruned;
    t->pages_pruned += st.pages_pruned;
    s->scan_rows += st.rows_read;
    s->scan_tablets++;
    s->scan_segments_pruned += st.segments_pruned;
    s->scan_pages_pruned += st.pages_pruned;
}

static int
tscan_open(plan_op *op, db_error *err)
{
    op_tscan *t = (op_tscan *)op;
    const plan_tbl *tb = t->tbl;
    plan_ectx *cx = op->cx;
    stor_engine *e = cx->s->srv->engine;
    op->opened = true;
    op->ba = arena_new(0);
    t->sa = arena_new(0);
    size_t total = 0;
    for (uint32_t p = 0; p < tb->nparts; p++) {
        total += tb->parts[p].buckets;
    }
    t->snaps = arena_calloc(cx->a, total ? total : 1, sizeof *t->snaps);
    /* The statement's view: every commit published before this point, wholly (read before the
     * tablet snapshots, so a commit publishing meanwhile is cut out of all of them). */
    uint64_t wm = e != NULL ? stor_engine_visible_tso(e) : 0;
    t->nsnaps = 0;
    t->cur = 0;
    t->rows_read = t->tablets_read = t->segments_pruned = t->pages_pruned = 0;
    for (uint32_t p = 0; e != NULL && p < tb->nparts; p++) {
        if (t->part_skip && t->part_skip[p]) {
            continue;
        }
        uint32_t only = UINT32_MAX;
        if (t->point_vecs) {
            only = stor_bucket_of(&tb->sc, t->point_vecs, tb->dist, tb->ndist, 0,
                                  tb->parts[p].buckets);
        }
        for (uint32_t bkt = 0; bkt < tb->parts[p].buckets; bkt++) {
            if (only != UINT32_MAX && bkt != only) {
                continue;
            }
            stor_tablet *tab =
                    stor_engine_tablet(e, stor_tablet_id_of(tb->parts[p].id, bkt), false);
            if (tab == NULL) {
                continue;
            }
            stor_snapshot *s = &t->snaps[t->nsnaps++];
            stor_tablet_snapshot(tab, s);
            if (t->as_of && stor_snapshot_as_of(s, t->as_of, err) != DB_OK) {
                return DB_ERR; /* s is counted in nsnaps: close destroys it */
            }
            size_t last = s->version < s->nvtso ? (size_t)s->version : s->nvtso;
            if (!t->as_of && last > 0 && s->vtso[last - 1] > wm) {
                /* A commit published after wm was read: leave it out of every tablet alike.
                 * Below a compaction floor (a compaction raced us) keep the whole snapshot. */
                db_error cut_err;
                db_error_clear(&cut_err);
                (void)stor_snapshot_as_of(s, wm, &cut_err);
            }
        }
    }
    t->merge = !t->with_loc &&
               (tb->sc.keys == CAT_KEYS_AGG || (tb->sc.keys == CAT_KEYS_UNIQUE && !tb->sc.mow));
    /* Projection pruning: only the columns some expression binds (t->need), plus what the scan
     * itself reads: the delete sign it filters on, the keys and sequence column a merge folds
     * by. The commit TSO column is made from the rowset, never read. */
    t->cols = arena_calloc(cx->a, tb->ncols ? tb->ncols : 1, sizeof *t->cols);
    t->read_at = arena_calloc(cx->a, tb->ncols ? tb->ncols : 1, sizeof *t->read_at);
    t->ncols_read = 0;
    bool any_need = t->need == NULL;
    for (uint32_t c = 0; c < tb->ncols; c++) {
        any_need |= t->need != NULL && t->need[c]; /* the commit TSO column too */
        bool rd = t->need == NULL || t->need[c] ||
                  ((int32_t)c == tb->delete_sign_col && !t->keep_deleted) ||
                  (t->merge && (c < tb->sc.nkeys || (int32_t)c == tb->sc.seq_col));
        if (t->need != NULL && (int32_t)c == tb->commit_tso_col) {
            rd = false;
        }
        t->read_at[c] = rd ? (int32_t)t->ncols_read : -1;
        if (rd) {
            t->cols[t->ncols_read++] = c;
        }
    }
    /* Defaults of columns a segment may lack (added by ALTER TABLE ADD COLUMN later). */
    t->defaults = plan__tbl_defaults(cx, tb);
    if (t->merge) {
        t->marena = arena_new(0);
        /* Only key-column ranges may prune: a key's rows share its key, not its values. */
        uint32_t k = 0;
        for (uint32_t i = 0; i < t->nranges; i++) {
            if (t->ranges[i].col < tb->sc.nkeys) {
                t->ranges[k++] = t->ranges[i];
            }
        }
        t->nranges = k;
    }
    t->meta = !any_need && t->ncols_read == 0 && !t->merge && !t->with_loc && t->nranges == 0;
    t->meta_left = UINT64_MAX;
    t->meta_rows = 0;
    uint32_t extra = t->with_loc ? 4 : 0;
    plan_vtype *types = op->types;
    t->out = plan__batch_new(cx->a, types, tb->ncols + extra, op->cap);
    t->own = arena_alloc(cx->a, (size_t)(tb->ncols + extra + 1) * sizeof *t->own);
    for (uint32_t c = 0; c < tb->ncols + extra; c++) {
        t->own[c] = t->out->cols[c].i;
    }
    (void)err;
    return DB_OK;
}

/* Point every column of t->out back at its own values (before anything writes into them). */
static void
own_cols(op_tscan *t)
{
    for (uint32_t c = 0; c < t->out->ncols; c++) {
        t->out->cols[c].i = t->own[c];
    }
}

/* Convert one storage batch into t->out (all rows; the delete-sign filter uses a selection).
 * Integer, DATETIME, DOUBLE and DECIMAL columns share the storage batch's arrays (t->sa,
 * reset only by the next storage read); the other kinds are converted into t->out's own. */
static int
convert(op_tscan *t, const stor_scan_batch *sb, db_error *err)
{
    const plan_tbl *tb = t->tbl;
    plan_batch *b = t->out;
    own_cols(t);
    plan__batch_clear(b);
    uint32_t n = sb->n;
    for (uint32_t c = 0; c < tb->ncols; c++) {
        plan_vec *pv = &b->cols[c];
        const plan_tcol *tc = &tb->cols[c];
        if ((int32_t)c == tb->commit_tso_col) {
            for (uint32_t r = 0; r < n; r++) {
                pv->i[r] = (int64_t)sb->commit_tso;
            }
            continue;
        }
        int32_t at = t->read_at[c];
        if (at < 0) { /* pruned: nothing binds it; NULL so that row copies stay cheap */
            memset(pv->nulls, 0xFF, (size_t)(n + 7) / 8);
            continue;
        }
        const stor_vec *sv = &sb->cols[at];
        if (sb->missing && sb->missing[at]) {
            for (uint32_t r = 0; r < n; r++) {
                if (plan__batch_set(t->base.cx, b, c, r, &t->defaults[c], err) != DB_OK) {
                    return DB_ERR;
                }
            }
            continue;
        }
        if (sv->nulls != NULL) { /* same bit layout; pv->nulls was cleared */
            memcpy(pv->nulls, sv->nulls, (size_t)(n + 7) / 8);
            if (n % 8 != 0) {
                pv->nulls[n / 8] &= (uint8_t)((1u << (n % 8)) - 1);
            }
        }
        switch (tc->vk) {
        case PV_INT:
        case PV_DATETIME:
            pv->i = sv->i64; /* lives in t->sa until the next batch */
            break;
        case PV_DATE:
            for (uint32_t r = 0; r < n; r++) {
                pv->i[r] = sv->i64[r] * INT64_C(86400000000);
            }
            break;
        case PV_DOUBLE:
            if (tc->type.id == CAT_T_FLOAT) {
                for (uint32_t r = 0; r < n; r++) {
                    pv->d[r] = plan__float_shortest(sv->f64[r]);
                }
            } else {
                pv->d = sv->f64;
            }
            break;
        case PV_DECIMAL:
            pv->dec = sv->i128;
            break;
        case PV_STRING:
            for (uint32_t r = 0; r < n; r++) {
                pv->s[r].s = (const char *)sv->data + sv->offs[r];
                pv->s[r].len = (size_t)(sv->offs[r + 1] - sv->offs[r]);
            }
            break;
        default:
            break;
        }
    }
    if (t->with_loc) {
        for (uint32_t r = 0; r < n; r++) {
            b->cols[tb->ncols].i[r] = (int64_t)sb->tablet_id;
            b->cols[tb->ncols + 1].i[r] = (int64_t)sb->rowset_id;
            b->cols[tb->ncols + 2].i[r] = (int64_t)sb->segment_id;
            b->cols[tb->ncols + 3].i[r] = (int64_t)sb->rows[r];
        }
    }
    b->nrows = n;
    if (tb->delete_sign_col >= 0 && !t->keep_deleted && !t->merge) {
        const plan_vec *ds = &b->cols[tb->delete_sign_col];
        uint32_t *sel = arena_alloc(t->base.ba, (size_t)(n ? n : 1) * sizeof *sel);
        uint32_t k = 0;
        for (uint32_t r = 0; r < n; r++) {
            if (plan__vec_is_null(ds, r) || ds->i[r] == 0) {
                sel[k++] = r;
            }
        }
        if (k < n) {
            b->sel = sel;
            b->nsel = k;
        }
    }
    return DB_OK;
}

/* ---- merge on read ---- */

/* Raw order of two values of one column (NULL first; strings bytewise, as keys are stored). */
static int
raw_cmp(const plan_value *a, const plan_value *b)
{
    if (a->kind == PV_NULL || b->kind == PV_NULL) {
        return (b->kind == PV_NULL) - (a->kind == PV_NULL);
    }
    switch (a->kind) {
    case PV_DOUBLE:
        return (a->d > b->d) - (a->d < b->d);
    case PV_DECIMAL:
        return (a->dec > b->dec) - (a->dec < b->dec);
    case PV_STRING: {
        size_t n = a->str.len < b->str.len ? a->str.len : b->str.len;
        int r = n ? memcmp(a->str.s, b->str.s, n) : 0;
        return r ? r : (a->str.len > b->str.len) - (a->str.len < b->str.len);
    }
    default: /* integers and temporal microseconds */
        return (a->i > b->i) - (a->i < b->i);
    }
}

typedef struct msort_ctx {
    const plan_value *rows;
    uint32_t ncols, nkeys;
} msort_ctx;

static int
key_cmp_rows(const msort_ctx *m, uint32_t x, uint32_t y)
{
    const plan_value *a = &m->rows[(size_t)x * m->ncols], *b = &m->rows[(size_t)y * m->ncols];
    for (uint32_t k = 0; k < m->nkeys; k++) {
        int r = raw_cmp(&a[k], &b[k]);
        if (r) {
            return r;
        }
    }
    return 0;
}

static int
key_cmp_fn(const void *ctx, uint32_t x, uint32_t y)
{
    return key_cmp_rows(ctx, x, y);
}

/* SUM of two non-NULL values of one column's kind. */
static plan_value
add_values(const plan_value *a, const plan_value *b)
{
    plan_value r = *a;
    switch (a->kind) {
    case PV_DOUBLE:
        r.d = a->d + b->d;
        break;
    case PV_DECIMAL:
        r.dec = (__int128)((unsigned __int128)a->dec + (unsigned __int128)b->dec);
        break;
    default:
        r.i = (int64_t)((uint64_t)a->i + (uint64_t)b->i); /* wraps, as the writer's fold */
        break;
    }
    return r;
}

/* Read every row of the current tablet, then fold them to one row per key into t->mrows. */
static int
merge_tablet(op_tscan *t, db_error *err)
{
    const plan_tbl *tb = t->tbl;
    plan_op *op = &t->base;
    uint32_t nc = tb->ncols;
    arena_reset(t->marena);
    size_t n = 0, cap = 0;
    plan_value *rows = NULL;
    for (;;) {
        arena_reset(t->sa);
        stor_scan_batch sb;
        bool eof = false;
        if (stor_scan_next(t->scan, t->sa, op->cap, &sb, &eof, err) != DB_OK) {
            return DB_ERR;
        }
        if (eof || sb.n == 0) {
            break;
        }
        if (convert(t, &sb, err) != DB_OK) {
            return DB_ERR;
        }
        plan__rows_append(t->marena, &rows, &n, &cap, nc, t->out);
        if (plan__check_interrupt(op->cx->s, err) != DB_OK) {
            return DB_ERR;
        }
    }
    uint32_t *idx = arena_alloc(t->marena, (n + 1) * sizeof *idx);
    uint32_t *tmp = arena_alloc(t->marena, (n + 1) * sizeof *tmp);
    for (size_t i = 0; i < n; i++) {
        idx[i] = (uint32_t)i;
    }
    msort_ctx m = {rows, nc, tb->sc.nkeys};
    plan__msort_rows(idx, tmp, n, key_cmp_fn, &m); /* stable: older rowsets first on ties */
    plan_value *out = arena_alloc(t->marena, (n + 1) * nc * sizeof *out);
    size_t nout = 0;
    int32_t seq = tb->sc.seq_col;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && key_cmp_rows(&m, idx[i], idx[j]) == 0) {
            j++;
        }
        plan_value *o = &out[nout * nc];
        if (tb->sc.keys == CAT_KEYS_AGG) {
            memcpy(o, &rows[(size_t)idx[i] * nc], nc * sizeof *o);
            for (uint32_t c = tb->sc.nkeys; c < nc; c++) {
                uint8_t agg = tb->sc.aggs ? tb->sc.aggs[c] : CAT_AGG_REPLACE;
                for (size_t k = i + 1; k < j; k++) {
                    const plan_value *v = &rows[(size_t)idx[k] * nc + c];
                    if (agg == CAT_AGG_SUM) {
                        if (v->kind != PV_NULL) {
                            o[c] = o[c].kind == PV_NULL ? *v : add_values(&o[c], v);
                        }
                    } else if (agg == CAT_AGG_MIN || agg == CAT_AGG_MAX) {
                        if (v->kind != PV_NULL && (o[c].kind == PV_NULL ||
                                                   (agg == CAT_AGG_MIN ? raw_cmp(v, &o[c]) < 0
                                                                       : raw_cmp(v, &o[c]) > 0))) {
                            o[c] = *v;
                        }
                    } else if (agg == CAT_AGG_REPLACE_IF_NOT_NULL) {
                        if (v->kind != PV_NULL) {
                            o[c] = *v;
                        }
                    } else {
                        o[c] = *v; /* REPLACE: the latest write */
                    }
                }
            }
        } else {
            /* merge-on-read UNIQUE: the latest write wins, or the highest sequence value */
            size_t win = i;
            for (size_t k = i + 1; k < j; k++) {
                if (seq < 0 || raw_cmp(&rows[(size_t)idx[k] * nc + seq],
                                       &rows[(size_t)idx[win] * nc + seq]) >= 0) {
                    win = k;
                }
            }
            memcpy(o, &rows[(size_t)idx[win] * nc], nc * sizeof *o);
            if (tb->delete_sign_col >= 0 && !t->keep_deleted &&
                o[tb->delete_sign_col].kind != PV_NULL && o[tb->delete_sign_col].i != 0) {
                i = j;
                continue; /* the key's latest row deletes it */
            }
        }
        nout++;
        i = j;
    }
    t->mrows = out;
    t->nm = nout;
    t->mpos = 0;
    return DB_OK;
}

/* Emit up to one batch of merged rows. */
static int
merge_emit(op_tscan *t, db_error *err)
{
    plan_batch *b = t->out;
    uint32_t nc = t->tbl->ncols;
    own_cols(t);
    plan__batch_clear(b);
    while (b->nrows < b->cap && t->mpos < t->nm) {
        const plan_value *row = &t->mrows[t->mpos * nc];
        for (uint32_t c = 0; c < nc; c++) {
            if (plan__batch_set(t->base.cx, b, c, b->nrows, &row[c], err) != DB_OK) {
                return DB_ERR;
            }
        }
        b->nrows++;
        t->mpos++;
    }
    return DB_OK;
}

/* Live rows of snapshot snap: its rowsets' rows minus those deleted at its version (the
 * delete bitmaps a scan would apply), read from metadata only. */
static uint64_t
snapshot_live_rows(stor_engine *e, const stor_snapshot *snap)
{
    stor_tablet *tab = stor_engine_tablet(e, snap->tablet_id, false);
    uint64_t rows = 0;
    for (size_t r = 0; r < snap->nrowsets; r++) {
        const stor_rowset_meta *m = &snap->rowsets[r];
        rows += m->rows;
        for (uint32_t g = 0; tab != NULL && g < m->nsegments; g++) {
            roaring_bitmap_t *del = stor_tablet_deleted(tab, m->rowset_id, g, snap->version);
            uint64_t nd = roaring_bitmap_get_cardinality(del);
            roaring_bitmap_free(del);
            rows -= nd < rows ? nd : rows;
        }
    }
    return rows;
}

void
plan__tablet_stats(stor_engine *e, uint64_t tablet_id, arena *a, plan_tablet_stats *out)
{
    memset(out, 0, sizeof *out);
    stor_tablet *tab = e != NULL ? stor_engine_tablet(e, tablet_id, false) : NULL;
    if (tab == NULL) {
        return;
    }
    stor_snapshot snap;
    stor_tablet_snapshot(tab, &snap);
    out->exists = true;
    out->version = snap.version;
    out->nrowsets = snap.nrowsets;
    out->rows = snapshot_live_rows(e, &snap);
    out->dir = arena_strdup(a, stor_tablet_dir(tab));
    for (size_t r = 0; r < snap.nrowsets; r++) {
        const stor_rowset_meta *m = &snap.rowsets[r];
        for (uint32_t g = 0; g < m->nsegments; g++) {
            char path[4096];
            struct stat sb;
            snprintf(path, sizeof path, "%s/%s", out->dir, m->segments[g]);
            if (stat(path, &sb) == 0) {
                out->bytes += (uint64_t)sb.st_size;
            }
        }
    }
    stor_snapshot_destroy(&snap);
}

void
plan__table_stats(plan_ectx *cx, const uint64_t *tablets, size_t n, uint64_t *rows, uint64_t *bytes)
{
    stor_engine *e = cx->s->srv->engine;
    for (size_t i = 0; e != NULL && i < n; i++) {
        plan_tablet_stats ts;
        plan__tablet_stats(e, tablets[i], cx->a, &ts);
        *rows += ts.rows;
        *bytes += ts.bytes;
    }
}

/* Metadata mode: the next batch of all-NULL rows of the current tablet (see op_tscan.meta). */
static int
meta_next(op_tscan *t, plan_batch **out, db_error *err)
{
    plan_op *op = &t->base;
    for (;;) {
        if (plan__check_interrupt(op->cx->s, err) != DB_OK) {
            return DB_ERR;
        }
        if (t->cur >= t->nsnaps) {
            return DB_OK;
        }
        if (t->meta_left == UINT64_MAX) {
            t->meta_left = snapshot_live_rows(op->cx->s->srv->engine, &t->snaps[t->cur]);
            t->meta_rows += t->meta_left;
            t->tablets_read++;
        }
        if (t->meta_left == 0) {
            t->cur++;
            t->meta_left = UINT64_MAX;
            continue;
        }
        plan_batch *b = t->out;
        plan__batch_clear(b);
        uint32_t n = t->meta_left < b->cap ? (uint32_t)t->meta_left : b->cap;
        for (uint32_t c = 0; c < b->ncols; c++) {
            memset(b->cols[c].nulls, 0xFF, (size_t)(n + 7) / 8);
        }
        b->nrows = n;
        t->meta_left -= n;
        *out = b;
        return DB_OK;
    }
}

static int
tscan_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_tscan *t = (op_tscan *)op;
    const plan_tbl *tb = t->tbl;
    *out = NULL;
    arena_reset(op->ba);
    if (t->meta) {
        return meta_next(t, out, err);
    }
    for (;;) {
        if (plan__check_interrupt(op->cx->s, err) != DB_OK) {
            return DB_ERR;
        }
        if (t->merge && t->mpos < t->nm) {
            if (merge_emit(t, err) != DB_OK) {
                return DB_ERR;
            }
            *out = t->out;
            return DB_OK;
        }
        if (t->scan == NULL) {
            if (t->cur >= t->nsnaps) {
                return DB_OK;
            }
            t->scan = stor_scan_open(op->cx->s->srv->engine, &tb->sc, &t->snaps[t->cur], t->cols,
                                     t->ncols_read, t->ranges, t->nranges, err);
            if (t->scan == NULL) {
                return DB_ERR;
            }
        }
        if (t->merge) {
            int rc = merge_tablet(t, err);
            scan_account(t, t->scan);
            stor_scan_close(t->scan);
            t->scan = NULL;
            t->cur++;
            if (rc != DB_OK) {
                return DB_ERR;
            }
            continue;
        }
        arena_reset(t->sa);
        stor_scan_batch sb;
        bool eof = false;
        if (stor_scan_next(t->scan, t->sa, op->cap, &sb, &eof, err) != DB_OK) {
            return DB_ERR;
        }
        if (eof || sb.n == 0) {
            scan_account(t, t->scan);
            stor_scan_close(t->scan);
            t->scan = NULL;
            t->cur++;
            continue;
        }
        if (convert(t, &sb, err) != DB_OK) {
            return DB_ERR;
        }
        if (plan__batch_active(t->out) == 0) {
            continue;
        }
        *out = t->out;
        return DB_OK;
    }
}

static void
tscan_close(plan_op *op)
{
    op_tscan *t = (op_tscan *)op;
    if (t->scan) {
        scan_account(t, t->scan);
        stor_scan_close(t->scan);
        t->scan = NULL;
    }
    for (size_t i = 0; t->snaps && i < t->nsnaps; i++) {
        stor_snapshot_destroy(&t->snaps[i]);
    }
    t->nsnaps = 0;
    arena_free(t->sa);
    t->sa = NULL;
    arena_free(t->marena);
    t->marena = NULL;
    t->mrows = NULL;
    t->nm = t->mpos = 0;
    arena_free(op->ba);
    op->ba = NULL;
    op->opened = false;
}

/* ---- EXPLAIN ---- */

/* A pruning bound of column tc as SQL text. */
static const char *
key_text(plan_explain *ex, arena *a, const plan_tcol *tc, const stor_key *k)
{
    plan_value v;
    memset(&v, 0, sizeof v);
    v.kind = (uint8_t)tc->vk;
    switch (tc->vk) {
    case PV_DOUBLE:
        v.d = k->f64;
        break;
    case PV_DECIMAL:
        v.dec = tc->kind == STOR_VEC_I128 ? k->i128 : (__int128)k->i64;
        v.scale = tc->xt.scale;
        break;
    case PV_DATE:
        v.us = k->i64 * INT64_C(86400000000);
        break;
    case PV_DATETIME:
    case PV_TIME:
        v.us = k->i64;
        v.scale = tc->xt.scale;
        break;
    default:
        v.i = k->i64;
        v.is_unsigned = tc->xt.is_unsigned;
        break;
    }
    size_t len;
    (void)ex;
    return plan__v_text(a, &v, &len);
}

/* TABLE SCAN(db.t, partitions kept/all, tablets kept/all[, ranges c in [lo,hi], ...]); under
 * ANALYZE also the storage counters. */
static void
tscan_describe(plan_op *op, plan_explain *ex)
{
    const op_tscan *t = (const op_tscan *)op;
    const plan_tbl *tb = t->tbl;
    arena *a = op->cx->a;
    uint32_t pk = 0, tk = 0, tall = 0;
    for (uint32_t p = 0; p < tb->nparts; p++) {
        tall += tb->parts[p].buckets;
        if (t->part_skip && t->part_skip[p]) {
            continue;
        }
        pk++;
        tk += t->point_vecs ? (tb->parts[p].buckets ? 1 : 0) : tb->parts[p].buckets;
    }
    plan__explain_printf(ex, "TABLE SCAN(%s.%s, partitions %u/%u, tablets %u/%u", tb->db, tb->name,
                         pk, tb->nparts, tk, tall);
    for (uint32_t i = 0; i < t->nranges; i++) {
        const stor_range *r = &t->ranges[i];
        const plan_tcol *tc = &tb->cols[r->col];
        plan__explain_printf(
                ex, "%s%s in %s%s,%s%s", i ? ", " : ", ranges ", tc->name, r->has_lo ? "[" : "(",
                r->has_lo ? key_text(ex, a, tc, &r->lo) : "-inf",
                r->has_hi ? key_text(ex, a, tc, &r->hi) : "+inf", r->has_hi ? "]" : ")");
    }
    if (t->as_of) {
        plan__explain_printf(ex, ", as of %llu", (unsigned long long)t->as_of);
    }
    plan__explain_printf(ex, ")");
    plan__explain_stat(ex, "tablets read", t->tablets_read);
    plan__explain_stat(ex, "rows read", t->rows_read);
    plan__explain_stat(ex, "segments pruned", t->segments_pruned);
    plan__explain_stat(ex, "pages pruned", t->pages_pruned);
    if (t->cols) { /* after open: the columns projection pruning kept */
        plan__explain_stat(ex, "columns read", t->ncols_read);
    }
    if (t->meta) {
        plan__explain_stat(ex, "rows from metadata", t->meta_rows);
    }
}

static const char *
tscan_col_name(plan_op *op, uint32_t c, plan_explain *ex)
{
    const op_tscan *t = (const op_tscan *)op;
    return c < t->tbl->ncols ? t->tbl->cols[c].name : NULL;
}

plan_op *
plan__op_tscan(plan_ectx *cx, const plan_tbl *tbl, uint64_t as_of_tso, bool with_loc,
               bool keep_deleted)
{
    op_tscan *t = arena_calloc(cx->a, 1, sizeof *t);
    t->base.cx = cx;
    t->base.cap = plan__batch_cap(cx->s);
    t->base.open = tscan_open;
    t->base.next = tscan_next;
    t->base.close = tscan_close;
    t->base.describe = tscan_describe;
    t->base.col_name = tscan_col_name;
    t->tbl = tbl;
    t->as_of = as_of_tso;
    t->with_loc = with_loc;
    t->keep_deleted = keep_deleted;
    uint32_t extra = with_loc ? 4 : 0;
    t->base.ncols = tbl->ncols + extra;
    t->base.types = arena_calloc(cx->a, t->base.ncols ? t->base.ncols : 1, sizeof(plan_vtype));
    for (uint32_t c = 0; c < tbl->ncols; c++) {
        t->base.types[c].kind = tbl->cols[c].vk;
        t->base.types[c].scale = tbl->cols[c].xt.scale;
        if (tbl->cols[c].vk == PV_DOUBLE) {
            t->base.types[c].scale = 0;
        }
    }
    for (uint32_t c = 0; c < extra; c++) {
        t->base.types[tbl->ncols + c].kind = PV_INT;
    }
    return &t->base;
}

plan_value *
plan__tbl_defaults(plan_ectx *cx, const plan_tbl *tb)
{
    plan_value *d = arena_calloc(cx->a, tb->ncols ? tb->ncols : 1, sizeof *d);
    for (uint32_t c = 0; c < tb->ncols; c++) {
        const plan_tcol *tc = &tb->cols[c];
        d[c] = plan__v_null();
        if (tc->default_text && !tc->default_is_expr) {
            /* The batch setter converts the text to the column's kind. */
            d[c] = plan__v_str(tc->default_text, strlen(tc->default_text));
        }
    }
    return d;
}

/* ---- FOR VERSION AS OF / FOR TIME AS OF ---- */

int
plan__as_of_tso(plan_ectx *cx, const plan_ast *as_of, uint64_t *tso, db_error *err)
{
    plan_expr *e;
    plan_value v;
    if (plan__analyze(cx, as_of, NULL, 0, "from clause", &e, err) != DB_OK ||
        plan__eval(cx, e, &v, err) != DB_OK) {
        return DB_ERR;
    }
    if (!as_of->negated) { /* VERSION AS OF <tso> */
        bool trunc = false;
        if (v.kind == PV_STRING) {
            char tmp[64];
            size_t n = v.str.len < sizeof tmp - 1 ? v.str.len : sizeof tmp - 1;
            memcpy(tmp, v.str.s, n);
            tmp[n] = '\0';
            if (cat_tso_parse(tmp, tso) && *tso > 0) {
                return DB_OK;
            }
        } else if (v.kind != PV_NULL) {
            int64_t x = plan__v_to_int(&v, &trunc);
            if (x > 0 && !trunc) {
                *tso = (uint64_t)x;
                return DB_OK;
            }
        }
        return db_error_set(err, ER_DORIS, "Invalid version for time travel, it should be a TSO");
    }
    /* TIME AS OF '<datetime>' in the session time zone: the last TSO at or before it. */
    int64_t us;
    bool has_time;
    const char *s;
    size_t len;
    if (v.kind == PV_DATETIME || v.kind == PV_DATE) {
        us = v.us;
    } else if (!plan__v_string(cx, &v, &s, &len) || !plan__parse_datetime(s, len, &us, &has_time)) {
        return db_error_set(err, ER_DORIS, "Invalid datetime for time travel");
    }
    int64_t utc_us = us - (cx->now_us - cx->now_utc_us); /* session zone -> UTC */
    if (utc_us < 0) {
        return db_error_set(err, ER_DORIS, "Invalid datetime for time travel");
    }
    *tso = cat_tso_make((uint64_t)utc_us / 1000, CAT_TSO_LOGICAL_MAX);
    return DB_OK;
}

/* ======================================================================================
 * Pruning: ranges of columns from the WHERE clause
 * ====================================================================================== */

/* Column index of a column reference to tbl (qualifier, when written, must name it), or -1. */
static int
ref_column(const plan_tbl *tbl, const char *qual_ok, const plan_ast *x)
{
    if (x->kind != PA_COLUMN) {
        return -1;
    }
    if (x->qual && strcmp(x->qual, qual_ok) != 0) {
        return -1;
    }
    for (uint32_t c = 0; c < tbl->ncols; c++) {
        if (strcasecmp(tbl->cols[c].name, x->name) == 0) {
            return (int)c;
        }
    }
    return -1;
}

/* The value of a constant expression in column c's storage form; false when it is not a
 * constant, is NULL, or does not convert (then it prunes nothing). */
static bool
const_cell(plan_ectx *cx, const plan_tbl *tbl, uint32_t c, const plan_ast *x, plan_scell *out)
{
    plan_expr *e;
    plan_value v;
    db_error err;
    db_error_clear(&err);
    if (plan__analyze(cx, x, NULL, 0, "where clause", &e, &err) != DB_OK ||
        plan__eval(cx, e, &v, &err) != DB_OK || v.kind == PV_NULL) {
        return false;
    }
    return plan__scell_of(cx, &tbl->cols[c], &v, out);
}

typedef struct prune_state {
    plan_ectx *cx;
    const plan_tbl *tbl;
    const char *qual;
    bool *has_lo, *has_hi;
    plan_scell *lo, *hi;
    bool *is_null; /* c IS NULL is one of the AND-ed terms */
} prune_state;

static void
tighten(prune_state *p, uint32_t c, const plan_scell *v, bool lo, bool hi)
{
    const plan_tcol *tc = &p->tbl->cols[c];
    if (lo && (!p->has_lo[c] || plan__scell_cmp(tc, v, &p->lo[c]) > 0)) {
        p->lo[c] = *v;
        p->has_lo[c] = true;
    }
    if (hi && (!p->has_hi[c] || plan__scell_cmp(tc, v, &p->hi[c]) < 0)) {
        p->hi[c] = *v;
        p->has_hi[c] = true;
    }
}

/* Collect ranges from the AND-ed comparisons of x. Strings are skipped: their comparison is
 * case-insensitive while zone maps and bounds are bytewise. */
static void
collect(prune_state *p, const plan_ast *x)
{
    if (x == NULL) {
        return;
    }
    if (x->kind == PA_BINARY && x->op == XOP_AND) {
        collect(p, x->args[0]);
        collect(p, x->args[1]);
        return;
    }
    if (x->kind == PA_BETWEEN && !x->negated) {
        int c = ref_column(p->tbl, p->qual, x->args[0]);
        plan_scell a, b;
        if (c >= 0 && p->tbl->cols[c].kind != STOR_VEC_BYTES &&
            const_cell(p->cx, p->tbl, (uint32_t)c, x->args[1], &a) &&
            const_cell(p->cx, p->tbl, (uint32_t)c, x->args[2], &b)) {
            tighten(p, (uint32_t)c, &a, true, false);
            tighten(p, (uint32_t)c, &b, false, true);
        }
        return;
    }
    if (x->kind == PA_IS && x->op == XOP_IS_NULL && !x->negated) {
        int c = ref_column(p->tbl, p->qual, x->args[0]);
        if (c >= 0) {
            p->is_null[c] = true; /* only partitions that can hold NULL stay */
        }
        return;
    }
    if (x->kind != PA_BINARY) {
        return;
    }
    int op = x->op;
    const plan_ast *col = x->args[0], *val = x->args[1];
    int c = ref_column(p->tbl, p->qual, col);
    if (c < 0) { /* constant op column: mirror the operator */
        col = x->args[1];
        val = x->args[0];
        c = ref_column(p->tbl, p->qual, col);
        op = op == XOP_LT   ? XOP_GT
             : op == XOP_GT ? XOP_LT
             : op == XOP_LE ? XOP_GE
             : op == XOP_GE ? XOP_LE
                            : op;
    }
    if (c < 0 || p->tbl->cols[c].kind == STOR_VEC_BYTES) {
        return;
    }
    bool lo = op == XOP_EQ || op == XOP_GT || op == XOP_GE;
    bool hi = op == XOP_EQ || op == XOP_LT || op == XOP_LE;
    plan_scell v;
    if ((lo || hi) && const_cell(p->cx, p->tbl, (uint32_t)c, val, &v)) {
        /* Inclusive bounds: a strict comparison only widens the range (pruning stays safe). */
        tighten(p, (uint32_t)c, &v, lo, hi);
    }
}

static void
put_key(const plan_tcol *tc, const plan_scell *v, stor_key *k)
{
    memset(k, 0, sizeof *k);
    k->i64 = v->i;
    k->f64 = v->d;
    k->i128 = v->x;
    (void)tc;
}

void
plan__tscan_prune(plan_op *op, const plan_ast *where, const char *qual)
{
    if (op->open != tscan_open) {
        return; /* another reader of a table (time travel rebuilt from the binlog) */
    }
    op_tscan *t = (op_tscan *)op;
    const plan_tbl *tb = t->tbl;
    plan_ectx *cx = op->cx;
    if (where == NULL || tb->ncols == 0) {
        return;
    }
    prune_state p = {cx,
                     tb,
                     qual,
                     arena_calloc(cx->a, tb->ncols, sizeof(bool)),
                     arena_calloc(cx->a, tb->ncols, sizeof(bool)),
                     arena_calloc(cx->a, tb->ncols, sizeof(plan_scell)),
                     arena_calloc(cx->a, tb->ncols, sizeof(plan_scell)),
                     arena_calloc(cx->a, tb->ncols, sizeof(bool))};
    collect(&p, where);
    t->ranges = arena_calloc(cx->a, tb->ncols, sizeof *t->ranges);
    t->nranges = 0;
    for (uint32_t c = 0; c < tb->ncols; c++) {
        if (!p.has_lo[c] && !p.has_hi[c]) {
            continue;
        }
        stor_range *r = &t->ranges[t->nranges++];
        r->col = c;
        r->has_lo = p.has_lo[c];
        r->has_hi = p.has_hi[c];
        put_key(&tb->cols[c], &p.lo[c], &r->lo);
        put_key(&tb->cols[c], &p.hi[c], &r->hi);
    }
    /* Partitions outside the partition column's range are skipped (on top of a PARTITION
     * clause's restriction, plan__tscan_only_partitions). */
    if (t->part_skip == NULL) {
        t->part_skip = arena_calloc(cx->a, tb->nparts ? tb->nparts : 1, sizeof(bool));
    }
    int pc = tb->part_col;
    if (pc >= 0 && (p.has_lo[pc] || p.has_hi[pc])) {
        const plan_tcol *tc = &tb->cols[pc];
        for (uint32_t i = 0; i < tb->nparts; i++) {
            const plan_tpart *pp = &tb->parts[i];
            bool keep = true;
            if (tb->part_type == CAT_PART_RANGE) {
                /* [lower, upper) against [lo, hi] */
                if (p.has_hi[pc] && !pp->lower_min &&
                    plan__scell_cmp(tc, &p.hi[pc], &pp->lower) < 0) {
                    keep = false;
                }
                if (p.has_lo[pc] && !pp->upper_max &&
                    plan__scell_cmp(tc, &p.lo[pc], &pp->upper) >= 0) {
                    keep = false;
                }
            } else {
                keep = false;
                for (uint32_t k = 0; k < pp->nvalues && !keep; k++) {
                    const plan_scell *v = &pp->values[k];
                    keep = !v->null && (!p.has_lo[pc] || plan__scell_cmp(tc, v, &p.lo[pc]) >= 0) &&
                           (!p.has_hi[pc] || plan__scell_cmp(tc, v, &p.hi[pc]) <= 0);
                }
            }
            t->part_skip[i] = t->part_skip[i] || !keep;
        }
    }
    /* c IS NULL: a NULL lives in the LIST partition holding NULL, or the RANGE partition that
     * starts at MINVALUE (plan_dml.c route_part). */
    if (pc >= 0 && p.is_null[pc]) {
        for (uint32_t i = 0; i < tb->nparts; i++) {
            const plan_tpart *pp = &tb->parts[i];
            bool keep = tb->part_type == CAT_PART_RANGE ? pp->lower_min : pp->has_null;
            t->part_skip[i] = t->part_skip[i] || !keep;
        }
    }
    /* Equality on every HASH column names the one bucket that can hold the rows. */
    bool point = !tb->dist_random && tb->ndist > 0;
    for (uint32_t k = 0; point && k < tb->ndist; k++) {
        uint32_t c = tb->dist[k];
        point = p.has_lo[c] && p.has_hi[c] &&
                plan__scell_cmp(&tb->cols[c], &p.lo[c], &p.hi[c]) == 0;
    }
    if (point) {
        stor_vec *vecs = arena_calloc(cx->a, tb->ncols, sizeof *vecs);
        for (uint32_t k = 0; k < tb->ndist; k++) {
            uint32_t c = tb->dist[k];
            stor_vec *v = &vecs[c];
            v->kind = tb->cols[c].kind;
            v->n = 1;
            if (v->kind == STOR_VEC_I64) {
                v->i64 = arena_calloc(cx->a, 1, sizeof(int64_t));
                v->i64[0] = p.lo[c].i;
            } else if (v->kind == STOR_VEC_F64) {
                v->f64 = arena_calloc(cx->a, 1, sizeof(double));
                v->f64[0] = p.lo[c].d;
            } else {
                v->i128 = arena_calloc(cx->a, 1, sizeof(stor_i128));
                v->i128[0] = p.lo[c].x;
            }
        }
        t->point_vecs = vecs;
    }
    (void)plan__tscan_est(op);
}

double
plan__tscan_est(plan_op *op)
{
    if (op->open != tscan_open) {
        return 1000; /* a guess, as for a derived table */
    }
    op_tscan *t = (op_tscan *)op;
    const plan_tbl *tb = t->tbl;
    plan_ectx *cx = op->cx;
    stor_engine *e = cx->s->srv ? cx->s->srv->engine : NULL;
    double rows = 0;
    for (uint32_t p = 0; e != NULL && p < tb->nparts; p++) {
        if (t->part_skip && t->part_skip[p]) {
            continue;
        }
        uint32_t only = UINT32_MAX;
        if (t->point_vecs) {
            only = stor_bucket_of(&tb->sc, t->point_vecs, tb->dist, tb->ndist, 0,
                                  tb->parts[p].buckets);
        }
        for (uint32_t bkt = 0; bkt < tb->parts[p].buckets; bkt++) {
            if (only != UINT32_MAX && bkt != only) {
                continue;
            }
            stor_tablet *tab =
                    stor_engine_tablet(e, stor_tablet_id_of(tb->parts[p].id, bkt), false);
            if (tab == NULL) {
                continue;
            }
            stor_snapshot snap;
            stor_tablet_snapshot(tab, &snap);
            for (size_t r = 0; r < snap.nrowsets; r++) {
                rows += (double)snap.rowsets[r].rows;
            }
            stor_snapshot_destroy(&snap);
        }
    }
    plan__op_set_est(op, rows);
    return rows;
}

void
plan__tscan_need(plan_op *op, const bool *need)
{
    if (op->open == tscan_open) {
        ((op_tscan *)op)->need = need;
    }
}

void
plan__tscan_only_partitions(plan_op *op, const bool *ok)
{
    if (op->open != tscan_open) {
        return;
    }
    op_tscan *t = (op_tscan *)op;
    if (ok == NULL) {
        return;
    }
    if (t->part_skip == NULL) {
        t->part_skip = arena_calloc(op->cx->a, t->tbl->nparts ? t->tbl->nparts : 1, sizeof(bool));
    }
    for (uint32_t p = 0; p < t->tbl->nparts; p++) {
        t->part_skip[p] = t->part_skip[p] || !ok[p];
    }
}
