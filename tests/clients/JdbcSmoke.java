// MariaDB Connector/J smoke test: java -cp WORKDIR:/usr/share/java/mariadb-java-client.jar JdbcSmoke PORT
// Default settings (client-side prepare: PreparedStatement parameters are interpolated into
// COM_QUERY text). Connects to 127.0.0.1:PORT as root with no password and checks values.
// Exit 0 if all pass.

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

public class JdbcSmoke {
    private static int failures = 0;

    private static void check(String what, Object got, Object want) {
        if (Objects.equals(got, want)) {
            System.out.println("  ok   " + what + " = " + got);
        } else {
            System.out.println("  FAIL " + what + ": got " + got + ", want " + want);
            failures++;
        }
    }

    // The single value of a one-row, one-column result (as a string), or a description of what came.
    private static String single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) return "<no rows>";
            String v = rs.getString(1);
            if (rs.getMetaData().getColumnCount() != 1) return "<" + rs.getMetaData().getColumnCount() + " columns>";
            if (rs.next()) return "<more than one row>";
            return v;
        }
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:mariadb://127.0.0.1:" + args[0]
                + "/?user=root&password=&connectTimeout=10000&socketTimeout=30000";
        try (Connection c = DriverManager.getConnection(url)) {
            System.out.println("  server version " + c.getMetaData().getDatabaseProductVersion());
            try (Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT 1")) {
                    check("SELECT 1 has a row", rs.next(), true);
                    check("SELECT 1 getInt", rs.getInt(1), 1);
                    check("SELECT 1 column label", rs.getMetaData().getColumnLabel(1), "1");
                    check("SELECT 1 has one row", rs.next(), false);
                }
                s.execute("SET @@session.sql_select_limit = 7");
                check("@@sql_select_limit after SET", single(s, "SELECT @@sql_select_limit"), "7");
                s.execute("SET @x = 42");
                check("@x after SET @x = 42", single(s, "SELECT @x"), "42");

                try {
                    s.executeQuery("SELEC 1");
                    check("SELEC 1 throws", "no exception", "SQLException");
                } catch (SQLException e) {
                    check("SELEC 1 getErrorCode", e.getErrorCode(), 1064);
                    check("SELEC 1 getSQLState", e.getSQLState(), "42000");
                }
                check("SELECT 1 after the error", single(s, "SELECT 1"), "1");
                check("@x kept after the error", single(s, "SELECT @x"), "42");
            }

            String text = "it's a \"quote\" \\ back \u2603 \uD83D\uDE42";
            try (PreparedStatement ps = c.prepareStatement("SELECT ?, ?, ?")) {
                ps.setInt(1, 42);
                ps.setString(2, text);
                ps.setNull(3, java.sql.Types.VARCHAR);
                try (ResultSet rs = ps.executeQuery()) {
                    check("prepared SELECT ?,?,? has a row", rs.next(), true);
                    check("int parameter", rs.getInt(1), 42);
                    check("string parameter", rs.getString(2), text);
                    check("null parameter", rs.getString(3), null);
                }
                ps.setInt(1, 7);
                ps.setString(2, "second");
                ps.setString(3, "x");
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    check("re-executed int parameter", rs.getInt(1), 7);
                    check("re-executed string parameter", rs.getString(2), "second");
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELEC ?")) {
                ps.setInt(1, 1);
                ps.executeQuery();
                check("prepared SELEC ? throws", "no exception", "SQLException");
            } catch (SQLException e) {
                check("prepared SELEC ? getErrorCode", e.getErrorCode(), 1064);
                check("prepared SELEC ? getSQLState", e.getSQLState(), "42000");
            }
            check("isValid (COM_PING)", c.isValid(5), true);

            // DatabaseMetaData over a real table (INFORMATION_SCHEMA queries of catalog_queries.md).
            try (Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE IF NOT EXISTS conformance_jdbc");
                s.execute("CREATE TABLE IF NOT EXISTS conformance_jdbc.t (id BIGINT NOT NULL, "
                        + "name VARCHAR(20), amount DECIMAL(12, 2)) UNIQUE KEY(id) "
                        + "DISTRIBUTED BY HASH(id) BUCKETS 1");
            }
            java.sql.DatabaseMetaData md = c.getMetaData();
            StringBuilder cats = new StringBuilder();
            try (ResultSet rs = md.getCatalogs()) {
                while (rs.next()) cats.append(rs.getString("TABLE_CAT")).append(' ');
            }
            check("getCatalogs lists conformance_jdbc", cats.toString().contains("conformance_jdbc "), true);
            StringBuilder tables = new StringBuilder();
            try (ResultSet rs = md.getTables("conformance_jdbc", null, "%", new String[] {"TABLE"})) {
                while (rs.next()) tables.append(rs.getString("TABLE_NAME")).append(':').append(rs.getString("TABLE_TYPE")).append(' ');
            }
            check("getTables", tables.toString(), "t:TABLE ");
            StringBuilder cols = new StringBuilder();
            try (ResultSet rs = md.getColumns("conformance_jdbc", null, "t", "%")) {
                while (rs.next()) {
                    cols.append(rs.getString("COLUMN_NAME")).append(':').append(rs.getInt("DATA_TYPE"))
                        .append(':').append(rs.getInt("COLUMN_SIZE")).append(':').append(rs.getString("IS_NULLABLE")).append(' ');
                }
            }
            check("getColumns", cols.toString(), "id:-5:19:NO name:12:20:YES amount:3:12:YES ");
            try (Statement s = c.createStatement()) {
                s.execute("DROP DATABASE conformance_jdbc");
            }
        }

        // Server-side prepared statements: COM_STMT_PREPARE / EXECUTE with binary rows. The driver
        // sends parameter types on the first execute only.
        try (Connection c = DriverManager.getConnection(url + "&useServerPrepStmts=true")) {
            try (PreparedStatement ps = c.prepareStatement("SELECT ? + 1, ?, CAST(? AS DECIMAL(12,2)), ?")) {
                check("server prepare parameter count", ps.getParameterMetaData().getParameterCount(), 4);
                for (int round = 1; round <= 3; round++) {
                    ps.setLong(1, 41L * round);
                    ps.setString(2, "r" + round);
                    ps.setBigDecimal(3, new java.math.BigDecimal("12.345"));
                    ps.setNull(4, java.sql.Types.INTEGER);
                    try (ResultSet rs = ps.executeQuery()) {
                        check("server prepare round " + round + " has a row", rs.next(), true);
                        check("server prepare round " + round + " ? + 1", rs.getLong(1), 41L * round + 1);
                        check("server prepare round " + round + " string", rs.getString(2), "r" + round);
                        check("server prepare round " + round + " decimal", rs.getBigDecimal(3),
                                new java.math.BigDecimal("12.35"));
                        rs.getInt(4);
                        check("server prepare round " + round + " null", rs.wasNull(), true);
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT NOW() IS NOT NULL, CAST('2024-02-29 13:14:15' AS DATETIME), 2.5e0")) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    check("server prepare boolean-ish", rs.getInt(1), 1);
                    check("server prepare datetime", rs.getTimestamp(2).toString(), "2024-02-29 13:14:15.0");
                    check("server prepare double", rs.getDouble(3), 2.5);
                }
            }
            // The driver may report a failed server prepare at prepare or (after falling back to
            // client-side prepare) at execute; either way the code must be the server's 1064.
            try (PreparedStatement ps = c.prepareStatement("SELEC ?")) {
                ps.setInt(1, 1);
                ps.executeQuery();
                check("server prepare of SELEC ? throws", "no exception", "SQLException");
            } catch (SQLException e) {
                check("server prepare SELEC ? getErrorCode", e.getErrorCode(), 1064);
            }
        }
        // Table data through server-side prepared statements: a batch of parameterised INSERTs,
        // an UPDATE with parameters, and a transaction with setAutoCommit(false) / commit().
        try (Connection c = DriverManager.getConnection(url + "&useServerPrepStmts=true");
             Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS clients_jdbc FORCE");
            st.execute("CREATE DATABASE clients_jdbc");
            st.execute("USE clients_jdbc");
            st.execute("CREATE TABLE t (k INT, v VARCHAR(20), x DECIMAL(10,2)) UNIQUE KEY(k) "
                    + "DISTRIBUTED BY HASH(k) BUCKETS 2 "
                    + "PROPERTIES (\"enable_unique_key_merge_on_write\" = \"true\")");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                for (int i = 0; i < 100; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "j" + i);
                    ps.setBigDecimal(3, new java.math.BigDecimal("2.25"));
                    ps.addBatch();
                }
                check("batch INSERT statements", ps.executeBatch().length, 100);
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE t SET v = ? WHERE k < ?")) {
                ps.setString(1, "upd");
                ps.setInt(2, 5);
                check("prepared UPDATE count", ps.executeUpdate(), 5);
            }
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO t VALUES (500, 'txn', 1)");
            c.commit();
            c.setAutoCommit(true);
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(x), MAX(v) FROM t")) {
                rs.next();
                check("rows after batch + txn", rs.getLong(1), 101L);
                check("SUM(x) after batch + txn", rs.getBigDecimal(2), new java.math.BigDecimal("226.00"));
                check("MAX(v) after UPDATE", rs.getString(3), "upd");
            }
            // Pagination with placeholders in LIMIT (server-side prepared: LIMIT ? OFFSET ?).
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT k FROM t WHERE k < ? ORDER BY k LIMIT ? OFFSET ?")) {
                StringBuilder pages = new StringBuilder();
                for (int page = 0; page < 3; page++) {
                    ps.setInt(1, 10);
                    ps.setInt(2, 4);
                    ps.setInt(3, page * 4);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            pages.append(rs.getInt(1)).append(' ');
                        }
                    }
                    pages.append("| ");
                }
                check("LIMIT ? OFFSET ? pages", pages.toString(), "0 1 2 3 | 4 5 6 7 | 8 9 | ");
            }
            st.execute("DROP DATABASE clients_jdbc FORCE");
        }
        System.exit(failures == 0 ? 0 : 1);
    }
}
