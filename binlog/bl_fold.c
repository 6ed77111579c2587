/* SPDX-License-Identifier: Apache-2.0
 * Folding raw records into change rows by mode (DORIS_SEMANTICS.md §2.4, §2.5, R3, R6, R14):
 * RAW (binlog()), APPEND_ONLY, DETAIL stream batch by batch; MIN_DELTA reads the tablet's whole
 * window first (O(changes in the window) memory) and keeps, per key, its first and last record.
 * README.md §"Folding". */
#include "binlog/bl_int.h"

#define XXH_INLINE_ALL
#include <string.h>
#include <strings.h>
#include <xxhash.h>

#include "common/buf.h"
#include "common/mem.h"

/* A record of the window: batch and row. */
typedef struct rec_ref {
    uint32_t batch, row;
} rec_ref;

/* MIN_DELTA per key: its first and last record (indexes into recs). */
typedef struct key_ent {
    uint64_t hash;
    size_t koff, klen; /* key bytes in keys */
    uint32_t first, last;
} key_ent;

struct bl_fold {
    bl_scan *scan;
    const stor_schema *sc;
    bl_mode mode;
    bool history;
    /* MIN_DELTA */
    bool loaded;
    arena *wa; /* the window's batches */
    bl_batch *batches;
    size_t nbatches, bcap;
    rec_ref *recs;
    size_t nrecs, rcap;
    uint32_t *key_of; /* per record: its key entry */
    key_ent *ents;
    size_t nents, ecap;
    uint32_t *slots; /* open addressing: entry + 1, 0 empty */
    size_t nslots;
    buf keys;
    size_t emit_pos; /* next record to consider */
};

int
bl_mode_from_name(const char *name)
{
    static const struct {
        const char *name;
        bl_mode mode;
    } modes[] = {{"APPEND_ONLY", BL_MODE_APPEND_ONLY},
                 {"DETAIL", BL_MODE_DETAIL},
                 {"MIN_DELTA", BL_MODE_MIN_DELTA}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        if (strcasecmp(name, modes[i].name) == 0) {
            return (int)modes[i].mode;
        }
    }
    return -1;
}

bl_fold *
bl_fold_open(bl_log *L, const stor_schema *sc, uint64_t tablet_id, uint64_t tso_lo, uint64_t tso_hi,
             bl_mode mode, bool history, db_error *err)
{
    bl_scan *s = bl_scan_open(L, sc, tablet_id, tso_lo, tso_hi, err);
    if (s == NULL) {
        return NULL;
    }
    bl_fold *f = mem_calloc(1, sizeof *f);
    f->scan = s;
    f->sc = sc;
    f->mode = mode;
    f->history = history;
    buf_init(&f->keys);
    return f;
}

void
bl_fold_close(bl_fold *f)
{
    if (f == NULL) {
        return;
    }
    bl_scan_close(f->scan);
    arena_free(f->wa);
    mem_free(f->batches);
    mem_free(f->recs);
    mem_free(f->key_of);
    mem_free(f->ents);
    mem_free(f->slots);
    buf_destroy(&f->keys);
    mem_free(f);
}

uint64_t
bl_fold_records(const bl_fold *f)
{
    return bl_scan_records(f->scan);
}

size_t
bl_fold_mem(const bl_fold *f)
{
    if (f == NULL) {
        return 0;
    }
    return (f->wa ? arena_used(f->wa) : 0) + f->bcap * sizeof *f->batches +
           f->rcap * (sizeof *f->recs + sizeof *f->key_of) + f->ecap * sizeof *f->ents +
           f->nslots * sizeof *f->slots + f->keys.cap;
}

/* ---- output building ---- */

/* Output rows under construction: per row its source batch, row and value source. */
typedef struct out_rows {
    uint32_t n, cap;
    const bl_batch **b;
    uint32_t *row;
    uint8_t *src;
    int64_t *type, *tso, *lsn;
} out_rows;

static void
out_init(arena *a, out_rows *o, uint32_t cap)
{
    memset(o, 0, sizeof *o);
    o->cap = cap;
    o->b = arena_alloc(a, ((size_t)cap + 1) * sizeof *o->b);
    o->row = arena_alloc(a, ((size_t)cap + 1) * sizeof *o->row);
    o->src = arena_alloc(a, (size_t)cap + 1);
    o->type = arena_alloc(a, ((size_t)cap + 1) * sizeof *o->type);
    o->tso = arena_alloc(a, ((size_t)cap + 1) * sizeof *o->tso);
    o->lsn = arena_alloc(a, ((size_t)cap + 1) * sizeof *o->lsn);
}

static void
out_add(out_rows *o, const bl_batch *b, uint32_t row, int64_t type, uint8_t src, const bl_batch *at,
        uint32_t at_row)
{
    uint32_t i = o->n++;
    DB_ASSERT(i < o->cap);
    o->b[i] = b;
    o->row[i] = row;
    o->src[i] = src;
    o->type[i] = type;
    o->tso[i] = (int64_t)at->tso;
    o->lsn[i] = (int64_t)(at->lsn + at_row);
}

/* Set bit r of the per-column bitmap *bm (allocated on first use, n rows). */
static void
mark(arena *a, uint8_t **bm, uint32_t n, uint32_t r)
{
    if (*bm == NULL) {
        *bm = arena_calloc(a, (size_t)n / 8 + 1, 1);
    }
    (*bm)[r >> 3] |= (uint8_t)(1u << (r & 7));
}

/* Gather the output rows' values into *out. */
static void
out_finish(const bl_fold *f, arena *a, const out_rows *o, bool raw, bl_changes *out)
{
    const stor_schema *sc = f->sc;
    uint32_t n = o->n;
    memset(out, 0, sizeof *out);
    out->n = n;
    out->type = o->type;
    out->tso = o->tso;
    out->lsn = o->lsn;
    out->src = o->src;
    out->cols = arena_calloc(a, sc->ncols + 1, sizeof *out->cols);
    out->dflt = arena_calloc(a, sc->ncols + 1, sizeof *out->dflt);
    const stor_vec **srcv = arena_alloc(a, ((size_t)n + 1) * sizeof *srcv);
    bool any_before = false;
    for (uint32_t i = 0; i < n; i++) {
        any_before |= o->b[i]->has_before;
    }
    if (raw && any_before) {
        out->before = arena_calloc(a, sc->ncols + 1, sizeof *out->before);
        out->before_dflt = arena_calloc(a, sc->ncols + 1, sizeof *out->before_dflt);
    }
    for (uint32_t c = 0; c < sc->ncols; c++) {
        stor_vec_kind kind = stor_vec_kind_of(&sc->cols[c].type);
        bool key = sc->cols[c].is_key;
        for (uint32_t i = 0; i < n; i++) {
            const bl_batch *b = o->b[i];
            uint8_t s = o->src[i];
            if (key || s == BL_SRC_AFTER) {
                srcv[i] = &b->after[c];
                if (b->after_missing[c]) {
                    mark(a, &out->dflt[c], n, i);
                }
            } else if (s == BL_SRC_BEFORE) {
                srcv[i] = &b->before[c];
                if (b->before_missing[c]) {
                    mark(a, &out->dflt[c], n, i);
                }
            } else {
                srcv[i] = NULL; /* KEYONLY: every other column takes its default */
                mark(a, &out->dflt[c], n, i);
            }
        }
        stor_vec_select(a, kind, n, srcv, o->row, &out->cols[c]);
        if (out->before != NULL && !key) {
            for (uint32_t i = 0; i < n; i++) {
                const bl_batch *b = o->b[i];
                srcv[i] = b->has_before ? &b->before[c] : NULL;
                /* an insert has no before image: NULL, not the default */
                if (b->has_before && b->before_missing[c] && b->op[o->row[i]] != BL_OP_INSERT) {
                    mark(a, &out->before_dflt[c], n, i);
                }
            }
            stor_vec_select(a, kind, n, srcv, o->row, &out->before[c]);
        }
    }
}

/* ---- streaming modes ---- */

static int
next_streaming(bl_fold *f, arena *a, uint32_t max_rows, bl_changes *out, bool *eof, db_error *err)
{
    uint32_t per = max_rows > 1 ? max_rows / 2 : 1; /* an update may become two rows */
    for (;;) {
        bl_batch *b = arena_alloc(a, sizeof *b);
        if (bl_scan_next(f->scan, a, per, b, eof, err) != DB_OK) {
            return DB_ERR;
        }
        if (*eof) {
            memset(out, 0, sizeof *out);
            return DB_OK;
        }
        out_rows o;
        out_init(a, &o, 2 * b->n);
        for (uint32_t r = 0; r < b->n; r++) {
            int64_t op = b->op[r];
            if (op == BL_OP_NONE) {
                continue; /* a data row that is no change record */
            }
            uint8_t del_src = b->has_before ? BL_SRC_BEFORE : BL_SRC_KEYONLY;
            switch (f->mode) {
            case BL_MODE_RAW:
                out_add(&o, b, r, op, op == BL_OP_DELETE ? del_src : BL_SRC_AFTER, b, r);
                break;
            case BL_MODE_APPEND_ONLY:
                if (op == BL_OP_INSERT) {
                    out_add(&o, b, r, BL_CH_APPEND, BL_SRC_AFTER, b, r);
                }
                break;
            default: /* DETAIL */
                if (op == BL_OP_INSERT) {
                    out_add(&o, b, r, BL_CH_APPEND, BL_SRC_AFTER, b, r);
                } else if (op == BL_OP_UPDATE && b->has_before && f->history) {
                    out_add(&o, b, r, BL_CH_UPDATE_BEFORE, BL_SRC_BEFORE, b, r);
                    out_add(&o, b, r, BL_CH_UPDATE_AFTER, BL_SRC_AFTER, b, r);
                } else if (op == BL_OP_UPDATE) {
                    out_add(&o, b, r, BL_CH_APPEND, BL_SRC_AFTER, b, r); /* R6 */
                } else {
                    out_add(&o, b, r, BL_CH_DELETE, f->history ? del_src : BL_SRC_KEYONLY, b, r);
                }
                break;
            }
        }
        if (o.n == 0) {
            continue;
        }
        out_finish(f, a, &o, f->mode == BL_MODE_RAW, out);
        return DB_OK;
    }
}

/* ---- MIN_DELTA ---- */

static uint32_t
key_entry(bl_fold *f, const uint8_t *k, size_t len)
{
    uint64_t h = XXH3_64bits(k, len);
    if (f->nents * 2 >= f->nslots) {
        size_t ns = f->nslots ? f->nslots * 2 : 1024;
        uint32_t *slots = mem_calloc(ns, sizeof *slots);
        for (size_t i = 0; i < f->nents; i++) {
            size_t j = f->ents[i].hash & (ns - 1);
            while (slots[j] != 0) {
                j = (j + 1) & (ns - 1);
            }
            slots[j] = (uint32_t)i + 1;
        }
        mem_free(f->slots);
        f->slots = slots;
        f->nslots = ns;
    }
    size_t j = h & (f->nslots - 1);
    while (f->slots[j] != 0) {
        key_ent *e = &f->ents[f->slots[j] - 1];
        if (e->hash == h && e->klen == len && memcmp(f->keys.data + e->koff, k, len) == 0) {
            return f->slots[j] - 1;
        }
        j = (j + 1) & (f->nslots - 1);
    }
    if (f->nents == f->ecap) {
        f->ecap = f->ecap ? f->ecap * 2 : 1024;
        f->ents = mem_realloc(f->ents, f->ecap * sizeof *f->ents);
    }
    uint32_t id = (uint32_t)f->nents++;
    f->ents[id] = (key_ent){h, f->keys.len, len, UINT32_MAX, UINT32_MAX};
    buf_append(&f->keys, k, len);
    f->slots[j] = id + 1;
    return id;
}

static int
load_window(bl_fold *f, db_error *err)
{
    const stor_schema *sc = f->sc;
    f->wa = arena_new(0);
    uint32_t *kidx = arena_alloc(f->wa, (sc->nkeys + 1) * sizeof *kidx);
    for (uint32_t k = 0; k < sc->nkeys; k++) {
        kidx[k] = k;
    }
    buf kb;
    buf_init(&kb);
    for (;;) {
        bl_batch b;
        bool eof = false;
        if (bl_scan_next(f->scan, f->wa, 65536, &b, &eof, err) != DB_OK) {
            buf_destroy(&kb);
            return DB_ERR;
        }
        if (eof) {
            break;
        }
        if (f->nbatches == f->bcap) {
            f->bcap = f->bcap ? f->bcap * 2 : 16;
            f->batches = mem_realloc(f->batches, f->bcap * sizeof *f->batches);
        }
        uint32_t bi = (uint32_t)f->nbatches;
        f->batches[f->nbatches++] = b;
        if (f->nrecs + b.n > f->rcap) {
            while (f->nrecs + b.n > f->rcap) {
                f->rcap = f->rcap ? f->rcap * 2 : 4096;
            }
            f->recs = mem_realloc(f->recs, f->rcap * sizeof *f->recs);
            f->key_of = mem_realloc(f->key_of, f->rcap * sizeof *f->key_of);
        }
        for (uint32_t r = 0; r < b.n; r++) {
            if (b.op[r] == BL_OP_NONE) {
                continue;
            }
            buf_clear(&kb);
            stor_key_encode_row(sc, b.after, kidx, sc->nkeys, r, &kb);
            uint32_t k = key_entry(f, kb.data, kb.len);
            size_t ri = f->nrecs++;
            f->recs[ri] = (rec_ref){bi, r};
            f->key_of[ri] = k;
            if (f->ents[k].first == UINT32_MAX) {
                f->ents[k].first = (uint32_t)ri;
            }
            f->ents[k].last = (uint32_t)ri;
        }
    }
    buf_destroy(&kb);
    /* batches may have moved while growing: recs index them by number, not pointer */
    return DB_OK;
}

static int
next_min_delta(bl_fold *f, arena *a, uint32_t max_rows, bl_changes *out, bool *eof, db_error *err)
{
    if (!f->loaded) {
        if (load_window(f, err) != DB_OK) {
            return DB_ERR;
        }
        f->loaded = true;
    }
    out_rows o;
    out_init(a, &o, max_rows < 2 ? 2 : max_rows);
    /* Emit each key at its last record: rows come out in the order of the last changes. */
    while (f->emit_pos < f->nrecs && o.n + 2 <= o.cap) {
        size_t ri = f->emit_pos++;
        const key_ent *e = &f->ents[f->key_of[ri]];
        if (e->last != ri) {
            continue;
        }
        const bl_batch *fb = &f->batches[f->recs[e->first].batch];
        uint32_t fr = f->recs[e->first].row;
        const bl_batch *lb = &f->batches[f->recs[e->last].batch];
        uint32_t lr = f->recs[e->last].row;
        bool at_start = fb->op[fr] != BL_OP_INSERT; /* the first change found the key live */
        bool at_end = lb->op[lr] != BL_OP_DELETE;
        if (!at_start && at_end) {
            out_add(&o, lb, lr, BL_CH_APPEND, BL_SRC_AFTER, lb, lr);
        } else if (at_start && at_end) { /* R3: even when the end equals the start */
            out_add(&o, fb, fr, BL_CH_UPDATE_BEFORE, BL_SRC_BEFORE, lb, lr);
            out_add(&o, lb, lr, BL_CH_UPDATE_AFTER, BL_SRC_AFTER, lb, lr);
        } else if (at_start) {
            out_add(&o, fb, fr, BL_CH_DELETE, BL_SRC_BEFORE, lb, lr);
        }
    }
    if (o.n == 0) {
        *eof = true;
        memset(out, 0, sizeof *out);
        return DB_OK;
    }
    *eof = false;
    out_finish(f, a, &o, false, out);
    return DB_OK;
}

int
bl_fold_next(bl_fold *f, arena *a, uint32_t max_rows, bl_changes *out, bool *eof, db_error *err)
{
    if (max_rows == 0) {
        max_rows = 1;
    }
    if (f->mode == BL_MODE_MIN_DELTA) {
        return next_min_delta(f, a, max_rows, out, eof, err);
    }
    return next_streaming(f, a, max_rows, out, eof, err);
}
