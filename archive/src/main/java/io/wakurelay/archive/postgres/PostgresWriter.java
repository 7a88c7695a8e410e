package io.wakurelay.archive.postgres;

import io.micrometer.core.instrument.Counter;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.common.ArchiveMeters;
import io.wakurelay.archive.common.SingleWriter;
import io.wakurelay.archive.common.WriteSession;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The PostgreSQL archive's single writer: its thread commits each batch of the write stream as one transaction
 * ({@link BatchInsert}), under the same {@link WriteSession} as the RocksDB archive, so that the same promises hold:
 * credits, group commit, an acknowledgement only after the commit returned, and a batch the database refused (down,
 * restarting, unreachable, a statement timeout) held and retried with backoff while upstream is paused. A retry inserts
 * the same rows again, each {@code ON CONFLICT DO NOTHING}: a commit whose answer was lost shows its rows as duplicates
 * then, and nothing is stored twice. A batch refused for a reason retrying cannot change (a row the database cannot
 * take, {@link SqlErrors#isPermanent}) is written again in halves ({@link SplitInsert}) instead: the message that
 * cannot be written is skipped, counted ({@code waku_postgres_messages_refused_total}) and logged at WARN with its
 * hash, the rest are written, and the batch is acknowledged.
 *
 * <p>Messages without a timestamp are not stored: nwaku's schema keys and partitions a message by its own timestamp
 * (an nwaku node refuses them as too old), and two nodes would give one such message two different receive times.
 */
final class PostgresWriter extends SingleWriter {
    /** Beyond a statement that runs its timeout, the socket's margin: how long a commit in progress may still take. */
    private static final Duration CLOSE_MARGIN = Duration.ofSeconds(10);

    private final PostgresConfig config;
    private final ConnectionPool pool;
    private final Partitions partitions;
    private final BatchInsert insert;
    private volatile long sequence;
    /** After a failure the cached partition list may be stale (another node dropped or made one). Writer thread only. */
    private boolean refreshPartitions;
    /** Whether the server compresses TOASTed values with lz4 when asked (PostgreSQL 14+ built with lz4). */
    private final boolean lz4;
    private final Counter refusedMessages;
    /** Rows of the batch being retried that a split, cut short by a failure, inserted or refused. Writer thread. */
    private final Set<MessageHash> insertedBefore = new HashSet<>();
    private final Set<MessageHash> refusedBefore = new HashSet<>();

    PostgresWriter(PostgresConfig config, ConnectionPool pool, Partitions partitions, ArchiveMeters meters,
                   Counter refusedMessages, boolean lz4) {
        // every commit is durable when it returns: no flush to wait for
        super(config.core(), meters, Duration.ZERO, " to PostgreSQL at " + config.describe());
        this.config = config;
        this.refusedMessages = refusedMessages;
        this.lz4 = lz4;
        this.pool = pool;
        this.partitions = partitions;
        this.insert = new BatchInsert(config.core().maxBatchMessages());
    }

    /** @return the acknowledgement, or null when the database refused the batch (counted and logged; the session retries it) */
    @Override
    public CommittedBatch commit(List<Envelope> batch) {
        long start = System.nanoTime();
        List<Envelope> rows = new ArrayList<>(batch.size());
        Set<MessageHash> inBatch = new HashSet<>();
        int duplicates = 0;
        int ephemeral = 0;
        int withoutTimestamp = 0;
        int beyondPartitions = 0;
        int[] refused = {0};
        for (Envelope envelope : batch) {
            if (envelope.ephemeral()) {
                ephemeral++;
            } else if (envelope.message().timestamp() <= 0) {
                withoutTimestamp++;
            } else if (envelope.message().timestamp() >= Partitions.FIRST_UNPARTITIONABLE_NANOS) {
                beyondPartitions++;
            } else if (refusedBefore.contains(envelope.hash())) {
                refused[0]++; // refused by this batch's earlier attempt, and counted then
            } else if (!inBatch.add(envelope.hash())) {
                duplicates++;
            } else {
                rows.add(envelope);
            }
        }
        List<MessageHash> stored = new ArrayList<>(rows.size());
        if (!rows.isEmpty()) {
            // one order for every node of a fleet: two batches with common hashes then wait for each other, never deadlock
            rows.sort(Comparator.comparing(Envelope::hash));
            Set<MessageHash> inserted;
            int refusedBeforeNow = refused[0];
            try {
                inserted = insertOrSplit(rows, refused);
            } catch (SQLException | RuntimeException e) {
                refreshPartitions = true;
                failed(batch.size(), describe(e), describe(e));
                return null;
            }
            inserted.addAll(insertedBefore); // a split cut short stored them: this batch's, not duplicates
            for (Envelope envelope : batch) {
                if (inserted.remove(envelope.hash())) {
                    stored.add(envelope.hash());
                    meters().shards().stored(envelope.pubsubTopic());
                }
            }
            duplicates += rows.size() - stored.size() - (refused[0] - refusedBeforeNow);
            sequence++;
            meters().committed(stored.size(), start);
        }
        meters().taken(stored.size(), duplicates, ephemeral);
        meters().tooOld().increment(withoutTimestamp);
        meters().futureTimestamp().increment(beyondPartitions);
        recovered();
        insertedBefore.clear();
        refusedBefore.clear();
        return new CommittedBatch(stored, duplicates, ephemeral, withoutTimestamp + beyondPartitions + refused[0],
                System.nanoTime());
    }

    /**
     * Inserts {@code rows} in one transaction; when the database refuses them for a reason retrying cannot change,
     * in halves ({@link SplitInsert}), adding the rows it refused to {@code refused[0]}.
     *
     * @throws SQLException a failure that waiting may cure: the batch is retried (what a split did is remembered)
     */
    private Set<MessageHash> insertOrSplit(List<Envelope> rows, int[] refused) throws SQLException {
        try {
            return insert(rows);
        } catch (SQLException e) {
            if (!SqlErrors.isPermanent(e)) {
                throw e;
            }
            refreshPartitions = true; // a partition that could not be made may have been made by another node
            SplitInsert split = new SplitInsert(this::insert, this::refuse);
            try {
                split.run(rows);
            } catch (SQLException | RuntimeException cutShort) {
                insertedBefore.addAll(split.inserted());
                refusedBefore.addAll(split.refusedHashes());
                throw cutShort;
            }
            refused[0] += split.refusedHashes().size();
            log.atInfo().addKeyValue("messages", rows.size()).addKeyValue("reason", SqlErrors.describe(e))
                    .addKeyValue("transactions", split.transactions()).addKeyValue("stored", split.inserted().size())
                    .addKeyValue("refused", split.refusedHashes().size())
                    .log("archive: PostgreSQL refused a batch; written again in smaller transactions");
            return new HashSet<>(split.inserted());
        }
    }

    /** A message the database will never take: skipped, counted and named, so that the rest of the archive goes on. */
    private void refuse(Envelope envelope, SQLException why) {
        refusedMessages.increment();
        log.atWarn().addKeyValue("hash", String.valueOf(envelope.hash())).addKeyValue("topic", envelope.pubsubTopic())
                .addKeyValue("reason", SqlErrors.describe(why))
                .log("archive: PostgreSQL refused a message for a reason retrying cannot change; it is not archived, "
                        + "and the rest of its batch is");
    }

    private Set<MessageHash> insert(List<Envelope> rows) throws SQLException {
        try (Connection connection = pool.connection()) {
            if (refreshPartitions) {
                partitions.refresh(connection);
                refreshPartitions = false;
            }
            for (Envelope envelope : rows) {
                long timestamp = envelope.message().timestamp();
                if (!partitions.covers(timestamp)) {
                    partitions.ensure(connection, timestamp);
                }
            }
            connection.setAutoCommit(false);
            try {
                if (lz4) {
                    // a payload is hex text, TOASTed: lz4 compresses it three times faster than the default pglz
                    // (docs/adr/0062); a session setting, so that the schema stays nwaku's
                    try (java.sql.Statement statement = connection.createStatement()) {
                        statement.execute("SET LOCAL default_toast_compression = lz4");
                    }
                }
                Set<MessageHash> inserted = insert.insert(connection, rows);
                connection.commit();
                return inserted;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(connection);
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException lost) {
            // the connection is gone; the pool drops it
        }
    }

    private static String describe(Exception e) {
        return e instanceof SQLException sql ? SqlErrors.describe(sql) : String.valueOf(e.getMessage());
    }

    @Override
    public long writtenSequence() {
        return sequence;
    }

    /** A batch is durable once its transaction committed. */
    @Override
    public long durableSequence() {
        return sequence;
    }

    @Override
    public void makeDurableWithin(long delayNanos) {
        // every commit is durable when it returns
    }

    /** A commit in progress ends within the statement timeout (plus the socket margin) at most. */
    @Override
    protected Duration closeWait() {
        return config.statementTimeout().plus(CLOSE_MARGIN);
    }
}
