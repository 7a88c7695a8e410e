package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.node.peers.CandidateView;
import io.wakurelay.node.status.PeerView;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.testkit.Closer;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PeerViewsTest {
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void candidatesThatAreNotConnectedAreListedAsNwakuListsItsPeerStore() {
        Host host = closer.keep(Host.start(HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0.1", 0))
                .build(), PrivateKey.generateEd25519(), new SimpleMeterRegistry()));
        PeerId peer = PeerId.fromPublicKey(PrivateKey.generateSecp256k1().publicKey());
        Multiaddr address = Multiaddr.parse("/ip4/127.0.0.9/tcp/60009").withPeerId(peer);

        List<PeerView> views = PeerViews.of(host, null, new PeerOrigins(),
                List.of(new CandidateView(peer, List.of(address), Origin.DISCV5, 1)));

        assertThat(views).singleElement().satisfies(v -> {
            assertThat(v.peerId()).isEqualTo(peer.toString());
            assertThat(v.multiaddr()).isEqualTo(address.toString());
            assertThat(v.origin()).isEqualTo("Discv5");
            assertThat(v.connected()).isFalse();
            assertThat(v.direction()).isNull();
        });
    }
}
