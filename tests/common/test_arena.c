/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for common/arena: alignment, block growth, large allocations, cleanup order,
 * reset and arena_used. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "common/arena.h"

#define NLOG 8

typedef struct order_log {
    int seen[NLOG]; /* ids in the order their cleanup ran */
    int n;          /* entries in seen */
} order_log;

typedef struct tag {
    order_log *log; /* where to record */
    int id;         /* what to record */
} tag;

static void record(void *arg);
static void register_more(void *arg);

static void
record(void *arg)
{
    tag *t = arg;
    cr_assert_lt(t->log->n, NLOG);
    t->log->seen[t->log->n++] = t->id;
}

/* A cleanup that registers another cleanup while the arena is being reset. */
static void
register_more(void *arg)
{
    void **pair = arg;
    arena_on_reset(pair[0], record, pair[1]);
}

Test(arena, alignment)
{
    arena *a = arena_new(256);
    for (size_t len = 0; len < 300; len++) {
        void *p = arena_alloc(a, len);
        cr_assert_not_null(p);
        cr_assert_eq((uintptr_t)p % 16, 0, "len %zu gave %p", len, p);
        memset(p, 0xA5, len);
    }
    arena_free(a);
}

Test(arena, allocations_do_not_overlap)
{
    arena *a = arena_new(128);
    unsigned char *ptrs[200];
    for (int i = 0; i < 200; i++) {
        size_t len = (size_t)(i % 37) + 1;
        ptrs[i] = arena_alloc(a, len);
        memset(ptrs[i], i, len);
    }
    for (int i = 0; i < 200; i++) {
        size_t len = (size_t)(i % 37) + 1;
        for (size_t j = 0; j < len; j++) {
            cr_assert_eq(ptrs[i][j], (unsigned char)i, "allocation %d byte %zu", i, j);
        }
    }
    arena_free(a);
}

Test(arena, zero_length_allocations_are_distinct)
{
    arena *a = arena_new(0);
    void *p = arena_alloc(a, 0);
    void *q = arena_alloc(a, 0);
    cr_assert_not_null(p);
    cr_assert_not_null(q);
    cr_assert_neq(p, q);
    arena_free(a);
}

Test(arena, large_allocation)
{
    arena *a = arena_new(1024);
    unsigned char *small = arena_alloc(a, 10);
    memset(small, 1, 10);
    size_t big_len = 4u << 20;
    unsigned char *big = arena_alloc(a, big_len);
    cr_assert_eq((uintptr_t)big % 16, 0);
    memset(big, 2, big_len);
    unsigned char *after = arena_alloc(a, 10);
    memset(after, 3, 10);
    cr_assert_eq(small[9], 1);
    cr_assert_eq(big[0], 2);
    cr_assert_eq(big[big_len - 1], 2);
    cr_assert_eq(after[0], 3);
    cr_assert_geq(arena_used(a), big_len + 32);
    arena_reset(a);
    cr_assert_eq(arena_used(a), 0);
    /* After a reset an oversize block is not kept; allocation still works. */
    unsigned char *again = arena_alloc(a, 100);
    memset(again, 4, 100);
    arena_free(a);
}

Test(arena, impossible_size_aborts, .signal = SIGABRT)
{
    arena *a = arena_new(0);
    /* n * len overflows size_t: must abort, never hand out a short block. */
    unsigned char *p = arena_calloc(a, SIZE_MAX / 2, 4);
    p[0] = 1;
    arena_free(a);
}

Test(arena, huge_alloc_aborts, .signal = SIGABRT)
{
    arena *a = arena_new(0);
    unsigned char *p = arena_alloc(a, SIZE_MAX - 3);
    p[0] = 1;
    arena_free(a);
}

Test(arena, used_counts_rounded_bytes)
{
    arena *a = arena_new(4096);
    cr_assert_eq(arena_used(a), 0);
    arena_alloc(a, 1);
    cr_assert_eq(arena_used(a), 16);
    arena_alloc(a, 17);
    cr_assert_eq(arena_used(a), 48);
    arena_alloc(a, 32);
    cr_assert_eq(arena_used(a), 80);
    arena_alloc(a, 10000); /* a block of its own */
    cr_assert_eq(arena_used(a), 80 + 10000);
    arena_reset(a);
    cr_assert_eq(arena_used(a), 0);
    arena_alloc(a, 5);
    cr_assert_eq(arena_used(a), 16);
    arena_free(a);
}

Test(arena, reset_runs_cleanups_newest_first)
{
    arena *a = arena_new(0);
    order_log lg = {.n = 0};
    tag t[3] = {{&lg, 1}, {&lg, 2}, {&lg, 3}};
    for (int i = 0; i < 3; i++) {
        arena_on_reset(a, record, &t[i]);
    }
    cr_assert_eq(lg.n, 0);
    arena_reset(a);
    cr_assert_eq(lg.n, 3);
    cr_expect_eq(lg.seen[0], 3);
    cr_expect_eq(lg.seen[1], 2);
    cr_expect_eq(lg.seen[2], 1);
    /* They ran once: a second reset runs nothing. */
    arena_reset(a);
    cr_assert_eq(lg.n, 3);
    arena_free(a);
    cr_assert_eq(lg.n, 3);
}

Test(arena, free_runs_cleanups)
{
    arena *a = arena_new(0);
    order_log lg = {.n = 0};
    tag t[2] = {{&lg, 7}, {&lg, 8}};
    arena_on_reset(a, record, &t[0]);
    arena_on_reset(a, record, &t[1]);
    arena_free(a);
    cr_assert_eq(lg.n, 2);
    cr_expect_eq(lg.seen[0], 8);
    cr_expect_eq(lg.seen[1], 7);
}

Test(arena, cleanup_registered_during_reset_runs)
{
    arena *a = arena_new(0);
    order_log lg = {.n = 0};
    tag t = {&lg, 5};
    void *pair[2] = {a, &t};
    arena_on_reset(a, register_more, pair);
    arena_reset(a);
    cr_assert_eq(lg.n, 1);
    cr_expect_eq(lg.seen[0], 5);
    arena_free(a);
    cr_assert_eq(lg.n, 1);
}

Test(arena, calloc_zeroes_reused_memory)
{
    arena *a = arena_new(1024);
    unsigned char *p = arena_alloc(a, 512);
    memset(p, 0xFF, 512);
    arena_reset(a);
    unsigned char *q = arena_calloc(a, 64, 8);
    for (size_t i = 0; i < 512; i++) {
        cr_assert_eq(q[i], 0, "byte %zu", i);
    }
    arena_free(a);
}

Test(arena, strings)
{
    arena *a = arena_new(64);
    char *s = arena_strndup(a, "hello world", 5);
    cr_expect_str_eq(s, "hello");
    cr_expect_str_eq(arena_strdup(a, "abc"), "abc");
    cr_expect_str_eq(arena_strndup(a, "", 0), "");
    cr_expect_str_eq(arena_sprintf(a, "%d-%s", 42, "x"), "42-x");
    /* Longer than a block. */
    char *long_s = arena_sprintf(a, "%0300d", 7);
    cr_expect_eq(strlen(long_s), 300);
    cr_expect_eq(long_s[299], '7');
    cr_expect_str_eq(s, "hello");
    arena_free(a);
}

Test(arena, free_null_is_fine)
{
    arena_free(NULL);
    cr_assert(true);
}
