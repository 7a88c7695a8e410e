package io.wakurelay.archive;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.time.Duration;
import java.util.Objects;

/**
 * What every archive backend shares, whatever stores the messages: which messages it keeps (its retention and its
 * timestamp window) and how it takes them from the node (batches and credits). Validated at construction: a bad value
 * is an {@link IllegalArgumentException} that names the field and the accepted range.
 *
 * @param retention          what to delete, see {@link RetentionPolicy#parse(String)}
 * @param retentionInterval  time between two retention passes
 * @param timestampWindow    a message whose timestamp is further than this from the time the node received it, either
 *                           way, is not archived (nwaku's archive window, {@code MaxMessageTimestampVariance}; the
 *                           node's {@code --max-clock-drift}); {@link Duration#ZERO}: archived whatever its timestamp.
 *                           A message without a timestamp is not judged by it
 * @param maxBatchMessages   envelopes per batch (one RocksDB WriteBatch, one PostgreSQL transaction) at most
 * @param maxBatchDelay      how long a batch that is not full waits for more envelopes (0: commit at once)
 * @param maxPendingMessages envelopes requested from upstream and not yet committed, at most
 */
@RecordBuilder
public record CoreConfig(RetentionPolicy retention, Duration retentionInterval, Duration timestampWindow,
                         int maxBatchMessages, Duration maxBatchDelay, int maxPendingMessages) {
    private static final int MAX_BATCH_MESSAGES_LIMIT = 10_000;
    private static final int MAX_PENDING_LIMIT = 1_000_000;
    private static final Duration MAX_BATCH_DELAY_LIMIT = Duration.ofSeconds(10);
    /** nwaku's {@code MaxMessageTimestampVariance} (waku/waku_archive/archive.nim). */
    public static final Duration NWAKU_TIMESTAMP_WINDOW = Duration.ofSeconds(20);

    /**
     * Every default: nwaku's two-day retention checked every five minutes, nwaku's 20 s timestamp window, batches of
     * at most 64 envelopes committed as soon as the writer is free (what arrives during a commit goes into the next:
     * ADR 0082), 256 envelopes in flight.
     */
    public static final CoreConfig DEFAULTS = new CoreConfig(new RetentionPolicy.Time(Duration.ofDays(2)),
            Duration.ofMinutes(5), NWAKU_TIMESTAMP_WINDOW, 64, Duration.ZERO, 256);

    public CoreConfig {
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(retentionInterval, "retentionInterval");
        Objects.requireNonNull(timestampWindow, "timestampWindow");
        Objects.requireNonNull(maxBatchDelay, "maxBatchDelay");
        if (retentionInterval.isNegative() || retentionInterval.isZero()) {
            throw new IllegalArgumentException("retentionInterval must be positive, was " + retentionInterval);
        }
        if (timestampWindow.isNegative()) {
            throw new IllegalArgumentException("the timestamp window (max clock drift) must not be negative, was " + timestampWindow);
        }
        if (maxBatchMessages < 1 || maxBatchMessages > MAX_BATCH_MESSAGES_LIMIT) {
            throw new IllegalArgumentException("maxBatchMessages must be 1.." + MAX_BATCH_MESSAGES_LIMIT + ", was " + maxBatchMessages);
        }
        if (maxBatchDelay.isNegative() || maxBatchDelay.compareTo(MAX_BATCH_DELAY_LIMIT) > 0) {
            throw new IllegalArgumentException("maxBatchDelay must be 0.." + MAX_BATCH_DELAY_LIMIT.toSeconds() + " s, was " + maxBatchDelay);
        }
        if (maxPendingMessages < maxBatchMessages || maxPendingMessages > MAX_PENDING_LIMIT) {
            throw new IllegalArgumentException("maxPendingMessages must be maxBatchMessages (" + maxBatchMessages + ").."
                    + MAX_PENDING_LIMIT + ", was " + maxPendingMessages);
        }
    }

    /**
     * Envelopes written and waiting for their acknowledgement, at most: eight times the envelopes in flight before
     * the write. It bounds the acknowledgements held (a hash each) while a flush runs; the bytes written and not yet
     * flushed are bounded by the store (RocksDB's memtable budget stalls writes above it).
     */
    public int maxUnacknowledged() {
        return 8 * maxPendingMessages;
    }

    public static CoreConfigBuilder builder() {
        return DEFAULTS.toBuilder();
    }

    public CoreConfigBuilder toBuilder() {
        return CoreConfigBuilder.builder(this);
    }
}
