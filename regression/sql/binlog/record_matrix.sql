-- Row Binlog: which write produces which raw record (DORIS_SEMANTICS.md §2.3) on Duplicate Key
-- and Unique Key merge-on-write tables, with and without before images. TSO and LSN values change
-- every run: they are compared relatively, never printed.

CREATE TABLE dup (k INT, v INT, s VARCHAR(10)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
CREATE TABLE mow_h (k INT, v INT, s VARCHAR(10) DEFAULT 'dflt') UNIQUE KEY(k)
DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
CREATE TABLE mow_n (k INT, v INT, s VARCHAR(10) DEFAULT 'dflt') UNIQUE KEY(k)
DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW");
CREATE TABLE src (k INT, v INT, s VARCHAR(10)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
INSERT INTO src VALUES (10, 100, 'x'), (11, 110, 'y'), (1, 1000, 'z');

-- Duplicate Key: INSERT VALUES and INSERT ... SELECT, one op 0 record per row, never merged
INSERT INTO dup VALUES (1, 1, 'a'), (1, 1, 'a'), (2, 2, 'b');
INSERT INTO dup SELECT k, v, s FROM src;
INSERT INTO dup VALUES (1, 5, 'c');
SELECT __DORIS_BINLOG_OP__, k, v, s FROM binlog("table" = "dup")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
-- three statements, three TSOs; LSNs unique
SELECT COUNT(*), COUNT(DISTINCT __DORIS_BINLOG_TSO__), COUNT(DISTINCT __DORIS_BINLOG_LSN__)
FROM binlog("table" = "dup");
-- R2: predicate deletes are refused, nothing recorded
DELETE FROM dup WHERE k = 1;
SELECT COUNT(*) FROM binlog("table" = "dup");
-- no before-image columns on a Duplicate Key table
SELECT __BEFORE__v__ FROM binlog("table" = "dup");

-- MoW with before images: the §2.3 matrix
-- absent key: insert
INSERT INTO mow_h VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c');
-- INSERT ... SELECT of a present key (1); then an absent one (4)
INSERT INTO mow_h SELECT k - 9, v, s FROM src WHERE k IN (10, 13);
INSERT INTO mow_h SELECT 4, 40, 'd';
-- UPDATE: op 1 with the merged row and the old values
UPDATE mow_h SET v = v + 1 WHERE k = 2;
-- DELETE of a present key: op 2 with the old values
DELETE FROM mow_h WHERE k = 3;
-- DELETE of an absent key: nothing
DELETE FROM mow_h WHERE k = 99;
DELETE FROM mow_h WHERE k = 3;
-- re-insert after delete: op 0
INSERT INTO mow_h VALUES (3, 33, 'cc');
-- delete sign on a present key: op 2; on an absent key: nothing
INSERT INTO mow_h (k, v, s, __DORIS_DELETE_SIGN__) VALUES (4, 0, 'z', 1);
INSERT INTO mow_h (k, v, s, __DORIS_DELETE_SIGN__) VALUES (98, 0, 'z', 1);
SELECT __DORIS_BINLOG_OP__ AS op, k, v, s, __BEFORE__v__, __BEFORE__s__
FROM binlog("table" = "mow_h") ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT k, v, s FROM mow_h ORDER BY k;

-- partial update: the merged row is recorded, with the old values as before image
SET enable_unique_key_partial_update = true;
INSERT INTO mow_h (k, v) VALUES (1, 111);
-- a partial update of an absent key inserts it with defaults
INSERT INTO mow_h (k, v) VALUES (5, 50);
SET enable_unique_key_partial_update = false;
SELECT __DORIS_BINLOG_OP__ AS op, k, v, s, __BEFORE__v__, __BEFORE__s__
FROM binlog("table" = "mow_h") WHERE k IN (1, 5)
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;

-- explicit transaction: one TSO for all its statements, LSNs ascend within it
CREATE TABLE mow_t (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO mow_t VALUES (1, 1), (2, 2);
BEGIN;
INSERT INTO mow_t VALUES (3, 3);
INSERT INTO mow_t VALUES (4, 4), (5, 5);
INSERT INTO mow_t VALUES (1, 10);
COMMIT;
SELECT COUNT(*), COUNT(DISTINCT __DORIS_BINLOG_TSO__), COUNT(DISTINCT __DORIS_BINLOG_LSN__)
FROM binlog("table" = "mow_t");
-- the transaction's four records share one TSO, later than the first statement's
SELECT __DORIS_BINLOG_OP__ AS op, k, v, __BEFORE__v__,
       __DORIS_BINLOG_TSO__ = (SELECT MAX(__DORIS_BINLOG_TSO__) FROM binlog("table" = "mow_t")) AS last_txn
FROM binlog("table" = "mow_t") ORDER BY __DORIS_BINLOG_TSO__, k;
-- ROLLBACK: no record
BEGIN;
INSERT INTO mow_t VALUES (6, 6);
INSERT INTO mow_t VALUES (1, 99);
ROLLBACK;
SELECT COUNT(*) FROM binlog("table" = "mow_t");
SELECT k, v FROM mow_t ORDER BY k;
-- LSNs follow TSOs: ordering by either gives the same sequence
SELECT COUNT(*) FROM binlog("table" = "mow_t") a, binlog("table" = "mow_t") b
WHERE a.__DORIS_BINLOG_TSO__ < b.__DORIS_BINLOG_TSO__ AND a.__DORIS_BINLOG_LSN__ > b.__DORIS_BINLOG_LSN__;

-- MoW without before images: no __BEFORE__ columns; deletes keep only the key
INSERT INTO mow_n VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c');
INSERT INTO mow_n VALUES (1, 11, 'a1');
UPDATE mow_n SET v = 21 WHERE k = 2;
DELETE FROM mow_n WHERE k = 3;
DELETE FROM mow_n WHERE k = 97;
INSERT INTO mow_n (k, v, s, __DORIS_DELETE_SIGN__) VALUES (2, 0, 'z', 1);
INSERT INTO mow_n VALUES (3, 31, 'c1');
SELECT __DORIS_BINLOG_OP__ AS op, k, v, s FROM binlog("table" = "mow_n")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT __BEFORE__v__ FROM binlog("table" = "mow_n");

-- sequence column: a loser is discarded and records nothing
CREATE TABLE mow_seq (k INT, v INT, seq INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true",
            "function_column.sequence_col" = "seq");
INSERT INTO mow_seq VALUES (1, 10, 5);
INSERT INTO mow_seq VALUES (1, 11, 3);
INSERT INTO mow_seq VALUES (1, 12, 5);
INSERT INTO mow_seq VALUES (1, 13, 7);
SELECT __DORIS_BINLOG_OP__ AS op, k, v, seq, __BEFORE__v__, __BEFORE__seq__
FROM binlog("table" = "mow_seq") ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT k, v, seq FROM mow_seq;
-- the hidden sequence column is not a binlog() column (E34)
SELECT __DORIS_SEQUENCE_COL__ FROM binlog("table" = "mow_seq");

-- a transaction with INSERT, UPDATE and DELETE: one TSO, one record per key (several writes of a
-- key fold into one; reads inside a transaction see committed data only, as in Doris)
CREATE TABLE mow_x (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true");
INSERT INTO mow_x VALUES (1, 1), (2, 2), (3, 3), (5, 5);
BEGIN;
INSERT INTO mow_x VALUES (4, 4);
UPDATE mow_x SET v = 10 WHERE k = 1;
DELETE FROM mow_x WHERE k = 2;
INSERT INTO mow_x VALUES (3, 30);
INSERT INTO mow_x VALUES (3, 31);
INSERT INTO mow_x VALUES (5, 50);
DELETE FROM mow_x WHERE k = 5;
COMMIT;
SELECT __DORIS_BINLOG_OP__ AS op, k, v, __BEFORE__v__ FROM binlog("table" = "mow_x")
WHERE __DORIS_BINLOG_TSO__ = (SELECT MAX(__DORIS_BINLOG_TSO__) FROM binlog("table" = "mow_x"))
ORDER BY k;
SELECT COUNT(DISTINCT __DORIS_BINLOG_TSO__) FROM binlog("table" = "mow_x");
SELECT k, v FROM mow_x ORDER BY k;

-- R13: with enable_mow_light_delete a DELETE still records delete records
CREATE TABLE mow_light (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW", "binlog.need_historical_value" = "true",
            "enable_mow_light_delete" = "true");
INSERT INTO mow_light VALUES (1, 1), (2, 2);
DELETE FROM mow_light WHERE k = 1;
SELECT __DORIS_BINLOG_OP__ AS op, k, v, __BEFORE__v__ FROM binlog("table" = "mow_light")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SELECT k, v FROM mow_light;

-- the base table's hidden commit TSO is the TSO of the row's last record, also when it is the
-- only column a query reads
CREATE TABLE ct (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2
PROPERTIES ("enable_unique_key_merge_on_write" = "true", "binlog.enable" = "true",
            "binlog.format" = "ROW");
INSERT INTO ct VALUES (1, 10);
SET show_hidden_columns = true;
SELECT __DORIS_COMMIT_TSO_COL__ = (SELECT MAX(__DORIS_BINLOG_TSO__) FROM binlog("table" = "ct")) AS same FROM ct;
SELECT COUNT(*) FROM ct WHERE __DORIS_COMMIT_TSO_COL__ IS NULL;
SELECT k, __DORIS_COMMIT_TSO_COL__ = (SELECT MAX(__DORIS_BINLOG_TSO__) FROM binlog("table" = "ct")) AS same FROM ct;
SET show_hidden_columns = false;

-- TRUNCATE: new partitions, the old records are no longer shown; new writes are inserts
TRUNCATE TABLE mow_t;
SELECT COUNT(*) FROM binlog("table" = "mow_t");
INSERT INTO mow_t VALUES (1, 7);
SELECT __DORIS_BINLOG_OP__ AS op, k, v, __BEFORE__v__ FROM binlog("table" = "mow_t");
TRUNCATE TABLE dup;
SELECT COUNT(*) FROM binlog("table" = "dup");
