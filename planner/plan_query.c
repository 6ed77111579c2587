/* SPDX-License-Identifier: Apache-2.0
 * plan_query.c: query expressions as the grammar builds them, bottom-up. Every SELECT keyword
 * pushes a fresh query block (plan_stmt_push) that the end of its simple_select pops into a
 * value (plan_qexpr); parentheses, the ORDER BY / LIMIT written after them and set operations
 * combine values into the plan_stmt tree plan_setop.c plans: set operations are binary nodes
 * (setop_left / setop_right, left-deep for a chain), a parenthesised set operation used as an
 * operand is wrapped in a PLAN_SETOP_PAREN node, and so is a query with its own ORDER BY /
 * LIMIT after its parentheses. Pushing at SELECT rather than at '(' is what lets a
 * parenthesis open a query anywhere: it is known to be one only once its content is read.
 * See README.md §Executor (Set operations). */
#include "planner/plan_int.h"

#include <string.h>

#include "common/mem.h"

/* The nested statement ends: back to its parent; what it could not support, the parent
 * cannot either. */
static plan_stmt *
stmt_pop(plan_parse *pp)
{
    plan_stmt *in = pp->stmt;
    DB_ASSERT(in->parent != NULL);
    pp->stmt = in->parent;
    if (in->kind == PS_UNSUPPORTED && in->what) {
        plan_stmt_unsupported(pp, in->what);
    }
    return in;
}

static plan_stmt *
node_new(plan_parse *pp)
{
    plan_stmt *n = arena_calloc(pp->a, 1, sizeof *n);
    n->kind = PS_SELECT;
    n->isolation = PLAN_ISO_NONE;
    n->parent = pp->stmt;
    return n;
}

static bool
has_order_limit(const plan_stmt *st)
{
    return st->order != NULL || st->has_limit;
}

/* ORDER BY / LIMIT of src become dst's (dst has none). */
static void
move_order_limit(plan_stmt *dst, plan_stmt *src)
{
    dst->order = src->order;
    dst->order_desc = src->order_desc;
    dst->order_nulls = src->order_nulls;
    dst->cap_order_desc = src->cap_order_desc;
    dst->cap_order_nulls = src->cap_order_nulls;
    dst->has_limit = src->has_limit;
    dst->limit_count = src->limit_count;
    dst->limit_offset = src->limit_offset;
    dst->limit_count_pix = src->limit_count_pix;
    dst->limit_offset_pix = src->limit_offset_pix;
    src->order = NULL;
    src->order_desc = NULL;
    src->order_nulls = NULL;
    src->cap_order_desc = src->cap_order_nulls = 0;
    src->has_limit = false;
    src->limit_count = src->limit_offset = 0;
    src->limit_count_pix = src->limit_offset_pix = 0;
}

static bool
is_setop(const plan_stmt *st)
{
    return st->setop != PLAN_SETOP_NONE && st->setop != PLAN_SETOP_PAREN;
}

/* q as an operand of a set operation: a parenthesised set operation stays one operand. */
static plan_stmt *
operand(plan_parse *pp, plan_qexpr q)
{
    if (!q.paren || !is_setop(q.st)) {
        return q.st;
    }
    plan_stmt *w = node_new(pp);
    w->setop = PLAN_SETOP_PAREN;
    w->setop_left = q.st;
    q.st->parent = w;
    return w;
}

plan_qexpr
plan_query_block(plan_parse *pp)
{
    plan_qexpr q;
    memset(&q, 0, sizeof q);
    q.st = stmt_pop(pp);
    return q;
}

plan_qexpr
plan_query_parens(plan_parse *pp, plan_qexpr q, const plan_token *lp, const plan_token *rp)
{
    (void)pp;
    q.paren = true;
    q.off = lp->off;
    q.end = rp->off + rp->n;
    return q;
}

void
plan_query_tail_begin(plan_parse *pp)
{
    plan_stmt_push(pp);
}

plan_qexpr
plan_query_tail(plan_parse *pp, plan_qexpr q)
{
    plan_stmt *w = stmt_pop(pp);
    w->setop = PLAN_SETOP_PAREN;
    w->setop_left = q.st;
    q.st->parent = w;
    plan_qexpr r;
    memset(&r, 0, sizeof r);
    r.st = w;
    return r;
}

plan_qexpr
plan_query_setop(plan_parse *pp, plan_qexpr l, int op, plan_qexpr r)
{
    int kind = op / 2;
    /* ORDER BY / LIMIT before a set operation keyword, outside parentheses */
    uint8_t misuse = l.paren || !has_order_limit(l.st) ? 0 : l.st->order ? 1 : 2;
    /* ... and those after the last operand are the whole result's */
    plan_stmt *tail = NULL;
    if (!r.paren && has_order_limit(r.st)) {
        tail = r.st;
        if (r.st->setop == PLAN_SETOP_PAREN && !is_setop(r.st->setop_left)) {
            r.st = r.st->setop_left; /* `(SELECT ...) ORDER BY ...`: nothing left to wrap */
        } else if (r.st->setop == PLAN_SETOP_PAREN) {
            r.paren = true;
        }
    }
    plan_stmt *n = node_new(pp);
    n->setop = (uint8_t)kind;
    n->setop_all = (op & 1) != 0;
    plan_stmt *top = n;
    if (kind == PLAN_SETOP_INTERSECT && !l.paren && is_setop(l.st) &&
        l.st->setop != PLAN_SETOP_INTERSECT) {
        /* a UNION / EXCEPT chain: INTERSECT takes its last operand */
        top = l.st;
        n->parent = top;
        n->setop_left = top->setop_right;
        top->setop_right = n;
    } else {
        n->setop_left = operand(pp, l);
    }
    n->setop_left->parent = n;
    n->setop_right = operand(pp, r);
    n->setop_right->parent = n;
    if (tail) {
        move_order_limit(top, tail);
    }
    if (misuse && !top->setop_misuse) {
        top->setop_misuse = misuse;
    }
    plan_qexpr q;
    memset(&q, 0, sizeof q);
    q.st = top;
    return q;
}

/* q's query fields move into st, which keeps its WITH list, DML target and statement-level
 * fields. */
static void
adopt(plan_stmt *st, plan_qexpr q)
{
    plan_stmt *b = q.st;
    if (b->nctes > 0) {
        /* (WITH ... query): its CTEs stay in its own scope, the statement wraps it */
        st->setop = PLAN_SETOP_PAREN;
        st->setop_left = b;
        b->parent = st;
        return;
    }
    st->items = b->items;
    st->nitems = b->nitems;
    st->cap_items = b->cap_items;
    st->tables = b->tables;
    st->ntables = b->ntables;
    st->cap_tables = b->cap_tables;
    st->comma_at = b->comma_at;
    st->where = b->where;
    st->group = b->group;
    st->gkind = b->gkind;
    st->gsets = b->gsets;
    st->ngsets = b->ngsets;
    st->cap_gsets = b->cap_gsets;
    st->having = b->having;
    st->distinct = b->distinct;
    move_order_limit(st, b);
    st->setop = b->setop;
    st->setop_all = b->setop_all;
    st->setop_misuse = b->setop_misuse;
    st->setop_left = b->setop_left;
    st->setop_right = b->setop_right;
    if (st->setop_left) {
        st->setop_left->parent = st;
    }
    if (st->setop_right) {
        st->setop_right->parent = st;
    }
    /* b stays the parent of the statements nested in its clauses: an empty link to st */
    memset(b, 0, sizeof *b);
    b->kind = PS_SELECT;
    b->isolation = PLAN_ISO_NONE;
    b->parent = st;
}

void
plan_query_adopt(plan_parse *pp, plan_qexpr q)
{
    adopt(pp->stmt, q);
}

plan_qexpr
plan_query_with(plan_parse *pp, plan_qexpr q)
{
    plan_stmt *w = stmt_pop(pp);
    adopt(w, q);
    plan_qexpr r;
    memset(&r, 0, sizeof r);
    r.st = w;
    return r;
}
