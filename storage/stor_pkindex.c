/* SPDX-License-Identifier: Apache-2.0
 * stor_pkindex: the merge-on-write primary-key index of a tablet, and the memcomparable key
 * encoding it is keyed by. An open-addressing hash table (linear probing, XXH3 hashes,
 * backward-shift deletion, power-of-two capacity, grown by rehash) of 8-byte slots pointing into
 * a dense, chunked entry array; key bytes live in a chunked slab with no per-key malloc (keys of up
 * to 15 bytes sit in the entry itself, so a BIGINT key costs no slab access), and the slab is
 * compacted when deleted keys waste more than the live ones use. Not synchronized: the
 * caller holds the tablet's MoW lock (storage.h). See README.md §"Primary-key index". */
#include "storage/storage.h"

#include <string.h>
#include <xxhash.h>

#include "common/mem.h"

#define SLAB_CHUNK_SHIFT  20 /* 1 MiB key chunks */
#define SLAB_CHUNK        ((size_t)1 << SLAB_CHUNK_SHIFT)
#define ENTRY_CHUNK_SHIFT 16 /* 65,536 entries (2 MiB) per entry chunk */
#define ENTRY_CHUNK       ((uint32_t)1 << ENTRY_CHUNK_SHIFT)
#define MIN_SLOTS         16
#define NO_ENTRY          UINT32_MAX
#define INLINE_MAX        15   /* longest key kept inside the entry */
#define TAG_SLAB          0xff /* key[15] of an entry whose key is in the slab */
#define TAG_FREE          0xfe /* key[15] of an entry on the free list */

/* A slab ref packs where a key lives: slab chunk (28 bits) | offset (20 bits) | length (16 bits).
 */
#define REF_MAKE(c, o, l) (((uint64_t)(c) << 36) | ((uint64_t)(o) << 16) | (uint64_t)(l))
#define REF_CHUNK(r)      ((uint32_t)((r) >> 36))
#define REF_OFF(r)        ((uint32_t)(((r) >> 16) & (SLAB_CHUNK - 1)))
#define REF_LEN(r)        ((uint32_t)((r)&0xffff))

/* One key's latest location. 40 bytes. */
typedef struct pk_entry {
    uint64_t rowset_id;  /* location: rowset */
    uint64_t version;    /* version of the commit that wrote the location */
    uint32_t segment_id; /* location: segment */
    uint32_t row;        /* location: row ordinal; next free entry while on the free list */
    /* key[15] is the key length (1..INLINE_MAX, key bytes in key[0..len)), TAG_SLAB (key[0..8)
     * holds a slab ref, which carries the length) or TAG_FREE. */
    uint8_t key[16];
} pk_entry;

/* Guarded by the tablet's MoW lock: the one writer holds it exclusively for every mutating call;
 * readers hold it (shared) for lookup, foreach, count and memory. */
struct stor_pkindex {
    uint64_t *slots; /* 0 empty, else (uint64)h32 << 32 | (entry index + 1) */
    size_t nslots;   /* power of two, >= MIN_SLOTS */
    size_t count;    /* live keys; count <= nslots * 3 / 4 */

    pk_entry **echunks; /* entry chunks of ENTRY_CHUNK entries; owned */
    uint32_t nechunks;
    uint32_t eused;     /* entries handed out (live + free list) */
    uint32_t free_head; /* first free entry or NO_ENTRY */

    uint8_t **kchunks; /* slab chunks of SLAB_CHUNK bytes; owned */
    uint32_t nkchunks;
    uint32_t kcap;     /* allocated length of kchunks */
    size_t kfill;      /* bytes used in the last chunk */
    size_t live_bytes; /* key bytes of live entries */
    size_t dead_bytes; /* key bytes of deleted entries still in the slab */
};

static uint32_t hash32(const void *key, size_t len);
static pk_entry *entry_at(const stor_pkindex *pk, uint32_t idx);
static const uint8_t *key_of(const stor_pkindex *pk, uint64_t ref);
static uint64_t entry_ref(const pk_entry *e);
static size_t entry_keylen(const pk_entry *e);
static const uint8_t *entry_key(const stor_pkindex *pk, const pk_entry *e);
static void entry_set_key(stor_pkindex *pk, pk_entry *e, const void *key, size_t len);
static uint64_t slab_put(stor_pkindex *pk, const void *key, size_t len);
static void slab_release(stor_pkindex *pk);
static void slab_compact(stor_pkindex *pk);
static uint32_t entry_new(stor_pkindex *pk);
static void entry_release(stor_pkindex *pk, uint32_t idx);
static size_t slot_find(const stor_pkindex *pk, const void *key, size_t len, uint32_t h32);
static void table_resize(stor_pkindex *pk, size_t nslots);
static void slot_remove(stor_pkindex *pk, size_t i);
static uint32_t insert_new(stor_pkindex *pk, const void *key, size_t len, uint32_t h32);
static void put_be(buf *out, uint64_t v, int nbytes);

/* ---- memcomparable key encoding (README §"Key encoding") ---- */

/* Append the low nbytes of v, most significant first. */
static void
put_be(buf *out, uint64_t v, int nbytes)
{
    uint8_t *p = buf_reserve(out, (size_t)nbytes);
    for (int i = 0; i < nbytes; i++) {
        p[i] = (uint8_t)(v >> (8 * (nbytes - 1 - i)));
    }
    out->len += (size_t)nbytes;
}

void
stor_key_put_null(buf *out)
{
    buf_put_u8(out, 0x00);
}

void
stor_key_put_int(buf *out, int64_t v)
{
    buf_put_u8(out, 0x01);
    put_be(out, (uint64_t)v ^ ((uint64_t)1 << 63), 8);
}

void
stor_key_put_int128(buf *out, int64_t hi, uint64_t lo)
{
    buf_put_u8(out, 0x01);
    put_be(out, (uint64_t)hi ^ ((uint64_t)1 << 63), 8);
    put_be(out, lo, 8);
}

void
stor_key_put_decimal(buf *out, int64_t unscaled)
{
    stor_key_put_int(out, unscaled);
}

void
stor_key_put_string(buf *out, const void *s, size_t len)
{
    const uint8_t *src = s;
    uint8_t *p = buf_reserve(out, 2 * len + 3);
    size_t n = 0;
    p[n++] = 0x01;
    for (size_t i = 0; i < len; i++) {
        p[n++] = src[i];
        if (src[i] == 0x00) {
            p[n++] = 0xff; /* an escaped zero sorts after the terminator 0x00 0x01 */
        }
    }
    p[n++] = 0x00;
    p[n++] = 0x01;
    out->len += n;
}

void
stor_key_put_date(buf *out, int year, int month, int day)
{
    DB_ASSERT(year >= 0 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= 31);
    buf_put_u8(out, 0x01);
    put_be(out, (uint64_t)year << 9 | (uint64_t)month << 5 | (uint64_t)day, 4);
}

void
stor_key_put_datetime(buf *out, int year, int month, int day, int hour, int minute, int second,
                      int microsecond)
{
    DB_ASSERT(year >= 0 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= 31);
    DB_ASSERT(hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 &&
              second <= 59 && microsecond >= 0 && microsecond <= 999999);
    buf_put_u8(out, 0x01);
    put_be(out,
           (uint64_t)year << 46 | (uint64_t)month << 42 | (uint64_t)day << 37 |
                   (uint64_t)hour << 32 | (uint64_t)minute << 26 | (uint64_t)second << 20 |
                   (uint64_t)microsecond,
           8);
}

/* ---- slab and entries ---- */

/* 32 bits of the key's XXH3 hash: the low bits pick the home slot, all 32 filter compares. */
static uint32_t
hash32(const void *key, size_t len)
{
    uint64_t h = XXH3_64bits(key, len);
    return (uint32_t)(h ^ (h >> 32));
}

static pk_entry *
entry_at(const stor_pkindex *pk, uint32_t idx)
{
    return &pk->echunks[idx >> ENTRY_CHUNK_SHIFT][idx & (ENTRY_CHUNK - 1)];
}

static const uint8_t *
key_of(const stor_pkindex *pk, uint64_t ref)
{
    return pk->kchunks[REF_CHUNK(ref)] + REF_OFF(ref);
}

static uint64_t
entry_ref(const pk_entry *e)
{
    uint64_t ref;
    memcpy(&ref, e->key, sizeof(ref));
    return ref;
}

static size_t
entry_keylen(const pk_entry *e)
{
    return e->key[15] == TAG_SLAB ? REF_LEN(entry_ref(e)) : e->key[15];
}

static const uint8_t *
entry_key(const stor_pkindex *pk, const pk_entry *e)
{
    return e->key[15] == TAG_SLAB ? key_of(pk, entry_ref(e)) : e->key;
}

/* Store a copy of key[0..len) for e: inline when short, else in the slab. */
static void
entry_set_key(stor_pkindex *pk, pk_entry *e, const void *key, size_t len)
{
    if (len <= INLINE_MAX) {
        memcpy(e->key, key, len);
        e->key[15] = (uint8_t)len;
        return;
    }
    uint64_t ref = slab_put(pk, key, len);
    memcpy(e->key, &ref, sizeof(ref));
    e->key[15] = TAG_SLAB;
}

/* Copy key into the slab; returns its ref. */
static uint64_t
slab_put(stor_pkindex *pk, const void *key, size_t len)
{
    if (pk->nkchunks == 0 || SLAB_CHUNK - pk->kfill < len) {
        if (pk->nkchunks == pk->kcap) {
            pk->kcap = pk->kcap ? pk->kcap * 2 : 4;
            pk->kchunks = mem_realloc(pk->kchunks, pk->kcap * sizeof(uint8_t *));
        }
        DB_ASSERT(pk->nkchunks < ((uint32_t)1 << 28));
        pk->kchunks[pk->nkchunks++] = mem_alloc(SLAB_CHUNK);
        pk->kfill = 0;
    }
    uint64_t ref = REF_MAKE(pk->nkchunks - 1, pk->kfill, len);
    memcpy(pk->kchunks[pk->nkchunks - 1] + pk->kfill, key, len);
    pk->kfill += len;
    pk->live_bytes += len;
    return ref;
}

static void
slab_release(stor_pkindex *pk)
{
    for (uint32_t c = 0; c < pk->nkchunks; c++) {
        mem_free(pk->kchunks[c]);
    }
    mem_free(pk->kchunks);
    pk->kchunks = NULL;
    pk->nkchunks = pk->kcap = 0;
    pk->kfill = pk->live_bytes = pk->dead_bytes = 0;
}

/* Copy the live keys into a fresh slab and free the old one. O(live keys). */
static void
slab_compact(stor_pkindex *pk)
{
    stor_pkindex old = *pk;
    pk->kchunks = NULL;
    pk->nkchunks = pk->kcap = 0;
    pk->kfill = pk->live_bytes = pk->dead_bytes = 0;
    for (uint32_t i = 0; i < pk->eused; i++) {
        pk_entry *e = entry_at(pk, i);
        if (e->key[15] == TAG_SLAB) {
            uint64_t ref = entry_ref(e);
            ref = slab_put(pk, key_of(&old, ref), REF_LEN(ref));
            memcpy(e->key, &ref, sizeof(ref));
        }
    }
    slab_release(&old);
}

static uint32_t
entry_new(stor_pkindex *pk)
{
    if (pk->free_head != NO_ENTRY) {
        uint32_t idx = pk->free_head;
        pk->free_head = entry_at(pk, idx)->row;
        return idx;
    }
    DB_ASSERT(pk->eused < NO_ENTRY - 1);
    if ((pk->eused >> ENTRY_CHUNK_SHIFT) == pk->nechunks) {
        pk->echunks = mem_realloc(pk->echunks, (pk->nechunks + 1) * sizeof(pk_entry *));
        pk->echunks[pk->nechunks++] = mem_alloc(ENTRY_CHUNK * sizeof(pk_entry));
    }
    return pk->eused++;
}

static void
entry_release(stor_pkindex *pk, uint32_t idx)
{
    pk_entry *e = entry_at(pk, idx);
    if (e->key[15] == TAG_SLAB) {
        pk->live_bytes -= REF_LEN(entry_ref(e));
        pk->dead_bytes += REF_LEN(entry_ref(e));
    }
    e->key[15] = TAG_FREE;
    e->row = pk->free_head;
    pk->free_head = idx;
}

/* ---- hash table ---- */

/* Slot holding key, or the empty slot where the probe ended. */
static size_t
slot_find(const stor_pkindex *pk, const void *key, size_t len, uint32_t h32)
{
    size_t mask = pk->nslots - 1;
    size_t i = h32 & mask;
    for (;;) {
        uint64_t s = pk->slots[i];
        if (s == 0) {
            return i;
        }
        if ((uint32_t)(s >> 32) == h32) {
            const pk_entry *e = entry_at(pk, (uint32_t)s - 1);
            if (entry_keylen(e) == len && memcmp(entry_key(pk, e), key, len) == 0) {
                return i;
            }
        }
        i = (i + 1) & mask;
    }
}

/* Rehash every slot into a table of nslots (a power of two holding count at <= 3/4 load). */
static void
table_resize(stor_pkindex *pk, size_t nslots)
{
    uint64_t *old = pk->slots;
    size_t nold = pk->nslots;
    pk->slots = mem_calloc(nslots, sizeof(uint64_t));
    pk->nslots = nslots;
    size_t mask = nslots - 1;
    for (size_t j = 0; j < nold; j++) {
        if (old[j] != 0) {
            size_t i = (old[j] >> 32) & mask;
            while (pk->slots[i] != 0) {
                i = (i + 1) & mask;
            }
            pk->slots[i] = old[j];
        }
    }
    mem_free(old);
}

/* Empty slot i and shift later members of its probe run back so no lookup stops short. */
static void
slot_remove(stor_pkindex *pk, size_t i)
{
    size_t mask = pk->nslots - 1;
    size_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        uint64_t s = pk->slots[j];
        if (s == 0) {
            break;
        }
        size_t home = (s >> 32) & mask;
        /* s may move to i only when its home is not cyclically in (i, j]. */
        bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            pk->slots[i] = s;
            i = j;
        }
    }
    pk->slots[i] = 0;
}

/* Add a key known to be absent; returns its entry index (location fields left to the caller). */
static uint32_t
insert_new(stor_pkindex *pk, const void *key, size_t len, uint32_t h32)
{
    if ((pk->count + 1) * 4 > pk->nslots * 3) {
        table_resize(pk, pk->nslots * 2);
    }
    size_t i = slot_find(pk, key, len, h32);
    DB_ASSERT(pk->slots[i] == 0);
    uint32_t idx = entry_new(pk);
    entry_set_key(pk, entry_at(pk, idx), key, len);
    pk->slots[i] = (uint64_t)h32 << 32 | ((uint64_t)idx + 1);
    pk->count++;
    return idx;
}

/* ---- public API ---- */

stor_pkindex *
stor_pkindex_new(void)
{
    stor_pkindex *pk = mem_calloc(1, sizeof(*pk));
    pk->nslots = MIN_SLOTS;
    pk->slots = mem_calloc(pk->nslots, sizeof(uint64_t));
    pk->free_head = NO_ENTRY;
    return pk;
}

void
stor_pkindex_free(stor_pkindex *pk)
{
    if (pk == NULL) {
        return;
    }
    for (uint32_t c = 0; c < pk->nechunks; c++) {
        mem_free(pk->echunks[c]);
    }
    mem_free(pk->echunks);
    slab_release(pk);
    mem_free(pk->slots);
    mem_free(pk);
}

bool
stor_pkindex_lookup(const stor_pkindex *pk, const void *key, size_t keylen, stor_rowloc *loc,
                    uint64_t *version)
{
    if (keylen == 0 || keylen > STOR_PK_MAX_KEY) {
        return false;
    }
    size_t i = slot_find(pk, key, keylen, hash32(key, keylen));
    if (pk->slots[i] == 0) {
        return false;
    }
    const pk_entry *e = entry_at(pk, (uint32_t)pk->slots[i] - 1);
    if (loc != NULL) {
        *loc = (stor_rowloc){e->rowset_id, e->segment_id, e->row};
    }
    if (version != NULL) {
        *version = e->version;
    }
    return true;
}

int
stor_pkindex_upsert(stor_pkindex *pk, const void *key, size_t keylen, stor_rowloc loc,
                    uint64_t version, stor_rowloc *prev, bool *existed, db_error *err)
{
    bool existed_dummy;
    if (existed == NULL) {
        existed = &existed_dummy;
    }
    if (keylen == 0 || keylen > STOR_PK_MAX_KEY) {
        return db_error_set(err, ER_TOO_LONG_KEY, STOR_PK_MAX_KEY);
    }
    uint32_t h32 = hash32(key, keylen);
    size_t i = slot_find(pk, key, keylen, h32);
    pk_entry *e;
    if (pk->slots[i] != 0) {
        e = entry_at(pk, (uint32_t)pk->slots[i] - 1);
        DB_ASSERT(version >= e->version);
        if (prev != NULL) {
            *prev = (stor_rowloc){e->rowset_id, e->segment_id, e->row};
        }
        *existed = true;
    } else {
        e = entry_at(pk, insert_new(pk, key, keylen, h32));
        *existed = false;
    }
    e->rowset_id = loc.rowset_id;
    e->segment_id = loc.segment_id;
    e->row = loc.row;
    e->version = version;
    return DB_OK;
}

bool
stor_pkindex_delete(stor_pkindex *pk, const void *key, size_t keylen, uint64_t version,
                    stor_rowloc *prev)
{
    if (keylen == 0 || keylen > STOR_PK_MAX_KEY) {
        return false;
    }
    size_t i = slot_find(pk, key, keylen, hash32(key, keylen));
    if (pk->slots[i] == 0) {
        return false;
    }
    uint32_t idx = (uint32_t)pk->slots[i] - 1;
    pk_entry *e = entry_at(pk, idx);
    DB_ASSERT(version >= e->version);
    if (prev != NULL) {
        *prev = (stor_rowloc){e->rowset_id, e->segment_id, e->row};
    }
    slot_remove(pk, i);
    entry_release(pk, idx);
    pk->count--;
    if (pk->dead_bytes > pk->live_bytes && pk->dead_bytes > SLAB_CHUNK) {
        slab_compact(pk);
    }
    return true;
}

bool
stor_pkindex_foreach(const stor_pkindex *pk, stor_pkindex_visit_fn fn, void *arg)
{
    for (uint32_t i = 0; i < pk->eused; i++) {
        const pk_entry *e = entry_at(pk, i);
        if (e->key[15] == TAG_FREE) {
            continue;
        }
        stor_pk_item item = {
                .key = entry_key(pk, e),
                .keylen = entry_keylen(e),
                .loc = {e->rowset_id, e->segment_id, e->row},
                .version = e->version,
        };
        if (!fn(&item, arg)) {
            return false;
        }
    }
    return true;
}

void
stor_pkindex_clear(stor_pkindex *pk)
{
    for (uint32_t c = 0; c < pk->nechunks; c++) {
        mem_free(pk->echunks[c]);
    }
    mem_free(pk->echunks);
    pk->echunks = NULL;
    pk->nechunks = pk->eused = 0;
    pk->free_head = NO_ENTRY;
    slab_release(pk);
    memset(pk->slots, 0, pk->nslots * sizeof(uint64_t));
    pk->count = 0;
}

int
stor_pkindex_rebuild(stor_pkindex *pk, const stor_pk_item *items, size_t n, db_error *err)
{
    stor_pkindex_clear(pk);
    for (size_t k = 0; k < n; k++) {
        if (items[k].keylen == 0 || items[k].keylen > STOR_PK_MAX_KEY) {
            return db_error_set(err, ER_TOO_LONG_KEY, STOR_PK_MAX_KEY);
        }
    }
    size_t want = MIN_SLOTS;
    while (want * 3 < n * 4) {
        want *= 2;
    }
    if (want > pk->nslots) {
        table_resize(pk, want);
    }
    for (size_t k = 0; k < n; k++) {
        const stor_pk_item *it = &items[k];
        uint32_t h32 = hash32(it->key, it->keylen);
        size_t i = slot_find(pk, it->key, it->keylen, h32);
        pk_entry *e;
        if (pk->slots[i] != 0) {
            e = entry_at(pk, (uint32_t)pk->slots[i] - 1);
            if (it->version < e->version) {
                continue;
            }
        } else {
            e = entry_at(pk, insert_new(pk, it->key, it->keylen, h32));
        }
        e->rowset_id = it->loc.rowset_id;
        e->segment_id = it->loc.segment_id;
        e->row = it->loc.row;
        e->version = it->version;
    }
    return DB_OK;
}

size_t
stor_pkindex_count(const stor_pkindex *pk)
{
    return pk->count;
}

size_t
stor_pkindex_memory(const stor_pkindex *pk)
{
    return sizeof(*pk) + pk->nslots * sizeof(uint64_t) +
           pk->nechunks * (sizeof(pk_entry *) + ENTRY_CHUNK * sizeof(pk_entry)) +
           pk->kcap * sizeof(uint8_t *) + (size_t)pk->nkchunks * SLAB_CHUNK;
}
