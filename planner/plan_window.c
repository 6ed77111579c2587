/* SPDX-License-Identifier: Apache-2.0
 * plan_window.c: the window operator. Materializes its input (statement arena), sorts it per
 * window function by (PARTITION BY, ORDER BY) and computes ROW_NUMBER, RANK, DENSE_RANK, LAG,
 * LEAD and COUNT / SUM / AVG / MIN / MAX over frames, appending one column per function. See
 * README.md §Executor (window). */
#include "planner/plan_exec_int.h"

#include <string.h>

typedef struct op_window {
    plan_op base;
    const plan_window_fn *fns;
    uint32_t nfns;
    uint32_t nin;     /* child columns */
    plan_value *rows; /* nrows * nin input values, strings copied */
    plan_value *res;  /* nfns * nrows results */
    uint32_t *order;  /* emission order */
    size_t nrows, cap_rows, pos;
    bool done;
    plan_batch *out;
} op_window;

/* Per-function sort state: evaluated keys of every row. */
typedef struct win_sort {
    plan_ectx *cx;
    const plan_window_fn *f;
    plan_value *keys; /* nrows * (npart + norder) */
    plan_cmp_mode *modes;
    uint32_t nk;
} win_sort;

static int
val_cmp(plan_ectx *cx, plan_cmp_mode mode, const plan_value *x, const plan_value *y)
{
    if (x->kind == PV_NULL || y->kind == PV_NULL) {
        return (x->kind != PV_NULL) - (y->kind != PV_NULL);
    }
    return plan__compare(cx, mode, x, y);
}

/* Compare rows a and b on keys [from, to) (ORDER BY keys honour DESC). */
static int
keys_cmp(const win_sort *ws, uint32_t a, uint32_t b, uint32_t from, uint32_t to)
{
    for (uint32_t k = from; k < to; k++) {
        int c = val_cmp(ws->cx, ws->modes[k], &ws->keys[(size_t)a * ws->nk + k],
                        &ws->keys[(size_t)b * ws->nk + k]);
        if (c != 0) {
            return k >= ws->f->npart && ws->f->desc[k - ws->f->npart] ? -c : c;
        }
    }
    return 0;
}

/* Order of rows a and b by (partition, order) keys, for plan__msort_rows. */
static int
win_row_cmp(const void *ctx, uint32_t a, uint32_t b)
{
    const win_sort *ws = ctx;
    return keys_cmp(ws, a, b, 0, ws->nk);
}

/* Running aggregate over a frame. */
typedef struct win_acc {
    uint64_t rows, cnt;
    __int128 dsum;
    double fsum;
    plan_value best;
    bool has_best;
} win_acc;

static void
acc_add(op_window *w, const plan_window_fn *f, win_acc *acc, const plan_value *v)
{
    acc->rows++;
    if (!f->arg || v->kind == PV_NULL) {
        return;
    }
    acc->cnt++;
    switch (f->agg) {
    case PLAN_AGG_SUM:
    case PLAN_AGG_AVG:
        if (v->kind == PV_INT) {
            acc->dsum += v->is_unsigned ? (__int128)v->u : (__int128)v->i;
        } else if (v->kind == PV_DECIMAL) {
            __int128 d = v->dec;
            for (uint8_t s = v->scale; s < f->arg->t.scale; s++) {
                d *= 10;
            }
            acc->dsum += d;
        } else if (v->kind == PV_DOUBLE) {
            acc->fsum += v->d;
        }
        break;
    case PLAN_AGG_MIN:
    case PLAN_AGG_MAX: {
        plan_cmp_mode m = plan__cmp_mode(f->arg, f->arg);
        int c = acc->has_best ? plan__compare(w->base.cx, m, v, &acc->best) : 0;
        if (!acc->has_best || (f->agg == PLAN_AGG_MIN ? c < 0 : c > 0)) {
            acc->best = *v;
            acc->has_best = true;
        }
        break;
    }
    default:
        break;
    }
}

static int
acc_result(plan_ectx *cx, const plan_window_fn *f, const win_acc *acc, plan_value *out,
           db_error *err)
{
    memset(out, 0, sizeof *out);
    out->kind = PV_NULL;
    switch (f->agg) {
    case PLAN_AGG_COUNT_STAR:
    case PLAN_AGG_COUNT:
        out->kind = PV_INT;
        out->i = (int64_t)(f->agg == PLAN_AGG_COUNT ? acc->cnt : acc->rows);
        return DB_OK;
    case PLAN_AGG_MIN:
    case PLAN_AGG_MAX:
        if (acc->has_best) {
            *out = acc->best;
        }
        return DB_OK;
    default:
        break;
    }
    if (acc->cnt == 0) {
        return DB_OK;
    }
    if (f->vk == PV_DOUBLE) {
        double s = acc->fsum;
        if (f->arg->vk != PV_DOUBLE) { /* exact argument summed as DECIMAL: not reached */
            s = (double)acc->dsum;
        }
        out->kind = PV_DOUBLE;
        out->d = f->agg == PLAN_AGG_AVG ? s / (double)acc->cnt : s;
        return DB_OK;
    }
    __int128 d = acc->dsum;
    uint8_t as = f->arg->vk == PV_DECIMAL ? f->arg->t.scale : 0;
    if (f->agg == PLAN_AGG_AVG) { /* rounded half away from zero to the result scale */
        for (uint8_t s = as; s < f->t.scale; s++) {
            d *= 10;
        }
        __int128 n = (__int128)acc->cnt, q = d / n, r = d % n;
        if ((r < 0 ? -r : r) * 2 >= n) {
            q += d < 0 ? -1 : 1;
        }
        d = q;
        as = f->t.scale;
    }
    out->kind = PV_DECIMAL;
    out->dec = d;
    out->scale = as;
    (void)cx;
    (void)err;
    return DB_OK;
}

/* The frame [*fs, *fe) of sorted position i in partition [ps, pe); peers [qs, qe). */
static void
frame_of(const plan_window_fn *f, size_t i, size_t ps, size_t pe, size_t qs, size_t qe, size_t *fs,
         size_t *fe)
{
    plan_window_frame fr = f->frame;
    if (fr.unit == 0) {
        *fs = ps;
        *fe = f->norder ? qe : pe;
        return;
    }
    bool rows = fr.unit == 1;
    size_t s, e;
    switch (fr.start.kind) {
    case PLAN_FB_UNBOUNDED_PRECEDING:
        s = ps;
        break;
    case PLAN_FB_PRECEDING:
        s = i - ps > fr.start.n ? i - fr.start.n : ps;
        break;
    case PLAN_FB_FOLLOWING:
        s = pe - i > fr.start.n ? i + fr.start.n : pe;
        break;
    case PLAN_FB_UNBOUNDED_FOLLOWING:
        s = pe;
        break;
    default:
        s = rows ? i : qs;
        break;
    }
    switch (fr.end.kind) {
    case PLAN_FB_UNBOUNDED_PRECEDING:
        e = ps;
        break;
    case PLAN_FB_PRECEDING:
        e = i - ps >= fr.end.n ? i - fr.end.n + 1 : ps;
        break;
    case PLAN_FB_FOLLOWING:
        e = pe - i > fr.end.n ? i + fr.end.n + 1 : pe;
        break;
    case PLAN_FB_UNBOUNDED_FOLLOWING:
        e = pe;
        break;
    default:
        e = rows ? i + 1 : qe;
        break;
    }
    *fs = s;
    *fe = e > s ? e : s;
}

/* Compute function fi into w->res; *sorted gets its row order. */
static int
win_compute(op_window *w, uint32_t fi, uint32_t **sortedp, db_error *err)
{
    plan_ectx *cx = w->base.cx;
    const plan_window_fn *f = &w->fns[fi];
    size_t n = w->nrows;
    win_sort ws = {cx, f, NULL, NULL, f->npart + f->norder};
    ws.keys = arena_calloc(cx->a, n * ws.nk + 1, sizeof *ws.keys);
    ws.modes = arena_calloc(cx->a, ws.nk + 1, sizeof *ws.modes);
    for (uint32_t k = 0; k < ws.nk; k++) {
        const plan_expr *e = k < f->npart ? f->part[k] : f->order[k - f->npart];
        ws.modes[k] = plan__cmp_mode(e, e);
    }
    plan_value *args = arena_calloc(cx->a, n + 1, sizeof *args);
    plan_value *dflts = f->dflt ? arena_calloc(cx->a, n + 1, sizeof *dflts) : NULL;
    for (size_t r = 0; r < n; r++) {
        cx->row = &w->rows[r * w->nin];
        cx->nrow = w->nin;
        for (uint32_t k = 0; k < ws.nk; k++) {
            const plan_expr *e = k < f->npart ? f->part[k] : f->order[k - f->npart];
            if (plan__eval(cx, e, &ws.keys[r * ws.nk + k], err) != DB_OK) {
                cx->row = NULL;
                return DB_ERR;
            }
        }
        args[r].kind = PV_NULL;
        if ((f->arg && plan__eval(cx, f->arg, &args[r], err) != DB_OK) ||
            (dflts && plan__eval(cx, f->dflt, &dflts[r], err) != DB_OK)) {
            cx->row = NULL;
            return DB_ERR;
        }
    }
    cx->row = NULL;
    uint32_t *ord = arena_alloc(cx->a, (n + 1) * sizeof *ord);
    uint32_t *tmp = arena_alloc(cx->a, (n + 1) * sizeof *tmp);
    for (size_t r = 0; r < n; r++) {
        ord[r] = (uint32_t)r;
    }
    plan__msort_rows(ord, tmp, n, win_row_cmp, &ws); /* stable */
    plan_value *res = &w->res[(size_t)fi * n];
    size_t ps = 0;
    while (ps < n) {
        size_t pe = ps + 1;
        while (pe < n && keys_cmp(&ws, ord[ps], ord[pe], 0, f->npart) == 0) {
            pe++;
        }
        win_acc acc;
        size_t cs = ps, ce = ps;
        memset(&acc, 0, sizeof acc);
        int64_t rank = 0, dense = 0;
        size_t qs = ps, qe = ps;
        for (size_t i = ps; i < pe; i++) {
            if (i >= qe) { /* a new peer group */
                qs = i;
                qe = i + 1;
                while (qe < pe && keys_cmp(&ws, ord[qs], ord[qe], f->npart, ws.nk) == 0) {
                    qe++;
                }
                rank = (int64_t)(i - ps) + 1;
                dense++;
            }
            plan_value *out = &res[ord[i]];
            memset(out, 0, sizeof *out);
            out->kind = PV_INT;
            switch (f->kind) {
            case PLAN_WIN_ROW_NUMBER:
                out->i = (int64_t)(i - ps) + 1;
                break;
            case PLAN_WIN_RANK:
                out->i = rank;
                break;
            case PLAN_WIN_DENSE_RANK:
                out->i = dense;
                break;
            case PLAN_WIN_LAG:
            case PLAN_WIN_LEAD: {
                bool lag = f->kind == PLAN_WIN_LAG;
                bool in = lag ? i - ps >= f->offset : pe - i > f->offset;
                if (in) {
                    *out = args[ord[lag ? i - f->offset : i + f->offset]];
                } else if (dflts) {
                    *out = dflts[ord[i]];
                } else {
                    out->kind = PV_NULL;
                }
                break;
            }
            case PLAN_WIN_FIRST_VALUE:
            case PLAN_WIN_LAST_VALUE:
            case PLAN_WIN_NTH_VALUE: {
                size_t fs, fe;
                frame_of(f, i, ps, pe, qs, qe, &fs, &fe);
                size_t at = f->kind == PLAN_WIN_FIRST_VALUE  ? fs
                            : f->kind == PLAN_WIN_LAST_VALUE ? fe - 1
                            : fe - fs >= f->offset           ? fs + f->offset - 1
                                                             : fe;
                if (fe > fs && at < fe) {
                    *out = args[ord[at]];
                } else {
                    out->kind = PV_NULL;
                }
                break;
            }
            case PLAN_WIN_NTILE: {
                /* m rows in `buckets` buckets: the first m % buckets hold one row more */
                uint64_t m = pe - ps, j = i - ps, nb = f->offset;
                uint64_t q = m / nb, rem = m % nb;
                out->i = (int64_t)(j < rem * (q + 1) ? j / (q + 1) + 1
                                                     : rem + (j - rem * (q + 1)) / q + 1);
                break;
            }
            case PLAN_WIN_PERCENT_RANK:
                out->kind = PV_DOUBLE;
                out->d = pe - ps > 1 ? (double)(rank - 1) / (double)(pe - ps - 1) : 0.0;
                break;
            case PLAN_WIN_CUME_DIST:
                out->kind = PV_DOUBLE;
                out->d = (double)(qe - ps) / (double)(pe - ps);
                break;
            case PLAN_WIN_AGG: {
                size_t fs, fe;
                frame_of(f, i, ps, pe, qs, qe, &fs, &fe);
                if (fs != cs || fe < ce) { /* not an extension: start over */
                    memset(&acc, 0, sizeof acc);
                    cs = ce = fs;
                }
                for (; ce < fe; ce++) {
                    acc_add(w, f, &acc, &args[ord[ce]]);
                }
                if (acc_result(cx, f, &acc, out, err) != DB_OK) {
                    return DB_ERR;
                }
                break;
            }
            }
        }
        ps = pe;
        if (plan__check_interrupt(cx->s, err) != DB_OK) {
            return DB_ERR;
        }
    }
    *sortedp = ord;
    return DB_OK;
}

/* Pull and copy every input row, then compute every function. */
static int
win_consume(op_window *w, db_error *err)
{
    plan_op *op = &w->base;
    arena *a = op->cx->a;
    uint32_t nc = w->nin;
    for (;;) {
        plan_batch *in;
        if (op->child->next(op->child, &in, err) != DB_OK) {
            return DB_ERR;
        }
        if (!in) {
            break;
        }
        plan__rows_append(a, &w->rows, &w->nrows, &w->cap_rows, nc, in);
        if (plan__check_interrupt(op->cx->s, err) != DB_OK) {
            return DB_ERR;
        }
    }
    DB_ASSERT(w->nrows <= UINT32_MAX);
    w->res = arena_calloc(a, (size_t)w->nfns * w->nrows + 1, sizeof *w->res);
    w->order = NULL;
    for (uint32_t i = 0; i < w->nfns; i++) {
        if (win_compute(w, i, &w->order, err) != DB_OK) {
            return DB_ERR;
        }
    }
    w->done = true;
    return DB_OK;
}

static int
win_open(plan_op *op, db_error *err)
{
    op_window *w = (op_window *)op;
    if (!w->out) {
        w->out = plan__batch_new(op->cx->a, op->types, op->ncols, op->cap);
    }
    w->nrows = 0;
    w->cap_rows = 0;
    w->pos = 0;
    w->done = false;
    op->opened = true;
    op->ba = arena_new(0);
    return op->child->open(op->child, err);
}

static void
win_close(plan_op *op)
{
    op->child->close(op->child);
    arena_free(op->ba);
    op->ba = NULL;
    op->opened = false;
}

static int
win_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_window *w = (op_window *)op;
    plan_ectx *cx = op->cx;
    *out = NULL;
    if (!w->done && win_consume(w, err) != DB_OK) {
        return DB_ERR;
    }
    if (w->pos >= w->nrows) {
        return DB_OK;
    }
    arena_reset(op->ba);
    plan_batch *b = w->out;
    plan__batch_clear(b);
    arena *stmt_a = cx->a;
    cx->a = op->ba;
    int rc = DB_OK;
    uint32_t k = 0;
    for (; k < b->cap && w->pos < w->nrows && rc == DB_OK; k++, w->pos++) {
        uint32_t r = w->order[w->pos];
        for (uint32_t c = 0; c < w->nin && rc == DB_OK; c++) {
            rc = plan__batch_set(cx, b, c, k, &w->rows[(size_t)r * w->nin + c], err);
        }
        for (uint32_t i = 0; i < w->nfns && rc == DB_OK; i++) {
            rc = plan__batch_set(cx, b, w->nin + i, k, &w->res[(size_t)i * w->nrows + r], err);
        }
        b->nrows = k + 1;
    }
    cx->a = stmt_a;
    if (rc != DB_OK) {
        return DB_ERR;
    }
    *out = b;
    return DB_OK;
}

static void
win_describe(plan_op *op, plan_explain *ex)
{
    plan__explain_printf(ex, "WINDOW(%u functions)", ((op_window *)op)->nfns);
}

plan_op *
plan__op_window(plan_ectx *cx, plan_op *child, const plan_window_fn *fns, uint32_t n)
{
    op_window *w = arena_calloc(cx->a, 1, sizeof *w);
    w->base.cx = cx;
    w->base.child = child;
    w->base.cap = child->cap;
    w->base.open = win_open;
    w->base.next = win_next;
    w->base.close = win_close;
    w->base.describe = win_describe;
    w->base.ncols = child->ncols + n;
    w->base.types = arena_calloc(cx->a, w->base.ncols + 1, sizeof(plan_vtype));
    memcpy(w->base.types, child->types, child->ncols * sizeof(plan_vtype));
    for (uint32_t i = 0; i < n; i++) {
        plan_expr e;
        memset(&e, 0, sizeof e);
        e.t = fns[i].t;
        e.vk = fns[i].vk;
        w->base.types[child->ncols + i] = plan__vtype_of(&e);
    }
    w->fns = fns;
    w->nfns = n;
    w->nin = child->ncols;
    return &w->base;
}
