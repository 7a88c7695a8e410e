package io.wakurelay.relay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.protocol.LatencyBuckets;
import io.wakurelay.protocol.Violation;
import io.wakurelay.relay.validation.Screen;
import io.wakurelay.relay.validation.Verdict;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    private final int clusterId;
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
    private final Counter subscriptions;
    private final Counter unsubscriptions;
    private final Timer propagation;
    private final Map<Violation, Counter> invalid = new EnumMap<>(Violation.class);
    private final Map<PeerSender.Kind, Counter> drops = new EnumMap<>(PeerSender.Kind.class);
    private final Map<String, Counter> disconnects = new ConcurrentHashMap<>();
    private final Map<ControlKind, Counter> control = new EnumMap<>(ControlKind.class);
    private final Map<ControlIgnored, Map<ControlKind, Counter>> controlIgnored = new EnumMap<>(ControlIgnored.class);
    private final Map<String, Counter> inboundStreamResets = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> scoreBands = new ConcurrentHashMap<>();
    private final Map<String, TopicGauges> topics = new ConcurrentHashMap<>();
    /** Made when a validator is installed; the validation events come only then. */
    private volatile ValidationMeters validation;

    record TopicGauges(AtomicInteger mesh, AtomicInteger fanout, AtomicInteger subscribers) {
    }

    /** @param clusterId this node's cluster, whose shards have per-shard meters */
    RelayMetrics(MeterRegistry registry, int clusterId) {
        this.registry = registry;
        this.clusterId = clusterId;
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
        // nim-libp2p's names (nwaku's dashboards read them): topics joined and left, counted as it counts them, once
        // each time this node starts or stops relaying a topic
        subscriptions = Counter.builder("libp2p.pubsub.subscriptions")
                .description("topics this node joined (nim-libp2p's name)").register(registry);
        unsubscriptions = Counter.builder("libp2p.pubsub.unsubscriptions")
                .description("topics this node left (nim-libp2p's name)").register(registry);
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
        for (String reason : List.of("graylisted", "slow_consumer", "cluster_mismatch", "rejected_messages")) {
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

    @Override
    public void reading(Reading reading, Supplier<Number> value) {
        if (reading.counter()) {
            FunctionCounter.builder(reading.meterName(), value, v -> v.get().doubleValue())
                    .description(reading.description()).register(registry);
        } else {
            Gauge.builder(reading.meterName(), value).description(reading.description()).register(registry);
        }
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

    @Override
    public void validatorInstalled(Set<String> reasons) {
        validation = new ValidationMeters(registry, reasons);
    }

    @Override
    public void screened(Screen screen) {
        validation.screened(screen);
    }

    @Override
    public void verified(Verdict verdict, long nanos) {
        validation.verified(verdict, nanos);
    }

    @Override
    public void judged(Verdict verdict) {
        validation.judged(verdict);
    }

    @Override
    public void copyWhileJudged(PendingVerdicts.Copy copy) {
        validation.copy(copy);
    }

    @Override
    public void peersByScore(Map<String, Integer> byBand) {
        for (String band : SCORE_BANDS) {
            scoreBands.get(band).set(byBand.getOrDefault(band, 0));
        }
    }

    @Override
    public void topicPeers(Map<String, RouterState.TopicPeers> byTopic) {
        byTopic.keySet().forEach(this::topic);
        // every topic that has gauges, so that one this node left or stopped publishing to reads 0, not its last value
        topics.forEach((topic, g) -> {
            RouterState.TopicPeers peers = byTopic.get(topic);
            g.mesh().set(peers == null ? 0 : peers.mesh());
            g.subscribers().set(peers == null ? 0 : peers.subscribers());
            g.fanout().set(peers == null ? 0 : peers.fanout());
        });
    }

    /**
     * The meters of a topic this node joins (nwaku's per-topic traffic, per-shard sizes and peers); the router closes
     * them when it leaves the topic. Joining and leaving count in {@code libp2p_pubsub_subscriptions_total} and
     * {@code libp2p_pubsub_unsubscriptions_total}.
     */
    @Override
    public TopicEvents joined(String topic) {
        subscriptions.increment();
        return new SubscribedTopicMeters(registry, topic, MetadataProtocol.shardOf(topic, clusterId),
                topic(topic).subscribers(), unsubscriptions::increment);
    }

    /** The mesh, fanout and subscriber gauges of a topic (made on first use; topics are this node's). */
    private TopicGauges topic(String topic) {
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
