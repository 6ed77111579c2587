-- Table Streams and the life of their base table (DORIS_SEMANTICS.md §2.7, §2.9, §2.10, §4.1,
-- §4.2, R1, R4): schema changes, partitions added / dropped / truncated, renames, streams in
-- another database, DROP DATABASE, information_schema.table_stream_consumption, privileges and
-- TTL expiry. TSOs and wall times change from run to run: they are masked (-- @mask_numbers)
-- or compared with each other; a LAG other than 0 / N/A prints as >0.
DROP DATABASE IF EXISTS regress_stream_lifecycle_sdb;
DROP DATABASE IF EXISTS regress_stream_lifecycle_bdb;
DROP USER IF EXISTS rg_strm_user;

-- ADD COLUMN / DROP COLUMN: the stream's schema follows the base table; records written
-- before ADD COLUMN show the new column's default, a dropped column is unknown.
CREATE TABLE sc (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO sc VALUES (1, 10), (2, 20);
CREATE STREAM sc_min ON TABLE sc;
CREATE STREAM sc_detail ON TABLE sc PROPERTIES ("type" = "detail");
UPDATE sc SET v = 11 WHERE k = 1;
ALTER TABLE sc ADD COLUMN c VARCHAR(10) DEFAULT 'x';
DESC sc_min;
SELECT * FROM sc_min ORDER BY k, v;
SELECT k, v, c, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM sc_min
ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
INSERT INTO sc VALUES (3, 30, 'y');
DELETE FROM sc WHERE k = 3;
INSERT INTO sc VALUES (4, 40, 'z');
SELECT k, v, c, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM sc_min
ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
SELECT k, v, c, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM sc_detail
ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
ALTER TABLE sc DROP COLUMN v;
DESC sc_min;
SELECT v FROM sc_min;
SELECT k, v FROM sc_detail WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ = 'APPEND';
SELECT * FROM sc_min ORDER BY k, c;
SELECT k, c, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM sc_detail
ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
-- the sync pipeline of seed 000 after both changes
CREATE TABLE sc_target (k INT, c VARCHAR(10)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true");
INSERT INTO sc_target SELECT * FROM sc_min@snapshot();
SELECT * FROM sc_target ORDER BY k;
INSERT INTO sc_target (k, c, __DORIS_DELETE_SIGN__)
SELECT k, c, CASE WHEN __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE' THEN 1 ELSE 0 END
FROM sc_min WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ IN ('APPEND', 'UPDATE_AFTER', 'DELETE');
SELECT * FROM sc_target ORDER BY k;
SELECT * FROM sc ORDER BY k;
SELECT COUNT(*) FROM sc_min;

-- RANGE partitions. A partition added later has no offset: it is read from its beginning
-- (CONSUMPTION_STATUS N/A; LAG 0 while it has no data, N/A once it has). Consumption gives
-- every written partition an offset equal to its last commit, LAG 0 and a consumption time.
CREATE TABLE rp (k INT, v INT) UNIQUE KEY(k)
PARTITION BY RANGE(k) (PARTITION p1 VALUES LESS THAN (10), PARTITION p2 VALUES LESS THAN (20))
DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
CREATE TABLE rp_log (k INT, v INT, ct VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
INSERT INTO rp VALUES (1, 1);
CREATE STREAM rp_s ON TABLE rp;
-- p1 has an offset (its last commit), p2 was never written: no offset, nothing to read
-- @mask_numbers
SELECT UNIT, CONSUMPTION_STATUS, IF(LAG IN ('0', 'N/A'), LAG, IF(CAST(LAG AS BIGINT) > 0, '>0', LAG)) AS LAG, LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'rp_s' ORDER BY UNIT;
SELECT UNIT, CONSUMPTION_STATUS = (SELECT MAX(__DORIS_BINLOG_TSO__) FROM binlog("table" = "rp"))
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'rp_s' AND UNIT = 'p1';
INSERT INTO rp VALUES (2, 2), (11, 11);
-- @mask_numbers
SELECT UNIT, CONSUMPTION_STATUS, IF(LAG IN ('0', 'N/A'), LAG, IF(CAST(LAG AS BIGINT) > 0, '>0', LAG)) AS LAG, LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'rp_s' ORDER BY UNIT;
-- LAG = the partition's last commit TSO - its offset
SELECT UNIT, CAST(LAG AS BIGINT) = (SELECT MAX(__DORIS_BINLOG_TSO__) FROM binlog("table" = "rp"))
                                  - CAST(CONSUMPTION_STATUS AS BIGINT)
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'rp_s' AND UNIT = 'p1';
ALTER TABLE rp ADD PARTITION p3 VALUES LESS THAN (30);
-- @mask_numbers
SELECT UNIT, CONSUMPTION_STATUS, IF(LAG IN ('0', 'N/A'), LAG, IF(CAST(LAG AS BIGINT) > 0, '>0', LAG)) AS LAG, LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'rp_s' ORDER BY UNIT;
INSERT INTO rp VALUES (21, 21), (22, 22);
UPDATE rp SET v = 220 WHERE k = 22;
-- p3 is read whole, as APPEND rows with its current values
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM rp_s ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
-- @mask_numbers
SELECT UNIT, CONSUMPTION_STATUS, IF(LAG IN ('0', 'N/A'), LAG, IF(CAST(LAG AS BIGINT) > 0, '>0', LAG)) AS LAG, LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'rp_s' ORDER BY UNIT;
INSERT INTO rp_log SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM rp_s;
SELECT * FROM rp_log ORDER BY k;
-- @mask_numbers
SELECT UNIT, CONSUMPTION_STATUS, IF(LAG IN ('0', 'N/A'), LAG, IF(CAST(LAG AS BIGINT) > 0, '>0', LAG)) AS LAG, LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'rp_s' ORDER BY UNIT;
SELECT UNIT, CONSUMPTION_STATUS = (SELECT MAX(__DORIS_BINLOG_TSO__) FROM binlog("table" = "rp")),
       LAST_CONSUMPTION_TIME > 1700000000000
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'rp_s' AND UNIT = 'p3';
SELECT COUNT(*) FROM rp_s;
-- the next read of p3 is incremental
UPDATE rp SET v = 221 WHERE k = 21;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM rp_s ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
-- DROP PARTITION: its unconsumed changes vanish, its row leaves the consumption table
INSERT INTO rp VALUES (3, 3), (12, 12);
ALTER TABLE rp DROP PARTITION p1;
SELECT UNIT FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'rp_s' ORDER BY UNIT;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM rp_s ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
-- a partition of the same name added again starts from scratch
ALTER TABLE rp ADD PARTITION p1 VALUES LESS THAN (10);
INSERT INTO rp VALUES (5, 5);
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM rp_s ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
-- TRUNCATE PARTITION: a new partition; old unconsumed changes vanish, data written afterwards
-- is read from the beginning; other partitions are untouched
TRUNCATE TABLE rp PARTITION (p3);
-- @mask_numbers
SELECT UNIT, CONSUMPTION_STATUS, IF(LAG IN ('0', 'N/A'), LAG, IF(CAST(LAG AS BIGINT) > 0, '>0', LAG)) AS LAG, LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'rp_s' ORDER BY UNIT;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM rp_s ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
INSERT INTO rp VALUES (23, 23);
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM rp_s ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
INSERT INTO rp_log SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM rp_s;
SELECT * FROM rp_log ORDER BY k, ct;
SELECT COUNT(*) FROM rp_s;
-- @mask_numbers
SELECT UNIT, CONSUMPTION_STATUS, IF(LAG IN ('0', 'N/A'), LAG, IF(CAST(LAG AS BIGINT) > 0, '>0', LAG)) AS LAG, LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'rp_s' ORDER BY UNIT;

-- LIST partitions and TRUNCATE TABLE: every partition is new
CREATE TABLE lp (k INT NOT NULL, v INT) UNIQUE KEY(k)
PARTITION BY LIST(k) (PARTITION pa VALUES IN (1, 2), PARTITION pb VALUES IN (3, 4))
DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO lp VALUES (1, 1), (3, 3);
CREATE STREAM lp_s ON TABLE lp PROPERTIES ("type" = "detail");
INSERT INTO lp VALUES (2, 2), (4, 4);
UPDATE lp SET v = 30 WHERE k = 3;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM lp_s ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
TRUNCATE TABLE lp;
-- @mask_numbers
SELECT UNIT, CONSUMPTION_STATUS, IF(LAG IN ('0', 'N/A'), LAG, IF(CAST(LAG AS BIGINT) > 0, '>0', LAG)) AS LAG, LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'lp_s' ORDER BY UNIT;
SELECT COUNT(*) FROM lp_s;
INSERT INTO lp VALUES (1, 100);
ALTER TABLE lp ADD PARTITION pc VALUES IN (5, 6);
INSERT INTO lp VALUES (5, 500), (6, 600);
DELETE FROM lp WHERE k = 6;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM lp_s ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
-- @mask_numbers
SELECT UNIT, CONSUMPTION_STATUS, IF(LAG IN ('0', 'N/A'), LAG, IF(CAST(LAG AS BIGINT) > 0, '>0', LAG)) AS LAG, LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'lp_s' ORDER BY UNIT;

-- TRUNCATE TABLE of an unpartitioned table (UNIT = the table name): pending changes vanish for
-- every stream, show_initial_rows or not; what is written afterwards is read whole
CREATE TABLE up (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO up VALUES (1, 1), (2, 2);
CREATE STREAM up_s ON TABLE up;
CREATE STREAM up_init ON TABLE up PROPERTIES ("show_initial_rows" = "true");
-- @mask_numbers
SELECT STREAM_NAME, UNIT, CONSUMPTION_STATUS, IF(LAG IN ('0', 'N/A'), LAG, IF(CAST(LAG AS BIGINT) > 0, '>0', LAG)) AS LAG,
       LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME LIKE 'up%' ORDER BY STREAM_NAME;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM up_init ORDER BY k;
UPDATE up SET v = 10 WHERE k = 1;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM up_s ORDER BY k, __DORIS_STREAM_CHANGE_TYPE_COL__ DESC;
TRUNCATE TABLE up;
-- @mask_numbers
SELECT STREAM_NAME, UNIT, CONSUMPTION_STATUS, IF(LAG IN ('0', 'N/A'), LAG, IF(CAST(LAG AS BIGINT) > 0, '>0', LAG)) AS LAG,
       LAST_CONSUMPTION_TIME
FROM information_schema.table_stream_consumption
WHERE DB_NAME = DATABASE() AND STREAM_NAME LIKE 'up%' ORDER BY STREAM_NAME;
SELECT COUNT(*) FROM up_s;
SELECT COUNT(*) FROM up_init;
INSERT INTO up VALUES (3, 3);
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM up_s ORDER BY k;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM up_init ORDER BY k;

-- A stream in another database than its base table; RENAME of the base: the stream follows
-- the table id (SHOW CREATE STREAM and table_streams show the new name).
CREATE DATABASE regress_stream_lifecycle_sdb;
CREATE STREAM regress_stream_lifecycle_sdb.xs ON TABLE rp PROPERTIES ("type" = "append_only");
SHOW STREAMS FROM regress_stream_lifecycle_sdb;
SHOW CREATE STREAM regress_stream_lifecycle_sdb.xs;
SELECT DB_NAME, STREAM_NAME, CONSUME_TYPE, BASE_TABLE_DB = DATABASE(), BASE_TABLE_NAME, ENABLED, IS_STALE
FROM information_schema.table_streams WHERE DB_NAME = 'regress_stream_lifecycle_sdb';
INSERT INTO rp VALUES (13, 13);
ALTER TABLE rp RENAME rp_renamed;
SHOW CREATE STREAM regress_stream_lifecycle_sdb.xs;
SELECT BASE_TABLE_NAME FROM information_schema.table_streams
WHERE DB_NAME = 'regress_stream_lifecycle_sdb' AND STREAM_NAME = 'xs';
SHOW CREATE STREAM rp_s;
INSERT INTO rp_renamed VALUES (14, 14);
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM regress_stream_lifecycle_sdb.xs ORDER BY k;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM rp_s ORDER BY k;
USE regress_stream_lifecycle_sdb;
CREATE TABLE xlog (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
INSERT INTO xlog SELECT k, v FROM xs;
SELECT * FROM xlog ORDER BY k;
SELECT COUNT(*) FROM xs;
SELECT COUNT(*) FROM regress_stream_lifecycle.rp_s;
USE regress_stream_lifecycle;
-- DROP DATABASE of the stream's database drops the stream, not the base table
DROP DATABASE regress_stream_lifecycle_sdb;
SELECT COUNT(*) FROM information_schema.table_streams WHERE DB_NAME = 'regress_stream_lifecycle_sdb';
SELECT COUNT(*) FROM information_schema.table_stream_consumption WHERE DB_NAME = 'regress_stream_lifecycle_sdb';
SELECT COUNT(*) FROM rp_renamed;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM rp_s ORDER BY k;
-- DROP DATABASE of the base table's database: a stream elsewhere stays, stale (R1)
CREATE DATABASE regress_stream_lifecycle_bdb;
CREATE TABLE regress_stream_lifecycle_bdb.bt (k INT, v INT) DUPLICATE KEY(k)
DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
CREATE STREAM bt_s ON TABLE regress_stream_lifecycle_bdb.bt;
INSERT INTO regress_stream_lifecycle_bdb.bt VALUES (1, 1), (1, 1);
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM bt_s ORDER BY k;
SELECT STREAM_NAME, CONSUME_TYPE, BASE_TABLE_DB, BASE_TABLE_NAME, BASE_TABLE_TYPE, ENABLED, IS_STALE, STALE_REASON
FROM information_schema.table_streams WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'bt_s';
DROP DATABASE regress_stream_lifecycle_bdb;
SELECT STREAM_NAME, CONSUME_TYPE, BASE_TABLE_DB, BASE_TABLE_NAME, BASE_TABLE_TYPE, ENABLED, IS_STALE, STALE_REASON
FROM information_schema.table_streams WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'bt_s';
SELECT COUNT(*) FROM information_schema.table_stream_consumption WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'bt_s';
SELECT * FROM bt_s;
SHOW CREATE STREAM bt_s;
DROP STREAM bt_s FORCE;

-- Privileges: CREATE_PRIV on the stream's database and SELECT_PRIV on the base table to create
-- it, SELECT_PRIV on the stream to read it, LOAD_PRIV on the target to consume it, DROP_PRIV to
-- drop it. A refused consumption moves nothing.
CREATE TABLE pv (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
CREATE TABLE pv_target (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
CREATE USER rg_strm_user IDENTIFIED BY 'pw';
GRANT CREATE_PRIV ON regress_stream_lifecycle.* TO rg_strm_user;
GRANT SELECT_PRIV ON regress_stream_lifecycle.pv_target TO rg_strm_user;
-- @user rg_strm_user pw
-- @connection limited
CREATE STREAM pv_s ON TABLE pv;
-- @connection default
GRANT SELECT_PRIV ON regress_stream_lifecycle.pv TO rg_strm_user;
-- @connection limited
CREATE STREAM pv_s ON TABLE pv;
SELECT COUNT(*) FROM pv_s;
-- @connection default
INSERT INTO pv VALUES (1, 1), (2, 2);
GRANT SELECT_PRIV ON regress_stream_lifecycle.pv_s TO rg_strm_user;
-- @connection limited
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM pv_s ORDER BY k;
INSERT INTO pv_target SELECT k, v FROM pv_s;
SELECT COUNT(*) FROM pv_s;
DROP STREAM pv_s;
-- @connection default
GRANT LOAD_PRIV ON regress_stream_lifecycle.pv_target TO rg_strm_user;
-- @connection limited
INSERT INTO pv_target SELECT k, v FROM pv_s;
SELECT * FROM pv_target ORDER BY k;
SELECT COUNT(*) FROM pv_s;
-- @connection default
SHOW CREATE STREAM pv_s;
GRANT DROP_PRIV ON regress_stream_lifecycle.pv_s TO rg_strm_user;
-- @connection limited
DROP STREAM pv_s;
-- @disconnect limited
DROP USER rg_strm_user;
-- SHOW STREAMS lists only the streams the account holds a privilege on (as SHOW TABLES).
CREATE STREAM pv_a ON TABLE pv;
CREATE STREAM pv_b ON TABLE pv;
CREATE USER rg_strm_viewer;
CREATE DATABASE regress_stream_lifecycle_hidden;
GRANT SELECT_PRIV ON regress_stream_lifecycle.pv_b TO rg_strm_viewer;
-- @user rg_strm_viewer
-- @connection viewer
SHOW STREAMS FROM regress_stream_lifecycle;
SHOW STREAMS FROM regress_stream_lifecycle_hidden;
-- @disconnect viewer
DROP USER rg_strm_viewer;
DROP DATABASE regress_stream_lifecycle_hidden;
DROP STREAM pv_a;
DROP STREAM pv_b;

-- TTL (§2.10, R4): once a min_delta stream's offset is older than binlog.ttl_seconds, reading
-- or consuming it fails and table_streams shows it stale with that reason; detail and
-- append_only streams skip the expired changes; binlog() still shows them while cleanup is
-- paused (disable_auto_compaction).
CREATE TABLE tt (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true",
            "binlog.ttl_seconds" = "1", "disable_auto_compaction" = "true");
CREATE TABLE tt_target (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
INSERT INTO tt VALUES (1, 1);
CREATE STREAM tt_min ON TABLE tt;
CREATE STREAM tt_detail ON TABLE tt PROPERTIES ("type" = "detail");
CREATE STREAM tt_append ON TABLE tt PROPERTIES ("type" = "append_only");
INSERT INTO tt VALUES (2, 2);
UPDATE tt SET v = 10 WHERE k = 1;
SELECT SLEEP(2);
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM tt_min;
INSERT INTO tt_target SELECT k, v FROM tt_min;
SELECT COUNT(*) FROM tt_target;
SELECT STREAM_NAME, CONSUME_TYPE, ENABLED, IS_STALE, STALE_REASON
FROM information_schema.table_streams WHERE DB_NAME = DATABASE() AND BASE_TABLE_NAME = 'tt'
ORDER BY STREAM_NAME;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM tt_detail;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM tt_append;
SELECT COUNT(*) FROM binlog("table" = "tt");

-- After an expired min_delta stream is reset, it reads the changes after the reset again (the
-- reset procedure of seed 001); an old offset with no change after it has lost nothing.
CREATE TABLE tt_reset (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true",
            "binlog.ttl_seconds" = "1", "disable_auto_compaction" = "true");
CREATE TABLE tt_reset_tgt (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
INSERT INTO tt_reset VALUES (1, 1);
CREATE STREAM tt_reset_s ON TABLE tt_reset;
INSERT INTO tt_reset VALUES (2, 2);
SELECT SLEEP(2);
SELECT k FROM tt_reset_s;
SELECT IS_STALE, STALE_REASON FROM information_schema.table_streams WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'tt_reset_s';
INSERT INTO tt_reset_tgt SELECT k, v FROM tt_reset_s@reset();
SELECT IS_STALE, STALE_REASON FROM information_schema.table_streams WHERE DB_NAME = DATABASE() AND STREAM_NAME = 'tt_reset_s';
SELECT COUNT(*) FROM tt_reset_s;
INSERT INTO tt_reset VALUES (3, 3);
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM tt_reset_s;
