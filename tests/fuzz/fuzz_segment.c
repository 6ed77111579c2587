/* FUZZ_SOURCES: common catalog storage */
/* SPDX-License-Identifier: Apache-2.0
 * libFuzzer harness for the segment reader (storage/stor_segment.c, stor_page.c): the input is
 * written as a segment file, opened, and every page, every column's full row range, a few row
 * ranges and short-key lookups are read. Any outcome but a crash or sanitizer report is fine;
 * corrupt input must come back as a db_error. Each input is tried twice: as given, and with every
 * CRC it can locate recomputed, so mutations reach the page decoder and the metadata checks
 * behind the checksums. Seeds: tests/fuzz/seeds/fuzz_segment (written by
 * the stor_segment/fuzz_seeds unit test). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/crc32c.h"
#include "common/db_error.h"
#include "storage/stor_int.h"
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

/* Recompute the CRC of the block p[off, off + len) stored in its last 4 bytes, if in bounds. */
static void
fix_block(uint8_t *p, size_t size, uint64_t off, uint64_t len)
{
    if (len >= 4 && off <= size && size - off >= len) {
        stor__put_u32(p + off + len - 4, crc32c(p + off, len - 4));
    }
}

/* Recompute page, directory, short-key and footer CRCs wherever the layout can be followed. */
static void
fix_crcs(uint8_t *p, size_t size)
{
    if (size < STOR_SEG_TRAILER_SIZE) {
        return;
    }
    uint64_t foff = stor__get_u64(p + size - STOR_SEG_TRAILER_SIZE);
    uint64_t flen = stor__get_u32(p + size - STOR_SEG_TRAILER_SIZE + 8);
    if (flen < STOR_SEG_FOOTER_FIXED + 4 || foff > size || size - foff < flen) {
        return;
    }
    uint8_t *f = p + foff;
    uint64_t ncols = (flen - STOR_SEG_FOOTER_FIXED - 4) / STOR_SEG_FOOTER_COL;
    for (uint64_t i = 0; i < ncols; i++) {
        const uint8_t *c = f + STOR_SEG_FOOTER_FIXED + i * STOR_SEG_FOOTER_COL;
        uint64_t doff = stor__get_u64(c + 16), dsize = stor__get_u32(c + 24);
        if (dsize < STOR_SEG_DIR_FIXED + 4 || doff > size || size - doff < dsize) {
            continue;
        }
        uint64_t npages = (dsize - STOR_SEG_DIR_FIXED - 4) / STOR_SEG_DIR_ENTRY;
        for (uint64_t k = 0; k < npages; k++) {
            uint8_t *e = p + doff + STOR_SEG_DIR_FIXED + k * STOR_SEG_DIR_ENTRY;
            uint64_t poff = stor__get_u64(e), psize = stor__get_u32(e + 8);
            if (poff <= size && size - poff >= psize) {
                stor__put_u32(e + 36, crc32c(p + poff, psize));
            }
        }
        fix_block(p, size, doff, dsize);
    }
    fix_block(p, size, stor__get_u64(f + 16), stor__get_u32(f + 24));
    fix_block(p, size, foff, flen);
}

static void
try_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return;
    }
    if (size > 0 && fwrite(data, 1, size, f) != size) {
        fclose(f);
        return;
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
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (path[0] == '\0') {
        snprintf(path, sizeof path, "/tmp/fuzz_segment_%d.seg", (int)getpid());
    }
    try_file(path, data, size);
    uint8_t *copy = malloc(size + 1);
    if (copy != NULL) {
        if (size > 0) {
            memcpy(copy, data, size);
        }
        fix_crcs(copy, size);
        try_file(path, copy, size);
        free(copy);
    }
    unlink(path);
    return 0;
}
