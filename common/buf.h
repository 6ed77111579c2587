/* SPDX-License-Identifier: Apache-2.0
 * buf: a growable byte buffer on the heap, with little-endian put / get helpers for formats.
 * Owned by whoever embeds it; buf_destroy frees the storage. Single-threaded.
 * See common/README.md §Data structures. */
#ifndef COMMON_BUF_H
#define COMMON_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct buf {
    uint8_t *data; /* NULL until the first growth */
    size_t len;    /* bytes in use */
    size_t cap;    /* bytes allocated */
} buf;

void buf_init(buf *b);
void buf_destroy(buf *b);
/* Forget the contents, keep the storage. */
void buf_clear(buf *b);
/* Make room for extra more bytes; returns a pointer to data + len. */
uint8_t *buf_reserve(buf *b, size_t extra);
/* Append raw bytes. */
void buf_append(buf *b, const void *p, size_t len);
void buf_append_str(buf *b, const char *s);
void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_put_u8(buf *b, uint8_t v);
void buf_put_u16le(buf *b, uint16_t v);
void buf_put_u24le(buf *b, uint32_t v);
void buf_put_u32le(buf *b, uint32_t v);
void buf_put_u64le(buf *b, uint64_t v);
void buf_put_zeros(buf *b, size_t n);
/* Drop the first n bytes (n <= len), moving the rest to the front. */
void buf_consume(buf *b, size_t n);

/* Little-endian reads of what the put helpers wrote (p must hold the bytes). */
static inline uint32_t
buf_get_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t
buf_get_u64le(const uint8_t *p)
{
    return (uint64_t)buf_get_u32le(p) | (uint64_t)buf_get_u32le(p + 4) << 32;
}

#endif /* COMMON_BUF_H */
