/* SPDX-License-Identifier: Apache-2.0
 * plan_func_json.c: the Doris JSON functions over plan_json.c's scanner: JSON_PARSE and its
 * error-to-null/value variants, JSON_VALID, JSON_EXTRACT[_STRING|_INT|_BIGINT|_LARGEINT|
 * _DOUBLE|_BOOL|_ISNULL] (and their JSONB_ names), GET_JSON_STRING / _INT / _BIGINT /
 * _DOUBLE, JSON_EXISTS_PATH, JSON_TYPE, JSON_LENGTH, JSON_CONTAINS, JSON_OBJECT, JSON_ARRAY,
 * JSON_QUOTE, JSON_UNQUOTE. A JSON argument that is not of type JSON is normalized first (text
 * that is not JSON makes the result NULL); results live in the statement arena. See
 * README.md §JSON. */
#include "planner/plan_func_int.h"

#include <stdio.h>
#include <string.h>

#include "planner/plan_json.h"

typedef enum jf_op {
    JF_PARSE,
    JF_PARSE_NULL,
    JF_PARSE_VALUE,
    JF_VALID,
    JF_EXTRACT,
    JF_EXTRACT_STRING,
    JF_EXTRACT_INT,
    JF_EXTRACT_BIGINT,
    JF_EXTRACT_LARGEINT,
    JF_EXTRACT_DOUBLE,
    JF_EXTRACT_BOOL,
    JF_EXTRACT_ISNULL,
    JF_GET_STRING,
    JF_GET_INT,
    JF_GET_BIGINT,
    JF_GET_DOUBLE,
    JF_EXISTS_PATH,
    JF_TYPE,
    JF_LENGTH,
    JF_CONTAINS,
    JF_OBJECT,
    JF_ARRAY,
    JF_QUOTE,
    JF_UNQUOTE,
} jf_op;

typedef struct jf_name {
    const char *name;
    jf_op op;
    int8_t min_args, max_args; /* checked here: the registry row allows any count */
} jf_name;

static const jf_name jf_names[] = {
        {"get_json_bigint", JF_GET_BIGINT, 2, 2},
        {"get_json_double", JF_GET_DOUBLE, 2, 2},
        {"get_json_int", JF_GET_INT, 2, 2},
        {"get_json_string", JF_GET_STRING, 2, 2},
        {"json_array", JF_ARRAY, 0, -1},
        {"json_contains", JF_CONTAINS, 2, 3},
        {"json_exists_path", JF_EXISTS_PATH, 2, 2},
        {"json_extract", JF_EXTRACT, 2, -1},
        {"json_extract_bigint", JF_EXTRACT_BIGINT, 2, 2},
        {"json_extract_bool", JF_EXTRACT_BOOL, 2, 2},
        {"json_extract_double", JF_EXTRACT_DOUBLE, 2, 2},
        {"json_extract_int", JF_EXTRACT_INT, 2, 2},
        {"json_extract_isnull", JF_EXTRACT_ISNULL, 2, 2},
        {"json_extract_largeint", JF_EXTRACT_LARGEINT, 2, 2},
        {"json_extract_string", JF_EXTRACT_STRING, 2, 2},
        {"json_length", JF_LENGTH, 1, 2},
        {"json_object", JF_OBJECT, 0, -1},
        {"json_parse", JF_PARSE, 1, 1},
        {"json_parse_error_to_null", JF_PARSE_NULL, 1, 1},
        {"json_parse_error_to_value", JF_PARSE_VALUE, 2, 2},
        {"json_quote", JF_QUOTE, 1, 1},
        {"json_type", JF_TYPE, 2, 2},
        {"json_unquote", JF_UNQUOTE, 1, 1},
        {"json_valid", JF_VALID, 1, 1},
};

static int arg_value(plan_ectx *cx, const plan_expr *e, uint32_t i, plan_value *v, db_error *err);
static int arg_json(plan_ectx *cx, const plan_expr *e, uint32_t i, const char **s, size_t *len,
                    bool *is_null, db_error *err);
static int arg_path(plan_ectx *cx, const plan_expr *e, uint32_t i, bool lenient, plan_json_path *p,
                    bool *is_null, db_error *err);
static int find_at(plan_ectx *cx, const plan_expr *e, bool lenient, const char **doc, size_t *len,
                   bool *found, db_error *err);
static void put(arena *a, char **buf, size_t *len, size_t *cap, const char *s, size_t n);
static int sql_to_json(plan_ectx *cx, const plan_expr *arg, const plan_value *v, const char **s,
                       size_t *len, db_error *err);
static int ev_parse(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int ev_extract(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int ev_typed(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int ev_length(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int ev_contains(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int ev_build(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int ev_quote(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);

/* ---- arguments ---- */

static int
arg_value(plan_ectx *cx, const plan_expr *e, uint32_t i, plan_value *v, db_error *err)
{
    return plan__eval(cx, e->args[i], v, err);
}

/* Argument i as JSON text in normal form; *is_null for SQL NULL and for text that is not
 * JSON. */
static int
arg_json(plan_ectx *cx, const plan_expr *e, uint32_t i, const char **s, size_t *len, bool *is_null,
         db_error *err)
{
    plan_value v;
    if (arg_value(cx, e, i, &v, err) != DB_OK) {
        return DB_ERR;
    }
    const char *t;
    size_t tl;
    *is_null = !plan__v_string(cx, &v, &t, &tl);
    if (*is_null) {
        return DB_OK;
    }
    if (e->args[i]->t.type == PLAN_TYPE_JSON) {
        *s = t;
        *len = tl;
        return DB_OK;
    }
    *s = plan__json_normalize(cx->a, t, tl, len, NULL);
    *is_null = *s == NULL;
    return DB_OK;
}

/* Argument i as a path. An invalid path is an error (Doris), or NULL when lenient (the
 * GET_JSON_* functions). */
static int
arg_path(plan_ectx *cx, const plan_expr *e, uint32_t i, bool lenient, plan_json_path *p,
         bool *is_null, db_error *err)
{
    plan_value v;
    if (arg_value(cx, e, i, &v, err) != DB_OK) {
        return DB_ERR;
    }
    const char *t;
    size_t tl;
    *is_null = !plan__v_string(cx, &v, &t, &tl);
    if (*is_null) {
        return DB_OK;
    }
    if (!plan__json_path_parse(cx->a, t, tl, p)) {
        if (lenient) {
            *is_null = true;
            return DB_OK;
        }
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a,
                                          "Json path error: Invalid Json Path for value: %.*s%s",
                                          (int)(tl > 64 ? 64 : tl), t, tl > 64 ? "..." : ""));
    }
    return DB_OK;
}

/* The value at args[1] (a path) in args[0]: *doc and *len get the value, *found is false when the
 * document, the path or the value is missing (result NULL). */
static int
find_at(plan_ectx *cx, const plan_expr *e, bool lenient, const char **doc, size_t *len, bool *found,
        db_error *err)
{
    bool null_doc, null_path;
    plan_json_path p;
    *found = false;
    if (arg_json(cx, e, 0, doc, len, &null_doc, err) != DB_OK ||
        arg_path(cx, e, 1, lenient, &p, &null_path, err) != DB_OK) {
        return DB_ERR;
    }
    if (null_doc || null_path) {
        return DB_OK;
    }
    size_t vs, ve;
    if (!plan__json_find(*doc, *len, &p, &vs, &ve)) {
        return DB_OK;
    }
    *doc += vs;
    *len = ve - vs;
    *found = true;
    return DB_OK;
}

static void
put(arena *a, char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = *cap * 2 > *len + n + 64 ? *cap * 2 : *len + n + 64;
        char *b = arena_alloc(a, c);
        if (*len) {
            memcpy(b, *buf, *len);
        }
        *buf = b;
        *cap = c;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
}

/* A SQL value as a JSON value for JSON_OBJECT / JSON_ARRAY: NULL is null, a JSON argument is
 * kept, BOOLEAN is true/false, numbers are numbers, everything else a string. */
static int
sql_to_json(plan_ectx *cx, const plan_expr *arg, const plan_value *v, const char **s, size_t *len,
            db_error *err)
{
    (void)err;
    if (v->kind == PV_NULL) {
        *s = "null";
        *len = 4;
        return DB_OK;
    }
    const char *t;
    size_t tl;
    plan__v_string(cx, v, &t, &tl);
    if (arg->t.type == PLAN_TYPE_JSON) {
        *s = t;
        *len = tl;
        return DB_OK;
    }
    if ((arg->t.type == PLAN_TYPE_BOOLEAN || (arg->src && arg->src->kind == PA_BOOL)) &&
        v->kind == PV_INT) {
        *s = v->i ? "true" : "false";
        *len = strlen(*s);
        return DB_OK;
    }
    if (v->kind == PV_INT || v->kind == PV_DOUBLE || v->kind == PV_DECIMAL) {
        char *n = plan__json_normalize(cx->a, t, tl, len, NULL);
        if (n != NULL) {
            *s = n;
            return DB_OK;
        }
    }
    *s = plan__json_quote(cx->a, t, tl, len);
    return DB_OK;
}

/* ---- evaluation ---- */

static int
ev_parse(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (arg_value(cx, e, 0, &v, err) != DB_OK) {
        return DB_ERR;
    }
    const char *t;
    size_t tl, nl;
    if (!plan__v_string(cx, &v, &t, &tl)) {
        *out = plan__v_null();
        return DB_OK;
    }
    plan_json_err je = {0};
    char *j = plan__json_normalize(cx->a, t, tl, &nl, &je);
    if (e->op == JF_VALID) {
        *out = plan__v_int(j != NULL);
        return DB_OK;
    }
    if (j != NULL) {
        *out = plan__v_str(j, nl);
        return DB_OK;
    }
    if (e->op == JF_PARSE_NULL) {
        *out = plan__v_null();
        return DB_OK;
    }
    if (e->op == JF_PARSE_VALUE) {
        bool is_null;
        const char *d;
        size_t dl;
        if (arg_json(cx, e, 1, &d, &dl, &is_null, err) != DB_OK) {
            return DB_ERR;
        }
        *out = is_null ? plan__v_null() : plan__v_str(d, dl);
        return DB_OK;
    }
    return db_error_set(
            err, ER_DORIS,
            arena_sprintf(cx->a, "json parse error: %s at position %zu for value: %.*s%s", je.msg,
                          je.pos, (int)(tl > 64 ? 64 : tl), t, tl > 64 ? "..." : ""));
}

/* JSON_EXTRACT: one path gives the value, several an array of them (null where missing). */
static int
ev_extract(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    *out = plan__v_null();
    if (e->nargs == 2) {
        const char *v;
        size_t len;
        bool found;
        if (find_at(cx, e, false, &v, &len, &found, err) != DB_OK) {
            return DB_ERR;
        }
        if (found) {
            *out = plan__v_str(v, len);
        }
        return DB_OK;
    }
    const char *doc;
    size_t dl;
    bool is_null;
    if (arg_json(cx, e, 0, &doc, &dl, &is_null, err) != DB_OK) {
        return DB_ERR;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    put(cx->a, &buf, &len, &cap, "[", 1);
    for (uint32_t i = 1; i < e->nargs; i++) {
        plan_json_path p;
        bool null_path;
        if (arg_path(cx, e, i, false, &p, &null_path, err) != DB_OK) {
            return DB_ERR;
        }
        if (null_path) {
            is_null = true;
        }
        if (is_null) {
            continue;
        }
        size_t vs, ve;
        if (i > 1) {
            put(cx->a, &buf, &len, &cap, ",", 1);
        }
        if (plan__json_find(doc, dl, &p, &vs, &ve)) {
            put(cx->a, &buf, &len, &cap, doc + vs, ve - vs);
        } else {
            put(cx->a, &buf, &len, &cap, "null", 4);
        }
    }
    if (is_null) {
        return DB_OK;
    }
    put(cx->a, &buf, &len, &cap, "]", 1);
    *out = plan__v_str(buf, len);
    return DB_OK;
}

/* The typed extractors, GET_JSON_*, JSON_EXISTS_PATH and JSON_TYPE. */
static int
ev_typed(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *v;
    size_t len;
    bool found;
    bool lenient = e->op >= JF_GET_STRING && e->op <= JF_GET_DOUBLE;
    *out = plan__v_null();
    if (e->op == JF_EXISTS_PATH) {
        const char *doc;
        size_t dl;
        bool null_doc, null_path;
        plan_json_path p;
        if (arg_json(cx, e, 0, &doc, &dl, &null_doc, err) != DB_OK ||
            arg_path(cx, e, 1, false, &p, &null_path, err) != DB_OK) {
            return DB_ERR;
        }
        if (!null_doc && !null_path) {
            size_t vs, ve;
            *out = plan__v_int(plan__json_find(doc, dl, &p, &vs, &ve));
        }
        return DB_OK;
    }
    if (find_at(cx, e, lenient, &v, &len, &found, err) != DB_OK) {
        return DB_ERR;
    }
    if (!found) {
        return DB_OK;
    }
    plan_json_kind k = plan__json_kind(v, len);
    switch ((jf_op)e->op) {
    case JF_TYPE: {
        const char *name = plan__json_kind_name(k);
        *out = plan__v_str(name, strlen(name));
        return DB_OK;
    }
    case JF_EXTRACT_ISNULL:
        *out = plan__v_int(k == PLAN_JSON_NULL);
        return DB_OK;
    case JF_EXTRACT_BOOL:
        if (k == PLAN_JSON_BOOL) {
            *out = plan__v_int(v[0] == 't');
        }
        return DB_OK;
    case JF_EXTRACT_INT:
    case JF_GET_INT:
        if (k == PLAN_JSON_INT) {
            *out = plan__v_int((int64_t)plan__json_int(v, len));
        }
        return DB_OK;
    case JF_EXTRACT_BIGINT:
    case JF_GET_BIGINT:
        if (k == PLAN_JSON_INT || k == PLAN_JSON_BIGINT) {
            *out = plan__v_int((int64_t)plan__json_int(v, len));
        }
        return DB_OK;
    case JF_EXTRACT_LARGEINT:
        if (k == PLAN_JSON_INT || k == PLAN_JSON_BIGINT || k == PLAN_JSON_LARGEINT) {
            *out = plan__v_dec(plan__json_int(v, len), 0);
        }
        return DB_OK;
    case JF_EXTRACT_DOUBLE:
    case JF_GET_DOUBLE:
        if (k == PLAN_JSON_INT || k == PLAN_JSON_BIGINT || k == PLAN_JSON_LARGEINT ||
            k == PLAN_JSON_DOUBLE) {
            *out = plan__v_double(plan__json_double(v, len));
        }
        return DB_OK;
    case JF_EXTRACT_STRING:
    case JF_GET_STRING:
        if (k == PLAN_JSON_STRING) {
            size_t ul;
            char *u = plan__json_unescape(cx->a, v, len, &ul);
            *out = plan__v_str(u, ul);
        } else if (k != PLAN_JSON_NULL || e->op == JF_EXTRACT_STRING) {
            *out = plan__v_str(v, len);
        }
        return DB_OK;
    default:
        return DB_OK;
    }
}

static int
ev_length(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *v;
    size_t len;
    bool found = false, is_null;
    *out = plan__v_null();
    if (e->nargs == 1) {
        if (arg_json(cx, e, 0, &v, &len, &is_null, err) != DB_OK) {
            return DB_ERR;
        }
        found = !is_null;
    } else if (find_at(cx, e, false, &v, &len, &found, err) != DB_OK) {
        return DB_ERR;
    }
    if (found) {
        *out = plan__v_int((int64_t)plan__json_length(v, len));
    }
    return DB_OK;
}

static int
ev_contains(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *t, *c;
    size_t tl, cl;
    bool null_t, null_c, null_p = false;
    plan_json_path p;
    *out = plan__v_null();
    if (arg_json(cx, e, 0, &t, &tl, &null_t, err) != DB_OK ||
        arg_json(cx, e, 1, &c, &cl, &null_c, err) != DB_OK ||
        (e->nargs == 3 && arg_path(cx, e, 2, false, &p, &null_p, err) != DB_OK)) {
        return DB_ERR;
    }
    if (null_t || null_c || null_p) {
        return DB_OK;
    }
    if (e->nargs == 3) {
        size_t vs, ve;
        if (!plan__json_find(t, tl, &p, &vs, &ve)) {
            return DB_OK; /* no value at the path: NULL (MySQL) */
        }
        t += vs;
        tl = ve - vs;
    }
    *out = plan__v_int(plan__json_contains(t, tl, c, cl));
    return DB_OK;
}

/* JSON_OBJECT(k, v, ...) and JSON_ARRAY(v, ...). */
static int
ev_build(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    bool obj = e->op == JF_OBJECT;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    put(cx->a, &buf, &len, &cap, obj ? "{" : "[", 1);
    for (uint32_t i = 0; i < e->nargs; i++) {
        plan_value v;
        if (arg_value(cx, e, i, &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (i > 0) {
            put(cx->a, &buf, &len, &cap, obj && (i & 1) ? ":" : ",", 1);
        }
        const char *s;
        size_t sl;
        if (obj && !(i & 1)) {
            if (v.kind == PV_NULL) {
                return db_error_set(err, ER_DORIS, "json_object key can't be NULL");
            }
            const char *k;
            size_t kl;
            plan__v_string(cx, &v, &k, &kl);
            s = plan__json_quote(cx->a, k, kl, &sl);
        } else if (sql_to_json(cx, e->args[i], &v, &s, &sl, err) != DB_OK) {
            return DB_ERR;
        }
        put(cx->a, &buf, &len, &cap, s, sl);
    }
    put(cx->a, &buf, &len, &cap, obj ? "}" : "]", 1);
    *out = plan__v_str(buf, len);
    return DB_OK;
}

/* JSON_QUOTE(s) and JSON_UNQUOTE(s) (MySQL's: text not in double quotes, or not a valid JSON
 * string, comes back unchanged). */
static int
ev_quote(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (arg_value(cx, e, 0, &v, err) != DB_OK) {
        return DB_ERR;
    }
    const char *s;
    size_t len, ol;
    if (!plan__v_string(cx, &v, &s, &len)) {
        *out = plan__v_null();
        return DB_OK;
    }
    if (e->op == JF_QUOTE) {
        char *q = plan__json_quote(cx->a, s, len, &ol);
        *out = plan__v_str(q, ol);
        return DB_OK;
    }
    *out = plan__v_str(s, len);
    if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
        char *n = plan__json_normalize(cx->a, s, len, &ol, NULL);
        if (n != NULL && plan__json_kind(n, ol) == PLAN_JSON_STRING) {
            char *u = plan__json_unescape(cx->a, n, ol, &ol);
            *out = plan__v_str(u, ol);
        }
    }
    return DB_OK;
}

/* ---- type rule ---- */

int
plan__ty_json(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    const jf_name *f = NULL;
    /* JSONB_x is JSON_x */
    const char *n = strncmp(e->name, "jsonb_", 6) == 0 ? e->name + 1 : e->name;
    char alias[64];
    if (n != e->name) {
        snprintf(alias, sizeof alias, "json%s", n + 4);
        n = alias;
    }
    for (size_t i = 0; i < sizeof jf_names / sizeof jf_names[0]; i++) {
        if (strcmp(n, jf_names[i].name) == 0) {
            f = &jf_names[i];
            break;
        }
    }
    if (f == NULL || (int)e->nargs < f->min_args ||
        (f->max_args >= 0 && (int)e->nargs > f->max_args)) {
        return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, e->name);
    }
    if (f->op == JF_OBJECT && (e->nargs & 1)) {
        return db_error_set(err, ER_DORIS,
                            "json_object can't have odd parameters, need even parameters");
    }
    e->op = (int)f->op;
    bool nullable = true;
    switch (f->op) {
    case JF_PARSE:
    case JF_PARSE_NULL:
    case JF_PARSE_VALUE:
    case JF_EXTRACT:
    case JF_OBJECT:
    case JF_ARRAY:
        nullable = !(f->op == JF_OBJECT || f->op == JF_ARRAY);
        plan__type_string(&e->t, 65535, nullable);
        e->t.type = PLAN_TYPE_JSON;
        e->vk = PV_STRING;
        e->eval = f->op == JF_EXTRACT
                          ? ev_extract
                          : (f->op == JF_OBJECT || f->op == JF_ARRAY ? ev_build : ev_parse);
        return DB_OK;
    case JF_VALID:
        plan__type_bigint(&e->t, 1, true);
        e->t.type = PLAN_TYPE_INT;
        e->vk = PV_INT;
        e->eval = ev_parse;
        return DB_OK;
    case JF_EXTRACT_STRING:
    case JF_GET_STRING:
    case JF_TYPE:
        plan__type_string(&e->t, 65535, true);
        e->t.type = PLAN_TYPE_STRING;
        e->vk = PV_STRING;
        e->eval = ev_typed;
        return DB_OK;
    case JF_QUOTE:
    case JF_UNQUOTE:
        plan__type_string(&e->t, 65535, true);
        e->t.type = PLAN_TYPE_STRING;
        e->vk = PV_STRING;
        e->eval = ev_quote;
        return DB_OK;
    case JF_EXTRACT_INT:
    case JF_GET_INT:
    case JF_LENGTH:
        plan__type_bigint(&e->t, 11, true);
        e->t.type = PLAN_TYPE_INT;
        e->vk = PV_INT;
        e->eval = f->op == JF_LENGTH ? ev_length : ev_typed;
        return DB_OK;
    case JF_EXTRACT_BIGINT:
    case JF_GET_BIGINT:
        plan__type_bigint(&e->t, 20, true);
        e->vk = PV_INT;
        e->eval = ev_typed;
        return DB_OK;
    case JF_EXTRACT_LARGEINT:
        plan__type_bigint(&e->t, 40, true);
        e->t.type = PLAN_TYPE_LARGEINT;
        e->vk = PV_DECIMAL;
        e->eval = ev_typed;
        return DB_OK;
    case JF_EXTRACT_DOUBLE:
    case JF_GET_DOUBLE:
        plan__type_double(&e->t, true);
        e->vk = PV_DOUBLE;
        e->eval = ev_typed;
        return DB_OK;
    case JF_EXTRACT_BOOL:
    case JF_EXTRACT_ISNULL:
    case JF_EXISTS_PATH:
    case JF_CONTAINS:
        plan__type_bigint(&e->t, 1, true);
        e->t.type = PLAN_TYPE_BOOLEAN;
        e->vk = PV_INT;
        e->eval = f->op == JF_CONTAINS ? ev_contains : ev_typed;
        return DB_OK;
    }
    return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, e->name);
}

/* ---- where JSON values cannot go (Doris 2.1) ---- */

int
plan__json_check_cmp(const plan_expr *const *args, uint32_t n, db_error *err)
{
    for (uint32_t i = 0; i < n; i++) {
        if (args[i]->t.type == PLAN_TYPE_JSON) {
            return db_error_set(err, ER_DORIS, "comparison predicate could not contains json type");
        }
        if (args[i]->t.type == PLAN_TYPE_ARRAY) {
            return db_error_set(err, ER_DORIS,
                                "comparison predicate could not contains complex type");
        }
    }
    return DB_OK;
}

int
plan__json_check_key(const plan_expr *x, db_error *err)
{
    if (x->t.type != PLAN_TYPE_JSON && x->t.type != PLAN_TYPE_ARRAY) {
        return DB_OK;
    }
    return db_error_set(
            err, ER_DORIS,
            "Doris hll, bitmap, array, map, struct, jsonb, variant column must use with specific "
            "function, and don't support filter, group by or order by. please run 'help hll' or "
            "'help bitmap' or 'help array' or 'help map' or 'help struct' or 'help jsonb' or "
            "'help variant' in your mysql client.");
}
