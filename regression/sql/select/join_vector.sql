-- The vectorized hash join (planner/plan_join.c): probe keys evaluated and hashed a batch at a
-- time, the build side stored column-wise, output gathered column by column. Covers NULL keys on
-- either side, outer joins whose residual decides the match, string keys equal by
-- utf8mb4_general_ci (case, accents, trailing blanks) or by _bin collation, numeric keys of
-- different kinds, key expressions (vectorized and row path), all-NULL columns, empty inputs,
-- the build side on either input, and output batches of 1 to 3 rows that split chains.
-- Results reviewed by hand.
DROP DATABASE IF EXISTS s_join_vector FORCE;
CREATE DATABASE s_join_vector;
USE s_join_vector;
CREATE TABLE p (id INT, k INT, s VARCHAR(10), v DECIMAL(6,2)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2;
INSERT INTO p VALUES (1, 1, 'abc', 1.50), (2, 2, 'ABC ', 2.00), (3, 2, 'café', NULL), (4, NULL, 'x', 4.00),
  (5, 5, NULL, 5.25), (6, 7, 'CAFE', 6.00), (7, 1, 'b', 7.00), (8, 9, 'Ä', 8.00);
CREATE TABLE q (id INT, k INT, t VARCHAR(10), w INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO q VALUES (10, 1, 'ABC', 100), (11, 2, 'cafe', 200), (12, 2, 'zz', NULL), (13, NULL, 'a', 300),
  (14, 7, NULL, 400), (15, 8, 'abc  ', 500);
CREATE TABLE e (id INT, k INT, t VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
CREATE TABLE n (id BIGINT, d DECIMAL(10,3), f DOUBLE, dt DATE, ts DATETIME) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO n VALUES (1, 1.000, 1.0, '2024-01-01', '2024-01-01 00:00:00'), (2, 2.500, 2.5, '2024-01-02', '2024-01-02 10:00:00'),
  (7, 7.000, -0.0, NULL, '2024-01-03 00:00:00'), (9, NULL, 9.0, '2024-01-03', NULL);
-- NULL keys never match, on either side; duplicates multiply
SELECT p.id, q.id FROM p JOIN q ON p.k = q.k ORDER BY 1, 2;
SELECT COUNT(*), SUM(p.id), SUM(q.w) FROM p JOIN q ON p.k = q.k;
SELECT p.id, q.id FROM p LEFT JOIN q ON p.k = q.k ORDER BY 1, 2;
SELECT p.id, q.id FROM p RIGHT JOIN q ON p.k = q.k ORDER BY 2, 1;
SELECT p.id, q.id FROM p FULL JOIN q ON p.k = q.k ORDER BY 1, 2;
-- outer joins whose residual decides the match: a candidate that fails it does not count
SELECT p.id, q.id, q.w FROM p LEFT JOIN q ON p.k = q.k AND q.w > 150 ORDER BY 1, 2;
SELECT p.id, q.id FROM p RIGHT JOIN q ON p.k = q.k AND p.v >= 2 ORDER BY 2, 1;
SELECT p.id, q.id FROM p FULL JOIN q ON p.k = q.k AND p.s = q.t ORDER BY 1, 2;
SELECT p.id, q.id FROM p LEFT JOIN q ON p.k = q.k AND q.w IS NULL ORDER BY 1, 2;
SELECT p.id, q.id FROM p LEFT JOIN q ON p.k = q.k WHERE q.id IS NULL ORDER BY 1;
-- string keys: utf8mb4_general_ci ignores case, accents and trailing blanks
SELECT p.id, p.s, q.id, q.t FROM p JOIN q ON p.s = q.t ORDER BY 1, 3;
SELECT p.id, q.id FROM p LEFT JOIN q ON p.s = q.t ORDER BY 1, 2;
SELECT p.id, q.id FROM p JOIN q ON RTRIM(p.s) = RTRIM(q.t) COLLATE utf8mb4_bin ORDER BY 1, 2;
SELECT p.id, q.id FROM p JOIN q ON p.k = q.k AND p.s = q.t ORDER BY 1, 2;
SELECT MIN(q.id), COUNT(*) FROM p JOIN q ON p.s = q.t GROUP BY q.t ORDER BY 1;
-- numeric keys of different kinds compare as the = operator does
SELECT p.id, n.id FROM p JOIN n ON p.k = n.id ORDER BY 1, 2;
SELECT p.id, n.id FROM p JOIN n ON p.v = n.d ORDER BY 1, 2;
SELECT p.id, n.id FROM p JOIN n ON p.k = n.d ORDER BY 1, 2;
SELECT p.id, n.id FROM p JOIN n ON p.v = n.f ORDER BY 1, 2;
SELECT a.id, b.id FROM n a JOIN n b ON a.f = b.f * 0 ORDER BY 1, 2;
SELECT a.id, b.id FROM n a JOIN n b ON a.dt = b.ts ORDER BY 1, 2;
-- key expressions: vectorized arithmetic, and functions on the row path
SELECT p.id, q.id FROM p JOIN q ON p.k + 1 = q.k ORDER BY 1, 2;
SELECT p.id, q.id FROM p JOIN q ON ABS(p.k - 3) = q.k - 1 ORDER BY 1, 2;
SELECT p.id, q.id FROM p JOIN q ON LOWER(p.s) = q.t ORDER BY 1, 2;
SELECT p.id, q.id FROM p JOIN q ON CONCAT(p.s, '') = q.t AND p.k = q.k ORDER BY 1, 2;
-- a column that is NULL on every row, and columns the query does not read
SELECT x.id, x.z, q.id FROM (SELECT id, k, NULL AS z FROM p) x JOIN q ON x.k = q.k ORDER BY 1, 3;
SELECT q.id, x.z FROM q LEFT JOIN (SELECT k, NULL AS z FROM p) x ON x.k = q.k ORDER BY 1, 2;
SELECT COUNT(*) FROM p JOIN q ON p.k = q.k;
-- empty build side, empty probe side
SELECT p.id, e.id FROM p JOIN e ON p.k = e.k;
SELECT p.id, e.id FROM p LEFT JOIN e ON p.k = e.k ORDER BY 1;
SELECT p.id, e.id, e.t FROM e RIGHT JOIN p ON p.k = e.k ORDER BY 1;
SELECT p.id, e.id FROM e FULL JOIN p ON p.k = e.k AND e.t = p.s ORDER BY 1;
SELECT COUNT(*), MAX(p.id) FROM e LEFT JOIN p ON p.k = e.k;
-- output batches of 1, 2 and 3 rows: chains and null-extended rows split across batches
SELECT /*+ SET_VAR(batch_size=1) */ p.id, q.id FROM p JOIN q ON p.k = q.k ORDER BY 1, 2;
SELECT /*+ SET_VAR(batch_size=1) */ p.id, q.id FROM p FULL JOIN q ON p.k = q.k AND q.w > 150 ORDER BY 1, 2;
SELECT /*+ SET_VAR(batch_size=2) */ p.id, p.s, q.id, q.t FROM p LEFT JOIN q ON p.s = q.t ORDER BY 1, 3;
SELECT /*+ SET_VAR(batch_size=3) */ a.id, b.id FROM p a JOIN p b ON a.k = b.k ORDER BY 1, 2;
SELECT /*+ SET_VAR(batch_size=1) */ a.id, b.id FROM q a JOIN q b ON a.t = b.t COLLATE utf8mb4_bin ORDER BY 1, 2;
-- the build side on either input: a larger table makes the other one the build side
CREATE TABLE big (id INT, k INT, g VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 4;
INSERT INTO big SELECT a.id * 10 + b.id, (a.id * 10 + b.id) % 12, CONCAT('g', (a.id + b.id) % 3) FROM p a, p b;
INSERT INTO big SELECT id + 100, NULL, NULL FROM big WHERE id < 30;
SELECT COUNT(*) FROM big;
SELECT q.id, COUNT(big.id), SUM(big.id) FROM big RIGHT JOIN q ON big.k = q.k GROUP BY q.id ORDER BY 1;
SELECT q.id, COUNT(big.id) FROM q LEFT JOIN big ON big.k = q.k GROUP BY q.id ORDER BY 1;
SELECT big.g, q.t, COUNT(*) FROM big JOIN q ON big.k = q.k GROUP BY big.g, q.t ORDER BY 1, 2;
SELECT COUNT(*), COUNT(q.id), SUM(big.id) FROM big LEFT JOIN q ON big.k = q.k AND q.w <> 200;
SELECT /*+ SET_VAR(batch_size=1) */ COUNT(*), COUNT(q.id), SUM(big.id) FROM big LEFT JOIN q ON big.k = q.k AND q.w <> 200;
SELECT COUNT(*), COUNT(big.id), COUNT(q.id) FROM big FULL JOIN q ON big.k = q.k;
-- a string key shared by many build rows (interned) still groups as general_ci
SELECT q.t, COUNT(*) FROM big JOIN q ON big.g = 'g1' AND big.k = q.k GROUP BY q.t ORDER BY 1;
SELECT big.g, COUNT(*) FROM q JOIN big ON big.k = q.k GROUP BY big.g ORDER BY 1;
SELECT big.g, COUNT(*), SUM(x.k) FROM (SELECT a.k FROM big a, p b) x JOIN big ON big.k = x.k GROUP BY big.g ORDER BY 1;
DROP DATABASE s_join_vector FORCE;
