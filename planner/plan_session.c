/* SPDX-License-Identifier: Apache-2.0
 * plan_session.c: process-wide SQL state (global variables) and per-connection state (session
 * variables, user variables, current database, diagnostics, transaction flags).
 * See README.md §Data structures and §Threads. */
#include "planner/plan_ddl_int.h"
#include "planner/plan_dml_int.h"
#include "planner/plan_exec_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "catalog/catalog.h"
#include "common/mem.h"
#include "common/strutil.h"

static void add_condition(plan_session *s, uint8_t level, int code, const char *fmt, va_list ap)
        __attribute__((format(printf, 4, 0)));
static void apply_collation(plan_session *s, uint8_t collation);
static void set_account_host(plan_session *s);

plan_server *
plan_server_new(const plan_server_init *init)
{
    /* The catalog is not optional: privileges, users and names all come from it, and a
     * server without one would have to guess (fail open). Unit tests open a real one. */
    DB_ASSERT(init != NULL && init->meta != NULL && init->engine != NULL && init->binlog != NULL &&
              init->streams != NULL);
    plan_server *srv = mem_calloc(1, sizeof *srv);
    srv->hooks = init->hooks;
    srv->meta = init->meta;
    srv->engine = init->engine;
    srv->binlog = init->binlog;
    srv->streams = init->streams;
    srv->conf = init->conf;
    srv->version = mem_strdup(init->version ? init->version : "");
    srv->start_time = (int64_t)time(NULL);
    pthread_mutex_init(&srv->lock, NULL);
    srv->globals = mem_calloc(plan__sysvar_count(), sizeof(plan_sysval));
    plan__sysvar_init_globals(srv->globals, init);
    atomic_init(&srv->questions, 0);
    srv->ctype = plan__ctype_new(); /* (locale_t)0 without C.UTF-8: ASCII case mapping only */
    /* What information_schema reads. The catalog module's provider replaces this one. */
    plan__catalog_builtin(&srv->catalog);
    plan__catalog_meta(&srv->catalog, srv->meta); /* plan_show.c */
    plan__catalog_streams(&srv->catalog, srv);    /* plan_stream.c */
    return srv;
}

void
plan_server_free(plan_server *srv)
{
    if (!srv) {
        return;
    }
    plan__sysval_free(srv->globals, plan__sysvar_count());
    mem_free(srv->globals);
    mem_free(srv->version);
    plan__ctype_free(srv->ctype);
    pthread_mutex_destroy(&srv->lock);
    mem_free(srv);
}

/* The handshake collation sets character_set_client/connection/results and
 * collation_connection, as MySQL does. Unknown ids keep the defaults. */
static void
apply_collation(plan_session *s, uint8_t collation)
{
    const plan_collation *c = plan__collation_by_id(collation);
    if (!c) {
        return;
    }
    const char *names[] = {"character_set_client", "character_set_connection",
                           "character_set_results"};
    for (size_t i = 0; i < 3; i++) {
        plan_sysval *v = &s->vars[plan__sysvar_find(names[i])];
        mem_free(v->s);
        v->s = mem_strdup(c->charset);
        v->is_null = false;
    }
    plan_sysval *v = &s->vars[plan__sysvar_find("collation_connection")];
    mem_free(v->s);
    v->s = mem_strdup(c->name);
}

plan_session *
plan_session_new(plan_server *srv, const plan_session_init *init)
{
    plan_session *s = mem_calloc(1, sizeof *s);
    s->srv = srv;
    s->conn_id = init ? init->conn_id : 0;
    s->user = mem_strdup(init && init->user ? init->user : "");
    s->host = mem_strdup(init && init->host ? init->host : "");
    s->account_host = mem_strdup(init && init->account_host ? init->account_host : "%");
    s->db = init && init->db ? mem_strdup(init->db) : NULL;
    s->vars = mem_calloc(plan__sysvar_count(), sizeof(plan_sysval));
    pthread_mutex_lock(&srv->lock);
    plan__sysval_copy(s->vars, srv->globals, plan__sysvar_count());
    pthread_mutex_unlock(&srv->lock);
    if (init && init->collation) {
        apply_collation(s, init->collation);
    }
    s->next_iso = PLAN_ISO_NONE;
    atomic_init(&s->interrupted, false);
    return s;
}

static void free_uservars(plan_session *s);

static void
free_uservars(plan_session *s)
{
    for (size_t i = 0; i < s->nuvars; i++) {
        mem_free(s->uvars[i].name);
        mem_free(s->uvars[i].buf);
    }
    mem_free(s->uvars);
    s->uvars = NULL;
    s->nuvars = s->cap_uvars = 0;
}

void
plan_session_free(plan_session *s)
{
    if (!s) {
        return;
    }
    plan__txn_rollback(s); /* a connection that goes away rolls its transaction back */
    plan__sysval_free(s->vars, plan__sysvar_count());
    mem_free(s->vars);
    free_uservars(s);
    plan__prep_free_all(s);
    mem_free(s->user);
    mem_free(s->host);
    mem_free(s->account_host);
    mem_free(s->db);
    mem_free(s);
}

/* The databases that exist until the catalog arrives: information_schema (any case) and
 * mysql. Returns the canonical spelling or NULL. */
static const char *known_db(const char *db);

static const char *
known_db(const char *db)
{
    if (strcasecmp(db, "information_schema") == 0) {
        return "information_schema";
    }
    if (strcmp(db, "mysql") == 0) {
        return "mysql";
    }
    return NULL;
}

/* USE db and COM_INIT_DB: information_schema is open to everyone; any other database needs
 * some privilege in it (1044 before 1049, so a refusal does not tell whether it exists). */
int
plan_session_use_db(plan_session *s, const char *db, db_error *err)
{
    if (!db) {
        return db_error_set(err, ER_BAD_DB_ERROR, "");
    }
    const char *canon = known_db(db);
    if (!canon || strcmp(canon, "information_schema") != 0) {
        plan_ectx cx = {.s = s};
        if (plan__check_priv(&cx, CAT_PRIV_ALL, db, NULL, err) != DB_OK) {
            return DB_ERR;
        }
    }
    char *copy = canon ? mem_strdup(canon) : NULL;
    if (!copy) {
        const cat_catalog *c = cat_meta_read_begin(s->srv->meta);
        const cat_db *d = cat_db_find(c, db);
        copy = d ? mem_strdup(db) : NULL;
        cat_meta_read_end(s->srv->meta);
    }
    if (!copy) {
        return db_error_set(err, ER_BAD_DB_ERROR, db);
    }
    mem_free(s->db);
    s->db = copy;
    return DB_OK;
}

const char *
plan_session_db(const plan_session *s)
{
    return s->db;
}

void
plan_session_reset(plan_session *s, const char *user, const char *host)
{
    pthread_mutex_lock(&s->srv->lock);
    plan__sysval_copy(s->vars, s->srv->globals, plan__sysvar_count());
    pthread_mutex_unlock(&s->srv->lock);
    free_uservars(s);
    plan__prep_free_all(s);
    plan__txn_rollback(s);
    s->nwarns = s->warn_total = s->err_total = 0;
    s->in_trans = false;
    s->row_count = 0;
    s->found_rows = 0;
    s->last_insert_id = 0;
    s->next_iso = PLAN_ISO_NONE;
    s->user_time_us = 0;
    if (user) {
        mem_free(s->user);
        s->user = mem_strdup(user);
    }
    if (host) {
        mem_free(s->host);
        s->host = mem_strdup(host);
    }
    if (user) {
        set_account_host(s);
    }
}

/* COM_CHANGE_USER passes no account host: find the account the server authenticated, the one
 * cat_users_login picks for user from the client host (root is '%'). */
static void
set_account_host(plan_session *s)
{
    char matched[64] = "%";
    if (strcmp(s->user, "root") != 0) {
        uint8_t stage2[20];
        bool has_password;
        if (!cat_users_login(cat_meta_users(s->srv->meta), s->user, s->host, stage2, &has_password,
                             matched, sizeof matched)) {
            snprintf(matched, sizeof matched, "%%");
        }
    }
    mem_free(s->account_host);
    s->account_host = mem_strdup(matched);
}

uint16_t
plan_session_status(const plan_session *s)
{
    uint16_t st = 0;
    if (s->in_trans) {
        st |= 0x0001;
    }
    if (s->vars[plan__sysvar_find("autocommit")].i) {
        st |= 0x0002;
    }
    const char *mode = s->vars[plan__sysvar_find("sql_mode")].s;
    if (mode && strstr(mode, "NO_BACKSLASH_ESCAPES")) {
        st |= 0x0200;
    }
    return st;
}

uint16_t
plan_session_warning_count(const plan_session *s)
{
    return s->warn_total > 65535 ? 65535 : (uint16_t)s->warn_total;
}

uint16_t
plan_session_result_collation(const plan_session *s)
{
    const plan_sysval *v = &s->vars[plan__sysvar_find("character_set_results")];
    const plan_collation *c = NULL;
    if (!v->is_null && v->s) {
        c = plan__charset_default(v->s);
        /* The connection collation when it belongs to the same character set. */
        const plan_collation *cc =
                plan__collation_by_name(s->vars[plan__sysvar_find("collation_connection")].s);
        if (c && cc && strcmp(cc->charset, c->charset) == 0) {
            c = cc;
        }
    } else {
        c = plan__collation_by_name(s->vars[plan__sysvar_find("collation_connection")].s);
    }
    return c ? c->id : 45;
}

int64_t
plan_session_max_allowed_packet(const plan_session *s)
{
    return s->vars[plan__sysvar_find("max_allowed_packet")].i;
}

void
plan_session_interrupt(plan_session *s)
{
    atomic_store(&s->interrupted, true);
}

bool
plan_session_interrupted(const plan_session *s)
{
    return atomic_load(&s->interrupted);
}

int64_t
plan_session_net_write_timeout(const plan_session *s)
{
    return s->vars[plan__sysvar_find("net_write_timeout")].i;
}

int
plan__check_interrupt(plan_session *s, db_error *err)
{
    if (atomic_load(&s->interrupted)) {
        return db_error_set(err, ER_QUERY_INTERRUPTED);
    }
    return plan__check_limits(s, err);
}

/* ---- diagnostics ---- */

static void
add_condition(plan_session *s, uint8_t level, int code, const char *fmt, va_list ap)
{
    s->warn_total++;
    if (level == 2) {
        s->err_total++;
    }
    if (s->nwarns >= PLAN_MAX_WARNINGS) {
        return;
    }
    plan_warning *w = &s->warns[s->nwarns++];
    w->level = level;
    w->code = code;
    vsnprintf(w->msg, sizeof w->msg, fmt, ap);
}

void
plan__warn(plan_session *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_condition(s, 1, code, fmt, ap);
    va_end(ap);
}

void
plan__note(plan_session *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_condition(s, 0, code, fmt, ap);
    va_end(ap);
}

/* ---- user variables ---- */

const plan_uservar *
plan__uservar_get(plan_session *s, const char *name)
{
    for (size_t i = 0; i < s->nuvars; i++) {
        if (strcasecmp(s->uvars[i].name, name) == 0) {
            return &s->uvars[i];
        }
    }
    return NULL;
}

void
plan__uservar_set(plan_session *s, const char *name, const plan_value *v)
{
    plan_uservar *u = (plan_uservar *)plan__uservar_get(s, name);
    if (!u) {
        if (s->nuvars == s->cap_uvars) {
            s->cap_uvars = s->cap_uvars ? s->cap_uvars * 2 : 8;
            s->uvars = mem_realloc(s->uvars, s->cap_uvars * sizeof *s->uvars);
        }
        u = &s->uvars[s->nuvars++];
        memset(u, 0, sizeof *u);
        u->name = mem_strdup(name);
        str_lower(u->name, strlen(u->name));
    }
    char *old = u->buf;
    u->buf = NULL;
    u->v = *v;
    if (v->kind == PV_STRING) {
        u->buf = mem_strndup(v->str.s, v->str.len);
        u->v.str.s = u->buf;
    } else if (v->kind == PV_DATE || v->kind == PV_DATETIME || v->kind == PV_TIME) {
        /* MySQL stores temporal values in user variables as strings. */
        char text[64];
        size_t n = plan__datetime_fmt(v, text, sizeof text);
        u->buf = mem_strndup(text, n);
        u->v = plan__v_str(u->buf, n);
    }
    mem_free(old);
}

/* ---- COM_FIELD_LIST ---- */

int
plan_field_list(plan_session *s, const char *table, const char *wildcard, arena *a,
                plan_column **cols, size_t *ncols, db_error *err)
{
    *cols = NULL;
    *ncols = 0;
    if (!s->db) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    const plan_vtable *vt =
            strcasecmp(s->db, "information_schema") == 0 && table ? plan__vtable_find(table) : NULL;
    if (!vt && strcasecmp(s->db, "information_schema") != 0) {
        return plan__meta_field_list(s, s->db, table, wildcard, a, cols, ncols, err);
    }
    if (!vt) {
        return db_error_set(err, ER_NO_SUCH_TABLE, s->db, table ? table : "");
    }
    plan_column *out = arena_calloc(a, vt->ncols, sizeof *out);
    size_t n = 0;
    for (uint32_t i = 0; i < vt->ncols; i++) {
        const char *name = vt->cols[i].name;
        if (wildcard && !str_like(name, strlen(name), wildcard, strlen(wildcard), '\\', true)) {
            continue;
        }
        plan_xtype t;
        plan_vkind vk;
        plan__vcol_type(&vt->cols[i], &t, &vk);
        plan__col_init(&out[n], name, &t);
        out[n].org_name = name;
        out[n].table = vt->name;
        out[n].org_table = vt->name;
        out[n].schema = "information_schema";
        n++;
    }
    *cols = out;
    *ncols = n;
    return DB_OK;
}
