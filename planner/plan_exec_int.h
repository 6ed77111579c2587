/* SPDX-License-Identifier: Apache-2.0
 * plan_exec_int.h: private to planner/. The executor core: Batches of typed column vectors,
 * volcano operators (open / next / close) over Batches, and the information_schema virtual
 * table registry. See README.md §Executor. */
#ifndef PLANNER_PLAN_EXEC_INT_H
#define PLANNER_PLAN_EXEC_INT_H

#include "planner/plan_int.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/db_error.h"

/* ======================================================================================
 * Batches (plan_batch.c). See README.md §Batch format.
 * ====================================================================================== */

#define PLAN_BATCH_MAX 4096 /* rows per batch at most; @@batch_size lowers it */

/* A string cell: bytes live in a batch arena or in a longer-lived arena (I1). */
typedef struct plan_strv {
    const char *s;
    size_t len;
} plan_strv;

/* What one column holds. kind picks the storage: PV_INT, PV_DATE, PV_DATETIME and PV_TIME
 * use i[] (integers; microseconds for temporal kinds), PV_DOUBLE d[], PV_DECIMAL dec[]
 * (scaled by 10^scale), PV_STRING s[]; PV_NULL stores nothing (every row is NULL). */
typedef struct plan_vtype {
    plan_vkind kind;
    bool is_unsigned; /* PV_INT: the bits are a uint64_t */
    bool is_binary;   /* PV_STRING: binary charset */
    uint8_t scale;    /* PV_DECIMAL scale; temporal fractional digits */
} plan_vtype;

typedef struct plan_vec {
    plan_vtype t;
    union {
        int64_t *i;
        double *d;
        __int128 *dec;
        plan_strv *s;
    };
    uint8_t *nulls; /* bitmap over rows, bit r set = row r is NULL; cap bits, never NULL */
} plan_vec;

/* N column vectors of cap rows, rows [0, nrows) filled. sel, when not NULL, lists the active
 * rows (ascending, nsel of them); otherwise every filled row is active. */
typedef struct plan_batch {
    uint32_t ncols;
    uint32_t cap;   /* rows allocated per vector (<= PLAN_BATCH_MAX) */
    uint32_t nrows; /* rows filled */
    plan_vec *cols;
    uint32_t *sel; /* NULL = all of [0, nrows) */
    uint32_t nsel;
} plan_batch;

/* A batch of ncols columns of types[] and cap rows, allocated in a. */
plan_batch *plan__batch_new(arena *a, const plan_vtype *types, uint32_t ncols, uint32_t cap);
/* Bytes of one value of kind k in a plan_vec (0 for PV_NULL). */
size_t plan__vec_elem_size(plan_vkind k);
/* Empty it: no rows, no selection, every null bit clear. */
void plan__batch_clear(plan_batch *b);
/* Number of active rows. */
uint32_t plan__batch_active(const plan_batch *b);
/* The k-th active row's index. */
static inline uint32_t
plan__batch_row(const plan_batch *b, uint32_t k)
{
    return b->sel ? b->sel[k] : k;
}
static inline bool
plan__vec_is_null(const plan_vec *v, uint32_t row)
{
    return v->t.kind == PV_NULL || (v->nulls[row >> 3] >> (row & 7)) & 1;
}
/* Cell (col, row) as a value; strings point at the batch's bytes. */
void plan__batch_get(const plan_batch *b, uint32_t col, uint32_t row, plan_value *out);
/* Store v at (col, row), converting it to the column's kind when it differs (a user variable
 * may change kind between rows); conversion results go to cx->a. The string bytes are not
 * copied: they must live at least as long as the batch. */
int plan__batch_set(plan_ectx *cx, plan_batch *b, uint32_t col, uint32_t row, const plan_value *v,
                    db_error *err);
/* The column type of values an analysed expression produces. */
plan_vtype plan__vtype_of(const plan_expr *e);

/* ======================================================================================
 * Vectorized expression evaluation (plan_vector.c). See README.md §Executor (vectorized
 * expressions).
 * ====================================================================================== */

/* Expression nodes the vector evaluator knows (plan__expr_vop, plan_expr.c). */
typedef enum plan_vop {
    PLAN_VOP_NONE, /* anything else: row path only */
    PLAN_VOP_COLUMN,
    PLAN_VOP_CONST,
    PLAN_VOP_IDENT, /* unary +, parentheses: the argument's value */
    PLAN_VOP_CMP,   /* = <=> <> < <= > >= */
    PLAN_VOP_LOGIC, /* AND OR XOR */
    PLAN_VOP_NOT,
    PLAN_VOP_IS, /* IS [NOT] NULL / TRUE / FALSE */
    PLAN_VOP_BETWEEN,
    PLAN_VOP_IN,    /* x [NOT] IN (list) */
    PLAN_VOP_ARITH, /* + - * */
    PLAN_VOP_NEG,   /* unary - */
} plan_vop;
plan_vop plan__expr_vop(const plan_expr *e);
/* plan_analyze.c: 1 for a column reference (eval reads cx->row[e->slot]), 2 for a constant
 * (e->lit), 0 otherwise. */
int plan__expr_leaf(const plan_expr *e);

/* An expression's values over a batch's active rows: element (row & mask) of the storage
 * (mask 0: a constant, element 0 for every row); rows outside the selection are undefined. */
typedef struct plan_vres {
    plan_vtype t; /* PV_NULL: every row NULL */
    union {
        int64_t *i;
        double *d;
        __int128 *dec;
        plan_strv *s;
        void *p;
    };
    const uint8_t *nulls; /* bit set = NULL; NULL = no NULLs */
    uint32_t mask;
} plan_vres;

static inline bool
plan__vres_is_null(const plan_vres *r, uint32_t row)
{
    row &= r->mask;
    return r->t.kind == PV_NULL || (r->nulls && (r->nulls[row >> 3] >> (row & 7)) & 1);
}
/* Row `row` of r as a value (strings point at r's bytes). */
void plan__vres_get(const plan_vres *r, uint32_t row, plan_value *out);
/* Whether e can be evaluated by plan__vec_eval over a batch of columns types[0..ncols)
 * without side effects (warnings, variables): true for column references, constants and
 * comparisons, BETWEEN, IN, AND / OR / XOR / NOT, IS, + - * and unary - over them (numeric
 * and temporal kinds). */
bool plan__vec_supported(const plan_expr *e, const plan_vtype *types, uint32_t ncols);
/* e over the rows sel[0..n) of b (sel NULL: the active rows of b), scratch in a (the batch
 * arena; cx->a must be a batch arena too). False when the row path must evaluate this batch
 * instead: an unexpected kind, or a row whose row-path evaluation fails (overflow), so the
 * row path reports exactly its own error. Results equal plan__eval's, row by row. */
bool plan__vec_eval(plan_ectx *cx, arena *a, const plan_expr *e, const plan_batch *b,
                    const uint32_t *sel, uint32_t n, plan_vres *out);
/* The active rows of b for which pred is TRUE, ascending, into *sel (in a) / *nsel; false as
 * plan__vec_eval. */
bool plan__vec_filter(plan_ectx *cx, arena *a, const plan_expr *pred, const plan_batch *b,
                      uint32_t **sel, uint32_t *nsel);

/* ======================================================================================
 * Operators (plan_batch.c). See README.md §Operator contracts.
 * ====================================================================================== */

typedef struct plan_op plan_op;
typedef struct plan_explain plan_explain; /* EXPLAIN output being built (plan_explain.c) */

struct plan_op {
    /* Prepare to produce rows (opens the child first). */
    int (*open)(plan_op *op, db_error *err);
    /* The next batch with at least one active row in *out, or *out = NULL at the end. The
     * batch and its strings stay valid until the next call of next or close on this op. */
    int (*next)(plan_op *op, plan_batch **out, db_error *err);
    /* Release what open acquired (closes the child). Safe after a failed open or next. */
    void (*close)(plan_op *op);
    plan_op *child;
    plan_ectx *cx;     /* statement context; cx->a is the statement arena */
    uint32_t cap;      /* batch capacity */
    uint32_t ncols;    /* output columns */
    plan_vtype *types; /* output column types (statement arena) */
    arena *ba;         /* batch arena: reset at each next, freed by close; NULL until open */
    bool opened;
    /* EXPLAIN and statement limits (plan_explain.c; README.md §EXPLAIN). All optional. */
    plan_op *child2; /* second input (a join's build side) or NULL; EXPLAIN and exec_mem_limit
                        walk child, then child2 */
    /* An n-ary operator (set operations): every input in order (EXPLAIN walks these instead of
     * child / child2; exec_mem_limit does not: its mem_used counts the inputs it has open). */
    plan_op *const *inputs;
    uint32_t ninputs;
    /* Append this operator's line, e.g. "FILTER(a > 1)", with plan__explain_printf; NULL
     * prints "OPERATOR". Never fails; runs before open or after close. */
    void (*describe)(plan_op *op, plan_explain *ex);
    /* Display name of output column c (for the keys of a parent), or NULL: plan__explain_col
     * then asks child (same column index) or prints "#c". */
    const char *(*col_name)(plan_op *op, uint32_t c, plan_explain *ex);
    /* Bytes held outside the statement and batch arenas (hash tables, build sides), charged to
     * exec_mem_limit at every plan__check_interrupt; NULL = none. */
    size_t (*mem_used)(const plan_op *op);
    /* EXPLAIN ANALYZE: active rows returned by next. Counted by a wrapper that
     * plan__explain_analyze installs around next (next_inner keeps the operator's own), so
     * operators never maintain it and ordinary statements pay nothing. */
    uint64_t rows_out;
    int (*next_inner)(plan_op *op, plan_batch **out, db_error *err);
    /* EXPLAIN: the planner's estimate of the rows next returns (plan__op_set_est); without
     * one, plan_explain.c derives it from the inputs' estimates. */
    double est_rows;
    bool has_est;
};

/* EXPLAIN helpers (plan_explain.c) for describe callbacks: printf onto the current line;
 * the display text of an analysed expression (its SQL text as written); an output column of
 * op by name. Results live in the statement arena. */
void plan__explain_printf(plan_explain *ex, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
const char *plan__explain_expr(plan_explain *ex, const plan_expr *e);
const char *plan__explain_col(plan_explain *ex, plan_op *op, uint32_t c);
/* a b c concatenated (statement arena). */
const char *plan__explain_cat(plan_explain *ex, const char *a, const char *b, const char *c);
/* Record the planner's row estimate of op (EXPLAIN's "est rows"). */
void plan__op_set_est(plan_op *op, double rows);
/* True under EXPLAIN ANALYZE (after the tree ran; counters are final). */
bool plan__explain_analyzing(const plan_explain *ex);
/* ANALYZE only (no-op otherwise): append ", name=v" after the operator's actual rows. */
void plan__explain_stat(plan_explain *ex, const char *name, uint64_t v);
/* The information_schema table (upper case) a one-table SELECT reads, or NULL. */
const char *plan__explain_vtable(const plan_explain *ex);
/* Run st (PS_SELECT with st->explain set): one result column "Explain String", one row per
 * operator; ANALYZE runs the query first, discarding its rows. */
int plan__explain(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                  db_error *err);
/* Statement limits (plan_explain.c): begin sets the deadline and memory budget of st in the
 * session when no outer statement did (returns true: call end afterwards); the bytes charged
 * to exec_mem_limit so far. */
bool plan__limits_begin(plan_ectx *cx, const plan_stmt *st);
void plan__limits_end(plan_session *s);
size_t plan__stmt_mem_used(const plan_session *s);
/* IN e (eval_in) over a long list of constants sorted at analysis: whether x (not NULL) is in
 * it: 1, 0, -1 (not, and the list holds a NULL); -2 when e has no such list. */
int plan__in_set_find(plan_ectx *cx, const plan_expr *e, const plan_value *x);
/* The bytes an operator tree holds: batch arenas and mem_used along child / child2. */
size_t plan__op_tree_mem(const plan_op *op);

/* A scan over nrows materialized rows of ncols values each (rows[r * ncols + c]); strings
 * must outlive the operator. Virtual tables generate into such rows. */
plan_op *plan__op_rows(plan_ectx *cx, const plan_vtype *types, uint32_t ncols,
                       const plan_value *rows, size_t nrows, uint32_t cap);
/* Rows of the child for which pred is TRUE (a selection vector over the child's batch). Column
 * references of pred index the child's columns. */
plan_op *plan__op_filter(plan_ectx *cx, plan_op *child, const plan_expr *pred);
/* One output column per expression, evaluated over the child's active rows. */
plan_op *plan__op_project(plan_ectx *cx, plan_op *child, plan_expr *const *exprs, uint32_t n);

typedef struct plan_sort_key {
    uint32_t col;       /* child column */
    bool desc;          /* DESC: larger first; NULLs last (they are the smallest value) */
    plan_cmp_mode mode; /* how values compare */
    uint8_t nulls;      /* 0: NULL is the smallest value; 1 NULLS FIRST; 2 NULLS LAST (Doris) */
} plan_sort_key;
/* All child rows, stably sorted by keys (NULL first for ASC, as MySQL). */
plan_op *plan__op_sort(plan_ectx *cx, plan_op *child, const plan_sort_key *keys, uint32_t nkeys);
/* Stable merge sort of the row numbers v[0..n) (tmp: n slots of scratch) by cmp(ctx, a, b)
 * (< 0: row a first); equal rows keep their order. Shared by sort, window and merge-on-read. */
typedef int (*plan_row_cmp_fn)(const void *ctx, uint32_t a, uint32_t b);
void plan__msort_rows(uint32_t *v, uint32_t *tmp, size_t n, plan_row_cmp_fn cmp, const void *ctx);
/* Append the active rows of b (b->ncols values each; string bytes copied into a, as the batch
 * is reset at its producer's next call) to the growing array *rows of *nrows rows (capacity
 * *cap rows, reallocated in a). */
void plan__rows_append(arena *a, plan_value **rows, size_t *nrows, size_t *cap, uint32_t nc,
                       const plan_batch *b);
/* TopN: only the first keep rows of sort op (made by plan__op_sort) will be read (ORDER BY ...
 * LIMIT offset + count): it then holds about 2 * keep rows at a time, not its whole input. */
void plan__op_sort_topn(plan_op *op, uint64_t keep);
/* Skip offset rows, then pass at most count rows; stops pulling the child when done. */
plan_op *plan__op_limit(plan_ectx *cx, plan_op *child, uint64_t offset, uint64_t count);

/* ======================================================================================
 * Hash aggregation (plan_agg.c). See README.md §Executor (aggregate).
 * ====================================================================================== */

typedef enum plan_agg_kind {
    PLAN_AGG_COUNT_STAR,
    PLAN_AGG_COUNT, /* rows where every argument is non-NULL */
    PLAN_AGG_MIN,
    PLAN_AGG_MAX,
    PLAN_AGG_SUM,
    PLAN_AGG_AVG,
    PLAN_AGG_GROUP_CONCAT,
    PLAN_AGG_ANY_VALUE,
    PLAN_AGG_STDDEV_POP,
    PLAN_AGG_STDDEV_SAMP,
    PLAN_AGG_VAR_POP,
    PLAN_AGG_VAR_SAMP,
    PLAN_AGG_BIT_AND,
    PLAN_AGG_BIT_OR,
    PLAN_AGG_BIT_XOR,
    /* Doris bitmap and collection aggregates (README.md §Aggregation); NULL inputs ignored. */
    PLAN_AGG_BITMAP_UNION,       /* bitmap (binary string) of the union; empty input: empty */
    PLAN_AGG_BITMAP_UNION_COUNT, /* cardinality of the union; empty input: 0 */
    PLAN_AGG_BITMAP_INTERSECT,   /* bitmap of the intersection; empty input: empty */
    PLAN_AGG_BITMAP_AGG,         /* bitmap of the integer values */
    PLAN_AGG_ARRAY_AGG,          /* ARRAY_AGG / COLLECT_LIST: text "[1, 2]"; empty: "[]" */
    PLAN_AGG_COLLECT_SET,        /* as ARRAY_AGG over distinct values (distinct is set) */
    /* Doris statistics aggregates (plan_agg_doris.c plans them; NDV and APPROX_COUNT_DISTINCT
     * are PLAN_AGG_COUNT with distinct set). */
    PLAN_AGG_PERCENTILE,   /* PERCENTILE / PERCENTILE_APPROX / MEDIAN: exact, DOUBLE; empty: NULL */
    PLAN_AGG_MAX_BY,       /* MAX_BY(v, k): v at the first row of the largest k */
    PLAN_AGG_MIN_BY,       /* MIN_BY(v, k): v at the first row of the smallest k */
    PLAN_AGG_AVG_WEIGHTED, /* AVG_WEIGHTED(x, w): sum(x * w) / sum(w), DOUBLE */
} plan_agg_kind;

typedef struct plan_agg {
    plan_agg_kind kind;
    const plan_expr *arg;   /* first argument over the child's columns; NULL for COUNT(*) */
    plan_expr *const *args; /* every argument (nargs > 1: COUNT(DISTINCT a, b), GROUP_CONCAT(a, b));
                               NULL means just arg */
    uint32_t nargs;
    bool distinct;           /* each distinct argument tuple of a group counts once */
    plan_expr *const *order; /* GROUP_CONCAT ORDER BY expressions (child columns) */
    const bool *order_desc;
    uint32_t norder;
    const char *sep; /* GROUP_CONCAT separator (NULL = ",") */
    size_t sep_len;
    double pct;    /* PERCENTILE: the level p (checked against [0, 1] at a group's first value,
                      as Doris does); NAN for a NULL level */
    plan_xtype t;  /* result type */
    plan_vkind vk; /* result kind */
} plan_agg;

/* One output row per group of the child's rows with equal keys (NULL is one group; strings
 * compare as the key expression's comparison mode: general_ci or bytewise): the nkeys key
 * values, then the naggs aggregates. Groups come out in first-seen order. With nkeys == 0,
 * exactly one row, also for an empty input. Group states live in an arena owned by the
 * operator (freed at close); more than PLAN_AGG_MEM_LIMIT bytes fails with
 * ER_AGG_MEMORY_LIMIT. */
plan_op *plan__op_hashagg(plan_ectx *cx, plan_op *child, plan_expr *const *keys, uint32_t nkeys,
                          const plan_agg *aggs, uint32_t naggs);
/* The Doris bitmap / collection aggregate named lname (any case): with ag not NULL, sets
 * ag->kind, ag->t, ag->vk (and ag->distinct for COLLECT_SET) from ag->arg (analysed). False
 * for any other name; never fails. For the aggregate table of plan_select.c. */
bool plan__agg_doris_kind(const char *lname, plan_agg *ag);
/* Whether lname (lower case) is one of the aggregates plan__agg_doris_plan plans: NDV,
 * APPROX_COUNT_DISTINCT, PERCENTILE, PERCENTILE_APPROX, MEDIAN, MAX_BY, MIN_BY, AVG_WEIGHTED. */
bool plan__agg_doris_named(const char *lname);
/* Plan the call x of such an aggregate (lname: its lower-case name) into *ag, its arguments
 * analysed over binds[0..nb) in cx->a. A percentile level must be a constant (ER_DORIS
 * otherwise); wrong argument counts are ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT. plan_agg_doris.c. */
int plan__agg_doris_plan(plan_ectx *cx, const plan_ast *x, const char *lname,
                         const plan_bind_col *binds, uint32_t nb, plan_agg *ag, db_error *err);
/* The level-p percentile of the n values v (sorted ascending in place), interpolated
 * linearly between the two closest ranks as Doris does: position (n - 1) * p. n > 0. */
double plan__agg_percentile(double *v, uint64_t n, double p);
/* plan__op_hashagg without keys: one row of aggregates over all child rows. */
plan_op *plan__op_agg(plan_ectx *cx, plan_op *child, const plan_agg *aggs, uint32_t n);

#define PLAN_AGG_MEM_LIMIT ((size_t)1 << 30) /* bytes of group states and hash tables */

/* A non-NULL BIT_AND / BIT_OR / BIT_XOR argument as 64 bits: integers as they are, a binary
 * string's first 8 bytes big-endian, anything else through the integer conversion. */
uint64_t plan__agg_bits(const plan_value *v);

/* The group hash table: entries of nkeys typed key values (copied into the table's arena,
 * strings included) plus `payload` zeroed bytes. Keys hash with xxHash over a canonical form
 * (case-folded, trailing spaces dropped for ci strings; -0.0 as 0.0) and compare exactly as
 * the comparison rules do. Open addressing, linear probing, power-of-two slots at most half
 * full. Values of one key position must share a kind (or be NULL). */
typedef struct plan_aht {
    arena *a; /* entries (keys, payloads, key strings) */
    uint32_t nkeys;
    bool *ci;        /* per key: strings compare case-insensitively (heap) */
    locale_t loc;    /* case folding of ci strings */
    size_t payload;  /* bytes per entry after the keys */
    size_t kb;       /* bytes per entry before the payload (hash and keys; 16-aligned) */
    size_t limit;    /* bytes (arena + arrays) before ER_AGG_MEMORY_LIMIT */
    uint64_t *slots; /* nslots: 0 = empty, else entry number + 1 in the low 32 bits and the
                        entry's hash >> 32 in the high ones (probes skip other hashes without
                        touching the entry) (heap) */
    uint32_t nslots;
    void **entries; /* n entries in insertion order (heap) */
    uint32_t n, cap;
    char *fold; /* scratch for case folding (heap) */
    size_t fold_cap;
} plan_aht;

void plan__aht_init(plan_aht *h, uint32_t nkeys, const bool *ci, locale_t loc, size_t payload,
                    size_t limit);
void plan__aht_destroy(plan_aht *h);
/* Find the entry with keys[0..nkeys), adding it when missing (*is_new). *payload points at
 * its payload. ER_AGG_MEMORY_LIMIT when the table would pass its limit. */
int plan__aht_upsert(plan_aht *h, const plan_value *keys, void **payload, bool *is_new,
                     db_error *err);
/* Entry i (insertion order): its keys and payload. */
const plan_value *plan__aht_keys(const plan_aht *h, uint32_t i);
void *plan__aht_payload(const plan_aht *h, uint32_t i);

/* ======================================================================================
 * Window functions (plan_window.c). See README.md §Executor (window).
 * ====================================================================================== */

typedef enum plan_win_kind {
    PLAN_WIN_ROW_NUMBER,
    PLAN_WIN_RANK,
    PLAN_WIN_DENSE_RANK,
    PLAN_WIN_LAG,
    PLAN_WIN_LEAD,
    PLAN_WIN_AGG,          /* agg: COUNT_STAR, COUNT, SUM, AVG, MIN or MAX over the frame */
    PLAN_WIN_FIRST_VALUE,  /* arg at the frame's first row (NULL: empty frame) */
    PLAN_WIN_LAST_VALUE,   /* ... last row */
    PLAN_WIN_NTH_VALUE,    /* ... offset-th row (1-based; NULL when the frame is shorter) */
    PLAN_WIN_NTILE,        /* bucket 1..offset of the row in its partition */
    PLAN_WIN_PERCENT_RANK, /* (rank - 1) / (partition rows - 1), 0 for one row */
    PLAN_WIN_CUME_DIST,    /* rows up to the row's last peer / partition rows */
} plan_win_kind;

/* One window function; expressions are over the window operator's input columns. */
typedef struct plan_window_fn {
    plan_win_kind kind;
    plan_agg_kind agg;
    const plan_expr *arg;   /* aggregate argument / LAG-LEAD value; NULL for COUNT(*), ranks */
    const plan_expr *dflt;  /* LAG / LEAD default, or NULL (NULL default) */
    uint64_t offset;        /* LAG / LEAD rows; NTH_VALUE's N; NTILE's buckets */
    plan_expr *const *part; /* PARTITION BY */
    uint32_t npart;
    plan_expr *const *order; /* ORDER BY */
    const bool *desc;
    uint32_t norder;
    plan_window_frame frame; /* unit 0: the default frame */
    /* RANGE n PRECEDING / FOLLOWING bounds (start, end): the bound's value at a row, i.e. its
     * ORDER BY key -/+ the offset (date_sub / date_add for INTERVAL), and the mode comparing
     * keys with it; NULL for the other bound kinds. */
    const plan_expr *rbound[2];
    plan_cmp_mode rmode[2];
    plan_xtype t;  /* result type */
    plan_vkind vk; /* result kind */
} plan_window_fn;

/* The child's rows with one more column per function (child columns first). Pulls the whole
 * input into the statement arena, sorts it per function by (partition keys, order keys; NULL
 * smallest) and computes each function over its partition and frame (MySQL 8 semantics:
 * the default frame with ORDER BY is RANGE UNBOUNDED PRECEDING .. CURRENT ROW, peers
 * included; without ORDER BY the whole partition). Rows come out in the last function's
 * order. */
plan_op *plan__op_window(plan_ectx *cx, plan_op *child, const plan_window_fn *fns, uint32_t n);
/* Check the frame of window node x as MySQL 8 does (3584-3590, 3596; f's ORDER BY already
 * analysed over binds) and set f->rbound / f->rmode for RANGE value bounds (expressions in
 * cx->a). Returns DB_OK or DB_ERR. */
int plan__window_frame(plan_ectx *cx, const plan_ast *x, plan_window_fn *f,
                       const plan_bind_col *binds, size_t nb, db_error *err);

/* ======================================================================================
 * Joins (plan_join.c). See README.md §Executor (joins).
 * ====================================================================================== */

typedef struct plan_join_spec {
    plan_join_type type;        /* CROSS / INNER, LEFT, RIGHT, FULL (outer sides null-extended) */
    plan_expr *const *lkeys;    /* equi-join keys over the left input's columns */
    plan_expr *const *rkeys;    /* ... and the right's: lkeys[k] = rkeys[k] */
    const plan_cmp_mode *modes; /* per key: how the pair compares (plan__cmp_mode) */
    uint32_t nkeys;             /* 0: nested loop, every pair is a candidate */
    const plan_expr *residual;  /* over left ++ right columns; NULL = TRUE */
    bool build_left;            /* hash the left input and probe with the right */
    size_t mem_limit;           /* bytes of the build side; 0 = PLAN_JOIN_MEM_LIMIT */
} plan_join_spec;

#define PLAN_JOIN_MEM_LIMIT ((size_t)1 << 30)

/* Rows of left x right (left's columns, then right's) whose keys are equal (a NULL key never
 * matches) and for which the residual is TRUE; with an outer type the preserved side's
 * unmatched rows come out with NULLs for the other side. The build side lives in arenas the
 * operator owns (freed at close); more than the limit fails with ER_JOIN_MEMORY_LIMIT. */
plan_op *plan__op_join(plan_ectx *cx, plan_op *left, plan_op *right, const plan_join_spec *js);
/* A note EXPLAIN prints in join op's line (the join order the planner chose); op must come
 * from plan__op_join. */
void plan__op_join_note(plan_op *op, const char *note);
/* Whether l = r in mode can be a hash key (else it stays in the residual). */
bool plan__join_key_ok(plan_cmp_mode mode, const plan_expr *l, const plan_expr *r);
/* Hash of v as a key compared in mode, chained from seed: values equal by plan__compare hash
 * equally. *fold is case-folding scratch (heap, grown as needed; mem_free it). */
uint64_t plan__join_hash(plan_ectx *cx, plan_cmp_mode mode, const plan_value *v, char **fold,
                         size_t *fold_cap, uint64_t seed);

/* open; next until the end calling fn per batch; close (also on failure). */
typedef int (*plan_batch_fn)(void *ctx, const plan_batch *b, db_error *err);
int plan__op_drain(plan_op *root, plan_batch_fn fn, void *ctx, db_error *err);
/* Batch capacity for session s: @@batch_size capped to [1, PLAN_BATCH_MAX]. */
uint32_t plan__batch_cap(const plan_session *s);

/* ======================================================================================
 * Virtual tables (plan_vtable.c): information_schema.
 * ====================================================================================== */

typedef enum plan_vcol_kind {
    PLAN_VC_VARCHAR,  /* VARCHAR(len) utf8 */
    PLAN_VC_LONGTEXT, /* LONGTEXT */
    PLAN_VC_BIGINT,   /* BIGINT(len) [UNSIGNED] */
    PLAN_VC_DATETIME, /* DATETIME */
    PLAN_VC_BOOLEAN,  /* Doris BOOLEAN (shown 1/0) */
} plan_vcol_kind;

typedef struct plan_vcol {
    const char *name;
    plan_vcol_kind kind;
    uint32_t len; /* VARCHAR characters; BIGINT display width */
    bool is_unsigned;
    bool nullable;
} plan_vcol;

typedef struct plan_vgen plan_vgen;
typedef int (*plan_vgen_fn)(plan_vgen *g, db_error *err);

typedef struct plan_vtable {
    const char *name; /* upper case, as MySQL reports it */
    const plan_vcol *cols;
    uint32_t ncols;
    plan_vgen_fn gen;
} plan_vtable;

/* The information_schema table name (case-insensitive), or NULL. */
const plan_vtable *plan__vtable_find(const char *name);
size_t plan__vtable_count(void);
const plan_vtable *plan__vtable_at(size_t i);
/* Metadata type and value kind of a virtual column. */
void plan__vcol_type(const plan_vcol *c, plan_xtype *t, plan_vkind *vk);
/* Generate every row of vt (ncols values each) into the statement arena cx->a. */
int plan__vtable_rows(plan_ectx *cx, const plan_vtable *vt, plan_value **rows, size_t *nrows,
                      db_error *err);

/* Rows built in memory for SHOW statements (plan_exec.c): every column a VARCHAR(64); cells
 * are NUL-terminated strings (NULL = SQL NULL) in the statement arena. */
typedef struct plan_rowset {
    plan_column *cols;
    size_t ncols;
    const char **cells; /* nrows * ncols; NULL = SQL NULL */
    size_t nrows, cap;
} plan_rowset;

void plan__rs_init(arena *a, plan_rowset *rs, const char *const *names, size_t ncols);
/* plan_show.c: start an ADMIN-only SHOW (SHOW TABLETS / BACKENDS / FRONTENDS / ... CONFIG): rs gets
 * the columns names[0..ncols); ER_SPECIFIC_ACCESS_DENIED_ERROR (1227) without ADMIN. When
 * describing (a prepared statement) it sends the columns and sets *sent: return its result. */
int plan__admin_show(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_rowset *rs,
                     const char *const *names, size_t ncols, bool *sent, db_error *err);
/* Appends one row of rs->ncols cells (the pointers are copied, not the strings). */
void plan__rs_add(arena *a, plan_rowset *rs, const char *const *row);
/* Sends the columns, then the rows that pass SHOW ... LIKE (on column like_col) and WHERE (the
 * columns bound by name); with cx->describe only the columns. */
int plan__rs_send(plan_ectx *cx, plan_rowset *rs, const plan_stmt *st, size_t like_col,
                  const plan_sink *sink, db_error *err);

/* plan_select.c: x's AND conjuncts appended to out[*n] (grown in cx->a); the AND of xs[0..n)
 * (NULL for none), its text span from the first to the last. */
void plan__conjuncts(plan_ectx *cx, const plan_ast *x, const plan_ast ***out, uint32_t *n,
                     uint32_t *cap);
plan_ast *plan__and_of(plan_ectx *cx, const plan_ast *const *xs, uint32_t n);
/* plan_select.c: SELECT ... FROM table (the statement has tables). */
/* plan__select_build with the typed visible select items too (plan_setop.c needs their
 * types); set operations and plain SELECTs alike. */
int plan__select_build_x(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, plan_expr ***exprsp,
                         plan_column **colsp, uint32_t *ncolsp, db_error *err);
/* plan_setop.c: a statement with st->setop set: operands planned, result columns (*exprsp:
 * column references of the unified types, *colsp: metadata), ORDER BY / LIMIT applied; *rootp
 * NULL when describing. ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT, ER_WRONG_USAGE. */
int plan__setop_build(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, plan_expr ***exprsp,
                      plan_column **colsp, uint32_t *np, db_error *err);
int plan__select_from(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                      db_error *err);
/* plan_select.c: whether a SELECT without FROM must run as a one-row scan (aggregates,
 * window functions, GROUP BY or HAVING: `SELECT COUNT(*)`), not as plain expressions. */
bool plan__select_needs_rows(const plan_stmt *st);
/* plan_semijoin.c: the top-level AND conjuncts of *where that are [NOT] EXISTS / [NOT] IN
 * subqueries correlated only by inner.col = outer.col equalities (or uncorrelated), planned
 * as semi / anti joins over a row bound by cols; *where keeps the other conjuncts (NULL when
 * none). NULL when there are none (then *where is unchanged). Never fails: a conjunct it
 * cannot plan stays in *where for plan_subquery.c. */
typedef struct plan_semi plan_semi;
plan_semi *plan__semi_split(plan_ectx *cx, const plan_ast **where, const plan_bind_col *cols,
                            size_t ncols);
/* root under the semi / anti joins of sj (root's columns, fewer rows). */
plan_op *plan__semi_apply(plan_ectx *cx, plan_op *root, const plan_semi *sj);

#endif /* PLANNER_PLAN_EXEC_INT_H */
