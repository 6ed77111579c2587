/* SPDX-License-Identifier: Apache-2.0
 * plan_ddl_ast.c: the builders the grammar's DDL actions call (see parse.y "---- DDL ----").
 * They fill the statement's plan_ddl (plan_ddl_int.h) in the statement arena: the target,
 * flags, column definitions, clause lists and ALTER TABLE clauses. A word that is not a type or
 * an aggregation type is a syntax error at that word, as for CAST type names.
 * See README.md §DDL. */
#include "planner/plan_ddl_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "planner/parse.h"

static plan_ddl *ddl_of(plan_parse *pp);
static void *grow(arena *a, void *v, size_t n, size_t *cap, size_t size);
static void syntax_error_at(plan_parse *pp, const plan_token *t);
static cat_column_def *cur_col(plan_parse *pp);
static const char *tok_text(plan_parse *pp, const plan_token *t, bool neg);
static int64_t tok_int(const plan_token *t);

/* The statement's plan_ddl, created on first use. */
static plan_ddl *
ddl_of(plan_parse *pp)
{
    plan_stmt *st = pp->stmt;
    if (!st->ddl) {
        st->ddl = arena_calloc(pp->a, 1, sizeof *st->ddl);
    }
    return st->ddl;
}

/* Grows an arena array of n elements to hold one more. */
static void *
grow(arena *a, void *v, size_t n, size_t *cap, size_t size)
{
    if (n < *cap) {
        return v;
    }
    size_t ncap = *cap ? *cap * 2 : 8;
    void *nv = arena_calloc(a, ncap, size);
    if (n) {
        memcpy(nv, v, n * size);
    }
    *cap = ncap;
    return nv;
}

static void
syntax_error_at(plan_parse *pp, const plan_token *t)
{
    if (!pp->failed) {
        pp->failed = true;
        pp->bad = *t;
    }
}

/* The column definition being built (the last one started). */
static cat_column_def *
cur_col(plan_parse *pp)
{
    plan_ddl *d = ddl_of(pp);
    DB_ASSERT(d->ncols > 0);
    return &d->cols[d->ncols - 1];
}

/* A literal's text: a string decoded, anything else as written; neg puts a minus in front. */
static const char *
tok_text(plan_parse *pp, const plan_token *t, bool neg)
{
    if (t->type == TK_STRING) {
        size_t len;
        return plan__string_decode(pp->a, t, pp->no_backslash_escapes, &len);
    }
    return arena_sprintf(pp->a, "%s%.*s", neg ? "-" : "", (int)t->n, t->z);
}

static int64_t
tok_int(const plan_token *t)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < t->n && v < (uint64_t)INT64_MAX / 10; i++) {
        v = v * 10 + (unsigned)(t->z[i] - '0');
    }
    return v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

void
plan_ddl_begin(plan_parse *pp, plan_ddl_kind kind)
{
    ddl_of(pp)->kind = kind;
    plan_stmt_begin(pp, PS_DDL);
}

void
plan_ddl_target(plan_parse *pp, const plan_token *db, const plan_token *name)
{
    plan_ddl *d = ddl_of(pp);
    d->db = db ? plan_ast_ident(pp, db) : NULL;
    d->name = plan_ast_ident(pp, name);
}

void
plan_ddl_target_db(plan_parse *pp, const plan_token *db)
{
    ddl_of(pp)->db = plan_ast_ident(pp, db);
}

void
plan_ddl_flag(plan_parse *pp, int flag)
{
    plan_ddl *d = ddl_of(pp);
    switch (flag) {
    case PLAN_DDL_IF_EXISTS:
        d->if_exists = true;
        break;
    case PLAN_DDL_IF_NOT_EXISTS:
        d->if_not_exists = true;
        break;
    case PLAN_DDL_FORCE:
        d->force = true;
        break;
    case PLAN_DDL_OR_REPLACE:
        d->or_replace = true;
        break;
    case PLAN_DDL_ALL:
        d->all = true;
        break;
    default:
        d->full = true;
        break;
    }
}

void
plan_ddl_prop(plan_parse *pp, const plan_token *key, const plan_token *value)
{
    plan_ddl *d = ddl_of(pp);
    d->props = grow(pp->a, d->props, d->nprops, &d->cap_props, sizeof *d->props);
    cat_prop *p = &d->props[d->nprops++];
    p->key = (char *)tok_text(pp, key, false);
    p->value = (char *)tok_text(pp, value, false);
}

void
plan_ddl_name(plan_parse *pp, const plan_token *name)
{
    plan_ddl *d = ddl_of(pp);
    d->names = grow(pp->a, d->names, d->nnames, &d->cap_names, sizeof *d->names);
    d->names[d->nnames++] = plan_ast_ident(pp, name);
}

/* Takes the pending names into *out / *n. */
static void take_names(plan_ddl *d, const char ***out, size_t *n);

static void
take_names(plan_ddl *d, const char ***out, size_t *n)
{
    *out = d->names;
    *n = d->nnames;
    d->names = NULL;
    d->nnames = d->cap_names = 0;
}

void
plan_ddl_col_begin(plan_parse *pp, const plan_token *name)
{
    plan_ddl *d = ddl_of(pp);
    d->cols = grow(pp->a, d->cols, d->ncols, &d->cap_cols, sizeof *d->cols);
    cat_column_def *c = &d->cols[d->ncols++];
    memset(c, 0, sizeof *c);
    c->name = plan_ast_ident(pp, name);
    c->auto_inc_start = 1;
    c->agg = CAT_AGG_UNSET;
    d->col_unsigned = 0;
}

static void note_ignored(plan_parse *pp, const char *what);

void
plan_ddl_col_type(plan_parse *pp, const cat_type *t)
{
    if (t == NULL) {
        return;
    }
    cat_column_def *c = cur_col(pp);
    c->type = *t;
    plan_ddl *d = ddl_of(pp);
    if (d->col_unsigned == 0) {
        return;
    }
    /* MySQL UNSIGNED integers: the next wider signed type holds every value (an
     * AUTO_INCREMENT BIGINT counter never reaches 2^63, so it stays BIGINT). */
    cat_type_id to;
    switch ((cat_type_id)t->id) {
    case CAT_T_TINYINT:
        to = CAT_T_SMALLINT;
        break;
    case CAT_T_SMALLINT:
        to = CAT_T_INT;
        break;
    case CAT_T_INT:
        to = CAT_T_BIGINT;
        break;
    case CAT_T_BIGINT:
        to = c->auto_inc ? CAT_T_BIGINT : CAT_T_LARGEINT;
        break;
    default:
        to = (cat_type_id)t->id;
        break;
    }
    const char *what = d->col_unsigned == 2 ? "ZEROFILL" : "UNSIGNED";
    if (to != (cat_type_id)t->id) {
        c->type = cat_type_make(to);
        static const char *const names[] = {[CAT_T_SMALLINT] = "SMALLINT",
                                            [CAT_T_INT] = "INT",
                                            [CAT_T_BIGINT] = "BIGINT",
                                            [CAT_T_LARGEINT] = "LARGEINT"};
        note_ignored(pp, arena_sprintf(pp->a, "%s (column %s is %s)", what, c->name, names[to]));
    } else {
        note_ignored(pp, arena_sprintf(pp->a, "%s (column %s)", what, c->name));
    }
}

void
plan_ddl_col_unsigned(plan_parse *pp, bool zerofill)
{
    plan_ddl *d = ddl_of(pp);
    if (zerofill || d->col_unsigned == 0) {
        d->col_unsigned = zerofill ? 2 : 1;
    }
}

void
plan_ddl_col_on_update(plan_parse *pp)
{
    note_ignored(
            pp, arena_sprintf(pp->a, "ON UPDATE CURRENT_TIMESTAMP (column %s)", cur_col(pp)->name));
}

void
plan_ddl_col_null(plan_parse *pp, bool nullable)
{
    cat_column_def *c = cur_col(pp);
    c->null_given = true;
    c->nullable = nullable;
}

void
plan_ddl_col_default(plan_parse *pp, const plan_token *v, bool neg, const plan_token *prec)
{
    cat_column_def *c = cur_col(pp);
    c->has_default = true;
    c->default_is_null = false;
    c->default_is_expr = false;
    c->default_text = NULL;
    switch (v->type) {
    case TK_NULL:
        c->default_is_null = true;
        break;
    case TK_CURRENT_TIMESTAMP:
    case TK_CURRENT_DATE:
        c->default_is_expr = true;
        c->default_text = v->type == TK_CURRENT_DATE ? "CURRENT_DATE" : "CURRENT_TIMESTAMP";
        if (prec) {
            c->default_text =
                    arena_sprintf(pp->a, "CURRENT_TIMESTAMP(%.*s)", (int)prec->n, prec->z);
        }
        break;
    default:
        c->default_text = tok_text(pp, v, neg);
        break;
    }
}

void
plan_ddl_col_autoinc(plan_parse *pp, const plan_token *start)
{
    cat_column_def *c = cur_col(pp);
    c->auto_inc = true;
    c->auto_inc_start = start ? tok_int(start) : 1;
}

void
plan_ddl_col_comment(plan_parse *pp, const plan_token *c)
{
    cur_col(pp)->comment = tok_text(pp, c, false);
}

void
plan_ddl_col_agg(plan_parse *pp, const plan_token *word)
{
    static const struct {
        const char *name;
        cat_agg agg;
    } aggs[] = {{"SUM", CAT_AGG_SUM},
                {"MIN", CAT_AGG_MIN},
                {"MAX", CAT_AGG_MAX},
                {"REPLACE", CAT_AGG_REPLACE},
                {"REPLACE_IF_NOT_NULL", CAT_AGG_REPLACE_IF_NOT_NULL},
                {"HLL_UNION", CAT_AGG_HLL_UNION},
                {"BITMAP_UNION", CAT_AGG_BITMAP_UNION},
                {"NONE", CAT_AGG_NONE}};
    for (size_t i = 0; i < sizeof aggs / sizeof aggs[0]; i++) {
        if (strlen(aggs[i].name) == word->n && strncasecmp(aggs[i].name, word->z, word->n) == 0) {
            cur_col(pp)->agg = aggs[i].agg;
            return;
        }
    }
    syntax_error_at(pp, word);
}

/* Type words: Doris's names and their MySQL spellings. nargs_max: arguments allowed. */
typedef struct type_word {
    const char *name;
    cat_type_id id;
    int nargs_max;
} type_word;

static const type_word type_words[] = {
        {"BOOLEAN", CAT_T_BOOLEAN, 0},   {"BOOL", CAT_T_BOOLEAN, 0},
        {"TINYINT", CAT_T_TINYINT, 1},   {"SMALLINT", CAT_T_SMALLINT, 1},
        {"INT", CAT_T_INT, 1},           {"INTEGER", CAT_T_INT, 1},
        {"BIGINT", CAT_T_BIGINT, 1},     {"LARGEINT", CAT_T_LARGEINT, 1},
        {"FLOAT", CAT_T_FLOAT, 0},       {"DOUBLE", CAT_T_DOUBLE, 0},
        {"DECIMAL", CAT_T_DECIMAL, 2},   {"DECIMALV3", CAT_T_DECIMAL, 2},
        {"DECIMALV2", CAT_T_DECIMAL, 2}, {"NUMERIC", CAT_T_DECIMAL, 2},
        {"CHAR", CAT_T_CHAR, 1},         {"VARCHAR", CAT_T_VARCHAR, 1},
        {"STRING", CAT_T_STRING, 0},     {"TEXT", CAT_T_STRING, 0},
        {"DATE", CAT_T_DATE, 0},         {"DATEV2", CAT_T_DATE, 0},
        {"DATETIME", CAT_T_DATETIME, 1}, {"DATETIMEV2", CAT_T_DATETIME, 1},
        {"JSON", CAT_T_JSON, 0},         {"JSONB", CAT_T_JSON, 0},
        {"VARIANT", CAT_T_VARIANT, 0},   {"ARRAY", CAT_T_ARRAY, 0},
        {"MAP", CAT_T_MAP, 0},
};

static const type_word *find_type_word(const plan_token *w);

static const type_word *
find_type_word(const plan_token *w)
{
    if (w->n == 0 || w->z[0] == '`') {
        return NULL;
    }
    for (size_t i = 0; i < sizeof type_words / sizeof type_words[0]; i++) {
        if (strlen(type_words[i].name) == w->n &&
            strncasecmp(type_words[i].name, w->z, w->n) == 0) {
            return &type_words[i];
        }
    }
    return NULL;
}

cat_type *
plan_ddl_type(plan_parse *pp, const plan_token *word, const plan_token *a1, const plan_token *a2)
{
    cat_type *t = arena_calloc(pp->a, 1, sizeof *t);
    const type_word *tw = find_type_word(word);
    int nargs = a2 ? 2 : (a1 ? 1 : 0);
    if (!tw || nargs > tw->nargs_max || tw->id == CAT_T_ARRAY || tw->id == CAT_T_MAP) {
        syntax_error_at(pp, word);
        *t = cat_type_make(CAT_T_INT);
        return t;
    }
    int64_t v1 = a1 ? tok_int(a1) : -1, v2 = a2 ? tok_int(a2) : -1;
    if (v1 > INT32_MAX) {
        v1 = INT32_MAX;
    }
    if (v2 > 255) {
        v2 = 255;
    }
    switch (tw->id) {
    case CAT_T_DECIMAL:
        /* DECIMAL without arguments is DECIMAL(10, 0) (MySQL's default). cat_type keeps 8-bit
         * precision and scale; out-of-range values are clamped to 255 so the catalog's limit
         * check (38) still reports them. */
        *t = cat_type_decimal(v1 < 0 ? 10 : (v1 > 255 ? 255 : (int)v1), v2 < 0 ? 0 : (int)v2);
        break;
    case CAT_T_CHAR:
        *t = cat_type_char(v1 < 0 ? 1 : (int32_t)v1);
        break;
    case CAT_T_VARCHAR:
        *t = cat_type_varchar(v1 < 0 ? CAT_VARCHAR_MAX : (int32_t)v1);
        break;
    case CAT_T_DATETIME:
        *t = cat_type_datetime(v1 < 0 ? 0 : (v1 > 255 ? 255 : (int)v1));
        break;
    default:
        *t = cat_type_make(tw->id); /* INT(11): the display width is ignored */
        break;
    }
    return t;
}

cat_type *
plan_ddl_type_nested(plan_parse *pp, const plan_token *word, const cat_type *e1, const cat_type *e2)
{
    cat_type *t = arena_calloc(pp->a, 1, sizeof *t);
    const type_word *tw = find_type_word(word);
    bool ok = tw && ((tw->id == CAT_T_ARRAY && e1 && !e2) || (tw->id == CAT_T_MAP && e1 && e2));
    if (!ok) {
        syntax_error_at(pp, word);
        *t = cat_type_make(CAT_T_INT);
        return t;
    }
    *t = cat_type_make(tw->id);
    char a[64], b[64];
    buf text;
    buf_init(&text);
    cat_type_sql_buf(e1, a, sizeof a);
    buf_append_str(&text, a);
    if (e2) {
        cat_type_sql_buf(e2, b, sizeof b);
        buf_printf(&text, ",%s", b);
    }
    /* Element types longer than cat_type.inner are cut (the catalog refuses them anyway). */
    size_t n = text.len < sizeof t->inner - 1 ? text.len : sizeof t->inner - 1;
    memcpy(t->inner, text.data, n);
    t->inner[n] = '\0';
    buf_destroy(&text);
    return t;
}

void
plan_ddl_keys(plan_parse *pp, cat_keys keys)
{
    plan_ddl *d = ddl_of(pp);
    d->req.has_keys = true;
    d->req.keys_type = keys;
    take_names(d, &d->req.key_cols, &d->req.nkey_cols);
}

/* MySQL's PRIMARY KEY (...) is Doris's UNIQUE KEY (...) with merge-on-write. */
void
plan_ddl_primary_key(plan_parse *pp)
{
    plan_ddl *d = ddl_of(pp);
    d->primary_key = true;
    d->idx_using = NULL; /* PRIMARY KEY ... USING x COMMENT '..': nothing pending after it */
    d->idx_comment = NULL;
    d->idx_props = NULL;
    d->nidx_props = 0;
    d->req.has_keys = true;
    d->req.keys_type = CAT_KEYS_UNIQUE;
    take_names(d, &d->req.key_cols, &d->req.nkey_cols);
}

void
plan_ddl_foreign_key(plan_parse *pp, const plan_token *table)
{
    plan_ddl *d = ddl_of(pp);
    const char **cols;
    size_t n;
    take_names(d, &cols, &n);
    buf b;
    buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        buf_printf(&b, "%s%s", i ? ", " : "", cols[i]);
    }
    note_ignored(pp, arena_sprintf(pp->a, "FOREIGN KEY (%.*s) REFERENCES %s", (int)b.len,
                                   b.data ? (const char *)b.data : "", plan_ast_ident(pp, table)));
    buf_destroy(&b);
}

void
plan_ddl_check(plan_parse *pp)
{
    note_ignored(pp, "CHECK");
}

void
plan_ddl_enforced(plan_parse *pp, const plan_token *word, bool negated)
{
    (void)negated;
    if (word->n != 8 || strncasecmp(word->z, "ENFORCED", 8) != 0) {
        syntax_error_at(pp, word);
    }
}

void
plan_ddl_cluster(plan_parse *pp)
{
    plan_ddl *d = ddl_of(pp);
    take_names(d, &d->req.cluster_cols, &d->req.ncluster_cols);
}

void
plan_ddl_comment(plan_parse *pp, const plan_token *c)
{
    ddl_of(pp)->req.comment = tok_text(pp, c, false);
}

void
plan_ddl_engine(plan_parse *pp, const plan_token *e)
{
    ddl_of(pp)->engine = plan_ast_ident(pp, e);
}

/* ---- MySQL compatibility: table options, column keys, secondary indexes ---- */

/* MySQL's ER_ILLEGAL_HA_CREATE_OPTION text, given as a warning for what is accepted and
 * ignored (README.md §DDL "MySQL compatibility"). */
#define PLAN_DDL_W_IGNORED 1478

static void
add_note(plan_parse *pp, int code, const char *msg)
{
    plan_ddl *d = ddl_of(pp);
    d->notes = grow(pp->a, d->notes, d->nnotes, &d->cap_notes, sizeof *d->notes);
    d->notes[d->nnotes].code = code;
    d->notes[d->nnotes].msg = msg;
    d->nnotes++;
}

static void
note_ignored(plan_parse *pp, const char *what)
{
    add_note(pp, PLAN_DDL_W_IGNORED,
             arena_sprintf(pp->a,
                           "Table storage engine 'OLAP' does not support the create option '%s'",
                           what));
}

/* utf8 / utf8mb3 / utf8mb4 character sets and their _bin collations describe what Rivulet
 * stores and compares (UTF-8 bytes), so they need no warning. */
static bool
is_utf8_name(const char *v, bool collation)
{
    size_t n = strlen(v);
    bool utf8 = strncasecmp(v, "utf8", 4) == 0;
    if (!collation) {
        return utf8 && (n == 4 || strcasecmp(v + 4, "mb3") == 0 || strcasecmp(v + 4, "mb4") == 0);
    }
    return utf8 && n > 4 && strcasecmp(v + n - 4, "_bin") == 0;
}

void
plan_ddl_col_key(plan_parse *pp, bool primary)
{
    plan_ddl *d = ddl_of(pp);
    const cat_column_def *c = cur_col(pp);
    if (primary) {
        d->col_pk = grow(pp->a, d->col_pk, d->ncol_pk, &d->cap_col_pk, sizeof *d->col_pk);
        d->col_pk[d->ncol_pk++] = c->name;
        return;
    }
    note_ignored(pp, arena_sprintf(pp->a, "UNIQUE KEY (%s): uniqueness is not enforced", c->name));
}

void
plan_ddl_col_charset(plan_parse *pp, const plan_token *c, bool collation)
{
    const char *v = plan_ast_ident(pp, c);
    if (!is_utf8_name(v, collation)) {
        note_ignored(pp,
                     arena_sprintf(pp->a, "%s %s (column %s)",
                                   collation ? "COLLATE" : "CHARACTER SET", v, cur_col(pp)->name));
    }
}

void
plan_ddl_table_option(plan_parse *pp, const char *name, const plan_token *value)
{
    plan_ddl *d = ddl_of(pp);
    const char *v = plan_ast_ident(pp, value); /* strings decoded, `names` unquoted */
    if (strcmp(name, "AUTO_INCREMENT") == 0) {
        d->auto_inc_opt = tok_int(value) > 0 ? tok_int(value) : 1;
        return;
    }
    if ((strcmp(name, "CHARSET") == 0 && is_utf8_name(v, false)) ||
        (strcmp(name, "COLLATE") == 0 && is_utf8_name(v, true))) {
        return;
    }
    char *up = arena_sprintf(pp->a, "%s", name);
    for (char *q = up; *q; q++) {
        *q = (char)(*q >= 'a' && *q <= 'z' ? *q - 32 : *q);
    }
    note_ignored(pp, arena_sprintf(pp->a, "%s=%s", up, v));
}

void
plan_ddl_index_using(plan_parse *pp, const plan_token *word)
{
    ddl_of(pp)->idx_using = plan_ast_ident(pp, word);
}

void
plan_ddl_index_comment(plan_parse *pp, const plan_token *c)
{
    ddl_of(pp)->idx_comment = tok_text(pp, c, false);
}

void
plan_ddl_index_props(plan_parse *pp)
{
    plan_ddl *d = ddl_of(pp);
    d->idx_props = d->props; /* an index's PROPERTIES: nothing else is pending here */
    d->nidx_props = d->nprops;
    d->props = NULL;
    d->nprops = d->cap_props = 0;
}

void
plan_ddl_index(plan_parse *pp, const plan_token *name, bool unique)
{
    plan_ddl *d = ddl_of(pp);
    const char **cols;
    size_t n;
    take_names(d, &cols, &n);
    d->idx_name = name ? plan_ast_ident(pp, name) : NULL;
    d->idx_cols = cols;
    d->nidx_cols = n;
    /* A Doris index type (USING INVERTED | BITMAP | NGRAM_BF) makes a stored definition; MySQL's
     * KEY / INDEX (no type, BTREE, HASH) and UNIQUE keys stay accepted and ignored. */
    uint8_t type;
    bool doris = !unique && d->idx_using != NULL && cat_index_type_parse(d->idx_using, &type);
    d->idx_last_doris = doris;
    if (doris) {
        d->idx_defs = grow(pp->a, d->idx_defs, d->nidx_defs, &d->cap_idx_defs, sizeof *d->idx_defs);
        cat_index_def *x = &d->idx_defs[d->nidx_defs++];
        memset(x, 0, sizeof *x);
        x->name = d->idx_name;
        x->type = type;
        x->cols = cols;
        x->ncols = n;
        x->props = d->idx_props;
        x->nprops = d->nidx_props;
        x->comment = d->idx_comment;
    }
    d->idx_using = NULL;
    d->idx_comment = NULL;
    d->idx_props = NULL;
    d->nidx_props = 0;
    if (doris) {
        return;
    }
    buf b;
    buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        buf_printf(&b, "%s%s", i ? ", " : "", cols[i]);
    }
    note_ignored(pp, arena_sprintf(pp->a, "%s%s%s (%.*s)%s", unique ? "UNIQUE KEY" : "KEY",
                                   name ? " " : "", name ? d->idx_name : "", (int)b.len,
                                   b.data ? (const char *)b.data : "",
                                   unique ? ": uniqueness is not enforced" : ""));
    buf_destroy(&b);
}

void
plan_ddl_part_by(plan_parse *pp, cat_part_type type)
{
    plan_ddl *d = ddl_of(pp);
    d->req.part_type = type;
    take_names(d, &d->req.part_cols, &d->req.npart_cols);
}

void
plan_ddl_value(plan_parse *pp, const plan_token *v, bool neg)
{
    plan_ddl *d = ddl_of(pp);
    d->vals = grow(pp->a, d->vals, d->nvals, &d->cap_vals, sizeof *d->vals);
    plan_part_value *pv = &d->vals[d->nvals++];
    pv->is_max = v == NULL;
    pv->is_null = v != NULL && v->type == TK_NULL;
    pv->text = v && !pv->is_null ? tok_text(pp, v, neg) : NULL;
}

void
plan_ddl_temp(plan_parse *pp)
{
    plan_ddl *d = ddl_of(pp);
    d->temp = true;
    d->temp_split = d->nnames;
}

void
plan_ddl_part(plan_parse *pp, const plan_token *name, cat_part_def_kind kind)
{
    plan_ddl *d = ddl_of(pp);
    d->parts = grow(pp->a, d->parts, d->nparts, &d->cap_parts, sizeof *d->parts);
    cat_partition_def *p = &d->parts[d->nparts++];
    memset(p, 0, sizeof *p);
    p->name = plan_ast_ident(pp, name);
    p->kind = (uint8_t)kind;
    switch (kind) {
    case CAT_PDEF_LESS_THAN:
        /* One bound per partition column; Rivulet partitions by one column. */
        if (d->nvals != 1) {
            syntax_error_at(pp, name);
            break;
        }
        p->upper_max = d->vals[0].is_max;
        p->upper = d->vals[0].text;
        break;
    case CAT_PDEF_FIXED:
        if (d->nvals != 2 || d->vals[0].is_max) {
            syntax_error_at(pp, name);
            break;
        }
        p->lower = d->vals[0].text;
        p->upper_max = d->vals[1].is_max;
        p->upper = d->vals[1].text;
        break;
    default: {
        const char **vs = arena_calloc(pp->a, d->nvals ? d->nvals : 1, sizeof *vs);
        for (size_t i = 0; i < d->nvals; i++) {
            if (d->vals[i].is_max) {
                syntax_error_at(pp, name);
            }
            vs[i] = d->vals[i].text;
        }
        p->values = vs;
        p->nvalues = d->nvals;
        break;
    }
    }
    d->vals = NULL;
    d->nvals = d->cap_vals = 0;
}

void
plan_ddl_part_buckets(plan_parse *pp, const plan_token *n)
{
    plan_ddl *d = ddl_of(pp);
    const char **names;
    size_t nn;
    take_names(d, &names, &nn); /* the partition keeps the table's distribution columns */
    if (d->nparts > 0) {
        int64_t v = tok_int(n);
        d->parts[d->nparts - 1].buckets = v > INT32_MAX ? INT32_MAX : (int32_t)v;
    }
}

void
plan_ddl_dist(plan_parse *pp, bool random)
{
    plan_ddl *d = ddl_of(pp);
    d->req.has_dist = true;
    d->req.dist_random = random;
    take_names(d, &d->req.dist_cols, &d->req.ndist_cols);
}

void
plan_ddl_buckets(plan_parse *pp, const plan_token *n)
{
    plan_ddl *d = ddl_of(pp);
    d->buckets_given = true;
    if (n) {
        int64_t v = tok_int(n);
        d->req.buckets_auto = false;
        d->req.buckets = v > INT32_MAX ? INT32_MAX : (int32_t)v;
    } else {
        d->req.buckets_auto = true;
        d->req.buckets = 0;
    }
}

void
plan_ddl_like(plan_parse *pp, const plan_token *db, const plan_token *name)
{
    plan_ddl *d = ddl_of(pp);
    d->req.like_db = db ? plan_ast_ident(pp, db) : NULL;
    d->req.like_table = plan_ast_ident(pp, name);
}

void
plan_ddl_colpos(plan_parse *pp, const plan_token *after, bool first)
{
    plan_ddl *d = ddl_of(pp);
    d->pos_after = after ? plan_ast_ident(pp, after) : NULL;
    d->pos_first = first;
}

void
plan_ddl_alter(plan_parse *pp, cat_alter_op op, const plan_token *n1, const plan_token *n2,
               const char *what)
{
    plan_ddl *d = ddl_of(pp);
    d->cmds = grow(pp->a, d->cmds, d->ncmds, &d->cap_cmds, sizeof *d->cmds);
    plan_alter_cmd *c = &d->cmds[d->ncmds++];
    memset(c, 0, sizeof *c);
    c->op = op;
    c->what = what;
    c->name = n1 ? plan_ast_ident(pp, n1) : NULL;
    if (n2) {
        if (n2->type == TK_STRING) {
            c->comment = tok_text(pp, n2, false);
        } else {
            c->name2 = plan_ast_ident(pp, n2);
        }
    }
    /* Take what the clause accumulated. */
    c->cols = d->cols;
    c->ncols = d->ncols;
    d->cols = NULL;
    d->ncols = d->cap_cols = 0;
    c->props = d->props;
    c->nprops = d->nprops;
    d->props = NULL;
    d->nprops = d->cap_props = 0;
    c->after = d->pos_after;
    c->first = d->pos_first;
    d->pos_after = NULL;
    d->pos_first = false;
    c->if_exists = d->if_exists;
    d->if_exists = false;
    c->temp = d->temp;
    d->temp = false;
    if (op == CAT_ALTER_REPLACE_PARTITION) {
        c->nformal = d->temp_split;
        take_names(d, &c->names, &c->nnames);
    }
    if (op == CAT_ALTER_ADD_PARTITION && d->nparts > 0) {
        c->part = d->parts[d->nparts - 1];
        d->nparts = 0;
    }
    if (op == CAT_ALTER_REORDER_COLUMNS) {
        take_names(d, &c->names, &c->nnames);
    }
    if (op == CAT_ALTER_CREATE_INDEX) { /* plan_ddl_index took the key parts */
        c->names = d->idx_cols;
        c->nnames = d->nidx_cols;
        if (d->idx_last_doris && d->nidx_defs > 0) {
            c->doris_idx = true;
            c->idx = d->idx_defs[--d->nidx_defs];
        }
        d->idx_last_doris = false;
    }
    /* DROP INDEX of a MySQL key (never stored) warns when it runs (plan_ddl.c). */
}

/* The stored definition of a view: `CREATE VIEW `name` [(`c`, ...)] AS ` + the select as
 * written (up to the end of the statement, without trailing blanks and ';'). */
void
plan_ddl_view(plan_parse *pp, const plan_token *as)
{
    plan_ddl *d = ddl_of(pp);
    size_t off = as->off + as->n;
    size_t end = pp->len;
    while (end > off &&
           (pp->sql[end - 1] == ';' || pp->sql[end - 1] == ' ' || pp->sql[end - 1] == '\t' ||
            pp->sql[end - 1] == '\n' || pp->sql[end - 1] == '\r')) {
        end--;
    }
    while (off < end && (pp->sql[off] == ' ' || pp->sql[off] == '\t' || pp->sql[off] == '\n' ||
                         pp->sql[off] == '\r')) {
        off++;
    }
    buf b;
    buf_init(&b);
    buf_printf(&b, "CREATE VIEW `%s`", d->name);
    for (size_t i = 0; i < d->nnames; i++) {
        buf_printf(&b, "%s`%s`", i ? ", " : " (", d->names[i]);
    }
    buf_printf(&b, "%s AS %.*s", d->nnames ? ")" : "", (int)(end - off), pp->sql + off);
    d->view_sql = arena_strndup(pp->a, (const char *)b.data, b.len);
    buf_destroy(&b);
}

void
plan_ddl_ctas(plan_parse *pp)
{
    ddl_of(pp)->ctas = true;
}
