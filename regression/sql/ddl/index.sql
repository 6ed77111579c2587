-- Doris secondary indexes (INVERTED / BITMAP / NGRAM_BF): stored definitions, Doris's checks
-- and texts, SHOW INDEX / SHOW CREATE TABLE / information_schema.STATISTICS, Row Binlog rules.
-- Nothing is built: queries answer the same with or without them.
DROP DATABASE IF EXISTS ddl_idx FORCE;
CREATE DATABASE ddl_idx;
USE ddl_idx;
-- Inline INDEX clauses in CREATE TABLE.
CREATE TABLE t (
  k INT NOT NULL,
  s VARCHAR(64),
  txt STRING,
  f FLOAT,
  d DOUBLE,
  dt DATETIME,
  j JSON,
  INDEX i_s (s) USING INVERTED COMMENT 'name index',
  INDEX i_txt (txt) USING INVERTED PROPERTIES ("parser" = "english", "support_phrase" = "true"),
  INDEX i_ng (txt) USING NGRAM_BF PROPERTIES ("gram_size" = "3", "bf_size" = "1024") COMMENT 'it''s ngram',
  INDEX i_bm (k) USING BITMAP
) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
SHOW CREATE TABLE t;
SHOW INDEX FROM t;
SHOW INDEXES FROM t FROM ddl_idx;
SHOW KEYS FROM ddl_idx.t WHERE Index_type = 'INVERTED';
-- CREATE INDEX / ALTER TABLE ADD INDEX.
CREATE INDEX i_dt ON t (dt) USING INVERTED;
CREATE INDEX IF NOT EXISTS i_dt ON t (dt) USING INVERTED;
CREATE INDEX i_dt ON t (dt) USING INVERTED;
CREATE INDEX i_dt2 ON t (dt) USING INVERTED;
CREATE INDEX i_ng2 ON t (s) USING NGRAM_BF;
ALTER TABLE t ADD INDEX i_p (s) USING INVERTED PROPERTIES ("parser" = "unicode") COMMENT 'p';
ALTER TABLE t ADD INDEX i_p (j) USING INVERTED, ADD COLUMN z INT;
ALTER TABLE t ADD COLUMN z INT, ADD INDEX i_p (z) USING INVERTED PROPERTIES ("lower_case" = "false") COMMENT 'p';
ALTER TABLE t ADD INDEX i_nope (nope) USING INVERTED;
SHOW INDEX FROM t;
-- Column types and properties Doris refuses.
CREATE INDEX i_f ON t (f) USING BITMAP;
CREATE INDEX i_d ON t (d) USING INVERTED;
CREATE INDEX i_j ON t (j) USING INVERTED;
CREATE INDEX i_k ON t (k) USING NGRAM_BF;
CREATE INDEX i_k ON t (k) USING INVERTED PROPERTIES ("parser" = "english");
CREATE INDEX i_x ON t (s) USING INVERTED PROPERTIES ("parser" = "french");
CREATE INDEX i_x ON t (s) USING INVERTED PROPERTIES ("colour" = "red");
CREATE INDEX i_x ON t (s) USING INVERTED PROPERTIES ("parser_mode" = "fine_grained");
CREATE INDEX i_x ON t (s) USING INVERTED PROPERTIES ("support_phrase" = "yes");
CREATE INDEX i_x ON t (s) USING NGRAM_BF PROPERTIES ("gram_size" = "300");
CREATE INDEX i_x ON t (s) USING NGRAM_BF PROPERTIES ("bf_size" = "16");
CREATE INDEX i_x ON t (s) USING NGRAM_BF PROPERTIES ("gram_size" = "x");
CREATE INDEX i_x ON t (s) USING NGRAM_BF PROPERTIES ("gram_size" = "3", "bf_size" = "256", "k" = "v");
CREATE INDEX i_x ON t (s, txt) USING INVERTED;
CREATE INDEX i_x ON t (s, S) USING NGRAM_BF;
CREATE INDEX i_toolong_toolong_toolong_toolong_toolong_toolong_toolong_toolong ON t (s) USING INVERTED;
CREATE INDEX i_x ON nope (s) USING INVERTED;
-- Aggregate tables index key columns only; a merge-on-read UNIQUE table refuses a parser on a
-- value column.
CREATE TABLE agg (k INT, v INT SUM) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
CREATE INDEX i_v ON agg (v) USING INVERTED;
CREATE INDEX i_k ON agg (k) USING INVERTED;
CREATE TABLE mor (k INT, v STRING) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "false");
CREATE INDEX i_v ON mor (v) USING INVERTED PROPERTIES ("parser" = "english");
CREATE INDEX i_v ON mor (v) USING INVERTED;
SHOW INDEX FROM agg;
SHOW INDEX FROM mor;
-- CREATE TABLE's own checks.
CREATE TABLE bad (k INT, INDEX i (nope) USING INVERTED) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
CREATE TABLE bad (k INT, v INT, INDEX i (k) USING INVERTED, INDEX I (v) USING INVERTED) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
CREATE TABLE bad (k INT, INDEX i1 (k) USING INVERTED, INDEX i2 (k) USING INVERTED) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
CREATE TABLE bad (k INT, f FLOAT, INDEX i (f) USING BITMAP) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
CREATE TABLE bad (k INT, INDEX (k) USING INVERTED) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
SHOW TABLES;
-- DROP INDEX / ALTER TABLE DROP INDEX.
DROP INDEX i_dt ON t;
DROP INDEX IF EXISTS i_dt ON t;
ALTER TABLE t DROP INDEX i_p, DROP INDEX i_ng2, DROP COLUMN z;
SHOW INDEX FROM t;
-- A name no stored index has is a MySQL key (never stored): a warning, as before.
DROP INDEX i_dt ON t;
SHOW WARNINGS;
-- BUILD INDEX: nothing to build; Doris's checks.
BUILD INDEX i_s ON t;
BUILD INDEX i_bm ON t;
BUILD INDEX i_ng ON t;
BUILD INDEX nope ON t;
BUILD INDEX i_s ON t PARTITION (t);
BUILD INDEX i_s ON nope;
CREATE TABLE part (d DATE NOT NULL, s STRING, INDEX i_s (s) USING INVERTED) DUPLICATE KEY(d) PARTITION BY RANGE(d) (PARTITION p1 VALUES LESS THAN ("2024-01-01"), PARTITION p2 VALUES LESS THAN ("2025-01-01")) DISTRIBUTED BY HASH(d) BUCKETS 1;
BUILD INDEX i_s ON part PARTITION (p1, p2);
BUILD INDEX i_s ON part PARTITION (p9);
ALTER TABLE part BUILD INDEX i_s;
-- SHOW BUILD INDEX: no build jobs (BUILD INDEX builds nothing).
SHOW BUILD INDEX;
SHOW BUILD INDEX FROM ddl_idx WHERE TableName = 'part';
SHOW BUILD INDEX FROM nope;
-- Row Binlog tables: CREATE / DROP INDEX are light changes; BUILD INDEX is refused (E41).
CREATE TABLE rb (k BIGINT, s VARCHAR(16)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true", "binlog.format" = "ROW");
CREATE INDEX i_rb ON rb (s) USING INVERTED;
ALTER TABLE rb ADD INDEX i_rb2 (s) USING NGRAM_BF;
BUILD INDEX i_rb ON rb;
ALTER TABLE rb BUILD INDEX i_rb;
DROP INDEX i_rb2 ON rb;
SHOW INDEX FROM rb;
INSERT INTO rb VALUES (1, 'one'), (2, 'two');
SELECT k, s FROM rb WHERE s = 'two';
SELECT k, op FROM (SELECT k, __DORIS_BINLOG_OP__ op FROM binlog("table" = "rb")) b ORDER BY k;
-- Queries are unchanged by the indexes.
INSERT INTO t (k, s, txt, f, d, dt) VALUES (1, 'alice', 'the quick fox', 1.5, 2.5, '2024-01-01 00:00:00'), (2, 'bob', 'lazy dog', NULL, NULL, NULL);
SELECT k, s FROM t WHERE s = 'bob';
SELECT k FROM t WHERE txt LIKE '%quick%';
-- Columns: a RENAME COLUMN follows, a DROP COLUMN takes its indexes with it.
ALTER TABLE t RENAME COLUMN s name;
ALTER TABLE t DROP COLUMN txt;
SHOW CREATE TABLE t;
-- Tables: RENAME, CREATE TABLE LIKE, DROP and RECOVER keep the definitions.
ALTER TABLE t RENAME t2;
SHOW INDEX FROM t2;
CREATE TABLE t3 LIKE t2;
SHOW INDEX FROM t3;
DROP TABLE t2;
RECOVER TABLE t2;
SHOW INDEX FROM t2;
-- information_schema.STATISTICS lists them (one row per column).
SELECT TABLE_NAME, NON_UNIQUE, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NULLABLE, INDEX_TYPE, INDEX_COMMENT
FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'ddl_idx' ORDER BY TABLE_NAME, INDEX_NAME;
-- MySQL keys stay accepted and unstored.
CREATE TABLE my (k INT, c VARCHAR(10), KEY kc (c), INDEX ik (k) USING BTREE) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
SHOW INDEX FROM my;
SHOW CREATE TABLE my;
DROP DATABASE ddl_idx FORCE;
