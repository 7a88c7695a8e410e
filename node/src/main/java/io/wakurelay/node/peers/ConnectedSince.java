package io.wakurelay.node.peers;

import io.wakurelay.p2p.ConnectionListener;
import io.wakurelay.p2p.connection.Connection;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each of the host's connections was established, so that pruning drops the newest first (as nwaku disconnects
 * the relay peer whose arrival went past the inbound target). One entry per open connection: removed as it closes,
 * so at most {@code --max-connections}.
 */
final class ConnectedSince implements ConnectionListener {
    private final Map<Connection, Long> since = new ConcurrentHashMap<>();

    @Override
    public void onConnected(Connection connection) {
        since.put(connection, System.nanoTime());
    }

    @Override
    public void onDisconnected(Connection connection) {
        since.remove(connection);
    }

    int size() {
        return since.size();
    }

    /** Newest first; a connection made before this listener was added counts as the oldest. */
    Comparator<Connection> newestFirst() {
        return Comparator.comparingLong((Connection c) -> since.getOrDefault(c, Long.MIN_VALUE)).reversed();
    }
}
