-- sessions: several connections at once (-- @connection). Transaction statements with
-- @@autocommit, SHOW PROCESSLIST, KILL of an unknown id, session variable isolation, and SET
-- GLOBAL seen only by connections opened afterwards.
-- Runs alone in its schedule group: SHOW PROCESSLIST lists every connection of the server.
-- The only global this test changes is net_write_timeout, restored at the end.

-- ---- transactions and @@autocommit (one connection) ----
SELECT @@autocommit;
BEGIN;
SELECT 1 AS in_transaction;
COMMIT;
START TRANSACTION;
ROLLBACK;
BEGIN WORK;
COMMIT WORK;
START TRANSACTION;
ROLLBACK WORK;
SET autocommit = 0;
SELECT @@autocommit;
COMMIT;
ROLLBACK;
SET autocommit = 1;
SELECT @@autocommit;

-- ---- SHOW PROCESSLIST with one connection ----
-- Columns Id, User, Host, db, Command, Time, State, Info. Masked: Id, Host (has the client
-- port), db (depends on CREATE DATABASE) and Time.
-- @sorted
-- @mask_column 1 3 4 6
SHOW PROCESSLIST;
-- @sorted
-- @mask_column 1 3 4 6
SHOW FULL PROCESSLIST;

-- ---- KILL of an id that does not exist ----
KILL QUERY 999999;
KILL 999999;
KILL CONNECTION 999999;
SELECT 1 AS still_alive;

-- ---- session variables are per connection ----
SET @who = 'default';
SET SESSION time_zone = '+05:00';
SET autocommit = 0;
-- @connection c1
SELECT @who, @@time_zone = '+05:00' AS sees_other_session, @@autocommit;
SET @who = 'c1';
SET SESSION time_zone = '-03:00';
-- @connection default
SELECT @who, @@time_zone, @@autocommit;
-- @connection c1
SELECT @who, @@time_zone, @@autocommit;
-- @connection default
SET autocommit = 1;
SET SESSION time_zone = '+00:00';

-- ---- SET GLOBAL reaches new connections only ----
SET @saved = @@global.net_write_timeout;
SET GLOBAL net_write_timeout = 123;
SELECT @@global.net_write_timeout, @@session.net_write_timeout = @saved AS own_session_unchanged;
-- @connection c1
-- c1 was opened before the SET GLOBAL.
SELECT @@global.net_write_timeout, @@session.net_write_timeout = 123 AS old_session_changed;
-- @connection c2
SELECT @@global.net_write_timeout, @@session.net_write_timeout AS new_session;

-- ---- SHOW PROCESSLIST with three connections ----
-- Another connection may still be finishing its last reply, so Command, State and Info are
-- masked too: this pins the columns and one row per connection.
-- @connection default
-- @sorted
-- @mask_column 1 3 4 5 6 7 8
SHOW PROCESSLIST;

-- ---- disconnect ----
-- @disconnect c1
-- @disconnect c2
SET GLOBAL net_write_timeout = @saved;
SELECT @@global.net_write_timeout = @saved AS restored;
