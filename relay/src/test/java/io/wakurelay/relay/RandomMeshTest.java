package io.wakurelay.relay;

import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Twelve nodes linked at random (seeded): a spanning tree, so the graph is connected, plus extra links that
 * make cycles. Every node receives every message exactly once, whichever node published it.
 */
class RandomMeshTest {
    private static final long SEED = 42;
    private static final int NODES = 12;
    private static final int EXTRA_LINKS = 10;
    private static final int MESSAGES = 40;
    private final List<TestRelay> nodes = new ArrayList<>();

    @AfterEach
    void close() {
        nodes.forEach(TestRelay::close);
    }

    @Test
    void everySubscriberReceivesEveryMessageExactlyOnce() {
        Random random = new Random(SEED);
        List<Set<Integer>> dials = randomLinks(random);
        for (int i = 0; i < NODES; i++) {
            List<InetSocketAddress> peers = new ArrayList<>();
            for (int lower : dials.get(i)) {
                peers.add(nodes.get(lower).address());
            }
            nodes.add(TestRelay.start(TestRelay.config(String.format("mesh-%02d", i)).withStaticPeers(peers)));
        }
        Eventually.until("every link is up", () -> {
            for (int i = 0; i < NODES; i++) {
                for (int lower : dials.get(i)) {
                    if (!nodes.get(i).connectedTo(nodes.get(lower)) || !nodes.get(lower).connectedTo(nodes.get(i))) {
                        return false;
                    }
                }
            }
            return true;
        });

        List<MessageHash> hashes = new ArrayList<>();
        for (int m = 0; m < MESSAGES; m++) {
            TestRelay publisher = nodes.get(random.nextInt(NODES));
            int size = 100 + random.nextInt(20_000);
            hashes.add(publisher.publish(TestMessages.message(m, size, TestMessages.nowNanos())).hash());
        }

        Eventually.until("every node accepted every message",
                () -> nodes.stream().allMatch(node -> node.acceptedHashes().containsAll(hashes)));
        double duplicates = 0;
        for (TestRelay node : nodes) {
            assertThat(node.acceptedCounts()).as(node.nodeId()).hasSize(MESSAGES)
                    .allSatisfy((hash, times) -> assertThat(times).isEqualTo(1));
            assertThat(node.counter("waku.relay.messages.accepted")).as(node.nodeId()).isEqualTo(MESSAGES);
            duplicates += node.counter("waku.relay.messages.duplicate");
        }
        assertThat(duplicates).as("the cycles deliver copies, and the seen-cache drops them").isPositive();
    }

    /** For each node, the lower-numbered nodes it dials: a random spanning tree plus random extra links. */
    private static List<Set<Integer>> randomLinks(Random random) {
        List<Set<Integer>> dials = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            dials.add(new HashSet<>());
            if (i > 0) {
                dials.get(i).add(random.nextInt(i));
            }
        }
        int added = 0;
        while (added < EXTRA_LINKS) {
            int a = random.nextInt(NODES);
            int b = random.nextInt(NODES);
            if (a != b && dials.get(Math.max(a, b)).add(Math.min(a, b))) {
                added++;
            }
        }
        return dials;
    }
}
