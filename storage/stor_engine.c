/* SPDX-License-Identifier: Apache-2.0
 * stor_engine: the storage engine object, its tablets (rowset lists + delete bitmaps, each under
 * a rwlock), and the commit record. A stor_txn collects per-tablet additions and opaque sections
 * of other modules; stor_txn_commit encodes ONE edit-log record (STOR_REC_COMMIT), appends it
 * (durable) and then publishes it through the same decode + publish path the replay uses, so a
 * replayed record re-publishes identically. The image section holds every tablet. Also the
 * drop record (stor_engine_drop_tablets: tablets leave the map for a graveyard, their files are
 * retired like compaction inputs) and the removal of orphan segment files after a crash. See
 * README.md §Formats "Commit record", §"Dropping tablets". */
#include "storage/stor_int.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <roaring/roaring.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/crc32c.h"
#include "common/mem.h"

/* The tail of the message of a commit whose delete marks name a rowset compaction replaced
 * (stor_error_is_compacted). */
#define COMPACTED_RETRY " was compacted; retry the statement"

bool
stor_error_is_compacted(const db_error *err)
{
    size_t n = strlen(err->msg), k = sizeof COMPACTED_RETRY - 1;
    return err->code == db_error_code_of(ER_STOR_COMMIT_BAD) && n >= k &&
           strcmp(err->msg + n - k, COMPACTED_RETRY) == 0;
}

#define COMMIT_MAGIC        0x4d435652u /* "RVCM" read as u32le */
#define COMMIT_FORMAT       1
#define COMMIT_HEADER_SIZE  32
#define COMMIT_TABLET_FIXED 40
#define COMMIT_EXTRA_FIXED  8
#define IMAGE_MAGIC         0x49545652u /* "RVTI" read as u32le */
#define IMAGE_FORMAT        3 /* 2 adds the per-version TSOs, 3 the compaction floor; 1, 2 read */
#define IMAGE_HEADER_SIZE   16
#define CRC_SIZE            4
#define ENGINE_RCACHE_IDLE  256         /* idle segment readers the engine's pool keeps */
#define COMPACT_MAGIC       0x50435652u /* "RVCP" read as u32le */
#define COMPACT_FORMAT      1
#define COMPACT_FIXED       56
#define DROP_MAGIC          0x54445652u /* "RVDT" read as u32le */
#define DROP_FORMAT         1
#define DROP_FIXED          16

/* One published tablet. */
struct stor_tablet {
    uint64_t id;
    stor_engine *eng; /* owner (snapshots register with its epochs) */
    char *dir;        /* root_path/<id>; owned; immutable */
    /* lock protects version, rowsets / nrowsets / cap and everything in dbm: shared for
     * snapshots and bitmap reads, exclusive for publish (live or replay) and image load. */
    pthread_rwlock_t lock;
    uint64_t version;          /* visible version: the last published commit's, 0 = none */
    stor_rowset_meta *rowsets; /* ascending version; strings owned */
    size_t nrowsets, cap;
    stor_dbm *dbm;  /* delete bitmaps; owned */
    uint64_t *vtso; /* vtso[v - 1] = commit TSO of version v, for v in 1..nvtso; owned. A
                       tablet loaded from a format-1 image has nvtso 0 (TSOs unknown). */
    size_t nvtso, vcap;
    /* write_mu serializes the merge-on-write writers of this tablet (stor_writer.c): a writer
     * holds it from the start of its chain run (primary-key lookups, delete marks) through the
     * publish and the primary-key index update, so the index always equals the published
     * state when the next writer looks keys up. pk and pk_ready are read and written only
     * under write_mu (scans never touch pk). Taken before commit_mu / map_mu / lock. */
    pthread_mutex_t write_mu;
    stor_pkindex *pk; /* MoW primary-key index; owned; NULL until first needed */
    bool pk_ready;    /* pk holds every key of the published rowsets (built lazily) */
    /* Compaction (stor_compact.c). floor is under lock and persisted in the image; the rest are
     * in-memory hints for the background picker, also under lock. */
    uint64_t floor;          /* highest version merged by any compaction; reads below fail */
    uint64_t base_version;   /* version of the last base output (0 = none since start) */
    uint32_t ncum;           /* cumulative outputs since the last base compaction */
    int32_t delete_sign_uid; /* uid of __DORIS_DELETE_SIGN__ (MoW), -1 = unknown / none */
    /* Set (under commit_mu and lock, never cleared) when a STOR_REC_DROP publishes: the tablet
     * has left the map for the graveyard, its rowsets went to the retired list; commits and
     * compactions naming it fail. */
    bool dropped;
};

/* Input rowsets replaced by a compaction, kept until no snapshot from before it is alive. */
typedef struct retired {
    stor_tablet *t;
    uint64_t epoch;    /* epoch current at the publish; snapshots of epochs <= it may read it */
    uint64_t *rowsets; /* owned */
    size_t nrowsets;
    char **paths; /* owned; full paths of the segment files */
    size_t npaths;
    bool is_drop; /* a dropped tablet's files: the purge also releases t's bitmaps and index */
} retired;

/* Live snapshots of one epoch. */
typedef struct epoch_count {
    uint64_t epoch;
    uint64_t count;
} epoch_count;

/* Handler of one kind of extra commit section. */
typedef struct extra_handler {
    uint16_t kind;
    stor_extra_fn fn;
    void *ctx;
    stor_extra_check_fn check; /* NULL = none */
    void *check_ctx;
} extra_handler;

struct stor_engine {
    char *root; /* owned */
    cat_editlog *log;
    pthread_mutex_t map_mu; /* protects tablets / ntablets / cap (not the tablets' contents) */
    stor_tablet **tablets;  /* sorted by id, unique; owned */
    size_t ntablets, cap;
    /* Dropped tablets (map_mu): sorted by id, owned, freed only by stor_engine_free. Scans,
     * writers and compaction hold stor_tablet pointers without any registration that the drop
     * could wait for, so the object (a few hundred bytes once purged) outlives every holder. */
    stor_tablet **graveyard;
    size_t ngrave, grave_cap;
    pthread_mutex_t commit_mu; /* serializes commits: version choice, append, publish */
    /* TSO of the last commit whose tablets are all published (0 = none). A statement that cuts
     * every tablet snapshot at this TSO sees each commit wholly or not at all, even when the
     * commit spans tablets it snapshots one after another. Written under commit_mu (publish,
     * replay, image load), read by anyone. */
    _Atomic uint64_t visible_tso;
    extra_handler *extras; /* registered before the replay; immutable afterwards */
    size_t nextras;
    /* Next rowset id to hand out: above every rowset id published (live, replay, image load),
     * so ids are unique within every tablet, also across restarts. */
    _Atomic uint64_t next_rowset_id;
    stor_stage *stages; /* added by stor_engine_add_stage (start-up only); owned */
    size_t nstages;
    stor_cache *cache; /* page cache shared by scans and writers; owned; NULL = none */
    /* epoch_mu protects cur_epoch, live (ascending epoch, counts > 0 except transiently) and
     * the retired list. Leaf lock: nothing is taken while holding it. */
    pthread_mutex_t epoch_mu;
    uint64_t cur_epoch;
    epoch_count *live;
    size_t nlive, live_cap;
    retired *retired;
    size_t nretired, retired_cap;
    pthread_mutex_t compact_mu; /* one compaction at a time (stor_compact_tablet) */
    stor__compactor *bg;        /* background thread state (stor_compact.c); NULL = none */
    stor__compact_hook_fn hook; /* tests: called before the publish locks are taken */
    stor_rcache *rcache;        /* pool of open segment readers; owned; never NULL */
    void *hook_ctx;
};

/* A transaction's changes to one tablet. */
typedef struct txn_del {
    uint64_t rowset_id;
    uint32_t segment_id;
    uint32_t *rows; /* owned */
    size_t nrows;
} txn_del;

typedef struct txn_tablet {
    uint64_t tablet_id;
    bool has_rowset;
    uint64_t rowset_id, rows;
    uint32_t nsegments;
    char **segments; /* owned */
    txn_del *dels;   /* owned */
    size_t ndels, cap;
} txn_tablet;

typedef struct txn_extra {
    uint16_t kind;
    uint8_t *data; /* owned */
    size_t len;
} txn_extra;

struct stor_txn {
    uint64_t txn_id;
    txn_tablet *tablets;
    size_t ntablets, cap;
    txn_extra *extras;
    size_t nextras, xcap;
    bool is_committed;
};

/* A decoded commit record: pointers into the record bytes. */
typedef struct dec_tablet {
    uint64_t tablet_id, version;
    bool has_rowset;
    uint64_t rowset_id, rows;
    uint32_t nsegments;
    const uint8_t *names; /* nsegments × (u16 len, bytes) */
    const uint8_t *dbm;   /* stor_dbm_encode blob, or NULL */
    uint32_t dbm_len;
} dec_tablet;

typedef struct dec_extra {
    uint16_t kind;
    const uint8_t *data;
    uint32_t len;
} dec_extra;

typedef struct dec_commit {
    uint64_t txn_id, tso;
    uint32_t ntablets, nextras;
    dec_tablet *tablets; /* owned */
    dec_extra *extras;   /* owned */
} dec_commit;

/* Bounds-checked reader over untrusted bytes. */
typedef struct cursor {
    const uint8_t *p;
    size_t len, off;
    bool is_bad;
} cursor;

static int replay_commit(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
                         db_error *err);
static int replay_compact(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
                          db_error *err);
static int replay_drop(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
                       db_error *err);
static int corrupt(db_error *err, const char *what);
static int image_write(void *ctx, uint64_t seq, buf *out, db_error *err);
static int image_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err);
static stor_tablet *tablet_new(stor_engine *e, uint64_t id);
static void tablet_free(stor_tablet *t);
static bool name_valid(const uint8_t *s, size_t len);
static void rowset_meta_destroy(stor_rowset_meta *m);
static int decode_commit(stor_engine *e, const uint8_t *p, size_t len, dec_commit *c,
                         db_error *err);
static void dec_commit_destroy(dec_commit *c);
static int publish(stor_engine *e, const dec_commit *c, bool is_replay, db_error *err);
static const extra_handler *find_extra(const stor_engine *e, uint16_t kind);
static void retired_destroy(retired *r);
static void encode_live_marks(stor_tablet *t, buf *out);

/* ---- little-endian cursor ---- */

static const uint8_t *
cur_take(cursor *c, size_t n)
{
    if (c->is_bad || c->len - c->off < n) {
        c->is_bad = true;
        return NULL;
    }
    const uint8_t *p = c->p + c->off;
    c->off += n;
    return p;
}

static uint64_t
cur_u(cursor *c, size_t n)
{
    const uint8_t *p = cur_take(c, n);
    uint64_t v = 0;
    for (size_t i = 0; p != NULL && i < n; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

static bool
check_crc(const uint8_t *p, size_t len, size_t min_len)
{
    if (len < min_len + CRC_SIZE) {
        return false;
    }
    cursor c = {p + len - CRC_SIZE, CRC_SIZE, 0, false};
    return crc32c(p, len - CRC_SIZE) == (uint32_t)cur_u(&c, 4);
}

static bool
name_valid(const uint8_t *s, size_t len)
{
    if (len == 0 || len > STOR_SEGMENT_NAME_MAX || memchr(s, '/', len) != NULL ||
        memchr(s, '\0', len) != NULL) {
        return false;
    }
    return !(len == 1 && s[0] == '.') && !(len == 2 && s[0] == '.' && s[1] == '.');
}

/* Read nsegments names (u16 len + bytes) from c, checking each; copies them when out != NULL. */
static bool
read_names(cursor *c, uint32_t n, char **out)
{
    for (uint32_t i = 0; i < n; i++) {
        size_t len = (size_t)cur_u(c, 2);
        const uint8_t *s = cur_take(c, len);
        if (s == NULL || !name_valid(s, len)) {
            return false;
        }
        if (out != NULL) {
            out[i] = mem_strndup((const char *)s, len);
        }
    }
    return true;
}

static void
put_names(buf *out, char *const *names, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        buf_put_u16le(out, (uint16_t)len);
        buf_append(out, names[i], len);
    }
}

/* True when blob decodes into an empty stor_dbm (format check without touching a tablet). */
static bool
dbm_blob_valid(const uint8_t *p, size_t len)
{
    stor_dbm *scratch = stor_dbm_new();
    db_error e;
    db_error_clear(&e);
    bool ok = stor_dbm_apply(scratch, p, len, &e) == DB_OK;
    stor_dbm_free(scratch);
    return ok;
}

/* ==== engine ==== */

stor_engine *
stor_engine_new(const char *root_path, cat_editlog *log, db_error *err)
{
    if (mkdir(root_path, 0755) != 0 && errno != EEXIST) {
        db_error_set(err, ER_IO_ERROR, root_path, strerror(errno));
        return NULL;
    }
    stor_engine *e = mem_calloc(1, sizeof *e);
    e->root = mem_strdup(root_path);
    e->log = log;
    pthread_mutex_init(&e->map_mu, NULL);
    pthread_mutex_init(&e->commit_mu, NULL);
    atomic_init(&e->next_rowset_id, 1);
    pthread_mutex_init(&e->epoch_mu, NULL);
    pthread_mutex_init(&e->compact_mu, NULL);
    e->cur_epoch = 1;
    e->rcache = stor_rcache_new(ENGINE_RCACHE_IDLE);
    cat_editlog_register(log, STOR_REC_COMMIT, "storage commit", replay_commit, e);
    cat_editlog_register(log, STOR_REC_COMPACT, "storage compaction", replay_compact, e);
    cat_editlog_register(log, STOR_REC_DROP, "storage tablet drop", replay_drop, e);
    cat_editlog_register_section(log, STOR_IMG_TABLETS, "storage tablets", image_write, image_load,
                                 e);
    return e;
}

void
stor_engine_free(stor_engine *e)
{
    if (e == NULL) {
        return;
    }
    stor_engine_stop_compaction(e);
    for (size_t i = 0; i < e->nretired; i++) {
        retired_destroy(&e->retired[i]); /* files stay: orphans at the next start */
    }
    mem_free(e->retired);
    mem_free(e->live);
    stor_rcache_free(e->rcache);
    pthread_mutex_destroy(&e->epoch_mu);
    pthread_mutex_destroy(&e->compact_mu);
    for (size_t i = 0; i < e->ntablets; i++) {
        tablet_free(e->tablets[i]);
    }
    mem_free(e->tablets);
    for (size_t i = 0; i < e->ngrave; i++) {
        tablet_free(e->graveyard[i]);
    }
    mem_free(e->graveyard);
    mem_free(e->extras);
    mem_free(e->stages);
    stor_cache_free(e->cache);
    pthread_mutex_destroy(&e->map_mu);
    pthread_mutex_destroy(&e->commit_mu);
    mem_free(e->root);
    mem_free(e);
}

void
stor_engine_register_extra(stor_engine *e, uint16_t kind, stor_extra_fn fn, void *ctx)
{
    DB_ASSERT(kind != 0 && fn != NULL && find_extra(e, kind) == NULL);
    e->extras = mem_realloc(e->extras, (e->nextras + 1) * sizeof *e->extras);
    e->extras[e->nextras++] = (extra_handler){kind, fn, ctx, NULL, NULL};
}

void
stor_engine_register_extra_check(stor_engine *e, uint16_t kind, stor_extra_check_fn check,
                                 void *ctx)
{
    extra_handler *h = NULL;
    for (size_t i = 0; i < e->nextras; i++) {
        if (e->extras[i].kind == kind) {
            h = &e->extras[i];
        }
    }
    DB_ASSERT(h != NULL && check != NULL && h->check == NULL);
    h->check = check;
    h->check_ctx = ctx;
}

static const extra_handler *
find_extra(const stor_engine *e, uint16_t kind)
{
    for (size_t i = 0; i < e->nextras; i++) {
        if (e->extras[i].kind == kind) {
            return &e->extras[i];
        }
    }
    return NULL;
}

/* Index of the first tablet of arr[0..n) with id >= id (map_mu held). */
static size_t
tablet_pos_in(stor_tablet *const *arr, size_t n, uint64_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (arr[mid]->id < id) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static size_t
tablet_pos(const stor_engine *e, uint64_t id)
{
    return tablet_pos_in(e->tablets, e->ntablets, id);
}

/* The dropped tablet with id, or NULL (map_mu held). */
static stor_tablet *
grave_find(const stor_engine *e, uint64_t id)
{
    size_t g = tablet_pos_in(e->graveyard, e->ngrave, id);
    return g < e->ngrave && e->graveyard[g]->id == id ? e->graveyard[g] : NULL;
}

stor_tablet *
stor_engine_tablet(stor_engine *e, uint64_t tablet_id, bool create)
{
    pthread_mutex_lock(&e->map_mu);
    size_t i = tablet_pos(e, tablet_id);
    stor_tablet *t = NULL;
    if (i < e->ntablets && e->tablets[i]->id == tablet_id) {
        t = e->tablets[i];
    } else if ((t = grave_find(e, tablet_id)) != NULL) {
        /* dropped: the same object, never recreated (partition ids are never reused) */
    } else if (create) {
        t = tablet_new(e, tablet_id);
        if (e->ntablets == e->cap) {
            e->cap = e->cap == 0 ? 16 : e->cap * 2;
            e->tablets = mem_realloc(e->tablets, e->cap * sizeof *e->tablets);
        }
        memmove(&e->tablets[i + 1], &e->tablets[i], (e->ntablets - i) * sizeof *e->tablets);
        e->tablets[i] = t;
        e->ntablets++;
    }
    pthread_mutex_unlock(&e->map_mu);
    return t;
}

size_t
stor_engine_ntablets(stor_engine *e)
{
    pthread_mutex_lock(&e->map_mu);
    size_t n = e->ntablets;
    pthread_mutex_unlock(&e->map_mu);
    return n;
}

/* ==== tablets ==== */

/* Count a new snapshot in the current epoch; returns the epoch. */
static uint64_t
epoch_register(stor_engine *e)
{
    pthread_mutex_lock(&e->epoch_mu);
    uint64_t ep = e->cur_epoch;
    if (e->nlive > 0 && e->live[e->nlive - 1].epoch == ep) {
        e->live[e->nlive - 1].count++;
    } else {
        if (e->nlive == e->live_cap) {
            e->live_cap = e->live_cap == 0 ? 8 : e->live_cap * 2;
            e->live = mem_realloc(e->live, e->live_cap * sizeof *e->live);
        }
        e->live[e->nlive++] = (epoch_count){ep, 1};
    }
    pthread_mutex_unlock(&e->epoch_mu);
    return ep;
}

static void
epoch_unregister(stor_engine *e, uint64_t ep)
{
    pthread_mutex_lock(&e->epoch_mu);
    size_t lo = 0, hi = e->nlive;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e->live[mid].epoch < ep) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    DB_ASSERT(lo < e->nlive && e->live[lo].epoch == ep && e->live[lo].count > 0);
    if (--e->live[lo].count == 0) {
        memmove(&e->live[lo], &e->live[lo + 1], (e->nlive - lo - 1) * sizeof *e->live);
        e->nlive--;
    }
    pthread_mutex_unlock(&e->epoch_mu);
}

static stor_tablet *
tablet_new(stor_engine *e, uint64_t id)
{
    stor_tablet *t = mem_calloc(1, sizeof *t);
    t->id = id;
    t->eng = e;
    t->delete_sign_uid = -1;
    size_t len = strlen(e->root) + 32;
    t->dir = mem_alloc(len);
    snprintf(t->dir, len, "%s/%" PRIu64, e->root, id);
    pthread_rwlock_init(&t->lock, NULL);
    pthread_mutex_init(&t->write_mu, NULL);
    t->dbm = stor_dbm_new();
    return t;
}

static void
rowset_meta_destroy(stor_rowset_meta *m)
{
    for (uint32_t i = 0; i < m->nsegments; i++) {
        mem_free(m->segments[i]);
    }
    mem_free(m->segments);
}

static void
tablet_free(stor_tablet *t)
{
    for (size_t i = 0; i < t->nrowsets; i++) {
        rowset_meta_destroy(&t->rowsets[i]);
    }
    mem_free(t->rowsets);
    stor_dbm_free(t->dbm);
    mem_free(t->vtso);
    stor_pkindex_free(t->pk);
    pthread_mutex_destroy(&t->write_mu);
    pthread_rwlock_destroy(&t->lock);
    mem_free(t->dir);
    mem_free(t);
}

uint64_t
stor_engine_visible_tso(stor_engine *e)
{
    return atomic_load(&e->visible_tso);
}

uint64_t
stor_tablet_id(const stor_tablet *t)
{
    return t->id;
}

const char *
stor_tablet_dir(const stor_tablet *t)
{
    return t->dir;
}

int
stor_tablet_make_dir(stor_tablet *t, db_error *err)
{
    if (mkdir(t->dir, 0755) != 0 && errno != EEXIST) {
        return db_error_set(err, ER_IO_ERROR, t->dir, strerror(errno));
    }
    return DB_OK;
}

uint64_t
stor_tablet_version(stor_tablet *t)
{
    pthread_rwlock_rdlock(&t->lock);
    uint64_t v = t->version;
    pthread_rwlock_unlock(&t->lock);
    return v;
}

/* Append a rowset to t (exclusive lock held); takes ownership of segments. */
static void
tablet_add_rowset(stor_tablet *t, const stor_rowset_meta *m)
{
    if (t->nrowsets == t->cap) {
        t->cap = t->cap == 0 ? 8 : t->cap * 2;
        t->rowsets = mem_realloc(t->rowsets, t->cap * sizeof *t->rowsets);
    }
    t->rowsets[t->nrowsets++] = *m;
}

static bool
tablet_has_rowset(const stor_tablet *t, uint64_t rowset_id)
{
    for (size_t i = 0; i < t->nrowsets; i++) {
        if (t->rowsets[i].rowset_id == rowset_id) {
            return true;
        }
    }
    return false;
}

void
stor_tablet_snapshot(stor_tablet *t, stor_snapshot *snap)
{
    /* Register before copying the rowsets: a compaction publishing after this point retires
     * with an epoch >= ours, so the files this copy names outlive the snapshot. */
    snap->engine = t->eng;
    snap->epoch = epoch_register(t->eng);
    pthread_rwlock_rdlock(&t->lock);
    snap->tablet_id = t->id;
    snap->version = t->version;
    snap->floor = t->floor;
    snap->nvtso = t->nvtso;
    snap->vtso = mem_calloc(t->nvtso == 0 ? 1 : t->nvtso, sizeof *snap->vtso);
    if (t->nvtso) {
        memcpy(snap->vtso, t->vtso, t->nvtso * sizeof *snap->vtso);
    }
    snap->nrowsets = t->nrowsets;
    snap->rowsets = mem_calloc(t->nrowsets == 0 ? 1 : t->nrowsets, sizeof *snap->rowsets);
    for (size_t i = 0; i < t->nrowsets; i++) {
        const stor_rowset_meta *src = &t->rowsets[i];
        stor_rowset_meta *dst = &snap->rowsets[i];
        *dst = *src;
        dst->segments = mem_calloc(src->nsegments == 0 ? 1 : src->nsegments, sizeof(char *));
        for (uint32_t j = 0; j < src->nsegments; j++) {
            dst->segments[j] = mem_strdup(src->segments[j]);
        }
    }
    pthread_rwlock_unlock(&t->lock);
}

void
stor_snapshot_destroy(stor_snapshot *snap)
{
    if (snap->engine != NULL) {
        epoch_unregister(snap->engine, snap->epoch);
    }
    for (size_t i = 0; i < snap->nrowsets; i++) {
        rowset_meta_destroy(&snap->rowsets[i]);
    }
    mem_free(snap->rowsets);
    mem_free(snap->vtso);
    memset(snap, 0, sizeof *snap);
}

struct roaring_bitmap_s *
stor_tablet_deleted(stor_tablet *t, uint64_t rowset_id, uint32_t segment_id, uint64_t read_version)
{
    pthread_rwlock_rdlock(&t->lock);
    roaring_bitmap_t *r = stor_dbm_merged(t->dbm, rowset_id, segment_id, read_version); /* I2 */
    pthread_rwlock_unlock(&t->lock);
    return r;
}

bool
stor_tablet_row_deleted(stor_tablet *t, uint64_t rowset_id, uint32_t segment_id, uint32_t row,
                        uint64_t read_version)
{
    pthread_rwlock_rdlock(&t->lock);
    bool d = stor_dbm_is_deleted(t->dbm, rowset_id, segment_id, row, read_version); /* I2 */
    pthread_rwlock_unlock(&t->lock);
    return d;
}

void
stor_tablet_encode_dbm(stor_tablet *t, buf *out)
{
    pthread_rwlock_rdlock(&t->lock);
    stor_dbm_encode(t->dbm, 0, UINT64_MAX, out);
    pthread_rwlock_unlock(&t->lock);
}

/* ==== transactions ==== */

stor_txn *
stor_txn_new(uint64_t txn_id)
{
    stor_txn *txn = mem_calloc(1, sizeof *txn);
    txn->txn_id = txn_id;
    return txn;
}

void
stor_txn_free(stor_txn *txn)
{
    if (txn == NULL) {
        return;
    }
    for (size_t i = 0; i < txn->ntablets; i++) {
        txn_tablet *tt = &txn->tablets[i];
        for (uint32_t j = 0; j < tt->nsegments; j++) {
            mem_free(tt->segments[j]);
        }
        mem_free(tt->segments);
        for (size_t j = 0; j < tt->ndels; j++) {
            mem_free(tt->dels[j].rows);
        }
        mem_free(tt->dels);
    }
    mem_free(txn->tablets);
    for (size_t i = 0; i < txn->nextras; i++) {
        mem_free(txn->extras[i].data);
    }
    mem_free(txn->extras);
    mem_free(txn);
}

static txn_tablet *
txn_tablet_get(stor_txn *txn, uint64_t tablet_id)
{
    DB_ASSERT(!txn->is_committed);
    for (size_t i = 0; i < txn->ntablets; i++) {
        if (txn->tablets[i].tablet_id == tablet_id) {
            return &txn->tablets[i];
        }
    }
    if (txn->ntablets == txn->cap) {
        txn->cap = txn->cap == 0 ? 4 : txn->cap * 2;
        txn->tablets = mem_realloc(txn->tablets, txn->cap * sizeof *txn->tablets);
    }
    txn_tablet *tt = &txn->tablets[txn->ntablets++];
    memset(tt, 0, sizeof *tt);
    tt->tablet_id = tablet_id;
    return tt;
}

void
stor_txn_add_rowset(stor_txn *txn, uint64_t tablet_id, uint64_t rowset_id, uint64_t rows,
                    const char *const *segments, uint32_t nsegments)
{
    txn_tablet *tt = txn_tablet_get(txn, tablet_id);
    DB_ASSERT(!tt->has_rowset);
    tt->has_rowset = true;
    tt->rowset_id = rowset_id;
    tt->rows = rows;
    tt->nsegments = nsegments;
    tt->segments = mem_calloc(nsegments == 0 ? 1 : nsegments, sizeof(char *));
    for (uint32_t i = 0; i < nsegments; i++) {
        DB_ASSERT(name_valid((const uint8_t *)segments[i], strlen(segments[i])));
        tt->segments[i] = mem_strdup(segments[i]);
    }
}

void
stor_txn_delete(stor_txn *txn, uint64_t tablet_id, uint64_t rowset_id, uint32_t segment_id,
                const uint32_t *rows, size_t nrows)
{
    txn_tablet *tt = txn_tablet_get(txn, tablet_id);
    if (tt->ndels == tt->cap) {
        tt->cap = tt->cap == 0 ? 4 : tt->cap * 2;
        tt->dels = mem_realloc(tt->dels, tt->cap * sizeof *tt->dels);
    }
    txn_del *d = &tt->dels[tt->ndels++];
    d->rowset_id = rowset_id;
    d->segment_id = segment_id;
    d->nrows = nrows;
    d->rows = mem_alloc(nrows * sizeof *rows);
    memcpy(d->rows, rows, nrows * sizeof *rows);
}

void
stor_txn_add_extra(stor_txn *txn, uint16_t kind, const void *data, size_t len)
{
    DB_ASSERT(!txn->is_committed && kind != 0 && len <= UINT32_MAX);
    if (txn->nextras == txn->xcap) {
        txn->xcap = txn->xcap == 0 ? 4 : txn->xcap * 2;
        txn->extras = mem_realloc(txn->extras, txn->xcap * sizeof *txn->extras);
    }
    txn_extra *x = &txn->extras[txn->nextras++];
    x->kind = kind;
    x->len = len;
    x->data = mem_alloc(len);
    memcpy(x->data, data, len);
}

static int
cmp_txn_tablet(const void *a, const void *b)
{
    uint64_t x = ((const txn_tablet *)a)->tablet_id, y = ((const txn_tablet *)b)->tablet_id;
    return x < y ? -1 : x > y;
}

/* Encode txn as a commit record (README §"Commit record"); versions[i] is tablet i's new
 * version. Tablets are sorted by id first. */
static void
encode_commit(stor_txn *txn, uint64_t tso, const uint64_t *versions, buf *out)
{
    buf_put_u32le(out, COMMIT_MAGIC);
    buf_put_u16le(out, COMMIT_FORMAT);
    buf_put_u16le(out, 0);
    buf_put_u64le(out, txn->txn_id);
    buf_put_u64le(out, tso);
    buf_put_u32le(out, (uint32_t)txn->ntablets);
    buf_put_u32le(out, (uint32_t)txn->nextras);
    buf dbm_blob;
    buf_init(&dbm_blob);
    for (size_t i = 0; i < txn->ntablets; i++) {
        const txn_tablet *tt = &txn->tablets[i];
        buf_put_u64le(out, tt->tablet_id);
        buf_put_u64le(out, versions[i]);
        buf_put_u32le(out, tt->has_rowset ? 1 : 0);
        buf_put_u32le(out, tt->nsegments);
        buf_put_u64le(out, tt->rowset_id);
        buf_put_u64le(out, tt->rows);
        put_names(out, tt->segments, tt->nsegments);
        buf_clear(&dbm_blob);
        if (tt->ndels > 0) {
            stor_dbm *tmp = stor_dbm_new();
            for (size_t j = 0; j < tt->ndels; j++) {
                const txn_del *d = &tt->dels[j];
                stor_dbm_mark(tmp, d->rowset_id, d->segment_id, d->rows, d->nrows, versions[i]);
            }
            if (stor_dbm_nsegments(tmp) > 0) {
                stor_dbm_encode(tmp, versions[i], versions[i], &dbm_blob);
            }
            stor_dbm_free(tmp);
        }
        buf_put_u32le(out, (uint32_t)dbm_blob.len);
        buf_append(out, dbm_blob.data, dbm_blob.len);
    }
    buf_destroy(&dbm_blob);
    for (size_t i = 0; i < txn->nextras; i++) {
        buf_put_u16le(out, txn->extras[i].kind);
        buf_put_u16le(out, 0);
        buf_put_u32le(out, (uint32_t)txn->extras[i].len);
        buf_append(out, txn->extras[i].data, txn->extras[i].len);
    }
    buf_put_u32le(out, crc32c(out->data, out->len));
}

int
stor_txn_commit(stor_engine *e, stor_txn *txn, uint64_t tso, db_error *err)
{
    return stor_txn_commit_at(e, txn, NULL, &tso, err);
}

int
stor_txn_commit_at(stor_engine *e, stor_txn *txn, cat_tso *alloc, uint64_t *tsop, db_error *err)
{
    DB_ASSERT(!txn->is_committed);
    txn->is_committed = true;
    for (size_t i = 0; i < txn->nextras; i++) {
        DB_ASSERT(find_extra(e, txn->extras[i].kind) != NULL);
    }
    if (txn->ntablets > 1) {
        qsort(txn->tablets, txn->ntablets, sizeof *txn->tablets, cmp_txn_tablet);
    }
    uint64_t *versions = mem_calloc(txn->ntablets + 1, sizeof *versions);
    buf rec;
    buf_init(&rec);
    dec_commit c = {0};
    int rc = DB_OK;
    uint64_t tso = 0;
    pthread_mutex_lock(&e->commit_mu);
    /* TSOs taken under commit_mu ascend with the versions they publish (time travel and the
     * binlog read versions by TSO). */
    if (alloc != NULL && cat_tso_next(alloc, tsop, err) != DB_OK) {
        rc = DB_ERR;
        goto out;
    }
    tso = *tsop;
    /* Under commit_mu no other commit changes a version between this choice and the publish. */
    for (size_t i = 0; i < txn->ntablets; i++) {
        /* A tablet that does not exist yet is created by the publish, not before the append. */
        stor_tablet *t = stor_engine_tablet(e, txn->tablets[i].tablet_id, false);
        versions[i] = 1;
        bool is_dup = false;
        if (t != NULL) {
            pthread_rwlock_rdlock(&t->lock);
            versions[i] = t->version + 1;
            is_dup = txn->tablets[i].has_rowset && tablet_has_rowset(t, txn->tablets[i].rowset_id);
            pthread_rwlock_unlock(&t->lock);
        }
        if (t != NULL && t->dropped) { /* dropped under commit_mu: a stale write */
            char why[128];
            snprintf(why, sizeof why,
                     "tablet %" PRIu64 " was dropped (its table or partition is gone)",
                     txn->tablets[i].tablet_id);
            rc = db_error_set(err, ER_STOR_COMMIT_BAD, why);
            goto out;
        }
        const char *gone = NULL;
        uint64_t gone_rs = 0;
        for (size_t j = 0; t != NULL && j < txn->tablets[i].ndels && gone == NULL; j++) {
            gone_rs = txn->tablets[i].dels[j].rowset_id;
            pthread_rwlock_rdlock(&t->lock);
            gone = tablet_has_rowset(t, gone_rs) ? NULL : "compacted";
            pthread_rwlock_unlock(&t->lock);
        }
        if (gone != NULL) { /* marks of a rowset compaction replaced since the statement read */
            char why[128];
            snprintf(why, sizeof why, "rowset %" PRIu64 " of tablet %" PRIu64 "%s", gone_rs,
                     txn->tablets[i].tablet_id, COMPACTED_RETRY);
            rc = db_error_set(err, ER_STOR_COMMIT_BAD, why);
            goto out;
        }
        if (is_dup) {
            char why[96];
            snprintf(why, sizeof why, "rowset %" PRIu64 " already exists in tablet %" PRIu64,
                     txn->tablets[i].rowset_id, txn->tablets[i].tablet_id);
            rc = db_error_set(err, ER_STOR_COMMIT_BAD, why);
            goto out;
        }
    }
    /* Checks of extra sections (a stream's offset compare-and-set) see the state every earlier
     * commit published, and nothing can change it before this commit publishes. */
    for (size_t i = 0; i < txn->nextras; i++) {
        const extra_handler *h = find_extra(e, txn->extras[i].kind);
        if (h->check != NULL && h->check(h->check_ctx, txn->extras[i].kind, txn->extras[i].data,
                                         txn->extras[i].len, err) != DB_OK) {
            rc = DB_ERR;
            goto out;
        }
    }
    encode_commit(txn, tso, versions, &rec);
    /* Decode our own bytes: the live publish takes exactly the replay's path (I14). */
    rc = decode_commit(e, rec.data, rec.len, &c, err);
    DB_ASSERT(rc == DB_OK);
    rc = cat_editlog_append(e->log, STOR_REC_COMMIT, rec.data, rec.len, NULL, err);
    if (rc != DB_OK) {
        goto out; /* I1: nothing published */
    }
    rc = publish(e, &c, false, err);
out:
    pthread_mutex_unlock(&e->commit_mu);
    dec_commit_destroy(&c);
    buf_destroy(&rec);
    mem_free(versions);
    return rc;
}

/* ==== commit record: decode, publish, replay ==== */

static int
corrupt(db_error *err, const char *what)
{
    return db_error_set(err, ER_STOR_COMMIT_CORRUPT, what);
}

static void
dec_commit_destroy(dec_commit *c)
{
    mem_free(c->tablets);
    mem_free(c->extras);
    memset(c, 0, sizeof *c);
}

/* Decode and check a commit record completely (format, CRC, names, bitmaps, extra kinds). */
static int
decode_commit(stor_engine *e, const uint8_t *p, size_t len, dec_commit *c, db_error *err)
{
    memset(c, 0, sizeof *c);
    if (!check_crc(p, len, COMMIT_HEADER_SIZE)) {
        return corrupt(err, "commit record too short or CRC mismatch");
    }
    cursor cur = {p, len - CRC_SIZE, 0, false};
    uint32_t magic = (uint32_t)cur_u(&cur, 4);
    uint16_t format = (uint16_t)cur_u(&cur, 2);
    (void)cur_u(&cur, 2);
    if (magic != COMMIT_MAGIC || format != COMMIT_FORMAT) {
        return corrupt(err, "bad commit record magic or format version");
    }
    c->txn_id = cur_u(&cur, 8);
    c->tso = cur_u(&cur, 8);
    c->ntablets = (uint32_t)cur_u(&cur, 4);
    c->nextras = (uint32_t)cur_u(&cur, 4);
    /* Each entry takes at least its fixed part: bound the counts before allocating. */
    if ((uint64_t)c->ntablets * (COMMIT_TABLET_FIXED + 4) > len ||
        (uint64_t)c->nextras * COMMIT_EXTRA_FIXED > len) {
        return corrupt(err, "commit record counts exceed its size");
    }
    c->tablets = mem_calloc(c->ntablets + 1, sizeof *c->tablets);
    c->extras = mem_calloc(c->nextras + 1, sizeof *c->extras);
    for (uint32_t i = 0; i < c->ntablets; i++) {
        dec_tablet *d = &c->tablets[i];
        d->tablet_id = cur_u(&cur, 8);
        d->version = cur_u(&cur, 8);
        uint32_t flags = (uint32_t)cur_u(&cur, 4);
        d->nsegments = (uint32_t)cur_u(&cur, 4);
        d->rowset_id = cur_u(&cur, 8);
        d->rows = cur_u(&cur, 8);
        d->has_rowset = flags & 1;
        if (cur.is_bad || flags > 1 || d->version == 0 ||
            (i > 0 && d->tablet_id <= c->tablets[i - 1].tablet_id) ||
            (!d->has_rowset && (d->nsegments != 0 || d->rowset_id != 0 || d->rows != 0))) {
            return corrupt(err, "bad tablet entry in commit record");
        }
        d->names = cur.p + cur.off;
        if (!read_names(&cur, d->nsegments, NULL)) {
            return corrupt(err, "bad segment name in commit record");
        }
        d->dbm_len = (uint32_t)cur_u(&cur, 4);
        d->dbm = cur_take(&cur, d->dbm_len);
        if (d->dbm == NULL || (d->dbm_len > 0 && !dbm_blob_valid(d->dbm, d->dbm_len))) {
            return corrupt(err, "bad delete-bitmap additions in commit record");
        }
    }
    for (uint32_t i = 0; i < c->nextras; i++) {
        dec_extra *x = &c->extras[i];
        x->kind = (uint16_t)cur_u(&cur, 2);
        (void)cur_u(&cur, 2);
        x->len = (uint32_t)cur_u(&cur, 4);
        x->data = cur_take(&cur, x->len);
        if (x->data == NULL || find_extra(e, x->kind) == NULL) {
            return corrupt(err, "bad or unregistered extra section in commit record");
        }
    }
    if (cur.is_bad || cur.off != cur.len) {
        return corrupt(err, "commit record has trailing bytes");
    }
    return DB_OK;
}

/* Publish a decoded commit: check every tablet first (version = visible + 1, new rowset id),
 * then apply under each tablet's exclusive lock, then run the extra handlers. */
static int
publish(stor_engine *e, const dec_commit *c, bool is_replay, db_error *err)
{
    for (uint32_t i = 0; i < c->ntablets; i++) {
        const dec_tablet *d = &c->tablets[i];
        stor_tablet *t = stor_engine_tablet(e, d->tablet_id, false);
        bool ok = d->version == 1; /* a tablet that does not exist yet is at version 0 */
        if (t != NULL) {
            pthread_rwlock_rdlock(&t->lock);
            ok = !t->dropped && d->version == t->version + 1 &&
                 !(d->has_rowset && tablet_has_rowset(t, d->rowset_id));
            pthread_rwlock_unlock(&t->lock);
        }
        if (!ok) { /* I13 */
            return corrupt(err, "commit record does not follow the tablet's version or repeats a "
                                "rowset id");
        }
    }
    for (uint32_t i = 0; i < c->ntablets; i++) {
        const dec_tablet *d = &c->tablets[i];
        stor_tablet *t = stor_engine_tablet(e, d->tablet_id, true);
        stor_rowset_meta m = {d->rowset_id, d->version, c->tso, d->rows, d->nsegments, NULL};
        if (d->has_rowset) {
            m.segments = mem_calloc(d->nsegments == 0 ? 1 : d->nsegments, sizeof(char *));
            cursor nc = {d->names, SIZE_MAX / 2, 0, false}; /* checked by decode_commit */
            bool names_ok = read_names(&nc, d->nsegments, m.segments);
            DB_ASSERT(names_ok);
        }
        if (d->has_rowset) {
            stor__engine_saw_rowset_id(e, d->rowset_id);
        }
        pthread_rwlock_wrlock(&t->lock);
        if (d->has_rowset) {
            tablet_add_rowset(t, &m);
        }
        if (d->dbm_len > 0) {
            db_error e2;
            db_error_clear(&e2);
            /* Checked by decode_commit; the version is newer than every mark (I7). */
            int arc = stor_dbm_apply(t->dbm, d->dbm, d->dbm_len, &e2);
            DB_ASSERT(arc == DB_OK);
        }
        if (t->nvtso + 1 == d->version) {
            if (t->nvtso == t->vcap) {
                t->vcap = t->vcap ? t->vcap * 2 : 16;
                t->vtso = mem_realloc(t->vtso, t->vcap * sizeof *t->vtso);
            }
            t->vtso[t->nvtso++] = c->tso;
        }
        t->version = d->version;
        pthread_rwlock_unlock(&t->lock);
    }
    if (c->tso > atomic_load(&e->visible_tso)) {
        atomic_store(&e->visible_tso, c->tso);
    }
    for (uint32_t i = 0; i < c->nextras; i++) {
        const extra_handler *h = find_extra(e, c->extras[i].kind);
        if (h->fn(h->ctx, c->extras[i].kind, c->tso, c->extras[i].data, c->extras[i].len, is_replay,
                  err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

static int
replay_commit(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
              db_error *err)
{
    stor_engine *e = ctx;
    dec_commit c;
    int rc = decode_commit(e, payload, len, &c, err);
    if (rc == DB_OK) {
        rc = publish(e, &c, true, err);
    }
    dec_commit_destroy(&c);
    return rc;
}

/* ==== image section ==== */

static int
image_write(void *ctx, uint64_t seq, buf *out, db_error *err)
{
    stor_engine *e = ctx;
    /* A commit holds commit_mu from before its append until its publish. If one does now, its
     * record may be covered by this image but not yet published: give up this checkpoint (the
     * log stays usable; the caller retries) rather than wait, since that commit may itself be
     * waiting for this checkpoint to let its append through. */
    if (pthread_mutex_trylock(&e->commit_mu) != 0) {
        return db_error_set(err, ER_STOR_COMMIT_BAD,
                            "a storage commit is in progress; "
                            "checkpoint again");
    }
    pthread_mutex_lock(&e->map_mu);
    size_t start = out->len;
    buf_put_u32le(out, IMAGE_MAGIC);
    buf_put_u16le(out, IMAGE_FORMAT);
    buf_put_u16le(out, 0);
    buf_put_u64le(out, e->ntablets);
    for (size_t i = 0; i < e->ntablets; i++) {
        stor_tablet *t = e->tablets[i];
        pthread_rwlock_rdlock(&t->lock);
        buf_put_u64le(out, t->id);
        buf_put_u64le(out, t->version);
        buf_put_u32le(out, (uint32_t)t->nrowsets);
        buf_put_u32le(out, 0);
        for (size_t j = 0; j < t->nrowsets; j++) {
            const stor_rowset_meta *m = &t->rowsets[j];
            buf_put_u64le(out, m->rowset_id);
            buf_put_u64le(out, m->version);
            buf_put_u64le(out, m->commit_tso);
            buf_put_u64le(out, m->rows);
            buf_put_u32le(out, m->nsegments);
            put_names(out, m->segments, m->nsegments);
        }
        size_t at = out->len;
        buf_put_u32le(out, 0);
        encode_live_marks(t, out);
        uint32_t dlen = (uint32_t)(out->len - at - 4);
        for (int b = 0; b < 4; b++) {
            out->data[at + (size_t)b] = (uint8_t)(dlen >> (8 * b));
        }
        buf_put_u64le(out, t->nvtso);
        for (size_t v = 0; v < t->nvtso; v++) {
            buf_put_u64le(out, t->vtso[v]);
        }
        buf_put_u64le(out, t->floor);
        pthread_rwlock_unlock(&t->lock);
    }
    buf_put_u32le(out, crc32c(out->data + start, out->len - start));
    pthread_mutex_unlock(&e->map_mu);
    pthread_mutex_unlock(&e->commit_mu);
    return DB_OK;
}

/* stor_dbm_encode of t's marks without those of rowsets a compaction retired (they are dropped
 * once no snapshot reads them; the image must not resurrect them). Shared lock held. */
static void
encode_live_marks(stor_tablet *t, buf *out)
{
    stor_engine *e = t->eng;
    stor_dbm *tmp = NULL;
    pthread_mutex_lock(&e->epoch_mu);
    for (size_t i = 0; i < e->nretired; i++) {
        if (e->retired[i].t != t) {
            continue;
        }
        if (tmp == NULL) {
            buf all;
            buf_init(&all);
            stor_dbm_encode(t->dbm, 0, UINT64_MAX, &all);
            tmp = stor_dbm_new();
            db_error e2;
            db_error_clear(&e2);
            int arc = stor_dbm_apply(tmp, all.data, all.len, &e2);
            DB_ASSERT(arc == DB_OK);
            buf_destroy(&all);
        }
        for (size_t j = 0; j < e->retired[i].nrowsets && stor_dbm_nsegments(tmp) > 0; j++) {
            stor_dbm_drop_rowset(tmp, e->retired[i].rowsets[j]);
        }
    }
    pthread_mutex_unlock(&e->epoch_mu);
    stor_dbm_encode(tmp != NULL ? tmp : t->dbm, 0, UINT64_MAX, out);
    stor_dbm_free(tmp);
}

/* Load one tablet of the image from cur into e (replay: single-threaded, e has no tablets). */
static int
image_load_tablet(stor_engine *e, cursor *cur, uint64_t prev_id, bool is_first, int format,
                  db_error *err)
{
    uint64_t id = cur_u(cur, 8);
    uint64_t version = cur_u(cur, 8);
    uint32_t nrowsets = (uint32_t)cur_u(cur, 4);
    (void)cur_u(cur, 4);
    if (cur->is_bad || (!is_first && id <= prev_id) ||
        (uint64_t)nrowsets * 36 > cur->len - cur->off) {
        return corrupt(err, "bad tablet in image");
    }
    stor_tablet *t = stor_engine_tablet(e, id, true);
    pthread_rwlock_wrlock(&t->lock);
    int rc = DB_OK;
    t->version = version;
    for (uint32_t j = 0; j < nrowsets && rc == DB_OK; j++) {
        stor_rowset_meta m = {0};
        m.rowset_id = cur_u(cur, 8);
        m.version = cur_u(cur, 8);
        m.commit_tso = cur_u(cur, 8);
        m.rows = cur_u(cur, 8);
        m.nsegments = (uint32_t)cur_u(cur, 4);
        stor__engine_saw_rowset_id(e, m.rowset_id);
        uint64_t prev_v = t->nrowsets > 0 ? t->rowsets[t->nrowsets - 1].version : 0;
        if (cur->is_bad || m.version == 0 || m.version > version || m.version <= prev_v ||
            (uint64_t)m.nsegments * 3 > cur->len - cur->off) {
            rc = corrupt(err, "bad rowset in image");
            break;
        }
        m.segments = mem_calloc(m.nsegments == 0 ? 1 : m.nsegments, sizeof(char *));
        bool ok = read_names(cur, m.nsegments, m.segments);
        tablet_add_rowset(t, &m); /* owned by t even when bad, so freed with it */
        if (!ok) {
            rc = corrupt(err, "bad segment name in image");
        }
    }
    if (rc == DB_OK) {
        uint32_t dlen = (uint32_t)cur_u(cur, 4);
        const uint8_t *blob = cur_take(cur, dlen);
        if (blob == NULL || stor_dbm_apply(t->dbm, blob, dlen, err) != DB_OK) {
            rc = cur->is_bad ? corrupt(err, "bad delete bitmaps in image") : DB_ERR;
        }
    }
    if (rc == DB_OK && format >= 2) {
        uint64_t n = cur_u(cur, 8);
        if (cur->is_bad || (n != 0 && n != version) || n > (cur->len - cur->off) / 8) {
            rc = corrupt(err, "bad version TSOs in image");
        } else {
            t->vcap = t->nvtso = (size_t)n;
            t->vtso = n ? mem_calloc((size_t)n, sizeof *t->vtso) : NULL;
            for (uint64_t v = 0; v < n; v++) {
                t->vtso[v] = cur_u(cur, 8);
                if (t->vtso[v] > atomic_load(&e->visible_tso)) {
                    atomic_store(&e->visible_tso, t->vtso[v]);
                }
            }
        }
    }
    if (rc == DB_OK && format >= 3) {
        t->floor = cur_u(cur, 8);
        if (cur->is_bad || t->floor > version) {
            rc = corrupt(err, "bad compaction floor in image");
        }
    }
    pthread_rwlock_unlock(&t->lock);
    return rc;
}

static int
image_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err)
{
    stor_engine *e = ctx;
    const uint8_t *p = data;
    if (!check_crc(p, len, IMAGE_HEADER_SIZE)) {
        return corrupt(err, "tablet image too short or CRC mismatch");
    }
    cursor cur = {p, len - CRC_SIZE, 0, false};
    uint32_t magic = (uint32_t)cur_u(&cur, 4);
    uint16_t format = (uint16_t)cur_u(&cur, 2);
    (void)cur_u(&cur, 2);
    uint64_t n = cur_u(&cur, 8);
    if (magic != IMAGE_MAGIC || format < 1 || format > IMAGE_FORMAT || n > len) {
        return corrupt(err, "bad tablet image header");
    }
    uint64_t prev = 0;
    for (uint64_t i = 0; i < n; i++) {
        size_t at = cur.off;
        if (image_load_tablet(e, &cur, prev, i == 0, format, err) != DB_OK) {
            return DB_ERR;
        }
        cursor idc = {p + at, 8, 0, false};
        prev = cur_u(&idc, 8);
    }
    if (cur.is_bad || cur.off != cur.len) {
        return corrupt(err, "tablet image has trailing bytes");
    }
    return DB_OK;
}

/* ==== orphans ==== */

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted copy of every segment name of t's rowsets (each string a copy; shared lock held). */
static char **
tablet_names(stor_tablet *t, size_t *n)
{
    size_t total = 0;
    for (size_t i = 0; i < t->nrowsets; i++) {
        total += t->rowsets[i].nsegments;
    }
    char **names = mem_calloc(total + 1, sizeof *names);
    size_t k = 0;
    for (size_t i = 0; i < t->nrowsets; i++) {
        for (uint32_t j = 0; j < t->rowsets[i].nsegments; j++) {
            names[k++] = mem_strdup(t->rowsets[i].segments[j]);
        }
    }
    qsort(names, total, sizeof *names, cmp_str);
    *n = total;
    return names;
}

static bool
all_digits(const char *s)
{
    if (*s == '\0' || strlen(s) > 20 || (s[0] == '0' && s[1] != '\0')) {
        return false;
    }
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9') {
            return false;
        }
    }
    return true;
}

/* Remove the orphans of one tablet directory (t may be NULL: unknown tablet, all are orphans). */
static int
clean_dir(const char *dir, stor_tablet *t, uint64_t *nremoved, db_error *err)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        return db_error_set(err, ER_IO_ERROR, dir, strerror(errno));
    }
    size_t nnames = 0;
    char **names = NULL;
    if (t != NULL) {
        pthread_rwlock_rdlock(&t->lock);
        names = tablet_names(t, &nnames);
        pthread_rwlock_unlock(&t->lock); /* no file I/O under the tablet lock */
    }
    int rc = DB_OK;
    size_t nleft = 0;
    struct dirent *de;
    char path[4096];
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
            continue;
        }
        int plen = snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (plen < 0 || (size_t)plen >= sizeof path) {
            nleft++;
            continue;
        }
        const char *key = de->d_name;
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
            (names != NULL && bsearch(&key, names, nnames, sizeof *names, cmp_str) != NULL)) {
            nleft++;
            continue;
        }
        if (unlink(path) != 0) {
            rc = db_error_set(err, ER_IO_ERROR, path, strerror(errno));
            break;
        }
        (*nremoved)++;
    }
    for (size_t i = 0; i < nnames; i++) {
        mem_free(names[i]);
    }
    mem_free(names);
    closedir(d);
    if (rc == DB_OK && t == NULL && nleft == 0 && rmdir(dir) != 0) {
        rc = db_error_set(err, ER_IO_ERROR, dir, strerror(errno));
    }
    return rc;
}

int
stor_engine_remove_orphans(stor_engine *e, uint64_t *nremoved, db_error *err)
{
    uint64_t count = 0;
    DIR *d = opendir(e->root);
    if (d == NULL) {
        return db_error_set(err, ER_IO_ERROR, e->root, strerror(errno));
    }
    int rc = DB_OK;
    struct dirent *de;
    char path[4096];
    while (rc == DB_OK && (de = readdir(d)) != NULL) {
        if (!all_digits(de->d_name)) {
            continue;
        }
        errno = 0;
        uint64_t id = strtoull(de->d_name, NULL, 10);
        if (errno != 0) {
            continue;
        }
        int plen = snprintf(path, sizeof path, "%s/%s", e->root, de->d_name);
        struct stat st;
        if (plen < 0 || (size_t)plen >= sizeof path || lstat(path, &st) != 0 ||
            !S_ISDIR(st.st_mode)) {
            continue;
        }
        rc = clean_dir(path, stor_engine_tablet(e, id, false), &count, err);
    }
    closedir(d);
    if (nremoved != NULL) {
        *nremoved = count;
    }
    return rc;
}

/* ==== writer support (stor_int.h) ==== */

uint64_t
stor__engine_next_rowset_id(stor_engine *e)
{
    return atomic_fetch_add(&e->next_rowset_id, 1);
}

void
stor__engine_saw_rowset_id(stor_engine *e, uint64_t rowset_id)
{
    uint64_t cur = atomic_load(&e->next_rowset_id);
    while (cur <= rowset_id &&
           !atomic_compare_exchange_weak(&e->next_rowset_id, &cur, rowset_id + 1)) {
    }
}

bool
stor__txn_has_extras(const stor_txn *txn)
{
    return txn->nextras > 0;
}

uint64_t
stor_engine_next_id(stor_engine *e)
{
    return stor__engine_next_rowset_id(e);
}

void
stor_engine_saw_id(stor_engine *e, uint64_t id)
{
    stor__engine_saw_rowset_id(e, id);
}

bool
stor_engine_commit_trylock(stor_engine *e)
{
    return pthread_mutex_trylock(&e->commit_mu) == 0;
}

void
stor_engine_commit_unlock(stor_engine *e)
{
    pthread_mutex_unlock(&e->commit_mu);
}

const stor_stage *
stor__engine_stages(const stor_engine *e, size_t *n)
{
    *n = e->nstages;
    return e->stages;
}

void
stor_engine_add_stage(stor_engine *e, const stor_stage *st)
{
    DB_ASSERT(st != NULL && st->run != NULL);
    e->stages = mem_realloc(e->stages, (e->nstages + 1) * sizeof *e->stages);
    e->stages[e->nstages++] = *st;
}

void
stor_engine_set_cache_capacity(stor_engine *e, size_t bytes)
{
    stor_cache_free(e->cache); /* start-up only: no reader uses it yet */
    e->cache = stor_cache_new(bytes);
}

stor_cache *
stor_engine_cache(stor_engine *e)
{
    return e->cache;
}

stor_rcache *
stor_engine_rcache(stor_engine *e)
{
    return e->rcache;
}

void
stor__tablet_write_lock(stor_tablet *t)
{
    pthread_mutex_lock(&t->write_mu);
}

void
stor__tablet_write_unlock(stor_tablet *t)
{
    pthread_mutex_unlock(&t->write_mu);
}

stor_pkindex *
stor__tablet_pkindex(stor_tablet *t, bool **ready)
{
    if (t->pk == NULL) {
        t->pk = stor_pkindex_new();
        t->pk_ready = false;
    }
    *ready = &t->pk_ready;
    return t->pk;
}

/* ==== compaction record: encode, decode, publish, replay, retirement ==== */

/* A decoded compaction record: pointers into the record bytes. */
typedef struct dec_compact {
    uint64_t tablet_id, floor, rowset_id, rows, tso;
    bool is_base;
    uint32_t ninputs, nsegments;
    const uint8_t *inputs; /* ninputs × u64le */
    const uint8_t *names;  /* nsegments × (u16 len, bytes) */
    const uint8_t *dbm;    /* stor_dbm_encode blob for the output rowset, or NULL */
    uint32_t dbm_len;
} dec_compact;

static uint64_t
dec_input(const dec_compact *d, uint32_t i)
{
    return stor__get_u64(d->inputs + 8 * (size_t)i);
}

static void
retired_destroy(retired *r)
{
    for (size_t i = 0; i < r->npaths; i++) {
        mem_free(r->paths[i]);
    }
    mem_free(r->paths);
    mem_free(r->rowsets);
    memset(r, 0, sizeof *r);
}

/* Decode and check a compaction record completely (format, CRC, names, bitmap blob). */
static int
decode_compact(const uint8_t *p, size_t len, dec_compact *d, db_error *err)
{
    memset(d, 0, sizeof *d);
    if (!check_crc(p, len, COMPACT_FIXED)) {
        return corrupt(err, "compaction record too short or CRC mismatch");
    }
    cursor cur = {p, len - CRC_SIZE, 0, false};
    uint32_t magic = (uint32_t)cur_u(&cur, 4);
    uint16_t format = (uint16_t)cur_u(&cur, 2);
    uint16_t flags = (uint16_t)cur_u(&cur, 2);
    d->tablet_id = cur_u(&cur, 8);
    d->floor = cur_u(&cur, 8);
    d->rowset_id = cur_u(&cur, 8);
    d->rows = cur_u(&cur, 8);
    d->tso = cur_u(&cur, 8);
    d->ninputs = (uint32_t)cur_u(&cur, 4);
    d->nsegments = (uint32_t)cur_u(&cur, 4);
    d->is_base = flags & 1;
    if (magic != COMPACT_MAGIC || format != COMPACT_FORMAT || flags > 1 || d->floor == 0 ||
        d->rowset_id == 0 || d->ninputs == 0) {
        return corrupt(err, "bad compaction record header");
    }
    d->inputs = cur_take(&cur, 8 * (size_t)d->ninputs);
    d->names = cur.p + cur.off;
    if (d->inputs == NULL || !read_names(&cur, d->nsegments, NULL)) {
        return corrupt(err, "bad inputs or segment name in compaction record");
    }
    d->dbm_len = (uint32_t)cur_u(&cur, 4);
    d->dbm = cur_take(&cur, d->dbm_len);
    if (d->dbm == NULL || (d->dbm_len > 0 && !dbm_blob_valid(d->dbm, d->dbm_len))) {
        return corrupt(err, "bad delete-bitmap additions in compaction record");
    }
    if (cur.is_bad || cur.off != cur.len) {
        return corrupt(err, "compaction record has trailing bytes");
    }
    return DB_OK;
}

/* Index of the first input of d in t's rowset list when the inputs are present, contiguous and
 * end at version d->floor and the output id is new; SIZE_MAX otherwise. Lock held. */
static size_t
compact_inputs_at(const stor_tablet *t, const dec_compact *d)
{
    size_t i0 = 0;
    while (i0 < t->nrowsets && t->rowsets[i0].rowset_id != dec_input(d, 0)) {
        i0++;
    }
    if (i0 + d->ninputs > t->nrowsets || tablet_has_rowset(t, d->rowset_id) ||
        d->floor < t->floor || t->rowsets[i0 + d->ninputs - 1].version != d->floor) {
        return SIZE_MAX;
    }
    for (uint32_t k = 0; k < d->ninputs; k++) {
        if (t->rowsets[i0 + k].rowset_id != dec_input(d, k)) {
            return SIZE_MAX;
        }
    }
    return i0;
}

/* Publish a decoded compaction record under t's exclusive lock: the inputs leave the rowset
 * list, the output takes their place (version d->floor), the blob's marks are added, the floor
 * rises. Replay drops the inputs' marks at once; live, rt (not NULL) gets the inputs' file
 * paths and ids for retirement. */
static int
publish_compact(stor_engine *e, const dec_compact *d, retired *rt, db_error *err)
{
    stor_tablet *t = stor_engine_tablet(e, d->tablet_id, false);
    if (t == NULL) {
        return corrupt(err, "compaction record names an unknown tablet");
    }
    stor_rowset_meta m = {d->rowset_id, d->floor, d->tso, d->rows, d->nsegments, NULL};
    m.segments = mem_calloc(d->nsegments == 0 ? 1 : d->nsegments, sizeof(char *));
    cursor nc = {d->names, SIZE_MAX / 2, 0, false}; /* checked by decode_compact */
    bool names_ok = read_names(&nc, d->nsegments, m.segments);
    DB_ASSERT(names_ok);
    pthread_rwlock_wrlock(&t->lock);
    size_t i0 = t->dropped ? SIZE_MAX : compact_inputs_at(t, d);
    if (i0 == SIZE_MAX) {
        pthread_rwlock_unlock(&t->lock);
        rowset_meta_destroy(&m);
        return corrupt(err, "compaction record does not match the tablet's rowsets");
    }
    if (rt != NULL) {
        rt->t = t;
        rt->nrowsets = d->ninputs;
        rt->rowsets = mem_calloc(d->ninputs, sizeof *rt->rowsets);
    }
    for (uint32_t k = 0; k < d->ninputs; k++) {
        stor_rowset_meta *in = &t->rowsets[i0 + k];
        if (rt != NULL) {
            rt->rowsets[k] = in->rowset_id;
            rt->paths = mem_realloc(rt->paths, (rt->npaths + in->nsegments + 1) * sizeof(char *));
            for (uint32_t s = 0; s < in->nsegments; s++) {
                size_t plen = strlen(t->dir) + strlen(in->segments[s]) + 2;
                char *path = mem_alloc(plen);
                snprintf(path, plen, "%s/%s", t->dir, in->segments[s]);
                rt->paths[rt->npaths++] = path;
            }
        } else {
            if (stor_dbm_nsegments(t->dbm) > 0) {
                stor_dbm_drop_rowset(t->dbm, in->rowset_id); /* replay: no snapshot reads them */
            }
        }
        rowset_meta_destroy(in);
    }
    t->rowsets[i0] = m;
    memmove(&t->rowsets[i0 + 1], &t->rowsets[i0 + d->ninputs],
            (t->nrowsets - i0 - d->ninputs) * sizeof *t->rowsets);
    t->nrowsets -= d->ninputs - 1;
    if (d->dbm_len > 0) {
        db_error e2;
        db_error_clear(&e2);
        int arc = stor_dbm_apply(t->dbm, d->dbm, d->dbm_len, &e2); /* new rowset: no older mark */
        DB_ASSERT(arc == DB_OK);
    }
    t->floor = d->floor;
    if (d->is_base) {
        t->base_version = d->floor;
        t->ncum = 0;
    } else {
        t->ncum++;
    }
    pthread_rwlock_unlock(&t->lock);
    stor__engine_saw_rowset_id(e, d->rowset_id);
    return DB_OK;
}

static int
replay_compact(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
               db_error *err)
{
    stor_engine *e = ctx;
    dec_compact d;
    if (decode_compact(payload, len, &d, err) != DB_OK ||
        publish_compact(e, &d, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    stor_tablet *t = stor_engine_tablet(e, d.tablet_id, false);
    if (t->pk != NULL) {
        t->pk_ready = false; /* the mapping is not in the record: rebuilt by the next writer */
    }
    return DB_OK;
}

/* Output ordinal of (rowset, segment, row) of an input, or STOR_COMPACT_DROPPED / not an
 * input (*is_input false). */
static uint32_t
map_row(const stor__compact_out *o, uint64_t rowset_id, uint32_t seg, uint32_t row, bool *is_input)
{
    for (uint32_t i = 0; i < o->ninputs; i++) {
        const stor__compact_map *m = &o->inputs[i];
        if (m->rowset_id == rowset_id) {
            *is_input = true;
            if (seg >= m->nsegments || row >= m->nrows[seg]) {
                return STOR_COMPACT_DROPPED;
            }
            return m->map[seg][row];
        }
    }
    *is_input = false;
    return STOR_COMPACT_DROPPED;
}

typedef struct xlat_mark {
    uint64_t version;
    uint32_t seg;
    uint32_t ord; /* output row within seg */
} xlat_mark;

static int
cmp_xlat(const void *pa, const void *pb)
{
    const xlat_mark *a = pa, *b = pb;
    if (a->version != b->version) {
        return a->version < b->version ? -1 : 1;
    }
    if (a->seg != b->seg) {
        return a->seg < b->seg ? -1 : 1;
    }
    return a->ord < b->ord ? -1 : a->ord > b->ord;
}

/* The marks of the inputs with version > o->floor (t's shared lock held), translated to the
 * output rowset with their versions, as a stor_dbm_encode blob in out (empty when none). */
static uint64_t
translate_marks(stor_tablet *t, const stor__compact_out *o, buf *out)
{
    buf blob;
    buf_init(&blob);
    stor_dbm_encode(t->dbm, o->floor + 1, UINT64_MAX, &blob);
    xlat_mark *xs = NULL;
    size_t nx = 0, cap = 0;
    /* Our own encoding (README §"Delete-bitmap additions"): header 12, entries, CRC 4. */
    cursor c = {blob.data, blob.len - CRC_SIZE, 12, false};
    uint32_t n = stor__get_u32(blob.data + 8);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t rs = cur_u(&c, 8);
        uint32_t seg = (uint32_t)cur_u(&c, 4);
        uint64_t ver = cur_u(&c, 8);
        uint32_t blen = (uint32_t)cur_u(&c, 4);
        const uint8_t *bp = cur_take(&c, blen);
        DB_ASSERT(bp != NULL);
        bool is_input = false;
        map_row(o, rs, 0, UINT32_MAX, &is_input);
        if (!is_input) {
            continue;
        }
        roaring_bitmap_t *rb = roaring_bitmap_portable_deserialize_safe((const char *)bp, blen);
        DB_ASSERT(rb != NULL);
        uint64_t card = roaring_bitmap_get_cardinality(rb);
        uint32_t *vals = mem_alloc((size_t)(card + 1) * sizeof *vals);
        roaring_bitmap_to_uint32_array(rb, vals);
        for (uint64_t v = 0; v < card; v++) {
            uint32_t ord = map_row(o, rs, seg, vals[v], &is_input);
            if (ord == STOR_COMPACT_DROPPED) {
                continue; /* the row is not in the output (deleted or a dropped delete sign) */
            }
            if (nx == cap) {
                cap = cap == 0 ? 64 : cap * 2;
                xs = mem_realloc(xs, cap * sizeof *xs);
            }
            xs[nx++] = (xlat_mark){ver, ord / STOR_COMPACT_SEG_ROWS, ord % STOR_COMPACT_SEG_ROWS};
        }
        mem_free(vals);
        roaring_bitmap_free(rb);
    }
    buf_destroy(&blob);
    if (nx > 0) {
        qsort(xs, nx, sizeof *xs, cmp_xlat); /* marks per segment must ascend by version (I7) */
        stor_dbm *tmp = stor_dbm_new();
        uint32_t *rows = mem_alloc(nx * sizeof *rows);
        for (size_t i = 0; i < nx;) {
            size_t j = i, k = 0;
            while (j < nx && xs[j].version == xs[i].version && xs[j].seg == xs[i].seg) {
                rows[k++] = xs[j++].ord;
            }
            stor_dbm_mark(tmp, o->rowset_id, xs[i].seg, rows, k, xs[i].version);
            i = j;
        }
        stor_dbm_encode(tmp, 0, UINT64_MAX, out);
        stor_dbm_free(tmp);
        mem_free(rows);
    }
    mem_free(xs);
    return nx;
}

/* Point every primary-key entry into an input at its output row (or remove it when the row
 * was dropped). write_mu held. */
static int remap_pk(stor_pkindex *pk, const stor__compact_out *o, db_error *err);

typedef struct remap_ctx {
    const stor__compact_out *o;
    buf keys;
    size_t *offs;
    stor_pk_item *items;
    size_t n, cap;
} remap_ctx;

static bool
remap_visit(const stor_pk_item *item, void *arg)
{
    remap_ctx *rc = arg;
    bool is_input = false;
    uint32_t ord =
            map_row(rc->o, item->loc.rowset_id, item->loc.segment_id, item->loc.row, &is_input);
    if (!is_input) {
        return true;
    }
    if (rc->n == rc->cap) {
        rc->cap = rc->cap == 0 ? 256 : rc->cap * 2;
        rc->items = mem_realloc(rc->items, rc->cap * sizeof *rc->items);
        rc->offs = mem_realloc(rc->offs, rc->cap * sizeof *rc->offs);
    }
    stor_pk_item *x = &rc->items[rc->n];
    *x = *item;
    x->key = NULL;
    x->loc = ord == STOR_COMPACT_DROPPED
                     ? (stor_rowloc){0, 0, 0}
                     : (stor_rowloc){rc->o->rowset_id, ord / STOR_COMPACT_SEG_ROWS,
                                     ord % STOR_COMPACT_SEG_ROWS};
    rc->offs[rc->n++] = rc->keys.len;
    buf_append(&rc->keys, item->key, item->keylen);
    return true;
}

static int
remap_pk(stor_pkindex *pk, const stor__compact_out *o, db_error *err)
{
    remap_ctx rc = {.o = o};
    buf_init(&rc.keys);
    stor_pkindex_foreach(pk, remap_visit, &rc);
    int rcode = DB_OK;
    for (size_t i = 0; i < rc.n && rcode == DB_OK; i++) {
        const stor_pk_item *x = &rc.items[i];
        const uint8_t *key = rc.keys.data + rc.offs[i];
        if (x->loc.rowset_id == 0) {
            stor_pkindex_delete(pk, key, x->keylen, x->version, NULL);
        } else {
            rcode = stor_pkindex_upsert(pk, key, x->keylen, x->loc, x->version, NULL, NULL, err);
        }
    }
    buf_destroy(&rc.keys);
    mem_free(rc.items);
    mem_free(rc.offs);
    return rcode;
}

static void
encode_compact(const stor__compact_out *o, const buf *blob, buf *out)
{
    buf_put_u32le(out, COMPACT_MAGIC);
    buf_put_u16le(out, COMPACT_FORMAT);
    buf_put_u16le(out, o->is_base ? 1 : 0);
    buf_put_u64le(out, o->tablet_id);
    buf_put_u64le(out, o->floor);
    buf_put_u64le(out, o->rowset_id);
    buf_put_u64le(out, o->rows);
    buf_put_u64le(out, o->commit_tso);
    buf_put_u32le(out, o->ninputs);
    buf_put_u32le(out, o->nsegments);
    for (uint32_t i = 0; i < o->ninputs; i++) {
        buf_put_u64le(out, o->inputs[i].rowset_id);
    }
    put_names(out, o->segments, o->nsegments);
    buf_put_u32le(out, (uint32_t)blob->len);
    buf_append(out, blob->data, blob->len);
    buf_put_u32le(out, crc32c(out->data, out->len));
}

int
stor__compact_publish(stor_engine *e, stor_tablet *t, const stor__compact_out *o,
                      uint64_t *ntranslated, db_error *err)
{
    if (e->hook != NULL) {
        e->hook(e->hook_ctx);
    }
    buf blob, rec;
    buf_init(&blob);
    buf_init(&rec);
    retired rt = {0};
    int rc = DB_OK;
    /* Lock order: write_mu (no MoW writer between the marks we translate and the swap), then
     * commit_mu (no DUP delete or other commit either). Nothing below does file I/O but the
     * append. */
    pthread_mutex_lock(&t->write_mu);
    pthread_mutex_lock(&e->commit_mu);
    pthread_rwlock_rdlock(&t->lock);
    bool ok = !t->dropped; /* a drop publishes under commit_mu too */
    for (uint32_t i = 0; i < o->ninputs && ok; i++) {
        ok = tablet_has_rowset(t, o->inputs[i].rowset_id);
    }
    uint64_t nx = ok ? translate_marks(t, o, &blob) : 0;
    pthread_rwlock_unlock(&t->lock);
    if (!ok) {
        rc = db_error_set(err, ER_STOR_COMMIT_BAD, "a compaction input is gone");
        goto out;
    }
    encode_compact(o, &blob, &rec);
    dec_compact d;
    rc = decode_compact(rec.data, rec.len, &d, err); /* I14: publish what replay will */
    DB_ASSERT(rc == DB_OK);
    rc = cat_editlog_append(e->log, STOR_REC_COMPACT, rec.data, rec.len, NULL, err);
    if (rc != DB_OK) {
        goto out;
    }
    rc = publish_compact(e, &d, &rt, err);
    DB_ASSERT(rc == DB_OK); /* checked above under commit_mu and write_mu */
    if (t->pk != NULL && t->pk_ready && remap_pk(t->pk, o, err) != DB_OK) {
        t->pk_ready = false; /* rebuilt by the next writer */
    }
    pthread_mutex_lock(&e->epoch_mu);
    rt.epoch = e->cur_epoch++; /* snapshots from now on never name the inputs */
    if (e->nretired == e->retired_cap) {
        e->retired_cap = e->retired_cap == 0 ? 8 : e->retired_cap * 2;
        e->retired = mem_realloc(e->retired, e->retired_cap * sizeof *e->retired);
    }
    e->retired[e->nretired++] = rt;
    memset(&rt, 0, sizeof rt);
    pthread_mutex_unlock(&e->epoch_mu);
    if (ntranslated != NULL) {
        *ntranslated = nx;
    }
out:
    pthread_mutex_unlock(&e->commit_mu);
    pthread_mutex_unlock(&t->write_mu);
    retired_destroy(&rt);
    buf_destroy(&blob);
    buf_destroy(&rec);
    return rc;
}

/* Release what a dropped tablet still holds once no snapshot from before its drop is alive:
 * its delete bitmaps, version TSOs and primary-key index (the object itself stays in the
 * graveyard). Takes write_mu (a stale MoW writer may still hold the tablet) then lock. */
static void
drop_release(stor_tablet *t)
{
    pthread_mutex_lock(&t->write_mu);
    stor_pkindex_free(t->pk);
    t->pk = NULL;
    t->pk_ready = false;
    pthread_rwlock_wrlock(&t->lock);
    stor_dbm_free(t->dbm);
    t->dbm = stor_dbm_new();
    mem_free(t->vtso);
    t->vtso = NULL;
    t->nvtso = t->vcap = 0;
    pthread_rwlock_unlock(&t->lock);
    pthread_mutex_unlock(&t->write_mu);
}

size_t
stor_engine_purge_retired(stor_engine *e)
{
    size_t nfiles = 0;
    for (;;) {
        retired r = {0};
        pthread_mutex_lock(&e->epoch_mu);
        uint64_t oldest = e->nlive > 0 ? e->live[0].epoch : UINT64_MAX;
        for (size_t i = 0; i < e->nretired; i++) {
            if (e->retired[i].epoch < oldest) {
                r = e->retired[i];
                e->retired[i] = e->retired[--e->nretired];
                break;
            }
        }
        pthread_mutex_unlock(&e->epoch_mu);
        if (r.t == NULL) {
            break;
        }
        if (r.is_drop) {
            drop_release(r.t);
        } else {
            pthread_rwlock_wrlock(&r.t->lock);
            for (size_t i = 0; i < r.nrowsets && stor_dbm_nsegments(r.t->dbm) > 0; i++) {
                stor_dbm_drop_rowset(r.t->dbm, r.rowsets[i]);
            }
            pthread_rwlock_unlock(&r.t->lock);
        }
        for (size_t i = 0; i < r.npaths; i++) {
            stor_rcache_forget(e->rcache, r.paths[i]); /* idle pooled readers of the file */
            if (unlink(r.paths[i]) == 0) {
                nfiles++;
            }
        }
        if (r.is_drop) {
            (void)rmdir(r.t->dir); /* fails while a stale writer's file is there: an orphan */
        }
        retired_destroy(&r);
    }
    return nfiles;
}

void
stor__tablet_compact_info(stor_tablet *t, uint64_t *base_version, uint32_t *ncum,
                          int32_t *delete_sign_uid)
{
    pthread_rwlock_rdlock(&t->lock);
    *base_version = t->base_version;
    *ncum = t->ncum;
    *delete_sign_uid = t->delete_sign_uid;
    pthread_rwlock_unlock(&t->lock);
}

void
stor_tablet_set_delete_sign_uid(stor_tablet *t, int32_t uid)
{
    pthread_rwlock_wrlock(&t->lock);
    t->delete_sign_uid = uid;
    pthread_rwlock_unlock(&t->lock);
}

uint64_t
stor_tablet_floor(stor_tablet *t)
{
    pthread_rwlock_rdlock(&t->lock);
    uint64_t f = t->floor;
    pthread_rwlock_unlock(&t->lock);
    return f;
}

size_t
stor_tablet_nrowsets(stor_tablet *t)
{
    pthread_rwlock_rdlock(&t->lock);
    size_t n = t->nrowsets;
    pthread_rwlock_unlock(&t->lock);
    return n;
}

uint64_t *
stor__engine_tablet_ids(stor_engine *e, size_t *n)
{
    pthread_mutex_lock(&e->map_mu);
    uint64_t *ids = mem_calloc(e->ntablets + 1, sizeof *ids);
    for (size_t i = 0; i < e->ntablets; i++) {
        ids[i] = e->tablets[i]->id;
    }
    *n = e->ntablets;
    pthread_mutex_unlock(&e->map_mu);
    return ids;
}

void
stor__engine_compact_lock(stor_engine *e)
{
    pthread_mutex_lock(&e->compact_mu);
}

void
stor__engine_compact_unlock(stor_engine *e)
{
    pthread_mutex_unlock(&e->compact_mu);
}

stor__compactor **
stor__engine_bg(stor_engine *e)
{
    return &e->bg;
}

void
stor__compact_set_hook(stor_engine *e, stor__compact_hook_fn fn, void *ctx)
{
    e->hook = fn;
    e->hook_ctx = ctx;
}

stor__compact_hook_fn
stor__compact_hook(stor_engine *e, void **ctx)
{
    *ctx = e->hook_ctx;
    return e->hook;
}

size_t
stor__engine_nretired(stor_engine *e)
{
    pthread_mutex_lock(&e->epoch_mu);
    size_t n = e->nretired;
    pthread_mutex_unlock(&e->epoch_mu);
    return n;
}

/* ==== drop record: encode, decode, publish, replay (README §Formats "Drop record") ==== */

size_t
stor_engine_tablet_ids(stor_engine *e, uint64_t **out)
{
    size_t n = 0;
    *out = stor__engine_tablet_ids(e, &n);
    return n;
}

static int
cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Decode and check a drop record completely; *ids points into p (n × u64le, ascending). */
static int
decode_drop(const uint8_t *p, size_t len, const uint8_t **ids, uint32_t *n, db_error *err)
{
    if (!check_crc(p, len, DROP_FIXED)) {
        return corrupt(err, "drop record too short or CRC mismatch");
    }
    cursor cur = {p, len - CRC_SIZE, 0, false};
    uint32_t magic = (uint32_t)cur_u(&cur, 4);
    uint16_t format = (uint16_t)cur_u(&cur, 2);
    uint16_t reserved = (uint16_t)cur_u(&cur, 2);
    *n = (uint32_t)cur_u(&cur, 4);
    (void)cur_u(&cur, 4);
    if (magic != DROP_MAGIC || format != DROP_FORMAT || reserved != 0 || *n == 0 ||
        (uint64_t)*n * 8 != cur.len - cur.off) {
        return corrupt(err, "bad drop record header");
    }
    *ids = cur_take(&cur, 8 * (size_t)*n);
    for (uint32_t i = 1; i < *n; i++) {
        if (stor__get_u64(*ids + 8 * (size_t)i) <= stor__get_u64(*ids + 8 * (size_t)(i - 1))) {
            return corrupt(err, "drop record ids are not strictly ascending");
        }
    }
    return DB_OK;
}

/* Publish a decoded drop record (commit_mu held live; single-threaded at replay). Each named
 * tablet leaves the map (unknown ids are skipped). Replay frees it at once (no reader exists;
 * its files become orphans for stor_engine_remove_orphans). Live, it moves to the graveyard:
 * under its exclusive lock it is marked dropped and its rowsets move to a retired entry of the
 * current epoch, then the epoch is bumped (snapshots from now on name none of those files). */
static void
publish_drop(stor_engine *e, const uint8_t *ids, uint32_t n, bool is_replay)
{
    for (uint32_t k = 0; k < n; k++) {
        uint64_t id = stor__get_u64(ids + 8 * (size_t)k);
        pthread_mutex_lock(&e->map_mu);
        size_t i = tablet_pos(e, id);
        if (i >= e->ntablets || e->tablets[i]->id != id) {
            pthread_mutex_unlock(&e->map_mu);
            continue;
        }
        stor_tablet *t = e->tablets[i];
        memmove(&e->tablets[i], &e->tablets[i + 1], (e->ntablets - i - 1) * sizeof *e->tablets);
        e->ntablets--;
        if (!is_replay) {
            DB_ASSERT(grave_find(e, id) == NULL);
            if (e->ngrave == e->grave_cap) {
                e->grave_cap = e->grave_cap == 0 ? 16 : e->grave_cap * 2;
                e->graveyard = mem_realloc(e->graveyard, e->grave_cap * sizeof *e->graveyard);
            }
            size_t g = tablet_pos_in(e->graveyard, e->ngrave, id);
            memmove(&e->graveyard[g + 1], &e->graveyard[g], (e->ngrave - g) * sizeof *e->graveyard);
            e->graveyard[g] = t;
            e->ngrave++;
        }
        pthread_mutex_unlock(&e->map_mu);
        if (is_replay) {
            tablet_free(t);
            continue;
        }
        retired rt = {.t = t, .is_drop = true};
        pthread_rwlock_wrlock(&t->lock);
        t->dropped = true;
        for (size_t r = 0; r < t->nrowsets; r++) {
            stor_rowset_meta *m = &t->rowsets[r];
            rt.paths = mem_realloc(rt.paths, (rt.npaths + m->nsegments + 1) * sizeof(char *));
            for (uint32_t s = 0; s < m->nsegments; s++) {
                size_t plen = strlen(t->dir) + strlen(m->segments[s]) + 2;
                char *path = mem_alloc(plen);
                snprintf(path, plen, "%s/%s", t->dir, m->segments[s]);
                rt.paths[rt.npaths++] = path;
            }
            rowset_meta_destroy(m);
        }
        t->nrowsets = 0; /* later snapshots are empty; the marks stay for older ones */
        pthread_rwlock_unlock(&t->lock);
        pthread_mutex_lock(&e->epoch_mu);
        rt.epoch = e->cur_epoch++;
        if (e->nretired == e->retired_cap) {
            e->retired_cap = e->retired_cap == 0 ? 8 : e->retired_cap * 2;
            e->retired = mem_realloc(e->retired, e->retired_cap * sizeof *e->retired);
        }
        e->retired[e->nretired++] = rt;
        pthread_mutex_unlock(&e->epoch_mu);
    }
}

static int
replay_drop(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len, db_error *err)
{
    (void)type;
    (void)seq;
    stor_engine *e = ctx;
    const uint8_t *ids = NULL;
    uint32_t n = 0;
    if (decode_drop(payload, len, &ids, &n, err) != DB_OK) {
        return DB_ERR;
    }
    publish_drop(e, ids, n, true);
    return DB_OK;
}

int
stor_engine_drop_tablets(stor_engine *e, const uint64_t *ids, size_t n, db_error *err)
{
    uint64_t *sorted = mem_calloc(n + 1, sizeof *sorted);
    if (n > 0) {
        memcpy(sorted, ids, n * sizeof *ids);
        qsort(sorted, n, sizeof *sorted, cmp_u64);
    }
    buf rec;
    buf_init(&rec);
    int rc = DB_OK;
    pthread_mutex_lock(&e->commit_mu);
    /* Under commit_mu no commit or compaction publishes: keep the ids the map holds now. */
    size_t m = 0;
    pthread_mutex_lock(&e->map_mu);
    for (size_t i = 0; i < n; i++) {
        size_t at = tablet_pos(e, sorted[i]);
        bool present = at < e->ntablets && e->tablets[at]->id == sorted[i];
        if (present && (m == 0 || sorted[m - 1] != sorted[i])) {
            sorted[m++] = sorted[i];
        }
    }
    pthread_mutex_unlock(&e->map_mu);
    if (m > 0 && m <= UINT32_MAX) {
        buf_put_u32le(&rec, DROP_MAGIC);
        buf_put_u16le(&rec, DROP_FORMAT);
        buf_put_u16le(&rec, 0);
        buf_put_u32le(&rec, (uint32_t)m);
        buf_put_u32le(&rec, 0);
        for (size_t i = 0; i < m; i++) {
            buf_put_u64le(&rec, sorted[i]);
        }
        buf_put_u32le(&rec, crc32c(rec.data, rec.len));
        const uint8_t *dids = NULL;
        uint32_t dn = 0;
        rc = decode_drop(rec.data, rec.len, &dids, &dn, err); /* I14: publish what replay will */
        DB_ASSERT(rc == DB_OK);
        rc = cat_editlog_append(e->log, STOR_REC_DROP, rec.data, rec.len, NULL, err);
        if (rc == DB_OK) {
            publish_drop(e, dids, dn, false);
        }
    }
    pthread_mutex_unlock(&e->commit_mu);
    buf_destroy(&rec);
    mem_free(sorted);
    if (rc == DB_OK && m > 0) {
        stor_engine_purge_retired(e);
    }
    return rc;
}
