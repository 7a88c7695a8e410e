package io.wakurelay.archive.postgres;

import java.sql.SQLException;

/**
 * PostgreSQL's failures in words for logs, {@code /health} and exceptions: the server's (or the driver's) message and its
 * SQLSTATE. The pool reports a connection it could not make as its own timeout, with the driver's failure as the cause:
 * that cause is what is described and judged.
 */
final class SqlErrors {
    private SqlErrors() {
    }

    static String describe(SQLException e) {
        SQLException root = root(e);
        String state = root.getSQLState();
        String message = String.valueOf(root.getMessage()).lines().findFirst().orElse("");
        return "PostgreSQL: " + message + (state == null ? "" : " (SQLSTATE " + state + ")");
    }

    /**
     * Whether waiting may help: the server is down, restarting or unreachable (SQLSTATE class 08, 57P01..57P03, or no
     * connection could be made in time); not a wrong password, a missing database or a missing permission.
     */
    static boolean isTransient(SQLException e) {
        String state = root(e).getSQLState();
        return state == null || state.startsWith("08") || state.startsWith("57P");
    }

    /**
     * Whether the database refused a row for what it holds, which retrying cannot change: SQLSTATE class 22 (data
     * exception: a value it cannot store), 23 (integrity constraint violation: a CHECK, NOT NULL or foreign key of the
     * fleet's schema, a default partition the row's range would overlap), 54 (program limit exceeded: an index row too
     * large), and 42P17 (a partition for the row's hour that cannot be made). Not a failure of every row alike (a
     * missing table or permission, class 42 otherwise), nor one that waiting may cure ({@link #isTransient}; also
     * serialization failures and deadlocks, class 40, resources, class 53, a statement timeout, 57014): those keep the
     * batch and retry it.
     */
    static boolean isPermanent(SQLException e) {
        String state = root(e).getSQLState();
        return state != null && (state.startsWith("22") || state.startsWith("23") || state.startsWith("54")
                || state.equals("42P17"));
    }

    /** The driver's failure under the pool's timeout, when there is one. */
    static SQLException root(SQLException e) {
        SQLException root = e;
        while (root.getCause() instanceof SQLException cause && cause != root) {
            root = cause;
        }
        return root;
    }
}
