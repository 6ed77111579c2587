/* SPDX-License-Identifier: Apache-2.0
 * plan_agg_doris.c: planning of the Doris statistics aggregates whose arguments need more
 * than agg_of's checks (plan_select.c): NDV / APPROX_COUNT_DISTINCT (exact: COUNT(DISTINCT)),
 * PERCENTILE / PERCENTILE_APPROX / MEDIAN (exact, a constant level), MAX_BY / MIN_BY and
 * AVG_WEIGHTED; and the percentile interpolation their final step uses. The group states and
 * fold loops are plan_agg.c's. See README.md §Executor (aggregate). */
#include "planner/plan_exec_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool ast_is_constant(const plan_ast *x);
static int pct_level(plan_ectx *cx, const plan_ast *call, const plan_ast *px, const char *lname,
                     double *out, db_error *err);
static int cmp_double(const void *a, const void *b);

static const char *const doris_names[] = {
        "ndv",    "approx_count_distinct", "percentile", "percentile_approx", "median", "max_by",
        "min_by", "avg_weighted"};

bool
plan__agg_doris_named(const char *lname)
{
    for (size_t i = 0; i < sizeof doris_names / sizeof doris_names[0]; i++) {
        if (strcmp(lname, doris_names[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* No column, subquery, window or aggregate anywhere in x: Doris's "constant" (it folds such
 * an expression before execution). */
static bool
ast_is_constant(const plan_ast *x)
{
    if (!x) {
        return true;
    }
    if (x->kind == PA_COLUMN || x->kind == PA_SUBQUERY || x->kind == PA_WINDOW ||
        x->kind == PA_STAR) {
        return false;
    }
    if (x->kind == PA_FUNC && x->has_parens) {
        char name[64];
        size_t n = strlen(x->name);
        if (n < sizeof name) {
            for (size_t i = 0; i <= n; i++) {
                name[i] = (char)(x->name[i] >= 'A' && x->name[i] <= 'Z' ? x->name[i] + 32
                                                                        : x->name[i]);
            }
            if (plan__agg_doris_named(name) || plan__agg_doris_kind(name, NULL)) {
                return false;
            }
        }
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (!ast_is_constant(x->args[i])) {
            return false;
        }
    }
    return true;
}

/* The level argument px of the percentile call `call`, evaluated once: a constant (else
 * ER_DORIS as Doris's analyser words it), NAN for NULL (every row is then skipped, as a NULL
 * argument skips a row, and the result is NULL). Not evaluated while describing. */
static int
pct_level(plan_ectx *cx, const plan_ast *call, const plan_ast *px, const char *lname, double *out,
          db_error *err)
{
    if (!ast_is_constant(px)) {
        size_t len = call->end > call->off ? call->end - call->off : 0;
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a,
                                          "%s requires second parameter must be a constant : %.*s",
                                          lname, (int)len, cx->sql + call->off));
    }
    plan_expr *e;
    if (plan__analyze(cx, px, NULL, 0, "field list", &e, err) != DB_OK) {
        return DB_ERR;
    }
    *out = 0.5;
    if (cx->describe) {
        return DB_OK;
    }
    plan_value v;
    if (plan__eval(cx, e, &v, err) != DB_OK) {
        return DB_ERR;
    }
    *out = v.kind == PV_NULL ? NAN : plan__v_to_double(&v, NULL);
    return DB_OK;
}

int
plan__agg_doris_plan(plan_ectx *cx, const plan_ast *x, const char *lname,
                     const plan_bind_col *binds, uint32_t nb, plan_agg *ag, db_error *err)
{
    bool is_pct = strncmp(lname, "percentile", 10) == 0 || strcmp(lname, "median") == 0;
    uint32_t nvals; /* leading arguments folded per row (the rest are constants) */
    uint32_t min_args, max_args;
    if (strcmp(lname, "median") == 0 || strcmp(lname, "ndv") == 0 ||
        strcmp(lname, "approx_count_distinct") == 0) {
        min_args = max_args = nvals = 1;
    } else if (strcmp(lname, "percentile") == 0) {
        min_args = max_args = 2;
        nvals = 1;
    } else if (strcmp(lname, "percentile_approx") == 0) {
        min_args = 2;
        max_args = 3;
        nvals = 1;
    } else { /* max_by, min_by, avg_weighted */
        min_args = max_args = nvals = 2;
    }
    if (x->nargs < min_args || x->nargs > max_args) {
        return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, x->name);
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (x->args[i]->kind == PA_STAR) {
            return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, x->name);
        }
    }
    memset(ag, 0, sizeof *ag);
    ag->distinct = x->agg_distinct;
    plan_expr **args = arena_calloc(cx->a, nvals, sizeof *args);
    for (uint32_t i = 0; i < nvals; i++) {
        if (plan__analyze(cx, x->args[i], binds, nb, "field list", &args[i], err) != DB_OK) {
            return DB_ERR;
        }
    }
    ag->args = args;
    ag->nargs = nvals;
    ag->arg = args[0];
    if (is_pct) {
        ag->kind = PLAN_AGG_PERCENTILE;
        ag->pct = 0.5; /* MEDIAN */
        if (x->nargs >= 2 && pct_level(cx, x, x->args[1], lname, &ag->pct, err) != DB_OK) {
            return DB_ERR;
        }
        /* PERCENTILE_APPROX's compression only tunes Doris's t-digest; the result here is
         * exact, so it is checked to be a constant and otherwise ignored. */
        double compression;
        if (x->nargs == 3 && pct_level(cx, x, x->args[2], lname, &compression, err) != DB_OK) {
            return DB_ERR;
        }
        plan__type_double(&ag->t, true);
        ag->vk = PV_DOUBLE;
    } else if (lname[0] == 'n' || (lname[0] == 'a' && lname[1] == 'p')) {
        /* NDV / APPROX_COUNT_DISTINCT: the exact distinct count (README §Executor). */
        ag->kind = PLAN_AGG_COUNT;
        ag->distinct = true;
        plan__type_bigint(&ag->t, 21, false);
        ag->vk = PV_INT;
    } else if (lname[0] == 'a') {
        ag->kind = PLAN_AGG_AVG_WEIGHTED;
        plan__type_double(&ag->t, true);
        ag->vk = PV_DOUBLE;
    } else {
        ag->kind = lname[1] == 'a' ? PLAN_AGG_MAX_BY : PLAN_AGG_MIN_BY;
        ag->t = args[0]->t;
        ag->t.nullable = true;
        ag->vk = args[0]->vk;
    }
    return DB_OK;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double
plan__agg_percentile(double *v, uint64_t n, double p)
{
    DB_ASSERT(n > 0);
    qsort(v, n, sizeof *v, cmp_double);
    double pos = (double)(n - 1) * p;
    double lo = floor(pos), hi = ceil(pos);
    uint64_t l = (uint64_t)lo, h = (uint64_t)hi;
    if (h >= n) {
        h = n - 1;
    }
    if (l == h || v[l] == v[h]) {
        return v[l];
    }
    return (hi - pos) * v[l] + (pos - lo) * v[h];
}
