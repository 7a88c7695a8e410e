package io.wakurelay.archive;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The PostgreSQL archive (nwaku's schema, for fleets): where its database is and how the node talks to it, beside the
 * {@link CoreConfig} every backend shares. Validated at construction: a bad value is an
 * {@link IllegalArgumentException} that names it. The password never appears in {@link #toString()} (configs are
 * logged).
 *
 * @param core             what every backend shares; its batches at most {@value #MAX_BATCH_MESSAGES} messages
 * @param host             the server's host name or address
 * @param port             its port
 * @param database         the database (created beforehand, as for nwaku); the node creates nwaku's tables in it
 * @param user             the role the node logs in as
 * @param password         its password; empty when the server needs none (trust or peer authentication)
 * @param maxConnections   connections of the node's pool, at most: one for the writer, one for housekeeping
 *                         (partitions, retention, health checks), the rest for Store queries (an open page holds one)
 * @param connectTimeout   how long a query or the writer waits for a connection from the pool, and a new connection
 *                         for the server's answer
 * @param statementTimeout the longest one statement may run (the server's {@code statement_timeout}); the driver's
 *                         socket timeout is a little longer, so that a network that drops packets ends a call too
 * @param startWait        how long the node retries a database that is down at start before it exits; 0: exit at once
 * @param applicationName  the name the node's sessions show in {@code pg_stat_activity}, which tells the nodes of a
 *                         fleet apart
 */
@RecordBuilder
public record PostgresConfig(CoreConfig core, String host, int port, String database, String user, String password,
                             int maxConnections, Duration connectTimeout, Duration statementTimeout, Duration startWait,
                             String applicationName) implements ArchiveConfig {
    private static final int MAX_CONNECTIONS_LIMIT = 1000;
    private static final Duration MIN_TIMEOUT = Duration.ofMillis(250);
    /**
     * One batch is one multi-row INSERT of 8 bind parameters per message, and a statement takes at most 65,535 of them;
     * a larger batch would fail every time and be retried for ever.
     */
    public static final int MAX_BATCH_MESSAGES = 65_535 / 8;
    /**
     * How long a partial batch waits for company (RocksDB's default is none): every PostgreSQL commit is a round trip
     * and an fsync on the server, and there committing at once measured no faster (ADR 0082).
     */
    public static final Duration BATCH_DELAY = Duration.ofMillis(5);

    /**
     * The shared defaults with {@link #BATCH_DELAY}; PostgreSQL's own port, and timeouts that let a database restart
     * within seconds go unnoticed but for the delay.
     */
    public static final PostgresConfig DEFAULTS = new PostgresConfig(coreFrom(CoreConfig.DEFAULTS), "127.0.0.1", 5432,
            "postgres", "postgres", "", 20, Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30), "wakurelay");

    public PostgresConfig {
        Objects.requireNonNull(core, "core");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(statementTimeout, "statementTimeout");
        Objects.requireNonNull(startWait, "startWait");
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("the PostgreSQL host must not be empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("the PostgreSQL port must be 1..65535, was " + port);
        }
        if (database == null || database.isBlank()) {
            throw new IllegalArgumentException("the PostgreSQL database must be named");
        }
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("the PostgreSQL user must be named");
        }
        if (maxConnections < 3 || maxConnections > MAX_CONNECTIONS_LIMIT) {
            throw new IllegalArgumentException("the PostgreSQL connections must be 3.." + MAX_CONNECTIONS_LIMIT
                    + " (the writer, housekeeping and at least one Store query), was " + maxConnections);
        }
        // HikariCP refuses shorter waits; a statement timeout that short would cut ordinary inserts
        if (connectTimeout.compareTo(MIN_TIMEOUT) < 0) {
            throw new IllegalArgumentException("the PostgreSQL connect timeout must be at least 250 ms, was " + connectTimeout);
        }
        if (statementTimeout.compareTo(MIN_TIMEOUT) < 0) {
            throw new IllegalArgumentException("the PostgreSQL statement timeout must be at least 250 ms, was " + statementTimeout);
        }
        if (startWait.isNegative()) {
            throw new IllegalArgumentException("the wait for PostgreSQL at start must not be negative, was " + startWait);
        }
        if (core.maxBatchMessages() > MAX_BATCH_MESSAGES) {
            throw new IllegalArgumentException("maxBatchMessages must be at most " + MAX_BATCH_MESSAGES
                    + " with PostgreSQL (65,535 bind parameters per statement, 8 per message), was " + core.maxBatchMessages());
        }
        applicationName = applicationName == null || applicationName.isBlank() ? "wakurelay" : applicationName;
    }

    /** {@code shared} with PostgreSQL's {@link #BATCH_DELAY}: how the node moves its archive settings to PostgreSQL. */
    public static CoreConfig coreFrom(CoreConfig shared) {
        return shared.toBuilder().maxBatchDelay(BATCH_DELAY).build();
    }

    @Override
    public String backend() {
        return "postgres";
    }

    @Override
    public PostgresConfig withCore(UnaryOperator<CoreConfigBuilder> change) {
        return toBuilder().core(change.apply(core.toBuilder()).build()).build();
    }

    /** {@code host:port/database as user}: what logs and errors name (never the password). */
    public String describe() {
        return host + ":" + port + "/" + database + " as " + user;
    }

    /** The JDBC URL, without credentials. */
    public String jdbcUrl() {
        String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        return "jdbc:postgresql://" + h + ":" + port + "/" + database;
    }

    @Override
    public String toString() {
        return "PostgresConfig[" + core + ", " + describe() + ", password " + (password.isEmpty() ? "none" : "set")
                + ", maxConnections " + maxConnections + ", connectTimeout " + connectTimeout + ", statementTimeout " + statementTimeout
                + ", startWait " + startWait + ", applicationName " + applicationName + "]";
    }

    public PostgresConfigBuilder toBuilder() {
        return PostgresConfigBuilder.builder(this);
    }

    public static PostgresConfigBuilder builder() {
        return DEFAULTS.toBuilder();
    }
}
