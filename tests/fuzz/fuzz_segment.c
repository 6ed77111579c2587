/* FUZZ_SOURCES: common catalog storage */
/* SPDX-License-Identifier: Apache-2.0
 * libFuzzer harness for the segment reader (storage/stor_segment.c, stor_page.c): the input is
 * written as a segment file, opened, and every page, every column's full row range, a few row
 * ranges and short-key lookups are read. Any outcome but a crash or sanitizer report is fine;
 * corrupt input must come back as a db_error. Seeds: tests/fuzz/seeds/fuzz_segment (written by
 * the stor_segment/fuzz_seeds unit test). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/db_error.h"
#include "storage/storage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
read_everything(stor_segment_reader *r, arena *a)
{
    db_error err = {0};
    uint64_t rows = stor_segment_reader_rows(r);
    for (uint32_t c = 0; c < stor_segment_reader_ncols(r); c++) {
        (void)stor_segment_reader_column(r, c);
        (void)stor_segment_reader_zone(r, c);
        for (uint32_t k = 0; k < stor_segment_reader_npages(r, c); k++) {
            stor_vec v;
            (void)stor_segment_reader_page(r, c, k);
            db_error_clear(&err);
            (void)stor_segment_read_page(r, c, k, a, &v, &err);
            arena_reset(a);
        }
        if (rows <= (1u << 20)) {
            stor_vec v;
            db_error_clear(&err);
            (void)stor_segment_read_rows(r, c, 0, rows, a, &v, &err);
            arena_reset(a);
            db_error_clear(&err);
            (void)stor_segment_read_rows(r, c, rows / 3, rows - rows / 4, a, &v, &err);
            arena_reset(a);
        }
    }
    stor_key lo = {.i64 = -5, .f64 = -5.0, .i128 = -5, .str = (const uint8_t *)"b", .len = 1};
    stor_key hi = {.i64 = 500, .f64 = 500.0, .i128 = 500, .str = (const uint8_t *)"row", .len = 3};
    uint64_t from, to;
    stor_segment_key_range(r, &lo, &hi, &from, &to);
    stor_segment_key_range(r, NULL, &hi, &from, &to);
    stor_segment_key_range(r, &lo, NULL, &from, &to);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (path[0] == '\0') {
        snprintf(path, sizeof path, "/tmp/fuzz_segment_%d.seg", (int)getpid());
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return 0;
    }
    if (size > 0 && fwrite(data, 1, size, f) != size) {
        fclose(f);
        return 0;
    }
    fclose(f);
    db_error err = {0};
    stor_segment_reader *r = stor_segment_reader_open(path, &err);
    if (r != NULL) {
        arena *a = arena_new(0);
        read_everything(r, a);
        arena_free(a);
        stor_segment_reader_close(r);
    }
    unlink(path);
    return 0;
}
