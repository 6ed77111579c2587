-- CREATE TABLE: models, columns, partitions, distribution, properties, LIKE, and every
-- Row Binlog error of seed 001 word for word.
DROP DATABASE IF EXISTS ddl_ct FORCE;
CREATE DATABASE ddl_ct;
USE ddl_ct;
-- Seed 001's orders table.
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
    "binlog.need_historical_value" = "true",
    "binlog.ttl_seconds" = "86400"
);
SHOW CREATE TABLE orders;
CREATE TABLE orders (a INT) DUPLICATE KEY(a);
CREATE TABLE IF NOT EXISTS orders (a INT) DUPLICATE KEY(a);
-- Seed 001 errors.
CREATE TABLE e1 (k INT) DUPLICATE KEY(k) PROPERTIES ("binlog.enable" = "true", "binlog.format" = "row");
CREATE TABLE e2 (k INT) DUPLICATE KEY(k) PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW", "binlog.ttl_seconds" = "0");
CREATE TABLE e3 (k INT) DUPLICATE KEY(k) PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW", "binlog.ttl_seconds" = "-1");
CREATE TABLE e4 (k INT) DUPLICATE KEY(k) PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
CREATE TABLE e5 (k INT, v INT) UNIQUE KEY(k) CLUSTER BY (v) PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
CREATE TABLE e6 (k INT, v INT) UNIQUE KEY(k) PROPERTIES ("enable_unique_key_merge_on_write" = "false", "binlog.enable" = "true", "binlog.format" = "ROW");
CREATE TABLE e7 (k INT, v INT SUM) AGGREGATE KEY(k) PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
CREATE TABLE e8 (k INT, v VARIANT) DUPLICATE KEY(k) PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
CREATE TABLE e9 (k INT, id BIGINT NOT NULL AUTO_INCREMENT) DUPLICATE KEY(k) PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
-- Models, column attributes, partitions and distribution.
CREATE TABLE agg (k DATE NOT NULL, c VARCHAR(8) NOT NULL DEFAULT "x" COMMENT 'city', pv BIGINT SUM DEFAULT "0", last DATETIME(3) REPLACE, m INT MAX NULL) ENGINE=OLAP AGGREGATE KEY(k, c) COMMENT 'aggregates' PARTITION BY RANGE(k) (PARTITION p2023 VALUES LESS THAN ("2024-01-01"), PARTITION p2024 VALUES [("2024-01-01"), ("2025-01-01")), PARTITION pmax VALUES LESS THAN MAXVALUE) DISTRIBUTED BY HASH(k) BUCKETS 3;
SHOW CREATE TABLE agg;
CREATE TABLE lst (region VARCHAR(8) NOT NULL, id BIGINT) DUPLICATE KEY(region) PARTITION BY LIST(region) (PARTITION pn VALUES IN ("north", "east"), PARTITION ps VALUES IN ("south")) DISTRIBUTED BY RANDOM BUCKETS AUTO;
SHOW CREATE TABLE lst;
CREATE TABLE types (a TINYINT, b SMALLINT, c INT(11), d LARGEINT, e FLOAT, f DOUBLE, g DECIMALV3(38, 9), h CHAR(3), i STRING, j TEXT, k DATEV2, l DATETIMEV2(6), m BOOLEAN, n DATETIME DEFAULT CURRENT_TIMESTAMP, o VARCHAR) DUPLICATE KEY(a) DISTRIBUTED BY HASH(a) BUCKETS 1;
SHOW CREATE TABLE types;
CREATE TABLE badtype (a FROBINT) DUPLICATE KEY(a);
CREATE TABLE badagg (a INT SUMX) DUPLICATE KEY(a);
CREATE TABLE bigdec (a DECIMAL(40, 2)) DUPLICATE KEY(a);
CREATE TABLE complex (a INT, b JSON, c ARRAY<INT>, d MAP<STRING, ARRAY<INT>>) DUPLICATE KEY(a);
-- MySQL compatibility: PRIMARY KEY is a merge-on-write UNIQUE KEY; ENGINE=InnoDB is ignored.
CREATE TABLE my (id INT, name VARCHAR(20), PRIMARY KEY (id)) ENGINE=InnoDB;
SHOW WARNINGS;
SHOW CREATE TABLE my;
-- LIKE copies everything, the binlog TTL included.
CREATE TABLE orders_copy LIKE orders;
SHOW CREATE TABLE orders_copy;
CREATE TABLE nope_copy LIKE ddl_ct.nope;
CREATE TABLE ddl_nodb.t (a INT) DUPLICATE KEY(a);
SHOW TABLES;
DROP TABLE orders_copy;
DROP TABLE orders_copy;
DROP TABLE IF EXISTS orders_copy FORCE;
DROP DATABASE ddl_ct FORCE;
