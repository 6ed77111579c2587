-- Window functions: ROW_NUMBER, RANK, DENSE_RANK, LAG, LEAD, COUNT / SUM / AVG / MIN / MAX OVER
-- (PARTITION BY ... ORDER BY ... frame), MySQL 8 semantics: default frame with ORDER BY is RANGE
-- UNBOUNDED PRECEDING .. CURRENT ROW (peers included), without ORDER BY the whole partition.
-- Every query orders its whole output. Results reviewed against MySQL 8 semantics.
DROP DATABASE IF EXISTS q_win FORCE;
CREATE DATABASE q_win;
USE q_win;
CREATE TABLE t (id INT, g VARCHAR(10), n INT, d DOUBLE, dc DECIMAL(10,2)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3;
INSERT INTO t VALUES (1, 'a', 10, 1.5, 1.25), (2, 'a', 20, 2.5, 2.50), (3, 'a', 20, NULL, 3.75), (4, 'b', NULL, 4.0, NULL), (5, 'b', 50, 5.0, 5.00), (6, NULL, 60, NULL, 6.00), (7, NULL, NULL, 7.0, 0.01), (8, 'b', 30, 1.0, 3.75);
CREATE TABLE e (id INT, g VARCHAR(10), n INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
-- ranking: ties share RANK (with gaps) and DENSE_RANK (without)
SELECT id, n, ROW_NUMBER() OVER (ORDER BY n, id) AS rn, RANK() OVER (ORDER BY n) AS r, DENSE_RANK() OVER (ORDER BY n) AS dr FROM t ORDER BY id;
SELECT id, g, n, ROW_NUMBER() OVER (PARTITION BY g ORDER BY n DESC, id) AS rn, RANK() OVER (PARTITION BY g ORDER BY n DESC) AS r FROM t ORDER BY g, id;
SELECT id, ROW_NUMBER() OVER () AS rn FROM t WHERE id < 2 ORDER BY id;
SELECT id, RANK() OVER () AS r, DENSE_RANK() OVER (PARTITION BY g) AS dr FROM t ORDER BY id;
-- NULL partition is one partition; NULL order keys sort first (ASC) / last (DESC)
SELECT id, g, n, RANK() OVER (PARTITION BY g ORDER BY n) AS r, DENSE_RANK() OVER (ORDER BY n DESC) AS dr FROM t ORDER BY id;
-- LAG / LEAD with offsets and defaults, partitioned
SELECT id, n, LAG(n) OVER (ORDER BY id) AS l1, LEAD(n) OVER (ORDER BY id) AS d1, LAG(n, 2) OVER (ORDER BY id) AS l2, LEAD(n, 2, -1) OVER (ORDER BY id) AS d2, LAG(id, 0) OVER (ORDER BY id) AS l0 FROM t ORDER BY id;
SELECT id, g, LAG(id, 1, 0) OVER (PARTITION BY g ORDER BY id) AS prev, LEAD(id) OVER (PARTITION BY g ORDER BY id) AS nxt FROM t ORDER BY id;
SELECT id, LAG(g, 1, 'none') OVER (ORDER BY id) AS pg FROM t ORDER BY id;
-- aggregates: default frames (peers included with ORDER BY, whole partition without)
SELECT id, g, n, SUM(n) OVER (PARTITION BY g) AS s, COUNT(*) OVER (PARTITION BY g) AS c, COUNT(n) OVER (PARTITION BY g) AS cn, AVG(n) OVER (PARTITION BY g) AS a, MIN(n) OVER (PARTITION BY g) AS mi, MAX(n) OVER (PARTITION BY g) AS ma FROM t ORDER BY id;
SELECT id, n, SUM(n) OVER (ORDER BY n) AS s, COUNT(*) OVER (ORDER BY n) AS c, AVG(n) OVER (ORDER BY n) AS a FROM t ORDER BY id;
SELECT id, SUM(d) OVER (ORDER BY id) AS sd, AVG(d) OVER () AS ad, SUM(dc) OVER (ORDER BY id) AS sdc, AVG(dc) OVER () AS adc, MAX(g) OVER () AS mg FROM t ORDER BY id;
-- ROWS frames
SELECT id, n, SUM(n) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s3, COUNT(*) OVER (ORDER BY id ROWS 2 PRECEDING) AS c3, SUM(n) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest FROM t ORDER BY id;
SELECT id, n, MIN(n) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) AS mf, MAX(n) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS mp, SUM(n) OVER (ORDER BY n, id ROWS UNBOUNDED PRECEDING) AS run FROM t ORDER BY id;
SELECT id, g, SUM(id) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS s FROM t ORDER BY id;
-- RANGE frames: peers
SELECT id, n, COUNT(*) OVER (ORDER BY n RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS c, SUM(n) OVER (ORDER BY n RANGE CURRENT ROW) AS peers FROM t ORDER BY id;
-- window results in expressions and in ORDER BY
SELECT id, n - LAG(n) OVER (ORDER BY id) AS delta, 100 * n / SUM(n) OVER () AS pct FROM t ORDER BY id;
SELECT id, n FROM t ORDER BY ROW_NUMBER() OVER (ORDER BY n DESC, id DESC);
SELECT id, ROW_NUMBER() OVER (ORDER BY id DESC) AS rn FROM t ORDER BY rn LIMIT 3;
-- in a derived table: the first row per group
SELECT g, id, n FROM (SELECT g, id, n, ROW_NUMBER() OVER (PARTITION BY g ORDER BY n DESC, id) AS rn FROM t) x WHERE rn = 1 ORDER BY g;
-- empty input
SELECT id, ROW_NUMBER() OVER (ORDER BY id), SUM(n) OVER () FROM e;
SELECT id, RANK() OVER (ORDER BY id) FROM t WHERE id > 100;
-- with GROUP BY: windows over the groups (aggregates as arguments)
SELECT g, SUM(n) AS s, RANK() OVER (ORDER BY SUM(n) DESC) AS r, SUM(SUM(n)) OVER () AS total, COUNT(*) OVER () AS ngroups FROM t GROUP BY g ORDER BY g;
SELECT g, COUNT(*) AS c, LAG(COUNT(*)) OVER (ORDER BY g) AS prev FROM t GROUP BY g HAVING COUNT(*) > 1 ORDER BY g;
SELECT COUNT(*), ROW_NUMBER() OVER () FROM t;
-- window functions are not allowed in WHERE, GROUP BY, HAVING (3593)
SELECT id FROM t WHERE ROW_NUMBER() OVER (ORDER BY id) > 2;
SELECT COUNT(*) FROM t GROUP BY RANK() OVER (ORDER BY id);
SELECT g FROM t GROUP BY g HAVING SUM(COUNT(*)) OVER () > 1;
SELECT id FROM t WHERE SUM(n) OVER () > 1;
-- unknown window function and bad LAG offset
SELECT NTILE(2) OVER (ORDER BY id) FROM t;
SELECT LAG(n, -1) OVER (ORDER BY id) FROM t;
DROP DATABASE q_win FORCE;
