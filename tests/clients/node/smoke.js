// Node mysql2 smoke test: node smoke.js PORT
// connection.query (text protocol; `?` placeholders escaped client-side) and connection.execute
// (server-side prepared statements, binary rows), charset utf8mb4.
// Connects to 127.0.0.1:PORT as root with no password and checks values. Exit 0 if all pass.
'use strict';

const mysql = require('mysql2/promise');

let failures = 0;

function check(what, got, want) {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g === w) {
    console.log(`  ok   ${what} = ${g}`);
  } else {
    console.log(`  FAIL ${what}: got ${g}, want ${w}`);
    failures++;
  }
}

async function main() {
  const port = Number(process.argv[2]);
  const conn = await mysql.createConnection({
    host: '127.0.0.1', port, user: 'root', password: '', charset: 'utf8mb4',
    connectTimeout: 10000, supportBigNumbers: true,
  });
  const hs = conn.connection._handshakePacket;
  console.log(`  server version ${hs ? hs.serverVersion : '?'}`);

  let [rows, fields] = await conn.query('SELECT 1');
  check('SELECT 1', rows, [{ 1: 1 }]);
  check('SELECT 1 column name', fields.map((f) => f.name), ['1']);

  await conn.query('SET @@session.sql_select_limit = 7');
  [rows] = await conn.query({ sql: 'SELECT @@sql_select_limit', rowsAsArray: true });
  check('@@sql_select_limit after SET', rows, [[7]]);
  await conn.query('SET @x = 42');
  [rows] = await conn.query({ sql: 'SELECT @x', rowsAsArray: true });
  check('@x after SET @x = 42', rows, [[42]]);

  const text = 'it\'s a "quote" \\ back \u2603 \u{1F642}';
  [rows] = await conn.query({ sql: 'SELECT ?, ?, ?', rowsAsArray: true }, [text, 42, null]);
  check('SELECT ?, ?, ? round trip', rows, [[text, 42, null]]);

  try {
    await conn.query('SELEC 1');
    check('SELEC 1 rejects', 'no error', 'error');
  } catch (e) {
    check('SELEC 1 errno', e.errno, 1064);
    check('SELEC 1 sqlState', e.sqlState, '42000');
    check('SELEC 1 code', e.code, 'ER_PARSE_ERROR');
  }
  [rows] = await conn.query({ sql: 'SELECT 1', rowsAsArray: true });
  check('SELECT 1 after the error', rows, [[1]]);
  [rows] = await conn.query({ sql: 'SELECT @x', rowsAsArray: true });
  check('@x kept after the error', rows, [[42]]);

  await conn.ping();
  [rows] = await conn.query({ sql: 'SELECT 2', rowsAsArray: true });
  check('SELECT 2 after COM_PING', rows, [[2]]);

  // execute(): COM_STMT_PREPARE / EXECUTE. mysql2 binds JS numbers as DOUBLE and sends the types
  // on every execute; 41 + 1 must still be 42, and a second execute reuses the statement.
  [rows] = await conn.execute({ sql: 'SELECT ? + 1 AS n, ? AS s, ? AS z', rowsAsArray: true }, [41, 'str', null]);
  check('execute SELECT ? + 1 with 41', rows, [[42, 'str', null]]);
  [rows] = await conn.execute({ sql: 'SELECT ? + 1 AS n, ? AS s, ? AS z', rowsAsArray: true }, [1.5, 'two', null]);
  check('execute again with 1.5', rows, [[2.5, 'two', null]]);

  // A prepared point lookup executed many times: after 8 fast runs the server runs it on its
  // loop thread (server/README.md §Inline execution); results, transactions and schema changes
  // from another connection must look exactly as on a worker.
  const other = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', password: '' });
  await conn.query('CREATE DATABASE IF NOT EXISTS node_smoke');
  await conn.query('DROP TABLE IF EXISTS node_smoke.t_inline');
  const ddl = 'CREATE TABLE node_smoke.t_inline (k INT, v VARCHAR(10)) UNIQUE KEY(k) ' +
    'DISTRIBUTED BY HASH(k) BUCKETS 2';
  await conn.query(ddl);
  await conn.query("INSERT INTO node_smoke.t_inline VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  const lookup = { sql: 'SELECT v FROM node_smoke.t_inline WHERE k = ?', rowsAsArray: true };
  const got = [];
  const want = [];
  for (let i = 0; i < 40; i++) {
    await conn.execute('BEGIN');
    [rows] = await conn.execute(lookup, [1 + (i % 4)]);
    await conn.execute('COMMIT');
    got.push(rows.length ? rows[0][0] : null);
    want.push(['a', 'b', 'c', null][i % 4]);
  }
  check('40 prepared lookups inside BEGIN / COMMIT', got, want);
  await other.query("INSERT INTO node_smoke.t_inline VALUES (4, 'd')");
  [rows] = await conn.execute(lookup, [4]);
  check('lookup sees a row another connection committed', rows, [['d']]);
  await conn.execute('BEGIN');
  await conn.execute('INSERT INTO node_smoke.t_inline VALUES (?, ?)', [5, 'e']);
  await conn.execute('COMMIT');
  [rows] = await conn.execute(lookup, [5]);
  check('lookup after a prepared INSERT in a transaction', rows, [['e']]);
  await other.query('DROP TABLE node_smoke.t_inline');
  try {
    await conn.execute(lookup, [1]);
    check('lookup of a dropped table rejects', 'no error', 'error');
  } catch (e) {
    check('lookup of a dropped table errno', e.errno, 1146);
  }
  await other.query(ddl);
  await other.query("INSERT INTO node_smoke.t_inline VALUES (1, 'z')");
  [rows] = await conn.execute(lookup, [1]);
  check('lookup after the table was created again', rows, [['z']]);
  await other.query('DROP DATABASE node_smoke');
  await other.end();
  await conn.end();
}

main().then(
  () => process.exit(failures === 0 ? 0 : 1),
  (e) => {
    console.log(`  FAIL unexpected error: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
  },
);
