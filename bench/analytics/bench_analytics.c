/* bench_analytics: analytic queries through the MySQL protocol, Rivulet against MariaDB (InnoDB).
 * Figures and ratios only; never fails on timing. Started by bench/analytics/run.sh, which
 * starts both servers and passes their ports.
 *
 *   bench_analytics --rows N --rv-port P [--my-port P] [--runs R] [--batch B]
 *
 * Tables (database `bench`):
 *   f   (id BIGINT, dim_id INT 1..10000, g INT 1..1000, amount DECIMAL(12,2), qty INT 1..20,
 *        d DATE 2024-01-01..2024-12-31, s VARCHAR(16) 16 values), ids 1..N, other values from a
 *        hash of id; Rivulet DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 8, InnoDB
 *        PRIMARY KEY(id);
 *   dim (dim_id INT 1..10000, name VARCHAR(32), region VARCHAR(16) 8 values).
 * Loaded with B-row multi-row INSERTs (default 10,000). Each query runs R times per server
 * (wall time of send + full result fetch); best and median are printed, the results of the two
 * servers are compared (numbers with a small relative tolerance, rows order-insensitive except
 * for ORDER BY ... LIMIT, where rows tied on the sort key may differ in id). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <inttypes.h>
#include <math.h>
#include <mysql.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NDIM    10000
#define NGROUP  1000
#define NREGION 8
#define NS      16
#define MAXRUNS 15

typedef struct {
    const char *name;
    int port;
    MYSQL *m;
} server;

/* A result: rows x cols strings. */
typedef struct {
    int nrows, ncols;
    char **cell; /* nrows * ncols, NULL for SQL NULL */
} result;

typedef struct {
    const char *label;
    const char *sql;
    bool ordered;   /* ORDER BY ... LIMIT: compare in order; col 0 may differ on ties of col 1 */
    int extra_rows; /* rows scanned beyond the fact table (join: the dimension) */
} query;

static const query g_queries[] = {
        {"filtered SUM", "SELECT SUM(amount) FROM f WHERE d >= '2024-03-01' AND qty > 5", false, 0},
        {"GROUP BY 1k groups", "SELECT g, COUNT(*), SUM(amount), AVG(qty) FROM f GROUP BY g", false,
         0},
        {"COUNT(DISTINCT)", "SELECT COUNT(DISTINCT dim_id) FROM f", false, 0},
        {"join + GROUP BY",
         "SELECT region, SUM(amount) FROM f JOIN dim ON f.dim_id = dim.dim_id GROUP BY region",
         false, NDIM},
        {"ORDER BY LIMIT 10", "SELECT id, amount FROM f ORDER BY amount DESC LIMIT 10", true, 0},
};
#define NQ ((int)(sizeof g_queries / sizeof g_queries[0]))

static uint64_t g_rows = 10000000;
static int g_batch = 10000;
static int g_runs = 3;
static char g_date[366][24];

static double
now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t
mix(uint64_t z)
{ /* splitmix64 finaliser */
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void
init_dates(void)
{
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}; /* 2024 */
    int i = 0;
    for (int m = 0; m < 12; m++)
        for (int d = 1; d <= mdays[m]; d++)
            snprintf(g_date[i++], sizeof g_date[0], "2024-%02d-%02d", m + 1, d);
}

static char *
put_u64(char *p, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* "(id,dim_id,g,amount,qty,'d','s')" */
static char *
put_fact(char *p, uint64_t id)
{
    uint64_t h = mix(id), h2 = mix(h);
    *p++ = '(';
    p = put_u64(p, id);
    *p++ = ',';
    p = put_u64(p, 1 + h % NDIM);
    *p++ = ',';
    p = put_u64(p, 1 + (h >> 16) % NGROUP);
    *p++ = ',';
    uint64_t cents = h2 % 100000000; /* 0.00 .. 999999.99 */
    p = put_u64(p, cents / 100);
    *p++ = '.';
    *p++ = (char)('0' + cents / 10 % 10);
    *p++ = (char)('0' + cents % 10);
    *p++ = ',';
    p = put_u64(p, 1 + (h >> 40) % 20);
    *p++ = ',';
    *p++ = '\'';
    memcpy(p, g_date[(h2 >> 32) % 366], 10);
    p += 10;
    *p++ = '\'';
    *p++ = ',';
    p += sprintf(p, "'s_%02u'", (unsigned)((h2 >> 48) % NS));
    *p++ = ')';
    return p;
}

static bool
exec(const server *sv, const char *sql)
{
    if (mysql_real_query(sv->m, sql, strlen(sql)) != 0) {
        fprintf(stderr, "%s: error %u (%s) on: %.200s\n", sv->name, mysql_errno(sv->m),
                mysql_error(sv->m), sql);
        return false;
    }
    MYSQL_RES *r = mysql_store_result(sv->m);
    if (r)
        mysql_free_result(r);
    return true;
}

static bool
connect_to(server *sv)
{
    sv->m = mysql_init(NULL);
    unsigned int timeout = 7200;
    mysql_optionsv(sv->m, MYSQL_OPT_READ_TIMEOUT, &timeout);
    mysql_optionsv(sv->m, MYSQL_OPT_WRITE_TIMEOUT, &timeout);
    if (!mysql_real_connect(sv->m, "127.0.0.1", "root", "", NULL, (unsigned)sv->port, NULL, 0)) {
        fprintf(stderr, "%s: connect: %s\n", sv->name, mysql_error(sv->m));
        return false;
    }
    return true;
}

/* Loads f and dim; returns the seconds spent in the fact INSERTs (or -1). */
static double
load(const server *sv, char *buf)
{
    double t = 0;
    for (uint64_t next = 1; next <= g_rows;) {
        char *p = buf + sprintf(buf, "INSERT INTO f VALUES ");
        for (int i = 0; i < g_batch && next <= g_rows; i++, next++) {
            if (i)
                *p++ = ',';
            p = put_fact(p, next);
        }
        double t0 = now_s();
        if (mysql_real_query(sv->m, buf, (unsigned long)(p - buf)) != 0) {
            fprintf(stderr, "%s: load error %u (%s) at row %" PRIu64 "\n", sv->name,
                    mysql_errno(sv->m), mysql_error(sv->m), next);
            return -1;
        }
        t += now_s() - t0;
    }
    char *p = buf + sprintf(buf, "INSERT INTO dim VALUES ");
    for (int k = 1; k <= NDIM; k++)
        p += sprintf(p, "%s(%d,'name_%05d','region_%d')", k > 1 ? "," : "", k,
                     (int)(mix((uint64_t)k * 7919) % 100000), (k * 37) % NREGION);
    if (mysql_real_query(sv->m, buf, (unsigned long)(p - buf)) != 0) {
        fprintf(stderr, "%s: dim load error %u (%s)\n", sv->name, mysql_errno(sv->m),
                mysql_error(sv->m));
        return -1;
    }
    return t;
}

static void
result_free(result *r)
{
    for (int i = 0; i < r->nrows * r->ncols; i++)
        free(r->cell[i]);
    free(r->cell);
    *r = (result){0};
}

/* Runs sql, fetches the whole result; returns seconds or -1. Keeps the result in *out if given. */
static double
run_query(const server *sv, const char *sql, result *out)
{
    double t0 = now_s();
    if (mysql_real_query(sv->m, sql, strlen(sql)) != 0) {
        fprintf(stderr, "%s: error %u (%s) on: %s\n", sv->name, mysql_errno(sv->m),
                mysql_error(sv->m), sql);
        return -1;
    }
    MYSQL_RES *r = mysql_store_result(sv->m);
    double t = now_s() - t0;
    if (!r) {
        fprintf(stderr, "%s: no result set (error %u: %s) for: %s\n", sv->name, mysql_errno(sv->m),
                mysql_error(sv->m), sql);
        return -1;
    }
    if (out) {
        result_free(out);
        out->nrows = (int)mysql_num_rows(r);
        out->ncols = (int)mysql_num_fields(r);
        out->cell = calloc((size_t)out->nrows * (size_t)out->ncols + 1, sizeof(char *));
        MYSQL_ROW row;
        for (int i = 0; (row = mysql_fetch_row(r)); i++)
            for (int c = 0; c < out->ncols; c++)
                out->cell[i * out->ncols + c] = row[c] ? strdup(row[c]) : NULL;
    }
    mysql_free_result(r);
    return t;
}

static int
cmp_cell(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    char *ea, *eb;
    double x = strtod(a, &ea), y = strtod(b, &eb);
    if (*a && *b && !*ea && !*eb) {
        double tol = 1e-6 * fmax(1.0, fmax(fabs(x), fabs(y)));
        if (fabs(x - y) <= tol)
            return 0;
        return x < y ? -1 : 1;
    }
    return strcmp(a, b);
}

static int g_sort_cols;
static int
cmp_row(char **a, char **b)
{
    for (int c = 0; c < g_sort_cols; c++) {
        int r = cmp_cell(a[c], b[c]);
        if (r)
            return r;
    }
    return 0;
}

/* Row-major cells of an n x c result as an array of row pointers sorted by all columns. */
static char ***
sorted_rows(const result *r)
{
    char ***rows = malloc(sizeof(char **) * (size_t)(r->nrows + 1));
    for (int i = 0; i < r->nrows; i++)
        rows[i] = &r->cell[i * r->ncols];
    g_sort_cols = r->ncols;
    for (int i = 1; i < r->nrows; i++) /* insertion sort: results are small (<= 1,000 rows) */
        for (int j = i; j > 0 && cmp_row(rows[j - 1], rows[j]) > 0; j--) {
            char **t = rows[j];
            rows[j] = rows[j - 1];
            rows[j - 1] = t;
        }
    return rows;
}

static void
show_row(char **row, int ncols, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    for (int c = 0; c < ncols && n < cap; c++)
        n += (size_t)snprintf(out + n, cap - n, "%s%s", c ? ", " : "", row[c] ? row[c] : "NULL");
}

/* Compares two results; prints the first differences. Returns the number of differing rows. */
static int
compare(const query *q, const result *rv, const result *my)
{
    if (rv->ncols != my->ncols || rv->nrows != my->nrows) {
        printf("   MISMATCH %s: Rivulet %d rows x %d cols, MariaDB %d rows x %d cols\n", q->label,
               rv->nrows, rv->ncols, my->nrows, my->ncols);
        return 1 + abs(rv->nrows - my->nrows);
    }
    char ***a, ***b;
    if (q->ordered) {
        a = malloc(sizeof(char **) * (size_t)(rv->nrows + 1));
        b = malloc(sizeof(char **) * (size_t)(my->nrows + 1));
        for (int i = 0; i < rv->nrows; i++) {
            a[i] = &rv->cell[i * rv->ncols];
            b[i] = &my->cell[i * my->ncols];
        }
    } else {
        a = sorted_rows(rv);
        b = sorted_rows(my);
    }
    const char *last_key = rv->nrows ? a[rv->nrows - 1][rv->ncols - 1] : NULL;
    int bad = 0;
    for (int i = 0; i < rv->nrows; i++) {
        bool same = true;
        for (int c = 0; c < rv->ncols; c++) {
            if (cmp_cell(a[i][c], b[i][c]) == 0)
                continue;
            /* ORDER BY amount DESC LIMIT: ids of rows tied with the last amount may differ */
            if (q->ordered && c == 0 && cmp_cell(a[i][1], last_key) == 0)
                continue;
            same = false;
        }
        if (!same && bad++ < 3) {
            char x[256], y[256];
            show_row(a[i], rv->ncols, x, sizeof x);
            show_row(b[i], my->ncols, y, sizeof y);
            printf("   MISMATCH %s row %d: Rivulet (%s) MariaDB (%s)\n", q->label, i, x, y);
        }
    }
    free(a);
    free(b);
    return bad;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void
human(double v, char *out, size_t cap)
{
    if (v >= 1e9)
        snprintf(out, cap, "%.2fG", v / 1e9);
    else if (v >= 1e6)
        snprintf(out, cap, "%.1fM", v / 1e6);
    else if (v >= 1e3)
        snprintf(out, cap, "%.0fk", v / 1e3);
    else
        snprintf(out, cap, "%.0f", v);
}

int
main(int argc, char **argv)
{
    server rv = {.name = "rivulet"}, my = {.name = "mariadb"};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--rows"))
            g_rows = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--rv-port"))
            rv.port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--my-port"))
            my.port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--runs"))
            g_runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--batch"))
            g_batch = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "bench_analytics: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (g_runs < 1)
        g_runs = 1;
    if (g_runs > MAXRUNS)
        g_runs = MAXRUNS;
    if (g_batch < NDIM)
        g_batch = NDIM; /* the buffer also holds the one dim INSERT */
    bool have_my = my.port != 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    init_dates();
    mysql_library_init(0, NULL, NULL);
    if (!connect_to(&rv) || (have_my && !connect_to(&my)))
        return 1;

    const char *fcols = "id BIGINT NOT NULL, dim_id INT, g INT, amount DECIMAL(12,2), qty INT, "
                        "d DATE, s VARCHAR(16)";
    const char *dcols = "dim_id INT NOT NULL, name VARCHAR(32), region VARCHAR(16)";
    char sql[1024];
    bool ok = exec(&rv, "CREATE DATABASE IF NOT EXISTS bench") && exec(&rv, "USE bench");
    snprintf(sql, sizeof sql,
             "CREATE TABLE f (%s) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 8", fcols);
    ok = ok && exec(&rv, sql);
    snprintf(sql, sizeof sql,
             "CREATE TABLE dim (%s) DUPLICATE KEY(dim_id) DISTRIBUTED BY HASH(dim_id) BUCKETS 1",
             dcols);
    ok = ok && exec(&rv, sql);
    if (have_my) {
        ok = ok && exec(&my, "CREATE DATABASE IF NOT EXISTS bench") && exec(&my, "USE bench");
        snprintf(sql, sizeof sql, "CREATE TABLE f (%s, PRIMARY KEY (id)) ENGINE=InnoDB", fcols);
        ok = ok && exec(&my, sql);
        snprintf(sql, sizeof sql, "CREATE TABLE dim (%s, PRIMARY KEY (dim_id)) ENGINE=InnoDB",
                 dcols);
        ok = ok && exec(&my, sql);
    }
    if (!ok)
        return 1;

    printf("bench_analytics: f %" PRIu64 " rows, dim %d rows, %d-row INSERTs, %d runs per query\n",
           g_rows, NDIM, g_batch, g_runs);
    char *buf = malloc((size_t)g_batch * 96 + 4096);
    server *svs[2] = {&rv, &my};
    for (int s = 0; s < (have_my ? 2 : 1); s++) {
        double t = load(svs[s], buf);
        if (t < 0)
            return 1;
        char h[32];
        human((double)g_rows / t, h, sizeof h);
        printf("load %-8s %8.2f s  %s rows/s\n", svs[s]->name, t, h);
    }
    if (have_my)
        exec(&my, "ANALYZE TABLE f, dim");

    printf("%-20s %12s %12s %12s %12s %9s %13s %13s\n", "query (best/median)", "Rivulet s", "",
           "MariaDB s", "", "My/Rv", "Rv rows/s/core", "My rows/s/core");
    int mismatches = 0, failures = 0;
    for (int qi = 0; qi < NQ; qi++) {
        const query *q = &g_queries[qi];
        double times[2][MAXRUNS];
        result res[2] = {{0}, {0}};
        bool failed[2] = {false, false};
        for (int s = 0; s < (have_my ? 2 : 1); s++)
            for (int r = 0; r < g_runs; r++) {
                times[s][r] = run_query(svs[s], q->sql, r == 0 ? &res[s] : NULL);
                if (times[s][r] < 0) {
                    failed[s] = true;
                    break;
                }
            }
        double best[2] = {0, 0}, med[2] = {0, 0};
        for (int s = 0; s < (have_my ? 2 : 1); s++) {
            if (failed[s])
                continue;
            qsort(times[s], (size_t)g_runs, sizeof(double), cmp_double);
            best[s] = times[s][0];
            med[s] = times[s][g_runs / 2];
        }
        double scanned = (double)g_rows + q->extra_rows;
        char rps[2][32] = {"-", "-"};
        for (int s = 0; s < 2; s++)
            if (best[s] > 0)
                human(scanned / best[s], rps[s], sizeof rps[s]); /* one core per statement */
        char ratio[32] = "-";
        if (best[0] > 0 && best[1] > 0)
            snprintf(ratio, sizeof ratio, "%.2fx", best[1] / best[0]);
        printf("%-20s %12.4f %12.4f %12.4f %12.4f %9s %13s %13s\n", q->label, best[0], med[0],
               best[1], med[1], ratio, rps[0], rps[1]);
        if (failed[0] || failed[1]) {
            printf("   FAILED on %s\n", failed[0] ? "Rivulet" : "MariaDB");
            failures++;
        }
        if (!failed[0] && res[0].nrows == 1) {
            char x[256];
            show_row(res[0].cell, res[0].ncols, x, sizeof x);
            printf("   result: %s\n", x);
        }
        if (have_my && !failed[0] && !failed[1]) {
            int bad = compare(q, &res[0], &res[1]);
            if (bad)
                mismatches++;
        }
        result_free(&res[0]);
        result_free(&res[1]);
    }
    printf("results: %s%s\n",
           !have_my     ? "not compared (no MariaDB)"
           : mismatches ? "MISMATCHES (see above)"
           : failures   ? "identical on the queries that ran on both"
                        : "identical on all queries",
           failures ? "; some queries FAILED (see above)" : "");
    printf("rows/s/core = rows scanned (f, + dim for the join) / best time; both servers run a "
           "statement on one thread. Target (issue 5): MariaDB/Rivulet >= 10x.\n");
    free(buf);
    mysql_close(rv.m);
    if (have_my)
        mysql_close(my.m);
    mysql_library_end();
    return 0;
}
