package io.wakurelay.archive.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.PostgresConfig;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The node's connections to PostgreSQL: a HikariCP pool of at most {@link PostgresConfig#maxConnections()}, every
 * wait and every call bounded. A connection is waited for at most {@link PostgresConfig#connectTimeout()} (then the
 * caller gets an {@link SQLException}); every statement runs at most {@link PostgresConfig#statementTimeout()} (the
 * server's {@code statement_timeout}); the driver's socket timeout is a little longer, so that a call over a network
 * that silently drops packets ends too; a transaction left idle (a Store page a client stopped reading) is ended by the
 * server after {@link #IDLE_IN_TRANSACTION}. The pool starts without a connection and never fails to start: the
 * archive itself waits for the database ({@link PostgresConfig#startWait()}).
 */
final class ConnectionPool implements AutoCloseable {
    /** How long a transaction may sit idle before the server ends its session: a Store page left open by a stalled reader. */
    static final Duration IDLE_IN_TRANSACTION = Duration.ofSeconds(60);
    private static final Duration SOCKET_MARGIN = Duration.ofSeconds(5);

    private final HikariDataSource pool;
    private final PostgresConfig config;

    private final java.util.Properties driverProperties;

    private ConnectionPool(HikariDataSource pool, PostgresConfig config, java.util.Properties driverProperties) {
        this.pool = pool;
        this.config = config;
        this.driverProperties = driverProperties;
    }

    static ConnectionPool create(PostgresConfig config) {
        HikariConfig h = new HikariConfig();
        h.setPoolName("waku-archive-postgres");
        h.setDriverClassName("org.postgresql.Driver");
        h.setJdbcUrl(config.jdbcUrl());
        h.setUsername(config.user());
        if (!config.password().isEmpty()) {
            h.setPassword(config.password());
        }
        h.setMaximumPoolSize(config.maxConnections());
        h.setMinimumIdle(2);
        h.setConnectionTimeout(config.connectTimeout().toMillis());
        h.setValidationTimeout(Math.min(config.connectTimeout().toMillis(), 5_000));
        // the archive probes the database itself at start, with its own wait and messages
        h.setInitializationFailTimeout(-1);
        h.setAutoCommit(true);
        java.util.Properties properties = new java.util.Properties();
        properties.setProperty("ApplicationName", config.applicationName());
        properties.setProperty("connectTimeout", seconds(config.connectTimeout()));
        properties.setProperty("loginTimeout", seconds(config.connectTimeout()));
        properties.setProperty("socketTimeout", seconds(config.statementTimeout().plus(SOCKET_MARGIN)));
        properties.setProperty("tcpKeepAlive", "true");
        properties.setProperty("options", "-c statement_timeout=" + config.statementTimeout().toMillis()
                + " -c idle_in_transaction_session_timeout=" + IDLE_IN_TRANSACTION.toMillis());
        properties.forEach((k, v) -> h.addDataSourceProperty((String) k, v));
        java.util.Properties direct = new java.util.Properties();
        direct.putAll(properties);
        direct.setProperty("user", config.user());
        if (!config.password().isEmpty()) {
            direct.setProperty("password", config.password());
        }
        return new ConnectionPool(new HikariDataSource(h), config, direct);
    }

    /**
     * A connection of its own, outside the pool, as the pool's are made: the driver's failure comes at once (a server
     * that refuses the connection is known without waiting for the pool's connect timeout). For the start's probe.
     */
    Connection direct() throws SQLException {
        Connection connection = new org.postgresql.Driver().connect(config.jdbcUrl(), driverProperties);
        if (connection == null) {
            throw new SQLException("the PostgreSQL driver does not take " + config.jdbcUrl(), "08001");
        }
        return connection;
    }

    private static String seconds(Duration d) {
        return Long.toString(Math.max(1, (d.toMillis() + 999) / 1000));
    }

    /**
     * A connection, waited for at most {@link PostgresConfig#connectTimeout()}; close it to give it back.
     *
     * @throws ArchiveClosedException when the pool is closed
     */
    Connection connection() throws SQLException {
        if (pool.isClosed()) {
            throw new ArchiveClosedException("the archive is closed");
        }
        return pool.getConnection();
    }

    /** Connections in use, idle, and threads waiting for one (for the pool gauges). */
    int active() {
        HikariPoolMXBean bean = pool.getHikariPoolMXBean();
        return bean == null ? 0 : bean.getActiveConnections();
    }

    int idle() {
        HikariPoolMXBean bean = pool.getHikariPoolMXBean();
        return bean == null ? 0 : bean.getIdleConnections();
    }

    int waiting() {
        HikariPoolMXBean bean = pool.getHikariPoolMXBean();
        return bean == null ? 0 : bean.getThreadsAwaitingConnection();
    }

    PostgresConfig config() {
        return config;
    }

    @Override
    public void close() {
        pool.close();
    }
}
