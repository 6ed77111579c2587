/* SPDX-License-Identifier: Apache-2.0
 * arena: a chain of blocks, bump allocation, cleanup callbacks. About as small as ngx_palloc. */
#include "common/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/db_error.h"
#include "common/mem.h"

#define ARENA_ALIGN     16
#define ARENA_MAX_ALLOC (SIZE_MAX / 2) /* larger requests are bugs: rounding would wrap */

typedef struct block {
    struct block *next; /* older block, NULL for the first */
    size_t size;        /* usable bytes in data[] */
    size_t used;        /* bytes handed out from data[] */
    _Alignas(16) unsigned char data[];
} block;

typedef struct cleanup {
    struct cleanup *next;
    arena_cleanup_fn fn;
    void *arg;
} cleanup;

struct arena {
    block *head;       /* newest block; allocations come from here */
    size_t block_size; /* default size of a new block */
    size_t used;       /* bytes handed out since the last reset */
    cleanup *cleanups; /* newest first */
};

static block *block_new(size_t size);

static block *
block_new(size_t size)
{
    block *b = mem_alloc(sizeof(block) + size);
    b->next = NULL;
    b->size = size;
    b->used = 0;
    return b;
}

arena *
arena_new(size_t block_size)
{
    arena *a = mem_alloc(sizeof *a);
    a->block_size = block_size ? block_size : 8192;
    a->head = block_new(a->block_size);
    a->used = 0;
    a->cleanups = NULL;
    return a;
}

static void run_cleanups(arena *a);

static void
run_cleanups(arena *a)
{
    /* A callback may register another; loop until none is left. */
    while (a->cleanups != NULL) {
        cleanup *c = a->cleanups;
        a->cleanups = c->next;
        c->fn(c->arg);
    }
}

void
arena_reset(arena *a)
{
    run_cleanups(a);
    block *b = a->head;
    while (b->next != NULL) {
        block *next = b->next;
        mem_free(b);
        b = next;
    }
    /* b is the first block; a reset arena keeps it, shrunk back if an oversize one. */
    if (b->size > a->block_size) {
        mem_free(b);
        b = block_new(a->block_size);
    }
    b->used = 0;
    a->head = b;
    a->used = 0;
}

void
arena_free(arena *a)
{
    if (a == NULL) {
        return;
    }
    run_cleanups(a);
    block *b = a->head;
    while (b != NULL) {
        block *next = b->next;
        mem_free(b);
        b = next;
    }
    mem_free(a);
}

void *
arena_alloc(arena *a, size_t len)
{
    /* Without this, len near SIZE_MAX rounds up to a tiny size and a short block comes back. */
    DB_ASSERT(len <= ARENA_MAX_ALLOC);
    size_t need = (len + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (need == 0) {
        need = ARENA_ALIGN;
    }
    block *b = a->head;
    if (b->size - b->used < need) {
        size_t size = need > a->block_size ? need : a->block_size;
        block *nb = block_new(size);
        nb->next = b;
        a->head = nb;
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += need;
    a->used += need;
    return p;
}

void *
arena_calloc(arena *a, size_t n, size_t len)
{
    DB_ASSERT(len == 0 || n <= SIZE_MAX / len); /* n * len must not wrap */
    void *p = arena_alloc(a, n * len);
    memset(p, 0, n * len);
    return p;
}

char *
arena_strndup(arena *a, const char *s, size_t len)
{
    char *p = arena_alloc(a, len + 1);
    if (len) {
        memcpy(p, s, len);
    }
    p[len] = '\0';
    return p;
}

char *
arena_strdup(arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *
arena_sprintf(arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        n = 0;
    }
    char *p = arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void
arena_on_reset(arena *a, arena_cleanup_fn fn, void *arg)
{
    cleanup *c = arena_alloc(a, sizeof *c);
    c->fn = fn;
    c->arg = arg;
    c->next = a->cleanups;
    a->cleanups = c;
}

size_t
arena_used(const arena *a)
{
    return a->used;
}
