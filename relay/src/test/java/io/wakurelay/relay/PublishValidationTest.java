package io.wakurelay.relay;

import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * This node's own messages ({@link Relay#publish}, what REST and lightpush call) go through the validator too, as
 * nwaku validates before it publishes: an accepted one is sent, a rejected or ignored one is refused with the
 * validator's reason and sent nowhere, and a full validation stage refuses at once.
 */
class PublishValidationTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration QUIET = Duration.ofMillis(300);
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void aPublishTheVerificationAcceptsIsSentAndDelivered() {
        ValidatingNode n = closer.keep(new ValidatingNode(1, c -> c));
        WakuMessage m = FakeRlnValidator.message(1, 1_000, 'V', 'a');

        PublishResult result = n.node.relay.publish(Messages.TOPIC, m).block(WAIT);

        assertThat(result.duplicate()).isFalse();
        assertThat(result.relayedTo()).isEqualTo(1);
        assertThat(n.validator.verifyThreads).singleElement().asString().startsWith(ValidationRoom.THREAD);
        Eventually.until(() -> n.forwardedTo(0, m) && n.delivered(m));
    }

    @Test
    void aPublishTheValidatorRejectsIsRefusedWithItsReasonAndSentNowhere() {
        ValidatingNode n = closer.keep(new ValidatingNode(1, c -> c));
        WakuMessage forged = FakeRlnValidator.message(2, 100, 'V', 'f');
        WakuMessage badEpoch = FakeRlnValidator.message(3, 100, 'R', '-');

        assertThatThrownBy(() -> n.node.relay.publish(Messages.TOPIC, forged).block(WAIT))
                .isInstanceOfSatisfying(MessageRejectedException.class, e -> {
                    assertThat(e.reason()).isEqualTo(FakeRlnValidator.INVALID_PROOF);
                    assertThat(e.ignored()).isFalse();
                });
        assertThatThrownBy(() -> n.node.relay.publish(Messages.TOPIC, badEpoch).block(WAIT))
                .isInstanceOfSatisfying(MessageRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(FakeRlnValidator.BAD_EPOCH));

        Eventually.holdsFor(QUIET, () -> !n.forwardedTo(0, forged) && !n.forwardedTo(0, badEpoch)
                && n.node.received.isEmpty(), () -> "sent");
        assertThat(n.counter("waku.relay.validation.rejected", "reason", FakeRlnValidator.INVALID_PROOF)).isEqualTo(1);
        // refused, not seen: the same message, once valid, is not a duplicate
        assertThat(n.node.relay.publish(Messages.TOPIC, FakeRlnValidator.message(3, 100, 'A', '-')).block(WAIT)
                .duplicate()).isFalse();
    }

    @Test
    void aPublishTheValidatorIgnoresIsRefusedAsIgnored() {
        ValidatingNode n = closer.keep(new ValidatingNode(1, c -> c));

        assertThatThrownBy(() -> n.node.relay.publish(Messages.TOPIC, FakeRlnValidator.message(4, 100, 'I', '-'))
                .block(WAIT)).isInstanceOfSatisfying(MessageRejectedException.class, e -> {
                    assertThat(e.reason()).isEqualTo(FakeRlnValidator.UNKNOWN_ROOT);
                    assertThat(e.ignored()).isTrue();
                });
    }

    @Test
    void aPublishIsRefusedAsBusyWhenTheValidationQueueIsFullWithoutAPerPeerBudget() throws Exception {
        ValidatingNode n = closer.keep(new ValidatingNode(1, c -> c.toBuilder().threads(1).queueMessages(2)
                .peerInFlight(1).build()));
        n.validator.hold();
        // two publishes fit though the peer budget is one: a publish has no per-peer budget
        CompletableFuture<PublishResult> first = n.node.relay.publish(Messages.TOPIC,
                FakeRlnValidator.message(5, 100, 'V', 'a')).toFuture();
        CompletableFuture<PublishResult> second = n.node.relay.publish(Messages.TOPIC,
                FakeRlnValidator.message(6, 100, 'V', 'a')).toFuture();

        assertThatThrownBy(() -> n.node.relay.publish(Messages.TOPIC, FakeRlnValidator.message(7, 100, 'V', 'a'))
                .block(WAIT)).isInstanceOf(RelayBusyException.class);
        assertThat(n.counter("waku.relay.validation.ignored", "reason", "queue_full")).isEqualTo(1);

        n.validator.open();
        assertThat(first.get(20, java.util.concurrent.TimeUnit.SECONDS).duplicate()).isFalse();
        assertThat(second.get(20, java.util.concurrent.TimeUnit.SECONDS).duplicate()).isFalse();
        Eventually.until(() -> n.node.received.size() == 2);
    }

    @Test
    void aPublishSeenBeforeIsADuplicateAndIsNotVerifiedAgain() {
        ValidatingNode n = closer.keep(new ValidatingNode(1, c -> c));
        WakuMessage m = FakeRlnValidator.message(8, 100, 'V', 'a');
        n.node.relay.publish(Messages.TOPIC, m).block(WAIT);

        PublishResult again = n.node.relay.publish(Messages.TOPIC, m).block(WAIT);

        assertThat(again.duplicate()).isTrue();
        assertThat(n.validator.started).hasValue(1);
    }
}
