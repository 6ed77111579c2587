/* SPDX-License-Identifier: Apache-2.0
 * plan_stack.c: the recursion guard. The planner's walks over expressions and nested
 * statements recurse; a statement of thousands of nested levels (`1 + 1 + ... + 1`, a chain of
 * set operations alternating UNION and EXCEPT) would otherwise overflow the worker thread's
 * stack (server/srv_pool.c: 8 MiB). plan__stack_check compares the current frame with the
 * bottom of the thread's stack (pthread_getattr_np, looked up once per thread) and fails with
 * MySQL's 1436 when less than PLAN_STACK_MARGIN is left; the margin covers what runs after the
 * checked walks (evaluation of the same trees uses smaller frames than analysis). */
#include "planner/plan_int.h"

#include <pthread.h>
#include <stdint.h>

static _Thread_local uintptr_t stack_lo; /* lowest address of this thread's stack; 0: unknown */
static _Thread_local size_t stack_size;  /* its size */
static _Thread_local bool stack_unknown; /* the lookup failed: no check */

static void
stack_init(void)
{
    pthread_attr_t attr;
    void *addr = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) {
        stack_unknown = true;
        return;
    }
    if (pthread_attr_getstack(&attr, &addr, &size) != 0 || addr == NULL ||
        size <= 2 * PLAN_STACK_MARGIN) {
        stack_unknown = true;
    }
    pthread_attr_destroy(&attr);
    stack_lo = (uintptr_t)addr;
    stack_size = size;
}

int
plan__stack_check(db_error *err)
{
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    if (stack_lo == 0 && !stack_unknown) {
        stack_init();
    }
    if (stack_unknown || sp >= stack_lo + PLAN_STACK_MARGIN || sp < stack_lo) {
        return DB_OK;
    }
    unsigned long long used = (unsigned long long)(stack_lo + stack_size - sp);
    return db_error_set(err, ER_STACK_OVERRUN_NEED_MORE, used, (unsigned long long)stack_size,
                        (unsigned long long)PLAN_STACK_MARGIN);
}
