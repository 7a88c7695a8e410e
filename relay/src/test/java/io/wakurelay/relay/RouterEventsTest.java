package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.Violation;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.validation.Screen;
import io.wakurelay.relay.validation.Verdict;
import io.wakurelay.relay.proto.ControlGraft;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.RPC;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The router tells everything it does to one sink ({@link RouterEvents}), and the meters are one listener of it: a
 * test's listener beside them hears the same events, and each meter reads what the events say.
 */
class RouterEventsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    @RegisterExtension
    final Closer closer = new Closer();

    /** Counts each event, by name and arguments. */
    static final class RecordedEvents implements RouterEvents {
        private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

        long count(String event) {
            LongAdder n = counts.get(event);
            return n == null ? 0 : n.sum();
        }

        private void add(String event, long n) {
            counts.computeIfAbsent(event, e -> new LongAdder()).add(n);
        }

        @Override
        public void receivedFromPeer() {
            add("receivedFromPeer", 1);
        }

        @Override
        public void publishedLocally() {
            add("publishedLocally", 1);
        }

        @Override
        public void duplicate() {
            add("duplicate", 1);
        }

        @Override
        public void idByBytes() {
            add("idByBytes", 1);
        }

        @Override
        public void invalid(Violation violation) {
            add("invalid:" + violation, 1);
        }

        @Override
        public void validated() {
            add("validated", 1);
        }

        @Override
        public void accepted(int payloadBytes) {
            add("accepted", 1);
            add("acceptedBytes", payloadBytes);
        }

        @Override
        public void propagated(long delayNanos) {
            add("propagated", 1);
        }

        @Override
        public void forwardSkipped() {
            add("forwardSkipped", 1);
        }

        @Override
        public void dontWantSaved() {
            add("dontWantSaved", 1);
        }

        @Override
        public void relayed() {
            add("relayed", 1);
        }

        @Override
        public void controlReceived(ControlKind kind, int count) {
            add("controlReceived:" + kind, count);
        }

        @Override
        public void controlIgnored(ControlKind kind, ControlIgnored reason, int count) {
            add("controlIgnored:" + kind + ":" + reason, count);
        }

        @Override
        public void peerDrop(PeerSender.Kind kind) {
            add("peerDrop:" + kind, 1);
        }

        @Override
        public void disconnected(String reason) {
            add("disconnected:" + reason, 1);
        }

        @Override
        public void inboundStreamReset(String reason) {
            add("inboundStreamReset:" + reason, 1);
        }

        @Override
        public TopicEvents joined(String topic) {
            add("joined", 1);
            return new TopicEvents() {
                @Override
                public void received(int messageBytes) {
                    add("topicReceived", 1);
                }

                @Override
                public void accepted(int messageBytes, int payloadSize) {
                    add("topicAccepted", 1);
                }

                @Override
                public void published(int payloadSize) {
                    add("topicPublished", 1);
                }

                @Override
                public void sent(int messageBytes, int copies) {
                    add("topicSent", copies);
                }

                @Override
                public void close() {
                    add("left", 1);
                }
            };
        }

        @Override
        public void topicPeers(Map<String, RouterState.TopicPeers> byTopic) {
            add("topicPeers", 1);
        }

        @Override
        public void peersByScore(Map<String, Integer> byBand) {
            add("peersByScore", 1);
        }

        @Override
        public void reading(Reading reading, Supplier<Number> value) {
            add("reading", 1);
        }

        @Override
        public void validatorInstalled(Set<String> reasons) {
            add("validatorInstalled", 1);
        }

        @Override
        public void screened(Screen screen) {
            add("screened:" + screen, 1);
        }

        @Override
        public void verified(Verdict verdict, long nanos) {
            add("verified:" + verdict, 1);
        }

        @Override
        public void judged(Verdict verdict) {
            add("judged:" + verdict, 1);
        }

        @Override
        public void copyWhileJudged(PendingVerdicts.Copy copy) {
            add("copyWhileJudged:" + copy, 1);
        }
    }

    private static double counter(TestNode node, String name, String... tags) {
        var c = node.registry.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aListenerHearsWhatTheRouterDidAndTheMetersReadTheSame() {
        RecordedEvents publisherEvents = new RecordedEvents();
        RecordedEvents receiverEvents = new RecordedEvents();
        TestNode publisher = closer.keep(new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519(), 0, b -> b,
                publisherEvents));
        TestNode receiver = closer.keep(new TestNode(1, TestNode.fastConfig(), PrivateKey.generateEd25519(), 0, b -> b,
                receiverEvents));
        receiver.host.dial(publisher.address()).block(WAIT);
        Eventually.until(() -> publisher.meshSize(Messages.TOPIC) == 1 && receiver.meshSize(Messages.TOPIC) == 1);

        WakuMessage first = Messages.message(0, 1_000);
        publisher.relay.publish(Messages.TOPIC, first).block(WAIT);
        for (int i = 1; i < 5; i++) {
            publisher.relay.publish(Messages.TOPIC, Messages.message(i, 1_000)).block(WAIT);
        }
        Eventually.until(() -> receiver.received.size() == 5);
        assertThat(publisher.relay.publish(Messages.TOPIC, first).block(WAIT).duplicate()).isTrue();

        // a peer GRAFTs a topic the receiver has no mesh for: ignored, and said so
        RawRelayPeer stranger = closer.keep(new RawRelayPeer(2));
        stranger.connect(receiver.address());
        stranger.send(RPC.newBuilder().setControl(ControlMessage.newBuilder()
                .addGraft(ControlGraft.newBuilder().setTopicID("/waku/2/rs/0/99"))).build());
        Eventually.until(() -> receiverEvents.count("controlIgnored:GRAFT:UNKNOWN_TOPIC") == 1, WAIT,
                () -> "the receiver did not report the stranger's GRAFT as ignored");

        assertThat(publisherEvents.count("publishedLocally")).isEqualTo(6);
        assertThat(publisherEvents.count("accepted")).isEqualTo(5);
        assertThat(publisherEvents.count("duplicate")).isEqualTo(1);
        assertThat(publisherEvents.count("relayed")).isEqualTo(5);
        assertThat(receiverEvents.count("receivedFromPeer")).isEqualTo(5);
        assertThat(receiverEvents.count("validated")).isEqualTo(5);
        assertThat(receiverEvents.count("accepted")).isEqualTo(5);
        assertThat(receiverEvents.count("acceptedBytes")).isEqualTo(5_000);
        assertThat(receiverEvents.count("propagated")).isEqualTo(5);
        assertThat(receiverEvents.count("topicAccepted")).as("told to the topic's sink too").isEqualTo(5);
        assertThat(publisherEvents.count("topicPublished")).isEqualTo(5);
        assertThat(receiverEvents.count("peersByScore")).as("every heartbeat").isPositive();
        assertThat(receiverEvents.count("reading")).as("every reading but the validation stage's (no validator), once")
                .isEqualTo(java.util.Arrays.stream(Reading.values()).filter(r -> !r.name().startsWith("VALIDATION")).count());
        assertThat(receiverEvents.count("validatorInstalled")).isZero();

        // the meters are the other listener of the same events
        assertThat(counter(publisher, "waku.relay.messages.received", "source", "local")).isEqualTo(6);
        assertThat(counter(publisher, "libp2p.gossipsub.duplicate")).isEqualTo(1);
        assertThat(counter(publisher, "waku.relay.messages.relayed")).isEqualTo(5);
        assertThat(counter(receiver, "waku.relay.messages.received", "source", "peer")).isEqualTo(5);
        assertThat(counter(receiver, "libp2p.pubsub.validation.success")).isEqualTo(5);
        assertThat(counter(receiver, "waku.relay.messages.accepted")).isEqualTo(5);
        assertThat(counter(receiver, "libp2p.gossipsub.control.received", "kind", ControlKind.GRAFT.label()))
                .isEqualTo(receiverEvents.count("controlReceived:GRAFT"));
        assertThat(counter(receiver, "waku.relay.control.ignored", "kind", ControlKind.GRAFT.label(),
                "reason", ControlIgnored.UNKNOWN_TOPIC.label())).isEqualTo(1);
    }
}
