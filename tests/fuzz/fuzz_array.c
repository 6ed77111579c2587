/* FUZZ_SOURCES: common */
/* SPDX-License-Identifier: Apache-2.0
 * libFuzzer harness for the ARRAY text scanner (planner/plan_array.c, compiled in directly: it
 * depends on common/ only). The input is scanned as an array text; every element must lie
 * inside the input; the text rebuilt from the elements (strings unescaped and re-quoted,
 * nested arrays rebuilt the same way, up to a depth) must scan again and rebuild to itself.
 * The input is also read as an element type name. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "planner/plan_array.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Rebuilds s into o; false when s is malformed (or nested deeper than 32). */
static bool
rebuild(arena *a, const char *s, size_t len, plan_arr_out *o, int depth)
{
    plan_arr_iter it;
    plan_arr_elem e;
    if (depth > 32 || !plan__arr_begin(&it, s, len)) {
        return false;
    }
    int r;
    int64_t n = 0;
    while ((r = plan__arr_next(&it, &e)) == 1) {
        n++;
        if (e.s < s || e.s + e.len > s + len) {
            abort();
        }
        switch (e.kind) {
        case PLAN_ARR_NULL:
            plan__arr_out_null(o);
            break;
        case PLAN_ARR_STR: {
            char *u = arena_alloc(a, e.len + 1);
            size_t ul = plan__arr_unescape(e.s, e.len, u);
            if (ul > e.len) {
                abort();
            }
            plan__arr_out_str(o, u, ul);
            break;
        }
        case PLAN_ARR_ARRAY: {
            plan_arr_out sub;
            plan__arr_out_init(&sub, a);
            if (!rebuild(a, e.s, e.len, &sub, depth + 1)) {
                return false;
            }
            size_t sl;
            const char *st = plan__arr_out_end(&sub, &sl);
            plan__arr_out_elem(o, st, sl);
            break;
        }
        case PLAN_ARR_BARE:
            if (e.len == 0) {
                abort();
            }
            plan__arr_out_elem(o, e.s, e.len);
            break;
        }
    }
    if (r == 0 && plan__arr_count(s, len) != n) {
        abort();
    }
    return r == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    arena *a = arena_new(0);
    cat_type t;
    (void)plan__arr_type_parse(s, size, &t);
    plan_arr_out o;
    plan__arr_out_init(&o, a);
    if (rebuild(a, s, size, &o, 0)) {
        size_t n1;
        const char *t1 = plan__arr_out_end(&o, &n1);
        plan_arr_out o2;
        plan__arr_out_init(&o2, a);
        if (!rebuild(a, t1, n1, &o2, 0)) {
            abort();
        }
        size_t n2;
        const char *t2 = plan__arr_out_end(&o2, &n2);
        if (n1 != n2 || memcmp(t1, t2, n1) != 0) {
            abort();
        }
    }
    arena_free(a);
    return 0;
}
