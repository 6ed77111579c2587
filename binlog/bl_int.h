/* SPDX-License-Identifier: Apache-2.0
 * bl_int.h: private to binlog/. The in-memory index of binlog rowsets (bl_log.c), shared by the
 * writer stage (bl_stage.c) and the readers (bl_scan.c, bl_fold.c). README.md §Data structures. */
#ifndef BINLOG_BL_INT_H
#define BINLOG_BL_INT_H

#include "binlog/binlog.h"

#include <pthread.h>

#include "common/buf.h"

/* The binlog rowsets of one tablet, ascending by TSO (commit order). */
typedef struct bl_tablet {
    uint64_t tablet_id;
    bl_rowset *rs;
    size_t n, cap;
} bl_tablet;

struct bl_log {
    char *root; /* directory of the <tablet id>/ directories (owned) */
    stor_engine *e;
    /* lock protects tablets (ascending tablet id), ntablets and next_lsn. Writers: the extra
     * handlers (under the engine's commit mutex, so in commit order) and image load; readers
     * copy what they need and drop it before any file I/O. */
    pthread_rwlock_t lock;
    bl_tablet **tablets;
    size_t ntablets, cap;
    uint64_t next_lsn;          /* LSN of the next record (starts at 1) */
    pthread_mutex_t cleanup_mu; /* one bl_log_cleanup at a time */
};

/* File s of a rowset: <root>/<tablet id>/<file id>_<s>.blg (in a). */
char *bl__rowset_path(const bl_log *L, uint64_t tablet_id, uint64_t file_id, uint32_t s, arena *a);
/* Directory of a tablet (in a). */
char *bl__tablet_dir(const bl_log *L, uint64_t tablet_id, arena *a);

/* The derivation stage (bl_stage.c). */
int bl__stage_run(void *ctx, stor_chain_batch *b, stor_txn *txn, db_error *err);
uint32_t bl__stage_wants(void *ctx, const stor_schema *sc);
int bl__stage_encoded(void *ctx, stor_chain_batch *b, stor_txn *txn, uint64_t rowset_id,
                      const char *const *paths, uint32_t nseg, db_error *err);

/* Encoded size of a BL_EXTRA_ROWSET section. */
#define BL_ROWSET_SECTION_BYTES 40
void bl__encode_rowset_section(buf *out, int64_t table_id, uint64_t tablet_id, uint64_t file_id,
                               uint32_t nseg, uint64_t rows, bool has_before);

/* The set of a tablet's keys changed after a time-travel target (bl_undo.c): memcomparable
 * encodings (stor_key_encode_row), copied into arena a, compared byte for byte, so two keys are
 * one entry only when their encodings are equal. add, then seal (sort, drop duplicates), then
 * has. The reference array grows by doubling (heap); destroy frees it, a keeps the bytes. */
typedef struct bl_keyref {
    const uint8_t *p;
    size_t len;
} bl_keyref;
typedef struct bl_keyset {
    arena *a;
    bl_keyref *refs; /* sorted and unique once sealed */
    size_t n, cap;
    bool sealed;
} bl_keyset;
void bl__keyset_init(bl_keyset *ks, arena *a);
void bl__keyset_add(bl_keyset *ks, const void *key, size_t len);
void bl__keyset_seal(bl_keyset *ks);
/* Whether key (len bytes) was added; ks must be sealed. */
bool bl__keyset_has(const bl_keyset *ks, const void *key, size_t len);
/* Heap bytes of the reference array. */
size_t bl__keyset_mem(const bl_keyset *ks);
void bl__keyset_destroy(bl_keyset *ks);

#endif /* BINLOG_BL_INT_H */
