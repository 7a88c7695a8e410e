package io.wakurelay.services.peerexchange;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;

import java.net.InetSocketAddress;
import java.time.Duration;

/** A host on its own loopback address, for the peer exchange wire's tests. */
final class PxPeer implements AutoCloseable {
    final Host host;
    final PrivateKey key = PrivateKey.generateSecp256k1();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    PxPeer(int index) {
        this(index, 200);
    }

    PxPeer(int index, int maxConnections) {
        host = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0." + (index + 2), 0))
                .maxConnections(maxConnections).handshakeTimeout(Duration.ofSeconds(5)).build(), key, registry);
    }

    Multiaddr address() {
        return host.listenAddresses().get(0);
    }

    void connectTo(PxPeer other) {
        host.dial(other.address()).block(Duration.ofSeconds(10));
    }

    @Override
    public void close() {
        host.close();
    }
}
