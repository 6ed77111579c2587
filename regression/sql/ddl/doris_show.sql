-- Doris cluster, storage and configuration SHOW statements of a single node: SHOW BACKENDS /
-- FRONTENDS / CATALOGS, SHOW DATA, [ADMIN] SHOW FRONTEND | BACKEND CONFIG, SHOW TABLET and
-- SHOW PROC. Times, ports, capacities and counts other tests change are masked.
DROP DATABASE IF EXISTS ddl_dshow FORCE;
CREATE DATABASE ddl_dshow;
USE ddl_dshow;
CREATE TABLE b (k INT, v VARCHAR(16)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("replication_num" = "1");
CREATE TABLE a (k INT, v INT) UNIQUE KEY(k) PARTITION BY RANGE(k) (PARTITION p1 VALUES LESS THAN ("100"), PARTITION p2 VALUES LESS THAN MAXVALUE) DISTRIBUTED BY HASH(k) BUCKETS 3 PROPERTIES ("replication_num" = "1");
CREATE TABLE e (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1");
CREATE VIEW w AS SELECT k FROM b;
-- The embedded backend: one row, alive, Doris's default ports for the services it has not.
-- @mask_column 8 9 12 13 15 16
-- @mask_column 17 18 22 23 26 27
SHOW BACKENDS;
-- This process: the master FOLLOWER of a one-node group; QueryPort is the query port.
-- @mask_column 1 4 5 13 14 15 18
SHOW FRONTENDS;
-- @mask_column 8 9 12 13 15 16
-- @mask_column 17 18 22 23 26 27
SHOW PROC '/backends';
SHOW PROC '/';
-- @mask_column 1 4 5 13 14 15 18
SHOW PROC '/frontends/';
SHOW PROC '/dbs';
-- The one catalog.
SHOW CATALOGS;
SHOW CATALOGS LIKE 'int%';
SHOW CATALOGS LIKE 'hive%';
-- SHOW DATA: nothing written yet.
SHOW DATA;
INSERT INTO b VALUES (1, 'a'), (2, 'b'), (3, 'c');
INSERT INTO a VALUES (1, 1), (150, 2);
-- Sizes differ from run to run (masked); empty tables are 0.
-- @mask_column 2
SHOW DATA;
-- ORDER BY a column of the result (the Total / Quota / Left rows stay last).
-- @mask_column 2
SHOW DATA ORDER BY ReplicaCount;
-- @mask_column 2
SHOW DATA ORDER BY remotesize, TableName DESC;
SHOW DATA ORDER BY k;
SHOW DATA ORDER BY ReplicaCount + 1;
-- One table: its indexes (the base index) and a Total row.
-- @mask_column 3
SHOW DATA FROM b;
-- @mask_column 3
SHOW DATA FROM ddl_dshow.a ORDER BY RowCount;
SHOW DATA FROM e;
SHOW DATA FROM w;
SHOW DATA FROM nope;
SHOW DATA FROM nodb.b;
-- Configuration: the fe.conf and be.conf keys with their values.
-- @mask_column 2
ADMIN SHOW FRONTEND CONFIG;
SHOW FRONTEND CONFIG LIKE 'max_%';
ADMIN SHOW FRONTEND CONFIG LIKE 'enable_feature_binlog';
-- @mask_column 4
ADMIN SHOW BACKEND CONFIG;
SHOW BACKEND CONFIG LIKE '%compaction%';
-- SHOW TABLET: an id no partition owns (SQL cannot name a real tablet id: ids come from SHOW
-- TABLETS only).
SHOW TABLET 1;
-- Privileges: these need ADMIN; SHOW DATA and SHOW CATALOGS only visibility.
CREATE USER dshow_reader;
GRANT SELECT_PRIV ON ddl_dshow.b TO dshow_reader;
GRANT SELECT_PRIV ON regress_ddl_doris_show.* TO dshow_reader;
-- @user dshow_reader
-- @connection reader
SHOW BACKENDS;
SHOW FRONTENDS;
ADMIN SHOW FRONTEND CONFIG;
SHOW BACKEND CONFIG;
SHOW TABLET 1;
SHOW PROC '/';
SHOW CATALOGS;
-- @mask_column 3
SHOW DATA FROM ddl_dshow.b;
SHOW DATA FROM ddl_dshow.a;
USE ddl_dshow;
-- @mask_column 2
SHOW DATA;
-- @connection default
DROP USER dshow_reader;
DROP DATABASE ddl_dshow FORCE;
