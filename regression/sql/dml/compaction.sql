-- Compaction merges rowsets and applies delete bitmaps without changing any result; time
-- travel to a version it merged away fails clearly.
CREATE TABLE u (k INT, v VARCHAR(10), n INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("enable_unique_key_merge_on_write" = "true", "disable_auto_compaction" = "true");
CREATE TABLE d (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("disable_auto_compaction" = "true");
INSERT INTO u VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3), (4, 'd', 4);
INSERT INTO d VALUES (1, 1), (1, 2), (2, 3), (3, 4);
SET @before = CURRENT_TSO();
INSERT INTO u VALUES (2, 'b2', 20), (5, 'e', 5);
INSERT INTO u (k, v, n, __DORIS_DELETE_SIGN__) VALUES (3, 'c', 3, 1);
UPDATE u SET n = n + 100 WHERE k >= 4;
DELETE FROM u WHERE k = 1;
INSERT INTO u VALUES (1, 'again', 111);
INSERT INTO d VALUES (4, 5), (5, 6);
DELETE FROM d WHERE v = 2 OR v = 5;
INSERT INTO d VALUES (6, 7);
SELECT * FROM u ORDER BY k;
SELECT * FROM d ORDER BY k, v;
ADMIN COMPACT TABLE u WHERE type = 'CUMULATIVE';
ADMIN COMPACT TABLE d WHERE type = 'CUMULATIVE';
SELECT * FROM u ORDER BY k;
SELECT * FROM d ORDER BY k, v;
ADMIN COMPACT TABLE u WHERE type = 'BASE';
ADMIN COMPACT TABLE d WHERE type = 'BASE';
SELECT * FROM u ORDER BY k;
SELECT * FROM d ORDER BY k, v;
-- writes after compaction see the merged rows
INSERT INTO u VALUES (2, 'b3', 200);
UPDATE u SET n = 0 WHERE k = 5;
DELETE FROM d WHERE k = 6;
SELECT * FROM u ORDER BY k;
SELECT * FROM d ORDER BY k, v;
SELECT COUNT(*) FROM u FOR VERSION AS OF @before;
ADMIN COMPACT TABLE u WHERE type = 'MAJOR';
ADMIN COMPACT TABLE u PARTITION nope WHERE type = 'BASE';
ADMIN COMPACT TABLE nope WHERE type = 'BASE';
