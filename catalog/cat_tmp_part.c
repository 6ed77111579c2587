/* SPDX-License-Identifier: Apache-2.0
 * cat_tmp_part.c: temporary partitions (Doris "Temporary Partition"): ADD / DROP TEMPORARY
 * PARTITION and REPLACE PARTITION (...) WITH TEMPORARY PARTITION (...). They live in
 * cat_table.tmp_parts beside the formal partitions, are encoded with them (flag WP_TEMP) and
 * change only through ordinary table records, so a REPLACE is one edit-log record: all or
 * nothing across a crash. Texts from Doris's OlapTable.replaceTempPartitions, RangeUtils and
 * Env.replaceTempPartition. See README.md §"Temporary partitions". */
#include "catalog/cat_schema_int.h"

#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "common/mem.h"

cat_partition *
cat_table_tmp_partition(const cat_table *t, const char *name)
{
    for (size_t i = 0; i < t->ntmp_parts; i++) {
        if (cat__ieq(t->tmp_parts[i].name, name)) {
            return &t->tmp_parts[i];
        }
    }
    return NULL;
}

int
cat_table_add_tmp_partition(cat_catalog *c, cat_table *t, const cat_partition_def *def,
                            db_error *err)
{
    if (t->part_type == CAT_PART_NONE) {
        return cat__doris(err, "Only support adding partition to range and list partitioned "
                               "table");
    }
    if (cat_table_partition(t, def->name) != NULL || cat_table_tmp_partition(t, def->name)) {
        return cat__doris(err, "Duplicate partition name %s", def->name);
    }
    /* Temporary partitions may overlap formal ones, not each other. */
    cat_partition p;
    if (cat__partition_from_def(t, t->tmp_parts, t->ntmp_parts, def, &p, err) != DB_OK) {
        cat__partition_destroy(&p);
        return DB_ERR;
    }
    p.id = cat_catalog_next_id(c);
    cat_catalog_bump_id(c, p.id + 1);
    t->tmp_parts = mem_realloc(t->tmp_parts, (t->ntmp_parts + 1) * sizeof *t->tmp_parts);
    t->tmp_parts[t->ntmp_parts++] = p;
    return DB_OK;
}

int
cat_table_drop_tmp_partition(cat_table *t, const char *name, bool if_exists, db_error *err)
{
    cat_partition *p = cat_table_tmp_partition(t, name);
    if (p == NULL) {
        if (if_exists) {
            return DB_OK;
        }
        return cat__doris(err, "Error in list of partitions to %s", name);
    }
    size_t pos = (size_t)(p - t->tmp_parts);
    cat__partition_destroy(p);
    memmove(&t->tmp_parts[pos], &t->tmp_parts[pos + 1],
            (t->ntmp_parts - pos - 1) * sizeof *t->tmp_parts);
    t->ntmp_parts--;
    return DB_OK;
}

/* ---- range comparison (lower_min = -inf, upper_max = +inf) ---- */

typedef struct rng {
    const char *lo, *hi;
    bool lo_min, hi_max;
} rng;

static rng
rng_of(const cat_partition *p)
{
    rng r = {p->lower, p->upper, p->lower_min || p->lower == NULL,
             p->upper_max || p->upper == NULL};
    return r;
}

static int
lo_cmp(const cat_type *ty, const rng *a, const rng *b)
{
    if (a->lo_min || b->lo_min) {
        return a->lo_min == b->lo_min ? 0 : a->lo_min ? -1 : 1;
    }
    return cat__part_value_cmp(ty, a->lo, b->lo);
}

static int
hi_cmp(const cat_type *ty, const rng *a, const rng *b)
{
    if (a->hi_max || b->hi_max) {
        return a->hi_max == b->hi_max ? 0 : a->hi_max ? 1 : -1;
    }
    return cat__part_value_cmp(ty, a->hi, b->hi);
}

static void
rng_sort(const cat_type *ty, rng *v, size_t n)
{
    for (size_t i = 1; i < n; i++) { /* insertion sort: a statement names few partitions */
        rng x = v[i];
        size_t j = i;
        while (j > 0 && lo_cmp(ty, &v[j - 1], &x) > 0) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

/* Doris PartitionKey.toString of a bound. */
static void
key_text(const cat_table *t, const char *v, bool inf, bool lower, buf *out)
{
    const cat_column *c = cat_table_column_uid(t, t->part_col_uid);
    char up[64];
    cat__type_upper(&c->type, up, sizeof up);
    buf_printf(out, "types: [%s]; keys: [%s]; ", up,
               inf ? (lower ? cat__type_min_text(&c->type) : "MAXVALUE") : v);
}

static void
rng_text(const cat_table *t, const rng *r, buf *out)
{
    buf_append_str(out, "[");
    key_text(t, r->lo, r->lo_min, true, out);
    buf_append_str(out, "..");
    key_text(t, r->hi, r->hi_max, false, out);
    buf_append_str(out, ")");
}

static void
list_text(const cat_table *t, const rng *v, size_t n, buf *out)
{
    buf_append_str(out, "[");
    for (size_t i = 0; i < n; i++) {
        buf_append_str(out, i ? ", " : "");
        rng_text(t, &v[i], out);
    }
    buf_append_str(out, "]");
}

static int
mismatch(db_error *err, buf *b)
{
    buf_put_u8(b, 0);
    cat__doris(err, "%s", (const char *)b->data);
    buf_destroy(b);
    return DB_ERR;
}

/* RangeUtils.checkPartitionItemListsMatch: the two unions are the same set of values. */
static int
ranges_match(const cat_table *t, rng *a, size_t na, rng *b, size_t nb, db_error *err)
{
    const cat_type *ty = &cat_table_column_uid(t, t->part_col_uid)->type;
    rng_sort(ty, a, na);
    rng_sort(ty, b, nb);
    size_t i = 0, j = 0;
    rng r1 = a[0], r2 = b[0];
    buf m;
    buf_init(&m);
    for (;;) {
        if (lo_cmp(ty, &r1, &r2) != 0) {
            buf_append_str(&m, "2 range lists are not stricly matched. ");
            key_text(t, r1.lo, r1.lo_min, true, &m);
            buf_append_str(&m, " vs. ");
            key_text(t, r2.lo, r2.lo_min, true, &m);
            return mismatch(err, &m);
        }
        int res = hi_cmp(ty, &r1, &r2);
        if (res == 0) {
            i++;
            j++;
            if (i == na || j == nb) {
                break;
            }
            r1 = a[i];
            r2 = b[j];
        } else if (res > 0) { /* r2 ends first: the rest of r1 goes on */
            if (++j == nb) {
                break;
            }
            r1.lo = r2.hi;
            r1.lo_min = false;
            r2 = b[j];
        } else {
            if (++i == na) {
                break;
            }
            r2.lo = r1.hi;
            r2.lo_min = false;
            r1 = a[i];
        }
    }
    if (i < na || j < nb) {
        buf_append_str(&m, "2 range lists are not stricly matched. ");
        list_text(t, a, na, &m);
        buf_append_str(&m, " vs. ");
        list_text(t, b, nb, &m);
        return mismatch(err, &m);
    }
    buf_destroy(&m);
    return DB_OK;
}

/* RangeUtils.checkRangeConflict: no new range meets a range that stays. */
static int
ranges_conflict(const cat_table *t, const rng *keep, size_t nkeep, const rng *add, size_t nadd,
                db_error *err)
{
    const cat_type *ty = &cat_table_column_uid(t, t->part_col_uid)->type;
    for (size_t i = 0; i < nadd; i++) {
        for (size_t k = 0; k < nkeep; k++) {
            /* [a.lo, a.hi) and [k.lo, k.hi) overlap iff a.lo < k.hi && k.lo < a.hi */
            rng alo = {add[i].lo, NULL, add[i].lo_min, false};
            rng khi = {NULL, keep[k].hi, false, keep[k].hi_max};
            rng klo = {keep[k].lo, NULL, keep[k].lo_min, false};
            rng ahi = {NULL, add[i].hi, false, add[i].hi_max};
            bool a_before = !alo.lo_min && !khi.hi_max &&
                            cat__part_value_cmp(ty, alo.lo, khi.hi) >= 0; /* a.lo >= k.hi */
            bool k_before = !klo.lo_min && !ahi.hi_max &&
                            cat__part_value_cmp(ty, klo.lo, ahi.hi) >= 0; /* k.lo >= a.hi */
            if (!a_before && !k_before) {
                buf m;
                buf_init(&m);
                buf_append_str(&m, "Range: ");
                rng_text(t, &add[i], &m);
                buf_append_str(&m, " conflicts with existing range");
                return mismatch(err, &m);
            }
        }
    }
    return DB_OK;
}

/* LIST: strict = the same set of values (NULL included); otherwise no value of a new
 * partition may be one of a partition that stays. */
static int
lists_check(const cat_table *t, const cat_partition *const *old, size_t nold,
            const cat_partition *const *add, size_t nadd, bool strict, db_error *err)
{
    const cat_type *ty = &cat_table_column_uid(t, t->part_col_uid)->type;
    if (!strict) {
        for (size_t i = 0; i < nadd; i++) {
            for (size_t p = 0; p < t->nparts; p++) {
                const cat_partition *q = &t->parts[p];
                bool replaced = false;
                for (size_t k = 0; k < nold; k++) {
                    replaced |= old[k] == q;
                }
                if (replaced) {
                    continue;
                }
                if (add[i]->has_null && q->has_null) {
                    return cat__doris(err,
                                      "The partition key[(NULL)] in partition item[%s] is "
                                      "conflict with current partitionKeys[%s]",
                                      add[i]->name, q->name);
                }
                for (size_t a = 0; a < add[i]->nvalues; a++) {
                    for (size_t b = 0; b < q->nvalues; b++) {
                        if (cat__part_value_cmp(ty, add[i]->values[a], q->values[b]) == 0) {
                            return cat__doris(err,
                                              "The partition key[(\"%s\")] in partition "
                                              "item[%s] is conflict with current "
                                              "partitionKeys[%s]",
                                              add[i]->values[a], add[i]->name, q->name);
                        }
                    }
                }
            }
        }
        return DB_OK;
    }
    /* Every value on one side is on the other (values within each side are distinct). */
    size_t n_old = 0, n_add = 0;
    bool null_old = false, null_add = false;
    for (size_t k = 0; k < nold; k++) {
        n_old += old[k]->nvalues;
        null_old |= old[k]->has_null;
    }
    for (size_t k = 0; k < nadd; k++) {
        n_add += add[k]->nvalues;
        null_add |= add[k]->has_null;
    }
    bool same = n_old == n_add && null_old == null_add;
    for (size_t k = 0; same && k < nadd; k++) {
        for (size_t a = 0; same && a < add[k]->nvalues; a++) {
            bool found = false;
            for (size_t o = 0; !found && o < nold; o++) {
                for (size_t b = 0; !found && b < old[o]->nvalues; b++) {
                    found = cat__part_value_cmp(ty, add[k]->values[a], old[o]->values[b]) == 0;
                }
            }
            same = found;
        }
    }
    if (!same) {
        return cat__doris(err, "The partition items of temp partitions and partitions to be "
                               "replaced are not strictly matched");
    }
    return DB_OK;
}

/* PropertyAnalyzer.analyzeBooleanProp (Boolean.parseBoolean), then unknown keys. */
static int
replace_props(const cat_prop *props, size_t nprops, bool *strict, bool *use_tmp_name, db_error *err)
{
    *strict = true;
    *use_tmp_name = false;
    buf unknown;
    buf_init(&unknown);
    for (size_t i = 0; i < nprops; i++) {
        if (strcmp(props[i].key, "strict_range") == 0) {
            *strict = cat__ieq(props[i].value, "true");
        } else if (strcmp(props[i].key, "use_temp_partition_name") == 0) {
            *use_tmp_name = cat__ieq(props[i].value, "true");
        } else {
            buf_printf(&unknown, "%s%s", unknown.len ? ", " : "", props[i].key);
        }
    }
    if (unknown.len > 0) {
        buf_put_u8(&unknown, 0);
        cat__doris(err, "Unknown properties: [%s]", (const char *)unknown.data);
        buf_destroy(&unknown);
        return DB_ERR;
    }
    buf_destroy(&unknown);
    return DB_OK;
}

int
cat_table_replace_partitions(cat_table *t, const char *const *names, size_t n,
                             const char *const *tmp, size_t ntmp, const cat_prop *props,
                             size_t nprops, db_error *err)
{
    bool strict, use_tmp_name;
    if (replace_props(props, nprops, &strict, &use_tmp_name, err) != DB_OK) {
        return DB_ERR;
    }
    if (n == 0 || ntmp == 0) {
        return cat__doris(err, "Partition names can not be empty");
    }
    const cat_partition **old = mem_calloc(n, sizeof *old);
    const cat_partition **add = mem_calloc(ntmp, sizeof *add);
    rng *ro = mem_calloc(n, sizeof *ro);
    rng *ra = mem_calloc(ntmp, sizeof *ra);
    rng *keep = mem_calloc(t->nparts ? t->nparts : 1, sizeof *keep);
    int rc = DB_ERR;
    for (size_t i = 0; i < n; i++) {
        old[i] = cat_table_partition(t, names[i]);
        if (old[i] == NULL) {
            cat__doris(err, "Partition[%s] does not exist", names[i]);
            goto out;
        }
        for (size_t k = 0; k < i; k++) {
            if (old[k] == old[i]) {
                cat__doris(err, "Duplicate partition name %s", names[i]);
                goto out;
            }
        }
        ro[i] = rng_of(old[i]);
    }
    for (size_t i = 0; i < ntmp; i++) {
        add[i] = cat_table_tmp_partition(t, tmp[i]);
        if (add[i] == NULL) {
            cat__doris(err, "Temp partition[%s] does not exist", tmp[i]);
            goto out;
        }
        for (size_t k = 0; k < i; k++) {
            if (add[k] == add[i]) {
                cat__doris(err, "Duplicate partition name %s", tmp[i]);
                goto out;
            }
        }
        ra[i] = rng_of(add[i]);
    }
    if (t->part_type == CAT_PART_RANGE) {
        if (strict) {
            if (ranges_match(t, ro, n, ra, ntmp, err) != DB_OK) {
                goto out;
            }
        } else {
            size_t nkeep = 0;
            for (size_t p = 0; p < t->nparts; p++) {
                bool replaced = false;
                for (size_t k = 0; k < n; k++) {
                    replaced |= old[k] == &t->parts[p];
                }
                if (!replaced) {
                    keep[nkeep++] = rng_of(&t->parts[p]);
                }
            }
            if (ranges_conflict(t, keep, nkeep, ra, ntmp, err) != DB_OK) {
                goto out;
            }
        }
    } else if (t->part_type == CAT_PART_LIST &&
               lists_check(t, old, n, add, ntmp, strict, err) != DB_OK) {
        goto out;
    }
    /* Apply: the temporary partitions take the place of the first replaced one, with their
     * ids; the replaced ones are gone (their tablets go with the next tablet GC). */
    size_t nformal = t->nparts - n + ntmp;
    cat_partition *parts = mem_calloc(nformal, sizeof *parts);
    size_t np = 0;
    bool placed = false;
    for (size_t p = 0; p < t->nparts; p++) {
        bool replaced = false;
        for (size_t k = 0; k < n; k++) {
            replaced |= old[k] == &t->parts[p];
        }
        if (!replaced) {
            parts[np++] = t->parts[p];
            continue;
        }
        if (!placed) {
            for (size_t k = 0; k < ntmp; k++) {
                parts[np] = *add[k];
                if (!use_tmp_name && n == ntmp) {
                    mem_free(parts[np].name);
                    parts[np].name = mem_strdup(old[k]->name);
                }
                np++;
            }
            placed = true;
        }
        cat__partition_destroy(&t->parts[p]);
    }
    size_t nt = 0;
    for (size_t p = 0; p < t->ntmp_parts; p++) {
        bool moved = false;
        for (size_t k = 0; k < ntmp; k++) {
            moved |= add[k] == &t->tmp_parts[p];
        }
        if (!moved) {
            t->tmp_parts[nt++] = t->tmp_parts[p];
        }
    }
    t->ntmp_parts = nt;
    mem_free(t->parts);
    t->parts = parts;
    t->nparts = np;
    rc = DB_OK;
out:
    mem_free(old);
    mem_free(add);
    mem_free(ro);
    mem_free(ra);
    mem_free(keep);
    return rc;
}
