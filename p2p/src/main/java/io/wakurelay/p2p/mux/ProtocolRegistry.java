package io.wakurelay.p2p.mux;

import io.wakurelay.p2p.connection.ProtocolHandler;

/** The protocols this node serves, as the muxer sees them when the peer opens a stream. */
public interface ProtocolRegistry {
    /** The handler of {@code protocol}, or null when this node does not serve it. */
    ProtocolHandler handler(String protocol);
}
