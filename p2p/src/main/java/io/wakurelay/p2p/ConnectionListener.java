package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;

/**
 * Hears of the host's connections (the relay opens its streams here). Called on the connection's event loop; must
 * not block.
 */
public interface ConnectionListener {
    /** A connection was established and registered (one per peer). */
    default void onConnected(Connection connection) {
    }

    /** identify told what the peer is: its protocols, agent and addresses. */
    default void onIdentified(Connection connection, PeerRecord peer) {
    }

    /** A registered connection closed. */
    default void onDisconnected(Connection connection) {
    }
}
