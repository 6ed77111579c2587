/* SPDX-License-Identifier: Apache-2.0
 * The vectorized expression evaluator (plan_vector.c) against the row path: the same
 * expressions over random batches (NULLs, edge values, with and without a selection vector)
 * evaluated both ways must give equal values row by row (kind, sign, scale, value), equal
 * filter selections, and the vector path must decline (fall back) exactly when a row fails.
 * Operators: filter + hash aggregation, project + TopN sort, vectorized against the same
 * expressions wrapped in a node only the row path knows (results and errors equal). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "plan_testutil.h"
#include "planner/plan_exec_int.h"

#define NCOLS 9

/* Columns: k BIGINT, u BIGINT UNSIGNED, q INT (small), x DOUBLE, m DECIMAL(12,2),
 * w DECIMAL(20,4), d DATE, t DATETIME, s VARCHAR. */
static const char *const col_names[NCOLS] = {"k", "u", "q", "x", "m", "w", "d", "t", "s"};

typedef struct fixture {
    tx *t;
    plan_ectx cx;
    plan_vtype types[NCOLS];
    plan_bind_col binds[NCOLS];
    uint64_t rnd;
} fixture;

static uint64_t
rnd(fixture *f)
{
    f->rnd ^= f->rnd << 13;
    f->rnd ^= f->rnd >> 7;
    f->rnd ^= f->rnd << 17;
    return f->rnd;
}

static void
fx_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->t = tx_new();
    f->rnd = 0x9E3779B97F4A7C15ull;
    plan__ectx_init(&f->cx, f->t->s, f->t->a, "", 0);
    for (int i = 0; i < NCOLS; i++) {
        plan_bind_col *b = &f->binds[i];
        b->name = col_names[i];
        switch (i) {
        case 0:
        case 2:
            plan__type_bigint(&b->t, 20, true);
            b->vk = PV_INT;
            break;
        case 1:
            plan__type_bigint(&b->t, 20, true);
            b->t.is_unsigned = true;
            b->vk = PV_INT;
            break;
        case 3:
            plan__type_double(&b->t, true);
            b->vk = PV_DOUBLE;
            break;
        case 4:
            plan__type_decimal(&b->t, 12, 2, true);
            b->vk = PV_DECIMAL;
            break;
        case 5:
            plan__type_decimal(&b->t, 20, 4, true);
            b->vk = PV_DECIMAL;
            break;
        case 6:
            plan__type_datetime(&b->t, PLAN_TYPE_DATE, 0, true);
            b->vk = PV_DATE;
            break;
        case 7:
            plan__type_datetime(&b->t, PLAN_TYPE_DATETIME, 0, true);
            b->vk = PV_DATETIME;
            break;
        default:
            plan__type_string(&b->t, 16, true);
            b->vk = PV_STRING;
            break;
        }
        f->types[i].kind = b->vk;
        f->types[i].is_unsigned = b->t.is_unsigned;
        f->types[i].scale = b->vk == PV_DECIMAL ? b->t.scale : 0;
    }
}

static plan_expr *
expr_of(fixture *f, const char *text)
{
    char *sql = arena_sprintf(f->t->a, "SELECT %s", text);
    plan_stmt *st;
    db_error err;
    cr_assert_eq(plan__parse(f->t->a, sql, strlen(sql), false, false, false, &st, &err), DB_OK,
                 "%s: %s", text, err.msg);
    f->cx.sql = sql;
    f->cx.sql_len = strlen(sql);
    plan_expr *e;
    cr_assert_eq(plan__analyze(&f->cx, st->items[0].expr, f->binds, NCOLS, "field list", &e, &err),
                 DB_OK, "%s: %s", text, err.msg);
    return e;
}

static int64_t
pick_int(fixture *f, int64_t small)
{
    static const int64_t edges[] = {0,         1,         -1,           INT64_MAX,
                                    INT64_MIN, INT32_MAX, 3037000499LL, -3037000500LL};
    uint64_t r = rnd(f);
    if (r % 8 == 0) {
        return edges[(r >> 8) % (sizeof edges / sizeof edges[0])];
    }
    return (int64_t)((r >> 16) % (uint64_t)(2 * small + 1)) - small;
}

/* A random batch of n rows (about 1 in 6 cells NULL), with a selection vector when sel. */
static plan_batch *
make_batch(fixture *f, uint32_t n, bool sel)
{
    static const char *const strs[] = {"a", "B", "abc", "2024-03-01", "12", " x", ""};
    plan_batch *b = plan__batch_new(f->t->a, f->types, NCOLS, n);
    for (uint32_t r = 0; r < n; r++) {
        for (uint32_t c = 0; c < NCOLS; c++) {
            plan_vec *v = &b->cols[c];
            if (rnd(f) % 6 == 0) {
                v->nulls[r >> 3] |= (uint8_t)(1u << (r & 7));
                continue;
            }
            int64_t us_day = 86400000000LL;
            switch (c) {
            case 0:
                v->i[r] = pick_int(f, 20);
                break;
            case 1:
                v->i[r] = (int64_t)(rnd(f) % 8 == 0 ? UINT64_MAX - rnd(f) % 3 : rnd(f) % 40);
                break;
            case 2:
                v->i[r] = (int64_t)(rnd(f) % 21) - 5;
                break;
            case 3:
                v->d[r] = rnd(f) % 9 == 0 ? 1e308 : (double)pick_int(f, 50) / 4.0;
                break;
            case 4:
                v->dec[r] = (__int128)pick_int(f, 100000) % 100000000000LL;
                break;
            case 5:
                v->dec[r] = rnd(f) % 10 == 0 ? (__int128)INT64_MAX * 1000000
                                             : (__int128)pick_int(f, 5000000);
                break;
            case 6:
                v->i[r] = (19723 + (int64_t)(rnd(f) % 366)) * us_day; /* 2024 */
                break;
            case 7:
                v->i[r] = (19723 + (int64_t)(rnd(f) % 366)) * us_day +
                          (int64_t)(rnd(f) % 86400) * 1000000;
                break;
            default:
                v->s[r].s = strs[rnd(f) % 7];
                v->s[r].len = strlen(v->s[r].s);
                break;
            }
        }
    }
    b->nrows = n;
    if (sel) {
        b->sel = arena_alloc(f->t->a, n * sizeof *b->sel);
        for (uint32_t r = 0; r < n; r++) {
            if (rnd(f) % 3) {
                b->sel[b->nsel++] = r;
            }
        }
    }
    return b;
}

static bool
value_eq(const plan_value *a, const plan_value *b)
{
    if (a->kind != b->kind) {
        return false;
    }
    switch (a->kind) {
    case PV_NULL:
        return true;
    case PV_INT:
        return a->i == b->i && a->is_unsigned == b->is_unsigned;
    case PV_DOUBLE:
        return a->d == b->d || (a->d != a->d && b->d != b->d);
    case PV_DECIMAL:
        return a->dec == b->dec && a->scale == b->scale;
    case PV_STRING:
        return a->str.len == b->str.len && memcmp(a->str.s, b->str.s, a->str.len) == 0;
    default:
        return a->us == b->us;
    }
}

/* Evaluate text both ways over nbatches random batches; expect_vec: the expression must be
 * vectorizable. Returns how many batches the vector path declined. */
static int
check_expr(fixture *f, const char *text, int nbatches)
{
    plan_expr *e = expr_of(f, text);
    cr_assert(plan__vec_supported(e, f->types, NCOLS), "not vectorizable: %s", text);
    int declined = 0;
    for (int bi = 0; bi < nbatches; bi++) {
        plan_batch *b = make_batch(f, 1 + (uint32_t)(rnd(f) % 300), bi % 2 == 1);
        uint32_t n = plan__batch_active(b);
        plan_value *want = arena_calloc(f->t->a, n + 1, sizeof *want);
        plan_value *vals = arena_calloc(f->t->a, NCOLS, sizeof *vals);
        bool row_failed = false;
        size_t warns = f->t->s->warn_total;
        for (uint32_t k = 0; k < n && !row_failed; k++) {
            uint32_t row = plan__batch_row(b, k);
            for (uint32_t c = 0; c < NCOLS; c++) {
                plan__batch_get(b, c, row, &vals[c]);
            }
            f->cx.row = vals;
            f->cx.nrow = NCOLS;
            db_error err;
            row_failed = plan__eval(&f->cx, e, &want[k], &err) != DB_OK;
        }
        f->cx.row = NULL;
        cr_assert_eq(f->t->s->warn_total, warns, "%s: the row path warned", text);
        plan_vres r;
        bool ok = plan__vec_eval(&f->cx, f->t->a, e, b, NULL, 0, &r);
        if (row_failed) {
            cr_assert(!ok, "%s: batch %d: the row path failed, the vector path did not", text, bi);
            declined++;
            continue;
        }
        cr_assert(ok, "%s: batch %d: the vector path declined a batch the row path ran", text, bi);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = plan__batch_row(b, k);
            plan_value got;
            plan__vres_get(&r, row, &got);
            cr_assert(value_eq(&got, &want[k]),
                      "%s: batch %d row %u: vector kind %d / row path kind %d differ", text, bi,
                      row, got.kind, want[k].kind);
        }
        /* as a filter */
        uint32_t *sel, nsel;
        cr_assert(plan__vec_filter(&f->cx, f->t->a, e, b, &sel, &nsel), "%s", text);
        uint32_t m = 0;
        for (uint32_t k = 0; k < n; k++) {
            if (plan__v_truth(&want[k]) == 1) {
                cr_assert_lt(m, nsel, "%s", text);
                cr_assert_eq(sel[m], plan__batch_row(b, k), "%s", text);
                m++;
            }
        }
        cr_assert_eq(m, nsel, "%s: filter selected %u rows, row path %u", text, nsel, m);
    }
    return declined;
}

static const char *const exprs[] = {
        /* leaves */
        "k",
        "u",
        "x",
        "m",
        "w",
        "d",
        "t",
        "s",
        "42",
        "NULL",
        "2.50",
        "'abc'",
        /* comparisons of every mode */
        "k = q",
        "k <> 3",
        "k < q",
        "k <= -1",
        "k > 5",
        "k >= q",
        "k <=> q",
        "k <=> NULL",
        "NULL <=> k",
        "k = NULL",
        "u > k",
        "u = 3",
        "u < 18446744073709551615",
        "k > u",
        "m > 100",
        "m >= 1.5",
        "m < 0.001",
        "m = w",
        "m < k",
        "w > 3.14159",
        "m <=> w",
        "x > 1.5",
        "x = k",
        "x < m",
        "x >= 1e300",
        "k > 2.5",
        "q = 2.0",
        "d >= '2024-03-01'",
        "d < '2024-06-01 12:00:00'",
        "t > '2024-03-01'",
        "d = t",
        "t <= d",
        "d > 'garbage'",
        "s = 'abc'",
        "s < 'b'",
        "d <=> NULL",
        /* BETWEEN, IN */
        "k BETWEEN 1 AND 10",
        "k NOT BETWEEN q AND 10",
        "m BETWEEN 0 AND 500.5",
        "d BETWEEN '2024-02-01' AND '2024-05-01'",
        "x BETWEEN NULL AND 3",
        "k BETWEEN -5 AND NULL",
        "k IN (1, 2, 3)",
        "k NOT IN (1, 2, 3)",
        "k IN (1, NULL)",
        "k NOT IN (1, NULL)",
        "m IN (1.00, 2.5, 7)",
        "u IN (1, 5, 18446744073709551615)",
        "d IN ('2024-01-01', t)",
        "q IN (k, 2, NULL)",
        "x IN (1, 2.5, m)",
        /* logic */
        "k > 5 AND q < 3",
        "k > 5 OR q < 3",
        "k > 5 XOR q < 3",
        "NOT k > 5",
        "NOT k",
        "k AND q",
        "k OR NULL",
        "NULL AND q",
        "(k > 5 OR m > 10) AND NOT (d < '2024-03-01')",
        "k IS NULL",
        "k IS NOT NULL",
        "k > 5 IS TRUE",
        "q IS FALSE",
        "m IS NOT TRUE",
        "x AND m",
        "d >= '2024-03-01' AND q > 5",
        "s AND k",
        "q > 0 AND k * q > 10",
        /* arithmetic */
        "k + q",
        "k - q",
        "k * q",
        "q * 3 - 7",
        "u + 1",
        "u - k",
        "u * q",
        "k + u",
        "m + 1",
        "m - w",
        "m * q",
        "m * w",
        "w * w",
        "m * 2.5",
        "k + 0.5",
        "x + 1",
        "x * m",
        "x - k",
        "x * x",
        "(k + q) * 2 > m",
        "+k",
        "(q)",
        "-q + 0 + q",
        "k + NULL",
        "m * NULL",
        "-k",
        "-u",
        "-m",
        "-x",
        "-(k * q)",
        "k > -q",
        "-NULL",
        "-(-5)",
};

Test(vector, same_as_row_path)
{
    fixture f;
    fx_init(&f);
    int declined = 0;
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        declined += check_expr(&f, exprs[i], 24);
    }
    /* overflow edges (INT64_MAX, UINT64_MAX, 1e308) must have made some batches decline */
    cr_expect_gt(declined, 0);
    tx_free(f.t);
}

Test(vector, unsupported_stays_on_row_path)
{
    fixture f;
    fx_init(&f);
    static const char *const no[] = {
            "k / q",          "k DIV q", "k MOD 3", "@v := k", "s LIKE 'a%'",
            "CONCAT(s, 'x')", "x > s",   "m = s",   "k + s",   "CASE WHEN k > 1 THEN 1 END",
            "ABS(k) > 1"};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        cr_expect(!plan__vec_supported(expr_of(&f, no[i]), f.types, NCOLS), "%s", no[i]);
    }
    tx_free(f.t);
}

/* ---- operators: vectorized vs forced row path ---- */

/* e evaluated through one more node the vector evaluator does not know: the row path. */
static int
eval_wrap(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    return plan__eval(cx, e->args[0], out, err);
}

static plan_expr *
wrap(fixture *f, plan_expr *e)
{
    plan_expr *w = arena_alloc(f->t->a, sizeof *w);
    *w = *e;
    w->eval = eval_wrap;
    w->args = arena_alloc(f->t->a, sizeof *w->args);
    w->args[0] = e;
    w->nargs = 1;
    return w;
}

/* An aggregate typed as plan_select.c types it; arg NULL for COUNT(*). */
static plan_agg
mk_agg(fixture *f, plan_agg_kind kind, const char *arg, bool distinct, bool row_path)
{
    plan_agg ag;
    memset(&ag, 0, sizeof ag);
    ag.kind = kind;
    ag.distinct = distinct;
    if (arg) {
        plan_expr *e = expr_of(f, arg);
        ag.arg = row_path ? wrap(f, e) : e;
    }
    switch (kind) {
    case PLAN_AGG_COUNT_STAR:
    case PLAN_AGG_COUNT:
        plan__type_bigint(&ag.t, 21, false);
        ag.vk = PV_INT;
        break;
    case PLAN_AGG_MIN:
    case PLAN_AGG_MAX:
        ag.t = ag.arg->t;
        ag.t.nullable = true;
        ag.vk = ag.arg->vk;
        break;
    default: /* SUM, AVG */
        if (ag.arg->vk == PV_INT || ag.arg->vk == PV_DECIMAL) {
            int scale = ag.arg->vk == PV_DECIMAL ? ag.arg->t.scale : 0;
            bool avg = kind == PLAN_AGG_AVG;
            int prec = plan__num_prec(&ag.arg->t) + (avg ? f->cx.div_incr : 22);
            scale += avg ? f->cx.div_incr : 0;
            plan__type_decimal(&ag.t, prec > 38 ? 38 : prec, scale > 30 ? 30 : scale, true);
            ag.vk = PV_DECIMAL;
        } else {
            plan__type_double(&ag.t, true);
            ag.vk = PV_DOUBLE;
        }
        break;
    }
    return ag;
}

typedef struct out_rows {
    arena *a;
    plan_value *v;
    size_t n, cap;
    uint32_t ncols;
} out_rows;

static int
out_fn(void *ctx, const plan_batch *b, db_error *err)
{
    (void)err;
    out_rows *o = ctx;
    plan__rows_append(o->a, &o->v, &o->n, &o->cap, b->ncols, b);
    o->ncols = b->ncols;
    return DB_OK;
}

typedef struct run_result {
    int rc;
    db_error err;
    out_rows rows;
} run_result;

static void
drain(fixture *f, plan_op *op, run_result *r)
{
    memset(r, 0, sizeof *r);
    r->rows.a = f->t->a;
    r->rc = plan__op_drain(op, out_fn, &r->rows, &r->err);
}

static void
same_results(const char *what, const run_result *a, const run_result *b)
{
    cr_assert_eq(a->rc, b->rc, "%s: rc %d vs %d (%s / %s)", what, a->rc, b->rc, a->err.msg,
                 b->err.msg);
    if (a->rc != DB_OK) {
        cr_assert_eq(a->err.code, b->err.code, "%s", what);
        cr_assert_str_eq(a->err.msg, b->err.msg, "%s", what);
        return;
    }
    cr_assert_eq(a->rows.n, b->rows.n, "%s: %zu vs %zu rows", what, a->rows.n, b->rows.n);
    size_t nc = a->rows.ncols;
    for (size_t i = 0; i < a->rows.n * nc; i++) {
        cr_assert(value_eq(&a->rows.v[i], &b->rows.v[i]), "%s: row %zu col %zu differ", what,
                  i / nc, i % nc);
    }
}

/* n random rows (values of make_batch batches) for plan__op_rows. */
static plan_value *
random_rows(fixture *f, size_t n)
{
    plan_value *rows = arena_alloc(f->t->a, n * NCOLS * sizeof *rows);
    size_t i = 0;
    while (i < n) {
        plan_batch *b = make_batch(f, 256, false);
        for (uint32_t r = 0; r < b->nrows && i < n; r++, i++) {
            for (uint32_t c = 0; c < NCOLS; c++) {
                plan__batch_get(b, c, r, &rows[i * NCOLS + c]);
            }
        }
    }
    return rows;
}

Test(vector, hash_aggregation_same_as_row_path)
{
    fixture f;
    fx_init(&f);
    static const char *const keysets[][2] = {{NULL, NULL}, {"q", NULL},     {"s", NULL},
                                             {"d", "q"},   {"k > 5", NULL}, {"m", "u"}};
    static const char *const preds[] = {NULL, "q > 2 AND d >= '2024-03-01'", "k IS NULL OR m > 10"};
    size_t nrows = 3000;
    plan_value *rows = random_rows(&f, nrows);
    int nerr = 0, nsum = 0;
    for (int variant = 0; variant < 4; variant++) {
        for (size_t ks = 0; ks < sizeof keysets / sizeof keysets[0]; ks++) {
            for (size_t pi = 0; pi < sizeof preds / sizeof preds[0]; pi++) {
                run_result res[2];
                for (int row_path = 0; row_path < 2; row_path++) {
                    plan_expr *keys[2];
                    uint32_t nkeys = 0;
                    for (int k = 0; k < 2 && keysets[ks][k]; k++) {
                        plan_expr *e = expr_of(&f, keysets[ks][k]);
                        keys[nkeys++] = row_path ? wrap(&f, e) : e;
                    }
                    plan_agg aggs[12];
                    uint32_t na = 0;
                    if (variant >= 2) {
                        /* only COUNT / SUM / AVG: the aggregate-by-aggregate folds; variant 3
                         * overflows the DECIMAL sums (both must fail at the same aggregate) */
                        const char *big = variant == 3 ? "w * 1000000000000" : "w";
                        aggs[na++] = mk_agg(&f, PLAN_AGG_COUNT_STAR, NULL, false, row_path);
                        aggs[na++] = mk_agg(&f, PLAN_AGG_COUNT, "d", false, row_path);
                        aggs[na++] = mk_agg(&f, PLAN_AGG_SUM, "m", false, row_path);
                        aggs[na++] = mk_agg(&f, PLAN_AGG_AVG, "q", false, row_path);
                        aggs[na++] = mk_agg(&f, PLAN_AGG_SUM, "x", false, row_path);
                        aggs[na++] = mk_agg(&f, PLAN_AGG_AVG, big, false, row_path);
                        aggs[na++] = mk_agg(&f, PLAN_AGG_SUM, big, false, row_path);
                        aggs[na++] = mk_agg(&f, PLAN_AGG_AVG, "k", false, row_path);
                        goto built;
                    }
                    aggs[na++] = mk_agg(&f, PLAN_AGG_COUNT_STAR, NULL, false, row_path);
                    aggs[na++] = mk_agg(&f, PLAN_AGG_COUNT, "m", false, row_path);
                    aggs[na++] = mk_agg(&f, PLAN_AGG_SUM, "m", false, row_path);
                    aggs[na++] = mk_agg(&f, PLAN_AGG_AVG, "q", false, row_path);
                    aggs[na++] = mk_agg(&f, PLAN_AGG_SUM, "x", false, row_path);
                    aggs[na++] = mk_agg(&f, PLAN_AGG_AVG, "k", false, row_path);
                    aggs[na++] = mk_agg(&f, PLAN_AGG_MIN, "m", false, row_path);
                    aggs[na++] = mk_agg(&f, PLAN_AGG_MAX, "d", false, row_path);
                    aggs[na++] = mk_agg(&f, PLAN_AGG_COUNT, "q", true, row_path);
                    if (variant == 0) {
                        aggs[na++] = mk_agg(&f, PLAN_AGG_SUM, "m * q", false, row_path);
                        aggs[na++] = mk_agg(&f, PLAN_AGG_SUM, "w", true, row_path);
                    } else {
                        /* k * q overflows on edge rows: both paths fail alike */
                        aggs[na++] = mk_agg(&f, PLAN_AGG_SUM, "k * q", false, row_path);
                        aggs[na++] = mk_agg(&f, PLAN_AGG_MIN, "s", false, row_path);
                    }
                built:;
                    plan_op *op = plan__op_rows(&f.cx, f.types, NCOLS, rows, nrows, 128);
                    if (preds[pi]) {
                        plan_expr *p = expr_of(&f, preds[pi]);
                        op = plan__op_filter(&f.cx, op, row_path ? wrap(&f, p) : p);
                    }
                    op = plan__op_hashagg(&f.cx, op, keys, nkeys, aggs, na);
                    drain(&f, op, &res[row_path]);
                }
                char what[128];
                snprintf(what, sizeof what, "variant %d keys %zu pred %zu", variant, ks, pi);
                same_results(what, &res[0], &res[1]);
                nerr += res[0].rc != DB_OK;
                nsum += res[0].rc != DB_OK && variant == 3 &&
                        (strstr(res[0].err.msg, "'sum'") || strstr(res[0].err.msg, "'avg'"));
            }
        }
    }
    cr_expect_geq(nerr, 18); /* the overflow variants (edge rows everywhere) failed, alike */
    cr_expect_gt(nsum, 0);   /* ... and variant 3 in the SUM / AVG accumulators */
    tx_free(f.t);
}

Test(vector, project_and_topn_same_as_row_path)
{
    fixture f;
    fx_init(&f);
    size_t nrows = 5000;
    plan_value *rows = random_rows(&f, nrows);
    static const char *const items[] = {"k", "m", "q * 2 + 1", "m - w", "d", "s", "x > 1"};
    plan_cmp_mode modes[] = {PLAN_CMP_INT,      PLAN_CMP_DECIMAL, PLAN_CMP_INT, PLAN_CMP_DECIMAL,
                             PLAN_CMP_DATETIME, PLAN_CMP_STRING,  PLAN_CMP_INT};
    for (uint32_t keycol = 0; keycol < 7; keycol++) {
        for (int desc = 0; desc < 2; desc++) {
            run_result res[2];
            for (int row_path = 0; row_path < 2; row_path++) {
                plan_expr *pe[7];
                for (int i = 0; i < 7; i++) {
                    plan_expr *e = expr_of(&f, items[i]);
                    pe[i] = row_path ? wrap(&f, e) : e;
                }
                plan_op *op = plan__op_rows(&f.cx, f.types, NCOLS, rows, nrows, 200);
                op = plan__op_project(&f.cx, op, pe, 7);
                plan_sort_key keys[2] = {{keycol, desc, modes[keycol], 0},
                                         {0, false, PLAN_CMP_INT, 0}};
                op = plan__op_sort(&f.cx, op, keys, 2);
                if (!row_path) {
                    plan__op_sort_topn(op, 13); /* TopN and its pre-filter */
                }
                op = plan__op_limit(&f.cx, op, 3, 10);
                drain(&f, op, &res[row_path]);
            }
            char what[64];
            snprintf(what, sizeof what, "sort by %s %s", items[keycol], desc ? "DESC" : "ASC");
            same_results(what, &res[0], &res[1]);
            cr_assert_eq(res[0].rows.n, 10, "%s", what);
        }
    }
    tx_free(f.t);
}
