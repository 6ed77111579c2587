/* SPDX-License-Identifier: Apache-2.0
 * cat_alter.c: the catalog half of TRUNCATE TABLE and of the ALTER TABLE clauses added after
 * cat_ddl.c: RENAME PARTITION, MODIFY PARTITION ... SET, MODIFY COLUMN (type widening with
 * Doris's Column.checkSchemaChangeAllowed messages), ORDER BY, and REPLACE WITH TABLE. Like
 * the rest of cat_schema, no locking, no edit log: cat_meta.c makes them durable.
 * See README.md §"Schema objects". */
#include "catalog/cat_schema_int.h"

#include <stdio.h>
#include <string.h>

#include "common/mem.h"

static int int_rank(uint8_t id);
static int check_type_change(const cat_column *c, const cat_type *to, db_error *err);
static bool same_default(const cat_column *c, const cat_column_def *def);
static int move_column(cat_table *t, size_t from, const char *after, bool first, db_error *err);

int
cat_table_truncate(cat_catalog *c, cat_table *t, const char *const *names, size_t n, db_error *err)
{
    /* Validate every name first (I-S5: all or nothing). */
    for (size_t i = 0; i < n; i++) {
        if (cat_table_partition(t, names[i]) == NULL) {
            return cat__doris(err, "Partition %s does not exist", names[i]);
        }
    }
    for (size_t i = 0; i < t->nparts; i++) {
        bool hit = n == 0;
        for (size_t j = 0; j < n && !hit; j++) {
            hit = cat__ieq(t->parts[i].name, names[j]);
        }
        if (hit) {
            t->parts[i].id = c->next_id++; /* I-S2: new ids only grow */
        }
    }
    if (n == 0) { /* Doris: truncating the table drops its temporary partitions */
        for (size_t i = 0; i < t->ntmp_parts; i++) {
            cat__partition_destroy(&t->tmp_parts[i]);
        }
        t->ntmp_parts = 0;
    }
    return DB_OK;
}

int
cat_table_rename_partition(cat_table *t, const char *old_name, const char *new_name, db_error *err)
{
    if (cat_alter_check(t, CAT_ALTER_RENAME_PARTITION, err) != DB_OK) {
        return DB_ERR;
    }
    if (t->part_type == CAT_PART_NONE) {
        return cat__doris(err, "Table[%s] is single partitioned. no need to rename partition name.",
                          t->name);
    }
    if (cat__ieq(old_name, new_name)) {
        return cat__doris(err, "Same partition name");
    }
    cat_partition *p = cat_table_partition(t, old_name);
    if (p == NULL) {
        return cat__doris(err, "Partition[%s] does not exists", old_name);
    }
    if (cat_table_partition(t, new_name) != NULL || cat_table_tmp_partition(t, new_name) != NULL) {
        return cat__doris(err, "Partition name[%s] is already used", new_name);
    }
    mem_free(p->name);
    p->name = mem_strdup(new_name);
    return DB_OK;
}

int
cat_table_modify_partition(cat_table *t, const char *name, const cat_prop *props, size_t nprops,
                           db_error *err)
{
    if (cat_alter_check(t, CAT_ALTER_MODIFY_PARTITION, err) != DB_OK) {
        return DB_ERR;
    }
    if (cat_table_partition(t, name) == NULL) {
        return cat__doris(err, "Partition[%s] does not exist", name);
    }
    return cat_partition_props_check(props, nprops, err);
}

int
cat_partition_props_check(const cat_prop *props, size_t nprops, db_error *err)
{
    static const char *const keys[] = {
            "replication_num", "replication_allocation", "storage_medium", "storage_cooldown_time",
            "in_memory",       "is_in_memory",           "storage_policy", "data_property",
            "mutable",
    };
    for (size_t i = 0; i < nprops; i++) {
        bool known = false;
        for (size_t k = 0; k < sizeof keys / sizeof keys[0] && !known; k++) {
            known = strcmp(props[i].key, keys[k]) == 0;
        }
        if (!known) {
            return cat__doris(err, "Unknown partition property: [%s]", props[i].key);
        }
        const char *v = props[i].value;
        if (strcmp(props[i].key, "storage_medium") == 0 && !cat__ieq(v, "HDD") &&
            !cat__ieq(v, "SSD")) {
            return cat__doris(err, "Invalid storage medium: %s", v);
        }
        if (strcmp(props[i].key, "replication_num") == 0) {
            int64_t r;
            if (!cat__parse_i64(v, &r) || r <= 0 || r > INT16_MAX) {
                return cat__doris(err, "Invalid replication number: %s", v);
            }
        }
        if (strcmp(props[i].key, "in_memory") == 0 || strcmp(props[i].key, "mutable") == 0) {
            bool b;
            if (cat__parse_strict_bool(props[i].key, v, &b, err) != DB_OK) {
                return DB_ERR;
            }
        }
    }
    return DB_OK; /* single node: nothing to keep (README "Not yet") */
}

/* Rank of an integer type (wider is higher); 0 for other types. */
static int
int_rank(uint8_t id)
{
    switch (id) {
    case CAT_T_TINYINT:
        return 1;
    case CAT_T_SMALLINT:
        return 2;
    case CAT_T_INT:
        return 3;
    case CAT_T_BIGINT:
        return 4;
    case CAT_T_LARGEINT:
        return 5;
    default:
        return 0;
    }
}

/* Doris's ColumnType.isSchemaChangeAllowed for the types Rivulet has, then the string length
 * rule of Column.checkSchemaChangeAllowed. */
static int
check_type_change(const cat_column *c, const cat_type *to, db_error *err)
{
    const cat_type *from = &c->type;
    bool ok;
    if (from->id == to->id) {
        switch (from->id) {
        case CAT_T_DECIMAL:
            ok = to->scale == from->scale && to->precision >= from->precision;
            break;
        case CAT_T_DATETIME:
            ok = to->scale >= from->scale;
            break;
        case CAT_T_ARRAY:
        case CAT_T_MAP:
            ok = strcmp(from->inner, to->inner) == 0;
            break;
        default:
            ok = true; /* CHAR/VARCHAR lengths below */
            break;
        }
    } else if (int_rank(from->id) && int_rank(to->id)) {
        ok = int_rank(to->id) > int_rank(from->id);
    } else if (from->id == CAT_T_FLOAT) {
        ok = to->id == CAT_T_DOUBLE;
    } else if (from->id == CAT_T_CHAR) {
        ok = to->id == CAT_T_VARCHAR;
    } else if (from->id == CAT_T_VARCHAR) {
        ok = to->id == CAT_T_STRING;
    } else {
        ok = false;
    }
    if (!ok) {
        char a[64], b[64];
        cat__type_upper(from, a, sizeof a);
        cat__type_upper(to, b, sizeof b);
        return cat__doris(err, "Can not change %s to %s", a, b);
    }
    bool strs = (from->id == CAT_T_CHAR || from->id == CAT_T_VARCHAR) &&
                (to->id == CAT_T_CHAR || to->id == CAT_T_VARCHAR);
    if (strs && from->len > to->len) {
        return cat__doris(err, "Cannot shorten string length");
    }
    return DB_OK;
}

/* Doris's isSameDefaultValue: no default on both sides, or the same text. */
static bool
same_default(const cat_column *c, const cat_column_def *def)
{
    const char *old = c->default_text;
    const char *nw = def->has_default && !def->default_is_null ? def->default_text : NULL;
    if (old == NULL || nw == NULL) {
        return old == nw;
    }
    return c->default_is_expr == def->default_is_expr &&
           (c->default_is_expr ? cat__ieq(old, nw) : strcmp(old, nw) == 0);
}

/* Moves column from to after the named visible column or first, keeping keys first. */
static int
move_column(cat_table *t, size_t from, const char *after, bool first, db_error *err)
{
    size_t to;
    if (first) {
        to = 0;
    } else {
        const cat_column *a = cat_table_column(t, after);
        if (a == NULL || (a->flags & CAT_COL_HIDDEN)) {
            return cat__doris(err, "Column[%s] does not exists", after);
        }
        size_t ai = (size_t)(a - t->cols);
        if (ai == from) {
            return DB_OK;
        }
        to = ai < from ? ai + 1 : ai;
    }
    bool is_key = t->cols[from].is_key;
    size_t lo = is_key ? 0 : t->nkeys, hi = is_key ? t->nkeys - 1 : cat_table_visible_count(t) - 1;
    if (to < lo || to > hi) {
        return cat__doris(err, "Can not move %s column %s %s", is_key ? "key" : "value",
                          t->cols[from].name,
                          is_key ? "after value columns" : "before key columns");
    }
    cat_column tmp = t->cols[from];
    if (to < from) {
        memmove(&t->cols[to + 1], &t->cols[to], (from - to) * sizeof *t->cols);
    } else {
        memmove(&t->cols[from], &t->cols[from + 1], (to - from) * sizeof *t->cols);
    }
    t->cols[to] = tmp;
    return DB_OK;
}

int
cat_table_modify_column(cat_table *t, const cat_column_def *def, const char *after, bool first,
                        db_error *err)
{
    if (cat_alter_check(t, CAT_ALTER_MODIFY_COLUMN, err) != DB_OK) {
        return DB_ERR;
    }
    cat_column *c = cat_table_column(t, def->name);
    if (c == NULL || (c->flags & CAT_COL_HIDDEN)) {
        return cat__doris(err, "Column[%s] does not exists", def->name);
    }
    if (cat_type_validate(&def->type, def->name, err) != DB_OK) {
        return DB_ERR;
    }
    bool type_changes = memcmp(&c->type, &def->type, sizeof c->type) != 0;
    if (type_changes && c->uid == t->part_col_uid) {
        return cat__doris(err, "Can not modify partition column[%s]", c->name);
    }
    for (size_t i = 0; type_changes && i < t->ndist; i++) {
        if (t->dist_uids[i] == c->uid) {
            return cat__doris(err, "Can not modify distribution column[%s]", c->name);
        }
    }
    if (check_type_change(c, &def->type, err) != DB_OK) {
        return DB_ERR;
    }
    if (def->agg != CAT_AGG_UNSET && def->agg != (cat_agg)c->agg) {
        return cat__doris(err, "Can not change aggregation type");
    }
    bool nullable = def->null_given ? def->nullable : c->nullable;
    if (c->nullable && !nullable) {
        return cat__doris(err, "Can not change from nullable to non-nullable");
    }
    if (!same_default(c, def)) {
        return cat__doris(err, "Can not change default value");
    }
    if (def->auto_inc != c->auto_inc) {
        return cat__doris(err, "Can not change auto increment attribute of column[%s]", c->name);
    }
    /* Validated: apply (nothing below fails except the move, which changes nothing on error). */
    if (after != NULL || first) {
        if (move_column(t, (size_t)(c - t->cols), after, first, err) != DB_OK) {
            return DB_ERR;
        }
        c = cat_table_column(t, def->name);
    }
    c->type = def->type;
    c->nullable = nullable;
    if (def->comment != NULL) {
        mem_free(c->comment);
        c->comment = mem_strdup(def->comment);
    }
    return DB_OK;
}

int
cat_table_reorder_columns(cat_table *t, const char *const *names, size_t n, db_error *err)
{
    if (cat_alter_check(t, CAT_ALTER_REORDER_COLUMNS, err) != DB_OK) {
        return DB_ERR;
    }
    size_t nvis = cat_table_visible_count(t);
    for (size_t i = 0; i < n; i++) {
        const cat_column *c = cat_table_column(t, names[i]);
        if (c == NULL || (c->flags & CAT_COL_HIDDEN)) {
            return cat__doris(err, "Column[%s] does not exists", names[i]);
        }
        for (size_t j = 0; j < i; j++) {
            if (cat__ieq(names[i], names[j])) {
                return db_error_set(err, ER_DUP_FIELDNAME, names[i]);
            }
        }
    }
    if (n != nvis) {
        return cat__doris(err, "Reorder stmt should contains all columns");
    }
    for (size_t i = 0; i < t->nkeys; i++) {
        if (!cat__ieq(names[i], t->cols[i].name)) {
            return cat__doris(err, "Can not change the order of key column[%s]", t->cols[i].name);
        }
    }
    cat_column *nc = mem_calloc(t->ncols, sizeof *nc);
    for (size_t i = 0; i < n; i++) {
        nc[i] = *cat_table_column(t, names[i]);
    }
    memcpy(&nc[n], &t->cols[n], (t->ncols - n) * sizeof *nc); /* hidden ones stay last */
    mem_free(t->cols);
    t->cols = nc;
    return DB_OK;
}

int
cat_replace_swap_prop(const cat_prop *props, size_t nprops, bool *swap, db_error *err)
{
    *swap = true; /* Doris's default */
    for (size_t i = 0; i < nprops; i++) {
        if (strcmp(props[i].key, "swap") != 0) {
            return cat__doris(err, "Unknown properties: [%s]", props[i].key);
        }
        if (cat__parse_strict_bool("swap", props[i].value, swap, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

/* The single partition of an unpartitioned table is named after it (I-S3). */
static void rename_table(cat_table *t, const char *name);

static void
rename_table(cat_table *t, const char *name)
{
    char *nm = mem_strdup(name);
    if (t->part_type == CAT_PART_NONE && t->nparts == 1) {
        mem_free(t->parts[0].name);
        t->parts[0].name = mem_strdup(name);
    }
    mem_free(t->name);
    t->name = nm;
}

int
cat_table_replace_with(cat_db *db, const char *name, const char *other, bool swap,
                       int64_t *dropped_id, db_error *err)
{
    if (dropped_id != NULL) {
        *dropped_id = 0;
    }
    cat_table *a = cat_table_find(db, name);
    if (a == NULL) {
        return db_error_set(err, ER_NO_SUCH_TABLE, db->name, name);
    }
    cat_table *b = cat_table_find(db, other);
    if (b == NULL) {
        return db_error_set(err, ER_NO_SUCH_TABLE, db->name, other);
    }
    if (a == b) {
        return cat__doris(err, "Same table name");
    }
    if (cat_alter_check(a, CAT_ALTER_REPLACE_TABLE, err) != DB_OK ||
        cat_alter_check(b, CAT_ALTER_REPLACE_TABLE, err) != DB_OK) {
        return DB_ERR;
    }
    char *an = mem_strdup(a->name), *bn = mem_strdup(b->name);
    rename_table(b, an);
    if (swap) {
        rename_table(a, bn);
    } else {
        if (dropped_id != NULL) {
            *dropped_id = a->id;
        }
        for (size_t i = 0; i < db->ntables; i++) {
            if (db->tables[i] == a) {
                memmove(&db->tables[i], &db->tables[i + 1],
                        (db->ntables - i - 1) * sizeof *db->tables);
                db->ntables--;
                break;
            }
        }
        cat_table_free(a);
    }
    mem_free(an);
    mem_free(bn);
    return DB_OK;
}
