package io.wakurelay.archive;

import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;

import java.util.Objects;

/**
 * One query result.
 *
 * @param timestamp   the index timestamp: the message's own, or the receive time when it has none (Unix ns)
 * @param pubsubTopic null unless the query asked for data
 * @param message     the message parsed from the stored bytes; null unless the query asked for data
 */
public record StoredMessage(MessageHash hash, long timestamp, String pubsubTopic, WakuMessage message) {
    public StoredMessage {
        Objects.requireNonNull(hash, "hash");
    }
}
