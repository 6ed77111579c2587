/* SPDX-License-Identifier: Apache-2.0
 * plan_setop.c: set operations. UNION [ALL | DISTINCT], EXCEPT / MINUS and INTERSECT [ALL |
 * DISTINCT] over the operands the grammar folded into plan_stmt.setop_left / setop_right
 * (PLAN_SETOP_PAREN: a parenthesised query, setop_left alone). Result columns take their names
 * from the first operand and their types from MySQL's unification of each column across the
 * operands (plan__agg_type, as CASE / COALESCE). The statement's ORDER BY / LIMIT apply to the
 * combined rows. Operators: setop (UNION ALL: the left rows then the right rows, converted to
 * the result types; INTERSECT / EXCEPT: the right input hashed in a plan_aht with a count per
 * distinct row, the left streamed through it); UNION DISTINCT is UNION ALL under the hash
 * aggregation of plan_agg.c keyed on every column. See README.md §Set operations. */
#include "planner/plan_exec_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum setop_mode { SM_CONCAT, SM_INTERSECT, SM_EXCEPT } setop_mode;

/* Per distinct row of the right input (INTERSECT / EXCEPT). */
typedef struct setop_cnt {
    uint64_t right; /* right rows equal to it not yet matched (ALL) / seen (DISTINCT) */
    bool emitted;   /* DISTINCT: already returned */
} setop_cnt;

typedef struct op_setop {
    plan_op base; /* child = left input, child2 = right input */
    setop_mode mode;
    bool all;
    const plan_expr *const *cols; /* result columns (types), ncols */
    plan_batch *out;
    plan_op *cur;   /* input being streamed */
    plan_batch *in; /* its current batch, or NULL */
    uint32_t pos;   /* next active row of in */
    bool built;     /* INTERSECT / EXCEPT: the right input is hashed */
    bool ht_init;
    plan_aht ht;
    plan_value *keys; /* ncols scratch */
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
    op_setop *o = (op_setop *)op;
    op->opened = true;
    op->ba = arena_new(0);
    if (!o->out) {
        o->out = plan__batch_new(op->cx->a, op->types, op->ncols, op->cap);
        o->keys = arena_calloc(op->cx->a, op->ncols ? op->ncols : 1, sizeof *o->keys);
    }
    o->cur = op->child;
    o->in = NULL;
    o->pos = 0;
    o->built = false;
    if (op->child->open(op->child, err) != DB_OK) {
        return DB_ERR;
    }
    return op->child2->open(op->child2, err);
}

static void
setop_close(plan_op *op)
{
    op_setop *o = (op_setop *)op;
    op->child->close(op->child);
    op->child2->close(op->child2);
    if (o->ht_init) {
        plan__aht_destroy(&o->ht);
        o->ht_init = false;
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

/* INTERSECT / EXCEPT: every right row, converted, counted per distinct row. */
static int
setop_build(op_setop *o, db_error *err)
{
    plan_op *op = &o->base;
    bool *ci = arena_calloc(op->cx->a, op->ncols ? op->ncols : 1, sizeof *ci);
    for (uint32_t c = 0; c < op->ncols; c++) {
        ci[c] = plan__cmp_mode(o->cols[c], o->cols[c]) == PLAN_CMP_STRING;
    }
    plan__aht_init(&o->ht, op->ncols, ci, op->cx->s->srv->ctype, sizeof(setop_cnt),
                   PLAN_AGG_MEM_LIMIT);
    o->ht_init = true;
    for (;;) {
        plan_batch *b = NULL;
        if (plan__check_interrupt(op->cx->s, err) != DB_OK ||
            op->child2->next(op->child2, &b, err) != DB_OK) {
            return DB_ERR;
        }
        if (!b) {
            break;
        }
        uint32_t n = plan__batch_active(b);
        for (uint32_t k = 0; k < n; k++) {
            plan__batch_clear(o->out);
            if (put_row(o, b, plan__batch_row(b, k), err) != DB_OK) {
                return DB_ERR;
            }
            o->out->nrows = 1;
            for (uint32_t c = 0; c < op->ncols; c++) {
                plan__batch_get(o->out, c, 0, &o->keys[c]);
            }
            void *p;
            bool is_new;
            if (plan__aht_upsert(&o->ht, o->keys, &p, &is_new, err) != DB_OK) {
                return DB_ERR;
            }
            setop_cnt *cnt = p;
            if (is_new) {
                memset(cnt, 0, sizeof *cnt);
            }
            cnt->right++;
        }
    }
    plan__batch_clear(o->out);
    o->built = true;
    return DB_OK;
}

static int
setop_next(plan_op *op, plan_batch **outp, db_error *err)
{
    op_setop *o = (op_setop *)op;
    *outp = NULL;
    if (o->mode != SM_CONCAT && !o->built && setop_build(o, err) != DB_OK) {
        return DB_ERR;
    }
    arena_reset(op->ba);
    plan_batch *out = o->out;
    plan__batch_clear(out);
    for (;;) {
        if (!o->in || o->pos >= plan__batch_active(o->in)) {
            if (out->nrows > 0) { /* its strings point into the input batch: return it first */
                *outp = out;
                return DB_OK;
            }
            if (!o->cur) {
                return DB_OK;
            }
            if (plan__check_interrupt(op->cx->s, err) != DB_OK ||
                o->cur->next(o->cur, &o->in, err) != DB_OK) {
                return DB_ERR;
            }
            o->pos = 0;
            if (!o->in) {
                o->cur = o->mode == SM_CONCAT && o->cur == op->child ? op->child2 : NULL;
            }
            continue;
        }
        if (out->nrows == out->cap) {
            *outp = out;
            return DB_OK;
        }
        uint32_t row = plan__batch_row(o->in, o->pos++);
        if (put_row(o, o->in, row, err) != DB_OK) {
            return DB_ERR;
        }
        if (o->mode == SM_CONCAT) {
            out->nrows++;
            continue;
        }
        out->nrows++; /* taken back below unless kept */
        for (uint32_t c = 0; c < op->ncols; c++) {
            plan__batch_get(out, c, out->nrows - 1, &o->keys[c]);
        }
        void *p;
        bool is_new;
        if (plan__aht_upsert(&o->ht, o->keys, &p, &is_new, err) != DB_OK) {
            return DB_ERR;
        }
        setop_cnt *cnt = p;
        if (is_new) {
            memset(cnt, 0, sizeof *cnt);
        }
        bool keep;
        if (o->all) {
            keep = o->mode == SM_INTERSECT ? cnt->right > 0 : cnt->right == 0;
            if (cnt->right > 0) {
                cnt->right--;
            }
        } else {
            keep = !cnt->emitted && (o->mode == SM_INTERSECT ? cnt->right > 0 : cnt->right == 0);
            cnt->emitted |= keep;
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
    const char *w = o->mode == SM_CONCAT      ? "UNION ALL"
                    : o->mode == SM_INTERSECT ? "INTERSECT"
                                              : "EXCEPT";
    plan__explain_printf(ex, "%s%s", w, o->mode != SM_CONCAT && o->all ? " ALL" : "");
}

static size_t
setop_mem_used(const plan_op *op)
{
    const op_setop *o = (const op_setop *)op;
    if (!o->ht_init) {
        return 0;
    }
    return (size_t)o->ht.nslots * sizeof(uint32_t) + (size_t)o->ht.cap * sizeof(void *) +
           arena_used(o->ht.a);
}

static plan_op *
op_setop_new(plan_ectx *cx, plan_op *l, plan_op *r, setop_mode mode, bool all,
             plan_expr *const *cols, uint32_t ncols)
{
    op_setop *o = arena_calloc(cx->a, 1, sizeof *o);
    o->base.open = setop_open;
    o->base.next = setop_next;
    o->base.close = setop_close;
    o->base.describe = setop_describe;
    o->base.mem_used = setop_mem_used;
    o->base.child = l;
    o->base.child2 = r;
    o->base.cx = cx;
    o->base.cap = plan__batch_cap(cx->s);
    o->base.ncols = ncols;
    o->base.types = arena_calloc(cx->a, ncols ? ncols : 1, sizeof(plan_vtype));
    for (uint32_t c = 0; c < ncols; c++) {
        o->base.types[c] = plan__vtype_of(cols[c]);
    }
    o->mode = mode;
    o->all = all;
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

int
plan__setop_build(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, plan_expr ***exprsp,
                  plan_column **colsp, uint32_t *np, db_error *err)
{
    if (st->setop_misuse) {
        return db_error_set(err, ER_WRONG_USAGE, "UNION",
                            st->setop_misuse == 1 ? "ORDER BY" : "LIMIT");
    }
    plan_op *lop = NULL, *rop = NULL;
    plan_expr **lex, **rex;
    plan_column *lcols, *rcols;
    uint32_t ln, rn;
    if (plan__select_build_x(cx, st->setop_left, &lop, &lex, &lcols, &ln, err) != DB_OK) {
        return DB_ERR;
    }
    plan_expr **ex = arena_calloc(cx->a, ln ? ln : 1, sizeof *ex);
    plan_column *cols = arena_calloc(cx->a, ln ? ln : 1, sizeof *cols);
    plan_op *root = lop;
    if (st->setop == PLAN_SETOP_PAREN) {
        for (uint32_t c = 0; c < ln; c++) {
            ex[c] = col_ref(cx, lcols[c].name, &lex[c]->t, lex[c]->vk, c);
            cols[c] = lcols[c];
        }
    } else {
        if (plan__select_build_x(cx, st->setop_right, &rop, &rex, &rcols, &rn, err) != DB_OK) {
            return DB_ERR;
        }
        if (ln != rn) {
            return db_error_set(err, ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT);
        }
        for (uint32_t c = 0; c < ln; c++) {
            plan_expr *pair[2] = {lex[c], rex[c]};
            plan_xtype t;
            plan_vkind vk;
            memset(&t, 0, sizeof t);
            plan__agg_type(pair, 2, &t, &vk);
            ex[c] = col_ref(cx, lcols[c].name, &t, vk, c);
            plan__col_init(&cols[c], lcols[c].name, &t);
        }
        if (!cx->describe) {
            setop_mode m = st->setop == PLAN_SETOP_UNION       ? SM_CONCAT
                           : st->setop == PLAN_SETOP_INTERSECT ? SM_INTERSECT
                                                               : SM_EXCEPT;
            root = op_setop_new(cx, lop, rop, m, st->setop_all, ex, ln);
            if (st->setop == PLAN_SETOP_UNION && !st->setop_all) {
                root = plan__op_hashagg(cx, root, ex, ln, NULL, 0);
            }
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
