/* SPDX-License-Identifier: Apache-2.0
 * plan_ddl_int.h: private to planner/. The parsed form of the Doris DDL statements and the
 * catalog SHOW statements (plan_stmt.kind PS_DDL, plan_stmt.ddl): databases, tables, ALTER
 * TABLE clauses, SHOW CREATE / DESC / SHOW COLUMNS / SHOW PARTITIONS / SHOW TABLE STATUS. The
 * grammar's actions fill it through the plan_ddl_* builders (plan_ddl_ast.c); plan_ddl.c runs
 * it against the durable catalog (cat_meta); plan_show.c answers the SHOW statements and
 * implements the information_schema provider over the catalog. See README.md §DDL. */
#ifndef PLANNER_PLAN_DDL_INT_H
#define PLANNER_PLAN_DDL_INT_H

#include "planner/plan_int.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"

typedef enum plan_ddl_kind {
    PD_CREATE_DB = 0,
    PD_DROP_DB,
    PD_ALTER_DB,
    PD_CREATE_TABLE,
    PD_DROP_TABLE,
    PD_ALTER_TABLE,
    PD_SHOW_CREATE_DB,
    PD_SHOW_CREATE_TABLE,
    PD_DESC,              /* DESC / DESCRIBE t [ALL] */
    PD_SHOW_COLUMNS,      /* SHOW [FULL] COLUMNS FROM t [FROM db] */
    PD_SHOW_PARTITIONS,   /* SHOW PARTITIONS FROM t */
    PD_SHOW_TABLE_STATUS, /* SHOW TABLE STATUS [FROM db]: db in plan_stmt.name */
    PD_SHOW_TABLETS,      /* SHOW TABLETS FROM t [PARTITION (names)] */
    PD_SHOW_INDEX,        /* SHOW {INDEX | INDEXES | KEYS} FROM t [FROM db] */
    PD_TRUNCATE,          /* TRUNCATE TABLE t [PARTITION (names)]: partitions in names */
    PD_RECOVER_TABLE,     /* RECOVER TABLE [db.]t */
    PD_RECOVER_DB,        /* RECOVER DATABASE d */
    PD_CREATE_INDEX,      /* CREATE [UNIQUE] INDEX i ON t (cols): Doris ones stored, not built */
    PD_DROP_INDEX,        /* DROP INDEX i ON t: a stored one is dropped */
    PD_BUILD_INDEX,       /* BUILD INDEX i ON t [PARTITION (names)]: partitions in idx_cols */
    PD_SHOW_BUILD_INDEX,  /* SHOW BUILD INDEX [FROM db] [LIKE | WHERE]: db in plan_stmt.name */
    PD_CREATE_VIEW,       /* CREATE [OR REPLACE] VIEW v [(names)] AS select: view_sql */
    PD_DROP_VIEW,         /* DROP VIEW [IF EXISTS] v */
    PD_SHOW_CREATE_VIEW,  /* SHOW CREATE VIEW v */
    /* Table Streams (plan_stream.c) */
    PD_CREATE_STREAM,      /* CREATE [OR REPLACE] STREAM [IF NOT EXISTS] s ON TABLE t ... */
    PD_ALTER_STREAM,       /* ALTER STREAM s {SET | MODIFY} COMMENT 'c' */
    PD_DROP_STREAM,        /* DROP STREAM [IF EXISTS] s [FORCE] */
    PD_SHOW_STREAMS,       /* SHOW STREAMS [FROM db] [LIKE | WHERE]: db in plan_stmt.name */
    PD_SHOW_CREATE_STREAM, /* SHOW CREATE STREAM s */
    PD_SHOW_STREAM_STATUS, /* SHOW STREAM STATUS s: pending changes per partition */
    /* Doris cluster and configuration statements of a single node (plan_show_doris.c) */
    PD_SHOW_BACKENDS,  /* SHOW BACKENDS: the embedded backend */
    PD_SHOW_FRONTENDS, /* SHOW FRONTENDS: this process */
    PD_SHOW_CATALOGS,  /* SHOW CATALOGS [LIKE | WHERE]: `internal` */
    PD_SHOW_DATA,      /* SHOW DATA [FROM [db.]t] [ORDER BY ...]: plan_stmt.order */
    PD_SHOW_FE_CONFIG, /* [ADMIN] SHOW FRONTEND CONFIG [LIKE | WHERE] */
    PD_SHOW_BE_CONFIG, /* [ADMIN] SHOW BACKEND CONFIG [LIKE | WHERE] */
    PD_SHOW_TABLET,    /* SHOW TABLET id: the id's text in name */
    PD_SHOW_PROC,      /* SHOW PROC 'path': the path in name */
} plan_ddl_kind;

/* A warning a statement gives when it runs (ignored MySQL options, unbuilt indexes). */
typedef struct plan_ddl_note {
    int code;        /* MySQL warning code */
    const char *msg; /* statement arena */
} plan_ddl_note;

/* One ALTER TABLE clause. Arrays and strings live in the statement arena. */
typedef struct plan_alter_cmd {
    cat_alter_op op;
    cat_column_def *cols; /* ADD COLUMN / MODIFY COLUMN definitions */
    size_t ncols;
    const char *name;  /* DROP COLUMN c, RENAME COLUMN old, RENAME new, DROP PARTITION p, ... */
    const char *name2; /* RENAME COLUMN ... new, RENAME PARTITION ... new */
    const char *after; /* ADD / MODIFY COLUMN ... AFTER c */
    bool first;        /* ... FIRST */
    bool if_exists;    /* DROP PARTITION IF EXISTS */
    cat_partition_def part; /* ADD PARTITION */
    const cat_prop *props;  /* SET (...) */
    size_t nprops;
    const char *comment; /* MODIFY COMMENT / MODIFY COLUMN c COMMENT */
    const char *what;    /* statement text naming the clause in ER_NOT_SUPPORTED_YET */
    const char **names;  /* ORDER BY (...) column names; REPLACE PARTITION: the formal names,
                            then the temporary ones (from nformal on) */
    size_t nnames;
    size_t nformal;    /* REPLACE PARTITION: how many of names are formal partitions */
    bool temp;         /* ADD / DROP TEMPORARY PARTITION */
    bool doris_idx;    /* ADD INDEX ... USING INVERTED | BITMAP | NGRAM_BF: idx is stored */
    cat_index_def idx; /* its definition */
} plan_alter_cmd;

/* A value of a partition definition as written: text, or MAXVALUE. */
typedef struct plan_part_value {
    const char *text;
    bool is_max;
    bool is_null; /* NULL (a LIST value) */
} plan_part_value;

typedef struct plan_ddl {
    plan_ddl_kind kind;
    const char *db;   /* database: the statement's, or the table's qualifier; NULL = current */
    const char *name; /* table name (or database name for the database statements) */
    bool if_exists, if_not_exists, force;
    bool all;                 /* DESC t ALL */
    bool full;                /* SHOW FULL COLUMNS */
    cat_create_table_req req; /* CREATE TABLE; its arrays point at the lists below */
    const char *engine;       /* ENGINE = x as written, NULL when not written */
    bool primary_key;         /* MySQL PRIMARY KEY (...) was written */
    bool buckets_given;       /* BUCKETS n | AUTO was written */
    const char **col_pk;      /* columns declared `c type PRIMARY KEY`, in order */
    uint8_t col_unsigned;     /* the column being defined: 1 UNSIGNED, 2 ZEROFILL, 0 neither */
    size_t ncol_pk, cap_col_pk;
    int64_t auto_inc_opt; /* table option AUTO_INCREMENT = n (0 = not written) */
    plan_ddl_note *notes; /* warnings to give when the statement runs */
    size_t nnotes, cap_notes;
    const char *idx_name;  /* CREATE / DROP / BUILD INDEX: the index */
    const char **idx_cols; /* CREATE INDEX: its columns (BUILD INDEX: the partitions) */
    size_t nidx_cols;
    /* The index being parsed: USING word, COMMENT, PROPERTIES (pending until plan_ddl_index). */
    const char *idx_using;
    const char *idx_comment;
    cat_prop *idx_props;
    size_t nidx_props;
    /* Doris indexes (a USING INVERTED | BITMAP | NGRAM_BF type): CREATE TABLE's list, or the one
     * of CREATE INDEX; ALTER TABLE ... ADD INDEX takes its own (plan_alter_cmd.idx). */
    cat_index_def *idx_defs;
    size_t nidx_defs, cap_idx_defs;
    bool idx_last_doris; /* the last index parsed went to idx_defs */
    /* Growable lists (statement arena). Pending lists are taken by the clause that uses them. */
    cat_column_def *cols; /* column definitions (pending until a clause takes them) */
    size_t ncols, cap_cols;
    const char **names; /* pending identifier list */
    size_t nnames, cap_names;
    plan_part_value *vals; /* pending partition values */
    size_t nvals, cap_vals;
    cat_partition_def *parts; /* partition definitions */
    size_t nparts, cap_parts;
    cat_prop *props; /* PROPERTIES (...) / SET (...) pending */
    size_t nprops, cap_props;
    const char *pos_after; /* pending AFTER c */
    bool pos_first;        /* pending FIRST */
    bool temp;             /* plan_ddl_temp: pending for the next clause; SHOW TEMPORARY */
    size_t temp_split;     /* names pending when TEMPORARY came (REPLACE PARTITION) */
    plan_alter_cmd *cmds;  /* ALTER TABLE clauses in order */
    size_t ncmds, cap_cmds;
    bool or_replace;      /* CREATE OR REPLACE VIEW */
    const char *view_sql; /* CREATE VIEW: the stored definition (`CREATE VIEW `v` ... AS ...`) */
    bool ctas;            /* CREATE TABLE ... AS SELECT: the statement's select fields */
    const char *base_ctl, *base_db, *base_name; /* CREATE STREAM ... ON TABLE [[ctl.]db.]t;
                                                   its COMMENT goes to req.comment */
} plan_ddl;

/* CREATE STREAM ... ON TABLE [[ctl.]db.]name (plan_stream.c). */
void plan_ddl_stream_base(plan_parse *pp, const plan_token *ctl, const plan_token *db,
                          const plan_token *name);
/* Run a stream DDL or SHOW statement (plan_stream.c). */
int plan__exec_stream_ddl(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink,
                          plan_outcome *out, db_error *err);

/* Doris secondary indexes (plan_ddl_index.c). CREATE INDEX with a USING INVERTED | BITMAP |
 * NGRAM_BF type, DROP INDEX of a stored index, BUILD INDEX: *done is set when the statement was
 * one of these and has run (db resolved, ALTER privilege checked); otherwise the caller runs
 * the MySQL path (checked, nothing stored, a warning). */
int plan__exec_index(plan_ectx *cx, const plan_ddl *d, const char *db, bool *done, db_error *err);
/* True when table db.table holds a stored index named index. */
bool plan__index_is_stored(plan_ectx *cx, const char *db, const char *table, const char *index);
/* BUILD INDEX's checks on db.table (ALTER TABLE t BUILD INDEX i alone: no record). */
int plan__build_index_check(plan_ectx *cx, const char *db, const char *table, const char *index,
                            const char *const *parts, size_t nparts, db_error *err);
/* ALTER TABLE's ADD INDEX (a Doris one), DROP INDEX (of a stored one; others are MySQL KEYs
 * that were never stored: no change) and BUILD INDEX clauses on the table copy t. */
int plan__alter_index(cat_table *t, const plan_alter_cmd *cmd, db_error *err);
/* SHOW INDEX rows of t: Doris's 13 columns (ShowIndexCommand), one row per index. */
struct plan_rowset;
void plan__show_index_rows(arena *a, const cat_table *t, struct plan_rowset *rs);
/* SHOW BUILD INDEX [FROM db]: Doris's build jobs; BUILD INDEX runs none (nothing is built), so
 * the columns and no rows. */
int plan__show_build_index(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink,
                           db_error *err);
/* information_schema.STATISTICS rows of the stored indexes of db.table (MySQL's 16 columns,
 * one row per indexed column), each passed to add(ctx, row). */
typedef void (*plan_index_row_fn)(void *ctx, const plan_value *row);
void plan__index_statistics(plan_server *srv, arena *a, const char *db, const char *table,
                            plan_index_row_fn add, void *ctx);

/* Run a PD_SHOW_BACKENDS .. PD_SHOW_PROC statement (plan_show_doris.c). */
int plan__show_doris(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                     db_error *err);
/* Doris's readable byte count (plan_show.c): "0.000 ", "512.000 B", "4.010 KB", ... */
const char *plan__readable_bytes(arena *a, uint64_t n);
/* n bytes in the largest unit it exceeds with `decimals` digits ("4.01 KB"; "0.00 " for 0). */
const char *plan__bytes_text(arena *a, uint64_t n, int decimals);

/* ---- builders called from grammar actions (plan_ddl_ast.c) ---- */

/* The statement is DDL statement kind (sets plan_stmt.kind = PS_DDL). */
void plan_ddl_begin(plan_parse *pp, plan_ddl_kind kind);
/* [db.]name of the statement (db may be NULL). */
void plan_ddl_target(plan_parse *pp, const plan_token *db, const plan_token *name);
/* SHOW COLUMNS FROM t FROM db: the database. */
void plan_ddl_target_db(plan_parse *pp, const plan_token *db);
enum {
    PLAN_DDL_IF_EXISTS = 1,
    PLAN_DDL_IF_NOT_EXISTS,
    PLAN_DDL_FORCE,
    PLAN_DDL_ALL,
    PLAN_DDL_FULL,
    PLAN_DDL_OR_REPLACE
};
/* CREATE VIEW ... AS(as) select: the definition text from the statement (the select runs to the
 * end of the statement). */
void plan_ddl_view(plan_parse *pp, const plan_token *as);
/* CREATE TABLE ... AS select. */
void plan_ddl_ctas(plan_parse *pp);
void plan_ddl_flag(plan_parse *pp, int flag);
/* "key" = "value" of PROPERTIES / SET. */
void plan_ddl_prop(plan_parse *pp, const plan_token *key, const plan_token *value);
/* One identifier of a column list (KEY(...), HASH(...), PARTITION BY RANGE(...), ...). */
void plan_ddl_name(plan_parse *pp, const plan_token *name);
/* A column definition: its name starts it; attributes apply to the last one started. */
void plan_ddl_col_begin(plan_parse *pp, const plan_token *name);
void plan_ddl_col_type(plan_parse *pp, const cat_type *t);
void plan_ddl_col_null(plan_parse *pp, bool nullable);
/* DEFAULT: v the literal token (STRING, number, NULL, CURRENT_TIMESTAMP ...); neg: written
 * with a leading minus; prec: CURRENT_TIMESTAMP(prec) or NULL. */
void plan_ddl_col_default(plan_parse *pp, const plan_token *v, bool neg, const plan_token *prec);
void plan_ddl_col_autoinc(plan_parse *pp, const plan_token *start);
void plan_ddl_col_comment(plan_parse *pp, const plan_token *c);
/* Column attribute PRIMARY KEY (primary) or UNIQUE [KEY] (a unique index: not enforced). */
void plan_ddl_col_key(plan_parse *pp, bool primary);
/* Column attribute CHARACTER SET x / COLLATE x (collation): ignored, with a warning unless it
 * is utf8 / utf8mb3 / utf8mb4 or a utf8 binary collation (what Rivulet stores and compares). */
void plan_ddl_col_charset(plan_parse *pp, const plan_token *c, bool collation);
/* MySQL table option name = value (name upper case or as written): ignored with a warning,
 * except CHARSET utf8 / utf8mb3 / utf8mb4, utf8 *_bin collations (what Rivulet stores anyway)
 * and AUTO_INCREMENT = n (the start of the AUTO_INCREMENT column). */
void plan_ddl_table_option(plan_parse *pp, const char *name, const plan_token *value);
/* A secondary index (KEY / INDEX / UNIQUE ... inside CREATE TABLE, CREATE / DROP INDEX) over
 * the pending names: accepted, not built; name may be NULL. */
void plan_ddl_index(plan_parse *pp, const plan_token *name, bool unique);
/* Options of the index being parsed: USING word, COMMENT '..', PROPERTIES (the pending ones). */
void plan_ddl_index_using(plan_parse *pp, const plan_token *word);
void plan_ddl_index_comment(plan_parse *pp, const plan_token *c);
void plan_ddl_index_props(plan_parse *pp);
/* An aggregation type word (SUM, MIN, MAX, REPLACE, ...); another word is a syntax error. */
void plan_ddl_col_agg(plan_parse *pp, const plan_token *word);
/* A column type: word with up to two numeric arguments, or with element types (ARRAY<..>,
 * MAP<..,..>). An unknown word is a syntax error at it. Result in the statement arena. */
cat_type *plan_ddl_type(plan_parse *pp, const plan_token *word, const plan_token *a1,
                        const plan_token *a2);
cat_type *plan_ddl_type_nested(plan_parse *pp, const plan_token *word, const cat_type *e1,
                               const cat_type *e2);
/* Table clauses: the pending names become key / cluster / partition / distribution columns. */
void plan_ddl_keys(plan_parse *pp, cat_keys keys);
void plan_ddl_primary_key(plan_parse *pp);
/* [CONSTRAINT [name]] FOREIGN KEY (pending names) REFERENCES table (...) [ON ...]: accepted,
 * not enforced (a warning naming the columns and table). */
void plan_ddl_foreign_key(plan_parse *pp, const plan_token *table);
/* [CONSTRAINT [name]] CHECK (expr) [[NOT] ENFORCED]: accepted, not enforced (a warning). */
void plan_ddl_check(plan_parse *pp);
/* The word after CHECK (...) [NOT]: ENFORCED, else a syntax error at it. */
void plan_ddl_enforced(plan_parse *pp, const plan_token *word, bool negated);
/* Column attribute UNSIGNED (zerofill: ZEROFILL, which implies it): the integer type widens
 * when the column's type is set (TINYINT -> SMALLINT -> INT -> BIGINT -> LARGEINT; an
 * AUTO_INCREMENT BIGINT stays BIGINT), with a warning; other types keep theirs. */
void plan_ddl_col_unsigned(plan_parse *pp, bool zerofill);
/* Column attribute ON UPDATE CURRENT_TIMESTAMP[(n)]: accepted, not maintained (a warning). */
void plan_ddl_col_on_update(plan_parse *pp);
void plan_ddl_cluster(plan_parse *pp);
void plan_ddl_comment(plan_parse *pp, const plan_token *c);
void plan_ddl_engine(plan_parse *pp, const plan_token *e);
void plan_ddl_part_by(plan_parse *pp, cat_part_type type);
/* A partition value (v NULL = MAXVALUE); neg: written with a leading minus. */
void plan_ddl_value(plan_parse *pp, const plan_token *v, bool neg);
/* PARTITION name VALUES ...: takes the pending values. */
void plan_ddl_part(plan_parse *pp, const plan_token *name, cat_part_def_kind kind);
/* BUCKETS n of the last partition (ADD PARTITION ... DISTRIBUTED BY ... BUCKETS n). */
void plan_ddl_part_buckets(plan_parse *pp, const plan_token *n);
void plan_ddl_dist(plan_parse *pp, bool random);
/* BUCKETS n (NULL = AUTO). */
void plan_ddl_buckets(plan_parse *pp, const plan_token *n);
void plan_ddl_like(plan_parse *pp, const plan_token *db, const plan_token *name);
/* ADD / MODIFY COLUMN ... AFTER c | FIRST. */
void plan_ddl_colpos(plan_parse *pp, const plan_token *after, bool first);
/* One ALTER TABLE clause; takes the pending columns / properties / names / partition.
 * n1, n2: the clause's identifiers or strings (see plan_alter_cmd). */
void plan_ddl_alter(plan_parse *pp, cat_alter_op op, const plan_token *n1, const plan_token *n2,
                    const char *what);
/* TEMPORARY: the next ALTER clause (ADD / DROP / REPLACE PARTITION) or SHOW PARTITIONS is about
 * temporary partitions; the names collected so far are REPLACE's formal ones. */
void plan_ddl_temp(plan_parse *pp);

/* ---- execution (plan_ddl.c, plan_show.c) ---- */

/* Run a PS_DDL statement. */
int plan__exec_ddl(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                   db_error *err);
/* SHOW CREATE DATABASE / TABLE, DESC, SHOW COLUMNS / PARTITIONS / TABLE STATUS (plan_show.c);
 * with cx->describe only the columns. */
int plan__show_ddl(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err);
/* SHOW DATABASES / SHOW [FULL] TABLES over the catalog (plan_show.c). */
int plan__show_catalog(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err);
/* True when database db exists (the catalog's, information_schema in any case, or mysql);
 * *canon gets its spelling in the arena a (may be NULL). */
bool plan__db_exists(plan_server *srv, const char *db, arena *a, const char **canon);
/* The information_schema provider over the durable catalog: replaces the databases, tables and
 * columns callbacks of cv (filled by plan__catalog_builtin) with ones reading m. */
void plan__catalog_meta(plan_catalog_view *cv, cat_meta *m);
/* information_schema.table_streams / table_stream_consumption rows (plan_stream.c). */
void plan__catalog_streams(plan_catalog_view *cv, plan_server *srv);
/* A stream's virtual columns (__DORIS_STREAM_SEQUENCE_COL__, _CHANGE_TYPE_COL__, _LSN_COL__)
 * as information_schema.COLUMNS rows, in DESC's order and types (plan_show.c). */
void plan__stream_vcolumn_info(arena *a, plan_cat_column **cols, size_t *n);
/* The columns of catalog table db.name as COM_FIELD_LIST reports them (a stream: its base
 * table's), in a. Some privilege on the table first (1142), then ER_NO_SUCH_TABLE when it
 * does not exist. */
int plan__meta_field_list(plan_session *s, const char *db, const char *table, const char *wildcard,
                          arena *a, plan_column **cols, size_t *ncols, db_error *err);

#endif /* PLANNER_PLAN_DDL_INT_H */
