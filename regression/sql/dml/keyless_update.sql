-- UPDATE of tables without a unique key (MySQL DDL without PRIMARY KEY: DUPLICATE tables, with
-- the inferred sort key or none): the changed rows are deleted by location and written again
-- in one commit. ROW_COUNT() is MySQL's: the changed rows (checked against MariaDB).
CREATE TABLE t (id INT, v INT, s VARCHAR(10));
INSERT INTO t VALUES (1, 1, 'a'), (1, 2, 'b'), (2, 2, 'c'), (3, NULL, 'd');
UPDATE t SET v = 2 WHERE id = 1;
SELECT ROW_COUNT();
SELECT * FROM t ORDER BY id, s;
-- matched, not changed: NULL to NULL, a value to itself
UPDATE t SET v = NULL WHERE id = 3;
SELECT ROW_COUNT();
UPDATE t SET s = s;
SELECT ROW_COUNT();
UPDATE t SET v = v + 1 WHERE v IS NOT NULL;
SELECT ROW_COUNT();
SELECT * FROM t ORDER BY id, s;
-- any column, the sort key included; every assignment sees the old row (as Doris's UPDATE;
-- MySQL evaluates them left to right and would give a10 / c20)
UPDATE t SET id = id * 10, s = CONCAT(s, id) WHERE s IN ('a', 'c');
SELECT ROW_COUNT();
SELECT * FROM t ORDER BY id, s;
UPDATE t SET v = DEFAULT WHERE id = 20;
SELECT ROW_COUNT();
UPDATE t SET v = 7 WHERE id = 99;
SELECT ROW_COUNT();
SELECT * FROM t ORDER BY id, s;
SELECT COUNT(*) FROM t;
-- a failing row fails the statement: nothing changes
CREATE TABLE one (id INT, v INT) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO one VALUES (1, 1), (2, 2), (3, 3);
UPDATE one SET v = IF(id = 3, 'x', 5);
SELECT * FROM one ORDER BY id;
UPDATE t SET s = CONCAT(s, 'too long for ten') WHERE id = 3;
SELECT * FROM t ORDER BY id, s;
-- unknown column, NOT NULL
UPDATE t SET nope = 1;
CREATE TABLE nn (a INT NOT NULL, b INT);
INSERT INTO nn VALUES (1, 1);
UPDATE nn SET a = NULL;
SELECT * FROM nn;
-- a table whose first column cannot be a key (no keys at all) and an explicit DUPLICATE KEY
CREATE TABLE notes (body TEXT, n INT);
INSERT INTO notes VALUES ('x', 1), ('y', 2), ('x', 3);
UPDATE notes SET body = UPPER(body), n = n * 10 WHERE body = 'x';
SELECT ROW_COUNT();
SELECT * FROM notes ORDER BY body, n;
CREATE TABLE dk (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3;
INSERT INTO dk VALUES (1, 1), (2, 2), (3, 3), (1, 4);
UPDATE dk SET k = k + 1 WHERE v > 1;
SELECT ROW_COUNT();
SELECT * FROM dk ORDER BY k, v;
-- a row moving to another partition; no partition for the new value fails the statement
CREATE TABLE p (id INT, v INT) PARTITION BY RANGE(id) (PARTITION p1 VALUES LESS THAN ("10"), PARTITION p2 VALUES LESS THAN ("20")) DISTRIBUTED BY HASH(v) BUCKETS 2;
INSERT INTO p VALUES (1, 1), (2, 2), (15, 3);
UPDATE p SET id = id + 10 WHERE id < 5;
SELECT * FROM p PARTITION (p1) ORDER BY id;
SELECT * FROM p PARTITION (p2) ORDER BY id;
UPDATE p SET id = id + 5;
SELECT * FROM p ORDER BY id;
-- in a transaction: part of the one commit, or nothing after ROLLBACK
BEGIN;
UPDATE p SET v = v * 100 WHERE id = 11;
INSERT INTO p VALUES (3, 3);
COMMIT;
SELECT * FROM p ORDER BY id;
BEGIN;
UPDATE p SET v = 0;
ROLLBACK;
SELECT * FROM p ORDER BY id;
-- more rows than one write chunk
CREATE TABLE big (a INT, b VARCHAR(20));
INSERT INTO big VALUES (0, 's0'), (1, 's1'), (2, 's2'), (3, 's3'), (4, 's4'), (5, 's5'), (6, 's6'), (7, 's7');
INSERT INTO big SELECT a + 8, b FROM big;
INSERT INTO big SELECT a + 16, b FROM big;
INSERT INTO big SELECT a + 32, b FROM big;
INSERT INTO big SELECT a + 64, b FROM big;
INSERT INTO big SELECT a + 128, b FROM big;
INSERT INTO big SELECT a + 256, b FROM big;
INSERT INTO big SELECT a + 512, b FROM big;
INSERT INTO big SELECT a + 1024, b FROM big;
INSERT INTO big SELECT a + 2048, b FROM big;
INSERT INTO big SELECT a + 4096, b FROM big;
UPDATE big SET b = CONCAT(b, '-', a) WHERE a % 2 = 0;
SELECT ROW_COUNT();
SELECT COUNT(*), COUNT(DISTINCT a), SUM(b LIKE '%-%'), MIN(b), MAX(b) FROM big;
-- the old rows stay readable at the version before the UPDATE
CREATE TABLE tt (a INT, b INT);
INSERT INTO tt VALUES (1, 1), (2, 2);
SET @before = CURRENT_TSO();
UPDATE tt SET b = b + 10;
SELECT * FROM tt FOR VERSION AS OF @before ORDER BY a;
SELECT * FROM tt ORDER BY a;
-- MySQL's ORDER BY / LIMIT on UPDATE and DELETE (ties keep the scan order: order by enough
-- columns); NULLs sort first
CREATE TABLE ol (id INT, v INT) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO ol VALUES (1, 1), (1, 2), (2, 2), (3, NULL), (4, 4);
UPDATE ol SET v = v + 1 ORDER BY id DESC LIMIT 2;
SELECT ROW_COUNT();
UPDATE ol SET v = 0 ORDER BY v LIMIT 1;
SELECT ROW_COUNT();
SELECT * FROM ol ORDER BY id, v;
UPDATE ol SET v = 9 WHERE id = 1 ORDER BY v DESC LIMIT 1;
SELECT * FROM ol ORDER BY id, v;
UPDATE ol SET v = 7 LIMIT 0;
SELECT ROW_COUNT();
DELETE FROM ol ORDER BY id DESC, v LIMIT 2;
SELECT ROW_COUNT();
SELECT * FROM ol ORDER BY id, v;
DELETE FROM ol WHERE id = 1 LIMIT 1;
SELECT COUNT(*) FROM ol;
CREATE TABLE ou (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3;
INSERT INTO ou VALUES (1, 1), (2, 2), (3, 3), (4, 4);
UPDATE ou SET v = 0 ORDER BY k DESC LIMIT 2;
DELETE FROM ou WHERE v > 0 ORDER BY k LIMIT 1;
SELECT * FROM ou ORDER BY k;
PREPARE del FROM 'DELETE FROM ou ORDER BY k LIMIT ?';
SET @n = 1;
EXECUTE del USING @n;
SELECT * FROM ou ORDER BY k;
UPDATE ol SET v = 1 ORDER BY v + 1 LIMIT 1;
UPDATE ol SET v = 1 ORDER BY nope LIMIT 1;
UPDATE ol SET v = 1 LIMIT 1, 2;
-- Row Binlog on a Duplicate table records inserts only: UPDATE is refused like DELETE (R2)
CREATE TABLE rb (id INT, v INT) PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
INSERT INTO rb VALUES (1, 1);
UPDATE rb SET v = 2;
DELETE FROM rb WHERE id = 1;
SELECT * FROM rb;
-- AGGREGATE KEY tables still refuse UPDATE (Doris)
CREATE TABLE ag (k INT, s INT SUM) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
UPDATE ag SET s = 1;
