-- Incremental queries (t@incr): APPEND_ONLY / DETAIL / MIN_DELTA over the Row Binlog (DORIS_SEMANTICS.md §1.7, §2.4-2.6,
-- R3, R6, R14), windows, query forms and the errors E27-E31. @incr ops: 0 APPEND, 1 DELETE,
-- 2 UPDATE_BEFORE, 3 UPDATE_AFTER. TSO/LSN values change every run and are never printed. A
-- window start inside this run is built from the first write's TSO (whole seconds, session time
-- zone) into @t0, run through PREPARE, with a 1 s SLEEP so that later writes fall after it.

CREATE TABLE dup (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
CREATE TABLE mow (k INT, v INT, s VARCHAR(10) DEFAULT 'dflt') UNIQUE KEY(k)
DISTRIBUTED BY HASH(k) BUCKETS 3
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
CREATE TABLE mow_n (k INT, v INT, s VARCHAR(10) DEFAULT 'dflt') UNIQUE KEY(k)
DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW");
CREATE TABLE plain (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true");
CREATE TABLE names (k INT, name VARCHAR(10)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
INSERT INTO names VALUES (1, 'one'), (2, 'two'), (3, 'three'), (5, 'five'), (6, 'six'), (7, 'seven');

-- Duplicate Key: every mode reads as APPEND_ONLY
INSERT INTO dup VALUES (1, 10), (1, 10), (2, 20);
INSERT INTO dup VALUES (3, 30);
-- @sorted
SELECT k, v, __DORIS_BINLOG_OP__ FROM dup@incr("incrementType" = "APPEND_ONLY");
-- @sorted
SELECT k, v, __DORIS_BINLOG_OP__ FROM dup@incr("incrementType" = "DETAIL");
-- @sorted
SELECT k, v, __DORIS_BINLOG_OP__ FROM dup@incr("incrementType" = "MIN_DELTA");
-- @sorted
SELECT k, v, __DORIS_BINLOG_OP__ FROM dup@incr();

-- MoW with before images. The first write is the start state; after @t0:
--   1: inserted, updated                       -> APPEND with the last values
--   2: existed, updated twice                  -> one UB/UA pair: original before, last after
--   3: existed, updated then deleted           -> DELETE with the original values
--   4: inserted then deleted                   -> nothing
--   5: existed, deleted, re-inserted, deleted  -> one DELETE with the original values
--   6: existed, 10 -> 11 -> 10                 -> R3: still a UB/UA pair
--   7: existed, untouched                      -> nothing
INSERT INTO mow VALUES (2, 20, 'b'), (3, 30, 'c'), (5, 50, 'e'), (6, 10, 'f'), (7, 70, 'g');
SET @t0 = (SELECT FROM_UNIXTIME((MAX(__DORIS_BINLOG_TSO__) >> 18) DIV 1000 + 1)
           FROM binlog("table" = "mow"));
SELECT SLEEP(1);
INSERT INTO mow VALUES (1, 10, 'a');
UPDATE mow SET v = 11 WHERE k = 1;
UPDATE mow SET v = 21 WHERE k = 2;
UPDATE mow SET v = 22, s = 'bb' WHERE k = 2;
UPDATE mow SET v = 31 WHERE k = 3;
DELETE FROM mow WHERE k = 3;
INSERT INTO mow VALUES (4, 40, 'd');
DELETE FROM mow WHERE k = 4;
DELETE FROM mow WHERE k = 5;
INSERT INTO mow VALUES (5, 55, 'ee');
DELETE FROM mow WHERE k = 5;
UPDATE mow SET v = 11 WHERE k = 6;
UPDATE mow SET v = 10 WHERE k = 6;
-- the first write lies before @t0, every later one at or after it
SET @first = (SELECT MIN(__DORIS_BINLOG_TSO__) FROM binlog("table" = "mow"));
SELECT SUM(__DORIS_BINLOG_TSO__ = @first) AS before_t0,
       SUM(__DORIS_BINLOG_TSO__ >= (UNIX_TIMESTAMP(@t0) * 1000) << 18) AS after_t0
FROM binlog("table" = "mow");

-- APPEND_ONLY: raw inserts only (the first write, 1, 4 and the re-insert of 5)
SELECT k, v, s, __DORIS_BINLOG_OP__ FROM mow@incr("incrementType" = "APPEND_ONLY")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__;

-- DETAIL: every record; an update is UPDATE_BEFORE then UPDATE_AFTER (R14)
SELECT k, v, s, __DORIS_BINLOG_OP__ FROM mow@incr("incrementType" = "DETAIL")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__;
-- the value is case-insensitive; UB and UA share one LSN
SELECT COUNT(*), COUNT(DISTINCT __DORIS_BINLOG_LSN__), COUNT(DISTINCT __DORIS_BINLOG_TSO__)
FROM mow@incr("incrementType" = "detail");
SELECT COUNT(*) FROM mow@incr("incrementType" = "DETAIL") a, mow@incr("incrementType" = "DETAIL") b
WHERE a.__DORIS_BINLOG_OP__ = 2 AND b.__DORIS_BINLOG_OP__ = 3 AND a.k = b.k
  AND a.__DORIS_BINLOG_TSO__ = b.__DORIS_BINLOG_TSO__ AND a.__DORIS_BINLOG_LSN__ = b.__DORIS_BINLOG_LSN__;

-- MIN_DELTA without a start: every key is absent at the start -> APPEND of each live key
-- @sorted
SELECT k, v, s, __DORIS_BINLOG_OP__ FROM mow@incr("incrementType" = "MIN_DELTA");
-- the default mode is MIN_DELTA
-- @sorted
SELECT k, v, s, __DORIS_BINLOG_OP__ FROM mow@incr();
-- a far-future end changes nothing; start > end and a start in the future are empty
-- @sorted
SELECT k, v, s, __DORIS_BINLOG_OP__ FROM mow@incr("endTimestamp" = "2999-01-01 00:00:00");
SELECT COUNT(*) FROM mow@incr("startTimestamp" = "2998-01-01 00:00:00",
                              "endTimestamp" = "2997-01-01 00:00:00", "incrementType" = "DETAIL");
SELECT COUNT(*) FROM mow@incr("startTimestamp" = "2998-01-01 00:00:00", "incrementType" = "MIN_DELTA");
-- an end before every write ("0" = the epoch; far past): empty
SELECT COUNT(*) FROM mow@incr("endTimestamp" = "0");
SELECT COUNT(*) FROM mow@incr("endTimestamp" = "2000-01-01 00:00:00", "incrementType" = "DETAIL");
-- DETAIL / APPEND_ONLY with an expired start (far past, "0") clamp to the retained changes
SELECT COUNT(*) FROM mow@incr("startTimestamp" = "2000-01-01 00:00:00", "incrementType" = "DETAIL");
SELECT COUNT(*) FROM mow@incr("startTimestamp" = "0", "endTimestamp" = "2999-01-01 00:00:00",
                              "incrementType" = "APPEND_ONLY");
-- MIN_DELTA with an explicit expired start fails (E32)
SELECT COUNT(*) FROM mow@incr("startTimestamp" = "2000-01-01 00:00:00", "incrementType" = "MIN_DELTA");
SELECT COUNT(*) FROM mow@incr('startTimestamp' = '0');

-- MIN_DELTA from @t0: the §2.5 folding cases, rows in the order of the keys' last changes
SET @q = CONCAT('SELECT k, v, s, __DORIS_BINLOG_OP__ FROM mow@incr("startTimestamp" = "', @t0,
                '", "incrementType" = "MIN_DELTA") ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__');
PREPARE md FROM @q;
EXECUTE md;
-- the folded rows carry the TSO of the key's last change
SET @q = CONCAT('SELECT COUNT(*) FROM mow@incr("startTimestamp" = "', @t0, '", "incrementType" = "MIN_DELTA") i ',
                'WHERE i.__DORIS_BINLOG_TSO__ <> (SELECT MAX(b.__DORIS_BINLOG_TSO__) FROM binlog("table" = "mow") b WHERE b.k = i.k)');
PREPARE md_tso FROM @q;
EXECUTE md_tso;
-- batch size never changes the folding
SET @q = CONCAT('SELECT /*+ SET_VAR(batch_size=1) */ k, v, s, __DORIS_BINLOG_OP__ FROM mow@incr("startTimestamp" = "', @t0,
                '", "incrementType" = "MIN_DELTA") ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__');
PREPARE md_hint FROM @q;
EXECUTE md_hint;
SET batch_size = 1;
EXECUTE md;
SELECT k, v, s, __DORIS_BINLOG_OP__ FROM mow@incr("incrementType" = "DETAIL")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__;
SET batch_size = DEFAULT;
-- DETAIL and APPEND_ONLY from @t0: the first write is outside the window
SET @q = CONCAT('SELECT __DORIS_BINLOG_OP__, COUNT(*) FROM mow@incr("startTimestamp" = "', @t0,
                '", "incrementType" = "DETAIL") GROUP BY __DORIS_BINLOG_OP__ ORDER BY 1');
PREPARE d FROM @q;
EXECUTE d;
SET @q = CONCAT('SELECT k, v FROM mow@incr("startTimestamp" = "', @t0,
                '", "incrementType" = "APPEND_ONLY") ORDER BY __DORIS_BINLOG_LSN__');
PREPARE a FROM @q;
EXECUTE a;
-- up to @t0 (right-open): only the first write
SET @q = CONCAT('SELECT k, v, __DORIS_BINLOG_OP__ FROM mow@incr("endTimestamp" = "', @t0,
                '", "incrementType" = "DETAIL") ORDER BY k');
PREPARE e FROM @q;
EXECUTE e;
-- the window is read in the session time zone: @tz is @t0 written in UTC; read at UTC it splits
-- the changes as @t0 does, read 12 hours east or west it lies before or after every change
SET time_zone = '+00:00';
SET @tz = (SELECT FROM_UNIXTIME((MIN(__DORIS_BINLOG_TSO__) >> 18) DIV 1000 + 1) FROM binlog("table" = "mow"));
SET @q = CONCAT('SELECT COUNT(*) FROM mow@incr("startTimestamp" = "', @tz, '", "incrementType" = "DETAIL")');
PREPARE tz1 FROM @q;
SET @q = CONCAT('SELECT COUNT(*) FROM mow@incr("endTimestamp" = "', @tz, '", "incrementType" = "DETAIL")');
PREPARE tz2 FROM @q;
EXECUTE tz1;
EXECUTE tz2;
SET time_zone = '-12:00';
EXECUTE tz1;
SET time_zone = '+12:00';
EXECUTE tz2;
SET time_zone = DEFAULT;

-- a window with both ends: [@w0, @w1) and [@w1, now) split the changes of w; MIN_DELTA decides
-- each key's start state by its first record in the window
CREATE TABLE w (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO w VALUES (1, 10), (2, 20), (3, 30);
SET @w0 = (SELECT FROM_UNIXTIME((MAX(__DORIS_BINLOG_TSO__) >> 18) DIV 1000 + 1) FROM binlog("table" = "w"));
SELECT SLEEP(1);
UPDATE w SET v = 11 WHERE k = 1;
INSERT INTO w VALUES (4, 40);
DELETE FROM w WHERE k = 2;
SET @w1 = (SELECT FROM_UNIXTIME((MAX(__DORIS_BINLOG_TSO__) >> 18) DIV 1000 + 1) FROM binlog("table" = "w"));
SELECT SLEEP(1);
DELETE FROM w WHERE k = 1;
UPDATE w SET v = 41 WHERE k = 4;
INSERT INTO w VALUES (2, 22);
UPDATE w SET v = 31 WHERE k = 3;
SET @q = CONCAT('SELECT k, v, __DORIS_BINLOG_OP__ FROM w@incr("startTimestamp" = "', @w0, '", "endTimestamp" = "', @w1,
                '", "incrementType" = "MIN_DELTA") ORDER BY k, __DORIS_BINLOG_OP__');
PREPARE w01 FROM @q;
EXECUTE w01;
SET @q = CONCAT('SELECT k, v, __DORIS_BINLOG_OP__ FROM w@incr("startTimestamp" = "', @w1,
                '", "incrementType" = "MIN_DELTA") ORDER BY k, __DORIS_BINLOG_OP__');
PREPARE w1 FROM @q;
EXECUTE w1;
SET @q = CONCAT('SELECT k, v, __DORIS_BINLOG_OP__ FROM w@incr("endTimestamp" = "', @w1,
                '", "incrementType" = "MIN_DELTA") ORDER BY k, __DORIS_BINLOG_OP__');
PREPARE w_1 FROM @q;
EXECUTE w_1;
SET @q = CONCAT('SELECT k, v, __DORIS_BINLOG_OP__ FROM w@incr("startTimestamp" = "', @w0, '", "endTimestamp" = "', @w1,
                '", "incrementType" = "DETAIL") ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__');
PREPARE wd FROM @q;
EXECUTE wd;

-- query forms: CTE, view, UNION ALL, join with a plain table, aggregates
WITH c AS (SELECT k, v, __DORIS_BINLOG_OP__ AS op FROM mow@incr("incrementType" = "DETAIL"))
SELECT op, COUNT(*), SUM(v) FROM c GROUP BY op ORDER BY op;
CREATE VIEW v_detail AS SELECT k, v, __DORIS_BINLOG_OP__ AS op FROM mow@incr("incrementType" = "DETAIL");
SELECT op, COUNT(*) FROM v_detail GROUP BY op ORDER BY op;
-- a view reads the changes committed when it is queried
INSERT INTO mow VALUES (8, 80, 'h');
SELECT op, COUNT(*) FROM v_detail GROUP BY op ORDER BY op;
-- @sorted
SELECT k, v, __DORIS_BINLOG_OP__ FROM mow@incr("incrementType" = "APPEND_ONLY")
UNION ALL
SELECT k, v, __DORIS_BINLOG_OP__ FROM dup@incr("incrementType" = "APPEND_ONLY");
SELECT i.k, n.name, i.v, i.__DORIS_BINLOG_OP__ FROM mow@incr() i JOIN names n ON i.k = n.k ORDER BY i.k;
SELECT COUNT(*), SUM(v), MIN(k), MAX(k) FROM mow@incr();
SELECT COUNT(*), SUM(v) FROM dup@incr("incrementType" = "APPEND_ONLY");
-- an alias
SELECT x.k FROM mow@incr("incrementType" = "APPEND_ONLY") x WHERE x.k = 8;

-- R6: MoW without before images: DETAIL allowed, an update is one APPEND, a delete is DELETE
-- with the key and defaults; MIN_DELTA is refused (E28)
INSERT INTO mow_n VALUES (1, 10, 'a'), (2, 20, 'b');
UPDATE mow_n SET v = 11 WHERE k = 1;
DELETE FROM mow_n WHERE k = 2;
SELECT k, v, s, __DORIS_BINLOG_OP__ FROM mow_n@incr("incrementType" = "DETAIL")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT k, v, s, __DORIS_BINLOG_OP__ FROM mow_n@incr("incrementType" = "APPEND_ONLY")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT k FROM mow_n@incr("incrementType" = "MIN_DELTA");
SELECT k FROM mow_n@incr();

-- errors
-- E27: no ROW binlog
SELECT k FROM plain@incr("incrementType" = "DETAIL");
SELECT k FROM names@incr();
-- E30: unknown parameter, bad increment type
SELECT k FROM mow@incr("bogus" = "1");
SELECT k FROM mow@incr("incrementType" = "FULL");
-- E31: bad timestamps
SELECT k FROM mow@incr("startTimestamp" = "abc");
SELECT k FROM mow@incr("endTimestamp" = "2020-13-45 99:00:00", "incrementType" = "DETAIL");
SELECT k FROM mow@incr("startTimestamp" = "", "incrementType" = "DETAIL");
