package io.wakurelay.relay;

import io.wakurelay.p2p.Connection;
import io.wakurelay.p2p.crypto.PeerId;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** What the router knows of one connected relay peer. Mutable fields are guarded by the router's lock. */
final class PeerState {
    /** IDONTWANT ids remembered per peer (the most recent ones). */
    static final int MAX_DONT_WANT = 4096;

    final PeerId id;
    final Connection connection;
    final boolean outbound;
    final InetAddress address;
    final PeerSender sender;
    final PeerScore score;
    final Set<String> topics = new HashSet<>();
    final Map<String, Long> backoffUntilNanos = new HashMap<>();
    final Set<MessageId> dontWant = new LinkedHashSet<>();
    /** The relay stream the peer opened to this node; read and written on the connection's event loop only. */
    RelayStreamReader inbound;
    int iHaveMessagesThisHeartbeat;
    int iHaveIdsRequestedThisHeartbeat;

    PeerState(PeerId id, Connection connection, InetAddress address, PeerSender sender, PeerScore score) {
        this.id = id;
        this.connection = connection;
        this.outbound = connection != null && connection.isOutbound();
        this.address = address;
        this.sender = sender;
        this.score = score;
    }

    boolean inBackoff(String topic, long nowNanos) {
        Long until = backoffUntilNanos.get(topic);
        return until != null && nowNanos < until;
    }

    void backoff(String topic, long untilNanos) {
        backoffUntilNanos.merge(topic, untilNanos, Math::max);
    }

    void dontWant(MessageId id) {
        if (dontWant.add(id) && dontWant.size() > MAX_DONT_WANT) {
            var oldest = dontWant.iterator();
            oldest.next();
            oldest.remove();
        }
    }

    @Override
    public String toString() {
        return id.toString();
    }
}
