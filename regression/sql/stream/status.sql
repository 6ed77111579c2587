-- Beyond Doris: pending changes without reading them (SHOW STREAM STATUS) and an exact
-- STREAM_HAS_DATA(): churn that folds away is no data for a min_delta stream.
CREATE TABLE t (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO t VALUES (1, 1);
CREATE STREAM s_min ON TABLE t;
CREATE STREAM s_detail ON TABLE t PROPERTIES ("type" = "detail");
SELECT STREAM_HAS_DATA('s_min'), STREAM_HAS_DATA(CONCAT(DATABASE(), '.s_detail'));
-- @mask_column 2 3
SHOW STREAM STATUS s_min;
INSERT INTO t VALUES (2, 2);
DELETE FROM t WHERE k = 2;
-- the insert and the delete fold away for min_delta, not for detail
SELECT STREAM_HAS_DATA('s_min'), STREAM_HAS_DATA('s_detail');
SELECT COUNT(*) FROM s_min;
SELECT COUNT(*) FROM s_detail;
-- @mask_column 2 3 5
SHOW STREAM STATUS s_min;
UPDATE t SET v = 10 WHERE k = 1;
SELECT STREAM_HAS_DATA('s_min'), STREAM_HAS_DATA(NULL);
-- @mask_column 2 3 5
SHOW STREAM STATUS s_min;
CREATE TABLE sink (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
INSERT INTO sink SELECT k, v FROM s_min;
SELECT STREAM_HAS_DATA('s_min');
-- @mask_column 2 3
SHOW STREAM STATUS s_min;
SELECT STREAM_HAS_DATA('no_such_stream');
SHOW STREAM STATUS t;
-- a qualified name of no stream
SELECT STREAM_HAS_DATA(CONCAT(DATABASE(), '.no_such_stream'));
