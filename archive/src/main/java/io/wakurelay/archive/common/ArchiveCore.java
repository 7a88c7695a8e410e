package io.wakurelay.archive.common;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.RetentionRun;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.protocol.Envelope;
import reactor.core.publisher.Flux;

import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

/**
 * What every backend's {@link MessageArchive} does the same, so that a backend writes only what its store does: the
 * write stream through the {@link TimestampWindow} into its {@link SingleWriter}; the shards expected; a page's
 * arguments checked and its time recorded; health from the writer (and the store, where it is checked apart);
 * retention and close refused on the writer thread; close once. A backend hands over its writer and meters, opens a
 * page ({@link #open}), runs a retention pass ({@link #retain}) and closes its store ({@link #closeStore}).
 */
public abstract class ArchiveCore implements MessageArchive {
    private final ArchiveConfig config;
    private final ArchiveMeters meters;
    private final SingleWriter writer;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param meters the meters every backend serves, the backend's own registered on them; closed by the backend
     * @param writer the backend's writer; closed by the backend
     */
    protected ArchiveCore(ArchiveConfig config, ArchiveMeters meters, SingleWriter writer) {
        this.config = Objects.requireNonNull(config, "config");
        this.meters = Objects.requireNonNull(meters, "meters");
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    /**
     * Opens a page of {@code query} whose messages take at most {@code maxPageBytes} (checked positive).
     *
     * @param busyNanos told the time the archive spent on the page, when it closes
     */
    protected abstract StorePage open(StoreQuery query, long maxPageBytes, LongConsumer busyNanos);

    /** Runs a retention pass now and waits for it; not on the writer thread. */
    protected abstract RetentionRun retain();

    /** Closes the store, its writer and what reads it, after {@link #close()} checked it is the first close. */
    protected abstract void closeStore();

    /** Whether the store answers where it is checked apart from writes (a database server); true by default. */
    protected boolean storeAnswers() {
        return true;
    }

    /**
     * Archives {@code envelopes} (see {@link MessageArchive#write}), without those whose timestamp is outside the
     * window of {@link io.wakurelay.archive.CoreConfig#timestampWindow()}: they are released and counted as they come.
     */
    @Override
    public final Flux<CommittedBatch> write(Flux<Envelope> envelopes) {
        Objects.requireNonNull(envelopes, "envelopes");
        return writer.write(new TimestampWindow(config.core().timestampWindow(), meters).apply(envelopes));
    }

    @Override
    public final void expectTopics(Collection<String> pubsubTopics) {
        pubsubTopics.forEach(meters.shards()::expect);
    }

    @Override
    public final StorePage openPage(StoreQuery query, long maxPageBytes) {
        Objects.requireNonNull(query, "query");
        if (maxPageBytes < 1) {
            throw new IllegalArgumentException("a page's byte budget must be positive, was " + maxPageBytes);
        }
        if (closed.get()) {
            throw new ArchiveClosedException("the archive is closed");
        }
        return open(query, maxPageBytes, meters.queryLatency(query.kind()));
    }

    @Override
    public final int pendingMessages() {
        return meters.pending();
    }

    /** Open and able to write: false while the store refuses writes, or does not answer its check, and after close. */
    @Override
    public final boolean healthy() {
        return !closed.get() && writer.writing() && storeAnswers();
    }

    @Override
    public Optional<String> lastWriteError() {
        return Optional.ofNullable(writer.lastWriteError());
    }

    @Override
    public final RetentionRun applyRetention() {
        writer.checkNotOnWriterThread("applyRetention()");
        return retain();
    }

    @Override
    public final ArchiveConfig config() {
        return config;
    }

    /** Whether {@link #close()} was called. */
    protected final boolean isClosed() {
        return closed.get();
    }

    @Override
    public final void close() {
        writer.checkNotOnWriterThread("close()");
        if (closed.compareAndSet(false, true)) {
            closeStore();
        }
    }
}
