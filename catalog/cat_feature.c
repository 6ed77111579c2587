/* SPDX-License-Identifier: Apache-2.0
 * cat_feature.c: ALTER TABLE ... ENABLE FEATURE "name" [WITH PROPERTIES (...)], Doris's
 * EnableFeatureOp + AlterTableCommand.rewriteAlterOpForOlapTable: the feature becomes an ADD
 * COLUMN of a hidden column (seed 001: allowed on Row Binlog tables, as ADD COLUMN is).
 * Like the rest of cat_schema, no locking, no edit log: cat_meta.c makes it durable.
 * See README.md §"Schema objects". */
#include "catalog/cat_schema_int.h"

#include <string.h>
#include <strings.h>

int
cat_table_enable_feature(cat_table *t, const char *feature, const cat_prop *props, size_t nprops,
                         db_error *err)
{
    /* EnableFeatureOp.validate: the name (case-insensitive), then SEQUENCE_LOAD's properties. */
    bool seq = strcasecmp(feature, "SEQUENCE_LOAD") == 0;
    bool del = strcasecmp(feature, "BATCH_DELETE") == 0;
    bool flex = strcasecmp(feature, "UPDATE_FLEXIBLE_COLUMNS") == 0;
    if (!seq && !del && !flex) {
        return cat__doris(err, "unknown feature name: %s", feature);
    }
    if (seq && nprops == 0) {
        return cat__doris(err, "Properties is not set");
    }
    /* rewriteAlterOpForOlapTable: the model, then the sequence type. */
    if (del && t->keys != CAT_KEYS_UNIQUE) {
        return cat__doris(err, "Batch delete only supported in unique tables.");
    }
    if (seq && t->keys != CAT_KEYS_UNIQUE) {
        return cat__doris(err, "Sequence load only supported in unique tables.");
    }
    if (flex) {
        if (t->keys != CAT_KEYS_UNIQUE || !t->mow) {
            return cat__doris(err, "Update flexible columns feature is only supported on "
                                   "merge-on-write unique tables.");
        }
        return db_error_set(err, ER_NOT_SUPPORTED_YET,
                            "ENABLE FEATURE \"UPDATE_FLEXIBLE_COLUMNS\" (flexible partial update)");
    }
    cat_type ty = cat_type_make(CAT_T_TINYINT);
    char name[32] = "";
    if (seq) {
        const char *text = NULL;
        for (size_t i = 0; i < nprops; i++) {
            if (strcmp(props[i].key, "function_column.sequence_type") == 0) {
                text = props[i].value;
            }
        }
        if (text == NULL) {
            return cat__doris(err, "unknown sequence column type");
        }
        if (cat__sequence_type(text, &ty, name, sizeof name, err) != DB_OK) {
            return DB_ERR;
        }
    }
    /* The ADD COLUMN it becomes: light schema change on a Row Binlog table, then the name. */
    if (cat_alter_check(t, CAT_ALTER_ADD_COLUMN, err) != DB_OK) {
        return DB_ERR;
    }
    if (seq && cat_table_column(t, CAT_COL_SEQUENCE) != NULL) {
        return cat__doris(err, "Can not enable sequence column support, already supported sequence "
                               "column.");
    }
    if (del && cat_table_column(t, CAT_COL_DELETE_SIGN) != NULL) {
        return cat__doris(err,
                          "Can not enable batch delete support, already supported batch delete.");
    }
    if (seq) {
        /* Nullable, no default: rows written before read back NULL (the lowest sequence). */
        cat__add_hidden(t, CAT_COL_SEQUENCE, ty, true, NULL);
        cat_props_set(&t->props, "function_column.sequence_type", name);
    } else {
        cat__add_hidden(t, CAT_COL_DELETE_SIGN, ty, false, "0");
    }
    return DB_OK;
}
