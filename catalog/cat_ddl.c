/* SPDX-License-Identifier: Apache-2.0
 * cat_ddl: CREATE TABLE validation (Doris's CreateTableInfo / InternalCatalog rules and texts,
 * seed 001's Row Binlog rules), CREATE TABLE ... LIKE, and the ALTER TABLE operations on the
 * object model. See README.md §"Schema objects" for the rule order and sources. */
#include "catalog/cat_schema_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/mem.h"

#define ROW_NOT_ALLOWED "Not allowed to perform current operation on Table With binlog<row>"

/* Scratch state of one CREATE TABLE validation. */
typedef struct create_ctx {
    const cat_catalog *cat;
    const cat_create_table_req *req;
    const cat_db *db;
    cat_table *t;
    cat_props props; /* the statement's properties, consumed as they are analyzed */
} create_ctx;

static int like_table(create_ctx *x, cat_table **out, db_error *err);
static int infer_keys(create_ctx *x, const char ***keys, size_t *nkeys, db_error *err);
static int build_columns(create_ctx *x, db_error *err);
static int check_keys(create_ctx *x, const char **keys, size_t nkeys, db_error *err);
static int check_partition_column(create_ctx *x, const cat_column *col, db_error *err);
static int build_partitions(create_ctx *x, db_error *err);
static int build_distribution(create_ctx *x, db_error *err);
static int check_column_types(const cat_table *t, db_error *err);
static int apply_binlog(create_ctx *x, db_error *err);
static int apply_other_props(create_ctx *x, db_error *err);
static int check_unknown_props(create_ctx *x, db_error *err);
/* (partition_from_def is cat__partition_from_def, cat_schema_int.h) */
static int set_default_agg(cat_table *t, cat_column *c);

/* ======================================================================================
 * CREATE TABLE
 * ====================================================================================== */

void
cat__add_hidden(cat_table *t, const char *name, cat_type type, bool nullable, const char *def)
{
    t->cols = mem_realloc(t->cols, (t->ncols + 1) * sizeof *t->cols);
    cat_column *c = &t->cols[t->ncols++];
    memset(c, 0, sizeof *c);
    c->uid = t->next_uid++;
    c->name = mem_strdup(name);
    c->type = type;
    c->nullable = nullable;
    c->has_default = def != NULL;
    c->default_text = def ? mem_strdup(def) : NULL;
    c->comment = mem_strdup("");
    c->flags = CAT_COL_HIDDEN;
    set_default_agg(t, c);
}

/* Value columns without a written aggregation: NONE on DUP and MoW, REPLACE on MoR. */
static int
set_default_agg(cat_table *t, cat_column *c)
{
    if (c->is_key || c->agg != CAT_AGG_UNSET) {
        return DB_OK;
    }
    if (t->keys == CAT_KEYS_DUP || (t->keys == CAT_KEYS_UNIQUE && t->mow)) {
        c->agg = CAT_AGG_NONE;
    } else if (t->keys == CAT_KEYS_UNIQUE) {
        c->agg = CAT_AGG_REPLACE;
    }
    return DB_OK;
}

/* Doris PropertyAnalyzer.analyzeSequenceType: PrimitiveType.valueOf(text.toUpperCase()), then
 * only fixed-point integers and dates. Names of other PrimitiveTypes give the type message, a
 * name that is no PrimitiveType Java's enum message. */
int
cat__sequence_type(const char *text, cat_type *out, char *name, size_t cap, db_error *err)
{
    static const struct {
        const char *name;
        cat_type_id id;
    } ok[] = {
            {"TINYINT", CAT_T_TINYINT},
            {"SMALLINT", CAT_T_SMALLINT},
            {"INT", CAT_T_INT},
            {"BIGINT", CAT_T_BIGINT},
            {"LARGEINT", CAT_T_LARGEINT},
            {"DATE", CAT_T_DATE},
            {"DATETIME", CAT_T_DATETIME},
            {"DATEV2", CAT_T_DATE},
            {"DATETIMEV2", CAT_T_DATETIME},
    };
    /* The other PrimitiveType names, space-separated. */
    static const char other[] =
            " INVALID_TYPE UNSUPPORTED NULL_TYPE BOOLEAN FLOAT DOUBLE DECIMALV2 DECIMAL32 DECIMAL64"
            " DECIMAL128 DECIMAL256 TIME TIMEV2 CHAR VARCHAR STRING HLL BITMAP QUANTILE_STATE"
            " AGG_STATE ARRAY MAP STRUCT VARIANT JSONB LAMBDA_FUNCTION IPV4 IPV6 ALL TEMPLATE ";
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        if (cat__ieq(text, ok[i].name)) {
            *out = cat_type_make(ok[i].id);
            size_t k = 0;
            for (; ok[i].name[k] != '\0' && k + 1 < cap; k++) {
                name[k] = (char)tolower((unsigned char)ok[i].name[k]);
            }
            name[k] = '\0';
            return DB_OK;
        }
    }
    char up[64];
    up[0] = ' ';
    size_t k = 1;
    for (; text[k - 1] != '\0' && k + 2 < sizeof up; k++) {
        up[k] = (char)toupper((unsigned char)text[k - 1]);
    }
    up[k] = ' ';
    up[k + 1] = '\0';
    if (strchr(text, ' ') == NULL && strstr(other, up) != NULL) {
        return cat__doris(err, "sequence type only support integer types and date types");
    }
    up[k] = '\0';
    return cat__doris(err, "No enum constant org.apache.doris.catalog.PrimitiveType.%s", up + 1);
}

static int
like_table(create_ctx *x, cat_table **out, db_error *err)
{
    const cat_create_table_req *r = x->req;
    const char *src_db = r->like_db ? r->like_db : r->db;
    const cat_db *sdb = cat_db_find(x->cat, src_db);
    if (sdb == NULL) {
        return db_error_set(err, ER_BAD_DB_ERROR, src_db);
    }
    const cat_table *src = cat_table_find(sdb, r->like_table);
    if (src == NULL) {
        return db_error_set(err, ER_NO_SUCH_TABLE, src_db, r->like_table);
    }
    if (cat_table_find(x->db, r->name) != NULL) {
        if (r->if_not_exists) {
            *out = NULL;
            return DB_OK;
        }
        return db_error_set(err, ER_TABLE_EXISTS_ERROR, r->name);
    }
    /* The copy keeps the source's binlog settings: E47 when they disable what the database
     * enables (Doris replays the source's DDL, binlog.enable included, through CREATE TABLE). */
    cat_binlog_cfg dbb = cat_binlog_default();
    if (cat__binlog_merge(&dbb, &x->db->props, true, err) != DB_OK) {
        return DB_ERR;
    }
    if (dbb.enable && !src->binlog.enable) {
        return cat__doris(err, "db binlog is enable, but table binlog is disable");
    }
    cat_table *t = cat_table_clone(src);
    mem_free(t->name);
    t->name = mem_strdup(r->name);
    t->id = 0;
    t->db_id = 0;
    for (size_t i = 0; i < t->ntmp_parts; i++) { /* LIKE copies no temporary partition */
        cat__partition_destroy(&t->tmp_parts[i]);
    }
    t->ntmp_parts = 0;
    for (size_t i = 0; i < t->nparts; i++) {
        t->parts[i].id = 0;
        if (t->part_type == CAT_PART_NONE) {
            mem_free(t->parts[i].name);
            t->parts[i].name = mem_strdup(r->name);
        }
    }
    *out = t;
    return DB_OK;
}

/* Doris's default keys when no KEY clause is written: AGGREGATE when any column has an
 * aggregation (the leading columns without one), otherwise DUPLICATE over the short-key prefix
 * (at most 3 columns and 36 bytes; stops before float/double/string/complex, after a varchar).
 * A DUPLICATE table gets no keys at all with "enable_duplicate_without_keys_by_default" =
 * "true", or when that prefix is empty (a first column of such a type: Doris refuses it unless
 * the property is set; a MySQL script cannot know, so Rivulet applies the property). */
static int
infer_keys(create_ctx *x, const char ***keys, size_t *nkeys, db_error *err)
{
    const cat_create_table_req *r = x->req;
    const char **k = mem_calloc(r->ncols ? r->ncols : 1, sizeof *k);
    size_t n = 0;
    bool has_agg = false, without_keys = false;
    for (size_t i = 0; i < r->ncols; i++) {
        has_agg |= r->cols[i].agg != CAT_AGG_UNSET;
    }
    const char *wk = cat_props_get(&x->props, "enable_duplicate_without_keys_by_default");
    if (wk != NULL && cat__parse_strict_bool("enable_duplicate_without_keys_by_default", wk,
                                             &without_keys, err) != DB_OK) {
        mem_free(k);
        return DB_ERR;
    }
    if (without_keys && !has_agg) {
        x->t->keys = CAT_KEYS_DUP;
        *keys = k;
        *nkeys = 0;
        return DB_OK;
    }
    if (has_agg) {
        for (size_t i = 0; i < r->ncols && r->cols[i].agg == CAT_AGG_UNSET; i++) {
            k[n++] = r->cols[i].name;
        }
        x->t->keys = CAT_KEYS_AGG;
    } else {
        int len = 0;
        for (size_t i = 0; i < r->ncols; i++) {
            const cat_type *ty = &r->cols[i].type;
            len += cat__type_index_size(ty);
            if (n >= 3 || len > 36) {
                if (n == 0 && (ty->id == CAT_T_CHAR || ty->id == CAT_T_VARCHAR)) {
                    k[n++] = r->cols[i].name;
                }
                break;
            }
            if (ty->id == CAT_T_FLOAT || ty->id == CAT_T_DOUBLE || ty->id == CAT_T_STRING ||
                cat_type_is_complex(ty)) {
                break;
            }
            k[n++] = r->cols[i].name;
            if (ty->id == CAT_T_VARCHAR) {
                break;
            }
        }
        x->t->keys = CAT_KEYS_DUP;
    }
    if (n == 0 && has_agg) {
        mem_free(k);
        return cat__doris(err, "The olap table first column could not be float, double, string "
                               "or array, struct, map, please use decimal or varchar instead.");
    }
    *keys = k;
    *nkeys = n;
    return DB_OK;
}

static int
build_columns(create_ctx *x, db_error *err)
{
    const cat_create_table_req *r = x->req;
    cat_table *t = x->t;
    t->cols = mem_calloc(r->ncols, sizeof *t->cols);
    for (size_t i = 0; i < r->ncols; i++) {
        const cat_column_def *d = &r->cols[i];
        cat_column *c = &t->cols[t->ncols++];
        c->uid = t->next_uid++;
        c->name = mem_strdup(d->name);
        c->type = d->type;
        c->nullable = d->null_given ? d->nullable : !d->auto_inc;
        c->auto_inc = d->auto_inc;
        c->auto_inc_start = d->auto_inc ? d->auto_inc_start : 0;
        c->has_default = d->has_default;
        c->default_is_expr = d->default_is_expr;
        c->default_text = (d->has_default && !d->default_is_null && d->default_text)
                                  ? mem_strdup(d->default_text)
                                  : NULL;
        c->comment = mem_strdup(d->comment ? d->comment : "");
        c->agg = (uint8_t)d->agg;
        if (cat_type_validate(&c->type, c->name, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

/* CreateTableInfo.validateKeyColumns and the key / value aggregation rules. */
static int
check_keys(create_ctx *x, const char **keys, size_t nkeys, db_error *err)
{
    const cat_create_table_req *r = x->req;
    cat_table *t = x->t;
    static const char *const keys_names[] = {"DUP_KEYS", "UNIQUE_KEYS", "AGG_KEYS"};

    if (nkeys == 0 && t->keys != CAT_KEYS_DUP) {
        return cat__doris(err, "The number of key columns is 0.");
    }
    if (nkeys > t->ncols) {
        return cat__doris(err,
                          "The number of key columns should be less than the number of columns.");
    }
    if (r->ncluster_cols > 0) {
        if (t->keys != CAT_KEYS_UNIQUE) {
            return cat__doris(err, "Cluster keys only support unique keys table.");
        }
        t->cluster_uids = mem_calloc(r->ncluster_cols, sizeof *t->cluster_uids);
        for (size_t i = 0; i < r->ncluster_cols; i++) {
            const char *name = r->cluster_cols[i];
            for (size_t j = 0; j < i; j++) {
                if (cat__ieq(r->cluster_cols[j], name)) {
                    return cat__doris(err, "Duplicate cluster key column[%s].", name);
                }
            }
            const cat_column *c = cat_table_column(t, name);
            if (c == NULL) {
                return cat__doris(err, "Key cluster column[%s] doesn't exist.", name);
            }
            t->cluster_uids[t->ncluster++] = c->uid;
        }
    }
    for (size_t i = 0; i < nkeys; i++) {
        const char *name = t->cols[i].name;
        if (!cat__ieq(keys[i], name)) {
            if (cat_table_column(t, keys[i]) == NULL) {
                return cat__doris(err, "Key column[%s] doesn't exist.", keys[i]);
            }
            return cat__doris(
                    err,
                    "Key columns should be a ordered prefix of the schema. KeyColumns[%zu] "
                    "(starts from zero) is %s, but corresponding column is %s in the "
                    "previous columns declaration.",
                    i, keys[i], name);
        }
        if (t->cols[i].agg != CAT_AGG_UNSET) {
            return cat__doris(err, "Key column[%s] should not specify aggregate type.", name);
        }
    }
    for (size_t i = nkeys; i < t->ncols; i++) {
        bool has = t->cols[i].agg != CAT_AGG_UNSET;
        if (t->keys == CAT_KEYS_AGG && !has) {
            return cat__doris(err, "%s table should specify aggregate type for non-key column[%s]",
                              keys_names[t->keys], t->cols[i].name);
        }
        if (t->keys != CAT_KEYS_AGG && has) {
            return cat__doris(err,
                              "%s table should not specify aggregate type for non-key column[%s]",
                              keys_names[t->keys], t->cols[i].name);
        }
    }
    if (r->ncluster_cols > 0 && !t->mow) {
        return cat__doris(err, "Cluster keys only support unique keys table which enabled "
                               "enable_unique_key_merge_on_write");
    }
    t->nkeys = nkeys;
    for (size_t i = 0; i < t->ncols; i++) {
        t->cols[i].is_key = i < nkeys;
        set_default_agg(t, &t->cols[i]);
    }
    return DB_OK;
}

/* CreateTableInfo.validatePartitionColumn. */
static int
check_partition_column(create_ctx *x, const cat_column *col, db_error *err)
{
    const cat_table *t = x->t;
    if (!col->is_key && (col->agg != CAT_AGG_NONE || t->mow)) {
        return cat__doris(err, "The partition column could not be aggregated column");
    }
    if (col->type.id == CAT_T_FLOAT || col->type.id == CAT_T_DOUBLE) {
        return cat__doris(err, "Floating point type column can not be partition column");
    }
    if (col->type.id == CAT_T_STRING) {
        return cat__doris(err, "String Type should not be used in partition column[%s].",
                          col->name);
    }
    if (cat_type_is_complex(&col->type)) {
        char up[64];
        cat__type_upper(&col->type, up, sizeof up);
        return cat__doris(err, "Complex type column can't be partition column: %s", up);
    }
    return DB_OK;
}

/* Doris Range.toString over partition keys: "[types: [INT]; keys: [10]; ..types: ...)". */
void
cat__range_text(const cat_table *t, const cat_partition *p, char *dst, size_t cap)
{
    const cat_column *c = cat_table_column_uid(t, t->part_col_uid);
    char up[64];
    cat__type_upper(&c->type, up, sizeof up);
    snprintf(dst, cap, "[types: [%s]; keys: [%s]; ..types: [%s]; keys: [%s]; )", up,
             p->lower_min ? cat__type_min_text(&c->type) : p->lower, up,
             p->upper_max ? "MAXVALUE" : p->upper);
}

/* Compare partition bounds: a lower/upper pair where lower_min / upper_max are infinities. */
static int
bound_cmp(const cat_type *ty, const char *a, bool a_inf, int a_sign, const char *b, bool b_inf,
          int b_sign)
{
    if (a_inf || b_inf) {
        int av = a_inf ? a_sign : 0;
        int bv = b_inf ? b_sign : 0;
        if (a_inf && b_inf) {
            return av == bv ? 0 : av < bv ? -1 : 1;
        }
        return a_inf ? av : -bv;
    }
    return cat__part_value_cmp(ty, a, b);
}

/* A value listed twice inside one partition: Doris's ListPartitionInfo text, the desc as
 * PartitionKeyDesc.toSql ('v', ... with NULL bare) and the key as PartitionKey.toSql ("v"). */
static int
list_duplicate(const cat_partition_def *d, const char *key, db_error *err)
{
    char desc[1024];
    size_t n = 0;
    desc[n++] = '(';
    for (size_t i = 0; i < d->nvalues && n < sizeof desc - 16; i++) {
        int w = snprintf(desc + n, sizeof desc - n, d->values[i] ? "%s'%s'" : "%sNULL",
                         i ? "," : "", d->values[i] ? d->values[i] : "");
        n = w > 0 && (size_t)w < sizeof desc - n ? n + (size_t)w : sizeof desc - 16;
    }
    snprintf(desc + n, sizeof desc - n, ")");
    /* Doris writes a full-width colon (U+FF1A) after "format". */
    return cat__doris(err,
                      "Invalid list value format\xef\xbc\x9a The partition key[%s] has duplicate "
                      "item [%s].",
                      desc, key);
}

/* Builds partition p of t from definition d; checks values, range order, overlaps and list
 * conflicts against others[0..nothers) (the formal partitions, or the temporary ones). */
int
cat__partition_from_def(const cat_table *t, const cat_partition *others, size_t nothers,
                        const cat_partition_def *d, cat_partition *p, db_error *err)
{
    const cat_column *col = cat_table_column_uid(t, t->part_col_uid);
    char v[256];
    memset(p, 0, sizeof *p);
    p->name = mem_strdup(d->name);
    p->buckets = d->buckets > 0 ? d->buckets : t->buckets;
    if ((t->part_type == CAT_PART_RANGE && d->kind == CAT_PDEF_IN) ||
        (t->part_type == CAT_PART_LIST && d->kind != CAT_PDEF_IN)) {
        return cat__doris(err, "partitions types is invalid, expected FIXED or LESS in range "
                               "partitions and IN in list partitions");
    }
    if (t->part_type == CAT_PART_LIST) {
        p->values = mem_calloc(d->nvalues ? d->nvalues : 1, sizeof *p->values);
        for (size_t i = 0; i < d->nvalues; i++) {
            if (d->values[i] == NULL) { /* VALUES IN ((NULL)): Doris #31613 */
                if (!col->nullable) {
                    return cat__doris(err, "Can't have null partition is for NOT NULL partition "
                                           "column in partition expr's index 0");
                }
                if (p->has_null) {
                    return list_duplicate(d, "(NULL)", err);
                }
                const char *owner = NULL;
                for (size_t j = 0; owner == NULL && j < nothers; j++) {
                    owner = others[j].has_null ? others[j].name : NULL;
                }
                if (owner != NULL) {
                    return cat__doris(err,
                                      "The partition key[(NULL)] in partition item[%s] is "
                                      "conflict with current partitionKeys[%s]",
                                      d->name, owner);
                }
                p->has_null = true;
                continue;
            }
            if (cat__part_value_normalize(&col->type, d->values[i], v, sizeof v, err) != DB_OK) {
                return DB_ERR;
            }
            for (size_t j = 0; j < nothers; j++) {
                for (size_t k = 0; k < others[j].nvalues; k++) {
                    if (cat__part_value_cmp(&col->type, others[j].values[k], v) == 0) {
                        return cat__doris(err,
                                          "The partition key[(\"%s\")] in partition item[%s] is "
                                          "conflict with current partitionKeys[%s]",
                                          v, d->name, others[j].name);
                    }
                }
            }
            for (size_t k = 0; k < p->nvalues; k++) {
                if (cat__part_value_cmp(&col->type, p->values[k], v) == 0) {
                    char key[300];
                    snprintf(key, sizeof key, "(\"%s\")", v);
                    return list_duplicate(d, key, err);
                }
            }
            p->values[p->nvalues++] = mem_strdup(v);
        }
        return DB_OK;
    }
    /* RANGE */
    p->upper_max = d->upper_max;
    if ((!d->upper_max && d->upper == NULL) || (d->kind == CAT_PDEF_FIXED && d->lower == NULL)) {
        return cat__doris(err, "Can't create partition for NULL Range");
    }
    if (!d->upper_max) {
        if (cat__part_value_normalize(&col->type, d->upper, v, sizeof v, err) != DB_OK) {
            return DB_ERR;
        }
        p->upper = mem_strdup(v);
    }
    if (d->kind == CAT_PDEF_FIXED) {
        if (cat__part_value_normalize(&col->type, d->lower, v, sizeof v, err) != DB_OK) {
            return DB_ERR;
        }
        p->lower = mem_strdup(v);
        if (!p->upper_max && cat__part_value_cmp(&col->type, p->lower, p->upper) >= 0) {
            return cat__doris(err, "The lower values must smaller than upper values");
        }
        if (strcmp(v, cat__type_min_text(&col->type)) == 0) {
            /* [(type minimum), ...) is the MINVALUE partition: NULL goes there too */
            mem_free(p->lower);
            p->lower = NULL;
            p->lower_min = true;
        }
    } else {
        /* LESS THAN: the lower bound is the largest existing upper bound not above ours. */
        const cat_partition *best = NULL;
        for (size_t i = 0; i < nothers; i++) {
            const cat_partition *q = &others[i];
            if (q->upper_max) {
                continue;
            }
            if (bound_cmp(&col->type, q->upper, false, 0, p->upper, p->upper_max, 1) <= 0 &&
                (best == NULL || cat__part_value_cmp(&col->type, q->upper, best->upper) > 0)) {
                best = q;
            }
        }
        if (best == NULL) {
            p->lower_min = true;
        } else {
            p->lower = mem_strdup(best->upper);
        }
        if (!p->lower_min && !p->upper_max &&
            cat__part_value_cmp(&col->type, p->lower, p->upper) >= 0) {
            char a[512];
            cat__range_text(t, p, a, sizeof a);
            return cat__doris(err, "Range %s is intersected with range: %s", a, a);
        }
    }
    for (size_t i = 0; i < nothers; i++) {
        const cat_partition *q = &others[i];
        /* [p.lo, p.hi) and [q.lo, q.hi) overlap iff p.lo < q.hi && q.lo < p.hi. */
        bool a = bound_cmp(&col->type, p->lower, p->lower_min, -1, q->upper, q->upper_max, 1) < 0;
        bool b = bound_cmp(&col->type, q->lower, q->lower_min, -1, p->upper, p->upper_max, 1) < 0;
        if (a && b) {
            char pa[512];
            char qa[512];
            cat__range_text(t, p, pa, sizeof pa);
            cat__range_text(t, q, qa, sizeof qa);
            return cat__doris(err, "Range %s is intersected with range: %s", pa, qa);
        }
    }
    return DB_OK;
}

static int
build_partitions(create_ctx *x, db_error *err)
{
    const cat_create_table_req *r = x->req;
    cat_table *t = x->t;
    t->part_type = (uint8_t)r->part_type;
    t->part_col_uid = -1;
    if (r->part_type == CAT_PART_NONE) {
        t->parts = mem_calloc(1, sizeof *t->parts);
        t->parts[0].name = mem_strdup(r->name);
        t->parts[0].buckets = t->buckets;
        t->parts[0].lower_min = true;
        t->parts[0].upper_max = true;
        t->nparts = 1;
        return DB_OK;
    }
    for (size_t i = 0; i < r->npart_cols; i++) {
        const cat_column *c = cat_table_column(t, r->part_cols[i]);
        if (c == NULL) {
            return cat__doris(err, "partition key %s is not exists", r->part_cols[i]);
        }
        if (check_partition_column(x, c, err) != DB_OK) {
            return DB_ERR;
        }
    }
    for (size_t i = 0; i < r->npart_cols; i++) {
        for (size_t j = 0; j < i; j++) {
            if (strcmp(r->part_cols[i], r->part_cols[j]) == 0) {
                return cat__doris(err, "Duplicated partition column %s", r->part_cols[i]);
            }
        }
    }
    if (r->npart_cols != 1) {
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "partitioning by more than one column");
    }
    t->part_col_uid = cat_table_column(t, r->part_cols[0])->uid;
    for (size_t i = 0; i < r->nparts; i++) {
        bool bad = (r->part_type == CAT_PART_RANGE && r->parts[i].kind == CAT_PDEF_IN) ||
                   (r->part_type == CAT_PART_LIST && r->parts[i].kind != CAT_PDEF_IN);
        if (bad) {
            return cat__doris(err, "partitions types is invalid, expected FIXED or LESS in range "
                                   "partitions and IN in list partitions");
        }
    }
    for (size_t i = 0; i < r->nparts; i++) {
        for (size_t j = 0; j < i; j++) {
            if (strcmp(r->parts[i].name, r->parts[j].name) == 0) {
                return cat__doris(err, "Duplicated named partition: %s", r->parts[i].name);
            }
        }
    }
    t->parts = mem_calloc(r->nparts ? r->nparts : 1, sizeof *t->parts);
    for (size_t i = 0; i < r->nparts; i++) {
        cat_partition p;
        if (cat__partition_from_def(t, t->parts, t->nparts, &r->parts[i], &p, err) != DB_OK) {
            cat__partition_destroy(&p);
            return DB_ERR;
        }
        t->parts[t->nparts++] = p;
    }
    return DB_OK;
}

/* DistributionDescriptor.validate, then the random-distribution key rules. */
static int
build_distribution(create_ctx *x, db_error *err)
{
    const cat_create_table_req *r = x->req;
    cat_table *t = x->t;
    bool has = r->has_dist;
    t->dist_random = has ? r->dist_random : t->keys == CAT_KEYS_DUP;
    t->buckets_auto = has ? r->buckets_auto : true;
    t->buckets = t->buckets_auto ? CAT_AUTO_BUCKETS : r->buckets;
    if (!t->buckets_auto && r->buckets <= 0) {
        return cat__doris(
                err, t->dist_random ? "Number of random distribution should be greater than zero."
                                    : "Number of hash distribution should be greater than zero.");
    }
    if (t->dist_random) {
        if (t->keys == CAT_KEYS_UNIQUE) {
            return cat__doris(err, "Create unique keys table should not contain random "
                                   "distribution desc");
        }
        if (t->keys == CAT_KEYS_AGG) {
            for (size_t i = 0; i < t->ncols; i++) {
                if (t->cols[i].agg == CAT_AGG_REPLACE ||
                    t->cols[i].agg == CAT_AGG_REPLACE_IF_NOT_NULL) {
                    return cat__doris(err, "Create aggregate keys table with value columns of "
                                           "which aggregate type is REPLACE or REPLACE_IF_NOT_NULL "
                                           "should not contain random distribution desc");
                }
            }
        }
        return DB_OK;
    }
    size_t n = has ? r->ndist_cols : 0;
    const char *first = t->cols[0].name;
    const char **names = has && n > 0 ? r->dist_cols : NULL;
    if (!has) {
        /* Rivulet default for UNIQUE / AGG without DISTRIBUTED BY: HASH(key columns). */
        n = t->nkeys;
    } else if (n == 0) {
        n = 1;
        names = &first;
    }
    t->dist_uids = mem_calloc(n, sizeof *t->dist_uids);
    for (size_t i = 0; i < n; i++) {
        const char *name = names ? names[i] : t->cols[i].name;
        for (size_t j = 0; j < i; j++) {
            if (strcmp(names ? names[j] : t->cols[j].name, name) == 0) {
                return cat__doris(err, "Duplicate key in distribution desc is not allowed");
            }
        }
        const cat_column *c = cat_table_column(t, name);
        if (c == NULL) {
            return cat__doris(err, "Distribution column(%s) doesn't exist", name);
        }
        if (!c->is_key && (t->keys == CAT_KEYS_UNIQUE || t->keys == CAT_KEYS_AGG)) {
            return cat__doris(err, "Distribution column[%s] is not key column", name);
        }
        t->dist_uids[t->ndist++] = c->uid;
    }
    return DB_OK;
}

/* ColumnDefinition.validate: types allowed in key columns. */
static int
check_column_types(const cat_table *t, db_error *err)
{
    for (size_t i = 0; i < t->ncols; i++) {
        const cat_column *c = &t->cols[i];
        if (!c->is_key) {
            continue;
        }
        switch (c->type.id) {
        case CAT_T_FLOAT:
        case CAT_T_DOUBLE:
            return cat__doris(err, "Float or double can not used as a key, use decimal instead.");
        case CAT_T_STRING:
            return cat__doris(err, "String Type should not be used in key column[%s]", c->name);
        case CAT_T_ARRAY:
            return cat__doris(err, "Array can only be used in the non-key column of the "
                                   "duplicate table at present.");
        case CAT_T_JSON:
            return cat__doris(err, "JsonType type should not be used in key column[%s].", c->name);
        case CAT_T_MAP:
            return cat__doris(err, "Map can only be used in the non-key column of the duplicate "
                                   "table at present.");
        case CAT_T_VARIANT:
            return cat__doris(err, "Variant type should not be used in key column[%s].", c->name);
        default:
            break;
        }
    }
    return DB_OK;
}

/* Database binlog.* defaults, then the table's; then the Row Binlog model rules (seed 001). */
static int
apply_binlog(create_ctx *x, db_error *err)
{
    cat_table *t = x->t;
    cat_binlog_cfg b = cat_binlog_default();
    if (cat__binlog_merge(&b, &x->db->props, true, err) != DB_OK) {
        return DB_ERR;
    }
    bool db_enable = b.enable;
    if (cat__binlog_merge(&b, &x->props, true, err) != DB_OK) {
        return DB_ERR;
    }
    /* A table of a database with binlog enabled inherits it and may not turn it off (E47, the
     * same rule as ALTER TABLE SET). */
    if (db_enable && !b.enable) {
        return cat__doris(err, "db binlog is enable, but table binlog is disable");
    }
    for (size_t i = x->props.n; i-- > 0;) {
        if (cat__is_binlog_key(x->props.v[i].key)) {
            const char *k = x->props.v[i].key;
            if (strcmp(k, "binlog.enable") == 0 || strcmp(k, "binlog.format") == 0 ||
                strcmp(k, "binlog.ttl_seconds") == 0 || strcmp(k, "binlog.max_bytes") == 0 ||
                strcmp(k, "binlog.max_history_nums") == 0 ||
                strcmp(k, "binlog.need_historical_value") == 0) {
                cat_props_remove(&x->props, k);
            }
        }
    }
    t->binlog = b;
    if (!cat_binlog_is_row(&b)) {
        return DB_OK;
    }
    if (cat__binlog_check_row(&b, err) != DB_OK) {
        return DB_ERR;
    }
    if (t->keys == CAT_KEYS_AGG || (t->keys == CAT_KEYS_UNIQUE && !t->mow)) {
        return cat__doris(err, "Only duplicate and mow table model support binlog<Row>");
    }
    if (t->ncluster > 0) {
        return cat__doris(err, "Unique merge-on-write tables with cluster keys do not support "
                               "binlog<Row>");
    }
    if (t->keys == CAT_KEYS_DUP && b.need_historical_value) {
        return cat__doris(err, "Duplicate table model don't support record historical value");
    }
    for (size_t i = 0; i < t->ncols; i++) {
        if (t->cols[i].type.id == CAT_T_VARIANT) {
            return cat__doris(err, "variant column can't be created on table with binlog<Row>");
        }
    }
    for (size_t i = 0; i < t->ncols; i++) {
        if (t->cols[i].auto_inc) {
            return cat__doris(err, "auto-inc column can't be created on table with binlog<Row>");
        }
    }
    return DB_OK;
}

/* Model switches, sequence column and the properties kept for SHOW CREATE TABLE. */
static int
apply_other_props(create_ctx *x, db_error *err)
{
    cat_table *t = x->t;
    const char *v;
    if ((v = cat_props_get(&x->props, "light_schema_change")) != NULL) {
        if (cat__parse_strict_bool("light_schema_change", v, &t->light_schema_change, err) !=
            DB_OK) {
            return DB_ERR;
        }
        cat_props_remove(&x->props, "light_schema_change");
    }
    if ((v = cat_props_get(&x->props, "disable_auto_compaction")) != NULL) {
        if (cat__parse_strict_bool("disable_auto_compaction", v, &t->disable_auto_compaction,
                                   err) != DB_OK) {
            return DB_ERR;
        }
        cat_props_remove(&x->props, "disable_auto_compaction");
    }
    if ((v = cat_props_get(&x->props, "enable_mow_light_delete")) != NULL) {
        if (cat__parse_strict_bool("enable_mow_light_delete", v, &t->enable_mow_light_delete,
                                   err) != DB_OK) {
            return DB_ERR;
        }
        cat_props_remove(&x->props, "enable_mow_light_delete");
    }
    if ((v = cat_props_get(&x->props, "enable_duplicate_without_keys_by_default")) != NULL) {
        bool b; /* applied by infer_keys; with a KEY clause it changes nothing (Doris) */
        if (cat__parse_strict_bool("enable_duplicate_without_keys_by_default", v, &b, err) !=
            DB_OK) {
            return DB_ERR;
        }
        cat_props_remove(&x->props, "enable_duplicate_without_keys_by_default");
    }
    const char *seq_col = cat_props_get(&x->props, "function_column.sequence_col");
    const char *seq_type = cat_props_get(&x->props, "function_column.sequence_type");
    if (seq_col != NULL || seq_type != NULL) {
        if (t->keys != CAT_KEYS_UNIQUE) {
            return cat__doris(err, "sequence column only support UNIQUE_KEYS");
        }
        cat_type ty = cat_type_make(CAT_T_BIGINT);
        if (seq_col != NULL) {
            const cat_column *c = cat_table_column(t, seq_col);
            if (c == NULL) {
                return cat__doris(err, "The specified sequence column[%s] not exists", seq_col);
            }
            ty = c->type;
            cat_props_set(&t->props, "function_column.sequence_col", c->name);
        } else {
            char name[32];
            if (cat__sequence_type(seq_type, &ty, name, sizeof name, err) != DB_OK) {
                return DB_ERR;
            }
            cat_props_set(&t->props, "function_column.sequence_type", name);
        }
        cat__add_hidden(t, CAT_COL_SEQUENCE, ty, true, NULL);
        cat_props_remove(&x->props, "function_column.sequence_col");
        cat_props_remove(&x->props, "function_column.sequence_type");
    }
    for (size_t i = 0; i < x->props.n;) {
        const char *k = x->props.v[i].key;
        if (cat__is_passthrough_key(k)) {
            cat_props_set(&t->props, k, x->props.v[i].value);
            cat_props_remove(&x->props, k);
        } else if (cat__is_ignored_key(k)) {
            cat_props_remove(&x->props, k);
        } else {
            i++;
        }
    }
    return DB_OK;
}

/* InternalCatalog: whatever no analyzer consumed is an error, printed as Java prints a map. */
static int
check_unknown_props(create_ctx *x, db_error *err)
{
    if (x->props.n == 0) {
        return DB_OK;
    }
    buf b;
    buf_init(&b);
    buf_append_str(&b, "{");
    for (size_t i = 0; i < x->props.n; i++) {
        buf_printf(&b, "%s%s=%s", i ? ", " : "", x->props.v[i].key, x->props.v[i].value);
    }
    buf_append(&b, "}", 2);
    int rc = cat__doris(err, "Unknown properties: %s", (const char *)b.data);
    buf_destroy(&b);
    return rc;
}

int
cat_table_validate_create(const cat_catalog *c, const cat_create_table_req *req, cat_table **out,
                          db_error *err)
{
    create_ctx x;
    const char **keys = NULL;
    size_t nkeys = 0;
    bool keys_owned = false;
    int rc = DB_ERR;

    *out = NULL;
    memset(&x, 0, sizeof x);
    x.cat = c;
    x.req = req;
    cat_props_init(&x.props);
    x.db = cat_db_find(c, req->db);
    if (x.db == NULL) {
        return db_error_set(err, ER_BAD_DB_ERROR, req->db);
    }
    if (x.db->is_system) {
        return db_error_set(err, ER_DBACCESS_DENIED_ERROR, "root", "%", x.db->name);
    }
    if (req->like_table != NULL) {
        return like_table(&x, out, err);
    }
    if (req->ncols == 0) {
        return cat__doris(err, "table should contain at least one column");
    }
    for (size_t i = 0; i < req->nprops; i++) {
        cat_props_set(&x.props, req->props[i].key, req->props[i].value);
    }

    x.t = mem_calloc(1, sizeof *x.t);
    cat_props_init(&x.t->props);
    x.t->name = mem_strdup(req->name);
    x.t->comment = mem_strdup(req->comment ? req->comment : "");
    x.t->light_schema_change = true;
    x.t->part_col_uid = -1;

    if (req->has_keys) {
        x.t->keys = (uint8_t)req->keys_type;
        keys = req->key_cols;
        nkeys = req->nkey_cols;
    } else {
        if (infer_keys(&x, &keys, &nkeys, err) != DB_OK) {
            goto out;
        }
        keys_owned = true;
    }
    const char *mow = cat_props_get(&x.props, "enable_unique_key_merge_on_write");
    if (mow != NULL && x.t->keys != CAT_KEYS_UNIQUE) {
        cat__doris(err, "enable_unique_key_merge_on_write property only support unique key table");
        goto out;
    }
    if (x.t->keys == CAT_KEYS_UNIQUE) {
        x.t->mow = true;
        if (mow != NULL) {
            if (cat__parse_strict_bool("enable_unique_key_merge_on_write", mow, &x.t->mow, err) !=
                DB_OK) {
                goto out;
            }
            cat_props_remove(&x.props, "enable_unique_key_merge_on_write");
        }
    }
    if (build_columns(&x, err) != DB_OK || check_keys(&x, keys, nkeys, err) != DB_OK) {
        goto out;
    }
    if (x.t->keys == CAT_KEYS_UNIQUE) {
        cat__add_hidden(x.t, CAT_COL_DELETE_SIGN, cat_type_make(CAT_T_TINYINT), false, "0");
    }
    for (size_t i = 0; i < x.t->ncols; i++) {
        for (size_t j = 0; j < i; j++) {
            if (cat__ieq(x.t->cols[i].name, x.t->cols[j].name)) {
                db_error_set(err, ER_DUP_FIELDNAME, x.t->cols[i].name);
                goto out;
            }
        }
    }
    if (build_distribution(&x, err) != DB_OK || build_partitions(&x, err) != DB_OK ||
        check_column_types(x.t, err) != DB_OK) {
        goto out;
    }
    if (apply_binlog(&x, err) != DB_OK || apply_other_props(&x, err) != DB_OK ||
        check_unknown_props(&x, err) != DB_OK ||
        cat_table_create_indexes(x.t, req->indexes, req->nindexes, err) != DB_OK) {
        goto out;
    }
    if (cat_binlog_is_row(&x.t->binlog)) {
        cat__add_hidden(x.t, CAT_COL_COMMIT_TSO, cat_type_make(CAT_T_BIGINT), false, "0");
    }
    if (cat_table_find(x.db, req->name) != NULL) {
        if (req->if_not_exists) {
            rc = DB_OK;
            goto out;
        }
        db_error_set(err, ER_TABLE_EXISTS_ERROR, req->name);
        goto out;
    }
    *out = x.t;
    x.t = NULL;
    rc = DB_OK;
out:
    if (keys_owned) {
        mem_free((void *)keys);
    }
    cat_table_free(x.t);
    cat_props_destroy(&x.props);
    return rc;
}

/* ======================================================================================
 * ALTER TABLE
 * ====================================================================================== */

int
cat_alter_check(const cat_table *t, cat_alter_op op, db_error *err)
{
    if (!cat_binlog_is_row(&t->binlog)) {
        return DB_OK;
    }
    switch (op) {
    case CAT_ALTER_MODIFY_COLUMN:
    case CAT_ALTER_RENAME_COLUMN:
    case CAT_ALTER_REORDER_COLUMNS:
    case CAT_ALTER_BUILD_INDEX:
        return cat__doris(err, ROW_NOT_ALLOWED);
    case CAT_ALTER_ADD_COLUMN:
    case CAT_ALTER_DROP_COLUMN:
        /* Only light schema change is allowed on a Row Binlog table. */
        if (!t->light_schema_change) {
            return cat__doris(err, ROW_NOT_ALLOWED);
        }
        return DB_OK;
    default:
        return DB_OK;
    }
}

int
cat_table_add_column(cat_table *t, const cat_column_def *def, const char *after, bool first,
                     db_error *err)
{
    if (cat_alter_check(t, CAT_ALTER_ADD_COLUMN, err) != DB_OK) {
        return DB_ERR;
    }
    if (cat_table_column(t, def->name) != NULL) {
        return db_error_set(err, ER_DUP_FIELDNAME, def->name);
    }
    if (cat_type_validate(&def->type, def->name, err) != DB_OK) {
        return DB_ERR;
    }
    if (cat_binlog_is_row(&t->binlog)) {
        if (def->type.id == CAT_T_VARIANT) {
            return cat__doris(err, "Table with binlog<Row> does not support VARIANT column");
        }
        if (def->auto_inc) {
            return cat__doris(err, "auto-inc column can't be created on table with binlog<Row>");
        }
    }
    if (t->keys == CAT_KEYS_AGG && def->agg == CAT_AGG_UNSET && !first) {
        return cat__doris(err,
                          "AGG_KEYS table should specify aggregate type for non-key column[%s]",
                          def->name);
    }
    if (t->keys != CAT_KEYS_AGG && def->agg != CAT_AGG_UNSET) {
        return cat__doris(err,
                          "Can not assign aggregation method on column in %s data model "
                          "table: %s",
                          t->keys == CAT_KEYS_DUP ? "Duplicate" : "Unique", def->name);
    }
    if (first && t->keys == CAT_KEYS_DUP && t->nkeys == 0) {
        return cat__doris(err, "Duplicate table without keys do not support add key column!");
    }
    if (first && t->keys != CAT_KEYS_DUP) {
        return cat__doris(err, "Can not add key column %s to a %s table", def->name,
                          t->keys == CAT_KEYS_UNIQUE ? "UNIQUE_KEYS" : "AGG_KEYS");
    }
    /* Position: after the named visible column, first, or before the hidden columns. */
    size_t pos = cat_table_visible_count(t);
    if (first) {
        pos = 0;
    } else if (after != NULL) {
        const cat_column *a = cat_table_column(t, after);
        if (a == NULL || (a->flags & CAT_COL_HIDDEN)) {
            return cat__doris(err, "Column[%s] does not exists", after);
        }
        pos = (size_t)(a - t->cols) + 1;
        if (pos < t->nkeys && t->keys != CAT_KEYS_DUP) {
            return cat__doris(err, "Can not add value column %s before key column", def->name);
        }
        if (pos < t->nkeys) {
            pos = t->nkeys;
        }
    }
    t->cols = mem_realloc(t->cols, (t->ncols + 1) * sizeof *t->cols);
    memmove(&t->cols[pos + 1], &t->cols[pos], (t->ncols - pos) * sizeof *t->cols);
    t->ncols++;
    cat_column *c = &t->cols[pos];
    memset(c, 0, sizeof *c);
    c->uid = t->next_uid++;
    c->name = mem_strdup(def->name);
    c->type = def->type;
    c->nullable = def->null_given ? def->nullable : !def->auto_inc;
    c->auto_inc = def->auto_inc;
    c->auto_inc_start = def->auto_inc_start;
    c->has_default = def->has_default;
    c->default_is_expr = def->default_is_expr;
    c->default_text = (def->has_default && !def->default_is_null && def->default_text)
                              ? mem_strdup(def->default_text)
                              : NULL;
    c->comment = mem_strdup(def->comment ? def->comment : "");
    c->agg = (uint8_t)def->agg;
    if (first) {
        c->is_key = true;
        t->nkeys++;
    }
    set_default_agg(t, c);
    return DB_OK;
}

int
cat_table_drop_column(cat_table *t, const char *name, db_error *err)
{
    if (cat_alter_check(t, CAT_ALTER_DROP_COLUMN, err) != DB_OK) {
        return DB_ERR;
    }
    cat_column *c = cat_table_column(t, name);
    if (c == NULL || (c->flags & CAT_COL_HIDDEN)) {
        return db_error_set(err, ER_CANT_DROP_FIELD_OR_KEY, name);
    }
    if (c->is_key && t->keys != CAT_KEYS_DUP) {
        return cat__doris(err, "Can not drop key column in %s data model table",
                          t->keys == CAT_KEYS_UNIQUE ? "Unique" : "Aggregate");
    }
    if (c->is_key && t->nkeys == 1) {
        return cat__doris(err, "Can not drop all key columns in Duplicate data model table");
    }
    if (c->uid == t->part_col_uid) {
        return cat__doris(err, "Can not drop partition column[%s]", c->name);
    }
    for (size_t i = 0; i < t->ndist; i++) {
        if (t->dist_uids[i] == c->uid) {
            return cat__doris(err, "Can not drop distribution column[%s]", c->name);
        }
    }
    const char *seq = cat_props_get(&t->props, "function_column.sequence_col");
    if (seq != NULL && cat__ieq(seq, c->name)) {
        return cat__doris(err,
                          "Can not drop sequence mapping column[%s] in Unique data model "
                          "table[%s]",
                          c->name, t->name);
    }
    if (cat_table_visible_count(t) == 1) {
        return cat__doris(err, "Do not allow remove all columns");
    }
    size_t pos = (size_t)(c - t->cols);
    if (c->is_key) {
        t->nkeys--;
    }
    cat__indexes_drop_column(t, c->uid);
    cat__column_destroy(c);
    memmove(&t->cols[pos], &t->cols[pos + 1], (t->ncols - pos - 1) * sizeof *t->cols);
    t->ncols--;
    return DB_OK;
}

int
cat_table_rename_column(cat_table *t, const char *old_name, const char *new_name, db_error *err)
{
    if (cat_alter_check(t, CAT_ALTER_RENAME_COLUMN, err) != DB_OK) {
        return DB_ERR;
    }
    cat_column *c = cat_table_column(t, old_name);
    if (c == NULL || (c->flags & CAT_COL_HIDDEN)) {
        return cat__doris(err, "Column[%s] does not exists", old_name);
    }
    if (cat_table_column(t, new_name) != NULL) {
        return cat__doris(err, "Column name[%s] is already used", new_name);
    }
    const char *seq = cat_props_get(&t->props, "function_column.sequence_col");
    bool is_seq = seq != NULL && cat__ieq(seq, c->name);
    mem_free(c->name);
    c->name = mem_strdup(new_name);
    if (is_seq) {
        cat_props_set(&t->props, "function_column.sequence_col", new_name);
    }
    return DB_OK;
}

int
cat_table_rename(cat_db *db, cat_table *t, const char *new_name, db_error *err)
{
    if (strcmp(t->name, new_name) == 0) {
        return cat__doris(err, "Same table name");
    }
    if (cat_table_find(db, new_name) != NULL) {
        return db_error_set(err, ER_TABLE_EXISTS_ERROR, new_name);
    }
    if (t->part_type == CAT_PART_NONE && t->nparts == 1) {
        mem_free(t->parts[0].name);
        t->parts[0].name = mem_strdup(new_name);
    }
    mem_free(t->name);
    t->name = mem_strdup(new_name);
    return DB_OK;
}

void
cat_table_set_comment(cat_table *t, const char *comment)
{
    mem_free(t->comment);
    t->comment = mem_strdup(comment ? comment : "");
}

int
cat_table_add_partition(cat_catalog *c, cat_table *t, const cat_partition_def *def, db_error *err)
{
    if (t->part_type == CAT_PART_NONE) {
        return cat__doris(err, "Only support adding partition to range and list partitioned "
                               "table");
    }
    if (cat_table_partition(t, def->name) != NULL ||
        cat_table_tmp_partition(t, def->name) != NULL) {
        return cat__doris(err, "Duplicate partition name %s", def->name);
    }
    cat_partition p;
    if (cat__partition_from_def(t, t->parts, t->nparts, def, &p, err) != DB_OK) {
        cat__partition_destroy(&p);
        return DB_ERR;
    }
    p.id = c->next_id++;
    t->parts = mem_realloc(t->parts, (t->nparts + 1) * sizeof *t->parts);
    t->parts[t->nparts++] = p;
    return DB_OK;
}

int
cat_table_drop_partition(cat_table *t, const char *name, bool if_exists, db_error *err)
{
    cat_partition *p = cat_table_partition(t, name);
    if (p == NULL || t->part_type == CAT_PART_NONE) {
        if (if_exists && p == NULL) {
            return DB_OK;
        }
        return cat__doris(err, "Error in list of partitions to %s", name);
    }
    size_t pos = (size_t)(p - t->parts);
    cat__partition_destroy(p);
    memmove(&t->parts[pos], &t->parts[pos + 1], (t->nparts - pos - 1) * sizeof *t->parts);
    t->nparts--;
    return DB_OK;
}
