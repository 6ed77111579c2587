-- Time travel rebuilt from before images (the target version compacted away) after ADD COLUMN:
-- an unchanged row read from a segment written before the column existed takes the column's
-- default, as every other read of it does (it came out NULL before bl_undo).
CREATE TABLE m (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true",
            "disable_auto_compaction" = "true");
INSERT INTO m VALUES (6, 6);
INSERT INTO m VALUES (7, 7);
SET @t = (SELECT MAX(__DORIS_BINLOG_TSO__) FROM binlog("table" = "m"));
UPDATE m SET v = 70 WHERE k = 7;
ADMIN COMPACT TABLE m WHERE type = 'BASE';
ALTER TABLE m ADD COLUMN c INT DEFAULT "9";
SELECT * FROM m ORDER BY k;
SET @q = CONCAT('SELECT * FROM m FOR VERSION AS OF ', @t, ' ORDER BY k');
PREPARE s FROM @q;
EXECUTE s;
SET @q = CONCAT('EXPLAIN SELECT * FROM m FOR VERSION AS OF ', @t);
PREPARE s FROM @q;
-- @mask_numbers
EXECUTE s;
-- a changed row (its before image lacks c) and an unchanged one, at the target
SET @q = CONCAT('SELECT k, v, c FROM m FOR VERSION AS OF ', @t, ' WHERE c = 9 ORDER BY k');
PREPARE s FROM @q;
EXECUTE s;
