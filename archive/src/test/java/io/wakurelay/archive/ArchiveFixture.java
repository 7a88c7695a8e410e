package io.wakurelay.archive;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import reactor.core.publisher.Flux;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Small-memory archives in a temp dir, and helpers to write and read them in tests. */
final class ArchiveFixture {
    private ArchiveFixture() {
    }

    /** Retention none, 16 MiB cache, 4 MiB memtables: small, so that many tests fit in a few seconds. */
    static ArchiveConfig config(Path dir) {
        return ArchiveConfig.defaults(dir)
                .toBuilder().retention(new RetentionPolicy.None())
                .blockCacheBytes(16L << 20).writeBufferBytes(4L << 20)
                .maxBatchMessages(64).maxBatchDelay(Duration.ofMillis(2)).maxPendingMessages(256).build();
    }

    static MessageArchive open(Path dir) {
        return MessageArchive.open(config(dir), new SimpleMeterRegistry());
    }

    /** Writes every envelope and waits for the stream to complete. */
    static List<CommittedBatch> writeAll(MessageArchive archive, List<Envelope> envelopes) {
        List<CommittedBatch> batches = archive.write(Flux.fromIterable(envelopes)).collectList().block(Duration.ofSeconds(60));
        return batches == null ? List.of() : batches;
    }

    static List<MessageHash> stored(List<CommittedBatch> batches) {
        List<MessageHash> hashes = new ArrayList<>();
        batches.forEach(b -> hashes.addAll(b.stored()));
        return hashes;
    }

    /** Every page of {@code query}, following the cursors. */
    static List<StoredMessage> allPages(MessageArchive archive, StoreQuery query) {
        List<StoredMessage> all = new ArrayList<>();
        StoreQuery next = query;
        for (int pages = 0; pages < 1_000_000; pages++) {
            StoreResponse page = archive.query(next);
            List<StoredMessage> messages = new ArrayList<>(page.messages());
            if (!query.ascending()) {
                // pages come in chronological order; backward paging walks them newest first
                java.util.Collections.reverse(messages);
            }
            all.addAll(messages);
            if (page.paginationCursor() == null) {
                return all;
            }
            next = next.withCursor(page.paginationCursor());
        }
        throw new AssertionError("paging did not end");
    }

    static List<MessageHash> hashes(List<StoredMessage> messages) {
        return messages.stream().map(StoredMessage::hash).toList();
    }
}
