/* SPDX-License-Identifier: Apache-2.0
 * plan_func.c: the built-in function table. Each row: name, argument count range, and a type
 * rule that sets the result type and the evaluation function. Strings are UTF-8 and counted in
 * characters where MySQL counts characters. See README.md §Functions. */
#include "planner/plan_func_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/strutil.h"

#define US_PER_SEC 1000000LL

static bool arg_str(plan_ectx *cx, const plan_expr *e, uint32_t i, const char **s, size_t *len,
                    bool *is_null, db_error *err, int *rc);
static int arg_int(plan_ectx *cx, const plan_expr *e, uint32_t i, int64_t *v, bool *is_null,
                   db_error *err);
static bool too_big(plan_ectx *cx, const char *fn, size_t bytes);
static int const_fsp(plan_ectx *cx, plan_expr *e, const char *fn, int *fsp, db_error *err);

/* Evaluate argument i as a string. Returns false when the caller must return (rc says how). */
static bool
arg_str(plan_ectx *cx, const plan_expr *e, uint32_t i, const char **s, size_t *len, bool *is_null,
        db_error *err, int *rc)
{
    plan_value v;
    if (plan__eval(cx, e->args[i], &v, err) != DB_OK) {
        *rc = DB_ERR;
        return false;
    }
    *is_null = !plan__v_string(cx, &v, s, len);
    return true;
}

static int
arg_int(plan_ectx *cx, const plan_expr *e, uint32_t i, int64_t *v, bool *is_null, db_error *err)
{
    plan_value x;
    if (plan__eval(cx, e->args[i], &x, err) != DB_OK) {
        return DB_ERR;
    }
    *is_null = x.kind == PV_NULL;
    *v = *is_null ? 0 : plan__v_to_int(&x, NULL);
    return DB_OK;
}

/* Results longer than max_allowed_packet are NULL with warning 1301, as MySQL. */
static bool
too_big(plan_ectx *cx, const char *fn, size_t bytes)
{
    if ((int64_t)bytes > cx->max_packet) {
        plan__warn(cx->s, 1301,
                   "Result of %s() was larger than max_allowed_packet (%lld) - truncated", fn,
                   (long long)cx->max_packet);
        return true;
    }
    return false;
}

/* The fractional-seconds argument of NOW(fsp) and friends: a constant 0..6. */
static int
const_fsp(plan_ectx *cx, plan_expr *e, const char *fn, int *fsp, db_error *err)
{
    *fsp = 0;
    if (e->nargs == 0) {
        return DB_OK;
    }
    plan_value v;
    if (!e->args[0]->src || e->args[0]->src->kind != PA_INT ||
        plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return db_error_set(err, ER_WRONG_ARGUMENTS, fn);
    }
    int64_t n = plan__v_to_int(&v, NULL);
    if (n < 0 || n > 6 || v.is_unsigned) {
        return db_error_set(err, ER_TOO_BIG_PRECISION,
                            (int)(n > 1000000 || v.is_unsigned ? 1000000 : n), fn, 6);
    }
    *fsp = (int)n;
    return DB_OK;
}

/* ---- information functions ---- */

static int
ev_database(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)e;
    (void)err;
    const char *db = plan_session_db(cx->s);
    *out = db ? plan__v_str(db, strlen(db)) : plan__v_null();
    return DB_OK;
}

static int
ty_database(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    plan__type_string(&e->t, 34, true);
    e->vk = PV_STRING;
    e->eval = ev_database;
    return DB_OK;
}

static int
ev_user(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)err;
    const char *u = cx->s->user ? cx->s->user : "";
    /* CURRENT_USER(): the account (user@account_host); USER(): who connected from where. */
    const char *h = strcmp(e->name, "current_user") == 0 ? cx->s->account_host
                                                         : (cx->s->host ? cx->s->host : "");
    char *s = arena_sprintf(cx->a, "%s@%s", u, h);
    *out = plan__v_str(s, strlen(s));
    return DB_OK;
}

static int
ty_user(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    plan__type_string(&e->t, 93, false);
    e->vk = PV_STRING;
    e->eval = ev_user;
    return DB_OK;
}

static int
ev_version(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)e;
    int idx = plan__sysvar_find("version");
    return plan__sysvar_read(cx, idx, PLAN_SCOPE_GLOBAL, out, NULL, err);
}

static int
ty_version(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    plan__type_string(&e->t, 60, false);
    e->vk = PV_STRING;
    e->eval = ev_version;
    return DB_OK;
}

static int
ev_info_int(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_session *s = cx->s;
    if (strcmp(e->name, "connection_id") == 0) {
        *out = plan__v_uint(s->conn_id);
    } else if (strcmp(e->name, "row_count") == 0) {
        *out = plan__v_int(s->row_count);
    } else if (strcmp(e->name, "found_rows") == 0) {
        *out = plan__v_uint(s->found_rows);
    } else if (e->nargs == 1) { /* LAST_INSERT_ID(expr): sets and returns it */
        plan_value v;
        if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (v.kind == PV_NULL) {
            *out = plan__v_null();
            return DB_OK;
        }
        s->last_insert_id = plan__v_to_uint(&v, NULL);
        *out = plan__v_uint(s->last_insert_id);
    } else {
        *out = plan__v_uint(s->last_insert_id);
    }
    return DB_OK;
}

static int
ty_info_int(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    bool uns = strcmp(e->name, "row_count") != 0;
    plan__type_bigint(&e->t, uns ? 20 : 21, e->nargs == 1 && plan__nullable_args(e));
    e->t.is_unsigned = uns;
    e->vk = PV_INT;
    e->eval = ev_info_int;
    return DB_OK;
}

/* CURRENT_TSO(): the catalog's last allocated (or, before any allocation, the highest
 * reserved) TSO, cat_tso_current: a BIGINT that allocates nothing. Without a catalog: 1235. */
static int
ev_current_tso(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)e;
    int64_t tso;
    if (plan__current_tso(cx->s, &tso, err) != DB_OK) {
        return DB_ERR;
    }
    *out = plan__v_int(tso);
    return DB_OK;
}

static int
ty_current_tso(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    plan__type_bigint(&e->t, 20, false);
    e->vk = PV_INT;
    e->eval = ev_current_tso;
    return DB_OK;
}

/* ---- date and time ---- */

static int
ev_now(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)err;
    int64_t us = e->op == 1 ? cx->now_utc_us : cx->now_us;
    if (strcmp(e->name, "sysdate") == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        int64_t utc = (int64_t)ts.tv_sec * US_PER_SEC + ts.tv_nsec / 1000;
        us = utc + plan__tz_offset(cx->s, ts.tv_sec) * US_PER_SEC;
    }
    int64_t unit = 1;
    for (int k = e->t.scale; k < 6; k++) {
        unit *= 10;
    }
    us -= us % unit;
    *out = plan__v_null();
    out->scale = e->t.scale;
    int64_t day = 86400LL * US_PER_SEC;
    switch (e->vk) {
    case PV_DATE:
        out->kind = PV_DATE;
        out->us = us - us % day;
        break;
    case PV_TIME:
        out->kind = PV_TIME;
        out->us = us % day;
        break;
    default:
        out->kind = PV_DATETIME;
        out->us = us;
        break;
    }
    return DB_OK;
}

static int
ty_datetime_fn(plan_ectx *cx, plan_expr *e, db_error *err, plan_type type, bool utc)
{
    int fsp;
    if (type != PLAN_TYPE_DATE && const_fsp(cx, e, e->name, &fsp, err) != DB_OK) {
        return DB_ERR;
    }
    if (type == PLAN_TYPE_DATE) {
        fsp = 0;
    }
    plan__type_datetime(&e->t, type, fsp, false);
    e->vk = type == PLAN_TYPE_DATE ? PV_DATE : (type == PLAN_TYPE_TIME ? PV_TIME : PV_DATETIME);
    e->op = utc;
    e->eval = ev_now;
    return DB_OK;
}

static int
ty_now(plan_ectx *cx, plan_expr *e, db_error *err)
{
    return ty_datetime_fn(cx, e, err, PLAN_TYPE_DATETIME, false);
}

static int
ty_utc_timestamp(plan_ectx *cx, plan_expr *e, db_error *err)
{
    return ty_datetime_fn(cx, e, err, PLAN_TYPE_DATETIME, true);
}

static int
ty_curdate(plan_ectx *cx, plan_expr *e, db_error *err)
{
    return ty_datetime_fn(cx, e, err, PLAN_TYPE_DATE, false);
}

static int
ty_utc_date(plan_ectx *cx, plan_expr *e, db_error *err)
{
    return ty_datetime_fn(cx, e, err, PLAN_TYPE_DATE, true);
}

static int
ty_curtime(plan_ectx *cx, plan_expr *e, db_error *err)
{
    return ty_datetime_fn(cx, e, err, PLAN_TYPE_TIME, false);
}

static int
ty_utc_time(plan_ectx *cx, plan_expr *e, db_error *err)
{
    return ty_datetime_fn(cx, e, err, PLAN_TYPE_TIME, true);
}

static int
ev_unix_timestamp(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    if (e->nargs == 0) {
        *out = plan__v_uint((uint64_t)(cx->now_utc_us / US_PER_SEC));
        return DB_OK;
    }
    plan_value v, dt;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    plan_cast c = {PLAN_CAST_DATETIME, -1, 6, PLAN_TYPE_NULL, false};
    if (v.kind != PV_DATETIME && v.kind != PV_DATE) {
        if (v.kind == PV_NULL || plan__v_cast(cx, &v, &c, &dt, err) != DB_OK ||
            dt.kind == PV_NULL) {
            *out = plan__v_null();
            return DB_OK;
        }
        v = dt;
    }
    int64_t local_s = v.us / US_PER_SEC;
    int64_t utc = local_s - plan__tz_offset(cx->s, local_s);
    utc = utc - (plan__tz_offset(cx->s, utc) - plan__tz_offset(cx->s, local_s));
    *out = plan__v_int(utc < 0 ? 0 : utc);
    return DB_OK;
}

static int
ty_unix_timestamp(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    plan__type_bigint(&e->t, 11, e->nargs > 0);
    e->vk = PV_INT;
    e->eval = ev_unix_timestamp;
    return DB_OK;
}

static int
ev_sleep(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    double secs = v.kind == PV_NULL ? 0 : plan__v_to_double(&v, NULL);
    if (secs < 0 || isnan(secs)) {
        return db_error_set(err, ER_WRONG_ARGUMENTS, "sleep.");
    }
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (plan__check_interrupt(cx->s, err) != DB_OK) {
            return DB_ERR;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        double elapsed =
                (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
        double left = secs - elapsed;
        if (left <= 0) {
            break;
        }
        double step = left < 0.1 ? left : 0.1; /* check KILL QUERY at least every 100 ms */
        struct timespec ts = {(time_t)step, (long)((step - (double)(time_t)step) * 1e9)};
        nanosleep(&ts, NULL);
    }
    *out = plan__v_int(0);
    return DB_OK;
}

static int
ty_sleep(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    plan__type_bigint(&e->t, 21, false);
    e->vk = PV_INT;
    e->eval = ev_sleep;
    return DB_OK;
}

/* ---- string functions ---- */

static int
ev_concat(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    bool ws = e->op == 1;
    const char *sep = NULL;
    size_t seplen = 0;
    const char **parts = arena_alloc(cx->a, e->nargs * sizeof(char *));
    size_t *lens = arena_alloc(cx->a, e->nargs * sizeof(size_t));
    size_t total = 0;
    for (uint32_t i = 0; i < e->nargs; i++) {
        bool is_null;
        int rc;
        if (!arg_str(cx, e, i, &parts[i], &lens[i], &is_null, err, &rc)) {
            return rc;
        }
        if (is_null) {
            if (!ws || i == 0) {
                *out = plan__v_null();
                return DB_OK;
            }
            parts[i] = NULL;
            continue;
        }
        if (ws && i == 0) {
            sep = parts[0];
            seplen = lens[0];
            continue;
        }
        total += lens[i] + seplen;
    }
    if (too_big(cx, ws ? "concat_ws" : "concat", total)) {
        *out = plan__v_null();
        return DB_OK;
    }
    char *buf = arena_alloc(cx->a, total + 1);
    size_t o = 0;
    bool first = true;
    for (uint32_t i = ws ? 1 : 0; i < e->nargs; i++) {
        if (!parts[i]) {
            continue;
        }
        if (ws && !first) {
            memcpy(buf + o, sep, seplen);
            o += seplen;
        }
        first = false;
        memcpy(buf + o, parts[i], lens[i]);
        o += lens[i];
    }
    *out = plan__v_str(buf, o);
    for (uint32_t i = 0; i < e->nargs; i++) {
        out->is_binary |= e->args[i]->t.is_binary;
    }
    return DB_OK;
}

static int
ty_concat(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    uint32_t len = 0;
    bool bin = false;
    for (uint32_t i = 0; i < e->nargs; i++) {
        len += plan__type_strlen(&e->args[i]->t);
        bin |= e->args[i]->t.is_binary;
    }
    e->op = strcmp(e->name, "concat_ws") == 0;
    plan__type_string(&e->t, len,
                      e->op ? e->args[0]->t.nullable || e->args[0]->vk == PV_NULL
                            : plan__nullable_args(e));
    e->t.is_binary = bin;
    e->vk = PV_STRING;
    e->eval = ev_concat;
    return DB_OK;
}

static int
ev_length(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *s;
    size_t len;
    bool is_null;
    int rc;
    if (!arg_str(cx, e, 0, &s, &len, &is_null, err, &rc)) {
        return rc;
    }
    if (is_null) {
        *out = plan__v_null();
        return DB_OK;
    }
    bool chars = e->op == 1 && !e->args[0]->t.is_binary;
    *out = plan__v_int((int64_t)(chars ? plan__u8_chars(s, len) : len));
    return DB_OK;
}

static int
ty_length(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    e->op = strcmp(e->name, "length") != 0 && strcmp(e->name, "octet_length") != 0;
    plan__type_bigint(&e->t, 10, plan__nullable_args(e));
    e->vk = PV_INT;
    e->eval = ev_length;
    return DB_OK;
}

static int
ev_case_fold(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *s;
    size_t len;
    bool is_null;
    int rc;
    if (!arg_str(cx, e, 0, &s, &len, &is_null, err, &rc)) {
        return rc;
    }
    if (is_null) {
        *out = plan__v_null();
        return DB_OK;
    }
    if (e->args[0]->t.is_binary) {
        *out = plan__v_str(s, len); /* binary strings have no letter case */
    } else {
        char *b = arena_alloc(cx->a, 2 * len + 1);
        *out = plan__v_str(b, plan__case_map(cx->s->srv->ctype, e->op == 1, s, len, b));
    }
    out->is_binary = e->args[0]->t.is_binary;
    return DB_OK;
}

static int
ty_case_fold(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    e->op = e->name[0] == 'u';
    plan__type_string(&e->t, plan__type_strlen(&e->args[0]->t), plan__nullable_args(e));
    e->t.is_binary = e->args[0]->t.is_binary;
    e->vk = PV_STRING;
    e->eval = ev_case_fold;
    return DB_OK;
}

/* SUBSTRING(s, pos[, len]), LEFT(s, n), RIGHT(s, n): character based. */
static int
ev_substr(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *s;
    size_t len;
    bool is_null, n1 = false, n2 = false;
    int rc;
    if (!arg_str(cx, e, 0, &s, &len, &is_null, err, &rc)) {
        return rc;
    }
    int64_t a = 0, b = INT64_MAX;
    if (arg_int(cx, e, 1, &a, &n1, err) != DB_OK ||
        (e->nargs > 2 && arg_int(cx, e, 2, &b, &n2, err) != DB_OK)) {
        return DB_ERR;
    }
    if (is_null || n1 || n2) {
        *out = plan__v_null();
        return DB_OK;
    }
    bool bin = e->args[0]->t.is_binary;
    int64_t nch = bin ? (int64_t)len : (int64_t)plan__u8_chars(s, len);
    int64_t start, count;
    if (e->op == 1) { /* LEFT */
        start = 0;
        count = a;
    } else if (e->op == 2) { /* RIGHT */
        count = a < 0 ? 0 : (a > nch ? nch : a);
        start = nch - count;
    } else {
        if (a == 0 || a > nch || a < -nch) {
            *out = plan__v_str("", 0);
            return DB_OK;
        }
        start = a > 0 ? a - 1 : nch + a;
        count = b;
    }
    if (count <= 0) {
        *out = plan__v_str("", 0);
        return DB_OK;
    }
    size_t from = bin ? (size_t)start : plan__u8_offset(s, len, (size_t)start);
    size_t to = count >= nch - start
                        ? len
                        : (bin ? (size_t)(start + count)
                               : from + plan__u8_offset(s + from, len - from, (size_t)count));
    *out = plan__v_str(s + from, to - from);
    out->is_binary = bin;
    return DB_OK;
}

static int
ty_substr(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    e->op = strcmp(e->name, "left") == 0 ? 1 : (strcmp(e->name, "right") == 0 ? 2 : 0);
    plan__type_string(&e->t, plan__type_strlen(&e->args[0]->t), plan__nullable_args(e));
    e->t.is_binary = e->args[0]->t.is_binary;
    e->vk = PV_STRING;
    e->eval = ev_substr;
    return DB_OK;
}

/* LOCATE(sub, s[, pos]) / INSTR(s, sub) / POSITION: 1-based, case-insensitive for text. */
static int
ev_locate(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *s, *sub;
    size_t len, sublen;
    bool n1, n2, n3 = false;
    int rc;
    uint32_t is = e->op == 1 ? 0 : 1, isub = e->op == 1 ? 1 : 0;
    if (!arg_str(cx, e, isub, &sub, &sublen, &n1, err, &rc) ||
        !arg_str(cx, e, is, &s, &len, &n2, err, &rc)) {
        return rc;
    }
    int64_t pos = 1;
    if (e->nargs > 2 && arg_int(cx, e, 2, &pos, &n3, err) != DB_OK) {
        return DB_ERR;
    }
    if (n1 || n2 || n3) {
        *out = plan__v_null();
        return DB_OK;
    }
    bool ci = !e->args[0]->t.is_binary && !e->args[1]->t.is_binary;
    if (ci) { /* general_ci weights: every character folds to one character */
        s = plan__ci_fold_in(cx, s, &len);
        sub = plan__ci_fold_in(cx, sub, &sublen);
        ci = false;
    }
    int64_t nch = (int64_t)plan__u8_chars(s, len);
    if (pos < 1 || pos > nch + 1) {
        *out = plan__v_int(0);
        return DB_OK;
    }
    size_t i = plan__u8_offset(s, len, (size_t)pos - 1);
    int64_t ch = pos;
    for (; i + sublen <= len; i += plan__u8len((unsigned char)s[i]), ch++) {
        if (ci ? str_ieq(s + i, sublen, sub, sublen) : memcmp(s + i, sub, sublen) == 0) {
            *out = plan__v_int(ch);
            return DB_OK;
        }
        if (i >= len) {
            break;
        }
    }
    *out = plan__v_int(0);
    return DB_OK;
}

static int
ty_locate(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    e->op = strcmp(e->name, "instr") == 0;
    plan__type_bigint(&e->t, 11, plan__nullable_args(e));
    e->vk = PV_INT;
    e->eval = ev_locate;
    return DB_OK;
}

static int
ev_trim(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *s, *r = " ";
    size_t len, rl = 1;
    bool n1, n2 = false;
    int rc;
    if (!arg_str(cx, e, 0, &s, &len, &n1, err, &rc)) {
        return rc;
    }
    if (e->nargs > 1 && !arg_str(cx, e, 1, &r, &rl, &n2, err, &rc)) {
        return rc;
    }
    if (n1 || n2) {
        *out = plan__v_null();
        return DB_OK;
    }
    size_t b = 0, end = len;
    int mode = e->op;
    if (rl > 0) {
        if (mode != PLAN_TRIM_TRAILING) {
            while (end - b >= rl && memcmp(s + b, r, rl) == 0) {
                b += rl;
            }
        }
        if (mode != PLAN_TRIM_LEADING) {
            while (end - b >= rl && memcmp(s + end - rl, r, rl) == 0) {
                end -= rl;
            }
        }
    }
    *out = plan__v_str(s + b, end - b);
    out->is_binary = e->args[0]->t.is_binary;
    return DB_OK;
}

static int
ty_trim(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    if (strcmp(e->name, "ltrim") == 0) {
        e->op = PLAN_TRIM_LEADING;
    } else if (strcmp(e->name, "rtrim") == 0) {
        e->op = PLAN_TRIM_TRAILING;
    }
    plan__type_string(&e->t, plan__type_strlen(&e->args[0]->t), plan__nullable_args(e));
    e->t.is_binary = e->args[0]->t.is_binary;
    e->vk = PV_STRING;
    e->eval = ev_trim;
    return DB_OK;
}

static int
ev_replace(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *s, *f, *t;
    size_t sl, fl, tl;
    bool n1, n2, n3;
    int rc;
    if (!arg_str(cx, e, 0, &s, &sl, &n1, err, &rc) || !arg_str(cx, e, 1, &f, &fl, &n2, err, &rc) ||
        !arg_str(cx, e, 2, &t, &tl, &n3, err, &rc)) {
        return rc;
    }
    if (n1 || n2 || n3) {
        *out = plan__v_null();
        return DB_OK;
    }
    if (fl == 0) {
        *out = plan__v_str(s, sl);
        return DB_OK;
    }
    size_t count = 0;
    for (size_t i = 0; i + fl <= sl;) {
        if (memcmp(s + i, f, fl) == 0) {
            count++;
            i += fl;
        } else {
            i++;
        }
    }
    size_t total = sl + count * tl - count * fl;
    if (too_big(cx, "replace", total)) {
        *out = plan__v_null();
        return DB_OK;
    }
    char *b = arena_alloc(cx->a, total + 1);
    size_t o = 0;
    for (size_t i = 0; i < sl;) {
        if (i + fl <= sl && memcmp(s + i, f, fl) == 0) {
            memcpy(b + o, t, tl);
            o += tl;
            i += fl;
        } else {
            b[o++] = s[i++];
        }
    }
    *out = plan__v_str(b, o);
    return DB_OK;
}

static int
ev_repeat(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *s;
    size_t len;
    bool n1, n2;
    int rc;
    int64_t n;
    if (!arg_str(cx, e, 0, &s, &len, &n1, err, &rc)) {
        return rc;
    }
    if (arg_int(cx, e, 1, &n, &n2, err) != DB_OK) {
        return DB_ERR;
    }
    if (n1 || n2) {
        *out = plan__v_null();
        return DB_OK;
    }
    if (n <= 0 || len == 0) {
        *out = plan__v_str("", 0);
        return DB_OK;
    }
    if ((uint64_t)n > (uint64_t)cx->max_packet / len || too_big(cx, "repeat", len * (size_t)n)) {
        if ((uint64_t)n > (uint64_t)cx->max_packet / len) {
            too_big(cx, "repeat", (size_t)cx->max_packet + 1);
        }
        *out = plan__v_null();
        return DB_OK;
    }
    char *b = arena_alloc(cx->a, len * (size_t)n + 1);
    for (int64_t i = 0; i < n; i++) {
        memcpy(b + (size_t)i * len, s, len);
    }
    *out = plan__v_str(b, len * (size_t)n);
    return DB_OK;
}

static int
ev_reverse(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *s;
    size_t len;
    bool n1;
    int rc;
    if (!arg_str(cx, e, 0, &s, &len, &n1, err, &rc)) {
        return rc;
    }
    if (n1) {
        *out = plan__v_null();
        return DB_OK;
    }
    char *b = arena_alloc(cx->a, len + 1);
    size_t o = len;
    for (size_t i = 0; i < len;) {
        size_t n = e->args[0]->t.is_binary ? 1 : plan__u8len((unsigned char)s[i]);
        if (i + n > len) {
            n = len - i;
        }
        o -= n;
        memcpy(b + o, s + i, n);
        i += n;
    }
    *out = plan__v_str(b, len);
    return DB_OK;
}

static int
ev_pad(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *s, *p;
    size_t sl, pl;
    bool n1, n2, n3;
    int rc;
    int64_t n;
    if (!arg_str(cx, e, 0, &s, &sl, &n1, err, &rc)) {
        return rc;
    }
    if (arg_int(cx, e, 1, &n, &n2, err) != DB_OK) {
        return DB_ERR;
    }
    if (!arg_str(cx, e, 2, &p, &pl, &n3, err, &rc)) {
        return rc;
    }
    if (n1 || n2 || n3 || n < 0) {
        *out = plan__v_null();
        return DB_OK;
    }
    size_t have = plan__u8_chars(s, sl);
    if ((size_t)n <= have) {
        *out = plan__v_str(s, plan__u8_offset(s, sl, (size_t)n));
        return DB_OK;
    }
    if (pl == 0) {
        *out = plan__v_null();
        return DB_OK;
    }
    size_t need = (size_t)n - have; /* characters of padding */
    if ((uint64_t)n > (uint64_t)cx->max_packet ||
        too_big(cx, e->op ? "rpad" : "lpad", sl + need * 4)) {
        if ((uint64_t)n > (uint64_t)cx->max_packet) {
            too_big(cx, e->op ? "rpad" : "lpad", (size_t)cx->max_packet + 1);
        }
        *out = plan__v_null();
        return DB_OK;
    }
    size_t pch = plan__u8_chars(p, pl);
    char *b = arena_alloc(cx->a, sl + need * 4 + 1);
    size_t o = 0;
    if (e->op) {
        memcpy(b, s, sl);
        o = sl;
    }
    for (size_t k = 0; k < need;) {
        size_t take = need - k < pch ? need - k : pch;
        size_t bytes = plan__u8_offset(p, pl, take);
        memcpy(b + o, p, bytes);
        o += bytes;
        k += take;
    }
    if (!e->op) {
        memcpy(b + o, s, sl);
        o += sl;
    }
    *out = plan__v_str(b, o);
    return DB_OK;
}

/* CHAR(N, ...): the bytes of each integer argument, most significant first, leading zero bytes
 * dropped (CHAR(0) is one 0x00 byte); NULL arguments are skipped (MySQL). */
static int
ev_char(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    char *b = arena_alloc(cx->a, (size_t)e->nargs * 8 + 1);
    size_t o = 0;
    for (uint32_t i = 0; i < e->nargs; i++) {
        int64_t v;
        bool is_null;
        if (arg_int(cx, e, i, &v, &is_null, err) != DB_OK) {
            return DB_ERR;
        }
        if (is_null) {
            continue;
        }
        uint64_t u = (uint64_t)v & 0xFFFFFFFFu; /* MySQL keeps the low 32 bits */
        int shift = 24;
        while (shift > 0 && ((u >> shift) & 0xFF) == 0) {
            shift -= 8;
        }
        for (; shift >= 0; shift -= 8) {
            b[o++] = (char)((u >> shift) & 0xFF);
        }
    }
    *out = plan__v_str(b, o);
    return DB_OK;
}

static int
ty_char(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    e->eval = ev_char;
    plan__type_string(&e->t, e->nargs * 4, false);
    e->vk = PV_STRING;
    return DB_OK;
}

static int
ty_string_misc(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    uint32_t len = plan__type_strlen(&e->args[0]->t);
    bool nullable = plan__nullable_args(e);
    if (strcmp(e->name, "replace") == 0) {
        e->eval = ev_replace;
    } else if (strcmp(e->name, "repeat") == 0) {
        e->eval = ev_repeat;
        nullable = true;
        len = len * 16;
    } else if (strcmp(e->name, "reverse") == 0) {
        e->eval = ev_reverse;
    } else {
        e->op = strcmp(e->name, "rpad") == 0;
        e->eval = ev_pad;
        nullable = true;
        const plan_expr *n = e->args[1];
        plan_value v;
        if (n->src && n->src->kind == PA_INT && plan__eval(cx, n, &v, err) == DB_OK) {
            int64_t x = plan__v_to_int(&v, NULL);
            len = x < 0 ? 0 : (x > 16777216 ? 16777216 : (uint32_t)x);
        }
    }
    plan__type_string(&e->t, len, nullable);
    e->vk = PV_STRING;
    return DB_OK;
}

/* ---- numeric functions ---- */

static int
ev_abs(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    if (v.kind == PV_NULL) {
        *out = v;
        return DB_OK;
    }
    if (e->vk == PV_INT) {
        if (v.is_unsigned || e->t.is_unsigned) {
            *out = plan__v_uint(plan__v_to_uint(&v, NULL));
            return DB_OK;
        }
        int64_t i = plan__v_to_int(&v, NULL);
        if (i == INT64_MIN) {
            return plan__out_of_range(cx, e, "BIGINT", err);
        }
        *out = plan__v_int(i < 0 ? -i : i);
        return DB_OK;
    }
    if (e->vk == PV_DECIMAL) {
        __int128 d;
        if (!plan__v_to_dec(&v, e->t.scale, &d, NULL)) {
            return plan__out_of_range(cx, e, "DECIMAL", err);
        }
        *out = plan__v_dec(d < 0 ? -d : d, e->t.scale);
        return DB_OK;
    }
    *out = plan__v_double(fabs(plan__v_to_double(&v, NULL)));
    return DB_OK;
}

static int
ty_abs(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    const plan_expr *x = e->args[0];
    if (x->vk == PV_INT || x->vk == PV_NULL) {
        e->t = x->t;
        e->t.type = PLAN_TYPE_BIGINT;
        e->t.nullable = plan__nullable_args(e);
        e->vk = PV_INT;
    } else if (x->vk == PV_DECIMAL) {
        plan__type_decimal(&e->t, x->t.precision, x->t.scale, plan__nullable_args(e));
        e->vk = PV_DECIMAL;
    } else {
        plan__type_double(&e->t, plan__nullable_args(e));
        e->vk = PV_DOUBLE;
    }
    e->eval = ev_abs;
    return DB_OK;
}

/* ROUND(x[, d]), FLOOR(x), CEIL(x). op: 0 round, 1 floor, 2 ceil. */
static int
ev_round(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    int64_t d = 0;
    bool dnull = false;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK ||
        (e->nargs > 1 && arg_int(cx, e, 1, &d, &dnull, err) != DB_OK)) {
        return DB_ERR;
    }
    if (v.kind == PV_NULL || dnull) {
        *out = plan__v_null();
        return DB_OK;
    }
    d = d > 30 ? 30 : (d < -38 ? -38 : d);
    if (e->vk == PV_DOUBLE) {
        double x = plan__v_to_double(&v, NULL), r;
        if (e->op == 1) {
            r = floor(x);
        } else if (e->op == 2) {
            r = ceil(x);
        } else {
            double p = pow(10.0, (double)(d < 0 ? -d : d));
            r = d >= 0 ? rint(x * p) / p : rint(x / p) * p;
            if (!isfinite(r)) {
                r = x;
            }
        }
        *out = plan__v_double(r);
        return DB_OK;
    }
    int scale = v.kind == PV_DECIMAL ? v.scale : 0;
    __int128 x;
    if (!plan__v_to_dec(&v, scale, &x, NULL)) {
        return plan__out_of_range(cx, e, "DECIMAL", err);
    }
    __int128 r;
    if (e->op == 0) {
        int target = (int)d;
        if (target >= scale) {
            r = x;
            target = scale;
        } else {
            plan__dec_rescale(x, scale, target < 0 ? 0 : target, &r);
            if (target < 0) {
                __int128 p = plan__pow10((int)-target);
                plan__dec_rescale(x, scale, 0, &r);
                __int128 q = r / p, rem = r % p;
                if ((rem < 0 ? -rem : rem) * 2 >= p) {
                    q += r < 0 ? -1 : 1;
                }
                r = q * p;
                target = 0;
            }
        }
        if (!plan__dec_rescale(r, target, e->vk == PV_DECIMAL ? e->t.scale : 0, &r)) {
            return plan__out_of_range(cx, e, "DECIMAL", err);
        }
    } else {
        __int128 p = plan__pow10(scale);
        r = x / p;
        if (e->op == 1 && x < 0 && x % p != 0) {
            r -= 1;
        }
        if (e->op == 2 && x > 0 && x % p != 0) {
            r += 1;
        }
    }
    if (e->vk == PV_INT) {
        if (r > INT64_MAX || r < INT64_MIN) {
            if (!(e->t.is_unsigned && r >= 0 && r <= (__int128)UINT64_MAX)) {
                return plan__out_of_range(cx, e, "BIGINT", err);
            }
        }
        *out = e->t.is_unsigned ? plan__v_uint((uint64_t)r) : plan__v_int((int64_t)r);
    } else {
        *out = plan__v_dec(r, e->t.scale);
    }
    return DB_OK;
}

static int
ty_round(plan_ectx *cx, plan_expr *e, db_error *err)
{
    const plan_expr *x = e->args[0];
    bool nullable = plan__nullable_args(e);
    e->op = strcmp(e->name, "round") == 0 ? 0 : (e->name[0] == 'f' ? 1 : 2);
    if (x->vk == PV_DOUBLE || x->vk == PV_STRING || x->vk == PV_DATE || x->vk == PV_DATETIME ||
        x->vk == PV_TIME) {
        plan__type_double(&e->t, nullable);
        e->vk = PV_DOUBLE;
    } else if (x->vk == PV_INT || x->vk == PV_NULL) {
        e->t = x->t;
        e->t.type = PLAN_TYPE_BIGINT;
        e->t.nullable = nullable;
        e->vk = PV_INT;
    } else {
        int p = x->t.precision, s = x->t.scale;
        if (e->op != 0) {
            if (p - s + 1 <= 18) {
                plan__type_bigint(&e->t, (uint32_t)(p - s + 1), nullable);
                e->vk = PV_INT;
            } else {
                plan__type_decimal(&e->t, p - s + 1, 0, nullable);
                e->vk = PV_DECIMAL;
            }
        } else {
            int d = 0;
            if (e->nargs > 1) {
                plan_value v;
                if (!e->args[1]->src ||
                    (e->args[1]->src->kind != PA_INT && !(e->args[1]->src->kind == PA_UNARY))) {
                    d = s;
                } else if (plan__eval(cx, e->args[1], &v, err) == DB_OK) {
                    int64_t dd = plan__v_to_int(&v, NULL);
                    d = dd < 0 ? 0 : (dd > s ? s : (int)dd);
                } else {
                    return DB_ERR;
                }
            }
            int np = p - s + d + 1;
            plan__type_decimal(&e->t, np > PLAN_DEC_MAX_PREC ? PLAN_DEC_MAX_PREC : np, d, nullable);
            e->vk = PV_DECIMAL;
        }
    }
    e->eval = ev_round;
    return DB_OK;
}

static int
ev_math(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value a, b = plan__v_int(0);
    if (plan__eval(cx, e->args[0], &a, err) != DB_OK ||
        (e->nargs > 1 && plan__eval(cx, e->args[1], &b, err) != DB_OK)) {
        return DB_ERR;
    }
    if (a.kind == PV_NULL || b.kind == PV_NULL) {
        *out = plan__v_null();
        return DB_OK;
    }
    double x = plan__v_to_double(&a, NULL), r;
    if (e->op == 1) { /* sqrt */
        if (x < 0) {
            *out = plan__v_null();
            return DB_OK;
        }
        r = sqrt(x);
    } else {
        r = pow(x, plan__v_to_double(&b, NULL));
        if (isnan(r)) {
            *out = plan__v_null();
            return DB_OK;
        }
    }
    if (!isfinite(r)) {
        return plan__out_of_range(cx, e, "DOUBLE", err);
    }
    *out = plan__v_double(r);
    return DB_OK;
}

static int
ty_math(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    e->op = strcmp(e->name, "sqrt") == 0;
    plan__type_double(&e->t, true);
    e->vk = PV_DOUBLE;
    e->eval = ev_math;
    return DB_OK;
}

static int
ty_mod(plan_ectx *cx, plan_expr *e, db_error *err)
{
    e->op = XOP_MOD;
    return plan__op_type(cx, e, PA_BINARY, err);
}

/* ---- control flow and comparison functions ---- */

/* op: 0 IF, 1 IFNULL, 2 NULLIF, 3 COALESCE, 4 GREATEST, 5 LEAST */
static int
ev_control(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    switch (e->op) {
    case 0: {
        if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
            return DB_ERR;
        }
        const plan_expr *pick = plan__v_truth(&v) == 1 ? e->args[1] : e->args[2];
        if (plan__eval(cx, pick, out, err) != DB_OK) {
            return DB_ERR;
        }
        return plan__coerce(cx, out, e->vk, &e->t, err);
    }
    case 1:
    case 3:
        for (uint32_t i = 0; i < e->nargs; i++) {
            if (plan__eval(cx, e->args[i], out, err) != DB_OK) {
                return DB_ERR;
            }
            if (out->kind != PV_NULL) {
                return plan__coerce(cx, out, e->vk, &e->t, err);
            }
        }
        *out = plan__v_null();
        return DB_OK;
    case 2: {
        plan_value b;
        if (plan__eval(cx, e->args[0], out, err) != DB_OK ||
            plan__eval(cx, e->args[1], &b, err) != DB_OK) {
            return DB_ERR;
        }
        if (out->kind != PV_NULL && b.kind != PV_NULL &&
            plan__compare(cx, plan__cmp_mode(e->args[0], e->args[1]), out, &b) == 0) {
            *out = plan__v_null();
        }
        return DB_OK;
    }
    default: {
        plan_value best = plan__v_null();
        for (uint32_t i = 0; i < e->nargs; i++) {
            if (plan__eval(cx, e->args[i], &v, err) != DB_OK) {
                return DB_ERR;
            }
            if (v.kind == PV_NULL) {
                *out = v;
                return DB_OK;
            }
            if (plan__coerce(cx, &v, e->vk, &e->t, err) != DB_OK) {
                return DB_ERR;
            }
            if (i == 0) {
                best = v;
                continue;
            }
            int c = plan__compare(cx, e->cmp, &v, &best);
            if ((e->op == 4 && c > 0) || (e->op == 5 && c < 0)) {
                best = v;
            }
        }
        *out = best;
        return DB_OK;
    }
    }
}

static int
ty_control(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    static const char *const names[] = {"if", "ifnull", "nullif", "coalesce", "greatest", "least"};
    for (int i = 0; i < 6; i++) {
        if (strcmp(e->name, names[i]) == 0) {
            e->op = i;
        }
    }
    if (strcmp(e->name, "nvl") == 0) { /* Doris: NVL(a, b) = IFNULL(a, b) */
        e->op = 1;
    }
    switch (e->op) {
    case 0:
        plan__agg_type(e->args + 1, 2, &e->t, &e->vk);
        break;
    case 2:
        e->t = e->args[0]->t;
        e->vk = e->args[0]->vk;
        e->t.nullable = true;
        break;
    default:
        plan__agg_type(e->args, e->nargs, &e->t, &e->vk);
        if (e->op == 1 || e->op == 3) {
            /* Not nullable when some argument can never be NULL. */
            bool all = true;
            for (uint32_t i = 0; i < e->nargs; i++) {
                if (!e->args[i]->t.nullable && e->args[i]->vk != PV_NULL) {
                    all = false;
                }
            }
            e->t.nullable = all;
        }
        break;
    }
    if (e->op >= 4) {
        e->cmp = e->vk == PV_INT       ? (e->t.is_unsigned ? PLAN_CMP_UINT : PLAN_CMP_INT)
                 : e->vk == PV_DECIMAL ? PLAN_CMP_DECIMAL
                 : e->vk == PV_DOUBLE  ? PLAN_CMP_DOUBLE
                 : e->vk == PV_STRING  ? (e->t.is_binary ? PLAN_CMP_BINARY : PLAN_CMP_STRING)
                                       : PLAN_CMP_DATETIME;
        e->t.nullable = plan__nullable_args(e);
    }
    e->eval = ev_control;
    return DB_OK;
}

static int
ev_charset(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)cx;
    (void)err;
    const char *cs = e->args[0]->t.is_binary ? "binary" : "utf8mb4";
    *out = plan__v_str(cs, strlen(cs));
    return DB_OK;
}

static int
ty_charset(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    plan__type_string(&e->t, 64, false);
    e->vk = PV_STRING;
    e->eval = ev_charset;
    return DB_OK;
}

static int
ev_hex(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    if (v.kind == PV_NULL) {
        *out = v;
        return DB_OK;
    }
    if (v.kind != PV_STRING) {
        char *b = arena_sprintf(cx->a, "%llX", (unsigned long long)plan__v_to_uint(&v, NULL));
        *out = plan__v_str(b, strlen(b));
        return DB_OK;
    }
    static const char hx[] = "0123456789ABCDEF";
    if (too_big(cx, "hex", v.str.len * 2)) {
        *out = plan__v_null();
        return DB_OK;
    }
    char *b = arena_alloc(cx->a, v.str.len * 2 + 1);
    for (size_t i = 0; i < v.str.len; i++) {
        unsigned char c = (unsigned char)v.str.s[i];
        b[2 * i] = hx[c >> 4];
        b[2 * i + 1] = hx[c & 15];
    }
    *out = plan__v_str(b, v.str.len * 2);
    return DB_OK;
}

static int
ty_hex(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    plan__type_string(&e->t, plan__type_strlen(&e->args[0]->t) * 2, plan__nullable_args(e));
    e->vk = PV_STRING;
    e->eval = ev_hex;
    return DB_OK;
}

/* Sorted by name for bsearch. */
static const plan_func_def funcs[] = {
        {"%interval", 1, 1, plan__ty_interval},
        {"abs", 1, 1, ty_abs},
        {"acos", 1, 1, plan__ty_math1},
        {"adddate", 2, 2, plan__ty_date_add},
        {"array", 0, -1, plan__ty_array},
        {"array_avg", 1, 1, plan__ty_array},
        {"array_concat", 1, -1, plan__ty_array},
        {"array_contains", 2, 2, plan__ty_array},
        {"array_distinct", 1, 1, plan__ty_array},
        {"array_join", 2, 3, plan__ty_array},
        {"array_max", 1, 1, plan__ty_array},
        {"array_min", 1, 1, plan__ty_array},
        {"array_position", 2, 2, plan__ty_array},
        {"array_remove", 2, 2, plan__ty_array},
        {"array_size", 1, 1, plan__ty_array},
        {"array_slice", 2, 3, plan__ty_array},
        {"array_sort", 1, 1, plan__ty_array},
        {"array_sum", 1, 1, plan__ty_array},
        {"arrays_overlap", 2, 2, plan__ty_array},
        {"ascii", 1, 1, plan__ty_str_int},
        {"asin", 1, 1, plan__ty_math1},
        {"atan", 1, 2, plan__ty_math1},
        {"atan2", 2, 2, plan__ty_math1},
        {"bin", 1, 1, plan__ty_str_misc2},
        {"bitmap_contains", 2, 2, plan__ty_bitmap},
        {"bitmap_count", 1, 1, plan__ty_bitmap},
        {"bitmap_empty", 0, 0, plan__ty_bitmap},
        {"bitmap_from_string", 1, 1, plan__ty_bitmap},
        {"bitmap_hash", 1, 1, plan__ty_bitmap},
        {"bitmap_to_string", 1, 1, plan__ty_bitmap},
        {"cardinality", 1, 1, plan__ty_array},
        {"ceil", 1, 1, ty_round},
        {"ceiling", 1, 1, ty_round},
        {"char", 1, 255, ty_char},
        {"char_length", 1, 1, ty_length},
        {"character_length", 1, 1, ty_length},
        {"charset", 1, 1, ty_charset},
        {"coalesce", 1, -1, ty_control},
        {"concat", 1, -1, ty_concat},
        {"concat_ws", 2, -1, ty_concat},
        {"connection_id", 0, 0, ty_info_int},
        {"conv", 3, 3, plan__ty_conv},
        {"convert_tz", 3, 3, plan__ty_convert_tz},
        {"cos", 1, 1, plan__ty_math1},
        {"cot", 1, 1, plan__ty_math1},
        {"crc32", 1, 1, plan__ty_str_int},
        {"curdate", 0, 0, ty_curdate},
        {"current_date", 0, 0, ty_curdate},
        {"current_time", 0, 1, ty_curtime},
        {"current_timestamp", 0, 1, ty_now},
        {"current_tso", 0, 0, ty_current_tso},
        {"current_user", 0, 0, ty_user},
        {"curtime", 0, 1, ty_curtime},
        {"database", 0, 0, ty_database},
        {"date", 1, 1, plan__ty_date_conv},
        {"date_add", 2, 2, plan__ty_date_add},
        {"date_format", 2, 2, plan__ty_date_format},
        {"date_sub", 2, 2, plan__ty_date_add},
        {"date_trunc", 2, 2, plan__ty_date_trunc},
        {"datediff", 2, 2, plan__ty_datediff},
        {"day", 1, 1, plan__ty_date_part},
        {"dayname", 1, 1, plan__ty_date_part},
        {"dayofmonth", 1, 1, plan__ty_date_part},
        {"dayofweek", 1, 1, plan__ty_date_part},
        {"dayofyear", 1, 1, plan__ty_date_part},
        {"days_add", 2, 2, plan__ty_doris_date_add},
        {"days_diff", 2, 2, plan__ty_doris_diff},
        {"days_sub", 2, 2, plan__ty_doris_date_add},
        {"degrees", 1, 1, plan__ty_math1},
        {"element_at", 2, 2, plan__ty_array},
        {"elt", 2, -1, plan__ty_elt},
        {"ends_with", 2, 2, plan__ty_str_int},
        {"exp", 1, 1, plan__ty_math1},
        {"extract", 1, 1, plan__ty_extract},
        {"field", 2, -1, plan__ty_str_int},
        {"find_in_set", 2, 2, plan__ty_str_int},
        {"floor", 1, 1, ty_round},
        {"format", 2, 2, plan__ty_format},
        {"found_rows", 0, 0, ty_info_int},
        {"from_base64", 1, 1, plan__ty_str_misc2},
        {"from_days", 1, 1, plan__ty_date_conv},
        {"from_unixtime", 1, 2, plan__ty_from_unixtime},
        {"get_json_bigint", 0, -1, plan__ty_json},
        {"get_json_double", 0, -1, plan__ty_json},
        {"get_json_int", 0, -1, plan__ty_json},
        {"get_json_string", 0, -1, plan__ty_json},
        {"greatest", 2, -1, ty_control},
        {"hex", 1, 1, ty_hex},
        {"hour", 1, 1, plan__ty_date_part},
        {"hours_add", 2, 2, plan__ty_doris_date_add},
        {"hours_diff", 2, 2, plan__ty_doris_diff},
        {"hours_sub", 2, 2, plan__ty_doris_date_add},
        {"if", 3, 3, ty_control},
        {"ifnull", 2, 2, ty_control},
        {"insert", 4, 4, plan__ty_str_misc2},
        {"instr", 2, 2, ty_locate},
        {"json_array", 0, -1, plan__ty_json},
        {"json_contains", 0, -1, plan__ty_json},
        {"json_exists_path", 0, -1, plan__ty_json},
        {"json_extract", 0, -1, plan__ty_json},
        {"json_extract_bigint", 0, -1, plan__ty_json},
        {"json_extract_bool", 0, -1, plan__ty_json},
        {"json_extract_double", 0, -1, plan__ty_json},
        {"json_extract_int", 0, -1, plan__ty_json},
        {"json_extract_isnull", 0, -1, plan__ty_json},
        {"json_extract_largeint", 0, -1, plan__ty_json},
        {"json_extract_string", 0, -1, plan__ty_json},
        {"json_length", 0, -1, plan__ty_json},
        {"json_object", 0, -1, plan__ty_json},
        {"json_parse", 0, -1, plan__ty_json},
        {"json_parse_error_to_null", 0, -1, plan__ty_json},
        {"json_parse_error_to_value", 0, -1, plan__ty_json},
        {"json_quote", 0, -1, plan__ty_json},
        {"json_type", 0, -1, plan__ty_json},
        {"json_unquote", 0, -1, plan__ty_json},
        {"json_valid", 0, -1, plan__ty_json},
        {"jsonb_exists_path", 0, -1, plan__ty_json},
        {"jsonb_extract", 0, -1, plan__ty_json},
        {"jsonb_extract_bigint", 0, -1, plan__ty_json},
        {"jsonb_extract_bool", 0, -1, plan__ty_json},
        {"jsonb_extract_double", 0, -1, plan__ty_json},
        {"jsonb_extract_int", 0, -1, plan__ty_json},
        {"jsonb_extract_isnull", 0, -1, plan__ty_json},
        {"jsonb_extract_largeint", 0, -1, plan__ty_json},
        {"jsonb_extract_string", 0, -1, plan__ty_json},
        {"jsonb_parse", 0, -1, plan__ty_json},
        {"jsonb_parse_error_to_null", 0, -1, plan__ty_json},
        {"jsonb_parse_error_to_value", 0, -1, plan__ty_json},
        {"jsonb_type", 0, -1, plan__ty_json},
        {"jsonb_valid", 0, -1, plan__ty_json},
        {"last_day", 1, 1, plan__ty_date_conv},
        {"last_insert_id", 0, 1, ty_info_int},
        {"lcase", 1, 1, ty_case_fold},
        {"least", 2, -1, ty_control},
        {"left", 2, 2, ty_substr},
        {"length", 1, 1, ty_length},
        {"ln", 1, 1, plan__ty_math1},
        {"localtime", 0, 1, ty_now},
        {"localtimestamp", 0, 1, ty_now},
        {"locate", 2, 3, ty_locate},
        {"log", 1, 2, plan__ty_math1},
        {"log10", 1, 1, plan__ty_math1},
        {"log2", 1, 1, plan__ty_math1},
        {"lower", 1, 1, ty_case_fold},
        {"lpad", 3, 3, ty_string_misc},
        {"ltrim", 1, 1, ty_trim},
        {"makedate", 2, 2, plan__ty_date_conv},
        {"md5", 1, 1, plan__ty_str_misc2},
        {"microsecond", 1, 1, plan__ty_date_part},
        {"minute", 1, 1, plan__ty_date_part},
        {"minutes_add", 2, 2, plan__ty_doris_date_add},
        {"minutes_diff", 2, 2, plan__ty_doris_diff},
        {"minutes_sub", 2, 2, plan__ty_doris_date_add},
        {"mod", 2, 2, ty_mod},
        {"month", 1, 1, plan__ty_date_part},
        {"monthname", 1, 1, plan__ty_date_part},
        {"months_add", 2, 2, plan__ty_doris_date_add},
        {"months_diff", 2, 2, plan__ty_doris_diff},
        {"months_sub", 2, 2, plan__ty_doris_date_add},
        {"murmur_hash3_64", 1, -1, plan__ty_str_int},
        {"not_null_or_empty", 1, 1, plan__ty_null_or_empty},
        {"now", 0, 1, ty_now},
        {"null_or_empty", 1, 1, plan__ty_null_or_empty},
        {"nullif", 2, 2, ty_control},
        {"nvl", 2, 2, ty_control},
        {"oct", 1, 1, plan__ty_str_misc2},
        {"octet_length", 1, 1, ty_length},
        {"ord", 1, 1, plan__ty_str_int},
        {"pi", 0, 0, plan__ty_math1},
        {"pow", 2, 2, ty_math},
        {"power", 2, 2, ty_math},
        {"quarter", 1, 1, plan__ty_date_part},
        {"radians", 1, 1, plan__ty_math1},
        {"rand", 0, 1, plan__ty_rand},
        {"regexp_extract", 3, 3, plan__ty_regexp},
        {"regexp_like", 2, 3, plan__ty_regexp},
        {"regexp_replace", 3, 6, plan__ty_regexp},
        {"regexp_substr", 2, 5, plan__ty_regexp},
        {"repeat", 2, 2, ty_string_misc},
        {"replace", 3, 3, ty_string_misc},
        {"reverse", 1, 1, ty_string_misc},
        {"right", 2, 2, ty_substr},
        {"round", 1, 2, ty_round},
        {"row_count", 0, 0, ty_info_int},
        {"rpad", 3, 3, ty_string_misc},
        {"rtrim", 1, 1, ty_trim},
        {"schema", 0, 0, ty_database},
        {"second", 1, 1, plan__ty_date_part},
        {"seconds_add", 2, 2, plan__ty_doris_date_add},
        {"seconds_diff", 2, 2, plan__ty_doris_diff},
        {"seconds_sub", 2, 2, plan__ty_doris_date_add},
        {"session_user", 0, 0, ty_user},
        {"sha", 1, 1, plan__ty_str_misc2},
        {"sha1", 1, 1, plan__ty_str_misc2},
        {"sha2", 2, 2, plan__ty_str_misc2},
        {"sign", 1, 1, plan__ty_math1},
        {"sin", 1, 1, plan__ty_math1},
        {"size", 1, 1, plan__ty_array},
        {"sleep", 1, 1, ty_sleep},
        {"space", 1, 1, plan__ty_str_misc2},
        {"split_part", 3, 3, plan__ty_str_misc2},
        {"sqrt", 1, 1, ty_math},
        {"starts_with", 2, 2, plan__ty_str_int},
        {"str_to_date", 2, 2, plan__ty_str_to_date},
        {"strcmp", 2, 2, plan__ty_str_int},
        {"stream_has_data", 1, 1, plan__ty_stream_has_data},
        {"subdate", 2, 2, plan__ty_date_add},
        {"substr", 2, 3, ty_substr},
        {"substring", 2, 3, ty_substr},
        {"substring_index", 3, 3, plan__ty_str_misc2},
        {"sysdate", 0, 1, ty_now},
        {"system_user", 0, 0, ty_user},
        {"tan", 1, 1, plan__ty_math1},
        {"time", 1, 1, plan__ty_date_conv},
        {"timestampadd", 2, 2, plan__ty_date_add},
        {"timestampdiff", 3, 3, plan__ty_timestampdiff},
        {"to_base64", 1, 1, plan__ty_str_misc2},
        {"to_bitmap", 1, 1, plan__ty_bitmap},
        {"to_date", 1, 1, plan__ty_date_conv},
        {"to_days", 1, 1, plan__ty_date_part},
        {"trim", 1, 2, ty_trim},
        {"truncate", 2, 2, plan__ty_truncate},
        {"ucase", 1, 1, ty_case_fold},
        {"unhex", 1, 1, plan__ty_str_misc2},
        {"unix_timestamp", 0, 1, ty_unix_timestamp},
        {"upper", 1, 1, ty_case_fold},
        {"user", 0, 0, ty_user},
        {"utc_date", 0, 0, ty_utc_date},
        {"utc_time", 0, 1, ty_utc_time},
        {"utc_timestamp", 0, 1, ty_utc_timestamp},
        {"uuid", 0, 0, plan__ty_uuid},
        {"version", 0, 0, ty_version},
        {"week", 1, 2, plan__ty_date_part},
        {"weekday", 1, 1, plan__ty_date_part},
        {"weekofyear", 1, 1, plan__ty_date_part},
        {"weeks_add", 2, 2, plan__ty_doris_date_add},
        {"weeks_diff", 2, 2, plan__ty_doris_diff},
        {"weeks_sub", 2, 2, plan__ty_doris_date_add},
        {"year", 1, 1, plan__ty_date_part},
        {"years_add", 2, 2, plan__ty_doris_date_add},
        {"years_diff", 2, 2, plan__ty_doris_diff},
        {"years_sub", 2, 2, plan__ty_doris_date_add},
        {"yearweek", 1, 2, plan__ty_date_part},
};

static int func_cmp(const void *k, const void *el);

static int
func_cmp(const void *k, const void *el)
{
    return strcmp((const char *)k, ((const plan_func_def *)el)->name);
}

const plan_func_def *
plan__func_lookup(const char *name)
{
    return bsearch(name, funcs, sizeof funcs / sizeof funcs[0], sizeof funcs[0], func_cmp);
}
