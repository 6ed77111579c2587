-- Two consumers of one stream: the one that commits later fails and rolls back (E21), so
-- nothing is consumed twice; a plain read in another session never moves the offset.
CREATE TABLE src (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
CREATE TABLE dst (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
CREATE STREAM s ON TABLE src PROPERTIES ("type" = "detail");
INSERT INTO src VALUES (1, 10), (2, 20);

-- @connection a
BEGIN;
INSERT INTO dst SELECT k, v FROM s;
-- @connection b
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM s ORDER BY k;
INSERT INTO dst SELECT k, v * 100 FROM s;
-- @connection a
-- @mask_numbers
COMMIT;
SELECT k, v FROM dst ORDER BY k;
SELECT COUNT(*) FROM s;

-- the loser retries and gets the next window only
INSERT INTO src VALUES (3, 30);
-- @connection b
BEGIN;
INSERT INTO dst SELECT k, v FROM s;
-- @connection a
BEGIN;
INSERT INTO dst SELECT k, v FROM s;
COMMIT;
-- @connection b
-- @mask_numbers
COMMIT;
SELECT k, v FROM dst ORDER BY k, v;
SELECT COUNT(*) FROM s;
