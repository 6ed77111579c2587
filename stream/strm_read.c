/* SPDX-License-Identifier: Apache-2.0
 * The rules of a stream read (README.md §Reading): the effective offset of a partition, the
 * window of each partition for a statement (cut once at the engine's visible TSO), how each
 * partition is read (changes, or whole from its records or its data), TTL staleness (E32), the
 * read-once set of a statement (I3) and the offset advances it hands the writer (I2, E21/E22).
 * Plain functions over catalog, storage and binlog types: the planner builds its scans over the
 * windows and plans these functions return. */
#include "stream/strm_int.h"

#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "common/mem.h"

/* ---- creation ---- */

int
strm_check_base(const cat_table *base, uint8_t type, db_error *err)
{
    char msg[512];
    if (base->view_sql != NULL || base->stream != NULL) {
        snprintf(msg, sizeof msg,
                 "Base table type: %s, StreamScanType: %s is not supported for create table "
                 "stream",
                 base->view_sql ? "VIEW" : "STREAM", cat_stream_type_name(type));
        return db_error_set(err, ER_DORIS, msg);
    }
    if (!cat_binlog_is_row(&base->binlog)) {
        snprintf(msg, sizeof msg, "Base Olap table %s need to enable row binlog for table stream",
                 base->name);
        return db_error_set(err, ER_DORIS, msg);
    }
    if (type == CAT_STREAM_MIN_DELTA && base->mow && !base->binlog.need_historical_value) {
        return db_error_set(err, ER_DORIS,
                            "MIN_DELTA table stream requires base mow table to enable "
                            "binlog.need_historical_value=true");
    }
    return DB_OK;
}

/* ---- offsets ---- */

strm_prev_kind
strm_effective_offset(strm_state *S, int64_t stream_id, const cat_stream *def, int64_t part_id,
                      uint64_t *tso, int64_t *last_ms)
{
    *tso = 0;
    *last_ms = -1;
    if (strm_offset(S, stream_id, part_id, tso, last_ms)) {
        return STRM_PREV_ADVANCED;
    }
    strm_prev_kind k = STRM_PREV_NONE;
    for (size_t i = 0; i < def->ninit; i++) {
        if (def->init[i].part_id == part_id) {
            *tso = def->init[i].tso;
            k = STRM_PREV_INIT;
        }
    }
    return k;
}

uint64_t
strm_part_latest(stor_engine *e, int64_t part_id, uint32_t buckets, uint64_t cut)
{
    uint64_t best = 0;
    for (uint32_t b = 0; e != NULL && b < buckets; b++) {
        stor_tablet *t = stor_engine_tablet(e, stor_tablet_id_of(part_id, b), false);
        if (t == NULL) {
            continue;
        }
        stor_snapshot snap;
        stor_tablet_snapshot(t, &snap);
        for (size_t v = snap.nvtso; v-- > 0;) {
            if (snap.vtso[v] <= cut) {
                best = snap.vtso[v] > best ? snap.vtso[v] : best;
                break;
            }
        }
        for (size_t r = 0; snap.nvtso == 0 && r < snap.nrowsets; r++) {
            uint64_t ts = snap.rowsets[r].commit_tso;
            best = ts <= cut && ts > best ? ts : best;
        }
        stor_snapshot_destroy(&snap);
    }
    return best;
}

size_t
strm_creation_offsets(strm_state *S, const strm_part *parts, size_t n, cat_stream_offset *out)
{
    stor_engine *e = strm__engine(S);
    uint64_t vis = stor_engine_visible_tso(e);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t ts = strm_part_latest(e, parts[i].id, parts[i].buckets, vis);
        if (ts != 0) {
            out[k++] = (cat_stream_offset){parts[i].id, ts};
        }
    }
    return k;
}

uint8_t
strm_fold_mode(uint8_t stream_type, bool mow)
{
    if (!mow) {
        return BL_MODE_APPEND_ONLY; /* Duplicate Key: inserts only */
    }
    return stream_type == CAT_STREAM_APPEND_ONLY ? BL_MODE_APPEND_ONLY
           : stream_type == CAT_STREAM_DETAIL    ? BL_MODE_DETAIL
                                                 : BL_MODE_MIN_DELTA;
}

/* The first commit TSO of partition part_id after tso (0 = none): whether changes after an
 * offset exist, and whether the oldest of them is past the TTL. */
static uint64_t
part_first_after(stor_engine *e, int64_t part_id, uint32_t buckets, uint64_t tso)
{
    uint64_t best = 0;
    for (uint32_t b = 0; b < buckets; b++) {
        stor_tablet *t = stor_engine_tablet(e, stor_tablet_id_of(part_id, b), false);
        if (t == NULL) {
            continue;
        }
        stor_snapshot snap;
        stor_tablet_snapshot(t, &snap);
        for (size_t v = 0; v < snap.nvtso; v++) {
            if (snap.vtso[v] > tso) {
                best = best == 0 || snap.vtso[v] < best ? snap.vtso[v] : best;
                break;
            }
        }
        stor_snapshot_destroy(&snap);
    }
    return best;
}

bool
strm_offset_expired(strm_state *S, int64_t part_id, uint32_t buckets, uint64_t tso,
                    uint64_t horizon)
{
    if (tso >= horizon) {
        return false;
    }
    uint64_t first = part_first_after(strm__engine(S), part_id, buckets, tso);
    return first != 0 && first <= horizon;
}

bool
strm_ttl_stale(strm_state *S, const cat_table *stream, const cat_table *base, uint64_t now_ms)
{
    const cat_stream *def = stream->stream;
    if (def->type != CAT_STREAM_MIN_DELTA || !base->mow || base->binlog.ttl_seconds <= 0) {
        return false;
    }
    uint64_t horizon = bl_ttl_horizon(now_ms, base->binlog.ttl_seconds);
    for (size_t p = 0; p < base->nparts; p++) {
        uint64_t tso;
        int64_t last;
        if (strm_effective_offset(S, stream->id, def, base->parts[p].id, &tso, &last) !=
                    STRM_PREV_NONE &&
            strm_offset_expired(S, base->parts[p].id, (uint32_t)base->parts[p].buckets, tso,
                                horizon)) {
            return true; /* changes after the offset are already gone */
        }
    }
    return false;
}

/* ---- windows ---- */

void
strm_read_init(strm_read *r, arena *a, strm_state *S, int64_t stream_id, const cat_stream *def,
               const char *db, const char *name, uint8_t kind, const strm_part *parts, uint32_t n)
{
    memset(r, 0, sizeof *r);
    r->stream_id = stream_id;
    r->db = arena_strdup(a, db);
    r->name = arena_strdup(a, name);
    r->kind = kind;
    r->initial = def->show_initial_rows;
    r->nparts = n;
    r->w = arena_calloc(a, (size_t)n + 1, sizeof *r->w);
    stor_engine *e = strm__engine(S);
    r->visible = stor_engine_visible_tso(e);
    for (uint32_t p = 0; p < n; p++) {
        strm_window *w = &r->w[p];
        int64_t last_ms;
        w->part_id = parts[p].id;
        w->buckets = parts[p].buckets;
        w->next_tso = strm_part_latest(e, parts[p].id, parts[p].buckets, r->visible);
        w->prev_kind = (uint8_t)strm_effective_offset(S, stream_id, def, parts[p].id, &w->prev_tso,
                                                      &last_ms);
    }
}

void
strm_read_use(strm_read *r, const bool *on)
{
    for (uint32_t p = 0; p < r->nparts; p++) {
        r->w[p].on = r->w[p].on || on == NULL || on[p];
    }
}

/* Whether every tablet of partition part_id has the change record of every write it holds as
 * of tso (bl_log_complete): then the partition read whole is read from its binlog, each row
 * with the TSO and LSN of its own write (binlog() shows the same records), whatever compaction
 * merged; else from its data. */
static bool
part_complete(stor_engine *e, bl_log *bl, int64_t part_id, uint32_t buckets, uint64_t tso)
{
    bool ok = bl != NULL;
    for (uint32_t b = 0; ok && b < buckets; b++) {
        stor_tablet *t = stor_engine_tablet(e, stor_tablet_id_of(part_id, b), false);
        if (t == NULL) {
            continue; /* never written */
        }
        stor_snapshot snap;
        stor_tablet_snapshot(t, &snap);
        ok = bl_log_complete(bl, &snap, tso);
        stor_snapshot_destroy(&snap);
    }
    return ok;
}

/* Whether every data rowset of partition part_id is the rowset its commit wrote, with its
 * records still held (bl_log_rowset_lsns): then a data scan stamps every row exactly, without
 * holding the partition's records in memory as a MIN_DELTA read does. */
static bool
part_own_rowsets(stor_engine *e, bl_log *bl, int64_t part_id, uint32_t buckets)
{
    bool ok = bl != NULL;
    arena *a = arena_new(0);
    for (uint32_t b = 0; ok && b < buckets; b++) {
        stor_tablet *t = stor_engine_tablet(e, stor_tablet_id_of(part_id, b), false);
        if (t == NULL) {
            continue;
        }
        stor_snapshot snap;
        stor_tablet_snapshot(t, &snap);
        for (size_t r = 0; ok && r < snap.nrowsets; r++) {
            uint64_t *seg;
            ok = bl_log_rowset_lsns(bl, &snap, r, a, &seg);
        }
        stor_snapshot_destroy(&snap);
    }
    arena_free(a);
    return ok;
}

int
strm_read_plan(strm_state *S, bl_log *bl, const strm_read *r, const bool *on, bool mow,
               uint8_t stream_type, const cat_binlog_cfg *cfg, uint64_t now_ms, strm_part_plan *out,
               db_error *err)
{
    stor_engine *e = strm__engine(S);
    uint8_t mode = strm_fold_mode(stream_type, mow);
    uint64_t horizon = bl_ttl_horizon(now_ms, cfg->ttl_seconds);
    for (uint32_t p = 0; p < r->nparts; p++) {
        const strm_window *w = &r->w[p];
        strm_part_plan *pp = &out[p];
        memset(pp, 0, sizeof *pp);
        if ((on != NULL && !on[p]) || w->next_tso == 0) {
            continue; /* not asked for, or never written: nothing to read */
        }
        pp->hi = w->next_tso;
        if (w->prev_kind == STRM_PREV_NONE) {
            /* Read whole: from its records when they are every write up to next (a MoW key's
             * last write is its current row: MIN_DELTA from the beginning, every key absent at
             * the start; a DUP table's records are its rows), unless a MoW partition's rowsets
             * are all their commits' own (its data is exact too, and streams); else its data. */
            if (!(mow && part_own_rowsets(e, bl, w->part_id, w->buckets)) &&
                part_complete(e, bl, w->part_id, w->buckets, w->next_tso)) {
                pp->src = STRM_SRC_WHOLE_RECORDS;
                pp->mode = mow ? BL_MODE_MIN_DELTA : BL_MODE_APPEND_ONLY;
                pp->lo = 0;
            } else {
                pp->src = STRM_SRC_WHOLE_DATA;
            }
            continue;
        }
        uint64_t from = w->prev_tso + 1;
        if (from <= horizon) {
            if (mode == BL_MODE_MIN_DELTA &&
                strm_offset_expired(S, w->part_id, w->buckets, w->prev_tso, horizon)) { /* R4 */
                return db_error_set(err, ER_DORIS,
                                    "Row binlog offset has expired according to "
                                    "binlog.ttl_seconds");
            }
            from = horizon + 1; /* detail / append_only skip what expired */
        }
        pp->src = STRM_SRC_CHANGES;
        pp->mode = mode;
        pp->lo = from;
    }
    return DB_OK;
}

uint64_t
strm_window_pending(bl_log *bl, const strm_window *w)
{
    uint64_t from = w->prev_kind != STRM_PREV_NONE ? w->prev_tso + 1 : 0, pending = 0;
    for (uint32_t b = 0; w->next_tso != 0 && b < w->buckets; b++) {
        pending += bl_log_count(bl, stor_tablet_id_of(w->part_id, b), from, w->next_tso);
    }
    return pending;
}

/* ---- the read-once set of a statement ---- */

struct strm_reads {
    arena *a;
    strm_read **v; /* pointers: a strm_read stays where it is as the set grows */
    uint32_t n, cap;
};

strm_reads *
strm_reads_new(arena *a)
{
    strm_reads *rs = arena_calloc(a, 1, sizeof *rs);
    rs->a = a;
    return rs;
}

strm_read *
strm_reads_find(strm_reads *rs, int64_t stream_id, uint8_t kind)
{
    for (uint32_t i = 0; i < rs->n; i++) {
        if (rs->v[i]->stream_id == stream_id && rs->v[i]->kind == kind) {
            return rs->v[i];
        }
    }
    return NULL;
}

strm_read *
strm_reads_add(strm_reads *rs, strm_state *S, int64_t stream_id, const cat_stream *def,
               const char *db, const char *name, uint8_t kind, const strm_part *parts, uint32_t n)
{
    strm_read *r = strm_reads_find(rs, stream_id, kind);
    if (r != NULL) {
        return r; /* another reference of this statement already chose the windows */
    }
    if (rs->n == rs->cap) {
        uint32_t cap = rs->cap ? rs->cap * 2 : 4;
        strm_read **v = arena_calloc(rs->a, cap, sizeof *v);
        if (rs->n) {
            memcpy(v, rs->v, rs->n * sizeof *v);
        }
        rs->v = v;
        rs->cap = cap;
    }
    r = arena_alloc(rs->a, sizeof *r);
    strm_read_init(r, rs->a, S, stream_id, def, db, name, kind, parts, n);
    rs->v[rs->n++] = r;
    return r;
}

void
strm_reads_advance(const strm_reads *rs, stor_writer *w, int64_t now_ms)
{
    for (uint32_t i = 0; rs != NULL && i < rs->n; i++) {
        const strm_read *r = rs->v[i];
        if (r->kind == STRM_READ_SNAPSHOT) {
            continue; /* @snapshot() never advances */
        }
        strm_advance *adv = mem_alloc(((size_t)r->nparts + 1) * sizeof *adv);
        size_t na = 0;
        for (uint32_t p = 0; p < r->nparts; p++) {
            const strm_window *win = &r->w[p];
            if (!win->on || win->next_tso == 0) {
                continue; /* a partition never written keeps no offset */
            }
            /* E22 only for the initial rows of a show_initial_rows stream: a partition it has
             * not consumed yet that the base table already had at CREATE STREAM (ids only
             * grow, so its id is below the stream's). Every other lost race is E21. */
            uint8_t pk = win->prev_kind;
            if (pk == STRM_PREV_NONE && r->initial && win->part_id < r->stream_id) {
                pk = STRM_PREV_INITIAL_ROWS;
            }
            adv[na++] =
                    (strm_advance){r->stream_id, win->part_id, pk, win->prev_tso, win->next_tso};
        }
        buf sec;
        buf_init(&sec);
        strm_encode_advance(&sec, r->db, r->name, now_ms, adv, na);
        stor_writer_add_extra(w, STRM_EXTRA_ADVANCE, sec.data, sec.len);
        buf_destroy(&sec);
        mem_free(adv);
    }
}
