-- SHOW TABLETS and SHOW INDEX, and the storage figures of SHOW TABLE STATUS, SHOW PARTITIONS
-- and information_schema.TABLES. Row counts are the rows storage keeps visible: an update of a
-- merge-on-write table replaces its row, a DELETE leaves one delete-sign row (as Doris's tablet
-- row counts; COUNT(*) is exact).
DROP DATABASE IF EXISTS ddl_stats FORCE;
CREATE DATABASE ddl_stats;
USE ddl_stats;
CREATE TABLE d (k INT, v VARCHAR(16)) DUPLICATE KEY(k) PARTITION BY RANGE(k) (PARTITION p1 VALUES LESS THAN ("100"), PARTITION p2 VALUES LESS THAN MAXVALUE) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("replication_num" = "1");
CREATE TABLE m (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3 PROPERTIES ("replication_num" = "1", "binlog.enable" = "true", "binlog.format" = "ROW");
CREATE VIEW w AS SELECT k FROM d;
CREATE STREAM s ON TABLE m PROPERTIES ("type" = "append_only");
-- Nothing written yet: every tablet is empty (version 0, no rowsets).
-- @mask_column 1 2 19
SHOW TABLETS FROM d;
SELECT table_name, table_type, table_rows, data_length, avg_row_length FROM information_schema.tables WHERE table_schema = 'ddl_stats' ORDER BY table_name;
INSERT INTO d VALUES (1, 'a'), (2, 'b'), (3, 'c'), (150, 'x');
INSERT INTO d VALUES (4, 'd');
INSERT INTO m VALUES (1, 1), (2, 2), (3, 3), (4, 4);
DELETE FROM m WHERE k = 4;
UPDATE m SET v = 20 WHERE k = 2;
-- Per tablet: version, rowsets and live rows (sizes and paths differ from run to run).
-- @mask_column 1 2 9 19
SHOW TABLETS FROM d;
-- @mask_column 1 2 9 19
SHOW TABLETS FROM ddl_stats.d PARTITION (p2);
-- @mask_column 1 2 9 19
SHOW TABLETS FROM d PARTITIONS (p1, p2) WHERE RowCount > 0;
-- @mask_column 1 2 9 19
SHOW TABLETS FROM m;
SHOW TABLETS FROM d PARTITION (p9);
SHOW TABLETS FROM w;
SHOW TABLETS FROM s;
SHOW TABLETS FROM nope;
SELECT table_name, table_type, table_rows, data_length > 0 AS has_bytes, avg_row_length > 0 AS has_avg FROM information_schema.tables WHERE table_schema = 'ddl_stats' ORDER BY table_name;
-- @mask_column 6 7
SHOW TABLE STATUS;
-- @mask_column 1 15
SHOW PARTITIONS FROM d;
-- m: 4 inserted, 1 updated (replaced), 1 deleted (its delete-sign row is counted above).
SELECT COUNT(*) FROM m;
TRUNCATE TABLE d;
SELECT table_name, table_rows, data_length FROM information_schema.tables WHERE table_schema = 'ddl_stats' AND table_name = 'd';
-- @mask_column 1 2 19
SHOW TABLETS FROM d;
-- MySQL SHOW INDEX: Doris lists the indexes users built; there are none.
SHOW INDEX FROM d;
SHOW INDEXES FROM m FROM ddl_stats;
SHOW KEYS IN ddl_stats.m WHERE Key_name = 'PRIMARY';
SHOW INDEX FROM nope;
-- SHOW TABLETS needs ADMIN.
CREATE USER stats_reader;
GRANT SELECT_PRIV ON ddl_stats.* TO stats_reader;
GRANT SELECT_PRIV ON regress_ddl_storage_stats.* TO stats_reader;
-- @user stats_reader
-- @connection reader
SHOW TABLETS FROM ddl_stats.d;
SHOW INDEX FROM ddl_stats.d;
-- @connection default
DROP USER stats_reader;
-- SHOW TABLE STATUS and information_schema.TABLES list only what the account may see.
CREATE DATABASE ddl_stats_hidden;
CREATE USER stats_one;
GRANT SELECT_PRIV ON ddl_stats.d TO stats_one;
GRANT SELECT_PRIV ON regress_ddl_storage_stats.* TO stats_one;
-- @user stats_one
-- @connection one
-- @mask_column 6 7
SHOW TABLE STATUS FROM ddl_stats;
SELECT table_name FROM information_schema.tables WHERE table_schema LIKE 'ddl_stats%' ORDER BY table_name;
SHOW TABLE STATUS FROM ddl_stats_hidden;
-- @connection default
DROP USER stats_one;
DROP DATABASE ddl_stats_hidden;
DROP DATABASE ddl_stats FORCE;
