/* SPDX-License-Identifier: Apache-2.0
 * cat_serde: compact binary encoding of tables and databases for edit-log records and the
 * image. Little-endian, length-prefixed, versioned. See README.md §Formats "Schema objects". */
#include "catalog/cat_schema_int.h"

#include <string.h>

#include "common/mem.h"

#define KIND_TABLE 'T'
#define KIND_DB    'D'
#define MAX_COUNT  (1u << 24) /* sanity bound on any element count */

/* Column flag bits on the wire. */
enum {
    W_NULLABLE = 1u << 0,
    W_KEY = 1u << 1,
    W_AUTO_INC = 1u << 2,
    W_HAS_DEFAULT = 1u << 3,
    W_DEFAULT_EXPR = 1u << 4,
    W_HIDDEN = 1u << 5,
    W_DEFAULT_TEXT = 1u << 6,
};

/* Table flag bits on the wire. */
enum {
    WT_MOW = 1u << 0,
    WT_RANDOM = 1u << 1,
    WT_BUCKETS_AUTO = 1u << 2,
    WT_LIGHT_SC = 1u << 3,
    WT_NO_AUTO_COMPACTION = 1u << 4,
    WT_MOW_LIGHT_DELETE = 1u << 5,
    WT_BINLOG_ENABLE = 1u << 6,
    WT_BINLOG_HISTORY = 1u << 7,
};

/* Partition flag bits on the wire. */
enum {
    WP_LOWER_MIN = 1u << 0,
    WP_UPPER_MAX = 1u << 1,
    WP_LOWER = 1u << 2,
    WP_UPPER = 1u << 3,
    WP_NULL = 1u << 4, /* LIST: NULL is one of the values */
    WP_TEMP = 1u << 5, /* a temporary partition (after the formal ones) */
};

typedef struct rd {
    const uint8_t *p;
    size_t len;
    size_t pos;
    const char *bad; /* first problem, NULL while fine */
    uint8_t ver;     /* encoding version being read (1: no view trailer) */
} rd;

static void put_str(buf *out, const char *s);
static void put_i32(buf *out, int32_t v);
static void put_i64(buf *out, int64_t v);
static void put_props(buf *out, const cat_props *p);
static void encode_table_body(const cat_table *t, buf *out);
static bool need(rd *r, size_t n);
static uint8_t get_u8(rd *r);
static uint32_t get_u32(rd *r);
static int32_t get_i32(rd *r);
static int64_t get_i64(rd *r);
static char *get_str(rd *r);
static uint32_t get_count(rd *r);
static void get_props(rd *r, cat_props *p);
static cat_table *decode_table_body(rd *r);

/* ---- writer ---- */

static void
put_str(buf *out, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    buf_put_u32le(out, (uint32_t)n);
    buf_append(out, s ? s : "", n);
}

static void
put_i32(buf *out, int32_t v)
{
    buf_put_u32le(out, (uint32_t)v);
}

static void
put_i64(buf *out, int64_t v)
{
    buf_put_u64le(out, (uint64_t)v);
}

static void
put_props(buf *out, const cat_props *p)
{
    buf_put_u32le(out, (uint32_t)p->n);
    for (size_t i = 0; i < p->n; i++) {
        put_str(out, p->v[i].key);
        put_str(out, p->v[i].value);
    }
}

static void
encode_table_body(const cat_table *t, buf *out)
{
    uint8_t tf = (uint8_t)((t->mow ? WT_MOW : 0) | (t->dist_random ? WT_RANDOM : 0) |
                           (t->buckets_auto ? WT_BUCKETS_AUTO : 0) |
                           (t->light_schema_change ? WT_LIGHT_SC : 0) |
                           (t->disable_auto_compaction ? WT_NO_AUTO_COMPACTION : 0) |
                           (t->enable_mow_light_delete ? WT_MOW_LIGHT_DELETE : 0) |
                           (t->binlog.enable ? WT_BINLOG_ENABLE : 0) |
                           (t->binlog.need_historical_value ? WT_BINLOG_HISTORY : 0));
    put_i64(out, t->id);
    put_i64(out, t->db_id);
    put_str(out, t->name);
    put_str(out, t->comment);
    buf_put_u8(out, t->keys);
    buf_put_u8(out, t->part_type);
    buf_put_u8(out, tf);
    buf_put_u8(out, t->binlog.format);
    put_i64(out, t->binlog.ttl_seconds);
    put_i64(out, t->binlog.max_bytes);
    put_i64(out, t->binlog.max_history_nums);
    put_i32(out, t->buckets);
    put_i32(out, t->next_uid);
    put_i32(out, t->part_col_uid);
    buf_put_u32le(out, (uint32_t)t->nkeys);
    buf_put_u32le(out, (uint32_t)t->ncols);
    for (size_t i = 0; i < t->ncols; i++) {
        const cat_column *c = &t->cols[i];
        uint8_t f =
                (uint8_t)((c->nullable ? W_NULLABLE : 0) | (c->is_key ? W_KEY : 0) |
                          (c->auto_inc ? W_AUTO_INC : 0) | (c->has_default ? W_HAS_DEFAULT : 0) |
                          (c->default_is_expr ? W_DEFAULT_EXPR : 0) |
                          ((c->flags & CAT_COL_HIDDEN) ? W_HIDDEN : 0) |
                          (c->default_text ? W_DEFAULT_TEXT : 0));
        put_i32(out, c->uid);
        put_str(out, c->name);
        buf_put_u8(out, c->type.id);
        buf_put_u8(out, c->type.precision);
        buf_put_u8(out, c->type.scale);
        put_i32(out, c->type.len);
        put_str(out, c->type.inner);
        buf_put_u8(out, f);
        buf_put_u8(out, c->agg);
        put_i64(out, c->auto_inc_start);
        if (c->default_text) {
            put_str(out, c->default_text);
        }
        put_str(out, c->comment);
    }
    buf_put_u32le(out, (uint32_t)t->ncluster);
    for (size_t i = 0; i < t->ncluster; i++) {
        put_i32(out, t->cluster_uids[i]);
    }
    buf_put_u32le(out, (uint32_t)t->ndist);
    for (size_t i = 0; i < t->ndist; i++) {
        put_i32(out, t->dist_uids[i]);
    }
    put_props(out, &t->props);
    /* Formal partitions, then the temporary ones flagged WP_TEMP (no version change: an older
     * table has none). */
    buf_put_u32le(out, (uint32_t)(t->nparts + t->ntmp_parts));
    for (size_t i = 0; i < t->nparts + t->ntmp_parts; i++) {
        bool tmp = i >= t->nparts;
        const cat_partition *p = tmp ? &t->tmp_parts[i - t->nparts] : &t->parts[i];
        uint8_t f =
                (uint8_t)((p->lower_min ? WP_LOWER_MIN : 0) | (p->upper_max ? WP_UPPER_MAX : 0) |
                          (p->lower ? WP_LOWER : 0) | (p->upper ? WP_UPPER : 0) |
                          (p->has_null ? WP_NULL : 0) | (tmp ? WP_TEMP : 0));
        put_i64(out, p->id);
        put_str(out, p->name);
        put_i32(out, p->buckets);
        buf_put_u8(out, f);
        if (p->lower) {
            put_str(out, p->lower);
        }
        if (p->upper) {
            put_str(out, p->upper);
        }
        buf_put_u32le(out, (uint32_t)p->nvalues);
        for (size_t j = 0; j < p->nvalues; j++) {
            put_str(out, p->values[j]);
        }
    }
    /* version 2: u8 1 + the view's SELECT text, or u8 0 for a table */
    buf_put_u8(out, t->view_sql ? 1 : 0);
    if (t->view_sql) {
        put_str(out, t->view_sql);
    }
    /* version 3: u8 1 + the stream definition, or u8 0 */
    buf_put_u8(out, t->stream ? 1 : 0);
    if (t->stream) {
        const cat_stream *st = t->stream;
        put_i64(out, st->base_id);
        put_str(out, st->base_db);
        put_str(out, st->base_name);
        buf_put_u8(out, st->type);
        buf_put_u8(out, st->show_initial_rows ? 1 : 0);
        put_i64(out, st->created_ms);
        buf_put_u32le(out, (uint32_t)st->ninit);
        for (size_t i = 0; i < st->ninit; i++) {
            put_i64(out, st->init[i].part_id);
            put_i64(out, (int64_t)st->init[i].tso);
        }
    }
    /* version 4: the secondary indexes */
    buf_put_u32le(out, (uint32_t)t->nindexes);
    for (size_t i = 0; i < t->nindexes; i++) {
        const cat_index *ix = &t->indexes[i];
        put_str(out, ix->name);
        buf_put_u8(out, ix->type);
        buf_put_u32le(out, (uint32_t)ix->ncols);
        for (size_t j = 0; j < ix->ncols; j++) {
            put_i32(out, ix->col_uids[j]);
        }
        put_props(out, &ix->props);
        buf_put_u8(out, ix->comment ? 1 : 0);
        if (ix->comment) {
            put_str(out, ix->comment);
        }
    }
}

void
cat_table_encode(const cat_table *t, buf *out)
{
    buf_put_u8(out, CAT_SCHEMA_ENCODING_VERSION);
    buf_put_u8(out, KIND_TABLE);
    encode_table_body(t, out);
}

void
cat_db_encode(const cat_db *db, buf *out)
{
    buf_put_u8(out, CAT_SCHEMA_ENCODING_VERSION);
    buf_put_u8(out, KIND_DB);
    put_i64(out, db->id);
    put_str(out, db->name);
    put_props(out, &db->props);
    buf_put_u32le(out, (uint32_t)db->ntables);
    for (size_t i = 0; i < db->ntables; i++) {
        encode_table_body(db->tables[i], out);
    }
}

/* ---- reader ---- */

static bool
need(rd *r, size_t n)
{
    if (r->bad != NULL) {
        return false;
    }
    if (r->len - r->pos < n) {
        r->bad = "truncated";
        return false;
    }
    return true;
}

static uint8_t
get_u8(rd *r)
{
    if (!need(r, 1)) {
        return 0;
    }
    return r->p[r->pos++];
}

static uint32_t
get_u32(rd *r)
{
    if (!need(r, 4)) {
        return 0;
    }
    const uint8_t *p = r->p + r->pos;
    r->pos += 4;
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static int32_t
get_i32(rd *r)
{
    return (int32_t)get_u32(r);
}

static int64_t
get_i64(rd *r)
{
    uint64_t lo = get_u32(r);
    uint64_t hi = get_u32(r);
    return (int64_t)(lo | (hi << 32));
}

/* A heap string; "" (still heap) after an error so callers need no NULL checks. */
static char *
get_str(rd *r)
{
    uint32_t n = get_u32(r);
    if (!need(r, n)) {
        return mem_strdup("");
    }
    char *s = mem_strndup((const char *)r->p + r->pos, n);
    r->pos += n;
    if (strlen(s) != n) {
        r->bad = "NUL byte inside a string";
    }
    return s;
}

static uint32_t
get_count(rd *r)
{
    uint32_t n = get_u32(r);
    if (n > MAX_COUNT || (r->bad == NULL && n > r->len - r->pos)) {
        if (r->bad == NULL) {
            r->bad = "element count out of range";
        }
        return 0;
    }
    return n;
}

static void
get_props(rd *r, cat_props *p)
{
    uint32_t n = get_count(r);
    for (uint32_t i = 0; i < n && r->bad == NULL; i++) {
        char *k = get_str(r);
        char *v = get_str(r);
        cat_props_set(p, k, v);
        mem_free(k);
        mem_free(v);
    }
}

static cat_table *
decode_table_body(rd *r)
{
    cat_table *t = mem_calloc(1, sizeof *t);
    cat_props_init(&t->props);
    t->id = get_i64(r);
    t->db_id = get_i64(r);
    t->name = get_str(r);
    t->comment = get_str(r);
    t->keys = get_u8(r);
    t->part_type = get_u8(r);
    uint8_t tf = get_u8(r);
    t->mow = tf & WT_MOW;
    t->dist_random = tf & WT_RANDOM;
    t->buckets_auto = tf & WT_BUCKETS_AUTO;
    t->light_schema_change = tf & WT_LIGHT_SC;
    t->disable_auto_compaction = tf & WT_NO_AUTO_COMPACTION;
    t->enable_mow_light_delete = tf & WT_MOW_LIGHT_DELETE;
    t->binlog.enable = tf & WT_BINLOG_ENABLE;
    t->binlog.need_historical_value = tf & WT_BINLOG_HISTORY;
    t->binlog.format = get_u8(r);
    t->binlog.ttl_seconds = get_i64(r);
    t->binlog.max_bytes = get_i64(r);
    t->binlog.max_history_nums = get_i64(r);
    t->buckets = get_i32(r);
    t->next_uid = get_i32(r);
    t->part_col_uid = get_i32(r);
    t->nkeys = get_u32(r);
    uint32_t ncols = get_count(r);
    if (t->keys > CAT_KEYS_AGG || t->part_type > CAT_PART_LIST ||
        t->binlog.format > CAT_BINLOG_ROW) {
        if (r->bad == NULL) {
            r->bad = "unknown enum value";
        }
    }
    t->cols = mem_calloc(ncols ? ncols : 1, sizeof *t->cols);
    for (uint32_t i = 0; i < ncols && r->bad == NULL; i++) {
        cat_column *c = &t->cols[t->ncols++];
        c->uid = get_i32(r);
        c->name = get_str(r);
        c->type.id = get_u8(r);
        c->type.precision = get_u8(r);
        c->type.scale = get_u8(r);
        c->type.len = get_i32(r);
        char *inner = get_str(r);
        if (strlen(inner) >= sizeof c->type.inner) {
            r->bad = r->bad ? r->bad : "type detail too long";
        } else {
            memcpy(c->type.inner, inner, strlen(inner) + 1);
        }
        mem_free(inner);
        uint8_t f = get_u8(r);
        c->agg = get_u8(r);
        c->auto_inc_start = get_i64(r);
        c->nullable = f & W_NULLABLE;
        c->is_key = f & W_KEY;
        c->auto_inc = f & W_AUTO_INC;
        c->has_default = f & W_HAS_DEFAULT;
        c->default_is_expr = f & W_DEFAULT_EXPR;
        c->flags = (f & W_HIDDEN) ? CAT_COL_HIDDEN : 0;
        c->default_text = (f & W_DEFAULT_TEXT) ? get_str(r) : NULL;
        c->comment = get_str(r);
        if ((c->type.id == CAT_T_INVALID || c->type.id >= CAT_T__COUNT ||
             c->agg >= CAT_AGG__COUNT) &&
            r->bad == NULL) {
            r->bad = "unknown type or aggregation";
        }
    }
    if (t->nkeys > t->ncols && r->bad == NULL) {
        r->bad = "more key columns than columns";
    }
    uint32_t n = get_count(r);
    t->cluster_uids = mem_calloc(n ? n : 1, sizeof *t->cluster_uids);
    for (uint32_t i = 0; i < n && r->bad == NULL; i++) {
        t->cluster_uids[t->ncluster++] = get_i32(r);
    }
    n = get_count(r);
    t->dist_uids = mem_calloc(n ? n : 1, sizeof *t->dist_uids);
    for (uint32_t i = 0; i < n && r->bad == NULL; i++) {
        t->dist_uids[t->ndist++] = get_i32(r);
    }
    get_props(r, &t->props);
    n = get_count(r);
    t->parts = mem_calloc(n ? n : 1, sizeof *t->parts);
    t->tmp_parts = mem_calloc(n ? n : 1, sizeof *t->tmp_parts);
    for (uint32_t i = 0; i < n && r->bad == NULL; i++) {
        int64_t id = get_i64(r);
        char *name = get_str(r);
        int32_t buckets = get_i32(r);
        uint8_t f = get_u8(r);
        cat_partition *p = (f & WP_TEMP) ? &t->tmp_parts[t->ntmp_parts++] : &t->parts[t->nparts++];
        p->id = id;
        p->name = name;
        p->buckets = buckets;
        p->has_null = f & WP_NULL;
        p->lower_min = f & WP_LOWER_MIN;
        p->upper_max = f & WP_UPPER_MAX;
        p->lower = (f & WP_LOWER) ? get_str(r) : NULL;
        p->upper = (f & WP_UPPER) ? get_str(r) : NULL;
        uint32_t nv = get_count(r);
        p->values = mem_calloc(nv ? nv : 1, sizeof *p->values);
        for (uint32_t j = 0; j < nv && r->bad == NULL; j++) {
            p->values[p->nvalues++] = get_str(r);
        }
    }
    if (r->ver >= 2 && get_u8(r) != 0) {
        t->view_sql = get_str(r);
    }
    if (r->ver >= 3 && get_u8(r) != 0) {
        cat_stream *st = mem_calloc(1, sizeof *st);
        t->stream = st;
        st->base_id = get_i64(r);
        st->base_db = get_str(r);
        st->base_name = get_str(r);
        st->type = get_u8(r);
        st->show_initial_rows = get_u8(r) != 0;
        st->created_ms = get_i64(r);
        uint32_t ninit = get_count(r);
        st->init = mem_calloc(ninit ? ninit : 1, sizeof *st->init);
        for (uint32_t i = 0; i < ninit && r->bad == NULL; i++) {
            st->init[i].part_id = get_i64(r);
            st->init[i].tso = (uint64_t)get_i64(r);
            st->ninit++;
        }
        if (st->type > CAT_STREAM_DETAIL) {
            r->bad = "stream type";
        }
    }
    uint32_t nix = r->ver >= 4 ? get_count(r) : 0;
    t->indexes = nix ? mem_calloc(nix, sizeof *t->indexes) : NULL;
    for (uint32_t i = 0; i < nix && r->bad == NULL; i++) {
        cat_index *ix = &t->indexes[t->nindexes++];
        cat_props_init(&ix->props);
        ix->name = get_str(r);
        ix->type = get_u8(r);
        uint32_t nc = get_count(r);
        ix->col_uids = mem_calloc(nc ? nc : 1, sizeof *ix->col_uids);
        for (uint32_t j = 0; j < nc && r->bad == NULL; j++) {
            ix->col_uids[ix->ncols++] = get_i32(r);
        }
        get_props(r, &ix->props);
        ix->comment = get_u8(r) != 0 ? get_str(r) : NULL;
        if (ix->type >= CAT_INDEX__COUNT && r->bad == NULL) {
            r->bad = "index type";
        }
        for (size_t j = 0; j < ix->ncols && r->bad == NULL; j++) {
            if (cat_table_column_uid(t, ix->col_uids[j]) == NULL) {
                r->bad = "index column missing";
            }
        }
    }
    /* References inside the table must resolve, so SHOW and DDL never meet dangling ids. */
    if (r->bad == NULL && t->part_type != CAT_PART_NONE &&
        cat_table_column_uid(t, t->part_col_uid) == NULL) {
        r->bad = "partition column missing";
    }
    for (size_t i = 0; i < t->ndist && r->bad == NULL; i++) {
        if (cat_table_column_uid(t, t->dist_uids[i]) == NULL) {
            r->bad = "distribution column missing";
        }
    }
    for (size_t i = 0; i < t->ncluster && r->bad == NULL; i++) {
        if (cat_table_column_uid(t, t->cluster_uids[i]) == NULL) {
            r->bad = "cluster key column missing";
        }
    }
    for (size_t i = 0; i < t->nparts + t->ntmp_parts && r->bad == NULL; i++) {
        const cat_partition *p = i < t->nparts ? &t->parts[i] : &t->tmp_parts[i - t->nparts];
        if (t->part_type == CAT_PART_RANGE &&
            ((!p->lower_min && p->lower == NULL) || (!p->upper_max && p->upper == NULL))) {
            r->bad = "range partition without bounds";
        }
    }
    return t;
}

cat_table *
cat_table_decode(const void *data, size_t len, db_error *err)
{
    rd r = {data, len, 0, NULL, 0};
    uint8_t ver = get_u8(&r);
    uint8_t kind = get_u8(&r);
    r.ver = ver;
    if (r.bad == NULL && (ver < 1 || ver > CAT_SCHEMA_ENCODING_VERSION)) {
        r.bad = "unknown encoding version"; /* version 1 (before views) still reads */
    }
    if (r.bad == NULL && kind != KIND_TABLE) {
        r.bad = "not a table";
    }
    cat_table *t = r.bad == NULL ? decode_table_body(&r) : NULL;
    if (r.bad == NULL && r.pos != r.len) {
        r.bad = "trailing bytes";
    }
    if (r.bad != NULL) {
        cat_table_free(t);
        db_error_set(err, ER_CAT_SCHEMA_DECODE, r.bad);
        return NULL;
    }
    return t;
}

cat_db *
cat_db_decode(const void *data, size_t len, db_error *err)
{
    rd r = {data, len, 0, NULL, 0};
    uint8_t ver = get_u8(&r);
    uint8_t kind = get_u8(&r);
    r.ver = ver;
    if (r.bad == NULL && (ver < 1 || ver > CAT_SCHEMA_ENCODING_VERSION)) {
        r.bad = "unknown encoding version"; /* version 1 (before views) still reads */
    }
    if (r.bad == NULL && kind != KIND_DB) {
        r.bad = "not a database";
    }
    if (r.bad != NULL) {
        db_error_set(err, ER_CAT_SCHEMA_DECODE, r.bad);
        return NULL;
    }
    cat_db *db = mem_calloc(1, sizeof *db);
    cat_props_init(&db->props);
    db->id = get_i64(&r);
    db->name = get_str(&r);
    get_props(&r, &db->props);
    uint32_t n = get_count(&r);
    db->tables = mem_calloc(n ? n : 1, sizeof *db->tables);
    db->cap = n ? n : 1;
    for (uint32_t i = 0; i < n && r.bad == NULL; i++) {
        db->tables[db->ntables++] = decode_table_body(&r);
    }
    if (r.bad == NULL && r.pos != r.len) {
        r.bad = "trailing bytes";
    }
    if (r.bad != NULL) {
        cat_db_free(db);
        db_error_set(err, ER_CAT_SCHEMA_DECODE, r.bad);
        return NULL;
    }
    return db;
}
