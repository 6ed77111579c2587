-- Row Binlog retention (DORIS_SEMANTICS.md §2.10, seed 001 "Retention and cleanup"): reads filter
-- expired records when planned, binlog() does not; MIN_DELTA with an expired explicit start fails,
-- DETAIL / APPEND_ONLY clamp; a longer TTL makes records not yet removed readable again. Physical
-- cleanup is paused with "disable_auto_compaction" so the records stay in place (the cleanup
-- itself is tests/binlog/ttl_cleanup.py). The tables keep 2 s: a 3 s SLEEP
-- expires the first writes, and later writes stay readable for 2 s.
CREATE TABLE t (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true",
            "binlog.ttl_seconds" = "2", "disable_auto_compaction" = "true");
CREATE TABLE d (id INT, value INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1
PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW", "binlog.ttl_seconds" = "2",
            "disable_auto_compaction" = "true");
INSERT INTO t VALUES (1, 10), (2, 20), (3, 30);
UPDATE t SET v = 11 WHERE k = 1;
DELETE FROM t WHERE k = 3;
INSERT INTO d VALUES (1, 10);
-- before expiry
SELECT COUNT(*) FROM t@incr("incrementType" = "DETAIL");
SELECT COUNT(*) FROM d@incr("incrementType" = "DETAIL");
SET @t0 = (SELECT FROM_UNIXTIME((MIN(__DORIS_BINLOG_TSO__) >> 18) DIV 1000) FROM binlog("table" = "t"));
SET @q = CONCAT('SELECT k, v, __DORIS_BINLOG_OP__ FROM t@incr("startTimestamp" = "', @t0,
                '", "incrementType" = "MIN_DELTA") ORDER BY k, __DORIS_BINLOG_OP__');
PREPARE md FROM @q;
SET @q = CONCAT('SELECT COUNT(*) FROM t@incr("startTimestamp" = "', @t0, '", "incrementType" = "DETAIL")');
PREPARE dt FROM @q;
SELECT SLEEP(3);

-- after expiry: @incr shows nothing in every mode, the base table is unchanged
SELECT COUNT(*) AS change_count FROM t@incr("incrementType" = "DETAIL");
SELECT COUNT(*) AS change_count FROM t@incr("incrementType" = "APPEND_ONLY");
SELECT COUNT(*) AS change_count FROM t@incr("incrementType" = "MIN_DELTA");
SELECT COUNT(*) AS change_count FROM t@incr();
SELECT COUNT(*) AS change_count FROM d@incr("incrementType" = "DETAIL");
SELECT COUNT(*) AS change_count FROM d@incr("endTimestamp" = "2999-01-01 00:00:00");
-- in a CTE, a view, UNION ALL and a join the window is the same
WITH c AS (SELECT k FROM t@incr("incrementType" = "DETAIL")) SELECT COUNT(*) FROM c;
CREATE VIEW vt AS SELECT k, v FROM t@incr("incrementType" = "DETAIL");
SELECT COUNT(*) FROM vt;
SELECT COUNT(*) FROM (SELECT k FROM t@incr("incrementType" = "DETAIL")
                      UNION ALL SELECT id FROM d@incr("incrementType" = "APPEND_ONLY")) u;
SELECT COUNT(*) FROM t JOIN t@incr("incrementType" = "DETAIL") i ON t.k = i.k;
SELECT k, v FROM t ORDER BY k;
SELECT id, value FROM d;
-- binlog() applies no TTL filter
SELECT __DORIS_BINLOG_OP__ AS op, k, v, __BEFORE__v__ FROM binlog("table" = "t")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT COUNT(*) FROM binlog("table" = "d");
-- an explicit expired start: MIN_DELTA fails (E32), DETAIL / APPEND_ONLY clamp to nothing
EXECUTE md;
EXECUTE dt;
SELECT COUNT(*) FROM t@incr("startTimestamp" = "2000-01-01 00:00:00", "incrementType" = "APPEND_ONLY");
SELECT COUNT(*) FROM t@incr("startTimestamp" = "2000-01-01 00:00:00", "incrementType" = "MIN_DELTA");
-- a start in the future is not expired
SELECT COUNT(*) FROM t@incr("startTimestamp" = "2998-01-01 00:00:00", "incrementType" = "MIN_DELTA");

-- new writes are read; the expired ones stay hidden
INSERT INTO t VALUES (4, 40);
UPDATE t SET v = 12 WHERE k = 1;
SELECT k, v, __DORIS_BINLOG_OP__ FROM t@incr("incrementType" = "DETAIL")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__;
-- without a start MIN_DELTA reads the retained changes only: key 1 is present at the start
SELECT k, v, __DORIS_BINLOG_OP__ FROM t@incr() ORDER BY k, __DORIS_BINLOG_OP__;

-- a longer TTL makes the records not yet removed readable again
ALTER TABLE t SET ("binlog.ttl_seconds" = "86400");
ALTER TABLE d SET ("binlog.ttl_seconds" = "86400");
SELECT k, v, __DORIS_BINLOG_OP__ FROM t@incr("incrementType" = "DETAIL")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__;
SELECT COUNT(*) AS change_count FROM d@incr("incrementType" = "DETAIL");
EXECUTE md;
EXECUTE dt;
-- @sorted
SELECT k, v, __DORIS_BINLOG_OP__ FROM t@incr();
-- shortening it again hides them at once
ALTER TABLE t SET ("binlog.ttl_seconds" = "1");
SELECT SLEEP(1.2);
SELECT COUNT(*) AS change_count FROM t@incr("incrementType" = "DETAIL");
SELECT COUNT(*) FROM binlog("table" = "t");
