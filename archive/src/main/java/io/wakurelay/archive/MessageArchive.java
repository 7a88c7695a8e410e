package io.wakurelay.archive;

import io.wakurelay.protocol.Envelope;
import reactor.core.publisher.Flux;

import java.util.Collection;
import java.util.Optional;

/**
 * The message archive, whatever stores it: every non-ephemeral message the node accepted, written in batches by one
 * writer with backpressure, queried with Store v3 semantics and trimmed by a retention policy (docs/archive.md). The
 * node's writer pipeline, Store v3 (REST and libp2p), retention, health and metrics see only this interface; the
 * backends are the embedded RocksDB ({@code io.wakurelay.archive.rocksdb}, the default) and PostgreSQL with nwaku's
 * schema ({@code io.wakurelay.archive.postgres}), opened by {@code io.wakurelay.archive.backends.ArchiveBackends}.
 *
 * <p>Thread-safe: {@link #write} runs on the archive's writer thread; queries run on the caller's thread and block on
 * the store's reads (call them from a thread that may block).
 */
public interface MessageArchive extends AutoCloseable {

    /**
     * Archives the envelopes of {@code envelopes}, subscribing to it once per subscription of the result.
     *
     * <p>Ownership: the archive takes one reference of every envelope the stream emits (and of every envelope an
     * operator of the stream discards) and releases it exactly once: after its batch was committed, or when it was a
     * duplicate or not archived (ephemeral), or when the stream ends early (cancel, close, error).
     *
     * <p>Backpressure: at most {@link CoreConfig#maxPendingMessages()} envelopes are requested and not yet
     * committed; upstream is asked for more only as batches commit. The result emits one {@link CommittedBatch} per
     * batch, on the writer thread (do not block in its subscriber), and only when requested: a subscriber that stops
     * requesting also pauses the writer. An emitted batch is durable as the backend promises (RocksDB: its
     * {@link Durability}; PostgreSQL: the transaction committed). When the store refuses a write (a full disk, a
     * database that is down), the batch is held and retried with backoff, nothing is emitted or dropped, and upstream
     * stays paused until a write succeeds. The result completes when the stream completed and everything was
     * committed; it fails with the stream's error after committing what was received, or with
     * {@link ArchiveClosedException} when the archive is closed first. One write stream at a time: a second
     * concurrent subscription fails with {@link IllegalStateException}.
     */
    Flux<CommittedBatch> write(Flux<Envelope> envelopes);

    /**
     * Registers the per-shard message count ({@code waku_archive_messages_per_shard}) of each of {@code pubsubTopics}
     * at 0, so that a dashboard shows 0 rather than no data before their first message.
     */
    void expectTopics(Collection<String> pubsubTopics);

    /**
     * Runs one Store v3 query (see {@link StoreQuery}): a page without a byte budget, read whole.
     *
     * @throws InvalidQueryException   when the cursor is not a stored message
     * @throws ArchiveClosedException  after {@link #close()}
     * @throws ArchiveStorageException when the store fails to read
     */
    default StoreResponse query(StoreQuery query) {
        try (StorePage page = openPage(query, Long.MAX_VALUE)) {
            java.util.List<StoredMessage> results = new java.util.ArrayList<>(page.size());
            page.forEachRemaining(results::add);
            return new StoreResponse(results, page.paginationCursor());
        }
    }

    /**
     * Opens one page of a Store v3 query, to be read message by message ({@link StorePage}); with data, the page ends
     * early, with a cursor, once its messages' stored bytes would pass {@code maxPageBytes} (its first message is
     * always in). The caller must close the page. The query latency metric records the time the archive spent on it,
     * from opening to closing, the time between reads not counted.
     *
     * @throws InvalidQueryException   when the cursor is not a stored message
     * @throws ArchiveClosedException  after {@link #close()}
     * @throws ArchiveStorageException when the store fails to read
     */
    StorePage openPage(StoreQuery query, long maxPageBytes);

    /**
     * Messages stored. RocksDB: exact and persistent. PostgreSQL: the database's count (every node of a fleet
     * included), as last counted: at open, after each retention pass and every minute.
     */
    long messageCount();

    /**
     * RocksDB: bytes of stored messages, the sum of their WakuMessage encodings as received (not the disk usage).
     * PostgreSQL: the disk size of the message tables and their indexes.
     */
    long storedBytes();

    /** Envelopes taken from the write stream and not yet committed. */
    int pendingMessages();

    /** Open and able to write: false while the store refuses writes (a full disk, a database that is down) and after close. */
    boolean healthy();

    /** The last write failure the store reported (kept after recovery, for diagnosis). */
    Optional<String> lastWriteError();

    /**
     * Runs a retention pass now and waits for it (the periodic passes run every
     * {@link CoreConfig#retentionInterval()} anyway).
     *
     * @throws ArchiveStorageException when the store refused a deletion
     * @throws ArchiveClosedException  when the archive is closed
     * @throws IllegalStateException   on the archive's writer thread (in a CommittedBatch subscriber)
     */
    RetentionRun applyRetention();

    ArchiveConfig config();

    /**
     * Ends the write stream (queued envelopes are released, not written), waits for the batch being committed, stops
     * retention and the writer, closes open store pages and the store, and removes the meters. Idempotent. Not from a
     * CommittedBatch subscriber (the writer thread): {@link IllegalStateException}.
     */
    @Override
    void close();
}
