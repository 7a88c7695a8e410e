package io.wakurelay.archive.postgres;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.RetentionRun;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.common.ArchiveCore;
import io.wakurelay.archive.common.ArchiveMeters;
import io.wakurelay.archive.common.RetryBackoff;
import io.wakurelay.protocol.WallClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The PostgreSQL archive: nwaku's schema ({@link NwakuSchema}, {@link Partitions}) in a database that several store
 * nodes, ours or nwaku's, may share (docs/archive.md, "PostgreSQL and fleets"). One writer thread commits batches
 * ({@link PostgresWriter}); queries open pages on the caller's thread ({@link PostgresReader}); the housekeeping
 * thread checks the database, keeps the partitions and runs retention once for the fleet ({@link Housekeeping},
 * {@link PostgresRetention}). What every backend does the same is {@link ArchiveCore}'s.
 *
 * <p>Opening waits for a database that is down at most {@link PostgresConfig#startWait()}, saying each time why it
 * cannot connect, then fails with a message that says what it tried; it fails at once when the password or the
 * database is wrong, or the schema is one it cannot serve.
 */
public final class PostgresArchive extends ArchiveCore {
    private static final Logger log = LoggerFactory.getLogger(PostgresArchive.class);

    private final PostgresConfig config;
    private final ConnectionPool pool;
    private final ArchiveMeters meters;
    private final PostgresWriter writer;
    private final PostgresReader reader;
    private final Housekeeping housekeeping;

    private PostgresArchive(PostgresConfig config, ConnectionPool pool, ArchiveMeters meters, PostgresWriter writer,
                            Housekeeping housekeeping) {
        super(config, meters, writer);
        this.config = config;
        this.pool = pool;
        this.meters = meters;
        this.writer = writer;
        this.housekeeping = housekeeping;
        this.reader = new PostgresReader(pool);
    }

    /** Registers the meters and makes the housekeeping and the writer; the meters go on a failure. */
    private static PostgresArchive create(PostgresConfig config, ConnectionPool pool, Partitions partitions,
                                          MeterRegistry registry, LongSupplier wallClockNanos, boolean lz4) {
        Housekeeping[] later = new Housekeeping[1];
        ArchiveMeters meters = new ArchiveMeters(registry, () -> later[0].messages(), () -> later[0].bytes());
        try {
            PostgresMetrics own = new PostgresMetrics(meters, pool, partitions, () -> later[0].up());
            PostgresRetention retention = new PostgresRetention(config.core().retention(), pool, partitions, meters, own,
                    wallClockNanos);
            later[0] = new Housekeeping(pool, partitions, retention, meters, wallClockNanos);
            PostgresWriter writer = new PostgresWriter(config, pool, partitions, meters, own.messagesRefused, lz4);
            return new PostgresArchive(config, pool, meters, writer, later[0]);
        } catch (RuntimeException e) {
            meters.close();
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
    public static PostgresArchive open(PostgresConfig config, MeterRegistry registry) {
        return open(config, registry, WallClock::nowNanos);
    }

    /** Opens with a given wall clock (retention measures ages and partitions their hours with it). */
    static PostgresArchive open(PostgresConfig pg, MeterRegistry registry, LongSupplier wallClockNanos) {
        Objects.requireNonNull(pg, "config");
        Objects.requireNonNull(registry, "registry");
        ConnectionPool pool = ConnectionPool.create(pg);
        try {
            Partitions partitions = new Partitions();
            int found = prepare(pool, pg, partitions, wallClockNanos);
            boolean lz4 = lz4(pool);
            PostgresArchive archive = create(pg, pool, partitions, registry, wallClockNanos, lz4);
            try {
                archive.housekeeping.countNow();
                archive.housekeeping.start(pg.core().retention(), pg.core().retentionInterval());
            } catch (RuntimeException e) {
                archive.close();
                throw e;
            }
            log.atInfo().addKeyValue("database", pg.describe()).addKeyValue("schemaVersion", NwakuSchema.VERSION)
                    .addKeyValue("schemaCreated", found == 0).addKeyValue("messages", archive.messageCount())
                    .addKeyValue("partitions", partitions.ranges().size())
                    .addKeyValue("retention", pg.core().retention().spec()).log("archive opened on PostgreSQL");
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
                log.atWarn().addKeyValue("database", pg.describe()).addKeyValue("reason", why)
                        .addKeyValue("retryMs", delay / 1_000_000).addKeyValue("waitLeftSeconds", left / 1_000_000_000)
                        .log("the PostgreSQL database is not reachable; trying again (--store-message-db-start-wait)");
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
            log.atInfo().addKeyValue("reason", SqlErrors.describe(e))
                    .log("the PostgreSQL server does not take lz4 compression: payloads are compressed with its default");
            return false;
        }
    }

    @Override
    protected StorePage open(StoreQuery query, long maxPageBytes, LongConsumer busyNanos) {
        try {
            return reader.open(query, maxPageBytes, busyNanos);
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

    /** Whether the database answers its health check (every {@value Housekeeping#CHECK_SECONDS} s). */
    @Override
    protected boolean storeAnswers() {
        return housekeeping.up();
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
    protected RetentionRun retain() {
        return housekeeping.retainNow();
    }

    /** Counts the stored messages now, rather than at the next minute (tests). */
    void recount() {
        housekeeping.countNow();
    }

    @Override
    protected void closeStore() {
        housekeeping.close();
        writer.close();
        reader.close();
        meters.close();
        pool.close();
        log.atInfo().addKeyValue("database", config.describe()).log("archive closed on PostgreSQL");
    }
}
