-- Doris bitmap scalar functions over CRoaring (TO_BITMAP, BITMAP_COUNT, BITMAP_TO_STRING,
-- BITMAP_FROM_STRING, BITMAP_CONTAINS, BITMAP_EMPTY, BITMAP_HASH). A bitmap value is a binary
-- string holding the CRoaring portable serialization (planner/README.md §Functions), so
-- results are shown through BITMAP_TO_STRING / BITMAP_COUNT. Expected results reviewed line by
-- line against the Doris documentation: to_bitmap(-1) is NULL, bitmap_from_string of an invalid
-- list is NULL, bitmap_hash('hello') contains 1321743225 (MurmurHash3_32, seed 104729).
-- Elements are 32-bit (Debian's CRoaring 0.2.66 has no roaring64): values above 4294967295
-- are out of range (NULL), where Doris accepts 64-bit values.
-- The bitmap and collection aggregates (BITMAP_UNION, BITMAP_UNION_COUNT, BITMAP_INTERSECT,
-- BITMAP_AGG, ARRAY_AGG, COLLECT_LIST, COLLECT_SET) are covered by tests/planner/test_bitmap.c
-- until plan_select.c routes those names to plan__agg_doris_kind.
DROP DATABASE IF EXISTS q_bm FORCE;
CREATE DATABASE q_bm;
USE q_bm;
CREATE TABLE t (id INT, u BIGINT, s VARCHAR(40)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO t VALUES (1, 10, '1,2,3'), (2, 0, ''), (3, -4, '5, 3'), (4, NULL, NULL), (5, 4294967295, 'x');
-- ---- TO_BITMAP ----
SELECT bitmap_to_string(to_bitmap(10)), bitmap_to_string(to_bitmap(0)), bitmap_to_string(to_bitmap('1234567')), bitmap_count(to_bitmap(10));
SELECT to_bitmap(-1), to_bitmap(NULL), to_bitmap('abc'), to_bitmap(4294967296), bitmap_to_string(to_bitmap(4294967295));
SELECT id, bitmap_to_string(to_bitmap(u)), bitmap_count(to_bitmap(u)) FROM t ORDER BY id;
-- ---- BITMAP_FROM_STRING / BITMAP_TO_STRING ----
SELECT bitmap_to_string(bitmap_from_string('0, 1, 2')), bitmap_to_string(bitmap_from_string('3,1,2,3,1')), bitmap_to_string(bitmap_from_string(''));
SELECT bitmap_from_string('-1, 0, 1, 2'), bitmap_from_string('1,,2'), bitmap_from_string('a'), bitmap_from_string(NULL), bitmap_to_string(NULL);
SELECT id, bitmap_to_string(bitmap_from_string(s)), bitmap_count(bitmap_from_string(s)) FROM t ORDER BY id;
-- ---- BITMAP_COUNT / BITMAP_EMPTY / BITMAP_CONTAINS ----
SELECT bitmap_count(bitmap_empty()), bitmap_to_string(bitmap_empty()), bitmap_count(NULL), bitmap_count(bitmap_from_string('1,100000,4000000000'));
SELECT bitmap_contains(to_bitmap(1), 2), bitmap_contains(to_bitmap(1), 1), bitmap_contains(bitmap_from_string('1,2,3'), '3'), bitmap_contains(NULL, 1), bitmap_contains(to_bitmap(1), NULL), bitmap_contains(to_bitmap(1), -1);
SELECT id, bitmap_contains(bitmap_from_string(s), 3) FROM t ORDER BY id;
-- ---- BITMAP_HASH ----
SELECT bitmap_to_string(bitmap_hash('hello')), bitmap_count(bitmap_hash('hello')), bitmap_hash(NULL);
-- ---- errors ----
SELECT bitmap_count('not a bitmap');
SELECT bitmap_to_string(to_bitmap(1), 2);
SELECT to_bitmap();
-- Aggregates: bitmaps of values, unions of bitmaps, collections (NULLs ignored).
CREATE TABLE bv (g INT, x INT, s VARCHAR(8)) DUPLICATE KEY(g) DISTRIBUTED BY HASH(g) BUCKETS 2;
INSERT INTO bv VALUES (1, 3, 'c'), (1, 1, 'a'), (1, 3, 'c'), (2, 7, 'x'), (2, NULL, NULL), (3, NULL, NULL);
SELECT g, BITMAP_TO_STRING(BITMAP_AGG(x)), BITMAP_UNION_COUNT(TO_BITMAP(x)), BITMAP_TO_STRING(BITMAP_UNION(TO_BITMAP(x))) FROM bv GROUP BY g ORDER BY g;
SELECT g, COLLECT_SET(x), ARRAY_AGG(s) FROM bv WHERE x IS NOT NULL GROUP BY g ORDER BY g;
SELECT BITMAP_UNION_COUNT(TO_BITMAP(x)), BITMAP_TO_STRING(BITMAP_INTERSECT(TO_BITMAP(x))) FROM bv WHERE g = 1 AND x = 3;
SELECT BITMAP_UNION_COUNT(TO_BITMAP(x)), COLLECT_LIST(x) FROM bv WHERE g > 100;
DROP DATABASE q_bm;
