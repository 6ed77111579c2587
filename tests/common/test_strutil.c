/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for common/strutil: ASCII case folding and the SQL LIKE matcher, including
 * escapes, UTF-8 `_` and patterns that make backtracking matchers explode. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"

static bool like(const char *s, const char *pat);
static bool like_ci(const char *s, const char *pat);
static char *repeat(const char *unit, size_t n, const char *tail);

static bool
like(const char *s, const char *pat)
{
    return str_like(s, strlen(s), pat, strlen(pat), '\\', false);
}

static bool
like_ci(const char *s, const char *pat)
{
    return str_like(s, strlen(s), pat, strlen(pat), '\\', true);
}

/* unit repeated n times, then tail; caller frees. */
static char *
repeat(const char *unit, size_t n, const char *tail)
{
    size_t ulen = strlen(unit), tlen = strlen(tail);
    char *s = malloc(ulen * n + tlen + 1);
    cr_assert_not_null(s);
    for (size_t i = 0; i < n; i++) {
        memcpy(s + i * ulen, unit, ulen);
    }
    memcpy(s + ulen * n, tail, tlen + 1);
    return s;
}

Test(str_fold, ieq)
{
    cr_expect(str_ieq("Hello", 5, "hELLO", 5));
    cr_expect(!str_ieq("Hello", 5, "hELL", 4));
    cr_expect(!str_ieq("abc", 3, "abd", 3));
    cr_expect(str_ieq("", 0, "", 0));
    cr_expect(str_ieqz("SELECT", 6, "select"));
    cr_expect(!str_ieqz("SELECT", 6, "selec"));
    cr_expect(str_ieqz("SELECTx", 6, "select"));
    /* Folding is ASCII only: '@' (0x40) and '`' (0x60) are not letters. */
    cr_expect(!str_ieq("@", 1, "`", 1));
    cr_expect(!str_ieq("[", 1, "{", 1));
    cr_expect(!str_ieq("\xc3\x89", 2, "\xc3\xa9", 2)); /* É vs é */
}

Test(str_fold, lower)
{
    char s[] = "MiXeD 123 _Z@[";
    str_lower(s, strlen(s));
    cr_expect_str_eq(s, "mixed 123 _z@[");
    char part[] = "ABCD";
    str_lower(part, 2);
    cr_expect_str_eq(part, "abCD");
}

Test(str_like, literals)
{
    cr_expect(like("abc", "abc"));
    cr_expect(!like("abc", "abd"));
    cr_expect(!like("abc", "ab"));
    cr_expect(!like("ab", "abc"));
    cr_expect(like("", ""));
    cr_expect(!like("a", ""));
    cr_expect(!like("", "a"));
}

Test(str_like, percent)
{
    cr_expect(like("", "%"));
    cr_expect(like("anything", "%"));
    cr_expect(like("abc", "a%"));
    cr_expect(like("abc", "%c"));
    cr_expect(like("abc", "%b%"));
    cr_expect(like("abc", "a%b%c"));
    cr_expect(like("abc", "abc%"));
    cr_expect(like("abc", "%%%abc%%%"));
    cr_expect(!like("abc", "%d%"));
    cr_expect(!like("abc", "b%"));
    cr_expect(like("mississippi", "%iss%ppi"));
    cr_expect(like("mississippi", "m%ss%ss%"));
    cr_expect(!like("mississippi", "m%ss%ss%ss%"));
    cr_expect(like("aXbXc", "%X%X%"));
}

Test(str_like, underscore)
{
    cr_expect(like("a", "_"));
    cr_expect(!like("", "_"));
    cr_expect(!like("ab", "_"));
    cr_expect(like("abc", "a_c"));
    cr_expect(like("abc", "___"));
    cr_expect(!like("abc", "____"));
    cr_expect(like("abc", "_%"));
    cr_expect(like("abc", "%_"));
    cr_expect(!like("", "%_"));
    cr_expect(like("abcd", "_b%_"));
}

Test(str_like, underscore_is_one_utf8_character)
{
    cr_expect(like("\xc3\xa9", "_")); /* é, 2 bytes */
    cr_expect(!like("\xc3\xa9", "__"));
    cr_expect(like("\xe6\x97\xa5\xe6\x9c\xac", "__")); /* 日本, 3 bytes each */
    cr_expect(!like("\xe6\x97\xa5\xe6\x9c\xac", "_"));
    cr_expect(like("\xf0\x9f\x98\x80", "_")); /* emoji, 4 bytes */
    cr_expect(like("x\xf0\x9f\x98\x80y", "x_y"));
    cr_expect(like("a\xc3\xa9"
                   "b",
                   "%_b"));
    cr_expect(like("\xe6\x97\xa5\xe6\x9c\xac", "%\xe6\x9c\xac"));
    cr_expect(like("\xe6\x97\xa5\xe6\x9c\xac", "_\xe6\x9c\xac"));
    cr_expect(!like("\xe6\x97\xa5\xe6\x9c\xac", "__\xe6\x9c\xac"));
}

Test(str_like, escapes)
{
    cr_expect(like("100%", "100\\%"));
    cr_expect(!like("1000", "100\\%"));
    cr_expect(like("a_b", "a\\_b"));
    cr_expect(!like("axb", "a\\_b"));
    cr_expect(like("a\\b", "a\\\\b"));
    cr_expect(!like("a\\\\b", "a\\\\b"));
    cr_expect(like("50% off", "%\\%%"));
    cr_expect(!like("50 off", "%\\%%"));
    /* An escaped ordinary character is that character. */
    cr_expect(like("abc", "a\\bc"));
    /* A trailing escape matches itself. */
    cr_expect(like("ab\\", "ab\\"));
    /* Another escape character. */
    cr_expect(str_like("a%", 2, "a!%", 3, '!', false));
    cr_expect(!str_like("ab", 2, "a!%", 3, '!', false));
    cr_expect(str_like("a\\x", 3, "a\\_", 3, '!', false)); /* '\\' is plain text here */
}

Test(str_like, case_folding)
{
    cr_expect(!like("ABC", "abc"));
    cr_expect(like_ci("ABC", "abc"));
    cr_expect(like_ci("Hello World", "hello%WORLD"));
    cr_expect(like_ci("x", "X"));
    cr_expect(!like_ci("x", "y"));
    /* ASCII folding only: é and É differ, as documented. */
    cr_expect(!like_ci("\xc3\x89", "\xc3\xa9"));
    cr_expect(like_ci("A_b", "a\\_B"));
}

Test(str_like, lengths_not_nul)
{
    /* Bytes past the given lengths are not looked at. */
    cr_expect(str_like("abcdef", 3, "abc", 3, '\\', false));
    cr_expect(str_like("abc", 3, "a%zzz", 2, '\\', false));
    cr_expect(str_like("a\0b", 3, "a_b", 3, '\\', false));
}

Test(str_like, many_percents_are_fast, .timeout = 5)
{
    char *s = repeat("a", 200000, "");
    char *pat = repeat("%", 50000, "b");
    cr_expect(!like(s, pat));
    free(pat);
    pat = repeat("%", 50000, "a");
    cr_expect(like(s, pat));
    free(pat);
    free(s);
}

Test(str_like, alternating_percents_are_fast, .timeout = 5)
{
    /* Exponential for a recursive backtracking matcher. */
    char *s = repeat("a", 100000, "");
    char *pat = repeat("%a", 30, "%b");
    cr_expect(!like(s, pat));
    free(pat);
    pat = repeat("a%", 2000, "b");
    cr_expect(!like(s, pat));
    free(pat);
    pat = repeat("%_", 5000, "%");
    cr_expect(like(s, pat));
    free(pat);
    free(s);
}

Test(str_like, long_literal_after_percent_is_fast, .timeout = 5)
{
    char *s = repeat("a", 20000, "");
    char *pat = repeat("a", 300, "b");
    char *full = repeat("%", 1, pat);
    cr_expect(!like(s, full));
    free(full);
    free(pat);
    free(s);
}
