package io.wakurelay.archive;

import io.wakurelay.protocol.MessageHash;

import java.util.List;

/**
 * The acknowledgement of one batch taken from the write stream: what was stored (durable as the archive's
 * {@link Durability} says once this is emitted), and how many envelopes were not stored because they were
 * duplicates or ephemeral.
 *
 * @param committedAtNanos {@link System#nanoTime()} when the batch was acknowledged: right after its commit with a
 *                         WAL, after the flush that wrote it with {@link Durability#FLUSH}
 */
public record CommittedBatch(List<MessageHash> stored, int duplicates, int ephemeralSkipped, long committedAtNanos) {
    public CommittedBatch {
        stored = List.copyOf(stored);
    }

    /** This acknowledgement, stamped with the time it is sent. */
    public CommittedBatch acknowledgedAt(long nanos) {
        return new CommittedBatch(stored, duplicates, ephemeralSkipped, nanos);
    }

    /** Envelopes this batch took from the stream, stored or not. */
    public int envelopes() {
        return stored.size() + duplicates + ephemeralSkipped;
    }
}
