-- Subqueries in expressions: scalar, [NOT] IN, [NOT] EXISTS, ANY / SOME / ALL; uncorrelated
-- and correlated (one level and two), NULLs on both sides of IN / NOT IN, empty subqueries,
-- subqueries over joins and aggregates, in WHERE / select list / HAVING / ORDER BY, errors
-- 1241 / 1242 / 1054, INSERT ... SELECT, UPDATE / DELETE ... WHERE. Results reviewed by hand
-- against MySQL 8 semantics.
DROP DATABASE IF EXISTS q_subq FORCE;
CREATE DATABASE q_subq;
USE q_subq;
CREATE TABLE t1 (id INT, a INT, s VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2;
INSERT INTO t1 VALUES (1, 10, 'x'), (2, 20, 'Y'), (3, 20, NULL), (4, NULL, 'w'), (5, 50, 'z');
CREATE TABLE t2 (id INT, b INT, t VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3;
INSERT INTO t2 VALUES (1, 10, 'p'), (2, 20, 'q'), (3, 20, 'y'), (4, NULL, 'X'), (6, 60, 'r');
CREATE TABLE t3 (k INT, c INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
INSERT INTO t3 VALUES (10, 1), (20, 2), (60, 6);
CREATE TABLE e (id INT, v INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
CREATE TABLE n (id INT, v INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO n VALUES (1, NULL);
-- scalar subqueries: select list, WHERE, no row is NULL, without FROM
SELECT id, (SELECT MAX(b) FROM t2) AS mx FROM t1 ORDER BY id;
SELECT id FROM t1 WHERE a = (SELECT MIN(b) FROM t2) ORDER BY id;
SELECT id FROM t1 WHERE a > (SELECT AVG(b) FROM t2) ORDER BY id;
SELECT (SELECT v FROM e) IS NULL, (SELECT 1), (SELECT (SELECT 2) + 1);
SELECT id, (SELECT v FROM e) FROM t1 ORDER BY id;
SELECT (SELECT b FROM t2 WHERE id = 6) * 2, (SELECT t FROM t2 WHERE id = 2);
-- errors: more than one row (1242), more than one column (1241), unknown column (1054)
SELECT (SELECT b FROM t2) FROM t1;
SELECT id FROM t1 WHERE a = (SELECT b FROM t2 WHERE b > 15);
SELECT (SELECT b, t FROM t2 WHERE id = 1);
SELECT id FROM t1 WHERE a IN (SELECT b, t FROM t2);
SELECT (SELECT nope FROM t2 WHERE id = 1);
SELECT id FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.b = t1.nope);
SELECT id FROM t1 WHERE a IN (SELECT b FROM t2 WHERE zz = 1);
SELECT id FROM t1 WHERE a IN (SELECT b FROM t2 LIMIT 1);
SELECT (a, s) IN (SELECT b, t FROM t2) FROM t1;
-- one row is fine even when the query could return more
SELECT (SELECT b FROM t2 WHERE b > 15 ORDER BY b DESC LIMIT 1);
-- IN / NOT IN, uncorrelated; NULLs on both sides
SELECT id, a FROM t1 WHERE a IN (SELECT b FROM t2) ORDER BY id;
SELECT id, a FROM t1 WHERE a NOT IN (SELECT b FROM t2) ORDER BY id;
SELECT id, a FROM t1 WHERE a NOT IN (SELECT b FROM t2 WHERE b IS NOT NULL) ORDER BY id;
SELECT id, a, a IN (SELECT b FROM t2), a NOT IN (SELECT b FROM t2) FROM t1 ORDER BY id;
SELECT id, a, a IN (SELECT k FROM t3), a NOT IN (SELECT k FROM t3) FROM t1 ORDER BY id;
SELECT id, a IN (SELECT v FROM e), a NOT IN (SELECT v FROM e) FROM t1 ORDER BY id;
SELECT id, a IN (SELECT v FROM n), a NOT IN (SELECT v FROM n) FROM t1 ORDER BY id;
SELECT NULL IN (SELECT v FROM e), NULL NOT IN (SELECT v FROM e), NULL IN (SELECT k FROM t3);
SELECT s, s IN (SELECT t FROM t2) FROM t1 ORDER BY id;
SELECT '20' IN (SELECT b FROM t2), 20.0 IN (SELECT b FROM t2), 'abc' IN (SELECT b FROM t2);
-- EXISTS / NOT EXISTS
SELECT EXISTS (SELECT 1 FROM e), NOT EXISTS (SELECT 1 FROM e), EXISTS (SELECT * FROM n);
SELECT id FROM t1 WHERE EXISTS (SELECT 1 FROM t3 WHERE c > 5) ORDER BY id;
SELECT id FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t3 WHERE c > 50) ORDER BY id;
-- correlated: EXISTS / NOT EXISTS / IN / NOT IN / scalar
SELECT id FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.b = t1.a) ORDER BY id;
SELECT id FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 WHERE t2.b = t1.a) ORDER BY id;
SELECT id, (SELECT COUNT(*) FROM t2 WHERE t2.b = t1.a) AS cnt FROM t1 ORDER BY id;
SELECT id, (SELECT MAX(t2.id) FROM t2 WHERE t2.b <= t1.a) AS m FROM t1 ORDER BY id;
SELECT id, a FROM t1 WHERE a IN (SELECT b FROM t2 WHERE t2.id <> t1.id) ORDER BY id;
SELECT id, a FROM t1 WHERE a NOT IN (SELECT b FROM t2 WHERE t2.id < t1.id) ORDER BY id;
SELECT id, s, (SELECT t FROM t2 WHERE t2.id = t1.id) FROM t1 ORDER BY id;
SELECT id FROM t1 WHERE (SELECT t FROM t2 WHERE t2.id = t1.id) IS NULL ORDER BY id;
-- the inner name wins over the outer one; qualified names reach the outer table
SELECT id FROM t1 WHERE id IN (SELECT id FROM t2) ORDER BY id;
SELECT id, (SELECT COUNT(*) FROM t2 WHERE id = t1.id) FROM t1 ORDER BY id;
SELECT id, (SELECT COUNT(*) FROM t2 WHERE t2.id > a / 10) FROM t1 ORDER BY id;
-- correlated more than one row per outer row: 1242
SELECT id, (SELECT b FROM t2 WHERE t2.b = t1.a) FROM t1 ORDER BY id;
-- two levels: the innermost reads the outermost query
SELECT id FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.id = t1.id AND EXISTS (SELECT 1 FROM t3 WHERE t3.k = t1.a)) ORDER BY id;
SELECT id, (SELECT (SELECT c FROM t3 WHERE t3.k = t1.a) + t2.id FROM t2 WHERE t2.id = t1.id) FROM t1 ORDER BY id;
-- ANY / SOME / ALL
SELECT id, a, a > ANY (SELECT b FROM t2), a > ALL (SELECT k FROM t3), a = SOME (SELECT k FROM t3), a <> ALL (SELECT k FROM t3) FROM t1 ORDER BY id;
SELECT 5 < ALL (SELECT v FROM e), 5 < ANY (SELECT v FROM e), 5 < ALL (SELECT v FROM n), 5 < ANY (SELECT v FROM n);
SELECT 100 > ALL (SELECT b FROM t2), 5 > ALL (SELECT b FROM t2), 100 > ANY (SELECT b FROM t2), 5 >= ANY (SELECT b FROM t2);
-- over joins and aggregates
SELECT t1.id, t2.id FROM t1 JOIN t2 ON t1.id = t2.id WHERE t2.b IN (SELECT k FROM t3) ORDER BY 1;
SELECT t1.id, t2.id FROM t1, t2 WHERE t1.id = t2.id AND EXISTS (SELECT 1 FROM t3 WHERE t3.k = t2.b AND t3.k = t1.a) ORDER BY 1;
SELECT id FROM t1 WHERE a IN (SELECT t3.k FROM t3 JOIN t2 ON t3.k = t2.b WHERE t2.t <> 'q') ORDER BY id;
SELECT a, COUNT(*) FROM t1 GROUP BY a HAVING COUNT(*) > (SELECT COUNT(*) FROM e) ORDER BY a;
SELECT a, COUNT(*) FROM t1 GROUP BY a HAVING a IN (SELECT k FROM t3) ORDER BY a;
SELECT a, COUNT(*), (SELECT MAX(c) FROM t3) FROM t1 GROUP BY a ORDER BY a;
SELECT b, COUNT(*) FROM t2 WHERE b IN (SELECT a FROM t1) GROUP BY b ORDER BY b;
SELECT SUM(a IN (SELECT b FROM t2)), SUM(a IN (SELECT k FROM t3 WHERE k > 15)), SUM(a NOT IN (SELECT k FROM t3)) FROM t1;
SELECT id FROM t1 WHERE a = (SELECT MAX(b) FROM t2 WHERE b < 60) ORDER BY id;
-- derived tables inside subqueries and subqueries inside derived tables
SELECT id FROM t1 WHERE a IN (SELECT x FROM (SELECT b AS x FROM t2) d) ORDER BY id;
SELECT d.id, d.m FROM (SELECT id, (SELECT MAX(k) FROM t3) AS m FROM t1 WHERE a IN (SELECT b FROM t2)) d ORDER BY 1;
-- ORDER BY a subquery
SELECT id, a FROM t1 ORDER BY (SELECT c FROM t3 WHERE t3.k = t1.a) DESC, id;
-- DML: INSERT ... SELECT, UPDATE and DELETE with subqueries in WHERE
CREATE TABLE dst (id INT, a INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO dst SELECT id, a FROM t1 WHERE a IN (SELECT b FROM t2);
INSERT INTO dst SELECT id + 100, (SELECT MAX(k) FROM t3) FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 WHERE t2.b = t1.a);
SELECT * FROM dst ORDER BY id;
CREATE TABLE u (id INT, v INT) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "true");
INSERT INTO u VALUES (1, 10), (2, 20), (3, 30), (4, 40);
UPDATE u SET v = v + 1 WHERE id IN (SELECT id FROM t2 WHERE b = 20);
SELECT * FROM u ORDER BY id;
DELETE FROM u WHERE v > (SELECT MAX(c) * 6 FROM t3);
SELECT * FROM u ORDER BY id;
UPDATE u SET v = (SELECT COUNT(*) FROM t2 WHERE t2.b = u.v - 1) WHERE id = 2;
INSERT INTO u VALUES (5, (SELECT MAX(k) FROM t3));
DELETE FROM u WHERE EXISTS (SELECT 1 FROM t3 WHERE t3.k = u.v);
SELECT * FROM u ORDER BY id;
-- correlated columns of a grouped outer query: its grouped columns
SELECT a, (SELECT COUNT(*) FROM t2 WHERE t2.b = t1.a) FROM t1 GROUP BY a ORDER BY a;
SELECT a, COUNT(*) FROM t1 GROUP BY a HAVING EXISTS (SELECT 1 FROM t2 WHERE t2.b = t1.a) ORDER BY a;
SELECT a, COUNT(*) FROM t1 GROUP BY a HAVING (SELECT COUNT(*) FROM t2 WHERE t2.b = a) > 1 ORDER BY a;
-- prepared statements: a placeholder inside the subquery
PREPARE p FROM 'SELECT id FROM t1 WHERE a IN (SELECT b FROM t2 WHERE b > ?) ORDER BY id';
SET @x = 15;
EXECUTE p USING @x;
SET @x = 5;
EXECUTE p USING @x;
DROP DATABASE q_subq FORCE;
