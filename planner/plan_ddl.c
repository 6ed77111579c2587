/* SPDX-License-Identifier: Apache-2.0
 * plan_ddl.c: runs the DDL statements (PS_DDL) against the durable catalog: CREATE / DROP /
 * ALTER DATABASE, CREATE TABLE [LIKE], DROP TABLE, ALTER TABLE. Requests are built from the
 * plan_ddl in the statement arena and handed to cat_meta_*, which validates (Doris's rules and
 * messages), logs the change durably and publishes it; its errors go to the client unchanged.
 * The SHOW statements are in plan_show.c. See README.md §DDL. */
#include "planner/plan_ddl_int.h"
#include "planner/plan_dml_int.h"
#include "planner/plan_exec_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/mem.h"

static int resolve_db(plan_ectx *cx, const plan_ddl *d, const char **db, db_error *err);
static bool is_builtin_db(const char *db);
static int exec_create_db(plan_ectx *cx, plan_ddl *d, db_error *err);
static int exec_drop_db(plan_ectx *cx, plan_ddl *d, db_error *err);
static int exec_alter_db(plan_ectx *cx, plan_ddl *d, db_error *err);
static int exec_create_table(plan_ectx *cx, plan_ddl *d, db_error *err);
static int map_primary_key(plan_ectx *cx, plan_ddl *d, db_error *err);
static bool set_auto_inc_start(plan_ddl *d, int64_t start);
static void give_notes(plan_ectx *cx, const plan_ddl *d);
static void warn_mysql_drops(plan_ectx *cx, const plan_ddl *d, const bool *stored);
static int exec_index(plan_ectx *cx, plan_ddl *d, db_error *err);
static int check_index_cols(const cat_table *t, const char *const *cols, size_t n, db_error *err);
static int exec_drop_table(plan_ectx *cx, plan_ddl *d, db_error *err);
static int exec_create_view(plan_ectx *cx, const plan_stmt *st, plan_ddl *d, db_error *err);
static int exec_drop_view(plan_ectx *cx, plan_ddl *d, db_error *err);
static int exec_ctas(plan_ectx *cx, const plan_stmt *st, plan_ddl *d, plan_outcome *out,
                     db_error *err);
static int exec_alter_table(plan_ectx *cx, plan_ddl *d, db_error *err);
static int alter_edit(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err);
static int alter_one(cat_catalog *c, cat_db *db, cat_table *t, const plan_alter_cmd *cmd,
                     db_error *err);
static void props_of(const plan_ddl *d, cat_props *out);
static int exec_truncate(plan_ectx *cx, plan_ddl *d, db_error *err);
static int truncate_edit(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err);
static int exec_recover(plan_ectx *cx, plan_ddl *d, db_error *err);
static int exec_replace_table(plan_ectx *cx, plan_ddl *d, const char *db, db_error *err);

/* information_schema and mysql are built in: no DDL on them. */
static bool
is_builtin_db(const char *db)
{
    return strcasecmp(db, "information_schema") == 0 || strcmp(db, "mysql") == 0;
}

/* The statement's database: its qualifier, else the session's (ER_NO_DB_ERROR without one). */
static int
resolve_db(plan_ectx *cx, const plan_ddl *d, const char **db, db_error *err)
{
    *db = d->db ? d->db : cx->s->db;
    if (*db == NULL) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    return DB_OK;
}

/* resolve_db, then the privilege priv on db.<the statement's table>. */
static int
resolve_db_priv(plan_ectx *cx, const plan_ddl *d, uint32_t priv, const char **db, db_error *err)
{
    if (resolve_db(cx, d, db, err) != DB_OK) {
        return DB_ERR;
    }
    return plan__check_priv(cx, priv, *db, d->name, err);
}

/* PROPERTIES of the statement as a cat_props (heap; caller destroys). */
static void
props_of(const plan_ddl *d, cat_props *out)
{
    cat_props_init(out);
    for (size_t i = 0; i < d->nprops; i++) {
        cat_props_set(out, d->props[i].key, d->props[i].value);
    }
}

/* ---- databases ---- */

static int
exec_create_db(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    if (plan__check_priv(cx, CAT_PRIV_CREATE, d->name, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    if (is_builtin_db(d->name)) {
        if (d->if_not_exists) {
            return DB_OK;
        }
        return db_error_set(err, ER_DB_CREATE_EXISTS, d->name);
    }
    cat_props props;
    props_of(d, &props);
    int rc = cat_meta_create_db(cx->s->srv->meta, d->name, d->if_not_exists, &props, err);
    cat_props_destroy(&props);
    return rc;
}

static int
exec_drop_db(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    if (plan__check_priv(cx, CAT_PRIV_DROP, d->name, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    if (strcmp(d->name, "mysql") == 0) {
        return db_error_set(err, ER_DORIS, "Can not drop database mysql");
    }
    /* FORCE skips Doris's recycle bin: the database and its tables are gone for good; without
     * it they wait in the bin for RECOVER DATABASE. Streams in the database go with it once
     * streams exist (stream issue). */
    int rc = d->force ? cat_meta_drop_db(cx->s->srv->meta, d->name, d->if_exists, err)
                      : cat_meta_recycle_db(cx->s->srv->meta, d->name, d->if_exists, err);
    if (rc == DB_OK && cx->s->db && strcmp(cx->s->db, d->name) == 0) {
        mem_free(cx->s->db); /* MySQL: dropping the current database leaves none selected */
        cx->s->db = NULL;
    }
    return rc;
}

static int
exec_alter_db(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    if (plan__check_priv(cx, CAT_PRIV_ALTER, d->name, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    cat_props props;
    props_of(d, &props);
    int rc = cat_meta_alter_db(cx->s->srv->meta, d->name, &props, err);
    cat_props_destroy(&props);
    return rc;
}

/* ---- tables ---- */

static int
exec_create_table(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    const char *db;
    if (resolve_db_priv(cx, d, CAT_PRIV_CREATE, &db, err) != DB_OK) {
        return DB_ERR;
    }
    if (is_builtin_db(db)) {
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a, "Can not create table in database %s", db));
    }
    /* LIKE copies the source's definition: SELECT_PRIV on it, as MySQL (1142). */
    if (d->req.like_table &&
        plan__check_priv(cx, CAT_PRIV_SELECT, d->req.like_db ? d->req.like_db : db,
                         d->req.like_table, err) != DB_OK) {
        return DB_ERR;
    }
    if (d->req.like_table && d->req.like_db && is_builtin_db(d->req.like_db)) {
        return db_error_set(err, ER_NO_SUCH_TABLE, d->req.like_db, d->req.like_table);
    }
    cat_create_table_req *r = &d->req;
    r->db = db;
    r->name = d->name;
    r->if_not_exists = d->if_not_exists;
    r->cols = d->cols;
    r->ncols = d->ncols;
    r->parts = d->parts;
    r->nparts = d->nparts;
    r->props = d->props;
    r->nprops = d->nprops;
    r->indexes = d->idx_defs;
    r->nindexes = d->nidx_defs;
    if (r->has_dist && !d->buckets_given) {
        r->buckets_auto = true;
    }
    if (!r->has_dist) {
        r->buckets_auto = true;
    }
    if (map_primary_key(cx, d, err) != DB_OK) {
        return DB_ERR;
    }
    r->cols = d->cols;
    if (d->primary_key) {
        /* PRIMARY KEY (...) is a merge-on-write UNIQUE KEY; without DISTRIBUTED BY it hashes
         * on the key columns. */
        if (!r->has_dist) {
            r->has_dist = true;
            r->dist_cols = r->key_cols;
            r->ndist_cols = r->nkey_cols;
        }
    }
    bool ai_unused = d->auto_inc_opt > 0 && !set_auto_inc_start(d, d->auto_inc_opt);
    if (cat_meta_create_table(cx->s->srv->meta, r, err) != DB_OK) {
        return DB_ERR;
    }
    if (d->engine && strcasecmp(d->engine, "olap") != 0) {
        /* MySQL scripts say ENGINE=InnoDB: the table is an OLAP table all the same (MySQL's
         * ER_WARN_USING_OTHER_HANDLER when it substitutes an engine). */
        plan__warn(cx->s, 1266, "Using storage engine OLAP for table '%s'", d->name);
    }
    if (ai_unused) { /* AUTO_INCREMENT = n without an AUTO_INCREMENT column means nothing */
        plan__warn(cx->s, 1478,
                   "Table storage engine 'OLAP' does not support the create option "
                   "'AUTO_INCREMENT=%" PRId64 "'",
                   d->auto_inc_opt);
    }
    give_notes(cx, d);
    return DB_OK;
}

/* The warnings the parser collected (ignored options, unbuilt indexes). */
static void
give_notes(plan_ectx *cx, const plan_ddl *d)
{
    for (size_t i = 0; i < d->nnotes; i++) {
        plan__warn(cx->s, d->notes[i].code, "%s", d->notes[i].msg);
    }
}

/* AUTO_INCREMENT = n table option: the start of the AUTO_INCREMENT column. False without one. */
static bool
set_auto_inc_start(plan_ddl *d, int64_t start)
{
    for (size_t i = 0; i < d->ncols; i++) {
        if (d->cols[i].auto_inc) {
            d->cols[i].auto_inc_start = start;
            return true;
        }
    }
    return false;
}

/* MySQL's PRIMARY KEY (table or column level) as Doris's merge-on-write UNIQUE KEY. Doris wants
 * the key columns first, in key order: they are moved there and the other columns keep their
 * order (Doris itself refuses such a table; a MySQL script expects it to work). Key columns are
 * NOT NULL unless declared NULL (MySQL implies NOT NULL). Unknown or repeated key columns are
 * left for the catalog to report. */
static int
map_primary_key(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    cat_create_table_req *r = &d->req;
    if (d->ncol_pk > 0) {
        if (d->ncol_pk > 1 || d->primary_key) {
            return db_error_set(err, ER_DORIS, "Multiple primary key defined");
        }
        d->primary_key = true;
        r->has_keys = true;
        r->keys_type = CAT_KEYS_UNIQUE;
        r->key_cols = d->col_pk;
        r->nkey_cols = d->ncol_pk;
    }
    if (!d->primary_key) {
        return DB_OK;
    }
    cat_column_def *cols = arena_calloc(cx->a, d->ncols ? d->ncols : 1, sizeof *cols);
    bool *used = arena_calloc(cx->a, d->ncols ? d->ncols : 1, sizeof *used);
    size_t k = 0;
    for (size_t i = 0; i < r->nkey_cols; i++) {
        size_t j = 0;
        while (j < d->ncols && (used[j] || strcasecmp(d->cols[j].name, r->key_cols[i]) != 0)) {
            j++;
        }
        if (j == d->ncols) {
            return DB_OK; /* the catalog names the bad key column */
        }
        used[j] = true;
        cols[k] = d->cols[j];
        if (!cols[k].null_given) {
            cols[k].null_given = true;
            cols[k].nullable = false;
        }
        k++;
    }
    for (size_t j = 0; j < d->ncols; j++) {
        if (!used[j]) {
            cols[k++] = d->cols[j];
        }
    }
    d->cols = cols;
    return DB_OK;
}

/* Every column of an index exists in t (MySQL's ER_KEY_COLUMN_DOES_NOT_EXITS text). */
static int
check_index_cols(const cat_table *t, const char *const *cols, size_t n, db_error *err)
{
    for (size_t i = 0; i < n; i++) {
        if (cat_table_column(t, cols[i]) == NULL) {
            char msg[300];
            snprintf(msg, sizeof msg, "Key column '%s' doesn't exist in table", cols[i]);
            return db_error_set(err, ER_DORIS, msg);
        }
    }
    return DB_OK;
}

/* CREATE [UNIQUE] INDEX i ON t (cols) / DROP INDEX i ON t / BUILD INDEX i ON t: Doris indexes
 * are stored (plan_ddl_index.c); MySQL ones need the table (and the columns) and build or drop
 * nothing, a warning says so (README.md §DDL). */
static int
exec_index(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    const char *db;
    if (resolve_db_priv(cx, d, CAT_PRIV_ALTER, &db, err) != DB_OK) {
        return DB_ERR;
    }
    bool done = false;
    int rc = plan__exec_index(cx, d, db, &done, err);
    if (rc != DB_OK || done) {
        return rc;
    }
    const cat_catalog *c = cat_meta_read_begin(cx->s->srv->meta);
    const cat_db *cdb = cat_db_find(c, db);
    const cat_table *t = cdb ? cat_table_find(cdb, d->name) : NULL;
    if (t == NULL) {
        rc = db_error_set(err, ER_NO_SUCH_TABLE, db, d->name);
    }
    if (rc == DB_OK && d->kind == PD_CREATE_INDEX) {
        rc = check_index_cols(t, d->idx_cols, d->nidx_cols, err);
    }
    for (size_t i = 0; rc == DB_OK && i < d->ncmds; i++) { /* ALTER TABLE ... ADD INDEX */
        if (d->cmds[i].op == CAT_ALTER_CREATE_INDEX) {
            rc = check_index_cols(t, d->cmds[i].names, d->cmds[i].nnames, err);
        }
    }
    cat_meta_read_end(cx->s->srv->meta);
    if (rc != DB_OK) {
        return DB_ERR;
    }
    if (d->kind == PD_DROP_INDEX) {
        plan__warn(cx->s, 1478,
                   "Table storage engine 'OLAP' does not support the create option "
                   "'DROP INDEX %s'",
                   d->idx_name);
        return DB_OK;
    }
    give_notes(cx, d);
    warn_mysql_drops(cx, d, NULL);
    return DB_OK;
}

/* ALTER TABLE ... DROP {INDEX|KEY} k of a MySQL key (never stored; stored[i] false, or every
 * DROP when stored is NULL): the warning of an ignored clause. */
static void
warn_mysql_drops(plan_ectx *cx, const plan_ddl *d, const bool *stored)
{
    for (size_t i = 0; i < d->ncmds; i++) {
        if (d->cmds[i].op == CAT_ALTER_DROP_INDEX && (stored == NULL || !stored[i])) {
            plan__warn(cx->s, 1478,
                       "Table storage engine 'OLAP' does not support the create option "
                       "'DROP INDEX %s'",
                       d->cmds[i].name);
        }
    }
}

static int
exec_drop_table(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    const char *db;
    if (resolve_db_priv(cx, d, CAT_PRIV_DROP, &db, err) != DB_OK) {
        return DB_ERR;
    }
    if (is_builtin_db(db)) {
        return db_error_set(err, ER_BAD_TABLE_ERROR, d->name);
    }
    if (plan__view_sql(cx, db, d->name, NULL)) { /* MySQL: DROP TABLE does not drop views */
        return db_error_set(err, ER_BAD_TABLE_ERROR, arena_sprintf(cx->a, "%s.%s", db, d->name));
    }
    /* Decision R7: a stream of this name is refused before the table lookup. FORCE skips the
     * recycle bin (RECOVER TABLE brings a binned table back). */
    if (plan__is_stream(cx, db, d->name)) {
        return db_error_set(
                err, ER_DORIS,
                arena_sprintf(cx->a, "'%s' is a STREAM, use DROP STREAM instead", d->name));
    }
    if (d->force) {
        return cat_meta_drop_table(cx->s->srv->meta, db, d->name, d->if_exists, err);
    }
    return cat_meta_recycle_table(cx->s->srv->meta, db, d->name, d->if_exists, err);
}

/* One ALTER TABLE clause applied to the private copy t of the table. */
static int
alter_one(cat_catalog *c, cat_db *db, cat_table *t, const plan_alter_cmd *cmd, db_error *err)
{
    bool schema_change = cmd->op == CAT_ALTER_ADD_COLUMN || cmd->op == CAT_ALTER_DROP_COLUMN ||
                         cmd->op == CAT_ALTER_MODIFY_COLUMN || cmd->op == CAT_ALTER_RENAME_COLUMN ||
                         cmd->op == CAT_ALTER_REORDER_COLUMNS;
    if (schema_change && t->ntmp_parts > 0) { /* Doris Alter.processAlterOlapTable */
        return db_error_set(err, ER_DORIS,
                            "Can not alter table when there are temp partitions in table");
    }
    switch (cmd->op) {
    case CAT_ALTER_ADD_COLUMN: {
        const char *after = cmd->after;
        for (size_t i = 0; i < cmd->ncols; i++) {
            if (cat_table_add_column(t, &cmd->cols[i], after, cmd->first && i == 0, err) != DB_OK) {
                return DB_ERR;
            }
            if (after || cmd->first) {
                after = cmd->cols[i].name; /* ADD COLUMN (a, b) AFTER x keeps their order */
            }
        }
        return DB_OK;
    }
    case CAT_ALTER_DROP_COLUMN:
        return cat_table_drop_column(t, cmd->name, err);
    case CAT_ALTER_RENAME_COLUMN:
        return cat_table_rename_column(t, cmd->name, cmd->name2, err);
    case CAT_ALTER_RENAME_TABLE:
        if (cat_alter_check(t, cmd->op, err) != DB_OK) {
            return DB_ERR;
        }
        return cat_table_rename(db, t, cmd->name, err);
    case CAT_ALTER_ADD_PARTITION:
        if (cat_alter_check(t, cmd->op, err) != DB_OK ||
            cat_partition_props_check(cmd->props, cmd->nprops, err) != DB_OK) {
            return DB_ERR;
        }
        if (cmd->temp) {
            return cat_table_add_tmp_partition(c, t, &cmd->part, err);
        }
        return cat_table_add_partition(c, t, &cmd->part, err);
    case CAT_ALTER_DROP_PARTITION:
        if (cat_alter_check(t, cmd->op, err) != DB_OK) {
            return DB_ERR;
        }
        if (cmd->temp) {
            return cat_table_drop_tmp_partition(t, cmd->name, cmd->if_exists, err);
        }
        return cat_table_drop_partition(t, cmd->name, cmd->if_exists, err);
    case CAT_ALTER_REPLACE_PARTITION: /* allowed on Row Binlog tables (seed 001) */
        if (cat_alter_check(t, cmd->op, err) != DB_OK) {
            return DB_ERR;
        }
        return cat_table_replace_partitions(t, cmd->names, cmd->nformal, cmd->names + cmd->nformal,
                                            cmd->nnames - cmd->nformal, cmd->props, cmd->nprops,
                                            err);
    case CAT_ALTER_SET_PROPERTIES:
        if (cat_alter_check(t, cmd->op, err) != DB_OK) {
            return DB_ERR;
        }
        return cat_table_set_properties(db, t, cmd->props, cmd->nprops, err);
    case CAT_ALTER_MODIFY_COMMENT:
        if (cat_alter_check(t, cmd->op, err) != DB_OK) {
            return DB_ERR;
        }
        cat_table_set_comment(t, cmd->comment);
        return DB_OK;
    case CAT_ALTER_MODIFY_COLUMN_COMMENT: {
        if (cat_alter_check(t, cmd->op, err) != DB_OK) {
            return DB_ERR;
        }
        cat_column *col = cat_table_column(t, cmd->name);
        if (col == NULL) {
            return db_error_set(err, ER_DORIS,
                                "Column does not exist"); /* Doris: unknown column in MODIFY */
        }
        mem_free(col->comment); /* the copy's heap string (cat_column.comment) */
        col->comment = mem_strdup(cmd->comment ? cmd->comment : "");
        return DB_OK;
    }
    case CAT_ALTER_RENAME_PARTITION:
        return cat_table_rename_partition(t, cmd->name, cmd->name2, err);
    case CAT_ALTER_MODIFY_PARTITION:
        return cat_table_modify_partition(t, cmd->name, cmd->props, cmd->nprops, err);
    case CAT_ALTER_MODIFY_COLUMN:
        if (cmd->ncols != 1) {
            return db_error_set(err, ER_NOT_SUPPORTED_YET, cmd->what);
        }
        return cat_table_modify_column(t, &cmd->cols[0], cmd->after, cmd->first, err);
    case CAT_ALTER_REORDER_COLUMNS:
        return cat_table_reorder_columns(t, cmd->names, cmd->nnames, err);
    case CAT_ALTER_CREATE_INDEX: /* MySQL ADD INDEX: checked, not built (README.md §DDL) */
        if (cmd->doris_idx) {
            return plan__alter_index(t, cmd, err);
        }
        return check_index_cols(t, cmd->names, cmd->nnames, err);
    case CAT_ALTER_DROP_INDEX:
    case CAT_ALTER_BUILD_INDEX:
        return plan__alter_index(t, cmd, err);
    case CAT_ALTER_ENABLE_FEATURE:
        return cat_table_enable_feature(t, cmd->name, cmd->props, cmd->nprops, err);
    case CAT_ALTER_REPLACE_TABLE:
        /* Only alone (exec_alter_table): it changes two tables in one record. */
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "REPLACE WITH TABLE with other clauses");
    default:
        /* BUILD INDEX: a Row Binlog table refuses the forbidden ones with
         * Doris's message first; the rest are not implemented yet. */
        if (cat_alter_check(t, cmd->op, err) != DB_OK) {
            return DB_ERR;
        }
        return db_error_set(err, ER_NOT_SUPPORTED_YET, cmd->what);
    }
}

/* cat_table_edit_fn: every clause in order on the copy; the first error abandons them all. */
static int
alter_edit(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    const plan_ddl *d = arg;
    for (size_t i = 0; i < d->ncmds; i++) {
        if (alter_one(c, db, t, &d->cmds[i], err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

static int
exec_alter_table(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    const char *db;
    if (resolve_db_priv(cx, d, CAT_PRIV_ALTER, &db, err) != DB_OK) {
        return DB_ERR;
    }
    if (is_builtin_db(db)) {
        return db_error_set(err, ER_NO_SUCH_TABLE, db, d->name);
    }
    if (plan__view_sql(cx, db, d->name, NULL)) {
        return db_error_set(err, ER_WRONG_OBJECT, db, d->name, "BASE TABLE");
    }
    if (plan__is_stream(cx, db, d->name)) { /* Doris #67471 */
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a, "Do not support alter STREAM table[%s]", d->name));
    }
    if (d->ncmds == 1 && d->cmds[0].op == CAT_ALTER_REPLACE_TABLE) {
        return exec_replace_table(cx, d, db, err);
    }
    if (d->ncmds == 1 && d->cmds[0].op == CAT_ALTER_BUILD_INDEX) { /* checks only: no record */
        return plan__build_index_check(cx, db, d->name, d->cmds[0].name, NULL, 0, err);
    }
    /* MySQL keys change nothing: only their checks and warnings, no record. Doris indexes
     * (ADD INDEX ... USING INVERTED, DROP INDEX of a stored one) change the table. */
    bool only_indexes = true;
    bool *stored = arena_alloc(cx->a, (d->ncmds ? d->ncmds : 1) * sizeof *stored);
    for (size_t i = 0; i < d->ncmds; i++) {
        const plan_alter_cmd *cmd = &d->cmds[i];
        stored[i] = cmd->op == CAT_ALTER_DROP_INDEX &&
                    plan__index_is_stored(cx, db, d->name, cmd->name);
        only_indexes &= (cmd->op == CAT_ALTER_CREATE_INDEX && !cmd->doris_idx) ||
                        (cmd->op == CAT_ALTER_DROP_INDEX && !stored[i]);
    }
    if (only_indexes) { /* nothing changes: no record, only the checks and the warnings */
        return exec_index(cx, d, err);
    }
    if (cat_meta_alter_table(cx->s->srv->meta, db, d->name, alter_edit, d, err) != DB_OK) {
        return DB_ERR;
    }
    give_notes(cx, d);
    warn_mysql_drops(cx, d, stored);
    return DB_OK;
}

/* ALTER TABLE t REPLACE WITH TABLE t2 [PROPERTIES ("swap" = "true" | "false")]. */
static int
exec_replace_table(plan_ectx *cx, plan_ddl *d, const char *db, db_error *err)
{
    const plan_alter_cmd *cmd = &d->cmds[0];
    bool swap;
    if (plan__check_priv(cx, CAT_PRIV_ALTER, db, cmd->name, err) != DB_OK ||
        cat_replace_swap_prop(cmd->props, cmd->nprops, &swap, err) != DB_OK) {
        return DB_ERR;
    }
    return cat_meta_replace_table(cx->s->srv->meta, db, d->name, cmd->name, swap, err);
}

/* cat_table_edit_fn of TRUNCATE: the pending partition names (none = all). */
static int
truncate_edit(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    const plan_ddl *d = arg;
    (void)db;
    return cat_table_truncate(c, t, d->names, d->nnames, err);
}

/* TRUNCATE TABLE t [PARTITION (p, ...)]: the catalog half (new partition ids, durable);
 * dropping the rows comes with storage (issue 4). */
static int
exec_truncate(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    const char *db;
    if (resolve_db_priv(cx, d, CAT_PRIV_LOAD, &db, err) != DB_OK) {
        return DB_ERR;
    }
    if (is_builtin_db(db)) {
        return db_error_set(err, ER_NO_SUCH_TABLE, db, d->name);
    }
    if (plan__view_sql(cx, db, d->name, NULL) || plan__is_stream(cx, db, d->name)) {
        return db_error_set(err, ER_WRONG_OBJECT, db, d->name, "BASE TABLE");
    }
    return cat_meta_alter_table(cx->s->srv->meta, db, d->name, truncate_edit, d, err);
}

/* RECOVER TABLE [db.]t / RECOVER DATABASE d. */
static int
exec_recover(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    if (d->kind == PD_RECOVER_DB) {
        if (plan__check_priv(cx, CAT_PRIV_CREATE, d->name, NULL, err) != DB_OK) {
            return DB_ERR;
        }
        return cat_meta_recover_db(cx->s->srv->meta, d->name, err);
    }
    const char *db;
    if (resolve_db_priv(cx, d, CAT_PRIV_CREATE, &db, err) != DB_OK) {
        return DB_ERR;
    }
    if (is_builtin_db(db)) {
        return db_error_set(err, ER_UNKNOWN_TABLE_IN, d->name, db);
    }
    return cat_meta_recover_table(cx->s->srv->meta, db, d->name, err);
}

/* ---- dispatch ---- */

int
plan__exec_ddl(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
               db_error *err)
{
    plan_ddl *d = st->ddl;
    DB_ASSERT(d != NULL);
    switch (d->kind) {
    case PD_CREATE_STREAM:
    case PD_ALTER_STREAM:
    case PD_DROP_STREAM:
    case PD_SHOW_STREAMS:
    case PD_SHOW_CREATE_STREAM:
    case PD_SHOW_STREAM_STATUS:
        return plan__exec_stream_ddl(cx, st, sink, out, err);
    case PD_SHOW_CREATE_DB:
    case PD_SHOW_CREATE_TABLE:
    case PD_SHOW_CREATE_VIEW:
    case PD_DESC:
    case PD_SHOW_COLUMNS:
    case PD_SHOW_PARTITIONS:
    case PD_SHOW_TABLE_STATUS:
    case PD_SHOW_TABLETS:
    case PD_SHOW_INDEX:
    case PD_SHOW_BUILD_INDEX:
        if (plan__show_ddl(cx, st, sink, err) != DB_OK) {
            return DB_ERR;
        }
        out->is_result_set = true;
        return DB_OK;
    case PD_SHOW_BACKENDS:
    case PD_SHOW_FRONTENDS:
    case PD_SHOW_CATALOGS:
    case PD_SHOW_DATA:
    case PD_SHOW_FE_CONFIG:
    case PD_SHOW_BE_CONFIG:
    case PD_SHOW_TABLET:
    case PD_SHOW_PROC:
        return plan__show_doris(cx, st, sink, out, err); /* plan_show_doris.c */
    default:
        break;
    }
    if (cx->describe) {
        return DB_OK; /* prepared DDL: nothing to describe, nothing run */
    }
    switch (d->kind) {
    case PD_CREATE_DB:
        return exec_create_db(cx, d, err);
    case PD_DROP_DB:
        return exec_drop_db(cx, d, err);
    case PD_ALTER_DB:
        return exec_alter_db(cx, d, err);
    case PD_CREATE_TABLE:
        if (d->ctas) {
            return exec_ctas(cx, st, d, out, err);
        }
        return exec_create_table(cx, d, err);
    case PD_CREATE_VIEW:
        return exec_create_view(cx, st, d, err);
    case PD_DROP_VIEW:
        return exec_drop_view(cx, d, err);
    case PD_DROP_TABLE:
        return exec_drop_table(cx, d, err);
    case PD_ALTER_TABLE:
        return exec_alter_table(cx, d, err);
    case PD_TRUNCATE:
        return exec_truncate(cx, d, err);
    case PD_RECOVER_TABLE:
    case PD_RECOVER_DB:
        return exec_recover(cx, d, err);
    case PD_CREATE_INDEX:
    case PD_DROP_INDEX:
    case PD_BUILD_INDEX:
        return exec_index(cx, d, err);
    default:
        DB_ASSERT(!"unreachable");
        return DB_ERR;
    }
}

/* ---- views and CREATE TABLE ... AS SELECT ---- */

bool
plan__view_sql(plan_ectx *cx, const char *db, const char *name, const char **sql)
{
    cat_meta *m = cx->s->srv->meta;
    if (db == NULL) {
        return false;
    }
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_db *d = cat_db_find(c, db);
    const cat_table *t = d ? cat_table_find(d, name) : NULL;
    bool is_view = t != NULL && t->view_sql != NULL;
    if (is_view && sql) {
        *sql = arena_strdup(cx->a, t->view_sql);
    }
    cat_meta_read_end(m);
    return is_view;
}

/* The select of the statement described (nothing runs) with db as the current database, as
 * a view's body is resolved (in the view's database). */
static int
describe_select(plan_ectx *cx, const plan_stmt *st, const char *db, plan_expr ***ex,
                plan_column **cols, uint32_t *n, db_error *err)
{
    plan_session *s = cx->s;
    char *saved_db = s->db;
    bool saved_describe = cx->describe;
    s->db = (char *)db;
    cx->describe = true;
    plan_op *root = NULL;
    int rc = plan__select_build_x(cx, st, &root, ex, cols, n, err);
    cx->describe = saved_describe;
    s->db = saved_db;
    return rc;
}

static int
exec_create_view(plan_ectx *cx, const plan_stmt *st, plan_ddl *d, db_error *err)
{
    const char *db;
    if (resolve_db_priv(cx, d, CAT_PRIV_CREATE, &db, err) != DB_OK) {
        return DB_ERR;
    }
    if (is_builtin_db(db)) {
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a, "Can not create view in database %s", db));
    }
    plan_expr **ex;
    plan_column *cols;
    uint32_t n;
    if (describe_select(cx, st, db, &ex, &cols, &n, err) != DB_OK) {
        return DB_ERR;
    }
    if (d->nnames && d->nnames != n) {
        return db_error_set(err, ER_VIEW_WRONG_LIST);
    }
    for (uint32_t i = 0; i < n; i++) {
        const char *ni = d->nnames ? d->names[i] : cols[i].name;
        for (uint32_t k = 0; k < i; k++) {
            if (strcasecmp(d->nnames ? d->names[k] : cols[k].name, ni) == 0) {
                return db_error_set(err, ER_DUP_FIELDNAME, ni);
            }
        }
    }
    return cat_meta_create_view(cx->s->srv->meta, db, d->name, d->view_sql, d->or_replace, err);
}

static int
exec_drop_view(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    const char *db;
    if (resolve_db_priv(cx, d, CAT_PRIV_DROP, &db, err) != DB_OK) {
        return DB_ERR;
    }
    cat_meta *m = cx->s->srv->meta;
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_db *cdb = cat_db_find(c, db);
    const cat_table *t = cdb ? cat_table_find(cdb, d->name) : NULL;
    bool exists = t != NULL, is_view = t != NULL && t->view_sql != NULL;
    cat_meta_read_end(m);
    if (!exists) {
        if (d->if_exists) {
            return DB_OK;
        }
        return db_error_set(err, ER_BAD_TABLE_ERROR, arena_sprintf(cx->a, "%s.%s", db, d->name));
    }
    if (!is_view) {
        return db_error_set(err, ER_WRONG_OBJECT, db, d->name, "VIEW");
    }
    return cat_meta_drop_table(m, db, d->name, d->if_exists, err);
}

/* The catalog type of a result column (CTAS). */
static cat_type
ctas_type(const plan_xtype *t)
{
    switch (t->type) {
    case PLAN_TYPE_BOOLEAN:
        return cat_type_make(CAT_T_BOOLEAN);
    case PLAN_TYPE_TINYINT:
        return cat_type_make(t->is_unsigned ? CAT_T_SMALLINT : CAT_T_TINYINT);
    case PLAN_TYPE_SMALLINT:
        return cat_type_make(t->is_unsigned ? CAT_T_INT : CAT_T_SMALLINT);
    case PLAN_TYPE_INT:
        return cat_type_make(t->is_unsigned ? CAT_T_BIGINT : CAT_T_INT);
    case PLAN_TYPE_BIGINT:
        return cat_type_make(t->is_unsigned ? CAT_T_LARGEINT : CAT_T_BIGINT);
    case PLAN_TYPE_LARGEINT:
        return cat_type_make(CAT_T_LARGEINT);
    case PLAN_TYPE_FLOAT:
        return cat_type_make(CAT_T_FLOAT);
    case PLAN_TYPE_DOUBLE:
        return cat_type_make(CAT_T_DOUBLE);
    case PLAN_TYPE_DECIMAL: {
        cat_type c = cat_type_make(CAT_T_DECIMAL);
        c.precision = t->precision ? t->precision : 1;
        c.scale = t->scale > c.precision ? c.precision : t->scale;
        return c;
    }
    case PLAN_TYPE_DATE:
        return cat_type_make(CAT_T_DATE);
    case PLAN_TYPE_DATETIME: {
        cat_type c = cat_type_make(CAT_T_DATETIME);
        c.scale = t->scale <= 6 ? t->scale : 0;
        return c;
    }
    case PLAN_TYPE_CHAR:
    case PLAN_TYPE_VARCHAR:
        if (t->length >= 1 && t->length <= 65533) {
            return cat_type_varchar((int32_t)t->length);
        }
        return cat_type_make(CAT_T_STRING);
    case PLAN_TYPE_JSON:
        return cat_type_make(CAT_T_JSON);
    case PLAN_TYPE_ARRAY: {
        cat_type c = cat_type_make(CAT_T_ARRAY);
        memcpy(c.inner, t->elem, sizeof c.inner);
        c.inner[sizeof c.inner - 1] = '\0';
        return c;
    }
    default: /* NULL, TIME, STRING */
        return cat_type_make(CAT_T_STRING);
    }
}

int
plan__view_table(plan_ectx *cx, const char *db, const char *name, const char *view_sql,
                 cat_table *out, db_error *err)
{
    plan_stmt *vst;
    if (plan__parse(cx->a, view_sql, strlen(view_sql), false, false, false, &vst, err) != DB_OK) {
        return DB_ERR;
    }
    plan_expr **ex;
    plan_column *cols;
    uint32_t n;
    if (describe_select(cx, vst, db, &ex, &cols, &n, err) != DB_OK) {
        return DB_ERR;
    }
    const plan_ddl *d = vst->ddl;
    bool named = d && d->nnames == n;
    memset(out, 0, sizeof *out);
    out->name = arena_strdup(cx->a, name);
    out->keys = CAT_KEYS_DUP;
    out->ncols = n;
    out->cols = arena_calloc(cx->a, n ? n : 1, sizeof *out->cols);
    for (uint32_t i = 0; i < n; i++) {
        cat_column *c = &out->cols[i];
        c->uid = (int32_t)i + 1;
        c->name = arena_strdup(cx->a, named ? d->names[i] : cols[i].name);
        c->type = ctas_type(&ex[i]->t);
        c->nullable = ex[i]->t.nullable;
        c->agg = CAT_AGG_UNSET;
        c->comment = "";
    }
    return DB_OK;
}

/* CREATE TABLE t [(defs)] ... AS SELECT: the table from the select's columns (unless defined),
 * then INSERT INTO t SELECT ...; a failed insert drops the table again. */
static int
exec_ctas(plan_ectx *cx, const plan_stmt *st, plan_ddl *d, plan_outcome *out, db_error *err)
{
    const char *db;
    if (resolve_db(cx, d, &db, err) != DB_OK) {
        return DB_ERR;
    }
    plan_expr **ex;
    plan_column *cols;
    uint32_t n;
    if (describe_select(cx, st, cx->s->db, &ex, &cols, &n, err) != DB_OK) {
        return DB_ERR;
    }
    if (d->ncols == 0) {
        d->cols = arena_calloc(cx->a, n ? n : 1, sizeof *d->cols);
        d->cap_cols = n;
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t k = 0; k < i; k++) {
                if (strcasecmp(cols[k].name, cols[i].name) == 0) {
                    return db_error_set(err, ER_DUP_FIELDNAME, cols[i].name);
                }
            }
            cat_column_def *c = &d->cols[d->ncols++];
            c->name = cols[i].name;
            c->type = ctas_type(&ex[i]->t);
            c->null_given = true;
            c->nullable = true;
            c->auto_inc_start = 1;
            c->agg = CAT_AGG_UNSET;
        }
    } else if (d->ncols != n) {
        return db_error_set(err, ER_WRONG_VALUE_COUNT_ON_ROW, 1ULL);
    }
    cat_meta *m = cx->s->srv->meta;
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_db *cdb = cat_db_find(c, db);
    bool exists = cdb != NULL && cat_table_find(cdb, d->name) != NULL;
    cat_meta_read_end(m);
    if (exists && d->if_not_exists) {
        return DB_OK;
    }
    if (exec_create_table(cx, d, err) != DB_OK) {
        return DB_ERR;
    }
    plan_stmt ins = *st;
    ins.kind = PS_INSERT;
    ins.ddl = NULL;
    ins.dml_select = true;
    memset(&ins.dml_table, 0, sizeof ins.dml_table);
    ins.dml_table.db = db;
    ins.dml_table.name = d->name;
    ins.dml_has_cols = false;
    ins.ndml_cols = 0;
    ins.explain = 0;
    if (plan__exec_dml(cx, &ins, out, err) != DB_OK) {
        db_error e2;
        db_error_clear(&e2);
        (void)cat_meta_drop_table(m, db, d->name, true, &e2);
        return DB_ERR;
    }
    return DB_OK;
}
