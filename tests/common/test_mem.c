/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for common/mem: the allocation wrappers never return NULL and abort on sizes that
 * cannot exist. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "common/mem.h"

Test(mem, alloc_and_realloc)
{
    unsigned char *p = mem_alloc(0);
    cr_assert_not_null(p);
    p = mem_realloc(p, 100);
    memset(p, 7, 100);
    p = mem_realloc(p, 100000);
    cr_expect_eq(p[99], 7);
    mem_free(p);
    mem_free(NULL);
    unsigned char *q = mem_realloc(NULL, 0);
    cr_assert_not_null(q);
    mem_free(q);
}

Test(mem, calloc_zeroes)
{
    unsigned char *p = mem_calloc(1000, 3);
    for (size_t i = 0; i < 3000; i++) {
        cr_assert_eq(p[i], 0);
    }
    mem_free(p);
    cr_assert_not_null(p = mem_calloc(0, 0));
    mem_free(p);
}

Test(mem, calloc_overflow_aborts, .signal = SIGABRT)
{
    unsigned char *p = mem_calloc(SIZE_MAX / 2, 4);
    p[0] = 1;
}

Test(mem, strdup)
{
    char *s = mem_strdup("hello");
    cr_expect_str_eq(s, "hello");
    char *t = mem_strndup("hello", 3);
    cr_expect_str_eq(t, "hel");
    char *u = mem_strndup("", 0);
    cr_expect_str_eq(u, "");
    mem_free(s);
    mem_free(t);
    mem_free(u);
}
