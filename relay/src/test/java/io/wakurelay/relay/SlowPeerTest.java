package io.wakurelay.relay;

import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.wakurelay.testkit.TestMessages.PUBSUB_TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A peer that completes the handshake and then never reads. Its queue fills to its bound, further messages
 * for it are dropped and counted, it is disconnected as a slow consumer, and a well-behaved peer receives
 * every message meanwhile.
 */
class SlowPeerTest {
    private static final int QUEUE_MESSAGES = 64;
    private static final long QUEUE_BYTES = 2L << 20;
    private static final int MAX_DROPS = 16;
    private static final int MESSAGES = 600;
    private static final int SIZE = 20_000;

    @Test
    void aPeerThatDoesNotReadIsDroppedAndDisconnectedWhileOthersReceiveEverything() throws IOException {
        RelayConfig config = TestRelay.config("hub").withPeerQueue(QUEUE_MESSAGES, QUEUE_BYTES)
                .withMaxDropsBeforeDisconnect(MAX_DROPS);
        try (TestRelay hub = TestRelay.start(config);
             TestRelay good = TestRelay.start(TestRelay.config("good").withStaticPeers(List.of(hub.address())));
             RawPeer slow = RawPeer.connectWithReceiveBuffer(hub.address(), 4096)) {
            slow.handshake("slow", List.of(PUBSUB_TOPIC));
            Eventually.until("both peers connected", () -> hub.peerIds().containsAll(List.of("good", "slow")));

            List<MessageHash> hashes = new ArrayList<>();
            long maxSlowQueueBytes = 0;
            long maxSlowQueueMessages = 0;
            long slowDropsSeen = 0;
            for (int i = 0; i < MESSAGES; i++) {
                // the good peer reads as fast as loopback allows; pacing on its queue keeps this test about the slow one
                Eventually.until("the good peer's queue drains", () -> queued(hub, "good") < QUEUE_BYTES / 2);
                hashes.add(hub.publish(TestMessages.message(i, SIZE, TestMessages.nowNanos())).hash());
                Optional<PeerInfo> slowInfo = info(hub, "slow");
                if (slowInfo.isPresent()) {
                    maxSlowQueueBytes = Math.max(maxSlowQueueBytes, slowInfo.get().queuedBytes());
                    maxSlowQueueMessages = Math.max(maxSlowQueueMessages, slowInfo.get().queuedMessages());
                    slowDropsSeen = Math.max(slowDropsSeen, slowInfo.get().drops());
                }
            }

            Eventually.until("the good peer received everything", () -> good.acceptedHashes().containsAll(hashes));
            assertThat(good.acceptedCounts()).allSatisfy((hash, times) -> assertThat(times).isEqualTo(1));
            Eventually.until("the slow peer is disconnected", () -> !hub.peerIds().contains("slow"));
            assertThat(hub.counter("waku.relay.peer.disconnects", "reason", "slow_consumer")).isEqualTo(1);
            assertThat(slowDropsSeen).as("drops counted before the disconnect").isPositive();
            assertThat(maxSlowQueueBytes).as("the slow peer's queue stays within its bound").isLessThanOrEqualTo(QUEUE_BYTES);
            assertThat(maxSlowQueueMessages).as("the bound, plus the Goodbye that is written whatever the queue holds")
                    .isLessThanOrEqualTo(QUEUE_MESSAGES + 1);
            Eventually.until("the copies to the good peer are counted", () -> hub.counter("waku.relay.messages.relayed") > MESSAGES);
            assertThat(hub.counter("waku.relay.messages.relayed")).as("everything to the good peer, part to the slow one")
                    .isLessThan(2 * MESSAGES);
            assertThat(hub.registry.find("waku.relay.peer.drops").tags("peer", "slow").counter())
                    .as("meters of a departed peer are removed").isNull();
        }
    }

    private static Optional<PeerInfo> info(TestRelay relay, String nodeId) {
        return relay.relay.peers().stream().filter(p -> p.nodeId().equals(nodeId)).findFirst();
    }

    private static long queued(TestRelay relay, String nodeId) {
        return info(relay, nodeId).map(PeerInfo::queuedBytes).orElse(0L);
    }
}
