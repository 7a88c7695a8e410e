package io.wakurelay.archive;

import io.wakurelay.protocol.MessageHash;

import java.util.List;

/**
 * One page of results, always in chronological order (timestamp, then hash), also for backward queries, as
 * nwaku returns them.
 *
 * @param paginationCursor the hash to pass as the next query's cursor; null when there are no more results
 */
public record StoreResponse(List<StoredMessage> messages, MessageHash paginationCursor) {
    public StoreResponse {
        messages = List.copyOf(messages);
    }
}
