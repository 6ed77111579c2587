-- utf8mb4_general_ci: case- and accent-insensitive comparisons (MySQL's results), bytewise
-- for binary strings and _bin collations; UPPER / LOWER keep accents.
SELECT 'é' = 'E', 'É' = 'e', 'ß' = 's', 'Æ' = 'A', 'ñ' = 'N', 'café' = 'CAFE', 'naïve' < 'nb';
SELECT 'é' = 'e' COLLATE utf8mb4_bin, 'é' = 'É' COLLATE utf8mb4_bin, 'ø' = 'o';
SELECT 'café' LIKE 'CAF_', 'Éclair' LIKE 'ecl%', 'x' LIKE 'X', 'é%' LIKE 'E\%', 'aé' LIKE 'a_';
SELECT LOCATE('É', 'xxcafe'), INSTR('naïve', 'I'), LOCATE('e', 'café', 2);
SELECT UPPER('café'), LOWER('ÉCLAIR'), LENGTH('é'), CHAR_LENGTH('é');
CREATE TABLE w (id INT, s VARCHAR(20)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2;
INSERT INTO w VALUES (1, 'cafe'), (2, 'café'), (3, 'CAFÉ'), (4, 'cherry'), (5, 'Éclair'),
  (6, 'eclair'), (7, 'zeta'), (8, 'ß'), (9, 's'), (10, NULL);
SELECT UPPER(s) AS k, COUNT(*) FROM w GROUP BY UPPER(s) ORDER BY 1;
SELECT COUNT(DISTINCT s) FROM w;
SELECT id FROM w ORDER BY s, id;
SELECT id FROM w WHERE s = 'CAFE' ORDER BY id;
SELECT a.id, b.id FROM w a JOIN w b ON a.s = b.s AND a.id < b.id ORDER BY 1, 2;
SELECT id FROM w WHERE s IN ('ECLAIR', 'S') ORDER BY id;
-- the BINARY operator: CAST(x AS BINARY), so comparisons, GROUP BY and DISTINCT see bytes
-- (case and accents count); it binds as tightly as unary minus
SELECT BINARY 'a' = 'A', 'a' = 'A', BINARY 'é' = 'e', BINARY 'a' < 'B', BINARY NULL IS NULL, LENGTH(BINARY 'ab'), BINARY 1 + 2;
SELECT id FROM w WHERE BINARY s = 'cafe' ORDER BY id;
SELECT COUNT(DISTINCT BINARY s) > COUNT(DISTINCT s) FROM w;
