package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.wakurelay.testkit.TestMessages.PUBSUB_TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

/** inject(): frames from an in-process pseudo-peer take the whole receive path, with its backpressure. */
class InjectTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void injectedFramesAreDecodedOnceHashedOnceDeduplicatedRelayedAndDelivered() {
        try (TestRelay relay = TestRelay.start(TestRelay.config("micro"));
             TestRelay peer = TestRelay.start(TestRelay.config("peer").withStaticPeers(List.of(relay.address())))) {
            Eventually.until("connected", () -> relay.connectedTo(peer));
            int messages = 200;
            List<MessageHash> hashes = new ArrayList<>();
            List<ByteBuf> frames = new ArrayList<>();
            for (int i = 0; i < messages; i++) {
                Frames.Encoded encoded = Frames.publish(PUBSUB_TOPIC, TestMessages.message(i, 1_000 + i * 100, TestMessages.nowNanos()));
                hashes.add(encoded.hash());
                frames.add(encoded.frame());
                if (i % 10 == 0) {
                    frames.add(encoded.frame().retainedDuplicate()); // a copy arriving twice
                }
            }

            relay.relay.inject(Flux.fromIterable(frames)).block(WAIT);

            Eventually.until("delivered locally", () -> relay.acceptedHashes().size() == messages);
            assertThat(relay.acceptedCounts().values()).allMatch(times -> times == 1);
            int received = messages + messages / 10;
            assertThat(relay.counters.decodes()).as("one decode per frame received, copies included").isEqualTo(received);
            assertThat(relay.counters.hashes()).as("one hash per frame received, copies included").isEqualTo(received);
            assertThat(relay.counters.payloadCopies()).isZero();
            assertThat(relay.counter("waku.relay.messages.duplicate")).isEqualTo(messages / 10);
            assertThat(relay.counter("waku.relay.messages.accepted")).isEqualTo(messages);
            Eventually.until("fanned out to the connected peer", () -> peer.acceptedHashes().containsAll(hashes));
        }
    }

    @Test
    void invalidMessagesAreCountedAndAFrameThatBreaksFramingFailsTheStreamAfterDiscardingTheRest() {
        try (TestRelay relay = TestRelay.start(TestRelay.config("micro"))) {
            WakuMessage noContentTopic = WakuMessage.newBuilder().setTimestamp(TestMessages.nowNanos()).build();
            Flux<ByteBuf> frames = Flux.just(
                    Frames.publish(PUBSUB_TOPIC, TestMessages.message(1, 10, TestMessages.nowNanos())).frame(),
                    Frames.of(RawPeer.publish(PUBSUB_TOPIC, noContentTopic)),
                    Frames.of(new byte[] {3, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}),
                    Frames.publish(PUBSUB_TOPIC, TestMessages.message(2, 10, TestMessages.nowNanos())).frame());

            StepVerifier.create(relay.relay.inject(frames))
                    .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ProtocolViolation.class).hasMessageContaining("malformed_frame"))
                    .verify(WAIT);

            assertThat(relay.counter("waku.relay.messages.invalid", "reason", "missing_content_topic")).isEqualTo(1);
            assertThat(relay.counter("waku.relay.messages.invalid", "reason", "malformed_frame")).isEqualTo(1);
            Eventually.until("the one valid message before the bad frame was delivered", () -> relay.acceptedHashes().size() == 1);
            assertThat(relay.counter("waku.relay.messages.received", "source", "peer")).as("the frame after it was discarded").isEqualTo(2);
        }
    }

    @Test
    void injectionIsHeldBackByALocalConsumerThatDoesNotRequest() {
        int localQueue = 8;
        try (TestRelay relay = TestRelay.startWithoutConsumer(TestRelay.config("micro").withLocalQueueMessages(localQueue))) {
            AtomicInteger requested = new AtomicInteger();
            Flux<ByteBuf> frames = Flux.range(0, 100)
                    .doOnRequest(n -> requested.addAndGet((int) Math.min(n, 1_000)))
                    .map(i -> Frames.publish(PUBSUB_TOPIC, TestMessages.message(i, 100, TestMessages.nowNanos())).frame());
            List<Envelope> taken = new ArrayList<>();
            StepVerifier.Step<Envelope> consumer = StepVerifier.create(relay.relay.accepted(), 0);
            Mono<Void> injected = relay.relay.inject(frames).cache();
            injected.subscribe(null, e -> { });

            Eventually.until("the local queue is full", () -> relay.gauge("waku.relay.inbound.pending") >= localQueue);
            assertThat(relay.gauge("waku.relay.inbound.pending")).isLessThanOrEqualTo(localQueue + 2);
            assertThat(relay.counter("waku.relay.messages.received", "source", "peer")).isLessThanOrEqualTo(localQueue + 2);

            consumer.thenRequest(Long.MAX_VALUE)
                    .recordWith(() -> taken)
                    .expectNextCount(100)
                    .then(() -> relay.relay.shutdown(WAIT).subscribe())
                    .expectComplete()
                    .verify(WAIT);
            taken.forEach(Envelope::release);
            StepVerifier.create(injected).expectComplete().verify(WAIT);
        }
    }
}
