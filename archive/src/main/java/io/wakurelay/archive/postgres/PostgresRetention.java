package io.wakurelay.archive.postgres;

import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.RetentionRun;
import io.wakurelay.archive.common.ArchiveMeters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.LongSupplier;

/**
 * Retention on PostgreSQL, run once for the whole fleet: a pass takes a session advisory lock
 * ({@value #RETENTION_LOCK}) with {@code pg_try_advisory_lock} and, when another node holds it, leaves the pass to
 * that node (counted in {@code waku_postgres_retention_skipped_total}). What goes, as nwaku's drivers do it:
 * <ul>
 *   <li>{@code time:<seconds>}: the partitions wholly older than the cutoff are dropped (cheap: no row is visited),
 *       then the older rows of the partition the cutoff falls in are deleted in chunks of {@value #CHUNK};</li>
 *   <li>{@code capacity:<count>}: the position of the newest message beyond the count is found, the partitions wholly
 *       before it dropped and the rest of the older rows deleted in chunks;</li>
 *   <li>{@code size:<bytes>}: nwaku's meaning on PostgreSQL, the database's size ({@code pg_database_size}): the
 *       oldest partitions are dropped, never the one of now, until it is no larger.</li>
 * </ul>
 * The rows of {@code messages_lookup} go with their messages, in the same statement.
 */
final class PostgresRetention {
    /** The advisory lock id of a retention pass: one node of a fleet runs it at a time (not one of nwaku's ids). */
    static final long RETENTION_LOCK = 841887;
    static final int CHUNK = 10_000;
    private static final Logger log = LoggerFactory.getLogger(PostgresRetention.class);

    private final RetentionPolicy policy;
    private final ConnectionPool pool;
    private final Partitions partitions;
    private final ArchiveMeters metrics;
    private final PostgresMetrics own;
    private final LongSupplier wallClockNanos;

    PostgresRetention(RetentionPolicy policy, ConnectionPool pool, Partitions partitions, ArchiveMeters metrics,
                      PostgresMetrics own, LongSupplier wallClockNanos) {
        this.policy = policy;
        this.pool = pool;
        this.partitions = partitions;
        this.metrics = metrics;
        this.own = own;
        this.wallClockNanos = wallClockNanos;
    }

    /** One pass; @return what it deleted (nothing when another node of the fleet holds the retention lock) */
    RetentionRun run() throws SQLException {
        if (policy instanceof RetentionPolicy.None) {
            return new RetentionRun(policy, 0, 0, 0);
        }
        long started = System.nanoTime();
        try (Connection connection = pool.connection(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            try (ResultSet locked = statement.executeQuery("SELECT pg_try_advisory_lock(" + RETENTION_LOCK + ")")) {
                locked.next();
                if (!locked.getBoolean(1)) {
                    own.retentionSkipped.increment();
                    log.atDebug().addKeyValue("retention", policy.spec()).log("retention: another node of the fleet is running it");
                    return new RetentionRun(policy, 0, 0, 0);
                }
            }
            try {
                long deleted = apply(connection);
                metrics.retentionRuns().increment();
                if (deleted > 0) {
                    metrics.retentionDeleted(policy).increment(deleted);
                    log.atInfo().addKeyValue("retention", policy.spec()).addKeyValue("messages", deleted)
                            .addKeyValue("ms", (System.nanoTime() - started) / 1_000_000).log("retention removed messages");
                }
                return new RetentionRun(policy, deleted, 0, deleted);
            } finally {
                statement.execute("SELECT pg_advisory_unlock(" + RETENTION_LOCK + ")");
            }
        }
    }

    private long apply(Connection connection) throws SQLException {
        long now = wallClockNanos.getAsLong();
        if (policy instanceof RetentionPolicy.Time time) {
            long cutoff = time.cutoff(now);
            return partitions.dropBefore(connection, cutoff, now) + deleteBefore(connection, cutoff, null);
        }
        if (policy instanceof RetentionPolicy.Capacity capacity) {
            try (PreparedStatement boundary = connection.prepareStatement(
                    "SELECT timestamp, messageHash FROM messages ORDER BY timestamp DESC, messageHash DESC OFFSET ? LIMIT 1")) {
                boundary.setLong(1, capacity.maxMessages());
                try (ResultSet row = boundary.executeQuery()) {
                    if (!row.next()) {
                        return 0;
                    }
                    long timestamp = row.getLong(1);
                    String hash = row.getString(2);
                    // every partition that ends at or before the boundary's timestamp holds only messages before it
                    return partitions.dropBefore(connection, timestamp, now) + deleteBefore(connection, timestamp, hash);
                }
            }
        }
        RetentionPolicy.Size size = (RetentionPolicy.Size) policy;
        long deleted = 0;
        while (databaseSize(connection) > size.maxBytes()) {
            long rows = partitions.dropOldest(connection, now);
            if (rows < 0) {
                log.atWarn().addKeyValue("retention", policy.spec())
                        .log("retention: the database is larger than the limit, but only the partition of now is left");
                break;
            }
            deleted += rows;
        }
        return deleted;
    }

    /**
     * Deletes, in chunks, the messages before {@code (timestamp, hash)}, and at that position too when {@code hash} is
     * set (capacity keeps the newest); with their lookup rows.
     */
    private static long deleteBefore(Connection connection, long timestamp, String hash) throws SQLException {
        String condition = hash == null ? "timestamp < ?" : "(timestamp, messageHash) <= (?, ?)";
        String sql = "WITH gone AS (DELETE FROM messages WHERE (messageHash, timestamp) IN (SELECT messageHash, timestamp "
                + "FROM messages WHERE " + condition + " ORDER BY timestamp LIMIT " + CHUNK + ") RETURNING messageHash, timestamp), "
                + "lookup AS (DELETE FROM messages_lookup l USING gone WHERE l.messageHash = gone.messageHash "
                + "AND l.timestamp = gone.timestamp) SELECT count(*) FROM gone";
        long deleted = 0;
        try (PreparedStatement delete = connection.prepareStatement(sql)) {
            delete.setLong(1, timestamp);
            if (hash != null) {
                delete.setString(2, hash);
            }
            while (true) {
                long chunk;
                try (ResultSet count = delete.executeQuery()) {
                    count.next();
                    chunk = count.getLong(1);
                }
                deleted += chunk;
                if (chunk < CHUNK) {
                    return deleted;
                }
            }
        }
    }

    static long databaseSize(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet size = statement.executeQuery("SELECT pg_database_size(current_database())")) {
            size.next();
            return size.getLong(1);
        }
    }
}
