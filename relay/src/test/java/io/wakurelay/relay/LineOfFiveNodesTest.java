package io.wakurelay.relay;

import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** n0 - n1 - n2 - n3 - n4: a message published at one end crosses every node once. */
class LineOfFiveNodesTest {
    private static final int NODES = 5;
    private static final int MESSAGES = 30;
    private final List<TestRelay> line = new ArrayList<>();

    @AfterEach
    void close() {
        line.forEach(TestRelay::close);
    }

    @Test
    void messagesPublishedAtOneEndReachEveryNodeExactlyOnce() {
        for (int i = 0; i < NODES; i++) {
            RelayConfig config = TestRelay.config("n" + i);
            if (i > 0) {
                config = config.withStaticPeers(List.of(line.get(i - 1).address()));
            }
            line.add(TestRelay.start(config));
        }
        Eventually.until("the line is connected", () -> {
            for (int i = 1; i < NODES; i++) {
                if (!line.get(i).connectedTo(line.get(i - 1)) || !line.get(i - 1).connectedTo(line.get(i))) {
                    return false;
                }
            }
            return true;
        });

        List<MessageHash> hashes = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            int size = i % 3 == 0 ? 150_000 : 1_000 * (i + 1);
            hashes.add(line.get(0).publish(TestMessages.message(i, size, TestMessages.nowNanos())).hash());
        }

        TestRelay far = line.get(NODES - 1);
        Eventually.until("the far end accepted every message", () -> far.acceptedHashes().containsAll(hashes));
        for (int i = 0; i < NODES; i++) {
            TestRelay node = line.get(i);
            assertThat(node.acceptedCounts()).as("n%d accepted each message once", i)
                    .hasSize(MESSAGES).allSatisfy((hash, times) -> assertThat(times).isEqualTo(1));
            assertThat(node.counter("waku.relay.messages.accepted")).as("n%d accepted", i).isEqualTo(MESSAGES);
            assertThat(node.counter("waku.relay.messages.duplicate")).as("n%d duplicates", i).isZero();
            int expectedCopies = i < NODES - 1 ? MESSAGES : 0;
            // a copy counts as relayed when its write completed, which the next node may see first
            Eventually.until("n" + i + " counted its relayed copies",
                    () -> node.counter("waku.relay.messages.relayed") == expectedCopies);
            if (i > 0) {
                assertThat(node.counters.decodes()).as("n%d decodes", i).isEqualTo(MESSAGES);
                assertThat(node.counters.hashes()).as("n%d hashes", i).isEqualTo(MESSAGES);
                assertThat(node.counters.payloadCopies()).isZero();
            }
        }
    }
}
