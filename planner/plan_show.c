/* SPDX-License-Identifier: Apache-2.0
 * plan_show.c: the catalog's SHOW statements and the information_schema provider over the
 * durable catalog. SHOW DATABASES / [FULL] TABLES / CREATE DATABASE / CREATE TABLE / DESC
 * [ALL] / [FULL] COLUMNS / PARTITIONS / TABLE STATUS read the model under cat_meta_read_begin
 * and copy what they show into the statement arena before the lock is released; the text
 * comes from the catalog's cat_show_* functions (Doris's formats). plan__catalog_meta gives
 * information_schema the catalog's databases, tables, columns and USER_PRIVILEGES. See
 * README.md §DDL. */
#include "planner/plan_ddl_int.h"
#include "planner/plan_dml_int.h"
#include "planner/plan_exec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "common/strutil.h"

/* A database name list entry, sorted for SHOW DATABASES and SCHEMATA. */
static int cmp_str(const void *a, const void *b);
static const char **db_names(cat_meta *m, arena *a, size_t *n);
static int table_of(plan_ectx *cx, const plan_ddl *d, const char **dbname, const cat_catalog **c,
                    const cat_table **t, db_error *err);
static int show_create_db(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err);
static void table_rows(plan_ectx *cx, const plan_stmt *st, const cat_table *t, bool is_stream,
                       plan_rowset *rs);
static void internal_type(const cat_column *c, char *out, size_t cap);
static int show_table_status(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink,
                             db_error *err);
static int mc_databases(void *ctx, arena *a, plan_cat_db **dbs, size_t *n, db_error *err);
static const char *view_body(arena *a, const char *sql);
static int mc_tables(void *ctx, arena *a, const char *db, plan_cat_table **tbls, size_t *n,
                     db_error *err);
static int mc_columns(void *ctx, arena *a, const char *db, const char *table,
                      plan_cat_column **cols, size_t *n, db_error *err);
static void column_info(arena *a, const cat_table *t, const cat_column *c, plan_cat_column *out);
static int mc_user_privileges(void *ctx, arena *a, const char *user, const char *host,
                              plan_cat_priv **p, size_t *n, db_error *err);
static void add_privs(arena *a, const char *user, const char *host, uint32_t privs, bool grantable,
                      plan_cat_priv **p, size_t *n, size_t *cap);

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every database name (the catalog's, information_schema among them, and mysql), sorted, in a. */
static const char **
db_names(cat_meta *m, arena *a, size_t *n)
{
    const cat_catalog *c = cat_meta_read_begin(m);
    size_t nd = cat_db_count(c);
    const char **names = arena_calloc(a, nd + 2, sizeof *names);
    size_t k = 0;
    bool has_is = false;
    for (size_t i = 0; i < nd; i++) {
        const cat_db *db = cat_db_at(c, i);
        has_is |= db->is_system;
        names[k++] = db->is_system ? "information_schema" : arena_strdup(a, db->name);
    }
    cat_meta_read_end(m);
    if (!has_is) {
        names[k++] = "information_schema";
    }
    names[k++] = "mysql";
    qsort(names, k, sizeof *names, cmp_str);
    *n = k;
    return names;
}

/* The table whose columns t shows: t itself, or a stream's base table (NULL when the base is
 * gone or is no table), as DESC does. */
static const cat_table *
columns_of(const cat_catalog *c, const cat_table *t)
{
    if (t == NULL || t->stream == NULL) {
        return t;
    }
    const cat_table *base = cat_table_find_id(c, t->stream->base_id, NULL);
    return base != NULL && base->stream == NULL && base->view_sql == NULL ? base : NULL;
}

bool
plan__db_exists(plan_server *srv, const char *db, arena *a, const char **canon)
{
    const char *name = NULL;
    if (strcasecmp(db, "information_schema") == 0) {
        name = "information_schema";
    } else if (strcmp(db, "mysql") == 0) {
        name = "mysql";
    } else if (srv->meta) {
        const cat_catalog *c = cat_meta_read_begin(srv->meta);
        const cat_db *d = cat_db_find(c, db);
        if (d && a) {
            name = arena_strdup(a, d->name);
        } else if (d) {
            name = db;
        }
        cat_meta_read_end(srv->meta);
    }
    if (canon) {
        *canon = name;
    }
    return name != NULL;
}

/* ---- SHOW DATABASES / SHOW TABLES ---- */

int
plan__show_catalog(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    plan_server *srv = cx->s->srv;
    plan_rowset rs;
    if (st->kind == PS_SHOW_DATABASES) {
        const char *name = st->like ? arena_sprintf(cx->a, "Database (%s)", st->like) : "Database";
        plan__rs_init(cx->a, &rs, &name, 1);
        size_t n;
        const char **names = db_names(srv->meta, cx->a, &n);
        for (size_t i = 0; i < n; i++) {
            if (plan__can_see(cx->s, names[i], NULL)) { /* databases with some privilege */
                plan__rs_add(cx->a, &rs, &names[i]);
            }
        }
        if (st->where) {
            rs.cols[0].name = "Database";
        }
        return plan__rs_send(cx, &rs, st, 0, sink, err);
    }
    const char *db = st->name ? st->name : cx->s->db;
    if (!db) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    const char *canon;
    if (plan__check_db_visible(cx, db, err) != DB_OK) {
        return DB_ERR; /* 1044 before 1049, as MySQL for a database without any privilege */
    }
    if (!plan__db_exists(srv, db, cx->a, &canon)) {
        return db_error_set(err, ER_BAD_DB_ERROR, db);
    }
    const char *names[2] = {st->like ? arena_sprintf(cx->a, "Tables_in_%s (%s)", canon, st->like)
                                     : arena_sprintf(cx->a, "Tables_in_%s", canon),
                            "Table_type"};
    plan__rs_init(cx->a, &rs, names, st->full ? 2 : 1);
    if (st->where) {
        rs.cols[0].name = arena_sprintf(cx->a, "Tables_in_%s", canon);
    }
    if (strcmp(canon, "information_schema") == 0) {
        for (size_t i = 0; i < plan__vtable_count(); i++) {
            const char *row[2] = {plan__vtable_at(i)->name, "SYSTEM VIEW"};
            plan__rs_add(cx->a, &rs, row);
        }
    } else if (strcmp(canon, "mysql") != 0) {
        const cat_catalog *c = cat_meta_read_begin(srv->meta);
        const cat_db *d = cat_db_find(c, canon);
        for (size_t i = 0; d && i < d->ntables; i++) {
            if (d->tables[i]->stream != NULL) {
                continue; /* SHOW STREAMS lists them */
            }
            const char *row[2] = {arena_strdup(cx->a, d->tables[i]->name),
                                  d->tables[i]->view_sql ? "VIEW" : "BASE TABLE"};
            plan__rs_add(cx->a, &rs, row);
        }
        cat_meta_read_end(srv->meta);
        /* Only tables with some privilege (MySQL); checked outside the catalog lock. */
        size_t k = 0;
        for (size_t i = 0; i < rs.nrows; i++) {
            if (plan__can_see(cx->s, canon, rs.cells[i * rs.ncols])) {
                memmove(rs.cells + k++ * rs.ncols, rs.cells + i * rs.ncols,
                        rs.ncols * sizeof *rs.cells);
            }
        }
        rs.nrows = k;
    }
    /* Sorted by name, as MySQL and Doris list them. */
    for (size_t i = 1; i < rs.nrows; i++) {
        for (size_t j = i; j > 0; j--) {
            const char **x = rs.cells + (j - 1) * rs.ncols, **y = rs.cells + j * rs.ncols;
            if (strcmp(x[0], y[0]) <= 0) {
                break;
            }
            for (size_t k = 0; k < rs.ncols; k++) {
                const char *tmp = x[k];
                x[k] = y[k];
                y[k] = tmp;
            }
        }
    }
    return plan__rs_send(cx, &rs, st, 0, sink, err);
}

/* ---- SHOW CREATE / DESC / SHOW COLUMNS / SHOW PARTITIONS ---- */

/* Looks up the statement's table under the read lock, which stays held on DB_OK (the caller
 * calls cat_meta_read_end). 1046 without a database, 1049 unknown database, 1146 no table. */
static int
table_of(plan_ectx *cx, const plan_ddl *d, const char **dbname, const cat_catalog **c,
         const cat_table **t, db_error *err)
{
    plan_server *srv = cx->s->srv;
    const char *db = d->db ? d->db : cx->s->db;
    if (!db) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    /* Describing a table needs a privilege on it (any; reported as SELECT, as MySQL does). */
    if (plan__check_priv(cx, CAT_PRIV_ALL, db, d->name, err) != DB_OK) {
        return DB_ERR;
    }
    *c = cat_meta_read_begin(srv->meta);
    const cat_db *cdb = cat_db_find(*c, db);
    if (!cdb && !plan__db_exists(srv, db, NULL, NULL)) {
        cat_meta_read_end(srv->meta);
        return db_error_set(err, ER_BAD_DB_ERROR, db);
    }
    *t = cdb ? cat_table_find(cdb, d->name) : NULL;
    if (!*t) {
        cat_meta_read_end(srv->meta);
        return db_error_set(err, ER_NO_SUCH_TABLE, db, d->name);
    }
    *dbname = db;
    return DB_OK;
}

static int
show_create_db(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    const plan_ddl *d = st->ddl;
    static const char *const names[] = {"Database", "Create Database"};
    plan_rowset rs;
    plan__rs_init(cx->a, &rs, names, 2);
    plan_server *srv = cx->s->srv;
    const char *canon;
    if (plan__check_db_visible(cx, d->name, err) != DB_OK) {
        return DB_ERR; /* 1044 before 1049, as USE and MySQL */
    }
    if (!plan__db_exists(srv, d->name, cx->a, &canon)) {
        return db_error_set(err, ER_BAD_DB_ERROR, d->name);
    }
    buf b;
    buf_init(&b);
    const cat_catalog *c = cat_meta_read_begin(srv->meta);
    const cat_db *cdb = cat_db_find(c, canon);
    if (cdb && !cdb->is_system) {
        cat_show_create_database(cdb, &b);
    } else {
        buf_printf(&b, "CREATE DATABASE `%s`", canon);
    }
    cat_meta_read_end(srv->meta);
    const char *row[2] = {canon, arena_strndup(cx->a, (const char *)b.data, b.len)};
    buf_destroy(&b);
    plan__rs_add(cx->a, &rs, row);
    plan_stmt plain = *st;
    plain.like = NULL;
    plain.where = NULL;
    return plan__rs_send(cx, &rs, &plain, 0, sink, err);
}

/* Doris's internal type names (DESC t ALL): DECIMALV3(p, s), DATETIMEV2(p), DATEV2, ... */
static void
internal_type(const cat_column *c, char *out, size_t cap)
{
    const cat_type *t = &c->type;
    switch (t->id) {
    case CAT_T_DECIMAL:
        snprintf(out, cap, "DECIMALV3(%u, %u)", t->precision, t->scale);
        return;
    case CAT_T_DATETIME:
        snprintf(out, cap, "DATETIMEV2(%u)", t->scale);
        return;
    case CAT_T_DATE:
        snprintf(out, cap, "DATEV2");
        return;
    default: {
        char tmp[64];
        cat_type_sql_buf(t, tmp, sizeof tmp);
        size_t i = 0;
        for (; tmp[i] && i + 1 < cap; i++) {
            out[i] = (tmp[i] >= 'a' && tmp[i] <= 'z') ? (char)(tmp[i] - 32) : tmp[i];
        }
        out[i] = '\0';
        return;
    }
    }
}

/* A stream's virtual columns after its base table's columns (decision R8's order), NOT NULL:
 * DESC / SHOW COLUMNS with show_hidden_columns, and information_schema.COLUMNS likewise. */
static const struct {
    const char *name;
    cat_type_id type;
} stream_vcols[] = {{"__DORIS_STREAM_SEQUENCE_COL__", CAT_T_BIGINT},
                    {"__DORIS_STREAM_CHANGE_TYPE_COL__", CAT_T_STRING},
                    {"__DORIS_STREAM_LSN_COL__", CAT_T_BIGINT}};
#define NSTREAM_VCOLS (sizeof stream_vcols / sizeof stream_vcols[0])

/* The rows of DESC / SHOW COLUMNS / SHOW PARTITIONS of t into rs (strings copied into cx->a). */
static void
table_rows(plan_ectx *cx, const plan_stmt *st, const cat_table *t, bool is_stream, plan_rowset *rs)
{
    const plan_ddl *d = st->ddl;
    arena *a = cx->a;
    if (d->kind == PD_SHOW_PARTITIONS) { /* SHOW TEMPORARY PARTITIONS: only those */
        size_t from = d->temp ? t->nparts : 0;
        size_t to = d->temp ? t->nparts + t->ntmp_parts : t->nparts;
        for (size_t i = from; i < to; i++) {
            buf b;
            buf_init(&b);
            cat_show_partition_row(t, i, &b);
            const char *row[CAT_SHOW_PARTITIONS_NCOLS];
            const char *p = (const char *)b.data;
            for (size_t k = 0; k < CAT_SHOW_PARTITIONS_NCOLS; k++) {
                row[k] = strcmp(p, "\\N") == 0 ? NULL : arena_strdup(a, p);
                p += strlen(p) + 1;
            }
            buf_destroy(&b);
            plan__rs_add(a, rs, row);
        }
        return;
    }
    int hidden_idx = plan__sysvar_find("show_hidden_columns");
    bool show_hidden = hidden_idx >= 0 && cx->s->vars[hidden_idx].i != 0;
    /* A stream shows its base table's visible columns, then (hidden ones shown) its virtual
     * columns in decision R8's order. */
    size_t n = cat_show_columns(t, show_hidden && !is_stream, NULL, 0);
    cat_desc_row *rows = arena_calloc(a, n ? n : 1, sizeof *rows);
    cat_show_columns(t, show_hidden && !is_stream, rows, n);
    static const char *const keys_type[] = {"DUP_KEYS", "UNIQUE_KEYS", "AGG_KEYS"};
    for (size_t i = 0, ci = 0; i < n; i++) {
        const cat_desc_row *r = &rows[i];
        const cat_column *col = cat_table_column(t, r->field);
        while (ci < t->ncols && &t->cols[ci] != col) {
            ci++;
        }
        const char *field = arena_strdup(a, r->field);
        const char *type = arena_strdup(a, r->type);
        const char *def = r->default_value ? arena_strdup(a, r->default_value) : NULL;
        const char *extra = arena_strdup(a, r->extra);
        if (d->kind == PD_DESC && d->all) {
            char it[64];
            internal_type(col, it, sizeof it);
            const char *row[12] = {i == 0 ? arena_strdup(a, t->name) : "",
                                   i == 0 ? keys_type[t->keys] : "",
                                   field,
                                   type,
                                   arena_strdup(a, it),
                                   r->null,
                                   r->key,
                                   def,
                                   extra,
                                   (col->flags & CAT_COL_HIDDEN) ? "false" : "true",
                                   "",
                                   ""};
            plan__rs_add(a, rs, row);
        } else if (d->kind == PD_DESC) {
            const char *row[6] = {field, type, r->null, r->key, def, extra};
            plan__rs_add(a, rs, row);
        } else {
            const char *null = col->nullable ? "YES" : "NO";
            const char *key = col->is_key ? "YES" : "NO";
            if (st->full) {
                const char *row[9] = {
                        field, type, "",
                        null,  key,  def,
                        extra, "",   arena_strdup(a, col->comment ? col->comment : "")};
                plan__rs_add(a, rs, row);
            } else {
                const char *row[6] = {field, type, null, key, def, extra};
                plan__rs_add(a, rs, row);
            }
        }
    }
    if (is_stream && show_hidden && !(d->kind == PD_DESC && d->all) && !st->full) {
        bool desc = d->kind == PD_DESC;
        for (size_t i = 0; i < NSTREAM_VCOLS; i++) {
            char type[16];
            cat_type ct = cat_type_make(stream_vcols[i].type);
            cat_type_sql_buf(&ct, type, sizeof type);
            const char *row[6] = {stream_vcols[i].name,
                                  arena_strdup(a, type),
                                  desc ? "No" : "NO",
                                  desc ? "false" : "NO",
                                  NULL,
                                  "NONE"};
            plan__rs_add(a, rs, row);
        }
    }
}

/* Doris's byte counts (DebugUtil.getByteUint): the largest unit the count exceeds, no unit for
 * 0; with 3 decimals the readable sizes ("0.000 ", "512.000 B", "4.010 KB"), with 2 the
 * RuntimeProfile form of SHOW BACKENDS' Memory. */
const char *
plan__bytes_text(arena *a, uint64_t n, int decimals)
{
    static const char *const units[] = {"KB", "MB", "GB", "TB"};
    double v = (double)n;
    const char *unit = n == 0 ? "" : "B";
    for (int i = 3; i >= 0; i--) {
        double scale = (double)(1ull << (10 * (i + 1)));
        if ((double)n > scale) {
            v = (double)n / scale;
            unit = units[i];
            break;
        }
    }
    return arena_sprintf(a, "%.*f %s", decimals, v, unit);
}

int
plan__admin_show(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_rowset *rs,
                 const char *const *names, size_t ncols, bool *sent, db_error *err)
{
    *sent = false;
    plan__rs_init(cx->a, rs, names, ncols);
    if (plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    if (cx->describe) { /* a prepared SHOW: the columns only */
        *sent = true;
        return plan__rs_send(cx, rs, st, 0, sink, err);
    }
    return DB_OK;
}

const char *
plan__readable_bytes(arena *a, uint64_t n)
{
    return plan__bytes_text(a, n, 3);
}

/* SHOW PARTITIONS: DataSize and RowCount of each partition from storage (after the catalog
 * lock; the rows carry PartitionId and Buckets). */
static void
partition_sizes(plan_ectx *cx, plan_rowset *rs)
{
    enum { COL_ID = 0, COL_BUCKETS = 8, COL_SIZE = 14, COL_ROWS = 21 };
    DB_ASSERT(rs->ncols == CAT_SHOW_PARTITIONS_NCOLS);
    for (size_t r = 0; r < rs->nrows; r++) {
        const char **row = &rs->cells[r * rs->ncols];
        int64_t id = strtoll(row[COL_ID], NULL, 10);
        long buckets = strtol(row[COL_BUCKETS], NULL, 10);
        uint64_t rows = 0, bytes = 0;
        for (long b = 0; b < buckets; b++) {
            uint64_t tid = stor_tablet_id_of(id, (uint32_t)b);
            plan__table_stats(cx, &tid, 1, &rows, &bytes);
        }
        row[COL_SIZE] = plan__readable_bytes(cx->a, bytes);
        row[COL_ROWS] = arena_sprintf(cx->a, "%llu", (unsigned long long)rows);
    }
}

/* SHOW TABLETS FROM t [PARTITION (p, ...)] (Doris, ADMIN): one row per tablet with what
 * storage holds for it. Single node, single replica: ReplicaId = TabletId, BackendId 10001. */
static int
show_tablets(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    static const char *const names[] = {"TabletId",
                                        "ReplicaId",
                                        "BackendId",
                                        "SchemaHash",
                                        "Version",
                                        "LstSuccessVersion",
                                        "LstFailedVersion",
                                        "LstFailedTime",
                                        "LocalDataSize",
                                        "RemoteDataSize",
                                        "RowCount",
                                        "State",
                                        "LstConsistencyCheckTime",
                                        "CheckVersion",
                                        "VisibleVersionCount",
                                        "VersionCount",
                                        "QueryHits",
                                        "PathHash",
                                        "Path",
                                        "MetaUrl",
                                        "CompactionStatus",
                                        "CooldownReplicaId",
                                        "CooldownMetaId"};
    enum { NCOLS = sizeof names / sizeof names[0] };
    const plan_ddl *d = st->ddl;
    plan_rowset rs;
    bool sent;
    int rc = plan__admin_show(cx, st, sink, &rs, names, NCOLS, &sent, err);
    if (rc != DB_OK || sent) {
        return rc;
    }
    const char *dbname = NULL;
    const cat_catalog *c = NULL;
    const cat_table *t;
    if (table_of(cx, d, &dbname, &c, &t, err) != DB_OK) {
        return DB_ERR;
    }
    if (t->view_sql != NULL || t->stream != NULL) {
        const char *name = arena_strdup(cx->a, t->name);
        cat_meta_read_end(cx->s->srv->meta);
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a, "Table '%s' is not an OLAP table", name));
    }
    /* The tablet ids, under the catalog lock; storage is read after it. */
    size_t n = 0;
    for (size_t p = 0; p < t->nparts; p++) {
        n += (size_t)t->parts[p].buckets;
    }
    uint64_t *ids = arena_calloc(cx->a, n ? n : 1, sizeof *ids);
    n = 0;
    for (size_t p = 0; p < t->nparts; p++) {
        bool want = d->nnames == 0;
        for (size_t k = 0; k < d->nnames && !want; k++) {
            want = strcasecmp(d->names[k], t->parts[p].name) == 0;
        }
        for (int32_t b = 0; want && b < t->parts[p].buckets; b++) {
            ids[n++] = stor_tablet_id_of(t->parts[p].id, (uint32_t)b);
        }
    }
    for (size_t k = 0; k < d->nnames; k++) {
        if (cat_table_partition(t, d->names[k]) == NULL) {
            const char *pname = arena_strdup(cx->a, d->names[k]);
            const char *tname = arena_strdup(cx->a, t->name);
            cat_meta_read_end(cx->s->srv->meta);
            return db_error_set(
                    err, ER_DORIS,
                    arena_sprintf(cx->a, "Unknown partition '%s' in table '%s'", pname, tname));
        }
    }
    cat_meta_read_end(cx->s->srv->meta);
    for (size_t i = 0; i < n; i++) {
        plan_tablet_stats ts;
        plan__tablet_stats(cx->s->srv->engine, ids[i], cx->a, &ts);
        const char *id = arena_sprintf(cx->a, "%llu", (unsigned long long)ids[i]);
        const char *version = arena_sprintf(cx->a, "%llu", (unsigned long long)ts.version);
        const char *nrs = arena_sprintf(cx->a, "%llu", (unsigned long long)ts.nrowsets);
        const char *row[NCOLS] = {id,
                                  id,
                                  "10001",
                                  "0",
                                  version,
                                  version,
                                  "-1",
                                  NULL,
                                  arena_sprintf(cx->a, "%llu", (unsigned long long)ts.bytes),
                                  "0",
                                  arena_sprintf(cx->a, "%llu", (unsigned long long)ts.rows),
                                  "NORMAL",
                                  NULL,
                                  "-1",
                                  nrs,
                                  nrs,
                                  "0",
                                  "0",
                                  ts.dir != NULL ? ts.dir : "",
                                  "",
                                  "",
                                  "-1",
                                  ""};
        plan__rs_add(cx->a, &rs, row);
    }
    return plan__rs_send(cx, &rs, st, 0, sink, err);
}

/* SHOW {INDEX | INDEXES | KEYS} FROM t [FROM db]: Doris lists the indexes users created
 * (inverted, bitmap, ngram bloom filter), one row each (plan_ddl_index.c); MySQL keys are not
 * stored and not listed. */
static int
show_index(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    static const char *const names[] = {"Table",       "Non_unique", "Key_name",    "Seq_in_index",
                                        "Column_name", "Collation",  "Cardinality", "Sub_part",
                                        "Packed",      "Null",       "Index_type",  "Comment",
                                        "Properties"};
    plan_rowset rs;
    plan__rs_init(cx->a, &rs, names, sizeof names / sizeof names[0]);
    if (!cx->describe) {
        const char *dbname = NULL;
        const cat_catalog *c = NULL;
        const cat_table *t;
        if (table_of(cx, st->ddl, &dbname, &c, &t, err) != DB_OK) {
            return DB_ERR;
        }
        plan__show_index_rows(cx->a, t, &rs);
        cat_meta_read_end(cx->s->srv->meta);
    }
    return plan__rs_send(cx, &rs, st, 0, sink, err);
}

static int
show_table_status(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    static const char *const names[] = {
            "Name",           "Engine",         "Version",         "Row_format",   "Rows",
            "Avg_row_length", "Data_length",    "Max_data_length", "Index_length", "Data_free",
            "Auto_increment", "Create_time",    "Update_time",     "Check_time",   "Collation",
            "Checksum",       "Create_options", "Comment"};
    plan_server *srv = cx->s->srv;
    const char *db = st->name ? st->name : cx->s->db;
    if (!db) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    const char *canon;
    if (plan__check_db_visible(cx, db, err) != DB_OK) {
        return DB_ERR; /* 1044 before 1049, as SHOW TABLES */
    }
    if (!plan__db_exists(srv, db, cx->a, &canon)) {
        return db_error_set(err, ER_BAD_DB_ERROR, db);
    }
    plan_rowset rs;
    plan__rs_init(cx->a, &rs, names, 18);
    if (srv->meta && !cx->describe) {
        /* The tables as information_schema.TABLES lists them (streams are in SHOW STREAMS);
         * rows and bytes come from storage, after the catalog lock. */
        plan_catalog_view mc;
        plan__catalog_meta(&mc, srv->meta);
        plan_cat_table *ts = NULL;
        size_t nts = 0;
        if (mc.tables(mc.ctx, cx->a, canon, &ts, &nts, err) != DB_OK) {
            return DB_ERR;
        }
        for (size_t i = 0; i < nts; i++) {
            const plan_cat_table *t = &ts[i];
            if (!plan__can_see(cx->s, canon, t->name)) {
                continue; /* as SHOW TABLES: only tables the account holds a privilege on */
            }
            bool view = strcmp(t->type, "VIEW") == 0;
            uint64_t rows = 0, bytes = 0;
            plan__table_stats(cx, t->tablets, t->ntablets, &rows, &bytes);
            const char *row[18] = {
                    t->name,
                    view ? NULL : "Doris",
                    NULL,
                    NULL,
                    view ? NULL : arena_sprintf(cx->a, "%llu", (unsigned long long)rows),
                    view ? NULL
                         : arena_sprintf(cx->a, "%llu",
                                         (unsigned long long)(rows ? bytes / rows : 0)),
                    view ? NULL : arena_sprintf(cx->a, "%llu", (unsigned long long)bytes),
                    NULL,
                    NULL,
                    NULL,
                    NULL,
                    NULL,
                    NULL,
                    NULL,
                    view ? NULL : "utf-8",
                    NULL,
                    NULL,
                    view ? "VIEW" : t->comment};
            plan__rs_add(cx->a, &rs, row);
        }
    }
    return plan__rs_send(cx, &rs, st, 0, sink, err);
}

int
plan__show_ddl(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    const plan_ddl *d = st->ddl;
    static const char *const desc_names[] = {"Field", "Type", "Null", "Key", "Default", "Extra"};
    static const char *const desc_all_names[] = {
            "IndexName", "IndexKeysType", "Field", "Type",    "InternalType", "Null",
            "Key",       "Default",       "Extra", "Visible", "DefineExpr",   "WhereClause"};
    static const char *const cols_full_names[] = {"Field",   "Type",  "Collation",  "Null",   "Key",
                                                  "Default", "Extra", "Privileges", "Comment"};
    static const char *const create_names[] = {"Table", "Create Table"};
    static const char *const view_names[] = {"View", "Create View", "character_set_client",
                                             "collation_connection"};
    plan_rowset rs;
    switch (d->kind) {
    case PD_SHOW_CREATE_VIEW:
        plan__rs_init(cx->a, &rs, view_names, 4);
        break;
    case PD_SHOW_CREATE_DB:
        return show_create_db(cx, st, sink, err);
    case PD_SHOW_TABLE_STATUS:
        return show_table_status(cx, st, sink, err);
    case PD_SHOW_TABLETS:
        return show_tablets(cx, st, sink, err);
    case PD_SHOW_INDEX:
        return show_index(cx, st, sink, err);
    case PD_SHOW_BUILD_INDEX:
        return plan__show_build_index(cx, st, sink, err); /* plan_ddl_index.c */
    case PD_SHOW_CREATE_TABLE:
        plan__rs_init(cx->a, &rs, create_names, 2);
        break;
    case PD_DESC:
        if (d->all) {
            plan__rs_init(cx->a, &rs, desc_all_names, 12);
        } else {
            plan__rs_init(cx->a, &rs, desc_names, 6);
        }
        break;
    case PD_SHOW_COLUMNS:
        if (st->full) {
            plan__rs_init(cx->a, &rs, cols_full_names, 9);
        } else {
            plan__rs_init(cx->a, &rs, desc_names, 6);
        }
        break;
    default:
        plan__rs_init(cx->a, &rs, cat_show_partitions_columns, CAT_SHOW_PARTITIONS_NCOLS);
        break;
    }
    const char *dbname = NULL;
    const cat_catalog *c = NULL;
    const cat_table *t;
    if (table_of(cx, d, &dbname, &c, &t, err) != DB_OK) {
        return DB_ERR;
    }
    if (t->view_sql && (d->kind == PD_DESC || d->kind == PD_SHOW_COLUMNS)) {
        /* A view's columns are those of its SELECT: planned (not run) outside the catalog
         * read lock, which planning takes itself. */
        const char *vdb = arena_strdup(cx->a, dbname), *vname = arena_strdup(cx->a, t->name);
        const char *vsql = arena_strdup(cx->a, t->view_sql);
        cat_meta_read_end(cx->s->srv->meta);
        cat_table vt;
        if (plan__view_table(cx, vdb, vname, vsql, &vt, err) != DB_OK) {
            return DB_ERR;
        }
        table_rows(cx, st, &vt, false, &rs);
        if (d->kind == PD_DESC) {
            plan_stmt plain = *st;
            plain.like = NULL;
            plain.where = NULL;
            return plan__rs_send(cx, &rs, &plain, 0, sink, err);
        }
        return plan__rs_send(cx, &rs, st, 0, sink, err);
    }
    bool is_stream = t->stream != NULL;
    if (is_stream) {
        /* A stream: SHOW CREATE TABLE points at SHOW CREATE STREAM (R7); DESC and SHOW
         * COLUMNS show the base table's current columns (DORIS_SEMANTICS.md §4.5). */
        const cat_table *base = cat_table_find_id(c, t->stream->base_id, NULL);
        if (d->kind == PD_SHOW_CREATE_TABLE || d->kind == PD_SHOW_CREATE_VIEW || base == NULL ||
            base->stream != NULL || base->view_sql != NULL) {
            const char *name = arena_strdup(cx->a, t->name);
            const char *base_name = arena_strdup(cx->a, t->stream->base_name);
            bool gone = base == NULL;
            cat_meta_read_end(cx->s->srv->meta);
            if (gone && d->kind != PD_SHOW_CREATE_TABLE && d->kind != PD_SHOW_CREATE_VIEW) {
                return db_error_set(err, ER_DORIS,
                                    arena_sprintf(cx->a, "Unknown base table '%s'", base_name));
            }
            return db_error_set(
                    err, ER_DORIS,
                    arena_sprintf(cx->a, "'%s' is a STREAM, use SHOW CREATE STREAM instead", name));
        }
        t = base;
    }
    if (t->view_sql && (d->kind == PD_SHOW_CREATE_TABLE || d->kind == PD_SHOW_CREATE_VIEW)) {
        if (d->kind == PD_SHOW_CREATE_TABLE) { /* MySQL answers with the view's columns */
            plan__rs_init(cx->a, &rs, view_names, 4);
        }
        const char *row[4] = {arena_strdup(cx->a, t->name), arena_strdup(cx->a, t->view_sql),
                              "utf8mb4", "utf8mb4_general_ci"};
        plan__rs_add(cx->a, &rs, row);
    } else if (d->kind == PD_SHOW_CREATE_VIEW) {
        cat_meta_read_end(cx->s->srv->meta);
        return db_error_set(err, ER_WRONG_OBJECT, dbname, d->name, "VIEW");
    } else if (d->kind == PD_SHOW_CREATE_TABLE) {
        buf b;
        buf_init(&b);
        cat_show_create_table(t, &b);
        const char *row[2] = {arena_strdup(cx->a, t->name),
                              arena_strndup(cx->a, (const char *)b.data, b.len)};
        buf_destroy(&b);
        plan__rs_add(cx->a, &rs, row);
    } else {
        table_rows(cx, st, t, is_stream, &rs);
    }
    cat_meta_read_end(cx->s->srv->meta);
    if (d->kind == PD_SHOW_PARTITIONS) {
        partition_sizes(cx, &rs);
    }
    if (d->kind == PD_SHOW_CREATE_TABLE || d->kind == PD_SHOW_CREATE_VIEW || d->kind == PD_DESC) {
        plan_stmt plain = *st;
        plain.like = NULL;
        plain.where = NULL;
        return plan__rs_send(cx, &rs, &plain, 0, sink, err);
    }
    return plan__rs_send(cx, &rs, st, 0, sink, err);
}

int
plan__current_tso(plan_session *s, int64_t *out, db_error *err)
{
    cat_meta *m = s->srv->meta;
    *out = (int64_t)cat_tso_current(cat_meta_tso(m));
    return DB_OK;
}

/* ---- tables referenced by SELECT and COM_FIELD_LIST ---- */

int
plan__meta_field_list(plan_session *s, const char *db, const char *table, const char *wildcard,
                      arena *a, plan_column **cols, size_t *ncols, db_error *err)
{
    cat_meta *m = s->srv->meta;
    /* As DESC: some privilege on the table, checked before it is looked up (1142). */
    plan_ectx pcx = {.s = s};
    if (plan__check_priv(&pcx, CAT_PRIV_ALL, db, table ? table : "", err) != DB_OK) {
        return DB_ERR;
    }
    const cat_catalog *c = m ? cat_meta_read_begin(m) : NULL;
    const cat_db *d = c ? cat_db_find(c, db) : NULL;
    const cat_table *t = d && table ? cat_table_find(d, table) : NULL;
    const char *tname = t ? arena_strdup(a, t->name) : NULL;
    t = columns_of(c, t); /* a stream: its base table's columns */
    if (!t) {
        if (c) {
            cat_meta_read_end(m);
        }
        return db_error_set(err, ER_NO_SUCH_TABLE, db, table ? table : "");
    }
    const char *dname = arena_strdup(a, d->name);
    bool locked = true;
    cat_table vt;
    if (t->view_sql) {
        /* A view: the columns of its SELECT, planned outside the catalog read lock. */
        const char *vsql = arena_strdup(a, t->view_sql);
        cat_meta_read_end(m);
        locked = false;
        plan_ectx cx;
        plan__ectx_init(&cx, s, a, vsql, strlen(vsql));
        if (plan__view_table(&cx, dname, tname, vsql, &vt, err) != DB_OK) {
            return DB_ERR;
        }
        t = &vt;
    }
    plan_column *out = arena_calloc(a, t->ncols ? t->ncols : 1, sizeof *out);
    size_t n = 0;
    for (size_t i = 0; i < t->ncols; i++) {
        const cat_column *col = &t->cols[i];
        if ((col->flags & CAT_COL_HIDDEN) ||
            (wildcard &&
             !str_like(col->name, strlen(col->name), wildcard, strlen(wildcard), '\\', true))) {
            continue;
        }
        plan_xtype xt;
        memset(&xt, 0, sizeof xt);
        xt.nullable = col->nullable;
        switch (col->type.id) {
        case CAT_T_BOOLEAN:
        case CAT_T_TINYINT:
            xt.type = PLAN_TYPE_TINYINT;
            xt.length = 4;
            break;
        case CAT_T_SMALLINT:
            xt.type = PLAN_TYPE_SMALLINT;
            xt.length = 6;
            break;
        case CAT_T_INT:
            xt.type = PLAN_TYPE_INT;
            xt.length = 11;
            break;
        case CAT_T_BIGINT:
            xt.type = PLAN_TYPE_BIGINT;
            xt.length = 20;
            break;
        case CAT_T_LARGEINT:
            xt.type = PLAN_TYPE_LARGEINT;
            xt.length = 40;
            break;
        case CAT_T_FLOAT:
            xt.type = PLAN_TYPE_FLOAT;
            xt.length = 12;
            xt.scale = 31;
            break;
        case CAT_T_DOUBLE:
            xt.type = PLAN_TYPE_DOUBLE;
            xt.length = 22;
            xt.scale = 31;
            break;
        case CAT_T_DECIMAL:
            xt.type = PLAN_TYPE_DECIMAL;
            xt.precision = col->type.precision;
            xt.scale = col->type.scale;
            xt.length = plan__dec_length(col->type.precision, col->type.scale, false);
            break;
        case CAT_T_DATE:
            xt.type = PLAN_TYPE_DATE;
            xt.length = 10;
            break;
        case CAT_T_DATETIME:
            xt.type = PLAN_TYPE_DATETIME;
            xt.scale = col->type.scale;
            xt.length = 19 + (col->type.scale ? 1u + col->type.scale : 0u);
            break;
        case CAT_T_CHAR:
            xt.type = PLAN_TYPE_CHAR;
            xt.length = (uint32_t)col->type.len;
            break;
        case CAT_T_VARCHAR:
            xt.type = PLAN_TYPE_VARCHAR;
            xt.length = (uint32_t)col->type.len;
            break;
        case CAT_T_JSON:
            xt.type = PLAN_TYPE_JSON;
            xt.length = 65535;
            break;
        case CAT_T_ARRAY:
            xt.type = PLAN_TYPE_ARRAY;
            xt.length = 65535;
            break;
        default:
            xt.type = PLAN_TYPE_STRING;
            xt.length = 65535;
            break;
        }
        plan__col_init(&out[n], arena_strdup(a, col->name), &xt);
        out[n].org_name = out[n].name;
        out[n].table = tname;
        out[n].org_table = tname;
        out[n].schema = dname;
        n++;
    }
    if (locked) {
        cat_meta_read_end(m);
    }
    *cols = out;
    *ncols = n;
    return DB_OK;
}

/* ======================================================================================
 * information_schema over the catalog
 * ====================================================================================== */

void
plan__catalog_meta(plan_catalog_view *cv, cat_meta *m)
{
    cv->ctx = m; /* the builtin callbacks kept in cv ignore their ctx */
    cv->databases = mc_databases;
    cv->tables = mc_tables;
    cv->columns = mc_columns;
    cv->user_privileges = mc_user_privileges;
}

/* One USER_PRIVILEGES row per privilege bit of privs for 'user'@'host'. */
static void
add_privs(arena *a, const char *user, const char *host, uint32_t privs, bool grantable,
          plan_cat_priv **p, size_t *n, size_t *cap)
{
    const char *grantee = arena_sprintf(a, "'%s'@'%s'", user, host);
    for (uint32_t bit = 1; bit <= CAT_PRIV_ADMIN; bit <<= 1) {
        if (!(privs & bit)) {
            continue;
        }
        if (*n == *cap) {
            size_t ncap = *cap ? *cap * 2 : 16;
            plan_cat_priv *g = arena_calloc(a, ncap, sizeof *g);
            if (*n) {
                memcpy(g, *p, *n * sizeof *g);
            }
            *p = g;
            *cap = ncap;
        }
        (*p)[(*n)++] = (plan_cat_priv){grantee, cat_priv_name(bit), grantable};
    }
}

/* USER_PRIVILEGES: the global grants of the accounts. root (built in) holds every privilege.
 * root and ADMIN_PRIV holders see every account's rows, anyone else only their own (MySQL).
 * IS_GRANTABLE is YES for accounts holding ADMIN_PRIV (Doris: they may GRANT). */
static int
mc_user_privileges(void *ctx, arena *a, const char *user, const char *host, plan_cat_priv **p,
                   size_t *n, db_error *err)
{
    (void)err;
    cat_users *us = cat_meta_users(ctx);
    size_t cap = 0;
    *p = NULL;
    *n = 0;
    bool is_root = strcmp(user, "root") == 0;
    uint32_t own = is_root ? CAT_PRIV_ALL : cat_users_privs(us, user, host, "*", "*");
    if (!(own & CAT_PRIV_ADMIN)) {
        add_privs(a, user, host, own, false, p, n, &cap);
        return DB_OK;
    }
    add_privs(a, "root", "%", CAT_PRIV_ALL, true, p, n, &cap);
    size_t nacc = cat_users_list(us, NULL, NULL, 0);
    char(*names)[64] = arena_calloc(a, nacc ? nacc : 1, 64);
    char(*hosts)[64] = arena_calloc(a, nacc ? nacc : 1, 64);
    nacc = cat_users_list(us, names, hosts, nacc); /* accounts created meanwhile are left out */
    for (size_t i = 0; i < nacc; i++) {
        uint32_t g = cat_users_privs(us, names[i], hosts[i], "*", "*");
        add_privs(a, arena_strdup(a, names[i]), arena_strdup(a, hosts[i]), g,
                  (g & CAT_PRIV_ADMIN) != 0, p, n, &cap);
    }
    return DB_OK;
}

static int
mc_databases(void *ctx, arena *a, plan_cat_db **dbs, size_t *n, db_error *err)
{
    (void)err;
    size_t k;
    const char **names = db_names(ctx, a, &k);
    plan_cat_db *d = arena_calloc(a, k, sizeof *d);
    for (size_t i = 0; i < k; i++) {
        bool is_is = strcmp(names[i], "information_schema") == 0;
        d[i] = (plan_cat_db){names[i], is_is ? "utf8" : "utf8mb4",
                             is_is ? "utf8_general_ci" : "utf8mb4_general_ci"};
    }
    *dbs = d;
    *n = k;
    return DB_OK;
}

/* information_schema.VIEWS.VIEW_DEFINITION: the SELECT of a stored definition `CREATE VIEW
 * `v` [(`c`, ...)] AS <select>` (plan_ddl_view), in a. */
static const char *
view_body(arena *a, const char *sql)
{
    const char *p = strchr(sql, '`');
    p = p ? strchr(p + 1, '`') : NULL; /* the view's name */
    if (p && strncmp(p + 1, " (", 2) == 0) {
        bool quoted = false;
        for (p += 3; *p && (quoted || *p != ')'); p++) {
            quoted ^= *p == '`';
        }
    }
    if (!p || strncmp(p + 1, " AS ", 4) != 0) {
        return arena_strdup(a, sql);
    }
    return arena_strdup(a, p + 5);
}

static int
mc_tables(void *ctx, arena *a, const char *db, plan_cat_table **tbls, size_t *n, db_error *err)
{
    if (strcasecmp(db, "information_schema") == 0) {
        plan_catalog_view bi; /* information_schema's own tables: the builtin provider */
        plan__catalog_builtin(&bi);
        return bi.tables(bi.ctx, a, db, tbls, n, err);
    }
    cat_meta *m = ctx;
    *tbls = NULL;
    *n = 0;
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_db *d = cat_db_find(c, db);
    if (d && d->ntables) {
        plan_cat_table *t = arena_calloc(a, d->ntables, sizeof *t);
        size_t k = 0;
        for (size_t j = 0; j < d->ntables; j++) {
            const cat_table *ct = d->tables[j];
            if (ct->stream != NULL) {
                continue; /* streams: information_schema.table_streams */
            }
            size_t i = k++;
            t[i].name = arena_strdup(a, ct->name);
            t[i].type = ct->view_sql ? "VIEW" : "BASE TABLE";
            t[i].view_definition = ct->view_sql ? view_body(a, ct->view_sql) : NULL;
            t[i].engine = "Doris";
            t[i].comment = arena_strdup(a, ct->comment ? ct->comment : "");
            t[i].collation = "utf-8";
            t[i].has_rows = ct->view_sql == NULL;
            t[i].rows = 0;
            if (ct->view_sql == NULL) {
                /* Row and byte counts come from storage, read after the catalog lock. */
                size_t nt = 0;
                for (size_t p = 0; p < ct->nparts; p++) {
                    nt += (size_t)ct->parts[p].buckets;
                }
                uint64_t *ids = arena_calloc(a, nt ? nt : 1, sizeof *ids);
                nt = 0;
                for (size_t p = 0; p < ct->nparts; p++) {
                    for (int32_t b = 0; b < ct->parts[p].buckets; b++) {
                        ids[nt++] = stor_tablet_id_of(ct->parts[p].id, (uint32_t)b);
                    }
                }
                t[i].tablets = ids;
                t[i].ntablets = nt;
            }
        }
        *tbls = t;
        *n = k;
    }
    cat_meta_read_end(m);
    return DB_OK;
}

/* One catalog column as information_schema.COLUMNS shows it (MySQL's DATA_TYPE / COLUMN_TYPE
 * vocabulary, which the JDBC and ODBC drivers map to SQL types). */
static void
column_info(arena *a, const cat_table *t, const cat_column *c, plan_cat_column *out)
{
    char type[64];
    cat_type_sql_buf(&c->type, type, sizeof type);
    char *data_type = arena_strdup(a, type);
    char *paren = strchr(data_type, '(');
    char *angle = strchr(data_type, '<');
    if (paren) {
        *paren = '\0';
    }
    if (angle) {
        *angle = '\0';
    }
    memset(out, 0, sizeof *out);
    out->name = arena_strdup(a, c->name);
    out->data_type = data_type;
    out->column_type = arena_strdup(a, type);
    out->default_value = c->default_text ? arena_strdup(a, c->default_text) : NULL;
    out->nullable = c->nullable;
    out->key = c->is_key && t->keys == CAT_KEYS_UNIQUE ? "PRI" : "";
    out->extra = c->auto_inc ? "auto_increment" : "";
    out->comment = arena_strdup(a, c->comment ? c->comment : "");
    static const uint8_t int_prec[] = {
            [CAT_T_BOOLEAN] = 3, [CAT_T_TINYINT] = 3,   [CAT_T_SMALLINT] = 5, [CAT_T_INT] = 10,
            [CAT_T_BIGINT] = 19, [CAT_T_LARGEINT] = 39, [CAT_T_FLOAT] = 12,   [CAT_T_DOUBLE] = 22};
    switch (c->type.id) {
    case CAT_T_BOOLEAN:
    case CAT_T_TINYINT:
    case CAT_T_SMALLINT:
    case CAT_T_INT:
    case CAT_T_BIGINT:
    case CAT_T_LARGEINT:
    case CAT_T_FLOAT:
    case CAT_T_DOUBLE:
        out->has_num = true;
        out->num_precision = int_prec[c->type.id];
        out->num_scale = 0;
        break;
    case CAT_T_DECIMAL:
        out->has_num = true;
        out->num_precision = c->type.precision;
        out->num_scale = c->type.scale;
        break;
    case CAT_T_CHAR:
    case CAT_T_VARCHAR:
        out->has_char_len = true;
        out->char_max_len = (uint64_t)c->type.len;
        out->char_octet_len = (uint64_t)c->type.len * 4;
        out->charset = "utf8mb4";
        out->collation = "utf8mb4_general_ci";
        break;
    case CAT_T_STRING:
        out->has_char_len = true;
        out->char_max_len = 2147483643;
        out->char_octet_len = 2147483643;
        out->charset = "utf8mb4";
        out->collation = "utf8mb4_general_ci";
        break;
    case CAT_T_DATETIME:
        out->has_dt_prec = true;
        out->dt_precision = c->type.scale;
        break;
    default:
        break;
    }
}

void
plan__stream_vcolumn_info(arena *a, plan_cat_column **cols, size_t *n)
{
    plan_cat_column *out = arena_calloc(a, NSTREAM_VCOLS, sizeof *out);
    cat_table none;
    memset(&none, 0, sizeof none);
    for (size_t i = 0; i < NSTREAM_VCOLS; i++) {
        cat_column c;
        memset(&c, 0, sizeof c);
        c.name = (char *)stream_vcols[i].name;
        c.type = cat_type_make(stream_vcols[i].type);
        c.comment = "";
        column_info(a, &none, &c, &out[i]);
    }
    *cols = out;
    *n = NSTREAM_VCOLS;
}

void
plan__view_column_info(arena *a, const cat_table *t, plan_cat_column **cols, size_t *n)
{
    plan_cat_column *out = arena_calloc(a, t->ncols ? t->ncols : 1, sizeof *out);
    for (size_t i = 0; i < t->ncols; i++) {
        column_info(a, t, &t->cols[i], &out[i]);
    }
    *cols = out;
    *n = t->ncols;
}

static int
mc_columns(void *ctx, arena *a, const char *db, const char *table, plan_cat_column **cols,
           size_t *n, db_error *err)
{
    if (strcasecmp(db, "information_schema") == 0) {
        plan_catalog_view bi;
        plan__catalog_builtin(&bi);
        return bi.columns(bi.ctx, a, db, table, cols, n, err);
    }
    cat_meta *m = ctx;
    *cols = NULL;
    *n = 0;
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_db *d = cat_db_find(c, db);
    const cat_table *t = columns_of(c, d ? cat_table_find(d, table) : NULL);
    if (t) {
        plan_cat_column *out = arena_calloc(a, t->ncols ? t->ncols : 1, sizeof *out);
        size_t k = 0;
        for (size_t i = 0; i < t->ncols; i++) {
            if (!(t->cols[i].flags & CAT_COL_HIDDEN)) {
                column_info(a, t, &t->cols[i], &out[k++]);
            }
        }
        *cols = out;
        *n = k;
    }
    cat_meta_read_end(m);
    return DB_OK;
}
