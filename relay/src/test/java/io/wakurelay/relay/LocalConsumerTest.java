package io.wakurelay.relay;

import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.test.StepVerifier;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The local consumer's side: one subscriber, a bounded queue, busy publishes, and shutdown. */
class LocalConsumerTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int LOCAL_QUEUE = 4;

    @Test
    void publishingIsRefusedAsBusyWhileTheLocalQueueIsFull() {
        try (TestRelay relay = TestRelay.startWithoutConsumer(TestRelay.config("r").withLocalQueueMessages(LOCAL_QUEUE));
             TestRelay peer = TestRelay.start(TestRelay.config("peer").withStaticPeers(List.of(relay.address())))) {
            Eventually.until("connected", () -> relay.connectedTo(peer));
            for (int i = 0; i < LOCAL_QUEUE; i++) {
                relay.publish(TestMessages.message(i, 10, TestMessages.nowNanos()));
            }
            WakuMessage oneTooMany = TestMessages.message(99, 10, TestMessages.nowNanos());

            assertThatThrownBy(() -> relay.publish(oneTooMany)).isInstanceOf(RelayBusyException.class)
                    .hasMessageContaining("limit " + LOCAL_QUEUE);
            assertThat(relay.gauge("waku.relay.inbound.pending")).isEqualTo(LOCAL_QUEUE);
            Eventually.until("the peer got the accepted ones", () -> peer.acceptedHashes().size() == LOCAL_QUEUE);

            List<Envelope> taken = new ArrayList<>();
            StepVerifier.create(relay.relay.accepted(), 2).recordWith(() -> taken).expectNextCount(2).thenCancel().verify(WAIT);
            taken.forEach(Envelope::release);

            PublishResult retried = relay.publish(oneTooMany);
            assertThat(retried.duplicate()).as("a refused publish is not remembered as seen").isFalse();
            Eventually.until("the peer got it too", () -> peer.timesAccepted(retried.hash()) == 1);
        }
    }

    @Test
    void acceptedAllowsOneSubscriber() {
        try (TestRelay relay = TestRelay.start(TestRelay.config("r"))) {
            StepVerifier.create(relay.relay.accepted()).expectError(IllegalStateException.class).verify(WAIT);
        }
    }

    @Test
    void shutdownCompletesAcceptedAfterWhatWasAlreadyAccepted() {
        TestRelay relay = TestRelay.startWithoutConsumer(TestRelay.config("r"));
        PublishResult first = relay.publish(TestMessages.message(1, 10, TestMessages.nowNanos()));
        List<Envelope> taken = new ArrayList<>();

        StepVerifier.create(relay.relay.accepted())
                .recordWith(() -> taken)
                .expectNextMatches(envelope -> envelope.hash().equals(first.hash()))
                .then(relay::close)
                .expectComplete()
                .verify(WAIT);
        taken.forEach(Envelope::release);
        assertThat(relay.relay.shutdown(WAIT).block(WAIT)).as("idempotent").isNull();
    }

    @Test
    void envelopesHeldForAStalledConsumerAreReleasedWhenItCancelsAfterShutdown() {
        TestRelay relay = TestRelay.startWithoutConsumer(TestRelay.config("r"));
        BaseSubscriber<Envelope> stalled = new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                // never requests
            }
        };
        relay.relay.accepted().subscribe(stalled);
        for (int i = 0; i < 3; i++) {
            relay.publish(TestMessages.message(i, 1000, TestMessages.nowNanos()));
        }

        relay.relay.shutdown(Duration.ofMillis(200)).block(WAIT);
        stalled.cancel();

        assertThat(relay.gauge("waku.relay.inbound.pending")).isZero();
        relay.close();
    }

    @Test
    void envelopesOfARelayWhoseAcceptedWasNeverSubscribedAreReleasedAtShutdown() {
        TestRelay relay = TestRelay.startWithoutConsumer(TestRelay.config("r"));
        relay.publish(TestMessages.message(1, 1000, TestMessages.nowNanos()));
        relay.publish(TestMessages.message(2, 1000, TestMessages.nowNanos()));

        relay.close();

        assertThat(relay.gauge("waku.relay.inbound.pending")).isZero();
    }

    @Test
    void nothingStartsAfterShutdown() {
        TestRelay relay = TestRelay.start(TestRelay.config("r"));
        relay.close();

        assertThatThrownBy(() -> relay.publish(TestMessages.message(1, 10, TestMessages.nowNanos())))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> relay.relay.addPeer(relay.address())).isInstanceOf(IllegalStateException.class);
        StepVerifier.create(relay.relay.inject(reactor.core.publisher.Flux.empty()))
                .expectError(IllegalStateException.class).verify(WAIT);
    }
}
