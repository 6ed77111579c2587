/* SPDX-License-Identifier: Apache-2.0
 * stor_segment: the segment file writer and reader. The writer buffers rows per column, cuts
 * pages (stor_page.c encodes and compresses them), appends them to path.tmp, and at finish writes
 * the page directories, the short-key index, the CRC-protected footer and the trailer, fsyncs and
 * renames. The reader validates the trailer, footer and directories at open and each page (CRC,
 * lengths) when read; corrupt bytes are ER_STOR_CORRUPT naming the file and offset (I4).
 * See README.md §Formats "Segment file". */
#include "storage/stor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/crc32c.h"
#include "common/mem.h"

/* One page as recorded in a column's directory. */
typedef struct page_ent {
    uint64_t offset;      /* file offset of the stored bytes */
    uint32_t stored_size; /* bytes on disk */
    uint32_t raw_size;    /* encoded bytes before compression */
    uint32_t crc;         /* CRC32C of the stored bytes */
    uint8_t comp;         /* STOR_COMP_* */
    uint8_t enc;          /* STOR_ENC_* */
    stor_page_info info;  /* ordinal + zone map */
} page_ent;

/* Writer state of one column. */
typedef struct wcol {
    stor_column_desc desc;
    stor_vec_kind kind;
    stor_vec pend;     /* rows not yet in a page; arrays on the heap */
    uint32_t pend_cap; /* rows allocated in pend */
    uint64_t data_cap; /* bytes allocated in pend.data */
    page_ent *pages;
    uint32_t npages, pages_cap;
    uint64_t rows_done; /* rows already in pages */
    uint8_t enc_mask;   /* bit e set = encoding e used by some page */
    uint64_t stored_bytes, raw_bytes;
    stor_zone zone;
} wcol;

struct stor_segment_writer {
    char *path, *tmp_path;
    int fd;
    uint64_t file_off; /* bytes written so far (buffered included) */
    buf out;           /* bytes not yet written */
    buf raw, comp;     /* page scratch */
    stor_segment_opts opts;
    uint32_t ncols;
    wcol *cols;
    uint64_t rows;
    bool failed;
};

/* Reader state of one column. */
typedef struct rcol {
    stor_column_desc desc;
    stor_vec_kind kind;
    uint8_t enc_mask;
    uint32_t npages;
    page_ent *pages;
    /* The last page stor_segment_read_rows decoded whole, kept so that the next batch of a
     * scan slicing the same page does not decode it again (a page holds up to 8192 8-byte
     * values; a scan batch is at most 4096 rows). memo lives in memo_arena; memo_page is
     * UINT32_MAX when none. Dropped by stor_segment_reader_trim (a reader back in the pool). */
    uint32_t memo_page;
    stor_vec memo;
    arena *memo_arena;
} rcol;

struct stor_segment_reader {
    char *path;
    int fd;
    uint64_t file_size;
    uint64_t rows;
    uint32_t ncols;
    rcol *cols;
    uint32_t key_col;    /* STOR_SEG_NO_KEY when no short-key index */
    stor_page_info *ski; /* short-key entries, one per page of key_col */
    uint32_t nski;
    ZSTD_DCtx *dctx;     /* made at the first compressed page read (a reader served by the
                            page cache, e.g. a point lookup, never needs one) */
    buf io, raw;         /* page scratch */
    arena *scratch;      /* stor_segment_read_rows' page scratch (reset per page), or NULL */
    stor_cache *cache;   /* shared page cache, or NULL; not owned */
    stor_cache_key ckey; /* file identity from fstat at open; offset set per page */
};

static int write_out(stor_segment_writer *w, bool force, db_error *err);
static void wcol_reserve(wcol *c, uint32_t rows, uint64_t bytes);
static void wcol_copy_rows(wcol *c, const stor_vec *v);
static int flush_pages(stor_segment_writer *w, wcol *c, bool final, db_error *err);
static int emit_page(stor_segment_writer *w, wcol *c, uint32_t from, uint32_t n, db_error *err);
static void put_dir_entry(uint8_t *p, const page_ent *e, stor_vec_kind kind);
static int corrupt(const stor_segment_reader *r, uint64_t off, const char *why, db_error *err);
static int pread_all(stor_segment_reader *r, void *dst, size_t len, uint64_t off, db_error *err);
static int load_footer(stor_segment_reader *r, db_error *err);
static int load_dir(stor_segment_reader *r, rcol *c, uint64_t off, uint32_t size, uint64_t data_end,
                    db_error *err);
static int load_ski(stor_segment_reader *r, uint64_t off, uint32_t size, uint64_t data_end,
                    db_error *err);
static int load_page_raw(stor_segment_reader *r, const page_ent *e, const uint8_t **raw,
                         db_error *err);

/* One page of a column held as a view while binary-searching it (its cache entry pinned; without
 * a cache the view points into r's scratch, so no other page is loaded meanwhile). */
typedef struct held_page {
    bool valid;
    uint32_t page;
    stor_cache_entry *ce;
    stor__page_view v;
} held_page;

static int page_get(stor_segment_reader *r, const page_ent *e, const uint8_t **raw,
                    stor_cache_entry **ce, db_error *err);
static void page_put(stor_segment_reader *r, stor_cache_entry *ce);
static int read_page_rows(stor_segment_reader *r, uint32_t col, uint32_t page, uint32_t lo,
                          uint32_t cnt, arena *a, stor_vec *out, db_error *err);
static void page_unhold(stor_segment_reader *r, held_page *h);
static int page_bound(stor_segment_reader *r, uint32_t col, uint32_t page, uint64_t from,
                      uint64_t to, const stor_key *k, bool upper, arena *scratch, held_page *h,
                      uint64_t *pos, db_error *err);
static int key_cmp_lo(stor_vec_kind kind, const stor_key *k, const stor_zone *z);
static int key_cmp_hi(stor_vec_kind kind, const stor_key *k, const stor_zone *z);

stor_vec_kind
stor_vec_kind_of(const cat_type *t)
{
    switch ((cat_type_id)t->id) {
    case CAT_T_BOOLEAN:
    case CAT_T_TINYINT:
    case CAT_T_SMALLINT:
    case CAT_T_INT:
    case CAT_T_BIGINT:
    case CAT_T_DATE:
    case CAT_T_DATETIME:
        return STOR_VEC_I64;
    case CAT_T_LARGEINT:
    case CAT_T_DECIMAL:
        return STOR_VEC_I128;
    case CAT_T_FLOAT:
    case CAT_T_DOUBLE:
        return STOR_VEC_F64;
    case CAT_T_CHAR:
    case CAT_T_VARCHAR:
    case CAT_T_STRING:
    case CAT_T_JSON: /* normalized JSON text; the planner validates it on write */
        return STOR_VEC_BYTES;
    case CAT_T_ARRAY: /* canonical array text (the planner converts it on write); not of
                       * JSON, MAP or VARIANT elements */
        return strstr(t->inner, "json") || strstr(t->inner, "map") || strstr(t->inner, "variant")
                       ? 0
                       : STOR_VEC_BYTES;
    default:
        return 0;
    }
}

void
stor_segment_info_destroy(stor_segment_info *info)
{
    if (info != NULL) {
        mem_free(info->zones);
        info->zones = NULL;
    }
}

/* ======================================================================================
 * Writer
 * ====================================================================================== */

static void
writer_free(stor_segment_writer *w)
{
    if (w->fd >= 0) {
        close(w->fd);
    }
    for (uint32_t i = 0; i < w->ncols; i++) {
        wcol *c = &w->cols[i];
        mem_free(c->pend.nulls);
        mem_free(c->pend.i64);
        mem_free(c->pend.f64);
        mem_free(c->pend.i128);
        mem_free(c->pend.offs);
        mem_free(c->pend.data);
        mem_free(c->pages);
    }
    mem_free(w->cols);
    buf_destroy(&w->out);
    buf_destroy(&w->raw);
    buf_destroy(&w->comp);
    mem_free(w->path);
    mem_free(w->tmp_path);
    mem_free(w);
}

stor_segment_writer *
stor_segment_writer_open(const char *path, uint32_t ncols, const stor_column_desc *cols,
                         const stor_segment_opts *opts, db_error *err)
{
    if (ncols == 0) {
        db_error_set(err, ER_STOR_BAD_COLUMN, 0u, 0u, "a segment needs at least one column");
        return NULL;
    }
    for (uint32_t i = 0; i < ncols; i++) {
        if (stor_vec_kind_of(&cols[i].type) == 0) {
            db_error_set(err, ER_STOR_BAD_COLUMN, i, cols[i].uid, "type cannot be stored");
            return NULL;
        }
    }
    stor_segment_writer *w = mem_calloc(1, sizeof *w);
    w->fd = -1;
    w->path = mem_strdup(path);
    size_t plen = strlen(path);
    w->tmp_path = mem_alloc(plen + 5);
    memcpy(w->tmp_path, path, plen);
    memcpy(w->tmp_path + plen, ".tmp", 5);
    if (opts != NULL) {
        w->opts = *opts;
    }
    if (w->opts.page_bytes == 0) {
        w->opts.page_bytes = 65536;
    }
    if (w->opts.page_bytes > STOR_PAGE_BYTES_MAX) {
        w->opts.page_bytes = STOR_PAGE_BYTES_MAX;
    }
    if (w->opts.max_page_rows == 0 || w->opts.max_page_rows > STOR_PAGE_MAX_ROWS) {
        w->opts.max_page_rows = w->opts.max_page_rows == 0 ? 65536 : STOR_PAGE_MAX_ROWS;
    }
    if (w->opts.zstd_level == 0) {
        w->opts.zstd_level = 3;
    }
    buf_init(&w->out);
    buf_init(&w->raw);
    buf_init(&w->comp);
    w->ncols = ncols;
    w->cols = mem_calloc(ncols, sizeof *w->cols);
    for (uint32_t i = 0; i < ncols; i++) {
        w->cols[i].desc = cols[i];
        w->cols[i].kind = stor_vec_kind_of(&cols[i].type);
        w->cols[i].pend.kind = w->cols[i].kind;
        stor__zone_init(&w->cols[i].zone);
    }
    w->fd = open(w->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (w->fd < 0) {
        db_error_set(err, ER_IO_ERROR, w->tmp_path, strerror(errno));
        writer_free(w);
        return NULL;
    }
    uint8_t hdr[STOR_SEG_HEADER_SIZE] = {0};
    stor__put_u32(hdr, STOR_SEG_MAGIC);
    stor__put_u32(hdr + 4, STOR_SEG_VERSION);
    buf_append(&w->out, hdr, sizeof hdr);
    w->file_off = sizeof hdr;
    return w;
}

/* Write the buffered bytes when there are many of them, or all of them when force. */
static int
write_out(stor_segment_writer *w, bool force, db_error *err)
{
    if (!force && w->out.len < (1u << 20)) {
        return DB_OK;
    }
    size_t done = 0;
    while (done < w->out.len) {
        ssize_t n = write(w->fd, w->out.data + done, w->out.len - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            w->failed = true;
            return db_error_set(err, ER_IO_ERROR, w->tmp_path, strerror(errno));
        }
        done += (size_t)n;
    }
    buf_clear(&w->out);
    return DB_OK;
}

/* Make room in c's pending vector for rows more rows and bytes more string bytes. */
static void
wcol_reserve(wcol *c, uint32_t rows, uint64_t bytes)
{
    uint32_t need = c->pend.n + rows;
    if (need > c->pend_cap) {
        uint32_t cap = c->pend_cap < 1024 ? 1024 : c->pend_cap;
        while (cap < need) {
            cap *= 2;
        }
        size_t old_bm = ((size_t)c->pend_cap + 7) / 8;
        c->pend.nulls = mem_realloc(c->pend.nulls, ((size_t)cap + 7) / 8);
        memset(c->pend.nulls + old_bm, 0, ((size_t)cap + 7) / 8 - old_bm);
        switch (c->kind) {
        case STOR_VEC_I64:
            c->pend.i64 = mem_realloc(c->pend.i64, (size_t)cap * 8);
            break;
        case STOR_VEC_F64:
            c->pend.f64 = mem_realloc(c->pend.f64, (size_t)cap * 8);
            break;
        case STOR_VEC_I128:
            c->pend.i128 = mem_realloc(c->pend.i128, (size_t)cap * 16);
            break;
        case STOR_VEC_BYTES:
            c->pend.offs = mem_realloc(c->pend.offs, ((size_t)cap + 1) * 8);
            if (c->pend_cap == 0) {
                c->pend.offs[0] = 0;
            }
            break;
        }
        c->pend_cap = cap;
    }
    if (c->kind == STOR_VEC_BYTES) {
        uint64_t used = c->pend.offs[c->pend.n];
        if (used + bytes > c->data_cap || c->pend.data == NULL) {
            uint64_t cap = c->data_cap < 4096 ? 4096 : c->data_cap;
            while (cap < used + bytes) {
                cap *= 2;
            }
            c->pend.data = mem_realloc(c->pend.data, cap);
            c->data_cap = cap;
        }
    }
}

/* Append v's rows to c's pending vector (bits of nulls beyond pend.n are kept clear). */
static void
wcol_copy_rows(wcol *c, const stor_vec *v)
{
    uint64_t bytes = c->kind == STOR_VEC_BYTES ? v->offs[v->n] - v->offs[0] : 0;
    wcol_reserve(c, v->n, bytes);
    uint32_t base = c->pend.n;
    for (uint32_t i = 0; i < v->n; i++) {
        if (stor_vec_is_null(v, i)) {
            uint32_t r = base + i;
            c->pend.nulls[r >> 3] |= (uint8_t)(1u << (r & 7));
        }
    }
    switch (c->kind) {
    case STOR_VEC_I64:
        memcpy(c->pend.i64 + base, v->i64, (size_t)v->n * 8);
        break;
    case STOR_VEC_F64:
        memcpy(c->pend.f64 + base, v->f64, (size_t)v->n * 8);
        break;
    case STOR_VEC_I128:
        memcpy(c->pend.i128 + base, v->i128, (size_t)v->n * 16);
        break;
    case STOR_VEC_BYTES: {
        uint64_t at = c->pend.offs[base];
        if (bytes > 0) {
            memcpy(c->pend.data + at, v->data + v->offs[0], bytes);
        }
        for (uint32_t i = 0; i < v->n; i++) {
            c->pend.offs[base + i + 1] = at + (v->offs[i + 1] - v->offs[0]);
        }
        break;
    }
    }
    c->pend.n += v->n;
}

int
stor_segment_writer_append(stor_segment_writer *w, const stor_vec *cols, db_error *err)
{
    DB_ASSERT(!w->failed);
    uint32_t n = cols[0].n;
    for (uint32_t i = 0; i < w->ncols; i++) {
        const stor_vec *v = &cols[i];
        wcol *c = &w->cols[i];
        if (v->kind != c->kind || v->n != n) {
            w->failed = true;
            return db_error_set(err, ER_STOR_BAD_COLUMN, i, c->desc.uid,
                                "vector kind or row count does not match");
        }
        if (!c->desc.nullable && v->nulls != NULL) {
            for (uint32_t r = 0; r < n; r++) {
                if (stor_vec_is_null(v, r)) {
                    w->failed = true;
                    return db_error_set(err, ER_STOR_BAD_COLUMN, i, c->desc.uid,
                                        "NULL in a NOT NULL column");
                }
            }
        }
        if (c->kind == STOR_VEC_BYTES) {
            for (uint32_t r = 0; r < n; r++) {
                if (v->offs[r + 1] < v->offs[r] || v->offs[r + 1] - v->offs[r] > STOR_STRING_MAX) {
                    w->failed = true;
                    return db_error_set(err, ER_STOR_BAD_COLUMN, i, c->desc.uid,
                                        "string longer than 64 MiB or offsets decreasing");
                }
            }
        }
    }
    if (n == 0) {
        return DB_OK;
    }
    for (uint32_t i = 0; i < w->ncols; i++) {
        wcol_copy_rows(&w->cols[i], &cols[i]);
        if (flush_pages(w, &w->cols[i], false, err) != DB_OK) {
            return DB_ERR;
        }
    }
    w->rows += n;
    return DB_OK;
}

/* Cut full pages off the front of c's pending rows (every row when final). */
static int
flush_pages(stor_segment_writer *w, wcol *c, bool final, db_error *err)
{
    stor_vec *p = &c->pend;
    uint32_t start = 0;
    while (start < p->n) {
        uint32_t k = 0;
        bool full = false;
        if (c->kind == STOR_VEC_BYTES) {
            uint64_t bytes = 0;
            while (start + k < p->n && k < w->opts.max_page_rows) {
                bytes += 4 + p->offs[start + k + 1] - p->offs[start + k];
                k++;
                if (bytes >= w->opts.page_bytes) {
                    break;
                }
            }
            full = bytes >= w->opts.page_bytes || k == w->opts.max_page_rows;
        } else {
            uint32_t width = c->kind == STOR_VEC_I128 ? 16 : 8;
            uint32_t per = w->opts.page_bytes / width;
            per = per == 0 ? 1 : per > w->opts.max_page_rows ? w->opts.max_page_rows : per;
            k = p->n - start < per ? p->n - start : per;
            full = k == per;
        }
        if (!full && !final) {
            break;
        }
        if (emit_page(w, c, start, k, err) != DB_OK) {
            return DB_ERR;
        }
        start += k;
    }
    if (start == 0) {
        return DB_OK;
    }
    /* Move the rest to the front. */
    uint32_t rest = p->n - start;
    for (uint32_t i = 0; i < rest; i++) {
        bool is_null = stor_vec_is_null(p, start + i);
        if (is_null) {
            p->nulls[i >> 3] |= (uint8_t)(1u << (i & 7));
        } else {
            p->nulls[i >> 3] &= (uint8_t) ~(1u << (i & 7));
        }
    }
    memset(p->nulls + (rest + 7) / 8, 0, ((size_t)c->pend_cap + 7) / 8 - (rest + 7) / 8);
    if (rest % 8 != 0) {
        p->nulls[rest / 8] &= (uint8_t)((1u << (rest % 8)) - 1);
    }
    switch (c->kind) {
    case STOR_VEC_I64:
        memmove(p->i64, p->i64 + start, (size_t)rest * 8);
        break;
    case STOR_VEC_F64:
        memmove(p->f64, p->f64 + start, (size_t)rest * 8);
        break;
    case STOR_VEC_I128:
        memmove(p->i128, p->i128 + start, (size_t)rest * 16);
        break;
    case STOR_VEC_BYTES: {
        uint64_t cut = p->offs[start];
        memmove(p->data, p->data + cut, p->offs[p->n] - cut);
        for (uint32_t i = 0; i <= rest; i++) {
            p->offs[i] = p->offs[start + i] - cut;
        }
        break;
    }
    }
    p->n = rest;
    return DB_OK;
}

/* Encode, compress and buffer rows [from, from + n) of c's pending vector as one page. */
static int
emit_page(stor_segment_writer *w, wcol *c, uint32_t from, uint32_t n, db_error *err)
{
    page_ent e = {0};
    stor__page_encode(&c->pend, from, n, &w->raw, &e.enc, &e.info.zone);
    DB_ASSERT(w->raw.len <= STOR_PAGE_MAX_RAW);
    e.comp = stor__page_compress(w->raw.data, w->raw.len, w->opts.zstd_level, &w->comp);
    const buf *stored = e.comp == STOR_COMP_ZSTD ? &w->comp : &w->raw;
    e.offset = w->file_off;
    e.stored_size = (uint32_t)stored->len;
    e.raw_size = (uint32_t)w->raw.len;
    e.crc = crc32c(stored->data, stored->len); /* I4 */
    e.info.first_row = c->rows_done;
    e.info.nrows = n;
    buf_append(&w->out, stored->data, stored->len);
    w->file_off += stored->len;
    if (c->npages == c->pages_cap) {
        c->pages_cap = c->pages_cap == 0 ? 16 : c->pages_cap * 2;
        c->pages = mem_realloc(c->pages, (size_t)c->pages_cap * sizeof *c->pages);
    }
    c->pages[c->npages++] = e;
    c->rows_done += n;
    c->enc_mask |= (uint8_t)(1u << e.enc);
    c->stored_bytes += e.stored_size;
    c->raw_bytes += e.raw_size;
    stor__zone_merge(&c->zone, &e.info.zone, c->kind);
    return write_out(w, false, err);
}

/* One 104-byte directory entry (README.md §Formats "Page directory entry"). */
static void
put_dir_entry(uint8_t *p, const page_ent *e, stor_vec_kind kind)
{
    memset(p, 0, STOR_SEG_DIR_ENTRY);
    stor__put_u64(p, e->offset);
    stor__put_u32(p + 8, e->stored_size);
    stor__put_u32(p + 12, e->raw_size);
    stor__put_u64(p + 16, e->info.first_row);
    stor__put_u32(p + 24, e->info.nrows);
    stor__put_u32(p + 28, (uint32_t)e->info.zone.null_count);
    p[32] = e->comp;
    p[33] = e->enc;
    p[34] = stor__zone_put(&e->info.zone, kind, p + 40, p + 72);
    stor__put_u32(p + 36, e->crc);
}

static int
fsync_dir_of(const char *path, db_error *err)
{
    char *copy = mem_strdup(path);
    int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc = DB_OK;
    if (dfd < 0 || fsync(dfd) != 0) {
        rc = db_error_set(err, ER_IO_ERROR, path, strerror(errno));
    }
    if (dfd >= 0) {
        close(dfd);
    }
    mem_free(copy);
    return rc;
}

int
stor_segment_writer_finish(stor_segment_writer *w, stor_segment_info *info, db_error *err)
{
    DB_ASSERT(!w->failed);
    int rc = DB_ERR;
    uint64_t *dir_off = mem_calloc(w->ncols, sizeof *dir_off);
    uint32_t *dir_size = mem_calloc(w->ncols, sizeof *dir_size);
    for (uint32_t i = 0; i < w->ncols; i++) {
        if (flush_pages(w, &w->cols[i], true, err) != DB_OK) {
            goto out;
        }
    }
    /* Page directories, one block per column. */
    for (uint32_t i = 0; i < w->ncols; i++) {
        wcol *c = &w->cols[i];
        size_t start = w->out.len;
        buf_put_u32le(&w->out, c->npages);
        buf_put_u32le(&w->out, 0);
        for (uint32_t k = 0; k < c->npages; k++) {
            uint8_t *p = buf_reserve(&w->out, STOR_SEG_DIR_ENTRY);
            put_dir_entry(p, &c->pages[k], c->kind);
            w->out.len += STOR_SEG_DIR_ENTRY;
        }
        buf_put_u32le(&w->out, crc32c(w->out.data + start, w->out.len - start));
        dir_off[i] = w->file_off;
        dir_size[i] = (uint32_t)(w->out.len - start);
        w->file_off += dir_size[i];
    }
    /* Short-key index over the first key column. */
    uint32_t key_col = STOR_SEG_NO_KEY;
    for (uint32_t i = 0; i < w->ncols && key_col == STOR_SEG_NO_KEY; i++) {
        if (w->cols[i].desc.is_key) {
            key_col = i;
        }
    }
    uint64_t ski_off = 0;
    uint32_t ski_size = 0;
    if (key_col != STOR_SEG_NO_KEY) {
        wcol *c = &w->cols[key_col];
        size_t start = w->out.len;
        buf_put_u32le(&w->out, key_col);
        buf_put_u32le(&w->out, c->npages);
        for (uint32_t k = 0; k < c->npages; k++) {
            uint8_t *p = buf_reserve(&w->out, STOR_SEG_SKI_ENTRY);
            memset(p, 0, STOR_SEG_SKI_ENTRY);
            stor__put_u64(p, c->pages[k].info.first_row);
            stor__put_u32(p + 8, c->pages[k].info.nrows);
            p[12] = stor__zone_put(&c->pages[k].info.zone, c->kind, p + 16, p + 48);
            w->out.len += STOR_SEG_SKI_ENTRY;
        }
        buf_put_u32le(&w->out, crc32c(w->out.data + start, w->out.len - start));
        ski_off = w->file_off;
        ski_size = (uint32_t)(w->out.len - start);
        w->file_off += ski_size;
    }
    /* Footer. */
    size_t fstart = w->out.len;
    buf_put_u32le(&w->out, w->ncols);
    buf_put_u32le(&w->out, key_col);
    buf_put_u64le(&w->out, w->rows);
    buf_put_u64le(&w->out, ski_off);
    buf_put_u32le(&w->out, ski_size);
    buf_put_u32le(&w->out, 0);
    for (uint32_t i = 0; i < w->ncols; i++) {
        wcol *c = &w->cols[i];
        uint8_t *p = buf_reserve(&w->out, STOR_SEG_FOOTER_COL);
        memset(p, 0, STOR_SEG_FOOTER_COL);
        stor__put_u32(p, c->desc.uid);
        p[4] = c->desc.type.id;
        p[5] = c->desc.type.precision;
        p[6] = c->desc.type.scale;
        p[7] = (uint8_t)((c->desc.is_key ? 1 : 0) | (c->desc.nullable ? 2 : 0));
        stor__put_u32(p + 8, (uint32_t)c->desc.type.len);
        p[12] = (uint8_t)c->kind;
        p[13] = c->enc_mask;
        stor__put_u64(p + 16, dir_off[i]);
        stor__put_u32(p + 24, dir_size[i]);
        stor__put_u32(p + 28, c->npages);
        stor__put_u64(p + 32, c->stored_bytes);
        stor__put_u64(p + 40, c->raw_bytes);
        w->out.len += STOR_SEG_FOOTER_COL;
    }
    buf_put_u32le(&w->out, crc32c(w->out.data + fstart, w->out.len - fstart)); /* I4 */
    uint64_t footer_off = w->file_off;
    uint32_t footer_len = (uint32_t)(w->out.len - fstart);
    w->file_off += footer_len;
    buf_put_u64le(&w->out, footer_off);
    buf_put_u32le(&w->out, footer_len);
    buf_put_u32le(&w->out, STOR_SEG_MAGIC);
    w->file_off += STOR_SEG_TRAILER_SIZE;
    if (write_out(w, true, err) != DB_OK) {
        goto out;
    }
    if (!w->opts.no_fsync && fsync(w->fd) != 0) {
        db_error_set(err, ER_IO_ERROR, w->tmp_path, strerror(errno));
        goto out;
    }
    if (close(w->fd) != 0) {
        w->fd = -1;
        db_error_set(err, ER_IO_ERROR, w->tmp_path, strerror(errno));
        goto out;
    }
    w->fd = -1;
    if (rename(w->tmp_path, w->path) != 0) {
        db_error_set(err, ER_IO_ERROR, w->path, strerror(errno));
        goto out;
    }
    if (!w->opts.no_fsync && fsync_dir_of(w->path, err) != DB_OK) {
        goto out;
    }
    if (info != NULL) {
        info->rows = w->rows;
        info->file_bytes = w->file_off;
        info->ncols = w->ncols;
        info->zones = mem_calloc(w->ncols, sizeof *info->zones);
        for (uint32_t i = 0; i < w->ncols; i++) {
            info->zones[i] = w->cols[i].zone;
        }
    }
    rc = DB_OK;
out:
    if (rc != DB_OK) {
        unlink(w->tmp_path);
    }
    mem_free(dir_off);
    mem_free(dir_size);
    writer_free(w);
    return rc;
}

void
stor_segment_writer_abort(stor_segment_writer *w)
{
    if (w == NULL) {
        return;
    }
    unlink(w->tmp_path);
    writer_free(w);
}

/* ======================================================================================
 * Reader
 * ====================================================================================== */

static int
corrupt(const stor_segment_reader *r, uint64_t off, const char *why, db_error *err)
{
    return db_error_set(err, ER_STOR_CORRUPT, r->path, (unsigned long long)off, why);
}

/* Read exactly len bytes at off; a short read is corruption (the file is shorter than its
 * metadata says). */
static int
pread_all(stor_segment_reader *r, void *dst, size_t len, uint64_t off, db_error *err)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = pread(r->fd, (uint8_t *)dst + done, len - done, (off_t)(off + done));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return db_error_set(err, ER_IO_ERROR, r->path, strerror(errno));
        }
        if (n == 0) {
            return corrupt(r, off + done, "unexpected end of file", err);
        }
        done += (size_t)n;
    }
    return DB_OK;
}

stor_segment_reader *
stor_segment_reader_open(const char *path, db_error *err)
{
    stor_segment_reader *r = mem_calloc(1, sizeof *r);
    r->path = mem_strdup(path);
    r->key_col = STOR_SEG_NO_KEY;
    buf_init(&r->io);
    buf_init(&r->raw);
    r->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (r->fd < 0) {
        db_error_set(err, ER_IO_ERROR, path, strerror(errno));
        goto fail;
    }
    struct stat st;
    if (fstat(r->fd, &st) != 0) {
        db_error_set(err, ER_IO_ERROR, path, strerror(errno));
        goto fail;
    }
    r->file_size = (uint64_t)st.st_size;
    r->ckey.dev = (uint64_t)st.st_dev;
    r->ckey.ino = (uint64_t)st.st_ino;
    r->ckey.file_size = r->file_size;
    r->ckey.mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
    if (load_footer(r, err) != DB_OK) {
        goto fail;
    }
    return r;
fail:
    stor_segment_reader_close(r);
    return NULL;
}

void
stor_segment_reader_set_cache(stor_segment_reader *r, stor_cache *cache)
{
    r->cache = cache;
}

void
stor_segment_reader_trim(stor_segment_reader *r)
{
    for (uint32_t i = 0; i < r->ncols; i++) {
        arena_free(r->cols[i].memo_arena);
        r->cols[i].memo_arena = NULL;
        r->cols[i].memo_page = UINT32_MAX;
    }
    arena_free(r->scratch);
    r->scratch = NULL;
}

void
stor_segment_reader_close(stor_segment_reader *r)
{
    if (r == NULL) {
        return;
    }
    if (r->fd >= 0) {
        close(r->fd);
    }
    stor_segment_reader_trim(r);
    for (uint32_t i = 0; i < r->ncols; i++) {
        mem_free(r->cols[i].pages);
    }
    mem_free(r->cols);
    mem_free(r->ski);
    ZSTD_freeDCtx(r->dctx);
    buf_destroy(&r->io);
    buf_destroy(&r->raw);
    mem_free(r->path);
    mem_free(r);
}

/* Header, trailer, footer, then every directory and the short-key index. */
static int
load_footer(stor_segment_reader *r, db_error *err)
{
    uint8_t hdr[STOR_SEG_HEADER_SIZE], tr[STOR_SEG_TRAILER_SIZE];
    if (r->file_size < STOR_SEG_HEADER_SIZE + STOR_SEG_FOOTER_FIXED + 4 + STOR_SEG_TRAILER_SIZE) {
        return corrupt(r, 0, "file too short for a segment", err);
    }
    if (pread_all(r, hdr, sizeof hdr, 0, err) != DB_OK) {
        return DB_ERR;
    }
    if (stor__get_u32(hdr) != STOR_SEG_MAGIC) {
        return corrupt(r, 0, "bad magic", err);
    }
    if (stor__get_u32(hdr + 4) != STOR_SEG_VERSION || stor__get_u64(hdr + 8) != 0) {
        return corrupt(r, 4, "unsupported segment version", err);
    }
    uint64_t toff = r->file_size - STOR_SEG_TRAILER_SIZE;
    if (pread_all(r, tr, sizeof tr, toff, err) != DB_OK) {
        return DB_ERR;
    }
    uint64_t foff = stor__get_u64(tr);
    uint32_t flen = stor__get_u32(tr + 8);
    if (stor__get_u32(tr + 12) != STOR_SEG_MAGIC) {
        return corrupt(r, toff + 12, "bad trailer magic", err);
    }
    if (flen < STOR_SEG_FOOTER_FIXED + 4 || flen > STOR_SEG_FOOTER_MAX ||
        foff < STOR_SEG_HEADER_SIZE || foff > toff || toff - foff != flen) {
        return corrupt(r, toff, "footer position out of range", err);
    }
    uint8_t *f = mem_alloc(flen);
    int rc = DB_ERR;
    if (pread_all(r, f, flen, foff, err) != DB_OK) {
        goto out;
    }
    if (crc32c(f, flen - 4) != stor__get_u32(f + flen - 4)) { /* I4 */
        corrupt(r, foff, "footer checksum mismatch", err);
        goto out;
    }
    uint32_t ncols = stor__get_u32(f);
    if (ncols == 0 || (uint64_t)ncols * STOR_SEG_FOOTER_COL + STOR_SEG_FOOTER_FIXED + 4 != flen) {
        corrupt(r, foff, "footer column count disagrees with its length", err);
        goto out;
    }
    r->key_col = stor__get_u32(f + 4);
    r->rows = stor__get_u64(f + 8);
    uint64_t ski_off = stor__get_u64(f + 16);
    uint32_t ski_size = stor__get_u32(f + 24);
    if (r->key_col != STOR_SEG_NO_KEY && r->key_col >= ncols) {
        corrupt(r, foff + 4, "short-key column out of range", err);
        goto out;
    }
    r->cols = mem_calloc(ncols, sizeof *r->cols);
    r->ncols = ncols;
    for (uint32_t i = 0; i < ncols; i++) {
        const uint8_t *p = f + STOR_SEG_FOOTER_FIXED + (size_t)i * STOR_SEG_FOOTER_COL;
        uint64_t at = foff + STOR_SEG_FOOTER_FIXED + (uint64_t)i * STOR_SEG_FOOTER_COL;
        rcol *c = &r->cols[i];
        c->memo_page = UINT32_MAX;
        c->desc.uid = stor__get_u32(p);
        c->desc.type.id = p[4];
        c->desc.type.precision = p[5];
        c->desc.type.scale = p[6];
        c->desc.is_key = (p[7] & 1) != 0;
        c->desc.nullable = (p[7] & 2) != 0;
        c->desc.type.len = (int32_t)stor__get_u32(p + 8);
        c->kind = p[12];
        c->enc_mask = p[13];
        if (p[7] > 3 || c->kind == 0 || stor_vec_kind_of(&c->desc.type) != c->kind) {
            corrupt(r, at, "bad column type", err);
            goto out;
        }
        uint32_t npages = stor__get_u32(p + 28);
        uint32_t dsize = stor__get_u32(p + 24);
        if ((uint64_t)npages * STOR_SEG_DIR_ENTRY + STOR_SEG_DIR_FIXED + 4 != dsize) {
            corrupt(r, at + 24, "directory size disagrees with its page count", err);
            goto out;
        }
        if (load_dir(r, c, stor__get_u64(p + 16), dsize, foff, err) != DB_OK) {
            goto out;
        }
    }
    if (r->key_col != STOR_SEG_NO_KEY && load_ski(r, ski_off, ski_size, foff, err) != DB_OK) {
        goto out;
    }
    rc = DB_OK;
out:
    mem_free(f);
    return rc;
}

/* Read and check one column's page directory at off (size bytes, before data_end). */
static int
load_dir(stor_segment_reader *r, rcol *c, uint64_t off, uint32_t size, uint64_t data_end,
         db_error *err)
{
    if (off < STOR_SEG_HEADER_SIZE || off > data_end || data_end - off < size) {
        return corrupt(r, off, "page directory out of range", err);
    }
    uint8_t *d = mem_alloc(size);
    int rc = DB_ERR;
    if (pread_all(r, d, size, off, err) != DB_OK) {
        goto out;
    }
    if (crc32c(d, size - 4) != stor__get_u32(d + size - 4)) { /* I4 */
        corrupt(r, off, "page directory checksum mismatch", err);
        goto out;
    }
    uint32_t npages = stor__get_u32(d);
    if ((uint64_t)npages * STOR_SEG_DIR_ENTRY + STOR_SEG_DIR_FIXED + 4 != size) {
        corrupt(r, off, "page directory count disagrees with its size", err);
        goto out;
    }
    c->pages = mem_calloc(npages == 0 ? 1 : npages, sizeof *c->pages);
    c->npages = npages;
    uint64_t next_row = 0;
    for (uint32_t k = 0; k < npages; k++) {
        const uint8_t *p = d + STOR_SEG_DIR_FIXED + (size_t)k * STOR_SEG_DIR_ENTRY;
        uint64_t at = off + STOR_SEG_DIR_FIXED + (uint64_t)k * STOR_SEG_DIR_ENTRY;
        page_ent *e = &c->pages[k];
        e->offset = stor__get_u64(p);
        e->stored_size = stor__get_u32(p + 8);
        e->raw_size = stor__get_u32(p + 12);
        e->info.first_row = stor__get_u64(p + 16);
        e->info.nrows = stor__get_u32(p + 24);
        e->info.zone.nrows = e->info.nrows;
        e->info.zone.null_count = stor__get_u32(p + 28);
        e->comp = p[32];
        e->enc = p[33];
        e->crc = stor__get_u32(p + 36);
        bool ok = e->offset >= STOR_SEG_HEADER_SIZE && e->offset <= data_end &&
                  data_end - e->offset >= e->stored_size && e->info.first_row == next_row &&
                  e->info.nrows >= 1 && e->info.nrows <= STOR_PAGE_MAX_ROWS &&
                  e->info.zone.null_count <= e->info.nrows && e->comp <= STOR_COMP_ZSTD &&
                  stor__enc_valid(c->kind, e->enc) && e->raw_size <= STOR_PAGE_MAX_RAW &&
                  (e->comp != STOR_COMP_NONE || e->raw_size == e->stored_size) && p[34] <= 3 &&
                  stor__zone_get(&e->info.zone, c->kind, p[34], p + 40, p + 72);
        if (!ok) {
            corrupt(r, at, "bad page directory entry", err);
            goto out;
        }
        next_row += e->info.nrows;
    }
    if (next_row != r->rows) {
        corrupt(r, off, "page directory row count disagrees with the footer", err);
        goto out;
    }
    rc = DB_OK;
out:
    mem_free(d);
    return rc;
}

/* Read and check the short-key index; it must mirror the key column's directory. */
static int
load_ski(stor_segment_reader *r, uint64_t off, uint32_t size, uint64_t data_end, db_error *err)
{
    const rcol *c = &r->cols[r->key_col];
    if (off < STOR_SEG_HEADER_SIZE || off > data_end || data_end - off < size ||
        (uint64_t)c->npages * STOR_SEG_SKI_ENTRY + STOR_SEG_SKI_FIXED + 4 != size) {
        return corrupt(r, off, "short-key index out of range", err);
    }
    uint8_t *d = mem_alloc(size);
    int rc = DB_ERR;
    if (pread_all(r, d, size, off, err) != DB_OK) {
        goto out;
    }
    if (crc32c(d, size - 4) != stor__get_u32(d + size - 4)) { /* I4 */
        corrupt(r, off, "short-key index checksum mismatch", err);
        goto out;
    }
    if (stor__get_u32(d) != r->key_col || stor__get_u32(d + 4) != c->npages) {
        corrupt(r, off, "short-key index header disagrees with the footer", err);
        goto out;
    }
    r->ski = mem_calloc(c->npages == 0 ? 1 : c->npages, sizeof *r->ski);
    r->nski = c->npages;
    for (uint32_t k = 0; k < c->npages; k++) {
        const uint8_t *p = d + STOR_SEG_SKI_FIXED + (size_t)k * STOR_SEG_SKI_ENTRY;
        stor_page_info *e = &r->ski[k];
        e->first_row = stor__get_u64(p);
        e->nrows = stor__get_u32(p + 8);
        e->zone.nrows = e->nrows;
        if (e->first_row != c->pages[k].info.first_row || e->nrows != c->pages[k].info.nrows ||
            p[12] > 3 || !stor__zone_get(&e->zone, c->kind, p[12], p + 16, p + 48)) {
            corrupt(r, off + STOR_SEG_SKI_FIXED + (uint64_t)k * STOR_SEG_SKI_ENTRY,
                    "bad short-key index entry", err);
            goto out;
        }
    }
    rc = DB_OK;
out:
    mem_free(d);
    return rc;
}

uint64_t
stor_segment_reader_rows(const stor_segment_reader *r)
{
    return r->rows;
}

uint32_t
stor_segment_reader_ncols(const stor_segment_reader *r)
{
    return r->ncols;
}

const stor_column_desc *
stor_segment_reader_column(const stor_segment_reader *r, uint32_t col)
{
    DB_ASSERT(col < r->ncols);
    return &r->cols[col].desc;
}

int
stor_segment_reader_find_uid(const stor_segment_reader *r, uint32_t uid)
{
    for (uint32_t i = 0; i < r->ncols; i++) {
        if (r->cols[i].desc.uid == uid) {
            return (int)i;
        }
    }
    return -1;
}

uint32_t
stor_segment_reader_npages(const stor_segment_reader *r, uint32_t col)
{
    DB_ASSERT(col < r->ncols);
    return r->cols[col].npages;
}

const stor_page_info *
stor_segment_reader_page(const stor_segment_reader *r, uint32_t col, uint32_t page)
{
    DB_ASSERT(col < r->ncols && page < r->cols[col].npages);
    return &r->cols[col].pages[page].info;
}

stor_zone
stor_segment_reader_zone(const stor_segment_reader *r, uint32_t col)
{
    DB_ASSERT(col < r->ncols);
    stor_zone z;
    stor__zone_init(&z);
    for (uint32_t k = 0; k < r->cols[col].npages; k++) {
        stor__zone_merge(&z, &r->cols[col].pages[k].info.zone, r->cols[col].kind);
    }
    return z;
}

/* pread page e, check its CRC and decompress it; *raw points into r's scratch (r->io or r->raw)
 * until the next read. Errors as stor_segment_read_page. */
static int
load_page_raw(stor_segment_reader *r, const page_ent *e, const uint8_t **raw, db_error *err)
{
    buf_clear(&r->io);
    uint8_t *p = buf_reserve(&r->io, (size_t)e->stored_size + 1);
    if (pread_all(r, p, e->stored_size, e->offset, err) != DB_OK) {
        return DB_ERR;
    }
    if (crc32c(p, e->stored_size) != e->crc) { /* I4 */
        return corrupt(r, e->offset, "page checksum mismatch", err);
    }
    *raw = p;
    if (e->comp == STOR_COMP_ZSTD) {
        if (ZSTD_getFrameContentSize(p, e->stored_size) != e->raw_size) {
            return corrupt(r, e->offset, "compressed page header disagrees with its size", err);
        }
        if (r->dctx == NULL) {
            r->dctx = ZSTD_createDCtx();
            DB_ASSERT(r->dctx != NULL);
        }
        buf_clear(&r->raw);
        uint8_t *q = buf_reserve(&r->raw, (size_t)e->raw_size + 1);
        size_t got = ZSTD_decompressDCtx(r->dctx, q, e->raw_size, p, e->stored_size);
        if (ZSTD_isError(got) || got != e->raw_size) {
            return corrupt(r, e->offset, "page does not decompress to its recorded size", err);
        }
        *raw = q;
    }
    return DB_OK;
}

/* The checked, decompressed bytes of page `page` of col: *raw points into the cache entry *ce
 * (pinned; release with page_put) or, when *ce is NULL, into r's scratch until the next load.
 * With a cache, a miss loads the page as without one and offers the bytes to the cache (only
 * bytes that passed I4 are ever cached). Errors as stor_segment_read_page. */
static int
page_get(stor_segment_reader *r, const page_ent *e, const uint8_t **raw, stor_cache_entry **ce,
         db_error *err)
{
    *ce = NULL;
    if (r->cache == NULL) {
        return load_page_raw(r, e, raw, err);
    }
    stor_cache_key k = r->ckey;
    k.offset = e->offset;
    *ce = stor_cache_lookup(r->cache, &k);
    if (*ce == NULL) {
        if (load_page_raw(r, e, raw, err) != DB_OK) {
            return DB_ERR;
        }
        *ce = stor_cache_insert(r->cache, &k, *raw, e->raw_size);
    }
    if (*ce != NULL) {
        DB_ASSERT(stor_cache_entry_len(*ce) == e->raw_size);
        *raw = stor_cache_entry_data(*ce);
    }
    return DB_OK;
}

static void
page_put(stor_segment_reader *r, stor_cache_entry *ce)
{
    if (ce != NULL) {
        stor_cache_release(r->cache, ce);
    }
}

int
stor_segment_read_page(stor_segment_reader *r, uint32_t col, uint32_t page, arena *a, stor_vec *out,
                       db_error *err)
{
    DB_ASSERT(col < r->ncols && page < r->cols[col].npages);
    const rcol *c = &r->cols[col];
    const page_ent *e = &c->pages[page];
    stor_cache_entry *ce;
    const uint8_t *raw;
    if (page_get(r, e, &raw, &ce, err) != DB_OK) {
        return DB_ERR;
    }
    const char *why = stor__page_decode(c->kind, raw, e->raw_size, e->info.nrows,
                                        (uint32_t)e->info.zone.null_count, a, out);
    page_put(r, ce);
    if (why != NULL) {
        return corrupt(r, e->offset, why, err);
    }
    return DB_OK;
}

/* Rows [lo, lo + cnt) of page `page` of col into *out (arena a): a small slice is read through
 * a page view (only those rows are decoded), a large one by decoding the whole page. */
static int
read_page_rows(stor_segment_reader *r, uint32_t col, uint32_t page, uint32_t lo, uint32_t cnt,
               arena *a, stor_vec *out, db_error *err)
{
    rcol *c = &r->cols[col];
    const page_ent *e = &c->pages[page];
    if ((uint64_t)cnt * STOR_SLICE_FRACTION >= e->info.nrows) {
        if (c->memo_page != page) {
            if (c->memo_arena == NULL) {
                c->memo_arena = arena_new(0);
            }
            arena_reset(c->memo_arena);
            c->memo_page = UINT32_MAX;
            if (stor_segment_read_page(r, col, page, c->memo_arena, &c->memo, err) != DB_OK) {
                return DB_ERR;
            }
            c->memo_page = page;
        }
        *out = c->memo;
        return DB_OK;
    }
    stor_cache_entry *ce;
    const uint8_t *raw;
    if (page_get(r, e, &raw, &ce, err) != DB_OK) {
        return DB_ERR;
    }
    stor__page_view v;
    const char *why = stor__page_view_init(&v, c->kind, raw, e->raw_size, e->info.nrows,
                                           (uint32_t)e->info.zone.null_count, a);
    if (why == NULL) {
        why = stor__page_view_rows(&v, lo, cnt, a, out);
    }
    page_put(r, ce);
    if (why != NULL) {
        return corrupt(r, e->offset, why, err);
    }
    return DB_OK;
}

/* Index of the page of c holding row `row` (row < rows). */
static uint32_t
page_of_row(const rcol *c, uint64_t row)
{
    uint32_t lo = 0, hi = c->npages;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->pages[mid].info.first_row <= row) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

int
stor_segment_read_rows(stor_segment_reader *r, uint32_t col, uint64_t from, uint64_t to, arena *a,
                       stor_vec *out, db_error *err)
{
    DB_ASSERT(col < r->ncols && from <= to && to <= r->rows && to - from <= UINT32_MAX);
    const rcol *c = &r->cols[col];
    uint32_t n = (uint32_t)(to - from);
    memset(out, 0, sizeof *out);
    out->kind = c->kind;
    out->n = n;
    size_t width = c->kind == STOR_VEC_I128 ? 16 : 8;
    if (c->kind == STOR_VEC_BYTES) {
        out->offs = arena_alloc(a, ((size_t)n + 1) * sizeof *out->offs);
        out->offs[0] = 0;
    } else {
        void *vals = arena_alloc(a, (size_t)n * width + 1);
        out->i64 = c->kind == STOR_VEC_I64 ? vals : NULL;
        out->f64 = c->kind == STOR_VEC_F64 ? vals : NULL;
        out->i128 = c->kind == STOR_VEC_I128 ? vals : NULL;
    }
    uint8_t *nulls = arena_calloc(a, 1, ((size_t)n + 7) / 8 + 1);
    bool any_null = false;
    buf data;
    buf_init(&data);
    if (r->scratch == NULL) {
        r->scratch = arena_new(0);
    }
    arena *scratch = r->scratch;
    int rc = DB_ERR;
    uint32_t done = 0;
    for (uint32_t k = n == 0 ? c->npages : page_of_row(c, from); done < n; k++) {
        const page_ent *e = &c->pages[k];
        stor_vec pv;
        arena_reset(scratch);
        uint32_t lo = (uint32_t)(from + done - e->info.first_row);
        uint32_t cnt = e->info.nrows - lo < n - done ? e->info.nrows - lo : n - done;
        if (read_page_rows(r, col, k, lo, cnt, scratch, &pv, err) != DB_OK) {
            goto out;
        }
        if (pv.n == cnt) {
            lo = 0; /* the slice alone was decoded */
        }
        for (uint32_t i = 0; pv.nulls != NULL && i < cnt; i++) {
            if (stor_vec_is_null(&pv, lo + i)) {
                nulls[(done + i) >> 3] |= (uint8_t)(1u << ((done + i) & 7));
                any_null = true;
            }
        }
        switch (c->kind) {
        case STOR_VEC_I64:
            memcpy(out->i64 + done, pv.i64 + lo, (size_t)cnt * 8);
            break;
        case STOR_VEC_F64:
            memcpy(out->f64 + done, pv.f64 + lo, (size_t)cnt * 8);
            break;
        case STOR_VEC_I128:
            memcpy(out->i128 + done, pv.i128 + lo, (size_t)cnt * 16);
            break;
        case STOR_VEC_BYTES: {
            uint64_t base = pv.offs[lo];
            buf_append(&data, pv.data + base, pv.offs[lo + cnt] - base);
            for (uint32_t i = 0; i < cnt; i++) {
                out->offs[done + i + 1] = out->offs[done] + (pv.offs[lo + i + 1] - base);
            }
            break;
        }
        }
        done += cnt;
    }
    if (c->kind == STOR_VEC_BYTES) {
        out->data = arena_alloc(a, data.len + 1);
        if (data.len > 0) {
            memcpy(out->data, data.data, data.len);
        }
    }
    out->nulls = any_null ? nulls : NULL;
    rc = DB_OK;
out:
    arena_reset(scratch);
    buf_destroy(&data);
    return rc;
}

int
stor_segment_read_columns(stor_segment_reader *r, const uint32_t *cols, uint32_t ncols,
                          uint64_t from, uint64_t to, arena *a, stor_vec *outs, db_error *err)
{
    for (uint32_t i = 0; i < ncols; i++) {
        if (stor_segment_read_rows(r, cols[i], from, to, a, &outs[i], err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

/* Compare key k with a page's min: <0, 0, >0 as k is below, at or above the min (a truncated
 * string min is a lower bound, so "above" stays safe). */
static int
key_cmp_lo(stor_vec_kind kind, const stor_key *k, const stor_zone *z)
{
    switch (kind) {
    case STOR_VEC_I64:
        return k->i64 < z->min_i64 ? -1 : k->i64 > z->min_i64;
    case STOR_VEC_F64:
        return k->f64 < z->min_f64 ? -1 : k->f64 > z->min_f64;
    case STOR_VEC_I128:
        return k->i128 < z->min_i128 ? -1 : k->i128 > z->min_i128;
    case STOR_VEC_BYTES:
        return stor__bytes_cmp(k->str, k->len, z->min_str, z->min_len);
    }
    return 0;
}

/* Compare key k with a page's max: >0 only when k is certainly above every value. */
static int
key_cmp_hi(stor_vec_kind kind, const stor_key *k, const stor_zone *z)
{
    switch (kind) {
    case STOR_VEC_I64:
        return k->i64 < z->max_i64 ? -1 : k->i64 > z->max_i64;
    case STOR_VEC_F64:
        return k->f64 < z->max_f64 ? -1 : k->f64 > z->max_f64;
    case STOR_VEC_I128:
        return k->i128 < z->max_i128 ? -1 : k->i128 > z->max_i128;
    case STOR_VEC_BYTES:
        if (z->max_truncated) {
            size_t m = k->len < z->max_len ? k->len : z->max_len;
            int c = stor__bytes_cmp(k->str, m, z->max_str, z->max_len);
            return c > 0 ? 1 : -1;
        }
        return stor__bytes_cmp(k->str, k->len, z->max_str, z->max_len);
    }
    return 0;
}

void
stor_segment_key_range(const stor_segment_reader *r, const stor_key *lo, const stor_key *hi,
                       uint64_t *from, uint64_t *to)
{
    if (r->key_col == STOR_SEG_NO_KEY) {
        *from = 0;
        *to = r->rows;
        return;
    }
    stor_vec_kind kind = r->cols[r->key_col].kind;
    bool found = false;
    *from = *to = 0;
    for (uint32_t k = 0; k < r->nski; k++) {
        const stor_page_info *e = &r->ski[k];
        if (!e->zone.has_minmax) {
            continue; /* all keys NULL: no bound matches */
        }
        if (lo != NULL && key_cmp_hi(kind, lo, &e->zone) > 0) {
            continue;
        }
        if (hi != NULL && key_cmp_lo(kind, hi, &e->zone) < 0) {
            continue;
        }
        if (!found) {
            *from = e->first_row;
            found = true;
        }
        *to = e->first_row + e->nrows;
    }
}


static void
page_unhold(stor_segment_reader *r, held_page *h)
{
    if (h->valid) {
        page_put(r, h->ce);
    }
    h->valid = false;
}

/* Binary search for a bound of k in rows [from, to) of page `page` of col (see
 * stor__page_view_bound); *pos is a segment row ordinal. The page stays held in h. */
static int
page_bound(stor_segment_reader *r, uint32_t col, uint32_t page, uint64_t from, uint64_t to,
           const stor_key *k, bool upper, arena *scratch, held_page *h, uint64_t *pos,
           db_error *err)
{
    const rcol *c = &r->cols[col];
    const page_ent *e = &c->pages[page];
    const char *why = NULL;
    if (!h->valid || h->page != page) {
        page_unhold(r, h);
        arena_reset(scratch);
        const uint8_t *raw;
        if (page_get(r, e, &raw, &h->ce, err) != DB_OK) {
            return DB_ERR;
        }
        h->valid = true;
        h->page = page;
        why = stor__page_view_init(&h->v, c->kind, raw, e->raw_size, e->info.nrows,
                                   (uint32_t)e->info.zone.null_count, scratch);
    }
    uint64_t first = e->info.first_row;
    uint32_t p = 0;
    if (why == NULL) {
        why = stor__page_view_bound(&h->v, (uint32_t)(from - first), (uint32_t)(to - first), k,
                                    upper, &p);
    }
    if (why != NULL) {
        page_unhold(r, h);
        return corrupt(r, e->offset, why, err);
    }
    *pos = first + p;
    return DB_OK;
}

int
stor__segment_narrow(stor_segment_reader *r, uint32_t col, uint64_t from, uint64_t to,
                     const stor_key *lo, const stor_key *hi, uint64_t *nfrom, uint64_t *nto,
                     db_error *err)
{
    DB_ASSERT(col < r->ncols && from <= to && to <= r->rows);
    const rcol *c = &r->cols[col];
    *nfrom = *nto = from;
    if (from == to) {
        return DB_OK;
    }
    arena *scratch = arena_new(0);
    held_page h = {0};
    int rc = DB_ERR;
    /* lower bound: the first row >= lo (or the first non-NULL row), scanning pages forward;
     * the values ascend across pages, so the first page with a row >= lo holds it */
    uint64_t lb = to;
    uint32_t first_page = page_of_row(c, from), last_page = page_of_row(c, to - 1);
    for (uint32_t k = first_page; k <= last_page; k++) {
        const page_ent *e = &c->pages[k];
        uint64_t pf = e->info.first_row > from ? e->info.first_row : from;
        uint64_t pt =
                e->info.first_row + e->info.nrows < to ? e->info.first_row + e->info.nrows : to;
        if (e->info.zone.null_count == e->info.nrows) {
            continue; /* all NULL: below every key */
        }
        uint64_t pos;
        if (page_bound(r, col, k, pf, pt, lo, false, scratch, &h, &pos, err) != DB_OK) {
            goto out;
        }
        if (pos < pt) {
            lb = pos;
            break;
        }
    }
    /* upper bound: one past the last row <= hi, scanning pages backward from the end */
    uint64_t ub = lb;
    if (hi == NULL) {
        ub = to;
    } else {
        for (uint32_t k = last_page + 1; k-- > first_page;) {
            const page_ent *e = &c->pages[k];
            uint64_t pf = e->info.first_row > lb ? e->info.first_row : lb;
            uint64_t pt =
                    e->info.first_row + e->info.nrows < to ? e->info.first_row + e->info.nrows : to;
            if (pf >= pt) {
                break; /* reached the lower bound: nothing in [lo, hi] */
            }
            uint64_t pos;
            if (page_bound(r, col, k, pf, pt, hi, true, scratch, &h, &pos, err) != DB_OK) {
                goto out;
            }
            if (pos > pf) {
                ub = pos;
                break;
            }
        }
    }
    *nfrom = lb;
    *nto = ub > lb ? ub : lb;
    rc = DB_OK;
out:
    page_unhold(r, &h);
    arena_free(scratch);
    return rc;
}
