-- Scalar functions: date/time (parts, DATE_FORMAT, INTERVAL arithmetic, differences,
-- conversions, time zones), strings, hashes, regular expressions (PCRE2), math; NULL
-- arguments, edge values, wrong argument counts. Results reviewed line by line against MySQL 8
-- semantics (and a MariaDB 10.11 server where it agrees); Doris functions (SPLIT_PART,
-- MURMUR_HASH3_64, REGEXP_EXTRACT, STARTS_WITH, ENDS_WITH) follow the Doris documentation.
DROP DATABASE IF EXISTS q_fn FORCE;
CREATE DATABASE q_fn;
USE q_fn;
CREATE TABLE t (id INT, dt DATETIME, d DATE, s VARCHAR(20), n INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO t VALUES (1, '2024-02-29 13:04:09', '2024-01-31', 'a,b,c', 3), (2, '1999-12-31 23:59:59', '2000-03-01', 'x', -1), (3, NULL, NULL, NULL, NULL);
-- ---- date parts ----
SELECT date_format('2024-03-05 13:04:09.5', '%a %b %c %D %d %e %f %H %h %I %i %j %k %l %M %m %p %r %S %s %T %U %u %V %v %W %w %X %x %Y %y %% %Q');
SELECT year('2024-03-05'), quarter('2024-03-05'), month('2024-03-05'), day('2024-03-05'), dayofweek('2024-03-05'), dayofyear('2024-03-05'), weekday('2024-03-05'), week('2024-01-01'), week('2024-01-01', 1), weekofyear('2024-12-30'), yearweek('2024-12-30'), hour('10:05:03'), minute('2024-01-01 10:05:03'), second('838:59:58'), microsecond('10:00:00.123');
SELECT week('2023-01-01', 0), week('2023-01-01', 1), week('2023-01-01', 2), week('2023-01-01', 3), week('2023-01-01', 4), week('2023-01-01', 5), week('2023-01-01', 6), week('2023-01-01', 7), week('2021-01-03', 3), week('2020-12-31', 3), yearweek('2021-01-03', 3), week('2024-12-31');
SELECT id, YEAR(dt), MONTH(dt), DAY(d), HOUR(dt), WEEK(d), DAYNAME(d), TO_DAYS(d), LAST_DAY(d) FROM t ORDER BY id;
-- ---- DATE_FORMAT ----
SELECT date_format(null, '%Y'), date_format('2024-01-01', null), date_format('2024-01-01 00:00:00', '%l %h %p %r'), date_format('2024-01-02', '%D %D'), date_format('2024-01-11', '%D'), date_format('2024-01-22', '%D'), date_format('2024-01-23', '%D'), date_format('2024-01-31', '%D'), date_format('2024-01-01', '%W %w %a'), date_format('2021-01-03', '%X-%V %x-%v');
SELECT id, DATE_FORMAT(dt, '%Y/%m/%d %T'), DATE_FORMAT(d, '%W %M %D') FROM t ORDER BY id;
-- ---- INTERVAL arithmetic ----
SELECT date_add('2024-01-31', interval 1 month), cast('2024-01-01' as date) + interval 1 day, now() - interval 1 hour > 0, 'abc' regexp 'B', 'abc' not rlike '^a';
SELECT date_add(null, interval 1 day), date_add('2024-01-01', interval null day), date_add('2024-02-29', interval 1 year), date_add('2024-02-29', interval -1 year), date_add('9999-12-31', interval 1 day), date_add('2024-01-31 10:00:00', interval 1 month), date_add('2024-01-01', interval 1 hour), '2024-01-01 23:59:59' + interval 1 second, date_add('2024-01-01', interval '1-2' year_month), date_add('2024-01-01', interval -90 minute), date_add('2024-03-31', interval 1 quarter);
SELECT convert_tz('2024-01-01 12:00:00', '+00:00', '+08:00'), date_sub('2024-03-31', interval 1 month), adddate('2024-01-01', 31), subdate('2024-01-01', interval '1 2:3:4' day_second), date_add('2024-01-01 00:00:00', interval '1.5' second_microsecond), '2024-01-01' - interval 1 quarter;
SELECT id, d + INTERVAL 1 MONTH, dt - INTERVAL 1 SECOND, DATE_ADD(dt, INTERVAL n DAY), INTERVAL 1 YEAR + d FROM t ORDER BY id;
SELECT DATE_ADD('2024-01-01', INTERVAL 1 + 1 DAY), DATE_ADD('2024-01-01 00:00:00', INTERVAL 1.5 SECOND), DATE_SUB('2024-01-01', INTERVAL '1 1' DAY_HOUR), DATE_ADD('2024-01-01', INTERVAL '1:1:1' HOUR_SECOND);
SELECT DATE_ADD('2024-01-01', 1);
SELECT DATE_ADD('2024-01-01', INTERVAL 1 DAY, 2);
-- ---- differences ----
SELECT datediff('2024-03-01', '2024-02-01'), timestampdiff(month, '2024-01-31', '2024-02-29'), timestampdiff(year, '2000-02-29', '2024-02-28'), timestampadd(day, 5, '2024-02-26'), timestampdiff(second, '2024-01-01', '2024-01-02');
SELECT datediff('2024-03-01 23:59:59', '2024-02-28 00:00:01'), datediff(null, '2024-01-01'), timestampdiff(week, '2024-01-01', '2024-01-15'), timestampdiff(quarter, '2024-01-01', '2024-12-31'), timestampdiff(minute, '2024-01-01 10:00', '2024-01-01 09:00'), timestampdiff(month, '2024-03-31', '2024-02-29'), timestampdiff(microsecond, '2024-01-01', '2024-01-01 00:00:01');
SELECT id, DATEDIFF(dt, d), TIMESTAMPDIFF(HOUR, d, dt) FROM t ORDER BY id;
-- ---- conversions ----
SELECT last_day('2024-02-10'), date('2024-02-10 10:11:12'), time('2024-02-10 10:11:12'), to_days('2024-01-01'), from_days(739251), from_unixtime(0), from_unixtime(1700000000, '%Y-%m-%d %H'), str_to_date('05/03/2024', '%d/%m/%Y'), str_to_date('2024-03-05 13:04:09', '%Y-%m-%d %H:%i:%s'), makedate(2024, 60), dayname('2024-03-05'), monthname('2024-03-05');
SELECT str_to_date('March 5 2024', '%M %e %Y'), str_to_date('10:30 PM', '%h:%i %p'), str_to_date('2024-02-30', '%Y-%m-%d'), str_to_date('abc', '%Y'), str_to_date('2024-03-05 01:02:03.45', '%Y-%m-%d %H:%i:%s.%f'), str_to_date(null, '%Y'), str_to_date('24-3-5', '%y-%c-%e');
SELECT makedate(2024, 0), makedate(24, 1), makedate(2023, 366), from_days(0), to_days('0001-01-01'), last_day('2023-02-15'), last_day('2024-12-01 10:00'), last_day(null), dayname(null), monthname('2024-13-01');
SELECT from_unixtime(1700000000.5), from_unixtime(-1), from_unixtime(null), unix_timestamp('2024-01-01 00:00:00'), time('10:11:12.5'), time(null), date(null), date('2024-13-01');
-- ---- time zones: FROM_UNIXTIME and UNIX_TIMESTAMP use the session time_zone ----
set time_zone = '+08:00';
SELECT from_unixtime(0), unix_timestamp('1970-01-01 08:00:00'), from_unixtime(0, '%H:%i');
set time_zone = 'SYSTEM';
SELECT convert_tz('2024-01-01 12:00:00', '+08:00', '-05:30'), convert_tz(null, '+00:00', '+01:00'), convert_tz('2024-01-01 12:00:00', '+00:00', '+15:00');
SELECT CONVERT_TZ('2024-03-05 12:00:00', 'SYSTEM', 'SYSTEM'), CONVERT_TZ('2024-01-01', 'Europe/Paris', '+00:00'), CONVERT_TZ('2024-01-01', '+00:00', 'x');
SET time_zone = '-05:00';
SELECT FROM_UNIXTIME(86400), UNIX_TIMESTAMP(FROM_UNIXTIME(86400));
SET time_zone = 'SYSTEM';
-- ---- strings ----
SELECT split_part('a,b,c', ',', 2), split_part('prefix_string', '_', -1), split_part('abc##123###234', '##', -2), split_part('a,b', ',', 5), substring_index('www.mysql.com', '.', 2), substring_index('www.mysql.com', '.', -2), strcmp('a', 'B'), space(3), ascii('A'), ord('é'), bin(12), oct(8), unhex('4142'), hex(unhex('abc')), to_base64('abc'), from_base64('YWJj');
SELECT substring_index('a.b.c', '.', 0), substring_index('a.b.c', '', 1), substring_index('a.b.c', '.', 10), substring_index('a.b.c', '.', -10), substring_index(null, '.', 1), strcmp('abc', 'abc'), strcmp('b', 'a'), strcmp(null, 'a'), space(0), space(-1), space(null), ascii(''), ascii(null), ord(''), bin(-1), oct(null), bin(0);
SELECT unhex('zz'), unhex(''), unhex(null), to_base64(''), to_base64(null), from_base64('YWJ'), from_base64('Y W J j'), from_base64(null), to_base64(repeat('x', 60)), md5(null), sha2('abc', 1), sha2('abc', 0), sha('');
SELECT crc32(''), crc32(null), crc32(123), field('x', 'a', 'b'), field(null, 'a'), field('A', 'a'), field(2, 1, 2, 3), field('2', 1, 2), elt(0, 'a'), elt(3, 'a', 'b'), elt(null, 'a'), elt(1, null), find_in_set('a,b', 'a,b,c'), find_in_set('', 'a,,b'), find_in_set('B', 'a,b'), find_in_set(null, 'a'), find_in_set('a', '');
SELECT insert('Quadratic', -1, 4, 'What'), insert('Quadratic', 3, 100, 'What'), insert('Quadratic', 3, -1, 'What'), insert('Quadratic', 10, 1, 'X'), insert('Quadratic', 9, 1, 'X'), insert(null, 1, 1, 'x'), insert('héllo', 2, 1, 'e');
SELECT id, SPLIT_PART(s, ',', 2), SUBSTRING_INDEX(s, ',', -1), FIND_IN_SET('b', s), FIELD(n, 1, 3) FROM t ORDER BY id;
SELECT SPLIT_PART('a,b', ',', 0), SPLIT_PART('a,b', ',', -3), SPLIT_PART(NULL, ',', 1), STARTS_WITH(NULL, 'a'), ENDS_WITH('abc', '');
-- ---- hashes ----
SELECT md5('abc'), sha1('abc'), sha2('abc', 256), sha2('abc', 224), crc32('hello'), murmur_hash3_64('hello'), field('b', 'a', 'b'), elt(2, 'a', 'b'), find_in_set('b', 'a,b,c'), insert('Quadratic', 3, 4, 'What'), starts_with('hello', 'he'), ends_with('hello', 'lo');
SELECT MURMUR_HASH3_64('hello', 'world'), MURMUR_HASH3_64(''), MURMUR_HASH3_64(NULL), SHA2('abc', 384), SHA2('abc', 512), SHA2(NULL, 256), SHA2('abc', NULL);
-- ---- regular expressions ----
SELECT regexp_like('abc', '^A'), regexp_like('abc', '^A', 'c'), regexp_replace('a1b22c', '[0-9]+', '#'), regexp_extract('x=12,y=34', 'y=([0-9]+)', 1), regexp_substr('abc def', '[a-z]+', 1, 2), regexp_replace('abc', 'b', '[$0]');
SELECT 'abc' REGEXP NULL, NULL REGEXP 'a', 'ABC' REGEXP 'b', CAST('ABC' AS BINARY) REGEXP 'b', REGEXP_LIKE('a\nb', '^b$', 'm'), REGEXP_REPLACE('aaa', 'a', 'b', 2), REGEXP_REPLACE('aaa', 'a', 'b', 1, 2), REGEXP_SUBSTR('abc', 'z'), REGEXP_REPLACE(NULL, 'a', 'b');
SELECT id, s REGEXP '^[a-c]', s NOT RLIKE 'x' FROM t ORDER BY id;
SELECT 'x' REGEXP '(';
SELECT REGEXP_LIKE('a', 'a', 'z');
-- ---- math ----
SELECT ln(2.718281828459045), log(2, 8), log2(8), log10(100), exp(1), sign(-3), pi(), sin(0), cos(0), tan(0), asin(2), atan2(1, 1), cot(1), degrees(pi()), radians(180), truncate(1.999, 1), truncate(-1.999, 0), truncate(1234, -2), truncate(1.5e0, 0), rand(3), conv('ff', 16, 10), conv(-1, 10, 16), conv(10, 10, -2), ln(0), log(-1);
SELECT LN(-1), LOG(1, 10), LOG(10, 100), LOG2(0), LOG10(-5);
SHOW WARNINGS;
SELECT EXP(1000);
SELECT sign(0), sign(-0.5), sign(null), sign(18446744073709551615), truncate(123.456, 2), truncate(123.456, -1), truncate(-123.456, 1), truncate(null, 1), truncate(1.23, null), truncate(12345678901234567890, -3), atan(1), atan(1, 2), acos(1.5), degrees(null), radians(null);
SELECT conv('zz', 36, 10), conv('-10', 10, 2), conv('10', 1, 10), conv(null, 10, 2), conv('9223372036854775808', 10, -10), conv('abc', 10, 16), conv('11', 2, 10), conv(255, 10, 16);
SELECT 1 <=> 1, NULL <=> NULL, 1 <=> NULL, NULL <=> 0;
SELECT -9223372036854775808 - 1;
SELECT 4611686018427387904 * 2;
SELECT 9223372036854775807 + 1;
SELECT 18446744073709551615 + 1;
SELECT 5 / 0, 5 DIV 0, 5 % 0, MOD(5, 0), 5.0 / 0;
-- ---- errors: argument counts, unknown functions ----
SELECT YEAR(1, 2);
SELECT DATE_FORMAT('2024-01-01');
SELECT SHA2('abc');
SELECT CONCAT_WS('x');
SELECT NO_SUCH_FUNCTION(1);
SELECT TIMESTAMPDIFF(DAY_HOUR, '2024-01-01', '2024-01-02');
-- typed literals: DATE 'x', TIME 'x', TIMESTAMP 'x' (any case, whitespace before the quote);
-- the text must be such a value (1525); `date` stays a column name elsewhere
SELECT DATE '2024-03-01', TIMESTAMP '2024-03-01 10:11:12', TIME '10:11:12.5', timestamp  '2024-03-01 10:11:12.123';
SELECT date '2024-03-01' + INTERVAL 1 DAY AS next_day, DATEDIFF(DATE '2024-03-01', DATE '2024-02-01') AS days, TIMESTAMP '2024-03-01 23:59:59' < DATE '2024-03-02' AS lt;
CREATE TABLE dlit (id INT, date DATE) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO dlit VALUES (1, '2024-01-01'), (2, '2024-06-01'), (3, NULL);
SELECT id, date FROM dlit WHERE date >= DATE '2024-03-01' ORDER BY id;
SELECT date FROM dlit ORDER BY date;
SELECT DATE '2024-13-01';
SELECT TIMESTAMP '2024-01-01 25:00:00';
SELECT TIME 'abc';
-- character set introducers (mysqldump writes _binary'...'): the text, whatever the set;
-- `_binary` without a quote after it stays a name
SELECT _utf8mb4'abc', _binary 'x\'y', _utf8mb4 'a' 'b';
CREATE TABLE intro (_binary INT, s VARCHAR(10)) DUPLICATE KEY(_binary) DISTRIBUTED BY HASH(_binary) BUCKETS 1;
INSERT INTO intro VALUES (1, _binary'x'), (2, _utf8mb4'y'), (3, _latin1 'z');
SELECT _binary, s FROM intro ORDER BY _binary;
DROP DATABASE q_fn FORCE;
