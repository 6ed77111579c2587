/* SPDX-License-Identifier: Apache-2.0
 * cat_show: the text of SHOW CREATE TABLE / SHOW CREATE DATABASE, the DESC / SHOW COLUMNS rows
 * and the SHOW PARTITIONS rows, in Doris's formats (sources in README.md §"SHOW formats"). */
#include "catalog/cat_schema_int.h"

#include <stdio.h>
#include <string.h>

#include "common/mem.h"

const char *const cat_show_partitions_columns[CAT_SHOW_PARTITIONS_NCOLS] = {
        "PartitionId",
        "PartitionName",
        "VisibleVersion",
        "VisibleVersionTime",
        "State",
        "PartitionKey",
        "Range",
        "DistributionKey",
        "Buckets",
        "ReplicationNum",
        "StorageMedium",
        "CooldownTime",
        "RemoteStoragePolicy",
        "LastConsistencyCheckTime",
        "DataSize",
        "IsInMemory",
        "ReplicaAllocation",
        "IsMutable",
        "SyncWithBaseTables",
        "UnsyncTables",
        "CommittedVersion",
        "RowCount",
};

static void append_escaped(buf *out, const char *s, char quote);
static void column_sql(const cat_table *t, const cat_column *c, buf *out);
static void partitions_sql(const cat_table *t, buf *out);
static void properties_sql(const cat_table *t, buf *out);
static void prop_line(buf *out, bool *first, const char *key, const char *value);
static int range_order(const cat_table *t, const cat_partition *p, const cat_partition *q);
static void put_field(buf *out, const char *s);

/* Appends s with quote and backslash characters escaped by a backslash. */
static void
append_escaped(buf *out, const char *s, char quote)
{
    for (; *s; s++) {
        if (*s == quote || *s == '\\') {
            buf_put_u8(out, '\\');
        }
        buf_put_u8(out, (uint8_t)*s);
    }
}

/* Column.toSql: `name` type [AGG] NULL|NOT NULL [AUTO_INCREMENT(n)] [DEFAULT ..] [COMMENT ".."] */
static void
column_sql(const cat_table *t, const cat_column *c, buf *out)
{
    buf_printf(out, "  `%s` ", c->name);
    cat_type_sql(&c->type, out);
    if (t->keys == CAT_KEYS_AGG && !c->is_key && c->agg != CAT_AGG_UNSET &&
        c->agg != CAT_AGG_NONE) {
        buf_printf(out, " %s", cat_agg_name((cat_agg)c->agg));
    }
    buf_append_str(out, c->nullable ? " NULL" : " NOT NULL");
    if (c->auto_inc) {
        buf_printf(out, " AUTO_INCREMENT(%lld)", (long long)c->auto_inc_start);
    }
    if (c->default_text != NULL) {
        if (c->default_is_expr) {
            buf_printf(out, " DEFAULT %s", c->default_text);
        } else {
            buf_printf(out, " DEFAULT \"%s\"", c->default_text);
        }
    }
    if (c->comment != NULL && c->comment[0] != 0) {
        buf_append_str(out, " COMMENT \"");
        append_escaped(out, c->comment, '"');
        buf_append_str(out, "\"");
    }
}

/* Order of two range partitions by lower bound (the minimum first). */
static int
range_order(const cat_table *t, const cat_partition *p, const cat_partition *q)
{
    if (p->lower_min || q->lower_min) {
        return (int)q->lower_min - (int)p->lower_min;
    }
    const cat_column *c = cat_table_column_uid(t, t->part_col_uid);
    return cat__part_value_cmp(&c->type, p->lower, q->lower);
}

/* RangePartitionInfo / ListPartitionInfo.toSql. Range partitions print sorted by bound. */
static void
partitions_sql(const cat_table *t, buf *out)
{
    const cat_column *c = cat_table_column_uid(t, t->part_col_uid);
    const cat_partition **order = mem_calloc(t->nparts ? t->nparts : 1, sizeof *order);
    for (size_t i = 0; i < t->nparts; i++) {
        order[i] = &t->parts[i];
    }
    if (t->part_type == CAT_PART_RANGE) {
        for (size_t i = 1; i < t->nparts; i++) {
            for (size_t j = i; j > 0 && range_order(t, order[j - 1], order[j]) > 0; j--) {
                const cat_partition *tmp = order[j];
                order[j] = order[j - 1];
                order[j - 1] = tmp;
            }
        }
    }
    buf_printf(out, "\nPARTITION BY %s(`%s`)\n(", t->part_type == CAT_PART_RANGE ? "RANGE" : "LIST",
               c->name);
    for (size_t i = 0; i < t->nparts; i++) {
        const cat_partition *p = order[i];
        if (i > 0) {
            buf_append_str(out, ",\n");
        }
        buf_printf(out, "PARTITION %s VALUES ", p->name);
        if (t->part_type == CAT_PART_RANGE) {
            buf_printf(out, "[(\"%s\"), ", p->lower_min ? cat__type_min_text(&c->type) : p->lower);
            if (p->upper_max) {
                buf_append_str(out, "(MAXVALUE))");
            } else {
                buf_printf(out, "(\"%s\"))", p->upper);
            }
        } else {
            buf_append_str(out, "IN (");
            for (size_t j = 0; j < p->nvalues; j++) {
                buf_printf(out, "%s\"%s\"", j ? "," : "", p->values[j]);
            }
            if (p->has_null) {
                buf_printf(out, "%sNULL", p->nvalues ? "," : "");
            }
            buf_append_str(out, ")");
        }
    }
    buf_append_str(out, ")");
    mem_free(order);
}

static void
prop_line(buf *out, bool *first, const char *key, const char *value)
{
    buf_printf(out, "%s\"%s\" = \"%s\"", *first ? "" : ",\n", key, value);
    *first = false;
}

/* The PROPERTIES block: Doris's fixed order for an OLAP table, with the binlog.* block of
 * BinlogConfig.appendToShowCreateTable (seed 001's order). */
static void
properties_sql(const cat_table *t, buf *out)
{
    static const char *const fixed_head[] = {"storage_medium", "storage_format",
                                             "inverted_index_storage_format"};
    static const char *const fixed_head_def[] = {"hdd", "V2", "V2"};
    bool first = true;
    char num[32];
    const char *v;

    buf_append_str(out, "\nPROPERTIES (\n");
    prop_line(out, &first, "replication_allocation", "tag.location.default: 1");
    v = cat_props_get(&t->props, "min_load_replica_num");
    prop_line(out, &first, "min_load_replica_num", v ? v : "-1");
    v = cat_props_get(&t->props, "is_being_synced");
    prop_line(out, &first, "is_being_synced", v ? v : "false");
    for (size_t i = 0; i < 3; i++) {
        v = cat_props_get(&t->props, fixed_head[i]);
        prop_line(out, &first, fixed_head[i], v ? v : fixed_head_def[i]);
    }
    /* Other kept properties, in the order they were set. */
    for (size_t i = 0; i < t->props.n; i++) {
        const char *k = t->props.v[i].key;
        bool fixed = strcmp(k, "min_load_replica_num") == 0 || strcmp(k, "is_being_synced") == 0 ||
                     strcmp(k, "storage_medium") == 0 || strcmp(k, "storage_format") == 0 ||
                     strcmp(k, "inverted_index_storage_format") == 0 ||
                     strcmp(k, "enable_single_replica_compaction") == 0 ||
                     strcmp(k, "group_commit_interval_ms") == 0 ||
                     strcmp(k, "group_commit_data_bytes") == 0 ||
                     strncmp(k, "function_column.", 16) == 0;
        if (!fixed) {
            prop_line(out, &first, k, t->props.v[i].value);
        }
    }
    if (t->keys == CAT_KEYS_UNIQUE && t->mow) {
        prop_line(out, &first, "enable_unique_key_merge_on_write", "true");
    }
    prop_line(out, &first, "light_schema_change", t->light_schema_change ? "true" : "false");
    if ((v = cat_props_get(&t->props, "function_column.sequence_col")) != NULL) {
        prop_line(out, &first, "function_column.sequence_col", v);
    } else if ((v = cat_props_get(&t->props, "function_column.sequence_type")) != NULL) {
        prop_line(out, &first, "function_column.sequence_type", v);
    }
    prop_line(out, &first, "disable_auto_compaction",
              t->disable_auto_compaction ? "true" : "false");
    prop_line(out, &first, "binlog.enable", t->binlog.enable ? "true" : "false");
    snprintf(num, sizeof num, "%lld", (long long)t->binlog.ttl_seconds);
    prop_line(out, &first, "binlog.ttl_seconds", num);
    snprintf(num, sizeof num, "%lld", (long long)t->binlog.max_bytes);
    prop_line(out, &first, "binlog.max_bytes", num);
    snprintf(num, sizeof num, "%lld", (long long)t->binlog.max_history_nums);
    prop_line(out, &first, "binlog.max_history_nums", num);
    prop_line(out, &first, "binlog.format", cat_binlog_format_name(t->binlog.format));
    if (t->binlog.format == CAT_BINLOG_ROW) {
        prop_line(out, &first, "binlog.need_historical_value",
                  t->binlog.need_historical_value ? "true" : "false");
    }
    v = cat_props_get(&t->props, "enable_single_replica_compaction");
    prop_line(out, &first, "enable_single_replica_compaction", v ? v : "false");
    v = cat_props_get(&t->props, "group_commit_interval_ms");
    prop_line(out, &first, "group_commit_interval_ms", v ? v : "10000");
    v = cat_props_get(&t->props, "group_commit_data_bytes");
    prop_line(out, &first, "group_commit_data_bytes", v ? v : "134217728");
    if (t->keys == CAT_KEYS_UNIQUE && t->mow) {
        prop_line(out, &first, "enable_mow_light_delete",
                  t->enable_mow_light_delete ? "true" : "false");
    }
    if (t->keys == CAT_KEYS_DUP && t->nkeys == 0) {
        prop_line(out, &first, "enable_duplicate_without_keys_by_default", "true");
    }
    buf_append_str(out, "\n)");
}

void
cat_show_create_table(const cat_table *t, buf *out)
{
    static const char *const keys_sql[] = {"DUPLICATE KEY", "UNIQUE KEY", "AGGREGATE KEY"};
    bool first = true;

    buf_printf(out, "CREATE TABLE `%s` (\n", t->name);
    for (size_t i = 0; i < t->ncols; i++) {
        if (t->cols[i].flags & CAT_COL_HIDDEN) {
            continue;
        }
        if (!first) {
            buf_append_str(out, ",\n");
        }
        first = false;
        column_sql(t, &t->cols[i], out);
    }
    for (size_t i = 0; i < t->nindexes; i++) { /* OlapTable: the indexes after the columns */
        buf_append_str(out, ",\n  ");
        cat_index_sql(t, &t->indexes[i], out);
    }
    buf_append_str(out, "\n) ENGINE=OLAP");
    if (t->nkeys > 0 || t->keys != CAT_KEYS_DUP) { /* a DUPLICATE table without keys: none */
        buf_printf(out, "\n%s(", keys_sql[t->keys]);
        for (size_t i = 0; i < t->nkeys; i++) {
            buf_printf(out, "%s`%s`", i ? ", " : "", t->cols[i].name);
        }
        buf_append_str(out, ")");
    }
    if (t->ncluster > 0) {
        buf_append_str(out, "\nCLUSTER BY(");
        for (size_t i = 0; i < t->ncluster; i++) {
            const cat_column *c = cat_table_column_uid(t, t->cluster_uids[i]);
            buf_printf(out, "%s`%s`", i ? ", " : "", c ? c->name : "?");
        }
        buf_append_str(out, ")");
    }
    if (t->comment != NULL && t->comment[0] != 0) {
        buf_append_str(out, "\nCOMMENT '");
        append_escaped(out, t->comment, '\'');
        buf_append_str(out, "'");
    }
    if (t->part_type != CAT_PART_NONE) {
        partitions_sql(t, out);
    }
    if (t->dist_random) {
        buf_append_str(out, "\nDISTRIBUTED BY RANDOM");
    } else {
        buf_append_str(out, "\nDISTRIBUTED BY HASH(");
        for (size_t i = 0; i < t->ndist; i++) {
            const cat_column *c = cat_table_column_uid(t, t->dist_uids[i]);
            buf_printf(out, "%s`%s`", i ? ", " : "", c ? c->name : "?");
        }
        buf_append_str(out, ")");
    }
    if (t->buckets_auto) {
        buf_append_str(out, " BUCKETS AUTO");
    } else {
        buf_printf(out, " BUCKETS %d", (int)t->buckets);
    }
    properties_sql(t, out);
    buf_append_str(out, ";");
}

void
cat_show_create_database(const cat_db *db, buf *out)
{
    buf_printf(out, "CREATE DATABASE `%s`", db->name);
    if (db->props.n > 0) {
        buf_append_str(out, "\nPROPERTIES (\n");
        for (size_t i = 0; i < db->props.n; i++) {
            buf_printf(out, "%s\"%s\" = \"%s\"", i ? ",\n" : "", db->props.v[i].key,
                       db->props.v[i].value);
        }
        buf_append_str(out, "\n)");
    }
}

size_t
cat_show_columns(const cat_table *t, bool show_hidden, cat_desc_row *rows, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < t->ncols; i++) {
        const cat_column *c = &t->cols[i];
        if ((c->flags & CAT_COL_HIDDEN) && !show_hidden) {
            continue;
        }
        if (n < max) {
            cat_desc_row *r = &rows[n];
            r->field = c->name;
            cat_type_sql_buf(&c->type, r->type, sizeof r->type);
            r->null = c->nullable ? "Yes" : "No";
            r->key = c->is_key ? "true" : "false";
            r->default_value = c->default_text;
            snprintf(r->extra, sizeof r->extra, "%s%s%s", cat_agg_name((cat_agg)c->agg),
                     (c->auto_inc && c->agg != CAT_AGG_UNSET) ? " " : "",
                     c->auto_inc ? "AUTO_INCREMENT" : "");
        }
        n++;
    }
    return n;
}

/* One SHOW PARTITIONS field and its NUL terminator. */
static void
put_field(buf *out, const char *s)
{
    buf_append(out, s, strlen(s) + 1);
}

void
cat_show_partition_row(const cat_table *t, size_t i, buf *out)
{
    const cat_partition *p = i < t->nparts ? &t->parts[i] : &t->tmp_parts[i - t->nparts];
    const cat_column *pc =
            t->part_type == CAT_PART_NONE ? NULL : cat_table_column_uid(t, t->part_col_uid);
    char tmp[1024];
    buf b;
    buf_init(&b);

    snprintf(tmp, sizeof tmp, "%lld", (long long)p->id);
    put_field(out, tmp);
    put_field(out, p->name);
    put_field(out, "1");   /* VisibleVersion */
    put_field(out, "\\N"); /* VisibleVersionTime: storage */
    put_field(out, "NORMAL");
    put_field(out, pc ? pc->name : "");
    if (pc == NULL) {
        put_field(out, "");
    } else if (t->part_type == CAT_PART_RANGE) {
        char up[64];
        cat__type_upper(&pc->type, up, sizeof up);
        snprintf(tmp, sizeof tmp, "[types: [%s]; keys: [%s]; ..types: [%s]; keys: [%s]; )", up,
                 p->lower_min ? cat__type_min_text(&pc->type) : p->lower, up,
                 p->upper_max ? "MAXVALUE" : p->upper);
        put_field(out, tmp);
    } else {
        char up[64];
        cat__type_upper(&pc->type, up, sizeof up);
        buf_append_str(&b, "[");
        for (size_t j = 0; j < p->nvalues; j++) {
            buf_printf(&b, "%stypes: [%s]; keys: [%s]; ", j ? ", " : "", up, p->values[j]);
        }
        if (p->has_null) {
            buf_printf(&b, "%stypes: [%s]; keys: [NULL]; ", p->nvalues ? ", " : "", up);
        }
        buf_append(&b, "]", 2);
        put_field(out, (const char *)b.data);
    }
    buf_clear(&b);
    if (t->dist_random) {
        put_field(out, "RANDOM");
    } else {
        for (size_t j = 0; j < t->ndist; j++) {
            const cat_column *c = cat_table_column_uid(t, t->dist_uids[j]);
            buf_printf(&b, "%s%s", j ? ", " : "", c ? c->name : "?");
        }
        buf_put_u8(&b, 0);
        put_field(out, (const char *)b.data);
    }
    snprintf(tmp, sizeof tmp, "%d", (int)p->buckets);
    put_field(out, tmp);
    put_field(out, "1");
    put_field(out, "HDD");
    put_field(out, "9999-12-31 23:59:59");
    put_field(out, "");
    put_field(out, "\\N");
    put_field(out, "0.000 ");
    put_field(out, "false");
    put_field(out, "tag.location.default: 1");
    put_field(out, "true");
    put_field(out, "true");
    put_field(out, "\\N");
    put_field(out, "1");
    put_field(out, "0");
    buf_destroy(&b);
}
