-- Partial column update on UNIQUE merge-on-write tables with a sequence column (Doris,
-- "Concurrency Control for Updates in the Primary Key Model", note 2): a partial update that
-- does not supply the sequence column keeps the row's current sequence value and is applied; one
-- that supplies a lower value is discarded; equal or higher applies; a key that does not exist
-- yet is inserted with the defaults. binlog(), @incr and a stream record exactly what the table
-- shows: nothing for a discarded write, one update (op 1) with before and after images for an
-- applied one. storage/README.md "Sequence column and partial update".

-- a mapped sequence column (function_column.sequence_col = s), Row Binlog with before images
CREATE TABLE sm (k INT, v INT, w VARCHAR(10) DEFAULT 'dflt', s INT) UNIQUE KEY(k)
DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true",
            "function_column.sequence_col" = "s");
CREATE STREAM sm_s ON TABLE sm;
INSERT INTO sm VALUES (1, 10, 'a', 5), (2, 20, 'b', 5), (3, 30, 'c', 5);
SET enable_unique_key_partial_update = true;
-- no sequence column given: applied, s (and the hidden __DORIS_SEQUENCE_COL__) keep 5
INSERT INTO sm (k, v) VALUES (1, 11);
SELECT * FROM sm ORDER BY k;
-- lower explicit sequence: discarded
INSERT INTO sm (k, w, s) VALUES (2, 'low', 4);
-- equal and higher: applied
INSERT INTO sm (k, w, s) VALUES (2, 'eq', 5), (3, 'high', 9);
-- a new key: inserted with the defaults (w 'dflt', s NULL)
INSERT INTO sm (k, v) VALUES (4, 40);
SELECT * FROM sm ORDER BY k;
SET show_hidden_columns = true;
SELECT k, s, __DORIS_SEQUENCE_COL__ FROM sm ORDER BY k;
SET show_hidden_columns = false;
-- the raw records: the discarded write is absent; updates carry the merged row and the old one
SELECT __DORIS_BINLOG_OP__ AS op, k, v, w, s, __BEFORE__v__, __BEFORE__w__, __BEFORE__s__
FROM binlog("table" = "sm") ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT k, v, w, s, __DORIS_BINLOG_OP__ FROM sm@incr("incrementType" = "DETAIL")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__, __DORIS_BINLOG_OP__;
SELECT k, v, w, s, __DORIS_BINLOG_OP__ FROM sm@incr("incrementType" = "MIN_DELTA") ORDER BY k;
-- the stream's net changes against its start (nothing consumed yet) equal the table
SELECT k, v, w, s, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM sm_s ORDER BY k;
-- a lower sequence in a transaction next to an applied partial update of another key
BEGIN;
INSERT INTO sm (k, v, s) VALUES (3, 333, 1);
INSERT INTO sm (k, w) VALUES (4, 'four');
COMMIT;
SELECT * FROM sm ORDER BY k;
SELECT __DORIS_BINLOG_OP__ AS op, k, v, w, s, __BEFORE__w__ FROM binlog("table" = "sm")
WHERE k IN (3, 4) ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
-- two partial updates of one key in one transaction, neither giving s: both apply, s kept
BEGIN;
INSERT INTO sm (k, v) VALUES (1, 111);
INSERT INTO sm (k, w) VALUES (1, 'one');
COMMIT;
SELECT * FROM sm WHERE k = 1;
SELECT __DORIS_BINLOG_OP__ AS op, v, w, s, __BEFORE__v__, __BEFORE__w__ FROM binlog("table" = "sm")
WHERE k = 1 ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
-- in one transaction some rows give s and some do not: applied in order against the stored
-- row, as separate statements (the lower s loses, the v before it stays; a higher s applies
-- over the w before it)
BEGIN;
INSERT INTO sm (k, v) VALUES (1, 1000);
INSERT INTO sm (k, w, s) VALUES (1, 'low', 2);
COMMIT;
SELECT * FROM sm WHERE k = 1;
BEGIN;
INSERT INTO sm (k, w) VALUES (1, 'w2');
INSERT INTO sm (k, v, s) VALUES (1, 2000, 6);
COMMIT;
SELECT * FROM sm WHERE k = 1;
SELECT __DORIS_BINLOG_OP__ AS op, v, w, s, __BEFORE__v__, __BEFORE__w__, __BEFORE__s__
FROM binlog("table" = "sm") WHERE k = 1 ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
-- a deleted key: the partial update inserts it again with the defaults (op 0)
DELETE FROM sm WHERE k = 2;
INSERT INTO sm (k, v) VALUES (2, 22);
SELECT * FROM sm WHERE k = 2;
SELECT __DORIS_BINLOG_OP__ AS op, v, w, s FROM binlog("table" = "sm")
WHERE k = 2 ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
-- UPDATE keeps the sequence value (it writes the whole row) and may raise it; a lower one loses
UPDATE sm SET v = 300 WHERE k = 3;
UPDATE sm SET v = 301, s = 2 WHERE k = 3;
UPDATE sm SET v = 400, s = 7 WHERE k = 4;
SELECT * FROM sm WHERE k IN (3, 4) ORDER BY k;
SET enable_unique_key_partial_update = false;
-- full rows still compare: a lower sequence loses
INSERT INTO sm VALUES (3, 0, 'full', 8);
SELECT * FROM sm WHERE k = 3;
SELECT COUNT(*) FROM binlog("table" = "sm") WHERE k = 3 AND v = 0;

-- a hidden sequence column (function_column.sequence_type), set through __DORIS_SEQUENCE_COL__
CREATE TABLE st (k INT, v INT, w VARCHAR(10)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true",
            "function_column.sequence_type" = "bigint");
INSERT INTO st (k, v, w, __DORIS_SEQUENCE_COL__) VALUES (1, 1, 'a', 100), (2, 2, 'b', 100);
SET enable_unique_key_partial_update = true;
INSERT INTO st (k, w) VALUES (1, 'no-seq');
INSERT INTO st (k, w, __DORIS_SEQUENCE_COL__) VALUES (2, 'lower', 99);
INSERT INTO st (k, v, __DORIS_SEQUENCE_COL__) VALUES (2, 22, 100);
SET enable_unique_key_partial_update = false;
SET show_hidden_columns = true;
SELECT k, v, w, __DORIS_SEQUENCE_COL__ FROM st ORDER BY k;
SET show_hidden_columns = false;
SELECT __DORIS_BINLOG_OP__ AS op, k, v, w, __BEFORE__v__, __BEFORE__w__ FROM binlog("table" = "st")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
