-- Joins: comma / CROSS / INNER / LEFT / RIGHT / FULL, ON with non-equi parts, USING, NATURAL,
-- NULL keys, duplicates on both sides, empty inputs, three tables, self-joins, joins under
-- GROUP BY / ORDER BY / LIMIT, derived tables, CTEs, name resolution errors. Results reviewed
-- by hand and compared with MariaDB 10.11 (FULL JOIN is Doris-only).
DROP DATABASE IF EXISTS q_join FORCE;
CREATE DATABASE q_join;
USE q_join;
CREATE TABLE a (id INT, k INT, s VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2;
INSERT INTO a VALUES (1, 10, 'x'), (2, 20, 'Y'), (3, 20, NULL), (4, NULL, 'w'), (5, 50, 'x ');
CREATE TABLE b (id INT, k INT, t VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3;
INSERT INTO b VALUES (1, 10, 'p'), (2, 20, 'q'), (3, 20, 'r'), (4, NULL, 's'), (6, 60, 'X'), (7, 10, 'y');
CREATE TABLE c (k INT, name VARCHAR(10)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
INSERT INTO c VALUES (10, 'ten'), (20, 'twenty'), (60, 'sixty'), (NULL, 'null');
CREATE TABLE e (id INT, k INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
CREATE TABLE d (id BIGINT, v DECIMAL(6,2), ks VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO d VALUES (1, 10.00, '10'), (2, 20.50, '20.0'), (3, NULL, 'abc');
-- inner joins: duplicates on both sides multiply, NULL keys never match
SELECT a.id, b.id, a.k FROM a JOIN b ON a.k = b.k ORDER BY 1, 2;
SELECT a.id, b.id FROM a INNER JOIN b ON a.k = b.k AND a.id < b.id ORDER BY 1, 2;
SELECT a.id, b.id FROM a, b WHERE a.k = b.k AND b.t <> 'q' ORDER BY 1, 2;
SELECT COUNT(*) FROM a JOIN b ON a.k = b.k;
-- non-equi and theta joins (nested loop)
SELECT a.id, b.id FROM a JOIN b ON a.k < b.k AND b.id < 3 ORDER BY 1, 2;
SELECT a.id, b.id FROM a JOIN b ON a.k = b.k OR a.id = b.id ORDER BY 1, 2;
-- comma and CROSS JOIN
SELECT COUNT(*), SUM(a.id), SUM(b.id) FROM a, b;
SELECT a.id, c.k FROM a CROSS JOIN c WHERE a.id <= 2 ORDER BY 1, 2;
SELECT a.id, c.name FROM a CROSS JOIN c ON a.k = c.k ORDER BY 1;
-- LEFT / RIGHT: the preserved side's unmatched rows are null-extended
SELECT a.id, a.k, b.id, b.t FROM a LEFT JOIN b ON a.k = b.k ORDER BY 1, 3;
SELECT a.id, b.id FROM a LEFT OUTER JOIN b ON a.k = b.k AND b.t > 'p' ORDER BY 1, 2;
SELECT a.id, b.id, b.t FROM a RIGHT JOIN b ON a.k = b.k ORDER BY 2, 1;
SELECT a.id, b.id FROM a RIGHT OUTER JOIN b ON a.id = b.id AND a.s IS NOT NULL ORDER BY 2;
-- WHERE over an outer join: on the null-extended side it filters after the join
SELECT a.id, b.id FROM a LEFT JOIN b ON a.k = b.k WHERE b.id IS NULL ORDER BY 1;
SELECT a.id, b.id FROM a LEFT JOIN b ON a.k = b.k WHERE a.id > 2 ORDER BY 1, 2;
SELECT a.id, b.id FROM a LEFT JOIN b ON a.k = b.k WHERE b.t = 'q' ORDER BY 1;
SELECT a.id, b.id FROM a RIGHT JOIN b ON a.k = b.k WHERE a.id IS NULL ORDER BY 2;
-- FULL OUTER JOIN (Doris; MySQL and MariaDB have none)
SELECT a.id, b.id FROM a FULL OUTER JOIN b ON a.id = b.id ORDER BY 1, 2;
SELECT a.id, b.id, a.k FROM a FULL JOIN b ON a.k = b.k AND a.id = b.id ORDER BY 1, 2;
SELECT * FROM a FULL JOIN b USING (id) ORDER BY 1;
-- empty sides
SELECT a.id, e.id FROM a JOIN e ON a.id = e.id;
SELECT a.id, e.id FROM a LEFT JOIN e ON a.id = e.id ORDER BY 1;
SELECT a.id, e.id FROM e RIGHT JOIN a ON a.id = e.id ORDER BY 1;
SELECT COUNT(*) FROM a, e;
SELECT COUNT(*), MAX(e.k) FROM e LEFT JOIN a ON a.id = e.id;
-- USING and NATURAL: the common columns once, first, coalesced
SELECT * FROM a JOIN b USING (id) ORDER BY id;
SELECT * FROM a JOIN b USING (id, k) ORDER BY id;
SELECT * FROM a LEFT JOIN c USING (k) ORDER BY id;
SELECT * FROM a RIGHT JOIN c USING (k) ORDER BY k, id;
SELECT k, a.k, c.k FROM a RIGHT JOIN c USING (k) ORDER BY 1, 2;
SELECT * FROM a NATURAL JOIN b ORDER BY id;
SELECT * FROM a NATURAL LEFT JOIN c ORDER BY id;
SELECT a.*, c.* FROM a JOIN c USING (k) ORDER BY a.id;
SELECT id FROM a JOIN b USING (id) WHERE id > 2 ORDER BY id;
-- type coercion of keys: as the = operator compares
SELECT a.id, d.id FROM a JOIN d ON a.k = d.v ORDER BY 1;
SELECT a.id, d.id FROM a JOIN d ON a.k = d.ks ORDER BY 1;
SELECT a.id, b.id FROM a JOIN b ON a.s = b.t ORDER BY 1, 2;
SELECT a.id, d.id FROM a JOIN d ON a.id = d.id ORDER BY 1;
-- three tables, self-joins with aliases
SELECT a.id, b.id, c.name FROM a JOIN b ON a.id = b.id JOIN c ON b.k = c.k ORDER BY 1;
SELECT a.id, b.id, c.name FROM a LEFT JOIN b ON a.id = b.id LEFT JOIN c ON b.k = c.k ORDER BY 1;
SELECT a.id, c.name FROM a, b, c WHERE a.id = b.id AND c.k = a.k AND c.name <> 'ten' ORDER BY 1;
SELECT a.id, b.id, c.k FROM a, b, c WHERE a.k = c.k AND b.k = c.k AND a.id + b.id < 6 ORDER BY 1, 2;
SELECT a.id, b.id FROM a, b LEFT JOIN c ON b.k = c.k WHERE a.id = b.id AND c.k IS NULL ORDER BY 1;
SELECT x.id, y.id FROM a x JOIN a y ON x.k = y.k AND x.id < y.id ORDER BY 1, 2;
SELECT x.id, y.id, z.id FROM a x JOIN a y ON y.id = x.id + 1 JOIN a z ON z.id = y.id + 1 ORDER BY 1;
-- joins under GROUP BY / HAVING / DISTINCT / ORDER BY / LIMIT
SELECT c.name, COUNT(*), SUM(a.id), GROUP_CONCAT(b.t ORDER BY b.t) FROM a JOIN b ON a.k = b.k JOIN c ON c.k = a.k GROUP BY c.name ORDER BY c.name;
SELECT a.k, COUNT(b.id) AS n FROM a LEFT JOIN b ON a.k = b.k GROUP BY a.k HAVING n <> 1 ORDER BY a.k;
SELECT DISTINCT a.k FROM a JOIN b ON a.k = b.k ORDER BY a.k;
SELECT a.id, b.id FROM a JOIN b ON a.k = b.k ORDER BY a.id DESC, b.id LIMIT 2 OFFSET 1;
SELECT a.s, b.t FROM a, b WHERE a.id = b.id ORDER BY b.t DESC LIMIT 3;
-- functional dependence per table: u's other columns depend on its grouped primary key
CREATE TABLE u (id INT, name VARCHAR(10), PRIMARY KEY (id));
INSERT INTO u VALUES (10, 'ten'), (20, 'twenty');
SELECT u.id, u.name, COUNT(*) FROM u JOIN a ON a.k = u.id GROUP BY u.id ORDER BY 1;
SELECT u.id, a.s FROM u JOIN a ON a.k = u.id GROUP BY u.id;
SELECT a.k, COUNT(*) FROM a, b GROUP BY k;
-- derived tables
SELECT * FROM (SELECT id, k * 2 AS k2 FROM a WHERE id < 4) AS t ORDER BY id;
SELECT t.k, t.n FROM (SELECT k, COUNT(*) AS n FROM b GROUP BY k) t WHERE t.n > 1 ORDER BY t.k;
SELECT a.id, t.n FROM a JOIN (SELECT k, COUNT(*) AS n FROM b GROUP BY k) t ON a.k = t.k ORDER BY a.id;
SELECT * FROM (SELECT a.id, b.t FROM a JOIN b USING (id)) j WHERE j.t > 'p' ORDER BY id;
SELECT * FROM (SELECT id FROM a ORDER BY id DESC LIMIT 2) t ORDER BY id;
SELECT * FROM (SELECT 1 AS one, 'z' AS zed) t;
SELECT * FROM (SELECT id, id FROM a) t;
SELECT * FROM (SELECT *) t;
SELECT * FROM (SELECT a.id AS x FROM a) t JOIN b ON t.x = b.id WHERE t.x > 1 AND b.t < 's' ORDER BY x;
-- CTEs, referenced twice; a CTE sees the ones before it
WITH big AS (SELECT id, k FROM a WHERE k >= 20) SELECT x.id, y.id FROM big x JOIN big y ON x.k = y.k AND x.id < y.id ORDER BY 1;
WITH s AS (SELECT k, COUNT(*) AS n FROM b GROUP BY k), t AS (SELECT k FROM s WHERE n > 1) SELECT * FROM t ORDER BY k;
WITH s AS (SELECT 1 AS v) SELECT * FROM s, s AS s2;
WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r;
-- column lists of CTEs and derived tables name their columns (the select items' names may
-- repeat); a count that differs is 1353, a name twice 1060, the items' own names are gone
WITH c (ident, kk) AS (SELECT id, k FROM a WHERE k >= 20) SELECT ident, kk FROM c ORDER BY ident;
WITH c (x, y) AS (SELECT id, id FROM a), e AS (SELECT 1 AS z) SELECT x, y, z FROM c, e WHERE x < 3 ORDER BY x;
SELECT q.p, q.r FROM (SELECT id, k FROM a) AS q (p, r) WHERE q.r >= 20 ORDER BY q.p;
SELECT * FROM (SELECT 1, 2) z (one, two);
WITH w (x) AS (SELECT y + 1 FROM (SELECT k FROM a) d (y)) SELECT MAX(x) FROM w;
WITH c (p) AS (SELECT id, k FROM a) SELECT * FROM c;
SELECT * FROM (SELECT 1, 2) z (p, P);
WITH c (p, q) AS (SELECT id, k FROM a) SELECT id FROM c;
-- parenthesised join trees of inner joins (and commas): the tree's tables join as one input;
-- the outer ON may name any of them. Outer, NATURAL or USING joins of or inside a tree: 1235
SELECT a.id, b.id, c.name FROM a JOIN (b JOIN c ON b.k = c.k) ON a.id = b.id ORDER BY a.id;
SELECT a.id, c.name FROM a INNER JOIN (b INNER JOIN c ON b.k = c.k) ON a.k = c.k AND a.id = b.id ORDER BY 1;
SELECT a.id, b.id, c.name FROM (a, b) JOIN c ON a.id = b.id AND c.k = a.k ORDER BY 1;
SELECT COUNT(*) FROM a, (b, c);
SELECT a.id FROM (a) WHERE a.id < 3 ORDER BY 1;
SELECT x.id, c.name FROM ((a x JOIN b y ON x.id = y.id) JOIN c ON c.k = y.k) WHERE x.id > 1 ORDER BY 1;
SELECT a.id FROM a LEFT JOIN (b JOIN c ON b.k = c.k) ON a.id = b.id;
SELECT a.id FROM a JOIN (b LEFT JOIN c ON b.k = c.k) ON a.id = b.id;
SELECT a.id FROM a JOIN (b JOIN c ON b.k = c.k) USING (id);
-- INSERT ... SELECT from a join
CREATE TABLE r (id INT, name VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO r SELECT a.id, c.name FROM a JOIN c ON a.k = c.k;
SELECT * FROM r ORDER BY id;
-- name resolution errors
SELECT id FROM a, b;
SELECT k FROM a JOIN b ON a.id = b.id;
SELECT a.id FROM a JOIN b ON id = 1;
SELECT a.id FROM a, b WHERE k = 1;
SELECT a.id FROM a, b ORDER BY k;
SELECT zz FROM a, b;
SELECT a.zz FROM a, b;
SELECT * FROM a, a;
SELECT * FROM a x JOIN b x ON 1 = 1;
SELECT * FROM a JOIN b USING (zz);
SELECT * FROM a JOIN b USING (s);
SELECT b.* FROM a x, b y;
SELECT a.id FROM a x;
-- A comma binds looser than JOIN (MySQL): `d, a LEFT JOIN c ON ...` is `d, (a LEFT JOIN c ...)`,
-- which the left-deep list computes alike (3 x 5 rows); a RIGHT or FULL JOIN after a comma
-- would join the tables before the comma too, a different result: refused. CROSS JOIN binds
-- like JOIN, so `d CROSS JOIN a RIGHT JOIN c` is `(d, a) RIGHT JOIN c` (11 rows).
SELECT COUNT(*) FROM d, a LEFT JOIN c ON a.k = c.k;
SELECT a.id, c.name, d.id FROM a RIGHT JOIN c ON a.k = c.k, d WHERE d.id = 1 ORDER BY 1, 2;
SELECT COUNT(*) FROM d, a RIGHT JOIN c ON a.k = c.k;
SELECT COUNT(*) FROM d, a FULL JOIN b ON a.id = b.id;
SELECT COUNT(*) FROM d CROSS JOIN a RIGHT JOIN c ON a.k = c.k;
