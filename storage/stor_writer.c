/* SPDX-License-Identifier: Apache-2.0
 * stor_writer: the write path of one transaction. stor_writer_put buffers rows per tablet in a
 * memtable (columnar append buffers, grown geometrically); stor_writer_commit takes the MoW
 * writer locks of the touched tablets, builds their primary-key indexes if needed, runs the
 * chain per tablet (sort_dedup -> mow_lookup -> stages added by stor_engine_add_stage ->
 * encode), takes a TSO, appends one commit record and publishes it, then updates the primary-key
 * indexes. See README.md §"Writer, chain and commit". */
#include "storage/stor_int.h"

#include <inttypes.h>
#include <roaring/roaring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/mem.h"

#define SEG_MAX_ROWS (1u << 20) /* rows per segment file written by the encode stage */
#define NO_MASK      UINT32_MAX /* row given index: every column given */

/* ---- memtables ---- */

/* One column's append buffer. Value arrays and the null bitmap hold cap rows; strings keep
 * cap + 1 offsets into data. */
typedef struct mt_col {
    stor_vec_kind kind;
    uint8_t *nulls; /* cap / 8 bytes, zero-filled; bit r set = row r is NULL */
    bool any_null;
    int64_t *i64;
    double *f64;
    stor_i128 *i128;
    uint64_t *offs;
    uint8_t *data;
    size_t dlen, dcap;
} mt_col;

/* The rows of one tablet buffered by a writer. */
typedef struct memtable {
    uint64_t tablet_id;
    const stor_schema *sc; /* borrowed from the first put; outlives the writer */
    uint32_t n, cap;
    mt_col *cols;    /* sc->ncols */
    uint32_t *given; /* cap entries: index into masks, or NO_MASK; NULL while every row is full */
    bool *masks;     /* nmasks × sc->ncols partial-update masks (copied) */
    uint32_t nmasks;
} memtable;

/* Delete marks given by stor_writer_delete_rows, forwarded to the txn at commit. */
typedef struct del_rows {
    uint64_t tablet_id, rowset_id;
    uint32_t segment_id, n;
    uint32_t *rows; /* owned */
} del_rows;

/* Primary-key index changes of one MoW tablet, applied after a successful commit. */
typedef struct pk_upd {
    stor_tablet *t;
    buf keys;          /* concatenated encoded keys */
    uint64_t *offs;    /* n + 1 offsets into keys */
    stor_rowloc *locs; /* n new locations */
    uint32_t n;
    uint64_t rowset_id; /* the rowset this commit adds to t (0 = none) */
    uint64_t version_before;
} pk_upd;

struct stor_writer {
    stor_engine *e;
    memtable **mts; /* ascending tablet id */
    size_t nmts, cap;
    del_rows *dels;
    size_t ndels, dcap;
    uint64_t rows;
    uint64_t nchanges; /* rowsets and delete marks the commit in progress put into its txn */
    char **files;      /* segment files written by the commit in progress (removed on failure) */
    size_t nfiles, fcap;
    bool is_spent;
    bool count_replaced; /* stor_writer_count_replaced */
    uint64_t replaced;   /* rows that replaced a row of their key (counted at commit) */
    struct w_extra {
        uint16_t kind;
        void *data;
        size_t len;
    } * extras; /* sections for the commit record (stor_writer_add_extra) */
    size_t nextras;
};

static void
mt_free(memtable *mt)
{
    if (mt == NULL) {
        return;
    }
    for (uint32_t c = 0; c < mt->sc->ncols; c++) {
        mt_col *col = &mt->cols[c];
        mem_free(col->nulls);
        mem_free(col->i64);
        mem_free(col->f64);
        mem_free(col->i128);
        mem_free(col->offs);
        mem_free(col->data);
    }
    mem_free(mt->cols);
    mem_free(mt->given);
    mem_free(mt->masks);
    mem_free(mt);
}

/* Grow every buffer of mt to hold at least need rows (geometric). */
static void
mt_reserve(memtable *mt, uint32_t need)
{
    if (need <= mt->cap) {
        return;
    }
    size_t cap = mt->cap == 0 ? 1024 : mt->cap;
    while (cap < need) {
        cap *= 2;
    }
    for (uint32_t c = 0; c < mt->sc->ncols; c++) {
        mt_col *col = &mt->cols[c];
        size_t old_nb = (mt->cap + 7) / 8, nb = (cap + 7) / 8;
        col->nulls = mem_realloc(col->nulls, nb);
        memset(col->nulls + old_nb, 0, nb - old_nb);
        switch (col->kind) {
        case STOR_VEC_I64:
            col->i64 = mem_realloc(col->i64, cap * sizeof *col->i64);
            break;
        case STOR_VEC_F64:
            col->f64 = mem_realloc(col->f64, cap * sizeof *col->f64);
            break;
        case STOR_VEC_I128:
            col->i128 = mem_realloc(col->i128, cap * sizeof *col->i128);
            break;
        case STOR_VEC_BYTES:
            col->offs = mem_realloc(col->offs, (cap + 1) * sizeof *col->offs);
            if (mt->cap == 0) {
                col->offs[0] = 0;
            }
            break;
        }
    }
    if (mt->given != NULL) {
        mt->given = mem_realloc(mt->given, cap * sizeof *mt->given);
    }
    mt->cap = (uint32_t)cap;
}

/* A stor_vec view of column c of mt (no copy). */
static stor_vec
mt_view(const memtable *mt, uint32_t c)
{
    const mt_col *col = &mt->cols[c];
    stor_vec v = {.kind = col->kind, .n = mt->n, .nulls = col->any_null ? col->nulls : NULL};
    v.i64 = col->i64;
    v.f64 = col->f64;
    v.i128 = col->i128;
    v.offs = col->offs;
    v.data = col->data;
    return v;
}

/* Append rows [0, n) of src to column col of mt (capacity reserved; rows from mt->n). */
static void
mt_col_append(memtable *mt, mt_col *col, const stor_vec *src, uint32_t n)
{
    uint32_t at = mt->n;
    for (uint32_t r = 0; r < n; r++) {
        if (stor_vec_is_null(src, r)) {
            col->nulls[(at + r) >> 3] |= (uint8_t)(1u << ((at + r) & 7));
            col->any_null = true;
        }
    }
    switch (col->kind) {
    case STOR_VEC_I64:
        memcpy(col->i64 + at, src->i64, n * sizeof *col->i64);
        break;
    case STOR_VEC_F64:
        memcpy(col->f64 + at, src->f64, n * sizeof *col->f64);
        break;
    case STOR_VEC_I128:
        memcpy(col->i128 + at, src->i128, n * sizeof *col->i128);
        break;
    case STOR_VEC_BYTES: {
        size_t len = (size_t)(src->offs[n] - src->offs[0]);
        if (col->dlen + len > col->dcap) {
            size_t dcap = col->dcap == 0 ? 4096 : col->dcap;
            while (dcap < col->dlen + len) {
                dcap *= 2;
            }
            col->data = mem_realloc(col->data, dcap);
            col->dcap = dcap;
        }
        if (len > 0) {
            memcpy(col->data + col->dlen, src->data + src->offs[0], len);
        }
        for (uint32_t r = 0; r < n; r++) {
            col->offs[at + r + 1] = col->dlen + (src->offs[r + 1] - src->offs[0]);
        }
        col->dlen += len;
        break;
    }
    }
}

/* ---- writer ---- */

stor_writer *
stor_writer_new(stor_engine *e)
{
    stor_writer *w = mem_calloc(1, sizeof *w);
    w->e = e;
    return w;
}

static void
remove_files(stor_writer *w)
{
    for (size_t i = 0; i < w->nfiles; i++) {
        unlink(w->files[i]);
        mem_free(w->files[i]);
    }
    w->nfiles = 0;
}

void
stor_writer_free(stor_writer *w)
{
    if (w == NULL) {
        return;
    }
    remove_files(w); /* only files of a commit that did not publish are still listed */
    mem_free(w->files);
    for (size_t i = 0; i < w->nmts; i++) {
        mt_free(w->mts[i]);
    }
    mem_free(w->mts);
    for (size_t i = 0; i < w->ndels; i++) {
        mem_free(w->dels[i].rows);
    }
    mem_free(w->dels);
    for (size_t i = 0; i < w->nextras; i++) {
        mem_free(w->extras[i].data);
    }
    mem_free(w->extras);
    mem_free(w);
}

void
stor_writer_add_extra(stor_writer *w, uint16_t kind, const void *data, size_t len)
{
    w->extras = mem_realloc(w->extras, (w->nextras + 1) * sizeof *w->extras);
    void *copy = mem_alloc(len ? len : 1);
    if (len) {
        memcpy(copy, data, len);
    }
    w->extras[w->nextras++] = (struct w_extra){kind, copy, len};
}

/* The memtable of tablet_id, created for sc when missing. */
static memtable *
writer_mt(stor_writer *w, uint64_t tablet_id, const stor_schema *sc)
{
    size_t lo = 0, hi = w->nmts;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->mts[mid]->tablet_id < tablet_id) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < w->nmts && w->mts[lo]->tablet_id == tablet_id) {
        return w->mts[lo];
    }
    memtable *mt = mem_calloc(1, sizeof *mt);
    mt->tablet_id = tablet_id;
    mt->sc = sc;
    mt->cols = mem_calloc(sc->ncols == 0 ? 1 : sc->ncols, sizeof *mt->cols);
    for (uint32_t c = 0; c < sc->ncols; c++) {
        mt->cols[c].kind = stor_vec_kind_of(&sc->cols[c].type);
    }
    if (w->nmts == w->cap) {
        w->cap = w->cap == 0 ? 8 : w->cap * 2;
        w->mts = mem_realloc(w->mts, w->cap * sizeof *w->mts);
    }
    memmove(&w->mts[lo + 1], &w->mts[lo], (w->nmts - lo) * sizeof *w->mts);
    w->mts[lo] = mt;
    w->nmts++;
    return mt;
}

int
stor_writer_put(stor_writer *w, const stor_schema *sc, int64_t partition_id, uint32_t bucket,
                const stor_vec *cols, uint32_t n, const bool *given, db_error *err)
{
    DB_ASSERT(!w->is_spent);
    for (uint32_t c = 0; c < sc->ncols; c++) {
        stor_vec_kind k = stor_vec_kind_of(&sc->cols[c].type);
        if (k == 0 || cols[c].kind != k || cols[c].n < n) {
            return db_error_set(err, ER_STOR_BAD_COLUMN, c, sc->cols[c].uid,
                                "vector kind or row count does not match the schema");
        }
    }
    if (n == 0) {
        return DB_OK;
    }
    if ((uint64_t)w->rows + n > UINT32_MAX / 2) {
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "more than 2^31 rows in one transaction");
    }
    memtable *mt = writer_mt(w, stor_tablet_id_of(partition_id, bucket), sc);
    DB_ASSERT(mt->sc->ncols == sc->ncols); /* one table per tablet */
    if ((uint64_t)mt->n + n > UINT32_MAX / 2) {
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "more than 2^31 rows in one tablet");
    }
    mt_reserve(mt, mt->n + n);
    bool is_partial = false;
    for (uint32_t c = 0; given != NULL && c < sc->ncols; c++) {
        is_partial |= !given[c];
    }
    uint32_t mask = NO_MASK;
    if (is_partial) {
        if (mt->given == NULL) {
            mt->given = mem_alloc(mt->cap * sizeof *mt->given);
            for (uint32_t r = 0; r < mt->n; r++) {
                mt->given[r] = NO_MASK;
            }
        }
        if (mt->nmasks > 0 &&
            memcmp(mt->masks + (size_t)(mt->nmasks - 1) * sc->ncols, given, sc->ncols) == 0) {
            mask = mt->nmasks - 1;
        } else {
            mt->masks = mem_realloc(mt->masks, (size_t)(mt->nmasks + 1) * sc->ncols);
            memcpy(mt->masks + (size_t)mt->nmasks * sc->ncols, given, sc->ncols);
            mask = mt->nmasks++;
        }
    }
    if (mt->given != NULL) {
        for (uint32_t r = 0; r < n; r++) {
            mt->given[mt->n + r] = mask;
        }
    }
    for (uint32_t c = 0; c < sc->ncols; c++) {
        mt_col_append(mt, &mt->cols[c], &cols[c], n);
    }
    mt->n += n;
    w->rows += n;
    return DB_OK;
}

int
stor_writer_delete_rows(stor_writer *w, uint64_t tablet_id, uint64_t rowset_id, uint32_t segment_id,
                        const uint32_t *rows, uint32_t n, db_error *err)
{
    (void)err;
    DB_ASSERT(!w->is_spent);
    if (n == 0) {
        return DB_OK;
    }
    if (w->ndels == w->dcap) {
        w->dcap = w->dcap == 0 ? 8 : w->dcap * 2;
        w->dels = mem_realloc(w->dels, w->dcap * sizeof *w->dels);
    }
    del_rows *d = &w->dels[w->ndels++];
    d->tablet_id = tablet_id;
    d->rowset_id = rowset_id;
    d->segment_id = segment_id;
    d->n = n;
    d->rows = mem_alloc(n * sizeof *rows);
    memcpy(d->rows, rows, n * sizeof *rows);
    return DB_OK;
}

void
stor_writer_count_replaced(stor_writer *w)
{
    w->count_replaced = true;
}

uint64_t
stor_writer_replaced(const stor_writer *w)
{
    return w->replaced;
}

uint64_t
stor_writer_rows(const stor_writer *w)
{
    return w->rows;
}

bool
stor_writer_empty(const stor_writer *w)
{
    return w->rows == 0 && w->ndels == 0 && w->nextras == 0;
}

/* ---- vectors in the chain arena ---- */

void
stor_vec_select(arena *a, stor_vec_kind kind, uint32_t n, const stor_vec *const *src,
                const uint32_t *row, stor_vec *out)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->n = n;
    uint8_t *nulls = arena_calloc(a, (n + 7) / 8 + 1, 1);
    bool any_null = false;
    switch (kind) {
    case STOR_VEC_I64:
        out->i64 = arena_alloc(a, ((size_t)n + 1) * sizeof *out->i64);
        break;
    case STOR_VEC_F64:
        out->f64 = arena_alloc(a, ((size_t)n + 1) * sizeof *out->f64);
        break;
    case STOR_VEC_I128:
        out->i128 = arena_alloc(a, ((size_t)n + 1) * sizeof *out->i128);
        break;
    case STOR_VEC_BYTES: {
        size_t total = 0;
        for (uint32_t i = 0; i < n; i++) {
            const stor_vec *s = src[i];
            if (s != NULL && !stor_vec_is_null(s, row[i])) {
                total += (size_t)(s->offs[row[i] + 1] - s->offs[row[i]]);
            }
        }
        out->offs = arena_alloc(a, ((size_t)n + 1) * sizeof *out->offs);
        out->data = arena_alloc(a, total + 1);
        out->offs[0] = 0;
        break;
    }
    }
    size_t dlen = 0;
    for (uint32_t i = 0; i < n; i++) {
        const stor_vec *s = src[i];
        uint32_t r = row[i];
        bool is_null = s == NULL || stor_vec_is_null(s, r);
        if (is_null) {
            nulls[i >> 3] |= (uint8_t)(1u << (i & 7));
            any_null = true;
        }
        switch (kind) {
        case STOR_VEC_I64:
            out->i64[i] = is_null ? 0 : s->i64[r];
            break;
        case STOR_VEC_F64:
            out->f64[i] = is_null ? 0 : s->f64[r];
            break;
        case STOR_VEC_I128:
            out->i128[i] = is_null ? 0 : s->i128[r];
            break;
        case STOR_VEC_BYTES:
            if (!is_null) {
                size_t len = (size_t)(s->offs[r + 1] - s->offs[r]);
                if (len > 0) { /* an all-empty vector may have no data array */
                    memcpy(out->data + dlen, s->data + s->offs[r], len);
                }
                dlen += len;
            }
            out->offs[i + 1] = dlen;
            break;
        }
    }
    out->nulls = any_null ? nulls : NULL;
}

/* out = rows perm[0..n) of v. */
static void
vec_gather(arena *a, const stor_vec *v, const uint32_t *perm, uint32_t n, const stor_vec **scratch,
           stor_vec *out)
{
    for (uint32_t i = 0; i < n; i++) {
        scratch[i] = v;
    }
    stor_vec_select(a, v->kind, n, scratch, perm, out);
}

/* Three-way compare of two cells (NULL lowest); both vectors of the same kind. */
static int
cell_cmp(const stor_vec *a, uint32_t ra, const stor_vec *b, uint32_t rb)
{
    bool na = a == NULL || stor_vec_is_null(a, ra), nb = b == NULL || stor_vec_is_null(b, rb);
    if (na || nb) {
        return (int)nb - (int)na;
    }
    switch (a->kind) {
    case STOR_VEC_I64:
        return (a->i64[ra] > b->i64[rb]) - (a->i64[ra] < b->i64[rb]);
    case STOR_VEC_F64:
        return (a->f64[ra] > b->f64[rb]) - (a->f64[ra] < b->f64[rb]);
    case STOR_VEC_I128:
        return (a->i128[ra] > b->i128[rb]) - (a->i128[ra] < b->i128[rb]);
    case STOR_VEC_BYTES:
        return stor__bytes_cmp(a->data + a->offs[ra], (size_t)(a->offs[ra + 1] - a->offs[ra]),
                               b->data + b->offs[rb], (size_t)(b->offs[rb + 1] - b->offs[rb]));
    }
    return 0;
}

/* ---- one chain run (one tablet) ---- */

/* A segment of an earlier rowset opened to read old rows, with its decoded pages cached. */
typedef struct old_seg {
    uint64_t rowset_id;
    uint32_t segment_id;
    stor_segment_reader *r; /* from the engine's reader pool, given back at the end */
    char *path;             /* owned; the pool's key for r */
    int32_t *colmap;        /* per schema column: segment column, or -1 (missing / other kind) */
    stor_vec **pages;       /* per schema column: npages decoded pages (NULL until read) */
} old_seg;

typedef struct chain_run {
    stor_chain_batch b; /* first member: the built-in stages cast b back to the run */
    stor_writer *w;
    memtable *mt;
    stor_tablet *t;
    stor_snapshot snap; /* MoW: the tablet as of the chain start (write_mu held) */
    const bool *
            *mask;  /* per row of b: its partial-update mask (NULL = full row); NULL = all full */
    uint32_t wants; /* STOR_WANT_* of the added stages for this table */
    bool *seq_done; /* per row of b after sort_dedup: its sequence order is decided (NULL: none) */
    old_seg *segs;  /* ascending (rowset id, segment id) */
    size_t nsegs, scap;
    buf kb;     /* scratch key bytes */
    pk_upd *pk; /* MoW: where encode records the new key locations; NULL otherwise */
} chain_run;

static void
run_close_segs(chain_run *run)
{
    for (size_t i = 0; i < run->nsegs; i++) {
        stor_rcache_release(stor_engine_rcache(run->w->e), run->segs[i].path, run->segs[i].r);
        mem_free(run->segs[i].path);
    }
    mem_free(run->segs);
    run->segs = NULL;
    run->nsegs = run->scap = 0;
}

/* The opened old segment (rowset_id, segment_id), opening it on first use. */
static old_seg *
run_seg(chain_run *run, uint64_t rowset_id, uint32_t segment_id, db_error *err)
{
    size_t lo = 0, hi = run->nsegs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const old_seg *s = &run->segs[mid];
        if (s->rowset_id < rowset_id || (s->rowset_id == rowset_id && s->segment_id < segment_id)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < run->nsegs && run->segs[lo].rowset_id == rowset_id &&
        run->segs[lo].segment_id == segment_id) {
        return &run->segs[lo];
    }
    const stor_rowset_meta *m = NULL;
    for (size_t i = 0; i < run->snap.nrowsets; i++) {
        if (run->snap.rowsets[i].rowset_id == rowset_id) {
            m = &run->snap.rowsets[i];
        }
    }
    if (m == NULL || segment_id >= m->nsegments) {
        db_error_set(err, ER_STOR_COMMIT_BAD, "primary-key index names a rowset the tablet lacks");
        return NULL;
    }
    char *path = arena_sprintf(run->b.a, "%s/%s", stor_tablet_dir(run->t), m->segments[segment_id]);
    stor_segment_reader *r = stor_rcache_acquire(stor_engine_rcache(run->w->e), path,
                                                 stor_engine_cache(run->w->e), err);
    if (r == NULL) {
        return NULL;
    }
    if (run->nsegs == run->scap) {
        run->scap = run->scap == 0 ? 8 : run->scap * 2;
        run->segs = mem_realloc(run->segs, run->scap * sizeof *run->segs);
    }
    memmove(&run->segs[lo + 1], &run->segs[lo], (run->nsegs - lo) * sizeof *run->segs);
    run->nsegs++;
    old_seg *s = &run->segs[lo];
    const stor_schema *sc = run->b.sc;
    s->rowset_id = rowset_id;
    s->path = mem_strdup(path);
    s->segment_id = segment_id;
    s->r = r;
    s->colmap = arena_alloc(run->b.a, (sc->ncols + 1) * sizeof *s->colmap);
    s->pages = arena_calloc(run->b.a, sc->ncols + 1, sizeof *s->pages);
    for (uint32_t c = 0; c < sc->ncols; c++) {
        int sci = stor_segment_reader_find_uid(r, sc->cols[c].uid);
        if (sci >= 0 && stor_vec_kind_of(&stor_segment_reader_column(r, (uint32_t)sci)->type) !=
                                stor_vec_kind_of(&sc->cols[c].type)) {
            sci = -1; /* the type changed: treat as missing */
        }
        s->colmap[c] = sci;
    }
    return s;
}

/* Where the old value of schema column c at loc sits: *v (NULL = the column is missing from
 * that segment, a NULL cell) and *row. */
static int
old_cell(chain_run *run, stor_rowloc loc, uint32_t c, const stor_vec **v, uint32_t *row,
         db_error *err)
{
    *v = NULL;
    *row = 0;
    old_seg *s = run_seg(run, loc.rowset_id, loc.segment_id, err);
    if (s == NULL) {
        return DB_ERR;
    }
    if (s->colmap[c] < 0) {
        /* written before the column existed: its default (ADD COLUMN ... DEFAULT) */
        const stor_schema *sc = run->b.sc;
        if (sc->defaults != NULL && sc->defaults[c].kind == stor_vec_kind_of(&sc->cols[c].type)) {
            *v = &sc->defaults[c];
        }
        return DB_OK;
    }
    uint32_t sci = (uint32_t)s->colmap[c];
    uint32_t np = stor_segment_reader_npages(s->r, sci);
    uint32_t lo = 0, hi = np; /* first page whose end is > loc.row */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const stor_page_info *pi = stor_segment_reader_page(s->r, sci, mid);
        if (pi->first_row + pi->nrows <= loc.row) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo >= np) {
        return db_error_set(err, ER_STOR_COMMIT_BAD, "primary-key index row beyond its segment");
    }
    if (s->pages[c] == NULL) {
        s->pages[c] = arena_calloc(run->b.a, np, sizeof *s->pages[c]);
    }
    stor_vec *pv = &s->pages[c][lo];
    if (pv->kind == 0 && stor_segment_read_page(s->r, sci, lo, run->b.a, pv, err) != DB_OK) {
        return DB_ERR;
    }
    *v = pv;
    *row = loc.row - (uint32_t)stor_segment_reader_page(s->r, sci, lo)->first_row;
    return DB_OK;
}

/* out = old values of column c for the rows with mask[i] at locs[i], NULL cells elsewhere. */
static int
fetch_old(chain_run *run, const bool *mask, const stor_rowloc *locs, uint32_t c, stor_vec *out,
          db_error *err)
{
    uint32_t n = run->b.n;
    const stor_vec **src = arena_calloc(run->b.a, n + 1, sizeof *src);
    uint32_t *rows = arena_calloc(run->b.a, n + 1, sizeof *rows);
    for (uint32_t i = 0; i < n; i++) {
        if (mask[i] && old_cell(run, locs[i], c, &src[i], &rows[i], err) != DB_OK) {
            return DB_ERR;
        }
    }
    stor_vec_select(run->b.a, stor_vec_kind_of(&run->b.sc->cols[c].type), n, src, rows, out);
    return DB_OK;
}

/* Keep rows keep[0..nkeep) of the batch (every per-row array follows). */
static void
run_compact(chain_run *run, const uint32_t *keep, uint32_t nkeep)
{
    stor_chain_batch *b = &run->b;
    const stor_vec **scratch = arena_alloc(b->a, ((size_t)nkeep + 1) * sizeof *scratch);
    stor_vec *cols = arena_alloc(b->a, (b->sc->ncols + 1) * sizeof *cols);
    for (uint32_t c = 0; c < b->sc->ncols; c++) {
        vec_gather(b->a, &b->cols[c], keep, nkeep, scratch, &cols[c]);
    }
    b->cols = cols;
    if (run->mask != NULL) {
        const bool **m = arena_alloc(b->a, ((size_t)nkeep + 1) * sizeof *m);
        for (uint32_t i = 0; i < nkeep; i++) {
            m[i] = run->mask[keep[i]];
        }
        run->mask = m;
    }
    b->n = nkeep;
}

/* b->given: the mask of every row when they all share one, else NULL (mixed or all full). */
static void
set_given(chain_run *run)
{
    stor_chain_batch *b = &run->b;
    b->given = NULL;
    if (run->mask == NULL || b->n == 0 || run->mask[0] == NULL) {
        return;
    }
    for (uint32_t r = 1; r < b->n; r++) {
        if (run->mask[r] == NULL || memcmp(run->mask[r], run->mask[0], b->sc->ncols) != 0) {
            return;
        }
    }
    b->given = run->mask[0];
}

static bool is_sign_set(const stor_vec *v, uint32_t r);

/* Whether row r of the batch supplies the sequence column: a full row does; a partial row only
 * when its mask names the column. A partial row that leaves it out keeps the stored row's
 * sequence value (Doris), so it is never a sequence loser. */
static bool
gives_seq(const chain_run *run, uint32_t r)
{
    const stor_schema *sc = run->b.sc;
    return sc->seq_col >= 0 &&
           (run->mask == NULL || run->mask[r] == NULL || run->mask[r][sc->seq_col]);
}

/* ---- stage: sort_dedup ---- */

typedef struct keyset {
    const uint8_t *data;
    const uint64_t *offs;
} keyset;

static int
key_cmp(const keyset *ks, uint32_t a, uint32_t b)
{
    return stor__bytes_cmp(ks->data + ks->offs[a], (size_t)(ks->offs[a + 1] - ks->offs[a]),
                           ks->data + ks->offs[b], (size_t)(ks->offs[b + 1] - ks->offs[b]));
}

/* Stable merge sort of idx[0..n) by key (tmp: n scratch entries). */
static void
merge_sort(const keyset *ks, uint32_t *idx, uint32_t *tmp, uint32_t n)
{
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n;
            uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                tmp[k++] = key_cmp(ks, idx[j], idx[i]) < 0 ? idx[j++] : idx[i++];
            }
            while (i < mid) {
                tmp[k++] = idx[i++];
            }
            while (j < hi) {
                tmp[k++] = idx[j++];
            }
        }
        memcpy(idx, tmp, n * sizeof *idx);
        if (width > UINT32_MAX / 4) {
            break;
        }
    }
}

/* Cells of a deduplicated row taken from an earlier row of its key (partial updates). */
typedef struct override {
    uint32_t out, col, src; /* output row, column, input row holding the value */
} override;

typedef struct overrides {
    override *v; /* arena */
    size_t n, cap;
    const bool **mask; /* out row -> its merged mask (NULL = full), where is_merged */
    bool *is_merged;
} overrides;

/* The last row of group[0..n) (input order; the winner, a partial row) takes, for each column it
 * does not give, the value of the latest earlier row of its key that gives it, so several
 * partial updates of one key in one commit combine. The merged mask goes to ov->mask[out]. */
static void
merge_partial(chain_run *run, const uint32_t *group, uint32_t n, uint32_t out, overrides *ov)
{
    const stor_schema *sc = run->b.sc;
    uint32_t win = group[n - 1];
    bool *mask = arena_alloc(run->b.a, sc->ncols + 1);
    memcpy(mask, run->mask[win], sc->ncols);
    bool is_full = true;
    for (uint32_t c = 0; c < sc->ncols; c++) {
        for (uint32_t k = n - 1; !mask[c] && k-- > 0;) {
            uint32_t x = group[k];
            if (run->mask[x] == NULL || run->mask[x][c]) {
                if (ov->n == ov->cap) {
                    size_t cap = ov->cap == 0 ? 64 : ov->cap * 2;
                    override *nv = arena_alloc(run->b.a, cap * sizeof *nv);
                    if (ov->n > 0) {
                        memcpy(nv, ov->v, ov->n * sizeof *nv);
                    }
                    ov->v = nv;
                    ov->cap = cap;
                }
                ov->v[ov->n++] = (override){out, c, x};
                mask[c] = true;
            }
        }
        is_full &= mask[c];
    }
    if (ov->mask == NULL) {
        ov->mask = arena_calloc(run->b.a, run->b.n + 1, sizeof *ov->mask);
        ov->is_merged = arena_calloc(run->b.a, run->b.n + 1, sizeof *ov->is_merged);
    }
    ov->mask[out] = is_full ? NULL : mask;
    ov->is_merged[out] = true;
}

/* Apply merge_partial's overrides to the compacted batch (before: the vectors before compaction).
 */
static void
apply_overrides(chain_run *run, const stor_vec *before, const overrides *ov)
{
    stor_chain_batch *b = &run->b;
    if (ov->mask == NULL) {
        return;
    }
    for (uint32_t i = 0; i < b->n; i++) {
        if (ov->is_merged[i]) {
            run->mask[i] = ov->mask[i];
        }
    }
    const stor_vec **src = arena_alloc(b->a, ((size_t)b->n + 1) * sizeof *src);
    uint32_t *rows = arena_alloc(b->a, ((size_t)b->n + 1) * sizeof *rows);
    for (uint32_t c = 0; c < b->sc->ncols; c++) {
        bool any = false;
        for (size_t k = 0; k < ov->n && !any; k++) {
            any = ov->v[k].col == c;
        }
        if (!any) {
            continue;
        }
        for (uint32_t i = 0; i < b->n; i++) {
            src[i] = &b->cols[c];
            rows[i] = i;
        }
        for (size_t k = 0; k < ov->n; k++) {
            if (ov->v[k].col == c) {
                src[ov->v[k].out] = &before[c];
                rows[ov->v[k].out] = ov->v[k].src;
            }
        }
        stor_vec merged;
        stor_vec_select(b->a, b->cols[c].kind, b->n, src, rows, &merged);
        b->cols[c] = merged;
    }
}

/* A key's rows group[0..n) (input order) of which some give the sequence column and some do
 * not: applied in order as separate statements would be, against the stored row (looked up
 * here). A row that gives it applies unless the current row's value is higher; one that does
 * not always applies and keeps the current value. The last applied row wins, merged with the
 * earlier applied ones (merge_partial) and marked `seq_done` so that mow_lookup does not compare
 * it again. Returns 1 (out is that row) or 0 (every row lost), -1 on a read error. */
static int
dedup_mixed(chain_run *run, const keyset *ks, const uint32_t *group, uint32_t n, uint32_t out,
            overrides *ov, uint32_t *win_out, db_error *err)
{
    stor_chain_batch *b = &run->b;
    const stor_schema *sc = b->sc;
    const stor_vec *seq = &b->cols[sc->seq_col];
    bool *pk_ready = NULL;
    stor_pkindex *pk = stor__tablet_pkindex(run->t, &pk_ready);
    DB_ASSERT(*pk_ready);
    const uint8_t *key = ks->data + ks->offs[group[0]];
    stor_rowloc loc;
    bool found = stor_pkindex_lookup(pk, key, (size_t)(ks->offs[group[0] + 1] - ks->offs[group[0]]),
                                     &loc, NULL);
    /* The current row's sequence cell (NULL vector = a NULL cell); absent = no current row. */
    const stor_vec *cur = NULL;
    uint32_t cur_r = 0;
    bool present = false;
    if (found) {
        const stor_vec *sign = NULL;
        uint32_t sign_r = 0;
        if (old_cell(run, loc, (uint32_t)sc->seq_col, &cur, &cur_r, err) != DB_OK ||
            (sc->delete_sign_col >= 0 &&
             old_cell(run, loc, (uint32_t)sc->delete_sign_col, &sign, &sign_r, err) != DB_OK)) {
            return -1;
        }
        /* A delete-sign row still orders by its value (as mow_lookup compares it), but a row
         * that does not give the column then starts from its own default. */
        present = !is_sign_set(sign, sign_r);
    }
    uint32_t *applied = arena_alloc(b->a, ((size_t)n + 1) * sizeof *applied);
    uint32_t na = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = group[k];
        if (gives_seq(run, r)) {
            if (found && cell_cmp(cur, cur_r, seq, r) > 0) {
                continue;
            }
            cur = seq;
            cur_r = r;
            found = present = true;
        } else if (!present) {
            cur = seq; /* inserted: the vectors' value (the planner's default) */
            cur_r = r;
            found = present = true;
        }
        applied[na++] = r;
    }
    if (na == 0) {
        return 0;
    }
    uint32_t win = applied[na - 1];
    if (run->mask[win] != NULL && na > 1) {
        merge_partial(run, applied, na, out, ov);
    }
    if (run->seq_done == NULL) {
        run->seq_done = arena_calloc(b->a, b->n + 1, sizeof *run->seq_done);
    }
    run->seq_done[out] = true;
    *win_out = win;
    return 1;
}

/* AGGREGATE KEY: fold each group of equal keys — sorted rows [gs[g], gs[g + 1]) — into one row
 * with the columns' aggregation: SUM adds (NULLs skipped; all NULL gives NULL; integers wrap),
 * MIN / MAX keep the extreme non-NULL value, REPLACE keeps the last written value,
 * REPLACE_IF_NOT_NULL the last non-NULL one; key columns are equal within a group. */
static void
fold_agg(chain_run *run, const uint32_t *gs, uint32_t ng)
{
    stor_chain_batch *b = &run->b;
    const stor_schema *sc = b->sc;
    const stor_vec **src = arena_alloc(b->a, ((size_t)ng + 1) * sizeof *src);
    uint32_t *rows = arena_alloc(b->a, ((size_t)ng + 1) * sizeof *rows);
    stor_vec *cols = arena_alloc(b->a, (sc->ncols + 1) * sizeof *cols);
    for (uint32_t c = 0; c < sc->ncols; c++) {
        const stor_vec *v = &b->cols[c];
        uint8_t agg = sc->aggs != NULL && !sc->cols[c].is_key ? sc->aggs[c] : CAT_AGG_REPLACE;
        if (agg == CAT_AGG_SUM && v->kind != STOR_VEC_BYTES) {
            stor_vec *o = &cols[c];
            memset(o, 0, sizeof *o);
            o->kind = v->kind;
            o->n = ng;
            uint8_t *nulls = arena_calloc(b->a, (ng + 7) / 8 + 1, 1);
            bool any_null = false;
            o->i64 = v->kind == STOR_VEC_I64 ? arena_alloc(b->a, ((size_t)ng + 1) * 8) : NULL;
            o->f64 = v->kind == STOR_VEC_F64 ? arena_alloc(b->a, ((size_t)ng + 1) * 8) : NULL;
            o->i128 = v->kind == STOR_VEC_I128 ? arena_alloc(b->a, ((size_t)ng + 1) * 16) : NULL;
            for (uint32_t g = 0; g < ng; g++) {
                bool seen = false;
                uint64_t si = 0; /* unsigned: wraps instead of overflowing */
                double sf = 0;
                stor_i128 sx = 0;
                for (uint32_t r = gs[g]; r < gs[g + 1]; r++) {
                    if (stor_vec_is_null(v, r)) {
                        continue;
                    }
                    seen = true;
                    if (v->kind == STOR_VEC_I64) {
                        si += (uint64_t)v->i64[r];
                    } else if (v->kind == STOR_VEC_F64) {
                        sf += v->f64[r];
                    } else {
                        sx = (stor_i128)((unsigned __int128)sx + (unsigned __int128)v->i128[r]);
                    }
                }
                if (!seen) {
                    nulls[g >> 3] |= (uint8_t)(1u << (g & 7));
                    any_null = true;
                }
                if (o->i64) {
                    o->i64[g] = seen ? (int64_t)si : 0;
                } else if (o->f64) {
                    o->f64[g] = seen ? sf : 0;
                } else {
                    o->i128[g] = seen ? sx : 0;
                }
            }
            o->nulls = any_null ? nulls : NULL;
            continue;
        }
        for (uint32_t g = 0; g < ng; g++) {
            uint32_t pick = gs[g + 1] - 1; /* REPLACE: the last written */
            if (agg == CAT_AGG_MIN || agg == CAT_AGG_MAX || agg == CAT_AGG_REPLACE_IF_NOT_NULL) {
                uint32_t best = UINT32_MAX;
                for (uint32_t r = gs[g]; r < gs[g + 1]; r++) {
                    if (stor_vec_is_null(v, r)) {
                        continue;
                    }
                    if (best == UINT32_MAX || agg == CAT_AGG_REPLACE_IF_NOT_NULL ||
                        (agg == CAT_AGG_MIN && cell_cmp(v, r, v, best) < 0) ||
                        (agg == CAT_AGG_MAX && cell_cmp(v, r, v, best) > 0)) {
                        best = r;
                    }
                }
                if (best != UINT32_MAX) {
                    pick = best;
                }
            }
            src[g] = v;
            rows[g] = pick;
        }
        stor_vec_select(b->a, v->kind, ng, src, rows, &cols[c]);
    }
    b->cols = cols;
    b->n = ng;
}

static int
stage_sort_dedup(void *ctx, stor_chain_batch *b, stor_txn *txn, db_error *err)
{
    (void)ctx;
    (void)txn;
    chain_run *run = (chain_run *)b;
    const stor_schema *sc = b->sc;
    if (sc->nkeys == 0 || b->n == 0) {
        return DB_OK;
    }
    uint32_t n = b->n;
    uint32_t *kidx = arena_alloc(b->a, sc->nkeys * sizeof *kidx);
    for (uint32_t k = 0; k < sc->nkeys; k++) {
        kidx[k] = k;
    }
    uint64_t *offs = arena_alloc(b->a, ((size_t)n + 1) * sizeof *offs);
    buf_clear(&run->kb);
    offs[0] = 0;
    for (uint32_t r = 0; r < n; r++) {
        stor_key_encode_row(sc, b->cols, kidx, sc->nkeys, r, &run->kb);
        offs[r + 1] = run->kb.len;
    }
    keyset ks = {run->kb.data, offs};
    uint32_t *idx = arena_alloc(b->a, ((size_t)n + 1) * sizeof *idx);
    uint32_t *tmp = arena_alloc(b->a, ((size_t)n + 1) * sizeof *tmp);
    for (uint32_t r = 0; r < n; r++) {
        idx[r] = r;
    }
    merge_sort(&ks, idx, tmp, n);
    uint32_t nout = n;
    overrides ov = {0};
    if (sc->keys == CAT_KEYS_AGG) {
        /* Rows in key order (stable), then one row per key folded by the columns' functions. */
        uint32_t *gs = arena_alloc(b->a, ((size_t)n + 1) * sizeof *gs);
        uint32_t ng = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (i == 0 || key_cmp(&ks, idx[i - 1], idx[i]) != 0) {
                gs[ng++] = i;
            }
        }
        gs[ng] = n;
        run_compact(run, idx, n);
        fold_agg(run, gs, ng);
        run->mask = NULL; /* partial update does not apply to AGGREGATE tables */
        set_given(run);
        return DB_OK;
    }
    if (sc->keys == CAT_KEYS_UNIQUE) {
        /* One row per key: the last written, or the highest sequence value (NULL lowest; ties go
         * to the later write). Equal keys are adjacent in input order (stable sort). A key none
         * of whose rows gives the sequence column (partial updates without it) is ordered as
         * without one: they all keep the stored value. */
        const stor_vec *seq = sc->seq_col >= 0 ? &b->cols[sc->seq_col] : NULL;
        nout = 0;
        for (uint32_t i = 0; i < n;) {
            uint32_t j = i + 1;
            bool by_seq = seq != NULL && gives_seq(run, idx[i]);
            bool without = seq != NULL && !gives_seq(run, idx[i]);
            while (j < n && key_cmp(&ks, idx[i], idx[j]) == 0) {
                by_seq |= seq != NULL && gives_seq(run, idx[j]);
                without |= seq != NULL && !gives_seq(run, idx[j]);
                j++;
            }
            if (by_seq && without) {
                /* Some rows give the sequence column and some do not: apply them in order. */
                uint32_t win = 0;
                int rc = dedup_mixed(run, &ks, idx + i, j - i, nout, &ov, &win, err);
                if (rc < 0) {
                    return DB_ERR;
                }
                if (rc > 0) {
                    idx[nout++] = win;
                }
                i = j;
                continue;
            }
            uint32_t win = idx[j - 1];
            for (uint32_t k = j - 1; by_seq && k-- > i;) {
                if (cell_cmp(seq, idx[k], seq, win) > 0) {
                    win = idx[k];
                }
            }
            if (run->mask != NULL && run->mask[win] != NULL && !by_seq && j - i > 1) {
                merge_partial(run, idx + i, j - i, nout, &ov);
            }
            if (run->w->count_replaced) {
                run->w->replaced += j - i - 1; /* each later row replaced the one before */
            }
            idx[nout++] = win;
            i = j;
        }
    }
    stor_vec *before = b->cols;
    run_compact(run, idx, nout);
    apply_overrides(run, before, &ov);
    set_given(run);
    return DB_OK;
}

/* ---- stage: mow_lookup ---- */

static int
cmp_loc(const void *pa, const void *pb)
{
    const stor_rowloc *a = pa, *b = pb;
    if (a->rowset_id != b->rowset_id) {
        return a->rowset_id < b->rowset_id ? -1 : 1;
    }
    if (a->segment_id != b->segment_id) {
        return a->segment_id < b->segment_id ? -1 : 1;
    }
    return (a->row > b->row) - (a->row < b->row);
}

/* Add delete marks for locs[0..n) to txn, one call per (rowset, segment). Sorts locs. */
static void
add_marks(stor_txn *txn, uint64_t tablet_id, stor_rowloc *locs, uint32_t n, arena *a)
{
    qsort(locs, n, sizeof *locs, cmp_loc);
    uint32_t *rows = arena_alloc(a, ((size_t)n + 1) * sizeof *rows);
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i, k = 0;
        while (j < n && locs[j].rowset_id == locs[i].rowset_id &&
               locs[j].segment_id == locs[i].segment_id) {
            rows[k++] = locs[j++].row;
        }
        stor_txn_delete(txn, tablet_id, locs[i].rowset_id, locs[i].segment_id, rows, k);
        i = j;
    }
}

static bool
is_sign_set(const stor_vec *v, uint32_t r)
{
    return v != NULL && !stor_vec_is_null(v, r) && v->i64[r] == 1;
}

static int
stage_mow_lookup(void *ctx, stor_chain_batch *b, stor_txn *txn, db_error *err)
{
    (void)ctx;
    chain_run *run = (chain_run *)b;
    const stor_schema *sc = b->sc;
    if (!sc->mow || b->n == 0) {
        return DB_OK;
    }
    bool *pk_ready = NULL;
    stor_pkindex *pk = stor__tablet_pkindex(run->t, &pk_ready);
    DB_ASSERT(*pk_ready);
    uint32_t n = b->n;
    uint32_t *kidx = arena_alloc(b->a, sc->nkeys * sizeof *kidx);
    for (uint32_t k = 0; k < sc->nkeys; k++) {
        kidx[k] = k;
    }
    bool *found = arena_calloc(b->a, n + 1, sizeof *found);
    stor_rowloc *loc = arena_calloc(b->a, n + 1, sizeof *loc);
    for (uint32_t r = 0; r < n; r++) {
        buf_clear(&run->kb);
        stor_key_encode_row(sc, b->cols, kidx, sc->nkeys, r, &run->kb);
        /* Keys of this commit are unique in b (sort_dedup) and one rowset per tablet per commit,
         * so the index (the published state under write_mu) is the only place to look. */
        found[r] = stor_pkindex_lookup(pk, run->kb.data, run->kb.len, &loc[r], NULL);
    }
    stor_vec old_sign = {0}, old_seq = {0};
    /* Whether an old row is a delete-sign row matters only to consumers of has_old / old values
     * (added stages, partial update): reading it costs a point read per updated key, so plain
     * upserts skip it (has_old is then "found"). */
    bool need_sign = sc->delete_sign_col >= 0 &&
                     (run->wants != 0 || run->mask != NULL || run->w->count_replaced);
    if (need_sign &&
        fetch_old(run, found, loc, (uint32_t)sc->delete_sign_col, &old_sign, err) != DB_OK) {
        return DB_ERR;
    }
    if (sc->seq_col >= 0 &&
        fetch_old(run, found, loc, (uint32_t)sc->seq_col, &old_seq, err) != DB_OK) {
        return DB_ERR;
    }
    const stor_vec *new_sign = sc->delete_sign_col >= 0 ? &b->cols[sc->delete_sign_col] : NULL;
    uint32_t *keep = arena_alloc(b->a, ((size_t)n + 1) * sizeof *keep);
    stor_rowloc *marks = arena_alloc(b->a, ((size_t)n + 1) * sizeof *marks);
    bool *has_old = arena_calloc(b->a, n + 1, sizeof *has_old);
    stor_rowloc *old = arena_calloc(b->a, n + 1, sizeof *old);
    stor_row_op *ops = arena_calloc(b->a, n + 1, sizeof *ops);
    uint32_t nkeep = 0, nmarks = 0;
    bool any_old = false;
    for (uint32_t r = 0; r < n; r++) {
        if (found[r] && gives_seq(run, r) && !(run->seq_done != NULL && run->seq_done[r]) &&
            cell_cmp(&old_seq, r, &b->cols[sc->seq_col], r) > 0) {
            continue; /* the stored row has a higher sequence value: this write loses */
        }
        uint32_t k = nkeep++;
        keep[k] = r;
        if (found[r]) {
            marks[nmarks++] = loc[r];
        }
        /* An old delete-sign row marks the key absent: it is hidden, but is no before-image. */
        has_old[k] = found[r] && !is_sign_set(need_sign ? &old_sign : NULL, r);
        old[k] = loc[r];
        any_old |= has_old[k];
        ops[k] = is_sign_set(new_sign, r) ? STOR_OP_DELETE
                 : has_old[k]             ? STOR_OP_UPDATE
                                          : STOR_OP_INSERT;
        run->w->replaced += run->w->count_replaced && ops[k] == STOR_OP_UPDATE;
    }
    run->seq_done = NULL; /* indexes the rows before the compaction below */
    add_marks(txn, b->tablet_id, marks, nmarks, b->a);
    run->w->nchanges += nmarks;
    if (nkeep < n) {
        run_compact(run, keep, nkeep);
    }
    b->ops = ops;
    b->has_old = has_old;
    b->old = old;
    n = b->n;
    if (!any_old) {
        return DB_OK;
    }
    /* Partial update: columns a row did not give come from its old row. */
    if (run->mask != NULL) {
        const stor_vec **src = arena_alloc(b->a, ((size_t)n + 1) * sizeof *src);
        uint32_t *rows = arena_alloc(b->a, ((size_t)n + 1) * sizeof *rows);
        for (uint32_t c = 0; c < sc->ncols; c++) {
            bool any = false;
            for (uint32_t r = 0; r < n; r++) {
                bool take_old = has_old[r] && run->mask[r] != NULL && !run->mask[r][c];
                any |= take_old;
                src[r] = &b->cols[c];
                rows[r] = r;
                if (take_old && old_cell(run, old[r], c, &src[r], &rows[r], err) != DB_OK) {
                    return DB_ERR;
                }
            }
            if (any) {
                stor_vec merged;
                stor_vec_select(b->a, b->cols[c].kind, n, src, rows, &merged);
                b->cols[c] = merged;
            }
        }
    }
    if (run->wants & STOR_WANT_OLD_VALUES) {
        b->old_cols = arena_calloc(b->a, sc->ncols + 1, sizeof *b->old_cols);
        for (uint32_t c = 0; c < sc->ncols; c++) {
            if (fetch_old(run, has_old, old, c, &b->old_cols[c], err) != DB_OK) {
                return DB_ERR;
            }
        }
    }
    return DB_OK;
}

/* Remember path (copied) as written for this commit: removed if it fails. */
static void
track_file(stor_writer *w, const char *path)
{
    if (w->nfiles == w->fcap) {
        w->fcap = w->fcap == 0 ? 8 : w->fcap * 2;
        w->files = mem_realloc(w->files, w->fcap * sizeof *w->files);
    }
    w->files[w->nfiles++] = mem_strdup(path);
}

void
stor_chain_track_file(stor_chain_batch *b, const char *path)
{
    track_file(((chain_run *)b)->w, path);
}

/* ---- stage: encode ---- */

static int
stage_encode(void *ctx, stor_chain_batch *b, stor_txn *txn, db_error *err)
{
    (void)ctx;
    chain_run *run = (chain_run *)b;
    const stor_schema *sc = b->sc;
    if (b->n == 0) {
        return DB_OK; /* every row was discarded: no rowset (marks may still be in txn) */
    }
    if (stor_tablet_make_dir(run->t, err) != DB_OK) {
        return DB_ERR;
    }
    stor_writer *w = run->w;
    uint64_t rowset_id = stor__engine_next_rowset_id(w->e);
    uint32_t nseg = (b->n + SEG_MAX_ROWS - 1) / SEG_MAX_ROWS;
    char **names = arena_calloc(b->a, nseg, sizeof *names);
    char **paths = arena_calloc(b->a, nseg, sizeof *paths);
    const stor_vec **scratch = NULL;
    uint32_t *perm = NULL;
    /* The schema's columns, then the columns added stages asked for (Row Binlog). */
    uint32_t nall = sc->ncols + b->nextra;
    stor_column_desc *desc = arena_alloc(b->a, (nall + 1) * sizeof *desc);
    const stor_vec **src = arena_alloc(b->a, (nall + 1) * sizeof *src);
    for (uint32_t c = 0; c < sc->ncols; c++) {
        desc[c] = sc->cols[c];
        src[c] = &b->cols[c];
    }
    for (uint32_t c = 0; c < b->nextra; c++) {
        desc[sc->ncols + c] = b->extra_desc[c];
        src[sc->ncols + c] = &b->extra_cols[c];
    }
    stor_vec *part = arena_alloc(b->a, (nall + 1) * sizeof *part);
    for (uint32_t s = 0; s < nseg; s++) {
        uint32_t from = s * SEG_MAX_ROWS,
                 cnt = b->n - from < SEG_MAX_ROWS ? b->n - from : SEG_MAX_ROWS;
        if (nseg > 1) {
            if (scratch == NULL) {
                scratch = arena_alloc(b->a, SEG_MAX_ROWS * sizeof *scratch);
                perm = arena_alloc(b->a, SEG_MAX_ROWS * sizeof *perm);
            }
            for (uint32_t i = 0; i < cnt; i++) {
                perm[i] = from + i;
            }
            for (uint32_t c = 0; c < nall; c++) {
                vec_gather(b->a, src[c], perm, cnt, scratch, &part[c]);
            }
        } else {
            for (uint32_t c = 0; c < nall; c++) {
                part[c] = *src[c];
                part[c].n = cnt;
            }
        }
        names[s] = arena_sprintf(b->a, "%" PRIu64 "_%u.dat", rowset_id, s);
        char *path = arena_sprintf(b->a, "%s/%s", stor_tablet_dir(run->t), names[s]);
        paths[s] = path;
        stor_segment_writer *sw = stor_segment_writer_open(path, nall, desc, NULL, err);
        if (sw == NULL) {
            return DB_ERR;
        }
        if (stor_segment_writer_append(sw, part, err) != DB_OK) {
            stor_segment_writer_abort(sw);
            return DB_ERR;
        }
        track_file(w, path); /* removed if the commit fails */
        if (stor_segment_writer_finish(sw, NULL, err) != DB_OK) {
            return DB_ERR;
        }
    }
    size_t nstages = 0;
    const stor_stage *stages = stor__engine_stages(w->e, &nstages);
    for (size_t i = 0; i < nstages; i++) {
        if (stages[i].encoded != NULL &&
            stages[i].encoded(stages[i].ctx, b, txn, rowset_id, (const char *const *)paths, nseg,
                              err) != DB_OK) {
            return DB_ERR;
        }
    }
    stor_txn_add_rowset(txn, b->tablet_id, rowset_id, b->n, (const char *const *)names, nseg);
    w->nchanges++;
    if (run->pk != NULL) {
        pk_upd *u = run->pk;
        u->rowset_id = rowset_id;
        uint32_t *kidx = arena_alloc(b->a, sc->nkeys * sizeof *kidx);
        for (uint32_t k = 0; k < sc->nkeys; k++) {
            kidx[k] = k;
        }
        u->offs = mem_alloc(((size_t)b->n + 1) * sizeof *u->offs);
        u->locs = mem_alloc(((size_t)b->n + 1) * sizeof *u->locs);
        u->offs[0] = 0;
        for (uint32_t r = 0; r < b->n; r++) {
            stor_key_encode_row(sc, b->cols, kidx, sc->nkeys, r, &u->keys);
            u->offs[r + 1] = u->keys.len;
            u->locs[r] = (stor_rowloc){rowset_id, r / SEG_MAX_ROWS, r % SEG_MAX_ROWS};
        }
        u->n = b->n;
    }
    return DB_OK;
}

/* ---- primary-key index build ---- */

/* Fill pk with every live key of t's published rowsets (write_mu held). */
static int
pk_build(stor_engine *e, stor_tablet *t, const stor_schema *sc, stor_pkindex *pk, db_error *err)
{
    stor_pkindex_clear(pk);
    stor_snapshot snap;
    stor_tablet_snapshot(t, &snap);
    arena *a = arena_new(1 << 20);
    buf kb;
    buf_init(&kb);
    uint32_t *kidx = mem_alloc((sc->nkeys + 1) * sizeof *kidx);
    for (uint32_t k = 0; k < sc->nkeys; k++) {
        kidx[k] = k;
    }
    stor_vec *kv = mem_calloc(sc->ncols + 1, sizeof *kv); /* only [0, nkeys) used */
    int rc = DB_OK;
    for (size_t i = 0; i < snap.nrowsets && rc == DB_OK; i++) {
        const stor_rowset_meta *m = &snap.rowsets[i];
        for (uint32_t s = 0; s < m->nsegments && rc == DB_OK; s++) {
            arena_reset(a);
            char *path = arena_sprintf(a, "%s/%s", stor_tablet_dir(t), m->segments[s]);
            stor_segment_reader *r = stor_segment_reader_open(path, err);
            if (r == NULL) {
                rc = DB_ERR;
                break;
            }
            stor_segment_reader_set_cache(r, stor_engine_cache(e));
            uint64_t nrows = stor_segment_reader_rows(r);
            for (uint32_t k = 0; k < sc->nkeys && rc == DB_OK; k++) {
                int col = stor_segment_reader_find_uid(r, sc->cols[k].uid);
                if (col < 0) {
                    rc = db_error_set(err, ER_STOR_CORRUPT, path, (unsigned long long)0,
                                      "a key column is missing");
                } else {
                    rc = stor_segment_read_rows(r, (uint32_t)col, 0, nrows, a, &kv[k], err);
                }
            }
            roaring_bitmap_t *del = stor_tablet_deleted(t, m->rowset_id, s, snap.version);
            for (uint64_t row = 0; row < nrows && rc == DB_OK; row++) {
                if (roaring_bitmap_contains(del, (uint32_t)row)) {
                    continue;
                }
                buf_clear(&kb);
                stor_key_encode_row(sc, kv, kidx, sc->nkeys, (uint32_t)row, &kb);
                rc = stor_pkindex_upsert(pk, kb.data, kb.len,
                                         (stor_rowloc){m->rowset_id, s, (uint32_t)row}, m->version,
                                         NULL, NULL, err);
            }
            roaring_bitmap_free(del);
            stor_segment_reader_close(r);
        }
    }
    mem_free(kv);
    mem_free(kidx);
    buf_destroy(&kb);
    arena_free(a);
    stor_snapshot_destroy(&snap);
    if (rc != DB_OK) {
        stor_pkindex_clear(pk);
    }
    return rc;
}

/* ---- commit ---- */

/* Run the chain over mt (tablet t) adding to txn; pk (MoW) receives the new key locations. */
static int
run_chain(stor_writer *w, memtable *mt, stor_tablet *t, const stor_stage *stages, size_t nstages,
          uint32_t wants, pk_upd *pk, stor_txn *txn, db_error *err)
{
    chain_run run;
    memset(&run, 0, sizeof run);
    run.w = w;
    run.mt = mt;
    run.t = t;
    run.wants = wants;
    run.pk = pk;
    buf_init(&run.kb);
    arena *a = arena_new(1 << 20);
    const stor_schema *sc = mt->sc;
    stor_chain_batch *b = &run.b;
    if (mt->given != NULL) {
        run.mask = arena_alloc(a, ((size_t)mt->n + 1) * sizeof *run.mask);
        for (uint32_t r = 0; r < mt->n; r++) {
            run.mask[r] = mt->given[r] == NO_MASK
                                  ? NULL
                                  : mt->masks + (size_t)mt->given[r] * mt->sc->ncols;
        }
    }
    b->sc = sc;
    b->tablet_id = mt->tablet_id;
    b->a = a;
    b->n = mt->n;
    b->cols = arena_alloc(a, (sc->ncols + 1) * sizeof *b->cols);
    for (uint32_t c = 0; c < sc->ncols; c++) {
        b->cols[c] = mt_view(mt, c);
    }
    set_given(&run);
    if (sc->mow) {
        stor_tablet_snapshot(t, &run.snap);
    }
    int rc = DB_OK;
    for (size_t i = 0; i < nstages && rc == DB_OK; i++) {
        rc = stages[i].run(stages[i].ctx, b, txn, err);
    }
    run_close_segs(&run);
    if (sc->mow) {
        stor_snapshot_destroy(&run.snap);
    }
    buf_destroy(&run.kb);
    arena_free(a);
    return rc;
}

/* The version at which t published rowset_id, 0 when t has no such rowset. */
static uint64_t
rowset_version(stor_tablet *t, uint64_t rowset_id)
{
    stor_snapshot s;
    stor_tablet_snapshot(t, &s);
    uint64_t v = 0;
    for (size_t i = s.nrowsets; i-- > 0 && v == 0;) {
        if (s.rowsets[i].rowset_id == rowset_id) {
            v = s.rowsets[i].version;
        }
    }
    stor_snapshot_destroy(&s);
    return v;
}

int
stor_writer_commit(stor_writer *w, cat_tso *tso, uint64_t *commit_tso, db_error *err)
{
    DB_ASSERT(!w->is_spent);
    w->is_spent = true;
    if (commit_tso != NULL) {
        *commit_tso = 0;
    }
    if (w->nmts == 0 && w->ndels == 0 && w->nextras == 0) {
        return DB_OK;
    }
    stor_engine *e = w->e;
    size_t nextra = 0;
    const stor_stage *extra = stor__engine_stages(e, &nextra);
    size_t nstages = nextra + 3;
    stor_stage *stages = mem_calloc(nstages, sizeof *stages);
    stages[0] = (stor_stage){"sort_dedup", stage_sort_dedup, NULL, NULL, NULL};
    stages[1] = (stor_stage){"mow_lookup", stage_mow_lookup, NULL, NULL, NULL};
    if (nextra > 0) {
        memcpy(&stages[2], extra, nextra * sizeof *extra);
    }
    stages[nstages - 1] = (stor_stage){"encode", stage_encode, NULL, NULL, NULL};

    stor_tablet **tablets = mem_calloc(w->nmts + 1, sizeof *tablets);
    pk_upd *pks = mem_calloc(w->nmts + 1, sizeof *pks);
    size_t nlocked = 0;
    int rc = DB_OK;
    /* Writer locks of the MoW tablets, ascending tablet id (mts is sorted). */
    for (size_t i = 0; i < w->nmts; i++) {
        tablets[i] = stor_engine_tablet(e, w->mts[i]->tablet_id, true);
        buf_init(&pks[i].keys);
        pks[i].t = tablets[i];
        if (w->mts[i]->sc->mow) {
            stor__tablet_write_lock(tablets[i]);
            nlocked = i + 1;
        }
    }
    stor_txn *txn = stor_txn_new(stor__engine_next_rowset_id(e));
    for (size_t i = 0; i < w->nmts && rc == DB_OK; i++) {
        memtable *mt = w->mts[i];
        pk_upd *pk = NULL;
        if (mt->sc->mow) {
            bool *ready = NULL;
            stor_pkindex *idx = stor__tablet_pkindex(tablets[i], &ready);
            if (!*ready) {
                rc = pk_build(e, tablets[i], mt->sc, idx, err);
                *ready = rc == DB_OK;
            }
            pk = &pks[i];
            pk->version_before = stor_tablet_version(tablets[i]);
        }
        uint32_t wants = 0;
        for (size_t k = 0; k < nextra; k++) {
            wants |= extra[k].wants ? extra[k].wants(extra[k].ctx, mt->sc) : 0;
        }
        if (rc == DB_OK) {
            rc = run_chain(w, mt, tablets[i], stages, nstages, wants, pk, txn, err);
        }
    }
    for (size_t i = 0; i < w->ndels && rc == DB_OK; i++) {
        const del_rows *d = &w->dels[i];
        stor_txn_delete(txn, d->tablet_id, d->rowset_id, d->segment_id, d->rows, d->n);
    }
    for (size_t i = 0; i < w->nextras && rc == DB_OK; i++) {
        stor_txn_add_extra(txn, w->extras[i].kind, w->extras[i].data, w->extras[i].len);
    }
    uint64_t ts = 0;
    bool published = false;
    /* Every row was discarded (sequence column) and no stage added anything: nothing to write. */
    bool is_noop = w->nchanges == 0 && w->ndels == 0 && !stor__txn_has_extras(txn);
    if (rc == DB_OK && !is_noop) {
        /* The TSO is taken under the engine's commit mutex: TSOs ascend with versions. */
        rc = stor_txn_commit_at(e, txn, tso, &ts, err);
        published = rc == DB_OK;
        if (rc != DB_OK) { /* an extra handler fails after the publish: the commit stands */
            for (size_t i = 0; i < w->nmts && !published; i++) {
                published =
                        pks[i].rowset_id != 0 && rowset_version(tablets[i], pks[i].rowset_id) != 0;
            }
        }
    }
    if (published) {
        for (size_t i = 0; i < w->nmts; i++) {
            pk_upd *u = &pks[i];
            if (!w->mts[i]->sc->mow || u->n == 0) {
                continue;
            }
            bool *ready = NULL;
            stor_pkindex *idx = stor__tablet_pkindex(tablets[i], &ready);
            uint64_t version = rowset_version(tablets[i], u->rowset_id); /* ours: just published */
            DB_ASSERT(version > u->version_before);
            for (uint32_t r = 0; r < u->n; r++) {
                db_error e2;
                db_error_clear(&e2);
                int urc = stor_pkindex_upsert(idx, u->keys.data + u->offs[r],
                                              (size_t)(u->offs[r + 1] - u->offs[r]), u->locs[r],
                                              version, NULL, NULL, &e2);
                if (urc != DB_OK) {
                    *ready = false; /* rebuilt from the segments by the next writer */
                    break;
                }
            }
        }
        for (size_t i = 0; i < w->nfiles; i++) {
            mem_free(w->files[i]);
        }
        w->nfiles = 0; /* published: keep the files */
        if (commit_tso != NULL) {
            *commit_tso = ts;
        }
    } else {
        remove_files(w); /* I1: nothing published, nothing left behind */
    }
    for (size_t i = nlocked; i-- > 0;) {
        if (w->mts[i]->sc->mow) {
            stor__tablet_write_unlock(tablets[i]);
        }
    }
    for (size_t i = 0; i < w->nmts; i++) {
        buf_destroy(&pks[i].keys);
        mem_free(pks[i].offs);
        mem_free(pks[i].locs);
    }
    stor_txn_free(txn);
    mem_free(pks);
    mem_free(tablets);
    mem_free(stages);
    return rc;
}
