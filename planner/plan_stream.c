/* SPDX-License-Identifier: Apache-2.0
 * Table Streams in SQL (seed 000, DORIS_SEMANTICS.md §1.2-1.6, §2.7-2.9, §3 E1-E26, §4):
 * CREATE / ALTER / DROP STREAM, SHOW STREAMS, SHOW CREATE STREAM, reading a stream in FROM
 * (its changes since the offsets, s@snapshot(), s@reset()) and consumption: INSERT ... SELECT
 * turns the windows the statement read into a STRM_EXTRA_ADVANCE section of its commit, so the
 * rows and the offsets are durable together (stream/README.md). */
#include "planner/plan_ddl_int.h"
#include "planner/plan_dml_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "binlog/binlog.h"
#include "common/buf.h"
#include "common/mem.h"
#include "common/strutil.h"
#include "stream/stream.h"

#define SEQ_COL  "__DORIS_STREAM_SEQUENCE_COL__"
#define TYPE_COL "__DORIS_STREAM_CHANGE_TYPE_COL__"
#define LSN_COL  "__DORIS_STREAM_LSN_COL__"

/* ---- grammar builder ---- */

void
plan_ddl_stream_base(plan_parse *pp, const plan_token *ctl, const plan_token *db,
                     const plan_token *name)
{
    plan_ddl *d = pp->stmt->ddl;
    if (d == NULL) {
        d = arena_calloc(pp->a, 1, sizeof *d);
        pp->stmt->ddl = d;
    }
    d->base_ctl = ctl ? plan__ident_decode(pp->a, ctl) : NULL;
    d->base_db = db ? plan__ident_decode(pp->a, db) : NULL;
    d->base_name = plan__ident_decode(pp->a, name);
}

/* ---- the catalog side ---- */

/* What a statement needs of a stream and its base table, copied out of the catalog. */
typedef struct stream_info {
    int64_t id;
    const char *db, *name, *comment;
    cat_stream def; /* arrays in the statement arena */
    bool base_ok;   /* the base table exists */
    const char *base_db, *base_name;
} stream_info;

/* Look db.name up: 1 = a stream (filled), 0 = some other object, -1 = nothing of that name
 * (or no such database). */
static int
stream_find(plan_ectx *cx, const char *db, const char *name, stream_info *out)
{
    cat_meta *m = cx->s->srv->meta;
    if (db == NULL) {
        return -1;
    }
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_db *d = cat_db_find(c, db);
    const cat_table *t = d ? cat_table_find(d, name) : NULL;
    int rc = t == NULL ? -1 : t->stream == NULL ? 0 : 1;
    if (rc == 1 && out != NULL) {
        memset(out, 0, sizeof *out);
        out->id = t->id;
        out->db = arena_strdup(cx->a, d->name);
        out->name = arena_strdup(cx->a, t->name);
        out->comment = arena_strdup(cx->a, t->comment ? t->comment : "");
        out->def = *t->stream;
        out->def.base_db = arena_strdup(cx->a, t->stream->base_db);
        out->def.base_name = arena_strdup(cx->a, t->stream->base_name);
        out->def.init = arena_alloc(cx->a, (t->stream->ninit + 1) * sizeof *out->def.init);
        if (t->stream->ninit) {
            memcpy(out->def.init, t->stream->init, t->stream->ninit * sizeof *out->def.init);
        }
        cat_db *bdb = NULL;
        const cat_table *base = cat_table_find_id(c, t->stream->base_id, &bdb);
        out->base_ok = base != NULL && base->stream == NULL && base->view_sql == NULL;
        out->base_db = out->base_ok ? arena_strdup(cx->a, bdb->name) : out->def.base_db;
        out->base_name = out->base_ok ? arena_strdup(cx->a, base->name) : out->def.base_name;
    }
    cat_meta_read_end(m);
    return rc;
}

bool
plan__is_stream(plan_ectx *cx, const char *db, const char *name)
{
    return stream_find(cx, db, name, NULL) == 1;
}

bool
plan__stream_base(plan_ectx *cx, const char *db, const char *name, const char **bdb,
                  const char **bname)
{
    stream_info si;
    if (stream_find(cx, db, name, &si) != 1 || !si.base_ok) {
        return false;
    }
    *bdb = si.base_db;
    *bname = si.base_name;
    return true;
}

/* The partitions of tb as stream/ takes them (statement arena). */
static strm_part *
tbl_parts(plan_ectx *cx, const plan_tbl *tb)
{
    strm_part *v = arena_alloc(cx->a, ((size_t)tb->nparts + 1) * sizeof *v);
    for (uint32_t p = 0; p < tb->nparts; p++) {
        v[p] = (strm_part){tb->parts[p].id, tb->parts[p].buckets};
    }
    return v;
}

/* The read of stream si over tb in the statement's read-once set (every reference of the
 * statement sees the windows of the first, stream/README.md I3). */
static strm_read *
stream_read(plan_ectx *cx, const stream_info *si, const plan_tbl *tb, uint8_t kind)
{
    if (cx->sreads == NULL) {
        cx->sreads = strm_reads_new(cx->a);
    }
    return strm_reads_add(cx->sreads, cx->s->srv->streams, si->id, &si->def, si->db, si->name, kind,
                          tbl_parts(cx, tb), tb->nparts);
}

/* ---- CREATE / ALTER / DROP ---- */

static int doris(plan_ectx *cx, db_error *err, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* ER_DORIS (1105, "errCode = 2, detailMessage = ...") with a formatted message. */
static int
doris(plan_ectx *cx, db_error *err, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return db_error_set(err, ER_DORIS, arena_strdup(cx->a, msg));
}

static int
exec_create(plan_ectx *cx, const plan_stmt *st, plan_ddl *d, db_error *err)
{
    (void)st;
    if (d->or_replace) {
        return db_error_set(err, ER_DORIS, "do not support replace currently");
    }
    /* Properties first (Doris #66683): a bad type is reported whatever the base table. */
    uint8_t type = CAT_STREAM_MIN_DELTA;
    bool initial = false;
    for (size_t i = 0; i < d->nprops; i++) {
        const char *k = d->props[i].key, *v = d->props[i].value;
        if (strcasecmp(k, "type") == 0) {
            int m = bl_mode_from_name(v);
            if (m < 0) {
                return doris(cx, err, "not supported type: %s", v);
            }
            type = m == BL_MODE_APPEND_ONLY ? CAT_STREAM_APPEND_ONLY
                   : m == BL_MODE_DETAIL    ? CAT_STREAM_DETAIL
                                            : CAT_STREAM_MIN_DELTA;
        } else if (strcasecmp(k, "show_initial_rows") == 0) {
            if (strcasecmp(v, "true") == 0) {
                initial = true;
            } else if (strcasecmp(v, "false") == 0) {
                initial = false;
            } else {
                return db_error_set(err, ER_DORIS, "show_initial_rows must be `true` or `false`");
            }
        } else {
            return doris(cx, err, "Unknown properties: {%s=%s}", k, v);
        }
    }
    const char *db = d->db ? d->db : cx->s->db;
    if (db == NULL) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    if (d->base_ctl && strcasecmp(d->base_ctl, "internal") != 0) {
        return doris(cx, err, "Unknown catalog '%s'", d->base_ctl);
    }
    const char *bdb = d->base_db ? d->base_db : cx->s->db;
    if (bdb == NULL) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    if (plan__check_priv(cx, CAT_PRIV_CREATE, db, d->name, err) != DB_OK ||
        plan__check_priv(cx, CAT_PRIV_SELECT, bdb, d->base_name, err) != DB_OK) {
        return DB_ERR;
    }
    /* The base table, copied under the read lock. */
    cat_meta *m = cx->s->srv->meta;
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_db *bd = cat_db_find(c, bdb);
    const cat_table *t = bd ? cat_table_find(bd, d->base_name) : NULL;
    int rc = DB_OK;
    cat_stream def;
    memset(&def, 0, sizeof def);
    strm_part *parts = NULL;
    size_t nparts = 0;
    if (t == NULL) {
        rc = doris(cx, err, "Unknown table '%s'", d->base_name);
    } else if (strm_check_base(t, type, err) != DB_OK) {
        rc = DB_ERR;
    } else {
        def.base_id = t->id;
        def.base_db = arena_strdup(cx->a, bd->name);
        def.base_name = arena_strdup(cx->a, t->name);
        nparts = t->nparts;
        parts = arena_alloc(cx->a, (nparts + 1) * sizeof *parts);
        for (size_t i = 0; i < nparts; i++) {
            parts[i] = (strm_part){t->parts[i].id, (uint32_t)t->parts[i].buckets};
        }
    }
    cat_meta_read_end(m);
    if (rc != DB_OK) {
        return rc;
    }
    def.type = type;
    def.show_initial_rows = initial;
    def.created_ms = cx->now_utc_us / 1000;
    /* show_initial_rows = false: each partition with data starts at its last commit (the
     * statement's view, so every commit it saw is before the stream and none after is). */
    def.init = arena_alloc(cx->a, (nparts + 1) * sizeof *def.init);
    if (!initial) {
        def.ninit = strm_creation_offsets(cx->s->srv->streams, parts, nparts, def.init);
    }
    bool created;
    return cat_meta_create_stream(m, db, d->name, d->req.comment, &def, d->if_not_exists, &created,
                                  err);
}

static int
set_comment(cat_catalog *c, cat_db *db, cat_table *copy, void *arg, db_error *err)
{
    (void)c;
    (void)db;
    (void)err;
    mem_free(copy->comment);
    copy->comment = mem_strdup(arg);
    return DB_OK;
}

/* ALTER / DROP STREAM's target: after priv on db.name, *k = stream_find's answer (1 a stream,
 * 0 another object: "<db>.<name> is not STREAM", -1 nothing). */
static int
ddl_target(plan_ectx *cx, const plan_ddl *d, uint32_t priv, const char **db, int *k, db_error *err)
{
    *db = d->db ? d->db : cx->s->db;
    if (*db == NULL) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    if (plan__check_priv(cx, priv, *db, d->name, err) != DB_OK) {
        return DB_ERR;
    }
    *k = stream_find(cx, *db, d->name, NULL);
    return *k == 0 ? doris(cx, err, "%s.%s is not STREAM", *db, d->name) : DB_OK;
}

static int
exec_alter(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    const char *db;
    int k;
    if (ddl_target(cx, d, CAT_PRIV_ALTER, &db, &k, err) != DB_OK) {
        return DB_ERR;
    }
    if (k < 0) {
        return doris(cx, err, "Unknown table '%s' in %s", d->name, db);
    }
    const char *comment = d->req.comment ? d->req.comment : "";
    return cat_meta_alter_table(cx->s->srv->meta, db, d->name, set_comment, (void *)comment, err);
}

static int
exec_drop(plan_ectx *cx, plan_ddl *d, db_error *err)
{
    const char *db;
    int k;
    if (ddl_target(cx, d, CAT_PRIV_DROP, &db, &k, err) != DB_OK) {
        return DB_ERR;
    }
    if (k < 0) {
        return d->if_exists ? DB_OK : db_error_set(err, ER_UNKNOWN_TABLE_IN, d->name, db);
    }
    /* Offsets stay in stream/ until its garbage collection drops them; the id is never reused,
     * so a new stream of the same name starts fresh. */
    return cat_meta_drop_table(cx->s->srv->meta, db, d->name, true, err);
}

/* ---- SHOW STREAMS / SHOW CREATE STREAM ---- */

static int
show_streams(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    const char *db = st->name ? st->name : cx->s->db;
    if (db == NULL) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    const char *names[1] = {arena_sprintf(cx->a, "Tables_in_%s", db)};
    plan_rowset rs;
    plan__rs_init(cx->a, &rs, names, 1);
    cat_meta *m = cx->s->srv->meta;
    /* As SHOW TABLES: 1044 without any privilege in the database (before 1049), else only the
     * streams the account holds a privilege on (checked after the catalog lock). */
    if (plan__check_db_visible(cx, db, err) != DB_OK) {
        return DB_ERR;
    }
    if (m != NULL) {
        const cat_catalog *c = cat_meta_read_begin(m);
        const cat_db *d = cat_db_find(c, db);
        if (d == NULL) {
            cat_meta_read_end(m);
            return db_error_set(err, ER_BAD_DB_ERROR, db);
        }
        const char *canon = arena_strdup(cx->a, d->name);
        plan_rowset all;
        plan__rs_init(cx->a, &all, names, 1);
        for (size_t i = 0; i < d->ntables; i++) {
            if (d->tables[i]->stream != NULL) {
                const char *row[1] = {arena_strdup(cx->a, d->tables[i]->name)};
                plan__rs_add(cx->a, &all, row);
            }
        }
        cat_meta_read_end(m);
        for (size_t i = 0; i < all.nrows; i++) {
            if (plan__can_see(cx->s, canon, all.cells[i])) {
                plan__rs_add(cx->a, &rs, &all.cells[i]);
            }
        }
    }
    return plan__rs_send(cx, &rs, st, 0, sink, err);
}

/* 'text' with quotes doubled. */
static void
put_quoted(buf *b, const char *s)
{
    buf_put_u8(b, '\'');
    for (; *s; s++) {
        if (*s == '\'') {
            buf_put_u8(b, '\'');
        }
        buf_put_u8(b, (uint8_t)*s);
    }
    buf_put_u8(b, '\'');
}

/* The stream d names (its database defaulting to the session's) into *si: ER_NO_DB_ERROR,
 * 1142 without any privilege on it, ER_NO_SUCH_TABLE when nothing has that name; another object is
 * "'<name>' is not a STREAM, use SHOW CREATE TABLE instead" with hint, else "<db>.<name> is not
 * STREAM". */
static int
stream_of(plan_ectx *cx, const plan_ddl *d, bool hint, stream_info *si, db_error *err)
{
    const char *db = d->db ? d->db : cx->s->db;
    if (db == NULL) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    /* Some privilege on the name before it is looked up, as SHOW CREATE TABLE (1142 whether
     * or not it exists, whatever it is). */
    if (plan__check_priv(cx, CAT_PRIV_ALL, db, d->name, err) != DB_OK) {
        return DB_ERR;
    }
    int k = stream_find(cx, db, d->name, si);
    if (k < 0) {
        return db_error_set(err, ER_NO_SUCH_TABLE, db, d->name);
    }
    if (k == 0) {
        return hint ? doris(cx, err, "'%s' is not a STREAM, use SHOW CREATE TABLE instead", d->name)
                    : doris(cx, err, "%s.%s is not STREAM", db, d->name);
    }
    return DB_OK;
}

/* Send rs as a SHOW result that takes no LIKE / WHERE. */
static int
send_rows(plan_ectx *cx, plan_rowset *rs, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    plan_stmt plain = *st;
    plain.like = NULL;
    plain.where = NULL;
    return plan__rs_send(cx, rs, &plain, 0, sink, err);
}

static int
show_create(plan_ectx *cx, const plan_stmt *st, plan_ddl *d, const plan_sink *sink, db_error *err)
{
    stream_info si;
    if (stream_of(cx, d, true, &si, err) != DB_OK) {
        return DB_ERR;
    }
    buf b;
    buf_init(&b);
    buf_printf(&b, "CREATE STREAM `%s`\nON TABLE internal.%s.%s\n", si.name, si.base_db,
               si.base_name);
    if (si.comment[0] != '\0') {
        buf_append_str(&b, "COMMENT ");
        put_quoted(&b, si.comment);
        buf_put_u8(&b, '\n');
    }
    buf_printf(&b, "PROPERTIES (\n\"type\" = \"%s\",\n\"show_initial_rows\" = \"%s\"\n);",
               cat_stream_type_name(si.def.type), si.def.show_initial_rows ? "true" : "false");
    const char *names[2] = {"Stream", "Create Stream"};
    plan_rowset rs;
    plan__rs_init(cx->a, &rs, names, 2);
    const char *row[2] = {si.name, arena_strndup(cx->a, (const char *)b.data, b.len)};
    buf_destroy(&b);
    plan__rs_add(cx->a, &rs, row);
    return send_rows(cx, &rs, st, sink, err);
}

/* SHOW STREAM STATUS s (beyond Doris): per base partition the offset, the last commit and the
 * raw change records between them, from binlog metadata alone (no change is read). */
static int
show_status(plan_ectx *cx, const plan_stmt *st, plan_ddl *d, const plan_sink *sink, db_error *err)
{
    stream_info si;
    const char *db = d->db ? d->db : cx->s->db;
    if (db != NULL && plan__check_priv(cx, CAT_PRIV_SELECT, db, d->name, err) != DB_OK) {
        return DB_ERR; /* it reads the stream's changes: SELECT_PRIV, before the lookup */
    }
    if (stream_of(cx, d, false, &si, err) != DB_OK) {
        return DB_ERR;
    }
    if (!si.base_ok) {
        return doris(cx, err, "Unknown base table '%s'", si.def.base_name);
    }
    plan_tbl *tb = arena_calloc(cx->a, 1, sizeof *tb);
    if (plan__tbl_open(cx, si.base_db, si.base_name, tb, err) != DB_OK) {
        return DB_ERR;
    }
    strm_read r; /* windows as a read now would take them; not in the read-once set */
    strm_read_init(&r, cx->a, cx->s->srv->streams, si.id, &si.def, si.db, si.name,
                   STRM_READ_CHANGES, tbl_parts(cx, tb), tb->nparts);
    const char *names[5] = {"Unit", "Consumption_Status", "Latest_Commit", "Pending_Records",
                            "Lag_Ms"};
    plan_rowset rs;
    plan__rs_init(cx->a, &rs, names, 5);
    for (uint32_t p = 0; p < tb->nparts; p++) {
        const strm_window *w = &r.w[p];
        bool has = w->prev_kind != STRM_PREV_NONE;
        uint64_t pending = strm_window_pending(cx->s->srv->binlog, w);
        uint64_t lag = 0;
        if (has && w->next_tso > w->prev_tso) {
            lag = cat_tso_physical(w->next_tso) - cat_tso_physical(w->prev_tso);
        }
        const char *row[5] = {
                tb->parts[p].name, has ? arena_sprintf(cx->a, "%" PRIu64, w->prev_tso) : "N/A",
                w->next_tso ? arena_sprintf(cx->a, "%" PRIu64, w->next_tso) : "N/A",
                arena_sprintf(cx->a, "%" PRIu64, pending),
                has || w->next_tso == 0 ? arena_sprintf(cx->a, "%" PRIu64, lag) : "N/A"};
        plan__rs_add(cx->a, &rs, row);
    }
    return send_rows(cx, &rs, st, sink, err);
}

int
plan__exec_stream_ddl(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                      db_error *err)
{
    plan_ddl *d = st->ddl;
    if (d->kind == PD_SHOW_STREAMS || d->kind == PD_SHOW_CREATE_STREAM ||
        d->kind == PD_SHOW_STREAM_STATUS) {
        int rc = d->kind == PD_SHOW_STREAMS         ? show_streams(cx, st, sink, err)
                 : d->kind == PD_SHOW_CREATE_STREAM ? show_create(cx, st, d, sink, err)
                                                    : show_status(cx, st, d, sink, err);
        out->is_result_set = rc == DB_OK;
        return rc;
    }
    if (cx->describe) {
        return DB_OK;
    }
    switch (d->kind) {
    case PD_CREATE_STREAM:
        return exec_create(cx, st, d, err);
    case PD_ALTER_STREAM:
        return exec_alter(cx, d, err);
    default:
        return exec_drop(cx, d, err);
    }
}

/* Columns of a stream read: the base table's visible columns, then the three virtual ones
 * (hidden unless named, or with show_hidden_columns). */
static void
stream_cols(plan_ectx *cx, const plan_tbl *tb, bool with_virtual, plan_binlog_src *out)
{
    uint32_t nbase = tb->nvis, ncols = nbase + (with_virtual ? 3 : 0);
    out->tbl = (plan_tbl *)tb;
    out->ncols = ncols;
    out->names = arena_calloc(cx->a, ncols + 1, sizeof *out->names);
    out->xt = arena_calloc(cx->a, ncols + 1, sizeof *out->xt);
    out->vk = arena_calloc(cx->a, ncols + 1, sizeof *out->vk);
    out->tcol = arena_calloc(cx->a, ncols + 1, sizeof *out->tcol);
    for (uint32_t c = 0; c < nbase; c++) {
        out->names[c] = tb->cols[c].name;
        out->xt[c] = tb->cols[c].xt;
        out->vk[c] = tb->cols[c].vk;
        out->tcol[c] = (int32_t)c;
    }
    if (!with_virtual) {
        out->nstar = ncols;
        return;
    }
    int idx = plan__sysvar_find("show_hidden_columns");
    bool hidden = idx >= 0 && cx->s->vars[idx].i != 0;
    out->nstar = hidden ? ncols : nbase;
    const char *names[3] = {SEQ_COL, TYPE_COL, LSN_COL};
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t k = nbase + i;
        out->names[k] = names[i];
        memset(&out->xt[k], 0, sizeof out->xt[k]);
        out->xt[k].type = i == 1 ? PLAN_TYPE_VARCHAR : PLAN_TYPE_BIGINT;
        out->xt[k].length = i == 1 ? 13 : 20;
        out->vk[k] = i == 1 ? PV_STRING : PV_INT;
        out->tcol[k] = -1;
    }
}

/* The scan of tb restricted to the partitions flagged in on, as of tso (0 = current). */
static plan_op *
part_scan(plan_ectx *cx, const plan_tbl *tb, uint64_t tso, const bool *on, bool with_loc)
{
    plan_op *op = plan__op_tscan(cx, tb, tso, with_loc, false);
    plan__tscan_only_partitions(op, on);
    return op;
}

/* Several scans of one table run one after another (@snapshot: one per partition). */
typedef struct op_concat {
    plan_op base;
    plan_op **kids;
    uint32_t n, cur;
} op_concat;

static int
concat_open(plan_op *op, db_error *err)
{
    op_concat *c = (op_concat *)op;
    op->opened = true;
    c->cur = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        if (c->kids[i]->open(c->kids[i], err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

static int
concat_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_concat *c = (op_concat *)op;
    *out = NULL;
    while (c->cur < c->n) {
        if (c->kids[c->cur]->next(c->kids[c->cur], out, err) != DB_OK) {
            return DB_ERR;
        }
        if (*out != NULL) {
            return DB_OK;
        }
        c->cur++;
    }
    return DB_OK;
}

static void
concat_close(plan_op *op)
{
    op_concat *c = (op_concat *)op;
    for (uint32_t i = 0; i < c->n; i++) {
        c->kids[i]->close(c->kids[i]);
    }
    op->opened = false;
}

static void
concat_describe(plan_op *op, plan_explain *ex)
{
    op_concat *c = (op_concat *)op;
    plan__explain_printf(ex, "STREAM SNAPSHOT(%u partitions)", c->n);
}

/* An empty scan (a snapshot with no partition to read): a scan of no partition. */
static plan_op *
concat_new(plan_ectx *cx, const plan_tbl *tb, plan_op **kids, uint32_t n)
{
    if (n == 1) {
        return kids[0];
    }
    if (n == 0) {
        bool *none = arena_calloc(cx->a, tb->nparts + 1, sizeof *none);
        return part_scan(cx, tb, 0, none, false);
    }
    op_concat *c = arena_calloc(cx->a, 1, sizeof *c);
    c->kids = kids;
    c->n = n;
    plan_op *op = &c->base;
    op->open = concat_open;
    op->next = concat_next;
    op->close = concat_close;
    op->describe = concat_describe;
    op->cx = cx;
    op->cap = kids[0]->cap;
    op->ncols = kids[0]->ncols;
    op->types = kids[0]->types;
    op->child = kids[0];
    return op;
}

int
plan__stream_resolve(plan_ectx *cx, const plan_table_ref *ref, plan_binlog_src *out, plan_op **opp,
                     db_error *err)
{
    memset(out, 0, sizeof *out);
    *opp = NULL;
    const char *db = ref->db ? ref->db : cx->s->db;
    if (db == NULL) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    /* SELECT_PRIV before the lookup: a refusal does not tell whether the stream exists. */
    if (plan__check_priv(cx, CAT_PRIV_SELECT, db, ref->name, err) != DB_OK) {
        return DB_ERR;
    }
    stream_info si;
    if (stream_find(cx, db, ref->name, &si) != 1) {
        return db_error_set(err, ER_NO_SUCH_TABLE, db, ref->name);
    }
    uint8_t kind = STRM_READ_CHANGES;
    if (ref->scan_fn != NULL) {
        if (strcasecmp(ref->scan_fn, "snapshot") == 0) {
            kind = STRM_READ_SNAPSHOT;
        } else if (strcasecmp(ref->scan_fn, "reset") == 0) {
            kind = STRM_READ_RESET;
        } else {
            return db_error_set(err, ER_DORIS, "Invalid param type for olap table stream");
        }
        if (ref->nparams > 0) {
            return doris(cx, err, "%s does not accept parameters",
                         kind == STRM_READ_SNAPSHOT ? "snapshot" : "reset");
        }
    }
    if (!si.base_ok) {
        return doris(cx, err, "Unknown base table '%s'", si.def.base_name);
    }
    plan_tbl *tb = arena_calloc(cx->a, 1, sizeof *tb);
    if (plan__tbl_open(cx, si.base_db, si.base_name, tb, err) != DB_OK) {
        return DB_ERR;
    }
    stream_cols(cx, tb, kind == STRM_READ_CHANGES, out);
    if (cx->describe) {
        return DB_OK;
    }
    /* This reference's partitions (PARTITION (...), else all); the statement advances the
     * union of what its references read, each from the one window. */
    bool *on;
    if (plan__part_flags(cx, tb, ref->parts, ref->nparts, &on, err) != DB_OK) {
        return DB_ERR;
    }
    if (on == NULL) {
        on = arena_alloc(cx->a, tb->nparts + 1);
        memset(on, 1, tb->nparts + 1);
    }
    strm_read *r = stream_read(cx, &si, tb, kind);
    strm_read_use(r, on);
    if (kind == STRM_READ_RESET) { /* @reset(): the current image */
        *opp = part_scan(cx, tb, stor_engine_visible_tso(cx->s->srv->engine), on, false);
        return DB_OK;
    }
    if (kind == STRM_READ_SNAPSHOT) { /* @snapshot(): each partition as of its offset */
        plan_op **kids = arena_calloc(cx->a, tb->nparts + 1, sizeof *kids);
        uint32_t nk = 0;
        for (uint32_t p = 0; p < tb->nparts; p++) {
            if (!on[p] || r->w[p].prev_kind == STRM_PREV_NONE || r->w[p].prev_tso == 0) {
                continue; /* not asked for, or no offset: nothing as of it */
            }
            bool *one = arena_calloc(cx->a, tb->nparts + 1, sizeof *one);
            one[p] = true;
            kids[nk++] = part_scan(cx, tb, r->w[p].prev_tso, one, false);
        }
        *opp = concat_new(cx, tb, kids, nk);
        return DB_OK;
    }
    /* Changes: stream/ decides how each partition is read (its offset's window of the binlog,
     * or whole from its records or its data); this builds the one operator over them. */
    cat_binlog_cfg cfg = cat_binlog_default();
    {
        const cat_catalog *c = cat_meta_read_begin(cx->s->srv->meta);
        const cat_table *bt = cat_table_find_id(c, tb->id, NULL);
        if (bt != NULL) {
            cfg = bt->binlog;
        }
        cat_meta_read_end(cx->s->srv->meta);
    }
    bool history = cfg.need_historical_value && tb->sc.mow;
    uint8_t mode = strm_fold_mode(si.def.type, tb->sc.mow);
    strm_part_plan *plan = arena_alloc(cx->a, ((size_t)tb->nparts + 1) * sizeof *plan);
    uint64_t now_ms = cx->now_utc_us > 0 ? (uint64_t)cx->now_utc_us / 1000 : 0;
    if (strm_read_plan(cx->s->srv->streams, cx->s->srv->binlog, r, on, tb->sc.mow, si.def.type,
                       &cfg, now_ms, plan, err) != DB_OK) {
        return DB_ERR;
    }
    uint32_t total = 0;
    for (uint32_t p = 0; p < tb->nparts; p++) {
        total += tb->parts[p].buckets;
    }
    uint64_t *tablets = arena_alloc(cx->a, ((size_t)total + 1) * sizeof *tablets);
    uint64_t *lo = arena_alloc(cx->a, ((size_t)total + 1) * sizeof *lo);
    uint64_t *hi = arena_alloc(cx->a, ((size_t)total + 1) * sizeof *hi);
    uint8_t *tmode = arena_alloc(cx->a, (size_t)total + 1);
    int64_t *hparts = arena_alloc(cx->a, ((size_t)tb->nparts + 1) * sizeof *hparts);
    uint64_t *hseq = arena_alloc(cx->a, ((size_t)tb->nparts + 1) * sizeof *hseq);
    bool *hon = arena_calloc(cx->a, tb->nparts + 1, sizeof *hon);
    uint32_t n = 0, nh = 0;
    for (uint32_t p = 0; p < tb->nparts; p++) {
        const strm_part_plan *pp = &plan[p];
        if (pp->src == STRM_SRC_WHOLE_DATA) { /* a table scan, APPEND rows stamped per row */
            hon[p] = true;
            hparts[nh] = r->w[p].part_id;
            hseq[nh++] = pp->hi;
            continue;
        }
        for (uint32_t b = 0; pp->src != STRM_SRC_NONE && b < tb->parts[p].buckets; b++) {
            tablets[n] = stor_tablet_id_of(r->w[p].part_id, b);
            tmode[n] = pp->mode;
            lo[n] = pp->lo;
            hi[n++] = pp->hi;
        }
    }
    plan_op *hist =
            nh > 0 ? part_scan(cx, tb, stor_engine_visible_tso(cx->s->srv->engine), hon, true)
                   : NULL;
    *opp = plan__op_stream_read(cx, tb, mode, history, tablets, lo, hi, tmode, n, hist, hparts,
                                hseq, nh, out->vk, out->xt);
    return DB_OK;
}

/* ---- consumption ---- */

void
plan__stream_consume(plan_ectx *cx, stor_writer *w)
{
    strm_reads_advance(cx->sreads, w, cx->now_utc_us / 1000);
}

/* ---- information_schema.table_streams / table_stream_consumption ---- */

/* Grow *v (elements of size sz, *cap of them) in a to hold one more than n. */
static void *
grow1(arena *a, void *v, size_t n, size_t *cap, size_t sz)
{
    if (n < *cap) {
        return v;
    }
    size_t ncap = *cap ? *cap * 2 : 16;
    void *nv = arena_calloc(a, ncap, sz);
    if (n) {
        memcpy(nv, v, n * sz);
    }
    *cap = ncap;
    return nv;
}

static int
stream_rows(void *ctx, arena *a, plan_cat_stream **out, size_t *n, db_error *err)
{
    (void)err;
    plan_server *srv = ctx;
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    uint64_t now_ms = cat_clock_realtime_ms(NULL);
    const cat_catalog *c = cat_meta_read_begin(srv->meta);
    for (size_t d = 0; d < cat_db_count(c); d++) {
        const cat_db *db = cat_db_at(c, d);
        for (size_t i = 0; i < db->ntables; i++) {
            const cat_table *t = db->tables[i];
            if (t->stream == NULL) {
                continue;
            }
            cat_db *bdb = NULL;
            const cat_table *base = cat_table_find_id(c, t->stream->base_id, &bdb);
            bool ok = base != NULL && base->stream == NULL && base->view_sql == NULL;
            *out = grow1(a, *out, *n, &cap, sizeof **out);
            plan_cat_stream *r = &(*out)[(*n)++];
            r->db = arena_strdup(a, db->name);
            r->name = arena_strdup(a, t->name);
            r->id = t->id;
            r->consume_type = cat_stream_type_name(t->stream->type);
            r->comment = arena_strdup(a, t->comment ? t->comment : "");
            r->base_table = arena_strdup(a, ok ? base->name : t->stream->base_name);
            r->base_db = arena_strdup(a, ok ? bdb->name : t->stream->base_db);
            r->base_type = ok ? "OLAP" : "N/A";
            r->enabled = ok;
            r->is_stale = !ok;
            r->stale_reason = ok ? "N/A" : "Base table does not exist";
            if (ok && strm_ttl_stale(srv->streams, t, base, now_ms)) {
                r->is_stale = true;
                r->stale_reason = "Row binlog offset has expired according to binlog.ttl_seconds";
            }
        }
    }
    cat_meta_read_end(srv->meta);
    return DB_OK;
}

static int
stream_unit_rows(void *ctx, arena *a, plan_cat_stream_unit **out, size_t *n, db_error *err)
{
    (void)err;
    plan_server *srv = ctx;
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    uint64_t vis = stor_engine_visible_tso(srv->engine);
    const cat_catalog *c = cat_meta_read_begin(srv->meta);
    for (size_t d = 0; d < cat_db_count(c); d++) {
        const cat_db *db = cat_db_at(c, d);
        for (size_t i = 0; i < db->ntables; i++) {
            const cat_table *t = db->tables[i];
            if (t->stream == NULL) {
                continue;
            }
            const cat_table *base = cat_table_find_id(c, t->stream->base_id, NULL);
            if (base == NULL || base->stream != NULL || base->view_sql != NULL) {
                continue; /* rows only for partitions the base table has now */
            }
            for (size_t p = 0; p < base->nparts; p++) {
                const cat_partition *part = &base->parts[p];
                uint64_t tso;
                int64_t last;
                bool have = strm_effective_offset(srv->streams, t->id, t->stream, part->id, &tso,
                                                  &last) != STRM_PREV_NONE;
                uint64_t latest =
                        strm_part_latest(srv->engine, part->id, (uint32_t)part->buckets, vis);
                *out = grow1(a, *out, *n, &cap, sizeof **out);
                plan_cat_stream_unit *u = &(*out)[(*n)++];
                u->db = arena_strdup(a, db->name);
                u->stream = arena_strdup(a, t->name);
                u->id = t->id;
                u->unit = arena_strdup(a, part->name);
                u->status = have ? arena_sprintf(a, "%" PRIu64, tso) : "N/A";
                if (have) {
                    u->lag = arena_sprintf(a, "%" PRIu64, latest > tso ? latest - tso : 0);
                } else {
                    u->lag = latest != 0 ? "N/A" : "0";
                }
                u->last_consumption_ms = have ? last : -1;
            }
        }
    }
    cat_meta_read_end(srv->meta);
    return DB_OK;
}

void
plan__catalog_streams(plan_catalog_view *cv, plan_server *srv)
{
    cv->streams = stream_rows;
    cv->stream_units = stream_unit_rows;
    cv->stream_ctx = srv;
}

/* ---- STREAM_HAS_DATA('[db.]stream') (beyond Doris: Snowflake's SYSTEM$STREAM_HAS_DATA) ---- */

/* 1 when reading the stream now would return at least one row (its folded changes, so churn
 * that folds away is no data), else 0; NULL for NULL. Reads, never consumes. */
static int
ev_has_data(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    const char *s;
    size_t len;
    if (v.kind == PV_NULL || !plan__v_string(cx, &v, &s, &len)) {
        *out = plan__v_null();
        return DB_OK;
    }
    char *text = arena_strndup(cx->a, s, len);
    char *dot = strchr(text, '.');
    plan_table_ref ref;
    memset(&ref, 0, sizeof ref);
    if (dot != NULL) {
        *dot = '\0';
        ref.db = text;
        ref.name = dot + 1;
    } else {
        ref.name = text;
    }
    plan_ectx sub = *cx;
    sub.sreads = NULL; /* a read of its own: nothing of it is consumed */
    sub.describe = false;
    plan_binlog_src src;
    plan_op *op = NULL;
    if (plan__stream_resolve(&sub, &ref, &src, &op, err) != DB_OK) {
        return DB_ERR;
    }
    int rc = op->open(op, err);
    plan_batch *b = NULL;
    if (rc == DB_OK) {
        rc = op->next(op, &b, err);
    }
    op->close(op);
    if (rc != DB_OK) {
        return DB_ERR;
    }
    *out = plan__v_int(b != NULL && plan__batch_active(b) > 0);
    return DB_OK;
}

int
plan__ty_stream_has_data(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    plan__type_bigint(&e->t, 1, true);
    e->vk = PV_INT;
    e->eval = ev_has_data;
    return DB_OK;
}
