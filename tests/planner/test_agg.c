/* SPDX-License-Identifier: Apache-2.0
 * test_agg.c: the group hash table of plan_agg.c (plan_aht): many groups, probing collisions,
 * the NULL group, case-insensitive strings, 200k groups, the memory limit; and GROUP BY through
 * a session over information_schema; the Doris statistics aggregates (percentile interpolation,
 * NDV, MEDIAN, a prepared PERCENTILE level). */
#include "planner/plan_exec_int.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tests/planner/plan_testutil.h"

typedef struct fx {
    locale_t loc;
    plan_aht h;
} fx;

static void
fx_init(fx *f, uint32_t nkeys, const bool *ci, size_t limit)
{
    f->loc = plan__ctype_new();
    plan__aht_init(&f->h, nkeys, ci, f->loc, sizeof(uint64_t), limit);
}

static void
fx_free(fx *f)
{
    plan__aht_destroy(&f->h);
    plan__ctype_free(f->loc);
}

/* Upsert keys; count the row in the payload; returns whether the group was new. */
static bool
put(fx *f, const plan_value *keys)
{
    void *p;
    bool is_new;
    db_error err;
    memset(&err, 0, sizeof err);
    cr_assert_eq(plan__aht_upsert(&f->h, keys, &p, &is_new, &err), DB_OK);
    (*(uint64_t *)p)++;
    return is_new;
}

static plan_value
str(const char *s)
{
    return plan__v_str(s, strlen(s));
}

Test(plan_agg, many_int_groups_each_found_again)
{
    fx f;
    fx_init(&f, 1, NULL, PLAN_AGG_MEM_LIMIT);
    for (int round = 0; round < 3; round++) {
        for (int64_t i = 0; i < 10000; i++) {
            plan_value k = plan__v_int(i * 7919 - 5000);
            cr_assert_eq(put(&f, &k), round == 0);
        }
    }
    cr_assert_eq(f.h.n, 10000);
    for (uint32_t i = 0; i < f.h.n; i++) { /* insertion order, 3 rows each */
        cr_assert_eq(plan__aht_keys(&f.h, i)[0].i, (int64_t)i * 7919 - 5000);
        cr_assert_eq(*(uint64_t *)plan__aht_payload(&f.h, i), 3);
    }
    fx_free(&f);
}

Test(plan_agg, colliding_tuples_stay_apart)
{
    /* Tuples that share parts (and, through linear probing in a half-full table, slots). */
    bool ci[2] = {false, false};
    fx f;
    fx_init(&f, 2, ci, PLAN_AGG_MEM_LIMIT);
    char buf[32];
    for (int i = 0; i < 2000; i++) {
        snprintf(buf, sizeof buf, "%d", i % 50);
        plan_value k[2] = {plan__v_int(i / 50), plan__v_str(buf, strlen(buf))};
        cr_assert(put(&f, k));
    }
    /* (1, "23") is there already; (100, "3") is not. */
    plan_value a[2] = {plan__v_int(1), str("23")};
    plan_value b[2] = {plan__v_int(100), str("3")};
    bool na = put(&f, a), nb = put(&f, b);
    cr_assert(!na); /* (1, "23") exists from the loop */
    cr_assert(nb);
    cr_assert_eq(f.h.n, 2001);
    fx_free(&f);
}

Test(plan_agg, null_is_one_group_apart_from_zero_and_empty)
{
    bool ci[1] = {true};
    fx f;
    fx_init(&f, 1, ci, PLAN_AGG_MEM_LIMIT);
    plan_value n = plan__v_null(), z = plan__v_int(0), e = str("");
    cr_assert(put(&f, &n));
    cr_assert(!put(&f, &n));
    cr_assert(put(&f, &z));
    cr_assert(put(&f, &e));
    cr_assert(!put(&f, &n));
    cr_assert_eq(f.h.n, 3);
    cr_assert_eq(*(uint64_t *)plan__aht_payload(&f.h, 0), 3);
    fx_free(&f);
}

Test(plan_agg, case_insensitive_strings_group_together)
{
    bool ci[1] = {true};
    fx f;
    fx_init(&f, 1, ci, PLAN_AGG_MEM_LIMIT);
    const char *same[] = {"abc", "ABC", "aBc", "abc  ", "ABC "};
    for (size_t i = 0; i < 5; i++) {
        plan_value k = str(same[i]);
        cr_assert_eq(put(&f, &k), i == 0, "%s", same[i]);
    }
    plan_value u1 = str("\xc3\xa9t\xc3\xa9"), u2 = str("\xc3\x89T\xc3\x89"); /* été / ÉTÉ */
    cr_assert(put(&f, &u1));
    cr_assert(!put(&f, &u2));
    plan_value other = str("abd"), lead = str(" abc");
    cr_assert(put(&f, &other));
    cr_assert(put(&f, &lead)); /* leading spaces count */
    cr_assert_eq(f.h.n, 4);
    cr_assert_str_eq(plan__aht_keys(&f.h, 0)[0].str.s, "abc"); /* the first spelling stays */
    fx_free(&f);

    bool bin[1] = {false};
    fx_init(&f, 1, bin, PLAN_AGG_MEM_LIMIT);
    plan_value a = str("a"), b = str("A"), c = str("a ");
    cr_assert(put(&f, &a));
    cr_assert(put(&f, &b));
    cr_assert(put(&f, &c));
    fx_free(&f);
}

Test(plan_agg, doubles_and_decimals)
{
    fx f;
    fx_init(&f, 1, NULL, PLAN_AGG_MEM_LIMIT);
    plan_value z = plan__v_double(0.0), nz = plan__v_double(-0.0), one = plan__v_double(1.0);
    cr_assert(put(&f, &z));
    cr_assert(!put(&f, &nz));
    cr_assert(put(&f, &one));
    fx_free(&f);
    fx_init(&f, 1, NULL, PLAN_AGG_MEM_LIMIT);
    plan_value d1 = plan__v_dec(125, 2), d2 = plan__v_dec(125, 2), d3 = plan__v_dec(-125, 2);
    cr_assert(put(&f, &d1));
    cr_assert(!put(&f, &d2));
    cr_assert(put(&f, &d3));
    fx_free(&f);
}

Test(plan_agg, two_hundred_thousand_groups)
{
    bool ci[2] = {false, true};
    fx f;
    fx_init(&f, 2, ci, PLAN_AGG_MEM_LIMIT);
    char buf[32];
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 200000; i++) {
            snprintf(buf, sizeof buf, pass ? "KEY-%d" : "key-%d", i);
            plan_value k[2] = {plan__v_int(i % 7), plan__v_str(buf, strlen(buf))};
            cr_assert_eq(put(&f, k), pass == 0);
        }
    }
    cr_assert_eq(f.h.n, 200000);
    for (uint32_t i = 0; i < f.h.n; i += 997) {
        cr_assert_eq(*(uint64_t *)plan__aht_payload(&f.h, i), 2);
    }
    fx_free(&f);
}

Test(plan_agg, memory_limit_is_an_error)
{
    fx f;
    fx_init(&f, 1, NULL, 64 * 1024);
    db_error err;
    memset(&err, 0, sizeof err);
    int rc = DB_OK;
    for (int64_t i = 0; i < 100000 && rc == DB_OK; i++) {
        plan_value k = plan__v_int(i);
        void *p;
        bool is_new;
        rc = plan__aht_upsert(&f.h, &k, &p, &is_new, &err);
    }
    cr_assert_eq(rc, DB_ERR);
    cr_assert_eq(err.code, 1105);
    cr_assert(strstr(err.msg, "Aggregation") != NULL, "%s", err.msg);
    fx_free(&f);
}

Test(plan_agg, group_by_over_information_schema)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "SELECT TABLE_NAME, COUNT(*) AS c FROM information_schema.COLUMNS "
                            "WHERE TABLE_SCHEMA = 'information_schema' AND TABLE_NAME LIKE "
                            "'SCHEMATA' GROUP BY TABLE_NAME HAVING c > 1 ORDER BY 1"),
                 DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_cell(t, 0, 0), "SCHEMATA");
    cr_assert_str_eq(tx_one(t, "SELECT COUNT(DISTINCT TABLE_SCHEMA) FROM information_schema.TABLES "
                               "WHERE TABLE_SCHEMA = 'information_schema'"),
                     "1");
    cr_assert_eq(tx_err(t, "SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES GROUP "
                           "BY TABLE_NAME"),
                 1055);
    /* Prepared (described, then run twice): the statement's AST is never rewritten in place. */
    uint32_t id;
    uint16_t np;
    cr_assert_eq(tx_prepare(t,
                            "SELECT TABLE_SCHEMA AS s, COUNT(*) AS c, GROUP_CONCAT(DISTINCT "
                            "TABLE_TYPE) FROM information_schema.TABLES WHERE TABLE_NAME LIKE ? "
                            "GROUP BY s HAVING c >= 1 ORDER BY c DESC",
                            &id, &np),
                 DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->ncols, 3);
    cr_assert_eq(np, 1);
    for (int run = 0; run < 2; run++) {
        plan_param p;
        memset(&p, 0, sizeof p);
        p.kind = PLAN_PARAM_STRING;
        p.s = "C%";
        p.len = 2;
        cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK, "%s", t->err.msg);
        cr_assert_eq(t->nrows, 1);
        cr_assert_str_eq(tx_cell(t, 0, 1), "3");
        cr_assert_str_eq(tx_cell(t, 0, 2), "SYSTEM VIEW");
    }
    tx_free(t);
}

/* PERCENTILE's interpolation at (n - 1) * p between the two closest ranks (Doris's exact
 * percentile): the example of Doris issue 6419, the ends, one value, equal neighbours. */
Test(plan_agg, percentile_interpolates_between_ranks)
{
    double v[] = {19, 2, 1, 1, 7, 5, 7, 9, 9, 1};
    double w[10];
    memcpy(w, v, sizeof v);
    cr_assert_float_eq(plan__agg_percentile(w, 10, 0.25), 1.25, 1e-12);
    cr_assert_eq(w[0], 1); /* sorted in place */
    cr_assert_eq(w[9], 19);
    cr_assert_eq(plan__agg_percentile(w, 10, 0), 1);
    cr_assert_eq(plan__agg_percentile(w, 10, 1), 19);
    cr_assert_eq(plan__agg_percentile(w, 10, 0.5), 6); /* (5 + 7) / 2 */
    cr_assert_eq(plan__agg_percentile(w, 10, 0.6), 7); /* between 7 and 7: exactly 7 */
    double one[] = {-3.5};
    cr_assert_eq(plan__agg_percentile(one, 1, 0.99), -3.5);
}

/* NDV, MEDIAN and a prepared PERCENTILE whose level is a placeholder (a constant: described
 * without a value, evaluated once per execution). */
Test(plan_agg, doris_statistics_aggregates)
{
    tx *t = tx_new();
    const char *where = " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = "
                        "'information_schema' AND TABLE_NAME = 'SCHEMATA'";
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT NDV(ORDINAL_POSITION) = COUNT(*), MEDIAN(ORDINAL_POSITION) * 2 = "
             "MIN(ORDINAL_POSITION) + MAX(ORDINAL_POSITION)%s",
             where);
    cr_assert_eq(tx_exec(t, sql), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 0), "1");
    cr_assert_str_eq(tx_cell(t, 0, 1), "1");
    snprintf(sql, sizeof sql, "SELECT MAX(ORDINAL_POSITION)%s", where);
    char max[32];
    snprintf(max, sizeof max, "%s", tx_one(t, sql));
    snprintf(sql, sizeof sql, "SELECT PERCENTILE(ORDINAL_POSITION, ?)%s", where);
    uint32_t id;
    uint16_t np;
    cr_assert_eq(tx_prepare(t, sql, &id, &np), DB_OK, "%s", t->err.msg);
    cr_assert_eq(np, 1);
    const double levels[] = {0, 1, 2};
    for (int run = 0; run < 3; run++) {
        plan_param p;
        memset(&p, 0, sizeof p);
        p.kind = PLAN_PARAM_DOUBLE;
        p.d = levels[run];
        int rc = tx_exec_prepared(t, id, &p, 1);
        if (run < 2) {
            cr_assert_eq(rc, DB_OK, "%s", t->err.msg);
            cr_assert_str_eq(tx_cell(t, 0, 0), run == 0 ? "1" : max);
        } else {
            cr_assert_eq(rc, DB_ERR);
            cr_assert(strstr(t->err.msg, "quantile in func percentile") != NULL, "%s", t->err.msg);
        }
    }
    tx_free(t);
}
