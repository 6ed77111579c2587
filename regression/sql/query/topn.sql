-- ORDER BY ... LIMIT keeps only the rows it can still return (TopN): under a small
-- exec_mem_limit it succeeds where sorting everything fails; results equal a full sort's.
CREATE TABLE t (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2;
INSERT INTO t VALUES (1, 7), (2, 3), (3, 9), (4, 3), (5, 1), (6, 9), (7, 0), (8, 5);
INSERT INTO t SELECT k + 8, (v * 7 + k) % 10 FROM t;
INSERT INTO t SELECT k + 16, (v * 3 + k) % 10 FROM t;
INSERT INTO t SELECT k + 32, (v * 7 + k) % 10 FROM t;
INSERT INTO t SELECT k + 64, (v * 3 + k) % 10 FROM t;
INSERT INTO t SELECT k + 128, (v * 7 + k) % 10 FROM t;
INSERT INTO t SELECT k + 256, (v * 3 + k) % 10 FROM t;
INSERT INTO t SELECT k + 512, (v * 7 + k) % 10 FROM t;
INSERT INTO t SELECT k + 1024, (v * 3 + k) % 10 FROM t;
INSERT INTO t SELECT k + 2048, (v * 7 + k) % 10 FROM t;
INSERT INTO t SELECT k + 4096, (v * 3 + k) % 10 FROM t;
INSERT INTO t SELECT k + 8192, (v * 7 + k) % 10 FROM t;
INSERT INTO t SELECT k + 16384, (v * 3 + k) % 10 FROM t;
INSERT INTO t SELECT k + 32768, (v * 7 + k) % 10 FROM t;
SELECT COUNT(*), SUM(v), MAX(k) FROM t;
SELECT k, v FROM t ORDER BY v DESC, k LIMIT 6;
SELECT k, v FROM t ORDER BY v, k DESC LIMIT 3 OFFSET 4;
SELECT k, v FROM (SELECT k, v FROM t ORDER BY v DESC, k) AS s LIMIT 6;
SET exec_mem_limit = 3000000;
SELECT k, v FROM t ORDER BY v DESC, k LIMIT 6;
SELECT COUNT(*) FROM (SELECT k, v FROM t ORDER BY v DESC, k) AS s;
SET exec_mem_limit = DEFAULT;
-- select aliases inside ORDER BY expressions (a bare name that is no FROM column; a FROM
-- column of that name wins inside an expression, as MariaDB; a bare alias wins as before)
CREATE TABLE o (id INT, n INT, s VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO o VALUES (1, 30, 'bb'), (2, 10, 'a'), (3, 20, 'ccc');
SELECT id, n * 2 AS total FROM o ORDER BY total * -1;
SELECT id, s AS name FROM o ORDER BY LENGTH(name) DESC LIMIT 2;
SELECT id AS n, n AS m FROM o ORDER BY n + 0;
SELECT id AS n, n AS m FROM o ORDER BY n;
SELECT DISTINCT n AS v FROM o ORDER BY v * 2 DESC;
SELECT s, SUM(n) AS total FROM o GROUP BY s ORDER BY total * -1 LIMIT 2;
SELECT LENGTH(s) AS len, COUNT(*) AS c FROM o GROUP BY LENGTH(s) HAVING c > 0 ORDER BY c * 10 - len;
SELECT id FROM o ORDER BY nosuch + 1;
