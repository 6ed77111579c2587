-- Table Stream DDL, SHOW, information_schema and errors (DORIS_SEMANTICS.md §1.2-1.5, §3, §4).
CREATE TABLE orders (order_id BIGINT, status VARCHAR(16), amount DECIMAL(10, 2))
UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 4
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
CREATE TABLE nohist (id INT, v INT) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true", "binlog.format" = "ROW");
CREATE TABLE plain (id INT, v INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
CREATE VIEW v_orders AS SELECT * FROM orders;
INSERT INTO orders VALUES (1, 'created', 100.00);

CREATE STREAM orders_stream ON TABLE orders
COMMENT 'sync order changes to dwd'
PROPERTIES ("type" = "min_delta", "show_initial_rows" = "false");
SHOW CREATE STREAM orders_stream;
SHOW STREAMS;
SHOW STREAMS LIKE 'orders%';
SHOW TABLES;
DESC orders_stream;
SHOW COLUMNS FROM orders_stream;
-- R8: with hidden columns shown, the virtual columns follow the base table's visible ones
SET show_hidden_columns = true;
DESC orders_stream;
-- @mask_column 4
SELECT * FROM orders_stream;
SET show_hidden_columns = false;
SELECT STREAM_NAME, CONSUME_TYPE, BASE_TABLE_DB = DATABASE(), BASE_TABLE_NAME, ENABLED, IS_STALE, STALE_REASON
FROM information_schema.table_streams WHERE DB_NAME = DATABASE();
SELECT STREAM_NAME, UNIT, CONSUMPTION_STATUS > 0, LAG, LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption WHERE DB_NAME = DATABASE();

-- properties are checked before the base table (Doris #66683)
CREATE STREAM s1 ON TABLE plain PROPERTIES ("type" = "invalid_type");
CREATE STREAM s1 ON TABLE orders PROPERTIES ("type" = "invalid_type");
CREATE STREAM s1 ON TABLE orders PROPERTIES ("show_initial_rows" = "yes");
CREATE STREAM s1 ON TABLE orders PROPERTIES ("show_initial_rows" = " true ");
CREATE STREAM s1 ON TABLE orders PROPERTIES ("foo" = "bar");
-- base table requirements
CREATE STREAM s1 ON TABLE plain;
CREATE STREAM s1 ON TABLE nohist;
CREATE STREAM s1 ON TABLE nohist PROPERTIES ("type" = "detail");
CREATE STREAM s2 ON TABLE nohist PROPERTIES ("type" = "APPEND_ONLY");
CREATE STREAM s3 ON TABLE no_such_table;
CREATE STREAM s3 ON TABLE v_orders;
CREATE OR REPLACE STREAM s3 ON TABLE orders;
-- one namespace with tables
CREATE STREAM orders ON TABLE orders;
CREATE STREAM orders_stream ON TABLE orders;
CREATE STREAM IF NOT EXISTS orders_stream ON TABLE orders;
CREATE TABLE orders_stream (id INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;

-- ALTER STREAM: only the comment
ALTER STREAM orders_stream SET COMMENT 'it''s new';
SHOW CREATE STREAM orders_stream;
ALTER STREAM orders_stream MODIFY COMMENT '';
SHOW CREATE STREAM orders_stream;
ALTER STREAM orders SET COMMENT 'x';
ALTER STREAM no_such SET COMMENT 'x';

-- a stream is not a table
DROP TABLE orders_stream;
SHOW CREATE TABLE orders_stream;
ALTER TABLE orders_stream ADD COLUMN c INT;
TRUNCATE TABLE orders_stream;
INSERT INTO orders_stream VALUES (1, 'x', 1.00);
DELETE FROM orders_stream WHERE order_id = 1;
SHOW CREATE STREAM orders;
-- scan parameters
SELECT * FROM orders_stream@incr();
SELECT * FROM orders_stream@snapshot('unknown' = 'x');
SELECT * FROM orders_stream@reset('a' = 'b');
SELECT * FROM orders@snapshot();
SELECT __DORIS_STREAM_CHANGE_TYPE_COL__ FROM orders_stream@snapshot();
SELECT __DORIS_STREAM_SEQUENCE_COL__ FROM orders_stream@reset();

-- RENAME follows the id; DROP TABLE leaves the stream stale (R1)
ALTER TABLE orders RENAME orders_v2;
SHOW CREATE STREAM orders_stream;
SELECT BASE_TABLE_NAME FROM information_schema.table_streams WHERE STREAM_NAME = 'orders_stream' AND DB_NAME = DATABASE();
DROP TABLE orders_v2 FORCE;
SELECT STREAM_NAME, BASE_TABLE_NAME, BASE_TABLE_TYPE, ENABLED, IS_STALE, STALE_REASON
FROM information_schema.table_streams WHERE DB_NAME = DATABASE() ORDER BY STREAM_NAME;
SELECT * FROM orders_stream;
SHOW CREATE STREAM orders_stream;
-- a new table of the same name never revives it
CREATE TABLE orders_v2 (order_id BIGINT) UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true", "binlog.format" = "ROW");
SELECT * FROM orders_stream;

DROP STREAM orders_stream;
DROP STREAM orders_stream;
DROP STREAM IF EXISTS orders_stream;
DROP STREAM s1 FORCE;
DROP STREAM plain;
SHOW STREAMS;
