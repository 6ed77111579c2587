/* SPDX-License-Identifier: Apache-2.0
 * plan_ast.c: the AST builders the grammar actions call, and the parse driver that feeds
 * tokens to the Lemon parser and turns a syntax error into MySQL's ER_PARSE_ERROR text.
 * Every node lives in the statement arena. See README.md §Grammar conventions. */
#include "planner/plan_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/mem.h"
#include "common/strutil.h"
#include "planner/parse.h"

static void span_tokens(plan_ast *x, const plan_token *first, const plan_token *last);
static void *grow(arena *a, void *items, uint32_t n, uint32_t *cap, size_t elem);
static void parse_error(plan_parse *pp, db_error *err);
static bool is_blank(char c);
static bool is_hint_keyword(const plan_token *t);
static bool word_is(const plan_token *t, const char *w);
static void record_hint(plan_parse *pp, const plan_token *t);

/* Parenthesis depths of the open POSITION( ... ) calls, for position_in_mark. */
typedef struct position_ins {
    uint32_t depth;      /* parentheses open */
    uint32_t open[16];   /* depth of each open POSITION's parenthesis, innermost last */
    uint32_t nopen;      /* entries of open[]; deeper nesting keeps IN (a syntax error) */
    bool after_position; /* the previous token was POSITION (the lexer saw '(' next) */
} position_ins;

static void position_in_mark(position_ins *p, plan_token *t);
static int parse_text(arena *a, const char *sql, size_t len, size_t text_len, bool in_multi,
                      bool allow_params, bool no_backslash_escapes, bool ansi_quotes,
                      bool pipes_as_concat, plan_stmt **stmt, db_error *err);
static const char *var_name(plan_parse *pp, const plan_token *t, plan_scope *scope);

static void
span_tokens(plan_ast *x, const plan_token *first, const plan_token *last)
{
    x->off = first->off;
    x->end = last->off + last->n;
}

/* Arena "realloc" for growing arrays: copies into a block twice as large. */
static void *
grow(arena *a, void *items, uint32_t n, uint32_t *cap, size_t elem)
{
    if (n < *cap) {
        return items;
    }
    uint32_t ncap = *cap ? *cap * 2 : 4;
    void *p = arena_alloc(a, ncap * elem);
    if (n) {
        memcpy(p, items, n * elem);
    }
    *cap = ncap;
    return p;
}

plan_ast *
plan_ast_new(plan_parse *pp, plan_ast_kind kind, const plan_token *first, const plan_token *last)
{
    plan_ast *x = arena_calloc(pp->a, 1, sizeof *x);
    x->kind = kind;
    if (first) {
        span_tokens(x, first, last ? last : first);
    }
    return x;
}

plan_ast *
plan_ast_literal(plan_parse *pp, plan_ast_kind kind, const plan_token *t)
{
    plan_ast *x = plan_ast_new(pp, kind, t, t);
    x->name = arena_strndup(pp->a, t->z, t->n);
    if (kind == PA_BOOL) {
        x->op = (t->type == TK_TRUE);
    } else if (kind == PA_HEX || kind == PA_BIT) {
        /* Decode the digits into bytes, right-aligned (MySQL: 0x1 = b'1' = one byte 0x01). */
        const char *d = t->z + 2;
        size_t nd = t->n - 2;
        if (t->z[0] != '0') {
            nd = t->n - 3; /* X'..' / B'..' */
        }
        int bits = kind == PA_HEX ? 4 : 1;
        size_t nbits = nd * (size_t)bits;
        size_t nbytes = (nbits + 7) / 8;
        unsigned char *out = arena_calloc(pp->a, nbytes + 1, 1);
        for (size_t i = 0; i < nd; i++) {
            char c = d[nd - 1 - i];
            unsigned v = (unsigned)(c >= 'a' ? c - 'a' + 10 : (c >= 'A' ? c - 'A' + 10 : c - '0'));
            size_t bit = i * (size_t)bits;
            out[nbytes - 1 - bit / 8] |= (unsigned char)(v << (bit % 8));
        }
        x->str = (const char *)out;
        x->len = nbytes;
    }
    return x;
}

plan_ast *
plan_ast_string(plan_parse *pp, const plan_token *t)
{
    plan_ast *x = plan_ast_new(pp, PA_STRING, t, t);
    x->str = plan__string_decode(pp->a, t, pp->no_backslash_escapes, &x->len);
    return x;
}

plan_ast *
plan_ast_typed_literal(plan_parse *pp, const plan_token *kw, const plan_token *str)
{
    plan_ast *lit = plan_ast_string(pp, str);
    plan_cast_kind kind;
    const char *tname;
    bool ok;
    int64_t us;
    bool has_time = false;
    if (word_is(kw, "TIME")) {
        kind = PLAN_CAST_TIME;
        tname = "TIME";
        ok = plan__parse_time(lit->str, lit->len, &us);
    } else {
        bool date = word_is(kw, "DATE");
        kind = date ? PLAN_CAST_DATE : PLAN_CAST_DATETIME;
        tname = date ? "DATE" : "DATETIME";
        ok = plan__parse_datetime(lit->str, lit->len, &us, &has_time);
    }
    if (!ok && pp->bad_literal_type == NULL) {
        pp->bad_literal_type = tname;
        pp->bad_literal = lit->str;
    }
    plan_cast c = plan_ast_cast_type(pp, kind, NULL, NULL);
    if (kind == PLAN_CAST_DATETIME || kind == PLAN_CAST_TIME) {
        /* the literal's own fractional digits, as MySQL (TIMESTAMP '... 10:00:00.5' is
         * DATETIME(1)) */
        const char *dot = memchr(lit->str, '.', lit->len);
        int64_t fsp = 0;
        for (const char *p = dot ? dot + 1 : NULL;
             p && p < lit->str + lit->len && *p >= '0' && *p <= '9' && fsp < 6; p++) {
            fsp++;
        }
        c.scale = fsp;
    }
    plan_ast *x = plan_ast_cast(pp, kw, lit, c, str);
    return x;
}

plan_ast *
plan_ast_string_append(plan_parse *pp, plan_ast *s, const plan_token *t)
{
    size_t n;
    const char *more = plan__string_decode(pp->a, t, pp->no_backslash_escapes, &n);
    char *buf = arena_alloc(pp->a, s->len + n + 1);
    memcpy(buf, s->str, s->len);
    memcpy(buf + s->len, more, n);
    buf[s->len + n] = '\0';
    s->str = buf;
    s->len += n;
    s->end = t->off + t->n;
    return s;
}

plan_ast *
plan_ast_column(plan_parse *pp, const plan_token *db, const plan_token *qual,
                const plan_token *name)
{
    plan_ast *x = plan_ast_new(pp, PA_COLUMN, db ? db : (qual ? qual : name), name);
    x->name = plan__ident_decode(pp->a, name);
    x->qual = qual ? plan__ident_decode(pp->a, qual) : NULL;
    x->db_qual = db ? plan__ident_decode(pp->a, db) : NULL;
    return x;
}

/* Variable name from a SYSVAR/USERVAR token: strips the @ / @@ and scope, unquotes. */
static const char *
var_name(plan_parse *pp, const plan_token *t, plan_scope *scope)
{
    const char *s = t->z;
    size_t n = t->n;
    *scope = PLAN_SCOPE_DEFAULT;
    if (n >= 2 && s[0] == '@' && s[1] == '@') {
        s += 2;
        n -= 2;
        const char *dot = memchr(s, '.', n);
        if (dot) {
            size_t pn = (size_t)(dot - s);
            *scope = str_ieq(s, pn, "global", 6) ? PLAN_SCOPE_GLOBAL : PLAN_SCOPE_SESSION;
            n -= pn + 1;
            s = dot + 1;
        }
        return arena_strndup(pp->a, s, n);
    }
    if (n >= 1 && s[0] == '@') {
        s++;
        n--;
    }
    if (n >= 2 && (s[0] == '\'' || s[0] == '"' || s[0] == '`')) {
        plan_token q = {TK_STRING, s, (uint32_t)n, 0};
        size_t len;
        if (s[0] == '`') {
            return plan__ident_decode(pp->a, &q);
        }
        return plan__string_decode(pp->a, &q, pp->no_backslash_escapes, &len);
    }
    return arena_strndup(pp->a, s, n);
}

plan_ast *
plan_ast_sysvar(plan_parse *pp, const plan_token *t)
{
    plan_ast *x = plan_ast_new(pp, PA_SYSVAR, t, t);
    plan_scope scope;
    x->name = var_name(pp, t, &scope);
    x->op = (int)scope;
    return x;
}

plan_ast *
plan_ast_uservar(plan_parse *pp, const plan_token *t)
{
    plan_ast *x = plan_ast_new(pp, PA_USERVAR, t, t);
    plan_scope scope;
    x->name = var_name(pp, t, &scope);
    return x;
}

plan_ast *
plan_ast_assign(plan_parse *pp, const plan_token *var, plan_ast *value)
{
    plan_ast *x = plan_ast_uservar(pp, var);
    x->kind = PA_ASSIGN;
    x->args = arena_alloc(pp->a, sizeof(plan_ast *));
    x->args[0] = value;
    x->nargs = 1;
    x->end = value->end;
    return x;
}

plan_ast *
plan_ast_unary(plan_parse *pp, int op, const plan_token *optok, plan_ast *x)
{
    plan_ast *u = plan_ast_new(pp, PA_UNARY, optok, optok);
    u->op = op;
    u->args = arena_alloc(pp->a, sizeof(plan_ast *));
    u->args[0] = x;
    u->nargs = 1;
    u->end = x->end;
    return u;
}

plan_unit
plan__unit_of_token(int type)
{
    switch (type) {
    case TK_MICROSECOND:
        return PLAN_UNIT_MICROSECOND;
    case TK_SECOND:
        return PLAN_UNIT_SECOND;
    case TK_MINUTE:
        return PLAN_UNIT_MINUTE;
    case TK_HOUR:
        return PLAN_UNIT_HOUR;
    case TK_DAY:
        return PLAN_UNIT_DAY;
    case TK_WEEK:
        return PLAN_UNIT_WEEK;
    case TK_MONTH:
        return PLAN_UNIT_MONTH;
    case TK_QUARTER:
        return PLAN_UNIT_QUARTER;
    case TK_YEAR:
        return PLAN_UNIT_YEAR;
    case TK_SECOND_MICROSECOND:
        return PLAN_UNIT_SECOND_MICROSECOND;
    case TK_MINUTE_MICROSECOND:
        return PLAN_UNIT_MINUTE_MICROSECOND;
    case TK_MINUTE_SECOND:
        return PLAN_UNIT_MINUTE_SECOND;
    case TK_HOUR_MICROSECOND:
        return PLAN_UNIT_HOUR_MICROSECOND;
    case TK_HOUR_SECOND:
        return PLAN_UNIT_HOUR_SECOND;
    case TK_HOUR_MINUTE:
        return PLAN_UNIT_HOUR_MINUTE;
    case TK_DAY_MICROSECOND:
        return PLAN_UNIT_DAY_MICROSECOND;
    case TK_DAY_SECOND:
        return PLAN_UNIT_DAY_SECOND;
    case TK_DAY_MINUTE:
        return PLAN_UNIT_DAY_MINUTE;
    case TK_DAY_HOUR:
        return PLAN_UNIT_DAY_HOUR;
    case TK_YEAR_MONTH:
        return PLAN_UNIT_YEAR_MONTH;
    default:
        return PLAN_UNIT_NONE;
    }
}

plan_ast *
plan_ast_binary(plan_parse *pp, int op, plan_ast *l, plan_ast *r)
{
    plan_ast *x = plan_ast_new(pp, PA_BINARY, NULL, NULL);
    if (op == XOP_CONCAT) {
        op = pp->pipes_as_concat ? XOP_CONCAT : XOP_OR;
    }
    x->op = op;
    x->args = arena_alloc(pp->a, 2 * sizeof(plan_ast *));
    x->args[0] = l;
    x->args[1] = r;
    x->nargs = 2;
    x->off = l->off;
    x->end = r->end;
    return x;
}

plan_ast *
plan_ast_is(plan_parse *pp, plan_ast *x, bool negated, int what, const plan_token *last)
{
    plan_ast *n = plan_ast_new(pp, PA_IS, NULL, NULL);
    n->op = what;
    n->negated = negated;
    n->args = arena_alloc(pp->a, sizeof(plan_ast *));
    n->args[0] = x;
    n->nargs = 1;
    n->off = x->off;
    n->end = last->off + last->n;
    return n;
}

plan_ast *
plan_ast_between(plan_parse *pp, plan_ast *x, bool negated, plan_ast *lo, plan_ast *hi)
{
    plan_ast *n = plan_ast_new(pp, PA_BETWEEN, NULL, NULL);
    n->negated = negated;
    n->args = arena_alloc(pp->a, 3 * sizeof(plan_ast *));
    n->args[0] = x;
    n->args[1] = lo;
    n->args[2] = hi;
    n->nargs = 3;
    n->off = x->off;
    n->end = hi->end;
    return n;
}

plan_ast *
plan_ast_in(plan_parse *pp, plan_ast *x, bool negated, plan_ast_list *list, const plan_token *rp)
{
    plan_ast *n = plan_ast_new(pp, PA_IN, NULL, NULL);
    n->negated = negated;
    n->nargs = list->n + 1;
    n->args = arena_alloc(pp->a, n->nargs * sizeof(plan_ast *));
    n->args[0] = x;
    memcpy(n->args + 1, list->items, list->n * sizeof(plan_ast *));
    n->off = x->off;
    n->end = rp->off + rp->n;
    return n;
}

plan_ast *
plan_ast_like(plan_parse *pp, plan_ast *x, bool negated, plan_ast *pat, plan_ast *esc)
{
    plan_ast *n = plan_ast_new(pp, PA_LIKE, NULL, NULL);
    n->negated = negated;
    n->nargs = esc ? 3 : 2;
    n->args = arena_alloc(pp->a, 3 * sizeof(plan_ast *));
    n->args[0] = x;
    n->args[1] = pat;
    n->args[2] = esc;
    n->off = x->off;
    n->end = esc ? esc->end : pat->end;
    return n;
}

plan_ast *
plan_ast_case(plan_parse *pp, const plan_token *casetok, plan_ast *operand, plan_ast_list *whens,
              plan_ast *els, const plan_token *endtok)
{
    plan_ast *n = plan_ast_new(pp, PA_CASE, casetok, endtok);
    n->has_operand = operand != NULL;
    n->has_else = els != NULL;
    n->nargs = whens->n + (operand ? 1 : 0) + (els ? 1 : 0);
    n->args = arena_alloc(pp->a, n->nargs * sizeof(plan_ast *));
    uint32_t i = 0;
    if (operand) {
        n->args[i++] = operand;
    }
    memcpy(n->args + i, whens->items, whens->n * sizeof(plan_ast *));
    i += whens->n;
    if (els) {
        n->args[i] = els;
    }
    return n;
}

plan_ast *
plan_ast_func(plan_parse *pp, const plan_token *name, const char *canon, plan_ast_list *args,
              const plan_token *last, bool has_parens)
{
    plan_ast *n = plan_ast_new(pp, PA_FUNC, name, last);
    n->name = canon ? canon : arena_strndup(pp->a, name->z, name->n);
    n->has_parens = has_parens;
    if (args) {
        n->args = args->items;
        n->nargs = args->n;
    }
    return n;
}

plan_ast *
plan_ast_cast(plan_parse *pp, const plan_token *first, plan_ast *x, plan_cast cast,
              const plan_token *last)
{
    plan_ast *n = plan_ast_new(pp, PA_CAST, first, last);
    n->cast = cast;
    n->args = arena_alloc(pp->a, sizeof(plan_ast *));
    n->args[0] = x;
    n->nargs = 1;
    return n;
}

plan_ast *
plan_ast_convert_using(plan_parse *pp, const plan_token *first, plan_ast *x, const plan_token *cs,
                       const plan_token *last)
{
    plan_ast *n = plan_ast_new(pp, PA_CONVERT_USING, first, last);
    size_t len;
    n->qual = cs->type == TK_STRING ? plan__string_decode(pp->a, cs, pp->no_backslash_escapes, &len)
                                    : plan__ident_decode(pp->a, cs);
    n->args = arena_alloc(pp->a, sizeof(plan_ast *));
    n->args[0] = x;
    n->nargs = 1;
    return n;
}

plan_ast *
plan_ast_collate(plan_parse *pp, plan_ast *x, const plan_token *name)
{
    plan_ast *n = plan_ast_new(pp, PA_COLLATE, NULL, NULL);
    size_t len;
    n->qual = name->type == TK_STRING
                      ? plan__string_decode(pp->a, name, pp->no_backslash_escapes, &len)
                      : plan__ident_decode(pp->a, name);
    n->args = arena_alloc(pp->a, sizeof(plan_ast *));
    n->args[0] = x;
    n->nargs = 1;
    n->off = x->off;
    n->end = name->off + name->n;
    return n;
}

plan_ast *
plan_ast_paren(plan_parse *pp, const plan_token *lp, plan_ast *x, const plan_token *rp)
{
    (void)pp;
    /* The node keeps its meaning; only the label span grows to include the parentheses.
     * has_parens stops a parenthesised string literal from being labelled by its value. */
    x->off = lp->off;
    x->end = rp->off + rp->n;
    x->has_parens = true;
    return x;
}

plan_ast *
plan_ast_star(plan_parse *pp, const plan_token *t)
{
    return plan_ast_new(pp, PA_STAR, t, t);
}

plan_ast_list *
plan_ast_list_add(plan_parse *pp, plan_ast_list *l, plan_ast *x)
{
    if (!l) {
        l = arena_calloc(pp->a, 1, sizeof *l);
    }
    l->items = grow(pp->a, l->items, l->n, &l->cap, sizeof(plan_ast *));
    l->items[l->n++] = x;
    return l;
}

uint64_t
plan_ast_uint(plan_parse *pp, const plan_token *t)
{
    (void)pp;
    uint64_t v = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        unsigned d = (unsigned)(t->z[i] - '0');
        if (v > (UINT64_MAX - d) / 10) {
            return UINT64_MAX;
        }
        v = v * 10 + d;
    }
    return v;
}

plan_cast
plan_ast_cast_type(plan_parse *pp, plan_cast_kind kind, const plan_token *len,
                   const plan_token *scale)
{
    plan_cast c = {kind, -1, -1, PLAN_TYPE_NULL, false};
    /* DECIMAL and DOUBLE are Doris type names too: Doris conversion rules. SIGNED / UNSIGNED
     * keep MySQL's (README §Decisions). */
    c.doris = kind == PLAN_CAST_DECIMAL || kind == PLAN_CAST_DOUBLE;
    if (len) {
        uint64_t v = plan_ast_uint(pp, len);
        c.len = v > INT32_MAX ? INT32_MAX : (int64_t)v;
    }
    if (scale) {
        uint64_t v = plan_ast_uint(pp, scale);
        c.scale = v > INT32_MAX ? INT32_MAX : (int64_t)v;
    }
    return c;
}

plan_cast
plan_ast_cast_named(plan_parse *pp, const plan_token *name, const plan_token *len,
                    const plan_token *scale)
{
    plan_cast c = {PLAN_CAST_SIGNED, -1, -1, PLAN_TYPE_NULL, false};
    int nargs = scale ? 2 : (len ? 1 : 0);
    /* A quoted identifier is never a type name. */
    bool is_word = name->n > 0 && ((name->z[0] >= 'a' && name->z[0] <= 'z') ||
                                   (name->z[0] >= 'A' && name->z[0] <= 'Z'));
    if (!is_word || !plan__cast_named(name->z, name->n, nargs, &c)) {
        if (!pp->failed) {
            pp->failed = true;
            pp->bad = *name;
        }
        return c;
    }
    if (len) {
        uint64_t v = plan_ast_uint(pp, len);
        int64_t n = v > INT32_MAX ? INT32_MAX : (int64_t)v;
        if (c.kind == PLAN_CAST_DATETIME) {
            c.scale = n; /* DATETIMEV2(p): fractional digits */
        } else {
            c.len = n;
        }
    }
    if (scale) {
        uint64_t v = plan_ast_uint(pp, scale);
        c.scale = v > INT32_MAX ? INT32_MAX : (int64_t)v;
    }
    return c;
}

const char *
plan_ast_ident(plan_parse *pp, const plan_token *t)
{
    if (t->type == TK_STRING) {
        size_t len;
        return plan__string_decode(pp->a, t, pp->no_backslash_escapes, &len);
    }
    return plan__ident_decode(pp->a, t);
}

/* ---- statements ---- */

plan_stmt *
plan_stmt_begin(plan_parse *pp, plan_stmt_kind kind)
{
    if (pp->stmt->kind != PS_UNSUPPORTED || !pp->stmt->what) {
        pp->stmt->kind = kind;
    }
    return pp->stmt;
}

void
plan_stmt_select_item(plan_parse *pp, plan_ast *x, const plan_token *alias, bool is_string)
{
    plan_stmt *st = pp->stmt;
    st->items = grow(pp->a, st->items, st->nitems, &st->cap_items, sizeof(plan_select_item));
    plan_select_item *it = &st->items[st->nitems++];
    memset(it, 0, sizeof *it);
    it->expr = x;
    if (alias) {
        size_t len;
        it->alias = is_string ? plan__string_decode(pp->a, alias, pp->no_backslash_escapes, &len)
                              : plan__ident_decode(pp->a, alias);
    }
}

void
plan_stmt_select_star(plan_parse *pp, const plan_token *db, const plan_token *qual)
{
    plan_stmt *st = pp->stmt;
    st->items = grow(pp->a, st->items, st->nitems, &st->cap_items, sizeof(plan_select_item));
    plan_select_item *it = &st->items[st->nitems++];
    memset(it, 0, sizeof *it);
    it->is_star = true;
    it->star_qual = qual ? plan__ident_decode(pp->a, qual) : NULL;
    it->star_db = db ? plan__ident_decode(pp->a, db) : NULL;
}

/* The catalog part of a [catalog.]db.tbl name: only `internal` exists (R11: one node). */
void
plan_ast_catalog(plan_parse *pp, const plan_token *ctl)
{
    const char *name = plan__ident_decode(pp->a, ctl);
    if (strcasecmp(name, "internal") != 0 && pp->bad_catalog == NULL) {
        pp->bad_catalog = name;
    }
}

void
plan_stmt_table(plan_parse *pp, const plan_token *db, const plan_token *name,
                const plan_token *alias)
{
    plan_stmt *st = pp->stmt;
    st->tables = grow(pp->a, st->tables, st->ntables, &st->cap_tables, sizeof(plan_table_ref));
    plan_table_ref *t = &st->tables[st->ntables++];
    memset(t, 0, sizeof *t);
    t->db = db ? plan__ident_decode(pp->a, db) : NULL;
    t->name = plan__ident_decode(pp->a, name);
    t->alias = alias ? plan__ident_decode(pp->a, alias) : NULL;
    t->as_of = NULL;
}

/* A subquery in an expression: the query's statement becomes the node's. The span runs from
 * left (IN / ANY / ALL) or first (EXISTS), else from the query's '(', to its ')'. */
plan_ast *
plan_ast_subquery(plan_parse *pp, int kind, plan_ast *left, bool negated, int cmp, plan_qexpr q,
                  const plan_token *first)
{
    plan_ast *x = plan_ast_new(pp, PA_SUBQUERY, NULL, NULL);
    x->off = first ? first->off : q.off;
    x->end = q.end;
    x->op = kind;
    x->negated = negated;
    x->cmp = cmp;
    x->sub = q.st;
    if (left) {
        x->args = arena_alloc(pp->a, sizeof(plan_ast *));
        x->args[0] = left;
        x->nargs = 1;
        x->off = left->off;
    }
    return x;
}

void
plan_stmt_order(plan_parse *pp, plan_ast *x, bool desc, int nulls)
{
    plan_stmt *st = pp->stmt;
    uint32_t n = st->order ? st->order->n : 0;
    st->order_desc = grow(pp->a, st->order_desc, n, &st->cap_order_desc, sizeof(bool));
    st->order_desc[n] = desc;
    st->order_nulls = grow(pp->a, st->order_nulls, n, &st->cap_order_nulls, sizeof(uint8_t));
    st->order_nulls[n] = (uint8_t)nulls;
    st->order = plan_ast_list_add(pp, st->order, x);
}

static bool
word_is(const plan_token *t, const char *w)
{
    return t->n == strlen(w) && strncasecmp(t->z, w, t->n) == 0;
}

static void
syntax_error_at(plan_parse *pp, const plan_token *t)
{
    if (!pp->failed) {
        pp->failed = true;
        pp->bad = *t;
    }
}

int
plan_ast_nulls(plan_parse *pp, const plan_token *nulls, const plan_token *which)
{
    if (!word_is(nulls, "NULLS")) {
        syntax_error_at(pp, nulls);
        return 0;
    }
    if (word_is(which, "FIRST")) {
        return 1;
    }
    if (word_is(which, "LAST")) {
        return 2;
    }
    syntax_error_at(pp, which);
    return 0;
}

plan_ast *
plan_ast_agg(plan_parse *pp, const plan_token *name, bool distinct, plan_ast_list *args,
             plan_ast_list *order, const plan_token *sepword, const plan_token *sepstr,
             const plan_token *last)
{
    plan_ast *n = plan_ast_func(pp, name, NULL, args, last, true);
    n->agg_distinct = distinct;
    n->agg_order = order;
    if (sepword && !word_is(sepword, "SEPARATOR")) {
        syntax_error_at(pp, sepword);
        return n;
    }
    if (sepstr) {
        n->has_sep = true;
        n->sep = plan__string_decode(pp->a, sepstr, pp->no_backslash_escapes, &n->sep_len);
    }
    return n;
}

plan_ast *
plan_ast_agg_all(plan_parse *pp, const plan_token *all, plan_ast *fn)
{
    bool star = fn->nargs == 1 && fn->args[0]->kind == PA_STAR;
    if (star ? strcasecmp(fn->name, "count") != 0 : !plan__is_agg_name(fn->name)) {
        syntax_error_at(pp, all);
    }
    return fn;
}

plan_ast_list *
plan_ast_order_add(plan_parse *pp, plan_ast_list *l, plan_ast *x, bool desc)
{
    l = plan_ast_list_add(pp, l, x);
    if (desc && l->n <= 64) {
        l->desc_mask |= (uint64_t)1 << (l->n - 1);
    }
    return l;
}

/* ---- Window functions ---- */

plan_ast *
plan_ast_window(plan_parse *pp, plan_ast *fn, plan_window_spec *w, const plan_token *rp)
{
    uint32_t n = fn->nargs + w->npart + w->norder;
    plan_ast **args = arena_calloc(pp->a, n + 1, sizeof *args);
    uint32_t k = 0;
    for (uint32_t i = 0; i < fn->nargs; i++) {
        args[k++] = fn->args[i];
    }
    for (uint32_t i = 0; i < w->npart; i++) {
        args[k++] = w->part->items[i];
    }
    for (uint32_t i = 0; i < w->norder; i++) {
        args[k++] = w->order->items[i];
    }
    w->nfargs = fn->nargs;
    fn->kind = PA_WINDOW;
    fn->args = args;
    fn->nargs = n;
    fn->win = w;
    fn->end = rp->off + rp->n;
    return fn;
}

/* A window that takes part in refinement, of query block st (parse arena): a WINDOW
 * definition (name set) or an OVER (base ...) clause (name NULL). seq: the order written, which
 * is the order MySQL checks them in (Window::setup_windows1). */
struct plan_wdef {
    const char *name;
    plan_window_spec *w;
    const plan_stmt *st;
    uint32_t seq;
    struct plan_wdef *base; /* resolved: the window w refines, or NULL */
    uint32_t ndeps;         /* windows refining this one */
    struct plan_wdef *next; /* newest first */
};
/* An OVER clause waiting for the end of its query block st: OVER name (name set) or OVER
 * (base ...) (def set). */
struct plan_wref {
    plan_ast *fn; /* the function call, its arguments only; NULL once resolved */
    const char *name;
    struct plan_wdef *def;
    const plan_stmt *st;
    plan_token end;         /* the token ending the clause: the node's text ends there */
    struct plan_wref *next; /* newest first */
};

static void
window_fail2(plan_parse *pp, int code, const char *name, const char *name2)
{
    if (pp->window_err == 0) {
        pp->window_err = code;
        pp->window_err_name = name;
        pp->window_err_name2 = name2;
    }
}

static void
window_fail(plan_parse *pp, int code, const char *name)
{
    window_fail2(pp, code, name, NULL);
}

static struct plan_wdef *
wdef_add(plan_parse *pp, const char *name, plan_window_spec *w)
{
    struct plan_wdef *d = arena_calloc(pp->a, 1, sizeof *d);
    d->name = name;
    d->w = w;
    d->st = pp->stmt;
    d->seq = pp->nwdefs++;
    d->next = pp->wdefs;
    pp->wdefs = d;
    return d;
}

plan_ast *
plan_ast_over(plan_parse *pp, plan_ast *fn, const plan_wover *o)
{
    /* MySQL refuses these when it builds the call, before any window is looked at. */
    if (strcasecmp(fn->name, "group_concat") == 0) {
        window_fail(pp, ER_NOT_SUPPORTED_YET, "group_concat as window function");
    } else if (fn->agg_distinct) {
        window_fail(pp, ER_NOT_SUPPORTED_YET, "<window function>(DISTINCT ..)");
    }
    if (o->w != NULL && o->w->base == NULL) {
        return plan_ast_window(pp, fn, o->w, &o->end);
    }
    struct plan_wref *r = arena_calloc(pp->a, 1, sizeof *r);
    r->fn = fn;
    if (o->w != NULL) {
        r->def = wdef_add(pp, NULL, o->w);
    } else {
        r->name = plan_ast_ident(pp, &o->name);
    }
    r->st = pp->stmt;
    r->end = o->end;
    r->next = pp->wrefs;
    pp->wrefs = r;
    /* A window node already (PA_WINDOW, no partition / order yet) so that the analyser's
     * context checks see it even if resolution fails. */
    plan_window_spec *w = plan_ast_window_spec(pp, NULL, NULL, NULL, (plan_window_frame){0});
    return plan_ast_window(pp, fn, w, &o->end);
}

void
plan_stmt_window_def(plan_parse *pp, const plan_token *name, plan_window_spec *w)
{
    w->name = plan_ast_ident(pp, name);
    (void)wdef_add(pp, w->name, w);
}

/* The first window named name in the block being parsed (written order), or NULL. */
static struct plan_wdef *
wdef_find(plan_parse *pp, const char *name)
{
    struct plan_wdef *found = NULL;
    for (struct plan_wdef *d = pp->wdefs; d; d = d->next) {
        if (d->st == pp->stmt && d->name && strcasecmp(d->name, name) == 0) {
            found = d; /* newest first: the last match was written first */
        }
    }
    return found;
}

static const char *
wdef_name(const struct plan_wdef *d)
{
    return d->name ? d->name : "<unnamed window>";
}

/* MySQL's Window::setup_windows1 over the block's windows ws[0..n) (written order): a
 * refined window must exist (3579) and the refinements form no cycle (3580); then window by
 * window, one that refines another has no PARTITION BY (3581), at most one window along a
 * chain has an ORDER BY (3583, checked from each window nobody refines) and a refined window
 * has no frame (3582); then no name is defined twice (3591, the first of the two). */
static void
windows_check(plan_parse *pp, struct plan_wdef **ws, uint32_t n)
{
    for (uint32_t i = 0; i < n && pp->window_err == 0; i++) {
        if (ws[i]->w->base == NULL) {
            continue;
        }
        ws[i]->base = wdef_find(pp, ws[i]->w->base);
        if (ws[i]->base == NULL) {
            window_fail(pp, ER_WINDOW_NO_SUCH_WINDOW, ws[i]->w->base);
        } else {
            ws[i]->base->ndeps++;
        }
    }
    for (uint32_t i = 0; i < n && pp->window_err == 0; i++) {
        const struct plan_wdef *p = ws[i];
        for (uint32_t steps = 0; p && steps <= n; steps++) {
            p = p->base;
        }
        if (p != NULL) { /* more links than windows: a cycle */
            window_fail(pp, ER_WINDOW_CIRCULARITY_IN_WINDOW_GRAPH, NULL);
        }
    }
    for (uint32_t i = 0; i < n && pp->window_err == 0; i++) {
        const struct plan_wdef *d = ws[i];
        if (d->base != NULL && d->w->npart != 0) {
            window_fail(pp, ER_WINDOW_NO_CHILD_PARTITIONING, NULL);
        } else if (d->ndeps == 0) {
            const struct plan_wdef *seen = NULL;
            for (const struct plan_wdef *p = d; p && pp->window_err == 0; p = p->base) {
                if (p->w->norder == 0) {
                    continue;
                }
                if (seen != NULL) {
                    window_fail2(pp, ER_WINDOW_NO_REDEFINE_ORDER_BY, wdef_name(seen), wdef_name(p));
                }
                seen = p;
            }
        } else if (d->w->frame.unit != 0) {
            window_fail(pp, ER_WINDOW_NO_INHERIT_FRAME, wdef_name(d));
        }
    }
    for (uint32_t i = 0; i < n && pp->window_err == 0; i++) {
        for (uint32_t j = 0; j < n && ws[i]->name; j++) {
            if (j != i && ws[j]->name && strcasecmp(ws[i]->name, ws[j]->name) == 0) {
                window_fail(pp, ER_WINDOW_DUPLICATE_NAME, ws[i]->name);
                break;
            }
        }
    }
}

/* The spec an OVER clause over window d gets (a copy: plan_ast_window records the call's
 * layout in it): the PARTITION BY of the chain's root, the one ORDER BY along the chain, d's
 * own frame and name. */
static plan_window_spec *
wdef_effective(plan_parse *pp, const struct plan_wdef *d)
{
    plan_window_spec *w = arena_alloc(pp->a, sizeof *w);
    *w = *d->w;
    w->base = NULL;
    for (const struct plan_wdef *p = d->base; p; p = p->base) {
        if (p->w->norder != 0 && w->norder == 0) {
            w->order = p->w->order;
            w->norder = p->w->norder;
            w->desc_mask = p->w->desc_mask;
        }
        if (p->base == NULL) {
            w->part = p->w->part;
            w->npart = p->w->npart;
        }
    }
    return w;
}

/* The query block pp->stmt ends: check its windows, then each of its OVER clauses takes its
 * window's effective spec. */
void
plan_stmt_windows_resolve(plan_parse *pp)
{
    uint32_t nw = 0, nr = 0;
    for (struct plan_wdef *d = pp->wdefs; d; d = d->next) {
        nw += d->st == pp->stmt;
    }
    for (struct plan_wref *r = pp->wrefs; r; r = r->next) {
        nr += r->st == pp->stmt && r->fn != NULL;
    }
    if (nr == 0 && nw == 0) {
        return;
    }
    struct plan_wdef **ws = arena_alloc(pp->a, (nw + 1) * sizeof *ws);
    struct plan_wref **rs = arena_alloc(pp->a, (nr + 1) * sizeof *rs);
    uint32_t k = nw;
    for (struct plan_wdef *d = pp->wdefs; d; d = d->next) {
        if (d->st == pp->stmt) {
            ws[--k] = d;
        }
    }
    k = nr;
    for (struct plan_wref *r = pp->wrefs; r; r = r->next) {
        if (r->st == pp->stmt && r->fn != NULL) {
            rs[--k] = r;
        }
    }
    /* OVER name binds when MySQL resolves the call, before it checks the windows. */
    for (uint32_t i = 0; i < nr; i++) {
        if (rs[i]->name != NULL && wdef_find(pp, rs[i]->name) == NULL) {
            window_fail(pp, ER_WINDOW_NO_SUCH_WINDOW, rs[i]->name);
        }
    }
    windows_check(pp, ws, nw);
    for (uint32_t i = 0; i < nr; i++) {
        struct plan_wref *r = rs[i];
        if (pp->window_err == 0) {
            const struct plan_wdef *d = r->def ? r->def : wdef_find(pp, r->name);
            plan_window_spec *w = wdef_effective(pp, d);
            /* back to the bare call, then the window as if written inline */
            r->fn->nargs = r->fn->win ? r->fn->win->nfargs : r->fn->nargs;
            r->fn->kind = PA_FUNC;
            (void)plan_ast_window(pp, r->fn, w, &r->end);
        }
        r->fn = NULL;
    }
}

plan_window_spec *
plan_ast_window_spec(plan_parse *pp, const plan_token *base, plan_ast_list *part,
                     plan_ast_list *order, plan_window_frame frame)
{
    plan_window_spec *w = arena_calloc(pp->a, 1, sizeof *w);
    w->base = base ? plan_ast_ident(pp, base) : NULL;
    w->part = part;
    w->order = order;
    w->npart = part ? part->n : 0;
    w->norder = order ? order->n : 0;
    w->desc_mask = order ? order->desc_mask : 0;
    w->frame = frame;
    return w;
}

plan_window_frame
plan_ast_frame(plan_parse *pp, plan_frame_bound start, plan_frame_bound end)
{
    plan_window_frame f;
    (void)pp;
    memset(&f, 0, sizeof f);
    f.start = start;
    f.end = end;
    return f;
}

plan_window_frame
plan_ast_frame_start(plan_parse *pp, plan_frame_bound start)
{
    plan_frame_bound e = {PLAN_FB_CURRENT, 0, NULL, 0};
    if (start.kind == PLAN_FB_FOLLOWING || start.kind == PLAN_FB_UNBOUNDED_FOLLOWING) {
        plan_token t = {0};
        t.type = TK_ID;
        t.off = start.dir_off;
        t.z = pp->sql + start.dir_off;
        t.n = 9; /* FOLLOWING */
        syntax_error_at(pp, &t);
    }
    return plan_ast_frame(pp, start, e);
}

plan_window_frame
plan_ast_frame_unit(plan_parse *pp, const plan_token *unit, plan_window_frame f)
{
    if (word_is(unit, "ROWS")) {
        f.unit = 1;
    } else if (word_is(unit, "RANGE")) {
        f.unit = 2;
    } else {
        syntax_error_at(pp, unit);
    }
    return f;
}

plan_frame_bound
plan_ast_fbound(plan_parse *pp, const plan_token *a, const plan_token *b)
{
    plan_frame_bound fb = {PLAN_FB_CURRENT, 0, NULL, b->off};
    if (word_is(a, "UNBOUNDED")) {
        if (word_is(b, "PRECEDING")) {
            fb.kind = PLAN_FB_UNBOUNDED_PRECEDING;
        } else if (word_is(b, "FOLLOWING")) {
            fb.kind = PLAN_FB_UNBOUNDED_FOLLOWING;
        } else {
            syntax_error_at(pp, b);
        }
    } else if (!word_is(a, "CURRENT")) {
        syntax_error_at(pp, a);
    } else if (!word_is(b, "ROW")) {
        syntax_error_at(pp, b);
    }
    return fb;
}

plan_frame_bound
plan_ast_fbound_value(plan_parse *pp, plan_ast *val, const plan_token *dir)
{
    plan_frame_bound fb = {PLAN_FB_PRECEDING, 0, val, dir->off};
    if (word_is(dir, "FOLLOWING")) {
        fb.kind = PLAN_FB_FOLLOWING;
    } else if (!word_is(dir, "PRECEDING")) {
        syntax_error_at(pp, dir);
    }
    if (val->kind == PA_INT) { /* decimal digits: the ROWS offset */
        plan_token t = {0};
        t.z = val->name;
        t.n = (uint32_t)strlen(val->name);
        fb.n = plan_ast_uint(pp, &t);
    }
    return fb;
}

plan_token
plan_ast_gcsep(plan_parse *pp, const plan_token *word, const plan_token *str)
{
    if (!word_is(word, "SEPARATOR")) {
        syntax_error_at(pp, word);
    }
    return *str;
}

static uint64_t
limit_part(plan_parse *pp, const plan_ast *x, uint32_t *pix)
{
    *pix = 0;
    if (x == NULL) {
        return 0;
    }
    if (x->kind == PA_PARAM) {
        *pix = (uint32_t)x->op + 1;
        return 0;
    }
    plan_token t = {.z = x->name, .n = strlen(x->name), .type = TK_INTNUM};
    return plan_ast_uint(pp, &t);
}

void
plan_stmt_limit(plan_parse *pp, const plan_ast *count, const plan_ast *offset)
{
    plan_stmt *st = pp->stmt;
    st->has_limit = true;
    st->limit_count = limit_part(pp, count, &st->limit_count_pix);
    st->limit_offset = limit_part(pp, offset, &st->limit_offset_pix);
}

static plan_set_item *set_item_new(plan_parse *pp, plan_set_kind kind);

static plan_set_item *
set_item_new(plan_parse *pp, plan_set_kind kind)
{
    plan_stmt *st = pp->stmt;
    st->sets = grow(pp->a, st->sets, st->nsets, &st->cap_sets, sizeof(plan_set_item));
    plan_set_item *it = &st->sets[st->nsets++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    return it;
}

void
plan_stmt_set_var(plan_parse *pp, plan_scope scope, bool has_scope, const plan_token *name,
                  plan_ast *value)
{
    plan_set_item *it = set_item_new(pp, PLAN_SET_SYSVAR);
    if (name->type == TK_SYSVAR) {
        plan_scope s;
        it->name = var_name(pp, name, &s);
        /* @@x is SESSION; @@global.x GLOBAL; neither changes the carried scope. */
        it->scope = s == PLAN_SCOPE_DEFAULT ? PLAN_SCOPE_SESSION : s;
    } else {
        it->name = plan__ident_decode(pp->a, name);
        if (has_scope) {
            pp->set_scope = scope;
        }
        it->scope = pp->set_scope == PLAN_SCOPE_DEFAULT ? PLAN_SCOPE_SESSION : pp->set_scope;
    }
    it->value = value;
    /* A bare word on the right (SET autocommit = ON, SET x = OFF) is its own text. */
    if (value && value->kind == PA_COLUMN && !value->qual) {
        it->value_is_word = true;
        it->word = value->name;
    }
}

void
plan_stmt_set_word(plan_parse *pp, plan_scope scope, bool has_scope, const plan_token *name,
                   const plan_token *word)
{
    plan_stmt_set_var(pp, scope, has_scope, name, NULL);
    plan_set_item *it = &pp->stmt->sets[pp->stmt->nsets - 1];
    if (word->type == TK_DEFAULT) {
        return; /* value NULL = DEFAULT */
    }
    it->value_is_word = true;
    it->word = arena_strndup(pp->a, word->z, word->n);
    str_lower((char *)it->word, word->n);
}

void
plan_stmt_set_uservar(plan_parse *pp, const plan_token *var, plan_ast *value)
{
    plan_set_item *it = set_item_new(pp, PLAN_SET_USERVAR);
    plan_scope s;
    it->name = var_name(pp, var, &s);
    it->value = value;
}

void
plan_stmt_set_names(plan_parse *pp, plan_set_kind kind, const plan_token *cs,
                    const plan_token *coll)
{
    plan_set_item *it = set_item_new(pp, kind);
    it->name = cs ? plan_ast_ident(pp, cs) : NULL;
    it->collation = coll ? plan_ast_ident(pp, coll) : NULL;
}

void
plan_stmt_like(plan_parse *pp, const plan_token *pattern)
{
    pp->stmt->like =
            plan__string_decode(pp->a, pattern, pp->no_backslash_escapes, &pp->stmt->like_len);
}

void
plan_stmt_name(plan_parse *pp, const plan_token *name)
{
    pp->stmt->name = plan__ident_decode(pp->a, name);
}

void
plan_stmt_unsupported(plan_parse *pp, const char *what)
{
    pp->stmt->kind = PS_UNSUPPORTED;
    if (!pp->stmt->what) {
        pp->stmt->what = what; /* the first construct met is the one named */
    }
}

/* One more placeholder, numbered in source order: Lemon reduces `expr ::= QUESTION` before it
 * shifts any later token. */
plan_ast *
plan_ast_param(plan_parse *pp, const plan_token *t)
{
    plan_ast *x = plan_ast_new(pp, PA_PARAM, t, t);
    x->name = "?";
    x->op = (int)pp->nparams;
    if (pp->nparams >= UINT16_MAX) {
        pp->too_many_params = true;
    } else {
        pp->nparams++;
    }
    return x;
}

/* EXECUTE ... USING @var: one more variable name. */
void
plan_stmt_using(plan_parse *pp, const plan_token *var)
{
    plan_stmt *st = pp->stmt;
    if (st->nusing == st->cap_using) {
        uint32_t ncap = st->cap_using ? st->cap_using * 2 : 8;
        const char **n = arena_calloc(pp->a, ncap, sizeof *n);
        if (st->nusing) {
            memcpy(n, st->using_vars, st->nusing * sizeof *n);
        }
        st->using_vars = n;
        st->cap_using = ncap;
    }
    plan_scope scope;
    st->using_vars[st->nusing++] = var_name(pp, var, &scope);
}

/* ---- the driver ---- */

/* MySQL's text: near '<rest of the text from the bad token, 80 bytes>' at line N. In a
 * multi-statement text the rest runs to the end of the whole text, without its trailing blanks
 * and ';' (MySQL strips them from a query before parsing), and lines count from the
 * statement's first non-blank byte (MySQL restarts its lexer there). */
static void
parse_error(plan_parse *pp, db_error *err)
{
    size_t end = pp->text_len, start = 0;
    if (pp->in_multi) {
        while (end > 0 && (pp->sql[end - 1] == ';' || is_blank(pp->sql[end - 1]))) {
            end--;
        }
        while (start < pp->len && is_blank(pp->sql[start])) {
            start++;
        }
    }
    size_t off = pp->bad.off <= pp->len ? pp->bad.off : pp->len;
    off = off <= end ? off : end;
    int line = 1;
    for (size_t i = start; i < off; i++) {
        if (pp->sql[i] == '\n') {
            line++;
        }
    }
    size_t n = end - off;
    if (n > 80) {
        n = 80;
        /* Do not cut a UTF-8 sequence in half. */
        while (n > 0 && ((unsigned char)pp->sql[off + n] & 0xC0) == 0x80) {
            n--;
        }
    }
    char near[96];
    memcpy(near, pp->sql + off, n);
    near[n] = '\0';
    if (pp->overflow) {
        db_error_set(err, ER_PARSE_MEMORY_EXHAUSTED, near, line);
    } else {
        db_error_set(err, ER_PARSE_ERROR, near, line);
    }
}

static bool
is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

int
plan__parse(arena *a, const char *sql, size_t len, bool no_backslash_escapes, bool ansi_quotes,
            bool pipes_as_concat, plan_stmt **stmt, db_error *err)
{
    return parse_text(a, sql, len, len, false, false, no_backslash_escapes, ansi_quotes,
                      pipes_as_concat, stmt, err);
}

int
plan__parse_prepared(arena *a, const char *sql, size_t len, bool no_backslash_escapes,
                     bool ansi_quotes, bool pipes_as_concat, plan_stmt **stmt, db_error *err)
{
    return parse_text(a, sql, len, len, false, true, no_backslash_escapes, ansi_quotes,
                      pipes_as_concat, stmt, err);
}

int
plan__parse_in(arena *a, const char *sql, size_t len, size_t text_len, bool no_backslash_escapes,
               bool ansi_quotes, bool pipes_as_concat, plan_stmt **stmt, db_error *err)
{
    DB_ASSERT(len <= text_len);
    return parse_text(a, sql, len, text_len, true, false, no_backslash_escapes, ansi_quotes,
                      pipes_as_concat, stmt, err);
}

/* SELECT, INSERT, UPDATE or DELETE: the statement keywords an optimizer hint may follow. */
static bool
is_hint_keyword(const plan_token *t)
{
    static const char *const words[] = {"INSERT", "UPDATE", "DELETE"};
    if (t->type == TK_SELECT) {
        return true;
    }
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (str_ieqz(t->z, t->n, words[i])) {
            return true;
        }
    }
    return false;
}

/* Keep the text of a hint comment (without its opening and closing markers) in the statement. */
static void
record_hint(plan_parse *pp, const plan_token *t)
{
    DB_ASSERT(t->n >= 5); /* the opening slash-star-plus and the closing star-slash */
    pp->stmt->hint = t->z + 3;
    pp->stmt->hint_len = t->n - 5;
    pp->stmt->hint_off = t->off + 3;
}

/* Turn the IN of POSITION(sub IN s) into POSITION_IN: the IN at the depth of an open
 * POSITION's parenthesis (an `x IN (...)` nested deeper stays IN). Called on every token fed
 * to the parser, in order. */
static void
position_in_mark(position_ins *p, plan_token *t)
{
    bool after = p->after_position;
    p->after_position = t->type == TK_POSITION;
    if (t->type == TK_LP) {
        p->depth++;
        if (after && p->nopen < sizeof p->open / sizeof p->open[0]) {
            p->open[p->nopen++] = p->depth;
        }
    } else if (t->type == TK_RP) {
        if (p->nopen > 0 && p->open[p->nopen - 1] == p->depth) {
            p->nopen--;
        }
        p->depth -= p->depth > 0;
    } else if (t->type == TK_IN && p->nopen > 0 && p->open[p->nopen - 1] == p->depth) {
        t->type = TK_POSITION_IN;
    }
}

/* Parse sql[0..len); text_len and in_multi only shape the syntax error text. Without
 * allow_params a '?' is a syntax error at it (MySQL's text protocol). */
static int
parse_text(arena *a, const char *sql, size_t len, size_t text_len, bool in_multi, bool allow_params,
           bool no_backslash_escapes, bool ansi_quotes, bool pipes_as_concat, plan_stmt **stmt,
           db_error *err)
{
    plan_parse pp;
    memset(&pp, 0, sizeof pp);
    pp.a = a;
    pp.sql = sql;
    pp.len = len;
    pp.text_len = text_len;
    pp.in_multi = in_multi;
    pp.no_backslash_escapes = no_backslash_escapes;
    pp.pipes_as_concat = pipes_as_concat;
    pp.stmt = arena_calloc(a, 1, sizeof(plan_stmt));
    pp.stmt->kind = PS_UNSUPPORTED;
    pp.stmt->isolation = PLAN_ISO_NONE;

    plan_lexer lx;
    plan__lexer_init(&lx, sql, len);
    lx.no_backslash_escapes = no_backslash_escapes;
    lx.ansi_quotes = ansi_quotes;

    void *parser = plan__parserAlloc(mem_alloc, &pp);
    plan_token t;
    bool any = false;
    uint32_t nfed = 0;    /* tokens given to the parser */
    bool hint_ok = false; /* the only token fed so far is a hint-taking first keyword */
    position_ins pin = {0};
    for (;;) {
        plan__lexer_next(&lx, &t);
        if (t.type == TK_HINT && hint_ok && nfed == 1 && pp.stmt->hint == NULL) {
            record_hint(&pp, &t); /* the first hint right after the keyword; others are comments */
        }
        if (t.type == TK_SPACE || t.type == TK_COMMENT || t.type == TK_HINT) {
            continue;
        }
        if (t.type != TK_SEMI || any) {
            hint_ok = nfed == 0 && is_hint_keyword(&t);
            nfed++;
        }
        if (t.type == TK_ILLEGAL || (t.type == TK_QUESTION && !allow_params)) {
            pp.failed = true;
            pp.bad = t;
            break;
        }
        if (t.type == 0 && !any) {
            break;
        }
        if (t.type == TK_SEMI && !any) {
            continue; /* leading empty statements */
        }
        any = true;
        position_in_mark(&pin, &t);
        plan__parser(parser, t.type, t);
        if (pp.failed || t.type == 0) {
            break;
        }
    }
    plan__parserFree(parser, mem_free);
    if (!any && !pp.failed) {
        return db_error_set(err, ER_EMPTY_QUERY);
    }
    if (pp.failed) {
        parse_error(&pp, err);
        return DB_ERR;
    }
    if (pp.too_many_params) {
        return db_error_set(err, ER_PS_MANY_PARAM);
    }
    if (pp.bad_catalog != NULL) {
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(a, "Unknown catalog '%s'", pp.bad_catalog));
    }
    if (pp.bad_literal_type != NULL) {
        return db_error_set(err, ER_WRONG_VALUE, pp.bad_literal_type, pp.bad_literal);
    }
    for (struct plan_wref *r = pp.wrefs; r && pp.window_err == 0; r = r->next) {
        if (r->fn != NULL) { /* its block never ended (cannot happen for a parsed statement) */
            window_fail(&pp, ER_WINDOW_NO_SUCH_WINDOW, r->name ? r->name : r->def->w->base);
        }
    }
    if (pp.window_err != 0) {
        return db_error_set(err, pp.window_err, pp.window_err_name, pp.window_err_name2);
    }
    pp.stmt->nparams = (uint16_t)pp.nparams;
    *stmt = pp.stmt;
    return DB_OK;
}

/* ---- DML builders ---- */

void
plan_stmt_dml_target(plan_parse *pp, const plan_token *db, const plan_token *name)
{
    plan_table_ref *t = &pp->stmt->dml_table;
    t->db = db ? plan__ident_decode(pp->a, db) : NULL;
    t->name = plan__ident_decode(pp->a, name);
    t->alias = NULL;
}

void
plan_stmt_dml_col(plan_parse *pp, const plan_token *col)
{
    plan_stmt *st = pp->stmt;
    st->dml_cols = grow(pp->a, st->dml_cols, st->ndml_cols, &st->cap_dml_cols, sizeof(char *));
    st->dml_cols[st->ndml_cols++] = plan__ident_decode(pp->a, col);
}

void
plan_stmt_dml_value(plan_parse *pp, plan_ast *x)
{
    plan_stmt *st = pp->stmt;
    st->dml_values =
            grow(pp->a, st->dml_values, st->ndml_values, &st->cap_dml_values, sizeof(plan_ast *));
    st->dml_values[st->ndml_values++] = x;
}

/* Close a VALUES row: row_start gets the start of the next one. */
void
plan_stmt_dml_row_end(plan_parse *pp)
{
    plan_stmt *st = pp->stmt;
    if (st->dml_row_start == NULL) {
        st->dml_row_start = grow(pp->a, NULL, 0, &st->cap_dml_rows, sizeof(uint32_t));
        st->dml_row_start[0] = 0;
    }
    st->dml_row_start =
            grow(pp->a, st->dml_row_start, st->ndml_rows + 1, &st->cap_dml_rows, sizeof(uint32_t));
    st->dml_row_start[++st->ndml_rows] = st->ndml_values;
}

void
plan_stmt_dml_part(plan_parse *pp, const plan_token *name)
{
    plan_stmt *st = pp->stmt;
    st->dml_parts = grow(pp->a, st->dml_parts, st->ndml_parts, &st->cap_dml_parts, sizeof(char *));
    st->dml_parts[st->ndml_parts++] = plan__ident_decode(pp->a, name);
}

void
plan_stmt_label(plan_parse *pp, const plan_token *name)
{
    pp->stmt->label = plan__ident_decode(pp->a, name);
}

/* FOR VERSION / TIME AS OF: applies to the table reference just added. */
void
plan_stmt_as_of(plan_parse *pp, const plan_ast *x)
{
    plan_stmt *st = pp->stmt;
    DB_ASSERT(st->ntables > 0);
    st->tables[st->ntables - 1].as_of = x;
}

void
plan_stmt_join_group_begin(plan_parse *pp)
{
    plan_stmt *st = pp->stmt;
    pp->group_starts =
            grow(pp->a, pp->group_starts, pp->ngroups, &pp->cap_groups, sizeof *pp->group_starts);
    pp->group_starts[pp->ngroups].st = st;
    pp->group_starts[pp->ngroups++].start = st->ntables;
}

void
plan_stmt_join_group_cancel(plan_parse *pp)
{
    DB_ASSERT(pp->ngroups > 0 && pp->group_starts[pp->ngroups - 1].st == pp->stmt);
    pp->ngroups--;
}

/* Inside a parenthesised join tree of the statement being built (a query nested in one is
 * not). */
static bool
in_group(const plan_parse *pp)
{
    return pp->ngroups > 0 && pp->group_starts[pp->ngroups - 1].st == pp->stmt;
}

/* The tables [start, end) of a parenthesised join tree: flattening them into the left-deep list
 * keeps the meaning only when every join inside is inner (or a comma / CROSS JOIN). */
void
plan_stmt_join_group_end(plan_parse *pp)
{
    plan_stmt *st = pp->stmt;
    DB_ASSERT(pp->ngroups > 0);
    uint32_t start = pp->group_starts[--pp->ngroups].start;
    for (uint32_t i = start + 1; i < st->ntables; i++) {
        const plan_table_ref *t = &st->tables[i];
        if ((t->join != PLAN_JOIN_INNER && t->join != PLAN_JOIN_CROSS) || t->natural || t->nusing) {
            plan_stmt_unsupported(pp, "outer, NATURAL or USING joins inside parentheses");
        }
    }
    pp->group_st = st;
    pp->group_start = start;
    pp->group_end = st->ntables;
}

/* Whether the table reference just parsed is a parenthesised join tree. */
static bool
last_is_group(const plan_parse *pp)
{
    const plan_stmt *st = pp->stmt;
    return pp->group_st == st && pp->group_end == st->ntables && pp->group_end > pp->group_start;
}

void
plan_stmt_comma(plan_parse *pp)
{
    plan_stmt *st = pp->stmt;
    DB_ASSERT(st->ntables > 0);
    if (!in_group(pp)) {
        st->comma_at = last_is_group(pp) ? pp->group_start : st->ntables - 1;
    }
}

void
plan_stmt_join(plan_parse *pp, int type, bool natural)
{
    plan_stmt *st = pp->stmt;
    DB_ASSERT(st->ntables > 0);
    if ((type == PLAN_JOIN_RIGHT || type == PLAN_JOIN_FULL) && st->comma_at > 0 && !in_group(pp)) {
        /* `a, b RIGHT JOIN c` is `a, (b RIGHT JOIN c)` in MySQL; the left-deep list would
         * compute `(a, b) RIGHT JOIN c`, a different result: refuse rather than answer wrong. */
        plan_stmt_unsupported(pp, "a RIGHT or FULL JOIN after a comma (use CROSS JOIN, or put "
                                  "the outer join first)");
        return;
    }
    if (last_is_group(pp)) {
        /* x JOIN (tree) ON c: an inner join with the tree's first table (its other tables join
         * inner inside), and c, checked once the whole tree is there, joins the last one. */
        if ((type != PLAN_JOIN_INNER && type != PLAN_JOIN_CROSS) || natural) {
            plan_stmt_unsupported(pp, "an outer, NATURAL or USING join of a parenthesised join");
            return;
        }
        plan_table_ref *first = &st->tables[pp->group_start];
        if (pp->group_start + 1 < st->ntables) {
            first->join = PLAN_JOIN_CROSS;
        } else { /* one table in parentheses: an ordinary join */
            first->join = first->on ? PLAN_JOIN_INNER : PLAN_JOIN_CROSS;
        }
        return;
    }
    plan_table_ref *t = &st->tables[st->ntables - 1];
    t->join = (uint8_t)type;
    t->natural = natural;
    if (type == PLAN_JOIN_CROSS && (t->on || t->nusing)) {
        t->join = PLAN_JOIN_INNER; /* CROSS JOIN ... ON is an inner join (MySQL) */
    }
}

void
plan_stmt_join_on(plan_parse *pp, plan_ast *on)
{
    plan_stmt *st = pp->stmt;
    DB_ASSERT(st->ntables > 0);
    plan_table_ref *t = &st->tables[st->ntables - 1];
    if (last_is_group(pp) && t->on != NULL) {
        t->on = plan_ast_binary(pp, XOP_AND, t->on, on); /* the tree's own ON, then this one */
        if (t->join == PLAN_JOIN_CROSS) {
            t->join = PLAN_JOIN_INNER;
        }
        return;
    }
    t->on = on;
    if (last_is_group(pp) && t->join == PLAN_JOIN_CROSS) {
        t->join = PLAN_JOIN_INNER;
    }
}

void
plan_stmt_join_using(plan_parse *pp, const plan_token *name)
{
    if (last_is_group(pp)) {
        plan_stmt_unsupported(pp, "an outer, NATURAL or USING join of a parenthesised join");
        return;
    }
    plan_stmt *st = pp->stmt;
    DB_ASSERT(st->ntables > 0);
    plan_table_ref *t = &st->tables[st->ntables - 1];
    t->using_cols = grow(pp->a, t->using_cols, t->nusing, &t->cap_using, sizeof(char *));
    t->using_cols[t->nusing++] = plan__ident_decode(pp->a, name);
}

void
plan_stmt_push(plan_parse *pp)
{
    plan_stmt *st = arena_calloc(pp->a, 1, sizeof *st);
    st->kind = PS_SELECT;
    st->isolation = PLAN_ISO_NONE;
    st->parent = pp->stmt;
    pp->stmt = st;
}

void
plan_stmt_derived(plan_parse *pp, plan_qexpr q, const plan_token *alias)
{
    plan_stmt *in = q.st;
    plan_stmt *st = pp->stmt;
    st->tables = grow(pp->a, st->tables, st->ntables, &st->cap_tables, sizeof(plan_table_ref));
    plan_table_ref *t = &st->tables[st->ntables++];
    memset(t, 0, sizeof *t);
    t->alias = plan__ident_decode(pp->a, alias);
    t->name = t->alias;
    t->sub = in;
}

struct plan_pend_cols {
    const char **names;
    uint32_t n, cap;
    struct plan_pend_cols *next;
};

void
plan_stmt_pending_col(plan_parse *pp, const plan_token *name, bool first)
{
    if (first) {
        struct plan_pend_cols *l = arena_calloc(pp->a, 1, sizeof *l);
        l->next = pp->pend_cols;
        pp->pend_cols = l;
    }
    struct plan_pend_cols *l = pp->pend_cols;
    l->names = grow(pp->a, l->names, l->n, &l->cap, sizeof *l->names);
    l->names[l->n++] = plan__ident_decode(pp->a, name);
}

/* The innermost pending column list, now complete, for statement in. */
static void
take_pending_cols(plan_parse *pp, plan_stmt *in)
{
    struct plan_pend_cols *l = pp->pend_cols;
    DB_ASSERT(l != NULL);
    pp->pend_cols = l->next;
    in->colnames = l->names;
    in->ncolnames = l->n;
}

void
plan_stmt_derived_cols(plan_parse *pp, plan_qexpr q, const plan_token *alias)
{
    plan_stmt_derived(pp, q, alias);
    plan_stmt *st = pp->stmt;
    take_pending_cols(pp, st->tables[st->ntables - 1].sub);
}

void
plan_stmt_cte_cols(plan_parse *pp, const plan_token *name, plan_qexpr q)
{
    plan_stmt_cte(pp, name, q);
    plan_stmt *st = pp->stmt;
    take_pending_cols(pp, st->ctes[st->nctes - 1].st);
}

void
plan_stmt_gset(plan_parse *pp, plan_ast_list *set)
{
    plan_stmt *st = pp->stmt;
    st->gsets = grow(pp->a, st->gsets, st->ngsets, &st->cap_gsets, sizeof *st->gsets);
    st->gsets[st->ngsets++] = set;
}

void
plan_stmt_cte(plan_parse *pp, const plan_token *name, plan_qexpr q)
{
    plan_stmt *in = q.st;
    plan_stmt *st = pp->stmt;
    st->ctes = grow(pp->a, st->ctes, st->nctes, &st->cap_ctes, sizeof(plan_cte));
    plan_cte *c = &st->ctes[st->nctes++];
    c->name = plan__ident_decode(pp->a, name);
    c->st = in;
}

void
plan_stmt_table_alias(plan_parse *pp, const plan_token *db, const plan_token *name,
                      const plan_token *alias)
{
    if (alias->type == TK_FULL) {
        plan_stmt_table(pp, db, name, NULL);
        pp->full_pending = true;
        return;
    }
    plan_stmt_table(pp, db, name, alias);
}

int
plan_stmt_full_pending(plan_parse *pp, const plan_token *outer)
{
    bool full = pp->full_pending;
    pp->full_pending = false;
    if (outer && !full) {
        syntax_error_at(pp, outer);
    }
    return full ? PLAN_JOIN_FULL : PLAN_JOIN_INNER;
}
