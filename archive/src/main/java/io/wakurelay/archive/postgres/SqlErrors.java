package io.wakurelay.archive.postgres;

import java.sql.SQLException;

/** PostgreSQL's failures in words for logs, {@code /health} and exceptions: the server's message and its SQLSTATE. */
final class SqlErrors {
    /** SQLSTATE of a statement the server cancelled at {@code statement_timeout}. */
    static final String QUERY_CANCELED = "57014";

    private SqlErrors() {
    }

    static String describe(SQLException e) {
        String state = e.getSQLState();
        String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
        return "PostgreSQL: " + message + (state == null ? "" : " (SQLSTATE " + state + ")");
    }

    /** A failure of the connection rather than of the statement: the server is down, restarting, or unreachable. */
    static boolean isConnectionLost(SQLException e) {
        String state = e.getSQLState();
        // class 08: connection exception; 57P01..57P03: the server is shutting down or starting
        return state != null && (state.startsWith("08") || state.startsWith("57P"));
    }
}
