/* SPDX-License-Identifier: Apache-2.0
 * srv_command: the worker-thread half of a connection. Authentication (handshake response,
 * auth switch, COM_CHANGE_USER) and the COM_* commands; COM_QUERY runs each statement of a
 * multi-statement text through the planner, encoding result sets as it goes. Runs on a worker
 * with the connection's job; touches only the conn fields the job owns. See README.md. */
#include "server/srv_int.h"

#include <stdio.h>
#include <string.h>

#include "common/log.h"

#define NATIVE_PLUGIN "mysql_native_password"

static int sink_row(void *ctx, const plan_cell *cells, size_t ncols, db_error *err);
static bool check_password(srv_conn *c, const char *user, const uint8_t *token, size_t len,
                           char *account_host, size_t cap);
static void login(srv_conn *c, const char *user, const uint8_t *token, size_t len, const char *db,
                  uint8_t collation);
static void do_handshake(srv_conn *c);
static void do_auth_switch(srv_conn *c);
static void do_query(srv_conn *c, const char *sql, size_t len);
static void do_field_list(srv_conn *c, const uint8_t *p, size_t len);
static void do_statistics(srv_conn *c);
static void do_change_user(srv_conn *c, const uint8_t *p, size_t len);
static void do_command(srv_conn *c);
static void set_user(srv_conn *c, const char *user);

/* ==== reply helpers ==== */

void
srv_reply_payload(srv_conn *c, const buf *payload)
{
    proto_packet_write(&c->out, payload->data, payload->len, &c->seq);
}

void
srv_reply_ok(srv_conn *c, uint64_t affected, uint64_t last_id, uint16_t status, const char *info,
             bool is_eof)
{
    proto_ok ok = {
            .affected_rows = affected,
            .last_insert_id = last_id,
            .status = status,
            .warnings = c->session != NULL ? plan_session_warning_count(c->session) : 0,
            .info = info,
            .is_eof = is_eof,
    };
    size_t at = proto_packet_begin(&c->out);
    proto_ok_write(&c->out, &ok, c->caps | PROTO_CLIENT_PROTOCOL_41);
    proto_packet_end(&c->out, at, &c->seq);
}

void
srv_reply_err(srv_conn *c, const db_error *e)
{
    size_t at = proto_packet_begin(&c->out);
    proto_err_write(&c->out, e);
    proto_packet_end(&c->out, at, &c->seq);
}

void
srv_reply_eof(srv_conn *c, uint16_t status)
{
    size_t at = proto_packet_begin(&c->out);
    proto_eof_write(&c->out, c->session != NULL ? plan_session_warning_count(c->session) : 0,
                    status);
    proto_packet_end(&c->out, at, &c->seq);
}

/* The packet that ends a result set: EOF, or an OK with the EOF header under DEPRECATE_EOF. */
void
srv_reply_end_result(srv_conn *c, uint16_t status)
{
    if (c->caps & PROTO_CLIENT_DEPRECATE_EOF) {
        srv_reply_ok(c, 0, 0, status, NULL, true);
    } else {
        srv_reply_eof(c, status);
    }
}

/* ==== result sets ==== */

static uint32_t
mbmaxlen(uint16_t collation)
{
    switch (collation) {
    case PROTO_CHARSET_BINARY:
    case 8:  /* latin1_swedish_ci */
    case 11: /* ascii_general_ci */
        return 1;
    case PROTO_CHARSET_UTF8MB3_GENERAL_CI:
    case 83: /* utf8mb3_bin */
    case 192:
        return 3;
    default:
        return 4;
    }
}

/* Map the planner's column to a wire column definition (types and flags as MySQL reports). */
void
srv_column_to_proto(const srv_conn *c, const plan_column *pc, proto_column *out)
{
    uint16_t coll = plan_session_result_collation(c->session);
    bool numeric = true;
    memset(out, 0, sizeof *out);
    out->schema = pc->schema;
    out->table = pc->table;
    out->org_table = pc->org_table;
    out->name = pc->name;
    out->org_name = pc->org_name;
    out->length = pc->length;
    out->decimals = 0;
    switch (pc->type) {
    case PLAN_TYPE_NULL:
        out->type = PROTO_TYPE_NULL;
        numeric = false;
        break;
    case PLAN_TYPE_BOOLEAN:
    case PLAN_TYPE_TINYINT:
        out->type = PROTO_TYPE_TINY;
        break;
    case PLAN_TYPE_SMALLINT:
        out->type = PROTO_TYPE_SHORT;
        break;
    case PLAN_TYPE_INT:
        out->type = PROTO_TYPE_LONG;
        break;
    case PLAN_TYPE_BIGINT:
        out->type = PROTO_TYPE_LONGLONG;
        break;
    case PLAN_TYPE_LARGEINT:
        out->type = PROTO_TYPE_NEWDECIMAL;
        break;
    case PLAN_TYPE_FLOAT:
        out->type = PROTO_TYPE_FLOAT;
        out->decimals = pc->scale;
        break;
    case PLAN_TYPE_DOUBLE:
        out->type = PROTO_TYPE_DOUBLE;
        out->decimals = pc->scale;
        break;
    case PLAN_TYPE_DECIMAL:
        out->type = PROTO_TYPE_NEWDECIMAL;
        out->decimals = pc->scale;
        break;
    case PLAN_TYPE_DATE:
        out->type = PROTO_TYPE_DATE;
        numeric = false;
        break;
    case PLAN_TYPE_DATETIME:
        out->type = PROTO_TYPE_DATETIME;
        out->decimals = pc->scale == 31 ? 0 : pc->scale;
        numeric = false;
        break;
    case PLAN_TYPE_TIME:
        out->type = PROTO_TYPE_TIME;
        out->decimals = pc->scale == 31 ? 0 : pc->scale;
        numeric = false;
        break;
    case PLAN_TYPE_CHAR:
        out->type = PROTO_TYPE_STRING;
        numeric = false;
        break;
    case PLAN_TYPE_JSON: /* Doris sends JSONB columns as MYSQL_TYPE_JSON, as text */
        out->type = PROTO_TYPE_JSON;
        numeric = false;
        break;
    case PLAN_TYPE_ARRAY: /* Doris's FE types ARRAY results MYSQL_TYPE_STRING: text */
        out->type = PROTO_TYPE_STRING;
        numeric = false;
        break;
    case PLAN_TYPE_VARCHAR:
    case PLAN_TYPE_STRING:
    default:
        out->type = PROTO_TYPE_VAR_STRING;
        numeric = false;
        break;
    }
    bool is_string = out->type == PROTO_TYPE_STRING || out->type == PROTO_TYPE_VAR_STRING ||
                     out->type == PROTO_TYPE_JSON;
    if (is_string && !pc->is_binary) {
        out->charset = coll;
        uint64_t len = (uint64_t)pc->length * mbmaxlen(coll);
        out->length = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
        out->decimals = 31;
    } else {
        out->charset = PROTO_CHARSET_BINARY;
        if (is_string) {
            out->flags |= PROTO_FLAG_BINARY;
            out->decimals = 31;
        }
    }
    if (numeric) {
        out->flags |= PROTO_FLAG_NUM | PROTO_FLAG_BINARY;
    } else if (out->type == PROTO_TYPE_DATE || out->type == PROTO_TYPE_DATETIME ||
               out->type == PROTO_TYPE_TIME) {
        out->flags |= PROTO_FLAG_BINARY;
    }
    if (!pc->nullable) {
        out->flags |= PROTO_FLAG_NOT_NULL;
    }
    if (pc->is_unsigned) {
        out->flags |= PROTO_FLAG_UNSIGNED;
    }
}

int
srv_sink_columns(void *ctx, const plan_column *cols, size_t ncols, db_error *err)
{
    srv_sink_ctx *k = ctx;
    srv_conn *c = k->conn;
    size_t at = proto_packet_begin(&c->out);
    proto_lenenc_int_put(&c->out, ncols);
    proto_packet_end(&c->out, at, &c->seq);
    k->wire = arena_calloc(c->stmt_arena, ncols ? ncols : 1, sizeof(proto_column));
    for (size_t i = 0; i < ncols; i++) {
        srv_column_to_proto(c, &cols[i], &k->wire[i]);
        at = proto_packet_begin(&c->out);
        proto_column_write(&c->out, &k->wire[i], false);
        proto_packet_end(&c->out, at, &c->seq);
    }
    if (!(c->caps & PROTO_CLIENT_DEPRECATE_EOF)) {
        srv_reply_eof(c, plan_session_status(c->session));
    }
    k->started = true;
    k->ncols = ncols;
    return DB_OK;
}

static int
sink_row(void *ctx, const plan_cell *cells, size_t ncols, db_error *err)
{
    srv_sink_ctx *k = ctx;
    srv_conn *c = k->conn;
    size_t at = proto_packet_begin(&c->out);
    for (size_t i = 0; i < ncols; i++) {
        if (cells[i].is_null) {
            proto_row_put_null(&c->out);
        } else {
            proto_row_put_text(&c->out, cells[i].data, cells[i].len);
        }
    }
    proto_packet_end(&c->out, at, &c->seq);
    return srv_conn_stream(c, err);
}

/* ==== authentication ==== */

static void
set_user(srv_conn *c, const char *user)
{
    pthread_mutex_lock(&c->srv->conns_lock);
    snprintf(c->user, sizeof c->user, "%s", user);
    pthread_mutex_unlock(&c->srv->conns_lock);
}

/* root is built in (root_password of fe.conf); every other account lives in the catalog.
 * account_host receives the host part of the matching account ('%' for root). */
static bool
check_password(srv_conn *c, const char *user, const uint8_t *token, size_t len, char *account_host,
               size_t cap)
{
    const srv_server *s = c->srv;
    if (strcmp(user, "root") == 0) {
        snprintf(account_host, cap, "%%");
        return proto_native_check(c->scramble, s->root_stage2, s->root_has_password, token, len);
    }
    uint8_t stage2[20];
    bool has_password = false;
    if (!cat_users_login(cat_meta_users(s->meta), user, c->peer_host, stage2, &has_password,
                         account_host, cap)) {
        return false;
    }
    return proto_native_check(c->scramble, stage2, has_password, token, len);
}

/* Verify the token; on success create (or reset) the session, switch database, answer OK. */
static void
login(srv_conn *c, const char *user, const uint8_t *token, size_t len, const char *db,
      uint8_t collation)
{
    db_error e = {0};
    char account_host[64];
    if (!check_password(c, user, token, len, account_host, sizeof account_host)) {
        db_error_set(&e, ER_ACCESS_DENIED_ERROR, user, c->peer_host, len > 0 ? "YES" : "NO");
        log_info("conn %llu: access denied for '%s'@'%s'", (unsigned long long)c->id, user,
                 c->peer_host);
        srv_reply_err(c, &e);
        c->quit = true;
        return;
    }
    if (c->session == NULL) {
        plan_session_init si = {
                .conn_id = c->id,
                .user = user,
                .host = c->peer_host,
                .account_host = account_host,
                .db = NULL,
                .collation = collation,
        };
        c->session = plan_session_new(c->srv->plan, &si);
    } else {
        srv_stmt_forget_all(c);
        plan_session_reset(c->session, user, c->peer_host);
    }
    if (db != NULL && db[0] != '\0' && plan_session_use_db(c->session, db, &e) != DB_OK) {
        srv_reply_err(c, &e);
        c->quit = true;
        return;
    }
    set_user(c, user);
    srv_conn_set_db(c, plan_session_db(c->session));
    srv_conn_set_command(c, "Sleep", NULL, 0);
    c->state = SRV_CONN_COMMAND;
    srv_reply_ok(c, 0, 0, plan_session_status(c->session), NULL, false);
}

static void
do_handshake(srv_conn *c)
{
    proto_handshake_response hr;
    db_error e = {0};
    if (proto_handshake_response_parse(c->pkt.payload, c->pkt.len, c->conn_arena, &hr, &e) !=
        DB_OK) {
        srv_reply_err(c, &e); /* 1043 Bad handshake, or 1251 for pre-4.1 clients */
        c->quit = true;
        return;
    }
    if (hr.is_ssl_request || !(hr.capabilities & PROTO_CLIENT_PROTOCOL_41)) {
        db_error_set(&e, ER_HANDSHAKE_ERROR);
        srv_reply_err(c, &e);
        c->quit = true;
        return;
    }
    c->caps = hr.capabilities & srv_server_caps(c->srv);
    c->auth_db = hr.database;
    c->auth_collation = hr.charset;
    snprintf(c->pending_user, sizeof c->pending_user, "%s", hr.user);
    if (hr.auth_plugin != NULL && strcmp(hr.auth_plugin, NATIVE_PLUGIN) != 0 &&
        (c->caps & PROTO_CLIENT_PLUGIN_AUTH)) {
        /* caching_sha2_password and friends: ask for mysql_native_password instead. */
        buf payload;
        buf_init(&payload);
        proto_auth_switch_write(&payload, NATIVE_PLUGIN, c->scramble);
        srv_reply_payload(c, &payload);
        buf_destroy(&payload);
        c->state = SRV_CONN_AUTH_SWITCH;
        return;
    }
    login(c, hr.user, hr.auth, hr.auth_len, hr.database, hr.charset);
}

static void
do_auth_switch(srv_conn *c)
{
    login(c, c->pending_user, c->pkt.payload, c->pkt.len, c->auth_db, c->auth_collation);
}

static void
do_change_user(srv_conn *c, const uint8_t *p, size_t len)
{
    proto_change_user cu;
    db_error e = {0};
    if (proto_change_user_parse(p, len, c->caps, c->conn_arena, &cu, &e) != DB_OK) {
        srv_reply_err(c, &e);
        c->quit = true;
        return;
    }
    uint8_t coll = cu.charset != 0 ? (uint8_t)cu.charset : c->auth_collation;
    c->auth_db = cu.database;
    c->auth_collation = coll;
    snprintf(c->pending_user, sizeof c->pending_user, "%s", cu.user);
    if (cu.auth_plugin != NULL && strcmp(cu.auth_plugin, NATIVE_PLUGIN) != 0) {
        proto_scramble_generate(c->scramble);
        buf payload;
        buf_init(&payload);
        proto_auth_switch_write(&payload, NATIVE_PLUGIN, c->scramble);
        srv_reply_payload(c, &payload);
        buf_destroy(&payload);
        c->state = SRV_CONN_AUTH_SWITCH;
        return;
    }
    login(c, cu.user, cu.auth, cu.auth_len, cu.database, coll);
}

/* ==== commands ==== */

/* Run each statement of sql[0..len); stop at the first error (as MySQL does). */
static void
do_query(srv_conn *c, const char *sql, size_t len)
{
    atomic_fetch_add(&c->srv->questions, 1);
    srv_conn_set_command(c, "Query", sql, len);
    bool multi = (c->caps & PROTO_CLIENT_MULTI_STATEMENTS) != 0;
    size_t off = 0;
    for (;;) {
        size_t n = multi ? plan_statement_split(sql + off, len - off) : len - off;
        bool more = multi && off + n < len && !plan_is_blank(sql + off + n, len - off - n);
        srv_sink_ctx k = {.conn = c};
        plan_sink sink = {.ctx = &k, .columns = srv_sink_columns, .row = sink_row};
        plan_outcome oc = {0};
        db_error e = {0};
        int rc = plan_execute_multi(c->session, sql + off, len - off, n, c->stmt_arena, &sink, &oc,
                                    &e);
        uint16_t status = plan_session_status(c->session);
        if (more) {
            status |= PROTO_STATUS_MORE_RESULTS_EXISTS;
        }
        if (rc != DB_OK) {
            log_debug("conn %llu: statement failed: %d %s", (unsigned long long)c->id, e.code,
                      e.msg);
            srv_reply_err(c, &e);
            break;
        }
        if (k.started) {
            srv_reply_end_result(c, status);
        } else {
            srv_reply_ok(c, oc.affected_rows, oc.last_insert_id, status, oc.info, false);
        }
        arena_reset(c->stmt_arena);
        if (!more) {
            break;
        }
        off += n;
    }
    srv_conn_set_db(c, plan_session_db(c->session));
    srv_conn_set_command(c, "Sleep", NULL, 0);
}

static void
do_field_list(srv_conn *c, const uint8_t *p, size_t len)
{
    const char *table = NULL, *wild = NULL;
    db_error e = {0};
    plan_column *cols = NULL;
    size_t ncols = 0;
    if (proto_field_list_parse(p, len, c->stmt_arena, &table, &wild, &e) != DB_OK ||
        plan_field_list(c->session, table, wild, c->stmt_arena, &cols, &ncols, &e) != DB_OK) {
        srv_reply_err(c, &e);
        return;
    }
    for (size_t i = 0; i < ncols; i++) {
        proto_column pcol;
        srv_column_to_proto(c, &cols[i], &pcol);
        size_t at = proto_packet_begin(&c->out);
        proto_column_write(&c->out, &pcol, true);
        proto_packet_end(&c->out, at, &c->seq);
    }
    srv_reply_end_result(c, plan_session_status(c->session));
}

static void
do_statistics(srv_conn *c)
{
    srv_server *s = c->srv;
    uint64_t up = (srv_now_ms() - s->start_ms) / 1000u;
    pthread_mutex_lock(&s->conns_lock);
    int threads = s->nconns;
    pthread_mutex_unlock(&s->conns_lock);
    uint64_t q = atomic_load(&s->questions);
    buf payload;
    buf_init(&payload);
    buf_printf(&payload,
               "Uptime: %llu  Threads: %d  Questions: %llu  Slow queries: 0  Opens: 0  "
               "Flush tables: 1  Open tables: 0  Queries per second avg: %.3f",
               (unsigned long long)up, threads, (unsigned long long)q,
               up > 0 ? (double)q / (double)up : (double)q);
    srv_reply_payload(c, &payload);
    buf_destroy(&payload);
}

static void
do_command(srv_conn *c)
{
    db_error e = {0};
    if (c->pkt.len == 0) {
        db_error_set(&e, ER_UNKNOWN_COM_ERROR);
        srv_reply_err(c, &e);
        return;
    }
    uint8_t cmd = c->pkt.payload[0];
    const uint8_t *p = c->pkt.payload + 1;
    size_t len = c->pkt.len - 1;
    switch (cmd) {
    case PROTO_COM_QUIT:
        c->quit = true;
        return;
    case PROTO_COM_QUERY:
        do_query(c, (const char *)p, len);
        return;
    case PROTO_COM_INIT_DB: {
        char *db = arena_strndup(c->stmt_arena, (const char *)p, len);
        if (plan_session_use_db(c->session, db, &e) != DB_OK) {
            srv_reply_err(c, &e);
            return;
        }
        srv_conn_set_db(c, plan_session_db(c->session));
        srv_reply_ok(c, 0, 0, plan_session_status(c->session), NULL, false);
        return;
    }
    case PROTO_COM_PING:
        srv_reply_ok(c, 0, 0, plan_session_status(c->session), NULL, false);
        return;
    case PROTO_COM_FIELD_LIST:
        do_field_list(c, p, len);
        return;
    case PROTO_COM_STATISTICS:
        do_statistics(c);
        return;
    case PROTO_COM_PROCESS_KILL: {
        /* The same statement as KILL CONNECTION id, so the privilege rules are the planner's. */
        uint32_t id = 0;
        if (proto_process_kill_parse(p, len, &id, &e) != DB_OK) {
            srv_reply_err(c, &e);
            return;
        }
        char sql[48];
        int n = snprintf(sql, sizeof sql, "KILL CONNECTION %u", id);
        srv_sink_ctx k = {.conn = c};
        plan_sink sink = {.ctx = &k, .columns = srv_sink_columns, .row = sink_row};
        plan_outcome oc = {0};
        if (plan_execute(c->session, sql, (size_t)n, c->stmt_arena, &sink, &oc, &e) != DB_OK) {
            srv_reply_err(c, &e);
            return;
        }
        srv_reply_ok(c, 0, 0, plan_session_status(c->session), NULL, false);
        return;
    }
    case PROTO_COM_SET_OPTION: {
        uint16_t opt = 0;
        if (proto_set_option_parse(p, len, &opt, &e) != DB_OK) {
            srv_reply_err(c, &e);
            return;
        }
        if (opt == 0) {
            c->caps |= PROTO_CLIENT_MULTI_STATEMENTS;
        } else if (opt == 1) {
            c->caps &= ~PROTO_CLIENT_MULTI_STATEMENTS;
        } else {
            db_error_set(&e, ER_UNKNOWN_COM_ERROR);
            srv_reply_err(c, &e);
            return;
        }
        srv_reply_eof(c, plan_session_status(c->session));
        return;
    }
    case PROTO_COM_RESET_CONNECTION:
        srv_stmt_forget_all(c);
        plan_session_reset(c->session, NULL, NULL);
        srv_conn_set_db(c, plan_session_db(c->session));
        srv_reply_ok(c, 0, 0, plan_session_status(c->session), NULL, false);
        return;
    case PROTO_COM_CHANGE_USER:
        do_change_user(c, p, len);
        return;
    case PROTO_COM_STMT_PREPARE:
        srv_stmt_prepare(c, p, len);
        return;
    case PROTO_COM_STMT_EXECUTE:
        srv_stmt_execute(c, p, len);
        return;
    case PROTO_COM_STMT_SEND_LONG_DATA:
        srv_stmt_long_data(c, p, len); /* never answered */
        return;
    case PROTO_COM_STMT_CLOSE:
        srv_stmt_close(c, p, len); /* never answered */
        return;
    case PROTO_COM_STMT_RESET:
        srv_stmt_reset(c, p, len);
        return;
    case PROTO_COM_STMT_FETCH:
        db_error_set(&e, ER_NOT_SUPPORTED_YET, "cursors (COM_STMT_FETCH)");
        srv_reply_err(c, &e);
        return;
    default:
        db_error_set(&e, ER_UNKNOWN_COM_ERROR);
        srv_reply_err(c, &e);
        return;
    }
}

void
srv_command_run(srv_job *job)
{
    srv_conn *c = (srv_conn *)((char *)job - offsetof(srv_conn, job));
    switch (c->state) {
    case SRV_CONN_HANDSHAKE:
        do_handshake(c);
        break;
    case SRV_CONN_AUTH_SWITCH:
        do_auth_switch(c);
        break;
    case SRV_CONN_COMMAND:
        do_command(c);
        break;
    default:
        break;
    }
}
