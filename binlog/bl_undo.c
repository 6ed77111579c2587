/* SPDX-License-Identifier: Apache-2.0
 * Time travel below the compaction floor (DORIS_SEMANTICS.md §1.8, seed 001 "Effect on reads"):
 * the image of a MoW tablet at a TSO whose version compaction merged away, rebuilt from the
 * current rows and the before images of the changes since. MIN_DELTA over (T, visible] gives
 * every key changed after T; the current rows of the other keys, then the row each changed key
 * had at T (its UPDATE_BEFORE / DELETE row) are the image. Changed keys are held as their
 * memcomparable encodings (storage's key encoding), never as hashes of them. README.md
 * §"Time travel". */
#include "binlog/bl_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/mem.h"

/* ---- the key set ---- */

void
bl__keyset_init(bl_keyset *ks, arena *a)
{
    memset(ks, 0, sizeof *ks);
    ks->a = a;
}

void
bl__keyset_add(bl_keyset *ks, const void *key, size_t len)
{
    if (ks->n == ks->cap) {
        ks->cap = ks->cap ? ks->cap * 2 : 1024;
        ks->refs = mem_realloc(ks->refs, ks->cap * sizeof *ks->refs);
    }
    uint8_t *p = arena_alloc(ks->a, len + 1);
    if (len) {
        memcpy(p, key, len);
    }
    ks->refs[ks->n].p = p;
    ks->refs[ks->n].len = len;
    ks->n++;
    ks->sealed = false;
}

/* memcmp order, a proper prefix first: a total order in which equal means equal bytes. */
static int
key_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    if (c != 0) {
        return c;
    }
    return alen < blen ? -1 : alen > blen;
}

static int
ref_cmp(const void *x, const void *y)
{
    const bl_keyref *a = x, *b = y;
    return key_cmp(a->p, a->len, b->p, b->len);
}

void
bl__keyset_seal(bl_keyset *ks)
{
    if (ks->n > 1) {
        qsort(ks->refs, ks->n, sizeof *ks->refs, ref_cmp);
        size_t k = 1;
        for (size_t i = 1; i < ks->n; i++) {
            if (ref_cmp(&ks->refs[k - 1], &ks->refs[i]) != 0) {
                ks->refs[k++] = ks->refs[i];
            }
        }
        ks->n = k;
    }
    ks->sealed = true;
}

bool
bl__keyset_has(const bl_keyset *ks, const void *key, size_t len)
{
    size_t lo = 0, hi = ks->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = key_cmp(ks->refs[mid].p, ks->refs[mid].len, key, len);
        if (c == 0) {
            return true;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

size_t
bl__keyset_mem(const bl_keyset *ks)
{
    return ks->cap * sizeof *ks->refs; /* the key bytes are in the caller's arena */
}

void
bl__keyset_destroy(bl_keyset *ks)
{
    mem_free(ks->refs);
    memset(ks, 0, sizeof *ks);
}

/* ---- the reader ---- */

struct bl_undo {
    const stor_schema *sc;
    stor_engine *e;
    arena *ha; /* held until close: the changes since T, the changed keys, the before refs */
    arena *sa; /* one scan batch */
    bl_keyset keys;
    bl_changes *parts;      /* the fold's output batches */
    uint32_t *bpart, *brow; /* the rows at T of the changed keys: part and row */
    uint32_t nbefore, bpos;
    uint32_t *cols, *kidx;
    stor_snapshot snap;
    bool has_snap;
    stor_scan *scan;
    buf kb;
};

bool
bl_undo_needed(stor_engine *e, uint64_t tablet_id, uint64_t tso)
{
    stor_tablet *t = stor_engine_tablet(e, tablet_id, false);
    if (t == NULL) {
        return false;
    }
    stor_snapshot snap;
    stor_tablet_snapshot(t, &snap);
    db_error e2;
    db_error_clear(&e2);
    bool needs = stor_snapshot_as_of(&snap, tso, &e2) != DB_OK;
    stor_snapshot_destroy(&snap);
    return needs;
}

static bool
is_before_row(const bl_changes *ch, uint32_t r)
{
    return ch->type[r] == BL_CH_UPDATE_BEFORE || ch->type[r] == BL_CH_DELETE;
}

/* Fold (T, visible] into the key set and the before refs. */
static int
undo_load(bl_undo *u, bl_log *L, uint64_t tablet_id, uint64_t tso, uint64_t vis, db_error *err)
{
    const stor_schema *sc = u->sc;
    bl_fold *f = bl_fold_open(L, sc, tablet_id, tso + 1, vis, BL_MODE_MIN_DELTA, true, err);
    if (f == NULL) {
        return DB_ERR;
    }
    size_t nparts = 0, pcap = 0;
    int rc = DB_OK;
    for (;;) {
        bl_changes ch;
        bool eof = false;
        if (bl_fold_next(f, u->ha, 4096, &ch, &eof, err) != DB_OK) {
            rc = DB_ERR;
            break;
        }
        if (eof) {
            break;
        }
        if (nparts == pcap) {
            pcap = pcap ? pcap * 2 : 8;
            bl_changes *np = arena_alloc(u->ha, pcap * sizeof *np);
            if (nparts) {
                memcpy(np, u->parts, nparts * sizeof *np);
            }
            u->parts = np;
        }
        u->parts[nparts++] = ch;
        for (uint32_t r = 0; r < ch.n; r++) {
            buf_clear(&u->kb);
            stor_key_encode_row(sc, ch.cols, u->kidx, sc->nkeys, r, &u->kb);
            bl__keyset_add(&u->keys, u->kb.data, u->kb.len);
            u->nbefore += is_before_row(&ch, r);
        }
    }
    bl_fold_close(f);
    if (rc != DB_OK) {
        return DB_ERR;
    }
    bl__keyset_seal(&u->keys);
    u->bpart = arena_alloc(u->ha, ((size_t)u->nbefore + 1) * sizeof *u->bpart);
    u->brow = arena_alloc(u->ha, ((size_t)u->nbefore + 1) * sizeof *u->brow);
    uint32_t k = 0;
    for (size_t p = 0; p < nparts; p++) {
        for (uint32_t r = 0; r < u->parts[p].n; r++) {
            if (is_before_row(&u->parts[p], r)) {
                u->bpart[k] = (uint32_t)p;
                u->brow[k++] = r;
            }
        }
    }
    return DB_OK;
}

bl_undo *
bl_undo_open(bl_log *L, stor_engine *e, const stor_schema *sc, uint64_t tablet_id, uint64_t tso,
             db_error *err)
{
    bl_undo *u = mem_calloc(1, sizeof *u);
    u->sc = sc;
    u->e = e;
    u->ha = arena_new(0);
    u->sa = arena_new(0);
    buf_init(&u->kb);
    bl__keyset_init(&u->keys, u->ha);
    u->cols = arena_alloc(u->ha, ((size_t)sc->ncols + 1) * sizeof *u->cols);
    for (uint32_t c = 0; c < sc->ncols; c++) {
        u->cols[c] = c;
    }
    u->kidx = arena_alloc(u->ha, ((size_t)sc->nkeys + 1) * sizeof *u->kidx);
    for (uint32_t c = 0; c < sc->nkeys; c++) {
        u->kidx[c] = c;
    }
    uint64_t vis = stor_engine_visible_tso(e);
    if (undo_load(u, L, tablet_id, tso, vis, err) != DB_OK) {
        bl_undo_close(u);
        return NULL;
    }
    /* The current rows of the tablet, as of the visible TSO. */
    stor_tablet *t = stor_engine_tablet(e, tablet_id, false);
    if (t != NULL) {
        stor_tablet_snapshot(t, &u->snap);
        u->has_snap = true;
        db_error e2;
        db_error_clear(&e2);
        (void)stor_snapshot_as_of(&u->snap, vis, &e2);
        u->scan = stor_scan_open(e, sc, &u->snap, u->cols, sc->ncols, NULL, 0, err);
        if (u->scan == NULL) {
            bl_undo_close(u);
            return NULL;
        }
    }
    return u;
}

/* A bitmap of n set bits (in a). */
static uint8_t *
all_set(arena *a, uint32_t n)
{
    uint8_t *m = arena_alloc(a, (size_t)n / 8 + 1);
    memset(m, 0xFF, (size_t)n / 8 + 1);
    return m;
}

/* The current rows of the next scan batch that has any whose key did not change after T, into
 * out (*done); *done false once the scan is over. */
static int
next_current(bl_undo *u, arena *a, uint32_t max_rows, bl_image *out, bool *done, db_error *err)
{
    const stor_schema *sc = u->sc;
    *done = false;
    while (u->scan != NULL) {
        arena_reset(u->sa);
        stor_scan_batch sb;
        bool eof = false;
        if (stor_scan_next(u->scan, u->sa, max_rows, &sb, &eof, err) != DB_OK) {
            return DB_ERR;
        }
        if (eof) {
            stor_scan_close(u->scan);
            u->scan = NULL;
            break;
        }
        uint32_t *pick = arena_alloc(u->sa, ((size_t)sb.n + 1) * sizeof *pick);
        uint32_t k = 0;
        const stor_vec *sign = sc->delete_sign_col >= 0 ? &sb.cols[sc->delete_sign_col] : NULL;
        for (uint32_t r = 0; r < sb.n; r++) {
            if (sign != NULL && !stor_vec_is_null(sign, r) && sign->i64[r] != 0) {
                continue; /* deleted at the visible version */
            }
            buf_clear(&u->kb);
            stor_key_encode_row(sc, sb.cols, u->kidx, sc->nkeys, r, &u->kb);
            if (!bl__keyset_has(&u->keys, u->kb.data, u->kb.len)) {
                pick[k++] = r;
            }
        }
        if (k == 0) {
            continue;
        }
        const stor_vec **src = arena_alloc(a, ((size_t)k + 1) * sizeof *src);
        for (uint32_t c = 0; c < sc->ncols; c++) {
            for (uint32_t i = 0; i < k; i++) {
                src[i] = &sb.cols[c];
            }
            stor_vec_select(a, stor_vec_kind_of(&sc->cols[c].type), k, src, pick, &out->cols[c]);
            out->dflt[c] = sb.missing != NULL && sb.missing[c] ? all_set(a, k) : NULL;
        }
        out->n = k;
        *done = true;
        return DB_OK;
    }
    return DB_OK;
}

int
bl_undo_next(bl_undo *u, arena *a, uint32_t max_rows, bl_image *out, bool *eof, db_error *err)
{
    const stor_schema *sc = u->sc;
    if (max_rows == 0) {
        max_rows = 1;
    }
    memset(out, 0, sizeof *out);
    out->cols = arena_calloc(a, (size_t)sc->ncols + 1, sizeof *out->cols);
    out->dflt = arena_calloc(a, (size_t)sc->ncols + 1, sizeof *out->dflt);
    *eof = false;
    bool done = false;
    if (next_current(u, a, max_rows, out, &done, err) != DB_OK) {
        return DB_ERR;
    }
    if (done) {
        return DB_OK;
    }
    if (u->bpos >= u->nbefore) {
        *eof = true;
        return DB_OK;
    }
    uint32_t n = u->nbefore - u->bpos < max_rows ? u->nbefore - u->bpos : max_rows;
    const uint32_t *bp = u->bpart + u->bpos, *br = u->brow + u->bpos;
    const stor_vec **src = arena_alloc(a, ((size_t)n + 1) * sizeof *src);
    for (uint32_t c = 0; c < sc->ncols; c++) {
        for (uint32_t i = 0; i < n; i++) {
            src[i] = &u->parts[bp[i]].cols[c];
        }
        stor_vec_select(a, stor_vec_kind_of(&sc->cols[c].type), n, src, br, &out->cols[c]);
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *d = u->parts[bp[i]].dflt[c];
            if (d != NULL && (d[br[i] >> 3] >> (br[i] & 7)) & 1) {
                if (out->dflt[c] == NULL) {
                    out->dflt[c] = arena_calloc(a, (size_t)n / 8 + 1, 1);
                }
                out->dflt[c][i >> 3] |= (uint8_t)(1u << (i & 7));
            }
        }
    }
    out->n = n;
    u->bpos += n;
    return DB_OK;
}

size_t
bl_undo_mem(const bl_undo *u)
{
    return u == NULL ? 0 : arena_used(u->ha) + bl__keyset_mem(&u->keys) + u->kb.cap;
}

void
bl_undo_close(bl_undo *u)
{
    if (u == NULL) {
        return;
    }
    if (u->scan != NULL) {
        stor_scan_close(u->scan);
    }
    if (u->has_snap) {
        stor_snapshot_destroy(&u->snap);
    }
    bl__keyset_destroy(&u->keys);
    buf_destroy(&u->kb);
    arena_free(u->sa);
    arena_free(u->ha);
    mem_free(u);
}
