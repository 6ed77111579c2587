/* SPDX-License-Identifier: Apache-2.0
 * plan_window.c: the window operator. Materializes its input (statement arena), sorts it per
 * window function by (PARTITION BY, ORDER BY) and computes ROW_NUMBER, RANK, DENSE_RANK, LAG,
 * LEAD, ... and the aggregates (COUNT / SUM / AVG / MIN / MAX, the STDDEV / VARIANCE family,
 * BIT_AND / BIT_OR / BIT_XOR) over frames (sliding, RANGE value bounds by two moving pointers),
 * appending one column per function; checks frames (plan__window_frame). See README.md
 * §Executor (window). */
#include "planner/plan_exec_int.h"

#include <math.h>
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

/* The STDDEV / VARIANCE and BIT_* state of a run of rows: non-NULL values, their mean and sum
 * of squared deviations from it (Welford), and the folded bits. */
typedef struct win_stat {
    uint64_t cnt;
    double mean, m2;
    double sum;    /* floating-point SUM / AVG */
    uint64_t bits; /* BIT_AND starts all ones */
} win_stat;

/* Aggregate over the sliding frame [cs, ce) of sorted positions: counts and exact sums are
 * added and subtracted as rows enter and leave; MIN / MAX keep a monotonic deque of positions
 * (dq[dh..dt), values strictly improving from the back, so the front is the extreme). The
 * STDDEV / VARIANCE, BIT_* and floating-point SUM / AVG states have no safe inverse (BIT_AND /
 * BIT_OR none at all; removing from a variance or a double sum cancels: 1e17 + 1 - 1e17 is 0,
 * which MySQL's default windowing_use_high_precision avoids), so the frame is a queue of two
 * halves: [cs, mid), whose suffix states sfx[p] (the rows [p, mid)) were computed when the
 * front last ran empty, and [mid, ce), folded into back as rows enter. The frame's state is
 * sfx[cs] merged with back; every row is folded in at most twice. */
typedef struct win_acc {
    uint64_t rows, cnt;
    __int128 dsum;
    size_t cs, ce;
    size_t *dq, dh, dt;
    plan_cmp_mode mode; /* MIN / MAX */
    win_stat *sfx, back;
    size_t mid;
} win_acc;

static bool
is_stat(const plan_window_fn *f)
{
    switch (f->agg) {
    case PLAN_AGG_STDDEV_POP:
    case PLAN_AGG_STDDEV_SAMP:
    case PLAN_AGG_VAR_POP:
    case PLAN_AGG_VAR_SAMP:
    case PLAN_AGG_BIT_AND:
    case PLAN_AGG_BIT_OR:
    case PLAN_AGG_BIT_XOR:
        return true;
    case PLAN_AGG_SUM:
    case PLAN_AGG_AVG:
        return f->vk == PV_DOUBLE;
    default:
        return false;
    }
}

static bool
is_fsum(const plan_window_fn *f)
{
    return (f->agg == PLAN_AGG_SUM || f->agg == PLAN_AGG_AVG) && f->vk == PV_DOUBLE;
}

static win_stat
stat_empty(const plan_window_fn *f)
{
    win_stat s = {0, 0, 0, 0, f->agg == PLAN_AGG_BIT_AND ? UINT64_MAX : 0};
    return s;
}

/* Fold value v (skipped when NULL) into s; the variance step is plan_agg.c's, so a frame
 * built row by row gives the GROUP BY result. */
static void
stat_add(const plan_window_fn *f, win_stat *s, const plan_value *v)
{
    if (v->kind == PV_NULL) {
        return;
    }
    s->cnt++;
    switch (f->agg) {
    case PLAN_AGG_BIT_AND:
        s->bits &= plan__agg_bits(v);
        break;
    case PLAN_AGG_BIT_OR:
        s->bits |= plan__agg_bits(v);
        break;
    case PLAN_AGG_BIT_XOR:
        s->bits ^= plan__agg_bits(v);
        break;
    case PLAN_AGG_SUM:
    case PLAN_AGG_AVG: {
        bool truncated;
        s->sum += plan__v_to_double(v, &truncated);
        break;
    }
    default: {
        double x = plan__v_to_double(v, NULL);
        double delta = x - s->mean;
        s->mean += delta / (double)s->cnt;
        s->m2 += delta * (x - s->mean);
        break;
    }
    }
}

/* The state of the rows of a followed by those of b (Chan et al.'s pairwise update). */
static win_stat
stat_merge(const plan_window_fn *f, const win_stat *a, const win_stat *b)
{
    if (a->cnt == 0) {
        return *b;
    }
    if (b->cnt == 0) {
        return *a;
    }
    win_stat s;
    double na = (double)a->cnt, nb = (double)b->cnt, n = na + nb;
    double delta = b->mean - a->mean;
    s.cnt = a->cnt + b->cnt;
    s.mean = a->mean + delta * (nb / n);
    s.m2 = a->m2 + b->m2 + delta * delta * (na * nb / n);
    s.sum = a->sum + b->sum;
    s.bits = f->agg == PLAN_AGG_BIT_AND  ? a->bits & b->bits
             : f->agg == PLAN_AGG_BIT_OR ? a->bits | b->bits
                                         : a->bits ^ b->bits;
    return s;
}

/* The front half ran empty: it becomes the whole frame [cs, ce), its suffix states computed
 * back to front; back restarts empty. */
static void
stat_flip(const plan_window_fn *f, win_acc *acc, const plan_value *args, const uint32_t *ord)
{
    win_stat s = stat_empty(f);
    for (size_t q = acc->ce; q-- > acc->cs;) {
        stat_add(f, &s, &args[ord[q]]);
        acc->sfx[q] = s;
    }
    acc->mid = acc->ce;
    acc->back = stat_empty(f);
}

static void
acc_reset(const plan_window_fn *f, win_acc *acc, size_t at)
{
    acc->rows = acc->cnt = 0;
    acc->dsum = 0;
    acc->cs = acc->ce = at;
    acc->dh = acc->dt = 0;
    acc->mid = at;
    acc->back = stat_empty(f);
}

/* v as a DECIMAL / integer at the argument's scale (SUM / AVG). */
static __int128
acc_exact(const plan_window_fn *f, const plan_value *v)
{
    if (v->kind == PV_INT) {
        return v->is_unsigned ? (__int128)v->u : (__int128)v->i;
    }
    __int128 d = v->dec;
    for (uint8_t s = v->scale; s < f->arg->t.scale; s++) {
        d *= 10;
    }
    return d;
}

/* Row at sorted position p (value v) enters (sign 1) or leaves (sign -1) the frame. */
static void
acc_step(plan_ectx *cx, const plan_window_fn *f, win_acc *acc, const plan_value *args,
         const uint32_t *ord, size_t p, int sign)
{
    const plan_value *v = &args[ord[p]];
    acc->rows += (uint64_t)(int64_t)sign;
    if (acc->sfx != NULL) { /* a queue (is_stat; p leaves: p == cs) */
        if (sign > 0) {
            stat_add(f, &acc->back, v);
        } else if (p >= acc->mid) {
            stat_flip(f, acc, args, ord);
        }
        return;
    }
    if (!f->arg || v->kind == PV_NULL) {
        return;
    }
    acc->cnt += (uint64_t)(int64_t)sign;
    switch (f->agg) {
    case PLAN_AGG_SUM:
    case PLAN_AGG_AVG:
        if (v->kind == PV_INT || v->kind == PV_DECIMAL) { /* doubles: the stat queue */
            acc->dsum += sign * acc_exact(f, v);
        }
        break;
    case PLAN_AGG_MIN:
    case PLAN_AGG_MAX:
        if (sign < 0) { /* leaving rows are the oldest: only the front can be p */
            if (acc->dh < acc->dt && acc->dq[acc->dh] == p) {
                acc->dh++;
            }
            break;
        }
        while (acc->dt > acc->dh) {
            int c = plan__compare(cx, acc->mode, &args[ord[acc->dq[acc->dt - 1]]], v);
            if (f->agg == PLAN_AGG_MIN ? c <= 0 : c >= 0) {
                break; /* the back is at least as good: keep it (first of equals wins) */
            }
            acc->dt--;
        }
        acc->dq[acc->dt++] = p;
        break;
    default:
        break;
    }
}

/* Move the aggregate to frame [fs, fe): O(1) amortized when both ends only advance (every
 * frame shape over sorted rows); otherwise start over at fs. */
static void
acc_slide(plan_ectx *cx, const plan_window_fn *f, win_acc *acc, const plan_value *args,
          const uint32_t *ord, size_t fs, size_t fe)
{
    if (fs < acc->cs || fe < acc->ce || fs >= acc->ce) {
        acc_reset(f, acc, fs);
    }
    for (; acc->ce < fe; acc->ce++) {
        acc_step(cx, f, acc, args, ord, acc->ce, 1);
    }
    for (; acc->cs < fs; acc->cs++) {
        acc_step(cx, f, acc, args, ord, acc->cs, -1);
    }
}

/* STDDEV / VARIANCE (NULL without rows; the samples' forms NULL below two) and BIT_* (the
 * neutral value without rows, as MySQL) of state s. */
static int
stat_result(const plan_window_fn *f, const win_stat *s, plan_value *out)
{
    bool samp = f->agg == PLAN_AGG_STDDEV_SAMP || f->agg == PLAN_AGG_VAR_SAMP;
    switch (f->agg) {
    case PLAN_AGG_BIT_AND:
    case PLAN_AGG_BIT_OR:
    case PLAN_AGG_BIT_XOR:
        *out = plan__v_uint(s->bits);
        return DB_OK;
    default:
        break;
    }
    if (is_fsum(f)) {
        if (s->cnt > 0) {
            *out = plan__v_double(f->agg == PLAN_AGG_AVG ? s->sum / (double)s->cnt : s->sum);
        }
        return DB_OK;
    }
    if (s->cnt < (samp ? 2u : 1u)) {
        return DB_OK; /* NULL */
    }
    double var = s->m2 / (double)(s->cnt - (samp ? 1 : 0));
    var = var < 0 ? 0 : var;
    bool sd = f->agg == PLAN_AGG_STDDEV_POP || f->agg == PLAN_AGG_STDDEV_SAMP;
    *out = plan__v_double(sd ? sqrt(var) : var);
    return DB_OK;
}

static int
acc_result(plan_ectx *cx, const plan_window_fn *f, const win_acc *acc, const plan_value *args,
           const uint32_t *ord, plan_value *out, db_error *err)
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
        if (acc->dh < acc->dt) {
            *out = args[ord[acc->dq[acc->dh]]];
        }
        return DB_OK;
    default:
        break;
    }
    if (acc->sfx != NULL) {
        win_stat e = stat_empty(f);
        win_stat s = stat_merge(f, acc->cs < acc->mid ? &acc->sfx[acc->cs] : &e, &acc->back);
        return stat_result(f, &s, out);
    }
    if (acc->cnt == 0) {
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

/* Where a function's frames are in the current partition (sorted positions). */
typedef struct win_part {
    size_t ps, pe; /* the partition */
    size_t qs, qe; /* the current row's peers */
    /* RANGE value bounds: rows whose ORDER BY key is not NULL ([ns, ne): NULLs sort first,
     * so they are [ps, ns) ascending and [ne, pe) descending), and the two moving pointers:
     * the first row not before the start bound, the first row after the end bound. */
    size_t ns, ne, sp, ep;
    const plan_value *keys;  /* the ORDER BY key of sorted position p: keys[ord[p] * nk] */
    const plan_value *bv[2]; /* per row: the start / end bound value */
    uint32_t nk;
} win_part;

/* Sign of (key of the row at sorted position p) vs bound value b along the window order
 * (negated for DESC): < 0 before, > 0 after. A NULL bound compares as MySQL's comparator
 * does, -1 before the DESC flip. */
static int
range_cmp(plan_ectx *cx, const plan_window_fn *f, const win_part *wp, const uint32_t *ord, size_t p,
          int k, const plan_value *b)
{
    int c = b->kind == PV_NULL
                    ? -1
                    : plan__compare(cx, f->rmode[k], &wp->keys[(size_t)ord[p] * wp->nk], b);
    return f->desc[0] ? -c : c;
}

/* One RANGE value bound (k 0 start, 1 end) of the row at sorted position i, whose key is not
 * NULL: the first position not before it (start) / after it (end). The pointers only move
 * forward: bounds are monotonic in the key, so over sorted rows they never go back. */
static size_t
range_bound(plan_ectx *cx, const plan_window_fn *f, win_part *wp, const uint32_t *ord, size_t i,
            int k)
{
    const plan_value *b = &wp->bv[k][ord[i]];
    if (b->kind == PV_NULL) { /* out of range date arithmetic: not monotonic, no pointer */
        return f->desc[0] ? wp->ns : wp->ne;
    }
    size_t *p = k == 0 ? &wp->sp : &wp->ep;
    if (*p < wp->ns) {
        *p = wp->ns;
    }
    while (*p < wp->ne && (k == 0 ? range_cmp(cx, f, wp, ord, *p, k, b) < 0
                                  : range_cmp(cx, f, wp, ord, *p, k, b) <= 0)) {
        (*p)++;
    }
    return *p;
}

/* The frame [*fs, *fe) of sorted position i (empty frames have *fe == *fs). */
static void
frame_of(plan_ectx *cx, const plan_window_fn *f, win_part *wp, const uint32_t *ord, size_t i,
         size_t *fs, size_t *fe)
{
    plan_window_frame fr = f->frame;
    size_t ps = wp->ps, pe = wp->pe, s, e;
    if (fr.unit == 0) {
        *fs = ps;
        *fe = f->norder ? wp->qe : pe;
        return;
    }
    if (fr.unit == 2 && (f->rbound[0] || f->rbound[1]) &&
        wp->keys[(size_t)ord[i] * wp->nk].kind == PV_NULL) {
        /* A NULL key: every bound but UNBOUNDED sits at the NULL peers (MySQL). */
        *fs = fr.start.kind == PLAN_FB_UNBOUNDED_PRECEDING ? ps : wp->qs;
        *fe = fr.end.kind == PLAN_FB_UNBOUNDED_FOLLOWING ? pe : wp->qe;
        return;
    }
    bool rows = fr.unit == 1;
    switch (fr.start.kind) {
    case PLAN_FB_UNBOUNDED_PRECEDING:
        s = ps;
        break;
    case PLAN_FB_PRECEDING:
        s = !rows ? range_bound(cx, f, wp, ord, i, 0) : i - ps > fr.start.n ? i - fr.start.n : ps;
        break;
    case PLAN_FB_FOLLOWING:
        s = !rows ? range_bound(cx, f, wp, ord, i, 0) : pe - i > fr.start.n ? i + fr.start.n : pe;
        break;
    case PLAN_FB_UNBOUNDED_FOLLOWING: /* refused by the analyser (3584) */
        s = pe;
        break;
    default:
        s = rows ? i : wp->qs;
        break;
    }
    switch (fr.end.kind) {
    case PLAN_FB_UNBOUNDED_PRECEDING: /* refused by the analyser (3585) */
        e = ps;
        break;
    case PLAN_FB_PRECEDING:
        e = !rows ? range_bound(cx, f, wp, ord, i, 1) : i - ps >= fr.end.n ? i - fr.end.n + 1 : ps;
        break;
    case PLAN_FB_FOLLOWING:
        e = !rows ? range_bound(cx, f, wp, ord, i, 1) : pe - i > fr.end.n ? i + fr.end.n + 1 : pe;
        break;
    case PLAN_FB_UNBOUNDED_FOLLOWING:
        e = pe;
        break;
    default:
        e = rows ? i + 1 : wp->qe;
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
    plan_value *bv[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        if (f->rbound[k]) {
            bv[k] = arena_calloc(cx->a, n + 1, sizeof *bv[k]);
        }
    }
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
        for (int k = 0; k < 2; k++) {
            if (bv[k] && plan__eval(cx, f->rbound[k], &bv[k][r], err) != DB_OK) {
                cx->row = NULL;
                return DB_ERR;
            }
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
    win_acc acc;
    memset(&acc, 0, sizeof acc);
    if (f->kind == PLAN_WIN_AGG && (f->agg == PLAN_AGG_MIN || f->agg == PLAN_AGG_MAX)) {
        acc.dq = arena_alloc(cx->a, (n + 1) * sizeof *acc.dq);
        acc.mode = plan__cmp_mode(f->arg, f->arg);
    }
    if (f->kind == PLAN_WIN_AGG && is_stat(f)) {
        acc.sfx = arena_alloc(cx->a, (n + 1) * sizeof *acc.sfx);
    }
    size_t ps = 0;
    while (ps < n) {
        size_t pe = ps + 1;
        while (pe < n && keys_cmp(&ws, ord[ps], ord[pe], 0, f->npart) == 0) {
            pe++;
        }
        acc_reset(f, &acc, ps);
        int64_t rank = 0, dense = 0;
        win_part wp = {ps, pe, ps, ps, ps, pe, ps, ps, ws.keys + f->npart, {bv[0], bv[1]}, ws.nk};
        if (bv[0] || bv[1]) { /* the rows with a NULL key: first ascending, last descending */
            while (wp.ns < pe && wp.keys[(size_t)ord[wp.ns] * ws.nk].kind == PV_NULL) {
                wp.ns++;
            }
            while (wp.ne > wp.ns && wp.keys[(size_t)ord[wp.ne - 1] * ws.nk].kind == PV_NULL) {
                wp.ne--;
            }
        }
        for (size_t i = ps; i < pe; i++) {
            if (i >= wp.qe) { /* a new peer group */
                wp.qs = i;
                wp.qe = i + 1;
                while (wp.qe < pe && keys_cmp(&ws, ord[wp.qs], ord[wp.qe], f->npart, ws.nk) == 0) {
                    wp.qe++;
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
                frame_of(cx, f, &wp, ord, i, &fs, &fe);
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
                out->d = (double)(wp.qe - ps) / (double)(pe - ps);
                break;
            case PLAN_WIN_AGG: {
                size_t fs, fe;
                frame_of(cx, f, &wp, ord, i, &fs, &fe);
                acc_slide(cx, f, &acc, args, ord, fs, fe);
                if (acc_result(cx, f, &acc, args, ord, out, err) != DB_OK) {
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

/* ---- Frame analysis ---- */

static bool
is_interval(const plan_ast *v)
{
    return v->kind == PA_FUNC && strcmp(v->name, "%interval") == 0;
}

/* True when x reads a column, a subquery or a placeholder: not a constant frame bound. */
static bool
ast_varies(const plan_ast *x)
{
    if (x->kind == PA_COLUMN || x->kind == PA_SUBQUERY || x->kind == PA_PARAM ||
        x->kind == PA_WINDOW) {
        return true;
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (x->args[i] && ast_varies(x->args[i])) {
            return true;
        }
    }
    return false;
}

/* MySQL's GR 5.b.i.1.B.I.1: an INTERVAL bound's value may be neither NULL nor negative (a
 * string is negative when it starts with '-'). */
static int
interval_check(plan_ectx *cx, const plan_ast *iv, bool *ok, db_error *err)
{
    plan_expr *e;
    plan_value v;
    if (plan__analyze(cx, iv->args[0], NULL, 0, "window frame bound", &e, err) != DB_OK) {
        return DB_ERR;
    }
    const plan_value *row = cx->row;
    cx->row = NULL;
    int rc = plan__eval(cx, e, &v, err);
    cx->row = row;
    if (rc != DB_OK) {
        return DB_ERR;
    }
    switch (v.kind) {
    case PV_NULL:
        *ok = false;
        break;
    case PV_INT:
        *ok = v.is_unsigned || v.i >= 0;
        break;
    case PV_DECIMAL:
        *ok = v.dec >= 0;
        break;
    case PV_DOUBLE:
        *ok = v.d >= 0;
        break;
    case PV_STRING: {
        size_t k = 0;
        while (k < v.str.len && (v.str.s[k] == ' ' || v.str.s[k] == '\t')) {
            k++;
        }
        *ok = k == v.str.len || v.str.s[k] != '-';
        break;
    }
    default:
        *ok = true;
        break;
    }
    return DB_OK;
}

/* The value of RANGE bound b at a row: key - / + offset (date_sub / date_add for INTERVAL);
 * PRECEDING subtracts ascending and adds descending (MySQL's PT_border::build_addop). */
static int
range_bound_expr(plan_ectx *cx, const plan_ast *x, const plan_window_fn *f,
                 const plan_frame_bound *b, const plan_bind_col *binds, size_t nb, plan_expr **out,
                 db_error *err)
{
    const plan_window_spec *w = x->win;
    plan_ast *key = x->args[w->nfargs + w->npart];
    bool sub = (b->kind == PLAN_FB_PRECEDING) != f->desc[0];
    plan_ast *n = arena_calloc(cx->a, 1, sizeof *n);
    n->args = arena_alloc(cx->a, 2 * sizeof *n->args);
    n->args[0] = key;
    n->args[1] = b->val;
    n->nargs = 2;
    n->off = key->off;
    n->end = key->end;
    if (is_interval(b->val)) {
        n->kind = PA_FUNC;
        n->name = sub ? "date_sub" : "date_add";
        n->has_parens = true;
    } else {
        n->kind = PA_BINARY;
        n->op = sub ? XOP_MINUS : XOP_PLUS;
    }
    return plan__analyze(cx, n, binds, nb, "window order by", out, err);
}

int
plan__window_frame(plan_ectx *cx, const plan_ast *x, plan_window_fn *f, const plan_bind_col *binds,
                   size_t nb, db_error *err)
{
    const plan_window_spec *w = x->win;
    const plan_window_frame *fr = &w->frame;
    const char *name = w->name ? w->name : "<unnamed window>";
    const plan_frame_bound *bs[2] = {&fr->start, &fr->end};
    bool range = fr->unit == 2;
    if (fr->unit == 0) {
        return DB_OK;
    }
    /* In MySQL's order (Window::setup_windows1, then setup_windows2). First RANGE value
     * bounds: exactly one numeric or temporal ORDER BY key, INTERVAL iff temporal. */
    for (int k = 0; range && k < 2; k++) {
        if (!bs[k]->val) {
            continue;
        }
        plan_vkind kv = f->norder == 1 ? f->order[0]->vk : PV_NULL;
        bool temporal = kv == PV_DATE || kv == PV_DATETIME || kv == PV_TIME;
        if (!temporal && kv != PV_INT && kv != PV_DECIMAL && kv != PV_DOUBLE) {
            return db_error_set(err, ER_WINDOW_RANGE_FRAME_ORDER_TYPE, name);
        }
        if (temporal != is_interval(bs[k]->val)) {
            return db_error_set(err,
                                temporal ? ER_WINDOW_RANGE_FRAME_TEMPORAL_TYPE
                                         : ER_WINDOW_RANGE_FRAME_NUMERIC_TYPE,
                                name);
        }
    }
    /* The bound kinds (SQL 2014 7.15 SR 8), bound by bound. */
    for (int k = 0; k < 2; k++) {
        uint8_t kind = bs[k]->kind, from = fr->start.kind;
        if (k == 0 && kind == PLAN_FB_UNBOUNDED_FOLLOWING) {
            return db_error_set(err, ER_WINDOW_FRAME_START_ILLEGAL, name);
        }
        if (k == 1 && kind == PLAN_FB_UNBOUNDED_PRECEDING) {
            return db_error_set(err, ER_WINDOW_FRAME_END_ILLEGAL, name);
        }
        if (k == 1 && ((from == PLAN_FB_CURRENT && kind == PLAN_FB_PRECEDING) ||
                       (from == PLAN_FB_FOLLOWING && kind == PLAN_FB_CURRENT) ||
                       (from == PLAN_FB_FOLLOWING && kind == PLAN_FB_PRECEDING))) {
            return db_error_set(err, ER_WINDOW_FRAME_ILLEGAL, name);
        }
        if (bs[k]->val && is_interval(bs[k]->val)) {
            if (!range) {
                return db_error_set(err, ER_WINDOW_ROWS_INTERVAL_USE, name);
            }
            if (ast_varies(bs[k]->val)) {
                return db_error_set(err, ER_WINDOW_RANGE_BOUND_NOT_CONSTANT, name);
            }
        }
    }
    /* The offsets: ROWS takes integers; an INTERVAL may be neither NULL nor negative (number
     * literals cannot be). Then the RANGE bound expressions. */
    for (int k = 0; k < 2; k++) {
        const plan_frame_bound *b = bs[k];
        if (!b->val) {
            continue;
        }
        bool ok = true;
        if (!range) {
            ok = b->val->kind == PA_INT;
        } else if (is_interval(b->val) && interval_check(cx, b->val, &ok, err) != DB_OK) {
            return DB_ERR;
        }
        if (!ok) {
            return db_error_set(err, ER_WINDOW_FRAME_ILLEGAL, name);
        }
    }
    for (int k = 0; range && k < 2; k++) {
        if (bs[k]->val) {
            plan_expr *e;
            if (range_bound_expr(cx, x, f, bs[k], binds, nb, &e, err) != DB_OK) {
                return DB_ERR;
            }
            f->rbound[k] = e;
            f->rmode[k] = plan__cmp_mode(f->order[0], e);
        }
    }
    return DB_OK;
}
