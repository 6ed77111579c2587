/* SPDX-License-Identifier: Apache-2.0
 * arena: region allocation with one lifetime (nginx pools, PostgreSQL memory contexts).
 * Connection, statement and batch arenas are all of this type. There is no per-object free;
 * arena_reset frees everything at once and runs the registered cleanup callbacks (newest first).
 * An arena is single-threaded. See common/README.md §Memory. */
#ifndef COMMON_ARENA_H
#define COMMON_ARENA_H

#include <stddef.h>

typedef struct arena arena;
typedef void (*arena_cleanup_fn)(void *arg);

/* New empty arena whose blocks are at least block_size bytes (0 = 8 KiB). Never NULL. */
arena *arena_new(size_t block_size);
/* Run cleanups, free all memory and the arena itself. NULL is fine. */
void arena_free(arena *a);
/* Run cleanups and free every allocation; keeps the first block for reuse. */
void arena_reset(arena *a);
/* len bytes aligned to 16, valid until the next reset. Never NULL. */
void *arena_alloc(arena *a, size_t len);
/* As arena_alloc, zeroed. */
void *arena_calloc(arena *a, size_t n, size_t len);
/* NUL-terminated copy of s[0..len) in the arena. */
char *arena_strndup(arena *a, const char *s, size_t len);
/* NUL-terminated copy of s in the arena. */
char *arena_strdup(arena *a, const char *s);
/* printf into the arena. */
char *arena_sprintf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Register fn(arg) to run at the next reset or free (ngx_pool_cleanup_add). */
void arena_on_reset(arena *a, arena_cleanup_fn fn, void *arg);
/* Bytes handed out since the last reset (for per-statement budgets). */
size_t arena_used(const arena *a);

#endif /* COMMON_ARENA_H */
