package io.wakurelay.relay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.proto.Goodbye;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The relay's meters, named as docs/metrics.md ("Relay") lists them. Micrometer's dotted names become the
 * documented Prometheus names ({@code waku.relay.messages.accepted} is {@code waku_relay_messages_accepted_total}).
 * Meters with a free-form tag are created on first use and cached, so the hot path does no registry look-up.
 */
final class RelayMetrics {
    /** Invalid-message reason for a Publish on a topic this node does not subscribe to. */
    static final String NOT_SUBSCRIBED = "not_subscribed";
    /** Disconnect reason when the connection ended without a Goodbye. */
    static final String CLOSED = "closed";
    /** A connection refused because its address holds its limit of inbound connections (Goodbye TOO_MANY_CONNECTIONS). */
    static final String TOO_MANY_FROM_ADDRESS = "too_many_from_address";
    /** Rejection reason of a connection whose TLS handshake failed (plaintext peer, untrusted certificate, timeout). */
    static final String TLS = "tls";

    private final MeterRegistry registry;
    final Counter receivedFromPeers;
    final Counter receivedLocal;
    final Counter accepted;
    final Counter duplicates;
    final Counter relayed;
    final Counter bytesReceived;
    final Counter bytesSent;
    private final Timer propagation;
    private final Map<FrameKind, Counter> framesReceived = new EnumMap<>(FrameKind.class);
    private final Map<FrameKind, Counter> framesSent = new EnumMap<>(FrameKind.class);
    private final Map<String, Counter> invalid = new ConcurrentHashMap<>();
    private final Map<String, Counter> rejected = new ConcurrentHashMap<>();
    private final Map<String, Counter> disconnects = new ConcurrentHashMap<>();
    private final Map<String, Counter> rateLimited = new ConcurrentHashMap<>();

    RelayMetrics(MeterRegistry registry) {
        this.registry = registry;
        receivedFromPeers = Counter.builder("waku.relay.messages.received").tag("source", "peer")
                .description("messages that arrived: Publish frames from peers, and local publishes").register(registry);
        receivedLocal = Counter.builder("waku.relay.messages.received").tag("source", "local")
                .description("messages that arrived: Publish frames from peers, and local publishes").register(registry);
        accepted = Counter.builder("waku.relay.messages.accepted")
                .description("messages that passed validation and dedup").register(registry);
        duplicates = Counter.builder("waku.relay.messages.duplicate")
                .description("messages already seen (dropped by the seen-cache)").register(registry);
        relayed = Counter.builder("waku.relay.messages.relayed")
                .description("message copies sent to peers (one per peer per message)").register(registry);
        bytesReceived = Counter.builder("waku.relay.bytes.received")
                .description("bytes read from peer connections").register(registry);
        bytesSent = Counter.builder("waku.relay.bytes.sent")
                .description("bytes written to peer connections").register(registry);
        propagation = Timer.builder("waku.relay.propagation")
                .description("receive time minus the message's timestamp, for messages from peers")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        for (FrameKind kind : FrameKind.values()) {
            framesReceived.put(kind, Counter.builder("waku.relay.frames.received").tag("kind", kind.label())
                    .description("frames received, by kind").register(registry));
            framesSent.put(kind, Counter.builder("waku.relay.frames.sent").tag("kind", kind.label())
                    .description("frames sent, by kind").register(registry));
        }
        // registered up front: a dashboard shows a flat zero rather than no series until the first limit is hit
        for (String kind : List.of(PeerRateLimiter.PUBLISH_MESSAGES, PeerRateLimiter.PUBLISH_BYTES, PeerRateLimiter.CONTROL)) {
            rateLimited.put(kind, Counter.builder("waku.relay.rate.limited").tag("kind", kind)
                    .description("times a peer's rate limit acted: reading paused (publish_*) or the peer disconnected (control)")
                    .register(registry));
        }
    }

    void bindGauges(PeerRegistry peers, SeenCache seen, Supplier<Number> inboundPending) {
        for (Direction direction : Direction.values()) {
            Gauge.builder("waku.relay.peers.connected", () -> peers.connectedCount(direction))
                    .tag("direction", direction.label()).description("peers past the handshake").register(registry);
        }
        Gauge.builder("waku.relay.seen.cache.entries", seen::size)
                .description("message hashes held by the seen-cache").register(registry);
        FunctionCounter.builder("waku.relay.seen.cache.evictions", seen, SeenCache::evictedBeforeExpiry)
                .description("hashes forgotten for room before their TTL ran out").register(registry);
        Gauge.builder("waku.relay.inbound.pending", inboundPending)
                .description("accepted envelopes handed to local consumers and not yet taken").register(registry);
    }

    void frameReceived(FrameKind kind) {
        framesReceived.get(kind).increment();
    }

    void frameSent(FrameKind kind, int bytes) {
        framesSent.get(kind).increment();
        bytesSent.increment(bytes);
    }

    void invalid(String reason) {
        invalid.computeIfAbsent(reason, r -> Counter.builder("waku.relay.messages.invalid").tag("reason", r)
                .description("messages refused").register(registry)).increment();
    }

    void rejected(Goodbye.Reason reason) {
        rejected(label(reason));
    }

    void rejected(String reason) {
        rejected.computeIfAbsent(reason, r -> Counter.builder("waku.relay.connections.rejected").tag("reason", r)
                .description("connections refused").register(registry)).increment();
    }

    /** @param kind one of the {@link PeerRateLimiter} kinds */
    void rateLimited(String kind) {
        rateLimited.get(kind).increment();
    }

    void disconnected(String reason) {
        disconnects.computeIfAbsent(reason, r -> Counter.builder("waku.relay.peer.disconnects").tag("reason", r)
                .description("peer connections ended").register(registry)).increment();
    }

    void propagated(Envelope envelope) {
        long timestamp = envelope.message().timestamp();
        if (timestamp != 0) {
            // a peer clock ahead of ours gives a negative delay: it is recorded as zero rather than lost
            propagation.record(Math.max(0, envelope.receivedAtNanos() - timestamp), TimeUnit.NANOSECONDS);
        }
    }

    /** Registers the per-peer meters of {@code nodeId}; they read whichever session currently holds that id. */
    PeerMeters peerMeters(String nodeId, PeerRegistry peers) {
        Gauge messages = Gauge.builder("waku.relay.peer.queue.messages", () -> peers.queuedMessages(nodeId))
                .tag("peer", nodeId).description("messages queued for a peer, not yet written").register(registry);
        Gauge bytes = Gauge.builder("waku.relay.peer.queue.bytes", () -> peers.queuedBytes(nodeId))
                .tag("peer", nodeId).description("bytes queued for a peer").register(registry);
        Counter drops = Counter.builder("waku.relay.peer.drops").tag("peer", nodeId)
                .description("messages not sent to a slow peer because its queue was full").register(registry);
        return new PeerMeters(registry, drops, List.of(messages, bytes, drops));
    }

    static String label(Goodbye.Reason reason) {
        return reason.name().toLowerCase(Locale.ROOT);
    }

    /** One peer's meters, removed when the peer goes away so that departed peers do not linger in /metrics. */
    record PeerMeters(MeterRegistry registry, Counter drops, List<Meter> meters) {
        void remove() {
            meters.forEach(registry::remove);
        }
    }
}
