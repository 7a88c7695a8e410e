package io.wakurelay.relay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.protocol.LatencyBuckets;
import io.wakurelay.protocol.Violation;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The relay's meters (docs/metrics.md, "Relay"). Names follow nim-libp2p ({@code libp2p_gossipsub_*},
 * {@code libp2p_pubsub_*}) where it has the concept, and {@code waku_relay_*} otherwise. Every label value comes
 * from a fixed set or from this node's own topics, never from what a peer sends.
 */
final class RelayMetrics implements RouterEvents {
    /** Score bands of {@code waku_relay_peers_by_score}, named by their lower bound: the thresholds that matter. */
    static final List<String> SCORE_BANDS = List.of("graylisted", "below_publish", "below_gossip", "negative", "neutral", "positive");

    private final MeterRegistry registry;
    private final Counter receivedFromPeers;
    private final Counter receivedLocal;
    private final Counter accepted;
    private final Counter nodeMessages;
    private final DistributionSummary messageSize;
    private final Counter duplicates;
    private final Counter idsByBytes;
    private final Counter relayed;
    private final Counter dontWantSaved;
    private final Counter validationSuccess;
    private final Counter validationFailure;
    private final Counter validationIgnore;
    private final Counter forwardSkipped;
    private final Timer propagation;
    private final Map<Violation, Counter> invalid = new EnumMap<>(Violation.class);
    private final Map<PeerSender.Kind, Counter> drops = new EnumMap<>(PeerSender.Kind.class);
    private final Map<String, Counter> disconnects = new ConcurrentHashMap<>();
    private final Map<ControlKind, Counter> control = new EnumMap<>(ControlKind.class);
    private final Map<ControlIgnored, Map<ControlKind, Counter>> controlIgnored = new EnumMap<>(ControlIgnored.class);
    private final Map<String, Counter> inboundStreamResets = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> scoreBands = new ConcurrentHashMap<>();
    private final Map<String, TopicGauges> topics = new ConcurrentHashMap<>();

    record TopicGauges(AtomicInteger mesh, AtomicInteger fanout, AtomicInteger subscribers) {
    }

    RelayMetrics(MeterRegistry registry) {
        this.registry = registry;
        receivedFromPeers = Counter.builder("waku.relay.messages.received").tag("source", "peer")
                .description("messages that arrived: from peers, and published by this node").register(registry);
        receivedLocal = Counter.builder("waku.relay.messages.received").tag("source", "local")
                .description("messages that arrived: from peers, and published by this node").register(registry);
        accepted = Counter.builder("waku.relay.messages.accepted")
                .description("messages that passed dedup and validation (delivered locally, forwarded)").register(registry);
        // nwaku's names and buckets for the same event, so that its dashboards read this node
        nodeMessages = Counter.builder("waku.node.messages").tag("type", "relay")
                .description("messages received, by type (relay: accepted by the relay)").register(registry);
        messageSize = DistributionSummary.builder("waku.histogram.message.size")
                .description("payload size of accepted messages in kB (1000 bytes)")
                .serviceLevelObjectives(1, 3, 5, 15, 50, 75, 100, 125, 150, 500, 700, 1000).register(registry);
        duplicates = Counter.builder("libp2p.gossipsub.duplicate")
                .description("messages received again after their first copy (dropped by the seen cache)").register(registry);
        idsByBytes = Counter.builder("waku.relay.message.ids.by.bytes")
                .description("copies whose message id was found by comparing their bytes with a cached message's, not by SHA-256")
                .register(registry);
        relayed = Counter.builder("waku.relay.messages.relayed")
                .description("message copies written to peers (one per peer per message)").register(registry);
        dontWantSaved = Counter.builder("libp2p.gossipsub.idontwant.saved.messages")
                .description("message copies not sent because the peer said IDONTWANT").register(registry);
        validationSuccess = Counter.builder("libp2p.pubsub.validation.success")
                .description("messages that passed validation").register(registry);
        validationFailure = Counter.builder("libp2p.pubsub.validation.failure")
                .description("messages rejected (the sender is penalised)").register(registry);
        validationIgnore = Counter.builder("libp2p.pubsub.validation.ignore")
                .description("messages ignored: they fail only this node's view (clock, subscriptions)").register(registry);
        forwardSkipped = Counter.builder("waku.relay.forward.skipped")
                .description("accepted messages not forwarded because their RPC would exceed 153,600 bytes").register(registry);
        propagation = Timer.builder("waku.relay.propagation")
                .description("receive time minus the message's timestamp, for messages from peers")
                .serviceLevelObjectives(LatencyBuckets.between(Duration.ofMillis(1), Duration.ofSeconds(10))).register(registry);
        for (Violation v : Violation.values()) {
            invalid.put(v, Counter.builder("waku.relay.messages.invalid").tag("reason", v.label())
                    .tag("verdict", v.penalised() ? "reject" : "ignore")
                    .description("messages not accepted, by reason").register(registry));
        }
        for (PeerSender.Kind kind : PeerSender.Kind.values()) {
            drops.put(kind, Counter.builder("waku.relay.peer.drops").tag("kind", kind.name().toLowerCase())
                    .description("RPCs not sent to a peer whose queue was full").register(registry));
        }
        for (String reason : List.of("graylisted", "slow_consumer", "cluster_mismatch")) {
            disconnected(reason, 0);
        }
        for (ControlKind kind : ControlKind.values()) {
            control.put(kind, Counter.builder("libp2p.gossipsub.control.received").tag("kind", kind.label())
                    .description("gossipsub control messages received, by kind").register(registry));
        }
        for (ControlIgnored reason : ControlIgnored.values()) {
            Map<ControlKind, Counter> byKind = new EnumMap<>(ControlKind.class);
            for (ControlKind kind : reason.kinds()) {
                byKind.put(kind, Counter.builder("waku.relay.control.ignored").tag("kind", kind.label())
                        .tag("reason", reason.label())
                        .description("control messages of peers ignored wholly or in part, by reason")
                        .register(registry));
            }
            controlIgnored.put(reason, byKind);
        }
        for (String reason : List.of("rpc_read_timeout", "replaced")) {
            inboundStreamResets.put(reason, Counter.builder("waku.relay.inbound.stream.resets").tag("reason", reason)
                    .description("relay streams from peers this node reset: an RPC left incomplete past the read "
                            + "timeout, or a newer stream from the same peer").register(registry));
        }
        for (String band : SCORE_BANDS) {
            AtomicInteger value = new AtomicInteger();
            scoreBands.put(band, value);
            Gauge.builder("waku.relay.peers.by.score", value, AtomicInteger::get).tag("band", band)
                    .description("relay peers by score band at the last heartbeat").register(registry);
        }
    }

    void bind(Supplier<Number> seenEntries, Supplier<Number> seenEvictions, Supplier<Number> cacheBytes,
              Supplier<Number> cacheEvictions, Supplier<Number> pending, Supplier<Number> peers,
              Supplier<Number> queuedBytes, Supplier<Number> topics) {
        Gauge.builder("waku.relay.seen.cache.entries", seenEntries).description("message ids held by the seen cache").register(registry);
        FunctionCounter.builder("waku.relay.seen.cache.evictions", seenEvictions, s -> s.get().doubleValue())
                .description("message ids forgotten for room before their TTL ran out (the cache is too small for the rate)").register(registry);
        Gauge.builder("waku.relay.message.cache.bytes", cacheBytes)
                .description("bytes of recent messages held to answer IWANT").register(registry);
        FunctionCounter.builder("waku.relay.message.cache.evictions", cacheEvictions, s -> s.get().doubleValue())
                .description("messages dropped from the message cache before their history window ended (bytes bound)").register(registry);
        Gauge.builder("waku.relay.inbound.pending", pending)
                .description("accepted envelopes handed to the local consumer and not yet taken (bounded; reading pauses when full)").register(registry);
        Gauge.builder("libp2p.pubsub.peers", peers).description("peers with a relay stream").register(registry);
        Gauge.builder("libp2p.pubsub.topics", topics).description("pubsub topics this node subscribes to").register(registry);
        Gauge.builder("waku.relay.peer.queue.bytes", queuedBytes)
                .description("bytes written to relay peers and not yet taken by their connections, all peers together").register(registry);
    }

    @Override
    public void receivedFromPeer() {
        receivedFromPeers.increment();
    }

    @Override
    public void publishedLocally() {
        receivedLocal.increment();
    }

    @Override
    public void duplicate() {
        duplicates.increment();
    }

    @Override
    public void idByBytes() {
        idsByBytes.increment();
    }

    @Override
    public void validated() {
        validationSuccess.increment();
    }

    @Override
    public void propagated(long delayNanos) {
        propagation.record(delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void forwardSkipped() {
        forwardSkipped.increment();
    }

    @Override
    public void dontWantSaved() {
        dontWantSaved.increment();
    }

    @Override
    public void relayed() {
        relayed.increment();
    }

    @Override
    public void accepted(int payloadBytes) {
        accepted.increment();
        nodeMessages.increment();
        messageSize.record(payloadBytes / 1000.0);
    }

    @Override
    public void invalid(Violation v) {
        invalid.get(v).increment();
        (v.penalised() ? validationFailure : validationIgnore).increment();
    }

    @Override
    public void inboundStreamReset(String reason) {
        inboundStreamResets.get(reason).increment();
    }

    /** The bytes held by the readers of the peers' relay streams (incomplete RPCs, and RPCs waiting out a pause). */
    void bindInboundBuffered(Supplier<Number> bytes) {
        Gauge.builder("waku.relay.inbound.buffered.bytes", bytes)
                .description("bytes read from peers' relay streams and not yet handed to the router: incomplete RPCs "
                        + "(bounded by the max RPC size and the read timeout) and RPCs waiting while reading is paused")
                .register(registry);
    }

    void bindRejectedIds(Supplier<Number> ids) {
        Gauge.builder("waku.relay.rejected.ids", ids)
                .description("ids of recently rejected messages kept so that later copies are rejected too (at most "
                        + RejectedMessages.CAPACITY + ")").register(registry);
    }

    @Override
    public void peerDrop(PeerSender.Kind kind) {
        drops.get(kind).increment();
    }

    @Override
    public void disconnected(String reason) {
        disconnected(reason, 1);
    }

    private void disconnected(String reason, int count) {
        disconnects.computeIfAbsent(reason, r -> Counter.builder("waku.relay.peer.disconnects").tag("reason", r)
                .description("relay peers this node disconnected, by reason").register(registry)).increment(count);
    }

    @Override
    public void controlReceived(ControlKind kind, int count) {
        if (count > 0) {
            control.get(kind).increment(count);
        }
    }

    @Override
    public void controlIgnored(ControlKind kind, ControlIgnored reason, int count) {
        if (count > 0) {
            controlIgnored.get(reason).get(kind).increment(count);
        }
    }

    /** What the peers' control can make the router hold, summed over its peers. */
    void bindPeerState(Supplier<Number> dontWantIds, Supplier<Number> promises, Supplier<Number> retainedScores) {
        Gauge.builder("waku.relay.idontwant.ids", dontWantIds)
                .description("IDONTWANT message ids held for the connected peers (bounded per peer)")
                .register(registry);
        Gauge.builder("waku.relay.iwant.promises", promises)
                .description("IHAVE promises awaited: messages asked for with IWANT and not yet arrived")
                .register(registry);
        Gauge.builder("waku.relay.retained.scores", retainedScores)
                .description("scores of disconnected peers remembered so that reconnecting does not wash them")
                .register(registry);
    }

    void scoreBands(Map<String, Integer> counts) {
        for (String band : SCORE_BANDS) {
            scoreBands.get(band).set(counts.getOrDefault(band, 0));
        }
    }

    /**
     * The meters of a topic this node joins (nwaku's per-topic traffic, per-shard sizes and peers); the caller
     * closes them when it leaves the topic.
     */
    SubscribedTopicMeters joined(String topic, int clusterId) {
        return new SubscribedTopicMeters(registry, topic, MetadataProtocol.shardOf(topic, clusterId), topic(topic).subscribers());
    }

    void forEachTopic(java.util.function.BiConsumer<String, TopicGauges> action) {
        topics.forEach(action);
    }

    /** The mesh, fanout and subscriber gauges of a topic (made on first use; topics are this node's or its peers'). */
    TopicGauges topic(String topic) {
        return topics.computeIfAbsent(topic, t -> {
            TopicGauges g = new TopicGauges(new AtomicInteger(), new AtomicInteger(), new AtomicInteger());
            Gauge.builder("libp2p.gossipsub.peers.per.topic.mesh", g.mesh, AtomicInteger::get).tag("topic", t)
                    .description("mesh peers per topic").register(registry);
            Gauge.builder("libp2p.gossipsub.peers.per.topic.fanout", g.fanout, AtomicInteger::get).tag("topic", t)
                    .description("fanout peers per topic").register(registry);
            Gauge.builder("libp2p.gossipsub.peers.per.topic.gossipsub", g.subscribers, AtomicInteger::get).tag("topic", t)
                    .description("connected peers subscribed to the topic").register(registry);
            return g;
        });
    }
}
