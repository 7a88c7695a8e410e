package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

class MetadataTest {
    @RegisterExtension
    final Closer closer = new Closer();

    private TestNode node(int index, int cluster, String... topics) {
        RelayConfig config = TestNode.fastConfig().toBuilder().clusterId(cluster).pubsubTopics(List.of(topics)).build();
        TestNode n = new TestNode(index, config, PrivateKey.generateEd25519());
        closer.keep(n);
        return n;
    }

    @Test
    void aPeerOfAnotherClusterIsDisconnectedAndCounted() {
        TestNode ours = node(0, 0, "/waku/2/rs/0/0");
        TestNode theirs = node(1, 16, "/waku/2/rs/16/0");
        theirs.host.dial(ours.address()).block(Duration.ofSeconds(10));

        Eventually.until(() -> ours.host.connections().isEmpty() && theirs.host.connections().isEmpty());
        double counted = ours.registry.find("waku.relay.peer.disconnects").tag("reason", "cluster_mismatch").counter().count()
                + theirs.registry.find("waku.relay.peer.disconnects").tag("reason", "cluster_mismatch").counter().count();
        assertThat(counted).isGreaterThanOrEqualTo(1);
    }

    @Test
    void peersOfOneClusterStayAndEachAnnouncesItsShards() {
        TestNode a = node(0, 1, "/waku/2/rs/1/0", "/waku/2/rs/1/3", "/waku/2/default-waku/proto");
        TestNode b = node(1, 1, "/waku/2/rs/1/0");
        b.host.dial(a.address()).block(Duration.ofSeconds(10));

        Eventually.until(() -> a.meshSize("/waku/2/rs/1/0") == 1);
        assertThat(a.relay.shards()).containsExactly(0, 3);
        assertThat(a.host.connections()).hasSize(1);
    }

    @Test
    void aPeerThatDoesNotSpeakMetadataIsKept() throws InterruptedException {
        TestNode ours = node(0, 0, "/waku/2/rs/0/0");
        RawRelayPeer bare = new RawRelayPeer(1);
        closer.keep(bare);
        bare.connect(ours.address());
        Thread.sleep(1_000);

        assertThat(bare.connectedTo(ours.host)).isTrue();
    }
}
