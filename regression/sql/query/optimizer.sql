-- Optimizer: projection pruning, COUNT(*) from metadata, single-table ON / WHERE conjuncts
-- pushed below joins, join reordering of INNER / comma chains, estimated rows in EXPLAIN.
-- Results must be exactly those of the unoptimized plans (checked by hand).
CREATE TABLE f (id INT, g INT, qty INT, amount DECIMAL(10,2), d DATE, s VARCHAR(16), pad VARCHAR(32)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 4;
INSERT INTO f VALUES (1, 1, 5, 10.50, '2024-01-01', 'a', 'p1'), (2, 1, 7, 20.00, '2024-02-01', 'b', 'p2'), (3, 2, 1, 5.25, '2024-03-01', 'a', 'p3'), (4, 2, 9, 7.75, '2024-04-01', 'c', 'p4'), (5, 3, 3, 1.00, '2024-05-01', 'b', 'p5'), (6, 3, 8, 2.50, '2024-06-01', NULL, 'p6');
INSERT INTO f VALUES (7, 1, 2, 3.00, '2024-07-01', 'a', 'p7'), (8, 4, 6, 4.00, '2024-08-01', 'd', 'p8');
CREATE TABLE dim (g INT, name VARCHAR(16), region VARCHAR(8)) DUPLICATE KEY(g) DISTRIBUTED BY HASH(g) BUCKETS 2;
INSERT INTO dim VALUES (1, 'one', 'east'), (2, 'two', 'west'), (3, 'three', 'east'), (5, 'five', 'north');
CREATE TABLE r (region VARCHAR(8), boss VARCHAR(8)) DUPLICATE KEY(region) DISTRIBUTED BY HASH(region) BUCKETS 1;
INSERT INTO r VALUES ('east', 'ann'), ('west', 'bob');

-- 1. Projection pruning: a scan reads the columns the query binds (columns read=N under
-- ANALYZE; f has 7 columns), results unchanged.
EXPLAIN ANALYZE SELECT SUM(amount) FROM f WHERE d >= '2024-03-01' AND qty > 5;
SELECT SUM(amount) FROM f WHERE d >= '2024-03-01' AND qty > 5;
EXPLAIN ANALYZE SELECT * FROM f WHERE id = 3;
SELECT * FROM f WHERE id = 3;
SELECT g, COUNT(*), SUM(amount) FROM f GROUP BY g HAVING MAX(qty) > 5 ORDER BY g;
SELECT s, ROW_NUMBER() OVER (PARTITION BY g ORDER BY qty DESC) AS rn FROM f ORDER BY s, rn;
SELECT id FROM f ORDER BY pad DESC LIMIT 2;
SELECT id, (SELECT name FROM dim WHERE dim.g = f.g) AS n FROM f ORDER BY id;
SELECT id FROM f WHERE EXISTS (SELECT 1 FROM dim WHERE dim.g = f.g AND dim.region = 'east') ORDER BY id;
SELECT x.total FROM (SELECT g, SUM(qty) AS total FROM f GROUP BY g) x WHERE x.g = 1;
SELECT t.* FROM (SELECT * FROM f) t WHERE t.id = 8;
CREATE VIEW fv AS SELECT id, pad, s FROM f WHERE qty > 2;
SELECT pad FROM fv ORDER BY id;
SELECT COUNT(*) FROM fv;
SELECT f.id, dim.name FROM f JOIN dim USING (g) ORDER BY f.id;
SELECT 1 FROM f LIMIT 1;

-- 2. COUNT(*) from metadata: a DUPLICATE KEY table reads no segment (rows read stays at 0,
-- the session's Handler_read_rnd_next does not move), deletes are subtracted.
SHOW STATUS LIKE 'Handler_read_rnd_next';
SELECT COUNT(*) FROM f;
SHOW STATUS LIKE 'Handler_read_rnd_next';
EXPLAIN ANALYZE SELECT COUNT(*) FROM f;
DELETE FROM f WHERE id = 8;
SHOW STATUS LIKE 'Handler_read_rnd_next';
SELECT COUNT(*) FROM f;
SELECT COUNT(*), COUNT(*) + 1 FROM f;
SELECT COUNT(*) FROM f AS x, dim AS y;
SHOW STATUS LIKE 'Handler_read_rnd_next';
-- ... a filtered count reads the filtered column only
SELECT COUNT(*) FROM f WHERE qty > 5;
-- Merge-on-write UNIQUE: only the delete sign is read (rows carrying it do not count).
CREATE TABLE u (k INT, v VARCHAR(8)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("enable_unique_key_merge_on_write" = "true");
INSERT INTO u VALUES (1, 'a'), (2, 'b'), (3, 'c');
INSERT INTO u VALUES (2, 'bb'), (4, 'd');
DELETE FROM u WHERE k = 3;
INSERT INTO u (k, v, __DORIS_DELETE_SIGN__) VALUES (1, 'a', 1);
SELECT COUNT(*) FROM u;
SELECT * FROM u ORDER BY k;
EXPLAIN ANALYZE SELECT COUNT(*) FROM u;
-- AGGREGATE KEY and merge-on-read UNIQUE tables merge first: counted by reading keys.
CREATE TABLE ag (k INT, n BIGINT SUM) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2;
INSERT INTO ag VALUES (1, 1), (2, 2);
INSERT INTO ag VALUES (1, 10), (3, 3);
SELECT COUNT(*) FROM ag;
SELECT k, n FROM ag ORDER BY k;
CREATE TABLE mor (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("enable_unique_key_merge_on_write" = "false");
INSERT INTO mor VALUES (1, 1), (2, 2);
INSERT INTO mor VALUES (1, 5), (3, 3);
SELECT COUNT(*) FROM mor;
SELECT SUM(v) FROM mor;

-- 3. Single-table conjuncts go below the join: ON conjuncts over the joined table of INNER and
-- LEFT joins, over earlier tables of INNER joins; never over the preserved side of an outer join.
EXPLAIN SELECT f.id, dim.name FROM f JOIN dim ON f.g = dim.g AND dim.region = 'east' AND f.qty > 2;
SELECT f.id, dim.name FROM f JOIN dim ON f.g = dim.g AND dim.region = 'east' AND f.qty > 2 ORDER BY f.id;
EXPLAIN SELECT f.id, dim.name FROM f LEFT JOIN dim ON f.g = dim.g AND dim.region = 'east' AND f.qty > 2;
SELECT f.id, dim.name FROM f LEFT JOIN dim ON f.g = dim.g AND dim.region = 'east' AND f.qty > 2 ORDER BY f.id;
SELECT f.id, dim.name FROM f RIGHT JOIN dim ON f.g = dim.g AND f.qty > 6 ORDER BY dim.g, f.id;
SELECT f.id, dim.name FROM dim LEFT JOIN f ON f.g = dim.g AND dim.g > 1 ORDER BY dim.g, f.id;
SELECT f.id, dim.name, r.boss FROM f LEFT JOIN dim ON f.g = dim.g JOIN r ON r.region = dim.region AND dim.name <> 'one' ORDER BY f.id;
SELECT f.id FROM f, dim WHERE f.g = dim.g AND dim.name = 'two' AND f.qty < 5 ORDER BY f.id;
-- a table with hidden columns (u: the delete sign) on the left of a join: the right side's
-- columns line up with the operators' (the joined row carries the hidden column unnamed)
SELECT u.k, f.id, f.s FROM u JOIN f ON f.id = u.k ORDER BY u.k;
SELECT u.*, f.pad FROM u RIGHT JOIN f ON f.id = u.k ORDER BY f.id;
SELECT * FROM u, r ORDER BY u.k, r.region;

-- 4. Join reordering: the smallest input first, each next one connected by an equality; the
-- join order shows on the top join; SELECT * keeps the FROM order.
EXPLAIN SELECT * FROM f JOIN dim ON f.g = dim.g JOIN r ON r.region = dim.region;
SELECT * FROM f JOIN dim ON f.g = dim.g JOIN r ON r.region = dim.region ORDER BY f.id;
SELECT f.*, r.boss FROM f, dim, r WHERE f.g = dim.g AND r.region = dim.region AND f.qty > 1 ORDER BY f.id;
SELECT r.*, f.id FROM f JOIN dim ON f.g = dim.g JOIN r ON r.region = dim.region ORDER BY f.id;
SELECT COUNT(*) FROM f, dim, r;
SELECT f.id, dim.g, r.region FROM f JOIN r ON 1 = 1 JOIN dim ON f.g = dim.g AND r.region = dim.region ORDER BY f.id;
-- an outer join in the chain keeps the FROM order
EXPLAIN SELECT * FROM f JOIN dim ON f.g = dim.g LEFT JOIN r ON r.region = dim.region;

-- 5. Estimated rows per operator (est rows=N), next to the actual ones under ANALYZE.
EXPLAIN SELECT g, COUNT(*) FROM f WHERE qty > 1 GROUP BY g ORDER BY g LIMIT 2;
EXPLAIN ANALYZE SELECT f.id FROM f JOIN dim ON f.g = dim.g WHERE dim.region = 'east';
