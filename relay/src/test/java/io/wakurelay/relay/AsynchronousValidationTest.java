package io.wakurelay.relay;

import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The validation stage with a validator that behaves as RLN's: cheap checks where a message arrives, a proof checked
 * on the relay's validation threads, the verdicts gossipsub's. Only an accepted message is forwarded and delivered; a
 * rejected one costs its sender and its later copies cost theirs; an ignored one costs nobody.
 */
class AsynchronousValidationTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration QUIET = Duration.ofMillis(300);
    @RegisterExtension
    final Closer closer = new Closer();

    private ValidatingNode node(int peers) {
        return closer.keep(new ValidatingNode(peers, c -> c));
    }

    @Test
    void aMessageTheScreenAcceptsIsForwardedAndDeliveredWithoutAVerification() {
        ValidatingNode n = node(2);
        WakuMessage m = FakeRlnValidator.message(1, 100, 'A', '-');
        n.send(0, m);

        Eventually.until(() -> n.delivered(m) && n.forwardedTo(1, m));
        assertThat(n.validator.started).hasValue(0);
        assertThat(n.validator.screenThreads).as("screened on the connection's event loop")
                .allMatch(t -> !t.startsWith(ValidationRoom.THREAD));
        assertThat(n.counter("waku.relay.validation.screened", "verdict", "accept")).isEqualTo(1);
        assertThat(n.forwardedTo(0, m)).as("not back to its sender").isFalse();
    }

    @Test
    void aVerifiedMessageIsForwardedAndDeliveredOnceItsProofIsCheckedOnAValidationThread() {
        ValidatingNode n = node(2);
        WakuMessage m = FakeRlnValidator.message(2, 2_000, 'V', 'a');
        n.send(0, m);

        Eventually.until(() -> n.delivered(m) && n.forwardedTo(1, m));
        assertThat(n.validator.verifications).hasValue(1);
        assertThat(n.validator.verifyThreads).singleElement().asString().startsWith(ValidationRoom.THREAD);
        assertThat(n.counter("waku.relay.validation.screened", "verdict", "verify")).isEqualTo(1);
        assertThat(n.counter("waku.relay.validation.verified", "verdict", "accept")).isEqualTo(1);
        assertThat(n.node.registry.find("waku.relay.validation.duration").timer().count()).isEqualTo(1);
        assertThat(n.counter("libp2p.pubsub.validation.success", null, null)).isEqualTo(1);
        Eventually.until(() -> n.gauge("waku.relay.validation.held.bytes") == 0);
    }

    @Test
    void aRejectedMessageCostsItsSenderIsNotForwardedAndALaterCopyIsRejectedWithoutAnotherVerification() {
        ValidatingNode n = node(3);
        WakuMessage forged = FakeRlnValidator.message(3, 500, 'V', 'f');
        n.send(0, forged);
        Eventually.until(() -> n.score(0) < 0, WAIT, () -> "score " + n.score(0));
        assertThat(n.counter("waku.relay.validation.rejected", "reason", FakeRlnValidator.INVALID_PROOF)).isEqualTo(1);
        assertThat(n.counter("waku.relay.messages.invalid", "reason", "validator_rejected")).isEqualTo(1);

        n.send(1, forged); // a later copy, from another peer
        Eventually.until(() -> n.score(1) < 0, WAIT, () -> "score " + n.score(1));
        assertThat(n.counter("waku.relay.messages.invalid", "reason", "validator_rejected")).isEqualTo(2);
        assertThat(n.validator.started).as("the copy was known rejected: not verified again").hasValue(1);
        Eventually.holdsFor(QUIET, () -> !n.delivered(forged) && !n.forwardedTo(2, forged), () -> "forwarded");
        assertThat(n.score(2)).as("a peer that sent nothing").isNotNegative();
    }

    @Test
    void theScreensRejectionCostsTheSenderWithoutAVerification() {
        ValidatingNode n = node(2);
        WakuMessage badEpoch = FakeRlnValidator.message(4, 100, 'R', '-');
        n.send(0, badEpoch);

        Eventually.until(() -> n.score(0) < 0, WAIT, () -> "score " + n.score(0));
        assertThat(n.counter("waku.relay.validation.rejected", "reason", FakeRlnValidator.BAD_EPOCH)).isEqualTo(1);
        assertThat(n.validator.started).hasValue(0);
        assertThat(n.delivered(badEpoch) || n.forwardedTo(1, badEpoch)).isFalse();
    }

    @Test
    void anIgnoredMessageIsDroppedAndCostsNobodyWhetherTheScreenOrTheVerificationIgnoresIt() {
        ValidatingNode n = node(2);
        WakuMessage unknownRoot = FakeRlnValidator.message(5, 100, 'I', '-');
        WakuMessage rootGone = FakeRlnValidator.message(6, 100, 'V', 'i');
        n.send(0, unknownRoot);
        n.send(0, rootGone);

        Eventually.until(() -> n.counter("waku.relay.validation.ignored", "reason", FakeRlnValidator.ROOT_GONE) == 1
                && n.counter("waku.relay.validation.ignored", "reason", FakeRlnValidator.UNKNOWN_ROOT) == 1);
        assertThat(n.counter("waku.relay.messages.invalid", "reason", "validator_ignored")).isEqualTo(2);
        assertThat(n.counter("libp2p.pubsub.validation.ignore", null, null)).isEqualTo(2);
        Eventually.holdsFor(QUIET, () -> n.score(0) >= 0 && !n.delivered(rootGone) && !n.forwardedTo(1, rootGone),
                () -> "score " + n.score(0));
    }

    @Test
    void copiesThatArriveWhileAMessageIsVerifiedWaitForTheVerdictAndArePenalisedWithItsRejection() {
        ValidatingNode n = node(3);
        n.validator.hold();
        WakuMessage forged = FakeRlnValidator.message(7, 500, 'V', 'f');
        n.send(0, forged);
        Eventually.until(() -> n.validator.started.get() == 1);
        n.send(1, forged);
        n.send(2, forged);
        n.send(2, forged); // a peer's second copy counts once
        Eventually.until(() -> n.counter("waku.relay.validation.copies", "outcome", "waits") == 2
                && n.counter("waku.relay.validation.copies", "outcome", "repeated") == 1);
        assertThat(n.score(1)).as("no verdict yet").isNotNegative();

        n.validator.open();

        Eventually.until(() -> n.score(0) < 0 && n.score(1) < 0 && n.score(2) < 0, WAIT,
                () -> "scores " + n.score(0) + " " + n.score(1) + " " + n.score(2));
        // one invalid message costs 100 (P₄ = -100 × 1²), two would cost 400
        assertThat(n.score(2)).as("one penalty for its two copies").isGreaterThan(-200);
        assertThat(n.validator.started).as("verified once").hasValue(1);
        assertThat(n.node.relay.router().judgedNow()).isZero();
    }

    @Test
    void copiesThatArriveWhileAMessageIsVerifiedWaitAndTheMessageIsDeliveredOnceWhenAccepted() {
        ValidatingNode n = node(3);
        n.validator.hold();
        WakuMessage valid = FakeRlnValidator.message(8, 500, 'V', 'a');
        n.send(0, valid);
        Eventually.until(() -> n.validator.started.get() == 1);
        n.send(1, valid);
        Eventually.until(() -> n.counter("waku.relay.validation.copies", "outcome", "waits") == 1);
        assertThat(n.delivered(valid)).isFalse();

        n.validator.open();

        Eventually.until(() -> n.delivered(valid) && n.forwardedTo(2, valid));
        assertThat(n.node.received.values()).singleElement().extracting(c -> c.get()).isEqualTo(1);
        assertThat(n.validator.started).hasValue(1);
        assertThat(n.score(1)).as("a copy of a valid message costs nothing").isGreaterThanOrEqualTo(0);
        assertThat(n.counter("libp2p.gossipsub.duplicate", null, null)).isEqualTo(1);
    }

    @Test
    void aPeerThatKeepsSendingRejectedMessagesIsDisconnectedPastTheBound() {
        ValidatingNode n = closer.keep(new ValidatingNode(2, c -> c.toBuilder().rejectionsBeforeDisconnect(3).build()));
        for (int i = 0; i < 2; i++) {
            n.send(0, FakeRlnValidator.message(10 + i, 100, 'V', 'f'));
        }
        Eventually.until(() -> n.counter("waku.relay.validation.rejected", "reason", FakeRlnValidator.INVALID_PROOF) == 2);
        assertThat(n.peer(0).connectedTo(n.node.host)).as("below the bound").isTrue();

        n.send(0, FakeRlnValidator.message(12, 100, 'V', 'f'));

        Eventually.until(() -> !n.peer(0).connectedTo(n.node.host), WAIT, () -> "still connected");
        assertThat(n.counter("waku.relay.peer.disconnects", "reason", "rejected_messages")).isEqualTo(1);
        assertThat(n.counter("waku.relay.peer.disconnects", "reason", "graylisted")).as("its score was not that low")
                .isZero();
        assertThat(n.peer(1).connectedTo(n.node.host)).isTrue();
    }

    @Test
    void verdictsThatCompleteOutOfOrderDeliverEachMessageWhenItsOwnVerdictComes() {
        ValidatingNode n = node(2);
        WakuMessage first = FakeRlnValidator.message(20, 300, 'V', 'a');
        WakuMessage second = FakeRlnValidator.message(21, 300, 'V', 'a');
        CountDownLatch firstsProof = n.validator.holdNullifier(20);
        n.send(0, first);
        Eventually.until(() -> n.validator.started.get() == 1);
        n.send(0, second);

        Eventually.until(() -> n.delivered(second) && n.forwardedTo(1, second));
        assertThat(n.delivered(first)).as("still being verified").isFalse();
        firstsProof.countDown();
        Eventually.until(() -> n.delivered(first) && n.forwardedTo(1, first));
        assertThat(n.validator.verifyThreads).hasSize(2);
    }

    @Test
    void aSecondValidMessageWithALoggedNullifierIsSpamAndRejected() {
        ValidatingNode n = node(2);
        WakuMessage first = Messages.message(30, 100).toBuilder().setMeta(FakeRlnValidator.meta('V', 'a', 77)).build();
        WakuMessage spam = Messages.message(31, 100).toBuilder().setMeta(FakeRlnValidator.meta('V', 'a', 77)).build();
        n.send(0, first);
        Eventually.until(() -> n.delivered(first));
        n.send(0, spam);

        Eventually.until(() -> n.counter("waku.relay.validation.rejected", "reason", FakeRlnValidator.SPAM) == 1);
        assertThat(n.delivered(spam)).isFalse();
        Eventually.until(() -> n.score(0) < 0);
    }

    @Test
    void severalMessagesOfOneRpcAreJudgedEachOnItsOwn() {
        ValidatingNode n = node(2);
        List<WakuMessage> messages = List.of(FakeRlnValidator.message(40, 100, 'V', 'a'),
                FakeRlnValidator.message(41, 100, 'V', 'f'), FakeRlnValidator.message(42, 100, 'A', '-'));
        n.peer(0).send(ValidatingNode.publishAll(messages));

        Eventually.until(() -> n.delivered(messages.get(0)) && n.delivered(messages.get(2))
                && n.counter("waku.relay.validation.rejected", "reason", FakeRlnValidator.INVALID_PROOF) == 1);
        assertThat(n.delivered(messages.get(1))).isFalse();
        Eventually.until(() -> n.gauge("waku.relay.validation.held.bytes") == 0);
    }
}
