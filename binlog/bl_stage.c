/* SPDX-License-Identifier: Apache-2.0
 * The derivation stage of the storage writer chain (after sort/dedup and the MoW primary-key
 * lookup, before encode) for tables with Row Binlog. The change records share the data rowset's
 * segment files: the stage asks the encode stage to store, next to the after images it writes
 * anyway, the raw op of each row (MoW) and the before images (need_historical_value); once
 * the files are written it hard-links them into the binlog directory and adds a
 * BL_EXTRA_ROWSET section to the commit. Compaction later deletes the data names, the binlog
 * names keep the files until cleanup. Duplicate Key tables store nothing extra: every row is an
 * insert. README.md §"Recording". */
#include "binlog/bl_int.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/mem.h"

uint32_t
bl__stage_wants(void *ctx, const stor_schema *sc)
{
    (void)ctx;
    if (!sc->binlog_row || !sc->mow) {
        return 0;
    }
    /* Insert vs update needs to know whether the old row is live (a delete-sign row is not);
     * before images need the old values. */
    return sc->binlog_history ? STOR_WANT_OLD_VALUES : STOR_WANT_OLD_LIVE;
}

int
bl__stage_run(void *ctx, stor_chain_batch *b, stor_txn *txn, db_error *err)
{
    (void)ctx;
    (void)txn;
    (void)err;
    const stor_schema *sc = b->sc;
    if (!sc->binlog_row || !sc->mow || b->n == 0) {
        return DB_OK; /* DUP: the data rows are the records, all inserts */
    }
    uint32_t n = b->n;
    int64_t *op = arena_alloc(b->a, ((size_t)n + 1) * sizeof *op);
    for (uint32_t r = 0; r < n; r++) {
        stor_row_op o = b->ops != NULL ? b->ops[r] : STOR_OP_INSERT;
        bool has_old = b->has_old != NULL && b->has_old[r];
        op[r] = o == STOR_OP_INSERT   ? BL_OP_INSERT
                : o == STOR_OP_UPDATE ? BL_OP_UPDATE
                : has_old             ? BL_OP_DELETE
                                      : BL_OP_NONE; /* deleting an absent key: no record */
    }
    bool before = sc->binlog_history;
    uint32_t nbefore = 0;
    for (uint32_t c = 0; before && c < sc->ncols; c++) {
        nbefore += !sc->cols[c].is_key;
    }
    b->nextra = 1 + nbefore;
    b->extra_desc = arena_calloc(b->a, b->nextra, sizeof *b->extra_desc);
    b->extra_cols = arena_calloc(b->a, b->nextra, sizeof *b->extra_cols);
    b->extra_desc[0] = (stor_column_desc){.uid = BL_UID_OP, .type = cat_type_make(CAT_T_TINYINT)};
    b->extra_cols[0] = (stor_vec){.kind = STOR_VEC_I64, .n = n, .i64 = op};
    const stor_vec **src = arena_alloc(b->a, ((size_t)n + 1) * sizeof *src);
    uint32_t *rows = arena_alloc(b->a, ((size_t)n + 1) * sizeof *rows);
    uint32_t k = 1;
    for (uint32_t c = 0; before && c < sc->ncols; c++) {
        if (sc->cols[c].is_key) {
            continue;
        }
        b->extra_desc[k] = (stor_column_desc){
                .uid = BL_BEFORE_UID(sc->cols[c].uid), .type = sc->cols[c].type, .nullable = true};
        const stor_vec *old = b->old_cols != NULL ? &b->old_cols[c] : NULL;
        for (uint32_t r = 0; r < n; r++) {
            src[r] = old != NULL && b->has_old != NULL && b->has_old[r] ? old : NULL;
            rows[r] = r;
        }
        stor_vec_select(b->a, stor_vec_kind_of(&sc->cols[c].type), n, src, rows, &b->extra_cols[k]);
        k++;
    }
    return DB_OK;
}

/* fsync directory path (a new link's name must be durable before the commit record). */
static int
sync_dir(const char *path, db_error *err)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || fsync(fd) != 0) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
        }
        return db_error_set(err, ER_IO_ERROR, path, strerror(e));
    }
    close(fd);
    return DB_OK;
}

int
bl__stage_encoded(void *ctx, stor_chain_batch *b, stor_txn *txn, uint64_t rowset_id,
                  const char *const *paths, uint32_t nseg, db_error *err)
{
    (void)rowset_id;
    bl_log *L = ctx;
    const stor_schema *sc = b->sc;
    if (!sc->binlog_row) {
        return DB_OK;
    }
    char *dir = bl__tablet_dir(L, b->tablet_id, b->a);
    bool made = mkdir(dir, 0755) == 0;
    if (!made && errno != EEXIST) {
        return db_error_set(err, ER_IO_ERROR, dir, strerror(errno));
    }
    if (made && sync_dir(L->root, err) != DB_OK) {
        return DB_ERR;
    }
    uint64_t file_id = stor_engine_next_id(L->e);
    for (uint32_t s = 0; s < nseg; s++) {
        char *path = bl__rowset_path(L, b->tablet_id, file_id, s, b->a);
        if (link(paths[s], path) != 0) {
            return db_error_set(err, ER_IO_ERROR, path, strerror(errno));
        }
        stor_chain_track_file(b, path); /* removed if the commit fails */
    }
    if (sync_dir(dir, err) != DB_OK) {
        return DB_ERR;
    }
    buf sec;
    buf_init(&sec);
    bl__encode_rowset_section(&sec, sc->table_id, b->tablet_id, file_id, nseg, b->n,
                              sc->mow && sc->binlog_history);
    stor_txn_add_extra(txn, BL_EXTRA_ROWSET, sec.data, sec.len);
    buf_destroy(&sec);
    return DB_OK;
}
