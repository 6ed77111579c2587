/* SPDX-License-Identifier: Apache-2.0
 * cat_props: the ordered property list, binlog.* parsing and the mutability rules of Row Binlog
 * (seed 001, DORIS_SEMANTICS.md E41-E47), ALTER TABLE SET and ALTER DATABASE SET PROPERTIES.
 * See README.md §"Schema objects". */
#include "catalog/cat_schema_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/mem.h"

static const char *const passthrough_keys[] = {
        "storage_medium",
        "storage_format",
        "compression",
        "in_memory",
        "bloom_filter_columns",
        "bloom_filter_fpp",
        "store_row_column",
        "enable_single_replica_compaction",
        "estimate_partition_size",
        "is_being_synced",
        "group_commit_interval_ms",
        "group_commit_data_bytes",
        "inverted_index_storage_format",
        "min_load_replica_num",
        "skip_write_index_on_load",
        "compaction_policy",
        "time_series_compaction_goal_size_mbytes",
        "time_series_compaction_file_count_threshold",
        "time_series_compaction_time_threshold_seconds",
};

static const char *const ignored_keys[] = {
        "replication_num",
        "replication_allocation",
};

static bool is_bloom_key(const char *key);

/* ---- generic helpers ---- */

int
cat__doris(db_error *err, const char *fmt, ...)
{
    char msg[DB_ERRMSG_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return db_error_set(err, ER_DORIS, msg);
}

bool
cat__ieq(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char x = (unsigned char)*a;
        unsigned char y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z') {
            x = (unsigned char)(x + 32);
        }
        if (y >= 'A' && y <= 'Z') {
            y = (unsigned char)(y + 32);
        }
        if (x != y) {
            return false;
        }
        if (x == 0) {
            return true;
        }
    }
}

bool
cat__parse_i64(const char *s, int64_t *out)
{
    bool neg = false;
    uint64_t v = 0;
    uint64_t limit = (uint64_t)INT64_MAX;
    if (*s == '-' || *s == '+') {
        neg = *s == '-';
        s++;
    }
    if (*s == 0) {
        return false;
    }
    if (neg) {
        limit += 1;
    }
    for (; *s; s++) {
        if (*s < '0' || *s > '9') {
            return false;
        }
        unsigned d = (unsigned)(*s - '0');
        if (v > (limit - d) / 10) {
            return false;
        }
        v = v * 10 + d;
    }
    if (neg) {
        *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    } else {
        *out = (int64_t)v;
    }
    return true;
}

/* ---- cat_props ---- */

void
cat_props_init(cat_props *p)
{
    p->v = NULL;
    p->n = 0;
    p->cap = 0;
}

void
cat_props_destroy(cat_props *p)
{
    for (size_t i = 0; i < p->n; i++) {
        mem_free(p->v[i].key);
        mem_free(p->v[i].value);
    }
    mem_free(p->v);
    cat_props_init(p);
}

void
cat_props_set(cat_props *p, const char *key, const char *value)
{
    for (size_t i = 0; i < p->n; i++) {
        if (strcmp(p->v[i].key, key) == 0) {
            char *nv = mem_strdup(value);
            mem_free(p->v[i].value);
            p->v[i].value = nv;
            return;
        }
    }
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 8;
        p->v = mem_realloc(p->v, p->cap * sizeof *p->v);
    }
    p->v[p->n].key = mem_strdup(key);
    p->v[p->n].value = mem_strdup(value);
    p->n++;
}

const char *
cat_props_get(const cat_props *p, const char *key)
{
    for (size_t i = 0; i < p->n; i++) {
        if (strcmp(p->v[i].key, key) == 0) {
            return p->v[i].value;
        }
    }
    return NULL;
}

bool
cat_props_remove(cat_props *p, const char *key)
{
    for (size_t i = 0; i < p->n; i++) {
        if (strcmp(p->v[i].key, key) == 0) {
            mem_free(p->v[i].key);
            mem_free(p->v[i].value);
            memmove(&p->v[i], &p->v[i + 1], (p->n - i - 1) * sizeof *p->v);
            p->n--;
            return true;
        }
    }
    return false;
}

void
cat_props_copy(cat_props *dst, const cat_props *src)
{
    for (size_t i = 0; i < src->n; i++) {
        cat_props_set(dst, src->v[i].key, src->v[i].value);
    }
}

/* ---- binlog ---- */

cat_binlog_cfg
cat_binlog_default(void)
{
    cat_binlog_cfg b;
    b.enable = false;
    b.need_historical_value = false;
    b.format = CAT_BINLOG_STATEMENT_AND_SNAPSHOT;
    b.ttl_seconds = CAT_BINLOG_TTL_DEFAULT;
    b.max_bytes = CAT_BINLOG_UNLIMITED;
    b.max_history_nums = CAT_BINLOG_UNLIMITED;
    return b;
}

bool
cat_binlog_is_row(const cat_binlog_cfg *b)
{
    return b->enable && b->format == CAT_BINLOG_ROW;
}

const char *
cat_binlog_format_name(uint8_t format)
{
    return format == CAT_BINLOG_ROW ? "ROW" : "STATEMENT_AND_SNAPSHOT";
}

bool
cat__is_binlog_key(const char *key)
{
    return strncmp(key, "binlog.", 7) == 0;
}

bool
cat__is_passthrough_key(const char *key)
{
    for (size_t i = 0; i < sizeof passthrough_keys / sizeof passthrough_keys[0]; i++) {
        if (strcmp(key, passthrough_keys[i]) == 0) {
            return true;
        }
    }
    return false;
}

bool
cat__is_ignored_key(const char *key)
{
    for (size_t i = 0; i < sizeof ignored_keys / sizeof ignored_keys[0]; i++) {
        if (strcmp(key, ignored_keys[i]) == 0) {
            return true;
        }
    }
    return false;
}

static bool
is_bloom_key(const char *key)
{
    return strcmp(key, "bloom_filter_columns") == 0 || strcmp(key, "bloom_filter_fpp") == 0;
}

int
cat__parse_strict_bool(const char *key, const char *value, bool *out, db_error *err)
{
    if (strcmp(value, "true") == 0) {
        *out = true;
        return DB_OK;
    }
    if (strcmp(value, "false") == 0) {
        *out = false;
        return DB_OK;
    }
    return cat__doris(err, "%s must be `true` or `false`", key);
}

/* Java's Boolean.parseBoolean: true iff the text is "true" in any case. */
static bool
java_bool(const char *s)
{
    return cat__ieq(s, "true");
}

int
cat__binlog_merge(cat_binlog_cfg *cfg, const cat_props *props, bool force, db_error *err)
{
    const char *v_enable = cat_props_get(props, "binlog.enable");
    const char *v_ttl = cat_props_get(props, "binlog.ttl_seconds");
    const char *v_bytes = cat_props_get(props, "binlog.max_bytes");
    const char *v_nums = cat_props_get(props, "binlog.max_history_nums");
    const char *v_fmt = cat_props_get(props, "binlog.format");
    const char *v_hist = cat_props_get(props, "binlog.need_historical_value");
    int64_t ttl = cfg->ttl_seconds;
    int64_t bytes = cfg->max_bytes;
    int64_t nums = cfg->max_history_nums;
    uint8_t fmt = cfg->format;

    /* PropertyAnalyzer.analyzeBinlogConfig: value syntax, in Doris's order. */
    if (v_ttl != NULL && !cat__parse_i64(v_ttl, &ttl)) {
        return cat__doris(err, "Invalid binlog ttl_seconds value: %s", v_ttl);
    }
    if (v_bytes != NULL && !cat__parse_i64(v_bytes, &bytes)) {
        return cat__doris(err, "Invalid binlog max_bytes value: %s", v_bytes);
    }
    if (v_nums != NULL && !cat__parse_i64(v_nums, &nums)) {
        return cat__doris(err, "Invalid binlog max_history_nums value: %s", v_nums);
    }
    if (v_fmt != NULL) {
        if (strcmp(v_fmt, "ROW") == 0) {
            fmt = CAT_BINLOG_ROW;
        } else if (strcmp(v_fmt, "STATEMENT_AND_SNAPSHOT") == 0) {
            fmt = CAT_BINLOG_STATEMENT_AND_SNAPSHOT;
        } else {
            return cat__doris(err, "Invalid binlog format value: %s", v_fmt);
        }
    }

    /* BinlogConfig.mergeFromProperties: enable, numbers, need_historical_value, format. */
    cat_binlog_cfg next = *cfg;
    if (v_enable != NULL) {
        bool en = java_bool(v_enable);
        if (!force && cfg->enable != en && cfg->format == CAT_BINLOG_ROW) {
            return cat__doris(err, "can't disable binlog when format is [Row]");
        }
        next.enable = en;
    }
    next.ttl_seconds = ttl;
    next.max_bytes = bytes;
    next.max_history_nums = nums;
    if (v_hist != NULL) {
        bool h = java_bool(v_hist);
        if (!force && cfg->need_historical_value != h) {
            return cat__doris(err, "not support change binlog.need_historical_value from %s to %s",
                              cfg->need_historical_value ? "true" : "false", h ? "true" : "false");
        }
        next.need_historical_value = h;
    }
    if (v_fmt != NULL) {
        if (!force && fmt != cfg->format) {
            return cat__doris(err, "not support change binlog format from %s to %s",
                              cat_binlog_format_name(cfg->format), cat_binlog_format_name(fmt));
        }
        next.format = fmt;
    }
    *cfg = next;
    return DB_OK;
}

int
cat__binlog_check_row(const cat_binlog_cfg *cfg, db_error *err)
{
    if (cat_binlog_is_row(cfg) && cfg->ttl_seconds <= 0) {
        return cat__doris(err, "ROW binlog.ttl_seconds must be greater than 0");
    }
    return DB_OK;
}

/* ---- ALTER TABLE SET / ALTER DATABASE SET PROPERTIES ---- */

int
cat_table_set_properties(const cat_db *db, cat_table *t, const cat_prop *props, size_t nprops,
                         db_error *err)
{
    cat_props in;
    cat_props_init(&in);
    int rc = DB_ERR;
    bool row = cat_binlog_is_row(&t->binlog);
    bool light = t->light_schema_change;
    bool noauto = t->disable_auto_compaction;
    bool lightdel = t->enable_mow_light_delete;

    for (size_t i = 0; i < nprops; i++) {
        cat_props_set(&in, props[i].key, props[i].value);
    }
    for (size_t i = 0; i < in.n; i++) {
        const char *k = in.v[i].key;
        const char *v = in.v[i].value;
        if (row && is_bloom_key(k)) {
            rc = cat__doris(err,
                            "Not allowed to perform current operation on Table With binlog<row>");
            goto out;
        }
        if (cat__is_binlog_key(k)) {
            continue;
        }
        if (strcmp(k, "light_schema_change") == 0) {
            if (cat__parse_strict_bool(k, v, &light, err) != DB_OK) {
                goto out;
            }
        } else if (strcmp(k, "disable_auto_compaction") == 0) {
            if (cat__parse_strict_bool(k, v, &noauto, err) != DB_OK) {
                goto out;
            }
        } else if (strcmp(k, "enable_mow_light_delete") == 0) {
            if (cat__parse_strict_bool(k, v, &lightdel, err) != DB_OK) {
                goto out;
            }
        } else if (!cat__is_passthrough_key(k) && !cat__is_ignored_key(k)) {
            rc = cat__doris(err, "Unknown table property: [%s]", k);
            goto out;
        }
    }

    cat_binlog_cfg b = t->binlog;
    if (cat__binlog_merge(&b, &in, false, err) != DB_OK) {
        goto out;
    }
    if (db != NULL && !b.enable) {
        cat_binlog_cfg dbb = cat_binlog_default();
        if (cat__binlog_merge(&dbb, &db->props, true, err) != DB_OK) {
            goto out;
        }
        if (dbb.enable) {
            rc = cat__doris(err, "db binlog is enable, but table binlog is disable");
            goto out;
        }
    }
    if (cat__binlog_check_row(&b, err) != DB_OK) {
        goto out;
    }

    /* All checks passed: apply. */
    t->binlog = b;
    t->light_schema_change = light;
    t->disable_auto_compaction = noauto;
    t->enable_mow_light_delete = lightdel;
    for (size_t i = 0; i < in.n; i++) {
        if (cat__is_passthrough_key(in.v[i].key)) {
            cat_props_set(&t->props, in.v[i].key, in.v[i].value);
        }
    }
    rc = DB_OK;
out:
    cat_props_destroy(&in);
    return rc;
}

int
cat_db_set_properties(cat_catalog *c, const char *name, const cat_props *props, db_error *err)
{
    cat_db *db = cat_db_find(c, name);
    if (db == NULL) {
        return db_error_set(err, ER_BAD_DB_ERROR, name);
    }
    if (db->is_system) {
        return cat__doris(err, "Can not alter database %s", db->name);
    }
    /* Validate the merged database settings as a table would (values and ROW ttl). */
    cat_props merged;
    cat_props_init(&merged);
    cat_props_copy(&merged, &db->props);
    cat_props_copy(&merged, props);
    cat_binlog_cfg b = cat_binlog_default();
    int rc = cat__binlog_merge(&b, &merged, true, err);
    if (rc == DB_OK) {
        rc = cat__binlog_check_row(&b, err);
    }
    if (rc == DB_OK) {
        cat_props_copy(&db->props, props);
    }
    cat_props_destroy(&merged);
    return rc;
}
