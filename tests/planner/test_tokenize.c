/* SPDX-License-Identifier: Apache-2.0
 * Tokenizer, statement splitting and blank detection (white-box: plan_int.h). */
#include <criterion/criterion.h>
#include <string.h>

#include "planner/parse.h"
#include "planner/plan_int.h"

/* Token types of sql, skipping blanks and comments; returns the count. */
static size_t
lex(const char *sql, int *types, plan_token *toks, size_t max)
{
    plan_lexer lx;
    plan__lexer_init(&lx, sql, strlen(sql));
    size_t n = 0;
    for (;;) {
        plan_token t;
        plan__lexer_next(&lx, &t);
        if (t.type == 0) {
            break;
        }
        if (t.type == TK_SPACE || t.type == TK_COMMENT) {
            continue;
        }
        if (n < max) {
            types[n] = t.type;
            if (toks) {
                toks[n] = t;
            }
        }
        n++;
    }
    return n;
}

Test(plan_tokenize, keywords_are_case_insensitive)
{
    int t[8];
    cr_assert_eq(lex("select SeLeCt SELECT", t, NULL, 8), 3);
    cr_assert_eq(t[0], TK_SELECT);
    cr_assert_eq(t[1], TK_SELECT);
    cr_assert_eq(t[2], TK_SELECT);
    cr_assert_eq(plan__keyword("variables", 9), TK_VARIABLES);
    cr_assert_eq(plan__keyword("nosuchword", 10), 0);
}

Test(plan_tokenize, position_is_a_keyword_only_before_a_parenthesis)
{
    int t[8];
    cr_assert_eq(lex("position (x position Position(", t, NULL, 8), 6);
    cr_assert_eq(t[0], TK_POSITION);
    cr_assert_eq(t[1], TK_LP);
    cr_assert_eq(t[2], TK_ID);
    cr_assert_eq(t[3], TK_ID);
    cr_assert_eq(t[4], TK_POSITION);
    cr_assert_eq(t[5], TK_LP);
}

Test(plan_tokenize, identifiers)
{
    int t[8];
    plan_token k[8];
    cr_assert_eq(lex("abc `a``b` _x $y 1abc `select`", t, k, 8), 6);
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(t[i], TK_ID, "token %d", i);
    }
    arena *a = arena_new(0);
    cr_assert_str_eq(plan__ident_decode(a, &k[1]), "a`b");
    cr_assert_str_eq(plan__ident_decode(a, &k[5]), "select");
    cr_assert_str_eq(plan__ident_decode(a, &k[4]), "1abc");
    arena_free(a);
}

Test(plan_tokenize, numbers)
{
    int t[16];
    plan_token k[16];
    size_t n = lex("1 1.5 .5 1e3 1.5E-2 0x1F X'1F' x'' b'101' 0b101 1. 0xZZ", t, k, 16);
    cr_assert_eq(n, 12);
    int want[] = {TK_INTNUM, TK_DECNUM, TK_DECNUM, TK_FLOATNUM, TK_FLOATNUM, TK_HEXNUM,
                  TK_HEXNUM, TK_HEXNUM, TK_BITNUM, TK_BITNUM,   TK_DECNUM,   TK_ID};
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(t[i], want[i], "token %zu is %d", i, t[i]);
    }
    cr_assert_eq(k[3].n, 3);
}

Test(plan_tokenize, odd_hex_string_is_illegal)
{
    int t[4];
    cr_assert_eq(lex("X'F'", t, NULL, 4), 1);
    cr_assert_eq(t[0], TK_ILLEGAL);
}

Test(plan_tokenize, strings_and_escapes)
{
    int t[8];
    plan_token k[8];
    cr_assert_eq(lex("'it''s' \"dq\"\"x\" 'a\\nb\\tc\\0d\\\\e\\'f\\\"g\\%h\\_i\\Zj\\bk\\rl\\q'", t,
                     k, 8),
                 3);
    arena *a = arena_new(0);
    size_t len;
    cr_assert_str_eq(plan__string_decode(a, &k[0], false, &len), "it's");
    cr_assert_str_eq(plan__string_decode(a, &k[1], false, &len), "dq\"x");
    char *s = plan__string_decode(a, &k[2], false, &len);
    const char want[] = "a\nb\tc\0d\\e'f\"g\\%h\\_i\032j\bk\rlq";
    cr_assert_eq(len, sizeof want - 1);
    cr_assert(memcmp(s, want, len) == 0);
    /* NO_BACKSLASH_ESCAPES keeps the backslash. */
    plan_token raw = {TK_STRING, "'a\\nb'", 6, 0};
    cr_assert_str_eq(plan__string_decode(a, &raw, true, &len), "a\\nb");
    arena_free(a);
}

Test(plan_tokenize, unterminated_string_is_illegal)
{
    int t[4];
    cr_assert_eq(lex("select 'abc", t, NULL, 4), 2);
    cr_assert_eq(t[1], TK_ILLEGAL);
    cr_assert_eq(lex("select `abc", t, NULL, 4), 2);
    cr_assert_eq(t[1], TK_ILLEGAL);
}

Test(plan_tokenize, comments)
{
    int t[8];
    cr_assert_eq(lex("1 -- comment\n2 # hash\n3 /* block */ 4 --", t, NULL, 8), 4);
    /* '--' not followed by a blank is two minus signs (1--1 = 2). */
    cr_assert_eq(lex("1--1", t, NULL, 8), 4);
    cr_assert_eq(t[1], TK_MINUS);
    cr_assert_eq(t[2], TK_MINUS);
    cr_assert_eq(lex("1 /* unterminated", t, NULL, 8), 2);
    cr_assert_eq(t[1], TK_ILLEGAL);
}

Test(plan_tokenize, executable_comments_are_code)
{
    int t[8];
    cr_assert_eq(lex("select /*! 1 */", t, NULL, 8), 2);
    cr_assert_eq(t[1], TK_INTNUM);
    cr_assert_eq(lex("select /*!50000 1 */ , 2", t, NULL, 8), 4);
    cr_assert_eq(t[1], TK_INTNUM);
    cr_assert_eq(t[2], TK_COMMA);
    /* A version newer than ours is a comment. */
    cr_assert_eq(lex("select 1 /*!80000 , 2 */", t, NULL, 8), 2);
    cr_assert_eq(lex("/*!40101 SET NAMES utf8 */", t, NULL, 8), 3);
    cr_assert_eq(t[0], TK_SET);
}

Test(plan_tokenize, hints_are_kept)
{
    int t[8];
    cr_assert_eq(lex("select /*+ SET_VAR(x=1) */ 1", t, NULL, 8), 3);
    cr_assert_eq(t[1], TK_HINT);
}

Test(plan_tokenize, variables)
{
    int t[8];
    plan_token k[8];
    cr_assert_eq(
            lex("@a @'q x' @@version @@session.autocommit @@GLOBAL.port @@local.x @`b`", t, k, 8),
            7);
    cr_assert_eq(t[0], TK_USERVAR);
    cr_assert_eq(t[1], TK_USERVAR);
    cr_assert_eq(t[2], TK_SYSVAR);
    cr_assert_eq(t[3], TK_SYSVAR);
    cr_assert_eq(k[3].n, strlen("@@session.autocommit"));
    cr_assert_eq(t[4], TK_SYSVAR);
    cr_assert_eq(t[5], TK_SYSVAR);
    cr_assert_eq(t[6], TK_USERVAR);
}

Test(plan_tokenize, operators)
{
    int t[32];
    const char *sql = "= <=> != <> < <= > >= + - * / % || && ! ~ & | ^ << >> := ? ; ( ) , .";
    int want[] = {TK_EQ,      TK_NSEQ,   TK_NE,     TK_NE,     TK_LT,     TK_LE,
                  TK_GT,      TK_GE,     TK_PLUS,   TK_MINUS,  TK_STAR,   TK_SLASH,
                  TK_PERCENT, TK_OROR,   TK_ANDAND, TK_BANG,   TK_BITNOT, TK_BITAND,
                  TK_BITOR,   TK_BITXOR, TK_LSHIFT, TK_RSHIFT, TK_ASSIGN, TK_QUESTION,
                  TK_SEMI,    TK_LP,     TK_RP,     TK_COMMA,  TK_DOT};
    size_t n = lex(sql, t, NULL, 32);
    cr_assert_eq(n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(t[i], want[i], "operator %zu", i);
    }
    cr_assert_eq(lex("DIV MOD", t, NULL, 32), 2);
    cr_assert_eq(t[0], TK_DIV);
    cr_assert_eq(t[1], TK_MOD);
}

Test(plan_tokenize, statement_split)
{
    const char *sql = "select 1; select ';'; select `a;b` /* ; */ -- ;\n;select 2";
    size_t len = strlen(sql);
    size_t a = plan_statement_split(sql, len);
    cr_assert_eq(a, strlen("select 1;"));
    size_t b = plan_statement_split(sql + a, len - a);
    cr_assert_eq(b, strlen(" select ';';"));
    size_t c = plan_statement_split(sql + a + b, len - a - b);
    cr_assert_eq(c, strlen(" select `a;b` /* ; */ -- ;\n;"));
    size_t d = plan_statement_split(sql + a + b + c, len - a - b - c);
    cr_assert_eq(d, strlen("select 2"));
    /* An unterminated quote swallows the rest. */
    cr_assert_eq(plan_statement_split("select 'a;b", 11), 11);
    cr_assert_eq(plan_statement_split("", 0), 0);
}

Test(plan_tokenize, blank)
{
    cr_assert(plan_is_blank("", 0));
    cr_assert(plan_is_blank("  \n\t", 4));
    cr_assert(plan_is_blank("-- c\n/* x */ # y", 16));
    cr_assert(plan_is_blank(" ; ;", 4));
    cr_assert_not(plan_is_blank("/*! select 1 */", 15));
    cr_assert_not(plan_is_blank("x", 1));
    cr_assert_not(plan_is_blank("'", 1));
}
