/* SPDX-License-Identifier: Apache-2.0
 * plan_setop.c: set operations. UNION [ALL | DISTINCT], EXCEPT / MINUS and INTERSECT [ALL |
 * DISTINCT] over the operands the grammar folded into plan_stmt.setop_left / setop_right
 * (PLAN_SETOP_PAREN: a parenthesised query, setop_left alone). The grammar builds a left-deep
 * tree, one node per operator; planning walks the left spine iteratively and turns the whole
 * chain into one n-ary operator, so N operands cost O(N) to plan and to run, with no
 * recursion over N (the right operands, nested set operations among them, are planned as
 * nested statements). Result columns take their names from the first operand and their types
 * from MySQL's unification of each column across every operand of the chain at once
 * (plan__agg_type, as CASE / COALESCE). The statement's ORDER BY / LIMIT apply to the combined
 * rows. Operators (op_setop):
 * - a chain of UNIONs only: the inputs one after the other, converted to the result types
 *   (each input is opened when its turn comes and closed when drained); UNION DISTINCT is that
 *   under the hash aggregation of plan_agg.c keyed on every column, over the operands up to the
 *   last DISTINCT (a later UNION ALL appends to the deduplicated rows, as MySQL);
 * - a chain with INTERSECT / EXCEPT: the sources (the first operand and the UNION operands)
 *   streamed in order through stages in chain order, the rows of a source passing only the
 *   stages after it; a stage per run of the same operator and ALL flag with no source between
 *   hashes all its right inputs into one plan_aht (EXCEPT: the sum of their counts; INTERSECT:
 *   how many inputs hold the row and the smallest count); a UNION DISTINCT is a DEDUP stage.
 *   The same rows come out as from the nested binary operations.
 * See README.md §Set operations. */
#include "planner/plan_exec_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Per distinct row of a stage's right inputs (and of left rows probed against it). */
typedef struct setop_cnt {
    uint64_t right; /* EXCEPT: right rows equal to it (ALL: not yet matched); INTERSECT ALL:
                       matches left (the smallest count, once fin) */
    uint64_t minc;  /* INTERSECT: smallest count over the inputs done (UINT64_MAX: none) */
    uint64_t cur;   /* INTERSECT: count in input `last` */
    uint32_t nb;    /* INTERSECT: inputs of the stage holding it */
    uint32_t last;  /* INTERSECT: the last input (1-based in the stage) that held it */
    bool fin;       /* INTERSECT ALL: right is final */
    bool emitted;   /* DISTINCT: already returned */
} setop_cnt;

typedef enum setop_kind { SK_INTERSECT, SK_EXCEPT, SK_DEDUP } setop_kind;

typedef struct setop_stage {
    setop_kind kind; /* SK_DEDUP: a UNION DISTINCT (each row once), no right input */
    bool all;
    uint32_t pos;      /* rows of the sources before source `pos` pass it */
    uint32_t first, n; /* its right inputs: in[first .. first + n) */
    bool ht_init;
    plan_aht ht;
} setop_stage;

typedef struct op_setop {
    plan_op base; /* inputs = in (nin); child = in[0] (column names) */
    bool filter;  /* false: every input in turn; true: the sources through the stages */
    plan_op **in;
    uint32_t nin;
    uint32_t *src; /* filter: the inputs streamed to the output, in order (src[0] = 0) */
    uint32_t nsrc;
    uint32_t stage0; /* filter: the first stage the current source's rows pass */
    setop_stage *stages;
    uint32_t nstages;
    const plan_expr *const *cols; /* result columns (types), ncols */
    plan_batch *out;
    uint32_t cur;     /* input being streamed */
    plan_op *open_in; /* the input that is open (one at a time), or NULL */
    plan_batch *inb;  /* its current batch, or NULL */
    uint32_t pos;     /* next active row of inb */
    bool built;       /* filter: the stages are hashed */
    plan_value *keys; /* ncols scratch */
    bool *ci;         /* per column: strings compare case-insensitively */
} op_setop;

static int setop_open(plan_op *op, db_error *err);
static int setop_next(plan_op *op, plan_batch **out, db_error *err);
static void setop_close(plan_op *op);
static void setop_describe(plan_op *op, plan_explain *ex);
static size_t setop_mem_used(const plan_op *op);
static int setop_build(op_setop *o, db_error *err);
static int put_row(op_setop *o, const plan_batch *b, uint32_t row, db_error *err);

static int
setop_open(plan_op *op, db_error *err)
{
    (void)err;
    op_setop *o = (op_setop *)op;
    op->opened = true;
    op->ba = arena_new(0);
    if (!o->out) {
        o->out = plan__batch_new(op->cx->a, op->types, op->ncols, op->cap);
        o->keys = arena_calloc(op->cx->a, op->ncols ? op->ncols : 1, sizeof *o->keys);
    }
    o->cur = 0;
    o->stage0 = 0;
    o->open_in = NULL;
    o->inb = NULL;
    o->pos = 0;
    o->built = false;
    return DB_OK;
}

static void
input_close(op_setop *o)
{
    if (o->open_in) {
        o->open_in->close(o->open_in);
        o->open_in = NULL;
    }
    o->inb = NULL;
    o->pos = 0;
}

static void
setop_close(plan_op *op)
{
    op_setop *o = (op_setop *)op;
    input_close(o);
    for (uint32_t s = 0; s < o->nstages; s++) {
        if (o->stages[s].ht_init) {
            plan__aht_destroy(&o->stages[s].ht);
            o->stages[s].ht_init = false;
        }
    }
    arena_free(op->ba);
    op->ba = NULL;
    op->opened = false;
}

/* Row `row` of input batch b, converted to the result types, into the next row of out. */
static int
put_row(op_setop *o, const plan_batch *b, uint32_t row, db_error *err)
{
    plan_batch *out = o->out;
    for (uint32_t c = 0; c < o->base.ncols; c++) {
        plan_value v;
        plan__batch_get(b, c, row, &v);
        if (plan__batch_set(o->base.cx, out, c, out->nrows, &v, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

/* The next batch of input i (opened on first use) into o->inb; NULL at its end (then closed). */
static int
input_next(op_setop *o, uint32_t i, db_error *err)
{
    plan_op *in = o->in[i];
    if (o->open_in != in) {
        input_close(o);
        if (in->open(in, err) != DB_OK) {
            in->close(in);
            return DB_ERR;
        }
        o->open_in = in;
    }
    o->pos = 0;
    if (plan__check_interrupt(o->base.cx->s, err) != DB_OK || in->next(in, &o->inb, err) != DB_OK) {
        return DB_ERR;
    }
    if (!o->inb) {
        input_close(o);
    }
    return DB_OK;
}

/* Out row `row`'s values as hash keys. */
static void
row_keys(op_setop *o, uint32_t row)
{
    for (uint32_t c = 0; c < o->base.ncols; c++) {
        plan__batch_get(o->out, c, row, &o->keys[c]);
    }
}

/* Every right input of every stage, converted, counted per distinct row. */

/* The counts of the row whose keys are keys in stage st's hash table (zeroed when new). */
static int
stage_cnt(setop_stage *st, const plan_value *keys, setop_cnt **out, db_error *err)
{
    void *p;
    bool is_new;
    if (plan__aht_upsert(&st->ht, keys, &p, &is_new, err) != DB_OK) {
        return DB_ERR;
    }
    setop_cnt *cnt = p;
    if (is_new) {
        memset(cnt, 0, sizeof *cnt);
        cnt->minc = UINT64_MAX;
    }
    *out = cnt;
    return DB_OK;
}

static int
setop_build(op_setop *o, db_error *err)
{
    plan_op *op = &o->base;
    if (!o->ci) {
        o->ci = arena_calloc(op->cx->a, op->ncols ? op->ncols : 1, sizeof *o->ci);
        for (uint32_t c = 0; c < op->ncols; c++) {
            o->ci[c] = plan__cmp_mode(o->cols[c], o->cols[c]) == PLAN_CMP_STRING;
        }
    }
    for (uint32_t s = 0; s < o->nstages; s++) {
        setop_stage *st = &o->stages[s];
        plan__aht_init(&st->ht, op->ncols, o->ci, op->cx->s->srv->ctype, sizeof(setop_cnt),
                       PLAN_AGG_MEM_LIMIT);
        st->ht_init = true;
        for (uint32_t j = 0; j < st->n; j++) {
            uint32_t i = st->first + j;
            for (;;) {
                if (input_next(o, i, err) != DB_OK) {
                    return DB_ERR;
                }
                if (!o->inb) {
                    break;
                }
                uint32_t n = plan__batch_active(o->inb);
                for (uint32_t k = 0; k < n; k++) {
                    plan__batch_clear(o->out);
                    if (put_row(o, o->inb, plan__batch_row(o->inb, k), err) != DB_OK) {
                        return DB_ERR;
                    }
                    o->out->nrows = 1;
                    row_keys(o, 0);
                    setop_cnt *cnt;
                    if (stage_cnt(st, o->keys, &cnt, err) != DB_OK) {
                        return DB_ERR;
                    }
                    if (st->kind == SK_EXCEPT) {
                        cnt->right++;
                        continue;
                    }
                    if (cnt->last != j + 1) {
                        if (cnt->last != 0 && cnt->cur < cnt->minc) {
                            cnt->minc = cnt->cur;
                        }
                        cnt->cur = 0;
                        cnt->last = j + 1;
                        cnt->nb++;
                    }
                    cnt->cur++;
                }
            }
        }
    }
    plan__batch_clear(o->out);
    o->built = true;
    return DB_OK;
}

/* Whether the left row whose keys are in o->keys passes stage st (its counts move). */
static int
stage_keep(op_setop *o, setop_stage *st, bool *keep, db_error *err)
{
    setop_cnt *cnt;
    if (stage_cnt(st, o->keys, &cnt, err) != DB_OK) {
        return DB_ERR;
    }
    if (st->kind == SK_DEDUP) {
        *keep = !cnt->emitted;
        cnt->emitted = true;
        return DB_OK;
    }
    bool intersect = st->kind == SK_INTERSECT;
    bool in_right;
    if (intersect) {
        in_right = cnt->nb == st->n;
        if (in_right && st->all && !cnt->fin) {
            cnt->right = cnt->cur < cnt->minc ? cnt->cur : cnt->minc;
            cnt->fin = true;
        }
    } else {
        in_right = cnt->right > 0;
    }
    if (st->all) {
        if (intersect) {
            *keep = in_right && cnt->right > 0;
        } else {
            *keep = !in_right;
        }
        if (in_right && cnt->right > 0) {
            cnt->right--;
        }
    } else {
        *keep = !cnt->emitted && (intersect ? in_right : !in_right);
        cnt->emitted |= *keep;
    }
    return DB_OK;
}

static int
setop_next(plan_op *op, plan_batch **outp, db_error *err)
{
    op_setop *o = (op_setop *)op;
    *outp = NULL;
    if (o->filter && !o->built && setop_build(o, err) != DB_OK) {
        return DB_ERR;
    }
    arena_reset(op->ba);
    plan_batch *out = o->out;
    plan__batch_clear(out);
    uint32_t last = o->filter ? o->nsrc : o->nin; /* inputs streamed to the output */
    for (;;) {
        if (!o->inb || o->pos >= plan__batch_active(o->inb)) {
            if (out->nrows > 0) { /* its strings point into the input batch: return it first */
                *outp = out;
                return DB_OK;
            }
            if (o->cur >= last) {
                return DB_OK;
            }
            if (input_next(o, o->filter ? o->src[o->cur] : o->cur, err) != DB_OK) {
                return DB_ERR;
            }
            if (!o->inb) {
                o->cur++;
            }
            while (o->filter && o->stage0 < o->nstages && o->stages[o->stage0].pos <= o->cur) {
                o->stage0++; /* stages are in pos order: the next sources skip these */
            }
            continue;
        }
        if (out->nrows == out->cap) {
            *outp = out;
            return DB_OK;
        }
        uint32_t row = plan__batch_row(o->inb, o->pos++);
        if (put_row(o, o->inb, row, err) != DB_OK) {
            return DB_ERR;
        }
        out->nrows++; /* taken back below unless kept */
        if (!o->filter) {
            continue;
        }
        row_keys(o, out->nrows - 1);
        bool keep = true;
        for (uint32_t s = o->stage0; s < o->nstages && keep; s++) {
            if (stage_keep(o, &o->stages[s], &keep, err) != DB_OK) {
                return DB_ERR;
            }
        }
        if (!keep) {
            out->nrows--;
        }
    }
}

static void
setop_describe(plan_op *op, plan_explain *ex)
{
    const op_setop *o = (const op_setop *)op;
    if (!o->filter) {
        plan__explain_printf(ex, "UNION ALL");
        return;
    }
    if (o->nsrc > 1) {
        plan__explain_printf(ex, "UNION ALL (%u inputs), ", o->nsrc);
    }
    for (uint32_t s = 0; s < o->nstages; s++) {
        const setop_stage *st = &o->stages[s];
        if (st->kind == SK_DEDUP) {
            plan__explain_printf(ex, "%sDISTINCT", s ? ", " : "");
            continue;
        }
        plan__explain_printf(ex, "%s%s%s", s ? ", " : "",
                             st->kind == SK_INTERSECT ? "INTERSECT" : "EXCEPT",
                             st->all ? " ALL" : "");
        if (o->nstages > 1 || st->n > 1) {
            plan__explain_printf(ex, " (%u inputs)", st->n);
        }
    }
}

static size_t
setop_mem_used(const plan_op *op)
{
    const op_setop *o = (const op_setop *)op;
    size_t n = o->open_in ? plan__op_tree_mem(o->open_in) : 0;
    for (uint32_t s = 0; s < o->nstages; s++) {
        const plan_aht *h = &o->stages[s].ht;
        if (o->stages[s].ht_init) {
            n += (size_t)h->nslots * sizeof(uint32_t) + (size_t)h->cap * sizeof(void *) +
                 arena_used(h->a);
        }
    }
    return n;
}

static plan_op *
op_setop_new(plan_ectx *cx, plan_op **in, uint32_t nin, uint32_t *src, uint32_t nsrc,
             setop_stage *stages, uint32_t nstages, plan_expr *const *cols, uint32_t ncols)
{
    op_setop *o = arena_calloc(cx->a, 1, sizeof *o);
    o->base.open = setop_open;
    o->base.next = setop_next;
    o->base.close = setop_close;
    o->base.describe = setop_describe;
    o->base.mem_used = setop_mem_used;
    o->base.child = in[0];
    o->base.inputs = in;
    o->base.ninputs = nin;
    o->base.cx = cx;
    o->base.cap = plan__batch_cap(cx->s);
    o->base.ncols = ncols;
    o->base.types = arena_calloc(cx->a, ncols ? ncols : 1, sizeof(plan_vtype));
    for (uint32_t c = 0; c < ncols; c++) {
        o->base.types[c] = plan__vtype_of(cols[c]);
    }
    o->filter = stages != NULL;
    o->in = in;
    o->nin = nin;
    o->src = src;
    o->nsrc = nsrc;
    o->stages = stages;
    o->nstages = nstages;
    o->cols = (const plan_expr *const *)cols;
    return &o->base;
}

/* ---- planning ---- */

/* Column c of a row of the result types: an expression bound to slot c. */
static plan_expr *
col_ref(plan_ectx *cx, const char *name, const plan_xtype *t, plan_vkind vk, uint32_t c)
{
    plan_ast *x = arena_calloc(cx->a, 1, sizeof *x);
    x->kind = PA_COLUMN;
    x->name = "";
    plan_bind_col b;
    memset(&b, 0, sizeof b);
    b.name = name;
    b.t = *t;
    b.vk = vk;
    b.ast = x;
    plan_expr *e = NULL;
    db_error e2;
    int rc = plan__analyze(cx, x, &b, 1, "field list", &e, &e2);
    DB_ASSERT(rc == DB_OK);
    (void)rc;
    e->slot = (int)c;
    return e;
}

/* ORDER BY / LIMIT of a set operation over its result columns (names of the first operand). */
static int
order_limit(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, plan_expr **ex,
            const plan_column *cols, uint32_t n, db_error *err)
{
    plan_op *root = *rootp;
    if (st->order) {
        uint32_t nk = st->order->n;
        plan_sort_key *keys = arena_calloc(cx->a, nk, sizeof *keys);
        plan_bind_col *binds = arena_calloc(cx->a, n ? n : 1, sizeof *binds);
        for (uint32_t c = 0; c < n; c++) {
            binds[c].name = cols[c].name;
            binds[c].t = ex[c]->t;
            binds[c].vk = ex[c]->vk;
        }
        plan_expr **all = arena_calloc(cx->a, n + nk, sizeof *all);
        memcpy(all, ex, n * sizeof *all);
        uint32_t nall = n;
        for (uint32_t i = 0; i < nk; i++) {
            const plan_ast *x = st->order->items[i];
            int col = -1;
            if (x->kind == PA_INT && !x->has_parens) {
                uint64_t pos = strtoull(x->name, NULL, 10);
                if (pos < 1 || pos > n) {
                    return db_error_set(err, ER_BAD_FIELD_ERROR, x->name, "order clause");
                }
                col = (int)(pos - 1);
            } else if (x->kind == PA_COLUMN && x->qual) {
                return db_error_set(err, ER_TABLENAME_NOT_ALLOWED_HERE, x->qual,
                                    "global ORDER clause");
            } else if (x->kind == PA_COLUMN) {
                for (uint32_t c = 0; c < n && col < 0; c++) {
                    if (strcasecmp(cols[c].name, x->name) == 0) {
                        col = (int)c;
                    }
                }
            }
            if (col < 0) {
                plan_expr *e;
                if (plan__analyze(cx, x, binds, n, "order clause", &e, err) != DB_OK) {
                    return DB_ERR;
                }
                col = (int)nall;
                all[nall++] = e;
            }
            keys[i].col = (uint32_t)col;
            keys[i].desc = st->order_desc[i];
            keys[i].nulls = st->order_nulls ? st->order_nulls[i] : 0;
            keys[i].mode = plan__cmp_mode(all[col], all[col]);
        }
        if (root) {
            if (nall > n) {
                root = plan__op_project(cx, root, all, nall);
            }
            root = plan__op_sort(cx, root, keys, nk);
            if (nall > n) {
                root = plan__op_project(cx, root, ex, n);
            }
        }
    }
    uint64_t lcount = UINT64_MAX, loffset = 0;
    if (st->has_limit && plan__stmt_limit(cx, st, &lcount, &loffset, err) != DB_OK) {
        return DB_ERR;
    }
    uint64_t limit = st->has_limit || st->parent
                             ? lcount
                             : (uint64_t)cx->s->vars[plan__sysvar_find("sql_select_limit")].i;
    if (root && (limit != UINT64_MAX || loffset > 0)) {
        root = plan__op_limit(cx, root, loffset, limit);
    }
    *rootp = root;
    return DB_OK;
}

/* 1: UNION, 2: INTERSECT / EXCEPT, 0: neither (a query, a parenthesised one). */
static int
setop_family(uint8_t setop)
{
    return setop == PLAN_SETOP_UNION                                     ? 1
           : setop == PLAN_SETOP_INTERSECT || setop == PLAN_SETOP_EXCEPT ? 2
                                                                         : 0;
}

/* A left operand that is one more link of its parent's chain: a set operation (not a
 * parenthesised query) with nothing of its own (its ORDER BY / LIMIT would have been a 1221
 * anyway). */
static bool
chain_link(const plan_stmt *l)
{
    return l != NULL && setop_family(l->setop) != 0 && l->gkind == PLAN_GK_NONE && !l->order &&
           !l->has_limit && l->nctes == 0 && l->ncolnames == 0;
}

/* The operators of the chain from st down its left spine: ops[0] is the deepest (joining
 * operands 0 and 1), ops[n - 1] is st. Checks 1221 top-down, as a recursive walk would. */
static int
chain_collect(plan_ectx *cx, const plan_stmt *st, const plan_stmt ***opsp, uint32_t *np,
              db_error *err)
{
    uint32_t n = 0;
    for (const plan_stmt *t = st;; t = t->setop_left) {
        if (t->setop_misuse) {
            return db_error_set(err, ER_WRONG_USAGE, "UNION",
                                t->setop_misuse == 1 ? "ORDER BY" : "LIMIT");
        }
        n++;
        if (!chain_link(t->setop_left)) {
            break;
        }
    }
    const plan_stmt **ops = arena_alloc(cx->a, n * sizeof *ops);
    const plan_stmt *t = st;
    for (uint32_t i = n; i-- > 0; t = t->setop_left) {
        ops[i] = t;
    }
    *opsp = ops;
    *np = n;
    return DB_OK;
}

int
plan__setop_build(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, plan_expr ***exprsp,
                  plan_column **colsp, uint32_t *np, db_error *err)
{
    if (st->setop == PLAN_SETOP_PAREN) {
        if (st->setop_misuse) {
            return db_error_set(err, ER_WRONG_USAGE, "UNION",
                                st->setop_misuse == 1 ? "ORDER BY" : "LIMIT");
        }
    }
    const plan_stmt **ops = NULL;
    uint32_t nops = 0;
    if (st->setop != PLAN_SETOP_PAREN && chain_collect(cx, st, &ops, &nops, err) != DB_OK) {
        return DB_ERR;
    }
    /* operand i: 0 the left end of the chain, i >= 1 the right operand of ops[i - 1] */
    uint32_t nin = nops + 1;
    plan_op **in = arena_calloc(cx->a, nin, sizeof *in);
    plan_expr ***inex = arena_calloc(cx->a, nin, sizeof *inex);
    plan_column *lcols = NULL;
    uint32_t ln = 0;
    const plan_stmt *left = st->setop == PLAN_SETOP_PAREN ? st->setop_left : ops[0]->setop_left;
    if (plan__select_build_x(cx, left, &in[0], &inex[0], &lcols, &ln, err) != DB_OK) {
        return DB_ERR;
    }
    for (uint32_t i = 1; i < nin; i++) {
        plan_column *rcols;
        uint32_t rn;
        if (plan__select_build_x(cx, ops[i - 1]->setop_right, &in[i], &inex[i], &rcols, &rn, err) !=
            DB_OK) {
            return DB_ERR;
        }
        if (ln != rn) {
            return db_error_set(err, ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT);
        }
    }
    plan_expr **ex = arena_calloc(cx->a, ln ? ln : 1, sizeof *ex);
    plan_column *cols = arena_calloc(cx->a, ln ? ln : 1, sizeof *cols);
    plan_op *root = in[0];
    if (st->setop == PLAN_SETOP_PAREN) {
        for (uint32_t c = 0; c < ln; c++) {
            ex[c] = col_ref(cx, lcols[c].name, &inex[0][c]->t, inex[0][c]->vk, c);
            cols[c] = lcols[c];
        }
    } else {
        plan_expr **col = arena_calloc(cx->a, nin, sizeof *col);
        for (uint32_t c = 0; c < ln; c++) {
            for (uint32_t i = 0; i < nin; i++) {
                col[i] = inex[i][c];
            }
            plan_xtype t;
            plan_vkind vk;
            memset(&t, 0, sizeof t);
            plan__agg_type(col, nin, &t, &vk);
            ex[c] = col_ref(cx, lcols[c].name, &t, vk, c);
            plan__col_init(&cols[c], lcols[c].name, &t);
        }
        bool all_union = true;
        for (uint32_t i = 0; i < nops; i++) {
            all_union &= ops[i]->setop == PLAN_SETOP_UNION;
        }
        if (!cx->describe && all_union) {
            /* UNION: the operands up to the last DISTINCT deduplicated, then the rest */
            uint32_t k = 0;
            for (uint32_t i = 1; i < nin; i++) {
                if (!ops[i - 1]->setop_all) {
                    k = i;
                }
            }
            if (k == 0) {
                root = op_setop_new(cx, in, nin, NULL, 0, NULL, 0, ex, ln);
            } else {
                root = op_setop_new(cx, in, k + 1, NULL, 0, NULL, 0, ex, ln);
                root = plan__op_hashagg(cx, root, ex, ln, NULL, 0);
                if (k + 1 < nin) {
                    plan_op **rest = arena_alloc(cx->a, (nin - k) * sizeof *rest);
                    rest[0] = root;
                    memcpy(rest + 1, in + k + 1, (nin - k - 1) * sizeof *rest);
                    root = op_setop_new(cx, rest, nin - k, NULL, 0, NULL, 0, ex, ln);
                }
            }
        } else if (!cx->describe) {
            /* INTERSECT / EXCEPT in the chain: the sources (operand 0, UNION operands) streamed
             * through stages in chain order, one per run of the same operator and ALL flag
             * with no source between; a UNION DISTINCT is a DEDUP stage after its operand
             * (moved, when it is the last stage, instead of adding another) */
            setop_stage *stages = arena_calloc(cx->a, nops, sizeof *stages);
            uint32_t *src = arena_alloc(cx->a, nin * sizeof *src);
            uint32_t ns = 0, nsrc = 0;
            src[nsrc++] = 0;
            for (uint32_t i = 1; i < nin; i++) {
                const plan_stmt *op = ops[i - 1];
                setop_stage *prev = ns ? &stages[ns - 1] : NULL;
                if (op->setop == PLAN_SETOP_UNION) {
                    src[nsrc++] = i;
                    if (op->setop_all) {
                        continue;
                    }
                    if (prev && prev->kind == SK_DEDUP) {
                        prev->pos = nsrc;
                        continue;
                    }
                    stages[ns].kind = SK_DEDUP;
                    stages[ns].pos = nsrc;
                    ns++;
                    continue;
                }
                setop_kind kind = op->setop == PLAN_SETOP_INTERSECT ? SK_INTERSECT : SK_EXCEPT;
                if (!prev || prev->kind != kind || prev->all != op->setop_all ||
                    prev->pos != nsrc) {
                    prev = &stages[ns++];
                    prev->kind = kind;
                    prev->all = op->setop_all;
                    prev->pos = nsrc;
                    prev->first = i;
                }
                prev->n++;
            }
            root = op_setop_new(cx, in, nin, src, nsrc, stages, ns, ex, ln);
        }
    }
    if (cx->describe) {
        root = NULL;
    } else if (st->setop == PLAN_SETOP_PAREN && root->ncols > ln) {
        root = plan__op_project(cx, root, ex, ln); /* hidden ORDER BY columns of the operand */
    }
    if (order_limit(cx, st, &root, ex, cols, ln, err) != DB_OK) {
        return DB_ERR;
    }
    *rootp = root;
    *exprsp = ex;
    *colsp = cols;
    *np = ln;
    return DB_OK;
}
