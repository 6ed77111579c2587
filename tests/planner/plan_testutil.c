/* SPDX-License-Identifier: Apache-2.0
 * Test fixture implementation (see plan_testutil.h). */
#include "plan_testutil.h"

#include <criterion/criterion.h>

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "binlog/binlog.h"
#include "catalog/catalog.h"
#include "common/mem.h"
#include "storage/storage.h"
#include "stream/stream.h"

static int sink_columns(void *ctx, const plan_column *cols, size_t ncols, db_error *err);
static int sink_row(void *ctx, const plan_cell *cells, size_t ncols, db_error *err);
static char *dup_or_null(arena *a, const char *s);

static char *
dup_or_null(arena *a, const char *s)
{
    return s ? arena_strdup(a, s) : NULL;
}

static int
sink_columns(void *ctx, const plan_column *cols, size_t ncols, db_error *err)
{
    (void)err;
    tx *t = ctx;
    t->got_columns = true;
    t->ncols = ncols < TX_MAX_COLS ? ncols : TX_MAX_COLS;
    for (size_t i = 0; i < t->ncols; i++) {
        t->cols[i] = cols[i];
        t->cols[i].name = dup_or_null(t->a, cols[i].name);
    }
    return DB_OK;
}

static int
sink_row(void *ctx, const plan_cell *cells, size_t ncols, db_error *err)
{
    (void)err;
    tx *t = ctx;
    for (size_t i = 0; i < ncols && i < TX_MAX_COLS; i++) {
        size_t k = t->nrows * t->ncols + i;
        if (k < TX_MAX_CELLS) {
            t->cells[k] =
                    cells[i].is_null ? NULL : arena_strndup(t->a, cells[i].data, cells[i].len);
        }
    }
    t->nrows++;
    return DB_OK;
}

/* cat_meta_config.attach, as the server does it: storage, Row Binlog and streams register their
 * records and image sections on the catalog's edit log before the replay. */
static int
attach_storage(void *ctx, cat_editlog *log, cat_meta *m, db_error *err)
{
    (void)m;
    tx_store *st = ctx;
    char path[160];
    snprintf(path, sizeof path, "%s/storage", st->dir);
    st->engine = stor_engine_new(path, log, err);
    if (st->engine == NULL) {
        return DB_ERR;
    }
    snprintf(path, sizeof path, "%s/storage/binlog", st->dir);
    st->binlog = bl_log_new(path, st->engine, log, err);
    if (st->binlog == NULL) {
        return DB_ERR;
    }
    st->streams = strm_new(st->engine, log);
    return DB_OK;
}

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void
tx_store_open(tx_store *st, const char *dir)
{
    memset(st, 0, sizeof *st);
    snprintf(st->dir, sizeof st->dir, "%s", dir);
    char meta_dir[160], storage_dir[160];
    snprintf(meta_dir, sizeof meta_dir, "%s/meta", dir);
    snprintf(storage_dir, sizeof storage_dir, "%s/storage", dir);
    cr_assert(mkdir(meta_dir, 0700) == 0 || errno == EEXIST, "mkdir %s", meta_dir);
    cr_assert(mkdir(storage_dir, 0700) == 0 || errno == EEXIST, "mkdir %s", storage_dir);
    cat_meta_config mc = {.attach = attach_storage, .attach_ctx = st};
    db_error err = {0};
    st->meta = cat_meta_open(meta_dir, &mc, &err);
    cr_assert_not_null(st->meta, "cat_meta_open: %s", err.msg);
    uint64_t nremoved = 0;
    cr_assert_eq(stor_engine_remove_orphans(st->engine, &nremoved, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(bl_log_remove_orphans(st->binlog, &nremoved, &err), DB_OK, "%s", err.msg);
}

void
tx_store_close(tx_store *st, bool checkpoint)
{
    stor_engine_stop_compaction(st->engine);
    cat_meta_close(st->meta, checkpoint);
    stor_engine_free(st->engine); /* after the close: its checkpoint writes the tablet image */
    bl_log_free(st->binlog);
    strm_free(st->streams);
    memset(st, 0, sizeof *st);
}

void
tx_store_server_init(const tx_store *st, plan_server_init *si)
{
    memset(si, 0, sizeof *si);
    si->version = "5.7.99-rivulet-test";
    si->version_comment = "Rivulet test";
    si->port = 9030;
    si->max_connections = 100;
    si->max_allowed_packet = 16777216;
    si->datadir = st->dir;
    si->system_time_zone = "UTC";
    si->meta = st->meta;
    si->engine = st->engine;
    si->binlog = st->binlog;
    si->streams = st->streams;
}

static tx *
tx_over(const char *dir, bool owns_dir, const plan_hooks *hooks)
{
    tx *t = mem_calloc(1, sizeof *t);
    snprintf(t->dir, sizeof t->dir, "%s", dir);
    t->owns_dir = owns_dir;
    tx_store_open(&t->store, dir);
    t->meta = t->store.meta;
    plan_server_init si;
    tx_store_server_init(&t->store, &si);
    if (hooks) {
        si.hooks = *hooks;
    }
    t->srv = plan_server_new(&si);
    plan_session_init ss;
    memset(&ss, 0, sizeof ss);
    ss.conn_id = 7;
    ss.user = "root";
    ss.host = "127.0.0.1";
    ss.collation = 45;
    t->s = plan_session_new(t->srv, &ss);
    t->a = arena_new(0);
    return t;
}

tx *
tx_new_hooks(const plan_hooks *hooks)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/rivulet-plantest-XXXXXX");
    cr_assert_not_null(mkdtemp(dir), "mkdtemp failed");
    return tx_over(dir, true, hooks);
}

tx *
tx_open(const char *dir)
{
    return tx_over(dir, false, NULL);
}

void
tx_close(tx *t, bool checkpoint)
{
    plan_session_free(t->s);
    plan_server_free(t->srv);
    tx_store_close(&t->store, checkpoint);
    if (t->owns_dir) {
        nftw(t->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    arena_free(t->a);
    mem_free(t);
}

tx *
tx_new(void)
{
    return tx_new_hooks(NULL);
}

void
tx_free(tx *t)
{
    tx_close(t, false);
}

static int exec_text(tx *t, const char *sql, size_t stmt_len, bool multi);

/* Reset the fixture, copy the text (so the planner cannot read past its length) and run it. */
static int
exec_text(tx *t, const char *sql, size_t stmt_len, bool multi)
{
    arena_reset(t->a);
    db_error_clear(&t->err);
    t->got_columns = false;
    t->ncols = 0;
    t->nrows = 0;
    memset(t->cells, 0, sizeof t->cells);
    plan_sink sink = {t, sink_columns, sink_row};
    /* Copy the text so the planner never reads past its length. */
    size_t len = strlen(sql);
    char *copy = mem_alloc(len + 1);
    memcpy(copy, sql, len);
    if (multi) {
        t->rc = plan_execute_multi(t->s, copy, len, stmt_len, t->a, &sink, &t->out, &t->err);
    } else {
        t->rc = plan_execute(t->s, copy, len, t->a, &sink, &t->out, &t->err);
    }
    /* Labels and cells were copied; the statement text can go. */
    mem_free(copy);
    return t->rc;
}

int
tx_prepare(tx *t, const char *sql, uint32_t *id, uint16_t *nparams)
{
    arena_reset(t->a);
    db_error_clear(&t->err);
    t->got_columns = false;
    t->ncols = 0;
    t->nrows = 0;
    memset(t->cells, 0, sizeof t->cells);
    size_t len = strlen(sql);
    char *copy = mem_alloc(len + 1);
    memcpy(copy, sql, len);
    plan_column *cols = NULL;
    size_t ncols = 0;
    *id = 0;
    *nparams = 0;
    t->rc = plan_prepare(t->s, copy, len, t->a, id, nparams, &cols, &ncols, &t->err);
    memset(copy, 'X', len); /* the prepared statement must not point into the caller's text */
    mem_free(copy);
    if (t->rc == DB_OK) {
        sink_columns(t, cols, ncols, &t->err);
    }
    return t->rc;
}

int
tx_exec_prepared(tx *t, uint32_t id, const plan_param *params, size_t n)
{
    arena_reset(t->a);
    db_error_clear(&t->err);
    t->got_columns = false;
    t->ncols = 0;
    t->nrows = 0;
    memset(t->cells, 0, sizeof t->cells);
    plan_sink sink = {t, sink_columns, sink_row};
    t->rc = plan_execute_prepared(t->s, id, params, n, t->a, &sink, &t->out, &t->err);
    return t->rc;
}

int
tx_exec(tx *t, const char *sql)
{
    return exec_text(t, sql, 0, false);
}

int
tx_exec_multi(tx *t, const char *sql, size_t stmt_len)
{
    return exec_text(t, sql, stmt_len, true);
}

const char *
tx_cell(tx *t, size_t row, size_t col)
{
    if (row >= t->nrows || col >= t->ncols) {
        return "<none>";
    }
    const char *c = t->cells[row * t->ncols + col];
    return c ? c : "NULL";
}

const char *
tx_one(tx *t, const char *sql)
{
    if (tx_exec(t, sql) != DB_OK) {
        snprintf(t->buf, sizeof t->buf, "ERR %d %s %s", t->err.code, t->err.sqlstate, t->err.msg);
        return t->buf;
    }
    return tx_cell(t, 0, 0);
}

int
tx_err(tx *t, const char *sql)
{
    return tx_exec(t, sql) == DB_OK ? 0 : t->err.code;
}

void
check_all(const pair *p, size_t n)
{
    tx *t = tx_new();
    for (size_t i = 0; i < n; i++) {
        const char *got = tx_one(t, p[i].sql);
        cr_expect_str_eq(got, p[i].want, "%s -> [%s], want [%s]", p[i].sql, got, p[i].want);
    }
    tx_free(t);
}
