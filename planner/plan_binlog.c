/* SPDX-License-Identifier: Apache-2.0
 * Reading Row Binlog from SQL: the binlog("table" = ...) table function (raw records) and
 * t@incr(...) incremental queries (folded by APPEND_ONLY / DETAIL / MIN_DELTA over a commit-time
 * window), with every validation of DORIS_SEMANTICS.md §1.7, §1.8, §2.6, §2.10 (E27-E33).
 * The operator reads the binlog rowsets of each tablet whose TSO lies in the window
 * (binlog/bl_fold.c) and converts change rows into batches. README.md §"Row Binlog reads". */
#include "planner/plan_dml_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "binlog/binlog.h"
#include "catalog/catalog.h"
#include "common/buf.h"
#include "planner/parse.h"

#define OP_COL  "__DORIS_BINLOG_OP__"
#define TSO_COL "__DORIS_BINLOG_TSO__"
#define LSN_COL "__DORIS_BINLOG_LSN__"

/* ---- parsing (called by the grammar) ---- */

/* Room for one more pending parameter. */
static void
tvf_grow(plan_parse *pp)
{
    if (pp->ntvf == pp->cap_tvf) {
        uint32_t cap = pp->cap_tvf ? pp->cap_tvf * 2 : 8;
        const char **keys = arena_alloc(pp->a, cap * sizeof *keys);
        const char **vals = arena_alloc(pp->a, cap * sizeof *vals);
        if (pp->ntvf) {
            memcpy(keys, pp->tvf_keys, pp->ntvf * sizeof *keys);
            memcpy(vals, pp->tvf_vals, pp->ntvf * sizeof *vals);
        }
        pp->tvf_keys = keys;
        pp->tvf_vals = vals;
        pp->cap_tvf = cap;
    }
}

void
plan_stmt_tvf_arg(plan_parse *pp, const plan_token *k, const plan_token *v)
{
    tvf_grow(pp);
    size_t n;
    pp->tvf_keys[pp->ntvf] = plan__string_decode(pp->a, k, pp->no_backslash_escapes, &n);
    pp->tvf_vals[pp->ntvf] = plan__string_decode(pp->a, v, pp->no_backslash_escapes, &n);
    pp->ntvf++;
}

void
plan_stmt_tvf_bare(plan_parse *pp, const plan_token *v)
{
    tvf_grow(pp);
    size_t n;
    pp->tvf_keys[pp->ntvf] = v->type == TK_STRING
                                     ? plan__string_decode(pp->a, v, pp->no_backslash_escapes, &n)
                             : v->type == TK_ID ? plan__ident_decode(pp->a, v)
                                                : arena_strndup(pp->a, v->z, v->n);
    pp->tvf_vals[pp->ntvf] = "";
    pp->ntvf++;
}

/* Move the pending parameters to the table reference just added. */
static void
take_params(plan_parse *pp, plan_table_ref *t)
{
    t->pkeys = pp->tvf_keys;
    t->pvals = pp->tvf_vals;
    t->nparams = pp->ntvf;
    pp->tvf_keys = pp->tvf_vals = NULL;
    pp->ntvf = pp->cap_tvf = 0;
}

void
plan_stmt_tvf(plan_parse *pp, const plan_token *fn, const plan_token *alias)
{
    plan_stmt_table(pp, NULL, fn, alias);
    plan_table_ref *t = &pp->stmt->tables[pp->stmt->ntables - 1];
    t->tvf = t->name;
    take_params(pp, t);
}

void
plan_stmt_scan_params(plan_parse *pp, const plan_token *at_fn)
{
    plan_table_ref *t = &pp->stmt->tables[pp->stmt->ntables - 1];
    /* the lexer reads "@incr" as one USERVAR token: skip the '@' */
    t->scan_fn = arena_strndup(pp->a, at_fn->z + 1, at_fn->n > 0 ? at_fn->n - 1 : 0);
    take_params(pp, t);
}

void
plan_stmt_sel_part(plan_parse *pp, const plan_token *p)
{
    if (pp->nsel_parts == pp->cap_sel_parts) {
        uint32_t cap = pp->cap_sel_parts ? pp->cap_sel_parts * 2 : 8;
        const char **v = arena_alloc(pp->a, cap * sizeof *v);
        if (pp->nsel_parts) {
            memcpy(v, pp->sel_parts, pp->nsel_parts * sizeof *v);
        }
        pp->sel_parts = v;
        pp->cap_sel_parts = cap;
    }
    pp->sel_parts[pp->nsel_parts++] = plan__ident_decode(pp->a, p);
}

void
plan_stmt_table_parts(plan_parse *pp)
{
    plan_table_ref *t = &pp->stmt->tables[pp->stmt->ntables - 1];
    t->parts = pp->sel_parts;
    t->nparts = pp->nsel_parts;
    t->temp_parts = pp->sel_temp;
    pp->sel_parts = NULL;
    pp->nsel_parts = pp->cap_sel_parts = 0;
    pp->sel_temp = false;
}

void
plan_stmt_temp_parts(plan_parse *pp)
{
    if (pp->nsel_parts > 0) {
        pp->sel_temp = true; /* taken by plan_stmt_table_parts */
    } else {
        pp->stmt->dml_temp_parts = true;
    }
}

/* ---- the operator ---- */

/* A data rowset of a partition read from its data whose rows' records are still held: row i
 * of its segment s has LSN seg[s] + i (bl_log_rowset_lsns). */
typedef struct hist_lsn {
    uint64_t tablet, rowset;
    uint32_t nseg;
    const uint64_t *seg;
} hist_lsn;

typedef struct op_binlog {
    plan_op base;
    const plan_tbl *tbl;
    bl_mode mode;
    bool history;
    uint64_t lo, hi; /* TSO window, inclusive; hi is cut at the visible TSO at open */
    bool cut_visible;
    const uint64_t *tlo, *thi; /* per tablet windows (streams), or NULL: lo / hi */
    const uint8_t *tmode;      /* per tablet mode (streams: partitions read whole), or NULL */
    bool stream_out;           /* stream layout: base, sequence, change type (text), LSN */
    plan_op *hist;             /* streams: whole-partition rows (table scan with locations) */
    bool hist_done;
    const int64_t *hist_parts; /* partitions read whole and their sequence value */
    const uint64_t *hist_seq;
    uint32_t nhist;
    hist_lsn *hl; /* sorted by (tablet, rowset); built at the first open */
    size_t nhl, hl_last;
    bool hl_built;
    uint64_t *tablets;
    uint32_t ntablets, cur;
    uint32_t nbase; /* visible base columns (the first nbase of tbl) */
    uint32_t nbefore;
    uint32_t *before_of; /* per before column: its table column */
    plan_value *defaults;
    bl_fold *fold;
    arena *fa; /* the current change batch */
    bl_changes ch;
    uint32_t pos;
    bool have;
    plan_batch *out;
    uint64_t records, rows_out_total;
} op_binlog;

static void
set_null(plan_vec *pv, uint32_t r)
{
    pv->nulls[r >> 3] |= (uint8_t)(1u << (r & 7));
}

/* Rows [from, from + n) of storage vector sv (column tc) into pv rows [0, n). */
static void
conv_col(const plan_tcol *tc, const stor_vec *sv, uint32_t from, uint32_t n, plan_vec *pv)
{
    for (uint32_t r = 0; r < n; r++) {
        uint32_t s = from + r;
        if (stor_vec_is_null(sv, s)) {
            set_null(pv, r);
            continue;
        }
        switch (tc->vk) {
        case PV_DATE:
            pv->i[r] = sv->i64[s] * INT64_C(86400000000);
            break;
        case PV_DOUBLE:
            pv->d[r] = tc->type.id == CAT_T_FLOAT ? (double)(float)sv->f64[s] : sv->f64[s];
            break;
        case PV_DECIMAL:
            pv->dec[r] = sv->i128[s];
            break;
        case PV_STRING:
            pv->s[r].s = (const char *)sv->data + sv->offs[s];
            pv->s[r].len = (size_t)(sv->offs[s + 1] - sv->offs[s]);
            break;
        default: /* integers, DATETIME microseconds */
            pv->i[r] = sv->i64[s];
            break;
        }
    }
}

static bool
bit(const uint8_t *bm, uint32_t r)
{
    return bm != NULL && (bm[r >> 3] >> (r & 7)) & 1;
}

static int
hl_cmp(const void *a, const void *b)
{
    const hist_lsn *x = a, *y = b;
    if (x->tablet != y->tablet) {
        return x->tablet < y->tablet ? -1 : 1;
    }
    return (x->rowset > y->rowset) - (x->rowset < y->rowset);
}

/* The LSNs of the rows of the partitions read from their data, where their records are still
 * held (rowsets no compaction merged; stream/README.md "Reading"). */
static void
hl_build(op_binlog *b)
{
    plan_ectx *cx = b->base.cx;
    stor_engine *e = cx->s->srv->engine;
    bl_log *L = cx->s->srv->binlog;
    b->hl_built = true;
    size_t cap = 0;
    for (uint32_t i = 0; e != NULL && L != NULL && i < b->nhist; i++) {
        const plan_tpart *part = NULL;
        for (uint32_t p = 0; p < b->tbl->nparts; p++) {
            if (b->tbl->parts[p].id == b->hist_parts[i]) {
                part = &b->tbl->parts[p];
            }
        }
        for (uint32_t k = 0; part != NULL && k < part->buckets; k++) {
            stor_tablet *t = stor_engine_tablet(e, stor_tablet_id_of(part->id, k), false);
            if (t == NULL) {
                continue;
            }
            stor_snapshot snap;
            stor_tablet_snapshot(t, &snap);
            for (size_t r = 0; r < snap.nrowsets; r++) {
                uint64_t *seg;
                if (!bl_log_rowset_lsns(L, &snap, r, cx->a, &seg)) {
                    continue;
                }
                if (b->nhl == cap) {
                    cap = cap ? cap * 2 : 16;
                    hist_lsn *v = arena_alloc(cx->a, cap * sizeof *v);
                    if (b->nhl) {
                        memcpy(v, b->hl, b->nhl * sizeof *v);
                    }
                    b->hl = v;
                }
                b->hl[b->nhl++] = (hist_lsn){snap.tablet_id, snap.rowsets[r].rowset_id,
                                             snap.rowsets[r].nsegments, seg};
            }
            stor_snapshot_destroy(&snap);
        }
    }
    if (b->nhl > 1) {
        qsort(b->hl, b->nhl, sizeof *b->hl, hl_cmp);
    }
}

/* LSN of the row at (tablet, rowset, segment, row) of a partition read from its data; 0 when
 * its record is gone or compaction merged its rowset. */
static int64_t
hl_lsn(op_binlog *b, uint64_t tablet, uint64_t rowset, uint32_t seg, uint32_t row)
{
    const hist_lsn *h = b->hl_last < b->nhl ? &b->hl[b->hl_last] : NULL;
    if (h == NULL || h->tablet != tablet || h->rowset != rowset) {
        size_t lo = 0, hi = b->nhl;
        hist_lsn key = {tablet, rowset, 0, NULL};
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (hl_cmp(&b->hl[mid], &key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo >= b->nhl || hl_cmp(&b->hl[lo], &key) != 0) {
            return 0;
        }
        b->hl_last = lo;
        h = &b->hl[lo];
    }
    return seg < h->nseg ? (int64_t)(h->seg[seg] + row) : 0;
}

static int
binlog_open(plan_op *op, db_error *err)
{
    op_binlog *b = (op_binlog *)op;
    op->opened = true;
    op->ba = arena_new(0);
    b->fa = arena_new(0);
    b->cur = 0;
    b->have = false;
    b->records = 0;
    stor_engine *e = op->cx->s->srv->engine;
    if (b->cut_visible && e != NULL) {
        uint64_t vis = stor_engine_visible_tso(e);
        if (b->hi > vis) {
            b->hi = vis; /* commits published after the statement started are not read */
        }
    }
    b->out = plan__batch_new(op->cx->a, op->types, op->ncols, op->cap);
    b->hist_done = false;
    if (b->hist != NULL && !b->hl_built) {
        hl_build(b);
    }
    if (b->hist != NULL && b->hist->open(b->hist, err) != DB_OK) {
        return DB_ERR;
    }
    return DB_OK;
}

/* Fill b->out with rows [pos, pos + n) of the current change batch. */
static int
emit(op_binlog *b, uint32_t n, db_error *err)
{
    plan_batch *o = b->out;
    const plan_tbl *tb = b->tbl;
    const bl_changes *ch = &b->ch;
    plan__batch_clear(o);
    for (uint32_t c = 0; c < b->nbase; c++) {
        conv_col(&tb->cols[c], &ch->cols[c], b->pos, n, &o->cols[c]);
        for (uint32_t r = 0; ch->dflt[c] != NULL && r < n; r++) {
            if (bit(ch->dflt[c], b->pos + r) &&
                plan__batch_set(b->base.cx, o, c, r, &b->defaults[c], err) != DB_OK) {
                return DB_ERR;
            }
        }
    }
    uint32_t k = b->nbase;
    for (uint32_t r = 0; r < n && b->stream_out; r++) {
        int64_t t = ch->type[b->pos + r];
        o->cols[k].i[r] = ch->tso[b->pos + r];
        o->cols[k + 1].s[r].s = plan__change_type_name(t);
        o->cols[k + 1].s[r].len = strlen(o->cols[k + 1].s[r].s);
        o->cols[k + 2].i[r] = ch->lsn[b->pos + r];
    }
    for (uint32_t r = 0; r < n && !b->stream_out; r++) {
        o->cols[k].i[r] = ch->type[b->pos + r];
        o->cols[k + 1].i[r] = ch->tso[b->pos + r];
        o->cols[k + 2].i[r] = ch->lsn[b->pos + r];
    }
    k += 3;
    for (uint32_t i = 0; i < b->nbefore; i++, k++) {
        uint32_t c = b->before_of[i];
        if (ch->before == NULL) {
            for (uint32_t r = 0; r < n; r++) {
                set_null(&o->cols[k], r);
            }
            continue;
        }
        conv_col(&tb->cols[c], &ch->before[c], b->pos, n, &o->cols[k]);
        for (uint32_t r = 0; ch->before_dflt[c] != NULL && r < n; r++) {
            if (bit(ch->before_dflt[c], b->pos + r) &&
                plan__batch_set(b->base.cx, o, k, r, &b->defaults[c], err) != DB_OK) {
                return DB_ERR;
            }
        }
    }
    o->nrows = n;
    b->pos += n;
    return DB_OK;
}

const char *
plan__change_type_name(int64_t type)
{
    switch (type) {
    case BL_CH_DELETE:
        return "DELETE";
    case BL_CH_UPDATE_BEFORE:
        return "UPDATE_BEFORE";
    case BL_CH_UPDATE_AFTER:
        return "UPDATE_AFTER";
    default:
        return "APPEND";
    }
}

/* A batch of the whole-partition scan as APPEND rows: its active rows' base columns, the
 * commit TSO of the row's rowset as the sequence (the partition's sequence value when the
 * table has no commit TSO column) and the LSN of its record (hl_lsn). plan_stream.c reads a
 * partition so when every rowset is its commit's own (exact) or when its records are
 * incomplete: where a row's record is gone or compaction merged its rowset, its LSN is 0 and
 * its sequence the merged rowset's. */
static plan_batch *
hist_rows(op_binlog *b, const plan_batch *hb)
{
    plan_batch *o = b->out;
    const plan_tbl *tb = b->tbl;
    plan__batch_clear(o);
    uint32_t n = plan__batch_active(hb);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = plan__batch_row(hb, k);
        for (uint32_t c = 0; c < b->nbase; c++) {
            const plan_vec *src = &hb->cols[c];
            plan_vec *dst = &o->cols[c];
            if (plan__vec_is_null(src, r)) {
                set_null(dst, k);
                continue;
            }
            switch (dst->t.kind) {
            case PV_DOUBLE:
                dst->d[k] = src->d[r];
                break;
            case PV_DECIMAL:
                dst->dec[k] = src->dec[r];
                break;
            case PV_STRING:
                dst->s[k] = src->s[r];
                break;
            default:
                dst->i[k] = src->i[r];
                break;
            }
        }
        int64_t part = stor_tablet_partition_of((uint64_t)hb->cols[tb->ncols].i[r]); /* tablet id */
        uint64_t seq = 0;
        if (tb->commit_tso_col >= 0 && !plan__vec_is_null(&hb->cols[tb->commit_tso_col], r)) {
            seq = (uint64_t)hb->cols[tb->commit_tso_col].i[r];
        }
        for (uint32_t i = 0; seq == 0 && i < b->nhist; i++) {
            if (b->hist_parts[i] == part) {
                seq = b->hist_seq[i];
            }
        }
        o->cols[b->nbase].i[k] = (int64_t)seq;
        o->cols[b->nbase + 1].s[k].s = "APPEND";
        o->cols[b->nbase + 1].s[k].len = 6;
        o->cols[b->nbase + 2].i[k] = hl_lsn(
                b, (uint64_t)hb->cols[tb->ncols].i[r], (uint64_t)hb->cols[tb->ncols + 1].i[r],
                (uint32_t)hb->cols[tb->ncols + 2].i[r], (uint32_t)hb->cols[tb->ncols + 3].i[r]);
    }
    o->nrows = n;
    return o;
}

static int
binlog_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_binlog *b = (op_binlog *)op;
    *out = NULL;
    arena_reset(op->ba);
    for (;;) {
        if (plan__check_interrupt(op->cx->s, err) != DB_OK) {
            return DB_ERR;
        }
        if (b->have && b->pos < b->ch.n) {
            uint32_t n = b->ch.n - b->pos < op->cap ? b->ch.n - b->pos : op->cap;
            if (emit(b, n, err) != DB_OK) {
                return DB_ERR;
            }
            *out = b->out;
            return DB_OK;
        }
        b->have = false;
        if (b->hist != NULL && !b->hist_done) {
            plan_batch *hb = NULL;
            if (b->hist->next(b->hist, &hb, err) != DB_OK) {
                return DB_ERR;
            }
            if (hb == NULL) {
                b->hist_done = true;
                continue;
            }
            *out = hist_rows(b, hb);
            return DB_OK;
        }
        if (b->fold == NULL) {
            if (b->cur >= b->ntablets) {
                return DB_OK;
            }
            uint64_t lo = b->tlo ? b->tlo[b->cur] : b->lo, hi = b->thi ? b->thi[b->cur] : b->hi;
            bl_mode mode = b->tmode ? (bl_mode)b->tmode[b->cur] : b->mode;
            b->fold = bl_fold_open(op->cx->s->srv->binlog, &b->tbl->sc, b->tablets[b->cur], lo, hi,
                                   mode, b->history, err);
            if (b->fold == NULL) {
                return DB_ERR;
            }
        }
        arena_reset(b->fa);
        bool eof = false;
        if (bl_fold_next(b->fold, b->fa, op->cap, &b->ch, &eof, err) != DB_OK) {
            return DB_ERR;
        }
        if (eof) {
            b->records += bl_fold_records(b->fold);
            bl_fold_close(b->fold);
            b->fold = NULL;
            b->cur++;
            continue;
        }
        b->pos = 0;
        b->have = b->ch.n > 0;
    }
}

static void
binlog_close(plan_op *op)
{
    op_binlog *b = (op_binlog *)op;
    if (b->fold != NULL) {
        b->records += bl_fold_records(b->fold);
        bl_fold_close(b->fold);
        b->fold = NULL;
    }
    if (b->hist != NULL) {
        b->hist->close(b->hist);
    }
    arena_free(b->fa);
    b->fa = NULL;
    arena_free(op->ba);
    op->ba = NULL;
    op->opened = false;
}

/* exec_mem_limit: a MIN_DELTA fold holds its tablet's window. */
static size_t
binlog_mem_used(const plan_op *op)
{
    const op_binlog *b = (const op_binlog *)op;
    return bl_fold_mem(b->fold) + (b->fa ? arena_used(b->fa) : 0);
}

static const char *const mode_names[] = {"RAW", "APPEND_ONLY", "DETAIL", "MIN_DELTA"};

static void
binlog_describe(plan_op *op, plan_explain *ex)
{
    op_binlog *b = (op_binlog *)op;
    bool whole = b->nhist > 0;
    for (uint32_t i = 0; b->tlo != NULL && i < b->ntablets; i++) {
        whole |= b->tlo[i] == 0; /* a partition read whole from its records */
    }
    plan__explain_printf(ex, "%s(%s.%s, %s, tablets %u%s)",
                         b->stream_out ? "STREAM SCAN" : "BINLOG SCAN", b->tbl->db, b->tbl->name,
                         mode_names[b->mode], b->ntablets, whole ? ", partitions read whole" : "");
    plan__explain_stat(ex, "records read", b->records);
}

/* The common part of a change-reading operator: table, columns, defaults, callbacks. */
static void
op_init(op_binlog *b, plan_ectx *cx, const plan_tbl *tb, uint32_t nbase, uint32_t ncols,
        const plan_vkind *vk, const plan_xtype *xt)
{
    b->tbl = tb;
    b->nbase = nbase;
    b->defaults = plan__tbl_defaults(cx, tb);
    plan_op *op = &b->base;
    op->open = binlog_open;
    op->next = binlog_next;
    op->close = binlog_close;
    op->describe = binlog_describe;
    op->mem_used = binlog_mem_used;
    op->cx = cx;
    op->cap = plan__batch_cap(cx->s);
    op->ncols = ncols;
    op->types = arena_calloc(cx->a, ncols, sizeof *op->types);
    for (uint32_t c = 0; c < ncols; c++) {
        op->types[c].kind = vk[c];
        op->types[c].is_unsigned = xt[c].is_unsigned;
        op->types[c].scale = vk[c] == PV_DOUBLE ? 0 : xt[c].scale;
    }
}

plan_op *
plan__op_stream_read(plan_ectx *cx, const plan_tbl *tb, uint8_t mode, bool history,
                     const uint64_t *tablets, const uint64_t *lo, const uint64_t *hi,
                     const uint8_t *tmode, uint32_t n, plan_op *hist, const int64_t *hist_parts,
                     const uint64_t *hist_seq, uint32_t nhist, const plan_vkind *vk,
                     const plan_xtype *xt)
{
    op_binlog *b = arena_calloc(cx->a, 1, sizeof *b);
    b->mode = mode;
    b->history = history;
    b->stream_out = true;
    b->tablets = arena_alloc(cx->a, ((size_t)n + 1) * sizeof *b->tablets);
    if (n) {
        memcpy(b->tablets, tablets, n * sizeof *tablets);
    }
    b->ntablets = n;
    b->tlo = lo;
    b->thi = hi;
    b->tmode = tmode;
    b->hist = hist;
    b->hist_parts = hist_parts;
    b->hist_seq = hist_seq;
    b->nhist = nhist;
    op_init(b, cx, tb, tb->nvis, tb->nvis + 3, vk, xt);
    b->base.child = hist; /* EXPLAIN and the memory limit walk it */
    return &b->base;
}

/* ---- resolving the FROM item ---- */

/* Value of parameter key (case-insensitive), or NULL. */
static const char *
param(const plan_table_ref *ref, const char *key)
{
    for (uint32_t i = 0; i < ref->nparams; i++) {
        if (strcasecmp(ref->pkeys[i], key) == 0) {
            return ref->pvals[i];
        }
    }
    return NULL;
}

/* Whether comma-separated list contains item (case-sensitive names, trimmed). */
static bool
list_has(const char *list, const char *item)
{
    size_t n = strlen(item);
    const char *p = list;
    while (*p) {
        while (*p == ' ') {
            p++;
        }
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        size_t tl = len;
        while (tl > 0 && p[tl - 1] == ' ') {
            tl--;
        }
        if (tl == n && strncmp(p, item, n) == 0) {
            return true;
        }
        if (!end) {
            break;
        }
        p = end + 1;
    }
    return false;
}

/* Session-zone 'yyyy-MM-dd HH:mm:ss' (or "0") as Unix milliseconds. */
static int
incr_time(plan_ectx *cx, const char *text, uint64_t *ms, db_error *err)
{
    if (strcmp(text, "0") == 0) {
        *ms = 0;
        return DB_OK;
    }
    int64_t us;
    bool has_time;
    if (!plan__parse_datetime(text, strlen(text), &us, &has_time)) {
        return db_error_set(
                err, ER_DORIS,
                arena_sprintf(cx->a, "Invalid TIMESTAMP format in incr clause: %s", text));
    }
    int64_t utc_us = us - (cx->now_us - cx->now_utc_us); /* session zone -> UTC */
    *ms = utc_us > 0 ? (uint64_t)utc_us / 1000 : 0;
    return DB_OK;
}

/* TSO at or below which a table's records are expired at statement start. */
uint64_t
plan__ttl_horizon(plan_ectx *cx, int64_t ttl_seconds)
{
    return bl_ttl_horizon(cx->now_utc_us > 0 ? (uint64_t)cx->now_utc_us / 1000 : 0, ttl_seconds);
}

/* Binlog settings of table db.name (catalog read lock held briefly). */
static bool
table_binlog(plan_ectx *cx, const char *db, const char *name, cat_binlog_cfg *cfg)
{
    const cat_catalog *c = cat_meta_read_begin(cx->s->srv->meta);
    const cat_db *d = cat_db_find(c, db);
    const cat_table *t = d != NULL ? cat_table_find(d, name) : NULL;
    bool found = t != NULL;
    if (found) {
        *cfg = t->binlog;
    }
    cat_meta_read_end(cx->s->srv->meta);
    return found;
}

int
plan__binlog_resolve(plan_ectx *cx, const plan_table_ref *ref, plan_binlog_src *out, plan_op **opp,
                     db_error *err)
{
    memset(out, 0, sizeof *out);
    *opp = NULL;
    bool is_tvf = ref->tvf != NULL;
    const char *db = NULL, *name = NULL, *parts = NULL, *tabs = NULL;
    bl_mode mode = BL_MODE_MIN_DELTA;
    const char *start = NULL, *end = NULL;
    if (is_tvf) {
        if (strcasecmp(ref->tvf, "binlog") != 0) {
            return db_error_set(err, ER_DORIS,
                                arena_sprintf(cx->a, "Unknown table function: %s", ref->tvf));
        }
        for (uint32_t i = 0; i < ref->nparams; i++) {
            const char *k = ref->pkeys[i];
            if (strcasecmp(k, "table") != 0 && strcasecmp(k, "db") != 0 &&
                strcasecmp(k, "partition") != 0 && strcasecmp(k, "tablet") != 0) {
                return db_error_set(err, ER_DORIS,
                                    arena_sprintf(cx->a, "Unsupported parameter in binlog: %s", k));
            }
        }
        name = param(ref, "table");
        if (name == NULL || name[0] == '\0') {
            return db_error_set(err, ER_DORIS, "binlog() requires the \"table\" parameter");
        }
        db = param(ref, "db");
        parts = param(ref, "partition");
        tabs = param(ref, "tablet");
        mode = BL_MODE_RAW;
    } else {
        if (strcasecmp(ref->scan_fn, "incr") != 0) {
            /* @snapshot() / @reset() belong to streams */
            return db_error_set(err, ER_DORIS, "Invalid param type for olap table");
        }
        for (uint32_t i = 0; i < ref->nparams; i++) {
            const char *k = ref->pkeys[i];
            if (strcmp(k, "startTimestamp") == 0) {
                start = ref->pvals[i];
            } else if (strcmp(k, "endTimestamp") == 0) {
                end = ref->pvals[i];
            } else if (strcmp(k, "incrementType") == 0) {
                int m = bl_mode_from_name(ref->pvals[i]);
                if (m < 0) {
                    return db_error_set(err, ER_DORIS, "Unsupported parameter in incr query");
                }
                mode = (bl_mode)m;
            } else {
                return db_error_set(err, ER_DORIS, "Unsupported parameter in incr query");
            }
        }
        db = ref->db;
        name = ref->name;
    }
    if (db == NULL) {
        db = cx->s->db;
    }
    if (db == NULL) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    if (plan__check_priv(cx, CAT_PRIV_SELECT, db, name, err) != DB_OK) {
        return DB_ERR;
    }
    plan_tbl *tb = arena_calloc(cx->a, 1, sizeof *tb);
    if (plan__tbl_open(cx, db, name, tb, err) != DB_OK) {
        if (err->code == db_error_code_of(ER_BAD_DB_ERROR)) {
            db_error_clear(err);
            return db_error_set(err, ER_NO_SUCH_TABLE, db, name);
        }
        return DB_ERR;
    }
    cat_binlog_cfg cfg;
    if (!table_binlog(cx, tb->db, tb->name, &cfg) || !cat_binlog_is_row(&cfg)) {
        if (is_tvf) {
            return db_error_set(
                    err, ER_DORIS,
                    arena_sprintf(cx->a, "binlog<row> is not enabled for table=%s", tb->name));
        }
        return db_error_set(err, ER_DORIS, "INCR query requires ROW binlog enabled on base table.");
    }
    bool history = cfg.need_historical_value && tb->sc.mow;
    uint64_t lo = 0, hi = UINT64_MAX;
    if (!is_tvf) {
        uint64_t start_ms = 0, end_ms = 0;
        if (start && incr_time(cx, start, &start_ms, err) != DB_OK) {
            return DB_ERR;
        }
        if (end && incr_time(cx, end, &end_ms, err) != DB_OK) {
            return DB_ERR;
        }
        if (!tb->sc.mow) {
            mode = BL_MODE_APPEND_ONLY; /* a DUP table only has inserts */
        } else if (mode == BL_MODE_MIN_DELTA && !history) {
            return db_error_set(err, ER_DORIS,
                                "MIN_DELTA INCR query requires base table to enable "
                                "binlog.need_historical_value=true");
        }
        uint64_t horizon = plan__ttl_horizon(cx, cfg.ttl_seconds);
        if (start) {
            lo = cat_tso_make(start_ms, 0);
            if (lo <= horizon && mode == BL_MODE_MIN_DELTA) {
                return db_error_set(err, ER_DORIS,
                                    "Row binlog offset has expired according to "
                                    "binlog.ttl_seconds");
            }
        }
        if (lo <= horizon) {
            lo = horizon + 1; /* only retained changes */
        }
        if (end) {
            hi = end_ms > 0 ? cat_tso_make(end_ms, 0) - 1 : 0; /* [start, end) */
            if (end_ms == 0) {
                lo = 1; /* empty window */
            }
        }
    }

    /* Columns: the visible base columns, the three binlog columns, before images. */
    uint32_t nbase = tb->nvis, nbefore = 0;
    uint32_t *before_of = arena_alloc(cx->a, (nbase + 1) * sizeof *before_of);
    for (uint32_t c = 0; is_tvf && history && c < nbase; c++) {
        if (!tb->cols[c].is_key) {
            before_of[nbefore++] = c;
        }
    }
    uint32_t ncols = nbase + 3 + nbefore;
    out->tbl = tb;
    out->ncols = ncols;
    out->nstar = is_tvf ? ncols : nbase; /* @incr: the binlog columns only when named */
    out->names = arena_calloc(cx->a, ncols, sizeof *out->names);
    out->xt = arena_calloc(cx->a, ncols, sizeof *out->xt);
    out->vk = arena_calloc(cx->a, ncols, sizeof *out->vk);
    out->tcol = arena_calloc(cx->a, ncols, sizeof *out->tcol);
    for (uint32_t c = 0; c < nbase; c++) {
        out->names[c] = tb->cols[c].name;
        out->xt[c] = tb->cols[c].xt;
        out->xt[c].nullable = true;
        out->vk[c] = tb->cols[c].vk;
        out->tcol[c] = (int32_t)c;
    }
    const char *fixed[3] = {OP_COL, TSO_COL, LSN_COL};
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t k = nbase + i;
        out->names[k] = fixed[i];
        memset(&out->xt[k], 0, sizeof out->xt[k]);
        out->xt[k].type = i == 0 ? PLAN_TYPE_TINYINT : PLAN_TYPE_BIGINT;
        out->xt[k].length = i == 0 ? 4 : 20;
        out->vk[k] = PV_INT;
        out->tcol[k] = -1;
    }
    for (uint32_t i = 0; i < nbefore; i++) {
        uint32_t k = nbase + 3 + i, c = before_of[i];
        out->names[k] = arena_sprintf(cx->a, "__BEFORE__%s__", tb->cols[c].name);
        out->xt[k] = tb->cols[c].xt;
        out->xt[k].nullable = true;
        out->vk[k] = tb->cols[c].vk;
        out->tcol[k] = -1;
    }
    if (cx->describe) {
        return DB_OK;
    }

    /* Tablets: every bucket of the named (or all) partitions, narrowed by "tablet". */
    uint32_t total = 0;
    for (uint32_t p = 0; p < tb->nparts; p++) {
        total += tb->parts[p].buckets;
    }
    op_binlog *b = arena_calloc(cx->a, 1, sizeof *b);
    b->tablets = arena_alloc(cx->a, ((size_t)total + 1) * sizeof *b->tablets);
    bool *on = NULL; /* t@incr(...) PARTITION (p, ...) */
    if (plan__part_flags(cx, tb, ref->parts, ref->nparts, &on, err) != DB_OK) {
        return DB_ERR;
    }
    for (uint32_t p = 0; p < tb->nparts; p++) {
        if ((parts && !list_has(parts, tb->parts[p].name)) || (on && !on[p])) {
            continue;
        }
        for (uint32_t k = 0; k < tb->parts[p].buckets; k++) {
            uint64_t id = stor_tablet_id_of(tb->parts[p].id, k);
            char idtext[32];
            snprintf(idtext, sizeof idtext, "%" PRIu64, id);
            if (tabs && !list_has(tabs, idtext)) {
                continue;
            }
            b->tablets[b->ntablets++] = id;
        }
    }
    if (parts) { /* every named partition must exist */
        for (const char *p = parts; *p;) {
            while (*p == ' ' || *p == ',') {
                p++;
            }
            size_t len = strcspn(p, ",");
            size_t tl = len;
            while (tl > 0 && p[tl - 1] == ' ') {
                tl--;
            }
            bool found = tl == 0;
            for (uint32_t q = 0; q < tb->nparts && !found; q++) {
                found = strlen(tb->parts[q].name) == tl && strncmp(tb->parts[q].name, p, tl) == 0;
            }
            if (!found) {
                return db_error_set(err, ER_DORIS,
                                    arena_sprintf(cx->a, "Unknown partition '%.*s' in table '%s'",
                                                  (int)tl, p, tb->name));
            }
            p += len;
        }
    }
    b->mode = mode;
    b->history = history;
    b->lo = lo;
    b->hi = hi;
    b->cut_visible = true;
    b->nbefore = nbefore;
    b->before_of = before_of;
    op_init(b, cx, tb, nbase, ncols, out->vk, out->xt);
    *opp = &b->base;
    out->est = 0;
    for (uint32_t i = 0; i < b->ntablets; i++) {
        out->est += (double)bl_log_count(cx->s->srv->binlog, b->tablets[i], lo, hi);
    }
    return DB_OK;
}

int
plan__binlog_check_as_of(plan_ectx *cx, const plan_tbl *tb, uint64_t tso, db_error *err)
{
    cat_binlog_cfg cfg;
    if (!tb->sc.mow || !table_binlog(cx, tb->db, tb->name, &cfg) || !cat_binlog_is_row(&cfg)) {
        return DB_OK;
    }
    /* A MoW snapshot older than the retention window: Doris rebuilds it from before images,
     * which have expired (seed 001 "Effect on reads"). */
    if (tso <= plan__ttl_horizon(cx, cfg.ttl_seconds)) {
        return db_error_set(err, ER_DORIS,
                            "Row binlog offset has expired according to binlog.ttl_seconds");
    }
    return DB_OK;
}

/* ======================================================================================
 * Time travel below the compaction floor: the image at T rebuilt from before images
 * (binlog/bl_undo.c); the planner checks the table and builds the operator over the reader.
 * ====================================================================================== */

/* Whether FOR VERSION / TIME AS OF tso on tb needs the rebuild: tb is MoW with Row Binlog and
 * before images, and some tablet no longer keeps the version of tso (compacted away). */
bool
plan__binlog_needs_undo(plan_ectx *cx, const plan_tbl *tb, uint64_t tso)
{
    cat_binlog_cfg cfg;
    stor_engine *e = cx->s->srv->engine;
    if (e == NULL || !tb->sc.mow || !table_binlog(cx, tb->db, tb->name, &cfg) ||
        !cat_binlog_is_row(&cfg) || !cfg.need_historical_value) {
        return false;
    }
    for (uint32_t p = 0; p < tb->nparts; p++) {
        for (uint32_t b = 0; b < tb->parts[p].buckets; b++) {
            if (bl_undo_needed(e, stor_tablet_id_of(tb->parts[p].id, b), tso)) {
                return true;
            }
        }
    }
    return false;
}

/* Per tablet, the image batches bl_undo yields, converted to tscan's column layout. */
typedef struct op_undo {
    plan_op base;
    const plan_tbl *tbl;
    uint64_t tso;
    uint64_t *tablets;
    uint32_t ntablets, cur;
    bl_undo *rd; /* the reader of tablets[cur], NULL between tablets */
    plan_value *defaults;
    plan_batch *out;
} op_undo;

static int
undo_open(plan_op *op, db_error *err)
{
    op_undo *u = (op_undo *)op;
    (void)err;
    op->opened = true;
    op->ba = arena_new(0);
    u->cur = 0;
    u->rd = NULL;
    u->out = plan__batch_new(op->cx->a, op->types, op->ncols, op->cap);
    return DB_OK;
}

/* One image batch into u->out. */
static void
undo_emit(op_undo *u, const bl_image *img, db_error *err)
{
    const plan_tbl *tb = u->tbl;
    plan_batch *o = u->out;
    plan__batch_clear(o);
    for (uint32_t c = 0; c < tb->ncols; c++) {
        conv_col(&tb->cols[c], &img->cols[c], 0, img->n, &o->cols[c]);
        for (uint32_t i = 0; img->dflt[c] != NULL && i < img->n; i++) {
            if ((img->dflt[c][i >> 3] >> (i & 7)) & 1) {
                (void)plan__batch_set(u->base.cx, o, c, i, &u->defaults[c], err);
            }
        }
    }
    o->nrows = img->n;
}

static int
undo_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_undo *u = (op_undo *)op;
    plan_ectx *cx = op->cx;
    *out = NULL;
    arena_reset(op->ba);
    while (*out == NULL) {
        if (plan__check_interrupt(cx->s, err) != DB_OK) {
            return DB_ERR;
        }
        if (u->rd == NULL) {
            if (u->cur >= u->ntablets) {
                break;
            }
            u->rd = bl_undo_open(cx->s->srv->binlog, cx->s->srv->engine, &u->tbl->sc,
                                 u->tablets[u->cur], u->tso, err);
            if (u->rd == NULL) {
                return DB_ERR;
            }
        }
        bl_image img;
        bool eof = false;
        if (bl_undo_next(u->rd, op->ba, op->cap, &img, &eof, err) != DB_OK) {
            return DB_ERR;
        }
        if (eof) {
            bl_undo_close(u->rd);
            u->rd = NULL;
            u->cur++;
            continue;
        }
        undo_emit(u, &img, err);
        *out = u->out;
    }
    return DB_OK;
}

static void
undo_close(plan_op *op)
{
    op_undo *u = (op_undo *)op;
    bl_undo_close(u->rd);
    u->rd = NULL;
    arena_free(op->ba);
    op->ba = NULL;
    op->opened = false;
}

void
plan__time_travel_partitions(plan_op *op, const bool *ok)
{
    if (op->open != undo_open || ok == NULL) {
        return;
    }
    op_undo *u = (op_undo *)op;
    uint32_t k = 0;
    for (uint32_t i = 0; i < u->ntablets; i++) {
        int64_t part = stor_tablet_partition_of(u->tablets[i]);
        for (uint32_t p = 0; p < u->tbl->nparts; p++) {
            if (u->tbl->parts[p].id == part && ok[p]) {
                u->tablets[k++] = u->tablets[i];
            }
        }
    }
    u->ntablets = k;
}

static size_t
undo_mem_used(const plan_op *op)
{
    return bl_undo_mem(((const op_undo *)op)->rd);
}

static void
undo_describe(plan_op *op, plan_explain *ex)
{
    op_undo *u = (op_undo *)op;
    plan__explain_printf(ex, "TIME TRAVEL FROM BINLOG(%s.%s, as of %" PRIu64 ", tablets %u)",
                         u->tbl->db, u->tbl->name, u->tso, u->ntablets);
}

plan_op *
plan__op_time_travel(plan_ectx *cx, const plan_tbl *tb, uint64_t tso)
{
    op_undo *u = arena_calloc(cx->a, 1, sizeof *u);
    u->tbl = tb;
    u->tso = tso;
    uint32_t total = 0;
    for (uint32_t p = 0; p < tb->nparts; p++) {
        total += tb->parts[p].buckets;
    }
    u->tablets = arena_alloc(cx->a, ((size_t)total + 1) * sizeof *u->tablets);
    for (uint32_t p = 0; p < tb->nparts; p++) {
        for (uint32_t b = 0; b < tb->parts[p].buckets; b++) {
            u->tablets[u->ntablets++] = stor_tablet_id_of(tb->parts[p].id, b);
        }
    }
    u->defaults = plan__tbl_defaults(cx, tb);
    plan_op *op = &u->base;
    op->open = undo_open;
    op->next = undo_next;
    op->close = undo_close;
    op->describe = undo_describe;
    op->mem_used = undo_mem_used;
    op->cx = cx;
    op->cap = plan__batch_cap(cx->s);
    op->ncols = tb->ncols;
    op->types = arena_calloc(cx->a, tb->ncols ? tb->ncols : 1, sizeof *op->types);
    for (uint32_t c = 0; c < tb->ncols; c++) {
        op->types[c].kind = tb->cols[c].vk;
        op->types[c].scale = tb->cols[c].vk == PV_DOUBLE ? 0 : tb->cols[c].xt.scale;
    }
    return op;
}
