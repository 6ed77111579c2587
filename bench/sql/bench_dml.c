/* bench_dml: SQL-level load, upsert and point-lookup figures through the MySQL protocol, Rivulet
 * against MariaDB (InnoDB). Figures and ratios only; never fails on timing. Started by
 * bench/sql/run.sh, which starts both servers and passes their ports, pids and data paths.
 *
 *   bench_dml --rows N --rv-port P --rv-pid PID --rv-storage DIR
 *             [--my-port P --my-pid PID --my-datadir DIR] [--lookup-secs S] [--lookup-max Q]
 *             [--threads T] [--batch B]
 *
 * Table: k BIGINT key, a INT, d DOUBLE, s VARCHAR(20) ('city_0'..'city_99'), dt DATE.
 * 1. load N rows (keys 1..N in order) as B-row multi-row INSERTs into a Rivulet DUPLICATE KEY
 *    table, a Rivulet UNIQUE KEY merge-on-write table and a MariaDB InnoDB table;
 * 2. upsert N/10 random existing keys (fixed seed) into the MoW table and MariaDB
 *    (INSERT ... ON DUPLICATE KEY UPDATE);
 * 3. point lookups SELECT * FROM t WHERE k = <random existing key> from T threads. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <mysql.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define NCITY 100
#define NDATE 3650

typedef struct {
    const char *name;
    int port;
    long pid;
    const char *path; /* Rivulet: storage dir; MariaDB: datadir */
    bool mariadb;
} server;

typedef struct {
    double secs;             /* wall time inside mysql_real_query */
    uint64_t rows;           /* rows acknowledged */
    uint64_t bytes;          /* statement bytes sent */
    double first, last, max; /* seconds of the first, last and slowest statement */
    bool failed;
} phase_result;

static char g_city[NCITY][16];
static int g_city_len[NCITY];
static char g_date[NDATE][16];
static uint64_t g_rows = 10000000;
static int g_batch = 10000;
static double g_lookup_secs = 10.0;
static uint64_t g_lookup_max = 20000;
static int g_threads = 4;

static double
now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t
rng_next(uint64_t *s)
{ /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
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

static void
init_tables(void)
{
    for (int i = 0; i < NCITY; i++)
        g_city_len[i] = snprintf(g_city[i], sizeof g_city[i], "city_%d", i);
    /* days from 2015-01-01 (civil-from-days, H. Hinnant) */
    for (int i = 0; i < NDATE; i++) {
        long z = 16436 + i + 719468; /* 16436 = days 1970-01-01 .. 2015-01-01 */
        long era = z / 146097;
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long d = doy - (153 * mp + 2) / 5 + 1;
        long m = mp < 10 ? mp + 3 : mp - 9;
        if (m <= 2)
            y++;
        snprintf(g_date[i], sizeof g_date[i], "%04ld-%02ld-%02ld", y, m, d);
    }
}

/* One row "(k,a,d,'s','dt')" for key k; `salt` changes the non-key values (upserts). Adds the
 * raw value size (8+4+8+len(s)+4) to *raw. */
static char *
put_row(char *p, uint64_t k, uint64_t salt, uint64_t *raw)
{
    uint64_t h = k * 0x9e3779b97f4a7c15ULL + salt;
    unsigned a = (unsigned)((h >> 20) % 1000000);
    unsigned c = (unsigned)((k + salt) % NCITY);
    unsigned dt = (unsigned)((k * 7 + salt) % NDATE);
    *p++ = '(';
    p = put_u64(p, k);
    *p++ = ',';
    p = put_u64(p, a);
    *p++ = ',';
    p = put_u64(p, (h >> 40) % 100000);
    *p++ = '.';
    p = put_u64(p, 10 + (h >> 8) % 90); /* two decimals, no leading-zero issue */
    *p++ = ',';
    *p++ = '\'';
    memcpy(p, g_city[c], (size_t)g_city_len[c]);
    p += g_city_len[c];
    *p++ = '\'';
    *p++ = ',';
    *p++ = '\'';
    memcpy(p, g_date[dt], 10);
    p += 10;
    *p++ = '\'';
    *p++ = ')';
    *raw += 8 + 4 + 8 + (uint64_t)g_city_len[c] + 4;
    return p;
}

static MYSQL *
connect_to(const server *sv, const char *db)
{
    MYSQL *m = mysql_init(NULL);
    if (!m)
        return NULL;
    unsigned int timeout = 3600;
    mysql_optionsv(m, MYSQL_OPT_READ_TIMEOUT, &timeout);
    mysql_optionsv(m, MYSQL_OPT_WRITE_TIMEOUT, &timeout);
    if (!mysql_real_connect(m, "127.0.0.1", "root", "", db, (unsigned)sv->port, NULL, 0)) {
        fprintf(stderr, "%s: connect: %s\n", sv->name, mysql_error(m));
        mysql_close(m);
        return NULL;
    }
    return m;
}

static bool
exec(MYSQL *m, const server *sv, const char *sql)
{
    if (mysql_real_query(m, sql, strlen(sql)) != 0) {
        fprintf(stderr, "%s: error %u (%s) on: %.200s\n", sv->name, mysql_errno(m), mysql_error(m),
                sql);
        return false;
    }
    MYSQL_RES *r = mysql_store_result(m);
    if (r)
        mysql_free_result(r);
    return true;
}

/* Sends B-row INSERTs: keys 1..n in order (load) or n random keys in 1..range (upsert). */
static phase_result
run_inserts(MYSQL *m, const server *sv, const char *table, uint64_t n, uint64_t range, bool upsert,
            uint64_t *raw)
{
    phase_result res = {0};
    size_t cap = (size_t)g_batch * 96 + 1024;
    char *buf = malloc(cap);
    uint64_t seed = 42, salt = upsert ? 7777 : 0;
    const char *tail = (upsert && sv->mariadb)
                               ? " ON DUPLICATE KEY UPDATE a=VALUES(a),d=VALUES(d),s=VALUES(s),"
                                 "dt=VALUES(dt)"
                               : "";
    double last_report = now_s();
    for (uint64_t done = 0; done < n;) {
        uint64_t cnt = n - done < (uint64_t)g_batch ? n - done : (uint64_t)g_batch;
        char *p = buf + sprintf(buf, "INSERT INTO %s VALUES ", table);
        for (uint64_t i = 0; i < cnt; i++) {
            if (i)
                *p++ = ',';
            uint64_t k = upsert ? 1 + rng_next(&seed) % range : done + i + 1;
            p = put_row(p, k, salt, raw);
        }
        p = stpcpy(p, tail);
        double t0 = now_s();
        if (mysql_real_query(m, buf, (unsigned long)(p - buf)) != 0) {
            fprintf(stderr,
                    "%s: %s failed after %" PRIu64 " rows: error %u (%s); statement (%zu bytes) "
                    "starts: %.120s\n",
                    sv->name, table, done, mysql_errno(m), mysql_error(m), (size_t)(p - buf), buf);
            res.failed = true;
            break;
        }
        double st = now_s() - t0;
        if (done == 0)
            res.first = st;
        res.last = st;
        if (st > res.max)
            res.max = st;
        res.secs += st;
        res.bytes += (uint64_t)(p - buf);
        done += cnt;
        res.rows = done;
        if (now_s() - last_report > 30) {
            last_report = now_s();
            fprintf(stderr, "  .. %s %s: %" PRIu64 " rows, %.0f rows/s\n", sv->name, table, done,
                    (double)done / res.secs);
        }
    }
    free(buf);
    return res;
}

static void
print_stmt_times(const phase_result *r)
{
    printf("      statement ms: first %.1f, last %.1f, max %.1f, mean %.1f\n", r->first * 1e3,
           r->last * 1e3, r->max * 1e3,
           r->rows ? r->secs * 1e3 / (double)((r->rows + (uint64_t)g_batch - 1) / (uint64_t)g_batch)
                   : 0);
}

static uint64_t g_du;
static int
du_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)path;
    (void)ftw;
    if (flag == FTW_F)
        g_du += (uint64_t)st->st_size;
    return 0;
}

static uint64_t
du_bytes(const char *path)
{
    g_du = 0;
    if (nftw(path, du_cb, 64, FTW_PHYS) != 0)
        return 0;
    return g_du;
}

static uint64_t
file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static long
proc_kb(long pid, const char *field)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long v = -1;
    size_t fl = strlen(field);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, fl) == 0 && line[fl] == ':')
            v = strtol(line + fl + 1, NULL, 10);
    fclose(f);
    return v;
}

/* One-row aggregate as text, to compare the two servers' contents after the writes. */
static void
checksum(MYSQL *m, const server *sv, const char *table, char *out, size_t cap)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT COUNT(*), SUM(k), SUM(a), SUM(LENGTH(s)) FROM %s", table);
    snprintf(out, cap, "(error)");
    if (mysql_real_query(m, sql, strlen(sql)) != 0) {
        fprintf(stderr, "%s: error %u (%s) on: %s\n", sv->name, mysql_errno(m), mysql_error(m),
                sql);
        return;
    }
    MYSQL_RES *r = mysql_store_result(m);
    MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
    if (row)
        snprintf(out, cap, "%s/%s/%s/%s", row[0] ? row[0] : "NULL", row[1] ? row[1] : "NULL",
                 row[2] ? row[2] : "NULL", row[3] ? row[3] : "NULL");
    if (r)
        mysql_free_result(r);
}

/* ---- point lookups ---- */
typedef struct {
    const server *sv;
    const char *table;
    int id;
    atomic_uint_fast64_t *issued;
    double deadline;
    uint64_t done, wrong, errors;
    double lat_sum, lat_max;
} lookup_arg;

static void *
lookup_thread(void *p)
{
    lookup_arg *a = p;
    MYSQL *m = connect_to(a->sv, "bench");
    if (!m) {
        a->errors++;
        return NULL;
    }
    uint64_t seed = 1000 + (uint64_t)a->id;
    char sql[128];
    while (now_s() < a->deadline && atomic_fetch_add(a->issued, 1) < g_lookup_max) {
        uint64_t k = 1 + rng_next(&seed) % g_rows;
        int len = snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE k = %" PRIu64, a->table, k);
        double t0 = now_s();
        if (mysql_real_query(m, sql, (unsigned long)len) != 0) {
            fprintf(stderr, "%s: error %u (%s) on: %s\n", a->sv->name, mysql_errno(m),
                    mysql_error(m), sql);
            a->errors++;
            break;
        }
        MYSQL_RES *r = mysql_store_result(m);
        uint64_t nr = r ? mysql_num_rows(r) : 0;
        if (nr != 1 && a->wrong++ == 0)
            fprintf(stderr, "%s: %s returned %" PRIu64 " rows (expected 1)\n", a->sv->name, sql,
                    nr);
        if (r)
            mysql_free_result(r);
        double dt = now_s() - t0;
        a->lat_sum += dt;
        if (dt > a->lat_max)
            a->lat_max = dt;
        a->done++;
    }
    mysql_close(m);
    return NULL;
}

static double
run_lookups(const server *sv, const char *table)
{
    pthread_t th[64];
    lookup_arg args[64];
    atomic_uint_fast64_t issued = 0;
    int nt = g_threads > 64 ? 64 : g_threads;
    double t0 = now_s();
    for (int i = 0; i < nt; i++) {
        args[i] = (lookup_arg){.sv = sv,
                               .table = table,
                               .id = i,
                               .issued = &issued,
                               .deadline = t0 + g_lookup_secs};
        pthread_create(&th[i], NULL, lookup_thread, &args[i]);
    }
    uint64_t done = 0, wrong = 0, errors = 0;
    double lat_sum = 0, lat_max = 0;
    for (int i = 0; i < nt; i++) {
        pthread_join(th[i], NULL);
        done += args[i].done;
        wrong += args[i].wrong;
        errors += args[i].errors;
        lat_sum += args[i].lat_sum;
        if (args[i].lat_max > lat_max)
            lat_max = args[i].lat_max;
    }
    double secs = now_s() - t0;
    double qps = done ? (double)done / secs : 0;
    printf("  %-8s %-6s %8" PRIu64 " queries in %6.2f s = %10.1f q/s, mean %8.3f ms, max %8.3f "
           "ms%s%s\n",
           sv->name, table, done, secs, qps, done ? lat_sum / (double)done * 1e3 : 0, lat_max * 1e3,
           wrong ? " WRONG ROW COUNTS" : "", errors ? " ERRORS" : "");
    return qps;
}

static void
usage(void)
{
    fprintf(stderr, "usage: bench_dml --rows N --rv-port P --rv-pid PID --rv-storage DIR "
                    "[--my-port P --my-pid PID --my-datadir DIR] [--lookup-secs S] "
                    "[--lookup-max Q] [--threads T] [--batch B]\n");
    exit(2);
}

static double
ratio(double a, double b)
{
    return b > 0 ? a / b : 0;
}

int
main(int argc, char **argv)
{
    server rv = {.name = "rivulet", .port = 0, .pid = 0, .path = NULL};
    server my = {.name = "mariadb", .port = 0, .pid = 0, .path = NULL, .mariadb = true};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            usage();
        i++;
        if (!strcmp(o, "--rows"))
            g_rows = strtoull(v, NULL, 10);
        else if (!strcmp(o, "--rv-port"))
            rv.port = atoi(v);
        else if (!strcmp(o, "--rv-pid"))
            rv.pid = atol(v);
        else if (!strcmp(o, "--rv-storage"))
            rv.path = v;
        else if (!strcmp(o, "--my-port"))
            my.port = atoi(v);
        else if (!strcmp(o, "--my-pid"))
            my.pid = atol(v);
        else if (!strcmp(o, "--my-datadir"))
            my.path = v;
        else if (!strcmp(o, "--lookup-secs"))
            g_lookup_secs = atof(v);
        else if (!strcmp(o, "--lookup-max"))
            g_lookup_max = strtoull(v, NULL, 10);
        else if (!strcmp(o, "--threads"))
            g_threads = atoi(v);
        else if (!strcmp(o, "--batch"))
            g_batch = atoi(v);
        else
            usage();
    }
    if (!rv.port || !g_rows || g_batch < 1)
        usage();
    bool have_my = my.port != 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    init_tables();
    mysql_library_init(0, NULL, NULL);

    MYSQL *rm = connect_to(&rv, NULL);
    MYSQL *mm = have_my ? connect_to(&my, NULL) : NULL;
    if (!rm || (have_my && !mm))
        return 1;
    const char *cols = "k BIGINT NOT NULL, a INT, d DOUBLE, s VARCHAR(20), dt DATE";
    char sql[512];
    bool ok = exec(rm, &rv, "CREATE DATABASE IF NOT EXISTS bench") && exec(rm, &rv, "USE bench");
    snprintf(sql, sizeof sql,
             "CREATE TABLE dup (%s) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 8", cols);
    ok = ok && exec(rm, &rv, sql);
    snprintf(sql, sizeof sql,
             "CREATE TABLE mow (%s) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 8 "
             "PROPERTIES (\"enable_unique_key_merge_on_write\" = \"true\")",
             cols);
    ok = ok && exec(rm, &rv, sql);
    if (have_my) {
        ok = ok && exec(mm, &my, "CREATE DATABASE IF NOT EXISTS bench") &&
             exec(mm, &my, "USE bench");
        snprintf(sql, sizeof sql, "CREATE TABLE t (%s, PRIMARY KEY (k)) ENGINE=InnoDB", cols);
        ok = ok && exec(mm, &my, sql);
    }
    if (!ok)
        return 1;

    printf("bench_dml: %" PRIu64 " rows, %d-row INSERT statements, lookups %d threads "
           "(%.0f s or %" PRIu64 " queries)\n",
           g_rows, g_batch, g_threads, g_lookup_secs, g_lookup_max);

    /* ---- 1. bulk load ---- */
    printf("1. bulk load (keys 1..N in order)\n");
    uint64_t raw = 0, st0 = du_bytes(rv.path);
    phase_result ld = run_inserts(rm, &rv, "dup", g_rows, g_rows, false, &raw);
    uint64_t st1 = du_bytes(rv.path);
    uint64_t raw_mow = 0;
    phase_result lm = ld.failed ? (phase_result){.failed = true}
                                : run_inserts(rm, &rv, "mow", g_rows, g_rows, false, &raw_mow);
    uint64_t st2 = du_bytes(rv.path);
    long rv_hwm_load = proc_kb(rv.pid, "VmHWM");
    phase_result lmy = {0};
    uint64_t my_bytes = 0, raw_my = 0;
    long my_hwm_load = -1;
    if (have_my) {
        lmy = run_inserts(mm, &my, "t", g_rows, g_rows, false, &raw_my);
        char p[4096];
        snprintf(p, sizeof p, "%s/bench/t.ibd", my.path);
        my_bytes = file_bytes(p);
        my_hwm_load = proc_kb(my.pid, "VmHWM");
    }
    printf("  raw size %.1f MB (%.1f bytes/row); statements %.1f MB\n", raw / 1e6,
           (double)raw / (double)g_rows, ld.bytes / 1e6);
    double r_dup = ld.secs > 0 ? ld.rows / ld.secs : 0, r_mow = lm.secs > 0 ? lm.rows / lm.secs : 0,
           r_my = lmy.secs > 0 ? lmy.rows / lmy.secs : 0;
    printf("  rivulet DUPLICATE KEY : %10" PRIu64
           " rows in %7.2f s = %10.0f rows/s%s; disk %7.1f MB "
           "= %.2fx raw\n",
           ld.rows, ld.secs, r_dup, ld.failed ? " (FAILED)" : "", (st1 - st0) / 1e6,
           ratio((double)(st1 - st0), (double)raw));
    print_stmt_times(&ld);
    printf("  rivulet UNIQUE MoW    : %10" PRIu64
           " rows in %7.2f s = %10.0f rows/s%s; disk %7.1f MB "
           "= %.2fx raw\n",
           lm.rows, lm.secs, r_mow, lm.failed ? " (FAILED)" : "", (st2 - st1) / 1e6,
           ratio((double)(st2 - st1), (double)raw_mow));
    print_stmt_times(&lm);
    if (have_my) {
        printf("  mariadb InnoDB PK     : %10" PRIu64
               " rows in %7.2f s = %10.0f rows/s%s; disk %7.1f MB "
               "= %.2fx raw (t.ibd)\n",
               lmy.rows, lmy.secs, r_my, lmy.failed ? " (FAILED)" : "", my_bytes / 1e6,
               ratio((double)my_bytes, (double)raw_my));
        print_stmt_times(&lmy);
        printf("  ratio rivulet/mariadb rows/s: DUPLICATE %.2fx, MoW %.2fx\n", ratio(r_dup, r_my),
               ratio(r_mow, r_my));
    }
    printf("  peak RSS after load: rivulet %.1f MB", rv_hwm_load / 1024.0);
    if (have_my)
        printf(", mariadb %.1f MB", my_hwm_load / 1024.0);
    printf("\n");
    fflush(stdout);

    /* ---- 2. upsert ---- */
    uint64_t nup = g_rows / 10 ? g_rows / 10 : 1;
    printf("2. upsert %" PRIu64 " random existing keys (seed 42)\n", nup);
    double u_rv = 0, u_my = 0;
    if (!lm.failed) {
        uint64_t r = 0;
        phase_result u = run_inserts(rm, &rv, "mow", nup, g_rows, true, &r);
        u_rv = u.secs > 0 ? u.rows / u.secs : 0;
        printf("  rivulet MoW INSERT    : %10" PRIu64 " rows in %7.2f s = %10.0f rows/s%s "
               "(target 1M rows/s); storage now %.1f MB\n",
               u.rows, u.secs, u_rv, u.failed ? " (FAILED)" : "", (du_bytes(rv.path) - st1) / 1e6);
        print_stmt_times(&u);
    }
    if (have_my && !lmy.failed) {
        uint64_t r = 0;
        phase_result u = run_inserts(mm, &my, "t", nup, g_rows, true, &r);
        u_my = u.secs > 0 ? u.rows / u.secs : 0;
        printf("  mariadb ON DUP KEY UPD: %10" PRIu64 " rows in %7.2f s = %10.0f rows/s%s\n",
               u.rows, u.secs, u_my, u.failed ? " (FAILED)" : "");
        print_stmt_times(&u);
        printf("  ratio rivulet/mariadb: %.2fx\n", ratio(u_rv, u_my));
    }
    fflush(stdout);

    /* contents check: count/sum(k)/sum(a)/sum(len(s)) must agree */
    {
        char c_dup[160], c_mow[160], c_my[160] = "";
        double t0 = now_s();
        checksum(rm, &rv, "dup", c_dup, sizeof c_dup);
        double t1 = now_s();
        checksum(rm, &rv, "mow", c_mow, sizeof c_mow);
        if (have_my)
            checksum(mm, &my, "t", c_my, sizeof c_my);
        printf("contents count/sum(k)/sum(a)/sum(len(s)): rivulet dup %s (%.2f s), mow %s, "
               "mariadb %s%s\n",
               c_dup, t1 - t0, c_mow, have_my ? c_my : "-",
               have_my && strcmp(c_mow, c_my) != 0 ? "  MISMATCH mow vs mariadb" : "");
    }
    fflush(stdout);

    /* ---- 3. point lookups ---- */
    printf("3. point lookup SELECT * FROM t WHERE k = ? (text protocol)\n");
    double q_rv = 0, q_my = 0;
    if (!lm.failed)
        q_rv = run_lookups(&rv, "mow");
    if (have_my && !lmy.failed) {
        q_my = run_lookups(&my, "t");
        printf("  ratio rivulet/mariadb: %.3gx\n", ratio(q_rv, q_my));
    }
    printf("peak RSS (VmHWM) at end: rivulet %.1f MB", proc_kb(rv.pid, "VmHWM") / 1024.0);
    if (have_my)
        printf(", mariadb %.1f MB", proc_kb(my.pid, "VmHWM") / 1024.0);
    printf("\n");
    mysql_close(rm);
    if (mm)
        mysql_close(mm);
    mysql_library_end();
    return 0;
}
