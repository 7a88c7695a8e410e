package io.wakurelay.node.peers;

import io.wakurelay.node.peers.PeerManagerMetrics.Kind;
import io.wakurelay.p2p.connection.Connection;
import java.util.List;
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

    ConnectionPruner(PeerTargets targets, PeerManagerMetrics metrics) {
        this.targets = targets;
        this.metrics = metrics;
    }

    /** Closes what is over the targets in {@code census}; returns how many connections it closed. */
    int prune(PeerCensus census) {
        return prune(census.inRelayPrunable(), census.inRelay() - targets.inRelay(), Kind.IN_RELAY)
                + prune(census.servicePrunable(), census.service() - targets.service(), Kind.SERVICE);
    }

    private int prune(List<Connection> newestFirst, int excess, Kind kind) {
        int n = Math.min(excess, newestFirst.size());
        for (int i = 0; i < n; i++) {
            Connection c = newestFirst.get(i);
            log.info("peer manager: disconnecting {} ({}): more {} peers than the target", c.remotePeer(),
                    c.remoteAddress(), kind.label);
            metrics.pruned(kind);
            c.close();
        }
        return Math.max(n, 0);
    }
}
