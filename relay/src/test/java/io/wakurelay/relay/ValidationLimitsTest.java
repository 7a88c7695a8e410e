package io.wakurelay.relay;

import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the validation stage may hold is bounded (messages, bytes, and one peer's share): a message that does not fit
 * is ignored, not rejected (it may be valid), counted, and its buffer released; at shutdown what waits for a thread is
 * released too.
 */
class ValidationLimitsTest {
    private static final Duration QUIET = Duration.ofMillis(300);
    @RegisterExtension
    final Closer closer = new Closer();

    private static WakuMessage valid(int i) {
        return FakeRlnValidator.message(i, 1_000, 'V', 'a');
    }

    @Test
    void aPeerPastItsBudgetHasItsMessagesIgnoredNotRejectedAndCountedAndTheRestVerified() {
        ValidatingNode n = closer.keep(new ValidatingNode(2, c -> c.toBuilder().threads(1).queueMessages(8)
                .peerInFlight(2).build()));
        n.validator.hold();
        List<WakuMessage> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sent.add(valid(i));
            n.send(0, sent.get(i));
        }
        Eventually.until(() -> n.counter("waku.relay.validation.ignored", "reason", "peer_budget") == 3);
        assertThat(n.counter("waku.relay.messages.invalid", "reason", "validation_throttled")).isEqualTo(3);
        assertThat(n.gauge("waku.relay.validation.in.flight") + n.gauge("waku.relay.validation.queued")).isEqualTo(2);
        assertThat(n.gauge("waku.relay.validation.held.bytes")).isPositive();

        n.validator.open();

        Eventually.until(() -> n.delivered(sent.get(0)) && n.delivered(sent.get(1)));
        Eventually.holdsFor(QUIET, () -> n.node.received.size() == 2, () -> "delivered " + n.node.received.size());
        assertThat(n.score(0)).as("ignored, not rejected: not its fault").isNotNegative();
        Eventually.until(() -> n.gauge("waku.relay.validation.held.bytes") == 0);
        assertThat(n.node.relay.router().judgedNow()).isZero();
    }

    @Test
    void aMessageIgnoredForAFullBudgetIsJudgedAfreshWhenAnotherPeerSendsIt() {
        ValidatingNode n = closer.keep(new ValidatingNode(2, c -> c.toBuilder().threads(1).peerInFlight(1).build()));
        n.validator.hold();
        WakuMessage first = valid(1);
        WakuMessage throttled = valid(2);
        n.send(0, first);
        n.send(0, throttled);
        Eventually.until(() -> n.counter("waku.relay.validation.ignored", "reason", "peer_budget") == 1);

        n.send(1, throttled); // a flooder sent it first: the honest copy must not be dropped as a duplicate
        n.validator.open();

        Eventually.until(() -> n.delivered(first) && n.delivered(throttled));
        assertThat(n.counter("libp2p.gossipsub.duplicate", null, null)).isZero();
    }

    @Test
    void aFullQueueIgnoresWhatDoesNotFitWhoeverSendsIt() {
        ValidatingNode n = closer.keep(new ValidatingNode(2, c -> c.toBuilder().threads(1).queueMessages(2)
                .peerInFlight(2).build()));
        n.validator.hold();
        n.send(0, valid(1));
        n.send(0, valid(2));
        Eventually.until(() -> n.gauge("waku.relay.validation.in.flight") + n.gauge("waku.relay.validation.queued") == 2);
        WakuMessage late = valid(3);
        n.send(1, late);

        Eventually.until(() -> n.counter("waku.relay.validation.ignored", "reason", "queue_full") == 1);
        n.validator.open();
        Eventually.until(() -> n.node.received.size() == 2);
        Eventually.holdsFor(QUIET, () -> !n.delivered(late), () -> "delivered");
        assertThat(n.score(1)).isNotNegative();
    }

    @Test
    void theQueueHoldsAtMostItsBytesYetTakesAMessageOfAnySizeWhenEmpty() {
        ValidatingNode n = closer.keep(new ValidatingNode(2, c -> c.toBuilder().threads(1).queueBytes(1).build()));
        n.validator.hold();
        WakuMessage big = FakeRlnValidator.message(1, 100_000, 'V', 'a');
        n.send(0, big);
        Eventually.until(() -> n.gauge("waku.relay.validation.held.bytes") >= 100_000);
        n.send(1, valid(2));

        Eventually.until(() -> n.counter("waku.relay.validation.ignored", "reason", "queue_full") == 1);
        n.validator.open();
        Eventually.until(() -> n.delivered(big));
    }

    @Test
    void shutdownWithVerificationsPendingReleasesEveryBufferAndFailsThePublishWaiting() throws Exception {
        ValidatingNode n = closer.keep(new ValidatingNode(1, c -> c.toBuilder().threads(1).build()));
        n.validator.hold();
        for (int i = 0; i < 3; i++) {
            n.send(0, valid(i));
        }
        Eventually.until(() -> n.validator.started.get() == 1 && n.gauge("waku.relay.validation.queued") == 2);
        CompletableFuture<PublishResult> publish = n.node.relay.publish(Messages.TOPIC, valid(10)).toFuture();
        Eventually.until(() -> n.gauge("waku.relay.validation.queued") == 3);

        n.node.relay.shutdown(Duration.ofMillis(200)).block(Duration.ofSeconds(10));

        assertThat(n.counter("waku.relay.validation.ignored", "reason", "shutdown")).isEqualTo(3);
        assertThat(publish).failsWithin(Duration.ofSeconds(5)).withThrowableThat()
                .havingCause().isInstanceOf(RelayClosedException.class);
        assertThat(n.gauge("waku.relay.validation.queued")).isZero();
        n.validator.open(); // the one being verified ends after the shutdown: its buffer is released all the same
        Eventually.until(() -> n.gauge("waku.relay.validation.held.bytes") == 0 && n.validator.verifications.get() == 1);
        assertThat(n.node.received).isEmpty();
        assertThatThrownBy(() -> n.node.relay.publish(Messages.TOPIC, valid(11)).block())
                .isInstanceOf(RelayClosedException.class);
    }
}
