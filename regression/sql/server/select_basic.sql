-- select_basic: SELECT without tables. Literals, arithmetic, NULL handling, comparison, CASE,
-- CAST, string functions, LIMIT, aliases, and the session functions clients call at connect
-- time (CLIENTS.md §2 item 8).

-- ---- literals ----
SELECT 1;
SELECT 1 AS one, -2 AS neg, 3.25 AS dec_lit, 1.5e3 AS dbl, 'text' AS str, "dq" AS dq;
SELECT 'it''s' AS doubled_quote, 'it\'s' AS escaped_quote, 'back\\slash' AS backslash, '' AS empty;
SELECT TRUE, FALSE, NULL;
SELECT 2147483647 AS max_int, 2147483648 AS above_int, 9223372036854775807 AS max_bigint,
       -9223372036854775808 AS min_bigint;
SELECT 'tab\there' AS tab, 'new\nline' AS newline;

-- ---- arithmetic ----
SELECT 1 + 2, 7 - 10, 6 * 7, 7 / 2, 7 DIV 2, 7 % 3, MOD(-7, 3), -(-5);
SELECT 1 + 2 * 3 AS precedence, (1 + 2) * 3 AS parens, 2 * 3.5 AS int_times_dec;
SELECT 0.1 + 0.2 AS dec_sum, 1.50 + 1 AS keeps_scale, 10 / 4 AS div_dec;
SELECT 1 / 0 AS div_zero, 1 % 0 AS mod_zero, 5 DIV 0 AS intdiv_zero;
SELECT ABS(-3) AS abs_v, ROUND(2.567, 2) AS round_v, FLOOR(-1.5) AS floor_v, CEIL(1.2) AS ceil_v;

-- ---- NULL handling ----
SELECT NULL + 1 AS plus, NULL = NULL AS eq, NULL <=> NULL AS null_safe_eq, 1 <=> NULL AS ns_one;
SELECT NULL IS NULL AS is_null, 0 IS NULL AS zero_is_null, '' IS NOT NULL AS empty_not_null;
SELECT IFNULL(NULL, 'fallback') AS ifnull_v, COALESCE(NULL, NULL, 3) AS coalesce_v,
       NULLIF(5, 5) AS nullif_same, NULLIF(5, 6) AS nullif_diff;
SELECT CONCAT('a', NULL) AS concat_null, LENGTH(NULL) AS length_null, UPPER(NULL) AS upper_null;

-- ---- comparison and logic ----
SELECT 1 < 2, 2 <= 1, 3 = 3, 3 <> 4, 3 != 3, 'a' = 'a', 'abc' < 'abd';
SELECT 5 BETWEEN 1 AND 10 AS btw, 5 NOT BETWEEN 1 AND 4 AS not_btw, 3 IN (1, 2, 3) AS in_list,
       4 NOT IN (1, 2, 3) AS not_in, NULL IN (1, 2) AS null_in;
SELECT 'abc' LIKE 'a%' AS l1, 'abc' LIKE '_b_' AS l2, 'abc' NOT LIKE 'b%' AS l3, 'ABC' LIKE 'abc' AS l_case;
SELECT 1 AND 0 AS and_v, 1 OR 0 AS or_v, NOT 1 AS not_v, NULL AND 0 AS null_and_false,
       NULL OR 1 AS null_or_true, NULL AND 1 AS null_and_true;
SELECT GREATEST(3, 7, 5) AS greatest_v, LEAST(3, 7, 5) AS least_v;

-- ---- CASE and IF ----
SELECT CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'many' END AS simple_case;
SELECT CASE WHEN 5 > 3 THEN 'yes' ELSE 'no' END AS searched, CASE WHEN 1 = 0 THEN 'x' END AS no_else;
SELECT CASE NULL WHEN NULL THEN 'matched' ELSE 'null never equals' END AS case_null;
SELECT IF(1 > 0, 'then', 'else') AS if_true, IF(NULL, 'then', 'else') AS if_null;

-- ---- CAST ----
SELECT CAST('42' AS INT) AS to_int, CAST(42 AS VARCHAR(10)) AS to_varchar,
       CAST('12.345' AS DECIMAL(10,2)) AS to_decimal;
SELECT CAST('7' AS SIGNED) AS to_signed, CAST(3 AS DOUBLE) + 0.5 AS to_double,
       CAST('2024-02-29' AS DATE) AS to_date, CAST(NULL AS INT) AS null_cast;
SELECT CAST('abc' AS INT) AS bad_int;

-- ---- string functions ----
SELECT CONCAT('Riv', 'u', 'let') AS concat3, CONCAT('n=', 42) AS concat_num, CONCAT('') AS concat_empty;
SELECT LENGTH('abc') AS len, LENGTH('héllo') AS len_bytes, CHAR_LENGTH('héllo') AS chars,
       LENGTH('😀') AS emoji_bytes, CHAR_LENGTH('😀') AS emoji_chars, length('') AS len_empty;
SELECT UPPER('MixEd ü') AS up, LOWER('MixEd Ü') AS low;
SELECT SUBSTRING('Rivulet', 2, 3) AS from2_len3, SUBSTRING('Rivulet', 4) AS from4,
       SUBSTRING('Rivulet', -3) AS last3, SUBSTRING('Rivulet', 0) AS from0,
       SUBSTRING('Rivulet', 10) AS past_end, SUBSTRING('héllo', 2, 3) AS utf8_chars;

SELECT CHAR(39) AS quote, CHAR(65, 66, 67) AS abc, CHAR(NULL, 72) AS skips_null, LENGTH(CHAR(256)) AS two_bytes;

-- ---- LIMIT ----
SELECT 1 AS n LIMIT 1;
SELECT 1 AS n LIMIT 0;
SELECT 1 AS n LIMIT 5;
SELECT 1 AS n LIMIT 1 OFFSET 1;

-- ---- aliases and column names ----
SELECT 1 AS a, 2 b, 3 AS `back tick`, 4 AS MixedCase;
SELECT 1+1, 1 +  1, 'x', UPPER('y');
SELECT t.x FROM (SELECT 10 AS x) AS t;

-- ---- session functions ----
-- DATABASE() is the test's database, or NULL while the server cannot CREATE DATABASE.
SELECT DATABASE() IS NULL OR DATABASE() = 'regress_server_select_basic' AS database_ok;
-- @mask_column 1
SELECT CONNECTION_ID();
SELECT CONNECTION_ID() > 0 AS has_connection_id;
-- The version strings carry the release number: pin the names and the shape, not the number.
SELECT LEFT(VERSION(), 6) AS version_prefix, @@version = VERSION() AS same_as_var;
SELECT @@version_comment LIKE 'Rivulet%' AS comment_ok;
-- @mask_column 1
SELECT @@version_comment;
-- @mask_column 1
select @@version_comment limit 1;
