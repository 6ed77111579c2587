/* SPDX-License-Identifier: Apache-2.0
 * buf: growable byte buffer. */
#include "common/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/db_error.h"
#include "common/mem.h"

void
buf_init(buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void
buf_destroy(buf *b)
{
    mem_free(b->data);
    buf_init(b);
}

void
buf_clear(buf *b)
{
    b->len = 0;
}

uint8_t *
buf_reserve(buf *b, size_t extra)
{
    DB_ASSERT(extra <= SIZE_MAX - b->len);
    /* Allocate even for extra == 0 on an empty buffer: callers hand the result to memcpy. */
    if (b->data == NULL || b->cap - b->len < extra) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < extra) {
            cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
        }
        b->data = mem_realloc(b->data, cap);
        b->cap = cap;
    }
    return b->data + b->len;
}

void
buf_append(buf *b, const void *p, size_t len)
{
    if (len == 0) {
        return;
    }
    memcpy(buf_reserve(b, len), p, len);
    b->len += len;
}

void
buf_append_str(buf *b, const char *s)
{
    buf_append(b, s, strlen(s));
}

void
buf_printf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0) {
        return;
    }
    uint8_t *p = buf_reserve(b, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf((char *)p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void
buf_put_u8(buf *b, uint8_t v)
{
    *buf_reserve(b, 1) = v;
    b->len += 1;
}

void
buf_put_u16le(buf *b, uint16_t v)
{
    uint8_t *p = buf_reserve(b, 2);
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    b->len += 2;
}

void
buf_put_u24le(buf *b, uint32_t v)
{
    uint8_t *p = buf_reserve(b, 3);
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    b->len += 3;
}

void
buf_put_u32le(buf *b, uint32_t v)
{
    uint8_t *p = buf_reserve(b, 4);
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
    b->len += 4;
}

void
buf_put_u64le(buf *b, uint64_t v)
{
    uint8_t *p = buf_reserve(b, 8);
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
    b->len += 8;
}

void
buf_put_zeros(buf *b, size_t n)
{
    memset(buf_reserve(b, n), 0, n);
    b->len += n;
}

void
buf_consume(buf *b, size_t n)
{
    DB_ASSERT(n <= b->len);
    if (n == 0) {
        return; /* also keeps a NULL data pointer away from memmove */
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
}
