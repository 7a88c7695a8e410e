package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.relay.proto.ControlGraft;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.ControlPrune;
import io.wakurelay.relay.proto.RPC;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Peers that flood the node with control messages, played with {@link RawRelayPeer} (issue 27, "Peers cannot
 * exhaust the node"): found against a node of 512 MB, a PRUNE flood made it run out of memory in seven seconds, and
 * a peer that never read made it queue a PRUNE for each of its GRAFTs without end, never penalised.
 */
class ControlFloodTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    @RegisterExtension
    final Closer closer = new Closer();

    private static RPC subscribe() {
        return RPC.newBuilder().addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(Messages.TOPIC))
                .build();
    }

    private static RPC graft(String topic) {
        return control(ControlMessage.newBuilder().addGraft(ControlGraft.newBuilder().setTopicID(topic)));
    }

    private static RPC prune(String topic) {
        return control(ControlMessage.newBuilder().addPrune(ControlPrune.newBuilder().setTopicID(topic)));
    }

    private static RPC control(ControlMessage.Builder control) {
        return RPC.newBuilder().setControl(control).build();
    }

    /** {@code count} PRUNEs of topics named {@code prefix + i}, each asking for {@code backoffSeconds} (a uint64). */
    private static ControlMessage.Builder prunes(String prefix, int count, long backoffSeconds) {
        ControlMessage.Builder control = ControlMessage.newBuilder();
        for (int i = 0; i < count; i++) {
            control.addPrune(ControlPrune.newBuilder().setTopicID(prefix + i).setBackoff(backoffSeconds));
        }
        return control;
    }

    private static ControlMessage.Builder grafts(String prefix, int count) {
        ControlMessage.Builder control = ControlMessage.newBuilder();
        for (int i = 0; i < count; i++) {
            control.addGraft(ControlGraft.newBuilder().setTopicID(prefix + i));
        }
        return control;
    }

    private static double counter(TestNode node, String name, String... tags) {
        var c = node.registry.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    private static double ignored(TestNode node, String kind, String reason) {
        return counter(node, "waku.relay.control.ignored", "kind", kind, "reason", reason);
    }

    private static long subscribers(TestNode node) {
        return node.relay.peers().stream().filter(p -> p.topics().contains(Messages.TOPIC)).count();
    }

    private static long queuedBytes(TestNode node, RawRelayPeer peer) {
        return node.relay.peers().stream().filter(p -> p.peerId().equals(peer.host.peerId()))
                .mapToLong(RelayPeer::queuedBytes).sum();
    }

    @Test
    void prunesAndGraftsForTopicsTheNodeDoesNotRelayLeaveNoStateAndCostTheSenderItsConnectionWhileHonestMessagesFlow() {
        TestNode victim = closer.keep(new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519()));
        TestNode honest = closer.keep(new TestNode(1, TestNode.fastConfig(), PrivateKey.generateEd25519()));
        honest.host.dial(victim.address()).block(WAIT);
        RawRelayPeer attacker = closer.keep(new RawRelayPeer(2));
        attacker.connect(victim.address());
        attacker.send(subscribe());
        Eventually.until(() -> subscribers(victim) == 2 && victim.meshSize(Messages.TOPIC) >= 1);
        GossipRouter router = victim.relay.router();
        AtomicInteger maxBackoffs = new AtomicInteger();
        AtomicInteger maxScoredTopics = new AtomicInteger();
        Runnable sample = () -> {
            RouterViews.StateSizes sizes = router.stateSizes();
            maxBackoffs.accumulateAndGet(sizes.backoffs(), Math::max);
            maxScoredTopics.accumulateAndGet(sizes.scoredTopics(), Math::max);
        };

        // G1 as it was found: RPCs of tens of thousands of PRUNEs for topics the node does not have, asking for the
        // longest backoffs a uint64 can say (2^64 - 1 and 2^63 - 1 seconds)...
        attacker.send(control(prunes("x", 40_000, -1L)));
        attacker.send(control(prunes("y", 40_000, Long.MAX_VALUE)));
        // ...then RPCs that each fit the bound of one RPC, PRUNEs and GRAFTs, faster than a heartbeat's worth
        List<MessageHash> honestHashes = new ArrayList<>();
        for (int i = 0; i < 200 && attacker.connectedTo(victim.host); i++) {
            attacker.send(control(prunes("p" + i + "-", 2_000, -1L).mergeFrom(grafts("g" + i + "-", 2_000).build())));
            if (i % 10 == 0) {
                honestHashes.add(honest.relay.publish(Messages.TOPIC, Messages.message(i, 500)).block(WAIT).hash());
            }
            sample.run();
        }

        Eventually.until(() -> {
            sample.run();
            return !attacker.connectedTo(victim.host);
        }, WAIT, () -> "the attacker is still connected; router state " + router.stateSizes());
        assertThat(maxBackoffs.get()).as("backoff entries: one per peer and topic the node relays at most")
                .isLessThanOrEqualTo(2);
        assertThat(maxScoredTopics.get()).as("score stats: only topics the node relays").isLessThanOrEqualTo(2);
        assertThat(counter(victim, "waku.relay.peer.disconnects", "reason", "graylisted")).isEqualTo(1);
        assertThat(ignored(victim, "prune", "rpc_limit")).as("the two big RPCs, counted, not parsed")
                .isEqualTo(80_000);
        assertThat(ignored(victim, "graft", "unknown_topic")).isPositive();
        assertThat(ignored(victim, "prune", "unknown_topic")).isPositive();
        assertThat(attacker.received).as("no PRUNE answers a GRAFT for a topic the node does not relay").allMatch(r ->
                r.getControl().getPruneList().stream().allMatch(p -> p.getTopicID().equals(Messages.TOPIC)));
        Eventually.until(() -> victim.received.keySet().containsAll(honestHashes));
        assertThat(honest.host.connection(victim.host.peerId())).isPresent();
        System.out.printf("ControlFloodTest, G1: 2 RPCs of 40,000 PRUNEs and %.0f of 2,000 PRUNEs and 2,000 GRAFTs for "
                        + "unknown topics; backoff entries at most %d, scored topics at most %d; ignored: rpc_limit %.0f, "
                        + "unknown_topic %.0f GRAFTs and %.0f PRUNEs, heartbeat_limit %.0f; graylisted and disconnected; "
                        + "%d honest messages all delivered%n",
                counter(victim, "libp2p.gossipsub.control.received", "kind", "graft") / 2_000, maxBackoffs.get(),
                maxScoredTopics.get(), ignored(victim, "prune", "rpc_limit"), ignored(victim, "graft", "unknown_topic"),
                ignored(victim, "prune", "unknown_topic"), ignored(victim, "prune", "heartbeat_limit")
                        + ignored(victim, "graft", "heartbeat_limit"), honestHashes.size());
    }

    @Test
    void aPeerThatNeverReadsCannotMakeTheNodeQueueAnswersToItsGraftsAndIsDisconnected() {
        RelayConfig config = TestNode.fastConfig().toBuilder().peerQueueMessages(16)
                .peerQueueBytes(2L * RelayConfig.MAX_OUTBOUND_RPC_BYTES).build();
        TestNode node = closer.keep(new TestNode(0, config, PrivateKey.generateEd25519()));
        RawRelayPeer attacker = closer.keep(new RawRelayPeer(1).neverReading());
        attacker.connect(node.address());
        attacker.send(subscribe());
        Eventually.until(() -> node.relay.peers().stream()
                .anyMatch(p -> p.topics().contains(Messages.TOPIC) && p.relayStream()));

        // GRAFTs for the node's topic during the backoff its PRUNE set: each answered with a PRUNE, and penalised...
        attacker.send(graft(Messages.TOPIC));
        attacker.send(prune(Messages.TOPIC));
        for (int i = 0; i < 10; i++) {
            attacker.send(graft(Messages.TOPIC));
        }
        // ...then GRAFTs by the thousand for topics the node does not relay, with names long enough that a PRUNE for
        // each would take the node's queue past its bound several times over
        for (int i = 0; i < 200; i++) {
            attacker.send(control(grafts("/waku/2/rs/65535/not-a-topic-of-this-node-" + i + "-", 1_000)));
        }

        AtomicLong maxQueued = new AtomicLong();
        Eventually.until(() -> {
            maxQueued.accumulateAndGet(queuedBytes(node, attacker), Math::max);
            return !attacker.connectedTo(node.host);
        }, WAIT, () -> "the attacker is still connected; " + maxQueued + " bytes queued for it at most");
        // the queue's bound and control's allowance beyond it (two of the largest RPCs)
        long bound = config.peerQueueBytes() + 2L * RelayConfig.MAX_OUTBOUND_RPC_BYTES;
        assertThat(maxQueued.get()).isLessThanOrEqualTo(bound);
        assertThat(ignored(node, "graft", "unknown_topic")).isPositive();
        assertThat(ignored(node, "graft", "backoff")).isEqualTo(10);
        assertThat(counter(node, "waku.relay.peer.disconnects", "reason", "graylisted")).isEqualTo(1);
        System.out.printf("ControlFloodTest, G2b: a peer that never reads, 10 GRAFTs in backoff and 200 RPCs of 1,000 "
                        + "GRAFTs for unknown topics: at most %d bytes queued for it (bound %d); control dropped %.0f; "
                        + "graylisted and disconnected%n", maxQueued.get(), bound,
                counter(node, "waku.relay.peer.drops", "kind", "control"));
    }
}
