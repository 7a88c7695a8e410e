package io.wakurelay.p2p.nat;

/**
 * A port the gateway forwards to this host.
 *
 * @param port         the port of this host
 * @param externalPort the port peers reach it at, on the gateway's external address
 * @param ours         whether this host made the mapping (it renews it and deletes it at shutdown); false for one
 *                     that was there already, made by hand or by another program, which is left as it is
 */
public record MappedPort(NatPort port, int externalPort, boolean ours) {
    @Override
    public String toString() {
        return port.protocol() + " " + externalPort + " -> " + port.internalPort() + (ours ? "" : " (not ours)");
    }
}
