/* SPDX-License-Identifier: Apache-2.0
 * bench_catalog: start-up time of the durable catalog with 10,000 tables' worth of edit log
 * (issue 3: "restart takes < 1 s for 10,000 tables' worth of log"), replayed from the log and
 * then from a checkpoint image, and the DDL commit rate on one thread. Prints figures only.
 *
 *   make bench        (builds build/release and runs every bench/bench_*.c through bench/run.sh)
 *   build/release/bench_catalog [dir] [tables]
 *
 * See catalog/README.md §"The commit point for DDL". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog.h"

static double now_s(void);
static void die(const char *what, const db_error *err);

static double
now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
die(const char *what, const db_error *err)
{
    fprintf(stderr, "bench_catalog: %s: %s\n", what, err->msg);
    exit(1);
}

int main(int argc, char **argv);

int
main(int argc, char **argv)
{
    const char *parent = argc > 1 ? argv[1] : "/tmp";
    int ntables = argc > 2 ? atoi(argv[2]) : 10000;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/bench_catalog.XXXXXX", parent);
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    db_error err = {0};
    cat_meta *m = cat_meta_open(dir, NULL, &err);
    if (m == NULL) {
        die("open", &err);
    }
    if (cat_meta_create_db(m, "bench", false, NULL, &err) != DB_OK) {
        die("create db", &err);
    }
    cat_column_def cols[4];
    memset(cols, 0, sizeof cols);
    const char *names[4] = {"k", "v", "d", "ts"};
    cols[0].type = cat_type_make(CAT_T_BIGINT);
    cols[1].type = cat_type_varchar(64);
    cols[2].type = cat_type_decimal(10, 2);
    cols[3].type = cat_type_datetime(0);
    for (int i = 0; i < 4; i++) {
        cols[i].name = names[i];
        cols[i].auto_inc_start = 1;
    }
    const char *keys[1] = {"k"};
    double t0 = now_s();
    for (int i = 0; i < ntables; i++) {
        char tname[32];
        snprintf(tname, sizeof tname, "t%d", i);
        cat_create_table_req r;
        memset(&r, 0, sizeof r);
        r.db = "bench";
        r.name = tname;
        r.cols = cols;
        r.ncols = 4;
        r.has_keys = true;
        r.keys_type = CAT_KEYS_DUP;
        r.key_cols = keys;
        r.nkey_cols = 1;
        r.has_dist = true;
        r.dist_cols = keys;
        r.ndist_cols = 1;
        r.buckets = 4;
        if (cat_meta_create_table(m, &r, &err) != DB_OK) {
            die("create table", &err);
        }
    }
    double create_s = now_s() - t0;
    cat_meta_close(m, false);

    t0 = now_s();
    m = cat_meta_open(dir, NULL, &err);
    double replay_log_s = now_s() - t0;
    if (m == NULL) {
        die("reopen", &err);
    }
    cat_meta_close(m, true);
    t0 = now_s();
    m = cat_meta_open(dir, NULL, &err);
    double replay_image_s = now_s() - t0;
    if (m == NULL) {
        die("reopen from image", &err);
    }
    cat_meta_close(m, false);
    printf("catalog: %d CREATE TABLE commits in %.2f s (%.0f DDL/s, one fsync each)\n", ntables,
           create_s, ntables / create_s);
    printf("catalog: restart replaying %d tables from the edit log: %.3f s (target < 1 s)\n",
           ntables, replay_log_s);
    printf("catalog: restart loading %d tables from the image: %.3f s\n", ntables, replay_image_s);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
