/* SPDX-License-Identifier: Apache-2.0
 * test_bitmap.c: the bitmap value encoding (CRoaring portable serialization in a binary
 * string): round trips, rejected bytes; the scalar bitmap functions through a session; the
 * bitmap and collection aggregates of plan_agg.c over materialized rows. */
#include <criterion/criterion.h>
#include <string.h>

#include "plan_testutil.h"
#include "planner/plan_exec_int.h"
#include "planner/plan_func_int.h"

Test(plan_bitmap, serialization_round_trip)
{
    arena *a = arena_new(0);
    static const uint32_t sets[][6] = {
            {0}, {1, 0}, {3, 0, 1, UINT32_MAX}, {5, 7, 70000, 70001, 1u << 31, 42}};
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        roaring_bitmap_t *bm = roaring_bitmap_create();
        for (uint32_t i = 1; i <= sets[k][0]; i++) {
            roaring_bitmap_add(bm, sets[k][i]);
        }
        plan_value v = plan__bitmap_value(a, bm);
        cr_assert_eq(v.kind, PV_STRING);
        cr_assert(v.is_binary);
        roaring_bitmap_t *back = plan__bitmap_decode(v.str.s, v.str.len);
        cr_assert_not_null(back);
        cr_assert(roaring_bitmap_equals(bm, back), "set %zu", k);
        cr_assert_eq(roaring_bitmap_get_cardinality(back), sets[k][0]);
        roaring_bitmap_free(back);
        roaring_bitmap_free(bm);
    }
    /* A large run-heavy bitmap survives run optimization and the round trip. */
    roaring_bitmap_t *big = roaring_bitmap_from_range(100, 1000000, 1);
    plan_value v = plan__bitmap_value(a, big);
    roaring_bitmap_t *back = plan__bitmap_decode(v.str.s, v.str.len);
    cr_assert(roaring_bitmap_equals(big, back));
    roaring_bitmap_free(back);
    roaring_bitmap_free(big);
    arena_free(a);
}

Test(plan_bitmap, non_bitmap_bytes_are_rejected)
{
    arena *a = arena_new(0);
    cr_assert_null(plan__bitmap_decode("", 0));
    cr_assert_null(plan__bitmap_decode("abc", 3));
    cr_assert_null(plan__bitmap_decode("hello world, not a bitmap", 25));
    roaring_bitmap_t *bm = roaring_bitmap_of(3, 1, 2, 3);
    plan_value v = plan__bitmap_value(a, bm);
    cr_assert_null(plan__bitmap_decode(v.str.s, v.str.len - 1)); /* truncated */
    char *longer = arena_alloc(a, v.str.len + 1);
    memcpy(longer, v.str.s, v.str.len);
    longer[v.str.len] = 'x';
    cr_assert_null(plan__bitmap_decode(longer, v.str.len + 1)); /* trailing garbage */
    roaring_bitmap_free(bm);
    arena_free(a);
}

Test(plan_bitmap, scalar_functions)
{
    static const pair p[] = {
            {"SELECT bitmap_to_string(to_bitmap(10))", "10"},
            {"SELECT bitmap_to_string(to_bitmap('1234567'))", "1234567"},
            {"SELECT to_bitmap(-1)", "NULL"},
            {"SELECT to_bitmap(NULL)", "NULL"},
            {"SELECT to_bitmap(4294967296)", "NULL"},
            {"SELECT bitmap_to_string(to_bitmap(4294967295))", "4294967295"},
            {"SELECT bitmap_count(to_bitmap(7))", "1"},
            {"SELECT bitmap_count(bitmap_empty())", "0"},
            {"SELECT bitmap_count(NULL)", "0"},
            {"SELECT bitmap_to_string(bitmap_empty())", ""},
            {"SELECT bitmap_to_string(bitmap_from_string('3, 1,2,3'))", "1,2,3"},
            {"SELECT bitmap_from_string('-1, 0')", "NULL"},
            {"SELECT bitmap_from_string('1,,2')", "NULL"},
            {"SELECT bitmap_contains(bitmap_from_string('1,2'), 2)", "1"},
            {"SELECT bitmap_contains(bitmap_from_string('1,2'), 3)", "0"},
            {"SELECT bitmap_contains(NULL, 3)", "NULL"},
            {"SELECT bitmap_to_string(bitmap_hash('hello'))", "1321743225"},
    };
    check_all(p, sizeof p / sizeof p[0]);
    tx *t = tx_new();
    cr_assert_eq(tx_err(t, "SELECT bitmap_count('not a bitmap')"), 1210);
    tx_free(t);
}

/* Aggregates over one BIGINT column k of rows kv[0..n) (INT64_MIN = NULL), or over the bitmap
 * TO_BITMAP(k) when over_bitmap; returns the single result as text (statement arena). */
static const char *
agg_over(tx *t, plan_agg_kind kind, bool over_bitmap, const int64_t *kv, size_t n)
{
    plan_ectx cx;
    plan__ectx_init(&cx, t->s, t->a, "", 0);
    plan_bind_col bind;
    memset(&bind, 0, sizeof bind);
    bind.name = "k";
    plan__type_bigint(&bind.t, 20, true);
    bind.vk = PV_INT;
    plan_vtype type;
    memset(&type, 0, sizeof type);
    type.kind = PV_INT;
    plan_value *rows = arena_calloc(t->a, n + 1, sizeof *rows);
    for (size_t i = 0; i < n; i++) {
        rows[i] = kv[i] == INT64_MIN ? plan__v_null() : plan__v_int(kv[i]);
    }
    const char *sql = over_bitmap ? "SELECT to_bitmap(k)" : "SELECT k";
    plan_stmt *st;
    db_error err;
    cr_assert_eq(plan__parse(t->a, sql, strlen(sql), false, false, false, &st, &err), DB_OK);
    cx.sql = sql;
    cx.sql_len = strlen(sql);
    plan_agg ag;
    memset(&ag, 0, sizeof ag);
    plan_expr *e;
    cr_assert_eq(plan__analyze(&cx, st->items[0].expr, &bind, 1, "field list", &e, &err), DB_OK,
                 "%s", err.msg);
    ag.arg = e;
    static const char *const names[] = {
            [PLAN_AGG_BITMAP_UNION] = "bitmap_union",
            [PLAN_AGG_BITMAP_UNION_COUNT] = "bitmap_union_count",
            [PLAN_AGG_BITMAP_INTERSECT] = "bitmap_intersect",
            [PLAN_AGG_BITMAP_AGG] = "bitmap_agg",
            [PLAN_AGG_ARRAY_AGG] = "array_agg",
            [PLAN_AGG_COLLECT_SET] = "collect_set",
    };
    cr_assert(plan__agg_doris_kind(names[kind], &ag));
    cr_assert_eq(ag.kind, kind);
    plan_op *op = plan__op_agg(&cx, plan__op_rows(&cx, &type, 1, rows, n, 3), &ag, 1);
    cr_assert_eq(op->open(op, &err), DB_OK, "%s", err.msg);
    plan_batch *b;
    cr_assert_eq(op->next(op, &b, &err), DB_OK, "%s", err.msg);
    cr_assert_not_null(b);
    plan_value v;
    plan__batch_get(b, 0, plan__batch_row(b, 0), &v);
    const char *out;
    if (kind == PLAN_AGG_BITMAP_UNION_COUNT || kind == PLAN_AGG_ARRAY_AGG ||
        kind == PLAN_AGG_COLLECT_SET) {
        const char *s;
        size_t len;
        cr_assert(plan__v_string(&cx, &v, &s, &len));
        out = arena_strndup(t->a, s, len);
    } else { /* a bitmap: its elements */
        roaring_bitmap_t *bm = plan__bitmap_decode(v.str.s, v.str.len);
        cr_assert_not_null(bm);
        char *buf = arena_alloc(t->a, 256);
        size_t o = 0;
        roaring_uint32_iterator_t *it = roaring_create_iterator(bm);
        for (; it->has_value; roaring_advance_uint32_iterator(it)) {
            o += (size_t)snprintf(buf + o, 256 - o, o ? ",%u" : "%u", it->current_value);
        }
        buf[o] = '\0';
        roaring_free_uint32_iterator(it);
        roaring_bitmap_free(bm);
        out = buf;
    }
    op->close(op);
    return out;
}

Test(plan_bitmap, aggregates)
{
    tx *t = tx_new();
    const int64_t kv[] = {3, INT64_MIN, 1, 3, 70000, -5, 1};
    size_t n = sizeof kv / sizeof kv[0];
    cr_assert_str_eq(agg_over(t, PLAN_AGG_BITMAP_UNION, true, kv, n), "1,3,70000");
    cr_assert_str_eq(agg_over(t, PLAN_AGG_BITMAP_UNION_COUNT, true, kv, n), "3");
    cr_assert_str_eq(agg_over(t, PLAN_AGG_BITMAP_AGG, false, kv, n), "1,3,70000");
    cr_assert_str_eq(agg_over(t, PLAN_AGG_ARRAY_AGG, false, kv, n), "[3, 1, 3, 70000, -5, 1]");
    cr_assert_str_eq(agg_over(t, PLAN_AGG_COLLECT_SET, false, kv, n), "[3, 1, 70000, -5]");
    const int64_t same[] = {4, 4, INT64_MIN};
    cr_assert_str_eq(agg_over(t, PLAN_AGG_BITMAP_INTERSECT, true, same, 3), "4");
    cr_assert_str_eq(agg_over(t, PLAN_AGG_BITMAP_INTERSECT, true, kv, n), "");
    /* Empty input: 0, "[]", the empty bitmap. */
    cr_assert_str_eq(agg_over(t, PLAN_AGG_BITMAP_UNION_COUNT, true, NULL, 0), "0");
    cr_assert_str_eq(agg_over(t, PLAN_AGG_ARRAY_AGG, false, NULL, 0), "[]");
    cr_assert_str_eq(agg_over(t, PLAN_AGG_COLLECT_SET, false, NULL, 0), "[]");
    cr_assert_str_eq(agg_over(t, PLAN_AGG_BITMAP_UNION, true, NULL, 0), "");
    cr_assert(!plan__agg_doris_kind("sum", NULL));
    cr_assert(plan__agg_doris_kind("collect_list", NULL));
    tx_free(t);
}
