/* SPDX-License-Identifier: Apache-2.0
 * storage: the public API of the storage module (tablets, rowsets, columnar segments, the
 * merge-on-write primary-key index and versioned delete bitmaps). Other modules include only
 * this header. Each building block has its own section below. See storage/README.md §Formats. */
#ifndef STORAGE_STORAGE_H
#define STORAGE_STORAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/db_error.h"

/* ==== primary-key index and delete bitmaps ==== */
/* Locking (see storage/README.md §Threads and blocking). Neither stor_dbm nor stor_pkindex
 * locks anything itself. Each tablet owns one of each, guarded by the tablet's MoW lock (a
 * pthread_rwlock_t in the tablet):
 *   - every mutating call (mark, apply, collapse, drop, upsert, delete, rebuild, clear) runs with
 *     the lock held exclusively, by the one writer of the tablet at that time (flush, publish,
 *     replay or compaction);
 *   - every reading call runs with the lock held (shared is enough). A scan copies what it needs
 *     (stor_dbm_merged) under the lock at statement start and then reads without it, so writers
 *     never wait for a scan to finish. */

/* Location of one row: rowset id (unique per tablet), segment number in the rowset and row
 * ordinal in the segment. A plain value. */
typedef struct stor_rowloc {
    uint64_t rowset_id;  /* rowset id, unique within the tablet */
    uint32_t segment_id; /* segment number within the rowset, from 0 */
    uint32_t row;        /* row ordinal within the segment, from 0 */
} stor_rowloc;

/* ---- versioned delete bitmaps ---- */

/* Per-tablet delete bitmaps: (rowset, segment) -> list of (version, set of row ordinals deleted at
 * that version), versions ascending. A read at version v sees marks with version <= v only (I2). */
typedef struct stor_dbm stor_dbm;

/* A CRoaring bitmap; include <roaring/roaring.h> to use one. */
struct roaring_bitmap_s;

/* New empty delete-bitmap set. Heap object, free with stor_dbm_free. Never NULL. */
stor_dbm *stor_dbm_new(void);
/* Free dbm and every bitmap it holds. NULL is fine. */
void stor_dbm_free(stor_dbm *dbm);

/* Mark rows[0..nrows) of (rowset_id, segment_id) deleted at version. version must be >= every
 * version already recorded for that segment (a commit's version; versions only increase);
 * violating that is a bug (DB_ASSERT). Copies rows. Exclusive lock. */
void stor_dbm_mark(stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id, const uint32_t *rows,
                   size_t nrows, uint64_t version);

/* True when row of (rowset_id, segment_id) carries a mark with version <= read_version. Shared
 * lock. O(log segments + versions of that segment). */
bool stor_dbm_is_deleted(const stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id, uint32_t row,
                         uint64_t read_version);

/* The union of the marks of (rowset_id, segment_id) with version <= read_version, as a new heap
 * roaring bitmap owned by the caller (roaring_bitmap_free). Empty when there are none; never
 * NULL. Shared lock; the result is a copy and stays valid after the lock is released. */
struct roaring_bitmap_s *stor_dbm_merged(const stor_dbm *dbm, uint64_t rowset_id,
                                         uint32_t segment_id, uint64_t read_version);

/* Number of rows of (rowset_id, segment_id) deleted as of read_version. Shared lock. */
uint64_t stor_dbm_count(const stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id,
                        uint64_t read_version);

/* Append to out the marks whose version is in [min_version, max_version], in the format of
 * storage/README.md §"Delete-bitmap additions" (CRC32C-protected). [v, v] is one commit's
 * additions (edit-log record); [0, UINT64_MAX] is the whole set (checkpoint image). Shared lock.
 * Cannot fail. */
void stor_dbm_encode(const stor_dbm *dbm, uint64_t min_version, uint64_t max_version, buf *out);

/* Decode p[0..len) (written by stor_dbm_encode) and add its marks to dbm. Bounds-checked: corrupt,
 * truncated or trailing bytes, or a mark older than what dbm already holds for that segment, fail
 * with ER_STOR_BITMAP_CORRUPT and leave dbm unchanged (all or nothing). Exclusive lock. */
int stor_dbm_apply(stor_dbm *dbm, const uint8_t *p, size_t len, db_error *err);

/* Compaction helper: for every segment, merge all marks with version <= upto_version into one
 * mark labelled with the highest of those versions. Reads at versions >= upto_version give the
 * same answers as before; older snapshots become unreadable, so the caller must know that no
 * reader holds one. Exclusive lock. */
void stor_dbm_collapse(stor_dbm *dbm, uint64_t upto_version);

/* Compaction helpers: forget every mark of one segment / of every segment of one rowset (after
 * compaction replaced it). Return true when something was dropped. Exclusive lock. */
bool stor_dbm_drop_segment(stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id);
bool stor_dbm_drop_rowset(stor_dbm *dbm, uint64_t rowset_id);

/* Number of segments with marks, and heap bytes held (approximate). Shared lock. */
size_t stor_dbm_nsegments(const stor_dbm *dbm);
size_t stor_dbm_memory(const stor_dbm *dbm);

/* ---- memcomparable key encoding ---- */
/* A primary key is a tuple of column values encoded so that memcmp order (shorter wins on a
 * common prefix) equals SQL order, column by column. Every value is a marker byte (0x00 NULL,
 * 0x01 not NULL; NULL sorts first) followed, when not NULL, by its body (README §"Key
 * encoding"). Encoded values are prefix-free, so columns simply concatenate. Append to out;
 * cannot fail. Any thread. */
void stor_key_put_null(buf *out);
/* TINYINT..BIGINT, BOOLEAN: 8 bytes big-endian with the sign bit flipped. */
void stor_key_put_int(buf *out, int64_t v);
/* LARGEINT and DECIMAL128 (unscaled): the 128-bit two's-complement value hi:lo, 16 bytes. */
void stor_key_put_int128(buf *out, int64_t hi, uint64_t lo);
/* DECIMAL32/64: the unscaled integer (the column's scale is fixed, so it is not encoded). */
void stor_key_put_decimal(buf *out, int64_t unscaled);
/* CHAR/VARCHAR/STRING, compared bytewise: bytes with 0x00 escaped as 0x00 0xFF, then 0x00 0x01. */
void stor_key_put_string(buf *out, const void *s, size_t len);
/* DATE (year 0..9999, month 1..12, day 1..31): Doris DATEV2 packing, 4 bytes big-endian. */
void stor_key_put_date(buf *out, int year, int month, int day);
/* DATETIME (microseconds 0..999999): Doris DATETIMEV2 packing, 8 bytes big-endian. */
void stor_key_put_datetime(buf *out, int year, int month, int day, int hour, int minute, int second,
                           int microsecond);

/* ---- merge-on-write primary-key index ---- */

/* Per-tablet hash index: encoded primary key -> latest row location and the version that wrote
 * it. Keys are copied into the index's own slab. Point operations are O(1) expected (I3). */
typedef struct stor_pkindex stor_pkindex;

#define STOR_PK_MAX_KEY 65535 /* longest encoded key, in bytes */

/* One (key, location) pair, for rebuild and iteration. key points into caller memory (rebuild)
 * or into the index (iteration, valid until the next mutating call). */
typedef struct stor_pk_item {
    const uint8_t *key; /* encoded key bytes */
    size_t keylen;      /* 1..STOR_PK_MAX_KEY */
    stor_rowloc loc;    /* latest location of the key */
    uint64_t version;   /* version of the commit that wrote loc */
} stor_pk_item;

/* New empty index. Heap object, free with stor_pkindex_free. Never NULL. */
stor_pkindex *stor_pkindex_new(void);
/* Free the index and its keys. NULL is fine. */
void stor_pkindex_free(stor_pkindex *pk);

/* Find key. On a hit fill *loc and *version (either may be NULL) and return true. Lock held. */
bool stor_pkindex_lookup(const stor_pkindex *pk, const void *key, size_t keylen, stor_rowloc *loc,
                         uint64_t *version);

/* Point key at loc, written at version (>= the key's current version; DB_ASSERT). When the key
 * existed, *existed (may be NULL) = true and *prev (may be NULL) gets its old location, which the
 * caller marks in the delete bitmap; else *existed = false. Copies key. Returns DB_OK, or DB_ERR
 * with ER_TOO_LONG_KEY when keylen is 0 or > STOR_PK_MAX_KEY. Exclusive lock. */
int stor_pkindex_upsert(stor_pkindex *pk, const void *key, size_t keylen, stor_rowloc loc,
                        uint64_t version, stor_rowloc *prev, bool *existed, db_error *err);

/* Remove key, deleted at version (>= the key's current version; DB_ASSERT). Returns true and
 * fills *prev (may be NULL) when the key existed; false otherwise. Exclusive lock. */
bool stor_pkindex_delete(stor_pkindex *pk, const void *key, size_t keylen, uint64_t version,
                         stor_rowloc *prev);

/* Call fn(item, arg) for every key, in no particular order, until fn returns false. fn must not
 * modify the index. Returns false when fn stopped the walk. Lock held. */
typedef bool (*stor_pkindex_visit_fn)(const stor_pk_item *item, void *arg);
bool stor_pkindex_foreach(const stor_pkindex *pk, stor_pkindex_visit_fn fn, void *arg);

/* Replace the contents with items[0..n) (restart: keys read back from the segments). When a key
 * repeats, the item with the higher version wins (the later one on a tie). Copies the keys.
 * Returns DB_OK, or DB_ERR with ER_TOO_LONG_KEY (the index is then empty). Exclusive lock. */
int stor_pkindex_rebuild(stor_pkindex *pk, const stor_pk_item *items, size_t n, db_error *err);

/* Remove every key; keeps the allocated table. Exclusive lock. */
void stor_pkindex_clear(stor_pkindex *pk);

/* Number of keys, and heap bytes held by the index (table, entries, key slab). Lock held. */
size_t stor_pkindex_count(const stor_pkindex *pk);
size_t stor_pkindex_memory(const stor_pkindex *pk);
/* ==== end primary-key index and delete bitmaps ==== */

/* ==== page cache ==== */
/* A thread-safe cache of segment pages that passed their CRC check and were decompressed (the
 * encoded page bytes, before decoding), so a re-read skips pread + CRC + zstd. Capacity is the
 * be.conf key storage_page_cache_capacity. Entries are charged their length plus a fixed
 * per-entry overhead; the cache is split into shards (1..16, each with 1/nshards of the capacity,
 * its own mutex, hash table and LRU list), and the bytes held never exceed the capacity, pinned
 * entries included. An entry larger than a shard's share is not cached. See README.md
 * §"Page cache". */

typedef struct stor_cache stor_cache;
typedef struct stor_cache_entry stor_cache_entry;

/* Identity of one cached page: the segment file (device, inode, size and modification time in
 * ns, from fstat at open; files are immutable once renamed into place) and the page's offset. A
 * plain value; zero it before filling so padding never matters. */
typedef struct stor_cache_key {
    uint64_t dev, ino;
    uint64_t file_size; /* bytes */
    uint64_t mtime_ns;
    uint64_t offset; /* file offset of the page's stored bytes */
} stor_cache_key;

/* Counters since stor_cache_new; a snapshot summed over the shards (each shard read under its
 * lock, so the sum is not one atomic instant when other threads are busy). */
typedef struct stor_cache_stats {
    uint64_t hits, misses; /* lookups that found / did not find the key */
    uint64_t inserts;      /* entries added */
    uint64_t rejects;      /* inserts not cached: too large, or the shard full of pinned entries */
    uint64_t evictions;    /* unpinned entries dropped to make room */
    uint64_t bytes;        /* charged bytes held now (<= capacity) */
    uint64_t entries;      /* entries held now */
    uint64_t capacity;     /* bytes, as given to stor_cache_new */
} stor_cache_stats;

/* New empty cache holding at most capacity_bytes (0 = caches nothing). Heap object, free with
 * stor_cache_free. Never NULL. Any thread. */
stor_cache *stor_cache_new(size_t capacity_bytes);
/* Free the cache and every entry. No entry may be pinned (DB_ASSERT). NULL is fine. */
void stor_cache_free(stor_cache *c);

/* Find key. On a hit the entry is pinned (its bytes stay valid and are never evicted) until
 * stor_cache_release, and moves to the most-recently-used end; returns NULL on a miss. No
 * allocation. Any thread; takes one shard mutex briefly. */
stor_cache_entry *stor_cache_lookup(stor_cache *c, const stor_cache_key *key);

/* Copy data[0..len) into a new entry for key, evicting least-recently-used unpinned entries of
 * its shard to make room, and return it pinned. When key is already cached the existing entry is
 * returned pinned instead (its bytes are the same page). Returns NULL, caching nothing, when the
 * entry does not fit in its shard even after evicting every unpinned entry; the caller then keeps
 * using its own copy. Any thread; allocates outside the shard mutex. */
stor_cache_entry *stor_cache_insert(stor_cache *c, const stor_cache_key *key, const void *data,
                                    size_t len);

/* The bytes and length of a pinned entry; valid until stor_cache_release. */
const uint8_t *stor_cache_entry_data(const stor_cache_entry *e);
size_t stor_cache_entry_len(const stor_cache_entry *e);

/* Unpin e (from lookup or insert of the same cache); e must not be used afterwards. */
void stor_cache_release(stor_cache *c, stor_cache_entry *e);

/* Counters and current size. Any thread. */
stor_cache_stats stor_cache_get_stats(stor_cache *c);

/* Bytes charged for an entry of len bytes (len plus the per-entry overhead). */
size_t stor_cache_charge(size_t len);
/* ==== end page cache ==== */

/* ==== segments ==== */
/* A segment file holds the rows of one flush of one tablet, column by column: typed pages
 * (plain, frame-of-reference bit-packed, dictionary) compressed with zstd, a page directory per
 * column with zone maps, a short-key index and a CRC-protected footer. Written once through a
 * stor_segment_writer, then read-only. Layout: README.md §Formats "Segment file". */

typedef __int128 stor_i128; /* DECIMAL (scaled by 10^scale) and LARGEINT values */

/* How a column's values sit in memory (stor_vec) and in pages. */
typedef enum stor_vec_kind {
    STOR_VEC_I64 = 1,  /* BOOLEAN, TINYINT..BIGINT; DATE as days since 1970-01-01; DATETIME as
                        * microseconds since 1970-01-01 00:00:00 */
    STOR_VEC_F64 = 2,  /* FLOAT (widened) and DOUBLE */
    STOR_VEC_I128 = 3, /* DECIMAL(p,s) scaled by 10^s (s from the column's cat_type); LARGEINT */
    STOR_VEC_BYTES = 4 /* CHAR, VARCHAR, STRING: byte strings, no terminator */
} stor_vec_kind;

/* A column vector of n rows: the unit the writer takes and the reader returns. Exactly one value
 * array is used, picked by kind; the others are NULL. nulls is a bitmap over rows, LSB first
 * (bit r of byte r/8 set = row r is NULL; the planner's plan_vec uses the same convention), or
 * NULL when no row is NULL. A NULL row's value slot holds 0 (strings: length 0) on read and is
 * ignored on write. Strings: row r is data[offs[r] .. offs[r+1]), offs has n + 1 entries,
 * offs[0] == 0, non-decreasing. Converting to a planner batch is a pointer copy for numbers and one
 * pass building (pointer, length) pairs into data for strings. The struct does not own its
 * arrays: the reader allocates them in the caller's arena, the writer only reads them. */
typedef struct stor_vec {
    stor_vec_kind kind;
    uint32_t n;      /* rows */
    uint8_t *nulls;  /* (n + 7) / 8 bytes, or NULL = no NULLs */
    int64_t *i64;    /* STOR_VEC_I64: n values */
    double *f64;     /* STOR_VEC_F64: n values */
    stor_i128 *i128; /* STOR_VEC_I128: n values */
    uint64_t *offs;  /* STOR_VEC_BYTES: n + 1 byte offsets into data */
    uint8_t *data;   /* STOR_VEC_BYTES: offs[n] bytes */
} stor_vec;

/* True when row r of v is NULL. */
static inline bool
stor_vec_is_null(const stor_vec *v, uint32_t r)
{
    return v->nulls != NULL && (v->nulls[r >> 3] >> (r & 7)) & 1;
}

/* out = n rows of kind where row i is row[i] of src[i] (src[i] NULL = a NULL cell); arrays in
 * a, string bytes copied. */
void stor_vec_select(arena *a, stor_vec_kind kind, uint32_t n, const stor_vec *const *src,
                     const uint32_t *row, stor_vec *out);

/* The vector kind a column type is stored as; 0 for types storage cannot hold (ARRAY, MAP,
 * VARIANT, INVALID). JSON is stored as bytes (its normalized text). */
stor_vec_kind stor_vec_kind_of(const cat_type *t);

/* Longest string prefix a zone map keeps for min and max (bytes). */
#define STOR_ZONE_STR_MAX 31

/* Min / max / counts of a page or a whole column; a plain value (copy freely). Only the fields of
 * the column's kind are meaningful. NULLs are not counted in min/max; NaN doubles are skipped.
 * Strings keep at most STOR_ZONE_STR_MAX bytes: a truncated min is still a lower bound; when
 * max_truncated is set every value v satisfies prefix(v, max_len) <= max_str. */
typedef struct stor_zone {
    uint64_t nrows;      /* rows, NULLs included */
    uint64_t null_count; /* NULL rows */
    bool has_minmax;     /* false when no row has a (non-NaN) value */
    bool max_truncated;  /* bytes: max_str is a prefix of the true max */
    int64_t min_i64, max_i64;
    double min_f64, max_f64;
    stor_i128 min_i128, max_i128;
    uint8_t min_len, max_len; /* bytes used of min_str / max_str */
    uint8_t min_str[STOR_ZONE_STR_MAX];
    uint8_t max_str[STOR_ZONE_STR_MAX];
} stor_zone;

/* One column of a segment, as given to the writer and reported by the reader. */
typedef struct stor_column_desc {
    uint32_t uid;  /* the column's unique id in the catalog (survives renames) */
    cat_type type; /* its type; must map to a stor_vec_kind */
    bool is_key;   /* a key column; the first key column feeds the short-key index */
    bool nullable; /* false: the writer rejects NULLs in this column */
} stor_column_desc;

/* Writer options; zero fields take the defaults. */
typedef struct stor_segment_opts {
    uint32_t page_bytes;    /* target value bytes per page; default 65536, at most 64 MiB */
    uint32_t max_page_rows; /* hard cap of rows per page; default 65536, at most 1 << 20 */
    int zstd_level;         /* default 3 */
    bool no_fsync;          /* tests and benchmarks only: skip fsync at finish */
} stor_segment_opts;

/* What finish reports. zones is a heap array of ncols entries, freed by
 * stor_segment_info_destroy. */
typedef struct stor_segment_info {
    uint64_t rows;       /* rows in the file */
    uint64_t file_bytes; /* size of the file on disk */
    uint32_t ncols;
    stor_zone *zones; /* per column, over the whole segment */
} stor_segment_info;

void stor_segment_info_destroy(stor_segment_info *info);

typedef struct stor_segment_writer stor_segment_writer;

/* Create path.tmp and a writer for ncols columns described by cols[] (copied). Returns NULL with
 * ER_IO_ERROR when the file cannot be created, ER_STOR_BAD_COLUMN for a type storage cannot hold.
 * The caller owns the writer until finish or abort. Blocks on file I/O: run on a worker. */
stor_segment_writer *stor_segment_writer_open(const char *path, uint32_t ncols,
                                              const stor_column_desc *cols,
                                              const stor_segment_opts *opts, db_error *err);

/* Append one batch: cols[0..ncols) in descriptor order, all with the same n and the column's kind.
 * Values are copied; the caller keeps cols. Full pages are encoded, compressed and written as
 * they fill. Returns DB_OK, or DB_ERR (ER_STOR_BAD_COLUMN for a NULL in a NOT NULL column, a
 * kind/n mismatch or a string over 64 MiB; ER_IO_ERROR on a write failure); after DB_ERR only
 * abort is allowed. Blocks on file I/O. */
int stor_segment_writer_append(stor_segment_writer *w, const stor_vec *cols, db_error *err);

/* Flush the last pages, write the directories, the short-key index, the footer and the trailer,
 * fsync, rename path.tmp to path and fsync the directory. Fills *info (may be NULL). Frees w in
 * every case; on DB_ERR (ER_IO_ERROR) path.tmp is removed and path is untouched. */
int stor_segment_writer_finish(stor_segment_writer *w, stor_segment_info *info, db_error *err);

/* Drop the writer and remove path.tmp. NULL is fine. */
void stor_segment_writer_abort(stor_segment_writer *w);

typedef struct stor_segment_reader stor_segment_reader;

/* Where one page sits in its column: the ordinal index entry plus its zone map. */
typedef struct stor_page_info {
    uint64_t first_row; /* ordinal of the page's first row in the segment */
    uint32_t nrows;
    stor_zone zone;
} stor_page_info;

/* Open a segment file: checks the trailer, the footer CRC and every page directory (CRC,
 * contiguous ordinals, offsets inside the data area). Returns a heap reader (owns an fd) or NULL
 * with ER_IO_ERROR (cannot open/read) or ER_STOR_CORRUPT (names the file and offset). Pages are
 * checked when read. Blocks on file I/O. */
stor_segment_reader *stor_segment_reader_open(const char *path, db_error *err);
/* Free what r keeps between reads (the last decoded page of each column, scratch), e.g. before
 * r idles in a pool; r stays usable. */
void stor_segment_reader_trim(stor_segment_reader *r);
void stor_segment_reader_close(stor_segment_reader *r);

/* Let r keep decompressed, CRC-checked pages in cache (shared by any number of readers on any
 * threads; NULL = no cache, the default). Reads of a cached page skip pread, CRC and zstd; the
 * page is still decoded into the caller's arena. The cache must outlive r. */
void stor_segment_reader_set_cache(stor_segment_reader *r, stor_cache *cache);

uint64_t stor_segment_reader_rows(const stor_segment_reader *r);
uint32_t stor_segment_reader_ncols(const stor_segment_reader *r);
/* Descriptor of column col (< ncols); points into r. */
const stor_column_desc *stor_segment_reader_column(const stor_segment_reader *r, uint32_t col);
/* Index of the column with unique id uid, or -1. */
int stor_segment_reader_find_uid(const stor_segment_reader *r, uint32_t uid);
uint32_t stor_segment_reader_npages(const stor_segment_reader *r, uint32_t col);
/* Ordinal entry and zone map of page `page` of column col (for pruning); points into r. */
const stor_page_info *stor_segment_reader_page(const stor_segment_reader *r, uint32_t col,
                                               uint32_t page);
/* Zone map of a whole column (merged from its pages). */
stor_zone stor_segment_reader_zone(const stor_segment_reader *r, uint32_t col);

/* Decode page `page` of column col into *out, arrays in arena a. DB_ERR with ER_STOR_CORRUPT
 * (file, offset, reason) on a CRC mismatch or malformed page, ER_IO_ERROR on a read failure. */
int stor_segment_read_page(stor_segment_reader *r, uint32_t col, uint32_t page, arena *a,
                           stor_vec *out, db_error *err);

/* Rows [from, to) of column col into *out (arena a); from <= to <= rows. Errors as read_page. */
int stor_segment_read_rows(stor_segment_reader *r, uint32_t col, uint64_t from, uint64_t to,
                           arena *a, stor_vec *out, db_error *err);

/* Rows [from, to) of the ncols columns cols[] into outs[0..ncols) (arena a); only those columns'
 * pages are read. Errors as read_page. */
int stor_segment_read_columns(stor_segment_reader *r, const uint32_t *cols, uint32_t ncols,
                              uint64_t from, uint64_t to, arena *a, stor_vec *outs, db_error *err);

/* A key bound for the short-key index: the field of the first key column's kind is used. */
typedef struct stor_key {
    int64_t i64;
    double f64;
    stor_i128 i128;
    const uint8_t *str;
    size_t len;
} stor_key;

/* Short-key index lookup for a segment sorted by its key columns: the row range [*from, *to)
 * that holds every row whose first key column lies in [lo, hi] (either bound may be NULL =
 * unbounded). The range is page-granular, so it may hold other rows too. Without key columns the
 * range is the whole segment. Never fails. */
void stor_segment_key_range(const stor_segment_reader *r, const stor_key *lo, const stor_key *hi,
                            uint64_t *from, uint64_t *to);
/* ---- reader pool (stor_rcache.c) ---- */
/* Open segment readers kept for reuse (each used by one thread at a time). Thread-safe; its
 * mutex protects only the pool's lists and is never held across file I/O. */
typedef struct stor_rcache stor_rcache;

/* A pool keeping at most max_idle idle readers (0 = keep none). Never NULL. */
stor_rcache *stor_rcache_new(size_t max_idle);
/* Close every idle reader and free the pool. NULL is fine. */
void stor_rcache_free(stor_rcache *rc);
/* An open reader of path for the caller alone: an idle one from the pool, else a new one
 * (stor_segment_reader_open, with the page cache pages attached when not NULL; its errors). */
stor_segment_reader *stor_rcache_acquire(stor_rcache *rc, const char *path, stor_cache *pages,
                                         db_error *err);
/* Give r (acquired for path, not failed) back; the least recently used idle reader beyond the
 * limit is closed. NULL r is fine. */
void stor_rcache_release(stor_rcache *rc, const char *path, stor_segment_reader *r);
/* Close the idle readers of path (before the file is deleted). */
void stor_rcache_forget(stor_rcache *rc, const char *path);
/* Counters: acquisitions served from the pool, files opened, idle readers now. */
void stor_rcache_stats(stor_rcache *rc, uint64_t *hits, uint64_t *opens, size_t *idle);
/* ==== end segments ==== */

/* ==== engine, tablets, commits ==== */
/* The storage engine owns the tablets of one server (keyed by tablet id) and publishes commits:
 * a stor_txn collects, per tablet, a new rowset whose segment files are already written and
 * delete-bitmap additions, plus opaque sections of other modules; stor_txn_commit appends ONE
 * edit-log record (STOR_REC_COMMIT) and, once it is durable, publishes it under each tablet's
 * lock (I1). Replay re-publishes the same records; the image section STOR_IMG_TABLETS holds every
 * tablet's rowsets and bitmaps. Formats: README.md §Formats "Commit record", "Tablet image". */

enum { STOR_REC_COMMIT = CAT_REC_STORAGE_FIRST + 0 };  /* one per committed transaction */
enum { STOR_REC_COMPACT = CAT_REC_STORAGE_FIRST + 1 }; /* one per compaction (stor_compact.c) */
enum { STOR_REC_DROP = CAT_REC_STORAGE_FIRST + 2 };    /* one per stor_engine_drop_tablets */
enum { STOR_IMG_TABLETS = CAT_IMG_STORAGE_FIRST + 0 }; /* all tablets' rowsets and bitmaps */

#define STOR_SEGMENT_NAME_MAX 255 /* bytes of a segment file name (no '/', not "." or "..") */

typedef struct stor_engine stor_engine;
typedef struct stor_tablet stor_tablet;
typedef struct stor_txn stor_txn;

/* Metadata of one published rowset (one commit in one tablet). In a snapshot every string and
 * array is owned by the snapshot. */
typedef struct stor_rowset_meta {
    uint64_t rowset_id;  /* unique within the tablet */
    uint64_t version;    /* the tablet version its commit published (>= 1) */
    uint64_t commit_tso; /* TSO of its commit */
    uint64_t rows;       /* rows in its segments */
    uint32_t nsegments;
    char **segments; /* nsegments file names relative to the tablet directory */
} stor_rowset_meta;

/* What a reader sees of one tablet: the visible version and a copy of the rowsets with
 * version <= it, ascending by version. Owned by the caller; stor_snapshot_destroy frees it. */
typedef struct stor_snapshot {
    uint64_t tablet_id;
    uint64_t version; /* visible version when taken (0 = nothing committed yet) */
    size_t nrowsets;
    stor_rowset_meta *rowsets;
    uint64_t *vtso; /* vtso[v - 1] = commit TSO of version v (v = 1..nvtso); nvtso is 0 when
                       the tablet came from a format-1 image (TSOs unknown) */
    size_t nvtso;
    uint64_t floor;      /* compaction floor when taken: reads at versions below it fail */
    stor_engine *engine; /* registration (files of retired rowsets outlive the snapshot) */
    uint64_t epoch;      /* epoch the snapshot is counted in; see stor_engine_purge_retired */
} stor_snapshot;

/* Handler of one kind of opaque commit section (binlog rowsets, stream offsets, ...): called
 * after the tablets of the commit were published, both by stor_txn_commit (is_replay false) and
 * by the replay (true), with the section's bytes (valid during the call). Returns DB_OK or
 * DB_ERR with err set; during replay an error stops it, after a live commit it is returned to the
 * committer (the record is durable anyway). */
typedef int (*stor_extra_fn)(void *ctx, uint16_t kind, uint64_t tso, const void *data, size_t len,
                             bool is_replay, db_error *err);

/* Pre-commit check of a section of kind: called under the commit mutex before the record is
 * appended, with the section's bytes; DB_ERR (err set) fails the commit before anything is
 * written or published. Must not block or call back into the engine. */
typedef int (*stor_extra_check_fn)(void *ctx, uint16_t kind, const void *data, size_t len,
                                   db_error *err);

/* Create the engine over root_path (directory of the tablet directories root_path/<tablet id>;
 * created if missing, its parent must exist) and register record STOR_REC_COMMIT and image
 * section STOR_IMG_TABLETS with log, so call it before cat_editlog_replay. log is borrowed and
 * must outlive the engine. Returns a heap object (stor_engine_free), or NULL with ER_IO_ERROR.
 * Blocks on mkdir; start-up only. */
stor_engine *stor_engine_new(const char *root_path, cat_editlog *log, db_error *err);
/* Free the engine, its tablets and their metadata (no file is touched). NULL is fine. No commit
 * may be running and no tablet pointer may be used afterwards. */
void stor_engine_free(stor_engine *e);

/* Route commit sections of kind (!= 0, not yet registered; DB_ASSERT) to fn(ctx, ...). Call
 * before cat_editlog_replay and before any commit. A replayed section of an unregistered kind fails
 * the replay with ER_STOR_COMMIT_CORRUPT; stor_txn_add_extra of an unregistered kind is a
 * DB_ASSERT. */
void stor_engine_register_extra(stor_engine *e, uint16_t kind, stor_extra_fn fn, void *ctx);
/* Add a pre-commit check to the registered kind (once). Start-up only. */
void stor_engine_register_extra_check(stor_engine *e, uint16_t kind, stor_extra_check_fn check,
                                      void *ctx);

/* The tablet with tablet_id; when it does not exist, a new empty one (version 0) if create, else
 * NULL. A tablet dropped by stor_engine_drop_tablets in this process is still returned (the same
 * object, with no rowsets: pointers held by scans and writers stay valid; commits naming it fail
 * with ER_STOR_COMMIT_BAD) and is never created again. Tablet objects live as long as the engine.
 * Any thread; takes the engine's map lock briefly. */
stor_tablet *stor_engine_tablet(stor_engine *e, uint64_t tablet_id, bool create);
/* Number of tablets (dropped ones excluded). Any thread. */
size_t stor_engine_ntablets(stor_engine *e);
/* Ids of every tablet, ascending (dropped ones excluded), in *out (heap array, mem_free it; never
 * NULL); returns how many. Any thread. */
size_t stor_engine_tablet_ids(stor_engine *e, uint64_t **out);
/* Drop the tablets ids[0..n) durably: under commit_mu (like a commit) append one STOR_REC_DROP
 * record naming those that exist (ids that do not exist or were already dropped are skipped;
 * none left = no record, DB_OK) and publish it through the replay's decode + publish path: the
 * tablets leave the engine map (the image no longer holds them) and their segment files go to
 * the retired list, deleted by stor_engine_purge_retired once no snapshot taken before the drop
 * is alive (such snapshots scan the tablet as it was until destroyed). Purges at the end.
 * Returns DB_OK, or DB_ERR (append errors as stor_txn_commit; nothing is dropped then). Blocks
 * on the fsync and file I/O: worker threads. README.md §"Dropping tablets". */
int stor_engine_drop_tablets(stor_engine *e, const uint64_t *ids, size_t n, db_error *err);

/* Delete every regular file in root_path/<decimal tablet id>/ that no published rowset of that
 * tablet names (segments and *.tmp left by a crash before their commit record was durable), and
 * the directories of unknown tablets once empty. Other entries of root_path are left alone.
 * Call after cat_editlog_replay and before the first commit. *nremoved (may be NULL) gets the
 * number of files deleted. Returns DB_OK or DB_ERR with ER_IO_ERROR. Blocks on file I/O. */
int stor_engine_remove_orphans(stor_engine *e, uint64_t *nremoved, db_error *err);

/* TSO of the last commit whose tablets are all published (0 = none yet; restored by replay and
 * the image). A statement cuts each tablet snapshot at this TSO (stor_snapshot_as_of) so it sees
 * every multi-tablet commit wholly or not at all. Any thread; lock-free. */
uint64_t stor_engine_visible_tso(stor_engine *e);

/* The tablet's id and directory (root_path/<tablet id>, owned by the tablet). */
uint64_t stor_tablet_id(const stor_tablet *t);
const char *stor_tablet_dir(const stor_tablet *t);
/* mkdir the tablet directory if missing (before writing its segments). ER_IO_ERROR. Blocks. */
int stor_tablet_make_dir(stor_tablet *t, db_error *err);
/* The visible version (shared lock). */
uint64_t stor_tablet_version(stor_tablet *t);

/* Fill *snap with the visible version and a copy of the rowset list, under the tablet's shared
 * lock (held only for the copy). Later commits do not change snap. Any thread; never fails. */
void stor_tablet_snapshot(stor_tablet *t, stor_snapshot *snap);
void stor_snapshot_destroy(stor_snapshot *snap);

/* stor_dbm_merged of the tablet's delete bitmaps under its shared lock: rows of (rowset_id,
 * segment_id) deleted as of read_version (a snapshot's version). Caller owns the result
 * (roaring_bitmap_free). Any thread. */
struct roaring_bitmap_s *stor_tablet_deleted(stor_tablet *t, uint64_t rowset_id,
                                             uint32_t segment_id, uint64_t read_version);
/* stor_dbm_is_deleted under the tablet's shared lock: whether one row is deleted as of
 * read_version. Cheaper than stor_tablet_deleted when a scan reads a few rows of a segment with
 * many marks (point lookups). Any thread. */
bool stor_tablet_row_deleted(stor_tablet *t, uint64_t rowset_id, uint32_t segment_id, uint32_t row,
                             uint64_t read_version);
/* Append stor_dbm_encode of all the tablet's marks to out (shared lock; tests and tools). */
void stor_tablet_encode_dbm(stor_tablet *t, buf *out);

/* A transaction's storage changes, built by one thread. Heap object (stor_txn_free). */
stor_txn *stor_txn_new(uint64_t txn_id);
void stor_txn_free(stor_txn *txn);
/* Add a new rowset of tablet_id (at most one per tablet per txn; DB_ASSERT) whose nsegments
 * segment files (names relative to the tablet directory; copied; each 1..STOR_SEGMENT_NAME_MAX
 * bytes, no '/', not "." or "..") are already complete on disk. */
void stor_txn_add_rowset(stor_txn *txn, uint64_t tablet_id, uint64_t rowset_id, uint64_t rows,
                         const char *const *segments, uint32_t nsegments);
/* Mark rows[0..nrows) (copied) of (rowset_id, segment_id) of tablet_id deleted by this txn; the
 * marks get the tablet's new version at commit. */
void stor_txn_delete(stor_txn *txn, uint64_t tablet_id, uint64_t rowset_id, uint32_t segment_id,
                     const uint32_t *rows, size_t nrows);
/* Add an opaque section of kind (registered with stor_engine_register_extra): data[0..len)
 * copied, carried in the commit record and handed to the kind's handler at publish and replay. */
void stor_txn_add_extra(stor_txn *txn, uint16_t kind, const void *data, size_t len);

/* Commit txn at tso: encode one STOR_REC_COMMIT record (each touched tablet's version = its
 * visible version + 1), append it to the edit log (durable on return), then publish it under
 * each tablet's exclusive lock and run the extra handlers. Commits of one engine serialize on its
 * commit mutex (held across append and publish). On DB_ERR before the append (ER_STOR_COMMIT_BAD:
 * a rowset id the tablet already has) or from the append (ER_CAT_RECORD_TOO_LARGE,
 * ER_CAT_LOG_FAILED) nothing is published; an extra handler's error comes after publish. The
 * caller still owns and frees txn; a txn commits at most once (DB_ASSERT). Any thread but the
 * loop thread: blocks for the fsync. */
int stor_txn_commit(stor_engine *e, stor_txn *txn, uint64_t tso, db_error *err);
/* stor_txn_commit with the TSO taken from alloc under the commit mutex, so TSOs ascend with the
 * versions they publish; *tso gets it. alloc NULL: commit at *tso. */
int stor_txn_commit_at(stor_engine *e, stor_txn *txn, cat_tso *alloc, uint64_t *tso, db_error *err);
/* Whether err is a commit refused because delete marks by location (DELETE / UPDATE of tables
 * without merge-on-write) name a rowset that compaction replaced after the statement's scan:
 * nothing was written, and running the statement again on a new snapshot can succeed. */
bool stor_error_is_compacted(const db_error *err);
/* ==== end engine, tablets, commits ==== */

/* ==== compaction ==== */
/* Background compaction (stor_compact.c) merges a contiguous run of one tablet's rowsets into
 * one rowset of the rows live as of the newest input's version, in key order, with the delete
 * bitmaps applied; marks added to the inputs later are translated to the output. Readers and
 * writers are blocked only for the short publish. Format: README.md §Formats "Compaction
 * record"; design: README.md §"Compaction". */

typedef enum stor_compact_kind {
    STOR_COMPACT_CUMULATIVE = 1, /* the small rowsets after the last base output */
    STOR_COMPACT_BASE = 2,       /* every rowset of the tablet */
} stor_compact_kind;

typedef struct stor_compact_stats {
    uint32_t merged_rowsets;    /* input rowsets; 0 = nothing was done */
    uint64_t input_rows;        /* rows stored in the inputs */
    uint64_t output_rows;       /* rows written */
    uint64_t dropped_rows;      /* deleted rows and (base, MoW) delete-sign rows left out */
    uint64_t output_rowset_id;  /* 0 when nothing was done */
    uint32_t output_segments;   /* segment files written */
    uint64_t translated_marks;  /* rows marked after the merge's version, moved to the output */
    bool skipped_schema_change; /* inputs have different column sets: nothing done */
} stor_compact_stats;

/* Merge rowsets of tablet_id: CUMULATIVE takes the longest run of rowsets newer than the last
 * base output that each hold < 1M rows, BASE every rowset; fewer than 2 (or inputs written
 * with different column sets) = nothing to do, DB_OK with out->merged_rowsets 0. Reads and
 * writes files without locks, then publishes (stor__compact_publish). out may be NULL.
 * Returns DB_OK, or DB_ERR (ER_IO_ERROR / ER_STOR_CORRUPT reading or writing segments, append
 * errors; the output files are removed then). Blocks on file I/O and fsync: worker threads. */
int stor_compact_tablet(stor_engine *e, uint64_t tablet_id, stor_compact_kind kind,
                        stor_compact_stats *out, db_error *err);

/* Should the background thread compact tablet_id? (table property disable_auto_compaction). */
typedef bool (*stor_compact_allow_fn)(void *ctx, uint64_t tablet_id);

/* Start one background thread that every interval_ms (>= 1) compacts the tablets that need it
 * (cumulative: >= 5 rowsets newer than the last base output, each < 1M rows; base: >= 10
 * rowsets, or >= 2 cumulative outputs since the last base), skipping those for which allow
 * (may be NULL = all) returns false, and purges retired files. allow runs on that thread.
 * Errors of one tablet are logged and skipped. Returns DB_OK, or DB_ERR (ER_STOR_COMMIT_BAD
 * when already started). Call after the replay and stor_engine_remove_orphans. */
int stor_engine_start_compaction(stor_engine *e, uint32_t interval_ms, stor_compact_allow_fn allow,
                                 void *ctx, db_error *err);
/* Stop and join the thread (waits for a running compaction). Safe when never started; called
 * by stor_engine_free. Call before the edit log is closed. */
void stor_engine_stop_compaction(stor_engine *e);

/* Delete the files and drop the marks of rowsets retired by compactions once no snapshot taken
 * before their retirement is alive. Returns the number of files deleted (unlink errors are
 * ignored: the files become orphans for the next start). Any worker thread. */
size_t stor_engine_purge_retired(stor_engine *e);

/* Tell compaction the uid of the tablet's __DORIS_DELETE_SIGN__ column (-1 = none, the
 * default): base compaction from the first rowset then drops rows whose delete sign is 1. */
void stor_tablet_set_delete_sign_uid(stor_tablet *t, int32_t uid);
/* The tablet's compaction floor (0 = never compacted). */
uint64_t stor_tablet_floor(stor_tablet *t);
/* Number of published rowsets (shared lock). */
size_t stor_tablet_nrowsets(stor_tablet *t);
/* ==== end compaction ==== */

/* ==== tables: schema, writer chain, commit, scans (stor_table.c, stor_chain.c, stor_scan.c) ====
 * The layer the planner drives. A table's data lives in tablets, one per (partition, bucket);
 * the planner routes each row to its partition (it owns value parsing) and asks storage for the
 * bucket (stor_bucket_of). Writes of one transaction go into a stor_writer: per tablet a
 * memtable; at commit each memtable runs the chain (stages below), the segment files are written,
 * one commit record is appended (stor_txn_commit) and the MoW primary-key indexes are updated.
 * Scans read one tablet snapshot. README.md §"Tables". */

#define STOR_MAX_BUCKETS 65535

/* Tablet id of bucket (0-based) of the partition with catalog id partition_id. */
static inline uint64_t
stor_tablet_id_of(int64_t partition_id, uint32_t bucket)
{
    return ((uint64_t)partition_id << 16) | (bucket & 0xFFFFu);
}

/* The inverses of stor_tablet_id_of: the catalog partition id and the bucket of a tablet id
 * (the only place that knows the layout besides stor_tablet_id_of). */
static inline int64_t
stor_tablet_partition_of(uint64_t tablet_id)
{
    return (int64_t)(tablet_id >> 16);
}

static inline uint32_t
stor_tablet_bucket_of(uint64_t tablet_id)
{
    return (uint32_t)(tablet_id & 0xFFFFu);
}

/* ---- catalog-driven maintenance (stor_gc.c): the rules, scheduled by server/ ---- */

/* Drop every tablet whose partition belongs to no live table and no table in the recycle bin
 * (dropped tables and partitions, TRUNCATE's old partitions, tables erased from the bin), one
 * drop record for all of them. *ndropped (may be NULL) gets how many. Blocks on the edit log
 * and file I/O: a worker thread. */
int stor_gc_tablets(stor_engine *e, cat_meta *m, size_t *ndropped, db_error *err);

/* The catalog view of background compaction: stor_catalog_compaction_allow is a
 * stor_compact_allow_fn whose ctx is a stor_catalog_ctx (owned by the caller, alive while the
 * compaction thread runs). A tablet is compacted when its partition belongs to a live table
 * without the property disable_auto_compaction; the table's delete-sign column is handed to
 * the tablet on the way (stor_tablet_set_delete_sign_uid). */
typedef struct stor_catalog_ctx {
    stor_engine *engine;
    cat_meta *meta;
} stor_catalog_ctx;
bool stor_catalog_compaction_allow(void *ctx, uint64_t tablet_id);

/* What storage needs of a table, copied out of the catalog (so no catalog lock is held while
 * writing or scanning). Built by stor_schema_from_table in an arena. */
typedef struct stor_schema {
    int64_t table_id;
    uint8_t keys;            /* cat_keys */
    bool mow;                /* UNIQUE merge-on-write */
    uint32_t ncols;          /* every column in schema order, hidden ones included */
    stor_column_desc *cols;  /* ncols descriptors (uid, type, is_key, nullable) */
    uint32_t nkeys;          /* the first nkeys columns are the key columns */
    int32_t seq_col;         /* index of the sequence column (function_column.sequence_col or
                                __DORIS_SEQUENCE_COL__), -1 when none */
    int32_t delete_sign_col; /* index of __DORIS_DELETE_SIGN__, -1 when none */
    uint8_t *aggs;           /* ncols cat_agg values (AGGREGATE KEY value columns; others
                                CAT_AGG_UNSET / NONE) */
    stor_vec *defaults;      /* NULL, or ncols one-row vectors: the value a row written before
                                the column existed (ADD COLUMN ... DEFAULT) has; kind 0 or a
                                NULL cell = NULL. Filled by the planner (it owns value
                                parsing); used where the writer reads old rows. */
    bool binlog_row;         /* the table records Row Binlog (binlog.enable + format ROW) */
    bool binlog_history;     /* ... with before images (binlog.need_historical_value) */
} stor_schema;

/* Copy what storage needs of t into a (strings and arrays in a). Columns whose type storage
 * cannot hold make the copy fail with ER_STOR_BAD_COLUMN. Caller holds the catalog read lock. */
int stor_schema_from_table(const cat_table *t, arena *a, stor_schema *out, db_error *err);

/* The bucket (0..nbuckets-1) of row r: hash (xxHash64 of the memcomparable key encoding,
 * stor_key_put_*) of the columns cols[dist[0..ndist)] of schema sc, modulo nbuckets. Stable
 * across restarts and versions (it is part of the on-disk layout). ndist 0 (RANDOM) is not
 * handled here: the caller spreads rows itself. */
uint32_t stor_bucket_of(const stor_schema *sc, const stor_vec *cols, const uint32_t *dist,
                        uint32_t ndist, uint32_t r, uint32_t nbuckets);

/* Append the memcomparable encoding of row r of the columns cols[idx[0..n)] (types from sc) to
 * out. Used for primary keys (idx = 0..nkeys-1) and bucket hashing. */
void stor_key_encode_row(const stor_schema *sc, const stor_vec *cols, const uint32_t *idx,
                         uint32_t n, uint32_t r, buf *out);

/* ---- the writer chain ---- */

/* What a row does to its key, decided by the MoW lookup stage. */
typedef enum stor_row_op {
    STOR_OP_INSERT = 0, /* new key (or a DUP table: every row) */
    STOR_OP_UPDATE = 1, /* the key existed: its old row is marked deleted */
    STOR_OP_DELETE = 2, /* delete sign set: the old row (if any) is marked deleted */
} stor_row_op;

/* One flushed memtable of one tablet travelling down the chain. After sort/dedup the rows are in
 * key order with one row per key (UNIQUE), cols[c] holding ncols vectors of n rows in schema
 * order. The MoW stage fills ops[], old[] and old_cols (the previous values of the rows it
 * found, for later stages: binlog before-images). Every array lives in the chain arena a. */
typedef struct stor_chain_batch {
    const stor_schema *sc;
    uint64_t tablet_id;
    arena *a;
    uint32_t n;
    stor_vec *cols;     /* sc->ncols vectors of n rows */
    stor_row_op *ops;   /* n entries; NULL before the MoW stage (all inserts) */
    bool *has_old;      /* n entries: an old row was found (update/delete); NULL = none */
    stor_rowloc *old;   /* n entries, meaningful where has_old */
    stor_vec *old_cols; /* sc->ncols vectors of n rows: old values where has_old, else NULL
                           cells; NULL when no row had an old row or the stage did not run */
    const bool *given;  /* partial update: which columns the statement gave; NULL = all */
    /* Columns an added stage asks the encode stage to store in the segment files after the
     * schema's columns (uids outside the catalog's range; scans and compaction never read
     * them): Row Binlog's op and before-image columns. n rows each, arrays in a. */
    uint32_t nextra;
    stor_column_desc *extra_desc;
    stor_vec *extra_cols;
} stor_chain_batch;

/* What an added stage needs the MoW lookup stage to find out about the old rows of a table
 * (flags returned by stor_stage.wants). */
enum {
    STOR_WANT_OLD_LIVE = 1,   /* has_old exact: an old delete-sign row is no old row */
    STOR_WANT_OLD_VALUES = 2, /* b->old_cols filled for every column (implies OLD_LIVE) */
};

/* One stage of the chain: run(ctx, b, txn, err) may rewrite b (drop rows, fill fields) and add
 * to txn (delete marks, extra sections). Stages run in order, per tablet, at commit. wants
 * (may be NULL = nothing) tells, per table schema, what the MoW stage must find out for it
 * (STOR_WANT_* flags); it runs on the committing thread. */
typedef struct stor_stage {
    const char *name;
    int (*run)(void *ctx, stor_chain_batch *b, stor_txn *txn, db_error *err);
    uint32_t (*wants)(void *ctx, const stor_schema *sc);
    void *ctx;
    /* After the encode stage wrote the batch's nseg segment files paths[] (full paths) of data
     * rowset rowset_id: may add to txn (NULL = nothing). Not called when the batch ended up
     * with no rows (no files). */
    int (*encoded)(void *ctx, stor_chain_batch *b, stor_txn *txn, uint64_t rowset_id,
                   const char *const *paths, uint32_t nseg, db_error *err);
} stor_stage;

/* For added stages: a file the stage wrote (or linked) for this commit (path copied); it is
 * removed when the commit fails, kept when it publishes. */
void stor_chain_track_file(stor_chain_batch *b, const char *path);
/* A new id, unique in this engine across restarts as long as every id used in a durable
 * record is reported back at replay through stor_engine_saw_id (rowset ids come from here). */
uint64_t stor_engine_next_id(stor_engine *e);
void stor_engine_saw_id(stor_engine *e, uint64_t id);
/* For other modules' image writers: take the engine's commit mutex if free (true), so no commit
 * is between its edit-log append and its publish (the image would cover a record whose extra
 * sections are not applied yet); release with stor_engine_commit_unlock. */
bool stor_engine_commit_trylock(stor_engine *e);
void stor_engine_commit_unlock(stor_engine *e);

/* Insert a stage (copied) just before the final encode stage (Row Binlog registers its
 * derivation here). Start-up only, before any commit. */
void stor_engine_add_stage(stor_engine *e, const stor_stage *st);

/* Page cache shared by every scan of the engine (created by stor_engine_set_cache_capacity;
 * NULL = none). */
void stor_engine_set_cache_capacity(stor_engine *e, size_t bytes);
stor_cache *stor_engine_cache(stor_engine *e);
/* The engine's pool of open segment readers (scans and the MoW stage take readers from it;
 * compaction forgets the files it deletes). Never NULL. */
stor_rcache *stor_engine_rcache(stor_engine *e);

/* ---- writing ---- */

typedef struct stor_writer stor_writer;

/* Writes of one transaction (one autocommit statement, or BEGIN..COMMIT). Heap object; one
 * thread at a time. */
stor_writer *stor_writer_new(stor_engine *e);
/* Discard every uncommitted change (ROLLBACK): memtables are dropped, files written for it are
 * removed. NULL is fine. */
void stor_writer_free(stor_writer *w);

/* Buffer rows [0, n) of cols (sc->ncols vectors in schema order, kinds of sc's types) into the
 * memtable of tablet stor_tablet_id_of(partition_id, bucket); values are copied. A row whose
 * delete-sign column is 1 deletes its key (UNIQUE). given (sc->ncols bools, copied) marks a
 * partial update: the columns not given are taken from the existing row of the key when there
 * is one (the values in cols are used for new keys). NOT NULL violations are the caller's to
 * check (the segment writer would fail the commit). sc must outlive the writer. */
int stor_writer_put(stor_writer *w, const stor_schema *sc, int64_t partition_id, uint32_t bucket,
                    const stor_vec *cols, uint32_t n, const bool *given, db_error *err);

/* Carry an opaque section of kind (registered with stor_engine_register_extra; copied) in the
 * commit record of this writer (a stream's offset advance): a writer with sections commits even
 * when it has no rows. */
void stor_writer_add_extra(stor_writer *w, uint16_t kind, const void *data, size_t len);

/* Mark rows[0..n) of (rowset_id, segment_id) of tablet_id deleted at commit (DELETE on tables
 * without merge-on-write, locations from a scan). */
int stor_writer_delete_rows(stor_writer *w, uint64_t tablet_id, uint64_t rowset_id,
                            uint32_t segment_id, const uint32_t *rows, uint32_t n, db_error *err);

/* REPLACE's affected rows: from now on the commit counts the rows that replace a row of their
 * key: a UNIQUE row whose key a later row of the writer rewrites (deduplication), and, on a
 * merge-on-write table, a row whose key has a live row in the table (an old delete-sign row
 * does not count). Costs a point read of the delete sign per updated key. stor_writer_replaced
 * reads the count after stor_writer_commit (before the free). */
void stor_writer_count_replaced(stor_writer *w);
uint64_t stor_writer_replaced(const stor_writer *w);

/* Rows buffered so far (after nothing is deduplicated) and whether anything is pending. */
uint64_t stor_writer_rows(const stor_writer *w);
bool stor_writer_empty(const stor_writer *w);

/* Commit: take the MoW write locks of the touched tablets (ascending tablet id), build each
 * MoW tablet's primary-key index if not built yet (from its segments), run the chain per tablet
 * (sort/dedup -> MoW lookup -> added stages -> encode and write segment files), take a TSO from
 * tso, append one commit record and publish; then update the primary-key indexes and release the
 * locks. *commit_tso (may be NULL) gets the TSO, 0 when there was nothing to commit (no record is
 * written then). On error nothing is visible and the written files are removed. The writer is
 * spent either way (free it). Blocks on file I/O and fsync: worker threads only. */
int stor_writer_commit(stor_writer *w, cat_tso *tso, uint64_t *commit_tso, db_error *err);

/* ---- scanning ---- */

/* Restrict a snapshot to what was visible at tso (time travel): version = the highest version
 * whose commit TSO is <= tso (from vtso; without it, the highest kept rowset's), and the
 * rowsets with a version <= that (0 = nothing). Delete marks are read at that version. Fails
 * with ER_STOR_VERSION_COMPACTED when that version is below the snapshot's compaction floor
 * (the rows of those versions were merged away); snap is left unchanged then and must still be
 * destroyed. */
int stor_snapshot_as_of(stor_snapshot *snap, uint64_t tso, db_error *err);

/* A closed range of one column for pruning: rows whose value is surely outside it are skipped
 * (zone maps per page, the short-key index for the first key column). The field of the
 * column's kind is used; has_lo / has_hi false = unbounded. NULLs never satisfy a range. */
typedef struct stor_range {
    uint32_t col; /* schema column index */
    bool has_lo, has_hi;
    stor_key lo, hi;
} stor_range;

/* One batch of a scan: rows of one segment, deleted rows already removed. cols[i] is the i-th
 * requested column; missing[i] set = that column did not exist when the segment was written
 * (the caller fills its default); its vector is then all NULL. rows[k] is the ordinal in the
 * segment of output row k (for DELETE by location). Arrays in the arena given to next. */
typedef struct stor_scan_batch {
    uint32_t n;
    stor_vec *cols;
    bool *missing;
    uint32_t *rows;
    uint64_t tablet_id, rowset_id;
    uint32_t segment_id;
    uint64_t commit_tso; /* commit TSO of the rowset (the rows' latest write) */
} stor_scan_batch;

typedef struct stor_scan stor_scan;

/* Scan the tablet of snap (taken by stor_tablet_snapshot, perhaps stor_snapshot_as_of): the
 * columns cols[0..ncols) (schema indexes of sc), pruned by ranges[0..nranges). Rows deleted as
 * of snap->version are skipped. snap and sc must outlive the scan. Opens segments lazily. */
stor_scan *stor_scan_open(stor_engine *e, const stor_schema *sc, const stor_snapshot *snap,
                          const uint32_t *cols, uint32_t ncols, const stor_range *ranges,
                          uint32_t nranges, db_error *err);
/* The next batch of at most max_rows rows (arrays in a) in *out; *eof = true and out->n = 0 at
 * the end. ER_STOR_CORRUPT / ER_IO_ERROR name the file. */
int stor_scan_next(stor_scan *s, arena *a, uint32_t max_rows, stor_scan_batch *out, bool *eof,
                   db_error *err);
void stor_scan_close(stor_scan *s);
/* Counters for EXPLAIN / tests: segments and pages skipped by pruning, rows read. */
typedef struct stor_scan_stats {
    uint64_t segments_total, segments_pruned;
    uint64_t pages_total, pages_pruned;
    uint64_t rows_read, rows_deleted;
} stor_scan_stats;
stor_scan_stats stor_scan_get_stats(const stor_scan *s);
/* ==== end tables ==== */

#endif /* STORAGE_STORAGE_H */
