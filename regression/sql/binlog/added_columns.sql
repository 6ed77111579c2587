-- Row Binlog after ADD COLUMN (rows written before the column existed read back with its
-- default). The expected output was written by hand from DORIS_SEMANTICS.md §2.3 and seed 001.

-- 1. After ADD COLUMN: updates, deletes and partial updates of rows written before the column
-- existed. The old row's value of the new column is its default, in the table, in the after image
-- and in the before image.
CREATE TABLE sc (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO sc VALUES (1, 10), (2, 20), (3, 30);
ALTER TABLE sc ADD COLUMN c INT DEFAULT "7";
SELECT k, v, c FROM sc ORDER BY k;
UPDATE sc SET v = 11 WHERE k = 1;
SET enable_unique_key_partial_update = true;
INSERT INTO sc (k, v) VALUES (2, 21);
SET enable_unique_key_partial_update = false;
DELETE FROM sc WHERE k = 3;
SELECT k, v, c FROM sc ORDER BY k;
SELECT __DORIS_BINLOG_OP__ AS op, k, v, c, __BEFORE__v__, __BEFORE__c__
FROM binlog("table" = "sc") ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT k, v, c, __DORIS_BINLOG_OP__ FROM sc@incr("incrementType" = "DETAIL")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__;

-- 2. the same partial update on a table without Row Binlog
CREATE TABLE plain (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true");
INSERT INTO plain VALUES (1, 10);
ALTER TABLE plain ADD COLUMN c INT DEFAULT "7";
SET enable_unique_key_partial_update = true;
INSERT INTO plain (k, v) VALUES (1, 11);
SET enable_unique_key_partial_update = false;
SELECT k, v, c FROM plain;
