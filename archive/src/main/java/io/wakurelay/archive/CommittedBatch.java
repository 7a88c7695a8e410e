package io.wakurelay.archive;

import io.wakurelay.protocol.MessageHash;

import java.util.List;

/**
 * The acknowledgement of one batch taken from the write stream: what was stored (durable in the WAL once this
 * is emitted), and how many envelopes were not stored because they were duplicates or ephemeral.
 *
 * @param committedAtNanos {@link System#nanoTime()} when the commit returned
 */
public record CommittedBatch(List<MessageHash> stored, int duplicates, int ephemeralSkipped, long committedAtNanos) {
    public CommittedBatch {
        stored = List.copyOf(stored);
    }

    /** Envelopes this batch took from the stream, stored or not. */
    public int envelopes() {
        return stored.size() + duplicates + ephemeralSkipped;
    }
}
