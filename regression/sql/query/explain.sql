-- EXPLAIN [VERBOSE | ANALYZE] and DESC <select>: one "Explain String" row per operator of the
-- physical plan, indented by depth, with the pruning the scan will do (partitions, tablets,
-- key ranges). ANALYZE runs the query and adds actual rows per operator and storage counters.
-- Then the statement limits: max_execution_time / query_timeout (3024) and exec_mem_limit.
CREATE TABLE t (k INT, d DATE, x DECIMAL(6,2), v VARCHAR(8)) DUPLICATE KEY(k) PARTITION BY RANGE(d) (PARTITION p1 VALUES LESS THAN ('2024-01-01'), PARTITION p2 VALUES LESS THAN ('2025-01-01'), PARTITION p3 VALUES LESS THAN ('2026-01-01')) DISTRIBUTED BY HASH(k) BUCKETS 4;
INSERT INTO t VALUES (1, '2023-05-01', 1.25, 'a'), (2, '2024-05-01', 2.50, 'b'), (3, '2025-05-01', 3.75, 'c'), (5, '2024-06-01', 5.00, 'e'), (5, '2025-06-01', 5.50, 'f'), (8, '2024-07-01', 8.00, 'h');
-- full scan: every partition and tablet
EXPLAIN SELECT * FROM t;
-- partition pruning (range on the partition column), bucket pruning (equality on the HASH
-- column) and key ranges handed to storage
EXPLAIN SELECT k, v FROM t WHERE d >= '2024-01-01' AND d < '2025-01-01';
EXPLAIN SELECT k, v FROM t WHERE k = 5;
EXPLAIN SELECT k FROM t WHERE k = 5 AND d BETWEEN '2024-01-01' AND '2024-12-31';
EXPLAIN SELECT k FROM t WHERE x > 2 AND k <= 5;
EXPLAIN SELECT k FROM t WHERE d > '2030-01-01';
-- filter, aggregate, sort, limit
EXPLAIN SELECT k, COUNT(*), SUM(x) FROM t WHERE v <> 'z' GROUP BY k HAVING COUNT(*) > 0 ORDER BY k DESC LIMIT 2;
EXPLAIN SELECT COUNT(DISTINCT v), MIN(d), MAX(x) FROM t;
EXPLAIN SELECT DISTINCT k FROM t;
EXPLAIN SELECT v FROM t ORDER BY x DESC, v LIMIT 3 OFFSET 1;
EXPLAIN SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'none';
EXPLAIN SELECT 1 + 1;
DESC SELECT k FROM t WHERE k > 3;
DESCRIBE SELECT k FROM t LIMIT 1;
-- DESC <table> is still DESC TABLE
DESC t;
-- VERBOSE: output column types of every operator
EXPLAIN VERBOSE SELECT k, SUM(x), MAX(d), MIN(v) FROM t GROUP BY k;
-- ANALYZE: actual rows per operator; scans add tablets read, rows read and pruned counts
EXPLAIN ANALYZE SELECT * FROM t;
EXPLAIN ANALYZE SELECT k, COUNT(*) FROM t WHERE k > 1 GROUP BY k ORDER BY k LIMIT 2;
EXPLAIN ANALYZE SELECT k FROM t WHERE k = 5 AND d >= '2025-01-01';
EXPLAIN ANALYZE SELECT k FROM t WHERE k = 4;
-- ANALYZE reports errors of the query it runs
EXPLAIN ANALYZE SELECT k + 9223372036854775807 FROM t WHERE k = 1;
EXPLAIN SELECT nope FROM t;
EXPLAIN SELECT * FROM missing_table;
-- EXPLAIN / ANALYZE / VERBOSE stay usable as names where MySQL allows
SELECT 1 AS analyze, 2 AS verbose;

-- max_execution_time (ms, MySQL) and query_timeout (s, Doris) stop a running SELECT with 3024;
-- SLEEP checks them every 100 ms, so these fail deterministically
SELECT @@max_execution_time, @@query_timeout;
SET max_execution_time = 50;
SELECT SLEEP(2) FROM t WHERE k = 1;
EXPLAIN ANALYZE SELECT SLEEP(2) FROM t WHERE k = 1;
SELECT k FROM t WHERE k = 1;
SELECT /*+ SET_VAR(max_execution_time=0) */ k FROM t WHERE k = 2;
SET max_execution_time = 0;
SET query_timeout = 1;
SELECT SLEEP(3) FROM t WHERE k = 1;
SET query_timeout = DEFAULT;
SELECT @@max_execution_time, @@query_timeout;

-- exec_mem_limit (bytes): the sort buffer of an ORDER BY over a few thousand rows does not fit
-- in 400000 bytes (about 200 KB of it are the two 4092-row batches of a scan and a
-- projection); the statement fails, a point query passes, and the ORDER BY passes after SET
-- back
CREATE TABLE big (k INT, v VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2;
INSERT INTO big VALUES (1, 'row'), (2, 'row'), (3, 'row'), (4, 'row');
INSERT INTO big SELECT k + 4, v FROM big;
INSERT INTO big SELECT k + 8, v FROM big;
INSERT INTO big SELECT k + 16, v FROM big;
INSERT INTO big SELECT k + 32, v FROM big;
INSERT INTO big SELECT k + 64, v FROM big;
INSERT INTO big SELECT k + 128, v FROM big;
INSERT INTO big SELECT k + 256, v FROM big;
INSERT INTO big SELECT k + 512, v FROM big;
INSERT INTO big SELECT k + 1024, v FROM big;
INSERT INTO big SELECT k + 2048, v FROM big;
SELECT COUNT(*), MIN(k), MAX(k) FROM big;
SELECT @@exec_mem_limit;
SET exec_mem_limit = 400000;
SELECT k, v FROM big ORDER BY k DESC LIMIT 3;
-- the bytes used when the statement was stopped are a Note (they vary with the plan's code)
-- @mask_column 3
SHOW WARNINGS;
SELECT k, v FROM big WHERE k = 77;
SET exec_mem_limit = DEFAULT;
SELECT k, v FROM big ORDER BY k DESC LIMIT 3;
SELECT /*+ SET_VAR(exec_mem_limit=300000) */ k FROM big GROUP BY k ORDER BY k LIMIT 1;
SELECT @@exec_mem_limit;
