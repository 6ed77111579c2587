-- FOR VERSION / TIME AS OF on a MoW table with Row Binlog keeps working after compaction
-- merged the versions away: the image is rebuilt from the before images (seed 001,
-- DORIS_SEMANTICS.md §1.9); without before images it is the storage error.
CREATE TABLE h (k INT, v INT, s VARCHAR(10) DEFAULT 'd') UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true",
            "disable_auto_compaction" = "true");
INSERT INTO h VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c');
INSERT INTO h VALUES (4, 4, 'x');
SET @t = (SELECT MAX(__DORIS_BINLOG_TSO__) FROM binlog("table" = "h"));
UPDATE h SET v = 10 WHERE k = 1;
DELETE FROM h WHERE k = 2;
INSERT INTO h VALUES (5, 5, 'e');
UPDATE h SET v = 11 WHERE k = 1;
DELETE FROM h WHERE k = 4;
INSERT INTO h VALUES (4, 44, 'y');
ALTER TABLE h ADD COLUMN c INT DEFAULT "7";
UPDATE h SET c = 8 WHERE k = 3;
SET @q = CONCAT('SELECT * FROM h FOR VERSION AS OF ', @t, ' ORDER BY k');
PREPARE s FROM @q;
-- before compaction: the retained versions
EXECUTE s;
ADMIN COMPACT TABLE h WHERE type = 'BASE';
SELECT * FROM h ORDER BY k;
-- after: the same image, rebuilt
EXECUTE s;
SET @q = CONCAT('SELECT COUNT(*), SUM(v) FROM h FOR VERSION AS OF ', @t, ' WHERE k > 1');
PREPARE s FROM @q;
EXECUTE s;
SET @q = CONCAT('EXPLAIN SELECT * FROM h FOR VERSION AS OF ', @t);
PREPARE s FROM @q;
-- @mask_numbers
EXECUTE s;

-- without before images the compacted version is gone
CREATE TABLE n (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "disable_auto_compaction" = "true");
INSERT INTO n VALUES (1, 1);
SET @t = (SELECT MAX(__DORIS_BINLOG_TSO__) FROM binlog("table" = "n"));
INSERT INTO n VALUES (1, 2);
ADMIN COMPACT TABLE n WHERE type = 'BASE';
SET @q = CONCAT('SELECT * FROM n FOR VERSION AS OF ', @t);
PREPARE s FROM @q;
-- @mask_numbers
EXECUTE s;

-- a MIN_DELTA fold holds its window in memory: charged to exec_mem_limit
CREATE TABLE big (k INT, v VARCHAR(100)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO big SELECT a.d * 1000 + b.d * 100 + c.d * 10 + e.d, REPEAT('x', 90)
FROM (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
      UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) a,
     (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
      UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) b,
     (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
      UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) c,
     (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
      UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) e;
SELECT COUNT(*) FROM big@incr();
SET exec_mem_limit = 1048576;
SELECT COUNT(*) FROM big@incr();
SET exec_mem_limit = DEFAULT;
SELECT COUNT(*) FROM big@incr();
