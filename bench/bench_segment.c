/* SPDX-License-Identifier: Apache-2.0
 * bench_segment: segment file encode and decode speed and size (issue 4). Writes 1M rows of a
 * BIGINT key + INT (with NULLs) + DOUBLE + DECIMAL(18,2) + VARCHAR (low cardinality) through
 * stor_segment_writer, reads every column back, and prints MB/s (of raw value bytes) and bytes
 * per row on disk vs raw. Then reads everything twice through a reader with a page cache: cold
 * (every page a miss: pread + CRC + zstd + insert + decode) and warm (every page a hit: decode
 * only). Figures only, no pass/fail.
 *
 *   make bench        (bench/run.sh builds every bench/bench_*.c against the release library)
 *   build/release/bench_segment [dir] [rows]
 *
 * See storage/README.md §Formats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/buf.h"
#include "storage/storage.h"

#define NCOLS 5
#define BATCH 4096u

static double now_s(void);
static void die(const char *what, const db_error *err);
static void fill(arena *a, uint32_t base, uint32_t n, stor_vec *v, uint64_t *raw_bytes);
static double read_all(stor_segment_reader *r, arena *ra, uint32_t rows);

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
    fprintf(stderr, "bench_segment: %s: %s\n", what, err->msg);
    exit(1);
}

/* Rows [base, base + n); adds their raw size (8/4/8/16 bytes + string bytes) to *raw_bytes. */
static void
fill(arena *a, uint32_t base, uint32_t n, stor_vec *v, uint64_t *raw_bytes)
{
    static const char *const cities[] = {"Amsterdam", "Berlin",    "Chengdu",   "Dublin",
                                         "Edinburgh", "Frankfurt", "Guangzhou", "Hangzhou",
                                         "Istanbul",  "Jakarta",   "Kyoto",     "Lisbon"};
    memset(v, 0, NCOLS * sizeof *v);
    for (int c = 0; c < NCOLS; c++) {
        v[c].n = n;
    }
    v[0].kind = v[1].kind = STOR_VEC_I64;
    v[2].kind = STOR_VEC_F64;
    v[3].kind = STOR_VEC_I128;
    v[4].kind = STOR_VEC_BYTES;
    v[0].i64 = arena_alloc(a, (size_t)n * 8);
    v[1].i64 = arena_alloc(a, (size_t)n * 8);
    v[1].nulls = arena_calloc(a, 1, n / 8 + 1);
    v[2].f64 = arena_alloc(a, (size_t)n * 8);
    v[3].i128 = arena_alloc(a, (size_t)n * 16);
    v[4].offs = arena_alloc(a, ((size_t)n + 1) * 8);
    v[4].data = arena_alloc(a, (size_t)n * 16);
    v[4].offs[0] = 0;
    uint64_t x = 0x9E3779B97F4A7C15ull ^ base;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t r = (uint64_t)base + i;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v[0].i64[i] = (int64_t)(r * 2 + 1000000000);
        v[1].i64[i] = (int64_t)(x % 100000);
        if (x % 10 == 0) {
            v[1].nulls[i / 8] |= (uint8_t)(1u << (i % 8));
        }
        v[2].f64[i] = (double)(x % 1000000) / 100.0;
        v[3].i128[i] = (stor_i128)(x % 10000000);
        const char *s = cities[x % 12];
        size_t len = strlen(s);
        memcpy(v[4].data + v[4].offs[i], s, len);
        v[4].offs[i + 1] = v[4].offs[i] + len;
        *raw_bytes += 8 + 4 + 8 + 16 + len;
    }
}

/* Read every column of r in full; returns the seconds taken. */
static double
read_all(stor_segment_reader *r, arena *ra, uint32_t rows)
{
    db_error err = {0};
    double t0 = now_s();
    for (uint32_t c = 0; c < NCOLS; c++) {
        stor_vec v;
        if (stor_segment_read_rows(r, c, 0, rows, ra, &v, &err) != DB_OK) {
            die("read", &err);
        }
        arena_reset(ra);
    }
    return now_s() - t0;
}

int main(int argc, char **argv);

int
main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    uint32_t rows = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1000000u;
    char path[512];
    snprintf(path, sizeof path, "%s/bench_segment_%d.seg", dir, (int)getpid());
    stor_column_desc d[NCOLS] = {
            {.uid = 1, .type = cat_type_make(CAT_T_BIGINT), .is_key = true},
            {.uid = 2, .type = cat_type_make(CAT_T_INT), .nullable = true},
            {.uid = 3, .type = cat_type_make(CAT_T_DOUBLE)},
            {.uid = 4, .type = cat_type_decimal(18, 2)},
            {.uid = 5, .type = cat_type_varchar(32)},
    };
    db_error err = {0};
    arena *a = arena_new(1 << 20);
    /* Generate the batches first so the timing covers only encoding and writing. */
    uint32_t nb = (rows + BATCH - 1) / BATCH;
    stor_vec *batches = calloc((size_t)nb * NCOLS, sizeof *batches);
    uint64_t raw = 0;
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t n = b + 1 < nb ? BATCH : rows - b * BATCH;
        fill(a, b * BATCH, n, &batches[(size_t)b * NCOLS], &raw);
    }
    stor_segment_opts o = {0};
    double t0 = now_s();
    stor_segment_writer *w = stor_segment_writer_open(path, NCOLS, d, &o, &err);
    if (w == NULL) {
        die("open", &err);
    }
    for (uint32_t b = 0; b < nb; b++) {
        if (stor_segment_writer_append(w, &batches[(size_t)b * NCOLS], &err) != DB_OK) {
            die("append", &err);
        }
    }
    stor_segment_info info;
    if (stor_segment_writer_finish(w, &info, &err) != DB_OK) {
        die("finish", &err);
    }
    double t_enc = now_s() - t0;

    t0 = now_s();
    stor_segment_reader *r = stor_segment_reader_open(path, &err);
    if (r == NULL) {
        die("reader open", &err);
    }
    arena *ra = arena_new(1 << 20);
    (void)read_all(r, ra, rows);
    double t_dec = now_s() - t0; /* open included */
    /* Page cache large enough for every decompressed page (raw values plus encoding overhead). */
    stor_cache *cache = stor_cache_new((size_t)raw * 2 + ((size_t)64 << 20));
    stor_segment_reader *rc = stor_segment_reader_open(path, &err);
    if (rc == NULL) {
        die("reader open", &err);
    }
    stor_segment_reader_set_cache(rc, cache);
    double t_cold = read_all(rc, ra, rows);
    double t_warm = read_all(rc, ra, rows);
    stor_cache_stats cs = stor_cache_get_stats(cache);
    printf("rows                 %u (BIGINT key, INT NULL, DOUBLE, DECIMAL(18,2), VARCHAR)\n",
           rows);
    printf("raw value bytes      %.1f MB (%.1f bytes/row)\n", raw / 1e6, (double)raw / rows);
    printf("segment file         %.1f MB (%.2f bytes/row, %.3f x raw)\n", info.file_bytes / 1e6,
           (double)info.file_bytes / rows, (double)info.file_bytes / (double)raw);
    printf("encode+write+fsync   %.3f s, %.1f MB/s raw, %.2f M rows/s\n", t_enc, raw / 1e6 / t_enc,
           rows / 1e6 / t_enc);
    printf("read+decode all cols %.3f s, %.1f MB/s raw, %.2f M rows/s\n", t_dec, raw / 1e6 / t_dec,
           rows / 1e6 / t_dec);
    printf("cached read, cold    %.3f s, %.1f MB/s raw\n", t_cold, raw / 1e6 / t_cold);
    printf("cached read, warm    %.3f s, %.1f MB/s raw (%.2f x cold)\n", t_warm, raw / 1e6 / t_warm,
           t_cold / t_warm);
    printf("page cache           %llu hits, %llu misses, %llu rejects, %.1f MB held\n",
           (unsigned long long)cs.hits, (unsigned long long)cs.misses,
           (unsigned long long)cs.rejects, cs.bytes / 1e6);
    for (uint32_t c = 0; c < NCOLS; c++) {
        printf("  column %u: %u pages\n", c, stor_segment_reader_npages(r, c));
    }
    stor_segment_reader_close(rc);
    stor_cache_free(cache);
    stor_segment_reader_close(r);
    stor_segment_info_destroy(&info);
    unlink(path);
    arena_free(ra);
    arena_free(a);
    free(batches);
    return 0;
}
