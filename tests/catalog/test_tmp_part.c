/* SPDX-License-Identifier: Apache-2.0
 * test_tmp_part.c: NULL LIST values (VALUES IN ((NULL))) and temporary partitions
 * (cat_tmp_part.c): ADD / DROP TEMPORARY PARTITION, REPLACE PARTITION ... WITH TEMPORARY
 * PARTITION with strict_range and use_temp_partition_name, all through cat_meta's table record,
 * surviving close/reopen from the log and from the image; the codec round trip; the texts. */
#include <criterion/criterion.h>
#include <string.h>

#include "catalog/catalog.h"
#include "common/mem.h"
#include "tests/catalog/cat_schema_test.h"
#include "tests/catalog/cat_testutil.h"

static cat_meta *
open_meta(void)
{
    db_error err = {0};
    cat_meta *m = cat_meta_open(tu_dir, NULL, &err);
    cr_assert_not_null(m, "open: %s", err.msg);
    return m;
}

/* d.t: k INT NULL key, RANGE on k: p1 < 10, p2 < 20, p3 < 30. */
static void
make_range(cat_meta *m)
{
    tb b;
    tb_init(&b, "d", "t");
    cat_column_def *kc = tb_col(&b, "k", cat_type_make(CAT_T_INT));
    kc->nullable = kc->null_given = true;
    tb_col(&b, "v", cat_type_make(CAT_T_INT));
    tb_keys(&b, CAT_KEYS_DUP, "k", NULL);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_less(&b, "p1", "10");
    tb_less(&b, "p2", "20");
    tb_less(&b, "p3", "30");
    tb_hash(&b, "k", 2);
    db_error err = {0};
    cr_assert_eq(cat_meta_create_table(m, &b.r, &err), DB_OK, "%s", err.msg);
}

/* "name:lo-hi,..." of the formal partitions, then "|" and the temporary ones. */
static const char *
layout(cat_meta *m)
{
    static char out[512];
    size_t len = 0;
    out[0] = '\0';
    const cat_catalog *c = cat_meta_read_begin(m);
    cat_table *t = cat_table_find(cat_db_find(c, "d"), "t");
    for (size_t i = 0; i < t->nparts + t->ntmp_parts; i++) {
        const cat_partition *p = i < t->nparts ? &t->parts[i] : &t->tmp_parts[i - t->nparts];
        len += (size_t)snprintf(out + len, sizeof out - len, "%s%s:%s-%s",
                                i == t->nparts ? "|" : (i ? "," : ""), p->name,
                                p->lower_min ? "min" : p->lower, p->upper_max ? "max" : p->upper);
    }
    if (t->ntmp_parts == 0) {
        snprintf(out + len, sizeof out - len, "|");
    }
    cat_meta_read_end(m);
    return out;
}

static int64_t
part_id(cat_meta *m, const char *name, bool tmp)
{
    const cat_catalog *c = cat_meta_read_begin(m);
    cat_table *t = cat_table_find(cat_db_find(c, "d"), "t");
    cat_partition *p = tmp ? cat_table_tmp_partition(t, name) : cat_table_partition(t, name);
    int64_t id = p ? p->id : 0;
    cat_meta_read_end(m);
    return id;
}

typedef struct edit {
    int op; /* 0 add temp, 1 drop temp, 2 replace */
    cat_partition_def def;
    const char *names[4], *tmp[4];
    size_t n, ntmp;
    cat_prop props[2];
    size_t nprops;
} edit;

static int
edit_fn(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    edit *e = arg;
    (void)db;
    switch (e->op) {
    case 0:
        return cat_table_add_tmp_partition(c, t, &e->def, err);
    case 1:
        return cat_table_drop_tmp_partition(t, e->def.name, false, err);
    default:
        return cat_table_replace_partitions(t, e->names, e->n, e->tmp, e->ntmp, e->props, e->nprops,
                                            err);
    }
}

static int
add_tmp(cat_meta *m, const char *name, const char *lo, const char *hi, db_error *err)
{
    edit e;
    memset(&e, 0, sizeof e);
    e.def.name = name;
    e.def.kind = lo ? CAT_PDEF_FIXED : CAT_PDEF_LESS_THAN;
    e.def.lower = lo;
    e.def.upper = hi;
    e.def.upper_max = hi == NULL;
    *err = (db_error){0};
    return cat_meta_alter_table(m, "d", "t", edit_fn, &e, err);
}

static int
replace(cat_meta *m, const char *n1, const char *n2, const char *t1, const char *t2,
        const char *key, const char *value, db_error *err)
{
    edit e;
    memset(&e, 0, sizeof e);
    e.op = 2;
    e.names[e.n++] = n1;
    if (n2) {
        e.names[e.n++] = n2;
    }
    e.tmp[e.ntmp++] = t1;
    if (t2) {
        e.tmp[e.ntmp++] = t2;
    }
    if (key) {
        e.props[e.nprops++] = (cat_prop){(char *)key, (char *)value};
    }
    *err = (db_error){0};
    return cat_meta_alter_table(m, "d", "t", edit_fn, &e, err);
}

TestSuite(cat_tmp_part, .init = tu_setup, .fini = tu_teardown);

Test(cat_tmp_part, add_drop_rules_and_durability)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_OK);
    make_range(m);
    /* may overlap formal partitions, not other temporary ones; names are unique over both */
    cr_assert_eq(add_tmp(m, "tp1", "0", "20", &err), DB_OK, "%s", err.msg);
    cr_assert_eq(add_tmp(m, "tp2", "15", "25", &err), DB_ERR);
    expect_doris(&err, "Range [types: [INT]; keys: [15]; ..types: [INT]; keys: [25]; ) is "
                       "intersected with range: [types: [INT]; keys: [0]; ..types: [INT]; "
                       "keys: [20]; )");
    cr_assert_eq(add_tmp(m, "p1", "40", "50", &err), DB_ERR);
    expect_doris(&err, "Duplicate partition name p1");
    cr_assert_eq(add_tmp(m, "TP1", "40", "50", &err), DB_ERR);
    expect_doris(&err, "Duplicate partition name TP1");
    cr_assert_eq(add_tmp(m, "tp3", NULL, "30", &err), DB_OK, "%s", err.msg); /* [20, 30) */
    cr_assert_str_eq(layout(m), "p1:min-10,p2:10-20,p3:20-30|tp1:0-20,tp3:20-30");
    int64_t id1 = part_id(m, "tp1", true);
    cr_assert_gt(id1, part_id(m, "p3", false));
    /* dropping a temporary partition that does not exist */
    edit e;
    memset(&e, 0, sizeof e);
    e.op = 1;
    e.def.name = "nope";
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", edit_fn, &e, &err), DB_ERR);
    expect_doris(&err, "Error in list of partitions to nope");
    cat_meta_close(m, false); /* from the log */
    m = open_meta();
    cr_assert_str_eq(layout(m), "p1:min-10,p2:10-20,p3:20-30|tp1:0-20,tp3:20-30");
    cr_assert_eq(part_id(m, "tp1", true), id1);
    e.def.name = "tp3";
    err = (db_error){0};
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", edit_fn, &e, &err), DB_OK, "%s", err.msg);
    cat_meta_close(m, true); /* from the image */
    m = open_meta();
    cr_assert_str_eq(layout(m), "p1:min-10,p2:10-20,p3:20-30|tp1:0-20");
    /* the tablet GC keeps a temporary partition's tablets */
    int64_t *ids = NULL;
    size_t n = cat_meta_partition_ids(m, &ids);
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        found |= ids[i] == id1;
    }
    mem_free(ids);
    cr_assert(found);
    cat_meta_close(m, false);
}

Test(cat_tmp_part, replace_strict_range_and_names)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_OK);
    make_range(m);
    cr_assert_eq(add_tmp(m, "tp1", NULL, "20", &err), DB_OK, "%s", err.msg); /* [min, 20) */
    cr_assert_eq(add_tmp(m, "tp2", "20", "25", &err), DB_OK, "%s", err.msg);
    /* strict_range: {p1, p2} = [min, 20) = {tp1}; {p3} = [20, 30) != [20, 25) */
    cr_assert_eq(replace(m, "p3", NULL, "tp2", NULL, NULL, NULL, &err), DB_ERR);
    expect_doris(&err, "2 range lists are not stricly matched. [[types: [INT]; keys: [20]; "
                       "..types: [INT]; keys: [30]; )] vs. [[types: [INT]; keys: [20]; ..types: "
                       "[INT]; keys: [25]; )]");
    cr_assert_eq(replace(m, "p2", NULL, "tp2", NULL, NULL, NULL, &err), DB_ERR);
    expect_doris(&err, "2 range lists are not stricly matched. types: [INT]; keys: [10];  vs. "
                       "types: [INT]; keys: [20]; ");
    cr_assert_eq(replace(m, "nope", NULL, "tp1", NULL, NULL, NULL, &err), DB_ERR);
    expect_doris(&err, "Partition[nope] does not exist");
    cr_assert_eq(replace(m, "p1", NULL, "nope", NULL, NULL, NULL, &err), DB_ERR);
    expect_doris(&err, "Temp partition[nope] does not exist");
    cr_assert_eq(replace(m, "p1", NULL, "tp1", NULL, "colour", "red", &err), DB_ERR);
    expect_doris(&err, "Unknown properties: [colour]");
    /* non-strict: [20, 25) may replace p3 since it meets no partition that stays */
    cr_assert_eq(replace(m, "p3", NULL, "tp2", NULL, "strict_range", "false", &err), DB_OK, "%s",
                 err.msg);
    int64_t tp1 = part_id(m, "tp1", true);
    /* two for one: the temporary name stays (counts differ) */
    cr_assert_eq(replace(m, "p1", "p2", "tp1", NULL, NULL, NULL, &err), DB_OK, "%s", err.msg);
    cr_assert_str_eq(layout(m), "tp1:min-20,p3:20-25|");
    cr_assert_eq(part_id(m, "tp1", false), tp1); /* the id moves with it: new for streams */
    cat_meta_close(m, false);
    m = open_meta();
    cr_assert_str_eq(layout(m), "tp1:min-20,p3:20-25|");
    /* non-strict conflict with a partition that stays */
    cr_assert_eq(add_tmp(m, "tp9", "15", "20", &err), DB_OK, "%s", err.msg);
    cr_assert_eq(replace(m, "p3", NULL, "tp9", NULL, "strict_range", "false", &err), DB_ERR);
    expect_doris(&err, "Range: [types: [INT]; keys: [15]; ..types: [INT]; keys: [20]; ) "
                       "conflicts with existing range");
    /* use_temp_partition_name = true keeps tp's name */
    cr_assert_eq(add_tmp(m, "tp3", "20", "25", &err), DB_OK, "%s", err.msg);
    cr_assert_eq(replace(m, "p3", NULL, "tp3", NULL, "use_temp_partition_name", "true", &err),
                 DB_OK, "%s", err.msg);
    cr_assert_str_eq(layout(m), "tp1:min-20,tp3:20-25|tp9:15-20");
    cat_meta_close(m, true);
    m = open_meta();
    cr_assert_str_eq(layout(m), "tp1:min-20,tp3:20-25|tp9:15-20");
    cat_meta_close(m, false);
}

Test(cat_tmp_part, list_null_value_round_trip)
{
    cat_catalog *c = cat_catalog_new();
    db_error err = {0};
    cr_assert_eq(cat_db_create(c, "d", false, NULL, NULL, &err), DB_OK);
    tb b;
    tb_init(&b, "d", "t");
    cat_column_def *kc = tb_col(&b, "k", cat_type_make(CAT_T_INT));
    kc->nullable = kc->null_given = true;
    tb_keys(&b, CAT_KEYS_DUP, "k", NULL);
    tb_part_by(&b, CAT_PART_LIST, "k");
    tb_in(&b, "p1", "1", NULL);
    tb_in(&b, "pn", "2", NULL);
    b.vals[1][b.parts[1].nvalues++] = NULL; /* VALUES IN (2, NULL) */
    tb_hash(&b, "k", 1);
    cat_table *t = tb_create(c, &b);
    cr_assert(t->parts[1].has_null && t->parts[1].nvalues == 1 && !t->parts[0].has_null);
    cat_partition_def def;
    memset(&def, 0, sizeof def);
    const char *tv[1] = {NULL};
    def.name = "tn";
    def.kind = CAT_PDEF_IN;
    def.values = tv;
    def.nvalues = 1;
    cr_assert_eq(cat_table_add_partition(c, t, &def, &err), DB_ERR);
    expect_doris(&err, "The partition key[(NULL)] in partition item[tn] is conflict with current "
                       "partitionKeys[pn]");
    err = (db_error){0};
    cr_assert_eq(cat_table_add_tmp_partition(c, t, &def, &err), DB_OK, "%s", err.msg);
    buf out;
    buf_init(&out);
    cat_show_create_table(t, &out);
    buf_put_u8(&out, 0);
    cr_assert(strstr((const char *)out.data, "PARTITION pn VALUES IN (\"2\",NULL)") != NULL, "%s",
              (const char *)out.data);
    cr_assert(strstr((const char *)out.data, "tn") == NULL); /* temporary ones are not shown */
    buf_clear(&out);
    cat_show_partition_row(t, 2, &out); /* the temporary one */
    const char *f = (const char *)out.data;
    f += strlen(f) + 1;
    cr_assert_str_eq(f, "tn");
    for (int i = 0; i < 4; i++) {
        f += strlen(f) + 1;
    }
    f += strlen(f) + 1;
    cr_assert_str_eq(f, "[types: [INT]; keys: [NULL]; ]");
    buf_clear(&out);
    cat_table_encode(t, &out);
    cat_table *back = cat_table_decode(out.data, out.len, &err);
    cr_assert_not_null(back, "%s", err.msg);
    cr_assert(back->nparts == 2 && back->ntmp_parts == 1);
    cr_assert(back->parts[1].has_null && !back->parts[0].has_null);
    cr_assert(back->tmp_parts[0].has_null && strcmp(back->tmp_parts[0].name, "tn") == 0);
    cr_assert_eq(back->tmp_parts[0].id, t->tmp_parts[0].id);
    cat_table *copy = cat_table_clone(back);
    cr_assert(copy->ntmp_parts == 1 && copy->tmp_parts[0].has_null);
    /* strict LIST replace: {2, NULL} vs {NULL} differ; non-strict: NULL only in pn (replaced) */
    const char *names[1] = {"pn"}, *tmp[1] = {"tn"};
    err = (db_error){0};
    cr_assert_eq(cat_table_replace_partitions(copy, names, 1, tmp, 1, NULL, 0, &err), DB_ERR);
    expect_doris(&err, "The partition items of temp partitions and partitions to be replaced are "
                       "not strictly matched");
    char k_strict[] = "strict_range", v_false[] = "false";
    cat_prop loose = {k_strict, v_false};
    err = (db_error){0};
    cr_assert_eq(cat_table_replace_partitions(copy, names, 1, tmp, 1, &loose, 1, &err), DB_OK, "%s",
                 err.msg);
    cr_assert(copy->nparts == 2 && copy->ntmp_parts == 0);
    cr_assert(strcmp(copy->parts[1].name, "pn") == 0 && copy->parts[1].has_null &&
              copy->parts[1].nvalues == 0);
    cat_table_free(copy);
    cat_table_free(back);
    buf_destroy(&out);
    /* NOT NULL column: no NULL value */
    tb_init(&b, "d", "t2");
    tb_col(&b, "k", cat_type_make(CAT_T_INT))->null_given = true; /* NOT NULL */
    tb_keys(&b, CAT_KEYS_DUP, "k", NULL);
    tb_part_by(&b, CAT_PART_LIST, "k");
    tb_in(&b, "p1", NULL, NULL);
    b.parts[0].nvalues = 1;
    tb_hash(&b, "k", 1);
    cat_table *bad = NULL;
    cr_assert_eq(cat_table_validate_create(c, &b.r, &bad, &err), DB_ERR);
    expect_doris(&err, "Can't have null partition is for NOT NULL partition column in partition "
                       "expr's index 0");
    cat_catalog_free(c);
}
