-- Table Streams: the examples of seed 000 (three consumption types, the sync pipeline) and
-- the reading / consuming rules of DORIS_SEMANTICS.md §2.7.
CREATE TABLE orders (
    order_id BIGINT,
    status   VARCHAR(16),
    amount   DECIMAL(10, 2)
)
UNIQUE KEY(order_id)
DISTRIBUTED BY HASH(order_id) BUCKETS 8
PROPERTIES (
    "enable_unique_key_merge_on_write" = "true",
    "binlog.enable" = "true",
    "binlog.format" = "ROW",
    "binlog.need_historical_value" = "true"
);
INSERT INTO orders VALUES (1, 'created', 100.00), (2, 'created', 200.00), (3, 'created', 300.00);

CREATE STREAM orders_stream ON TABLE orders
COMMENT 'sync order changes to dwd'
PROPERTIES (
    "type" = "min_delta",
    "show_initial_rows" = "false"
);
CREATE STREAM s_append ON TABLE orders PROPERTIES ("type" = "append_only");
CREATE STREAM s_detail ON TABLE orders PROPERTIES ("type" = "detail");

-- a fresh stream is empty (show_initial_rows = false)
SELECT COUNT(*) FROM orders_stream;

INSERT INTO orders VALUES (1, 'paid', 100.00);
DELETE FROM orders WHERE order_id = 2;
INSERT INTO orders VALUES (4, 'created', 400.00);
INSERT INTO orders VALUES (5, 'created', 500.00);
DELETE FROM orders WHERE order_id = 5;

-- append_only
SELECT order_id, status, amount, __DORIS_STREAM_CHANGE_TYPE_COL__ AS change_type
FROM s_append
ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__;
-- min_delta
SELECT order_id, status, amount, __DORIS_STREAM_CHANGE_TYPE_COL__ AS change_type
FROM orders_stream
ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__;
-- detail
SELECT order_id, status, amount, __DORIS_STREAM_CHANGE_TYPE_COL__ AS change_type
FROM s_detail
ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__;

-- SELECT * leaves the virtual columns out; a plain SELECT never advances
SELECT * FROM orders_stream ORDER BY order_id, status;
SELECT __DORIS_STREAM_CHANGE_TYPE_COL__, COUNT(*) FROM orders_stream GROUP BY 1 ORDER BY 1;
SELECT order_id FROM orders_stream WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE';

-- the typical sync pipeline
CREATE TABLE dwd_orders (
    order_id BIGINT,
    status   VARCHAR(16),
    amount   DECIMAL(10, 2)
)
UNIQUE KEY(order_id)
DISTRIBUTED BY HASH(order_id) BUCKETS 8
PROPERTIES ("enable_unique_key_merge_on_write" = "true");
INSERT INTO dwd_orders SELECT * FROM orders_stream@snapshot();
SELECT * FROM dwd_orders ORDER BY order_id;
INSERT INTO dwd_orders (order_id, status, amount, __DORIS_DELETE_SIGN__)
SELECT order_id, status, amount,
       CASE WHEN __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE' THEN 1 ELSE 0 END
FROM orders_stream
WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ IN ('APPEND', 'UPDATE_AFTER', 'DELETE');
SELECT * FROM dwd_orders ORDER BY order_id;
SELECT * FROM orders ORDER BY order_id;
-- consumed: nothing pending
SELECT COUNT(*) FROM orders_stream;

-- folding starts at the new offset
UPDATE orders SET amount = 450.00 WHERE order_id = 4;
UPDATE orders SET amount = 460.00 WHERE order_id = 4;
SELECT order_id, status, amount, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM orders_stream
ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
-- filtered means skipped: the UPDATE_BEFORE is consumed too
INSERT INTO dwd_orders SELECT order_id, status, amount FROM orders_stream
WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ = 'UPDATE_AFTER';
SELECT COUNT(*) FROM orders_stream;
SELECT * FROM dwd_orders ORDER BY order_id;
-- empty results advance too
INSERT INTO orders VALUES (6, 'created', 600.00);
INSERT INTO dwd_orders SELECT order_id, status, amount FROM orders_stream WHERE order_id < 0;
SELECT COUNT(*) FROM orders_stream;
-- one statement, one window: two references advance once
INSERT INTO orders VALUES (7, 'created', 700.00);
INSERT INTO dwd_orders SELECT a.order_id, a.status, b.amount FROM orders_stream a JOIN orders_stream b ON a.order_id = b.order_id;
SELECT COUNT(*) FROM orders_stream;
SELECT * FROM dwd_orders WHERE order_id = 7;
-- a failed consumption moves nothing
INSERT INTO orders VALUES (8, 'created', 800.00);
INSERT INTO no_such_table SELECT * FROM orders_stream;
INSERT INTO dwd_orders (order_id) SELECT order_id, status FROM orders_stream;
SELECT order_id, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM orders_stream;
-- inside a transaction the advance commits with it; ROLLBACK keeps the offset
BEGIN;
INSERT INTO dwd_orders SELECT * FROM orders_stream;
ROLLBACK;
SELECT order_id FROM orders_stream;
BEGIN;
INSERT INTO dwd_orders SELECT * FROM orders_stream;
COMMIT;
SELECT COUNT(*) FROM orders_stream;
SELECT * FROM dwd_orders ORDER BY order_id;

-- snapshot: the image at the offsets; reset: the current image
INSERT INTO orders VALUES (9, 'created', 900.00);
SELECT order_id FROM orders_stream@snapshot() ORDER BY order_id;
SELECT order_id FROM orders_stream@reset() ORDER BY order_id;
SELECT order_id FROM orders_stream ORDER BY order_id;
CREATE TABLE reset_target (order_id BIGINT) DUPLICATE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1;
INSERT INTO reset_target SELECT order_id FROM orders_stream@reset();
SELECT COUNT(*) FROM orders_stream;
SELECT COUNT(*) FROM reset_target;

-- show_initial_rows = true: the first read is the full image as APPEND rows
CREATE STREAM s_initial ON TABLE orders PROPERTIES ("show_initial_rows" = "TrUe");
SELECT order_id, __DORIS_STREAM_CHANGE_TYPE_COL__, __DORIS_STREAM_SEQUENCE_COL__ > 0 FROM s_initial ORDER BY order_id;
INSERT INTO reset_target SELECT order_id FROM s_initial;
DELETE FROM orders WHERE order_id = 9;
SELECT order_id, status, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM s_initial;

-- Duplicate Key base: every type reads as append_only
CREATE TABLE events (id INT, v INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2
PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
CREATE STREAM s_events ON TABLE events;
INSERT INTO events VALUES (1, 1), (1, 1), (2, 2);
SELECT id, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM s_events ORDER BY id;
