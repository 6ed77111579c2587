-- Doris statistics aggregates: NDV / APPROX_COUNT_DISTINCT (exact distinct counts), PERCENTILE /
-- PERCENTILE_APPROX / MEDIAN (exact, linear interpolation at (n - 1) * p, DOUBLE), MAX_BY /
-- MIN_BY, AVG_WEIGHTED; with and without GROUP BY, HAVING, NULLs, empty input, many groups,
-- errors. Expected values were recomputed independently (python) from the same data.
CREATE TABLE t (id INT, g VARCHAR(10), x INT, y DOUBLE, dc DECIMAL(10,2), s VARCHAR(10), w DOUBLE) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3;
INSERT INTO t VALUES (1, 'a', 1, 1.5, 1.25, 'p', 1), (2, 'a', 2, 2.5, NULL, 'q', 2), (3, 'a', 3, NULL, 3.75, 'r', 0.5), (4, 'a', 4, 4.5, 4.00, NULL, 1), (5, 'b', 10, NULL, 10.00, 'z', 3), (6, 'b', NULL, -1.5, NULL, 'y', NULL), (7, 'c', NULL, NULL, NULL, NULL, NULL), (8, 'd', 7, 7.25, 7.25, 'm', 2), (9, 'b', 9, 2.0, 0.50, 'Z', 1);
CREATE TABLE e (id INT, g VARCHAR(10), x INT, y DOUBLE) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
-- NDV and APPROX_COUNT_DISTINCT are exact: the same as COUNT(DISTINCT), NULLs ignored, strings
-- compared as GROUP BY compares them ('z' = 'Z')
SELECT NDV(x), APPROX_COUNT_DISTINCT(x), COUNT(DISTINCT x), NDV(s), APPROX_COUNT_DISTINCT(s), NDV(y), NDV(dc) FROM t;
SELECT ndv(g), Ndv(x + 1), APPROX_COUNT_DISTINCT(x % 3) FROM t;
-- percentiles without GROUP BY: x is 1 2 3 4 7 9 10
SELECT PERCENTILE(x, 0.5), MEDIAN(x), PERCENTILE(x, 0), PERCENTILE(x, 1), PERCENTILE(x, 0.25), PERCENTILE(x, 0.9) FROM t;
SELECT PERCENTILE_APPROX(x, 0.75), PERCENTILE_APPROX(x, 0.75, 2048), PERCENTILE_APPROX(x, 0.1, 99999) FROM t;
-- DOUBLE and DECIMAL arguments (an even count: the median interpolates)
SELECT MEDIAN(y), PERCENTILE(y, 0.1), PERCENTILE(y, 0.8), MEDIAN(dc), PERCENTILE(dc, 0.75) FROM t;
-- even and odd counts, one row
SELECT MEDIAN(x) FROM t WHERE id <= 4;
SELECT MEDIAN(x) FROM t WHERE id <= 3;
SELECT MEDIAN(x), PERCENTILE(x, 0), PERCENTILE(x, 0.37), PERCENTILE(x, 1) FROM t WHERE id = 8;
-- empty input and all-NULL input: NULL (NDV 0)
SELECT NDV(x), APPROX_COUNT_DISTINCT(y), MEDIAN(x), PERCENTILE(y, 0.3), PERCENTILE_APPROX(x, 0.5), MAX_BY(x, y), MIN_BY(x, y), AVG_WEIGHTED(x, y) FROM e;
SELECT g, NDV(x), MEDIAN(x) FROM e GROUP BY g;
SELECT NDV(x), MEDIAN(x), PERCENTILE(y, 0.5), MAX_BY(id, x), AVG_WEIGHTED(x, w) FROM t WHERE g = 'c';
-- GROUP BY
SELECT g, NDV(x), MEDIAN(x), PERCENTILE(y, 0.5), PERCENTILE_APPROX(x, 0.25), MAX_BY(s, x), MIN_BY(s, x), AVG_WEIGHTED(x, w) FROM t GROUP BY g ORDER BY g;
SELECT g, COUNT(*), COUNT(DISTINCT x), NDV(x), APPROX_COUNT_DISTINCT(s), MEDIAN(x), SUM(x) FROM t GROUP BY g ORDER BY g;
-- HAVING, ORDER BY an aggregate, expressions over aggregates
SELECT g, MEDIAN(x) AS m FROM t GROUP BY g HAVING MEDIAN(x) > 2 ORDER BY g;
SELECT g FROM t GROUP BY g HAVING PERCENTILE(x, 1) >= 9 AND NDV(s) > 1 ORDER BY g;
SELECT g, NDV(x) AS n FROM t GROUP BY g ORDER BY MEDIAN(x) DESC, g;
SELECT MEDIAN(x) * 2 + 1, NDV(x) - COUNT(DISTINCT x), PERCENTILE(x, 0.5) = MEDIAN(x) FROM t;
-- expressions as arguments; a constant level may be an expression; a NULL level gives NULL
SELECT MEDIAN(x * 2), PERCENTILE(x + y, 0.5), PERCENTILE(x, 1 / 4), PERCENTILE(x, 0.5 * 0.5) FROM t;
SELECT PERCENTILE(x, NULL), PERCENTILE_APPROX(x, NULL) FROM t;
-- DISTINCT inside the percentile: 10 9 and 4 3 2 1 7 counted once each
SELECT PERCENTILE(DISTINCT x, 0.5), MEDIAN(DISTINCT dc), NDV(DISTINCT x) FROM t;
-- MAX_BY / MIN_BY: the value at the largest / smallest key; rows with a NULL value or key skipped
SELECT MAX_BY(s, x), MIN_BY(s, x), MAX_BY(id, y), MIN_BY(id, y), MIN_BY(x, s), MIN_BY(y, dc) FROM t;
SELECT MAX_BY(g, id), MIN_BY(dc, id), MAX_BY(y, x) FROM t WHERE id > 1;
-- AVG_WEIGHTED: sum(x * w) / sum(w) over rows where both are non-NULL
SELECT AVG_WEIGHTED(x, w), AVG_WEIGHTED(y, w), AVG_WEIGHTED(dc, 1), AVG_WEIGHTED(x, 0) FROM t;
-- the level is checked against [0, 1] when a group gets its first value (as Doris): an empty
-- input is NULL whatever the level
SELECT PERCENTILE(x, 1.5) FROM t;
SELECT PERCENTILE(x, -0.1) FROM t;
SELECT PERCENTILE_APPROX(x, 2) FROM t;
SELECT g, PERCENTILE(x, 1.01) FROM t GROUP BY g;
SELECT PERCENTILE(x, 1.5), MEDIAN(x) FROM e;
-- the level (and the compression) must be constants
SELECT PERCENTILE(x, x / 10) FROM t;
SELECT PERCENTILE_APPROX(x, 0.5, id) FROM t;
SELECT PERCENTILE(x, (SELECT 0.5)) FROM t;
-- argument counts
SELECT PERCENTILE(x) FROM t;
SELECT MEDIAN(x, 0.5) FROM t;
SELECT PERCENTILE_APPROX(x, 0.5, 100, 1) FROM t;
SELECT NDV(x, y) FROM t;
SELECT NDV(*) FROM t;
SELECT MAX_BY(x) FROM t;
SELECT MIN_BY(x, y, id) FROM t;
SELECT AVG_WEIGHTED(x) FROM t;
-- aggregates where none may be, nested aggregates, window use
SELECT id FROM t WHERE MEDIAN(x) > 1;
SELECT MEDIAN(NDV(x)) FROM t;
SELECT g, COUNT(*) FROM t GROUP BY MEDIAN(x);
SELECT id, MEDIAN(x) OVER (PARTITION BY g) FROM t;
SELECT id, NDV(x) OVER () FROM t;
-- EXPLAIN names NDV as the COUNT(DISTINCT) it is computed as, and shows the level
EXPLAIN SELECT g, NDV(x), PERCENTILE(x, 0.9), MEDIAN(y), MAX_BY(s, x) FROM t GROUP BY g;
-- many groups: 4096 rows, v = k * 37 % 101
CREATE TABLE big (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 4;
INSERT INTO big VALUES (1, 37), (2, 74), (3, 10), (4, 47), (5, 84), (6, 20), (7, 57), (8, 94);
INSERT INTO big SELECT k + 8, (k + 8) * 37 % 101 FROM big;
INSERT INTO big SELECT k + 16, (k + 16) * 37 % 101 FROM big;
INSERT INTO big SELECT k + 32, (k + 32) * 37 % 101 FROM big;
INSERT INTO big SELECT k + 64, (k + 64) * 37 % 101 FROM big;
INSERT INTO big SELECT k + 128, (k + 128) * 37 % 101 FROM big;
INSERT INTO big SELECT k + 256, (k + 256) * 37 % 101 FROM big;
INSERT INTO big SELECT k + 512, (k + 512) * 37 % 101 FROM big;
INSERT INTO big SELECT k + 1024, (k + 1024) * 37 % 101 FROM big;
INSERT INTO big SELECT k + 2048, (k + 2048) * 37 % 101 FROM big;
SELECT COUNT(*), NDV(v), COUNT(DISTINCT v), MEDIAN(v), PERCENTILE(v, 0.99), PERCENTILE_APPROX(v, 0.01), MAX_BY(k, v * 4096 + k), MIN_BY(k, v * 4096 + k), AVG_WEIGHTED(v, k % 3) FROM big;
SELECT k % 100 AS gk, COUNT(*), NDV(v), MEDIAN(v), PERCENTILE(v, 0.9), MAX_BY(v, k), MIN_BY(v, k), AVG_WEIGHTED(v, k % 3) FROM big GROUP BY gk ORDER BY gk LIMIT 5;
SELECT COUNT(*), SUM(n), ROUND(SUM(m), 6), ROUND(SUM(p9), 6), SUM(mx) FROM (SELECT k % 100 AS gk, NDV(v) AS n, MEDIAN(v) AS m, PERCENTILE(v, 0.9) AS p9, MAX_BY(v, k) AS mx FROM big GROUP BY gk) q;
SELECT COUNT(*) FROM (SELECT k % 100 AS gk FROM big GROUP BY gk HAVING MEDIAN(v) > 50) q;
-- a string key and a DOUBLE key (the general hash path), a key per row
SELECT CONCAT('g', k % 7) AS sk, NDV(v), MEDIAN(v), PERCENTILE(v, 0.25) FROM big GROUP BY sk ORDER BY sk;
SELECT k % 5 * 1.5 AS dk, COUNT(DISTINCT v), NDV(v), MEDIAN(k) FROM big GROUP BY dk ORDER BY dk;
SELECT COUNT(*), SUM(m), SUM(n) FROM (SELECT k, MEDIAN(v) AS m, NDV(v) AS n FROM big GROUP BY k) q;
-- exec_mem_limit (bytes) covers the values the percentiles keep: 65536 rows
INSERT INTO big SELECT k + 4096, v FROM big;
INSERT INTO big SELECT k + 8192, v FROM big;
INSERT INTO big SELECT k + 16384, v FROM big;
INSERT INTO big SELECT k + 32768, v FROM big;
SET exec_mem_limit = 2000000;
SELECT COUNT(*), SUM(v), NDV(v), MAX_BY(k, v * 65536 + k) FROM big;
SELECT MEDIAN(k), MEDIAN(v), MEDIAN(k + v), MEDIAN(k * v) FROM big;
SELECT k % 100 AS gk, MEDIAN(k), MEDIAN(v), MEDIAN(k + v), MEDIAN(k * v) FROM big GROUP BY gk;
SET exec_mem_limit = DEFAULT;
SELECT MEDIAN(k), MEDIAN(v), MEDIAN(k + v), MEDIAN(k * v), PERCENTILE(k * v, 0.999) FROM big;
