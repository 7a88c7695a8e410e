package io.wakurelay.archive.postgres;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.RetentionRun;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.common.ArchiveMeters;
import io.wakurelay.archive.common.RetryBackoff;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.WallClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The PostgreSQL archive: nwaku's schema ({@link NwakuSchema}, {@link Partitions}) in a database that several store
 * nodes, ours or nwaku's, may share (docs/archive.md, "PostgreSQL and fleets"). One writer thread commits batches
 * ({@link PostgresWriter}); queries open pages on the caller's thread ({@link PostgresReader}); the housekeeping
 * thread checks the database, keeps the partitions and runs retention once for the fleet ({@link Housekeeping},
 * {@link PostgresRetention}).
 *
 * <p>Opening waits for a database that is down at most {@link PostgresConfig#startWait()}, saying each time why it
 * cannot connect, then fails with a message that says what it tried; it fails at once when the password or the
 * database is wrong, or the schema is one it cannot serve.
 */
public final class PostgresArchive implements MessageArchive {
    private static final Logger log = LoggerFactory.getLogger(PostgresArchive.class);

    private final ArchiveConfig config;
    private final ConnectionPool pool;
    private final ArchiveMeters metrics;
    private final PostgresWriter writer;
    private final PostgresReader reader;
    private final Housekeeping housekeeping;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger unacknowledged = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();

    private PostgresArchive(ArchiveConfig config, ConnectionPool pool, Partitions partitions, MeterRegistry registry,
                            LongSupplier wallClockNanos, boolean lz4) {
        this.config = config;
        this.pool = pool;
        this.reader = new PostgresReader(pool);
        Housekeeping[] later = new Housekeeping[1];
        this.metrics = new ArchiveMeters(registry, () -> later[0].messages(), () -> later[0].bytes(), pending::get,
                unacknowledged::get);
        try {
            PostgresMetrics own = new PostgresMetrics(metrics, pool, partitions, () -> later[0].up());
            PostgresRetention retention = new PostgresRetention(config.retention(), pool, partitions, metrics, own, wallClockNanos);
            this.housekeeping = new Housekeeping(pool, partitions, retention, metrics, wallClockNanos);
            later[0] = housekeeping;
            this.writer = new PostgresWriter(config, pool, partitions, metrics, own.messagesRefused, pending,
                    unacknowledged, lz4);
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
    }

    /**
     * Connects (waiting for the database at most {@link PostgresConfig#startWait()}), brings the schema to nwaku's
     * version {@value NwakuSchema#VERSION} under nwaku's migration lock, makes the partitions of now and the next hour,
     * and registers the meters.
     *
     * @throws ArchiveStorageException saying why the database cannot be used
     */
    public static PostgresArchive open(ArchiveConfig config, MeterRegistry registry) {
        return open(config, registry, WallClock::nowNanos);
    }

    /** Opens with a given wall clock (retention measures ages and partitions their hours with it). */
    static PostgresArchive open(ArchiveConfig config, MeterRegistry registry, LongSupplier wallClockNanos) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(registry, "registry");
        PostgresConfig pg = Objects.requireNonNull(config.postgres(), "config.postgres()");
        ConnectionPool pool = ConnectionPool.create(pg);
        try {
            Partitions partitions = new Partitions();
            int found = prepare(pool, pg, partitions, wallClockNanos);
            boolean lz4 = lz4(pool);
            PostgresArchive archive = new PostgresArchive(config, pool, partitions, registry, wallClockNanos, lz4);
            try {
                archive.housekeeping.countNow();
                archive.housekeeping.start(config.retention(), config.retentionInterval());
            } catch (RuntimeException e) {
                archive.close();
                throw e;
            }
            log.info("archive opened on PostgreSQL at {} (nwaku's schema version {}{}): {} messages, {} partitions, retention {}",
                    pg.describe(), NwakuSchema.VERSION, found == 0 ? ", created now" : "", archive.messageCount(),
                    partitions.ranges().size(), config.retention().spec());
            return archive;
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /** Connects, migrates and makes the current partitions, retrying a database that is down for the start wait. */
    private static int prepare(ConnectionPool pool, PostgresConfig pg, Partitions partitions, LongSupplier wallClockNanos) {
        long deadline = System.nanoTime() + pg.startWait().toNanos();
        for (int attempt = 1; ; attempt++) {
            // a connection of its own: a server that refuses it is known at once, not after the pool's connect timeout
            try (Connection connection = pool.direct()) {
                int found = NwakuSchema.migrate(connection);
                partitions.refresh(connection);
                partitions.ensureNowAndNext(connection, wallClockNanos.getAsLong());
                return found;
            } catch (NwakuSchema.SchemaException e) {
                throw new ArchiveStorageException("cannot use the PostgreSQL database at " + pg.describe() + ": " + e.getMessage(), e);
            } catch (SQLException e) {
                String why = SqlErrors.describe(e);
                if (!SqlErrors.isTransient(e)) {
                    // a wrong password, a database that does not exist, no permission: waiting does not help
                    throw new ArchiveStorageException("cannot use the PostgreSQL database at " + pg.describe() + ": " + why, e);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new ArchiveStorageException("cannot reach the PostgreSQL database at " + pg.describe() + ": " + why
                            + (pg.startWait().isZero() ? "" : " (waited " + pg.startWait().toSeconds()
                            + " s, --store-message-db-start-wait)"), e);
                }
                long delay = Math.min(left, RetryBackoff.delayNanos(Math.min(attempt, 8)));
                log.warn("the PostgreSQL database at {} is not reachable: {}; trying again in {} ms, for {} s more "
                        + "(--store-message-db-start-wait)", pg.describe(), why, delay / 1_000_000, left / 1_000_000_000);
                try {
                    TimeUnit.NANOSECONDS.sleep(delay);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new ArchiveStorageException("interrupted while waiting for PostgreSQL at " + pg.describe(), interrupted);
                }
            }
        }
    }

    /** Whether the server takes lz4 for TOAST compression (PostgreSQL 14 or newer, built with lz4, as Debian's is). */
    private static boolean lz4(ConnectionPool pool) {
        try (Connection connection = pool.connection(); java.sql.Statement statement = connection.createStatement()) {
            statement.execute("SET default_toast_compression = lz4");
            statement.execute("RESET default_toast_compression");
            return true;
        } catch (SQLException e) {
            log.info("the PostgreSQL server does not take lz4 compression ({}): payloads are compressed with its default",
                    SqlErrors.describe(e));
            return false;
        }
    }

    @Override
    public Flux<CommittedBatch> write(Flux<Envelope> envelopes) {
        Objects.requireNonNull(envelopes, "envelopes");
        return writer.write(envelopes);
    }

    @Override
    public void expectTopics(Collection<String> pubsubTopics) {
        pubsubTopics.forEach(metrics.shards()::expect);
    }

    @Override
    public StorePage openPage(StoreQuery query, long maxPageBytes) {
        Objects.requireNonNull(query, "query");
        if (maxPageBytes < 1) {
            throw new IllegalArgumentException("a page's byte budget must be positive, was " + maxPageBytes);
        }
        if (closed.get()) {
            throw new io.wakurelay.archive.ArchiveClosedException("the archive is closed");
        }
        try {
            return reader.open(query, maxPageBytes, nanos -> metrics.queryLatency(query.kind()).record(nanos, TimeUnit.NANOSECONDS));
        } catch (SQLException e) {
            throw new ArchiveStorageException("store query failed: " + SqlErrors.describe(e), e);
        }
    }

    /** The database's messages, every node's: as last counted (at open, every minute, after retention). */
    @Override
    public long messageCount() {
        return housekeeping.messages();
    }

    /** The disk size of the message tables and their indexes, as last counted. */
    @Override
    public long storedBytes() {
        return housekeeping.bytes();
    }

    @Override
    public int pendingMessages() {
        return pending.get();
    }

    /** False while writes fail or the database does not answer its health check, and after close. */
    @Override
    public boolean healthy() {
        return !closed.get() && writer.writing() && housekeeping.up();
    }

    @Override
    public Optional<String> lastWriteError() {
        if (!writer.writing()) {
            return Optional.ofNullable(writer.lastWriteError());
        }
        if (!housekeeping.up()) {
            return Optional.ofNullable(housekeeping.lastError());
        }
        return Optional.ofNullable(writer.lastWriteError()).or(() -> Optional.ofNullable(housekeeping.lastError()));
    }

    @Override
    public RetentionRun applyRetention() {
        writer.checkNotOnWriterThread("applyRetention()");
        return housekeeping.retainNow();
    }

    /** Counts the stored messages now, rather than at the next minute (tests). */
    void recount() {
        housekeeping.countNow();
    }

    @Override
    public ArchiveConfig config() {
        return config;
    }

    @Override
    public void close() {
        writer.checkNotOnWriterThread("close()");
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        housekeeping.close();
        writer.close();
        reader.close();
        metrics.close();
        pool.close();
        log.info("archive closed on PostgreSQL at {}", config.postgres().describe());
    }
}
