/* SPDX-License-Identifier: Apache-2.0
 * Unit tests of segment files (storage/stor_segment.c) through storage/storage.h: multi-page
 * round trips, row ranges, selected columns, zone maps, the short-key index, tmp + rename, and
 * corruption (every flipped byte and every truncation is an error or harmless, never a crash).
 * One temporary directory per test. Also holds the generator of the fuzz_segment seeds.
 * White-box only for the CRC fix-up of the last test (storage/stor_int.h layout constants). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/crc32c.h"
#include "common/db_error.h"
#include "common/mem.h"
#include "storage/stor_int.h"
#include "storage/storage.h"

/* ---- temp dir ---- */

static char tmpdir[256];

static void
tmp_setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/stor_seg_XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void
tmp_teardown(void)
{
    DIR *d = opendir(tmpdir);
    if (d == NULL) {
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            char p[512];
            snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
            unlink(p);
        }
    }
    closedir(d);
    rmdir(tmpdir);
}

static char *
tmp_path(arena *a, const char *name)
{
    return arena_sprintf(a, "%s/%s", tmpdir, name);
}

static uint8_t *
slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = mem_alloc(*len + 1);
    cr_assert_eq(fread(p, 1, *len, f), *len);
    fclose(f);
    return p;
}

static void
spit(const char *path, const uint8_t *p, size_t len)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(p, 1, len, f), len);
    fclose(f);
}

/* ---- the test table: BIGINT key (sorted), INT NULL, DOUBLE, DECIMAL(18,2), VARCHAR (low
 * cardinality, NULLs), STRING (high cardinality) ---- */

#define NCOLS 6

static void
descs(stor_column_desc *d)
{
    memset(d, 0, sizeof(stor_column_desc) * NCOLS);
    d[0] = (stor_column_desc){.uid = 10, .type = cat_type_make(CAT_T_BIGINT), .is_key = true};
    d[1] = (stor_column_desc){.uid = 11, .type = cat_type_make(CAT_T_INT), .nullable = true};
    d[2] = (stor_column_desc){.uid = 12, .type = cat_type_make(CAT_T_DOUBLE)};
    d[3] = (stor_column_desc){.uid = 13, .type = cat_type_decimal(18, 2)};
    d[4] = (stor_column_desc){.uid = 14, .type = cat_type_varchar(20), .nullable = true};
    d[5] = (stor_column_desc){.uid = 15, .type = cat_type_make(CAT_T_STRING)};
}

/* Rows [base, base + n) of the test table, in arena a. */
static void
gen_rows(arena *a, uint32_t base, uint32_t n, stor_vec *v)
{
    static const char *const colours[] = {"red", "green", "blue", "cyan", ""};
    for (int c = 0; c < NCOLS; c++) {
        memset(&v[c], 0, sizeof v[c]);
        v[c].n = n;
    }
    v[0].kind = v[1].kind = STOR_VEC_I64;
    v[2].kind = STOR_VEC_F64;
    v[3].kind = STOR_VEC_I128;
    v[4].kind = v[5].kind = STOR_VEC_BYTES;
    v[0].i64 = arena_alloc(a, (size_t)n * 8 + 1);
    v[1].i64 = arena_alloc(a, (size_t)n * 8 + 1);
    v[1].nulls = arena_calloc(a, 1, n / 8 + 1);
    v[2].f64 = arena_alloc(a, (size_t)n * 8 + 1);
    v[3].i128 = arena_alloc(a, (size_t)n * 16 + 1);
    v[4].nulls = arena_calloc(a, 1, n / 8 + 1);
    buf s4, s5;
    buf_init(&s4);
    buf_init(&s5);
    v[4].offs = arena_alloc(a, ((size_t)n + 1) * 8);
    v[5].offs = arena_alloc(a, ((size_t)n + 1) * 8);
    v[4].offs[0] = v[5].offs[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = base + i;
        v[0].i64[i] = (int64_t)r * 3 - 1000;
        v[1].i64[i] = (int64_t)(r * 2654435761u % 100000);
        if (r % 7 == 3) {
            v[1].nulls[i / 8] |= (uint8_t)(1u << (i % 8));
        }
        v[2].f64[i] = r * 0.5 - 17.25;
        v[3].i128[i] = (stor_i128)r * 1000003 - 999999999999;
        if (r % 13 == 0) {
            v[4].nulls[i / 8] |= (uint8_t)(1u << (i % 8));
        } else {
            buf_append_str(&s4, colours[r % 5]);
        }
        v[4].offs[i + 1] = s4.len;
        buf_printf(&s5, "row-%u-%x", r, r * 2246822519u);
        v[5].offs[i + 1] = s5.len;
    }
    v[4].data = arena_alloc(a, s4.len + 1);
    v[5].data = arena_alloc(a, s5.len + 1);
    if (n > 0) {
        memcpy(v[4].data, s4.data, s4.len);
        memcpy(v[5].data, s5.data, s5.len);
    }
    buf_destroy(&s4);
    buf_destroy(&s5);
}

/* Row r of got equals row er of exp. */
static bool
row_eq(const stor_vec *got, uint32_t r, const stor_vec *exp, uint32_t er)
{
    bool gn = stor_vec_is_null(got, r), en = stor_vec_is_null(exp, er);
    if (gn || en) {
        return gn == en;
    }
    switch (got->kind) {
    case STOR_VEC_I64:
        return got->i64[r] == exp->i64[er];
    case STOR_VEC_F64:
        return memcmp(&got->f64[r], &exp->f64[er], 8) == 0;
    case STOR_VEC_I128:
        return got->i128[r] == exp->i128[er];
    case STOR_VEC_BYTES: {
        uint64_t gl = got->offs[r + 1] - got->offs[r], el = exp->offs[er + 1] - exp->offs[er];
        return gl == el && memcmp(got->data + got->offs[r], exp->data + exp->offs[er], gl) == 0;
    }
    }
    return false;
}

static bool
vec_eq_range(const stor_vec *got, const stor_vec *exp, uint32_t from)
{
    if (got->kind != exp->kind) {
        return false;
    }
    for (uint32_t i = 0; i < got->n; i++) {
        if (!row_eq(got, i, exp, from + i)) {
            return false;
        }
    }
    return true;
}

/* Write rows [0, n) in batches of `batch` rows with small pages. */
static void
write_table(const char *path, uint32_t n, uint32_t batch, uint32_t page_bytes,
            stor_segment_info *info)
{
    stor_column_desc d[NCOLS];
    descs(d);
    db_error err = {0};
    stor_segment_opts o = {.page_bytes = page_bytes, .no_fsync = true};
    stor_segment_writer *w = stor_segment_writer_open(path, NCOLS, d, &o, &err);
    cr_assert_not_null(w, "%s", err.msg);
    arena *a = arena_new(0);
    for (uint32_t at = 0; at < n; at += batch) {
        stor_vec v[NCOLS];
        gen_rows(a, at, at + batch <= n ? batch : n - at, v);
        cr_assert_eq(stor_segment_writer_append(w, v, &err), DB_OK, "%s", err.msg);
        arena_reset(a);
    }
    cr_assert_eq(stor_segment_writer_finish(w, info, &err), DB_OK, "%s", err.msg);
    arena_free(a);
}

/* ---- round trips ---- */

Test(stor_segment, multi_page_round_trip, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *path = tmp_path(a, "seg1.dat");
    enum { N = 20000 };
    stor_segment_info info;
    write_table(path, N, 777, 4096, &info);
    cr_assert_eq(info.rows, N);
    cr_assert_eq(info.ncols, NCOLS);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq((uint64_t)st.st_size, info.file_bytes);
    char *tmp = arena_sprintf(a, "%s.tmp", path);
    cr_assert_neq(access(tmp, F_OK), 0, "path.tmp is renamed away");

    stor_vec exp[NCOLS];
    gen_rows(a, 0, N, exp);
    db_error err = {0};
    stor_segment_reader *r = stor_segment_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_eq(stor_segment_reader_rows(r), N);
    cr_assert_eq(stor_segment_reader_ncols(r), NCOLS);
    stor_column_desc d[NCOLS];
    descs(d);
    for (uint32_t c = 0; c < NCOLS; c++) {
        const stor_column_desc *rd = stor_segment_reader_column(r, c);
        cr_assert_eq(rd->uid, d[c].uid);
        cr_assert_eq(rd->type.id, d[c].type.id);
        cr_assert_eq(rd->type.precision, d[c].type.precision);
        cr_assert_eq(rd->type.scale, d[c].type.scale);
        cr_assert_eq(rd->type.len, d[c].type.len);
        cr_assert_eq(rd->is_key, d[c].is_key);
        cr_assert_eq(rd->nullable, d[c].nullable);
        cr_assert_eq(stor_segment_reader_find_uid(r, d[c].uid), (int)c);
        cr_assert_gt(stor_segment_reader_npages(r, c), 2, "column %u must span pages", c);
        stor_vec got;
        cr_assert_eq(stor_segment_read_rows(r, c, 0, N, a, &got, &err), DB_OK, "%s", err.msg);
        cr_assert_eq(got.n, N);
        cr_assert(vec_eq_range(&got, &exp[c], 0), "column %u differs", c);
        /* Per-page reads and zone maps, checked against the generated rows. */
        uint64_t next = 0;
        for (uint32_t k = 0; k < stor_segment_reader_npages(r, c); k++) {
            const stor_page_info *pi = stor_segment_reader_page(r, c, k);
            cr_assert_eq(pi->first_row, next);
            stor_vec pv;
            cr_assert_eq(stor_segment_read_page(r, c, k, a, &pv, &err), DB_OK, "%s", err.msg);
            cr_assert_eq(pv.n, pi->nrows);
            cr_assert(vec_eq_range(&pv, &exp[c], (uint32_t)pi->first_row));
            uint64_t nulls = 0;
            for (uint32_t i = 0; i < pv.n; i++) {
                nulls += stor_vec_is_null(&pv, i);
            }
            cr_assert_eq(pi->zone.null_count, nulls);
            cr_assert_eq(pi->zone.nrows, pi->nrows);
            if (c == 0) {
                cr_assert_eq(pi->zone.min_i64, pv.i64[0]);
                cr_assert_eq(pi->zone.max_i64, pv.i64[pv.n - 1]);
            }
            next += pi->nrows;
        }
        cr_assert_eq(next, N);
        stor_zone z = stor_segment_reader_zone(r, c);
        cr_assert_eq(z.nrows, N);
        cr_assert_eq(z.null_count, info.zones[c].null_count);
    }
    cr_assert_eq(info.zones[0].min_i64, -1000);
    cr_assert_eq(info.zones[0].max_i64, (int64_t)(N - 1) * 3 - 1000);
    cr_assert_eq(info.zones[2].min_f64, -17.25);
    cr_assert(info.zones[3].max_i128 == (stor_i128)(N - 1) * 1000003 - 999999999999);
    cr_assert_eq(info.zones[4].min_len, 0);
    cr_assert_eq(memcmp(info.zones[4].max_str, "red", 3), 0);
    cr_assert_eq(info.zones[1].null_count, (N + 3) / 7);
    stor_segment_info_destroy(&info);
    stor_segment_reader_close(r);
    arena_free(a);
}

Test(stor_segment, row_ranges_and_selected_columns, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *path = tmp_path(a, "seg2.dat");
    enum { N = 5000 };
    write_table(path, N, N, 2048, NULL);
    stor_vec exp[NCOLS];
    gen_rows(a, 0, N, exp);
    db_error err = {0};
    stor_segment_reader *r = stor_segment_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    uint64_t ranges[][2] = {{0, 0}, {0, 1}, {N - 1, N}, {17, 4000}, {1234, 1235}, {N, N}, {0, N}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        uint32_t cols[] = {5, 1, 3};
        stor_vec out[3];
        cr_assert_eq(
                stor_segment_read_columns(r, cols, 3, ranges[i][0], ranges[i][1], a, out, &err),
                DB_OK, "%s", err.msg);
        for (int k = 0; k < 3; k++) {
            cr_assert_eq(out[k].n, ranges[i][1] - ranges[i][0]);
            cr_assert(vec_eq_range(&out[k], &exp[cols[k]], (uint32_t)ranges[i][0]),
                      "range %zu column %u", i, cols[k]);
        }
    }
    stor_segment_reader_close(r);
    arena_free(a);
}

Test(stor_segment, short_key_range_prunes_pages, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *path = tmp_path(a, "seg3.dat");
    enum { N = 10000 };
    write_table(path, N, 1000, 1024, NULL);
    db_error err = {0};
    stor_segment_reader *r = stor_segment_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    /* key = 3 * row - 1000: rows 2000..2999 hold keys 5000..7997. */
    stor_key lo = {.i64 = 5000}, hi = {.i64 = 7997};
    uint64_t from, to;
    stor_segment_key_range(r, &lo, &hi, &from, &to);
    cr_assert_leq(from, 2000);
    cr_assert_geq(to, 3000);
    cr_assert_lt(to - from, 1400, "page-granular, not the whole file: [%llu, %llu)",
                 (unsigned long long)from, (unsigned long long)to);
    stor_segment_key_range(r, NULL, NULL, &from, &to);
    cr_assert(from == 0 && to == N);
    stor_key above = {.i64 = INT64_MAX};
    stor_segment_key_range(r, &above, NULL, &from, &to);
    cr_assert_eq(to - from, 0);
    stor_key below = {.i64 = -2000};
    stor_segment_key_range(r, NULL, &below, &from, &to);
    cr_assert_eq(to - from, 0);
    stor_segment_reader_close(r);
    arena_free(a);
}

Test(stor_segment, empty_segment_and_abort, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *path = tmp_path(a, "empty.dat");
    stor_segment_info info;
    write_table(path, 0, 1, 0, &info);
    cr_assert_eq(info.rows, 0);
    stor_segment_info_destroy(&info);
    db_error err = {0};
    stor_segment_reader *r = stor_segment_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_eq(stor_segment_reader_rows(r), 0);
    cr_assert_eq(stor_segment_reader_npages(r, 0), 0);
    stor_segment_reader_close(r);

    const char *p2 = tmp_path(a, "aborted.dat");
    stor_column_desc d[NCOLS];
    descs(d);
    stor_segment_writer *w = stor_segment_writer_open(p2, NCOLS, d, NULL, &err);
    cr_assert_not_null(w);
    cr_assert_eq(access(arena_sprintf(a, "%s.tmp", p2), F_OK), 0, "writes go to path.tmp");
    stor_segment_writer_abort(w);
    cr_assert_neq(access(arena_sprintf(a, "%s.tmp", p2), F_OK), 0);
    cr_assert_neq(access(p2, F_OK), 0);
    arena_free(a);
}

Test(stor_segment, writer_rejects_bad_input, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    stor_column_desc d[NCOLS];
    descs(d);
    db_error err = {0};
    stor_segment_writer *w = stor_segment_writer_open(tmp_path(a, "x.dat"), NCOLS, d, NULL, &err);
    cr_assert_not_null(w);
    stor_vec v[NCOLS];
    gen_rows(a, 0, 10, v);
    v[0].nulls = arena_calloc(a, 1, 2);
    v[0].nulls[0] = 4; /* a NULL in the NOT NULL key column */
    cr_assert_eq(stor_segment_writer_append(w, v, &err), DB_ERR);
    cr_assert_eq(err.code, 1105);
    cr_assert(strstr(err.msg, "NOT NULL") != NULL, "%s", err.msg);
    stor_segment_writer_abort(w);

    stor_column_desc j = {.uid = 1, .type = cat_type_make(CAT_T_MAP)}; /* not storable */
    db_error_clear(&err);
    cr_assert_null(stor_segment_writer_open(tmp_path(a, "j.dat"), 1, &j, NULL, &err));
    cr_assert(db_error_is_set(&err));
    db_error_clear(&err);
    cr_assert_null(stor_segment_writer_open("/nonexistent-dir/x.dat", NCOLS, d, NULL, &err));
    cr_assert(strstr(err.msg, "/nonexistent-dir/x.dat.tmp") != NULL, "%s", err.msg);
    arena_free(a);
}

Test(stor_segment, large_strings_span_pages, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *path = tmp_path(a, "big.dat");
    stor_column_desc d = {.uid = 1, .type = cat_type_make(CAT_T_STRING), .nullable = true};
    db_error err = {0};
    stor_segment_opts o = {.no_fsync = true};
    stor_segment_writer *w = stor_segment_writer_open(path, 1, &d, &o, &err);
    cr_assert_not_null(w);
    enum { N = 5, BIG = 1 << 20 };
    stor_vec v = {.kind = STOR_VEC_BYTES, .n = N};
    v.offs = arena_alloc(a, (N + 1) * 8);
    v.data = arena_alloc(a, (size_t)N * BIG);
    v.nulls = arena_calloc(a, 1, 1);
    v.nulls[0] = 1u << 2;
    v.offs[0] = 0;
    uint64_t x = 1;
    for (int i = 0; i < N; i++) {
        uint64_t len = i == 2 ? 0 : i == 3 ? 0 : BIG;
        for (uint64_t k = 0; k < len; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            v.data[v.offs[i] + k] = (uint8_t)(x >> 56);
        }
        v.offs[i + 1] = v.offs[i] + len;
    }
    cr_assert_eq(stor_segment_writer_append(w, &v, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(stor_segment_writer_finish(w, NULL, &err), DB_OK, "%s", err.msg);
    stor_segment_reader *r = stor_segment_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_geq(stor_segment_reader_npages(r, 0), 3);
    stor_vec got;
    cr_assert_eq(stor_segment_read_rows(r, 0, 0, N, a, &got, &err), DB_OK, "%s", err.msg);
    cr_assert(vec_eq_range(&got, &v, 0));
    stor_segment_reader_close(r);
    arena_free(a);
}

/* ---- corruption ---- */

/* Open path and read every column fully; DB_OK only when everything matches exp. Returns DB_ERR
 * with err set when the reader reports an error; a silent wrong answer fails the test. */
static int
read_all_check(const char *path, const stor_vec *exp, uint32_t n, db_error *err)
{
    stor_segment_reader *r = stor_segment_reader_open(path, err);
    if (r == NULL) {
        return DB_ERR;
    }
    arena *a = arena_new(0);
    int rc = DB_OK;
    cr_assert_eq(stor_segment_reader_rows(r), n, "row count changed silently");
    cr_assert_eq(stor_segment_reader_ncols(r), NCOLS);
    for (uint32_t c = 0; c < NCOLS && rc == DB_OK; c++) {
        stor_vec got;
        rc = stor_segment_read_rows(r, c, 0, n, a, &got, err);
        if (rc == DB_OK) {
            cr_assert(vec_eq_range(&got, &exp[c], 0), "column %u differs silently", c);
        }
    }
    arena_free(a);
    stor_segment_reader_close(r);
    return rc;
}

Test(stor_segment, every_flipped_byte_detected, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *path = tmp_path(a, "small.dat");
    const char *bad = tmp_path(a, "bad.dat");
    enum { N = 60 };
    write_table(path, N, 25, 256, NULL);
    stor_vec exp[NCOLS];
    gen_rows(a, 0, N, exp);
    size_t len;
    uint8_t *orig = slurp(path, &len);
    db_error err = {0};
    cr_assert_eq(read_all_check(path, exp, N, &err), DB_OK, "%s", err.msg);
    size_t nerr = 0;
    for (size_t i = 0; i < len; i++) {
        orig[i] ^= 0x5a;
        spit(bad, orig, len);
        orig[i] ^= 0x5a;
        db_error_clear(&err);
        if (read_all_check(bad, exp, N, &err) == DB_ERR) {
            nerr++;
            cr_assert_eq(err.code, 1105);
            cr_assert(strstr(err.msg, bad) != NULL, "error names the file: %s", err.msg);
        }
    }
    /* Every byte is covered by a CRC or an exact check (magic, version, reserved zeros, trailer
     * positions), so every flip must be caught, not just survived. */
    cr_assert_eq(nerr, len, "%zu of %zu flips detected", nerr, len);
    mem_free(orig);
    arena_free(a);
}

Test(stor_segment, every_truncation_detected, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *path = tmp_path(a, "small.dat");
    const char *bad = tmp_path(a, "trunc.dat");
    enum { N = 40 };
    write_table(path, N, 40, 256, NULL);
    stor_vec exp[NCOLS];
    gen_rows(a, 0, N, exp);
    size_t len;
    uint8_t *orig = slurp(path, &len);
    db_error err = {0};
    for (size_t l = 0; l < len; l++) {
        spit(bad, orig, l);
        db_error_clear(&err);
        cr_assert_eq(read_all_check(bad, exp, N, &err), DB_ERR, "truncation to %zu accepted", l);
        cr_assert(strstr(err.msg, bad) != NULL, "%s", err.msg);
    }
    mem_free(orig);
    arena_free(a);
}

Test(stor_segment, page_and_footer_errors_name_offset, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *path = tmp_path(a, "off.dat");
    write_table(path, 100, 100, 0, NULL);
    db_error err = {0};
    stor_segment_reader *r = stor_segment_reader_open(path, &err);
    cr_assert_not_null(r);
    uint64_t off = 16; /* the first page of column 0 starts right after the header */
    stor_segment_reader_close(r);
    size_t len;
    uint8_t *p = slurp(path, &len);
    p[off + 1] ^= 1;
    spit(path, p, len);
    r = stor_segment_reader_open(path, &err);
    cr_assert_not_null(r, "a page flip is found when the page is read: %s", err.msg);
    stor_vec v;
    cr_assert_eq(stor_segment_read_page(r, 0, 0, a, &v, &err), DB_ERR);
    char *want = arena_sprintf(
            a, "Segment file '%s' is corrupt at offset 16: page checksum mismatch", path);
    cr_assert_str_eq(err.msg, want);
    stor_segment_reader_close(r);
    p[off + 1] ^= 1;
    p[len - 16 - 8] ^= 0x80; /* inside the footer */
    spit(path, p, len);
    db_error_clear(&err);
    cr_assert_null(stor_segment_reader_open(path, &err));
    cr_assert(strstr(err.msg, "footer checksum mismatch") != NULL, "%s", err.msg);
    mem_free(p);
    arena_free(a);
}

/* ---- fuzz seeds ---- */

/* Writes small valid segments (the fuzz_segment seeds). With STOR_FUZZ_SEED_DIR set they are also
 * copied there: STOR_FUZZ_SEED_DIR=tests/fuzz/seeds/fuzz_segment build/.../test_storage
 * --filter 'stor_segment/fuzz_seeds'. */
Test(stor_segment, fuzz_seeds, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *out = getenv("STOR_FUZZ_SEED_DIR");
    struct {
        const char *name;
        uint32_t n, batch, page;
    } seeds[] = {{"tiny.seg", 3, 3, 0},
                 {"pages.seg", 50, 20, 128},
                 {"empty.seg", 0, 1, 0},
                 {"zstd.seg", 400, 400, 1024}};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        const char *path = tmp_path(a, seeds[i].name);
        write_table(path, seeds[i].n, seeds[i].batch, seeds[i].page, NULL);
        stor_vec exp[NCOLS];
        gen_rows(a, 0, seeds[i].n, exp);
        db_error err = {0};
        cr_assert_eq(read_all_check(path, exp, seeds[i].n, &err), DB_OK, "%s", err.msg);
        if (out != NULL) {
            size_t len;
            uint8_t *p = slurp(path, &len);
            spit(arena_sprintf(a, "%s/%s", out, seeds[i].name), p, len);
            mem_free(p);
        }
    }
    arena_free(a);
}

/* String keys longer than the 31-byte zone prefix: every row whose key lies in [lo, hi] is inside
 * the range key_range returns (checked by brute force), and the range still prunes. */
Test(stor_segment, short_key_range_long_string_keys, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *path = tmp_path(a, "skey.dat");
    stor_column_desc d[2] = {
            {.uid = 1, .type = cat_type_varchar(100), .is_key = true},
            {.uid = 2, .type = cat_type_make(CAT_T_INT)},
    };
    enum { N = 3000 };
    stor_vec v[2] = {{.kind = STOR_VEC_BYTES, .n = N}, {.kind = STOR_VEC_I64, .n = N}};
    v[0].offs = arena_alloc(a, (N + 1) * 8);
    v[0].data = arena_alloc(a, (size_t)N * 64);
    v[1].i64 = arena_alloc(a, N * 8);
    v[0].offs[0] = 0;
    for (uint32_t i = 0; i < N; i++) {
        /* 40 shared bytes, then a sortable counter: the zone prefixes cannot tell pages apart
         * beyond byte 31 within a prefix group. */
        int len = snprintf((char *)v[0].data + v[0].offs[i], 64, "%s-%06u",
                           i < N / 2 ? "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                                     : "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
                           i);
        v[0].offs[i + 1] = v[0].offs[i] + (uint64_t)len;
        v[1].i64[i] = i;
    }
    db_error err = {0};
    stor_segment_opts o = {.page_bytes = 2048, .no_fsync = true};
    stor_segment_writer *w = stor_segment_writer_open(path, 2, d, &o, &err);
    cr_assert_not_null(w);
    cr_assert_eq(stor_segment_writer_append(w, v, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(stor_segment_writer_finish(w, NULL, &err), DB_OK, "%s", err.msg);
    stor_segment_reader *r = stor_segment_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_gt(stor_segment_reader_npages(r, 0), 4);
    const stor_page_info *p0 = stor_segment_reader_page(r, 0, 0);
    cr_assert(p0->zone.max_truncated);
    uint32_t probes[][2] = {{0, 0},       {10, 20},     {1499, 1500},
                            {1500, 1500}, {2999, 2999}, {700, 2200}};
    bool pruned = false;
    for (size_t t = 0; t < sizeof probes / sizeof probes[0]; t++) {
        uint32_t l = probes[t][0], h = probes[t][1];
        stor_key lo = {.str = v[0].data + v[0].offs[l], .len = v[0].offs[l + 1] - v[0].offs[l]};
        stor_key hi = {.str = v[0].data + v[0].offs[h], .len = v[0].offs[h + 1] - v[0].offs[h]};
        uint64_t from, to;
        stor_segment_key_range(r, &lo, &hi, &from, &to);
        cr_assert(from <= l && to > h, "probe [%u, %u] got [%llu, %llu)", l, h,
                  (unsigned long long)from, (unsigned long long)to);
        pruned = pruned || to - from < N;
    }
    cr_assert(pruned, "the short-key index never narrowed the range");
    stor_key past = {.str = (const uint8_t *)"c", .len = 1};
    uint64_t from, to;
    stor_segment_key_range(r, &past, NULL, &from, &to);
    cr_assert_eq(to - from, 0, "keys above every page select nothing");
    stor_segment_reader_close(r);
    arena_free(a);
}

/* Recompute the CRC of the block p[off, off + len) kept in its last 4 bytes, if in bounds. */
static void
fix_block(uint8_t *p, size_t size, uint64_t off, uint64_t len)
{
    if (len >= 4 && off <= size && size - off >= len) {
        stor__put_u32(p + off + len - 4, crc32c(p + off, len - 4));
    }
}

/* Recompute page, directory, short-key and footer CRCs where the layout can be followed (as the
 * fuzz harness does), so a flipped byte reaches the checks behind the checksums. */
static void
fix_crcs(uint8_t *p, size_t size)
{
    uint64_t foff = stor__get_u64(p + size - STOR_SEG_TRAILER_SIZE);
    uint64_t flen = stor__get_u32(p + size - STOR_SEG_TRAILER_SIZE + 8);
    if (flen < STOR_SEG_FOOTER_FIXED + 4 || foff > size || size - foff < flen) {
        return;
    }
    uint64_t ncols = (flen - STOR_SEG_FOOTER_FIXED - 4) / STOR_SEG_FOOTER_COL;
    for (uint64_t i = 0; i < ncols; i++) {
        const uint8_t *c = p + foff + STOR_SEG_FOOTER_FIXED + i * STOR_SEG_FOOTER_COL;
        uint64_t doff = stor__get_u64(c + 16), dsize = stor__get_u32(c + 24);
        if (dsize < STOR_SEG_DIR_FIXED + 4 || doff > size || size - doff < dsize) {
            continue;
        }
        for (uint64_t k = 0; k < (dsize - STOR_SEG_DIR_FIXED - 4) / STOR_SEG_DIR_ENTRY; k++) {
            uint8_t *e = p + doff + STOR_SEG_DIR_FIXED + k * STOR_SEG_DIR_ENTRY;
            uint64_t poff = stor__get_u64(e), psize = stor__get_u32(e + 8);
            if (poff <= size && size - poff >= psize) {
                stor__put_u32(e + 36, crc32c(p + poff, psize));
            }
        }
        fix_block(p, size, doff, dsize);
    }
    fix_block(p, size, stor__get_u64(p + foff + 16), stor__get_u32(p + foff + 24));
    fix_block(p, size, foff, flen);
}

/* Behind valid checksums, every flipped byte is still either rejected or read without a crash or
 * sanitizer report (the answer may differ: only the CRC guards values). */
Test(stor_segment, flips_behind_valid_crcs_never_crash, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *path = tmp_path(a, "small.dat");
    const char *bad = tmp_path(a, "bad.dat");
    enum { N = 50 };
    write_table(path, N, 20, 200, NULL);
    size_t len;
    uint8_t *orig = slurp(path, &len);
    uint8_t *copy = mem_alloc(len);
    size_t rejected = 0;
    for (size_t i = 0; i < len; i++) {
        memcpy(copy, orig, len);
        copy[i] ^= (uint8_t)(1u << (i % 8));
        fix_crcs(copy, len);
        spit(bad, copy, len);
        db_error err = {0};
        stor_segment_reader *r = stor_segment_reader_open(bad, &err);
        if (r == NULL) {
            rejected++;
            cr_assert_eq(err.code, 1105);
            continue;
        }
        arena *ra = arena_new(0);
        for (uint32_t c = 0; c < stor_segment_reader_ncols(r); c++) {
            stor_vec v;
            db_error_clear(&err);
            if (stor_segment_read_rows(r, c, 0, stor_segment_reader_rows(r), ra, &v, &err) !=
                DB_OK) {
                rejected++;
                cr_assert(strstr(err.msg, bad) != NULL, "%s", err.msg);
            }
        }
        arena_free(ra);
        stor_segment_reader_close(r);
    }
    cr_assert_gt(rejected, len / 4, "structural checks behind the CRCs caught only %zu of %zu",
                 rejected, len);
    mem_free(copy);
    mem_free(orig);
    arena_free(a);
}

/* Small slices go through page views (only their rows decoded), large ones through whole-page
 * decodes; both, with and without a page cache, return exactly the generated rows, including
 * slices at page edges and across page boundaries. The key narrowing agrees with a linear
 * search of the sorted key column. */
Test(stor_segment, slices_and_key_narrowing, .init = tmp_setup, .fini = tmp_teardown)
{
    arena *a = arena_new(0);
    const char *path = tmp_path(a, "slices.dat");
    enum { N = 40000 };
    write_table(path, N, 4000, 0, NULL); /* default 64 KiB pages: thousands of rows each */
    stor_vec exp[NCOLS];
    gen_rows(a, 0, N, exp);
    db_error err = {0};
    stor_segment_reader *r = stor_segment_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    stor_cache *cache = stor_cache_new(64u << 20);
    unsigned seed = 4242;
    arena *b = arena_new(0);
    for (int pass = 0; pass < 2; pass++) {
        stor_segment_reader_set_cache(r, pass == 0 ? NULL : cache);
        for (uint32_t c = 0; c < NCOLS; c++) {
            cr_assert_gt(stor_segment_reader_npages(r, c), 1);
            for (int t = 0; t < 150; t++) {
                arena_reset(b);
                uint64_t from, to;
                uint32_t np = stor_segment_reader_npages(r, c);
                const stor_page_info *pi =
                        stor_segment_reader_page(r, c, (uint32_t)rand_r(&seed) % np);
                switch (t % 5) {
                case 0: /* first row of a page */
                    from = pi->first_row;
                    to = from + 1 + (uint64_t)rand_r(&seed) % 5;
                    break;
                case 1: /* last row of a page, maybe into the next */
                    to = pi->first_row + pi->nrows;
                    from = to - 1;
                    to += (uint64_t)rand_r(&seed) % 3;
                    break;
                case 2: /* large */
                    from = (uint64_t)rand_r(&seed) % N;
                    to = from + (uint64_t)rand_r(&seed) % 9000;
                    break;
                default:
                    from = (uint64_t)rand_r(&seed) % N;
                    to = from + (uint64_t)rand_r(&seed) % 40;
                    break;
                }
                to = to > N ? N : to;
                stor_vec got;
                cr_assert_eq(stor_segment_read_rows(r, c, from, to, b, &got, &err), DB_OK, "%s",
                             err.msg);
                cr_assert_eq(got.n, to - from);
                cr_assert(vec_eq_range(&got, &exp[c], (uint32_t)from),
                          "pass %d column %u rows [%lu, %lu)", pass, c, (unsigned long)from,
                          (unsigned long)to);
                /* NULL bitmap only when some row of the slice is NULL (whole-page semantics) */
                bool any = false;
                for (uint32_t i = 0; i < got.n; i++) {
                    any = any || stor_vec_is_null(&exp[c], (uint32_t)from + i);
                }
                cr_assert_eq(got.nulls != NULL, any);
            }
        }
        /* key narrowing on column 0 (keys 3r - 1000, ascending) vs a linear search */
        for (int t = 0; t < 300; t++) {
            uint64_t from = (uint64_t)rand_r(&seed) % N, to = (uint64_t)rand_r(&seed) % (N + 1);
            if (from > to) {
                uint64_t x = from;
                from = to;
                to = x;
            }
            stor_key lo = {.i64 = rand_r(&seed) % (3 * N + 200) - 1100};
            stor_key hi = {.i64 = lo.i64 + rand_r(&seed) % (t % 2 ? 10 : 3 * N)};
            const stor_key *lp = t % 7 == 1 ? NULL : &lo, *hp = t % 7 == 2 ? NULL : &hi;
            uint64_t nf, nt;
            cr_assert_eq(stor__segment_narrow(r, 0, from, to, lp, hp, &nf, &nt, &err), DB_OK);
            uint64_t wf = to, wt = to;
            for (uint64_t i = from; i < to; i++) {
                int64_t k = exp[0].i64[i];
                if ((lp == NULL || k >= lp->i64) && (hp == NULL || k <= hp->i64)) {
                    wf = wf == to ? i : wf;
                    wt = i + 1;
                }
            }
            if (wf == to) {
                cr_assert_eq(nf, nt, "empty narrowing");
            } else {
                cr_assert(nf == wf && nt == wt, "[%lu, %lu) vs [%lu, %lu)", (unsigned long)nf,
                          (unsigned long)nt, (unsigned long)wf, (unsigned long)wt);
            }
        }
    }
    stor_segment_reader_close(r);
    stor_cache_free(cache);
    arena_free(b);
    arena_free(a);
}
