/* SPDX-License-Identifier: Apache-2.0
 * plan_dml.c: tables with data. The planner's copy of a catalog table (plan__tbl_open), value
 * conversion into column storage form with MySQL's strict-mode errors, routing of rows to
 * partitions and buckets, INSERT ... VALUES / INSERT ... SELECT / UPDATE / DELETE over the
 * storage writer, and explicit transactions (the session's stor_writer, committed at COMMIT).
 * See README.md §"Tables and DML". */
#include "planner/plan_dml_int.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/strutil.h"
#include "planner/plan_array.h"
#include "planner/plan_json.h"

#define DML_CHUNK 4096 /* rows converted before they are routed and handed to the writer */

/* ======================================================================================
 * Column types
 * ====================================================================================== */

void
plan__cat_xtype(const cat_type *t, bool nullable, plan_xtype *xt, plan_vkind *vk)
{
    memset(xt, 0, sizeof *xt);
    xt->nullable = nullable;
    plan_vkind k = PV_INT;
    switch (t->id) {
    case CAT_T_BOOLEAN:
    case CAT_T_TINYINT:
        xt->type = PLAN_TYPE_TINYINT;
        xt->length = 4;
        break;
    case CAT_T_SMALLINT:
        xt->type = PLAN_TYPE_SMALLINT;
        xt->length = 6;
        break;
    case CAT_T_INT:
        xt->type = PLAN_TYPE_INT;
        xt->length = 11;
        break;
    case CAT_T_BIGINT:
        xt->type = PLAN_TYPE_BIGINT;
        xt->length = 20;
        break;
    case CAT_T_LARGEINT:
        xt->type = PLAN_TYPE_LARGEINT;
        xt->length = 40;
        k = PV_DECIMAL;
        break;
    case CAT_T_FLOAT:
        xt->type = PLAN_TYPE_FLOAT;
        xt->length = 12;
        xt->scale = 31;
        k = PV_DOUBLE;
        break;
    case CAT_T_DOUBLE:
        xt->type = PLAN_TYPE_DOUBLE;
        xt->length = 22;
        xt->scale = 31;
        k = PV_DOUBLE;
        break;
    case CAT_T_DECIMAL:
        xt->type = PLAN_TYPE_DECIMAL;
        xt->precision = t->precision;
        xt->scale = t->scale;
        xt->length = plan__dec_length(t->precision, t->scale, false);
        k = PV_DECIMAL;
        break;
    case CAT_T_DATE:
        xt->type = PLAN_TYPE_DATE;
        xt->length = 10;
        k = PV_DATE;
        break;
    case CAT_T_DATETIME:
        xt->type = PLAN_TYPE_DATETIME;
        xt->scale = t->scale;
        xt->length = 19 + (t->scale ? 1u + t->scale : 0u);
        k = PV_DATETIME;
        break;
    case CAT_T_CHAR:
        xt->type = PLAN_TYPE_CHAR;
        xt->length = (uint32_t)t->len;
        k = PV_STRING;
        break;
    case CAT_T_VARCHAR:
        xt->type = PLAN_TYPE_VARCHAR;
        xt->length = (uint32_t)t->len;
        k = PV_STRING;
        break;
    case CAT_T_JSON:
        xt->type = PLAN_TYPE_JSON;
        xt->length = 65535;
        k = PV_STRING;
        break;
    case CAT_T_ARRAY:
        xt->type = PLAN_TYPE_ARRAY;
        xt->length = 65535;
        memcpy(xt->elem, t->inner, sizeof xt->elem);
        k = PV_STRING;
        break;
    default:
        xt->type = PLAN_TYPE_STRING;
        xt->length = 65535;
        k = PV_STRING;
        break;
    }
    if (vk) {
        *vk = k;
    }
}

/* ======================================================================================
 * Value conversion into column storage form
 * ====================================================================================== */

static const char *
type_word(const cat_type *t)
{
    switch (t->id) {
    case CAT_T_FLOAT:
    case CAT_T_DOUBLE:
        return "double";
    case CAT_T_DECIMAL:
        return "decimal";
    case CAT_T_DATE:
        return "date";
    case CAT_T_DATETIME:
        return "datetime";
    default:
        return "integer";
    }
}

static int
bad_value(plan_ectx *cx, const plan_tcol *c, const plan_value *v, uint64_t rowno, db_error *err)
{
    size_t len = 0;
    const char *txt = plan__v_text(cx->a, v, &len);
    char *q = arena_strndup(cx->a, txt ? txt : "", len);
    if (c->type.id == CAT_T_DATE || c->type.id == CAT_T_DATETIME) {
        return db_error_set(err, ER_WRONG_DATETIME_FOR_FIELD, type_word(&c->type), q, c->name,
                            (unsigned long long)rowno);
    }
    return db_error_set(err, ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, type_word(&c->type), q, c->name,
                        (unsigned long long)rowno);
}

static int
out_of_range(const plan_tcol *c, uint64_t rowno, db_error *err)
{
    return db_error_set(err, ER_WARN_DATA_OUT_OF_RANGE, c->name, (unsigned long long)rowno);
}

/* Is s[0..len) a number as a whole (blanks around allowed)? */
static bool
is_number_text(const char *s, size_t len)
{
    char tmp[128];
    if (len == 0 || len >= sizeof tmp) {
        return false;
    }
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    char *end;
    strtod(tmp, &end);
    if (end == tmp) {
        return false;
    }
    while (*end == ' ' || *end == '\t') {
        end++;
    }
    return *end == '\0';
}

/* Is s[0..len) a plain decimal ([sign] digits [. digits], blanks around allowed)? Then
 * *start / *n delimit it without the blanks. */
static bool
plain_decimal(const char *s, size_t len, size_t *start, size_t *n)
{
    size_t i = 0, e = len;
    while (i < e && (s[i] == ' ' || s[i] == '\t')) {
        i++;
    }
    while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t')) {
        e--;
    }
    size_t j = i;
    if (j < e && (s[j] == '-' || s[j] == '+')) {
        j++;
    }
    bool digit = false, point = false;
    for (; j < e; j++) {
        if (s[j] >= '0' && s[j] <= '9') {
            digit = true;
        } else if (s[j] == '.' && !point) {
            point = true;
        } else {
            return false;
        }
    }
    *start = i;
    *n = e - i;
    return digit;
}

static size_t
utf8_chars(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    }
    return n;
}

static int
conv_int(plan_ectx *cx, const plan_tcol *c, const plan_value *v, uint64_t rowno, plan_scell *out,
         db_error *err)
{
    static const int64_t lo[] = {[CAT_T_TINYINT] = INT8_MIN,
                                 [CAT_T_SMALLINT] = INT16_MIN,
                                 [CAT_T_INT] = INT32_MIN,
                                 [CAT_T_BIGINT] = INT64_MIN};
    static const int64_t hi[] = {[CAT_T_TINYINT] = INT8_MAX,
                                 [CAT_T_SMALLINT] = INT16_MAX,
                                 [CAT_T_INT] = INT32_MAX,
                                 [CAT_T_BIGINT] = INT64_MAX};
    if (v->kind == PV_STRING && !is_number_text(v->str.s, v->str.len)) {
        if (c->type.id == CAT_T_BOOLEAN) {
            if (str_ieqz(v->str.s, v->str.len, "true")) {
                out->i = 1;
                return DB_OK;
            }
            if (str_ieqz(v->str.s, v->str.len, "false")) {
                out->i = 0;
                return DB_OK;
            }
        }
        return bad_value(cx, c, v, rowno, err);
    }
    if (v->kind == PV_DOUBLE &&
        (isnan(v->d) || v->d >= 9.2233720368547758e18 || v->d < -9.2233720368547758e18)) {
        return out_of_range(c, rowno, err);
    }
    if (v->kind == PV_DECIMAL) {
        __int128 r;
        if (!plan__dec_rescale(v->dec, v->scale, 0, &r) || r > INT64_MAX || r < INT64_MIN) {
            return out_of_range(c, rowno, err);
        }
    }
    if (v->kind == PV_INT && v->is_unsigned && v->u > INT64_MAX) {
        return out_of_range(c, rowno, err);
    }
    bool trunc = false;
    int64_t x;
    if (v->kind == PV_STRING) {
        __int128 dv, r;
        int sc;
        size_t at, n;
        if (plain_decimal(v->str.s, v->str.len, &at, &n) &&
            plan__dec_parse(v->str.s + at, n, &dv, &sc) && plan__dec_rescale(dv, sc, 0, &r)) {
            /* exact, also for integers a double cannot hold ('9223372036854775807') */
            if (r > INT64_MAX || r < INT64_MIN) {
                return out_of_range(c, rowno, err);
            }
            x = (int64_t)r;
        } else {
            double d = plan__v_to_double(v, &trunc); /* exponents, huge texts */
            if (d >= 9.2233720368547758e18 || d < -9.2233720368547758e18) {
                return out_of_range(c, rowno, err);
            }
            x = (int64_t)llround(d);
        }
    } else {
        x = plan__v_to_int(v, &trunc);
    }
    if (c->type.id == CAT_T_BOOLEAN) {
        out->i = x != 0;
        return DB_OK;
    }
    if (x < lo[c->type.id] || x > hi[c->type.id]) {
        return out_of_range(c, rowno, err);
    }
    out->i = x;
    return DB_OK;
}

/* A whole decimal integer (blanks around allowed) into a signed 128-bit value; false when it
 * is not one or does not fit. */
static bool
parse_int128(const char *s, size_t len, __int128 *out)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t')) {
        i++;
    }
    bool neg = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    const unsigned __int128 lim =
            neg ? (unsigned __int128)1 << 127 : ((unsigned __int128)1 << 127) - 1;
    unsigned __int128 v = 0;
    size_t digits = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (lim - d) / 10) {
            return false;
        }
        v = v * 10 + d;
    }
    while (i < len && (s[i] == ' ' || s[i] == '\t')) {
        i++;
    }
    if (digits == 0 || i != len) {
        return false;
    }
    *out = neg ? (__int128)(0 - v) : (__int128)v;
    return true;
}

static int
conv_dec(plan_ectx *cx, const plan_tcol *c, const plan_value *v, uint64_t rowno, plan_scell *out,
         db_error *err)
{
    int prec = c->type.id == CAT_T_LARGEINT ? 39 : c->type.precision;
    int scale = c->type.id == CAT_T_LARGEINT ? 0 : c->type.scale;
    __int128 x;
    bool trunc = false;
    if (v->kind == PV_STRING && !is_number_text(v->str.s, v->str.len)) {
        return bad_value(cx, c, v, rowno, err);
    }
    if (v->kind == PV_DOUBLE && (isnan(v->d) || fabs(v->d) >= 1.7e38)) {
        return out_of_range(c, rowno, err);
    }
    if (c->type.id == CAT_T_LARGEINT && v->kind == PV_INT) {
        x = v->is_unsigned ? (__int128)v->u : (__int128)v->i;
    } else if (c->type.id == CAT_T_LARGEINT && v->kind == PV_STRING &&
               parse_int128(v->str.s, v->str.len, &x)) {
        /* 39-digit integers: the full LARGEINT range, beyond DECIMAL(38) */
    } else if (!plan__v_to_dec(v, scale, &x, &trunc)) {
        return out_of_range(c, rowno, err);
    }
    if (c->type.id != CAT_T_LARGEINT && plan__dec_digits(x) > prec) {
        return out_of_range(c, rowno, err);
    }
    out->x = x;
    return DB_OK;
}

static int
conv_temporal(plan_ectx *cx, const plan_tcol *c, const plan_value *v, uint64_t rowno,
              plan_scell *out, db_error *err)
{
    int64_t us;
    if (v->kind == PV_DATE || v->kind == PV_DATETIME) {
        us = v->us;
    } else {
        const char *s;
        size_t len;
        bool has_time;
        if (v->kind == PV_TIME || !plan__v_string(cx, v, &s, &len) ||
            !plan__parse_datetime(s, len, &us, &has_time)) {
            return bad_value(cx, c, v, rowno, err);
        }
    }
    const int64_t day = INT64_C(86400000000);
    if (c->type.id == CAT_T_DATE) {
        out->i = us >= 0 ? us / day : -((-us + day - 1) / day);
        return DB_OK;
    }
    int drop = 6 - c->type.scale; /* round the fraction to the column's digits */
    int64_t unit = 1;
    for (int i = 0; i < drop; i++) {
        unit *= 10;
    }
    int64_t r = us % unit;
    us -= r;
    if (r < 0) {
        us -= unit;
        r += unit;
    }
    if (r * 2 >= unit) {
        us += unit;
    }
    out->i = us;
    return DB_OK;
}

/* A JSON column stores the normal form of its text (plan_json.h). Text that is not JSON is an
 * error under enable_insert_strict (the default), NULL otherwise (Doris filters the row in
 * strict mode and loads NULL without it). */
static int
conv_json(plan_ectx *cx, const plan_tcol *c, const plan_value *v, plan_scell *out, db_error *err)
{
    const char *s;
    size_t len, nlen;
    if (!plan__v_string(cx, v, &s, &len)) {
        out->null = true;
        return DB_OK;
    }
    plan_json_err je = {0};
    char *j = plan__json_normalize(cx->a, s, len, &nlen, &je);
    if (j == NULL) {
        int idx = plan__sysvar_find("enable_insert_strict");
        if (idx >= 0 && cx->s->vars[idx].i == 0) {
            if (!c->nullable) {
                return db_error_set(err, ER_BAD_NULL_ERROR, c->name);
            }
            out->null = true;
            return DB_OK;
        }
        int shown = len > 64 ? 64 : (int)len;
        return db_error_set(
                err, ER_DORIS,
                arena_sprintf(cx->a, "Invalid jsonb literal: '%.*s%s'. because %s at position %zu",
                              shown, s, len > 64 ? "..." : "", je.msg, je.pos));
    }
    if (nlen > UINT32_MAX) {
        return db_error_set(err, ER_DATA_TOO_LONG, c->name, 1ULL);
    }
    out->s = j;
    out->len = (uint32_t)nlen;
    return DB_OK;
}

static int conv_value(plan_ectx *cx, const plan_tcol *c, const plan_value *v, uint64_t rowno,
                      plan_scell *out, db_error *err);

/* Appends the canonical text of one converted element (conv_value's cell for type et). */
static void
arr_cell_out(plan_arr_out *o, const cat_type *et, const plan_scell *cell)
{
    char tb[96];
    size_t n;
    plan_value v;
    memset(&v, 0, sizeof v);
    switch (et->id) {
    case CAT_T_BOOLEAN:
    case CAT_T_TINYINT:
    case CAT_T_SMALLINT:
    case CAT_T_INT:
    case CAT_T_BIGINT:
        n = (size_t)snprintf(tb, sizeof tb, "%lld", (long long)cell->i);
        plan__arr_out_elem(o, tb, n);
        return;
    case CAT_T_LARGEINT:
    case CAT_T_DECIMAL: {
        v = plan__v_dec(cell->x, et->id == CAT_T_DECIMAL ? et->scale : 0);
        const char *t = plan__v_text(o->a, &v, &n);
        plan__arr_out_elem(o, t, n);
        return;
    }
    case CAT_T_FLOAT:
    case CAT_T_DOUBLE:
        n = plan__double_fmt(et->id == CAT_T_FLOAT ? plan__float_shortest(cell->d) : cell->d, tb);
        plan__arr_out_elem(o, tb, n);
        return;
    case CAT_T_DATE:
        v.kind = PV_DATE;
        v.us = cell->i * INT64_C(86400000000);
        n = plan__datetime_fmt(&v, tb, sizeof tb);
        plan__arr_out_str(o, tb, n);
        return;
    case CAT_T_DATETIME:
        v.kind = PV_DATETIME;
        v.us = cell->i;
        v.scale = et->scale;
        n = plan__datetime_fmt(&v, tb, sizeof tb);
        plan__arr_out_str(o, tb, n);
        return;
    case CAT_T_ARRAY:
        plan__arr_out_elem(o, cell->s, cell->len);
        return;
    default:
        plan__arr_out_str(o, cell->s, cell->len);
        return;
    }
}

/* Normalizes the array text s[0..len) with elements of type et into o: each element is
 * converted as a value for a column of type et (conv_value). False when the text is not an
 * array, or (strict) when an element does not convert; without strict such an element is
 * NULL. Recursion is bounded by the element type's nesting (cat_type.inner is 48 bytes). */
static bool
arr_norm(plan_ectx *cx, const plan_tcol *c, const cat_type *et, const char *s, size_t len,
         bool strict, plan_arr_out *o)
{
    plan_arr_iter it;
    plan_arr_elem e;
    if (!plan__arr_begin(&it, s, len)) {
        return false;
    }
    cat_type inner;
    bool nested = et->id == CAT_T_ARRAY;
    if (nested && !plan__arr_type_parse(et->inner, strlen(et->inner), &inner)) {
        return false;
    }
    plan_tcol ec = *c;
    ec.type = *et;
    ec.nullable = true;
    int r;
    while ((r = plan__arr_next(&it, &e)) == 1) {
        bool ok = true;
        if (e.kind == PLAN_ARR_NULL) {
            plan__arr_out_null(o);
            continue;
        }
        if (nested) {
            plan_arr_out sub;
            plan__arr_out_init(&sub, o->a);
            ok = e.kind == PLAN_ARR_ARRAY && arr_norm(cx, c, &inner, e.s, e.len, strict, &sub);
            if (ok) {
                size_t n;
                const char *t = plan__arr_out_end(&sub, &n);
                plan__arr_out_elem(o, t, n);
            }
        } else if (e.kind == PLAN_ARR_ARRAY) {
            ok = false;
        } else {
            const char *t = e.s;
            size_t n = e.len;
            if (e.kind == PLAN_ARR_STR) {
                char *u = arena_alloc(o->a, n + 1);
                n = plan__arr_unescape(e.s, e.len, u);
                t = u;
            } else if (et->id == CAT_T_BOOLEAN && (n == 4 || n == 5)) {
                if (strncasecmp(t, "true", n) == 0) {
                    t = "1", n = 1;
                } else if (strncasecmp(t, "false", n) == 0) {
                    t = "0", n = 1;
                }
            }
            plan_value ev = plan__v_str(t, n);
            __int128 iv;
            if (et->id >= CAT_T_TINYINT && et->id <= CAT_T_BIGINT && parse_int128(t, n, &iv) &&
                iv >= INT64_MIN && iv <= INT64_MAX) {
                ev = plan__v_int((int64_t)iv); /* exact, where the text path goes through double */
            }
            plan_scell cell;
            db_error ee;
            db_error_clear(&ee);
            ok = conv_value(cx, &ec, &ev, 1, &cell, &ee) == DB_OK && !cell.null;
            if (ok) {
                arr_cell_out(o, et, &cell);
            }
        }
        if (!ok) {
            if (strict) {
                return false;
            }
            plan__arr_out_null(o);
        }
    }
    return r == 0;
}

bool
plan__arr_put(plan_ectx *cx, const cat_type *et, const plan_value *v, plan_arr_out *o)
{
    if (v->kind == PV_NULL) {
        plan__arr_out_null(o);
        return true;
    }
    plan_tcol ec;
    memset(&ec, 0, sizeof ec);
    ec.name = "";
    ec.type = *et;
    ec.nullable = true;
    if (et->id == CAT_T_ARRAY) {
        const char *s;
        size_t len;
        cat_type inner;
        plan_arr_out sub;
        plan__arr_out_init(&sub, o->a);
        if (plan__v_string(cx, v, &s, &len) &&
            plan__arr_type_parse(et->inner, strlen(et->inner), &inner) &&
            arr_norm(cx, &ec, &inner, s, len, false, &sub)) {
            size_t n;
            const char *t = plan__arr_out_end(&sub, &n);
            plan__arr_out_elem(o, t, n);
            return true;
        }
        plan__arr_out_null(o);
        return false;
    }
    plan_scell cell;
    db_error ee;
    db_error_clear(&ee);
    if (conv_value(cx, &ec, v, 1, &cell, &ee) != DB_OK || cell.null) {
        plan__arr_out_null(o);
        return false;
    }
    arr_cell_out(o, et, &cell);
    return true;
}

const char *
plan__arr_normalize(plan_ectx *cx, const cat_type *et, const char *s, size_t len, size_t *out_len)
{
    plan_tcol ec;
    memset(&ec, 0, sizeof ec);
    ec.name = "";
    ec.type = *et;
    ec.nullable = true;
    plan_arr_out o;
    plan__arr_out_init(&o, cx->a);
    if (!arr_norm(cx, &ec, et, s, len, false, &o)) {
        return NULL;
    }
    return plan__arr_out_end(&o, out_len);
}

/* An ARRAY column stores the canonical text of its value (plan_array.h), every element
 * converted to the element type. Under enable_insert_strict (the default) text that is not an
 * array, or an element that does not convert, is Doris's strict-mode error; without it such
 * an element is NULL, and text that is not an array is NULL (1048 for a NOT NULL column). */
static int
conv_array(plan_ectx *cx, const plan_tcol *c, const plan_value *v, uint64_t rowno, plan_scell *out,
           db_error *err)
{
    (void)rowno;
    const char *s;
    size_t len;
    if (!plan__v_string(cx, v, &s, &len)) {
        out->null = true;
        return DB_OK;
    }
    cat_type et;
    if (!plan__arr_type_parse(c->type.inner, strlen(c->type.inner), &et)) {
        return db_error_set(
                err, ER_DORIS,
                arena_sprintf(cx->a, "Unsupported array element type: %s", c->type.inner));
    }
    int idx = plan__sysvar_find("enable_insert_strict");
    bool strict = !(idx >= 0 && cx->s->vars[idx].i == 0);
    plan_arr_out o;
    plan__arr_out_init(&o, cx->a);
    if (!arr_norm(cx, c, &et, s, len, strict, &o)) {
        if (!strict) {
            if (!c->nullable) {
                return db_error_set(err, ER_BAD_NULL_ERROR, c->name);
            }
            out->null = true;
            return DB_OK;
        }
        int shown = len > 64 ? 64 : (int)len;
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a,
                                          "Insert has filtered data in strict mode. Reason: "
                                          "column(%s) value is incorrect while strict mode is "
                                          "true, src value is %.*s%s",
                                          c->name, shown, s, len > 64 ? "..." : ""));
    }
    size_t n;
    const char *t = plan__arr_out_end(&o, &n);
    if (n > UINT32_MAX) {
        return db_error_set(err, ER_DATA_TOO_LONG, c->name, 1ULL);
    }
    out->s = t;
    out->len = (uint32_t)n;
    return DB_OK;
}

/* Convert v for column c (row number rowno, 1-based, for messages) into *out. NULL into a NOT
 * NULL column is ER_BAD_NULL_ERROR. String bytes are copied into cx->a when they do not
 * already live there. */
static int
conv_value(plan_ectx *cx, const plan_tcol *c, const plan_value *v, uint64_t rowno, plan_scell *out,
           db_error *err)
{
    memset(out, 0, sizeof *out);
    if (v->kind == PV_NULL) {
        if (!c->nullable) {
            return db_error_set(err, ER_BAD_NULL_ERROR, c->name);
        }
        out->null = true;
        return DB_OK;
    }
    switch (c->type.id) {
    case CAT_T_BOOLEAN:
    case CAT_T_TINYINT:
    case CAT_T_SMALLINT:
    case CAT_T_INT:
    case CAT_T_BIGINT:
        return conv_int(cx, c, v, rowno, out, err);
    case CAT_T_LARGEINT:
    case CAT_T_DECIMAL:
        return conv_dec(cx, c, v, rowno, out, err);
    case CAT_T_FLOAT:
    case CAT_T_DOUBLE: {
        if (v->kind == PV_STRING && !is_number_text(v->str.s, v->str.len)) {
            return bad_value(cx, c, v, rowno, err);
        }
        bool trunc = false;
        double d = plan__v_to_double(v, &trunc);
        if (isinf(d) || (c->type.id == CAT_T_FLOAT && fabs(d) > FLT_MAX)) {
            return out_of_range(c, rowno, err);
        }
        out->d = c->type.id == CAT_T_FLOAT ? (double)(float)d : d;
        return DB_OK;
    }
    case CAT_T_DATE:
    case CAT_T_DATETIME:
        return conv_temporal(cx, c, v, rowno, out, err);
    case CAT_T_JSON:
        return conv_json(cx, c, v, out, err);
    case CAT_T_ARRAY:
        return conv_array(cx, c, v, rowno, out, err);
    default: {
        const char *s;
        size_t len;
        if (!plan__v_string(cx, v, &s, &len)) {
            out->null = true;
            return DB_OK;
        }
        if ((c->type.id == CAT_T_CHAR || c->type.id == CAT_T_VARCHAR) &&
            utf8_chars(s, len) > (size_t)c->type.len) {
            return db_error_set(err, ER_DATA_TOO_LONG, c->name, (unsigned long long)rowno);
        }
        if (len > UINT32_MAX) {
            return db_error_set(err, ER_DATA_TOO_LONG, c->name, (unsigned long long)rowno);
        }
        out->s = s;
        out->len = (uint32_t)len;
        return DB_OK;
    }
    }
}

/* The value of a constant text (a default or a partition bound) for column c. */
static int
conv_text(plan_ectx *cx, const plan_tcol *c, const char *text, plan_scell *out, db_error *err)
{
    plan_value v = plan__v_str(text, strlen(text));
    plan_tcol tmp = *c;
    tmp.nullable = true;
    return conv_value(cx, &tmp, &v, 1, out, err);
}

static int
cell_cmp(const plan_tcol *c, const plan_scell *a, const plan_scell *b)
{
    if (a->null || b->null) {
        return a->null == b->null ? 0 : (a->null ? -1 : 1);
    }
    switch (c->kind) {
    case STOR_VEC_I64:
        return a->i < b->i ? -1 : a->i > b->i;
    case STOR_VEC_F64:
        return a->d < b->d ? -1 : a->d > b->d;
    case STOR_VEC_I128:
        return a->x < b->x ? -1 : a->x > b->x;
    default: {
        size_t n = a->len < b->len ? a->len : b->len;
        int r = n ? memcmp(a->s, b->s, n) : 0;
        return r ? r : (a->len < b->len ? -1 : a->len > b->len);
    }
    }
}

bool
plan__scell_of(plan_ectx *cx, const plan_tcol *c, const plan_value *v, plan_scell *out)
{
    db_error err;
    db_error_clear(&err);
    plan_tcol tmp = *c;
    tmp.nullable = true;
    return conv_value(cx, &tmp, v, 1, out, &err) == DB_OK && !out->null;
}

int
plan__scell_cmp(const plan_tcol *c, const plan_scell *a, const plan_scell *b)
{
    return cell_cmp(c, a, b);
}

/* ======================================================================================
 * Tables
 * ====================================================================================== */

void
plan__tbl_use_temp(plan_tbl *t)
{
    t->parts = t->tmp_parts;
    t->nparts = t->ntmp_parts;
    t->tmp_parts = NULL;
    t->ntmp_parts = 0;
}

int
plan__tbl_open(plan_ectx *cx, const char *db, const char *name, plan_tbl *out, db_error *err)
{
    cat_meta *m = cx->s->srv->meta;
    memset(out, 0, sizeof *out);
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_db *d = cat_db_find(c, db);
    const cat_table *t = d ? cat_table_find(d, name) : NULL;
    if (t == NULL) {
        cat_meta_read_end(m);
        return d ? db_error_set(err, ER_NO_SUCH_TABLE, db, name)
                 : db_error_set(err, ER_BAD_DB_ERROR, db);
    }
    if (t->view_sql) { /* views are expanded by plan_select.c; nothing else takes one */
        cat_meta_read_end(m);
        return db_error_set(err, ER_NON_INSERTABLE_TABLE, name, "INSERT");
    }
    if (t->stream) { /* streams are read by plan_stream.c; never written */
        cat_meta_read_end(m);
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a, "'%s' is a STREAM, it cannot be written", name));
    }
    arena *a = cx->a;
    int rc = stor_schema_from_table(t, a, &out->sc, err);
    out->db = arena_strdup(a, d->name);
    out->name = arena_strdup(a, t->name);
    out->id = t->id;
    out->ncols = (uint32_t)t->ncols;
    out->cols = arena_calloc(a, t->ncols ? t->ncols : 1, sizeof *out->cols);
    out->delete_sign_col = out->commit_tso_col = out->seq_hidden_col = out->seq_map_col = -1;
    out->part_col = -1;
    const char *seq_map = cat_props_get(&t->props, "function_column.sequence_col");
    for (size_t i = 0; i < t->ncols; i++) {
        const cat_column *cc = &t->cols[i];
        plan_tcol *pc = &out->cols[i];
        pc->name = arena_strdup(a, cc->name);
        pc->type = cc->type;
        pc->kind = stor_vec_kind_of(&cc->type);
        plan__cat_xtype(&cc->type, cc->nullable, &pc->xt, &pc->vk);
        pc->nullable = cc->nullable;
        pc->hidden = (cc->flags & CAT_COL_HIDDEN) != 0;
        pc->is_key = cc->is_key;
        pc->auto_inc = cc->auto_inc;
        pc->has_default = cc->has_default;
        pc->default_is_expr = cc->default_is_expr;
        pc->default_text = cc->default_text ? arena_strdup(a, cc->default_text) : NULL;
        if (!pc->hidden) {
            out->nvis++;
        }
        if (strcasecmp(cc->name, CAT_COL_DELETE_SIGN) == 0) {
            out->delete_sign_col = (int32_t)i;
        } else if (strcasecmp(cc->name, CAT_COL_COMMIT_TSO) == 0) {
            out->commit_tso_col = (int32_t)i;
        } else if (strcasecmp(cc->name, CAT_COL_SEQUENCE) == 0) {
            out->seq_hidden_col = (int32_t)i;
        }
        if (seq_map && strcasecmp(cc->name, seq_map) == 0) {
            out->seq_map_col = (int32_t)i;
        }
        if (cc->uid == t->part_col_uid) {
            out->part_col = (int32_t)i;
        }
    }
    /* Storage's copy of the constant defaults: what rows written before ADD COLUMN hold when
     * the writer reads them back (partial updates, binlog before images). */
    out->sc.defaults = arena_calloc(a, t->ncols ? t->ncols : 1, sizeof *out->sc.defaults);
    for (size_t i = 0; i < t->ncols; i++) {
        const plan_tcol *pc = &out->cols[i];
        if (pc->default_text == NULL || pc->default_is_expr) {
            continue;
        }
        plan_scell cell;
        db_error derr;
        db_error_clear(&derr);
        if (conv_text(cx, pc, pc->default_text, &cell, &derr) != DB_OK || cell.null) {
            continue;
        }
        stor_vec *v = &out->sc.defaults[i];
        v->kind = pc->kind;
        v->n = 1;
        switch (pc->kind) {
        case STOR_VEC_F64:
            v->f64 = arena_alloc(a, sizeof *v->f64);
            v->f64[0] = cell.d;
            break;
        case STOR_VEC_I128:
            v->i128 = arena_alloc(a, sizeof *v->i128);
            v->i128[0] = cell.x;
            break;
        case STOR_VEC_BYTES:
            v->offs = arena_alloc(a, 2 * sizeof *v->offs);
            v->offs[0] = 0;
            v->offs[1] = cell.len;
            v->data = (uint8_t *)arena_strndup(a, cell.s ? cell.s : "", cell.len);
            break;
        default:
            v->i64 = arena_alloc(a, sizeof *v->i64);
            v->i64[0] = cell.i;
            break;
        }
    }
    out->part_type = t->part_type;
    out->nparts = (uint32_t)t->nparts;
    out->ntmp_parts = (uint32_t)t->ntmp_parts;
    size_t nall = t->nparts + t->ntmp_parts; /* formal ones, then temporary ones */
    out->parts = arena_calloc(a, nall ? nall : 1, sizeof *out->parts);
    out->tmp_parts = out->parts + t->nparts;
    out->dist_random = t->dist_random || t->ndist == 0;
    out->ndist = (uint32_t)t->ndist;
    out->dist = arena_calloc(a, t->ndist ? t->ndist : 1, sizeof *out->dist);
    for (size_t k = 0; k < t->ndist; k++) {
        for (size_t i = 0; i < t->ncols; i++) {
            if (t->cols[i].uid == t->dist_uids[k]) {
                out->dist[k] = (uint32_t)i;
            }
        }
    }
    /* Partition bounds need the column's conversion; copy the texts first. */
    typedef struct part_text {
        const char *lower, *upper;
        const char **values;
    } part_text;
    part_text *pt = arena_calloc(a, nall ? nall : 1, sizeof *pt);
    for (size_t p = 0; p < nall; p++) {
        const cat_partition *cp = p < t->nparts ? &t->parts[p] : &t->tmp_parts[p - t->nparts];
        plan_tpart *pp = &out->parts[p];
        pp->has_null = cp->has_null;
        pp->id = cp->id;
        pp->name = arena_strdup(a, cp->name);
        pp->buckets = cp->buckets > 0 ? (uint32_t)cp->buckets : 1;
        pp->lower_min = cp->lower_min || cp->lower == NULL;
        pp->upper_max = cp->upper_max || cp->upper == NULL;
        pt[p].lower = cp->lower ? arena_strdup(a, cp->lower) : NULL;
        pt[p].upper = cp->upper ? arena_strdup(a, cp->upper) : NULL;
        pp->nvalues = (uint32_t)cp->nvalues;
        pt[p].values = arena_calloc(a, cp->nvalues ? cp->nvalues : 1, sizeof(char *));
        for (size_t k = 0; k < cp->nvalues; k++) {
            pt[p].values[k] = arena_strdup(a, cp->values[k]);
        }
    }
    cat_meta_read_end(m);
    if (rc != DB_OK) {
        return DB_ERR;
    }
    if (out->part_col >= 0) {
        const plan_tcol *pc = &out->cols[out->part_col];
        for (uint32_t p = 0; p < out->nparts + out->ntmp_parts; p++) {
            plan_tpart *pp = &out->parts[p];
            if ((!pp->lower_min && conv_text(cx, pc, pt[p].lower, &pp->lower, err) != DB_OK) ||
                (!pp->upper_max && conv_text(cx, pc, pt[p].upper, &pp->upper, err) != DB_OK)) {
                return DB_ERR;
            }
            pp->values = arena_calloc(a, pp->nvalues ? pp->nvalues : 1, sizeof *pp->values);
            for (uint32_t k = 0; k < pp->nvalues; k++) {
                if (conv_text(cx, pc, pt[p].values[k], &pp->values[k], err) != DB_OK) {
                    return DB_ERR;
                }
            }
        }
    }
    return DB_OK;
}

/* ======================================================================================
 * Row buffer: converted rows, routed to tablets and handed to the writer in chunks
 * ====================================================================================== */

typedef struct dml_buf {
    plan_ectx *cx;
    const plan_tbl *tbl;
    const stor_schema *sc; /* tbl->sc, or the transaction's copy of it */
    stor_writer *w;
    const bool *given; /* partial update mask or NULL */
    plan_scell *cells; /* DML_CHUNK * ncols */
    uint32_t n;
    uint64_t total;      /* rows handed over */
    uint32_t rr;         /* RANDOM distribution: next bucket */
    arena *chunk;        /* string copies and vectors of one chunk */
    const bool *part_ok; /* INSERT ... PARTITION (p, ...): the partitions rows may go to */
} dml_buf;

static void
rb_init(dml_buf *b, plan_ectx *cx, const plan_tbl *tbl, stor_writer *w, const bool *given)
{
    memset(b, 0, sizeof *b);
    b->cx = cx;
    b->tbl = tbl;
    b->sc = &tbl->sc;
    b->w = w;
    b->given = given;
    b->cells = arena_calloc(cx->a, (size_t)DML_CHUNK * tbl->ncols, sizeof(plan_scell));
    b->chunk = arena_new(0);
    b->rr = (uint32_t)(cx->now_utc_us & 0xFFFF);
}

static void
rb_destroy(dml_buf *b)
{
    arena_free(b->chunk);
    b->chunk = NULL;
}

static void
no_partition(const plan_tbl *t, const plan_scell *cell, db_error *err, arena *a)
{
    const plan_tcol *c = &t->cols[t->part_col];
    const char *txt = "NULL";
    if (!cell->null) {
        switch (c->kind) {
        case STOR_VEC_I64:
            if (c->type.id == CAT_T_DATE || c->type.id == CAT_T_DATETIME) {
                plan_value v;
                memset(&v, 0, sizeof v);
                v.kind = c->type.id == CAT_T_DATE ? PV_DATE : PV_DATETIME;
                v.us = c->type.id == CAT_T_DATE ? cell->i * INT64_C(86400000000) : cell->i;
                v.scale = c->type.scale;
                size_t len;
                txt = plan__v_text(a, &v, &len);
            } else {
                txt = arena_sprintf(a, "%" PRId64, cell->i);
            }
            break;
        case STOR_VEC_BYTES:
            txt = arena_strndup(a, cell->s, cell->len);
            break;
        default: {
            plan_value v = c->kind == STOR_VEC_F64 ? plan__v_double(cell->d)
                                                   : plan__v_dec(cell->x, c->type.scale);
            size_t len;
            txt = plan__v_text(a, &v, &len);
        }
        }
    }
    db_error_set(err, ER_DORIS,
                 arena_sprintf(a,
                               "Insert has filtered data in strict mode. Reason: no partition "
                               "for this tuple. tuple=(%s)",
                               txt));
}

/* Partition index of a row, or -1. */
static int
route_part(const plan_tbl *t, const plan_scell *row)
{
    if (t->part_type == CAT_PART_NONE || t->part_col < 0) {
        return t->nparts > 0 ? 0 : -1;
    }
    const plan_tcol *c = &t->cols[t->part_col];
    const plan_scell *v = &row[t->part_col];
    for (uint32_t p = 0; p < t->nparts; p++) {
        const plan_tpart *pp = &t->parts[p];
        if (t->part_type == CAT_PART_RANGE) {
            if (v->null) {
                if (pp->lower_min) {
                    return (int)p; /* NULL is the smallest value */
                }
                continue;
            }
            if ((pp->lower_min || cell_cmp(c, &pp->lower, v) <= 0) &&
                (pp->upper_max || cell_cmp(c, v, &pp->upper) < 0)) {
                return (int)p;
            }
        } else {
            if (v->null) {
                if (pp->has_null) {
                    return (int)p; /* the VALUES IN ((NULL)) partition */
                }
                continue;
            }
            for (uint32_t k = 0; k < pp->nvalues; k++) {
                if (cell_cmp(c, &pp->values[k], v) == 0) {
                    return (int)p;
                }
            }
        }
    }
    return -1;
}

/* Build column vectors of the rows idx[0..n) of the chunk. */
static void
gather(dml_buf *b, const uint32_t *idx, uint32_t n, stor_vec *vecs)
{
    const plan_tbl *t = b->tbl;
    arena *a = b->chunk;
    for (uint32_t c = 0; c < t->ncols; c++) {
        stor_vec *v = &vecs[c];
        memset(v, 0, sizeof *v);
        v->kind = t->cols[c].kind;
        v->n = n;
        uint8_t *nulls = NULL;
        size_t bytes = 0;
        for (uint32_t k = 0; k < n; k++) {
            const plan_scell *cell = &b->cells[(size_t)idx[k] * t->ncols + c];
            if (cell->null) {
                if (!nulls) {
                    nulls = arena_calloc(a, (n + 7) / 8, 1);
                }
                nulls[k >> 3] |= (uint8_t)(1u << (k & 7));
            } else {
                bytes += cell->len;
            }
        }
        v->nulls = nulls;
        if (v->kind == STOR_VEC_I64) {
            v->i64 = arena_alloc(a, (size_t)n * sizeof(int64_t) + 8);
        } else if (v->kind == STOR_VEC_F64) {
            v->f64 = arena_alloc(a, (size_t)n * sizeof(double) + 8);
        } else if (v->kind == STOR_VEC_I128) {
            v->i128 = arena_alloc(a, (size_t)n * sizeof(stor_i128) + 16);
        }
        switch (v->kind) {
        case STOR_VEC_I64:
        case STOR_VEC_F64:
        case STOR_VEC_I128:
            for (uint32_t k = 0; k < n; k++) { /* a NULL's slot holds 0 */
                const plan_scell *cell = &b->cells[(size_t)idx[k] * t->ncols + c];
                if (v->kind == STOR_VEC_I64) {
                    v->i64[k] = cell->null ? 0 : cell->i;
                } else if (v->kind == STOR_VEC_F64) {
                    v->f64[k] = cell->null ? 0 : cell->d;
                } else {
                    v->i128[k] = cell->null ? 0 : cell->x;
                }
            }
            break;
        default: {
            v->offs = arena_alloc(a, ((size_t)n + 1) * sizeof(uint64_t));
            v->data = arena_alloc(a, bytes + 1);
            uint64_t off = 0;
            for (uint32_t k = 0; k < n; k++) {
                const plan_scell *cell = &b->cells[(size_t)idx[k] * t->ncols + c];
                v->offs[k] = off;
                if (!cell->null && cell->len) {
                    memcpy(v->data + off, cell->s, cell->len);
                    off += cell->len;
                }
            }
            v->offs[n] = off;
        }
        }
    }
}

typedef struct route {
    uint32_t part, bucket, row;
} route;

static int
cmp_route(const void *x, const void *y)
{
    const route *a = x, *b = y;
    if (a->part != b->part) {
        return a->part < b->part ? -1 : 1;
    }
    if (a->bucket != b->bucket) {
        return a->bucket < b->bucket ? -1 : 1;
    }
    return a->row < b->row ? -1 : a->row > b->row;
}

static int
rb_flush(dml_buf *b, db_error *err)
{
    if (b->n == 0) {
        return DB_OK;
    }
    const plan_tbl *t = b->tbl;
    arena *a = b->chunk;
    route *r = arena_alloc(a, (size_t)b->n * sizeof *r);
    /* Whole-chunk vectors first: bucket hashing reads them. */
    uint32_t *all = arena_alloc(a, (size_t)b->n * sizeof *all);
    for (uint32_t k = 0; k < b->n; k++) {
        all[k] = k;
    }
    stor_vec *vecs = arena_alloc(a, t->ncols * sizeof *vecs);
    gather(b, all, b->n, vecs);
    for (uint32_t k = 0; k < b->n; k++) {
        int p = route_part(t, &b->cells[(size_t)k * t->ncols]);
        if (p < 0 || (b->part_ok != NULL && !b->part_ok[p])) {
            if (t->part_col < 0) {
                return db_error_set(err, ER_DORIS,
                                    "Insert has filtered data in strict mode. Reason: no "
                                    "partition for this tuple.");
            }
            no_partition(t, &b->cells[(size_t)k * t->ncols + t->part_col], err, b->cx->a);
            return DB_ERR;
        }
        uint32_t nb = t->parts[p].buckets;
        r[k].part = (uint32_t)p;
        r[k].row = k;
        if (t->dist_random) {
            r[k].bucket = b->rr++ % nb;
        } else {
            r[k].bucket = stor_bucket_of(b->sc, vecs, t->dist, t->ndist, k, nb);
        }
    }
    qsort(r, b->n, sizeof *r, cmp_route);
    uint32_t *idx = arena_alloc(a, (size_t)b->n * sizeof *idx);
    for (uint32_t i = 0; i < b->n;) {
        uint32_t j = i;
        while (j < b->n && r[j].part == r[i].part && r[j].bucket == r[i].bucket) {
            idx[j - i] = r[j].row;
            j++;
        }
        stor_vec *gv = arena_alloc(a, t->ncols * sizeof *gv);
        gather(b, idx, j - i, gv);
        if (stor_writer_put(b->w, b->sc, t->parts[r[i].part].id, r[i].bucket, gv, j - i, b->given,
                            err) != DB_OK) {
            return DB_ERR;
        }
        i = j;
    }
    b->total += b->n;
    b->n = 0;
    arena_reset(b->chunk);
    return DB_OK;
}

/* The next row slot of the buffer (flushing a full chunk first). */
static int
rb_row(dml_buf *b, plan_scell **row, db_error *err)
{
    if (b->n == DML_CHUNK && rb_flush(b, err) != DB_OK) {
        return DB_ERR;
    }
    *row = &b->cells[(size_t)b->n * b->tbl->ncols];
    memset(*row, 0, b->tbl->ncols * sizeof **row);
    b->n++;
    return DB_OK;
}

/* Copy string cells of a row into the chunk arena (their source may be a batch arena). */
static void
rb_own_strings(dml_buf *b, plan_scell *row)
{
    for (uint32_t c = 0; c < b->tbl->ncols; c++) {
        if (!row[c].null && b->tbl->cols[c].kind == STOR_VEC_BYTES && row[c].len) {
            char *p = arena_alloc(b->chunk, row[c].len);
            memcpy(p, row[c].s, row[c].len);
            row[c].s = p;
        }
    }
}

/* ======================================================================================
 * Defaults
 * ====================================================================================== */

/* A new AUTO_INCREMENT value of column c from the table's durable counter (catalog, I-A1);
 * the statement's first one becomes LAST_INSERT_ID() (MySQL). */
static int
autoinc_cell(plan_ectx *cx, const plan_tbl *t, const plan_tcol *c, plan_scell *out, db_error *err)
{
    int64_t id;
    if (cat_meta_autoinc_next(cx->s->srv->meta, t->id, 1, &id, err) != DB_OK) {
        return DB_ERR;
    }
    if (cx->autoinc_first == 0) {
        cx->autoinc_first = id;
    }
    plan_value v;
    memset(&v, 0, sizeof v);
    v.kind = PV_INT;
    v.i = id;
    return conv_value(cx, c, &v, 1, out, err);
}

/* MySQL: an explicit 0 in an AUTO_INCREMENT column asks for a new value unless sql_mode has
 * NO_AUTO_VALUE_ON_ZERO. */
static bool
autoinc_on_zero(const plan_ectx *cx)
{
    const char *mode = cx->s->vars[plan__sysvar_find("sql_mode")].s;
    return mode == NULL || strstr(mode, "NO_AUTO_VALUE_ON_ZERO") == NULL;
}

/* An AUTO_INCREMENT column the statement gave: NULL (nullable column) or 0 takes a new value;
 * another value raises the counter above it, so later generated values do not collide. */
static int
autoinc_given(plan_ectx *cx, const plan_tbl *t, uint32_t ci, plan_scell *cell, db_error *err)
{
    const plan_tcol *c = &t->cols[ci];
    if (cell->null || (cell->i == 0 && autoinc_on_zero(cx))) {
        return autoinc_cell(cx, t, c, cell, err);
    }
    if (cell->i > 0) {
        return cat_meta_autoinc_raise(cx->s->srv->meta, t->id, cell->i, err);
    }
    return DB_OK;
}

/* The value of column c when a statement does not give one. */
static int
default_cell(plan_ectx *cx, const plan_tbl *t, uint32_t ci, plan_scell *out, db_error *err)
{
    const plan_tcol *c = &t->cols[ci];
    memset(out, 0, sizeof *out);
    if ((int32_t)ci == t->delete_sign_col || (int32_t)ci == t->commit_tso_col) {
        return DB_OK; /* 0 */
    }
    if (c->auto_inc) {
        return autoinc_cell(cx, t, c, out, err);
    }
    if (c->default_is_expr && c->default_text) {
        plan_value v;
        memset(&v, 0, sizeof v);
        v.kind = PV_DATETIME;
        v.us = cx->now_us;
        v.scale = 6;
        return conv_value(cx, c, &v, 1, out, err);
    }
    if (c->default_text) {
        return conv_text(cx, c, c->default_text, out, err);
    }
    if (c->nullable) {
        out->null = true;
        return DB_OK;
    }
    return db_error_set(err, ER_NO_DEFAULT_FOR_FIELD, c->name);
}

/* ======================================================================================
 * Transactions
 * ====================================================================================== */

/* The schema copies an open transaction's writer refers to (the writer keeps pointers to them
 * until it commits or rolls back, beyond the statement arena's life). */
struct plan_txn_schema {
    struct plan_txn_schema *next;
    stor_schema sc;
};

static void
txn_end(plan_session *s)
{
    stor_writer_free(s->txn_writer);
    s->txn_writer = NULL;
    arena_free(s->txn_arena);
    s->txn_arena = NULL;
    s->txn_schemas = NULL;
}

int
plan__txn_commit(plan_session *s, db_error *err)
{
    stor_writer *w = s->txn_writer;
    if (w == NULL) {
        txn_end(s);
        return DB_OK;
    }
    uint64_t tso = 0;
    int rc = stor_writer_commit(w, cat_meta_tso(s->srv->meta), &tso, err);
    txn_end(s);
    return rc;
}

void
plan__txn_rollback(plan_session *s)
{
    txn_end(s);
}

/* The transaction's copy of schema sc (made on first use). A table whose columns changed since
 * the transaction first wrote it cannot be written again in that transaction. */
static int
txn_schema(plan_session *s, const stor_schema *sc, const stor_schema **out, db_error *err)
{
    for (struct plan_txn_schema *t = s->txn_schemas; t; t = t->next) {
        if (t->sc.table_id != sc->table_id) {
            continue;
        }
        bool same = t->sc.ncols == sc->ncols;
        for (uint32_t c = 0; same && c < sc->ncols; c++) {
            same = t->sc.cols[c].uid == sc->cols[c].uid &&
                   t->sc.cols[c].type.id == sc->cols[c].type.id;
        }
        if (!same) {
            return db_error_set(err, ER_DORIS,
                                "The schema of the table changed during the transaction");
        }
        *out = &t->sc;
        return DB_OK;
    }
    if (s->txn_arena == NULL) {
        s->txn_arena = arena_new(0);
    }
    struct plan_txn_schema *t = arena_calloc(s->txn_arena, 1, sizeof *t);
    t->sc = *sc;
    t->sc.cols = arena_alloc(s->txn_arena, (sc->ncols ? sc->ncols : 1) * sizeof *sc->cols);
    memcpy(t->sc.cols, sc->cols, sc->ncols * sizeof *sc->cols);
    t->sc.aggs = arena_alloc(s->txn_arena, sc->ncols ? sc->ncols : 1);
    if (sc->aggs != NULL && sc->ncols > 0) {
        memcpy(t->sc.aggs, sc->aggs, sc->ncols);
    }
    if (sc->defaults != NULL) { /* deep copy: the statement arena goes away */
        arena *ta = s->txn_arena;
        t->sc.defaults = arena_calloc(ta, sc->ncols ? sc->ncols : 1, sizeof *t->sc.defaults);
        for (uint32_t c = 0; c < sc->ncols; c++) {
            const stor_vec *v = &sc->defaults[c];
            stor_vec *d = &t->sc.defaults[c];
            *d = *v;
            if (v->i64) {
                d->i64 = arena_alloc(ta, sizeof *d->i64);
                d->i64[0] = v->i64[0];
            } else if (v->f64) {
                d->f64 = arena_alloc(ta, sizeof *d->f64);
                d->f64[0] = v->f64[0];
            } else if (v->i128) {
                d->i128 = arena_alloc(ta, sizeof *d->i128);
                d->i128[0] = v->i128[0];
            } else if (v->offs) {
                d->offs = arena_alloc(ta, 2 * sizeof *d->offs);
                d->offs[0] = 0;
                d->offs[1] = v->offs[1];
                d->data = (uint8_t *)arena_strndup(ta, (const char *)v->data, v->offs[1]);
            }
        }
    }
    t->next = s->txn_schemas;
    s->txn_schemas = t;
    *out = &t->sc;
    return DB_OK;
}

/* The writer a statement writes into: the open transaction's, or a new one (autocommit). */
static stor_writer *
stmt_writer(plan_ectx *cx, bool *own)
{
    plan_session *s = cx->s;
    if (s->in_trans) {
        if (s->txn_writer == NULL) {
            s->txn_writer = stor_writer_new(s->srv->engine);
        }
        *own = false;
        return s->txn_writer;
    }
    *own = true;
    return stor_writer_new(s->srv->engine);
}

/* Finish a statement's writes: commit when it owns the writer. Fills the OK info with
 * Doris's label / status / txnId text. */
static int
stmt_finish(plan_ectx *cx, stor_writer *w, bool own, const plan_stmt *st, plan_outcome *out,
            uint64_t *replaced, db_error *err)
{
    uint64_t tso = 0;
    if (own) {
        int rc = stor_writer_commit(w, cat_meta_tso(cx->s->srv->meta), &tso, err);
        if (replaced != NULL) {
            *replaced = stor_writer_replaced(w);
        }
        stor_writer_free(w);
        if (rc != DB_OK) {
            return DB_ERR;
        }
    }
    const char *label = st->label;
    if (label == NULL) {
        label = arena_sprintf(cx->a, "%s_%" PRIx64 "_%" PRIx64, own ? "insert" : "txn_insert",
                              (uint64_t)cx->s->conn_id, (uint64_t)cx->now_utc_us);
    }
    out->info = arena_sprintf(cx->a, "{'label':'%s', 'status':'%s', 'txnId':'%" PRIu64 "'}", label,
                              own ? "VISIBLE" : "PREPARE", tso);
    return DB_OK;
}

/* The database of a DML statement's target table (its qualifier, else the session's), after
 * the privilege check: priv on db.table, or, for CAT_PRIV_ADMIN, at the global level. */
static int
target_db(plan_ectx *cx, const plan_table_ref *ref, uint32_t priv, const char **db, db_error *err)
{
    *db = ref->db ? ref->db : cx->s->db;
    if (*db == NULL) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    return priv == CAT_PRIV_ADMIN ? plan__check_priv(cx, priv, NULL, NULL, err)
                                  : plan__check_priv(cx, priv, *db, ref->name, err);
}

/* ======================================================================================
 * INSERT
 * ====================================================================================== */

/* The partitions named by PARTITION (p, ...) as a per-partition flag array (NULL when the
 * statement names none). An unknown name is Doris's error. */
static int
named_partitions(plan_ectx *cx, const plan_stmt *st, const plan_tbl *t, bool **out, db_error *err)
{
    return plan__part_flags(cx, t, st->dml_parts, st->ndml_parts, out, err);
}

int
plan__part_flags(plan_ectx *cx, const plan_tbl *t, const char *const *names, uint32_t n, bool **out,
                 db_error *err)
{
    *out = NULL;
    if (n == 0) {
        return DB_OK;
    }
    bool *ok = arena_calloc(cx->a, t->nparts ? t->nparts : 1, sizeof *ok);
    for (uint32_t i = 0; i < n; i++) {
        bool found = false;
        for (uint32_t p = 0; p < t->nparts; p++) {
            if (strcmp(t->parts[p].name, names[i]) == 0) {
                ok[p] = found = true;
            }
        }
        if (!found) {
            return db_error_set(err, ER_DORIS,
                                arena_sprintf(cx->a, "Unknown partition '%s' in table '%s'",
                                              names[i], t->name));
        }
    }
    *out = ok;
    return DB_OK;
}

/* Target column list of an INSERT: indexes into tbl->cols (given[] marks them). */
static int
insert_targets(plan_ectx *cx, const plan_stmt *st, const plan_tbl *t, uint32_t **cols, uint32_t *n,
               bool *given, db_error *err)
{
    uint32_t *out = arena_calloc(cx->a, t->ncols + 1, sizeof *out);
    uint32_t k = 0;
    if (!st->dml_has_cols) {
        for (uint32_t c = 0; c < t->nvis; c++) {
            out[k++] = c;
            given[c] = true;
        }
    } else {
        for (uint32_t i = 0; i < st->ndml_cols; i++) {
            int found = -1;
            for (uint32_t c = 0; c < t->ncols; c++) {
                if (strcasecmp(t->cols[c].name, st->dml_cols[i]) == 0) {
                    found = (int)c;
                }
            }
            if (found < 0) {
                return db_error_set(err, ER_BAD_FIELD_ERROR, st->dml_cols[i], "field list");
            }
            if (given[found]) {
                return db_error_set(err, ER_FIELD_SPECIFIED_TWICE, st->dml_cols[i]);
            }
            given[found] = true;
            out[k++] = (uint32_t)found;
        }
    }
    *cols = out;
    *n = k;
    return DB_OK;
}

/* Complete a row whose given columns are set: defaults for the others, the hidden sequence
 * column from its mapped column. */
static int
complete_row(plan_ectx *cx, const plan_tbl *t, const bool *given, plan_scell *row, db_error *err)
{
    for (uint32_t c = 0; c < t->ncols; c++) {
        if (!given[c] && default_cell(cx, t, c, &row[c], err) != DB_OK) {
            return DB_ERR;
        }
        if (given[c] && t->cols[c].auto_inc && autoinc_given(cx, t, c, &row[c], err) != DB_OK) {
            return DB_ERR;
        }
    }
    if (t->seq_hidden_col >= 0 && t->seq_map_col >= 0) {
        row[t->seq_hidden_col] = row[t->seq_map_col];
    }
    return DB_OK;
}

typedef struct insert_sel_ctx {
    dml_buf *b;
    const uint32_t *targets;
    uint32_t ntargets;
    const bool *given;
    uint64_t rowno;
} insert_sel_ctx;

static int
insert_sel_batch(void *ctx, const plan_batch *bt, db_error *err)
{
    insert_sel_ctx *ic = ctx;
    dml_buf *b = ic->b;
    uint32_t na = plan__batch_active(bt);
    for (uint32_t k = 0; k < na; k++) {
        uint32_t r = plan__batch_row(bt, k);
        plan_scell *row;
        if (rb_row(b, &row, err) != DB_OK) {
            return DB_ERR;
        }
        ic->rowno++;
        for (uint32_t i = 0; i < ic->ntargets; i++) {
            plan_value v;
            plan__batch_get(bt, i, r, &v);
            if (conv_value(b->cx, &b->tbl->cols[ic->targets[i]], &v, ic->rowno,
                           &row[ic->targets[i]], err) != DB_OK) {
                return DB_ERR;
            }
        }
        if (complete_row(b->cx, b->tbl, ic->given, row, err) != DB_OK) {
            return DB_ERR;
        }
        rb_own_strings(b, row);
    }
    return DB_OK;
}

static bool
partial_update_on(plan_ectx *cx, const plan_tbl *t)
{
    int idx = plan__sysvar_find("enable_unique_key_partial_update");
    return idx >= 0 && cx->s->vars[idx].i != 0 && t->sc.mow;
}

/* Doris (BindSink): an INSERT that is no partial update must supply the sequence column of a
 * table that has one (the mapped column, or __DORIS_SEQUENCE_COL__ by name) unless the mapped
 * column defaults to CURRENT_TIMESTAMP or `require_sequence_in_insert` is off. */
static int
check_sequence_given(plan_ectx *cx, const plan_stmt *st, const plan_tbl *t, const bool *given,
                     db_error *err)
{
    if (t->seq_hidden_col < 0) {
        return DB_OK;
    }
    int idx = plan__sysvar_find("require_sequence_in_insert");
    if (idx >= 0 && cx->s->vars[idx].i == 0) {
        return DB_OK;
    }
    if (t->seq_map_col >= 0) {
        const plan_tcol *c = &t->cols[t->seq_map_col];
        if (!st->dml_has_cols || given[t->seq_map_col] ||
            (c->default_is_expr && c->default_text != NULL &&
             strncasecmp(c->default_text, "CURRENT_TIMESTAMP", 17) == 0)) {
            return DB_OK;
        }
    } else if (given[t->seq_hidden_col]) {
        return DB_OK;
    }
    return db_error_set(err, ER_DORIS,
                        arena_sprintf(cx->a,
                                      "Table %s has sequence column, need to specify the sequence "
                                      "column",
                                      t->name));
}

static int
check_writable(const plan_tbl *t, db_error *err)
{
    for (uint32_t c = 0; t->sc.keys == CAT_KEYS_AGG && c < t->ncols; c++) {
        uint8_t agg = t->sc.aggs ? t->sc.aggs[c] : 0;
        if (agg == CAT_AGG_HLL_UNION || agg == CAT_AGG_BITMAP_UNION) {
            return db_error_set(err, ER_NOT_SUPPORTED_YET,
                                "writing HLL_UNION / BITMAP_UNION columns");
        }
    }
    return DB_OK;
}

static int
exec_insert(plan_ectx *cx, const plan_stmt *st, plan_outcome *out, db_error *err)
{
    const plan_table_ref *ref = &st->dml_table;
    const char *db;
    if (target_db(cx, ref, CAT_PRIV_LOAD, &db, err) != DB_OK) {
        return DB_ERR;
    }
    if (strcasecmp(db, "information_schema") == 0) {
        return db_error_set(err, ER_DBACCESS_DENIED_ERROR, cx->s->user, cx->s->host,
                            "information_schema");
    }
    plan_tbl t;
    if (plan__tbl_open(cx, db, ref->name, &t, err) != DB_OK || check_writable(&t, err) != DB_OK) {
        return DB_ERR;
    }
    if (st->dml_temp_parts) { /* INSERT INTO t TEMPORARY PARTITION (tp, ...) */
        plan__tbl_use_temp(&t);
    }
    if (st->dml_replace && t.sc.keys != CAT_KEYS_UNIQUE) {
        /* REPLACE needs a unique key to replace by (README "Writes"). */
        return db_error_set(
                err, ER_DORIS,
                arena_sprintf(cx->a,
                              "REPLACE INTO only supports Unique table, but "
                              "Table[%s] is %s table.",
                              t.name, t.sc.keys == CAT_KEYS_AGG ? "an aggregate" : "a duplicate"));
    }
    bool *given = arena_calloc(cx->a, t.ncols, sizeof(bool));
    uint32_t *targets = NULL, ntargets = 0;
    if (insert_targets(cx, st, &t, &targets, &ntargets, given, err) != DB_OK) {
        return DB_ERR;
    }
    /* REPLACE writes whole rows: the columns it does not name take their defaults. */
    bool partial = !st->dml_replace && partial_update_on(cx, &t) && st->dml_has_cols;
    if (!partial && check_sequence_given(cx, st, &t, given, err) != DB_OK) {
        return DB_ERR;
    }
    if (partial) {
        for (uint32_t c = 0; c < t.sc.nkeys; c++) {
            if (!given[c]) {
                return db_error_set(err, ER_DORIS,
                                    arena_sprintf(cx->a,
                                                  "Partial update should include all key "
                                                  "columns, missing: %s",
                                                  t.cols[c].name));
            }
        }
        /* The hidden sequence column follows its mapped column: given with it, else both keep
         * the stored row's values (storage/README.md "sequence column and partial update"). */
        if (t.seq_hidden_col >= 0 && t.seq_map_col >= 0) {
            given[t.seq_hidden_col] = given[t.seq_map_col];
        }
    }
    /* The source rows. VALUES rows are checked for their width before anything runs. */
    plan_op *src = NULL;
    uint32_t src_cols = 0;
    if (st->dml_select) {
        if (st->ntables == 0 && st->setop == PLAN_SETOP_NONE) {
            src_cols = st->nitems;
        } else {
            plan_column *cols;
            if (plan__select_build(cx, st, &src, &cols, &src_cols, err) != DB_OK) {
                return DB_ERR;
            }
        }
        if (src_cols != ntargets) {
            return db_error_set(err, ER_WRONG_VALUE_COUNT_ON_ROW, 1ULL);
        }
    } else {
        for (uint32_t r = 0; r < st->ndml_rows; r++) {
            if (st->dml_row_start[r + 1] - st->dml_row_start[r] != ntargets) {
                return db_error_set(err, ER_WRONG_VALUE_COUNT_ON_ROW, (unsigned long long)r + 1);
            }
        }
    }
    bool own;
    stor_writer *w = stmt_writer(cx, &own);
    if (st->dml_replace && own) {
        stor_writer_count_replaced(w); /* its affected rows count the replaced ones twice */
    }
    dml_buf b;
    bool *part_ok;
    if (named_partitions(cx, st, &t, &part_ok, err) != DB_OK) {
        if (own) {
            stor_writer_free(w);
        }
        return DB_ERR;
    }
    rb_init(&b, cx, &t, w, partial ? given : NULL);
    b.part_ok = part_ok;
    if (!own && txn_schema(cx->s, &t.sc, &b.sc, err) != DB_OK) {
        rb_destroy(&b);
        return DB_ERR;
    }
    int rc = DB_OK;
    if (st->dml_select && src) {
        insert_sel_ctx ic = {&b, targets, ntargets, given, 0};
        rc = plan__op_drain(src, insert_sel_batch, &ic, err);
    } else if (st->dml_select) {
        /* INSERT ... SELECT without FROM: one row of constant expressions. */
        plan_scell *row;
        rc = rb_row(&b, &row, err);
        for (uint32_t i = 0; rc == DB_OK && i < st->nitems; i++) {
            plan_expr *e;
            plan_value v;
            if (st->items[i].is_star) {
                rc = db_error_set(err, ER_NO_TABLES_USED);
                break;
            }
            rc = plan__analyze(cx, st->items[i].expr, NULL, 0, "field list", &e, err);
            if (rc == DB_OK) {
                rc = plan__eval(cx, e, &v, err);
            }
            if (rc == DB_OK) {
                rc = conv_value(cx, &t.cols[targets[i]], &v, 1, &row[targets[i]], err);
            }
        }
        if (rc == DB_OK) {
            rc = complete_row(cx, &t, given, row, err);
        }
    } else {
        for (uint32_t r = 0; rc == DB_OK && r < st->ndml_rows; r++) {
            plan_scell *row;
            if ((rc = rb_row(&b, &row, err)) != DB_OK) {
                break;
            }
            const uint32_t base = st->dml_row_start[r];
            for (uint32_t i = 0; i < ntargets; i++) {
                const plan_ast *x = st->dml_values[base + i];
                uint32_t c = targets[i];
                if (x == NULL) {
                    rc = default_cell(cx, &t, c, &row[c], err);
                } else {
                    plan_expr *e;
                    plan_value v;
                    if (!plan__literal_value(x, &v)) { /* not a plain literal: analyse + eval */
                        rc = plan__analyze(cx, x, NULL, 0, "field list", &e, err);
                        if (rc == DB_OK) {
                            rc = plan__eval(cx, e, &v, err);
                        }
                    }
                    if (rc == DB_OK && v.kind == PV_NULL && t.cols[c].auto_inc) {
                        memset(&row[c], 0, sizeof row[c]); /* NULL: a new value (autoinc_given) */
                        row[c].null = true;
                    } else if (rc == DB_OK) {
                        rc = conv_value(cx, &t.cols[c], &v, (uint64_t)r + 1, &row[c], err);
                    }
                }
                if (rc != DB_OK) {
                    break;
                }
            }
            if (rc == DB_OK) {
                rc = complete_row(cx, &t, given, row, err);
            }
            if (rc == DB_OK && (r & 1023) == 1023) {
                rc = plan__check_interrupt(cx->s, err);
            }
        }
    }
    if (rc == DB_OK) {
        rc = rb_flush(&b, err);
    }
    rb_destroy(&b);
    if (rc != DB_OK) {
        if (own) {
            stor_writer_free(w);
        }
        /* Inside a transaction a failed statement leaves the rows of earlier ones; its own
         * rows may be half-buffered, so the transaction must be rolled back (Doris aborts it). */
        if (!own) {
            plan__txn_rollback(cx->s);
            cx->s->in_trans = false;
        }
        return DB_ERR;
    }
    out->affected_rows = b.total;
    cx->s->row_count = (int64_t)b.total;
    if (cx->autoinc_first > 0) { /* MySQL: the first value generated by the last INSERT */
        cx->s->last_insert_id = (uint64_t)cx->autoinc_first;
        out->last_insert_id = (uint64_t)cx->autoinc_first;
    }
    /* Streams read by the SELECT: their offsets advance in this commit (an empty result
     * advances too). */
    plan__stream_consume(cx, w);
    if (!st->dml_replace || !own) {
        return stmt_finish(cx, w, own, st, out, NULL, err);
    }
    /* MySQL's REPLACE outcome: 1 per row, 2 per row that replaced one (a deletion and an
     * insertion); the info line for several rows or a SELECT. */
    uint64_t replaced = 0;
    if (stmt_finish(cx, w, own, st, out, &replaced, err) != DB_OK) {
        return DB_ERR;
    }
    out->affected_rows = b.total + replaced;
    out->info = NULL;
    if (st->dml_select || st->ndml_rows > 1) {
        out->info =
                arena_sprintf(cx->a, "Records: %" PRIu64 "  Duplicates: %" PRIu64 "  Warnings: %zu",
                              b.total, replaced, cx->s->warn_total);
    }
    return DB_OK;
}

/* ======================================================================================
 * UPDATE / DELETE: scan with WHERE, then write
 * ====================================================================================== */

typedef struct upd_ctx {
    dml_buf *b;
    const plan_tbl *t;
    plan_expr **set;        /* per column: new value expression or NULL */
    const plan_scell *defs; /* per column: SET c = DEFAULT value, where use_def */
    const bool *use_def;
    bool is_delete;
    bool by_location; /* not UNIQUE: delete marks by row location (DELETE, DUPLICATE UPDATE) */
    plan_value *rowvals;
    uint64_t rowno;
    uint64_t matched;
    uint64_t changed; /* DUPLICATE UPDATE: rows whose new values differ (MySQL's "Changed") */
    arena *locs;      /* per batch: the row ordinals of the location deletes */
} upd_ctx;

/* Hand the locations of the rows k in keep[0..n) of batch bt (a scan with location columns
 * after the table's columns) to the writer as delete marks, one call per segment (a batch
 * holds rows of one segment, but the grouping does not rely on it). */
static int
delete_located(upd_ctx *u, const plan_batch *bt, const uint32_t *keep, uint32_t n, db_error *err)
{
    const plan_tbl *t = u->t;
    uint32_t *rows = arena_alloc(u->locs, (size_t)(n ? n : 1) * sizeof *rows);
    uint64_t tablet = 0, rowset = 0;
    uint32_t seg = 0, m = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = keep[k];
        uint64_t tb = (uint64_t)bt->cols[t->ncols].i[r];
        uint64_t rs = (uint64_t)bt->cols[t->ncols + 1].i[r];
        uint32_t sg = (uint32_t)bt->cols[t->ncols + 2].i[r];
        if (m > 0 && (tb != tablet || rs != rowset || sg != seg)) {
            if (stor_writer_delete_rows(u->b->w, tablet, rowset, seg, rows, m, err) != DB_OK) {
                return DB_ERR;
            }
            m = 0;
        }
        tablet = tb;
        rowset = rs;
        seg = sg;
        rows[m++] = (uint32_t)bt->cols[t->ncols + 3].i[r];
    }
    if (m > 0 && stor_writer_delete_rows(u->b->w, tablet, rowset, seg, rows, m, err) != DB_OK) {
        return DB_ERR;
    }
    return DB_OK;
}

static int
upd_batch(void *ctx, const plan_batch *bt, db_error *err)
{
    upd_ctx *u = ctx;
    const plan_tbl *t = u->t;
    plan_ectx *cx = u->b->cx;
    uint32_t na = plan__batch_active(bt);
    arena_reset(u->locs);
    uint32_t *keep = arena_alloc(u->locs, (size_t)(na ? na : 1) * sizeof *keep);
    uint32_t nkeep = 0;
    if (u->by_location && u->is_delete) {
        for (uint32_t k = 0; k < na; k++) {
            keep[k] = plan__batch_row(bt, k);
        }
        u->matched += na;
        return delete_located(u, bt, keep, na, err);
    }
    for (uint32_t k = 0; k < na; k++) {
        uint32_t r = plan__batch_row(bt, k);
        for (uint32_t c = 0; c < t->ncols; c++) {
            plan__batch_get(bt, c, r, &u->rowvals[c]);
        }
        plan_scell *row;
        if (rb_row(u->b, &row, err) != DB_OK) {
            return DB_ERR;
        }
        u->rowno++;
        const plan_value *saved = cx->row;
        size_t saved_n = cx->nrow;
        cx->row = u->rowvals;
        cx->nrow = t->ncols;
        for (uint32_t c = 0; c < t->ncols; c++) {
            plan_value v = u->rowvals[c];
            if (u->set && u->set[c]) {
                if (plan__eval(cx, u->set[c], &v, err) != DB_OK) {
                    cx->row = saved;
                    cx->nrow = saved_n;
                    return DB_ERR;
                }
            }
            if ((int32_t)c == t->delete_sign_col) {
                v = plan__v_int(u->is_delete ? 1 : 0);
            }
            if (u->use_def[c]) {
                row[c] = u->defs[c];
                continue;
            }
            if (conv_value(cx, &t->cols[c], &v, u->rowno, &row[c], err) != DB_OK) {
                cx->row = saved;
                cx->nrow = saved_n;
                return DB_ERR;
            }
        }
        cx->row = saved;
        cx->nrow = saved_n;
        if (t->seq_hidden_col >= 0 && t->seq_map_col >= 0) {
            row[t->seq_hidden_col] = row[t->seq_map_col];
        }
        u->matched++;
        if (u->by_location) {
            /* DUPLICATE UPDATE: the old row goes by its location and the new one is inserted,
             * in the statement's one commit; a row the SET leaves as it was is not rewritten
             * (MySQL counts it matched, not changed). */
            if (t->commit_tso_col >= 0) {
                memset(&row[t->commit_tso_col], 0, sizeof row[t->commit_tso_col]);
            }
            bool same = true;
            for (uint32_t c = 0; same && c < t->nvis; c++) {
                plan_scell old;
                if ((u->set && u->set[c]) || u->use_def[c]) {
                    same = conv_value(cx, &t->cols[c], &u->rowvals[c], u->rowno, &old, err) ==
                                   DB_OK &&
                           cell_cmp(&t->cols[c], &old, &row[c]) == 0;
                    db_error_clear(err);
                }
            }
            if (same) {
                u->b->n--; /* the slot rb_row just handed out */
                continue;
            }
            keep[nkeep++] = r;
            u->changed++;
        }
        rb_own_strings(u->b, row);
    }
    return u->by_location ? delete_located(u, bt, keep, nkeep, err) : DB_OK;
}

/* Bindable columns of a table for WHERE / SET expressions: every column (hidden ones too, so
 * a statement may name them), qualified by the table name. */
static plan_bind_col *
table_binds(plan_ectx *cx, const plan_tbl *t)
{
    plan_bind_col *b = arena_calloc(cx->a, t->ncols, sizeof *b);
    for (uint32_t i = 0; i < t->ncols; i++) {
        b[i].name = t->cols[i].name;
        b[i].t = t->cols[i].xt;
        b[i].vk = t->cols[i].vk;
        b[i].table = t->name;
        b[i].db = t->db;
    }
    return b;
}

/* True when every column x refers to is a key column of t (a predicate every physical row of a
 * key answers the same way). */
static bool
only_key_columns(const plan_tbl *t, const plan_ast *x)
{
    if (x == NULL) {
        return true;
    }
    if (x->kind == PA_COLUMN) {
        for (uint32_t c = 0; c < t->ncols; c++) {
            if (strcasecmp(t->cols[c].name, x->name) == 0) {
                return t->cols[c].is_key;
            }
        }
        return true; /* unknown: the analyser reports it */
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (!only_key_columns(t, x->args[i])) {
            return false;
        }
    }
    return true;
}

/* UPDATE / DELETE ... ORDER BY c [DESC], ... LIMIT n (MySQL): the matched rows sorted by
 * columns of the table (stable: ties keep the scan order), at most n of them. ORDER BY
 * expressions other than a column are 1235. */
static int
order_limit(plan_ectx *cx, const plan_stmt *st, const plan_tbl *t, const plan_bind_col *binds,
            plan_op **root, db_error *err)
{
    plan_op *sort = NULL;
    if (st->order != NULL && st->order->n > 0) {
        plan_sort_key *keys = arena_calloc(cx->a, st->order->n, sizeof *keys);
        for (uint32_t i = 0; i < st->order->n; i++) {
            const plan_ast *x = st->order->items[i];
            if (x->kind != PA_COLUMN) {
                return db_error_set(err, ER_NOT_SUPPORTED_YET,
                                    "ORDER BY expressions in UPDATE / DELETE");
            }
            plan_expr *e;
            if (plan__analyze(cx, x, binds, t->ncols, "order clause", &e, err) != DB_OK) {
                return DB_ERR;
            }
            keys[i].col = (uint32_t)plan__bind_find(binds, t->ncols, x);
            keys[i].desc = st->order_desc[i];
            keys[i].nulls = st->order_nulls ? st->order_nulls[i] : 0;
            keys[i].mode = plan__cmp_mode(e, e);
            if (plan__json_check_key(e, err) != DB_OK) {
                return DB_ERR;
            }
        }
        *root = sort = plan__op_sort(cx, *root, keys, st->order->n);
    }
    if (!st->has_limit) {
        return DB_OK;
    }
    uint64_t count = UINT64_MAX, offset = 0;
    if (plan__stmt_limit(cx, st, &count, &offset, err) != DB_OK) {
        return DB_ERR;
    }
    if (sort != NULL && count <= (1u << 24)) {
        plan__op_sort_topn(sort, count);
    }
    *root = plan__op_limit(cx, *root, 0, count);
    return DB_OK;
}

static int
update_delete_once(plan_ectx *cx, const plan_stmt *st, plan_outcome *out, db_error *err)
{
    bool is_delete = st->kind == PS_DELETE;
    const plan_table_ref *ref = &st->dml_table;
    const char *db;
    if (target_db(cx, ref, CAT_PRIV_LOAD, &db, err) != DB_OK) {
        return DB_ERR;
    }
    plan_tbl t;
    if (plan__tbl_open(cx, db, ref->name, &t, err) != DB_OK) {
        return DB_ERR;
    }
    if (st->dml_temp_parts) { /* DELETE FROM t TEMPORARY PARTITION (tp, ...) */
        plan__tbl_use_temp(&t);
    }
    /* UPDATE of a DUPLICATE table (MySQL users have tables without keys): the matched rows
     * are deleted by location and inserted with the new values (README "Writes"). */
    bool dup_update = !is_delete && t.sc.keys == CAT_KEYS_DUP;
    if (!is_delete && !dup_update && !(t.sc.keys == CAT_KEYS_UNIQUE && t.sc.mow)) {
        return db_error_set(err, ER_DORIS, "Only unique table could be updated.");
    }
    if (dup_update && t.sc.binlog_row) {
        /* A Duplicate table's Row Binlog records inserts only: the deletes would be lost (R2). */
        return db_error_set(err, ER_DORIS,
                            "UPDATE is not supported on Duplicate table when binlog<row> is "
                            "enabled");
    }
    if (check_writable(&t, err) != DB_OK) {
        return DB_ERR;
    }
    plan_bind_col *binds = table_binds(cx, &t);
    plan_expr **set = NULL;
    plan_scell *defs = arena_calloc(cx->a, t.ncols, sizeof *defs);
    bool *use_def = arena_calloc(cx->a, t.ncols, sizeof *use_def);
    if (!is_delete) {
        set = arena_calloc(cx->a, t.ncols, sizeof *set);
        for (uint32_t i = 0; i < st->ndml_cols; i++) {
            int found = -1;
            for (uint32_t c = 0; c < t.ncols; c++) {
                if (strcasecmp(t.cols[c].name, st->dml_cols[i]) == 0) {
                    found = (int)c;
                }
            }
            if (found < 0) {
                return db_error_set(err, ER_BAD_FIELD_ERROR, st->dml_cols[i], "field list");
            }
            if (t.cols[found].is_key && !dup_update) {
                return db_error_set(err, ER_DORIS,
                                    "Only value columns of unique table could be updated");
            }
            const plan_ast *x = st->dml_values[i];
            if (x == NULL) {
                if (default_cell(cx, &t, (uint32_t)found, &defs[found], err) != DB_OK) {
                    return DB_ERR;
                }
                use_def[found] = true;
                continue;
            }
            if (plan__analyze(cx, x, binds, t.ncols, "field list", &set[found], err) != DB_OK) {
                return DB_ERR;
            }
        }
    }
    plan_expr *where = NULL;
    if (st->where &&
        plan__analyze(cx, st->where, binds, t.ncols, "where clause", &where, err) != DB_OK) {
        return DB_ERR;
    }
    /* DUPLICATE and AGGREGATE tables delete physical rows by location; UNIQUE tables (merge-
     * on-write or merge-on-read) write the key again with the delete sign. */
    bool by_location = t.sc.keys != CAT_KEYS_UNIQUE;
    if (by_location && is_delete && t.sc.binlog_row) {
        /* Decision R2: such a delete would produce no change record, so consumers of the
         * binlog would never see it (Doris #68034 rejects it too). */
        return db_error_set(err, ER_DORIS,
                            "DELETE with predicates is not supported when binlog<row> is enabled");
    }
    if (by_location && t.sc.keys == CAT_KEYS_AGG && st->where && !only_key_columns(&t, st->where)) {
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a,
                                          "delete predicate on value column only supports Unique "
                                          "table with merge-on-write enabled and Duplicate table, "
                                          "but Table[%s] is an aggregate table.",
                                          t.name));
    }
    bool *part_ok;
    if (named_partitions(cx, st, &t, &part_ok, err) != DB_OK) {
        return DB_ERR;
    }
    plan_op *root = plan__op_tscan(cx, &t, 0, by_location, false);
    plan__tscan_prune(root, st->where, t.name);
    plan__tscan_only_partitions(root, part_ok);
    if (where) {
        root = plan__op_filter(cx, root, where);
    }
    if (order_limit(cx, st, &t, binds, &root, err) != DB_OK) {
        return DB_ERR;
    }
    bool own;
    stor_writer *w = stmt_writer(cx, &own);
    dml_buf b;
    rb_init(&b, cx, &t, w, NULL);
    if (!own && txn_schema(cx->s, &t.sc, &b.sc, err) != DB_OK) {
        rb_destroy(&b);
        return DB_ERR;
    }
    upd_ctx u = {&b,      &t,        set,         defs,
                 use_def, is_delete, by_location, arena_calloc(cx->a, t.ncols, sizeof(plan_value)),
                 0,       0,         0,           arena_new(0)};
    int rc = plan__op_drain(root, upd_batch, &u, err);
    if (rc == DB_OK) {
        rc = rb_flush(&b, err);
    }
    rb_destroy(&b);
    arena_free(u.locs);
    if (rc != DB_OK) {
        if (own) {
            stor_writer_free(w);
        } else {
            plan__txn_rollback(cx->s);
            cx->s->in_trans = false;
        }
        return DB_ERR;
    }
    if (!dup_update) {
        out->affected_rows = u.matched;
        cx->s->row_count = (int64_t)u.matched;
        return stmt_finish(cx, w, own, st, out, NULL, err);
    }
    /* MySQL's UPDATE outcome: affected = changed rows (clients asking CLIENT_FOUND_ROWS get
     * the changed count too: the flag does not reach the planner). */
    out->affected_rows = u.changed;
    cx->s->row_count = (int64_t)u.changed;
    if (stmt_finish(cx, w, own, st, out, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    out->info =
            arena_sprintf(cx->a, "Rows matched: %" PRIu64 "  Changed: %" PRIu64 "  Warnings: %zu",
                          u.matched, u.changed, cx->s->warn_total);
    return DB_OK;
}

/* An autocommit UPDATE / DELETE whose location delete marks lost a race with compaction (the
 * rowsets it read were merged before its commit; nothing was written) runs again on a new
 * snapshot, a few times: the statement must not fail because of background work. Inside a
 * transaction the commit is COMMIT's, which then fails and says to retry. */
static int
exec_update_delete(plan_ectx *cx, const plan_stmt *st, plan_outcome *out, db_error *err)
{
    for (int attempt = 1;; attempt++) {
        bool in_trans = cx->s->in_trans;
        int rc = update_delete_once(cx, st, out, err);
        if (rc == DB_OK || in_trans || attempt == 8 || !stor_error_is_compacted(err)) {
            return rc;
        }
        db_error_clear(err);
    }
}

/* ADMIN COMPACT TABLE t [PARTITION p, ...] WHERE type = 'BASE' | 'CUMULATIVE': compacts every
 * tablet of the named partitions now (Doris schedules it; here it runs before the OK). */
static int
exec_compact(plan_ectx *cx, const plan_stmt *st, plan_outcome *out, db_error *err)
{
    const plan_table_ref *ref = &st->dml_table;
    const char *db;
    if (target_db(cx, ref, CAT_PRIV_ADMIN, &db, err) != DB_OK) {
        return DB_ERR;
    }
    const plan_ast *w = st->where;
    const char *type = NULL;
    if (w->kind == PA_BINARY && w->op == XOP_EQ && w->args[0]->kind == PA_COLUMN &&
        strcasecmp(w->args[0]->name, "type") == 0 && w->args[1]->kind == PA_STRING) {
        type = arena_strndup(cx->a, w->args[1]->str, w->args[1]->len);
    }
    stor_compact_kind kind;
    if (type && strcasecmp(type, "BASE") == 0) {
        kind = STOR_COMPACT_BASE;
    } else if (type && strcasecmp(type, "CUMULATIVE") == 0) {
        kind = STOR_COMPACT_CUMULATIVE;
    } else {
        return db_error_set(err, ER_DORIS, "Compaction type must be BASE or CUMULATIVE");
    }
    plan_tbl t;
    if (plan__tbl_open(cx, db, ref->name, &t, err) != DB_OK) {
        return DB_ERR;
    }
    if (st->dml_temp_parts) {
        plan__tbl_use_temp(&t);
    }
    for (uint32_t i = 0; i < st->ndml_parts; i++) {
        bool found = false;
        for (uint32_t p = 0; p < t.nparts; p++) {
            found |= strcmp(t.parts[p].name, st->dml_parts[i]) == 0;
        }
        if (!found) {
            return db_error_set(
                    err, ER_DORIS,
                    arena_sprintf(cx->a, "Partition %s does not exist", st->dml_parts[i]));
        }
    }
    uint64_t merged = 0;
    for (uint32_t p = 0; p < t.nparts; p++) {
        bool wanted = st->ndml_parts == 0;
        for (uint32_t i = 0; i < st->ndml_parts; i++) {
            wanted |= strcmp(t.parts[p].name, st->dml_parts[i]) == 0;
        }
        for (uint32_t b = 0; wanted && b < t.parts[p].buckets; b++) {
            uint64_t id = stor_tablet_id_of(t.parts[p].id, b);
            if (stor_engine_tablet(cx->s->srv->engine, id, false) == NULL) {
                continue;
            }
            stor_compact_stats stats;
            memset(&stats, 0, sizeof stats);
            if (stor_compact_tablet(cx->s->srv->engine, id, kind, &stats, err) != DB_OK) {
                return DB_ERR;
            }
            merged += stats.merged_rowsets;
        }
    }
    out->affected_rows = 0;
    (void)merged;
    return DB_OK;
}

int
plan__exec_dml(plan_ectx *cx, const plan_stmt *st, plan_outcome *out, db_error *err)
{
    if (st->kind == PS_INSERT) {
        return exec_insert(cx, st, out, err);
    }
    if (st->kind == PS_ADMIN_COMPACT) {
        return exec_compact(cx, st, out, err);
    }
    return exec_update_delete(cx, st, out, err);
}
