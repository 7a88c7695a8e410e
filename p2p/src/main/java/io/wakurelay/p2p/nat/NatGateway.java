package io.wakurelay.p2p.nat;

import java.net.InetAddress;

/** A gateway found on the local network that maps ports: a UPnP Internet Gateway Device, or a NAT-PMP gateway. */
interface NatGateway {
    /** {@code upnp} or {@code pmp}: the metric label and log name. */
    String protocol();

    /** Where the gateway is, for the log. */
    String describe();

    /** The gateway's external (public) IPv4 address. */
    InetAddress externalAddress() throws NatException;

    /**
     * Asks the gateway to forward {@code externalPort} to {@code port} of this host.
     *
     * @return the mapping as the gateway made it (NAT-PMP may give another external port)
     */
    MappedPort map(NatPort port, int externalPort) throws NatException;

    /** Asks the gateway to forget the mapping. */
    void unmap(MappedPort mapped) throws NatException;
}
