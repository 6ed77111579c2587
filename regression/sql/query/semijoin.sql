-- Decorrelation of WHERE [NOT] EXISTS / [NOT] IN subqueries into semi / anti hash joins
-- (plan_semijoin.c): EXPLAIN shows LEFT SEMI JOIN / LEFT ANTI JOIN / NULL AWARE LEFT ANTI
-- JOIN; results equal the per-row evaluation, with SQL's NULL rules for NOT IN (a NULL in the
-- subquery: never TRUE; a NULL operand with a non-empty subquery: never TRUE; an empty
-- subquery: TRUE) per correlation group. Forms that stay with plan_subquery.c (OR, SELECT
-- list, non-equality correlation). Row constructors and row subqueries: (a, b) = (1, 2),
-- (a, b) IN ((..), (..)), (a, b) [NOT] IN (SELECT x, y ...), (a, b) = (SELECT x, y ...), 1241
-- and 1242. Results reviewed by hand against MySQL 8 semantics and compared with MariaDB.
DROP DATABASE IF EXISTS q_semi FORCE;
CREATE DATABASE q_semi;
USE q_semi;
CREATE TABLE o (id INT, k INT, x INT, s VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2;
INSERT INTO o VALUES (1, 1, 10, 'a'), (2, 1, 20, 'B'), (3, 2, 30, 'c'), (4, 3, NULL, 'd'), (5, NULL, 50, NULL), (6, 4, 60, 'f'), (7, 5, 10, 'g');
CREATE TABLE i (id INT, k INT, y INT, s VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3;
INSERT INTO i VALUES (1, 1, 10, 'A'), (2, 1, 11, 'x'), (3, 2, NULL, 'C'), (4, 3, 30, 'y'), (5, NULL, 50, 'z'), (6, 4, 60, NULL), (7, 4, NULL, 'b');
CREATE TABLE e (k INT, y INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
-- EXISTS / NOT EXISTS correlated by equality: semi / anti join
SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.k = o.k) ORDER BY id;
SELECT id FROM o WHERE NOT EXISTS (SELECT 1 FROM i WHERE i.k = o.k) ORDER BY id;
EXPLAIN SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.k = o.k);
EXPLAIN SELECT id FROM o WHERE NOT EXISTS (SELECT * FROM i WHERE o.k = i.k AND i.y > 10);
SELECT id FROM o WHERE NOT EXISTS (SELECT * FROM i WHERE o.k = i.k AND i.y > 10) ORDER BY id;
-- two correlation keys, another conjunct kept inside, and outer conjuncts kept in a FILTER
SELECT id FROM o WHERE x > 10 AND EXISTS (SELECT 1 FROM i WHERE i.k = o.k AND i.y = o.x AND i.id > 0) ORDER BY id;
SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.k = o.k AND i.y = o.x) ORDER BY id;
EXPLAIN SELECT id FROM o WHERE x > 10 AND EXISTS (SELECT 1 FROM i WHERE i.k = o.k AND i.id > 0);
-- case-insensitive string keys (the comparison's collation)
SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.s = o.s) ORDER BY id;
SELECT id FROM o WHERE s IN (SELECT s FROM i) ORDER BY id;
-- uncorrelated EXISTS / NOT EXISTS, over an empty table too
SELECT COUNT(*) FROM o WHERE EXISTS (SELECT 1 FROM i);
SELECT COUNT(*) FROM o WHERE NOT EXISTS (SELECT 1 FROM e);
SELECT COUNT(*) FROM o WHERE EXISTS (SELECT 1 FROM e);
-- IN, uncorrelated and correlated: semi join
SELECT id FROM o WHERE x IN (SELECT y FROM i) ORDER BY id;
SELECT id FROM o WHERE x IN (SELECT y FROM i WHERE i.k = o.k) ORDER BY id;
EXPLAIN SELECT id FROM o WHERE x IN (SELECT y FROM i WHERE i.k = o.k);
SELECT id FROM o WHERE NOT (x NOT IN (SELECT y FROM i)) ORDER BY id;
-- NOT IN: null-aware anti join
SELECT id FROM o WHERE x NOT IN (SELECT y FROM i) ORDER BY id;
SELECT id FROM o WHERE x NOT IN (SELECT y FROM i WHERE y IS NOT NULL) ORDER BY id;
SELECT id FROM o WHERE x NOT IN (SELECT y FROM e) ORDER BY id;
SELECT id FROM o WHERE x NOT IN (SELECT y FROM i WHERE i.k = o.k) ORDER BY id;
SELECT id FROM o WHERE NOT (x IN (SELECT y FROM i WHERE i.k = o.k)) ORDER BY id;
EXPLAIN SELECT id FROM o WHERE x NOT IN (SELECT y FROM i WHERE i.k = o.k);
-- the same predicates per row (select list: not decorrelated) agree
SELECT id, x IN (SELECT y FROM i WHERE i.k = o.k) AS in_k, x NOT IN (SELECT y FROM i WHERE i.k = o.k) AS nin_k, EXISTS (SELECT 1 FROM i WHERE i.k = o.k) AS ex FROM o ORDER BY id;
-- not decorrelated: OR, a non-equality correlation, an aggregate, LIMIT
SELECT id FROM o WHERE id = 7 OR EXISTS (SELECT 1 FROM i WHERE i.k = o.k) ORDER BY id;
EXPLAIN SELECT id FROM o WHERE id = 7 OR EXISTS (SELECT 1 FROM i WHERE i.k = o.k);
SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.k > o.k) ORDER BY id;
EXPLAIN SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.k > o.k);
SELECT id FROM o WHERE EXISTS (SELECT MAX(y) FROM i WHERE i.k = o.k) ORDER BY id;
SELECT id FROM o WHERE x IN (SELECT y FROM i LIMIT 2);
-- several subquery conjuncts, over a join
SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.k = o.k) AND x NOT IN (SELECT y FROM i WHERE y IS NOT NULL) ORDER BY id;
SELECT o.id, i.id FROM o JOIN i ON o.id = i.id WHERE EXISTS (SELECT 1 FROM i i2 WHERE i2.k = o.k AND i2.y = i.y) ORDER BY o.id;
-- inside a derived table and under an aggregate
SELECT COUNT(*), SUM(x) FROM o WHERE k IN (SELECT k FROM i WHERE y > 10);
SELECT d.id FROM (SELECT id, k FROM o WHERE NOT EXISTS (SELECT 1 FROM i WHERE i.k = o.k)) d ORDER BY d.id;
-- a semi join inside a correlated subquery (run once per outer value): hashed once
SELECT id, (SELECT COUNT(*) FROM i WHERE i.k = o.k AND EXISTS (SELECT 1 FROM o o2 WHERE o2.x = i.y)) AS n FROM o ORDER BY id;
-- errors stay those of the per-row path
SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.nope = o.k);
SELECT id FROM o WHERE x IN (SELECT y, k FROM i);
SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i, e WHERE k = o.k);
-- row constructors
SELECT (1, 2) = (1, 2), (1, 2) = (1, 3), (1, NULL) = (1, 2), (1, NULL) = (2, 2), (1, 2) <> (1, 2), (1, NULL) <> (1, 2), (1, NULL) <> (2, 2);
SELECT (1, 2) < (1, 3), (1, NULL) < (2, 1), (NULL, 1) < (2, 3), (1, 2) < (1, NULL), (2, NULL) < (1, 5), (1, 2) <=> (1, 2), (1, NULL) <=> (1, NULL), (1, 2) >= (1, 2);
SELECT (1, 2) IN ((1, 2), (3, 4)), (1, 2) IN ((3, 4), (1, NULL)), (1, 2) NOT IN ((3, 4)), (1, 2) NOT IN ((1, NULL)), (1, 2) IN ((3, 4), (5, 6));
SELECT ROW(1, 2) = (1, 2), ROW(1, 2) IN (ROW(1, 2), (3, 4)), (1, 2) = ROW(1, 3);
SELECT id FROM o WHERE (k, x) = (1, 20);
SELECT id FROM o WHERE (k, x) IN ((1, 10), (2, 30), (3, NULL)) ORDER BY id;
-- row subqueries
SELECT id FROM o WHERE (k, x) IN (SELECT k, y FROM i) ORDER BY id;
EXPLAIN SELECT id FROM o WHERE (k, x) IN (SELECT k, y FROM i);
SELECT id FROM o WHERE (k, x) NOT IN (SELECT k, y FROM i) ORDER BY id;
SELECT id, (k, x) IN (SELECT k, y FROM i) AS r, (k, x) NOT IN (SELECT k, y FROM i WHERE k IS NOT NULL AND y IS NOT NULL) AS nr FROM o ORDER BY id;
SELECT id, (k, x) = (SELECT k, y FROM i WHERE id = 4) AS eq, (k, x) <> (SELECT k, y FROM i WHERE id = 4) AS ne, (k, x) < (SELECT 3, 0) AS lt FROM o ORDER BY id;
SELECT (1, 2) = (SELECT k, y FROM e);
-- errors: column counts (1241), more than one row (1242)
SELECT (1, 2) = (1, 2, 3);
SELECT (1, 2) = 1;
SELECT 1 = (1, 2);
SELECT (1, 2);
SELECT (1, 2) IN (SELECT 1);
SELECT (1, 2) IN ((1, 2), 3);
SELECT (1, 2) = (SELECT k, y FROM i);
SELECT (1, 2) = (SELECT 1, 2, 3);
SELECT id FROM o WHERE (k, x) IN (SELECT k FROM i);
-- exec_mem_limit (bytes) covers the hash table of a semi / anti join and the per-statement
-- cache of a correlated subquery: 16384 distinct keys do not fit in 1000000 bytes (a point
-- query does); after SET back they run
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
INSERT INTO big SELECT k + 4096, v FROM big;
INSERT INTO big SELECT k + 8192, v FROM big;
SET exec_mem_limit = 1000000;
SELECT COUNT(*) FROM big WHERE k < 5;
SELECT COUNT(*) FROM big b WHERE k NOT IN (SELECT k + 1 FROM big);
SELECT COUNT(*) FROM big b WHERE NOT EXISTS (SELECT 1 FROM big c WHERE c.k = b.k + 1);
SELECT SUM((SELECT c.k FROM big c WHERE c.k = b.k AND c.k < 3000)) FROM big b WHERE k < 3000;
SET exec_mem_limit = DEFAULT;
SELECT COUNT(*) FROM big b WHERE k NOT IN (SELECT k + 1 FROM big);
SELECT COUNT(*) FROM big b WHERE NOT EXISTS (SELECT 1 FROM big c WHERE c.k = b.k + 1);
SELECT COUNT(*) FROM big b WHERE k IN (SELECT k * 2 FROM big);
DROP DATABASE q_semi FORCE;
