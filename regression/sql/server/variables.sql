-- variables: SET of system variables (SESSION / GLOBAL, several at once), @@session/@@global
-- reads, user variables, SET NAMES, SHOW VARIABLES, the error codes of bad SETs, SHOW WARNINGS,
-- and every connect-time statement of CLIENTS.md §2 items 7-8.
-- The only global this test changes is wait_timeout, restored at the end.

-- ---- session scope ----
SELECT @@autocommit, @@session.autocommit, @@SESSION.AUTOCOMMIT, @@global.autocommit;
SET SESSION autocommit = 0;
SELECT @@autocommit, @@session.autocommit, @@local.autocommit;
SET autocommit = 1;
SELECT @@autocommit;
SET @@session.autocommit = OFF;
SELECT @@autocommit;
SET LOCAL autocommit = ON;
SELECT @@autocommit;
SET time_zone = '+08:00';
SELECT @@time_zone, @@session.time_zone;
SET time_zone = '+00:00';
SELECT @@time_zone;

-- ---- global scope ----
SET @saved_wait_timeout = @@global.wait_timeout;
SET GLOBAL wait_timeout = 1234;
SELECT @@global.wait_timeout;
-- The session value was copied at connect time and does not follow SET GLOBAL.
SELECT @@session.wait_timeout = @saved_wait_timeout AS session_unchanged;
SET @@global.wait_timeout = 2345;
SELECT @@GLOBAL.wait_timeout;
SET SESSION wait_timeout = 77;
SELECT @@session.wait_timeout, @@global.wait_timeout;
SHOW GLOBAL VARIABLES LIKE 'wait_timeout';
SHOW SESSION VARIABLES LIKE 'wait_timeout';
SET GLOBAL wait_timeout = @saved_wait_timeout;
SELECT @@global.wait_timeout = @saved_wait_timeout AS restored;

-- ---- several at once ----
SET autocommit = 0, @a = 5, SESSION wait_timeout = 100, @@session.time_zone = '+01:00';
SELECT @@autocommit, @a, @@wait_timeout, @@time_zone;
SET autocommit = 1, time_zone = '+00:00';
SELECT @@autocommit, @@time_zone;
-- One bad assignment fails the whole statement: @b stays unset.
SET @b = 1, no_such_variable = 2;
SELECT @b;

-- ---- user variables ----
SET @x = 1, @y = 'two', @z = NULL, @d = 2.50;
SELECT @x, @y, @z, @d, @never_set;
SET @x := @x + 1;
SELECT @x, @X AS upper_case_name;
SELECT @dt := 3 AS assigned;
SELECT @dt AS read_back;
SET @s = CONCAT(@y, '-', @x);
SELECT @s;

-- ---- SET NAMES ----
SET NAMES utf8mb4;
SELECT @@character_set_client, @@character_set_connection, @@character_set_results;
SET NAMES 'utf8mb4' COLLATE 'utf8mb4_general_ci';
SELECT @@collation_connection;
SET NAMES no_such_charset;

-- ---- SHOW VARIABLES ----
-- @sorted
SHOW VARIABLES LIKE 'auto%';
SHOW VARIABLES WHERE Variable_name = 'autocommit';
SHOW VARIABLES LIKE 'no_such_variable%';

-- ---- errors ----
-- 1193 unknown variable
SET no_such_variable = 1;
SET GLOBAL no_such_variable = 1;
SELECT @@no_such_variable;
-- 1231 bad value
SET autocommit = 'maybe';
SET autocommit = 2;
SET sql_mode = 'NO_SUCH_MODE';
SET time_zone = 'No/Such_Zone';
-- 1228 session-only variable set globally, 1229 global-only variable set per session
SET GLOBAL timestamp = 1;
SET SESSION max_connections = 10;
SET max_connections = 10;
-- 1238 read-only variable, wrong scope in a read
SET GLOBAL version_comment = 'x';
SELECT @@session.max_connections;

-- ---- warnings ----
SELECT 1 / 0 AS div_zero;
SHOW WARNINGS;
SELECT @@warning_count;
SELECT 1 AS clean;
SHOW WARNINGS;

-- ---- connect-time statements (CLIENTS.md §2 item 7) ----
SET autocommit=0;
SET autocommit=1;
SET AUTOCOMMIT = 0;
SET AUTOCOMMIT = 1;
set autocommit=1, sql_mode = concat(@@sql_mode,',STRICT_TRANS_TABLES');
SELECT @@sql_mode LIKE '%STRICT_TRANS_TABLES%' AS strict_added;
SET SESSION SQL_AUTO_IS_NULL=0;
SET session_track_schema= ON;
SET session_track_system_variables='autocommit,transaction_isolation';
SET session_track_system_variables='autocommit,tx_isolation';
START TRANSACTION;
COMMIT;
ROLLBACK;

-- ---- connect-time reads (CLIENTS.md §2 item 8) ----
-- @mask_column 1
select @@version_comment limit 1;
-- system_time_zone is the host's zone.
-- @mask_column 2
SELECT @@max_allowed_packet,@@system_time_zone,@@time_zone,@@auto_increment_increment;
SELECT @@autocommit;
SELECT @@sql_mode;
select @@character_set_client, @@character_set_connection, @@character_set_server, @@character_set_database limit 1;
-- DATABASE() depends on whether the server could create the test's database.
-- @mask_column 1
select DATABASE(), USER() limit 1;
select database() IS NULL OR database() = 'regress_server_variables' AS database_ok;
SELECT CHAR_LENGTH('héllo') AS char_len, LENGTH('héllo') AS byte_len;
SELECT CAST('3.14159' AS DECIMAL(5,2)) AS dec_cast;
