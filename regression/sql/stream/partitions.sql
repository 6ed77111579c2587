-- PARTITION (...) in FROM: tables read only those partitions; a stream reads and advances only
-- them (DORIS_SEMANTICS.md §1.6, §2.7); @incr takes it too.
CREATE TABLE t (k INT, v INT) UNIQUE KEY(k)
PARTITION BY RANGE(k) (PARTITION p1 VALUES LESS THAN ("100"), PARTITION p2 VALUES LESS THAN ("200"))
DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO t VALUES (1, 1), (150, 150);
CREATE STREAM s ON TABLE t;
INSERT INTO t VALUES (2, 2), (151, 151);
UPDATE t SET v = 10 WHERE k = 1;
UPDATE t SET v = 1500 WHERE k = 150;

SELECT k, v FROM t PARTITION (p1) ORDER BY k;
SELECT k, v FROM t PARTITIONS (p2) x ORDER BY k;
SELECT k, v FROM t PARTITION (p1, p2) AS x WHERE k > 1 ORDER BY k;
SELECT k FROM t PARTITION (p3);
SELECT k, __DORIS_BINLOG_OP__ FROM t@incr("incrementType" = "DETAIL") PARTITION (p2)
ORDER BY __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__;

SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM s PARTITION (p1)
ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
CREATE TABLE sink (k INT, v INT, ct VARCHAR(16)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
-- consuming p1 leaves p2 pending
INSERT INTO sink SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM s PARTITION (p1);
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM s ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
SELECT UNIT, LAG = '0' FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() ORDER BY UNIT;
-- two references, two partition sets: one window, both advance
INSERT INTO t VALUES (3, 3), (152, 152);
INSERT INTO sink SELECT k, v, 'x' FROM s PARTITION (p1) UNION ALL SELECT k, v, 'y' FROM s PARTITION (p2);
SELECT COUNT(*) FROM s;
SELECT k, v, ct FROM sink ORDER BY k, ct;
-- snapshot and reset of one partition
INSERT INTO t VALUES (4, 4), (153, 153);
SELECT k FROM s@snapshot() PARTITION (p2) ORDER BY k;
INSERT INTO sink SELECT k, v, 'r' FROM s@reset() PARTITION (p1);
SELECT k FROM s ORDER BY k;
