-- Row Binlog: the examples and errors of seed 001 (DORIS_SEMANTICS.md §1.8, §2.3, §3).
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

INSERT INTO orders VALUES (1, 'created', 100.00);
INSERT INTO orders VALUES (1, 'paid', 100.00);
DELETE FROM orders WHERE order_id = 1;
INSERT INTO orders VALUES (1, 'created', 150.00);

-- the seed's exact output
SELECT __DORIS_BINLOG_OP__ AS op, order_id, status, amount,
       __BEFORE__status__, __BEFORE__amount__
FROM binlog("table" = "orders")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;

-- TSO and LSN ascend together; all records of one statement share a TSO
SELECT COUNT(*), COUNT(DISTINCT __DORIS_BINLOG_TSO__), MIN(__DORIS_BINLOG_LSN__) < MAX(__DORIS_BINLOG_LSN__)
FROM binlog("table" = "orders", "db" = "regress_binlog_seed_examples");

-- the base row's commit TSO is its last record's TSO
SET show_hidden_columns = true;
SELECT o.__DORIS_COMMIT_TSO_COL__ = b.t FROM orders o,
  (SELECT MAX(__DORIS_BINLOG_TSO__) AS t FROM binlog("table" = "orders")) b;
SET show_hidden_columns = false;

-- the binlog() example with db, partition and a filter
SELECT __DORIS_BINLOG_OP__, order_id, status, amount
FROM binlog("table" = "orders", "partition" = "orders")
WHERE order_id = 1
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;

-- every column of binlog(): base columns, op / TSO / LSN, before images
-- @mask_column 5 6
SELECT * FROM binlog("table" = "orders") ORDER BY __DORIS_BINLOG_LSN__;

-- Duplicate Key: inserts only, same key recorded twice
CREATE TABLE dup (id INT, value INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1
PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
INSERT INTO dup VALUES (1, 10), (1, 10), (2, 20);
SELECT __DORIS_BINLOG_OP__, id, value FROM binlog("table" = "dup") ORDER BY __DORIS_BINLOG_LSN__;
SELECT COUNT(*) AS change_count FROM dup@incr("incrementType" = "DETAIL");
-- R2: a predicate delete would leave no record
DELETE FROM dup WHERE id = 1;
SELECT id, value FROM dup ORDER BY id, value;

-- MoW without before images: a delete keeps only its key, other columns their default
CREATE TABLE nohist (id INT, v1 INT, v2 STRING DEFAULT "default") UNIQUE KEY(id)
DISTRIBUTED BY HASH(id) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true", "binlog.format" = "ROW");
INSERT INTO nohist VALUES (1, 10, 'a'), (2, 20, 'b');
UPDATE nohist SET v1 = 11 WHERE id = 1;
DELETE FROM nohist WHERE id = 2;
DELETE FROM nohist WHERE id = 3;
SELECT __DORIS_BINLOG_OP__, id, v1, v2 FROM binlog("table" = "nohist") ORDER BY __DORIS_BINLOG_LSN__;

-- errors
CREATE TABLE plain (id INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
SELECT * FROM binlog("table" = "plain");
SELECT * FROM binlog("table" = "no_such_table");
SELECT * FROM binlog("db" = "x");
SELECT * FROM binlog("table" = "orders", "bogus" = "1");
SELECT * FROM binlog("table" = "orders", "partition" = "p_missing");
SELECT * FROM binlog("table" = "orders", "tablet" = "1");
-- a MoW snapshot older than binlog.ttl_seconds (E32)
SELECT * FROM orders FOR TIME AS OF '2000-01-01 00:00:00';
SELECT COUNT(*) FROM orders FOR TIME AS OF '2999-01-01 00:00:00';
