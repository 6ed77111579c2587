-- Chains of set operations (one n-ary operator per chain, plan_setop.c) and long IN lists of
-- constants (sorted once, a binary search per row, plan_expr.c): the rows must be those of
-- the nested binary operations / of the comparison list. MySQL 8.0.31 semantics: a UNION
-- DISTINCT deduplicates every operand before it, later UNION ALL operands keep duplicates;
-- INTERSECT binds tighter; a chain's column types are unified over every operand. Compared
-- with MariaDB 10.11: the same rows (its 1221 is a 1064). Scaling and the 5,000 / 20,000
-- cases: tests/stress/long_statements.py and bench/planning/run.sh.
DROP DATABASE IF EXISTS q_setop_chain FORCE;
CREATE DATABASE q_setop_chain;
USE q_setop_chain;
CREATE TABLE m (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2;
INSERT INTO m VALUES (1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, NULL), (8, NULL);
-- UNION ALL / DISTINCT mixed: the duplicates before the last DISTINCT go, the later stay
SELECT a, COUNT(*) FROM (SELECT 1 a UNION ALL SELECT 1 UNION SELECT 2 UNION ALL SELECT 2 UNION ALL SELECT 1) d GROUP BY a ORDER BY a;
SELECT a, COUNT(*) FROM (SELECT 1 a UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 2) d GROUP BY a ORDER BY a;
SELECT a, COUNT(*) FROM (SELECT 1 a UNION SELECT 1 UNION ALL SELECT 1 UNION SELECT 1) d GROUP BY a ORDER BY a;
SELECT v FROM m UNION ALL SELECT v FROM m UNION SELECT 9 ORDER BY v;
SELECT v FROM m UNION SELECT v FROM m UNION ALL SELECT 1 UNION ALL SELECT NULL ORDER BY v;
-- types unified over the whole chain: INT, DECIMAL, then a string
SELECT 1 a UNION ALL SELECT 2.50 UNION ALL SELECT 'x' UNION ALL SELECT NULL;
CREATE TABLE chain_types AS SELECT 1 a UNION ALL SELECT 2.5 UNION ALL SELECT 100000;
DESC chain_types;
-- INTERSECT [ALL] chains: rows in every operand; ALL: the smallest count
SELECT v FROM m INTERSECT SELECT v FROM m WHERE k > 1 INTERSECT SELECT v FROM m WHERE k < 7 ORDER BY v;
SELECT v FROM m INTERSECT ALL SELECT v FROM m WHERE k > 1 INTERSECT ALL SELECT v FROM m WHERE k <> 4 ORDER BY v;
SELECT v FROM m INTERSECT ALL SELECT v FROM m INTERSECT SELECT v FROM m ORDER BY v;
SELECT v FROM m INTERSECT SELECT v FROM m INTERSECT ALL SELECT v FROM m ORDER BY v;
-- EXCEPT [ALL] chains: ALL subtracts each operand's count in turn
SELECT v FROM m EXCEPT ALL SELECT 1 EXCEPT ALL SELECT 1 EXCEPT ALL SELECT NULL ORDER BY v;
SELECT v FROM m EXCEPT SELECT 1 EXCEPT SELECT 3 ORDER BY v;
SELECT v FROM m EXCEPT ALL SELECT 1 EXCEPT SELECT 3 EXCEPT ALL SELECT 2 ORDER BY v;
SELECT v FROM m EXCEPT SELECT 3 EXCEPT ALL SELECT 2 ORDER BY v;
-- INTERSECT binds tighter inside a UNION / EXCEPT chain; mixed families nest
SELECT v FROM m WHERE k = 6 UNION SELECT v FROM m INTERSECT SELECT 2 EXCEPT SELECT 3 ORDER BY v;
SELECT v FROM m EXCEPT SELECT 1 UNION ALL SELECT 1 EXCEPT ALL SELECT 2 ORDER BY v;
SELECT v FROM m INTERSECT SELECT v FROM m WHERE v > 1 UNION ALL SELECT 1 INTERSECT SELECT 1 ORDER BY v;
-- ORDER BY / LIMIT of the whole chain; 1221 / 1222 anywhere along it
SELECT k FROM m UNION ALL SELECT k + 10 FROM m UNION ALL SELECT k + 20 FROM m ORDER BY k DESC LIMIT 3;
SELECT 1 UNION ALL SELECT 2 LIMIT 1 UNION ALL SELECT 3;
SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3, 4;
SELECT 1 INTERSECT SELECT 2 INTERSECT SELECT 3, 4;
EXPLAIN SELECT k FROM m UNION ALL SELECT 1 UNION ALL SELECT 2 UNION SELECT 3 UNION ALL SELECT 4;
EXPLAIN SELECT k FROM m INTERSECT SELECT 1 INTERSECT SELECT 2 EXCEPT ALL SELECT 3 EXCEPT ALL SELECT 4;
-- long IN lists of constants (8 or more): NULLs, NOT IN, case-insensitive strings, decimals
SELECT k FROM m WHERE v IN (3, 4, 5, 6, 7, 8, 9, 10, 11) ORDER BY k;
SELECT k FROM m WHERE v NOT IN (3, 4, 5, 6, 7, 8, 9, 10, 11) ORDER BY k;
SELECT k FROM m WHERE v NOT IN (3, 4, 5, 6, 7, 8, 9, 10, NULL) ORDER BY k;
SELECT k, v IN (1, 4, 5, 6, 7, 8, 9, 10, NULL) FROM m ORDER BY k;
SELECT 'B' IN ('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), 'b ' IN ('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), 'z' IN ('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
SELECT 2.5 IN (1, 2, 3, 4, 5, 6, 7, 8, 2.50), 3 IN (1.0, 2.0, 3.0, 4, 5, 6, 7, 8), 3.1 IN (1, 2, 3, 4, 5, 6, 7, 8);
SELECT 18446744073709551615 IN (1, 2, 3, 4, 5, 6, 7, 18446744073709551615), -1 IN (1, 2, 3, 4, 5, 6, 7, 18446744073709551615);
SELECT '5' IN (1, 2, 3, 4, 5, 6, 7, 8), 5 IN ('1', '2', '3', '4', '5', '6', '7', '8'), NULL IN (1, 2, 3, 4, 5, 6, 7, 8);
DROP DATABASE q_setop_chain FORCE;
