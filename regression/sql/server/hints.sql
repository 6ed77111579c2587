-- hints: optimizer hints /*+ SET_VAR(k=v, ...) */ right after the first keyword set session
-- variables for that one statement; the session keeps its values afterwards, also when the
-- statement fails. An unknown variable is error 1193 (as SET, and as Doris); a malformed
-- SET_VAR is 1064; other hint names are ignored. Changes no global.

SELECT @@time_zone;
SELECT /*+ SET_VAR(time_zone='+08:00') */ @@time_zone;
SELECT @@time_zone;
SELECT /*+ SET_VAR(sql_select_limit=1) */ table_name FROM information_schema.tables;
SELECT COUNT(*) > 1 FROM information_schema.tables;
SELECT @@sql_select_limit = 18446744073709551615;
SELECT /*+ SET_VAR(timestamp=86400, time_zone='+08:00') */ NOW(), UNIX_TIMESTAMP();
SELECT /*+ SET_VAR(autocommit=OFF, div_precision_increment=2, unique_checks=false, wait_timeout=-5) */ @@autocommit, 1/3, @@unique_checks, @@wait_timeout;
SHOW WARNINGS;
SELECT @@autocommit, 1/3, @@unique_checks, @@wait_timeout;
select /*+ LEADING(t1 t2) set_var(SQL_SELECT_LIMIT = 2) ORDERED */ table_name from information_schema.tables order by table_name;

-- Errors: the session is unchanged after each.
SELECT /*+ SET_VAR(wait_timeout=5, no_such_var=1) */ @@wait_timeout;
SELECT /*+ SET_VAR(wait_timeout=5) */ no_such_column;
SELECT /*+ SET_VAR(wait_timeout=5, autocommit='maybe') */ 1;
SELECT /*+ SET_VAR(version='x') */ 1;
SELECT /*+ SET_VAR(wait_timeout) */ 1;
SELECT /*+ SET_VAR(wait_timeout=5 */ 1;
SELECT @@wait_timeout, @@autocommit;

-- Only right after the first keyword: elsewhere it is a comment.
SELECT @@wait_timeout /*+ SET_VAR(wait_timeout=5) */;
SET /*+ SET_VAR(no_such_var=1) */ @hint_x = 1;
SELECT /*+ SET_VAR(wait_timeout=6) */ /*+ SET_VAR(wait_timeout=7) */ @@wait_timeout;

-- Prepared statements apply the hint at every execution.
PREPARE hint_p FROM 'SELECT /*+ SET_VAR(wait_timeout=11) */ @@wait_timeout';
EXECUTE hint_p;
SELECT @@wait_timeout;
DEALLOCATE PREPARE hint_p;
