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

/* Random access to the rows of one encoded page (stor__page_view_init): the header, NULL
 * bitmap and body layout are checked once; rows are then read one by one without decoding the
 * rest of the page. Points into the page bytes, which must outlive the view. */
typedef struct stor__page_view {
    stor_vec_kind kind;
    uint8_t enc;
    uint32_t n;            /* rows */
    const uint8_t *nulls;  /* NULL bitmap in the page, or NULL */
    const uint8_t *packed; /* FOR / DICT: bit-packed values or codes; PLAIN numbers: values */
    unsigned width;        /* FOR / DICT bit width */
    uint64_t base;         /* FOR base */
    uint32_t ndict;        /* DICT: dictionary entries */
    const uint8_t *data;   /* BYTES: string bytes (PLAIN) or dictionary bytes (DICT) */
    uint64_t *offs;        /* BYTES: n + 1 (PLAIN) or ndict + 1 (DICT) prefix offsets into data */
} stor__page_view;

/* Check page p[0..len) as stor__page_decode does (minus per-row checks of rows never read:
 * dictionary codes are checked when read) and set up *v; offsets go to arena a (O(n) only for
 * PLAIN strings, O(ndict) for DICT). Returns NULL or a reason. */
const char *stor__page_view_init(stor__page_view *v, stor_vec_kind kind, const uint8_t *p,
                                 size_t len, uint32_t nrows, uint32_t null_count, arena *a);
/* True when row i of the view is NULL. */
bool stor__page_view_is_null(const stor__page_view *v, uint32_t i);
/* Rows [from, from + n) of the view as a vector (arena a), exactly as stor__page_decode would
 * return them after slicing: NULL rows hold 0 / empty; nulls is set when the page has NULLs.
 * Returns NULL or a reason (a dictionary code out of range). */
const char *stor__page_view_rows(const stor__page_view *v, uint32_t from, uint32_t n, arena *a,
                                 stor_vec *out);
/* Binary search in rows [from, to) of a page sorted ascending with NULLs first: *pos = the
 * first row whose value is >= k (upper false) or > k (upper true); NULL rows are below every
 * key. k == NULL (no bound): first non-NULL row (upper false) or `to` (upper true). The field of
 * k matching the page's kind is used; NaN sorts after every number. */
const char *stor__page_view_bound(const stor__page_view *v, uint32_t from, uint32_t to,
                                  const stor_key *k, bool upper, uint32_t *pos);

/* stor_segment_read_rows reads a slice of a page through a page view (decoding only its rows)
 * when the slice is under 1/STOR_SLICE_FRACTION of the page, else decodes the whole page. */
#define STOR_SLICE_FRACTION 8u

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

/* ---- segment reader support (stor_segment.c, used by stor_scan.c) ---- */

/* For column col of a segment sorted ascending by it (NULLs first; the first key column of a
 * key table's segment): narrow rows [from, to) to the rows whose value lies in [lo, hi] (either
 * bound NULL = unbounded; NULLs never match) by binary search in the boundary pages; only those
 * pages of col are read (through page views). *nfrom == *nto when no row matches. Errors as
 * stor_segment_read_page. */
int stor__segment_narrow(stor_segment_reader *r, uint32_t col, uint64_t from, uint64_t to,
                         const stor_key *lo, const stor_key *hi, uint64_t *nfrom, uint64_t *nto,
                         db_error *err);

/* ---- tables (stor_table.c) ---- */

/* Order-preserving signed-integer image of a double for stor_key_put_int (README §"Key
 * encoding"): -0.0 maps as +0.0, every NaN as one NaN sorting after +inf. */
int64_t stor__double_key(double v);

/* ---- engine support for the writer (stor_engine.c, used by stor_writer.c) ---- */

/* A rowset id no tablet of e uses (atomic counter, above every id published or loaded). */
uint64_t stor__engine_next_rowset_id(stor_engine *e);
/* Whether stor_txn_add_extra added anything to txn. */
bool stor__txn_has_extras(const stor_txn *txn);
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

/* ---- compaction (stor_compact.c <-> stor_engine.c) ---- */

/* Rows per output segment (as the writer's encode stage), and the mapping value of a row that
 * is not in the output. */
#define STOR_COMPACT_SEG_ROWS (1u << 20)
#define STOR_COMPACT_DROPPED  UINT32_MAX

/* Background thread state (stor_compact.c); the engine holds a pointer. */
typedef struct stor__compactor stor__compactor;
stor__compactor **stor__engine_bg(stor_engine *e);

/* Where the rows of one input rowset went: map[s][r] = ordinal of segment s row r in the
 * output (output segment = ordinal / STOR_COMPACT_SEG_ROWS, row = ordinal % it), or
 * STOR_COMPACT_DROPPED. */
typedef struct stor__compact_map {
    uint64_t rowset_id;
    uint32_t nsegments;
    uint32_t **map;  /* nsegments arrays */
    uint32_t *nrows; /* rows of each input segment */
} stor__compact_map;

/* A finished compaction, its output files complete on disk, ready to publish. */
typedef struct stor__compact_out {
    uint64_t tablet_id;
    const stor__compact_map *inputs; /* ninputs, ascending by version, contiguous in the tablet */
    uint32_t ninputs;
    uint64_t floor;      /* version of the newest input = the output's version */
    uint64_t commit_tso; /* commit TSO of the newest input */
    uint64_t rowset_id, rows;
    char *const *segments; /* output segment names */
    uint32_t nsegments;
    bool is_base; /* the run starts at the tablet's first rowset */
} stor__compact_out;

/* Publish o: under the tablet's write_mu, commit_mu and (for the swap) its exclusive lock,
 * translate the marks added to the inputs after o->floor through the maps, append one
 * STOR_REC_COMPACT record and publish it through the replay's decode + publish path; remap the
 * primary-key index if built; retire the inputs (files and marks kept until no older snapshot
 * is alive). *ntranslated gets the number of translated row marks. ER_STOR_COMMIT_BAD when an
 * input is no longer in the tablet; append errors as stor_txn_commit. */
int stor__compact_publish(stor_engine *e, stor_tablet *t, const stor__compact_out *o,
                          uint64_t *ntranslated, db_error *err);

/* Picker inputs of t under its shared lock: last base output's version, cumulative outputs
 * since, the delete-sign column uid (-1 = none). */
void stor__tablet_compact_info(stor_tablet *t, uint64_t *base_version, uint32_t *ncum,
                               int32_t *delete_sign_uid);
/* Ids of every tablet (heap array; *n entries). */
uint64_t *stor__engine_tablet_ids(stor_engine *e, size_t *n);
/* Serializes compactions of the engine. */
void stor__engine_compact_lock(stor_engine *e);
void stor__engine_compact_unlock(stor_engine *e);

/* Tests: fn(ctx) runs after the output files are written and before the publish takes any lock
 * (a commit made there lands between the compaction's snapshot and its publish). */
typedef void (*stor__compact_hook_fn)(void *ctx);
void stor__compact_set_hook(stor_engine *e, stor__compact_hook_fn fn, void *ctx);
stor__compact_hook_fn stor__compact_hook(stor_engine *e, void **ctx);
/* Tests: number of retired entries waiting for older snapshots. */
size_t stor__engine_nretired(stor_engine *e);

#endif /* STORAGE_STOR_INT_H */
