-- ALTER TABLE ... ENABLE FEATURE "SEQUENCE_LOAD" WITH PROPERTIES ("function_column.sequence_type"
-- = "t") (Doris EnableFeatureOp; seed 001: allowed on Row Binlog tables, an ADD COLUMN of the
-- hidden __DORIS_SEQUENCE_COL__): rows written before read back NULL, later writes set it
-- through __DORIS_SEQUENCE_COL__ and the sequence rule applies from then on; binlog() and a
-- stream record what the table shows; SHOW CREATE TABLE shows the property; Doris's errors.

-- a Row Binlog MoW table with rows and a stream, then the feature
CREATE TABLE u (k INT, v VARCHAR(10)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
CREATE STREAM us ON TABLE u;
INSERT INTO u VALUES (1, 'a'), (2, 'b'), (3, 'c');
ALTER TABLE u ENABLE FEATURE "SEQUENCE_LOAD" WITH PROPERTIES ("function_column.sequence_type" = "int");
SET show_hidden_columns = true;
DESC u;
-- rows written before: NULL, the lowest sequence value
SELECT k, v, __DORIS_SEQUENCE_COL__ FROM u ORDER BY k;
SET show_hidden_columns = false;
DESC u;
-- writes must now give the sequence column (require_sequence_in_insert, on by default)
INSERT INTO u VALUES (1, 'x');
INSERT INTO u (k, v) VALUES (1, 'x');
INSERT INTO u (k, v, __DORIS_SEQUENCE_COL__) VALUES (1, 'a10', 10), (2, 'b10', 10);
-- the rule applies: lower loses, equal and higher win
INSERT INTO u (k, v, __DORIS_SEQUENCE_COL__) VALUES (1, 'a5', 5);
INSERT INTO u (k, v, __DORIS_SEQUENCE_COL__) VALUES (2, 'b10bis', 10);
INSERT INTO u (k, v, __DORIS_SEQUENCE_COL__) VALUES (3, 'c1', 1);
SET show_hidden_columns = true;
SELECT k, v, __DORIS_SEQUENCE_COL__ FROM u ORDER BY k;
SET show_hidden_columns = false;
-- the session variable turns the check off: a NULL sequence loses against 10, ties with NULL
SET require_sequence_in_insert = false;
INSERT INTO u VALUES (1, 'null-seq'), (4, 'd');
SET require_sequence_in_insert = true;
-- a partial update without the sequence column keeps it (storage/README.md)
SET enable_unique_key_partial_update = true;
INSERT INTO u (k, v) VALUES (3, 'c-partial');
SET enable_unique_key_partial_update = false;
SET show_hidden_columns = true;
SELECT k, v, __DORIS_SEQUENCE_COL__ FROM u ORDER BY k;
SET show_hidden_columns = false;
-- binlog(): no record for the losers; the hidden column is no binlog() column (E34)
SELECT __DORIS_BINLOG_OP__ AS op, k, v, __BEFORE__v__ FROM binlog("table" = "u")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT __DORIS_SEQUENCE_COL__ FROM binlog("table" = "u");
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM us ORDER BY k;
SHOW CREATE TABLE u;
-- UPDATE writes the whole row: the sequence value is kept
UPDATE u SET v = 'upd' WHERE k = 2;
SELECT * FROM u WHERE k = 2;

-- a hidden sequence of a date type; the name is case-insensitive, the type printed lower case
CREATE TABLE ud (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
ALTER TABLE ud ENABLE FEATURE "sequence_load" WITH PROPERTIES ("function_column.sequence_type" = "Date");
INSERT INTO ud (k, v, __DORIS_SEQUENCE_COL__) VALUES (1, 1, '2024-05-01');
INSERT INTO ud (k, v, __DORIS_SEQUENCE_COL__) VALUES (1, 2, '2024-04-30');
SELECT * FROM ud;
SHOW CREATE TABLE ud;

-- errors, in Doris's order
CREATE TABLE d (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
CREATE TABLE u2 (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
CREATE TABLE um (k INT, v INT, s INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("function_column.sequence_col" = "s");
ALTER TABLE u2 ENABLE FEATURE "NO_SUCH_FEATURE";
ALTER TABLE u2 ENABLE FEATURE "SEQUENCE_LOAD";
ALTER TABLE d ENABLE FEATURE "SEQUENCE_LOAD" WITH PROPERTIES ("function_column.sequence_type" = "int");
ALTER TABLE u2 ENABLE FEATURE "SEQUENCE_LOAD" WITH PROPERTIES ("function_column.sequence_col" = "v");
ALTER TABLE u2 ENABLE FEATURE "SEQUENCE_LOAD" WITH PROPERTIES ("function_column.sequence_type" = "varchar");
ALTER TABLE u2 ENABLE FEATURE "SEQUENCE_LOAD" WITH PROPERTIES ("function_column.sequence_type" = "integer");
ALTER TABLE u ENABLE FEATURE "SEQUENCE_LOAD" WITH PROPERTIES ("function_column.sequence_type" = "int");
ALTER TABLE um ENABLE FEATURE "SEQUENCE_LOAD" WITH PROPERTIES ("function_column.sequence_type" = "int");
-- a table that has a sequence column refuses the INSERT without it, by column list too
INSERT INTO um (k, v) VALUES (1, 1);
INSERT INTO um VALUES (1, 1, 1);
-- BATCH_DELETE: UNIQUE tables have the delete sign already; other models refuse it
ALTER TABLE u2 ENABLE FEATURE "BATCH_DELETE";
ALTER TABLE d ENABLE FEATURE "BATCH_DELETE";
-- UPDATE_FLEXIBLE_COLUMNS (flexible partial update) is not implemented
ALTER TABLE u2 ENABLE FEATURE "UPDATE_FLEXIBLE_COLUMNS";
ALTER TABLE d ENABLE FEATURE "UPDATE_FLEXIBLE_COLUMNS";
-- a Row Binlog table without light schema change refuses it as it refuses ADD COLUMN
CREATE TABLE heavy (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "light_schema_change" = "false");
ALTER TABLE heavy ENABLE FEATURE "SEQUENCE_LOAD" WITH PROPERTIES ("function_column.sequence_type" = "int");
-- a failing clause leaves the table as it was
ALTER TABLE u2 MODIFY COMMENT 'c', ENABLE FEATURE "SEQUENCE_LOAD" WITH PROPERTIES ("function_column.sequence_type" = "double");
SET show_hidden_columns = true;
DESC u2;
SET show_hidden_columns = false;
-- the words stay identifiers
CREATE TABLE enable (feature INT) DUPLICATE KEY(feature) DISTRIBUTED BY HASH(feature) BUCKETS 1;
INSERT INTO enable VALUES (1);
SELECT feature FROM enable;
