package io.wakurelay.relay;

import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attacker of issue 40 ("1,000 forged proofs per second from one peer while an honest peer's valid messages keep
 * arriving"), in process: one peer floods messages whose proofs are slow to verify, another sends valid messages at a
 * modest rate. The flooder's messages hold at most its budget of the validation queue, so the honest peer's are all
 * verified and delivered; without a per-peer budget the flooder takes the queue and the honest messages are lost.
 */
class ValidationFloodTest {
    private static final int HONEST_MESSAGES = 40;
    @RegisterExtension
    final Closer closer = new Closer();

    /** Runs the flood beside the honest peer's messages; returns the honest messages delivered. */
    private static int honestDeliveredDuringAFlood(ValidatingNode n) throws InterruptedException {
        AtomicBoolean flooding = new AtomicBoolean(true);
        Thread flooder = new Thread(() -> {
            for (int i = 0; flooding.get() && n.peer(0).connectedTo(n.node.host); i++) {
                n.send(0, FakeRlnValidator.message(1_000_000 + i, 200, 'V', 's'));
                if (i % 50 == 49) {
                    sleep(20); // about 2,000 a second: far more than two threads verify at 30 ms each
                }
            }
        }, "flooder");
        flooder.start();
        List<WakuMessage> honest = new ArrayList<>();
        try {
            sleep(200);
            for (int i = 0; i < HONEST_MESSAGES; i++) {
                WakuMessage m = FakeRlnValidator.message(i, 500, 'V', 'a');
                honest.add(m);
                n.send(1, m);
                sleep(50);
            }
            sleep(200); // the last honest message arrives while the flood goes on
        } finally {
            flooding.set(false);
            flooder.join(10_000);
        }
        Eventually.until(() -> n.gauge("waku.relay.validation.held.bytes") == 0, Duration.ofSeconds(60),
                () -> "held " + n.gauge("waku.relay.validation.held.bytes"));
        int delivered = (int) honest.stream().filter(n::delivered).count();
        System.out.printf("ValidationFloodTest: honest delivered %d of %d; flood verified %d, ignored peer_budget %.0f, "
                        + "queue_full %.0f%n", delivered, HONEST_MESSAGES, n.validator.verifications.get() - delivered,
                n.counter("waku.relay.validation.ignored", "reason", "peer_budget"),
                n.counter("waku.relay.validation.ignored", "reason", "queue_full"));
        return delivered;
    }

    private ValidatingNode node(UnaryOperator<io.wakurelay.relay.validation.ValidationConfig> validation) {
        return closer.keep(new ValidatingNode(2, validation));
    }

    @Test
    void anHonestPeersMessagesAreVerifiedWhileAFlooderHoldsOnlyItsOwnBudgetOfTheQueue() throws Exception {
        ValidatingNode n = node(c -> c.toBuilder().threads(2).queueMessages(64).peerInFlight(8).build());

        int delivered = honestDeliveredDuringAFlood(n);

        assertThat(delivered).as("honest messages delivered").isEqualTo(HONEST_MESSAGES);
        assertThat(n.counter("waku.relay.validation.ignored", "reason", "peer_budget")).as("the flood's overflow")
                .isPositive();
        assertThat(n.counter("waku.relay.validation.ignored", "reason", "queue_full")).isZero();
        assertThat(n.score(1)).isNotNegative();
    }

    @Test
    void withoutAPerPeerBudgetTheFlooderTakesTheQueueFromTheHonestPeer() throws Exception {
        ValidatingNode n = node(c -> c.toBuilder().threads(2).queueMessages(64).peerInFlight(64).build());

        int delivered = honestDeliveredDuringAFlood(n);

        assertThat(delivered).as("honest messages delivered").isLessThan(HONEST_MESSAGES);
        assertThat(n.counter("waku.relay.validation.ignored", "reason", "queue_full")).isPositive();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
