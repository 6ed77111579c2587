/* SPDX-License-Identifier: Apache-2.0
 * cat_schema_int.h: declarations shared by the schema files (cat_schema.c, cat_props.c,
 * cat_show.c, cat_serde.c) and white-box tests. See README.md §"Schema objects". */
#ifndef CATALOG_CAT_SCHEMA_INT_H
#define CATALOG_CAT_SCHEMA_INT_H

#include "catalog/cat_schema.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/db_error.h"

/* Buckets of a partition whose table says BUCKETS AUTO (Doris's FeConstants.default_bucket_num). */
#define CAT_AUTO_BUCKETS 10

struct cat_catalog {
    cat_db **dbs; /* user databases, creation order */
    size_t ndbs;
    size_t cap;
    cat_db *info_schema; /* the built-in information_schema (is_system) */
    int64_t next_id;     /* next id handed out (I-S2) */
};

/* Sets ER_DORIS with a printf-formatted detail message; returns DB_ERR. */
int cat__doris(db_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* ASCII case-insensitive equality of NUL-terminated strings. */
bool cat__ieq(const char *a, const char *b);
/* Parses a whole decimal int64 as Java's Long.parseLong (optional sign, digits only). */
bool cat__parse_i64(const char *s, int64_t *out);

void cat__column_destroy(cat_column *c);
void cat__partition_destroy(cat_partition *p);
void cat__column_copy(cat_column *dst, const cat_column *src);
void cat__partition_copy(cat_partition *dst, const cat_partition *src);
/* Secondary indexes (cat_index.c). */
void cat__index_destroy(cat_index *ix);
void cat__index_copy(cat_index *dst, const cat_index *src);
/* DROP COLUMN: the indexes on column uid go with it (Doris's processDropColumn). */
void cat__indexes_drop_column(cat_table *t, int32_t uid);
/* Detaches database id from c (its tables stay with it); NULL when absent. Replay and the
 * recycle bin (cat_meta.c). */
cat_db *cat__db_detach(cat_catalog *c, int64_t id);

/* ---- properties (cat_props.c) ---- */

/* Doris's analyzeBinlogConfig + BinlogConfig.mergeFromProperties: validates the binlog.* values
 * of props, then merges them into cfg. force=false is ALTER (immutability checks, first failure
 * wins in Doris's order); force=true is CREATE. DB_ERR with ER_DORIS. */
int cat__binlog_merge(cat_binlog_cfg *cfg, const cat_props *props, bool force, db_error *err);
/* True for keys starting with "binlog.". */
bool cat__is_binlog_key(const char *key);
/* Row Binlog rules that hold whatever the statement (E43): ttl > 0 when ROW. */
int cat__binlog_check_row(const cat_binlog_cfg *cfg, db_error *err);
/* Table properties CREATE TABLE accepts and keeps verbatim for SHOW CREATE TABLE. */
bool cat__is_passthrough_key(const char *key);
/* Properties CREATE TABLE accepts and ignores (single-node: replication). */
bool cat__is_ignored_key(const char *key);
/* "true"/"false" exactly (Doris analyzeUniqueKeyMergeOnWrite style); else ER_DORIS
 * "<key> must be `true` or `false`". */
int cat__parse_strict_bool(const char *key, const char *value, bool *out, db_error *err);

/* ---- types (cat_schema.c) ---- */

/* Index size Doris uses when picking default short keys. */
int cat__type_index_size(const cat_type *t);
/* Doris's name of the type in messages (`INT`, `VARCHAR(10)`...), upper case. */
void cat__type_upper(const cat_type *t, char *dst, size_t cap);
/* Canonical text of a partition value of type t, validated. DB_ERR with ER_DORIS. */
int cat__part_value_normalize(const cat_type *t, const char *in, char *dst, size_t cap,
                              db_error *err);
/* The type's minimum as a partition key text ("-2147483648", "0000-01-01"). */
const char *cat__type_min_text(const cat_type *t);
/* Compares two normalized partition values of type t (<0, 0, >0). */
int cat__part_value_cmp(const cat_type *t, const char *a, const char *b);


/* ---- partitions (cat_ddl.c) ---- */

/* Partition p of t from definition d (values normalized, range order), checked against
 * others[0..nothers) for overlapping ranges and conflicting list values; a LESS THAN lower
 * bound is the largest upper bound among others below it. p is the caller's to destroy, also
 * on error. DB_ERR: ER_DORIS. */
int cat__partition_from_def(const cat_table *t, const cat_partition *others, size_t nothers,
                            const cat_partition_def *d, cat_partition *p, db_error *err);
/* Doris Range.toString of p's bounds: "[types: [INT]; keys: [10]; ..types: [INT]; ...)". */
void cat__range_text(const cat_table *t, const cat_partition *p, char *dst, size_t cap);
/* ---- hidden columns, sequence type (cat_ddl.c) ---- */

/* Appends hidden column name (a new uid, CAT_COL_HIDDEN, the model's default aggregation). */
void cat__add_hidden(cat_table *t, const char *name, cat_type type, bool nullable, const char *def);
/* The type of "function_column.sequence_type" = text (Doris analyzeSequenceType); name gets
 * its lower-case name as SHOW CREATE TABLE prints it. DB_ERR: ER_DORIS. */
int cat__sequence_type(const char *text, cat_type *out, char *name, size_t cap, db_error *err);

#endif /* CATALOG_CAT_SCHEMA_INT_H */
