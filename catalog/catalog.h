/* SPDX-License-Identifier: Apache-2.0
 * catalog: the public API of the catalog module. Today it holds the write-ahead edit log (typed
 * records, group commit, checkpoint image) and the TSO allocator; databases, tables and DDL
 * arrive with the rest of issue 3. Other modules include only this header.
 * See catalog/README.md §Formats. */
#ifndef CATALOG_CATALOG_H
#define CATALOG_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/db_error.h"

/* ======================================================================================
 * Edit log
 * ====================================================================================== */

typedef struct cat_editlog cat_editlog;

/* Record types (u16). 0 is invalid. Each module owns a range so types never collide; a type,
 * once written to disk, keeps its number and payload meaning forever. */
enum {
    CAT_REC_CATALOG_FIRST = 1, /* catalog: 1..999 */
    CAT_REC_TSO_HWM = 1,       /* TSO high-water mark: u64le physical ms (cat_tso.c) */
    CAT_REC_CATALOG_LAST = 999,
    CAT_REC_STORAGE_FIRST = 1000, /* storage: 1000..1999 */
    CAT_REC_BINLOG_FIRST = 2000,  /* binlog: 2000..2999 */
    CAT_REC_STREAM_FIRST = 3000,  /* stream: 3000..3999 */
    CAT_REC_TEST_FIRST = 60000,   /* unit tests and benchmarks: 60000..65535 */
};

/* Image section ids (u16), one per module state that the image carries. 0 is invalid. */
enum {
    CAT_IMG_TSO = 1,             /* TSO high-water mark: u64le physical ms */
    CAT_IMG_STORAGE_FIRST = 100, /* storage: 100..199, binlog 200..299, stream 300..399 */
    CAT_IMG_TEST_FIRST = 60000,  /* unit tests and benchmarks */
};

/* Largest payload of one record, in bytes. */
#define CAT_EDITLOG_MAX_PAYLOAD (64u << 20)

typedef struct cat_editlog_config {
    uint64_t segment_bytes;      /* roll to a new segment once one exceeds this; 0 = 64 MiB */
    uint64_t checkpoint_records; /* checkpoint_due after this many records; 0 = no limit */
    uint64_t checkpoint_bytes;   /* checkpoint_due after this many log bytes; 0 = no limit */
} cat_editlog_config;

/* Replays one record. payload[0..len) is valid during the call only. Returns DB_OK, or DB_ERR
 * with err set, which stops the replay with that error. Runs on the thread of
 * cat_editlog_replay. */
typedef int (*cat_replay_fn)(void *ctx, uint16_t type, uint64_t seq, const void *payload,
                             size_t len, db_error *err);
/* Serializes one image section: append the bytes of the state as of record `seq` (every record
 * with a sequence number <= seq applied, none after) to out. Runs inside cat_editlog_checkpoint
 * while appends are held back; it must not call cat_editlog_append (that would deadlock).
 * Returns DB_OK, or DB_ERR with err set (the checkpoint is abandoned, the log stays usable). */
typedef int (*cat_image_write_fn)(void *ctx, uint64_t seq, buf *out, db_error *err);
/* Loads one image section written by the matching write_fn at record `seq`. data is valid
 * during the call only. Returns DB_OK or DB_ERR with err set (replay stops). */
typedef int (*cat_image_load_fn)(void *ctx, uint64_t seq, const void *data, size_t len,
                                 db_error *err);

/* Counters, read under the log's lock by cat_editlog_stats. */
typedef struct cat_editlog_stats {
    uint64_t next_seq;            /* sequence number the next append gets */
    uint64_t durable_seq;         /* every record <= this is on disk (fdatasync returned) */
    uint64_t image_seq;           /* last record covered by the newest image; 0 = no image */
    uint64_t appends;             /* records appended since open */
    uint64_t syncs;               /* group writes (one write(2) + one fdatasync) since open */
    uint64_t bytes_written;       /* record bytes written since open */
    uint64_t records_since_image; /* records with seq > image_seq (replayed ones included) */
    uint64_t bytes_since_image;   /* their encoded size in bytes */
    uint64_t segments;            /* log segment files in the directory */
    uint64_t torn_bytes_cut;      /* bytes cut off the tail by cat_editlog_open */
} cat_editlog_stats;

/* Opens the edit log in directory dir (created if missing; its parent must exist). Removes an
 * orphan image.tmp / editlog.tmp, deletes images older than the newest and log segments the
 * newest image covers, and validates every remaining record (length, CRC32C, consecutive
 * sequence numbers). A torn record at the very end of the last segment is cut off with a
 * warning in the log; any other damage refuses to open with ER_CAT_META_CORRUPT naming the file
 * and byte offset. Returns a heap object (free with cat_editlog_close), or NULL with err set.
 * Nothing is replayed yet: register handlers, then call cat_editlog_replay. Blocks on file I/O;
 * call at start-up. cfg may be NULL (defaults); it is copied. */
cat_editlog *cat_editlog_open(const char *dir, const cat_editlog_config *cfg, db_error *err);

/* Registers the replay handler of record type `type` (!= 0, not yet registered); name is a
 * static string for messages. Only before cat_editlog_replay; a violation is a DB_ASSERT.
 * ctx is borrowed and must outlive the log. */
void cat_editlog_register(cat_editlog *el, uint16_t type, const char *name, cat_replay_fn fn,
                          void *ctx);

/* Registers image section `id` (!= 0, not yet registered) with its writer and loader. Every
 * checkpoint writes every registered section, in id order. Only before cat_editlog_replay. */
void cat_editlog_register_section(cat_editlog *el, uint16_t id, const char *name,
                                  cat_image_write_fn write_fn, cat_image_load_fn load_fn,
                                  void *ctx);

/* Replays the newest image (each section's load_fn, in file order) and then every record after
 * the image's sequence number, in sequence order, through the registered handlers. A record of
 * an unregistered type, or an image section without a loader, fails with ER_CAT_META_CORRUPT
 * naming file and offset. Call exactly once, before the first append or checkpoint.
 * Returns DB_OK or DB_ERR. Blocks on file reads. */
int cat_editlog_replay(cat_editlog *el, db_error *err);

/* Appends one record of `type` with payload[0..len) (copied) and returns once it is durable:
 * written and fdatasync'ed, together with every record appended concurrently (group commit:
 * one thread writes the whole pending batch with one write(2) + one fdatasync while the others
 * wait). *seq_out (may be NULL) receives the record's sequence number; numbers are consecutive
 * from 1 and order the replay. Any thread; blocks for the fsync. Must not be called from an
 * image write_fn. Returns DB_OK; DB_ERR with ER_CAT_RECORD_TOO_LARGE (nothing written) or
 * ER_CAT_LOG_FAILED: after a failed write or fsync the log refuses every later append, since the
 * kernel may have dropped the dirty pages (restart to recover from disk). */
int cat_editlog_append(cat_editlog *el, uint16_t type, const void *payload, size_t len,
                       uint64_t *seq_out, db_error *err);

/* Writes a full image: waits for in-flight appends, holds new ones back, calls every section's
 * write_fn into image.tmp, fsyncs it, renames it to image.<seq>, fsyncs the directory, starts a
 * new log segment and deletes the segments and the older image it covers. The caller must make
 * sure the state the write_fns serialize includes every record appended so far (for example by
 * applying each record under its own lock before the append's caller releases that lock, and
 * checkpointing under the same lock). Any thread; blocks for file I/O and fsyncs.
 * Returns DB_OK or DB_ERR (the log keeps working; the old image and segments stay). */
int cat_editlog_checkpoint(cat_editlog *el, db_error *err);

/* True once the records or bytes appended since the last image reach cfg.checkpoint_records /
 * cfg.checkpoint_bytes: the owner's background job should call cat_editlog_checkpoint. */
bool cat_editlog_checkpoint_due(cat_editlog *el);

/* Snapshot of the counters. Any thread. */
void cat_editlog_stats_get(cat_editlog *el, cat_editlog_stats *out);

/* Closes the files and frees el (NULL is fine). No append or checkpoint may be running. It does
 * not checkpoint: a clean shutdown calls cat_editlog_checkpoint first. */
void cat_editlog_close(cat_editlog *el);

/* ======================================================================================
 * TSO: 64-bit commit timestamps, (physical_ms << 18) | logical
 * ====================================================================================== */

typedef struct cat_tso cat_tso;

#define CAT_TSO_LOGICAL_BITS  18
#define CAT_TSO_LOGICAL_MAX   ((1u << CAT_TSO_LOGICAL_BITS) - 1u)
#define CAT_TSO_PHYSICAL_MAX  ((UINT64_C(1) << (64 - CAT_TSO_LOGICAL_BITS)) - 1u)
#define CAT_TSO_HWM_WINDOW_MS 3000 /* physical ms reserved by one high-water-mark record */
#define CAT_TSO_FMT_SIZE      48   /* buffer size for cat_tso_format */

/* Milliseconds since the Unix epoch. Injected so tests can move the clock at will. */
typedef uint64_t (*cat_clock_fn)(void *ctx);

/* The real clock: CLOCK_REALTIME in ms (ctx unused). */
uint64_t cat_clock_realtime_ms(void *ctx);

static inline uint64_t
cat_tso_make(uint64_t physical_ms, uint32_t logical)
{
    return (physical_ms << CAT_TSO_LOGICAL_BITS) | (logical & CAT_TSO_LOGICAL_MAX);
}

static inline uint64_t
cat_tso_physical(uint64_t tso)
{
    return tso >> CAT_TSO_LOGICAL_BITS;
}

static inline uint32_t
cat_tso_logical(uint64_t tso)
{
    return (uint32_t)(tso & CAT_TSO_LOGICAL_MAX);
}

/* Creates the allocator and registers its record type (CAT_REC_TSO_HWM) and image section
 * (CAT_IMG_TSO) with el, so it must be called before cat_editlog_replay; cat_tso_next works
 * after the replay. now_ms/ctx give the clock (cat_clock_realtime_ms in production). Returns a
 * heap object, or NULL with err set. Free it with cat_tso_free after closing the log. */
cat_tso *cat_tso_new(cat_editlog *el, cat_clock_fn now_ms, void *ctx, db_error *err);

void cat_tso_free(cat_tso *tso);

/* Allocates the next TSO into *out: strictly greater than every TSO this allocator or any
 * earlier process on the same log handed out, even if the clock stepped back. The physical
 * part is max(clock, last physical); when the 18-bit logical counter overflows the physical
 * part advances by 1 ms without waiting for the clock. Before handing out a physical value
 * above the persisted high-water mark it appends a CAT_REC_TSO_HWM record of physical +
 * CAT_TSO_HWM_WINDOW_MS and waits for it to be durable (about once per 3 s). Any thread.
 * Returns DB_OK, or DB_ERR (edit-log failure; nothing handed out). */
int cat_tso_next(cat_tso *tso, uint64_t *out, db_error *err);

/* A value >= every TSO handed out so far (by this process or an earlier one) and < every TSO
 * cat_tso_next will return: the last one allocated, or before the first allocation the top of
 * the persisted high-water mark's millisecond. Allocates nothing, never blocks on I/O. */
uint64_t cat_tso_current(cat_tso *tso);

/* The persisted high-water mark (physical ms); 0 before the first one. For tests and SHOW. */
uint64_t cat_tso_hwm(cat_tso *tso);

/* Formats tso as "YYYY-MM-DD HH:MM:SS.mmm/<logical>" (physical part in UTC) into out, which
 * has room for CAT_TSO_FMT_SIZE bytes. Returns out. */
char *cat_tso_format(uint64_t tso, char *out);

/* Parses either a decimal TSO or the cat_tso_format text. Returns true and sets *out, or
 * false if s is neither. */
bool cat_tso_parse(const char *s, uint64_t *out);

/* ==== the durable catalog (cat_meta.c) ==== */

#include "catalog/cat_schema.h"

typedef struct cat_meta cat_meta;

typedef struct cat_meta_config {
    cat_editlog_config log; /* segment size and checkpoint triggers */
    cat_clock_fn clock;     /* NULL = cat_clock_realtime_ms */
    void *clock_ctx;
    /* Called once the log is open and the catalog's own records are registered, before the
     * replay: other modules sharing the log (storage, binlog, streams) register their record
     * types and image sections here. NULL = none. An error aborts the open. */
    int (*attach)(void *ctx, cat_editlog *log, cat_meta *m, db_error *err);
    void *attach_ctx;
} cat_meta_config;

/* Open the catalog in dir (the edit log, images and TSO live there) and replay it: the model is
 * exactly what was acknowledged before the last stop or crash. cfg may be NULL. Heap object or
 * NULL with err (ER_CAT_META_CORRUPT naming file and offset, ER_CAT_SCHEMA_DECODE, I/O errors).
 * Start-up thread; blocks on file I/O. */
cat_meta *cat_meta_open(const char *dir, const cat_meta_config *cfg, db_error *err);
/* Close; with checkpoint, first write an image so the next start replays nothing. NULL is ok. */
void cat_meta_close(cat_meta *m, bool checkpoint);
/* Write an image now (see cat_editlog_checkpoint). Takes the write lock. */
int cat_meta_checkpoint(cat_meta *m, db_error *err);
/* True when the record/byte triggers of the config ask for a checkpoint. */
bool cat_meta_checkpoint_due(cat_meta *m);
/* The TSO allocator (thread-safe). */
cat_tso *cat_meta_tso(cat_meta *m);
/* The edit log's counters (cat_editlog_stats_get; SHOW FRONTENDS' ReplayedJournalId is
 * next_seq - 1, the last record written or replayed). Any thread. */
void cat_meta_log_stats(cat_meta *m, cat_editlog_stats *out);

/* Readers: cat_meta_read_begin takes the shared lock and returns the model, valid (and
 * unchanging) until cat_meta_read_end. Never call a DDL function in between. Any thread. */
const cat_catalog *cat_meta_read_begin(cat_meta *m);
void cat_meta_read_end(cat_meta *m);

/* DDL. Each validates against the model, appends one record to the edit log (durable when the
 * call returns DB_OK) and only then publishes the change; on any error nothing changed.
 * Errors are those of the cat_schema function named. Worker threads; block on the log's fsync. */
int cat_meta_create_db(cat_meta *m, const char *name, bool if_not_exists, const cat_props *props,
                       db_error *err); /* cat_db_create */
int cat_meta_drop_db(cat_meta *m, const char *name, bool if_exists,
                     db_error *err); /* cat_db_drop */
int cat_meta_alter_db(cat_meta *m, const char *name, const cat_props *props,
                      db_error *err); /* cat_db_set_properties */
int cat_meta_create_table(cat_meta *m, const cat_create_table_req *req,
                          db_error *err); /* cat_table_validate_create + attach */
int cat_meta_drop_table(cat_meta *m, const char *db, const char *name, bool if_exists,
                        db_error *err); /* cat_table_drop */
/* CREATE [OR REPLACE] VIEW db.name AS sql: a table object with view_sql set and nothing else,
 * logged as CAT_REC_TABLE_PUT (OR REPLACE keeps the view's id). ER_BAD_DB_ERROR,
 * ER_TABLE_EXISTS_ERROR (any object of that name without OR REPLACE), ER_WRONG_OBJECT (OR
 * REPLACE of a table). */
int cat_meta_create_view(cat_meta *m, const char *db, const char *name, const char *sql,
                         bool or_replace, db_error *err);
/* CREATE STREAM [IF NOT EXISTS] db.name: a table object with the stream definition def
 * (copied) and nothing else, logged as CAT_REC_TABLE_PUT; *created tells whether it was made
 * (false for an IF NOT EXISTS no-op). ER_BAD_DB_ERROR, ER_TABLE_EXISTS_ERROR (any object of
 * that name). ALTER STREAM goes through cat_meta_alter_table, DROP STREAM through
 * cat_meta_drop_table. */
int cat_meta_create_stream(cat_meta *m, const char *db, const char *name, const char *comment,
                           const cat_stream *def, bool if_not_exists, bool *created, db_error *err);

/* ALTER TABLE: edit(c, db, copy, arg, err) changes a private copy of the table with the
 * cat_table_* ALTER functions; when it returns DB_OK the copy is logged and replaces the table.
 * ER_BAD_DB_ERROR / ER_NO_SUCH_TABLE when the table does not exist. */
typedef int (*cat_table_edit_fn)(cat_catalog *c, cat_db *db, cat_table *copy, void *arg,
                                 db_error *err);
int cat_meta_alter_table(cat_meta *m, const char *db, const char *name, cat_table_edit_fn edit,
                         void *arg, db_error *err);

/* ---- recycle bin and REPLACE WITH TABLE (cat_meta.c) ---- */

/* DROP TABLE without FORCE: the table leaves the database for the recycle bin (same id, same
 * contents); a binned table of the same name in that database is erased. Errors as
 * cat_meta_drop_table. */
int cat_meta_recycle_table(cat_meta *m, const char *db, const char *name, bool if_exists,
                           db_error *err);
/* RECOVER TABLE db.name: the newest binned table of that name returns with its id.
 * ER_BAD_DB_ERROR, ER_TABLE_EXISTS_ERROR (the name is taken), ER_UNKNOWN_TABLE_IN. */
int cat_meta_recover_table(cat_meta *m, const char *db, const char *name, db_error *err);
/* DROP DATABASE without FORCE: the database goes to the bin with its tables. Errors as
 * cat_meta_drop_db. */
int cat_meta_recycle_db(cat_meta *m, const char *name, bool if_exists, db_error *err);
/* RECOVER DATABASE name. ER_DB_CREATE_EXISTS (name taken), ER_BAD_DB_ERROR (not binned). */
int cat_meta_recover_db(cat_meta *m, const char *name, db_error *err);
/* ALTER TABLE name REPLACE WITH TABLE other (cat_table_replace_with), one record. */
int cat_meta_replace_table(cat_meta *m, const char *db, const char *name, const char *other,
                           bool swap, db_error *err);

/* One recycle bin entry (SHOW CATALOG RECYCLE BIN). */
typedef struct cat_recycled {
    bool is_db;
    char db_name[256];
    char table_name[256];
    int64_t db_id;
    int64_t table_id; /* 0 for a database */
} cat_recycled;
/* Copies up to max entries (databases, then tables in drop order); returns how many exist. */
size_t cat_meta_recycle_bin(cat_meta *m, cat_recycled *out, size_t max);

/* ---- AUTO_INCREMENT counters (cat_meta.c; README.md §"AUTO_INCREMENT") ---- */

/* Values reserved per CAT_REC_AUTOINC record (like the TSO's 3 s high-water mark). */
#define CAT_AUTOINC_BATCH 1000
/* Hands out n > 0 consecutive AUTO_INCREMENT values of table table_id: *first .. *first+n-1.
 * The first value of a table is its column's AUTO_INCREMENT(start) (1 by default). Values are
 * never handed out twice, across crashes included: a CAT_REC_AUTOINC record reserving the next
 * CAT_AUTOINC_BATCH values is appended (fsync) before any of them is returned; after a restart
 * the counter resumes above the last reservation, so unused reserved values become a gap.
 * Usually takes a mutex only; the reservation takes the write lock and blocks on the log.
 * DB_ERR with the log's error (ER_CAT_LOG_FAILED ...) or ER_DORIS when the range is used up. */
int cat_meta_autoinc_next(cat_meta *m, int64_t table_id, int64_t n, int64_t *first, db_error *err);
/* An explicit value was written to the auto-increment column: later values are above it
 * (durably, as cat_meta_autoinc_next). Values at or below the counter change nothing. */
int cat_meta_autoinc_raise(cat_meta *m, int64_t table_id, int64_t value, db_error *err);
/* The next value cat_meta_autoinc_next would hand out without a reservation (0 = the table has
 * not used its counter since start-up or the last image). Never blocks on I/O. */
int64_t cat_meta_autoinc_peek(cat_meta *m, int64_t table_id);
/* Every partition id of the live tables and of the tables in the recycle bin (binned tables and
 * the tables of binned databases), ascending, in *out (heap array, mem_free it; never NULL);
 * returns how many. Under the read lock. Storage's garbage collection keeps exactly the tablets
 * of these partitions (server/README.md §"Tablet garbage collection"). */
size_t cat_meta_partition_ids(cat_meta *m, int64_t **out);

/* ==== users and privileges (cat_user.c) ==== */

typedef struct cat_users cat_users; /* thread-safe: its own rwlock */

/* Doris privileges (bits). */
#define CAT_PRIV_SELECT 0x01u
#define CAT_PRIV_LOAD   0x02u
#define CAT_PRIV_ALTER  0x04u
#define CAT_PRIV_CREATE 0x08u
#define CAT_PRIV_DROP   0x10u
#define CAT_PRIV_ADMIN  0x20u
#define CAT_PRIV_ALL    0x3Fu

/* The accounts of the catalog in cat_meta m (root is built into the server, not stored). */
cat_users *cat_meta_users(cat_meta *m);
/* SHA1(SHA1(password)): the stored form (mysql_native_password). */
void cat_password_hash(const char *password, size_t len, uint8_t out[20]);
/* CREATE USER 'name'@'host' [IDENTIFIED BY password] (password NULL or "" = none). Durable on
 * DB_OK. ER_CANNOT_USER (1396) when it exists (and not if_not_exists) or for root. */
int cat_users_create(cat_users *us, const char *name, const char *host, const char *password,
                     bool if_not_exists, db_error *err);
/* DROP USER. ER_CANNOT_USER when absent (and not if_exists). */
int cat_users_drop(cat_users *us, const char *name, const char *host, bool if_exists,
                   db_error *err);
/* SET PASSWORD / ALTER USER ... IDENTIFIED BY. ER_CANNOT_USER when absent. */
int cat_users_set_password(cat_users *us, const char *name, const char *host, const char *password,
                           db_error *err);
/* GRANT (revoke false) or REVOKE privs ON internal.db.tbl ("*" wildcards). ER_CANNOT_USER. */
int cat_users_grant(cat_users *us, const char *name, const char *host, uint32_t privs,
                    const char *db, const char *tbl, bool revoke, db_error *err);
/* Login lookup: the account for name connecting from host (host patterns with % and _; an
 * exact host wins over a pattern). Copies its hash and the account's host. */
bool cat_users_login(cat_users *us, const char *name, const char *host, uint8_t stage2[20],
                     bool *has_password, char *matched_host, size_t matched_cap);
/* Effective privileges of account name@host (as created) on db.tbl; tbl NULL asks for the
 * database level, which any grant inside the database satisfies (enough to USE it). */
uint32_t cat_users_privs(cat_users *us, const char *name, const char *host, const char *db,
                         const char *tbl);
/* SHOW GRANTS lines of the account, each NUL-terminated, appended to out. */
void cat_users_show_grants(cat_users *us, const char *name, const char *host, buf *out);
bool cat_users_exists(cat_users *us, const char *name, const char *host);
/* Names and hosts of up to max accounts; returns how many exist. */
size_t cat_users_list(cat_users *us, char (*names)[64], char (*hosts)[64], size_t max);
/* "Select_priv" etc. for one bit. */
const char *cat_priv_name(uint32_t bit);

#endif /* CATALOG_CATALOG_H */
