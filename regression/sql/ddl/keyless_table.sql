-- Tables without a KEY clause whose first column cannot be a key (TEXT, STRING, FLOAT, DOUBLE,
-- JSON, ARRAY): a DUPLICATE table without keys, as Doris's
-- "enable_duplicate_without_keys_by_default" = "true" (which Doris would require here).
CREATE TABLE notes (body TEXT, n INT);
SHOW CREATE TABLE notes;
DESC notes;
INSERT INTO notes VALUES ('b', 2), ('a', 1), ('c', 3), ('a', 1);
SELECT * FROM notes ORDER BY body, n;
SELECT n FROM notes WHERE body = 'a';
SELECT COUNT(*) FROM notes;
DELETE FROM notes WHERE n = 2;
SELECT * FROM notes ORDER BY body, n;
CREATE TABLE s (s STRING, v INT);
CREATE TABLE f (f FLOAT, v INT);
CREATE TABLE d (d DOUBLE, v INT) DISTRIBUTED BY HASH(v) BUCKETS 3;
CREATE TABLE j (j JSON, v INT);
CREATE TABLE a (a ARRAY<INT>, v INT);
INSERT INTO d VALUES (1.5, 1), (2.5, 2);
SELECT * FROM d ORDER BY v;
SELECT TABLE_NAME, COLUMN_NAME, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('s', 'f', 'd', 'j', 'a') ORDER BY TABLE_NAME, ORDINAL_POSITION;
-- the property itself: no keys even where a short-key prefix exists; a KEY clause wins
CREATE TABLE p (a INT, b INT) PROPERTIES ("enable_duplicate_without_keys_by_default" = "true");
SHOW CREATE TABLE p;
CREATE TABLE pk (a INT, b INT) DUPLICATE KEY(a) PROPERTIES ("enable_duplicate_without_keys_by_default" = "true");
SHOW CREATE TABLE pk;
CREATE TABLE pf (a INT, b INT) PROPERTIES ("enable_duplicate_without_keys_by_default" = "false");
SHOW CREATE TABLE pf;
CREATE TABLE pbad (a INT) PROPERTIES ("enable_duplicate_without_keys_by_default" = "yes");
-- SHOW CREATE TABLE replays to the same table; LIKE copies it
CREATE TABLE replay (
  `body` text NULL,
  `n` int NULL
) ENGINE=OLAP
DISTRIBUTED BY RANDOM BUCKETS AUTO
PROPERTIES (
"enable_duplicate_without_keys_by_default" = "true"
);
DESC replay;
CREATE TABLE copy LIKE notes;
DESC copy;
-- columns of such types still cannot be keys when written as keys (Doris's errors)
CREATE TABLE k1 (c TEXT, v INT) DUPLICATE KEY(c);
CREATE TABLE k2 (c DOUBLE, v INT) DUPLICATE KEY(c);
CREATE TABLE k3 (c FLOAT, v INT SUM);
-- a table without keys takes no key column
ALTER TABLE notes ADD COLUMN z INT FIRST;
ALTER TABLE notes ADD COLUMN z INT;
DESC notes;
