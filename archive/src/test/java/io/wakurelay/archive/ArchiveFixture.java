package io.wakurelay.archive;

import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import reactor.core.publisher.Flux;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Helpers to write and read archives of any backend in tests. */
public final class ArchiveFixture {
    private ArchiveFixture() {
    }

    /** Writes every envelope and waits for the stream to complete. */
    public static List<CommittedBatch> writeAll(MessageArchive archive, List<Envelope> envelopes) {
        List<CommittedBatch> batches = archive.write(Flux.fromIterable(envelopes)).collectList().block(Duration.ofSeconds(60));
        return batches == null ? List.of() : batches;
    }

    public static List<MessageHash> stored(List<CommittedBatch> batches) {
        List<MessageHash> hashes = new ArrayList<>();
        batches.forEach(b -> hashes.addAll(b.stored()));
        return hashes;
    }

    /** Every page of {@code query}, following the cursors. */
    public static List<StoredMessage> allPages(MessageArchive archive, StoreQuery query) {
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

    public static List<MessageHash> hashes(List<StoredMessage> messages) {
        return messages.stream().map(StoredMessage::hash).toList();
    }
}
