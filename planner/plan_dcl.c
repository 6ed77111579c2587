/* SPDX-License-Identifier: Apache-2.0
 * plan_dcl.c: users and privileges. The privilege check every statement calls
 * (plan__check_priv), the grammar's DCL builders (plan_dcl_*) and the DCL statements: CREATE /
 * DROP / ALTER USER, SET PASSWORD, GRANT / REVOKE, SHOW GRANTS, SHOW ALL GRANTS, SHOW USERS.
 * Accounts live in the catalog (cat_users); root is built into the server and holds every
 * privilege. See README.md §Users and privileges. */
#include "planner/plan_exec_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "common/buf.h"
#include "common/mem.h"
#include "common/strutil.h"
#include "planner/parse.h"

/* Doris's ALL: every privilege but ADMIN_PRIV (which only *.*.* may carry). */
#define DCL_PRIV_ALL \
    (CAT_PRIV_SELECT | CAT_PRIV_LOAD | CAT_PRIV_ALTER | CAT_PRIV_CREATE | CAT_PRIV_DROP)

#define DCL_MAX_USERS 4096 /* SHOW USERS / SHOW ALL GRANTS list at most this many accounts */

static bool is_root(const plan_session *s);
static const char *priv_command(uint32_t priv);
static plan_dcl *dcl_of(plan_parse *pp);
static void syntax_error_at(plan_parse *pp, const plan_token *t);
static bool is_self(const plan_session *s, const plan_dcl *d);
static bool looks_like_hash(const char *pw);
static int resolve_level(plan_ectx *cx, const plan_dcl *d, const char **db, const char **tbl,
                         db_error *err);
static int exec_grant(plan_ectx *cx, const plan_dcl *d, db_error *err);
static int exec_password(plan_ectx *cx, const plan_dcl *d, db_error *err);
static int send_rows(plan_ectx *cx, const char *const *names, size_t ncols, const char **cells,
                     size_t nrows, const plan_sink *sink, plan_outcome *out, db_error *err);
static void grant_lines(plan_ectx *cx, const char *user, const char *host, const char ***lines,
                        size_t *n, size_t *cap);
static int exec_show_grants(plan_ectx *cx, const plan_dcl *d, const plan_sink *sink,
                            plan_outcome *out, db_error *err);
static int exec_show_users(plan_ectx *cx, const plan_sink *sink, plan_outcome *out, db_error *err);

/* ======================================================================================
 * Privilege checks
 * ====================================================================================== */

/* root is built into the server (server/srv_command.c) and is never a catalog account. */
static bool
is_root(const plan_session *s)
{
    return strcmp(s->user, "root") == 0;
}

/* The command word MySQL puts in front of "command denied" for a privilege bit. */
static const char *
priv_command(uint32_t priv)
{
    switch (priv) {
    case CAT_PRIV_SELECT:
        return "SELECT";
    case CAT_PRIV_LOAD:
        return "INSERT";
    case CAT_PRIV_ALTER:
        return "ALTER";
    case CAT_PRIV_CREATE:
        return "CREATE";
    case CAT_PRIV_DROP:
        return "DROP";
    default:
        /* "Any privilege" checks (DESC, SHOW CREATE TABLE): MySQL reports these as SELECT. */
        return "SELECT";
    }
}

bool
plan__is_admin(plan_session *s)
{
    cat_meta *m = s->srv->meta;
    if (is_root(s)) {
        return true;
    }
    return (cat_users_privs(cat_meta_users(m), s->user, s->account_host, "*", "*") &
            CAT_PRIV_ADMIN) != 0;
}

int
plan__check_priv(plan_ectx *cx, uint32_t priv, const char *db, const char *tbl, db_error *err)
{
    plan_session *s = cx->s;
    if (plan__is_admin(s)) {
        return DB_OK;
    }
    if (db == NULL) {
        /* Global level: the admin-only statements, and admins passed above. */
        return db_error_set(err, ER_SPECIFIC_ACCESS_DENIED_ERROR, "ADMIN");
    }
    if ((priv & CAT_PRIV_SELECT) && strcasecmp(db, "information_schema") == 0) {
        return DB_OK; /* readable by every account (MySQL); DESC of its tables answers as root */
    }
    cat_users *us = cat_meta_users(s->srv->meta);
    if ((cat_users_privs(us, s->user, s->account_host, db, tbl) & priv) != 0) {
        return DB_OK;
    }
    if (tbl == NULL) {
        return db_error_set(err, ER_DBACCESS_DENIED_ERROR, s->user, s->account_host, db);
    }
    return db_error_set(err, ER_TABLEACCESS_DENIED_ERROR, priv_command(priv), s->user,
                        s->account_host, tbl);
}

bool
plan__can_see(plan_session *s, const char *db, const char *tbl)
{
    if (strcasecmp(db, "information_schema") == 0 || plan__is_admin(s)) {
        return true;
    }
    cat_users *us = cat_meta_users(s->srv->meta);
    return (cat_users_privs(us, s->user, s->account_host, db, tbl) & CAT_PRIV_ALL) != 0;
}

int
plan__check_db_visible(plan_ectx *cx, const char *db, db_error *err)
{
    if (plan__can_see(cx->s, db, NULL)) {
        return DB_OK;
    }
    return plan__check_priv(cx, CAT_PRIV_ALL, db, NULL, err); /* fails: 1044 */
}

/* ======================================================================================
 * Grammar builders
 * ====================================================================================== */

/* The statement's plan_dcl, created by whichever action runs first (Lemon reduces the parts
 * before the statement rule). */
static plan_dcl *
dcl_of(plan_parse *pp)
{
    if (pp->stmt->dcl == NULL) {
        pp->stmt->dcl = arena_calloc(pp->a, 1, sizeof(plan_dcl));
        pp->stmt->dcl->host = "%";
    }
    return pp->stmt->dcl;
}

static void
syntax_error_at(plan_parse *pp, const plan_token *t)
{
    if (!pp->failed) {
        pp->failed = true;
        pp->bad = *t;
    }
}

void
plan_dcl_begin(plan_parse *pp, plan_dcl_kind kind)
{
    dcl_of(pp)->kind = kind;
    plan_stmt_begin(pp, PS_DCL);
}

void
plan_dcl_user(plan_parse *pp, const plan_token *name, const plan_token *host)
{
    plan_dcl *d = dcl_of(pp);
    d->user = plan_ast_ident(pp, name);
    if (host != NULL) {
        d->host = plan_ast_uservar(pp, host)->name; /* @'h', @h, @"h": decoded */
    }
}

void
plan_dcl_password(plan_parse *pp, const plan_token *pw, bool is_hash)
{
    plan_dcl *d = dcl_of(pp);
    size_t len;
    d->password = plan__string_decode(pp->a, pw, pp->no_backslash_escapes, &len);
    d->password_is_hash = is_hash;
}

void
plan_dcl_if_exists(plan_parse *pp)
{
    dcl_of(pp)->if_exists = true;
}

void
plan_dcl_all(plan_parse *pp)
{
    dcl_of(pp)->all = true;
}

void
plan_dcl_priv(plan_parse *pp, const plan_token *word)
{
    static const struct {
        const char *name;
        uint32_t bits;
    } names[] = {
            {"SELECT_PRIV", CAT_PRIV_SELECT},
            {"SELECT", CAT_PRIV_SELECT},
            {"LOAD_PRIV", CAT_PRIV_LOAD},
            {"INSERT", CAT_PRIV_LOAD},
            {"LOAD", CAT_PRIV_LOAD},
            {"ALTER_PRIV", CAT_PRIV_ALTER},
            {"ALTER", CAT_PRIV_ALTER},
            {"CREATE_PRIV", CAT_PRIV_CREATE},
            {"CREATE", CAT_PRIV_CREATE},
            {"DROP_PRIV", CAT_PRIV_DROP},
            {"DROP", CAT_PRIV_DROP},
            {"ADMIN_PRIV", CAT_PRIV_ADMIN},
            {"ALL", DCL_PRIV_ALL},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (str_ieq(word->z, word->n, names[i].name, strlen(names[i].name))) {
            dcl_of(pp)->privs |= names[i].bits;
            return;
        }
    }
    syntax_error_at(pp, word);
}

void
plan_dcl_level(plan_parse *pp, const plan_token *ctl, const plan_token *db, const plan_token *tbl)
{
    plan_dcl *d = dcl_of(pp);
    d->ctl = ctl == NULL ? NULL : ctl->type == TK_STAR ? "*" : plan_ast_ident(pp, ctl);
    d->db = db == NULL ? NULL : db->type == TK_STAR ? "*" : plan_ast_ident(pp, db);
    d->tbl = tbl->type == TK_STAR ? "*" : plan_ast_ident(pp, tbl);
    /* *.t names no database (MySQL: a syntax error at the table). */
    if (d->db != NULL && strcmp(d->db, "*") == 0 && strcmp(d->tbl, "*") != 0) {
        syntax_error_at(pp, tbl);
    }
}

/* ======================================================================================
 * Statements
 * ====================================================================================== */

/* The statement names the session's own account (or no account: SET PASSWORD = ...). */
static bool
is_self(const plan_session *s, const plan_dcl *d)
{
    return d->user == NULL ||
           (strcmp(d->user, s->user) == 0 && strcasecmp(d->host, s->account_host) == 0);
}

/* A mysql_native_password hash as SHOW GRANTS / mysql.user print it: '*' and 40 hex digits. */
static bool
looks_like_hash(const char *pw)
{
    if (pw[0] != '*' || strlen(pw) != 41) {
        return false;
    }
    for (size_t i = 1; i < 41; i++) {
        char c = pw[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
            return false;
        }
    }
    return true;
}

/* ON [ctl.][db.]tbl as the catalog stores it: db and tbl names or "*". */
static int
resolve_level(plan_ectx *cx, const plan_dcl *d, const char **db, const char **tbl, db_error *err)
{
    if (d->ctl != NULL && strcmp(d->ctl, "internal") != 0 && strcmp(d->ctl, "*") != 0) {
        return db_error_set(err, ER_DORIS, arena_sprintf(cx->a, "Unknown catalog '%s'", d->ctl));
    }
    *tbl = d->tbl;
    *db = d->db;
    if (*db == NULL) {
        /* ON * and ON tbl: the current database. */
        if (cx->s->db == NULL) {
            return db_error_set(err, ER_NO_DB_ERROR);
        }
        *db = cx->s->db;
    }
    if ((d->privs & CAT_PRIV_ADMIN) && (strcmp(*db, "*") != 0 || strcmp(*tbl, "*") != 0)) {
        return db_error_set(err, ER_DORIS,
                            "ADMIN_PRIV and NODE_PRIV can only be granted/revoke on/from *.*.*");
    }
    return DB_OK;
}

static int
exec_grant(plan_ectx *cx, const plan_dcl *d, db_error *err)
{
    const char *db = NULL, *tbl = NULL;
    if (plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK ||
        resolve_level(cx, d, &db, &tbl, err) != DB_OK) {
        return DB_ERR;
    }
    return cat_users_grant(cat_meta_users(cx->s->srv->meta), d->user, d->host, d->privs, db, tbl,
                           d->kind == PLAN_DCL_REVOKE, err);
}

/* SET PASSWORD and ALTER USER ... IDENTIFIED BY: one's own account, or ADMIN for others. */
static int
exec_password(plan_ectx *cx, const plan_dcl *d, db_error *err)
{
    plan_session *s = cx->s;
    if (!is_self(s, d) && plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    if (d->password_is_hash || looks_like_hash(d->password)) {
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "a hashed password");
    }
    const char *user = d->user ? d->user : s->user;
    const char *host = d->user ? d->host : s->account_host;
    if (strcmp(user, "root") == 0) {
        /* root's password is root_password in fe.conf. */
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "changing root's password in SQL");
    }
    return cat_users_set_password(cat_meta_users(s->srv->meta), user, host, d->password, err);
}

/* A result set of string columns names[0..ncols) and rows cells[0..nrows*ncols). */
static int
send_rows(plan_ectx *cx, const char *const *names, size_t ncols, const char **cells, size_t nrows,
          const plan_sink *sink, plan_outcome *out, db_error *err)
{
    plan_column *cols = arena_calloc(cx->a, ncols, sizeof *cols);
    for (size_t i = 0; i < ncols; i++) {
        plan_xtype t;
        plan__type_string(&t, 256, false);
        plan__col_init(&cols[i], names[i], &t);
    }
    if (sink->columns(sink->ctx, cols, ncols, err) != DB_OK) {
        return DB_ERR;
    }
    out->is_result_set = true;
    if (cx->describe) {
        return DB_OK;
    }
    plan_cell *row = arena_calloc(cx->a, ncols, sizeof *row);
    for (size_t r = 0; r < nrows; r++) {
        for (size_t i = 0; i < ncols; i++) {
            const char *v = cells[r * ncols + i];
            row[i] = (plan_cell){v, strlen(v), false};
        }
        if (sink->row(sink->ctx, row, ncols, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

/* Append the SHOW GRANTS lines of user@host (root: everything on *.*.*; an account without
 * grants: MySQL's USAGE line) to *lines (arena array). */
static void
grant_lines(plan_ectx *cx, const char *user, const char *host, const char ***lines, size_t *n,
            size_t *cap)
{
    buf b;
    buf_init(&b);
    if (strcmp(user, "root") == 0) {
        buf_printf(&b, "GRANT ");
        for (uint32_t bit = 1; bit <= CAT_PRIV_ADMIN; bit <<= 1) {
            buf_printf(&b, "%s%s", bit == 1 ? "" : ",", cat_priv_name(bit));
        }
        buf_printf(&b, " ON internal.*.* TO 'root'@'%%'");
        buf_put_u8(&b, 0);
    } else {
        cat_users_show_grants(cat_meta_users(cx->s->srv->meta), user, host, &b);
    }
    if (b.len == 0) {
        buf_printf(&b, "GRANT USAGE ON *.* TO '%s'@'%s'", user, host);
        buf_put_u8(&b, 0);
    }
    for (size_t off = 0; off < b.len;) {
        const char *line = (const char *)b.data + off;
        if (*n == *cap) {
            size_t ncap = *cap ? *cap * 2 : 8;
            const char **g = arena_alloc(cx->a, ncap * sizeof *g);
            if (*n) {
                memcpy(g, *lines, *n * sizeof *g);
            }
            *lines = g;
            *cap = ncap;
        }
        (*lines)[(*n)++] = arena_strdup(cx->a, line);
        off += strlen(line) + 1;
    }
    buf_destroy(&b);
}

/* SHOW GRANTS [FOR user]: MySQL's single column "Grants for u@h". SHOW ALL GRANTS (Doris, ADMIN
 * only): UserIdentity and Grants, one row per grant line of every account. */
static int
exec_show_grants(plan_ectx *cx, const plan_dcl *d, const plan_sink *sink, plan_outcome *out,
                 db_error *err)
{
    plan_session *s = cx->s;
    if ((d->all || !is_self(s, d)) &&
        plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    cat_users *us = cat_meta_users(s->srv->meta);
    const char **lines = NULL;
    size_t n = 0, cap = 0;
    if (d->all) {
        static const char *const names[] = {"UserIdentity", "Grants"};
        const char **cells = NULL;
        size_t nrows = 0;
        if (!cx->describe) {
            char(*unames)[64] = mem_alloc(DCL_MAX_USERS * 64);
            char(*hosts)[64] = mem_alloc(DCL_MAX_USERS * 64);
            size_t nu = cat_users_list(us, unames, hosts, DCL_MAX_USERS);
            nu = nu > DCL_MAX_USERS ? DCL_MAX_USERS : nu;
            const char **who = arena_alloc(cx->a, (nu + 1) * 2 * sizeof *who);
            who[0] = "root";
            who[1] = "%";
            for (size_t i = 0; i < nu; i++) {
                who[2 * (i + 1)] = arena_strdup(cx->a, unames[i]);
                who[2 * (i + 1) + 1] = arena_strdup(cx->a, hosts[i]);
            }
            mem_free(unames);
            mem_free(hosts);
            size_t ncap = 0;
            for (size_t i = 0; i <= nu; i++) {
                size_t before = n;
                grant_lines(cx, who[2 * i], who[2 * i + 1], &lines, &n, &cap);
                const char *ident = arena_sprintf(cx->a, "'%s'@'%s'", who[2 * i], who[2 * i + 1]);
                if (nrows + (n - before) > ncap) {
                    ncap = (nrows + (n - before)) * 2;
                    const char **c2 = arena_alloc(cx->a, ncap * 2 * sizeof *c2);
                    if (nrows) {
                        memcpy(c2, cells, nrows * 2 * sizeof *c2);
                    }
                    cells = c2;
                }
                for (size_t k = before; k < n; k++) {
                    cells[2 * nrows] = ident;
                    cells[2 * nrows + 1] = lines[k];
                    nrows++;
                }
            }
        }
        return send_rows(cx, names, 2, cells, nrows, sink, out, err);
    }
    const char *user = d->user ? d->user : s->user;
    const char *host = d->user ? d->host : s->account_host;
    if (strcmp(user, "root") != 0 && !cat_users_exists(us, user, host)) {
        return db_error_set(err, ER_NONEXISTING_GRANT, user, host);
    }
    if (!cx->describe) {
        grant_lines(cx, user, host, &lines, &n, &cap);
    }
    const char *name = arena_sprintf(cx->a, "Grants for %s@%s", user, host);
    return send_rows(cx, &name, 1, lines, n, sink, out, err);
}

/* SHOW USERS (ADMIN only): one column UserIdentity, 'user'@'host' like Doris prints it; root
 * first, then the catalog's accounts sorted. */
static int
exec_show_users(plan_ectx *cx, const plan_sink *sink, plan_outcome *out, db_error *err)
{
    if (plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    static const char *const names[] = {"UserIdentity"};
    const char **cells = NULL;
    size_t n = 0;
    if (!cx->describe) {
        char(*unames)[64] = mem_alloc(DCL_MAX_USERS * 64);
        char(*hosts)[64] = mem_alloc(DCL_MAX_USERS * 64);
        size_t nu = cat_users_list(cat_meta_users(cx->s->srv->meta), unames, hosts, DCL_MAX_USERS);
        nu = nu > DCL_MAX_USERS ? DCL_MAX_USERS : nu;
        cells = arena_alloc(cx->a, (nu + 1) * sizeof *cells);
        cells[n++] = "'root'@'%'";
        for (size_t i = 0; i < nu; i++) {
            cells[n++] = arena_sprintf(cx->a, "'%s'@'%s'", unames[i], hosts[i]);
        }
        mem_free(unames);
        mem_free(hosts);
        for (size_t i = 2; i < n; i++) { /* insertion sort after root */
            for (size_t j = i; j > 1 && strcmp(cells[j - 1], cells[j]) > 0; j--) {
                const char *t = cells[j];
                cells[j] = cells[j - 1];
                cells[j - 1] = t;
            }
        }
    }
    return send_rows(cx, names, 1, cells, n, sink, out, err);
}

int
plan__exec_dcl(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
               db_error *err)
{
    const plan_dcl *d = st->dcl;
    cat_meta *m = cx->s->srv->meta;
    if (cx->describe) {
        /* plan_prepare: only the SHOW statements announce columns. */
        if (d->kind == PLAN_DCL_SHOW_GRANTS) {
            return exec_show_grants(cx, d, sink, out, err);
        }
        if (d->kind == PLAN_DCL_SHOW_USERS) {
            return exec_show_users(cx, sink, out, err);
        }
        return DB_OK;
    }
    cat_users *us = cat_meta_users(m);
    switch (d->kind) {
    case PLAN_DCL_CREATE_USER:
        if (plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK) {
            return DB_ERR;
        }
        if (d->password_is_hash) {
            return db_error_set(err, ER_NOT_SUPPORTED_YET, "IDENTIFIED BY PASSWORD");
        }
        return cat_users_create(us, d->user, d->host, d->password, d->if_exists, err);
    case PLAN_DCL_DROP_USER:
        if (plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK) {
            return DB_ERR;
        }
        return cat_users_drop(us, d->user, d->host, d->if_exists, err);
    case PLAN_DCL_ALTER_USER:
    case PLAN_DCL_SET_PASSWORD:
        return exec_password(cx, d, err);
    case PLAN_DCL_GRANT:
    case PLAN_DCL_REVOKE:
        return exec_grant(cx, d, err);
    case PLAN_DCL_SHOW_GRANTS:
        return exec_show_grants(cx, d, sink, out, err);
    case PLAN_DCL_SHOW_USERS:
        return exec_show_users(cx, sink, out, err);
    }
    return DB_OK;
}
