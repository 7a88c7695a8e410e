package io.wakurelay.node.peers;

import io.wakurelay.node.peers.PeerManagerMetrics.Kind;
import io.wakurelay.p2p.connection.Connection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * nwaku's {@code pruneInRelayConns}: inbound relay peers beyond the inbound target are disconnected, and so are
 * inbound service peers beyond the service target; the newest first (nwaku disconnects the relay peer whose arrival
 * went past the target). Outbound connections (this node's own choice) and static peers are never pruned.
 */
final class ConnectionPruner {
    private static final Logger log = LoggerFactory.getLogger(ConnectionPruner.class);

    private final PeerTargets targets;
    private final PeerManagerMetrics metrics;
    /** Closed by this pruner and not yet gone (a close is asynchronous): not counted, not closed again. */
    private final Set<Connection> closing = ConcurrentHashMap.newKeySet();

    ConnectionPruner(PeerTargets targets, PeerManagerMetrics metrics) {
        this.targets = targets;
        this.metrics = metrics;
    }

    /** Whether {@code c} is being closed by this pruner (a census leaves it out). */
    boolean closing(Connection c) {
        return closing.contains(c);
    }

    /** {@code c} is gone. At most {@code --max-connections} are ever closing. */
    void gone(Connection c) {
        closing.remove(c);
    }

    /** Closes what is over the targets in {@code census}; returns how many connections it closed. */
    int prune(PeerCensus census) {
        closing.removeIf(c -> !c.isOpen()); // in case a close was not heard of
        return prune(census.inRelayPrunable(), census.inRelay() - targets.inRelay(), Kind.IN_RELAY)
                + prune(census.servicePrunable(), census.service() - targets.service(), Kind.SERVICE);
    }

    private int prune(List<Connection> newestFirst, int excess, Kind kind) {
        int n = Math.min(excess, newestFirst.size());
        for (int i = 0; i < n; i++) {
            Connection c = newestFirst.get(i);
            log.atInfo().addKeyValue("peer", String.valueOf(c.remotePeer())).addKeyValue("address", String.valueOf(c.remoteAddress()))
                    .addKeyValue("kind", kind.label).log("peer manager: disconnecting a peer: more peers of its kind than the target");
            metrics.pruned(kind);
            closing.add(c);
            c.close();
        }
        return Math.max(n, 0);
    }
}
