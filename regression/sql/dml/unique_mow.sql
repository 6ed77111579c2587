-- UNIQUE KEY merge-on-write: upsert, UPDATE, DELETE, re-insert, the delete sign, sequence
-- columns, partial column update, hidden columns, and the errors of UPDATE on other tables.
DROP DATABASE IF EXISTS dml_mow FORCE;
CREATE DATABASE dml_mow;
USE dml_mow;
CREATE TABLE u (k INT, v VARCHAR(10), n INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("enable_unique_key_merge_on_write" = "true");
INSERT INTO u VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3);
INSERT INTO u VALUES (2, 'b2', 20), (4, 'd', 4);
SELECT * FROM u ORDER BY k;
-- the last write of a key in one statement wins
INSERT INTO u VALUES (5, 'x', 1), (5, 'y', 2), (5, 'z', 3);
SELECT * FROM u WHERE k = 5;
UPDATE u SET n = n * 10, v = CONCAT(v, '!') WHERE k >= 3;
SELECT * FROM u ORDER BY k;
UPDATE u SET n = 0;
SELECT * FROM u ORDER BY k;
UPDATE u SET k = 9 WHERE k = 1;
UPDATE u SET nope = 1;
DELETE FROM u WHERE k = 2;
DELETE FROM u WHERE k = 42;
SELECT * FROM u ORDER BY k;
-- re-insert after delete
INSERT INTO u VALUES (2, 'back', 200);
SELECT * FROM u ORDER BY k;
-- the delete sign column
INSERT INTO u (k, v, n, __DORIS_DELETE_SIGN__) VALUES (3, 'gone', 0, 1), (6, 'new', 6, 0);
SELECT * FROM u ORDER BY k;
SET show_hidden_columns = true;
DESC u ALL;
SELECT k, v, n, __DORIS_DELETE_SIGN__ FROM u ORDER BY k;
SELECT * FROM u WHERE k = 3;
SET show_hidden_columns = false;
SELECT __DORIS_DELETE_SIGN__ FROM u;
DELETE FROM u;
SELECT COUNT(*) FROM u;
-- sequence column: a lower sequence value never replaces a higher one
CREATE TABLE sq (k INT, v VARCHAR(10), s INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "true", "function_column.sequence_col" = "s");
INSERT INTO sq VALUES (1, 'first', 10);
INSERT INTO sq VALUES (1, 'older', 5);
SELECT * FROM sq;
INSERT INTO sq VALUES (1, 'newer', 20);
SELECT * FROM sq;
INSERT INTO sq VALUES (2, 'a', 3), (2, 'b', 9), (2, 'c', 1);
SELECT * FROM sq ORDER BY k;
-- partial column update keeps the columns the statement does not name
CREATE TABLE pu (k INT, a INT, b VARCHAR(10), c INT DEFAULT '5') UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("enable_unique_key_merge_on_write" = "true");
INSERT INTO pu VALUES (1, 1, 'one', 11), (2, 2, 'two', 22);
SET enable_unique_key_partial_update = true;
INSERT INTO pu (k, b) VALUES (1, 'uno'), (3, 'tres');
INSERT INTO pu (b) VALUES ('nokey');
SET enable_unique_key_partial_update = false;
SELECT * FROM pu ORDER BY k;
INSERT INTO pu (k, b) VALUES (2, 'dos');
SELECT * FROM pu ORDER BY k;
-- UPDATE and DELETE work on DUPLICATE tables too (an UPDATE that changes nothing rewrites
-- nothing; dml/keyless_update); AGGREGATE tables fold (dml/aggregate_mor)
CREATE TABLE dup (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2;
INSERT INTO dup VALUES (1, 1), (1, 2), (2, 3), (3, 4);
UPDATE dup SET v = v + 0;
SELECT ROW_COUNT();
DELETE FROM dup WHERE v >= 2 AND v <= 3;
SELECT * FROM dup ORDER BY k, v;
DELETE FROM dup;
SELECT COUNT(*) FROM dup;
CREATE TABLE agg (k INT, v INT SUM) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
INSERT INTO agg VALUES (1, 1);
SELECT * FROM agg;
DROP DATABASE dml_mow FORCE;
