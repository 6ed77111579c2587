-- errors: error packets for bad statements. Syntax errors are 1064 (42000) with MySQL's text:
-- "... near '<rest of the statement, at most 80 characters>' at line <n>". The connection stays
-- usable after every error.

-- ---- syntax errors ----
SELEC 1;
SELECT 1 FROM;
SELECT (1;
SELECT 1 +;
SELECT * FORM dual;
SELECT 1 AS select;
SELECT 1,
       2
  FROM WHERE;
SELECT 1 FROM FROM a_rather_long_table_name_that_goes_on_and_on JOIN another_long_table_name_here ON x = y;
SELECT 1 AS still_alive;

-- ---- empty statements ----
;
/* only a comment */;

-- ---- errors inside a multi-statement query stop the rest ----
SELECT 1 AS first; SELEC 2; SELECT 3;
SELECT 1 AS first; SELECT no_such_column; SELECT 3;

-- ---- unknown functions and bad calls ----
SELECT no_such_function(1);
SELECT CONCAT();
SELECT LENGTH('a', 'b');
SELECT no_such_column;

-- ---- unknown tables ----
-- 1146 once the server has the test's database (catalog), 1046 while it has none.
SELECT * FROM no_such_table;
SELECT * FROM no_such_db.no_such_table;

-- ---- USE ----
USE no_such_db;
USE information_schema;
SELECT DATABASE();
USE no_such_db;
SELECT DATABASE() AS unchanged_after_error;
USE INFORMATION_SCHEMA;
SELECT DATABASE() AS case_insensitive;
SELECT 1 AS still_alive;
