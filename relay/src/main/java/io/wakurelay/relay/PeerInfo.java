package io.wakurelay.relay;

import java.time.Instant;
import java.util.Set;

/**
 * A snapshot of one connected peer (past the handshake).
 *
 * @param nodeId         the id the peer announced in its Hello
 * @param remoteAddress  the far end of the TCP connection, {@code host:port}
 * @param listenAddress  where the peer says it accepts connections (empty when it does not listen)
 * @param direction      {@code inbound} (it dialled us) or {@code outbound} (we dialled it)
 * @param topics         the pubsub topics the peer subscribes to
 * @param queuedMessages messages written to the peer and not yet taken by its socket
 * @param queuedBytes    bytes of those messages
 * @param drops          messages not sent to this peer because its queue was full
 * @param connectedSince when the handshake completed
 */
public record PeerInfo(String nodeId, String remoteAddress, String listenAddress, String direction, Set<String> topics,
                       long queuedMessages, long queuedBytes, long drops, Instant connectedSince) {
    public PeerInfo {
        topics = Set.copyOf(topics);
    }
}
