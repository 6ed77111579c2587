/* SPDX-License-Identifier: Apache-2.0
 * plan_array.c: scanning and building the text form of ARRAY values. See plan_array.h and
 * README.md §ARRAY. */
#include "planner/plan_array.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool
is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static size_t
skip_blanks(const char *s, size_t len, size_t i)
{
    while (i < len && is_blank(s[i])) {
        i++;
    }
    return i;
}

bool
plan__arr_begin(plan_arr_iter *it, const char *s, size_t len)
{
    memset(it, 0, sizeof *it);
    it->s = s;
    it->len = len;
    it->first = true;
    size_t i = skip_blanks(s, len, 0);
    if (s == NULL || i >= len || s[i] != '[') {
        it->done = true;
        return false;
    }
    it->pos = i + 1;
    return true;
}

/* The end of a quoted run starting at s[i] (the quote): the index after the closing quote,
 * or 0 when unterminated. */
static size_t
quoted_end(const char *s, size_t len, size_t i)
{
    char q = s[i];
    for (i++; i < len; i++) {
        if (s[i] == '\\') {
            i++;
        } else if (s[i] == q) {
            return i + 1;
        }
    }
    return 0;
}

/* The end of the nested array opening at s[i]: the index after its ']', 0 when unbalanced. */
static size_t
nested_end(const char *s, size_t len, size_t i)
{
    size_t depth = 0;
    while (i < len) {
        char c = s[i];
        if (c == '"' || c == '\'') {
            size_t e = quoted_end(s, len, i);
            if (e == 0) {
                return 0;
            }
            i = e;
            continue;
        }
        if (c == '[') {
            depth++;
        } else if (c == ']') {
            if (--depth == 0) {
                return i + 1;
            }
        }
        i++;
    }
    return 0;
}

static int
fail(plan_arr_iter *it)
{
    it->done = true;
    return -1;
}

/* After the closing bracket only blanks may follow. */
static int
finish(plan_arr_iter *it, size_t i)
{
    it->done = true;
    return skip_blanks(it->s, it->len, i + 1) == it->len ? 0 : -1;
}

int
plan__arr_next(plan_arr_iter *it, plan_arr_elem *e)
{
    if (it->done) {
        return -1;
    }
    const char *s = it->s;
    size_t len = it->len;
    size_t i = skip_blanks(s, len, it->pos);
    if (i >= len) {
        return fail(it);
    }
    if (it->first) {
        it->first = false;
        if (s[i] == ']') {
            return finish(it, i);
        }
    } else {
        if (s[i] == ']') {
            return finish(it, i);
        }
        if (s[i] != ',') {
            return fail(it);
        }
        i = skip_blanks(s, len, i + 1);
        if (i >= len) {
            return fail(it);
        }
    }
    memset(e, 0, sizeof *e);
    size_t end;
    if (s[i] == '"' || s[i] == '\'') {
        end = quoted_end(s, len, i);
        if (end == 0) {
            return fail(it);
        }
        e->kind = PLAN_ARR_STR;
        e->quote = s[i];
        e->s = s + i + 1;
        e->len = end - i - 2;
    } else if (s[i] == '[') {
        end = nested_end(s, len, i);
        if (end == 0) {
            return fail(it);
        }
        e->kind = PLAN_ARR_ARRAY;
        e->s = s + i;
        e->len = end - i;
    } else {
        end = i;
        while (end < len && s[end] != ',' && s[end] != ']') {
            char c = s[end];
            if (c == '"' || c == '\'' || c == '[') {
                return fail(it);
            }
            end++;
        }
        size_t t = end;
        while (t > i && is_blank(s[t - 1])) {
            t--;
        }
        if (t == i) {
            return fail(it); /* an empty element: `[1,,2]`, `[1,]` */
        }
        e->s = s + i;
        e->len = t - i;
        e->kind = (e->len == 4 && (memcmp(e->s, "null", 4) == 0 || memcmp(e->s, "NULL", 4) == 0))
                          ? PLAN_ARR_NULL
                          : PLAN_ARR_BARE;
    }
    it->pos = end;
    return 1;
}

int64_t
plan__arr_count(const char *s, size_t len)
{
    plan_arr_iter it;
    plan_arr_elem e;
    if (!plan__arr_begin(&it, s, len)) {
        return -1;
    }
    int64_t n = 0;
    int r;
    while ((r = plan__arr_next(&it, &e)) == 1) {
        n++;
    }
    return r == 0 ? n : -1;
}

size_t
plan__arr_unescape(const char *s, size_t len, char *dst)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '\\' && i + 1 < len) {
            c = s[++i];
            switch (c) {
            case 'n':
                c = '\n';
                break;
            case 't':
                c = '\t';
                break;
            case 'r':
                c = '\r';
                break;
            case 'b':
                c = '\b';
                break;
            case 'f':
                c = '\f';
                break;
            case '0':
                c = '\0';
                break;
            default:
                break; /* \" \' \\ and any other character: itself */
            }
        }
        dst[o++] = c;
    }
    return o;
}

/* ---- building ---- */

void
plan__arr_out_init(plan_arr_out *o, arena *a)
{
    memset(o, 0, sizeof *o);
    o->a = a;
}

static void
out_reserve(plan_arr_out *o, size_t more)
{
    if (o->len + more + 1 <= o->cap) {
        return;
    }
    size_t cap = o->cap ? o->cap * 2 : 64;
    while (cap < o->len + more + 1) {
        cap *= 2;
    }
    char *p = arena_alloc(o->a, cap);
    if (o->len) {
        memcpy(p, o->p, o->len);
    }
    o->p = p;
    o->cap = cap;
}

void
plan__arr_out_raw(plan_arr_out *o, const char *s, size_t len)
{
    out_reserve(o, len);
    if (len) {
        memcpy(o->p + o->len, s, len);
    }
    o->len += len;
}

void
plan__arr_out_sep(plan_arr_out *o)
{
    if (o->n++ == 0) {
        plan__arr_out_raw(o, "[", 1);
    } else {
        plan__arr_out_raw(o, ", ", 2);
    }
}

void
plan__arr_out_elem(plan_arr_out *o, const char *s, size_t len)
{
    plan__arr_out_sep(o);
    plan__arr_out_raw(o, s, len);
}

void
plan__arr_out_str(plan_arr_out *o, const char *s, size_t len)
{
    plan__arr_out_sep(o);
    out_reserve(o, len * 2 + 2);
    o->p[o->len++] = '"';
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"' || s[i] == '\\') {
            o->p[o->len++] = '\\';
        }
        o->p[o->len++] = s[i];
    }
    o->p[o->len++] = '"';
}

void
plan__arr_out_null(plan_arr_out *o)
{
    plan__arr_out_elem(o, "null", 4);
}

const char *
plan__arr_out_end(plan_arr_out *o, size_t *len)
{
    if (o->n == 0) {
        plan__arr_out_raw(o, "[", 1);
    }
    plan__arr_out_raw(o, "]", 1);
    o->p[o->len] = '\0';
    *len = o->len;
    return o->p;
}

/* ---- element types ---- */

static const struct {
    const char *name;
    uint8_t id;
} arr_type_names[] = {
        {"boolean", CAT_T_BOOLEAN}, {"tinyint", CAT_T_TINYINT}, {"smallint", CAT_T_SMALLINT},
        {"int", CAT_T_INT},         {"bigint", CAT_T_BIGINT},   {"largeint", CAT_T_LARGEINT},
        {"float", CAT_T_FLOAT},     {"double", CAT_T_DOUBLE},   {"decimal", CAT_T_DECIMAL},
        {"char", CAT_T_CHAR},       {"varchar", CAT_T_VARCHAR}, {"text", CAT_T_STRING},
        {"string", CAT_T_STRING},   {"date", CAT_T_DATE},       {"datetime", CAT_T_DATETIME},
        {"array", CAT_T_ARRAY},
};

/* A small unsigned number at s[*i] up to a non-digit. */
static bool
read_num(const char *s, size_t len, size_t *i, int *out)
{
    int v = 0;
    size_t st = *i;
    while (*i < len && s[*i] >= '0' && s[*i] <= '9' && v < 1000000) {
        v = v * 10 + (s[*i] - '0');
        (*i)++;
    }
    *out = v;
    return *i > st;
}

bool
plan__arr_type_parse(const char *s, size_t len, cat_type *out)
{
    memset(out, 0, sizeof *out);
    size_t i = 0;
    while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'))) {
        i++;
    }
    int id = -1;
    for (size_t k = 0; k < sizeof arr_type_names / sizeof arr_type_names[0]; k++) {
        if (strlen(arr_type_names[k].name) == i && strncasecmp(s, arr_type_names[k].name, i) == 0) {
            id = arr_type_names[k].id;
            break;
        }
    }
    if (id < 0) {
        return false;
    }
    out->id = (uint8_t)id;
    int a = -1, b = -1;
    if (id == CAT_T_ARRAY) {
        if (i >= len || s[i] != '<' || s[len - 1] != '>' || len - i - 2 >= sizeof out->inner ||
            len - i < 3) {
            return false;
        }
        cat_type inner;
        if (!plan__arr_type_parse(s + i + 1, len - i - 2, &inner)) {
            return false;
        }
        memcpy(out->inner, s + i + 1, len - i - 2);
        out->inner[len - i - 2] = '\0';
        return true;
    }
    if (i < len && s[i] == '(') {
        i++;
        if (!read_num(s, len, &i, &a)) {
            return false;
        }
        if (i < len && s[i] == ',') {
            i++;
            if (!read_num(s, len, &i, &b)) {
                return false;
            }
        }
        if (i >= len || s[i] != ')') {
            return false;
        }
        i++;
    }
    if (i != len) {
        return false;
    }
    switch (id) {
    case CAT_T_CHAR:
    case CAT_T_VARCHAR:
        out->len = a < 0 ? (id == CAT_T_CHAR ? 1 : CAT_VARCHAR_MAX) : a;
        break;
    case CAT_T_DECIMAL:
        out->precision = (uint8_t)(a < 0 ? 10 : (a > CAT_DECIMAL_MAX ? CAT_DECIMAL_MAX : a));
        out->scale = (uint8_t)(b < 0 ? 0 : (b > out->precision ? out->precision : b));
        break;
    case CAT_T_DATETIME:
        out->scale = (uint8_t)(a < 0 ? 0 : (a > CAT_DATETIME_MAX ? CAT_DATETIME_MAX : a));
        break;
    default:
        break;
    }
    return true;
}

bool
plan__arr_type_quoted(const cat_type *t)
{
    switch (t->id) {
    case CAT_T_CHAR:
    case CAT_T_VARCHAR:
    case CAT_T_STRING:
    case CAT_T_DATE:
    case CAT_T_DATETIME:
        return true;
    default:
        return false;
    }
}
