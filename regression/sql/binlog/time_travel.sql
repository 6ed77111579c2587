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
