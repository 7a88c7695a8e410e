package io.wakurelay.p2p.multiaddr;

import java.util.Objects;

/**
 * One protocol of a multiaddr and its value in canonical text (the empty string for a protocol without one),
 * e.g. {@code (TCP, "4001")}, {@code (P2P, "16Uiu2…")}, {@code (QUIC_V1, "")}.
 */
public record Component(Protocol protocol, String value) {

    public Component {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
        return protocol.hasValue() ? "/" + protocol.protocolName() + "/" + value : "/" + protocol.protocolName();
    }
}
