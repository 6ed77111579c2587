/* SPDX-License-Identifier: Apache-2.0
 * test_ci_ascii.c: the ASCII fast path of utf8mb4_general_ci folding and comparison
 * (plan_ctype.c) against the character-by-character path through the weight tables
 * (plan__ci_fold_slow / plan__cmp_ci_slow): every ASCII character, every pair, random ASCII
 * strings, ASCII strings with a non-ASCII character somewhere, and the group hash table and
 * join hash putting a string and a slow-path equivalent of it in one bucket. */
#include "planner/plan_exec_int.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/planner/plan_testutil.h"

/* Deterministic xorshift64: the same strings on every run. */
static uint64_t
rnd(uint64_t *st)
{
    uint64_t x = *st;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *st = x;
    return x;
}

/* A random ASCII byte, letters and spaces more often than the rest. */
static char
rnd_ascii(uint64_t *st)
{
    uint64_t r = rnd(st);
    switch (r % 4) {
    case 0:
        return (char)('a' + (r >> 8) % 26);
    case 1:
        return (char)('A' + (r >> 8) % 26);
    case 2:
        return (r >> 8) % 3 == 0 ? ' ' : (char)((r >> 16) % 128);
    default:
        return (char)((r >> 8) % 128);
    }
}

static int
sign(int c)
{
    return (c > 0) - (c < 0);
}

/* The fold of s[0..len) by both paths, with and without the C.UTF-8 locale: same bytes. */
static void
check_fold(locale_t loc, const char *s, size_t len)
{
    char fast[256], slow[256];
    cr_assert(2 * len <= sizeof fast);
    for (int l = 0; l < 2; l++) {
        locale_t lc = l ? loc : (locale_t)0;
        size_t nf = plan__ci_fold(lc, s, len, fast);
        size_t ns = plan__ci_fold_slow(lc, s, len, slow);
        cr_assert_eq(nf, ns, "fold length of '%.*s'", (int)len, s);
        cr_assert(memcmp(fast, slow, nf) == 0, "fold of '%.*s'", (int)len, s);
    }
}

static void
check_cmp(locale_t loc, const char *a, size_t al, const char *b, size_t bl)
{
    for (int l = 0; l < 2; l++) {
        locale_t lc = l ? loc : (locale_t)0;
        int f = plan__cmp_ci(lc, a, al, b, bl), s = plan__cmp_ci_slow(lc, a, al, b, bl);
        cr_assert_eq(sign(f), sign(s), "'%.*s' vs '%.*s': %d / %d", (int)al, a, (int)bl, b, f, s);
        cr_assert_eq(sign(plan__cmp_ci(lc, b, bl, a, al)), -sign(s));
    }
}

Test(plan_ci_ascii, every_ascii_char_weighs_as_its_ascii_upper_case)
{
    locale_t loc = plan__ctype_new();
    for (int c = 0; c < 128; c++) {
        char in = (char)c, out[2];
        /* The claim the fast path rests on, checked against the weight tables. */
        cr_assert_eq(plan__ci_fold_slow(loc, &in, 1, out), 1);
        cr_assert_eq((unsigned char)out[0], c >= 'a' && c <= 'z' ? c - 32 : c, "char %d", c);
        cr_assert_eq(plan__ci_fold_slow((locale_t)0, &in, 1, out), 1);
        cr_assert_eq((unsigned char)out[0], c >= 'a' && c <= 'z' ? c - 32 : c, "char %d", c);
        check_fold(loc, &in, 1);
        /* In every position of a word (the 8-byte loop) and of the byte tail. */
        for (size_t at = 0; at < 19; at++) {
            char s[19];
            memset(s, 'q', sizeof s);
            s[at] = in;
            check_fold(loc, s, sizeof s);
        }
    }
    plan__ctype_free(loc);
}

Test(plan_ci_ascii, every_ascii_pair_compares_as_the_slow_path)
{
    locale_t loc = plan__ctype_new();
    for (int c = 0; c < 128; c++) {
        for (int d = 0; d < 128; d++) {
            char a = (char)c, b = (char)d;
            check_cmp(loc, &a, 1, &b, 1);
            /* After an equal-ignoring-case prefix of a word and more, and in a word. */
            char x[12] = "abcdEFGHij", y[12] = "ABCDefghIJ";
            x[10] = a, y[10] = b;
            check_cmp(loc, x, 11, y, 11);
            x[5] = a, y[5] = b;
            check_cmp(loc, x, 11, y, 11);
            check_cmp(loc, x, 6, y, 11);
        }
    }
    plan__ctype_free(loc);
}

Test(plan_ci_ascii, random_ascii_strings_fold_and_compare_as_the_slow_path)
{
    locale_t loc = plan__ctype_new();
    uint64_t st = 0x9E3779B97F4A7C15ull;
    for (int iter = 0; iter < 20000; iter++) {
        char a[48], b[48];
        size_t al = rnd(&st) % 41, bl;
        for (size_t i = 0; i < al; i++) {
            a[i] = rnd_ascii(&st);
        }
        check_fold(loc, a, al);
        /* b: a with its case flipped at random, then maybe changed, cut, or space padded. */
        memcpy(b, a, al);
        bl = al;
        for (size_t i = 0; i < bl; i++) {
            if ((b[i] | 0x20) >= 'a' && (b[i] | 0x20) <= 'z' && rnd(&st) % 2) {
                b[i] ^= 0x20;
            }
        }
        uint64_t r = rnd(&st);
        if (r % 4 == 0 && bl > 0) {
            b[(r >> 8) % bl] = rnd_ascii(&st);
        } else if (r % 4 == 1) {
            bl = (r >> 8) % (bl + 1);
        } else if (r % 4 == 2) {
            size_t pad = (r >> 8) % 6;
            memset(b + bl, ' ', pad);
            bl += pad;
        }
        check_fold(loc, b, bl);
        check_cmp(loc, a, al, b, bl);
    }
    plan__ctype_free(loc);
}

/* Characters that take the slow path: accented letters, sharp s, Greek, invalid bytes. */
static const char *const non_ascii[] = {"\xc3\xa9", "\xc3\x89", "\xc3\x9f",    "\xce\xb1",
                                        "\xff",     "\xc3",     "\xe2\x82\xac"};

Test(plan_ci_ascii, ascii_with_a_non_ascii_character_compares_as_the_slow_path)
{
    locale_t loc = plan__ctype_new();
    uint64_t st = 42;
    for (int iter = 0; iter < 20000; iter++) {
        char a[64], b[64];
        size_t al = rnd(&st) % 30, bl;
        for (size_t i = 0; i < al; i++) {
            a[i] = rnd_ascii(&st);
        }
        memcpy(b, a, al);
        bl = al;
        for (int side = 0; side < 2; side++) {
            if (rnd(&st) % 3 == 0) {
                continue;
            }
            char *s = side ? b : a;
            size_t *len = side ? &bl : &al;
            const char *u = non_ascii[rnd(&st) % (sizeof non_ascii / sizeof non_ascii[0])];
            size_t ul = strlen(u), at = rnd(&st) % (*len + 1);
            memmove(s + at + ul, s + at, *len - at);
            memcpy(s + at, u, ul);
            *len += ul;
        }
        check_fold(loc, a, al);
        check_fold(loc, b, bl);
        check_cmp(loc, a, al, b, bl);
    }
    plan__ctype_free(loc);
}

/* The accented twin of an ASCII string (its first 'e' / 'E' as U+00E9): the same weights,
 * folded by the slow path. False when s has no e. */
static bool
accented_twin(const char *s, size_t len, char *out, size_t *outlen)
{
    const char *e = memchr(s, 'e', len);
    if (!e) {
        e = memchr(s, 'E', len);
    }
    if (!e) {
        return false;
    }
    size_t at = (size_t)(e - s);
    memcpy(out, s, at);
    memcpy(out + at, "\xc3\xa9", 2);
    memcpy(out + at + 2, s + at + 1, len - at - 1);
    *outlen = len + 1;
    return true;
}

Test(plan_ci_ascii, group_table_and_join_hash_see_both_paths_alike)
{
    tx *t = tx_new();
    plan_ectx cx;
    plan__ectx_init(&cx, t->s, t->a, "", 0);
    locale_t loc = plan__ctype_new();
    bool ci[1] = {true};
    plan_aht h;
    plan__aht_init(&h, 1, ci, loc, sizeof(uint64_t), PLAN_AGG_MEM_LIMIT);
    char *fold = NULL;
    size_t cap = 0;
    uint64_t st = 7;
    int twins = 0;
    for (int iter = 0; iter < 5000; iter++) {
        char a[48], b[48], w[64];
        size_t al = 1 + rnd(&st) % 30, wl;
        for (size_t i = 0; i < al; i++) {
            a[i] = (char)((rnd(&st) % 2 ? 'a' : 'A') + rnd(&st) % 26);
        }
        for (size_t i = 0; i < al; i++) {
            b[i] = (char)(rnd(&st) % 2 ? a[i] ^ 0x20 : a[i]); /* another case */
        }
        plan_value ka = plan__v_str(a, al), kb = plan__v_str(b, al);
        void *p;
        bool is_new;
        db_error err;
        cr_assert_eq(plan__aht_upsert(&h, &ka, &p, &is_new, &err), DB_OK);
        uint32_t groups = h.n;
        cr_assert_eq(plan__aht_upsert(&h, &kb, &p, &is_new, &err), DB_OK);
        cr_assert(!is_new, "'%.*s' / '%.*s'", (int)al, a, (int)al, b);
        uint64_t ha = plan__join_hash(&cx, PLAN_CMP_STRING, &ka, &fold, &cap, 1);
        cr_assert_eq(ha, plan__join_hash(&cx, PLAN_CMP_STRING, &kb, &fold, &cap, 1));
        if (accented_twin(a, al, w, &wl)) {
            plan_value kw = plan__v_str(w, wl);
            cr_assert_eq(plan__aht_upsert(&h, &kw, &p, &is_new, &err), DB_OK);
            cr_assert(!is_new, "'%.*s' / '%.*s'", (int)al, a, (int)wl, w);
            cr_assert_eq(ha, plan__join_hash(&cx, PLAN_CMP_STRING, &kw, &fold, &cap, 1));
            twins++;
        }
        cr_assert_eq(h.n, groups);
    }
    cr_assert_gt(twins, 1000);
    free(fold);
    plan__aht_destroy(&h);
    plan__ctype_free(loc);
    tx_free(t);
}
