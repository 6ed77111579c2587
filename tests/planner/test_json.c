/* SPDX-License-Identifier: Apache-2.0
 * The JSON scanner (planner/plan_json.h): validation edge cases (RFC 8259 grammar, UTF-8,
 * escapes and surrogate pairs, number ranges, the nesting limit), the normal form, path
 * parsing and navigation, and the value helpers behind the JSON functions. */
#include <criterion/criterion.h>
#include <string.h>

#include "common/arena.h"
#include "planner/plan_json.h"

static bool
valid(const char *s)
{
    return plan__json_valid(s, strlen(s), NULL);
}

/* Normal form of s, or NULL; lives in a. */
static const char *
norm(arena *a, const char *s)
{
    size_t n;
    return plan__json_normalize(a, s, strlen(s), &n, NULL);
}

Test(plan_json, accepts_rfc8259_texts)
{
    static const char *const ok[] = {
            "null",
            "true",
            "false",
            "0",
            "-0",
            "1",
            "-12",
            "1.5",
            "1e3",
            "1E+3",
            "1e-3",
            "-0.0e0",
            "\"\"",
            "\"a\"",
            "[]",
            "{}",
            " [ 1 , 2 ] ",
            "{\"a\":{\"b\":[{}]}}",
            "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\"",
            "\"\\ud83d\\ude00\"",
            "\"\xc3\xa9\xe4\xb8\xad\"",
            "\t\r\n1\n",
            "{\"a\":1,\"a\":2}",
            "170141183460469231731687303715884105727",
            "-170141183460469231731687303715884105728",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        cr_assert(valid(ok[i]), "%s", ok[i]);
    }
}

Test(plan_json, rejects_what_is_not_json)
{
    static const char *const bad[] = {
            "",
            " ",
            "nul",
            "True",
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "1e+",
            "+1",
            "0x10",
            "NaN",
            "Infinity",
            "'a'",
            "\"a",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\u12G4\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"a\nb\"",
            "\"\x01\"",
            "\"\xff\"",
            "\"\xc0\xaf\"",
            "\"\xed\xa0\x80\"",
            "\"\xf4\x90\x80\x80\"",
            "\"\xe4\xb8\"",
            "[1,]",
            "[,1]",
            "[1 2]",
            "{\"a\"}",
            "{\"a\":}",
            "{a:1}",
            "{\"a\":1,}",
            "{1:2}",
            "[1]]",
            "[[1]",
            "1 2",
            "{}x",
            "1e400",
            "-1e400",
            "170141183460469231731687303715884105728",
            "-170141183460469231731687303715884105729",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_not(valid(bad[i]), "%s", bad[i]);
    }
    plan_json_err e = {0};
    cr_assert_not(plan__json_valid("[1, x]", 6, &e));
    cr_assert_eq(e.pos, 4);
    cr_assert_str_eq(e.msg, "invalid value");
    cr_assert_not(plan__json_valid("a\0", 2, &e));
}

Test(plan_json, nesting_limit_is_an_error_not_a_crash)
{
    size_t n = 200000;
    char *s = malloc(2 * n + 1);
    memset(s, '[', n);
    memset(s + n, ']', n);
    s[2 * n] = '\0';
    plan_json_err e = {0};
    cr_assert_not(plan__json_valid(s, 2 * n, &e));
    cr_assert_str_eq(e.msg, "nesting too deep");
    cr_assert_eq(e.pos, PLAN_JSON_MAX_DEPTH);
    /* exactly the limit is fine */
    cr_assert(plan__json_valid(s + n - PLAN_JSON_MAX_DEPTH, 2 * PLAN_JSON_MAX_DEPTH, NULL));
    free(s);
}

Test(plan_json, normal_form)
{
    arena *a = arena_new(0);
    static const char *const cases[][2] = {
            {" { \"a\" : 1 , \"b\" : [ 1 , 2 ] } ", "{\"a\":1,\"b\":[1,2]}"},
            {"{\"b\":1,\"a\":2,\"b\":3}", "{\"b\":1,\"a\":2,\"b\":3}"},
            {"-0", "0"},
            {"007", NULL},
            {"2.50", "2.5"},
            {"1.0", "1"},
            {"1e3", "1000"},
            {"-7.25E-2", "-0.0725"},
            {"1e-7", "1e-07"},
            {"1e15", "1e+15"},
            {"-0.0", "0"},
            {"0.1", "0.1"},
            {"123456789012345678901234567890.5", "1.23456789012346e+29"},
            {"9223372036854775808", "9223372036854775808"},
            {"\"\\u0041\\u00e9\\u4e2d\\ud83d\\ude00\"",
             "\"A\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\""},
            {"\"\\/\"", "\"/\""},
            {"\"\\u0001\\u001F\\u007f\"", "\"\\u0001\\u001f\x7f\""},
            {"\"\\b\\f\\n\\r\\t\\\"\\\\\"", "\"\\b\\f\\n\\r\\t\\\"\\\\\""},
            {"\"\\u0000\"", "\"\\u0000\""},
            {"[true,false,null]", "[true,false,null]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = norm(a, cases[i][0]);
        if (cases[i][1] == NULL) {
            cr_assert_null(got, "%s", cases[i][0]);
            continue;
        }
        cr_assert_not_null(got, "%s", cases[i][0]);
        cr_assert_str_eq(got, cases[i][1], "%s", cases[i][0]);
        /* a normal form is its own normal form */
        cr_assert_str_eq(norm(a, got), got);
    }
    /* long number tokens read back right (no fixed-size copy of the token) */
    char big[1200];
    memcpy(big, "0.", 2);
    memset(big + 2, '0', 300);
    memcpy(big + 302, "15", 3);
    cr_assert_str_eq(norm(a, big), "1.5e-301");
    big[0] = '1';
    memset(big + 1, '0', 1000);
    memcpy(big + 1001, "e-1000", 7);
    cr_assert_str_eq(norm(a, big), "1");
    arena_free(a);
}

Test(plan_json, paths_parse)
{
    arena *a = arena_new(0);
    plan_json_path p;
    cr_assert(plan__json_path_parse(a, "$", 1, &p));
    cr_assert_eq(p.nsteps, 0);
    const char *s = "$.a.\"b.c\"[2][last][last-3].[1]";
    cr_assert(plan__json_path_parse(a, s, strlen(s), &p));
    cr_assert_eq(p.nsteps, 6);
    cr_assert_eq(p.steps[0].kind, PLAN_JSON_KEY);
    cr_assert_eq(p.steps[0].klen, 1);
    cr_assert_eq(p.steps[1].kind, PLAN_JSON_KEY);
    cr_assert(p.steps[1].klen == 3 && memcmp(p.steps[1].key, "b.c", 3) == 0);
    cr_assert(p.steps[2].kind == PLAN_JSON_INDEX && p.steps[2].n == 2);
    cr_assert(p.steps[3].kind == PLAN_JSON_LAST && p.steps[3].n == 0);
    cr_assert(p.steps[4].kind == PLAN_JSON_LAST && p.steps[4].n == 3);
    cr_assert(p.steps[5].kind == PLAN_JSON_INDEX && p.steps[5].n == 1);
    static const char *const bad[] = {"",    "a",     "$.",   "$..a",     "$.*",   "$[*]", "$[",
                                      "$[1", "$[-1]", "$[x]", "$[last-]", "$.\"a", "$a",   "$**"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_not(plan__json_path_parse(a, bad[i], strlen(bad[i]), &p), "%s", bad[i]);
    }
    arena_free(a);
}

/* The value at path in doc (both C strings), or NULL when there is none. */
static const char *
find(arena *a, const char *doc, const char *path)
{
    plan_json_path p;
    cr_assert(plan__json_path_parse(a, path, strlen(path), &p), "%s", path);
    size_t vs, ve;
    if (!plan__json_find(doc, strlen(doc), &p, &vs, &ve)) {
        return NULL;
    }
    return arena_strndup(a, doc + vs, ve - vs);
}

Test(plan_json, navigation)
{
    arena *a = arena_new(0);
    const char *d = "{\"a\":1,\"b\":[10,{\"c\":\"x\"},[1,2]],\"a\":2,\"k.e\":true,\"\\u0041\":3}";
    cr_assert_str_eq(find(a, d, "$"), d);
    cr_assert_str_eq(find(a, d, "$.a"), "1"); /* the first of duplicate names */
    cr_assert_str_eq(find(a, d, "$.b[1].c"), "\"x\"");
    cr_assert_str_eq(find(a, d, "$.b[last]"), "[1,2]");
    cr_assert_str_eq(find(a, d, "$.b[last-2]"), "10");
    cr_assert_str_eq(find(a, d, "$.b[2][1]"), "2");
    cr_assert_str_eq(find(a, d, "$.\"k.e\""), "true");
    cr_assert_str_eq(find(a, d, "$.A"), "3"); /* names compare decoded */
    cr_assert_null(find(a, d, "$.b[3]"));
    cr_assert_null(find(a, d, "$.b[last-3]"));
    cr_assert_null(find(a, d, "$.z"));
    cr_assert_null(find(a, d, "$[0]"));  /* an index needs an array */
    cr_assert_null(find(a, d, "$.a.b")); /* a key needs an object */
    cr_assert_null(find(a, "[]", "$[0]"));
    cr_assert_str_eq(find(a, " [ 1 , { \"q\" : [ 2 ] } ] ", "$[1].q[0]"), "2");
    arena_free(a);
}

Test(plan_json, value_helpers)
{
    arena *a = arena_new(0);
    cr_assert_eq(plan__json_kind("2147483647", 10), PLAN_JSON_INT);
    cr_assert_eq(plan__json_kind("2147483648", 10), PLAN_JSON_BIGINT);
    cr_assert_eq(plan__json_kind("-9223372036854775809", 20), PLAN_JSON_LARGEINT);
    cr_assert_eq(plan__json_kind("1.5", 3), PLAN_JSON_DOUBLE);
    cr_assert_eq(plan__json_kind("1e+20", 5), PLAN_JSON_DOUBLE);
    cr_assert_str_eq(plan__json_kind_name(plan__json_kind("{}", 2)), "object");
    cr_assert_str_eq(plan__json_kind_name(plan__json_kind("false", 5)), "bool");
    cr_assert_eq(plan__json_length("[1,[2,3],{\"a\":[4]}]", 19), 3);
    cr_assert_eq(plan__json_length("{\"a\":1,\"b\":{}}", 14), 2);
    cr_assert_eq(plan__json_length("[]", 2), 0);
    cr_assert_eq(plan__json_length("\"x\"", 3), 1);
    size_t n;
    const char *u = plan__json_unescape(a, "\"a\\\"b\\\\c\\n\\u0001\"", 17, &n);
    cr_assert(n == 7 && memcmp(u, "a\"b\\c\n\x01", 7) == 0);
    cr_assert_str_eq(plan__json_quote(a, "a\"b\\\n\x01\xc3\xa9", 8, &n),
                     "\"a\\\"b\\\\\\n\\u0001\xc3\xa9\"");
    cr_assert(plan__json_contains("[1,2,[3,4]]", 11, "[4,1]", 5));
    cr_assert(plan__json_contains("{\"a\":{\"b\":1,\"c\":2}}", 19, "{\"a\":{\"c\":2}}", 13));
    cr_assert_not(plan__json_contains("{\"a\":1}", 7, "1", 1));
    cr_assert(plan__json_contains("1", 1, "1.5e0", 5) == false);
    cr_assert(plan__json_contains("1", 1, "1e0", 3)); /* numbers compare by value */
    cr_assert(plan__json_contains("1.5", 3, "1.5", 3));
    cr_assert_not(plan__json_contains("\"1\"", 3, "1", 1));
    arena_free(a);
}
