package io.wakurelay.p2p.nat;

import java.util.Locale;
import java.util.Objects;

/**
 * A port of this host that the gateway is asked to forward, at the same number outside when the gateway allows it.
 *
 * @param protocol     TCP or UDP
 * @param internalPort the port this host listens on
 */
public record NatPort(Protocol protocol, int internalPort) {
    public enum Protocol {
        TCP, UDP;

        /** The metric label and log name: {@code tcp}, {@code udp}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public NatPort {
        Objects.requireNonNull(protocol, "protocol");
        if (internalPort < 1 || internalPort > 0xffff) {
            throw new IllegalArgumentException("a port to map is 1..65535, was " + internalPort
                    + " (a port the system picks, 0, cannot be mapped before it is bound)");
        }
    }

    public static NatPort tcp(int port) {
        return new NatPort(Protocol.TCP, port);
    }

    public static NatPort udp(int port) {
        return new NatPort(Protocol.UDP, port);
    }

    @Override
    public String toString() {
        return protocol + " " + internalPort;
    }
}
