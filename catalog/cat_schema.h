/* SPDX-License-Identifier: Apache-2.0
 * cat_schema: the in-memory catalog object model (databases, tables, columns, partitions) and
 * the Doris DDL semantics over it: CREATE TABLE validation with Doris's messages, ALTER rules
 * for Row Binlog tables, property inheritance, SHOW CREATE / DESC / SHOW PARTITIONS text, and a
 * binary encoding of databases and tables for the edit log and image. catalog.h includes this
 * header; other modules never include it directly. See README.md §"Schema objects".
 *
 * Threads: none of these functions lock. The owner of a cat_catalog serializes DDL on it
 * (one writer), and readers must not run concurrently with a writer. Nothing here blocks. */
#ifndef CATALOG_CAT_SCHEMA_H
#define CATALOG_CAT_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/db_error.h"

/* ======================================================================================
 * Types
 * ====================================================================================== */

typedef enum cat_type_id {
    CAT_T_INVALID = 0,
    CAT_T_BOOLEAN,
    CAT_T_TINYINT,
    CAT_T_SMALLINT,
    CAT_T_INT,
    CAT_T_BIGINT,
    CAT_T_LARGEINT,
    CAT_T_FLOAT,
    CAT_T_DOUBLE,
    CAT_T_DECIMAL, /* DECIMAL(p,s) / DECIMALV3, 1 <= p <= 38, 0 <= s <= p */
    CAT_T_CHAR,    /* CHAR(n), 1 <= n <= 255 */
    CAT_T_VARCHAR, /* VARCHAR(n), 1 <= n <= 65533 */
    CAT_T_STRING,  /* STRING / TEXT; printed as `text` */
    CAT_T_DATE,
    CAT_T_DATETIME, /* DATETIME(p), 0 <= p <= 6 */
    /* Representable so DDL can name them and fail cleanly; no storage support. */
    CAT_T_JSON,
    CAT_T_ARRAY,
    CAT_T_MAP,
    CAT_T_VARIANT,
    CAT_T__COUNT
} cat_type_id;

#define CAT_VARCHAR_MAX  65533
#define CAT_CHAR_MAX     255
#define CAT_DECIMAL_MAX  38
#define CAT_DATETIME_MAX 6

/* A column type: a plain value (copy freely). */
typedef struct cat_type {
    uint8_t id;        /* cat_type_id */
    uint8_t precision; /* DECIMAL precision */
    uint8_t scale;     /* DECIMAL scale, DATETIME fractional digits */
    int32_t len;       /* CHAR / VARCHAR length in characters */
    char inner[48];    /* ARRAY / MAP element types as SQL text ("int", "int,text"); else "" */
} cat_type;

/* Type constructors for callers (parser, tests). */
cat_type cat_type_make(cat_type_id id);
cat_type cat_type_varchar(int32_t len);
cat_type cat_type_char(int32_t len);
cat_type cat_type_decimal(int precision, int scale);
cat_type cat_type_datetime(int scale);

/* Appends the type as Doris prints it in SHOW CREATE TABLE and DESC: `int`, `varchar(10)`,
 * `decimal(10,2)`, `datetime(3)`, `text`, `array<int>`. */
void cat_type_sql(const cat_type *t, buf *out);
/* Same, into a caller buffer (truncated, always NUL-terminated). */
void cat_type_sql_buf(const cat_type *t, char *dst, size_t cap);
/* True when the type is JSON/ARRAY/MAP/VARIANT (not a key, partition or sort column; storage
 * holds JSON as text, the others not yet). */
bool cat_type_is_complex(const cat_type *t);
/* Checks lengths/precision against Doris limits. DB_ERR with ER_DORIS on violation. */
int cat_type_validate(const cat_type *t, const char *col, db_error *err);

/* ======================================================================================
 * Properties: an ordered list of "key" = "value" strings (keys case-sensitive, as Doris)
 * ====================================================================================== */

typedef struct cat_prop {
    char *key;
    char *value;
} cat_prop;

typedef struct cat_props {
    cat_prop *v; /* heap array, n entries, insertion order */
    size_t n;
    size_t cap;
} cat_props;

void cat_props_init(cat_props *p);
void cat_props_destroy(cat_props *p);
/* Insert or replace (replacement keeps the original position). Copies key and value. */
void cat_props_set(cat_props *p, const char *key, const char *value);
/* The value for key, or NULL. Borrowed: valid until the next change of p. */
const char *cat_props_get(const cat_props *p, const char *key);
bool cat_props_remove(cat_props *p, const char *key);
void cat_props_copy(cat_props *dst, const cat_props *src); /* dst must be initialized */

/* ======================================================================================
 * Binlog settings (seed 001, DORIS_SEMANTICS.md §1.1)
 * ====================================================================================== */

typedef enum cat_binlog_format {
    CAT_BINLOG_STATEMENT_AND_SNAPSHOT = 0, /* Doris's default (CCR binlog); no Row Binlog */
    CAT_BINLOG_ROW = 1,
} cat_binlog_format;

#define CAT_BINLOG_TTL_DEFAULT 86400LL
#define CAT_BINLOG_UNLIMITED   INT64_MAX /* max_bytes / max_history_nums default */

typedef struct cat_binlog_cfg {
    bool enable;
    bool need_historical_value;
    uint8_t format; /* cat_binlog_format */
    int64_t ttl_seconds;
    int64_t max_bytes;
    int64_t max_history_nums;
} cat_binlog_cfg;

/* The defaults: disabled, STATEMENT_AND_SNAPSHOT, TTL 86400, unlimited bytes and counts. */
cat_binlog_cfg cat_binlog_default(void);
/* True for enable && format == ROW: the table produces Row Binlog. */
bool cat_binlog_is_row(const cat_binlog_cfg *b);
/* "STATEMENT_AND_SNAPSHOT" / "ROW". */
const char *cat_binlog_format_name(uint8_t format);

/* ======================================================================================
 * Columns, partitions, tables, databases, catalog
 * ====================================================================================== */

typedef enum cat_keys {
    CAT_KEYS_DUP = 0,
    CAT_KEYS_UNIQUE = 1, /* merge-on-write unless table->mow is false */
    CAT_KEYS_AGG = 2,
} cat_keys;

typedef enum cat_agg {
    CAT_AGG_UNSET = 0, /* no aggregation written (key columns) */
    CAT_AGG_NONE,      /* value columns of DUP and MoW tables */
    CAT_AGG_SUM,
    CAT_AGG_MIN,
    CAT_AGG_MAX,
    CAT_AGG_REPLACE,
    CAT_AGG_REPLACE_IF_NOT_NULL,
    CAT_AGG_HLL_UNION,
    CAT_AGG_BITMAP_UNION,
    CAT_AGG__COUNT
} cat_agg;

/* "SUM", "REPLACE", ...; "NONE" for CAT_AGG_NONE, "" for CAT_AGG_UNSET. */
const char *cat_agg_name(cat_agg a);

typedef enum cat_col_flag {
    CAT_COL_HIDDEN = 1u << 0, /* shown only with show_hidden_columns */
} cat_col_flag;

#define CAT_COL_DELETE_SIGN "__DORIS_DELETE_SIGN__"
#define CAT_COL_COMMIT_TSO  "__DORIS_COMMIT_TSO_COL__"
#define CAT_COL_SEQUENCE    "__DORIS_SEQUENCE_COL__"

typedef struct cat_column {
    int32_t uid; /* unique id inside the table; never reused, never changes (I-S1) */
    char *name;  /* heap; case-insensitive within a table (Doris columns) */
    cat_type type;
    bool nullable;
    bool is_key;
    bool auto_inc;
    bool has_default;     /* a DEFAULT clause was given */
    bool default_is_expr; /* default_text is an expression such as CURRENT_TIMESTAMP */
    uint8_t agg;          /* cat_agg */
    uint8_t flags;        /* cat_col_flag */
    int64_t auto_inc_start;
    char *default_text; /* heap; NULL = no default or DEFAULT NULL */
    char *comment;      /* heap, never NULL ("" when none) */
} cat_column;

typedef enum cat_part_type {
    CAT_PART_NONE = 0, /* one partition named after the table */
    CAT_PART_RANGE = 1,
    CAT_PART_LIST = 2,
} cat_part_type;

typedef struct cat_partition {
    int64_t id;
    char *name;
    int32_t buckets; /* tablets of this partition */
    bool lower_min;  /* RANGE: lower bound is the type's minimum */
    bool upper_max;  /* RANGE: upper bound is MAXVALUE */
    char *lower;     /* RANGE: lower bound text, NULL when lower_min */
    char *upper;     /* RANGE: upper bound text, NULL when upper_max */
    char **values;   /* LIST: values, heap */
    size_t nvalues;
    bool has_null; /* LIST: NULL is one of its values (VALUES IN ((NULL))), not in values */
} cat_partition;

/* Table Streams (stream/, seed 000): a stream is an object of the table namespace that names
 * its base table by id. Its consumption offsets live in stream/ (they move with data
 * commits); the catalog keeps the definition and the offsets taken at creation. */
typedef enum cat_stream_type {
    CAT_STREAM_APPEND_ONLY = 0,
    CAT_STREAM_MIN_DELTA = 1,
    CAT_STREAM_DETAIL = 2,
} cat_stream_type;

typedef struct cat_stream_offset {
    int64_t part_id;
    uint64_t tso; /* last commit of the partition when the stream was created */
} cat_stream_offset;

typedef struct cat_stream {
    int64_t base_id;           /* the base table's id: renames follow, a new table never binds */
    char *base_db, *base_name; /* names when created / last renamed (R1: kept once dropped) */
    uint8_t type;              /* cat_stream_type */
    bool show_initial_rows;
    int64_t created_ms;
    cat_stream_offset *init; /* show_initial_rows = false: each partition's offset at creation */
    size_t ninit;
} cat_stream;

/* "APPEND_ONLY" / "MIN_DELTA" / "DETAIL". */
const char *cat_stream_type_name(uint8_t type);
void cat_stream_free(cat_stream *s);
cat_stream *cat_stream_clone(const cat_stream *s);

/* A secondary index of a table (Doris INVERTED / BITMAP / NGRAM_BF; cat_index.c): the
 * definition only, nothing is built (README.md §"Secondary indexes"). */
typedef enum cat_index_type {
    CAT_INDEX_INVERTED = 0,
    CAT_INDEX_BITMAP = 1,
    CAT_INDEX_NGRAM_BF = 2,
    CAT_INDEX__COUNT
} cat_index_type;

typedef struct cat_index {
    char *name;        /* heap; case-insensitive within a table (Doris) */
    uint8_t type;      /* cat_index_type */
    int32_t *col_uids; /* the indexed columns (uids: a RENAME COLUMN follows), heap */
    size_t ncols;
    cat_props props; /* PROPERTIES (...), sorted by key as Doris prints them */
    char *comment;   /* heap; NULL when no COMMENT was written */
} cat_index;

typedef struct cat_table {
    int64_t id;
    int64_t db_id;
    char *name; /* case-sensitive */
    char *comment;
    uint8_t keys; /* cat_keys */
    bool mow;     /* UNIQUE merge-on-write */
    cat_column *cols;
    size_t ncols;          /* visible and hidden, in schema order; hidden ones last */
    size_t nkeys;          /* the first nkeys columns are the key columns */
    int32_t *cluster_uids; /* CLUSTER BY columns (uids), heap */
    size_t ncluster;
    int32_t next_uid;     /* next column uid to hand out */
    uint8_t part_type;    /* cat_part_type */
    int32_t part_col_uid; /* RANGE / LIST column; -1 for NONE */
    cat_partition *parts;
    size_t nparts;
    cat_partition *tmp_parts; /* temporary partitions (cat_tmp_part.c): not read, written or
                                 shown unless named; ids from the same counter */
    size_t ntmp_parts;
    bool dist_random;   /* DISTRIBUTED BY RANDOM */
    bool buckets_auto;  /* BUCKETS AUTO */
    int32_t buckets;    /* default bucket count of new partitions */
    int32_t *dist_uids; /* HASH columns, heap */
    size_t ndist;
    bool light_schema_change;
    bool disable_auto_compaction;
    bool enable_mow_light_delete;
    cat_binlog_cfg binlog;
    cat_props props;    /* other accepted properties, for SHOW CREATE TABLE */
    char *view_sql;     /* a view: the SELECT text of CREATE VIEW (heap); no columns, keys or
                           partitions. NULL for a table. Encoding version 2 and later. */
    cat_stream *stream; /* a table stream (heap): no columns, keys or partitions; NULL for a
                           table or view. Encoding version 3 and later. */
    cat_index *indexes; /* secondary indexes in creation order (heap); encoding version 4 */
    size_t nindexes;
} cat_table;

typedef struct cat_db {
    int64_t id;
    char *name;
    cat_props props; /* explicitly set database properties (binlog.* inherited by new tables) */
    cat_table **tables;
    size_t ntables;
    size_t cap;
    bool is_system; /* information_schema */
} cat_db;

typedef struct cat_catalog cat_catalog;

/* New empty catalog holding only `information_schema`. Heap; free with cat_catalog_free. */
cat_catalog *cat_catalog_new(void);
void cat_catalog_free(cat_catalog *c);
/* Next id to be handed out (ids of databases, tables and partitions share one counter, as
 * Doris). Monotonic (I-S2). */
int64_t cat_catalog_next_id(const cat_catalog *c);
/* Raises the counter to at least next (replay). */
void cat_catalog_bump_id(cat_catalog *c, int64_t next);

/* Database by name (case-sensitive; `information_schema` matches case-insensitively).
 * Borrowed. NULL when absent. */
cat_db *cat_db_find(const cat_catalog *c, const char *name);
cat_db *cat_db_find_id(const cat_catalog *c, int64_t id);
size_t cat_db_count(const cat_catalog *c);
cat_db *cat_db_at(const cat_catalog *c, size_t i);

/* CREATE DATABASE [IF NOT EXISTS] name [PROPERTIES]. props may be NULL. Properties are validated
 * as in ALTER DATABASE. *out (may be NULL) gets the database (NULL for an IF NOT EXISTS no-op).
 * DB_ERR: ER_DB_CREATE_EXISTS, ER_DORIS. */
int cat_db_create(cat_catalog *c, const char *name, bool if_not_exists, const cat_props *props,
                  cat_db **out, db_error *err);
/* DROP DATABASE [IF EXISTS]: drops it and its tables. DB_ERR: ER_DB_DROP_EXISTS, ER_DORIS
 * (information_schema). */
int cat_db_drop(cat_catalog *c, const char *name, bool if_exists, db_error *err);
/* ALTER DATABASE name SET PROPERTIES (...): validates binlog.* as tables do and merges. Existing
 * tables are not changed. DB_ERR: ER_BAD_DB_ERROR, ER_DORIS. */
int cat_db_set_properties(cat_catalog *c, const char *name, const cat_props *props, db_error *err);

/* Table by name in db (case-sensitive). Borrowed. */
cat_table *cat_table_find(const cat_db *db, const char *name);
/* The table with id in any database (recycle bin excluded), and its database in *db (may be
 * NULL). NULL when absent. Linear in the catalog size. */
cat_table *cat_table_find_id(const cat_catalog *c, int64_t id, cat_db **db);
/* Column by name (case-insensitive, as Doris). Borrowed. */
cat_column *cat_table_column(const cat_table *t, const char *name);
cat_column *cat_table_column_uid(const cat_table *t, int32_t uid);
/* Visible columns (those not hidden). */
size_t cat_table_visible_count(const cat_table *t);

/* ======================================================================================
 * CREATE TABLE
 * ====================================================================================== */

/* One column as the parser wrote it. All pointers borrowed (statement arena). */
typedef struct cat_column_def {
    const char *name;
    cat_type type;
    bool null_given; /* NULL or NOT NULL was written */
    bool nullable;   /* meaningful when null_given */
    bool has_default;
    bool default_is_null; /* DEFAULT NULL */
    bool default_is_expr; /* DEFAULT CURRENT_TIMESTAMP etc.: default_text is the expression */
    const char *default_text;
    const char *comment; /* NULL = none */
    bool auto_inc;
    int64_t auto_inc_start; /* AUTO_INCREMENT(n); 1 when not written */
    cat_agg agg;            /* CAT_AGG_UNSET when none written */
} cat_column_def;

typedef enum cat_part_def_kind {
    CAT_PDEF_LESS_THAN = 0, /* VALUES LESS THAN (v) / (MAXVALUE) */
    CAT_PDEF_FIXED = 1,     /* VALUES [(lo), (hi)) */
    CAT_PDEF_IN = 2,        /* VALUES IN (v, ...) */
} cat_part_def_kind;

typedef struct cat_partition_def {
    const char *name;
    uint8_t kind;        /* cat_part_def_kind */
    bool upper_max;      /* LESS THAN MAXVALUE, or [(lo), (MAXVALUE)) */
    const char *lower;   /* FIXED only */
    const char *upper;   /* LESS_THAN / FIXED, unless upper_max */
    const char **values; /* IN; a NULL entry is the NULL value (VALUES IN ((NULL))) */
    size_t nvalues;
    int32_t buckets; /* 0 = the table's */
} cat_partition_def;

/* One index as the parser wrote it (CREATE TABLE's INDEX clause, CREATE INDEX, ALTER TABLE ADD
 * INDEX). All pointers borrowed. */
typedef struct cat_index_def {
    const char *name;
    uint8_t type;      /* cat_index_type */
    const char **cols; /* column names as written */
    size_t ncols;
    const cat_prop *props; /* PROPERTIES (...) in statement order */
    size_t nprops;
    const char *comment; /* NULL = none */
    bool if_not_exists;  /* CREATE INDEX IF NOT EXISTS */
} cat_index_def;

typedef struct cat_create_table_req {
    const char *db; /* database name (the session's current one if the statement had none) */
    const char *name;
    bool if_not_exists;
    /* CREATE TABLE name LIKE like_db.like_table: everything else below is ignored. */
    const char *like_db; /* NULL = db */
    const char *like_table;
    const cat_column_def *cols;
    size_t ncols;
    bool has_keys; /* DUPLICATE/UNIQUE/AGGREGATE KEY(...) was written */
    cat_keys keys_type;
    const char **key_cols;
    size_t nkey_cols;
    const char **cluster_cols; /* CLUSTER BY (...) */
    size_t ncluster_cols;
    const char *comment; /* NULL = none */
    cat_part_type part_type;
    const char **part_cols;
    size_t npart_cols;
    const cat_partition_def *parts;
    size_t nparts;
    bool has_dist; /* DISTRIBUTED BY was written */
    bool dist_random;
    const char **dist_cols;
    size_t ndist_cols;
    bool buckets_auto; /* BUCKETS AUTO, or BUCKETS not written */
    int32_t buckets;
    const cat_prop *props; /* PROPERTIES ("k" = "v", ...) in statement order */
    size_t nprops;
    const cat_index_def *indexes; /* INDEX i (c) USING ... clauses */
    size_t nindexes;
} cat_create_table_req;

/* Applies every CREATE TABLE rule of Doris relevant to Rivulet (DORIS_SEMANTICS.md §1.1, §3,
 * seed 001) and builds the table, detached (ids 0). Database binlog.* properties are inherited
 * unless the table sets them. LIKE copies the source's schema and properties (TTL included).
 * *out receives a heap table (cat_table_free), or NULL when IF NOT EXISTS found the name taken
 * (DB_OK, nothing to do). Errors: ER_BAD_DB_ERROR, ER_TABLE_EXISTS_ERROR, ER_DUP_FIELDNAME,
 * ER_NO_SUCH_TABLE (LIKE source), otherwise ER_DORIS with Doris's text. */
int cat_table_validate_create(const cat_catalog *c, const cat_create_table_req *req,
                              cat_table **out, db_error *err);
/* Assigns ids (table, then partitions in order) from the catalog counter and attaches t to
 * database db_name. Takes ownership of t on success. DB_ERR: ER_BAD_DB_ERROR,
 * ER_TABLE_EXISTS_ERROR (t stays the caller's). */
int cat_table_attach(cat_catalog *c, const char *db_name, cat_table *t, db_error *err);
/* Replay: attach a decoded table whose ids are already set; bumps the id counter past them.
 * Takes ownership. DB_ERR: ER_CAT_SCHEMA_DECODE when its db is missing or the name is taken. */
int cat_table_install(cat_catalog *c, cat_table *t, db_error *err);
/* DROP TABLE [IF EXISTS]. DB_ERR: ER_BAD_DB_ERROR, ER_BAD_TABLE_ERROR. */
int cat_table_drop(cat_catalog *c, const char *db_name, const char *name, bool if_exists,
                   db_error *err);
void cat_table_free(cat_table *t);
/* Deep copy. */
cat_table *cat_table_clone(const cat_table *t);

/* ======================================================================================
 * ALTER TABLE
 * ====================================================================================== */

typedef enum cat_alter_op {
    CAT_ALTER_ADD_COLUMN = 0,
    CAT_ALTER_DROP_COLUMN,
    CAT_ALTER_MODIFY_COLUMN,
    CAT_ALTER_RENAME_COLUMN,
    CAT_ALTER_REORDER_COLUMNS, /* ORDER BY (...) */
    CAT_ALTER_CREATE_INDEX,
    CAT_ALTER_DROP_INDEX,
    CAT_ALTER_BUILD_INDEX,
    CAT_ALTER_ADD_ROLLUP,
    CAT_ALTER_DROP_ROLLUP,
    CAT_ALTER_RENAME_ROLLUP,
    CAT_ALTER_ADD_PARTITION,
    CAT_ALTER_DROP_PARTITION,
    CAT_ALTER_MODIFY_PARTITION,
    CAT_ALTER_RENAME_PARTITION,
    CAT_ALTER_REPLACE_PARTITION,
    CAT_ALTER_RENAME_TABLE,
    CAT_ALTER_REPLACE_TABLE,
    CAT_ALTER_MODIFY_COMMENT,
    CAT_ALTER_MODIFY_COLUMN_COMMENT,
    CAT_ALTER_MODIFY_DISTRIBUTION,
    CAT_ALTER_SET_PROPERTIES,
    CAT_ALTER_ENABLE_FEATURE,
    CAT_ALTER__COUNT
} cat_alter_op;

/* Whether op may run on t: on a Row Binlog table, MODIFY/RENAME COLUMN, ORDER BY and BUILD
 * INDEX fail with `Not allowed to perform current operation on Table With binlog<row>`
 * (seed 001 "DDL restrictions"). DB_OK or DB_ERR (ER_DORIS). */
int cat_alter_check(const cat_table *t, cat_alter_op op, db_error *err);

/* ALTER TABLE t SET ("k" = "v", ...) on table t of database db: binlog mutability rules
 * (E41-E47), bloom filter properties on Row Binlog tables, ttl > 0 on ROW. Validates all, then
 * applies all (nothing changes on error). DB_ERR: ER_DORIS. */
int cat_table_set_properties(const cat_db *db, cat_table *t, const cat_prop *props, size_t nprops,
                             db_error *err);
/* ALTER TABLE ADD COLUMN def [AFTER col | FIRST]: after may be NULL (append as the last visible
 * value column); first puts it first (key columns only in DUP tables is not checked yet). A new
 * uid is handed out. Row Binlog tables reject VARIANT and AUTO_INCREMENT. DB_ERR:
 * ER_DUP_FIELDNAME, ER_DORIS. */
int cat_table_add_column(cat_table *t, const cat_column_def *def, const char *after, bool first,
                         db_error *err);
/* ALTER TABLE ENABLE FEATURE "feature" [WITH PROPERTIES (...)] (cat_feature.c): SEQUENCE_LOAD
 * adds the hidden __DORIS_SEQUENCE_COL__ of "function_column.sequence_type" (nullable, no
 * default) and sets that property; BATCH_DELETE adds __DORIS_DELETE_SIGN__; both are an ADD
 * COLUMN (Row Binlog tables need light schema change). Doris's messages (ER_DORIS) for unknown
 * names, missing properties or type, non-UNIQUE tables and a column that exists;
 * UPDATE_FLEXIBLE_COLUMNS is ER_NOT_SUPPORTED_YET. */
int cat_table_enable_feature(cat_table *t, const char *feature, const cat_prop *props,
                             size_t nprops, db_error *err);
/* ALTER TABLE DROP COLUMN name. Key columns of UNIQUE/AGG tables, partition and distribution
 * columns cannot be dropped. DB_ERR: ER_CANT_DROP_FIELD_OR_KEY, ER_DORIS. */
int cat_table_drop_column(cat_table *t, const char *name, db_error *err);
/* ALTER TABLE RENAME COLUMN old new (forbidden on Row Binlog tables). */
int cat_table_rename_column(cat_table *t, const char *old_name, const char *new_name,
                            db_error *err);
/* ALTER TABLE old RENAME new within db. DB_ERR: ER_TABLE_EXISTS_ERROR, ER_DORIS. */
int cat_table_rename(cat_db *db, cat_table *t, const char *new_name, db_error *err);
/* ALTER TABLE MODIFY COMMENT "c" (always allowed). */
void cat_table_set_comment(cat_table *t, const char *comment);
/* ALTER TABLE ADD PARTITION def: validates like CREATE TABLE (type, overlap, duplicate name)
 * and assigns the partition id from c. DB_ERR: ER_DORIS. */
int cat_table_add_partition(cat_catalog *c, cat_table *t, const cat_partition_def *def,
                            db_error *err);
/* ALTER TABLE DROP PARTITION [IF EXISTS] name. DB_ERR: ER_DORIS. */
int cat_table_drop_partition(cat_table *t, const char *name, bool if_exists, db_error *err);
/* Partition by name (case-insensitive, as Doris). Borrowed. */
cat_partition *cat_table_partition(const cat_table *t, const char *name);

/* ---- cat_alter.c ---- */

/* TRUNCATE TABLE t [PARTITION (names)]: every named partition (all when n is 0) gets a new id
 * from c, keeping its name, bounds and buckets (Doris: truncation replaces the partition).
 * DB_ERR: ER_DORIS for an unknown partition name; nothing changes then. */
int cat_table_truncate(cat_catalog *c, cat_table *t, const char *const *names, size_t n,
                       db_error *err);
/* ALTER TABLE RENAME PARTITION old new. DB_ERR: ER_DORIS (single-partition table, same name,
 * unknown partition, name in use). */
int cat_table_rename_partition(cat_table *t, const char *old_name, const char *new_name,
                               db_error *err);
/* ALTER TABLE MODIFY PARTITION p SET ("k" = "v", ...): partition properties (replication_num,
 * replication_allocation, storage_medium, storage_cooldown_time, in_memory, ...) are validated
 * and accepted; a single-node server keeps none of them. DB_ERR: ER_DORIS. */
int cat_table_modify_partition(cat_table *t, const char *name, const cat_prop *props, size_t nprops,
                               db_error *err);
/* The partition properties of MODIFY PARTITION and ADD [TEMPORARY] PARTITION def ("k" = "v")
 * checked, none kept. DB_ERR: ER_DORIS. */
int cat_partition_props_check(const cat_prop *props, size_t nprops, db_error *err);
/* ALTER TABLE MODIFY COLUMN def [AFTER c | FIRST]: the column keeps its uid and key-ness; its
 * type may widen as Doris allows (integers to wider integers, FLOAT to DOUBLE, VARCHAR(n) to
 * VARCHAR(m >= n) or STRING, CHAR(n) to CHAR/VARCHAR(m >= n), DECIMAL(p,s) to DECIMAL(q >= p,
 * s), DATETIME(p) to DATETIME(q >= p)); nullability may go from NOT NULL to NULL only; default
 * and comment are replaced when written. Forbidden on Row Binlog tables (cat_alter_check).
 * DB_ERR: ER_DORIS. */
int cat_table_modify_column(cat_table *t, const cat_column_def *def, const char *after, bool first,
                            db_error *err);
/* ALTER TABLE ORDER BY (c1, c2, ...): the new order of the visible columns. Every visible
 * column is named exactly once; key columns stay first, in their order. Forbidden on Row Binlog
 * tables. DB_ERR: ER_DORIS. */
int cat_table_reorder_columns(cat_table *t, const char *const *names, size_t n, db_error *err);
/* ALTER TABLE name REPLACE WITH TABLE other [PROPERTIES ("swap" = ...)], in place on db:
 * swap exchanges the two names; otherwise other takes name and the old table is dropped (freed,
 * no recycle bin, as Doris). *dropped_id (may be NULL) gets the dropped table's id or 0.
 * DB_ERR: ER_NO_SUCH_TABLE, ER_DORIS; nothing changes then. */
int cat_table_replace_with(cat_db *db, const char *name, const char *other, bool swap,
                           int64_t *dropped_id, db_error *err);
/* Parses the "swap" property of REPLACE WITH TABLE (default true). DB_ERR: ER_DORIS. */
int cat_replace_swap_prop(const cat_prop *props, size_t nprops, bool *swap, db_error *err);

/* ---- cat_tmp_part.c: temporary partitions (Doris "Temporary Partition") ---- */

/* ALTER TABLE ADD TEMPORARY PARTITION def: the name may be neither a formal nor a temporary
 * partition's; the range / values may overlap formal partitions but not other temporary ones.
 * The id comes from c. DB_ERR: ER_DORIS. */
int cat_table_add_tmp_partition(cat_catalog *c, cat_table *t, const cat_partition_def *def,
                                db_error *err);
/* ALTER TABLE DROP TEMPORARY PARTITION [IF EXISTS] name. DB_ERR: ER_DORIS. */
int cat_table_drop_tmp_partition(cat_table *t, const char *name, bool if_exists, db_error *err);
/* Temporary partition by name (case-insensitive). Borrowed; NULL when absent. */
cat_partition *cat_table_tmp_partition(const cat_table *t, const char *name);
/* ALTER TABLE REPLACE PARTITION (names) WITH TEMPORARY PARTITION (tmp) [PROPERTIES
 * ("strict_range" = .., "use_temp_partition_name" = ..)]: the formal partitions leave the table
 * (their data with them), the temporary ones become formal with their ids (streams read them
 * from the beginning, DORIS_SEMANTICS.md §2.9); without use_temp_partition_name and with as many
 * of each, the i-th keeps the i-th replaced name. strict_range (default true): the union of the
 * replaced ranges (LIST: the set of values) equals the temporary ones'; otherwise the new ones
 * may not overlap the formal partitions that stay. Nothing changes on error. DB_ERR: ER_DORIS. */
int cat_table_replace_partitions(cat_table *t, const char *const *names, size_t n,
                                 const char *const *tmp, size_t ntmp, const cat_prop *props,
                                 size_t nprops, db_error *err);

/* ---- secondary indexes (cat_index.c) ---- */

/* "INVERTED" / "BITMAP" / "NGRAM_BF". */
const char *cat_index_type_name(uint8_t type);
/* The index type of a USING word (case-insensitive); false for other words (BTREE, HASH...). */
bool cat_index_type_parse(const char *word, uint8_t *type);
/* Index by name (case-insensitive). Borrowed. NULL when absent. */
cat_index *cat_table_index(const cat_table *t, const char *name);
/* Adds an index to t after Doris's checks (IndexDefinition.validate / checkColumn, then the
 * duplicate-name and duplicate-columns checks of ALTER TABLE ADD INDEX); IF NOT EXISTS with the
 * name taken is a no-op (*added false). Allowed on Row Binlog tables (a light change).
 * DB_ERR: ER_DORIS. */
int cat_table_add_index(cat_table *t, const cat_index_def *def, bool *added, db_error *err);
/* CREATE TABLE's INDEX clauses on the table being built (Doris's CreateTableInfo texts:
 * `Column does not exist in table...`, `index name must be unique.`). DB_ERR: ER_DORIS. */
int cat_table_create_indexes(cat_table *t, const cat_index_def *defs, size_t n, db_error *err);
/* DROP INDEX name: DB_ERR ER_DORIS `index <name> does not exist` unless if_exists. */
int cat_table_drop_index(cat_table *t, const char *name, bool if_exists, db_error *err);
/* BUILD INDEX name ON t [PARTITION (parts)]: Doris's checks (Row Binlog refusal E41, unknown
 * index, BITMAP / NGRAM_BF indexes, partitions). Nothing is built. DB_OK or DB_ERR (ER_DORIS). */
int cat_table_build_index_check(const cat_table *t, const char *name, const char *const *parts,
                                size_t nparts, db_error *err);
/* Index.getPropertiesString: `("k" = "v", "k2" = "v2")`, nothing when there are none. */
void cat_index_props_text(const cat_index *ix, buf *out);
/* Index.toSql as SHOW CREATE TABLE prints it: INDEX i (`c`) USING INVERTED [PROPERTIES(...)]
 * [COMMENT '..']. */
void cat_index_sql(const cat_table *t, const cat_index *ix, buf *out);

/* ======================================================================================
 * SHOW
 * ====================================================================================== */

/* SHOW CREATE TABLE text (column `Create Table`), Doris's format: columns, ENGINE=OLAP, keys,
 * COMMENT, partitions, distribution, PROPERTIES with the binlog.* block in seed 001's order.
 * Appends to out. */
void cat_show_create_table(const cat_table *t, buf *out);
/* SHOW CREATE DATABASE text (column `Create Database`). */
void cat_show_create_database(const cat_db *db, buf *out);

/* One DESC / SHOW COLUMNS row: Field, Type, Null, Key, Default, Extra. Pointers borrow from
 * the table (valid until it changes); default_value NULL means SQL NULL. */
typedef struct cat_desc_row {
    const char *field;
    char type[64];
    const char *null; /* "Yes" / "No" */
    const char *key;  /* "true" / "false" */
    const char *default_value;
    char extra[48];
} cat_desc_row;

/* Fills rows[0..max) with the DESC rows of t (hidden columns too when show_hidden) and returns
 * how many rows there are (may exceed max; call with max 0 to count). */
size_t cat_show_columns(const cat_table *t, bool show_hidden, cat_desc_row *rows, size_t max);

/* SHOW PARTITIONS FROM t: the column names, in order (CAT_SHOW_PARTITIONS_NCOLS of them). */
#define CAT_SHOW_PARTITIONS_NCOLS 22
extern const char *const cat_show_partitions_columns[CAT_SHOW_PARTITIONS_NCOLS];
/* Appends the text of each column of partition i (formal ones first: i >= t->nparts is
 * temporary partition i - t->nparts) as a NUL-separated list of
 * CAT_SHOW_PARTITIONS_NCOLS strings to out; "\\N" stands for SQL NULL. The storage-owned
 * values (versions, sizes, row counts) are those of an empty partition until storage fills
 * them. */
void cat_show_partition_row(const cat_table *t, size_t i, buf *out);

/* ======================================================================================
 * Binary encoding (edit-log records and image), see README.md §Formats "Schema objects"
 * ====================================================================================== */

/* 2: views (a trailer after each table body); 3: streams; 4: secondary indexes */
#define CAT_SCHEMA_ENCODING_VERSION 4

/* Appends the encoding of a table / of a database with all its tables (the image unit). */
void cat_table_encode(const cat_table *t, buf *out);
void cat_db_encode(const cat_db *db, buf *out);
/* Decodes what the encoders wrote. Heap results (cat_table_free / cat_db_free). DB_ERR with
 * ER_CAT_SCHEMA_DECODE on truncated, oversized or unknown-version input; never reads past len. */
cat_table *cat_table_decode(const void *data, size_t len, db_error *err);
cat_db *cat_db_decode(const void *data, size_t len, db_error *err);
/* Frees a detached database (its tables too). */
void cat_db_free(cat_db *db);
/* Replay: attach a decoded database (ids set). Takes ownership. DB_ERR: ER_CAT_SCHEMA_DECODE
 * when the name or id is taken. */
int cat_db_install(cat_catalog *c, cat_db *db, db_error *err);

#endif /* CATALOG_CAT_SCHEMA_H */
