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
/* Restrict a table scan to the partitions flagged in ok (DELETE ... PARTITION (p)); NULL = no
 * restriction. Call after plan__tscan_prune, before the operator opens. */
void plan__tscan_only_partitions(plan_op *op, const bool *ok);
/* v in column c's storage form (no error: false when it does not convert). */
bool plan__scell_of(plan_ectx *cx, const plan_tcol *c, const plan_value *v, plan_scell *out);
/* Order of two storage-form values of column c (NULL first). */
int plan__scell_cmp(const plan_tcol *c, const plan_scell *a, const plan_scell *b);

/* Resolve a FOR VERSION AS OF / FOR TIME AS OF clause to a TSO. */
int plan__as_of_tso(plan_ectx *cx, const plan_ast *as_of, uint64_t *tso, db_error *err);

/* INSERT / UPDATE / DELETE (plan_dml.c). */
int plan__exec_dml(plan_ectx *cx, const plan_stmt *st, plan_outcome *out, db_error *err);

/* plan_select.c: build the operator tree of a SELECT with FROM; *cols / *ncols describe the
 * visible output columns. */
int plan__select_build(plan_ectx *cx, const plan_stmt *st, plan_op **root, plan_column **cols,
                       uint32_t *ncols, db_error *err);

#endif /* PLANNER_PLAN_DML_INT_H */
