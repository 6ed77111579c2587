-- Conformance of change records and streams (issue 12): a stream's __DORIS_STREAM_SEQUENCE_COL__
-- is the commit TSO of each change and __DORIS_STREAM_LSN_COL__ its LSN, exactly as binlog()
-- reports them, also where a partition is read whole (no offset yet: a stream created on an
-- empty table, a new partition, show_initial_rows); changes of one transaction share the value,
-- different transactions never do (seed 000). TSOs and LSNs change from run to run (the LSN
-- counter is the server's), so the checks print ranks and joins against binlog().

-- 1. Duplicate Key table; the stream is created while the table is empty, so its partition
--    has no offset and is read whole.
CREATE TABLE ev (id INT, v VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1
PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");

CREATE STREAM s_ev ON TABLE ev;

CREATE TABLE ev_copy (id INT, v VARCHAR(10), seq BIGINT, lsn BIGINT) DUPLICATE KEY(id)
DISTRIBUTED BY HASH(id) BUCKETS 1;

-- transaction a begins first and commits last
-- @connection a
BEGIN;

INSERT INTO ev VALUES (1, 'a1'), (2, 'a2');

-- @connection b
BEGIN;

INSERT INTO ev VALUES (3, 'b1'), (4, 'b2');

COMMIT;

-- @connection a
COMMIT;

-- @connection default
-- compaction merges the two commits' rows into one rowset: the read does not depend on it
ADMIN COMPACT TABLE ev WHERE type = 'BASE';

-- b's rows first: ordered by commit, not by BEGIN
SELECT id, v, __DORIS_STREAM_CHANGE_TYPE_COL__,
       DENSE_RANK() OVER (ORDER BY __DORIS_STREAM_SEQUENCE_COL__) AS txn,
       DENSE_RANK() OVER (ORDER BY __DORIS_STREAM_LSN_COL__) AS lsn_rank
FROM s_ev ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__;

-- the same records as binlog() and @incr: every row matches one record on (id, TSO, LSN)
SELECT COUNT(*) FROM s_ev s JOIN binlog("table" = "ev") b
ON s.id = b.id AND s.__DORIS_STREAM_SEQUENCE_COL__ = b.__DORIS_BINLOG_TSO__
AND s.__DORIS_STREAM_LSN_COL__ = b.__DORIS_BINLOG_LSN__;

SELECT COUNT(*) FROM s_ev s JOIN ev@incr("incrementType" = "APPEND_ONLY") i
ON s.id = i.id AND s.__DORIS_STREAM_SEQUENCE_COL__ = i.__DORIS_BINLOG_TSO__
AND s.__DORIS_STREAM_LSN_COL__ = i.__DORIS_BINLOG_LSN__;

SELECT __DORIS_BINLOG_OP__, COUNT(DISTINCT __DORIS_BINLOG_TSO__), COUNT(DISTINCT __DORIS_BINLOG_LSN__)
FROM binlog("table" = "ev") GROUP BY __DORIS_BINLOG_OP__;

-- consuming writes the same values; afterwards the stream reads incrementally
INSERT INTO ev_copy SELECT id, v, __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__ FROM s_ev;

SELECT COUNT(*) FROM ev_copy c JOIN binlog("table" = "ev") b
ON c.id = b.id AND c.seq = b.__DORIS_BINLOG_TSO__ AND c.lsn = b.__DORIS_BINLOG_LSN__;

SELECT COUNT(*) FROM s_ev;

INSERT INTO ev VALUES (5, 'c1');

SELECT s.id, s.__DORIS_STREAM_SEQUENCE_COL__ = b.__DORIS_BINLOG_TSO__ AS same_tso,
       s.__DORIS_STREAM_LSN_COL__ = b.__DORIS_BINLOG_LSN__ AS same_lsn
FROM s_ev s JOIN binlog("table" = "ev") b ON s.id = b.id;

-- 2. A partition added after the stream was created is read whole, with each change's own
--    TSO and LSN.
CREATE TABLE pv (d INT, id INT, v INT) DUPLICATE KEY(d, id) PARTITION BY RANGE(d)
(PARTITION p1 VALUES LESS THAN (10)) DISTRIBUTED BY HASH(id) BUCKETS 2
PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");

INSERT INTO pv VALUES (1, 1, 10);

CREATE STREAM s_pv ON TABLE pv;

ALTER TABLE pv ADD PARTITION p2 VALUES LESS THAN (20);

-- @connection a
BEGIN;

INSERT INTO pv VALUES (11, 1, 110), (12, 2, 120);

-- @connection b
BEGIN;

INSERT INTO pv VALUES (13, 3, 130);

COMMIT;

-- @connection a
COMMIT;

-- @connection default
INSERT INTO pv VALUES (2, 2, 20);

SELECT d, id, v, DENSE_RANK() OVER (ORDER BY __DORIS_STREAM_SEQUENCE_COL__) AS txn
FROM s_pv ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__;

SELECT COUNT(*) FROM s_pv s JOIN binlog("table" = "pv") b
ON s.d = b.d AND s.id = b.id AND s.__DORIS_STREAM_SEQUENCE_COL__ = b.__DORIS_BINLOG_TSO__
AND s.__DORIS_STREAM_LSN_COL__ = b.__DORIS_BINLOG_LSN__;

-- 3. show_initial_rows = true: the rows that exist at creation carry the TSO and LSN of their
--    write. Duplicate Key first, then a merge-on-write table, where a key's row is its last
--    write (an update), never the partition's last commit for every row.
CREATE TABLE init_dup (id INT, v INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2
PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");

INSERT INTO init_dup VALUES (1, 10), (2, 20);

INSERT INTO init_dup VALUES (3, 30);

CREATE STREAM s_init_dup ON TABLE init_dup PROPERTIES ("show_initial_rows" = "true");

SELECT id, v, __DORIS_STREAM_CHANGE_TYPE_COL__,
       DENSE_RANK() OVER (ORDER BY __DORIS_STREAM_SEQUENCE_COL__) AS txn
FROM s_init_dup ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__;

SELECT COUNT(*) FROM s_init_dup s JOIN binlog("table" = "init_dup") b
ON s.id = b.id AND s.__DORIS_STREAM_SEQUENCE_COL__ = b.__DORIS_BINLOG_TSO__
AND s.__DORIS_STREAM_LSN_COL__ = b.__DORIS_BINLOG_LSN__;

CREATE TABLE init_mow (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");

INSERT INTO init_mow VALUES (1, 10), (2, 20);

INSERT INTO init_mow VALUES (3, 30);

UPDATE init_mow SET v = 11 WHERE k = 1;

DELETE FROM init_mow WHERE k = 3;

CREATE STREAM s_init_mow ON TABLE init_mow PROPERTIES ("show_initial_rows" = "true");

SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__,
       DENSE_RANK() OVER (ORDER BY __DORIS_STREAM_SEQUENCE_COL__) AS txn
FROM s_init_mow ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__;

-- each row is its key's last record in binlog()
SELECT s.k, b.__DORIS_BINLOG_OP__
FROM s_init_mow s JOIN binlog("table" = "init_mow") b
ON s.k = b.k AND s.__DORIS_STREAM_SEQUENCE_COL__ = b.__DORIS_BINLOG_TSO__
AND s.__DORIS_STREAM_LSN_COL__ = b.__DORIS_BINLOG_LSN__ ORDER BY s.k;

-- a detail stream on the same table reads the same image the same way
CREATE STREAM s_init_mow_d ON TABLE init_mow PROPERTIES ("type" = "detail", "show_initial_rows" = "true");

SELECT COUNT(*) FROM s_init_mow_d d JOIN s_init_mow m
ON d.k = m.k AND d.v = m.v AND d.__DORIS_STREAM_SEQUENCE_COL__ = m.__DORIS_STREAM_SEQUENCE_COL__
AND d.__DORIS_STREAM_LSN_COL__ = m.__DORIS_STREAM_LSN_COL__
AND d.__DORIS_STREAM_CHANGE_TYPE_COL__ = m.__DORIS_STREAM_CHANGE_TYPE_COL__;

-- 4. A stream created on an empty MoW table: its first read is the image, each row stamped
--    with its own write, in commit order.
CREATE TABLE mow (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");

CREATE STREAM s_mow ON TABLE mow;

-- @connection a
BEGIN;

INSERT INTO mow VALUES (1, 10);

-- @connection b
BEGIN;

INSERT INTO mow VALUES (2, 20);

COMMIT;

-- @connection a
COMMIT;

-- @connection default
ADMIN COMPACT TABLE mow WHERE type = 'BASE';

SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__,
       DENSE_RANK() OVER (ORDER BY __DORIS_STREAM_SEQUENCE_COL__) AS txn
FROM s_mow ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__;

SELECT COUNT(*) FROM s_mow s JOIN binlog("table" = "mow") b
ON s.k = b.k AND s.__DORIS_STREAM_SEQUENCE_COL__ = b.__DORIS_BINLOG_TSO__
AND s.__DORIS_STREAM_LSN_COL__ = b.__DORIS_BINLOG_LSN__;

-- 5. The loser of two concurrent consumers: `target offset already consumed` (E21), also for
--    a partition read whole that is not initial rows (here: a new partition) ...
CREATE TABLE sink (d INT, id INT, v INT) DUPLICATE KEY(d) DISTRIBUTED BY HASH(d) BUCKETS 1;

-- @connection a
BEGIN;

INSERT INTO sink SELECT d, id, v FROM s_pv PARTITION (p2);

-- @connection b
INSERT INTO sink SELECT d, id, v FROM s_pv PARTITION (p2);

-- @connection a
-- @mask_numbers
COMMIT;

-- @connection default
SELECT COUNT(*) FROM sink;

-- ... and `history offset already consumed` (E22) only for the initial rows of a
-- show_initial_rows stream (stream/README.md)
-- @connection a
BEGIN;

INSERT INTO sink SELECT id, id, v FROM s_init_dup;

-- @connection b
INSERT INTO sink SELECT id, id, v FROM s_init_dup;

-- @connection a
-- @mask_numbers
COMMIT;

-- once consumed, the next race is on an advanced offset: E21 again
-- @connection default
INSERT INTO init_dup VALUES (4, 40);

-- @connection a
BEGIN;

INSERT INTO sink SELECT id, id, v FROM s_init_dup;

-- @connection b
INSERT INTO sink SELECT id, id, v FROM s_init_dup;

-- @connection a
-- @mask_numbers
COMMIT;

-- @connection default
SELECT d, v FROM sink ORDER BY d, v;

-- 6. @snapshot() and @reset() take no parameters (E17), whatever the argument looks like
SELECT * FROM s_ev@snapshot(x);

SELECT * FROM s_ev@snapshot(`x`);

SELECT * FROM s_ev@snapshot('k' = 'v');

SELECT * FROM s_ev@snapshot(1, 2);

SELECT * FROM s_ev@snapshot('x');

SELECT * FROM s_ev@reset(x);

SELECT * FROM s_ev@reset(`x`);

SELECT * FROM s_ev@reset('k' = 'v');

SELECT * FROM s_ev@reset(1, 2);

SELECT COUNT(*) FROM s_ev@snapshot() s;

SELECT COUNT(*) FROM s_ev@reset();
