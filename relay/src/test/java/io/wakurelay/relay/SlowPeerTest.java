package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

class SlowPeerTest {
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void aPeerThatNeverReadsLosesMessagesAndIsDisconnectedWhileAnotherGetsThemAll() {
        RelayConfig config = TestNode.fastConfig().toBuilder().peerQueueMessages(16).peerQueueBytes(1 << 20)
                .maxDropsBeforeDisconnect(20).build();
        TestNode node = new TestNode(0, config, PrivateKey.generateEd25519());
        closer.keep(node);
        TestNode reader = new TestNode(1, TestNode.fastConfig(), PrivateKey.generateEd25519());
        closer.keep(reader);
        reader.host.dial(node.address()).block(Duration.ofSeconds(10));
        // the stuck peer takes the relay stream the node opens to it and never reads it: its credit runs out
        RawRelayPeer stuck = closer.keep(new RawRelayPeer(2).neverReading());
        stuck.connect(node.address());
        stuck.send(io.wakurelay.relay.proto.RPC.newBuilder().addSubscriptions(io.wakurelay.relay.proto.RPC.SubOpts.newBuilder()
                .setSubscribe(true).setTopicid(Messages.TOPIC)).build());
        Eventually.until(() -> node.relay.peers().stream().filter(p -> p.topics().contains(Messages.TOPIC)).count() == 2);

        // published in small batches that the reader takes as they come: only the stuck peer falls behind
        List<MessageHash> hashes = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            hashes.add(node.relay.publish(Messages.TOPIC, Messages.message(i, 20_000)).block(Duration.ofSeconds(10)).hash());
            if (i % 5 == 4) {
                Eventually.until(() -> reader.received.keySet().containsAll(hashes));
            }
        }

        Eventually.until(() -> !stuck.connectedTo(node.host));
        Eventually.until(() -> reader.received.keySet().containsAll(hashes));
        var drops = node.registry.find("waku.relay.peer.drops").tag("kind", "message").counter();
        assertThat(drops.count()).isGreaterThanOrEqualTo(20);
        assertThat(node.registry.find("waku.relay.peer.disconnects").tag("reason", "slow_consumer").counter().count()).isEqualTo(1);
    }
}
