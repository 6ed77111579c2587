/* SPDX-License-Identifier: Apache-2.0
 * Helpers for the schema unit tests: build cat_create_table_req values the way the parser
 * will, and compare errors against Doris's wire texts. Header-only (static inline). */
#ifndef TESTS_CATALOG_CAT_SCHEMA_TEST_H
#define TESTS_CATALOG_CAT_SCHEMA_TEST_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/cat_schema.h"
#include "common/buf.h"
#include "common/db_error.h"

/* A CREATE TABLE request with inline storage for its arrays. */
typedef struct tb {
    cat_create_table_req r;
    cat_column_def cols[16];
    const char *keys[8];
    const char *cluster[4];
    const char *pcols[2];
    const char *dcols[4];
    cat_partition_def parts[8];
    const char *vals[8][4];
    cat_prop props[16];
} tb;

/* CREATE TABLE db.name with no columns yet; DISTRIBUTED BY HASH(first column) BUCKETS 1. */
static inline void
tb_init(tb *b, const char *db, const char *name)
{
    memset(b, 0, sizeof *b);
    b->r.db = db;
    b->r.name = name;
    b->r.cols = b->cols;
    b->r.key_cols = b->keys;
    b->r.cluster_cols = b->cluster;
    b->r.part_cols = b->pcols;
    b->r.dist_cols = b->dcols;
    b->r.parts = b->parts;
    b->r.props = b->props;
    b->r.has_dist = true;
    b->r.buckets = 1;
}

static inline cat_column_def *
tb_col(tb *b, const char *name, cat_type t)
{
    cat_column_def *c = &b->cols[b->r.ncols++];
    memset(c, 0, sizeof *c);
    c->name = name;
    c->type = t;
    c->auto_inc_start = 1;
    return c;
}

static inline void
tb_keys(tb *b, cat_keys k, const char *k1, const char *k2)
{
    b->r.has_keys = true;
    b->r.keys_type = k;
    b->r.nkey_cols = 0;
    if (k1) {
        b->keys[b->r.nkey_cols++] = k1;
    }
    if (k2) {
        b->keys[b->r.nkey_cols++] = k2;
    }
}

static inline void
tb_hash(tb *b, const char *col, int buckets)
{
    b->r.has_dist = true;
    b->r.dist_random = false;
    b->r.ndist_cols = 0;
    if (col) {
        b->dcols[b->r.ndist_cols++] = col;
    }
    b->r.buckets = buckets;
    b->r.buckets_auto = false;
}

static inline void
tb_prop(tb *b, const char *k, const char *v)
{
    b->props[b->r.nprops].key = (char *)k;
    b->props[b->r.nprops].value = (char *)v;
    b->r.nprops++;
}

static inline void
tb_part_by(tb *b, cat_part_type type, const char *col)
{
    b->r.part_type = type;
    b->pcols[0] = col;
    b->r.npart_cols = 1;
}

/* PARTITION name VALUES LESS THAN (upper | MAXVALUE when upper is NULL). */
static inline void
tb_less(tb *b, const char *name, const char *upper)
{
    cat_partition_def *p = &b->parts[b->r.nparts++];
    memset(p, 0, sizeof *p);
    p->name = name;
    p->kind = CAT_PDEF_LESS_THAN;
    p->upper = upper;
    p->upper_max = upper == NULL;
}

/* PARTITION name VALUES [(lo), (hi | MAXVALUE)). */
static inline void
tb_fixed(tb *b, const char *name, const char *lo, const char *hi)
{
    cat_partition_def *p = &b->parts[b->r.nparts++];
    memset(p, 0, sizeof *p);
    p->name = name;
    p->kind = CAT_PDEF_FIXED;
    p->lower = lo;
    p->upper = hi;
    p->upper_max = hi == NULL;
}

/* PARTITION name VALUES IN (v1[, v2]). */
static inline void
tb_in(tb *b, const char *name, const char *v1, const char *v2)
{
    size_t i = b->r.nparts++;
    cat_partition_def *p = &b->parts[i];
    memset(p, 0, sizeof *p);
    p->name = name;
    p->kind = CAT_PDEF_IN;
    p->values = b->vals[i];
    b->vals[i][p->nvalues++] = v1;
    if (v2) {
        b->vals[i][p->nvalues++] = v2;
    }
}

/* Validates and attaches; asserts success; returns the attached table. */
static inline cat_table *
tb_create(cat_catalog *c, tb *b)
{
    db_error err;
    db_error_clear(&err);
    cat_table *t = NULL;
    int rc = cat_table_validate_create(c, &b->r, &t, &err);
    cr_assert_eq(rc, DB_OK, "create %s failed: %s", b->r.name, err.msg);
    cr_assert_not_null(t);
    rc = cat_table_attach(c, b->r.db, t, &err);
    cr_assert_eq(rc, DB_OK, "attach failed: %s", err.msg);
    return t;
}

/* Runs validation and returns the error (asserting it failed). */
static inline db_error
tb_fail(cat_catalog *c, tb *b)
{
    db_error err;
    db_error_clear(&err);
    cat_table *t = NULL;
    int rc = cat_table_validate_create(c, &b->r, &t, &err);
    cr_assert_eq(rc, DB_ERR, "create %s unexpectedly succeeded", b->r.name);
    cr_assert_null(t);
    return err;
}

/* Asserts err is Doris's wire error 1105 / HY000 with exactly the given detail text. */
static inline void
expect_doris(const db_error *err, const char *detail)
{
    char want[DB_ERRMSG_SIZE];
    snprintf(want, sizeof want, "errCode = 2, detailMessage = %s", detail);
    cr_assert_eq(err->code, 1105, "code %d, message %s", err->code, err->msg);
    cr_assert_str_eq(err->sqlstate, "HY000");
    cr_assert_str_eq(err->msg, want);
}

static inline void
expect_mysql(const db_error *err, int code, const char *state, const char *msg)
{
    cr_assert_eq(err->code, code, "code %d, message %s", err->code, err->msg);
    cr_assert_str_eq(err->sqlstate, state);
    cr_assert_str_eq(err->msg, msg);
}

/* A catalog with database "d". */
static inline cat_catalog *
tb_catalog(void)
{
    db_error err;
    db_error_clear(&err);
    cat_catalog *c = cat_catalog_new();
    cr_assert_eq(cat_db_create(c, "d", false, NULL, NULL, &err), DB_OK);
    return c;
}

/* Simple two-column table "k INT, v VARCHAR(10)" with the given keys model. */
static inline void
tb_simple(tb *b, const char *name, cat_keys k)
{
    tb_init(b, "d", name);
    tb_col(b, "k", cat_type_make(CAT_T_INT));
    tb_col(b, "v", cat_type_varchar(10));
    tb_keys(b, k, "k", NULL);
    tb_hash(b, "k", 1);
}

/* SHOW CREATE TABLE as a NUL-terminated heap string (free with free()). */
static inline char *
tb_show(const cat_table *t)
{
    buf out;
    buf_init(&out);
    cat_show_create_table(t, &out);
    buf_put_u8(&out, 0);
    char *s = strdup((const char *)out.data);
    buf_destroy(&out);
    return s;
}

#endif /* TESTS_CATALOG_CAT_SCHEMA_TEST_H */
