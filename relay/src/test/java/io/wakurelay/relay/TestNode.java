package io.wakurelay.relay;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.HostConfigBuilder;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.relay.validation.RelayValidator;
import reactor.core.Disposable;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One relay node for tests: a host on its own loopback address (so that IP colocation scoring sees distinct
 * peers, as on a real network) and a relay whose accepted messages are counted by hash and released.
 */
final class TestNode implements AutoCloseable {
    final Host host;
    final Relay relay;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final PathCounters counters = new PathCounters();
    final Map<MessageHash, AtomicInteger> received = new ConcurrentHashMap<>();
    private final Disposable consumer;

    TestNode(int index, RelayConfig config, PrivateKey key) {
        this(index, config, key, 0);
    }

    TestNode(int index, RelayConfig config, PrivateKey key, int port) {
        this(index, config, key, port, b -> b);
    }

    /** @param hostChanges changes to the host's config (e.g. a WebSocket listener) */
    TestNode(int index, RelayConfig config, PrivateKey key, int port, UnaryOperator<HostConfigBuilder> hostChanges) {
        this(index, config, key, port, hostChanges, null);
    }

    /** @param listener told every router event beside the metrics; null: none */
    TestNode(int index, RelayConfig config, PrivateKey key, int port, UnaryOperator<HostConfigBuilder> hostChanges,
             RouterEvents listener) {
        this(index, config, key, port, hostChanges, null, listener);
    }

    /** @param validator the relay's validator; null: none */
    TestNode(int index, RelayConfig config, RelayValidator validator) {
        this(index, config, PrivateKey.generateEd25519(), 0, b -> b, validator, null);
    }

    TestNode(int index, RelayConfig config, PrivateKey key, int port, UnaryOperator<HostConfigBuilder> hostChanges,
             RelayValidator validator, RouterEvents listener) {
        HostConfig hostConfig = hostChanges.apply(HostConfig.builder()
                .listenAddress(new InetSocketAddress("127.0.0." + (index + 2), port))
                .handshakeTimeout(Duration.ofSeconds(5))
                .pingInterval(Duration.ofSeconds(5))
                .redialMinBackoff(Duration.ofMillis(100)).redialMaxBackoff(Duration.ofSeconds(1)))
                .build();
        host = Host.start(hostConfig, key, registry);
        relay = Relay.start(config, host, counters, registry, validator, listener);
        consumer = relay.accepted().subscribe(this::take);
    }

    static RelayConfig fastConfig() {
        return RelayConfig.builder().gossip(GossipParams.DEFAULTS.toBuilder().heartbeat(Duration.ofMillis(100))
                .build()).build();
    }

    private void take(Envelope envelope) {
        try {
            received.computeIfAbsent(envelope.hash(), h -> new AtomicInteger()).incrementAndGet();
        } finally {
            envelope.release();
        }
    }

    Multiaddr address() {
        return host.listenAddresses().get(0);
    }

    int meshSize(String topic) {
        return relay.mesh().getOrDefault(topic, List.of()).size();
    }

    double relayedCopies() {
        return registry.find("waku.relay.messages.relayed").counter().count();
    }

    /** The count of the counter {@code name} (with {@code tag} = {@code value}, unless tag is null); 0 when absent. */
    double counter(String name, String tag, String value) {
        var search = registry.find(name);
        var c = (tag == null ? search : search.tag(tag, value)).counter();
        return c == null ? 0 : c.count();
    }

    @Override
    public void close() {
        relay.shutdown(Duration.ofSeconds(2)).block(Duration.ofSeconds(10));
        consumer.dispose();
        host.close();
    }
}
