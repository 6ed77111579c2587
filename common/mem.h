/* SPDX-License-Identifier: Apache-2.0
 * mem: heap allocation that never returns NULL. The process malloc is jemalloc (libc malloc in
 * ASan builds); on real out-of-memory these log and abort, so callers never test for NULL.
 * See common/README.md §Memory. */
#ifndef COMMON_MEM_H
#define COMMON_MEM_H

#include <stddef.h>

/* Allocate len bytes (len 0 gives a unique pointer). Any thread. Never NULL. */
void *mem_alloc(size_t len);
/* Allocate n * len zeroed bytes; aborts on overflow. Any thread. Never NULL. */
void *mem_calloc(size_t n, size_t len);
/* Resize p (may be NULL) to len bytes. Any thread. Never NULL. */
void *mem_realloc(void *p, size_t len);
/* Free p (NULL is fine). */
void mem_free(void *p);
/* Heap copy of a NUL-terminated string / of len bytes plus a NUL. Free with mem_free. */
char *mem_strdup(const char *s);
char *mem_strndup(const char *s, size_t len);

#endif /* COMMON_MEM_H */
