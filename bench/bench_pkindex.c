/* SPDX-License-Identifier: Apache-2.0
 * bench_pkindex: throughput of the merge-on-write primary-key index of one tablet with 10M
 * BIGINT keys (encoded with stor_key_put_int): insert-upserts, update-upserts in random order,
 * hit and miss lookups, deletes; plus the index's memory per key. Prints figures only.
 *
 *   make bench        (builds build/release and runs every bench/bench_*.c through bench/run.sh)
 *   build/release/bench_pkindex [nkeys]
 *
 * See storage/README.md §"Primary-key index". */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/buf.h"
#include "storage/storage.h"

static double now_s(void);
static uint64_t rng_next(uint64_t *s);
static void report(const char *what, size_t n, double secs);

static double
now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t
rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void
report(const char *what, size_t n, double secs)
{
    printf("  %-28s %10zu ops  %7.3f s  %12.0f ops/s\n", what, n, secs, (double)n / secs);
}

int main(int argc, char **argv);

int
main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 10000000;
    stor_pkindex *pk = stor_pkindex_new();
    buf k;
    buf_init(&k);
    db_error err = {0};
    bool existed;
    stor_rowloc prev;
    uint64_t s = 0x2545f4914f6cdd1dull;
    size_t nexisted = 0;

    /* Keys are a scrambled permutation of 0..n-1 (a prime multiplier), so insertion order is not
     * the hash order and not sorted. */
    double t0 = now_s();
    for (size_t i = 0; i < n; i++) {
        buf_clear(&k);
        stor_key_put_int(&k, (int64_t)(i * 2654435761u % n));
        stor_rowloc loc = {1, (uint32_t)(i >> 16), (uint32_t)(i & 0xffff)};
        if (stor_pkindex_upsert(pk, k.data, k.len, loc, 1, &prev, &existed, &err) != DB_OK) {
            fprintf(stderr, "bench_pkindex: %s\n", err.msg);
            return 1;
        }
        nexisted += existed;
    }
    report("upsert (insert new keys)", n, now_s() - t0);

    t0 = now_s();
    for (size_t i = 0; i < n; i++) {
        buf_clear(&k);
        stor_key_put_int(&k, (int64_t)(rng_next(&s) % n));
        stor_rowloc loc = {2, (uint32_t)(i >> 16), (uint32_t)(i & 0xffff)};
        stor_pkindex_upsert(pk, k.data, k.len, loc, 2, &prev, &existed, &err);
        nexisted += existed;
    }
    report("upsert (update, random)", n, now_s() - t0);

    size_t hits = 0;
    t0 = now_s();
    for (size_t i = 0; i < n; i++) {
        buf_clear(&k);
        stor_key_put_int(&k, (int64_t)(rng_next(&s) % n));
        hits += stor_pkindex_lookup(pk, k.data, k.len, &prev, NULL);
    }
    report("lookup (hit, random)", n, now_s() - t0);

    t0 = now_s();
    for (size_t i = 0; i < n; i++) {
        buf_clear(&k);
        stor_key_put_int(&k, (int64_t)(n + rng_next(&s) % n));
        hits += stor_pkindex_lookup(pk, k.data, k.len, &prev, NULL);
    }
    report("lookup (miss, random)", n, now_s() - t0);

    size_t mem = stor_pkindex_memory(pk);
    printf("  keys %zu, index memory %.1f MiB, %.1f bytes/key\n", stor_pkindex_count(pk),
           (double)mem / (1 << 20), (double)mem / (double)stor_pkindex_count(pk));

    size_t ndel = n / 2;
    t0 = now_s();
    for (size_t i = 0; i < ndel; i++) {
        buf_clear(&k);
        stor_key_put_int(&k, (int64_t)(i * 2));
        stor_pkindex_delete(pk, k.data, k.len, 3, &prev);
    }
    report("delete (half the keys)", ndel, now_s() - t0);
    printf("  checks: %zu updates found their key, %zu lookups hit (want %zu and %zu)\n", nexisted,
           hits, n, n);

    buf_destroy(&k);
    stor_pkindex_free(pk);
    return 0;
}
