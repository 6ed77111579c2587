/* SPDX-License-Identifier: Apache-2.0
 * cat_index: secondary index definitions of a table (Doris INVERTED / BITMAP / NGRAM_BF):
 * Doris's checks and texts (IndexDefinition, InvertedIndexUtil, SchemaChangeHandler's
 * processAddIndex / processDropIndex, BuildIndexOp, CreateTableInfo), the SHOW CREATE TABLE
 * clause (Index.toSql) and SHOW INDEX's Properties text. Only the definition is kept: nothing
 * is built and scans do not use it (README.md §"Secondary indexes"). */
#include "catalog/cat_schema_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"

#define INDEX_NAME_MAX 64 /* IndexDefinition.validate */

static const char *const type_names[CAT_INDEX__COUNT] = {"INVERTED", "BITMAP", "NGRAM_BF"};

static bool is_string_id(uint8_t id);
static uint8_t array_elem_id(const cat_type *t, bool *nested);
static bool supported_type(const cat_type *t);
static const char *primitive_name(const cat_type *t);
static int check_inverted_props(const cat_props *p, db_error *err);
static int check_column(const cat_table *t, const cat_index *ix, const cat_column *c,
                        db_error *err);
static int check_ngram(const cat_index *ix, const cat_column *c, db_error *err);
static int validate_def(const cat_index_def *def, db_error *err);
static int build_index(const cat_table *t, const cat_index_def *def, bool create, cat_index *out,
                       db_error *err);
static void sorted_props(cat_props *dst, const cat_index_def *def);
static bool same_columns(const cat_index *a, const cat_index *b);
static void append_list(cat_table *t, cat_index *ix);

const char *
cat_index_type_name(uint8_t type)
{
    return type < CAT_INDEX__COUNT ? type_names[type] : "INVERTED";
}

bool
cat_index_type_parse(const char *word, uint8_t *type)
{
    for (uint8_t i = 0; i < CAT_INDEX__COUNT; i++) {
        if (cat__ieq(word, type_names[i])) {
            *type = i;
            return true;
        }
    }
    return false;
}

cat_index *
cat_table_index(const cat_table *t, const char *name)
{
    for (size_t i = 0; i < t->nindexes; i++) {
        if (cat__ieq(t->indexes[i].name, name)) {
            return &t->indexes[i];
        }
    }
    return NULL;
}

void
cat__index_destroy(cat_index *ix)
{
    mem_free(ix->name);
    mem_free(ix->col_uids);
    mem_free(ix->comment);
    cat_props_destroy(&ix->props);
    memset(ix, 0, sizeof *ix);
}

void
cat__index_copy(cat_index *dst, const cat_index *src)
{
    dst->name = mem_strdup(src->name);
    dst->type = src->type;
    dst->ncols = src->ncols;
    dst->col_uids = mem_calloc(src->ncols ? src->ncols : 1, sizeof *dst->col_uids);
    if (src->ncols) {
        memcpy(dst->col_uids, src->col_uids, src->ncols * sizeof *dst->col_uids);
    }
    cat_props_init(&dst->props);
    cat_props_copy(&dst->props, &src->props);
    dst->comment = src->comment ? mem_strdup(src->comment) : NULL;
}

void
cat__indexes_drop_column(cat_table *t, int32_t uid)
{
    size_t keep = 0;
    for (size_t i = 0; i < t->nindexes; i++) {
        bool hit = false;
        for (size_t j = 0; j < t->indexes[i].ncols; j++) {
            hit |= t->indexes[i].col_uids[j] == uid;
        }
        if (hit) {
            cat__index_destroy(&t->indexes[i]);
        } else {
            t->indexes[keep++] = t->indexes[i];
        }
    }
    t->nindexes = keep;
}

/* ---- column rules (IndexDefinition.checkColumn) ---- */

static bool
is_string_id(uint8_t id)
{
    return id == CAT_T_CHAR || id == CAT_T_VARCHAR || id == CAT_T_STRING;
}

/* The element type of an ARRAY column, from its inner text ("int", "varchar(10)", ...); nested
 * says the element is itself an ARRAY. CAT_T_INVALID for an element type not listed. */
static uint8_t
array_elem_id(const cat_type *t, bool *nested)
{
    static const struct {
        const char *prefix;
        uint8_t id;
    } words[] = {{"array", CAT_T_ARRAY},       {"map", CAT_T_MAP},
                 {"json", CAT_T_JSON},         {"variant", CAT_T_VARIANT},
                 {"boolean", CAT_T_BOOLEAN},   {"tinyint", CAT_T_TINYINT},
                 {"smallint", CAT_T_SMALLINT}, {"largeint", CAT_T_LARGEINT},
                 {"bigint", CAT_T_BIGINT},     {"int", CAT_T_INT},
                 {"float", CAT_T_FLOAT},       {"double", CAT_T_DOUBLE},
                 {"decimal", CAT_T_DECIMAL},   {"char", CAT_T_CHAR},
                 {"varchar", CAT_T_VARCHAR},   {"text", CAT_T_STRING},
                 {"string", CAT_T_STRING},     {"datetime", CAT_T_DATETIME},
                 {"date", CAT_T_DATE}};
    *nested = false;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (strncmp(t->inner, words[i].prefix, strlen(words[i].prefix)) == 0) {
            *nested = words[i].id == CAT_T_ARRAY;
            return words[i].id;
        }
    }
    return CAT_T_INVALID;
}

/* IndexDefinition.isSupportIdxType (Doris 2.1 / 3.0): dates, decimals, integers, strings,
 * BOOLEAN, VARIANT and ARRAYs of those (not nested); not FLOAT, DOUBLE, JSON or MAP. */
static bool
supported_type(const cat_type *t)
{
    uint8_t id = t->id;
    if (id == CAT_T_ARRAY) {
        bool nested;
        id = array_elem_id(t, &nested);
        if (nested) {
            return false;
        }
    }
    switch (id) {
    case CAT_T_BOOLEAN:
    case CAT_T_TINYINT:
    case CAT_T_SMALLINT:
    case CAT_T_INT:
    case CAT_T_BIGINT:
    case CAT_T_LARGEINT:
    case CAT_T_DECIMAL:
    case CAT_T_CHAR:
    case CAT_T_VARCHAR:
    case CAT_T_STRING:
    case CAT_T_DATE:
    case CAT_T_DATETIME:
    case CAT_T_VARIANT:
        return true;
    default:
        return false;
    }
}

/* Doris's PrimitiveType name (InvertedIndexUtil messages say `of type INT`). */
static const char *
primitive_name(const cat_type *t)
{
    switch (t->id) {
    case CAT_T_BOOLEAN:
        return "BOOLEAN";
    case CAT_T_TINYINT:
        return "TINYINT";
    case CAT_T_SMALLINT:
        return "SMALLINT";
    case CAT_T_INT:
        return "INT";
    case CAT_T_BIGINT:
        return "BIGINT";
    case CAT_T_LARGEINT:
        return "LARGEINT";
    case CAT_T_FLOAT:
        return "FLOAT";
    case CAT_T_DOUBLE:
        return "DOUBLE";
    case CAT_T_DECIMAL:
        return t->precision <= 9 ? "DECIMAL32" : t->precision <= 18 ? "DECIMAL64" : "DECIMAL128";
    case CAT_T_CHAR:
        return "CHAR";
    case CAT_T_VARCHAR:
        return "VARCHAR";
    case CAT_T_STRING:
        return "STRING";
    case CAT_T_DATE:
        return "DATEV2";
    case CAT_T_DATETIME:
        return "DATETIMEV2";
    case CAT_T_JSON:
        return "JSONB";
    case CAT_T_ARRAY:
        return "ARRAY";
    case CAT_T_MAP:
        return "MAP";
    default:
        return "VARIANT";
    }
}

static bool
one_of(const char *v, const char *const *set)
{
    for (; *set; set++) {
        if (strcmp(v, *set) == 0) {
            return true;
        }
    }
    return false;
}

/* InvertedIndexUtil.checkInvertedIndexProperties: known keys and their values. */
static int
check_inverted_props(const cat_props *p, db_error *err)
{
    static const char *const keys[] = {"parser",
                                       "parser_mode",
                                       "support_phrase",
                                       "char_filter_type",
                                       "char_filter_pattern",
                                       "char_filter_replacement",
                                       "ignore_above",
                                       "lower_case",
                                       "stopwords",
                                       NULL};
    static const char *const parsers[] = {"none",    "english",  "unicode",
                                          "chinese", "standard", NULL};
    static const char *const modes[] = {"fine_grained", "coarse_grained", NULL};
    static const char *const bools[] = {"true", "false", NULL};
    for (size_t i = 0; i < p->n; i++) {
        if (!one_of(p->v[i].key, keys)) {
            return cat__doris(err, "Invalid inverted index property key: %s", p->v[i].key);
        }
    }
    const char *parser = cat_props_get(p, "parser");
    const char *mode = cat_props_get(p, "parser_mode");
    const char *phrase = cat_props_get(p, "support_phrase");
    const char *cf_type = cat_props_get(p, "char_filter_type");
    const char *cf_pattern = cat_props_get(p, "char_filter_pattern");
    const char *ignore_above = cat_props_get(p, "ignore_above");
    const char *lower = cat_props_get(p, "lower_case");
    const char *stop = cat_props_get(p, "stopwords");
    if (parser != NULL && !one_of(parser, parsers)) {
        return cat__doris(err,
                          "Invalid inverted index 'parser' value: %s, parser must be none, "
                          "english, unicode or chinese",
                          parser);
    }
    bool chinese = parser != NULL && strcmp(parser, "chinese") == 0;
    if (!chinese && mode != NULL) {
        return cat__doris(err, "parser_mode is only available for chinese parser");
    }
    if (chinese && mode != NULL && !one_of(mode, modes)) {
        return cat__doris(err,
                          "Invalid inverted index 'parser_mode' value: %s, parser_mode must be "
                          "fine_grained or coarse_grained",
                          mode);
    }
    if (phrase != NULL && !one_of(phrase, bools)) {
        return cat__doris(err,
                          "Invalid inverted index 'support_phrase' value: %s, support_phrase "
                          "must be true or false",
                          phrase);
    }
    if (cf_type != NULL && strcmp(cf_type, "char_replace") == 0 &&
        (cf_pattern == NULL || cf_pattern[0] == 0)) {
        return cat__doris(err, "Missing 'char_filter_pattern' for 'char_replace' filter type");
    }
    if (ignore_above != NULL) {
        int64_t v;
        if (!cat__parse_i64(ignore_above, &v) || v > INT32_MAX || v < INT32_MIN) {
            return cat__doris(err, "Invalid inverted index 'ignore_above' value, ignore_above "
                                   "must be integer");
        }
        if (v <= 0) {
            return cat__doris(err,
                              "Invalid inverted index 'ignore_above' value: %lld, ignore_above "
                              "must be positive",
                              (long long)v);
        }
    }
    if (lower != NULL && !one_of(lower, bools)) {
        return cat__doris(err,
                          "Invalid inverted index 'lower_case' value: %s, lower_case must be "
                          "true or false",
                          lower);
    }
    if (stop != NULL && strcmp(stop, "none") != 0) {
        return cat__doris(
                err, "Invalid inverted index 'stopWords' value: %s, stopWords must be none", stop);
    }
    return DB_OK;
}

/* A gram_size / bf_size value as Java's Integer.parseInt reads it. */
static bool
parse_int(const char *s, int64_t *v)
{
    return cat__parse_i64(s, v) && *v <= INT32_MAX && *v >= INT32_MIN;
}

static int
check_ngram(const cat_index *ix, const cat_column *c, db_error *err)
{
    if (!is_string_id(c->type.id)) {
        char ty[96];
        cat__type_upper(&c->type, ty, sizeof ty);
        return cat__doris(err, "%s is not supported in ngram_bf index. invalid column: %s", ty,
                          c->name);
    }
    if (ix->props.n != 2) {
        return cat__doris(err, "ngram_bf index should have gram_size and bf_size properties");
    }
    const char *gram = cat_props_get(&ix->props, "gram_size");
    const char *bf = cat_props_get(&ix->props, "bf_size");
    int64_t g, b;
    if (gram == NULL || bf == NULL) {
        return cat__doris(err, "ngram_bf index should have gram_size and bf_size properties");
    }
    if (!parse_int(gram, &g)) {
        return cat__doris(err, "invalid ngram properties:For input string: \"%s\"", gram);
    }
    if (!parse_int(bf, &b)) {
        return cat__doris(err, "invalid ngram properties:For input string: \"%s\"", bf);
    }
    if (g > 256 || g < 1) {
        return cat__doris(err, "gram_size should be integer and less than 256");
    }
    if (b > 65536 || b < 64) {
        return cat__doris(err, "bf_size should be integer and between 64 and 65536");
    }
    return DB_OK;
}

/* IndexDefinition.checkColumn for column c of index ix on table t. */
static int
check_column(const cat_table *t, const cat_index *ix, const cat_column *c, db_error *err)
{
    const char *type = cat_index_type_name(ix->type);
    if (!supported_type(&c->type)) {
        char ty[96];
        cat__type_upper(&c->type, ty, sizeof ty);
        return cat__doris(err, "%s is not supported in %s index. invalid index: %s", ty, type,
                          ix->name);
    }
    const char *parser = cat_props_get(&ix->props, "parser");
    if (!c->is_key) {
        if (t->keys == CAT_KEYS_AGG) {
            return cat__doris(err,
                              "index should only be used in columns of DUP_KEYS/UNIQUE_KEYS "
                              "table or key columns of AGG_KEYS table. invalid index: %s",
                              ix->name);
        }
        if (t->keys == CAT_KEYS_UNIQUE && !t->mow && ix->type == CAT_INDEX_INVERTED &&
            parser != NULL) {
            return cat__doris(err,
                              "INVERTED index with parser can NOT be used in value columns of "
                              "UNIQUE_KEYS table with merge_on_write disable. invalid index: %s",
                              ix->name);
        }
    }
    if (ix->type == CAT_INDEX_NGRAM_BF) {
        return check_ngram(ix, c, err);
    }
    if (ix->type != CAT_INDEX_INVERTED) {
        return DB_OK;
    }
    /* InvertedIndexUtil.checkInvertedIndexParser; an ARRAY of strings takes a parser too. */
    if (check_inverted_props(&ix->props, err) != DB_OK) {
        return DB_ERR;
    }
    bool nested;
    bool text = is_string_id(c->type.id) ||
                (c->type.id == CAT_T_ARRAY && is_string_id(array_elem_id(&c->type, &nested)));
    const char *p = parser ? parser : "none";
    if (!text && strcmp(p, "none") != 0) {
        return cat__doris(err,
                          "INVERTED index with parser: %s is not supported for column: %s of "
                          "type %s",
                          p, c->name, primitive_name(&c->type));
    }
    return DB_OK;
}

/* IndexDefinition.validate: BITMAP and INVERTED indexes cover one column; a name of at most
 * 64 characters (no column twice: build_index). */
static int
validate_def(const cat_index_def *def, db_error *err)
{
    if (def->type == CAT_INDEX_BITMAP || def->type == CAT_INDEX_INVERTED) {
        if (def->ncols != 1) {
            return cat__doris(err, "%s index can only apply to a single column.",
                              cat_index_type_name(def->type));
        }
    }
    /* Rivulet names every index (DROP INDEX needs the name); Doris checks BITMAP / INVERTED. */
    if (def->name == NULL || def->name[0] == 0) {
        return cat__doris(err, "index name cannot be blank.");
    }
    if (strlen(def->name) > INDEX_NAME_MAX) {
        return cat__doris(err, "index name too long, the index name length at most is 64.");
    }
    return DB_OK;
}

static int
cmp_prop(const void *a, const void *b)
{
    return strcmp(((const cat_prop *)a)->key, ((const cat_prop *)b)->key);
}

/* The index's properties: the written ones (a key written twice keeps the last value), the
 * NGRAM_BF defaults gram_size 2 / bf_size 256, and lower_case = true for an INVERTED index
 * with properties (Index's constructor); sorted by key. */
static void
sorted_props(cat_props *dst, const cat_index_def *def)
{
    cat_props_init(dst);
    for (size_t i = 0; i < def->nprops; i++) {
        cat_props_set(dst, def->props[i].key, def->props[i].value);
    }
    if (def->type == CAT_INDEX_NGRAM_BF) {
        if (cat_props_get(dst, "gram_size") == NULL) {
            cat_props_set(dst, "gram_size", "2");
        }
        if (cat_props_get(dst, "bf_size") == NULL) {
            cat_props_set(dst, "bf_size", "256");
        }
    }
    if (def->type == CAT_INDEX_INVERTED && dst->n > 0 && cat_props_get(dst, "lower_case") == NULL) {
        cat_props_set(dst, "lower_case", "true");
    }
    if (dst->n > 1) {
        qsort(dst->v, dst->n, sizeof *dst->v, cmp_prop);
    }
}

/* The index of def on t, its columns checked (create: CREATE TABLE's text for a missing one). */
static int
build_index(const cat_table *t, const cat_index_def *def, bool create, cat_index *out,
            db_error *err)
{
    memset(out, 0, sizeof *out);
    out->name = mem_strdup(def->name ? def->name : "");
    out->type = def->type;
    out->comment = def->comment ? mem_strdup(def->comment) : NULL;
    sorted_props(&out->props, def);
    out->col_uids = mem_calloc(def->ncols ? def->ncols : 1, sizeof *out->col_uids);
    for (size_t i = 0; i < def->ncols; i++) {
        const cat_column *c = cat_table_column(t, def->cols[i]);
        if (c == NULL || (c->flags & CAT_COL_HIDDEN)) {
            cat__index_destroy(out);
            if (create) {
                return cat__doris(err, "Column does not exist in table. invalid column: %s",
                                  def->cols[i]);
            }
            return cat__doris(err, "index column does not exist in table. invalid column: %s",
                              def->cols[i]);
        }
        for (size_t j = 0; j < out->ncols; j++) {
            if (out->col_uids[j] == c->uid) {
                cat__index_destroy(out);
                return cat__doris(err, "columns of index has duplicated.");
            }
        }
        if (check_column(t, out, c, err) != DB_OK) {
            cat__index_destroy(out);
            return DB_ERR;
        }
        out->col_uids[out->ncols++] = c->uid;
    }
    return DB_OK;
}

static bool
same_columns(const cat_index *a, const cat_index *b)
{
    if (a->ncols != b->ncols) {
        return false;
    }
    for (size_t i = 0; i < a->ncols; i++) {
        bool found = false;
        for (size_t j = 0; j < b->ncols; j++) {
            found |= a->col_uids[i] == b->col_uids[j];
        }
        if (!found) {
            return false;
        }
    }
    return true;
}

static void
append_list(cat_table *t, cat_index *ix)
{
    cat_index *v = mem_calloc(t->nindexes + 1, sizeof *v);
    if (t->nindexes) {
        memcpy(v, t->indexes, t->nindexes * sizeof *v);
    }
    v[t->nindexes] = *ix;
    mem_free(t->indexes);
    t->indexes = v;
    t->nindexes++;
}

int
cat_table_add_index(cat_table *t, const cat_index_def *def, bool *added, db_error *err)
{
    if (added) {
        *added = false;
    }
    if (validate_def(def, err) != DB_OK) {
        return DB_ERR;
    }
    if (cat_table_index(t, def->name ? def->name : "") != NULL) {
        if (def->if_not_exists) {
            return DB_OK;
        }
        return cat__doris(err, "index `%s` already exist.", def->name);
    }
    cat_index ix;
    if (build_index(t, def, false, &ix, err) != DB_OK) {
        return DB_ERR;
    }
    for (size_t i = 0; i < t->nindexes; i++) {
        if (t->indexes[i].type == ix.type && same_columns(&t->indexes[i], &ix)) {
            buf cols;
            buf_init(&cols);
            for (size_t j = 0; j < def->ncols; j++) {
                buf_printf(&cols, "%s%s", j ? "," : "", def->cols[j]);
            }
            buf_put_u8(&cols, 0);
            cat__doris(err, "%s index for columns (%s ) already exist.",
                       cat_index_type_name(ix.type), (const char *)cols.data);
            buf_destroy(&cols);
            cat__index_destroy(&ix);
            return DB_ERR;
        }
    }
    append_list(t, &ix);
    if (added) {
        *added = true;
    }
    return DB_OK;
}

int
cat_table_create_indexes(cat_table *t, const cat_index_def *defs, size_t n, db_error *err)
{
    for (size_t i = 0; i < n; i++) {
        cat_index ix;
        if (validate_def(&defs[i], err) != DB_OK ||
            build_index(t, &defs[i], true, &ix, err) != DB_OK) {
            return DB_ERR;
        }
        append_list(t, &ix);
    }
    /* CreateTableInfo: the names, then (type, columns) pairs, must be distinct. */
    for (size_t i = 0; i < t->nindexes; i++) {
        for (size_t j = 0; j < i; j++) {
            if (cat__ieq(t->indexes[i].name, t->indexes[j].name)) {
                return cat__doris(err, "index name must be unique.");
            }
        }
    }
    for (size_t i = 0; i < t->nindexes; i++) {
        for (size_t j = 0; j < i; j++) {
            const cat_index *a = &t->indexes[i], *b = &t->indexes[j];
            bool same = a->type == b->type && a->ncols == b->ncols;
            for (size_t k = 0; same && k < a->ncols; k++) {
                same = a->col_uids[k] == b->col_uids[k]; /* a list: the order counts */
            }
            if (same) {
                return cat__doris(err, "same index columns have multiple same type index is not "
                                       "allowed.");
            }
        }
    }
    return DB_OK;
}

int
cat_table_drop_index(cat_table *t, const char *name, bool if_exists, db_error *err)
{
    cat_index *ix = cat_table_index(t, name);
    if (ix == NULL) {
        if (if_exists) {
            return DB_OK;
        }
        return cat__doris(err, "index %s does not exist", name);
    }
    size_t pos = (size_t)(ix - t->indexes);
    cat__index_destroy(ix);
    memmove(&t->indexes[pos], &t->indexes[pos + 1], (t->nindexes - pos - 1) * sizeof *ix);
    t->nindexes--;
    return DB_OK;
}

int
cat_table_build_index_check(const cat_table *t, const char *name, const char *const *parts,
                            size_t nparts, db_error *err)
{
    if (cat_alter_check(t, CAT_ALTER_BUILD_INDEX, err) != DB_OK) {
        return DB_ERR; /* E41 first, as ALTER TABLE ... BUILD INDEX */
    }
    const cat_index *ix = cat_table_index(t, name);
    if (ix != NULL && ix->type != CAT_INDEX_INVERTED) {
        return cat__doris(err,
                          "BUILD INDEX operation failed: The index %s of type %s does not "
                          "support lightweight index changes.",
                          ix->name, cat_index_type_name(ix->type));
    }
    if (ix == NULL) {
        return cat__doris(err, "Index[%s] is not exist in table[%s]", name, t->name);
    }
    if (nparts > 0 && t->part_type == CAT_PART_NONE) {
        return cat__doris(err, "table %s is not partitioned, cannot build index with partitions.",
                          t->name);
    }
    for (size_t i = 0; i < nparts; i++) {
        if (cat_table_partition(t, parts[i]) == NULL) {
            return cat__doris(err, "Partition[%s] does not exist", parts[i]);
        }
    }
    return DB_OK;
}

/* Appends s with ' and \ escaped by a backslash (SqlUtils.escapeQuota). */
static void
append_quoted(buf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\'' || *s == '\\') {
            buf_put_u8(out, '\\');
        }
        buf_put_u8(out, (uint8_t)*s);
    }
}

void
cat_index_props_text(const cat_index *ix, buf *out)
{
    if (ix->props.n == 0) {
        return;
    }
    buf_put_u8(out, '(');
    for (size_t i = 0; i < ix->props.n; i++) {
        buf_printf(out, "%s\"%s\" = \"%s\"", i ? ", " : "", ix->props.v[i].key,
                   ix->props.v[i].value);
    }
    buf_put_u8(out, ')');
}

void
cat_index_sql(const cat_table *t, const cat_index *ix, buf *out)
{
    buf_printf(out, "INDEX %s (", ix->name);
    for (size_t i = 0; i < ix->ncols; i++) {
        const cat_column *c = cat_table_column_uid(t, ix->col_uids[i]);
        buf_printf(out, "%s`%s`", i ? "," : "", c ? c->name : "?");
    }
    buf_printf(out, ") USING %s", cat_index_type_name(ix->type));
    if (ix->props.n > 0) {
        buf_append_str(out, " PROPERTIES");
        cat_index_props_text(ix, out);
    }
    bool blank = true;
    for (const char *p = ix->comment ? ix->comment : ""; *p; p++) {
        blank &= *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';
    }
    if (!blank) {
        buf_append_str(out, " COMMENT '");
        append_quoted(out, ix->comment);
        buf_put_u8(out, '\'');
    }
}
