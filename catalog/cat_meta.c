/* SPDX-License-Identifier: Apache-2.0
 * cat_meta: the durable catalog. Owns the edit log, the TSO allocator and the in-memory object
 * model (cat_schema), and makes every DDL change go through the one commit point: validate,
 * append a record to the edit log (durable on return), then publish. Replay rebuilds the model
 * from the newest image and the records after it. See README.md §"Durable catalog". */
#include "catalog/cat_int.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/mem.h"

/* Record types of the schema (payload: u64 next_id, then the body). */
enum {
    CAT_REC_DB_PUT = 10,     /* body: cat_db_encode of the header (no tables) */
    CAT_REC_DB_DROP = 11,    /* body: u64 db id */
    CAT_REC_TABLE_PUT = 12,  /* body: cat_table_encode; replaces the table with the same id */
    CAT_REC_TABLE_DROP = 13, /* body: u64 db id, u64 table id */
};
#define CAT_IMG_SCHEMA 2 /* image: u64 next_id, u32 ndbs, {u32 len, db with its tables} */

struct cat_meta {
    cat_editlog *log;
    cat_tso *tso;
    cat_catalog *cat;      /* guarded by lock */
    cat_users *users;      /* accounts; has its own lock */
    pthread_rwlock_t lock; /* protects cat: readers share it, DDL holds it exclusively across
                              validate + append + publish, so commits are in log order */
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
    default:
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "unknown schema record type");
    }
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
    cat_editlog_register_section(log, CAT_IMG_SCHEMA, "schema", image_write, image_load, m);
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
    pthread_rwlock_destroy(&m->lock);
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
            table_replace(db, copy);
        } else {
            cat_table_free(copy);
        }
    }
    pthread_rwlock_unlock(&m->lock);
    return rc;
}
