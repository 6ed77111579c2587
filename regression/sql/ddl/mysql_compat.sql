-- MySQL-style DDL as tools emit it, mapped to Doris tables: PRIMARY KEY -> merge-on-write
-- UNIQUE KEY (key columns first, NOT NULL), no DISTRIBUTED BY -> HASH(key) BUCKETS AUTO, MySQL
-- table options ignored with warnings, secondary indexes accepted but not built,
-- AUTO_INCREMENT values (durable counter, LAST_INSERT_ID()).
DROP DATABASE IF EXISTS ddl_my FORCE;
CREATE DATABASE ddl_my;
USE ddl_my;
-- sysbench's prepare, verbatim (the executable comment is parsed).
CREATE TABLE sbtest1(
  id INTEGER NOT NULL AUTO_INCREMENT,
  k INTEGER DEFAULT '0' NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  PRIMARY KEY (id)
) /*! ENGINE = innodb */ ;
SHOW WARNINGS;
SHOW CREATE TABLE sbtest1;
INSERT INTO sbtest1(k, c, pad) VALUES(5, 'c1', 'p1'),(6, 'c2', 'p2'),(7, 'c3', 'p3');
SELECT LAST_INSERT_ID();
CREATE INDEX k_1 ON sbtest1(k);
SHOW WARNINGS;
SELECT id, k, c, pad FROM sbtest1 ORDER BY id;
-- Explicit values are kept and raise the counter; LAST_INSERT_ID() only changes when a value
-- is generated. 0 and NULL ask for a new value (MySQL without NO_AUTO_VALUE_ON_ZERO).
INSERT INTO sbtest1(id, k) VALUES (10, 10);
SELECT LAST_INSERT_ID();
INSERT INTO sbtest1(k) VALUES (11);
SELECT LAST_INSERT_ID();
INSERT INTO sbtest1(id, k) VALUES (0, 12), (NULL, 13), (DEFAULT, 14);
SELECT LAST_INSERT_ID();
INSERT INTO sbtest1 VALUES (0, 15, 'all columns', 'x');
SELECT id, k FROM sbtest1 ORDER BY id;
SET sql_mode = 'NO_AUTO_VALUE_ON_ZERO';
INSERT INTO sbtest1(id, k) VALUES (0, 16);
SET sql_mode = DEFAULT;
SELECT id, k FROM sbtest1 WHERE k = 16;
-- A failing statement may use up values, never gives them twice.
INSERT INTO sbtest1(k, c) VALUES (17, 'ok'), (18, NULL);
INSERT INTO sbtest1(k) VALUES (19);
SELECT id, k FROM sbtest1 WHERE k >= 17 ORDER BY id;
-- INSERT ... SELECT takes generated values as well.
CREATE TABLE copy1 (id BIGINT NOT NULL AUTO_INCREMENT, k INT, PRIMARY KEY (id));
INSERT INTO copy1 (k) SELECT k FROM sbtest1 WHERE k < 8;
SELECT COUNT(*), MIN(id), MAX(id), SUM(k) FROM copy1;
SELECT LAST_INSERT_ID();
-- Doris's AUTO_INCREMENT(start) and MySQL's AUTO_INCREMENT = n table option set the start.
CREATE TABLE start1 (id BIGINT NOT NULL AUTO_INCREMENT(100), v INT) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
INSERT INTO start1 (v) VALUES (1), (2);
SELECT id, v FROM start1 ORDER BY id;
CREATE TABLE start2 (id INT NOT NULL AUTO_INCREMENT, v INT, PRIMARY KEY (id)) ENGINE=InnoDB AUTO_INCREMENT=500 DEFAULT CHARSET=utf8mb4;
SHOW WARNINGS;
INSERT INTO start2 (v) VALUES (1);
SELECT id, v FROM start2;
SELECT LAST_INSERT_ID();
-- Row Binlog tables refuse AUTO_INCREMENT columns (Doris).
CREATE TABLE rb (id BIGINT NOT NULL AUTO_INCREMENT, v INT, PRIMARY KEY (id)) PROPERTIES ("binlog.enable" = "true", "binlog.format" = "ROW");
-- PRIMARY KEY columns move first, in key order; the others keep their order; NOT NULL is
-- implied unless NULL is written.
CREATE TABLE reorder (a INT, b VARCHAR(10), id BIGINT, PRIMARY KEY (id, a));
SHOW CREATE TABLE reorder;
INSERT INTO reorder (a, b, id) VALUES (1, 'x', 10), (1, 'y', 10), (2, 'z', 10);
SELECT id, a, b FROM reorder ORDER BY id, a;
CREATE TABLE nullpk (id INT NULL, v INT, PRIMARY KEY (id));
SHOW CREATE TABLE nullpk;
-- Column-level PRIMARY KEY, and a DISTRIBUTED BY that is kept.
CREATE TABLE colpk (name VARCHAR(10), id INT PRIMARY KEY) DISTRIBUTED BY HASH(id) BUCKETS 3;
SHOW CREATE TABLE colpk;
CREATE TABLE twopk (a INT PRIMARY KEY, b INT PRIMARY KEY);
CREATE TABLE twopk (a INT PRIMARY KEY, b INT, PRIMARY KEY (b));
CREATE TABLE badpk (a INT, PRIMARY KEY (nope));
-- No keys and no PRIMARY KEY: Doris's DUPLICATE KEY over the leading columns.
CREATE TABLE nokey (a INT, b VARCHAR(10), c DOUBLE) ENGINE=InnoDB;
SHOW WARNINGS;
SHOW CREATE TABLE nokey;
-- Table options: ignored with warning 1478, except utf8 character sets and _bin collations,
-- COMMENT (kept) and ENGINE=OLAP; ENGINE=InnoDB is 1266 (MySQL's engine substitution).
CREATE TABLE opts (id INT, v INT, PRIMARY KEY (id)) ENGINE=InnoDB DEFAULT CHARSET=latin1 COLLATE=latin1_swedish_ci ROW_FORMAT=DYNAMIC STATS_PERSISTENT=0, KEY_BLOCK_SIZE=8 AUTO_INCREMENT=9 COMMENT='mysql options';
SHOW WARNINGS;
SHOW CREATE TABLE opts;
CREATE TABLE opts2 (id INT, PRIMARY KEY (id)) ENGINE=InnoDB COMMENT='dumped' DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
SHOW WARNINGS;
CREATE TABLE opts3 (id INT) ENGINE=OLAP DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
SHOW WARNINGS;
CREATE TABLE vers (id INT, PRIMARY KEY (id)) /*!50100 ENGINE=InnoDB */ /*!90000 ENGINE=nothing */;
SHOW WARNINGS;
-- Secondary indexes inside CREATE TABLE: accepted, not built (warning 1478); UNIQUE ones say
-- that uniqueness is not enforced.
CREATE TABLE idx (
  id BIGINT NOT NULL AUTO_INCREMENT,
  k INT NOT NULL DEFAULT 0,
  c VARCHAR(64) COLLATE utf8mb4_bin,
  d VARCHAR(64) CHARACTER SET latin1 COLLATE latin1_bin,
  e INT UNIQUE,
  PRIMARY KEY (id) USING BTREE,
  KEY k_idx (k),
  INDEX (c(10) DESC, k),
  UNIQUE KEY uk USING HASH (c) COMMENT 'u',
  UNIQUE (d)
) ENGINE=InnoDB;
SHOW WARNINGS;
SHOW CREATE TABLE idx;
INSERT INTO idx (k, c, d, e) VALUES (1, 'a', 'a', 1), (1, 'a', 'a', 1);
SELECT id, k, c, d, e FROM idx ORDER BY id;
-- CREATE [UNIQUE] INDEX / DROP INDEX: no-ops with a warning; the table and columns must exist.
CREATE UNIQUE INDEX u_k ON idx (k, c);
SHOW WARNINGS;
CREATE INDEX IF NOT EXISTS i_c ON ddl_my.idx (c) USING BTREE;
CREATE INDEX i_x ON idx (nope);
CREATE INDEX i_x ON nope (k);
DROP INDEX k_idx ON idx;
SHOW WARNINGS;
DROP INDEX IF EXISTS k_idx ON nope;
-- ALTER TABLE ... ADD INDEX / ADD UNIQUE / DROP INDEX: the same, alone or with other clauses.
ALTER TABLE idx ADD INDEX i_k (k), ADD UNIQUE KEY (c, d), DROP KEY k_idx;
SHOW WARNINGS;
ALTER TABLE idx ADD KEY i_bad (nope);
ALTER TABLE idx ADD COLUMN f INT, ADD INDEX i_f (f);
SHOW WARNINGS;
DESC idx;
ALTER TABLE idx ADD COLUMN g INT, ADD INDEX i_g (nope);
DESC idx;
-- What mysqldump and ORMs write around columns and keys: UNSIGNED / ZEROFILL integers widen to
-- the next signed type (an AUTO_INCREMENT BIGINT stays BIGINT), SIGNED is the default; ON
-- UPDATE CURRENT_TIMESTAMP, CHECK and FOREIGN KEY are accepted and not enforced; CONSTRAINT
-- names on keys are dropped. Each gives a warning.
CREATE TABLE parent (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT,
  code TINYINT(3) UNSIGNED ZEROFILL,
  big BIGINT UNSIGNED,
  sm SMALLINT UNSIGNED DEFAULT '0',
  s INT SIGNED,
  price DECIMAL(10,2) UNSIGNED,
  upd DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  CONSTRAINT pk_parent PRIMARY KEY (id),
  CONSTRAINT uq_code UNIQUE KEY (code),
  CONSTRAINT chk_sm CHECK (sm >= 0)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
SHOW WARNINGS;
DESC parent;
INSERT INTO parent (big, sm, code) VALUES (18446744073709551615, 65535, 255);
INSERT INTO parent (big, sm, code) VALUES (0, 0, 7);
SELECT id, code, big, sm FROM parent ORDER BY id;
CREATE TABLE child (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  parent_id INT UNSIGNED NOT NULL,
  no INT,
  action INT,
  KEY idx_p (parent_id),
  CONSTRAINT fk_child FOREIGN KEY fk_i (parent_id) REFERENCES parent (id) ON DELETE CASCADE ON UPDATE NO ACTION,
  FOREIGN KEY (no, action) REFERENCES ddl_my.parent (id, code) ON DELETE SET NULL ON UPDATE RESTRICT,
  CHECK (no > 0) NOT ENFORCED
);
SHOW WARNINGS;
DESC child;
-- not enforced: a child row without its parent is stored
INSERT INTO child (parent_id, no, action) VALUES (4294967295, -1, 2);
SELECT id, parent_id, no, action FROM child;
-- the new words stay usable as names
SELECT no, action FROM child WHERE no < 0;
CREATE TABLE bad_check (a INT, CHECK (a > 0) ENFORCE);
CREATE TABLE bad_fk (a INT, FOREIGN KEY (a) REFERENCES parent);
DROP DATABASE ddl_my FORCE;
