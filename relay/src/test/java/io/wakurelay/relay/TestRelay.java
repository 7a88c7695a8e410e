package io.wakurelay.relay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.TestMessages;
import reactor.core.Disposable;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A relay on an ephemeral loopback port, its own meter registry, and a consumer that records what it accepted. */
final class TestRelay implements AutoCloseable {
    static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress("127.0.0.1", 0);

    final Relay relay;
    final SimpleMeterRegistry registry;
    final PathCounters counters;
    private final Map<MessageHash, AtomicInteger> accepted = new ConcurrentHashMap<>();
    private final Disposable consumer;

    private TestRelay(RelayConfig config, boolean consume) {
        this.registry = new SimpleMeterRegistry();
        this.counters = new PathCounters();
        this.relay = Relay.start(config, counters, registry);
        this.consumer = consume ? relay.accepted().subscribe(this::record) : null;
    }

    /** Fast test settings: short handshake timeout and reconnect backoff, everything else at its default. */
    static RelayConfig config(String nodeId) {
        return RelayConfig.defaults(nodeId, ANY_LOOPBACK_PORT)
                .withHandshakeTimeout(Duration.ofSeconds(2))
                .withReconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500));
    }

    static TestRelay start(RelayConfig config) {
        return new TestRelay(config, true);
    }

    /** A relay whose accepted() the test subscribes itself. */
    static TestRelay startWithoutConsumer(RelayConfig config) {
        return new TestRelay(config, false);
    }

    private void record(Envelope envelope) {
        try {
            accepted.computeIfAbsent(envelope.hash(), h -> new AtomicInteger()).incrementAndGet();
        } finally {
            envelope.release();
        }
    }

    InetSocketAddress address() {
        return relay.boundAddress();
    }

    String nodeId() {
        return relay.nodeId();
    }

    PublishResult publish(WakuMessage message) {
        return relay.publish(TestMessages.PUBSUB_TOPIC, message).block(Duration.ofSeconds(10));
    }

    int timesAccepted(MessageHash hash) {
        AtomicInteger count = accepted.get(hash);
        return count == null ? 0 : count.get();
    }

    Set<MessageHash> acceptedHashes() {
        return Set.copyOf(accepted.keySet());
    }

    Map<MessageHash, Integer> acceptedCounts() {
        Map<MessageHash, Integer> counts = new ConcurrentHashMap<>();
        accepted.forEach((hash, count) -> counts.put(hash, count.get()));
        return counts;
    }

    boolean connectedTo(TestRelay other) {
        return peerIds().contains(other.nodeId());
    }

    List<String> peerIds() {
        return relay.peers().stream().map(PeerInfo::nodeId).toList();
    }

    double counter(String name, String... tags) {
        Counter counter = registry.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    double gauge(String name, String... tags) {
        Gauge gauge = registry.find(name).tags(tags).gauge();
        return gauge == null ? 0 : gauge.value();
    }

    @Override
    public void close() {
        relay.close();
        if (consumer != null) {
            consumer.dispose();
        }
        registry.close();
    }
}
