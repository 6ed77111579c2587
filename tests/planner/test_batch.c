/* SPDX-License-Identifier: Apache-2.0
 * The executor core in isolation (white-box, plan_exec_int.h): batches, selection vectors,
 * and each operator over materialized rows: 0-row and >4096-row inputs, stable sort and NULL
 * ordering, limit/offset edges, filter selection vectors, project, aggregates. */
#include <criterion/criterion.h>
#include <string.h>

#include "plan_testutil.h"
#include "planner/plan_exec_int.h"

/* Two BIGINT columns: k (NULL when kv[i] < 0 and nulls is set) and seq = i. */
typedef struct fixture {
    tx *t;
    plan_ectx cx;
    plan_vtype types[2];
    plan_bind_col binds[2];
} fixture;

static void
fx_init(fixture *f)
{
    f->t = tx_new();
    plan__ectx_init(&f->cx, f->t->s, f->t->a, "", 0);
    memset(f->types, 0, sizeof f->types);
    memset(f->binds, 0, sizeof f->binds);
    for (int i = 0; i < 2; i++) {
        f->types[i].kind = PV_INT;
        f->binds[i].name = i ? "seq" : "k";
        plan__type_bigint(&f->binds[i].t, 20, true);
        f->binds[i].vk = PV_INT;
    }
}

static void
fx_free(fixture *f)
{
    tx_free(f->t);
}

/* n rows: k = kv(i) (NULL when < 0), seq = i. */
static plan_value *
make_rows(fixture *f, size_t n, int64_t (*kv)(size_t))
{
    plan_value *rows = arena_calloc(f->t->a, n * 2 + 1, sizeof *rows);
    for (size_t i = 0; i < n; i++) {
        int64_t k = kv(i);
        rows[2 * i] = k < 0 ? plan__v_null() : plan__v_int(k);
        rows[2 * i + 1] = plan__v_int((int64_t)i);
    }
    return rows;
}

/* The typed expression of "SELECT <text>" over columns k, seq. */
static plan_expr *
expr_of(fixture *f, const char *text)
{
    char *sql = arena_sprintf(f->t->a, "SELECT %s", text);
    plan_stmt *st;
    db_error err;
    cr_assert_eq(plan__parse(f->t->a, sql, strlen(sql), false, false, false, &st, &err), DB_OK);
    f->cx.sql = sql;
    f->cx.sql_len = strlen(sql);
    plan_expr *e;
    cr_assert_eq(plan__analyze(&f->cx, st->items[0].expr, f->binds, 2, "field list", &e, &err),
                 DB_OK, "%s", err.msg);
    return e;
}

typedef struct collect {
    int64_t vals[20000][2]; /* column 0 and 1 of each row; INT64_MIN = NULL */
    size_t n;
    size_t batches;
    uint32_t max_batch;
} collect;

static int
collect_fn(void *ctx, const plan_batch *b, db_error *err)
{
    collect *c = ctx;
    uint32_t n = plan__batch_active(b);
    cr_assert_gt(n, 0, "operators return no empty batches");
    c->batches++;
    c->max_batch = n > c->max_batch ? n : c->max_batch;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = plan__batch_row(b, k);
        for (uint32_t col = 0; col < 2 && col < b->ncols; col++) {
            plan_value v;
            plan__batch_get(b, col, row, &v);
            c->vals[c->n][col] = v.kind == PV_NULL ? INT64_MIN : plan__v_to_int(&v, NULL);
        }
        c->n++;
    }
    return DB_OK;
}

static collect *
run(plan_op *root)
{
    collect *c = calloc(1, sizeof *c);
    db_error err;
    cr_assert_eq(plan__op_drain(root, collect_fn, c, &err), DB_OK, "%s", err.msg);
    return c;
}

static int64_t
k_identity(size_t i)
{
    return (int64_t)i;
}

static int64_t
k_dups(size_t i)
{
    static const int64_t ks[] = {3, -1, 1, 3, -1, 1, 2, 3};
    return ks[i % 8];
}

Test(plan_batch, vectors_nulls_and_selection)
{
    fixture f;
    fx_init(&f);
    plan_vtype ty[3] = {
            {PV_INT, true, false, 0}, {PV_STRING, false, false, 0}, {PV_NULL, false, false, 0}};
    plan_batch *b = plan__batch_new(f.t->a, ty, 3, 8);
    db_error err;
    plan_value v = plan__v_int(-5); /* into an unsigned column: saturates to 0 */
    cr_assert_eq(plan__batch_set(&f.cx, b, 0, 0, &v, &err), DB_OK);
    v = plan__v_int(42); /* into a string column: converted */
    cr_assert_eq(plan__batch_set(&f.cx, b, 1, 0, &v, &err), DB_OK);
    v = plan__v_null();
    cr_assert_eq(plan__batch_set(&f.cx, b, 0, 1, &v, &err), DB_OK);
    v = plan__v_str("x", 1);
    cr_assert_eq(plan__batch_set(&f.cx, b, 1, 1, &v, &err), DB_OK);
    cr_assert_eq(plan__batch_set(&f.cx, b, 2, 1, &v, &err), DB_OK);
    b->nrows = 2;
    plan_value out;
    plan__batch_get(b, 0, 0, &out);
    cr_assert(out.kind == PV_INT && out.is_unsigned && out.u == 0);
    plan__batch_get(b, 1, 0, &out);
    cr_assert(out.kind == PV_STRING && out.str.len == 2 && memcmp(out.str.s, "42", 2) == 0);
    plan__batch_get(b, 0, 1, &out);
    cr_assert_eq(out.kind, PV_NULL);
    plan__batch_get(b, 2, 1, &out);
    cr_assert_eq(out.kind, PV_NULL);
    cr_assert_eq(plan__batch_active(b), 2);
    uint32_t sel[1] = {1};
    b->sel = sel;
    b->nsel = 1;
    cr_assert_eq(plan__batch_active(b), 1);
    cr_assert_eq(plan__batch_row(b, 0), 1);
    /* A set after a NULL clears the bit again. */
    v = plan__v_uint(7);
    cr_assert_eq(plan__batch_set(&f.cx, b, 0, 1, &v, &err), DB_OK);
    cr_assert(!plan__vec_is_null(&b->cols[0], 1));
    plan__batch_clear(b);
    cr_assert_eq(plan__batch_active(b), 0);
    cr_assert_null(b->sel);
    fx_free(&f);
}

Test(plan_batch, scan_splits_into_batches_of_cap)
{
    fixture f;
    fx_init(&f);
    plan_value *rows = make_rows(&f, 10000, k_identity);
    collect *c = run(plan__op_rows(&f.cx, f.types, 2, rows, 10000, PLAN_BATCH_MAX));
    cr_assert_eq(c->n, 10000);
    cr_assert_eq(c->batches, 3); /* 4096 + 4096 + 1808 */
    cr_assert_eq(c->max_batch, 4096);
    for (size_t i = 0; i < 10000; i++) {
        cr_assert_eq(c->vals[i][1], (int64_t)i);
    }
    free(c);
    f.t->s->vars[plan__sysvar_find("batch_size")].i = 100000;
    cr_assert_eq(plan__batch_cap(f.t->s), PLAN_BATCH_MAX);
    f.t->s->vars[plan__sysvar_find("batch_size")].i = 7;
    cr_assert_eq(plan__batch_cap(f.t->s), 7);
    fx_free(&f);
}

Test(plan_batch, zero_rows_through_every_operator)
{
    fixture f;
    fx_init(&f);
    plan_op *op = plan__op_rows(&f.cx, f.types, 2, NULL, 0, 16);
    op = plan__op_filter(&f.cx, op, expr_of(&f, "k > 0"));
    plan_expr *ex[2] = {expr_of(&f, "k + 1"), expr_of(&f, "seq")};
    op = plan__op_project(&f.cx, op, ex, 2);
    plan_sort_key key = {0, false, PLAN_CMP_INT, 0};
    op = plan__op_sort(&f.cx, op, &key, 1);
    op = plan__op_limit(&f.cx, op, 0, 10);
    collect *c = run(op);
    cr_assert_eq(c->n, 0);
    cr_assert_eq(c->batches, 0);
    free(c);
    /* Aggregates over nothing: COUNT 0, MIN NULL. */
    plan_agg aggs[2];
    memset(aggs, 0, sizeof aggs);
    aggs[0].kind = PLAN_AGG_COUNT_STAR;
    plan__type_bigint(&aggs[0].t, 21, false);
    aggs[0].vk = PV_INT;
    aggs[1].kind = PLAN_AGG_MIN;
    aggs[1].arg = expr_of(&f, "k");
    aggs[1].t = aggs[1].arg->t;
    aggs[1].vk = PV_INT;
    c = run(plan__op_agg(&f.cx, plan__op_rows(&f.cx, f.types, 2, NULL, 0, 16), aggs, 2));
    cr_assert_eq(c->n, 1);
    cr_assert_eq(c->vals[0][0], 0);
    cr_assert_eq(c->vals[0][1], INT64_MIN);
    free(c);
    fx_free(&f);
}

Test(plan_batch, sort_is_stable_with_nulls_first_ascending)
{
    fixture f;
    fx_init(&f);
    /* k: 3 N 1 3 N 1 2 3 | 3 N 1 ... (24 rows, batches of 5) */
    plan_value *rows = make_rows(&f, 24, k_dups);
    plan_sort_key asc = {0, false, PLAN_CMP_INT, 0};
    collect *c = run(plan__op_sort(&f.cx, plan__op_rows(&f.cx, f.types, 2, rows, 24, 5), &asc, 1));
    cr_assert_eq(c->n, 24);
    for (size_t i = 1; i < 24; i++) {
        int64_t a = c->vals[i - 1][0], b = c->vals[i][0];
        cr_assert(a <= b, "row %zu out of order", i); /* INT64_MIN = NULL sorts first */
        if (a == b) {
            cr_assert_lt(c->vals[i - 1][1], c->vals[i][1]); /* stable */
        }
    }
    cr_assert_eq(c->vals[0][0], INT64_MIN);
    cr_assert_eq(c->vals[0][1], 1);
    free(c);
    plan_sort_key desc = {0, true, PLAN_CMP_INT, 0};
    c = run(plan__op_sort(&f.cx, plan__op_rows(&f.cx, f.types, 2, rows, 24, 5), &desc, 1));
    for (size_t i = 1; i < 24; i++) {
        int64_t a = c->vals[i - 1][0], b = c->vals[i][0];
        cr_assert(a == b || (b == INT64_MIN) || a > b, "row %zu out of order", i);
        if (a == b) {
            cr_assert_lt(c->vals[i - 1][1], c->vals[i][1]); /* stable in DESC too */
        }
    }
    cr_assert_eq(c->vals[0][0], 3);
    cr_assert_eq(c->vals[23][0], INT64_MIN); /* NULLs last descending */
    free(c);
    /* Two keys: k DESC, seq DESC. */
    plan_sort_key two[2] = {{0, false, PLAN_CMP_INT, 0}, {1, true, PLAN_CMP_INT, 0}};
    c = run(plan__op_sort(&f.cx, plan__op_rows(&f.cx, f.types, 2, rows, 24, 5), two, 2));
    cr_assert_eq(c->vals[0][0], INT64_MIN);
    cr_assert_eq(c->vals[0][1], 20);
    free(c);
    fx_free(&f);
}

Test(plan_batch, limit_offset_edges)
{
    fixture f;
    fx_init(&f);
    plan_value *rows = make_rows(&f, 10, k_identity);
    static const struct {
        uint64_t off, cnt;
        size_t n;
        int64_t first;
    } cases[] = {
            {0, 0, 0, -1}, {0, 10, 10, 0}, {0, 100, 10, 0}, {2, 4, 4, 2}, {3, 3, 3, 3},
            {9, 5, 1, 9},  {10, 5, 0, -1}, {50, 1, 0, -1},  {2, 1, 1, 2}, {0, UINT64_MAX, 10, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        plan_op *op = plan__op_rows(&f.cx, f.types, 2, rows, 10, 3); /* batches of 3 */
        collect *c = run(plan__op_limit(&f.cx, op, cases[i].off, cases[i].cnt));
        cr_assert_eq(c->n, cases[i].n, "case %zu", i);
        for (size_t r = 0; r < c->n; r++) {
            cr_assert_eq(c->vals[r][1], cases[i].first + (int64_t)r, "case %zu row %zu", i, r);
        }
        free(c);
    }
    fx_free(&f);
}

Test(plan_batch, filter_builds_a_selection_vector)
{
    fixture f;
    fx_init(&f);
    plan_value *rows = make_rows(&f, 20, k_identity);
    plan_op *scan = plan__op_rows(&f.cx, f.types, 2, rows, 20, 8);
    plan_op *flt = plan__op_filter(&f.cx, scan, expr_of(&f, "k % 3 = 0 and k < 8 or k = 19"));
    db_error err;
    cr_assert_eq(flt->open(flt, &err), DB_OK);
    plan_batch *b;
    cr_assert_eq(flt->next(flt, &b, &err), DB_OK);
    cr_assert_not_null(b);
    cr_assert_not_null(b->sel);
    cr_assert_eq(b->nrows, 8);
    cr_assert_eq(b->nsel, 3);
    cr_assert_eq(b->sel[0], 0);
    cr_assert_eq(b->sel[1], 3);
    cr_assert_eq(b->sel[2], 6);
    /* The second batch (rows 8..15) has no match: it is skipped, not returned empty. */
    cr_assert_eq(flt->next(flt, &b, &err), DB_OK);
    cr_assert_not_null(b);
    cr_assert_eq(b->nsel, 1);
    plan_value v;
    plan__batch_get(b, 0, b->sel[0], &v);
    cr_assert_eq(v.i, 19);
    cr_assert_eq(flt->next(flt, &b, &err), DB_OK);
    cr_assert_null(b);
    flt->close(flt);
    /* Filter -> limit -> project keeps only the selected rows, densely. */
    scan = plan__op_rows(&f.cx, f.types, 2, rows, 20, 8);
    flt = plan__op_filter(&f.cx, scan, expr_of(&f, "k % 2 = 1"));
    plan_op *lim = plan__op_limit(&f.cx, flt, 1, 5);
    plan_expr *ex[2] = {expr_of(&f, "k * 10"), expr_of(&f, "seq")};
    collect *c = run(plan__op_project(&f.cx, lim, ex, 2));
    cr_assert_eq(c->n, 5);
    for (size_t r = 0; r < 5; r++) {
        cr_assert_eq(c->vals[r][0], (int64_t)(3 + 2 * r) * 10);
    }
    free(c);
    /* A predicate that is NULL is not TRUE. */
    plan_value *nrows = make_rows(&f, 24, k_dups);
    c = run(plan__op_filter(&f.cx, plan__op_rows(&f.cx, f.types, 2, nrows, 24, 4),
                            expr_of(&f, "k <> 3")));
    cr_assert_eq(c->n, 9); /* 1, 1, 2 of every 8; the NULLs are out */
    free(c);
    fx_free(&f);
}

Test(plan_batch, project_of_columns_shares_the_child_batch)
{
    fixture f;
    fx_init(&f);
    plan_value *rows = make_rows(&f, 24, k_dups);
    plan_op *scan = plan__op_rows(&f.cx, f.types, 2, rows, 24, 8);
    plan_op *flt = plan__op_filter(&f.cx, scan, expr_of(&f, "k <> 3"));
    plan_expr *ex[3] = {expr_of(&f, "seq"), expr_of(&f, "k"), expr_of(&f, "seq")};
    plan_op *prj = plan__op_project(&f.cx, flt, ex, 3);
    db_error err;
    cr_assert_eq(prj->open(prj, &err), DB_OK);
    plan_batch *b;
    size_t seen = 0;
    for (;;) {
        cr_assert_eq(prj->next(prj, &b, &err), DB_OK);
        if (!b) {
            break;
        }
        /* No copy: the filter's selection over the scan's vectors, columns reordered. */
        cr_assert_not_null(b->sel);
        cr_assert_eq(b->cols[0].i, b->cols[2].i);
        for (uint32_t k = 0; k < plan__batch_active(b); k++) {
            uint32_t row = plan__batch_row(b, k);
            plan_value s, kv;
            plan__batch_get(b, 0, row, &s);
            plan__batch_get(b, 1, row, &kv);
            cr_assert_eq(kv.kind == PV_NULL ? -1 : kv.i, k_dups((size_t)s.i));
            seen++;
        }
    }
    prj->close(prj);
    cr_assert_eq(seen, 9); /* 1, 1, 2 of every 8 */
    /* Project -> limit narrows the projection's own selection, then sort over it. */
    scan = plan__op_rows(&f.cx, f.types, 2, rows, 24, 8);
    flt = plan__op_filter(&f.cx, scan, expr_of(&f, "k <> 3"));
    plan_expr *ex2[2] = {expr_of(&f, "k"), expr_of(&f, "seq")};
    plan_op *lim = plan__op_limit(&f.cx, plan__op_project(&f.cx, flt, ex2, 2), 2, 4);
    plan_sort_key key = {.col = 1, .desc = true, .mode = PLAN_CMP_INT};
    collect *c = run(plan__op_sort(&f.cx, lim, &key, 1));
    static const int64_t want[4][2] = {{2, 14}, {1, 13}, {1, 10}, {2, 6}};
    cr_assert_eq(c->n, 4);
    for (size_t r = 0; r < 4; r++) {
        cr_assert_eq(c->vals[r][0], want[r][0], "row %zu", r);
        cr_assert_eq(c->vals[r][1], want[r][1], "row %zu", r);
    }
    free(c);
    fx_free(&f);
}

Test(plan_batch, large_input_sort_and_aggregate)
{
    fixture f;
    fx_init(&f);
    plan_value *rows = make_rows(&f, 10000, k_identity);
    plan_sort_key desc = {1, true, PLAN_CMP_INT, 0};
    collect *c = run(
            plan__op_sort(&f.cx, plan__op_rows(&f.cx, f.types, 2, rows, 10000, 4096), &desc, 1));
    cr_assert_eq(c->n, 10000);
    cr_assert_eq(c->batches, 3);
    for (size_t i = 0; i < 10000; i++) {
        cr_assert_eq(c->vals[i][1], 9999 - (int64_t)i);
    }
    free(c);
    plan_agg aggs[2];
    memset(aggs, 0, sizeof aggs);
    aggs[0].kind = PLAN_AGG_COUNT;
    aggs[0].arg = expr_of(&f, "k");
    plan__type_bigint(&aggs[0].t, 21, false);
    aggs[0].vk = PV_INT;
    aggs[1].kind = PLAN_AGG_MAX;
    aggs[1].arg = expr_of(&f, "seq");
    aggs[1].t = aggs[1].arg->t;
    aggs[1].vk = PV_INT;
    plan_op *op = plan__op_rows(&f.cx, f.types, 2, rows, 10000, 4096);
    op = plan__op_filter(&f.cx, op, expr_of(&f, "k >= 5000"));
    c = run(plan__op_agg(&f.cx, op, aggs, 2));
    cr_assert_eq(c->n, 1);
    cr_assert_eq(c->vals[0][0], 5000);
    cr_assert_eq(c->vals[0][1], 9999);
    free(c);
    fx_free(&f);
}
