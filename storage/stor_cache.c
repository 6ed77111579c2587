/* SPDX-License-Identifier: Apache-2.0
 * stor_cache: the segment page cache. Keys are (file identity, page offset); values are the
 * CRC-checked, decompressed bytes of one page. The cache is split into shards picked by key hash;
 * each shard has a mutex, a chained hash table and an LRU list of its unpinned entries, and never
 * holds more than its share of the capacity. Readers pin the entries they use.
 * See README.md §"Page cache". */
#include "storage/stor_int.h"

#include <pthread.h>
#include <string.h>

#include "common/db_error.h"
#include "common/mem.h"

#define MAX_SHARDS      16
#define MIN_SHARD_BYTES ((size_t)4 << 20) /* fewer shards below 16 x 4 MiB of capacity */
#define MIN_BUCKETS     64u

/* A link of a shard's LRU list (circular, with the shard's sentinel). */
typedef struct lru_link {
    struct lru_link *prev, *next;
} lru_link;

/* One cached page. The bytes follow the struct in the same allocation. */
struct stor_cache_entry {
    lru_link lru; /* first member (an entry is its link); prev = next = NULL while pinned */
    stor_cache_key key;
    uint64_t hash;
    struct stor_cache_entry *hnext; /* hash chain of the shard's bucket */
    uint32_t refs;                  /* pins; > 0 = never evicted (I12) */
    size_t len;                     /* bytes of data */
    size_t charge;                  /* stor_cache_charge(len) */
    uint8_t data[];
};

/* One shard. `mu` protects every field below it and every field of the shard's entries except
 * key, hash, len, charge and data, which are immutable after insert. */
typedef struct shard {
    pthread_mutex_t mu;
    size_t capacity;            /* bytes this shard may hold (I11); fixed at new */
    size_t bytes;               /* charged bytes held, pinned entries included */
    stor_cache_entry **buckets; /* nbuckets chains */
    uint32_t nbuckets;          /* power of two */
    uint64_t nentries;
    lru_link lru; /* sentinel: lru.next = most recently used, lru.prev = least */
    uint64_t hits, misses, inserts, rejects, evictions;
} shard;

struct stor_cache {
    size_t capacity;  /* bytes, as given */
    uint32_t nshards; /* power of two, 1..MAX_SHARDS; immutable */
    shard shards[MAX_SHARDS];
};

static uint64_t key_hash(const stor_cache_key *k);
static bool key_eq(const stor_cache_key *a, const stor_cache_key *b);
static shard *shard_of(stor_cache *c, uint64_t hash);
static stor_cache_entry *find(shard *s, const stor_cache_key *k, uint64_t hash);
static void lru_unlink(stor_cache_entry *e);
static void lru_push_front(shard *s, stor_cache_entry *e);
static void pin(shard *s, stor_cache_entry *e);
static void remove_entry(shard *s, stor_cache_entry *e);
static void grow(shard *s);

/* splitmix64 finalizer over the key words. */
static uint64_t
key_hash(const stor_cache_key *k)
{
    uint64_t w[5] = {k->dev, k->ino, k->file_size, k->mtime_ns, k->offset};
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 5; i++) {
        h ^= w[i];
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
        h *= 0x94D049BB133111EBull;
        h ^= h >> 29;
    }
    return h;
}

static bool
key_eq(const stor_cache_key *a, const stor_cache_key *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->file_size == b->file_size &&
           a->mtime_ns == b->mtime_ns && a->offset == b->offset;
}

/* The top bits pick the shard, the low bits the bucket, so the two are independent. */
static shard *
shard_of(stor_cache *c, uint64_t hash)
{
    return &c->shards[(hash >> 56) & (c->nshards - 1)];
}

size_t
stor_cache_charge(size_t len)
{
    return len + sizeof(stor_cache_entry);
}

stor_cache *
stor_cache_new(size_t capacity_bytes)
{
    stor_cache *c = mem_calloc(1, sizeof *c);
    c->capacity = capacity_bytes;
    c->nshards = 1;
    while (c->nshards < MAX_SHARDS && capacity_bytes / (c->nshards * 2) >= MIN_SHARD_BYTES) {
        c->nshards *= 2;
    }
    for (uint32_t i = 0; i < c->nshards; i++) {
        shard *s = &c->shards[i];
        DB_ASSERT(pthread_mutex_init(&s->mu, NULL) == 0);
        s->capacity = capacity_bytes / c->nshards; /* I11: the shares sum to <= capacity */
        s->nbuckets = MIN_BUCKETS;
        s->buckets = mem_calloc(s->nbuckets, sizeof *s->buckets);
        s->lru.next = s->lru.prev = &s->lru;
    }
    return c;
}

void
stor_cache_free(stor_cache *c)
{
    if (c == NULL) {
        return;
    }
    for (uint32_t i = 0; i < c->nshards; i++) {
        shard *s = &c->shards[i];
        for (uint32_t b = 0; b < s->nbuckets; b++) {
            stor_cache_entry *e = s->buckets[b];
            while (e != NULL) {
                stor_cache_entry *next = e->hnext;
                DB_ASSERT(e->refs == 0); /* freeing the cache while a reader uses a page */
                mem_free(e);
                e = next;
            }
        }
        mem_free(s->buckets);
        pthread_mutex_destroy(&s->mu);
    }
    mem_free(c);
}

/* Entry with key k in s, or NULL. Shard lock held. */
static stor_cache_entry *
find(shard *s, const stor_cache_key *k, uint64_t hash)
{
    for (stor_cache_entry *e = s->buckets[hash & (s->nbuckets - 1)]; e != NULL; e = e->hnext) {
        if (e->hash == hash && key_eq(&e->key, k)) {
            return e;
        }
    }
    return NULL;
}

static void
lru_unlink(stor_cache_entry *e)
{
    e->lru.prev->next = e->lru.next;
    e->lru.next->prev = e->lru.prev;
    e->lru.prev = e->lru.next = NULL;
}

static void
lru_push_front(shard *s, stor_cache_entry *e)
{
    e->lru.prev = &s->lru;
    e->lru.next = s->lru.next;
    s->lru.next->prev = &e->lru;
    s->lru.next = &e->lru;
}

/* Add one pin; the first pin takes e off the LRU list so eviction cannot see it (I12). */
static void
pin(shard *s, stor_cache_entry *e)
{
    if (e->refs++ == 0) {
        lru_unlink(e);
    }
}

/* Unlink an unpinned e from the hash table and the LRU list and free it. Shard lock held. */
static void
remove_entry(shard *s, stor_cache_entry *e)
{
    DB_ASSERT(e->refs == 0); /* I12 */
    stor_cache_entry **pp = &s->buckets[e->hash & (s->nbuckets - 1)];
    while (*pp != e) {
        pp = &(*pp)->hnext;
    }
    *pp = e->hnext;
    lru_unlink(e);
    s->bytes -= e->charge;
    s->nentries--;
    mem_free(e);
}

/* Double the bucket array once the load factor passes 1. Shard lock held. */
static void
grow(shard *s)
{
    uint32_t n = s->nbuckets * 2;
    stor_cache_entry **b = mem_calloc(n, sizeof *b);
    for (uint32_t i = 0; i < s->nbuckets; i++) {
        stor_cache_entry *e = s->buckets[i];
        while (e != NULL) {
            stor_cache_entry *next = e->hnext;
            e->hnext = b[e->hash & (n - 1)];
            b[e->hash & (n - 1)] = e;
            e = next;
        }
    }
    mem_free(s->buckets);
    s->buckets = b;
    s->nbuckets = n;
}

stor_cache_entry *
stor_cache_lookup(stor_cache *c, const stor_cache_key *key)
{
    uint64_t h = key_hash(key);
    shard *s = shard_of(c, h);
    pthread_mutex_lock(&s->mu);
    stor_cache_entry *e = find(s, key, h);
    if (e != NULL) {
        s->hits++;
        pin(s, e);
    } else {
        s->misses++;
    }
    pthread_mutex_unlock(&s->mu);
    return e;
}

stor_cache_entry *
stor_cache_insert(stor_cache *c, const stor_cache_key *key, const void *data, size_t len)
{
    uint64_t h = key_hash(key);
    shard *s = shard_of(c, h);
    size_t charge = stor_cache_charge(len);
    if (len > s->capacity || charge > s->capacity) { /* capacity is immutable: no lock needed */
        pthread_mutex_lock(&s->mu);
        s->rejects++;
        pthread_mutex_unlock(&s->mu);
        return NULL;
    }
    /* Allocate and copy outside the lock; most inserts follow a miss and win. */
    stor_cache_entry *n = mem_alloc(sizeof *n + len + 1);
    memset(n, 0, sizeof *n);
    n->key = *key;
    n->hash = h;
    n->len = len;
    n->charge = charge;
    if (len > 0) {
        memcpy(n->data, data, len);
    }
    pthread_mutex_lock(&s->mu);
    stor_cache_entry *e = find(s, key, h);
    if (e != NULL) { /* another reader inserted the same page first */
        pin(s, e);
        pthread_mutex_unlock(&s->mu);
        mem_free(n);
        return e;
    }
    while (s->bytes + charge > s->capacity && s->lru.prev != &s->lru) {
        remove_entry(s, (stor_cache_entry *)s->lru.prev); /* lru is the first member */
        s->evictions++;
    }
    if (s->bytes + charge > s->capacity) { /* the rest is pinned */
        s->rejects++;
        pthread_mutex_unlock(&s->mu);
        mem_free(n);
        return NULL;
    }
    if (s->nentries >= s->nbuckets) {
        grow(s);
    }
    stor_cache_entry **b = &s->buckets[h & (s->nbuckets - 1)];
    n->hnext = *b;
    *b = n;
    n->refs = 1; /* returned pinned, so not on the LRU list */
    s->bytes += charge;
    s->nentries++;
    s->inserts++;
    DB_ASSERT(s->bytes <= s->capacity); /* I11 */
    pthread_mutex_unlock(&s->mu);
    return n;
}

const uint8_t *
stor_cache_entry_data(const stor_cache_entry *e)
{
    return e->data;
}

size_t
stor_cache_entry_len(const stor_cache_entry *e)
{
    return e->len;
}

void
stor_cache_release(stor_cache *c, stor_cache_entry *e)
{
    shard *s = shard_of(c, e->hash);
    pthread_mutex_lock(&s->mu);
    DB_ASSERT(e->refs > 0);
    if (--e->refs == 0) {
        lru_push_front(s, e);
    }
    pthread_mutex_unlock(&s->mu);
}

stor_cache_stats
stor_cache_get_stats(stor_cache *c)
{
    stor_cache_stats st = {.capacity = c->capacity};
    for (uint32_t i = 0; i < c->nshards; i++) {
        shard *s = &c->shards[i];
        pthread_mutex_lock(&s->mu);
        st.hits += s->hits;
        st.misses += s->misses;
        st.inserts += s->inserts;
        st.rejects += s->rejects;
        st.evictions += s->evictions;
        st.bytes += s->bytes;
        st.entries += s->nentries;
        pthread_mutex_unlock(&s->mu);
    }
    return st;
}
