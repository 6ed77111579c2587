/* SPDX-License-Identifier: Apache-2.0
 * stor_int.h: declarations shared by the storage module's own files (never included by other
 * modules). Segment pages: encodings, little-endian helpers, zone-map slots, the page codec of
 * stor_page.c used by the segment writer and reader of stor_segment.c.
 * See README.md §Formats. */
#ifndef STORAGE_STOR_INT_H
#define STORAGE_STOR_INT_H

#include "storage/storage.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/arena.h"
#include "common/buf.h"

/* ---- segment constants (README.md §Formats "Segment file") ---- */
#define STOR_SEG_MAGIC        0x47535652u /* "RVSG" as little-endian bytes R V S G */
#define STOR_SEG_VERSION      1u
#define STOR_SEG_HEADER_SIZE  16u
#define STOR_SEG_TRAILER_SIZE 16u
#define STOR_SEG_FOOTER_FIXED 32u /* footer bytes before the column entries */
#define STOR_SEG_FOOTER_COL   64u /* one footer column entry */
#define STOR_SEG_DIR_FIXED    8u  /* directory block bytes before the entries */
#define STOR_SEG_DIR_ENTRY    104u
#define STOR_SEG_SKI_FIXED    8u /* short-key block bytes before the entries */
#define STOR_SEG_SKI_ENTRY    80u
#define STOR_SEG_NO_KEY       0xFFFFFFFFu
#define STOR_SEG_FOOTER_MAX   (64u << 20) /* a footer larger than this is corrupt */
#define STOR_ZONE_SLOT        32u         /* bytes of one serialized zone value */

#define STOR_PAGE_HEADER_SIZE 12u
#define STOR_PAGE_MAX_ROWS    (1u << 20)   /* rows per page; more is corrupt */
#define STOR_PAGE_MAX_RAW     (256u << 20) /* encoded or decoded bytes per page; more is corrupt */
#define STOR_STRING_MAX       (64u << 20)  /* longest string value the writer accepts */
#define STOR_PAGE_BYTES_MAX   (64u << 20)  /* largest page_bytes option */

/* Page value encodings (the byte at offset 0 of an encoded page). */
enum {
    STOR_ENC_PLAIN = 1, /* every kind: fixed-width values, or u32 lengths + bytes for strings */
    STOR_ENC_FOR = 2,   /* STOR_VEC_I64: base + bit-packed (value - base) */
    STOR_ENC_DICT = 3,  /* STOR_VEC_BYTES: dictionary + bit-packed codes */
};
#define STOR_ENC_MAX 3

/* How a stored page is compressed. */
enum {
    STOR_COMP_NONE = 0,
    STOR_COMP_ZSTD = 1,
};

/* ---- little-endian access ---- */
static inline uint32_t
stor__get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t
stor__get_u64(const uint8_t *p)
{
    return (uint64_t)stor__get_u32(p) | (uint64_t)stor__get_u32(p + 4) << 32;
}

static inline void
stor__put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline void
stor__put_u64(uint8_t *p, uint64_t v)
{
    stor__put_u32(p, (uint32_t)v);
    stor__put_u32(p + 4, (uint32_t)(v >> 32));
}

/* ---- page codec (stor_page.c) ---- */

/* Encode rows [from, from + n) of v (n >= 1) as one page into out (cleared first), choosing the
 * smallest encoding for the kind. Sets *enc to the encoding used and *zone to the page's zone
 * map. Never fails. */
void stor__page_encode(const stor_vec *v, uint32_t from, uint32_t n, buf *out, uint8_t *enc,
                       stor_zone *zone);

/* Decode one encoded page p[0..len) of kind, which the directory says holds nrows rows of which
 * null_count are NULL, into *out with arrays in arena a. Returns NULL, or a short static reason
 * when the bytes are malformed (every length and index is checked against len). */
const char *stor__page_decode(stor_vec_kind kind, const uint8_t *p, size_t len, uint32_t nrows,
                              uint32_t null_count, arena *a, stor_vec *out);

/* zstd-compress raw[0..len) at level into out (cleared first). Returns STOR_COMP_ZSTD when the
 * result is smaller than len, else STOR_COMP_NONE (out's contents are then meaningless). */
uint8_t stor__page_compress(const uint8_t *raw, size_t len, int level, buf *out);

/* True when encoding enc is valid for kind. */
bool stor__enc_valid(stor_vec_kind kind, uint8_t enc);

/* ---- zone maps (stor_page.c) ---- */

/* An empty zone (no rows). */
void stor__zone_init(stor_zone *z);
/* Fold src into dst (both of kind). */
void stor__zone_merge(stor_zone *dst, const stor_zone *src, stor_vec_kind kind);
/* Serialize min and max of z into two STOR_ZONE_SLOT-byte slots; returns the flag bits
 * (bit 0 has_minmax, bit 1 max_truncated). */
uint8_t stor__zone_put(const stor_zone *z, stor_vec_kind kind, uint8_t *min_slot,
                       uint8_t *max_slot);
/* Inverse of stor__zone_put; false when a slot is malformed (string length > 31). */
bool stor__zone_get(stor_zone *z, stor_vec_kind kind, uint8_t flags, const uint8_t *min_slot,
                    const uint8_t *max_slot);
/* Three-way compare of byte strings (memcmp order, shorter first on a tie). */
int stor__bytes_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

/* ---- tables (stor_table.c) ---- */

/* Order-preserving signed-integer image of a double for stor_key_put_int (README §"Key
 * encoding"): -0.0 maps as +0.0, every NaN as one NaN sorting after +inf. */
int64_t stor__double_key(double v);

/* ---- engine support for the writer (stor_engine.c, used by stor_writer.c) ---- */

/* A rowset id no tablet of e uses (atomic counter, above every id published or loaded). */
uint64_t stor__engine_next_rowset_id(stor_engine *e);
/* Raise the counter above rowset_id (publish, replay, image load). */
void stor__engine_saw_rowset_id(stor_engine *e, uint64_t rowset_id);
/* The stages added by stor_engine_add_stage, in order (immutable after start-up). */
const stor_stage *stor__engine_stages(const stor_engine *e, size_t *n);
/* The tablet's MoW writer mutex (write_mu in stor_engine.c): serializes MoW writers of the
 * tablet from the chain run through publish and the primary-key index update. */
void stor__tablet_write_lock(stor_tablet *t);
void stor__tablet_write_unlock(stor_tablet *t);
/* The tablet's primary-key index (created empty on first call) and its "built" flag; both only
 * with write_mu held. */
stor_pkindex *stor__tablet_pkindex(stor_tablet *t, bool **ready);

#endif /* STORAGE_STOR_INT_H */
