-- Explicit transactions (BEGIN; INSERT ...; COMMIT / ROLLBACK) and snapshot isolation: a
-- second connection sees nothing of a transaction before its COMMIT.
-- Both connections work in the test's own database.
CREATE TABLE t (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("enable_unique_key_merge_on_write" = "true");
CREATE TABLE d (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2;
BEGIN;
INSERT INTO t VALUES (1, 1), (2, 2);
INSERT INTO d VALUES (1, 1);
INSERT INTO t VALUES (2, 20), (3, 3);
-- @connection other
SELECT COUNT(*) FROM t;
SELECT COUNT(*) FROM d;
-- @connection default
COMMIT;
-- @connection other
SELECT * FROM t ORDER BY k;
SELECT * FROM d ORDER BY k;
-- @connection default
BEGIN;
INSERT INTO t VALUES (4, 4);
INSERT INTO d VALUES (4, 4);
ROLLBACK;
SELECT * FROM t ORDER BY k;
SELECT * FROM d ORDER BY k;
-- a failing statement aborts the transaction
BEGIN WITH LABEL my_label;
INSERT INTO d VALUES (5, 5);
INSERT INTO d VALUES (6, 'six');
COMMIT;
SELECT * FROM d ORDER BY k;
-- autocommit statements are visible at once to every connection
INSERT INTO d VALUES (7, 7);
-- @connection other
SELECT * FROM d ORDER BY k;
-- @connection default
START TRANSACTION;
INSERT INTO d VALUES (8, 8);
SET autocommit = 1;
-- @connection other
SELECT * FROM d ORDER BY k;
-- @connection default
SELECT * FROM d ORDER BY k;
