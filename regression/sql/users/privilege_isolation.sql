-- Privilege isolation (issue 12): an account with privileges on one database sees nothing of
-- another, in every information_schema table and every SHOW statement, and still sees all of
-- its own. Refusals come before the lookup, so they do not tell whether an object exists:
-- 1044 for a database, 1142 for a table, view or stream (as SHOW CREATE TABLE). Accounts are
-- server-wide, so this test has its own group and uses names no other test uses.
DROP USER IF EXISTS rg_iso_user;
DROP USER IF EXISTS rg_iso_tbl;
DROP DATABASE IF EXISTS rg_iso_other FORCE;
CREATE DATABASE rg_iso_other;

-- The account's database (the test's): a partitioned Row Binlog table, a plain table, a view
-- and a stream.
CREATE TABLE mine_t (k INT, v VARCHAR(16)) UNIQUE KEY(k)
PARTITION BY RANGE(k) (PARTITION p1 VALUES LESS THAN ("100"), PARTITION p2 VALUES LESS THAN ("200"))
DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
CREATE TABLE mine_d (id BIGINT, note STRING) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
CREATE VIEW mine_v (vk, vv) AS SELECT k, v FROM mine_t WHERE k > 0;
CREATE STREAM mine_s ON TABLE mine_t COMMENT 'mine';
INSERT INTO mine_t VALUES (1, 'a'), (150, 'b');

-- The other database: the same objects with other names.
CREATE TABLE rg_iso_other.secret_t (sk INT, sv VARCHAR(16)) UNIQUE KEY(sk)
PARTITION BY RANGE(sk) (PARTITION s1 VALUES LESS THAN ("100"), PARTITION s2 VALUES LESS THAN ("200"))
DISTRIBUTED BY HASH(sk) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
CREATE TABLE rg_iso_other.secret_d (sid BIGINT) DUPLICATE KEY(sid) DISTRIBUTED BY HASH(sid) BUCKETS 1;
CREATE VIEW rg_iso_other.secret_v AS SELECT sk FROM rg_iso_other.secret_t;
CREATE STREAM rg_iso_other.secret_s ON TABLE rg_iso_other.secret_t COMMENT 'secret';
INSERT INTO rg_iso_other.secret_t VALUES (7, 'x');

CREATE USER rg_iso_user IDENTIFIED BY 'pw';
GRANT SELECT_PRIV, LOAD_PRIV, CREATE_PRIV ON regress_users_privilege_isolation.* TO rg_iso_user;
-- A second account holds one table-level grant only.
CREATE USER rg_iso_tbl IDENTIFIED BY 'pw';
GRANT SELECT_PRIV ON regress_users_privilege_isolation.mine_t TO rg_iso_tbl;

-- root sees both databases' streams (the rows the account must not see).
SELECT DB_NAME, STREAM_NAME, BASE_TABLE_NAME, BASE_TABLE_DB FROM information_schema.table_streams
WHERE DB_NAME IN ('regress_users_privilege_isolation', 'rg_iso_other') ORDER BY DB_NAME;
SELECT DB_NAME, STREAM_NAME, UNIT FROM information_schema.table_stream_consumption
WHERE DB_NAME IN ('regress_users_privilege_isolation', 'rg_iso_other') ORDER BY DB_NAME, UNIT;

-- @user rg_iso_user pw
-- @connection iso
SELECT CURRENT_USER(), DATABASE();

-- ---- information_schema: every table of the registry ----
SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'information_schema'
ORDER BY TABLE_NAME;
SELECT SCHEMA_NAME FROM information_schema.SCHEMATA ORDER BY SCHEMA_NAME;
SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, TABLE_ROWS FROM information_schema.TABLES
WHERE TABLE_SCHEMA <> 'information_schema' ORDER BY TABLE_SCHEMA, TABLE_NAME;
SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_TYPE, COLUMN_KEY
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA <> 'information_schema'
ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION;
SELECT TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS
ORDER BY TABLE_SCHEMA, TABLE_NAME;
SELECT TABLE_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME
FROM information_schema.KEY_COLUMN_USAGE ORDER BY TABLE_SCHEMA, TABLE_NAME;
SELECT TABLE_SCHEMA, TABLE_NAME, VIEW_DEFINITION FROM information_schema.VIEWS
ORDER BY TABLE_SCHEMA, TABLE_NAME;
SELECT DB_NAME, STREAM_NAME, STREAM_TYPE, CONSUME_TYPE, STREAM_COMMENT, BASE_TABLE_NAME,
       BASE_TABLE_DB, BASE_TABLE_CTL, BASE_TABLE_TYPE, ENABLED, IS_STALE, STALE_REASON
FROM information_schema.TABLE_STREAMS ORDER BY DB_NAME, STREAM_NAME;
SELECT DB_NAME, STREAM_NAME, UNIT, CONSUMPTION_STATUS, LAST_CONSUMPTION_TIME
FROM information_schema.TABLE_STREAM_CONSUMPTION ORDER BY DB_NAME, STREAM_NAME, UNIT;
SELECT * FROM information_schema.USER_PRIVILEGES;
SELECT COUNT(*) > 0 FROM information_schema.ENGINES;
SELECT COUNT(*) > 0 FROM information_schema.CHARACTER_SETS;
SELECT COUNT(*) > 0 FROM information_schema.COLLATIONS;
-- Nothing of the other database anywhere, even asked for by name.
SELECT (SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'rg_iso_other') +
       (SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'rg_iso_other') +
       (SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'rg_iso_other') +
       (SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'rg_iso_other') +
       (SELECT COUNT(*) FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = 'rg_iso_other') +
       (SELECT COUNT(*) FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'rg_iso_other') +
       (SELECT COUNT(*) FROM information_schema.TABLE_STREAMS WHERE DB_NAME = 'rg_iso_other') +
       (SELECT COUNT(*) FROM information_schema.TABLE_STREAM_CONSUMPTION WHERE DB_NAME = 'rg_iso_other')
       AS other_rows;

-- ---- SHOW statements: the own database in full ----
SHOW DATABASES;
SHOW FULL TABLES;
SHOW TABLES LIKE 'mine%';
-- @mask_column 6 7 12
SHOW TABLE STATUS;
SHOW STREAMS;
SHOW CREATE DATABASE regress_users_privilege_isolation;
SHOW CREATE TABLE mine_d;
SHOW CREATE VIEW mine_v;
SHOW CREATE STREAM mine_s;
DESC mine_t;
SHOW FULL COLUMNS FROM mine_t;
SHOW INDEX FROM mine_t;
-- @mask_column 1 15
SHOW PARTITIONS FROM mine_t;
-- @mask_column 2
SHOW DATA;
-- @mask_column 3
SHOW DATA FROM mine_t;
-- @mask_numbers
SHOW STREAM STATUS mine_s;
SHOW GRANTS;
-- Only its own sessions (root's default connection is open too).
-- @mask_column 1 3 6
SHOW PROCESSLIST;

-- ---- SHOW statements: nothing of the other database, existing or not ----
SHOW TABLES FROM rg_iso_other;
SHOW TABLES FROM rg_iso_nodb;
SHOW FULL TABLES IN rg_iso_other LIKE 'secret%';
SHOW TABLE STATUS FROM rg_iso_other;
SHOW TABLE STATUS FROM rg_iso_nodb;
SHOW STREAMS FROM rg_iso_other;
SHOW STREAMS FROM rg_iso_nodb;
SHOW CREATE DATABASE rg_iso_other;
SHOW CREATE DATABASE rg_iso_nodb;
SHOW CREATE TABLE rg_iso_other.secret_t;
SHOW CREATE TABLE rg_iso_other.nope;
SHOW CREATE TABLE rg_iso_nodb.nope;
SHOW CREATE VIEW rg_iso_other.secret_v;
SHOW CREATE STREAM rg_iso_other.secret_s;
SHOW CREATE STREAM rg_iso_other.nope;
SHOW CREATE STREAM rg_iso_other.secret_t;
SHOW STREAM STATUS rg_iso_other.secret_s;
SHOW STREAM STATUS rg_iso_other.secret_t;
DESC rg_iso_other.secret_t;
DESC rg_iso_other.secret_s;
DESCRIBE rg_iso_other.secret_v ALL;
SHOW COLUMNS FROM secret_t FROM rg_iso_other;
SHOW FULL FIELDS IN rg_iso_other.secret_s;
SHOW INDEX FROM rg_iso_other.secret_t;
SHOW KEYS FROM nope FROM rg_iso_other;
SHOW PARTITIONS FROM rg_iso_other.secret_t;
SHOW DATA FROM rg_iso_other.secret_t;
SHOW DATA FROM rg_iso_nodb.nope;
SHOW TABLETS FROM rg_iso_other.secret_t;
SHOW TABLETS FROM mine_t;
SHOW GRANTS FOR root;
SHOW GRANTS FOR rg_iso_tbl;
SHOW ALL GRANTS;
SHOW USERS;
SHOW FRONTENDS;
SHOW BACKENDS;
SHOW PROC '/';
SHOW FRONTEND CONFIG LIKE 'query_port';
USE rg_iso_other;
USE rg_iso_nodb;

-- ---- reads and statements that would copy or describe the other database ----
SELECT * FROM rg_iso_other.secret_t;
SELECT * FROM rg_iso_other.secret_v;
SELECT * FROM rg_iso_other.secret_s;
SELECT * FROM rg_iso_other.secret_s@snapshot();
SELECT * FROM rg_iso_other.nope;
SELECT * FROM rg_iso_other.secret_t@incr("incrementType" = "DETAIL");
SELECT * FROM binlog("db" = "rg_iso_other", "table" = "secret_t");
SELECT * FROM binlog("db" = "rg_iso_nodb", "table" = "nope");
SELECT STREAM_HAS_DATA('rg_iso_other.secret_s');
SELECT STREAM_HAS_DATA('rg_iso_other.nope');
EXPLAIN SELECT * FROM rg_iso_other.secret_t;
SELECT k FROM mine_t WHERE k IN (SELECT sk FROM rg_iso_other.secret_t);
INSERT INTO mine_d SELECT sk, sv FROM rg_iso_other.secret_t;
INSERT INTO mine_d SELECT sk, sv FROM rg_iso_other.secret_s;
CREATE TABLE copy_t LIKE rg_iso_other.secret_t;
CREATE TABLE copy_t LIKE rg_iso_other.nope;
CREATE TABLE copy_t AS SELECT * FROM rg_iso_other.secret_t;
CREATE VIEW copy_v AS SELECT * FROM rg_iso_other.secret_t;
CREATE STREAM copy_s ON TABLE rg_iso_other.secret_t;
SHOW TABLES;
-- Its own still works: a table LIKE its own, a stream read.
CREATE TABLE copy_t LIKE mine_d;
SHOW CREATE TABLE copy_t;
SELECT k, v, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM mine_s ORDER BY k;
SELECT STREAM_HAS_DATA('mine_s');

-- ---- information_schema.COLUMNS of a stream lists what DESC lists ----
DESC mine_s;
SELECT COLUMN_NAME, ORDINAL_POSITION, COLUMN_DEFAULT, IS_NULLABLE, DATA_TYPE,
       CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION, COLUMN_TYPE, COLUMN_KEY
FROM information_schema.COLUMNS
WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'mine_s' ORDER BY ORDINAL_POSITION;
SET show_hidden_columns = true;
DESC mine_s;
SELECT COLUMN_NAME, ORDINAL_POSITION, COLUMN_DEFAULT, IS_NULLABLE, DATA_TYPE,
       CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION, COLUMN_TYPE, COLUMN_KEY
FROM information_schema.COLUMNS
WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'mine_s' ORDER BY ORDINAL_POSITION;
SET show_hidden_columns = false;

-- ---- a table-level grant: that table only ----
-- @user rg_iso_tbl pw
-- @connection tbl
SHOW DATABASES;
SHOW FULL TABLES;
SHOW STREAMS;
-- @mask_column 6 7 12
SHOW TABLE STATUS;
-- @mask_column 2
SHOW DATA;
SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE();
SELECT DISTINCT TABLE_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE();
SELECT TABLE_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE();
SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE();
SELECT STREAM_NAME FROM information_schema.TABLE_STREAMS;
SELECT STREAM_NAME FROM information_schema.TABLE_STREAM_CONSUMPTION;
SHOW CREATE TABLE mine_t;
SHOW CREATE TABLE mine_d;
SHOW CREATE VIEW mine_v;
SHOW CREATE STREAM mine_s;
SHOW STREAM STATUS mine_s;
SELECT * FROM mine_s;
DESC mine_s;
SHOW DATA FROM mine_d;
-- Another user's sessions (rg_iso_user's connection is still open) are not listed.
-- @mask_column 1 3 6
SHOW PROCESSLIST;

-- ---- root sees everything ----
-- @connection default
-- @disconnect iso
-- @disconnect tbl
SHOW TABLES FROM rg_iso_other;
SHOW CREATE STREAM rg_iso_other.secret_s;
SELECT COUNT(*) FROM information_schema.TABLE_STREAMS WHERE DB_NAME = 'rg_iso_other';
DROP USER rg_iso_user;
DROP USER rg_iso_tbl;
DROP DATABASE rg_iso_other FORCE;
