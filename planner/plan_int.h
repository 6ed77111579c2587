/* SPDX-License-Identifier: Apache-2.0
 * plan_int.h: private to planner/. Tokens, the AST the grammar builds, typed values, the
 * analysed (typed) expression tree, the system variable registry, and the session/server
 * structs. Cross-file functions are plan__name. See README.md §Data structures. */
#ifndef PLANNER_PLAN_INT_H
#define PLANNER_PLAN_INT_H

#include "planner/planner.h"

#include <locale.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/db_error.h"

/* ======================================================================================
 * Tokens (plan_tokenize.c). Token codes are the TK_* of the generated planner/parse.h.
 * ====================================================================================== */

typedef struct plan_token {
    int type;      /* TK_* (0 = end of input) */
    const char *z; /* first byte in the statement text */
    uint32_t n;    /* bytes */
    uint32_t off;  /* offset of z from the start of the statement */
} plan_token;

typedef struct plan_lexer {
    const char *sql;
    size_t len;
    size_t pos;           /* next byte to scan */
    bool in_exec_comment; /* inside a MySQL executable comment; its closing star-slash is blank */
    bool no_backslash_escapes; /* sql_mode NO_BACKSLASH_ESCAPES */
    bool ansi_quotes;          /* sql_mode ANSI_QUOTES: "x" is an identifier */
} plan_lexer;

/* Start scanning sql[0..len). */
void plan__lexer_init(plan_lexer *lx, const char *sql, size_t len);
/* Next token, including TK_SPACE, TK_COMMENT and TK_HINT; type 0 at the end. An unterminated
 * string, quoted identifier or comment is TK_ILLEGAL running to the end of the input. */
void plan__lexer_next(plan_lexer *lx, plan_token *t);
/* Keyword token for word[0..n) (case-insensitive), or 0. */
int plan__keyword(const char *word, size_t n);

/* Decode a STRING token (quotes, doubled quotes, backslash escapes) into a. */
char *plan__string_decode(arena *a, const plan_token *t, bool no_backslash_escapes, size_t *len);
/* Decode an identifier token (backquoted or plain, or ANSI-quoted) into a. */
char *plan__ident_decode(arena *a, const plan_token *t);

/* ======================================================================================
 * AST (plan_ast.c): what the grammar builds. All nodes live in the statement arena.
 * ====================================================================================== */

/* Operators of PA_UNARY / PA_BINARY / PA_IS / PA_SUBQUERY nodes and of the typed expressions made
 * from them (plan_ast.op, plan_ast.cmp, plan_expr.op). Planner-owned, so the analyzer and the
 * evaluators do not depend on the grammar's TK_* codes: the grammar actions (parse.y) name them. */
typedef enum plan_xop {
    XOP_NONE = 0,
    XOP_PLUS,   /* binary +, unary + */
    XOP_MINUS,  /* binary -, unary - */
    XOP_MUL,    /* * */
    XOP_DIV,    /* / */
    XOP_INTDIV, /* DIV */
    XOP_MOD,    /* MOD, % */
    XOP_BITAND,
    XOP_BITOR,
    XOP_BITXOR,
    XOP_LSHIFT,
    XOP_RSHIFT,
    XOP_BITNOT, /* unary ~ */
    XOP_NOT,    /* unary NOT, ! */
    XOP_EQ,
    XOP_NSEQ, /* <=> */
    XOP_NE,
    XOP_LT,
    XOP_LE,
    XOP_GT,
    XOP_GE,
    XOP_AND, /* AND, && */
    XOP_OR,  /* OR, || without PIPES_AS_CONCAT */
    XOP_XOR,
    XOP_CONCAT,   /* || under PIPES_AS_CONCAT */
    XOP_IS_NULL,  /* PA_IS: IS [NOT] NULL, IS [NOT] UNKNOWN */
    XOP_IS_TRUE,  /* PA_IS: IS [NOT] TRUE */
    XOP_IS_FALSE, /* PA_IS: IS [NOT] FALSE */
} plan_xop;

/* Units of INTERVAL / EXTRACT / TIMESTAMPADD / TIMESTAMPDIFF (the op of a %interval or extract
 * node) and of the Doris <unit>s_add/_diff functions. plan__unit_of_token (plan_ast.c) is the one
 * translation from the grammar's unit tokens. */
typedef enum plan_unit {
    PLAN_UNIT_NONE = 0,
    PLAN_UNIT_MICROSECOND,
    PLAN_UNIT_SECOND,
    PLAN_UNIT_MINUTE,
    PLAN_UNIT_HOUR,
    PLAN_UNIT_DAY,
    PLAN_UNIT_WEEK,
    PLAN_UNIT_MONTH,
    PLAN_UNIT_QUARTER,
    PLAN_UNIT_YEAR,
    PLAN_UNIT_SECOND_MICROSECOND,
    PLAN_UNIT_MINUTE_MICROSECOND,
    PLAN_UNIT_MINUTE_SECOND,
    PLAN_UNIT_HOUR_MICROSECOND,
    PLAN_UNIT_HOUR_SECOND,
    PLAN_UNIT_HOUR_MINUTE,
    PLAN_UNIT_DAY_MICROSECOND,
    PLAN_UNIT_DAY_SECOND,
    PLAN_UNIT_DAY_MINUTE,
    PLAN_UNIT_DAY_HOUR,
    PLAN_UNIT_YEAR_MONTH,
} plan_unit;

/* The plan_unit of an interval unit token (TK_YEAR ...); PLAN_UNIT_NONE for any other token. */
plan_unit plan__unit_of_token(int type);

typedef enum plan_ast_kind {
    PA_INT,     /* integer literal: text */
    PA_DECIMAL, /* exact literal with a point: text */
    PA_FLOAT,   /* approximate literal (with exponent): text */
    PA_STRING,  /* str/len decoded */
    PA_HEX,     /* X'..' or 0x..: decoded bytes in str/len */
    PA_BIT,     /* b'..' or 0b..: decoded bytes in str/len */
    PA_NULL,
    PA_BOOL,          /* op = 1 for TRUE, 0 for FALSE */
    PA_COLUMN,        /* name; qual = table qualifier or NULL */
    PA_SYSVAR,        /* name; op = PLAN_SCOPE_* as written */
    PA_USERVAR,       /* name */
    PA_ASSIGN,        /* @name := args[0] */
    PA_UNARY,         /* op: XOP_MINUS, XOP_PLUS, XOP_BITNOT, XOP_NOT */
    PA_BINARY,        /* op: arithmetic, comparison, logic or bit plan_xop */
    PA_IS,            /* args[0] IS [NOT] op (XOP_IS_NULL/TRUE/FALSE) */
    PA_BETWEEN,       /* args[0] [NOT] BETWEEN args[1] AND args[2] */
    PA_IN,            /* args[0] [NOT] IN (args[1..]) */
    PA_LIKE,          /* args[0] [NOT] LIKE args[1] [ESCAPE args[2]] */
    PA_CASE,          /* has_operand: args[0]; then WHEN/THEN pairs; has_else: last */
    PA_FUNC,          /* name(args); op = TRIM mode for trim */
    PA_CAST,          /* CAST(args[0] AS cast) / CONVERT(args[0], cast) */
    PA_CONVERT_USING, /* CONVERT(args[0] USING name) */
    PA_COLLATE,       /* args[0] COLLATE name */
    PA_STAR,          /* a bare star argument, as in COUNT(*) */
    PA_PARAM,         /* '?' placeholder: op = its 0-based number in source order */
    PA_WINDOW,        /* name(...) OVER (...): win describes the window; args = the call's
                         win->nfargs arguments, then win->npart PARTITION BY expressions, then
                         win->norder ORDER BY expressions (plan_window.c) */
    PA_SUBQUERY,      /* (SELECT ...) in an expression: op = PLAN_SUBQ_*, sub = its statement;
                         IN / ANY / ALL: args[0] the left operand, cmp the operator (plan_xop),
                         negated for NOT IN (plan_subquery.c) */
} plan_ast_kind;

/* Kinds of subquery expressions (plan_ast.op of PA_SUBQUERY). */
enum { PLAN_SUBQ_SCALAR, PLAN_SUBQ_EXISTS, PLAN_SUBQ_IN, PLAN_SUBQ_ANY, PLAN_SUBQ_ALL };
/* Row constructors (plan_subquery.c): PLAN_SUBQ_ROW is a row (args = its elements, sub NULL)
 * where one value is needed: its analysis is 1241 "Operand should contain <cmp> column(s)";
 * PLAN_SUBQ_ROWCMP is (args...) cmp (SELECT ...) with one row expected. A row operand of IN
 * puts its elements in args (nargs > 1). */
enum { PLAN_SUBQ_ROW = 16, PLAN_SUBQ_ROWCMP = 17 };

typedef enum plan_cast_kind {
    PLAN_CAST_SIGNED,
    PLAN_CAST_UNSIGNED,
    PLAN_CAST_CHAR,
    PLAN_CAST_BINARY,
    PLAN_CAST_DECIMAL,
    PLAN_CAST_DOUBLE,
    PLAN_CAST_DATE,
    PLAN_CAST_DATETIME,
    PLAN_CAST_TIME,
    PLAN_CAST_INT,     /* Doris INT, INTEGER, TINYINT, SMALLINT, BIGINT, LARGEINT (see type) */
    PLAN_CAST_BOOLEAN, /* Doris BOOLEAN / BOOL */
    PLAN_CAST_FLOAT,   /* Doris FLOAT (single precision) */
    PLAN_CAST_VARCHAR, /* Doris VARCHAR[(n)], STRING, TEXT (see type) */
    PLAN_CAST_JSON,    /* Doris JSON / JSONB: validated and normalized, NULL when invalid */
} plan_cast_kind;

typedef struct plan_cast {
    plan_cast_kind kind;
    int64_t len;    /* CHAR(n)/BINARY(n)/VARCHAR(n): n, or -1; DECIMAL: precision or -1 */
    int64_t scale;  /* DECIMAL scale or -1; DATETIME/TIME fsp or -1 */
    plan_type type; /* PLAN_CAST_INT: the integer type; PLAN_CAST_VARCHAR: VARCHAR or STRING */
    bool doris;     /* Doris conversion rules (plan_cast.c): invalid or out-of-range input is
                       NULL without a warning; numbers truncate toward zero into integers */
} plan_cast;

enum { PLAN_TRIM_BOTH = 0, PLAN_TRIM_LEADING = 1, PLAN_TRIM_TRAILING = 2 };

/* A window frame bound (MySQL 8): UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING,
 * UNBOUNDED FOLLOWING. */
enum {
    PLAN_FB_UNBOUNDED_PRECEDING,
    PLAN_FB_PRECEDING,
    PLAN_FB_CURRENT,
    PLAN_FB_FOLLOWING,
    PLAN_FB_UNBOUNDED_FOLLOWING,
};
typedef struct plan_frame_bound {
    uint8_t kind;         /* PLAN_FB_* */
    uint64_t n;           /* rows for ROWS n PRECEDING / FOLLOWING (an integer literal) */
    struct plan_ast *val; /* PRECEDING / FOLLOWING: the offset as written (a number literal
                             or an INTERVAL node, "%interval"); NULL for the other kinds */
    uint32_t dir_off;     /* the PRECEDING / FOLLOWING word: its offset (syntax errors) */
} plan_frame_bound;
/* unit 0: no frame clause (the default frame); 1 ROWS; 2 RANGE. */
typedef struct plan_window_frame {
    uint8_t unit;
    plan_frame_bound start, end;
} plan_window_frame;
/* The OVER (...) clause of a PA_WINDOW node (statement arena). */
typedef struct plan_window_spec {
    const char *name;                   /* WINDOW name AS (...): the name (messages), else NULL */
    const char *base;                   /* (base ...): the window it refines, else NULL; cleared
                                           once the block's windows are resolved */
    uint32_t nfargs, npart, norder;     /* layout of the node's args */
    uint64_t desc_mask;                 /* bit i set = ORDER BY item i DESC */
    struct plan_ast_list *part, *order; /* as parsed; merged into args by plan_ast_window */
    plan_window_frame frame;
} plan_window_spec;

/* The OVER clause as parsed: OVER (spec) (w set) or OVER name (w NULL, name the token); end is
 * the token that ends it. */
typedef struct plan_wover {
    struct plan_window_spec *w;
    plan_token name;
    plan_token end;
} plan_wover;

typedef struct plan_ast plan_ast;
struct plan_ast {
    plan_ast_kind kind;
    int op;              /* see plan_ast_kind */
    bool negated;        /* NOT BETWEEN / NOT IN / NOT LIKE / IS NOT */
    bool has_operand;    /* CASE x WHEN ... */
    bool has_else;       /* CASE ... ELSE */
    bool has_parens;     /* function: written with (); other nodes: parenthesised */
    const char *name;    /* identifier, function name (as written), variable name, literal text */
    const char *qual;    /* qualifier of a column (table), or COLLATE/USING name */
    const char *db_qual; /* database qualifier of a column (db.tbl.col), or NULL */
    const char *str;     /* decoded string / hex / bit bytes */
    size_t len;          /* bytes of str */
    plan_ast **args;
    uint32_t nargs;
    plan_cast cast;
    uint32_t off, end; /* source span [off, end) in the statement text */
    /* Aggregate calls (PA_FUNC): COUNT(DISTINCT ...), GROUP_CONCAT(... ORDER BY ... SEPARATOR) */
    bool agg_distinct;
    bool has_sep;                    /* GROUP_CONCAT SEPARATOR given */
    struct plan_ast_list *agg_order; /* GROUP_CONCAT ORDER BY items (desc_mask), or NULL */
    const char *sep;                 /* decoded separator */
    size_t sep_len;
    struct plan_stmt *sub; /* PA_SUBQUERY: the nested SELECT */
    plan_window_spec *win; /* PA_WINDOW: the window */
    int cmp;               /* PA_SUBQUERY ANY / ALL: comparison plan_xop (XOP_EQ, ...) */
};

typedef struct plan_ast_list {
    plan_ast **items;
    uint32_t n, cap;
    uint64_t desc_mask; /* GROUP_CONCAT ORDER BY: bit i set = item i DESC */
} plan_ast_list;

typedef enum plan_scope {
    PLAN_SCOPE_DEFAULT = 0, /* unqualified: session for SET/@@x */
    PLAN_SCOPE_SESSION = 1,
    PLAN_SCOPE_GLOBAL = 2,
} plan_scope;

typedef struct plan_select_item {
    plan_ast *expr;        /* NULL for a star */
    const char *alias;     /* NULL when none */
    const char *star_qual; /* t.* qualifier */
    const char *star_db;   /* db.t.* database qualifier */
    bool is_star;
} plan_select_item;

typedef struct plan_table_ref {
    const char *db; /* NULL when unqualified */
    const char *name;
    const char *alias;     /* NULL when none */
    const plan_ast *as_of; /* FOR VERSION AS OF x (as_of->negated: FOR TIME AS OF x), or NULL */
    /* How this table joins the ones before it in FROM (left-deep: tables[0..i) JOIN tables[i]);
     * PLAN_JOIN_CROSS for the first table, commas and CROSS JOIN without ON. */
    uint8_t join;            /* plan_join_type */
    bool natural;            /* NATURAL [LEFT|RIGHT] JOIN */
    plan_ast *on;            /* ON condition, or NULL */
    const char **using_cols; /* USING (a, b): names, or NULL */
    uint32_t nusing, cap_using;
    struct plan_stmt *sub; /* a derived table (SELECT ...) AS alias: its statement, else NULL */
    /* binlog("k" = "v", ...): tvf is the function name (name is NULL); t@incr("k" = "v"):
     * scan_fn is "incr" (without the @). Parameters in order, keys and values decoded. */
    const char *tvf;
    const char *scan_fn;
    const char **pkeys, **pvals;
    uint32_t nparams;
    const char **parts; /* t PARTITION (p1, p2): the partitions read; NULL = all */
    uint32_t nparts;
    bool temp_parts; /* t TEMPORARY PARTITION (tp, ...): parts name temporary partitions */
} plan_table_ref;

typedef enum plan_join_type {
    PLAN_JOIN_CROSS, /* no condition (comma, CROSS JOIN); ON makes it inner */
    PLAN_JOIN_INNER,
    PLAN_JOIN_LEFT,
    PLAN_JOIN_RIGHT,
    PLAN_JOIN_FULL,
} plan_join_type;

/* WITH name AS (SELECT ...): a common table expression of a statement. */
typedef struct plan_cte {
    const char *name;
    struct plan_stmt *st;
} plan_cte;

typedef enum plan_set_kind {
    PLAN_SET_SYSVAR,  /* name = value (value NULL = DEFAULT) */
    PLAN_SET_USERVAR, /* @name = value */
    PLAN_SET_NAMES,   /* NAMES charset [COLLATE c] (charset NULL = DEFAULT) */
    PLAN_SET_CHARSET, /* CHARACTER SET charset (NULL = DEFAULT) */
} plan_set_kind;

typedef struct plan_set_item {
    plan_set_kind kind;
    plan_scope scope;      /* effective scope after carrying GLOBAL/SESSION forward */
    const char *name;      /* variable name; charset name */
    const char *collation; /* SET NAMES ... COLLATE */
    plan_ast *value;       /* NULL = DEFAULT */
    bool value_is_word;    /* value was ON/ALL or a bare word: take its text */
    const char *word;      /* that text */
} plan_set_item;

typedef enum plan_stmt_kind {
    PS_SELECT,
    PS_SET,
    PS_SET_TRANSACTION,
    PS_SHOW_VARIABLES,
    PS_SHOW_STATUS,
    PS_SHOW_WARNINGS,
    PS_SHOW_ERRORS,
    PS_SHOW_COUNT_WARNINGS,
    PS_SHOW_COUNT_ERRORS,
    PS_SHOW_PROCESSLIST,
    PS_SHOW_DATABASES,
    PS_SHOW_TABLES,
    PS_SHOW_CHARSET,
    PS_SHOW_COLLATION,
    PS_SHOW_ENGINES,
    PS_KILL,
    PS_USE,
    PS_BEGIN,
    PS_COMMIT,
    PS_ROLLBACK,
    PS_UNSUPPORTED,   /* parsed but not implemented: ER_NOT_SUPPORTED_YET with name */
    PS_PREPARE,       /* PREPARE name FROM 'text' | @var */
    PS_EXECUTE,       /* EXECUTE name [USING @a, ...] */
    PS_DEALLOCATE,    /* {DEALLOCATE | DROP} PREPARE name */
    PS_DCL,           /* users and privileges: stmt->dcl (plan_dcl.c) */
    PS_DDL,           /* DDL and catalog SHOW statements: stmt->ddl (plan_ddl_int.h) */
    PS_INSERT,        /* INSERT INTO t [(cols)] VALUES ... | SELECT ... (plan_dml.c) */
    PS_UPDATE,        /* UPDATE t SET c = e, ... [WHERE] */
    PS_DELETE,        /* DELETE FROM t [PARTITION ...] [WHERE] */
    PS_ADMIN_COMPACT, /* ADMIN COMPACT TABLE t [PARTITION p] WHERE type = '...' */
} plan_stmt_kind;

/* Isolation levels in the order of the tx_isolation enum. */
enum { PLAN_ISO_NONE = -1 };
/* Access modes for SET TRANSACTION / START TRANSACTION. */
enum { PLAN_ACCESS_NONE = 0, PLAN_ACCESS_READ_ONLY = 1, PLAN_ACCESS_READ_WRITE = 2 };

typedef struct plan_stmt {
    plan_stmt_kind kind;
    /* SELECT */
    plan_select_item *items;
    uint32_t nitems, cap_items;
    plan_table_ref *tables;
    uint32_t ntables, cap_tables;
    uint32_t comma_at;    /* FROM: the first table after the last comma outside parentheses (0 =
                             none): MySQL binds JOIN tighter than a comma, so a RIGHT / FULL JOIN
                             after it is refused (the left-deep list would join it to the tables
                             before the comma as well) */
    plan_ast *where;      /* SELECT ... WHERE, SHOW ... WHERE */
    plan_ast_list *order; /* SELECT ... ORDER BY items, or NULL */
    bool *order_desc;     /* per ORDER BY item: DESC */
    uint8_t *order_nulls; /* per ORDER BY item: 0 default, 1 NULLS FIRST, 2 NULLS LAST */
    uint32_t cap_order_desc, cap_order_nulls;
    plan_ast_list *group; /* GROUP BY items, or NULL */
    /* Super-aggregates: PLAN_GK_ROLLUP / CUBE over group, or PLAN_GK_SETS with gsets (each
     * set a list, NULL for `()`); 0 = plain GROUP BY. */
    uint8_t gkind;
    plan_ast_list **gsets;
    uint32_t ngsets, cap_gsets;
    plan_ast *having; /* HAVING condition, or NULL */
    bool has_limit;
    uint64_t limit_count;
    uint64_t limit_offset;
    /* LIMIT ? [OFFSET ?] of a prepared statement: placeholder number + 1 of the count / the
     * offset (0 = the literal above); plan__stmt_limit binds them at execution. */
    uint32_t limit_count_pix, limit_offset_pix;
    /* A derived table's, CTE's or view's column list (`t(a, b)`): the names of its columns
     * instead of the select items' (ncolnames of them; 0 = none). */
    const char **colnames;
    uint32_t ncolnames;
    bool distinct;
    /* Nested SELECTs (derived tables, CTE bodies): the enclosing statement, else NULL. */
    struct plan_stmt *parent;
    plan_cte *ctes; /* WITH list, in order (a CTE sees the ones before it) */
    uint32_t nctes, cap_ctes;
    /* SET */
    plan_set_item *sets;
    uint32_t nsets, cap_sets;
    /* SET TRANSACTION / START TRANSACTION */
    plan_scope scope; /* also SHOW [GLOBAL|SESSION] */
    int isolation;    /* PLAN_ISO_NONE or 0..3 */
    int access;       /* PLAN_ACCESS_* */
    /* SHOW */
    bool full;
    const char *like; /* SHOW ... LIKE pattern (decoded) or NULL */
    size_t like_len;
    /* KILL */
    plan_ast *target;
    bool query_only;
    /* USE, SHOW TABLES FROM db */
    const char *name;
    /* PS_UNSUPPORTED: what to name in the error */
    const char *what;
    /* '?' placeholders in the statement (only when parsed for a prepared statement) */
    uint16_t nparams;
    /* PREPARE: the statement text (string literal or user variable); EXECUTE ... USING */
    plan_ast *prep_text;
    const char **using_vars; /* user variable names */
    uint32_t nusing, cap_using;
    /* PS_DCL */
    struct plan_dcl *dcl;
    /* PS_DDL */
    struct plan_ddl *ddl;
    /* INSERT / UPDATE / DELETE: target table, column list (INSERT columns, UPDATE assigned
     * columns), VALUES rows (row r is dml_values[dml_row_start[r] .. dml_row_start[r + 1]);
     * NULL entries are DEFAULT), UPDATE values (one per column), PARTITION names, label. */
    plan_table_ref dml_table;
    bool dml_has_cols;
    bool dml_select;  /* INSERT ... SELECT: the SELECT fields above are the source */
    bool dml_replace; /* REPLACE (a PS_INSERT): a UNIQUE table's upsert, full rows */
    const char **dml_cols;
    uint32_t ndml_cols, cap_dml_cols;
    plan_ast **dml_values;
    uint32_t ndml_values, cap_dml_values;
    uint32_t *dml_row_start; /* ndml_rows + 1 entries once parsed */
    uint32_t ndml_rows, cap_dml_rows;
    const char **dml_parts;
    uint32_t ndml_parts, cap_dml_parts;
    bool dml_temp_parts; /* TEMPORARY PARTITION (tp, ...): dml_parts are temporary ones */
    const char *label;
    /* The optimizer hint comment right after the first keyword (SELECT / INSERT / UPDATE /
     * DELETE): the text between its opening slash-star-plus and closing star-slash, or NULL.
     * Its SET_VAR list is parsed and applied when the statement runs (plan_hint.c). */
    const char *hint;
    uint32_t hint_len;
    uint32_t hint_off; /* offset of the hint text in the statement (error line numbers) */
    uint8_t explain;   /* PS_SELECT under EXPLAIN: PLAN_EXPLAIN_* (0 = run it) */
    /* Set operations (plan_setop.c): a statement with setop != PLAN_SETOP_NONE has no select
     * list of its own; it combines setop_left and setop_right (PLAN_SETOP_PAREN: setop_left
     * alone, a parenthesised query) and its ORDER BY / LIMIT fields apply to the result. */
    uint8_t setop;                 /* PLAN_SETOP_* */
    bool setop_all;                /* UNION / EXCEPT / INTERSECT ALL */
    uint8_t setop_misuse;          /* 1221: ORDER BY (1) / LIMIT (2) before a set operation */
    struct plan_stmt *setop_left;  /* first operand */
    struct plan_stmt *setop_right; /* second operand */
} plan_stmt;

/* Query expressions as the grammar builds them (plan_query.c), bottom-up: each value is one
 * statement (a query block, a set operation, or a PLAN_SETOP_PAREN wrapper of a query with the
 * ORDER BY / LIMIT written after its parentheses). */
typedef struct plan_qexpr {
    plan_stmt *st;
    uint32_t off, end; /* parenthesised: the span from its '(' to its ')' */
    bool paren;        /* written in parentheses: its ORDER BY / LIMIT are its own */
} plan_qexpr;

enum {
    PLAN_SETOP_NONE = 0,
    PLAN_SETOP_UNION,
    PLAN_SETOP_EXCEPT,
    PLAN_SETOP_INTERSECT,
    PLAN_SETOP_PAREN,
};

/* EXPLAIN forms (plan_explain.c). */
enum { PLAN_EXPLAIN_NONE = 0, PLAN_EXPLAIN_PLAIN, PLAN_EXPLAIN_VERBOSE, PLAN_EXPLAIN_ANALYZE };

/* Parse state, the %extra_context of the grammar. */
typedef struct plan_parse {
    arena *a;
    const char *sql;
    size_t len;
    plan_stmt *stmt;      /* the statement being built */
    plan_scope set_scope; /* SET: scope carried to the following assignments */
    bool no_backslash_escapes;
    bool pipes_as_concat;
    size_t text_len;         /* bytes of the whole query text (>= len) for error quotes */
    bool in_multi;           /* quote MySQL's way for one statement of a multi-statement text */
    bool failed;             /* the grammar reported a syntax error or stack overflow */
    bool overflow;           /* the error was a parser stack overflow */
    bool allow_params;       /* '?' placeholders are allowed (a statement being prepared) */
    bool too_many_params;    /* more than 65535 placeholders */
    uint32_t nparams;        /* placeholders numbered so far */
    plan_token bad;          /* the token at the syntax error */
    const char *bad_catalog; /* a catalog.db.tbl name whose catalog is not `internal` */
    const char *bad_literal_type;     /* a typed literal whose text is not a value: "DATE", ... */
    const char *bad_literal;          /* ... and that text */
    struct plan_pend_cols *pend_cols; /* column lists being parsed, innermost first */
    /* Parenthesised join trees: the open ones (their statement and first table index),
     * innermost last; and the last one closed: its statement and table range [start, end). */
    struct plan_jgroup {
        const struct plan_stmt *st;
        uint32_t start;
    } * group_starts;
    uint32_t ngroups, cap_groups;
    const struct plan_stmt *group_st;
    uint32_t group_start, group_end;
    /* Windows: OVER clauses waiting for their block's WINDOW clause (any query block), the
     * windows that take part in refinement (WINDOW definitions and OVER (base ...)) of the
     * blocks being parsed, and the first error (ER_WINDOW_* or 1235, its arguments). */
    struct plan_wref *wrefs;
    struct plan_wdef *wdefs;
    uint32_t nwdefs; /* windows recorded so far (plan_wdef.seq) */
    int window_err;
    const char *window_err_name, *window_err_name2;
    bool full_pending; /* `t FULL JOIN`: FULL came in as t's alias (a fallback keyword) */
    /* "k" = "v" parameters of a table function / scan being parsed (plan_binlog.c) */
    const char **tvf_keys, **tvf_vals;
    uint32_t ntvf, cap_tvf;
    const char **sel_parts; /* PARTITION (p, ...) of a FROM item being parsed */
    uint32_t nsel_parts, cap_sel_parts;
    bool sel_temp; /* ... TEMPORARY PARTITION (...) */
} plan_parse;

/* Parse one statement of sql[0..len) into *stmt (allocated in a). ER_PARSE_ERROR,
 * ER_EMPTY_QUERY. */
int plan__parse(arena *a, const char *sql, size_t len, bool no_backslash_escapes, bool ansi_quotes,
                bool pipes_as_concat, plan_stmt **stmt, db_error *err);
/* plan__parse for a statement being prepared: '?' placeholders are allowed and numbered
 * ((*stmt)->nparams); more than 65535 is ER_PS_MANY_PARAM. */
int plan__parse_prepared(arena *a, const char *sql, size_t len, bool no_backslash_escapes,
                         bool ansi_quotes, bool pipes_as_concat, plan_stmt **stmt, db_error *err);
/* plan__parse for one statement sql[0..len) of a longer text sql[0..text_len): a syntax error
 * quotes from the bad token to the end of the text without its trailing blanks and ';', and
 * counts lines from the statement's first non-blank byte (MySQL's multi-statement texts). */
int plan__parse_in(arena *a, const char *sql, size_t len, size_t text_len,
                   bool no_backslash_escapes, bool ansi_quotes, bool pipes_as_concat,
                   plan_stmt **stmt, db_error *err);

/* Builders called from grammar actions (plan_ast.c). Spans come from tokens and children. */
plan_ast *plan_ast_new(plan_parse *pp, plan_ast_kind kind, const plan_token *first,
                       const plan_token *last);
plan_ast *plan_ast_literal(plan_parse *pp, plan_ast_kind kind, const plan_token *t);
plan_ast *plan_ast_string(plan_parse *pp, const plan_token *t);
/* DATE / TIME / TIMESTAMP (kw) 'text': the text cast to that type; text that is not such a
 * value makes the statement fail with ER_WRONG_VALUE (1525), as MySQL. */
plan_ast *plan_ast_typed_literal(plan_parse *pp, const plan_token *kw, const plan_token *str);
plan_ast *plan_ast_string_append(plan_parse *pp, plan_ast *s, const plan_token *t);
plan_ast *plan_ast_column(plan_parse *pp, const plan_token *db, const plan_token *qual,
                          const plan_token *name);
plan_ast *plan_ast_sysvar(plan_parse *pp, const plan_token *t);
plan_ast *plan_ast_uservar(plan_parse *pp, const plan_token *t);
plan_ast *plan_ast_assign(plan_parse *pp, const plan_token *var, plan_ast *value);
plan_ast *plan_ast_unary(plan_parse *pp, int op, const plan_token *optok, plan_ast *x);
plan_ast *plan_ast_binary(plan_parse *pp, int op, plan_ast *l, plan_ast *r);
plan_ast *plan_ast_is(plan_parse *pp, plan_ast *x, bool negated, int what, const plan_token *last);
plan_ast *plan_ast_between(plan_parse *pp, plan_ast *x, bool negated, plan_ast *lo, plan_ast *hi);
plan_ast *plan_ast_in(plan_parse *pp, plan_ast *x, bool negated, plan_ast_list *list,
                      const plan_token *rp);
plan_ast *plan_ast_like(plan_parse *pp, plan_ast *x, bool negated, plan_ast *pat, plan_ast *esc);
plan_ast *plan_ast_case(plan_parse *pp, const plan_token *casetok, plan_ast *operand,
                        plan_ast_list *whens, plan_ast *els, const plan_token *endtok);
plan_ast *plan_ast_func(plan_parse *pp, const plan_token *name, const char *canon,
                        plan_ast_list *args, const plan_token *last, bool has_parens);
plan_ast *plan_ast_cast(plan_parse *pp, const plan_token *first, plan_ast *x, plan_cast cast,
                        const plan_token *last);
plan_ast *plan_ast_convert_using(plan_parse *pp, const plan_token *first, plan_ast *x,
                                 const plan_token *cs, const plan_token *last);
plan_ast *plan_ast_collate(plan_parse *pp, plan_ast *x, const plan_token *name);
plan_ast *plan_ast_paren(plan_parse *pp, const plan_token *lp, plan_ast *x, const plan_token *rp);
plan_ast *plan_ast_star(plan_parse *pp, const plan_token *t);
plan_ast *plan_ast_param(plan_parse *pp, const plan_token *t);
plan_ast_list *plan_ast_list_add(plan_parse *pp, plan_ast_list *l, plan_ast *x);
plan_cast plan_ast_cast_type(plan_parse *pp, plan_cast_kind kind, const plan_token *len,
                             const plan_token *scale);
/* A cast type written as a word (INT, TINYINT, VARCHAR, DECIMALV3, ...) with up to two
 * arguments; an unknown word or wrong arguments is a syntax error at the word. */
plan_cast plan_ast_cast_named(plan_parse *pp, const plan_token *name, const plan_token *len,
                              const plan_token *scale);
uint64_t plan_ast_uint(plan_parse *pp, const plan_token *t);
const char *plan_ast_ident(plan_parse *pp, const plan_token *t);

plan_stmt *plan_stmt_begin(plan_parse *pp, plan_stmt_kind kind);
void plan_stmt_select_item(plan_parse *pp, plan_ast *x, const plan_token *alias, bool is_string);
void plan_stmt_select_star(plan_parse *pp, const plan_token *db, const plan_token *qual);
/* The catalog of a catalog.db.tbl name (only `internal` is accepted, checked after parsing). */
void plan_ast_catalog(plan_parse *pp, const plan_token *ctl);
void plan_stmt_table(plan_parse *pp, const plan_token *db, const plan_token *name,
                     const plan_token *alias);
/* One ORDER BY item; nulls: 0 default, 1 NULLS FIRST, 2 NULLS LAST. */
void plan_stmt_order(plan_parse *pp, plan_ast *x, bool desc, int nulls);
/* NULLS FIRST (1) / NULLS LAST (2); anything else is a syntax error at the word. */
int plan_ast_nulls(plan_parse *pp, const plan_token *nulls, const plan_token *which);
/* An aggregate call with DISTINCT / ORDER BY / SEPARATOR (sepword checked to be SEPARATOR when
 * given; sepstr the separator literal or NULL). */
plan_ast *plan_ast_agg(plan_parse *pp, const plan_token *name, bool distinct, plan_ast_list *args,
                       plan_ast_list *order, const plan_token *sepword, const plan_token *sepstr,
                       const plan_token *last);
/* Window functions: fn (a plan_ast_func call) OVER (w) ending at rp becomes a PA_WINDOW node
 * (w's layout recorded in it); the spec of PARTITION BY part, ORDER BY order (desc_mask) and
 * frame; a frame of unit word ROWS / RANGE; a bound `UNBOUNDED PRECEDING|FOLLOWING`, `CURRENT
 * ROW`, `n PRECEDING|FOLLOWING` (a is the first token, b the word). Wrong words are syntax
 * errors at the word. */
plan_ast *plan_ast_window(plan_parse *pp, plan_ast *fn, plan_window_spec *w, const plan_token *rp);
/* fn followed by its OVER clause o. OVER name, and OVER (base ...) refining a named window, are
 * resolved against the WINDOW clause of the query block being parsed when that block ends
 * (plan_stmt_windows_resolve); until then fn is a PA_WINDOW node without partition or order.
 * GROUP_CONCAT and DISTINCT calls are 1235 (MySQL 8). */
plan_ast *plan_ast_over(plan_parse *pp, plan_ast *fn, const plan_wover *o);
/* WINDOW name AS (spec) of the query block being parsed. */
void plan_stmt_window_def(plan_parse *pp, const plan_token *name, plan_window_spec *w);
enum { PLAN_GK_NONE, PLAN_GK_ROLLUP, PLAN_GK_CUBE, PLAN_GK_SETS };
/* One set of GROUPING SETS (NULL: the empty set). */
void plan_stmt_gset(plan_parse *pp, plan_ast_list *set);
/* A name of a derived table's / CTE's column list (first: it starts the list). */
void plan_stmt_pending_col(plan_parse *pp, const plan_token *name, bool first);
/* ... AS alias (cols): the derived table, with the list parsed last. */
void plan_stmt_derived_cols(plan_parse *pp, plan_qexpr q, const plan_token *alias);
/* name (cols) AS (select): the CTE, with the list parsed last. */
void plan_stmt_cte_cols(plan_parse *pp, const plan_token *name, plan_qexpr q);
/* The query block pp->stmt ends: checks its windows as MySQL 8 does (3579, 3580, 3581, 3583,
 * 3582, then 3591) and gives every OVER clause of it its window's effective spec. */
void plan_stmt_windows_resolve(plan_parse *pp);
/* A window spec: base the name it refines (NULL: none), then its own parts. */
plan_window_spec *plan_ast_window_spec(plan_parse *pp, const plan_token *base, plan_ast_list *part,
                                       plan_ast_list *order, plan_window_frame frame);
/* BETWEEN start AND end; the unit comes with plan_ast_frame_unit. */
plan_window_frame plan_ast_frame(plan_parse *pp, plan_frame_bound start, plan_frame_bound end);
/* start (no BETWEEN): start may not be FOLLOWING (MySQL's grammar: 1064). */
plan_window_frame plan_ast_frame_start(plan_parse *pp, plan_frame_bound start);
/* Frame f with its unit word ROWS / RANGE (else a syntax error at the word). */
plan_window_frame plan_ast_frame_unit(plan_parse *pp, const plan_token *unit, plan_window_frame f);
plan_frame_bound plan_ast_fbound(plan_parse *pp, const plan_token *a, const plan_token *b);
/* val PRECEDING / FOLLOWING (dir): val a number literal or an INTERVAL node. */
plan_frame_bound plan_ast_fbound_value(plan_parse *pp, plan_ast *val, const plan_token *dir);
/* f(ALL ...): fn when f is an aggregate (COUNT(ALL *): COUNT only), else a syntax error at
 * all. */
plan_ast *plan_ast_agg_all(plan_parse *pp, const plan_token *all, plan_ast *fn);
/* name (any case) is an aggregate function's (plan_select.c). */
bool plan__is_agg_name(const char *name);
/* Append x to an ORDER BY list inside an aggregate, recording DESC in desc_mask. */
plan_ast_list *plan_ast_order_add(plan_parse *pp, plan_ast_list *l, plan_ast *x, bool desc);
/* Checks word is SEPARATOR; returns the STRING token str. */
plan_token plan_ast_gcsep(plan_parse *pp, const plan_token *word, const plan_token *str);
/* A subquery expression of kind (PLAN_SUBQ_*) over query q. left: IN / ANY / ALL operand
 * (the span starts there), else first is the first token (EXISTS), else q's '('. */
plan_ast *plan_ast_subquery(plan_parse *pp, int kind, plan_ast *left, bool negated, int cmp,
                            plan_qexpr q, const plan_token *first);
/* Row constructors (plan_subquery.c): (first, rest...); l cmp r for a comparison token (rows
 * compare element-wise with MySQL's rules, rewritten into AND / OR of scalar comparisons; a
 * row against a scalar subquery becomes PLAN_SUBQ_ROWCMP; neither a row: plan_ast_binary);
 * x [NOT] IN (list) (a row on either side: the OR of row equalities; else plan_ast_in);
 * x [NOT] IN (SELECT ...) (plan_ast_subquery, a row x spread into args). A column count
 * mismatch becomes a PLAN_SUBQ_ROW node reporting 1241 at analysis. */
plan_ast *plan_ast_row(plan_parse *pp, const plan_token *lp, plan_ast *first, plan_ast_list *rest,
                       const plan_token *rp);
plan_ast *plan_ast_rowcmp(plan_parse *pp, int op, plan_ast *l, plan_ast *r);
plan_ast *plan_ast_rowin(plan_parse *pp, plan_ast *x, bool negated, plan_ast_list *list,
                         const plan_token *rp);
plan_ast *plan_ast_subq_in(plan_parse *pp, plan_ast *x, bool negated, plan_qexpr q);
/* Row constructors (plan_subquery.c): (first, rest...); l cmp r for a comparison token (rows
 * compare element-wise with MySQL's rules, rewritten into AND / OR of scalar comparisons; a
 * row against a scalar subquery becomes PLAN_SUBQ_ROWCMP; neither a row: plan_ast_binary);
 * x [NOT] IN (list) (a row on either side: the OR of row equalities; else plan_ast_in);
 * x [NOT] IN (SELECT ...) (plan_ast_subquery, a row x spread into args). A column count
 * mismatch becomes a PLAN_SUBQ_ROW node reporting 1241 at analysis. */
plan_ast *plan_ast_row(plan_parse *pp, const plan_token *lp, plan_ast *first, plan_ast_list *rest,
                       const plan_token *rp);
plan_ast *plan_ast_rowcmp(plan_parse *pp, int op, plan_ast *l, plan_ast *r);
plan_ast *plan_ast_rowin(plan_parse *pp, plan_ast *x, bool negated, plan_ast_list *list,
                         const plan_token *rp);
plan_ast *plan_ast_subq_in(plan_parse *pp, plan_ast *x, bool negated, plan_qexpr q);
void plan_stmt_limit(plan_parse *pp, const plan_ast *count, const plan_ast *offset);
void plan_stmt_set_var(plan_parse *pp, plan_scope scope, bool has_scope, const plan_token *name,
                       plan_ast *value);
void plan_stmt_set_word(plan_parse *pp, plan_scope scope, bool has_scope, const plan_token *name,
                        const plan_token *word);
void plan_stmt_set_uservar(plan_parse *pp, const plan_token *var, plan_ast *value);
void plan_stmt_set_names(plan_parse *pp, plan_set_kind kind, const plan_token *cs,
                         const plan_token *coll);
void plan_stmt_like(plan_parse *pp, const plan_token *pattern);
void plan_stmt_name(plan_parse *pp, const plan_token *name);
void plan_stmt_unsupported(plan_parse *pp, const char *what);
/* FROM clause: the join type of the table just added, its ON condition, one USING name. */
void plan_stmt_join(plan_parse *pp, int type, bool natural);
/* tablelist COMMA tableref: remember where the comma-separated table reference starts. */
void plan_stmt_comma(plan_parse *pp);
/* A parenthesised join tree in FROM, `( tablelist )`: its tables join the flat left-deep list
 * (begin at its LP, end at its RP); see plan_stmt_join for how it joins its left side. */
void plan_stmt_join_group_begin(plan_parse *pp);
void plan_stmt_join_group_end(plan_parse *pp);
/* The '(' turned out to open a query (`((SELECT 1) UNION ...) d`): no join tree after all. */
void plan_stmt_join_group_cancel(plan_parse *pp);
/* tbl alias without AS: an unquoted FULL there starts FULL [OUTER] JOIN (Doris), not an alias. */
void plan_stmt_table_alias(plan_parse *pp, const plan_token *db, const plan_token *name,
                           const plan_token *alias);
/* The join type of a bare JOIN (FULL when FULL came before it); OUTER JOIN needs FULL (1064). */
int plan_stmt_full_pending(plan_parse *pp, const plan_token *outer);
void plan_stmt_join_on(plan_parse *pp, plan_ast *on);
void plan_stmt_join_using(plan_parse *pp, const plan_token *name);
/* A query block starts (SELECT): pp->stmt becomes a fresh statement whose parent is the old
 * one. */
void plan_stmt_push(plan_parse *pp);
/* simple_select ends: pops the block SELECT pushed. */
plan_qexpr plan_query_block(plan_parse *pp);
plan_qexpr plan_query_parens(plan_parse *pp, plan_qexpr q, const plan_token *lp,
                             const plan_token *rp);
/* `(query) ORDER BY ... LIMIT ...`: begin pushes the wrapper the clauses fill, end pops it
 * around q. */
void plan_query_tail_begin(plan_parse *pp);
plan_qexpr plan_query_tail(plan_parse *pp, plan_qexpr q);
/* l op r, op = PLAN_SETOP_* * 2 + ALL. INTERSECT binds tighter than UNION / EXCEPT; ORDER BY
 * / LIMIT of an unparenthesised r apply to the result; those of an unparenthesised l are 1221
 * when it runs. */
plan_qexpr plan_query_setop(plan_parse *pp, plan_qexpr l, int op, plan_qexpr r);
/* The statement's own query (SELECT, INSERT ... SELECT, EXPLAIN, CREATE VIEW / TABLE AS):
 * moved into pp->stmt, which keeps its WITH list, DML target and statement fields. */
void plan_query_adopt(plan_parse *pp, plan_qexpr q);
/* (WITH ... query): q moves into the statement with_begin pushed, which holds the CTEs. */
plan_qexpr plan_query_with(plan_parse *pp, plan_qexpr q);
/* A query ends as a derived table named alias / as CTE name of the enclosing statement. */
void plan_stmt_derived(plan_parse *pp, plan_qexpr q, const plan_token *alias);
void plan_stmt_cte(plan_parse *pp, const plan_token *name, plan_qexpr q);
/* DML builders (plan_ast.c). */
void plan_stmt_dml_target(plan_parse *pp, const plan_token *db, const plan_token *name);
void plan_stmt_dml_col(plan_parse *pp, const plan_token *col);
void plan_stmt_dml_value(plan_parse *pp, plan_ast *x); /* NULL = DEFAULT */
void plan_stmt_dml_row_end(plan_parse *pp);
void plan_stmt_dml_part(plan_parse *pp, const plan_token *name);
void plan_stmt_label(plan_parse *pp, const plan_token *name);
void plan_stmt_as_of(plan_parse *pp, const plan_ast *x);
/* plan_binlog.c: table functions and scan parameters in FROM. */
void plan_stmt_tvf_arg(plan_parse *pp, const plan_token *k, const plan_token *v);
/* A bare argument: the parameter named by its text, with an empty value. */
void plan_stmt_tvf_bare(plan_parse *pp, const plan_token *v);
void plan_stmt_tvf(plan_parse *pp, const plan_token *fn, const plan_token *alias);
void plan_stmt_scan_params(plan_parse *pp, const plan_token *at_fn);
/* FROM t PARTITION (p, ...): one name; then the list goes to the table reference just added. */
void plan_stmt_sel_part(plan_parse *pp, const plan_token *p);
void plan_stmt_table_parts(plan_parse *pp);
/* TEMPORARY PARTITION (...) of the FROM item being parsed, else of the DML target. */
void plan_stmt_temp_parts(plan_parse *pp);
void plan_stmt_using(plan_parse *pp, const plan_token *var);

/* DCL statements (PS_DCL), built by the plan_dcl_* grammar actions (plan_dcl.c). */
typedef enum plan_dcl_kind {
    PLAN_DCL_CREATE_USER,  /* CREATE USER [IF NOT EXISTS] user [IDENTIFIED BY ...] */
    PLAN_DCL_DROP_USER,    /* DROP USER [IF EXISTS] user */
    PLAN_DCL_ALTER_USER,   /* ALTER USER user IDENTIFIED BY 'p' */
    PLAN_DCL_SET_PASSWORD, /* SET PASSWORD [FOR user] = PASSWORD('p') | 'p' */
    PLAN_DCL_GRANT,        /* GRANT privs ON level TO user */
    PLAN_DCL_REVOKE,       /* REVOKE privs ON level FROM user */
    PLAN_DCL_SHOW_GRANTS,  /* SHOW GRANTS [FOR user]; SHOW ALL GRANTS (all = true) */
    PLAN_DCL_SHOW_USERS,   /* SHOW USERS */
} plan_dcl_kind;

typedef struct plan_dcl {
    plan_dcl_kind kind;
    const char *user;      /* account name; NULL = the session's own account */
    const char *host;      /* account host; "%" when not written */
    const char *password;  /* NULL when none was given */
    bool password_is_hash; /* IDENTIFIED BY PASSWORD 'hash' / SET PASSWORD = 'hash' */
    bool if_exists;        /* IF [NOT] EXISTS */
    bool all;              /* SHOW ALL GRANTS */
    uint32_t privs;        /* GRANT / REVOKE: CAT_PRIV_* bits */
    const char *ctl;       /* ON ctl.db.tbl: catalog as written, NULL when omitted */
    const char *db;        /* database or "*"; NULL = the current database */
    const char *tbl;       /* table or "*" */
} plan_dcl;

void plan_dcl_begin(plan_parse *pp, plan_dcl_kind kind);
void plan_dcl_user(plan_parse *pp, const plan_token *name, const plan_token *host);
void plan_dcl_password(plan_parse *pp, const plan_token *pw, bool is_hash);
void plan_dcl_if_exists(plan_parse *pp);
void plan_dcl_all(plan_parse *pp);
/* One privilege word (SELECT_PRIV, SELECT, INSERT, ALL, ...); anything else is a syntax error
 * at the word. */
void plan_dcl_priv(plan_parse *pp, const plan_token *word);
/* ON [ctl.][db.]tbl: each part an identifier or STAR; absent parts NULL. */
void plan_dcl_level(plan_parse *pp, const plan_token *ctl, const plan_token *db,
                    const plan_token *tbl);

/* Generated by Lemon from parse.y (%name plan__parser). */
void *plan__parserAlloc(void *(*malloc_fn)(size_t), plan_parse *pp);
void plan__parserFree(void *p, void (*free_fn)(void *));
void plan__parser(void *p, int major, plan_token minor);

/* ======================================================================================
 * Values (plan_value.c). A value is one typed scalar. Strings point into the statement
 * arena (or the session for stored user variables). Kept small and POD so a later
 * vectorised Batch can hold columns of the same representations.
 * ====================================================================================== */

typedef enum plan_vkind {
    PV_NULL = 0,
    PV_INT,      /* i (or u when is_unsigned) */
    PV_DOUBLE,   /* d */
    PV_DECIMAL,  /* dec scaled by 10^scale */
    PV_STRING,   /* str.s / str.len; is_binary for binary strings */
    PV_DATE,     /* us: microseconds since 1970-01-01 00:00 (wall clock), day aligned */
    PV_DATETIME, /* us, scale = fractional digits shown */
    PV_TIME,     /* us: signed duration */
} plan_vkind;

#define PLAN_DEC_MAX_PREC  38 /* Doris DECIMALV3 limit; 10^38 < 2^127 */
#define PLAN_DEC_MAX_SCALE 30 /* MySQL DECIMAL_MAX_SCALE */

typedef struct plan_value {
    uint8_t kind;     /* plan_vkind */
    bool is_unsigned; /* PV_INT: use u */
    bool is_binary;   /* PV_STRING: binary charset */
    uint8_t scale;    /* PV_DECIMAL scale; PV_DATETIME/PV_TIME fractional digits */
    union {
        int64_t i;
        uint64_t u;
        double d;
        __int128 dec;
        int64_t us;
        struct {
            const char *s;
            size_t len;
        } str;
    };
} plan_value;

/* Result type of an expression, as reported in column metadata. */
typedef struct plan_xtype {
    plan_type type;
    uint32_t length;   /* characters */
    uint8_t precision; /* DECIMAL */
    uint8_t scale;     /* DECIMAL scale / fsp; 31 = not fixed (DOUBLE) */
    bool nullable;
    bool is_unsigned;
    bool is_binary;
    bool is_bin_coll; /* a *_bin collation (COLLATE x_bin): compares bytewise, stays text */
    char elem[48];    /* PLAN_TYPE_ARRAY: the element type as SQL text (cat_type.inner) */
} plan_xtype;

plan_value plan__v_null(void);
plan_value plan__v_int(int64_t i);
plan_value plan__v_uint(uint64_t u);
plan_value plan__v_double(double d);
plan_value plan__v_dec(__int128 v, int scale);
plan_value plan__v_str(const char *s, size_t len);

/* Power of ten as __int128 (n <= 38). */
__int128 plan__pow10(int n);
/* Number of decimal digits of |v| (0 for 0). */
int plan__dec_digits(__int128 v);
/* Rescale v from scale `from` to `to`, rounding half away from zero. false on overflow. */
bool plan__dec_rescale(__int128 v, int from, int to, __int128 *out);
/* Parse a decimal literal / numeric prefix. Returns false when not a valid exact number or it
 * does not fit PLAN_DEC_MAX_PREC digits. */
bool plan__dec_parse(const char *s, size_t len, __int128 *v, int *scale);
/* A FLOAT held as a double: the double of the shortest decimal that reads back as the same
 * float, so that FLOAT values print as MySQL and Doris print them (1.1, not 1.100000023841858).
 * NaN, infinities and 0 pass through. */
double plan__float_shortest(double d);

/* Text form of v (MySQL's), in a. NULL for PV_NULL. */
const char *plan__v_text(arena *a, const plan_value *v, size_t *len);
/* MySQL's shortest round-trip rendering of a double into buf (>= 32 bytes); returns length. */
size_t plan__double_fmt(double d, char *buf);
/* Format a datetime/date/time value. */
size_t plan__datetime_fmt(const plan_value *v, char *buf, size_t cap);

/* Conversions with MySQL semantics. *truncated is set when the string had garbage (a 1292
 * warning in MySQL). */
double plan__v_to_double(const plan_value *v, bool *truncated);
/* To a signed/unsigned 64-bit integer, rounding decimals and doubles half away from zero and
 * saturating; *truncated as above. */
int64_t plan__v_to_int(const plan_value *v, bool *truncated);
uint64_t plan__v_to_uint(const plan_value *v, bool *truncated);
/* To DECIMAL at scale; false when out of range. */
bool plan__v_to_dec(const plan_value *v, int scale, __int128 *out, bool *truncated);
/* Truth value: NULL -> -1, false 0, true 1. */
int plan__v_truth(const plan_value *v);

/* Civil date helpers. */
int64_t plan__days_from_civil(int64_t y, unsigned m, unsigned d);
void plan__civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);
/* Parse 'YYYY-MM-DD[ HH:MM:SS[.ffffff]]' (and compact forms); false when invalid. */
bool plan__parse_datetime(const char *s, size_t len, int64_t *us, bool *has_time);
bool plan__parse_time(const char *s, size_t len, int64_t *us);

/* ======================================================================================
 * Typed expressions (plan_analyze.c builds, plan_expr.c / plan_func.c evaluate).
 * ====================================================================================== */

typedef struct plan_exec plan_exec;
typedef struct plan_expr plan_expr;
typedef struct plan_func_def plan_func_def;

/* Evaluation context: one row at a time for now. */
typedef struct plan_ectx {
    plan_session *s;
    arena *a;              /* statement arena: results of string functions */
    const plan_value *row; /* bound row for column references (SHOW ... WHERE), or NULL */
    size_t nrow;
    const char *sql;          /* statement text (for error messages quoting expressions) */
    size_t sql_len;           /* bytes of sql (not NUL-terminated) */
    int div_incr;             /* @@div_precision_increment at statement start */
    int64_t max_packet;       /* @@max_allowed_packet: cap for string results */
    int64_t now_us;           /* statement start, wall clock in the session time zone (NOW()) */
    int64_t now_utc_us;       /* statement start, UTC */
    const plan_value *params; /* values of the '?' placeholders; NULL while describing */
    size_t nparams;
    bool describe;      /* plan_prepare: analyse and report columns only, evaluate nothing */
    uint8_t view_depth; /* views being expanded (plan_select.c), bounded against recursion */
    /* INSERT: the first AUTO_INCREMENT value the statement generated (0 = none yet). */
    int64_t autoinc_first;
    /* While a subquery is analysed: the enclosing queries' columns (plan_subquery.c). */
    const struct plan_subq_scope *outer;
    /* Streams this statement read, with their windows (stream/ strm_reads, filled by
     * plan_stream.c): every reference to a stream sees the same window; INSERT ... SELECT
     * turns them into offset advances (strm_reads_advance). */
    struct strm_reads *sreads;
} plan_ectx;

typedef int (*plan_eval_fn)(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);

/* How a comparison is done, decided during analysis (MySQL's rules). */
typedef enum plan_cmp_mode {
    PLAN_CMP_INT,
    PLAN_CMP_UINT, /* at least one side unsigned: compare as 65-bit */
    PLAN_CMP_DECIMAL,
    PLAN_CMP_DOUBLE,
    PLAN_CMP_STRING, /* case-insensitive (utf8mb4_general_ci for ASCII) */
    PLAN_CMP_BINARY, /* bytewise (binary strings, *_bin collations) */
    PLAN_CMP_DATETIME,
} plan_cmp_mode;

struct plan_expr {
    plan_eval_fn eval;
    plan_xtype t;      /* result type (metadata) */
    plan_vkind vk;     /* kind of the value eval produces (or PV_NULL always) */
    int op;            /* plan_xop, plan_unit, function sub-kind, ... */
    plan_cmp_mode cmp; /* comparisons, IN, BETWEEN, CASE operand, GREATEST/LEAST */
    bool negated;
    bool has_operand, has_else;
    plan_expr **args;
    uint32_t nargs;
    plan_value lit;   /* literal value / constant */
    const char *name; /* variable / column name */
    int slot;         /* column: row index; sysvar: registry index */
    plan_scope scope; /* sysvar */
    plan_cast cast;
    const plan_func_def *fn;
    const plan_ast *src; /* for messages */
    void *aux;           /* PA_SUBQUERY and outer references: their plan_subq */
};

/* A column the analyser may bind references to (SHOW ... WHERE, table columns, aggregate
 * results). Unset fields (zero) keep the SHOW ... WHERE behaviour: string values, no
 * qualifier. */
typedef struct plan_bind_col {
    const char *name;
    plan_xtype t;
    plan_vkind vk;       /* kind of the bound values; PV_NULL means PV_STRING */
    const char *table;   /* qualifier naming it (alias or table name), or NULL */
    const char *db;      /* database qualifier (db.tbl.col), or NULL */
    bool table_ci;       /* qualifiers compare case-insensitively (information_schema) */
    const plan_ast *ast; /* when set: binds exactly this AST node (an aggregate call), by
                            identity, and never a name */
    bool *used;          /* when set: becomes true once an expression binds this column (a
                            table scan then reads only such columns: projection pruning) */
} plan_bind_col;

/* plan_ddl.c: true when db.name is a view; *sql (when sql is not NULL) gets its stored
 * definition `CREATE VIEW `v` [(cols)] AS select` copied into cx->a. */
bool plan__view_sql(plan_ectx *cx, const char *db, const char *name, const char **sql);

/* Analyse an AST into a typed expression in cx->a. cols/ncols: bindable columns (may be 0);
 * clause: "field list" / "where clause" for ER_BAD_FIELD_ERROR. */
int plan__analyze(plan_ectx *cx, const plan_ast *ast, const plan_bind_col *cols, size_t ncols,
                  const char *clause, plan_expr **out, db_error *err);
/* plan_analyze.c: the column of cols[0..ncols) that the PA_COLUMN x names, or -1; bind e to
 * column slot of cols. */
int plan__bind_find(const plan_bind_col *cols, size_t ncols, const plan_ast *x);
void plan__bind_column(const plan_bind_col *cols, int slot, plan_expr *e);

/* Subqueries in expressions (plan_subquery.c). While the inner SELECT is analysed, cx->outer
 * lists the enclosing queries, innermost first: their bindable columns and the subquery whose
 * evaluation captures values from that query's row. */
typedef struct plan_subq_scope {
    const plan_bind_col *cols;
    size_t ncols;
    struct plan_subq *sq;
    const struct plan_subq_scope *up;
} plan_subq_scope;
/* Analyse PA_SUBQUERY x into e (its args already analysed over cols, the columns of the
 * enclosing query): builds the inner operator tree with cx->outer extended by cols. 1241 for
 * more than one column (scalar, IN, ANY, ALL). */
int plan__subq_analyze(plan_ectx *cx, const plan_ast *x, const plan_bind_col *cols, size_t ncols,
                       plan_expr *e, db_error *err);
/* Bind PA_COLUMN x, not found in the current query, to a column of an enclosing query (inner
 * scopes first). false when no enclosing query has it. */
bool plan__subq_outer(plan_ectx *cx, const plan_ast *x, plan_expr *e);
struct plan_op;
/* plan_select.c: plan the SELECT of a subquery: its operator tree (NULL when describing), and
 * its visible select expressions (types) exprs[0..*n). */
int plan__subq_build(plan_ectx *cx, const plan_stmt *st, struct plan_op **root, plan_expr ***exprs,
                     uint32_t *n, db_error *err);

/* The value of a plain literal (numbers, strings, NULL, TRUE/FALSE, -number) without analysis;
 * false for any other expression. */
bool plan__literal_value(const plan_ast *x, plan_value *out);
/* Evaluate. */
int plan__eval(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
/* MySQL's printed form of an AST (for 1690 messages), in a. */
const char *plan__ast_print(arena *a, const char *sql, const plan_ast *x);

/* plan_func_array.c: the ARRAY element type name (`int`, `decimal(10,2)`, `text`, ...) of
 * values of type t, into dst. */
void plan__arr_elem_name(const plan_xtype *t, char *dst, size_t cap);
/* Compare two non-NULL values in mode; returns <0, 0, >0. Text conversions go to cx->a. */
int plan__compare(plan_ectx *cx, plan_cmp_mode mode, const plan_value *l, const plan_value *r);
/* plan_expr.c: type an operator node (PA_UNARY/BINARY/IS/BETWEEN/IN/LIKE/CASE/CAST/...) whose
 * args are analysed: sets e->t, e->vk, e->eval. */
int plan__op_type(plan_ectx *cx, plan_expr *e, plan_ast_kind kind, db_error *err);
/* Convert v in place to the result kind vk / type t (CASE, IF, COALESCE results). */
int plan__coerce(plan_ectx *cx, plan_value *v, plan_vkind vk, const plan_xtype *t, db_error *err);
/* Aggregate result type of several expressions (CASE/IF/IFNULL/COALESCE/GREATEST). NULL
 * entries in xs are skipped. */
void plan__agg_type(plan_expr *const *xs, size_t n, plan_xtype *t, plan_vkind *vk);
/* Numeric precision (digits) of a numeric expression type, for DECIMAL derivations. */
int plan__num_prec(const plan_xtype *t);
/* MySQL display length of a DECIMAL(precision, scale). */
uint32_t plan__dec_length(int precision, int scale, bool is_unsigned);
/* Raise ER_DATA_OUT_OF_RANGE for type name ("BIGINT", "DECIMAL", ...) quoting e's source. */
int plan__out_of_range(plan_ectx *cx, const plan_expr *e, const char *type, db_error *err);
/* Comparison mode for two argument types. */
plan_cmp_mode plan__cmp_mode(const plan_expr *l, const plan_expr *r);
/* Convert a value to the kind vk with the cast rules used for results (string, int, ...). */
int plan__v_cast(plan_ectx *cx, const plan_value *in, const plan_cast *c, plan_value *out,
                 db_error *err);
/* plan_cast.c: CAST with Doris rules (c->doris): INT family, BOOLEAN, FLOAT, DOUBLE, DECIMAL,
 * VARCHAR/STRING. Invalid or out-of-range input gives NULL, never an error or a warning. */
int plan__v_cast_doris(plan_ectx *cx, const plan_value *in, const plan_cast *c, plan_value *out,
                       db_error *err);
/* plan_cast.c: the Doris cast type named word[0..n) (case-insensitive) taking nargs (0..2)
 * arguments; false when there is none. */
bool plan__cast_named(const char *word, size_t n, int nargs, plan_cast *c);

/* plan_ctype.c: case mapping of UTF-8 text with the C library's C.UTF-8 LC_CTYPE (ASCII only
 * when that locale is missing). Invalid bytes are kept as they are. */
locale_t plan__ctype_new(void);
void plan__ctype_free(locale_t loc);
/* Upper- (upper) or lower-case s[0..len) into out, which has room for 2 * len bytes; returns
 * the bytes written (a character's encoding may change length, e.g. U+023A -> U+2C65). */
size_t plan__case_map(locale_t loc, bool upper, const char *s, size_t len, char *out);
/* utf8mb4_general_ci-like comparison: characters compare by their weight (the upper case; an
 * accented Latin letter's base letter), trailing spaces are ignored (PAD SPACE). Returns <0,
 * 0, >0. */
int plan__cmp_ci(locale_t loc, const char *a, size_t al, const char *b, size_t bl);
/* s[0..len) with every character replaced by its general_ci weight (room for 2 * len bytes in
 * out): strings equal under plan__cmp_ci (trailing spaces aside) fold to the same bytes, so
 * hash tables key on this. Returns the bytes written. */
size_t plan__ci_fold(locale_t loc, const char *s, size_t len, char *out);
/* plan__ci_fold and plan__cmp_ci without their ASCII fast path (a run of ASCII bytes is
 * upper-cased eight bytes at a time): character by character through the weight tables. The
 * reference the unit tests hold the fast path to; same results, slower. */
size_t plan__ci_fold_slow(locale_t loc, const char *s, size_t len, char *out);
int plan__cmp_ci_slow(locale_t loc, const char *a, size_t al, const char *b, size_t bl);
/* plan__ci_fold of s[0..*len) into cx->a with the session's locale; *len gets the new length. */
const char *plan__ci_fold_in(struct plan_ectx *cx, const char *s, size_t *len);

/* String form of any value (for string functions), in cx->a. Returns false for NULL. */
bool plan__v_string(plan_ectx *cx, const plan_value *v, const char **s, size_t *len);
/* Record a warning on the session (level "Warning"). */
void plan__warn(plan_session *s, int code, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* Note-level diagnostic. */
void plan__note(plan_session *s, int code, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* Function registry (plan_func.c). */
typedef int (*plan_type_fn)(plan_ectx *cx, plan_expr *e, db_error *err);
struct plan_func_def {
    const char *name; /* lower case */
    int8_t min_args;
    int8_t max_args;   /* -1 = any */
    plan_type_fn type; /* sets e->t, e->vk, e->eval; may reject arguments */
};
const plan_func_def *plan__func_lookup(const char *name);
/* Doris 2.1 keeps JSON values out of comparisons ("comparison predicate could not contains json
 * type") and out of GROUP BY / ORDER BY keys (its "Doris hll, bitmap, ..." 1105); DB_OK when
 * none of the expressions is JSON (plan_func_json.c). */
int plan__json_check_cmp(const plan_expr *const *args, uint32_t n, db_error *err);
int plan__json_check_key(const plan_expr *x, db_error *err);
/* STREAM_HAS_DATA('[db.]stream') (plan_stream.c). */
int plan__ty_stream_has_data(plan_ectx *cx, plan_expr *e, db_error *err);
/* Type rules used by analysis for operators (shared with plan_func.c). */
void plan__type_string(plan_xtype *t, uint32_t length, bool nullable);
void plan__type_bigint(plan_xtype *t, uint32_t length, bool nullable);
void plan__type_double(plan_xtype *t, bool nullable);
void plan__type_decimal(plan_xtype *t, int precision, int scale, bool nullable);
void plan__type_datetime(plan_xtype *t, plan_type type, int fsp, bool nullable);
/* Display length of an expression's value converted to a string. */
uint32_t plan__type_strlen(const plan_xtype *t);
/* Check KILL QUERY; ER_QUERY_INTERRUPTED when set. */
int plan__check_interrupt(plan_session *s, db_error *err);
/* Recursion guard (plan_stack.c) of the planner's recursive walks (expression analysis, nested
 * statements): ER_STACK_OVERRUN_NEED_MORE (1436, as MySQL) when less than PLAN_STACK_MARGIN of
 * the calling thread's stack is left, so a statement too deep fails instead of crashing. */
#define PLAN_STACK_MARGIN ((size_t)1 << 20)
int plan__stack_check(db_error *err);
/* The statement limits part of plan__check_interrupt (plan_explain.c): ER_QUERY_TIMEOUT past
 * the deadline, ER_EXEC_MEM_LIMIT over exec_mem_limit. */
int plan__check_limits(plan_session *s, db_error *err);
/* st's LIMIT count and offset (literals, or '?' placeholders bound to cx->params: a
 * non-negative integer, else ER_WRONG_ARGUMENTS "LIMIT"); while describing (no values) a
 * placeholder count is UINT64_MAX and offset 0. Only meaningful with st->has_limit. */
int plan__stmt_limit(plan_ectx *cx, const plan_stmt *st, uint64_t *count, uint64_t *offset,
                     db_error *err);

/* ======================================================================================
 * System variables (plan_sysvar.c).
 * ====================================================================================== */

typedef enum plan_sv_type {
    PLAN_SV_BOOL,   /* ON/OFF; @@x reads as 1/0 */
    PLAN_SV_INT,    /* signed 64-bit within [min, max] */
    PLAN_SV_UINT,   /* unsigned, within [min, max] */
    PLAN_SV_STRING, /* free text (validated by a hook where needed) */
    PLAN_SV_ENUM,   /* one of enums[]; stored as its index */
    PLAN_SV_SET,    /* comma list of enums[] names (sql_mode); stored as normalised text */
} plan_sv_type;

enum {
    PLAN_SV_GLOBAL = 1,  /* has a global value */
    PLAN_SV_SESSION = 2, /* has a session value */
    PLAN_SV_BOTH = 3,
};

enum {
    PLAN_SVF_READONLY = 1, /* cannot be SET at all */
    PLAN_SVF_NULLABLE = 2, /* may be set to NULL (character_set_results) */
    PLAN_SVF_COMPUTED = 4, /* value computed from session state, not stored */
};

/* Validation / normalisation hook for string-like variables: writes the canonical value to
 * *out (in a) or fails with 1231 / 1115 / 1273 / 1298. */
typedef int (*plan_sv_check_fn)(arena *a, const char *name, const char *in, const char **out,
                                db_error *err);

typedef struct plan_sysvar_def {
    const char *name;
    plan_sv_type type;
    uint8_t scope;            /* PLAN_SV_* */
    uint8_t flags;            /* PLAN_SVF_* */
    int64_t def_int;          /* default for BOOL/INT/UINT/ENUM */
    const char *def_str;      /* default for STRING/SET (NULL = SQL NULL) */
    int64_t min, max;         /* INT/UINT bounds (values are clamped with a warning, as MySQL) */
    const char *const *enums; /* ENUM/SET names, NULL-terminated */
    plan_sv_check_fn check;
    const char *alias_of; /* name of the variable sharing the storage, or NULL */
} plan_sysvar_def;

/* One stored value: i for BOOL/INT/UINT/ENUM, s (heap) for STRING/SET. */
typedef struct plan_sysval {
    int64_t i;
    char *s;
    bool is_null;
} plan_sysval;

size_t plan__sysvar_count(void);
const plan_sysvar_def *plan__sysvar_def(size_t idx);
/* Index of the storage slot for a variable (resolving aliases), or -1. Case-insensitive. */
int plan__sysvar_find(const char *name);
/* Index in sorted-by-name order (for SHOW VARIABLES). */
size_t plan__sysvar_sorted(size_t i);
/* Initialise global values from the defaults and init. */
void plan__sysvar_init_globals(plan_sysval *g, const plan_server_init *init);
void plan__sysval_copy(plan_sysval *dst, const plan_sysval *src, size_t n);
void plan__sysval_free(plan_sysval *v, size_t n);
/* Read variable idx of the given scope into a value (session state for computed ones). */
int plan__sysvar_read(plan_ectx *cx, int idx, plan_scope scope, plan_value *out, plan_xtype *t,
                      db_error *err);
/* The result type of @@name (for analysis). */
void plan__sysvar_type(int idx, plan_xtype *t);
/* Set variable idx from a value (NULL value pointer = DEFAULT). Validates and applies. */
int plan__sysvar_set(plan_ectx *cx, int idx, plan_scope scope, const plan_value *v,
                     const char *name_as_written, db_error *err);
/* Check the scope/readonly rules before evaluating a SET item. */
int plan__sysvar_check_settable(int idx, plan_scope scope, const char *name, db_error *err);
/* SHOW VARIABLES text form of a stored value, in a; NULL for SQL NULL. */
const char *plan__sysvar_show(arena *a, plan_session *s, int idx, plan_scope scope);

/* Character sets and collations (plan_sysvar.c). */
typedef struct plan_collation {
    uint16_t id;
    const char *name;
    const char *charset;
    bool is_default;
} plan_collation;
const plan_collation *plan__collation_by_id(uint16_t id);
const plan_collation *plan__collation_by_name(const char *name);
/* Default collation of a character set name (utf8 = utf8mb3), or NULL. */
const plan_collation *plan__charset_default(const char *charset);
size_t plan__collation_count(void);
const plan_collation *plan__collation_at(size_t i);

/* Time zone: offset of wall clock from UTC at unix time t (seconds), for the session. */
int64_t plan__tz_offset(const plan_session *s, int64_t t);

/* ======================================================================================
 * The catalog as information_schema sees it (plan_vtable.c). A provider of callbacks; every
 * result lives in the arena passed in. plan_server_new installs plan__catalog_builtin (the
 * databases information_schema and mysql, the information_schema tables themselves); the
 * real catalog plugs in there. Worker threads; may take catalog locks, never block long.
 * ====================================================================================== */

typedef struct plan_cat_db {
    const char *name;
    const char *charset;   /* DEFAULT_CHARACTER_SET_NAME */
    const char *collation; /* DEFAULT_COLLATION_NAME */
} plan_cat_db;

typedef struct plan_cat_table {
    const char *name;
    const char *type;            /* "BASE TABLE", "VIEW", "SYSTEM VIEW" */
    const char *engine;          /* NULL for views */
    const char *comment;         /* "" when none */
    const char *collation;       /* NULL for views */
    const char *view_definition; /* VIEW: the SELECT text */
    bool has_rows;               /* rows below is known */
    uint64_t rows;
    uint64_t data_length;    /* bytes on disk (with has_rows) */
    const uint64_t *tablets; /* BASE TABLE of the catalog: its tablet ids; the reader fills
                                rows / data_length from storage (plan_vtable.c) */
    size_t ntablets;
    int64_t create_time_us; /* wall clock microseconds; 0 = NULL */
} plan_cat_table;

typedef struct plan_cat_column {
    const char *name;
    const char *data_type;     /* "varchar", "bigint", ... */
    const char *column_type;   /* "varchar(64)", "bigint(21) unsigned", ... */
    const char *default_value; /* NULL = no default */
    bool nullable;
    bool has_char_len; /* CHARACTER_MAXIMUM_LENGTH / CHARACTER_OCTET_LENGTH are set */
    uint64_t char_max_len, char_octet_len;
    bool has_num; /* NUMERIC_PRECISION / NUMERIC_SCALE are set */
    uint64_t num_precision, num_scale;
    bool has_dt_prec; /* DATETIME_PRECISION is set */
    uint64_t dt_precision;
    const char *charset, *collation; /* NULL for non-strings */
    const char *key;                 /* "", "PRI", "UNI", "MUL" */
    const char *extra;               /* "" */
    const char *comment;             /* "" */
} plan_cat_column;
struct cat_table;
/* plan_ddl.c: view db.name (definition view_sql, as stored) as a table of the columns a
 * SELECT of it returns: names (the view's column list, else the items'), the CTAS catalog type
 * of each result, nullability; no keys. Everything lives in cx->a. Fails as the view's SELECT
 * would (a dropped base table ...). */
int plan__view_table(plan_ectx *cx, const char *db, const char *name, const char *view_sql,
                     struct cat_table *out, db_error *err);
/* plan_show.c: the information_schema.COLUMNS form of such a table's columns. */
void plan__view_column_info(arena *a, const struct cat_table *t, plan_cat_column **cols, size_t *n);

/* One information_schema.table_streams row (DORIS_SEMANTICS.md §4.1). */
typedef struct plan_cat_stream {
    const char *db, *name;
    int64_t id;
    const char *consume_type; /* APPEND_ONLY / MIN_DELTA / DETAIL */
    const char *comment;
    const char *base_table, *base_db, *base_type; /* base_type "OLAP" or "N/A" */
    bool enabled, is_stale;
    const char *stale_reason; /* "N/A" when healthy */
} plan_cat_stream;

/* One information_schema.table_stream_consumption row (DORIS_SEMANTICS.md §4.2). */
typedef struct plan_cat_stream_unit {
    const char *db, *stream;
    int64_t id;
    const char *unit, *status, *lag;
    int64_t last_consumption_ms; /* -1 = never */
} plan_cat_stream_unit;

typedef struct plan_cat_priv {
    const char *grantee; /* 'user'@'host' */
    const char *privilege;
    bool grantable;
} plan_cat_priv;

typedef struct plan_catalog_view {
    void *ctx;
    int (*databases)(void *ctx, arena *a, plan_cat_db **dbs, size_t *n, db_error *err);
    /* Tables and views of db (an unknown db has none). */
    int (*tables)(void *ctx, arena *a, const char *db, plan_cat_table **tbls, size_t *n,
                  db_error *err);
    /* Columns of db.table in ordinal order. */
    int (*columns)(void *ctx, arena *a, const char *db, const char *table, plan_cat_column **cols,
                   size_t *n, db_error *err);
    int (*streams)(void *ctx, arena *a, plan_cat_stream **st, size_t *n, db_error *err);
    int (*stream_units)(void *ctx, arena *a, plan_cat_stream_unit **u, size_t *n, db_error *err);
    void *stream_ctx; /* ctx of streams / stream_units (plan_stream.c: the plan_server) */
    /* Global privileges visible to user@host. */
    int (*user_privileges)(void *ctx, arena *a, const char *user, const char *host,
                           plan_cat_priv **p, size_t *n, db_error *err);
} plan_catalog_view;

/* The built-in provider used until the catalog module lands. */
void plan__catalog_builtin(plan_catalog_view *cv);

/* ======================================================================================
 * Server and session (plan_session.c).
 * ====================================================================================== */

typedef struct plan_warning {
    uint8_t level; /* 0 Note, 1 Warning, 2 Error */
    int code;
    char msg[DB_ERRMSG_SIZE];
} plan_warning;

#define PLAN_MAX_WARNINGS 64 /* @@max_error_count */

typedef struct plan_uservar {
    char *name;   /* lower-cased (user variable names are case-insensitive) */
    plan_value v; /* strings point to buf */
    char *buf;    /* heap copy of the string bytes */
} plan_uservar;

struct plan_server {
    plan_hooks hooks;               /* immutable after plan_server_new */
    int64_t start_time;             /* unix seconds; immutable */
    pthread_mutex_t lock;           /* protects globals[] (SET GLOBAL vs session creation/reads) */
    plan_sysval *globals;           /* one per registry slot; guarded by lock */
    atomic_uint_fast64_t questions; /* statements executed (SHOW STATUS Questions) */
    locale_t ctype; /* C.UTF-8 LC_CTYPE for UPPER/LOWER and _ci comparison; 0 = ASCII only.
                       Immutable after plan_server_new; the *_l functions are thread-safe. */
    plan_catalog_view catalog; /* what information_schema reads; immutable after _new */
    cat_meta *meta;            /* the durable catalog (plan_server_init.meta), or NULL in unit
                                  tests without one; not owned; immutable after _new */
    stor_engine *engine;       /* table data (plan_server_init.engine) or NULL; not owned */
    bl_log *binlog;            /* plan_server_init.binlog or NULL; not owned */
    strm_state *streams;       /* plan_server_init.streams or NULL; not owned */
    const struct cfg *conf;    /* plan_server_init.conf, or NULL; not owned; read-only */
    char *version;             /* plan_server_init.version (heap copy, "" without one) */
};

struct plan_session {
    plan_server *srv;
    uint64_t conn_id;
    char *user;          /* heap */
    char *host;          /* heap */
    char *account_host;  /* heap: host of the account logged in as ("%" for root); privileges
                            are granted to user@account_host */
    char *db;            /* heap, NULL when none */
    plan_sysval *vars;   /* session values, one per registry slot */
    plan_uservar *uvars; /* heap array */
    size_t nuvars, cap_uvars;
    plan_warning warns[PLAN_MAX_WARNINGS]; /* diagnostics of the last statement */
    size_t nwarns;                         /* entries stored (<= PLAN_MAX_WARNINGS) */
    size_t warn_total;                     /* all conditions raised (warning_count) */
    size_t err_total;                      /* conditions of level Error (error_count) */
    bool in_trans;                         /* BEGIN seen, not yet COMMIT/ROLLBACK */
    struct stor_writer *txn_writer;        /* explicit transaction's pending writes (NULL until
                                              its first INSERT); committed at COMMIT */
    struct arena *txn_arena;               /* schemas the open transaction's writer refers to
                                              (freed with it) */
    struct plan_txn_schema *txn_schemas;   /* in txn_arena: one per table written */
    int64_t row_count;                     /* ROW_COUNT() of the previous statement */
    uint64_t found_rows;                   /* FOUND_ROWS() */
    uint64_t last_insert_id;               /* LAST_INSERT_ID() */
    int next_iso; /* SET TRANSACTION (next transaction only), PLAN_ISO_NONE */
    /* Table-scan counters of this session (SHOW STATUS): rows read from storage
     * (Handler_read_rnd_next), tablets opened, segments and pages skipped by pruning. */
    uint64_t scan_rows, scan_tablets, scan_segments_pruned, scan_pages_pruned;
    int64_t user_time_us;    /* SET timestamp: fixed NOW() as unix microseconds; 0 = clock */
    atomic_bool interrupted; /* KILL QUERY: set by any thread, cleared at statement start */
    /* Limits of the running statement (plan_explain.c §limits), checked by
     * plan__check_interrupt: deadline from query_timeout / max_execution_time (CLOCK_MONOTONIC
     * ns, 0 = none); exec_mem_limit over the statement arena's growth since lim_base plus the
     * batch and state memory of the operator tree lim_root (0 = none). */
    int64_t lim_deadline_ns;
    uint64_t lim_mem;
    struct arena *lim_arena;
    size_t lim_base;
    struct plan_op *lim_root;
    /* The walk of lim_root visited more than PLAN_LIM_BIG_TREE operators (a set operation of
     * thousands of operands): walk it again at most once per millisecond (lim_walk_ns). */
    bool lim_big_tree;
    int64_t lim_walk_ns;
    struct plan_prep **preps; /* prepared statements (heap array), sorted by id */
    size_t npreps, cap_preps;
    uint32_t next_prep_id; /* last id handed out; ids start at 1 */
};

/* ======================================================================================
 * Users and privileges (plan_dcl.c).
 * ====================================================================================== */

/* Refuse unless the session's account holds priv (a CAT_PRIV_* bit of catalog/catalog.h; with
 * several bits, any one of them, e.g. CAT_PRIV_ALL for "some privilege") on db.tbl. tbl NULL
 * asks at the database level (any grant inside db satisfies it; USE); db and tbl NULL ask at
 * the global level (ADMIN_PRIV); a check including SELECT_PRIV on information_schema passes
 * (it is readable by all). root and holders of ADMIN_PRIV pass everything, and so does
 * every session when the server has no catalog (unit tests). Refusals: table level
 * ER_TABLEACCESS_DENIED_ERROR (1142), database level ER_DBACCESS_DENIED_ERROR (1044), global
 * level ER_SPECIFIC_ACCESS_DENIED_ERROR (1227); every message contains "denied". Worker
 * thread; takes the catalog users' read lock briefly. */
int plan__check_priv(plan_ectx *cx, uint32_t priv, const char *db, const char *tbl, db_error *err);
/* True when the session's account is root or holds ADMIN_PRIV (or there is no catalog). */
bool plan__is_admin(plan_session *s);
/* information_schema / SHOW visibility (MySQL): true when the session's account holds some
 * privilege on db (tbl NULL) or on db.tbl; information_schema is always visible; admins (and
 * every session without a catalog) see everything. */
bool plan__can_see(plan_session *s, const char *db, const char *tbl);
/* The database-level check of the SHOW statements that list a database (SHOW TABLES / TABLE
 * STATUS / STREAMS / DATA, SHOW CREATE DATABASE): DB_OK when plan__can_see(db), else 1044,
 * before the database is looked up (so a refusal does not tell whether it exists). */
int plan__check_db_visible(plan_ectx *cx, const char *db, db_error *err);
/* Run a PS_DCL statement. */
int plan__exec_dcl(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                   db_error *err);

/* plan_show.c: CURRENT_TSO(): cat_tso_current of the catalog (ER_NOT_SUPPORTED_YET without
 * one). */
int plan__current_tso(plan_session *s, int64_t *out, db_error *err);

/* plan_dml.c: transactions. COMMIT writes the session's pending writes (one commit record);
 * ROLLBACK drops them. */
int plan__txn_commit(plan_session *s, db_error *err);
void plan__txn_rollback(plan_session *s);

/* User variables. */
const plan_uservar *plan__uservar_get(plan_session *s, const char *name);
void plan__uservar_set(plan_session *s, const char *name, const plan_value *v);

/* ======================================================================================
 * Prepared statements (plan_prepare.c).
 * ====================================================================================== */

#define PLAN_PARAM_DESCRIBE_LEN 255   /* display length of a placeholder described at prepare */
#define PLAN_MAX_PREPARED       16382 /* per session (MySQL's default max_prepared_stmt_count) */

typedef struct plan_prep {
    uint32_t id;
    char *name;      /* SQL PREPARE name, lower-cased, in a; NULL for COM_STMT_PREPARE */
    arena *a;        /* owns everything below; freed with the statement */
    const char *sql; /* copy of the text (the AST points into it) */
    size_t len;      /* bytes of sql */
    plan_stmt *st;   /* parsed statement, read-only after parsing */
} plan_prep;

/* Free every prepared statement of s. */
void plan__prep_free_all(plan_session *s);
/* SQL PREPARE / EXECUTE / DEALLOCATE PREPARE (dispatched from plan_exec.c). */
int plan__sql_prepare(plan_ectx *cx, const plan_stmt *st, plan_outcome *out, db_error *err);
int plan__sql_execute(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                      db_error *err);
int plan__sql_deallocate(plan_ectx *cx, const plan_stmt *st, db_error *err);
/* The type a bound placeholder value reports (and compares) as. */
void plan__param_type(const plan_value *v, plan_xtype *t, plan_vkind *vk);

/* plan_exec.c: describe the result columns of a parsed statement without running it (in a).
 * Analyses everything a run would analyse; placeholders are nullable VARCHAR. */
int plan__describe(plan_session *s, const plan_stmt *st, const char *sql, size_t len, arena *a,
                   plan_column **cols, size_t *ncols, db_error *err);
/* plan_exec.c: run a parsed statement with params[0..nparams) bound to its placeholders, as
 * plan_execute does after parsing (diagnostics cleared unless it reads them; errors recorded). */
int plan__run(plan_session *s, const plan_stmt *st, const char *sql, size_t len,
              const plan_value *params, size_t nparams, arena *a, const plan_sink *sink,
              plan_outcome *out, db_error *err);
/* plan_exec.c: column metadata of a result column named name of type t (names only). */
void plan__col_init(plan_column *c, const char *name, const plan_xtype *t);
/* plan_exec.c: MySQL's label of a select item: alias, a string literal's value, else the
 * text as written (in cx->a). */
const char *plan__item_label(plan_ectx *cx, const plan_select_item *it);
/* plan_exec.c: the sql_mode flags that change tokenizing and parsing. */
void plan__sql_mode_flags(const plan_session *s, bool *nbe, bool *aq, bool *pac);
/* plan_exec.c: an evaluation context for sql[0..len) of session s, allocating in a. */
void plan__ectx_init(plan_ectx *cx, plan_session *s, arena *a, const char *sql, size_t len);
/* plan_hint.c: the session variables a statement's SET_VAR hint changed, kept to be restored
 * when the statement ends. */
typedef struct plan_hint_save {
    plan_sysval *vars; /* heap copy of the session's vars[] before the hint; NULL = no hint */
    int64_t user_time_us;
    uint64_t last_insert_id;
} plan_hint_save;
/* Apply st's SET_VAR hint (if any) to the session: `SET_VAR(name = literal, ...)` items, each
 * as a session SET. Other hint names are ignored. A malformed SET_VAR is ER_PARSE_ERROR; an
 * unknown variable ER_UNKNOWN_SYSTEM_VARIABLE (1193, as SET and Doris); any error leaves the
 * session unchanged. On DB_OK call plan__hint_restore when the statement ends. */
int plan__hint_apply(plan_ectx *cx, const plan_stmt *st, plan_hint_save *save, db_error *err);
/* Put back the session variables saved by plan__hint_apply (no-op without a hint). */
void plan__hint_restore(plan_session *s, plan_hint_save *save);

/* plan_exec.c: run a parsed statement in cx (no diagnostics handling). */
int plan__exec_stmt(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                    db_error *err);
/* plan_exec.c: start a statement: *out cleared, KILL QUERY flag cleared, Questions counted. */
void plan__stmt_start(plan_session *s, plan_outcome *out);
/* plan_exec.c: a statement was prepared: diagnostics cleared unless it reads them. */
void plan__stmt_prepared(plan_session *s, const plan_stmt *st);
/* plan_exec.c: a statement failed before it could run: diagnostics become just err. */
void plan__stmt_fail(plan_session *s, const db_error *err);

#endif /* PLANNER_PLAN_INT_H */
