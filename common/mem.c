/* SPDX-License-Identifier: Apache-2.0
 * mem: malloc wrappers that abort on out-of-memory (Redis zmalloc_default_oom). */
#include "common/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t len) __attribute__((noreturn));

/* Out of memory is not an error a statement can recover from at this level. */
static void
oom(size_t len)
{
    fprintf(stderr, "rivulet: out of memory allocating %zu bytes\n", len);
    fflush(stderr);
    abort();
}

void *
mem_alloc(size_t len)
{
    void *p = malloc(len ? len : 1);
    if (p == NULL) {
        oom(len);
    }
    return p;
}

void *
mem_calloc(size_t n, size_t len)
{
    if (len != 0 && n > (size_t)-1 / len) {
        oom((size_t)-1);
    }
    void *p = calloc(n ? n : 1, len ? len : 1);
    if (p == NULL) {
        oom(n * len);
    }
    return p;
}

void *
mem_realloc(void *p, size_t len)
{
    void *q = realloc(p, len ? len : 1);
    if (q == NULL) {
        oom(len);
    }
    return q;
}

void
mem_free(void *p)
{
    free(p);
}

char *
mem_strdup(const char *s)
{
    return mem_strndup(s, strlen(s));
}

char *
mem_strndup(const char *s, size_t len)
{
    char *p = mem_alloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}
