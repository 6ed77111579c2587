/* SPDX-License-Identifier: Apache-2.0
 * stor_bitmap: versioned delete bitmaps of a merge-on-write tablet. For each (rowset, segment)
 * a list of (version, CRoaring bitmap of row ordinals deleted at that version), versions
 * ascending, so a read at version v applies only marks made at or before v (I2). Also the
 * encoding of a range of versions' additions for edit-log commit records and the image, and the
 * compaction helpers. Not synchronized: the caller holds the tablet's MoW lock (storage.h).
 * See README.md §"Delete-bitmap additions". */
#include "storage/storage.h"

#include <roaring/roaring.h>
#include <string.h>

#include "common/crc32c.h"
#include "common/mem.h"

#define DBM_MAGIC       0x4d424452u /* "RDBM" read as u32le */
#define DBM_FORMAT      1           /* format version written by stor_dbm_encode */
#define DBM_HEADER_SIZE 12          /* magic, format, reserved, entry count */
#define DBM_ENTRY_SIZE  24          /* rowset, segment, version, bitmap size */
#define DBM_CRC_SIZE    4

/* One version's marks of one segment. */
typedef struct dbm_mark {
    uint64_t version;       /* commit version that made these marks */
    roaring_bitmap_t *rows; /* row ordinals; never empty; owned */
} dbm_mark;

/* All marks of one segment. */
typedef struct dbm_seg {
    uint64_t rowset_id;
    uint32_t segment_id;
    uint32_t nmarks; /* >= 1 while the segment is in the set */
    uint32_t cap;    /* allocated length of marks */
    dbm_mark *marks; /* strictly ascending version; owned */
} dbm_seg;

struct stor_dbm {
    dbm_seg *segs; /* sorted by (rowset_id, segment_id), unique; owned */
    size_t nsegs;
    size_t cap;
};

/* A decoded entry of an encoding, before it is applied. */
typedef struct dbm_entry {
    uint64_t rowset_id;
    uint32_t segment_id;
    uint64_t version;
    roaring_bitmap_t *rows;
} dbm_entry;

typedef struct dbm_check {
    bool started;
    uint32_t prev;
    uint64_t n;
    bool ok;
    const roaring_bitmap_t *r;
} dbm_check;

static int seg_cmp(const dbm_seg *s, uint64_t rowset_id, uint32_t segment_id);
static size_t seg_lower_bound(const stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id);
static dbm_seg *seg_find(const stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id);
static dbm_seg *seg_get(stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id);
static void seg_destroy(dbm_seg *s);
static void seg_remove_at(stor_dbm *dbm, size_t i);
static uint64_t seg_last_version(const dbm_seg *s);
static void seg_add(dbm_seg *s, uint64_t version, roaring_bitmap_t *rows);
static bool check_value(uint32_t value, void *arg);
static bool bitmap_is_sane(const roaring_bitmap_t *r);
static uint32_t rd32(const uint8_t *p);
static uint64_t rd64(const uint8_t *p);
static int corrupt(db_error *err, const char *what);

stor_dbm *
stor_dbm_new(void)
{
    return mem_calloc(1, sizeof(stor_dbm));
}

void
stor_dbm_free(stor_dbm *dbm)
{
    if (dbm == NULL) {
        return;
    }
    for (size_t i = 0; i < dbm->nsegs; i++) {
        seg_destroy(&dbm->segs[i]);
    }
    mem_free(dbm->segs);
    mem_free(dbm);
}

/* ---- segment table ---- */

/* <0, 0, >0 as s sorts before, at, after (rowset_id, segment_id). */
static int
seg_cmp(const dbm_seg *s, uint64_t rowset_id, uint32_t segment_id)
{
    if (s->rowset_id != rowset_id) {
        return s->rowset_id < rowset_id ? -1 : 1;
    }
    if (s->segment_id != segment_id) {
        return s->segment_id < segment_id ? -1 : 1;
    }
    return 0;
}

/* Index of the first segment not sorting before (rowset_id, segment_id). */
static size_t
seg_lower_bound(const stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id)
{
    size_t lo = 0, hi = dbm->nsegs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (seg_cmp(&dbm->segs[mid], rowset_id, segment_id) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static dbm_seg *
seg_find(const stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id)
{
    size_t i = seg_lower_bound(dbm, rowset_id, segment_id);
    if (i < dbm->nsegs && seg_cmp(&dbm->segs[i], rowset_id, segment_id) == 0) {
        return &dbm->segs[i];
    }
    return NULL;
}

/* The segment's entry, inserted empty (nmarks 0) when missing; the caller adds a mark at once. */
static dbm_seg *
seg_get(stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id)
{
    size_t i = seg_lower_bound(dbm, rowset_id, segment_id);
    if (i < dbm->nsegs && seg_cmp(&dbm->segs[i], rowset_id, segment_id) == 0) {
        return &dbm->segs[i];
    }
    if (dbm->nsegs == dbm->cap) {
        dbm->cap = dbm->cap ? dbm->cap * 2 : 8;
        dbm->segs = mem_realloc(dbm->segs, dbm->cap * sizeof(dbm_seg));
    }
    memmove(&dbm->segs[i + 1], &dbm->segs[i], (dbm->nsegs - i) * sizeof(dbm_seg));
    dbm->nsegs++;
    dbm_seg *s = &dbm->segs[i];
    memset(s, 0, sizeof(*s));
    s->rowset_id = rowset_id;
    s->segment_id = segment_id;
    return s;
}

static void
seg_destroy(dbm_seg *s)
{
    for (uint32_t j = 0; j < s->nmarks; j++) {
        roaring_bitmap_free(s->marks[j].rows);
    }
    mem_free(s->marks);
    s->marks = NULL;
    s->nmarks = s->cap = 0;
}

static void
seg_remove_at(stor_dbm *dbm, size_t i)
{
    seg_destroy(&dbm->segs[i]);
    memmove(&dbm->segs[i], &dbm->segs[i + 1], (dbm->nsegs - i - 1) * sizeof(dbm_seg));
    dbm->nsegs--;
}

static uint64_t
seg_last_version(const dbm_seg *s)
{
    return s->nmarks ? s->marks[s->nmarks - 1].version : 0;
}

/* Add rows (ownership passes to s) at version >= the last version of s. */
static void
seg_add(dbm_seg *s, uint64_t version, roaring_bitmap_t *rows)
{
    DB_ASSERT(s->nmarks == 0 || version >= seg_last_version(s));
    if (s->nmarks > 0 && s->marks[s->nmarks - 1].version == version) {
        roaring_bitmap_or_inplace(s->marks[s->nmarks - 1].rows, rows);
        roaring_bitmap_run_optimize(s->marks[s->nmarks - 1].rows);
        roaring_bitmap_free(rows);
        return;
    }
    if (s->nmarks == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 2;
        s->marks = mem_realloc(s->marks, s->cap * sizeof(dbm_mark));
    }
    roaring_bitmap_run_optimize(rows);
    s->marks[s->nmarks].version = version;
    s->marks[s->nmarks].rows = rows;
    s->nmarks++;
}

/* ---- marks and reads ---- */

void
stor_dbm_mark(stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id, const uint32_t *rows,
              size_t nrows, uint64_t version)
{
    if (nrows == 0) {
        return;
    }
    roaring_bitmap_t *r = roaring_bitmap_of_ptr(nrows, rows);
    DB_ASSERT(r != NULL);
    seg_add(seg_get(dbm, rowset_id, segment_id), version, r);
}

bool
stor_dbm_is_deleted(const stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id, uint32_t row,
                    uint64_t read_version)
{
    const dbm_seg *s = seg_find(dbm, rowset_id, segment_id);
    if (s == NULL) {
        return false;
    }
    for (uint32_t j = 0; j < s->nmarks && s->marks[j].version <= read_version; j++) {
        if (roaring_bitmap_contains(s->marks[j].rows, row)) {
            return true;
        }
    }
    return false;
}

struct roaring_bitmap_s *
stor_dbm_merged(const stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id, uint64_t read_version)
{
    roaring_bitmap_t *out = roaring_bitmap_create();
    DB_ASSERT(out != NULL);
    const dbm_seg *s = seg_find(dbm, rowset_id, segment_id);
    if (s == NULL) {
        return out;
    }
    for (uint32_t j = 0; j < s->nmarks && s->marks[j].version <= read_version; j++) {
        roaring_bitmap_or_inplace(out, s->marks[j].rows);
    }
    roaring_bitmap_run_optimize(out);
    return out;
}

uint64_t
stor_dbm_count(const stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id, uint64_t read_version)
{
    roaring_bitmap_t *m = stor_dbm_merged(dbm, rowset_id, segment_id, read_version);
    uint64_t n = roaring_bitmap_get_cardinality(m);
    roaring_bitmap_free(m);
    return n;
}

/* ---- compaction helpers ---- */

void
stor_dbm_collapse(stor_dbm *dbm, uint64_t upto_version)
{
    for (size_t i = 0; i < dbm->nsegs; i++) {
        dbm_seg *s = &dbm->segs[i];
        uint32_t k = 0; /* marks [0, k) have version <= upto_version */
        while (k < s->nmarks && s->marks[k].version <= upto_version) {
            k++;
        }
        if (k < 2) {
            continue;
        }
        for (uint32_t j = 1; j < k; j++) {
            roaring_bitmap_or_inplace(s->marks[0].rows, s->marks[j].rows);
            roaring_bitmap_free(s->marks[j].rows);
        }
        roaring_bitmap_run_optimize(s->marks[0].rows);
        s->marks[0].version = s->marks[k - 1].version;
        memmove(&s->marks[1], &s->marks[k], (s->nmarks - k) * sizeof(dbm_mark));
        s->nmarks -= k - 1;
    }
}

bool
stor_dbm_drop_segment(stor_dbm *dbm, uint64_t rowset_id, uint32_t segment_id)
{
    size_t i = seg_lower_bound(dbm, rowset_id, segment_id);
    if (i < dbm->nsegs && seg_cmp(&dbm->segs[i], rowset_id, segment_id) == 0) {
        seg_remove_at(dbm, i);
        return true;
    }
    return false;
}

bool
stor_dbm_drop_rowset(stor_dbm *dbm, uint64_t rowset_id)
{
    size_t i = seg_lower_bound(dbm, rowset_id, 0);
    size_t j = i;
    while (j < dbm->nsegs && dbm->segs[j].rowset_id == rowset_id) {
        seg_destroy(&dbm->segs[j]);
        j++;
    }
    memmove(&dbm->segs[i], &dbm->segs[j], (dbm->nsegs - j) * sizeof(dbm_seg));
    dbm->nsegs -= j - i;
    return j > i;
}

size_t
stor_dbm_nsegments(const stor_dbm *dbm)
{
    return dbm->nsegs;
}

size_t
stor_dbm_memory(const stor_dbm *dbm)
{
    size_t n = sizeof(*dbm) + dbm->cap * sizeof(dbm_seg);
    for (size_t i = 0; i < dbm->nsegs; i++) {
        const dbm_seg *s = &dbm->segs[i];
        n += s->cap * sizeof(dbm_mark);
        for (uint32_t j = 0; j < s->nmarks; j++) {
            n += sizeof(roaring_bitmap_t) + roaring_bitmap_portable_size_in_bytes(s->marks[j].rows);
        }
    }
    return n;
}

/* ---- encoding (README §"Delete-bitmap additions") ---- */

void
stor_dbm_encode(const stor_dbm *dbm, uint64_t min_version, uint64_t max_version, buf *out)
{
    size_t start = out->len;
    uint32_t n = 0;
    for (size_t i = 0; i < dbm->nsegs; i++) {
        const dbm_seg *s = &dbm->segs[i];
        for (uint32_t j = 0; j < s->nmarks; j++) {
            if (s->marks[j].version >= min_version && s->marks[j].version <= max_version) {
                n++;
            }
        }
    }
    buf_put_u32le(out, DBM_MAGIC);
    buf_put_u16le(out, DBM_FORMAT);
    buf_put_u16le(out, 0);
    buf_put_u32le(out, n);
    for (size_t i = 0; i < dbm->nsegs; i++) {
        const dbm_seg *s = &dbm->segs[i];
        for (uint32_t j = 0; j < s->nmarks; j++) {
            const dbm_mark *m = &s->marks[j];
            if (m->version < min_version || m->version > max_version) {
                continue;
            }
            size_t size = roaring_bitmap_portable_size_in_bytes(m->rows);
            DB_ASSERT(size <= UINT32_MAX);
            buf_put_u64le(out, s->rowset_id);
            buf_put_u32le(out, s->segment_id);
            buf_put_u64le(out, m->version);
            buf_put_u32le(out, (uint32_t)size);
            uint8_t *dst = buf_reserve(out, size);
            size_t wrote = roaring_bitmap_portable_serialize(m->rows, (char *)dst);
            DB_ASSERT(wrote == size);
            out->len += size;
        }
    }
    buf_put_u32le(out, crc32c(out->data + start, out->len - start));
}

static uint32_t
rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t
rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static int
corrupt(db_error *err, const char *what)
{
    return db_error_set(err, ER_STOR_BITMAP_CORRUPT, what);
}

/* roaring_iterate callback: values strictly ascending and each one found by contains(). */
static bool
check_value(uint32_t value, void *arg)
{
    dbm_check *c = arg;
    if ((c->started && value <= c->prev) || !roaring_bitmap_contains(c->r, value)) {
        c->ok = false;
        return false;
    }
    c->started = true;
    c->prev = value;
    c->n++;
    return true;
}

/* A deserialized bitmap is usable only if its containers agree with each other: values ascend,
 * contains() finds each one and the cardinality matches. Corrupt input can break all three. */
static bool
bitmap_is_sane(const roaring_bitmap_t *r)
{
    dbm_check c = {.started = false, .prev = 0, .n = 0, .ok = true, .r = r};
    roaring_iterate(r, check_value, &c);
    return c.ok && c.n > 0 && c.n == roaring_bitmap_get_cardinality(r);
}

int
stor_dbm_apply(stor_dbm *dbm, const uint8_t *p, size_t len, db_error *err)
{
    if (len < DBM_HEADER_SIZE + DBM_CRC_SIZE) {
        return corrupt(err, "truncated header");
    }
    if (rd32(p) != DBM_MAGIC) {
        return corrupt(err, "bad magic");
    }
    if (crc32c(p, len - DBM_CRC_SIZE) != rd32(p + len - DBM_CRC_SIZE)) {
        return corrupt(err, "checksum mismatch");
    }
    if ((p[4] | p[5] << 8) != DBM_FORMAT || p[6] != 0 || p[7] != 0) {
        return corrupt(err, "unknown format version");
    }
    uint32_t n = rd32(p + 8);
    size_t end = len - DBM_CRC_SIZE;
    size_t off = DBM_HEADER_SIZE;
    if (n > (end - off) / DBM_ENTRY_SIZE) {
        return corrupt(err, "entry count exceeds the data");
    }
    dbm_entry *ents = mem_calloc(n ? n : 1, sizeof(dbm_entry));
    uint32_t got = 0;
    int rc = DB_ERR;
    for (; got < n; got++) {
        if (end - off < DBM_ENTRY_SIZE) {
            corrupt(err, "truncated entry");
            goto out;
        }
        dbm_entry *e = &ents[got];
        e->rowset_id = rd64(p + off);
        e->segment_id = rd32(p + off + 8);
        e->version = rd64(p + off + 12);
        size_t size = rd32(p + off + 20);
        off += DBM_ENTRY_SIZE;
        if (size > end - off) {
            corrupt(err, "bitmap overruns the data");
            goto out;
        }
        if (got > 0) {
            const dbm_entry *pe = &ents[got - 1];
            int c = pe->rowset_id != e->rowset_id
                            ? (pe->rowset_id < e->rowset_id ? -1 : 1)
                            : (pe->segment_id != e->segment_id
                                       ? (pe->segment_id < e->segment_id ? -1 : 1)
                                       : (pe->version < e->version ? -1 : 1));
            if (c >= 0) {
                corrupt(err, "entries out of order");
                goto out;
            }
        }
        const dbm_seg *s = seg_find(dbm, e->rowset_id, e->segment_id);
        if (s != NULL && e->version < seg_last_version(s)) {
            corrupt(err, "mark older than the segment's newest");
            goto out;
        }
        const char *src = (const char *)(p + off);
        /* The 4-byte cookie is checked here: CRoaring 0.2.66 prints to stderr when it is short. */
        if (size < 4 || roaring_bitmap_portable_deserialize_size(src, size) != size) {
            corrupt(err, "bad bitmap");
            goto out;
        }
        e->rows = roaring_bitmap_portable_deserialize_safe(src, size);
        if (e->rows == NULL || !bitmap_is_sane(e->rows)) {
            corrupt(err, "bad bitmap");
            goto out;
        }
        off += size;
    }
    if (off != end) {
        corrupt(err, "trailing bytes");
        goto out;
    }
    for (uint32_t i = 0; i < n; i++) {
        seg_add(seg_get(dbm, ents[i].rowset_id, ents[i].segment_id), ents[i].version, ents[i].rows);
        ents[i].rows = NULL;
    }
    rc = DB_OK;
out:
    for (uint32_t i = 0; i < n; i++) {
        if (ents[i].rows != NULL) {
            roaring_bitmap_free(ents[i].rows);
        }
    }
    mem_free(ents);
    return rc;
}
