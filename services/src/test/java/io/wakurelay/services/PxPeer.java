package io.wakurelay.services;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/** A host with a secp256k1 key (so it has an ENR) on its own loopback address, and its record. */
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

    /** Its record: its listen address, in cluster {@code cluster} (negative: no shards field). */
    Enr record(int cluster) {
        EnrBuilder builder = EnrBuilder.of(key).announce(List.of(address().withoutPeerId()));
        if (cluster >= 0) {
            builder.shards(RelayShards.of(cluster, List.of(0)));
        }
        return builder.build(1);
    }

    void connectTo(PxPeer other) {
        host.dial(other.address()).block(Duration.ofSeconds(10));
    }

    @Override
    public void close() {
        host.close();
    }
}
