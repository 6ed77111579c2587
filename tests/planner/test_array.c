/* SPDX-License-Identifier: Apache-2.0
 * The ARRAY text scanner and builder (planner/plan_array.h): element kinds, blanks, quotes
 * and escapes, nesting, malformed texts, the canonical builder and element type names. */
#include <criterion/criterion.h>
#include <string.h>

#include "common/arena.h"
#include "planner/plan_array.h"

static int64_t
count(const char *s)
{
    return plan__arr_count(s, strlen(s));
}

Test(plan_array, counts_well_formed_texts)
{
    cr_assert_eq(count("[]"), 0);
    cr_assert_eq(count("  [ ]  "), 0);
    cr_assert_eq(count("[1]"), 1);
    cr_assert_eq(count("[1, 2, null]"), 3);
    cr_assert_eq(count("[\"a,b\", 'c]d', \"e\\\"f\"]"), 3);
    cr_assert_eq(count("[[1, 2], [], [[3]], null]"), 4);
    cr_assert_eq(count("[a b, c]"), 2);
}

Test(plan_array, rejects_malformed_texts)
{
    static const char *const bad[] = {"",        "1, 2",   "[",      "[1",           "[1,",
                                      "[1,]",    "[,1]",   "[1,,2]", "[1 2",         "[1] x",
                                      "[\"a]",   "['a\"]", "[[1]",   "[1]]",         "[a\"b]",
                                      "[1 [2]]", "]",      "x[1]",   "[\"a\" \"b\"]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(count(bad[i]), -1, "%s", bad[i]);
    }
    cr_assert_eq(plan__arr_count(NULL, 0), -1);
}

Test(plan_array, element_kinds_and_spans)
{
    const char *s = "[ null , NULL, \"x\\\"y\", 'z', [1, [2]], -1.5e3 ]";
    plan_arr_iter it;
    plan_arr_elem e;
    cr_assert(plan__arr_begin(&it, s, strlen(s)));
    cr_assert_eq(plan__arr_next(&it, &e), 1);
    cr_assert_eq(e.kind, PLAN_ARR_NULL);
    cr_assert_eq(plan__arr_next(&it, &e), 1);
    cr_assert_eq(e.kind, PLAN_ARR_NULL);
    cr_assert_eq(plan__arr_next(&it, &e), 1);
    cr_assert_eq(e.kind, PLAN_ARR_STR);
    cr_assert_eq(e.quote, '"');
    cr_assert_eq(e.len, 4);
    char u[8];
    cr_assert_eq(plan__arr_unescape(e.s, e.len, u), 3);
    cr_assert_eq(memcmp(u, "x\"y", 3), 0);
    cr_assert_eq(plan__arr_next(&it, &e), 1);
    cr_assert_eq(e.kind, PLAN_ARR_STR);
    cr_assert_eq(e.quote, '\'');
    cr_assert_eq(plan__arr_next(&it, &e), 1);
    cr_assert_eq(e.kind, PLAN_ARR_ARRAY);
    cr_assert_eq(e.len, strlen("[1, [2]]"));
    cr_assert_eq(memcmp(e.s, "[1, [2]]", e.len), 0);
    cr_assert_eq(plan__arr_next(&it, &e), 1);
    cr_assert_eq(e.kind, PLAN_ARR_BARE);
    cr_assert_eq(e.len, 6);
    cr_assert_eq(plan__arr_next(&it, &e), 0);
    cr_assert_eq(plan__arr_next(&it, &e), -1, "a finished scan stays finished");
}

Test(plan_array, builder_writes_canonical_text)
{
    arena *a = arena_new(0);
    plan_arr_out o;
    size_t n;
    plan__arr_out_init(&o, a);
    cr_assert_str_eq(plan__arr_out_end(&o, &n), "[]");
    cr_assert_eq(n, 2);
    plan__arr_out_init(&o, a);
    plan__arr_out_elem(&o, "1", 1);
    plan__arr_out_null(&o);
    plan__arr_out_str(&o, "a\"b\\c", 5);
    for (int i = 0; i < 100; i++) { /* grows past the first block */
        plan__arr_out_elem(&o, "22", 2);
    }
    const char *t = plan__arr_out_end(&o, &n);
    const char *want = "[1, null, \"a\\\"b\\\\c\", 22, 22";
    cr_assert_eq(strncmp(t, want, strlen(want)), 0, "%s", t);
    cr_assert_eq(n, strlen(t));
    cr_assert_eq(count(t), 103);
    arena_free(a);
}

Test(plan_array, element_type_names)
{
    cat_type t;
    cr_assert(plan__arr_type_parse("int", 3, &t));
    cr_assert_eq(t.id, CAT_T_INT);
    cr_assert(plan__arr_type_parse("decimal(10,2)", 13, &t));
    cr_assert_eq(t.id, CAT_T_DECIMAL);
    cr_assert_eq(t.precision, 10);
    cr_assert_eq(t.scale, 2);
    cr_assert(plan__arr_type_parse("varchar(5)", 10, &t));
    cr_assert_eq(t.len, 5);
    cr_assert(plan__arr_type_parse("datetime(3)", 11, &t));
    cr_assert_eq(t.scale, 3);
    cr_assert(plan__arr_type_parse("text", 4, &t));
    cr_assert_eq(t.id, CAT_T_STRING);
    cr_assert(plan__arr_type_parse("array<array<int>>", 17, &t));
    cr_assert_eq(t.id, CAT_T_ARRAY);
    cr_assert_str_eq(t.inner, "array<int>");
    cr_assert(plan__arr_type_quoted(&(cat_type){.id = CAT_T_DATE}));
    cr_assert(!plan__arr_type_quoted(&(cat_type){.id = CAT_T_DOUBLE}));
    static const char *const bad[] = {"json",    "map<int,int>", "array<json>", "int(",
                                      "array<>", "decimal(1,",   "nope",        "",
                                      "array",   "int x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert(!plan__arr_type_parse(bad[i], strlen(bad[i]), &t), "%s", bad[i]);
    }
}
