-- Scans skip partitions, buckets, segments and pages that cannot hold matching rows; the
-- results must be exactly those of a full scan. Mixed bounds, strict and inclusive comparisons,
-- constants on either side, BETWEEN, dates, decimals and non-convertible constants.
CREATE TABLE p (k INT, d DATE, x DECIMAL(6,2), v VARCHAR(8)) DUPLICATE KEY(k) PARTITION BY RANGE(k) (PARTITION p1 VALUES LESS THAN (100), PARTITION p2 VALUES LESS THAN (200), PARTITION p3 VALUES LESS THAN (300)) DISTRIBUTED BY HASH(k) BUCKETS 4;
INSERT INTO p VALUES (1, '2024-01-01', 1.25, 'a'), (50, '2024-01-05', 2.50, 'B'), (99, '2024-02-01', 3.75, 'c'), (100, '2024-03-01', 4.00, 'd'), (150, '2024-03-15', 5.55, 'E'), (199, '2024-04-01', 6.00, 'f'), (200, '2024-05-01', 7.25, 'g'), (250, '2024-06-01', 8.50, 'h'), (299, '2024-07-01', 9.99, 'i');
INSERT INTO p VALUES (2, '2023-12-31', 0.01, 'z'), (101, '2024-03-02', 4.01, 'y'), (201, '2024-05-02', 7.26, 'x');
SELECT k FROM p WHERE k = 150;
SELECT k FROM p WHERE 150 = k;
SELECT k FROM p WHERE k = 151;
SELECT k FROM p WHERE k < 100 ORDER BY k;
SELECT k FROM p WHERE k <= 100 ORDER BY k;
SELECT k FROM p WHERE k > 199 ORDER BY k;
SELECT k FROM p WHERE k >= 199 AND k < 201 ORDER BY k;
SELECT k FROM p WHERE 200 > k AND k > 99 ORDER BY k;
SELECT k FROM p WHERE k BETWEEN 50 AND 101 ORDER BY k;
SELECT k FROM p WHERE k > 99.5 AND k < 100.5 ORDER BY k;
SELECT k FROM p WHERE k = 99.5;
SELECT k FROM p WHERE k > 1000;
SELECT k FROM p WHERE k = 'abc';
SELECT k FROM p WHERE d >= '2024-03-01' AND d < '2024-05-01 12:00:00' ORDER BY k;
SELECT k FROM p WHERE x > 5.5 AND x <= 7.25 ORDER BY k;
SELECT k FROM p WHERE x = 4.005;
SELECT k FROM p WHERE v = 'b' ORDER BY k;
SELECT k FROM p WHERE v >= 'e' AND v < 'h' ORDER BY k;
SELECT k FROM p WHERE k = 1 OR k = 299 ORDER BY k;
SELECT k FROM p WHERE NOT (k < 250) ORDER BY k;
SELECT COUNT(*) FROM p WHERE k > 0 && k < 300;
DELETE FROM p WHERE k >= 100 AND k < 102;
SELECT k FROM p WHERE k BETWEEN 99 AND 102 ORDER BY k;
CREATE TABLE u (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 8 PROPERTIES ("enable_unique_key_merge_on_write" = "true");
INSERT INTO u VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 9);
UPDATE u SET v = v * 100 WHERE k = 5;
SELECT * FROM u WHERE k = 5;
DELETE FROM u WHERE k = 6;
SELECT * FROM u WHERE k >= 5 AND k <= 7 ORDER BY k;
SELECT COUNT(*) FROM u;
-- Pruning is observable in this session's counters (SHOW STATUS): an equality on the HASH
-- column reads one tablet; a key range reads the pages that can hold it, not the table.
CREATE TABLE big (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 4;
INSERT INTO big SELECT k, v FROM u;
INSERT INTO big SELECT k + 10, v FROM big;
INSERT INTO big SELECT k + 20, v FROM big;
INSERT INTO big SELECT k + 40, v FROM big;
INSERT INTO big SELECT k + 80, v FROM big;
INSERT INTO big SELECT k + 160, v FROM big;
INSERT INTO big SELECT k + 320, v FROM big;
INSERT INTO big SELECT k + 640, v FROM big;
INSERT INTO big SELECT k + 1280, v FROM big;
INSERT INTO big SELECT k + 2560, v FROM big;
INSERT INTO big SELECT k + 5120, v FROM big;
INSERT INTO big SELECT k + 10240, v FROM big;
INSERT INTO big SELECT k + 20480, v FROM big;
INSERT INTO big SELECT k + 40960, v FROM big;
ADMIN COMPACT TABLE big WHERE type = 'BASE';
SELECT COUNT(*), MIN(k), MAX(k) FROM big;
-- @connection counters
SELECT v FROM big WHERE k = 77777;
SHOW STATUS LIKE 'Rivulet_scan%';
SHOW STATUS LIKE 'Handler_read_rnd_next';
SELECT COUNT(*) FROM big WHERE k BETWEEN 1000 AND 1010;
SHOW STATUS LIKE 'Rivulet_scan_tablets';
SHOW STATUS LIKE 'Handler_read_rnd_next';
SELECT COUNT(*) FROM big;
SHOW STATUS LIKE 'Handler_read_rnd_next';
