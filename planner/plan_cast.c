/* SPDX-License-Identifier: Apache-2.0
 * plan_cast.c: CAST / CONVERT to the Doris type names. The table of type words the grammar
 * accepts (INT, TINYINT, BIGINT, LARGEINT, BOOLEAN, FLOAT, DECIMALV3, VARCHAR, STRING, TEXT,
 * DATEV2, DATETIMEV2, ...) and Doris's non-strict conversion rules: a string that is not a
 * number, or a value outside the target type, becomes NULL (no error, no warning); numbers are
 * truncated toward zero into integer types. SIGNED / UNSIGNED keep MySQL's rules
 * (plan__v_cast in plan_expr.c). See README.md §Decisions where MySQL and Doris differ. */
#include "planner/plan_int.h"
#include "planner/plan_json.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct cast_name {
    const char *name;
    plan_cast_kind kind;
    plan_type type;
    int8_t max_args; /* arguments allowed: 0, 1 (VARCHAR(n), DATETIMEV2(p)) or 2 (DECIMALV3) */
} cast_name;

/* Sorted by name. */
static const cast_name cast_names[] = {
        {"BIGINT", PLAN_CAST_INT, PLAN_TYPE_BIGINT, 0},
        {"BOOL", PLAN_CAST_BOOLEAN, PLAN_TYPE_BOOLEAN, 0},
        {"BOOLEAN", PLAN_CAST_BOOLEAN, PLAN_TYPE_BOOLEAN, 0},
        {"DATETIMEV2", PLAN_CAST_DATETIME, PLAN_TYPE_DATETIME, 1},
        {"DATEV2", PLAN_CAST_DATE, PLAN_TYPE_DATE, 0},
        {"DECIMALV3", PLAN_CAST_DECIMAL, PLAN_TYPE_DECIMAL, 2},
        {"FLOAT", PLAN_CAST_FLOAT, PLAN_TYPE_FLOAT, 0},
        {"INT", PLAN_CAST_INT, PLAN_TYPE_INT, 0},
        {"INTEGER", PLAN_CAST_INT, PLAN_TYPE_INT, 0},
        {"JSON", PLAN_CAST_JSON, PLAN_TYPE_JSON, 0},
        {"JSONB", PLAN_CAST_JSON, PLAN_TYPE_JSON, 0},
        {"LARGEINT", PLAN_CAST_INT, PLAN_TYPE_LARGEINT, 0},
        {"SMALLINT", PLAN_CAST_INT, PLAN_TYPE_SMALLINT, 0},
        {"STRING", PLAN_CAST_VARCHAR, PLAN_TYPE_STRING, 0},
        {"TEXT", PLAN_CAST_VARCHAR, PLAN_TYPE_STRING, 0},
        {"TINYINT", PLAN_CAST_INT, PLAN_TYPE_TINYINT, 0},
        {"VARCHAR", PLAN_CAST_VARCHAR, PLAN_TYPE_VARCHAR, 1},
};

static bool trim_blanks(const char **s, size_t *len);
static bool scan_number(const char *s, size_t len, bool allow_exp, bool *has_exp);
static bool str_to_int128(const char *s, size_t len, __int128 *out);
static bool str_to_double(plan_ectx *cx, const char *s, size_t len, double *out);
static bool to_int128(plan_ectx *cx, const plan_value *in, __int128 *out);
static bool to_double(plan_ectx *cx, const plan_value *in, double *out);
static bool int_range(plan_type type, __int128 *lo, __int128 *hi);

bool
plan__cast_named(const char *word, size_t n, int nargs, plan_cast *c)
{
    for (size_t i = 0; i < sizeof cast_names / sizeof cast_names[0]; i++) {
        const cast_name *k = &cast_names[i];
        if (strlen(k->name) == n && strncasecmp(k->name, word, n) == 0) {
            if (nargs > k->max_args) {
                return false;
            }
            c->kind = k->kind;
            c->type = k->type;
            c->len = -1;
            c->scale = -1;
            c->doris = true;
            return true;
        }
    }
    return false;
}

/* ---- string scanning (Doris's number syntax) ---- */

/* Strip blanks on both sides; false when nothing is left. */
static bool
trim_blanks(const char **s, size_t *len)
{
    const char *p = *s;
    size_t n = *len;
    while (n > 0 && strchr(" \t\n\r\f\v", p[0]) != NULL) {
        p++;
        n--;
    }
    while (n > 0 && strchr(" \t\n\r\f\v", p[n - 1]) != NULL) {
        n--;
    }
    *s = p;
    *len = n;
    return n > 0;
}

/* The whole of s[0..len) is [+-] digits [. digits] (at least one digit), and with allow_exp an
 * optional exponent e[+-]digits. */
static bool
scan_number(const char *s, size_t len, bool allow_exp, bool *has_exp)
{
    size_t i = 0, digits = 0;
    *has_exp = false;
    if (i < len && (s[i] == '+' || s[i] == '-')) {
        i++;
    }
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        digits++;
    }
    if (i < len && s[i] == '.') {
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
            digits++;
        }
    }
    if (digits == 0) {
        return false;
    }
    if (allow_exp && i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t exp_digits = 0;
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-')) {
            i++;
        }
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
            exp_digits++;
        }
        if (exp_digits == 0) {
            return false;
        }
        *has_exp = true;
    }
    return i == len;
}

/* An integer string with an optional fraction (dropped: truncation toward zero). False when it
 * is not one, or it has more than 38 integer digits (beyond every Doris integer type here). */
static bool
str_to_int128(const char *s, size_t len, __int128 *out)
{
    bool has_exp;
    if (!trim_blanks(&s, &len) || !scan_number(s, len, false, &has_exp)) {
        return false;
    }
    size_t i = 0;
    bool neg = s[0] == '-';
    if (s[0] == '-' || s[0] == '+') {
        i++;
    }
    __int128 acc = 0;
    int digits = 0;
    for (; i < len && s[i] != '.'; i++) {
        if (acc == 0 && s[i] == '0') {
            continue;
        }
        if (++digits > PLAN_DEC_MAX_PREC) {
            return false;
        }
        acc = acc * 10 + (s[i] - '0');
    }
    *out = neg ? -acc : acc;
    return true;
}

/* A decimal number with an optional exponent; not hex, inf or nan as strtod would take. */
static bool
str_to_double(plan_ectx *cx, const char *s, size_t len, double *out)
{
    bool has_exp;
    if (!trim_blanks(&s, &len) || !scan_number(s, len, true, &has_exp)) {
        return false;
    }
    char *z = arena_strndup(cx->a, s, len);
    double d = strtod(z, NULL);
    if (!isfinite(d)) {
        return false;
    }
    *out = d;
    return true;
}

/* ---- conversions ---- */

/* Any value to an integer, truncating toward zero; false when it has no integer value. */
static bool
to_int128(plan_ectx *cx, const plan_value *in, __int128 *out)
{
    switch ((plan_vkind)in->kind) {
    case PV_INT:
        *out = in->is_unsigned ? (__int128)in->u : (__int128)in->i;
        return true;
    case PV_DECIMAL:
        *out = in->dec / plan__pow10(in->scale);
        return true;
    case PV_DOUBLE:
        if (!isfinite(in->d) || fabs(in->d) >= 1e38) {
            return false;
        }
        *out = (__int128)trunc(in->d);
        return true;
    case PV_STRING:
        return str_to_int128(in->str.s, in->str.len, out);
    case PV_DATE:
    case PV_DATETIME:
    case PV_TIME:
        *out = plan__v_to_int(in, NULL); /* YYYYMMDD[hhmmss] as MySQL and Doris */
        return true;
    case PV_NULL:
        break;
    }
    (void)cx;
    return false;
}

static bool
to_double(plan_ectx *cx, const plan_value *in, double *out)
{
    if (in->kind == PV_STRING) {
        return str_to_double(cx, in->str.s, in->str.len, out);
    }
    *out = plan__v_to_double(in, NULL);
    return isfinite(*out);
}

/* Range of a Doris integer type. LARGEINT is held as a DECIMAL(38, 0), so it stops at 38 digits
 * instead of 2^127. */
static bool
int_range(plan_type type, __int128 *lo, __int128 *hi)
{
    switch (type) {
    case PLAN_TYPE_TINYINT:
        *lo = INT8_MIN, *hi = INT8_MAX;
        return true;
    case PLAN_TYPE_SMALLINT:
        *lo = INT16_MIN, *hi = INT16_MAX;
        return true;
    case PLAN_TYPE_INT:
        *lo = INT32_MIN, *hi = INT32_MAX;
        return true;
    case PLAN_TYPE_BIGINT:
        *lo = INT64_MIN, *hi = INT64_MAX;
        return true;
    case PLAN_TYPE_LARGEINT:
        *hi = plan__pow10(PLAN_DEC_MAX_PREC) - 1;
        *lo = -*hi;
        return true;
    default:
        return false;
    }
}

int
plan__v_cast_doris(plan_ectx *cx, const plan_value *in, const plan_cast *c, plan_value *out,
                   db_error *err)
{
    if (in->kind == PV_NULL) {
        *out = *in;
        return DB_OK;
    }
    *out = plan__v_null();
    switch (c->kind) {
    case PLAN_CAST_INT: {
        __int128 v, lo, hi;
        if (!to_int128(cx, in, &v) || !int_range(c->type, &lo, &hi) || v < lo || v > hi) {
            return DB_OK;
        }
        *out = c->type == PLAN_TYPE_LARGEINT ? plan__v_dec(v, 0) : plan__v_int((int64_t)v);
        return DB_OK;
    }
    case PLAN_CAST_BOOLEAN: {
        double d;
        if (in->kind == PV_STRING) {
            const char *s = in->str.s;
            size_t len = in->str.len;
            trim_blanks(&s, &len);
            if (len == 4 && strncasecmp(s, "true", 4) == 0) {
                *out = plan__v_int(1);
                return DB_OK;
            }
            if (len == 5 && strncasecmp(s, "false", 5) == 0) {
                *out = plan__v_int(0);
                return DB_OK;
            }
        }
        if (in->kind == PV_DECIMAL) {
            *out = plan__v_int(in->dec != 0);
        } else if (in->kind == PV_INT) {
            *out = plan__v_int(in->i != 0);
        } else if (to_double(cx, in, &d)) {
            *out = plan__v_int(d != 0);
        }
        return DB_OK;
    }
    case PLAN_CAST_FLOAT:
    case PLAN_CAST_DOUBLE: {
        double d;
        if (!to_double(cx, in, &d)) {
            return DB_OK;
        }
        if (c->kind == PLAN_CAST_FLOAT) {
            if (fabs(d) > FLT_MAX) {
                return DB_OK;
            }
            d = plan__float_shortest(d);
        }
        *out = plan__v_double(d);
        return DB_OK;
    }
    case PLAN_CAST_DECIMAL: {
        int p = c->len < 0 ? 10 : (int)c->len, s = c->scale < 0 ? 0 : (int)c->scale;
        __int128 d, max = plan__pow10(p) - 1;
        plan_value num = *in;
        if (in->kind == PV_STRING) {
            const char *z = in->str.s;
            size_t len = in->str.len;
            bool has_exp;
            __int128 v;
            int sc;
            if (!trim_blanks(&z, &len) || !scan_number(z, len, true, &has_exp)) {
                return DB_OK;
            }
            if (!has_exp && plan__dec_parse(z, len, &v, &sc)) {
                num = plan__v_dec(v, sc);
            } else {
                double x;
                if (!str_to_double(cx, z, len, &x)) {
                    return DB_OK;
                }
                num = plan__v_double(x);
            }
        }
        if (!plan__v_to_dec(&num, s, &d, NULL) || d > max || d < -max) {
            return DB_OK;
        }
        *out = plan__v_dec(d, s);
        return DB_OK;
    }
    case PLAN_CAST_VARCHAR: {
        const char *s;
        size_t len;
        plan__v_string(cx, in, &s, &len);
        if (c->len >= 0) {
            /* VARCHAR(n) keeps the first n characters, silently (Doris 2.1+). */
            size_t i = 0, chars = 0;
            while (i < len && chars < (size_t)c->len) {
                unsigned char b = (unsigned char)s[i];
                i += b >= 0xF0 ? 4 : (b >= 0xE0 ? 3 : (b >= 0xC0 ? 2 : 1));
                chars++;
            }
            len = i < len ? i : len;
        }
        *out = plan__v_str(s, len);
        return DB_OK;
    }
    case PLAN_CAST_JSON: {
        const char *s;
        size_t len, nlen;
        plan__v_string(cx, in, &s, &len);
        char *j = plan__json_normalize(cx->a, s, len, &nlen, NULL);
        if (j != NULL) {
            *out = plan__v_str(j, nlen);
        }
        return DB_OK;
    }
    default:
        /* DATE / DATETIME (DATEV2, DATETIMEV2): the same NULL-on-invalid rule in both. */
        return plan__v_cast(cx, in, &(plan_cast){c->kind, c->len, c->scale, c->type, false}, out,
                            err);
    }
}
