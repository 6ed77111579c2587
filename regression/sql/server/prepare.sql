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
PREPARE bad FROM 'SELEC 1';
DEALLOCATE PREPARE never_prepared;
SELECT 1 AS still_alive;
