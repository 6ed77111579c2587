/* SPDX-License-Identifier: Apache-2.0
 * bench_editlog: group-commit throughput of the catalog edit log (appends/s and fsyncs with 1,
 * 4 and 16 appending threads) and the start-up time (open + replay) of a 10,000-record log.
 * Prints figures only; never passes or fails on timing. Not run by `make test`.
 *
 *   make release && cc -std=c11 -D_GNU_SOURCE -O2 -I. -pthread bench/bench_editlog.c \
 *       build/release/librivulet.a -ljemalloc -lm -o build/release/bench_editlog
 *   build/release/bench_editlog [dir]     (dir: parent of the temporary logs, default /tmp)
 *
 * See catalog/README.md §Threads (group commit). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog.h"

#define REC_BENCH    (CAT_REC_TEST_FIRST + 100)
#define PAYLOAD_SIZE 200 /* about one CREATE TABLE record */

typedef struct worker {
    cat_editlog *el;
    int n;
    int failed;
} worker;

static double now_s(void);
static void *append_worker(void *arg);
static int count_replay(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
                        db_error *err);
static cat_editlog *open_replayed(const char *dir, uint64_t *nreplayed);
static char *fresh_dir(const char *parent);
static void remove_dir(const char *dir);

static double
now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *
append_worker(void *arg)
{
    worker *w = arg;
    unsigned char payload[PAYLOAD_SIZE];
    memset(payload, 'x', sizeof payload);
    for (int i = 0; i < w->n; i++) {
        db_error err;
        db_error_clear(&err);
        if (cat_editlog_append(w->el, REC_BENCH, payload, sizeof payload, NULL, &err) != DB_OK) {
            fprintf(stderr, "append: %s\n", err.msg);
            w->failed = 1;
            return NULL;
        }
    }
    return NULL;
}

static int
count_replay(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len, db_error *err)
{
    (*(uint64_t *)ctx)++;
    return DB_OK;
}

static cat_editlog *
open_replayed(const char *dir, uint64_t *nreplayed)
{
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = cat_editlog_open(dir, NULL, &err);
    if (el == NULL) {
        fprintf(stderr, "open %s: %s\n", dir, err.msg);
        exit(1);
    }
    cat_editlog_register(el, REC_BENCH, "bench", count_replay, nreplayed);
    if (cat_editlog_replay(el, &err) != DB_OK) {
        fprintf(stderr, "replay %s: %s\n", dir, err.msg);
        exit(1);
    }
    return el;
}

static char *
fresh_dir(const char *parent)
{
    char *d = malloc(strlen(parent) + 32);
    sprintf(d, "%s/rivulet-bench-XXXXXX", parent);
    if (mkdtemp(d) == NULL) {
        perror("mkdtemp");
        exit(1);
    }
    return d;
}

static void
remove_dir(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "could not remove %s\n", dir);
    }
}

int
main(int argc, char **argv)
{
    const char *parent = argc > 1 ? argv[1] : "/tmp";
    static const int threads[] = {1, 4, 16};
    printf("edit log group commit (%d-byte records, write + fdatasync per group)\n", PAYLOAD_SIZE);
    printf("%8s %10s %10s %12s %14s\n", "threads", "appends", "fsyncs", "appends/s",
           "appends/fsync");
    for (size_t k = 0; k < sizeof threads / sizeof threads[0]; k++) {
        int nt = threads[k], per = 16000 / nt < 2000 ? 16000 / nt : 2000;
        char *dir = fresh_dir(parent);
        uint64_t nrep = 0;
        cat_editlog *el = open_replayed(dir, &nrep);
        pthread_t th[16];
        worker w[16];
        double t0 = now_s();
        for (int i = 0; i < nt; i++) {
            w[i] = (worker){el, per, 0};
            pthread_create(&th[i], NULL, append_worker, &w[i]);
        }
        for (int i = 0; i < nt; i++) {
            pthread_join(th[i], NULL);
            if (w[i].failed) {
                return 1;
            }
        }
        double dt = now_s() - t0;
        cat_editlog_stats s;
        cat_editlog_stats_get(el, &s);
        printf("%8d %10llu %10llu %12.0f %14.1f\n", nt, (unsigned long long)s.appends,
               (unsigned long long)s.syncs, (double)s.appends / dt,
               (double)s.appends / (double)(s.syncs ? s.syncs : 1));
        cat_editlog_close(el);
        remove_dir(dir);
        free(dir);
    }

    /* Start-up: 10,000 records (about 10,000 tables' worth of DDL) written by 16 threads. */
    char *dir = fresh_dir(parent);
    uint64_t nrep = 0;
    cat_editlog *el = open_replayed(dir, &nrep);
    pthread_t th[16];
    worker w[16];
    for (int i = 0; i < 16; i++) {
        w[i] = (worker){el, 625, 0};
        pthread_create(&th[i], NULL, append_worker, &w[i]);
    }
    for (int i = 0; i < 16; i++) {
        pthread_join(th[i], NULL);
    }
    cat_editlog_close(el);
    double t0 = now_s();
    nrep = 0;
    el = open_replayed(dir, &nrep);
    double dt = now_s() - t0;
    printf("open + replay of %llu records: %.1f ms\n", (unsigned long long)nrep, dt * 1e3);
    cat_editlog_close(el);
    remove_dir(dir);
    free(dir);
    return 0;
}
