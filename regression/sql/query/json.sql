-- JSON / JSONB columns and the Doris 2.1 JSON functions (planner/plan_json.c,
-- plan_func_json.c). A JSON column stores the normalized text: compact, members in insertion
-- order with duplicates kept, integers exact, other numbers as %.15g (Doris JSONB).

-- 1. Column round trip and normalization
CREATE TABLE j (id INT, v JSON) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO j VALUES
  (1, '{"a": 1, "b" : [1, 2.50, -0, 1e3, -7.25E-2, true, false, null], "a": "dup"}'),
  (2, ' [ ] '), (3, NULL), (4, '"str"'), (5, '{}'), (6, 'null'), (7, 'true'),
  (8, '170141183460469231731687303715884105727'), (9, '-9223372036854775809'),
  (10, '{"nested": {"deep": [[1, [2, {"x": "y"}]]]}}'),
  (11, '"tab\\there \\"q\\" back\\\\slash \\/ \\u00e9\\u4e2d \\ud83d\\ude00 ctl\\u0001"'),
  (12, '"héllo wörld 中文"'), (13, '[1.0, 0.1, 123456789012345678901234567890.5, 1e-7, 6.18]');
SELECT id, v FROM j ORDER BY id;
DESC j;
SHOW CREATE TABLE j;

-- 2. Invalid JSON: an error under enable_insert_strict (the default), NULL without it
INSERT INTO j VALUES (20, 'abc');
INSERT INTO j VALUES (20, '{"a":1,}');
INSERT INTO j VALUES (20, '');
INSERT INTO j VALUES (20, '[1, 2');
INSERT INTO j VALUES (20, '"\\ud800"');
INSERT INTO j VALUES (20, '1e400');
INSERT INTO j VALUES (20, '{"a":1} x');
SET enable_insert_strict = false;
INSERT INTO j VALUES (21, '{bad}');
SET enable_insert_strict = true;
SELECT id, v FROM j WHERE id >= 20;

-- 3. CAST to and from JSON
SELECT CAST('{"k1" : "100"}' AS JSON), CAST('[1, 2]' AS JSONB), CAST('nope' AS JSON), CAST(NULL AS JSON);
SELECT CAST(123 AS JSON), CAST(1.50 AS JSON), CAST(v AS STRING) FROM j WHERE id = 5;
SELECT CAST(json_extract(v, '$.a') AS INT) FROM j WHERE id = 10 OR id = 1 ORDER BY id;

-- 4. JSON_EXTRACT and the typed extractors (paths: $, .key, ."quoted", [n], [last], [last-n])
SELECT json_extract('{"id": 123, "name": "doris"}', '$.id'), json_extract('[1, 2, 3]', '$.[1]');
SELECT json_extract('{"k1": "v1", "k2": { "k21": 6.6, "k22": [1, 2] } }', '$.k1', '$.k2.k21', '$.k2.k22', '$.k2.k22[1]');
SELECT json_extract('{"id": 123, "name": "doris"}', '$.aaa', '$.name');
SELECT json_extract('{"id": 123}', NULL, '$.id'), json_extract(NULL, '$.id'), json_extract('{"id": 1}', NULL);
SELECT json_extract('{"k1.a": "abc", "k2": 300}', '$."k1.a"'), json_extract('[10, 20, 30]', '$[last]'), json_extract('[10, 20, 30]', '$[last-2]'), json_extract('[10, 20, 30]', '$[last-3]'), json_extract('[10, 20, 30]', '$[3]');
SELECT json_extract('{"a": 1}', '$.*');
SELECT json_extract('{"a": 1}', 'a');
SELECT json_extract('{"a": 1}', '$[');
SELECT id, json_extract(v, '$'), json_extract(v, '$.a'), json_extract(v, '$[0]'), json_extract(v, '$.b[last]') FROM j WHERE id <= 10 ORDER BY id;
SELECT id, json_extract_string(v, '$'), json_extract_int(v, '$'), json_extract_bigint(v, '$'), json_extract_largeint(v, '$'), json_extract_double(v, '$'), json_extract_bool(v, '$'), json_extract_isnull(v, '$') FROM j WHERE id <= 13 ORDER BY id;
SELECT json_extract_string(v, '$.b[1]'), json_extract_double(v, '$.b[1]'), json_extract_int(v, '$.b[1]'), json_extract_bool(v, '$.b[5]'), json_extract_isnull(v, '$.b[7]'), json_extract_isnull(v, '$.zz') FROM j WHERE id = 1;
SELECT jsonb_extract('{"a": [1, 2]}', '$.a'), jsonb_extract_string('{"a": "x"}', '$.a'), jsonb_extract_int('{"a": 2147483648}', '$.a'), jsonb_extract_bigint('{"a": 2147483648}', '$.a');
SELECT json_extract_string('{"id": 123, "name": "doris"}', '$.name'), json_extract_int('{"id": 123, "name": "doris"}', '$.name'), json_extract_string('not json', '$');

-- 5. GET_JSON_* over VARCHAR text (an invalid document or path is NULL)
SELECT get_json_string('{"k1":"v1", "k2":"v2"}', '$.k1'), get_json_string('{"k1":"v1", "my.key":["e1", "e2", "e3"]}', '$."my.key"[1]'), get_json_string('{"k1.key":{"k2":["v1", "v2"]}}', '$."k1.key".k2[0]');
SELECT get_json_int('{"a": 5, "b": 5.5}', '$.a'), get_json_int('{"a": 5, "b": 5.5}', '$.b'), get_json_bigint('{"a": 9007199254740993}', '$.a'), get_json_double('{"a": 5, "b": 5.5}', '$.b'), get_json_double('{"a": 5}', '$.a');
SELECT get_json_string('{"a": {"b": [1, 2]}}', '$.a'), get_json_string('{"a": null}', '$.a'), get_json_string('bad', '$.a'), get_json_string('{"a":1}', 'bad'), get_json_string(NULL, '$.a'), get_json_string('{"a": 1}', NULL);

-- 6. JSON_EXISTS_PATH, JSON_TYPE, JSON_LENGTH
SELECT id, json_exists_path(v, '$'), json_exists_path(v, '$.a'), json_exists_path(v, '$[0]'), json_type(v, '$'), json_type(v, '$.a'), json_length(v) FROM j WHERE id <= 13 ORDER BY id;
SELECT json_length('{"k1":"v31","k2":300}'), json_length('"abc"'), json_length('{"x": 1, "y": [1, 2]}', '$.y'), json_length('{"x": 1}', '$.z'), json_length(NULL), json_length('bad');

-- 7. JSON_CONTAINS
SELECT JSON_CONTAINS('{"a": 1, "b": 2, "c": {"d": 4}}', '1', '$.a'), JSON_CONTAINS('{"a": 1, "b": 2, "c": {"d": 4}}', '1', '$.b'), JSON_CONTAINS('{"a": 1, "b": 2, "c": {"d": 4}}', '{"d": 4}', '$.a'), JSON_CONTAINS('{"a": 1, "b": 2, "c": {"d": 4}}', '{"d": 4}', '$.c');
SELECT json_contains('[1, 2, {"x": 3}]', '1'), json_contains('[1, 2, {"x": 3}]', '{"x": 3}'), json_contains('[1, 2, [3, 4]]', '[4, 1]'), json_contains('[1, 2]', '3'), json_contains('1.0', '1');
SELECT JSON_CONTAINS('{"name": "John", "age": 30, "city": "New York", "hobbies": ["reading", "travelling"]}', '{"age": 31, "hobbies": ["reading"]}', '$');
SELECT JSON_CONTAINS('{"name": "John", "age": 30, "projects": [{"name": "Project A", "year": 2020}, {"name": "Project B", "year": 2021}]}', '{"projects": [{"name": "Project A"}]}', '$');
SELECT JSON_CONTAINS('', '1', '$.a'), JSON_CONTAINS(NULL, '1'), JSON_CONTAINS('{"a": 1}', '1', '$.zz'), JSON_CONTAINS('{"age": 25}', '{"age": "25"}');

-- 8. Building JSON: JSON_OBJECT, JSON_ARRAY, JSON_QUOTE, JSON_UNQUOTE
SELECT json_object(), json_array(), json_array(NULL), json_array(1, 'abc', NULL, TRUE, FALSE, 2.50);
SELECT json_object('id', 87, 'name', 'carrot'), json_object('username', NULL), json_object('time', '10:00:00', 'j', CAST('{"a" : "b"}' AS JSON));
SELECT json_object('k', 'has "quotes" and \\ backslash', 'n', 1e2);
SELECT json_object(NULL, 1);
SELECT json_object('a');
SELECT json_quote('null'), json_quote('"null"'), json_quote('[1, 2, 3]'), json_quote(NULL), json_quote(''), json_quote('a\tb');
SELECT json_unquote(''), json_unquote('doris'), json_unquote('"doris"'), json_unquote('open-quoted"'), json_unquote('"open-quoted'), json_unquote(NULL), json_unquote('"\\u0044\\u004F\\u0052\\u0049\\u0053"'), json_unquote('"tab\\there"');

-- 9. JSON_PARSE and JSON_VALID
SELECT json_parse('{"k1" : [1 , 2]}'), json_parse(NULL), json_parse_error_to_null('{x'), json_parse_error_to_null('[1]'), json_parse_error_to_value('{x', '{}'), jsonb_parse(' 7 ');
SELECT json_parse('{x');
SELECT json_valid('{"k1":"v31","k2":300}'), json_valid('invalid json'), json_valid(NULL), json_valid(''), json_valid('[[[]]]');
SELECT json_valid(REPEAT('[', 1024)), json_valid(CONCAT(REPEAT('[', 1024), REPEAT(']', 1024))), json_valid(CONCAT(REPEAT('[', 1025), REPEAT(']', 1025)));
SELECT json_parse(CONCAT(REPEAT('[', 1025), REPEAT(']', 1025)));

-- 10. Comparison, GROUP BY and ORDER BY of JSON values are errors (Doris 2.1); extracted values work
SELECT * FROM j WHERE v = '[]';
SELECT v FROM j GROUP BY v;
SELECT v FROM j ORDER BY v;
SELECT id FROM j WHERE v IN ('[]');
SELECT CAST('1' AS JSON) = CAST('1' AS JSON);
CREATE TABLE events (id INT, payload JSON) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2;
INSERT INTO events VALUES
  (1, '{"type": "click", "user": {"id": 7, "name": "ann"}, "tags": ["a", "b"], "amount": 10.5}'),
  (2, '{"type": "view", "user": {"id": 8, "name": "bob"}, "tags": [], "amount": 2}'),
  (3, '{"type": "click", "user": {"id": 7, "name": "ann"}, "tags": ["c"]}'),
  (4, '{"type": "buy", "user": {"id": 9}, "amount": 99.99}'),
  (5, NULL);
SELECT id FROM events WHERE json_extract_string(payload, '$.type') = 'click' ORDER BY id;
SELECT json_extract_string(payload, '$.type') AS t, COUNT(*), SUM(json_extract_double(payload, '$.amount')) FROM events GROUP BY t ORDER BY t;
SELECT json_extract_int(payload, '$.user.id') AS u, COUNT(*) FROM events WHERE json_exists_path(payload, '$.user.name') GROUP BY u ORDER BY u;
SELECT id, json_length(payload, '$.tags') FROM events WHERE json_length(payload, '$.tags') > 0 ORDER BY json_extract_string(payload, '$.tags[0]') DESC;

-- 11. INSERT ... SELECT into a JSON column: VARCHAR sources are validated, JSON sources kept
CREATE TABLE src (id INT, s VARCHAR(200)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO src VALUES (1, '{"z": 1,   "a": [true]}'), (2, '[  ]'), (3, NULL);
CREATE TABLE dst (id INT, v JSONB) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO dst SELECT id, s FROM src;
INSERT INTO dst SELECT id + 10, json_extract(payload, '$.user') FROM events WHERE id <= 2;
INSERT INTO dst SELECT 100, json_object('n', COUNT(*)) FROM events;
SELECT * FROM dst ORDER BY id;
INSERT INTO src VALUES (4, 'not json');
INSERT INTO dst SELECT id, s FROM src;
SELECT COUNT(*) FROM dst;
CREATE TABLE ctas DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 AS SELECT id, v FROM dst WHERE id < 10;
DESC ctas;
SELECT * FROM ctas ORDER BY id;

-- 12. JSON columns cannot be keys
CREATE TABLE badkey (v JSON, id INT) DUPLICATE KEY(v) DISTRIBUTED BY HASH(id) BUCKETS 1;

-- 13. UNIQUE merge-on-write table with a JSON value column: update, upsert, delete
CREATE TABLE u (k INT, doc JSON) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true");
INSERT INTO u VALUES (1, '{"v": 1}'), (2, '{"v": 2}'), (3, '[3]');
UPDATE u SET doc = json_object('v', json_extract_int(doc, '$.v') * 10, 'old', doc) WHERE k <= 2;
INSERT INTO u VALUES (3, '{"v" : "replaced"}');
UPDATE u SET doc = 'oops' WHERE k = 1;
UPDATE u SET doc = '  {"v":  "spaced"}' WHERE k = 2;
DELETE FROM u WHERE json_extract_string(doc, '$.v') = 'replaced';
SELECT * FROM u ORDER BY k;

-- 14. Row Binlog: binlog() and @incr carry JSON values (after and before images)
CREATE TABLE rb (k INT, doc JSON) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO rb VALUES (1, '{"status": "new",  "items": [1, 2]}'), (2, '{"status": "new"}');
UPDATE rb SET doc = '{"status": "paid", "items": [1, 2]}' WHERE k = 1;
DELETE FROM rb WHERE k = 2;
SELECT __DORIS_BINLOG_OP__ AS op, k, doc, __BEFORE__doc__, json_extract_string(doc, '$.status') AS st
FROM binlog("table" = "rb") ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT k, doc, __DORIS_BINLOG_OP__ FROM rb@incr("incrementType" = "DETAIL")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__;
