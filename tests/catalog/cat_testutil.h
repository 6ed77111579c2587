/* SPDX-License-Identifier: Apache-2.0
 * Test fixture for the catalog unit tests: a temporary directory per test, a small key/value
 * "catalog" state driven by edit-log records (type TU_REC_SET) and an image section
 * (TU_IMG_STATE), and file helpers for damaging logs on purpose. */
#ifndef TESTS_CATALOG_CAT_TESTUTIL_H
#define TESTS_CATALOG_CAT_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"

#define TU_REC_SET   (CAT_REC_TEST_FIRST + 0) /* u64le key, u64le value, padding */
#define TU_REC_OTHER (CAT_REC_TEST_FIRST + 1) /* a type tu_open never registers */
#define TU_IMG_STATE (CAT_IMG_TEST_FIRST + 0)
#define TU_NKEYS     1024

/* The replayed state: vals[key] = value of the last TU_REC_SET for key. */
typedef struct tu_state {
    uint64_t vals[TU_NKEYS];
    uint64_t napplied;  /* TU_REC_SET records applied, from the image plus replayed */
    uint64_t last_seq;  /* sequence number of the last replayed record */
    uint64_t nreplayed; /* records replayed (not counting the image) */
    bool in_order;      /* every replayed seq was last_seq + 1 (or the first) */
    uint64_t image_seq; /* seq of the image loaded, 0 = none */
} tu_state;

/* The per-test directory (mkdtemp under /tmp), created by tu_setup, removed by tu_teardown. */
extern char tu_dir[64];
void tu_setup(void);
void tu_teardown(void);

/* tu_dir + "/" + name in a static buffer (one of 4 rotating). */
const char *tu_path(const char *name);

void tu_state_init(tu_state *st);
/* Open the log in dir, register TU_REC_SET and TU_IMG_STATE over st (reset first), replay.
 * Returns the log, or NULL with err set. */
cat_editlog *tu_open(const char *dir, const cat_editlog_config *cfg, tu_state *st, db_error *err);
/* Append TU_REC_SET(key, value) and apply it to st (key < TU_NKEYS). Asserts success. */
uint64_t tu_set(cat_editlog *el, tu_state *st, uint64_t key, uint64_t value);

/* Segment file names in dir, sorted (at most max; returns how many). Each name is heap-owned
 * by a static table, valid until the next call. */
size_t tu_list(const char *dir, const char *prefix, char names[][64], size_t max);
long tu_file_size(const char *path);
void tu_truncate(const char *path, long size);
void tu_flip_byte(const char *path, long off);
void tu_copy_file(const char *from, const char *to);
bool tu_exists(const char *path);
/* Whole file as a NUL-terminated heap string (free). */
char *tu_read_text(const char *path);
/* Byte offsets of each record in a segment file (parsed by the test itself from the format in
 * README.md §Formats, independently of the implementation). Returns how many. */
size_t tu_record_offsets(const char *path, long *offs, size_t max);

#endif /* TESTS_CATALOG_CAT_TESTUTIL_H */
