package io.wakurelay.relay;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.crypto.PeerId;

import java.util.List;

/**
 * A relay peer as the router sees it (the admin API shows it).
 *
 * @param topics      the topics the peer subscribes to
 * @param meshTopics  the topics whose mesh it is in
 * @param relayStream true once this node's relay stream to it is open
 * @param queuedBytes bytes written to it and not yet taken by its connection
 * @param drops       RPCs not sent to it because its queue was full
 */
public record RelayPeer(PeerId peerId, Connection connection, double score, List<String> topics,
                        List<String> meshTopics, boolean relayStream, long queuedBytes, long drops) {
}
