-- REPLACE PARTITION ... WITH TEMPORARY PARTITION on a Row Binlog table (seed 001 allows
-- partition operations) and its streams: the replacing partition keeps the temporary
-- partition's id, new to every stream, so it is read from the beginning (DORIS_SEMANTICS.md
-- §2.9 "replacing partition read from beginning"); the replaced partition's unconsumed changes
-- are gone with it. Before the REPLACE, the temporary partition is in no stream and no binlog().
CREATE TABLE t (k INT, v INT) UNIQUE KEY(k)
PARTITION BY RANGE(k) (PARTITION p1 VALUES LESS THAN ("100"), PARTITION p2 VALUES LESS THAN ("200"))
DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO t VALUES (1, 1), (150, 150);
CREATE STREAM s ON TABLE t;
CREATE STREAM sa ON TABLE t PROPERTIES ("type" = "append_only");
INSERT INTO t VALUES (2, 2), (151, 151);
ALTER TABLE t ADD TEMPORARY PARTITION tp2 VALUES [("100"), ("200"));
INSERT INTO t TEMPORARY PARTITION (tp2) VALUES (160, 1600), (161, 1610);
INSERT INTO t TEMPORARY PARTITION (tp2) VALUES (160, 1601);
SELECT k, v FROM t TEMPORARY PARTITION (tp2) ORDER BY k;
-- not visible to streams, binlog() or @incr yet
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM s ORDER BY k;
SELECT k, __DORIS_BINLOG_OP__ FROM binlog("table" = "t") WHERE k >= 160;
SELECT k FROM s TEMPORARY PARTITION (tp2);
SELECT k FROM t@incr("incrementType" = "DETAIL") TEMPORARY PARTITION (tp2);
ALTER TABLE t REPLACE PARTITION (p2) WITH TEMPORARY PARTITION (tp2);
SELECT k, v FROM t ORDER BY k;
-- p1 as before; p2 (a new id) from the beginning: its current rows as APPEND
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM s ORDER BY k;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM sa ORDER BY k;
SELECT UNIT, CONSUMPTION_STATUS = 'N/A' FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 's' ORDER BY UNIT;
-- binlog() of p2 now holds the temporary partition's history
SELECT k, v, __DORIS_BINLOG_OP__ FROM binlog("table" = "t", "partition" = "p2")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
CREATE TABLE sink (k INT, v INT, ct VARCHAR(16)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
INSERT INTO sink SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM s;
SELECT k, v, ct FROM sink ORDER BY k;
SELECT COUNT(*) FROM s;
-- after consumption the new partition is incremental like any other
UPDATE t SET v = 1700 WHERE k = 161;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM s ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
