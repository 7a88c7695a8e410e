package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Transport;

import java.net.InetSocketAddress;

/**
 * The host could not listen on one of its addresses (a port already in use, an address not on this machine): it
 * says which address and transport, so that whoever configured it can name the setting to change.
 */
public final class ListenFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient InetSocketAddress address;
    private final Transport transport;

    ListenFailedException(InetSocketAddress address, Transport transport, Throwable cause) {
        super("cannot listen on " + address.getHostString() + ":" + address.getPort() + " (" + transport.label() + "): "
                + (cause.getMessage() == null ? cause.toString() : cause.getMessage().replace("bind(..) failed with error(-98): ", "")),
                cause);
        this.address = address;
        this.transport = transport;
    }

    public InetSocketAddress address() {
        return address;
    }

    public Transport transport() {
        return transport;
    }
}
