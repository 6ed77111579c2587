-- Doris scalar functions: NVL, TO_DATE, YEARS_ADD .. SECONDS_SUB, YEARS_DIFF .. SECONDS_DIFF,
-- DATE_TRUNC, NULL_OR_EMPTY / NOT_NULL_OR_EMPTY and UUID (Doris 2.1 documentation), FORMAT and
-- POSITION(sub IN s) (MySQL 8). NULL arguments, month-end clamping, leap years, negative
-- amounts, the sign and truncation of differences, rounding, errors and wrong argument counts.
CREATE TABLE t (id INT, d DATE, dt DATETIME, dt3 DATETIME(3), s VARCHAR(40), n INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO t VALUES (1, '2024-01-31', '2024-02-29 13:04:09', '2024-05-16 12:34:56.789', 'banana', 1), (2, '2023-12-31', '1999-12-31 23:59:59', '2024-05-19 00:00:00.5', '', -2), (3, NULL, NULL, NULL, NULL, NULL);

-- ---- NVL = IFNULL ----
SELECT nvl(NULL, 2), nvl(1, 2), nvl(NULL, NULL), nvl('a', 'b'), nvl(NULL, 'b'), nvl(NULL, 1.5);
SELECT id, nvl(n, 0), nvl(s, 'none'), nvl(d, '2000-01-01') FROM t ORDER BY id;
SELECT nvl(1);
SELECT nvl(1, 2, 3);

-- ---- TO_DATE(datetime) -> DATE ----
SELECT to_date('2024-03-05 10:11:12'), to_date('2024-03-05'), to_date(cast('2024-12-31 23:59:59' AS DATETIME)), to_date(NULL);
SELECT id, to_date(dt), to_date(dt3), to_date(d) FROM t ORDER BY id;
SELECT to_date();

-- ---- YEARS_ADD / YEARS_SUB ----
SELECT years_add('2024-02-29', 1), years_add('2024-02-29', 4), years_sub('2024-02-29', 1), years_add('2020-01-31 02:02:02', 1), years_add('2024-06-15', -3), years_sub('2024-06-15', -3);
-- ---- MONTHS_ADD / MONTHS_SUB: the day clamps to the target month's end ----
SELECT months_add('2024-01-31', 1), months_add('2023-01-31', 1), months_sub('2024-03-31', 1), months_add('2024-01-31', 3), months_add('2024-01-31', -2), months_sub('2020-01-31 02:02:02', 1), months_add('2024-11-30', 3), months_sub('2024-01-15', 13);
-- ---- WEEKS / DAYS ----
SELECT weeks_add('2024-02-26', 1), weeks_sub('2024-01-03', 1), weeks_add('2024-01-01 10:00:00', -2), days_add('2024-02-28', 1), days_add('2023-02-28', 1), days_sub('2024-01-01', 1), days_add('2024-12-31 23:59:59', 1), days_sub('2024-03-01', -30);
-- ---- HOURS / MINUTES / SECONDS: a DATE gives a DATETIME ----
SELECT hours_add('2024-01-01 23:00:00', 2), hours_sub('2024-01-01', 1), minutes_add('2024-02-28 23:59:00', 1), minutes_sub('2024-01-01 00:30:00', -45), seconds_add('2024-12-31 23:59:59', 1), seconds_sub('2024-01-01 00:00:00', 86400), seconds_add('2024-01-01 00:00:00.250', 10);
SELECT hours_add(cast('2024-01-01' AS DATE), 25), minutes_add(cast('2024-01-01' AS DATE), 90), days_add(cast('2024-01-01' AS DATE), 1), months_add(cast('2024-01-31' AS DATE), 1);
-- ---- NULL arguments; results outside year 0..9999 are NULL with a warning ----
SELECT years_add(NULL, 1), months_add('2024-01-01', NULL), days_sub(NULL, NULL), hours_add('not a date', 1);
SELECT years_add('9999-06-01', 1), months_sub('0000-01-15', 1), days_add('9999-12-31', 1), seconds_add('9999-12-31 23:59:59', 1);
SHOW WARNINGS;
-- ---- columns ----
SELECT id, years_add(d, n), months_add(d, n), months_sub(dt, n), weeks_add(dt, n), days_add(d, n), hours_add(dt, n), minutes_sub(dt3, n), seconds_add(dt3, n) FROM t ORDER BY id;
SELECT years_add('2024-01-01');
SELECT months_sub('2024-01-01', 1, 2);

-- ---- YEARS_DIFF .. SECONDS_DIFF(end, start): whole units, truncated toward zero ----
SELECT years_diff('2024-03-01', '2023-03-01'), years_diff('2024-03-01', '2023-03-02'), years_diff('2023-03-01', '2024-03-01'), years_diff('2024-02-29', '2023-02-28'), years_diff('2025-02-28', '2024-02-29'), years_diff('2020-02-29 10:00:00', '2000-02-29 10:00:01');
SELECT months_diff('2024-02-29', '2024-01-31'), months_diff('2024-03-31', '2024-02-29'), months_diff('2024-01-31', '2024-03-31'), months_diff('2024-02-29', '2023-02-28'), months_diff('2024-02-01 00:00:00', '2024-01-01 00:00:01');
SELECT weeks_diff('2024-01-15', '2024-01-01'), weeks_diff('2024-01-14', '2024-01-01'), weeks_diff('2024-01-01', '2024-01-14'), days_diff('2024-03-01', '2024-02-01'), days_diff('2023-03-01', '2023-02-01'), days_diff('2024-01-02 00:00:00', '2024-01-01 00:00:01'), days_diff('2024-01-01', '2024-01-02 00:00:01');
SELECT hours_diff('2024-01-01 10:00:00', '2024-01-01 08:59:59'), hours_diff('2024-01-01 08:30:00', '2024-01-01 10:00:00'), minutes_diff('2024-01-01 00:01:59', '2024-01-01 00:00:00'), minutes_diff('2024-01-01', '2024-01-01 00:01:59'), seconds_diff('2024-01-01 00:00:00', '2023-12-31 23:59:00'), seconds_diff('2024-03-01', '2024-02-28');
SELECT days_diff(cast('2024-03-01' AS DATE), cast('2024-02-01' AS DATE)), years_diff(NULL, '2024-01-01'), months_diff('2024-01-01', NULL), seconds_diff('nope', '2024-01-01');
SELECT id, years_diff(dt, d), months_diff(dt, d), days_diff(dt, d), hours_diff(dt3, dt), seconds_diff(dt3, d) FROM t ORDER BY id;
SELECT days_diff('2024-01-01');

-- ---- DATE_TRUNC(datetime, unit): every unit; 2024-05-16 is a Thursday ----
SELECT date_trunc('2024-05-16 12:34:56', 'second'), date_trunc('2024-05-16 12:34:56', 'minute'), date_trunc('2024-05-16 12:34:56', 'hour'), date_trunc('2024-05-16 12:34:56', 'day');
SELECT date_trunc('2024-05-16 12:34:56', 'week'), date_trunc('2024-05-16 12:34:56', 'month'), date_trunc('2024-05-16 12:34:56', 'quarter'), date_trunc('2024-05-16 12:34:56', 'year');
-- weeks start on Monday; units are case-insensitive; a DATE stays a DATE
SELECT date_trunc('2024-05-13 00:00:00', 'WEEK'), date_trunc('2024-05-19 23:59:59', 'Week'), date_trunc('2024-01-02', 'week'), date_trunc(cast('2024-05-16' AS DATE), 'quarter'), date_trunc(cast('2024-12-31' AS DATE), 'Year'), date_trunc(cast('2024-02-29' AS DATE), 'month');
-- the fraction is zeroed, the scale kept; the unit-first form; NULLs
SELECT date_trunc('2024-05-16 12:34:56.789', 'second'), date_trunc('year', '2024-05-16 12:34:56'), date_trunc('MONTH', cast('2024-05-16' AS DATE)), date_trunc(NULL, 'day'), date_trunc('2024-05-16 12:34:56', NULL);
SELECT id, date_trunc(dt, 'month'), date_trunc(dt3, 'second'), date_trunc(dt3, 'week'), date_trunc(d, 'quarter'), date_trunc('hour', dt) FROM t ORDER BY id;
SELECT date_trunc('2024-05-16 12:34:56', 'millisecond');
SELECT date_trunc('2024-05-16', 'days');
SELECT date_trunc(dt, s) FROM t;
SELECT date_trunc('2024-05-16');

-- ---- FORMAT(x, d): en_US grouping, rounding half away from zero (DOUBLE: rint) ----
SELECT format(12332.123456, 4), format(12332.1, 4), format(12332.2, 0), format(12332.5, 0), format(-12332.5, 0), format(123456789, 2), format(0, 2), format(999.995, 2);
SELECT format(-1234567.891, 2), format(-0.005, 2), format(-999, 0), format(1234.5, -1), format(1.5, 40), format(100, 1), format(1000, 0), format(12345678901234567890.123456789, 3);
SELECT format(2.5e0, 0), format(3.5e0, 0), format(1e20, 0), format(-1234.5678e0, 3), format('1234.567', 2), format('abc', 1), format(NULL, 2), format(1, NULL);
SELECT id, format(n * 1000.5, 1), format(n, 3) FROM t ORDER BY id;
SELECT format(1);

-- ---- UUID(): 36 characters, version 4, a new value per call ----
SELECT length(uuid()), uuid() REGEXP '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$', uuid() = uuid();
SELECT count(DISTINCT u) FROM (SELECT uuid() AS u FROM t) x;
SELECT uuid(1);

-- ---- POSITION(sub IN s) = LOCATE(sub, s) ----
SELECT position('b' IN 'abc'), POSITION('B' in 'abc'), position('x' IN 'abc'), position('' IN 'abc'), position('na' IN 'banana'), position(NULL IN 'abc'), position('a' IN NULL);
SELECT position('x' IN ('abc')), position(1 IN (SELECT '21')), position('1' IN concat(2 IN (1, 2), 'x')), position(position('b' IN 'ab') IN '321'), position ('c' IN 'abc');
SELECT id, position('an' IN s), position(s IN 'a banana') FROM t ORDER BY id;
-- position stays a name: column, alias, table
CREATE TABLE position (position INT, v VARCHAR(10)) DUPLICATE KEY(position) DISTRIBUTED BY HASH(position) BUCKETS 1;
INSERT INTO position (position, v) VALUES (1, 'x1'), (2, 'y2');
SELECT position, position(cast(position AS CHAR) IN v) AS position FROM position WHERE position IN (1, 2) ORDER BY position;
SELECT position('a', 'abc');
SELECT position('a' IN);

-- ---- NULL_OR_EMPTY / NOT_NULL_OR_EMPTY ----
SELECT null_or_empty(NULL), null_or_empty(''), null_or_empty(' '), null_or_empty('a'), null_or_empty(0), not_null_or_empty(NULL), not_null_or_empty(''), not_null_or_empty('a');
SELECT id, null_or_empty(s), not_null_or_empty(s) FROM t ORDER BY id;
SELECT null_or_empty();

-- ---- result types ----
CREATE TABLE ty AS SELECT months_add(d, 1) AS a, hours_add(d, 1) AS b, months_add(dt, 1) AS c, months_add('2024-01-31', 1) AS e, months_add('2024-01-31 10:00:00.12', 1) AS f, years_diff(dt, d) AS g, date_trunc(dt, 'day') AS h, date_trunc(d, 'month') AS i, date_trunc(dt3, 'hour') AS j, format(n, 2) AS k, uuid() AS l, null_or_empty(s) AS m, to_date(dt) AS o, position('a' IN s) AS p FROM t;
DESC ty;

-- ---- date arithmetic at the int64 limits: NULL, never a wrapped date ----
SELECT months_add('2020-01-31', 9223372036854775807), months_sub('2020-01-31', -9223372036854775808), years_add('2020-01-01', 9223372036854775807), seconds_sub('2020-01-01 00:00:00', -9223372036854775808);
SELECT DATE_ADD('2020-01-31', INTERVAL 9223372036854775807 MONTH), DATE_SUB('2020-01-31', INTERVAL -9223372036854775808 MICROSECOND), DATE_ADD('2020-01-01', INTERVAL 1e300 SECOND), DATE_ADD('2020-01-01', INTERVAL -1e300 SECOND);
SELECT DATE_ADD('2020-01-01', INTERVAL '213503982335 0' DAY_HOUR), DATE_ADD('2020-01-01', INTERVAL '999999999999:59:59' HOUR_SECOND), MAKEDATE(2020, 9223372036854775807), MAKEDATE(2020, 366);
