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
        }
        System.exit(failures == 0 ? 0 : 1);
    }
}
