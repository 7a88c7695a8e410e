package io.wakurelay.discovery.discv5;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/** A real discv5 service on 127.0.0.1 with its own key and a record naming its UDP port, for the tests. */
final class LocalDiscv5Node implements AutoCloseable {

    final PrivateKey key;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final Discv5Metrics metrics = new Discv5Metrics(registry);
    final Discv5Service service;
    private final AtomicReference<Enr> record = new AtomicReference<>();

    LocalDiscv5Node(List<Enr> bootstrap) throws InterruptedException {
        this(bootstrap, UnaryOperator.identity());
    }

    LocalDiscv5Node(List<Enr> bootstrap, UnaryOperator<Discv5Config> tune) throws InterruptedException {
        this(PrivateKey.generateSecp256k1(), bootstrap, tune);
    }

    LocalDiscv5Node(PrivateKey key, List<Enr> bootstrap, UnaryOperator<Discv5Config> tune)
            throws InterruptedException {
        this.key = key;
        Discv5Config config = tune.apply(Discv5Config.defaults(new InetSocketAddress("127.0.0.1", 0), List.of()));
        // the record names the port the socket got: the bootstrap nodes are given once it exists
        this.service = Discv5Service.start(config, key.raw(), record::get, metrics);
        record.set(recordAt(key, service.localAddress().getPort(), 1));
        service.addNodes(bootstrap);
    }

    static Enr recordAt(PrivateKey key, int udpPort, long seq) {
        return recordAt(key, "127.0.0.1", udpPort, seq);
    }

    static Enr recordAt(PrivateKey key, String ip4, int udpPort, long seq) {
        return EnrBuilder.of(key).announce(List.of(Multiaddr.parse("/ip4/" + ip4 + "/tcp/" + udpPort)))
                .udpPort(udpPort).build(seq);
    }

    void setRecord(Enr enr) {
        record.set(enr);
    }

    Enr record() {
        return record.get();
    }

    /** Packets of a kind this node sent ({@code ordinary}, {@code whoareyou}, {@code handshake}). */
    double sent(String kind) {
        return registry.get("waku.discv5.packets.out").tag("kind", kind).counter().count();
    }

    NodeEntry node() {
        return NodeEntry.of(record()).orElseThrow();
    }

    @Override
    public void close() {
        service.close();
        metrics.close();
    }
}
