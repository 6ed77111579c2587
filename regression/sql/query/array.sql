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

-- 8. ARRAY(...) constructor: element type from the arguments
SELECT array(1, 2, 3), array(null, 1), array(), array(NULL), array('1', 2, 1.1);
SELECT array(1, 2.5), array(1.5e0, 2), array('a', NULL, 'b"c'), array(true, false);
SELECT array(CAST('2024-01-02' AS DATE), CAST('2024-01-03 04:05:06' AS DATETIME));
SELECT array(array(1, 2), array(3)), array(9223372036854775807, -1);
SELECT array(id, ai) FROM a WHERE id = 1;
CREATE TABLE ctas_arr DISTRIBUTED BY HASH(x) BUCKETS 1 AS SELECT 1 AS x, array(1, 2) AS a1, array('p', 'q') AS a2;
DESC ctas_arr;
SELECT * FROM ctas_arr;
INSERT INTO a (id, ai, av) VALUES (30, array(7, 8), array('x', NULL));
SELECT id, ai, av FROM a WHERE id = 30;

-- 9. ARRAY_SIZE / SIZE / CARDINALITY
SELECT id, array_size(ai), size(ai), cardinality(ai) FROM a WHERE id <= 4 ORDER BY id;
SELECT array_size(array()), size(NULL), cardinality(array(NULL, NULL));
SELECT array_size(1);
SELECT array_size('[1, 2]');
SELECT array_size(ai, 1) FROM a;

-- 10. ARRAY_CONTAINS / ARRAY_POSITION (NULL finds a null element)
SELECT id, array_contains(ai, 2), array_contains(ai, NULL), array_position(ai, 2), array_position(ai, NULL) FROM a WHERE id <= 4 ORDER BY id;
SELECT array_contains(array('a', 'B'), 'b'), array_contains(array('a', 'B'), 'B'), array_position(array(1.5, 2.5), 2.5);
SELECT array_contains(adt, '2024-02-03'), array_position(adtm, '2024-01-02 00:00:00') FROM a WHERE id = 1;
SELECT array_position(array(), 1), array_contains(NULL, 1), array_position(array(1, NULL), NULL);

-- 11. ELEMENT_AT: 1-based, negative from the end, 0 and out of range NULL
SELECT id, element_at(ai, 1), element_at(ai, -1), element_at(ai, 0), element_at(ai, 4), element_at(ai, -4) FROM a WHERE id <= 4 ORDER BY id;
SELECT element_at(av, 2), element_at(ast, 2), element_at(adt, 1), element_at(adec, 3), element_at(ad, 1) FROM a WHERE id = 1;
SELECT element_at(aa, 1), element_at(aa, 3), element_at(sa, 1) FROM n WHERE id = 1;
SELECT element_at(array(1, 2), NULL), element_at(NULL, 1);
SELECT element_at(adt, 1) + INTERVAL 1 DAY, element_at(ai, 2) * 10 FROM a WHERE id = 1;

-- 12. ARRAY_JOIN(arr, sep[, null_replace])
SELECT id, array_join(ai, '_'), array_join(ai, '_', 'null'), array_join(ai, '') FROM a WHERE id <= 4 ORDER BY id;
SELECT array_join(ast, '|'), array_join(adt, ','), array_join(adec, ' + ') FROM a WHERE id = 1;
SELECT array_join(array('a', NULL, 'b'), '-', ''), array_join(array(1, 2), NULL), array_join(array(1, NULL), ',', NULL);

-- 13. ARRAY_DISTINCT, ARRAY_SORT (NULLs first)
SELECT array_distinct(array(1, 2, 2, NULL, 3, NULL, 1)), array_sort(array(3, NULL, 1, 2, NULL));
SELECT array_sort(array('b', 'a', 'C')), array_distinct(array('a', 'A', 'a')), array_sort(array(2.5, -1, 10));
SELECT array_sort(adt), array_distinct(array()), array_sort(NULL) FROM a WHERE id = 1;

-- 14. ARRAY_MIN / ARRAY_MAX / ARRAY_SUM / ARRAY_AVG (NULLs skipped; empty or all NULL: NULL)
SELECT id, array_min(ai), array_max(ai), array_sum(ai), array_avg(ai) FROM a WHERE id <= 4 ORDER BY id;
SELECT array_min(adec), array_max(adec), array_sum(adec), array_avg(adec) FROM a WHERE id = 1;
SELECT array_sum(ad), array_avg(ad), array_min(adt), array_max(av) FROM a WHERE id = 1;
SELECT array_sum(array(NULL)), array_avg(array()), array_max(array(NULL, 5)), array_sum(al) FROM a WHERE id = 1;
SELECT array_sum(av) FROM a;

-- 15. ARRAYS_OVERLAP, ARRAY_SLICE, ARRAY_REMOVE, ARRAY_CONCAT
SELECT arrays_overlap(array(1, 2), array(2, 3)), arrays_overlap(array(1, 2), array(3)), arrays_overlap(array(1, NULL), array(NULL)), arrays_overlap(NULL, array(1));
SELECT array_slice(array(1, 2, 3, 6), 2, 3), array_slice(array(1, 4, 3, 5, NULL), -2, 1), array_slice(array(1, 3, 5), 0), array_slice(array(1, 3, 5), 2);
SELECT array_slice(array(1, 2), 5), array_slice(array(1, 2), -5, 1), array_slice(array(1, 2), 1, -1), array_slice(array(1, 2), NULL), array_slice(ast, 2, 2) FROM a WHERE id = 1;
SELECT array_remove(array(1, 2, NULL, 2, 3), 2), array_remove(array('a', 'b'), 'a'), array_remove(array(1, NULL), NULL), array_remove(NULL, 1);
SELECT array_concat(array(1, 2), array(7, 8), array(5, 6)), array_concat(array(1, 2), NULL), array_concat(array(1, NULL), array(NULL)), array_concat(array(), array());
SELECT array_concat(array(1), array(2.5)), array_concat(ai, ab) FROM a WHERE id = 1;

-- 16. ARRAY_AGG / COLLECT_LIST / COLLECT_SET return ARRAY values
SELECT array_agg(id), collect_list(av), collect_set(id % 2) FROM a WHERE id <= 4;
SELECT array_size(array_agg(id)), element_at(collect_list(id), -1) FROM a WHERE id <= 4;
SELECT collect_list(ai) FROM a WHERE id <= 2;
CREATE TABLE ctas_agg DISTRIBUTED BY HASH(x) BUCKETS 1 AS SELECT 1 AS x, array_agg(id) AS ids FROM a WHERE id <= 4;
DESC ctas_agg;
SELECT * FROM ctas_agg;
SELECT array_agg('q"x');

-- 17. Array literals [a, b] and subscripts arr[i] (ELEMENT_AT)
SELECT [1, 2, 3], [], ['a', NULL], [[1], [2, 3]], [1, 2][2], ['x', 'y'][-1], [1][5];
SELECT id, ai[1], ai[-1], ai[0], av[2] FROM a WHERE id <= 2 ORDER BY id;
SELECT aa[1][2], sa[1][1] FROM n WHERE id = 1;
SELECT array(id, ai) FROM a;
SELECT array_size([1, 2] ), array_contains([1, 2], 1 + 1), array_sum(al) FROM a WHERE id = 1;
INSERT INTO a (id, ai, ast) VALUES (31, [1, 2], ['lit', NULL]);
SELECT id, ai, ast FROM a WHERE id = 31;
UPDATE u SET nums = array_concat(nums, [99]) WHERE k = 1;
SELECT k, nums FROM u WHERE k = 1;
