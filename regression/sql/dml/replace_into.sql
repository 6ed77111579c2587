-- MySQL's REPLACE INTO on UNIQUE KEY tables: an upsert of whole rows (the last row of a key
-- wins, also within one statement). The Row Binlog records exactly what an INSERT of the same
-- rows records: update records (with before images) for replaced keys, inserts for new ones.
-- ROW_COUNT() is MySQL's: 1 per new row, 2 per row that replaced one (checked against MariaDB).
CREATE TABLE u (k INT, v VARCHAR(10), n INT DEFAULT "7") UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO u VALUES (1, 'a', 1), (2, 'b', 2);
REPLACE INTO u VALUES (1, 'x', 10), (3, 'c', 30), (3, 'd', 31), (1, 'y', 11);
SELECT ROW_COUNT();
SELECT * FROM u ORDER BY k;
-- a column list: the columns not named take their defaults (whole rows, never a partial update)
REPLACE INTO u (k, v) VALUES (2, 'B');
SELECT ROW_COUNT();
SET enable_unique_key_partial_update = true;
REPLACE INTO u (k, v) VALUES (1, 'Y'), (4, 'e');
SELECT ROW_COUNT();
SET enable_unique_key_partial_update = false;
SELECT * FROM u ORDER BY k;
-- SET form, no INTO, SELECT form
REPLACE INTO u SET k = 5, v = 'f';
SELECT ROW_COUNT();
REPLACE u SET v = 'g', k = 5, n = DEFAULT;
SELECT ROW_COUNT();
REPLACE INTO u SELECT k + 1, UPPER(v), n FROM u WHERE k >= 4;
SELECT ROW_COUNT();
SELECT * FROM u ORDER BY k;
-- a deleted key comes back as a new row
DELETE FROM u WHERE k = 6;
REPLACE INTO u VALUES (6, 'six', 6);
SELECT ROW_COUNT();
SELECT * FROM u ORDER BY k;
-- the change records, as INSERT writes them
-- @mask_column 5
SELECT k, v, n, __DORIS_BINLOG_OP__, __DORIS_BINLOG_TSO__, __BEFORE__v__, __BEFORE__n__ FROM binlog("table" = "u") ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
-- errors leave the table as it was
REPLACE INTO u VALUES (7, 'x', 1), (8, 'far too long', 1);
REPLACE INTO u (k, v) VALUES (7);
REPLACE INTO u (nope) VALUES (1);
REPLACE INTO u SET nope = 1;
SELECT COUNT(*) FROM u;
-- inside a transaction REPLACE is part of the one commit (its ROW_COUNT() is not checked: the
-- replaced rows are known only at COMMIT, planner/README.md "Not yet")
BEGIN;
REPLACE INTO u VALUES (1, 'txn', 0), (9, 'nine', 9);
COMMIT;
SELECT * FROM u WHERE k IN (1, 9) ORDER BY k;
-- merge-on-read UNIQUE: an upsert as well (the latest row of a key is read); its ROW_COUNT() is
-- not checked (the table's rows are not looked up, planner/README.md "Not yet")
CREATE TABLE m (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "false");
INSERT INTO m VALUES (1, 1), (2, 2);
REPLACE INTO m VALUES (2, 20), (3, 3), (3, 30);
SELECT * FROM m ORDER BY k;
-- PRIMARY KEY tables (MySQL DDL) are merge-on-write UNIQUE tables
CREATE TABLE pk (id INT PRIMARY KEY, name VARCHAR(20));
REPLACE INTO pk VALUES (1, 'one'), (2, 'two');
SELECT ROW_COUNT();
REPLACE INTO pk VALUES (2, 'TWO');
SELECT ROW_COUNT();
SELECT * FROM pk ORDER BY id;
-- other table models have no key to replace by
CREATE TABLE dup (k INT, v INT);
REPLACE INTO dup VALUES (1, 1);
CREATE TABLE dupk (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
REPLACE INTO dupk SELECT 1, 1;
CREATE TABLE ag (k INT, s INT SUM) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
REPLACE INTO ag VALUES (1, 1);
SELECT COUNT(*) FROM dup;
REPLACE INTO nosuch VALUES (1);
