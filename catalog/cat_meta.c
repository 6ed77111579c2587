/* SPDX-License-Identifier: Apache-2.0
 * cat_meta: the durable catalog. Owns the edit log, the TSO allocator and the in-memory object
 * model (cat_schema), and makes every DDL change go through the one commit point: validate,
 * append a record to the edit log (durable on return), then publish. Replay rebuilds the model
 * from the newest image and the records after it. See README.md §"Durable catalog". */
#include "catalog/cat_int.h"
#include "catalog/cat_schema_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/mem.h"

/* Record types of the schema (payload: u64 next_id, then the body). */
enum {
    CAT_REC_DB_PUT = 10,        /* body: cat_db_encode of the header (no tables) */
    CAT_REC_DB_DROP = 11,       /* body: u64 db id */
    CAT_REC_TABLE_PUT = 12,     /* body: cat_table_encode; replaces the table with the same id */
    CAT_REC_TABLE_DROP = 13,    /* body: u64 db id, u64 table id */
    CAT_REC_TABLE_RECYCLE = 14, /* body: u64 db id, u64 table id: DROP TABLE into the bin */
    CAT_REC_TABLE_RECOVER = 15, /* body: u64 db id, u64 table id: RECOVER TABLE */
    CAT_REC_DB_RECYCLE = 16,    /* body: u64 db id: DROP DATABASE into the bin (with tables) */
    CAT_REC_DB_RECOVER = 17,    /* body: u64 db id: RECOVER DATABASE */
    CAT_REC_TABLE_REPLACE = 18, /* body: u64 db id, u64 table id, u64 other id, u8 swap */
    CAT_REC_AUTOINC = 19,       /* no next_id prefix: i64 table id, i64 reserved-up-to value */
};
#define CAT_IMG_AUTOINC 5 /* image: u32 n, {i64 table id, i64 reserved-up-to value} */
#define CAT_IMG_RECYCLE 4 /* image: u32 ntables {u32 len, table}, u32 ndbs {u32 len, db} */
#define CAT_IMG_SCHEMA  2 /* image: u64 next_id, u32 ndbs, {u32 len, db with its tables} */

struct cat_meta {
    cat_editlog *log;
    cat_tso *tso;
    cat_catalog *cat;       /* guarded by lock */
    cat_users *users;       /* accounts; has its own lock */
    cat_table **bin_tables; /* recycle bin: dropped tables (db_id kept), drop order; lock */
    size_t nbin_tables;
    cat_db **bin_dbs; /* recycle bin: dropped databases with their tables; lock */
    size_t nbin_dbs;
    pthread_rwlock_t lock; /* protects cat: readers share it, DDL holds it exclusively across
                              validate + append + publish, so commits are in log order */
    /* AUTO_INCREMENT counters, one per table that has handed out a value. `hwm` changes only
     * under the write lock (with its record appended first); `next` under ai_mu alone. */
    pthread_mutex_t ai_mu;
    struct cat_autoinc *ai; /* heap array, unordered */
    size_t nai, cap_ai;
};

/* One table's AUTO_INCREMENT counter. Values next..hwm are reserved durably and not yet handed
 * out; after a restart next = hwm + 1, so a value is never handed out twice (I-A1). */
struct cat_autoinc {
    int64_t table_id;
    int64_t next; /* next value to hand out */
    int64_t hwm;  /* highest value covered by a logged CAT_REC_AUTOINC record (0 = none) */
};

static void put_u64(buf *b, uint64_t v);
static bool get_u64(const uint8_t **p, const uint8_t *end, uint64_t *v);
static bool get_u32(const uint8_t **p, const uint8_t *end, uint32_t *v);
static int commit(cat_meta *m, uint16_t type, const buf *body, db_error *err);
static int replay_record(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
                         db_error *err);
static int image_write(void *ctx, uint64_t seq, buf *out, db_error *err);
static int image_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err);
static cat_db *db_by_id(cat_catalog *c, int64_t id);
static void table_replace(cat_db *db, cat_table *t);
static bool table_remove(cat_db *db, int64_t id);
static void encode_db_header(const cat_db *db, buf *out);
static cat_table *table_detach(cat_db *db, int64_t id);
static void bin_put_table(cat_meta *m, cat_table *t);
static void bin_put_db(cat_meta *m, cat_db *db);
static int apply_recycle(cat_meta *m, uint16_t type, uint64_t a, uint64_t b, uint64_t c,
                         db_error *err);
static int recycle_write(void *ctx, uint64_t seq, buf *out, db_error *err);
static int recycle_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err);
static struct cat_autoinc *ai_find(cat_meta *m, int64_t table_id);
static int ai_replay(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
                     db_error *err);
static int ai_write(void *ctx, uint64_t seq, buf *out, db_error *err);
static int ai_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err);
static int64_t ai_start(cat_meta *m, int64_t table_id);
static int ai_reserve(cat_meta *m, int64_t table_id, int64_t value, int64_t *first, int64_t n,
                      db_error *err);

/* ---- little helpers ---- */

static void
put_u64(buf *b, uint64_t v)
{
    buf_put_u64le(b, v);
}

/* Bounds-checked readers over a payload cursor (the values via cat_int.h's helpers). */
static bool
get_u64(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    if (end - *p < 8) {
        return false;
    }
    *v = cat__get_u64(*p);
    *p += 8;
    return true;
}

static bool
get_u32(const uint8_t **p, const uint8_t *end, uint32_t *v)
{
    if (end - *p < 4) {
        return false;
    }
    *v = cat__get_u32(*p);
    *p += 4;
    return true;
}

static cat_db *
db_by_id(cat_catalog *c, int64_t id)
{
    return cat_db_find_id(c, id);
}

/* Put t in db in place of the table with the same id (freed), or append it. Takes t. */
static void
table_replace(cat_db *db, cat_table *t)
{
    for (size_t i = 0; i < db->ntables; i++) {
        if (db->tables[i]->id == t->id) {
            cat_table_free(db->tables[i]);
            db->tables[i] = t;
            t->db_id = db->id;
            return;
        }
    }
    if (db->ntables == db->cap) {
        db->cap = db->cap ? db->cap * 2 : 8;
        db->tables = mem_realloc(db->tables, db->cap * sizeof *db->tables);
    }
    db->tables[db->ntables++] = t;
    t->db_id = db->id;
}

/* Remove and free the table with this id; false when there is none. */
static bool
table_remove(cat_db *db, int64_t id)
{
    for (size_t i = 0; i < db->ntables; i++) {
        if (db->tables[i]->id == id) {
            cat_table_free(db->tables[i]);
            memmove(&db->tables[i], &db->tables[i + 1], (db->ntables - i - 1) * sizeof *db->tables);
            db->ntables--;
            return true;
        }
    }
    return false;
}

/* Remove the table with this id from db and return it (not freed); NULL when absent. */
static cat_table *
table_detach(cat_db *db, int64_t id)
{
    for (size_t i = 0; i < db->ntables; i++) {
        if (db->tables[i]->id == id) {
            cat_table *t = db->tables[i];
            memmove(&db->tables[i], &db->tables[i + 1], (db->ntables - i - 1) * sizeof *db->tables);
            db->ntables--;
            return t;
        }
    }
    return NULL;
}

/* Into the bin; a binned table of the same name in the same database is erased first
 * (Doris's eraseTableWithSameName), so RECOVER finds exactly one. */
static void
bin_put_table(cat_meta *m, cat_table *t)
{
    for (size_t i = 0; i < m->nbin_tables; i++) {
        cat_table *o = m->bin_tables[i];
        if (o->db_id == t->db_id && strcmp(o->name, t->name) == 0) {
            cat_table_free(o);
            memmove(&m->bin_tables[i], &m->bin_tables[i + 1],
                    (m->nbin_tables - i - 1) * sizeof *m->bin_tables);
            m->nbin_tables--;
            break;
        }
    }
    m->bin_tables = mem_realloc(m->bin_tables, (m->nbin_tables + 1) * sizeof *m->bin_tables);
    m->bin_tables[m->nbin_tables++] = t;
}

/* Into the bin; a binned database of the same name is erased first (eraseDatabaseWithSameName). */
static void
bin_put_db(cat_meta *m, cat_db *db)
{
    for (size_t i = 0; i < m->nbin_dbs; i++) {
        if (strcmp(m->bin_dbs[i]->name, db->name) == 0) {
            cat_db_free(m->bin_dbs[i]);
            memmove(&m->bin_dbs[i], &m->bin_dbs[i + 1], (m->nbin_dbs - i - 1) * sizeof *m->bin_dbs);
            m->nbin_dbs--;
            break;
        }
    }
    m->bin_dbs = mem_realloc(m->bin_dbs, (m->nbin_dbs + 1) * sizeof *m->bin_dbs);
    m->bin_dbs[m->nbin_dbs++] = db;
}

/* The effect of records 14..18 on the model and the bin: used by the DDL functions after the
 * append and by replay, so both produce the same state. a, b, c: the record's ids/flag. */
static int
apply_recycle(cat_meta *m, uint16_t type, uint64_t a, uint64_t b, uint64_t c, db_error *err)
{
    cat_db *db = type == CAT_REC_DB_RECOVER ? NULL : db_by_id(m->cat, (int64_t)a);
    switch (type) {
    case CAT_REC_TABLE_RECYCLE: {
        cat_table *t = db ? table_detach(db, (int64_t)b) : NULL;
        if (t == NULL) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "recycled table does not exist");
        }
        bin_put_table(m, t);
        return DB_OK;
    }
    case CAT_REC_TABLE_RECOVER:
        for (size_t i = 0; db != NULL && i < m->nbin_tables; i++) {
            cat_table *t = m->bin_tables[i];
            if (t->id == (int64_t)b && t->db_id == db->id) {
                memmove(&m->bin_tables[i], &m->bin_tables[i + 1],
                        (m->nbin_tables - i - 1) * sizeof *m->bin_tables);
                m->nbin_tables--;
                table_replace(db, t);
                return DB_OK;
            }
        }
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "recovered table is not in the bin");
    case CAT_REC_DB_RECYCLE: {
        cat_db *d = db ? cat__db_detach(m->cat, db->id) : NULL;
        if (d == NULL) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "recycled database does not exist");
        }
        bin_put_db(m, d);
        return DB_OK;
    }
    case CAT_REC_DB_RECOVER:
        for (size_t i = 0; i < m->nbin_dbs; i++) {
            cat_db *d = m->bin_dbs[i];
            if (d->id == (int64_t)a) {
                if (cat_db_install(m->cat, d, err) != DB_OK) {
                    return DB_ERR;
                }
                memmove(&m->bin_dbs[i], &m->bin_dbs[i + 1],
                        (m->nbin_dbs - i - 1) * sizeof *m->bin_dbs);
                m->nbin_dbs--;
                return DB_OK;
            }
        }
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "recovered database is not in the bin");
    case CAT_REC_TABLE_REPLACE: {
        cat_table *t = NULL, *o = NULL;
        for (size_t i = 0; db != NULL && i < db->ntables; i++) {
            t = db->tables[i]->id == (int64_t)b ? db->tables[i] : t;
            o = db->tables[i]->id == (int64_t)c >> 1 ? db->tables[i] : o;
        }
        if (t == NULL || o == NULL) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "replaced table does not exist");
        }
        char *tn = mem_strdup(t->name), *on = mem_strdup(o->name);
        int rc = cat_table_replace_with(db, tn, on, (c & 1) != 0, NULL, err);
        mem_free(tn);
        mem_free(on);
        return rc;
    }
    default:
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "unknown schema record type");
    }
}

/* Append one schema record: u64 next_id + body. Caller holds the write lock. */
static int
commit(cat_meta *m, uint16_t type, const buf *body, db_error *err)
{
    buf rec;
    buf_init(&rec);
    put_u64(&rec, (uint64_t)cat_catalog_next_id(m->cat));
    buf_append(&rec, body->data, body->len);
    uint64_t seq;
    int rc = cat_editlog_append(m->log, type, rec.data, rec.len, &seq, err);
    buf_destroy(&rec);
    return rc;
}

/* ---- replay ---- */

static int
replay_record(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
              db_error *err)
{
    cat_meta *m = ctx;
    const uint8_t *p = payload, *end = p + len;
    uint64_t next_id, a, b;
    if (!get_u64(&p, end, &next_id)) {
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short schema record");
    }
    cat_catalog_bump_id(m->cat, (int64_t)next_id);
    size_t rest = (size_t)(end - p);
    switch (type) {
    case CAT_REC_DB_PUT: {
        cat_db *db = cat_db_decode(p, rest, err);
        if (db == NULL) {
            return DB_ERR;
        }
        cat_db *old = db_by_id(m->cat, db->id);
        if (old != NULL) {
            /* ALTER DATABASE: new properties (and name), same tables. */
            cat_props_destroy(&old->props);
            cat_props_init(&old->props);
            cat_props_copy(&old->props, &db->props);
            mem_free(old->name);
            old->name = mem_strdup(db->name);
            cat_db_free(db);
            return DB_OK;
        }
        if (cat_db_install(m->cat, db, err) != DB_OK) {
            cat_db_free(db);
            return DB_ERR;
        }
        return DB_OK;
    }
    case CAT_REC_DB_DROP: {
        if (!get_u64(&p, end, &a)) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short DROP DATABASE record");
        }
        cat_db *db = db_by_id(m->cat, (int64_t)a);
        if (db != NULL) {
            char *name = mem_strdup(db->name);
            int rc = cat_db_drop(m->cat, name, true, err);
            mem_free(name);
            return rc;
        }
        return DB_OK;
    }
    case CAT_REC_TABLE_PUT: {
        cat_table *t = cat_table_decode(p, rest, err);
        if (t == NULL) {
            return DB_ERR;
        }
        cat_db *db = db_by_id(m->cat, t->db_id);
        if (db == NULL) {
            cat_table_free(t);
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "table of an unknown database");
        }
        table_replace(db, t);
        return DB_OK;
    }
    case CAT_REC_TABLE_DROP: {
        if (!get_u64(&p, end, &a) || !get_u64(&p, end, &b)) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short DROP TABLE record");
        }
        cat_db *db = db_by_id(m->cat, (int64_t)a);
        if (db != NULL) {
            table_remove(db, (int64_t)b);
        }
        return DB_OK;
    }
    case CAT_REC_DB_RECOVER:
        if (!get_u64(&p, end, &a)) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short recycle bin record");
        }
        return apply_recycle(m, type, a, 0, 0, err);
    case CAT_REC_DB_RECYCLE:
        if (!get_u64(&p, end, &a)) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short recycle bin record");
        }
        return apply_recycle(m, type, a, 0, 0, err);
    case CAT_REC_TABLE_RECYCLE:
    case CAT_REC_TABLE_RECOVER:
        if (!get_u64(&p, end, &a) || !get_u64(&p, end, &b)) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short recycle bin record");
        }
        return apply_recycle(m, type, a, b, 0, err);
    case CAT_REC_TABLE_REPLACE: {
        uint64_t o;
        if (!get_u64(&p, end, &a) || !get_u64(&p, end, &b) || !get_u64(&p, end, &o) || p >= end) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short REPLACE TABLE record");
        }
        return apply_recycle(m, type, a, b, o << 1 | (*p ? 1u : 0u), err);
    }
    default:
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "unknown schema record type");
    }
}

/* The recycle bin's image section: tables, then databases (each with its tables). */
static int
recycle_write(void *ctx, uint64_t seq, buf *out, db_error *err)
{
    cat_meta *m = ctx;
    buf one;
    buf_init(&one);
    buf_put_u32le(out, (uint32_t)m->nbin_tables);
    for (size_t i = 0; i < m->nbin_tables; i++) {
        buf_clear(&one);
        cat_table_encode(m->bin_tables[i], &one);
        buf_put_u32le(out, (uint32_t)one.len);
        buf_append(out, one.data, one.len);
    }
    buf_put_u32le(out, (uint32_t)m->nbin_dbs);
    for (size_t i = 0; i < m->nbin_dbs; i++) {
        buf_clear(&one);
        cat_db_encode(m->bin_dbs[i], &one);
        buf_put_u32le(out, (uint32_t)one.len);
        buf_append(out, one.data, one.len);
    }
    buf_destroy(&one);
    return DB_OK;
}

static int
recycle_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err)
{
    cat_meta *m = ctx;
    const uint8_t *p = data, *end = p + len;
    uint32_t n, l;
    for (int pass = 0; pass < 2; pass++) {
        if (!get_u32(&p, end, &n)) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short recycle bin image");
        }
        for (uint32_t i = 0; i < n; i++) {
            if (!get_u32(&p, end, &l) || (size_t)(end - p) < l) {
                return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short recycle bin image");
            }
            if (pass == 0) {
                cat_table *t = cat_table_decode(p, l, err);
                if (t == NULL) {
                    return DB_ERR;
                }
                cat_catalog_bump_id(m->cat, t->id + 1); /* I-S2 */
                bin_put_table(m, t);
            } else {
                cat_db *db = cat_db_decode(p, l, err);
                if (db == NULL) {
                    return DB_ERR;
                }
                cat_catalog_bump_id(m->cat, db->id + 1);
                bin_put_db(m, db);
            }
            p += l;
        }
    }
    return DB_OK;
}

static int
image_write(void *ctx, uint64_t seq, buf *out, db_error *err)
{
    cat_meta *m = ctx;
    put_u64(out, (uint64_t)cat_catalog_next_id(m->cat));
    size_t n = cat_db_count(m->cat);
    uint32_t ndbs = 0;
    for (size_t i = 0; i < n; i++) {
        ndbs += cat_db_at(m->cat, i)->is_system ? 0 : 1;
    }
    buf one;
    buf_init(&one);
    buf_put_u32le(out, ndbs);
    for (size_t i = 0; i < n; i++) {
        cat_db *db = cat_db_at(m->cat, i);
        if (db->is_system) {
            continue;
        }
        buf_clear(&one);
        cat_db_encode(db, &one); /* with its tables */
        buf_put_u32le(out, (uint32_t)one.len);
        buf_append(out, one.data, one.len);
    }
    buf_destroy(&one);
    return DB_OK;
}

static int
image_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err)
{
    cat_meta *m = ctx;
    const uint8_t *p = data, *end = p + len;
    uint64_t next_id;
    uint32_t n, l;
    if (!get_u64(&p, end, &next_id) || !get_u32(&p, end, &n)) {
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short schema image");
    }
    cat_catalog_bump_id(m->cat, (int64_t)next_id);
    for (uint32_t i = 0; i < n; i++) {
        if (!get_u32(&p, end, &l) || (size_t)(end - p) < l) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short schema image");
        }
        cat_db *db = cat_db_decode(p, l, err);
        if (db == NULL) {
            return DB_ERR;
        }
        if (cat_db_install(m->cat, db, err) != DB_OK) {
            cat_db_free(db);
            return DB_ERR;
        }
        p += l;
    }
    return DB_OK;
}

/* The database header alone (its tables have records of their own). */
static void
encode_db_header(const cat_db *db, buf *out)
{
    cat_db hdr = *db;
    hdr.ntables = 0;
    cat_db_encode(&hdr, out);
}

/* ---- AUTO_INCREMENT counters ---- */

/* The counter of table_id, or NULL. Caller holds ai_mu (or the write lock during replay). */
static struct cat_autoinc *
ai_find(cat_meta *m, int64_t table_id)
{
    for (size_t i = 0; i < m->nai; i++) {
        if (m->ai[i].table_id == table_id) {
            return &m->ai[i];
        }
    }
    return NULL;
}

/* The counter of table_id, created when missing (next = start, nothing reserved). ai_mu held. */
static struct cat_autoinc *
ai_get(cat_meta *m, int64_t table_id, int64_t start)
{
    struct cat_autoinc *a = ai_find(m, table_id);
    if (a != NULL) {
        return a;
    }
    if (m->nai == m->cap_ai) {
        m->cap_ai = m->cap_ai ? m->cap_ai * 2 : 8;
        m->ai = mem_realloc(m->ai, m->cap_ai * sizeof *m->ai);
    }
    a = &m->ai[m->nai++];
    a->table_id = table_id;
    a->next = start;
    a->hwm = start - 1;
    return a;
}

/* Record or image entry: the reservation reached hwm, so the counter resumes above it. */
static void
ai_apply(cat_meta *m, int64_t table_id, int64_t hwm)
{
    pthread_mutex_lock(&m->ai_mu);
    struct cat_autoinc *a = ai_get(m, table_id, hwm + 1);
    if (hwm > a->hwm) {
        a->hwm = hwm;
    }
    if (a->next <= a->hwm) {
        a->next = a->hwm + 1; /* I-A1: values up to hwm may have been handed out */
    }
    pthread_mutex_unlock(&m->ai_mu);
}

static int
ai_replay(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len, db_error *err)
{
    const uint8_t *p = payload, *end = p + len;
    uint64_t id, hwm;
    if (!get_u64(&p, end, &id) || !get_u64(&p, end, &hwm) || p != end) {
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "bad auto increment record");
    }
    ai_apply(ctx, (int64_t)id, (int64_t)hwm);
    return DB_OK;
}

/* True when table id is live or in the recycle bin (RECOVER brings it back with its id). The
 * caller holds the lock. */
static bool
table_known(const cat_meta *m, int64_t id)
{
    for (size_t d = 0; d < m->cat->ndbs; d++) {
        for (size_t i = 0; i < m->cat->dbs[d]->ntables; i++) {
            if (m->cat->dbs[d]->tables[i]->id == id) {
                return true;
            }
        }
    }
    for (size_t d = 0; d < m->nbin_dbs; d++) {
        for (size_t i = 0; i < m->bin_dbs[d]->ntables; i++) {
            if (m->bin_dbs[d]->tables[i]->id == id) {
                return true;
            }
        }
    }
    for (size_t i = 0; i < m->nbin_tables; i++) {
        if (m->bin_tables[i]->id == id) {
            return true;
        }
    }
    return false;
}

/* Image: the counters of the tables that still exist (a checkpoint holds the write lock, so the
 * catalog can be read; counters of dropped tables are left out and forgotten). */
static int
ai_write(void *ctx, uint64_t seq, buf *out, db_error *err)
{
    cat_meta *m = ctx;
    pthread_mutex_lock(&m->ai_mu);
    uint32_t n = 0;
    for (size_t i = 0; i < m->nai; i++) {
        n += table_known(m, m->ai[i].table_id) ? 1 : 0;
    }
    buf_put_u32le(out, n);
    for (size_t i = 0; i < m->nai; i++) {
        if (table_known(m, m->ai[i].table_id)) {
            put_u64(out, (uint64_t)m->ai[i].table_id);
            put_u64(out, (uint64_t)m->ai[i].hwm);
        }
    }
    pthread_mutex_unlock(&m->ai_mu);
    return DB_OK;
}

static int
ai_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err)
{
    const uint8_t *p = data, *end = p + len;
    uint32_t n;
    if (!get_u32(&p, end, &n)) {
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short auto increment image");
    }
    for (uint32_t i = 0; i < n; i++) {
        uint64_t id, hwm;
        if (!get_u64(&p, end, &id) || !get_u64(&p, end, &hwm)) {
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "short auto increment image");
        }
        ai_apply(ctx, (int64_t)id, (int64_t)hwm);
    }
    return p == end ? DB_OK
                    : db_error_set(err, ER_CAT_SCHEMA_DECODE, "trailing auto increment image");
}

/* AUTO_INCREMENT(n) of the table's auto-increment column (1 without one). Lock held. */
static int64_t
ai_start(cat_meta *m, int64_t table_id)
{
    for (size_t d = 0; d < m->cat->ndbs; d++) {
        const cat_db *db = m->cat->dbs[d];
        for (size_t i = 0; i < db->ntables; i++) {
            const cat_table *t = db->tables[i];
            for (size_t c = 0; t->id == table_id && c < t->ncols; c++) {
                if (t->cols[c].auto_inc) {
                    return t->cols[c].auto_inc_start > 0 ? t->cols[c].auto_inc_start : 1;
                }
            }
        }
    }
    return 1;
}

/* Slow path, under the write lock: log a reservation reaching CAT_AUTOINC_BATCH values past
 * what is needed, then hand out n values at *first (first == NULL: only raise the counter past
 * value). Other threads may take values from the fast path during the fsync, hence the loop. */
static int
ai_reserve(cat_meta *m, int64_t table_id, int64_t value, int64_t *first, int64_t n, db_error *err)
{
    int rc = DB_OK;
    pthread_rwlock_wrlock(&m->lock);
    int64_t start = ai_start(m, table_id);
    pthread_mutex_lock(&m->ai_mu);
    for (;;) {
        struct cat_autoinc *a = ai_get(m, table_id, start);
        if (first ? a->next > INT64_MAX - n : value == INT64_MAX) {
            rc = db_error_set(err, ER_DORIS, "auto-increment value is out of range");
            break;
        }
        int64_t upto = first ? a->next + n - 1 : value;
        if (upto <= a->hwm) { /* I-A2: every value handed out is covered by a logged record */
            if (first) {
                *first = a->next;
                a->next += n;
            } else if (value >= a->next) {
                a->next = value + 1;
            }
            break;
        }
        int64_t new_hwm =
                upto > INT64_MAX - CAT_AUTOINC_BATCH ? INT64_MAX : upto + CAT_AUTOINC_BATCH - 1;
        pthread_mutex_unlock(&m->ai_mu);
        buf rec;
        buf_init(&rec);
        put_u64(&rec, (uint64_t)table_id);
        put_u64(&rec, (uint64_t)new_hwm);
        uint64_t seq;
        rc = cat_editlog_append(m->log, CAT_REC_AUTOINC, rec.data, rec.len, &seq, err);
        buf_destroy(&rec);
        pthread_mutex_lock(&m->ai_mu);
        if (rc != DB_OK) {
            break;
        }
        a = ai_find(m, table_id);
        a->hwm = new_hwm > a->hwm ? new_hwm : a->hwm; /* only this thread raises hwm now */
    }
    pthread_mutex_unlock(&m->ai_mu);
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

int
cat_meta_autoinc_next(cat_meta *m, int64_t table_id, int64_t n, int64_t *first, db_error *err)
{
    DB_ASSERT(n > 0);
    pthread_mutex_lock(&m->ai_mu);
    struct cat_autoinc *a = ai_find(m, table_id);
    if (a != NULL && a->next <= INT64_MAX - n && a->next + n - 1 <= a->hwm) {
        *first = a->next;
        a->next += n;
        pthread_mutex_unlock(&m->ai_mu);
        return DB_OK;
    }
    pthread_mutex_unlock(&m->ai_mu);
    return ai_reserve(m, table_id, 0, first, n, err);
}

int
cat_meta_autoinc_raise(cat_meta *m, int64_t table_id, int64_t value, db_error *err)
{
    pthread_mutex_lock(&m->ai_mu);
    struct cat_autoinc *a = ai_find(m, table_id);
    if (a != NULL && value <= a->hwm) {
        if (value >= a->next) {
            a->next = value + 1;
        }
        pthread_mutex_unlock(&m->ai_mu);
        return DB_OK;
    }
    pthread_mutex_unlock(&m->ai_mu);
    return ai_reserve(m, table_id, value, NULL, 0, err);
}

int64_t
cat_meta_autoinc_peek(cat_meta *m, int64_t table_id)
{
    pthread_mutex_lock(&m->ai_mu);
    struct cat_autoinc *a = ai_find(m, table_id);
    int64_t v = a ? a->next : 0;
    pthread_mutex_unlock(&m->ai_mu);
    return v;
}

/* ---- life cycle ---- */

cat_meta *
cat_meta_open(const char *dir, const cat_meta_config *cfg, db_error *err)
{
    cat_meta_config defaults = {0};
    if (cfg == NULL) {
        cfg = &defaults;
    }
    cat_editlog *log = cat_editlog_open(dir, &cfg->log, err);
    if (log == NULL) {
        return NULL;
    }
    cat_meta *m = mem_calloc(1, sizeof *m);
    m->log = log;
    m->cat = cat_catalog_new();
    pthread_rwlock_init(&m->lock, NULL);
    pthread_mutex_init(&m->ai_mu, NULL);
    m->tso = cat_tso_new(log, cfg->clock ? cfg->clock : cat_clock_realtime_ms, cfg->clock_ctx, err);
    if (m->tso == NULL) {
        cat_meta_close(m, false);
        return NULL;
    }
    m->users = cat_users_new(log);
    cat_editlog_register(log, CAT_REC_DB_PUT, "database", replay_record, m);
    cat_editlog_register(log, CAT_REC_DB_DROP, "drop database", replay_record, m);
    cat_editlog_register(log, CAT_REC_TABLE_PUT, "table", replay_record, m);
    cat_editlog_register(log, CAT_REC_TABLE_DROP, "drop table", replay_record, m);
    cat_editlog_register(log, CAT_REC_TABLE_RECYCLE, "recycle table", replay_record, m);
    cat_editlog_register(log, CAT_REC_TABLE_RECOVER, "recover table", replay_record, m);
    cat_editlog_register(log, CAT_REC_DB_RECYCLE, "recycle database", replay_record, m);
    cat_editlog_register(log, CAT_REC_DB_RECOVER, "recover database", replay_record, m);
    cat_editlog_register(log, CAT_REC_TABLE_REPLACE, "replace table", replay_record, m);
    cat_editlog_register(log, CAT_REC_AUTOINC, "auto increment", ai_replay, m);
    cat_editlog_register_section(log, CAT_IMG_SCHEMA, "schema", image_write, image_load, m);
    cat_editlog_register_section(log, CAT_IMG_AUTOINC, "auto increment", ai_write, ai_load, m);
    cat_editlog_register_section(log, CAT_IMG_RECYCLE, "recycle bin", recycle_write, recycle_load,
                                 m);
    if (cfg->attach != NULL && cfg->attach(cfg->attach_ctx, log, m, err) != DB_OK) {
        cat_meta_close(m, false);
        return NULL;
    }
    if (cat_editlog_replay(log, err) != DB_OK) {
        cat_meta_close(m, false);
        return NULL;
    }
    return m;
}

void
cat_meta_close(cat_meta *m, bool checkpoint)
{
    if (m == NULL) {
        return;
    }
    if (checkpoint) {
        db_error e = {0};
        pthread_rwlock_wrlock(&m->lock);
        (void)cat_editlog_checkpoint(m->log, &e);
        pthread_rwlock_unlock(&m->lock);
    }
    cat_tso_free(m->tso);
    cat_users_free(m->users);
    cat_editlog_close(m->log);
    cat_catalog_free(m->cat);
    for (size_t i = 0; i < m->nbin_tables; i++) {
        cat_table_free(m->bin_tables[i]);
    }
    mem_free(m->bin_tables);
    for (size_t i = 0; i < m->nbin_dbs; i++) {
        cat_db_free(m->bin_dbs[i]);
    }
    mem_free(m->bin_dbs);
    pthread_rwlock_destroy(&m->lock);
    pthread_mutex_destroy(&m->ai_mu);
    mem_free(m->ai);
    mem_free(m);
}

int
cat_meta_checkpoint(cat_meta *m, db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    int rc = cat_editlog_checkpoint(m->log, err);
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

bool
cat_meta_checkpoint_due(cat_meta *m)
{
    return cat_editlog_checkpoint_due(m->log);
}

cat_users *
cat_meta_users(cat_meta *m)
{
    return m->users;
}

cat_tso *
cat_meta_tso(cat_meta *m)
{
    return m->tso;
}

void
cat_meta_log_stats(cat_meta *m, cat_editlog_stats *out)
{
    cat_editlog_stats_get(m->log, out);
}

const cat_catalog *
cat_meta_read_begin(cat_meta *m)
{
    pthread_rwlock_rdlock(&m->lock);
    return m->cat;
}

void
cat_meta_read_end(cat_meta *m)
{
    pthread_rwlock_unlock(&m->lock);
}

/* ---- DDL ---- */

int
cat_meta_create_db(cat_meta *m, const char *name, bool if_not_exists, const cat_props *props,
                   db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    cat_db *db = NULL;
    int rc = cat_db_create(m->cat, name, if_not_exists, props, &db, err);
    if (rc == DB_OK && db != NULL) {
        buf body;
        buf_init(&body);
        encode_db_header(db, &body);
        rc = commit(m, CAT_REC_DB_PUT, &body, err);
        buf_destroy(&body);
        if (rc != DB_OK) {
            db_error undo = {0};
            cat_db_drop(m->cat, name, true, &undo);
        }
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

int
cat_meta_drop_db(cat_meta *m, const char *name, bool if_exists, db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    int rc = DB_OK;
    cat_db *db = cat_db_find(m->cat, name);
    if (db == NULL || db->is_system) {
        /* Let the model produce the exact error (or the IF EXISTS no-op). */
        rc = cat_db_drop(m->cat, name, if_exists, err);
    } else {
        buf body;
        buf_init(&body);
        put_u64(&body, (uint64_t)db->id);
        rc = commit(m, CAT_REC_DB_DROP, &body, err);
        buf_destroy(&body);
        if (rc == DB_OK) {
            rc = cat_db_drop(m->cat, name, if_exists, err);
        }
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

int
cat_meta_alter_db(cat_meta *m, const char *name, const cat_props *props, db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    cat_db *db = cat_db_find(m->cat, name);
    cat_props saved;
    cat_props_init(&saved);
    if (db != NULL) {
        cat_props_copy(&saved, &db->props);
    }
    int rc = cat_db_set_properties(m->cat, name, props, err);
    if (rc == DB_OK) {
        db = cat_db_find(m->cat, name);
        buf body;
        buf_init(&body);
        encode_db_header(db, &body);
        rc = commit(m, CAT_REC_DB_PUT, &body, err);
        buf_destroy(&body);
        if (rc != DB_OK) {
            cat_props_destroy(&db->props);
            cat_props_init(&db->props);
            cat_props_copy(&db->props, &saved);
        }
    }
    cat_props_destroy(&saved);
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

int
cat_meta_create_table(cat_meta *m, const cat_create_table_req *req, db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    cat_table *t = NULL;
    int rc = cat_table_validate_create(m->cat, req, &t, err);
    if (rc == DB_OK && t != NULL) {
        rc = cat_table_attach(m->cat, req->db, t, err);
        if (rc != DB_OK) {
            cat_table_free(t);
        } else {
            buf body;
            buf_init(&body);
            cat_table_encode(t, &body);
            rc = commit(m, CAT_REC_TABLE_PUT, &body, err);
            buf_destroy(&body);
            if (rc != DB_OK) {
                table_remove(cat_db_find(m->cat, req->db), t->id);
            }
        }
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

int
cat_meta_create_view(cat_meta *m, const char *db_name, const char *name, const char *sql,
                     bool or_replace, db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    int rc = DB_OK;
    cat_db *db = cat_db_find(m->cat, db_name);
    cat_table *old = db != NULL ? cat_table_find(db, name) : NULL;
    if (db == NULL || db->is_system) {
        rc = db_error_set(err, ER_BAD_DB_ERROR, db_name);
    } else if (old != NULL && !or_replace) {
        rc = db_error_set(err, ER_TABLE_EXISTS_ERROR, name);
    } else if (old != NULL && old->view_sql == NULL) {
        rc = db_error_set(err, ER_WRONG_OBJECT, db_name, name, "VIEW");
    }
    if (rc != DB_OK) {
        pthread_rwlock_unlock(&m->lock);
        return rc;
    }
    cat_table *t = mem_calloc(1, sizeof *t);
    cat_props_init(&t->props);
    t->name = mem_strdup(name);
    t->comment = mem_strdup("");
    t->db_id = db->id;
    t->part_col_uid = -1;
    t->view_sql = mem_strdup(sql);
    if (old != NULL) {
        t->id = old->id;
    } else if (cat_table_attach(m->cat, db_name, t, err) != DB_OK) {
        cat_table_free(t);
        pthread_rwlock_unlock(&m->lock);
        return DB_ERR;
    }
    buf body;
    buf_init(&body);
    cat_table_encode(t, &body);
    rc = commit(m, CAT_REC_TABLE_PUT, &body, err);
    buf_destroy(&body);
    if (old != NULL) {
        if (rc == DB_OK) {
            table_replace(db, t);
        } else {
            cat_table_free(t);
        }
    } else if (rc != DB_OK) {
        table_remove(db, t->id);
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

int
cat_meta_create_stream(cat_meta *m, const char *db_name, const char *name, const char *comment,
                       const cat_stream *def, bool if_not_exists, bool *created, db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    int rc = DB_OK;
    *created = false;
    cat_db *db = cat_db_find(m->cat, db_name);
    if (db == NULL || db->is_system) {
        rc = db_error_set(err, ER_BAD_DB_ERROR, db_name);
    } else if (cat_table_find(db, name) != NULL) {
        if (!if_not_exists) {
            rc = db_error_set(err, ER_TABLE_EXISTS_ERROR, name);
        }
        pthread_rwlock_unlock(&m->lock);
        return rc;
    }
    if (rc != DB_OK) {
        pthread_rwlock_unlock(&m->lock);
        return rc;
    }
    cat_table *t = mem_calloc(1, sizeof *t);
    cat_props_init(&t->props);
    t->name = mem_strdup(name);
    t->comment = mem_strdup(comment ? comment : "");
    t->db_id = db->id;
    t->part_col_uid = -1;
    t->stream = cat_stream_clone(def);
    if (cat_table_attach(m->cat, db_name, t, err) != DB_OK) {
        cat_table_free(t);
        pthread_rwlock_unlock(&m->lock);
        return DB_ERR;
    }
    buf body;
    buf_init(&body);
    cat_table_encode(t, &body);
    rc = commit(m, CAT_REC_TABLE_PUT, &body, err);
    buf_destroy(&body);
    if (rc != DB_OK) {
        table_remove(db, t->id);
    } else {
        *created = true;
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

int
cat_meta_drop_table(cat_meta *m, const char *db_name, const char *name, bool if_exists,
                    db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    int rc;
    cat_db *db = cat_db_find(m->cat, db_name);
    cat_table *t = db != NULL ? cat_table_find(db, name) : NULL;
    if (t == NULL) {
        rc = cat_table_drop(m->cat, db_name, name, if_exists, err);
    } else {
        buf body;
        buf_init(&body);
        put_u64(&body, (uint64_t)db->id);
        put_u64(&body, (uint64_t)t->id);
        rc = commit(m, CAT_REC_TABLE_DROP, &body, err);
        buf_destroy(&body);
        if (rc == DB_OK) {
            table_remove(db, t->id);
        }
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

/* After base (in db) was renamed, under the write lock: the streams on it keep the new name
 * as their last known one (decision R1 shows it once the table is gone). Each is one more
 * CAT_REC_TABLE_PUT; a failure is logged (the rename itself is durable, and streams follow the
 * table by id anyway). */
static void
follow_rename(cat_meta *m, const cat_db *db, const cat_table *base)
{
    for (size_t d = 0; d < cat_db_count(m->cat); d++) {
        cat_db *sdb = cat_db_at(m->cat, d);
        for (size_t i = 0; i < sdb->ntables; i++) {
            const cat_table *st = sdb->tables[i];
            if (st->stream == NULL || st->stream->base_id != base->id ||
                (strcmp(st->stream->base_name, base->name) == 0 &&
                 strcmp(st->stream->base_db, db->name) == 0)) {
                continue;
            }
            cat_table *copy = cat_table_clone(st);
            mem_free(copy->stream->base_name);
            mem_free(copy->stream->base_db);
            copy->stream->base_name = mem_strdup(base->name);
            copy->stream->base_db = mem_strdup(db->name);
            buf body;
            buf_init(&body);
            cat_table_encode(copy, &body);
            db_error e;
            db_error_clear(&e);
            int rc = commit(m, CAT_REC_TABLE_PUT, &body, &e);
            buf_destroy(&body);
            if (rc == DB_OK) {
                table_replace(sdb, copy);
            } else {
                log_warn("stream %s.%s keeps the old name of its base table: %s", sdb->name,
                         copy->name, e.msg);
                cat_table_free(copy);
            }
        }
    }
}

int
cat_meta_alter_table(cat_meta *m, const char *db_name, const char *name, cat_table_edit_fn edit,
                     void *arg, db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    int rc;
    cat_db *db = cat_db_find(m->cat, db_name);
    cat_table *t = db != NULL ? cat_table_find(db, name) : NULL;
    if (db == NULL) {
        rc = db_error_set(err, ER_BAD_DB_ERROR, db_name);
    } else if (t == NULL) {
        rc = db_error_set(err, ER_NO_SUCH_TABLE, db_name, name);
    } else {
        cat_table *copy = cat_table_clone(t);
        rc = edit(m->cat, db, copy, arg, err);
        if (rc == DB_OK) {
            buf body;
            buf_init(&body);
            cat_table_encode(copy, &body);
            rc = commit(m, CAT_REC_TABLE_PUT, &body, err);
            buf_destroy(&body);
        }
        if (rc == DB_OK) {
            bool renamed = strcmp(t->name, copy->name) != 0;
            table_replace(db, copy);
            if (renamed) {
                follow_rename(m, db, copy);
            }
        } else {
            cat_table_free(copy);
        }
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

/* ---- recycle bin, REPLACE WITH TABLE ---- */

/* Logs record type with the u64 ids (and the swap byte for REPLACE), then applies it. */
static int commit_recycle(cat_meta *m, uint16_t type, uint64_t a, uint64_t b, uint64_t c,
                          db_error *err);

static int
commit_recycle(cat_meta *m, uint16_t type, uint64_t a, uint64_t b, uint64_t c, db_error *err)
{
    buf body;
    buf_init(&body);
    put_u64(&body, a);
    if (type == CAT_REC_TABLE_RECYCLE || type == CAT_REC_TABLE_RECOVER ||
        type == CAT_REC_TABLE_REPLACE) {
        put_u64(&body, b);
    }
    if (type == CAT_REC_TABLE_REPLACE) {
        put_u64(&body, c >> 1);
        buf_put_u8(&body, (uint8_t)(c & 1));
    }
    int rc = commit(m, type, &body, err);
    buf_destroy(&body);
    if (rc == DB_OK) {
        rc = apply_recycle(m, type, a, b, c, err);
        DB_ASSERT(rc == DB_OK); /* validated under the same lock before the append */
    }
    return rc;
}

int
cat_meta_recycle_table(cat_meta *m, const char *db_name, const char *name, bool if_exists,
                       db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    int rc;
    cat_db *db = cat_db_find(m->cat, db_name);
    cat_table *t = db != NULL ? cat_table_find(db, name) : NULL;
    if (t == NULL) {
        rc = cat_table_drop(m->cat, db_name, name, if_exists, err);
    } else {
        rc = commit_recycle(m, CAT_REC_TABLE_RECYCLE, (uint64_t)db->id, (uint64_t)t->id, 0, err);
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

int
cat_meta_recover_table(cat_meta *m, const char *db_name, const char *name, db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    int rc = DB_ERR;
    cat_db *db = cat_db_find(m->cat, db_name);
    if (db == NULL || db->is_system) {
        rc = db_error_set(err, ER_BAD_DB_ERROR, db_name);
    } else if (cat_table_find(db, name) != NULL) {
        rc = db_error_set(err, ER_TABLE_EXISTS_ERROR, name);
    } else {
        const cat_table *hit = NULL;
        for (size_t i = 0; i < m->nbin_tables; i++) {
            const cat_table *t = m->bin_tables[i];
            if (t->db_id == db->id && strcmp(t->name, name) == 0) {
                hit = t;
            }
        }
        if (hit == NULL) {
            rc = db_error_set(err, ER_UNKNOWN_TABLE_IN, name, db_name);
        } else {
            rc = commit_recycle(m, CAT_REC_TABLE_RECOVER, (uint64_t)db->id, (uint64_t)hit->id, 0,
                                err);
        }
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

int
cat_meta_recycle_db(cat_meta *m, const char *name, bool if_exists, db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    int rc;
    cat_db *db = cat_db_find(m->cat, name);
    if (db == NULL || db->is_system) {
        rc = cat_db_drop(m->cat, name, if_exists, err);
    } else {
        rc = commit_recycle(m, CAT_REC_DB_RECYCLE, (uint64_t)db->id, 0, 0, err);
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

int
cat_meta_recover_db(cat_meta *m, const char *name, db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    int rc;
    const cat_db *hit = NULL;
    for (size_t i = 0; i < m->nbin_dbs; i++) {
        if (strcmp(m->bin_dbs[i]->name, name) == 0) {
            hit = m->bin_dbs[i];
        }
    }
    if (cat_db_find(m->cat, name) != NULL) {
        rc = db_error_set(err, ER_DB_CREATE_EXISTS, name);
    } else if (hit == NULL) {
        rc = db_error_set(err, ER_BAD_DB_ERROR, name);
    } else {
        rc = commit_recycle(m, CAT_REC_DB_RECOVER, (uint64_t)hit->id, 0, 0, err);
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

int
cat_meta_replace_table(cat_meta *m, const char *db_name, const char *name, const char *other,
                       bool swap, db_error *err)
{
    pthread_rwlock_wrlock(&m->lock);
    int rc;
    cat_db *db = cat_db_find(m->cat, db_name);
    cat_table *t = db != NULL ? cat_table_find(db, name) : NULL;
    cat_table *o = db != NULL ? cat_table_find(db, other) : NULL;
    if (db == NULL) {
        rc = db_error_set(err, ER_BAD_DB_ERROR, db_name);
    } else if (t == NULL || o == NULL) {
        rc = db_error_set(err, ER_NO_SUCH_TABLE, db_name, t == NULL ? name : other);
    } else if (t == o) {
        rc = db_error_set(err, ER_DORIS, "Same table name");
    } else if (cat_alter_check(t, CAT_ALTER_REPLACE_TABLE, err) != DB_OK ||
               cat_alter_check(o, CAT_ALTER_REPLACE_TABLE, err) != DB_OK) {
        rc = DB_ERR;
    } else {
        rc = commit_recycle(m, CAT_REC_TABLE_REPLACE, (uint64_t)db->id, (uint64_t)t->id,
                            (uint64_t)o->id << 1 | (swap ? 1u : 0u), err);
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}

size_t
cat_meta_recycle_bin(cat_meta *m, cat_recycled *out, size_t max)
{
    pthread_rwlock_rdlock(&m->lock);
    size_t n = 0;
    for (size_t i = 0; i < m->nbin_dbs; i++, n++) {
        if (n < max) {
            cat_recycled *r = &out[n];
            memset(r, 0, sizeof *r);
            r->is_db = true;
            snprintf(r->db_name, sizeof r->db_name, "%s", m->bin_dbs[i]->name);
            r->db_id = m->bin_dbs[i]->id;
        }
    }
    for (size_t i = 0; i < m->nbin_tables; i++, n++) {
        if (n < max) {
            cat_recycled *r = &out[n];
            const cat_table *t = m->bin_tables[i];
            const cat_db *db = cat_db_find_id(m->cat, t->db_id);
            memset(r, 0, sizeof *r);
            snprintf(r->db_name, sizeof r->db_name, "%s", db ? db->name : "");
            snprintf(r->table_name, sizeof r->table_name, "%s", t->name);
            r->db_id = t->db_id;
            r->table_id = t->id;
        }
    }
    pthread_rwlock_unlock(&m->lock);
    return n;
}

static void
add_part_ids(const cat_table *t, int64_t **ids, size_t *n, size_t *cap)
{
    for (size_t p = 0; p < t->nparts; p++) {
        if (*n == *cap) {
            *cap = *cap == 0 ? 64 : *cap * 2;
            *ids = mem_realloc(*ids, *cap * sizeof **ids);
        }
        (*ids)[(*n)++] = t->parts[p].id;
    }
    for (size_t p = 0; p < t->ntmp_parts; p++) { /* their tablets are live too */
        if (*n == *cap) {
            *cap = *cap == 0 ? 64 : *cap * 2;
            *ids = mem_realloc(*ids, *cap * sizeof **ids);
        }
        (*ids)[(*n)++] = t->tmp_parts[p].id;
    }
}

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

size_t
cat_meta_partition_ids(cat_meta *m, int64_t **out)
{
    int64_t *ids = mem_calloc(1, sizeof *ids);
    size_t n = 0, cap = 1;
    pthread_rwlock_rdlock(&m->lock);
    for (size_t d = 0; d < m->cat->ndbs; d++) {
        for (size_t i = 0; i < m->cat->dbs[d]->ntables; i++) {
            add_part_ids(m->cat->dbs[d]->tables[i], &ids, &n, &cap);
        }
    }
    for (size_t d = 0; d < m->nbin_dbs; d++) {
        for (size_t i = 0; i < m->bin_dbs[d]->ntables; i++) {
            add_part_ids(m->bin_dbs[d]->tables[i], &ids, &n, &cap);
        }
    }
    for (size_t i = 0; i < m->nbin_tables; i++) {
        add_part_ids(m->bin_tables[i], &ids, &n, &cap);
    }
    pthread_rwlock_unlock(&m->lock);
    qsort(ids, n, sizeof *ids, cmp_i64);
    *out = ids;
    return n;
}
