package io.wakurelay.archive;

import io.wakurelay.protocol.MessageHash;

import java.util.List;

/**
 * The acknowledgement of one batch taken from the write stream: what was stored (durable as the backend promises once
 * this is emitted), and how many envelopes were not stored because they were duplicates, ephemeral, or (PostgreSQL,
 * whose nwaku schema keys a message by its own timestamp) without a timestamp.
 *
 * @param withoutTimestamp envelopes not stored because their message has no timestamp: PostgreSQL only, as nwaku
 *                         refuses them too; always 0 with RocksDB, which indexes them by their receive time. With
 *                         PostgreSQL also those with a timestamp no partition can hold, and those the database
 *                         refused for a reason retrying cannot change (docs/archive.md)
 * @param committedAtNanos {@link System#nanoTime()} when the batch was acknowledged: right after its commit with a
 *                         WAL or PostgreSQL, after the flush that wrote it with {@link Durability#FLUSH}
 */
public record CommittedBatch(List<MessageHash> stored, int duplicates, int ephemeralSkipped, int withoutTimestamp,
                             long committedAtNanos) {
    public CommittedBatch {
        stored = List.copyOf(stored);
    }

    public CommittedBatch(List<MessageHash> stored, int duplicates, int ephemeralSkipped, long committedAtNanos) {
        this(stored, duplicates, ephemeralSkipped, 0, committedAtNanos);
    }

    /** This acknowledgement, stamped with the time it is sent. */
    public CommittedBatch acknowledgedAt(long nanos) {
        return new CommittedBatch(stored, duplicates, ephemeralSkipped, withoutTimestamp, nanos);
    }

    /** Envelopes this batch took from the stream, stored or not. */
    public int envelopes() {
        return stored.size() + duplicates + ephemeralSkipped + withoutTimestamp;
    }
}
