-- Named window refinement and the statistics / bit aggregates over windows (MySQL 8).
-- OVER (w ...) and WINDOW w2 AS (w1 ...) refine a named window: the partition comes from the
-- root of the chain, the one ORDER BY along it is inherited, the frame is the refining
-- window's own. Checks as MySQL's Window::setup_windows1: 3579 unknown name, 3580 cycle, then
-- window by window 3581 / 3583 / 3582, then 3591. Every query orders its whole output.
DROP DATABASE IF EXISTS q_winn FORCE;
CREATE DATABASE q_winn;
USE q_winn;
CREATE TABLE t (id INT, g VARCHAR(10), n INT, d DOUBLE, dc DECIMAL(10,2), b BIGINT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3;
INSERT INTO t VALUES (1, 'a', 10, 1.5, 1.25, 12), (2, 'a', 20, 2.5, 2.50, 10), (3, 'a', 20, NULL, 3.75, 6), (4, 'b', NULL, 4.0, NULL, NULL), (5, 'b', 50, 5.0, 5.00, 5), (6, NULL, 60, NULL, 6.00, -1), (7, NULL, NULL, 7.0, 0.01, 3), (8, 'b', 30, 1.0, 3.75, 7);
CREATE TABLE s (id INT, x DOUBLE) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO s VALUES (1, 1e12), (2, 1), (3, 2), (4, 3), (5, 1), (6, 2), (7, 3), (8, 1e12), (9, 4), (10, 4);
-- OVER (w ORDER BY ...) inherits the partition; OVER (w) and OVER w are the same window
SELECT id, g, n, SUM(n) OVER (w ORDER BY id) AS run, COUNT(*) OVER (w) AS c, SUM(n) OVER w AS tot, ROW_NUMBER() OVER (w ORDER BY n DESC, id) AS rn FROM t WINDOW w AS (PARTITION BY g) ORDER BY id;
-- OVER (w frame) inherits partition and order; the frame is the inline window's
SELECT id, g, dc, SUM(dc) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s2, LAST_VALUE(id) OVER (w ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS lv, COUNT(*) OVER (w RANGE BETWEEN 1.25 PRECEDING AND 1.25 FOLLOWING) AS near, RANK() OVER w AS r FROM t WINDOW w AS (PARTITION BY g ORDER BY dc) ORDER BY id;
-- an inherited DESC order, and names compared without case
SELECT id, b, FIRST_VALUE(id) OVER (W ROWS 1 PRECEDING) AS fv, SUM(b) OVER (w RANGE BETWEEN CURRENT ROW AND 4 FOLLOWING) AS s FROM t WINDOW w AS (ORDER BY b DESC) ORDER BY id;
-- chains: w3 -> w2 -> w1, written in any order; each level adds one part
SELECT id, g, COUNT(*) OVER w1 AS c1, SUM(id) OVER w2 AS s2, SUM(id) OVER w3 AS s3, SUM(id) OVER (w2 ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS s4 FROM t WINDOW w3 AS (w2 ROWS 1 PRECEDING), w2 AS (w1 ORDER BY id), w1 AS (PARTITION BY g) ORDER BY id;
SELECT id, ROW_NUMBER() OVER w2 AS rn, MAX(id) OVER (w2 ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) AS m FROM t WINDOW w1 AS (ORDER BY id DESC), w2 AS (w1) ORDER BY id;
-- with GROUP BY, and in ORDER BY
SELECT g, SUM(n) AS sn, SUM(SUM(n)) OVER (w ORDER BY g) AS run, RANK() OVER (w ORDER BY COUNT(*) DESC, g) AS r FROM t GROUP BY g WINDOW w AS () ORDER BY g;
SELECT id, g FROM t WINDOW w AS (PARTITION BY g) ORDER BY COUNT(*) OVER (w), ROW_NUMBER() OVER (w ORDER BY id DESC), id;
-- a refined window's frame is checked under the refining window's name
SELECT SUM(n) OVER (w ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM t WINDOW w AS (ORDER BY id);
SELECT SUM(n) OVER w2 FROM t WINDOW w1 AS (PARTITION BY g), w2 AS (w1 RANGE 1 PRECEDING);
SELECT SUM(n) OVER (w RANGE INTERVAL 1 DAY PRECEDING) FROM t WINDOW w AS (ORDER BY id);
-- 3579: an unknown name, refined inline or by a definition (used or not), or defined only in
-- an outer block
SELECT SUM(n) OVER (v ORDER BY id) FROM t WINDOW w AS (PARTITION BY g);
SELECT id FROM t WINDOW w2 AS (nope ORDER BY id) ORDER BY id;
SELECT (SELECT COUNT(*) OVER (w ORDER BY id) FROM t LIMIT 1) FROM t WINDOW w AS (PARTITION BY g);
-- 3580: a cycle (also a window refining itself)
SELECT id FROM t WINDOW w1 AS (w2), w2 AS (w3 ORDER BY id), w3 AS (w1);
SELECT COUNT(*) OVER w FROM t WINDOW w AS (w);
-- 3581: a window that refines another may not partition
SELECT SUM(n) OVER (w PARTITION BY id) FROM t WINDOW w AS (ORDER BY id);
SELECT id FROM t WINDOW w1 AS (), w2 AS (w1 PARTITION BY g);
-- 3582: a window with a frame may not be refined (OVER (w) refines w; OVER w does not)
SELECT SUM(n) OVER (w ORDER BY id) FROM t WINDOW w AS (ROWS UNBOUNDED PRECEDING);
SELECT SUM(n) OVER (w) FROM t WINDOW w AS (ORDER BY id ROWS 1 PRECEDING);
SELECT id, SUM(n) OVER w AS s FROM t WINDOW w AS (ORDER BY id ROWS 1 PRECEDING) ORDER BY id;
SELECT id FROM t WINDOW w1 AS (ORDER BY id RANGE CURRENT ROW), w2 AS (w1);
-- 3583: two ORDER BYs along a chain (the refining window named first)
SELECT SUM(n) OVER (w ORDER BY id) FROM t WINDOW w AS (PARTITION BY g ORDER BY n);
SELECT id FROM t WINDOW w1 AS (ORDER BY id), w2 AS (w1), w3 AS (w2 ORDER BY n);
-- the first failing window in written order decides; names defined twice (3591) come last
SELECT id FROM t WINDOW w1 AS (ORDER BY id), w2 AS (w1 ORDER BY n), w3 AS (w1 PARTITION BY g);
SELECT id FROM t WINDOW w1 AS (ORDER BY id), w3 AS (w1 PARTITION BY g), w2 AS (w1 ORDER BY n);
SELECT id FROM t WINDOW w AS (), W AS (), v AS (x);
SELECT id FROM t WINDOW w AS (), v AS (w), W AS (ORDER BY id);
-- aggregates: DISTINCT inside a window aggregate and GROUP_CONCAT over a window are 1235
SELECT COUNT(DISTINCT n) OVER () FROM t;
SELECT SUM(DISTINCT n) OVER w FROM t WINDOW w AS (ORDER BY id);
SELECT GROUP_CONCAT(g) OVER (PARTITION BY g) FROM t;
SELECT GROUP_CONCAT(DISTINCT g ORDER BY id SEPARATOR '-') OVER (ORDER BY id) FROM t;
-- STDDEV / VARIANCE family over the whole partition: as GROUP BY computes them
SELECT id, g, STDDEV_POP(n) OVER w AS sp, STD(n) OVER w AS st, STDDEV(n) OVER w AS sd, STDDEV_SAMP(n) OVER w AS ss, VAR_POP(n) OVER w AS vp, VARIANCE(n) OVER w AS v, VAR_SAMP(n) OVER w AS vs FROM t WINDOW w AS (PARTITION BY g) ORDER BY id;
SELECT g, STDDEV_POP(n) AS sp, STDDEV_SAMP(n) AS ss, VAR_POP(n) AS vp, VAR_SAMP(n) AS vs FROM t GROUP BY g ORDER BY g;
SELECT id, VAR_POP(d) OVER () AS vd, VAR_SAMP(dc) OVER () AS vdc, STDDEV_POP(b) OVER () AS sb FROM t WHERE id < 3 ORDER BY id;
-- running (default frame: peers included), ROWS and RANGE frames, empty frames (NULL)
SELECT id, n, VAR_POP(n) OVER (ORDER BY n) AS vrun, VAR_SAMP(n) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS vs3, STDDEV_POP(n) OVER (ORDER BY n RANGE BETWEEN 10 PRECEDING AND 10 FOLLOWING) AS sdr, VAR_POP(n) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) AS vf FROM t ORDER BY id;
-- sliding frames stay exact after a huge value leaves them (no subtraction)
SELECT id, x, VAR_POP(x) OVER (ORDER BY id ROWS 2 PRECEDING) AS v3, STDDEV_SAMP(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s3, VAR_SAMP(x) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS r2 FROM s ORDER BY id;
-- BIT_AND / BIT_OR / BIT_XOR: BIGINT UNSIGNED, the neutral value over an empty or all-NULL frame
SELECT id, g, b, BIT_AND(b) OVER w AS ba, BIT_OR(b) OVER w AS bo, BIT_XOR(b) OVER w AS bx FROM t WINDOW w AS (PARTITION BY g) ORDER BY id;
SELECT g, BIT_AND(b) AS ba, BIT_OR(b) AS bo, BIT_XOR(b) AS bx FROM t GROUP BY g ORDER BY g;
SELECT id, b, BIT_OR(b) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS bo3, BIT_AND(b) OVER (ORDER BY b) AS barun, BIT_XOR(b) OVER (ORDER BY b RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS bxr, BIT_AND(b) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS baf, BIT_OR(n) OVER (PARTITION BY n IS NULL) AS bon FROM t ORDER BY id;
SELECT id, BIT_AND(b) OVER (ORDER BY id ROWS BETWEEN 3 FOLLOWING AND 4 FOLLOWING) AS ba, BIT_OR(b) OVER (ORDER BY id ROWS BETWEEN 3 FOLLOWING AND 4 FOLLOWING) AS bo, BIT_XOR(b) OVER (ORDER BY id ROWS BETWEEN 3 FOLLOWING AND 4 FOLLOWING) AS bx FROM t WHERE id > 4 ORDER BY id;
-- over the aggregated rows, and a named refined window
SELECT g, SUM(n) AS sn, STDDEV_POP(SUM(n)) OVER () AS sp, BIT_XOR(COUNT(*)) OVER (w ORDER BY g) AS bx FROM t GROUP BY g WINDOW w AS () ORDER BY g;
DROP DATABASE q_winn FORCE;
