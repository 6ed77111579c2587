/* SPDX-License-Identifier: Apache-2.0
 * test_join.c: the join operator (plan_join.c) white-box over materialized inputs: NULL keys
 * never match, duplicates on both sides, empty inputs, every outer type with the build side on
 * either input, residual predicates, output batches that fill mid-chain, string keys compared
 * case-insensitively with PAD SPACE, numeric keys of different kinds, integer keys of either
 * signedness (the integer fast path), the memory limit; and a few SQL statements through the
 * whole planner. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_testutil.h"
#include "planner/plan_exec_int.h"

typedef struct jfx {
    tx *t;
    plan_ectx cx;
    plan_vtype types[2];
    plan_bind_col binds[4]; /* l.k, l.v, r.k, r.v */
} jfx;

static void
jfx_init(jfx *f)
{
    f->t = tx_new();
    plan__ectx_init(&f->cx, f->t->s, f->t->a, "", 0);
    memset(f->types, 0, sizeof f->types);
    memset(f->binds, 0, sizeof f->binds);
    for (int i = 0; i < 2; i++) {
        f->types[i].kind = PV_INT;
    }
    const char *names[4] = {"lk", "lv", "rk", "rv"};
    for (int i = 0; i < 4; i++) {
        f->binds[i].name = names[i];
        plan__type_bigint(&f->binds[i].t, 20, true);
        f->binds[i].vk = PV_INT;
    }
}

/* n rows of (k, v): k from ks (INT64_MIN = NULL), v = base + i. */
static plan_op *
rows_op(jfx *f, const int64_t *ks, size_t n, int64_t base, uint32_t cap)
{
    plan_value *rows = arena_calloc(f->t->a, n * 2 + 1, sizeof *rows);
    for (size_t i = 0; i < n; i++) {
        rows[2 * i] = ks[i] == INT64_MIN ? plan__v_null() : plan__v_int(ks[i]);
        rows[2 * i + 1] = plan__v_int(base + (int64_t)i);
    }
    return plan__op_rows(&f->cx, f->types, 2, rows, n, cap);
}

/* Expression text over lk, lv, rk, rv (ncols of the binds from first). */
static plan_expr *
expr_over(jfx *f, const char *text, uint32_t first, uint32_t n)
{
    char *sql = arena_sprintf(f->t->a, "SELECT %s", text);
    plan_stmt *st;
    db_error err;
    cr_assert_eq(plan__parse(f->t->a, sql, strlen(sql), false, false, false, &st, &err), DB_OK);
    f->cx.sql = sql;
    f->cx.sql_len = strlen(sql);
    plan_expr *e;
    cr_assert_eq(
            plan__analyze(&f->cx, st->items[0].expr, f->binds + first, n, "on clause", &e, &err),
            DB_OK, "%s", err.msg);
    return e;
}

typedef struct out_rows {
    char text[256][64];
    size_t n;
    uint32_t max_batch;
} out_rows;

static int
collect(void *ctx, const plan_batch *b, db_error *err)
{
    (void)err;
    out_rows *o = ctx;
    uint32_t n = plan__batch_active(b);
    if (n > o->max_batch) {
        o->max_batch = n;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = plan__batch_row(b, k);
        char *p = o->text[o->n];
        p[0] = 0;
        for (uint32_t c = 0; c < b->ncols; c++) {
            plan_value v;
            plan__batch_get(b, c, row, &v);
            char cell[16];
            if (v.kind == PV_NULL) {
                snprintf(cell, sizeof cell, "N");
            } else {
                snprintf(cell, sizeof cell, "%lld", (long long)v.i);
            }
            strcat(p, c ? "," : "");
            strcat(p, cell);
        }
        o->n++;
    }
    return DB_OK;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Run a join of l x r on lk = rk (when keyed) and return the sorted rows joined by ';'. */
static const char *
run(jfx *f, plan_join_type type, bool keyed, bool build_left, const char *residual,
    const int64_t *lk, size_t nl, const int64_t *rk, size_t nr, uint32_t cap)
{
    plan_op *l = rows_op(f, lk, nl, 100, cap), *r = rows_op(f, rk, nr, 200, cap);
    plan_expr *lke = expr_over(f, "lk", 0, 2), *rke = expr_over(f, "rk", 2, 2);
    plan_cmp_mode mode = PLAN_CMP_INT;
    plan_join_spec js = {.type = type,
                         .lkeys = &lke,
                         .rkeys = &rke,
                         .modes = &mode,
                         .nkeys = keyed ? 1 : 0,
                         .residual = residual ? expr_over(f, residual, 0, 4) : NULL,
                         .build_left = build_left};
    plan_op *j = plan__op_join(&f->cx, l, r, &js);
    static out_rows o;
    memset(&o, 0, sizeof o);
    db_error err;
    cr_assert_eq(plan__op_drain(j, collect, &o, &err), DB_OK, "%s", err.msg);
    cr_assert_leq(o.max_batch, cap);
    qsort(o.text, o.n, sizeof o.text[0], cmp_str);
    char *s = arena_alloc(f->t->a, o.n * 64 + 1);
    s[0] = 0;
    for (size_t i = 0; i < o.n; i++) {
        strcat(s, i ? ";" : "");
        strcat(s, o.text[i]);
    }
    return s;
}

#define N INT64_MIN

static const int64_t L[] = {1, 2, 2, N, 5};
static const int64_t R[] = {2, 2, 1, N, 7};

Test(join, inner_duplicates_and_null_keys)
{
    jfx f;
    jfx_init(&f);
    for (int bl = 0; bl < 2; bl++) {
        cr_assert_str_eq(run(&f, PLAN_JOIN_INNER, true, bl, NULL, L, 5, R, 5, 4096),
                         "1,100,1,202;2,101,2,200;2,101,2,201;2,102,2,200;2,102,2,201");
    }
    tx_free(f.t);
}

Test(join, outer_types_either_build_side)
{
    jfx f;
    jfx_init(&f);
    for (int bl = 0; bl < 2; bl++) {
        cr_assert_str_eq(run(&f, PLAN_JOIN_LEFT, true, bl, NULL, L, 5, R, 5, 4096),
                         "1,100,1,202;2,101,2,200;2,101,2,201;2,102,2,200;2,102,2,201;5,104,N,N;"
                         "N,103,N,N");
        cr_assert_str_eq(run(&f, PLAN_JOIN_RIGHT, true, bl, NULL, L, 5, R, 5, 4096),
                         "1,100,1,202;2,101,2,200;2,101,2,201;2,102,2,200;2,102,2,201;N,N,7,204;"
                         "N,N,N,203");
        cr_assert_str_eq(run(&f, PLAN_JOIN_FULL, true, bl, NULL, L, 5, R, 5, 4096),
                         "1,100,1,202;2,101,2,200;2,101,2,201;2,102,2,200;2,102,2,201;5,104,N,N;"
                         "N,103,N,N;N,N,7,204;N,N,N,203");
    }
    tx_free(f.t);
}

Test(join, residual_decides_outer_matches)
{
    jfx f;
    jfx_init(&f);
    for (int bl = 0; bl < 2; bl++) {
        /* Key matches failing the residual leave the row unmatched: null-extended. */
        cr_assert_str_eq(run(&f, PLAN_JOIN_LEFT, true, bl, "lv + 100 = rv", L, 5, R, 5, 4096),
                         "1,100,N,N;2,101,2,201;2,102,N,N;5,104,N,N;N,103,N,N");
        cr_assert_str_eq(run(&f, PLAN_JOIN_FULL, true, bl, "rv = 200", L, 5, R, 5, 4096),
                         "1,100,N,N;2,101,2,200;2,102,2,200;5,104,N,N;N,103,N,N;N,N,1,202;"
                         "N,N,2,201;N,N,7,204;N,N,N,203");
    }
    tx_free(f.t);
}

Test(join, nested_loop_theta_and_cross)
{
    jfx f;
    jfx_init(&f);
    for (int bl = 0; bl < 2; bl++) {
        cr_assert_str_eq(run(&f, PLAN_JOIN_INNER, false, bl, "lk > rk", L, 5, R, 5, 4096),
                         "2,101,1,202;2,102,1,202;5,104,1,202;5,104,2,200;5,104,2,201");
        cr_assert_str_eq(run(&f, PLAN_JOIN_LEFT, false, bl, "lk > rk + 3", L, 5, R, 5, 4096),
                         "1,100,N,N;2,101,N,N;2,102,N,N;5,104,1,202;N,103,N,N");
    }
    /* CROSS: 5 x 5 rows, through batches of 3. */
    const char *all = run(&f, PLAN_JOIN_INNER, false, true, NULL, L, 5, R, 5, 3);
    size_t semis = 0;
    for (const char *p = all; *p; p++) {
        semis += *p == ';';
    }
    cr_assert_eq(semis, 24);
    tx_free(f.t);
}

Test(join, empty_inputs)
{
    jfx f;
    jfx_init(&f);
    for (int bl = 0; bl < 2; bl++) {
        cr_assert_str_eq(run(&f, PLAN_JOIN_INNER, true, bl, NULL, L, 5, R, 0, 4096), "");
        cr_assert_str_eq(run(&f, PLAN_JOIN_LEFT, true, bl, NULL, L, 2, R, 0, 4096),
                         "1,100,N,N;2,101,N,N");
        cr_assert_str_eq(run(&f, PLAN_JOIN_RIGHT, true, bl, NULL, L, 2, R, 0, 4096), "");
        cr_assert_str_eq(run(&f, PLAN_JOIN_FULL, true, bl, NULL, L, 0, R, 1, 4096), "N,N,2,200");
        cr_assert_str_eq(run(&f, PLAN_JOIN_INNER, false, bl, NULL, L, 0, R, 5, 4096), "");
    }
    tx_free(f.t);
}

Test(join, small_batches_split_chains)
{
    jfx f;
    jfx_init(&f);
    /* 40 equal keys on each side: 1600 pairs through batches of 7 rows. */
    int64_t k40[40];
    for (int i = 0; i < 40; i++) {
        k40[i] = 9;
    }
    plan_op *l = rows_op(&f, k40, 40, 0, 7), *r = rows_op(&f, k40, 40, 0, 7);
    plan_expr *lke = expr_over(&f, "lk", 0, 2), *rke = expr_over(&f, "rk", 2, 2);
    plan_cmp_mode mode = PLAN_CMP_INT;
    plan_join_spec js = {
            .type = PLAN_JOIN_FULL, .lkeys = &lke, .rkeys = &rke, .modes = &mode, .nkeys = 1};
    plan_op *j = plan__op_join(&f.cx, l, r, &js);
    db_error err;
    cr_assert_eq(j->open(j, &err), DB_OK);
    size_t total = 0;
    for (;;) {
        plan_batch *b;
        cr_assert_eq(j->next(j, &b, &err), DB_OK);
        if (!b) {
            break;
        }
        cr_assert_leq(plan__batch_active(b), 7);
        total += plan__batch_active(b);
    }
    j->close(j);
    cr_assert_eq(total, 1600);
    tx_free(f.t);
}

/* Pairs (lv, rv) of l x r on lk = rk compared in mode, keys unsigned per side (bits in ks). */
static const char *
run_signed(jfx *f, plan_cmp_mode mode, bool lu, const uint64_t *lk, size_t nl, bool ru,
           const uint64_t *rk, size_t nr, bool build_left)
{
    plan_vtype lt[2] = {{.kind = PV_INT, .is_unsigned = lu}, {.kind = PV_INT}};
    plan_vtype rt[2] = {{.kind = PV_INT, .is_unsigned = ru}, {.kind = PV_INT}};
    plan_value *lrows = arena_calloc(f->t->a, nl * 2 + 1, sizeof(plan_value));
    plan_value *rrows = arena_calloc(f->t->a, nr * 2 + 1, sizeof(plan_value));
    for (size_t i = 0; i < nl; i++) {
        lrows[2 * i] = lu ? plan__v_uint(lk[i]) : plan__v_int((int64_t)lk[i]);
        lrows[2 * i + 1] = plan__v_int(100 + (int64_t)i);
    }
    for (size_t i = 0; i < nr; i++) {
        rrows[2 * i] = ru ? plan__v_uint(rk[i]) : plan__v_int((int64_t)rk[i]);
        rrows[2 * i + 1] = plan__v_int(200 + (int64_t)i);
    }
    f->binds[0].t.is_unsigned = lu;
    f->binds[2].t.is_unsigned = ru;
    plan_op *l = plan__op_rows(&f->cx, lt, 2, lrows, nl, 4096);
    plan_op *r = plan__op_rows(&f->cx, rt, 2, rrows, nr, 4096);
    plan_expr *lke = expr_over(f, "lk", 0, 2), *rke = expr_over(f, "rk", 2, 2);
    plan_join_spec js = {.type = PLAN_JOIN_INNER,
                         .lkeys = &lke,
                         .rkeys = &rke,
                         .modes = &mode,
                         .nkeys = 1,
                         .build_left = build_left};
    plan_op *j = plan__op_join(&f->cx, l, r, &js);
    static out_rows o;
    memset(&o, 0, sizeof o);
    db_error err;
    cr_assert_eq(plan__op_drain(j, collect, &o, &err), DB_OK, "%s", err.msg);
    qsort(o.text, o.n, sizeof o.text[0], cmp_str); /* by key text: "-1" first */
    char *s = arena_alloc(f->t->a, o.n * 16 + 1);
    s[0] = 0;
    for (size_t i = 0; i < o.n; i++) {
        long long lv, rv;
        cr_assert_eq(sscanf(strchr(o.text[i], ',') + 1, "%lld,%*[^,],%lld", &lv, &rv), 2);
        char cell[16];
        snprintf(cell, sizeof cell, "%s%lld-%lld", i ? ";" : "", lv, rv);
        strcat(s, cell);
    }
    return s;
}

Test(join, integer_keys_signedness)
{
    jfx f;
    jfx_init(&f);
    const uint64_t big = (uint64_t)1 << 63; /* big and big + 1 convert to the same double */
    const uint64_t l[] = {big, big + 1, 7, UINT64_MAX};
    const uint64_t r[] = {big + 1, 7, big + 1, (uint64_t)-1};
    for (int bl = 0; bl < 2; bl++) {
        /* Both unsigned, UINT: equal bits match, big never meets big + 1. */
        cr_assert_str_eq(run_signed(&f, PLAN_CMP_UINT, true, l, 4, true, r, 4, bl),
                         "103-203;101-200;101-202;102-201");
        /* Unsigned left, signed right: UINT_MAX is not -1; only 7 matches. */
        cr_assert_str_eq(run_signed(&f, PLAN_CMP_UINT, true, l, 4, false, r, 4, bl), "102-201");
        /* Both signed: -1 = -1 as well. */
        cr_assert_str_eq(run_signed(&f, PLAN_CMP_INT, false, l, 4, false, r, 4, bl),
                         "103-203;101-200;101-202;102-201");
    }
    tx_free(f.t);
}

Test(join, memory_limit_is_an_error)
{
    jfx f;
    jfx_init(&f);
    int64_t ks[5000];
    for (int i = 0; i < 5000; i++) {
        ks[i] = i;
    }
    plan_op *l = rows_op(&f, ks, 5000, 0, 4096), *r = rows_op(&f, ks, 5000, 0, 4096);
    plan_expr *lke = expr_over(&f, "lk", 0, 2), *rke = expr_over(&f, "rk", 2, 2);
    plan_cmp_mode mode = PLAN_CMP_INT;
    plan_join_spec js = {.type = PLAN_JOIN_INNER,
                         .lkeys = &lke,
                         .rkeys = &rke,
                         .modes = &mode,
                         .nkeys = 1,
                         .build_left = true,
                         .mem_limit = 64 * 1024};
    plan_op *j = plan__op_join(&f.cx, l, r, &js);
    out_rows *o = calloc(1, sizeof *o);
    db_error err;
    cr_assert_eq(plan__op_drain(j, collect, o, &err), DB_ERR);
    cr_assert_eq(err.code, 1105);
    cr_assert(strstr(err.msg, "Hash join") != NULL, "%s", err.msg);
    free(o);
    tx_free(f.t);
}

Test(join, key_hash_follows_comparison)
{
    jfx f;
    jfx_init(&f);
    char *fold = NULL;
    size_t cap = 0;
    plan_value a = plan__v_str("Abc  ", 5), b = plan__v_str("aBC", 3);
    cr_assert_eq(plan__join_hash(&f.cx, PLAN_CMP_STRING, &a, &fold, &cap, 1),
                 plan__join_hash(&f.cx, PLAN_CMP_STRING, &b, &fold, &cap, 1));
    plan_value i = plan__v_int(2), d = plan__v_dec(200, 2), x = plan__v_double(2.0);
    plan_value s = plan__v_str("2", 1);
    uint64_t hi = plan__join_hash(&f.cx, PLAN_CMP_DECIMAL, &i, &fold, &cap, 1);
    cr_assert_eq(hi, plan__join_hash(&f.cx, PLAN_CMP_DECIMAL, &d, &fold, &cap, 1));
    cr_assert_eq(hi, plan__join_hash(&f.cx, PLAN_CMP_DOUBLE, &x, &fold, &cap, 1));
    cr_assert_eq(hi, plan__join_hash(&f.cx, PLAN_CMP_DOUBLE, &s, &fold, &cap, 1));
    plan_value z = plan__v_double(-0.0), z2 = plan__v_int(0);
    cr_assert_eq(plan__join_hash(&f.cx, PLAN_CMP_DOUBLE, &z, &fold, &cap, 1),
                 plan__join_hash(&f.cx, PLAN_CMP_DOUBLE, &z2, &fold, &cap, 1));
    free(fold);
    tx_free(f.t);
}

/* ---- through SQL (information_schema: no storage needed) ---- */

Test(join, sql_information_schema)
{
    tx *t = tx_new();
    char *n = strdup(tx_one(t, "select count(*) from information_schema.schemata"));
    cr_assert_str_eq(tx_one(t, "select count(*) from information_schema.schemata s join "
                               "information_schema.schemata t on s.schema_name = t.schema_name"),
                     n);
    free(n);
    cr_assert_str_eq(tx_one(t, "select s.schema_name from information_schema.schemata s left join "
                               "(select 'zz' as n) x on x.n = s.schema_name where x.n is null "
                               "and s.schema_name = 'mysql'"),
                     "mysql");
    cr_assert_str_eq(tx_one(t, "with c as (select 2 as v) select a.v + b.v from c a, c b"), "4");
    cr_assert_eq(tx_err(t, "select schema_name from information_schema.schemata a, "
                           "information_schema.schemata b"),
                 1052);
    cr_assert_eq(
            tx_err(t, "select 1 from information_schema.schemata, information_schema.schemata"),
            1066);
    cr_assert_eq(tx_err(t, "select 1 from information_schema.schemata a join "
                           "information_schema.schemata b using (nope)"),
                 1054);
    /* Prepared: metadata from the describe pass (no operators built), then execution. */
    uint32_t id;
    uint16_t np;
    cr_assert_eq(tx_prepare(t,
                            "select s.schema_name, x.v from information_schema.schemata s left "
                            "join (select 'mysql' as v) x on x.v = s.schema_name where "
                            "s.schema_name = ?",
                            &id, &np),
                 DB_OK);
    cr_assert_eq(np, 1);
    plan_param p;
    memset(&p, 0, sizeof p);
    p.kind = PLAN_PARAM_STRING;
    p.s = "mysql";
    p.len = 5;
    cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 1), "mysql");
    tx_free(t);
}
