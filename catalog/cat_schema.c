/* SPDX-License-Identifier: Apache-2.0
 * cat_schema: column types, the object lifecycle (columns, partitions, tables, databases) and
 * the catalog's name and id maps. DDL semantics live in cat_ddl.c, text in cat_show.c, the
 * encoding in cat_serde.c. See README.md §"Schema objects". */
#include "catalog/cat_schema_int.h"

#include <stdio.h>
#include <string.h>

#include "common/mem.h"

static const char *const type_names[CAT_T__COUNT] = {
        [CAT_T_INVALID] = "invalid",   [CAT_T_BOOLEAN] = "boolean", [CAT_T_TINYINT] = "tinyint",
        [CAT_T_SMALLINT] = "smallint", [CAT_T_INT] = "int",         [CAT_T_BIGINT] = "bigint",
        [CAT_T_LARGEINT] = "largeint", [CAT_T_FLOAT] = "float",     [CAT_T_DOUBLE] = "double",
        [CAT_T_DECIMAL] = "decimal",   [CAT_T_CHAR] = "char",       [CAT_T_VARCHAR] = "varchar",
        [CAT_T_STRING] = "text",       [CAT_T_DATE] = "date",       [CAT_T_DATETIME] = "datetime",
        [CAT_T_JSON] = "json",         [CAT_T_ARRAY] = "array",     [CAT_T_MAP] = "map",
        [CAT_T_VARIANT] = "variant",
};

static const char *const agg_names[CAT_AGG__COUNT] = {
        [CAT_AGG_UNSET] = "",
        [CAT_AGG_NONE] = "NONE",
        [CAT_AGG_SUM] = "SUM",
        [CAT_AGG_MIN] = "MIN",
        [CAT_AGG_MAX] = "MAX",
        [CAT_AGG_REPLACE] = "REPLACE",
        [CAT_AGG_REPLACE_IF_NOT_NULL] = "REPLACE_IF_NOT_NULL",
        [CAT_AGG_HLL_UNION] = "HLL_UNION",
        [CAT_AGG_BITMAP_UNION] = "BITMAP_UNION",
};

static bool is_int_type(uint8_t id);
static bool int_range(uint8_t id, int64_t *lo, int64_t *hi);
static int norm_int(const cat_type *t, const char *in, char *dst, size_t cap, db_error *err);
static int norm_date(const cat_type *t, const char *in, char *dst, size_t cap, db_error *err);
static int cmp_bigint_text(const char *a, const char *b);
static void db_destroy(cat_db *db);

/* ======================================================================================
 * Types
 * ====================================================================================== */

cat_type
cat_type_make(cat_type_id id)
{
    cat_type t;
    memset(&t, 0, sizeof t);
    t.id = (uint8_t)id;
    return t;
}

cat_type
cat_type_varchar(int32_t len)
{
    cat_type t = cat_type_make(CAT_T_VARCHAR);
    t.len = len;
    return t;
}

cat_type
cat_type_char(int32_t len)
{
    cat_type t = cat_type_make(CAT_T_CHAR);
    t.len = len;
    return t;
}

cat_type
cat_type_decimal(int precision, int scale)
{
    cat_type t = cat_type_make(CAT_T_DECIMAL);
    t.precision = (uint8_t)precision;
    t.scale = (uint8_t)scale;
    return t;
}

cat_type
cat_type_datetime(int scale)
{
    cat_type t = cat_type_make(CAT_T_DATETIME);
    t.scale = (uint8_t)scale;
    return t;
}

void
cat_type_sql_buf(const cat_type *t, char *dst, size_t cap)
{
    const char *name = t->id < CAT_T__COUNT ? type_names[t->id] : "invalid";
    switch (t->id) {
    case CAT_T_CHAR:
    case CAT_T_VARCHAR:
        snprintf(dst, cap, "%s(%d)", name, (int)t->len);
        break;
    case CAT_T_DECIMAL:
        snprintf(dst, cap, "decimal(%d,%d)", t->precision, t->scale);
        break;
    case CAT_T_DATETIME:
        if (t->scale > 0) {
            snprintf(dst, cap, "datetime(%d)", t->scale);
        } else {
            snprintf(dst, cap, "datetime");
        }
        break;
    case CAT_T_ARRAY:
    case CAT_T_MAP:
        snprintf(dst, cap, "%s<%s>", name, t->inner);
        break;
    default:
        snprintf(dst, cap, "%s", name);
        break;
    }
}

void
cat_type_sql(const cat_type *t, buf *out)
{
    char tmp[128];
    cat_type_sql_buf(t, tmp, sizeof tmp);
    buf_append_str(out, tmp);
}

void
cat__type_upper(const cat_type *t, char *dst, size_t cap)
{
    cat_type_sql_buf(t, dst, cap);
    for (char *p = dst; *p; p++) {
        if (*p >= 'a' && *p <= 'z') {
            *p = (char)(*p - 32);
        }
    }
}

bool
cat_type_is_complex(const cat_type *t)
{
    return t->id == CAT_T_JSON || t->id == CAT_T_ARRAY || t->id == CAT_T_MAP ||
           t->id == CAT_T_VARIANT;
}

int
cat_type_validate(const cat_type *t, const char *col, db_error *err)
{
    switch (t->id) {
    case CAT_T_CHAR:
        if (t->len < 1 || t->len > CAT_CHAR_MAX) {
            return cat__doris(err, "Char size must be between 1 and %d, column: %s", CAT_CHAR_MAX,
                              col);
        }
        break;
    case CAT_T_VARCHAR:
        if (t->len < 1 || t->len > CAT_VARCHAR_MAX) {
            return cat__doris(err, "Varchar size must be between 1 and %d, column: %s",
                              CAT_VARCHAR_MAX, col);
        }
        break;
    case CAT_T_DECIMAL:
        if (t->precision < 1 || t->precision > CAT_DECIMAL_MAX) {
            return cat__doris(err, "Decimal precision must be between 1 and %d, column: %s",
                              CAT_DECIMAL_MAX, col);
        }
        if (t->scale > t->precision) {
            return cat__doris(
                    err, "Decimal scale must be less than or equal to precision, column: %s", col);
        }
        break;
    case CAT_T_DATETIME:
        if (t->scale > CAT_DATETIME_MAX) {
            return cat__doris(err, "Datetime scale must be between 0 and %d, column: %s",
                              CAT_DATETIME_MAX, col);
        }
        break;
    case CAT_T_INVALID:
        return cat__doris(err, "Unknown type of column: %s", col);
    default:
        break;
    }
    return DB_OK;
}

int
cat__type_index_size(const cat_type *t)
{
    switch (t->id) {
    case CAT_T_BOOLEAN:
    case CAT_T_TINYINT:
        return 1;
    case CAT_T_SMALLINT:
        return 2;
    case CAT_T_INT:
    case CAT_T_DATE:
    case CAT_T_FLOAT:
        return 4;
    case CAT_T_BIGINT:
    case CAT_T_DATETIME:
    case CAT_T_DOUBLE:
        return 8;
    case CAT_T_LARGEINT:
        return 16;
    case CAT_T_DECIMAL:
        return t->precision <= 9 ? 4 : t->precision <= 18 ? 8 : 16;
    case CAT_T_CHAR:
        return t->len;
    case CAT_T_VARCHAR:
        return 20;
    default:
        return 0;
    }
}

/* ---- partition values ---- */

static bool
is_int_type(uint8_t id)
{
    return id == CAT_T_TINYINT || id == CAT_T_SMALLINT || id == CAT_T_INT || id == CAT_T_BIGINT ||
           id == CAT_T_LARGEINT;
}

static bool
int_range(uint8_t id, int64_t *lo, int64_t *hi)
{
    switch (id) {
    case CAT_T_TINYINT:
        *lo = INT8_MIN;
        *hi = INT8_MAX;
        return true;
    case CAT_T_SMALLINT:
        *lo = INT16_MIN;
        *hi = INT16_MAX;
        return true;
    case CAT_T_INT:
        *lo = INT32_MIN;
        *hi = INT32_MAX;
        return true;
    case CAT_T_BIGINT:
        *lo = INT64_MIN;
        *hi = INT64_MAX;
        return true;
    default:
        return false;
    }
}

const char *
cat__type_min_text(const cat_type *t)
{
    switch (t->id) {
    case CAT_T_TINYINT:
        return "-128";
    case CAT_T_SMALLINT:
        return "-32768";
    case CAT_T_INT:
        return "-2147483648";
    case CAT_T_BIGINT:
        return "-9223372036854775808";
    case CAT_T_LARGEINT:
        return "-170141183460469231731687303715884105728";
    case CAT_T_DATE:
        return "0000-01-01";
    case CAT_T_DATETIME:
        return "0000-01-01 00:00:00";
    default:
        return "";
    }
}

/* Integers: optional sign and digits; stored without '+' and leading zeros. */
static int
norm_int(const cat_type *t, const char *in, char *dst, size_t cap, db_error *err)
{
    const char *p = in;
    bool neg = false;
    if (*p == '+' || *p == '-') {
        neg = *p == '-';
        p++;
    }
    if (*p == 0 || strspn(p, "0123456789") != strlen(p)) {
        return cat__doris(err, "Invalid number format: %s", in);
    }
    while (p[0] == '0' && p[1] != 0) {
        p++;
    }
    if (strcmp(p, "0") == 0) {
        neg = false;
    }
    char upper[32];
    cat__type_upper(t, upper, sizeof upper);
    if (t->id == CAT_T_LARGEINT) {
        const char *lim = neg ? "170141183460469231731687303715884105728"
                              : "170141183460469231731687303715884105727";
        size_t n = strlen(p);
        size_t m = strlen(lim);
        if (n > m || (n == m && strcmp(p, lim) > 0)) {
            return cat__doris(err, "Number out of range[%s]. type: %s", in, upper);
        }
    } else {
        int64_t v;
        int64_t lo = INT64_MIN;
        int64_t hi = INT64_MAX;
        char tmp[48];
        snprintf(tmp, sizeof tmp, "%s%s", neg ? "-" : "", p);
        int_range(t->id, &lo, &hi);
        if (!cat__parse_i64(tmp, &v) || v < lo || v > hi) {
            return cat__doris(err, "Number out of range[%s]. type: %s", in, upper);
        }
    }
    snprintf(dst, cap, "%s%s", neg ? "-" : "", p);
    return DB_OK;
}

/* DATE "YYYY-MM-DD"; DATETIME "YYYY-MM-DD[ HH:MM:SS]". */
static int
norm_date(const cat_type *t, const char *in, char *dst, size_t cap, db_error *err)
{
    unsigned y;
    unsigned mo;
    unsigned d;
    unsigned h = 0;
    unsigned mi = 0;
    unsigned s = 0;
    int used = 0;
    static const unsigned mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (sscanf(in, "%4u-%2u-%2u%n", &y, &mo, &d, &used) != 3) {
        goto bad;
    }
    if (in[used] != 0) {
        int more = 0;
        if (t->id != CAT_T_DATETIME ||
            sscanf(in + used, " %2u:%2u:%2u%n", &h, &mi, &s, &more) != 3 || in[used + more] != 0) {
            goto bad;
        }
    }
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || s > 59) {
        goto bad;
    }
    if (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) {
        goto bad;
    }
    if (t->id == CAT_T_DATE) {
        snprintf(dst, cap, "%04u-%02u-%02u", y, mo, d);
    } else {
        snprintf(dst, cap, "%04u-%02u-%02u %02u:%02u:%02u", y, mo, d, h, mi, s);
    }
    return DB_OK;
bad:
    return cat__doris(err, "date literal [%s] is invalid", in);
}

int
cat__part_value_normalize(const cat_type *t, const char *in, char *dst, size_t cap, db_error *err)
{
    if (is_int_type(t->id)) {
        return norm_int(t, in, dst, cap, err);
    }
    if (t->id == CAT_T_DATE || t->id == CAT_T_DATETIME) {
        return norm_date(t, in, dst, cap, err);
    }
    if (t->id == CAT_T_BOOLEAN) {
        if (cat__ieq(in, "true") || strcmp(in, "1") == 0) {
            snprintf(dst, cap, "1");
        } else if (cat__ieq(in, "false") || strcmp(in, "0") == 0) {
            snprintf(dst, cap, "0");
        } else {
            return cat__doris(err, "Invalid boolean value: %s", in);
        }
        return DB_OK;
    }
    snprintf(dst, cap, "%s", in);
    return DB_OK;
}

/* Numeric comparison of two normalized integer texts of any length. */
static int
cmp_bigint_text(const char *a, const char *b)
{
    bool na = a[0] == '-';
    bool nb = b[0] == '-';
    if (na != nb) {
        return na ? -1 : 1;
    }
    const char *pa = na ? a + 1 : a;
    const char *pb = nb ? b + 1 : b;
    size_t la = strlen(pa);
    size_t lb = strlen(pb);
    int c = la != lb ? (la < lb ? -1 : 1) : strcmp(pa, pb);
    if (c > 0) {
        c = 1;
    } else if (c < 0) {
        c = -1;
    }
    return na ? -c : c;
}

int
cat__part_value_cmp(const cat_type *t, const char *a, const char *b)
{
    if (is_int_type(t->id)) {
        return cmp_bigint_text(a, b);
    }
    int c = strcmp(a, b);
    return c < 0 ? -1 : c > 0 ? 1 : 0;
}

const char *
cat_agg_name(cat_agg a)
{
    return (unsigned)a < CAT_AGG__COUNT ? agg_names[a] : "";
}

/* ======================================================================================
 * Object lifecycle
 * ====================================================================================== */

void
cat__column_destroy(cat_column *c)
{
    mem_free(c->name);
    mem_free(c->default_text);
    mem_free(c->comment);
    memset(c, 0, sizeof *c);
}

void
cat__column_copy(cat_column *dst, const cat_column *src)
{
    *dst = *src;
    dst->name = mem_strdup(src->name);
    dst->default_text = src->default_text ? mem_strdup(src->default_text) : NULL;
    dst->comment = mem_strdup(src->comment ? src->comment : "");
}

void
cat__partition_destroy(cat_partition *p)
{
    mem_free(p->name);
    mem_free(p->lower);
    mem_free(p->upper);
    for (size_t i = 0; i < p->nvalues; i++) {
        mem_free(p->values[i]);
    }
    mem_free(p->values);
    memset(p, 0, sizeof *p);
}

void
cat__partition_copy(cat_partition *dst, const cat_partition *src)
{
    *dst = *src;
    dst->name = mem_strdup(src->name);
    dst->lower = src->lower ? mem_strdup(src->lower) : NULL;
    dst->upper = src->upper ? mem_strdup(src->upper) : NULL;
    dst->values = NULL;
    if (src->nvalues > 0) {
        dst->values = mem_calloc(src->nvalues, sizeof *dst->values);
        for (size_t i = 0; i < src->nvalues; i++) {
            dst->values[i] = mem_strdup(src->values[i]);
        }
    }
}

void
cat_table_free(cat_table *t)
{
    if (t == NULL) {
        return;
    }
    for (size_t i = 0; i < t->ncols; i++) {
        cat__column_destroy(&t->cols[i]);
    }
    for (size_t i = 0; i < t->nparts; i++) {
        cat__partition_destroy(&t->parts[i]);
    }
    for (size_t i = 0; i < t->ntmp_parts; i++) {
        cat__partition_destroy(&t->tmp_parts[i]);
    }
    mem_free(t->cols);
    mem_free(t->parts);
    mem_free(t->tmp_parts);
    mem_free(t->cluster_uids);
    mem_free(t->dist_uids);
    mem_free(t->name);
    mem_free(t->comment);
    mem_free(t->view_sql);
    cat_stream_free(t->stream);
    for (size_t i = 0; i < t->nindexes; i++) {
        cat__index_destroy(&t->indexes[i]);
    }
    mem_free(t->indexes);
    cat_props_destroy(&t->props);
    mem_free(t);
}

const char *
cat_stream_type_name(uint8_t type)
{
    switch (type) {
    case CAT_STREAM_APPEND_ONLY:
        return "APPEND_ONLY";
    case CAT_STREAM_DETAIL:
        return "DETAIL";
    default:
        return "MIN_DELTA";
    }
}

void
cat_stream_free(cat_stream *s)
{
    if (s == NULL) {
        return;
    }
    mem_free(s->base_db);
    mem_free(s->base_name);
    mem_free(s->init);
    mem_free(s);
}

cat_stream *
cat_stream_clone(const cat_stream *s)
{
    if (s == NULL) {
        return NULL;
    }
    cat_stream *n = mem_calloc(1, sizeof *n);
    *n = *s;
    n->base_db = mem_strdup(s->base_db);
    n->base_name = mem_strdup(s->base_name);
    n->init = mem_calloc(s->ninit ? s->ninit : 1, sizeof *n->init);
    if (s->ninit) {
        memcpy(n->init, s->init, s->ninit * sizeof *n->init);
    }
    return n;
}

cat_table *
cat_table_clone(const cat_table *t)
{
    cat_table *n = mem_calloc(1, sizeof *n);
    *n = *t;
    n->name = mem_strdup(t->name);
    n->comment = mem_strdup(t->comment ? t->comment : "");
    n->view_sql = t->view_sql ? mem_strdup(t->view_sql) : NULL;
    n->stream = cat_stream_clone(t->stream);
    n->cols = mem_calloc(t->ncols ? t->ncols : 1, sizeof *n->cols);
    for (size_t i = 0; i < t->ncols; i++) {
        cat__column_copy(&n->cols[i], &t->cols[i]);
    }
    n->parts = mem_calloc(t->nparts ? t->nparts : 1, sizeof *n->parts);
    for (size_t i = 0; i < t->nparts; i++) {
        cat__partition_copy(&n->parts[i], &t->parts[i]);
    }
    n->tmp_parts = mem_calloc(t->ntmp_parts ? t->ntmp_parts : 1, sizeof *n->tmp_parts);
    for (size_t i = 0; i < t->ntmp_parts; i++) {
        cat__partition_copy(&n->tmp_parts[i], &t->tmp_parts[i]);
    }
    n->cluster_uids = mem_calloc(t->ncluster ? t->ncluster : 1, sizeof *n->cluster_uids);
    if (t->ncluster) {
        memcpy(n->cluster_uids, t->cluster_uids, t->ncluster * sizeof *n->cluster_uids);
    }
    n->dist_uids = mem_calloc(t->ndist ? t->ndist : 1, sizeof *n->dist_uids);
    if (t->ndist) {
        memcpy(n->dist_uids, t->dist_uids, t->ndist * sizeof *n->dist_uids);
    }
    cat_props_init(&n->props);
    cat_props_copy(&n->props, &t->props);
    n->indexes = t->nindexes ? mem_calloc(t->nindexes, sizeof *n->indexes) : NULL;
    for (size_t i = 0; i < t->nindexes; i++) {
        cat__index_copy(&n->indexes[i], &t->indexes[i]);
    }
    return n;
}

cat_column *
cat_table_column(const cat_table *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++) {
        if (cat__ieq(t->cols[i].name, name)) {
            return &t->cols[i];
        }
    }
    return NULL;
}

cat_column *
cat_table_column_uid(const cat_table *t, int32_t uid)
{
    for (size_t i = 0; i < t->ncols; i++) {
        if (t->cols[i].uid == uid) {
            return &t->cols[i];
        }
    }
    return NULL;
}

size_t
cat_table_visible_count(const cat_table *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->ncols; i++) {
        if (!(t->cols[i].flags & CAT_COL_HIDDEN)) {
            n++;
        }
    }
    return n;
}

cat_partition *
cat_table_partition(const cat_table *t, const char *name)
{
    for (size_t i = 0; i < t->nparts; i++) {
        if (cat__ieq(t->parts[i].name, name)) {
            return &t->parts[i];
        }
    }
    return NULL;
}

/* ======================================================================================
 * Catalog and databases
 * ====================================================================================== */

static void
db_destroy(cat_db *db)
{
    for (size_t i = 0; i < db->ntables; i++) {
        cat_table_free(db->tables[i]);
    }
    mem_free(db->tables);
    mem_free(db->name);
    cat_props_destroy(&db->props);
    mem_free(db);
}

void
cat_db_free(cat_db *db)
{
    if (db != NULL) {
        db_destroy(db);
    }
}

cat_catalog *
cat_catalog_new(void)
{
    cat_catalog *c = mem_calloc(1, sizeof *c);
    c->next_id = 10000; /* ids below are reserved for built-in objects */
    c->info_schema = mem_calloc(1, sizeof *c->info_schema);
    c->info_schema->id = 1;
    c->info_schema->name = mem_strdup("information_schema");
    c->info_schema->is_system = true;
    cat_props_init(&c->info_schema->props);
    return c;
}

void
cat_catalog_free(cat_catalog *c)
{
    if (c == NULL) {
        return;
    }
    for (size_t i = 0; i < c->ndbs; i++) {
        db_destroy(c->dbs[i]);
    }
    mem_free(c->dbs);
    db_destroy(c->info_schema);
    mem_free(c);
}

int64_t
cat_catalog_next_id(const cat_catalog *c)
{
    return c->next_id;
}

void
cat_catalog_bump_id(cat_catalog *c, int64_t next)
{
    if (next > c->next_id) {
        c->next_id = next;
    }
}

cat_db *
cat_db_find(const cat_catalog *c, const char *name)
{
    if (cat__ieq(name, "information_schema")) {
        return c->info_schema;
    }
    for (size_t i = 0; i < c->ndbs; i++) {
        if (strcmp(c->dbs[i]->name, name) == 0) {
            return c->dbs[i];
        }
    }
    return NULL;
}

cat_db *
cat_db_find_id(const cat_catalog *c, int64_t id)
{
    if (id == c->info_schema->id) {
        return c->info_schema;
    }
    for (size_t i = 0; i < c->ndbs; i++) {
        if (c->dbs[i]->id == id) {
            return c->dbs[i];
        }
    }
    return NULL;
}

size_t
cat_db_count(const cat_catalog *c)
{
    return c->ndbs;
}

cat_db *
cat_db_at(const cat_catalog *c, size_t i)
{
    return i < c->ndbs ? c->dbs[i] : NULL;
}

static void
db_push(cat_catalog *c, cat_db *db)
{
    if (c->ndbs == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 8;
        c->dbs = mem_realloc(c->dbs, c->cap * sizeof *c->dbs);
    }
    c->dbs[c->ndbs++] = db;
}

int
cat_db_create(cat_catalog *c, const char *name, bool if_not_exists, const cat_props *props,
              cat_db **out, db_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (cat_db_find(c, name) != NULL) {
        if (if_not_exists) {
            return DB_OK;
        }
        return db_error_set(err, ER_DB_CREATE_EXISTS, name);
    }
    if (props != NULL && props->n > 0) {
        cat_binlog_cfg b = cat_binlog_default();
        if (cat__binlog_merge(&b, props, true, err) != DB_OK ||
            cat__binlog_check_row(&b, err) != DB_OK) {
            return DB_ERR;
        }
    }
    cat_db *db = mem_calloc(1, sizeof *db);
    db->id = c->next_id++;
    db->name = mem_strdup(name);
    cat_props_init(&db->props);
    if (props != NULL) {
        cat_props_copy(&db->props, props);
    }
    db_push(c, db);
    if (out != NULL) {
        *out = db;
    }
    return DB_OK;
}

int
cat_db_drop(cat_catalog *c, const char *name, bool if_exists, db_error *err)
{
    if (cat__ieq(name, "information_schema")) {
        return db_error_set(err, ER_DBACCESS_DENIED_ERROR, "root", "%", name);
    }
    for (size_t i = 0; i < c->ndbs; i++) {
        if (strcmp(c->dbs[i]->name, name) == 0) {
            db_destroy(c->dbs[i]);
            memmove(&c->dbs[i], &c->dbs[i + 1], (c->ndbs - i - 1) * sizeof *c->dbs);
            c->ndbs--;
            return DB_OK;
        }
    }
    if (if_exists) {
        return DB_OK;
    }
    return db_error_set(err, ER_DB_DROP_EXISTS, name);
}

cat_db *
cat__db_detach(cat_catalog *c, int64_t id)
{
    for (size_t i = 0; i < c->ndbs; i++) {
        if (c->dbs[i]->id == id) {
            cat_db *db = c->dbs[i];
            memmove(&c->dbs[i], &c->dbs[i + 1], (c->ndbs - i - 1) * sizeof *c->dbs);
            c->ndbs--;
            return db;
        }
    }
    return NULL;
}

int
cat_db_install(cat_catalog *c, cat_db *db, db_error *err)
{
    if (cat_db_find(c, db->name) != NULL || cat_db_find_id(c, db->id) != NULL) {
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "database name or id already in use");
    }
    for (size_t i = 0; i < db->ntables; i++) {
        cat_catalog_bump_id(c, db->tables[i]->id + 1);
        for (size_t j = 0; j < db->tables[i]->nparts; j++) {
            cat_catalog_bump_id(c, db->tables[i]->parts[j].id + 1);
        }
    }
    cat_catalog_bump_id(c, db->id + 1);
    db_push(c, db);
    return DB_OK;
}

cat_table *
cat_table_find(const cat_db *db, const char *name)
{
    for (size_t i = 0; i < db->ntables; i++) {
        if (strcmp(db->tables[i]->name, name) == 0) {
            return db->tables[i];
        }
    }
    return NULL;
}

static void
table_push(cat_db *db, cat_table *t)
{
    if (db->ntables == db->cap) {
        db->cap = db->cap ? db->cap * 2 : 8;
        db->tables = mem_realloc(db->tables, db->cap * sizeof *db->tables);
    }
    db->tables[db->ntables++] = t;
    t->db_id = db->id;
}

cat_table *
cat_table_find_id(const cat_catalog *c, int64_t id, cat_db **dbp)
{
    for (size_t d = 0; d < cat_db_count(c); d++) {
        cat_db *db = cat_db_at(c, d);
        for (size_t i = 0; i < db->ntables; i++) {
            if (db->tables[i]->id == id) {
                if (dbp != NULL) {
                    *dbp = db;
                }
                return db->tables[i];
            }
        }
    }
    return NULL;
}

int
cat_table_attach(cat_catalog *c, const char *db_name, cat_table *t, db_error *err)
{
    cat_db *db = cat_db_find(c, db_name);
    if (db == NULL || db->is_system) {
        return db_error_set(err, ER_BAD_DB_ERROR, db_name);
    }
    if (cat_table_find(db, t->name) != NULL) {
        return db_error_set(err, ER_TABLE_EXISTS_ERROR, t->name);
    }
    t->id = c->next_id++;
    for (size_t i = 0; i < t->nparts; i++) {
        t->parts[i].id = c->next_id++;
    }
    table_push(db, t);
    return DB_OK;
}

int
cat_table_install(cat_catalog *c, cat_table *t, db_error *err)
{
    cat_db *db = cat_db_find_id(c, t->db_id);
    if (db == NULL || db->is_system) {
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "table of an unknown database");
    }
    if (cat_table_find(db, t->name) != NULL) {
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "table name already in use");
    }
    cat_catalog_bump_id(c, t->id + 1);
    for (size_t i = 0; i < t->nparts; i++) {
        cat_catalog_bump_id(c, t->parts[i].id + 1);
    }
    for (size_t i = 0; i < t->ntmp_parts; i++) {
        cat_catalog_bump_id(c, t->tmp_parts[i].id + 1);
    }
    table_push(db, t);
    return DB_OK;
}

int
cat_table_drop(cat_catalog *c, const char *db_name, const char *name, bool if_exists, db_error *err)
{
    cat_db *db = cat_db_find(c, db_name);
    if (db == NULL) {
        return db_error_set(err, ER_BAD_DB_ERROR, db_name);
    }
    for (size_t i = 0; i < db->ntables; i++) {
        if (strcmp(db->tables[i]->name, name) == 0) {
            cat_table_free(db->tables[i]);
            memmove(&db->tables[i], &db->tables[i + 1], (db->ntables - i - 1) * sizeof *db->tables);
            db->ntables--;
            return DB_OK;
        }
    }
    if (if_exists) {
        return DB_OK;
    }
    return db_error_set(err, ER_BAD_TABLE_ERROR, name);
}
