-- information_schema: SELECT ... FROM the virtual tables. Names, stars, WHERE, ORDER BY,
-- LIMIT/OFFSET, COUNT/MIN/MAX/SUM, metadata-bearing columns, unsupported constructs, errors.
-- Queries filter on table_schema = 'information_schema' so user databases do not show.

-- ---- the issue's examples ----
SELECT table_name FROM information_schema.tables WHERE table_schema = 'information_schema' ORDER BY table_name LIMIT 3;
USE information_schema;
SELECT * FROM schemata WHERE schema_name IN ('information_schema', 'mysql') ORDER BY schema_name;

-- ---- names: case, backquotes, aliases, qualified columns ----
SELECT TABLE_NAME, table_type FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = 'views';
SELECT `t`.`table_name` AS `n` FROM `information_schema`.`tables` AS `t` WHERE t.table_name LIKE 'key%';
SELECT tables.table_name, information_schema.tables.engine FROM information_schema.tables WHERE tables.table_name = 'SCHEMATA';
SELECT tables.table_name FROM information_schema.tables x;
SELECT no_such_column FROM information_schema.tables;
SELECT 1 FROM information_schema.tables WHERE no_such_column = 1;

-- ---- stars ----
SELECT * FROM information_schema.engines;
SELECT e.*, 'x' AS extra FROM information_schema.engines e;
SELECT z.* FROM information_schema.engines e;

-- ---- ORDER BY / LIMIT ----
SELECT table_name FROM information_schema.tables WHERE table_schema = 'information_schema' ORDER BY 1 DESC LIMIT 2;
SELECT table_name FROM information_schema.tables WHERE table_schema = 'information_schema' ORDER BY table_name LIMIT 2, 3;
SELECT table_name FROM information_schema.tables WHERE table_schema = 'information_schema' ORDER BY table_name LIMIT 3 OFFSET 10;
SELECT table_name FROM information_schema.tables WHERE table_schema = 'information_schema' ORDER BY table_name LIMIT 5 OFFSET 12;
SELECT table_name, IF(table_name LIKE 'C%', 'a', 'b') AS table_type FROM information_schema.tables WHERE table_schema = 'information_schema' ORDER BY table_type DESC, table_name LIMIT 4;
SELECT column_name, character_maximum_length FROM information_schema.columns WHERE table_name = 'schemata' ORDER BY 2, 1;
SELECT column_name, numeric_precision FROM information_schema.columns WHERE table_name = 'collations' ORDER BY numeric_precision DESC, ordinal_position DESC;
SELECT column_name FROM information_schema.columns WHERE table_name = 'engines' ORDER BY LENGTH(column_name), column_name;
SELECT table_name FROM information_schema.tables ORDER BY 3;
SET sql_select_limit = 2;
SELECT table_name FROM information_schema.tables WHERE table_schema = 'information_schema' ORDER BY table_name;
SELECT FOUND_ROWS();
SET sql_select_limit = DEFAULT;
SET batch_size = 3;
SELECT table_name FROM information_schema.tables WHERE table_schema = 'information_schema' ORDER BY table_name DESC LIMIT 4, 5;
SET batch_size = DEFAULT;

-- ---- aggregates ----
SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'information_schema';
SELECT COUNT(*) AS n, MIN(table_name), MAX(table_name) FROM information_schema.tables WHERE table_schema = 'information_schema';
SELECT SUM(ordinal_position), COUNT(numeric_precision), COUNT(*) + 1 FROM information_schema.columns WHERE table_schema = 'information_schema' AND table_name = 'tables';
SELECT MAX(ordinal_position) FROM information_schema.columns WHERE table_name = 'no_such_table';
SELECT table_name, COUNT(*) FROM information_schema.tables;
SELECT 1 FROM information_schema.tables WHERE COUNT(*) > 1;
SELECT AVG(ordinal_position) FROM information_schema.columns WHERE table_schema = 'information_schema';

-- ---- the tables themselves ----
SELECT ordinal_position, column_name, column_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'information_schema' AND table_name = 'TABLES' ORDER BY ordinal_position;
SELECT * FROM information_schema.table_streams;
SELECT * FROM information_schema.table_stream_consumption;
SELECT * FROM information_schema.views WHERE table_schema = 'information_schema';
SELECT * FROM information_schema.statistics WHERE table_schema = 'information_schema';
SELECT * FROM information_schema.key_column_usage WHERE table_schema = 'information_schema';
SELECT * FROM information_schema.character_sets ORDER BY character_set_name;
SELECT collation_name, character_set_name, is_default FROM information_schema.collations WHERE character_set_name = 'utf8mb4' ORDER BY collation_name;

-- ---- errors ----
SELECT * FROM information_schema.no_such_table;
SELECT * FROM mysql.user;
SELECT * FROM information_schema.tables a JOIN information_schema.views b ON 1;
SELECT * FROM information_schema.tables, information_schema.views;
SELECT table_schema FROM information_schema.tables WHERE table_schema = 'information_schema' GROUP BY table_schema;
SELECT table_name FROM information_schema.tables WHERE table_schema = 'information_schema' HAVING table_name LIKE 'C%' ORDER BY 1;
SELECT (SELECT 1) FROM information_schema.tables WHERE table_schema = 'information_schema' AND table_name = 'TABLES';
SELECT DISTINCT table_schema FROM information_schema.tables WHERE table_schema = 'information_schema';
SELECT 1 AS still_alive;
