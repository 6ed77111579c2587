/* SPDX-License-Identifier: Apache-2.0
 * parse.y: the Lemon LALR(1) grammar of Rivulet's SQL (MySQL / Doris dialect).
 * Rules: every action is one call into a plan_ast_* / plan_stmt_* builder (plan_ast.c); no
 * error recovery (the first syntax error ends the parse, reported as ER_PARSE_ERROR by
 * plan__parse); non-reserved keywords fall back to ID. All nodes live in the statement arena,
 * so there are no destructors. The generated parse.c lives in build/, never committed.
 * See README.md §Grammar conventions. */

%name plan__parser
%token_prefix TK_
%token_type {plan_token}
%default_type {plan_ast *}
%extra_context {plan_parse *pp}
%stack_size 1000

%include {
#include "planner/plan_int.h"
#include "planner/plan_ddl_int.h" /* DDL builders */

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define YYNOERRORRECOVERY 1
#define YYPARSEFREENEVERNULL 1
}

%syntax_error {
    (void)yymajor;
    if (!pp->failed) {
        pp->failed = true;
        pp->bad = TOKEN;
    }
}

%stack_overflow {
    pp->failed = true;
    pp->overflow = true;
}

/* Tokens the tokenizer produces that the grammar never shifts. */
%token SPACE COMMENT HINT ILLEGAL.
/* POSITION_IN: the IN of POSITION(sub IN s), set by the parse driver (plan_ast.c). */
%token POSITION_IN.
/* DATE / TIME / TIMESTAMP right before a quote: the lexer's typed-literal keyword. */
%token TYPEDLIT.

/* Non-reserved keywords: usable as identifiers wherever the keyword itself would be an error. */
%fallback ID BEGIN COMMIT ROLLBACK WORK START TRANSACTION ISOLATION LEVEL ONLY COMMITTED
    UNCOMMITTED REPEATABLE SERIALIZABLE CONSISTENT SNAPSHOT GLOBAL SESSION LOCAL NAMES CHARSET
    COLLATION STATUS VARIABLES WARNINGS ERRORS PROCESSLIST FULL ENGINES STORAGE CONNECTION QUERY
    PASSWORD OFFSET SIGNED DATE DATETIME TIME TIMESTAMP TABLES COUNT ESCAPE UNKNOWN END SUBSTR
    SUBSTRING TRIM CAST PREPARE EXECUTE DEALLOCATE ROLLUP RECURSIVE.

/* Precedence, lowest first (MySQL's operator precedence). */
%right ASSIGN.
%left OR OROR.
%left XOR.
%left AND ANDAND.
%right NOT.
%left BETWEEN CASE WHEN THEN ELSE.
%left EQ NSEQ NE LT LE GT GE IS LIKE IN REGEXP RLIKE.
%right ESCAPE.
%left BITOR.
%left BITAND.
%left LSHIFT RSHIFT.
%left PLUS MINUS.
%left STAR SLASH PERCENT DIV MOD.
%left BITXOR.
%right UMINUS BITNOT.
%right BANG.
%left COLLATE.
%left LBRACKET.
%left LOWEST.
%left STRING.
/* `((SELECT 1))`: a parenthesised query rather than a parenthesised scalar subquery. */
%nonassoc SUBQ_EXPR.
%nonassoc SUBQ_QUERY.

/* ---------------------------------------------------------------- statements */

input ::= cmd semi_opt.
semi_opt ::= .
semi_opt ::= SEMI.

/* SELECT (plan_query.c). A query expression is built bottom-up as a value (plan_qexpr): each
 * SELECT keyword pushes a fresh query block (sel_kw) that the end of its simple_select pops;
 * parentheses and set operations combine the values; the statement's own query (`select`) is
 * moved into the statement (plan_query_adopt). Nested queries (CTE bodies, derived tables,
 * subqueries) take the value. WITH ROLLUP and UNION parse, then fail with ER_NOT_SUPPORTED_YET
 * (plan_stmt_unsupported keeps the first one met). */
cmd ::= select. { plan_stmt_begin(pp, PS_SELECT); }
cmd ::= WITH ctelist select. { plan_stmt_begin(pp, PS_SELECT); }
cmd ::= WITH RECURSIVE ctelist select. { plan_stmt_unsupported(pp, "WITH RECURSIVE"); }
select ::= query(Q). { plan_query_adopt(pp, Q); }

ctelist ::= cte.
ctelist ::= ctelist COMMA cte.
cte ::= ident_tok(N) AS qparens(Q). { plan_stmt_cte(pp, &N, Q); }
cte ::= ident_tok(N) LP dcols RP AS qparens(Q). { plan_stmt_cte_cols(pp, &N, Q); }
/* Column lists of CTEs and derived tables: t(a, b). */
dcols ::= ident_tok(N). { plan_stmt_pending_col(pp, &N, true); }
dcols ::= dcols COMMA ident_tok(N). { plan_stmt_pending_col(pp, &N, false); }

/* Set operations (plan_query.c builds, plan_setop.c plans): UNION / EXCEPT (MINUS) / INTERSECT
 * [ALL | DISTINCT], left to right; plan_query_setop makes INTERSECT bind tighter. ORDER BY /
 * LIMIT after the last operand apply to the whole; a parenthesised operand keeps its own, and
 * `(query) ORDER BY ... LIMIT ...` orders / limits that query (qtail). `((SELECT 1))` in an
 * expression is one scalar subquery however it is read: the query reading wins (qprim's
 * precedence above expr's, as MySQL's SUBQUERY_AS_EXPR), so `x IN ((SELECT ...))` is an IN
 * subquery. MINUS (Doris) is reserved. */
%fallback ID VIEW.
%fallback ID ACTION CASCADE CONSTRAINT FOREIGN REFERENCES RESTRICT ZEROFILL NO CHECK CUBE GROUPING SETS.
%type setop_all {int}
setop_all(A) ::= . { A = 0; }
setop_all(A) ::= ALL. { A = 1; }
setop_all(A) ::= DISTINCT. { A = 0; }
%type setop_kw {int}
setop_kw(A) ::= UNION setop_all(K). { A = PLAN_SETOP_UNION * 2 + K; }
setop_kw(A) ::= EXCEPT setop_all(K). { A = PLAN_SETOP_EXCEPT * 2 + K; }
setop_kw(A) ::= SETMINUS setop_all(K). { A = PLAN_SETOP_EXCEPT * 2 + K; }
setop_kw(A) ::= INTERSECT setop_all(K). { A = PLAN_SETOP_INTERSECT * 2 + K; }
%type query {plan_qexpr}
query(A) ::= qprim(P). { A = P; }
query(A) ::= query(L) setop_kw(K) qprim(R). { A = plan_query_setop(pp, L, K, R); }
%type qprim {plan_qexpr}
qprim(A) ::= simple_select(S). { A = S; }
qprim(A) ::= qparens(P). [SUBQ_QUERY] { A = P; }
qprim(A) ::= qparens(P) qtail_begin qtail. { A = plan_query_tail(pp, P); }
qtail_begin ::= . { plan_query_tail_begin(pp); }
qtail ::= ORDER BY orderlist limit_opt.
qtail ::= limit_clause.
%type qparens {plan_qexpr}
qparens(A) ::= LP(L) query(Q) RP(R). { A = plan_query_parens(pp, Q, &L, &R); }
qparens(A) ::= LP(L) qwith(Q) RP(R). { A = plan_query_parens(pp, Q, &L, &R); }
/* A WITH list of a nested query: (WITH c AS (...) SELECT ...). with_begin pushes the statement
 * that holds the CTEs, and the query moves into it. */
with_begin ::= WITH. { plan_stmt_push(pp); }
%type qwith {plan_qexpr}
qwith(A) ::= with_begin ctelist query(Q). { A = plan_query_with(pp, Q); }
qwith(A) ::= with_begin RECURSIVE ctelist query(Q). { plan_stmt_unsupported(pp, "WITH RECURSIVE"); A = plan_query_with(pp, Q); }
/* In FROM a '(' followed by '(' or a name opens a join tree (join_group_begin) before it is
 * known whether a query is inside: a query there (fgquery) cancels it, and becomes a derived
 * table (`((SELECT 1) UNION (SELECT 2)) d`) or a parenthesised operand of an enclosing one. */
%type fquery {plan_qexpr}
fquery(A) ::= simple_select(S). { A = S; }
fquery(A) ::= fquery(L) setop_kw(K) qprim(R). { A = plan_query_setop(pp, L, K, R); }
%type fgquery {plan_qexpr}
fgquery(A) ::= fgprim(P). { A = P; }
fgquery(A) ::= fgquery(L) setop_kw(K) qprim(R). { A = plan_query_setop(pp, L, K, R); }
%type fgprim {plan_qexpr}
fgprim(A) ::= fparens(P). { A = P; }
fgprim(A) ::= fparens(P) qtail_begin qtail. { A = plan_query_tail(pp, P); }
%type fparens {plan_qexpr}
fparens(A) ::= LP(L) fquery(Q) RP(R). { A = plan_query_parens(pp, Q, &L, &R); }
fparens(A) ::= LP(L) qwith(Q) RP(R). { A = plan_query_parens(pp, Q, &L, &R); }
fparens(A) ::= join_group_begin(L) fgquery(Q) RP(R). { plan_stmt_join_group_cancel(pp); A = plan_query_parens(pp, Q, &L, &R); }

/* EXPLAIN [VERBOSE | ANALYZE] / DESC / DESCRIBE <select>: the plan, not the rows
 * (plan_explain.c). DESC <table> stays DESC TABLE: a SELECT keyword picks this rule. */
%fallback ID ANALYZE VERBOSE.
cmd ::= explain_kw(K) select. { pp->stmt->explain = (uint8_t)K; plan_stmt_begin(pp, PS_SELECT); }
cmd ::= explain_kw(K) WITH ctelist select. { pp->stmt->explain = (uint8_t)K; plan_stmt_begin(pp, PS_SELECT); }
cmd ::= explain_kw WITH RECURSIVE ctelist select. { plan_stmt_unsupported(pp, "WITH RECURSIVE"); }
%type explain_kw {int}
explain_kw(A) ::= EXPLAIN. { A = PLAN_EXPLAIN_PLAIN; }
explain_kw(A) ::= EXPLAIN VERBOSE. { A = PLAN_EXPLAIN_VERBOSE; }
explain_kw(A) ::= EXPLAIN ANALYZE. { A = PLAN_EXPLAIN_ANALYZE; }
explain_kw(A) ::= DESC. { A = PLAN_EXPLAIN_PLAIN; }
explain_kw(A) ::= DESCRIBE. { A = PLAN_EXPLAIN_PLAIN; }

sel_kw ::= SELECT. { plan_stmt_push(pp); }
%type simple_select {plan_qexpr}
simple_select(A) ::= sel_kw distinct_opt selitems from_opt where_opt group_opt having_opt window_opt order_opt limit_opt. { plan_stmt_windows_resolve(pp); A = plan_query_block(pp); }
/* WINDOW w AS (spec), ...: named windows of this query block, used as OVER w. */
window_opt ::= .
window_opt ::= WINDOW wdefs.
wdefs ::= wdef.
wdefs ::= wdefs COMMA wdef.
wdef ::= ident_tok(N) AS LP wspec(W) RP. { plan_stmt_window_def(pp, &N, W); }

distinct_opt ::= .
distinct_opt ::= ALL.
distinct_opt ::= DISTINCT. { pp->stmt->distinct = true; }

selitems ::= selitem.
selitems ::= selitems COMMA selitem.

selitem ::= expr(X). { plan_stmt_select_item(pp, X, NULL, false); }
selitem ::= expr(X) ident_tok(A). { plan_stmt_select_item(pp, X, &A, false); }
selitem ::= expr(X) AS ident_tok(A). { plan_stmt_select_item(pp, X, &A, false); }
selitem ::= expr(X) AS STRING(A). { plan_stmt_select_item(pp, X, &A, true); }
selitem ::= expr(X) STRING(A). [LOWEST] { plan_stmt_select_item(pp, X, &A, true); }
selitem ::= STAR. { plan_stmt_select_star(pp, NULL, NULL); }
selitem ::= ident_tok(Q) DOT STAR. { plan_stmt_select_star(pp, NULL, &Q); }
selitem ::= ident_tok(D) DOT ident_tok(Q) DOT STAR. { plan_stmt_select_star(pp, &D, &Q); }

from_opt ::= .
from_opt ::= FROM DUAL.
from_opt ::= FROM tablelist.

tablelist ::= tableref.
tablelist ::= tablelist COMMA tableref. { plan_stmt_comma(pp); }
tablelist ::= tablelist join_kw(K) tableref join_cond. { plan_stmt_join(pp, K & 15, K >= 16); }

%type join_kw {int}
join_kw(K) ::= JOIN. { K = plan_stmt_full_pending(pp, NULL); }
join_kw(K) ::= OUTER(T) JOIN. { K = plan_stmt_full_pending(pp, &T); }
join_kw(K) ::= INNER JOIN. { K = PLAN_JOIN_INNER; }
join_kw(K) ::= CROSS JOIN. { K = PLAN_JOIN_CROSS; }
join_kw(K) ::= STRAIGHT_JOIN. { K = PLAN_JOIN_INNER; }
join_kw(K) ::= NATURAL JOIN. { K = PLAN_JOIN_INNER + 16; }
join_kw(K) ::= NATURAL INNER JOIN. { K = PLAN_JOIN_INNER + 16; }
join_kw(K) ::= NATURAL LEFT outer_opt JOIN. { K = PLAN_JOIN_LEFT + 16; }
join_kw(K) ::= NATURAL RIGHT outer_opt JOIN. { K = PLAN_JOIN_RIGHT + 16; }
join_kw(K) ::= LEFT outer_opt JOIN. { K = PLAN_JOIN_LEFT; }
join_kw(K) ::= RIGHT outer_opt JOIN. { K = PLAN_JOIN_RIGHT; }
join_kw(K) ::= FULL outer_opt JOIN. { K = PLAN_JOIN_FULL; }

outer_opt ::= .
outer_opt ::= OUTER.

join_cond ::= .
join_cond ::= ON expr(X). { plan_stmt_join_on(pp, X); }
join_cond ::= USING LP join_using RP.

join_using ::= ident_tok(N). { plan_stmt_join_using(pp, &N); }
join_using ::= join_using COMMA ident_tok(N). { plan_stmt_join_using(pp, &N); }

tableref ::= ident_tok(N). { plan_stmt_table(pp, NULL, &N, NULL); }
tableref ::= ident_tok(N) ident_tok(A). { plan_stmt_table_alias(pp, NULL, &N, &A); }
tableref ::= ident_tok(N) AS ident_tok(A). { plan_stmt_table(pp, NULL, &N, &A); }
tableref ::= ident_tok(D) DOT ident_tok(N). { plan_stmt_table(pp, &D, &N, NULL); }
tableref ::= ident_tok(C) DOT ident_tok(D) DOT ident_tok(N). { plan_ast_catalog(pp, &C); plan_stmt_table(pp, &D, &N, NULL); }
tableref ::= ident_tok(C) DOT ident_tok(D) DOT ident_tok(N) ident_tok(A). { plan_ast_catalog(pp, &C); plan_stmt_table(pp, &D, &N, &A); }
tableref ::= ident_tok(C) DOT ident_tok(D) DOT ident_tok(N) AS ident_tok(A). { plan_ast_catalog(pp, &C); plan_stmt_table(pp, &D, &N, &A); }
tableref ::= ident_tok(D) DOT ident_tok(N) ident_tok(A). { plan_stmt_table_alias(pp, &D, &N, &A); }
tableref ::= ident_tok(D) DOT ident_tok(N) AS ident_tok(A). { plan_stmt_table(pp, &D, &N, &A); }
tableref ::= fparens(Q) as_opt ident_tok(A). { plan_stmt_derived(pp, Q, &A); }
tableref ::= fparens(Q) as_opt ident_tok(A) LP dcols RP. { plan_stmt_derived_cols(pp, Q, &A); }
/* A parenthesised join tree: a JOIN (b JOIN c ON ...) ON ... (inner joins only). */
tableref ::= join_group_begin tablelist RP. { plan_stmt_join_group_end(pp); }
%type join_group_begin {plan_token}
join_group_begin(A) ::= LP(T). { plan_stmt_join_group_begin(pp); A = T; }
/* Time travel: FOR VERSION AS OF <tso> | FOR TIME AS OF '<datetime>' (plan_stmt_as_of marks the
 * table just added). */
tableref ::= ident_tok(N) dml_asof(X). { plan_stmt_table(pp, NULL, &N, NULL); plan_stmt_as_of(pp, X); }
tableref ::= ident_tok(N) dml_asof(X) AS ident_tok(A). { plan_stmt_table(pp, NULL, &N, &A); plan_stmt_as_of(pp, X); }
tableref ::= ident_tok(D) DOT ident_tok(N) dml_asof(X). { plan_stmt_table(pp, &D, &N, NULL); plan_stmt_as_of(pp, X); }
tableref ::= ident_tok(D) DOT ident_tok(N) dml_asof(X) AS ident_tok(A). { plan_stmt_table(pp, &D, &N, &A); plan_stmt_as_of(pp, X); }
/* Table functions and scan parameters (plan_binlog.c): binlog("table" = "t", ...) and
 * t@incr("startTimestamp" = "...", ...); streams will add s@snapshot() / s@reset(). */
tableref ::= ident_tok(F) LP tvf_args RP. { plan_stmt_tvf(pp, &F, NULL); }
tableref ::= ident_tok(F) LP tvf_args RP as_opt ident_tok(A). { plan_stmt_tvf(pp, &F, &A); }
tableref ::= ident_tok(N) USERVAR(P) LP tvf_args RP. { plan_stmt_table(pp, NULL, &N, NULL); plan_stmt_scan_params(pp, &P); }
tableref ::= ident_tok(N) USERVAR(P) LP tvf_args RP as_opt ident_tok(A). { plan_stmt_table(pp, NULL, &N, &A); plan_stmt_scan_params(pp, &P); }
tableref ::= ident_tok(D) DOT ident_tok(N) USERVAR(P) LP tvf_args RP. { plan_stmt_table(pp, &D, &N, NULL); plan_stmt_scan_params(pp, &P); }
tableref ::= ident_tok(D) DOT ident_tok(N) USERVAR(P) LP tvf_args RP as_opt ident_tok(A). { plan_stmt_table(pp, &D, &N, &A); plan_stmt_scan_params(pp, &P); }
/* FROM t PARTITION (p1, p2): read only those partitions (a stream advances only them). */
tableref ::= ident_tok(N) sel_parts. { plan_stmt_table(pp, NULL, &N, NULL); plan_stmt_table_parts(pp); }
tableref ::= ident_tok(N) sel_parts ident_tok(A). { plan_stmt_table(pp, NULL, &N, &A); plan_stmt_table_parts(pp); }
tableref ::= ident_tok(N) sel_parts AS ident_tok(A). { plan_stmt_table(pp, NULL, &N, &A); plan_stmt_table_parts(pp); }
tableref ::= ident_tok(D) DOT ident_tok(N) sel_parts. { plan_stmt_table(pp, &D, &N, NULL); plan_stmt_table_parts(pp); }
tableref ::= ident_tok(D) DOT ident_tok(N) sel_parts ident_tok(A). { plan_stmt_table(pp, &D, &N, &A); plan_stmt_table_parts(pp); }
tableref ::= ident_tok(D) DOT ident_tok(N) sel_parts AS ident_tok(A). { plan_stmt_table(pp, &D, &N, &A); plan_stmt_table_parts(pp); }
tableref ::= ident_tok(N) USERVAR(P) LP tvf_args RP sel_parts. { plan_stmt_table(pp, NULL, &N, NULL); plan_stmt_scan_params(pp, &P); plan_stmt_table_parts(pp); }
tableref ::= ident_tok(N) USERVAR(P) LP tvf_args RP sel_parts as_opt ident_tok(A). { plan_stmt_table(pp, NULL, &N, &A); plan_stmt_scan_params(pp, &P); plan_stmt_table_parts(pp); }
tableref ::= ident_tok(D) DOT ident_tok(N) USERVAR(P) LP tvf_args RP sel_parts. { plan_stmt_table(pp, &D, &N, NULL); plan_stmt_scan_params(pp, &P); plan_stmt_table_parts(pp); }
tableref ::= ident_tok(D) DOT ident_tok(N) USERVAR(P) LP tvf_args RP sel_parts as_opt ident_tok(A). { plan_stmt_table(pp, &D, &N, &A); plan_stmt_scan_params(pp, &P); plan_stmt_table_parts(pp); }
sel_parts ::= PARTITION LP sel_partlist RP.
sel_parts ::= PARTITIONS LP sel_partlist RP.
sel_parts ::= TEMPORARY sel_partkw LP sel_partlist RP. { plan_stmt_temp_parts(pp); }
sel_partkw ::= PARTITION.
sel_partkw ::= PARTITIONS.
sel_partlist ::= ident_tok(P). { plan_stmt_sel_part(pp, &P); }
sel_partlist ::= sel_partlist COMMA ident_tok(P). { plan_stmt_sel_part(pp, &P); }
tvf_args ::= .
tvf_args ::= tvf_arglist.
tvf_arglist ::= tvf_arg.
tvf_arglist ::= tvf_arglist COMMA tvf_arg.
tvf_arg ::= STRING(K) EQ STRING(V). { plan_stmt_tvf_arg(pp, &K, &V); }
/* A bare argument (s@snapshot(x), t@incr(1, 2)): parsed so that its function can refuse it. */
tvf_arg ::= ident_tok(V). { plan_stmt_tvf_bare(pp, &V); }
tvf_arg ::= STRING(V). { plan_stmt_tvf_bare(pp, &V); }
tvf_arg ::= INTNUM(V). { plan_stmt_tvf_bare(pp, &V); }

%type dml_asof {plan_ast *}
dml_asof(A) ::= FOR VERSION AS OF expr(X). { A = X; }
dml_asof(A) ::= FOR TIME AS OF expr(X). { A = X; A->negated = true; /* marks "time" */ }

as_opt ::= .
as_opt ::= AS.

where_opt ::= .
where_opt ::= WHERE expr(X). { pp->stmt->where = X; }

group_opt ::= .
group_opt ::= GROUP BY exprlist(L). { pp->stmt->group = L; }
/* Super-aggregates: MySQL's WITH ROLLUP, Doris's ROLLUP (...), CUBE (...) and GROUPING SETS
 * ((...), ...) (plan_select.c: one UNION ALL branch per grouping set). */
group_opt ::= GROUP BY exprlist(L) WITH ROLLUP. { pp->stmt->group = L; pp->stmt->gkind = PLAN_GK_ROLLUP; }
group_opt ::= GROUP BY ROLLUP LP exprlist(L) RP. { pp->stmt->group = L; pp->stmt->gkind = PLAN_GK_ROLLUP; }
group_opt ::= GROUP BY CUBE LP exprlist(L) RP. { pp->stmt->group = L; pp->stmt->gkind = PLAN_GK_CUBE; }
group_opt ::= GROUP BY GROUPING SETS LP gsets RP. { pp->stmt->gkind = PLAN_GK_SETS; }
gsets ::= gset.
gsets ::= gsets COMMA gset.
gset ::= LP RP. { plan_stmt_gset(pp, NULL); }
gset ::= LP exprlist(L) RP. { plan_stmt_gset(pp, L); }

having_opt ::= .
having_opt ::= HAVING expr(X). { pp->stmt->having = X; }

order_opt ::= .
order_opt ::= ORDER BY orderlist.

orderlist ::= orderitem.
orderlist ::= orderlist COMMA orderitem.

orderitem ::= expr(X) dir_opt(D) nulls_opt(N). { plan_stmt_order(pp, X, D != 0, N); }

/* Doris NULLS FIRST / NULLS LAST (NULLS and LAST are plain words checked by the builder). */
%type nulls_opt {int}
nulls_opt(A) ::= . { A = 0; }
nulls_opt(A) ::= ID(W) FIRST(F). { A = plan_ast_nulls(pp, &W, &F); }
nulls_opt(A) ::= ID(W) ID(L). { A = plan_ast_nulls(pp, &W, &L); }

%type dir_opt {int}
dir_opt(A) ::= . { A = 0; }
dir_opt(A) ::= ASC. { A = 0; }
dir_opt(A) ::= DESC. { A = 1; }

limit_opt ::= .
limit_opt ::= limit_clause.
limit_clause ::= LIMIT limit_val(C). { plan_stmt_limit(pp, C, NULL); }
limit_clause ::= LIMIT limit_val(O) COMMA limit_val(C). { plan_stmt_limit(pp, C, O); }
limit_clause ::= LIMIT limit_val(C) OFFSET limit_val(O). { plan_stmt_limit(pp, C, O); }
/* A number, or a '?' of a prepared statement (numbered in text order like any other). */
%type limit_val {plan_ast *}
limit_val(A) ::= INTNUM(T). { A = plan_ast_literal(pp, PA_INT, &T); }
limit_val(A) ::= QUESTION(T). { A = plan_ast_param(pp, &T); }

/* SET */
cmd ::= SET setlist. { plan_stmt_begin(pp, PS_SET); }
cmd ::= SET TRANSACTION translist. { plan_stmt_begin(pp, PS_SET_TRANSACTION); }
cmd ::= SET scope(S) TRANSACTION translist. { pp->stmt->scope = (plan_scope)S; plan_stmt_begin(pp, PS_SET_TRANSACTION); }

%type scope {int}
scope(A) ::= GLOBAL. { A = PLAN_SCOPE_GLOBAL; }
scope(A) ::= SESSION. { A = PLAN_SCOPE_SESSION; }
scope(A) ::= LOCAL. { A = PLAN_SCOPE_SESSION; }

setlist ::= setitem.
setlist ::= setlist COMMA setitem.

seteq ::= EQ.
seteq ::= ASSIGN.

setitem ::= ident_tok(N) seteq expr(V). { plan_stmt_set_var(pp, PLAN_SCOPE_DEFAULT, false, &N, V); }
setitem ::= ident_tok(N) seteq setword(W). { plan_stmt_set_word(pp, PLAN_SCOPE_DEFAULT, false, &N, &W); }
setitem ::= scope(S) ident_tok(N) seteq expr(V). { plan_stmt_set_var(pp, (plan_scope)S, true, &N, V); }
setitem ::= scope(S) ident_tok(N) seteq setword(W). { plan_stmt_set_word(pp, (plan_scope)S, true, &N, &W); }
setitem ::= SYSVAR(N) seteq expr(V). { plan_stmt_set_var(pp, PLAN_SCOPE_DEFAULT, false, &N, V); }
setitem ::= SYSVAR(N) seteq setword(W). { plan_stmt_set_word(pp, PLAN_SCOPE_DEFAULT, false, &N, &W); }
setitem ::= USERVAR(N) seteq expr(V). { plan_stmt_set_uservar(pp, &N, V); }
setitem ::= NAMES charset_tok(C). { plan_stmt_set_names(pp, PLAN_SET_NAMES, &C, NULL); }
setitem ::= NAMES charset_tok(C) COLLATE charset_tok(L). { plan_stmt_set_names(pp, PLAN_SET_NAMES, &C, &L); }
setitem ::= NAMES DEFAULT. { plan_stmt_set_names(pp, PLAN_SET_NAMES, NULL, NULL); }
setitem ::= CHARACTER SET charset_tok(C). { plan_stmt_set_names(pp, PLAN_SET_CHARSET, &C, NULL); }
setitem ::= CHARACTER SET DEFAULT. { plan_stmt_set_names(pp, PLAN_SET_CHARSET, NULL, NULL); }
setitem ::= CHARSET charset_tok(C). { plan_stmt_set_names(pp, PLAN_SET_CHARSET, &C, NULL); }
setitem ::= CHARSET DEFAULT. { plan_stmt_set_names(pp, PLAN_SET_CHARSET, NULL, NULL); }

%type setword {plan_token}
setword(A) ::= DEFAULT(T). { A = T; }
setword(A) ::= ON(T). { A = T; }
setword(A) ::= ALL(T). { A = T; }
setword(A) ::= BINARY(T). { A = T; }

%type charset_tok {plan_token}
charset_tok(A) ::= ident_tok(T). { A = T; }
charset_tok(A) ::= STRING(T). { A = T; }
charset_tok(A) ::= BINARY(T). { A = T; }

translist ::= transchar.
translist ::= translist COMMA transchar.

transchar ::= ISOLATION LEVEL READ UNCOMMITTED. { pp->stmt->isolation = 0; }
transchar ::= ISOLATION LEVEL READ COMMITTED. { pp->stmt->isolation = 1; }
transchar ::= ISOLATION LEVEL REPEATABLE READ. { pp->stmt->isolation = 2; }
transchar ::= ISOLATION LEVEL SERIALIZABLE. { pp->stmt->isolation = 3; }
transchar ::= READ ONLY. { pp->stmt->access = PLAN_ACCESS_READ_ONLY; }
transchar ::= READ WRITE. { pp->stmt->access = PLAN_ACCESS_READ_WRITE; }

/* SHOW */
cmd ::= SHOW full_opt PROCESSLIST. { plan_stmt_begin(pp, PS_SHOW_PROCESSLIST); }
cmd ::= SHOW show_scope VARIABLES show_filter. { plan_stmt_begin(pp, PS_SHOW_VARIABLES); }
cmd ::= SHOW show_scope STATUS show_filter. { plan_stmt_begin(pp, PS_SHOW_STATUS); }
cmd ::= SHOW WARNINGS limit_opt. { plan_stmt_begin(pp, PS_SHOW_WARNINGS); }
cmd ::= SHOW ERRORS limit_opt. { plan_stmt_begin(pp, PS_SHOW_ERRORS); }
cmd ::= SHOW COUNT LP STAR RP WARNINGS. { plan_stmt_begin(pp, PS_SHOW_COUNT_WARNINGS); }
cmd ::= SHOW COUNT LP STAR RP ERRORS. { plan_stmt_begin(pp, PS_SHOW_COUNT_ERRORS); }
cmd ::= SHOW DATABASES show_filter. { plan_stmt_begin(pp, PS_SHOW_DATABASES); }
cmd ::= SHOW SCHEMAS show_filter. { plan_stmt_begin(pp, PS_SHOW_DATABASES); }
cmd ::= SHOW full_opt TABLES show_from show_filter. { plan_stmt_begin(pp, PS_SHOW_TABLES); }
cmd ::= SHOW CHARACTER SET show_filter. { plan_stmt_begin(pp, PS_SHOW_CHARSET); }
cmd ::= SHOW CHARSET show_filter. { plan_stmt_begin(pp, PS_SHOW_CHARSET); }
cmd ::= SHOW COLLATION show_filter. { plan_stmt_begin(pp, PS_SHOW_COLLATION); }
cmd ::= SHOW ENGINES. { plan_stmt_begin(pp, PS_SHOW_ENGINES); }
cmd ::= SHOW STORAGE ENGINES. { plan_stmt_begin(pp, PS_SHOW_ENGINES); }

full_opt ::= .
full_opt ::= FULL. { pp->stmt->full = true; }

show_scope ::= .
show_scope ::= GLOBAL. { pp->stmt->scope = PLAN_SCOPE_GLOBAL; }
show_scope ::= SESSION. { pp->stmt->scope = PLAN_SCOPE_SESSION; }
show_scope ::= LOCAL. { pp->stmt->scope = PLAN_SCOPE_SESSION; }

show_from ::= .
show_from ::= FROM ident_tok(D). { plan_stmt_name(pp, &D); }
show_from ::= IN ident_tok(D). { plan_stmt_name(pp, &D); }

show_filter ::= .
show_filter ::= LIKE STRING(P). { plan_stmt_like(pp, &P); }
show_filter ::= WHERE expr(X). { pp->stmt->where = X; }

/* KILL, USE, transactions */
cmd ::= KILL expr(X). { pp->stmt->target = X; plan_stmt_begin(pp, PS_KILL); }
cmd ::= KILL CONNECTION expr(X). { pp->stmt->target = X; plan_stmt_begin(pp, PS_KILL); }
cmd ::= KILL QUERY expr(X). { pp->stmt->target = X; pp->stmt->query_only = true; plan_stmt_begin(pp, PS_KILL); }
cmd ::= USE ident_tok(D). { plan_stmt_name(pp, &D); plan_stmt_begin(pp, PS_USE); }
cmd ::= BEGIN work_opt. { plan_stmt_begin(pp, PS_BEGIN); }
cmd ::= START TRANSACTION start_opts. { plan_stmt_begin(pp, PS_BEGIN); }
cmd ::= COMMIT work_opt. { plan_stmt_begin(pp, PS_COMMIT); }
cmd ::= ROLLBACK work_opt. { plan_stmt_begin(pp, PS_ROLLBACK); }

work_opt ::= .
work_opt ::= WORK.

/* SQL-level prepared statements. */
cmd ::= PREPARE ident_tok(N) FROM STRING(T). { plan_stmt_name(pp, &N); pp->stmt->prep_text = plan_ast_string(pp, &T); plan_stmt_begin(pp, PS_PREPARE); }
cmd ::= PREPARE ident_tok(N) FROM USERVAR(V). { plan_stmt_name(pp, &N); pp->stmt->prep_text = plan_ast_uservar(pp, &V); plan_stmt_begin(pp, PS_PREPARE); }
cmd ::= EXECUTE ident_tok(N). { plan_stmt_name(pp, &N); plan_stmt_begin(pp, PS_EXECUTE); }
cmd ::= EXECUTE ident_tok(N) USING usinglist. { plan_stmt_name(pp, &N); plan_stmt_begin(pp, PS_EXECUTE); }
cmd ::= DEALLOCATE PREPARE ident_tok(N). { plan_stmt_name(pp, &N); plan_stmt_begin(pp, PS_DEALLOCATE); }
cmd ::= DROP PREPARE ident_tok(N). { plan_stmt_name(pp, &N); plan_stmt_begin(pp, PS_DEALLOCATE); }

usinglist ::= USERVAR(V). { plan_stmt_using(pp, &V); }
usinglist ::= usinglist COMMA USERVAR(V). { plan_stmt_using(pp, &V); }

start_opts ::= .
start_opts ::= start_optlist.
start_optlist ::= start_opt.
start_optlist ::= start_optlist COMMA start_opt.
start_opt ::= READ ONLY. { pp->stmt->access = PLAN_ACCESS_READ_ONLY; }
start_opt ::= READ WRITE. { pp->stmt->access = PLAN_ACCESS_READ_WRITE; }
start_opt ::= WITH CONSISTENT SNAPSHOT.

/* ---- DML ---- */
/* INSERT / UPDATE / DELETE (plan_dml.c). The target table is stmt->dml_table; INSERT ... SELECT
 * keeps its source query in the statement's SELECT fields. */
%fallback ID LABEL VERSION OF ADMIN COMPACT.

/* INSERT INTO t [PARTITION ...] [WITH LABEL l] [(cols)] VALUES ... | [WITH ctes] query; the
 * query may start with '(' (`INSERT INTO t (SELECT ...)`): no empty column list before it. */
cmd ::= insert.
/* EXPLAIN of an INSERT: parsed, then refused (only queries are explained). */
cmd ::= explain_kw insert. { plan_stmt_unsupported(pp, "EXPLAIN INSERT"); }
insert ::= INSERT into_opt dml_target dml_parts_opt ins_src.
insert ::= INSERT into_opt dml_target dml_parts_opt WITH LABEL ident_tok(L) ins_src. { plan_stmt_label(pp, &L); }
ins_src ::= dml_cols_opt VALUES dml_rows. { plan_stmt_begin(pp, PS_INSERT); }
ins_src ::= ins_select.
ins_src ::= dml_cols ins_select.
ins_select ::= select. { pp->stmt->dml_select = true; plan_stmt_begin(pp, PS_INSERT); }
ins_select ::= WITH ctelist select. { pp->stmt->dml_select = true; plan_stmt_begin(pp, PS_INSERT); }
ins_select ::= WITH RECURSIVE ctelist select. { plan_stmt_unsupported(pp, "WITH RECURSIVE"); }
/* MySQL's REPLACE: an INSERT that replaces rows of existing keys (UNIQUE tables, plan_dml.c);
 * every INSERT form, and REPLACE ... SET. */
cmd ::= REPLACE into_opt dml_target dml_parts_opt rep_src.
cmd ::= REPLACE into_opt dml_target dml_parts_opt WITH LABEL ident_tok(L) rep_src. { plan_stmt_label(pp, &L); }
rep_src ::= ins_src. { pp->stmt->dml_replace = true; }
rep_src ::= SET dml_assigns. { pp->stmt->dml_replace = pp->stmt->dml_has_cols = true; plan_stmt_dml_row_end(pp); plan_stmt_begin(pp, PS_INSERT); }
cmd ::= UPDATE dml_target SET dml_assigns where_opt order_opt dml_limit_opt. { plan_stmt_begin(pp, PS_UPDATE); }
cmd ::= DELETE FROM dml_target dml_parts_opt where_opt order_opt dml_limit_opt. { plan_stmt_begin(pp, PS_DELETE); }
/* MySQL's single-table UPDATE / DELETE ... [ORDER BY ...] [LIMIT n] (no offset). */
dml_limit_opt ::= .
dml_limit_opt ::= LIMIT limit_val(C). { plan_stmt_limit(pp, C, NULL); }
cmd ::= BEGIN WITH LABEL ident_tok(L). { plan_stmt_label(pp, &L); plan_stmt_begin(pp, PS_BEGIN); }
/* ADMIN COMPACT TABLE t [PARTITION p] WHERE type = 'BASE' | 'CUMULATIVE' (Doris). */
cmd ::= ADMIN COMPACT TABLE dml_target dml_parts_opt WHERE expr(X). { pp->stmt->where = X; plan_stmt_begin(pp, PS_ADMIN_COMPACT); }

into_opt ::= .
into_opt ::= INTO.
dml_target ::= ident_tok(N). { plan_stmt_dml_target(pp, NULL, &N); }
dml_target ::= ident_tok(D) DOT ident_tok(N). { plan_stmt_dml_target(pp, &D, &N); }
dml_target ::= ident_tok(C) DOT ident_tok(D) DOT ident_tok(N). { plan_ast_catalog(pp, &C); plan_stmt_dml_target(pp, &D, &N); }
dml_parts_opt ::= .
dml_parts_opt ::= PARTITION LP dml_partlist RP.
dml_parts_opt ::= PARTITIONS LP dml_partlist RP.
dml_parts_opt ::= TEMPORARY sel_partkw LP dml_partlist RP. { plan_stmt_temp_parts(pp); }
dml_parts_opt ::= PARTITION ident_tok(P). { plan_stmt_dml_part(pp, &P); }
dml_partlist ::= ident_tok(P). { plan_stmt_dml_part(pp, &P); }
dml_partlist ::= dml_partlist COMMA ident_tok(P). { plan_stmt_dml_part(pp, &P); }
dml_cols_opt ::= .
dml_cols_opt ::= dml_cols.
dml_cols ::= LP RP. { pp->stmt->dml_has_cols = true; }
dml_cols ::= LP dml_collist RP. { pp->stmt->dml_has_cols = true; }
dml_collist ::= ident_tok(C). { plan_stmt_dml_col(pp, &C); }
dml_collist ::= dml_collist COMMA ident_tok(C). { plan_stmt_dml_col(pp, &C); }
dml_rows ::= dml_row.
dml_rows ::= dml_rows COMMA dml_row.
dml_row ::= LP RP. { plan_stmt_dml_row_end(pp); }
dml_row ::= LP dml_vals RP. { plan_stmt_dml_row_end(pp); }
dml_vals ::= dml_val.
dml_vals ::= dml_vals COMMA dml_val.
dml_val ::= expr(X). { plan_stmt_dml_value(pp, X); }
dml_val ::= DEFAULT. { plan_stmt_dml_value(pp, NULL); }
dml_assigns ::= dml_assign.
dml_assigns ::= dml_assigns COMMA dml_assign.
dml_assign ::= ident_tok(C) EQ expr(X). { plan_stmt_dml_col(pp, &C); plan_stmt_dml_value(pp, X); }
dml_assign ::= ident_tok(Q) DOT ident_tok(C) EQ expr(X). { (void)Q; plan_stmt_dml_col(pp, &C); plan_stmt_dml_value(pp, X); }
dml_assign ::= ident_tok(C) EQ DEFAULT. { plan_stmt_dml_col(pp, &C); plan_stmt_dml_value(pp, NULL); }

/* ---- DCL ---- */
/* Users and privileges (plan_dcl.c builds the plan_dcl). Nonterminals carry a dcl_ prefix.
 * Privilege words other than the reserved SELECT, ALTER, CREATE, DROP and ALL are IDs checked
 * by plan_dcl_priv. */
%fallback ID USER USERS GRANTS PRIVILEGES IDENTIFIED.

cmd ::= CREATE USER dcl_ifne dcl_user dcl_identified. { plan_dcl_begin(pp, PLAN_DCL_CREATE_USER); }
cmd ::= DROP USER dcl_ife dcl_user. { plan_dcl_begin(pp, PLAN_DCL_DROP_USER); }
cmd ::= ALTER USER dcl_user IDENTIFIED BY STRING(P). { plan_dcl_password(pp, &P, false); plan_dcl_begin(pp, PLAN_DCL_ALTER_USER); }
cmd ::= SET PASSWORD EQ dcl_pw. { plan_dcl_begin(pp, PLAN_DCL_SET_PASSWORD); }
cmd ::= SET PASSWORD FOR dcl_user EQ dcl_pw. { plan_dcl_begin(pp, PLAN_DCL_SET_PASSWORD); }
cmd ::= GRANT dcl_privs ON dcl_level TO dcl_user. { plan_dcl_begin(pp, PLAN_DCL_GRANT); }
cmd ::= REVOKE dcl_privs ON dcl_level FROM dcl_user. { plan_dcl_begin(pp, PLAN_DCL_REVOKE); }
cmd ::= SHOW GRANTS. { plan_dcl_begin(pp, PLAN_DCL_SHOW_GRANTS); }
cmd ::= SHOW GRANTS FOR dcl_user. { plan_dcl_begin(pp, PLAN_DCL_SHOW_GRANTS); }
cmd ::= SHOW GRANTS FOR CURRENT_USER dcl_parens. { plan_dcl_begin(pp, PLAN_DCL_SHOW_GRANTS); }
cmd ::= SHOW ALL GRANTS. { plan_dcl_all(pp); plan_dcl_begin(pp, PLAN_DCL_SHOW_GRANTS); }
cmd ::= SHOW USERS. { plan_dcl_begin(pp, PLAN_DCL_SHOW_USERS); }

dcl_parens ::= .
dcl_parens ::= LP RP.

dcl_ifne ::= .
dcl_ifne ::= IF NOT EXISTS. { plan_dcl_if_exists(pp); }
dcl_ife ::= .
dcl_ife ::= IF EXISTS. { plan_dcl_if_exists(pp); }

dcl_identified ::= .
dcl_identified ::= IDENTIFIED BY STRING(P). { plan_dcl_password(pp, &P, false); }
dcl_identified ::= IDENTIFIED BY PASSWORD STRING(P). { plan_dcl_password(pp, &P, true); }

dcl_pw ::= PASSWORD LP STRING(P) RP. { plan_dcl_password(pp, &P, false); }
dcl_pw ::= STRING(P). { plan_dcl_password(pp, &P, false); }

/* 'user'@'host', user@host, 'user' (host '%'). The lexer reads @'host' as one USERVAR. */
dcl_user ::= dcl_name(U). { plan_dcl_user(pp, &U, NULL); }
dcl_user ::= dcl_name(U) USERVAR(H). { plan_dcl_user(pp, &U, &H); }
%type dcl_name {plan_token}
dcl_name(A) ::= ident_tok(T). { A = T; }
dcl_name(A) ::= STRING(T). { A = T; }

dcl_privs ::= dcl_priv.
dcl_privs ::= dcl_privs COMMA dcl_priv.
dcl_priv ::= ID(W). { plan_dcl_priv(pp, &W); }
dcl_priv ::= SELECT(W). { plan_dcl_priv(pp, &W); }
dcl_priv ::= ALTER(W). { plan_dcl_priv(pp, &W); }
dcl_priv ::= CREATE(W). { plan_dcl_priv(pp, &W); }
dcl_priv ::= DROP(W). { plan_dcl_priv(pp, &W); }
dcl_priv ::= INSERT(W). { plan_dcl_priv(pp, &W); }
dcl_priv ::= UPDATE(W). { plan_dcl_priv(pp, &W); }
dcl_priv ::= DELETE(W). { plan_dcl_priv(pp, &W); }
dcl_priv ::= ALL(W). { plan_dcl_priv(pp, &W); }
dcl_priv ::= ALL(W) PRIVILEGES. { plan_dcl_priv(pp, &W); }

/* ON tbl | db.tbl | ctl.db.tbl, each part a name or * */
dcl_level ::= dcl_obj(T). { plan_dcl_level(pp, NULL, NULL, &T); }
dcl_level ::= dcl_obj(D) DOT dcl_obj(T). { plan_dcl_level(pp, NULL, &D, &T); }
dcl_level ::= dcl_obj(C) DOT dcl_obj(D) DOT dcl_obj(T). { plan_dcl_level(pp, &C, &D, &T); }
%type dcl_obj {plan_token}
dcl_obj(A) ::= ident_tok(T). { A = T; }
dcl_obj(A) ::= STAR(T). { A = T; }

/* ---- DDL ---- */
/* Databases, tables, ALTER TABLE and the catalog SHOW statements (plan_ddl_ast.c builds the
 * plan_ddl of plan_ddl_int.h, plan_ddl.c / plan_show.c run it). Nonterminals carry a ddl_
 * prefix. Lists (column names, partition values, properties, column definitions) accumulate in
 * the plan_ddl and the clause that uses them takes them. Every keyword here is non-reserved. */
%fallback ID TABLE PROPERTIES FORCE KEY DUPLICATE UNIQUE AGGREGATE CLUSTER COMMENTKW PARTITION
    PARTITIONS RANGE LIST VALUES LESS THAN MAXVALUE DISTRIBUTED HASH BUCKETS AUTO RANDOM ENGINE
    AUTO_INCREMENT ADD COLUMN COLUMNS FIELDS AFTER FIRST MODIFY RENAME DESCRIBE PRIMARY BUILD
    INDEX SUM MIN MAX REPLACE_IF_NOT_NULL HLL_UNION BITMAP_UNION NONE TRUNCATE RECOVER TEMPORARY
    TBLOPT.

cmd ::= CREATE ddl_dbkw ddl_ifne ident_tok(D) ddl_props_opt. { plan_ddl_target(pp, NULL, &D); plan_ddl_begin(pp, PD_CREATE_DB); }
cmd ::= DROP ddl_dbkw ddl_ife ident_tok(D) ddl_force_opt. { plan_ddl_target(pp, NULL, &D); plan_ddl_begin(pp, PD_DROP_DB); }
cmd ::= ALTER ddl_dbkw ident_tok(D) SET PROPERTIES LP ddl_proplist RP. { plan_ddl_target(pp, NULL, &D); plan_ddl_begin(pp, PD_ALTER_DB); }
cmd ::= SHOW CREATE ddl_dbkw ident_tok(D). { plan_ddl_target(pp, NULL, &D); plan_ddl_begin(pp, PD_SHOW_CREATE_DB); }
cmd ::= CREATE TABLE ddl_ifne ddl_tbl LP ddl_elems RP ddl_tblopts. { plan_ddl_begin(pp, PD_CREATE_TABLE); }
cmd ::= CREATE TABLE ddl_ifne ddl_tbl LIKE ident_tok(N). { plan_ddl_like(pp, NULL, &N); plan_ddl_begin(pp, PD_CREATE_TABLE); }
cmd ::= CREATE TABLE ddl_ifne ddl_tbl LIKE ident_tok(D) DOT ident_tok(N). { plan_ddl_like(pp, &D, &N); plan_ddl_begin(pp, PD_CREATE_TABLE); }
cmd ::= DROP TABLE ddl_ife ddl_tbl ddl_force_opt. { plan_ddl_begin(pp, PD_DROP_TABLE); }
cmd ::= ALTER TABLE ddl_tbl ddl_alters. { plan_ddl_begin(pp, PD_ALTER_TABLE); }
cmd ::= SHOW CREATE TABLE ddl_tbl. { plan_ddl_begin(pp, PD_SHOW_CREATE_TABLE); }
/* Views (plan_ddl.c): the definition is kept as the text `CREATE VIEW `v` [(cols)] AS <select as
 * written>` and expanded as a derived table. CREATE TABLE ... AS SELECT (CTAS): the SELECT is the
 * statement's select fields. */
cmd ::= CREATE ddl_orrep VIEW ddl_tbl ddl_viewcols AS(A) select. { plan_ddl_view(pp, &A); plan_ddl_begin(pp, PD_CREATE_VIEW); }
ddl_orrep ::= .
ddl_orrep ::= OR REPLACE. { plan_ddl_flag(pp, PLAN_DDL_OR_REPLACE); }
ddl_viewcols ::= .
ddl_viewcols ::= LP ddl_names RP.
cmd ::= DROP VIEW ddl_ife ddl_tbl. { plan_ddl_begin(pp, PD_DROP_VIEW); }
cmd ::= SHOW CREATE VIEW ddl_tbl. { plan_ddl_begin(pp, PD_SHOW_CREATE_VIEW); }
cmd ::= CREATE TABLE ddl_ifne ddl_tbl LP ddl_elems RP ddl_tblopts AS select. { plan_ddl_ctas(pp); plan_ddl_begin(pp, PD_CREATE_TABLE); }
cmd ::= CREATE TABLE ddl_ifne ddl_tbl ddl_tblopts AS select. { plan_ddl_ctas(pp); plan_ddl_begin(pp, PD_CREATE_TABLE); }
cmd ::= DESC ddl_tbl ddl_all_opt. { plan_ddl_begin(pp, PD_DESC); }
cmd ::= DESCRIBE ddl_tbl ddl_all_opt. { plan_ddl_begin(pp, PD_DESC); }
cmd ::= SHOW full_opt ddl_colskw ddl_fromkw ddl_tbl ddl_coldb show_filter. { plan_ddl_begin(pp, PD_SHOW_COLUMNS); }
cmd ::= SHOW PARTITIONS FROM ddl_tbl show_filter. { plan_ddl_begin(pp, PD_SHOW_PARTITIONS); }
cmd ::= SHOW ddl_temp_kw PARTITIONS FROM ddl_tbl show_filter. { plan_ddl_begin(pp, PD_SHOW_PARTITIONS); }
cmd ::= SHOW TABLE STATUS show_from show_filter. { plan_ddl_begin(pp, PD_SHOW_TABLE_STATUS); }
/* Doris SHOW TABLETS (storage figures of each tablet) and MySQL SHOW INDEX (no user indexes:
 * the columns only). */
%fallback ID TABLETS INDEXES KEYS.
cmd ::= SHOW TABLETS FROM ddl_tbl ddl_trunc_parts show_filter. { plan_ddl_begin(pp, PD_SHOW_TABLETS); }
cmd ::= SHOW show_idxkw ddl_fromkw ddl_tbl ddl_coldb show_filter. { plan_ddl_begin(pp, PD_SHOW_INDEX); }
show_idxkw ::= INDEX.
show_idxkw ::= INDEXES.
show_idxkw ::= KEYS.
cmd ::= TRUNCATE TABLE ddl_tbl ddl_trunc_parts. { plan_ddl_begin(pp, PD_TRUNCATE); }
/* Doris cluster, storage and configuration SHOW statements of a single node (plan_show_doris.c):
 * BACKENDS / FRONTENDS / CATALOGS, SHOW DATA, [ADMIN] SHOW FRONTEND | BACKEND CONFIG, SHOW
 * TABLET id, SHOW PROC 'path'. */
%fallback ID BACKEND BACKENDS CATALOGS CONFIG DATA FRONTEND FRONTENDS PROC TABLET.
cmd ::= SHOW BACKENDS. { plan_ddl_begin(pp, PD_SHOW_BACKENDS); }
cmd ::= SHOW FRONTENDS. { plan_ddl_begin(pp, PD_SHOW_FRONTENDS); }
cmd ::= SHOW CATALOGS show_filter. { plan_ddl_begin(pp, PD_SHOW_CATALOGS); }
cmd ::= SHOW DATA order_opt. { plan_ddl_begin(pp, PD_SHOW_DATA); }
cmd ::= SHOW DATA FROM ddl_tbl order_opt. { plan_ddl_begin(pp, PD_SHOW_DATA); }
cmd ::= ADMIN SHOW FRONTEND CONFIG show_filter. { plan_ddl_begin(pp, PD_SHOW_FE_CONFIG); }
cmd ::= SHOW FRONTEND CONFIG show_filter. { plan_ddl_begin(pp, PD_SHOW_FE_CONFIG); }
cmd ::= ADMIN SHOW BACKEND CONFIG show_filter. { plan_ddl_begin(pp, PD_SHOW_BE_CONFIG); }
cmd ::= SHOW BACKEND CONFIG show_filter. { plan_ddl_begin(pp, PD_SHOW_BE_CONFIG); }
cmd ::= SHOW TABLET INTNUM(T). { plan_ddl_target(pp, NULL, &T); plan_ddl_begin(pp, PD_SHOW_TABLET); }
cmd ::= SHOW PROC STRING(P). { plan_ddl_target(pp, NULL, &P); plan_ddl_begin(pp, PD_SHOW_PROC); }

/* Table Streams (plan_stream.c). */
%fallback ID STREAM STREAMS.
cmd ::= CREATE ddl_orrep STREAM ddl_ifne ddl_tbl ON TABLE ddl_sbase ddl_scomment ddl_props_opt. { plan_ddl_begin(pp, PD_CREATE_STREAM); }
ddl_sbase ::= ident_tok(N). { plan_ddl_stream_base(pp, NULL, NULL, &N); }
ddl_sbase ::= ident_tok(D) DOT ident_tok(N). { plan_ddl_stream_base(pp, NULL, &D, &N); }
ddl_sbase ::= ident_tok(C) DOT ident_tok(D) DOT ident_tok(N). { plan_ddl_stream_base(pp, &C, &D, &N); }
ddl_scomment ::= .
ddl_scomment ::= COMMENTKW STRING(C). { plan_ddl_comment(pp, &C); }
cmd ::= ALTER STREAM ddl_tbl SET COMMENTKW STRING(C). { plan_ddl_comment(pp, &C); plan_ddl_begin(pp, PD_ALTER_STREAM); }
cmd ::= ALTER STREAM ddl_tbl MODIFY COMMENTKW STRING(C). { plan_ddl_comment(pp, &C); plan_ddl_begin(pp, PD_ALTER_STREAM); }
cmd ::= DROP STREAM ddl_ife ddl_tbl ddl_force_opt. { plan_ddl_begin(pp, PD_DROP_STREAM); }
cmd ::= SHOW STREAMS show_from show_filter. { plan_ddl_begin(pp, PD_SHOW_STREAMS); }
cmd ::= SHOW CREATE STREAM ddl_tbl. { plan_ddl_begin(pp, PD_SHOW_CREATE_STREAM); }
cmd ::= SHOW STREAM STATUS ddl_tbl. { plan_ddl_begin(pp, PD_SHOW_STREAM_STATUS); }
cmd ::= RECOVER TABLE ddl_tbl. { plan_ddl_begin(pp, PD_RECOVER_TABLE); }
cmd ::= RECOVER ddl_dbkw ident_tok(D). { plan_ddl_target(pp, NULL, &D); plan_ddl_begin(pp, PD_RECOVER_DB); }
/* MySQL secondary indexes: accepted, not built (a warning says so; see README.md §DDL). */
cmd ::= CREATE INDEX ddl_ifne ident_tok(N) ON ddl_tbl LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, &N, false); plan_ddl_begin(pp, PD_CREATE_INDEX); }
cmd ::= CREATE UNIQUE INDEX ddl_ifne ident_tok(N) ON ddl_tbl LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, &N, true); plan_ddl_begin(pp, PD_CREATE_INDEX); }
cmd ::= DROP INDEX ddl_ife ident_tok(N) ON ddl_tbl. { plan_ddl_index(pp, &N, false); plan_ddl_begin(pp, PD_DROP_INDEX); }
/* Doris: BUILD INDEX i ON t [PARTITION (p, ...)] (plan_ddl_index.c). */
cmd ::= BUILD INDEX ident_tok(N) ON ddl_tbl ddl_trunc_parts. { plan_ddl_index(pp, &N, false); plan_ddl_begin(pp, PD_BUILD_INDEX); }
cmd ::= SHOW BUILD INDEX show_from show_filter. { plan_ddl_begin(pp, PD_SHOW_BUILD_INDEX); }
ddl_trunc_parts ::= .
ddl_trunc_parts ::= PARTITION LP ddl_names RP.
ddl_trunc_parts ::= PARTITIONS LP ddl_names RP.

ddl_dbkw ::= DATABASE.
ddl_dbkw ::= SCHEMA.
ddl_colskw ::= COLUMNS.
ddl_colskw ::= FIELDS.
ddl_fromkw ::= FROM.
ddl_fromkw ::= IN.
ddl_coldb ::= .
ddl_coldb ::= ddl_fromkw ident_tok(D). { plan_ddl_target_db(pp, &D); }

ddl_ifne ::= .
ddl_ifne ::= IF NOT EXISTS. { plan_ddl_flag(pp, PLAN_DDL_IF_NOT_EXISTS); }
ddl_ife ::= .
ddl_ife ::= IF EXISTS. { plan_ddl_flag(pp, PLAN_DDL_IF_EXISTS); }
ddl_force_opt ::= .
ddl_force_opt ::= FORCE. { plan_ddl_flag(pp, PLAN_DDL_FORCE); }
ddl_all_opt ::= .
ddl_all_opt ::= ALL. { plan_ddl_flag(pp, PLAN_DDL_ALL); }
ddl_eq_opt ::= .
ddl_eq_opt ::= EQ.

ddl_tbl ::= ident_tok(N). { plan_ddl_target(pp, NULL, &N); }
ddl_tbl ::= ident_tok(D) DOT ident_tok(N). { plan_ddl_target(pp, &D, &N); }
ddl_tbl ::= ident_tok(C) DOT ident_tok(D) DOT ident_tok(N). { plan_ast_catalog(pp, &C); plan_ddl_target(pp, &D, &N); }

ddl_props_opt ::= .
ddl_props_opt ::= PROPERTIES LP ddl_proplist RP.
ddl_proplist ::= ddl_prop.
ddl_proplist ::= ddl_proplist COMMA ddl_prop.
ddl_prop ::= STRING(K) EQ STRING(V). { plan_ddl_prop(pp, &K, &V); }

ddl_names ::= ident_tok(N). { plan_ddl_name(pp, &N); }
ddl_names ::= ddl_names COMMA ident_tok(N). { plan_ddl_name(pp, &N); }

/* Table elements: column definitions and MySQL's PRIMARY KEY (...), KEY / INDEX / UNIQUE
 * [KEY|INDEX] [name] [USING t] (cols) [USING t] [COMMENT '..']. */
ddl_elems ::= ddl_elem.
ddl_elems ::= ddl_elems COMMA ddl_elem.
ddl_elem ::= ddl_coldef.
ddl_elem ::= PRIMARY KEY ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_primary_key(pp); }
ddl_elem ::= ddl_idxkw ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, NULL, false); }
ddl_elem ::= ddl_idxkw ident_tok(N) ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, &N, false); }
ddl_elem ::= UNIQUE ddl_uidxkw ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, NULL, true); }
ddl_elem ::= UNIQUE ddl_uidxkw ident_tok(N) ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, &N, true); }
/* What mysqldump and ORMs emit around keys: CONSTRAINT [name] PRIMARY KEY / UNIQUE (the key
 * as without it), FOREIGN KEY ... REFERENCES and CHECK (accepted, not enforced: a warning). */
ddl_elem ::= CONSTRAINT ddl_cname_opt PRIMARY KEY ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_primary_key(pp); }
ddl_elem ::= CONSTRAINT ddl_cname_opt UNIQUE ddl_uidxkw ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, NULL, true); }
ddl_elem ::= CONSTRAINT ddl_cname_opt UNIQUE ddl_uidxkw ident_tok(N) ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, &N, true); }
ddl_elem ::= ddl_fk_head LP ddl_keyparts RP REFERENCES ddl_fk_table(T) LP ddl_fk_cols RP ddl_fk_actions. { plan_ddl_foreign_key(pp, &T); }
ddl_elem ::= CONSTRAINT ddl_cname_opt CHECK LP expr RP ddl_enforced_opt. { plan_ddl_check(pp); }
ddl_elem ::= CHECK LP expr RP ddl_enforced_opt. { plan_ddl_check(pp); }
ddl_cname_opt ::= .
ddl_cname_opt ::= ident_tok.
ddl_fk_head ::= FOREIGN KEY.
ddl_fk_head ::= FOREIGN KEY ident_tok.
ddl_fk_head ::= CONSTRAINT ddl_cname_opt FOREIGN KEY.
ddl_fk_head ::= CONSTRAINT ddl_cname_opt FOREIGN KEY ident_tok.
%type ddl_fk_table {plan_token}
ddl_fk_table(A) ::= ident_tok(N). { A = N; }
ddl_fk_table(A) ::= ident_tok DOT ident_tok(N). { A = N; }
/* The referenced columns are not the key parts: they are not collected. */
ddl_fk_cols ::= ident_tok.
ddl_fk_cols ::= ddl_fk_cols COMMA ident_tok.
ddl_fk_actions ::= .
ddl_fk_actions ::= ddl_fk_actions ON DELETE ddl_fk_action.
ddl_fk_actions ::= ddl_fk_actions ON UPDATE ddl_fk_action.
ddl_fk_action ::= RESTRICT.
ddl_fk_action ::= CASCADE.
ddl_fk_action ::= SET NULL.
ddl_fk_action ::= SET DEFAULT.
ddl_fk_action ::= NO ACTION.
ddl_enforced_opt ::= .
ddl_enforced_opt ::= ID(E). { plan_ddl_enforced(pp, &E, false); }
ddl_enforced_opt ::= NOT ID(E). { plan_ddl_enforced(pp, &E, true); }
ddl_idxkw ::= KEY.
ddl_idxkw ::= INDEX.
ddl_uidxkw ::= .
ddl_uidxkw ::= KEY.
ddl_uidxkw ::= INDEX.
ddl_idxtype_opt ::= .
ddl_idxtype_opt ::= USING ident_tok(T). { plan_ddl_index_using(pp, &T); }
ddl_idxtype_opt ::= USING HASH.
/* Doris index options: USING INVERTED | BITMAP | NGRAM_BF, PROPERTIES (...), COMMENT '..'. */
ddl_idxopts ::= .
ddl_idxopts ::= ddl_idxopts USING ident_tok(T). { plan_ddl_index_using(pp, &T); }
ddl_idxopts ::= ddl_idxopts USING HASH.
ddl_idxopts ::= ddl_idxopts COMMENTKW STRING(C). { plan_ddl_index_comment(pp, &C); }
ddl_idxopts ::= ddl_idxopts PROPERTIES LP ddl_proplist RP. { plan_ddl_index_props(pp); }
/* Index key parts: a column, with a prefix length and a direction that are ignored. */
ddl_keyparts ::= ddl_keypart.
ddl_keyparts ::= ddl_keyparts COMMA ddl_keypart.
ddl_keypart ::= ident_tok(N) ddl_keylen_opt ddl_dir_opt. { plan_ddl_name(pp, &N); }
ddl_keylen_opt ::= .
ddl_keylen_opt ::= LP INTNUM RP.
ddl_dir_opt ::= .
ddl_dir_opt ::= ASC.
ddl_dir_opt ::= DESC.

ddl_coldefs ::= ddl_coldef.
ddl_coldefs ::= ddl_coldefs COMMA ddl_coldef.
ddl_coldef ::= ddl_colname ddl_type(T) ddl_colattrs. { plan_ddl_col_type(pp, T); }
ddl_colname ::= ident_tok(N). { plan_ddl_col_begin(pp, &N); }

%type ddl_typeword {plan_token}
ddl_typeword(A) ::= ID(T). { A = T; }
ddl_typeword(A) ::= INT(T). { A = T; }
ddl_typeword(A) ::= INTEGER(T). { A = T; }
ddl_typeword(A) ::= DECIMAL(T). { A = T; }
ddl_typeword(A) ::= DOUBLE(T). { A = T; }
ddl_typeword(A) ::= CHAR(T). { A = T; }
%type ddl_type {cat_type *}
ddl_type(A) ::= ddl_typeword(W). { A = plan_ddl_type(pp, &W, NULL, NULL); }
ddl_type(A) ::= ddl_typeword(W) LP INTNUM(P) RP. { A = plan_ddl_type(pp, &W, &P, NULL); }
ddl_type(A) ::= ddl_typeword(W) LP INTNUM(P) COMMA INTNUM(S) RP. { A = plan_ddl_type(pp, &W, &P, &S); }
ddl_type(A) ::= ddl_typeword(W) LT ddl_type(E) GT. { A = plan_ddl_type_nested(pp, &W, E, NULL); }
ddl_type(A) ::= ddl_typeword(W) LT ddl_type(K) COMMA ddl_type(V) GT. { A = plan_ddl_type_nested(pp, &W, K, V); }
ddl_type(A) ::= ddl_typeword(W) LT ddl_typeword(W2) LT ddl_type(E) RSHIFT. { A = plan_ddl_type_nested(pp, &W, plan_ddl_type_nested(pp, &W2, E, NULL), NULL); }
ddl_type(A) ::= ddl_typeword(W) LT ddl_type(K) COMMA ddl_typeword(W2) LT ddl_type(E) RSHIFT. { A = plan_ddl_type_nested(pp, &W, K, plan_ddl_type_nested(pp, &W2, E, NULL)); }

ddl_colattrs ::= .
ddl_colattrs ::= ddl_colattrs ddl_colattr.
ddl_colattr ::= NULL. { plan_ddl_col_null(pp, true); }
ddl_colattr ::= NOT NULL. { plan_ddl_col_null(pp, false); }
ddl_colattr ::= DEFAULT ddl_default.
ddl_colattr ::= AUTO_INCREMENT. { plan_ddl_col_autoinc(pp, NULL); }
ddl_colattr ::= AUTO_INCREMENT LP INTNUM(N) RP. { plan_ddl_col_autoinc(pp, &N); }
ddl_colattr ::= COMMENTKW STRING(C). { plan_ddl_col_comment(pp, &C); }
ddl_colattr ::= PRIMARY KEY. { plan_ddl_col_key(pp, true); }
ddl_colattr ::= UNIQUE. { plan_ddl_col_key(pp, false); }
ddl_colattr ::= UNIQUE KEY. { plan_ddl_col_key(pp, false); }
/* MySQL integer attributes: UNSIGNED widens to the next signed type (Doris has no unsigned
 * integers), ZEROFILL implies UNSIGNED (display padding is not kept), SIGNED is the default. */
ddl_colattr ::= UNSIGNED. { plan_ddl_col_unsigned(pp, false); }
ddl_colattr ::= ZEROFILL. { plan_ddl_col_unsigned(pp, true); }
ddl_colattr ::= SIGNED.
ddl_colattr ::= ON UPDATE CURRENT_TIMESTAMP. { plan_ddl_col_on_update(pp); }
ddl_colattr ::= ON UPDATE CURRENT_TIMESTAMP LP RP. { plan_ddl_col_on_update(pp); }
ddl_colattr ::= ON UPDATE CURRENT_TIMESTAMP LP INTNUM RP. { plan_ddl_col_on_update(pp); }
/* MySQL column character sets and collations: the data is UTF-8 bytes whatever they say. */
ddl_colattr ::= COLLATE charset_tok(C). { plan_ddl_col_charset(pp, &C, true); }
ddl_colattr ::= CHARACTER SET charset_tok(C). { plan_ddl_col_charset(pp, &C, false); }
ddl_colattr ::= CHARSET charset_tok(C). { plan_ddl_col_charset(pp, &C, false); }
/* Aggregation types are tokens, not IDs: an ID here would make Lemon's fallback turn a
 * following non-reserved keyword (AFTER, FIRST, ...) into an aggregation name. */
ddl_colattr ::= ddl_agg(W). { plan_ddl_col_agg(pp, &W); }
%type ddl_agg {plan_token}
ddl_agg(A) ::= SUM(T). { A = T; }
ddl_agg(A) ::= MIN(T). { A = T; }
ddl_agg(A) ::= MAX(T). { A = T; }
ddl_agg(A) ::= REPLACE(T). { A = T; }
ddl_agg(A) ::= REPLACE_IF_NOT_NULL(T). { A = T; }
ddl_agg(A) ::= HLL_UNION(T). { A = T; }
ddl_agg(A) ::= BITMAP_UNION(T). { A = T; }
ddl_agg(A) ::= NONE(T). { A = T; }
ddl_default ::= STRING(V). { plan_ddl_col_default(pp, &V, false, NULL); }
ddl_default ::= INTNUM(V). { plan_ddl_col_default(pp, &V, false, NULL); }
ddl_default ::= DECNUM(V). { plan_ddl_col_default(pp, &V, false, NULL); }
ddl_default ::= FLOATNUM(V). { plan_ddl_col_default(pp, &V, false, NULL); }
ddl_default ::= MINUS INTNUM(V). { plan_ddl_col_default(pp, &V, true, NULL); }
ddl_default ::= MINUS DECNUM(V). { plan_ddl_col_default(pp, &V, true, NULL); }
ddl_default ::= NULL(V). { plan_ddl_col_default(pp, &V, false, NULL); }
ddl_default ::= CURRENT_TIMESTAMP(V). { plan_ddl_col_default(pp, &V, false, NULL); }
ddl_default ::= CURRENT_TIMESTAMP(V) LP INTNUM(P) RP. { plan_ddl_col_default(pp, &V, false, &P); }
ddl_default ::= CURRENT_DATE(V). { plan_ddl_col_default(pp, &V, false, NULL); }

/* CREATE TABLE clauses, in Doris's order. MySQL table options (ENGINE = x, [DEFAULT] CHARSET
 * = x, COLLATE = x, AUTO_INCREMENT = n, ROW_FORMAT = x, ...; commas optional) come where Doris
 * has ENGINE, and after COMMENT, where mysqldump puts them. */
ddl_tblopts ::= ddl_myopts ddl_keys_opt ddl_cluster_opt ddl_comment_opt ddl_part_opt ddl_dist_opt ddl_props_opt.
ddl_myopts ::= .
ddl_myopts ::= ddl_myopts ddl_myopt.
ddl_myopts ::= ddl_myopts COMMA ddl_myopt.
ddl_myopt ::= ENGINE ddl_eq_opt ident_tok(E). { plan_ddl_engine(pp, &E); }
ddl_myopt ::= ddl_default_opt CHARSET ddl_eq_opt charset_tok(V). { plan_ddl_table_option(pp, "CHARSET", &V); }
ddl_myopt ::= ddl_default_opt CHARACTER SET ddl_eq_opt charset_tok(V). { plan_ddl_table_option(pp, "CHARSET", &V); }
ddl_myopt ::= ddl_default_opt COLLATE ddl_eq_opt charset_tok(V). { plan_ddl_table_option(pp, "COLLATE", &V); }
ddl_myopt ::= AUTO_INCREMENT ddl_eq_opt INTNUM(V). { plan_ddl_table_option(pp, "AUTO_INCREMENT", &V); }
ddl_myopt ::= TBLOPT(N) ddl_eq_opt ddl_optval(V). { plan_ddl_table_option(pp, plan_ast_ident(pp, &N), &V); }
ddl_default_opt ::= .
ddl_default_opt ::= DEFAULT.
%type ddl_optval {plan_token}
ddl_optval(A) ::= ident_tok(T). { A = T; }
ddl_optval(A) ::= STRING(T). { A = T; }
ddl_optval(A) ::= INTNUM(T). { A = T; }
ddl_optval(A) ::= DEFAULT(T). { A = T; }
ddl_keys_opt ::= .
ddl_keys_opt ::= DUPLICATE KEY LP ddl_names RP. { plan_ddl_keys(pp, CAT_KEYS_DUP); }
ddl_keys_opt ::= UNIQUE KEY LP ddl_names RP. { plan_ddl_keys(pp, CAT_KEYS_UNIQUE); }
ddl_keys_opt ::= AGGREGATE KEY LP ddl_names RP. { plan_ddl_keys(pp, CAT_KEYS_AGG); }
ddl_cluster_opt ::= .
ddl_cluster_opt ::= CLUSTER BY LP ddl_names RP. { plan_ddl_cluster(pp); }
ddl_comment_opt ::= .
ddl_comment_opt ::= COMMENTKW ddl_eq_opt STRING(C) ddl_myopts. { plan_ddl_comment(pp, &C); }
ddl_part_opt ::= .
ddl_part_opt ::= ddl_part_head LP ddl_partdefs RP.
ddl_part_head ::= PARTITION BY RANGE LP ddl_names RP. { plan_ddl_part_by(pp, CAT_PART_RANGE); }
ddl_part_head ::= PARTITION BY LIST LP ddl_names RP. { plan_ddl_part_by(pp, CAT_PART_LIST); }
ddl_partdefs ::= ddl_partdef.
ddl_partdefs ::= ddl_partdefs COMMA ddl_partdef.
ddl_partdef ::= PARTITION ident_tok(N) VALUES LESS THAN LP ddl_pvals RP. { plan_ddl_part(pp, &N, CAT_PDEF_LESS_THAN); }
ddl_partdef ::= PARTITION ident_tok(N) VALUES LESS THAN MAXVALUE. { plan_ddl_value(pp, NULL, false); plan_ddl_part(pp, &N, CAT_PDEF_LESS_THAN); }
ddl_partdef ::= PARTITION ident_tok(N) VALUES LBRACKET LP ddl_pvals RP COMMA LP ddl_pvals RP RP. { plan_ddl_part(pp, &N, CAT_PDEF_FIXED); }
ddl_partdef ::= PARTITION ident_tok(N) VALUES IN LP ddl_pvals RP. { plan_ddl_part(pp, &N, CAT_PDEF_IN); }
ddl_pvals ::= ddl_pval.
ddl_pvals ::= ddl_pvals COMMA ddl_pval.
ddl_pval ::= STRING(V). { plan_ddl_value(pp, &V, false); }
ddl_pval ::= INTNUM(V). { plan_ddl_value(pp, &V, false); }
ddl_pval ::= MINUS INTNUM(V). { plan_ddl_value(pp, &V, true); }
ddl_pval ::= MAXVALUE. { plan_ddl_value(pp, NULL, false); }
/* VALUES IN ((NULL), ("a")): one-column tuples; NULL is a LIST value (Doris #31613). */
ddl_pval ::= NULL(V). { plan_ddl_value(pp, &V, false); }
ddl_pval ::= LP ddl_pval RP.
ddl_dist_opt ::= .
ddl_dist_opt ::= DISTRIBUTED BY HASH LP ddl_names RP ddl_buckets_opt. { plan_ddl_dist(pp, false); }
ddl_dist_opt ::= DISTRIBUTED BY RANDOM ddl_buckets_opt. { plan_ddl_dist(pp, true); }
ddl_buckets_opt ::= .
ddl_buckets_opt ::= BUCKETS INTNUM(N). { plan_ddl_buckets(pp, &N); }
ddl_buckets_opt ::= BUCKETS AUTO. { plan_ddl_buckets(pp, NULL); }

/* ALTER TABLE clauses, comma-separated, applied in order as one change. */
ddl_alters ::= ddl_alter.
ddl_alters ::= ddl_alters COMMA ddl_alter.
ddl_alter ::= ADD COLUMN ddl_coldef ddl_colpos. { plan_ddl_alter(pp, CAT_ALTER_ADD_COLUMN, NULL, NULL, "ADD COLUMN"); }
ddl_alter ::= ADD COLUMN LP ddl_coldefs RP. { plan_ddl_alter(pp, CAT_ALTER_ADD_COLUMN, NULL, NULL, "ADD COLUMN"); }
ddl_alter ::= DROP COLUMN ident_tok(N). { plan_ddl_alter(pp, CAT_ALTER_DROP_COLUMN, &N, NULL, "DROP COLUMN"); }
ddl_alter ::= MODIFY COLUMN ddl_coldef ddl_colpos. { plan_ddl_alter(pp, CAT_ALTER_MODIFY_COLUMN, NULL, NULL, "MODIFY COLUMN"); }
ddl_alter ::= MODIFY COLUMN ident_tok(N) COMMENTKW STRING(C). { plan_ddl_alter(pp, CAT_ALTER_MODIFY_COLUMN_COMMENT, &N, &C, "MODIFY COLUMN COMMENT"); }
ddl_alter ::= RENAME COLUMN ident_tok(A) ident_tok(B). { plan_ddl_alter(pp, CAT_ALTER_RENAME_COLUMN, &A, &B, "RENAME COLUMN"); }
ddl_alter ::= ORDER BY LP ddl_names RP. { plan_ddl_alter(pp, CAT_ALTER_REORDER_COLUMNS, NULL, NULL, "ORDER BY"); }
ddl_alter ::= RENAME ident_tok(N). { plan_ddl_alter(pp, CAT_ALTER_RENAME_TABLE, &N, NULL, "RENAME"); }
ddl_alter ::= ADD ddl_partdef ddl_part_props ddl_part_dist. { plan_ddl_alter(pp, CAT_ALTER_ADD_PARTITION, NULL, NULL, "ADD PARTITION"); }
/* ("replication_num" = "1", ...) of the new partition: checked, not kept (single node). */
ddl_part_props ::= .
ddl_part_props ::= LP ddl_proplist RP.
ddl_alter ::= DROP PARTITION ddl_ife ident_tok(N) ddl_force_opt. { plan_ddl_alter(pp, CAT_ALTER_DROP_PARTITION, &N, NULL, "DROP PARTITION"); }
ddl_alter ::= RENAME PARTITION ident_tok(A) ident_tok(B). { plan_ddl_alter(pp, CAT_ALTER_RENAME_PARTITION, &A, &B, "RENAME PARTITION"); }
ddl_alter ::= MODIFY PARTITION ident_tok(N) SET LP ddl_proplist RP. { plan_ddl_alter(pp, CAT_ALTER_MODIFY_PARTITION, &N, NULL, "MODIFY PARTITION"); }
ddl_alter ::= REPLACE PARTITION LP ddl_names RP WITH ddl_temp_kw PARTITION LP ddl_names RP ddl_props_opt. { plan_ddl_alter(pp, CAT_ALTER_REPLACE_PARTITION, NULL, NULL, "REPLACE PARTITION"); }
/* Temporary partitions (plan_ddl_temp: the clause, or SHOW, is about them). */
ddl_temp_kw ::= TEMPORARY. { plan_ddl_temp(pp); }
ddl_alter ::= ADD ddl_temp_kw ddl_partdef ddl_part_props ddl_part_dist. { plan_ddl_alter(pp, CAT_ALTER_ADD_PARTITION, NULL, NULL, "ADD TEMPORARY PARTITION"); }
ddl_alter ::= DROP ddl_temp_kw PARTITION ddl_ife ident_tok(N) ddl_force_opt. { plan_ddl_alter(pp, CAT_ALTER_DROP_PARTITION, &N, NULL, "DROP TEMPORARY PARTITION"); }
ddl_alter ::= REPLACE WITH TABLE ident_tok(N) ddl_props_opt. { plan_ddl_alter(pp, CAT_ALTER_REPLACE_TABLE, &N, NULL, "REPLACE WITH TABLE"); }
ddl_alter ::= BUILD INDEX ident_tok(N). { plan_ddl_alter(pp, CAT_ALTER_BUILD_INDEX, &N, NULL, "BUILD INDEX"); }
ddl_alter ::= SET LP ddl_proplist RP. { plan_ddl_alter(pp, CAT_ALTER_SET_PROPERTIES, NULL, NULL, "SET"); }
/* MySQL's ADD {INDEX|KEY} / ADD UNIQUE / DROP {INDEX|KEY}: accepted, nothing built (warning). */
ddl_alter ::= ADD ddl_idxkw ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, NULL, false); plan_ddl_alter(pp, CAT_ALTER_CREATE_INDEX, NULL, NULL, "ADD INDEX"); }
ddl_alter ::= ADD ddl_idxkw ident_tok(N) ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, &N, false); plan_ddl_alter(pp, CAT_ALTER_CREATE_INDEX, NULL, NULL, "ADD INDEX"); }
ddl_alter ::= ADD UNIQUE ddl_uidxkw ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, NULL, true); plan_ddl_alter(pp, CAT_ALTER_CREATE_INDEX, NULL, NULL, "ADD UNIQUE"); }
ddl_alter ::= ADD UNIQUE ddl_uidxkw ident_tok(N) ddl_idxtype_opt LP ddl_keyparts RP ddl_idxopts. { plan_ddl_index(pp, &N, true); plan_ddl_alter(pp, CAT_ALTER_CREATE_INDEX, NULL, NULL, "ADD UNIQUE"); }
ddl_alter ::= DROP ddl_idxkw ident_tok(N). { plan_ddl_alter(pp, CAT_ALTER_DROP_INDEX, &N, NULL, "DROP INDEX"); }
ddl_alter ::= MODIFY COMMENTKW STRING(C). { plan_ddl_alter(pp, CAT_ALTER_MODIFY_COMMENT, NULL, &C, "MODIFY COMMENT"); }
/* ENABLE FEATURE "name" [WITH PROPERTIES (...)]: the name goes in the clause's name. */
%fallback ID ENABLE FEATURE.
ddl_alter ::= ENABLE FEATURE STRING(N) ddl_feature_props. { plan_ddl_alter(pp, CAT_ALTER_ENABLE_FEATURE, &N, NULL, "ENABLE FEATURE"); }
ddl_feature_props ::= .
ddl_feature_props ::= WITH PROPERTIES LP ddl_proplist RP.
ddl_colpos ::= .
ddl_colpos ::= AFTER ident_tok(A). { plan_ddl_colpos(pp, &A, false); }
ddl_colpos ::= FIRST. { plan_ddl_colpos(pp, NULL, true); }
ddl_part_dist ::= .
ddl_part_dist ::= DISTRIBUTED BY HASH LP ddl_names RP BUCKETS INTNUM(N). { plan_ddl_part_buckets(pp, &N); }
ddl_part_dist ::= DISTRIBUTED BY RANDOM BUCKETS INTNUM(N). { plan_ddl_part_buckets(pp, &N); }
/* ---- end DDL ---- */

/* ---------------------------------------------------------------- identifiers */

%type ident_tok {plan_token}
ident_tok(A) ::= ID(T). { A = T; }

/* ---------------------------------------------------------------- expressions */

expr(A) ::= INTNUM(T). { A = plan_ast_literal(pp, PA_INT, &T); }
expr(A) ::= DECNUM(T). { A = plan_ast_literal(pp, PA_DECIMAL, &T); }
expr(A) ::= FLOATNUM(T). { A = plan_ast_literal(pp, PA_FLOAT, &T); }
expr(A) ::= HEXNUM(T). { A = plan_ast_literal(pp, PA_HEX, &T); }
expr(A) ::= BITNUM(T). { A = plan_ast_literal(pp, PA_BIT, &T); }
expr(A) ::= NULL(T). { A = plan_ast_literal(pp, PA_NULL, &T); }
expr(A) ::= TRUE(T). { A = plan_ast_literal(pp, PA_BOOL, &T); }
expr(A) ::= FALSE(T). { A = plan_ast_literal(pp, PA_BOOL, &T); }
expr(A) ::= strings(X). [LOWEST] { A = X; }

strings(A) ::= STRING(T). { A = plan_ast_string(pp, &T); }
/* DATE 'yyyy-mm-dd', TIME 'hh:mm:ss', TIMESTAMP 'yyyy-mm-dd hh:mm:ss' (standard SQL literals). */
expr(A) ::= TYPEDLIT(K) STRING(S). { A = plan_ast_typed_literal(pp, &K, &S); }
strings(A) ::= strings(X) STRING(T). { A = plan_ast_string_append(pp, X, &T); }

expr(A) ::= ident_tok(N). { A = plan_ast_column(pp, NULL, NULL, &N); }
expr(A) ::= ident_tok(Q) DOT ident_tok(N). { A = plan_ast_column(pp, NULL, &Q, &N); }
expr(A) ::= ident_tok(D) DOT ident_tok(Q) DOT ident_tok(N). { A = plan_ast_column(pp, &D, &Q, &N); }
/* Subqueries in expressions: the query's value becomes the node's statement (plan_subquery.c).
 * ANY / SOME are ANYSOME only right before '(' (the lexer), a name anywhere else. */
%fallback ID ANYSOME.
expr(A) ::= qparens(Q). [SUBQ_EXPR] { A = plan_ast_subquery(pp, PLAN_SUBQ_SCALAR, NULL, false, 0, Q, NULL); }
expr(A) ::= EXISTS(L) qparens(Q). { A = plan_ast_subquery(pp, PLAN_SUBQ_EXISTS, NULL, false, 0, Q, &L); }
expr(A) ::= expr(X) IN qparens(Q). [IN] { A = plan_ast_subq_in(pp, X, false, Q); }
expr(A) ::= expr(X) NOT IN qparens(Q). [IN] { A = plan_ast_subq_in(pp, X, true, Q); }
expr(A) ::= expr(X) EQ ALL qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ALL, X, false, XOP_EQ, Q, NULL); }
expr(A) ::= expr(X) EQ ANYSOME qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ANY, X, false, XOP_EQ, Q, NULL); }
expr(A) ::= expr(X) NE ALL qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ALL, X, false, XOP_NE, Q, NULL); }
expr(A) ::= expr(X) NE ANYSOME qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ANY, X, false, XOP_NE, Q, NULL); }
expr(A) ::= expr(X) LT ALL qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ALL, X, false, XOP_LT, Q, NULL); }
expr(A) ::= expr(X) LT ANYSOME qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ANY, X, false, XOP_LT, Q, NULL); }
expr(A) ::= expr(X) LE ALL qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ALL, X, false, XOP_LE, Q, NULL); }
expr(A) ::= expr(X) LE ANYSOME qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ANY, X, false, XOP_LE, Q, NULL); }
expr(A) ::= expr(X) GT ALL qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ALL, X, false, XOP_GT, Q, NULL); }
expr(A) ::= expr(X) GT ANYSOME qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ANY, X, false, XOP_GT, Q, NULL); }
expr(A) ::= expr(X) GE ALL qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ALL, X, false, XOP_GE, Q, NULL); }
expr(A) ::= expr(X) GE ANYSOME qparens(Q). [IN] { A = plan_ast_subquery(pp, PLAN_SUBQ_ANY, X, false, XOP_GE, Q, NULL); }
expr(A) ::= SYSVAR(T). { A = plan_ast_sysvar(pp, &T); }
expr(A) ::= USERVAR(T). { A = plan_ast_uservar(pp, &T); }
expr(A) ::= QUESTION(T). { A = plan_ast_param(pp, &T); }
expr(A) ::= USERVAR(T) ASSIGN expr(X). { A = plan_ast_assign(pp, &T, X); }
expr(A) ::= LP(L) expr(X) RP(R). { A = plan_ast_paren(pp, &L, X, &R); }
/* Doris array literals [a, b] (= ARRAY(a, b)) and subscripts arr[i] (= ELEMENT_AT(arr, i)). */
expr(A) ::= LBRACKET(L) RBRACKET(R). { A = plan_ast_func(pp, &L, "array", NULL, &R, true); }
expr(A) ::= LBRACKET(L) exprlist(X) RBRACKET(R). { A = plan_ast_func(pp, &L, "array", X, &R, true); }
expr(A) ::= expr(X) LBRACKET expr(I) RBRACKET(R). { A = plan_ast_func(pp, NULL, "element_at", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), I), NULL, true); A->off = X->off; A->end = R.off + R.n; }
/* Row constructor (a, b, ...): only comparisons and IN take it (plan_subquery.c). */
expr(A) ::= LP(L) expr(X) COMMA exprlist(Y) RP(R). { A = plan_ast_row(pp, &L, X, Y, &R); }

expr(A) ::= MINUS(T) expr(X). [UMINUS] { A = plan_ast_unary(pp, XOP_MINUS, &T, X); }
expr(A) ::= PLUS(T) expr(X). [UMINUS] { A = plan_ast_unary(pp, XOP_PLUS, &T, X); }
/* BINARY x: CAST(x AS BINARY) (MySQL's case- and accent-sensitive comparisons), binding as
 * tightly as unary minus. */
expr(A) ::= BINARY(T) expr(X). [UMINUS] { A = plan_ast_cast(pp, &T, X, plan_ast_cast_type(pp, PLAN_CAST_BINARY, NULL, NULL), &T); A->end = X->end; }
expr(A) ::= BITNOT(T) expr(X). { A = plan_ast_unary(pp, XOP_BITNOT, &T, X); }
expr(A) ::= BANG(T) expr(X). { A = plan_ast_unary(pp, XOP_NOT, &T, X); }
expr(A) ::= NOT(T) expr(X). { A = plan_ast_unary(pp, XOP_NOT, &T, X); }

expr(A) ::= expr(L) PLUS expr(R). { A = plan_ast_binary(pp, XOP_PLUS, L, R); }
expr(A) ::= expr(L) MINUS expr(R). { A = plan_ast_binary(pp, XOP_MINUS, L, R); }
expr(A) ::= expr(L) STAR expr(R). { A = plan_ast_binary(pp, XOP_MUL, L, R); }
expr(A) ::= expr(L) SLASH expr(R). { A = plan_ast_binary(pp, XOP_DIV, L, R); }
expr(A) ::= expr(L) DIV expr(R). { A = plan_ast_binary(pp, XOP_INTDIV, L, R); }
expr(A) ::= expr(L) MOD expr(R). { A = plan_ast_binary(pp, XOP_MOD, L, R); }
expr(A) ::= expr(L) PERCENT expr(R). { A = plan_ast_binary(pp, XOP_MOD, L, R); }
expr(A) ::= expr(L) BITAND expr(R). { A = plan_ast_binary(pp, XOP_BITAND, L, R); }
expr(A) ::= expr(L) BITOR expr(R). { A = plan_ast_binary(pp, XOP_BITOR, L, R); }
expr(A) ::= expr(L) BITXOR expr(R). { A = plan_ast_binary(pp, XOP_BITXOR, L, R); }
expr(A) ::= expr(L) LSHIFT expr(R). { A = plan_ast_binary(pp, XOP_LSHIFT, L, R); }
expr(A) ::= expr(L) RSHIFT expr(R). { A = plan_ast_binary(pp, XOP_RSHIFT, L, R); }
expr(A) ::= expr(L) EQ expr(R). { A = plan_ast_rowcmp(pp, XOP_EQ, L, R); }
expr(A) ::= expr(L) NSEQ expr(R). { A = plan_ast_rowcmp(pp, XOP_NSEQ, L, R); }
expr(A) ::= expr(L) NE expr(R). { A = plan_ast_rowcmp(pp, XOP_NE, L, R); }
expr(A) ::= expr(L) LT expr(R). { A = plan_ast_rowcmp(pp, XOP_LT, L, R); }
expr(A) ::= expr(L) LE expr(R). { A = plan_ast_rowcmp(pp, XOP_LE, L, R); }
expr(A) ::= expr(L) GT expr(R). { A = plan_ast_rowcmp(pp, XOP_GT, L, R); }
expr(A) ::= expr(L) GE expr(R). { A = plan_ast_rowcmp(pp, XOP_GE, L, R); }
expr(A) ::= expr(L) AND expr(R). { A = plan_ast_binary(pp, XOP_AND, L, R); }
expr(A) ::= expr(L) ANDAND expr(R). { A = plan_ast_binary(pp, XOP_AND, L, R); }
expr(A) ::= expr(L) OR expr(R). { A = plan_ast_binary(pp, XOP_OR, L, R); }
expr(A) ::= expr(L) OROR expr(R). { A = plan_ast_binary(pp, XOP_CONCAT, L, R); }
expr(A) ::= expr(L) XOR expr(R). { A = plan_ast_binary(pp, XOP_XOR, L, R); }

expr(A) ::= expr(X) IS NULL(T). { A = plan_ast_is(pp, X, false, XOP_IS_NULL, &T); }
expr(A) ::= expr(X) IS NOT NULL(T). { A = plan_ast_is(pp, X, true, XOP_IS_NULL, &T); }
expr(A) ::= expr(X) IS TRUE(T). { A = plan_ast_is(pp, X, false, XOP_IS_TRUE, &T); }
expr(A) ::= expr(X) IS NOT TRUE(T). { A = plan_ast_is(pp, X, true, XOP_IS_TRUE, &T); }
expr(A) ::= expr(X) IS FALSE(T). { A = plan_ast_is(pp, X, false, XOP_IS_FALSE, &T); }
expr(A) ::= expr(X) IS NOT FALSE(T). { A = plan_ast_is(pp, X, true, XOP_IS_FALSE, &T); }
expr(A) ::= expr(X) IS UNKNOWN(T). { A = plan_ast_is(pp, X, false, XOP_IS_NULL, &T); }
expr(A) ::= expr(X) IS NOT UNKNOWN(T). { A = plan_ast_is(pp, X, true, XOP_IS_NULL, &T); }

expr(A) ::= expr(X) BETWEEN expr(L) AND expr(H). [BETWEEN] { A = plan_ast_between(pp, X, false, L, H); }
expr(A) ::= expr(X) NOT BETWEEN expr(L) AND expr(H). [BETWEEN] { A = plan_ast_between(pp, X, true, L, H); }

%type exprlist {plan_ast_list *}
exprlist(A) ::= expr(X). { A = plan_ast_list_add(pp, NULL, X); }
exprlist(A) ::= exprlist(L) COMMA expr(X). { A = plan_ast_list_add(pp, L, X); }

expr(A) ::= expr(X) IN LP exprlist(L) RP(R). [IN] { A = plan_ast_rowin(pp, X, false, L, &R); }
expr(A) ::= expr(X) NOT IN LP exprlist(L) RP(R). [IN] { A = plan_ast_rowin(pp, X, true, L, &R); }

expr(A) ::= expr(X) LIKE expr(P). [LIKE] { A = plan_ast_like(pp, X, false, P, NULL); }
expr(A) ::= expr(X) NOT LIKE expr(P). [LIKE] { A = plan_ast_like(pp, X, true, P, NULL); }
expr(A) ::= expr(X) LIKE expr(P) ESCAPE expr(E). [LIKE] { A = plan_ast_like(pp, X, false, P, E); }
expr(A) ::= expr(X) NOT LIKE expr(P) ESCAPE expr(E). [LIKE] { A = plan_ast_like(pp, X, true, P, E); }

expr(A) ::= expr(X) COLLATE ident_tok(N). { A = plan_ast_collate(pp, X, &N); }

/* REGEXP / RLIKE: regexp_like(x, pattern) (negated carries NOT). */
expr(A) ::= expr(X) REGEXP expr(P). [LIKE] { A = plan_ast_func(pp, NULL, "regexp_like", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), NULL, true); A->off = X->off; A->end = P->end; }
expr(A) ::= expr(X) NOT REGEXP expr(P). [LIKE] { A = plan_ast_func(pp, NULL, "regexp_like", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), NULL, true); A->off = X->off; A->end = P->end; A->negated = true; }
expr(A) ::= expr(X) RLIKE expr(P). [LIKE] { A = plan_ast_func(pp, NULL, "regexp_like", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), NULL, true); A->off = X->off; A->end = P->end; }
expr(A) ::= expr(X) NOT RLIKE expr(P). [LIKE] { A = plan_ast_func(pp, NULL, "regexp_like", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), NULL, true); A->off = X->off; A->end = P->end; A->negated = true; }

/* INTERVAL expr unit: a "%interval" node (op = the unit's plan_unit), allowed as the last argument
 * of a call (DATE_ADD(d, INTERVAL 1 DAY)) and beside + / - (d + INTERVAL 1 DAY, INTERVAL 1
 * DAY + d, d - INTERVAL 1 DAY), which become date_add / date_sub calls (plan_func_date.c). */
%fallback ID MICROSECOND SECOND MINUTE HOUR DAY WEEK MONTH QUARTER YEAR SECOND_MICROSECOND
    MINUTE_MICROSECOND MINUTE_SECOND HOUR_MICROSECOND HOUR_SECOND HOUR_MINUTE DAY_MICROSECOND
    DAY_SECOND DAY_MINUTE DAY_HOUR YEAR_MONTH TIMESTAMPDIFF TIMESTAMPADD.
%type iunit {plan_token}
iunit(A) ::= MICROSECOND(T). { A = T; }
iunit(A) ::= SECOND(T). { A = T; }
iunit(A) ::= MINUTE(T). { A = T; }
iunit(A) ::= HOUR(T). { A = T; }
iunit(A) ::= DAY(T). { A = T; }
iunit(A) ::= WEEK(T). { A = T; }
iunit(A) ::= MONTH(T). { A = T; }
iunit(A) ::= QUARTER(T). { A = T; }
iunit(A) ::= YEAR(T). { A = T; }
iunit(A) ::= SECOND_MICROSECOND(T). { A = T; }
iunit(A) ::= MINUTE_MICROSECOND(T). { A = T; }
iunit(A) ::= MINUTE_SECOND(T). { A = T; }
iunit(A) ::= HOUR_MICROSECOND(T). { A = T; }
iunit(A) ::= HOUR_SECOND(T). { A = T; }
iunit(A) ::= HOUR_MINUTE(T). { A = T; }
iunit(A) ::= DAY_MICROSECOND(T). { A = T; }
iunit(A) ::= DAY_SECOND(T). { A = T; }
iunit(A) ::= DAY_MINUTE(T). { A = T; }
iunit(A) ::= DAY_HOUR(T). { A = T; }
iunit(A) ::= YEAR_MONTH(T). { A = T; }
%type interval {plan_ast *}
interval(A) ::= INTERVAL(I) expr(X) iunit(U). { A = plan_ast_func(pp, &I, "%interval", plan_ast_list_add(pp, NULL, X), &U, true); A->op = plan__unit_of_token(U.type); }
expr(A) ::= expr(L) PLUS interval(I). { A = plan_ast_func(pp, NULL, "date_add", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, L), I), NULL, true); A->off = L->off; A->end = I->end; }
expr(A) ::= interval(I) PLUS expr(R). { A = plan_ast_func(pp, NULL, "date_add", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, R), I), NULL, true); A->off = I->off; A->end = R->end; }
expr(A) ::= expr(L) MINUS interval(I). { A = plan_ast_func(pp, NULL, "date_sub", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, L), I), NULL, true); A->off = L->off; A->end = I->end; }
expr(A) ::= fname(N) LP exprlist(L) COMMA interval(I) RP(R). { A = plan_ast_func(pp, &N, NULL, plan_ast_list_add(pp, L, I), &R, true); }
/* EXTRACT(unit FROM x): an "extract" call whose op is the unit (plan_func_date.c). The lexer
 * makes EXTRACT a keyword only right before '('. */
%fallback ID EXTRACT.
expr(A) ::= EXTRACT(N) LP iunit(U) FROM expr(X) RP(R). { A = plan_ast_func(pp, &N, "extract", plan_ast_list_add(pp, NULL, X), &R, true); A->op = plan__unit_of_token(U.type); }
expr(A) ::= TIMESTAMPADD(N) LP iunit(U) COMMA expr(X) COMMA expr(D) RP(R). { plan_ast *iv = plan_ast_func(pp, &U, "%interval", plan_ast_list_add(pp, NULL, X), &U, true); iv->op = plan__unit_of_token(U.type); A = plan_ast_func(pp, &N, "timestampadd", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, iv), D), &R, true); }
expr(A) ::= TIMESTAMPDIFF(N) LP iunit(U) COMMA expr(X) COMMA expr(Y) RP(R). { plan_ast *iv = plan_ast_func(pp, &U, "%interval", plan_ast_list_add(pp, NULL, plan_ast_literal(pp, PA_NULL, &U)), &U, true); iv->op = plan__unit_of_token(U.type); A = plan_ast_func(pp, &N, "timestampdiff", plan_ast_list_add(pp, plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, iv), X), Y), &R, true); }
expr(A) ::= expr(X) COLLATE STRING(N). { A = plan_ast_collate(pp, X, &N); }

/* CASE [operand] WHEN a THEN b ... [ELSE c] END */
expr(A) ::= CASE(C) case_operand(O) case_whens(W) case_else(E) END(T). { A = plan_ast_case(pp, &C, O, W, E, &T); }
case_operand(A) ::= . { A = NULL; }
case_operand(A) ::= expr(X). { A = X; }
%type case_whens {plan_ast_list *}
case_whens(A) ::= WHEN expr(W) THEN expr(T). { A = plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, W), T); }
case_whens(A) ::= case_whens(L) WHEN expr(W) THEN expr(T). { A = plan_ast_list_add(pp, plan_ast_list_add(pp, L, W), T); }
case_else(A) ::= . { A = NULL; }
case_else(A) ::= ELSE expr(X). { A = X; }

/* Function calls. fname lists the reserved words that are also function names. */
%type fname {plan_token}
fname(A) ::= ID(T). { A = T; }
fname(A) ::= IF(T). { A = T; }
fname(A) ::= LEFT(T). { A = T; }
fname(A) ::= RIGHT(T). { A = T; }
fname(A) ::= REPLACE(T). { A = T; }
fname(A) ::= REPEAT(T). { A = T; }
fname(A) ::= MOD(T). { A = T; }
fname(A) ::= INSERT(T). { A = T; }
fname(A) ::= TRUNCATE(T). { A = T; }
fname(A) ::= DATABASE(T). { A = T; }
fname(A) ::= SCHEMA(T). { A = T; }
fname(A) ::= CURRENT_USER(T). { A = T; }
fname(A) ::= CURRENT_TIMESTAMP(T). { A = T; }
fname(A) ::= CURRENT_DATE(T). { A = T; }
fname(A) ::= CURRENT_TIME(T). { A = T; }
fname(A) ::= LOCALTIME(T). { A = T; }
fname(A) ::= LOCALTIMESTAMP(T). { A = T; }
fname(A) ::= UTC_TIMESTAMP(T). { A = T; }
fname(A) ::= UTC_DATE(T). { A = T; }
fname(A) ::= UTC_TIME(T). { A = T; }

expr(A) ::= fname(N) LP RP(R). { A = plan_ast_func(pp, &N, NULL, NULL, &R, true); }
expr(A) ::= fname(N) LP exprlist(L) RP(R). { A = plan_ast_func(pp, &N, NULL, L, &R, true); }
/* Aggregate call syntax: COUNT(DISTINCT a, b), SUM(DISTINCT x), GROUP_CONCAT([DISTINCT] x
 * [ORDER BY ...] [SEPARATOR 's']) (SEPARATOR is a plain word checked by the builder). */
expr(A) ::= fname(N) LP DISTINCT exprlist(L) RP(R). { A = plan_ast_agg(pp, &N, true, L, NULL, NULL, NULL, &R); }
expr(A) ::= fname(N) LP exprlist(L) ORDER BY gcorder(O) gcsep(S) RP(R). { A = plan_ast_agg(pp, &N, false, L, O, NULL, S.z ? &S : NULL, &R); }
expr(A) ::= fname(N) LP DISTINCT exprlist(L) ORDER BY gcorder(O) gcsep(S) RP(R). { A = plan_ast_agg(pp, &N, true, L, O, NULL, S.z ? &S : NULL, &R); }
expr(A) ::= fname(N) LP exprlist(L) ID(W) STRING(S) RP(R). { A = plan_ast_agg(pp, &N, false, L, NULL, &W, &S, &R); }
expr(A) ::= fname(N) LP DISTINCT exprlist(L) ID(W) STRING(S) RP(R). { A = plan_ast_agg(pp, &N, true, L, NULL, &W, &S, &R); }
/* ALL inside an aggregate call is the default, as DISTINCT's opposite: SUM(ALL x), COUNT(ALL *),
 * GROUP_CONCAT(ALL x ...) (plan_ast_agg_all: a syntax error at ALL for any other function). */
expr(A) ::= fname(N) LP ALL(W) exprlist(L) RP(R). { A = plan_ast_agg_all(pp, &W, plan_ast_func(pp, &N, NULL, L, &R, true)); }
expr(A) ::= fname(N) LP ALL(W) STAR(S) RP(R). { A = plan_ast_agg_all(pp, &W, plan_ast_func(pp, &N, NULL, plan_ast_list_add(pp, NULL, plan_ast_star(pp, &S)), &R, true)); }
expr(A) ::= fname(N) LP ALL(W) exprlist(L) ORDER BY gcorder(O) gcsep(S) RP(R). { A = plan_ast_agg_all(pp, &W, plan_ast_agg(pp, &N, false, L, O, NULL, S.z ? &S : NULL, &R)); }
expr(A) ::= fname(N) LP ALL(W) exprlist(L) ID(P) STRING(S) RP(R). { A = plan_ast_agg_all(pp, &W, plan_ast_agg(pp, &N, false, L, NULL, &P, &S, &R)); }
expr(A) ::= fname(N) LP ALL(W) exprlist(L) RP(E) wover(O). { A = plan_ast_over(pp, plan_ast_agg_all(pp, &W, plan_ast_func(pp, &N, NULL, L, &E, true)), &O); }
expr(A) ::= fname(N) LP ALL(W) STAR(S) RP(E) wover(O). { A = plan_ast_over(pp, plan_ast_agg_all(pp, &W, plan_ast_func(pp, &N, NULL, plan_ast_list_add(pp, NULL, plan_ast_star(pp, &S)), &E, true)), &O); }
/* Window functions: f(...) OVER name, or f(...) OVER ([name] [PARTITION BY ...] [ORDER BY ...]
 * [ROWS|RANGE frame]), name a WINDOW the spec refines. OVER is reserved (MySQL 8); ROWS, RANGE,
 * UNBOUNDED, PRECEDING, FOLLOWING, CURRENT, ROW are plain words checked by the builders. The
 * spec is spelled out after a leading name (no empty wpart / worder in front of it) so that
 * `(w ROWS ...)` and `(ROWS ...)` part only at the token after the first word. */
expr(A) ::= fname(N) LP RP(E) wover(O). { A = plan_ast_over(pp, plan_ast_func(pp, &N, NULL, NULL, &E, true), &O); }
expr(A) ::= fname(N) LP exprlist(L) RP(E) wover(O). { A = plan_ast_over(pp, plan_ast_func(pp, &N, NULL, L, &E, true), &O); }
expr(A) ::= fname(N) LP STAR(S) RP(E) wover(O). { A = plan_ast_over(pp, plan_ast_func(pp, &N, NULL, plan_ast_list_add(pp, NULL, plan_ast_star(pp, &S)), &E, true), &O); }
/* Parsed as MySQL does, to be refused (1235) by plan_ast_over. */
expr(A) ::= fname(N) LP DISTINCT exprlist(L) RP(R) wover(O). { A = plan_ast_over(pp, plan_ast_agg(pp, &N, true, L, NULL, NULL, NULL, &R), &O); }
expr(A) ::= fname(N) LP exprlist(L) ORDER BY gcorder(G) gcsep(S) RP(R) wover(O). { A = plan_ast_over(pp, plan_ast_agg(pp, &N, false, L, G, NULL, S.z ? &S : NULL, &R), &O); }
expr(A) ::= fname(N) LP DISTINCT exprlist(L) ORDER BY gcorder(G) gcsep(S) RP(R) wover(O). { A = plan_ast_over(pp, plan_ast_agg(pp, &N, true, L, G, NULL, S.z ? &S : NULL, &R), &O); }
expr(A) ::= fname(N) LP exprlist(L) ID(W) STRING(S) RP(R) wover(O). { A = plan_ast_over(pp, plan_ast_agg(pp, &N, false, L, NULL, &W, &S, &R), &O); }
expr(A) ::= fname(N) LP DISTINCT exprlist(L) ID(W) STRING(S) RP(R) wover(O). { A = plan_ast_over(pp, plan_ast_agg(pp, &N, true, L, NULL, &W, &S, &R), &O); }
%type wover {plan_wover}
wover(A) ::= OVER LP wspec(W) RP(R). { memset(&A, 0, sizeof A); A.w = W; A.end = R; }
wover(A) ::= OVER ident_tok(N). { memset(&A, 0, sizeof A); A.name = N; A.end = N; }
%type wspec {plan_window_spec *}
wspec(A) ::= wframe(F). { A = plan_ast_window_spec(pp, NULL, NULL, NULL, F); }
wspec(A) ::= PARTITION BY exprlist(P) worder(O) wframe(F). { A = plan_ast_window_spec(pp, NULL, P, O, F); }
wspec(A) ::= ORDER BY gcorder(O) wframe(F). { A = plan_ast_window_spec(pp, NULL, NULL, O, F); }
wspec(A) ::= ID(B). { A = plan_ast_window_spec(pp, &B, NULL, NULL, (plan_window_frame){0}); }
wspec(A) ::= ID(B) PARTITION BY exprlist(P) worder(O) wframe(F). { A = plan_ast_window_spec(pp, &B, P, O, F); }
wspec(A) ::= ID(B) ORDER BY gcorder(O) wframe(F). { A = plan_ast_window_spec(pp, &B, NULL, O, F); }
wspec(A) ::= ID(B) ID(U) wftail(T). { A = plan_ast_window_spec(pp, &B, NULL, NULL, plan_ast_frame_unit(pp, &U, T)); }
%type worder {plan_ast_list *}
worder(A) ::= . { A = NULL; }
worder(A) ::= ORDER BY gcorder(O). { A = O; }
%type wframe {plan_window_frame}
wframe(A) ::= . { memset(&A, 0, sizeof A); }
wframe(A) ::= ID(U) wftail(T). { A = plan_ast_frame_unit(pp, &U, T); }
%type wftail {plan_window_frame}
wftail(A) ::= wbound(S). { A = plan_ast_frame_start(pp, S); }
wftail(A) ::= BETWEEN wbound(S) AND wbound(E). { A = plan_ast_frame(pp, S, E); }
%type wbound {plan_frame_bound}
wbound(A) ::= ID(X) ID(Y). { A = plan_ast_fbound(pp, &X, &Y); }
/* n PRECEDING / FOLLOWING (a number literal; ROWS takes integers only, checked by the
 * analyser) and INTERVAL expr unit PRECEDING / FOLLOWING (RANGE over a temporal key). */
wbound(A) ::= INTNUM(X) ID(Y). { A = plan_ast_fbound_value(pp, plan_ast_literal(pp, PA_INT, &X), &Y); }
wbound(A) ::= DECNUM(X) ID(Y). { A = plan_ast_fbound_value(pp, plan_ast_literal(pp, PA_DECIMAL, &X), &Y); }
wbound(A) ::= FLOATNUM(X) ID(Y). { A = plan_ast_fbound_value(pp, plan_ast_literal(pp, PA_FLOAT, &X), &Y); }
wbound(A) ::= interval(I) ID(Y). { A = plan_ast_fbound_value(pp, I, &Y); }
%type gcorder {plan_ast_list *}
gcorder(A) ::= expr(X) dir_opt(D). { A = plan_ast_order_add(pp, NULL, X, D != 0); }
gcorder(A) ::= gcorder(L) COMMA expr(X) dir_opt(D). { A = plan_ast_order_add(pp, L, X, D != 0); }
/* gcsep: the separator's STRING token (z == NULL when absent); plan_ast_gcsep checks the
 * word is SEPARATOR. */
%type gcsep {plan_token}
gcsep(A) ::= . { A.z = NULL; A.n = 0; A.type = 0; A.off = 0; }
gcsep(A) ::= ID(W) STRING(S). { A = plan_ast_gcsep(pp, &W, &S); }
expr(A) ::= fname(N) LP STAR(S) RP(R). { A = plan_ast_func(pp, &N, NULL, plan_ast_list_add(pp, NULL, plan_ast_star(pp, &S)), &R, true); }

/* Niladic forms without parentheses. */
expr(A) ::= CURRENT_USER(T). { A = plan_ast_func(pp, &T, NULL, NULL, &T, false); }
expr(A) ::= CURRENT_TIMESTAMP(T). { A = plan_ast_func(pp, &T, NULL, NULL, &T, false); }
expr(A) ::= CURRENT_DATE(T). { A = plan_ast_func(pp, &T, NULL, NULL, &T, false); }
expr(A) ::= CURRENT_TIME(T). { A = plan_ast_func(pp, &T, NULL, NULL, &T, false); }
expr(A) ::= LOCALTIME(T). { A = plan_ast_func(pp, &T, NULL, NULL, &T, false); }
expr(A) ::= LOCALTIMESTAMP(T). { A = plan_ast_func(pp, &T, NULL, NULL, &T, false); }
expr(A) ::= UTC_TIMESTAMP(T). { A = plan_ast_func(pp, &T, NULL, NULL, &T, false); }
expr(A) ::= UTC_DATE(T). { A = plan_ast_func(pp, &T, NULL, NULL, &T, false); }
expr(A) ::= UTC_TIME(T). { A = plan_ast_func(pp, &T, NULL, NULL, &T, false); }

/* Functions with special syntax. */
expr(A) ::= SUBSTRING(N) LP expr(X) COMMA expr(P) RP(R). { A = plan_ast_func(pp, &N, "substring", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), &R, true); }
expr(A) ::= SUBSTRING(N) LP expr(X) COMMA expr(P) COMMA expr(L) RP(R). { A = plan_ast_func(pp, &N, "substring", plan_ast_list_add(pp, plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), L), &R, true); }
expr(A) ::= SUBSTRING(N) LP expr(X) FROM expr(P) RP(R). { A = plan_ast_func(pp, &N, "substring", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), &R, true); }
expr(A) ::= SUBSTRING(N) LP expr(X) FROM expr(P) FOR expr(L) RP(R). { A = plan_ast_func(pp, &N, "substring", plan_ast_list_add(pp, plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), L), &R, true); }
expr(A) ::= SUBSTR(N) LP expr(X) COMMA expr(P) RP(R). { A = plan_ast_func(pp, &N, "substring", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), &R, true); }
expr(A) ::= SUBSTR(N) LP expr(X) COMMA expr(P) COMMA expr(L) RP(R). { A = plan_ast_func(pp, &N, "substring", plan_ast_list_add(pp, plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), L), &R, true); }
expr(A) ::= SUBSTR(N) LP expr(X) FROM expr(P) RP(R). { A = plan_ast_func(pp, &N, "substring", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), &R, true); }
expr(A) ::= SUBSTR(N) LP expr(X) FROM expr(P) FOR expr(L) RP(R). { A = plan_ast_func(pp, &N, "substring", plan_ast_list_add(pp, plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), P), L), &R, true); }

expr(A) ::= TRIM(N) LP expr(X) RP(R). { A = plan_ast_func(pp, &N, "trim", plan_ast_list_add(pp, NULL, X), &R, true); }
expr(A) ::= TRIM(N) LP expr(C) FROM expr(X) RP(R). { A = plan_ast_func(pp, &N, "trim", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), C), &R, true); }
expr(A) ::= TRIM(N) LP trimspec(M) expr(C) FROM expr(X) RP(R). { A = plan_ast_func(pp, &N, "trim", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), C), &R, true); A->op = M; }
expr(A) ::= TRIM(N) LP trimspec(M) FROM expr(X) RP(R). { A = plan_ast_func(pp, &N, "trim", plan_ast_list_add(pp, NULL, X), &R, true); A->op = M; }
%type trimspec {int}
trimspec(A) ::= BOTH. { A = PLAN_TRIM_BOTH; }
trimspec(A) ::= LEADING. { A = PLAN_TRIM_LEADING; }
trimspec(A) ::= TRAILING. { A = PLAN_TRIM_TRAILING; }

expr(A) ::= CAST(F) LP expr(X) AS casttype(T) RP(R). { A = plan_ast_cast(pp, &F, X, T, &R); }
expr(A) ::= CONVERT(F) LP expr(X) COMMA casttype(T) RP(R). { A = plan_ast_cast(pp, &F, X, T, &R); }
/* CHAR(N, ...): a function, though CHAR is also a type keyword (ODBC's SQLColumns uses CHAR(39)). */
expr(A) ::= CHAR(N) LP exprlist(L) RP(R). { A = plan_ast_func(pp, &N, "char", L, &R, true); }
/* POSITION(sub IN s) = LOCATE(sub, s). The lexer makes POSITION a keyword only right before
 * '(' (a name elsewhere, and a name wherever the keyword cannot go), and the parse driver turns
 * the IN at the depth of its parenthesis into POSITION_IN, so `x IN (...)` inside stays apart. */
%fallback ID POSITION.
expr(A) ::= POSITION(N) LP expr(X) POSITION_IN expr(S) RP(R). { A = plan_ast_func(pp, &N, "locate", plan_ast_list_add(pp, plan_ast_list_add(pp, NULL, X), S), &R, true); }
expr(A) ::= CONVERT(F) LP expr(X) USING charset_tok(C) RP(R). { A = plan_ast_convert_using(pp, &F, X, &C, &R); }

%type casttype {plan_cast}
casttype(A) ::= SIGNED. { A = plan_ast_cast_type(pp, PLAN_CAST_SIGNED, NULL, NULL); }
casttype(A) ::= SIGNED INTEGER. { A = plan_ast_cast_type(pp, PLAN_CAST_SIGNED, NULL, NULL); }
casttype(A) ::= SIGNED INT. { A = plan_ast_cast_type(pp, PLAN_CAST_SIGNED, NULL, NULL); }
casttype(A) ::= UNSIGNED. { A = plan_ast_cast_type(pp, PLAN_CAST_UNSIGNED, NULL, NULL); }
casttype(A) ::= UNSIGNED INTEGER. { A = plan_ast_cast_type(pp, PLAN_CAST_UNSIGNED, NULL, NULL); }
casttype(A) ::= UNSIGNED INT. { A = plan_ast_cast_type(pp, PLAN_CAST_UNSIGNED, NULL, NULL); }
casttype(A) ::= CHAR. { A = plan_ast_cast_type(pp, PLAN_CAST_CHAR, NULL, NULL); }
casttype(A) ::= CHAR LP INTNUM(N) RP. { A = plan_ast_cast_type(pp, PLAN_CAST_CHAR, &N, NULL); }
casttype(A) ::= BINARY. { A = plan_ast_cast_type(pp, PLAN_CAST_BINARY, NULL, NULL); }
casttype(A) ::= BINARY LP INTNUM(N) RP. { A = plan_ast_cast_type(pp, PLAN_CAST_BINARY, &N, NULL); }
casttype(A) ::= DECIMAL. { A = plan_ast_cast_type(pp, PLAN_CAST_DECIMAL, NULL, NULL); }
casttype(A) ::= DECIMAL LP INTNUM(P) RP. { A = plan_ast_cast_type(pp, PLAN_CAST_DECIMAL, &P, NULL); }
casttype(A) ::= DECIMAL LP INTNUM(P) COMMA INTNUM(S) RP. { A = plan_ast_cast_type(pp, PLAN_CAST_DECIMAL, &P, &S); }
casttype(A) ::= DOUBLE. { A = plan_ast_cast_type(pp, PLAN_CAST_DOUBLE, NULL, NULL); }
casttype(A) ::= DATE. { A = plan_ast_cast_type(pp, PLAN_CAST_DATE, NULL, NULL); }
casttype(A) ::= DATETIME. { A = plan_ast_cast_type(pp, PLAN_CAST_DATETIME, NULL, NULL); }
casttype(A) ::= DATETIME LP INTNUM(N) RP. { A = plan_ast_cast_type(pp, PLAN_CAST_DATETIME, NULL, &N); }
casttype(A) ::= TIME. { A = plan_ast_cast_type(pp, PLAN_CAST_TIME, NULL, NULL); }
casttype(A) ::= TIME LP INTNUM(N) RP. { A = plan_ast_cast_type(pp, PLAN_CAST_TIME, NULL, &N); }
/* Doris type names (INT, TINYINT, BIGINT, LARGEINT, BOOLEAN, FLOAT, DECIMALV3, VARCHAR, STRING,
 * TEXT, DATEV2, DATETIMEV2, ...): looked up by plan_ast_cast_named, not reserved words. */
casttype(A) ::= INT(N). { A = plan_ast_cast_named(pp, &N, NULL, NULL); }
casttype(A) ::= INTEGER(N). { A = plan_ast_cast_named(pp, &N, NULL, NULL); }
casttype(A) ::= ID(N). { A = plan_ast_cast_named(pp, &N, NULL, NULL); }
casttype(A) ::= ID(N) LP INTNUM(P) RP. { A = plan_ast_cast_named(pp, &N, &P, NULL); }
casttype(A) ::= ID(N) LP INTNUM(P) COMMA INTNUM(S) RP. { A = plan_ast_cast_named(pp, &N, &P, &S); }
