/* SPDX-License-Identifier: Apache-2.0
 * plan_hint.c: optimizer hints. The parse driver keeps the hint comment (slash-star-plus ...
 * star-slash) written right after a statement's first keyword, as MySQL 8 and Doris do;
 * here its text is tokenized and its SET_VAR items are applied to the session for the one
 * statement, then the previous values are put back (also when the statement fails). See
 * README.md §Optimizer hints. */
#include "planner/plan_int.h"

#include <stdio.h>
#include <string.h>

#include "common/mem.h"
#include "common/strutil.h"
#include "planner/parse.h"

/* One SET_VAR item as parsed. */
typedef struct hint_item {
    const char *name;
    plan_ast *value;  /* a literal (maybe negated), or NULL for a word */
    const char *word; /* ON, OFF or another bare word: taken as its text (as SET) */
} hint_item;

/* The hint text being scanned. */
typedef struct hint_scan {
    plan_ectx *cx;
    const plan_stmt *st;
    plan_lexer lx;
    plan_token t; /* current token (blanks skipped) */
    bool nbe;     /* sql_mode NO_BACKSLASH_ESCAPES */
} hint_scan;

static void next(hint_scan *h);
static bool is_word(const plan_token *t);
static int syntax_error(hint_scan *h, db_error *err);
static plan_ast *literal(hint_scan *h, plan_ast_kind kind, const plan_token *t);
static int parse_value(hint_scan *h, hint_item *it, db_error *err);
static int parse_set_var(hint_scan *h, hint_item **items, size_t *n, size_t *cap, db_error *err);
static int skip_args(hint_scan *h, db_error *err);
static int apply_items(plan_ectx *cx, const hint_item *items, size_t n, db_error *err);
static void refresh_ectx(plan_ectx *cx);

static void
next(hint_scan *h)
{
    do {
        plan__lexer_next(&h->lx, &h->t);
    } while (h->t.type == TK_SPACE || h->t.type == TK_COMMENT || h->t.type == TK_HINT);
}

/* An identifier or a keyword (variable and hint names may be either). */
static bool
is_word(const plan_token *t)
{
    if (t->type == TK_ID) {
        return true;
    }
    if (t->n == 0) {
        return false;
    }
    for (uint32_t i = 0; i < t->n; i++) {
        unsigned char c = (unsigned char)t->z[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
                  (i > 0 && c >= '0' && c <= '9');
        if (!ok) {
            return false;
        }
    }
    return true;
}

/* ER_PARSE_ERROR quoting the hint from the offending token (MySQL's "near '...' at line n"). */
static int
syntax_error(hint_scan *h, db_error *err)
{
    const plan_stmt *st = h->st;
    uint32_t off = h->t.type == 0 ? st->hint_len : h->t.off;
    size_t qlen = st->hint_len - off;
    qlen = qlen > 80 ? 80 : qlen;
    int line = 1;
    for (uint32_t i = 0; i < st->hint_off + off; i++) {
        line += h->cx->sql[i] == '\n';
    }
    char near[81];
    snprintf(near, sizeof near, "%.*s", (int)qlen, st->hint + off);
    return db_error_set(err, ER_PARSE_ERROR, near, line);
}

/* A literal AST node for token t, its span in statement offsets (for messages). */
static plan_ast *
literal(hint_scan *h, plan_ast_kind kind, const plan_token *t)
{
    plan_ast *x = arena_calloc(h->cx->a, 1, sizeof *x);
    x->kind = kind;
    x->name = arena_strndup(h->cx->a, t->z, t->n);
    x->off = h->st->hint_off + t->off;
    x->end = x->off + t->n;
    return x;
}

/* value := [+|-] number | string | TRUE | FALSE | NULL | word */
static int
parse_value(hint_scan *h, hint_item *it, db_error *err)
{
    arena *a = h->cx->a;
    plan_token sign = {0};
    if (h->t.type == TK_MINUS || h->t.type == TK_PLUS) {
        sign = h->t;
        next(h);
    }
    plan_ast *x;
    switch (h->t.type) {
    case TK_INTNUM:
        x = literal(h, PA_INT, &h->t);
        break;
    case TK_DECNUM:
        x = literal(h, PA_DECIMAL, &h->t);
        break;
    case TK_FLOATNUM:
        x = literal(h, PA_FLOAT, &h->t);
        break;
    default:
        if (sign.type != 0) {
            return syntax_error(h, err);
        }
        if (h->t.type == TK_STRING) {
            x = literal(h, PA_STRING, &h->t);
            x->str = plan__string_decode(a, &h->t, h->nbe, &x->len);
        } else if (h->t.type == TK_TRUE || h->t.type == TK_FALSE) {
            x = literal(h, PA_BOOL, &h->t);
            x->op = h->t.type == TK_TRUE;
        } else if (h->t.type == TK_NULL) {
            x = literal(h, PA_NULL, &h->t);
        } else if (is_word(&h->t)) {
            it->word = plan__ident_decode(a, &h->t);
            next(h);
            return DB_OK;
        } else {
            return syntax_error(h, err);
        }
        break;
    }
    if (sign.type == TK_MINUS) {
        plan_ast *u = arena_calloc(a, 1, sizeof *u);
        u->kind = PA_UNARY;
        u->op = XOP_MINUS;
        u->args = arena_calloc(a, 1, sizeof *u->args);
        u->args[0] = x;
        u->nargs = 1;
        u->off = h->st->hint_off + sign.off;
        u->end = x->end;
        x = u;
    }
    it->value = x;
    next(h);
    return DB_OK;
}

/* '(' name '=' value { ',' name '=' value } ')', the current token being the '('. */
static int
parse_set_var(hint_scan *h, hint_item **items, size_t *n, size_t *cap, db_error *err)
{
    if (h->t.type != TK_LP) {
        return syntax_error(h, err);
    }
    do {
        next(h);
        if (!is_word(&h->t)) {
            return syntax_error(h, err);
        }
        if (*n == *cap) {
            size_t ncap = *cap ? *cap * 2 : 8;
            hint_item *g = arena_calloc(h->cx->a, ncap, sizeof *g);
            if (*n) {
                memcpy(g, *items, *n * sizeof *g);
            }
            *items = g;
            *cap = ncap;
        }
        hint_item *it = &(*items)[(*n)++];
        memset(it, 0, sizeof *it);
        it->name = plan__ident_decode(h->cx->a, &h->t);
        next(h);
        if (h->t.type != TK_EQ) {
            return syntax_error(h, err);
        }
        next(h);
        if (parse_value(h, it, err) != DB_OK) {
            return DB_ERR;
        }
    } while (h->t.type == TK_COMMA);
    if (h->t.type != TK_RP) {
        return syntax_error(h, err);
    }
    next(h);
    return DB_OK;
}

/* Another hint's optional argument list: balanced parentheses, contents ignored. */
static int
skip_args(hint_scan *h, db_error *err)
{
    if (h->t.type != TK_LP) {
        return DB_OK;
    }
    int depth = 0;
    do {
        if (h->t.type == 0 || h->t.type == TK_ILLEGAL) {
            return syntax_error(h, err);
        }
        depth += h->t.type == TK_LP ? 1 : (h->t.type == TK_RP ? -1 : 0);
        next(h);
    } while (depth > 0);
    return DB_OK;
}

/* Resolve every name first (nothing is assigned when one is unknown), then assign in order,
 * each as SET SESSION name = value. */
static int
apply_items(plan_ectx *cx, const hint_item *items, size_t n, db_error *err)
{
    int *idx = arena_calloc(cx->a, n, sizeof *idx);
    for (size_t i = 0; i < n; i++) {
        idx[i] = plan__sysvar_find(items[i].name);
        if (idx[i] < 0) {
            return db_error_set(err, ER_UNKNOWN_SYSTEM_VARIABLE, items[i].name);
        }
        if (plan__sysvar_check_settable(idx[i], PLAN_SCOPE_SESSION, items[i].name, err) != DB_OK) {
            return DB_ERR;
        }
    }
    for (size_t i = 0; i < n; i++) {
        plan_value v;
        if (items[i].word) {
            v = plan__v_str(items[i].word, strlen(items[i].word));
        } else {
            plan_expr *e;
            if (plan__analyze(cx, items[i].value, NULL, 0, "field list", &e, err) != DB_OK ||
                plan__eval(cx, e, &v, err) != DB_OK) {
                return DB_ERR;
            }
        }
        if (plan__sysvar_set(cx, idx[i], PLAN_SCOPE_SESSION, &v, items[i].name, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

/* The statement-start values plan__ectx_init took from variables a hint may have changed. */
static void
refresh_ectx(plan_ectx *cx)
{
    plan_session *s = cx->s;
    cx->div_incr = (int)s->vars[plan__sysvar_find("div_precision_increment")].i;
    cx->max_packet = s->vars[plan__sysvar_find("max_allowed_packet")].i;
    if (s->user_time_us > 0) {
        cx->now_utc_us = s->user_time_us;
    }
    cx->now_us = cx->now_utc_us + plan__tz_offset(s, cx->now_utc_us / 1000000) * 1000000;
}

int
plan__hint_apply(plan_ectx *cx, const plan_stmt *st, plan_hint_save *save, db_error *err)
{
    memset(save, 0, sizeof *save);
    if (st->hint == NULL) {
        return DB_OK;
    }
    plan_session *s = cx->s;
    hint_scan h;
    memset(&h, 0, sizeof h);
    h.cx = cx;
    h.st = st;
    bool aq, pac;
    plan__sql_mode_flags(s, &h.nbe, &aq, &pac);
    plan__lexer_init(&h.lx, st->hint, st->hint_len);
    h.lx.no_backslash_escapes = h.nbe;
    h.lx.ansi_quotes = aq;
    hint_item *items = NULL;
    size_t n = 0, cap = 0;
    next(&h);
    while (h.t.type != 0) {
        if (!is_word(&h.t)) {
            return syntax_error(&h, err);
        }
        bool is_set_var = str_ieqz(h.t.z, h.t.n, "SET_VAR");
        next(&h);
        int rc = is_set_var ? parse_set_var(&h, &items, &n, &cap, err) : skip_args(&h, err);
        if (rc != DB_OK) {
            return DB_ERR;
        }
    }
    if (n == 0) {
        return DB_OK;
    }
    size_t nvars = plan__sysvar_count();
    save->vars = mem_calloc(nvars, sizeof *save->vars);
    plan__sysval_copy(save->vars, s->vars, nvars);
    save->user_time_us = s->user_time_us;
    save->last_insert_id = s->last_insert_id;
    if (apply_items(cx, items, n, err) != DB_OK) {
        plan__hint_restore(s, save);
        return DB_ERR;
    }
    refresh_ectx(cx);
    return DB_OK;
}

void
plan__hint_restore(plan_session *s, plan_hint_save *save)
{
    if (save->vars == NULL) {
        return;
    }
    size_t nvars = plan__sysvar_count();
    plan__sysval_free(s->vars, nvars);
    memcpy(s->vars, save->vars, nvars * sizeof *save->vars); /* takes over the copies */
    mem_free(save->vars);
    save->vars = NULL;
    s->user_time_us = save->user_time_us;
    s->last_insert_id = save->last_insert_id;
}
