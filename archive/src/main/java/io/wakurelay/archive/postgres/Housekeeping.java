package io.wakurelay.archive.postgres;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.RetentionRun;
import io.wakurelay.archive.common.ArchiveMeters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The PostgreSQL archive's background work, on one thread of its own ({@code waku-archive-housekeeping}), never on the
 * writer's: every {@value #CHECK_SECONDS} s a health check ({@code SELECT 1}: {@code /health} says NOT_READY with the
 * reason while the database does not answer, even when nothing is being written) and the partitions of now and the
 * next hour; every minute the message count and size; retention every retention interval; nwaku's daily
 * {@code ANALYZE messages}, under its lock (the planner has no statistics of a partitioned table otherwise).
 */
final class Housekeeping implements AutoCloseable {
    static final long CHECK_SECONDS = 5;
    private static final Duration COUNT_INTERVAL = Duration.ofMinutes(1);
    private static final Duration ANALYZE_INTERVAL = Duration.ofDays(1);
    /** nwaku's lock id around its daily ANALYZE. */
    private static final long ANALYZE_LOCK = 111111;
    /** Above this many messages (the planner's estimate) the count is the estimate: an exact one scans the table. */
    static final long EXACT_COUNT_LIMIT = 1_000_000;
    private static final Logger log = LoggerFactory.getLogger(Housekeeping.class);

    private final ConnectionPool pool;
    private final Partitions partitions;
    private final PostgresRetention retention;
    private final ArchiveMeters metrics;
    private final LongSupplier wallClockNanos;
    private final Scheduler scheduler;
    private final java.util.List<Disposable> schedules = new java.util.ArrayList<>();
    private volatile boolean up = true;
    private volatile String lastError;
    private volatile long messages;
    private volatile long bytes;

    Housekeeping(ConnectionPool pool, Partitions partitions, PostgresRetention retention, ArchiveMeters metrics,
                 LongSupplier wallClockNanos) {
        this.pool = pool;
        this.partitions = partitions;
        this.retention = retention;
        this.metrics = metrics;
        this.wallClockNanos = wallClockNanos;
        this.scheduler = Schedulers.newSingle(task -> {
            Thread thread = new Thread(task, "waku-archive-housekeeping");
            thread.setDaemon(true);
            return thread;
        });
    }

    void start(RetentionPolicy policy, Duration retentionInterval) {
        schedules.add(scheduler.schedulePeriodically(this::check, CHECK_SECONDS, CHECK_SECONDS, TimeUnit.SECONDS));
        schedules.add(scheduler.schedulePeriodically(this::countQuietly, COUNT_INTERVAL.toSeconds(), COUNT_INTERVAL.toSeconds(),
                TimeUnit.SECONDS));
        schedules.add(scheduler.schedulePeriodically(this::analyze, ANALYZE_INTERVAL.toSeconds(), ANALYZE_INTERVAL.toSeconds(),
                TimeUnit.SECONDS));
        if (!(policy instanceof RetentionPolicy.None)) {
            schedules.add(scheduler.schedulePeriodically(() -> {
                try {
                    retention.run();
                    count();
                } catch (SQLException | RuntimeException e) {
                    metrics.retentionErrors().increment();
                    log.atError().addKeyValue("reason", describe(e)).log("retention failed; the next pass tries again");
                }
            }, retentionInterval.toNanos(), retentionInterval.toNanos(), TimeUnit.NANOSECONDS));
        }
    }

    /** Runs a retention pass now on this thread, and recounts. */
    RetentionRun retainNow() {
        return call(() -> {
            try {
                RetentionRun run = retention.run();
                count();
                return run;
            } catch (SQLException e) {
                metrics.retentionErrors().increment();
                throw new ArchiveStorageException("retention pass failed: " + SqlErrors.describe(e), e);
            }
        });
    }

    /** Counts now on this thread (tests, and after writes the caller wants counted). */
    void countNow() {
        call(() -> {
            try {
                count();
                return null;
            } catch (SQLException e) {
                throw new ArchiveStorageException("counting the stored messages failed: " + SqlErrors.describe(e), e);
            }
        });
    }

    private <T> T call(Callable<T> task) {
        CompletableFuture<T> done = new CompletableFuture<>();
        try {
            scheduler.schedule(() -> {
                try {
                    done.complete(task.call());
                } catch (Throwable e) {
                    done.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException closed) {
            throw new ArchiveClosedException("the archive is closed");
        }
        try {
            return done.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    private void check() {
        try (Connection connection = pool.connection(); Statement statement = connection.createStatement()) {
            statement.execute("SELECT 1");
            partitions.ensureNowAndNext(connection, wallClockNanos.getAsLong());
            if (!up) {
                log.info("the archive's PostgreSQL database answers again");
            }
            up = true;
        } catch (SQLException | RuntimeException e) {
            lastError = describe(e);
            if (up) {
                log.atError().addKeyValue("database", pool.config().describe()).addKeyValue("reason", String.valueOf(lastError))
                        .log("the archive's PostgreSQL database does not answer");
            }
            up = false;
        }
    }

    private void countQuietly() {
        try {
            count();
        } catch (SQLException | RuntimeException e) {
            log.atDebug().addKeyValue("reason", describe(e)).log("counting the stored messages failed");
        }
    }

    /** The messages (exact up to {@value #EXACT_COUNT_LIMIT}, the planner's estimate above) and the tables' size. */
    void count() throws SQLException {
        try (Connection connection = pool.connection(); Statement statement = connection.createStatement()) {
            long estimate;
            try (ResultSet row = statement.executeQuery("SELECT coalesce(sum(greatest(c.reltuples, 0)), 0)::bigint FROM pg_inherits i "
                    + "JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'messages'::regclass")) {
                row.next();
                estimate = row.getLong(1);
            }
            if (estimate <= EXACT_COUNT_LIMIT) {
                try (ResultSet row = statement.executeQuery("SELECT count(*) FROM messages")) {
                    row.next();
                    estimate = row.getLong(1);
                }
            }
            try (ResultSet row = statement.executeQuery("SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0) "
                    + "+ pg_total_relation_size('messages_lookup') FROM pg_inherits i WHERE i.inhparent = 'messages'::regclass")) {
                row.next();
                bytes = row.getLong(1);
            }
            messages = estimate;
        }
    }

    private void analyze() {
        try (Connection connection = pool.connection(); Statement statement = connection.createStatement()) {
            try (ResultSet locked = statement.executeQuery("SELECT pg_try_advisory_lock(" + ANALYZE_LOCK + ")")) {
                locked.next();
                if (!locked.getBoolean(1)) {
                    return;
                }
            }
            try {
                statement.execute("ANALYZE messages");
            } finally {
                statement.execute("SELECT pg_advisory_unlock(" + ANALYZE_LOCK + ")");
            }
        } catch (SQLException | RuntimeException e) {
            log.atWarn().addKeyValue("reason", describe(e)).log("ANALYZE messages failed");
        }
    }

    private static String describe(Exception e) {
        return e instanceof SQLException sql ? SqlErrors.describe(sql) : String.valueOf(e.getMessage());
    }

    boolean up() {
        return up;
    }

    String lastError() {
        return lastError;
    }

    long messages() {
        return messages;
    }

    long bytes() {
        return bytes;
    }

    @Override
    public void close() {
        schedules.forEach(Disposable::dispose);
        scheduler.dispose();
    }
}
