/* SPDX-License-Identifier: Apache-2.0
 * plan_ddl_index.c: Doris secondary indexes (INVERTED / BITMAP / NGRAM_BF) over the durable
 * catalog: CREATE INDEX, DROP INDEX, BUILD INDEX, the ALTER TABLE clauses ADD / DROP / BUILD
 * INDEX, the rows of SHOW INDEX and of information_schema.STATISTICS. The definitions live in
 * the table (catalog/cat_index.c, logged with it); nothing is built and scans never use them.
 * MySQL's KEY / INDEX without a Doris type stay accepted and ignored (plan_ddl.c). See
 * README.md §DDL "Secondary indexes". */
#include "planner/plan_ddl_int.h"
#include "planner/plan_dml_int.h"
#include "planner/plan_exec_int.h"

#include <string.h>

static int add_edit(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err);
static int drop_edit(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err);
static int check_base_table(plan_ectx *cx, const char *db, const char *name, db_error *err);

/* ALTER TABLE's checks on what it may change: a view is not a base table, a stream refuses. */
static int
check_base_table(plan_ectx *cx, const char *db, const char *name, db_error *err)
{
    if (plan__view_sql(cx, db, name, NULL)) {
        return db_error_set(err, ER_WRONG_OBJECT, db, name, "BASE TABLE");
    }
    if (plan__is_stream(cx, db, name)) {
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a, "Do not support alter STREAM table[%s]", name));
    }
    return DB_OK;
}

static int
add_edit(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    (void)c;
    (void)db;
    return cat_table_add_index(t, arg, NULL, err);
}

static int
drop_edit(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    (void)c;
    (void)db;
    return cat_table_drop_index(t, arg, false, err);
}

bool
plan__index_is_stored(plan_ectx *cx, const char *db, const char *table, const char *index)
{
    cat_meta *m = cx->s->srv->meta;
    if (m == NULL || db == NULL || index == NULL) {
        return false;
    }
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_db *d = cat_db_find(c, db);
    const cat_table *t = d ? cat_table_find(d, table) : NULL;
    bool found = t != NULL && cat_table_index(t, index) != NULL;
    cat_meta_read_end(m);
    return found;
}

int
plan__build_index_check(plan_ectx *cx, const char *db, const char *table, const char *index,
                        const char *const *parts, size_t nparts, db_error *err)
{
    if (check_base_table(cx, db, table, err) != DB_OK) {
        return DB_ERR;
    }
    cat_meta *m = cx->s->srv->meta;
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_db *d = cat_db_find(c, db);
    const cat_table *t = d ? cat_table_find(d, table) : NULL;
    int rc;
    if (t == NULL) {
        rc = db_error_set(err, ER_NO_SUCH_TABLE, db, table);
    } else {
        rc = cat_table_build_index_check(t, index, parts, nparts, err);
    }
    cat_meta_read_end(m);
    return rc;
}

int
plan__exec_index(plan_ectx *cx, const plan_ddl *d, const char *db, bool *done, db_error *err)
{
    *done = false;
    cat_meta *m = cx->s->srv->meta;
    switch (d->kind) {
    case PD_BUILD_INDEX:
        *done = true;
        /* Nothing to build: the definition is all there is (README.md "Not yet"). */
        return plan__build_index_check(cx, db, d->name, d->idx_name, d->idx_cols, d->nidx_cols,
                                       err);
    case PD_CREATE_INDEX: {
        if (d->nidx_defs == 0) {
            return DB_OK; /* a MySQL index: the caller's */
        }
        *done = true;
        if (check_base_table(cx, db, d->name, err) != DB_OK) {
            return DB_ERR;
        }
        cat_index_def def = d->idx_defs[0];
        def.if_not_exists = d->if_not_exists;
        if (def.if_not_exists && plan__index_is_stored(cx, db, d->name, def.name)) {
            return DB_OK; /* nothing changes, nothing logged */
        }
        return cat_meta_alter_table(m, db, d->name, add_edit, &def, err);
    }
    case PD_DROP_INDEX:
        if (!plan__index_is_stored(cx, db, d->name, d->idx_name)) {
            return DB_OK; /* IF EXISTS, or a MySQL key that was never stored: the caller's */
        }
        *done = true;
        if (check_base_table(cx, db, d->name, err) != DB_OK) {
            return DB_ERR;
        }
        return cat_meta_alter_table(m, db, d->name, drop_edit, (void *)d->idx_name, err);
    default:
        return DB_OK;
    }
}

int
plan__alter_index(cat_table *t, const plan_alter_cmd *cmd, db_error *err)
{
    switch (cmd->op) {
    case CAT_ALTER_CREATE_INDEX:
        return cat_table_add_index(t, &cmd->idx, NULL, err);
    case CAT_ALTER_DROP_INDEX:
        /* A name no stored index has is a MySQL key (never stored): nothing to drop. */
        return cat_table_drop_index(t, cmd->name, true, err);
    case CAT_ALTER_BUILD_INDEX:
        return cat_table_build_index_check(t, cmd->name, NULL, 0, err);
    default:
        return DB_OK;
    }
}

void
plan__show_index_rows(arena *a, const cat_table *t, plan_rowset *rs)
{
    for (size_t i = 0; i < t->nindexes; i++) {
        const cat_index *ix = &t->indexes[i];
        buf cols, props;
        buf_init(&cols);
        buf_init(&props);
        for (size_t j = 0; j < ix->ncols; j++) {
            const cat_column *c = cat_table_column_uid(t, ix->col_uids[j]);
            buf_printf(&cols, "%s%s", j ? "," : "", c ? c->name : "?");
        }
        cat_index_props_text(ix, &props);
        /* ShowIndexCommand: Table, Non_unique, Key_name, Seq_in_index, Column_name (joined by
         * ","), Collation, Cardinality, Sub_part, Packed, Null, Index_type, Comment (NULL when
         * none was written), Properties. */
        const char *row[] = {
                arena_strdup(a, t->name),
                "",
                arena_strdup(a, ix->name),
                "",
                arena_strndup(a, cols.data ? (const char *)cols.data : "", cols.len),
                "",
                "",
                "",
                "",
                "",
                cat_index_type_name(ix->type),
                ix->comment ? arena_strdup(a, ix->comment) : NULL,
                arena_strndup(a, props.data ? (const char *)props.data : "", props.len)};
        plan__rs_add(a, rs, row);
        buf_destroy(&cols);
        buf_destroy(&props);
    }
}

void
plan__index_statistics(plan_server *srv, arena *a, const char *db, const char *table,
                       plan_index_row_fn add, void *ctx)
{
    if (srv->meta == NULL) {
        return;
    }
    const cat_catalog *c = cat_meta_read_begin(srv->meta);
    const cat_db *d = cat_db_find(c, db);
    const cat_table *t = d ? cat_table_find(d, table) : NULL;
    for (size_t i = 0; t != NULL && i < t->nindexes; i++) {
        const cat_index *ix = &t->indexes[i];
        for (size_t j = 0; j < ix->ncols; j++) {
            const cat_column *col = cat_table_column_uid(t, ix->col_uids[j]);
            if (col == NULL) {
                continue;
            }
            /* MySQL's STATISTICS: one row per column of a (non-unique) index; no collation,
             * cardinality, prefix or packing. */
            plan_value row[] = {
                    plan__v_str("def", 3),
                    plan__v_str(arena_strdup(a, db), strlen(db)),
                    plan__v_str(arena_strdup(a, t->name), strlen(t->name)),
                    plan__v_int(1),
                    plan__v_str(arena_strdup(a, db), strlen(db)),
                    plan__v_str(arena_strdup(a, ix->name), strlen(ix->name)),
                    plan__v_int((int64_t)j + 1),
                    plan__v_str(arena_strdup(a, col->name), strlen(col->name)),
                    plan__v_null(),
                    plan__v_null(),
                    plan__v_null(),
                    plan__v_null(),
                    plan__v_str(col->nullable ? "YES" : "", col->nullable ? 3 : 0),
                    plan__v_str(cat_index_type_name(ix->type),
                                strlen(cat_index_type_name(ix->type))),
                    plan__v_str("", 0),
                    ix->comment ? plan__v_str(arena_strdup(a, ix->comment), strlen(ix->comment))
                                : plan__v_str("", 0)};
            add(ctx, row);
        }
    }
    cat_meta_read_end(srv->meta);
}

int
plan__show_build_index(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    /* BuildIndexProcDir.TITLE_NAMES */
    static const char *const names[] = {
            "JobId",      "TableName",  "PartitionName", "AlterInvertedIndexes",
            "CreateTime", "FinishTime", "TransactionId", "State",
            "Msg",        "Progress"};
    plan_rowset rs;
    plan__rs_init(cx->a, &rs, names, sizeof names / sizeof names[0]);
    if (!cx->describe) {
        const char *db = st->name ? st->name : cx->s->db;
        if (db == NULL) {
            return db_error_set(err, ER_NO_DB_ERROR);
        }
        const char *canon;
        if (!plan__db_exists(cx->s->srv, db, cx->a, &canon)) {
            return db_error_set(err, ER_BAD_DB_ERROR, db);
        }
        if (!plan__can_see(cx->s, canon, NULL) &&
            plan__check_priv(cx, CAT_PRIV_ALL, canon, NULL, err) != DB_OK) {
            return DB_ERR; /* 1044, as SHOW TABLES */
        }
    }
    return plan__rs_send(cx, &rs, st, 1, sink, err);
}
