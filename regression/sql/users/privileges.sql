-- Users and privileges (issue 3): an account without SELECT_PRIV is refused with a message
-- containing `denied`; root is not. Accounts are server-wide, so this test has its own group
-- and uses names no other test uses.
DROP USER IF EXISTS 'rg_priv_none'@'%';
DROP USER IF EXISTS 'rg_priv_user'@'%';
SELECT CURRENT_USER();
CREATE USER 'rg_priv_none'@'%' IDENTIFIED BY 'pw1';
CREATE USER rg_priv_user IDENTIFIED BY 'pw2';
CREATE USER rg_priv_user;
CREATE USER IF NOT EXISTS rg_priv_user;
SHOW GRANTS FOR 'rg_priv_none'@'%';
GRANT ALTER_PRIV ON regress_users_privileges.* TO 'rg_priv_user'@'%';
GRANT SELECT, INSERT ON internal.regress_users_privileges.t_ok TO rg_priv_user;
SHOW GRANTS FOR rg_priv_user;
GRANT ADMIN_PRIV ON regress_users_privileges.* TO rg_priv_user;
GRANT SELECT_PRIV ON hive.db.* TO rg_priv_user;
GRANT SELECT_PRIV ON *.* TO nobody_here;
SHOW GRANTS FOR nobody_here;
CREATE TABLE t_secret (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1");
CREATE TABLE t_ok (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("replication_num" = "1");
DESC t_secret;

-- An account with no privilege at all cannot even open a connection on the test database.
-- @user rg_priv_none pw1
-- @connection nopriv
SELECT 1;

-- An account with ALTER_PRIV on the database but no SELECT_PRIV on t_secret.
-- @user rg_priv_user pw2
-- @connection limited
SELECT CURRENT_USER();
SELECT DATABASE();
SHOW GRANTS;
DESC t_secret;
SHOW CREATE TABLE t_secret;
-- Reading a table needs SELECT_PRIV, writing it LOAD_PRIV: refused on t_secret, granted on t_ok.
SELECT * FROM t_secret;
INSERT INTO t_secret VALUES (1);
DELETE FROM t_secret;
INSERT INTO t_ok VALUES (7);
SELECT k FROM t_ok;
DESC t_ok;
USE mysql;
CREATE USER rg_priv_other;
DROP USER rg_priv_none;
GRANT SELECT_PRIV ON *.*.* TO rg_priv_user;
REVOKE ALTER_PRIV ON regress_users_privileges.* FROM rg_priv_user;
SHOW GRANTS FOR root;
SHOW USERS;
SET GLOBAL wait_timeout = 100;
SET SESSION wait_timeout = 100;
SET PASSWORD = PASSWORD('pw2');
SET PASSWORD FOR rg_priv_none = PASSWORD('x');
USE information_schema;
SELECT COUNT(*) > 0 FROM information_schema.schemata;

-- root passes everything.
-- @connection default
DESC t_secret;
GRANT SELECT_PRIV ON regress_users_privileges.t_secret TO rg_priv_user;
-- @connection limited
USE regress_users_privileges;
DESC t_secret;

-- @connection default
-- @disconnect limited
REVOKE SELECT_PRIV ON regress_users_privileges.t_secret FROM rg_priv_user;
SHOW GRANTS FOR rg_priv_user;
DROP USER rg_priv_user;
DROP USER 'rg_priv_none'@'%';
DROP USER rg_priv_none;
DROP USER IF EXISTS rg_priv_none;
