package io.wakurelay.p2p.connection;

import io.wakurelay.p2p.multiaddr.Multiaddr;

/**
 * How a connection's bytes travel under libp2p's own upgrade: a TCP socket, or WebSocket binary frames on one (plain,
 * or inside TLS). The same upgrade (multistream-select, Noise, a muxer) runs on each; {@link #label()} is the
 * {@code transport} label of the host's metrics.
 */
public enum Transport {
    TCP("tcp", ""),
    WS("ws", "/ws"),
    WSS("wss", "/wss");

    private final String label;
    private final String suffix;

    Transport(String label, String suffix) {
        this.label = label;
        this.suffix = suffix;
    }

    /** The metric label: {@code tcp}, {@code ws} or {@code wss}. */
    public String label() {
        return label;
    }

    /** The transport of a dialable address ({@link Multiaddr#isTcp()} or {@link Multiaddr#isWebSocket()}). */
    public static Transport of(Multiaddr address) {
        if (address.isSecureWebSocket()) {
            return WSS;
        }
        return address.isWebSocket() ? WS : TCP;
    }

    /** {@code address} (host and {@code /tcp}) with this transport's components after it. */
    public Multiaddr on(Multiaddr address) {
        return suffix.isEmpty() ? address : address.encapsulate(suffix);
    }
}
