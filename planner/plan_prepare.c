/* SPDX-License-Identifier: Apache-2.0
 * plan_prepare.c: prepared statements. plan_prepare parses one statement with '?' placeholders
 * into a heap arena of its own, kept in the session under an id (1, 2, ...), and describes its
 * result columns without running anything. plan_execute_prepared turns the bound values into
 * plan_values and runs the statement as plan_execute would; the analyser re-types it with the
 * bound values, so the sink gets this execution's metadata. SQL PREPARE / EXECUTE /
 * DEALLOCATE PREPARE use the same table, with names. See README.md §Prepared statements. */
#include "planner/plan_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/mem.h"

static plan_prep *prep_find(plan_session *s, uint32_t id, size_t *pos);
static plan_prep *prep_find_name(plan_session *s, const char *name, size_t *pos);
static void prep_remove(plan_session *s, size_t pos);
static int prep_create(plan_session *s, const char *sql, size_t len, const char *name, arena *a,
                       plan_prep **out, plan_column **cols, size_t *ncols, db_error *err);
static int param_value(arena *a, const plan_param *p, plan_value *v, db_error *err);
static uint8_t frac_digits(const char *s, size_t len);

/* ---- the session's table (sorted by id) ---- */

/* Binary search for id; *pos is its index, or where it would be inserted. */
static plan_prep *
prep_find(plan_session *s, uint32_t id, size_t *pos)
{
    size_t lo = 0, hi = s->npreps;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->preps[mid]->id < id) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    *pos = lo;
    return lo < s->npreps && s->preps[lo]->id == id ? s->preps[lo] : NULL;
}

/* SQL-level statements by name (case-insensitive, as MySQL). */
static plan_prep *
prep_find_name(plan_session *s, const char *name, size_t *pos)
{
    for (size_t i = 0; i < s->npreps; i++) {
        if (s->preps[i]->name && strcasecmp(s->preps[i]->name, name) == 0) {
            *pos = i;
            return s->preps[i];
        }
    }
    return NULL;
}

static void
prep_remove(plan_session *s, size_t pos)
{
    DB_ASSERT(pos < s->npreps);
    plan_prep *p = s->preps[pos];
    memmove(&s->preps[pos], &s->preps[pos + 1], (s->npreps - pos - 1) * sizeof *s->preps);
    s->npreps--;
    arena_free(p->a); /* p itself lives in it */
}

void
plan__prep_free_all(plan_session *s)
{
    for (size_t i = 0; i < s->npreps; i++) {
        arena_free(s->preps[i]->a);
    }
    mem_free(s->preps);
    s->preps = NULL;
    s->npreps = s->cap_preps = 0;
    /* next_prep_id keeps counting: an id never names two statements of a session. */
}

/* Parse sql[0..len) into a new arena, describe it (columns in a), and add it to the table. */
static int
prep_create(plan_session *s, const char *sql, size_t len, const char *name, arena *a,
            plan_prep **out, plan_column **cols, size_t *ncols, db_error *err)
{
    if (s->npreps >= PLAN_MAX_PREPARED) {
        return db_error_set(err, ER_MAX_PREPARED_STMT_COUNT_REACHED,
                            (unsigned long)PLAN_MAX_PREPARED);
    }
    arena *pa = arena_new(2048);
    plan_prep *p = arena_calloc(pa, 1, sizeof *p);
    p->a = pa;
    p->sql = arena_strndup(pa, sql, len);
    p->len = len;
    p->name = name ? arena_strdup(pa, name) : NULL;
    bool nbe, aq, pac;
    plan__sql_mode_flags(s, &nbe, &aq, &pac);
    if (plan__parse_prepared(pa, p->sql, len, nbe, aq, pac, &p->st, err) != DB_OK ||
        plan__describe(s, p->st, p->sql, len, a, cols, ncols, err) != DB_OK) {
        arena_free(pa);
        return DB_ERR;
    }
    /* Labels may point into the statement's text: hand out copies in a. */
    for (size_t i = 0; i < *ncols; i++) {
        (*cols)[i].name = (*cols)[i].name ? arena_strdup(a, (*cols)[i].name) : NULL;
    }
    uint32_t id;
    size_t pos;
    do {
        id = ++s->next_prep_id;
    } while (id == 0 || prep_find(s, id, &pos));
    p->id = id;
    if (s->npreps == s->cap_preps) {
        s->cap_preps = s->cap_preps ? s->cap_preps * 2 : 8;
        s->preps = mem_realloc(s->preps, s->cap_preps * sizeof *s->preps);
    }
    memmove(&s->preps[pos + 1], &s->preps[pos], (s->npreps - pos) * sizeof *s->preps);
    s->preps[pos] = p;
    s->npreps++;
    *out = p;
    return DB_OK;
}

/* ---- bound values ---- */

/* Digits after the '.' of a datetime/time text (its fractional seconds precision). */
static uint8_t
frac_digits(const char *s, size_t len)
{
    const char *dot = memchr(s, '.', len);
    if (!dot) {
        return 0;
    }
    uint8_t n = 0;
    for (const char *c = dot + 1; c < s + len && *c >= '0' && *c <= '9' && n < 6; c++) {
        n++;
    }
    return n;
}

/* The value of one bound parameter, strings copied into a. Texts that are not what their kind
 * promises (a DECIMAL that does not parse, an invalid DATE) are kept as strings, which MySQL
 * converts where they are used. */
static int
param_value(arena *a, const plan_param *p, plan_value *v, db_error *err)
{
    const char *str = p->len ? arena_strndup(a, p->s, p->len) : "";
    size_t len = p->len;
    int64_t us;
    bool has_time;
    switch (p->kind) {
    case PLAN_PARAM_NULL:
        *v = plan__v_null();
        return DB_OK;
    case PLAN_PARAM_INT:
        *v = plan__v_int(p->i);
        return DB_OK;
    case PLAN_PARAM_UINT:
        *v = plan__v_uint(p->u);
        return DB_OK;
    case PLAN_PARAM_DOUBLE:
        if (!isfinite(p->d)) {
            return db_error_set(err, ER_ILLEGAL_VALUE_FOR_TYPE, "double",
                                isnan(p->d) ? "nan" : "inf");
        }
        *v = plan__v_double(p->d);
        return DB_OK;
    case PLAN_PARAM_DECIMAL: {
        __int128 d;
        int scale;
        if (plan__dec_parse(str, len, &d, &scale)) {
            *v = plan__v_dec(d, scale);
            return DB_OK;
        }
        char *end;
        double x = strtod(str, &end);
        if (end != str && isfinite(x)) {
            *v = plan__v_double(x);
            return DB_OK;
        }
        break;
    }
    case PLAN_PARAM_STRING:
        break;
    case PLAN_PARAM_DATE:
    case PLAN_PARAM_DATETIME:
        if (plan__parse_datetime(str, len, &us, &has_time)) {
            *v = plan__v_null();
            v->kind = p->kind == PLAN_PARAM_DATE ? PV_DATE : PV_DATETIME;
            v->us = us;
            v->scale = p->kind == PLAN_PARAM_DATE ? 0 : frac_digits(str, len);
            if (p->kind == PLAN_PARAM_DATE && has_time) {
                int64_t day = 86400LL * 1000000;
                v->us = us - ((us % day) + day) % day;
            }
            return DB_OK;
        }
        break;
    case PLAN_PARAM_TIME:
        if (plan__parse_time(str, len, &us)) {
            *v = plan__v_null();
            v->kind = PV_TIME;
            v->us = us;
            v->scale = frac_digits(str, len);
            return DB_OK;
        }
        break;
    }
    *v = plan__v_str(str, len);
    return DB_OK;
}

void
plan__param_type(const plan_value *v, plan_xtype *t, plan_vkind *vk)
{
    *vk = (plan_vkind)v->kind;
    switch ((plan_vkind)v->kind) {
    case PV_NULL:
        memset(t, 0, sizeof *t);
        t->type = PLAN_TYPE_NULL;
        t->nullable = true;
        return;
    case PV_INT:
        plan__type_bigint(t, v->is_unsigned ? 20 : 21, false);
        t->is_unsigned = v->is_unsigned;
        return;
    case PV_DOUBLE:
        plan__type_double(t, false);
        return;
    case PV_DECIMAL: {
        int digits = plan__dec_digits(v->dec);
        plan__type_decimal(t, digits > v->scale ? digits : v->scale, v->scale, false);
        return;
    }
    case PV_STRING: {
        uint32_t chars = 0;
        for (size_t i = 0; i < v->str.len; i++) {
            chars += ((unsigned char)v->str.s[i] & 0xC0) != 0x80;
        }
        plan__type_string(t, chars, false);
        t->is_binary = v->is_binary;
        return;
    }
    case PV_DATE:
        plan__type_datetime(t, PLAN_TYPE_DATE, 0, false);
        return;
    case PV_DATETIME:
        plan__type_datetime(t, PLAN_TYPE_DATETIME, v->scale, false);
        return;
    case PV_TIME:
        plan__type_datetime(t, PLAN_TYPE_TIME, v->scale, false);
        return;
    }
    DB_ASSERT(!"unknown value kind");
}

/* ---- the wire API ---- */

int
plan_prepare(plan_session *s, const char *sql, size_t len, arena *a, uint32_t *stmt_id,
             uint16_t *nparams, plan_column **cols, size_t *ncols, db_error *err)
{
    plan_prep *p;
    *cols = NULL;
    *ncols = 0;
    if (prep_create(s, sql, len, NULL, a, &p, cols, ncols, err) != DB_OK) {
        plan__stmt_fail(s, err);
        return DB_ERR;
    }
    plan__stmt_prepared(s, p->st);
    *stmt_id = p->id;
    *nparams = p->st->nparams;
    return DB_OK;
}

int
plan_execute_prepared(plan_session *s, uint32_t stmt_id, const plan_param *params, size_t nparams,
                      arena *a, const plan_sink *sink, plan_outcome *out, db_error *err)
{
    plan__stmt_start(s, out);
    size_t pos;
    plan_prep *p = prep_find(s, stmt_id, &pos);
    if (!p) {
        char id[16];
        snprintf(id, sizeof id, "%u", stmt_id);
        db_error_set(err, ER_UNKNOWN_STMT_HANDLER, id, "mysqld_stmt_execute");
        plan__stmt_fail(s, err);
        return DB_ERR;
    }
    if (nparams != p->st->nparams) {
        db_error_set(err, ER_WRONG_ARGUMENTS, "mysqld_stmt_execute");
        plan__stmt_fail(s, err);
        return DB_ERR;
    }
    plan_value *vals = arena_calloc(a, nparams ? nparams : 1, sizeof *vals);
    for (size_t i = 0; i < nparams; i++) {
        if (param_value(a, &params[i], &vals[i], err) != DB_OK) {
            plan__stmt_fail(s, err);
            return DB_ERR;
        }
    }
    return plan__run(s, p->st, p->sql, p->len, vals, nparams, a, sink, out, err);
}

void
plan_close_prepared(plan_session *s, uint32_t stmt_id)
{
    size_t pos;
    if (prep_find(s, stmt_id, &pos)) {
        prep_remove(s, pos);
    }
}

/* ---- SQL PREPARE / EXECUTE / DEALLOCATE PREPARE ---- */

int
plan__sql_prepare(plan_ectx *cx, const plan_stmt *st, plan_outcome *out, db_error *err)
{
    plan_session *s = cx->s;
    size_t pos;
    /* MySQL drops a statement of the same name first, even when the new text fails. */
    if (prep_find_name(s, st->name, &pos)) {
        prep_remove(s, pos);
    }
    const char *text = "NULL";
    size_t len = 4;
    const plan_ast *x = st->prep_text;
    if (x->kind == PA_STRING) {
        text = x->str;
        len = x->len;
    } else {
        const plan_uservar *u = plan__uservar_get(s, x->name);
        if (u && u->v.kind != PV_NULL && !plan__v_string(cx, &u->v, &text, &len)) {
            text = "NULL";
            len = 4;
        }
    }
    plan_prep *p;
    plan_column *cols;
    size_t ncols;
    if (prep_create(s, text, len, st->name, cx->a, &p, &cols, &ncols, err) != DB_OK) {
        return DB_ERR;
    }
    out->info = "Statement prepared";
    return DB_OK;
}

int
plan__sql_execute(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                  db_error *err)
{
    plan_session *s = cx->s;
    size_t pos;
    plan_prep *p = prep_find_name(s, st->name, &pos);
    if (!p) {
        return db_error_set(err, ER_UNKNOWN_STMT_HANDLER, st->name, "EXECUTE");
    }
    if (st->nusing != p->st->nparams) {
        return db_error_set(err, ER_WRONG_ARGUMENTS, "EXECUTE");
    }
    plan_value *vals = arena_calloc(cx->a, st->nusing ? st->nusing : 1, sizeof *vals);
    for (uint32_t i = 0; i < st->nusing; i++) {
        const plan_uservar *u = plan__uservar_get(s, st->using_vars[i]);
        vals[i] = u ? u->v : plan__v_null();
        if (vals[i].kind == PV_STRING) {
            /* The statement may assign the variable, which frees its bytes. */
            vals[i].str.s = arena_strndup(cx->a, vals[i].str.s, vals[i].str.len);
        }
    }
    plan_ectx icx;
    plan__ectx_init(&icx, s, cx->a, p->sql, p->len);
    icx.params = vals;
    icx.nparams = st->nusing;
    return plan__exec_stmt(&icx, p->st, sink, out, err);
}

int
plan__sql_deallocate(plan_ectx *cx, const plan_stmt *st, db_error *err)
{
    size_t pos;
    if (!prep_find_name(cx->s, st->name, &pos)) {
        return db_error_set(err, ER_UNKNOWN_STMT_HANDLER, st->name, "DEALLOCATE PREPARE");
    }
    prep_remove(cx->s, pos);
    return DB_OK;
}
