-- ARRAY<T> columns and the Doris 2.1 array functions (planner/plan_array.c,
-- plan_func_array.c). An ARRAY column stores the canonical text Doris 2.1 prints over the
-- MySQL protocol: `[1, 2, null]`, strings, dates and datetimes double-quoted, elements
-- separated by ", ", every element converted to the element type on write.

-- 1. Each element type: round trip and conversion
CREATE TABLE a (id INT, ai ARRAY<INT>, ab ARRAY<BIGINT>, at ARRAY<TINYINT>, al ARRAY<LARGEINT>,
  adec ARRAY<DECIMAL(10,2)>, ad ARRAY<DOUBLE>, af ARRAY<FLOAT>, adt ARRAY<DATE>,
  adtm ARRAY<DATETIME>, adt3 ARRAY<DATETIME(3)>, av ARRAY<VARCHAR(5)>, ast ARRAY<STRING>,
  abo ARRAY<BOOLEAN>)
DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
DESC a;
SHOW CREATE TABLE a;
INSERT INTO a VALUES
  (1, '[1, 2, 3]', '[9223372036854775807,-9223372036854775808]', '[127, -128]',
   '[170141183460469231731687303715884105727]', '[1.5, 2, -0.125, 3.14159]',
   '[1.5, 1e3, -0.1, 2.50]', '[0.1, 1.5]', '["2024-01-02", "2024-2-3"]',
   '["2024-01-02 03:04:05", "2024-01-02"]', '["2024-01-02 03:04:05.123456"]',
   '["a", "hello", "", "b,c"]', '["x y", "q\\"uote", "back\\\\slash", "[z]"]',
   '[true, false, 1, 0, TRUE]'),
  (2, '[]', '[ ]', '[null]', '[NULL, 1]', '[]', '[null, 2.5]', '[]', '[null]', '[]', '[]',
   '[null, "n"]', '[]', '[null]'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, '  [ 1 ,2,  NULL ]  ', '["7", \'8\']', '[1]', '[-1]', '["1.005"]', '[1.0]', '[3]',
   '[\'2023-12-31\']', '[20240102030405]', '[]', "['s1', 's2']", '[a, b c]', '["true"]');
SELECT id, ai, ab, at, al, adec FROM a ORDER BY id;
SELECT id, ad, af, adt, adtm, adt3 FROM a ORDER BY id;
SELECT id, av, ast, abo FROM a ORDER BY id;

-- 2. Nested arrays
CREATE TABLE n (id INT, aa ARRAY<ARRAY<INT>>, sa ARRAY<ARRAY<STRING>>)
DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
DESC n;
INSERT INTO n VALUES (1, '[[1, 2], [], null, [3, null]]', '[["a", "b"], ["c,d"]]'),
  (2, '[]', '[[]]'), (3, NULL, '[null]');
SELECT * FROM n ORDER BY id;
INSERT INTO n VALUES (9, '[1, 2]', '[]');
INSERT INTO n VALUES (9, '[[1], [x]]', '[]');

-- 3. Text that is not an array, or elements that do not convert: an error under
-- enable_insert_strict (the default); without it NULL elements / a NULL value
INSERT INTO a (id, ai) VALUES (20, '[1, a]');
INSERT INTO a (id, ai) VALUES (20, '1, 2');
INSERT INTO a (id, ai) VALUES (20, '[1, 2');
INSERT INTO a (id, ai) VALUES (20, '[1,,2]');
INSERT INTO a (id, ai) VALUES (20, '[1, 2] x');
INSERT INTO a (id, ai) VALUES (20, '');
INSERT INTO a (id, ai) VALUES (20, 5);
INSERT INTO a (id, at) VALUES (20, '[128]');
INSERT INTO a (id, av) VALUES (20, '["toolong"]');
INSERT INTO a (id, adt) VALUES (20, '["2024-13-01"]');
INSERT INTO a (id, ai) VALUES (20, '["unterminated]');
INSERT INTO a (id, ai) VALUES (20, '[[1]]');
SET enable_insert_strict = false;
INSERT INTO a (id, ai, at, av, adt) VALUES (21, '[1, a, 3]', '[128, 1]', '["toolong", "ok"]', '["2024-13-01"]');
INSERT INTO a (id, ai) VALUES (22, '[1, 2');
SET enable_insert_strict = true;
SELECT id, ai, at, av, adt FROM a WHERE id >= 20 ORDER BY id;

-- 4. Keys, GROUP BY, ORDER BY, comparisons
CREATE TABLE badkey (v ARRAY<INT>, id INT) DUPLICATE KEY(v) DISTRIBUTED BY HASH(id) BUCKETS 1;
SELECT ai, count(*) FROM a GROUP BY ai;
SELECT ai FROM a ORDER BY ai;
SELECT id FROM a WHERE ai = '[1, 2, 3]';

-- 5. INSERT ... SELECT, CTAS, CAST to a string
CREATE TABLE a2 (id INT, ai ARRAY<INT>, ad ARRAY<DECIMAL(5,1)>) DUPLICATE KEY(id)
DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO a2 SELECT id, ai, adec FROM a WHERE id <= 4;
INSERT INTO a2 SELECT 10, '[4,5]', '[1.25]';
SELECT * FROM a2 ORDER BY id;
CREATE TABLE a3 DISTRIBUTED BY HASH(id) BUCKETS 1 AS SELECT id, ai, av FROM a WHERE id <= 2;
DESC a3;
SELECT * FROM a3 ORDER BY id;
SELECT id, CAST(ai AS STRING), concat('x', ai) FROM a WHERE id = 1;

-- 6. UNIQUE merge-on-write table with an ARRAY value column: update, upsert, delete
CREATE TABLE u (k INT, tags ARRAY<STRING>, nums ARRAY<INT>) UNIQUE KEY(k)
DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "true");
INSERT INTO u VALUES (1, '["a"]', '[1]'), (2, '["b", null]', '[2, 2]'), (3, '[]', NULL);
UPDATE u SET tags = '["updated", "x"]', nums = '[10,20]' WHERE k = 1;
INSERT INTO u VALUES (3, '["upserted"]', '[3]');
UPDATE u SET nums = '[1, oops]' WHERE k = 2;
DELETE FROM u WHERE k = 2;
SELECT * FROM u ORDER BY k;

-- 7. Row Binlog: binlog() and @incr carry ARRAY values (after and before images)
CREATE TABLE rb (k INT, v ARRAY<INT>) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO rb VALUES (1, '[1, 2]'), (2, '[]');
UPDATE rb SET v = '[1, 2, 3]' WHERE k = 1;
DELETE FROM rb WHERE k = 2;
SELECT __DORIS_BINLOG_OP__ AS op, k, v, __BEFORE__v__
FROM binlog("table" = "rb") ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT k, v, __DORIS_BINLOG_OP__ FROM rb@incr("incrementType" = "DETAIL")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__;
