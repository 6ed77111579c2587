/* SPDX-License-Identifier: Apache-2.0
 * binlog.h: Row Binlog. A stage of the storage writer chain derives one change record per
 * changed row of a table with Row Binlog (binlog.enable + binlog.format = ROW) and writes them
 * to a binlog segment file per (transaction, tablet); the file is named by an opaque section of
 * the same storage commit record, so data and changes become durable and visible together with
 * one TSO. LSNs number the records in commit order. Readers get the raw records of a tablet in
 * a TSO window (bl_scan) or the records folded by a mode (bl_fold: APPEND_ONLY, DETAIL,
 * MIN_DELTA). Expired binlog rowsets are removed by bl_log_cleanup through an edit-log record.
 * Formats and invariants: binlog/README.md. */
#ifndef BINLOG_BINLOG_H
#define BINLOG_BINLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/db_error.h"
#include "storage/storage.h"

/* Sections of storage commit records (stor_txn_add_extra kinds) and the image section. */
enum { BL_EXTRA_ROWSET = CAT_REC_BINLOG_FIRST + 0 };   /* a binlog rowset of a data commit */
enum { BL_EXTRA_PURGE = CAT_REC_BINLOG_FIRST + 1 };    /* binlog rowsets removed (cleanup) */
enum { BL_IMG_ROWSETS = CAT_IMG_STORAGE_FIRST + 100 }; /* every binlog rowset; the next LSN */

/* Column unique ids of a binlog segment file besides the table's own columns. */
#define BL_UID_OP          0x7FFFFF01u /* TINYINT raw op: 0 insert, 1 update, 2 delete */
#define BL_UID_BEFORE_FLAG 0x80000000u /* uid | flag = the before image of column uid */
#define BL_BEFORE_UID(uid) ((uint32_t)(uid) | BL_UID_BEFORE_FLAG)

/* Raw record ops (binlog()'s __DORIS_BINLOG_OP__). BL_OP_NONE marks a row of the data
 * segment that is no record (a delete-sign row of an absent key); readers skip it. */
enum { BL_OP_INSERT = 0, BL_OP_UPDATE = 1, BL_OP_DELETE = 2, BL_OP_NONE = 3 };
/* Folded change types (@incr's __DORIS_BINLOG_OP__, a stream's change type). */
enum { BL_CH_APPEND = 0, BL_CH_DELETE = 1, BL_CH_UPDATE_BEFORE = 2, BL_CH_UPDATE_AFTER = 3 };

typedef struct bl_log bl_log;

/* The TSO at or below which records are expired at wall time now_ms under binlog.ttl_seconds
 * (a record expires once its commit time is at or before now - ttl; 0 = nothing expired). */
static inline uint64_t
bl_ttl_horizon(uint64_t now_ms, int64_t ttl_seconds)
{
    uint64_t ttl_ms = ttl_seconds > 0 ? (uint64_t)ttl_seconds * 1000u : 0;
    return ttl_seconds > 0 && now_ms > ttl_ms ? cat_tso_make(now_ms - ttl_ms, CAT_TSO_LOGICAL_MAX)
                                              : 0;
}

/* One binlog rowset: the records one commit made in one tablet. */
typedef struct bl_rowset {
    uint64_t tablet_id;
    int64_t table_id;
    uint64_t file_id; /* files <root>/<tablet id>/<file id>_<s>.blg, s < nseg */
    uint32_t nseg;
    uint64_t rows;   /* rows in the files (records, plus BL_OP_NONE rows) */
    uint64_t tso;    /* commit TSO of every record */
    uint64_t lsn;    /* LSN of the first row; row i (across the files) has lsn + i */
    bool has_before; /* the file holds before-image columns */
} bl_rowset;

/* Create the binlog over root (directory of <tablet id>/ directories; created if missing),
 * add the derivation stage to e's writer chain and register the commit section, the purge
 * record and the image section with e and log: call after stor_engine_new, before the replay.
 * Returns a heap object (bl_log_free) or NULL with ER_IO_ERROR. Start-up only. */
bl_log *bl_log_new(const char *root, stor_engine *e, cat_editlog *log, db_error *err);
/* Free the in-memory state (no file is touched). NULL is fine. */
void bl_log_free(bl_log *L);

/* Delete every file under root that no binlog rowset names (written by a commit that never
 * became durable) and empty directories of unknown tablets. After the replay, before the first
 * commit. *nremoved (may be NULL) gets the count. ER_IO_ERROR. Blocks on file I/O. */
int bl_log_remove_orphans(bl_log *L, uint64_t *nremoved, db_error *err);

/* The rowsets of tablet_id whose TSO lies in [tso_lo, tso_hi], ascending by TSO, copied into
 * a (*out; never NULL). Any thread (shared lock). */
size_t bl_log_rowsets(bl_log *L, uint64_t tablet_id, uint64_t tso_lo, uint64_t tso_hi, arena *a,
                      bl_rowset **out);
/* Records stored for tablet_id with TSO in [tso_lo, tso_hi] (metadata only). */
uint64_t bl_log_count(bl_log *L, uint64_t tablet_id, uint64_t tso_lo, uint64_t tso_hi);
/* Whether the binlog of snap's tablet is complete up to tso_hi: every version of snap whose
 * commit TSO is at or below tso_hi has its binlog rowset (none removed by TTL cleanup, none
 * written while Row Binlog was off). Then the records in [0, tso_hi] are every write of the
 * tablet's data as of tso_hi, whatever compaction did to the data rowsets (a partition read
 * whole can be read from them, with each row's own TSO and LSN). False when the snapshot's
 * version TSOs are unknown (format-1 image). Any thread (shared lock). */
bool bl_log_complete(bl_log *L, const stor_snapshot *snap, uint64_t tso_hi);
/* When rowset r of snap is the data rowset its commit wrote (not a compaction output) and the
 * binlog still holds that commit's records of the tablet (its binlog rowset names the very same
 * files: same inodes), true with the LSN of the first row of each of its segments in
 * (*seg_lsn)[0..nsegments) (in a): row i of segment s then has LSN (*seg_lsn)[s] + i and the
 * rowset's commit TSO, as binlog() shows. False when some of its records are gone or the
 * rowset merged several commits. Stats the files, opens the footers of all but the last
 * segment of a multi-segment rowset. Worker threads (blocks on file I/O). */
bool bl_log_rowset_lsns(bl_log *L, const stor_snapshot *snap, size_t r, arena *a,
                        uint64_t **seg_lsn);
/* Smallest TSO of a record of tablet_id (0 = none). */
uint64_t bl_log_first_tso(bl_log *L, uint64_t tablet_id);
/* Totals for SHOW / tests: rowsets and records held. */
void bl_log_stats(bl_log *L, uint64_t *nrowsets, uint64_t *nrecords);

/* Retention. expire(ctx, table_id) gives, per table, the TSO at or below which its records are
 * expired (0 = keep everything: the table's cleanup is paused or unknown); dead(ctx,
 * tablet_id) says whether the tablet's partition is gone (drop every rowset). Rowsets whose
 * every record is expired, and those of dead tablets, are removed durably (a storage commit
 * carrying one BL_EXTRA_PURGE section) and their files deleted. *npurged (may be NULL) gets the
 * count. Worker threads. */
typedef uint64_t (*bl_expire_fn)(void *ctx, int64_t table_id);
typedef bool (*bl_dead_fn)(void *ctx, uint64_t tablet_id);
int bl_log_cleanup(bl_log *L, bl_expire_fn expire, bl_dead_fn dead, void *ctx, size_t *npurged,
                   db_error *err);

/* The retention rule over the catalog (bl_gc.c), scheduled by server/: each table's records
 * older than its binlog.ttl_seconds (measured on the TSO clock: now_ms is wall time in ms, as
 * Doris compares with the current TSO's physical part) and every record of a dropped
 * partition are removed through bl_log_cleanup. paused (be.conf disable_auto_compaction)
 * keeps every live table's records; a table's own disable_auto_compaction pauses it alone.
 * Worker threads. */
int bl_gc(bl_log *L, cat_meta *m, uint64_t now_ms, bool paused, size_t *npurged, db_error *err);

/* ---- reading raw records (bl_scan.c) ---- */

/* One batch of raw rows of one binlog segment file, in LSN order (op BL_OP_NONE rows are no
 * records: bl_fold skips them). after[c] / before[c] are the
 * schema's columns (sc->ncols; before only for non-key columns when the file has them, else
 * all-NULL vectors); *_missing[c] set = the column did not exist when the file was written
 * (the caller fills its default; the vector is all NULL). Arrays in the arena given to next. */
typedef struct bl_batch {
    uint32_t n;
    int64_t *op; /* BL_OP_* per row */
    uint64_t tso;
    uint64_t lsn; /* LSN of record 0; record i has lsn + i */
    bool has_before;
    stor_vec *after, *before;
    bool *after_missing, *before_missing;
} bl_batch;

typedef struct bl_scan bl_scan;

/* Records of tablet_id with TSO in [tso_lo, tso_hi], schema sc (must outlive the scan). */
bl_scan *bl_scan_open(bl_log *L, const stor_schema *sc, uint64_t tablet_id, uint64_t tso_lo,
                      uint64_t tso_hi, db_error *err);
/* Next batch of at most max_rows records (arrays in a); *eof at the end. ER_STOR_CORRUPT /
 * ER_IO_ERROR name the file. A rowset purged meanwhile is skipped. */
int bl_scan_next(bl_scan *s, arena *a, uint32_t max_rows, bl_batch *out, bool *eof, db_error *err);
void bl_scan_close(bl_scan *s);
/* Records read so far (for EXPLAIN ANALYZE and the cost proof). */
uint64_t bl_scan_records(const bl_scan *s);

/* ---- folding (bl_fold.c) ---- */

typedef enum bl_mode {
    BL_MODE_RAW = 0,         /* binlog(): raw records, raw ops */
    BL_MODE_APPEND_ONLY = 1, /* one APPEND per raw insert */
    BL_MODE_DETAIL = 2,      /* every record; an update as UPDATE_BEFORE + UPDATE_AFTER */
    BL_MODE_MIN_DELTA = 3,   /* the net change per key between window start and end */
} bl_mode;

/* Where the values of a change row come from. */
enum {
    BL_SRC_AFTER = 0,  /* the record's after image */
    BL_SRC_BEFORE = 1, /* the record's before image for non-key columns, key from after */
    BL_SRC_KEYONLY = 2 /* key columns from after, every other column its default */
};

/* One batch of change rows: values cols[c] (sc->ncols), change type, TSO and LSN per row; for
 * RAW with before images also the before columns. dflt[c] (NULL = none) is a bitmap of the
 * rows whose column c takes the column's default (a column added after the record was written,
 * or the non-key columns of a key-only delete); those cells hold NULL. */
typedef struct bl_changes {
    uint32_t n;
    int64_t *type; /* RAW: BL_OP_*; else BL_CH_* */
    int64_t *tso, *lsn;
    uint8_t *src; /* BL_SRC_* per row */
    stor_vec *cols;
    uint8_t **dflt;
    stor_vec *before; /* RAW with before images: sc->ncols (non-key used), else NULL */
    uint8_t **before_dflt;
} bl_changes;

typedef struct bl_fold bl_fold;

/* APPEND_ONLY / DETAIL / MIN_DELTA (any case) as a mode; -1 for anything else. */
int bl_mode_from_name(const char *name);

/* Change rows of tablet_id in [tso_lo, tso_hi] under mode. history: the table records before
 * images (DETAIL / MIN_DELTA use them; without them an update surfaces as APPEND and a delete
 * keeps only its key, decision R6). MIN_DELTA holds the window's records of the tablet in
 * memory (O(changes)). sc must outlive the fold. */
bl_fold *bl_fold_open(bl_log *L, const stor_schema *sc, uint64_t tablet_id, uint64_t tso_lo,
                      uint64_t tso_hi, bl_mode mode, bool history, db_error *err);
/* Next batch of change rows (arrays in a): about max_rows of them, at most 2 * max_rows (an
 * update read as two rows); *eof at the end. Records read per call stay below max_rows. */
int bl_fold_next(bl_fold *f, arena *a, uint32_t max_rows, bl_changes *out, bool *eof,
                 db_error *err);
void bl_fold_close(bl_fold *f);
uint64_t bl_fold_records(const bl_fold *f);
/* Bytes the fold holds (MIN_DELTA: the window's records and key table), for memory limits. */
size_t bl_fold_mem(const bl_fold *f);

/* ---- time travel below the compaction floor (bl_undo.c) ---- */

/* Whether FOR VERSION / TIME AS OF tso must rebuild tablet_id's image from before images: the
 * tablet no longer keeps the version of tso (stor_snapshot_as_of fails: compaction merged it
 * away). False for a tablet that does not exist. Any thread. */
bool bl_undo_needed(stor_engine *e, uint64_t tablet_id, uint64_t tso);

/* One batch of the image: n rows of every schema column (cols[c], sc->ncols). dflt[c] (NULL =
 * none) is a bitmap of the rows whose column c takes the column's current default (the column
 * did not exist when the row was written); those cells hold NULL. Arrays in the arena given to
 * bl_undo_next. */
typedef struct bl_image {
    uint32_t n;
    stor_vec *cols;
    uint8_t **dflt;
} bl_image;

typedef struct bl_undo bl_undo;

/* The rows tablet_id of a MoW table with before images (sc: binlog_row, binlog_history) held
 * at tso, rebuilt from its current rows (as of e's visible TSO) and the records in (tso,
 * visible]: first the current rows of the keys no record after tso touched (in scan order),
 * then the row each changed key had at tso (its first record's before image; none for a key
 * inserted after tso). Changed keys are held by their memcomparable encoding (storage's key
 * encoding), so distinct keys never merge. Open folds the window (MIN_DELTA) and holds its
 * change rows and keys until close: O(changes after tso) memory, plus one scan batch. The
 * caller checks that records down to tso are retained (TTL). sc must outlive the reader.
 * ER_STOR_CORRUPT / ER_IO_ERROR. Worker threads (blocks on file I/O). */
bl_undo *bl_undo_open(bl_log *L, stor_engine *e, const stor_schema *sc, uint64_t tablet_id,
                      uint64_t tso, db_error *err);
/* The next batch of at most max_rows rows of the image (arrays in a; never empty), or *eof. */
int bl_undo_next(bl_undo *u, arena *a, uint32_t max_rows, bl_image *out, bool *eof, db_error *err);
/* Bytes the reader holds (changes, keys), for memory limits. */
size_t bl_undo_mem(const bl_undo *u);
void bl_undo_close(bl_undo *u);

#endif /* BINLOG_BINLOG_H */
