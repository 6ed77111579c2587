/* SPDX-License-Identifier: Apache-2.0
 * plan_batch.c: the executor core. Batches of typed column vectors with null bitmaps and an
 * optional selection vector, and the volcano operators over them: materialized-row scan,
 * filter, project, sort, limit (aggregation: plan_agg.c). Filter and project evaluate their
 * expressions a batch at a time (plan_vector.c) when they can, else one row at a time with
 * plan__eval (the reference semantics). See README.md §Executor. */
#include "planner/plan_exec_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- batches ---- */

static void row_values(plan_op *op, const plan_batch *b, uint32_t row, plan_value *vals);

size_t
plan__vec_elem_size(plan_vkind k)
{
    switch (k) {
    case PV_NULL:
        return 0;
    case PV_DOUBLE:
        return sizeof(double);
    case PV_DECIMAL:
        return sizeof(__int128);
    case PV_STRING:
        return sizeof(plan_strv);
    default:
        return sizeof(int64_t);
    }
}

plan_batch *
plan__batch_new(arena *a, const plan_vtype *types, uint32_t ncols, uint32_t cap)
{
    DB_ASSERT(cap >= 1 && cap <= PLAN_BATCH_MAX);
    plan_batch *b = arena_calloc(a, 1, sizeof *b);
    b->ncols = ncols;
    b->cap = cap;
    b->cols = arena_calloc(a, ncols ? ncols : 1, sizeof *b->cols);
    for (uint32_t c = 0; c < ncols; c++) {
        plan_vec *v = &b->cols[c];
        v->t = types[c];
        size_t es = plan__vec_elem_size(v->t.kind);
        v->i = es ? arena_alloc(a, es * cap) : NULL;
        v->nulls = arena_calloc(a, (cap + 7) / 8, 1);
    }
    return b;
}

void
plan__batch_clear(plan_batch *b)
{
    for (uint32_t c = 0; c < b->ncols; c++) {
        memset(b->cols[c].nulls, 0, (b->cap + 7) / 8);
    }
    b->nrows = 0;
    b->sel = NULL;
    b->nsel = 0;
}

uint32_t
plan__batch_active(const plan_batch *b)
{
    return b->sel ? b->nsel : b->nrows;
}

void
plan__batch_get(const plan_batch *b, uint32_t col, uint32_t row, plan_value *out)
{
    DB_ASSERT(col < b->ncols && row < b->nrows);
    const plan_vec *v = &b->cols[col];
    memset(out, 0, sizeof *out);
    if (plan__vec_is_null(v, row)) {
        out->kind = PV_NULL;
        return;
    }
    out->kind = (uint8_t)v->t.kind;
    out->scale = v->t.scale;
    switch (v->t.kind) {
    case PV_DOUBLE:
        out->d = v->d[row];
        break;
    case PV_DECIMAL:
        out->dec = v->dec[row];
        break;
    case PV_STRING:
        out->str.s = v->s[row].s;
        out->str.len = v->s[row].len;
        out->is_binary = v->t.is_binary;
        break;
    case PV_INT:
        out->i = v->i[row];
        out->is_unsigned = v->t.is_unsigned;
        break;
    default: /* temporal: microseconds */
        out->us = v->i[row];
        break;
    }
}

int
plan__batch_set(plan_ectx *cx, plan_batch *b, uint32_t col, uint32_t row, const plan_value *v,
                db_error *err)
{
    DB_ASSERT(col < b->ncols && row < b->cap);
    plan_vec *vec = &b->cols[col];
    if (v->kind == PV_NULL || vec->t.kind == PV_NULL) {
        vec->nulls[row >> 3] |= (uint8_t)(1u << (row & 7));
        return DB_OK;
    }
    plan_value cv = *v;
    bool sign_differs = cv.kind == PV_INT && cv.is_unsigned != vec->t.is_unsigned;
    bool scale_differs = cv.kind == PV_DECIMAL && cv.scale != vec->t.scale;
    if (cv.kind != vec->t.kind || sign_differs || scale_differs) {
        plan_xtype t;
        memset(&t, 0, sizeof t);
        t.is_unsigned = vec->t.is_unsigned;
        t.scale = vec->t.scale;
        if (sign_differs) {
            /* Same kind, other signedness: saturate into the column's range. */
            if (vec->t.is_unsigned) {
                cv = plan__v_uint(v->i < 0 ? 0 : (uint64_t)v->i);
            } else {
                cv = plan__v_int(v->u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v->u);
            }
        } else if (plan__coerce(cx, &cv, vec->t.kind, &t, err) != DB_OK) {
            return DB_ERR;
        }
        if (cv.kind == PV_NULL) {
            vec->nulls[row >> 3] |= (uint8_t)(1u << (row & 7));
            return DB_OK;
        }
    }
    vec->nulls[row >> 3] &= (uint8_t) ~(1u << (row & 7));
    switch (vec->t.kind) {
    case PV_DOUBLE:
        vec->d[row] = cv.d;
        break;
    case PV_DECIMAL:
        vec->dec[row] = cv.dec;
        break;
    case PV_STRING:
        vec->s[row].s = cv.str.s;
        vec->s[row].len = cv.str.len;
        break;
    case PV_INT:
        vec->i[row] = cv.i;
        break;
    default:
        vec->i[row] = cv.us;
        break;
    }
    return DB_OK;
}

plan_vtype
plan__vtype_of(const plan_expr *e)
{
    plan_vtype t;
    memset(&t, 0, sizeof t);
    t.kind = e->vk;
    t.is_unsigned = e->t.is_unsigned;
    t.is_binary = e->t.is_binary;
    t.scale = e->t.scale == 31 ? 0 : e->t.scale;
    if (e->vk == PV_DECIMAL || e->vk == PV_DATETIME || e->vk == PV_TIME) {
        t.scale = e->t.scale;
    }
    return t;
}

uint32_t
plan__batch_cap(const plan_session *s)
{
    int64_t n = s->vars[plan__sysvar_find("batch_size")].i;
    if (n < 1) {
        n = 1;
    }
    return n > PLAN_BATCH_MAX ? PLAN_BATCH_MAX : (uint32_t)n;
}

/* The values of every column of row `row` of b, for row-at-a-time evaluation. */
static void
row_values(plan_op *op, const plan_batch *b, uint32_t row, plan_value *vals)
{
    (void)op;
    for (uint32_t c = 0; c < b->ncols; c++) {
        plan__batch_get(b, c, row, &vals[c]);
    }
}

/* ---- common operator plumbing ---- */

static void op_init(plan_op *op, plan_ectx *cx, plan_op *child, uint32_t cap);
static int op_open_base(plan_op *op, db_error *err);
static void op_close_base(plan_op *op);
static void op_batch_reset(plan_op *op);
static int emit_rows(plan_op *op, plan_batch *b, const plan_value *rows, const uint32_t *order,
                     size_t nrows, size_t *pos, plan_batch **out, db_error *err);

static void
op_init(plan_op *op, plan_ectx *cx, plan_op *child, uint32_t cap)
{
    op->cx = cx;
    op->child = child;
    op->cap = cap;
}

static int
op_open_base(plan_op *op, db_error *err)
{
    op->opened = true;
    op->ba = arena_new(0);
    return op->child ? op->child->open(op->child, err) : DB_OK;
}

static void
op_close_base(plan_op *op)
{
    if (op->child) {
        op->child->close(op->child);
    }
    arena_free(op->ba); /* NULL is fine */
    op->ba = NULL;
    op->opened = false;
}

/* STYLE §2.5 lifetime 4: the batch arena holds one batch's scratch (expression results). */
static void
op_batch_reset(plan_op *op)
{
    arena_reset(op->ba);
}

int
plan__op_drain(plan_op *root, plan_batch_fn fn, void *ctx, db_error *err)
{
    /* The outermost tree of the statement is charged to exec_mem_limit (plan_explain.c). */
    plan_session *s = root->cx->s;
    bool charged = s->lim_arena != NULL && s->lim_root == NULL;
    if (charged) {
        s->lim_root = root;
    }
    int rc = root->open(root, err);
    while (rc == DB_OK) {
        plan_batch *b = NULL;
        rc = root->next(root, &b, err);
        if (rc != DB_OK || !b) {
            break;
        }
        rc = fn(ctx, b, err);
    }
    root->close(root);
    if (charged) {
        s->lim_root = NULL;
    }
    return rc;
}

/* ---- scan over materialized rows ---- */

typedef struct op_rows {
    plan_op base;
    const plan_value *rows;
    size_t nrows;
    size_t pos;      /* next row to emit */
    plan_batch *out; /* allocated at open in the statement arena */
} op_rows;

static int rows_open(plan_op *op, db_error *err);
static int rows_next(plan_op *op, plan_batch **out, db_error *err);

static int
rows_open(plan_op *op, db_error *err)
{
    op_rows *r = (op_rows *)op;
    r->pos = 0;
    if (!r->out) {
        r->out = plan__batch_new(op->cx->a, op->types, op->ncols, op->cap);
    }
    return op_open_base(op, err);
}

/* Fill batch b from materialized rows (op->ncols values each) starting at *pos, in the order
 * given by order[] (NULL = stored order), until b is full or the rows run out. Used by the
 * operators that hold their input in memory (rows, sort). */
static int
emit_rows(plan_op *op, plan_batch *b, const plan_value *rows, const uint32_t *order, size_t nrows,
          size_t *pos, plan_batch **out, db_error *err)
{
    plan__batch_clear(b);
    while (b->nrows < b->cap && *pos < nrows) {
        size_t i = order != NULL ? order[*pos] : *pos;
        const plan_value *row = &rows[i * op->ncols];
        for (uint32_t c = 0; c < op->ncols; c++) {
            if (plan__batch_set(op->cx, b, c, b->nrows, &row[c], err) != DB_OK) {
                return DB_ERR;
            }
        }
        b->nrows++;
        (*pos)++;
    }
    *out = b;
    return DB_OK;
}

static int
rows_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_rows *r = (op_rows *)op;
    *out = NULL;
    if (r->pos >= r->nrows) {
        return DB_OK;
    }
    if (plan__check_interrupt(op->cx->s, err) != DB_OK) {
        return DB_ERR;
    }
    op_batch_reset(op);
    return emit_rows(op, r->out, r->rows, NULL, r->nrows, &r->pos, out, err);
}

/* EXPLAIN: information_schema tables are the materialized rows of a SELECT so far. */
static void
rows_describe(plan_op *op, plan_explain *ex)
{
    const op_rows *r = (const op_rows *)op;
    const char *vt = plan__explain_vtable(ex);
    if (vt) {
        plan__explain_printf(ex, "INFORMATION_SCHEMA SCAN(%s)", vt);
    } else {
        plan__explain_printf(ex, "VALUES(%zu rows)", r->nrows);
    }
}

plan_op *
plan__op_rows(plan_ectx *cx, const plan_vtype *types, uint32_t ncols, const plan_value *rows,
              size_t nrows, uint32_t cap)
{
    op_rows *r = arena_calloc(cx->a, 1, sizeof *r);
    op_init(&r->base, cx, NULL, cap);
    r->base.open = rows_open;
    r->base.next = rows_next;
    r->base.close = op_close_base;
    r->base.describe = rows_describe;
    r->base.ncols = ncols;
    r->base.types = arena_calloc(cx->a, ncols ? ncols : 1, sizeof(plan_vtype));
    if (ncols) {
        memcpy(r->base.types, types, ncols * sizeof(plan_vtype));
    }
    r->rows = rows;
    r->nrows = nrows;
    return &r->base;
}

/* ---- filter ---- */

typedef struct op_filter {
    plan_op base;
    const plan_expr *pred;
    plan_value *vals; /* one row of the child's columns */
    int vec;          /* -1 unknown; 1: pred is vectorizable (plan__vec_supported) */
} op_filter;

static int filter_next(plan_op *op, plan_batch **out, db_error *err);

/* Evaluate the predicate over the child's active rows; the survivors become the batch's
 * selection vector (allocated in the batch arena; the child's own selection is replaced). */
static int
filter_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_filter *f = (op_filter *)op;
    plan_ectx *cx = op->cx;
    *out = NULL;
    for (;;) {
        plan_batch *in;
        if (op->child->next(op->child, &in, err) != DB_OK) {
            return DB_ERR;
        }
        if (!in) {
            return DB_OK;
        }
        op_batch_reset(op);
        uint32_t n = plan__batch_active(in);
        uint32_t *sel = arena_alloc(op->ba, (n ? n : 1) * sizeof *sel);
        uint32_t nsel = 0;
        arena *stmt_a = cx->a;
        cx->a = op->ba; /* expression scratch lives for this batch only */
        int rc = DB_OK;
        if (f->vec < 0) {
            f->vec = plan__vec_supported(f->pred, op->child->types, op->child->ncols);
        }
        uint32_t *vsel;
        if (f->vec && plan__vec_filter(cx, op->ba, f->pred, in, &vsel, &nsel)) {
            sel = vsel;
            n = 0; /* done: no row-at-a-time pass */
        }
        for (uint32_t k = 0; k < n && rc == DB_OK; k++) {
            uint32_t row = plan__batch_row(in, k);
            row_values(op, in, row, f->vals);
            cx->row = f->vals;
            cx->nrow = in->ncols;
            plan_value v;
            rc = plan__eval(cx, f->pred, &v, err);
            if (rc == DB_OK && plan__v_truth(&v) == 1) {
                sel[nsel++] = row;
            }
        }
        cx->row = NULL;
        cx->a = stmt_a;
        if (rc != DB_OK) {
            return DB_ERR;
        }
        if (nsel > 0) {
            in->sel = sel;
            in->nsel = nsel;
            *out = in;
            return DB_OK;
        }
    }
}

static void
filter_describe(plan_op *op, plan_explain *ex)
{
    plan__explain_printf(ex, "FILTER(%s)", plan__explain_expr(ex, ((op_filter *)op)->pred));
}

plan_op *
plan__op_filter(plan_ectx *cx, plan_op *child, const plan_expr *pred)
{
    op_filter *f = arena_calloc(cx->a, 1, sizeof *f);
    op_init(&f->base, cx, child, child->cap);
    f->base.open = op_open_base;
    f->base.next = filter_next;
    f->base.close = op_close_base;
    f->base.describe = filter_describe;
    f->base.ncols = child->ncols;
    f->base.types = child->types;
    f->pred = pred;
    f->vec = -1;
    f->vals = arena_calloc(cx->a, child->ncols ? child->ncols : 1, sizeof(plan_value));
    return &f->base;
}

/* ---- project ---- */

typedef struct op_project {
    plan_op base;
    plan_expr *const *exprs;
    plan_value *vals;
    plan_batch *out;
    int vec;           /* -1 unknown; 1: every expression is vectorizable (plan__vec_supported) */
    uint32_t *src;     /* when every expression is a plain column reference: the child column
                          of each output column (statement arena), else NULL */
    plan_batch *share; /* project_share's output: a header whose vectors are the child's */
} op_project;

static int project_open(plan_op *op, db_error *err);
static int project_next(plan_op *op, plan_batch **out, db_error *err);
static int project_vec(op_project *p, const plan_batch *in, plan_batch *b, db_error *err);
static bool project_share(op_project *p, const plan_batch *in);

static int
project_open(plan_op *op, db_error *err)
{
    op_project *p = (op_project *)op;
    if (!p->out) {
        p->out = plan__batch_new(op->cx->a, op->types, op->ncols, op->cap);
    }
    return op_open_base(op, err);
}

/* Zero-copy projection of plain column references: when each output column's child vector
 * stores its values as the output column would (the kinds project_vec copies without a
 * conversion), p->share gets the child's vectors (under the output types) and selection and
 * nothing is copied. Valid as long as in is: until the child's next next or close, which only
 * this op's next or close calls (the batch contract). Parents may narrow p->share's selection;
 * no operator writes into an input batch's vectors. False: project_next copies. */
static bool
project_share(op_project *p, const plan_batch *in)
{
    plan_op *op = &p->base;
    for (uint32_t c = 0; c < op->ncols; c++) {
        const plan_vtype *f = &in->cols[p->src[c]].t, *t = &op->types[c];
        if (f->kind != t->kind || (t->kind == PV_INT && f->is_unsigned != t->is_unsigned) ||
            (t->kind == PV_DECIMAL && f->scale != t->scale)) {
            return false;
        }
    }
    plan_batch *b = p->share;
    for (uint32_t c = 0; c < op->ncols; c++) {
        b->cols[c] = in->cols[p->src[c]];
        b->cols[c].t = op->types[c];
    }
    b->cap = in->cap;
    b->nrows = in->nrows;
    b->sel = in->sel;
    b->nsel = in->nsel;
    return true;
}

/* project_next over whole vectors: DB_OK (b filled), DB_ERR, or DB_AGAIN when the row path
 * must do this batch (plan__vec_eval declined). */
static int
project_vec(op_project *p, const plan_batch *in, plan_batch *b, db_error *err)
{
    plan_op *op = &p->base;
    plan_ectx *cx = op->cx;
    uint32_t n = plan__batch_active(in);
    plan_vres *rs = arena_alloc(op->ba, (op->ncols ? op->ncols : 1) * sizeof *rs);
    for (uint32_t c = 0; c < op->ncols; c++) {
        if (!plan__vec_eval(cx, op->ba, p->exprs[c], in, NULL, 0, &rs[c])) {
            return DB_AGAIN;
        }
    }
    for (uint32_t c = 0; c < op->ncols; c++) {
        const plan_vres *r = &rs[c];
        const plan_vec *v = &b->cols[c];
        bool same = r->t.kind == v->t.kind &&
                    (r->t.kind != PV_INT || r->t.is_unsigned == v->t.is_unsigned) &&
                    (r->t.kind != PV_DECIMAL || r->t.scale == v->t.scale);
        if (!same && r->t.kind != PV_NULL) {
            p->vec = 0; /* a conversion (plan__batch_set): the row path, from now on */
            return DB_AGAIN;
        }
    }
    (void)err;
    for (uint32_t c = 0; c < op->ncols; c++) {
        const plan_vres *r = &rs[c];
        plan_vec *v = &b->cols[c];
        size_t es = r->t.kind == PV_DOUBLE    ? sizeof(double)
                    : r->t.kind == PV_DECIMAL ? sizeof(__int128)
                    : r->t.kind == PV_STRING  ? sizeof(plan_strv)
                                              : sizeof(int64_t);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = plan__batch_row(in, k);
            if (plan__vres_is_null(r, row)) {
                v->nulls[k >> 3] |= (uint8_t)(1u << (k & 7));
            } else {
                memcpy((char *)v->i + (size_t)k * es,
                       (const char *)r->p + (size_t)(row & r->mask) * es, es);
            }
        }
    }
    b->nrows = n;
    return DB_OK;
}

/* The child's batch itself when every item is a plain column reference (project_share), else
 * a dense output batch: one row per active input row, the expressions evaluated left to right
 * per row (so `@v := x` in one item is seen by the next, as MySQL). */
static int
project_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_project *p = (op_project *)op;
    plan_ectx *cx = op->cx;
    *out = NULL;
    plan_batch *in;
    if (op->child->next(op->child, &in, err) != DB_OK) {
        return DB_ERR;
    }
    if (!in) {
        return DB_OK;
    }
    op_batch_reset(op);
    if (p->vec < 0) {
        p->vec = 1;
        bool cols = true;
        for (uint32_t c = 0; c < op->ncols; c++) {
            p->vec &= plan__vec_supported(p->exprs[c], op->child->types, op->child->ncols);
            cols = cols && plan__expr_vop(p->exprs[c]) == PLAN_VOP_COLUMN &&
                   p->exprs[c]->slot >= 0 && (uint32_t)p->exprs[c]->slot < op->child->ncols;
        }
        if (cols && op->ncols > 0) {
            p->src = arena_alloc(cx->a, op->ncols * sizeof *p->src);
            for (uint32_t c = 0; c < op->ncols; c++) {
                p->src[c] = (uint32_t)p->exprs[c]->slot;
            }
            p->share = arena_calloc(cx->a, 1, sizeof *p->share);
            p->share->ncols = op->ncols;
            p->share->cap = op->cap;
            p->share->cols = arena_calloc(cx->a, op->ncols, sizeof *p->share->cols);
        }
    }
    if (p->src && in->ncols == op->child->ncols && project_share(p, in)) {
        if (plan__check_interrupt(cx->s, err) != DB_OK) {
            return DB_ERR;
        }
        *out = p->share;
        return DB_OK;
    }
    plan_batch *b = p->out;
    plan__batch_clear(b);
    uint32_t n = plan__batch_active(in);
    DB_ASSERT(n <= b->cap);
    arena *stmt_a = cx->a;
    cx->a = op->ba;
    int rc = DB_OK;
    if (p->vec) {
        rc = project_vec(p, in, b, err);
        if (rc == DB_OK) {
            n = 0; /* done: no row-at-a-time pass */
        } else if (rc == DB_ERR) {
            cx->a = stmt_a;
            return DB_ERR;
        } else {
            plan__batch_clear(b); /* the row path redoes this batch */
            rc = DB_OK;
        }
    }
    for (uint32_t k = 0; k < n && rc == DB_OK; k++) {
        row_values(op, in, plan__batch_row(in, k), p->vals);
        cx->row = p->vals;
        cx->nrow = in->ncols;
        for (uint32_t c = 0; c < op->ncols && rc == DB_OK; c++) {
            plan_value v;
            rc = plan__eval(cx, p->exprs[c], &v, err);
            if (rc == DB_OK) {
                rc = plan__batch_set(cx, b, c, k, &v, err);
            }
        }
        b->nrows = k + 1;
    }
    cx->row = NULL;
    cx->a = stmt_a;
    if (rc != DB_OK) {
        return DB_ERR;
    }
    if (plan__check_interrupt(cx->s, err) != DB_OK) {
        return DB_ERR;
    }
    *out = b;
    return DB_OK;
}

static const char *
project_col_name(plan_op *op, uint32_t c, plan_explain *ex)
{
    return c < op->ncols ? plan__explain_expr(ex, ((op_project *)op)->exprs[c]) : NULL;
}

static void
project_describe(plan_op *op, plan_explain *ex)
{
    plan__explain_printf(ex, "PROJECT(");
    for (uint32_t c = 0; c < op->ncols; c++) {
        plan__explain_printf(ex, "%s%s", c ? ", " : "", project_col_name(op, c, ex));
    }
    plan__explain_printf(ex, ")");
}

plan_op *
plan__op_project(plan_ectx *cx, plan_op *child, plan_expr *const *exprs, uint32_t n)
{
    op_project *p = arena_calloc(cx->a, 1, sizeof *p);
    op_init(&p->base, cx, child, child->cap);
    p->base.open = project_open;
    p->base.next = project_next;
    p->base.close = op_close_base;
    p->base.describe = project_describe;
    p->base.col_name = project_col_name;
    p->base.ncols = n;
    p->base.types = arena_calloc(cx->a, n ? n : 1, sizeof(plan_vtype));
    for (uint32_t i = 0; i < n; i++) {
        p->base.types[i] = plan__vtype_of(exprs[i]);
    }
    p->exprs = exprs;
    p->vec = -1;
    p->vals = arena_calloc(cx->a, child->ncols ? child->ncols : 1, sizeof(plan_value));
    return &p->base;
}

/* ---- sort ---- */

typedef struct op_sort {
    plan_op base;
    const plan_sort_key *keys;
    uint32_t nkeys;
    plan_value *rows; /* materialized input, ncols per row, strings copied (statement arena) */
    size_t nrows, cap_rows;
    uint32_t *order; /* sorted row numbers */
    uint32_t *tmp;   /* merge sort scratch */
    size_t pos;
    bool sorted;
    plan_batch *out;
    uint64_t keep;    /* TopN: only the first keep rows are wanted (0 = all) */
    plan_value *kbuf; /* TopN: keep rows of scratch, allocated once */
    bool has_bound;   /* TopN: rows[0, keep) are the best keep rows so far, sorted */
} op_sort;

static int sort_open(plan_op *op, db_error *err);
static int sort_next(plan_op *op, plan_batch **out, db_error *err);
static int sort_consume(op_sort *s, db_error *err);
static int sort_cmp(op_sort *s, uint32_t a, uint32_t b);
static void merge_sort(op_sort *s, uint32_t *v, uint32_t *tmp, size_t n);
static void topn_filter(op_sort *s, plan_batch *in);

static int
sort_open(plan_op *op, db_error *err)
{
    op_sort *s = (op_sort *)op;
    if (!s->out) {
        s->out = plan__batch_new(op->cx->a, op->types, op->ncols, op->cap);
    }
    s->nrows = 0;
    s->pos = 0;
    s->sorted = false;
    s->has_bound = false;
    return op_open_base(op, err);
}

/* Compare rows a and b by the keys; NULL is smaller than any value (MySQL). */
static int
sort_cmp(op_sort *s, uint32_t a, uint32_t b)
{
    uint32_t nc = s->base.ncols;
    for (uint32_t k = 0; k < s->nkeys; k++) {
        const plan_sort_key *key = &s->keys[k];
        const plan_value *x = &s->rows[(size_t)a * nc + key->col];
        const plan_value *y = &s->rows[(size_t)b * nc + key->col];
        int c;
        if (x->kind == PV_NULL || y->kind == PV_NULL) {
            c = (x->kind != PV_NULL) - (y->kind != PV_NULL);
            if (key->nulls && c != 0) { /* explicit NULLS FIRST / LAST ignores DESC */
                return key->nulls == 1 ? c : -c;
            }
        } else {
            c = plan__compare(s->base.cx, key->mode, x, y);
        }
        if (c != 0) {
            return key->desc ? -c : c;
        }
    }
    return 0;
}

void
plan__msort_rows(uint32_t *v, uint32_t *tmp, size_t n, plan_row_cmp_fn cmp, const void *ctx)
{
    if (n < 2) {
        return;
    }
    size_t h = n / 2;
    plan__msort_rows(v, tmp, h, cmp, ctx);
    plan__msort_rows(v + h, tmp, n - h, cmp, ctx);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        tmp[k++] = cmp(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++]; /* ties take the left run */
    }
    while (i < h) {
        tmp[k++] = v[i++];
    }
    while (j < n) {
        tmp[k++] = v[j++];
    }
    memcpy(v, tmp, n * sizeof *v);
}

static int
sort_cmp_fn(const void *ctx, uint32_t a, uint32_t b)
{
    return sort_cmp((op_sort *)(uintptr_t)ctx, a, b);
}

/* Stable: equal rows keep their input order. */
static void
merge_sort(op_sort *s, uint32_t *v, uint32_t *tmp, size_t n)
{
    plan__msort_rows(v, tmp, n, sort_cmp_fn, s);
}

void
plan__rows_append(arena *a, plan_value **rows, size_t *nrows, size_t *cap, uint32_t nc,
                  const plan_batch *b)
{
    uint32_t n = plan__batch_active(b);
    if (*nrows + n > *cap) {
        size_t ncap = *cap ? *cap * 2 : 1024;
        while (ncap < *nrows + n) {
            ncap *= 2;
        }
        plan_value *nr = arena_alloc(a, ncap * nc * sizeof *nr + 1);
        if (*nrows) {
            memcpy(nr, *rows, *nrows * nc * sizeof *nr);
        }
        *rows = nr;
        *cap = ncap;
    }
    for (uint32_t k = 0; k < n; k++) {
        plan_value *dst = &(*rows)[*nrows * nc];
        for (uint32_t c = 0; c < nc; c++) {
            plan__batch_get(b, c, plan__batch_row(b, k), &dst[c]);
            if (dst[c].kind == PV_STRING && dst[c].str.len) {
                dst[c].str.s = arena_strndup(a, dst[c].str.s, dst[c].str.len);
            }
        }
        (*nrows)++;
    }
}

/* TopN: row `row` of in against the bound row (keys as sort_cmp compares them): <0, 0, >0.
 * Conversions go to cx->a. Kept out of topn_filter's loop, which calls it for NULLs and ties
 * of the first key only. */
static __attribute__((noinline)) int
topn_cmp_row(op_sort *s, const plan_batch *in, uint32_t row, const plan_value *bound)
{
    int c = 0;
    for (uint32_t j = 0; j < s->nkeys && c == 0; j++) {
        const plan_sort_key *key = &s->keys[j];
        plan_value x;
        plan__batch_get(in, key->col, row, &x);
        const plan_value *y = &bound[key->col];
        if (x.kind == PV_NULL || y->kind == PV_NULL) {
            c = (x.kind != PV_NULL) - (y->kind != PV_NULL);
            if (key->nulls && c != 0) {
                return key->nulls == 1 ? c : -c;
            }
        } else {
            c = plan__compare(s->base.cx, key->mode, &x, y);
        }
        if (c != 0 && key->desc) {
            c = -c;
        }
    }
    return c;
}

/* TopN: narrow in's selection to the rows that sort strictly before row s->keep - 1 of
 * s->rows (sorted and kept by topn_prune), by the keys as sort_cmp compares them. */
static void
topn_filter(op_sort *s, plan_batch *in)
{
    plan_op *op = &s->base;
    uint32_t nc = op->ncols;
    const plan_value *bound = &s->rows[(size_t)(s->keep - 1) * nc];
    uint32_t n = plan__batch_active(in);
    uint32_t *sel = arena_alloc(op->ba, (n ? n : 1) * sizeof *sel);
    uint32_t m = 0;
    arena *stmt_a = op->cx->a;
    op->cx->a = op->ba;
    /* The first key, when its column and the bound are of one kind plan__compare compares
     * directly: a tight loop; the other rows (NULLs, ties) take topn_cmp_row. Everything the
     * loop reads is in locals (the stores to sel could otherwise alias the vector's fields). */
    const plan_sort_key *k0 = &s->keys[0];
    const plan_vec *v0 = &in->cols[k0->col];
    const plan_value *y0 = &bound[k0->col];
    plan_vkind vk0 = v0->t.kind;
    bool temporal = vk0 == PV_DATE || vk0 == PV_DATETIME || vk0 == PV_TIME;
    bool fast =
            s->nkeys >= 1 && y0->kind == (uint8_t)vk0 &&
            ((k0->mode == PLAN_CMP_INT && vk0 == PV_INT) ||
             (k0->mode == PLAN_CMP_UINT && vk0 == PV_INT && v0->t.is_unsigned && y0->is_unsigned) ||
             (k0->mode == PLAN_CMP_DECIMAL && vk0 == PV_DECIMAL && v0->t.scale == y0->scale) ||
             (k0->mode == PLAN_CMP_DOUBLE && vk0 == PV_DOUBLE) ||
             (k0->mode == PLAN_CMP_DATETIME && temporal));
    /* 0: general; 1: DECIMAL; 2: DOUBLE; 3: unsigned; 4: signed / temporal. */
    int how = !fast                       ? 0
              : vk0 == PV_DECIMAL         ? 1
              : vk0 == PV_DOUBLE          ? 2
              : k0->mode == PLAN_CMP_UINT ? 3
                                          : 4;
    const uint32_t *isel = in->sel;
    const uint8_t *nulls = v0->nulls;
    const __int128 *xdec = v0->dec;
    const double *xd = v0->d;
    const int64_t *xi = v0->i;
    __int128 ydec = how == 1 ? y0->dec : 0;
    double yd = how == 2 ? y0->d : 0;
    int64_t yi = how >= 3 ? y0->i : 0;
    int dir = k0->desc ? -1 : 1;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = isel ? isel[k] : k;
        int c = 0;
        if (how != 0 && !((nulls[row >> 3] >> (row & 7)) & 1)) {
            switch (how) {
            case 1:
                c = xdec[row] < ydec ? -1 : xdec[row] > ydec;
                break;
            case 2:
                c = xd[row] < yd ? -1 : xd[row] > yd;
                break;
            case 3:
                c = (uint64_t)xi[row] < (uint64_t)yi ? -1 : (uint64_t)xi[row] > (uint64_t)yi;
                break;
            default:
                c = xi[row] < yi ? -1 : xi[row] > yi;
                break;
            }
            c *= dir;
        }
        if (c == 0) {
            c = topn_cmp_row(s, in, row, bound);
        }
        sel[m] = row;
        m += c < 0;
    }
    op->cx->a = stmt_a;
    in->sel = sel;
    in->nsel = m;
}

/* TopN: stably sort the rows gathered so far and keep the first s->keep of them (the rest can
 * never reach the output: a stable sort of everything would put them after those). */
static void
topn_prune(op_sort *s)
{
    plan_op *op = &s->base;
    uint32_t nc = op->ncols;
    arena *a = op->cx->a;
    uint32_t *order = arena_alloc(op->ba, s->nrows * sizeof *order);
    uint32_t *tmp = arena_alloc(op->ba, s->nrows * sizeof *tmp);
    for (size_t i = 0; i < s->nrows; i++) {
        order[i] = (uint32_t)i;
    }
    arena *stmt_a = op->cx->a;
    op->cx->a = op->ba;
    merge_sort(s, order, tmp, s->nrows);
    op->cx->a = stmt_a;
    size_t keep = s->keep < s->nrows ? (size_t)s->keep : s->nrows;
    if (s->kbuf == NULL) {
        s->kbuf = arena_alloc(a, (size_t)s->keep * nc * sizeof *s->kbuf + 1);
    }
    for (size_t i = 0; i < keep; i++) {
        memcpy(&s->kbuf[i * nc], &s->rows[(size_t)order[i] * nc], nc * sizeof *s->kbuf);
    }
    memcpy(s->rows, s->kbuf, keep * nc * sizeof *s->rows); /* the kept rows move to the front */
    s->nrows = keep;
    s->has_bound = keep > 0 && keep == s->keep;
    arena_reset(op->ba);
}

/* Pull every child batch and copy its active rows (string bytes too: the child's batch arena
 * is reset at its next call) into the statement arena. */
static int
sort_consume(op_sort *s, db_error *err)
{
    plan_op *op = &s->base;
    arena *a = op->cx->a;
    uint32_t nc = op->ncols;
    for (;;) {
        plan_batch *in;
        if (op->child->next(op->child, &in, err) != DB_OK) {
            return DB_ERR;
        }
        if (!in) {
            break;
        }
        op_batch_reset(op); /* topn_filter's selection of the previous batch */
        if (s->has_bound) {
            /* TopN with a full set: only rows sorting before the current last kept one can
             * still be output (a row equal to it comes after it: the sort is stable). */
            uint32_t *saved = in->sel, nsaved = in->nsel;
            topn_filter(s, in);
            plan__rows_append(a, &s->rows, &s->nrows, &s->cap_rows, nc, in);
            in->sel = saved;
            in->nsel = nsaved;
        } else {
            plan__rows_append(a, &s->rows, &s->nrows, &s->cap_rows, nc, in);
        }
        if (s->keep > 0 && s->nrows >= 2 * s->keep + 4096) {
            topn_prune(s); /* ORDER BY ... LIMIT: keep only the rows that can still be output */
        }
        if (plan__check_interrupt(op->cx->s, err) != DB_OK) {
            return DB_ERR;
        }
    }
    DB_ASSERT(s->nrows <= UINT32_MAX);
    s->order = arena_alloc(a, (s->nrows ? s->nrows : 1) * sizeof *s->order);
    s->tmp = arena_alloc(a, (s->nrows ? s->nrows : 1) * sizeof *s->tmp);
    for (size_t i = 0; i < s->nrows; i++) {
        s->order[i] = (uint32_t)i;
    }
    /* Comparisons may convert text (cx->a): scratch of the batch arena, reset afterwards. */
    arena *stmt_a = op->cx->a;
    op->cx->a = op->ba;
    merge_sort(s, s->order, s->tmp, s->nrows);
    op->cx->a = stmt_a;
    s->sorted = true;
    return DB_OK;
}

static int
sort_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_sort *s = (op_sort *)op;
    *out = NULL;
    if (!s->sorted && sort_consume(s, err) != DB_OK) {
        return DB_ERR;
    }
    if (s->pos >= s->nrows) {
        return DB_OK;
    }
    op_batch_reset(op);
    return emit_rows(op, s->out, s->rows, s->order, s->nrows, &s->pos, out, err);
}

static void
sort_describe(plan_op *op, plan_explain *ex)
{
    const op_sort *s = (const op_sort *)op;
    plan__explain_printf(ex, "SORT(");
    for (uint32_t k = 0; k < s->nkeys; k++) {
        const plan_sort_key *key = &s->keys[k];
        plan__explain_printf(ex, "%s%s%s%s", k ? ", " : "",
                             plan__explain_col(ex, op->child, key->col), key->desc ? " DESC" : "",
                             key->nulls == 1   ? " NULLS FIRST"
                             : key->nulls == 2 ? " NULLS LAST"
                                               : "");
    }
    plan__explain_printf(ex, ")");
}

plan_op *
plan__op_sort(plan_ectx *cx, plan_op *child, const plan_sort_key *keys, uint32_t nkeys)
{
    op_sort *s = arena_calloc(cx->a, 1, sizeof *s);
    op_init(&s->base, cx, child, child->cap);
    s->base.open = sort_open;
    s->base.next = sort_next;
    s->base.close = op_close_base;
    s->base.describe = sort_describe;
    s->base.ncols = child->ncols;
    s->base.types = child->types;
    for (uint32_t k = 0; k < nkeys; k++) {
        DB_ASSERT(keys[k].col < child->ncols);
    }
    s->keys = keys;
    s->nkeys = nkeys;
    return &s->base;
}

void
plan__op_sort_topn(plan_op *op, uint64_t keep)
{
    ((op_sort *)op)->keep = keep;
}

/* ---- limit / offset ---- */

typedef struct op_limit {
    plan_op base;
    uint64_t offset, count;
    uint64_t skipped, passed;
} op_limit;

static int limit_open(plan_op *op, db_error *err);
static int limit_next(plan_op *op, plan_batch **out, db_error *err);

static int
limit_open(plan_op *op, db_error *err)
{
    op_limit *l = (op_limit *)op;
    l->skipped = 0;
    l->passed = 0;
    return op_open_base(op, err);
}

/* Narrow the child's selection: drop the first offset rows overall, keep count rows. */
static int
limit_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_limit *l = (op_limit *)op;
    *out = NULL;
    while (l->passed < l->count) {
        plan_batch *in;
        if (op->child->next(op->child, &in, err) != DB_OK) {
            return DB_ERR;
        }
        if (!in) {
            return DB_OK;
        }
        uint32_t n = plan__batch_active(in);
        uint64_t skip = l->offset - l->skipped;
        if (skip >= n) {
            l->skipped += n;
            continue;
        }
        l->skipped += skip;
        uint64_t take = n - skip;
        if (take > l->count - l->passed) {
            take = l->count - l->passed;
        }
        if (skip > 0 || take < n) {
            op_batch_reset(op);
            uint32_t *sel = arena_alloc(op->ba, take * sizeof *sel);
            for (uint64_t k = 0; k < take; k++) {
                sel[k] = plan__batch_row(in, (uint32_t)(skip + k));
            }
            in->sel = sel;
            in->nsel = (uint32_t)take;
        }
        l->passed += take;
        *out = in;
        return DB_OK;
    }
    return DB_OK;
}

static void
limit_describe(plan_op *op, plan_explain *ex)
{
    const op_limit *l = (const op_limit *)op;
    if (l->offset) {
        plan__explain_printf(ex, "LIMIT(%llu, offset %llu)", (unsigned long long)l->count,
                             (unsigned long long)l->offset);
    } else {
        plan__explain_printf(ex, "LIMIT(%llu)", (unsigned long long)l->count);
    }
}

plan_op *
plan__op_limit(plan_ectx *cx, plan_op *child, uint64_t offset, uint64_t count)
{
    op_limit *l = arena_calloc(cx->a, 1, sizeof *l);
    op_init(&l->base, cx, child, child->cap);
    l->base.open = limit_open;
    l->base.next = limit_next;
    l->base.close = op_close_base;
    l->base.describe = limit_describe;
    l->base.ncols = child->ncols;
    l->base.types = child->types;
    l->offset = offset;
    l->count = count;
    return &l->base;
}
