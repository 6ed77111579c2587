-- prepare: SQL-level PREPARE / EXECUTE / DEALLOCATE PREPARE. The OK packet of PREPARE carries
-- the info text "Statement prepared" (length-encoded, as libmariadb requires).
PREPARE s1 FROM 'SELECT ? + 1 AS next, ? AS label';
SET @a = 41, @b = 'answer';
EXECUTE s1 USING @a, @b;
SET @a = 1.5;
EXECUTE s1 USING @a, @b;
EXECUTE s1 USING @a;
PREPARE s2 FROM 'SHOW VARIABLES LIKE ''autocommit''';
EXECUTE s2;
DEALLOCATE PREPARE s2;
EXECUTE s2;
DROP PREPARE s1;
EXECUTE s1 USING @a, @b;
-- placeholders in LIMIT (count, offset; LIMIT o, c and LIMIT c OFFSET o), numbered in text order
PREPARE p3 FROM 'SELECT n FROM (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) t WHERE n > ? ORDER BY n LIMIT ? OFFSET ?';
SET @lo = 0, @cnt = 2, @off = 1;
EXECUTE p3 USING @lo, @cnt, @off;
SET @cnt = 0;
EXECUTE p3 USING @lo, @cnt, @off;
PREPARE p4 FROM 'SELECT n FROM (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3) t ORDER BY n DESC LIMIT ?, ?';
SET @a = 1, @b = 5;
EXECUTE p4 USING @a, @b;
PREPARE p5 FROM 'SELECT 1 UNION ALL SELECT 2 ORDER BY 1 LIMIT ?';
SET @a = 1;
EXECUTE p5 USING @a;
-- a negative or text count is refused; a missing value too
SET @a = -1;
EXECUTE p5 USING @a;
SET @a = 'x';
EXECUTE p5 USING @a;
EXECUTE p5;
DEALLOCATE PREPARE p3;
DEALLOCATE PREPARE p4;
DEALLOCATE PREPARE p5;
-- outside a prepared statement a placeholder is a syntax error
SELECT 1 LIMIT ?;
PREPARE bad FROM 'SELEC 1';
DEALLOCATE PREPARE never_prepared;
SELECT 1 AS still_alive;
