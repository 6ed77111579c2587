/* SPDX-License-Identifier: Apache-2.0
 * stor_compact: background compaction. stor_compact_tablet picks a contiguous run of one
 * tablet's rowsets from a snapshot, merges their live rows (delete bitmaps applied as of the
 * newest input's version; base compaction from the first rowset also drops MoW delete-sign rows)
 * in key order into one new rowset written with stor_segment_writer, keeping a mapping of input
 * rows to output rows, and hands the result to stor__compact_publish (stor_engine.c), which
 * translates later marks, appends STOR_REC_COMPACT and swaps the rowsets. No lock is held while
 * files are read or written. The background thread runs the picker every interval.
 * See README.md §"Compaction" and §Formats "Compaction record". */
#include "storage/stor_int.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <roaring/roaring.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/log.h"
#include "common/mem.h"

#define CUM_MIN_ROWSETS 5 /* background: cumulative when this many small rowsets */
#define CUM_MAX_ROWS                                                         \
    (1u << 18) /* a rowset with fewer rows is small: cumulative picks it;    \
                  a cumulative output reaching it is promoted (not re-merged \
                  by cumulative compaction, so rows are not rewritten again  \
                  and again while a table grows) */
#define BASE_MIN_ROWSETS                                         \
    10 /* background: base when the tablet has this many rowsets \
          and the newer rows reach BASE_RATIO of the oldest's */
#define BASE_RATIO       0.3
#define BASE_MAX_ROWSETS 40   /* ... or this many, whatever the sizes (bounds a scan's segments) */
#define CHUNK_ROWS       4096 /* rows gathered per output append */

/* One input rowset being merged: its current segment fully decoded. */
typedef struct input {
    const stor_rowset_meta *m;
    uint32_t seg;          /* current segment; == m->nsegments at the end */
    stor_vec *cols;        /* ncols vectors of the current segment (arena per input) */
    uint32_t nrows, row;   /* rows of the current segment, next row */
    buf keys;              /* encoded keys of the current segment */
    uint64_t *koffs;       /* nrows + 1 offsets into keys */
    roaring_bitmap_t *del; /* rows deleted as of the floor */
    int32_t sign_col;      /* delete-sign column in the segment, -1 = none / not dropped */
    arena *a;
} input;

/* A row waiting to be gathered into the output. */
typedef struct pending {
    uint32_t in, row;
} pending;

struct stor__compactor {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop; /* under mu */
    uint32_t interval_ms;
    stor_compact_allow_fn allow;
    void *ctx;
};

typedef struct merge {
    stor_engine *e;
    stor_tablet *t;
    input *ins;
    uint32_t nins;
    stor__compact_map *maps;
    uint32_t ncols;
    stor_column_desc *desc; /* reference columns (the newest input's first segment) */
    stor_schema sc;         /* fake schema over desc, for stor_key_encode_row */
    uint32_t *kidx;
    uint32_t nkeys;
    int32_t sign_uid;
    bool drop_signs;
    uint64_t floor; /* version of the newest input: rows deleted as of it are left out */
    /* output */
    uint64_t rowset_id;
    char **names;
    uint32_t nnames;
    stor_segment_writer *w;
    uint32_t seg_rows; /* rows in the current output segment */
    uint64_t out_rows;
    pending *pend;
    uint32_t npend;
    arena *ga; /* gather arena */
    stor_compact_stats *st;
    bool schema_differs;
} merge;

static int input_open_segment(merge *mg, input *in, db_error *err);
static int flush_pending(merge *mg, db_error *err);

/* ---- inputs ---- */

static bool
desc_equal(const stor_column_desc *a, const stor_column_desc *b)
{
    return a->uid == b->uid && a->type.id == b->type.id && a->type.precision == b->type.precision &&
           a->type.scale == b->type.scale && a->is_key == b->is_key && a->nullable == b->nullable;
}

/* Read the whole segment in->seg of in (all columns) and encode its keys. */
static int
input_open_segment(merge *mg, input *in, db_error *err)
{
    arena_reset(in->a);
    buf_clear(&in->keys);
    if (in->del != NULL) {
        roaring_bitmap_free(in->del);
        in->del = NULL;
    }
    in->nrows = in->row = 0;
    if (in->seg >= in->m->nsegments) {
        return DB_OK;
    }
    char *path = arena_sprintf(in->a, "%s/%s", stor_tablet_dir(mg->t), in->m->segments[in->seg]);
    stor_segment_reader *r = stor_segment_reader_open(path, err);
    if (r == NULL) {
        return DB_ERR;
    }
    stor_segment_reader_set_cache(r, stor_engine_cache(mg->e));
    int rc = DB_OK;
    uint32_t ncols = stor_segment_reader_ncols(r);
    if (mg->desc == NULL) {
        mg->ncols = ncols;
        mg->desc = mem_calloc(ncols, sizeof *mg->desc);
        for (uint32_t c = 0; c < ncols; c++) {
            mg->desc[c] = *stor_segment_reader_column(r, c);
        }
    } else if (ncols != mg->ncols) {
        mg->schema_differs = true;
    }
    for (uint32_t c = 0; c < ncols && !mg->schema_differs; c++) {
        if (!desc_equal(stor_segment_reader_column(r, c), &mg->desc[c])) {
            mg->schema_differs = true;
        }
    }
    uint64_t nrows = stor_segment_reader_rows(r);
    if (mg->schema_differs || nrows >= STOR_COMPACT_DROPPED) {
        mg->schema_differs = true;
        stor_segment_reader_close(r);
        return DB_OK;
    }
    in->cols = arena_calloc(in->a, ncols, sizeof *in->cols);
    for (uint32_t c = 0; c < ncols && rc == DB_OK; c++) {
        rc = stor_segment_read_rows(r, c, 0, nrows, in->a, &in->cols[c], err);
    }
    in->sign_col = mg->drop_signs ? stor_segment_reader_find_uid(r, (uint32_t)mg->sign_uid) : -1;
    stor_segment_reader_close(r);
    if (rc != DB_OK) {
        return DB_ERR;
    }
    in->nrows = (uint32_t)nrows;
    in->koffs = arena_alloc(in->a, ((size_t)nrows + 1) * sizeof *in->koffs);
    in->koffs[0] = 0;
    for (uint32_t row = 0; row < in->nrows; row++) {
        stor_key_encode_row(&mg->sc, in->cols, mg->kidx, mg->nkeys, row, &in->keys);
        in->koffs[row + 1] = in->keys.len;
    }
    in->del = stor_tablet_deleted(mg->t, in->m->rowset_id, in->seg, mg->floor);
    /* The map of this segment. */
    stor__compact_map *mp = &mg->maps[in - mg->ins];
    mp->nrows[in->seg] = in->nrows;
    mp->map[in->seg] = mem_alloc(((size_t)in->nrows + 1) * sizeof(uint32_t));
    return DB_OK;
}

/* Skip rows of in that are not part of the output (deleted as of the floor, or delete-sign
 * rows a base compaction drops), marking them dropped; open the next segment at the end of
 * one (after gathering what is pending from it). */
static int
input_settle(merge *mg, input *in, db_error *err)
{
    for (;;) {
        while (in->row < in->nrows) {
            bool drop = roaring_bitmap_contains(in->del, in->row);
            if (!drop && in->sign_col >= 0) {
                const stor_vec *v = &in->cols[in->sign_col];
                drop = !stor_vec_is_null(v, in->row) && v->kind == STOR_VEC_I64 &&
                       v->i64[in->row] == 1;
            }
            if (!drop) {
                return DB_OK;
            }
            mg->maps[in - mg->ins].map[in->seg][in->row] = STOR_COMPACT_DROPPED;
            mg->st->dropped_rows++;
            in->row++;
        }
        if (in->seg >= in->m->nsegments) {
            return DB_OK;
        }
        /* The pending rows may point into this segment's vectors: gather them first. */
        if (flush_pending(mg, err) != DB_OK) {
            return DB_ERR;
        }
        in->seg++;
        if (input_open_segment(mg, in, err) != DB_OK) {
            return DB_ERR;
        }
        if (mg->schema_differs) {
            return DB_OK;
        }
    }
}

/* ---- output ---- */

static void
gather(arena *a, stor_vec_kind kind, const pending *p, uint32_t n, const input *ins, uint32_t c,
       stor_vec *out)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->n = n;
    size_t bytes = 0;
    for (uint32_t i = 0; i < n; i++) {
        const stor_vec *v = &ins[p[i].in].cols[c];
        if (stor_vec_is_null(v, p[i].row)) {
            if (out->nulls == NULL) {
                out->nulls = arena_calloc(a, (n + 7) / 8, 1);
            }
            out->nulls[i >> 3] |= (uint8_t)(1u << (i & 7));
        }
        if (kind == STOR_VEC_BYTES) {
            bytes += v->offs[p[i].row + 1] - v->offs[p[i].row];
        }
    }
    switch (kind) {
    case STOR_VEC_I64:
        out->i64 = arena_alloc(a, (size_t)n * sizeof *out->i64);
        for (uint32_t i = 0; i < n; i++) {
            out->i64[i] = ins[p[i].in].cols[c].i64[p[i].row];
        }
        break;
    case STOR_VEC_F64:
        out->f64 = arena_alloc(a, (size_t)n * sizeof *out->f64);
        for (uint32_t i = 0; i < n; i++) {
            out->f64[i] = ins[p[i].in].cols[c].f64[p[i].row];
        }
        break;
    case STOR_VEC_I128:
        out->i128 = arena_alloc(a, (size_t)n * sizeof *out->i128);
        for (uint32_t i = 0; i < n; i++) {
            out->i128[i] = ins[p[i].in].cols[c].i128[p[i].row];
        }
        break;
    case STOR_VEC_BYTES:
        out->offs = arena_alloc(a, ((size_t)n + 1) * sizeof *out->offs);
        out->data = arena_alloc(a, bytes + 1);
        out->offs[0] = 0;
        for (uint32_t i = 0; i < n; i++) {
            const stor_vec *v = &ins[p[i].in].cols[c];
            uint64_t len = v->offs[p[i].row + 1] - v->offs[p[i].row];
            memcpy(out->data + out->offs[i], v->data + v->offs[p[i].row], len);
            out->offs[i + 1] = out->offs[i] + len;
        }
        break;
    }
}

static int
open_output_segment(merge *mg, db_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "%" PRIu64 "_%u.dat", mg->rowset_id, mg->nnames);
    mg->names = mem_realloc(mg->names, (mg->nnames + 1) * sizeof *mg->names);
    mg->names[mg->nnames++] = mem_strdup(name);
    char *path = arena_sprintf(mg->ga, "%s/%s", stor_tablet_dir(mg->t), name);
    mg->w = stor_segment_writer_open(path, mg->ncols, mg->desc, NULL, err);
    mg->seg_rows = 0;
    if (mg->w == NULL) {
        mem_free(mg->names[--mg->nnames]);
        return DB_ERR;
    }
    return DB_OK;
}

static int
close_output_segment(merge *mg, db_error *err)
{
    stor_segment_writer *w = mg->w;
    mg->w = NULL;
    return w == NULL ? DB_OK : stor_segment_writer_finish(w, NULL, err);
}

/* Append the pending rows to the output segment. */
static int
flush_pending(merge *mg, db_error *err)
{
    if (mg->npend == 0) {
        return DB_OK;
    }
    if (mg->w == NULL && open_output_segment(mg, err) != DB_OK) {
        return DB_ERR;
    }
    arena_reset(mg->ga);
    stor_vec *cols = arena_calloc(mg->ga, mg->ncols, sizeof *cols);
    for (uint32_t c = 0; c < mg->ncols; c++) {
        gather(mg->ga, stor_vec_kind_of(&mg->desc[c].type), mg->pend, mg->npend, mg->ins, c,
               &cols[c]);
    }
    int rc = stor_segment_writer_append(mg->w, cols, err);
    mg->seg_rows += mg->npend;
    mg->npend = 0;
    if (rc == DB_OK && mg->seg_rows == STOR_COMPACT_SEG_ROWS) {
        rc = close_output_segment(mg, err);
    }
    return rc;
}

/* Key of the current row of in. */
static int
key_cmp(const input *a, const input *b)
{
    const uint8_t *ka = a->keys.data + a->koffs[a->row];
    const uint8_t *kb = b->keys.data + b->koffs[b->row];
    size_t la = a->koffs[a->row + 1] - a->koffs[a->row];
    size_t lb = b->koffs[b->row + 1] - b->koffs[b->row];
    int c = memcmp(ka, kb, la < lb ? la : lb);
    return c != 0 ? c : (la > lb) - (la < lb);
}

/* The k-way merge: repeatedly take the smallest current key (the oldest input on ties, so DUP
 * rows stay stable by version). */
static int
merge_rows(merge *mg, db_error *err)
{
    for (uint32_t i = 0; i < mg->nins; i++) {
        if (input_open_segment(mg, &mg->ins[i], err) != DB_OK ||
            (!mg->schema_differs && input_settle(mg, &mg->ins[i], err) != DB_OK)) {
            return DB_ERR;
        }
    }
    while (!mg->schema_differs) {
        /* The smallest current key (best) and the next smallest of the other inputs (second):
         * best's rows are then taken as long as they stay below second, so inputs with disjoint
         * key ranges (a sequential load) cost one comparison per row, not one per input. */
        input *best = NULL, *second = NULL;
        for (uint32_t i = 0; i < mg->nins; i++) {
            input *in = &mg->ins[i];
            if (in->row >= in->nrows) {
                continue;
            }
            if (best == NULL || key_cmp(in, best) < 0) {
                second = best;
                best = in;
            } else if (second == NULL || key_cmp(in, second) < 0) {
                second = in;
            }
        }
        if (best == NULL) {
            break;
        }
        do {
            mg->maps[best - mg->ins].map[best->seg][best->row] = (uint32_t)mg->out_rows++;
            mg->pend[mg->npend++] = (pending){(uint32_t)(best - mg->ins), best->row};
            best->row++;
            if ((mg->npend == CHUNK_ROWS || mg->seg_rows + mg->npend == STOR_COMPACT_SEG_ROWS) &&
                flush_pending(mg, err) != DB_OK) {
                return DB_ERR;
            }
            if (mg->out_rows >= STOR_COMPACT_DROPPED - 1) {
                mg->schema_differs = true; /* too large for the mapping: give up (never) */
                break;
            }
            if (input_settle(mg, best, err) != DB_OK) {
                return DB_ERR;
            }
            /* ties go to the older input (lower index), as in the full scan above */
        } while (!mg->schema_differs && best->row < best->nrows &&
                 (second == NULL || key_cmp(best, second) < 0 ||
                  (key_cmp(best, second) == 0 && best < second)));
    }
    if (mg->schema_differs) {
        return DB_OK;
    }
    if (flush_pending(mg, err) != DB_OK) {
        return DB_ERR;
    }
    return close_output_segment(mg, err);
}

/* ---- one compaction ---- */

/* Pick [*from, *to) of snap's rowsets for kind. */
static void
pick_run(const stor_snapshot *snap, stor_compact_kind kind, uint64_t base_version, size_t *from,
         size_t *to)
{
    *to = snap->nrowsets;
    *from = 0;
    if (kind == STOR_COMPACT_CUMULATIVE) {
        size_t i = snap->nrowsets;
        while (i > 0 && snap->rowsets[i - 1].version > base_version &&
               snap->rowsets[i - 1].rows < CUM_MAX_ROWS) {
            i--;
        }
        *from = i;
    }
}

static void
merge_destroy(merge *mg, bool remove_output)
{
    if (mg->w != NULL) {
        stor_segment_writer_abort(mg->w);
        mg->w = NULL;
    }
    for (uint32_t i = 0; i < mg->nnames; i++) {
        if (remove_output) {
            char *path = arena_sprintf(mg->ga, "%s/%s", stor_tablet_dir(mg->t), mg->names[i]);
            unlink(path);
        }
        mem_free(mg->names[i]);
    }
    mem_free(mg->names);
    for (uint32_t i = 0; i < mg->nins; i++) {
        input *in = &mg->ins[i];
        if (in->del != NULL) {
            roaring_bitmap_free(in->del);
        }
        buf_destroy(&in->keys);
        arena_free(in->a);
        stor__compact_map *mp = &mg->maps[i];
        for (uint32_t s = 0; s < mp->nsegments; s++) {
            mem_free(mp->map[s]);
        }
        mem_free(mp->map);
        mem_free(mp->nrows);
    }
    mem_free(mg->ins);
    mem_free(mg->maps);
    mem_free(mg->desc);
    mem_free(mg->kidx);
    mem_free(mg->pend);
    arena_free(mg->ga);
}

static int
compact_locked(stor_engine *e, stor_tablet *t, stor_compact_kind kind, stor_compact_stats *st,
               db_error *err)
{
    uint64_t base_version = 0;
    uint32_t ncum = 0;
    int32_t sign_uid = -1;
    stor__tablet_compact_info(t, &base_version, &ncum, &sign_uid);
    stor_snapshot snap;
    stor_tablet_snapshot(t, &snap); /* registered: the files it names stay while we read */
    size_t from = 0, to = 0;
    pick_run(&snap, kind, base_version, &from, &to);
    if (to - from < 2) {
        stor_snapshot_destroy(&snap);
        return DB_OK;
    }
    merge mg = {.e = e, .t = t, .st = st, .sign_uid = sign_uid};
    mg.nins = (uint32_t)(to - from);
    mg.drop_signs = kind == STOR_COMPACT_BASE && from == 0 && sign_uid >= 0;
    mg.ins = mem_calloc(mg.nins, sizeof *mg.ins);
    mg.maps = mem_calloc(mg.nins, sizeof *mg.maps);
    mg.pend = mem_alloc(CHUNK_ROWS * sizeof *mg.pend);
    mg.ga = arena_new(1 << 20);
    mg.rowset_id = stor__engine_next_rowset_id(e);
    mg.floor = snap.rowsets[to - 1].version;
    int rc = DB_OK;
    /* The reference columns come from the newest input (its first segment). */
    const stor_rowset_meta *newest = &snap.rowsets[to - 1];
    for (size_t i = to; i-- > from && mg.desc == NULL;) {
        if (snap.rowsets[i].nsegments > 0) {
            newest = &snap.rowsets[i];
            break;
        }
    }
    for (uint32_t i = 0; i < mg.nins; i++) {
        input *in = &mg.ins[i];
        in->m = &snap.rowsets[from + i];
        in->a = arena_new(1 << 20);
        in->sign_col = -1;
        buf_init(&in->keys);
        st->input_rows += in->m->rows;
        stor__compact_map *mp = &mg.maps[i];
        mp->rowset_id = in->m->rowset_id;
        mp->nsegments = in->m->nsegments;
        mp->map = mem_calloc(mp->nsegments + 1, sizeof *mp->map);
        mp->nrows = mem_calloc(mp->nsegments + 1, sizeof *mp->nrows);
    }
    if (newest->nsegments > 0) {
        input probe = {.m = newest, .a = arena_new(4096), .sign_col = -1};
        buf_init(&probe.keys);
        char *path = arena_sprintf(probe.a, "%s/%s", stor_tablet_dir(t), newest->segments[0]);
        stor_segment_reader *r = stor_segment_reader_open(path, err);
        if (r == NULL) {
            rc = DB_ERR;
        } else {
            mg.ncols = stor_segment_reader_ncols(r);
            mg.desc = mem_calloc(mg.ncols, sizeof *mg.desc);
            for (uint32_t c = 0; c < mg.ncols; c++) {
                mg.desc[c] = *stor_segment_reader_column(r, c);
            }
            stor_segment_reader_close(r);
        }
        buf_destroy(&probe.keys);
        arena_free(probe.a);
    }
    if (rc == DB_OK && mg.desc != NULL) {
        mg.kidx = mem_calloc(mg.ncols + 1, sizeof *mg.kidx);
        for (uint32_t c = 0; c < mg.ncols; c++) {
            if (mg.desc[c].is_key) {
                mg.kidx[mg.nkeys++] = c;
            }
        }
        mg.sc = (stor_schema){.ncols = mg.ncols,
                              .cols = mg.desc,
                              .nkeys = mg.nkeys,
                              .seq_col = -1,
                              .delete_sign_col = -1};
        rc = stor_tablet_make_dir(t, err);
        if (rc == DB_OK) {
            rc = merge_rows(&mg, err);
        }
    }
    if (rc == DB_OK && mg.schema_differs) {
        st->skipped_schema_change = true;
        st->input_rows = st->dropped_rows = 0;
        merge_destroy(&mg, true);
        stor_snapshot_destroy(&snap);
        return DB_OK;
    }
    if (rc == DB_OK) {
        stor__compact_out o = {
                .tablet_id = stor_tablet_id(t),
                .inputs = mg.maps,
                .ninputs = mg.nins,
                .floor = snap.rowsets[to - 1].version,
                .commit_tso = snap.rowsets[to - 1].commit_tso,
                .rowset_id = mg.rowset_id,
                .rows = mg.out_rows,
                .segments = mg.names,
                .nsegments = mg.nnames,
                .is_base = kind == STOR_COMPACT_BASE,
        };
        stor_snapshot_destroy(&snap); /* our reads are done; we no longer hold back a purge */
        rc = stor__compact_publish(e, t, &o, &st->translated_marks, err);
        if (rc == DB_OK) {
            st->merged_rowsets = mg.nins;
            st->output_rows = mg.out_rows;
            st->output_rowset_id = mg.rowset_id;
            st->output_segments = mg.nnames;
        }
    } else {
        stor_snapshot_destroy(&snap);
    }
    merge_destroy(&mg, rc != DB_OK);
    return rc;
}

int
stor_compact_tablet(stor_engine *e, uint64_t tablet_id, stor_compact_kind kind,
                    stor_compact_stats *out, db_error *err)
{
    stor_compact_stats scratch;
    stor_compact_stats *st = out != NULL ? out : &scratch;
    memset(st, 0, sizeof *st);
    stor_tablet *t = stor_engine_tablet(e, tablet_id, false);
    if (t == NULL) {
        return DB_OK;
    }
    stor__engine_compact_lock(e);
    int rc = compact_locked(e, t, kind, st, err);
    stor__engine_compact_unlock(e);
    stor_engine_purge_retired(e);
    return rc;
}

/* ---- background thread ---- */

/* What the background picker would do with t now (0 = nothing). */
static stor_compact_kind
pick_kind(stor_tablet *t)
{
    uint64_t base_version = 0;
    uint32_t ncum = 0;
    int32_t sign_uid = -1;
    stor__tablet_compact_info(t, &base_version, &ncum, &sign_uid);
    stor_snapshot snap;
    stor_tablet_snapshot(t, &snap);
    size_t from = 0, to = 0;
    pick_run(&snap, STOR_COMPACT_CUMULATIVE, base_version, &from, &to);
    stor_compact_kind k = 0;
    uint64_t newer = 0;
    for (size_t i = 1; i < snap.nrowsets; i++) {
        newer += snap.rowsets[i].rows;
    }
    (void)ncum;
    if (snap.nrowsets >= BASE_MAX_ROWSETS ||
        (snap.nrowsets >= BASE_MIN_ROWSETS &&
         (double)newer >= BASE_RATIO * (double)(snap.nrowsets > 0 ? snap.rowsets[0].rows : 0))) {
        k = STOR_COMPACT_BASE;
    } else if (to - from >= CUM_MIN_ROWSETS) {
        k = STOR_COMPACT_CUMULATIVE;
    }
    stor_snapshot_destroy(&snap);
    return k;
}

static void
run_once(stor_engine *e, stor__compactor *bg)
{
    size_t n = 0;
    uint64_t *ids = stor__engine_tablet_ids(e, &n);
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&bg->mu);
        bool stop = bg->stop;
        pthread_mutex_unlock(&bg->mu);
        if (stop) {
            break;
        }
        stor_tablet *t = stor_engine_tablet(e, ids[i], false);
        if (t == NULL || (bg->allow != NULL && !bg->allow(bg->ctx, ids[i]))) {
            continue;
        }
        stor_compact_kind k = pick_kind(t);
        if (k == 0) {
            continue;
        }
        db_error err;
        db_error_clear(&err);
        stor_compact_stats st;
        if (stor_compact_tablet(e, ids[i], k, &st, &err) != DB_OK) {
            log_warn("compaction of tablet %" PRIu64 " failed: %s", ids[i], err.msg);
        }
    }
    mem_free(ids);
    stor_engine_purge_retired(e);
}

static void *
bg_main(void *arg)
{
    stor_engine *e = arg;
    stor__compactor *bg = *stor__engine_bg(e);
    for (;;) {
        pthread_mutex_lock(&bg->mu);
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t ns = (uint64_t)ts.tv_nsec + (uint64_t)bg->interval_ms * 1000000u;
        ts.tv_sec += (time_t)(ns / 1000000000u);
        ts.tv_nsec = (long)(ns % 1000000000u);
        while (!bg->stop) {
            if (pthread_cond_timedwait(&bg->cv, &bg->mu, &ts) == ETIMEDOUT) {
                break;
            }
        }
        bool stop = bg->stop;
        pthread_mutex_unlock(&bg->mu);
        if (stop) {
            return NULL;
        }
        run_once(e, bg);
    }
}

int
stor_engine_start_compaction(stor_engine *e, uint32_t interval_ms, stor_compact_allow_fn allow,
                             void *ctx, db_error *err)
{
    stor__compactor **slot = stor__engine_bg(e);
    if (*slot != NULL) {
        return db_error_set(err, ER_STOR_COMMIT_BAD, "compaction is already running");
    }
    stor__compactor *bg = mem_calloc(1, sizeof *bg);
    pthread_mutex_init(&bg->mu, NULL);
    pthread_cond_init(&bg->cv, NULL);
    bg->interval_ms = interval_ms == 0 ? 1 : interval_ms;
    bg->allow = allow;
    bg->ctx = ctx;
    *slot = bg;
    int prc = pthread_create(&bg->thread, NULL, bg_main, e);
    if (prc != 0) {
        *slot = NULL;
        pthread_cond_destroy(&bg->cv);
        pthread_mutex_destroy(&bg->mu);
        mem_free(bg);
        return db_error_set(err, ER_STOR_COMMIT_BAD, "cannot start the compaction thread");
    }
    return DB_OK;
}

void
stor_engine_stop_compaction(stor_engine *e)
{
    stor__compactor **slot = stor__engine_bg(e);
    stor__compactor *bg = *slot;
    if (bg == NULL) {
        return;
    }
    pthread_mutex_lock(&bg->mu);
    bg->stop = true;
    pthread_cond_signal(&bg->cv);
    pthread_mutex_unlock(&bg->mu);
    pthread_join(bg->thread, NULL);
    *slot = NULL;
    pthread_cond_destroy(&bg->cv);
    pthread_mutex_destroy(&bg->mu);
    mem_free(bg);
}
