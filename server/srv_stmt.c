/* SPDX-License-Identifier: Apache-2.0
 * srv_stmt: server-side prepared statements over the binary protocol (COM_STMT_PREPARE,
 * EXECUTE, SEND_LONG_DATA, RESET, CLOSE). The planner keeps the parsed statement; this file keeps
 * what the wire needs between executes (parameter types, long data) and encodes binary rows.
 * Runs on the job's worker. See README.md §Prepared statements. */
#include "server/srv_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"

/* What the wire side remembers of one prepared statement. */
typedef struct srv_stmt {
    uint32_t id;      /* the planner's statement id */
    uint16_t nparams; /* placeholders */
    uint8_t *types;   /* 2 * nparams (type, flags) from the last execute that bound them */
    bool has_types;   /* a client bound types at least once */
    buf **long_data;  /* nparams entries, NULL when no long data was sent for a parameter */
} srv_stmt;

static srv_stmt *find_stmt(srv_conn *c, uint32_t id);
static void drop_long_data(srv_stmt *st);
static void free_stmt(srv_stmt *st);
static void param_to_plan(arena *a, const proto_param *v, plan_param *out);
static int sink_binrow(void *ctx, const plan_cell *cells, size_t ncols, db_error *err);
static void put_temporal(buf *out, const proto_column *col, const char *s, size_t len);

static srv_stmt *
find_stmt(srv_conn *c, uint32_t id)
{
    for (size_t i = 0; i < c->nstmts; i++) {
        if (c->stmts[i].id == id) {
            return &c->stmts[i];
        }
    }
    return NULL;
}

static void
drop_long_data(srv_stmt *st)
{
    if (st->long_data == NULL) {
        return;
    }
    for (uint16_t i = 0; i < st->nparams; i++) {
        if (st->long_data[i] != NULL) {
            buf_destroy(st->long_data[i]);
            mem_free(st->long_data[i]);
            st->long_data[i] = NULL;
        }
    }
}

static void
free_stmt(srv_stmt *st)
{
    drop_long_data(st);
    mem_free(st->long_data);
    mem_free(st->types);
}

void
srv_stmt_forget_all(srv_conn *c)
{
    for (size_t i = 0; i < c->nstmts; i++) {
        if (c->session != NULL) {
            plan_close_prepared(c->session, c->stmts[i].id);
        }
        free_stmt(&c->stmts[i]);
    }
    mem_free(c->stmts);
    c->stmts = NULL;
    c->nstmts = c->cap_stmts = 0;
}

/* ---- COM_STMT_PREPARE ---- */

void
srv_stmt_prepare(srv_conn *c, const uint8_t *p, size_t len)
{
    db_error e = {0};
    uint32_t id = 0;
    uint16_t nparams = 0;
    plan_column *cols = NULL;
    size_t ncols = 0;
    if (plan_prepare(c->session, (const char *)p, len, c->stmt_arena, &id, &nparams, &cols, &ncols,
                     &e) != DB_OK) {
        srv_reply_err(c, &e);
        return;
    }
    if (c->nstmts == c->cap_stmts) {
        c->cap_stmts = c->cap_stmts ? c->cap_stmts * 2 : 4;
        c->stmts = mem_realloc(c->stmts, c->cap_stmts * sizeof *c->stmts);
    }
    srv_stmt *st = &c->stmts[c->nstmts++];
    memset(st, 0, sizeof *st);
    st->id = id;
    st->nparams = nparams;
    st->types = mem_calloc((size_t)nparams + 1, 2);
    st->long_data = mem_calloc((size_t)nparams + 1, sizeof(buf *));

    buf payload;
    buf_init(&payload);
    proto_stmt_prepare_ok_write(&payload, id, (uint16_t)ncols, nparams,
                                plan_session_warning_count(c->session));
    srv_reply_payload(c, &payload);
    buf_destroy(&payload);
    uint16_t status = plan_session_status(c->session);
    if (nparams > 0) {
        /* MySQL describes each placeholder as a binary string named "?". */
        proto_column pc = {.name = "?",
                           .charset = PROTO_CHARSET_BINARY,
                           .type = PROTO_TYPE_VAR_STRING,
                           .flags = PROTO_FLAG_BINARY};
        for (uint16_t i = 0; i < nparams; i++) {
            size_t at = proto_packet_begin(&c->out);
            proto_column_write(&c->out, &pc, false);
            proto_packet_end(&c->out, at, &c->seq);
        }
        if (!(c->caps & PROTO_CLIENT_DEPRECATE_EOF)) {
            srv_reply_eof(c, status);
        }
    }
    if (ncols > 0) {
        for (size_t i = 0; i < ncols; i++) {
            proto_column pc;
            srv_column_to_proto(c, &cols[i], &pc);
            size_t at = proto_packet_begin(&c->out);
            proto_column_write(&c->out, &pc, false);
            proto_packet_end(&c->out, at, &c->seq);
        }
        if (!(c->caps & PROTO_CLIENT_DEPRECATE_EOF)) {
            srv_reply_eof(c, status);
        }
    }
}

/* ---- COM_STMT_EXECUTE ---- */

/* Binary parameter -> planner value. Temporal values become their text form. */
static void
param_to_plan(arena *a, const proto_param *v, plan_param *out)
{
    memset(out, 0, sizeof *out);
    if (v->is_null) {
        out->kind = PLAN_PARAM_NULL;
        return;
    }
    switch (v->type) {
    case PROTO_TYPE_TINY:
    case PROTO_TYPE_SHORT:
    case PROTO_TYPE_YEAR:
    case PROTO_TYPE_LONG:
    case PROTO_TYPE_INT24:
    case PROTO_TYPE_LONGLONG:
        if (v->is_unsigned) {
            out->kind = PLAN_PARAM_UINT;
            out->u = v->u;
        } else {
            out->kind = PLAN_PARAM_INT;
            out->i = v->i;
        }
        return;
    case PROTO_TYPE_FLOAT:
    case PROTO_TYPE_DOUBLE:
        out->kind = PLAN_PARAM_DOUBLE;
        out->d = v->d;
        return;
    case PROTO_TYPE_DATE:
        out->kind = PLAN_PARAM_DATE;
        out->s = arena_sprintf(a, "%04u-%02u-%02u", v->t.year, v->t.month, v->t.day);
        out->len = strlen(out->s);
        return;
    case PROTO_TYPE_DATETIME:
    case PROTO_TYPE_TIMESTAMP:
        out->kind = PLAN_PARAM_DATETIME;
        out->s = v->t.micro
                         ? arena_sprintf(a, "%04u-%02u-%02u %02u:%02u:%02u.%06u", v->t.year,
                                         v->t.month, v->t.day, v->t.hour, v->t.minute, v->t.second,
                                         v->t.micro)
                         : arena_sprintf(a, "%04u-%02u-%02u %02u:%02u:%02u", v->t.year, v->t.month,
                                         v->t.day, v->t.hour, v->t.minute, v->t.second);
        out->len = strlen(out->s);
        return;
    case PROTO_TYPE_TIME: {
        unsigned long long h = (unsigned long long)v->t.days * 24u + v->t.hour;
        out->kind = PLAN_PARAM_TIME;
        out->s = arena_sprintf(a, "%s%02llu:%02u:%02u", v->t.neg ? "-" : "", h, v->t.minute,
                               v->t.second);
        if (v->t.micro) {
            out->s = arena_sprintf(a, "%s.%06u", out->s, v->t.micro);
        }
        out->len = strlen(out->s);
        return;
    }
    case PROTO_TYPE_DECIMAL:
    case PROTO_TYPE_NEWDECIMAL:
        out->kind = PLAN_PARAM_DECIMAL;
        out->s = (const char *)v->s;
        out->len = v->len;
        return;
    case PROTO_TYPE_NULL:
        out->kind = PLAN_PARAM_NULL;
        return;
    default:
        out->kind = PLAN_PARAM_STRING;
        out->s = (const char *)v->s;
        out->len = v->len;
        return;
    }
}

/* "YYYY-MM-DD[ HH:MM:SS[.ffffff]]" or "[-]H:MM:SS[.ffffff]" text -> binary temporal value. */
static void
put_temporal(buf *out, const proto_column *col, const char *s, size_t len)
{
    char tmp[64];
    size_t n = len < sizeof tmp - 1 ? len : sizeof tmp - 1;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    unsigned y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0;
    char frac[8] = {0};
    if (col->type == PROTO_TYPE_TIME) {
        bool neg = tmp[0] == '-';
        unsigned long hours = 0;
        sscanf(tmp + (neg ? 1 : 0), "%lu:%u:%u.%6[0-9]", &hours, &mi, &se, frac);
        unsigned micro = frac[0] ? (unsigned)strtoul(frac, NULL, 10) : 0;
        for (size_t k = strlen(frac); k < 6 && frac[0]; k++) {
            micro *= 10;
        }
        proto_binrow_put_time(out, neg, (uint32_t)(hours / 24), (uint32_t)(hours % 24), mi, se,
                              micro);
        return;
    }
    sscanf(tmp, "%u-%u-%u %u:%u:%u.%6[0-9]", &y, &mo, &d, &h, &mi, &se, frac);
    unsigned micro = frac[0] ? (unsigned)strtoul(frac, NULL, 10) : 0;
    for (size_t k = strlen(frac); k < 6 && frac[0]; k++) {
        micro *= 10;
    }
    proto_binrow_put_datetime(out, y, mo, d, h, mi, se, micro);
}

/* plan_sink.row for the binary protocol: text cells re-encoded by wire type. */
static int
sink_binrow(void *ctx, const plan_cell *cells, size_t ncols, db_error *err)
{
    srv_sink_ctx *k = ctx;
    srv_conn *c = k->conn;
    char tmp[128];
    size_t at = proto_packet_begin(&c->out);
    size_t bitmap = proto_binrow_begin(&c->out, ncols);
    for (size_t i = 0; i < ncols; i++) {
        const proto_column *col = &k->wire[i];
        const plan_cell *cell = &cells[i];
        if (cell->is_null || col->type == PROTO_TYPE_NULL) {
            proto_binrow_set_null(&c->out, bitmap, i);
            continue;
        }
        size_t n = cell->len < sizeof tmp - 1 ? cell->len : sizeof tmp - 1;
        switch (col->type) {
        case PROTO_TYPE_TINY:
        case PROTO_TYPE_SHORT:
        case PROTO_TYPE_LONG:
        case PROTO_TYPE_INT24:
        case PROTO_TYPE_LONGLONG:
        case PROTO_TYPE_YEAR:
            memcpy(tmp, cell->data, n);
            tmp[n] = '\0';
            proto_binrow_put_int(&c->out, col->type,
                                 (col->flags & PROTO_FLAG_UNSIGNED)
                                         ? (uint64_t)strtoull(tmp, NULL, 10)
                                         : (uint64_t)strtoll(tmp, NULL, 10));
            break;
        case PROTO_TYPE_FLOAT:
            memcpy(tmp, cell->data, n);
            tmp[n] = '\0';
            proto_binrow_put_float(&c->out, strtof(tmp, NULL));
            break;
        case PROTO_TYPE_DOUBLE:
            memcpy(tmp, cell->data, n);
            tmp[n] = '\0';
            proto_binrow_put_double(&c->out, strtod(tmp, NULL));
            break;
        case PROTO_TYPE_DATE:
        case PROTO_TYPE_DATETIME:
        case PROTO_TYPE_TIMESTAMP:
        case PROTO_TYPE_TIME:
            put_temporal(&c->out, col, cell->data, cell->len);
            break;
        default:
            proto_binrow_put_str(&c->out, cell->data, cell->len);
            break;
        }
    }
    proto_packet_end(&c->out, at, &c->seq);
    return srv_conn_stream(c, err);
}

void
srv_stmt_execute(srv_conn *c, const uint8_t *p, size_t len)
{
    db_error e = {0};
    uint32_t id = 0;
    uint8_t flags = 0;
    if (proto_stmt_execute_head(p, len, &id, &flags, &e) != DB_OK) {
        srv_reply_err(c, &e);
        return;
    }
    srv_stmt *st = find_stmt(c, id);
    if (st == NULL) {
        char idtext[16];
        snprintf(idtext, sizeof idtext, "%u", id);
        db_error_set(&e, ER_UNKNOWN_STMT_HANDLER, idtext, "mysqld_stmt_execute");
        srv_reply_err(c, &e);
        return;
    }
    proto_param *raw = arena_calloc(c->stmt_arena, (size_t)st->nparams + 1, sizeof *raw);
    plan_param *params = arena_calloc(c->stmt_arena, (size_t)st->nparams + 1, sizeof *params);
    if (proto_stmt_execute_params(p, len, st->nparams, st->types, &st->has_types,
                                  (const buf *const *)st->long_data, raw, &e) != DB_OK) {
        drop_long_data(st);
        srv_reply_err(c, &e);
        return;
    }
    for (uint16_t i = 0; i < st->nparams; i++) {
        param_to_plan(c->stmt_arena, &raw[i], &params[i]);
    }
    atomic_fetch_add(&c->srv->questions, 1);
    srv_sink_ctx k = {.conn = c};
    plan_sink sink = {.ctx = &k, .columns = srv_sink_columns, .row = sink_binrow};
    plan_outcome oc = {0};
    int rc = plan_execute_prepared(c->session, id, params, st->nparams, c->stmt_arena, &sink, &oc,
                                   &e);
    drop_long_data(st); /* long data serves one execute */
    uint16_t status = plan_session_status(c->session);
    if (rc != DB_OK) {
        srv_reply_err(c, &e);
    } else if (k.started) {
        srv_reply_end_result(c, status);
    } else {
        srv_reply_ok(c, oc.affected_rows, oc.last_insert_id, status, oc.info, false);
    }
}

/* ---- COM_STMT_SEND_LONG_DATA, RESET, CLOSE ---- */

void
srv_stmt_long_data(srv_conn *c, const uint8_t *p, size_t len)
{
    db_error e = {0};
    uint32_t id;
    uint16_t param;
    const uint8_t *data;
    size_t n;
    if (proto_stmt_long_data_parse(p, len, &id, &param, &data, &n, &e) != DB_OK) {
        return; /* no reply is defined; a bad packet is dropped (MySQL reports it at execute) */
    }
    srv_stmt *st = find_stmt(c, id);
    if (st == NULL || param >= st->nparams) {
        return;
    }
    if (st->long_data[param] == NULL) {
        st->long_data[param] = mem_alloc(sizeof(buf));
        buf_init(st->long_data[param]);
    }
    buf_append(st->long_data[param], data, n);
}

void
srv_stmt_reset(srv_conn *c, const uint8_t *p, size_t len)
{
    db_error e = {0};
    uint32_t id;
    if (proto_stmt_id_parse(p, len, &id, &e) != DB_OK) {
        srv_reply_err(c, &e);
        return;
    }
    srv_stmt *st = find_stmt(c, id);
    if (st == NULL) {
        char idtext[16];
        snprintf(idtext, sizeof idtext, "%u", id);
        db_error_set(&e, ER_UNKNOWN_STMT_HANDLER, idtext, "mysqld_stmt_reset");
        srv_reply_err(c, &e);
        return;
    }
    drop_long_data(st);
    srv_reply_ok(c, 0, 0, plan_session_status(c->session), NULL, false);
}

void
srv_stmt_close(srv_conn *c, const uint8_t *p, size_t len)
{
    db_error e = {0};
    uint32_t id;
    if (proto_stmt_id_parse(p, len, &id, &e) != DB_OK) {
        return; /* COM_STMT_CLOSE has no reply */
    }
    for (size_t i = 0; i < c->nstmts; i++) {
        if (c->stmts[i].id == id) {
            plan_close_prepared(c->session, id);
            free_stmt(&c->stmts[i]);
            c->stmts[i] = c->stmts[--c->nstmts];
            return;
        }
    }
}
