-- A database with binlog enabled (CREATE DATABASE ... PROPERTIES or ALTER DATABASE SET
-- PROPERTIES): its new tables inherit binlog.enable (and the other binlog.* settings) when they
-- do not set them, and CREATE TABLE ... ("binlog.enable" = "false") fails with E47, as ALTER
-- TABLE SET does (catalog/README.md "Row Binlog rules").
DROP DATABASE IF EXISTS ddl_dbb_a FORCE;
DROP DATABASE IF EXISTS ddl_dbb_b FORCE;
CREATE DATABASE ddl_dbb_a PROPERTIES ("binlog.enable" = "true");
CREATE TABLE ddl_dbb_a.off (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("binlog.enable" = "false");
SHOW TABLES FROM ddl_dbb_a;
-- without the property: inherited
CREATE TABLE ddl_dbb_a.inh (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
SHOW CREATE TABLE ddl_dbb_a.inh;
ALTER TABLE ddl_dbb_a.inh SET ("binlog.enable" = "false");
-- "true" or any other spelling Java's parseBoolean reads as true is accepted
CREATE TABLE ddl_dbb_a.on1 (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("binlog.enable" = "TRUE");
-- anything else is false
CREATE TABLE ddl_dbb_a.off2 (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("binlog.enable" = "no");
-- a ROW database, enabled later by ALTER DATABASE: the same rule; the format is inherited too
CREATE DATABASE ddl_dbb_b;
CREATE TABLE ddl_dbb_b.before (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("binlog.enable" = "false");
ALTER DATABASE ddl_dbb_b SET PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
CREATE TABLE ddl_dbb_b.off (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("binlog.enable" = "false", "binlog.format" = "ROW");
CREATE TABLE ddl_dbb_b.row (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
SHOW CREATE TABLE ddl_dbb_b.row;
-- CREATE TABLE LIKE copies the source's settings, binlog.enable = false included: the same rule
CREATE TABLE ddl_dbb_b.like_before LIKE ddl_dbb_b.before;
SHOW TABLES FROM ddl_dbb_b;
-- the database setting turned off again: tables may disable it
ALTER DATABASE ddl_dbb_a SET PROPERTIES ("binlog.enable" = "false");
CREATE TABLE ddl_dbb_a.off (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("binlog.enable" = "false");
SHOW TABLES FROM ddl_dbb_a;
DROP DATABASE ddl_dbb_a FORCE;
DROP DATABASE ddl_dbb_b FORCE;
