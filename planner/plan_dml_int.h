/* SPDX-License-Identifier: Apache-2.0
 * plan_dml_int.h: private to planner/. Tables with data: the planner's copy of a catalog table
 * (columns, partitions, distribution, storage schema), value conversion into column storage
 * form, the table scan operator, INSERT / UPDATE / DELETE and transactions (plan_dml.c,
 * plan_scan.c). See README.md §"Tables and DML". */
#ifndef PLANNER_PLAN_DML_INT_H
#define PLANNER_PLAN_DML_INT_H

#include "planner/plan_exec_int.h"

#include "catalog/catalog.h"
#include "storage/storage.h"

/* One value in column storage form (what storage keeps: stor_vec kinds). */
typedef struct plan_scell {
    bool null;
    int64_t i;     /* STOR_VEC_I64: integers, DATE days, DATETIME microseconds */
    double d;      /* STOR_VEC_F64 */
    __int128 x;    /* STOR_VEC_I128 */
    const char *s; /* STOR_VEC_BYTES */
    uint32_t len;
} plan_scell;

/* One column of a table as the planner uses it. */
typedef struct plan_tcol {
    const char *name;
    cat_type type;
    stor_vec_kind kind;
    plan_xtype xt; /* result metadata */
    plan_vkind vk; /* batch value kind */
    bool nullable, hidden, is_key, auto_inc;
    bool has_default;     /* DEFAULT clause */
    bool default_is_expr; /* CURRENT_TIMESTAMP and friends */
    const char *default_text;
} plan_tcol;

typedef struct plan_tpart {
    int64_t id;
    const char *name;
    uint32_t buckets;
    bool lower_min, upper_max; /* RANGE */
    plan_scell lower, upper;   /* RANGE bounds (column storage form) */
    plan_scell *values;        /* LIST values */
    uint32_t nvalues;
    bool has_null; /* LIST: NULL goes here (VALUES IN ((NULL))) */
} plan_tpart;

/* A table with data, copied out of the catalog at statement start (statement arena). */
typedef struct plan_tbl {
    const char *db, *name;
    int64_t id;
    stor_schema sc;
    uint32_t ncols; /* every column; hidden ones last */
    uint32_t nvis;  /* visible columns (the first nvis) */
    plan_tcol *cols;
    uint8_t part_type; /* cat_part_type */
    int32_t part_col;  /* column index, -1 */
    uint32_t nparts;
    plan_tpart *parts;
    uint32_t ntmp_parts; /* temporary partitions: read and written only when named */
    plan_tpart *tmp_parts;
    bool dist_random;
    uint32_t *dist; /* HASH columns (indexes) */
    uint32_t ndist;
    int32_t delete_sign_col; /* index or -1 */
    int32_t commit_tso_col;  /* index of __DORIS_COMMIT_TSO_COL__ or -1 */
    int32_t seq_hidden_col;  /* index of __DORIS_SEQUENCE_COL__ or -1 */
    int32_t seq_map_col;     /* column named by function_column.sequence_col, or -1 */
} plan_tbl;

/* Map a catalog column type to result metadata and batch value kind. */
void plan__cat_xtype(const cat_type *t, bool nullable, plan_xtype *xt, plan_vkind *vk);

/* Copy table db.name out of the catalog into *out (statement arena). ER_BAD_DB_ERROR,
 * ER_NO_SUCH_TABLE. Privileges are the caller's. */
int plan__tbl_open(plan_ectx *cx, const char *db, const char *name, plan_tbl *out, db_error *err);
/* `t TEMPORARY PARTITION (...)`: from here on t's partitions are its temporary ones (scans,
 * routing, PARTITION name lookups), its formal ones are out of sight. */
void plan__tbl_use_temp(plan_tbl *t);

/* The scan operator over every tablet of tbl (plan_scan.c): one output column per table
 * column (tbl->ncols, batch kinds from plan_tcol.vk), then with with_loc four PV_INT columns
 * (tablet id, rowset id, segment id, row ordinal). as_of_tso 0 = current snapshot. Rows with
 * the delete sign set are dropped unless keep_deleted. The snapshot of every tablet is taken
 * at open. */
plan_op *plan__op_tscan(plan_ectx *cx, const plan_tbl *tbl, uint64_t as_of_tso, bool with_loc,
                        bool keep_deleted);

/* Narrow a table scan with the AND-ed comparisons of where against constants (columns named
 * bare or qualified by qual): partitions outside the partition column's range are skipped, an
 * equality on every HASH column reads one bucket, and the column ranges go to storage for
 * zone-map and short-key pruning. Only ever skips rows the predicate rejects; the caller still
 * filters. Call before the operator opens. */
void plan__tscan_prune(plan_op *op, const plan_ast *where, const char *qual);
/* Projection pruning: the scan reads only the columns c with need[c] set (need has tbl->ncols
 * entries and is read at each open, so it may still change until then; the planner marks
 * columns as expressions bind them, plan_bind_col.used), plus what it needs itself (delete
 * sign, merge keys); the others stay NULL in its batches. Without a call every column is read
 * (DML). */
void plan__tscan_need(plan_op *op, const bool *need);
/* What storage holds for one tablet, from metadata (plan_scan.c): SHOW TABLETS / PARTITIONS,
 * information_schema.TABLES. */
typedef struct plan_tablet_stats {
    bool exists;       /* the tablet was ever written (else every figure is 0) */
    uint64_t version;  /* visible version */
    uint64_t rows;     /* live rows: rowset rows minus those deleted at the version */
    uint64_t bytes;    /* on-disk bytes of its visible segment files */
    uint64_t nrowsets; /* visible rowsets */
    const char *dir;   /* tablet directory (cx arena), NULL when !exists */
} plan_tablet_stats;
/* Fill *out for tablet id; strings in a. Takes and drops a snapshot; no catalog lock needed. */
void plan__tablet_stats(stor_engine *e, uint64_t tablet_id, arena *a, plan_tablet_stats *out);

/* Add the live rows and on-disk bytes of tablets[0..n) to *rows / *bytes (no engine: nothing). */
void plan__table_stats(plan_ectx *cx, const uint64_t *tablets, size_t n, uint64_t *rows,
                       uint64_t *bytes);

/* Estimated rows of a table scan: the rows of the rowsets of the tablets it will read (as
 * pruned so far), deletes not subtracted; also recorded as the operator's EXPLAIN estimate.
 * plan__tscan_prune updates it. */
double plan__tscan_est(plan_op *op);
/* The partitions of t named by names[0..n) as flags (t->nparts; *out NULL when n is 0).
 * ER_DORIS "Unknown partition 'p' in table 't'". */
int plan__part_flags(plan_ectx *cx, const plan_tbl *t, const char *const *names, uint32_t n,
                     bool **out, db_error *err);
/* Restrict a table scan to the partitions flagged in ok (SELECT / DELETE ... PARTITION (p));
 * NULL = no restriction. Before or after plan__tscan_prune, before the operator opens. */
void plan__tscan_only_partitions(plan_op *op, const bool *ok);
/* v in column c's storage form (no error: false when it does not convert). */
bool plan__scell_of(plan_ectx *cx, const plan_tcol *c, const plan_value *v, plan_scell *out);

struct plan_arr_out;
/* Appends v converted to the ARRAY element type et (the column write rules) to o as a
 * canonical element; a value that does not convert is a null element (false). */
bool plan__arr_put(plan_ectx *cx, const cat_type *et, const plan_value *v, struct plan_arr_out *o);
/* The canonical text of array text s[0..len) with elements of type et (elements that do not
 * convert become null), in cx->a; NULL when s is not an array. */
const char *plan__arr_normalize(plan_ectx *cx, const cat_type *et, const char *s, size_t len,
                                size_t *out_len);
/* Order of two storage-form values of column c (NULL first). */
int plan__scell_cmp(const plan_tcol *c, const plan_scell *a, const plan_scell *b);

/* Per column of tb the value a row written before the column existed reads as: its constant
 * default as text (the batch setter converts it), else NULL (statement arena). */
plan_value *plan__tbl_defaults(plan_ectx *cx, const plan_tbl *tb);

/* Resolve a FOR VERSION AS OF / FOR TIME AS OF clause to a TSO. */
int plan__as_of_tso(plan_ectx *cx, const plan_ast *as_of, uint64_t *tso, db_error *err);

/* A FROM item reading Row Binlog (plan_binlog.c): binlog(...) or t@incr(...). Columns: the
 * table's visible columns, __DORIS_BINLOG_OP__ / _TSO__ / _LSN__, then (binlog() on a table
 * with before images) __BEFORE__<col>__ per visible non-key column. */
typedef struct plan_binlog_src {
    plan_tbl *tbl;
    uint32_t ncols, nstar; /* SELECT * shows the first nstar columns */
    const char **names;
    plan_xtype *xt;
    plan_vkind *vk;
    int32_t *tcol; /* per column: the table column it shows, or -1 */
    double est;    /* records in the window (metadata) */
} plan_binlog_src;

/* Validate ref (tvf or scan_fn set) and build its operator (*op NULL when describing).
 * ER_DORIS with Doris's messages (E27-E33), ER_NO_SUCH_TABLE, privilege errors. */
int plan__binlog_resolve(plan_ectx *cx, const plan_table_ref *ref, plan_binlog_src *out,
                         plan_op **op, db_error *err);

/* A stream's changes (plan_binlog.c): for tablets[i] the changes with TSO in [lo[i], hi[i]]
 * folded by tmode[i] (tmode NULL: mode), preceded by the rows of hist (a table scan with
 * locations over the partitions read whole from their data; NULL = none) as APPEND rows whose
 * sequence is their rowset's commit TSO (hist_seq of their partition without a commit TSO
 * column) and LSN 0. Columns: tb's nvis visible columns, __DORIS_STREAM_SEQUENCE_COL__,
 * __DORIS_STREAM_CHANGE_TYPE_COL__ (text), __DORIS_STREAM_LSN_COL__ (kinds vk, types xt). The
 * arrays must outlive the operator. */
plan_op *plan__op_stream_read(plan_ectx *cx, const plan_tbl *tb, uint8_t mode, bool history,
                              const uint64_t *tablets, const uint64_t *lo, const uint64_t *hi,
                              const uint8_t *tmode, uint32_t n, plan_op *hist,
                              const int64_t *hist_parts, const uint64_t *hist_seq, uint32_t nhist,
                              const plan_vkind *vk, const plan_xtype *xt);
/* The TSO at or below which records of a table with binlog.ttl_seconds are expired at the
 * statement's start (plan_binlog.c). */
uint64_t plan__ttl_horizon(plan_ectx *cx, int64_t ttl_seconds);
/* FOR VERSION / TIME AS OF tso on a MoW table with Row Binlog: E32 when tso is past the
 * table's binlog.ttl_seconds. */
int plan__binlog_check_as_of(plan_ectx *cx, const plan_tbl *tb, uint64_t tso, db_error *err);
/* Time travel to tso on a MoW table with before images whose version was compacted away:
 * plan__binlog_needs_undo tells; plan__op_time_travel rebuilds the image (the current rows
 * whose key no later change touched, plus each changed key's row before its first change) with
 * tscan's column layout (tb->ncols columns). */
bool plan__binlog_needs_undo(plan_ectx *cx, const plan_tbl *tb, uint64_t tso);
plan_op *plan__op_time_travel(plan_ectx *cx, const plan_tbl *tb, uint64_t tso);
/* Restrict that operator to the partitions flagged in ok (NULL = all; other ops: nothing). */
void plan__time_travel_partitions(plan_op *op, const bool *ok);
/* "APPEND" / "DELETE" / "UPDATE_BEFORE" / "UPDATE_AFTER" of a BL_CH_* change type. */
const char *plan__change_type_name(int64_t type);

/* Streams (plan_stream.c). A FROM item naming a stream (optionally @snapshot() / @reset()):
 * its columns and operator; the windows it reads are remembered in cx for consumption. */
int plan__stream_resolve(plan_ectx *cx, const plan_table_ref *ref, plan_binlog_src *out,
                         plan_op **op, db_error *err);
/* INSERT ... SELECT: add the offset advances of every stream the statement read to w. */
void plan__stream_consume(plan_ectx *cx, stor_writer *w);
/* Whether db.name is a stream; its base table's current db and name (false if dropped). */
bool plan__is_stream(plan_ectx *cx, const char *db, const char *name);
bool plan__stream_base(plan_ectx *cx, const char *db, const char *name, const char **bdb,
                       const char **bname);

/* INSERT / UPDATE / DELETE (plan_dml.c). */
int plan__exec_dml(plan_ectx *cx, const plan_stmt *st, plan_outcome *out, db_error *err);

/* plan_select.c: build the operator tree of a SELECT with FROM; *cols / *ncols describe the
 * visible output columns. */
int plan__select_build(plan_ectx *cx, const plan_stmt *st, plan_op **root, plan_column **cols,
                       uint32_t *ncols, db_error *err);

#endif /* PLANNER_PLAN_DML_INT_H */
