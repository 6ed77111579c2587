-- AGGREGATE KEY tables fold rows of a key with the columns' functions (SUM, MIN, MAX, REPLACE,
-- REPLACE_IF_NOT_NULL), within a statement and across statements (merge on read); merge-on-read
-- UNIQUE tables keep the latest row (or the highest sequence value) and honour the delete sign.
CREATE TABLE a (k INT, d DATE, s BIGINT SUM, mn INT MIN, mx DOUBLE MAX, r VARCHAR(10) REPLACE, rn VARCHAR(10) REPLACE_IF_NOT_NULL) AGGREGATE KEY(k, d) DISTRIBUTED BY HASH(k) BUCKETS 2;
INSERT INTO a VALUES (1, '2024-01-01', 10, 5, 1.5, 'a', 'x'), (1, '2024-01-01', 20, 3, 0.5, 'b', NULL), (2, '2024-01-01', 1, 1, 1, NULL, 'y');
SELECT * FROM a ORDER BY k, d;
INSERT INTO a VALUES (1, '2024-01-01', 5, 9, 9.5, NULL, NULL), (1, '2024-01-02', 7, 7, 7, 'c', 'z'), (2, '2024-01-01', NULL, NULL, NULL, 'q', NULL);
SELECT * FROM a ORDER BY k, d;
SELECT SUM(s), COUNT(*), MAX(mx) FROM a WHERE k = 1;
SELECT COUNT(*) FROM a;
DELETE FROM a WHERE k = 2;
SELECT * FROM a ORDER BY k, d;
DELETE FROM a WHERE s > 10;
UPDATE a SET s = 0;
ADMIN COMPACT TABLE a WHERE type = 'BASE';
SELECT * FROM a ORDER BY k, d;
INSERT INTO a VALUES (1, '2024-01-02', 3, 1, 1, 'd', NULL);
SELECT * FROM a ORDER BY k, d;
CREATE TABLE m (k INT, v VARCHAR(10), n INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("enable_unique_key_merge_on_write" = "false");
INSERT INTO m VALUES (1, 'a', 1), (2, 'b', 2), (1, 'a2', 10);
INSERT INTO m VALUES (2, 'b2', 20), (3, 'c', 3);
SELECT * FROM m ORDER BY k;
DELETE FROM m WHERE k = 1;
SELECT * FROM m ORDER BY k;
INSERT INTO m VALUES (1, 'back', 100);
SELECT * FROM m ORDER BY k;
SELECT * FROM m WHERE n > 5 ORDER BY k;
UPDATE m SET n = 0;
SET show_hidden_columns = true;
SELECT k, v, n, __DORIS_DELETE_SIGN__ FROM m ORDER BY k;
SET show_hidden_columns = false;
CREATE TABLE ms (k INT, v VARCHAR(10), s INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "false", "function_column.sequence_col" = "s");
INSERT INTO ms VALUES (1, 'first', 10);
INSERT INTO ms VALUES (1, 'older', 5);
INSERT INTO ms VALUES (2, 'x', 1);
SELECT * FROM ms ORDER BY k;
