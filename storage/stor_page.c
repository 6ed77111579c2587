/* SPDX-License-Identifier: Apache-2.0
 * stor_page: the page codec of segment files. Encodes a run of rows of one column as a page
 * (plain, frame-of-reference bit-packed integers, dictionary or plain strings; the smallest wins),
 * computes its zone map, compresses with zstd, and decodes pages back with every length checked
 * (whole, or a few rows at a time through a page view).
 * See README.md §Formats "Encoded page". */
#include "storage/stor_int.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#define XXH_INLINE_ALL /* header-only: no link dependency (fuzz builds link only libzstd) */
#include <xxhash.h>
#include <zstd.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/mem.h"

static unsigned bits_for(uint64_t v);
static size_t packed_len(uint32_t n, unsigned width);
static void bit_pack(const uint64_t *v, uint32_t n, unsigned width, uint8_t *out);
static uint64_t bit_get(const uint8_t *p, uint64_t bit, unsigned width);
static void zone_of(const stor_vec *v, uint32_t from, uint32_t n, stor_zone *z);
static void put_header(buf *out, uint8_t enc, const stor_vec *v, uint32_t from, uint32_t n,
                       uint32_t nnull);
static void encode_i64(const stor_vec *v, uint32_t from, uint32_t n, uint32_t nnull, buf *out,
                       uint8_t *enc);
static void encode_bytes(const stor_vec *v, uint32_t from, uint32_t n, uint32_t nnull, buf *out,
                         uint8_t *enc);
static bool encode_dict(const stor_vec *v, uint32_t from, uint32_t n, uint32_t nnull, buf *out);
static int64_t view_i64(const stor__page_view *v, uint32_t i);
static double view_f64(const stor__page_view *v, uint32_t i);
static stor_i128 view_i128(const stor__page_view *v, uint32_t i);
static bool view_str(const stor__page_view *v, uint32_t i, const uint8_t **s, size_t *len);
static int view_cmp(const stor__page_view *v, uint32_t i, const stor_key *k, bool *bad);

/* ======================================================================================
 * Bit packing: value i occupies bits [i * width, (i + 1) * width), LSB first.
 * ====================================================================================== */

/* Bits needed to hold v (0 for 0). */
static unsigned
bits_for(uint64_t v)
{
    return v == 0 ? 0 : 64 - (unsigned)__builtin_clzll(v);
}

static size_t
packed_len(uint32_t n, unsigned width)
{
    return (size_t)(((uint64_t)n * width + 7) / 8);
}

/* out must hold packed_len(n, width) zeroed bytes. Bits gather in a 128-bit accumulator and
 * leave it 8 bytes at a time. */
static void
bit_pack(const uint64_t *v, uint32_t n, unsigned width, uint8_t *out)
{
    if (width == 0) {
        return;
    }
    uint64_t mask = width == 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;
    unsigned __int128 acc = 0;
    unsigned nb = 0;
    size_t o = 0;
    for (uint32_t i = 0; i < n; i++) {
        acc |= (unsigned __int128)(v[i] & mask) << nb;
        nb += width;
        if (nb >= 64) {
            stor__put_u64(out + o, (uint64_t)acc);
            o += 8;
            acc >>= 64;
            nb -= 64;
        }
    }
    for (; nb > 0; nb = nb > 8 ? nb - 8 : 0) {
        out[o++] = (uint8_t)acc;
        acc >>= 8;
    }
}

/* The width-bit value at bit offset `bit`; the caller checked the bytes exist. */
static uint64_t
bit_get(const uint8_t *p, uint64_t bit, unsigned width)
{
    uint64_t x = 0;
    unsigned got = 0;
    while (got < width) {
        unsigned sh = (unsigned)(bit & 7);
        unsigned take = 8 - sh < width - got ? 8 - sh : width - got;
        uint64_t part = (uint64_t)((p[bit >> 3] >> sh) & ((1u << take) - 1));
        x |= part << got;
        got += take;
        bit += take;
    }
    return x;
}

/* Groups of 8 values of a constant width W: value i (i a multiple of 8) starts at byte
 * (i / 8) * W, so every load offset and shift below is a constant the compiler unrolls. */
#define UNPACK8(W)                                                                              \
    case W:                                                                                     \
        for (; i + 8 <= n && ((size_t)i / 8 + 1) * (W) + 8 <= plen; i += 8) {                   \
            const uint8_t *q = p + (size_t)i / 8 * (W);                                         \
            _Pragma("GCC unroll 8") for (unsigned j = 0; j < 8; j++)                            \
            {                                                                                   \
                out[i + j] = base + ((stor__get_u64(q + j * (W) / 8) >> (j * (W) % 8)) & mask); \
            }                                                                                   \
        }                                                                                       \
        break;

/* Every value of a packed run plus base: out[i] = base + value i, i < n (plen bytes hold
 * them; the sum wraps). Widths up to 32
 * go 8 values at a time through a loop specialised for the width; then, up to width 57, one
 * unaligned 8-byte load per value while 8 bytes remain; the tail and wider values take
 * bit_get. */
static void
bit_unpack(const uint8_t *p, size_t plen, uint32_t n, unsigned width, uint64_t base, uint64_t *out)
{
    if (width == 0) {
        for (uint32_t i = 0; i < n; i++) {
            out[i] = base;
        }
        return;
    }
    uint32_t i = 0;
    if (width <= 57) {
        uint64_t mask = (UINT64_C(1) << width) - 1;
        switch (width) {
            UNPACK8(1)
            UNPACK8(2)
            UNPACK8(3)
            UNPACK8(4)
            UNPACK8(5)
            UNPACK8(6)
            UNPACK8(7)
            UNPACK8(8)
            UNPACK8(9)
            UNPACK8(10)
            UNPACK8(11)
            UNPACK8(12)
            UNPACK8(13)
            UNPACK8(14)
            UNPACK8(15)
            UNPACK8(16)
            UNPACK8(17)
            UNPACK8(18)
            UNPACK8(19)
            UNPACK8(20)
            UNPACK8(21)
            UNPACK8(22)
            UNPACK8(23)
            UNPACK8(24)
            UNPACK8(25)
            UNPACK8(26)
            UNPACK8(27)
            UNPACK8(28)
            UNPACK8(29)
            UNPACK8(30)
            UNPACK8(31)
            UNPACK8(32)
        default:
            break;
        }
        uint64_t bit = (uint64_t)i * width;
        for (; i < n && (bit >> 3) + 8 <= plen; i++, bit += width) {
            out[i] = base + ((stor__get_u64(p + (bit >> 3)) >> (bit & 7)) & mask);
        }
    }
    for (; i < n; i++) {
        out[i] = base + bit_get(p, (uint64_t)i * width, width);
    }
}
#undef UNPACK8

/* ======================================================================================
 * Zone maps
 * ====================================================================================== */

void
stor__zone_init(stor_zone *z)
{
    memset(z, 0, sizeof *z);
}

int
stor__bytes_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = n > 0 ? memcmp(a, b, n) : 0;
    if (c != 0) {
        return c < 0 ? -1 : 1;
    }
    return alen < blen ? -1 : alen > blen ? 1 : 0;
}

static void
zone_set_str(uint8_t *dst, uint8_t *dlen, const uint8_t *s, size_t len)
{
    size_t k = len < STOR_ZONE_STR_MAX ? len : STOR_ZONE_STR_MAX;
    if (k > 0) {
        memcpy(dst, s, k);
    }
    *dlen = (uint8_t)k;
}

/* Zone map of rows [from, from + n) of v. */
static void
zone_of(const stor_vec *v, uint32_t from, uint32_t n, stor_zone *z)
{
    stor__zone_init(z);
    z->nrows = n;
    const uint8_t *bmin = NULL, *bmax = NULL;
    size_t bminlen = 0, bmaxlen = 0;
    for (uint32_t i = from; i < from + n; i++) {
        if (stor_vec_is_null(v, i)) {
            z->null_count++;
            continue;
        }
        switch (v->kind) {
        case STOR_VEC_I64: {
            int64_t x = v->i64[i];
            if (!z->has_minmax || x < z->min_i64) {
                z->min_i64 = x;
            }
            if (!z->has_minmax || x > z->max_i64) {
                z->max_i64 = x;
            }
            break;
        }
        case STOR_VEC_F64: {
            double x = v->f64[i];
            if (isnan(x)) {
                continue;
            }
            if (!z->has_minmax || x < z->min_f64) {
                z->min_f64 = x;
            }
            if (!z->has_minmax || x > z->max_f64) {
                z->max_f64 = x;
            }
            break;
        }
        case STOR_VEC_I128: {
            stor_i128 x = v->i128[i];
            if (!z->has_minmax || x < z->min_i128) {
                z->min_i128 = x;
            }
            if (!z->has_minmax || x > z->max_i128) {
                z->max_i128 = x;
            }
            break;
        }
        case STOR_VEC_BYTES: {
            const uint8_t *s = v->data + v->offs[i];
            size_t len = (size_t)(v->offs[i + 1] - v->offs[i]);
            if (!z->has_minmax || stor__bytes_cmp(s, len, bmin, bminlen) < 0) {
                bmin = s;
                bminlen = len;
            }
            if (!z->has_minmax || stor__bytes_cmp(s, len, bmax, bmaxlen) > 0) {
                bmax = s;
                bmaxlen = len;
            }
            break;
        }
        }
        z->has_minmax = true;
    }
    if (v->kind == STOR_VEC_BYTES && z->has_minmax) {
        zone_set_str(z->min_str, &z->min_len, bmin, bminlen);
        zone_set_str(z->max_str, &z->max_len, bmax, bmaxlen);
        z->max_truncated = bmaxlen > STOR_ZONE_STR_MAX;
    }
}

/* True when max a (truncated or not) is at least max b, so a can stand for both. */
static bool
str_max_covers(const uint8_t *a, size_t alen, bool atrunc, const uint8_t *b, size_t blen,
               bool btrunc)
{
    if (atrunc) {
        /* a stands for every string whose first alen bytes are <= a. */
        size_t k = blen < alen ? blen : alen;
        return stor__bytes_cmp(b, k, a, alen) <= 0;
    }
    if (btrunc) {
        return false;
    }
    return stor__bytes_cmp(a, alen, b, blen) >= 0;
}

void
stor__zone_merge(stor_zone *dst, const stor_zone *src, stor_vec_kind kind)
{
    dst->nrows += src->nrows;
    dst->null_count += src->null_count;
    if (!src->has_minmax) {
        return;
    }
    if (!dst->has_minmax) {
        uint64_t nrows = dst->nrows, nnull = dst->null_count;
        *dst = *src;
        dst->nrows = nrows;
        dst->null_count = nnull;
        return;
    }
    switch (kind) {
    case STOR_VEC_I64:
        dst->min_i64 = src->min_i64 < dst->min_i64 ? src->min_i64 : dst->min_i64;
        dst->max_i64 = src->max_i64 > dst->max_i64 ? src->max_i64 : dst->max_i64;
        break;
    case STOR_VEC_F64:
        dst->min_f64 = src->min_f64 < dst->min_f64 ? src->min_f64 : dst->min_f64;
        dst->max_f64 = src->max_f64 > dst->max_f64 ? src->max_f64 : dst->max_f64;
        break;
    case STOR_VEC_I128:
        dst->min_i128 = src->min_i128 < dst->min_i128 ? src->min_i128 : dst->min_i128;
        dst->max_i128 = src->max_i128 > dst->max_i128 ? src->max_i128 : dst->max_i128;
        break;
    case STOR_VEC_BYTES:
        if (stor__bytes_cmp(src->min_str, src->min_len, dst->min_str, dst->min_len) < 0) {
            memcpy(dst->min_str, src->min_str, src->min_len);
            dst->min_len = src->min_len;
        }
        if (!str_max_covers(dst->max_str, dst->max_len, dst->max_truncated, src->max_str,
                            src->max_len, src->max_truncated)) {
            memcpy(dst->max_str, src->max_str, src->max_len);
            dst->max_len = src->max_len;
            dst->max_truncated = src->max_truncated;
        }
        break;
    }
}

static void
slot_put(const stor_zone *z, stor_vec_kind kind, bool is_max, uint8_t *slot)
{
    memset(slot, 0, STOR_ZONE_SLOT);
    switch (kind) {
    case STOR_VEC_I64:
        stor__put_u64(slot, (uint64_t)(is_max ? z->max_i64 : z->min_i64));
        break;
    case STOR_VEC_F64: {
        uint64_t bits;
        double d = is_max ? z->max_f64 : z->min_f64;
        memcpy(&bits, &d, 8);
        stor__put_u64(slot, bits);
        break;
    }
    case STOR_VEC_I128: {
        stor_i128 x = is_max ? z->max_i128 : z->min_i128;
        stor__put_u64(slot, (uint64_t)x);
        stor__put_u64(slot + 8, (uint64_t)((unsigned __int128)x >> 64));
        break;
    }
    case STOR_VEC_BYTES:
        slot[0] = is_max ? z->max_len : z->min_len;
        memcpy(slot + 1, is_max ? z->max_str : z->min_str, slot[0]);
        break;
    }
}

uint8_t
stor__zone_put(const stor_zone *z, stor_vec_kind kind, uint8_t *min_slot, uint8_t *max_slot)
{
    slot_put(z, kind, false, min_slot);
    slot_put(z, kind, true, max_slot);
    return (uint8_t)((z->has_minmax ? 1u : 0u) | (z->max_truncated ? 2u : 0u));
}

static bool
slot_get(stor_zone *z, stor_vec_kind kind, bool is_max, const uint8_t *slot)
{
    switch (kind) {
    case STOR_VEC_I64:
        *(is_max ? &z->max_i64 : &z->min_i64) = (int64_t)stor__get_u64(slot);
        return true;
    case STOR_VEC_F64: {
        uint64_t bits = stor__get_u64(slot);
        memcpy(is_max ? &z->max_f64 : &z->min_f64, &bits, 8);
        return true;
    }
    case STOR_VEC_I128: {
        unsigned __int128 x =
                (unsigned __int128)stor__get_u64(slot + 8) << 64 | stor__get_u64(slot);
        *(is_max ? &z->max_i128 : &z->min_i128) = (stor_i128)x;
        return true;
    }
    case STOR_VEC_BYTES:
        if (slot[0] > STOR_ZONE_STR_MAX) {
            return false;
        }
        memcpy(is_max ? z->max_str : z->min_str, slot + 1, slot[0]);
        *(is_max ? &z->max_len : &z->min_len) = slot[0];
        return true;
    }
    return false;
}

bool
stor__zone_get(stor_zone *z, stor_vec_kind kind, uint8_t flags, const uint8_t *min_slot,
               const uint8_t *max_slot)
{
    z->has_minmax = (flags & 1) != 0;
    z->max_truncated = (flags & 2) != 0;
    if (!z->has_minmax) {
        return true;
    }
    return slot_get(z, kind, false, min_slot) && slot_get(z, kind, true, max_slot);
}

/* ======================================================================================
 * Encoding
 * ====================================================================================== */

bool
stor__enc_valid(stor_vec_kind kind, uint8_t enc)
{
    switch (kind) {
    case STOR_VEC_I64:
        return enc == STOR_ENC_PLAIN || enc == STOR_ENC_FOR;
    case STOR_VEC_BYTES:
        return enc == STOR_ENC_PLAIN || enc == STOR_ENC_DICT;
    case STOR_VEC_I128:
        return enc == STOR_ENC_PLAIN || enc == STOR_ENC_FOR;
    case STOR_VEC_F64:
        return enc == STOR_ENC_PLAIN;
    }
    return false;
}

/* The 12-byte page header, then the NULL bitmap of the rows when any is NULL. */
static void
put_header(buf *out, uint8_t enc, const stor_vec *v, uint32_t from, uint32_t n, uint32_t nnull)
{
    buf_put_u8(out, enc);
    buf_put_u8(out, nnull > 0 ? 1 : 0);
    buf_put_u16le(out, 0);
    buf_put_u32le(out, n);
    buf_put_u32le(out, nnull);
    if (nnull > 0) {
        size_t blen = ((size_t)n + 7) / 8;
        uint8_t *bm = buf_reserve(out, blen);
        memset(bm, 0, blen);
        for (uint32_t i = 0; i < n; i++) {
            if (stor_vec_is_null(v, from + i)) {
                bm[i >> 3] |= (uint8_t)(1u << (i & 7));
            }
        }
        out->len += blen;
    }
}

/* The frame-of-reference body after the header: base, width, 7 zero bytes, the packed
 * deltas of the n values (NULL rows: delta 0). */
static void
put_packed(buf *out, const uint64_t *v, uint32_t n, unsigned width)
{
    size_t plen = packed_len(n, width);
    uint8_t *p = buf_reserve(out, plen);
    memset(p, 0, plen);
    bit_pack(v, n, width, p);
    out->len += plen;
}

static void
put_for_body(buf *out, uint64_t base, unsigned width, const uint64_t *deltas, uint32_t n)
{
    buf_put_u64le(out, base);
    buf_put_u8(out, (uint8_t)width);
    buf_put_zeros(out, 7);
    put_packed(out, deltas, n, width);
}

/* DECIMAL values that all fit in 64 bits (every DECIMAL up to 18 digits): frame of reference
 * as for integers, the base a two's-complement int64 and the values sign-extended on decode.
 * False (out untouched) when some value needs more than 64 bits or it would not be smaller. */
static bool
encode_i128_for(const stor_vec *v, uint32_t from, uint32_t n, uint32_t nnull, buf *out)
{
    bool any = false;
    int64_t lo = 0, hi = 0;
    for (uint32_t i = from; i < from + n; i++) {
        if (stor_vec_is_null(v, i)) {
            continue;
        }
        stor_i128 x = v->i128[i];
        if (x < INT64_MIN || x > INT64_MAX) {
            return false;
        }
        if (!any || (int64_t)x < lo) {
            lo = (int64_t)x;
        }
        if (!any || (int64_t)x > hi) {
            hi = (int64_t)x;
        }
        any = true;
    }
    unsigned width = bits_for((uint64_t)hi - (uint64_t)lo);
    if (16 + packed_len(n, width) >= (size_t)n * 16) {
        return false;
    }
    put_header(out, STOR_ENC_FOR, v, from, n, nnull);
    uint64_t *deltas = mem_alloc((size_t)(n ? n : 1) * sizeof *deltas);
    for (uint32_t i = 0; i < n; i++) {
        deltas[i] = stor_vec_is_null(v, from + i)
                            ? 0
                            : (uint64_t)(int64_t)v->i128[from + i] - (uint64_t)lo;
    }
    put_for_body(out, (uint64_t)lo, width, deltas, n);
    mem_free(deltas);
    return true;
}

/* Integers: plain or frame-of-reference, whichever is smaller. NULL rows count as the base. */
static void
encode_i64(const stor_vec *v, uint32_t from, uint32_t n, uint32_t nnull, buf *out, uint8_t *enc)
{
    bool any = false;
    int64_t lo = 0, hi = 0;
    for (uint32_t i = from; i < from + n; i++) {
        if (stor_vec_is_null(v, i)) {
            continue;
        }
        int64_t x = v->i64[i];
        if (!any || x < lo) {
            lo = x;
        }
        if (!any || x > hi) {
            hi = x;
        }
        any = true;
    }
    unsigned width = bits_for((uint64_t)hi - (uint64_t)lo);
    size_t for_len = 16 + packed_len(n, width);
    size_t plain_len = (size_t)n * 8;
    if (for_len < plain_len) {
        *enc = STOR_ENC_FOR;
        put_header(out, *enc, v, from, n, nnull);
        uint64_t *deltas = mem_alloc((size_t)(n ? n : 1) * sizeof *deltas);
        for (uint32_t i = 0; i < n; i++) {
            deltas[i] =
                    stor_vec_is_null(v, from + i) ? 0 : (uint64_t)v->i64[from + i] - (uint64_t)lo;
        }
        put_for_body(out, (uint64_t)lo, width, deltas, n);
        mem_free(deltas);
        return;
    }
    *enc = STOR_ENC_PLAIN;
    put_header(out, *enc, v, from, n, nnull);
    uint8_t *p = buf_reserve(out, plain_len);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t x = stor_vec_is_null(v, from + i) ? 0 : (uint64_t)v->i64[from + i];
        stor__put_u64(p + (size_t)i * 8, x);
    }
    out->len += plain_len;
}

/* A dictionary hash slot: index + 1 of a distinct string, 0 = empty. */
typedef struct dict_build {
    uint32_t *slots;
    uint32_t mask;
    uint32_t ndict;
    uint32_t *first_row; /* row (absolute) holding each distinct string */
} dict_build;

/* Dictionary encoding when the distinct count is at most half the non-NULL rows and the result is
 * smaller than plain. Returns false (out untouched) when not worth it. */
static bool
encode_dict(const stor_vec *v, uint32_t from, uint32_t n, uint32_t nnull, buf *out)
{
    uint32_t nvals = n - nnull;
    uint32_t limit = nvals / 2;
    if (limit == 0) {
        return false;
    }
    dict_build d = {0};
    uint32_t cap = 16;
    while (cap < limit * 2) {
        cap <<= 1;
    }
    d.slots = mem_calloc(cap, sizeof *d.slots);
    d.mask = cap - 1;
    d.first_row = mem_alloc((size_t)limit * sizeof *d.first_row);
    uint64_t *codes = mem_calloc(n, sizeof *codes);
    uint64_t dict_bytes = 0, plain_bytes = 0;
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        uint32_t r = from + i;
        if (stor_vec_is_null(v, r)) {
            continue;
        }
        const uint8_t *s = v->data + v->offs[r];
        size_t len = (size_t)(v->offs[r + 1] - v->offs[r]);
        plain_bytes += len;
        uint32_t h = (uint32_t)XXH3_64bits(s, len) & d.mask;
        for (;;) {
            uint32_t e = d.slots[h];
            if (e == 0) {
                if (d.ndict == limit) {
                    ok = false;
                    break;
                }
                d.first_row[d.ndict] = r;
                d.slots[h] = ++d.ndict;
                dict_bytes += len;
                codes[i] = d.ndict - 1;
                break;
            }
            uint32_t fr = d.first_row[e - 1];
            if (stor__bytes_cmp(v->data + v->offs[fr], (size_t)(v->offs[fr + 1] - v->offs[fr]), s,
                                len) == 0) {
                codes[i] = e - 1;
                break;
            }
            h = (h + 1) & d.mask;
        }
    }
    unsigned width = ok && d.ndict > 1 ? bits_for(d.ndict - 1) : 0;
    if (ok) {
        uint64_t dict_len = 8 + (uint64_t)d.ndict * 4 + dict_bytes + packed_len(n, width);
        uint64_t plain_len = (uint64_t)n * 4 + plain_bytes;
        ok = dict_len < plain_len;
    }
    if (ok) {
        put_header(out, STOR_ENC_DICT, v, from, n, nnull);
        buf_put_u32le(out, d.ndict);
        for (uint32_t k = 0; k < d.ndict; k++) {
            uint32_t fr = d.first_row[k];
            buf_put_u32le(out, (uint32_t)(v->offs[fr + 1] - v->offs[fr]));
        }
        for (uint32_t k = 0; k < d.ndict; k++) {
            uint32_t fr = d.first_row[k];
            buf_append(out, v->data + v->offs[fr], (size_t)(v->offs[fr + 1] - v->offs[fr]));
        }
        buf_put_u8(out, (uint8_t)width);
        buf_put_zeros(out, 3);
        put_packed(out, codes, n, width);
    }
    mem_free(codes);
    mem_free(d.first_row);
    mem_free(d.slots);
    return ok;
}

static void
encode_bytes(const stor_vec *v, uint32_t from, uint32_t n, uint32_t nnull, buf *out, uint8_t *enc)
{
    if (encode_dict(v, from, n, nnull, out)) {
        *enc = STOR_ENC_DICT;
        return;
    }
    *enc = STOR_ENC_PLAIN;
    put_header(out, *enc, v, from, n, nnull);
    for (uint32_t i = from; i < from + n; i++) {
        uint32_t len = stor_vec_is_null(v, i) ? 0 : (uint32_t)(v->offs[i + 1] - v->offs[i]);
        buf_put_u32le(out, len);
    }
    for (uint32_t i = from; i < from + n; i++) {
        if (!stor_vec_is_null(v, i)) {
            buf_append(out, v->data + v->offs[i], (size_t)(v->offs[i + 1] - v->offs[i]));
        }
    }
}

void
stor__page_encode(const stor_vec *v, uint32_t from, uint32_t n, buf *out, uint8_t *enc,
                  stor_zone *zone)
{
    buf_clear(out);
    zone_of(v, from, n, zone);
    uint32_t nnull = (uint32_t)zone->null_count;
    switch (v->kind) {
    case STOR_VEC_I64:
        encode_i64(v, from, n, nnull, out, enc);
        return;
    case STOR_VEC_F64: {
        *enc = STOR_ENC_PLAIN;
        put_header(out, *enc, v, from, n, nnull);
        uint8_t *p = buf_reserve(out, (size_t)n * 8);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t bits = 0;
            if (!stor_vec_is_null(v, from + i)) {
                memcpy(&bits, &v->f64[from + i], 8);
            }
            stor__put_u64(p + (size_t)i * 8, bits);
        }
        out->len += (size_t)n * 8;
        return;
    }
    case STOR_VEC_I128: {
        if (encode_i128_for(v, from, n, nnull, out)) {
            *enc = STOR_ENC_FOR;
            return;
        }
        *enc = STOR_ENC_PLAIN;
        put_header(out, *enc, v, from, n, nnull);
        uint8_t *p = buf_reserve(out, (size_t)n * 16);
        for (uint32_t i = 0; i < n; i++) {
            unsigned __int128 x =
                    stor_vec_is_null(v, from + i) ? 0 : (unsigned __int128)v->i128[from + i];
            stor__put_u64(p + (size_t)i * 16, (uint64_t)x);
            stor__put_u64(p + (size_t)i * 16 + 8, (uint64_t)(x >> 64));
        }
        out->len += (size_t)n * 16;
        return;
    }
    case STOR_VEC_BYTES:
        encode_bytes(v, from, n, nnull, out, enc);
        return;
    }
    DB_ASSERT(!"unknown vector kind");
}

uint8_t
stor__page_compress(const uint8_t *raw, size_t len, int level, buf *out)
{
    buf_clear(out);
    size_t bound = ZSTD_compressBound(len);
    uint8_t *p = buf_reserve(out, bound);
    size_t got = ZSTD_compress(p, bound, raw, len, level);
    if (ZSTD_isError(got) || got >= len) {
        return STOR_COMP_NONE;
    }
    out->len = got;
    return STOR_COMP_ZSTD;
}

/* ======================================================================================
 * Decoding: every length and index is checked against the page bytes (I4).
 * ====================================================================================== */

/* Plain strings: n u32 lengths then the bytes. */
static const char *
decode_plain_bytes(const uint8_t *p, size_t len, uint32_t n, const uint8_t *nulls, arena *a,
                   stor_vec *out)
{
    if ((uint64_t)n * 4 > len) {
        return "string lengths past the end of the page";
    }
    const uint8_t *data = p + (size_t)n * 4;
    size_t avail = len - (size_t)n * 4;
    out->offs = arena_alloc(a, ((size_t)n + 1) * sizeof *out->offs);
    uint64_t total = 0;
    out->offs[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t l = stor__get_u32(p + (size_t)i * 4);
        if (l > 0 && nulls != NULL && (nulls[i >> 3] >> (i & 7)) & 1) {
            return "NULL row with a value";
        }
        total += l;
        if (total > avail) {
            return "string bytes past the end of the page";
        }
        out->offs[i + 1] = total;
    }
    if (total != avail) {
        return "trailing bytes after the strings";
    }
    out->data = arena_alloc(a, total + 1);
    if (total > 0) {
        memcpy(out->data, data, total);
    }
    return NULL;
}

/* Dictionary strings: ndict, lengths, bytes, width, packed codes. */
static const char *
decode_dict(const uint8_t *p, size_t len, uint32_t n, const uint8_t *nulls, arena *a, stor_vec *out)
{
    if (len < 4) {
        return "dictionary header past the end of the page";
    }
    uint32_t ndict = stor__get_u32(p);
    if ((uint64_t)ndict * 4 > len - 4) {
        return "dictionary lengths past the end of the page";
    }
    size_t pos = 4 + (size_t)ndict * 4;
    uint64_t *doff = mem_alloc(((size_t)ndict + 1) * sizeof *doff);
    doff[0] = 0;
    for (uint32_t k = 0; k < ndict; k++) {
        doff[k + 1] = doff[k] + stor__get_u32(p + 4 + (size_t)k * 4);
    }
    const char *why = NULL;
    if (doff[ndict] > len - pos || len - pos - doff[ndict] < 4) {
        why = "dictionary bytes past the end of the page";
        goto out;
    }
    const uint8_t *dict = p + pos;
    pos += doff[ndict];
    unsigned width = p[pos];
    pos += 4;
    if (width > 32) {
        why = "bad dictionary code width";
        goto out;
    }
    if (packed_len(n, width) != len - pos) {
        why = "dictionary code bytes do not match the row count";
        goto out;
    }
    uint64_t *codes = arena_alloc(a, (size_t)n * 8 + 1);
    bit_unpack(p + pos, len - pos, n, width, 0, codes);
    uint64_t total = 0;
    out->offs = arena_alloc(a, ((size_t)n + 1) * sizeof *out->offs);
    out->offs[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (nulls != NULL && (nulls[i >> 3] >> (i & 7)) & 1) {
            out->offs[i + 1] = total;
            continue;
        }
        uint64_t c = codes[i];
        if (c >= ndict) {
            why = "dictionary code out of range";
            goto out;
        }
        total += doff[c + 1] - doff[c];
        out->offs[i + 1] = total;
    }
    if (total > STOR_PAGE_MAX_RAW) {
        why = "dictionary expands past the page limit";
        goto out;
    }
    out->data = arena_alloc(a, total + 1);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t l = out->offs[i + 1] - out->offs[i];
        if (l > 0) {
            memcpy(out->data + out->offs[i], dict + doff[codes[i]], l);
        }
    }
out:
    mem_free(doff);
    return why;
}

/* Frame of reference: base, width, packed deltas. I64 pages decode into out->i64, I128 pages
 * (DECIMALs that fit 64 bits) into out->i128, sign-extended; NULL rows get 0. */
static const char *
decode_for(const uint8_t *p, size_t len, uint32_t n, const uint8_t *nulls, arena *a, stor_vec *out)
{
    if (len < 16) {
        return "frame-of-reference header past the end of the page";
    }
    uint64_t base = stor__get_u64(p);
    unsigned width = p[8];
    if (width > 64) {
        return "bad bit width";
    }
    if (packed_len(n, width) != len - 16) {
        return "packed bytes do not match the row count";
    }
    uint64_t *d =
            out->kind == STOR_VEC_I64 ? (uint64_t *)out->i64 : arena_alloc(a, (size_t)n * 8 + 1);
    bit_unpack(p + 16, len - 16, n, width, base, d);
    if (out->kind == STOR_VEC_I128) {
        for (uint32_t i = 0; i < n; i++) {
            out->i128[i] = (stor_i128)(int64_t)d[i];
        }
    }
    if (nulls != NULL) {
        for (uint32_t i = 0; i < n; i++) {
            if ((nulls[i >> 3] >> (i & 7)) & 1) {
                if (out->kind == STOR_VEC_I64) {
                    out->i64[i] = 0;
                } else {
                    out->i128[i] = 0;
                }
            }
        }
    }
    return NULL;
}

const char *
stor__page_decode(stor_vec_kind kind, const uint8_t *p, size_t len, uint32_t nrows,
                  uint32_t null_count, arena *a, stor_vec *out)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    if (len < STOR_PAGE_HEADER_SIZE) {
        return "page shorter than its header";
    }
    uint8_t enc = p[0];
    uint8_t flags = p[1];
    uint32_t n = stor__get_u32(p + 4);
    uint32_t nnull = stor__get_u32(p + 8);
    if (!stor__enc_valid(kind, enc) || flags > 1 || p[2] != 0 || p[3] != 0) {
        return "bad page encoding";
    }
    if (n != nrows || nnull != null_count || n > STOR_PAGE_MAX_ROWS) {
        return "page row counts disagree with the directory";
    }
    if ((flags == 1) != (nnull > 0) || nnull > n) {
        return "bad NULL count";
    }
    out->n = n;
    size_t pos = STOR_PAGE_HEADER_SIZE;
    if (nnull > 0) {
        size_t blen = ((size_t)n + 7) / 8;
        if (blen > len - pos) {
            return "NULL bitmap past the end of the page";
        }
        out->nulls = arena_alloc(a, blen);
        memcpy(out->nulls, p + pos, blen);
        uint64_t cnt = 0;
        for (size_t i = 0; i < blen; i++) {
            cnt += (uint64_t)__builtin_popcount(out->nulls[i]);
        }
        if (cnt != nnull || (n % 8 != 0 && out->nulls[blen - 1] >> (n % 8) != 0)) {
            return "NULL bitmap disagrees with the NULL count";
        }
        pos += blen;
    }
    const uint8_t *body = p + pos;
    size_t blen = len - pos;
    switch (kind) {
    case STOR_VEC_I64:
        out->i64 = arena_alloc(a, (size_t)n * 8 + 1);
        if (enc == STOR_ENC_FOR) {
            return decode_for(body, blen, n, out->nulls, a, out);
        }
        if (blen != (size_t)n * 8) {
            return "value bytes do not match the row count";
        }
        for (uint32_t i = 0; i < n; i++) {
            out->i64[i] = stor_vec_is_null(out, i) ? 0 : (int64_t)stor__get_u64(body + i * 8ull);
        }
        return NULL;
    case STOR_VEC_F64:
        if (blen != (size_t)n * 8) {
            return "value bytes do not match the row count";
        }
        out->f64 = arena_alloc(a, (size_t)n * 8 + 1);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t bits = stor_vec_is_null(out, i) ? 0 : stor__get_u64(body + i * 8ull);
            memcpy(&out->f64[i], &bits, 8);
        }
        return NULL;
    case STOR_VEC_I128:
        out->i128 = arena_alloc(a, (size_t)n * 16 + 1);
        if (enc == STOR_ENC_FOR) {
            return decode_for(body, blen, n, out->nulls, a, out);
        }
        if (blen != (size_t)n * 16) {
            return "value bytes do not match the row count";
        }
        for (uint32_t i = 0; i < n; i++) {
            unsigned __int128 x = 0;
            if (!stor_vec_is_null(out, i)) {
                x = (unsigned __int128)stor__get_u64(body + i * 16ull + 8) << 64 |
                    stor__get_u64(body + i * 16ull);
            }
            out->i128[i] = (stor_i128)x;
        }
        return NULL;
    case STOR_VEC_BYTES:
        if (enc == STOR_ENC_DICT) {
            return decode_dict(body, blen, n, out->nulls, a, out);
        }
        return decode_plain_bytes(body, blen, n, out->nulls, a, out);
    }
    return "bad column kind";
}

/* ======================================================================================
 * Page views: random access to the rows of an encoded page without decoding all of it (point
 * and narrow-range reads, binary search of a sorted key column).
 * ====================================================================================== */

const char *
stor__page_view_init(stor__page_view *v, stor_vec_kind kind, const uint8_t *p, size_t len,
                     uint32_t nrows, uint32_t null_count, arena *a)
{
    memset(v, 0, sizeof *v);
    v->kind = kind;
    if (len < STOR_PAGE_HEADER_SIZE) {
        return "page shorter than its header";
    }
    uint8_t enc = p[0];
    uint8_t flags = p[1];
    uint32_t n = stor__get_u32(p + 4);
    uint32_t nnull = stor__get_u32(p + 8);
    if (!stor__enc_valid(kind, enc) || flags > 1 || p[2] != 0 || p[3] != 0) {
        return "bad page encoding";
    }
    if (n != nrows || nnull != null_count || n > STOR_PAGE_MAX_ROWS) {
        return "page row counts disagree with the directory";
    }
    if ((flags == 1) != (nnull > 0) || nnull > n) {
        return "bad NULL count";
    }
    v->enc = enc;
    v->n = n;
    size_t pos = STOR_PAGE_HEADER_SIZE;
    if (nnull > 0) {
        size_t blen = ((size_t)n + 7) / 8;
        if (blen > len - pos) {
            return "NULL bitmap past the end of the page";
        }
        const uint8_t *bm = p + pos;
        uint64_t cnt = 0;
        for (size_t i = 0; i < blen; i++) {
            cnt += (uint64_t)__builtin_popcount(bm[i]);
        }
        if (cnt != nnull || (n % 8 != 0 && bm[blen - 1] >> (n % 8) != 0)) {
            return "NULL bitmap disagrees with the NULL count";
        }
        v->nulls = bm;
        pos += blen;
    }
    const uint8_t *body = p + pos;
    size_t blen = len - pos;
    if (enc == STOR_ENC_FOR) {
        if (blen < 16) {
            return "frame-of-reference header past the end of the page";
        }
        v->base = stor__get_u64(body);
        v->width = body[8];
        if (v->width > 64) {
            return "bad bit width";
        }
        if (packed_len(n, v->width) != blen - 16) {
            return "packed bytes do not match the row count";
        }
        v->packed = body + 16;
        return NULL;
    }
    if (enc == STOR_ENC_DICT) {
        if (blen < 4) {
            return "dictionary header past the end of the page";
        }
        uint32_t ndict = stor__get_u32(body);
        if ((uint64_t)ndict * 4 > blen - 4) {
            return "dictionary lengths past the end of the page";
        }
        size_t dpos = 4 + (size_t)ndict * 4;
        v->ndict = ndict;
        v->offs = arena_alloc(a, ((size_t)ndict + 1) * sizeof *v->offs);
        v->offs[0] = 0;
        for (uint32_t k = 0; k < ndict; k++) {
            v->offs[k + 1] = v->offs[k] + stor__get_u32(body + 4 + (size_t)k * 4);
        }
        if (v->offs[ndict] > blen - dpos || blen - dpos - v->offs[ndict] < 4) {
            return "dictionary bytes past the end of the page";
        }
        v->data = body + dpos;
        dpos += v->offs[ndict];
        v->width = body[dpos];
        dpos += 4;
        if (v->width > 32) {
            return "bad dictionary code width";
        }
        if (packed_len(n, v->width) != blen - dpos) {
            return "dictionary code bytes do not match the row count";
        }
        v->packed = body + dpos;
        return NULL;
    }
    switch (kind) {
    case STOR_VEC_I64:
    case STOR_VEC_F64:
        if (blen != (size_t)n * 8) {
            return "value bytes do not match the row count";
        }
        v->packed = body;
        return NULL;
    case STOR_VEC_I128:
        if (blen != (size_t)n * 16) {
            return "value bytes do not match the row count";
        }
        v->packed = body;
        return NULL;
    case STOR_VEC_BYTES: {
        /* plain strings: prefix offsets of every row (the lengths are summed anyway to find
         * a row's bytes; all of them are checked as the whole-page decode does) */
        if ((uint64_t)n * 4 > blen) {
            return "string lengths past the end of the page";
        }
        size_t avail = blen - (size_t)n * 4;
        v->offs = arena_alloc(a, ((size_t)n + 1) * sizeof *v->offs);
        v->offs[0] = 0;
        uint64_t total = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t l = stor__get_u32(body + (size_t)i * 4);
            if (l > 0 && v->nulls != NULL && (v->nulls[i >> 3] >> (i & 7)) & 1) {
                return "NULL row with a value";
            }
            total += l;
            v->offs[i + 1] = total;
        }
        if (total != avail) {
            return total > avail ? "string bytes past the end of the page"
                                 : "trailing bytes after the strings";
        }
        v->data = body + (size_t)n * 4;
        return NULL;
    }
    }
    return "bad column kind";
}

bool
stor__page_view_is_null(const stor__page_view *v, uint32_t i)
{
    return v->nulls != NULL && (v->nulls[i >> 3] >> (i & 7)) & 1;
}

/* Row i's value of an I64 page view (not NULL). */
static int64_t
view_i64(const stor__page_view *v, uint32_t i)
{
    if (v->enc == STOR_ENC_FOR) {
        uint64_t d = v->width == 0 ? 0 : bit_get(v->packed, (uint64_t)i * v->width, v->width);
        return (int64_t)(v->base + d);
    }
    return (int64_t)stor__get_u64(v->packed + (size_t)i * 8);
}

static double
view_f64(const stor__page_view *v, uint32_t i)
{
    uint64_t bits = stor__get_u64(v->packed + (size_t)i * 8);
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

static stor_i128
view_i128(const stor__page_view *v, uint32_t i)
{
    if (v->enc == STOR_ENC_FOR) {
        uint64_t d = v->width == 0 ? 0 : bit_get(v->packed, (uint64_t)i * v->width, v->width);
        return (stor_i128)(int64_t)(v->base + d);
    }
    const uint8_t *q = v->packed + (size_t)i * 16;
    return (stor_i128)((unsigned __int128)stor__get_u64(q + 8) << 64 | stor__get_u64(q));
}

/* Row i's string of a BYTES page view (not NULL); false when its dictionary code is out of
 * range. */
static bool
view_str(const stor__page_view *v, uint32_t i, const uint8_t **s, size_t *len)
{
    uint64_t k = i;
    if (v->enc == STOR_ENC_DICT) {
        k = bit_get(v->packed, (uint64_t)i * v->width, v->width);
        if (k >= v->ndict) {
            return false;
        }
    }
    *s = v->data + v->offs[k];
    *len = (size_t)(v->offs[k + 1] - v->offs[k]);
    return true;
}

const char *
stor__page_view_rows(const stor__page_view *v, uint32_t from, uint32_t n, arena *a, stor_vec *out)
{
    DB_ASSERT(from <= v->n && n <= v->n - from);
    memset(out, 0, sizeof *out);
    out->kind = v->kind;
    out->n = n;
    if (v->nulls != NULL) {
        out->nulls = arena_calloc(a, 1, ((size_t)n + 7) / 8 + 1);
        for (uint32_t i = 0; i < n; i++) {
            if (stor__page_view_is_null(v, from + i)) {
                out->nulls[i >> 3] |= (uint8_t)(1u << (i & 7));
            }
        }
    }
    switch (v->kind) {
    case STOR_VEC_I64:
        out->i64 = arena_alloc(a, (size_t)n * 8 + 1);
        for (uint32_t i = 0; i < n; i++) {
            out->i64[i] = stor_vec_is_null(out, i) ? 0 : view_i64(v, from + i);
        }
        return NULL;
    case STOR_VEC_F64:
        out->f64 = arena_alloc(a, (size_t)n * 8 + 1);
        for (uint32_t i = 0; i < n; i++) {
            out->f64[i] = stor_vec_is_null(out, i) ? 0 : view_f64(v, from + i);
        }
        return NULL;
    case STOR_VEC_I128:
        out->i128 = arena_alloc(a, (size_t)n * 16 + 1);
        for (uint32_t i = 0; i < n; i++) {
            out->i128[i] = stor_vec_is_null(out, i) ? 0 : view_i128(v, from + i);
        }
        return NULL;
    case STOR_VEC_BYTES: {
        out->offs = arena_alloc(a, ((size_t)n + 1) * sizeof *out->offs);
        out->offs[0] = 0;
        uint64_t total = 0;
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *s;
            size_t l = 0;
            if (!stor_vec_is_null(out, i) && !view_str(v, from + i, &s, &l)) {
                return "dictionary code out of range";
            }
            total += l;
            out->offs[i + 1] = total;
        }
        out->data = arena_alloc(a, total + 1);
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *s;
            size_t l;
            if (out->offs[i + 1] > out->offs[i] && view_str(v, from + i, &s, &l)) {
                memcpy(out->data + out->offs[i], s, l);
            }
        }
        return NULL;
    }
    }
    return "bad column kind";
}

/* Compare row i (not NULL) with key k: <0, 0, >0. NaN sorts after every number (key order). */
static int
view_cmp(const stor__page_view *v, uint32_t i, const stor_key *k, bool *bad)
{
    switch (v->kind) {
    case STOR_VEC_I64: {
        int64_t x = view_i64(v, i);
        return x < k->i64 ? -1 : x > k->i64;
    }
    case STOR_VEC_F64: {
        double x = view_f64(v, i);
        if (isnan(x)) {
            return isnan(k->f64) ? 0 : 1;
        }
        if (isnan(k->f64)) {
            return -1;
        }
        return x < k->f64 ? -1 : x > k->f64;
    }
    case STOR_VEC_I128: {
        stor_i128 x = view_i128(v, i);
        return x < k->i128 ? -1 : x > k->i128;
    }
    case STOR_VEC_BYTES: {
        const uint8_t *s;
        size_t l;
        if (!view_str(v, i, &s, &l)) {
            *bad = true;
            return 0;
        }
        return stor__bytes_cmp(s, l, k->str, k->len);
    }
    }
    return 0;
}

const char *
stor__page_view_bound(const stor__page_view *v, uint32_t from, uint32_t to, const stor_key *k,
                      bool upper, uint32_t *pos)
{
    DB_ASSERT(from <= to && to <= v->n);
    if (k == NULL && upper) {
        *pos = to;
        return NULL;
    }
    bool bad = false;
    uint32_t lo = from, hi = to;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        /* NULLs sort before every value: always "below" the key */
        bool below = stor__page_view_is_null(v, mid);
        if (!below && k != NULL) {
            int c = view_cmp(v, mid, k, &bad);
            below = upper ? c <= 0 : c < 0;
        }
        if (bad) {
            return "dictionary code out of range";
        }
        if (below) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    *pos = lo;
    return NULL;
}
