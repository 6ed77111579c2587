/* SPDX-License-Identifier: Apache-2.0
 * Stream offsets: the advanced (stream, partition) -> consumed TSO map, changed only by
 * STRM_EXTRA_ADVANCE sections of storage commits (checked under the engine's commit mutex,
 * applied at publish and replay) and checkpointed as image section STRM_IMG_OFFSETS.
 * README.md §Formats, §Invariants. */
#include "stream/strm_int.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/crc32c.h"
#include "common/mem.h"

#define IMAGE_MAGIC     0x4D49534Fu /* "OSIM" */
#define IMAGE_FORMAT    1
#define ENTRY_BYTES     33 /* in a section: i64 stream, i64 part, u8 kind, u64 prev, u64 next */
#define IMG_ENTRY_BYTES 32 /* in the image: i64 stream, i64 part, u64 tso, i64 last_ms */

typedef struct off_ent {
    int64_t stream_id, part_id;
    uint64_t tso;
    int64_t last_ms;
} off_ent;

struct strm_state {
    stor_engine *e;
    /* lock protects ents (ascending (stream, part)). Written by the section handler (under the
     * engine's commit mutex) and the image load; read by readers and the check. */
    pthread_rwlock_t lock;
    off_ent *ents;
    size_t n, cap;
};


static size_t
ent_pos(const strm_state *S, int64_t stream_id, int64_t part_id)
{
    size_t lo = 0, hi = S->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const off_ent *e = &S->ents[mid];
        if (e->stream_id < stream_id || (e->stream_id == stream_id && e->part_id < part_id)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static off_ent *
ent_find(const strm_state *S, int64_t stream_id, int64_t part_id)
{
    size_t i = ent_pos(S, stream_id, part_id);
    return i < S->n && S->ents[i].stream_id == stream_id && S->ents[i].part_id == part_id
                   ? &S->ents[i]
                   : NULL;
}

static void
ent_put(strm_state *S, int64_t stream_id, int64_t part_id, uint64_t tso, int64_t last_ms)
{
    size_t i = ent_pos(S, stream_id, part_id);
    if (i < S->n && S->ents[i].stream_id == stream_id && S->ents[i].part_id == part_id) {
        S->ents[i].tso = tso;
        S->ents[i].last_ms = last_ms;
        return;
    }
    if (S->n == S->cap) {
        S->cap = S->cap ? S->cap * 2 : 64;
        S->ents = mem_realloc(S->ents, S->cap * sizeof *S->ents);
    }
    memmove(&S->ents[i + 1], &S->ents[i], (S->n - i) * sizeof *S->ents);
    S->ents[i] = (off_ent){stream_id, part_id, tso, last_ms};
    S->n++;
}

/* ---- sections ---- */

void
strm_encode_advance(buf *out, const char *db, const char *stream, int64_t now_ms,
                    const strm_advance *adv, size_t n)
{
    size_t dl = strlen(db), sl = strlen(stream);
    buf_put_u8(out, 1);
    buf_put_u8(out, 0);
    buf_put_u16le(out, (uint16_t)dl);
    buf_append(out, db, dl);
    buf_put_u16le(out, (uint16_t)sl);
    buf_append(out, stream, sl);
    buf_put_u64le(out, (uint64_t)now_ms);
    buf_put_u32le(out, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        buf_put_u64le(out, (uint64_t)adv[i].stream_id);
        buf_put_u64le(out, (uint64_t)adv[i].part_id);
        buf_put_u8(out, adv[i].prev_kind);
        buf_put_u64le(out, adv[i].prev_tso);
        buf_put_u64le(out, adv[i].next_tso);
    }
}

typedef struct dec_adv {
    const char *db, *stream;
    size_t dl, sl;
    int64_t now_ms;
    uint32_t n;
    const uint8_t *ents;
} dec_adv;

static bool
decode(const uint8_t *p, size_t len, dec_adv *d)
{
    if (len < 4 || p[0] != 1) {
        return false;
    }
    size_t off = 2;
    d->dl = (size_t)(p[off] | p[off + 1] << 8);
    off += 2;
    if (len - off < d->dl + 2) {
        return false;
    }
    d->db = (const char *)p + off;
    off += d->dl;
    d->sl = (size_t)(p[off] | p[off + 1] << 8);
    off += 2;
    if (len - off < d->sl + 12) {
        return false;
    }
    d->stream = (const char *)p + off;
    off += d->sl;
    d->now_ms = (int64_t)buf_get_u64le(p + off);
    d->n = buf_get_u32le(p + off + 8);
    off += 12;
    if ((len - off) / ENTRY_BYTES != d->n || (len - off) % ENTRY_BYTES != 0) {
        return false;
    }
    d->ents = p + off;
    return true;
}

/* Compare-and-set, under the engine's commit mutex: every partition must still stand where the
 * statement read it (E21; E22 for initial rows, README.md §Invariants I2). */
static int
check(void *ctx, uint16_t kind, const void *data, size_t len, db_error *err)
{
    (void)kind;
    strm_state *S = ctx;
    dec_adv d;
    if (!decode(data, len, &d)) {
        return db_error_set(err, ER_STOR_COMMIT_CORRUPT, "stream advance section");
    }
    int rc = DB_OK;
    pthread_rwlock_rdlock(&S->lock);
    for (uint32_t i = 0; i < d.n && rc == DB_OK; i++) {
        const uint8_t *q = d.ents + (size_t)i * ENTRY_BYTES;
        int64_t sid = (int64_t)buf_get_u64le(q), pid = (int64_t)buf_get_u64le(q + 8);
        uint8_t pk = q[16];
        uint64_t prev = buf_get_u64le(q + 17), next = buf_get_u64le(q + 25);
        const off_ent *e = ent_find(S, sid, pid);
        bool same = pk == STRM_PREV_ADVANCED ? e != NULL && e->tso == prev : e == NULL;
        if (!same) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s offset already consumed: %.*s-%.*s-%lld-%llu vs %llu",
                     pk == STRM_PREV_INITIAL_ROWS ? "history" : "target", (int)d.dl, d.db,
                     (int)d.sl, d.stream, (long long)pid, (unsigned long long)next,
                     (unsigned long long)(e != NULL ? e->tso : 0));
            rc = db_error_set(err, ER_DORIS, msg);
        }
    }
    pthread_rwlock_unlock(&S->lock);
    return rc;
}

static int
apply(void *ctx, uint16_t kind, uint64_t tso, const void *data, size_t len, bool is_replay,
      db_error *err)
{
    (void)kind;
    (void)tso;
    (void)is_replay;
    strm_state *S = ctx;
    dec_adv d;
    if (!decode(data, len, &d)) {
        return db_error_set(err, ER_STOR_COMMIT_CORRUPT, "stream advance section");
    }
    pthread_rwlock_wrlock(&S->lock);
    for (uint32_t i = 0; i < d.n; i++) {
        const uint8_t *q = d.ents + (size_t)i * ENTRY_BYTES;
        ent_put(S, (int64_t)buf_get_u64le(q), (int64_t)buf_get_u64le(q + 8), buf_get_u64le(q + 25),
                d.now_ms);
    }
    pthread_rwlock_unlock(&S->lock);
    return DB_OK;
}

/* ---- image ---- */

static int
image_write(void *ctx, uint64_t seq, buf *out, db_error *err)
{
    (void)seq;
    strm_state *S = ctx;
    if (!stor_engine_commit_trylock(S->e)) {
        return db_error_set(err, ER_STOR_COMMIT_BAD,
                            "a storage commit is in progress; checkpoint again");
    }
    pthread_rwlock_rdlock(&S->lock);
    size_t start = out->len;
    buf_put_u32le(out, IMAGE_MAGIC);
    buf_put_u16le(out, IMAGE_FORMAT);
    buf_put_u16le(out, 0);
    buf_put_u64le(out, S->n);
    for (size_t i = 0; i < S->n; i++) {
        buf_put_u64le(out, (uint64_t)S->ents[i].stream_id);
        buf_put_u64le(out, (uint64_t)S->ents[i].part_id);
        buf_put_u64le(out, S->ents[i].tso);
        buf_put_u64le(out, (uint64_t)S->ents[i].last_ms);
    }
    buf_put_u32le(out, crc32c(out->data + start, out->len - start));
    pthread_rwlock_unlock(&S->lock);
    stor_engine_commit_unlock(S->e);
    return DB_OK;
}

static int
image_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err)
{
    (void)seq;
    strm_state *S = ctx;
    const uint8_t *p = data;
    if (len < 20 || buf_get_u32le(p) != IMAGE_MAGIC || (p[4] | p[5] << 8) != IMAGE_FORMAT ||
        crc32c(p, len - 4) != buf_get_u32le(p + len - 4) ||
        (len - 20) / IMG_ENTRY_BYTES != buf_get_u64le(p + 8) || (len - 20) % IMG_ENTRY_BYTES != 0) {
        return db_error_set(err, ER_STOR_COMMIT_CORRUPT, "stream offsets image section");
    }
    uint64_t n = buf_get_u64le(p + 8);
    pthread_rwlock_wrlock(&S->lock);
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *q = p + 16 + i * IMG_ENTRY_BYTES;
        ent_put(S, (int64_t)buf_get_u64le(q), (int64_t)buf_get_u64le(q + 8), buf_get_u64le(q + 16),
                (int64_t)buf_get_u64le(q + 24));
    }
    pthread_rwlock_unlock(&S->lock);
    return DB_OK;
}

/* ---- life cycle and queries ---- */

strm_state *
strm_new(stor_engine *e, cat_editlog *log)
{
    strm_state *S = mem_calloc(1, sizeof *S);
    S->e = e;
    pthread_rwlock_init(&S->lock, NULL);
    stor_engine_register_extra(e, STRM_EXTRA_ADVANCE, apply, S);
    stor_engine_register_extra_check(e, STRM_EXTRA_ADVANCE, check, S);
    cat_editlog_register_section(log, STRM_IMG_OFFSETS, "stream offsets", image_write, image_load,
                                 S);
    return S;
}

void
strm_free(strm_state *S)
{
    if (S == NULL) {
        return;
    }
    pthread_rwlock_destroy(&S->lock);
    mem_free(S->ents);
    mem_free(S);
}

stor_engine *
strm__engine(const strm_state *S)
{
    return S->e;
}

bool
strm_offset(strm_state *S, int64_t stream_id, int64_t part_id, uint64_t *tso, int64_t *last_ms)
{
    pthread_rwlock_rdlock(&S->lock);
    const off_ent *e = ent_find(S, stream_id, part_id);
    if (e != NULL) {
        *tso = e->tso;
        *last_ms = e->last_ms;
    }
    pthread_rwlock_unlock(&S->lock);
    return e != NULL;
}

size_t
strm_forget(strm_state *S, bool (*keep)(void *ctx, int64_t stream_id), void *ctx)
{
    pthread_rwlock_wrlock(&S->lock);
    size_t k = 0, gone = 0;
    for (size_t i = 0; i < S->n; i++) {
        if (keep(ctx, S->ents[i].stream_id)) {
            S->ents[k++] = S->ents[i];
        } else {
            gone++;
        }
    }
    S->n = k;
    pthread_rwlock_unlock(&S->lock);
    return gone;
}
