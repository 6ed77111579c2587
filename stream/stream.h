/* SPDX-License-Identifier: Apache-2.0
 * stream.h: Table Stream consumption offsets. A stream (a catalog object, cat_table.stream)
 * remembers per base partition the commit TSO consumed so far. Offsets move only inside a
 * storage commit record, in a STRM_EXTRA_ADVANCE section carried by the statement that consumed
 * (INSERT ... SELECT FROM stream): the section is checked under the engine's commit mutex
 * (compare-and-set on every partition: a concurrent consumer that committed first makes this
 * commit fail with "target offset already consumed") and applied at publish and replay, so the
 * rows written and the offsets advanced are durable together (I4). It also owns the rules of a
 * read (strm_read.c): the effective offset of a partition, each partition's window and how it is
 * read, TTL staleness, the read-once set of a statement and the advances it commits; the
 * planner builds its scans over what these return. README.md §Formats, §Reading. */
#ifndef STREAM_STREAM_H
#define STREAM_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "binlog/binlog.h"
#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "storage/storage.h"

enum { STRM_EXTRA_ADVANCE = CAT_REC_STREAM_FIRST + 0 };  /* storage commit section kind */
enum { STRM_IMG_OFFSETS = CAT_IMG_STORAGE_FIRST + 200 }; /* image section: every advanced offset */

typedef struct strm_state strm_state;

/* Register the advance section (handler and check) with e and the image section with log:
 * after stor_engine_new, before the replay. Heap object (strm_free). */
strm_state *strm_new(stor_engine *e, cat_editlog *log);
void strm_free(strm_state *S);

/* Where a partition of a stream stands before a read. */
typedef enum strm_prev_kind {
    STRM_PREV_NONE = 0,     /* no offset: the partition is read whole (historical scan) */
    STRM_PREV_INIT = 1,     /* the offset taken at creation (cat_stream.init) */
    STRM_PREV_ADVANCED = 2, /* an offset a consumption committed */
    /* No offset, and the read was the stream's initial rows (show_initial_rows = true, a
     * partition the base table had at CREATE STREAM): as NONE, but a lost compare-and-set is
     * "history offset already consumed" (E22) instead of "target ..." (E21). Only in
     * STRM_EXTRA_ADVANCE sections; readers see NONE. */
    STRM_PREV_INITIAL_ROWS = 3,
} strm_prev_kind;

/* The advanced offset of (stream_id, part_id): true with *tso and *last_ms (wall ms of the
 * consumption) when one was committed. Any thread. */
bool strm_offset(strm_state *S, int64_t stream_id, int64_t part_id, uint64_t *tso,
                 int64_t *last_ms);

/* One partition advance of a consuming statement. */
typedef struct strm_advance {
    int64_t stream_id, part_id;
    uint8_t prev_kind; /* strm_prev_kind seen when the statement read */
    uint64_t prev_tso; /* that offset (0 for NONE) */
    uint64_t next_tso; /* the upper bound the statement read */
} strm_advance;

/* Encode the advances of one statement into out (a STRM_EXTRA_ADVANCE section): db and stream
 * names are kept for the error message of a lost compare-and-set. now_ms is the consumption's
 * wall time. */
void strm_encode_advance(buf *out, const char *db, const char *stream, int64_t now_ms,
                         const strm_advance *adv, size_t n);

/* ---- reads: the rules a statement follows (strm_read.c, README.md §Reading) ---- */

/* One partition of a stream's base table as the reader sees it (copied out of the catalog). */
typedef struct strm_part {
    int64_t id;
    uint32_t buckets;
} strm_part;

/* Whether base (a catalog object; read lock held) can carry a stream of type (cat_stream_type):
 * an OLAP table with Row Binlog, and for MIN_DELTA over a MoW table with before images. Else
 * ER_DORIS with Doris's text ("Base table type: VIEW, StreamScanType: ... is not supported
 * ...", "Base Olap table t need to enable row binlog ...", "MIN_DELTA table stream requires
 * ..."). */
int strm_check_base(const cat_table *base, uint8_t type, db_error *err);

/* The effective offset of partition part_id of stream stream_id (definition def): the advanced
 * offset if consumption committed one (*last_ms its wall ms), else the creation offset of
 * def->init (*last_ms -1), else STRM_PREV_NONE (*tso 0, *last_ms -1: the partition is read
 * whole). Any thread. */
strm_prev_kind strm_effective_offset(strm_state *S, int64_t stream_id, const cat_stream *def,
                                     int64_t part_id, uint64_t *tso, int64_t *last_ms);

/* The last commit TSO of partition part_id (buckets tablets) at or below cut; 0 = none. */
uint64_t strm_part_latest(stor_engine *e, int64_t part_id, uint32_t buckets, uint64_t cut);

/* The creation offsets of a stream over parts[0..n) (show_initial_rows = false): each written
 * partition at its last commit at or below the engine's visible TSO, into out[0..n); returns
 * how many. */
size_t strm_creation_offsets(strm_state *S, const strm_part *parts, size_t n,
                             cat_stream_offset *out);

/* The fold of a stream read: its type's mode; Duplicate Key tables (mow false) only insert, so
 * APPEND_ONLY whatever the type. A bl_mode. */
uint8_t strm_fold_mode(uint8_t stream_type, bool mow);

/* Whether a min_delta read from offset tso of partition part_id would miss expired changes: the
 * first commit after it is at or below the TTL horizon (README.md §Beyond Doris, R4). */
bool strm_offset_expired(strm_state *S, int64_t part_id, uint32_t buckets, uint64_t tso,
                         uint64_t horizon);

/* Whether stream (a catalog stream of base) is stale by TTL now: a min_delta stream over a MoW
 * base with binlog.ttl_seconds whose effective offset of some partition expired (R4). Catalog
 * read lock held by the caller (stream and base are catalog pointers). */
bool strm_ttl_stale(strm_state *S, const cat_table *stream, const cat_table *base, uint64_t now_ms);

/* What a statement reads of one stream: a window per base partition, taken once. */
typedef enum strm_read_kind {
    STRM_READ_CHANGES = 0,  /* s: changes since the offsets; consuming advances */
    STRM_READ_SNAPSHOT = 1, /* s@snapshot(): each partition as of its offset; never advances */
    STRM_READ_RESET = 2,    /* s@reset(): the current image; consuming advances to next */
} strm_read_kind;

typedef struct strm_window {
    int64_t part_id;
    uint32_t buckets;
    uint8_t prev_kind; /* strm_prev_kind (never STRM_PREV_INITIAL_ROWS) */
    uint64_t prev_tso; /* the effective offset (0 for NONE) */
    uint64_t next_tso; /* the partition's last commit at the read's visible TSO (0 = none) */
    bool on;           /* some reference of the statement read it (strm_read_use) */
} strm_window;

typedef struct strm_read {
    int64_t stream_id;
    const char *db, *name; /* for the lost-race message */
    uint8_t kind;          /* strm_read_kind */
    bool initial;          /* the stream has show_initial_rows = true */
    uint64_t visible;      /* the engine's visible TSO the windows were cut at */
    uint32_t nparts;
    strm_window *w; /* nparts windows, in the base table's partition order */
} strm_read;

/* Fill r (arrays in a, strings copied) with the windows of stream stream_id (definition def,
 * named db.name) over parts[0..n) as of the engine's visible TSO now (multi-tablet commits are
 * whole): each partition's effective offset and last commit; every window off. */
void strm_read_init(strm_read *r, arena *a, strm_state *S, int64_t stream_id, const cat_stream *def,
                    const char *db, const char *name, uint8_t kind, const strm_part *parts,
                    uint32_t n);

/* Mark the partitions a reference reads (on[i] for window i; NULL = all): the statement
 * advances the union of what its references read. */
void strm_read_use(strm_read *r, const bool *on);

/* How one partition of a changes read is read (strm_read_plan). */
typedef enum strm_src {
    STRM_SRC_NONE = 0,    /* not asked for, or never written: nothing */
    STRM_SRC_CHANGES = 1, /* records (lo, hi] of each tablet folded by mode: lo = offset + 1 */
    /* No offset, read whole from its records [0, hi]: every tablet's binlog is complete up to
     * hi (bl_log_complete) and, for MoW, its rowsets are not all their commits' own; mode
     * MIN_DELTA for MoW (each live key one APPEND with its last write), APPEND_ONLY for DUP. */
    STRM_SRC_WHOLE_RECORDS = 2,
    /* No offset, read whole from its data (a scan at the visible TSO, hi = next): a MoW
     * partition whose rowsets are all their commits' own with records held
     * (bl_log_rowset_lsns), or records incomplete (TTL cleanup, format-1 image). */
    STRM_SRC_WHOLE_DATA = 3,
} strm_src;

typedef struct strm_part_plan {
    uint8_t src;  /* strm_src */
    uint8_t mode; /* bl_mode of a records read */
    uint64_t lo, hi;
} strm_part_plan;

/* The per-partition plan of a changes read of r restricted to on (window order; NULL = all),
 * into out[0..r->nparts): the base is MoW or not, cfg its binlog settings, now_ms the
 * statement's start (UTC ms) for the TTL horizon: detail / append_only windows start after
 * what expired; a min_delta offset that expired (strm_offset_expired) fails with "Row binlog
 * offset has expired according to binlog.ttl_seconds" (E32, ER_DORIS). bl may be NULL (no
 * records: partitions read whole from data). */
int strm_read_plan(strm_state *S, bl_log *bl, const strm_read *r, const bool *on, bool mow,
                   uint8_t stream_type, const cat_binlog_cfg *cfg, uint64_t now_ms,
                   strm_part_plan *out, db_error *err);

/* Records of the binlog in window w (from offset + 1, or 0 without one, to next): SHOW STREAM
 * STATUS's Pending_Records, from metadata only. */
uint64_t strm_window_pending(bl_log *bl, const strm_window *w);

/* The read-once set of a statement: one strm_read per (stream, kind), so every reference
 * (aliases, CTEs, self-joins, subqueries) sees the same windows (I3). In arena a. */
typedef struct strm_reads strm_reads;

strm_reads *strm_reads_new(arena *a);
/* The read of (stream_id, kind) in rs, or NULL. */
strm_read *strm_reads_find(strm_reads *rs, int64_t stream_id, uint8_t kind);
/* The read of (stream_id, kind): the one already in rs, else a new one filled by
 * strm_read_init now (the windows of the statement's first reference). */
strm_read *strm_reads_add(strm_reads *rs, strm_state *S, int64_t stream_id, const cat_stream *def,
                          const char *db, const char *name, uint8_t kind, const strm_part *parts,
                          uint32_t n);

/* Add to w one STRM_EXTRA_ADVANCE section per stream rs read for changes or @reset() (never
 * @snapshot()): each partition read and written advances from its window's offset to its next
 * (an empty result advances too); a partition without an offset that a show_initial_rows
 * stream had at creation (id below the stream's: ids only grow) is STRM_PREV_INITIAL_ROWS, so
 * a lost race is E22, else E21 (README.md §Which text). now_ms: the consumption's wall time. */
void strm_reads_advance(const strm_reads *rs, stor_writer *w, int64_t now_ms);

/* Forget the offsets of streams for which keep(ctx, stream_id) is false (dropped streams);
 * in memory only: the next image leaves them out, and a replay that applies their old records
 * again is harmless (no stream reads them). Returns how many entries went. */
size_t strm_forget(strm_state *S, bool (*keep)(void *ctx, int64_t stream_id), void *ctx);

#endif /* STREAM_STREAM_H */
