/* SPDX-License-Identifier: Apache-2.0
 * Window frames with value offsets (plan_window.c: the moving RANGE bound pointers, NULL keys,
 * DESC, the sliding aggregate with its MIN / MAX deque and its STDDEV / VARIANCE / BIT_* queue)
 * checked against a brute-force reading of MySQL 8's frame membership
 * (Window::before_or_after_frame) over pseudo-random rows, ROWS frames (refining a named window)
 * against position arithmetic, and the frame errors 3584-3590 / 3596. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_testutil.h"

#define NROWS 48
#define NOKEY (-1000) /* a NULL key or value */

typedef struct row {
    int g, k, v; /* partition, ORDER BY key, aggregated value; NOKEY = NULL */
} row;

enum { B_UP, B_PREC, B_CUR, B_FOLL, B_UF };
static const char *const bname[] = {"UNBOUNDED PRECEDING", "PRECEDING", "CURRENT ROW", "FOLLOWING",
                                    "UNBOUNDED FOLLOWING"};

static uint32_t seed = 12345;
static int
rnd(int n)
{
    seed = seed * 1103515245u + 12345u;
    return (int)((seed >> 16) % (uint32_t)n);
}

/* The bound value of kind b (offset n) at key ki, asc or desc (MySQL's build_addop). */
static int
bound_val(int b, int n, int ki, bool asc)
{
    if (b == B_CUR) {
        return ki;
    }
    return (b == B_PREC) == asc ? ki - n : ki + n;
}

/* MySQL's before_or_after_frame for candidate kj against current ki (one ORDER BY key). */
static bool
outside(bool before, int b, int n, int ki, int kj, bool asc)
{
    if (b == (before ? B_UP : B_UF)) {
        return false;
    }
    bool nulls_at_infinity = before ? asc : !asc;
    if (ki == NOKEY) {
        return kj == NOKEY ? false : !nulls_at_infinity;
    }
    if (kj == NOKEY) {
        return nulls_at_infinity;
    }
    int bv = bound_val(b, n, ki, asc);
    int c = kj < bv ? -1 : kj > bv;
    if (!asc) {
        c = -c;
    }
    return before ? c < 0 : c > 0;
}

static void
fmt_int(char *buf, size_t len, bool null, long long x)
{
    if (null) {
        snprintf(buf, len, "NULL");

    } else {
        snprintf(buf, len, "%lld", x);
    }
}

/* The statistics of the values in a frame, folded by brute force. */
typedef struct fstat {
    long long n;
    long double sum, sq; /* exact for these small integers */
    uint64_t band, bor, bxor;
} fstat;

static void
fstat_add(fstat *f, int v)
{
    if (f->n++ == 0) {
        f->band = UINT64_MAX;
    }
    f->sum += v;
    f->sq += (long double)v * v;
    f->band &= (uint64_t)(int64_t)v;
    f->bor |= (uint64_t)(int64_t)v;
    f->bxor ^= (uint64_t)(int64_t)v;
}

/* Expect cells c.. of row i to be BIT_AND, BIT_OR, BIT_XOR, VAR_POP, STDDEV_SAMP of f. */
static void
fstat_expect(tx *t, size_t i, size_t c, const fstat *f, const char *what)
{
    char w[24];
    snprintf(w, sizeof w, "%llu", (unsigned long long)(f->n ? f->band : UINT64_MAX));
    cr_expect_str_eq(tx_cell(t, i, c), w, "%s: row %zu BIT_AND", what, i);
    snprintf(w, sizeof w, "%llu", (unsigned long long)f->bor);
    cr_expect_str_eq(tx_cell(t, i, c + 1), w, "%s: row %zu BIT_OR", what, i);
    snprintf(w, sizeof w, "%llu", (unsigned long long)f->bxor);
    cr_expect_str_eq(tx_cell(t, i, c + 2), w, "%s: row %zu BIT_XOR", what, i);
    for (size_t k = 0; k < 2; k++) {
        const char *got = tx_cell(t, i, c + 3 + k);
        long long den = k == 0 ? f->n : f->n - 1;
        if (den <= 0) {
            cr_expect_str_eq(got, "NULL", "%s: row %zu column %zu", what, i, c + 3 + k);
            continue;
        }
        long double var = (f->sq - f->sum * f->sum / f->n) / den;
        double want = k == 0 ? (double)var : sqrt((double)var);
        double g = strtod(got, NULL);
        cr_expect(fabs(g - want) <= 1e-9 * (1 + fabs(want)),
                  "%s: row %zu column %zu: %s, want %.17g", what, i, c + 3 + k, got, want);
    }
}

/* The derived table of rows r[0..n): SELECT id, g, k, v UNION ALL ... */
static char *
table_sql(const row *r, size_t n)
{
    size_t cap = 128 * n + 64, len = 0;
    char *s = malloc(cap);
    len += (size_t)snprintf(s + len, cap - len, "(");
    for (size_t i = 0; i < n; i++) {
        /* NULLs typed: a derived column whose first rows are bare NULLs is not an integer */
        char k[32], v[32];
        snprintf(k, sizeof k, r[i].k == NOKEY ? "CAST(NULL AS SIGNED)" : "%d", r[i].k);
        snprintf(v, sizeof v, r[i].v == NOKEY ? "CAST(NULL AS SIGNED)" : "%d", r[i].v);
        len += (size_t)snprintf(s + len, cap - len, "%sSELECT %zu AS id, %d AS g, %s AS k, %s AS v",
                                i ? " UNION ALL " : "", i, r[i].g, k, v);
    }
    snprintf(s + len, cap - len, ") x");
    return s;
}

static void
bound_sql(char *buf, size_t len, int b, int n)
{
    if (b == B_PREC || b == B_FOLL) {
        snprintf(buf, len, "%d %s", n, bname[b]);
    } else {
        snprintf(buf, len, "%s", bname[b]);
    }
}

static void
check_frame(tx *t, const row *r, const char *tab, int sb, int sn, int eb, int en, bool asc,
            const char *hint)
{
    char s[64], e[64], sql[16384];
    bound_sql(s, sizeof s, sb, sn);
    bound_sql(e, sizeof e, eb, en);
    const char *dir = asc ? "" : " DESC";
    snprintf(sql, sizeof sql,
             "SELECT %s id, SUM(v) OVER w, COUNT(*) OVER w, MIN(v) OVER w, MAX(v) OVER w, "
             "COUNT(v) OVER w, BIT_AND(v) OVER w, BIT_OR(v) OVER w, BIT_XOR(v) OVER w, "
             "VAR_POP(v) OVER w, STDDEV_SAMP(v) OVER w FROM %s WINDOW w AS (PARTITION BY g "
             "ORDER BY k%s RANGE BETWEEN %s AND %s) ORDER BY id",
             hint, tab, dir, s, e);
    cr_assert_eq(tx_exec(t, sql), DB_OK, "%s: %d %s", sql, t->err.code, t->err.msg);
    cr_assert_eq(t->nrows, NROWS);
    for (size_t i = 0; i < NROWS; i++) {
        long long sum = 0, cnt = 0, cntv = 0, mn = 0, mx = 0;
        fstat fs = {0};
        for (size_t j = 0; j < NROWS; j++) {
            if (r[j].g != r[i].g || outside(true, sb, sn, r[i].k, r[j].k, asc) ||
                outside(false, eb, en, r[i].k, r[j].k, asc)) {
                continue;
            }
            cnt++;
            if (r[j].v != NOKEY) {
                fstat_add(&fs, r[j].v);
                mn = cntv == 0 || r[j].v < mn ? r[j].v : mn;
                mx = cntv == 0 || r[j].v > mx ? r[j].v : mx;
                sum += r[j].v;
                cntv++;
            }
        }
        char want[5][24];
        fmt_int(want[0], sizeof want[0], cntv == 0, sum);
        fmt_int(want[1], sizeof want[1], false, cnt);
        fmt_int(want[2], sizeof want[2], cntv == 0, mn);
        fmt_int(want[3], sizeof want[3], cntv == 0, mx);
        fmt_int(want[4], sizeof want[4], false, cntv);
        for (size_t c = 0; c < 5; c++) {
            cr_expect_str_eq(tx_cell(t, i, c + 1), want[c], "%s: row %zu (k %d) column %zu", sql, i,
                             r[i].k, c + 1);
        }
        fstat_expect(t, i, 6, &fs, sql);
    }
}

Test(plan_window, range_frames_match_brute_force)
{
    row r[NROWS];
    for (size_t i = 0; i < NROWS; i++) {
        r[i].g = rnd(3);
        r[i].k = rnd(6) == 0 ? NOKEY : rnd(12);
        r[i].v = rnd(5) == 0 ? NOKEY : rnd(200) - 50;
    }
    char *tab = table_sql(r, NROWS);
    tx *t = tx_new();
    for (int sb = B_UP; sb <= B_FOLL; sb++) {
        for (int eb = B_PREC; eb <= B_UF; eb++) {
            if ((sb == B_CUR && eb == B_PREC) || (sb == B_FOLL && eb != B_FOLL && eb != B_UF)) {
                continue; /* 3586 */
            }
            for (int dir = 0; dir < 2; dir++) {
                for (int round = 0; round < 2; round++) {
                    int sn = rnd(4), en = rnd(4);
                    check_frame(t, r, tab, sb, sn, eb, en, dir == 0,
                                round ? "/*+ SET_VAR(batch_size=1) */" : "");
                }
            }
        }
    }
    tx_free(t);
    free(tab);
}

/* ROWS frames slide MIN / MAX and the STDDEV / VARIANCE / BIT_* queue over positions, in an
 * inline window refining a named one; compare with a direct scan. */
Test(plan_window, rows_frames_min_max_slide)
{
    row r[NROWS];
    for (size_t i = 0; i < NROWS; i++) {
        r[i].g = 0;
        r[i].k = (int)i;
        r[i].v = rnd(4) == 0 ? NOKEY : rnd(50);
    }
    char *tab = table_sql(r, NROWS);
    tx *t = tx_new();
    static const int fr[][2] = {{-3, 0}, {-2, 2}, {1, 4}, {-5, -2}, {0, 6}, {-1, -1}};
    for (size_t f = 0; f < sizeof fr / sizeof fr[0]; f++) {
        char sql[16384], s[48], e[48];
        int a = fr[f][0], b = fr[f][1];
        snprintf(s, sizeof s, a < 0 ? "%d PRECEDING" : "%d FOLLOWING", abs(a));
        snprintf(e, sizeof e, b < 0 ? "%d PRECEDING" : "%d FOLLOWING", abs(b));
        snprintf(sql, sizeof sql,
                 "SELECT id, MIN(v) OVER w, MAX(v) OVER w, SUM(v) OVER w, BIT_AND(v) OVER w, "
                 "BIT_OR(v) OVER w, BIT_XOR(v) OVER w, VAR_POP(v) OVER w, STDDEV_SAMP(v) OVER "
                 "(w0 ROWS BETWEEN %s AND %s) FROM %s WINDOW w0 AS (ORDER BY id), w AS (w0 ROWS "
                 "BETWEEN %s AND %s) ORDER BY id",
                 s, e, tab, s, e);
        cr_assert_eq(tx_exec(t, sql), DB_OK, "%s: %d %s", sql, t->err.code, t->err.msg);
        for (int i = 0; i < NROWS; i++) {
            long long mn = 0, mx = 0, sum = 0, n = 0;
            fstat fs = {0};
            for (int j = i + a; j <= i + b; j++) {
                if (j < 0 || j >= NROWS || r[j].v == NOKEY) {
                    continue;
                }
                fstat_add(&fs, r[j].v);
                mn = n == 0 || r[j].v < mn ? r[j].v : mn;
                mx = n == 0 || r[j].v > mx ? r[j].v : mx;
                sum += r[j].v;
                n++;
            }
            char w[3][24];
            fmt_int(w[0], sizeof w[0], n == 0, mn);
            fmt_int(w[1], sizeof w[1], n == 0, mx);
            fmt_int(w[2], sizeof w[2], n == 0, sum);
            for (size_t c = 0; c < 3; c++) {
                cr_expect_str_eq(tx_cell(t, (size_t)i, c + 1), w[c],
                                 "ROWS %s AND %s: row %d col %zu: %s", s, e, i, c + 1,
                                 tx_cell(t, (size_t)i, c + 1));
            }
            fstat_expect(t, (size_t)i, 4, &fs, sql);
        }
    }
    tx_free(t);
    free(tab);
}

Test(plan_window, frame_errors)
{
    static const struct {
        const char *frame;
        int code;
    } cases[] = {
            {"ORDER BY k ROWS BETWEEN UNBOUNDED FOLLOWING AND UNBOUNDED FOLLOWING", 3584},
            {"ORDER BY k RANGE BETWEEN CURRENT ROW AND UNBOUNDED PRECEDING", 3585},
            {"ORDER BY k ROWS BETWEEN CURRENT ROW AND 1 PRECEDING", 3586},
            {"ORDER BY k ROWS BETWEEN 2 FOLLOWING AND 1 PRECEDING", 3586},
            {"ORDER BY k ROWS 0.5 PRECEDING", 3586},
            {"RANGE 1 PRECEDING", 3587},
            {"ORDER BY k, k RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING", 3587},
            {"ORDER BY 'x' RANGE 1 PRECEDING", 3587},
            {"ORDER BY CURRENT_DATE() RANGE 1 PRECEDING", 3588},
            {"ORDER BY k RANGE INTERVAL 1 DAY PRECEDING", 3589},
            {"ORDER BY CURRENT_DATE() RANGE INTERVAL k DAY PRECEDING", 3590},
            {"ORDER BY k ROWS INTERVAL 1 DAY PRECEDING", 3596},
            {"ORDER BY k ROWS 1 FOLLOWING", 1064},
    };
    tx *t = tx_new();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char sql[256];
        snprintf(sql, sizeof sql, "SELECT COUNT(*) OVER (%s) FROM (SELECT 1 AS k) x",
                 cases[i].frame);
        cr_expect_eq(tx_err(t, sql), cases[i].code, "%s: %d %s", sql, t->err.code, t->err.msg);
    }
    /* Legal: an empty frame, RANGE without offsets over several keys, a zero INTERVAL. */
    cr_expect_str_eq(tx_one(t, "SELECT COUNT(*) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND 2 "
                               "PRECEDING) FROM (SELECT 1 AS k) x"),
                     "0");
    cr_expect_str_eq(tx_one(t, "SELECT COUNT(*) OVER (ORDER BY k, k RANGE CURRENT ROW) FROM "
                               "(SELECT 1 AS k) x"),
                     "1");
    cr_expect_str_eq(tx_one(t, "SELECT COUNT(*) OVER (ORDER BY CURRENT_DATE() RANGE INTERVAL 0 "
                               "DAY PRECEDING) FROM (SELECT 1 AS k) x"),
                     "1");
    tx_free(t);
}
