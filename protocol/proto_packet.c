/* SPDX-License-Identifier: Apache-2.0
 * proto_packet.c: packet framing (4-byte headers, the 16 MiB split and join), length-encoded
 * integers and strings, and the bounds-checked read cursor every parser in this module uses.
 * No I/O: bytes in, bytes out. See README.md §Formats. */
#include "protocol/proto_int.h"

#include <string.h>

#include "common/db_error.h"

static uint32_t get_u24(const uint8_t *p);
static void put_header(uint8_t *p, size_t len, uint8_t seq);
static bool scan_chunks(const uint8_t *in, size_t len, size_t max_len, size_t *total,
                        size_t *nchunks, size_t *consumed, int *rc, db_error *err);
static bool get_le(proto_cursor *c, size_t n, uint64_t *v);

/* ---- framing ---- */

static uint32_t
get_u24(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16);
}

static void
put_header(uint8_t *p, size_t len, uint8_t seq)
{
    DB_ASSERT(len <= PROTO_MAX_PACKET_CHUNK); /* I1 */
    p[0] = (uint8_t)len;
    p[1] = (uint8_t)(len >> 8);
    p[2] = (uint8_t)(len >> 16);
    p[3] = seq;
}

/* Walk the physical packets of one logical packet starting at in. Returns true when the whole
 * logical packet is present (sets *total payload bytes, *nchunks and *consumed). Returns false
 * with *rc = DB_AGAIN when bytes are missing, or *rc = DB_ERR when the payload seen so far
 * already exceeds max_len: that is decided from the headers alone, so an oversized packet is
 * refused before its body is buffered. */
static bool
scan_chunks(const uint8_t *in, size_t len, size_t max_len, size_t *total, size_t *nchunks,
            size_t *consumed, int *rc, db_error *err)
{
    size_t off = 0;
    size_t sum = 0;
    size_t n = 0;
    for (;;) {
        if (len - off < PROTO_HEADER_LEN) {
            *rc = DB_AGAIN;
            return false;
        }
        size_t chunk = get_u24(in + off);
        if (chunk > max_len - sum) { /* sum <= max_len holds here */
            *rc = db_error_set(err, ER_NET_PACKET_TOO_LARGE);
            return false;
        }
        sum += chunk;
        n++;
        if (len - off - PROTO_HEADER_LEN < chunk) {
            *rc = DB_AGAIN;
            return false;
        }
        off += PROTO_HEADER_LEN + chunk;
        if (chunk < PROTO_MAX_PACKET_CHUNK) { /* I2: a short chunk ends the packet */
            break;
        }
    }
    *total = sum;
    *nchunks = n;
    *consumed = off;
    return true;
}

int
proto_packet_next(const uint8_t *in, size_t len, size_t max_len, buf *joined, proto_packet *out,
                  size_t *consumed, db_error *err)
{
    size_t total = 0;
    size_t nchunks = 0;
    size_t used = 0;
    int rc = DB_OK;
    if (!scan_chunks(in, len, max_len, &total, &nchunks, &used, &rc, err)) {
        return rc;
    }
    if (nchunks == 1) {
        out->payload = in + PROTO_HEADER_LEN;
        out->len = total;
        out->seq = in[3];
        *consumed = used;
        return DB_OK;
    }
    DB_ASSERT(joined != NULL);
    buf_clear(joined);
    uint8_t *dst = buf_reserve(joined, total);
    size_t off = 0;
    uint8_t seq = 0;
    for (size_t i = 0; i < nchunks; i++) {
        size_t chunk = get_u24(in + off);
        seq = in[off + 3];
        memcpy(dst, in + off + PROTO_HEADER_LEN, chunk);
        dst += chunk;
        off += PROTO_HEADER_LEN + chunk;
    }
    joined->len = total;
    out->payload = joined->data;
    out->len = total;
    out->seq = seq;
    *consumed = used;
    return DB_OK;
}

void
proto_packet_write(buf *out, const uint8_t *payload, size_t len, uint8_t *seq)
{
    /* I2: every full chunk is followed by another packet, empty if need be. */
    for (;;) {
        size_t chunk = len < PROTO_MAX_PACKET_CHUNK ? len : PROTO_MAX_PACKET_CHUNK;
        uint8_t *h = buf_reserve(out, PROTO_HEADER_LEN + chunk);
        put_header(h, chunk, (*seq)++);
        out->len += PROTO_HEADER_LEN + chunk;
        if (chunk > 0) {
            memcpy(h + PROTO_HEADER_LEN, payload, chunk);
            payload += chunk;
            len -= chunk;
        }
        if (chunk < PROTO_MAX_PACKET_CHUNK) {
            break;
        }
    }
}

size_t
proto_packet_begin(buf *out)
{
    size_t begin = out->len;
    buf_put_zeros(out, PROTO_HEADER_LEN);
    return begin;
}

void
proto_packet_end(buf *out, size_t begin, uint8_t *seq)
{
    DB_ASSERT(begin + PROTO_HEADER_LEN <= out->len);
    size_t len = out->len - begin - PROTO_HEADER_LEN;
    size_t nfull = len / PROTO_MAX_PACKET_CHUNK;
    if (nfull == 0) {
        put_header(out->data + begin, len, (*seq)++);
        return;
    }
    /* Split in place. Chunk i (0..nfull) moves up by 4*i bytes to make room for its header.
     * Moving the last chunk first never overwrites a chunk not yet moved: the destination of
     * chunk i and its header both start at or after the end of chunk i-1's source. */
    size_t extra = nfull * PROTO_HEADER_LEN;
    buf_reserve(out, extra);
    uint8_t *base = out->data + begin;
    for (size_t i = nfull + 1; i-- > 0;) {
        size_t chunk = i < nfull ? PROTO_MAX_PACKET_CHUNK : len - nfull * PROTO_MAX_PACKET_CHUNK;
        size_t src = PROTO_HEADER_LEN + i * PROTO_MAX_PACKET_CHUNK;
        size_t dst = src + i * PROTO_HEADER_LEN;
        if (chunk > 0 && i > 0) {
            memmove(base + dst, base + src, chunk);
        }
        put_header(base + dst - PROTO_HEADER_LEN, chunk, (uint8_t)(*seq + i));
    }
    *seq = (uint8_t)(*seq + nfull + 1);
    out->len += extra;
}

/* ---- length-encoded values ---- */

size_t
proto_lenenc_int_size(uint64_t v)
{
    if (v < 251) {
        return 1;
    }
    if (v <= 0xFFFF) {
        return 3;
    }
    if (v <= 0xFFFFFF) {
        return 4;
    }
    return 9;
}

void
proto_lenenc_int_put(buf *out, uint64_t v)
{
    if (v < 251) {
        buf_put_u8(out, (uint8_t)v);
    } else if (v <= 0xFFFF) {
        buf_put_u8(out, 0xFC);
        buf_put_u16le(out, (uint16_t)v);
    } else if (v <= 0xFFFFFF) {
        buf_put_u8(out, 0xFD);
        buf_put_u24le(out, (uint32_t)v);
    } else {
        buf_put_u8(out, 0xFE);
        buf_put_u64le(out, v);
    }
}

void
proto_lenenc_str_put(buf *out, const void *s, size_t len)
{
    proto_lenenc_int_put(out, len);
    buf_append(out, s, len);
}

/* ---- read cursor ---- */

void
proto_cursor_init(proto_cursor *c, const uint8_t *p, size_t len)
{
    DB_ASSERT(p != NULL || len == 0);
    c->p = p;
    c->end = p == NULL ? p : p + len; /* no arithmetic on a null pointer, even + 0 */
}

size_t
proto_cursor_left(const proto_cursor *c)
{
    return (size_t)(c->end - c->p);
}

/* Little-endian unsigned integer of n bytes (n <= 8). */
static bool
get_le(proto_cursor *c, size_t n, uint64_t *v)
{
    if (proto_cursor_left(c) < n) { /* I3: check before reading, fail without moving */
        return false;
    }
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        x |= (uint64_t)c->p[i] << (8 * i);
    }
    c->p += n;
    *v = x;
    return true;
}

bool
proto_get_u8(proto_cursor *c, uint8_t *v)
{
    uint64_t x;
    if (!get_le(c, 1, &x)) {
        return false;
    }
    *v = (uint8_t)x;
    return true;
}

bool
proto_get_u16(proto_cursor *c, uint16_t *v)
{
    uint64_t x;
    if (!get_le(c, 2, &x)) {
        return false;
    }
    *v = (uint16_t)x;
    return true;
}

bool
proto_get_u24(proto_cursor *c, uint32_t *v)
{
    uint64_t x;
    if (!get_le(c, 3, &x)) {
        return false;
    }
    *v = (uint32_t)x;
    return true;
}

bool
proto_get_u32(proto_cursor *c, uint32_t *v)
{
    uint64_t x;
    if (!get_le(c, 4, &x)) {
        return false;
    }
    *v = (uint32_t)x;
    return true;
}

bool
proto_get_u64(proto_cursor *c, uint64_t *v)
{
    return get_le(c, 8, v);
}

bool
proto_get_lenenc_int(proto_cursor *c, uint64_t *v, bool *is_null)
{
    proto_cursor save = *c;
    uint8_t first;
    if (!proto_get_u8(c, &first)) {
        return false;
    }
    size_t n;
    switch (first) {
    case 0xFB:
        if (is_null == NULL) {
            *c = save;
            return false;
        }
        *is_null = true;
        *v = 0;
        return true;
    case 0xFC:
        n = 2;
        break;
    case 0xFD:
        n = 3;
        break;
    case 0xFE:
        n = 8;
        break;
    case 0xFF: /* an ERR header, never a length */
        *c = save;
        return false;
    default:
        if (is_null != NULL) {
            *is_null = false;
        }
        *v = first;
        return true;
    }
    if (!get_le(c, n, v)) {
        *c = save;
        return false;
    }
    if (is_null != NULL) {
        *is_null = false;
    }
    return true;
}

bool
proto_get_lenenc_str(proto_cursor *c, const uint8_t **s, size_t *len)
{
    proto_cursor save = *c;
    uint64_t n;
    if (!proto_get_lenenc_int(c, &n, NULL)) {
        return false;
    }
    if (n > proto_cursor_left(c)) {
        *c = save;
        return false;
    }
    *s = c->p;
    *len = (size_t)n;
    c->p += (size_t)n; /* c->p is not NULL: the length byte came from it */
    return true;
}

bool
proto_get_nulstr(proto_cursor *c, const uint8_t **s, size_t *len)
{
    size_t left = proto_cursor_left(c);
    const uint8_t *nul = left > 0 ? memchr(c->p, 0, left) : NULL;
    if (nul == NULL) {
        return false;
    }
    *s = c->p;
    *len = (size_t)(nul - c->p);
    c->p = nul + 1;
    return true;
}

bool
proto_get_bytes(proto_cursor *c, size_t n, const uint8_t **s)
{
    if (proto_cursor_left(c) < n) {
        return false;
    }
    *s = c->p;
    if (n > 0) {
        c->p += n;
    }
    return true;
}

void
proto_get_rest(proto_cursor *c, const uint8_t **s, size_t *len)
{
    *s = c->p;
    *len = proto_cursor_left(c);
    c->p = c->end;
}

/* ---- module-internal helpers ---- */

const uint8_t *
proto__dup_bytes(arena *a, const uint8_t *p, size_t len)
{
    uint8_t *d = arena_alloc(a, len);
    if (len > 0) {
        memcpy(d, p, len);
    }
    return d;
}

bool
proto__get_nulstr_dup(proto_cursor *c, arena *a, bool is_optional, const char **out)
{
    if (is_optional && proto_cursor_left(c) == 0) {
        *out = NULL;
        return true;
    }
    const uint8_t *s;
    size_t len;
    if (!proto_get_nulstr(c, &s, &len)) {
        return false;
    }
    *out = arena_strndup(a, (const char *)s, len);
    return true;
}
